//! `mdbook-community init`: a community book for a repository, from each
//! kind of people file, that builds with real mdBook 0.5 and 0.4 with no
//! warning but real drift, lists everyone, and is never written twice.

mod common;

use std::path::Path;
use std::process::Command;

use common::mdbook::Mdbook;

/// A repository holding `files` (and `.git`).
fn repository(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = common::book_root(files);
    std::fs::create_dir_all(dir.path().join(".git")).expect("mkdir");
    dir
}

/// `init` run in `dir` with `args`: (exit code, stdout, stderr).
fn init(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = common::bin()
        .arg("init")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Every file under `dir` with its bytes, sorted.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).expect("readable") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path
                    .strip_prefix(dir)
                    .expect("inside")
                    .display()
                    .to_string();
                out.push((name, std::fs::read(&path).expect("readable")));
            }
        }
    }
    out.sort();
    out
}

const CONTRIBUTING: &str = "# Contributing\n\n## Testing\n\nRun `cargo test`.\n";
const CODEOWNERS: &str = "* @ada\n/docs/ @bob\n";

/// A README whose people are in sections of it (issue 34).
const README_WITH_PEOPLE: &str = "\
# Project

A [feature](https://example.com) table:

| Feature | Status |
|---|---|
| Fast | done |

## Contributing

### Maintainers

- Ada Lovelace (@ada)

### Emeritus

- Bob Babbage ([bob](https://github.com/bob))

### Code of conduct

Be kind.
";

/// A kind of people file: its name, the repository's files, the names
/// its book's people page shows.
type Kind = (
    &'static str,
    Vec<(&'static str, &'static str)>,
    &'static [&'static str],
);

/// One repository per kind of people file, and the people its book lists.
fn kinds() -> Vec<Kind> {
    vec![
        (
            "MAINTAINERS.md",
            vec![(
                "MAINTAINERS.md",
                "# Maintainers\n\n* Ada Lovelace (@ada)\n* Bob Babbage (@bob)\n",
            )],
            &["Ada Lovelace", "Bob Babbage"],
        ),
        (
            "OWNERS.md",
            vec![(
                "OWNERS.md",
                "| Name | GitHub |\n|---|---|\n| Ada Lovelace | [ada](https://github.com/ada) |\n| Bob Babbage | @bob |\n",
            )],
            &["Ada Lovelace", "Bob Babbage"],
        ),
        (
            "OWNERS and OWNERS_ALIASES",
            vec![
                ("OWNERS", "approvers:\n  - leads\nreviewers:\n  - bob\n"),
                ("OWNERS_ALIASES", "aliases:\n  leads:\n    - ada\n"),
            ],
            &["ada", "bob"],
        ),
        (
            ".all-contributorsrc",
            vec![(
                ".all-contributorsrc",
                r#"{"contributors": [{"login": "ada", "name": "Ada Lovelace", "contributions": ["code"]}, {"login": "bob", "name": "Bob Babbage", "contributions": ["doc"]}]}"#,
            )],
            &["Ada Lovelace", "Bob Babbage"],
        ),
        (
            "MAINTAINERS",
            vec![(
                "MAINTAINERS",
                "# COMMITTERS\n\"ada\",\"Ada Lovelace\",\"ada@example.com\"\n\"bob\",\"Bob Babbage\",\"\"\n",
            )],
            &["Ada Lovelace", "Bob Babbage"],
        ),
        (
            "README section",
            vec![("README.md", README_WITH_PEOPLE)],
            &["Ada Lovelace", "Bob Babbage"],
        ),
        (
            "rust-lang/team",
            vec![
                (
                    "people/ada.toml",
                    "name = \"Ada Lovelace\"\ngithub = \"ada\"\n",
                ),
                (
                    "people/bob.toml",
                    "name = \"Bob Babbage\"\ngithub = \"bob\"\n",
                ),
                (
                    "teams/core.toml",
                    "name = \"core\"\n\n[people]\nleads = [\"ada\"]\nmembers = [\"ada\", \"bob\"]\n",
                ),
            ],
            &["Ada Lovelace", "Bob Babbage"],
        ),
    ]
}

#[test]
fn init_builds_with_every_kind_of_people_file_and_never_writes_twice() {
    for (kind, people, names) in kinds() {
        let mut files = people.clone();
        files.extend([
            ("CONTRIBUTING.md", CONTRIBUTING),
            (".github/CODEOWNERS", CODEOWNERS),
        ]);
        let repo = repository(&files);
        let (code, stdout, stderr) = init(repo.path(), &[]);
        assert_eq!(code, 0, "{kind}: {stderr}");
        assert!(
            stdout.contains("next: mdbook build docs"),
            "{kind}: {stdout}"
        );
        let book = repo.path().join("docs");
        let made = snapshot(repo.path());
        // A second run changes nothing, and says so.
        let (code, _, stderr) = init(repo.path(), &[]);
        assert_eq!(code, 1, "{kind}");
        assert!(
            stderr.contains("exists already") && stderr.contains("nothing changed"),
            "{stderr}"
        );
        assert_eq!(
            snapshot(repo.path()),
            made,
            "{kind}: a second run changed files"
        );
        let include = std::fs::read_to_string(book.join("src/contributing.md")).expect("chapter");
        assert_eq!(include, "{{#include ../../CONTRIBUTING.md}}\n", "{kind}");
        for mdbook in Mdbook::all() {
            let output = Command::new(mdbook.binary())
                .arg("build")
                .current_dir(&book)
                .env(
                    "MDBOOK_PREPROCESSOR__COMMUNITY__COMMAND",
                    env!("CARGO_BIN_EXE_mdbook-community"),
                )
                .env_remove("GITHUB_ACTIONS")
                .output()
                .expect("mdbook runs");
            let log = String::from_utf8_lossy(&output.stderr);
            assert!(output.status.success(), "{kind}, {mdbook:?}:\n{log}");
            let ours: Vec<&str> = log
                .lines()
                .filter(|l| l.starts_with("warning[") || l.starts_with("error["))
                .collect();
            assert!(ours.is_empty(), "{kind}, {mdbook:?}: {ours:?}\n{log}");
            let page = std::fs::read_to_string(book.join("book/maintainers.html")).expect("page");
            for name in names {
                assert!(page.contains(name), "{kind}, {mdbook:?}: no {name}");
            }
            let guide = std::fs::read_to_string(book.join("book/contributing.html")).expect("page");
            assert!(
                guide.contains("Run <code>cargo test</code>"),
                "{kind}, {mdbook:?}"
            );
            assert!(book.join("book/code-owners.html").is_file());
            std::fs::remove_dir_all(book.join("book")).expect("removable");
        }
    }
}

#[test]
fn init_refuses_a_folder_that_exists_and_writes_where_asked() {
    let repo = repository(&[("docs/notes.md", "mine\n"), ("MAINTAINERS.md", "* @ada\n")]);
    let before = snapshot(repo.path());
    let (code, stdout, stderr) = init(repo.path(), &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stderr.contains("docs exists already"), "{stderr}");
    assert_eq!(snapshot(repo.path()), before);
    // Another folder, from a folder inside the repository.
    std::fs::create_dir_all(repo.path().join("sub")).expect("mkdir");
    let (code, stdout, stderr) = init(&repo.path().join("sub"), &["community"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("community"), "{stdout}");
    let toml =
        std::fs::read_to_string(repo.path().join("sub/community/book.toml")).expect("book.toml");
    assert!(
        toml.contains("people = [\"../../MAINTAINERS.md\"]"),
        "{toml}"
    );
    // No CODEOWNERS, no CONTRIBUTING: no pages for them.
    assert!(
        !repo
            .path()
            .join("sub/community/src/code-owners.md")
            .exists()
    );
    assert!(
        !repo
            .path()
            .join("sub/community/src/contributing.md")
            .exists()
    );
}

#[test]
fn init_without_people_files_writes_an_empty_roster_that_builds() {
    let repo = repository(&[("README.md", "# Widgets\n")]);
    let (code, _, stderr) = init(repo.path(), &[]);
    assert_eq!(code, 0, "{stderr}");
    let book = repo.path().join("docs");
    assert!(book.join("maintainers.toml").is_file());
    for mdbook in Mdbook::all() {
        let output = Command::new(mdbook.binary())
            .arg("build")
            .current_dir(&book)
            .env(
                "MDBOOK_PREPROCESSOR__COMMUNITY__COMMAND",
                env!("CARGO_BIN_EXE_mdbook-community"),
            )
            .output()
            .expect("mdbook runs");
        let log = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{mdbook:?}:\n{log}");
    }
}

/// Issue 34: people listed in sections of a README are found, and the
/// book reads those sections alone, the emeritus as its own group.
#[test]
fn init_finds_people_in_sections_of_a_readme() {
    let repo = repository(&[("README.md", README_WITH_PEOPLE)]);
    let (code, _, stderr) = init(repo.path(), &[]);
    assert_eq!(code, 0, "{stderr}");
    let config = std::fs::read_to_string(repo.path().join("docs/book.toml")).expect("book.toml");
    assert!(
        config.contains(
            r#"people = [{ path = "../README.md", section = "Maintainers" }, { path = "../README.md", section = "Emeritus" }]"#
        ),
        "{config}"
    );
    assert!(!repo.path().join("docs/maintainers.toml").exists());
    let output = common::bin()
        .args(["roster", "docs", "--format", "json"])
        .current_dir(repo.path())
        .output()
        .expect("runs");
    let roster: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let groups: Vec<(String, Vec<String>)> = (roster["groups"].as_array().expect("groups").iter())
        .map(|g| {
            let members = (g["members"].as_array().expect("members").iter())
                .map(|m| format!("{} {}", m["handle"], m["status"]))
                .collect();
            (g["id"].as_str().unwrap_or("").to_string(), members)
        })
        .collect();
    assert_eq!(
        groups,
        [
            ("maintainers".to_string(), vec!["\"ada\" null".to_string()]),
            (
                "emeritus".to_string(),
                vec!["\"bob\" \"emeritus\"".to_string()]
            ),
        ],
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
