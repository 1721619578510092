//! The expand stage: every chapter's directives, once each.
//!
//! [`scan`] finds call sites (a byte scan first; Markdown is parsed only for
//! chapters that may hold one), each site's directive runs with a [`Cx`],
//! and [`splice`] replaces exactly the sites' bytes. Link directives, whose
//! output depends on other chapters' ids, leave a [`marker`] and a
//! [`context::PendingLink`] for the resolve stage instead.

pub mod args;
mod context;
pub mod directive;
pub mod marker;
pub mod scan;
pub mod splice;
mod text;

use std::ops::Range;

pub use context::{Cx, Deferred, LinkCx, Run};
pub use text::error_note;

use crate::config::OnError;
use crate::diagnostic::Diagnostic;
use crate::parallel;
use context::ChapterState;
use splice::{Replacement, splice_with_spans};

/// One chapter after the expand stage.
#[derive(Debug)]
pub struct Expanded {
    /// The chapter with every directive expanded and every link directive
    /// a marker: the text the book index is built from.
    pub text: String,
    /// The replacements that made `text`, in chapter offsets, in order.
    /// Their texts are kept only with `on-error = "warn"` (notes about
    /// links inside them are added to them); otherwise they are empty.
    pub replacements: Vec<Replacement>,
    /// Where each replacement's text is in `text`.
    pub spans: Vec<Range<usize>>,
    /// What the resolve stage finishes.
    pub deferred: Deferred,
    /// Problems, in chapter offsets, in the order of their sites.
    pub diagnostics: Vec<Diagnostic>,
}

impl Expanded {
    /// The chapter's final text: the expanded text with each link marker
    /// replaced by `links[number]`; `None` when nothing was replaced.
    pub fn finish(self, links: &[String]) -> Option<String> {
        if self.replacements.is_empty() {
            return None;
        }
        if marker::markers_in(&self.text).next().is_none() {
            return Some(self.text);
        }
        let text = &self.text;
        let crlf = crate::markdown::uses_crlf(text);
        let mut out = String::with_capacity(text.len());
        // Where the line of the next marker starts, found incrementally so
        // that many markers on one long line stay linear.
        let (mut copied, mut line_start) = (0, 0);
        for (range, number) in marker::markers_in(text) {
            let Some(link) = links.get(number) else {
                continue;
            };
            let gap = &text[copied..range.start];
            if let Some(newline) = memchr::memrchr(b'\n', gap.as_bytes()) {
                line_start = copied + newline + 1;
            }
            out.push_str(gap);
            splice::push_in_place(&mut out, link, &text[line_start..range.start], crlf);
            copied = range.end;
        }
        out.push_str(&text[copied..]);
        Some(out)
    }
}

/// Expands every chapter that may hold a directive, on all cores; `None`
/// for the others (their text is the chapter's, and they are not parsed).
pub fn expand_book(run: &Run<'_>) -> Vec<Option<Expanded>> {
    let chapters = run.chapters;
    let todo: Vec<usize> = (0..chapters.len())
        .filter(|&i| scan::may_contain(&chapters[i].content, run.registry))
        .collect();
    let mut expanded: Vec<Option<Expanded>> = (0..chapters.len()).map(|_| None).collect();
    for (index, chapter) in parallel::map(
        &todo,
        |i| chapters[i].content.len(),
        |i| expand_chapter(run, i),
    ) {
        expanded[index] = Some(chapter);
    }
    expanded
}

/// Expands chapter `index` of `run`.
fn expand_chapter(run: &Run<'_>, index: usize) -> Expanded {
    let state = ChapterState::default();
    let cx = Cx::new(run, index, &state);
    let content = &run.chapters[index].content;
    let (replacements, diagnostics) = text::replacements_of(content, &cx);
    let (text, spans) = splice_with_spans(content, &replacements);
    drop(cx);
    let mut replacements = replacements;
    if run.settings.on_error != OnError::Warn {
        for replacement in &mut replacements {
            replacement.text = String::new();
        }
    }
    Expanded {
        text,
        replacements,
        spans,
        deferred: state.deferred.into_inner(),
        diagnostics,
    }
}
