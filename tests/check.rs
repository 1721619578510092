//! `mdbook-community check` with a real mdBook: exit codes, the four
//! message formats (snapshots), SARIF against the 2.1.0 schema, and the
//! codes against the guide's error reference.
//!
//! Runs with `MDBOOK_05` / `MDBOOK_04` (as `.ci/run` sets them) or the
//! `mdbook` on PATH (see `common/mdbook.rs`): without one, the tests say
//! they are skipped, and fail under `CI=true`.

mod common;

use std::path::{Path, PathBuf};

use common::mdbook::Mdbook;
use std::process::Command;

use mdbook_community::testing::all_codes;
use serde_json::Value;

/// Every mdBook to run with (both generations under `CI=true`).
fn mdbooks() -> Vec<PathBuf> {
    Mdbook::all().iter().map(|m| m.path.clone()).collect()
}

const PEOPLE: &str = "[people.soumith]\nname = \"Soumith Chintala\"\n\n[people.hdahl]\nname = \"H. Dahl\"\n\n[[groups]]\nid = \"core\"\ntitle = \"Core\"\nmembers = [\"soumith\", { handle = \"hdahl\", status = \"emeritus\" }]\n";

/// A book with one problem of each stage: an unknown group (error), a
/// broken anchor (warning), a redirect to nothing (error), a link through
/// a redirect (note), and an emeritus code owner (warning).
fn broken_book() -> tempfile::TempDir {
    book(
        "[book]\ntitle = \"Broken\"\n\n[preprocessor.community]\n\n\
         [output.html.redirect]\n\"/old.html\" = \"guide.html\"\n\"/gone.html\" = \"nowhere.html\"\n",
        "# Intro\n\n{{#maintainers cor}}\n\nSee [setup](guide.md#seting-up) and [old](old.md#setting-up).\n",
        "* @soumith @hdahl\n",
    )
}

fn clean_book() -> tempfile::TempDir {
    book(
        "[book]\ntitle = \"Clean\"\n\n[preprocessor.community]\n",
        "# Intro\n\n{{#maintainers core}}\n\nSee [setup](guide.md#setting-up).\n",
        "* @soumith\n",
    )
}

fn book(toml: &str, intro: &str, codeowners: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let files = [
        ("book.toml", toml),
        ("maintainers.toml", PEOPLE),
        ("CODEOWNERS", codeowners),
        (
            "src/SUMMARY.md",
            "# Summary\n\n- [Intro](intro.md)\n- [Guide](guide.md)\n",
        ),
        ("src/intro.md", intro),
        ("src/guide.md", "# Guide\n\n## Setting Up\n"),
    ];
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("writable");
        std::fs::write(path, text).expect("writable");
    }
    // The repository root, which SARIF paths are relative to.
    std::fs::create_dir(dir.path().join(".git")).expect("writable");
    dir
}

struct Checked {
    code: i32,
    stdout: String,
    stderr: String,
}

fn check(mdbook: &Path, root: &Path, args: &[&str]) -> Checked {
    let output = common::bin()
        .arg("check")
        .arg(root)
        .arg("--mdbook")
        .arg(mdbook)
        .args(args)
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_WORKSPACE")
        .env("NO_COLOR", "1")
        .current_dir(root)
        .env("PWD", root)
        .output()
        .expect("runs");
    Checked {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout)
            .replace(&root.display().to_string(), "ROOT"),
        stderr: String::from_utf8_lossy(&output.stderr)
            .replace(&root.display().to_string(), "ROOT"),
    }
}

#[test]
fn exit_codes_say_clean_problems_or_could_not_run() {
    for mdbook in mdbooks() {
        let clean = clean_book();
        let result = check(&mdbook, clean.path(), &[]);
        assert_eq!(result.code, 0, "{}", result.stderr);
        assert!(
            result.stderr.contains("no problems found"),
            "{}",
            result.stderr
        );
        assert!(!clean.path().join("book").exists(), "check writes no book");

        let broken = broken_book();
        let result = check(&mdbook, broken.path(), &[]);
        assert_eq!(result.code, 1, "{}", result.stderr);
        assert!(
            result
                .stderr
                .contains("error: mdbook-community check: 2 errors, 2 warnings"),
            "{}",
            result.stderr
        );

        // Warnings alone pass, unless denied. A redirect to a missing
        // heading is judged as a broken link is: a warning by default.
        let warned = book(
            "[book]\ntitle = \"W\"\n\n[preprocessor.community]\n\n\
             [output.html.redirect]\n\"/guide.html#old\" = \"guide.html#nope\"\n",
            "# Intro\n\nSee [setup](guide.md#seting-up).\n",
            "* @soumith\n",
        );
        let result = check(&mdbook, warned.path(), &[]);
        assert_eq!(result.code, 0, "{}", result.stderr);
        assert!(result.stderr.contains("warning[C701]"), "{}", result.stderr);
        assert!(result.stderr.contains("2 warnings"), "{}", result.stderr);
        assert_eq!(
            check(&mdbook, warned.path(), &["--deny", "warnings"]).code,
            1
        );

        // What stops the check itself: one line, exit 2.
        let not_a_book = tempfile::tempdir().expect("tempdir");
        let result = check(&mdbook, not_a_book.path(), &[]);
        assert_eq!(result.code, 2);
        assert!(
            result.stderr.contains("is not an mdBook book"),
            "{}",
            result.stderr
        );
        assert_eq!(result.stderr.lines().count(), 1, "{}", result.stderr);

        std::fs::write(
            clean.path().join("src/SUMMARY.md"),
            "# Summary\n\n- [A](a.md\n  - [[x\n",
        )
        .expect("writable");
        let result = check(&mdbook, clean.path(), &[]);
        assert_eq!(result.code, 2, "{}", result.stderr);
        assert!(result.stderr.contains("SUMMARY.md"), "{}", result.stderr);
        assert_eq!(result.stderr.lines().count(), 1, "{}", result.stderr);

        let missing = clean_book();
        let toml = missing.path().join("book.toml");
        let text = std::fs::read_to_string(&toml).expect("readable");
        std::fs::write(
            &toml,
            text + "\n[preprocessor.other]\ncommand = \"no-such-preprocessor-x\"\n",
        )
        .expect("writable");
        let result = check(&mdbook, missing.path(), &[]);
        assert_eq!(result.code, 2, "{}", result.stderr);
        assert!(
            result.stderr.contains("no-such-preprocessor-x"),
            "{}",
            result.stderr
        );
        assert_eq!(result.stderr.lines().count(), 1, "{}", result.stderr);
    }
}

/// Without `--mdbook`, `check` runs the `mdbook` on PATH.
#[test]
fn the_mdbook_on_path_is_the_default() {
    for mdbook in mdbooks() {
        let Some(folder) = mdbook.parent().filter(|f| !f.as_os_str().is_empty()) else {
            continue; // already the `mdbook` on PATH
        };
        let path = std::env::join_paths(std::iter::once(folder.to_path_buf()).chain(
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
        ))
        .expect("a PATH");
        let broken = broken_book();
        let output = common::bin()
            .arg("check")
            .arg(broken.path())
            .env("PATH", path)
            .env("NO_COLOR", "1")
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("2 errors, 2 warnings"), "{stderr}");
    }
}

#[test]
fn an_unknown_message_format_is_a_usage_error_listing_the_formats() {
    let output = common::bin()
        .args(["check", "--message-format", "xml"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("human, json, sarif, github, gitlab, junit"),
        "{stderr}"
    );
}

#[test]
fn the_four_formats_as_snapshots() {
    let Some(mdbook) = mdbooks().into_iter().next() else {
        return;
    };
    let broken = broken_book();
    let human = check(&mdbook, broken.path(), &[]);
    insta::assert_snapshot!("human", human.stderr);
    let json = check(&mdbook, broken.path(), &["--message-format", "json"]);
    insta::assert_snapshot!("json", json.stdout);
    let github = check(&mdbook, broken.path(), &["--message-format", "github"]);
    insta::assert_snapshot!("github", github.stdout);
    let sarif = check(&mdbook, broken.path(), &["--message-format", "sarif"]);
    insta::assert_snapshot!("sarif", sarif.stdout);
    // `--format`, as `roster` and `owners` name it, is the same flag.
    let by_format = check(&mdbook, broken.path(), &["--format", "sarif"]);
    assert_eq!(by_format.stdout, sarif.stdout);
    for result in [&json, &github, &sarif] {
        assert_eq!(result.code, 1, "{}", result.stderr);
        assert!(
            result.stderr.is_empty(),
            "machine formats print to stdout only: {}",
            result.stderr
        );
    }
}

#[test]
fn json_lines_carry_every_field_cargo_style() {
    for mdbook in mdbooks() {
        let broken = broken_book();
        let result = check(&mdbook, broken.path(), &["--message-format", "json"]);
        let lines: Vec<Value> = result
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).expect("each line is JSON"))
            .collect();
        assert_eq!(lines.len(), 5, "{}", result.stdout);
        for line in &lines {
            for key in [
                "severity",
                "code",
                "message",
                "file",
                "line",
                "column",
                "end_line",
                "end_column",
                "help",
                "notes",
            ] {
                assert!(line.get(key).is_some(), "{key} missing in {line}");
            }
        }
        let codes: Vec<&str> = lines.iter().filter_map(|l| l["code"].as_str()).collect();
        for code in ["C505", "C601", "C701", "C703", "C403"] {
            assert!(codes.contains(&code), "{code} not in {codes:?}");
        }
        let unknown_group = lines.iter().find(|l| l["code"] == "C505").expect("C505");
        assert_eq!(unknown_group["file"], "src/intro.md");
        assert_eq!(
            (
                unknown_group["line"].as_u64(),
                unknown_group["column"].as_u64()
            ),
            (Some(3), Some(16))
        );
        assert_eq!(unknown_group["end_column"].as_u64(), Some(19));
    }
}

/// The OASIS SARIF 2.1.0 schema (tests/data), compiled once.
fn sarif_validator() -> (boon::Schemas, boon::SchemaIndex) {
    validator("sarif-schema-2.1.0.json")
}

/// The JSON schema `name` of tests/data, compiled.
fn validator(name: &str) -> (boon::Schemas, boon::SchemaIndex) {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("schema")).expect("JSON");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource("mem:///schema.json", schema)
        .expect("added");
    let index = compiler
        .compile("mem:///schema.json", &mut schemas)
        .expect("compiles");
    (schemas, index)
}

fn assert_valid_sarif(text: &str) -> Value {
    let document: Value = serde_json::from_str(text).expect("SARIF is JSON");
    let (schemas, index) = sarif_validator();
    if let Err(e) = schemas.validate(&document, index) {
        panic!("not valid SARIF 2.1.0: {e:#}\n{text}");
    }
    document
}

#[test]
fn sarif_is_valid_and_what_code_scanning_needs() {
    for mdbook in mdbooks() {
        let broken = broken_book();
        let result = check(&mdbook, broken.path(), &["--message-format", "sarif"]);
        let document = assert_valid_sarif(&result.stdout);
        let run = &document["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
        assert_eq!(rules.len(), all_codes().count(), "a rule per code");
        for rule in rules {
            assert!(rule["help"]["text"].as_str().is_some_and(|t| !t.is_empty()));
            assert!(
                rule["fullDescription"]["text"]
                    .as_str()
                    .is_some_and(|t| !t.is_empty())
            );
        }
        for result in run["results"].as_array().expect("results") {
            let location = &result["locations"][0]["physicalLocation"];
            let uri = location["artifactLocation"]["uri"].as_str().expect("uri");
            assert!(
                !uri.starts_with('/') && !uri.contains("ROOT"),
                "relative to the repository: {uri}"
            );
            assert!(location["region"]["startLine"].as_u64().is_some());
            let rule = &rules[result["ruleIndex"].as_u64().expect("index") as usize];
            assert_eq!(rule["id"], result["ruleId"]);
        }
    }
}

/// Whatever the data holds (quotes, newlines, control characters,
/// backslashes), the machine formats stay valid.
#[test]
fn machine_formats_stay_valid_whatever_messages_hold() {
    for mdbook in mdbooks() {
        let dir = book(
            "[book]\ntitle = \"Hostile\"\n\n[preprocessor.community]\n",
            "# Intro\n\n{{#maintainers \"a\\\"b\\\\c\u{1}\u{7f}\u{2028}\"}}\n\nSee [x](#\"\\%0A%22).\n",
            "* @soumith\n",
        );
        let people = format!(
            "{PEOPLE}\n[[groups]]\nid = \"x\\\"y\\n\\u0001z\"\ntitle = \"T\"\nmembers = []\n"
        );
        std::fs::write(dir.path().join("maintainers.toml"), people).expect("writable");
        // A chapter whose file name needs escaping in JSON and in a URI.
        let odd = "we\"ird 1%.md";
        std::fs::write(dir.path().join("src").join(odd), "# W\n\n[x](#nowhere)\n")
            .expect("writable");
        std::fs::write(
            dir.path().join("src/SUMMARY.md"),
            "# Summary\n\n- [Intro](intro.md)\n- [Guide](guide.md)\n- [W](<we\"ird 1%.md>)\n",
        )
        .expect("writable");
        let json = check(&mdbook, dir.path(), &["--message-format", "json"]);
        assert_eq!(json.code, 1, "{}", json.stderr);
        assert!(!json.stdout.is_empty());
        for line in json.stdout.lines() {
            serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        }
        assert!(
            json.stdout.contains(r#""file":"src/we\"ird 1%.md""#),
            "{}",
            json.stdout
        );
        let sarif = check(&mdbook, dir.path(), &["--message-format", "sarif"]);
        assert_valid_sarif(&sarif.stdout);
        assert!(
            sarif.stdout.contains("src/we%22ird%201%25.md"),
            "{}",
            sarif.stdout
        );
        let github = check(&mdbook, dir.path(), &["--message-format", "github"]);
        for line in github.stdout.lines() {
            assert!(line.starts_with("::"), "one command a line: {line:?}");
        }
    }
}

/// mdBook cannot hand a book in a folder whose path is not UTF-8 to a
/// preprocessor: the check says so in one line.
#[cfg(unix)]
#[test]
fn a_book_in_a_non_utf8_folder_is_one_line_and_exit_2() {
    use std::os::unix::ffi::OsStrExt;
    for mdbook in mdbooks() {
        let clean = clean_book();
        let odd = clean.path().join(std::ffi::OsStr::from_bytes(b"b\xff\xfe"));
        std::fs::create_dir(&odd).expect("writable");
        for entry in ["book.toml", "maintainers.toml", "CODEOWNERS", "src"] {
            std::fs::rename(clean.path().join(entry), odd.join(entry)).expect("movable");
        }
        let result = check(&mdbook, &odd, &[]);
        assert_eq!(result.code, 2, "{}", result.stderr);
        assert!(result.stderr.contains("not UTF-8"), "{}", result.stderr);
        assert_eq!(result.stderr.lines().count(), 1, "{}", result.stderr);
    }
}

/// `mdbook build` writes the same formats to a file when asked, and keeps
/// the terminal's output human.
#[test]
fn a_build_writes_sarif_when_asked() {
    for mdbook in mdbooks() {
        let broken = broken_book();
        let output = Command::new(&mdbook)
            .arg("build")
            .current_dir(broken.path())
            .env(
                "MDBOOK_PREPROCESSOR__COMMUNITY__COMMAND",
                env!("CARGO_BIN_EXE_mdbook-community"),
            )
            .env("MDBOOK_COMMUNITY_MESSAGE_FORMAT", "sarif")
            .env("MDBOOK_COMMUNITY_MESSAGE_FILE", "community.sarif")
            .env("PWD", broken.path())
            .output()
            .expect("mdbook runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !output.status.success(),
            "the errors fail the build: {stderr}"
        );
        assert!(stderr.contains("error[C505]: no group `cor`"), "{stderr}");
        let sarif =
            std::fs::read_to_string(broken.path().join("community.sarif")).expect("written");
        let document = assert_valid_sarif(&sarif);
        assert_eq!(
            document["runs"][0]["results"].as_array().map(Vec::len),
            Some(5)
        );
    }
}

/// A check creates no missing chapter file (as a build with
/// `create-missing` would), and says the chapter is missing.
#[test]
fn a_check_creates_no_missing_chapter() {
    for mdbook in mdbooks() {
        let dir = clean_book();
        std::fs::write(
            dir.path().join("src/SUMMARY.md"),
            "# Summary\n\n- [Intro](intro.md)\n- [New](new.md)\n",
        )
        .expect("writable");
        let result = check(&mdbook, dir.path(), &[]);
        assert!(!dir.path().join("src/new.md").exists(), "{}", result.stderr);
        assert_eq!(result.code, 2, "{}", result.stderr);
    }
}

/// The guide's error reference has one section per code, `## C505:
/// unknown-group`, and none for a code that does not exist.
#[test]
fn every_code_is_documented_and_every_documented_code_exists() {
    let reference = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/book/errors.md"))
        .expect("book/errors.md");
    let documented: Vec<String> = reference
        .lines()
        .filter(|l| l.starts_with("## C"))
        .map(str::to_string)
        .collect();
    let expected: Vec<String> = all_codes()
        .map(|c| format!("## {}: {}", c.id(), c.name()))
        .collect();
    assert_eq!(documented, expected);
}

/// Every code can be emitted: the bad-input suite and these tests trigger
/// them all (the codes they print, collected by `codes_in`).
#[test]
fn every_code_is_emitted_by_some_input() {
    let mut seen = std::collections::BTreeSet::new();
    for mdbook in mdbooks() {
        let broken = broken_book();
        seen.extend(codes_in(&check(&mdbook, broken.path(), &[]).stderr));
    }
    if seen.is_empty() {
        return; // no mdBook
    }
    // The rest are printed by the bad-input suite, whose examples the
    // error reference shows verbatim (tests/bad_input.rs checks that).
    let reference = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/book/errors.md"))
        .expect("book/errors.md");
    seen.extend(codes_in(&reference));
    let missing: Vec<&str> = all_codes()
        .map(|c| c.id())
        .filter(|id| !seen.contains(*id))
        .collect();
    assert!(missing.is_empty(), "no input shown emitting {missing:?}");
}

/// The codes in rustc-style headlines (`error[C505]:`) of `text`.
fn codes_in(text: &str) -> Vec<String> {
    text.match_indices("[C")
        .filter_map(|(at, _)| {
            let code = text.get(at + 1..at + 5)?;
            let word = ["error", "warning", "note"]
                .iter()
                .any(|w| text[..at].ends_with(w));
            (word && text.get(at + 5..at + 7) == Some("]:")).then(|| code.to_string())
        })
        .collect()
}

/// Issue 26 (9): a data file outside the repository has an absolute
/// `file:` URI in SARIF (its `..`s resolved), not `file:///../x`, and the
/// repository root is given for `%SRCROOT%`.
#[test]
fn sarif_names_a_file_outside_the_repository_by_its_absolute_uri() {
    let outer = tempfile::tempdir().expect("tempdir");
    let files = [
        ("outside/people.toml", "[people.a]\nname = 1\n"),
        (
            "repo/book.toml",
            "[book]\ntitle = \"T\"\n\n[preprocessor.community]\npeople = \"../outside/people.toml\"\n",
        ),
        ("repo/src/SUMMARY.md", "# Summary\n\n- [Intro](intro.md)\n"),
        ("repo/src/intro.md", "# Intro\n\n{{#maintainers}}\n"),
    ];
    for (path, text) in files {
        let path = outer.path().join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("writable");
        std::fs::write(path, text).expect("writable");
    }
    std::fs::create_dir(outer.path().join("repo/.git")).expect("writable");
    let real = outer.path().canonicalize().expect("exists");
    for mdbook in mdbooks() {
        let result = check(
            &mdbook,
            &outer.path().join("repo"),
            &["--message-format", "sarif"],
        );
        let document = assert_valid_sarif(&result.stdout);
        let run = &document["runs"][0];
        let uris: Vec<&str> = run["results"]
            .as_array()
            .expect("results")
            .iter()
            .filter_map(|r| {
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str()
            })
            .collect();
        let people = format!("file://{}/outside/people.toml", real.display());
        assert!(uris.contains(&people.as_str()), "{people} not in {uris:?}");
        assert!(uris.iter().all(|u| !u.contains("..")), "{uris:?}");
        // (`check` shows the book root as ROOT.)
        assert_eq!(
            run["originalUriBaseIds"]["%SRCROOT%"]["uri"],
            "file://ROOT/"
        );
    }
}

/// Issue 27 (7): a GitLab Code Quality report GitLab reads: valid against
/// the fields GitLab documents, fingerprints unique and the same from one
/// run to the next, paths relative to the repository.
#[test]
fn gitlab_code_quality_is_valid_unique_and_stable() {
    let (schemas, index) = validator("gitlab-codequality.schema.json");
    for mdbook in mdbooks() {
        let broken = broken_book();
        let runs: Vec<Value> = (0..2)
            .map(|_| {
                let result = check(&mdbook, broken.path(), &["--message-format", "gitlab"]);
                assert_eq!(result.code, 1, "{}", result.stderr);
                serde_json::from_str(&result.stdout).expect("JSON")
            })
            .collect();
        if let Err(e) = schemas.validate(&runs[0], index) {
            panic!("not a Code Quality report: {e:#}\n{}", runs[0]);
        }
        let issues = runs[0].as_array().expect("an array");
        assert!(issues.len() >= 4, "{issues:?}");
        let prints: std::collections::HashSet<&str> = issues
            .iter()
            .filter_map(|i| i["fingerprint"].as_str())
            .collect();
        assert_eq!(prints.len(), issues.len(), "unique fingerprints");
        assert_eq!(runs[0], runs[1], "the same report twice");
        let intro = issues
            .iter()
            .find(|i| i["location"]["path"] == "src/intro.md");
        assert_eq!(intro.expect("an issue in intro.md")["severity"], "major");
    }
}

/// Issue 27 (7): a JUnit report, read by junitparser (the parser GitLab's
/// and Jenkins' users script against): a test case per problem, failing,
/// and one per clean chapter, passing.
#[test]
fn junit_is_read_by_a_junit_parser() {
    let script = "import sys, junitparser\n\
        xml = junitparser.JUnitXml.fromfile(sys.argv[1])\n\
        for suite in xml:\n\
        \x20   for case in suite:\n\
        \x20       print(case.classname, '|', case.name, '|', 'fail' if case.result else 'pass')\n";
    let probe = Command::new("python3")
        .args(["-c", "import junitparser"])
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs python3 with junitparser (pip install junitparser)"
        );
        eprintln!("skipped: python3 with junitparser is not installed");
        return;
    }
    for mdbook in mdbooks() {
        let broken = broken_book();
        let result = check(&mdbook, broken.path(), &["--message-format", "junit"]);
        assert_eq!(result.code, 1, "{}", result.stderr);
        let file = broken.path().join("report.xml");
        std::fs::write(&file, &result.stdout).expect("writable");
        let parsed = Command::new("python3")
            .args(["-c", script])
            .arg(&file)
            .output()
            .expect("python3 runs");
        assert!(
            parsed.status.success(),
            "{}",
            String::from_utf8_lossy(&parsed.stderr)
        );
        let cases = String::from_utf8_lossy(&parsed.stdout).into_owned();
        assert!(
            cases.contains("src/intro.md | src/intro.md:3:16 C505 | fail"),
            "{cases}"
        );
        assert!(
            cases.contains("src/guide.md | src/guide.md | pass"),
            "{cases}"
        );
        assert!(
            cases.contains("CODEOWNERS | CODEOWNERS:1:12 C403 | fail"),
            "{cases}"
        );
    }
}
