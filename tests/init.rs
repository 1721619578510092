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
- Bob Babbage (@bob)

### Emeritus

- Cy Former ([cy](https://github.com/cy))

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
        (
            "CNCF .project/maintainers.yaml",
            vec![(
                ".project/maintainers.yaml",
                "maintainers:\n  - project_id: demo\n    teams:\n      - name: project-maintainers\n        members:\n          - ada\n          - bob\n",
            )],
            &["ada", "bob"],
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
            stderr.contains(
                "is an mdBook already: add the plugin to it with `mdbook-community install"
            ) && stderr.contains("nothing changed"),
            "{stderr}"
        );
        assert_eq!(
            snapshot(repo.path()),
            made,
            "{kind}: a second run changed files"
        );
        let include = std::fs::read_to_string(book.join("src/contributing.md")).expect("chapter");
        assert_eq!(
            include, "{{#repository-file ../../CONTRIBUTING.md}}\n",
            "{kind}"
        );
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
    // Not an mdBook: left alone, and the next free name proposed.
    assert!(
        stderr.contains("docs exists already and is not an mdBook")
            && stderr.contains("`mdbook-community init ")
            && stderr.contains("community`"),
        "{stderr}"
    );
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

/// Issue 38 (2): `init` takes no people file, CODEOWNERS or page that is a
/// symbolic link out of the repository (the book would list what it leads
/// to); a link inside the repository is taken.
#[cfg(unix)]
#[test]
fn init_takes_no_file_linked_out_of_the_repository() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("people.md"), "* Mallory (@mallory)\n").expect("write");
    std::fs::write(outside.path().join("CODEOWNERS"), "* @mallory\n").expect("write");
    let repo = repository(&[("docs-src/OWNERS.md", "* Ada (@ada)\n")]);
    symlink(
        outside.path().join("people.md"),
        repo.path().join("MAINTAINERS.md"),
    )
    .expect("link");
    symlink(
        outside.path().join("people.md"),
        repo.path().join("CONTRIBUTING.md"),
    )
    .expect("link");
    symlink(
        outside.path().join("CODEOWNERS"),
        repo.path().join("CODEOWNERS"),
    )
    .expect("link");
    symlink("docs-src/OWNERS.md", repo.path().join("OWNERS.md")).expect("link");
    let (code, stdout, stderr) = init(repo.path(), &[]);
    assert_eq!(code, 0, "{stderr}");
    let toml = std::fs::read_to_string(repo.path().join("docs/book.toml")).expect("book.toml");
    assert!(!toml.contains("MAINTAINERS.md"), "{toml}");
    assert!(!toml.contains("CODEOWNERS"), "{toml}");
    assert!(toml.contains("OWNERS.md"), "{toml}");
    assert!(
        !repo.path().join("docs/src/contributing.md").exists(),
        "{stdout}"
    );
    assert!(
        !repo.path().join("docs/src/code-owners.md").exists(),
        "{stdout}"
    );
}

/// Issue 38 (17): `init` in a folder whose path is not UTF-8 refuses with
/// one line saying why, and writes nothing.
#[cfg(target_os = "linux")]
#[test]
fn init_refuses_a_path_that_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let folder = dir
        .path()
        .join(std::ffi::OsStr::from_bytes(b"proj\xff\xfe"));
    std::fs::create_dir_all(folder.join(".git")).expect("mkdir");
    std::fs::write(folder.join("MAINTAINERS.md"), "* Ada (@ada)\n").expect("write");
    let before = snapshot(&folder);
    let (code, stdout, stderr) = init(&folder, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("is not UTF-8, and mdBook cannot build a book there; nothing changed"),
        "{stderr}"
    );
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(snapshot(&folder), before);
}

/// A Kubernetes-style repository whose OWNERS_ALIASES already names an alias
/// `<repository>-reviewers` (a common pattern): the root OWNERS file's
/// groups get a prefix that collides with no alias, and the book builds with
/// both mdBooks without an error, with a Code owners page for the OWNERS
/// tree (issue 36, 2).
#[test]
fn init_on_an_owners_tree_whose_aliases_use_the_repository_name_builds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("widget");
    for (path, text) in [
        (
            "OWNERS",
            "approvers:\n  - widget-approvers\nreviewers:\n  - widget-reviewers\n",
        ),
        (
            "OWNERS_ALIASES",
            "aliases:\n  widget-approvers:\n    - ada\n  widget-reviewers:\n    - bob\n  sig-docs: []\n",
        ),
        ("docs-site/OWNERS", "approvers:\n  - sig-docs\n"),
        ("src/main.rs", ""),
        (".git/HEAD", "ref: refs/heads/main\n"),
    ] {
        let full = repo.join(path);
        std::fs::create_dir_all(full.parent().expect("a folder")).expect("mkdir");
        std::fs::write(full, text).expect("writable");
    }
    let (code, _, stderr) = init(&repo, &[]);
    assert_eq!(code, 0, "{stderr}");
    let book = repo.join("docs");
    let toml = std::fs::read_to_string(book.join("book.toml")).expect("book.toml");
    assert!(toml.contains("prefix = \"widget-root\""), "{toml}");
    let page =
        std::fs::read_to_string(book.join("src/code-owners.md")).expect("a Code owners page");
    assert!(page.contains("{{#codeowners}}"), "{page}");
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
        assert!(output.status.success(), "{mdbook:?}:\n{log}");
        assert!(!log.contains("error["), "{mdbook:?}:\n{log}");
        let owners = std::fs::read_to_string(book.join("book/code-owners.html")).expect("page");
        assert!(owners.contains("docs-site/"), "{mdbook:?}");
        std::fs::remove_dir_all(book.join("book")).expect("removable");
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
            (
                "maintainers".to_string(),
                vec!["\"ada\" null".to_string(), "\"bob\" null".to_string()]
            ),
            (
                "emeritus".to_string(),
                vec!["\"cy\" \"emeritus\"".to_string()]
            ),
        ],
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
