//! Governance rules held against a roster, through the binary: the rules
//! of eight real charters (each quoted), encoded in `book.toml`, with
//! rosters whose numbers are worked out by hand in each test; planted
//! violations, each reported at the rule and at the roster rows that
//! make it; and what `{{#governance}}` and `{{#affiliations}}` render.

mod common;

use common::{RunResult, Shape, request, run_with};
use serde_json::Value;

/// The day the builds are for (`MDBOOK_COMMUNITY_NOW`).
const NOW: &str = "2026-06-01";

/// One member of a group: handle, affiliation (`""`: none), and the
/// membership's extra TOML (`status = "emeritus"`, `fields = {...}`).
type Row<'a> = (&'a str, &'a str, &'a str);

/// A roster of one group `id` with `rows`.
fn roster(id: &str, rows: &[Row<'_>]) -> String {
    let mut text = String::new();
    for (handle, organisation, _) in rows {
        text.push_str(&format!("[people.{handle}]\nname = \"{handle}\"\n"));
        if !organisation.is_empty() {
            text.push_str(&format!("affiliation = {organisation:?}\n"));
        }
        text.push('\n');
    }
    text.push_str(&format!("[[groups]]\nid = \"{id}\"\nmembers = [\n"));
    for (handle, _, extra) in rows {
        match *extra {
            "" => text.push_str(&format!("    \"{handle}\",\n")),
            extra => text.push_str(&format!("    {{ handle = \"{handle}\", {extra} }},\n")),
        }
    }
    text.push_str("]\n");
    text
}

/// The preprocessor over `chapter` in a book whose `book.toml` has
/// `settings` under `[preprocessor.community]`, with `people` as its
/// roster, on [`NOW`].
fn build(settings: &str, people: &str, chapter: &str) -> RunResult {
    let book_toml = format!("[book]\ntitle = \"T\"\n\n[preprocessor.community]\n{settings}");
    let dir = common::book_root(&[("book.toml", &book_toml), ("maintainers.toml", people)]);
    let config: Value = toml_edit::de::from_str(&book_toml).expect("book.toml is TOML");
    let input = request(Shape::V05, dir.path(), config, &[("C", "c.md", chapter)]);
    let mut cmd = common::bin();
    cmd.env("MDBOOK_COMMUNITY_NOW", NOW).env("NO_COLOR", "1");
    let mut result = run_with(cmd, &input);
    result.stderr = result
        .stderr
        .replace(&dir.path().display().to_string(), "/path/to/book");
    result
}

/// The numbers `{{#governance GROUP value=...}}` renders, as
/// `name=number` lines.
fn numbers(settings: &str, people: &str, group: &str, names: &[&str]) -> (String, RunResult) {
    let chapter: String = names
        .iter()
        .map(|name| match name.strip_prefix("threshold:") {
            Some(t) => format!("{name}={{{{#governance {group} threshold={t}}}}}\n\n"),
            None => format!("{name}={{{{#governance {group} value={name}}}}}\n\n"),
        })
        .collect();
    let result = build(settings, people, &chapter);
    assert_eq!(result.code, 0, "{}", result.stderr);
    let text = result.contents(Shape::V05).remove(0);
    let lines = text.split("\n\n").map(str::trim).filter(|l| !l.is_empty());
    (lines.collect::<Vec<_>>().join("\n"), result)
}

fn warnings(result: &RunResult) -> Vec<&str> {
    result
        .stderr
        .lines()
        .filter(|l| l.starts_with("warning[C411]"))
        .collect()
}

/// PyTorch: "a super-majority of core maintainers (75%) can choose to
/// remove the Lead Core Maintainer", and membership "is for an
/// individual, not a company" (one vote per person). Five core
/// maintainers: 75% of 5 is 3.75, so 4 people.
#[test]
fn pytorch_core_maintainers_remove_the_lead_by_75_percent() {
    let people = roster(
        "core",
        &[
            ("soumith", "Meta", ""),
            ("gchanan", "Meta", ""),
            ("ezyang", "Meta", ""),
            ("albanD", "Meta", ""),
            ("dzhulgakov", "Fireworks AI", ""),
        ],
    );
    let settings =
        "governance.core = { votes = \"per-person\", thresholds = { remove-lead = \"75%\" } }\n";
    let (numbers, result) = numbers(
        settings,
        &people,
        "core",
        &["members", "votes", "organisations", "threshold:remove-lead"],
    );
    assert_eq!(
        numbers,
        "members=5\nvotes=5\norganisations=2\nthreshold:remove-lead=4"
    );
    assert!(warnings(&result).is_empty(), "{}", result.stderr);
}

/// Kubernetes steering: "a maximum of one-third representation … from
/// any one company at any time". Seven seats: a third of 7 is 2.33, so
/// at most 2 from one company; three from one company is a violation,
/// reported at the rule and at the three rows.
#[test]
fn kubernetes_steering_allows_a_third_from_one_company() {
    let mut rows = vec![
        ("bentheelder", "Google", ""),
        ("pacoxu", "DaoCloud", ""),
        ("pohly", "Intel", ""),
        ("mrbobbytables", "Cisco", ""),
        ("soltysh", "Red Hat", ""),
        ("aojea", "Google", ""),
        ("sttts", "Upbound", ""),
    ];
    let settings = "governance.steering = { max-per-organisation = \"1/3\" }\n";
    let (numbers, result) = numbers(
        settings,
        &roster("steering", &rows),
        "steering",
        &["members", "max-per-organisation", "organisations"],
    );
    assert_eq!(
        numbers,
        "members=7\nmax-per-organisation=2\norganisations=6"
    );
    assert!(warnings(&result).is_empty(), "{}", result.stderr);

    // One member too many from a capped company.
    rows[6] = ("thockin", "Google", "");
    let result = build(settings, &roster("steering", &rows), "x\n");
    assert_eq!(result.code, 0, "{}", result.stderr);
    let stderr = &result.stderr;
    assert!(
        stderr.contains("warning[C411]: group `steering` has 3 members from Google of 7 members; its charter allows at most 2 (1/3 of the group)"),
        "{stderr}"
    );
    assert!(stderr.contains("--> book.toml:5:"), "{stderr}");
    assert!(stderr.contains("the rows: maintainers.toml:"), "{stderr}");
    // A note at each of the three rows.
    let rows_noted = stderr
        .matches("this row breaks `max-per-organisation` of group `steering`")
        .count();
    assert_eq!(rows_noted, 3, "{stderr}");
}

/// OpenTelemetry's Governance Committee: "a maximum of two … from any
/// one company". Nine members: the cap is 2 whatever the size.
#[test]
fn opentelemetry_gc_allows_two_from_one_company() {
    let rows = [
        ("alolita", "Apple", ""),
        ("austinlparker", "Honeycomb", ""),
        ("dyladan", "Dynatrace", ""),
        ("danielgblanco", "Skyscanner", ""),
        ("jpkrohling", "Grafana Labs", ""),
        ("mtwo", "Splunk", ""),
        ("svrnm", "Cisco", ""),
        ("tedsuo", "Lightstep", ""),
        ("trask", "Microsoft", ""),
    ];
    let settings = "governance.gc = { max-per-organisation = 2 }\n";
    let (numbers, result) = numbers(
        settings,
        &roster("gc", &rows),
        "gc",
        &["members", "max-per-organisation", "organisations"],
    );
    assert_eq!(
        numbers,
        "members=9\nmax-per-organisation=2\norganisations=9"
    );
    assert!(warnings(&result).is_empty(), "{}", result.stderr);
    // "Lightstep, Inc." and "Splunk" are one company with an alias.
    let mut rows = rows.to_vec();
    rows[1] = ("austinlparker", "Lightstep, Inc.", "");
    rows[5] = ("mtwo", "Lightstep", "");
    let settings =
        format!("{settings}affiliation-aliases = {{ \"Lightstep, Inc.\" = \"Lightstep\" }}\n");
    let result = build(&settings, &roster("gc", &rows), "x\n");
    assert!(
        result
            .stderr
            .contains("has 3 members from Lightstep of 9 members; its charter allows at most 2"),
        "{}",
        result.stderr
    );
}

/// Cortex: "at most two votes from maintainers working for the same
/// company will count", and changes need "a 2/3 majority vote". Six
/// maintainers, four from Grafana Labs: 2 + 1 + 1 = 4 votes; 2/3 of 4
/// votes is 2.67, so 3.
#[test]
fn cortex_counts_at_most_two_votes_per_company() {
    let rows = [
        ("a", "Grafana Labs", ""),
        ("b", "Grafana Labs", ""),
        ("c", "Grafana Labs", ""),
        ("d", "Grafana Labs", ""),
        ("e", "Amazon", ""),
        ("f", "Weaveworks", ""),
    ];
    let settings = "[preprocessor.community.governance.maintainers]\nvotes = { per-organisation = 2 }\nthreshold-of = \"votes\"\nthresholds = { governance-change = \"2/3\" }\n";
    let (numbers, _) = numbers(
        settings,
        &roster("maintainers", &rows),
        "maintainers",
        &["members", "votes", "threshold:governance-change"],
    );
    assert_eq!(numbers, "members=6\nvotes=4\nthreshold:governance-change=3");
}

/// CNI: "if two maintainers are employed by Company X, two by Company Y,
/// two by Company Z, and one maintainer is an un-affiliated individual, a
/// total of four "organization votes" are possible". The un-affiliated
/// maintainer is their own organisation, and a note says so.
#[test]
fn cni_gives_each_organisation_one_vote() {
    let rows = [
        ("x1", "Company X", ""),
        ("x2", "Company X", ""),
        ("y1", "Company Y", ""),
        ("y2", "Company Y", ""),
        ("z1", "Company Z", ""),
        ("z2", "Company Z", ""),
        ("solo", "", ""),
    ];
    let settings = "governance.maintainers = { votes = \"per-organisation\", threshold-of = \"votes\", thresholds = { change = \"2/3\" } }\n";
    let (numbers, result) = numbers(
        settings,
        &roster("maintainers", &rows),
        "maintainers",
        &["members", "organisations", "votes", "threshold:change"],
    );
    assert_eq!(
        numbers,
        "members=7\norganisations=4\nvotes=4\nthreshold:change=3"
    );
    assert!(
        result.stderr.contains("note[C412]: solo has no affiliation: the governance rules count them as their own organisation"),
        "{}",
        result.stderr
    );
}

/// OPA: "Each company or organization (regardless of the number of
/// maintainers …) receives one organization vote", "New maintainers are
/// … elected by a 2/3 majority organization vote", and "Maintainer
/// status expires after 1 year". A renewal older than a year is reported
/// at the rule and at its row; one ending within 90 days is listed.
#[test]
fn opa_maintainer_status_expires_after_a_year() {
    let rows = [
        (
            "ashutosh-narkar",
            "Styra",
            "fields = { renewed = \"2026-03-24\" }",
        ),
        ("srenatus", "Styra", "fields = { renewed = \"2025-07-01\" }"),
        ("shomron", "VMware", "fields = { renewed = \"2020-11-13\" }"),
        (
            "ritazh",
            "Microsoft",
            "fields = { renewed = \"2026-03-24\" }",
        ),
    ];
    let settings = "governance.maintainers = { votes = \"per-organisation\", threshold-of = \"votes\", thresholds = { new-maintainer = \"2/3\" }, term = \"1y\" }\n";
    let people = roster("maintainers", &rows);
    let (numbers, result) = numbers(
        settings,
        &people,
        "maintainers",
        &["members", "votes", "threshold:new-maintainer"],
    );
    assert_eq!(numbers, "members=4\nvotes=3\nthreshold:new-maintainer=2");
    let stderr = &result.stderr;
    assert!(
        stderr.contains("warning[C411]: shomron's term in group `maintainers` ended on 2021-11-13 (renewed 2020-11-13) and was not renewed"),
        "{stderr}"
    );
    assert_eq!(warnings(&result).len(), 1, "{stderr}");
    assert!(
        stderr.contains("this row breaks `term` of group `maintainers`"),
        "{stderr}"
    );
    let page = build(settings, &people, "{{#governance maintainers}}\n");
    let text = page.contents(Shape::V05).remove(0);
    assert!(text.contains("|shomron|ended 2021-11-13|"), "{text}");
    assert!(text.contains("|srenatus|ends 2026-07-01|"), "{text}");
    assert!(!text.contains("ritazh|ends"), "{text}");
}

/// CoreDNS employs "organization voting" (one vote per organisation);
/// with a quorum of three, moving a member to emeritus loses it, reported
/// at the rule and at the emeritus row.
#[test]
fn coredns_quorum_is_lost_after_a_move_to_emeritus() {
    let rows = [
        ("miekg", "Independent", ""),
        ("chrisohaver", "Infoblox", ""),
        ("yongtang", "Independent", ""),
        ("fturib", "Infoblox", ""),
    ];
    let settings = "governance.maintainers = { votes = \"per-organisation\", threshold-of = \"votes\", quorum = 2 }\n";
    let (numbers, result) = numbers(
        settings,
        &roster("maintainers", &rows),
        "maintainers",
        &["members", "votes", "quorum"],
    );
    assert_eq!(numbers, "members=4\nvotes=2\nquorum=2");
    assert!(warnings(&result).is_empty(), "{}", result.stderr);
    let mut rows = rows.to_vec();
    rows[1] = ("chrisohaver", "Infoblox", "status = \"emeritus\"");
    rows[3] = ("fturib", "Infoblox", "status = \"emeritus\"");
    let result = build(settings, &roster("maintainers", &rows), "x\n");
    let stderr = &result.stderr;
    assert!(
        stderr.contains("warning[C411]: group `maintainers` can no longer reach its quorum: it needs 2 but has 1 vote who serve (2 former members no longer serve)"),
        "{stderr}"
    );
    assert_eq!(
        stderr
            .matches("this row breaks `quorum` of group `maintainers`")
            .count(),
        2,
        "{stderr}"
    );
}

/// CNCF graduation asks for "committers from at least two
/// organizations": one organisation is a violation, at every row.
#[test]
fn cncf_graduation_needs_two_organisations() {
    let rows = [("a", "Acme", ""), ("b", "ACME.", ""), ("c", "acme", "")];
    let settings = "governance.committers = { min-organisations = 2 }\n";
    let result = build(
        settings,
        &roster("committers", &rows),
        "{{#governance committers value=organisations}}\n",
    );
    let stderr = &result.stderr;
    assert!(
        stderr.contains("warning[C411]: group `committers`'s members are from 1 organisation; its charter asks for at least 2"),
        "{stderr}"
    );
    assert!(
        stderr.contains("warning[C412]: b's affiliation is written with trailing punctuation (compared without it): the governance rules read it as `ACME`"),
        "{stderr}"
    );
    assert_eq!(result.contents(Shape::V05).remove(0).trim(), "1");
}

/// The chart: an SVG with an accessible name and description, colours
/// from the theme, and the same numbers as a table beside it.
#[test]
fn affiliations_draw_a_chart_and_a_table() {
    let rows = [
        ("a", "Acme", ""),
        ("b", "Acme", ""),
        ("c", "<Evil & Co>", ""),
        ("d", "", ""),
    ];
    let settings = "governance.core = { max-per-organisation = 2 }\n";
    let result = build(settings, &roster("core", &rows), "{{#affiliations core}}\n");
    assert_eq!(result.code, 0, "{}", result.stderr);
    let text = result.contents(Shape::V05).remove(0);
    insta::assert_snapshot!(text);
}

/// What a directive call gets wrong is an error at the argument, with the
/// closest name: an unknown group, value or threshold, a rule the group
/// does not have, two numbers at once, and the tables in running text.
#[test]
fn directive_mistakes_are_located_errors() {
    let people = roster("core", &[("a", "Acme", ""), ("b", "Initech", "")]);
    let settings = "governance.core = { thresholds = { decision = \"majority\" } }\n";
    for (chapter, message, location) in [
        (
            "{{#governance cor}}\n",
            "error[C505]: no group `cor` in `maintainers.toml`",
            "src/c.md:1:15",
        ),
        (
            "{{#governance core value=member}}\n",
            "error[C503]: unknown value `member`",
            "src/c.md:1:26",
        ),
        (
            "{{#governance core threshold=decisions}}\n",
            "error[C503]: group `core` has no threshold `decisions`",
            "src/c.md:1:30",
        ),
        (
            "{{#governance core value=quorum}}\n",
            "error[C503]: group `core` has no `quorum` rule in book.toml's governance",
            "src/c.md:1:26",
        ),
        (
            "{{#governance core value=members threshold=decision}}\n",
            "error[C503]: `{{#governance}}` shows one number at a time",
            "src/c.md:1:44",
        ),
        (
            "The numbers: {{#governance core}}.\n",
            "error[C504]: `{{#governance}}` makes a table here",
            "src/c.md:1:",
        ),
        (
            "See {{#affiliations core}} here.\n",
            "error[C504]: `{{#affiliations}}` makes a chart and a table",
            "src/c.md:1:",
        ),
        (
            "{{#affiliations core style=pie}}\n",
            "error[C503]: unknown option `style`",
            "src/c.md:1:22",
        ),
    ] {
        let result = build(settings, &people, chapter);
        assert_eq!(result.code, 1, "{chapter}: {}", result.stderr);
        assert!(
            result.stderr.contains(message),
            "{chapter}: {}",
            result.stderr
        );
        assert!(
            result.stderr.contains(&format!("--> {location}")),
            "{chapter}: {}",
            result.stderr
        );
        assert!(!result.stderr.contains("panicked"), "{}", result.stderr);
    }
}

/// A threshold that needs more people than serve can never pass: after
/// two of five move to emeritus, "4" of three is reported at the
/// threshold and at the emeritus rows.
#[test]
fn a_threshold_more_than_the_group_is_reported() {
    let rows = [
        ("a", "A", ""),
        ("b", "B", ""),
        ("c", "C", ""),
        ("d", "D", "status = \"emeritus\""),
        ("e", "E", "status = \"emeritus\""),
    ];
    let settings = "governance.tsc = { thresholds = { veto = 4, decision = \"majority\" } }\n";
    let result = build(settings, &roster("tsc", &rows), "x\n");
    let stderr = &result.stderr;
    assert!(
        stderr.contains("warning[C411]: group `tsc`'s threshold `veto` needs 4 but the group has 3 members who serve: no vote can pass it"),
        "{stderr}"
    );
    assert!(stderr.contains("--> book.toml:5:42"), "{stderr}");
    assert_eq!(
        stderr.matches("this row breaks `thresholds`").count(),
        2,
        "{stderr}"
    );
    assert_eq!(warnings(&result).len(), 1, "{stderr}");
}
