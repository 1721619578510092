//! The roster read from the people files projects already keep: each
//! format on small files of its own, the merge, their bad inputs, and the
//! real files of Kubernetes, all-contributors, rust-lang/team and containerd
//! when `../shared/corpus` is there.

mod common;

use std::path::Path;

use common::{RunResult, Shape, book_root, request, run};
use mdbook_community::testing;
use serde_json::{Value, json};

/// Runs `chapter` in a book root holding `files`, with `people` as the
/// `people` setting.
fn build(files: &[(&str, &str)], people: Value, chapter: &str) -> RunResult {
    let dir = book_root(files);
    let config = json!({"preprocessor": {"community": {"people": people}}});
    run(&request(
        Shape::V05,
        dir.path(),
        config,
        &[("C", "c.md", chapter)],
    ))
    .with_root(dir.path())
}

trait WithRoot {
    fn with_root(self, root: &Path) -> RunResult;
}

impl WithRoot for RunResult {
    /// The result with the temporary root shown as `<root>`.
    fn with_root(mut self, root: &Path) -> RunResult {
        self.stderr = self.stderr.replace(&root.display().to_string(), "<root>");
        self
    }
}

fn page(result: &RunResult) -> String {
    assert_eq!(result.code, 0, "stderr:\n{}", result.stderr);
    result.contents(Shape::V05).remove(0)
}

const OWNERS_ALIASES: &str = "aliases:\n  docs-leads:\n    - ada\n    - grace\n  docs-reviewers:\n    - margaret\n    - docs-leads\n";
const OWNERS: &str = "approvers:\n  - docs-leads\n  - linus\nreviewers:\n  - docs-reviewers\nemeritus_approvers:\n  - alan\n";
const NAMES: &str = "[people.ada]\nname = \"Ada Lovelace\"\naffiliation = \"Engines\"\n";

#[test]
fn owners_files_expand_aliases_and_mark_emeritus_approvers() {
    let files = [
        ("OWNERS_ALIASES", OWNERS_ALIASES),
        ("docs/OWNERS", OWNERS),
        ("maintainers.toml", NAMES),
    ];
    let people = json!(["maintainers.toml", "OWNERS_ALIASES", {"path": "docs/OWNERS", "prefix": "sig-docs"}]);
    let out = page(&build(
        &files,
        people.clone(),
        "{{#maintainers sig-docs-approvers}}\n",
    ));
    assert_eq!(
        out,
        "- Ada Lovelace ([ada](https://github.com/ada))\n\
         - grace ([grace](https://github.com/grace))\n\
         - linus ([linus](https://github.com/linus))\n\
         - (emeritus) alan ([alan](https://github.com/alan))\n"
    );
    // Aliases of aliases expand too, each person once.
    let out = page(&build(
        &files,
        people,
        "{{#maintainers sig-docs-reviewers style=inline}}\n",
    ));
    assert!(
        out.contains("margaret") && out.contains("Ada Lovelace") && out.contains("grace"),
        "{out}"
    );
}

#[test]
fn all_contributors_are_one_group_with_their_contributions() {
    let rc = r#"{"projectName": "x", "contributors": [
      {"login": "kent", "name": "Kent", "avatar_url": "https://example.com/k.png", "profile": "https://kent.example", "contributions": ["doc", "review"]},
      {"login": "jane", "name": "Jane", "contributions": []}
    ]}"#;
    let out = page(&build(
        &[(".all-contributorsrc", rc)],
        json!(".all-contributorsrc"),
        "{{#maintainers contributors}}\n",
    ));
    assert_eq!(
        out,
        "- Kent ([kent](https://kent.example))\n- Jane ([jane](https://github.com/jane))\n"
    );
}

#[test]
fn maintainers_csv_sections_are_groups() {
    let csv = "# project maintainers\n#\n# COMMITTERS\n# GitHub ID, Name, Email address, GPG fingerprint\n\"akihiro\",\"Akihiro Suda\",\"a@example.com\",\"C020 EA87, 910C\"\n\n# REVIEWERS\n\"jterry\",\"Justin Terry\",\"j@example.com\",\"\"\n";
    let files = [("MAINTAINERS", csv)];
    let out = page(&build(
        &files,
        json!("MAINTAINERS"),
        "{{#maintainers committers style=inline}} and {{#maintainers reviewers style=inline}}\n",
    ));
    assert_eq!(
        out,
        "Akihiro Suda ([akihiro](https://github.com/akihiro)) and Justin Terry ([jterry](https://github.com/jterry))\n"
    );
}

#[test]
fn rust_team_folders_give_teams_with_leads_alumni_and_parents() {
    let files = [
        (
            "team/people/ada.toml",
            "name = \"Ada\"\ngithub = \"ada\"\ngithub-id = 1\n",
        ),
        ("team/people/bob.toml", "name = \"Bob\"\ngithub = \"Bob\"\n"),
        ("team/people/cy.toml", "name = \"Cy\"\ngithub = \"cy\"\n"),
        (
            "team/teams/lang.toml",
            "name = \"lang\"\n[people]\nleads = [\"ada\"]\nmembers = [\"ada\", { github = \"bob\", roles = [\"x\"] }]\nalumni = [\"cy\"]\n[website]\nname = \"Language team\"\ndescription = \"Designs the language\"\n[[github]]\norgs = [\"rust-lang\"]\n",
        ),
        (
            "team/teams/lang-docs.toml",
            "name = \"lang-docs\"\nsubteam-of = \"lang\"\n[people]\nleads = []\nmembers = [\"cy\"]\nalumni = []\n",
        ),
    ];
    let out = page(&build(&files, json!("team"), "{{#maintainers lang}}\n"));
    assert_eq!(
        out,
        "- Ada, lead ([ada](https://github.com/ada))\n- Bob ([Bob](https://github.com/Bob))\n- (alumni) Cy ([cy](https://github.com/cy))\n"
    );
    let out = page(&build(
        &files,
        json!("team"),
        "# Teams\n\n{{#maintainers}}\n",
    ));
    assert!(
        out.contains("## Language team\n\nDesigns the language\n"),
        "{out}"
    );
    assert!(out.contains("### lang-docs\n"), "{out}");
}

#[test]
fn later_sources_fill_gaps_but_never_overwrite() {
    let files = [
        ("maintainers.toml", "[people.ada]\ngithub = \"Ada-L\"\n"),
        (
            ".all-contributorsrc",
            r#"{"contributors": [{"login": "ada-l", "name": "Ada Lovelace", "profile": "https://ada.example"}]}"#,
        ),
    ];
    let out = page(&build(
        &files,
        json!(["maintainers.toml", ".all-contributorsrc"]),
        "{{#person ada}}\n",
    ));
    assert_eq!(out, "Ada Lovelace ([ada](https://ada.example))\n");
}

fn errors(files: &[(&str, &str)], people: Value) -> String {
    let result = build(files, people, "{{#maintainers x}}\n");
    assert_eq!(result.code, 1, "stderr:\n{}", result.stderr);
    result.stderr
}

/// A bad-input case: its name, the book's files, `people`, and the message.
type BadSource = (
    &'static str,
    Vec<(&'static str, &'static str)>,
    Value,
    &'static str,
);

#[test]
fn bad_sources_are_located_errors() {
    let cases: Vec<BadSource> = vec![
        (
            "malformed YAML",
            vec![("OWNERS_ALIASES", "aliases:\n  a: [x\n")],
            json!("OWNERS_ALIASES"),
            "OWNERS_ALIASES is not valid YAML",
        ),
        (
            "no aliases",
            vec![("OWNERS_ALIASES", "other: 1\n")],
            json!("OWNERS_ALIASES"),
            "OWNERS_ALIASES has no `aliases:`",
        ),
        (
            "missing prefix",
            vec![("OWNERS", OWNERS)],
            json!("OWNERS"),
            "give it a `prefix`",
        ),
        (
            "unknown format",
            vec![("people.txt", "")],
            json!({"path": "people.txt", "format": "owner"}),
            "unknown format `owner`",
        ),
        (
            "no format",
            vec![("people.txt", "")],
            json!("people.txt"),
            "cannot tell the format of `people.txt`",
        ),
        (
            "not a login",
            vec![(
                ".all-contributorsrc",
                r#"{"contributors": [{"login": "not a login"}]}"#,
            )],
            json!(".all-contributorsrc"),
            "`not a login` is not a GitHub login",
        ),
        (
            "malformed JSON",
            vec![(".all-contributorsrc", "{\"contributors\": [")],
            json!(".all-contributorsrc"),
            "is not valid JSON",
        ),
        (
            "unknown person in a team",
            vec![
                ("t/people/a.toml", "github = \"a\"\n"),
                (
                    "t/teams/x.toml",
                    "name = \"x\"\n[people]\nmembers = [\"a\", \"zed\"]\n",
                ),
            ],
            json!("t"),
            "team `x` lists `zed`, who has no file in people/",
        ),
        (
            "alias cycle",
            vec![
                ("OWNERS_ALIASES", "aliases:\n  a:\n    - b\n  b:\n    - a\n"),
                ("OWNERS", "approvers:\n  - a\n"),
            ],
            json!(["OWNERS_ALIASES", {"path": "OWNERS", "prefix": "p"}]),
            "aliases form a cycle: b -> a -> b",
        ),
        (
            "folder without people and teams",
            vec![("t/readme.md", "")],
            json!({"path": "t", "format": "rust-team"}),
            "is not a rust-lang/team folder",
        ),
        (
            "malformed TOML",
            vec![
                ("t/people/a.toml", "github = \"a\"\n"),
                ("t/teams/x.toml", "name = \"x\n"),
            ],
            json!("t"),
            "t/teams/x.toml is not valid TOML",
        ),
        (
            "unclosed CSV quote",
            vec![("MAINTAINERS", "\"a\",\"b\n")],
            json!("MAINTAINERS"),
            "a quoted field is not closed",
        ),
        // Issue 26 (16).
        (
            "text after a closing quote",
            vec![("MAINTAINERS", "\"alice\"junk,\"A\"\n")],
            json!("MAINTAINERS"),
            "MAINTAINERS: text after a quoted field's closing quote",
        ),
        (
            "a tab-separated row",
            vec![("MAINTAINERS", "alice\tAlice\n")],
            json!("MAINTAINERS"),
            "MAINTAINERS: fields separated by a tab",
        ),
        (
            "same group twice",
            vec![
                ("MAINTAINERS", "# REVIEWERS\n\"a\",\"A\"\n"),
                (
                    "maintainers.toml",
                    "[people.b]\n[[groups]]\nid = \"reviewers\"\nmembers = [\"b\"]\n",
                ),
            ],
            json!(["maintainers.toml", "MAINTAINERS"]),
            "group `reviewers` is defined by two sources: `maintainers.toml` and `MAINTAINERS`",
        ),
        // Issue 36: an OWNERS prefix that makes an alias's name.
        (
            "an OWNERS prefix that makes an alias's id",
            vec![
                ("OWNERS_ALIASES", "aliases:\n  repo-reviewers:\n    - a\n"),
                (
                    "OWNERS",
                    "# comment\napprovers:\n  - a\nreviewers:\n  - repo-reviewers\n",
                ),
            ],
            json!(["OWNERS_ALIASES", { "path": "OWNERS", "prefix": "repo" }]),
            "group `repo-reviewers` is defined in `OWNERS_ALIASES` and is also the group `prefix = \"repo\"` makes of the reviewers in `OWNERS`",
        ),
        // Issue 26 (8): group ids from every format are checked alike.
        (
            "invisible character in an alias",
            vec![("OWNERS_ALIASES", "aliases:\n  \"co\u{200b}re\":\n    - a\n")],
            json!("OWNERS_ALIASES"),
            "must not contain invisible characters",
        ),
        (
            "empty alias",
            vec![("OWNERS_ALIASES", "aliases:\n  \"\":\n    - a\n")],
            json!("OWNERS_ALIASES"),
            "group id `` must not be empty",
        ),
        (
            "team name with a brace",
            vec![
                ("t/people/a.toml", "github = \"a\"\n"),
                ("t/teams/x.toml", "name = \"x {y}\"\n"),
            ],
            json!("t"),
            "group id `x {y}` must not contain spaces, quotes, braces",
        ),
        // Issue 26 (12): one source lists a login once.
        (
            "same login twice in MAINTAINERS",
            vec![("MAINTAINERS", "\"alice\",\"A\"\n\"ALICE\",\"B\"\n")],
            json!("MAINTAINERS"),
            "`ALICE` is listed twice in one people source",
        ),
        (
            "two people files of one login",
            vec![
                ("t/people/a.toml", "github = \"alice\"\n"),
                ("t/people/b.toml", "github = \"Alice\"\n"),
                ("t/teams/x.toml", "name = \"x\"\n"),
            ],
            json!("t"),
            "`Alice` is listed twice in one people source",
        ),
        // Issue 26 (13): one handle, two accounts.
        (
            "a handle of two accounts",
            vec![
                (
                    "maintainers.toml",
                    "[people.alice]\ngithub = \"alice-smith\"\n",
                ),
                ("OWNERS", "approvers:\n  - alice\n"),
            ],
            json!(["maintainers.toml", {"path": "OWNERS", "prefix": "p"}]),
            "two people have the handle `alice`: one with GitHub `alice-smith`, one with GitHub `alice`",
        ),
        // Issue 26 (15): a duplicate in one file says so.
        (
            "same section twice",
            vec![(
                "MAINTAINERS",
                "# REVIEWERS\n\"a\",\"A\"\n# REVIEWERS\n\"b\",\"B\"\n",
            )],
            json!("MAINTAINERS"),
            "group `reviewers` is defined twice in `MAINTAINERS`",
        ),
        (
            "second YAML document",
            vec![(
                "OWNERS_ALIASES",
                "aliases:\n  a: [x]\n---\naliases:\n  b: [y]\n",
            )],
            json!("OWNERS_ALIASES"),
            "second YAML document",
        ),
        (
            "NUL byte",
            vec![(
                "OWNERS_ALIASES",
                "aliases:\n  a:\n    - torvalds\0-impostor\n",
            )],
            json!("OWNERS_ALIASES"),
            "NUL byte",
        ),
    ];
    for (name, files, people, message) in cases {
        let stderr = errors(&files, people.clone());
        assert!(stderr.contains(message), "{name}: {stderr}");
        // Every error points at a line of a file (settings at book.toml).
        assert!(
            stderr.contains("--> ") || stderr.contains("book.toml"),
            "{name}: {stderr}"
        );
        // With `on-error = "warn"` the book still builds.
        let dir = book_root(&files);
        let config = json!({"preprocessor": {"community": {"people": people, "on-error": "warn"}}});
        let chapter = [("C", "c.md", "{{#maintainers x}}\n")];
        let result = run(&request(Shape::V05, dir.path(), config, &chapter));
        assert_eq!(result.code, 0, "{name}, on-error = warn: {}", result.stderr);
    }
}

/// Issue 26 (4): aliases that list aliases are expanded once each (40
/// levels of two aliases listing the next level's two were 2^40 steps),
/// and what they expand to is bounded.
/// An OWNERS `prefix` that makes an alias's name (the root OWNERS of a
/// repository whose aliases include `<repo>-reviewers`) is one error at the
/// alias, with the generated group's line in a note and another prefix as
/// the fix (issue 36).
#[test]
fn a_prefix_that_makes_an_alias_id_is_located_at_the_alias_with_the_prefix_as_fix() {
    let files = [
        (
            "OWNERS_ALIASES",
            "# aliases\naliases:\n  repo-reviewers:\n    - a\n",
        ),
        (
            "OWNERS",
            "# comment\napprovers:\n  - a\nreviewers:\n  - repo-reviewers\n",
        ),
    ];
    let people = json!(["OWNERS_ALIASES", { "path": "OWNERS", "prefix": "repo" }]);
    let stderr = errors(&files, people);
    assert_eq!(stderr.matches("error[C206]").count(), 1, "{stderr}");
    assert!(stderr.contains("OWNERS_ALIASES:3:3"), "{stderr}");
    assert!(
        stderr.contains("`OWNERS`, line 4: its `reviewers` become the group `repo-reviewers`"),
        "{stderr}"
    );
    assert!(stderr.contains("prefix = \"repo-root\""), "{stderr}");
    // The other order of sources: the same error, at the same place.
    let people = json!([{ "path": "OWNERS", "prefix": "repo" }, "OWNERS_ALIASES"]);
    let stderr = errors(&files, people);
    assert!(stderr.contains("OWNERS_ALIASES:3:3"), "{stderr}");
}

#[test]
fn aliases_of_aliases_expand_once_and_within_a_bound() {
    let mut chain = String::from("aliases:\n");
    for level in 0..40 {
        for side in ["a", "b"] {
            chain.push_str(&format!("  l{level}{side}:\n"));
            for next in ["a", "b"] {
                chain.push_str(&format!("    - l{}{next}\n", level + 1));
            }
        }
    }
    chain.push_str("  l40a: [ada]\n  l40b: [bob]\n");
    let owners = "approvers:\n  - l0a\n";
    let files = [("OWNERS_ALIASES", chain.as_str()), ("OWNERS", owners)];
    let people = json!(["OWNERS_ALIASES", {"path": "OWNERS", "prefix": "p"}]);
    let result = build(
        &files,
        people,
        "{{#maintainers p-approvers columns=handle}}\n",
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    let out = page(&result);
    assert!(out.contains("ada") && out.contains("bob"), "{out}");

    // 2,000 aliases each listing one alias of 2,000 logins: 4,000,000
    // memberships, over the bound; one error, where it was reached.
    let mut wide = String::from("aliases:\n  big:\n");
    for i in 0..2000 {
        wide.push_str(&format!("    - user{i}\n"));
    }
    for i in 0..2000 {
        wide.push_str(&format!("  a{i}: [big]\n"));
    }
    let stderr = errors(
        &[("OWNERS_ALIASES", wide.as_str())],
        json!("OWNERS_ALIASES"),
    );
    assert!(
        stderr.contains("the aliases expand to more than 1000000 group memberships"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("error[").count(), 1, "{stderr}");
}

/// Issue 26 (18): in a rust-lang/team folder only regular files inside it
/// are read; what is skipped is said, and no symbolic link is followed out.
#[test]
fn rust_team_files_that_are_not_regular_files_inside_are_skipped_with_a_word() {
    let dir = book_root(&[
        ("t/people/ada.toml", "github = \"ada\"\nname = \"Ada\"\n"),
        ("t/people/dir.toml/x", ""),
        (
            "t/teams/core.toml",
            "name = \"core\"\n[people]\nmembers = [\"ada\"]\n",
        ),
    ]);
    let people = dir.path().join("t/people");
    let made = std::process::Command::new("mkfifo")
        .arg(people.join("fifo.toml"))
        .status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    std::os::unix::fs::symlink("loop.toml", people.join("loop.toml")).expect("symlink");
    std::os::unix::fs::symlink("/etc/passwd", people.join("passwd.toml")).expect("symlink");
    std::os::unix::fs::symlink("ada.toml", people.join("same.toml")).expect("symlink");
    let config = json!({"preprocessor": {"community": {"people": "t"}}});
    let chapters = [("C", "c.md", "{{#maintainers core}}\n")];
    let mut cmd = common::bin();
    cmd.timeout(std::time::Duration::from_secs(20));
    let result = common::run_with(cmd, &request(Shape::V05, dir.path(), config, &chapters));
    let stderr = result.messages();
    for expected in [
        "t/people/dir.toml is skipped: a folder, not a file",
        "t/people/fifo.toml is skipped: not a regular file",
        "t/people/loop.toml is skipped: a symbolic link that leads nowhere or loops",
        "t/people/passwd.toml is skipped: a symbolic link out of the folder",
    ] {
        assert!(stderr.contains(expected), "{expected}: {stderr}");
    }
    assert!(!stderr.contains("root:"), "{stderr}");
    // A link inside the folder is read: `same.toml` is Ada again.
    assert!(stderr.contains("listed twice"), "{stderr}");
}

/// Issue 26 (11): `subteam-of` cycles are errors, not teams that vanish.
#[test]
fn subteam_cycles_are_errors() {
    let files = [
        ("t/people/a.toml", "github = \"a\"\n"),
        ("t/teams/x.toml", "name = \"x\"\nsubteam-of = \"y\"\n"),
        ("t/teams/y.toml", "name = \"y\"\nsubteam-of = \"x\"\n"),
        ("t/teams/z.toml", "name = \"z\"\nsubteam-of = \"z\"\n"),
    ];
    let stderr = errors(&files, json!("t"));
    assert!(
        stderr.contains("groups form a cycle through their parents: x -> y -> x"),
        "{stderr}"
    );
    assert!(
        stderr.contains("groups form a cycle through their parents: z -> z"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("error[C207]").count(), 2, "{stderr}");
}

/// Issue 27 (9): a people file read in a format it is not is one error,
/// with the setting to write, not one error per line.
#[test]
fn a_file_in_another_format_is_one_error_with_the_setting_to_write() {
    let markdown = "# Maintainers\n\n| Name | GitHub |\n|---|---|\n| Ada | @ada |\n| Bo | @bo |\n\n## Emeritus\n\n- Cy (@cy)\n";
    let files = [("MAINTAINERS.md", markdown)];
    let stderr = errors(
        &files,
        json!({"path": "MAINTAINERS.md", "format": "maintainers-csv"}),
    );
    assert_eq!(stderr.matches("error[").count(), 1, "{stderr}");
    assert!(
        stderr.contains(
            "error[C102]: `MAINTAINERS.md` looks like Markdown, not a containerd MAINTAINERS file"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(r#"people = [{ path = "MAINTAINERS.md", format = "markdown" }]"#),
        "{stderr}"
    );
    assert!(stderr.contains("--> MAINTAINERS.md:1:1"), "{stderr}");
}

#[test]
fn a_broken_source_still_builds_with_on_error_warn() {
    let dir = book_root(&[("OWNERS_ALIASES", "aliases:\n  a: [x\n")]);
    let config =
        json!({"preprocessor": {"community": {"people": "OWNERS_ALIASES", "on-error": "warn"}}});
    let result = run(&request(
        Shape::V05,
        dir.path(),
        config,
        &[("C", "c.md", "{{#maintainers a}}\n")],
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(
        result
            .messages()
            .contains("warning: OWNERS_ALIASES is not valid YAML"),
        "{}",
        result.stderr
    );
}

// ------------------------------------------------------------- real files

/// The corpus folder `others/name`, if `../shared/corpus` is there (the
/// test is skipped otherwise, and fails under `CI=true`).
fn real(test: &str, name: &str) -> Option<String> {
    let path = common::corpus_path(test, &format!("others/{name}"))?;
    Some(path.display().to_string())
}

#[test]
fn kubernetes_owners_and_aliases() {
    let Some(k8s) = real("kubernetes_owners_and_aliases", "kubernetes-community") else {
        return;
    };
    let people = json!([format!("{k8s}/OWNERS_ALIASES"), {"path": format!("{k8s}/OWNERS"), "prefix": "community"}]);
    let out = page(&build(
        &[],
        people,
        "{{#maintainers community-approvers}}\n",
    ));
    assert!(
        out.contains("- cblecker ([cblecker](https://github.com/cblecker))"),
        "{out}"
    );
    // `sig-contributor-experience-leads` is an alias: its members, not itself.
    assert!(!out.contains("sig-contributor-experience-leads"), "{out}");
    assert!(out.contains("- (emeritus) spiffxp"), "{out}");
}

#[test]
fn all_contributors_of_all_contributors() {
    let Some(dir) = real("all_contributors_of_all_contributors", "all-contributors") else {
        return;
    };
    let out = page(&build(
        &[],
        json!(format!("{dir}/.all-contributorsrc")),
        "{{#maintainers contributors style=table}}\n",
    ));
    assert!(out.contains("Kent C. Dodds"), "{out}");
}

#[test]
fn rust_lang_team() {
    let Some(dir) = real("rust_lang_team", "rust-lang-team") else {
        return;
    };
    let out = page(&build(
        &[],
        json!(format!("{dir}")),
        "{{#maintainers compiler}}\n",
    ));
    assert!(
        out.contains(", lead ([davidtwco](https://github.com/davidtwco))"),
        "{out}"
    );
}

#[test]
fn containerd_maintainers() {
    let Some(dir) = real("containerd_maintainers", "containerd-project") else {
        return;
    };
    let out = page(&build(
        &[],
        json!(format!("{dir}/MAINTAINERS")),
        "{{#maintainers committers}}\n",
    ));
    assert!(
        out.contains("- Akihiro Suda ([AkihiroSuda](https://github.com/AkihiroSuda))"),
        "{out}"
    );
}

// ------------------------------------------------------- tables and grids

const STEERING: &str = r#"
[people.ada]
name = "Ada Lovelace"
affiliation = "Engines Ltd"

[people.ada.fields]
pronouns = "she/her"

[people.bob]
name = "Bob <Builder>"
github = false

[[groups]]
id = "steering"
members = [
    { handle = "ada", fields = { term-ends = "July 2027" } },
    { handle = "bob", fields = { term-ends = "2028" } },
]
"#;

#[test]
fn columns_choose_and_order_columns_including_free_fields() {
    let out = page(&build(
        &[("maintainers.toml", STEERING)],
        json!("maintainers.toml"),
        "{{#maintainers steering style=table columns=name,affiliation,term-ends,pronouns}}\n",
    ));
    assert_eq!(
        out,
        "|Name|Affiliation|Term ends|Pronouns|\n|----|-----------|---------|--------|\n|Ada Lovelace|Engines Ltd|July 2027|she/her|\n|Bob \\<Builder>||2028||\n"
    );
    // Without `columns=`, the fields come after the built-in columns, and
    // empty columns (role, status) are left out.
    let out = page(&build(
        &[("maintainers.toml", STEERING)],
        json!("maintainers.toml"),
        "{{#maintainers steering style=table}}\n",
    ));
    assert!(
        out.starts_with("|Name|Handle|Affiliation|Term ends|Pronouns|\n"),
        "{out}"
    );
}

#[test]
fn an_unknown_column_is_an_error_with_a_suggestion() {
    let result = build(
        &[("maintainers.toml", STEERING)],
        json!("maintainers.toml"),
        "{{#maintainers steering style=table columns=name,term-end}}\n",
    );
    assert_eq!(result.code, 1);
    assert!(
        result.messages().contains("unknown column `term-end`"),
        "{}",
        result.stderr
    );
    assert!(
        result.messages().contains("did you mean `term-ends`?"),
        "{}",
        result.stderr
    );
}

#[test]
fn grids_show_avatars_or_initials_and_names_as_text() {
    let out = page(&build(
        &[("maintainers.toml", STEERING)],
        json!("maintainers.toml"),
        "{{#maintainers steering style=grid}}\n",
    ));
    assert!(out.contains("<div class=\"community-grid\">"), "{out}");
    assert!(
        out.contains("<img class=\"community-avatar\" src=\"https://github.com/ada.png\""),
        "{out}"
    );
    assert!(
        out.contains("<span class=\"community-initials\" aria-hidden=\"true\">BB</span>"),
        "{out}"
    );
    assert!(
        out.contains("<span class=\"community-grid-name\">Bob &lt;Builder&gt;</span>"),
        "{out}"
    );
    assert!(!out.contains("<Builder>"), "{out}");
    // Not installed: the styles come inline.
    assert!(out.contains("<style>"), "{out}");
}

#[test]
fn all_contributors_tables_show_their_contributions() {
    let rc = r#"{"contributors": [{"login": "kent", "name": "Kent", "contributions": ["doc", "review"]}]}"#;
    let out = page(&build(
        &[(".all-contributorsrc", rc)],
        json!(".all-contributorsrc"),
        "{{#maintainers contributors style=table}}\n",
    ));
    assert_eq!(
        out,
        "|Name|Handle|Contributions|\n|----|------|-------------|\n|Kent|[kent](https://github.com/kent)|doc, review|\n"
    );
}

#[test]
fn a_broken_source_is_one_error_however_many_directives_use_it() {
    let chapter = "{{#maintainers a}}\n\n{{#person x}}\n\n{{#maintainers a style=inline}}\n";
    let result = build(
        &[("OWNERS_ALIASES", "aliases:\n  a: [x\n")],
        json!("OWNERS_ALIASES"),
        chapter,
    );
    assert_eq!(result.code, 1);
    assert_eq!(
        result.messages().matches("is not valid YAML").count(),
        1,
        "{}",
        result.stderr
    );
    assert!(
        result
            .messages()
            .contains("3 directives that use `OWNERS_ALIASES` were not expanded"),
        "{}",
        result.stderr
    );
    assert!(
        result.messages().contains("aborting due to 1 error"),
        "{}",
        result.stderr
    );
}

// ------------------------------------------------- Markdown people files

/// One expected membership of `tests/data/maintainers-md/*.tsv`, written
/// by reading each real file (not by running the reader): the group's
/// title (`-` for people above every heading), the login (`-` for none),
/// the name as the file first writes it (`-`: none but the login), and
/// whether the group says the person left (`emeritus`).
fn expected_memberships(name: &str) -> Vec<[String; 4]> {
    let path = format!(
        "{}/tests/data/maintainers-md/{name}.tsv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 4, "{path}: {line}");
            [0, 1, 2, 3].map(|i| fields[i].to_string())
        })
        .collect()
}

/// Every file of `maintainers-md/` in the corpus reads with no person lost
/// and no login invented, each person in the groups its headings make,
/// with the status an emeritus (or alumni) heading gives.
#[test]
fn every_real_markdown_people_file_reads_whole() {
    let Some(dir) = common::corpus_path(
        "every_real_markdown_people_file_reads_whole",
        "others/maintainers-md",
    ) else {
        return;
    };
    let mut folders: Vec<_> = std::fs::read_dir(&dir)
        .expect("readable")
        .map(|e| e.expect("entry").path())
        .collect();
    folders.sort();
    assert_eq!(folders.len(), 10, "{folders:?}");
    for folder in folders {
        let name = folder
            .file_name()
            .expect("name")
            .to_string_lossy()
            .to_string();
        let file = std::fs::read_dir(&folder)
            .expect("readable")
            .next()
            .expect("one file")
            .expect("entry")
            .path();
        let text = std::fs::read_to_string(&file).expect("UTF-8");
        let shown = file
            .file_name()
            .expect("name")
            .to_string_lossy()
            .to_string();
        let (people, warnings) = testing::parse_people_markdown(&text, &shown);
        let people = people.unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let default_title = people.groups.first().map(|g| g.title.clone());
        let mut got = std::collections::BTreeSet::new();
        for group in &people.groups {
            for member in &group.members {
                let person = &people.people[member.person];
                let login = person.github.clone().unwrap_or("-".into());
                let inactive = matches!(member.status.as_deref(), Some("emeritus" | "alumni"));
                let status = if inactive { "emeritus" } else { "-" };
                got.insert([
                    group.title.clone(),
                    login,
                    person.name.clone(),
                    status.into(),
                ]);
            }
        }
        let expected: std::collections::BTreeSet<[String; 4]> = expected_memberships(&name)
            .into_iter()
            .map(|[group, login, person, status]| {
                let group = match group.as_str() {
                    "-" => default_title.clone().unwrap_or_default(),
                    _ => group,
                };
                // A person the file names by login only shows as the login.
                let person = if person == "-" { login.clone() } else { person };
                [group, login, person, status]
            })
            .collect();
        let lost: Vec<_> = expected.difference(&got).collect();
        let extra: Vec<_> = got.difference(&expected).collect();
        assert!(
            lost.is_empty() && extra.is_empty(),
            "{name}:\nlost {lost:#?}\nread but not expected {extra:#?}"
        );
        let logins: std::collections::BTreeSet<&str> =
            expected.iter().map(|e| e[1].as_str()).collect();
        for person in &people.people {
            let login = person.github.as_deref().unwrap_or("-");
            assert!(logins.contains(login), "{name}: invented login `{login}`");
        }
        let codes: Vec<String> = warnings.iter().map(|w| w.code.id().to_string()).collect();
        let want: &[&str] = match name.as_str() {
            // Danny Chiao is in the emeritus table twice.
            "feast-dev__feast" => &["C206"],
            // `[amason](https://github.com/ajm188)`.
            "vitessio__vitess" => &["C209"],
            _ => &[],
        };
        assert_eq!(
            codes,
            want,
            "{name}: {:#?}",
            warnings.iter().map(|w| &w.message).collect::<Vec<_>>()
        );
    }
}

/// Issue 34: a source whose name does not tell its format is one error
/// whose help is the exact line to write, with the format its text has.
#[test]
fn an_unknown_extension_says_the_line_to_write() {
    let list =
        "- [Ada Lovelace](https://github.com/ada)\n- [Bob Babbage](https://github.com/bob)\n";
    let stderr = errors(&[("people.txt", list)], json!("people.txt"));
    assert!(stderr.contains("error[C102]"), "{stderr}");
    assert!(
        stderr.contains(r#"people = [{ path = "people.txt", format = "markdown" }]"#),
        "{stderr}"
    );
    assert!(stderr.contains("looks like `markdown`"), "{stderr}");
    // A text that looks like nothing known still says what to write.
    let stderr = errors(&[("people.txt", "just words\n")], json!("people.txt"));
    assert!(stderr.contains(r#"format = "markdown" }]"#), "{stderr}");
}

/// Issue 34: plain-text MAINTAINERS files (Docker/Go style) are read from
/// their text, whatever the name's lack of an extension says.
#[test]
fn plain_text_maintainers_files_are_read() {
    let text = "\
# Maintainers
Ada Lovelace <ada@example.com> (@ada) engine
Bob Babbage, Engines Ltd <bob@example.com> (github: @bob, slack: bob)

# Reviewers
Carol Hopper <carol@example.com> (carol@)
";
    let result = build(
        &[("MAINTAINERS", text)],
        json!("MAINTAINERS"),
        "{{#maintainers reviewers}}\n",
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(result.stdout.contains("carol"), "{}", result.stdout);
    assert!(!result.stderr.contains("warning"), "{}", result.stderr);
}

/// Issue 34: `section` reads the part of a README under one heading; a
/// heading that is not there is a located error naming those there are.
#[test]
fn a_section_of_a_readme_is_the_roster() {
    let readme = "\
# Project

| Feature | Status |
|---|---|
| [Fast](https://github.com/fast) | done |

## Maintainers

- Ada Lovelace (@ada)

### Emeritus

- (emeritus) Bob Babbage ([bob](https://github.com/bob))
";
    let result = build(
        &[("README.md", readme)],
        json!([{"path": "README.md", "section": "maintainers"}]),
        "{{#maintainers emeritus}}\n",
    );
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(result.stdout.contains("Bob Babbage"), "{}", result.stdout);
    assert!(!result.stdout.contains("fast"), "{}", result.stdout);
    let stderr = errors(
        &[("README.md", readme)],
        json!([{"path": "README.md", "section": "Owners"}]),
    );
    assert!(stderr.contains("has no heading `Owners`"), "{stderr}");
    assert!(stderr.contains("--> "), "{stderr}");
    let stderr = errors(
        &[("MAINTAINERS", "Ada <a@example.com> (@ada)\n")],
        json!([{"path": "MAINTAINERS", "section": "x"}]),
    );
    assert!(
        stderr.contains("only Markdown files have sections"),
        "{stderr}"
    );
}

/// Issue 34: a person a Markdown file lists by name and e-mail is the
/// person another source gives with that address and a login.
#[test]
fn people_are_one_person_across_sources_by_email() {
    let toml = "[people.ada]\nname = \"Ada\"\nemail = \"ada@example.com\"\n\n[[groups]]\nid = \"core\"\nmembers = [\"ada\"]\n";
    let md = "# Reviewers\n\n- Ada Lovelace <ADA@example.com>\n- Bob Babbage <bob@example.com>\n";
    for people in [
        json!(["maintainers.toml", "MAINTAINERS.md"]),
        json!(["MAINTAINERS.md", "maintainers.toml"]),
    ] {
        let result = build(
            &[("maintainers.toml", toml), ("MAINTAINERS.md", md)],
            people.clone(),
            "{{#maintainers reviewers}}\n",
        );
        assert_eq!(result.code, 0, "{people}: {}", result.stderr);
        let page = &result.contents(Shape::V05)[0];
        assert!(page.contains("github.com/ada"), "{people}: {page}");
        assert!(page.contains("Bob Babbage"), "{people}: {page}");
    }
}

/// Issue 34: Markdown without a heading read as containerd CSV is one
/// error that names what the text looks like, not one per line.
#[test]
fn markdown_without_headings_in_the_wrong_format_is_one_error() {
    let table =
        "| Name | GitHub |\n|---|---|\n| Ada | @ada |\n| Bob | @bob |\n| Carol | @carol |\n";
    let stderr = errors(
        &[("people.md", table)],
        json!([{"path": "people.md", "format": "maintainers-csv"}]),
    );
    assert_eq!(stderr.matches("error[").count(), 1, "{stderr}");
    assert!(stderr.contains("looks like Markdown"), "{stderr}");
    assert!(
        stderr.contains(r#"people = [{ path = "people.md", format = "markdown" }]"#),
        "{stderr}"
    );
}

/// Issue 38 (7, 8, 9): a label over a label over people (`* Networking` >
/// `* Leads` > `* Alice (@alice)`) labels them, people two levels under a
/// person are members too, thousands of nested list markers are one
/// warning (not a stack overflow), and an invisible character in a login is
/// a warning, never a shorter login that names another account.
#[test]
fn nested_labels_deep_nesting_and_hidden_characters() {
    use mdbook_community::testing::parse_people_markdown;
    let text = "# Maintainers\n\n* Networking\n  * Leads\n    * Alice (@alice)\n    * Bob (@bob)\n* Ada (@ada)\n  * Areas\n    * Cy (@cy)\n";
    let (people, warnings) = parse_people_markdown(text, "MAINTAINERS.md");
    let people = people.expect("read");
    let logins: Vec<&str> = (people.people.iter())
        .filter_map(|p| p.github.as_deref())
        .collect();
    assert_eq!(logins, ["alice", "bob", "ada", "cy"], "{warnings:?}");
    assert!(people.group("leads").is_some_and(|g| g.members.len() == 2));
    assert!(
        people.person("networking").is_none(),
        "a label is no person"
    );

    let deep = format!("# M\n\n{}Ada (@ada)\n", "- ".repeat(8000));
    let (_, warnings) = parse_people_markdown(&deep, "MAINTAINERS.md");
    assert!(
        warnings
            .iter()
            .any(|w| w.message.contains("nested more than 32 levels")),
        "{warnings:?}"
    );

    let hidden = "# M\n\n* Alice (@ali\u{200B}ce)\n* Carol (@car\u{0}ol)\n";
    let (people, warnings) = parse_people_markdown(hidden, "MAINTAINERS.md");
    let people = people.expect("read");
    assert!(people.by_github("ali").is_none() && people.by_github("car").is_none());
    assert_eq!(
        warnings
            .iter()
            .filter(|w| w.message.contains("invisible character"))
            .count(),
        2
    );
}

/// Issue 38 (5): a list item with a long run of `(`, `<` or `[` is read,
/// or reported (a closing bracket is looked for within a bounded window,
/// so such a line costs linear time: 400 KB in 0.4 s, where it took over two
/// minutes).
#[test]
fn long_runs_of_brackets_are_read() {
    use mdbook_community::testing::parse_people_markdown;
    for bracket in ["(", "<", "["] {
        let text = format!("# M\n\n* Ada {} (@ada)\n", bracket.repeat(20_000));
        let (people, warnings) = parse_people_markdown(&text, "MAINTAINERS.md");
        let people = people.expect("read");
        let ada =
            (people.people.iter()).any(|p| p.name == "Ada" || p.github.as_deref() == Some("ada"));
        assert!(
            ada || !warnings.is_empty(),
            "{bracket}: read, or said why not"
        );
    }
}

/// Issue 38 (14): a file with old Mac line endings (a lone CR each) reads
/// as its lines: a real Markdown roster and a real plain-text MAINTAINERS,
/// each with its LF turned to CR, give the same people at the same lines
/// as the file itself, and no warning.
#[test]
fn cr_only_line_endings_read_as_lines() {
    let test = "cr_only_line_endings_read_as_lines";
    for (case, name) in [
        ("cortexproject__cortex", "MAINTAINERS.md"),
        ("go-gitea__gitea", "MAINTAINERS"),
        ("theupdateframework__python-tuf", "MAINTAINERS.txt"),
    ] {
        let Some(path) = common::corpus_path(test, &format!("others/people-files/{case}/{name}"))
        else {
            return;
        };
        let lf = std::fs::read_to_string(&path).expect("read");
        let cr = lf.replace("\r\n", "\n").replace('\n', "\r");
        let mut out = Vec::new();
        for text in [&lf, &cr] {
            let book = "[book]\ntitle = \"x\"\n";
            let config = format!("{book}[preprocessor.community]\npeople = [\"{name}\"]\n");
            let dir = book_root(&[("book.toml", &config), (name, text)]);
            let output = common::bin()
                .args(["roster", "--format", "json"])
                .arg(dir.path())
                .env("NO_COLOR", "1")
                .output()
                .expect("runs");
            let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
            assert!(output.status.success(), "{case}: {stderr}");
            out.push((String::from_utf8_lossy(&output.stdout).into_owned(), stderr));
        }
        let people: Value = serde_json::from_str(&out[1].0).expect("json");
        assert!(
            people["people"].as_array().is_some_and(|p| p.len() >= 3),
            "{case}: {}",
            out[1].0
        );
        assert_eq!(
            out[1].0, out[0].0,
            "{case}: the same people, at the same lines"
        );
        assert_eq!(out[1].1, out[0].1, "{case}: the same messages");
    }
}

/// `roster --format json` of the book root `dir`, without the places
/// (`source`), which differ between a file and the TOML written from it.
fn roster_json(dir: &Path) -> (Value, String) {
    let output = common::bin()
        .args(["roster", "--format", "json"])
        .arg(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    let mut json: Value = serde_json::from_slice(&output.stdout).expect("json");
    for list in ["people", "groups"] {
        for entry in json[list].as_array_mut().into_iter().flatten() {
            entry.as_object_mut().map(|o| o.remove("source"));
        }
    }
    (json, stderr)
}

/// Issue 38 (21): what `roster --format toml` writes from a people file
/// reads back, as the native format, as the same people and groups: for
/// every people file of the corpus, and for a Markdown roster whose team
/// mentions are no `org/team` (each a warning at its line, not claimed).
#[test]
fn roster_toml_reads_back_as_the_same_people() {
    let bad_teams = "# Core\n\nTeams: @org/a/b, [x](https://github.com/orgs/my.org/teams/x), @org/ok\n\n* Ada Lovelace (@ada) @org/\n";
    let mut files = vec![("MAINTAINERS.md".to_string(), bad_teams.to_string())];
    let test = "roster_toml_reads_back_as_the_same_people";
    for folder in ["people-files", "maintainers-md"] {
        let Some(dir) = common::corpus_path(test, &format!("others/{folder}")) else {
            break;
        };
        let mut cases: Vec<_> = std::fs::read_dir(dir).expect("dir").flatten().collect();
        cases.sort_by_key(|e| e.file_name());
        for case in cases.into_iter().filter(|e| e.path().is_dir()) {
            for file in std::fs::read_dir(case.path()).expect("case").flatten() {
                let name = file.file_name().to_string_lossy().into_owned();
                if name != "expected.json" {
                    let text = std::fs::read_to_string(file.path()).expect("read");
                    files.push((name, text));
                }
            }
        }
    }
    for (name, text) in &files {
        let config =
            format!("[book]\ntitle = \"x\"\n[preprocessor.community]\npeople = [\"{name}\"]\n");
        let dir = book_root(&[("book.toml", &config), (name, text)]);
        let output = common::bin()
            .args(["roster", "--format", "toml"])
            .arg(dir.path())
            .output()
            .expect("runs");
        let toml = String::from_utf8_lossy(&output.stdout).into_owned();
        let config =
            "[book]\ntitle = \"x\"\n[preprocessor.community]\npeople = [\"maintainers.toml\"]\n";
        let back = book_root(&[("book.toml", config), ("maintainers.toml", &toml)]);
        let (read, _) = roster_json(dir.path());
        let (read_back, stderr) = roster_json(back.path());
        assert!(
            stderr.lines().all(|l| !l.starts_with("error")),
            "{name}: {stderr}\n{toml}"
        );
        assert_eq!(read_back, read, "{name}: read back\n{toml}");
    }
    let dir = book_root(&[
        (
            "book.toml",
            "[book]\ntitle = \"x\"\n[preprocessor.community]\npeople = [\"MAINTAINERS.md\"]\n",
        ),
        ("MAINTAINERS.md", bad_teams),
    ]);
    let (read, stderr) = roster_json(dir.path());
    assert_eq!(read["groups"][0]["github-team"], json!(["org/ok"]));
    assert_eq!(
        stderr.matches("is not a GitHub team").count(),
        3,
        "{stderr}"
    );
}
