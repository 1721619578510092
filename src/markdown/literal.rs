//! How generated Markdown spells text so that it shows literally wherever
//! it is spliced: a heading (where a trailing `{...}` would become
//! attributes and a trailing `#` a closing sequence), a table cell (where a
//! trailing `\` escapes the next `|`), link text, a list item, a block
//! quote, the start of a line; under smart punctuation (`--`, `...`,
//! quotes); and past mdBook's own `{{#...}}` preprocessors, which read the
//! Markdown before any parser does.
//!
//! The writer escapes for the context it writes, not for the one its output
//! is spliced into. So before writing, each character the writer's escaping
//! does not cover in every context is swapped for a private-use
//! placeholder, which the writer leaves alone; after writing, each
//! placeholder becomes a numeric character reference (`&#123;`), which
//! every Markdown context decodes to the character and none reads as
//! syntax. Code spans and blocks cannot hold references: one that holds
//! `{{` becomes HTML (`<code>`, `<pre>`) with its text spelled safely.

use std::collections::HashMap;
use std::fmt::Write as _;

use pulldown_cmark::{CodeBlockKind, CowStr, Event, Tag, TagEnd};

/// The first placeholder: the start of Supplementary Private Use Area-A.
const FIRST: u32 = 0xF_0000;
/// One past the last placeholder (U+FFFFE and U+FFFFF are noncharacters).
const END: u32 = 0xF_FFFE;

/// The placeholders of one write: which character each stands for.
#[derive(Default)]
pub(super) struct Spelling {
    placeholder_of: HashMap<char, char>,
    stands_for: Vec<char>,
}

impl Spelling {
    /// The placeholder for `c`.
    fn placeholder(&mut self, c: char) -> char {
        if let Some(&p) = self.placeholder_of.get(&c) {
            return p;
        }
        let next = FIRST + u32::try_from(self.stands_for.len()).unwrap_or(u32::MAX - FIRST);
        let Some(p) = char::from_u32(next).filter(|_| next < END) else {
            return '\u{FFFD}';
        };
        self.placeholder_of.insert(c, p);
        self.stands_for.push(c);
        p
    }

    /// `events` ready for the writer: text with placeholders, code that
    /// holds `{{` as HTML, destinations and titles without `{{`.
    pub(super) fn events<'a>(&mut self, events: impl Iterator<Item = Event<'a>>) -> Vec<Event<'a>> {
        let mut out = Vec::new();
        let mut code_block: Option<(String, String)> = None;
        for event in events {
            if let Some((_, body)) = code_block.as_mut() {
                match event {
                    Event::Text(text) => body.push_str(&text),
                    Event::End(TagEnd::CodeBlock) => {
                        let (info, mut body) = code_block.take().unwrap_or_default();
                        // A closing fence only closes at the start of a
                        // line: text that does not end one (an unclosed
                        // fence in data, cut off by the end of its text)
                        // would run into it and leave the block open.
                        if !body.is_empty() && !body.ends_with('\n') {
                            body.push('\n');
                        }
                        out.extend(code_block_events(info, body));
                    }
                    _ => {}
                }
                continue;
            }
            match event {
                Event::Start(Tag::CodeBlock(kind)) => {
                    let info = match kind {
                        CodeBlockKind::Fenced(info) => info.to_string(),
                        CodeBlockKind::Indented => String::new(),
                    };
                    code_block = Some((info, String::new()));
                }
                Event::Text(text) => out.push(Event::Text(self.text(&text).into())),
                Event::Code(code) if span_needs_html(&code) => {
                    // Between the tags is Markdown again: literal text.
                    let html = format!("<code>{}</code>", literal(&code));
                    out.push(Event::InlineHtml(html.into()));
                }
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                }) => out.push(Event::Start(Tag::Link {
                    link_type,
                    dest_url: safe_destination(dest_url),
                    title: safe_title(title),
                    id,
                })),
                Event::Start(Tag::Image {
                    link_type,
                    dest_url,
                    title,
                    id,
                }) => out.push(Event::Start(Tag::Image {
                    link_type,
                    dest_url: safe_destination(dest_url),
                    title: safe_title(title),
                    id,
                })),
                other => out.push(other),
            }
        }
        out
    }

    /// `text` with placeholders for what the writer would leave as syntax
    /// in some context: `{`, `}` (heading attributes, `{{#include}}`), `\`
    /// (a trailing one escapes a table's next `|`), `|`, a trailing `#` (a
    /// heading's closing sequence), quotes and runs of `-` and `.` (smart
    /// punctuation), a list number's `.` or `)` and a `:` or `=` at the
    /// start, control characters, the noncharacters the expand stage uses
    /// as markers, and private-use characters that could pass for
    /// placeholders.
    fn text(&mut self, text: &str) -> String {
        let chars: Vec<char> = text.chars().collect();
        let leading_digits = chars.iter().take_while(|c| c.is_ascii_digit()).count();
        // Where the text's trailing run of `#` and spaces starts: a `#` in
        // it could close a heading.
        let closing = chars.len()
            - chars
                .iter()
                .rev()
                .take_while(|c| matches!(c, '#' | ' '))
                .count();
        let mut out = String::with_capacity(text.len());
        for (i, &c) in chars.iter().enumerate() {
            let doubled = (i > 0 && chars[i - 1] == c) || chars.get(i + 1) == Some(&c);
            let swap = match c {
                '{' | '}' | '\\' | '|' | '\'' | '"' => true,
                '#' => i >= closing,
                '-' | '.' => doubled || (i == leading_digits && i > 0),
                ')' => i == leading_digits && i > 0,
                ':' | '=' | '+' => i == 0,
                '\u{FDD0}'..='\u{FDEF}' | '\u{F0000}'..='\u{10FFFF}' => true,
                c => c.is_control(),
            };
            out.push(if swap { self.placeholder(c) } else { c });
        }
        out
    }

    /// The writer's output with each placeholder as a character reference.
    pub(super) fn restore(&self, written: &str) -> String {
        if self.stands_for.is_empty() {
            return written.to_string();
        }
        let mut out = String::with_capacity(written.len() + 4 * self.stands_for.len());
        for c in written.chars() {
            let index = u32::from(c).checked_sub(FIRST).map(|i| i as usize);
            match index.and_then(|i| self.stands_for.get(i)) {
                Some(&original) => {
                    let _ = write!(out, "&#{};", u32::from(original));
                }
                None => out.push(c),
            }
        }
        out
    }
}

/// Whether a code span must be written as HTML: it holds `{{` or `}}`
/// (mdBook's preprocessors read them even in code), or a character that
/// could pass for a placeholder.
fn needs_html(code: &str) -> bool {
    code.contains("{{") || code.contains("}}") || code.chars().any(|c| c >= '\u{F0000}')
}

/// Whether a code span must be written as HTML: as [`needs_html`], or it
/// holds a line break or another control character. A code span cannot
/// escape one, and a line break in it ends a table row, a list item or a
/// heading, after which the rest of a file name would be read as Markdown
/// (issue 38, 1).
fn span_needs_html(code: &str) -> bool {
    needs_html(code) || code.chars().any(char::is_control)
}

/// A code block as events: as it is, or, when it holds `{{`, as an HTML
/// `<pre>` block with the braces as entities.
fn code_block_events<'a>(info: String, body: String) -> Vec<Event<'a>> {
    if !needs_html(&body) && !needs_html(&info) {
        return vec![
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info.into()))),
            Event::Text(body.into()),
            Event::End(TagEnd::CodeBlock),
        ];
    }
    let language = info.split_whitespace().next().unwrap_or_default();
    let mut html = String::from("<pre><code");
    if !language.is_empty() {
        let _ = write!(html, " class=\"language-{}\"", escape_html(language));
    }
    html.push('>');
    // No blank line may end the HTML block early: line breaks are entities.
    html.push_str(&escape_html(&body).replace('\n', "&#10;"));
    html.push_str("</code></pre>\n");
    vec![
        Event::Start(Tag::HtmlBlock),
        Event::Html(html.into()),
        Event::End(TagEnd::HtmlBlock),
    ]
}

/// `events` with emphasis, strong emphasis and strikethrough as HTML tags:
/// for the rare block whose delimiters the writer cannot prove right.
pub(super) fn delimiters_as_html(events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    events
        .into_iter()
        .map(|event| {
            let tag = match &event {
                Event::Start(Tag::Emphasis) => "<em>",
                Event::End(TagEnd::Emphasis) => "</em>",
                Event::Start(Tag::Strong) => "<strong>",
                Event::End(TagEnd::Strong) => "</strong>",
                Event::Start(Tag::Strikethrough) => "<del>",
                Event::End(TagEnd::Strikethrough) => "</del>",
                _ => return event,
            };
            Event::InlineHtml(tag.into())
        })
        .collect()
}

/// Markdown source that shows `text` literally in any inline context and
/// at the start of a line, for text written without the writer (between
/// HTML tags): Markdown's punctuation backslash-escaped, and what escapes
/// do not cover (see [`Spelling::text`]) as character references.
pub fn literal(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    for (i, &c) in chars.iter().enumerate() {
        let doubled = (i > 0 && chars[i - 1] == c) || chars.get(i + 1) == Some(&c);
        let reference = match c {
            '{' | '}' | '\\' | '\'' | '"' | '#' | '|' => true,
            '-' | '.' => doubled || i == 0,
            ' ' => i == 0 || i + 1 == chars.len(),
            '\u{FDD0}'..='\u{FDEF}' => true,
            c => c.is_control() || (i == 0 && c.is_ascii_punctuation()),
        };
        if reference {
            let _ = write!(out, "&#{};", u32::from(c));
        } else {
            if matches!(
                c,
                '*' | '_' | '`' | '[' | ']' | '<' | '>' | '~' | '&' | '$' | '^'
            ) {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let _ = pulldown_cmark_escape::escape_html(&mut out, text);
    out.replace('{', "&#123;").replace('}', "&#125;")
}

/// A destination with `{`, `}` and characters that could pass for
/// placeholders percent-encoded: the same URL.
fn safe_destination(url: CowStr<'_>) -> CowStr<'_> {
    if !url
        .chars()
        .any(|c| matches!(c, '{' | '}') || c >= '\u{F0000}')
    {
        return url;
    }
    let mut out = String::with_capacity(url.len() + 8);
    for c in url.chars() {
        if matches!(c, '{' | '}') || c >= '\u{F0000}' {
            for byte in c.encode_utf8(&mut [0; 4]).bytes() {
                let _ = write!(out, "%{byte:02X}");
            }
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// A title without `{{` (which the writer cannot escape) or characters
/// that could pass for placeholders, or none: only a tooltip is lost.
fn safe_title(title: CowStr<'_>) -> CowStr<'_> {
    if title.contains("{{") || title.contains("}}") || title.chars().any(|c| c >= '\u{F0000}') {
        "".into()
    } else {
        title
    }
}
