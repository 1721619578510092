//! The entry shapes real people files use, one by one.

use super::*;
use crate::mdbook::{Generation, MarkdownOptions};
use crate::people::roster::markdown::blocks::{Block, blocks};

/// The entry of the first list item of `markdown`, and the warnings.
fn entry(markdown: &str) -> (Read, Vec<Mismatch>, Vec<String>) {
    let blocks = blocks(markdown, MarkdownOptions::defaults(Generation::V05));
    let Some(Block::List(items)) = blocks.first() else {
        panic!("not a list: {markdown}");
    };
    let (mut mismatches, mut teams) = (Vec::new(), Vec::new());
    let read = read(&items[0].pieces, &mut mismatches, &mut teams);
    (read, mismatches, teams)
}

fn person(markdown: &str) -> Entry {
    match entry(markdown).0 {
        Read::Person(entry) => entry,
        other => panic!("{markdown}: {other:?}"),
    }
}

fn login(entry: &Entry) -> Option<&str> {
    entry.login.as_ref().map(|(l, _)| l.as_str())
}

#[test]
fn name_and_at_login() {
    let e = person("- Ada Lovelace (@ada)\n");
    assert_eq!(
        (e.name.as_deref(), login(&e)),
        (Some("Ada Lovelace"), Some("ada"))
    );
}

#[test]
fn name_email_and_login() {
    let e = person("- Ada Lovelace <ada@example.com> @ada-l\n");
    assert_eq!(e.name.as_deref(), Some("Ada Lovelace"));
    assert_eq!(e.email.as_deref(), Some("ada@example.com"));
    assert_eq!(login(&e), Some("ada-l"));
}

#[test]
fn linked_name_and_company() {
    let e = person("- [Owais Lone](https://github.com/owais), Splunk\n");
    assert_eq!(e.name.as_deref(), Some("Owais Lone"));
    assert_eq!(login(&e), Some("owais"));
    assert_eq!(e.affiliation.as_deref(), Some("Splunk"));
}

#[test]
fn a_bare_login() {
    let e = person("- @octocat\n");
    assert_eq!((e.name.as_deref(), login(&e)), (None, Some("octocat")));
}

#[test]
fn linked_login_then_bold_name() {
    let e = person("- [ada](https://github.com/ada) - **Ada Lovelace**\n");
    assert_eq!(
        (e.name.as_deref(), login(&e)),
        (Some("Ada Lovelace"), Some("ada"))
    );
    assert_eq!(e.role, None);
}

#[test]
fn name_linked_login_and_email_in_parentheses() {
    let e = person("- Ada Lovelace ([ada](https://github.com/ada)) (ada@example.com)\n");
    assert_eq!(e.name.as_deref(), Some("Ada Lovelace"));
    assert_eq!(login(&e), Some("ada"));
    assert_eq!(e.email.as_deref(), Some("ada@example.com"));
}

#[test]
fn reference_style_links_are_resolved() {
    let e = person("- [Ada Lovelace][ada]\n\n[ada]: https://github.com/ada\n");
    assert_eq!(
        (e.name.as_deref(), login(&e)),
        (Some("Ada Lovelace"), Some("ada"))
    );
}

#[test]
fn the_url_wins_over_the_links_text() {
    let (read, mismatches, _) =
        entry("* Andrew Mason ([amason](https://github.com/ajm188)) andrew@planetscale.com\n");
    let Read::Person(e) = read else { panic!() };
    assert_eq!(login(&e), Some("ajm188"));
    assert_eq!(e.email.as_deref(), Some("andrew@planetscale.com"));
    assert_eq!(mismatches[0].text, "amason");
    assert_eq!(mismatches[0].url, "ajm188");
    // The same login in another case is the same login, spelled as written.
    let (read, mismatches, _) = entry("- [LittleCVR](https://github.com/littlecvr), Google LLC\n");
    let Read::Person(e) = read else { panic!() };
    assert_eq!(login(&e), Some("LittleCVR"));
    assert!(mismatches.is_empty());
}

#[test]
fn an_unclosed_parenthesis_still_reads() {
    let e = person(
        "* Mali Akmanalp ([makmanalp](https://github.com/makmanalp) makmanalp@hubspot.com\n",
    );
    assert_eq!(login(&e), Some("makmanalp"));
    assert_eq!(e.email.as_deref(), Some("makmanalp@hubspot.com"));
}

#[test]
fn bold_name_with_linked_at_login() {
    let e = person("* **Ben Noordhuis** ([@bnoordhuis](https://github.com/bnoordhuis))\n");
    assert_eq!(
        (e.name.as_deref(), login(&e)),
        (Some("Ben Noordhuis"), Some("bnoordhuis"))
    );
}

#[test]
fn code_login_link_and_a_role() {
    let e = person("- [`n1hility`](https://github.com/n1hility) - Chair\n");
    assert_eq!(
        (login(&e), e.role.as_deref()),
        (Some("n1hility"), Some("Chair"))
    );
}

#[test]
fn name_then_comma_then_linked_login() {
    let e = person("* Michael Michael, [michmike](https://github.com/michmike)\n");
    assert_eq!(
        (e.name.as_deref(), login(&e)),
        (Some("Michael Michael"), Some("michmike"))
    );
}

#[test]
fn a_nickname_is_no_login() {
    let e = person("* Yukihiro Matsumoto (matz)\n");
    assert_eq!(e.name.as_deref(), Some("Yukihiro Matsumoto"));
    assert_eq!((login(&e), e.nick.as_deref()), (None, Some("matz")));
    let e = person("* Martin J. Dürst\n");
    assert_eq!(
        (e.name.as_deref(), login(&e)),
        (Some("Martin J. Dürst"), None)
    );
}

#[test]
fn what_is_not_a_person() {
    for markdown in [
        "* *unmaintained*\n",
        "* TBD\n",
        "* https://github.com/rubygems/rubygems\n",
        "* API change needs matz's approval\n",
        "* [the backstage repo](https://github.com/backstage/backstage)\n",
        "* [Spotify](https://spotify.com)\n",
        "- Widgets are cheap to clone.\n",
    ] {
        assert_eq!(entry(markdown).0, Read::NotAPerson, "{markdown}");
    }
}

#[test]
fn teams_are_noted_not_people() {
    let (read, _, teams) = entry(
        "- [@open-telemetry/collector-approvers](https://github.com/orgs/open-telemetry/teams/collector-approvers)\n",
    );
    assert_eq!(read, Read::NotAPerson);
    assert_eq!(teams, ["open-telemetry/collector-approvers"]);
    let (_, _, teams) = entry("- Team: @backstage/maintainers\n");
    assert_eq!(teams, ["backstage/maintainers"]);
}

#[test]
fn broken_entries_are_unreadable_with_a_reason() {
    let (read, ..) = entry("- [Ada Lovelace] (https://github.com/ada)\n");
    let Read::Unreadable(_, why) = read else {
        panic!("{read:?}")
    };
    assert!(why.contains("remove the space"), "{why}");
    let (read, ..) = entry("- [Ada](https://github.com/ada_lovelace!)\n");
    assert!(matches!(read, Read::Unreadable(..)), "{read:?}");
}
