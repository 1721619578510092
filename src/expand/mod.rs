//! The expand stage: every chapter's directives, once each.
//!
//! [`scan`] finds call sites (a byte scan first; Markdown is parsed only for
//! chapters that may hold one), each site's directive runs with a [`Cx`],
//! and [`splice`](crate::chapter::splice::splice) replaces exactly the
//! sites' bytes. Link directives, whose output depends on other chapters'
//! ids, leave a [`marker`](crate::chapter::marker) and a
//! [`PendingLink`](crate::chapter::PendingLink) for the check pass instead.
//!
//! A chapter keeps its replacements, not its text (`chapter::Expanded`):
//! the passes after this one read it through `chapter/`.

mod included;
mod scan;
mod text;

pub use scan::Sites;

use crate::chapter::Expanded;
use crate::chapter::splice::Replacement;
use crate::diagnostic::Diagnostic;
use crate::directive::{ChapterState, Cx, DirectiveNames, Run};
use crate::intern::Interner;
use crate::mdbook::Chapter;
use crate::parallel;

/// What the byte scan finds in each chapter: one scan each, of its JSON
/// string as written where it can be (nothing is decoded), of its text
/// otherwise. A chapter without sites is never decoded by this pass, and a
/// book without any starts no thread.
pub fn sites_of(chapters: &[Chapter], names: &DirectiveNames) -> Vec<Sites> {
    (chapters.iter())
        .map(|chapter| match chapter.content.as_written_in_json() {
            Some(raw) => scan::sites_in(raw, names),
            None => scan::sites_in(chapter.content.get().as_bytes(), names),
        })
        .collect()
}

/// Expands every chapter that may hold a directive (`sites`, from
/// [`sites_of`]), on all cores; `None` for the others (their text is the
/// chapter's, and they are not parsed). Boxed: a book's chapters are
/// mostly `None`, one word each.
pub fn expand_book(run: &Run<'_>, sites: &[Sites]) -> Vec<Option<Box<Expanded>>> {
    let chapters = run.chapters;
    let names = run.registry.names();
    let no_sites = |i: usize| sites.get(i).is_none_or(|s| *s == Sites::None);
    // A chapter with a file may show text mdBook included from outside
    // `src`, whose links `included` resolves (reading the file tells).
    let with_file = included::chapters_with_files(run);
    let todo: Vec<usize> = (0..chapters.len())
        .filter(|&i| with_file[i] || !no_sites(i))
        .collect();
    let mut expanded: Vec<Option<Box<Expanded>>> = (0..chapters.len()).map(|_| None).collect();
    let interner = Interner::default();
    // Each chapter is decoded by the thread that scans it, and dropped after.
    for (index, chapter) in parallel::map(
        &todo,
        |i| chapters[i].content.len(),
        |i| {
            let included = match with_file[i] {
                true => included::links(run, i),
                false => Default::default(),
            };
            if no_sites(i) && included.0.is_empty() && included.1.is_empty() {
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

/// Expands chapter `index` of `run`, whose text is `content`, with the
/// links of text included from outside `src` (`included`); equal outputs
/// are kept once in `interner`.
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
    if !links.is_empty() {
        replacements = with_links(replacements, links);
    }
    diagnostics.extend(problems);
    for replacement in &mut replacements {
        interner.share_in_place(&mut replacement.text);
    }
    let diagnostics = diagnostics.into_iter().map(|d| d.for_chapter(index));
    Expanded::new(
        content,
        replacements,
        state.into_deferred(),
        diagnostics.collect(),
    )
}

/// The directives' replacements and the included text's links, in order,
/// leaving out a link a directive's site covers. Both lists are in order
/// and their ranges do not overlap among themselves: one pass over both.
fn with_links(sites: Vec<Replacement>, links: Vec<Replacement>) -> Vec<Replacement> {
    let mut out = Vec::with_capacity(sites.len() + links.len());
    let mut sites = sites.into_iter().peekable();
    // The last site taken: the only one that can cover the next link.
    let mut last_site: Option<std::ops::Range<usize>> = None;
    for link in links {
        while let Some(site) = sites.next_if(|s| s.range.start < link.range.end) {
            last_site = Some(site.range.clone());
            out.push(site);
        }
        let covered = (last_site.as_ref()).is_some_and(|s| s.end > link.range.start);
        if !covered {
            out.push(link);
        }
    }
    out.extend(sites);
    out
}
