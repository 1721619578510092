//! The tally's arithmetic on small rosters, worked out by hand.

use super::*;
use crate::config::{Base, GroupRules, Share, Votes};
use crate::people::roster::parse_native;

fn people(rows: &[(&str, &str, &str)]) -> People {
    let mut text = String::new();
    for (handle, organisation, _) in rows {
        text.push_str(&format!("[people.{handle}]\n"));
        if !organisation.is_empty() {
            text.push_str(&format!("affiliation = {organisation:?}\n"));
        }
    }
    text.push_str("[[groups]]\nid = \"g\"\nmembers = [");
    for (handle, _, status) in rows {
        match *status {
            "" => text.push_str(&format!("\"{handle}\", ")),
            status => text.push_str(&format!(
                "{{ handle = \"{handle}\", status = \"{status}\" }}, "
            )),
        }
    }
    text.push_str("]\n");
    parse_native(&text, false).expect("a roster")
}

/// kgateway-dev/community#19: "if there are 16 total maintainers with 8
/// from org A then there are actually only 14 votes" under a cap of 6
/// votes per organisation (8 others + 6).
#[test]
fn votes_are_capped_per_organisation() {
    let mut rows: Vec<(String, &str, &str)> =
        (0..8).map(|i| (format!("a{i}"), "Org A", "")).collect();
    rows.extend((0..8).map(|i| (format!("o{i}"), "", "")));
    let rows: Vec<(&str, &str, &str)> = rows.iter().map(|(h, o, s)| (h.as_str(), *o, *s)).collect();
    let roster = people(&rows);
    let mut rules = GroupRules::new("g");
    rules.votes = Votes::AtMostPerOrganisation(6);
    rules.threshold_of = Base::Votes;
    rules.thresholds = vec![("decision".into(), Share::Majority)];
    let tally = Tally::of(&roster, 0, &rules, &Affiliations::default());
    assert_eq!(tally.members(), 16);
    assert_eq!(tally.votes(), 14);
    assert_eq!(tally.thresholds().next().map(|t| t.2), Some(8));
    assert_eq!(
        tally.organisation_count(),
        9,
        "each unaffiliated member is their own"
    );
}

/// A member moved to emeritus no longer counts, by the roster's standing.
#[test]
fn former_members_do_not_count() {
    let roster = people(&[("a", "X", ""), ("b", "Y", "emeritus"), ("c", "X", "")]);
    let mut rules = GroupRules::new("g");
    rules.max_per_organisation = Some(Share::Count(1));
    rules.quorum = Some(Share::Count(3));
    rules.thresholds = vec![
        ("veto".into(), Share::Count(3)),
        ("decision".into(), Share::Majority),
    ];
    let tally = Tally::of(&roster, 0, &rules, &Affiliations::default());
    assert_eq!((tally.members(), tally.former.len()), (2, 1));
    let today = Day::parse("2026-06-01").expect("a day");
    let broken: Vec<&str> = tally
        .broken(&roster, today)
        .iter()
        .map(Broken::key)
        .collect();
    assert_eq!(broken, ["max-per-organisation", "quorum", "thresholds"]);
}
