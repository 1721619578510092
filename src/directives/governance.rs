//! `{{#governance GROUP}}`: the numbers a charter's prose needs, from the
//! roster of the same build under the group's `governance` rules: members,
//! organisations, eligible votes, the cap per organisation, the quorum and
//! each threshold in people, each organisation's share against the cap,
//! and the terms ending soon. `{{#governance GROUP value=NAME}}` (or
//! `threshold=NAME`) is one of those numbers, in running text.

use std::ops::Range;
use std::sync::Arc;

use pulldown_cmark::{Alignment, CowStr, Event, Tag, TagEnd};

use crate::config::{Base, GroupRules, Votes};
use crate::date::Day;
use crate::diagnostic::{Code, Diagnostic, did_you_mean, plural};
use crate::directive::args::ArgKind;
use crate::directive::{BraceDirective, Call, Cx, Expansion, unknown_option};
use crate::governance::terms::{self, SOON_DAYS};
use crate::governance::{Affiliations, Tally};
use crate::markdown::{Placement, to_markdown};
use crate::people::People;

/// The `governance` directive.
pub struct GovernanceDirective;

/// The numbers `value=` names.
pub const VALUES: &[&str] = &[
    "members",
    "organisations",
    "votes",
    "quorum",
    "max-per-organisation",
    "min-organisations",
    "min-members",
];

/// A group asked for, its roster and its rules.
pub(super) struct Target {
    pub people: Arc<People>,
    pub group: usize,
    pub rules: GroupRules,
    pub affiliations: Affiliations,
    /// Options other than the group: key, value, the value's range.
    pub options: Vec<(String, String, Range<usize>)>,
}

impl Target {
    pub fn tally(&self) -> Tally<'_> {
        Tally::of(&self.people, self.group, &self.rules, &self.affiliations)
    }
}

/// Reads `{{#NAME GROUP key=value ...}}`: the group (which must be in the
/// roster) and the options, each of `known`.
pub(super) fn target(
    call: &Call<'_>,
    cx: &Cx<'_>,
    known: &[&str],
) -> Result<Target, Vec<Diagnostic>> {
    let name = call.name;
    let mut group = None;
    let mut options = Vec::new();
    let mut errors = Vec::new();
    for arg in call.tokens().map_err(|e| vec![e])? {
        match &arg.kind {
            ArgKind::Word(word) if group.is_none() => group = Some((*word, arg.range.clone())),
            ArgKind::Pair {
                key,
                value,
                value_range,
            } if known.contains(key) => {
                options.push((key.to_string(), value.to_string(), value_range.clone()))
            }
            ArgKind::Pair { key, .. } => errors.push(unknown_option(&arg, key, known, call)),
            _ => errors.push(
                call.error_at(
                    arg.range.clone(),
                    Code::InvalidArguments,
                    format!("`{{{{#{name}}}}}` takes one group and options"),
                )
                .with_label("unexpected"),
            ),
        }
    }
    let Some((id, range)) = group else {
        errors.push(call.error(
            Code::InvalidArguments,
            format!("`{{{{#{name}}}}}` needs a group, e.g. `{{{{#{name} maintainers}}}}`"),
        ));
        return Err(errors);
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    let people = (cx.run.data.people(cx.settings())).map_err(|e| vec![call.load_error(&e)])?;
    let found = people.group(id);
    let Some(index) = found.and_then(|f| people.groups.iter().position(|g| std::ptr::eq(g, f)))
    else {
        return Err(vec![
            call.error_at(
                range,
                Code::UnknownGroup,
                format!("no group `{id}` in `{}`", people.name),
            )
            .with_label("unknown group")
            .with_suggestion(did_you_mean(id, people.group_ids())),
        ]);
    };
    let group_id = people.groups[index].id.clone();
    let settings = cx.settings();
    let rules = (settings.governance.iter())
        .find(|r| r.group == group_id)
        .cloned()
        .unwrap_or_else(|| GroupRules::new(&group_id));
    Ok(Target {
        people,
        group: index,
        rules,
        affiliations: Affiliations::new(&settings.affiliation_aliases),
        options,
    })
}

impl BraceDirective for GovernanceDirective {
    fn name(&self) -> &'static str {
        "governance"
    }

    fn expand(&self, call: &Call<'_>, cx: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        let target = target(call, cx, &["value", "threshold"])?;
        let tally = target.tally();
        let options = cx.settings().markdown.parser_options();
        if let [_, (_, _, extra), ..] = target.options.as_slice() {
            return Err(vec![
                call.error_at(
                    extra.clone(),
                    Code::InvalidArguments,
                    "`{{#governance}}` shows one number at a time: one `value=` or `threshold=`",
                )
                .with_label("a second number"),
            ]);
        }
        if let Some((key, value, range)) = target.options.first() {
            let number = one_number(&tally, key, value).map_err(|why| {
                vec![
                    call.error_at(range.clone(), Code::InvalidArguments, why.0)
                        .with_suggestion(why.1),
                ]
            })?;
            return Ok(Expansion::Inline(number));
        }
        if call.placement == Placement::Inline {
            return Err(vec![
                call.error(
                    Code::MisplacedDirective,
                    "`{{#governance}}` makes a table here, so it must be a paragraph of its own",
                )
                .with_label("inside running text")
                .with_help("for one number in a sentence, use `value=`, e.g. `value=quorum`"),
            ]);
        }
        let today = cx.run.today.unwrap_or_else(Day::today);
        let mut events = Vec::new();
        summary(&tally, &mut events);
        organisations(&tally, &mut events);
        ending_soon(&tally, &target.people, today, &mut events);
        Ok(Expansion::Block(to_markdown(events, options)))
    }
}

/// The number `key=value` names, or why there is none (and a suggestion).
fn one_number(
    tally: &Tally<'_>,
    key: &str,
    value: &str,
) -> Result<String, (String, Option<String>)> {
    let rules = tally.rules;
    let group = &rules.group;
    let missing = |rule: &str| {
        (
            format!("group `{group}` has no `{rule}` rule in book.toml's governance"),
            None,
        )
    };
    if key == "threshold" {
        return match tally.thresholds().find(|(name, ..)| *name == value) {
            Some((.., needed)) => Ok(needed.to_string()),
            None => Err((
                format!("group `{group}` has no threshold `{value}`"),
                did_you_mean(value, rules.thresholds.iter().map(|(n, _)| n.as_str()))
                    .map(str::to_string),
            )),
        };
    }
    let number = match value {
        "members" => tally.members(),
        "organisations" | "organizations" => tally.organisation_count(),
        "votes" => tally.votes(),
        "quorum" => tally.quorum().ok_or_else(|| missing("quorum"))?,
        "max-per-organisation" => tally.cap().ok_or_else(|| missing("max-per-organisation"))?,
        "min-organisations" => rules
            .min_organisations
            .ok_or_else(|| missing("min-organisations"))?,
        "min-members" => rules.min_members.ok_or_else(|| missing("min-members"))?,
        _ => {
            return Err((
                format!("unknown value `{value}` (one of {})", VALUES.join(", ")),
                did_you_mean(value, VALUES.iter().copied()).map(str::to_string),
            ));
        }
    };
    Ok(number.to_string())
}

fn text<'a>(out: &mut Vec<Event<'a>>, text: String) {
    out.push(Event::Text(CowStr::from(text)));
}

fn row<'a>(out: &mut Vec<Event<'a>>, cells: Vec<String>) {
    out.push(Event::Start(Tag::TableRow));
    for cell in cells {
        out.push(Event::Start(Tag::TableCell));
        text(out, cell);
        out.push(Event::End(TagEnd::TableCell));
    }
    out.push(Event::End(TagEnd::TableRow));
}

/// A table with a head row; `rows` after it.
pub(super) fn table<'a>(out: &mut Vec<Event<'a>>, head: &[&str], rows: Vec<Vec<String>>) {
    let mut align = vec![Alignment::None; head.len()];
    for a in align.iter_mut().skip(1) {
        *a = Alignment::Right;
    }
    out.push(Event::Start(Tag::Table(align)));
    out.push(Event::Start(Tag::TableHead));
    for cell in head {
        out.push(Event::Start(Tag::TableCell));
        text(out, cell.to_string());
        out.push(Event::End(TagEnd::TableCell));
    }
    out.push(Event::End(TagEnd::TableHead));
    for cells in rows {
        row(out, cells);
    }
    out.push(Event::End(TagEnd::Table));
}

fn paragraph<'a>(out: &mut Vec<Event<'a>>, line: String) {
    out.push(Event::Start(Tag::Paragraph));
    text(out, line);
    out.push(Event::End(TagEnd::Paragraph));
}

/// The group's numbers, one rule a row.
fn summary(tally: &Tally<'_>, out: &mut Vec<Event<'_>>) {
    let rules = tally.rules;
    let base = match rules.threshold_of {
        Base::Members => "members",
        Base::Votes => "votes",
    };
    let mut rows = vec![
        vec!["Members who serve".into(), tally.members().to_string()],
        vec![
            "Organisations".into(),
            tally.organisation_count().to_string(),
        ],
    ];
    let votes = match rules.votes {
        Votes::PerPerson => "one per member".to_string(),
        Votes::PerOrganisation => "one per organisation".to_string(),
        Votes::AtMostPerOrganisation(n) => format!("one per member, at most {n} per organisation"),
    };
    rows.push(vec![
        format!("Eligible votes ({votes})"),
        tally.votes().to_string(),
    ]);
    if let (Some(cap), Some(share)) = (tally.cap(), &rules.max_per_organisation) {
        rows.push(vec![
            format!("Most members from one organisation ({share})"),
            cap.to_string(),
        ]);
    }
    if let Some(min) = rules.min_organisations {
        rows.push(vec!["Fewest organisations".into(), min.to_string()]);
    }
    if let Some(min) = rules.min_members {
        rows.push(vec!["Fewest members".into(), min.to_string()]);
    }
    if let (Some(quorum), Some(share)) = (tally.quorum(), &rules.quorum) {
        rows.push(vec![
            format!("Quorum ({share} of {base})"),
            quorum.to_string(),
        ]);
    }
    for (name, share, needed) in tally.thresholds() {
        rows.push(vec![
            format!("Threshold: {name} ({share} of {base})"),
            needed.to_string(),
        ]);
    }
    table(out, &["Rule", "Number"], rows);
    let alone: Vec<&str> = (tally.organisations.iter())
        .filter(|o| o.unaffiliated)
        .map(|o| o.name.as_str())
        .collect();
    if !alone.is_empty() {
        paragraph(
            out,
            format!(
                "Without an affiliation in the roster, and counted as their own organisation: {}.",
                alone.join(", ")
            ),
        );
    }
}

/// Each organisation, its members, share and votes, against the cap.
fn organisations(tally: &Tally<'_>, out: &mut Vec<Event<'_>>) {
    let members = tally.members().max(1);
    let cap = tally.cap();
    let mut head = vec!["Organisation", "Members", "Share", "Votes"];
    if cap.is_some() {
        head.push("Cap");
    }
    let rows = (tally.organisations.iter().enumerate())
        .map(|(index, organisation)| {
            let count = organisation.seats.len() as u64;
            let mut cells = vec![
                organisation.name.clone(),
                count.to_string(),
                format!("{}%", (count * 100 + members / 2) / members),
                tally.votes_of(index).to_string(),
            ];
            if let Some(cap) = cap {
                cells.push(match (organisation.unaffiliated, count > cap) {
                    (true, _) => "own".to_string(),
                    (false, true) => format!("{count} of {cap}: over"),
                    (false, false) => format!("{count} of {cap}"),
                });
            }
            cells
        })
        .collect();
    table(out, &head, rows);
}

/// The terms that end within [`SOON_DAYS`] days, and those that ended.
fn ending_soon(tally: &Tally<'_>, people: &People, today: Day, out: &mut Vec<Event<'_>>) {
    let terms = terms::of_tally(tally, people, today);
    if terms.terms.is_empty() {
        return;
    }
    let soon: Vec<_> = terms.ending_soon(today).collect();
    let ended: Vec<_> = terms.terms.iter().filter(|t| t.ends < today).collect();
    let name = |seat: usize| people.people[tally.seats[seat].person].name.clone();
    if soon.is_empty() && ended.is_empty() {
        paragraph(out, format!("No term ends in the next {SOON_DAYS} days."));
        return;
    }
    let mut rows = Vec::new();
    for term in ended.iter().chain(&soon) {
        let state = if term.ends < today { "ended" } else { "ends" };
        rows.push(vec![name(term.seat), format!("{state} {}", term.ends)]);
    }
    paragraph(
        out,
        format!(
            "Terms ending by {} ({}):",
            today.plus_days(SOON_DAYS),
            plural(rows.len(), "member")
        ),
    );
    table(out, &["Member", "Term"], rows);
}
