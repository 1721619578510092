//! The one writer of the HTML the plugin emits (grids, avatars, the FAQ's
//! `<details>`): tag and attribute names are the plugin's own (`&'static
//! str`), every text and attribute value is escaped, and what the
//! Markdown around it and mdBook's `links` preprocessor read is
//! neutralised too:
//!
//! * `&`, `<`, `>`, `"` and `'` become references (HTML escaping);
//! * `{` and `}` become `&#123;` and `&#125;`, so that `{{#include ...}}`
//!   in data is never expanded by mdBook's `links` preprocessor, which
//!   reads the page before any parser;
//! * line endings become `&#10;` and `&#13;`: a blank line would end the
//!   HTML block and hand the rest of the data to Markdown, and one line
//!   ending ends a table row;
//! * URLs are percent-encoded (`pulldown_cmark_escape::escape_href`) and
//!   must have passed the plugin's URL check (http, https, mailto).
//!
//! Every element opened is closed: [`HtmlWriter::finish`] closes what is
//! still open.

use pulldown_cmark_escape::{escape_href, escape_html};

/// An attribute value.
#[derive(Debug, Clone, Copy)]
pub enum Value<'a> {
    /// Text, escaped.
    Text(&'a str),
    /// A URL the plugin has checked (http, https, mailto or relative),
    /// percent-encoded.
    Url(&'a str),
    /// The plugin's own value (a class name, a size).
    Fixed(&'static str),
}

/// HTML built piece by piece, escaped as it is written.
#[derive(Debug, Default)]
pub struct HtmlWriter {
    out: String,
    open: Vec<&'static str>,
}

impl HtmlWriter {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// `<tag name="value" ...>`; an attribute whose value is `None` is left
    /// out, and `Some(Fixed(""))` writes the bare name (`open`).
    pub fn open(&mut self, tag: &'static str, attributes: &[(&'static str, Option<Value<'_>>)]) {
        self.start_tag(tag, attributes);
        self.open.push(tag);
    }

    /// A void element such as `<img ...>`, which has no end tag.
    pub fn void(&mut self, tag: &'static str, attributes: &[(&'static str, Option<Value<'_>>)]) {
        self.start_tag(tag, attributes);
    }

    /// `</tag>` for the innermost open element, which must be `tag`;
    /// elements opened inside it and left open are closed first.
    pub fn close(&mut self, tag: &'static str) {
        while let Some(open) = self.open.pop() {
            self.end_tag(open);
            if open == tag {
                break;
            }
        }
    }

    /// Text content, escaped.
    pub fn text(&mut self, text: &str) {
        push_escaped(&mut self.out, text);
    }

    /// A line ending of the plugin's own layout.
    pub fn newline(&mut self) {
        self.out.push('\n');
    }

    /// A blank line: it ends the HTML block, so that what follows is read
    /// as Markdown (the heading of a FAQ question, its answer).
    pub fn blank_line(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
        self.out.push('\n');
    }

    /// A block of Markdown between blank lines: the plugin's own, written
    /// by `to_markdown`, or a chapter's text (a FAQ answer), as it is.
    /// Nothing for a text of line endings only.
    pub fn markdown_block(&mut self, markdown: &str) {
        let markdown = markdown.trim_matches('\n');
        if !markdown.is_empty() {
            self.out.push_str(markdown);
            self.blank_line();
        }
    }

    /// A raw-text element (`<style>`, `<script>`) holding one of the
    /// plugin's own files, never data: what a raw-text element holds
    /// cannot be escaped. Such an element is one HTML block to Markdown
    /// (blank lines included) up to its end tag; a `</` in `content`
    /// (which the plugin's files do not have) is written `<\/`, which
    /// CSS and JavaScript read alike.
    pub fn raw_text_element(&mut self, tag: &'static str, content: &'static str) {
        self.open(tag, &[]);
        self.newline();
        self.out.push_str(&content.trim_end().replace("</", "<\\/"));
        self.newline();
        self.close(tag);
    }

    /// A start tag of HTML that a repository file holds, passed on as
    /// GitHub shows it (`markdown::sanitize` chose the tag and its
    /// attributes from GitHub's allowlist). Not tracked: the file's author
    /// balances it, as on GitHub, and its end tag may be in another block.
    pub fn passed_start_tag(
        &mut self,
        tag: &'static str,
        attributes: &[(&'static str, Option<Value<'_>>)],
    ) {
        self.start_tag(tag, attributes);
    }

    /// An end tag of HTML that a repository file holds (see
    /// [`passed_start_tag`](Self::passed_start_tag)).
    pub fn passed_end_tag(&mut self, tag: &'static str) {
        self.end_tag(tag);
    }

    /// Whether nothing has been written yet.
    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    /// The output as a block to splice: every element closed, and one
    /// line ending at its end.
    pub fn finish_block(self) -> String {
        let mut out = self.finish();
        out.truncate(out.trim_end().len());
        out.push('\n');
        out
    }

    /// The HTML, with every element closed.
    pub fn finish(mut self) -> String {
        while let Some(open) = self.open.pop() {
            self.end_tag(open);
        }
        self.out
    }

    fn start_tag(&mut self, tag: &'static str, attributes: &[(&'static str, Option<Value<'_>>)]) {
        self.out.push('<');
        self.out.push_str(tag);
        for (name, value) in attributes {
            let Some(value) = value else { continue };
            self.out.push(' ');
            self.out.push_str(name);
            match value {
                Value::Fixed("") => continue,
                Value::Fixed(fixed) => {
                    self.out.push_str("=\"");
                    self.out.push_str(fixed);
                }
                Value::Text(text) => {
                    self.out.push_str("=\"");
                    push_escaped(&mut self.out, text);
                }
                Value::Url(url) => {
                    // Percent-encodes quotes, angle brackets, braces,
                    // spaces and line endings; `&` and `'` as references.
                    self.out.push_str("=\"");
                    let _ = escape_href(&mut self.out, url);
                }
            }
            self.out.push('"');
        }
        self.out.push('>');
    }

    fn end_tag(&mut self, tag: &'static str) {
        self.out.push_str("</");
        self.out.push_str(tag);
        self.out.push('>');
    }
}

/// `text` escaped for HTML text and attribute values, with braces and line
/// endings as references (see the module's documentation).
fn push_escaped(out: &mut String, text: &str) {
    let mut escaped = String::with_capacity(text.len());
    let _ = escape_html(&mut escaped, text);
    for c in escaped.chars() {
        match c {
            '{' => out.push_str("&#123;"),
            '}' => out.push_str("&#125;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_is_escaped_in_text_and_attributes() {
        let mut html = HtmlWriter::new();
        let hostile = "a\"b<c>&'{{#include /etc/hostname}}\n\n[x](javascript:y)";
        html.open(
            "a",
            &[
                ("class", Some(Value::Fixed("person"))),
                ("href", Some(Value::Url("https://x/\"><b>{{&'\n"))),
                ("title", None),
            ],
        );
        html.void("img", &[("alt", Some(Value::Text(hostile)))]);
        html.text(hostile);
        let out = html.finish();
        assert_eq!(
            out,
            "<a class=\"person\" href=\"https://x/%22%3E%3Cb%3E%7B%7B&amp;&#x27;%0A\">\
             <img alt=\"a&quot;b&lt;c&gt;&amp;&#39;&#123;&#123;#include /etc/hostname&#125;&#125;&#10;&#10;[x](javascript:y)\">\
             a&quot;b&lt;c&gt;&amp;&#39;&#123;&#123;#include /etc/hostname&#125;&#125;&#10;&#10;[x](javascript:y)</a>"
        );
        assert!(!out.contains('\n') && !out.contains("{{"));
    }

    #[test]
    fn every_element_is_closed() {
        let mut html = HtmlWriter::new();
        html.open("div", &[]);
        html.open("details", &[("open", Some(Value::Fixed("")))]);
        html.open("summary", &[]);
        html.close("details");
        assert_eq!(
            html.finish(),
            "<div><details open><summary></summary></details></div>"
        );
    }

    #[test]
    fn raw_text_elements_cannot_end_early() {
        let mut html = HtmlWriter::new();
        html.raw_text_element("style", "a { b: c }\n\n/* </style> */\n");
        assert_eq!(
            html.finish(),
            "<style>\na { b: c }\n\n/* <\\/style> */\n</style>"
        );
    }
}
