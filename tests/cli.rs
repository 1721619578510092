//! The binary as mdBook runs it: `supports`, the protocol, bad input.

mod common;

use common::{Shape, bin, request, run};
use serde_json::{Value, json};

#[test]
fn supports_every_renderer() {
    for renderer in ["html", "markdown", "epub", "pdf", "linkcheck", "anything"] {
        bin()
            .args(["supports", renderer])
            .assert()
            .success()
            .stdout("");
    }
}

#[test]
fn answers_in_the_shape_it_was_given() {
    let dir = tempfile::tempdir().expect("tempdir");
    for shape in [Shape::V04, Shape::V05] {
        let input = request(shape, dir.path(), json!({}), &[("A", "a.md", "# A\n")]);
        let result = run(&input);
        assert_eq!(result.code, 0, "{}", result.stderr);
        let book: Value = serde_json::from_str(&result.stdout).expect("JSON");
        assert!(book.get(shape.items_key()).is_some());
        assert_eq!(book.get("__non_exhaustive").is_some(), shape == Shape::V04);
        assert_eq!(result.contents(shape), ["# A\n"]);
    }
}

#[test]
fn unknown_fields_pass_through_untouched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = request(
        Shape::V05,
        dir.path(),
        json!({"new-table": {"x": 1}}),
        &[("A", "a.md", "x")],
    );
    let mut value: Value = serde_json::from_str(&input).expect("JSON");
    value[1]["future_field"] = json!({"nested": [1, 2, 3]});
    value[1]["items"][0]["Chapter"]["new_key"] = json!("kept");
    value[1]["items"]
        .as_array_mut()
        .expect("array")
        .push(json!({"NewItemKind": {"a": 1}}));
    let result = run(&value.to_string());
    assert_eq!(result.code, 0, "{}", result.stderr);
    let book: Value = serde_json::from_str(&result.stdout).expect("JSON");
    assert_eq!(book, value[1]);
}

#[test]
fn malformed_stdin_is_one_clear_line_and_exit_1() {
    let cases = [
        ("", "no input on stdin"),
        ("{not json", "stdin is not valid JSON"),
        ("[{}, {}]", "unexpected input from mdBook"),
        ("[1, 2, 3]", "two elements"),
    ];
    for (input, expected) in cases {
        let result = run(input);
        assert_eq!(result.code, 1, "{input:?}");
        assert!(result.stdout.is_empty(), "{input:?}: partial output");
        assert!(
            result.messages().contains(expected),
            "{input:?}: {}",
            result.stderr
        );
        assert_eq!(
            result.stderr.lines().count(),
            1,
            "{input:?}: {}",
            result.stderr
        );
        assert!(!result.messages().contains("panicked"), "{}", result.stderr);
    }
}

#[test]
fn unsupported_mdbook_version_warns_once_and_carries_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = request(Shape::V05, dir.path(), json!({}), &[("A", "a.md", "x")])
        .replace("\"0.5.4\"", "\"0.7.1\"");
    let result = run(&input);
    assert_eq!(result.code, 0);
    let messages = result.messages();
    let warnings: Vec<_> = messages
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(warnings.len(), 1, "{}", result.stderr);
    assert!(warnings[0].contains("0.7.1") && warnings[0].contains(">=0.4.40, <0.6"));
}

#[test]
fn bad_settings_point_into_book_toml() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("book.toml"),
        "[book]\ntitle = \"x\"\n\n[preprocessor.community]\non-eror = \"warn\"\n",
    )
    .expect("writable");
    let config = json!({"preprocessor": {"community": {"on-eror": "warn"}}});
    let result = run(&request(
        Shape::V05,
        dir.path(),
        config,
        &[("A", "a.md", "x")],
    ));
    assert_eq!(result.code, 1);
    assert!(result.stdout.is_empty());
    assert!(
        result
            .messages()
            .contains("error: unknown key `on-eror` in [preprocessor.community]"),
        "{}",
        result.stderr
    );
    assert!(
        result.messages().contains("book.toml:5:1"),
        "{}",
        result.stderr
    );
    assert!(
        result.messages().contains("help: did you mean `on-error`?"),
        "{}",
        result.stderr
    );
}

#[test]
fn install_edits_book_toml_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("book.toml");
    std::fs::write(&path, "# keep me\n[book]\ntitle = \"x\"\n").expect("writable");
    bin().arg("install").arg(dir.path()).assert().success();
    let once = std::fs::read_to_string(&path).expect("readable");
    assert!(
        once.starts_with("# keep me\n[book]\ntitle = \"x\"\n"),
        "{once}"
    );
    assert!(
        once.contains("[preprocessor.community]\nafter = [\"links\"]"),
        "{once}"
    );
    let out = bin()
        .arg("install")
        .arg(dir.path())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8_lossy(&out).contains("nothing changed"));
    assert_eq!(std::fs::read_to_string(&path).expect("readable"), once);
}

#[test]
fn install_without_book_toml_fails_clearly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let assert = bin().arg("install").arg(dir.path()).assert().failure();
    let err = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(err.contains("book.toml"), "{err}");
}

/// Warnings are `::warning` workflow commands: an unclosed directive, and
/// every error under `on-error = "warn"` (a directive's, and book.toml's).
#[test]
fn github_actions_warnings_are_warning_annotations() {
    let dir = common::book_root(&[
        ("maintainers.toml", "[people.a]\n"),
        (
            "book.toml",
            "[preprocessor.community]\non-error = \"warn\"\nchek-anchors = \"off\"\n",
        ),
    ]);
    let input = request(
        Shape::V04,
        dir.path(),
        json!({"preprocessor": {"community": {"on-error": "warn", "chek-anchors": "off"}}}),
        &[(
            "A",
            "a.md",
            "# A\n\nAsk {{#person b}}.\n\nThen {{#person a\n",
        )],
    );
    let mut cmd = bin();
    cmd.env("GITHUB_ACTIONS", "true");
    let result = common::run_with(cmd, &input);
    assert_eq!(result.code, 0, "{}", result.stderr);
    for expected in [
        "::warning file=src/a.md,line=3,col=15,title=C506 unknown-person::no person `b` in `maintainers.toml`",
        "::warning file=src/a.md,line=5,col=6,title=C502 unclosed-directive::`{{#person` is not closed",
        "::warning file=book.toml,line=3,col=1,title=C101 unknown-setting::unknown key `chek-anchors`",
    ] {
        assert!(
            result.messages().contains(expected),
            "{expected}: {}",
            result.stderr
        );
    }
    assert!(!result.messages().contains("::error"), "{}", result.stderr);
}

#[test]
fn github_actions_annotations_point_at_the_line() {
    let dir = common::book_root(&[("maintainers.toml", "[people.a]\n")]);
    let input = request(
        Shape::V05,
        dir.path(),
        json!({}),
        &[("A", "guide/a.md", "# A\n\nAsk {{#person b}}.\n")],
    );
    let mut cmd = bin();
    cmd.env("GITHUB_ACTIONS", "true");
    let result = common::run_with(cmd, &input);
    assert_eq!(result.code, 1);
    assert!(
        result.messages().contains(
            "::error file=src/guide/a.md,line=3,col=15,title=C506 unknown-person::no person `b` in `maintainers.toml`"
        ),
        "{}",
        result.stderr
    );
    // Without the variable, no workflow commands.
    let result = run(&input);
    assert!(!result.messages().contains("::error"), "{}", result.stderr);

    // A book in a folder of the repository: paths relative to the repository.
    let repo = common::book_root(&[("docs/maintainers.toml", "[people.a]\n")]);
    let input = request(
        Shape::V05,
        &repo.path().join("docs"),
        json!({}),
        &[("A", "a.md", "{{#person b}}\n")],
    );
    let mut cmd = bin();
    cmd.env("GITHUB_ACTIONS", "true")
        .env("GITHUB_WORKSPACE", repo.path());
    let result = common::run_with(cmd, &input);
    assert!(
        result
            .messages()
            .contains("::error file=docs/src/a.md,line=1,col=11,title="),
        "{}",
        result.stderr
    );
}

#[test]
fn install_watches_data_folders_outside_src_but_never_the_build_output() {
    let dir = common::book_root(&[
        (
            "book.toml",
            "[book]\ntitle = \"x\"\n\n[preprocessor.community]\npeople = \"data/people.toml\"\n",
        ),
        ("data/people.toml", "[people.a]\n"),
        (".github/CODEOWNERS", "* @a\n"),
        ("CONTRIBUTING.md", "# C\n"),
    ]);
    let out = bin()
        .arg("install")
        .arg(dir.path())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8_lossy(&out);
    let toml = std::fs::read_to_string(dir.path().join("book.toml")).expect("readable");
    assert!(
        toml.contains("extra-watch-dirs = [\"data\", \".github\"]"),
        "{toml}"
    );
    // CONTRIBUTING.md sits in the root, which also holds the build output.
    assert!(
        out.contains("note: `mdbook serve` will not rebuild when CONTRIBUTING.md changes"),
        "{out}"
    );
    assert!(
        out.contains("Add `/book/` to .gitignore beside book.toml"),
        "{out}"
    );
    assert!(dir.path().join("mdbook-community.css").is_file());
    assert!(dir.path().join("mdbook-community.js").is_file());
    // A second run changes nothing, and says so, with the note again.
    let again = bin().arg("install").arg(dir.path()).assert().success();
    let again = String::from_utf8_lossy(&again.get_output().stdout).to_string();
    assert!(again.contains("nothing changed"), "{again}");
    assert!(!again.contains("updated"), "{again}");
    assert!(
        again.contains("note: `mdbook serve` will not rebuild"),
        "{again}"
    );
}

#[test]
fn install_watches_the_book_root_when_gitignore_ignores_the_build_output() {
    for (gitignore, watched) in [
        ("book\n", true),
        ("/book/\n*.log\n", true),
        ("/book/**\n", true),
        ("build\n", false),
        ("target\n", false),
        ("book\n!book\n", false),
    ] {
        let dir = common::book_root(&[
            ("book.toml", "[book]\ntitle = \"x\"\n"),
            ("maintainers.toml", "[people.a]\n"),
            (".gitignore", gitignore),
        ]);
        let out = bin().arg("install").arg(dir.path()).assert().success();
        let out = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        let toml = std::fs::read_to_string(dir.path().join("book.toml")).expect("readable");
        assert_eq!(
            toml.contains("extra-watch-dirs = [\".\"]"),
            watched,
            "{gitignore:?}: {toml}\n{out}"
        );
        assert_eq!(
            out.contains("will not rebuild"),
            !watched,
            "{gitignore:?}: {out}"
        );
    }
    // An ignored folder holding the build folder counts too.
    let dir = common::book_root(&[
        (
            "book.toml",
            "[book]\ntitle = \"x\"\n\n[build]\nbuild-dir = \"target/book\"\n",
        ),
        ("maintainers.toml", "[people.a]\n"),
        (".gitignore", "/target\n"),
    ]);
    bin().arg("install").arg(dir.path()).assert().success();
    let toml = std::fs::read_to_string(dir.path().join("book.toml")).expect("readable");
    assert!(toml.contains("extra-watch-dirs = [\".\"]"), "{toml}");
}

/// Issue 17 (11): `install` never writes book.toml in place. A read-only
/// book.toml that needs a change is an error and nothing is written (no
/// CSS or JS either); otherwise the new file replaces the old whole, with
/// its permissions, and nothing is left beside it.
#[test]
fn install_replaces_book_toml_whole_or_not_at_all() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let toml = dir.path().join("book.toml");
    std::fs::write(
        &toml,
        "[book]\ntitle = \"T\"\n\n[build]\ncreate-missing = false\n",
    )
    .expect("write");
    std::fs::set_permissions(&toml, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let out = bin().arg("install").arg(dir.path()).assert().failure();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("read-only"), "{stderr}");
    let listing: Vec<String> = std::fs::read_dir(dir.path())
        .expect("list")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    assert_eq!(listing, ["book.toml"], "nothing else was written");
    assert!(
        std::fs::read_to_string(&toml)
            .expect("read")
            .contains("[build]")
    );

    std::fs::set_permissions(&toml, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    bin().arg("install").arg(dir.path()).assert().success();
    let text = std::fs::read_to_string(&toml).expect("read");
    assert!(text.contains("[build]\ncreate-missing = false"), "{text}");
    assert!(text.contains("[preprocessor.community]"), "{text}");
    let mode = std::fs::metadata(&toml).expect("stat").permissions().mode() & 0o777;
    assert_eq!(mode, 0o640, "permissions kept");
    let mut listing: Vec<String> = std::fs::read_dir(dir.path())
        .expect("list")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    listing.sort();
    assert_eq!(
        listing,
        ["book.toml", "mdbook-community.css", "mdbook-community.js"],
        "no temporary file left"
    );
}
