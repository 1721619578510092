//! `mdbook-community roster`: the merged roster a build reads, as people,
//! as the stable JSON shape (snapshots), and as a `maintainers.toml` that
//! reads back as the same roster.

mod common;

use std::path::Path;

use common::book_root;
use serde_json::Value;

const MAINTAINERS_MD: &str = "\
# Maintainers

| Name | GitHub | Company | Status |
|---|---|---|---|
| Ada Lovelace | [ada](https://github.com/ada) | Engines Ltd | |
| Bob Babbage | @bob | | Emeritus |

Team: @example/maintainers

## Reviewers

* Carol Hopper ([carol](https://github.com/carol)) carol@example.com
  - Area: compilers
* Martin J. Dürst
";

/// Runs `roster` in `root` with `args`; (exit code, stdout, stderr).
fn roster(root: &Path, args: &[&str]) -> (i32, String, String) {
    let output = common::bin()
        .arg("roster")
        .arg(root)
        .args(args)
        .env("NO_COLOR", "1")
        .current_dir(root)
        .output()
        .expect("runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn markdown_book() -> tempfile::TempDir {
    book_root(&[
        (
            "book.toml",
            "[book]\ntitle = \"T\"\n\n[preprocessor.community]\npeople = \"MAINTAINERS.md\"\n",
        ),
        ("MAINTAINERS.md", MAINTAINERS_MD),
    ])
}

#[test]
fn the_json_shape_is_stable() {
    let book = markdown_book();
    let (code, stdout, stderr) = roster(book.path(), &["--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let value: Value = serde_json::from_str(&stdout).expect("JSON");
    let pretty = serde_json::to_string_pretty(&value).expect("JSON");
    insta::assert_snapshot!("roster_json", pretty);
}

#[test]
fn the_human_listing() {
    let book = markdown_book();
    let (code, stdout, stderr) = roster(book.path(), &[]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("roster_human", stdout);
}

#[test]
fn the_toml_is_a_maintainers_toml() {
    let book = markdown_book();
    let (code, stdout, stderr) = roster(book.path(), &["--format", "toml"]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("roster_toml", stdout);
}

/// The JSON without the places (a converted roster is read from another
/// file).
fn without_sources(mut value: Value) -> Value {
    for list in ["people", "groups"] {
        for item in value[list].as_array_mut().expect("a list") {
            item.as_object_mut().expect("an object").remove("source");
        }
    }
    value
}

/// `--format toml`, used as the people file, gives the same roster: for
/// a roster from each format.
#[test]
fn the_toml_reads_back_as_the_same_roster() {
    let sources: [(&str, &str, &str); 4] = [
        ("MAINTAINERS.md", MAINTAINERS_MD, "\"MAINTAINERS.md\""),
        (
            "OWNERS",
            "approvers:\n  - ada\n  - bob\nreviewers:\n  - carol\nemeritus_approvers:\n  - dan\n",
            "[{ path = \"OWNERS\", prefix = \"docs\" }]",
        ),
        (
            ".all-contributorsrc",
            r#"{"contributors": [{"login": "ada", "name": "Ada Lovelace", "profile": "https://ada.dev", "contributions": ["code", "doc"]}]}"#,
            "\".all-contributorsrc\"",
        ),
        (
            "MAINTAINERS",
            "# COMMITTERS\n\"ada\",\"Ada Lovelace\",\"ada@example.com\"\n# REVIEWERS\n\"bob\",\"Bob B\",\"\"\n",
            "\"MAINTAINERS\"",
        ),
    ];
    for (file, text, people) in sources {
        let toml =
            format!("[book]\ntitle = \"T\"\n\n[preprocessor.community]\npeople = {people}\n");
        let original = book_root(&[("book.toml", &toml), (file, text)]);
        let (code, converted, stderr) = roster(original.path(), &["--format", "toml"]);
        assert_eq!(code, 0, "{file}: {stderr}");
        let again = book_root(&[
            (
                "book.toml",
                "[book]\ntitle = \"T\"\n\n[preprocessor.community]\n",
            ),
            ("maintainers.toml", &converted),
        ]);
        let json = |root: &Path| {
            let (code, stdout, stderr) = roster(root, &["--format", "json"]);
            assert_eq!(code, 0, "{file}: {stderr}\n{converted}");
            without_sources(serde_json::from_str(&stdout).expect("JSON"))
        };
        assert_eq!(
            json(original.path()),
            json(again.path()),
            "{file}:\n{converted}"
        );
    }
}

#[test]
fn what_cannot_run_or_read_is_said() {
    let empty = tempfile::tempdir().expect("tempdir");
    let (code, _, stderr) = roster(empty.path(), &[]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("error[C003]") && stderr.contains("no book.toml"),
        "{stderr}"
    );
    let broken = book_root(&[
        (
            "book.toml",
            "[book]\n[preprocessor.community]\npeople = \"maintainers.toml\"\n",
        ),
        ("maintainers.toml", "[people.ada]\nnmae = \"Ada\"\n"),
    ]);
    let (code, stdout, stderr) = roster(broken.path(), &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stderr.contains("unknown key `nmae`"), "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    // Warnings are printed, and the roster too.
    let warned = book_root(&[
        (
            "book.toml",
            "[book]\n[preprocessor.community]\npeople = \"MAINTAINERS.md\"\n",
        ),
        (
            "MAINTAINERS.md",
            "* [Ada] (https://github.com/ada)\n* @bob\n",
        ),
    ]);
    let (code, stdout, stderr) = roster(warned.path(), &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("warning[C208]") && stderr.contains("MAINTAINERS.md:1:3"),
        "{stderr}"
    );
    assert!(stdout.contains("@bob"), "{stdout}");
}

/// Issue 38 (10): a Markdown roster is read without smart punctuation,
/// whatever the book's setting: `--`, `'`, `"` and `...` in names and
/// e-mails reach the roster (and `roster --format toml`) as written.
#[test]
fn a_markdown_roster_is_read_without_smart_punctuation() {
    let people = "# Maintainers\n\n\
* Jo D'Angelo (@jo) first--last@example.com\n";
    for html in ["", "\n[output.html]\nsmart-punctuation = true\n"] {
        let book = book_root(&[
            (
                "book.toml",
                &format!(
                    "[book]\ntitle = \"T\"\n\n[preprocessor.community]\npeople = \"MAINTAINERS.md\"\n{html}"
                ),
            ),
            ("MAINTAINERS.md", people),
        ]);
        for format in ["json", "toml"] {
            let (code, stdout, stderr) = roster(book.path(), &["--format", format]);
            assert_eq!(code, 0, "{stderr}");
            for written in ["first--last@example.com", "Jo D'Angelo"] {
                assert!(stdout.contains(written), "{written} in {html:?}: {stdout}");
            }
            for smart in ['–', '’'] {
                assert!(!stdout.contains(smart), "{smart} in {html:?}: {stdout}");
            }
        }
    }
}
