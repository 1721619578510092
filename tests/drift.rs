//! The drift check between CODEOWNERS and the roster, and CODEOWNERS teams
//! that a group claims.

mod common;

use common::{RunResult, Shape, book_root, request, run};
use serde_json::{Value, json};

const PEOPLE: &str = r#"
[people.ada]
name = "Ada Lovelace"

[people.grace]
name = "Grace Hopper"

[people.alan]
name = "Alan Turing"

[[groups]]
id = "core"
title = "Core Maintainers"
github-team = "acme/core"
members = ["ada", "grace", { handle = "alan", status = "emeritus" }]

[[groups]]
id = "docs"
title = "Documentation"
members = ["grace"]
"#;

const CODEOWNERS: &str = "# Everything.\n\
*            @acme/core\n\
/docs/       @grace @acme/docs\n\
/old/        @alan\n\
/older/      @alan\n\
/typo/       @gracee @ada\n";

fn build(codeowners: &str, settings: Value, chapters: &[(&str, &str, &str)]) -> RunResult {
    let dir = book_root(&[("maintainers.toml", PEOPLE), ("CODEOWNERS", codeowners)]);
    let config = json!({"preprocessor": {"community": settings}});
    run(&request(Shape::V05, dir.path(), config, chapters))
}

#[test]
fn every_kind_of_drift_is_reported_once_at_its_place() {
    let result = build(CODEOWNERS, json!({}), &[("C", "c.md", "Plain.\n")]);
    assert_eq!(result.code, 0, "warnings only: {}", result.stderr);
    let stderr = &result.messages();
    assert!(
        stderr.contains(
            "warning: code owner `@acme/docs` is a team no group claims\n  --> CODEOWNERS:3:21"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("help: if it is group `docs`, give it `github-team = \"acme/docs\"`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("warning: code owner `@alan` no longer serves"),
        "{stderr}"
    );
    assert!(stderr.contains("note: on 2 lines: 4, 5"), "{stderr}");
    assert!(
        stderr.contains("warning: code owner `@gracee` is in no roster source"),
        "{stderr}"
    );
    assert!(stderr.contains("help: did you mean `@grace`?"), "{stderr}");
    assert!(
        stderr.contains("warning: these paths have no active code owner\n  --> CODEOWNERS:4:1"),
        "{stderr}"
    );
    // Once per finding: `@alan` is on two lines but reported once.
    assert_eq!(
        stderr.matches("`@alan` no longer serves").count(),
        1,
        "{stderr}"
    );
    assert_eq!(stderr.matches("warning:").count(), 4, "{stderr}");
}

#[test]
fn check_owners_error_fails_and_off_is_silent() {
    let result = build(
        CODEOWNERS,
        json!({"check-owners": "error"}),
        &[("C", "c.md", "Plain.\n")],
    );
    assert_eq!(result.code, 1, "{}", result.stderr);
    assert!(
        result
            .messages()
            .contains("error: code owner `@alan` no longer serves"),
        "{}",
        result.stderr
    );
    let result = build(
        CODEOWNERS,
        json!({"check-owners": "off"}),
        &[("C", "c.md", "Plain.\n")],
    );
    assert_eq!(result.code, 0);
    assert!(result.stderr.is_empty(), "{}", result.stderr);
    // Only `retired` is inactive here: `@alan` (emeritus) serves.
    let result = build(
        CODEOWNERS,
        json!({"inactive-statuses": ["retired"]}),
        &[("C", "c.md", "Plain.\n")],
    );
    assert!(!result.messages().contains("@alan"), "{}", result.stderr);
}

#[test]
fn no_roster_or_no_codeowners_means_no_check() {
    let dir = book_root(&[("CODEOWNERS", "* @nobody\n")]);
    let result = run(&request(
        Shape::V05,
        dir.path(),
        json!({}),
        &[("C", "c.md", "Plain.\n")],
    ));
    assert_eq!((result.code, result.stderr.as_str()), (0, ""));
    let dir = book_root(&[("maintainers.toml", PEOPLE)]);
    let result = run(&request(
        Shape::V05,
        dir.path(),
        json!({}),
        &[("C", "c.md", "Plain.\n")],
    ));
    assert_eq!((result.code, result.stderr.as_str()), (0, ""));
}

#[test]
fn claimed_teams_link_to_their_group_heading() {
    let chapters = [
        (
            "Owners",
            "owners.md",
            "{{#codeowners}}\n\nDocs: {{#codeowners docs/a.md}}; people: {{#codeowners docs/a.md members}}.\n",
        ),
        ("People", "people/all.md", "# People\n\n{{#maintainers}}\n"),
    ];
    let result = build(CODEOWNERS, json!({"check-owners": "off"}), &chapters);
    assert_eq!(result.code, 0, "{}", result.stderr);
    let pages = result.contents(Shape::V05);
    let owners = &pages[0];
    assert!(owners.contains("|**Everything.**||"), "{owners}");
    assert!(
        owners.contains("|`*`|[Core Maintainers](people/all.md#core-maintainers)|"),
        "{owners}"
    );
    assert!(
        owners.contains("[@acme/docs](https://github.com/orgs/acme/teams/docs)"),
        "{owners}"
    );
    assert!(
        owners.contains("[@gracee](https://github.com/gracee)"),
        "{owners}"
    );
    assert!(
        owners.contains("Docs: Grace Hopper ([grace](https://github.com/grace)) and [@acme/docs](https://github.com/orgs/acme/teams/docs);"),
        "{owners}"
    );
    // `members`: the people, teams expanded, each once; those who still
    // serve, unless `hide`/`only` choose (issue 27, 4).
    let co = "/docs/ @acme/core @grace\n/old/ @alan\n";
    let calls = "{{#codeowners docs/x members}}\n\n{{#codeowners docs/x members only=emeritus}}\n\n\
                 {{#codeowners docs/x members hide=none}}\n\n{{#codeowners old/x members}}\n";
    let result = build(co, json!({"check-owners": "off"}), &[("O", "o.md", calls)]);
    assert_eq!(result.code, 0, "{}", result.stderr);
    let (ada, grace, alan) = (
        "Ada Lovelace ([ada](https://github.com/ada))",
        "Grace Hopper ([grace](https://github.com/grace))",
        "Alan Turing ([alan](https://github.com/alan))",
    );
    assert_eq!(
        result.contents(Shape::V05)[0],
        format!(
            "{ada} and {grace}\n\n{alan}\n\n{ada}, {grace} and {alan}\n\nno active code owner\n"
        )
    );
    let result = build(
        co,
        json!({"check-owners": "off"}),
        &[("O", "o.md", "{{#codeowners docs/x only=emeritus}}\n")],
    );
    assert!(
        result
            .stderr
            .contains("`hide` and `only` choose among the people of `members`"),
        "{}",
        result.stderr
    );
}

#[test]
fn a_claimed_team_without_a_rendered_group_links_to_github() {
    let result = build(
        "* @acme/core\n",
        json!({}),
        &[("O", "o.md", "{{#codeowners x}}\n")],
    );
    assert_eq!(
        result.contents(Shape::V05)[0],
        "[Core Maintainers](https://github.com/orgs/acme/teams/core)\n"
    );
}

#[test]
fn the_drift_report_as_a_reader_sees_it() {
    let result = build(CODEOWNERS, json!({}), &[("C", "c.md", "Plain.\n")]);
    insta::assert_snapshot!(result.stderr);
}

/// Issue 26 (19): a CODEOWNERS the drift check cannot read is said, once,
/// not skipped without a word; a `{{#codeowners}}` on the same file does
/// not repeat it.
#[test]
fn a_codeowners_that_is_not_a_file_is_reported() {
    for kind in ["fifo", "dev-zero"] {
        let dir = book_root(&[("maintainers.toml", PEOPLE)]);
        let path = dir.path().join("CODEOWNERS");
        match kind {
            "fifo" => {
                let made = std::process::Command::new("mkfifo").arg(&path).status();
                assert!(made.is_ok_and(|s| s.success()), "mkfifo");
            }
            _ => std::os::unix::fs::symlink("/dev/zero", &path).expect("symlink"),
        }
        let config = json!({"preprocessor": {"community": {}}});
        for chapter in ["Plain.\n", "{{#codeowners}}\n"] {
            let chapters = [("C", "c.md", chapter)];
            let mut cmd = common::bin();
            cmd.timeout(std::time::Duration::from_secs(20));
            let result = common::run_with(
                cmd,
                &request(Shape::V05, dir.path(), config.clone(), &chapters),
            );
            let stderr = result.messages();
            assert!(
                stderr.contains("CODEOWNERS is not a regular file"),
                "{kind}, {chapter}: {stderr}"
            );
            assert_eq!(
                stderr.matches("is not a regular file").count(),
                1,
                "{stderr}"
            );
            if chapter == "Plain.\n" {
                assert_eq!(result.code, 0, "a warning: {stderr}");
                assert!(
                    stderr.contains("CODEOWNERS was not checked against the roster"),
                    "{stderr}"
                );
            }
        }
    }
}

/// Issue 27 (1, 2, 3): no follow-on warning for a cause already reported,
/// logins as written, and the closest claimed team for a mistyped one.
#[test]
fn drift_findings_say_each_cause_once_as_written() {
    let codeowners = "* @acme/defaults\n/x/ @UnknownUser\n/y/ @ElvinEfendi @alan\n\
                      /z/ @acme/cor\n/old/ @Alan\n";
    let result = build(codeowners, json!({}), &[("C", "c.md", "Plain.\n")]);
    assert_eq!(result.code, 0, "{}", result.stderr);
    let stderr = result.messages();
    for expected in [
        "warning: code owner `@UnknownUser` is in no roster source",
        "warning: code owner `@ElvinEfendi` is in no roster source",
        "note: 4 CODEOWNERS rules are owned only by the owners reported above\n  --> CODEOWNERS:1:1",
        "= note: on 4 lines: 1, 2, 3, 4",
        "warning: code owner `@acme/cor` is a team no group claims",
        "= help: did you mean `@acme/core`?",
        "= note: group `core` claims `@acme/core`",
        // Only the rule whose every owner has left has no active owner.
        "warning: these paths have no active code owner\n  --> CODEOWNERS:5:1",
    ] {
        assert!(stderr.contains(expected), "{expected}\n{stderr}");
    }
    assert_eq!(
        stderr.matches("no active code owner").count(),
        1,
        "{stderr}"
    );
    assert!(!stderr.contains("github-team = \"acme/cor\""), "{stderr}");
    assert!(!stderr.contains("@unknownuser"), "{stderr}");
}

/// Issue 27 (5): a finding on several lines is a result per line in the
/// machine formats (code scanning annotates each), one with a note on the
/// terminal.
#[test]
fn a_finding_on_several_lines_is_a_result_per_line_in_machine_formats() {
    let dir = book_root(&[("maintainers.toml", PEOPLE), ("CODEOWNERS", CODEOWNERS)]);
    let config = json!({"preprocessor": {"community": {}}});
    let input = request(Shape::V05, dir.path(), config, &[("C", "c.md", "Plain.\n")]);
    let mut cmd = common::bin();
    cmd.env("MDBOOK_COMMUNITY_MESSAGE_FORMAT", "json");
    let result = common::run_with(cmd, &input);
    let lines: Vec<Value> = (result.stderr.lines())
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let alan: Vec<u64> = (lines.iter())
        .filter(|d| {
            d["message"]
                .as_str()
                .is_some_and(|m| m.contains("`@alan` no longer serves"))
        })
        .filter_map(|d| d["line"].as_u64())
        .collect();
    assert_eq!(alan, [4, 5], "{}", result.stderr);
}

/// Issue 34: a person is matched by e-mail wherever logins are: a
/// CODEOWNERS owner written as an address is the person with it.
#[test]
fn an_owner_written_as_an_email_is_the_person_with_it() {
    let people = "[people.ada]\nname = \"Ada Lovelace\"\nemail = \"Ada@Example.com\"\n\n\
                  [[groups]]\nid = \"core\"\nmembers = [\"ada\"]\n";
    let dir = book_root(&[
        ("maintainers.toml", people),
        ("CODEOWNERS", "/x/ ada@example.com\n"),
    ]);
    let config = json!({"preprocessor": {"community": {"check-owners": "off"}}});
    let chapter = "{{#codeowners x/a}}\n\n{{#codeowners x/a members}}\n";
    let result = run(&request(
        Shape::V05,
        dir.path(),
        config,
        &[("O", "o.md", chapter)],
    ));
    assert_eq!(result.code, 0, "{}", result.stderr);
    let ada = "Ada Lovelace ([ada](https://github.com/ada))";
    assert_eq!(result.contents(Shape::V05)[0], format!("{ada}\n\n{ada}\n"));
}
