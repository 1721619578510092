//! The resolve-and-check stage: deferred link directives resolved and every
//! anchor checked against the index of the expanded book. What it decides
//! for a chapter (its links, the notes after broken links) goes to the
//! write stage, which makes the chapter's final text with
//! [`chapter::final_text`](crate::chapter::final_text).

use std::collections::HashMap;
use std::sync::Arc;

pub mod activity;
pub mod anchors;
pub mod copies;
pub mod coverage;
pub mod owners;
pub mod owners_files;
pub mod redirects;

use crate::chapter::{ChapterMap, Deferred, Expanded, NotePlace, Resolved};
use crate::config::{Level, OnError};
use crate::diagnostic::{Diagnostic, Location};
use crate::directive::{Call, Expansion, LinkCx, Run};
use crate::ids::{self, BookIds};
use crate::index::BookIndex;
use crate::intern::Interner;
use crate::markdown::{Placement, error_note};
use crate::parallel;
use anchors::BrokenLink;

/// The governance rules held against the roster on `today` (`None`: by
/// the clock); nothing without rules, or when the roster failed to load
/// (its own problems are reported by the data stage).
pub fn governance(
    settings: &crate::config::Settings,
    data: &crate::data::Data,
    today: Option<crate::date::Day>,
) -> Vec<Diagnostic> {
    if settings.governance.is_empty() {
        return Vec::new();
    }
    let Ok(people) = data.people(settings) else {
        return Vec::new();
    };
    let today = today.unwrap_or_else(crate::date::Day::today);
    crate::governance::check::check(settings, &people, today)
}

/// One chapter after this stage.
#[derive(Debug)]
pub struct Checked {
    /// What the write stage needs to finish the chapter.
    pub resolved: Resolved,
    /// Problems, in chapter offsets, in the order of their places.
    pub diagnostics: Vec<Diagnostic>,
}

/// Resolves and checks every chapter that needs it, on all cores.
pub fn check_book(
    run: &Run<'_>,
    expanded: &[Option<Box<Expanded>>],
    book: &BookIndex<'_>,
) -> Vec<(usize, Checked)> {
    let settings = run.settings;
    let check_anchors = settings.check_anchors != Level::Off;
    let url = settings.contributing_url.as_deref();
    let mut group_pages = HashMap::new();
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
    let interner = Interner::default();
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
            let unchanged = checked.resolved.notes.is_empty() && checked.diagnostics.is_empty();
            if e.is_none() && unchanged {
                return None; // nothing to keep for an unchanged chapter
            }
            // Links resolved alike (a CODEOWNERS table) are kept once.
            for link in &mut checked.resolved.links {
                interner.share_in_place(link);
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
    group_pages: &HashMap<String, usize>,
    index: usize,
    content: &str,
    expanded: Option<&Expanded>,
) -> Checked {
    let empty = Deferred::default();
    let (deferred, early) = match expanded {
        Some(e) => (&e.deferred, &e.diagnostics[..]),
        None => (&empty, &[][..]),
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
    let map = match expanded {
        Some(e) => e.map(content),
        None => ChapterMap::unchanged(content),
    };
    let broken = if run.settings.check_anchors == Level::Off {
        Vec::new()
    } else {
        anchors::check_chapter(run, book, index, &map)
    };
    let notes = match run.settings.on_error {
        OnError::Warn => notes_for(&broken, run.settings.markdown.parser_options()),
        OnError::Fail => Vec::new(),
    };
    let late = late.into_iter().map(|d| d.for_chapter(index)).collect();
    let mut diagnostics = merge_by_position(early.to_vec(), late);
    diagnostics.extend(broken.into_iter().map(|b| b.diagnostic));
    Checked {
        resolved: Resolved { links, notes },
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
            let call = Call::of_pending(link);
            let result = match cx.run.registry.brace(link.name) {
                Some(directive) => directive.resolve(&call, cx),
                None => Ok(Expansion::Inline(String::new())),
            };
            match result {
                Ok(Expansion::Inline(text) | Expansion::Block(text)) => text.into(),
                Err(found) => {
                    let messages = found.iter().map(|d| d.message.as_str());
                    let note = error_note(messages, link.placement, options);
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

/// With `on-error = "warn"`, a link the anchor check fails shows in the
/// page like a failed directive: after the link, or after the directive
/// block it is in.
fn notes_for(broken: &[BrokenLink], options: pulldown_cmark::Options) -> Vec<(NotePlace, String)> {
    let errors = broken.iter().filter(|b| b.diagnostic.is_error());
    errors
        .map(|link| {
            let placement = match link.note_at {
                NotePlace::AfterReplacement(_) => Placement::Block,
                NotePlace::At(_) => Placement::Inline,
            };
            let message = [link.diagnostic.message.as_str()];
            (link.note_at, error_note(message, placement, options))
        })
        .collect()
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
