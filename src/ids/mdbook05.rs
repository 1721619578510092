//! Ids as mdBook 0.5 gives them: it builds an HTML tree and names every
//! `h1`-`h6` and `dt` it created itself, in document order.

use std::ops::Range;

use pulldown_cmark::{Event, Tag, TagEnd};

use super::footnotes::Footnotes;
use super::html::html_ids;
use super::slug::{self, IdAllocator, IdRules};
use super::text::{Flavor, TextAcc};
use super::{Collected, Heading, Spanned, Term, explicit_id, heading_level};
use crate::mdbook::Generation;

/// The ids mdBook 0.5 gives the page of these events.
pub(super) fn page_ids(events: &[Spanned<'_>]) -> Collected {
    let notes = Footnotes::new(events, true);
    let mut walk = Walk::new(&notes);
    for (i, (event, range)) in events.iter().enumerate() {
        // A repeated footnote definition is skipped unread.
        if !notes.in_repeated_def(i) {
            walk.event(i, event, range);
        }
    }
    walk.finish()
}

/// The ids mdBook 0.5 gives a page without footnotes, from its events as
/// the parser makes them (none is kept).
pub(super) fn streamed_page_ids<'a>(events: impl Iterator<Item = Spanned<'a>>) -> Collected {
    let notes = Footnotes::none();
    let mut walk = Walk::new(&notes);
    for (i, (event, range)) in events.enumerate() {
        walk.event(i, &event, &range);
    }
    walk.finish()
}

/// The open heading (`level` is `Some`) or definition-list term (`None`).
struct Open {
    level: Option<u8>,
    explicit: Option<String>,
    start: Range<usize>,
    acc: TextAcc,
}

/// Where an element ends up: footnote definitions after the chapter, in
/// order of number; source order within each.
type Place = (usize, usize);

/// One pass over a chapter's events, in source order (the order mdBook
/// hands out ids in).
struct Walk<'n, 'a> {
    notes: &'n Footnotes<'a>,
    alloc: IdAllocator,
    page: Collected,
    headings: Vec<(Place, Heading)>,
    terms: Vec<(Place, Term)>,
    open: Option<Open>,
    html_block: Option<String>,
}

impl<'n, 'a> Walk<'n, 'a> {
    fn new(notes: &'n Footnotes<'a>) -> Self {
        Walk {
            notes,
            alloc: IdAllocator::new(IdRules::MdBook(Generation::V05)),
            page: Collected::default(),
            headings: Vec::new(),
            terms: Vec::new(),
            open: None,
            html_block: None,
        }
    }

    /// Feeds the event at index `i`.
    fn event(&mut self, i: usize, event: &Event<'_>, range: &Range<usize>) {
        let rendered = self.notes.rendered(i);
        if let Some(open) = self.open.as_mut() {
            open.acc.push(event, self.notes.number(i));
        }
        match event {
            Event::Start(Tag::Heading {
                level, id, attrs, ..
            }) => self.open(Some(heading_level(*level)), explicit_id(id, attrs), range),
            Event::Start(Tag::DefinitionListTitle) => self.open(None, None, range),
            Event::End(TagEnd::Heading(_) | TagEnd::DefinitionListTitle) => {
                self.close(i, range, rendered);
            }
            _ => {}
        }
        if rendered {
            self.collect_common_ids(event, i);
        }
    }

    fn open(&mut self, level: Option<u8>, explicit: Option<&str>, range: &Range<usize>) {
        self.open = Some(Open {
            level,
            explicit: explicit.map(str::to_string),
            start: range.clone(),
            acc: TextAcc::new(Flavor::V05),
        });
    }

    /// Names the open heading or term, and keeps it if it is `rendered`.
    fn close(&mut self, i: usize, end: &Range<usize>, rendered: bool) {
        let Some(open) = self.open.take() else {
            return;
        };
        // Ids are handed out even in a definition that is then dropped:
        // mdBook walks every node it created.
        let (id, custom_id) = match open.explicit {
            Some(id) => (id, true),
            None => {
                let base = slug::base_id(IdRules::MdBook(Generation::V05), open.acc.source());
                (self.alloc.next(&base), false)
            }
        };
        if !rendered {
            return;
        }
        let place = self.place(i);
        let text = open.acc.reader_text();
        let range = open.start.start..end.end.max(open.start.end);
        match open.level {
            Some(level) => {
                let heading = Heading {
                    level,
                    text,
                    id,
                    range,
                    custom_id,
                };
                self.headings.push((place, heading));
            }
            None => self.terms.push((place, Term { text, id, range })),
        }
    }

    /// Where the event at `i` ends up on the page.
    fn place(&self, i: usize) -> Place {
        match self.notes.def_of(i) {
            None => (0, i),
            Some(d) => (1 + self.notes.def_number(d).unwrap_or(0), i),
        }
    }

    /// Raw HTML ids and footnote ids of one rendered event (mdBook 0.4's
    /// page writer collects the same as it goes).
    fn collect_common_ids(&mut self, event: &Event<'_>, i: usize) {
        let mut found = Vec::new();
        match event {
            Event::Start(Tag::HtmlBlock) => self.html_block = Some(String::new()),
            Event::Html(t) | Event::Text(t) if self.html_block.is_some() => {
                if let Some(block) = self.html_block.as_mut() {
                    block.push_str(t);
                }
            }
            Event::End(TagEnd::HtmlBlock) => {
                if let Some(block) = self.html_block.take() {
                    html_ids(&block, &mut found);
                }
            }
            Event::Html(t) | Event::InlineHtml(t) => html_ids(t, &mut found),
            Event::FootnoteReference(name) => found.extend(self.notes.reference_id(i, name)),
            Event::Start(Tag::FootnoteDefinition(name)) => found.push(format!("footnote-{name}")),
            _ => {}
        }
        for id in found {
            self.page.add_other(id);
        }
    }

    /// The page, headings and terms in the order they are shown.
    fn finish(mut self) -> Collected {
        self.headings.sort_by_key(|(place, _)| *place);
        self.terms.sort_by_key(|(place, _)| *place);
        self.page.headings = self.headings.into_iter().map(|(_, h)| h).collect();
        self.page.terms = self.terms.into_iter().map(|(_, t)| t).collect();
        self.page
    }
}
