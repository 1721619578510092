//! rust-lang/team's folder: `people/LOGIN.toml` (`name`, `github`,
//! `email`) and one group per `teams/NAME.toml`: id `name`, title and
//! description from `[website]`, parent `subteam-of`; `leads` get the role
//! `lead`, `alumni` the status `alumni`; each `[[github]]` entry makes the
//! group the GitHub team `ORG/TEAM-NAME` of each of its `orgs`.
//!
//! About a thousand small files: they are read and parsed on both cores.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{SourceGroup, SourceRoster, check_login_at, group, person_of_login};
use crate::diagnostic::{Code, Diagnostic, Place, SourceFile};
use crate::files::tree::{self, Entry, Node, NodeKind};
use crate::people::{Member, Person};

/// Reads the folder at `path` (shown as `display`).
pub(super) fn read(path: &Path, display: &str) -> Result<SourceRoster, Vec<Diagnostic>> {
    let (people_files, mut warnings) = toml_files(path, "people", display);
    let (team_files, team_warnings) = toml_files(path, "teams", display);
    warnings.extend(team_warnings);
    let shown = |file: &PathBuf| {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let folder = file
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        format!("{}/{folder}/{name}", display.trim_end_matches('/'))
    };
    let parsed_people = parse_all(&people_files, &shown);
    let parsed_teams = parse_all(&team_files, &shown);
    let mut errors = Vec::new();
    let mut people = Vec::new();
    let mut by_login: HashMap<String, usize> = HashMap::new();
    for parsed in parsed_people {
        match parsed.and_then(|(file, root)| person(&file, &root)) {
            Ok(person) => {
                if let Some(login) = &person.github {
                    by_login.insert(login.to_lowercase(), people.len());
                }
                people.push(person);
            }
            Err(found) => errors.extend(found),
        }
    }
    let mut teams = Vec::new();
    let mut files = Vec::new();
    for parsed in parsed_teams {
        match parsed {
            Ok((file, root)) => {
                match team(&file, &root, &by_login) {
                    Ok(team) => teams.push(team),
                    Err(found) => errors.extend(found),
                }
                files.push(file);
            }
            Err(found) => errors.extend(found),
        }
    }
    let groups = link_parents(teams, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(SourceRoster {
        files,
        people,
        groups,
        warnings,
    })
}

/// The `*.toml` files directly in `folder` (`path/people`, shown as
/// `shown/people`), sorted by name, and a warning for each that is not
/// read: a folder, a FIFO or device, a symbolic link that loops or leads
/// out of `path` (it would read any file the build can).
fn toml_files(path: &Path, folder: &str, shown: &str) -> (Vec<PathBuf>, Vec<Diagnostic>) {
    let inside = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let mut files = Vec::new();
    let mut warnings = Vec::new();
    let entries = std::fs::read_dir(path.join(folder)).into_iter().flatten();
    for entry in entries.filter_map(Result::ok) {
        let file = entry.path();
        if file.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        match skipped_because(&entry, &file, &inside) {
            None => files.push(file),
            Some(why) => {
                let name = entry.file_name().to_string_lossy().into_owned();
                let display = format!("{}/{folder}/{name}", shown.trim_end_matches('/'));
                let warning = Diagnostic::warning(
                    Code::UnreadableFile,
                    format!("{display} is skipped: {why}"),
                )
                .at_path(display);
                warnings.push(warning);
            }
        }
    }
    files.sort();
    warnings.sort_by(|a, b| a.message.cmp(&b.message));
    (files, warnings)
}

/// Why `file` (the folder's `entry`) is not read, if it is not: only
/// regular files inside the folder `inside` are. The entry's own type
/// settles a regular file without a system call (hundreds of people files
/// cost a `canonicalize` each, seven `readlink`s, when every one was
/// resolved); only a symbolic link is followed to see where it leads.
fn skipped_because(entry: &std::fs::DirEntry, file: &Path, inside: &Path) -> Option<&'static str> {
    match entry.file_type() {
        Ok(kind) if kind.is_file() => return None,
        Ok(kind) if kind.is_dir() => return Some("a folder, not a file"),
        Ok(kind) if !kind.is_symlink() => {
            return Some("not a regular file (a FIFO, device or socket is never read)");
        }
        Ok(_) => {}
        Err(_) => return Some("it cannot be read"),
    }
    let Ok(target) = file.canonicalize() else {
        return Some("a symbolic link that leads nowhere or loops");
    };
    if !target.starts_with(inside) {
        return Some("a symbolic link out of the folder, which is never followed");
    }
    match std::fs::metadata(&target) {
        Ok(m) if m.is_file() => None,
        Ok(m) if m.is_dir() => Some("a folder, not a file"),
        Ok(_) => Some("not a regular file (a FIFO, device or socket is never read)"),
        Err(_) => Some("it cannot be read"),
    }
}

type Parsed = Result<(Arc<SourceFile>, Node), Vec<Diagnostic>>;

/// Every file of `files` read and parsed, in order, on all cores.
fn parse_all(files: &[PathBuf], shown: &(dyn Fn(&PathBuf) -> String + Sync)) -> Vec<Parsed> {
    let indices: Vec<usize> = (0..files.len()).collect();
    // Each file costs a read and a parse: weighed like 4 KiB of work, so
    // that a roster of hundreds of files is spread over the cores.
    crate::parallel::map(
        &indices,
        |_| 4096,
        |i| tree::read(&files[i], &shown(&files[i])),
    )
    .into_iter()
    .map(|(_, parsed)| parsed)
    .collect()
}

fn entries(node: &Node) -> &[Entry] {
    match &node.kind {
        NodeKind::Table(entries) => entries,
        _ => &[],
    }
}

fn get<'n>(node: &'n Node, key: &str) -> Option<&'n Node> {
    entries(node)
        .iter()
        .find(|e| e.key == key)
        .map(|e| &e.value)
}

fn text(node: Option<&Node>) -> Option<String> {
    match &node?.kind {
        NodeKind::Str(s) => Some(s.clone()),
        _ => None,
    }
}

/// One `people/LOGIN.toml`.
fn person(file: &Arc<SourceFile>, root: &Node) -> Result<Person, Vec<Diagnostic>> {
    let Some(login) = text(get(root, "github")) else {
        return Err(vec![
            Diagnostic::error(
                Code::InvalidData,
                format!("{} has no `github` login", file.name),
            )
            .in_file(file, 0..0),
        ]);
    };
    let at = Place::new(file, get(root, "github").map_or(0..0, |n| n.span.clone()));
    check_login_at(&login, &at).map_err(|e| vec![e])?;
    let mut person = person_of_login(&login, &at);
    if let Some(name) = text(get(root, "name")).filter(|n| !n.trim().is_empty()) {
        person.name = name;
    }
    person.email = text(get(root, "email"));
    Ok(person)
}

/// A team before its parent is known.
struct Team {
    source: SourceGroup,
    parent: Option<(String, Place)>,
}

/// One `teams/NAME.toml`.
fn team(
    file: &Arc<SourceFile>,
    root: &Node,
    by_login: &HashMap<String, usize>,
) -> Result<Team, Vec<Diagnostic>> {
    let Some(name) = text(get(root, "name")) else {
        return Err(vec![
            Diagnostic::error(Code::InvalidData, format!("{} has no `name`", file.name))
                .in_file(file, 0..0),
        ]);
    };
    let website = get(root, "website");
    let title = text(website.and_then(|w| get(w, "name"))).unwrap_or_else(|| name.clone());
    let mut group = group(&name, &title);
    group.description = text(website.and_then(|w| get(w, "description")));
    group.github_teams = github_teams(root, &name);
    group.members = members(file, root, &name, by_login)?;
    let name_span = entries(root)
        .iter()
        .find(|e| e.key == "name")
        .map_or(0..0, |e| e.value.span.clone());
    let parent = get(root, "subteam-of")
        .and_then(|n| Some((text(Some(n))?, Place::new(file, n.span.clone()))));
    Ok(Team {
        source: SourceGroup {
            group,
            by_login: Vec::new(),
            at: Place::new(file, name_span),
        },
        parent,
    })
}

/// The team's `members` and `alumni` (with the status `alumni`), leads
/// with the role `lead`, each person once.
fn members(
    file: &Arc<SourceFile>,
    root: &Node,
    name: &str,
    by_login: &HashMap<String, usize>,
) -> Result<Vec<Member>, Vec<Diagnostic>> {
    let people = get(root, "people");
    let list = |key: &str| {
        people
            .and_then(|p| get(p, key))
            .map_or(&[][..], |n| match &n.kind {
                NodeKind::Array(items) => items.as_slice(),
                _ => &[],
            })
    };
    let leads: Vec<String> = list("leads")
        .iter()
        .filter_map(|n| text(Some(n)))
        .map(|l| l.to_lowercase())
        .collect();
    let mut members: Vec<Member> = Vec::new();
    let mut errors = Vec::new();
    for (key, status) in [("members", None), ("alumni", Some("alumni"))] {
        for node in list(key) {
            let (login, span) = match &node.kind {
                NodeKind::Str(login) => (login.clone(), node.span.clone()),
                NodeKind::Table(_) => match get(node, "github") {
                    Some(g) => (text(Some(g)).unwrap_or_default(), g.span.clone()),
                    None => continue,
                },
                _ => continue,
            };
            let Some(&person) = by_login.get(&login.to_lowercase()) else {
                errors.push(
                    Diagnostic::error(
                        Code::UndefinedReference,
                        format!("team `{name}` lists `{login}`, who has no file in people/"),
                    )
                    .in_file(file, span)
                    .with_label("unknown person"),
                );
                continue;
            };
            if members.iter().all(|m| m.person != person) {
                let role = leads
                    .contains(&login.to_lowercase())
                    .then(|| "lead".to_string());
                members.push(Member {
                    person,
                    status: status.map(str::to_string),
                    role,
                    fields: Vec::new(),
                    at: Some(Place::new(file, span)),
                });
            }
        }
    }
    if errors.is_empty() {
        Ok(members)
    } else {
        Err(errors)
    }
}

/// `ORG/TEAM` for each org of each `[[github]]` entry, lowercased.
fn github_teams(root: &Node, name: &str) -> Vec<String> {
    let Some(NodeKind::Array(entries)) = get(root, "github").map(|n| &n.kind) else {
        return Vec::new();
    };
    let mut teams = Vec::new();
    for entry in entries {
        let team = text(get(entry, "team-name")).unwrap_or_else(|| name.to_string());
        if let Some(NodeKind::Array(orgs)) = get(entry, "orgs").map(|n| &n.kind) {
            for org in orgs.iter().filter_map(|o| text(Some(o))) {
                teams.push(format!("{org}/{team}").to_lowercase());
            }
        }
    }
    teams
}

/// The groups, with `subteam-of` resolved to their parents.
fn link_parents(teams: Vec<Team>, errors: &mut Vec<Diagnostic>) -> Vec<SourceGroup> {
    let index: HashMap<String, usize> = teams
        .iter()
        .enumerate()
        .map(|(i, t)| (t.source.group.id.clone(), i))
        .collect();
    teams
        .into_iter()
        .map(|Team { mut source, parent }| {
            if let Some((name, at)) = parent {
                match index.get(&name) {
                    Some(&p) => source.group.parent = Some(p),
                    None => errors.push(
                        Diagnostic::error(
                            Code::UndefinedReference,
                            format!("`subteam-of` names `{name}`, which has no file in teams/"),
                        )
                        .at(&at),
                    ),
                }
            }
            source
        })
        .collect()
}
