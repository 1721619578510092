//! What a directive is: the two kinds of call site the scanner finds, the
//! trait each directive module implements, and the registry of them.

use std::ops::Range;

use super::args::{self, Arg};
use super::context::{Cx, LinkCx};
use crate::data::LoadError;
use crate::diagnostic::Code;
use crate::diagnostic::{Diagnostic, did_you_mean};

/// Where a call sits in its chapter, which decides what it may expand to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// The call is a paragraph (or list item) of its own: block Markdown fits.
    Block,
    /// The call is inside running text: only inline Markdown fits.
    Inline,
}

/// A `{{#name args}}` call found by the scanner.
#[derive(Debug, Clone)]
pub struct Call<'t> {
    /// The directive's name.
    pub name: &'t str,
    /// The whole call, `{{` to `}}`.
    pub range: Range<usize>,
    /// The name, after `#`.
    pub name_range: Range<usize>,
    /// The text between the name and `}}`, trimmed.
    pub args: &'t str,
    /// Where `args` is.
    pub args_range: Range<usize>,
    /// Block or inline.
    pub placement: Placement,
    /// Level of the last heading before the call (0 when there is none).
    pub section_level: u8,
    /// Whether the call is inside a link's text, where a link would nest
    /// in a link (and the outer one would render as text).
    pub in_link: bool,
}

impl<'t> Call<'t> {
    /// The arguments, split.
    pub fn tokens(&self) -> Result<Vec<Arg<'t>>, Diagnostic> {
        args::tokenize(self.args, self.args_range.start)
            .map_err(|e| self.error_at(e.range, Code::InvalidArguments, e.message))
    }

    /// An error pointing at the directive's name.
    pub fn error(&self, code: Code, message: impl Into<String>) -> Diagnostic {
        self.error_at(self.name_range.clone(), code, message)
    }

    /// An error pointing at `range` (for example one argument).
    pub fn error_at(
        &self,
        range: Range<usize>,
        code: Code,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::error(code, message).in_chapter(0, range)
    }

    /// The error for this call when a data file it needs cannot be used:
    /// a follow-on of the file's problem, so that it is printed once per
    /// run however many directives need the file.
    pub fn load_error(&self, e: &LoadError) -> Diagnostic {
        let error = self
            .error(Code::MissingData, e.summary.clone())
            .with_follow_on(e.cause.clone());
        e.help
            .iter()
            .fold(error, |d, help| d.with_help(help.clone()))
    }
}

/// A fenced code block whose info string names a fence directive.
#[derive(Debug, Clone)]
pub struct FenceBlock<'t> {
    /// The directive's name (the info string's first word).
    pub name: &'t str,
    /// The whole block, opening fence to closing fence.
    pub range: Range<usize>,
    /// The info string after the name, trimmed.
    pub options: &'t str,
    /// Where `options` is.
    pub options_range: Range<usize>,
    /// The block's content with container prefixes removed.
    pub body: String,
    /// Maps byte offsets in `body` back to the scanned text.
    pub body_map: OffsetMap,
}

impl FenceBlock<'_> {
    /// An error pointing at the opening fence's info string.
    pub fn error(&self, code: Code, message: impl Into<String>) -> Diagnostic {
        let range = if self.options_range.is_empty() {
            self.range.start..self.range.start + 3
        } else {
            self.options_range.clone()
        };
        Diagnostic::error(code, message).in_chapter(0, range)
    }

    /// An error pointing at `range` in `body`.
    pub fn error_in_body(
        &self,
        range: Range<usize>,
        code: Code,
        message: impl Into<String>,
    ) -> Diagnostic {
        let start = self.body_map.to_source(range.start);
        let end = self.body_map.to_source(range.end.max(range.start + 1) - 1) + 1;
        Diagnostic::error(code, message).in_chapter(0, start..end.max(start))
    }
}

/// A piecewise map from offsets in an extracted text (a fence body) to
/// offsets in the text it was extracted from.
#[derive(Debug, Clone, Default)]
pub struct OffsetMap {
    /// `(offset in extracted text, offset in source)` at the start of each piece.
    pieces: Vec<(usize, usize)>,
}

impl OffsetMap {
    /// Records that extracted offset `extracted` corresponds to `source`, and
    /// that the following bytes are contiguous in both.
    pub fn push(&mut self, extracted: usize, source: usize) {
        self.pieces.push((extracted, source));
    }

    /// The source offset of extracted offset `offset`.
    pub fn to_source(&self, offset: usize) -> usize {
        let index = self.pieces.partition_point(|&(e, _)| e <= offset);
        match index.checked_sub(1).and_then(|i| self.pieces.get(i)) {
            Some(&(e, s)) => s + (offset - e),
            None => offset,
        }
    }
}

/// What a directive produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expansion {
    /// Markdown that fits in running text.
    Inline(String),
    /// Block Markdown (lists, tables, headings, HTML blocks).
    Block(String),
}

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
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a `{{#name}}` directive.
    pub fn with_brace(mut self, directive: impl BraceDirective + 'static) -> Self {
        self.brace.push(Box::new(directive));
        self
    }

    /// Adds a fence directive.
    pub fn with_fence(mut self, directive: impl FenceDirective + 'static) -> Self {
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

    /// Names of all fence directives.
    pub fn fence_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.fence.iter().map(|d| d.name())
    }

    /// Names of all `{{#name}}` directives.
    pub fn brace_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.brace.iter().map(|d| d.name())
    }
}

/// Parses `key=value` options against a fixed set of keys, for directives
/// that take options; unknown keys are errors with a suggestion.
pub fn unknown_option(arg: &Arg<'_>, key: &str, known: &[&str], call: &Call<'_>) -> Diagnostic {
    call.error_at(
        arg.range.clone(),
        Code::InvalidArguments,
        format!("unknown option `{key}`"),
    )
    .with_suggestion(did_you_mean(key, known.iter().copied()))
    .with_note(format!("valid options: {}", known.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_map_maps_pieces() {
        let mut map = OffsetMap::default();
        map.push(0, 10);
        map.push(4, 20);
        assert_eq!(map.to_source(0), 10);
        assert_eq!(map.to_source(3), 13);
        assert_eq!(map.to_source(4), 20);
        assert_eq!(map.to_source(9), 25);
        assert_eq!(OffsetMap::default().to_source(7), 7);
    }
}
