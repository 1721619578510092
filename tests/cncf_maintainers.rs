//! CNCF's `.project/maintainers.yaml` (`format = "cncf-maintainers"`):
//! cncf/automation's own example files read, `roster --format
//! cncf-maintainers` checked against the rules of the validator
//! (`utilities/dot-project/maintainers.go`, kept in
//! `tests/data/cncf-maintainers/`) and of its `SCHEMA.md`, and read back as
//! the same people, on a test book and on the corpus's people files; and
//! `copies`: `roster --compare` and the C410 warning of a build.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{Shape, book_root, request, run};
use mdbook_community::testing;
use serde_json::{Value, json};
use yaml_rust2::{Yaml, YamlLoader};

fn data(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/cncf-maintainers")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs the binary with `args` in `root`: (exit code, stdout, stderr).
fn cli(root: &Path, args: &[&str]) -> (i32, String, String) {
    let output = common::bin()
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

/// The validator's rules (`maintainers.go` at cncf/automation fab8b64:
/// `ValidateMaintainersFile`, `validateMaintainerEntry`, `normalizeHandles`)
/// and SCHEMA.md's (unknown fields rejected, slug format, handles without
/// `@` or spaces): the errors for `text`, as the validator words them.
fn validate(text: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let docs = match YamlLoader::load_from_str(text) {
        Ok(docs) => docs,
        Err(e) => return vec![format!("failed to parse maintainers YAML: {e}")],
    };
    let Some(Yaml::Hash(top)) = docs.first() else {
        return vec!["not a mapping".into()];
    };
    let known = |hash: &yaml_rust2::yaml::Hash, keys: &[&str], errors: &mut Vec<String>| {
        for key in hash.keys() {
            let key = key.as_str().unwrap_or("?");
            if !keys.contains(&key) {
                errors.push(format!("unknown field {key}"));
            }
        }
    };
    known(top, &["maintainers"], &mut errors);
    let entries = top
        .get(&Yaml::String("maintainers".into()))
        .and_then(Yaml::as_vec)
        .cloned()
        .unwrap_or_default();
    if entries.is_empty() {
        errors.push("maintainers file does not contain any entries".into());
    }
    for entry in &entries {
        let Yaml::Hash(entry) = entry else {
            errors.push("entry is not a mapping".into());
            continue;
        };
        known(entry, &["project_id", "org", "teams"], &mut errors);
        let field = |key: &str| entry.get(&Yaml::String(key.into()));
        let project = field("project_id").and_then(Yaml::as_str).unwrap_or("");
        if project.is_empty() {
            errors.push("project_id is required".into());
        }
        let slug = !project.starts_with('-')
            && !project.ends_with('-')
            && (project.chars()).all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !slug {
            errors.push(format!("project_id {project:?} is not a slug"));
        }
        let teams = field("teams")
            .and_then(Yaml::as_vec)
            .cloned()
            .unwrap_or_default();
        if teams.is_empty() {
            errors.push("teams list cannot be empty".into());
        }
        let mut has_project_maintainers = false;
        for team in &teams {
            let Yaml::Hash(team) = team else {
                errors.push("team is not a mapping".into());
                continue;
            };
            known(team, &["name", "members"], &mut errors);
            let name = team
                .get(&Yaml::String("name".into()))
                .and_then(Yaml::as_str)
                .unwrap_or("");
            let members = (team.get(&Yaml::String("members".into())))
                .and_then(Yaml::as_vec)
                .cloned()
                .unwrap_or_default();
            if name == "project-maintainers" {
                has_project_maintainers = true;
                if members.is_empty() {
                    errors.push("team 'project-maintainers' cannot be empty".into());
                }
            }
            let mut seen = std::collections::HashSet::new();
            for (i, member) in members.iter().enumerate() {
                let handle = member.as_str().unwrap_or("");
                if handle.trim().is_empty() {
                    errors.push(format!("team '{name}': handles[{i}] cannot be empty"));
                    continue;
                }
                if handle.starts_with('@') || handle != handle.trim() {
                    errors.push(format!(
                        "team '{name}': handle {handle:?} is not normalized"
                    ));
                }
                if !seen.insert(handle.trim().trim_start_matches('@').to_lowercase()) {
                    errors.push(format!(
                        "team '{name}': duplicate handle detected: {handle}"
                    ));
                }
            }
        }
        if !has_project_maintainers {
            errors.push("team 'project-maintainers' is required".into());
        }
    }
    errors
}

#[test]
fn the_validator_rules_as_written_here_accept_cncfs_examples_and_refuse_bad_files() {
    for name in [
        "example-maintainers.yaml",
        "template-maintainers.yaml",
        "testdata-maintainers.yaml",
    ] {
        assert_eq!(validate(&data(name)), Vec::<String>::new(), "{name}");
    }
    let bad = "maintainers:\n  - project_id: x\n    owner: y\n    teams:\n      - name: reviewers\n        members: [a, A, '@b', '']\n";
    let errors = validate(bad);
    for expected in [
        "unknown field owner",
        "team 'reviewers': duplicate handle detected: A",
        "team 'reviewers': handle \"@b\" is not normalized",
        "team 'reviewers': handles[3] cannot be empty",
        "team 'project-maintainers' is required",
    ] {
        assert!(
            errors.iter().any(|e| e == expected),
            "{expected} in {errors:?}"
        );
    }
}

/// A member's login and status.
type Listing = (String, Option<String>);

/// (group id, [(login, status)]) of a roster.
fn groups(people: &testing::People) -> Vec<(String, Vec<Listing>)> {
    (people.groups.iter())
        .map(|g| {
            let members = (g.members.iter())
                .map(|m| {
                    let person = &people.people[m.person];
                    (person.github.clone().unwrap_or_default(), m.status.clone())
                })
                .collect();
            (g.id.clone(), members)
        })
        .collect()
}

#[test]
fn cncfs_example_files_read_as_teams_of_people() {
    let (read, warnings) =
        testing::parse_people_cncf(&data("example-maintainers.yaml"), "maintainers.yaml");
    let people = read.expect("reads");
    assert!(warnings.is_empty(), "{warnings:?}");
    let groups = groups(&people);
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0].0, "project-maintainers");
    let logins: Vec<&str> = groups[0].1.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(logins, ["thockin", "liggitt", "derekwaynecarr", "dims"]);
    assert_eq!(groups[1].0, "sig-release-leads");
    assert_eq!(people.people.len(), 7);
    // Each person is located at their handle.
    let at = people.people[1].at.as_ref().expect("placed");
    assert_eq!(
        (at.line(), &people.file.text[at.range.clone()]),
        (13, "liggitt")
    );
    for name in ["template-maintainers.yaml", "testdata-maintainers.yaml"] {
        let (read, _) = testing::parse_people_cncf(&data(name), name);
        let people = read.unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(people.groups[0].id, "project-maintainers", "{name}");
    }
}

#[test]
fn several_entries_prefix_their_teams_and_emeritus_teams_are_former() {
    let text = "maintainers:\n  - project_id: a\n    teams:\n      - name: project-maintainers\n        members: [ada, '@Bob']\n      - name: emeritus\n        members: [carl]\n  - project_id: b\n    teams:\n      - name: project-maintainers\n        members: [ADA]\n";
    let (read, warnings) = testing::parse_people_cncf(text, "m.yaml");
    let people = read.expect("reads");
    let ids: Vec<&str> = people.group_ids().collect();
    assert_eq!(
        ids,
        [
            "a-project-maintainers",
            "a-emeritus",
            "b-project-maintainers"
        ]
    );
    assert_eq!(people.people.len(), 3, "ada and ADA are one person");
    assert_eq!(
        groups(&people)[1].1,
        [("carl".to_string(), Some("emeritus".to_string()))]
    );
    // The `@` is stripped, as the validator does, and said.
    assert_eq!(groups(&people)[0].1[1].0, "Bob");
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].message.contains("`@Bob` is written with `@`"),
        "{}",
        warnings[0].message
    );
}

#[test]
fn the_format_is_implied_by_its_path_and_read_in_a_build() {
    let dir = book_root(&[(
        ".project/maintainers.yaml",
        &data("example-maintainers.yaml"),
    )]);
    let config = json!({"preprocessor": {"community": {"people": ".project/maintainers.yaml"}}});
    let result = run(&request(
        Shape::V05,
        dir.path(),
        config,
        &[("C", "c.md", "{{#maintainers sig-release-leads}}\n")],
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    let page = result.contents(Shape::V05).remove(0);
    for login in ["justaugustus", "cpanato", "saschagrunert"] {
        assert!(page.contains(login), "{page}");
    }
}

/// Writes `files` into a new book whose `book.toml` has `settings` in
/// `[preprocessor.community]`.
fn book(settings: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let toml = format!("[book]\ntitle = \"T\"\n\n[preprocessor.community]\n{settings}\n");
    let mut all = vec![("book.toml", toml.as_str())];
    all.extend_from_slice(files);
    book_root(&all)
}

/// Each person with a login and a membership, lowercased, and whether
/// they serve (a membership not emeritus or alumni), from `roster --format
/// json`.
fn standing(json: &str) -> BTreeMap<String, bool> {
    let roster: Value = serde_json::from_str(json).expect("json");
    let people = roster["people"].as_array().cloned().unwrap_or_default();
    let login_of = |handle: &str| {
        (people.iter())
            .find(|p| p["handle"] == handle)
            .and_then(|p| p["github"].as_str().map(str::to_lowercase))
    };
    let mut out = BTreeMap::new();
    for group in roster["groups"].as_array().into_iter().flatten() {
        for member in group["members"].as_array().into_iter().flatten() {
            let Some(login) = login_of(member["handle"].as_str().unwrap_or("")) else {
                continue;
            };
            let serves = !matches!(member["status"].as_str(), Some("emeritus" | "alumni"));
            *out.entry(login).or_insert(false) |= serves;
        }
    }
    out
}

/// Writes the roster of `root` as `.project/maintainers.yaml` (checked
/// against the validator's rules), reads it back in a book of its own,
/// and compares who serves.
fn roundtrip(
    root: &Path,
    extra: &[&str],
) -> (String, BTreeMap<String, bool>, BTreeMap<String, bool>) {
    let (code, before, stderr) = cli(root, &["roster", ".", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let mut args = vec![
        "roster",
        ".",
        "--format",
        "cncf-maintainers",
        "--project-id",
        "demo",
    ];
    args.extend_from_slice(extra);
    let (code, yaml, stderr) = cli(root, &args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(validate(&yaml), Vec::<String>::new(), "{yaml}");
    let copy = book(
        "people = \".project/maintainers.yaml\"",
        &[(".project/maintainers.yaml", &yaml)],
    );
    let (code, after, stderr) = cli(copy.path(), &["roster", ".", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}\n{yaml}");
    (yaml, standing(&before), standing(&after))
}

const MAINTAINERS_MD: &str = "# Maintainers\n\n| Name | GitHub |\n|------|--------|\n| Ada Lovelace | @ada |\n| Grace Hopper | @grace |\n| Linus | @linus |\n\n## Emeritus Maintainers\n\n| Name | GitHub |\n|------|--------|\n| Alan Turing | @alan |\n\n# Reviewers\n\n- Margaret Hamilton (@margaret)\n";

#[test]
fn the_written_file_passes_the_validator_and_reads_back_as_the_same_people() {
    let dir = book(
        "people = \"MAINTAINERS.md\"",
        &[("MAINTAINERS.md", MAINTAINERS_MD)],
    );
    let (yaml, before, after) = roundtrip(dir.path(), &["--org", "acme"]);
    insta::assert_snapshot!("cncf_written", yaml);
    assert_eq!(before, after);
    assert_eq!(before.get("alan"), Some(&false));
    // The repository's own example book.
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/community");
    let (code, json, stderr) = cli(&example, &["roster", ".", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let first: Value = serde_json::from_str(&json).expect("json");
    let group = first["groups"][0]["id"]
        .as_str()
        .expect("a group")
        .to_string();
    let (_, before, after) = roundtrip(&example, &["--project-group", &group]);
    assert_eq!(before, after);
}

#[test]
fn without_a_maintainers_group_the_writer_names_the_groups() {
    let dir = book(
        "people = \"MAINTAINERS.md\"",
        &[("MAINTAINERS.md", "# Core\n\n- Ada (@ada)\n")],
    );
    let (code, stdout, stderr) = cli(dir.path(), &["roster", ".", "--format", "cncf-maintainers"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(
        stderr.contains("no group `maintainers` to write as `project-maintainers` (groups: core)"),
        "{stderr}"
    );
    assert!(stderr.contains("--project-group"), "{stderr}");
}

/// The people files of `../shared/corpus/others/people-files`.
fn corpus_cases() -> Option<Vec<PathBuf>> {
    let root = common::corpus_path("cncf_roundtrip", "others/people-files")?;
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("expected.json").is_file())
        .collect();
    cases.sort();
    Some(cases)
}

#[test]
fn corpus_people_files_roundtrip_through_the_cncf_file() {
    let Some(cases) = corpus_cases() else { return };
    let mut failures = Vec::new();
    let mut tried = 0;
    for case in &cases {
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(case.join("expected.json")).expect("read"),
        )
        .expect("json");
        let file = expected["file"].as_str().expect("file");
        let section = expected["section"]
            .as_str()
            .map_or(String::new(), |s| format!(", section = {s:?}"));
        let text = std::fs::read_to_string(case.join(file)).expect("read");
        let dir = book(
            &format!("people = [{{ path = {file:?}{section} }}]"),
            &[(file, &text)],
        );
        let (_, json, _) = cli(dir.path(), &["roster", ".", "--format", "json"]);
        let Ok(first) = serde_json::from_str::<Value>(&json) else {
            failures.push(format!("{}: no roster", case.display()));
            continue;
        };
        // The first group with an active member is the project group.
        let before = standing(&json);
        let people = first["people"].as_array().cloned().unwrap_or_default();
        let has_login = |handle: &Value| {
            (people.iter()).any(|p| p["handle"] == *handle && p["github"].is_string())
        };
        let group = (first["groups"].as_array().into_iter().flatten()).find(|g| {
            (g["members"].as_array().into_iter().flatten())
                .any(|m| m["status"].is_null() && has_login(&m["handle"]))
        });
        let Some(group) = group.and_then(|g| g["id"].as_str()) else {
            continue;
        };
        let (_, _, after) = roundtrip(dir.path(), &["--project-group", group]);
        tried += 1;
        if before != after {
            failures.push(format!("{}: {before:?}\n!= {after:?}", case.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        tried * 4 >= cases.len() * 3,
        "{tried} of {} files tried",
        cases.len()
    );
}

const OWNERS_ALIASES: &str =
    "aliases:\n  approvers:\n    - ada\n    - Grace\n    - alan\n  reviewers:\n    - margaret\n";
const CNCF: &str = "maintainers:\n  - project_id: \"demo\"\n    teams:\n      - name: \"project-maintainers\"\n        members:\n          - ada\n          - linus\n      - name: \"emeritus\"\n        members:\n          - grace\n";

/// A book in `docs/` whose `maintainers` group (MAINTAINERS.md) has two
/// copies above it: `.project/maintainers.yaml` and OWNERS_ALIASES.
fn three_copies() -> tempfile::TempDir {
    book_root(&[
        ("MAINTAINERS.md", MAINTAINERS_MD),
        ("OWNERS_ALIASES", OWNERS_ALIASES),
        (".project/maintainers.yaml", CNCF),
        (
            "docs/book.toml",
            "[book]\ntitle = \"T\"\n\n[preprocessor.community]\npeople = \"../MAINTAINERS.md\"\n\n[preprocessor.community.copies]\nmaintainers = [\"../.project/maintainers.yaml\", \"../OWNERS_ALIASES#approvers\"]\n",
        ),
    ])
}

#[test]
fn compare_names_every_difference_with_the_similarity() {
    let dir = three_copies();
    let (code, table, stderr) = cli(dir.path(), &["roster", "docs", "--compare"]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("compare_human", table);
    // Grace is emeritus in the CNCF file, Linus missing from the aliases,
    // Alan active there and emeritus in MAINTAINERS.md.
    for expected in [
        "@grace is active in the group `maintainers` but emeritus in the copy `../.project/maintainers.yaml`",
        "@linus is active in the group `maintainers` but missing from the copy `../OWNERS_ALIASES#approvers`",
        "@alan is active in the copy `../OWNERS_ALIASES#approvers` but emeritus in the group `maintainers`",
    ] {
        assert!(stderr.contains(expected), "{expected}\n{stderr}");
    }
    assert_eq!(stderr.matches("warning[C410]").count(), 3, "{stderr}");
    let (code, json, stderr) = cli(
        dir.path(),
        &["roster", "docs", "--compare", "--format", "json"],
    );
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("compare_json", json);
    let json: Value = serde_json::from_str(&json).expect("json");
    assert_eq!(json[0]["similarity_percent"], 66);
    assert_eq!(json[1]["similarity"], 0.5);
    // A format the comparison has no shape in is refused, not ignored.
    let (code, out, stderr) = cli(
        dir.path(),
        &["roster", "docs", "--compare", "--format", "toml"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(out.is_empty(), "{out}");
    assert!(
        stderr.contains("`roster --compare` writes a table (the default) or `--format json`"),
        "{stderr}"
    );
}

#[test]
fn a_build_warns_of_each_difference_located_in_both_files() {
    let dir = three_copies();
    let root = dir.path().join("docs");
    let config = json!({"preprocessor": {"community": {
        "people": "../MAINTAINERS.md",
        "copies": {"maintainers": ["../.project/maintainers.yaml", "../OWNERS_ALIASES#approvers"]},
    }}});
    let result = run(&request(
        Shape::V05,
        &root,
        config,
        &[("C", "c.md", "Hello\n")],
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    let messages = result.messages();
    for (here, there) in [
        ("MAINTAINERS.md:6:1", "../.project/maintainers.yaml:10:13"),
        ("MAINTAINERS.md:7:1", "../OWNERS_ALIASES:2:3"),
        ("OWNERS_ALIASES:5:7", "../MAINTAINERS.md:13:1"),
    ] {
        let located = (messages.lines())
            .any(|l| l.trim_start().starts_with("-->") && l.ends_with(&format!("/{here}")));
        assert!(located, "{here}\n{messages}");
        assert!(messages.contains(there), "{there}\n{messages}");
        // The other side is a location too (a note there), for the
        // formats that read locations only (JSON, SARIF, annotations).
        let there = there.trim_start_matches("../");
        let also = (messages.lines())
            .any(|l| l.trim_start().starts_with("-->") && l.ends_with(&format!("/{there}")));
        assert!(also, "{there}\n{messages}");
    }
    assert_eq!(
        result.stderr.matches("warning[C410]").count(),
        3,
        "{}",
        result.stderr
    );
    assert_eq!(
        result.stderr.matches("note[C410]").count(),
        3,
        "{}",
        result.stderr
    );
}

#[test]
fn copies_settings_that_name_nothing_are_errors_in_book_toml() {
    let dir = three_copies();
    let root = dir.path().join("docs");
    for (copies, message) in [
        (
            json!({"maintainers": ["../nope.yaml"]}),
            "names the copy `../nope.yaml`, which is not a file",
        ),
        (
            json!({"maintainers": "../OWNERS_ALIASES"}),
            "must be a list of files",
        ),
        (json!(["../OWNERS_ALIASES"]), "must be a table of group ids"),
        (
            json!({"maintainers": [{"path": "../OWNERS_ALIASES", "grop": "x"}]}),
            "unknown key `grop`",
        ),
    ] {
        let config = json!({"preprocessor": {"community": {"people": "../MAINTAINERS.md", "copies": copies}}});
        let result = run(&request(
            Shape::V05,
            &root,
            config,
            &[("C", "c.md", "Hello\n")],
        ));
        assert_eq!(result.code, 1, "{}", result.stderr);
        assert!(
            result.messages().contains(message),
            "{message}\n{}",
            result.stderr
        );
    }
    // A team the copy does not have, and a group the roster does not have.
    let config = json!({"preprocessor": {"community": {"people": "../MAINTAINERS.md", "copies": {
        "maintainers": ["../OWNERS_ALIASES#aprovers"], "core": ["../OWNERS_ALIASES"],
    }}}});
    let result = run(&request(
        Shape::V05,
        &root,
        config,
        &[("C", "c.md", "Hello\n")],
    ));
    let messages = result.messages();
    assert!(
        messages.contains("has no team, alias or group `aprovers`"),
        "{messages}"
    );
    assert!(messages.contains("did you mean `approvers`?"), "{messages}");
    assert!(
        messages.contains("names the group `core`, which the roster does not have"),
        "{messages}"
    );
}

/// Through `mdbook-community check` and a real mdBook (`MDBOOK_05`,
/// `MDBOOK_04` or the one on PATH): the three warnings, each at the file
/// the person is active in, with the other file's place.
#[test]
fn check_with_a_real_mdbook_warns_in_both_files() {
    let dir = three_copies();
    let root = dir.path();
    std::fs::create_dir_all(root.join("docs/src")).expect("mkdir");
    std::fs::write(
        root.join("docs/src/SUMMARY.md"),
        "# Summary\n\n- [Intro](intro.md)\n",
    )
    .expect("write");
    std::fs::write(
        root.join("docs/src/intro.md"),
        "# Intro\n\n{{#maintainers maintainers}}\n",
    )
    .expect("write");
    for mdbook in common::mdbook::Mdbook::all() {
        let path = mdbook.path.to_string_lossy().into_owned();
        let (code, _, stderr) = cli(root, &["check", "docs", "--mdbook", &path]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(stderr.matches("warning[C410]").count(), 3, "{stderr}");
        for place in [
            // The terminal names files from where the command runs.
            "MAINTAINERS.md:6:1",
            "../.project/maintainers.yaml:10:13",
            "MAINTAINERS.md:7:1",
            "../OWNERS_ALIASES:2:3",
            "OWNERS_ALIASES:5:7",
            "../MAINTAINERS.md:13:1",
        ] {
            assert!(stderr.contains(place), "{place}\n{stderr}");
        }
        let (code, _, stderr) = cli(
            root,
            &["check", "docs", "--mdbook", &path, "--deny", "warnings"],
        );
        assert_ne!(code, 0, "{stderr}");
    }
}
