//! What a new user meets in the first hour with a real project's files:
//! one mistake gives one error, not one per directive; a missing file is
//! reported once with the file they meant; a renamed heading gets help;
//! a page prepared before anyone has a status builds.

mod common;

use common::{RunResult, Shape, book_root, request, run};
use serde_json::{Value, json};

const PEOPLE: &str = "[people.ada]\nname = \"Ada\"\n\n[people.bob]\nname = \"Bob\"\n\n[[groups]]\nid = \"tsdb\"\ntitle = \"TSDB\"\nmembers = [\"ada\", \"bob\"]\n\n[[groups]]\nid = \"web\"\ntitle = \"Web\"\nmembers = [\"bob\"]\n";

fn run_book(files: &[(&str, &str)], config: Value, chapters: &[(&str, &str, &str)]) -> RunResult {
    let dir = book_root(files);
    let mut result = run(&request(Shape::V05, dir.path(), config, chapters));
    result.stderr = result
        .stderr
        .replace(&dir.path().display().to_string(), "<root>");
    result
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// Many directives over a people file with one mistake.
fn many_directives() -> Vec<(&'static str, &'static str, &'static str)> {
    vec![
        (
            "People",
            "people.md",
            "# People\n\n{{#maintainers}}\n\n{{#maintainers tsdb}}\n\n{{#maintainers web style=table}}\n",
        ),
        (
            "Prose",
            "prose.md",
            "# Prose\n\nAsk {{#person ada}} or {{#person bob}}; the [TSDB team](people.md#tsdb) decides.\n",
        ),
    ]
}

#[test]
fn one_data_file_mistake_is_one_error() {
    let data = PEOPLE.replace("members = [\"bob\"]", "memebers = [\"bob\"]");
    let result = run_book(
        &[("maintainers.toml", &data)],
        json!({}),
        &many_directives(),
    );
    assert_eq!(result.code, 1);
    let stderr = &result.messages();
    assert_eq!(count(stderr, "error:"), 2, "{stderr}"); // the mistake and `aborting`
    assert!(stderr.contains("error: unknown key `memebers`"), "{stderr}");
    assert!(!stderr.contains("reported separately"), "{stderr}");
    assert!(
        stderr.contains(
            "note: mdbook-community: 5 directives that use `maintainers.toml` were not expanded"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("error: mdbook-community: aborting due to 1 error\n"),
        "{stderr}"
    );
}

#[test]
fn a_member_missing_from_people_gives_no_false_broken_anchors() {
    let data = PEOPLE.replace("members = [\"bob\"]", "members = [\"carol\"]");
    let result = run_book(
        &[("maintainers.toml", &data)],
        json!({}),
        &many_directives(),
    );
    assert_eq!(result.code, 1);
    let stderr = &result.messages();
    assert!(
        stderr.contains("group `web` lists `carol`, who is not in `people`"),
        "{stderr}"
    );
    // `#tsdb` is a group heading `{{#maintainers}}` would have made.
    assert!(!stderr.contains("no heading `#tsdb`"), "{stderr}");
    assert!(
        stderr.contains("note: mdbook-community: 1 missing anchor on pages where a directive failed was not reported"),
        "{stderr}"
    );
    assert!(stderr.contains("aborting due to 1 error\n"), "{stderr}");
    // A real broken anchor on a page whose directives work is reported.
    let mut chapters = many_directives();
    chapters[1].2 = "# Prose\n\n[TSDB](people.md#tsbd)\n";
    let result = run_book(&[("maintainers.toml", PEOPLE)], json!({}), &chapters);
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(
        result.messages().contains("did you mean `#tsdb`?"),
        "{}",
        result.stderr
    );
}

#[test]
fn a_missing_data_file_is_reported_once_with_the_file_meant() {
    let result = run_book(
        &[("maintainer.toml", PEOPLE)],
        json!({}),
        &many_directives(),
    );
    assert_eq!(result.code, 1);
    let stderr = &result.messages();
    assert_eq!(count(stderr, "no people data file"), 1, "{stderr}");
    assert!(
        stderr.contains(
            "help: did you mean `maintainer.toml`? Set `people = \"maintainer.toml\"` in [preprocessor.community] to use it"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("note: mdbook-community: 4 more directives that use `maintainers.toml` failed the same way"),
        "{stderr}"
    );
    // The first directive in book order reports it.
    assert!(stderr.contains("--> src/people.md:3:4"), "{stderr}");
    assert!(stderr.contains("aborting due to 1 error\n"), "{stderr}");
}

#[test]
fn with_on_error_warn_every_failed_directive_still_shows_its_note() {
    let data = PEOPLE.replace("members = [\"bob\"]", "memebers = [\"bob\"]");
    let config = json!({"preprocessor": {"community": {"on-error": "warn"}}});
    let result = run_book(&[("maintainers.toml", &data)], config, &many_directives());
    assert_eq!(result.code, 0, "{}", result.stderr);
    let contents = result.contents(Shape::V05);
    assert_eq!(
        count(&contents[0], "mdbook-community error"),
        3,
        "{}",
        contents[0]
    );
    assert_eq!(
        count(&contents[1], "mdbook-community error"),
        2,
        "{}",
        contents[1]
    );
}

const CONTRIBUTING: &str = "# Contributing\n\n## How to Contribute\n\n## Reporting Bugs\n\n## Code Style\n\n## Tests\n\n## Docs\n\n## Releases\n\n## Licence\n\n## Security\n\n## Governance\n\n## Contact\n";

fn contributing(chapter: &str) -> RunResult {
    run_book(
        &[("CONTRIBUTING.md", CONTRIBUTING)],
        json!({"preprocessor": {"community": {"contributing-url": "https://github.com/o/r/blob/main/CONTRIBUTING.md"}}}),
        &[("A", "a.md", chapter)],
    )
}

#[test]
fn a_renamed_heading_is_found_by_its_words() {
    let result = contributing("{{#contributing #steps-to-contribute}}\n");
    assert!(
        result
            .messages()
            .contains("help: did you mean `#how-to-contribute`?"),
        "{}",
        result.stderr
    );
    let result = contributing("{{#contributing Steps to Contribute}}\n");
    assert!(
        result
            .messages()
            .contains("help: did you mean `How to Contribute`?"),
        "{}",
        result.stderr
    );
    // Links in chapters get the same help.
    let result = run_book(
        &[],
        json!({}),
        &[
            ("A", "a.md", "[x](b.md#steps-to-contribute)\n"),
            ("B", "b.md", CONTRIBUTING),
        ],
    );
    assert!(
        result
            .messages()
            .contains("help: did you mean `#how-to-contribute`?"),
        "{}",
        result.stderr
    );
}

#[test]
fn with_no_close_heading_the_headings_are_listed() {
    let result = contributing("{{#contributing #zebra}}\n");
    assert!(
        result.messages().contains(
            "note: the page's anchors: `#contributing`, `#how-to-contribute`, `#reporting-bugs`, `#code-style`, `#tests`, `#docs`, `#releases`, `#licence` and 3 more"
        ),
        "{}",
        result.stderr
    );
    let result = contributing("{{#contributing Zebra crossing}}\n");
    assert!(
        result.messages().contains(
            "note: its headings: \"Contributing\", \"How to Contribute\", \"Reporting Bugs\""
        ) && result.messages().contains("and 3 more"),
        "{}",
        result.stderr
    );
}

const STATUSES: &str = "[people.ada]\nname = \"Ada\"\n\n[people.bob]\nname = \"Bob\"\n\n[[groups]]\nid = \"core\"\nmembers = [\"ada\", { handle = \"bob\", status = \"sunsetting\" }]\n";

fn statuses(chapter: &str) -> RunResult {
    run_book(
        &[("maintainers.toml", STATUSES)],
        json!({}),
        &[("A", "a.md", chapter)],
    )
}

#[test]
fn a_known_status_nobody_has_yet_is_a_warning_and_a_typo_an_error() {
    let result = statuses("{{#maintainers core only=emeritus}}\n");
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(
        result.messages().contains(
            "warning: no member of group `core` is left by the filters: the list is empty"
        ),
        "{}",
        result.stderr
    );
    // `hide` of a status nobody has hides nobody: nothing to say.
    let result = statuses("{{#maintainers core hide=emeritus}}\n");
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(result.stderr.is_empty(), "{}", result.stderr);
    // A typo is still an error.
    let result = statuses("{{#maintainers core only=pendng}}\n");
    assert_eq!(result.code, 1);
    assert!(
        result
            .messages()
            .contains("error: no member has the status `pendng`"),
        "{}",
        result.stderr
    );
    let result = statuses("{{#maintainers core only=emeritas}}\n");
    assert!(
        result.messages().contains("did you mean `emeritus`?"),
        "{}",
        result.stderr
    );
}

#[test]
fn empty_gives_the_text_for_an_empty_selection() {
    let result = statuses("{{#maintainers core only=emeritus empty=\"Nobody yet.\"}}\n");
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(result.stderr.is_empty(), "{}", result.stderr);
    assert_eq!(result.contents(Shape::V05)[0], "Nobody yet.\n");
    let result =
        statuses("Emeriti: {{#maintainers core only=emeritus style=inline empty=\"none yet\"}}.\n");
    assert_eq!(result.contents(Shape::V05)[0], "Emeriti: none yet.\n");
    // A selection that is not empty ignores it.
    let result = statuses("{{#maintainers core only=sunsetting empty=\"Nobody yet.\"}}\n");
    assert_eq!(
        result.contents(Shape::V05)[0],
        "- Bob ([bob](https://github.com/bob))\n"
    );
}

#[test]
fn a_list_in_running_text_suggests_style_inline() {
    let result = statuses("The team: {{#maintainers core}}.\n");
    assert_eq!(result.code, 1);
    assert!(
        result
            .messages()
            .contains("help: or name them in the sentence: `{{#maintainers core style=inline}}`"),
        "{}",
        result.stderr
    );
}

/// mdBook runs the plugin once per renderer, `[output]`'s keys in order:
/// the markdown run of a book that also renders HTML prints no warnings
/// (the HTML run did), but errors still fail it.
#[test]
fn a_later_renderers_run_prints_errors_only() {
    let dir = book_root(&[("maintainers.toml", PEOPLE)]);
    let config = json!({"output": {"html": {}, "markdown": {}}});
    let run_for = |renderer: &str, chapter: &str| {
        let input = request(
            Shape::V05,
            dir.path(),
            config.clone(),
            &[("A", "a.md", chapter)],
        )
        .replace(
            "\"renderer\":\"html\"",
            &format!("\"renderer\":\"{renderer}\""),
        );
        run(&input)
    };
    let warning = "# A\n\n[x](#nowhere)\n";
    let first = run_for("html", warning);
    assert!(
        first.messages().contains("warning: broken link"),
        "{}",
        first.stderr
    );
    let second = run_for("markdown", warning);
    assert_eq!(second.code, 0);
    assert!(second.stderr.is_empty(), "{}", second.stderr);
    let error = "# A\n\n{{#person nobody}}\n";
    let second = run_for("markdown", error);
    assert_eq!(second.code, 1);
    assert!(
        second.messages().contains("error: no person `nobody`"),
        "{}",
        second.stderr
    );
}
