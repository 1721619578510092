//! Activity from the git history (issue 29): real repositories built in a
//! temporary folder with chosen authors, committers, dates, no-reply
//! addresses, `.mailmap` entries, `Co-authored-by` trailers and bots; a
//! shallow clone; a book in no repository. Every match rule, the
//! `last-active` column, `roster --format json` and the C406 findings are
//! checked against the dates the commits were given. The window ends on
//! the day `MDBOOK_COMMUNITY_NOW` names, so nothing depends on today.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::mdbook::Mdbook;
use common::{RunResult, Shape, request, run_with};
use serde_json::{Value, json};

/// The day the window ends in every test.
const NOW: &str = "2026-06-01";

/// `git` isolated from the user's and the system's configuration.
fn git(dir: &Path) -> Command {
    let mut command = Command::new("git");
    command
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("HOME", dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE");
    command
}

fn git_ok(dir: &Path, args: &[&str]) -> String {
    let output = git(dir).args(args).output().expect("git runs");
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// One commit: who wrote it and when, who committed it and when, and its
/// message (trailers included).
struct Commit<'a> {
    author: (&'a str, &'a str),
    authored: &'a str,
    committer: (&'a str, &'a str),
    committed: &'a str,
    message: &'a str,
}

/// A commit written and committed by the same person on the same day.
fn by<'a>(name: &'a str, email: &'a str, day: &'a str) -> Commit<'a> {
    Commit {
        author: (name, email),
        authored: day,
        committer: (name, email),
        committed: day,
        message: "a change",
    }
}

/// A new repository in `dir` with `commits`, oldest first (each at noon
/// UTC of its day); returns their hashes.
fn repository(dir: &Path, commits: &[Commit<'_>]) -> Vec<String> {
    git_ok(dir, &["init", "-q", "-b", "main"]);
    commits.iter().map(|c| commit(dir, c)).collect()
}

/// Makes `commit` on the branch checked out in `dir`; its hash.
fn commit(dir: &Path, commit: &Commit<'_>) -> String {
    commit_with(
        dir,
        commit,
        &["commit", "-q", "--allow-empty", "-m", commit.message],
    )
}

/// Runs `git args` with `commit`'s people and days; the new `HEAD`.
fn commit_with(dir: &Path, commit: &Commit<'_>, args: &[&str]) -> String {
    let output = git(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", commit.author.0)
        .env("GIT_AUTHOR_EMAIL", commit.author.1)
        .env(
            "GIT_AUTHOR_DATE",
            format!("{}T12:00:00+0000", commit.authored),
        )
        .env("GIT_COMMITTER_NAME", commit.committer.0)
        .env("GIT_COMMITTER_EMAIL", commit.committer.1)
        .env(
            "GIT_COMMITTER_DATE",
            format!("{}T12:00:00+0000", commit.committed),
        )
        .output()
        .expect("git runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    git_ok(dir, &["rev-parse", "HEAD"]).trim().to_string()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("writable");
    std::fs::write(path, text).expect("writable");
}

/// The roster every test reads: one person per match rule, and those no
/// commit may count for.
const PEOPLE: &str = r#"[people.ada]
name = "Ada Lovelace"
email = "ada@example.com"

[people.bob]
name = "Bob Babbage"

[people.carol]
name = "Carol Hopper"

[people.dan]
name = "Dan Knuth"
email = "dan@example.com"

[people.erin]
name = "Erin Liskov"

[people.frank]
name = "Frank Name"
github = false

[people.gina]
name = "Gina Same"

[people.gino]
name = "Gina Same"

[people.henry]
name = "Henry Old"

[people.jo]
name = "Jo Person"
email = "jo@example.com"

[people.kim]
name = "Kim Merger"
email = "kim@example.com"

[people.octo]
name = "Octo Web"
email = "noreply@github.com"

[[groups]]
id = "core"
title = "Core"
members = ["ada", "bob", "carol", "dan", "erin", "frank", "gina", "gino", { handle = "henry", status = "emeritus" }, "jo", "kim", "octo"]
"#;

/// The history every test reads, oldest first; the comments say what
/// each commit proves.
fn history() -> Vec<Commit<'static>> {
    vec![
        // The oldest commit: Henry's, who is emeritus.
        by("Henry Old", "henry@example.com", "2023-06-01"),
        // Bob, by the ID+LOGIN no-reply form, long ago.
        by(
            "Bob B.",
            "123456+bob@users.noreply.github.com",
            "2024-01-10",
        ),
        // Erin only as a co-author, long ago.
        Commit {
            message: "pair work\n\nCo-authored-by: Erin L <erin@users.noreply.github.com>",
            ..by("Someone Else", "someone@elsewhere.org", "2025-01-05")
        },
        // A bot named like Jo, with Jo's address: never counts.
        by("Jo Person [bot]", "jo@example.com", "2025-09-01"),
        // Carol, by the LOGIN no-reply form.
        by("Carol H", "carol@users.noreply.github.com", "2026-02-01"),
        // Dan, under an old address `.mailmap` maps to his.
        by("Dan K", "dan@old.example", "2026-03-01"),
        // Frank, by his name alone (unique in the roster).
        by("Frank Name", "frank@elsewhere.org", "2026-04-01"),
        // Gina Same is two people of the roster: the name counts for nobody.
        by("Gina Same", "gina@elsewhere.org", "2026-04-15"),
        // Kim commits someone else's change: the commit's day counts.
        Commit {
            author: ("Outsider", "out@elsewhere.org"),
            authored: "2024-12-24",
            committer: ("Kim M", "kim@example.com"),
            committed: "2026-04-20",
            message: "merge a contribution",
        },
        // Ada's change merged on github.com: written on 1 May, committed by
        // GitHub (a bot identity) the next day.
        Commit {
            author: ("Ada L", "ada@example.com"),
            authored: "2026-05-01",
            committer: ("GitHub", "noreply@github.com"),
            committed: "2026-05-02",
            message: "a change",
        },
    ]
}

const MAILMAP: &str = "Dan Knuth <dan@example.com> <dan@old.example>\n";

/// A repository with [`history`] and a book in its `docs` folder.
struct Fixture {
    dir: tempfile::TempDir,
    hashes: Vec<String>,
}

impl Fixture {
    fn new(book_toml: &str) -> Fixture {
        let dir = tempfile::tempdir().expect("tempdir");
        write(&dir.path().join(".mailmap"), MAILMAP);
        let hashes = repository(dir.path(), &history());
        write(&dir.path().join("docs/maintainers.toml"), PEOPLE);
        write(&dir.path().join("docs/book.toml"), book_toml);
        Fixture { dir, hashes }
    }

    fn book(&self) -> PathBuf {
        self.dir.path().join("docs")
    }
}

fn book_toml(settings: &str) -> String {
    format!("[book]\ntitle = \"T\"\n\n[preprocessor.community]\n{settings}")
}

/// The preprocessor over one chapter of the book at `root`, with
/// `settings`, the window ending [`NOW`].
fn preprocess(root: &Path, settings: Value, chapter: &str) -> RunResult {
    let config = json!({"preprocessor": {"community": settings}});
    let input = request(Shape::V05, root, config, &[("C", "c.md", chapter)]);
    let mut cmd = common::bin();
    cmd.env("MDBOOK_COMMUNITY_NOW", NOW);
    let mut result = run_with(cmd, &input);
    result.stderr = result
        .stderr
        .replace(&root.display().to_string(), "/path/to/book");
    result
}

/// `roster --format json` of the book at `root`: the people by handle.
fn roster_json(root: &Path) -> (serde_json::Map<String, Value>, String) {
    let output = common::bin()
        .args(["roster", "--format", "json"])
        .arg(root)
        .env("NO_COLOR", "1")
        .current_dir(root)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let value: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let people = value["people"].as_array().expect("people");
    let by_handle = people
        .iter()
        .map(|p| (p["handle"].as_str().unwrap_or("").to_string(), p.clone()))
        .collect();
    (by_handle, stderr)
}

/// Every match rule, in `roster --format json`: the day of the last
/// counted commit and how it was matched.
#[test]
fn every_match_rule_gives_the_day_and_how() {
    let fixture = Fixture::new(&book_toml(""));
    let (people, stderr) = roster_json(&fixture.book());
    assert!(stderr.is_empty(), "{stderr}");
    let found = |handle: &str| {
        let person = &people[handle];
        (
            person["last_active"].as_str().map(str::to_string),
            person["activity_match"].as_str().map(str::to_string),
        )
    };
    let expect = |day: &str, how: &str| (Some(day.to_string()), Some(how.to_string()));
    assert_eq!(
        found("ada"),
        expect("2026-05-01", "email"),
        "the author's day"
    );
    assert_eq!(found("bob"), expect("2024-01-10", "noreply"));
    assert_eq!(found("carol"), expect("2026-02-01", "noreply"));
    assert_eq!(found("dan"), expect("2026-03-01", "mailmap"));
    assert_eq!(found("erin"), expect("2025-01-05", "co-author"));
    assert_eq!(found("frank"), expect("2026-04-01", "name"));
    assert_eq!(
        found("kim"),
        expect("2026-04-20", "email"),
        "the commit's day"
    );
    assert_eq!(found("henry"), expect("2023-06-01", "name"));
    // Not unique, a bot's commit, GitHub's own address: nobody.
    for handle in ["gina", "gino", "jo", "octo"] {
        assert_eq!(found(handle), (None, None), "{handle}");
        assert!(
            people[handle].get("last_active").is_some(),
            "null, not absent"
        );
    }
}

/// C406 for each active member quiet longer than the window, at their
/// place in the roster, with the day and how it was matched; none for the
/// recent, the emeritus, or a bot.
#[test]
fn quiet_maintainers_are_warned_about_once_each() {
    let fixture = Fixture::new(&book_toml("check-activity = \"12 months\"\n"));
    let settings = json!({"check-activity": "12 months"});
    let result = preprocess(&fixture.book(), settings, "# Plain\n");
    assert_eq!(result.code, 0, "warnings only: {}", result.stderr);
    let stderr = result.messages();
    let erin_commit = &fixture.hashes[2][..12];
    for (headline, place) in [
        (
            "warning: `bob` (Bob Babbage) has no commits since 2024-01-10, more than 12 months ago",
            "maintainers.toml:5:9",
        ),
        (
            "warning: `erin` (Erin Liskov) has no commits since 2025-01-05, more than 12 months ago",
            "maintainers.toml:15:9",
        ),
        (
            "note: `gina` (Gina Same) is not matched in the history: the name `Gina Same` is both `gina`'s and `gino`'s in the roster (tried: login `gina`, name `Gina Same`); activity not judged",
            "maintainers.toml:22:9",
        ),
        (
            "note: `gino` (Gina Same) is not matched in the history: the name `Gina Same` is both `gina`'s and `gino`'s in the roster (tried: login `gino`, name `Gina Same`); activity not judged",
            "maintainers.toml:25:9",
        ),
        (
            "note: `jo` (Jo Person) is not matched in the history (tried: e-mail `jo@example.com`, login `jo`, name `Jo Person`); activity not judged",
            "maintainers.toml:31:9",
        ),
    ] {
        assert_at(&stderr, headline, place);
    }
    let expected = [
        "= note: matched by the GitHub no-reply address `123456+bob@users.noreply.github.com`",
        &format!(
            "= note: matched by a Co-authored-by trailer naming `erin@users.noreply.github.com`, in commit {erin_commit}"
        ),
        "= note: looked in 10 commits back to 2023-06-01",
        "= help: add their `email` to the roster, or a `.mailmap` line mapping the address they commit from to theirs",
        "active in `core`",
        "= help: if they have stepped back, give them the status `emeritus`",
    ];
    for text in expected {
        assert!(stderr.contains(text), "{text}\n---\n{stderr}");
    }
    assert_eq!(stderr.matches("warning:").count(), 2, "{stderr}");
    let notes = stderr.lines().filter(|l| l.starts_with("note:")).count();
    assert_eq!(notes, 3, "{stderr}");
    assert!(
        result.stderr.contains("warning[C406]:"),
        "{}",
        result.stderr
    );
    for quiet_or_gone in [
        "`ada`", "`carol`", "`dan`", "`frank`", "`henry`", "`kim`", "`octo`",
    ] {
        assert!(!stderr.contains(quiet_or_gone), "{quiet_or_gone}: {stderr}");
    }
}

/// A page's Markdown as HTML, rows on one line each.
fn html(markdown: &str) -> String {
    let parser = pulldown_cmark::Parser::new_ext(markdown, pulldown_cmark::Options::ENABLE_TABLES);
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, parser);
    out.replace('\n', "")
}

/// `headline` is in `stderr`, and the line after it points at `place`.
fn assert_at(stderr: &str, headline: &str, place: &str) {
    let mut lines = stderr.lines();
    let found = lines.by_ref().any(|line| line == headline);
    assert!(found, "{headline}\n---\n{stderr}");
    let next = lines.next().unwrap_or("").trim_start();
    assert_eq!(next, format!("--> {place}"), "{headline}\n---\n{stderr}");
}

/// The window is the setting's: with 2 years, only the members with no
/// commit at all are left; a week makes everyone but Ada quiet.
#[test]
fn the_window_is_the_settings() {
    let fixture = Fixture::new(&book_toml(""));
    let warned = |window: &str| -> Vec<String> {
        let result = preprocess(&fixture.book(), json!({"check-activity": window}), "# P\n");
        assert_eq!(result.code, 0, "{}", result.stderr);
        let mut who: Vec<String> = (result.messages().lines())
            .filter(|l| l.starts_with("warning:"))
            .filter_map(|l| Some(l.split('`').nth(1)?.to_string()))
            .collect();
        who.sort();
        who
    };
    // Nobody the history cannot identify is ever warned about.
    assert_eq!(warned("2 months"), ["bob", "carol", "dan", "erin"]);
    assert!(warned("130 weeks").is_empty());
    assert_eq!(
        warned("31 days"),
        ["bob", "carol", "dan", "erin", "frank", "kim"]
    );
    // Advice whatever the drift check's level: still warnings, exit 0.
    let strict = json!({"check-activity": "12 months", "check-owners": "error"});
    let result = preprocess(&fixture.book(), strict, "# P\n");
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_eq!(
        result.stderr.matches("warning[C406]").count(),
        2,
        "{}",
        result.stderr
    );
    assert!(!result.stderr.contains("error"), "{}", result.stderr);
}

/// `columns=last-active`: the day, `(by name)` for a match by name alone,
/// `not matched` for the rest.
#[test]
fn the_last_active_column() {
    let fixture = Fixture::new(&book_toml(""));
    let result = preprocess(
        &fixture.book(),
        json!({}),
        "{{#maintainers core style=table columns=handle,last-active}}\n",
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(result.stderr.is_empty(), "{}", result.stderr);
    let page = html(&result.contents(Shape::V05).remove(0));
    for row in [
        "<th>Handle</th><th>Last active</th>",
        ">ada</a></td><td>2026-05-01</td>",
        ">bob</a></td><td>2024-01-10</td>",
        ">dan</a></td><td>2026-03-01</td>",
        "<td>frank</td><td>2026-04-01 (by name)</td>",
        ">gina</a></td><td>not matched</td>",
        ">octo</a></td><td>not matched</td>",
    ] {
        assert!(page.contains(row), "{row}\n---\n{page}");
    }
}

/// `activity-max-commits` bounds the walk: Bob's and Erin's commits are
/// not read, and the members without a commit in the 7 newest are not
/// judged, in one note, because those go back less than the window.
#[test]
fn the_walk_stops_at_activity_max_commits() {
    let fixture = Fixture::new(&book_toml(
        "check-activity = \"12 months\"\nactivity-max-commits = 7\n",
    ));
    let settings = json!({"check-activity": "12 months", "activity-max-commits": 7});
    let result = preprocess(&fixture.book(), settings, "# P\n");
    assert_eq!(result.code, 0, "{}", result.stderr);
    let stderr = result.messages();
    assert!(!stderr.contains("warning"), "{stderr}");
    assert_at(
        &stderr,
        "note: the history read goes back to 2025-09-01 only, inside the 12 months window: 5 active members without a commit in it are not judged",
        "book.toml:5:18",
    );
    for text in [
        "= note: not judged: `bob`, `erin`, `gina`, `gino`, `jo`",
        "= help: raise `activity-max-commits` (now 7) to read further back",
    ] {
        assert!(stderr.contains(text), "{text}\n---\n{stderr}");
    }
    let (people, _) = roster_json(&fixture.book());
    assert_eq!(people["bob"]["last_active"], Value::Null);
    assert_eq!(people["carol"]["last_active"], "2026-02-01");
}

/// The walk stops as soon as everyone has been found: the commit before
/// the newest two is removed from the repository, and reading stays clean
/// while a person found in the newest commits is all the roster holds;
/// a roster that needs the rest of the history makes `git` fail there.
#[test]
fn the_walk_stops_when_everyone_is_found() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hashes = repository(
        dir.path(),
        &[
            by("Old One", "old@example.com", "2020-01-01"),
            by("Old Two", "old2@example.com", "2021-01-01"),
            by("Ada", "ada@example.com", "2026-01-01"),
            Commit {
                message: "x\n\nCo-authored-by: Bob <bob@users.noreply.github.com>",
                ..by("Ada", "ada@example.com", "2026-02-01")
            },
        ],
    );
    let object = |hash: &str| {
        dir.path()
            .join(".git/objects")
            .join(&hash[..2])
            .join(&hash[2..])
    };
    std::fs::remove_file(object(&hashes[0])).expect("a loose object");
    let roster = |people: &str| {
        write(
            &dir.path().join("maintainers.toml"),
            &format!("{people}\n[[groups]]\nid = \"core\"\nmembers = [\"ada\", \"bob\"]\n"),
        );
        write(
            &dir.path().join("book.toml"),
            &book_toml("check-activity = \"12 months\"\n"),
        );
        preprocess(dir.path(), json!({"check-activity": "12 months"}), "# P\n")
    };
    let found = roster("[people.ada]\nemail = \"ada@example.com\"\n[people.bob]\n");
    assert_eq!(found.code, 0, "{}", found.stderr);
    assert!(
        found.stderr.is_empty(),
        "stopped before the missing commit: {}",
        found.stderr
    );
    let missing = roster("[people.ada]\nemail = \"ada@example.com\"\n[people.bob]\n[people.cy]\n");
    assert!(
        missing
            .messages()
            .contains("note: cannot read the git history of"),
        "{}",
        missing.stderr
    );
    assert!(
        !missing.messages().contains("warning"),
        "{}",
        missing.stderr
    );
}

/// A shallow clone (actions/checkout's default depth of 1): one note, no
/// finding; the column shows the day found in it and `unknown` for the
/// rest, and says why in a note when `check-activity` does not.
#[test]
fn a_shallow_clone_is_said_not_judged() {
    let fixture = Fixture::new(&book_toml(""));
    let clone = tempfile::tempdir().expect("tempdir");
    let url = format!("file://{}", fixture.dir.path().display());
    git_ok(clone.path(), &["clone", "-q", "--depth", "1", &url, "repo"]);
    let book = clone.path().join("repo/docs");
    write(
        &book.join("book.toml"),
        &book_toml("check-activity = \"12 months\"\n"),
    );
    write(&book.join("maintainers.toml"), PEOPLE);
    let settings = json!({"check-activity": "12 months"});
    let table = "{{#maintainers core style=table columns=handle,last-active}}\n";
    let result = preprocess(&book, settings, table);
    assert_eq!(result.code, 0, "{}", result.stderr);
    let stderr = result.messages();
    assert_at(
        &stderr,
        "note: the history is shallow: 1 commit; activity not judged",
        "book.toml:5:18",
    );
    assert!(stderr.contains("`fetch-depth: 0`"), "{stderr}");
    assert_eq!(stderr.matches("note:").count(), 1, "one note: {stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
    let page = html(&result.contents(Shape::V05).remove(0));
    assert!(page.contains(">ada</a></td><td>2026-05-01</td>"), "{page}");
    assert!(page.contains(">bob</a></td><td>unknown</td>"), "{page}");
    // Without `check-activity`, the table says it.
    let result = preprocess(&book, json!({}), table);
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_at(
        &result.messages(),
        "note: the history is shallow: 1 commit; activity not judged",
        "src/c.md:1:48",
    );
    let (people, stderr) = roster_json(&book);
    assert!(
        stderr.contains("the history is shallow: 1 commit"),
        "{stderr}"
    );
    assert_eq!(people["ada"]["last_active"], "2026-05-01");
    assert_eq!(people["bob"]["last_active"], Value::Null);
    // The human listing says what it knows, and `unknown` for the rest.
    let output = common::bin()
        .arg("roster")
        .arg(&book)
        .env("NO_COLOR", "1")
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("  - Ada Lovelace @ada, last active 2026-05-01 (email)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  - Bob Babbage @bob, last active unknown"),
        "{stdout}"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("`last active unknown` for everyone"),
        "{stderr}"
    );
}

/// A book in no repository: one note, no finding; `roster` does not look.
#[test]
fn a_book_outside_any_repository_is_said_not_judged() {
    let dir = tempfile::tempdir().expect("tempdir");
    let outside = dir.path().ancestors().all(|a| !a.join(".git").exists());
    assert!(outside, "the temporary folder must be in no repository");
    write(&dir.path().join("maintainers.toml"), PEOPLE);
    write(
        &dir.path().join("book.toml"),
        &book_toml("check-activity = \"12 months\"\n"),
    );
    let result = preprocess(dir.path(), json!({"check-activity": "12 months"}), "# P\n");
    assert_eq!(result.code, 0, "{}", result.stderr);
    let stderr = result.messages();
    assert!(
        stderr.contains("note: the book is in no git repository (no `.git` in /path/to/book or a folder above it); activity not judged"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("note:").count(), 1, "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
    let (people, stderr) = roster_json(dir.path());
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(people["ada"]["last_active"], Value::Null);
    assert_eq!(people["ada"]["activity_match"], Value::Null);
}

/// Nothing asks, nothing runs: without `check-activity` or the column,
/// no note even in a shallow clone or outside a repository.
#[test]
fn without_a_question_the_history_is_not_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(&dir.path().join("maintainers.toml"), PEOPLE);
    let result = preprocess(
        dir.path(),
        json!({}),
        "{{#maintainers core style=table columns=handle,name}}\n",
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(result.stderr.is_empty(), "{}", result.stderr);
}

/// `check-activity` and `activity-max-commits` are checked in book.toml,
/// with help; `MDBOOK_COMMUNITY_NOW` must be a day.
#[test]
fn bad_settings_are_reported_with_help() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(&dir.path().join("maintainers.toml"), PEOPLE);
    for (settings, toml, message, help) in [
        (
            json!({"check-activity": "12 monts"}),
            "check-activity = \"12 monts\"\n",
            "error: [preprocessor.community] check-activity has an unknown unit `monts` (days, weeks or months)\n  --> book.toml:5:18",
            "help: did you mean `\"12 months\"`?",
        ),
        (
            json!({"check-activity": "1 year"}),
            "check-activity = \"1 year\"\n",
            "check-activity counts days, weeks or months, not years",
            "help: did you mean `\"12 months\"`?",
        ),
        (
            json!({"check-activity": 12}),
            "check-activity = 12\n",
            "check-activity must be a string such as \"12 months\", found 12",
            "",
        ),
        (
            json!({"activity-max-commits": 0}),
            "activity-max-commits = 0\n",
            "activity-max-commits must be a whole number of commits, at least 1, found 0",
            "",
        ),
        (
            json!({"check-activty": "12 months"}),
            "check-activty = \"12 months\"\n",
            "unknown key `check-activty`",
            "help: did you mean `check-activity`?",
        ),
    ] {
        write(&dir.path().join("book.toml"), &book_toml(toml));
        let result = preprocess(dir.path(), settings, "# P\n");
        assert_eq!(result.code, 1, "{}", result.stderr);
        let stderr = result.messages();
        assert!(stderr.contains(message), "{message}\n---\n{stderr}");
        assert!(stderr.contains(help), "{help}\n---\n{stderr}");
    }
    let input = request(Shape::V05, dir.path(), json!({}), &[("C", "c.md", "# P\n")]);
    let mut cmd = common::bin();
    cmd.env("MDBOOK_COMMUNITY_NOW", "June 1st");
    let result = run_with(cmd, &input);
    assert_eq!(result.code, 1);
    assert!(
        result
            .stderr
            .contains("MDBOOK_COMMUNITY_NOW is `June 1st`; expected a day as YYYY-MM-DD"),
        "{}",
        result.stderr
    );
}

/// The error reference shows C406's and C407's real output.
#[test]
fn the_error_reference_shows_the_real_output() {
    let reference = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/book/errors.md"))
        .expect("book/errors.md");
    let fixture = Fixture::new(&book_toml("check-activity = \"12 months\"\n"));
    let result = preprocess(
        &fixture.book(),
        json!({"check-activity": "12 months"}),
        "# P\n",
    );
    // The commits' hashes are the same in every run: their authors,
    // dates, messages and trees are.
    let bob = example(&result.stderr, "`bob`");
    assert!(
        reference.contains(&bob),
        "book/errors.md does not show:\n{bob}"
    );
    let jo = example(&result.stderr, "`jo`");
    assert!(
        reference.contains(&jo),
        "book/errors.md does not show:\n{jo}"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    write(&dir.path().join("maintainers.toml"), PEOPLE);
    write(
        &dir.path().join("book.toml"),
        &book_toml("check-activity = \"12 months\"\n"),
    );
    let result = preprocess(dir.path(), json!({"check-activity": "12 months"}), "# P\n");
    let outside = example(&result.stderr, "no git repository");
    assert!(
        reference.contains(&outside),
        "book/errors.md does not show:\n{outside}"
    );
}

/// Prints the examples the error reference shows:
/// `cargo test --test activity print_examples -- --ignored --nocapture`.
#[test]
#[ignore = "a tool for writing book/errors.md, not a check"]
fn print_examples() {
    let fixture = Fixture::new(&book_toml("check-activity = \"12 months\"\n"));
    let result = preprocess(
        &fixture.book(),
        json!({"check-activity": "12 months"}),
        "# P\n",
    );
    println!("{}", result.stderr);
    let dir = tempfile::tempdir().expect("tempdir");
    write(&dir.path().join("maintainers.toml"), PEOPLE);
    write(
        &dir.path().join("book.toml"),
        &book_toml("check-activity = \"12 months\"\n"),
    );
    let result = preprocess(dir.path(), json!({"check-activity": "12 months"}), "# P\n");
    println!("{}", result.stderr);
}

/// The diagnostic of `stderr` whose headline holds `needle`, up to the
/// blank line after it.
fn example(stderr: &str, needle: &str) -> String {
    let start = stderr
        .split("\n\n")
        .find(|block| block.lines().next().is_some_and(|l| l.contains(needle)));
    start
        .unwrap_or_else(|| panic!("no {needle} in {stderr}"))
        .trim_end()
        .to_string()
}

/// Through a real mdBook: `check` sees the warnings (the window from the
/// environment mdBook passes on), exits 0, and 1 with `--deny warnings`.
#[test]
fn check_reports_quiet_maintainers_as_warnings() {
    let fixture = Fixture::new(&book_toml("check-activity = \"12 months\"\n"));
    let book = fixture.book();
    write(
        &book.join("src/SUMMARY.md"),
        "# Summary\n\n- [Intro](intro.md)\n",
    );
    write(
        &book.join("src/intro.md"),
        "# Intro\n\n{{#maintainers core style=table columns=name,last-active}}\n",
    );
    for mdbook in Mdbook::all() {
        for (deny, code) in [(false, 0), (true, 1)] {
            let mut cmd = common::bin();
            cmd.arg("check")
                .arg(&book)
                .arg("--mdbook")
                .arg(mdbook.binary());
            if deny {
                cmd.args(["--deny", "warnings"]);
            }
            let output = cmd
                .env("MDBOOK_COMMUNITY_NOW", NOW)
                .env("NO_COLOR", "1")
                .current_dir(&book)
                .output()
                .expect("runs");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(code), "{mdbook:?}: {stderr}");
            assert_eq!(
                stderr.matches("warning[C406]").count(),
                2,
                "{mdbook:?}: {stderr}"
            );
        }
    }
}

/// A pull request merged on github.com: `commits` on a new branch from
/// `main`, merged with `--no-ff` by Mia (committed by GitHub) on `day`
/// with `subject`; the merge's hash.
fn merged(dir: &Path, branch: &str, commits: &[Commit<'_>], subject: &str, day: &str) -> String {
    git_ok(dir, &["checkout", "-q", "-b", branch, "main"]);
    for c in commits {
        commit(dir, c);
    }
    git_ok(dir, &["checkout", "-q", "main"]);
    let merger = Commit {
        author: ("Mia Merger", "mia@m.example"),
        authored: day,
        committer: ("GitHub", "noreply@github.com"),
        committed: day,
        message: subject,
    };
    commit_with(
        dir,
        &merger,
        &["merge", "-q", "--no-ff", "-m", subject, branch],
    )
}

/// GitHub's subject for pull request `number` from `login`.
fn pull(dir: &Path, number: u32, login: &str, commits: &[Commit<'_>], day: &str) -> String {
    let subject = format!("Merge pull request #{number} from {login}/topic-{number}");
    merged(dir, &format!("pr{number}"), commits, &subject, day)
}

/// A login-only roster, as OWNERS files give: maintainers and triagers.
const LOGINS: &str = r#"[people.sbueringer]
[people.alice]
[people.mallory]
[people.shared1]
[people.shared2]
[people.jgv]
name = "Jonathan Gonzalez V."
[people.nora]
[people.mia]
email = "mia@m.example"
[people.acme]
[people.lubo]
[people.carl]
[people.oscar]

[[groups]]
id = "maintainers"
members = ["sbueringer", "alice", "mallory", "shared1", "shared2", "jgv", "nora", "mia", "acme", "lubo"]

[[groups]]
id = "triagers"
members = ["carl", "oscar"]

[people.victor]
email = "victor@v.example"
[people.tw1]
email = "ops@shared.example"
[people.tw2]
email = "ops@shared.example"
"#;

/// A history of GitHub merges, squash merges and other merges; the
/// comments say what each proves.
fn merge_history(dir: &Path) {
    git_ok(dir, &["init", "-q", "-b", "main"]);
    commit(dir, &by("Mia Merger", "mia@m.example", "2023-01-01"));
    let stefan = |day| by("Stefan Büringer", "stefan@work.example", day);
    // sbueringer's two pull requests, from their work address.
    pull(
        dir,
        1,
        "sbueringer",
        &[stefan("2024-03-01"), stefan("2024-03-02")],
        "2024-03-03",
    );
    pull(dir, 2, "sbueringer", &[stefan("2024-04-01")], "2024-04-02");
    // alice's: one branch carries Carl's commit, which stays Carl's.
    let alice = |day| by("Alice A", "alice@a.example", day);
    let carl = by("Carl Contributor", "carl@c.example", "2024-05-04");
    pull(
        dir,
        3,
        "alice",
        &[
            alice("2024-05-01"),
            alice("2024-05-02"),
            alice("2024-05-03"),
            carl,
        ],
        "2024-05-05",
    );
    pull(dir, 4, "alice", &[alice("2024-06-01")], "2024-06-02");
    // mallory's two pull requests are Victor's work, and Victor's address
    // is his in the roster: it never becomes mallory's.
    let victor = |day| by("Victor V", "victor@v.example", day);
    pull(dir, 5, "mallory", &[victor("2024-07-01")], "2024-07-02");
    pull(dir, 19, "mallory", &[victor("2024-07-05")], "2024-07-06");
    // One address writes both shared1's and shared2's pull requests.
    let team = |day| by("Team Account", "team@shared.example", day);
    pull(dir, 6, "shared1", &[team("2024-08-01")], "2024-08-02");
    pull(dir, 7, "shared1", &[team("2024-08-05")], "2024-08-06");
    pull(dir, 8, "shared2", &[team("2024-09-01")], "2024-09-02");
    pull(dir, 9, "shared2", &[team("2024-09-05")], "2024-09-06");
    // Merges that are not GitHub's name no login.
    let oscar = |day| by("Oscar O", "oscar@o.example", day);
    merged(
        dir,
        "topic",
        &[oscar("2024-10-01"), oscar("2024-10-02")],
        "Merge branch 'topic'",
        "2024-10-03",
    );
    merged(
        dir,
        "t2",
        &[oscar("2024-10-05")],
        "Merge pull request #10 from",
        "2024-10-06",
    );
    merged(
        dir,
        "t3",
        &[oscar("2024-10-08")],
        "Merge pull request #11 from o_scar/x",
        "2024-10-09",
    );
    merged(
        dir,
        "t4",
        &[oscar("2024-10-10")],
        "Merge pull request #12 from oscar",
        "2024-10-11",
    );
    // Branches of the organisation's own repository: many authors, no one's.
    let p = |n: &'static str, e: &'static str, day| by(n, e, day);
    pull(
        dir,
        13,
        "acme",
        &[
            p("P One", "p1@x.example", "2024-11-01"),
            p("P Two", "p2@x.example", "2024-11-02"),
        ],
        "2024-11-03",
    );
    pull(
        dir,
        14,
        "acme",
        &[p("P Three", "p3@x.example", "2024-11-05")],
        "2024-11-06",
    );
    // A squash merge from a no-reply address.
    let squash = |name, email, day| Commit {
        committer: ("GitHub", "noreply@github.com"),
        message: "Add a feature (#15)",
        ..by(name, email, day)
    };
    commit(
        dir,
        &squash(
            "Nora N",
            "12345+nora@users.noreply.github.com",
            "2025-01-10",
        ),
    );
    // An address two people of the roster share counts for neither.
    commit(dir, &by("Ops", "ops@shared.example", "2025-03-01"));
    // The roster's name with a full stop, the commits' without.
    commit(
        dir,
        &squash("Jonathan Gonzalez V", "jg@x.example", "2026-02-01"),
    );
    // Once known, every commit of the address is sbueringer's.
    commit(dir, &squash("S B", "stefan@work.example", "2026-03-01"));
    // lubo's pull requests come from two addresses, one each: no address
    // is most of them, but the name is, and counts for both addresses.
    let lubo = |email, day| by("Lubomir I. Ivanov", email, day);
    pull(
        dir,
        17,
        "lubo",
        &[lubo("l@home.example", "2026-03-10")],
        "2026-03-11",
    );
    pull(
        dir,
        18,
        "lubo",
        &[lubo("l@work.example", "2026-03-20")],
        "2026-03-21",
    );
    // A bot's pull request teaches nothing.
    let bot = by(
        "dependabot[bot]",
        "49699333+dependabot[bot]@users.noreply.github.com",
        "2026-04-01",
    );
    pull(dir, 16, "dependabot", &[bot], "2026-04-02");
}

/// A repository with [`merge_history`] and a book at its root with the
/// [`LOGINS`] roster and `settings` in book.toml.
fn merge_fixture(settings: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    merge_history(dir.path());
    write(&dir.path().join("maintainers.toml"), LOGINS);
    write(&dir.path().join("book.toml"), &book_toml(settings));
    dir
}

/// Login-only people are found through the pull requests GitHub merged
/// from their login; what is ambiguous, someone else's, or not GitHub's is
/// never dated.
#[test]
fn merged_pull_requests_identify_logins() {
    let dir = merge_fixture("");
    let (people, stderr) = roster_json(dir.path());
    assert!(stderr.is_empty(), "{stderr}");
    let found = |handle: &str| {
        let person = &people[handle];
        (
            person["last_active"].as_str().unwrap_or("-").to_string(),
            person["activity_match"].as_str().unwrap_or("-").to_string(),
        )
    };
    let pair = |day: &str, how: &str| (day.to_string(), how.to_string());
    assert_eq!(found("sbueringer"), pair("2026-03-01", "merged-pr"));
    assert_eq!(found("alice"), pair("2024-06-02", "merged-pr"));
    assert_eq!(found("jgv"), pair("2026-02-01", "name"));
    assert_eq!(found("nora"), pair("2025-01-10", "noreply"));
    assert_eq!(found("mia"), pair("2026-04-02", "email"));
    assert_eq!(found("lubo"), pair("2026-03-20", "name"));
    assert_eq!(found("victor"), pair("2024-07-05", "email"));
    assert_eq!(
        people["mallory"]["activity_ambiguous"],
        "the address `victor@v.example` that wrote most of `mallory`'s merged pull requests is `victor`'s in the roster"
    );
    for nobody in [
        "carl", "mallory", "shared1", "shared2", "acme", "oscar", "tw1", "tw2",
    ] {
        assert_eq!(
            found(nobody),
            pair("-", "-"),
            "{nobody}: {}",
            people[nobody]
        );
    }
    let evidence = |handle: &str| people[handle]["activity_evidence"].to_string();
    let stefan = evidence("sbueringer");
    assert!(
        stefan.contains(r#""identity":"stefan@work.example","how":"merged-pr""#),
        "{stefan}"
    );
    assert!(
        stefan.contains("wrote 3 of the 3 commits of `sbueringer`'s merged pull requests"),
        "{stefan}"
    );
    let alice = evidence("alice");
    assert!(
        alice.contains("wrote 4 of the 5 commits of `alice`'s"),
        "{alice}"
    );
    assert!(alice.contains(r##""identity":"#4""##), "{alice}");
    assert!(
        !alice.contains("carl@"),
        "another author's commit on the branch: {alice}"
    );
    for handle in ["shared1", "shared2"] {
        let why = people[handle]["activity_ambiguous"].as_str().unwrap_or("");
        assert_eq!(
            why,
            "the address `team@shared.example` wrote most of the merged pull requests of `shared1` and `shared2`"
        );
    }
    assert_eq!(
        people["tw2"]["activity_ambiguous"],
        "the address `ops@shared.example` is both `tw1`'s and `tw2`'s in the roster"
    );
}

/// `check-activity` with `groups`: only the maintainers are judged; the
/// quiet ones the history identifies get C406 with how, the ones it does
/// not a note each, and never a date.
#[test]
fn only_the_groups_asked_for_are_judged() {
    let settings = "check-activity = { after = \"12 months\", groups = [\"maintainers\"] }\n";
    let dir = merge_fixture(settings);
    let config = json!({"check-activity": {"after": "12 months", "groups": ["maintainers"]}});
    let result = preprocess(dir.path(), config, "# P\n");
    assert_eq!(result.code, 0, "{}", result.stderr);
    if std::env::var_os("PRINT_EXAMPLES").is_some() {
        println!("{}", result.stderr);
    }
    // The error reference shows this C406 as it is.
    let reference = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/book/errors.md"))
        .expect("book/errors.md");
    let alice = example(&result.stderr, "`alice`");
    assert!(
        reference.contains(&alice),
        "book/errors.md does not show:\n{alice}"
    );
    let stderr = result.messages();
    let warned: Vec<&str> = (stderr.lines())
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(
        warned,
        [
            "warning: `alice` has no commits since 2024-06-02, more than 12 months ago",
            "warning: `nora` has no commits since 2025-01-10, more than 12 months ago",
        ],
        "{stderr}"
    );
    assert!(
        stderr.contains("= note: matched by pull request #4 from `alice`, whose commits are mostly `alice@a.example`'s, in commit"),
        "{stderr}"
    );
    let mut noted: Vec<&str> = (stderr.lines())
        .filter(|l| l.starts_with("note:"))
        .filter_map(|l| l.split('`').nth(1))
        .collect();
    noted.sort();
    assert_eq!(noted, ["acme", "mallory", "shared1", "shared2"], "{stderr}");
    assert!(
        stderr.contains("note: `mallory` is not matched in the history: the address `victor@v.example` that wrote most of `mallory`'s merged pull requests is `victor`'s in the roster (tried: login `mallory`); activity not judged"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("carl") && !stderr.contains("oscar"),
        "{stderr}"
    );
    // The string form judges every group.
    let result = preprocess(dir.path(), json!({"check-activity": "12 months"}), "# P\n");
    let stderr = result.messages();
    for triager in [
        "note: `carl` is not matched",
        "note: `oscar` is not matched",
    ] {
        assert!(stderr.contains(triager), "{stderr}");
    }
    assert_eq!(stderr.matches("warning:").count(), 2, "{stderr}");
}

/// A group `check-activity` names that the roster lacks is an error at
/// the id in book.toml, with the closest id.
#[test]
fn an_unknown_group_is_a_located_error() {
    let settings = "check-activity = { after = \"12 months\", groups = [\"maintainer\"] }\n";
    let dir = merge_fixture(settings);
    let config = json!({"check-activity": {"after": "12 months", "groups": ["maintainer"]}});
    let result = preprocess(dir.path(), config, "# P\n");
    assert_eq!(result.code, 1, "{}", result.stderr);
    let stderr = result.messages();
    assert_at(
        &stderr,
        "error: `check-activity` names the group `maintainer`, which `maintainers.toml` does not have",
        "book.toml:5:51",
    );
    assert!(
        stderr.contains("help: did you mean `maintainers`?"),
        "{stderr}"
    );
    assert!(!stderr.contains("warning"), "{stderr}");
}

/// `roster` shows when each person was last active and how, or `not
/// matched`.
#[test]
fn the_roster_shows_how_each_person_was_found() {
    let dir = merge_fixture("");
    let output = common::bin()
        .arg("roster")
        .arg(dir.path())
        .env("NO_COLOR", "1")
        .current_dir(dir.path())
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    for line in [
        "  - @sbueringer, last active 2026-03-01 (merged-pr)  maintainers.toml:18",
        "  - Jonathan Gonzalez V. @jgv, last active 2026-02-01 (name)  maintainers.toml:18",
        "  - @shared1, not matched  maintainers.toml:18",
        "  - @carl, not matched  maintainers.toml:22",
    ] {
        assert!(stdout.lines().any(|l| l == line), "{line}\n---\n{stdout}");
    }
}
