//! What a directive is and what it sees: the seam between the passes and
//! the directives. The `BraceDirective` and `FenceDirective` traits, the
//! [`Registry`] of them, a call site as a directive sees it ([`Call`],
//! [`FenceBlock`], [`args`]), and the contexts a directive runs in: [`Cx`]
//! while the expand pass expands it, [`LinkCx`] while the check pass
//! resolves it.
//!
//! It belongs to neither pass (as mdBook's preprocessor interface is its
//! own crate): the expand pass calls a directive's `expand`, the check
//! pass its `resolve`, and neither goes back into the other. A directive
//! whose output needs other chapters' ids does not get them while
//! expanding: it defers the call ([`Cx::defer_link`]) or the check
//! ([`Cx::check_anchor_later`]), and the check pass finishes it against
//! the index of the expanded book. So no chapter is ever expanded twice.

pub mod args;
mod call;
mod context;
mod names;

pub use call::{Call, Expansion, FenceBlock};
pub use context::{ChapterState, Cx, LinkCx, Run};
pub use names::DirectiveNames;

use crate::diagnostic::{Code, Diagnostic, did_you_mean};
use args::Arg;

/// A `{{#name ...}}` directive.
pub trait BraceDirective: Send + Sync {
    /// The name after `{{#`.
    fn name(&self) -> &'static str;

    /// Expands one call. Errors are returned, never printed. A directive
    /// that links into the book returns [`Cx::defer_link`] here and does its
    /// work in [`resolve`](Self::resolve).
    fn expand(&self, call: &Call<'_>, cx: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>>;

    /// Finishes a call that [`expand`](Self::expand) deferred, once every
    /// chapter is expanded and the book's ids are known.
    fn resolve(&self, call: &Call<'_>, _cx: &LinkCx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        Err(vec![call.error(
            Code::MissingData,
            format!(
                "`{{{{#{}}}}}` was deferred but cannot be resolved",
                call.name
            ),
        )])
    }
}

/// A fenced code block directive: ```` ```name options ````.
pub trait FenceDirective: Send + Sync {
    /// The info string's first word.
    fn name(&self) -> &'static str;

    /// Expands one block. Errors are returned, never printed.
    fn expand(&self, block: &FenceBlock<'_>, cx: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>>;
}

/// The directives a run knows.
#[derive(Default)]
pub struct Registry {
    brace: Vec<Box<dyn BraceDirective>>,
    fence: Vec<Box<dyn FenceDirective>>,
    names: DirectiveNames,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a `{{#name}}` directive.
    pub fn with_brace(mut self, directive: impl BraceDirective + 'static) -> Self {
        self.names.add_brace(directive.name());
        self.brace.push(Box::new(directive));
        self
    }

    /// Adds a fence directive.
    pub fn with_fence(mut self, directive: impl FenceDirective + 'static) -> Self {
        self.names.add_fence(directive.name());
        self.fence.push(Box::new(directive));
        self
    }

    /// The `{{#name}}` directive called `name`.
    pub fn brace(&self, name: &str) -> Option<&dyn BraceDirective> {
        self.brace
            .iter()
            .find(|d| d.name() == name)
            .map(|d| d.as_ref())
    }

    /// The fence directive called `name`.
    pub fn fence(&self, name: &str) -> Option<&dyn FenceDirective> {
        self.fence
            .iter()
            .find(|d| d.name() == name)
            .map(|d| d.as_ref())
    }

    /// The directives' names, which is all the scanner needs.
    pub fn names(&self) -> &DirectiveNames {
        &self.names
    }
}

/// The error for an option `key` a directive does not take, with the
/// closest of the `known` ones.
pub fn unknown_option(arg: &Arg<'_>, key: &str, known: &[&str], call: &Call<'_>) -> Diagnostic {
    call.error_at(
        arg.range.clone(),
        Code::InvalidArguments,
        format!("unknown option `{key}`"),
    )
    .with_suggestion(did_you_mean(key, known.iter().copied()))
    .with_note(format!("valid options: {}", known.join(", ")))
}
