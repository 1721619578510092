//! The settings of the governance rules: `[preprocessor.community.governance.GROUP]`
//! (what a group's charter says about organisations, votes, thresholds,
//! quorum and terms) and `affiliation-aliases` (spellings of one
//! organisation). Read here, with every problem at its key in
//! `book.toml`; `governance/` computes with them.

use std::fmt;

use serde_json::{Map, Value};

use super::activity::Unit;
use super::{Problem, Settings, Window};
use crate::diagnostic::did_you_mean;

/// A share of a group or a number of people: `"1/3"`, `"75%"`, `2`,
/// `"majority"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Share {
    /// A number of people (or votes).
    Count(u64),
    /// More than half.
    Majority,
    /// `num/den` of the whole, `0 < num <= den`; `percent` when written
    /// as a percentage.
    Part {
        /// Numerator.
        num: u64,
        /// Denominator.
        den: u64,
        /// Written as `NN%`.
        percent: bool,
    },
}

impl Share {
    /// The fewest of `whole` that reach this share: at least `num/den` of
    /// it (rounded up), more than half, or the count.
    pub fn needed(&self, whole: u64) -> u64 {
        match *self {
            Share::Count(n) => n,
            Share::Majority => whole / 2 + 1,
            Share::Part { num, den, .. } => (whole * num).div_ceil(den),
        }
    }

    /// The most of `whole` that stay within this share, as a cap: at most
    /// `num/den` of it (rounded down), or the count.
    pub fn cap(&self, whole: u64) -> u64 {
        match *self {
            Share::Count(n) => n,
            Share::Majority => whole.saturating_sub(1) / 2,
            Share::Part { num, den, .. } => whole * num / den,
        }
    }

    /// Reads `"2/3"`, `"75%"`, `"majority"` or a whole number (with
    /// `majority` allowed or not).
    fn read(value: &Value, majority: bool) -> Result<Share, String> {
        let example = if majority {
            "a share such as \"2/3\" or \"75%\", \"majority\", or a number of people"
        } else {
            "a share such as \"1/3\" or \"33%\", or a number of people"
        };
        if let Some(n) = value.as_u64() {
            return match n {
                1..=100_000 => Ok(Share::Count(n)),
                _ => Err(format!("must be {example}, at least 1; found {value}")),
            };
        }
        let Some(text) = value.as_str().map(str::trim) else {
            return Err(format!("must be {example}; found {value}"));
        };
        if majority && text.eq_ignore_ascii_case("majority") {
            return Ok(Share::Majority);
        }
        let number = |s: &str| s.trim().parse::<u64>().ok().filter(|n| *n <= 1_000_000);
        let (num, den, percent) = if let Some(p) = text.strip_suffix('%') {
            (number(p), Some(100), true)
        } else if let Some((n, d)) = text.split_once('/') {
            (number(n), number(d), false)
        } else if let Some(n) = number(text).filter(|n| *n > 0) {
            return Ok(Share::Count(n));
        } else {
            return Err(format!("must be {example}; found \"{text}\""));
        };
        match (num, den) {
            (Some(num), Some(den)) if num > 0 && den > 0 && num <= den => {
                Ok(Share::Part { num, den, percent })
            }
            (Some(_), Some(0)) => Err(format!("divides by zero: \"{text}\"")),
            (Some(num), Some(den)) if num > den => Err(format!(
                "is more than the whole group: \"{text}\" (a share is at most 100%)"
            )),
            _ => Err(format!("must be {example}; found \"{text}\"")),
        }
    }
}

/// `2/3`, `75%`, `majority`, `2`.
impl fmt::Display for Share {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Share::Count(n) => write!(f, "{n}"),
            Share::Majority => f.write_str("majority"),
            Share::Part {
                num, percent: true, ..
            } => write!(f, "{num}%"),
            Share::Part { num, den, .. } => write!(f, "{num}/{den}"),
        }
    }
}

/// How a group's votes count: `votes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Votes {
    /// One vote per member (the default).
    #[default]
    PerPerson,
    /// One vote per organisation.
    PerOrganisation,
    /// One vote per member, at most this many per organisation.
    AtMostPerOrganisation(u64),
}

/// What a threshold or quorum is a share of: `threshold-of`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Base {
    /// The members who serve (the default).
    #[default]
    Members,
    /// The eligible votes.
    Votes,
}

/// One group's rules, as its charter states them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupRules {
    /// The group id (the table's name).
    pub group: String,
    /// `max-per-organisation`: the most members from one organisation.
    pub max_per_organisation: Option<Share>,
    /// `min-organisations`: the fewest organisations.
    pub min_organisations: Option<u64>,
    /// `min-members`: the fewest members who serve.
    pub min_members: Option<u64>,
    /// `votes`.
    pub votes: Votes,
    /// `thresholds`: each decision's name and share, in file order.
    pub thresholds: Vec<(String, Share)>,
    /// `threshold-of`.
    pub threshold_of: Base,
    /// `quorum`.
    pub quorum: Option<Share>,
    /// `term`: how long a membership lasts from its `since` or `renewed`
    /// date before it must be renewed.
    pub term: Option<Window>,
}

/// The keys of a group's table.
pub const RULE_KEYS: &[&str] = &[
    "max-per-organisation",
    "min-organisations",
    "min-members",
    "votes",
    "thresholds",
    "threshold-of",
    "quorum",
    "term",
];

impl GroupRules {
    /// No rules for `group`: votes per person, thresholds of members.
    pub fn new(group: &str) -> GroupRules {
        GroupRules {
            group: group.to_string(),
            max_per_organisation: None,
            min_organisations: None,
            min_members: None,
            votes: Votes::default(),
            thresholds: Vec::new(),
            threshold_of: Base::default(),
            quorum: None,
            term: None,
        }
    }

    /// The rules of `table` (`[preprocessor.community.governance.GROUP]`),
    /// as far as they are valid, and a problem at each key that is not.
    fn read(group: &str, table: &Map<String, Value>) -> (GroupRules, Vec<Problem>) {
        let mut rules = GroupRules::new(group);
        let mut problems = Vec::new();
        for (key, value) in table {
            let at = |message: String, suggestion: Option<String>| {
                Problem::value(message, suggestion).at(&["governance", group, key])
            };
            if let Err(why) = rules.apply(key, value) {
                problems.push(at(format!("`{group}.{key}` {why}"), None));
            } else if !RULE_KEYS.contains(&key.as_str()) {
                let suggestion = did_you_mean(key, RULE_KEYS.iter().copied());
                let message = format!(
                    "`{group}` has an unknown key `{key}` (known: {})",
                    RULE_KEYS.join(", ")
                );
                problems.push(at(message, suggestion.map(str::to_string)));
            }
        }
        (rules, problems)
    }

    /// Sets `key` from `value`; an unknown key is left to the caller.
    fn apply(&mut self, key: &str, value: &Value) -> Result<(), String> {
        match key {
            "max-per-organisation" => self.max_per_organisation = Some(Share::read(value, false)?),
            "min-organisations" => self.min_organisations = Some(count(value)?),
            "min-members" => self.min_members = Some(count(value)?),
            "votes" => self.votes = votes(value)?,
            "thresholds" => self.thresholds = thresholds(value)?,
            "threshold-of" => {
                self.threshold_of = match value.as_str() {
                    Some("members") => Base::Members,
                    Some("votes") => Base::Votes,
                    _ => return Err(format!("must be \"members\" or \"votes\", found {value}")),
                }
            }
            "quorum" => self.quorum = Some(Share::read(value, true)?),
            "term" => self.term = Some(term(value)?),
            _ => {}
        }
        Ok(())
    }
}

fn count(value: &Value) -> Result<u64, String> {
    match value.as_u64() {
        Some(n @ 1..=100_000) => Ok(n),
        _ => Err(format!("must be a whole number, at least 1; found {value}")),
    }
}

/// `"per-person"`, `"per-organisation"` or `{ per-organisation = N }`.
fn votes(value: &Value) -> Result<Votes, String> {
    let expected = "must be \"per-person\", \"per-organisation\" or { per-organisation = N } (at most N votes per organisation)";
    match value {
        Value::String(s) if s == "per-person" => Ok(Votes::PerPerson),
        Value::String(s) if s == "per-organisation" || s == "per-organization" => {
            Ok(Votes::PerOrganisation)
        }
        Value::Object(table) if table.len() == 1 => {
            let n = table
                .get("per-organisation")
                .or_else(|| table.get("per-organization"))
                .and_then(Value::as_u64)
                .filter(|n| (1..=100_000).contains(n));
            n.map(Votes::AtMostPerOrganisation)
                .ok_or_else(|| format!("{expected}; found {value}"))
        }
        _ => Err(format!("{expected}; found {value}")),
    }
}

/// `{ NAME = "2/3", ... }`.
fn thresholds(value: &Value) -> Result<Vec<(String, Share)>, String> {
    let Some(table) = value.as_object() else {
        return Err(format!(
            "must be a table of decisions and their shares, e.g. {{ charter-change = \"2/3\" }}; found {value}"
        ));
    };
    table
        .iter()
        .map(|(name, share)| {
            Share::read(share, true)
                .map(|s| (name.clone(), s))
                .map_err(|why| format!("`{name}` {why}"))
        })
        .collect()
}

/// `"1y"`, `"2 years"`, `"12 months"`, `"90 days"`.
fn term(value: &Value) -> Result<Window, String> {
    let example = "e.g. \"1 year\", \"2y\", \"12 months\" or \"90 days\"";
    let Some(text) = value.as_str().map(str::trim) else {
        return Err(format!(
            "must be a length of time, {example}; found {value}"
        ));
    };
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: Option<u32> = number.parse().ok().filter(|n| (1..=100).contains(n));
    let unit = match unit.trim().to_lowercase().as_str() {
        "y" | "year" | "years" => Some((12, Unit::Months)),
        "m" | "month" | "months" => Some((1, Unit::Months)),
        "w" | "week" | "weeks" => Some((1, Unit::Weeks)),
        "d" | "day" | "days" => Some((1, Unit::Days)),
        _ => None,
    };
    match (number, unit) {
        (Some(n), Some((times, unit))) => Ok(Window {
            count: n * times,
            unit,
        }),
        _ => Err(format!(
            "must be a length of time from 1 to 100 units, {example}; found \"{text}\""
        )),
    }
}

impl Settings {
    /// `governance` (a table of groups' rules) and `affiliation-aliases`.
    pub(super) fn apply_governance(&mut self, key: &str, value: &Value) -> Result<(), Problem> {
        let Some(table) = value.as_object() else {
            let why = match key {
                "governance" => {
                    "must be a table of groups, [preprocessor.community.governance.GROUP]"
                }
                _ => {
                    "must be a table of spellings and the organisation each means, { \"Intuit, Inc.\" = \"Intuit\" }"
                }
            };
            return Err(Problem::value(format!("{why}; found {value}"), None));
        };
        let mut problems = Vec::new();
        if key == "affiliation-aliases" {
            for (alias, name) in table {
                match name.as_str().map(str::trim).filter(|n| !n.is_empty()) {
                    Some(name) => {
                        (self.affiliation_aliases).push((alias.clone(), name.to_string()))
                    }
                    None => problems.push(
                        Problem::value(
                            format!("`{alias}` must name an organisation, found {name}"),
                            None,
                        )
                        .at(&["affiliation-aliases", alias]),
                    ),
                }
            }
        } else {
            for (group, rules) in table {
                let Some(rules) = rules.as_object() else {
                    problems.push(
                        Problem::value(
                            format!("`{group}` must be a table of rules; found {rules}"),
                            None,
                        )
                        .at(&["governance", group]),
                    );
                    continue;
                };
                let (rules, found) = GroupRules::read(group, rules);
                self.governance.push(rules);
                problems.extend(found);
            }
        }
        Problem::all(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn share(value: Value) -> String {
        match Share::read(&value, true) {
            Ok(share) => format!("ok {share}"),
            Err(why) => why,
        }
    }

    #[test]
    fn shares_parse_and_compute() {
        assert_eq!(share(json!("2/3")), "ok 2/3");
        assert_eq!(share(json!("75%")), "ok 75%");
        assert_eq!(share(json!(2)), "ok 2");
        assert_eq!(share(json!("majority")), "ok majority");
        assert_eq!(share(json!("1/0")), "divides by zero: \"1/0\"");
        assert!(share(json!("150%")).starts_with("is more than the whole group"));
        assert!(share(json!("0/3")).starts_with("must be"));
        assert!(share(json!("a lot")).starts_with("must be"));
        let two_thirds = Share::read(&json!("2/3"), true).expect("share");
        assert_eq!(two_thirds.needed(7), 5);
        assert_eq!(two_thirds.needed(9), 6);
        assert_eq!(Share::Majority.needed(7), 4);
        assert_eq!(Share::Majority.needed(8), 5);
        let third = Share::read(&json!("1/3"), false).expect("share");
        assert_eq!(third.cap(7), 2);
        assert_eq!(third.cap(9), 3);
        assert!(Share::read(&json!("majority"), false).is_err());
    }

    #[test]
    fn terms_and_votes_parse() {
        assert_eq!(term(&json!("1y")).expect("term").to_string(), "12 months");
        assert_eq!(
            term(&json!("2 years")).expect("term").to_string(),
            "24 months"
        );
        assert_eq!(
            term(&json!("90 days")).expect("term").to_string(),
            "90 days"
        );
        assert!(term(&json!("forever")).is_err());
        assert_eq!(
            votes(&json!({"per-organisation": 2})),
            Ok(Votes::AtMostPerOrganisation(2))
        );
        assert!(votes(&json!("per-company")).is_err());
    }
}
