//! Unit tests of `expand/scan.rs`.

use super::*;
use crate::mdbook::options::parse_log;

/// The names the scanner is given: one brace directive `x`, the fence `faq`.
fn registry() -> DirectiveNames {
    let mut names = DirectiveNames::default();
    names.add_brace("x");
    names.add_fence("faq");
    names
}

fn sites(text: &str) -> Vec<(String, Placement)> {
    scan(
        text,
        &registry(),
        MarkdownOptions::defaults(crate::mdbook::Generation::V05),
    )
    .sites
    .iter()
    .map(|s| match s {
        Site::Brace(c) => (text[c.range.clone()].to_string(), c.placement),
        Site::Fence(f) => (format!("fence:{}", f.body), Placement::Block),
    })
    .collect()
}

#[test]
fn finds_calls_in_text_only() {
    let text = "{{#x a}}\n\n`{{#x code}}`\n\n```\n{{#x fenced}}\n```\n\n    {{#x indented}}\n\n<div>{{#x html}}</div>\n\n<!-- {{#x comment}} -->\n\n\\{{#x escaped}} and {{#y other}} and {{#xy}} and {{ #x spaced}}\n";
    let found = sites(text);
    assert_eq!(
        found,
        vec![
            ("{{#x a}}".to_string(), Placement::Block),
            ("{{ #x spaced}}".to_string(), Placement::Inline)
        ]
    );
}

#[test]
fn misspelt_names_of_ours_are_warnings_in_text_only() {
    // The names of the shipped directives.
    let mut registry = DirectiveNames::default();
    registry.add_fence("faq");
    for name in ["maintainers", "person", "codeowners", "contributing", "ref"] {
        registry.add_brace(name);
    }
    let text = "{{#persn ada}} {{#Person ada}} {{#mantainers core}} {{#contributng}} {{#preson ada}} {{#codeonwers}}\n\n`{{#persn code}}` {{#refs x}} {{#include a.md}} {{#rustdoc_include a.rs}} {{#personal}} {{#title T}}\n";
    assert!(may_contain("{{#persn ada}}", &registry));
    assert!(!may_contain(
        "{{#refs x}} {{#include a.md}} {{#title T}}",
        &registry
    ));
    let found = scan(
        text,
        &registry,
        MarkdownOptions::defaults(crate::mdbook::Generation::V05),
    );
    assert!(found.sites.is_empty());
    let helps: Vec<String> = found.warnings.iter().map(|w| w.help.join(" ")).collect();
    assert_eq!(
        helps,
        [
            "did you mean `{{#person}}`?",
            "did you mean `{{#person}}`?",
            "did you mean `{{#maintainers}}`?",
            "did you mean `{{#contributing}}`?",
            "did you mean `{{#person}}`?",
            "did you mean `{{#codeowners}}`?"
        ]
    );
    assert_eq!(
        found.warnings[0].message,
        "`{{#persn}}` is not a directive of mdbook-community; left as text"
    );
}

#[test]
fn placement_is_block_only_for_whole_paragraphs_and_items() {
    let text = "{{#x}}\n\nSee {{#x}}.\n\n- {{#x}}\n- a {{#x}}\n\n> {{#x}}\n\n# {{#x}}\n\n| {{#x}} |\n|---|\n";
    let placements: Vec<_> = sites(text).into_iter().map(|s| s.1).collect();
    use Placement::*;
    assert_eq!(
        placements,
        [Block, Inline, Block, Inline, Block, Inline, Inline]
    );
}

#[test]
fn fences_collect_body_without_container_prefixes() {
    let text = "> ```faq open\n> ## Q\n> body\n> ```\n\n1. item\n\n   ~~~~faq\n   ## R\n   ~~~~\n";
    let scan = scan(
        text,
        &registry(),
        MarkdownOptions::defaults(crate::mdbook::Generation::V05),
    );
    let fences: Vec<_> = scan
        .sites
        .iter()
        .filter_map(|s| match s {
            Site::Fence(f) => Some(f),
            Site::Brace(_) => None,
        })
        .collect();
    assert_eq!(fences.len(), 2);
    assert_eq!(fences[0].body, "## Q\nbody\n");
    assert_eq!(fences[0].options, "open");
    assert_eq!(&text[fences[0].options_range.clone()], "open");
    assert_eq!(
        &text[fences[0].range.clone()],
        "```faq open\n> ## Q\n> body\n> ```"
    );
    assert_eq!(&text[fences[0].body_map.to_source(5)..][..4], "body");
    assert_eq!(fences[1].body, "## R\n");
    assert_eq!(fences[1].options, "");
}

#[test]
fn unclosed_calls_warn_and_stay() {
    let text = "a {{#x b\nc }}\n";
    let scan = scan(
        text,
        &registry(),
        MarkdownOptions::defaults(crate::mdbook::Generation::V05),
    );
    assert!(scan.sites.is_empty());
    assert_eq!(scan.warnings.len(), 1);
    assert!(scan.warnings[0].message.contains("not closed"));
}

#[test]
fn calls_know_their_section_level() {
    let text = "{{#x}}\n\n## A\n\n{{#x}}\n\n#### B {{#x}}\n";
    let scan = scan(
        text,
        &registry(),
        MarkdownOptions::defaults(crate::mdbook::Generation::V05),
    );
    let levels: Vec<u8> = scan
        .sites
        .iter()
        .filter_map(|s| match s {
            Site::Brace(c) => Some(c.section_level),
            Site::Fence(_) => None,
        })
        .collect();
    assert_eq!(levels, [0, 2, 4]);
}

#[test]
fn fast_path() {
    let r = registry();
    assert!(!may_contain(
        "plain {{ mdbook-version }} {{#include a.md}}",
        &r
    ));
    assert!(may_contain("x {{#x}}", &r));
    assert!(may_contain("```faq\n", &r));
    assert!(!may_contain("a faq about faqs", &r));
}

/// A text the byte scan rules out is never parsed; one it lets through is
/// parsed once.
#[test]
fn only_texts_the_byte_scan_lets_through_are_parsed() {
    let options = MarkdownOptions::defaults(crate::mdbook::Generation::V05);
    let without = "scan-fast-path-1 {{#include a.md}} a faq about faqs\n";
    let found = scan(without, &registry(), options);
    assert!(found.sites.is_empty() && found.warnings.is_empty());
    assert_eq!(parse_log::count("scan-fast-path-1"), 0);
    let with = "scan-fast-path-2 {{#x}}\n";
    assert_eq!(scan(with, &registry(), options).sites.len(), 1);
    assert_eq!(parse_log::count("scan-fast-path-2"), 1);
}

#[test]
fn quoted_close_braces_do_not_end_the_call() {
    let found = sites("{{#x \"}}\" b}}\n");
    assert_eq!(found[0].0, "{{#x \"}}\" b}}");
}

#[test]
fn the_byte_scan_tells_calls_from_braces_and_from_nothing() {
    let names = registry();
    let cases = [
        ("plain text, no braces", Sites::None),
        (
            "format!(\"{{}}\") and {{#include a.md}} and {{#y}}",
            Sites::Maybe,
        ),
        ("\\{{#x escaped}} and a word faq", Sites::Maybe),
        ("text\n{{#x call}}", Sites::Calls),
        ("{{ #x spaced}}", Sites::Calls),
        ("````faq\nQ\n````", Sites::Calls),
        // As a JSON string spells it: a line break is `\n`, a backslash `\\`.
        (r"line\n{{#x call}}", Sites::Calls),
        (r"a backslash \\{{#x escaped}}", Sites::Maybe),
    ];
    for (text, expected) in cases {
        assert_eq!(sites_in(text.as_bytes(), &names), expected, "{text}");
    }
}
