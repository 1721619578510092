//! The call sites the scanner finds, `{{#name args}}` and fence blocks, and
//! what a directive makes of one.

use std::ops::Range;

use super::args::{self, Arg};
use crate::chapter::PendingLink;
use crate::diagnostic::{Code, Diagnostic};
use crate::files::LoadError;
use crate::markdown::Placement;
use crate::span::OffsetMap;

/// A `{{#name args}}` call found by the scanner.
#[derive(Debug, Clone)]
pub struct Call<'t> {
    /// The directive's name, as the directive spells it.
    pub name: &'static str,
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
        Diagnostic::error(code, message).in_this_chapter(range)
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
    pub name: &'static str,
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
        Diagnostic::error(code, message).in_this_chapter(range)
    }

    /// An error pointing at `range` in `body`.
    pub fn error_in_body(
        &self,
        range: Range<usize>,
        code: Code,
        message: impl Into<String>,
    ) -> Diagnostic {
        let range = self.body_map.range_to_source(range);
        Diagnostic::error(code, message).in_this_chapter(range)
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

/// A link directive's call kept for the check pass, and back.
impl Call<'_> {
    /// This call, kept with its ranges mapped through `to_chapter`.
    pub fn pending(&self, to_chapter: impl Fn(Range<usize>) -> Range<usize>) -> PendingLink {
        PendingLink {
            name: self.name,
            args: self.args.to_string(),
            range: to_chapter(self.range.clone()),
            name_range: to_chapter(self.name_range.clone()),
            args_range: to_chapter(self.args_range.clone()),
            placement: self.placement,
            section_level: self.section_level,
            in_link: self.in_link,
        }
    }

    /// The call `link` kept, as the directive first saw it (in chapter
    /// offsets).
    pub fn of_pending(link: &PendingLink) -> Call<'_> {
        Call {
            name: link.name,
            range: link.range.clone(),
            name_range: link.name_range.clone(),
            args: &link.args,
            args_range: link.args_range.clone(),
            placement: link.placement,
            section_level: link.section_level,
            in_link: link.in_link,
        }
    }
}
