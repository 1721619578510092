//! Markdown people files of the shapes projects use (Jaeger's table and
//! emeritus list, Envoy's sections, Prometheus's nested components), and
//! the mutations a real file goes through.

use super::*;
use crate::people::People;
use crate::people::roster::parse_markdown;

fn read(text: &str) -> (People, Vec<Diagnostic>) {
    let (people, warnings) = parse_markdown(text, "MAINTAINERS.md");
    (people.unwrap_or_else(|e| panic!("{e:?}")), warnings)
}

/// `group: login/name [status] (role)` for every membership, in order.
fn memberships(people: &People) -> Vec<String> {
    let mut out = Vec::new();
    for group in &people.groups {
        for member in &group.members {
            let person = &people.people[member.person];
            let who = match &person.github {
                Some(login) if *login != person.name => format!("{login}/{}", person.name),
                Some(login) => login.clone(),
                None => format!("-/{}", person.name),
            };
            let mut line = format!("{}: {who}", group.id);
            if let Some(status) = &member.status {
                line.push_str(&format!(" [{status}]"));
            }
            if let Some(role) = &member.role {
                line.push_str(&format!(" ({role})"));
            }
            out.push(line);
        }
    }
    out
}

fn messages(warnings: &[Diagnostic]) -> Vec<String> {
    warnings
        .iter()
        .map(|w| format!("{} {}", w.code.id(), w.message))
        .collect()
}

/// The line a warning points at.
fn line_of(warning: &Diagnostic) -> usize {
    match &warning.location {
        Some(crate::diagnostic::Location::File { file, range }) => {
            crate::diagnostic::position_in("", &file.text, range.start).line
        }
        _ => 0,
    }
}

const JAEGER: &str = "\
The current Maintainers Group for the Jaeger Project consists of:

| Name | Employer | Responsibilities |
| ---- | -------- | ---------------- |
| [@albertteoh](https://github.com/albertteoh) | PackSmith | ALL |
| [@jkowall](https://github.com/jkowall) | Aiven | ALL |
| [@yurishkuro](https://github.com/yurishkuro) | Meta | ALL |

This list must be kept in sync with the [CNCF Project Maintainers list](https://github.com/cncf/foundation/blob/master/project-maintainers.csv).

### Emeritus Maintainers

We are grateful to our former maintainers for their contributions to the Jaeger project.

* [@black-adder](https://github.com/black-adder)
* [@jpkrohling](https://github.com/jpkrohling)
";

#[test]
fn jaeger_a_table_then_an_emeritus_list() {
    let (people, warnings) = read(JAEGER);
    assert_eq!(
        memberships(&people),
        [
            "maintainers: albertteoh (ALL)",
            "maintainers: jkowall (ALL)",
            "maintainers: yurishkuro (ALL)",
            "emeritus-maintainers: black-adder [emeritus]",
            "emeritus-maintainers: jpkrohling [emeritus]",
        ]
    );
    assert_eq!(people.people[1].affiliation.as_deref(), Some("Aiven"));
    assert!(warnings.is_empty(), "{warnings:?}");
}

const ENVOY: &str = "\
# Senior maintainers

* Matt Klein ([mattklein123](https://github.com/mattklein123)) (mklein@lyft.com)
* Harvey Tuch ([htuch](https://github.com/htuch)) (htuch@google.com)

# Maintainers

* Snow Pettersen ([snowp](https://github.com/snowp)) (aickck@gmail.com)

# Envoy security team

* All maintainers
* Piotr Sikora ([PiotrSikora](https://github.com/PiotrSikora)) (piotrsikora@google.com)

# Emeritus maintainers

* Constance Caramanolis ([ccaramanolis](https://github.com/ccaramanolis)) (ccaramanolis@lyft.com)
";

#[test]
fn envoy_sections_of_names_logins_and_emails() {
    let (people, warnings) = read(ENVOY);
    assert_eq!(
        memberships(&people),
        [
            "senior-maintainers: mattklein123/Matt Klein",
            "senior-maintainers: htuch/Harvey Tuch",
            "maintainers: snowp/Snow Pettersen",
            "envoy-security-team: PiotrSikora/Piotr Sikora",
            "emeritus-maintainers: ccaramanolis/Constance Caramanolis [emeritus]",
        ]
    );
    assert_eq!(people.people[0].email.as_deref(), Some("mklein@lyft.com"));
    assert!(warnings.is_empty(), "{warnings:?}");
}

const PROMETHEUS: &str = "\
# Maintainers

General maintainers:
* Bryan Boreham (bjboreham@gmail.com / @bboreham)
* Ayoub Mrini (ayoubmrini424@gmail.com / @machine424)

Maintainers for specific parts of the codebase:
* `cmd`
  * `promtool`: David Leadbeater (<dgl@dgl.cx> / @dgl)
* `discovery`
  * `azure`: Jan-Otto Kröpke (<mail@jkroepke.de> / @jkroepke)
";

#[test]
fn prometheus_labels_and_nested_components() {
    let (people, warnings) = read(PROMETHEUS);
    assert_eq!(
        memberships(&people),
        [
            "general-maintainers: bboreham/Bryan Boreham",
            "general-maintainers: machine424/Ayoub Mrini",
            "cmd: dgl/David Leadbeater (promtool)",
            "discovery: jkroepke/Jan-Otto Kröpke (azure)",
        ]
    );
    assert_eq!(
        people.people[0].email.as_deref(),
        Some("bjboreham@gmail.com")
    );
    assert_eq!(people.people[2].email.as_deref(), Some("dgl@dgl.cx"));
    // The components hang under the file's heading, as in the file.
    let cmd = people.group("cmd").expect("cmd");
    assert_eq!(
        people.groups[cmd.parent.expect("a parent")].id,
        "maintainers"
    );
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn groups_nest_claim_teams_and_keep_unique_ids() {
    let text = "\
# Project

## Core

Team: @example/core-maintainers

- @ada

## Core

**Reviewers**

- [@bob](https://github.com/bob)

## Nobody here

Some prose.
";
    let (people, _) = read(text);
    let ids: Vec<&str> = people.group_ids().collect();
    assert_eq!(ids, ["project", "core", "core-2", "reviewers"]);
    assert_eq!(people.groups[1].github_teams, ["example/core-maintainers"]);
    assert_eq!(people.groups[1].parent, Some(0));
    assert_eq!(people.groups[3].parent, Some(2));
    assert_eq!(
        people
            .group_of_team("Example/Core-Maintainers")
            .map(|g| g.id.as_str()),
        Some("core")
    );
}

#[test]
fn bare_login_paragraphs_list_people_given_elsewhere() {
    let text = "\
* Ada Lovelace ([ada](https://github.com/ada))
* Bob Babbage ([bob](https://github.com/bob))

### Parser
ada, bob, carol
";
    let (people, warnings) = read(text);
    assert_eq!(
        memberships(&people),
        [
            "maintainers: ada/Ada Lovelace",
            "maintainers: bob/Bob Babbage",
            "parser: ada/Ada Lovelace",
            "parser: bob/Bob Babbage",
        ]
    );
    assert_eq!(
        messages(&warnings),
        ["C208 `carol` is not the login of anyone this file lists"]
    );
    assert_eq!(line_of(&warnings[0]), 5);
}

#[test]
fn nested_bullets_are_fields_of_the_person_above() {
    let text = "\
* **Ben Noordhuis** ([@bnoordhuis](https://github.com/bnoordhuis))
  - GPG key: D77B 1E34
  - GPG key: 94AE 3667
";
    let (people, _) = read(text);
    let member = &people.groups[0].members[0];
    assert_eq!(
        member.fields,
        [("gpg-key".to_string(), "D77B 1E34; 94AE 3667".to_string())]
    );
}

#[test]
fn status_and_free_columns_of_a_table() {
    let text = "\
| Name | GitHub | Status | Discord | Slack |
|------|--------|--------|---------|-------|
| Ada Lovelace | `ada` | Emeritus | ada#1 | |
| Bob Babbage | bob | Active | | @bob |
";
    let (people, warnings) = read(text);
    assert_eq!(
        memberships(&people),
        [
            "maintainers: ada/Ada Lovelace [emeritus]",
            "maintainers: bob/Bob Babbage"
        ]
    );
    let ada = &people.groups[0].members[0];
    assert_eq!(ada.fields, [("discord".to_string(), "ada#1".to_string())]);
    // A chat handle is a field, never a login.
    let bob = &people.groups[0].members[1];
    assert_eq!(bob.fields, [("slack".to_string(), "@bob".to_string())]);
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn what_is_not_a_person_is_left_out_silently() {
    let text = "\
# Maintainers

<!-- keep-sorted start -->
* None
* *vacant*
* To be filled
* TBD
* [Example Corp](https://example.com)
* [the repository](https://github.com/example/widgets)
* [@example/team](https://github.com/orgs/example/teams/team)
* Everyone who reviews code is welcome.
<!-- keep-sorted end -->

| Name | GitHub |
|---|---|
| ? | [?](https://github.com/?) |
";
    let (people, warnings) = read(text);
    assert!(people.people.is_empty(), "{:?}", people.people);
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn mutations_of_a_real_file_are_located_warnings() {
    let text = "\
# Maintainers

* [Ada Lovelace] (https://github.com/ada)
* [Bob Babbage](https://github.com/bob_b!)
* [Carol]()
* [@dan](https://github.com/dan)
* [@dan](https://github.com/dan)

| Name | GitHub |
|---|---|

| Eve | [eve](https://github.com/eve) |

| Name | GitHub |
| Fay | @fay |

| Name | GitHub |
|---|---|
| Gus | not a login! |
| Hal |
";
    let (people, warnings) = read(text);
    let found: Vec<(usize, String)> = warnings
        .iter()
        .map(|w| (line_of(w), format!("{} {}", w.code.id(), w.message)))
        .collect();
    assert_eq!(
        found,
        [
            (3, "C208 `[...] (...)` is not a link: remove the space between `]` and `(`".to_string()),
            (4, "C208 `bob_b!` in this GitHub link is not a GitHub login".to_string()),
            (5, "C208 a link without a URL".to_string()),
            (7, "C206 `dan` is listed twice in the group `Maintainers`".to_string()),
            (12, "C208 these table rows are cut off from their table by a blank line after its delimiter row; GitHub shows them as text".to_string()),
            (14, "C208 this looks like a table, but has no delimiter row (`|---|---|`) under its header".to_string()),
            (19, "C208 `not a login!` in a GitHub column is not a GitHub login".to_string()),
        ]
    );
    // A row with a missing cell still names its person; rows cut off
    // from their table are read with the warning.
    let names: Vec<&str> = people.people.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["dan", "Eve", "Gus", "Hal"]);
    assert_eq!(people.people[1].github.as_deref(), Some("eve"));
    assert_eq!(people.people[1].at.as_ref().map(|p| p.line()), Some(12));
}

#[test]
fn a_link_whose_text_is_another_login_uses_its_url() {
    let text = "* Andrew Mason ([amason](https://github.com/ajm188))\n";
    let (people, warnings) = read(text);
    assert_eq!(people.people[0].github.as_deref(), Some("ajm188"));
    assert_eq!(
        messages(&warnings),
        ["C209 the link's text names `amason` but its URL the GitHub login `ajm188`"]
    );
}

#[test]
fn a_person_in_several_rows_of_areas_has_their_roles_joined() {
    let text = "\
| Area | Lead |
|---|---|
| Core | Daniel Jiang (reasonerjt), Steven Zou (steven-zou) |
| Webhooks | Daniel Jiang (reasonerjt) |
";
    let (people, warnings) = read(text);
    assert_eq!(
        memberships(&people),
        [
            "maintainers: -/Daniel Jiang (Core; Webhooks)",
            "maintainers: -/Steven Zou (Core)",
        ]
    );
    assert_eq!(people.people[0].handle, "reasonerjt");
    assert!(warnings.is_empty(), "{warnings:?}");
}

/// Reading stays linear: a 10,000-row table (time is the benchmark's; this
/// checks the result).
#[test]
fn a_ten_thousand_row_table_reads_every_row() {
    let mut text = String::from("| Name | GitHub |\n|---|---|\n");
    for i in 0..10_000 {
        text.push_str(&format!(
            "| Person {i} | [p{i}](https://github.com/p{i}) |\n"
        ));
    }
    let (people, warnings) = read(&text);
    assert_eq!(people.people.len(), 10_000);
    assert!(warnings.is_empty());
}

/// Issue 34: the shapes real files have that the reader once dropped.
#[test]
fn people_with_only_an_email_and_status_markers() {
    let text = "\
# Maintainers

- Ada Lovelace <ada@example.com>
- Bob Babbage (bob@example.com)
- (emeritus) Carol Hopper ([carol](https://github.com/carol))
- Dan Ritchie ([dmr](https://github.com/dmr)) (retired)
- ~~Eve Moore~~ (@eve)
- Fay Wong (sunsetting)
- [(emeritus) Gus Grey](https://github.com/gus)
- Hal Jordan (@hal), Emeritus
";
    let (people, warnings) = read(text);
    assert_eq!(
        memberships(&people),
        [
            "maintainers: -/Ada Lovelace",
            "maintainers: -/Bob Babbage",
            "maintainers: carol/Carol Hopper [emeritus]",
            "maintainers: dmr/Dan Ritchie [emeritus]",
            "maintainers: eve/Eve Moore [emeritus]",
            "maintainers: -/Fay Wong [sunsetting]",
            "maintainers: gus/Gus Grey [emeritus]",
            "maintainers: hal/Hal Jordan [emeritus]",
        ]
    );
    assert_eq!(people.people[0].email.as_deref(), Some("ada@example.com"));
    assert_eq!(people.people[1].email.as_deref(), Some("bob@example.com"));
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn names_in_any_case_or_script_and_profiles_elsewhere() {
    let text = "\
# Team

| 姓名 | github | 公司 |
|---|---|---|
| 铁城 | [cityiron](https://github.com/cityiron) | Alibaba |

- katelyn martin (@cratelyn)
- Nate Abele: Lithium, Li3

## Designer
- [steward379](https://dribbble.com/steward379)
- REPL (run `goby -i`)
";
    let (people, warnings) = read(text);
    assert_eq!(
        memberships(&people),
        [
            "team: cityiron/铁城",
            "team: cratelyn/katelyn martin",
            "team: -/Nate Abele",
            "designer: -/steward379",
        ]
    );
    assert_eq!(people.people[0].affiliation.as_deref(), Some("Alibaba"));
    assert_eq!(
        people.people[2].affiliation.as_deref(),
        Some("Lithium, Li3")
    );
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn prose_captions_organisations_and_details() {
    let text = "\
# People

## Lead

Ada Lovelace (@ada) is the lead of the project.

## Council

Alphabetical by first name:

- Bob Babbage, @bob (2015)

## Partners

- [Engines Ltd](https://engines.example) (Ada Lovelace, Bob Babbage)
- [Nobody Inc](https://nobody.example)

<details><summary>Emeritus maintainers</summary>

- Carol Hopper (@carol)

</details>

Write to @dan or security@example.com with questions.
";
    let (people, warnings) = read(text);
    assert_eq!(
        memberships(&people),
        [
            "lead: ada/Ada Lovelace",
            "council: bob/Bob Babbage",
            "partners: ada/Ada Lovelace",
            "partners: bob/Bob Babbage",
            "emeritus-maintainers: carol/Carol Hopper [emeritus]",
        ]
    );
    // The paragraph that names someone, not as a person, is a warning.
    let found: Vec<(usize, String)> = warnings
        .iter()
        .map(|w| (line_of(w), messages(std::slice::from_ref(w)).join("")))
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, 24);
}

#[test]
fn a_section_is_read_alone() {
    let text = "\
# Project

- [Docs](https://github.com/docs)

## Maintainers

- Ada Lovelace (@ada)

### Emeritus

- Bob Babbage (@bob)

## Maintainers

- Carol (@carol)
";
    let file = Arc::new(SourceFile::new("README.md".into(), text.into()));
    let options = MarkdownOptions::defaults(crate::mdbook::Generation::V05);
    let source = parse_section(Arc::clone(&file), options, "maintainers:").expect("found");
    let logins: Vec<_> = source
        .people
        .iter()
        .filter_map(|p| p.github.clone())
        .collect();
    assert_eq!(logins, ["ada", "bob"]);
    assert_eq!(source.warnings.len(), 1, "the second heading");
    let missing = parse_section(file, options, "Owners")
        .err()
        .expect("an error");
    assert!(missing[0].message.contains("no heading `Owners`"));
}

#[test]
fn logins_first_site_named_links_and_status_columns() {
    let text = "\
# Maintainers

| Name | Email | GitHub |
|---|---|---|
| Ada Lovelace | ada@example.com | https://github.com/ada |

## Reviewers

- @dan - Dan Ritchie
- [@fay](https://github.com/fay) Fay Wong
- [`gus`](https://github.com/gus) - Chair
- [hal](https://github.com/hal), Acme Corp
- Ivy Chen ([GitHub](https://github.com/ivy), [Twitter](https://twitter.com/ivy))

## Emeritus

| Name | GitHub | Status |
|---|---|---|
| Leo Tolstoy | @leo | Emeritus |
| Max Born | @max | Active |
";
    let (people, warnings) = read(text);
    assert_eq!(
        memberships(&people),
        [
            "maintainers: ada/Ada Lovelace",
            "reviewers: dan/Dan Ritchie",
            "reviewers: fay/Fay Wong",
            "reviewers: gus (Chair)",
            "reviewers: hal",
            "reviewers: ivy/Ivy Chen",
            "emeritus: leo/Leo Tolstoy [emeritus]",
            "emeritus: max/Max Born",
        ]
    );
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn people_in_html_are_reported_not_read() {
    let text = "\
# Maintainers

<table>
<tr><td><a href=\"https://github.com/ada\">Ada</a></td></tr>
</table>

<!-- - Bob (@bob) -->
";
    let (people, warnings) = read(text);
    assert!(people.people.is_empty());
    let lines: Vec<usize> = warnings.iter().map(line_of).collect();
    assert_eq!(lines, [4], "{warnings:?}");
}

#[test]
fn a_paragraph_of_people_one_a_line() {
    let text = "# Maintainers\n\nAda Lovelace (@ada)\nBob Babbage <bob@example.com>\n[carol](https://github.com/carol)\nWrite to list@example.com.\n";
    let (people, warnings) = read(text);
    assert_eq!(
        memberships(&people),
        [
            "maintainers: ada/Ada Lovelace",
            "maintainers: -/Bob Babbage",
            "maintainers: carol"
        ]
    );
    let lines: Vec<usize> = warnings.iter().map(line_of).collect();
    assert_eq!(lines, [6], "{warnings:?}");
}

#[test]
fn an_item_of_several_people_gives_each() {
    let text = "# Leads\n\n- Ada Lovelace (@ada), Bob Babbage ([bob](https://github.com/bob))\n- Carol (@carol) and @dan\n";
    let (people, warnings) = read(text);
    assert_eq!(
        memberships(&people),
        [
            "leads: ada/Ada Lovelace",
            "leads: bob/Bob Babbage",
            "leads: carol/Carol"
        ]
    );
    let found: Vec<(usize, String)> = warnings
        .iter()
        .map(|w| (line_of(w), w.message.clone()))
        .collect();
    assert_eq!(
        found,
        [(
            4,
            "this item names `@dan` too, but only `carol` is read as a person".to_string()
        )]
    );
}

#[test]
fn a_heading_per_person_over_their_fields() {
    let text = "\
# Maintainers

### Ada Lovelace

- GitHub: [@ada](https://github.com/ada)
- Company: Acme
- Email: ada@example.com
- Timezone: UTC

### Bob Babbage

- GitHub: @bob

## Emeritus

### Carol Hopper
- GitHub: carol

### Release process

- Tag: vX.Y
";
    let (people, warnings) = read(text);
    assert_eq!(
        memberships(&people),
        [
            "maintainers: ada/Ada Lovelace",
            "maintainers: bob/Bob Babbage",
            "emeritus: carol/Carol Hopper [emeritus]",
        ]
    );
    let ada = &people.people[0];
    assert_eq!(ada.affiliation.as_deref(), Some("Acme"));
    assert_eq!(ada.email.as_deref(), Some("ada@example.com"));
    assert_eq!(
        people.groups[0].members[0].fields,
        [("timezone".to_string(), "UTC".to_string())]
    );
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn a_short_name_linking_a_profile_is_that_person() {
    let text = "# Maintainers\n\n- [Jaryk](https://github.com/Ugzuzg)\n- [calvin](https://github.com/dcalvin)\n";
    let (people, warnings) = read(text);
    assert_eq!(
        memberships(&people),
        ["maintainers: Ugzuzg/Jaryk", "maintainers: dcalvin"]
    );
    let codes: Vec<&str> = warnings.iter().map(|w| w.code.id()).collect();
    assert_eq!(
        codes,
        ["C209"],
        "only the lower-case login-like text: {warnings:?}"
    );
}

#[test]
fn a_role_after_the_name_is_no_company() {
    let text = "# Emeritus\n\n- [Owais Lone](https://github.com/owais), Approver\n- [Ada](https://github.com/ada), Google LLC\n";
    let (people, _) = read(text);
    assert_eq!(
        memberships(&people),
        [
            "emeritus: owais/Owais Lone [emeritus] (Approver)",
            "emeritus: Ada [emeritus]"
        ]
    );
    assert_eq!(people.people[0].affiliation, None);
    assert_eq!(people.people[1].affiliation.as_deref(), Some("Google LLC"));
}

/// Issue 38, 6: a person's fields and a group's team mentions are each
/// found by one lookup, so that 80,000 of them read in linear time (11
/// and 8 seconds before, 0.2 and 0.03 after, in a release build: time is
/// the benchmark's; this checks the result).
#[test]
fn eighty_thousand_fields_or_team_mentions_read_every_one() {
    let mut text = String::from("# Core\n\n* Ada Lovelace (@ada)\n");
    for i in 0..80_000 {
        text.push_str(&format!("  * k{i}: v\n"));
    }
    text.push_str("  * k7: w\n");
    let (people, warnings) = read(&text);
    let fields = &people.groups[0].members[0].fields;
    assert_eq!(fields.len(), 80_000);
    assert_eq!(fields[7], ("k7".to_string(), "v; w".to_string()));
    assert!(warnings.is_empty(), "{warnings:?}");

    let mentions: Vec<String> = (0..80_000).map(|i| format!("@org/t{i}")).collect();
    let text = format!(
        "# Core\n\nTeams: {} @org/t5\n\n* Ada Lovelace (@ada)\n",
        mentions.join(" ")
    );
    let (people, _) = read(&text);
    let teams = &people.groups[0].github_teams;
    assert_eq!(teams.len(), 80_000);
    assert_eq!(teams[5], "org/t5");
}

/// Issue 38, 12: an affiliation or role after the login (` - `, ` – ` or
/// ` — ` before a role) is kept, in a list and on a line of its own; a
/// sentence about the person is not a field.
#[test]
fn an_affiliation_or_role_after_the_login_is_kept() {
    let text = "\
# Core

* Alice Smith (@alice), Acme
* Bob Jones (@bob) - Lead
* Carl Doe (@carl) — Lead

Eve Moe (@eve), Acme

Fay Loe (@fay) — Lead

Gus Poe (@gus), who founded the project, leads it.
";
    let (people, warnings) = read(text);
    assert_eq!(
        memberships(&people),
        [
            "core: alice/Alice Smith",
            "core: bob/Bob Jones (Lead)",
            "core: carl/Carl Doe (Lead)",
            "core: eve/Eve Moe",
            "core: fay/Fay Loe (Lead)",
            "core: gus/Gus Poe",
        ]
    );
    let affiliations: Vec<_> = (people.people.iter())
        .map(|p| p.affiliation.as_deref())
        .collect();
    assert_eq!(
        affiliations,
        [Some("Acme"), None, None, Some("Acme"), None, None]
    );
    assert!(warnings.is_empty(), "{warnings:?}");
}

/// Issue 38, 13: a table of 1,000 columns whose rows have two cells is
/// ended by the parser's bound on the cells it fills in: one warning at
/// the table that says so, not "no delimiter row".
#[test]
fn a_table_the_parser_stops_reading_says_why() {
    let columns: Vec<String> = (0..998).map(|i| format!("c{i}")).collect();
    let mut text = format!(
        "# Core\n\n| Name | GitHub | {} |\n|{}\n",
        columns.join(" | "),
        "---|".repeat(1000)
    );
    for i in 0..300 {
        text.push_str(&format!("| Person {i} | @p{i} |\n"));
    }
    let (people, warnings) = read(&text);
    assert_eq!(people.people.len(), 262);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let message = &warnings[0].message;
    assert!(
        message.starts_with("this table has 1000 columns"),
        "{message}"
    );
    assert!(
        message.contains("stops reading it at line 267"),
        "{message}"
    );
    assert!(!message.contains("delimiter"), "{message}");
    assert_eq!(line_of(&warnings[0]), 3);
    assert_eq!(warnings[0].each_place().len(), 2);
}
