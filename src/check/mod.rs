//! The resolve-and-check stage: deferred link directives resolved and every
//! anchor checked against the index of the expanded book, then each changed
//! chapter written once from its replacements.

use std::sync::Arc;

pub mod anchors;
mod map;
pub mod owners;
pub mod redirects;

use crate::config::{AnchorCheck, OnError};
use crate::diagnostic::{Diagnostic, Location};
use crate::expand::directive::{Expansion, Placement};
use crate::expand::marker::markers_in;
use crate::expand::splice::{Replacement, splice};
use crate::expand::{Deferred, Expanded, LinkCx, Run, Shared, error_note};
use crate::ids::{self, BookIds};
use crate::index::BookIndex;
use crate::parallel;
use anchors::BrokenLink;
use map::{ChapterMap, Place};

/// One chapter after this stage.
#[derive(Debug)]
pub struct Checked {
    /// The chapter, when this stage had to write it from its replacements
    /// (to add `on-error = "warn"` notes); otherwise the expanded text with
    /// [`links`](Self::links) in place of its markers is the chapter (see
    /// [`Expanded::finish`]).
    pub text: Option<String>,
    /// What each link marker of the expanded text becomes.
    pub links: Vec<Arc<str>>,
    /// Problems, in chapter offsets.
    pub diagnostics: Vec<Diagnostic>,
}

/// Resolves and checks every chapter that needs it, on all cores.
pub fn check_book(
    run: &Run<'_>,
    expanded: &[Option<Box<Expanded>>],
    book: &BookIndex<'_>,
) -> Vec<(usize, Checked)> {
    let settings = run.settings;
    let check_anchors = settings.check_anchors != AnchorCheck::Off;
    let url = settings.contributing_url.as_deref();
    let mut group_pages = std::collections::HashMap::new();
    for (index, e) in expanded.iter().enumerate() {
        for id in e.iter().flat_map(|e| &e.deferred.rendered_groups) {
            group_pages.entry(id.clone()).or_insert(index);
        }
    }
    // Without the anchor check, only expanded chapters have work: a book
    // without directives starts no thread.
    let todo: Vec<usize> = (0..run.chapters.len())
        .filter(|&i| check_anchors || expanded[i].is_some())
        .collect();
    let shared = Shared::default();
    // Each chapter is decoded by the thread that checks it, and dropped after.
    let checked = parallel::map(
        &todo,
        |i| run.chapters[i].content.len(),
        |i| {
            let content = run.chapters[i].content.get();
            let e = expanded[i].as_deref();
            let todo =
                e.is_some() || check_anchors && anchors::may_have_fragment_links(&content, url);
            if !todo {
                return None;
            }
            let mut checked = check_chapter(run, book, &group_pages, i, &content, e);
            if e.is_none() && checked.text.is_none() && checked.diagnostics.is_empty() {
                return None; // nothing to keep for an unchanged chapter
            }
            // Links resolved alike (a CODEOWNERS table) are kept once.
            for link in &mut checked.links {
                *link = shared.share(std::mem::replace(link, Arc::from("")));
            }
            Some(Box::new(checked))
        },
    );
    (checked.into_iter())
        .filter_map(|(i, checked)| Some((i, *checked?)))
        .collect()
}

fn check_chapter(
    run: &Run<'_>,
    book: &BookIndex<'_>,
    group_pages: &std::collections::HashMap<String, usize>,
    index: usize,
    content: &str,
    expanded: Option<&Expanded>,
) -> Checked {
    let empty = Deferred::default();
    let (replacements, spans, deferred, early) = match expanded {
        Some(e) => (
            &e.replacements[..],
            &e.spans[..],
            &e.deferred,
            &e.diagnostics[..],
        ),
        None => (&[][..], &[][..], &empty, &[][..]),
    };
    let cx = LinkCx {
        run,
        chapter: index,
        ids: book,
        group_pages,
    };
    let mut late = Vec::new();
    let links = resolve_links(&cx, deferred, &mut late);
    late.extend(check_generated_anchors(run, book, deferred));
    let map = ChapterMap {
        content,
        replacements,
        spans,
    };
    let broken = if run.settings.check_anchors == AnchorCheck::Off {
        Vec::new()
    } else {
        anchors::check_chapter(run, book, index, &map)
    };
    // With notes, the chapter is written from its replacements here;
    // without them the expanded text, markers replaced, is the chapter.
    let noted =
        run.settings.on_error == OnError::Warn && broken.iter().any(|b| b.diagnostic.is_error());
    let text = noted.then(|| {
        let mut replacements = with_links(replacements, &links);
        add_notes(
            &mut replacements,
            &broken,
            run.settings.markdown.parser_options(),
        );
        splice(content, &replacements)
    });
    let mut diagnostics = merge_by_position(early.to_vec(), late);
    diagnostics.extend(broken.into_iter().map(|b| b.diagnostic));
    Checked {
        text,
        links,
        diagnostics,
    }
}

/// What each deferred link becomes: its link, or the note for its errors
/// (which go to `errors`).
fn resolve_links(
    cx: &LinkCx<'_>,
    deferred: &Deferred,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Arc<str>> {
    let options = cx.settings().markdown.parser_options();
    deferred
        .links
        .iter()
        .map(|link| {
            let call = link.call();
            let result = match cx.run.registry.brace(link.name) {
                Some(directive) => directive.resolve(&call, cx),
                None => Ok(Expansion::Inline(String::new())),
            };
            match result {
                Ok(Expansion::Inline(text) | Expansion::Block(text)) => text.into(),
                Err(found) => {
                    let note = error_note(&found, link.placement, options);
                    errors.extend(found);
                    note.into()
                }
            }
        })
        .collect()
}

/// The anchors of links directives generated, checked.
fn check_generated_anchors(
    run: &Run<'_>,
    book: &BookIndex<'_>,
    deferred: &Deferred,
) -> Vec<Diagnostic> {
    deferred
        .anchors
        .iter()
        .filter_map(|request| {
            let page = book.page(book.chapter_by_path(&request.path)?)?;
            if page.contains(&request.fragment) {
                return None;
            }
            let error =
                ids::with_closest_anchor(request.diagnostic.clone(), &request.fragment, page);
            Some(run.settings.check_anchors.severity_of(error))
        })
        .collect()
}

/// `replacements` with each link marker replaced by its link.
fn with_links(replacements: &[Replacement], links: &[Arc<str>]) -> Vec<Replacement> {
    replacements
        .iter()
        .map(|r| {
            let mut text = String::with_capacity(r.text.len());
            let mut copied = 0;
            for (range, number) in markers_in(&r.text) {
                let Some(link) = links.get(number) else {
                    continue;
                };
                text.push_str(&r.text[copied..range.start]);
                text.push_str(link);
                copied = range.end;
            }
            text.push_str(&r.text[copied..]);
            Replacement {
                range: r.range.clone(),
                text: text.into(),
            }
        })
        .collect()
}

/// With `on-error = "warn"`, a link the anchor check fails shows in the
/// page like a failed directive: after the link, or after the directive
/// block it is in.
fn add_notes(
    replacements: &mut Vec<Replacement>,
    broken: &[BrokenLink],
    options: pulldown_cmark::Options,
) {
    let mut inserted = false;
    for link in broken.iter().filter(|b| b.diagnostic.is_error()) {
        match link.note_at {
            Place::AfterReplacement(k) => {
                let block = &mut replacements[k];
                let note = error_note(&[&link.diagnostic], Placement::Block, options);
                block.text = format!("{}\n\n{note}", block.text.trim_end_matches('\n')).into();
            }
            Place::At(at) => {
                let note = error_note(&[&link.diagnostic], Placement::Inline, options);
                replacements.push(Replacement {
                    range: at..at,
                    text: format!(" {note}").into(),
                });
                inserted = true;
            }
        }
    }
    if inserted {
        // An insertion goes before a replacement that starts where it is.
        replacements.sort_by_key(|r| (r.range.start, r.range.end));
    }
}

fn start_of(diagnostic: &Diagnostic) -> Option<usize> {
    match &diagnostic.location {
        Some(Location::Chapter { range, .. }) => Some(range.start),
        _ => None,
    }
}

/// The problems found while resolving (`late`) among those found while
/// expanding (`early`), each before the first early one that comes after
/// it in the chapter: the order their call sites have.
fn merge_by_position(early: Vec<Diagnostic>, mut late: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if late.is_empty() {
        return early;
    }
    late.sort_by_key(|d| start_of(d).unwrap_or(usize::MAX));
    let mut late = late.into_iter().peekable();
    let mut merged = Vec::with_capacity(early.len() + late.len());
    for diagnostic in early {
        if let Some(start) = start_of(&diagnostic) {
            while let Some(next) = late.next_if(|l| start_of(l).is_some_and(|s| s < start)) {
                merged.push(next);
            }
        }
        merged.push(diagnostic);
    }
    merged.extend(late);
    merged
}
