//! Ids as mdBook 0.5 gives them: it builds an HTML tree and names every
//! `h1`-`h6` and `dt` it created itself, in document order.

use std::collections::HashSet;
use std::ops::Range;

use pulldown_cmark::{Event, Tag, TagEnd};

use super::footnotes::Footnotes;
use super::html::html_ids;
use super::slug::{self, IdAllocator, IdRules};
use super::text::{Flavor, TextAcc};
use super::{Heading, PageIds, Spanned, Term, explicit_id, heading_level};
use crate::mdbook::Generation;

/// The open heading (level `Some`) or term (`None`): level, explicit id,
/// start range, text.
type Open05 = (Option<u8>, Option<String>, Range<usize>, TextAcc);

pub(super) fn page_ids(events: &[Spanned<'_>]) -> PageIds {
    let notes = Footnotes::new(events, true);
    let mut alloc = IdAllocator::new(IdRules::MdBook(Generation::V05));
    let mut page = PageIds::default();
    let mut seen = HashSet::new();
    // Footnote definitions end up after the chapter, in order of number;
    // ids are still handed out in source order.
    let place = |i: usize| match notes.def_of(i) {
        None => (0, i),
        Some(d) => (1 + notes.def_number(d).unwrap_or(0), i),
    };
    let mut headings = Vec::new();
    let mut terms = Vec::new();
    let mut open: Option<Open05> = None;
    let mut html_block: Option<String> = None;
    for (i, (event, range)) in events.iter().enumerate() {
        // A repeated footnote definition is skipped unread.
        if notes.in_repeated_def(i) {
            continue;
        }
        let rendered = notes.rendered(i);
        if let Some((_, _, _, acc)) = open.as_mut() {
            acc.push(event, notes.number(i));
        }
        match event {
            Event::Start(Tag::Heading {
                level, id, attrs, ..
            }) => {
                let explicit = explicit_id(id, attrs).map(str::to_string);
                open = Some((
                    Some(heading_level(*level)),
                    explicit,
                    range.clone(),
                    TextAcc::new(Flavor::V05),
                ));
            }
            Event::Start(Tag::DefinitionListTitle) => {
                open = Some((None, None, range.clone(), TextAcc::new(Flavor::V05)));
            }
            Event::End(TagEnd::Heading(_) | TagEnd::DefinitionListTitle) => {
                let Some((level, explicit, start, acc)) = open.take() else {
                    continue;
                };
                // Ids are handed out even in a definition that is then
                // dropped: mdBook walks every node it created.
                let (id, custom_id) = match explicit {
                    Some(id) => (id, true),
                    None => {
                        let base = slug::base_id(IdRules::MdBook(Generation::V05), acc.source());
                        (alloc.next(&base), false)
                    }
                };
                if !rendered {
                    continue;
                }
                let range = start.start..range.end.max(start.end);
                match level {
                    Some(level) => headings.push((
                        place(i),
                        Heading {
                            level,
                            text: acc.reader_text(),
                            id,
                            range,
                            custom_id,
                        },
                    )),
                    None => terms.push((
                        place(i),
                        Term {
                            text: acc.reader_text(),
                            id,
                            range,
                        },
                    )),
                }
            }
            _ => {}
        }
        if rendered {
            collect_common_ids(event, i, &notes, &mut html_block, &mut page, &mut seen);
        }
    }
    headings.sort_by_key(|(place, _)| *place);
    terms.sort_by_key(|(place, _)| *place);
    page.headings = headings.into_iter().map(|(_, h)| h).collect();
    page.terms = terms.into_iter().map(|(_, t)| t).collect();
    page.finish()
}

/// Raw HTML ids and footnote ids, shared by both mdBook generations.
fn collect_common_ids(
    event: &Event<'_>,
    i: usize,
    notes: &Footnotes<'_>,
    html_block: &mut Option<String>,
    page: &mut PageIds,
    seen: &mut HashSet<String>,
) {
    let mut found = Vec::new();
    match event {
        Event::Start(Tag::HtmlBlock) => *html_block = Some(String::new()),
        Event::Html(t) | Event::Text(t) if html_block.is_some() => {
            if let Some(block) = html_block.as_mut() {
                block.push_str(t);
            }
        }
        Event::End(TagEnd::HtmlBlock) => {
            if let Some(block) = html_block.take() {
                html_ids(&block, &mut found);
            }
        }
        Event::Html(t) | Event::InlineHtml(t) => html_ids(t, &mut found),
        Event::FootnoteReference(name) => found.extend(notes.reference_id(i, name)),
        Event::Start(Tag::FootnoteDefinition(name)) => found.push(format!("footnote-{name}")),
        _ => {}
    }
    for id in found {
        page.add_other(seen, id);
    }
}
