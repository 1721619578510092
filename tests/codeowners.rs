//! `{{#codeowners}}`: the table and per-path owners, with names from the
//! people data file.

mod common;

use common::{Shape, book_root, expand_one, request, run};
use insta::assert_snapshot;
use serde_json::json;

const CODEOWNERS: &str = "# Owners\n*       @soumith\n/docs/  @ezyang @pytorch/docs-team\n*.py    docs@example.com @unknown-login # inline comment\n/third_party/\n";
const PEOPLE: &str =
    "[people.soumith]\nname = \"Soumith Chintala\"\n\n[people.ezyang]\nname = \"Edward Yang\"\n";

#[test]
fn table_in_file_order_with_names_from_the_data_file() {
    let out = expand_one(
        &[
            (".github/CODEOWNERS", CODEOWNERS),
            ("maintainers.toml", PEOPLE),
        ],
        "{{#codeowners}}\n",
    );
    assert_snapshot!(out);
}

#[test]
fn owners_of_a_path_last_match_wins() {
    let files = [("CODEOWNERS", CODEOWNERS), ("maintainers.toml", PEOPLE)];
    assert_snapshot!(
        expand_one(&files, "README: {{#codeowners README.md}}. Docs: {{#codeowners docs/index.md}}. Tool: {{#codeowners tools/x.py}}. Vendored: {{#codeowners third_party/a/b.c}}.\n"),
        @"README: Soumith Chintala ([soumith](https://github.com/soumith)). Docs: Edward Yang ([ezyang](https://github.com/ezyang)) and [@pytorch/docs-team](https://github.com/orgs/pytorch/teams/docs-team). Tool: docs@example.com and [@unknown-login](https://github.com/unknown-login). Vendored: no code owner."
    );
}

#[test]
fn works_without_a_people_file() {
    let out = expand_one(&[("CODEOWNERS", "* @a @b\n")], "{{#codeowners x}}\n");
    assert_eq!(
        out,
        "[@a](https://github.com/a) and [@b](https://github.com/b)\n"
    );
}

#[test]
fn found_in_the_parent_folder() {
    let dir = book_root(&[("CODEOWNERS", "* @root-owner\n"), ("docs/book.toml", "")]);
    let result = run(&request(
        Shape::V05,
        &dir.path().join("docs"),
        json!({}),
        &[("A", "a.md", "{{#codeowners a}}")],
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_eq!(
        result.contents(Shape::V05)[0],
        "[@root-owner](https://github.com/root-owner)"
    );
}

/// `codeowners = "path"` wins over the files looked for by default.
#[test]
fn configured_path_is_used() {
    let dir = book_root(&[
        ("CODEOWNERS", "* @default-owner\n"),
        ("meta/OWNERS.txt", "* @configured-owner\n"),
    ]);
    let config = json!({"preprocessor": {"community": {"codeowners": "meta/OWNERS.txt"}}});
    let result = run(&request(
        Shape::V04,
        dir.path(),
        config,
        &[("A", "a.md", "{{#codeowners a}}")],
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_eq!(
        result.contents(Shape::V04)[0],
        "[@configured-owner](https://github.com/configured-owner)"
    );
}

/// In one folder the file GitHub uses wins: `.github/`, then the root, then
/// `docs/`.
#[test]
fn githubs_file_wins_when_there_are_several() {
    for (files, expected) in [
        (
            vec![
                ("docs/CODEOWNERS", "* @docs\n"),
                ("CODEOWNERS", "* @root\n"),
                (".github/CODEOWNERS", "* @github\n"),
            ],
            "[@github](https://github.com/github)",
        ),
        (
            vec![
                ("docs/CODEOWNERS", "* @docs\n"),
                ("CODEOWNERS", "* @root\n"),
            ],
            "[@root](https://github.com/root)",
        ),
        (
            vec![("docs/CODEOWNERS", "* @docs\n")],
            "[@docs](https://github.com/docs)",
        ),
    ] {
        let dir = book_root(&files);
        let result = run(&request(
            Shape::V05,
            dir.path(),
            json!({}),
            &[("A", "a.md", "{{#codeowners a}}")],
        ));
        assert_eq!(result.code, 0, "{}", result.stderr);
        assert_eq!(result.contents(Shape::V05)[0], expected);
    }
}

#[test]
fn missing_file_and_bad_arguments() {
    let dir = book_root(&[]);
    let result = run(&request(
        Shape::V05,
        dir.path(),
        json!({}),
        &[("A", "a.md", "{{#codeowners}}\n\n{{#codeowners a b}}\n")],
    ));
    assert_eq!(result.code, 1);
    let stderr = result
        .stderr
        .replace(&dir.path().display().to_string(), "<root>");
    assert!(
        stderr.contains(
            "no CODEOWNERS file: looked for <root>/.github/CODEOWNERS, <root>/CODEOWNERS"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("takes one path"), "{stderr}");
}

#[test]
fn invalid_lines_warn_and_are_skipped_like_github() {
    let dir = book_root(&[("CODEOWNERS", "!negated @a\n* @b\n")]);
    let result = run(&request(
        Shape::V05,
        dir.path(),
        json!({}),
        &[("A", "a.md", "{{#codeowners x}}")],
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(result.messages().contains("warning:"), "{}", result.stderr);
    assert!(
        result.messages().contains("CODEOWNERS:1:1"),
        "{}",
        result.stderr
    );
    assert_eq!(result.contents(Shape::V05)[0], "[@b](https://github.com/b)");
}

/// Real GitLab CODEOWNERS files with sections (tests/data/gitlab-codeowners)
/// read with no problem at all, each rule in its section.
#[test]
fn real_gitlab_files_read_without_error() {
    use mdbook_community::testing::{CodeOwners, SourceFile};
    use std::sync::Arc;
    for (name, sections, rules) in [("nvidia-warp", 12, 64), ("kicad", 2, 24)] {
        let path = format!(
            "{}/tests/data/gitlab-codeowners/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("the file");
        let file = Arc::new(SourceFile::new(".gitlab/CODEOWNERS".into(), text));
        let (owners, found) = CodeOwners::parse(file);
        assert!(found.is_empty(), "{name}: {found:?}");
        assert_eq!(owners.sections().len(), sections, "{name}");
        assert_eq!(owners.rules().len(), rules, "{name}");
        assert!(
            owners.rules().iter().all(|r| !r.owners.is_empty()),
            "{name}: default owners"
        );
    }
}

/// The Code owners table of a GitLab file: a row per section, named as
/// written, optional and approvals said; owners as text (not GitHub links).
#[test]
fn gitlab_sections_make_the_tables_rows() {
    let gitlab = "* @all\n\n^[Docs][2] @docs-team\n/docs/\n\n[Backend]\n*.rs @rust @@maintainer\n";
    let out = expand_one(
        &[(".gitlab/CODEOWNERS", gitlab)],
        "{{#codeowners}}\n\nDocs: {{#codeowners docs/a.md}}.\n",
    );
    assert!(out.contains("**Docs (optional) (2 approvals)**"), "{out}");
    assert!(out.contains("**Backend**"), "{out}");
    assert!(!out.contains("github.com"), "{out}");
    assert!(out.contains("Docs: @all and @docs-team."), "{out}");
}
