//! Writing generated Markdown from pulldown-cmark events, and small helpers
//! over Markdown text that every stage shares.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::mem::discriminant;
use std::sync::{Mutex, OnceLock};

use pulldown_cmark::{Event, Options, Tag, TagEnd};

use crate::mdbook::MarkdownOptions;

pub mod html;
mod literal;
pub mod sanitize;

/// Where generated Markdown is spliced, which decides what fits there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// A paragraph (or list item) of its own: block Markdown fits.
    Block,
    /// Inside running text: only inline Markdown fits.
    Inline,
}

/// Writes events as CommonMark for a parser with `options`. Escaping is done
/// by pulldown-cmark-to-cmark, never by hand.
///
/// The writer checks its own output by parsing it back, which makes it cost
/// tens of microseconds per call even for a few words; and a book repeats
/// the same output often (a person, a group, a link to one section, in page
/// after page). So each result is remembered for the rest of the process:
/// the same events with the same options always give the same Markdown.
pub fn to_markdown<'a, I>(events: I, options: Options) -> String
where
    I: IntoIterator<Item = Event<'a>>,
{
    let events = protect_table_pipes(merge_text(events));
    let options_bits = options.bits();
    let hash = memo_hash(options_bits, &events);
    let memo = MEMO.get_or_init(Mutex::default);
    // Looked up with the events as they are: only a new result copies them.
    let known = memo.lock().ok().and_then(|m| {
        let (key, out) = m.map.get(&hash)?;
        (key.options == options_bits && key.events[..] == events[..]).then(|| out.clone())
    });
    if let Some(out) = known {
        return out;
    }
    let mut owned: Vec<Event<'static>> = events.into_iter().map(Event::into_static).collect();
    // Collected in place, it keeps the working list's spare room; the memo
    // keeps it for the run.
    owned.shrink_to_fit();
    let key = MemoKey {
        options: options_bits,
        events: owned,
    };
    let out = write(&key.events, options);
    if let Ok(mut memo) = memo.lock() {
        let size = key.size() + out.len();
        // A second input with the same hash (rare: 64 bits) is written
        // every time rather than remembered.
        if memo.bytes + size <= MEMO_BYTES && !memo.map.contains_key(&hash) {
            memo.bytes += size;
            memo.map.insert(hash, (key, out.clone()));
        }
    }
    out
}

/// Writes `events` (see [`literal`] for how text is spelled). Writing into
/// a String cannot fail, and every event sequence we build is balanced; the
/// writer refuses only emphasis it cannot prove it wrote right, and then
/// the emphasis is written as HTML tags instead.
fn write(events: &[Event<'static>], options: Options) -> String {
    let style = pulldown_cmark_to_cmark::Options {
        list_token: '-',
        ..pulldown_cmark_to_cmark::Options::default()
    };
    let mut spelling = literal::Spelling::default();
    let prepared = spelling.events(events.iter().cloned());
    let mut out = String::new();
    let written = pulldown_cmark_to_cmark::cmark_with_options(
        prepared.iter(),
        &mut out,
        options,
        style.clone(),
    );
    if written.is_err() {
        out.clear();
        let _ = pulldown_cmark_to_cmark::cmark_with_options(
            literal::delimiters_as_html(prepared).iter(),
            &mut out,
            options,
            style,
        );
    }
    spelling.restore(&out)
}

/// What [`to_markdown`] has written so far in this process.
static MEMO: OnceLock<Mutex<Memo>> = OnceLock::new();

/// At most this many bytes (roughly) of events and output are remembered;
/// later results are written every time.
const MEMO_BYTES: usize = 16 << 20;

#[derive(Default)]
struct Memo {
    /// Results by the hash of their input ([`memo_hash`]), with the input
    /// itself, which a lookup compares.
    map: HashMap<u64, (MemoKey, String), BuildHasherDefault<FxHasher>>,
    bytes: usize,
}

/// The hash function of rustc (`FxHasher`): fast on short strings, and the
/// memo's keys come from our own directives, never from an attacker.
#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(SEED);
        }
        for &byte in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(byte)).wrapping_mul(SEED);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The input of one [`to_markdown`] call.
struct MemoKey {
    options: u32,
    events: Vec<Event<'static>>,
}

impl MemoKey {
    /// About how much memory the key holds.
    fn size(&self) -> usize {
        let text: usize = self
            .events
            .iter()
            .map(|event| match event {
                Event::Text(s) | Event::Code(s) | Event::Html(s) | Event::InlineHtml(s) => s.len(),
                Event::Start(Tag::Link {
                    dest_url, title, ..
                }) => dest_url.len() + title.len(),
                _ => 0,
            })
            .sum();
        text + self.events.len() * std::mem::size_of::<Event<'static>>()
    }
}

/// The hash of one [`to_markdown`] call's input: the kind of each event
/// and its text (comparing the events tells the rest apart).
fn memo_hash(options: u32, events: &[Event<'_>]) -> u64 {
    let mut state = FxHasher::default();
    options.hash(&mut state);
    for event in events {
        discriminant(event).hash(&mut state);
        match event {
            Event::Start(tag) => {
                discriminant(tag).hash(&mut state);
                if let Tag::Link { dest_url, .. } = tag {
                    dest_url.hash(&mut state);
                }
            }
            Event::End(tag) => discriminant(tag).hash(&mut state),
            Event::Text(s)
            | Event::Code(s)
            | Event::Html(s)
            | Event::InlineHtml(s)
            | Event::InlineMath(s)
            | Event::DisplayMath(s)
            | Event::FootnoteReference(s) => s.hash(&mut state),
            _ => {}
        }
    }
    state.finish()
}

/// Joins runs of `Text` events into one: the writer escapes spaces at the
/// edges of each text event, which would show as `&#32;` between pieces.
fn merge_text<'a>(events: impl IntoIterator<Item = Event<'a>>) -> Vec<Event<'a>> {
    let events = events.into_iter();
    // Most outputs are a few dozen events: one allocation, not several.
    let mut out: Vec<Event<'a>> = Vec::with_capacity(events.size_hint().0.max(32));
    for event in events {
        match (out.last_mut(), event) {
            (Some(Event::Text(previous)), Event::Text(next)) => {
                let mut joined = previous.to_string();
                joined.push_str(&next);
                *previous = joined.into();
            }
            (_, event) => out.push(event),
        }
    }
    out
}

/// In a GFM table every unescaped `|` ends a cell, even inside a link's
/// destination or raw HTML, and the table is split before either is read: a
/// `|` from data there would cut the link short and turn the rest of the
/// value into live Markdown. The writer escapes `|` in text and code spans;
/// this covers the rest: `%7C` in destinations (the same URL), `&#124;` in
/// titles and HTML (the same text).
fn protect_table_pipes(mut events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    use pulldown_cmark::{Tag, TagEnd};
    fn replaced<'a>(text: &mut pulldown_cmark::CowStr<'a>, with: &str) {
        if text.contains('|') {
            *text = text.replace('|', with).into();
        }
    }
    let mut depth = 0usize;
    for event in &mut events {
        match event {
            Event::Start(Tag::Table(_)) => depth += 1,
            Event::End(TagEnd::Table) => depth = depth.saturating_sub(1),
            _ if depth == 0 => {}
            Event::Start(Tag::Link {
                dest_url, title, ..
            })
            | Event::Start(Tag::Image {
                dest_url, title, ..
            }) => {
                replaced(dest_url, "%7C");
                replaced(title, "\\|");
            }
            Event::InlineHtml(html) | Event::Html(html) => replaced(html, "&#124;"),
            _ => {}
        }
    }
    events
}

/// `events` without their links (the link text stays): for output that
/// stands inside the text of a link, where a link cannot nest.
pub fn without_links(mut events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    use pulldown_cmark::{Tag, TagEnd};
    events.retain(|e| !matches!(e, Event::Start(Tag::Link { .. }) | Event::End(TagEnd::Link)));
    events
}

/// Whether `tag` is inline (emphasis, links, ...) rather than a block.
/// Table cells are blocks here; the ids module's mdBook 0.4 page treats them
/// as inline on top of this, since pulldown-cmark writes a row's cells on
/// one line.
pub fn is_inline_tag(tag: &pulldown_cmark::Tag<'_>) -> bool {
    use pulldown_cmark::Tag;
    matches!(
        tag,
        Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Superscript
            | Tag::Subscript
            | Tag::Link { .. }
            | Tag::Image { .. }
    )
}

/// Whether `tag` ends an inline element (see [`is_inline_tag`]).
pub fn is_inline_end(tag: pulldown_cmark::TagEnd) -> bool {
    use pulldown_cmark::TagEnd;
    matches!(
        tag,
        TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link
            | TagEnd::Image
    )
}

/// Where the block that `text` leaves open starts (a fenced code block
/// without its closing fence, an HTML comment, `<pre>` or `<script>` block
/// without its end): such a block would swallow whatever Markdown follows
/// `text`. `None` when everything after `text` and a blank line would be
/// read as a new block, as it should.
pub fn unclosed_block(text: &str, options: MarkdownOptions) -> Option<std::ops::Range<usize>> {
    const SENTINEL: &str = "mdbook-community-end-of-text";
    let probe = format!("{text}\n\n{SENTINEL}\n");
    let sentinel_at = text.len() + 2;
    let mut depth = 0usize;
    // The last top-level block that starts in `text`.
    let mut last_start = None;
    for (event, range) in options.parser(&probe).into_offset_iter() {
        match event {
            Event::Start(tag) if !is_inline_tag(&tag) => {
                if depth == 0 {
                    if range.start == sentinel_at && matches!(tag, Tag::Paragraph) {
                        return None;
                    }
                    if range.start < text.len() {
                        last_start = Some(range.start);
                    }
                }
                depth += 1;
            }
            Event::End(tag) if !is_inline_end(tag) => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let start = last_start.unwrap_or(0);
    let line_end =
        memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |n| start + n);
    Some(trim_line_end(text, start..line_end))
}

/// An ATX heading `line` as the author wrote it, with `{#id}` added: into
/// its attribute block when it ends with one (`has_attributes`), else at
/// its end. `id` is a slug or a checked prefix: it holds no `}`.
pub fn with_heading_id(line: &str, id: &str, has_attributes: bool) -> String {
    match line.rfind('}').filter(|_| has_attributes) {
        Some(close) => [&line[..close], " #", id, &line[close..]].concat(),
        None => [line, " {#", id, "}"].concat(),
    }
}

/// `range` without the line ending(s) at its end.
pub fn trim_line_end(text: &str, mut range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    while range.end > range.start && matches!(text.as_bytes()[range.end - 1], b'\n' | b'\r') {
        range.end -= 1;
    }
    range
}

/// Whether a line ending of `text` is `\r\n` (the chapter's first one decides).
pub fn uses_crlf(text: &str) -> bool {
    memchr::memchr(b'\n', text.as_bytes()).is_some_and(|i| i > 0 && text.as_bytes()[i - 1] == b'\r')
}

/// The visible note that replaces a failed directive, or follows a broken
/// link (`on-error = "warn"`): `messages`, joined.
/// What messages put in backticks shows as code.
pub fn error_note<'m>(
    messages: impl IntoIterator<Item = &'m str>,
    placement: Placement,
    options: Options,
) -> String {
    let message = messages.into_iter().collect::<Vec<_>>().join("; ");
    let mut events = Vec::new();
    match placement {
        Placement::Block => {
            events.push(Event::Start(Tag::BlockQuote(None)));
            events.push(Event::Start(Tag::Paragraph));
            events.push(Event::Start(Tag::Strong));
            events.push(Event::Text("mdbook-community error:".into()));
            events.push(Event::End(TagEnd::Strong));
            events.push(Event::Text(" ".into()));
            message_events(&message, &mut events);
            events.push(Event::End(TagEnd::Paragraph));
            events.push(Event::End(TagEnd::BlockQuote(None)));
        }
        Placement::Inline => {
            events.push(Event::Start(Tag::Strong));
            events.push(Event::Text("[mdbook-community error: ".into()));
            message_events(&message, &mut events);
            events.push(Event::Text("]".into()));
            events.push(Event::End(TagEnd::Strong));
        }
    }
    to_markdown(events, options)
}

/// `message` as text, with each `` `span` `` in it as a code span.
fn message_events(message: &str, out: &mut Vec<Event<'static>>) {
    let mut rest = message;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`').filter(|&close| close > 0) else {
            break;
        };
        if open > 0 {
            out.push(Event::Text(rest[..open].to_string().into()));
        }
        out.push(Event::Code(after[..close].to_string().into()));
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        out.push(Event::Text(rest.to_string().into()));
    }
}

#[cfg(test)]
mod tests;
