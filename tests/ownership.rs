//! Who owns what in a build: `{{#codeowners coverage}}`, the Kubernetes
//! OWNERS tree behind every form of `{{#codeowners}}` and the drift check,
//! `ownership` chosen by default or by setting, C405 and `unowned`.

mod common;

use std::path::Path;

use common::{RunResult, Shape, request, run};
use serde_json::{Value, json};

/// A repository (a `.git` folder; git cannot list this one, so its files
/// are the folder's) holding `files`, with its book in `book/`.
fn repository(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let base = [
        (".git/HEAD", "ref: refs/heads/main\n"),
        ("book/src/SUMMARY.md", ""),
    ];
    for (path, text) in base.iter().chain(files) {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().expect("a folder")).expect("writable");
        std::fs::write(full, text).expect("writable");
    }
    dir
}

fn build(repo: &Path, settings: Value, chapter: &str) -> RunResult {
    let config = json!({"preprocessor": {"community": settings}});
    run(&request(
        Shape::V05,
        &repo.join("book"),
        config,
        &[("Chapter", "chapter.md", chapter)],
    ))
}

fn expanded(repo: &Path, settings: Value, chapter: &str) -> (String, String) {
    let result = build(repo, settings, chapter);
    assert_eq!(result.code, 0, "{}", result.stderr);
    (result.contents(Shape::V05).remove(0), result.stderr)
}

/// The page as HTML (tables on, as mdBook renders them).
fn html_of(markdown: &str) -> String {
    let parser = pulldown_cmark::Parser::new_ext(markdown, pulldown_cmark::Options::ENABLE_TABLES);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, parser);
    html
}

const PEOPLE: &str = r#"
[people.ada]
name = "Ada Lovelace"

[people.alan]
name = "Alan Turing"

[people.grace]
name = "Grace Hopper"

[[groups]]
id = "core"
title = "Core Maintainers"
github-team = "acme/core"
members = ["ada", "grace", { handle = "alan", status = "emeritus" }]
"#;

fn codeowners_repository() -> tempfile::TempDir {
    repository(&[
        (
            "CODEOWNERS",
            "*  @acme/core\n/docs/ @alan\n/src/gen/\n/src/ @ada\n/src/gen/\n",
        ),
        ("book/maintainers.toml", PEOPLE),
        ("src/main.rs", ""),
        ("src/lib.rs", ""),
        ("src/gen/a.rs", ""),
        ("src/gen/b.rs", ""),
        ("docs/guide.md", ""),
        ("docs/<img src=x onerror=alert(1)>/x.md", ""),
        ("README.md", ""),
    ])
}

#[test]
fn coverage_renders_folders_shares_owners_and_one_sentence() {
    let repo = codeowners_repository();
    let (page, stderr) = expanded(
        repo.path(),
        json!({"check-owners": "off"}),
        "# Coverage\n\n{{#codeowners coverage}}\n\nTop level:\n\n{{#codeowners coverage depth=1}}\n",
    );
    assert!(stderr.is_empty(), "{stderr}");
    insta::assert_snapshot!("coverage_markdown", page);
    let html = html_of(&page);
    // Data is text: the folder's name is not markup.
    assert!(
        html.contains("<code>docs/&lt;img src=x onerror=alert(1)&gt;/</code>"),
        "{html}"
    );
    assert!(!html.contains("<img"), "{html}");
}

/// Kubernetes-style: no CODEOWNERS, OWNERS files from the root down,
/// OWNERS_ALIASES, and a roster read from them.
fn owners_repository() -> tempfile::TempDir {
    repository(&[
        (
            "OWNERS",
            "approvers:\n  - core-leads\nreviewers:\n  - grace\n",
        ),
        (
            "OWNERS_ALIASES",
            "aliases:\n  core-leads:\n    - ada\n    - grace\n",
        ),
        (
            "pkg/OWNERS",
            "filters:\n  \".*\":\n    approvers:\n      - alan\n  \"\\\\.go$\":\n    approvers:\n      - gopher\n",
        ),
        ("pkg/a.go", ""),
        ("pkg/b.txt", ""),
        (
            "vendor/OWNERS",
            "options:\n  no_parent_owners: true\napprovers:\n  - alan\n  - \"<img src=x onerror=alert(1)>\"\n",
        ),
        ("vendor/x.c", ""),
        ("book/maintainers.toml", PEOPLE),
    ])
}

#[test]
fn every_form_of_the_directive_reads_an_owners_tree() {
    let repo = owners_repository();
    let chapter = "# Owners\n\n{{#codeowners}}\n\nGo code: {{#codeowners pkg/a.go}}.\n\nPeople: {{#codeowners pkg/a.go members}}.\n\n{{#codeowners coverage}}\n";
    let (page, stderr) = expanded(repo.path(), json!({"check-owners": "off"}), chapter);
    // Issue 38 (19): an entry that cannot be a login is not an owner.
    assert!(
        stderr.contains(
            "warning[C203]: `approvers` must be a list of logins: `<img src=x onerror=alert(1)>` is not a login"
        ),
        "{stderr}"
    );
    assert_eq!(stderr.matches("warning[").count(), 1, "{stderr}");
    insta::assert_snapshot!("owners_tree_markdown", page);
    let html = html_of(&page);
    assert!(!html.contains("<img"), "{html}");
}

#[test]
fn the_drift_check_reads_an_owners_tree_and_reports_each_finding_once() {
    let repo = repository(&[
        (
            "OWNERS",
            "approvers:\n  - alan\n  - stranger\nreviewers:\n  - aliased\n",
        ),
        (
            "OWNERS_ALIASES",
            "aliases:\n  aliased:\n    - alan\n    - gracee\n",
        ),
        ("a/OWNERS", "approvers:\n  - ada\nreviewers:\n  - alan\n"),
        ("b/OWNERS", "reviewers:\n  - alan\n"),
        ("book/maintainers.toml", PEOPLE),
    ]);
    let result = build(repo.path(), json!({}), "Plain.\n");
    assert_eq!(result.code, 0, "{}", result.stderr);
    let stderr = result.messages();
    // `@alan` is inactive in three OWNERS files and OWNERS_ALIASES: once.
    assert_eq!(
        stderr.matches("`@alan` no longer serves").count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("OWNERS:2:5\n"), "{stderr}");
    assert!(
        // Other places are named as the repository names them, whatever
        // the book's folder (issue 36).
        stderr.contains("note: also in a/OWNERS:4, b/OWNERS:2, OWNERS_ALIASES:3"),
        "{stderr}"
    );
    assert!(
        stderr.contains("`@stranger` is in no roster source"),
        "{stderr}"
    );
    // An alias's members are checked where OWNERS_ALIASES lists them.
    assert!(
        stderr.contains("`@gracee` is in no roster source"),
        "{stderr}"
    );
    assert!(stderr.contains("help: did you mean `@grace`?"), "{stderr}");
    // The root's approvers are inactive or unknown, and the unknown one is
    // reported above: no C404, a follow-on counted in one note.
    assert!(
        !stderr.contains("these paths have no active code owner"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "note: 1 OWNERS approver list is owned only by the owners reported above\n  --> "
        ) && stderr.contains("OWNERS:1:1\n"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("warning:").count(), 3, "{stderr}");
}

/// An OWNERS file whose approvers have all left (inactive in the roster),
/// in a folder no parent's approver reaches (`no_parent_owners`): C404 at
/// its `approvers` key, as for a CODEOWNERS rule. As Prow reads the tree,
/// a parent's active approver still applies, and an empty alias adds
/// nobody and removes nobody: no C404 for either.
#[test]
fn approvers_who_have_all_left_are_c404_only_when_no_approver_applies() {
    let repo = repository(&[
        ("OWNERS", "approvers:\n  - ada\n"),
        (
            "old/OWNERS",
            "options:\n  no_parent_owners: true\napprovers:\n  - alan\n",
        ),
        ("inherits/OWNERS", "approvers:\n  - alan\n"),
        ("empty/OWNERS", "approvers:\n  - nobody-yet\n"),
        ("OWNERS_ALIASES", "aliases:\n  nobody-yet: []\n"),
        ("book/maintainers.toml", PEOPLE),
    ]);
    let result = build(repo.path(), json!({}), "Plain.\n");
    assert_eq!(result.code, 0, "{}", result.stderr);
    let stderr = result.messages();
    assert!(
        stderr.contains("warning: these paths have no active code owner\n  --> ")
            && stderr.contains("old/OWNERS:3:1\n"),
        "{stderr}"
    );
    assert_eq!(
        stderr
            .matches("these paths have no active code owner")
            .count(),
        1,
        "{stderr}"
    );
    assert!(!stderr.contains("owned only by"), "{stderr}");
}

#[test]
fn ownership_is_codeowners_when_found_else_owners_files_or_as_set() {
    let tree = "approvers:\n  - from-owners\n";
    let codeowners = "* @from-codeowners\n";
    let both = repository(&[("OWNERS", tree), ("CODEOWNERS", codeowners), ("x", "")]);
    let owners_only = repository(&[("OWNERS", tree), ("x", "")]);
    let chapter = "{{#codeowners x}}\n";
    let cases = [
        (&both, json!({}), "from-codeowners"),
        (&both, json!({"ownership": "owners"}), "from-owners"),
        (&owners_only, json!({}), "from-owners"),
        (
            &owners_only,
            json!({"ownership": "codeowners"}),
            "no CODEOWNERS file",
        ),
    ];
    for (repo, settings, expected) in cases {
        let result = build(repo.path(), settings.clone(), chapter);
        let all = format!("{}{}", result.stdout, result.stderr);
        assert!(all.contains(expected), "{settings}: {all}");
    }
}

#[test]
fn a_rule_matching_nothing_is_reported_for_the_repositorys_codeowners_only() {
    let files = [("CODEOWNERS", "* @ada\n/gone/ @ada\n"), ("src/a.rs", "")];
    let repo = repository(&files);
    let result = build(repo.path(), json!({}), "Plain.\n");
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(
        result
            .messages()
            .contains("warning: the pattern `/gone/` matches no file in the repository\n  --> "),
        "{}",
        result.stderr
    );
    // A CODEOWNERS the book keeps for itself is not the repository's.
    let repo = repository(&[
        ("book/CODEOWNERS", "* @ada\n/gone/ @ada\n"),
        ("src/a.rs", ""),
    ]);
    let result = build(repo.path(), json!({}), "Plain.\n");
    assert!(result.stderr.is_empty(), "{}", result.stderr);
    // `check-owners = "error"` makes it an error.
    let repo = repository(&files);
    let result = build(repo.path(), json!({"check-owners": "error"}), "Plain.\n");
    assert_eq!(result.code, 1, "{}", result.stderr);
}

#[test]
fn unowned_is_off_by_default_and_fails_the_build_as_an_error() {
    let repo = codeowners_repository();
    let result = build(repo.path(), json!({}), "Plain.\n");
    assert!(
        !result.stderr.contains("no active owner"),
        "{}",
        result.stderr
    );
    let result = build(repo.path(), json!({"unowned": "error"}), "Plain.\n");
    assert_eq!(result.code, 1, "{}", result.stderr);
    let stderr = result.messages();
    assert!(
        stderr.contains("error: 4 of the repository's 10 files have no active owner"),
        "{stderr}"
    );
    assert!(stderr.contains("note: `src/gen/`: all 2 files"), "{stderr}");
}

/// An OWNERS file that is both a people source and part of the tree is
/// read once, and its problem reported once: as the roster's error.
#[test]
fn an_owners_file_that_is_also_a_people_source_is_reported_once() {
    let repo = repository(&[
        ("OWNERS", "approvers: ada\n"),
        ("pkg/OWNERS", "approvers:\n  - ada\n"),
        ("pkg/a.rs", ""),
    ]);
    let settings = json!({
        "people": [{"path": "../OWNERS", "format": "owners", "prefix": "root"}],
        "ownership": "owners",
    });
    let result = build(repo.path(), settings, "{{#codeowners pkg/a.rs}}\n");
    assert_eq!(result.code, 1, "{}", result.stderr);
    let stderr = result.messages();
    assert_eq!(
        stderr
            .matches("`approvers` must be a list of logins, found a string")
            .count(),
        1,
        "{stderr}"
    );
}

/// Issue 38 (2): data files that are symbolic links out of the repository
/// (OWNERS, a folder's OWNERS, CODEOWNERS, `maintainers.toml`,
/// CONTRIBUTING.md) are never followed: the build says so, at the file,
/// and quotes nothing of what they lead to.
#[cfg(unix)]
#[test]
fn data_files_linked_out_of_the_repository_are_never_read() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().expect("tempdir");
    let secret = outside.path().join("environ");
    std::fs::write(
        &secret,
        "MY_SECRET_TOKEN=s3cr3t\nroot:x:0:0:root:/root:/bin/bash\n",
    )
    .expect("write");
    let chapter = "# Owners\n\n{{#codeowners}}\n\n{{#maintainers}}\n\n{{#contributing}}\n";
    for (links, settings) in [
        (
            &["OWNERS", "pkg/OWNERS", "book/maintainers.toml"][..],
            json!({}),
        ),
        (
            &["CODEOWNERS", "book/maintainers.toml", "CONTRIBUTING.md"][..],
            json!({"contributing": "../CONTRIBUTING.md"}),
        ),
    ] {
        let repo = repository(&[("pkg/a.rs", ""), ("pkg/OWNERS", "approvers:\n  - ada\n")]);
        for link in links {
            let at = repo.path().join(link);
            let _ = std::fs::remove_file(&at);
            symlink(&secret, &at).expect("symlink");
        }
        // Tracked by git, as in a pull request (a folder's walk lists no
        // link).
        std::fs::remove_dir_all(repo.path().join(".git")).expect("rm");
        for args in [&["init", "-q"][..], &["add", "-A"][..]] {
            let status = std::process::Command::new("git")
                .args(args)
                .current_dir(repo.path())
                .output()
                .expect("git runs");
            assert!(status.status.success(), "{status:?}");
        }
        let result = build(repo.path(), settings, chapter);
        let stderr = result.messages();
        assert!(!stderr.contains("s3cr3t"), "{stderr}");
        assert!(!stderr.contains("environ"), "{stderr}");
        assert!(!stderr.contains("/bin/bash"), "{stderr}");
        assert!(!stderr.contains("MY_SECRET"), "{stderr}");
        assert!(!result.stdout.contains("MY_SECRET"), "{}", result.stdout);
        for link in links {
            let name = link.trim_start_matches("book/");
            assert!(
                stderr.contains(&format!("{name} is a symbolic link out of the repository")),
                "{name}: {stderr}"
            );
        }
        assert!(
            stderr.contains("is a symbolic link out of the repository, which is never followed"),
            "{stderr}"
        );
    }
}

/// Issue 38 (19): an OWNERS entry that cannot be a login is skipped with
/// one warning, also when the file is both a people source and part of
/// the tree; it is neither an owner nor a person.
#[test]
fn an_owners_entry_that_cannot_be_a_login_is_one_warning() {
    let repo = repository(&[
        (
            "OWNERS",
            "approvers:\n  - ada\n  - \"{{#title Owned}}\"\n  - \"alice smith\"\n",
        ),
        ("pkg/a.rs", ""),
    ]);
    let settings = json!({
        "people": [{"path": "../OWNERS", "format": "owners", "prefix": "root"}],
        "ownership": "owners",
    });
    let result = build(
        repo.path(),
        settings,
        "{{#codeowners pkg/a.rs}}\n\n{{#maintainers}}\n",
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    let stderr = result.messages();
    for entry in ["{{#title Owned}}", "alice smith"] {
        let warning = format!("`approvers` must be a list of logins: `{entry}` is not a login");
        assert_eq!(stderr.matches(&warning).count(), 1, "{stderr}");
    }
    let page = result.contents(Shape::V05).remove(0);
    assert!(!page.contains("alice smith"), "{page}");
    assert!(!page.contains("Owned"), "{page}");
}

/// `min-owners = 2`: the files with fewer than two active owners, summed by
/// folder in one warning (C409), a team counted as its serving members; the
/// build goes on. The output is the error reference's example.
#[test]
fn min_owners_reports_folders_with_too_few_active_owners() {
    let repo = repository(&[
        (
            "CODEOWNERS",
            "*  @acme/core\n/docs/ @alan\n/src/gen/ @ada\n",
        ),
        ("book/maintainers.toml", PEOPLE),
        ("src/main.rs", ""),
        ("src/gen/one.rs", ""),
        ("src/gen/two.rs", ""),
        ("docs/a.md", ""),
        ("README.md", ""),
    ]);
    let result = build(repo.path(), json!({"min-owners": 2}), "Plain.\n");
    assert_eq!(result.code, 0, "{}", result.stderr);
    let stderr = result
        .stderr
        .replace(&format!("{}/", repo.path().display()), "");
    let start = stderr.find("warning[C409]").expect("a C409 warning");
    let shown: Vec<&str> = stderr[start..]
        .lines()
        .take_while(|l| !l.is_empty())
        .collect();
    let shown = shown.join("\n");
    // Files under `*` (the team `acme/core`: Ada and Grace serve, Alan has
    // left) have two; `/docs/` has none and `/src/gen/` one.
    assert!(
        shown.contains("3 of the repository's 8 files have fewer than 2"),
        "{shown}"
    );
    assert!(shown.contains("`src/gen/`: all 2 files") && shown.contains("`docs/`: its one file"));
    let reference = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/book/errors.md"))
        .expect("book/errors.md");
    assert!(
        reference.contains(&shown),
        "book/errors.md does not show:\n{shown}"
    );
}

/// The Code owners table marks the repository's own rules that match no
/// file (issue 36, 5).
#[test]
fn the_table_marks_rules_that_match_no_file() {
    let repo = repository(&[
        ("CODEOWNERS", "*  @ada\n/renamed.rs @grace\n/src/ @alan\n"),
        ("book/maintainers.toml", PEOPLE),
        ("src/main.rs", ""),
    ]);
    let (page, _) = expanded(
        repo.path(),
        json!({"check-owners": "off"}),
        "{{#codeowners}}\n",
    );
    let rows: Vec<&str> = page.lines().filter(|l| l.starts_with('|')).collect();
    let marked: Vec<&&str> = rows
        .iter()
        .filter(|r| r.contains("matches no file"))
        .collect();
    assert_eq!(marked.len(), 1, "{page}");
    assert!(marked[0].contains("/renamed.rs"), "{page}");
}
