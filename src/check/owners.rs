//! The drift check: CODEOWNERS held against the roster. An owner who is in
//! no roster source, a team no group claims, an owner who no longer serves,
//! and a rule left with no active owner are reported at their place in
//! CODEOWNERS, once per distinct finding with the number of lines it is on.
//!
//! It runs whenever the book has both a roster and a CODEOWNERS file, and
//! costs nothing otherwise: neither file is read.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use crate::config::{Level, Settings};
use crate::data::Data;
use crate::data::LoadError;
use crate::data::codeowners::{CodeOwners, Owner, OwnerKind};
use crate::data::files::{CODEOWNERS_CANDIDATES, find_in_root_then_parent};
use crate::data::people::People;
use crate::diagnostic::{Code, Diagnostic, FollowOn, SourceFile, did_you_mean};

/// The drift check's findings, or nothing when it is off or the book lacks
/// a roster or a CODEOWNERS file.
pub fn check(settings: &Settings, data: &Data) -> Vec<Diagnostic> {
    if settings.check_owners == Level::Off || !has_roster(settings) || !has_codeowners(settings) {
        return Vec::new();
    }
    // With `ownership = "owners"`, `owners_files` checks the OWNERS tree.
    if settings.ownership == Some(crate::config::OwnershipSource::Owners) {
        return Vec::new();
    }
    let owners = match data.codeowners(settings) {
        Ok(owners) => owners,
        // A FIFO, a device or an unreadable CODEOWNERS: said, not skipped.
        Err(e) => return vec![not_checked(&e, settings.check_owners)],
    };
    let Ok(people) = data.people(settings) else {
        return Vec::new(); // the roster's own problems are reported by the data stage
    };
    let roster = Roster::of(&people, &settings.inactive_statuses);
    let findings = roster.findings(&owners);
    findings
        .into_iter()
        .map(|finding| finding.diagnostic(owners.file(), &roster, &people))
        .map(|d| match settings.check_owners {
            Level::Error => d,
            _ => d.as_warning(),
        })
        .collect()
}

/// Why the drift check did not run, once, whatever else failed the same
/// way (a `{{#codeowners}}` directive reading the same file).
pub(super) fn not_checked(e: &LoadError, level: Level) -> Diagnostic {
    let file = match &e.cause {
        FollowOn::DataFile { file, .. } => file.as_str(),
        FollowOn::PartialPage => "CODEOWNERS",
    };
    let error = Diagnostic::error(Code::MissingData, e.summary.clone())
        .at_path(file)
        .with_note("CODEOWNERS was not checked against the roster")
        .with_follow_on(e.cause.clone());
    match level {
        Level::Error => error,
        _ => error.as_warning(),
    }
}

pub(super) fn has_roster(settings: &Settings) -> bool {
    settings.people_configured
        || settings
            .in_root(std::path::Path::new(crate::config::DEFAULT_FILE))
            .is_file()
}

fn has_codeowners(settings: &Settings) -> bool {
    settings.codeowners.is_some()
        || find_in_root_then_parent(&settings.root, CODEOWNERS_CANDIDATES).is_ok()
}

/// What the roster says of logins and teams.
pub(super) struct Roster {
    /// Lowercased login: whether the person still serves somewhere.
    active: HashMap<String, bool>,
    /// Lowercased `org/team`s some group claims.
    teams: HashSet<String>,
}

impl Roster {
    pub(super) fn of(people: &People, inactive: &[String]) -> Roster {
        let mut memberships: Vec<(usize, usize)> = vec![(0, 0); people.people.len()];
        for group in &people.groups {
            for member in &group.members {
                let counts = &mut memberships[member.person];
                counts.0 += 1;
                if member.status.as_ref().is_some_and(|s| inactive.contains(s)) {
                    counts.1 += 1;
                }
            }
        }
        let active = people
            .people
            .iter()
            .zip(&memberships)
            .filter_map(|(person, &(all, gone))| {
                let login = person.github.as_ref()?.to_lowercase();
                Some((login, all == 0 || gone < all))
            })
            .collect();
        let teams = people
            .groups
            .iter()
            .flat_map(|g| g.github_teams.iter().cloned())
            .collect();
        Roster { active, teams }
    }

    /// The roster's login closest to `login`, among those that start with
    /// the same character and whose length is within three of it (a typo
    /// changes a few characters, rarely the first; comparing a stranger's
    /// login with every login of a large roster would cost more than the
    /// rest of the check).
    fn closest_login(&self, login: &str) -> Option<&str> {
        let len = login.chars().count();
        let first = login.chars().next();
        let near = self.active.keys().map(String::as_str).filter(|candidate| {
            candidate.chars().next() == first && candidate.chars().count().abs_diff(len) <= 3
        });
        did_you_mean(login, near)
    }

    /// Why `owner` is not an active owner, if it is not.
    pub(super) fn problem(&self, owner: &Owner) -> Option<Problem> {
        let name = owner.text.trim_start_matches('@').to_lowercase();
        match owner.kind {
            OwnerKind::Email => None,
            OwnerKind::Team => {
                (!self.teams.contains(&name)).then_some(Problem::UnclaimedTeam(name))
            }
            OwnerKind::User => match self.active.get(&name) {
                None => Some(Problem::UnknownLogin(name)),
                Some(false) => Some(Problem::Inactive(name)),
                Some(true) => None,
            },
        }
    }

    /// Every distinct finding, in file order of its first place.
    fn findings(&self, owners: &CodeOwners) -> Vec<Finding> {
        let mut findings: Vec<Finding> = Vec::new();
        let mut index: HashMap<Problem, usize> = HashMap::new();
        let mut note = |problem: Problem, range: Range<usize>, line: usize| {
            let at = *index.entry(problem.clone()).or_insert_with(|| {
                findings.push(Finding {
                    problem,
                    range,
                    lines: Vec::new(),
                });
                findings.len() - 1
            });
            if findings[at].lines.last() != Some(&line) {
                findings[at].lines.push(line);
            }
        };
        for rule in owners.rules() {
            let mut active = false;
            for owner in &rule.owners {
                match self.problem(owner) {
                    Some(problem) => note(problem, owner.range.clone(), rule.line),
                    None => active = true,
                }
            }
            if !active && !rule.owners.is_empty() {
                note(
                    Problem::NoActiveOwner,
                    rule.pattern_range.clone(),
                    rule.line,
                );
            }
        }
        findings
    }
}

/// What is wrong with an owner (or a rule), keyed by what it names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Problem {
    UnknownLogin(String),
    UnclaimedTeam(String),
    Inactive(String),
    /// One finding for every rule left without an active owner.
    NoActiveOwner,
}

/// One problem, where it is first, and every line it is on.
pub(super) struct Finding {
    pub(super) problem: Problem,
    pub(super) range: Range<usize>,
    pub(super) lines: Vec<usize>,
}

impl Finding {
    pub(super) fn diagnostic(
        &self,
        file: &Arc<SourceFile>,
        roster: &Roster,
        people: &People,
    ) -> Diagnostic {
        let roster_name = format!("`{}`", people.name);
        let error = match &self.problem {
            Problem::UnknownLogin(login) => Diagnostic::error(
                Code::OwnerNotInRoster,
                format!("code owner `@{login}` is in no roster source ({roster_name})"),
            )
            .with_label("not in the roster")
            .with_suggestion(roster.closest_login(login).map(|l| format!("@{l}"))),
            Problem::UnclaimedTeam(team) => Diagnostic::error(
                Code::UnclaimedTeam,
                format!("code owner `@{team}` is a team no group claims"),
            )
            .with_label("no group has this `github-team`")
            .with_help(claim_help(team, people)),
            Problem::Inactive(login) => Diagnostic::error(
                Code::InactiveOwner,
                format!(
                    "code owner `@{login}` no longer serves: every group lists them as inactive"
                ),
            )
            .with_label("inactive in the roster")
            .with_help("give these paths an active owner, or remove the owner"),
            Problem::NoActiveOwner => {
                Diagnostic::error(Code::NoActiveOwner, "these paths have no active code owner")
                    .with_label("every owner of this rule is unknown, unclaimed or inactive")
            }
        };
        let error = error.in_file(file, self.range.clone());
        match self.lines.len() {
            0 | 1 => error,
            n => error.with_note(format!("on {n} lines: {}", lines_list(&self.lines))),
        }
    }
}

/// Which group to give `github-team`, when one's id or title is close to
/// the team's name.
fn claim_help(team: &str, people: &People) -> String {
    let name = team.split_once('/').map_or(team, |(_, n)| n);
    let len = name.chars().count();
    let candidates = (people.groups.iter())
        .flat_map(|g| [g.id.as_str(), g.title.as_str()])
        .filter(|candidate| candidate.chars().count().abs_diff(len) <= 3);
    let close = did_you_mean(name, candidates)
        .and_then(|c| people.groups.iter().find(|g| g.id == c || g.title == c));
    match close {
        Some(group) => format!(
            "if it is group `{}`, give it `github-team = \"{team}\"`",
            group.id
        ),
        None => format!("give the group it is `github-team = \"{team}\"`"),
    }
}

/// `3, 7, 12` (at most ten, then "and N more").
fn lines_list(lines: &[usize]) -> String {
    let shown: Vec<String> = lines.iter().take(10).map(usize::to_string).collect();
    match lines.len().saturating_sub(10) {
        0 => shown.join(", "),
        more => format!("{}, and {more} more", shown.join(", ")),
    }
}
