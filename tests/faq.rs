//! FAQ blocks: HTML and plain renderings, nesting, directives inside
//! answers, and bad input.

mod common;

use common::{Shape, book_root, errors_of, expand_one, request, run};
use insta::assert_snapshot;
use serde_json::json;

const PEOPLE: &str = "[people.ezyang]\nname = \"Edward Yang\"\n";

/// The config of a book that ran `install` (no inline assets).
fn installed() -> serde_json::Value {
    json!({"output": {"html": {
        "additional-css": ["mdbook-community.css"],
        "additional-js": ["mdbook-community.js"]
    }}})
}

fn expand_with(config: serde_json::Value, renderer: &str, chapter: &str) -> String {
    expand_in(Shape::V05, config, renderer, chapter)
}

fn expand_in(shape: Shape, config: serde_json::Value, renderer: &str, chapter: &str) -> String {
    let dir = book_root(&[("maintainers.toml", PEOPLE)]);
    let input = request(shape, dir.path(), config, &[("FAQ", "faq.md", chapter)]).replace(
        "\"renderer\":\"html\"",
        &format!("\"renderer\":\"{renderer}\""),
    );
    let result = run(&input);
    assert_eq!(result.code, 0, "{}", result.stderr);
    result.contents(shape).remove(0)
}

const FAQ: &str = "# FAQ\n\n```faq\n## How can I contribute as a reviewer?\nReproduce issues and comment on pull requests.\n\n- a list\n- with `code`\n\n~~~rust\nfn main() {}\n~~~\n\n## CI tests failed, what does it mean?\nAsk {{#person ezyang}}.\n\n### A sub-heading stays in the answer\n\n| a | b |\n|---|---|\n| 1 | 2 |\n```\n\nAfter.\n";

#[test]
fn html_rendering() {
    assert_snapshot!(expand_with(installed(), "html", FAQ));
}

#[test]
fn plain_rendering_for_other_renderers() {
    let out = expand_with(json!({}), "markdown", FAQ);
    assert!(
        !out.contains('<'),
        "no raw HTML for non-HTML renderers:\n{out}"
    );
    assert_snapshot!(out);
}

#[test]
fn open_and_id_prefix() {
    let chapter = "```faq open id-prefix=faq-\n## Same?\nOne.\n## Same?\nTwo.\n## Custom {#mine}\nThree.\n```\n";
    assert_snapshot!(expand_with(installed(), "html", chapter));
}

#[test]
fn id_prefix_ids_come_from_the_rendered_question_and_are_unique_on_the_page() {
    let chapter = "## faq-q\n\n```faq id-prefix=faq-\nUnderlined question\n-------------------\nOne.\n\n## Q\nTwo.\n\n## Who is {{#person ezyang}}?\nThree.\n```\n\n```faq id-prefix=faq-\n## Q\nFour.\n```\n";
    let out = expand_with(installed(), "html", chapter);
    for heading in [
        // An underlined question becomes one ATX line, which can carry an id.
        "## Underlined question {#faq-underlined-question}\n",
        // `faq-q` is the page's own heading; the second block's Q comes next.
        "## Q {#faq-q-1}\n",
        "## Q {#faq-q-2}\n",
        // The id of the question as shown, not as written.
        "## Who is Edward Yang ([ezyang](https://github.com/ezyang))? {#faq-who-is-edward-yang-ezyang}\n",
    ] {
        assert!(out.contains(heading), "no {heading:?} in:\n{out}");
    }
    assert!(!out.contains("-------"), "{out}");
}

/// mdBook 0.4 gets the same blocks, with the ids it gives headings (here
/// the same as 0.5's: nothing in these questions is punctuation that 0.5's
/// smart punctuation would change), for every renderer.
#[test]
fn mdbook_0_4_gets_the_same_blocks_and_ids() {
    let chapters = [
        FAQ,
        "```faq open id-prefix=faq-\n## Same?\nOne.\n## Same?\nTwo.\n## Custom {#mine}\nThree.\n```\n",
        "## faq-q\n\n```faq id-prefix=faq-\n## Q\nTwo.\n```\n\n```faq id-prefix=faq-\n## Q\nFour.\n```\n",
        "1. First\r\n\r\n   ```faq\r\n   ## Q?\r\n   A.\r\n   ```\r\n2. Second\r\n",
        "> ```faq\n> ## Quoted?\n> Yes.\n> ```\n",
    ];
    for chapter in chapters {
        for renderer in ["html", "markdown"] {
            let v05 = expand_in(Shape::V05, installed(), renderer, chapter);
            let v04 = expand_in(Shape::V04, installed(), renderer, chapter);
            assert_eq!(v04, v05, "{renderer}: {chapter}");
            assert_ne!(v04, chapter, "{renderer}: not expanded");
        }
    }
    let v04 = expand_in(Shape::V04, installed(), "html", chapters[2]);
    assert!(
        v04.contains("## Q {#faq-q-1}\n") && v04.contains("## Q {#faq-q-2}\n"),
        "{v04}"
    );
}

#[test]
fn inline_assets_when_not_installed() {
    let out = expand_with(json!({}), "html", "```faq\n## Q\nA\n```\n");
    assert!(out.starts_with("<style>\n"), "{out}");
    assert!(out.contains("<script>\n"), "{out}");
    assert!(out.contains("community-faq-entry"), "{out}");
}

#[test]
fn inside_list_items_and_crlf() {
    let chapter = "1. First\r\n\r\n   ```faq\r\n   ## Q?\r\n   A.\r\n   ```\r\n2. Second\r\n";
    let out = expand_with(installed(), "html", chapter);
    assert_snapshot!(out.replace('\r', "\\r"));
}

#[test]
fn longer_fences_hold_code_blocks_with_backticks() {
    let chapter = "````faq\n## How do I show code?\n```sh\ncargo test\n```\n````\n";
    let out = expand_with(installed(), "html", chapter);
    assert!(out.contains("```sh\ncargo test\n```"), "{out}");
}

#[test]
fn bad_blocks_are_located_errors() {
    assert_snapshot!(errors_of(
        &[],
        "# T\n\n```faq\nText first.\n## Q\nA\n```\n\n```faq\n```\n\n```faq opne\n## Q\n```\n\n```faq\n##\nA\n```\n"
    ));
}

#[test]
fn nested_faq_blocks_are_errors() {
    let err = errors_of(&[], "````faq\n## Q\n```faq\n## Inner\n```\n````\n");
    assert!(err.contains("cannot be nested"), "{err}");
}

#[test]
fn errors_inside_answers_point_into_the_chapter() {
    let err = errors_of(
        &[("maintainers.toml", PEOPLE)],
        "# T\n\n- item\n\n  ```faq\n  ## Q\n  Ask {{#person nobody}}.\n  ```\n",
    );
    assert!(err.contains("src/chapter.md:7:17"), "{err}");
}

#[test]
fn other_fences_are_untouched() {
    let chapter = "```faqs\n## not ours\n```\n\n```text\n```faq\n```\n";
    assert_eq!(expand_one(&[], chapter), chapter);
}

#[test]
fn a_failed_directive_in_an_answer_keeps_the_block_and_its_ids() {
    let chapter = "```faq\n## Who decides?\nAsk {{#person nobody}}.\n\n## Other\nSee [who decides](#who-decides) and {{#person ezyang\n```\n";
    let dir = book_root(&[("maintainers.toml", PEOPLE)]);
    let config = json!({"preprocessor": {"community": {"on-error": "warn"}}, "output": installed()["output"]});
    let result = run(&request(
        Shape::V05,
        dir.path(),
        config,
        &[("FAQ", "faq.md", chapter)],
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(
        result.messages().contains("warning: no person `nobody`"),
        "{}",
        result.stderr
    );
    assert!(
        result.messages().contains("src/faq.md:3:15"),
        "{}",
        result.stderr
    );
    // A warning inside an answer is reported too (the unclosed directive).
    assert!(
        result.messages().contains("is not closed"),
        "{}",
        result.stderr
    );
    // The question is still a heading, so the link to it is not broken.
    // (Nor one left out as a follow-on of the failed directive.)
    assert!(
        !result.messages().contains("broken link"),
        "{}",
        result.stderr
    );
    assert!(
        !result.messages().contains("missing anchor"),
        "{}",
        result.stderr
    );
    let page = &result.contents(Shape::V05)[0];
    assert!(page.contains("## Who decides?"), "{page}");
    assert!(
        page.contains("**\\[mdbook-community error: no person `nobody` in `maintainers.toml`\\]**"),
        "{page}"
    );
}
