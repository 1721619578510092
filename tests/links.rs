//! `{{#contributing}}`, `{{#ref}}` and the whole-book anchor check.

mod common;

use common::{RunResult, Shape, book_root, request, run};
use insta::assert_snapshot;
use serde_json::{Value, json};

const CONTRIBUTING: &str = "# Contributing to Torch\n\n## Reporting Issues\n\nText.\n\n## Common Mistakes\n\n### Don't forget tests\n\n## Common Mistakes\n\nA duplicate heading.\n";

fn run_book(
    files: &[(&str, &str)],
    config: Value,
    chapters: &[(&str, &str, &str)],
) -> (RunResult, String) {
    let dir = book_root(files);
    let result = run(&request(Shape::V05, dir.path(), config, chapters));
    let root = dir.path().display().to_string();
    (result, root)
}

fn url_config() -> Value {
    json!({"preprocessor": {"community": {"contributing-url": "https://github.com/o/r/blob/main/CONTRIBUTING.md"}}})
}

#[test]
fn contributing_links_to_the_repository_with_github_ids() {
    let chapter = "See {{#contributing}}, {{#contributing #reporting-issues}}, {{#contributing common mistakes}}, {{#contributing Don't forget tests \"the tests rule\"}} and {{#contributing #common-mistakes-1}}.\n";
    let (result, _) = run_book(
        &[("CONTRIBUTING.md", CONTRIBUTING)],
        url_config(),
        &[("A", "a.md", chapter)],
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_snapshot!(result.contents(Shape::V05)[0]);
}

/// Found by the `chapter` fuzz target: a call without arguments in a FAQ
/// answer had its empty argument range mapped back to the chapter as one
/// byte long, and the resolve stage sliced past the arguments and panicked.
#[test]
fn link_directives_in_faq_answers_with_and_without_arguments() {
    let chapter = "```faq\n## Where do I start?\nSee {{#contributing}}, {{#contributing #reporting-issues}} and {{#ref #where-do-i-start \"this\"}}.\n```\n\n> ```faq\n> ## Quoted?\n> {{#contributing}}\n> ```\n";
    let (result, _) = run_book(
        &[("CONTRIBUTING.md", CONTRIBUTING)],
        url_config(),
        &[("A", "a.md", chapter)],
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    let content = &result.contents(Shape::V05)[0];
    let url = "https://github.com/o/r/blob/main/CONTRIBUTING.md";
    assert!(
        content.contains(&format!("[Contributing to Torch]({url})")),
        "{content}"
    );
    assert!(
        content.contains(&format!("]({url}#reporting-issues)")),
        "{content}"
    );
    assert!(content.contains("[this](#where-do-i-start)"), "{content}");
    assert_eq!(content.matches(&format!("({url})")).count(), 2, "{content}");
}

#[test]
fn contributing_links_to_the_chapter_when_the_book_holds_it() {
    let chapters = [
        (
            "Guide",
            "guide/intro.md",
            "See {{#contributing}} and {{#contributing #dont-forget-tests}}.\n",
        ),
        (
            "Contributing",
            "contributing.md",
            "{{#include ../CONTRIBUTING.md}}",
        ),
    ];
    // mdBook's links preprocessor has not run: the include is detected as is.
    let (result, _) = run_book(
        &[
            ("CONTRIBUTING.md", CONTRIBUTING),
            ("src/contributing.md", "x"),
        ],
        url_config(),
        &chapters,
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    // mdBook 0.5 turns on smart punctuation: "Don’t" and its id lose the apostrophe.
    assert_eq!(
        result.contents(Shape::V05)[0],
        "See [Contributing to Torch](../contributing.md) and [Don’t forget tests](../contributing.md#dont-forget-tests).\n"
    );
}

#[test]
fn contributing_as_an_expanded_chapter() {
    let chapters = [
        ("Contributing", "contributing.md", CONTRIBUTING),
        ("A", "a.md", "{{#contributing Reporting Issues}}"),
    ];
    let (result, _) = run_book(&[("CONTRIBUTING.md", CONTRIBUTING)], json!({}), &chapters);
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_eq!(
        result.contents(Shape::V05)[1],
        "[Reporting Issues](contributing.md#reporting-issues)"
    );
}

/// A chapter whose source is the CONTRIBUTING file itself (`src = "."`):
/// links go to it, with the ids of the chapter as mdBook sees it (here an
/// earlier preprocessor added a heading that shifts the duplicates).
#[test]
fn contributing_as_the_chapter_whose_source_it_is() {
    let content = format!("{CONTRIBUTING}\n## Reporting Issues\n");
    let chapters = [
        ("Contributing", "CONTRIBUTING.md", content.as_str()),
        ("A", "guide/a.md", "{{#contributing #reporting-issues-1}}"),
    ];
    let config = json!({"book": {"src": "."}});
    let (result, _) = run_book(&[("CONTRIBUTING.md", CONTRIBUTING)], config, &chapters);
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_eq!(
        result.contents(Shape::V05)[1],
        "[Reporting Issues](../CONTRIBUTING.md#reporting-issues-1)"
    );
}

/// A chapter that includes the whole file after text of its own counts as
/// holding it, before and after mdBook's `links` expands the include; the
/// chapter's own headings come first in its ids.
#[test]
fn contributing_included_whole_after_text_of_its_own() {
    let intro = "# How to contribute\n\nRead this first.\n\n## Common Mistakes\n\n";
    let raw = format!("{intro}{{{{#include ../CONTRIBUTING.md}}}}\n");
    let expanded = format!("{intro}{CONTRIBUTING}\n");
    for content in [raw.as_str(), expanded.as_str()] {
        let chapters = [
            ("Contributing", "contributing.md", content),
            (
                "A",
                "a.md",
                "{{#contributing}}, {{#contributing #reporting-issues}}, {{#contributing #common-mistakes-2}}",
            ),
        ];
        let (result, _) = run_book(
            &[
                ("CONTRIBUTING.md", CONTRIBUTING),
                ("src/contributing.md", content),
            ],
            json!({}),
            &chapters,
        );
        assert_eq!(result.code, 0, "{content}: {}", result.stderr);
        assert_eq!(
            result.contents(Shape::V05)[1],
            "[Contributing to Torch](contributing.md), [Reporting Issues](contributing.md#reporting-issues), [Common Mistakes](contributing.md#common-mistakes-2)",
            "{content}"
        );
    }
}

/// An include of part of the file (`:anchor` or lines) does not make the
/// chapter hold it.
#[test]
fn contributing_included_in_part_is_not_the_chapter() {
    let chapters = [
        (
            "Contributing",
            "contributing.md",
            "{{#include ../CONTRIBUTING.md:1:4}}\n",
        ),
        ("A", "a.md", "{{#contributing #reporting-issues}}"),
    ];
    let (result, _) = run_book(
        &[
            ("CONTRIBUTING.md", CONTRIBUTING),
            ("src/contributing.md", "x"),
        ],
        url_config(),
        &chapters,
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_eq!(
        result.contents(Shape::V05)[1],
        "[Reporting Issues](https://github.com/o/r/blob/main/CONTRIBUTING.md#reporting-issues)"
    );
}

#[test]
fn contributing_errors() {
    let chapter = "{{#contributing #reportng-issues}}\n\n{{#contributing Comon Mistakes}}\n\n{{#contributing #x \"\"}}\n";
    let (result, _) = run_book(
        &[("CONTRIBUTING.md", CONTRIBUTING)],
        url_config(),
        &[("A", "a.md", chapter)],
    );
    assert_eq!(result.code, 1);
    assert_snapshot!(result.stderr);
}

#[test]
fn contributing_without_a_url_or_chapter_says_what_to_set() {
    let (result, _) = run_book(
        &[("CONTRIBUTING.md", CONTRIBUTING)],
        json!({}),
        &[("A", "a.md", "{{#contributing}}")],
    );
    assert_eq!(result.code, 1);
    assert!(
        result.messages().contains("`contributing-url` is not set"),
        "{}",
        result.stderr
    );
}

#[test]
fn contributing_missing_says_where_it_looked() {
    let (result, root) = run_book(&[], url_config(), &[("A", "a.md", "{{#contributing}}")]);
    assert_eq!(result.code, 1);
    let stderr = result.stderr.replace(&root, "<root>");
    assert!(stderr.contains("no CONTRIBUTING file: looked for <root>/CONTRIBUTING.md, <root>/.github/CONTRIBUTING.md"), "{stderr}");
}

#[test]
fn configured_contributing_path() {
    let config = json!({"preprocessor": {"community": {"contributing": "docs/HACKING.md", "contributing-url": "https://h/x"}}});
    let (result, _) = run_book(
        &[("docs/HACKING.md", "# Hacking\n")],
        config.clone(),
        &[("A", "a.md", "{{#contributing}}")],
    );
    assert_eq!(result.contents(Shape::V05)[0], "[Hacking](https://h/x)");
    // A path that names no file is an error in book.toml, with a
    // suggestion, even when no directive uses the file.
    let (result, _) = run_book(
        &[("docs/HACKING.md", "# Hacking\n")],
        json!({"preprocessor": {"community": {"contributing": "docs/HACKNG.md"}}}),
        &[("A", "a.md", "No directive.\n")],
    );
    assert_eq!(result.code, 1);
    assert!(result.stdout.is_empty());
    for expected in [
        "error: [preprocessor.community] contributing `docs/HACKNG.md` does not exist",
        "help: did you mean `docs/HACKING.md`?",
    ] {
        assert!(result.messages().contains(expected), "{}", result.stderr);
    }
}

const GUIDE: &str =
    "# Guide\n\n## Setting Up\n\n## FAQ\n\n```faq\n## How do I build?\nRun it.\n```\n";

#[test]
fn refs_to_chapters_headings_and_this_page() {
    let chapters = [
        ("Guide", "guide/setup.md", GUIDE),
        (
            "Intro",
            "intro.md",
            "# Intro\n\n## Local\n\n{{#ref guide/setup.md}} {{#ref guide/setup.md#setting-up}} {{#ref #local}} {{#ref guide/setup.md#how-do-i-build \"build answer\"}} {{#ref guide/setup.md#how-do-i-build}}\n",
        ),
    ];
    let (result, _) = run_book(&[], json!({}), &chapters);
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_snapshot!(result.contents(Shape::V05)[1]);
}

#[test]
fn ref_errors_suggest() {
    let chapters = [
        ("Guide", "guide/setup.md", GUIDE),
        (
            "Intro",
            "intro.md",
            "{{#ref guide/setpu.md}}\n\n{{#ref guide/setup.md#seting-up}}\n\n{{#ref}}\n\n{{#ref guide/setup.md \"unterminated}}\n",
        ),
    ];
    let (result, _) = run_book(&[], json!({}), &chapters);
    assert_eq!(result.code, 1);
    assert_snapshot!(result.stderr);
}

#[test]
fn anchor_check_warns_by_default_and_errors_when_asked() {
    let chapters = [
        ("Guide", "guide/setup.md", GUIDE),
        (
            "Intro",
            "intro.md",
            "# Intro\n\n[ok](guide/setup.md#setting-up) [bad](guide/setup.md#seting-up) [here](#intro) [there](#nowhere) [faq](guide/setup.md#how-do-i-build)\n\n[ref]: guide/setup.md#faqq\n\nUse [ref][ref]. [ext](https://example.com/#x) [img](guide/missing.md#x)\n",
        ),
    ];
    let (result, _) = run_book(&[], json!({}), &chapters);
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_snapshot!("anchor_warnings", result.stderr);
    let (result, _) = run_book(
        &[],
        json!({"preprocessor": {"community": {"check-anchors": "error"}}}),
        &chapters,
    );
    assert_eq!(result.code, 1);
    assert_eq!(
        result.messages().matches("error: broken link").count(),
        3,
        "{}",
        result.stderr
    );
    let (result, _) = run_book(
        &[],
        json!({"preprocessor": {"community": {"check-anchors": "off"}}}),
        &chapters,
    );
    assert_eq!(result.code, 0);
    assert!(result.stderr.is_empty(), "{}", result.stderr);
}

/// The headings `{{#maintainers}}` generates are link targets like any
/// other: `{{#ref}}` finds them, and the anchor check knows their ids.
#[test]
fn generated_group_headings_are_link_targets() {
    let people = "[people.a]\n\n[[groups]]\nid = \"core\"\ntitle = \"Core Maintainers\"\nmembers = [\"a\"]\n\n[[groups]]\nid = \"nn\"\ntitle = \"NN APIs (torch.nn)\"\nparent = \"core\"\nmembers = [\"a\"]\n";
    let chapters = [
        ("People", "people.md", "# People\n\n{{#maintainers}}\n"),
        (
            "A",
            "a.md",
            "{{#ref people.md#nn-apis-torchnn}}, [core](people.md#core-maintainers), [bad](people.md#core-maintainer)\n",
        ),
    ];
    let config = json!({"preprocessor": {"community": {"check-anchors": "error"}}});
    let (result, _) = run_book(&[("maintainers.toml", people)], config.clone(), &chapters);
    assert_eq!(result.code, 1);
    assert_eq!(
        result.messages().matches("error: broken link").count(),
        1,
        "{}",
        result.stderr
    );
    assert!(
        result
            .messages()
            .contains("did you mean `#core-maintainers`?"),
        "{}",
        result.stderr
    );
    let chapters = [
        chapters[0],
        (
            "A",
            "a.md",
            "{{#ref people.md#nn-apis-torchnn}}, [core](people.md#core-maintainers)\n",
        ),
    ];
    let (result, _) = run_book(&[("maintainers.toml", people)], config, &chapters);
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_eq!(
        result.contents(Shape::V05)[1],
        "[NN APIs (torch.nn)](people.md#nn-apis-torchnn), [core](people.md#core-maintainers)\n"
    );
}

#[test]
fn links_written_with_spaces_or_a_line_break_before_the_destination_are_checked() {
    // Each chapter's only fragment link is in a form CommonMark allows but a
    // naive `](...#` scan would miss.
    for text in [
        "Use [the setup][s].\n\n[s]:   guide/setup.md#seting-up\n",
        "Use [the setup][s].\n\n[s]:\n  guide/setup.md#seting-up\n",
        "See [setup]( guide/setup.md#seting-up).\n",
        "See [setup](\n  guide/setup.md#seting-up).\n",
        "See [setup](<guide/setup.md#seting-up>).\n",
    ] {
        let chapters = [("Guide", "guide/setup.md", GUIDE), ("A", "a.md", text)];
        let (result, _) = run_book(
            &[],
            json!({"preprocessor": {"community": {"check-anchors": "error"}}}),
            &chapters,
        );
        assert_eq!(result.code, 1, "{text:?}: {}", result.stderr);
        assert!(
            result
                .messages()
                .contains("help: did you mean `#setting-up`?"),
            "{text:?}: {}",
            result.stderr
        );
    }
}

#[test]
fn with_on_error_warn_a_broken_link_shows_as_a_note_after_it() {
    let chapter = "# A\n\n- [bad](guide/setup.md#seting-up), [ok](guide/setup.md#setting-up)\n\n```faq\n## Q\nSee [y](guide/setup.md#nope).\n```\n\nEnd.\n";
    let chapters = [("Guide", "guide/setup.md", GUIDE), ("A", "a.md", chapter)];
    let (result, _) = run_book(
        &[],
        json!({"preprocessor": {"community": {"check-anchors": "error", "on-error": "warn"}}}),
        &chapters,
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(
        result
            .messages()
            .contains("mdbook-community: built with 2 errors (on-error = \"warn\")"),
        "{}",
        result.stderr
    );
    let contents = result.contents(Shape::V05);
    let page = &contents[1];
    let note = " **\\[mdbook-community error: broken link: no heading `#seting-up` in `guide/setup.md`\\]**";
    assert!(
        page.starts_with(&format!(
            "# A\n\n- [bad](guide/setup.md#seting-up){note}, [ok](guide/setup.md#setting-up)\n\n"
        )),
        "{page}"
    );
    // The link in the FAQ answer: a note after the block, before the text
    // that followed it, which is unchanged.
    let after_block = page.split("</div>").nth(1).expect("a FAQ block");
    assert!(
        after_block.contains("**mdbook-community error:** broken link: no heading `#nope`"),
        "{after_block}"
    );
    assert!(after_block.ends_with("\n\nEnd.\n"), "{after_block}");
}

#[test]
fn headings_are_found_by_their_written_text_and_suggested_in_a_form_that_can_be_written() {
    let contributing = "# C\n\n## Running `cargo test`\n\n## Set up {#setup}\n";
    let (result, _) = run_book(
        &[("CONTRIBUTING.md", contributing)],
        url_config(),
        &[("A", "a.md", "{{#contributing Running `cargo test`}}\n")],
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_eq!(
        result.contents(Shape::V05)[0],
        "[Running cargo test](https://github.com/o/r/blob/main/CONTRIBUTING.md#running-cargo-test)\n"
    );
    // On GitHub `{#setup}` is text, so the heading's text holds a `}` that
    // cannot be written inside the directive: the help gives its id.
    let (result, _) = run_book(
        &[("CONTRIBUTING.md", contributing)],
        url_config(),
        &[("A", "a.md", "{{#contributing Set upp}}\n")],
    );
    assert_eq!(result.code, 1);
    assert!(
        result
            .messages()
            .contains("help: did you mean `#set-up-setup`?"),
        "{}",
        result.stderr
    );
}

#[test]
fn ref_to_a_readme_says_mdbook_renders_it_as_index() {
    let dir = common::book_root(&[]);
    // As mdBook's `index` preprocessor leaves it: path `index.md`, source
    // `README.md`.
    let input = request(
        Shape::V05,
        dir.path(),
        json!({}),
        &[
            ("Intro", "index.md", "# Intro\n"),
            ("A", "a.md", "See {{#ref README.md#intro}}.\n"),
        ],
    )
    .replacen(
        "\"source_path\":\"index.md\"",
        "\"source_path\":\"README.md\"",
        1,
    );
    let result = run(&input);
    assert_eq!(result.code, 1);
    assert!(
        result
            .messages()
            .contains("help: mdBook renders `README.md` as the chapter `index.md`: link to that"),
        "{}",
        result.stderr
    );
}

#[test]
fn anchor_check_covers_contributing_url_links_and_faq_answers() {
    let chapter = "[a](https://github.com/o/r/blob/main/CONTRIBUTING.md#reporting-issues) [b](https://github.com/o/r/blob/main/CONTRIBUTING.md#reporting-isues)\n\n```faq\n## Q\nSee [c](#nope).\n```\n";
    let (result, _) = run_book(
        &[("CONTRIBUTING.md", CONTRIBUTING)],
        url_config(),
        &[("A", "a.md", chapter)],
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(
        result
            .messages()
            .contains("no heading `#reporting-isues` in CONTRIBUTING.md on the repository host"),
        "{}",
        result.stderr
    );
    assert!(
        result
            .messages()
            .contains("did you mean `#reporting-issues`?"),
        "{}",
        result.stderr
    );
    assert!(
        result.messages().contains("src/a.md:5:9"),
        "{}",
        result.stderr
    );
    assert_eq!(
        result.messages().matches("warning: broken link").count(),
        2,
        "{}",
        result.stderr
    );
}

/// Found by fuzzing: a fragment with `%` before a multi-byte character
/// panicked in percent-decoding.
#[test]
fn odd_percent_escapes_in_fragments_do_not_panic() {
    let chapter = "[x](#%%%\u{e9}%) [y](#f%\u{9f}) [z](other.md#%2)\n";
    let (result, _) = run_book(
        &[],
        json!({}),
        &[("A", "a.md", chapter), ("Other", "other.md", "# Other\n")],
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(!result.messages().contains("panicked"), "{}", result.stderr);
    assert_eq!(
        result.messages().matches("warning: broken link").count(),
        3,
        "{}",
        result.stderr
    );
}

/// Issue 17 (15): a link to `my%20file.md#zzz` is checked against the
/// chapter `my file.md` (mdBook links it there), and `{{#ref}}` reaches a
/// chapter whose path has a space by writing it percent-encoded.
#[test]
fn percent_encoded_paths_name_their_chapters() {
    let chapters = [
        (
            "A",
            "a.md",
            "[x](my%20file.md#zzz) [y](my%20file.md#here) {{#ref my%20file.md#here}}\n",
        ),
        ("Mine", "my file.md", "# Mine\n\n## Here\n"),
    ];
    let (result, _) = run_book(&[], json!({}), &chapters);
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(
        result
            .messages()
            .contains("no heading `#zzz` in `my file.md`"),
        "{}",
        result.stderr
    );
    assert!(
        !result.messages().contains("no heading `#here`"),
        "{}",
        result.stderr
    );
    assert!(
        result.contents(Shape::V05)[0].contains("[Here](my%20file.md#here)"),
        "{}",
        result.contents(Shape::V05)[0]
    );
}

/// Issue 17 (17): heading text matches under full Unicode case folding and
/// NFC (`σίσυφος` finds "ΣΊΣΥΦΟΣ", a decomposed `Café` finds a composed
/// one); a suggestion that would print the same as what was written says
/// how the two differ.
#[test]
fn heading_text_matches_in_unicode() {
    let contributing = "# Contributing\n\n## ΣΊΣΥΦΟΣ\n\n## Caf\u{e9}\n\n## Zero\u{200b}width\n";
    let chapter = "{{#contributing σίσυφος}} {{#contributing Cafe\u{301}}}\n";
    let (result, _) = run_book(
        &[("CONTRIBUTING.md", contributing)],
        url_config(),
        &[("A", "a.md", chapter)],
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    let out = &result.contents(Shape::V05)[0];
    assert!(out.contains("ΣΊΣΥΦΟΣ]("), "{out}");
    assert!(out.contains("Caf\u{e9}]("), "{out}");
    let (result, _) = run_book(
        &[("CONTRIBUTING.md", contributing)],
        url_config(),
        &[("A", "a.md", "{{#contributing Zerowidth}}\n")],
    );
    assert_eq!(result.code, 1);
    assert!(
        result
            .messages()
            .contains("the two look the same but are different characters"),
        "{}",
        result.stderr
    );
    assert!(result.messages().contains("U+200B"), "{}", result.stderr);
}

/// The characters the plugin marks a deferred link with, written by the
/// author, are the author's text: they come back as written, in a
/// paragraph and in a FAQ answer (which a directive's output carries), and
/// only the directive becomes a link.
#[test]
fn an_authors_text_that_spells_a_link_marker_is_left_as_written() {
    let mine = "Mine: \u{FDD0}0\u{FDD1} \u{FDD2}0\u{FDD1}";
    let chapter = format!(
        "{mine}, {{{{#contributing}}}}.\n\n```faq\n## Q?\n{mine}, {{{{#contributing}}}}.\n```\n"
    );
    let (result, _) = run_book(
        &[("CONTRIBUTING.md", CONTRIBUTING)],
        url_config(),
        &[("A", "a.md", &chapter)],
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    let url = "https://github.com/o/r/blob/main/CONTRIBUTING.md";
    let both = format!("{mine}, [Contributing to Torch]({url}).");
    let content = &result.contents(Shape::V05)[0];
    assert!(content.starts_with(&format!("{both}\n")), "{content}");
    assert!(content.contains(&format!("\n{both}\n")), "{content}");
}
