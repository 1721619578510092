//! Members' terms: when each serving member's term ends, from the dates of
//! the roster (`until`, else `renewed` or `since` and the group's `term`),
//! read from the membership's `fields` first, then the person's.

use super::Tally;
use crate::date::Day;
use crate::people::People;

/// The date fields a term is read from.
pub const DATE_FIELDS: [&str; 3] = ["until", "renewed", "since"];

/// How many days ahead a term counts as ending soon.
pub const SOON_DAYS: i64 = 90;

/// One member's term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    /// Index into [`Tally::seats`].
    pub seat: usize,
    /// The field the end is read from (`until`, `renewed` or `since`),
    /// and its day.
    pub from: (&'static str, Day),
    /// The last day of the term.
    pub ends: Day,
}

/// A date the roster gives that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unclear {
    /// Index into [`Tally::seats`].
    pub seat: usize,
    /// The field.
    pub field: &'static str,
    /// Its text.
    pub value: String,
    /// What is wrong.
    pub why: &'static str,
}

/// The terms of a group's serving members, and the dates that could not
/// be read.
#[derive(Debug, Clone, Default)]
pub struct Terms {
    /// The terms, in roster order.
    pub terms: Vec<Term>,
    /// The dates that cannot be used.
    pub unclear: Vec<Unclear>,
}

impl Terms {
    /// The terms that end between `today` and [`SOON_DAYS`] days later.
    pub fn ending_soon(&self, today: Day) -> impl Iterator<Item = &Term> {
        let soon = today.plus_days(SOON_DAYS);
        (self.terms.iter()).filter(move |t| t.ends >= today && t.ends <= soon)
    }
}

/// The terms of `tally`'s members on `today`.
pub fn of_tally(tally: &Tally<'_>, people: &People, today: Day) -> Terms {
    let mut terms = Terms::default();
    let group = &people.groups[tally.group];
    for (index, seat) in tally.seats.iter().enumerate() {
        let member = &group.members[seat.member];
        let person = &people.people[seat.person];
        let field = |name: &str| {
            (member.fields.iter().chain(&person.fields))
                .find(|(key, _)| key.eq_ignore_ascii_case(name))
                .map(|(_, value)| value.trim())
        };
        let mut dates = Vec::new();
        for name in DATE_FIELDS {
            let Some(value) = field(name) else { continue };
            let unclear = |why| Unclear {
                seat: index,
                field: name,
                value: value.to_string(),
                why,
            };
            match Day::parse(value) {
                None => terms
                    .unclear
                    .push(unclear("is not a date written YYYY-MM-DD")),
                Some(day) if name != "until" && day > today => terms
                    .unclear
                    .push(unclear("is in the future (a term cannot start later)")),
                Some(day) => dates.push((name, day)),
            }
        }
        let until = dates.iter().find(|(name, _)| *name == "until").copied();
        let started = (dates.iter())
            .filter(|(name, _)| *name != "until")
            .max_by_key(|(_, day)| *day)
            .copied();
        let term = match (until, started, tally.rules.term) {
            (Some(until), _, _) => Some((until, until.1)),
            (None, Some(start), Some(window)) => Some((start, window.after(start.1))),
            _ => None,
        };
        if let Some((from, ends)) = term {
            terms.terms.push(Term {
                seat: index,
                from,
                ends,
            });
        }
    }
    terms
}
