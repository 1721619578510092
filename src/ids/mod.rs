//! The ids a chapter will have once rendered, so that anchors (`page.md#id`)
//! can be checked without running the renderer.
//!
//! [`mdbook_page`] follows mdBook's HTML renderer of either generation,
//! [`github_page`] follows github.com showing a Markdown file (for
//! `CONTRIBUTING.md` and friends). Both parse with pulldown-cmark 0.13 and
//! collect, per heading, the text each renderer derives the id from, then
//! apply [`crate::ids::slug`].
//!
//! What counts as heading text:
//!
//! | event | mdBook 0.5 | mdBook 0.4 | GitHub | [`Heading::text`] |
//! | --- | --- | --- | --- | --- |
//! | text, code span | yes | yes (as HTML) | yes | yes |
//! | emphasis, link, inline HTML tag | text inside | tags stripped | text inside | text inside |
//! | image | nothing (alt is an attribute) | nothing (the `<img>` tag is stripped) | nothing | nothing |
//! | footnote reference | its number; a space between two adjacent ones | its number | its number | nothing |
//! | soft break | `\n` (becomes `-`) | no id at all (see below) | `\n` (deleted) | a space |
//! | hard break | nothing (`<br>`) | no id at all | `\n` (deleted) | a space |
//!
//! Smart punctuation is whatever the parser options say: with it on, `--`
//! arrives as an en dash and is dropped like any other symbol.
//!
//! Besides headings, a page's ids include `id` attributes (and `name` on
//! `<a>`) in raw HTML, mdBook 0.5's ids on definition-list terms (`<dt>`),
//! and mdBook's footnote ids: `footnote-NAME` on each definition that is
//! referenced and `fr-NAME-N` on the N-th reference to it (both
//! generations use these names).
//!
//! Known limits (everything else in the tests was checked against real
//! mdBook 0.4.52 and 0.5.4 builds):
//!
//! - mdBook 0.4.52 parses with pulldown-cmark 0.10, this module with 0.13.
//!   Where the parsers differ, so may the ids. Known case: 0.10 reads
//!   `[^x][^y]` as the text `[^x]` plus one reference, 0.13 as two
//!   references; `# A[^x][^y] b[^x]` is `ax1-b2` in mdBook 0.4.52 and
//!   `a12-b1` here, and we list an `fr-x-2` it does not have.
//! - mdBook 0.4: raw HTML headings are only found as its regex finds them
//!   in our approximation of its page (exact for HTML blocks and inline
//!   HTML in paragraphs; the text around other Markdown constructs is
//!   rendered loosely).
//! - GitHub is not checked against github.com: the slug rules are
//!   github-slugger's (checked against its npm package over every code
//!   point), the heading text is what cmark-gfm would render. `:emoji:`
//!   shortcodes stay text here but become emoji on GitHub; footnote
//!   references count as their numbers; raw HTML headings in HTML blocks
//!   are assumed to be anchored like Markdown ones; GitHub's own footnote
//!   ids (`user-content-fn-...`) are not listed.

mod closest;
mod footnotes;
mod github;
mod html;
mod mdbook04;
mod mdbook05;
mod page;
pub mod slug;
mod text;

use std::ops::Range;

use pulldown_cmark::{CowStr, Event, HeadingLevel, Tag};

use crate::diagnostic::{Diagnostic, FollowOn};
use crate::mdbook::Generation;
use crate::mdbook::MarkdownOptions;
use page::Collected;
pub use page::{HeadingRef, PageIds};

/// A heading that has an id on the rendered page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// 1 to 6 (a raw HTML `<h7>` that mdBook 0.4 picks up gives 7).
    pub level: u8,
    /// The plain text a reader sees: text and code spans, breaks as spaces,
    /// trimmed; no image alt text, no footnote numbers.
    pub text: String,
    /// The id on the rendered page.
    pub id: String,
    /// Byte range of the heading in the source (for a raw HTML heading, of
    /// the HTML it is written in).
    pub range: Range<usize>,
    /// The id was written by the author (`{#id}`, `{id=...}` or an HTML
    /// `id` attribute) rather than generated.
    pub custom_id: bool,
}

/// A definition-list term (`<dt>`), which mdBook 0.5 gives an id like a
/// heading, sharing the headings' duplicate counter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    /// The term's plain text, as for [`Heading::text`].
    pub text: String,
    /// The id on the rendered page.
    pub id: String,
    /// Byte range of the term in the source.
    pub range: Range<usize>,
}

/// Whether ASCII `text` folds to `wanted` (already folded by [`loose`]),
/// without allocating; `None` when `text` is not ASCII. For ASCII, [`loose`]
/// only lowercases, drops backticks and joins runs of whitespace.
fn ascii_loose_eq(text: &str, wanted: &str) -> Option<bool> {
    if !text.is_ascii() {
        return None;
    }
    let mut expected = wanted.bytes();
    let mut first = true;
    for word in text.split_whitespace() {
        let mut bytes = word.bytes().filter(|&b| b != b'`').peekable();
        if bytes.peek().is_none() {
            continue;
        }
        if !std::mem::take(&mut first) && expected.next() != Some(b' ') {
            return Some(false);
        }
        if !bytes.all(|b| expected.next() == Some(b.to_ascii_lowercase())) {
            return Some(false);
        }
    }
    Some(expected.next().is_none())
}

/// `text` folded for [`PageIds::find_by_text`].
fn loose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.trim().chars() {
        match c {
            '`' => {}
            '‘' | '’' => out.push('\''),
            '“' | '”' => out.push('"'),
            '–' => out.push_str("--"),
            '—' => out.push_str("---"),
            '…' => out.push_str("..."),
            c => out.push(c),
        }
    }
    // Full case folding of the NFC form: `σίσυφος` finds "ΣΊΣΥΦΟΣ".
    crate::unicode::fold(&out)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The ids of a chapter as the given mdBook's HTML renderer will write them.
///
/// `options` must be the book's (see [`MarkdownOptions::from_html`](crate::mdbook::MarkdownOptions::from_html)):
/// smart punctuation changes the heading text, definition lists add `<dt>`
/// ids (mdBook 0.5).
///
/// - mdBook 0.5 builds an HTML tree and names every `h1`-`h6` and `dt` it
///   created itself, in document order: raw HTML headings keep whatever
///   attributes they had and get no generated id; headings with an `id`
///   (`{#id}`, `{id=x}`) keep it and do not reserve it, so a later heading
///   may get the same id.
/// - mdBook 0.4 runs a regex over the finished page,
///   `<h(\d)(?: id="..")?(?: class="..")?>(.*?)</h\d>`. Consequences this
///   reproduces: raw HTML headings written exactly like that get ids too and
///   share the counter; a heading with other attributes (`{data-x=1}`) or
///   whose content spans lines (a two-line setext heading, a hard break)
///   gets no generated id; footnote definitions are moved to the end of the
///   page first.
pub fn mdbook_page(text: &str, options: MarkdownOptions, generation: Generation) -> PageIds {
    mdbook_ids(&events_of(text, options), generation).finish(HeadingTexts::Keep)
}

/// Whether a [`PageIds`] keeps its headings' texts: only a lookup of a
/// heading by its text needs them; an anchor check needs the ids alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeadingTexts {
    Keep,
    Drop,
}

/// [`mdbook_page_and_links`] in one pass over the events of `text`,
/// keeping none; `None` when the page has a footnote after all (its ids
/// need the events of every definition).
fn streamed(
    text: &str,
    options: MarkdownOptions,
    generation: Generation,
) -> Option<(Collected, Vec<Link>)> {
    let mut links = Vec::new();
    let mut footnote = false;
    let events = options
        .parser(text)
        .into_offset_iter()
        .map_while(|(event, range)| {
            match &event {
                Event::FootnoteReference(_) | Event::Start(Tag::FootnoteDefinition(_)) => {
                    footnote = true;
                    return None;
                }
                // Only links with a fragment are ever checked.
                Event::Start(Tag::Link { dest_url, .. }) if dest_url.contains('#') => {
                    links.push(Link {
                        dest: dest_url.to_string(),
                        range: range.clone(),
                    });
                }
                _ => {}
            }
            Some((event, range))
        });
    let ids = match generation {
        Generation::V05 => mdbook05::streamed_page_ids(events),
        Generation::V04 => mdbook04::streamed_page_ids(events),
    };
    (!footnote).then_some((ids, links))
}

/// The ids of an already parsed chapter, by generation.
fn mdbook_ids(events: &[Spanned<'_>], generation: Generation) -> Collected {
    match generation {
        Generation::V05 => mdbook05::page_ids(events),
        Generation::V04 => mdbook04::page_ids(events),
    }
}

/// Every event of `text`, with its range. The vector is sized for a
/// typical page up front (about one event per 12 bytes of Markdown), which
/// saves the copies of growing it event by event.
fn events_of(text: &str, options: MarkdownOptions) -> Vec<Spanned<'_>> {
    let mut events = Vec::with_capacity(text.len() / 12 + 8);
    events.extend(options.parser(text).into_offset_iter());
    events
}

/// The one diagnostic for an anchor a page does not have: `error` (the
/// caller's message, place and label) with help to find the right one:
/// the closest id by spelling, else the heading sharing the most words with
/// it (a renamed heading), else a list of the page's anchors. Every caller
/// (links in chapters, `{{#ref}}`, `{{#contributing}}`, links in generated
/// text) reports a missing anchor through this.
pub fn with_closest_anchor(error: Diagnostic, fragment: &str, page: &PageIds) -> Diagnostic {
    with_anchor_suggestion(error, fragment, page, closest_anchor(fragment, page))
}

/// [`with_closest_anchor`] for a caller that has already looked for the
/// closest id (`closest`).
pub fn with_anchor_suggestion(
    error: Diagnostic,
    fragment: &str,
    page: &PageIds,
    closest: Option<&str>,
) -> Diagnostic {
    let error = if page.partial {
        error.with_follow_on(FollowOn::PartialPage)
    } else {
        error
    };
    if let Some(id) = closest {
        let note = crate::unicode::difference_note(fragment, id);
        let error = error.with_suggestion(Some(format!("#{id}")));
        return match note {
            Some(note) => error.with_note(note),
            None => error,
        };
    }
    let ids = page.ids().map(|id| format!("`#{id}`"));
    error.with_note(listing(
        "the page's anchors",
        "the page has no anchors",
        ids,
        page.len(),
    ))
}

/// The id of `page` a link to the missing `#fragment` most likely meant:
/// a near spelling of one of its ids (see [`crate::diagnostic::Suggestions`]),
/// else the heading whose id shares the most words with it (a renamed
/// heading). The page's ids are indexed when the first anchor missing from
/// it is looked up, so that N broken links into a page of N headings cost
/// N bounded questions, not N passes over the page.
pub fn closest_anchor<'p>(fragment: &str, page: &'p PageIds) -> Option<&'p str> {
    let ids = || (page.ids(), page.headings().map(|h| h.id));
    page.id_at(page.closest().anchor(fragment, ids)?)
}

/// The heading of `page` a link by the missing heading text `text` most
/// likely meant: a near spelling of its text, else the heading sharing the
/// most words with it. The page must have kept its texts.
pub fn closest_heading<'p>(text: &str, page: &'p PageIds) -> Option<HeadingRef<'p>> {
    let texts = || page.headings().map(|h| h.text);
    page.heading_at(page.closest().heading(text, texts)?)
}

/// `title: a, b, c and N more` for the first few of `items`, of which
/// there are `count` (only the few shown are made), or `empty`.
pub fn listing(
    title: &str,
    empty: &str,
    items: impl Iterator<Item = String>,
    count: usize,
) -> String {
    const SHOWN: usize = 8;
    if count == 0 {
        return empty.to_string();
    }
    let shown: Vec<String> = items.take(SHOWN).collect();
    let mut text = format!("{title}: {}", shown.join(", "));
    if count > shown.len() {
        text.push_str(&format!(" and {} more", count - shown.len()));
    }
    text
}

/// A link found on a page: its destination (after reference resolution) and
/// the byte range of the whole link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The destination as written.
    pub dest: String,
    /// Where the link is in the page's text.
    pub range: Range<usize>,
}

/// The ids of every chapter of the book, as far as a stage after expansion
/// needs them. Implemented by the book index; declared here, below the
/// stages that use it, so that directives can resolve links against it
/// without knowing how it is built.
pub trait BookIds: Sync {
    /// The ids chapter `chapter`'s page will have once rendered.
    fn page(&self, chapter: usize) -> Option<&PageIds>;
    /// The chapter whose path (relative to `src`) is `path`.
    fn chapter_by_path(&self, path: &str) -> Option<usize>;
    /// The chapter whose path is closest to `path`, which is none: for
    /// "did you mean". Each question costs a bounded number of comparisons,
    /// however many chapters the book has.
    fn closest_chapter(&self, path: &str) -> Option<usize> {
        let _ = path;
        None
    }
}

/// [`mdbook_page`], plus every link of the page whose destination has a
/// fragment (destination and byte range), from the same parse: for the
/// anchor check, which needs both for a chapter that links to itself or is
/// linked to.
pub fn mdbook_page_and_links(
    text: &str,
    options: MarkdownOptions,
    generation: Generation,
    texts: HeadingTexts,
) -> (PageIds, Vec<Link>) {
    // A page without footnotes is walked as it is parsed: only footnote
    // definitions are rendered out of order.
    let found = match memchr::memmem::find(text.as_bytes(), b"[^") {
        None => streamed(text, options, generation),
        Some(_) => None,
    };
    let (page, links) = found.unwrap_or_else(|| from_event_vector(text, options, generation));
    (page.finish(texts), links)
}

/// [`mdbook_page_and_links`] from all of the page's events at once: for
/// pages with footnotes, whose definitions render out of order.
fn from_event_vector(
    text: &str,
    options: MarkdownOptions,
    generation: Generation,
) -> (Collected, Vec<Link>) {
    let events = events_of(text, options);
    let links = events
        .iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. }) if dest_url.contains('#') => Some(Link {
                dest: dest_url.to_string(),
                range: range.clone(),
            }),
            _ => None,
        })
        .collect();
    (mdbook_ids(&events, generation), links)
}

/// The ids github.com gives a Markdown file's headings, plus raw HTML ids.
///
/// Parsed like GitHub Flavored Markdown as far as headings go: tables,
/// strikethrough, task lists and footnotes, but no heading attributes (a
/// trailing `{#id}` stays part of the heading text) and no smart
/// punctuation. Raw HTML headings (`<h2>...</h2>` in an HTML block) are
/// counted too, since GitHub anchors every heading of the rendered page.
pub fn github_page(text: &str) -> PageIds {
    let parser = crate::mdbook::options::github_parser(text);
    let events: Vec<_> = parser.into_offset_iter().collect();
    github::page_ids(&events)
}

/// An event and its byte range in the source.
type Spanned<'a> = (Event<'a>, Range<usize>);

fn heading_level(level: HeadingLevel) -> u8 {
    level as u8
}

/// The id an mdBook heading element starts with: `{#id}`, else an `id`
/// among `{key=value}` attributes.
fn explicit_id<'a>(
    id: &'a Option<CowStr<'a>>,
    attrs: &'a [(CowStr<'a>, Option<CowStr<'a>>)],
) -> Option<&'a str> {
    id.as_deref().or_else(|| {
        attrs
            .iter()
            .find(|(k, _)| k.as_ref() == "id")
            .map(|(_, v)| v.as_deref().unwrap_or(""))
    })
}

#[cfg(test)]
mod tests;
