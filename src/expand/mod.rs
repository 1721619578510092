//! The expand stage: every chapter's directives, once each.
//!
//! [`scan`] finds call sites (a byte scan first; Markdown is parsed only for
//! chapters that may hold one), each site's directive runs with a [`Cx`],
//! and [`splice`] replaces exactly the sites' bytes. Link directives, whose
//! output depends on other chapters' ids, leave a [`marker`] and a
//! [`deferred::PendingLink`] for the resolve stage instead.
//!
//! A chapter keeps its replacements, not its text (`chapter::Expanded`):
//! the passes after this one read it through `chapter/`.

pub mod args;
mod call;
mod directive;
mod scan;
mod text;

pub use call::{Call, Expansion, FenceBlock};
pub use directive::{BraceDirective, Cx, FenceDirective, LinkCx, Registry, Run, unknown_option};

use crate::chapter::Expanded;
use crate::intern::Interner;
use crate::parallel;
use directive::ChapterState;

/// Expands every chapter that may hold a directive, on all cores; `None`
/// for the others (their text is the chapter's, and they are not parsed).
/// Boxed: a book's chapters are mostly `None`, one word each.
pub fn expand_book(run: &Run<'_>) -> Vec<Option<Box<Expanded>>> {
    let chapters = run.chapters;
    let names = run.registry.names();
    // What every call site holds: a chapter without any is not decoded, and
    // a book without any starts no thread.
    let needles: Vec<&str> = std::iter::once("{{").chain(names.fence_names()).collect();
    let todo: Vec<usize> = (0..chapters.len())
        .filter(|&i| chapters[i].content.may_contain_any(&needles))
        .collect();
    let mut expanded: Vec<Option<Box<Expanded>>> = (0..chapters.len()).map(|_| None).collect();
    let interner = Interner::default();
    // Each chapter is decoded by the thread that scans it, and dropped after.
    for (index, chapter) in parallel::map(
        &todo,
        |i| chapters[i].content.len(),
        |i| {
            let content = chapters[i].content.get();
            scan::may_contain(&content, names)
                .then(|| Box::new(expand_chapter(run, i, &content, &interner)))
        },
    ) {
        expanded[index] = chapter;
    }
    expanded
}

/// Expands chapter `index` of `run`, whose text is `content`; equal
/// outputs are kept once in `interner`.
fn expand_chapter(run: &Run<'_>, index: usize, content: &str, interner: &Interner) -> Expanded {
    let state = ChapterState::default();
    let cx = Cx::new(run, index, &state);
    let (mut replacements, diagnostics) = text::replacements_of(content, &cx);
    drop(cx);
    for replacement in &mut replacements {
        interner.share_in_place(&mut replacement.text);
    }
    let diagnostics = diagnostics.into_iter().map(|d| d.for_chapter(index));
    Expanded::new(
        content,
        replacements,
        state.deferred.into_inner(),
        diagnostics.collect(),
    )
}
