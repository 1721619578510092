//! Ids as mdBook 0.4 gives them: it renders the page, then runs a regex
//! over the HTML (`build_header_links`). This builds enough of that HTML
//! for the regex to find what it finds in mdBook.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use pulldown_cmark::{CowStr, Event, Tag, TagEnd};

use super::footnotes::Footnotes;
use super::html::{decode_entities, html_ids, strip_tags};
use super::slug::{self, IdAllocator, IdRules};
use super::text::{Flavor, TextAcc};
use super::{Collected, Heading, Spanned, explicit_id, heading_level};
use crate::markdown::{is_inline_end, is_inline_tag};
use crate::mdbook::Generation;

/// The ids mdBook 0.4 gives the page of these events.
pub(super) fn page_ids(events: &[Spanned<'_>]) -> Collected {
    let notes = Footnotes::new(events, false);
    Page04::of(events, &notes).ids()
}

/// The ids mdBook 0.4 gives a page without footnotes, from its events as
/// the parser makes them (none is kept).
pub(super) fn streamed_page_ids<'a>(events: impl Iterator<Item = Spanned<'a>>) -> Collected {
    let notes = Footnotes::none();
    let mut page = Page04::default();
    for (i, (event, range)) in events.enumerate() {
        page.render(&event, &range, i, &notes);
    }
    page.ids()
}

impl Page04 {
    /// The ids of the written page.
    fn ids(self) -> Collected {
        let page04 = self;
        let mut headings = page04.named_headings();
        headings.extend(page04.unnamed_with_explicit_id(&headings));
        headings.sort_by_key(|(at, _)| *at);
        let mut page = Collected::default();
        page.headings = headings.into_iter().map(|(_, h)| h).collect();
        for id in page04.other {
            page.add_other(id);
        }
        page
    }
}

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

impl MdHeading04 {
    fn heading(&self, id: String, custom_id: bool) -> Heading {
        Heading {
            level: self.level,
            text: self.text.clone(),
            id,
            range: self.range.clone(),
            custom_id,
        }
    }
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

/// Finding the ids on the rendered page.
impl Page04 {
    /// The headings `build_header_links` gives an id, with their offsets.
    fn named_headings(&self) -> Vec<(usize, Heading)> {
        let mut alloc = IdAllocator::new(IdRules::MdBook(Generation::V04));
        let markdown_at: HashMap<usize, &MdHeading04> =
            self.headings.iter().map(|h| (h.at, h)).collect();
        let mut headings = Vec::new();
        for m in header_links_04(&self.html) {
            if m.ignored {
                continue;
            }
            let (id, custom_id) = match m.id {
                Some(id) => (decode_entities(id), true),
                None => (alloc.next(&slug::mdbook04_id_from_html(m.content)), false),
            };
            let heading = match markdown_at.get(&m.start) {
                Some(md) => md.heading(id, custom_id),
                None => self.raw_heading(&m, id, custom_id),
            };
            headings.push((m.start, heading));
        }
        headings
    }

    /// A heading the regex found in raw HTML.
    fn raw_heading(&self, m: &HeaderLink<'_>, id: String, custom_id: bool) -> Heading {
        Heading {
            level: m.level,
            text: decode_entities(&strip_tags(m.content)).trim().to_string(),
            id,
            range: self.source_range(m.start..m.end),
            custom_id,
        }
    }

    /// Markdown headings the regex skipped (not in `named`): those with an
    /// explicit id keep it.
    fn unnamed_with_explicit_id(&self, named: &[(usize, Heading)]) -> Vec<(usize, Heading)> {
        let named: HashSet<usize> = named.iter().map(|(at, _)| *at).collect();
        self.headings
            .iter()
            .filter(|md| !named.contains(&md.at))
            .filter_map(|md| Some((md.at, md.heading(md.explicit.clone()?, true))))
            .collect()
    }

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
}

/// Writing the page.
impl Page04 {
    /// The chapter's events in order, then the referenced footnote
    /// definitions at the end, in order of first reference.
    fn of(events: &[Spanned<'_>], notes: &Footnotes<'_>) -> Self {
        let mut page = Page04::default();
        for (i, (event, range)) in events.iter().enumerate() {
            if notes.def_of(i).is_none() {
                page.render(event, range, i, notes);
            }
        }
        let defs = notes.rendered_defs();
        if !defs.is_empty() {
            page.newline();
            page.html
                .push_str("<hr>\n<ol class=\"footnote-definition\">");
        }
        for d in defs {
            for i in notes.def_events(d) {
                if let Some((event, range)) = events.get(i) {
                    page.render(event, range, i, notes);
                }
            }
        }
        page
    }

    fn newline(&mut self) {
        if !self.html.is_empty() && !self.html.ends_with('\n') {
            self.html.push('\n');
        }
    }

    /// Writes the event at `i`, noting the headings and ids it makes.
    fn render(&mut self, event: &Event<'_>, range: &Range<usize>, i: usize, notes: &Footnotes<'_>) {
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
        match event {
            Event::Start(tag) => self.start(tag, range),
            Event::End(tag) => self.end(*tag, range),
            event => self.leaf(event, i, notes),
        }
    }

    fn start(&mut self, tag: &Tag<'_>, range: &Range<usize>) {
        match tag {
            Tag::Heading {
                level,
                id,
                classes,
                attrs,
            } => {
                self.newline();
                let heading = MdHeading04 {
                    at: self.html.len(),
                    level: heading_level(*level),
                    explicit: explicit_id(id, attrs).map(str::to_string),
                    range: range.clone(),
                    text: String::new(),
                };
                self.heading_tag(heading.level, id.as_deref(), classes, attrs);
                self.open = Some((heading, TextAcc::new(Flavor::V04)));
            }
            Tag::Image { .. } => {
                self.html.push_str("<img src=\"\" alt=\"\" />");
                self.image_depth = 1;
            }
            Tag::HtmlBlock => {
                self.newline();
                self.html_block = Some(String::new());
            }
            Tag::FootnoteDefinition(name) => {
                self.newline();
                self.html.push_str("<li>");
                self.other.push(format!("footnote-{name}"));
            }
            tag => {
                if !stays_on_line(tag) {
                    self.newline();
                }
                self.html.push_str("<x>");
            }
        }
    }

    /// Writes a heading's start tag as pulldown-cmark's HTML writer does.
    fn heading_tag(
        &mut self,
        level: u8,
        id: Option<&str>,
        classes: &[CowStr<'_>],
        attrs: &[(CowStr<'_>, Option<CowStr<'_>>)],
    ) {
        let html = &mut self.html;
        html.push_str(&format!("<h{level}"));
        if let Some(id) = id {
            html.push_str(" id=\"");
            push_attr(html, id);
            html.push('"');
        }
        if let Some((first, rest)) = classes.split_first() {
            html.push_str(" class=\"");
            push_attr(html, first);
            for class in rest {
                html.push(' ');
                push_attr(html, class);
            }
            html.push('"');
        }
        for (key, value) in attrs {
            html.push(' ');
            push_attr(html, key);
            html.push_str("=\"");
            push_attr(html, value.as_deref().unwrap_or_default());
            html.push('"');
        }
        html.push('>');
    }

    fn end(&mut self, tag: TagEnd, range: &Range<usize>) {
        match tag {
            TagEnd::Heading(level) => {
                self.html
                    .push_str(&format!("</h{}>\n", heading_level(level)));
                if let Some((mut heading, acc)) = self.open.take() {
                    heading.text = acc.reader_text();
                    heading.range.end = heading.range.end.max(range.end);
                    self.headings.push(heading);
                }
            }
            TagEnd::HtmlBlock => {
                if let Some(block) = self.html_block.take() {
                    html_ids(&block, &mut self.other);
                }
            }
            TagEnd::FootnoteDefinition => self.html.push_str("</li>\n"),
            tag => {
                self.html.push_str("</x>");
                if !end_stays_on_line(tag) {
                    self.html.push('\n');
                }
            }
        }
    }

    /// Writes an event other than a start or end tag.
    fn leaf(&mut self, event: &Event<'_>, i: usize, notes: &Footnotes<'_>) {
        match event {
            Event::Text(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                if let Some(block) = self.html_block.as_mut() {
                    block.push_str(t);
                    self.html.push_str(t);
                } else {
                    push_body_text(&mut self.html, t);
                }
            }
            Event::Code(t) => {
                self.html.push_str("<code>");
                push_body_text(&mut self.html, t);
                self.html.push_str("</code>");
            }
            Event::Html(t) => {
                if let Some(block) = self.html_block.as_mut() {
                    block.push_str(t);
                } else {
                    html_ids(t, &mut self.other);
                }
                self.html.push_str(t);
            }
            Event::InlineHtml(t) => {
                html_ids(t, &mut self.other);
                self.html.push_str(t);
            }
            Event::FootnoteReference(name) => {
                if let Some(n) = notes.number(i) {
                    self.html.push_str(&format!("<sup>{n}</sup>"));
                }
                self.other.extend(notes.reference_id(i, name));
            }
            Event::SoftBreak => self.html.push('\n'),
            Event::HardBreak => self.html.push_str("<br />\n"),
            Event::Rule => {
                self.newline();
                self.html.push_str("<hr />\n");
            }
            Event::TaskListMarker(_) => self.html.push_str("<input />\n"),
            // Written by `start` and `end`.
            Event::Start(_) | Event::End(_) => {}
        }
    }
}

/// Appends `text` escaped for an attribute value, by the escaper
/// pulldown-cmark's HTML writer uses.
fn push_attr(html: &mut String, text: &str) {
    // Writing into a String cannot fail.
    let _ = pulldown_cmark_escape::escape_html(html, text);
}

/// Appends `text` escaped as pulldown-cmark's HTML writer escapes body text.
fn push_body_text(html: &mut String, text: &str) {
    // Writing into a String cannot fail.
    let _ = pulldown_cmark_escape::escape_html_body_text(html, text);
}

/// Whether pulldown-cmark's HTML writer keeps `tag` on the line it is in:
/// the inline tags of [`is_inline_tag`], plus table cells, which are blocks
/// to the other callers but which the writer puts side by side
/// (`<td>a</td><td>b</td>`). Here that matters: mdBook 0.4's heading regex
/// stops at a line break, and `| <h2>a | b</h2> |` is a heading on its page.
fn stays_on_line(tag: &Tag<'_>) -> bool {
    is_inline_tag(tag) || matches!(tag, Tag::TableCell)
}

/// Whether the writer ends `tag` on the same line (see [`stays_on_line`]).
fn end_stays_on_line(tag: TagEnd) -> bool {
    is_inline_end(tag) || tag == TagEnd::TableCell
}

/// One match of mdBook 0.4's
/// `<h(\d)(?: id="([^"]+)")?(?: class="([^"]+)")?>(.*?)</h\d>`.
#[derive(Debug)]
pub(super) struct HeaderLink<'h> {
    start: usize,
    end: usize,
    pub(super) level: u8,
    pub(super) id: Option<&'h str>,
    /// Has class `menu-title` or `mdbook-help-title`: left alone.
    pub(super) ignored: bool,
    pub(super) content: &'h str,
}

/// All non-overlapping matches of `build_header_links`' regex, in order.
/// (`\d` is taken as an ASCII digit: mdBook would panic on any other.)
pub(super) fn header_links_04(html: &str) -> Vec<HeaderLink<'_>> {
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
