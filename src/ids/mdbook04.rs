//! Ids as mdBook 0.4 gives them: it renders the page, then runs a regex
//! over the HTML (`build_header_links`). This builds enough of that HTML
//! for the regex to find what it finds in mdBook.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use pulldown_cmark::{Event, Tag, TagEnd};

use super::footnotes::Footnotes;
use super::html::{decode_entities, escape_attr, html_ids, strip_tags};
use super::slug::{self, IdAllocator, IdRules};
use super::text::{Flavor, TextAcc};
use super::{Heading, PageIds, Spanned, explicit_id, heading_level};
use crate::mdbook::Generation;

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

pub(super) fn page_ids(events: &[Spanned<'_>]) -> PageIds {
    let notes = Footnotes::new(events, false);
    let mut page04 = Page04::default();
    for i in 0..events.len() {
        if notes.def_of(i).is_none() {
            page04.render(events, i, &notes);
        }
    }
    // Referenced definitions go to the end, in order of first reference.
    let defs = notes.rendered_defs();
    if !defs.is_empty() {
        page04.newline();
        page04
            .html
            .push_str("<hr>\n<ol class=\"footnote-definition\">");
    }
    for d in defs {
        for i in notes.def_events(d) {
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
