//! "Did you mean" against large sets: the closest name, whatever the size
//! of the roster or the page (how many names a question is compared with
//! is proven by the unit tests of `diagnostic::suggest`, `ids::closest`
//! and `check::owners`, never by timing).

mod common;

use common::{Shape, book_root, request, run};
use serde_json::json;

/// A roster of `n` people, `user00000` to `user{n-1}`, whose GitHub
/// logins are their handles, in one group.
fn roster(n: usize) -> String {
    let mut toml = String::new();
    for i in 0..n {
        toml.push_str(&format!("[people.user{i:05}]\nname = \"User {i}\"\n\n"));
    }
    toml.push_str("[[groups]]\nid = \"core\"\ntitle = \"Core\"\nmembers = [\"user00001\"]\n");
    toml
}

/// A stranger in CODEOWNERS, one typo from the first of 20,000 logins:
/// before the index, the first 500 logins starting with `u` (in no
/// particular order) were compared, and the help named another one.
#[test]
fn the_drift_check_suggests_the_closest_of_20000_logins() {
    let codeowners = "* @user00001\n/a/ @usex00000\n/b/ @usex00000 @user19999\n/c/ @usre12345\n";
    let dir = book_root(&[
        ("maintainers.toml", &roster(20_000)),
        ("CODEOWNERS", codeowners),
    ]);
    let chapters = [("C", "c.md", "Plain.\n")];
    let result = run(&request(Shape::V05, dir.path(), json!({}), &chapters));
    assert_eq!(result.code, 0, "warnings only: {}", result.stderr);
    let stderr = result.messages();
    assert!(
        stderr.contains("code owner `@usex00000` is in no roster source"),
        "{stderr}"
    );
    assert!(
        stderr.contains("help: did you mean `@user00000`?"),
        "{stderr}"
    );
    assert!(stderr.contains("note: on 2 lines: 2, 3"), "{stderr}");
    // A transposition is one edit.
    assert!(
        stderr.contains("help: did you mean `@user12345`?"),
        "{stderr}"
    );
}

/// The roster's handles are indexed once for directives and for the
/// roster's own references.
#[test]
fn unknown_handles_get_the_closest_of_20000() {
    let dir = book_root(&[("maintainers.toml", &roster(20_000))]);
    let chapters = [(
        "C",
        "c.md",
        "Ask {{#person usex00000}} or {{#person user1999x}}.\n",
    )];
    let result = run(&request(Shape::V05, dir.path(), json!({}), &chapters));
    assert_eq!(result.code, 1, "{}", result.stderr);
    let stderr = result.messages();
    assert!(
        stderr.contains("help: did you mean `user00000`?"),
        "{stderr}"
    );
    assert!(
        stderr.contains("help: did you mean `user19990`?"),
        "{stderr}"
    );

    let people = roster(20_000).replace("members = [\"user00001\"]", "members = [\"usex00007\"]");
    let dir = book_root(&[("maintainers.toml", &people)]);
    let chapters = [("C", "c.md", "{{#maintainers}}\n")];
    let result = run(&request(Shape::V05, dir.path(), json!({}), &chapters));
    let stderr = result.messages();
    assert!(
        stderr.contains("lists `usex00007`, who is not in `people`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("help: did you mean `user00007`?"),
        "{stderr}"
    );
}

/// Broken anchors into a page of 8,000 headings: each gets its heading.
#[test]
fn broken_anchors_into_a_page_of_8000_headings_get_their_heading() {
    let mut text: String = (0..8_000)
        .map(|i| format!("## Heading number {i}\n\nText.\n\n"))
        .collect();
    for i in [0, 4_321, 7_999] {
        text.push_str(&format!("See [it](#heading-numbr-{i}).\n\n"));
    }
    text.push_str("See [it](#gone-5000).\n");
    let dir = book_root(&[]);
    let chapters = [("Big", "big.md", text.as_str())];
    let result = run(&request(Shape::V05, dir.path(), json!({}), &chapters));
    assert_eq!(result.code, 0, "warnings only: {}", result.stderr);
    let stderr = result.messages();
    for i in [0, 4_321, 7_999] {
        let help = format!("help: did you mean `#heading-number-{i}`?");
        assert!(stderr.contains(&help), "{help}: {stderr}");
    }
    // No near spelling: the heading sharing a word.
    assert!(
        stderr.contains("help: did you mean `#heading-number-5000`?"),
        "{stderr}"
    );
}

/// 3,000 chapters, each with a `{{#ref}}` to a mistyped chapter path, and
/// redirects to mistyped pages: each gets the chapter it meant, relative
/// to the chapter the link is in (the chapter paths are indexed once per
/// build, so each question compares a bounded number of them).
#[test]
fn mistyped_chapter_paths_in_a_book_of_3000_chapters_get_their_chapter() {
    let texts: Vec<(String, String, String)> = (0..3_000)
        .map(|i| {
            let target = (i + 1) % 3_000;
            (
                format!("Chapter {i}"),
                format!("part{}/chapter-{i:04}.md", i % 7),
                format!("{{{{#ref ../part{}/chaptr-{target:04}.md}}}}\n", target % 7),
            )
        })
        .collect();
    let chapters: Vec<(&str, &str, &str)> = (texts.iter())
        .map(|(n, p, t)| (n.as_str(), p.as_str(), t.as_str()))
        .collect();
    let dir = book_root(&[]);
    let config = json!({"output": {"html": {"redirect": {
        "/old-1234.html": "part2/chaptre-1234.html",
        "/old-0001.html": "part1/chapter-0001.html"
    }}}});
    let result = run(&request(Shape::V05, dir.path(), config, &chapters));
    assert_eq!(result.code, 1, "{}", result.stderr);
    let stderr = result.messages();
    for i in [0, 1_234, 2_999] {
        let target = (i + 1) % 3_000;
        let help = format!(
            "help: did you mean `../part{}/chapter-{target:04}.md`?",
            target % 7
        );
        assert!(stderr.contains(&help), "{help}: {stderr}");
    }
    assert_eq!(stderr.matches("help: did you mean `../part").count(), 3_000);
    assert!(
        stderr.contains("help: did you mean `part2/chapter-1234.html`?"),
        "{stderr}"
    );
}
