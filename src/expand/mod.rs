//! The expand stage: every chapter's directives, once each.
//!
//! [`scan`] finds call sites (a byte scan first; Markdown is parsed only for
//! chapters that may hold one), each site's directive runs with a [`Cx`],
//! and [`splice`] replaces exactly the sites' bytes. Link directives, whose
//! output depends on other chapters' ids, leave a [`marker`] and a
//! [`deferred::PendingLink`] for the resolve stage instead.
//!
//! A chapter keeps its replacements, not its text: [`Expanded::text`] is
//! the one way the expanded text is made, and [`final_text`] the one way
//! a chapter's final text is.

pub mod args;
mod call;
mod deferred;
mod directive;
mod included;
mod map;
mod marker;
mod scan;
mod splice;
mod text;

use std::ops::Range;
use std::sync::Arc;

pub use call::{Call, Expansion, FenceBlock};
pub use deferred::Deferred;
pub use directive::{BraceDirective, Cx, FenceDirective, LinkCx, Registry, Run, unknown_option};
pub use map::{ChapterMap, NotePlace};

use crate::diagnostic::Diagnostic;
use crate::intern::Interner;
use crate::parallel;
use directive::ChapterState;
use splice::{Replacement, spans_of, splice};

/// One chapter after the expand stage.
///
/// It keeps the replacements, not the expanded text: the text is made
/// again from the chapter whenever a later stage reads it (once to index
/// the page, once to check its links, once to write it), and dropped after
/// each use. Equal expansions share one text, so a book that repeats the
/// same directives holds each output once, not once per chapter.
#[derive(Debug, Default)]
pub struct Expanded {
    /// The replacements that make the expanded text, in chapter offsets,
    /// in order.
    replacements: Vec<Replacement>,
    /// Where each replacement's text is in the expanded text.
    spans: Vec<Range<usize>>,
    /// What the resolve stage finishes.
    pub deferred: Deferred,
    /// Problems, in chapter offsets, in the order of their sites.
    pub diagnostics: Vec<Diagnostic>,
}

/// What the resolve stage decided for a chapter: what each link marker
/// becomes, and the notes shown after broken links (`on-error = "warn"`).
#[derive(Debug, Default)]
pub struct Resolved {
    /// What link marker `n` becomes.
    pub links: Vec<Arc<str>>,
    /// Visible notes, each a Markdown block or inline text from the writer.
    pub notes: Vec<(NotePlace, String)>,
}

impl Expanded {
    /// Gives back the room its lists grew into: kept for every chapter
    /// with a directive until the answer is written, a list of one link
    /// grown to four was a tenth of the run's memory.
    fn shrink_to_fit(&mut self) {
        self.replacements.shrink_to_fit();
        self.spans.shrink_to_fit();
        self.diagnostics.shrink_to_fit();
        self.deferred.shrink_to_fit();
    }

    /// The chapter (`content`, as mdBook sent it) with every directive
    /// expanded and every link directive a marker: the text the book index
    /// is built from.
    pub fn text(&self, content: &str) -> String {
        splice(content, &self.replacements)
    }

    /// How offsets of [`text`](Self::text) map back to `content`.
    pub fn map<'a>(&'a self, content: &'a str) -> ChapterMap<'a> {
        ChapterMap::new(content, &self.replacements, &self.spans)
    }

    /// Whether a directive on this page failed: the page may lack the ids
    /// it would have made.
    pub fn is_partial(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// A chapter without replacements whose directive failed.
    #[cfg(test)]
    pub fn partial_for_tests() -> Self {
        let error = Diagnostic::error(crate::diagnostic::Code::MissingData, "failed");
        Expanded {
            diagnostics: vec![error],
            ..Expanded::default()
        }
    }
}

/// A chapter's final text: `content` with `expanded`'s replacements, the
/// resolve stage's notes, and its links in place of the markers; `None`
/// when nothing changes. The one place a chapter's final text is made.
pub fn final_text(
    content: &str,
    expanded: Option<&Expanded>,
    resolved: Option<&Resolved>,
) -> Option<String> {
    let empty = Expanded::default();
    let expanded = expanded.unwrap_or(&empty);
    let (links, notes) = match resolved {
        Some(r) => (&r.links[..], &r.notes[..]),
        None => (&[][..], &[][..]),
    };
    if expanded.replacements.is_empty() && notes.is_empty() {
        return None;
    }
    let text = match notes.is_empty() {
        true => splice(content, &expanded.replacements),
        false => splice(content, &map::with_notes(&expanded.replacements, notes)),
    };
    Some(marker::replace_markers(text, links))
}

/// Expands every chapter that may hold a directive, on all cores; `None`
/// for the others (their text is the chapter's, and they are not parsed).
/// Boxed: a book's chapters are mostly `None`, one word each.
pub fn expand_book(run: &Run<'_>) -> Vec<Option<Box<Expanded>>> {
    let chapters = run.chapters;
    let names = run.registry.names();
    // What every call site holds: a chapter without any is not decoded, and
    // a book without any starts no thread.
    let needles: Vec<&str> = std::iter::once("{{").chain(names.fence_names()).collect();
    // A chapter with a file may show text mdBook included from outside
    // `src`, whose links `included` resolves (reading the file tells).
    let todo: Vec<usize> = (0..chapters.len())
        .filter(|&i| {
            chapters[i].source_path().is_some() || chapters[i].content.may_contain_any(&needles)
        })
        .collect();
    let mut expanded: Vec<Option<Box<Expanded>>> = (0..chapters.len()).map(|_| None).collect();
    let interner = Interner::default();
    // Each chapter is decoded by the thread that scans it, and dropped after.
    for (index, chapter) in parallel::map(
        &todo,
        |i| chapters[i].content.len(),
        |i| {
            let included = included::links(run, i);
            let no_sites = !chapters[i].content.may_contain_any(&needles);
            if no_sites && included.0.is_empty() && included.1.is_empty() {
                return None;
            }
            let content = chapters[i].content.get();
            let has_sites = scan::may_contain(&content, names);
            let has_links = !included.0.is_empty() || !included.1.is_empty();
            (has_sites || has_links)
                .then(|| Box::new(expand_chapter(run, i, &content, &interner, included)))
        },
    ) {
        expanded[index] = chapter;
    }
    expanded
}

/// Expands chapter `index` of `run`, whose text is `content`; equal
/// outputs are kept once in `interner`.
fn expand_chapter(
    run: &Run<'_>,
    index: usize,
    content: &str,
    interner: &Interner,
    (links, problems): (Vec<Replacement>, Vec<Diagnostic>),
) -> Expanded {
    let state = ChapterState::default();
    let cx = Cx::new(run, index, &state);
    let (mut replacements, mut diagnostics) = text::replacements_of(content, &cx);
    drop(cx);
    // The included text's links, but where a directive's site covers them.
    let covered = |r: &Replacement| {
        (replacements.iter()).any(|d| d.range.start < r.range.end && r.range.start < d.range.end)
    };
    let links: Vec<Replacement> = links.into_iter().filter(|r| !covered(r)).collect();
    if !links.is_empty() {
        replacements.extend(links);
        replacements.sort_by_key(|r| r.range.start);
    }
    diagnostics.extend(problems);
    for replacement in &mut replacements {
        interner.share_in_place(&mut replacement.text);
    }
    let spans = spans_of(content, &replacements);
    let diagnostics = diagnostics.into_iter().map(|d| d.for_chapter(index));
    let mut expanded = Expanded {
        replacements,
        spans,
        deferred: state.deferred.into_inner(),
        diagnostics: diagnostics.collect(),
    };
    expanded.shrink_to_fit();
    expanded
}
