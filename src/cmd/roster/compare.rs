//! `roster --compare`: each group held against the copies `copies` names,
//! as a table (one row per copy: who is active on each side, who only on
//! one, and the similarity CNCF staff compute, |A ∩ B| / |A ∪ B| of the
//! active logins after the emeritus filter), then every difference with
//! its places; or the same as JSON. The differences are the C410 warnings
//! a build gives, printed on stderr as well.

use std::io::Write;

use serde::Serialize;

use super::RosterFormat;
use crate::config::Settings;
use crate::data::Data;
use crate::diagnostic::{Code, Diagnostic};
use crate::people::People;
use crate::people::copies::{Comparison, shown_place};
use crate::report::MessageFormat;

/// Exit codes as `roster`'s: 0 compared (differences are warnings), 1 a
/// copy could not be read, 2 nothing to compare or no output.
pub fn run(
    settings: &Settings,
    data: &Data,
    people: &People,
    format: RosterFormat,
    color: bool,
) -> u8 {
    let mut stderr = std::io::stderr().lock();
    let root = settings.root.as_path();
    if settings.copies.is_empty() {
        let why = Diagnostic::error(
            Code::MissingData,
            "`roster --compare` needs `copies` in [preprocessor.community]",
        )
        .at_path("book.toml")
        .with_help("copies = { maintainers = [\"../.project/maintainers.yaml\", \"../OWNERS_ALIASES#approvers\"] }");
        let _ = super::print(&mut stderr, &[why], root, MessageFormat::Human, color);
        return 2;
    }
    if !matches!(format, RosterFormat::Human | RosterFormat::Json) {
        let why = Diagnostic::error(
            Code::InvalidSetting,
            "`roster --compare` writes a table (the default) or `--format json`",
        )
        .with_help("leave out --format, or write --format json");
        let _ = super::print(&mut stderr, &[why], root, MessageFormat::Human, color);
        return 2;
    }
    let (comparisons, diagnostics) =
        crate::people::copies::compare(settings, people, data.yaml_files());
    let _ = super::print(&mut stderr, &diagnostics, root, MessageFormat::Human, color);
    let text = match format {
        RosterFormat::Json => match serde_json::to_string_pretty(&json(&comparisons)) {
            Ok(text) => text + "\n",
            Err(_) => return 2,
        },
        _ => human(&comparisons),
    };
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .is_err()
    {
        return 2;
    }
    let failed = diagnostics
        .iter()
        .any(|d| d.severity == crate::diagnostic::Severity::Error);
    u8::from(failed)
}

/// The similarity as a whole percentage, rounded down (so that 100% means
/// the copies agree).
fn percent(comparison: &Comparison) -> u32 {
    (comparison.similarity() * 100.0).floor() as u32
}

/// The table and the differences, for people.
pub fn human(comparisons: &[Comparison]) -> String {
    let mut rows: Vec<[String; 7]> = vec![[
        "group".into(),
        "copy".into(),
        "format".into(),
        "active".into(),
        "only in group".into(),
        "only in copy".into(),
        "similarity".into(),
    ]];
    for c in comparisons {
        let only = |in_group: bool| {
            (c.differences.iter())
                .filter(|d| d.active_in_group == in_group)
                .count()
        };
        rows.push([
            c.group.clone(),
            match &c.selected {
                Some(id) if !c.copy.contains('#') => format!("{} ({id})", c.copy),
                _ => c.copy.clone(),
            },
            c.format.to_string(),
            format!("{}/{}", c.active_group, c.active_copy),
            only(true).to_string(),
            only(false).to_string(),
            format!("{}%", percent(c)),
        ]);
    }
    let widths: Vec<usize> = (0..7)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in &rows {
        let cells: Vec<String> = (row.iter().zip(&widths))
            .map(|(cell, width)| format!("{cell:<width$}"))
            .collect();
        out.push_str(&crate::report::shown_line(cells.join("  ").trim_end()));
        out.push('\n');
    }
    out.push_str("active: the group's active logins / the copy's; similarity: |A ∩ B| / |A ∪ B| of active logins, compared case-insensitively, after emeritus filter\n");
    for c in comparisons.iter().filter(|c| !c.differences.is_empty()) {
        out.push_str(&format!("\n{} and {}:\n", c.group, c.copy));
        for d in &c.differences {
            let side = match d.active_in_group {
                true => "only in the group",
                false => "only in the copy",
            };
            let other = match &d.former_status {
                Some(status) => format!("{status} on the other side"),
                None => "missing on the other side".to_string(),
            };
            let here = d.active_at.as_ref().map(shown_place).unwrap_or_default();
            let there = d.other_at.as_ref().map(shown_place).unwrap_or_default();
            let line = format!(
                "  @{}: {side} ({other}); active at {here}; other side {there}",
                d.name
            );
            out.push_str(&crate::report::shown_line(&line));
            out.push('\n');
        }
    }
    out
}

#[derive(Serialize)]
struct ComparisonJson<'a> {
    group: &'a str,
    copy: &'a str,
    format: &'a str,
    /// The copy's team, alias or group compared; null for the whole file.
    compared: Option<&'a str>,
    active_in_group: usize,
    active_in_copy: usize,
    active_in_both: usize,
    /// |A ∩ B| / |A ∪ B|, from 0 to 1.
    similarity: f64,
    /// The same, as a whole percentage rounded down.
    similarity_percent: u32,
    differences: Vec<DifferenceJson<'a>>,
}

#[derive(Serialize)]
struct DifferenceJson<'a> {
    login: &'a str,
    /// `group` or `copy`: the side the person is active on.
    active_in: &'static str,
    active_at: Option<String>,
    /// `missing`, or the status on the other side (`emeritus`).
    other_side: &'a str,
    other_at: Option<String>,
}

fn json(comparisons: &[Comparison]) -> Vec<ComparisonJson<'_>> {
    (comparisons.iter())
        .map(|c| ComparisonJson {
            group: &c.group,
            copy: &c.copy,
            format: c.format,
            compared: c.selected.as_deref(),
            active_in_group: c.active_group,
            active_in_copy: c.active_copy,
            active_in_both: c.common,
            similarity: (c.similarity() * 10_000.0).round() / 10_000.0,
            similarity_percent: percent(c),
            differences: (c.differences.iter())
                .map(|d| DifferenceJson {
                    login: &d.name,
                    active_in: if d.active_in_group { "group" } else { "copy" },
                    active_at: d.active_at.as_ref().map(shown_place),
                    other_side: d.former_status.as_deref().unwrap_or("missing"),
                    other_at: d.other_at.as_ref().map(shown_place),
                })
                .collect(),
        })
        .collect()
}
