//! The drift check: CODEOWNERS held against the roster. An owner who is in
//! no roster source, a team no group claims, an owner who no longer serves,
//! and a rule left with no active owner are reported at their place in
//! CODEOWNERS, once per distinct finding with the number of lines it is on.
//!
//! It runs whenever the book has both a roster and a CODEOWNERS file, and
//! costs nothing otherwise: neither file is read.

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use crate::config::{Level, Settings};
use crate::data::Data;
use crate::diagnostic::{Code, Diagnostic, FollowOn, SourceFile, Suggestions, did_you_mean};
use crate::files::LoadError;
use crate::files::find_in_root_then_parent;
use crate::ownership::codeowners::CODEOWNERS_CANDIDATES;
use crate::ownership::codeowners::{CodeOwners, Owner, OwnerKind};
use crate::people::People;

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
    let roster = Roster::of(&people);
    let (findings, follow_ons) = roster.findings(&owners);
    let mut out: Vec<Diagnostic> = (findings.into_iter())
        .map(|finding| finding.diagnostic(owners.file(), &roster, &people))
        .collect();
    out.extend(follow_on_note(
        owners.file(),
        &follow_ons,
        "CODEOWNERS rule",
        follow_ons.len(),
    ));
    out.into_iter()
        .map(|d| settings.check_owners.severity_of(d))
        .collect()
}

/// One note for the rules (`what`: "CODEOWNERS rule") that have no owner
/// left but the unknown or unclaimed ones reported above: follow-ons,
/// counted, not repeated. `rules` are those in `file`, `count` all.
pub(super) fn follow_on_note(
    file: &Arc<SourceFile>,
    rules: &[(usize, Range<usize>)],
    what: &str,
    count: usize,
) -> Option<Diagnostic> {
    let (_, first) = rules.first()?;
    let lines: Vec<usize> = rules.iter().map(|(line, _)| *line).collect();
    let message = match count {
        1 => format!("1 {what} is owned only by the owners reported above"),
        n => format!("{n} {what}s are owned only by the owners reported above"),
    };
    let note = Diagnostic::note(Code::NoActiveOwner, message)
        .in_file(file, first.clone())
        .with_label("no other owner");
    Some(match lines.len() {
        1 => note,
        n => note.with_note(format!("on {n} lines: {}", lines_list(&lines))),
    })
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
    /// Every lowercased login, in roster order: what a stranger's login is
    /// compared with.
    logins: Vec<String>,
    /// The index of `logins`, made for the first stranger.
    suggestions: OnceCell<Suggestions>,
}

impl Roster {
    pub(super) fn of(people: &People) -> Roster {
        let logins: Vec<String> = (people.people.iter())
            .filter_map(|person| Some(person.github.as_ref()?.to_lowercase()))
            .collect();
        let active = (people.people.iter().enumerate())
            .filter_map(|(index, person)| {
                let login = person.github.as_ref()?.to_lowercase();
                Some((login, people.standing(index).serves()))
            })
            .collect();
        let teams = people
            .groups
            .iter()
            .flat_map(|g| g.github_teams.iter().cloned())
            .collect();
        Roster {
            active,
            teams,
            logins,
            suggestions: OnceCell::new(),
        }
    }

    /// The roster's login closest to `login`. The logins are indexed once,
    /// for the first stranger, so that each distinct stranger costs a
    /// bounded number of comparisons however large the roster (each is
    /// asked about once: a finding is made per distinct login).
    fn closest_login(&self, login: &str) -> Option<&str> {
        let index = (self.suggestions)
            .get_or_init(|| Suggestions::new(self.logins.iter().map(String::as_str)));
        let closest = index.closest(login)?;
        self.logins.get(closest).map(String::as_str)
    }

    /// Why `owner` is not an active owner, if it is not.
    pub(super) fn problem(&self, owner: &Owner) -> Option<Problem> {
        let name = owner.text.trim_start_matches('@').to_lowercase();
        match owner.kind {
            OwnerKind::Email | OwnerKind::Role => None,
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

    /// Every distinct finding, in file order of its first place; and the
    /// rules whose only owners are unknown or unclaimed ones (reported as
    /// such: a rule's lack of an active owner follows from them).
    fn findings(&self, owners: &CodeOwners) -> (Vec<Finding>, Vec<(usize, Range<usize>)>) {
        let mut found = Findings::default();
        let mut follow_ons = Vec::new();
        for rule in owners.rules() {
            let (mut active, mut reported) = (false, false);
            for owner in &rule.owners {
                match self.problem(owner) {
                    Some(problem) => {
                        reported |= !matches!(problem, Problem::Inactive(_));
                        let written = owner.text.trim_start_matches('@');
                        found.note(problem, written, owner.range.clone(), rule.line);
                    }
                    None => active = true,
                }
            }
            match (active || rule.owners.is_empty(), reported) {
                (true, _) => {}
                // Every owner is known to have left: the paths are orphaned.
                (false, false) => {
                    let range = rule.pattern_range.clone();
                    found.note(Problem::NoActiveOwner, "", range, rule.line);
                }
                (false, true) => follow_ons.push((rule.line, rule.pattern_range.clone())),
            }
        }
        (found.findings, follow_ons)
    }
}

/// Findings being collected: one per problem, with all its places.
#[derive(Default)]
struct Findings {
    findings: Vec<Finding>,
    index: HashMap<Problem, usize>,
}

impl Findings {
    /// Adds `problem` at `range` on `line` (once per line), spelt
    /// `written` where first seen.
    fn note(&mut self, problem: Problem, written: &str, range: Range<usize>, line: usize) {
        let at = match self.index.get(&problem) {
            Some(&at) => at,
            None => {
                self.index.insert(problem.clone(), self.findings.len());
                self.findings.push(Finding {
                    problem,
                    written: written.to_string(),
                    places: Vec::new(),
                });
                self.findings.len() - 1
            }
        };
        let places = &mut self.findings[at].places;
        if places.last().map(|(l, _)| *l) != Some(line) {
            places.push((line, range));
        }
    }
}

/// What is wrong with an owner (or a rule), keyed by what it names
/// (logins and teams in lower case: GitHub compares them so).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Problem {
    UnknownLogin(String),
    UnclaimedTeam(String),
    Inactive(String),
    /// One finding for every rule whose owners have all left.
    NoActiveOwner,
}

/// One problem, as first written, and every line it is on with its place
/// there.
pub(super) struct Finding {
    pub(super) problem: Problem,
    /// The owner as the file first writes it (without `@`).
    pub(super) written: String,
    /// Each line it is on, with its place there.
    pub(super) places: Vec<(usize, Range<usize>)>,
}

impl Finding {
    pub(super) fn diagnostic(
        &self,
        file: &Arc<SourceFile>,
        roster: &Roster,
        people: &People,
    ) -> Diagnostic {
        let roster_name = format!("`{}`", people.name);
        let written = &self.written;
        let error = match &self.problem {
            Problem::UnknownLogin(login) => Diagnostic::error(
                Code::OwnerNotInRoster,
                format!("code owner `@{written}` is in no roster source ({roster_name})"),
            )
            .with_label("not in the roster")
            .with_suggestion(roster.closest_login(login).map(|l| format!("@{l}"))),
            Problem::UnclaimedTeam(team) => unclaimed_team(written, team, roster, people),
            Problem::Inactive(_) => Diagnostic::error(
                Code::InactiveOwner,
                format!(
                    "code owner `@{written}` no longer serves: every group lists them as inactive"
                ),
            )
            .with_label("inactive in the roster")
            .with_help("give these paths an active owner, or remove the owner"),
            Problem::NoActiveOwner => {
                Diagnostic::error(Code::NoActiveOwner, "these paths have no active code owner")
                    .with_label("every owner of this rule has left")
            }
        };
        let (first, more) = match self.places.split_first() {
            Some(((_, range), more)) => (range.clone(), more),
            None => (0..0, &[][..]),
        };
        let error = error
            .in_file(file, first)
            .also_at(more.iter().map(|(_, r)| r.clone()).collect());
        let lines: Vec<usize> = self.places.iter().map(|(l, _)| *l).collect();
        match lines.len() {
            0 | 1 => error,
            n => error.with_note(format!("on {n} lines: {}", lines_list(&lines))),
        }
    }
}

/// A team no group claims: the closest team a group does claim (a typo in
/// CODEOWNERS), else which group to give the team.
fn unclaimed_team(written: &str, team: &str, roster: &Roster, people: &People) -> Diagnostic {
    let error = Diagnostic::error(
        Code::UnclaimedTeam,
        format!("code owner `@{written}` is a team no group claims"),
    )
    .with_label("no group has this `github-team`");
    // A typo is in the team's name: compare names within the same org
    // (`acme/docs` is not a misspelt `acme/core`).
    let (org, name) = team.split_once('/').unwrap_or(("", team));
    let same_org = (roster.teams.iter()).filter_map(|t| t.strip_prefix(org)?.strip_prefix('/'));
    let claimed = did_you_mean(name, same_org).map(|n| format!("{org}/{n}"));
    match claimed.and_then(|t| people.group_of_team(&t).map(|g| (t, g))) {
        Some((claimed, group)) => error
            .with_suggestion(Some(format!("@{claimed}")))
            .with_note(format!("group `{}` claims `@{claimed}`", group.id)),
        None => error.with_help(claim_help(team, people)),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// 4,000 strangers, each a typo of one of 8,000 logins, on 8,000
    /// lines: each distinct stranger is compared with a bounded number of
    /// logins (comparing with all: 8,000 each), and gets the closest.
    #[test]
    fn strangers_cost_a_bounded_number_of_comparisons_each() {
        let mut toml = String::new();
        for i in 0..8_000 {
            toml.push_str(&format!("[people.user{i:05}]\nname = \"U {i}\"\n"));
        }
        let people = crate::people::roster::parse_native(&toml, false).expect("valid roster");
        let lines: String = (0..8_000)
            .map(|i| format!("/m{i}/ @usex{:05}\n", i % 4_000 * 2))
            .collect();
        let file = Arc::new(SourceFile::new("CODEOWNERS".into(), lines));
        let (owners, problems) = CodeOwners::parse(file);
        assert!(problems.is_empty(), "{problems:?}");
        let roster = Roster::of(&people);
        let (findings, _) = roster.findings(&owners);
        let unknown = |f: &&Finding| matches!(f.problem, Problem::UnknownLogin(_));
        assert_eq!(findings.iter().filter(unknown).count(), 4_000);
        for finding in findings.iter().filter(unknown) {
            let diagnostic = finding.diagnostic(owners.file(), &roster, &people);
            let Problem::UnknownLogin(login) = &finding.problem else {
                unreachable!()
            };
            let help = format!("did you mean `@user{}`?", &login[4..]);
            assert_eq!(diagnostic.help, [help]);
        }
        let scored = roster.suggestions.get().map_or(0, Suggestions::scored);
        assert!(scored <= 4_000 * 400, "scored {scored}");
    }
}
