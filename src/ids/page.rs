//! A page's ids as the index keeps them: small fixed-size entries and
//! every id and heading text they point to, in one allocation. The index
//! holds the ids of every page the anchor check parsed for the whole run; a
//! `String` per id and per heading text made them most of the plugin's
//! memory above its input on large books, and each small allocation kept
//! for the run also splits the free memory the parse of the next page
//! would reuse.

use std::collections::HashSet;
use std::ops::Range;

use super::closest::Closest;
use super::{Heading, HeadingTexts, Term, ascii_loose_eq, loose};

/// Every id one rendered page has.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct PageIds {
    /// The entries ([`Entry::SIZE`] bytes each): the headings with an id
    /// (in page order), then the definition-list terms with an id (mdBook
    /// 0.5 only), then the other ids (raw HTML `id` attributes and `<a
    /// name>`, footnote ids; without repeats and without the headings' and
    /// terms' ids). Then the names they point to: the ids, then the texts.
    data: Box<[u8]>,
    /// How many entries there are.
    count: u32,
    /// How many of the entries are headings.
    headings: u32,
    /// How many of the entries after the headings are terms.
    terms: u32,
    /// A directive on the page failed, so ids it would have made (group
    /// headings, FAQ questions) may be missing: a missing anchor here is a
    /// follow-on of that failure, not a problem of its own.
    pub partial: bool,
    /// The heading and term texts were not kept ([`HeadingTexts::Drop`]).
    texts_dropped: bool,
    /// The entries in the order of their ids, for a page of more than
    /// [`SCANNED_UP_TO`] ids, made when it is first asked for one.
    by_id: Cache<Box<[u32]>>,
    /// What missing anchors are compared with, made when the first is.
    closest: Cache<Box<Closest>>,
}

/// Pages with up to this many ids are searched id by id; a larger page's
/// ids are sorted once, so that a link into it costs a binary search (a
/// page of 8,000 headings and 8,000 links to them was 64 million
/// comparisons).
const SCANNED_UP_TO: u32 = 64;

/// What is worked out from a page's ids when first needed and kept with
/// them. Not part of the page's value: a clone starts without it, and
/// pages are equal whatever either has worked out.
#[derive(Debug)]
struct Cache<T>(std::sync::OnceLock<T>);

impl<T> Default for Cache<T> {
    fn default() -> Self {
        Cache(std::sync::OnceLock::new())
    }
}

impl<T> Clone for Cache<T> {
    fn clone(&self) -> Self {
        Cache::default()
    }
}

impl<T> PartialEq for Cache<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> Eq for Cache<T> {}

/// A heading of a [`PageIds`], borrowed from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadingRef<'p> {
    /// See [`Heading::level`].
    pub level: u8,
    /// See [`Heading::text`].
    pub text: &'p str,
    /// See [`Heading::id`].
    pub id: &'p str,
    /// See [`Heading::range`].
    pub range: Range<usize>,
    /// See [`Heading::custom_id`].
    pub custom_id: bool,
}

/// A definition-list term of a [`PageIds`], borrowed from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TermRef<'p> {
    /// See [`Term::text`].
    pub text: &'p str,
    /// See [`Term::id`].
    pub id: &'p str,
    /// See [`Term::range`].
    pub range: Range<usize>,
}

/// Where one name is among a [`PageIds`]'s names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

/// One id of a [`PageIds`]: a heading's, a term's (`level` 0) or another
/// (`text` empty too). Offsets are 32-bit: a page's names and text past
/// 4 GiB (no real page comes near) are cut short, not wrapped.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    id: Span,
    text: Span,
    start: u32,
    end: u32,
    level: u8,
    custom_id: bool,
}

impl Entry {
    /// The bytes of one entry in [`PageIds::data`].
    const SIZE: usize = 26;

    fn write(&self, out: &mut Vec<u8>) {
        let numbers = [self.id.start, self.id.len, self.text.start, self.text.len];
        for n in numbers.into_iter().chain([self.start, self.end]) {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&[self.level, u8::from(self.custom_id)]);
    }

    /// The entry written at the start of `bytes` (all zero past its end).
    fn read(bytes: &[u8]) -> Entry {
        let number = |at: usize| {
            let mut word = [0; 4];
            if let Some(written) = bytes.get(at..at + 4) {
                word.copy_from_slice(written);
            }
            u32::from_le_bytes(word)
        };
        let byte = |at: usize| bytes.get(at).copied().unwrap_or(0);
        Entry {
            id: Span {
                start: number(0),
                len: number(4),
            },
            text: Span {
                start: number(8),
                len: number(12),
            },
            start: number(16),
            end: number(20),
            level: byte(24),
            custom_id: byte(25) != 0,
        }
    }

    fn new(id: Span, text: Span, range: &Range<usize>, level: u8, custom_id: bool) -> Self {
        Entry {
            id,
            text,
            start: offset32(range.start),
            end: offset32(range.end),
            level,
            custom_id,
        }
    }

    fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// `offset` as stored, saturated at `u32::MAX`.
fn offset32(offset: usize) -> u32 {
    u32::try_from(offset).unwrap_or(u32::MAX)
}

impl PageIds {
    /// The ids of a page that has none.
    pub fn none() -> &'static PageIds {
        static NONE: std::sync::OnceLock<PageIds> = std::sync::OnceLock::new();
        NONE.get_or_init(PageIds::default)
    }

    /// Whether the page has an element with this id, i.e. whether
    /// `page#id` lands somewhere.
    pub fn contains(&self, id: &str) -> bool {
        if self.count <= SCANNED_UP_TO {
            return (self.part(0, self.count)).any(|e| self.name_bytes(e.id) == id.as_bytes());
        }
        let sorted = self.by_id.0.get_or_init(|| {
            let mut order: Vec<u32> = (0..self.count).collect();
            order.sort_by_cached_key(|&at| self.id_bytes(at));
            order.into_boxed_slice()
        });
        (sorted.binary_search_by(|&at| self.id_bytes(at).cmp(id.as_bytes()))).is_ok()
    }

    /// The bytes of entry `at`'s id.
    fn id_bytes(&self, at: u32) -> &[u8] {
        (self.part(at, 1).next()).map_or(&[], |e| self.name_bytes(e.id))
    }

    /// All ids: headings, then terms, then the others.
    pub fn ids(&self) -> impl Iterator<Item = &str> + '_ {
        self.part(0, self.count).map(|e| self.name(e.id))
    }

    /// How many ids there are.
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Whether the page has no ids.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The id at position `at` of [`ids`](Self::ids) (heading `at` when
    /// `at` is below the number of headings).
    pub fn id_at(&self, at: usize) -> Option<&str> {
        let at = u32::try_from(at).ok().filter(|&at| at < self.count)?;
        self.part(at, 1).next().map(|e| self.name(e.id))
    }

    /// How many headings have an id.
    pub fn heading_count(&self) -> usize {
        self.headings as usize
    }

    /// Heading `at` of [`headings`](Self::headings).
    pub fn heading_at(&self, at: usize) -> Option<HeadingRef<'_>> {
        let at = u32::try_from(at).ok().filter(|&at| at < self.headings)?;
        self.part(at, 1).next().map(|h| self.heading_ref(&h))
    }

    /// What missing anchors are compared with (made on first use).
    pub(super) fn closest(&self) -> &Closest {
        self.closest.0.get_or_init(Box::default)
    }

    /// How many ids and words the page's missing anchors were compared
    /// with, over every question so far.
    #[cfg(test)]
    pub(super) fn suggestion_scores(&self) -> usize {
        self.closest.0.get().map_or(0, |c| c.scored())
    }

    /// The headings with an id, in page order.
    pub fn headings(&self) -> impl DoubleEndedIterator<Item = HeadingRef<'_>> + Clone + '_ {
        self.part(0, self.headings).map(|h| self.heading_ref(&h))
    }

    fn heading_ref(&self, h: &Entry) -> HeadingRef<'_> {
        HeadingRef {
            level: h.level,
            text: self.name(h.text),
            id: self.name(h.id),
            range: h.range(),
            custom_id: h.custom_id,
        }
    }

    /// The definition-list terms with an id, in page order.
    pub fn terms(&self) -> impl Iterator<Item = TermRef<'_>> + '_ {
        self.part(self.headings, self.terms).map(|t| TermRef {
            text: self.name(t.text),
            id: self.name(t.id),
            range: t.range(),
        })
    }

    /// The ids that are neither a heading's nor a term's.
    pub fn other_ids(&self) -> impl Iterator<Item = &str> + '_ {
        let skip = self.headings.saturating_add(self.terms);
        (self.part(skip, self.count.saturating_sub(skip))).map(|e| self.name(e.id))
    }

    /// The first heading whose text is `text` as an author would type it:
    /// ignoring case, runs of whitespace, backticks (a heading's text is
    /// plain: `` `cargo test` `` in it is `cargo test`) and smart punctuation
    /// (`Don't` finds the heading mdBook renders as `Don’t`).
    pub fn find_by_text(&self, text: &str) -> Option<HeadingRef<'_>> {
        debug_assert!(!self.texts_dropped, "the page's texts were not kept");
        let wanted = loose(text);
        self.headings()
            .find(|h| match ascii_loose_eq(h.text, &wanted) {
                Some(equal) => equal,
                None => loose(h.text) == wanted,
            })
    }

    /// `count` entries from entry `start`.
    fn part(&self, start: u32, count: u32) -> impl DoubleEndedIterator<Item = Entry> + Clone + '_ {
        let (start, count) = (start as usize, count as usize);
        let bytes = (self.data)
            .get(start * Entry::SIZE..(start + count) * Entry::SIZE)
            .unwrap_or_default();
        bytes.chunks_exact(Entry::SIZE).map(Entry::read)
    }

    /// A name; written from a `str` at its boundaries, so always text.
    fn name(&self, span: Span) -> &str {
        std::str::from_utf8(self.name_bytes(span)).unwrap_or_default()
    }

    fn name_bytes(&self, span: Span) -> &[u8] {
        let start = self.count as usize * Entry::SIZE + span.start as usize;
        (self.data)
            .get(start..start + span.len as usize)
            .unwrap_or_default()
    }
}

/// A page's ids while a walk over its events collects them.
#[derive(Debug, Default)]
pub(super) struct Collected {
    pub headings: Vec<Heading>,
    pub terms: Vec<Term>,
    pub other: Vec<String>,
    seen: HashSet<String>,
}

impl Collected {
    /// Adds an id that is neither a heading's nor a term's, once.
    pub fn add_other(&mut self, id: String) {
        if self.seen.insert(id.clone()) {
            self.other.push(id);
        }
    }

    /// The page's ids, without repeats of heading and term ids in the
    /// others; with the headings' and terms' texts if `texts` says so.
    pub fn finish(self, texts: HeadingTexts) -> PageIds {
        let keep = texts == HeadingTexts::Keep;
        let named: HashSet<&str> = (self.headings.iter().map(|h| h.id.as_str()))
            .chain(self.terms.iter().map(|t| t.id.as_str()))
            .collect();
        let other: Vec<&String> = (self.other.iter())
            .filter(|id| !named.contains(id.as_str()))
            .collect();
        let text_len = |text: &String| if keep { text.len() } else { 0 };
        let size: usize = (self.headings.iter().map(|h| h.id.len() + text_len(&h.text)))
            .chain(self.terms.iter().map(|t| t.id.len() + text_len(&t.text)))
            .chain(other.iter().map(|id| id.len()))
            .sum();
        let mut names = Names(String::with_capacity(size));
        let count = self.headings.len() + self.terms.len() + other.len();
        let mut entries = Vec::with_capacity(count);
        for h in &self.headings {
            let id = names.add(&h.id);
            entries.push(Entry::new(
                id,
                Span::default(),
                &h.range,
                h.level,
                h.custom_id,
            ));
        }
        for t in &self.terms {
            let id = names.add(&t.id);
            entries.push(Entry::new(id, Span::default(), &t.range, 0, false));
        }
        for id in other {
            let id = names.add(id);
            entries.push(Entry::new(id, Span::default(), &(0..0), 0, false));
        }
        let texts =
            (self.headings.iter().map(|h| &h.text)).chain(self.terms.iter().map(|t| &t.text));
        for (entry, text) in entries.iter_mut().zip(texts).filter(|_| keep) {
            entry.text = names.add(text);
        }
        let mut data = Vec::with_capacity(entries.len() * Entry::SIZE + names.0.len());
        for entry in &entries {
            entry.write(&mut data);
        }
        data.extend_from_slice(names.0.as_bytes());
        PageIds {
            data: data.into_boxed_slice(),
            count: offset32(entries.len()),
            headings: offset32(self.headings.len()),
            terms: offset32(self.terms.len()),
            partial: false,
            texts_dropped: !keep,
            by_id: Cache::default(),
            closest: Cache::default(),
        }
    }
}

impl std::fmt::Debug for PageIds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageIds")
            .field("headings", &self.headings().collect::<Vec<_>>())
            .field("terms", &self.terms().collect::<Vec<_>>())
            .field("other", &self.other_ids().collect::<Vec<_>>())
            .field("partial", &self.partial)
            .finish()
    }
}

/// A page's names while they are collected.
struct Names(String);

impl Names {
    /// Appends `name`. A page whose names pass 4 GiB (no real page comes
    /// near) keeps the later ones empty.
    fn add(&mut self, name: &str) -> Span {
        let (Ok(start), Ok(len)) = (u32::try_from(self.0.len()), u32::try_from(name.len())) else {
            return Span::default();
        };
        if start.checked_add(len).is_none() {
            return Span::default();
        }
        self.0.push_str(name);
        Span { start, len }
    }
}

impl HeadingRef<'_> {
    /// The heading as an owned value.
    pub fn to_heading(&self) -> Heading {
        Heading {
            level: self.level,
            text: self.text.to_string(),
            id: self.id.to_string(),
            range: self.range.clone(),
            custom_id: self.custom_id,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heading(text: &str, id: &str) -> Heading {
        Heading {
            level: 2,
            text: text.into(),
            id: id.into(),
            range: 0..1,
            custom_id: false,
        }
    }

    #[test]
    fn an_entry_reads_back_as_it_was_written() {
        let entry = Entry {
            id: Span {
                start: 1,
                len: u32::MAX,
            },
            text: Span {
                start: 70_000,
                len: 3,
            },
            start: 0,
            end: u32::MAX - 1,
            level: 6,
            custom_id: true,
        };
        let mut bytes = Vec::new();
        entry.write(&mut bytes);
        assert_eq!(bytes.len(), Entry::SIZE);
        assert_eq!(Entry::read(&bytes), entry);
        // Past the end, what is missing reads as zero: never a panic.
        assert_eq!(Entry::read(&bytes[..4]).id.len, 0);
        assert_eq!(offset32(usize::MAX), u32::MAX);
    }

    #[test]
    fn names_come_back_as_they_went_in() {
        let mut collected = Collected {
            headings: vec![heading("Über uns", "über-uns"), heading("", "x")],
            terms: vec![Term {
                text: "term".into(),
                id: "term".into(),
                range: 3..4,
            }],
            ..Collected::default()
        };
        collected.add_other("raw".into());
        collected.add_other("raw".into());
        collected.add_other("x".into()); // a heading's id already
        let page = collected.finish(HeadingTexts::Keep);
        let headings: Vec<Heading> = page.headings().map(|h| h.to_heading()).collect();
        assert_eq!(
            headings,
            [heading("Über uns", "über-uns"), heading("", "x")]
        );
        assert_eq!(page.terms().next().map(|t| t.id), Some("term"));
        assert_eq!(
            page.ids().collect::<Vec<_>>(),
            ["über-uns", "x", "term", "raw"]
        );
        assert!(page.contains("raw") && !page.contains("nothing"));
        assert_eq!(
            page.find_by_text("über UNS").map(|h| h.id),
            Some("über-uns")
        );
    }
}
