//! What breaks a governance rule, as diagnostics: a warning (C411) at the
//! rule in `book.toml`, and a note at every roster row that makes it
//! break; rules of groups the roster does not have (C505, an error); and
//! the roster data a rule reads that is unclear (C412): no affiliation, a
//! link or trailing punctuation as one, a date that cannot be read.

use std::collections::HashSet;
use std::sync::Arc;

use super::terms::{self, Unclear};
use super::{Affiliations, Broken, Tally, groups_ruled};
use crate::config::{GroupRules, Settings};
use crate::date::Day;
use crate::diagnostic::{Code, Diagnostic, Place, did_you_mean, plural};
use crate::mdbook::config::BookToml;
use crate::people::People;

/// Every governance finding of the book on `today`.
pub fn check(settings: &Settings, people: &People, today: Day) -> Vec<Diagnostic> {
    if settings.governance.is_empty() {
        return Vec::new();
    }
    let book_toml = BookToml::read(&settings.root);
    let rule_at = |path: &[&str], value: bool| -> Diagnostic {
        let diagnostic = Diagnostic::warning(Code::GovernanceRuleBroken, "");
        let place = book_toml.as_ref().and_then(|b| {
            let range = b.plugin_path(path, value)?;
            Some((Arc::clone(&b.file), range))
        });
        match place {
            Some((file, range)) => diagnostic.in_file(&file, range),
            None => diagnostic.at_path("book.toml"),
        }
    };
    let (known, unknown) = groups_ruled(&settings.governance, people);
    let mut found = Vec::new();
    for rules in unknown {
        let mut d = rule_at(&["governance", &rules.group], false);
        d.code = Code::UnknownGroup;
        d.severity = crate::diagnostic::Severity::Error;
        d.message = format!(
            "governance rules for a group `{}` that is not in `{}`; none of its rules is checked",
            rules.group, people.name
        );
        found.push(
            d.with_label("unknown group")
                .with_suggestion(did_you_mean(&rules.group, people.group_ids())),
        );
    }
    let affiliations = Affiliations::new(&settings.affiliation_aliases);
    let mut said = HashSet::new();
    for (group, rules) in known {
        let tally = Tally::of(people, group, rules, &affiliations);
        for broken in tally.broken(people, today) {
            let mut path = vec!["governance", &rules.group, broken.key()];
            if let Broken::ThresholdUnreachable { name, .. } = &broken {
                path.push(name);
            }
            let mut d = rule_at(&path, true);
            let (message, rows) = explain(&tally, people, &broken);
            d.message = message;
            let d = d.with_label("this rule").with_note(format!(
                "the rows: {}",
                rows.iter().map(row_name).collect::<Vec<_>>().join("; ")
            ));
            found.push(d);
            found.extend(at_rows(&rows, rules, &broken));
        }
        found.extend(unclear_data(
            &tally,
            people,
            today,
            &affiliations,
            &mut said,
        ));
    }
    found
}

/// The message of `broken`, and the roster rows that make it.
fn explain(tally: &Tally<'_>, people: &People, broken: &Broken) -> (String, Vec<Place>) {
    (message(tally, people, broken), rows(tally, people, broken))
}

/// Where membership `member` of the group is written (else its person).
fn place_of(tally: &Tally<'_>, people: &People, member: usize) -> Option<Place> {
    let member = &people.groups[tally.group].members[member];
    (member.at.clone()).or_else(|| people.people[member.person].at.clone())
}

/// The roster rows that make `broken`: the organisation's members, every
/// member, the former members, or the member whose term ended.
fn rows(tally: &Tally<'_>, people: &People, broken: &Broken) -> Vec<Place> {
    let members: Vec<usize> = match broken {
        Broken::TooManyFromOne { index, .. } => (tally.organisations[*index].seats.iter())
            .map(|&s| tally.seats[s].member)
            .collect(),
        Broken::TooFewOrganisations { .. } => tally.seats.iter().map(|s| s.member).collect(),
        Broken::TooFewMembers { .. }
        | Broken::QuorumUnreachable { .. }
        | Broken::ThresholdUnreachable { .. } => tally.former.clone(),
        Broken::TermEnded(term) => vec![tally.seats[term.seat].member],
    };
    (members.into_iter())
        .filter_map(|m| place_of(tally, people, m))
        .collect()
}

/// What `broken` means, in a sentence.
fn message(tally: &Tally<'_>, people: &People, broken: &Broken) -> String {
    let id = &people.groups[tally.group].id;
    match broken {
        Broken::TooManyFromOne { index, count, cap } => format!(
            "group `{id}` has {} from {} of {} members; its charter allows at most {cap}{}",
            plural(*count as usize, "member"),
            tally.organisations[*index].name,
            tally.members(),
            rule_text(tally.rules.max_per_organisation.as_ref()),
        ),
        Broken::TooFewOrganisations { min } => format!(
            "group `{id}`'s members are from {}; its charter asks for at least {min}",
            plural(tally.organisation_count() as usize, "organisation"),
        ),
        Broken::TooFewMembers { min } => format!(
            "group `{id}` has {} who serve; its charter asks for at least {min}",
            plural(tally.members() as usize, "member"),
        ),
        Broken::QuorumUnreachable { quorum, reachable } => format!(
            "group `{id}` can no longer reach its quorum: it needs {quorum} but has {} who serve{}",
            plural(*reachable as usize, tally.unit()),
            match tally.former.len() {
                0 => String::new(),
                n => format!(
                    " ({} no longer serve{})",
                    plural(n, "former member"),
                    if n == 1 { "s" } else { "" }
                ),
            }
        ),
        Broken::ThresholdUnreachable {
            name,
            needed,
            reachable,
        } => format!(
            "group `{id}`'s threshold `{name}` needs {needed} but the group has {} who serve: no vote can pass it",
            plural(*reachable as usize, tally.unit()),
        ),
        Broken::TermEnded(term) => format!(
            "{}'s term in group `{id}` ended on {} ({} {}) and was not renewed",
            people.people[tally.seats[term.seat].person].name, term.ends, term.from.0, term.from.1
        ),
    }
}

/// ` (1/3 of the group)` for a share; nothing for a count.
fn rule_text(share: Option<&crate::config::Share>) -> String {
    match share {
        Some(share @ crate::config::Share::Part { .. }) => format!(" ({share} of the group)"),
        _ => String::new(),
    }
}

/// `maintainers.toml:12:5`.
fn row_name(place: &Place) -> String {
    let at = crate::diagnostic::position_in(&place.file.name, &place.file.text, place.range.start);
    format!("{}:{}:{}", at.file, at.line, at.column)
}

/// A note at each row of `rows`.
fn at_rows(rows: &[Place], rules: &GroupRules, broken: &Broken) -> Vec<Diagnostic> {
    let message = format!(
        "this row breaks `{}` of group `{}` (governance in book.toml)",
        broken.key(),
        rules.group
    );
    (rows.iter())
        .map(|row| Diagnostic::note(Code::GovernanceRuleBroken, message.clone()).at(row))
        .collect()
}

/// The unclear data of the group's serving members, each person's once.
fn unclear_data(
    tally: &Tally<'_>,
    people: &People,
    today: Day,
    affiliations: &Affiliations,
    said: &mut HashSet<(usize, String)>,
) -> Vec<Diagnostic> {
    let group = &people.groups[tally.group];
    let mut found = Vec::new();
    for seat in &tally.seats {
        let person = &people.people[seat.person];
        let Some(place) = (group.members[seat.member].at.clone()).or_else(|| person.at.clone())
        else {
            continue;
        };
        let at = person.at.clone().unwrap_or_else(|| place.clone());
        let clean = affiliations.clean(person.affiliation.as_deref());
        let finding = match &clean {
            None => Some(Diagnostic::note(
                Code::GovernanceData,
                format!(
                    "{} has no affiliation: the governance rules count them as their own organisation",
                    person.name
                ),
            )),
            Some(clean) => clean.changed.map(|why| {
                Diagnostic::warning(
                    Code::GovernanceData,
                    format!(
                        "{}'s affiliation is {why}: the governance rules read it as `{}`",
                        person.name, clean.name
                    ),
                )
            }),
        };
        if let Some(d) = finding
            && said.insert((seat.person, "affiliation".into()))
        {
            found.push(
                d.at(&at)
                    .with_help("write the organisation's name as plain text in `affiliation`"),
            );
        }
    }
    for Unclear {
        seat,
        field,
        value,
        why,
    } in terms::of_tally(tally, people, today).unclear
    {
        let seat = &tally.seats[seat];
        let person = &people.people[seat.person];
        let place = (group.members[seat.member].at.clone()).or_else(|| person.at.clone());
        if let Some(place) = place
            && said.insert((seat.person, format!("{field}={value}")))
        {
            found.push(
                Diagnostic::warning(
                    Code::GovernanceData,
                    format!(
                        "{}'s `{field}` date \"{value}\" {why}; their term is not judged by it",
                        person.name
                    ),
                )
                .at(&place),
            );
        }
    }
    found
}
