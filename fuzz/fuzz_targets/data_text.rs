//! `data_text`: arbitrary data-file strings (a person's name, affiliation,
//! status and role; a group's title and description) rendered by the
//! people directives standing in every Markdown context a directive can
//! stand in (a heading, a table cell, link text, a list item, a block
//! quote, a FAQ question and answer, a paragraph of its own), under mdBook
//! 0.4's and 0.5's Markdown options, through `preprocess`; the result is
//! rendered to HTML as mdBook would.
//!
//! Invariants (the guide's "data is text"): the chapter's blocks after the
//! directive come out unchanged (every generated block is closed); no
//! element or attribute comes from data (every tag and attribute in the
//! HTML is one the plugin or Markdown itself makes, no `on*=` handler, no
//! `javascript:`); no `{{` from data is left for mdBook's `{{#include}}`.

#![no_main]

use std::path::PathBuf;
use std::sync::LazyLock;

use arbitrary::Arbitrary;
use fuzz_support::{BuildOptions, chapter, preprocess_chapters, scratch_dir, write};
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, json};

static ROOT: LazyLock<PathBuf> = LazyLock::new(|| scratch_dir("data-text"));

#[derive(Arbitrary, Debug)]
struct Input {
    name: String,
    affiliation: String,
    status: String,
    role: String,
    title: String,
    description: String,
    context: u8,
    mdbook_04: bool,
    smart_punctuation: Option<bool>,
    markdown_renderer: bool,
}

/// The contexts a directive is fuzzed in; each ends before [`AFTER`].
const CONTEXTS: &[&str] = &[
    "## Ask {{#person a}}\n",
    "| x | y |\n|---|---|\n| {{#person a}} | z |\n| {{#maintainers g style=inline}} | w |\n",
    "[see {{#person a}}](https://example.com/see)\n",
    "- {{#person a}}\n- {{#maintainers g style=inline}}\n",
    "> {{#maintainers g style=inline}}\n>\n> {{#person a}}\n",
    "```faq\n## Q {{#person a}}\n\nAnswer {{#maintainers g style=inline}}\n\n## Q2\n\n{{#maintainers g}}\n```\n",
    "{{#maintainers}}\n",
    "{{#maintainers g style=table}}\n",
    "## By {{#maintainers g style=inline}} {#by}\n\nText {{#person a}} here.\n",
    "Term\n: {{#person a}}\n",
];

/// What follows the directive: it must come out as written.
const AFTER: &str =
    "\n\nAfter the directive.\n\n## Sentinel heading {#sentinel-after}\n\nsentinel paragraph\n";

/// The elements Markdown and the plugin make, space-separated.
const TAGS: &str = "p h1 h2 h3 h4 h5 h6 ul ol li table thead tbody tr th td a strong em code pre \
                    blockquote details summary div img del hr br input dl dt dd sup section style script";
const ATTRIBUTES: &[&str] = &[
    "href", "src", "alt", "title", "id", "class", "width", "height", "loading", "open", "type",
    "checked", "disabled", "style", "start",
];

fuzz_target!(|input: Input| {
    let people = json!({
        "people": { "a": {
            "name": input.name, "affiliation": input.affiliation,
            "url": "https://example.com/a",
        }},
        "groups": [{
            "id": "g", "title": input.title, "description": input.description,
            "members": [{ "handle": "a", "status": input.status, "role": input.role }],
        }],
    });
    write(&ROOT.join("maintainers.json"), &people.to_string());
    let context = CONTEXTS[usize::from(input.context) % CONTEXTS.len()];
    let content = format!("{context}{AFTER}");
    let options = BuildOptions {
        mdbook_04: input.mdbook_04,
        smart_punctuation: input.smart_punctuation,
        markdown_renderer: input.markdown_renderer,
        check_anchors: fuzz_support::AnchorCheck::Off,
        ..BuildOptions::default()
    };
    let mut extra = Map::new();
    extra.insert("people".into(), json!("maintainers.json"));
    let chapters = [chapter("Chapter", Some("chapter.md"), content)];
    let result = preprocess_chapters(&options, &ROOT, extra, &chapters);
    let Some(book) = result.book else {
        return; // the data was rejected, with a diagnostic
    };
    let contents = fuzz_support::book_contents(&book, options.generation());
    let out = &contents[0];
    assert!(
        !out.contains("{{"),
        "`{{{{` left for mdBook's preprocessors:\n{out}"
    );
    let html = render(out, &options);
    for block in [
        "<p>After the directive.</p>",
        "<h2 id=\"sentinel-after\">Sentinel heading</h2>",
        "<p>sentinel paragraph</p>",
    ] {
        assert!(
            html.contains(block),
            "{block} missing: a block was left open:\n{out}\n---\n{html}"
        );
    }
    check_tags(&html, context.contains("```faq"));
});

/// `markdown` as mdBook's HTML renderer would render it.
fn render(markdown: &str, options: &BuildOptions) -> String {
    use pulldown_cmark::Options;
    let mut o = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES;
    if options.smart_punctuation.unwrap_or(!options.mdbook_04) {
        o |= Options::ENABLE_SMART_PUNCTUATION;
    }
    if !options.mdbook_04 {
        o |= Options::ENABLE_DEFINITION_LIST | Options::ENABLE_GFM;
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, pulldown_cmark::Parser::new_ext(markdown, o));
    html
}

/// Every tag and attribute in `html` is one the plugin or Markdown makes;
/// `<script>` and `<style>` only as the FAQ's own inlined assets.
fn check_tags(html: &str, faq: bool) {
    let bytes = html.as_bytes();
    let mut scripts = 0;
    for (at, _) in html.match_indices('<') {
        let rest = &html[at + 1..];
        let rest = rest.strip_prefix('/').unwrap_or(rest);
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if name.is_empty() {
            panic!(
                "a `<` that is not a tag in HTML: {:?}",
                &html[at..html.len().min(at + 40)]
            );
        }
        let name = name.to_ascii_lowercase();
        assert!(
            TAGS.split_whitespace().any(|t| t == name),
            "unexpected element <{name}> in:\n{html}"
        );
        if name == "script" && !rest.starts_with('/') && bytes.get(at + 1) != Some(&b'/') {
            scripts += 1;
        }
        let end = rest.find('>').unwrap_or(rest.len());
        check_attributes(&rest[name.len()..end], html);
    }
    assert!(scripts <= usize::from(faq), "a <script> from data:\n{html}");
}

fn check_attributes(mut attrs: &str, html: &str) {
    loop {
        attrs = attrs.trim_start_matches([' ', '/']);
        if attrs.is_empty() {
            return;
        }
        let name: String = attrs
            .chars()
            .take_while(|c| !matches!(c, '=' | ' ' | '/'))
            .collect();
        assert!(
            ATTRIBUTES.contains(&name.to_ascii_lowercase().as_str()),
            "unexpected attribute {name:?} in:\n{html}"
        );
        attrs = &attrs[name.len()..];
        if let Some(value) = attrs.strip_prefix("=\"") {
            let end = value.find('"').unwrap_or(value.len());
            let v = value[..end].to_ascii_lowercase();
            assert!(
                !v.trim_start().starts_with("javascript:"),
                "javascript: in:\n{html}"
            );
            attrs = value.get(end + 1..).unwrap_or("");
        }
    }
}
