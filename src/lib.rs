//! mdbook-community: an mdBook preprocessor for community documentation.
//!
//! The code is laid out by pipeline stage; ARCHITECTURE.md at the
//! repository root maps it. The library's API is what the binary needs:
//! [`preprocess`] runs the preprocessor over mdBook's request, and
//! [`run_cli`] is the whole command line.

mod activity;
mod assets;
mod chapter;
mod check;
mod cmd;
mod config;
mod data;
mod date;
mod diagnostic;
mod directive;
mod directives;
mod expand;
mod files;
mod git;
mod governance;
mod ids;
mod index;
mod intern;
mod markdown;
mod mdbook;
mod ownership;
mod parallel;
mod paths;
mod people;
mod pipeline;
mod report;
mod span;
mod unicode;

pub use cmd::main as run_cli;
pub use pipeline::preprocess;
pub use report::Environment;

/// Hooks for the integration tests, fuzz targets and benchmarks: the
/// stages' entry points and types they drive directly. Not a stable API.
#[doc(hidden)]
pub mod testing {
    pub use crate::config::Settings;
    pub use crate::diagnostic::{Code, Diagnostic, Location, Severity, SourceFile, all_codes};
    pub use crate::directive::Registry;
    pub use crate::directive::args::{self, ArgKind};
    pub use crate::files::tree as datatree;
    pub use crate::mdbook::protocol;
    pub use crate::mdbook::{Book, Chapter, Context, Generation};
    pub use crate::ownership::codeowners::CodeOwners;
    pub use crate::ownership::tree::{OwnersTree, Source as OwnersSource};
    pub use crate::paths::ShownPaths;
    pub use crate::people::People;
    pub use crate::people::roster::parse_cncf_maintainers as parse_people_cncf;
    pub use crate::people::roster::parse_maintainers_text as parse_people_text;
    pub use crate::people::roster::parse_markdown as parse_people_markdown;
    pub use crate::people::roster::parse_native as parse_people;
    pub use crate::pipeline::process_chapters;
    pub use crate::report::{EmitOptions, MessageFormat, emit};

    /// Every directive this plugin ships.
    pub fn builtin_registry() -> Registry {
        crate::directives::builtin()
    }
}
