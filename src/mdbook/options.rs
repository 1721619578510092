//! The Markdown options mdBook renders a book with, read from its config,
//! and the one way this crate parses Markdown with them.

use pulldown_cmark::{Options, Parser};
use serde_json::Value;

use crate::mdbook::Generation;

/// The Markdown extensions mdBook's HTML renderer turns on for a book.
///
/// mdBook always enables tables, footnotes, strikethrough, task lists and
/// heading attributes; the rest follow `[output.html]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarkdownOptions {
    /// `output.html.smart-punctuation` (mdBook 0.4 also reads `curly-quotes`).
    pub smart_punctuation: bool,
    /// `output.html.definition-lists` (mdBook 0.5 only).
    pub definition_lists: bool,
    /// `output.html.admonitions`: GFM `> [!NOTE]` blocks (mdBook 0.5 only).
    pub admonitions: bool,
}

impl MarkdownOptions {
    /// mdBook's defaults for a generation, when `book.toml` says nothing.
    pub fn defaults(generation: Generation) -> Self {
        match generation {
            Generation::V05 => MarkdownOptions {
                smart_punctuation: true,
                definition_lists: true,
                admonitions: true,
            },
            Generation::V04 => MarkdownOptions {
                smart_punctuation: false,
                definition_lists: false,
                admonitions: false,
            },
        }
    }

    /// Reads the options from the book's `[output.html]`, as the given
    /// mdBook would.
    pub fn from_html(html: Option<&Value>, generation: Generation) -> Self {
        let mut options = Self::defaults(generation);
        let flag = |key: &str| html.and_then(|h| h.get(key)).and_then(Value::as_bool);
        match generation {
            Generation::V05 => {
                if let Some(v) = flag("smart-punctuation") {
                    options.smart_punctuation = v;
                }
                if let Some(v) = flag("definition-lists") {
                    options.definition_lists = v;
                }
                if let Some(v) = flag("admonitions") {
                    options.admonitions = v;
                }
            }
            Generation::V04 => {
                options.smart_punctuation =
                    flag("smart-punctuation").or_else(|| flag("curly-quotes")) == Some(true);
            }
        }
        options
    }

    /// The pulldown-cmark options for these settings.
    pub fn parser_options(self) -> Options {
        let mut opts = Options::ENABLE_TABLES
            | Options::ENABLE_FOOTNOTES
            | Options::ENABLE_STRIKETHROUGH
            | Options::ENABLE_TASKLISTS
            | Options::ENABLE_HEADING_ATTRIBUTES;
        if self.smart_punctuation {
            opts |= Options::ENABLE_SMART_PUNCTUATION;
        }
        if self.definition_lists {
            opts |= Options::ENABLE_DEFINITION_LIST;
        }
        if self.admonitions {
            opts |= Options::ENABLE_GFM;
        }
        opts
    }

    /// A parser over `text` with these options.
    #[inline]
    pub fn parser(self, text: &str) -> Parser<'_> {
        parse(text, self.parser_options())
    }

    /// These options for reading a data file (a Markdown roster, a
    /// group's description): without smart punctuation, which would
    /// rewrite data (`first--last@example.com` to an en dash, `D'Angelo`
    /// to a curly quote) before anything reads it (issue 38, 10).
    pub fn for_data(self) -> Self {
        MarkdownOptions {
            smart_punctuation: false,
            ..self
        }
    }

    /// A parser over Markdown a data file holds (a group's description):
    /// these options [`for_data`](Self::for_data), and heading attributes
    /// are not read, so `{...}` from data stays text.
    pub fn data_parser(self, text: &str) -> Parser<'_> {
        parse(
            text,
            self.for_data().parser_options() - Options::ENABLE_HEADING_ATTRIBUTES,
        )
    }
}

/// A parser over `text` as github.com renders a Markdown file, as far as
/// headings go: tables, strikethrough, task lists and footnotes, but no
/// heading attributes and no smart punctuation.
pub fn github_parser(text: &str) -> Parser<'_> {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES;
    parse(text, options)
}

/// The one place a Markdown parser is built, so that tests can count
/// parses. Inlined: a page's parser is built where it runs (moved
/// through a call, it cost 3% of a directive-free book's instructions).
#[inline(always)]
fn parse(text: &str, options: Options) -> Parser<'_> {
    #[cfg(test)]
    parse_log::record(text);
    Parser::new_ext(text, options)
}

/// For tests: the texts [`MarkdownOptions::parser`] was asked to parse, so
/// that a test can prove which chapters were never parsed.
#[cfg(test)]
pub mod parse_log {
    use std::sync::Mutex;

    static PARSED: Mutex<Vec<String>> = Mutex::new(Vec::new());

    pub(super) fn record(text: &str) {
        let start: String = text.chars().take(40).collect();
        PARSED.lock().unwrap_or_else(|e| e.into_inner()).push(start);
    }

    /// How many parses so far began with `marker`. Tests run in parallel,
    /// so each uses markers of its own.
    pub fn count(marker: &str) -> usize {
        let parsed = PARSED.lock().unwrap_or_else(|e| e.into_inner());
        parsed.iter().filter(|t| t.starts_with(marker)).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_generation() {
        assert!(MarkdownOptions::from_html(None, Generation::V05).smart_punctuation);
        assert!(!MarkdownOptions::from_html(None, Generation::V04).smart_punctuation);
    }

    #[test]
    fn v05_defaults_match_mdbook() {
        // mdBook's own config type is the reference for the 0.5 defaults.
        let html = mdbook_preprocessor::config::HtmlConfig::default();
        let ours = MarkdownOptions::defaults(Generation::V05);
        assert_eq!(ours.smart_punctuation, html.smart_punctuation);
        assert_eq!(ours.definition_lists, html.definition_lists);
        assert_eq!(ours.admonitions, html.admonitions);
    }

    #[test]
    fn config_overrides() {
        let html = serde_json::json!({"smart-punctuation": false, "admonitions": false});
        let o = MarkdownOptions::from_html(Some(&html), Generation::V05);
        assert!(!o.smart_punctuation && o.definition_lists && !o.admonitions);
        let html = serde_json::json!({"curly-quotes": true});
        assert!(MarkdownOptions::from_html(Some(&html), Generation::V04).smart_punctuation);
    }
}
