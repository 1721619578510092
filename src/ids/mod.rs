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

pub mod slug;

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use crate::diagnostic::{Diagnostic, did_you_mean};
use crate::mdbook::Generation;
use crate::mdbook::MarkdownOptions;
use slug::{IdAllocator, IdRules};

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

/// Every id one rendered page has.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageIds {
    /// Headings with an id, in the order they appear on the page.
    pub headings: Vec<Heading>,
    /// Definition-list terms with an id (mdBook 0.5 only).
    pub terms: Vec<Term>,
    /// Other ids: raw HTML `id` attributes and `<a name>`, footnote ids;
    /// without repeats and without the headings' and terms' ids.
    pub other: Vec<String>,
}

impl PageIds {
    /// Whether the page has an element with this id, i.e. whether
    /// `page#id` lands somewhere.
    pub fn contains(&self, id: &str) -> bool {
        self.ids().any(|known| known == id)
    }

    /// All ids: headings, then terms, then the others.
    pub fn ids(&self) -> impl Iterator<Item = &str> + '_ {
        self.headings
            .iter()
            .map(|h| h.id.as_str())
            .chain(self.terms.iter().map(|t| t.id.as_str()))
            .chain(self.other.iter().map(String::as_str))
    }

    /// The first heading whose text is `text` as an author would type it:
    /// ignoring case, runs of whitespace, backticks (a heading's text is
    /// plain: `` `cargo test` `` in it is `cargo test`) and smart punctuation
    /// (`Don't` finds the heading mdBook renders as `Don’t`).
    pub fn find_by_text(&self, text: &str) -> Option<&Heading> {
        let wanted = loose(text);
        self.headings.iter().find(|h| loose(&h.text) == wanted)
    }

    fn add_other(&mut self, seen: &mut HashSet<String>, id: String) {
        if seen.insert(id.clone()) {
            self.other.push(id);
        }
    }

    /// Drops repeats of heading and term ids from `other`.
    fn finish(mut self) -> Self {
        let named: HashSet<&str> = self
            .headings
            .iter()
            .map(|h| h.id.as_str())
            .chain(self.terms.iter().map(|t| t.id.as_str()))
            .collect();
        let other = std::mem::take(&mut self.other);
        let other = other
            .into_iter()
            .filter(|id| !named.contains(id.as_str()))
            .collect();
        self.other = other;
        self
    }
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
            c => out.extend(c.to_lowercase()),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The ids of a chapter as the given mdBook's HTML renderer will write them.
///
/// `options` must be the book's (see [`MarkdownOptions::from_config`]):
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
    let events = events_of(text, options);
    match generation {
        Generation::V05 => mdbook05(&events),
        Generation::V04 => mdbook04(&events),
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
/// caller's message, place and label) with the page's closest id as help.
/// Every caller (links in chapters, `{{#ref}}`, `{{#contributing}}`,
/// links in generated text) reports a missing anchor through this.
pub fn with_closest_anchor(error: Diagnostic, fragment: &str, page: &PageIds) -> Diagnostic {
    error.with_suggestion(did_you_mean(fragment, page.ids()).map(|id| format!("#{id}")))
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
    fn page(&self, chapter: usize) -> Option<std::sync::Arc<PageIds>>;
    /// The chapter whose path (relative to `src`) is `path`.
    fn chapter_by_path(&self, path: &str) -> Option<usize>;
}

/// [`mdbook_page`], plus every link of the page (destination and byte
/// range), from the same parse: for the anchor check, which needs both for
/// a chapter that links to itself or is linked to.
pub fn mdbook_page_and_links(
    text: &str,
    options: MarkdownOptions,
    generation: Generation,
) -> (PageIds, Vec<Link>) {
    let events = events_of(text, options);
    let links = events
        .iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. }) => Some(Link {
                dest: dest_url.to_string(),
                range: range.clone(),
            }),
            _ => None,
        })
        .collect();
    let ids = match generation {
        Generation::V05 => mdbook05(&events),
        Generation::V04 => mdbook04(&events),
    };
    (ids, links)
}

/// The ids github.com gives a Markdown file's headings, plus raw HTML ids.
///
/// Parsed like GitHub Flavored Markdown as far as headings go: tables,
/// strikethrough, task lists and footnotes, but no heading attributes (a
/// trailing `{#id}` stays part of the heading text) and no smart
/// punctuation. Raw HTML headings (`<h2>...</h2>` in an HTML block) are
/// counted too, since GitHub anchors every heading of the rendered page.
pub fn github_page(text: &str) -> PageIds {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES;
    let events: Vec<_> = Parser::new_ext(text, options).into_offset_iter().collect();
    github(&events)
}

type Spanned<'a> = (Event<'a>, Range<usize>);

/// Which renderer's notion of heading text an accumulator builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flavor {
    /// mdBook 0.4: the id source is the rendered HTML, built elsewhere.
    V04,
    /// mdBook 0.5: `text_in_node` over the heading's element.
    V05,
    /// GitHub: the heading element's text content.
    GitHub,
}

/// Collects a heading's (or term's) text from its inner events.
#[derive(Debug)]
struct TextAcc {
    flavor: Flavor,
    /// What a reader sees.
    reader: String,
    /// What the renderer derives the id from (unused for mdBook 0.4).
    source: String,
    /// The last event was a footnote reference (mdBook 0.5 puts a space
    /// between two adjacent ones).
    after_footnote: bool,
    /// Depth of images being skipped.
    image_depth: usize,
}

impl TextAcc {
    fn new(flavor: Flavor) -> Self {
        TextAcc {
            flavor,
            reader: String::new(),
            source: String::new(),
            after_footnote: false,
            image_depth: 0,
        }
    }

    /// Feeds one event; `footnote` is the reference's number for a
    /// `FootnoteReference` that is rendered.
    fn push(&mut self, event: &Event<'_>, footnote: Option<usize>) {
        match event {
            Event::Start(Tag::Image { .. }) => self.image_depth += 1,
            Event::End(TagEnd::Image) => self.image_depth = self.image_depth.saturating_sub(1),
            _ => {}
        }
        if self.image_depth > 0 || matches!(event, Event::End(TagEnd::Image)) {
            self.after_footnote = false;
            return;
        }
        let was_after_footnote = std::mem::take(&mut self.after_footnote);
        match event {
            Event::Text(t) | Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                self.reader.push_str(t);
                self.source.push_str(t);
            }
            Event::SoftBreak => {
                self.reader.push(' ');
                self.source.push('\n');
            }
            Event::HardBreak => {
                self.reader.push(' ');
                if self.flavor == Flavor::GitHub {
                    self.source.push('\n');
                }
            }
            Event::FootnoteReference(_) => {
                if let Some(n) = footnote {
                    if self.flavor == Flavor::V05 && was_after_footnote {
                        self.source.push(' ');
                    }
                    self.source.push_str(&n.to_string());
                    self.after_footnote = true;
                }
            }
            _ => {}
        }
    }

    fn reader_text(&self) -> String {
        self.reader.trim().to_string()
    }
}

/// Footnote bookkeeping shared by the renderers: which events sit inside
/// which definition, and the number and count of each reference.
#[derive(Debug)]
struct Footnotes<'a> {
    /// Definitions in page order; their event ranges never overlap.
    defs: Vec<FootnoteDef<'a>>,
    /// Per reference event index: (displayed number, n-th use of the name).
    refs: HashMap<usize, (usize, u32)>,
    /// Per name: (number, references).
    numbers: HashMap<CowStr<'a>, (usize, u32)>,
}

#[derive(Debug)]
struct FootnoteDef<'a> {
    name: CowStr<'a>,
    /// The first definition of the name (later ones are dropped).
    first: bool,
    /// Event indices of its start and end.
    start: usize,
    end: usize,
}

impl<'a> Footnotes<'a> {
    /// `skip_duplicates`: references inside a repeated definition are not
    /// counted (mdBook 0.5 skips such a definition unread; 0.4 numbers
    /// them, then drops the definition).
    fn new(events: &[Spanned<'a>], skip_duplicates: bool) -> Self {
        let mut defs: Vec<FootnoteDef<'a>> = Vec::new();
        let mut names = HashSet::new();
        let mut refs = HashMap::new();
        let mut numbers: HashMap<CowStr<'a>, (usize, u32)> = HashMap::new();
        let mut current: Option<usize> = None;
        for (i, (event, _)) in events.iter().enumerate() {
            match event {
                Event::Start(Tag::FootnoteDefinition(name)) if current.is_none() => {
                    defs.push(FootnoteDef {
                        name: name.clone(),
                        first: names.insert(name.clone()),
                        start: i,
                        end: i,
                    });
                    current = Some(defs.len() - 1);
                }
                Event::FootnoteReference(name) => {
                    let skipped = skip_duplicates && current.is_some_and(|d| !defs[d].first);
                    if !skipped {
                        let len = numbers.len() + 1;
                        let entry = numbers.entry(name.clone()).or_insert((len, 0));
                        entry.1 += 1;
                        refs.insert(i, *entry);
                    }
                }
                _ => {}
            }
            if let (Event::End(TagEnd::FootnoteDefinition), Some(d)) = (event, current) {
                defs[d].end = i;
                current = None;
            }
        }
        Footnotes {
            defs,
            refs,
            numbers,
        }
    }

    /// The index in `defs` of the definition the event at `i` is inside.
    fn def_of(&self, i: usize) -> Option<usize> {
        let after = self.defs.partition_point(|d| d.start <= i);
        let d = after.checked_sub(1)?;
        (i <= self.defs[d].end).then_some(d)
    }

    /// Whether a definition ends up on the page: the first of its name, and
    /// referenced.
    fn def_rendered(&self, d: usize) -> bool {
        let def = &self.defs[d];
        def.first && self.numbers.contains_key(&def.name)
    }

    /// Whether the event at `i` ends up on the page.
    fn rendered(&self, i: usize) -> bool {
        self.def_of(i).is_none_or(|d| self.def_rendered(d))
    }

    fn number(&self, i: usize) -> Option<usize> {
        self.refs.get(&i).map(|&(n, _)| n)
    }

    /// The `fr-NAME-N` id of the reference at `i`, if it is numbered.
    fn reference_id(&self, i: usize, name: &str) -> Option<String> {
        self.refs
            .get(&i)
            .map(|&(_, count)| format!("fr-{name}-{count}"))
    }
}

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

// ---------------------------------------------------------------- mdBook 0.5

/// The open heading (level `Some`) or term (`None`): level, explicit id,
/// start range, text.
type Open05 = (Option<u8>, Option<String>, Range<usize>, TextAcc);

fn mdbook05(events: &[Spanned<'_>]) -> PageIds {
    let notes = Footnotes::new(events, true);
    let mut alloc = IdAllocator::new(IdRules::MdBook(Generation::V05));
    let mut page = PageIds::default();
    let mut seen = HashSet::new();
    // Footnote definitions end up after the chapter, in order of number;
    // ids are still handed out in source order.
    let place = |i: usize| match notes.def_of(i) {
        None => (0, i),
        Some(d) => (
            1 + notes
                .numbers
                .get(&notes.defs[d].name)
                .map_or(0, |&(n, _)| n),
            i,
        ),
    };
    let mut headings = Vec::new();
    let mut terms = Vec::new();
    let mut open: Option<Open05> = None;
    let mut html_block: Option<String> = None;
    for (i, (event, range)) in events.iter().enumerate() {
        // A repeated footnote definition is skipped unread.
        if notes.def_of(i).is_some_and(|d| !notes.defs[d].first) {
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
                        let base = slug::base_id(IdRules::MdBook(Generation::V05), &acc.source);
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

// ---------------------------------------------------------------- mdBook 0.4

/// A Markdown heading as rendered into the 0.4 page.
#[derive(Debug)]
struct MdHeading04 {
    /// Offset of its `<hN` in the page.
    at: usize,
    level: u8,
    explicit: Option<String>,
    range: Range<usize>,
    text: String,
}

/// An approximation of the HTML mdBook 0.4 writes for a chapter: exact in
/// what `build_header_links` looks at (heading tags, the text and tags
/// between them, where lines break), loose elsewhere.
#[derive(Debug, Default)]
struct Page04 {
    html: String,
    /// (offset in `html`, source range) of each rendered event, in order.
    chunks: Vec<(usize, Range<usize>)>,
    headings: Vec<MdHeading04>,
    open: Option<(MdHeading04, TextAcc)>,
    image_depth: usize,
    html_block: Option<String>,
    other: Vec<String>,
}

impl Page04 {
    /// The source range of the events that produced `html[span]`.
    fn source_range(&self, span: Range<usize>) -> Range<usize> {
        let chunk_at = |offset: usize| {
            let i = self.chunks.partition_point(|(at, _)| *at <= offset);
            self.chunks.get(i.saturating_sub(1)).map(|(_, r)| r.clone())
        };
        match (chunk_at(span.start), chunk_at(span.end.saturating_sub(1))) {
            (Some(a), Some(b)) => a.start..b.end.max(a.end),
            (Some(a), None) => a,
            _ => 0..0,
        }
    }

    fn newline(&mut self) {
        if !self.html.is_empty() && !self.html.ends_with('\n') {
            self.html.push('\n');
        }
    }

    fn render(&mut self, events: &[Spanned<'_>], i: usize, notes: &Footnotes<'_>) {
        let (event, range) = &events[i];
        self.chunks.push((self.html.len(), range.clone()));
        if let Some((_, acc)) = self.open.as_mut() {
            acc.push(event, notes.number(i));
        }
        if self.image_depth > 0 {
            match event {
                Event::Start(_) => self.image_depth += 1,
                Event::End(_) => self.image_depth -= 1,
                _ => {}
            }
            return;
        }
        let mut found = Vec::new();
        match event {
            Event::Start(Tag::Heading {
                level,
                id,
                classes,
                attrs,
            }) => {
                self.newline();
                let at = self.html.len();
                let level = heading_level(*level);
                self.html.push_str(&format!("<h{level}"));
                if let Some(id) = id {
                    self.html.push_str(&format!(" id=\"{}\"", escape_attr(id)));
                }
                if !classes.is_empty() {
                    let classes: Vec<String> = classes.iter().map(|c| escape_attr(c)).collect();
                    self.html
                        .push_str(&format!(" class=\"{}\"", classes.join(" ")));
                }
                for (key, value) in attrs {
                    let value = value.as_deref().map(escape_attr).unwrap_or_default();
                    self.html
                        .push_str(&format!(" {}=\"{value}\"", escape_attr(key)));
                }
                self.html.push('>');
                let heading = MdHeading04 {
                    at,
                    level,
                    explicit: explicit_id(id, attrs).map(str::to_string),
                    range: range.clone(),
                    text: String::new(),
                };
                self.open = Some((heading, TextAcc::new(Flavor::V04)));
            }
            Event::End(TagEnd::Heading(level)) => {
                self.html
                    .push_str(&format!("</h{}>\n", heading_level(*level)));
                if let Some((mut heading, acc)) = self.open.take() {
                    heading.text = acc.reader_text();
                    heading.range.end = heading.range.end.max(range.end);
                    self.headings.push(heading);
                }
            }
            Event::Start(Tag::Image { .. }) => {
                self.html.push_str("<img src=\"\" alt=\"\" />");
                self.image_depth = 1;
            }
            Event::Start(Tag::HtmlBlock) => {
                self.newline();
                self.html_block = Some(String::new());
            }
            Event::End(TagEnd::HtmlBlock) => {
                if let Some(block) = self.html_block.take() {
                    html_ids(&block, &mut found);
                }
            }
            Event::Start(Tag::FootnoteDefinition(name)) => {
                self.newline();
                self.html.push_str("<li>");
                found.push(format!("footnote-{name}"));
            }
            Event::End(TagEnd::FootnoteDefinition) => self.html.push_str("</li>\n"),
            Event::Start(tag) => {
                if !is_inline(tag) {
                    self.newline();
                }
                self.html.push_str("<x>");
            }
            Event::End(tag) => {
                self.html.push_str("</x>");
                if !is_inline_end(tag) {
                    self.html.push('\n');
                }
            }
            Event::Text(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                if let Some(block) = self.html_block.as_mut() {
                    block.push_str(t);
                    self.html.push_str(t);
                } else {
                    self.html.push_str(&slug::escape_body_text(t));
                }
            }
            Event::Code(t) => {
                self.html.push_str("<code>");
                self.html.push_str(&slug::escape_body_text(t));
                self.html.push_str("</code>");
            }
            Event::Html(t) => {
                if let Some(block) = self.html_block.as_mut() {
                    block.push_str(t);
                } else {
                    html_ids(t, &mut found);
                }
                self.html.push_str(t);
            }
            Event::InlineHtml(t) => {
                html_ids(t, &mut found);
                self.html.push_str(t);
            }
            Event::FootnoteReference(name) => {
                if let Some(n) = notes.number(i) {
                    self.html.push_str(&format!("<sup>{n}</sup>"));
                }
                found.extend(notes.reference_id(i, name));
            }
            Event::SoftBreak => self.html.push('\n'),
            Event::HardBreak => self.html.push_str("<br />\n"),
            Event::Rule => {
                self.newline();
                self.html.push_str("<hr />\n");
            }
            Event::TaskListMarker(_) => self.html.push_str("<input />\n"),
        }
        self.other.extend(found);
    }
}

/// Inline tags pulldown-cmark writes without line breaks around them.
fn is_inline(tag: &Tag<'_>) -> bool {
    matches!(
        tag,
        Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Superscript
            | Tag::Subscript
            | Tag::Link { .. }
            | Tag::Image { .. }
            | Tag::TableCell
    )
}

fn is_inline_end(tag: &TagEnd) -> bool {
    matches!(
        tag,
        TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link
            | TagEnd::Image
            | TagEnd::TableCell
    )
}

fn mdbook04(events: &[Spanned<'_>]) -> PageIds {
    let notes = Footnotes::new(events, false);
    let mut page04 = Page04::default();
    for i in 0..events.len() {
        if notes.def_of(i).is_none() {
            page04.render(events, i, &notes);
        }
    }
    // Referenced definitions go to the end, in order of first reference.
    let mut defs: Vec<usize> = (0..notes.defs.len())
        .filter(|&d| notes.def_rendered(d))
        .collect();
    defs.sort_by_key(|&d| notes.numbers.get(&notes.defs[d].name).map(|&(n, _)| n));
    if !defs.is_empty() {
        page04.newline();
        page04
            .html
            .push_str("<hr>\n<ol class=\"footnote-definition\">");
    }
    for d in defs {
        for i in notes.defs[d].start..=notes.defs[d].end {
            page04.render(events, i, &notes);
        }
    }

    let mut alloc = IdAllocator::new(IdRules::MdBook(Generation::V04));
    let mut page = PageIds::default();
    let markdown_at: HashMap<usize, &MdHeading04> =
        page04.headings.iter().map(|h| (h.at, h)).collect();
    let mut headings: Vec<(usize, Heading)> = Vec::new();
    for m in header_links_04(&page04.html) {
        let markdown = markdown_at.get(&m.start);
        if m.ignored {
            continue;
        }
        let (id, custom_id) = match m.id {
            Some(id) => (decode_entities(id), true),
            None => (alloc.next(&slug::mdbook04_id_from_html(m.content)), false),
        };
        let heading = match markdown {
            Some(md) => Heading {
                level: md.level,
                text: md.text.clone(),
                id,
                range: md.range.clone(),
                custom_id,
            },
            None => Heading {
                level: m.level,
                text: decode_entities(&strip_tags(m.content)).trim().to_string(),
                id,
                range: page04.source_range(m.start..m.end),
                custom_id,
            },
        };
        headings.push((m.start, heading));
    }
    // Markdown headings the regex skipped keep an explicit id if they had one.
    let named: HashSet<usize> = headings.iter().map(|(at, _)| *at).collect();
    for md in &page04.headings {
        if named.contains(&md.at) {
            continue;
        }
        if let Some(id) = &md.explicit {
            headings.push((
                md.at,
                Heading {
                    level: md.level,
                    text: md.text.clone(),
                    id: id.clone(),
                    range: md.range.clone(),
                    custom_id: true,
                },
            ));
        }
    }
    headings.sort_by_key(|(at, _)| *at);
    page.headings = headings.into_iter().map(|(_, h)| h).collect();
    let mut seen = HashSet::new();
    for id in std::mem::take(&mut page04.other) {
        page.add_other(&mut seen, id);
    }
    page.finish()
}

/// One match of mdBook 0.4's
/// `<h(\d)(?: id="([^"]+)")?(?: class="([^"]+)")?>(.*?)</h\d>`.
#[derive(Debug)]
struct HeaderLink<'h> {
    start: usize,
    end: usize,
    level: u8,
    id: Option<&'h str>,
    /// Has class `menu-title` or `mdbook-help-title`: left alone.
    ignored: bool,
    content: &'h str,
}

/// All non-overlapping matches of `build_header_links`' regex, in order.
/// (`\d` is taken as an ASCII digit: mdBook would panic on any other.)
fn header_links_04(html: &str) -> Vec<HeaderLink<'_>> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(found) = html[pos..].find("<h") {
        let start = pos + found;
        match header_link_at(html, start) {
            Some(m) => {
                pos = m.end;
                out.push(m);
            }
            None => pos = start + 2,
        }
    }
    out
}

fn header_link_at(html: &str, start: usize) -> Option<HeaderLink<'_>> {
    let bytes = html.as_bytes();
    let digit = *bytes.get(start + 2)?;
    if !digit.is_ascii_digit() {
        return None;
    }
    let mut pos = start + 3;
    let quoted = |pos: &mut usize, prefix: &str| -> Option<&str> {
        let rest = html[*pos..].strip_prefix(prefix)?;
        let len = rest.find('"')?;
        if len == 0 {
            return None;
        }
        let value = &rest[..len];
        *pos += prefix.len() + len + 1;
        Some(value)
    };
    let id = quoted(&mut pos, " id=\"");
    let class = quoted(&mut pos, " class=\"");
    if bytes.get(pos) != Some(&b'>') {
        return None;
    }
    let content_start = pos + 1;
    let mut j = content_start;
    loop {
        match bytes.get(j)? {
            b'\n' => return None,
            b'<' if bytes.get(j + 1) == Some(&b'/')
                && bytes.get(j + 2) == Some(&b'h')
                && bytes.get(j + 3).is_some_and(u8::is_ascii_digit)
                && bytes.get(j + 4) == Some(&b'>') =>
            {
                let ignored = class.is_some_and(|c| {
                    c.split(' ')
                        .any(|c| c == "menu-title" || c == "mdbook-help-title")
                });
                return Some(HeaderLink {
                    start,
                    end: j + 5,
                    level: digit - b'0',
                    id,
                    ignored,
                    content: &html[content_start..j],
                });
            }
            _ => j += 1,
        }
    }
}

// -------------------------------------------------------------------- GitHub

fn github(events: &[Spanned<'_>]) -> PageIds {
    let notes = Footnotes::new(events, false);
    let mut alloc = IdAllocator::new(IdRules::GitHub);
    let mut page = PageIds::default();
    let mut seen = HashSet::new();
    let mut open: Option<(u8, Range<usize>, TextAcc)> = None;
    let mut html_block: Option<(String, Range<usize>)> = None;
    for (i, (event, range)) in events.iter().enumerate() {
        if let Some((_, _, acc)) = open.as_mut() {
            acc.push(event, notes.number(i));
        }
        let mut found = Vec::new();
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                open = Some((
                    heading_level(*level),
                    range.clone(),
                    TextAcc::new(Flavor::GitHub),
                ));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, start, acc)) = open.take() {
                    let id = alloc.id_for(&acc.source);
                    page.headings.push(Heading {
                        level,
                        text: acc.reader_text(),
                        id,
                        range: start.start..range.end.max(start.end),
                        custom_id: false,
                    });
                }
            }
            Event::Start(Tag::HtmlBlock) => html_block = Some((String::new(), range.clone())),
            Event::Html(t) | Event::Text(t) if html_block.is_some() => {
                if let Some((block, _)) = html_block.as_mut() {
                    block.push_str(t);
                }
            }
            Event::End(TagEnd::HtmlBlock) => {
                if let Some((block, block_range)) = html_block.take() {
                    for (level, content) in raw_headings(&block) {
                        let text = decode_entities(&strip_tags(content));
                        let id = alloc.id_for(&text);
                        page.headings.push(Heading {
                            level,
                            text: text.trim().to_string(),
                            id,
                            range: block_range.clone(),
                            custom_id: false,
                        });
                    }
                    html_ids(&block, &mut found);
                }
            }
            Event::Html(t) | Event::InlineHtml(t) => html_ids(t, &mut found),
            _ => {}
        }
        for id in found {
            page.add_other(&mut seen, id);
        }
    }
    page.finish()
}

/// `<hN ...>content</hN>` pairs in a block of raw HTML (any case, content may
/// span lines, no nesting).
fn raw_headings(html: &str) -> Vec<(u8, &str)> {
    let lower = html.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(found) = lower[pos..].find("<h") {
        let start = pos + found;
        pos = start + 2;
        let bytes = lower.as_bytes();
        let Some(&digit) = bytes.get(start + 2) else {
            break;
        };
        if !(b'1'..=b'6').contains(&digit)
            || !bytes
                .get(start + 3)
                .is_some_and(|&b| b == b'>' || b == b'/' || b.is_ascii_whitespace())
        {
            continue;
        }
        let Some(open_end) = lower[start..].find('>').map(|e| start + e + 1) else {
            break;
        };
        let close = format!("</h{}", digit as char);
        let Some(close_at) = lower[open_end..].find(&close).map(|e| open_end + e) else {
            continue;
        };
        out.push((digit - b'0', &html[open_end..close_at]));
        pos = close_at + close.len();
    }
    out
}

// ---------------------------------------------------------------- raw HTML

/// Collects `id` attributes of any element, and `name` of `<a>`, from a piece
/// of raw HTML. Skips comments and the contents of `<script>` and `<style>`.
fn html_ids(html: &str, out: &mut Vec<String>) {
    let bytes = html.as_bytes();
    let mut pos = 0;
    while let Some(found) = memchr::memchr(b'<', &bytes[pos..]) {
        let at = pos + found;
        let rest = &html[at..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            pos = comment.find("-->").map_or(html.len(), |e| at + 4 + e + 3);
            continue;
        }
        if !bytes.get(at + 1).is_some_and(u8::is_ascii_alphabetic) {
            pos = at + 1;
            continue;
        }
        let name_len = rest[1..]
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'-' || *b == b':')
            .count();
        let tag = rest[1..1 + name_len].to_ascii_lowercase();
        let (end, attrs) = attributes(html, at + 1 + name_len);
        for (key, value) in attrs {
            if (key == "id" || (key == "name" && tag == "a")) && !value.is_empty() {
                out.push(decode_entities(value));
            }
        }
        pos = end;
        if tag == "script" || tag == "style" {
            let close = format!("</{tag}");
            pos = html[pos..]
                .to_ascii_lowercase()
                .find(&close)
                .map_or(html.len(), |e| pos + e);
        }
    }
}

/// Parses attributes from `pos` (just after a tag name) to the tag's `>`.
/// Returns the offset after the tag and the (lowercased name, raw value)
/// pairs.
fn attributes(html: &str, mut pos: usize) -> (usize, Vec<(String, &str)>) {
    let bytes = html.as_bytes();
    let mut attrs = Vec::new();
    loop {
        while bytes
            .get(pos)
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b'/')
        {
            pos += 1;
        }
        match bytes.get(pos) {
            None => return (pos, attrs),
            Some(b'>') => return (pos + 1, attrs),
            _ => {}
        }
        let name_start = pos;
        while bytes
            .get(pos)
            .is_some_and(|b| !b.is_ascii_whitespace() && !matches!(b, b'=' | b'>' | b'/'))
        {
            pos += 1;
        }
        if pos == name_start {
            // A stray `=`.
            pos += 1;
            continue;
        }
        let name = html[name_start..pos].to_ascii_lowercase();
        while bytes.get(pos).is_some_and(u8::is_ascii_whitespace) {
            pos += 1;
        }
        let mut value = "";
        if bytes.get(pos) == Some(&b'=') {
            pos += 1;
            while bytes.get(pos).is_some_and(u8::is_ascii_whitespace) {
                pos += 1;
            }
            match bytes.get(pos) {
                Some(&quote @ (b'"' | b'\'')) => {
                    let start = pos + 1;
                    let end =
                        memchr::memchr(quote, &bytes[start..]).map_or(html.len(), |e| start + e);
                    value = &html[start..end];
                    pos = (end + 1).min(html.len());
                }
                _ => {
                    let start = pos;
                    while bytes
                        .get(pos)
                        .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'>')
                    {
                        pos += 1;
                    }
                    value = &html[start..pos];
                }
            }
        }
        attrs.push((name, value));
    }
}

/// Removes `<...>` tags (no regex semantics: a tag may span lines).
fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        match rest[lt..].find('>') {
            Some(gt) => rest = &rest[lt + gt + 1..],
            None => {
                rest = &rest[lt..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Decodes the character references that matter for ids: the five XML
/// ones, `&nbsp;` and numeric references. Others are left as written.
fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let decoded = after.find(';').filter(|&semi| semi <= 10).and_then(|semi| {
            let name = &after[..semi];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some('\u{a0}'),
                _ => {
                    let number = name.strip_prefix('#')?;
                    let code = match number.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                        None => number.parse().ok()?,
                    };
                    char::from_u32(code)
                }
            };
            c.map(|c| (c, semi))
        });
        match decoded {
            Some((c, semi)) => {
                out.push(c);
                rest = &after[semi + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Escapes an attribute value as pulldown-cmark does.
fn escape_attr(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
