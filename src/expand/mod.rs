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

use std::collections::HashSet;
use std::ops::Range;
use std::sync::{Arc, Mutex};

pub use context::{Cx, Deferred, LinkCx, Run};
pub use text::error_note;

use crate::diagnostic::Diagnostic;
use crate::parallel;
use context::ChapterState;
use splice::{Replacement, spans_of, splice};

/// One chapter after the expand stage.
///
/// It keeps the replacements, not the expanded text: the text is made
/// again from the chapter whenever a later stage reads it (once to index
/// the page, once to check its links, once to write it), and dropped after
/// each use. Equal expansions share one text, so a book that repeats the
/// same directives holds each output once, not once per chapter.
#[derive(Debug)]
pub struct Expanded {
    /// The replacements that make the expanded text, in chapter offsets,
    /// in order.
    pub replacements: Vec<Replacement>,
    /// Where each replacement's text is in the expanded text.
    pub spans: Vec<Range<usize>>,
    /// What the resolve stage finishes.
    pub deferred: Deferred,
    /// Problems, in chapter offsets, in the order of their sites.
    pub diagnostics: Vec<Diagnostic>,
}

impl Expanded {
    /// Gives back the room its lists grew into: kept for every chapter
    /// with a directive until the answer is written, a list of one link
    /// grown to four was a tenth of the run's memory.
    fn shrink_to_fit(&mut self) {
        self.replacements.shrink_to_fit();
        self.spans.shrink_to_fit();
        self.diagnostics.shrink_to_fit();
        let deferred = &mut self.deferred;
        deferred.links.shrink_to_fit();
        deferred.anchors.shrink_to_fit();
        deferred.rendered_groups.shrink_to_fit();
    }

    /// The chapter (`content`, as mdBook sent it) with every directive
    /// expanded and every link directive a marker: the text the book index
    /// is built from.
    pub fn text(&self, content: &str) -> String {
        splice(content, &self.replacements)
    }

    /// The chapter's final text: the expanded text with each link marker
    /// replaced by `links[number]`; `None` when nothing was replaced.
    pub fn finish(&self, content: &str, links: &[Arc<str>]) -> Option<String> {
        if self.replacements.is_empty() {
            return None;
        }
        let text = self.text(content);
        if marker::markers_in(&text).next().is_none() {
            return Some(text);
        }
        let crlf = crate::markdown::uses_crlf(&text);
        let mut out = String::with_capacity(text.len());
        // Where the line of the next marker starts, found incrementally so
        // that many markers on one long line stay linear.
        let (mut copied, mut line_start) = (0, 0);
        for (range, number) in marker::markers_in(&text) {
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

/// Equal texts, kept once for the run (a directive repeated across the
/// book gives the same output in every chapter).
#[derive(Default)]
pub struct Shared(Mutex<HashSet<Arc<str>>>);

impl Shared {
    /// `text`, or the equal text kept before it.
    pub fn share(&self, text: Arc<str>) -> Arc<str> {
        let Ok(mut kept) = self.0.lock() else {
            return text;
        };
        if let Some(kept) = kept.get(&text) {
            return Arc::clone(kept);
        }
        kept.insert(Arc::clone(&text));
        text
    }
}

/// Expands every chapter that may hold a directive, on all cores; `None`
/// for the others (their text is the chapter's, and they are not parsed).
/// Boxed: a book's chapters are mostly `None`, one word each.
pub fn expand_book(run: &Run<'_>) -> Vec<Option<Box<Expanded>>> {
    let chapters = run.chapters;
    // What every call site holds: a chapter without any is not decoded, and
    // a book without any starts no thread.
    let needles: Vec<&str> = std::iter::once("{{")
        .chain(run.registry.fence_names())
        .collect();
    let todo: Vec<usize> = (0..chapters.len())
        .filter(|&i| chapters[i].content.may_contain_any(&needles))
        .collect();
    let mut expanded: Vec<Option<Box<Expanded>>> = (0..chapters.len()).map(|_| None).collect();
    let shared = Shared::default();
    // Each chapter is decoded by the thread that scans it, and dropped after.
    for (index, chapter) in parallel::map(
        &todo,
        |i| chapters[i].content.len(),
        |i| {
            let content = chapters[i].content.get();
            scan::may_contain(&content, run.registry)
                .then(|| Box::new(expand_chapter(run, i, &content, &shared)))
        },
    ) {
        expanded[index] = chapter;
    }
    expanded
}

/// Expands chapter `index` of `run`, whose text is `content`; equal
/// outputs are kept once in `shared`.
fn expand_chapter(run: &Run<'_>, index: usize, content: &str, shared: &Shared) -> Expanded {
    let state = ChapterState::default();
    let cx = Cx::new(run, index, &state);
    let (mut replacements, diagnostics) = text::replacements_of(content, &cx);
    drop(cx);
    for replacement in &mut replacements {
        let text = std::mem::replace(&mut replacement.text, Arc::from(""));
        replacement.text = shared.share(text);
    }
    let spans = spans_of(content, &replacements);
    let mut expanded = Expanded {
        replacements,
        spans,
        deferred: state.deferred.into_inner(),
        diagnostics,
    };
    expanded.shrink_to_fit();
    expanded
}
