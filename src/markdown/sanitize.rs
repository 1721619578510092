//! Raw HTML from a repository file, shown as GitHub shows it: the elements
//! and attributes of GitHub's allowlist (html-pipeline's
//! `SanitizationFilter`) are kept, every other tag is dropped (its text
//! kept), `<script>` and `<style>` are dropped with their content, comments
//! are dropped, and a URL is kept only with an allowed scheme (links:
//! `http`, `https`, `mailto` or none; images: `http`, `https` or none).
//! What is kept is written again by [`HtmlWriter`], so that every name is
//! one of the allowlist's and every value is escaped: no event handler,
//! `style`, `javascript:` URL or `{{#include}}` survives.

use std::borrow::Cow;

use super::html::{HtmlWriter, Value};

/// Elements GitHub keeps.
const ELEMENTS: &[&str] = &[
    "a",
    "abbr",
    "b",
    "bdo",
    "blockquote",
    "br",
    "caption",
    "cite",
    "code",
    "dd",
    "del",
    "details",
    "dfn",
    "div",
    "dl",
    "dt",
    "em",
    "figcaption",
    "figure",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "img",
    "ins",
    "kbd",
    "li",
    "mark",
    "ol",
    "p",
    "picture",
    "pre",
    "q",
    "rp",
    "rt",
    "ruby",
    "s",
    "samp",
    "small",
    "source",
    "span",
    "strike",
    "strong",
    "sub",
    "summary",
    "sup",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "time",
    "tr",
    "tt",
    "ul",
    "var",
    "wbr",
];

/// Void elements: never closed.
const VOID: &[&str] = &["br", "hr", "img", "source", "wbr"];

/// Elements dropped with everything in them.
const DROPPED_WITH_CONTENT: &[&str] = &["script", "style", "template", "textarea", "title"];

/// Attributes GitHub keeps on every allowed element.
const ATTRIBUTES: &[&str] = &[
    "abbr",
    "align",
    "alt",
    "aria-describedby",
    "aria-hidden",
    "aria-label",
    "aria-labelledby",
    "axis",
    "border",
    "cellpadding",
    "cellspacing",
    "char",
    "charoff",
    "clear",
    "color",
    "cols",
    "colspan",
    "compact",
    "datetime",
    "dir",
    "headers",
    "height",
    "hreflang",
    "hspace",
    "itemprop",
    "lang",
    "name",
    "nowrap",
    "open",
    "rel",
    "rev",
    "role",
    "rows",
    "rowspan",
    "rules",
    "scope",
    "span",
    "start",
    "summary",
    "title",
    "type",
    "valign",
    "value",
    "vspace",
    "width",
];

/// What a URL attribute points at, which decides the schemes it may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlKind {
    /// `<a href>`: `http`, `https`, `mailto`, or relative.
    Link,
    /// `<img src>`, `<source srcset>` (one URL): `http`, `https`, or relative.
    Image,
}

/// The URL attributes kept, by element.
fn url_attribute(element: &str, attribute: &str) -> Option<UrlKind> {
    match (element, attribute) {
        ("a", "href") => Some(UrlKind::Link),
        ("img", "src") | ("img", "longdesc") => Some(UrlKind::Image),
        ("blockquote" | "del" | "ins" | "q", "cite") => Some(UrlKind::Link),
        _ => None,
    }
}

/// `url` with the characters browsers ignore in a URL removed, when its
/// scheme is one `kind` allows; `None` otherwise.
pub fn allowed_url(url: &str, kind: UrlKind) -> Option<String> {
    let url: String = url
        .trim()
        .chars()
        .filter(|c| !c.is_ascii_control())
        .collect();
    let scheme_end = url.find(':');
    let before_path = url.find(['/', '?', '#']).unwrap_or(url.len());
    let scheme = match scheme_end {
        Some(end) if end < before_path => url[..end].to_ascii_lowercase(),
        _ => return Some(url),
    };
    let allowed: &[&str] = match kind {
        UrlKind::Link => &["http", "https", "mailto"],
        UrlKind::Image => &["http", "https"],
    };
    allowed.contains(&scheme.as_str()).then_some(url)
}

/// One piece of an HTML text.
#[derive(Debug, PartialEq)]
enum Token<'h> {
    Text(&'h str),
    Start {
        name: String,
        attributes: Vec<(String, String)>,
    },
    End(String),
    /// A comment, doctype or processing instruction: dropped.
    Other,
}

/// The state of a file's HTML across its fragments (inline HTML comes one
/// tag at a time): inside a `<script>` everything is dropped up to its end.
#[derive(Debug, Default)]
pub struct Sanitizer {
    dropping: Option<String>,
}

impl Sanitizer {
    /// A sanitizer at the start of a file.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the text at this point is dropped (it is inside a
    /// `<script>` or `<style>`): Markdown text between inline tags too.
    pub fn is_dropping(&self) -> bool {
        self.dropping.is_some()
    }

    /// An HTML block, sanitized. It starts with a tag, so that it stays an
    /// HTML block (what it holds is never read as Markdown); empty when
    /// nothing of it is kept.
    pub fn block(
        &mut self,
        html: &str,
        url: &mut dyn FnMut(UrlKind, &str) -> Option<String>,
    ) -> String {
        let mut writer = HtmlWriter::new();
        self.write(html, &mut writer, url, true);
        let out = writer.finish();
        if out.trim().is_empty() {
            return String::new();
        }
        out
    }

    /// One piece of inline HTML (a tag), sanitized: empty when dropped.
    pub fn inline(
        &mut self,
        html: &str,
        url: &mut dyn FnMut(UrlKind, &str) -> Option<String>,
    ) -> String {
        let mut writer = HtmlWriter::new();
        self.write(html, &mut writer, url, false);
        writer.finish()
    }

    /// Writes `html`'s kept part; `block`: text before any tag goes in a
    /// `<div>`, which keeps the block HTML (its first tag was dropped).
    fn write(
        &mut self,
        html: &str,
        writer: &mut HtmlWriter,
        url: &mut dyn FnMut(UrlKind, &str) -> Option<String>,
        block: bool,
    ) {
        for token in tokens(html) {
            if let Some(dropping) = &self.dropping {
                if matches!(&token, Token::End(name) if name == dropping) {
                    self.dropping = None;
                }
                continue;
            }
            match token {
                Token::Text(text) => {
                    if block && writer.is_empty() {
                        if text.trim().is_empty() {
                            continue;
                        }
                        writer.open("div", &[]);
                    }
                    write_text(writer, &decode_entities(text));
                }
                Token::Start { name, attributes } => {
                    if DROPPED_WITH_CONTENT.contains(&name.as_str()) {
                        self.dropping = Some(name);
                        continue;
                    }
                    let Some(&element) = ELEMENTS.iter().find(|e| **e == name) else {
                        continue;
                    };
                    let kept = kept_attributes(element, &attributes, url);
                    let kept: Vec<(&'static str, Option<Value<'_>>)> = kept
                        .iter()
                        .map(|(name, value, is_url)| {
                            let value = if *is_url {
                                Value::Url(value)
                            } else {
                                Value::Text(value)
                            };
                            (*name, Some(value))
                        })
                        .collect();
                    writer.passed_start_tag(element, &kept);
                }
                Token::End(name) => {
                    if let Some(&element) = ELEMENTS.iter().find(|e| **e == name)
                        && !VOID.contains(&element)
                    {
                        writer.passed_end_tag(element);
                    }
                }
                Token::Other => {}
            }
        }
    }
}

/// The attributes of `element` that GitHub keeps, each with its value
/// (URLs resolved by `url`) and whether it is a URL.
fn kept_attributes(
    element: &'static str,
    attributes: &[(String, String)],
    url: &mut dyn FnMut(UrlKind, &str) -> Option<String>,
) -> Vec<(&'static str, String, bool)> {
    let mut kept: Vec<(&'static str, String, bool)> = Vec::new();
    for (name, value) in attributes {
        if kept.iter().any(|(k, _, _)| k == name) {
            continue;
        }
        let value = decode_entities(value);
        if let Some(kind) = url_attribute(element, name) {
            let attribute = match (element, name.as_str()) {
                ("a", _) => "href",
                ("img", "src") => "src",
                ("img", _) => "longdesc",
                _ => "cite",
            };
            let resolved = allowed_url(&value, kind).and_then(|u| url(kind, &u));
            if let Some(resolved) = resolved {
                kept.push((attribute, resolved, true));
            }
        } else if let Some(&attribute) = ATTRIBUTES.iter().find(|a| **a == name) {
            kept.push((attribute, value.into_owned(), false));
        }
    }
    kept
}

/// Text of an HTML block, line by line: a line of white space only is
/// left out, since a blank line would end the block.
fn write_text(writer: &mut HtmlWriter, text: &str) {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        if !line.trim().is_empty() || lines.peek().is_none() {
            writer.text(line);
        }
        if lines.peek().is_some() && !line.trim().is_empty() {
            writer.newline();
        }
    }
}

/// `text` with character references decoded: numeric ones and the few
/// named ones HTML text commonly holds; any other `&` stays as it is.
pub fn decode_entities(text: &str) -> Cow<'_, str> {
    if !text.contains('&') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let decoded = rest[1..]
            .find(';')
            .filter(|end| *end <= 32)
            .and_then(|end| {
                let name = &rest[1..=end];
                let c = match name {
                    "amp" => Some('&'),
                    "lt" => Some('<'),
                    "gt" => Some('>'),
                    "quot" => Some('"'),
                    "apos" => Some('\''),
                    "nbsp" => Some('\u{a0}'),
                    _ => {
                        let number = name.strip_prefix('#')?;
                        let value = match number.strip_prefix(['x', 'X']) {
                            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                            None => number.parse().ok()?,
                        };
                        Some(
                            char::from_u32(value)
                                .filter(|c| *c != '\0')
                                .unwrap_or('\u{fffd}'),
                        )
                    }
                }?;
                Some((c, end + 2))
            });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The tokens of `html`, as far as a browser would read them as tags.
fn tokens(html: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut rest = html;
    while !rest.is_empty() {
        let Some(at) = rest.find('<') else {
            out.push(Token::Text(rest));
            break;
        };
        if at > 0 {
            out.push(Token::Text(&rest[..at]));
            rest = &rest[at..];
        }
        match tag(rest) {
            Some((token, len)) => {
                out.push(token);
                rest = &rest[len..];
            }
            None => {
                out.push(Token::Text("<"));
                rest = &rest[1..];
            }
        }
    }
    out
}

/// The tag at the start of `text` (which starts with `<`), and its length.
fn tag(text: &str) -> Option<(Token<'_>, usize)> {
    let after = &text[1..];
    if let Some(comment) = after.strip_prefix("!--") {
        let end = comment.find("-->").map_or(text.len(), |e| 4 + e + 3);
        return Some((Token::Other, end));
    }
    if after.starts_with(['!', '?']) {
        let end = text.find('>').map_or(text.len(), |e| e + 1);
        return Some((Token::Other, end));
    }
    let (closing, name_start) = match after.strip_prefix('/') {
        Some(_) => (true, 2),
        None => (false, 1),
    };
    let name_len = text[name_start..]
        .find(|c: char| c.is_ascii_whitespace() || c == '/' || c == '>')
        .unwrap_or(text.len() - name_start);
    let name = &text[name_start..name_start + name_len];
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let name = name.to_ascii_lowercase();
    let (attributes, len) = attributes(text, name_start + name_len);
    Some((
        if closing {
            Token::End(name)
        } else {
            Token::Start { name, attributes }
        },
        len,
    ))
}

/// The attributes from `at` up to the tag's `>`, and the tag's length.
fn attributes(text: &str, mut at: usize) -> (Vec<(String, String)>, usize) {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    loop {
        while at < bytes.len() && (bytes[at].is_ascii_whitespace() || bytes[at] == b'/') {
            at += 1;
        }
        if at >= bytes.len() {
            return (out, text.len());
        }
        if bytes[at] == b'>' {
            return (out, at + 1);
        }
        let start = at;
        while at < bytes.len()
            && !matches!(bytes[at], b'=' | b'>' | b'/')
            && !bytes[at].is_ascii_whitespace()
        {
            at += 1;
        }
        let name = text[start..at].to_ascii_lowercase();
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let mut value = String::new();
        if at < bytes.len() && bytes[at] == b'=' {
            at += 1;
            while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            if at < bytes.len() && matches!(bytes[at], b'"' | b'\'') {
                let quote = bytes[at] as char;
                let end = text[at + 1..]
                    .find(quote)
                    .map_or(text.len(), |e| at + 1 + e);
                value = text[at + 1..end].to_string();
                at = (end + 1).min(text.len());
            } else {
                let start = at;
                while at < bytes.len() && !bytes[at].is_ascii_whitespace() && bytes[at] != b'>' {
                    at += 1;
                }
                value = text[start..at].to_string();
            }
        }
        if !name.is_empty() {
            out.push((name, value));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(html: &str) -> String {
        Sanitizer::new().block(html, &mut |_, url| Some(url.to_string()))
    }

    #[test]
    fn github_allowlist_keeps_layout_and_drops_code() {
        let out = block(
            "<div align=\"center\" onclick=\"x()\" style=\"color:red\">\n<img src=\"logo.png\" onerror=alert(1) width=100>\n<script>alert(1)</script>\n<a href=\"javascript:alert(1)\">x</a> <a href='https://e.org' target=_blank>y</a>\n</div>",
        );
        assert_eq!(
            out,
            "<div align=\"center\"><img src=\"logo.png\" width=\"100\"><a>x</a> <a href=\"https://e.org\">y</a></div>"
        );
    }

    #[test]
    fn hostile_urls_and_directives() {
        let out = block(
            "<a href=\"jav&#x09;ascript:alert(1)\">{{#include /etc/passwd}}</a><iframe src=x></iframe><style>p{}</style>",
        );
        assert_eq!(out, "<a>&#123;&#123;#include /etc/passwd&#125;&#125;</a>");
        let out = block("<a href=\"  JAVASCRIPT:x\">a</a><img src=\"data:image/png;base64,x\">");
        assert_eq!(out, "<a>a</a><img>");
    }

    #[test]
    fn a_block_whose_first_tag_is_dropped_stays_html() {
        assert_eq!(
            block("<form>\n*text* [x](javascript:y)\n</form>"),
            "<div>*text* [x](javascript:y)\n</div>"
        );
        assert_eq!(block("<script>\nalert(1)\n</script>"), "");
    }

    #[test]
    fn inline_script_drops_the_text_between() {
        let mut s = Sanitizer::new();
        let mut url = |_: UrlKind, u: &str| Some(u.to_string());
        assert_eq!(s.inline("<script>", &mut url), "");
        assert!(s.is_dropping());
        assert_eq!(s.inline("</script>", &mut url), "");
        assert!(!s.is_dropping());
        assert_eq!(s.inline("<kbd onmouseover=x>", &mut url), "<kbd>");
        assert_eq!(s.inline("<b>", &mut url), "<b>");
    }

    /// Every text of up to four characters of HTML's syntax (and a
    /// multi-byte one) sanitizes without a panic, to a block that is empty
    /// or starts with a tag.
    #[test]
    fn no_short_input_panics() {
        let alphabet: Vec<char> = "<a/ =\"'>&#;-!é".chars().collect();
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = texts
                .iter()
                .filter(|t| t.chars().count() == texts.last().map_or(0, |l| l.chars().count()))
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            texts.extend(longer);
        }
        for text in &texts {
            let out = block(text);
            assert!(
                out.is_empty() || out.starts_with('<'),
                "{text:?} -> {out:?}"
            );
            let _ = Sanitizer::new().inline(text, &mut |_, u| Some(u.to_string()));
            let _ = decode_entities(text);
        }
    }

    #[test]
    fn unfinished_tags_never_panic() {
        for html in [
            "<",
            "<a",
            "<a href",
            "<a href=",
            "<a href=\"",
            "</",
            "<!--",
            "<!",
            "&#xZZ;",
            "&#99999999;",
            "<é>",
            "<a é=1>",
        ] {
            let _ = block(html);
        }
        assert_eq!(
            decode_entities("&amp;lt; &#123; &unknown; &"),
            "&lt; { &unknown; &"
        );
    }
}
