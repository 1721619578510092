//! The settings of the activity check: `check-activity` (how long an
//! active maintainer may go without a commit) and `activity-max-commits`
//! (how far back the history is read at most).

use std::fmt;

use serde_json::Value;

use super::{Problem, Settings};
use crate::date::Day;
use crate::diagnostic::did_you_mean;

/// A length of time: `12 months`, `90 days`, `6 weeks`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// How many units.
    pub count: u32,
    /// Of what.
    pub unit: Unit,
}

/// The unit of a [`Window`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Days.
    Days,
    /// Weeks of seven days.
    Weeks,
    /// Calendar months.
    Months,
}

/// The longest window: a hundred years, in any unit.
const MAX_DAYS: u64 = 36_525;

const UNITS: [(&str, &str, Unit); 3] = [
    ("day", "days", Unit::Days),
    ("week", "weeks", Unit::Weeks),
    ("month", "months", Unit::Months),
];

impl Window {
    /// The first day inside the window that ends `today`: a commit on this
    /// day or later is recent enough.
    pub fn cutoff(self, today: Day) -> Day {
        match self.unit {
            Unit::Days => today.minus_days(i64::from(self.count)),
            Unit::Weeks => today.minus_days(7 * i64::from(self.count)),
            Unit::Months => today.minus_months(self.count),
        }
    }

    /// The day this long after `start` (a term that began then ends).
    pub fn after(self, start: Day) -> Day {
        match self.unit {
            Unit::Days => start.plus_days(i64::from(self.count)),
            Unit::Weeks => start.plus_days(7 * i64::from(self.count)),
            Unit::Months => start.plus_months(self.count),
        }
    }

    /// `"12 months"`, as `check-activity` takes it.
    fn parse(text: &str) -> Result<Window, Problem> {
        let example = "e.g. \"12 months\", \"6 weeks\" or \"90 days\"";
        let mut words = text.split_whitespace();
        let (number, unit) = match (words.next(), words.next(), words.next()) {
            (Some(number), Some(unit), None) => (number, unit),
            (Some(number), None, None) if number.bytes().all(|b| b.is_ascii_digit()) => {
                return Err(Problem::value(
                    format!(
                        "must name its unit: \"{number} days\", \"{number} weeks\" or \"{number} months\""
                    ),
                    None,
                ));
            }
            _ => {
                return Err(Problem::value(
                    format!(
                        "must be a number of days, weeks or months, {example}, or \"off\"; found \"{text}\""
                    ),
                    None,
                ));
            }
        };
        let count: u32 = number.parse().map_err(|_| {
            Problem::value(
                format!("must start with a whole number, {example}; found \"{text}\""),
                None,
            )
        })?;
        let unit = unit_named(unit, number)?;
        let days = u64::from(count)
            * match unit {
                Unit::Days => 1,
                Unit::Weeks => 7,
                Unit::Months => 31,
            };
        if count == 0 || days > MAX_DAYS + 31 {
            return Err(Problem::value(
                format!("must be at least one day and at most a hundred years; found \"{text}\""),
                None,
            ));
        }
        Ok(Window { count, unit })
    }
}

/// The unit `word` names (`month` or `months`, any case).
fn unit_named(word: &str, number: &str) -> Result<Unit, Problem> {
    let lower = word.to_lowercase();
    if let Some((_, _, unit)) = UNITS
        .iter()
        .find(|(one, many, _)| lower == *one || lower == *many)
    {
        return Ok(*unit);
    }
    if lower == "year" || lower == "years" {
        let months = number.parse::<u32>().map_or(12, |n| n.saturating_mul(12));
        return Err(Problem::value(
            format!("counts days, weeks or months, not years; found \"{number} {word}\""),
            Some(format!("\"{months} months\"")),
        ));
    }
    let names = UNITS.iter().flat_map(|(one, many, _)| [*one, *many]);
    let suggestion = did_you_mean(&lower, names).map(|unit| format!("\"{number} {unit}\""));
    Err(Problem::value(
        format!("has an unknown unit `{word}` (days, weeks or months)"),
        suggestion,
    ))
}

/// `12 months`, `1 week`.
impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (one, many, _) = UNITS
            .iter()
            .find(|(_, _, unit)| *unit == self.unit)
            .copied()
            .unwrap_or(UNITS[0]);
        let word = if self.count == 1 { one } else { many };
        write!(f, "{} {word}", self.count)
    }
}

impl Settings {
    /// `check-activity` and `activity-max-commits`.
    pub(super) fn apply_activity(&mut self, key: &str, value: &Value) -> Result<(), Problem> {
        if key == "check-activity" {
            return self.apply_check_activity(value);
        }
        match value.as_u64() {
            Some(n) if n > 0 => {
                self.activity_max_commits = Some(n);
                Ok(())
            }
            _ => Err(Problem::value(
                format!("must be a whole number of commits, at least 1, found {value}"),
                value
                    .as_str()
                    .and_then(|s| s.trim().parse::<u64>().ok())
                    .filter(|n| *n > 0)
                    .map(|n| n.to_string()),
            )),
        }
    }
}

impl Settings {
    /// `check-activity = "12 months"`, or the table
    /// `{ after = "12 months", groups = ["maintainers"] }`.
    fn apply_check_activity(&mut self, value: &Value) -> Result<(), Problem> {
        let (after, groups) = match value {
            Value::Object(table) => {
                if let Some(key) = table
                    .keys()
                    .find(|k| !["after", "groups"].contains(&k.as_str()))
                {
                    return Err(Problem::value(
                        format!("has an unknown key `{key}` (`after`, `groups`)"),
                        did_you_mean(key, ["after", "groups"]).map(str::to_string),
                    ));
                }
                let Some(after) = table.get("after") else {
                    return Err(Problem::value(
                        "needs `after`, the window: { after = \"12 months\", groups = [...] }",
                        None,
                    ));
                };
                (after, table.get("groups").map(group_ids).transpose()?)
            }
            value => (value, None),
        };
        let Some(text) = after.as_str() else {
            return Err(Problem::value(
                format!("must be a string such as \"12 months\", found {after}"),
                None,
            ));
        };
        // `"off"`, as the other checks take it: the default.
        self.check_activity = match text.trim() {
            "off" => None,
            text => Some(Window::parse(text)?),
        };
        self.activity_groups = groups;
        Ok(())
    }
}

/// `groups = ["maintainers", "approvers"]`: group ids, at least one.
fn group_ids(value: &Value) -> Result<Vec<String>, Problem> {
    let ids: Option<Vec<String>> = value.as_array().and_then(|items| {
        (items.iter())
            .map(|v| v.as_str().map(|s| s.trim().to_string()))
            .collect()
    });
    match ids {
        Some(ids) if !ids.is_empty() && ids.iter().all(|id| !id.is_empty()) => Ok(ids),
        _ => Err(Problem::value(
            format!(
                "`groups` must be a list of group ids, such as [\"maintainers\"], found {value}"
            ),
            None,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(text: &str) -> String {
        match Window::parse(text) {
            Ok(window) => format!("ok {window}"),
            Err(Problem::Value {
                message,
                suggestion,
                ..
            }) => format!("{message} / {}", suggestion.unwrap_or_default()),
            Err(other) => format!("{other:?}"),
        }
    }

    #[test]
    fn windows_parse_with_help() {
        assert_eq!(message("12 months"), "ok 12 months");
        assert_eq!(message(" 1  Month "), "ok 1 month");
        assert_eq!(message("6 weeks"), "ok 6 weeks");
        assert_eq!(message("90 days"), "ok 90 days");
        assert!(message("12 monts").ends_with("/ \"12 months\""));
        assert!(message("1 year").ends_with("/ \"12 months\""));
        assert!(message("365").contains("must name its unit"));
        assert!(message("0 days").contains("at least one day"));
        assert!(message("5000 months").contains("at most a hundred years"));
        assert!(message("twelve months").contains("whole number"));
        assert!(message("").contains("must be a number of days"));
        assert!(message("-3 days").contains("whole number"));
    }

    #[test]
    fn cutoffs() {
        let today = Day::parse("2026-03-31").expect("a day");
        let cutoff = |count, unit| Window { count, unit }.cutoff(today).to_string();
        assert_eq!(cutoff(1, Unit::Months), "2026-02-28");
        assert_eq!(cutoff(12, Unit::Months), "2025-03-31");
        assert_eq!(cutoff(2, Unit::Weeks), "2026-03-17");
        assert_eq!(cutoff(31, Unit::Days), "2026-02-28");
    }
}
