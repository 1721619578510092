//! Ids as github.com gives them to a Markdown file's headings
//! (github-slugger over the heading element's text content).

use std::ops::Range;

use pulldown_cmark::{Event, Tag, TagEnd};

use super::footnotes::Footnotes;
use super::html::{decode_entities, html_ids, strip_tags};
use super::slug::{IdAllocator, IdRules};
use super::text::{Flavor, TextAcc};
use super::{Collected, Heading, HeadingTexts, PageIds, Spanned, heading_level};

/// The ids github.com gives the page of these events.
pub(super) fn page_ids(events: &[Spanned<'_>]) -> PageIds {
    let notes = Footnotes::new(events, false);
    let mut alloc = IdAllocator::new(IdRules::GitHub);
    let mut page = Collected::default();
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
                    let id = alloc.id_for(acc.source());
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
                    page.headings
                        .extend(raw_block_headings(&block, &block_range, &mut alloc));
                    html_ids(&block, &mut found);
                }
            }
            Event::Html(t) | Event::InlineHtml(t) => html_ids(t, &mut found),
            _ => {}
        }
        for id in found {
            page.add_other(id);
        }
    }
    page.finish(HeadingTexts::Keep)
}

/// The headings of a block of raw HTML, each given the block's range:
/// GitHub anchors them like Markdown ones.
fn raw_block_headings(block: &str, range: &Range<usize>, alloc: &mut IdAllocator) -> Vec<Heading> {
    let mut headings = Vec::new();
    for (level, content) in raw_headings(block) {
        let text = decode_entities(&strip_tags(content));
        let id = alloc.id_for(&text);
        headings.push(Heading {
            level,
            text: text.trim().to_string(),
            id,
            range: range.clone(),
            custom_id: false,
        });
    }
    headings
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
