//! Every copy agrees: a group of the roster held against the files that
//! copy it (`copies` in `book.toml`: `MAINTAINERS.md`, `OWNERS_ALIASES`,
//! CNCF's `.project/maintainers.yaml`). Each copy is read as a roster of
//! its own, and its standing judged by the book's `inactive-statuses`, as
//! the roster's is ([`People::judge_standing`]).
//!
//! A person is named by their GitHub login (else their handle), compared
//! case-insensitively. Who is active in the group and missing from a copy,
//! or former there (emeritus), is a difference; so is the other way round.
//! The similarity is CNCF staff's figure "after emeritus filter": |A ∩ B| /
//! |A ∪ B| of the active names of the group (A) and of the copy (B), 100%
//! when both are empty.

use std::collections::BTreeMap;

use crate::config::{CopySource, PeopleSource, Settings};
use crate::diagnostic::{Code, Diagnostic, Place};
use crate::files::tree::YamlFiles;
use crate::people::People;

/// One group held against one copy.
#[derive(Debug)]
pub struct Comparison {
    /// The group's id.
    pub group: String,
    /// The copy as `book.toml` spells it.
    pub copy: String,
    /// The copy's format name.
    pub format: &'static str,
    /// What of the copy was compared: a group id, or `None` for everyone.
    pub selected: Option<String>,
    /// Active names in the group and in the copy.
    pub active_group: usize,
    /// Active names in the copy.
    pub active_copy: usize,
    /// Active in both.
    pub common: usize,
    /// Every difference, group side first, each in name order.
    pub differences: Vec<Difference>,
}

impl Comparison {
    /// |A ∩ B| / |A ∪ B| of the active names, from 0 to 1.
    pub fn similarity(&self) -> f64 {
        let union = self.active_group + self.active_copy - self.common;
        match union {
            0 => 1.0,
            union => self.common as f64 / union as f64,
        }
    }
}

/// One person active on one side and not on the other.
#[derive(Debug)]
pub struct Difference {
    /// The login (or handle) as the active side writes it.
    pub name: String,
    /// Whether the person is active in the group (and not in the copy).
    pub active_in_group: bool,
    /// Where they are active.
    pub active_at: Option<Place>,
    /// On the other side: `Some(status)` when they are listed as former
    /// there, `None` when missing.
    pub former_status: Option<String>,
    /// Where the other side lists them, or its group (or file) when it
    /// does not.
    pub other_at: Option<Place>,
}

/// Who a list holds: active and former names (lowercase) with how each is
/// written and where.
#[derive(Default)]
struct Side {
    active: BTreeMap<String, (String, Option<Place>)>,
    former: BTreeMap<String, (String, Option<String>, Option<Place>)>,
    /// Where the group (or the file) is.
    at: Option<Place>,
}

/// The comparisons of every group's copies, and the diagnostics: the
/// copies' own problems, and a warning (C410) per difference.
pub fn compare(
    settings: &Settings,
    people: &People,
    yaml: &YamlFiles,
) -> (Vec<Comparison>, Vec<Diagnostic>) {
    let mut comparisons = Vec::new();
    let mut diagnostics = Vec::new();
    for group_copies in &settings.copies {
        let Some(index) = people
            .groups
            .iter()
            .position(|g| g.id == group_copies.group)
        else {
            let ids: Vec<&str> = people.group_ids().collect();
            let error = Diagnostic::warning(
                Code::UnknownGroup,
                format!(
                    "`copies` names the group `{}`, which the roster does not have",
                    group_copies.group
                ),
            )
            .at_path(people.name.clone())
            .with_suggestion(crate::diagnostic::did_you_mean(
                &group_copies.group,
                ids.iter().copied(),
            ));
            diagnostics.push(error);
            continue;
        };
        let ours = side_of_group(people, index);
        for copy in &group_copies.copies {
            match read_copy(settings, copy, yaml, &group_copies.group) {
                Ok((theirs, selected, mut warnings)) => {
                    diagnostics.append(&mut warnings);
                    let comparison =
                        compare_sides(&group_copies.group, copy, selected, &ours, &theirs);
                    diagnostics.extend(warnings_of(&comparison, people));
                    comparisons.push(comparison);
                }
                Err(mut errors) => diagnostics.append(&mut errors),
            }
        }
    }
    (comparisons, diagnostics)
}

/// The key a person is compared by, and how they are written.
fn name_of(people: &People, person: usize) -> (String, String) {
    let person = &people.people[person];
    let name = person
        .github
        .clone()
        .unwrap_or_else(|| person.handle.clone());
    (name.to_lowercase(), name)
}

/// The active and former members of `groups` of `people`.
fn side(people: &People, groups: &[usize], at: Option<Place>) -> Side {
    let mut side = Side {
        at,
        ..Side::default()
    };
    for &group in groups {
        for member in &people.groups[group].members {
            let (key, name) = name_of(people, member.person);
            let at = member
                .at
                .clone()
                .or_else(|| people.people[member.person].at.clone());
            if people.is_former(member.status.as_deref()) {
                side.former
                    .entry(key)
                    .or_insert((name, member.status.clone(), at));
            } else {
                side.active.entry(key).or_insert((name, at));
            }
        }
    }
    let active: Vec<String> = side.active.keys().cloned().collect();
    for key in active {
        side.former.remove(&key);
    }
    side
}

/// A group with its subgroups (a Markdown page's `## Emeritus` under
/// `# Maintainers`), each once: bounded by the number of groups.
pub fn with_subgroups(people: &People, index: usize) -> Vec<usize> {
    let mut groups = vec![index];
    let mut next = 0;
    while next < groups.len() && groups.len() <= people.groups.len() {
        let children = people.children(Some(groups[next])).map(|(i, _)| i);
        let new: Vec<usize> = children.filter(|i| !groups.contains(i)).collect();
        groups.extend(new);
        next += 1;
    }
    groups
}

/// The group's side: the active and former members of it and its
/// subgroups, and those former anywhere else in the file (emeritus in
/// another team) who are not active in it.
fn side_of_group(people: &People, index: usize) -> Side {
    let groups = with_subgroups(people, index);
    let mut side = side(people, &groups, people.groups[index].at.clone());
    let all: Vec<usize> = (0..people.groups.len()).collect();
    let everyone = self::side(people, &all, None);
    for (key, former) in everyone.former {
        if !side.active.contains_key(&key) {
            side.former.entry(key).or_insert(former);
        }
    }
    side
}

/// Reads `copy` as a roster and picks what of it is the copy.
fn read_copy(
    settings: &Settings,
    copy: &CopySource,
    yaml: &YamlFiles,
    group: &str,
) -> Result<(Side, Option<String>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let source = PeopleSource {
        path: copy.path.clone(),
        format: copy.format,
        // An OWNERS file's groups are `copy-approvers`, `copy-reviewers`.
        prefix: Some("copy".to_string()),
        section: None,
    };
    let (read, warnings) = super::roster::load_one(settings, &source, yaml);
    let people = read?;
    let file_at = Place::new(&people.file, 0..0);
    let wanted: Vec<String> = match &copy.name {
        Some(name) => vec![name.clone()],
        None => vec![
            group.to_string(),
            super::roster::cncf_maintainers::REQUIRED_TEAM.to_string(),
        ],
    };
    let found = wanted.iter().find_map(|name| {
        (people.groups.iter()).position(|g| g.id == *name || g.id.ends_with(&format!("-{name}")))
    });
    match (found, &copy.name) {
        (Some(index), _) => {
            let id = people.groups[index].id.clone();
            Ok((side_of_group(&people, index), Some(id), warnings))
        }
        (None, Some(name)) => {
            let ids: Vec<&str> = people.group_ids().collect();
            Err(vec![
                Diagnostic::warning(
                    Code::UnknownGroup,
                    format!(
                        "the copy `{}` of `{group}` has no team, alias or group `{name}` (it has: {})",
                        copy.spelled,
                        ids.join(", ")
                    ),
                )
                .at(&file_at)
                .with_suggestion(crate::diagnostic::did_you_mean(name, ids.iter().copied())),
            ])
        }
        (None, None) => {
            let all: Vec<usize> = (0..people.groups.len()).collect();
            Ok((side(&people, &all, Some(file_at)), None, warnings))
        }
    }
}

fn compare_sides(
    group: &str,
    copy: &CopySource,
    selected: Option<String>,
    ours: &Side,
    theirs: &Side,
) -> Comparison {
    let mut differences = Vec::new();
    for (active_in_group, one, other) in [(true, ours, theirs), (false, theirs, ours)] {
        for (key, (name, at)) in &one.active {
            if other.active.contains_key(key) {
                continue;
            }
            let (former_status, other_at) = match other.former.get(key) {
                Some((_, status, at)) => (status.clone(), at.clone().or_else(|| other.at.clone())),
                None => (None, other.at.clone()),
            };
            let former_status = match other.former.contains_key(key) {
                true => Some(former_status.unwrap_or_else(|| "former".to_string())),
                false => None,
            };
            differences.push(Difference {
                name: name.clone(),
                active_in_group,
                active_at: at.clone(),
                former_status,
                other_at,
            });
        }
    }
    let common = (ours.active.keys())
        .filter(|k| theirs.active.contains_key(*k))
        .count();
    Comparison {
        group: group.to_string(),
        copy: copy.spelled.clone(),
        format: copy.format.name(),
        selected,
        active_group: ours.active.len(),
        active_copy: theirs.active.len(),
        common,
        differences,
    }
}

/// The place without the line ending a Markdown entry's place holds (a
/// table row), so that the warning shows one line.
fn one_line(place: &Place) -> Place {
    let text = place.file.text.get(place.range.clone()).unwrap_or("");
    let kept = text.trim_end_matches(['\n', '\r']).len();
    Place::new(&place.file, place.range.start..place.range.start + kept)
}

/// `path:line:column` of a place.
pub fn shown_place(place: &Place) -> String {
    let line = place.line();
    let text = &place.file.text;
    let start = place.range.start.min(text.len());
    let line_start = text
        .get(..start)
        .unwrap_or("")
        .rfind('\n')
        .map_or(0, |at| at + 1);
    let column = text
        .get(line_start..start)
        .map_or(1, |t| t.chars().count() + 1);
    format!("{}:{line}:{column}", place.file.name)
}

/// The warning for each difference, at the side where the person is
/// active, with the other side's place in a note; and, when the other side
/// has a place, a note diagnostic there, so that every format (JSON,
/// SARIF, annotations) locates the difference in both files.
fn warnings_of(comparison: &Comparison, people: &People) -> Vec<Diagnostic> {
    let group = &comparison.group;
    let copy = &comparison.copy;
    (comparison.differences.iter())
        .flat_map(|d| {
            let (here, there) = match d.active_in_group {
                true => (format!("the group `{group}`"), format!("the copy `{copy}`")),
                false => (format!("the copy `{copy}`"), format!("the group `{group}`")),
            };
            let state = match &d.former_status {
                Some(status) => format!("{status} in {there}"),
                None => format!("missing from {there}"),
            };
            let mut warning = Diagnostic::warning(
                Code::CopiesDisagree,
                format!("@{} is active in {here} but {state}", d.name),
            )
            .with_label(format!("active here; {state}"));
            warning = match &d.active_at {
                Some(at) => warning.at(&one_line(at)),
                None => warning.at_path(people.name.clone()),
            };
            if let Some(at) = &d.other_at {
                let place = shown_place(at);
                warning = warning.with_note(match &d.former_status {
                    Some(status) => format!("{there} lists @{} as {status} at {place}", d.name),
                    None => format!("{there}, which does not list @{}, is at {place}", d.name),
                });
            }
            let warning = warning.with_help(format!(
                "make every copy agree: add, remove or mark @{} in one of them (`mdbook-community roster --compare` shows them side by side)",
                d.name
            ));
            let other = (d.other_at.as_ref()).map(|at| {
                let message = match &d.former_status {
                    Some(status) => format!("@{} is {status} here, and active in {here}", d.name),
                    None => format!("{there} does not list @{}, who is active in {here}", d.name),
                };
                Diagnostic::note(Code::CopiesDisagree, message).at(&one_line(at))
            });
            std::iter::once(warning).chain(other)
        })
        .collect()
}
