//! `roster --format cncf-maintainers`: the roster as CNCF's
//! `.project/maintainers.yaml`, which passes the rules of cncf/automation's
//! validator (`utilities/dot-project/maintainers.go`): one entry with a
//! `project_id`, the team `project-maintainers` (the active members of the
//! project group, non-empty), every other group with an active member as a
//! team of its id, and `emeritus`, everyone with a former membership who
//! is not a project maintainer. Handles are GitHub logins without `@`,
//! each once per team (compared case-insensitively). The validator of that
//! version has no `managed` field, and refuses unknown fields: none is
//! written.

use std::collections::HashSet;

use crate::diagnostic::{Code, Diagnostic};
use crate::people::People;
use crate::people::roster::cncf_maintainers::REQUIRED_TEAM;

/// What the file is written with.
#[derive(Debug, Clone, Default)]
pub struct CncfOptions {
    /// The group whose active members are `project-maintainers`: by
    /// default `maintainers`, else `project-maintainers`.
    pub project_group: Option<String>,
    /// `project_id` (the project's slug in `project.yaml`).
    pub project_id: String,
    /// `org`, when given.
    pub org: Option<String>,
}

/// The file, and warnings for the people it cannot hold (no GitHub login,
/// in no group).
pub fn write(
    people: &People,
    options: &CncfOptions,
) -> Result<(String, Vec<Diagnostic>), Diagnostic> {
    let project = project_group(people, options)?;
    let mut teams: Vec<(String, Vec<String>)> = Vec::new();
    let mut written: HashSet<usize> = HashSet::new();
    let login = |person: usize| people.people[person].github.clone();
    let team_of = |members: Vec<usize>, written: &mut HashSet<usize>| {
        let mut seen = HashSet::new();
        let mut logins = Vec::new();
        for person in members {
            written.insert(person);
            if let Some(login) = login(person)
                && seen.insert(login.to_lowercase())
            {
                logins.push(login);
            }
        }
        logins
    };
    let active = |groups: &[usize]| {
        (groups.iter().flat_map(|&g| &people.groups[g].members))
            .filter(|m| !people.is_former(m.status.as_deref()))
            .map(|m| m.person)
            .collect::<Vec<_>>()
    };
    let subgroups = crate::people::copies::with_subgroups(people, project);
    let maintainers = team_of(active(&subgroups), &mut written);
    if maintainers.is_empty() {
        return Err(empty_project(people, project));
    }
    teams.push((REQUIRED_TEAM.to_string(), maintainers));
    for (index, group) in people.groups.iter().enumerate() {
        if subgroups.contains(&index) || group.id == REQUIRED_TEAM || group.id == "emeritus" {
            continue;
        }
        let members = team_of(active(&[index]), &mut written);
        if !members.is_empty() {
            teams.push((group.id.clone(), members));
        }
    }
    let in_project: HashSet<String> = (teams[0].1.iter()).map(|l| l.to_lowercase()).collect();
    let former = (people.groups.iter())
        .flat_map(|g| &g.members)
        .filter(|m| people.is_former(m.status.as_deref()))
        .map(|m| m.person)
        .filter(|&p| login(p).is_none_or(|l| !in_project.contains(&l.to_lowercase())));
    let emeritus = team_of(former.collect(), &mut written);
    if !emeritus.is_empty() {
        teams.push(("emeritus".to_string(), emeritus));
    }
    let warnings = not_written(people, &written);
    Ok((yaml(people, options, &teams), warnings))
}

/// A warning for each person the file cannot hold: without a GitHub login,
/// or in no group written.
fn not_written(people: &People, written: &HashSet<usize>) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    for (index, person) in people.people.iter().enumerate() {
        let why = match (&person.github, written.contains(&index)) {
            (None, true) => "has no GitHub login",
            (_, false) => "is in no group",
            _ => continue,
        };
        let mut warning = Diagnostic::warning(
            Code::MissingData,
            format!("{} {why}: not in the CNCF maintainers file", person.name),
        );
        warning = match &person.at {
            Some(at) => warning.at(at),
            None => warning.at_path(people.name.clone()),
        };
        warnings.push(warning);
    }
    warnings
}

/// The error for a project group without an active member with a login.
fn empty_project(people: &People, project: usize) -> Diagnostic {
    let group = &people.groups[project];
    let error = Diagnostic::error(
        Code::MissingData,
        format!(
            "group `{}` has no active member with a GitHub login: `{REQUIRED_TEAM}` cannot be empty",
            group.id
        ),
    );
    let error = match &group.at {
        Some(at) => error.at(at),
        None => error.at_path(people.name.clone()),
    };
    error.with_help("name another group with `--project-group`")
}

/// The group `project-maintainers` is made of.
fn project_group(people: &People, options: &CncfOptions) -> Result<usize, Diagnostic> {
    let names: Vec<&str> = match &options.project_group {
        Some(name) => vec![name.as_str()],
        None => vec!["maintainers", REQUIRED_TEAM],
    };
    let found = names
        .iter()
        .find_map(|name| people.groups.iter().position(|g| g.id == *name));
    found.ok_or_else(|| {
        let ids: Vec<&str> = people.group_ids().collect();
        Diagnostic::error(
            Code::UnknownGroup,
            format!(
                "no group `{}` to write as `{REQUIRED_TEAM}` (groups: {})",
                names[0],
                ids.join(", ")
            ),
        )
        .at_path(people.name.clone())
        .with_suggestion(crate::diagnostic::did_you_mean(
            names[0],
            ids.iter().copied(),
        ))
        .with_help("name the group with `--project-group ID`")
    })
}

/// A YAML double-quoted scalar: JSON's string syntax, which YAML reads
/// the same.
fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_string())
}

fn yaml(people: &People, options: &CncfOptions, teams: &[(String, Vec<String>)]) -> String {
    let mut out = String::new();
    let sources = crate::report::shown_line(&people.name);
    out.push_str("# Generated by `mdbook-community roster --format cncf-maintainers`\n");
    out.push_str(&format!("# from `{sources}`: edit those, not this file.\n"));
    out.push_str("maintainers:\n");
    out.push_str(&format!(
        "  - project_id: {}\n",
        quoted(&options.project_id)
    ));
    if let Some(org) = &options.org {
        out.push_str(&format!("    org: {}\n", quoted(org)));
    }
    out.push_str("    teams:\n");
    for (name, members) in teams {
        out.push_str(&format!(
            "      - name: {}\n        members:\n",
            quoted(name)
        ));
        for login in members {
            out.push_str(&format!("          - {}\n", quoted(login)));
        }
    }
    out
}

/// The default `project_id`: the repository folder's name as a slug
/// (lowercase letters, digits and single hyphens).
pub fn slug_of(name: &str) -> String {
    let mut slug = String::new();
    for c in name.chars() {
        match c.to_ascii_lowercase() {
            c @ ('a'..='z' | '0'..='9') => slug.push(c),
            _ if !slug.is_empty() && !slug.ends_with('-') => slug.push('-'),
            _ => {}
        }
    }
    let slug = slug.trim_end_matches('-').to_string();
    if slug.is_empty() {
        "project".to_string()
    } else {
        slug
    }
}
