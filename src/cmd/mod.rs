//! The command line: the preprocessor itself (no subcommand), `supports`,
//! and the subcommands, one file each (as mdBook's `src/cmd/`).

mod book;
mod check;
mod init;
mod install;
mod owners;
mod preprocess;
mod roster;

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::report::MessageFormat;

/// The variables `check` sets for the preprocessor it has mdBook run, and
/// that a user may set for a build.
pub mod vars {
    /// The shape of the diagnostics.
    pub const MESSAGE_FORMAT: &str = "MDBOOK_COMMUNITY_MESSAGE_FORMAT";
    /// Where the diagnostics go in that shape.
    pub const MESSAGE_FILE: &str = "MDBOOK_COMMUNITY_MESSAGE_FILE";
    /// Set by `check` only: where the counts of errors and warnings go.
    pub const CHECK_STATUS: &str = "MDBOOK_COMMUNITY_CHECK_STATUS";
    /// `YYYY-MM-DD`: the day `check-activity`'s window ends, instead of
    /// today (for a build that must not change with the date).
    pub const NOW: &str = "MDBOOK_COMMUNITY_NOW";
}

/// An mdBook preprocessor for community docs: maintainer lists, FAQ blocks
/// and checked cross-links to CONTRIBUTING.md.
///
/// Without a command, reads mdBook's [context, book] JSON on stdin and writes
/// the processed book on stdout (this is how mdBook runs it).
#[derive(Debug, Parser)]
#[command(name = "mdbook-community", version, about, long_about)]
pub struct Cli {
    /// What to do; nothing means "run as mdBook's preprocessor".
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Tell mdBook whether a renderer is supported (always: exit 0).
    Supports {
        /// The renderer's name, e.g. `html`.
        renderer: String,
    },
    /// Add the preprocessor and its assets to a book's book.toml.
    Install {
        /// The book's folder (where book.toml is).
        #[arg(default_value = ".")]
        book_dir: PathBuf,
    },
    /// Run every check of a build (settings, data files, directives, the
    /// CODEOWNERS drift check, anchors) without writing the book.
    ///
    /// The book is loaded by your `mdbook`, exactly as a build loads it.
    /// Exit status: 0 no errors, 1 errors (or warnings with
    /// `--deny warnings`), 2 the check could not run.
    Check {
        /// The book's folder (where book.toml is).
        #[arg(default_value = ".")]
        book_dir: PathBuf,
        /// How diagnostics are printed: `human` on stderr, the others on
        /// stdout (`--format`, as `roster` and `owners` name it;
        /// `--message-format` is the same flag).
        #[arg(
            long = "format",
            visible_alias = "message-format",
            value_enum,
            default_value_t = MessageFormat::Human
        )]
        message_format: MessageFormat,
        /// `--deny warnings`: warnings fail the check too.
        #[arg(long, value_name = "LEVEL")]
        deny: Option<DenyArg>,
        /// The mdBook to load the book with.
        #[arg(long, value_name = "PATH", default_value = "mdbook")]
        mdbook: OsString,
    },
    /// Make a community book for the repository you are in: its people
    /// files, CODEOWNERS and community pages, in a book that builds at once.
    ///
    /// Writes nothing into a folder that exists.
    Init {
        /// The new book's folder (default: `docs` in the repository).
        book_dir: Option<PathBuf>,
    },
    /// Print the roster a build of the book would read: every person and
    /// group, and the file and line each came from.
    ///
    /// Exit status: 0 read, 1 the roster has errors, 2 it could not run.
    Roster {
        /// The book's folder (where book.toml is).
        #[arg(default_value = ".")]
        book_dir: PathBuf,
        /// `human` for people, `json` (a stable shape) for programs, `toml`
        /// for a `maintainers.toml` holding the same roster.
        /// `cncf-maintainers` for CNCF's `.project/maintainers.yaml`.
        #[arg(long, value_enum, default_value_t = roster::RosterFormat::Human)]
        format: roster::RosterFormat,
        /// Compare each group with the copies `copies` names: who is
        /// missing or emeritus where, and how similar each copy is
        /// (`human` or `json`).
        #[arg(long)]
        compare: bool,
        /// For `cncf-maintainers`: the group written as
        /// `project-maintainers` (default `maintainers`).
        #[arg(long, value_name = "ID")]
        project_group: Option<String>,
        /// For `cncf-maintainers`: the `project_id` (default: the
        /// repository folder's name).
        #[arg(long, value_name = "SLUG")]
        project_id: Option<String>,
        /// For `cncf-maintainers`: the GitHub `org`.
        #[arg(long, value_name = "ORG")]
        org: Option<String>,
    },
    /// Who owns each path, from CODEOWNERS or the OWNERS tree, with the
    /// roster's names and statuses; `--coverage` adds the repository's
    /// figures: files with an active owner, the others, and CODEOWNERS
    /// rules that match no file.
    ///
    /// Without PATH (and without `--coverage`), every file of the
    /// repository. Exit status: 0 printed, 1 the ownership could not be
    /// read, 2 it could not run.
    Owners {
        /// The book's folder (where book.toml is).
        #[arg(default_value = ".")]
        book_dir: PathBuf,
        /// Paths relative to the repository root (files or folders).
        paths: Vec<String>,
        /// Also the repository's coverage: every file without an active
        /// owner, and the rules that match no file.
        #[arg(long)]
        coverage: bool,
        /// `human` for people, `json` (a stable shape) for programs.
        #[arg(long, value_enum, default_value_t = owners::OwnersFormat::Human)]
        format: owners::OwnersFormat,
    },
    /// A renderer that writes nothing (`check` has mdBook run it).
    #[command(hide = true)]
    Discard,
}

/// `--deny`'s values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum DenyArg {
    /// Warnings fail the check.
    Warnings,
}

/// Runs the command line; returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        // Every renderer is supported: non-HTML renderers get plain CommonMark.
        Some(Command::Supports { .. }) => ExitCode::SUCCESS,
        Some(Command::Install { book_dir }) => install::run(&book_dir),
        Some(Command::Check {
            book_dir,
            message_format,
            deny,
            mdbook,
        }) => {
            let options = check::CheckOptions {
                book_dir,
                format: message_format,
                deny_warnings: deny.is_some(),
                mdbook,
                color: color(),
            };
            let code = check::run(
                &options,
                &mut std::io::stdout().lock(),
                &mut std::io::stderr().lock(),
            );
            ExitCode::from(code)
        }
        Some(Command::Init { book_dir }) => init::run(book_dir.as_deref()),
        Some(Command::Roster {
            book_dir,
            format,
            compare,
            project_group,
            project_id,
            org,
        }) => {
            let options = roster::RosterOptions {
                format,
                compare,
                cncf: roster::cncf::CncfOptions {
                    project_group,
                    project_id: project_id.unwrap_or_default(),
                    org,
                },
            };
            ExitCode::from(roster::run(&book_dir, &options, color()))
        }
        Some(Command::Owners {
            book_dir,
            paths,
            coverage,
            format,
        }) => ExitCode::from(owners::run(&owners::OwnersOptions {
            book_dir: &book_dir,
            paths: &paths,
            coverage,
            format,
            color: color(),
        })),
        // Exits without reading the book: mdBook writes it in many small
        // pieces, which took a third of a check's time. mdBook logs the
        // closed pipe as a warning (the check does not show mdBook's log
        // unless mdBook fails) and goes on.
        Some(Command::Discard) => ExitCode::SUCCESS,
        None => preprocess::run(),
    }
}

/// Colour on the terminal, as `NO_COLOR` and `CLICOLOR_FORCE` say: the
/// one rule for every command.
fn color() -> bool {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return false;
    }
    set("CLICOLOR_FORCE") || std::io::stderr().is_terminal()
}
