//! `mdbook-community roster [BOOK_DIR] [--format human|json|toml]`: the
//! merged roster a build of the book would read, with where each person
//! and group came from. `json` is a stable interface (see the guide's
//! "Start from your repository" chapter); `toml` is a `maintainers.toml`
//! that reads back as the same roster, for a project that converts once.

use std::io::Write;
use std::path::Path;

use serde::Serialize;
use toml_edit::{Array, DocumentMut, InlineTable, Item, Table};

use super::book::{LoadedBook, NotABook, cannot_run, print};
use crate::activity::{Activity, History};
use crate::data::Data;
use crate::diagnostic::{Code, Diagnostic, Place};
use crate::paths::repository_of;
use crate::people::{Member, People, Person};
use crate::report::MessageFormat;

pub mod cncf;
pub mod compare;

/// `--format`'s values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum RosterFormat {
    /// Groups and their members, for people.
    #[default]
    Human,
    /// The stable JSON shape.
    Json,
    /// A `maintainers.toml` holding the same roster.
    Toml,
    /// CNCF's `.project/maintainers.yaml` (see `roster/cncf.rs`).
    CncfMaintainers,
}

/// What `roster` is asked for besides the format.
#[derive(Debug, Clone, Default)]
pub struct RosterOptions {
    /// `--format`.
    pub format: RosterFormat,
    /// `--compare`: each group's copies side by side instead of the roster.
    pub compare: bool,
    /// For `cncf-maintainers`: `--project-group`, `--project-id`, `--org`.
    pub cncf: cncf::CncfOptions,
}

/// Exit codes: 0 read (warnings are printed), 1 the roster has errors,
/// 2 the command could not run.
pub fn run(book_dir: &Path, options: &RosterOptions, color: bool) -> u8 {
    let format = options.format;
    let mut stderr = std::io::stderr().lock();
    let book = match LoadedBook::load(book_dir) {
        Ok(book) => book,
        Err(NotABook(why)) => {
            let _ = print(&mut stderr, &[why], book_dir, MessageFormat::Human, color);
            return 2;
        }
    };
    let (settings, problems) = book.settings();
    if !problems.is_empty() {
        let _ = print(
            &mut stderr,
            &problems,
            book_dir,
            MessageFormat::Human,
            color,
        );
        return 2;
    }
    let data = Data::default();
    let people = data.people(&settings);
    let diagnostics = data.diagnostics();
    let _ = print(
        &mut stderr,
        &diagnostics,
        book_dir,
        MessageFormat::Human,
        color,
    );
    let people = match people {
        Ok(people) => people,
        Err(e) => {
            if e.diagnostics.is_empty() {
                let why = cannot_run(e.summary);
                let _ = print(&mut stderr, &[why], book_dir, MessageFormat::Human, color);
            }
            return 1;
        }
    };
    // Activity costs a walk of the history: the human and JSON formats
    // show it, and only in a repository.
    if options.compare {
        return compare::run(&settings, &data, &people, format, color);
    }
    if format == RosterFormat::CncfMaintainers {
        return write_cncf(&settings, &people, &options.cncf, color);
    }
    write_roster(
        &settings,
        &data,
        &people,
        &diagnostics,
        format,
        color,
        book_dir,
    )
}

/// The roster as `human`, `json` or `toml`, with the activity the first
/// two show.
fn write_roster(
    settings: &crate::config::Settings,
    data: &Data,
    people: &People,
    diagnostics: &[Diagnostic],
    format: RosterFormat,
    color: bool,
    book_dir: &Path,
) -> u8 {
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr().lock();
    let repository = repository_of(&settings.root).filter(|_| format != RosterFormat::Toml);
    let activity = repository.as_ref().map(|_| data.activity(settings, people));
    if let Some((why, repository)) = (activity.as_ref())
        .and_then(|a| a.history.cannot_judge())
        .zip(repository)
    {
        let note = Diagnostic::note(Code::ActivityNotJudged, why)
            .at_path(crate::paths::display(&repository.join(".git")))
            .with_note(match format {
                RosterFormat::Json => "`last_active` is null for everyone without a commit in it",
                _ => "`last active unknown` for everyone without a commit in it",
            });
        let _ = print(&mut stderr, &[note], book_dir, MessageFormat::Human, color);
    }
    let mut out = std::io::BufWriter::new(&mut stdout);
    let written = match format {
        RosterFormat::Human => {
            let mut text = human(people, activity.as_deref());
            text.push_str(&per_file(people, diagnostics));
            out.write_all(text.as_bytes())
        }
        RosterFormat::Json => serde_json::to_writer(&mut out, &json(people, activity.as_deref()))
            .map_err(std::io::Error::from)
            .and_then(|()| out.write_all(b"\n")),
        RosterFormat::Toml | RosterFormat::CncfMaintainers => {
            out.write_all(toml(people).to_string().as_bytes())
        }
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(_) => 2,
    }
}

/// `--format cncf-maintainers`: the file on stdout, what it cannot hold
/// on stderr.
fn write_cncf(
    settings: &crate::config::Settings,
    people: &People,
    options: &cncf::CncfOptions,
    color: bool,
) -> u8 {
    let mut options = options.clone();
    if options.project_id.is_empty() {
        let root = repository_of(&settings.root).unwrap_or_else(|| settings.root.clone());
        let name = std::path::absolute(&root).unwrap_or(root);
        let name = name.file_name().map(|n| n.to_string_lossy().into_owned());
        options.project_id = cncf::slug_of(&name.unwrap_or_default());
    }
    let book_dir = &settings.root;
    let mut stderr = std::io::stderr().lock();
    match cncf::write(people, &options) {
        Ok((text, warnings)) => {
            let _ = print(
                &mut stderr,
                &warnings,
                book_dir,
                MessageFormat::Human,
                color,
            );
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
            {
                Ok(()) => 0,
                Err(_) => 2,
            }
        }
        Err(error) => {
            let _ = print(&mut stderr, &[error], book_dir, MessageFormat::Human, color);
            1
        }
    }
}

/// `path:line`.
fn source(at: &Option<Place>) -> Option<String> {
    let place = at.as_ref()?;
    Some(format!("{}:{}", place.file.name, place.line()))
}

/// The stable JSON shape: `{"people": [...], "groups": [...]}`, written as
/// it is serialized (no tree of values for a roster of many people).
#[derive(Serialize)]
pub struct RosterJson<'a> {
    people: Vec<PersonJson<'a>>,
    groups: Vec<GroupJson<'a>>,
}

#[derive(Serialize)]
struct PersonJson<'a> {
    handle: &'a str,
    name: &'a str,
    github: Option<&'a str>,
    email: Option<&'a str>,
    affiliation: Option<&'a str>,
    url: Option<&'a str>,
    fields: Fields<'a>,
    source: Option<String>,
    /// The day of the last counted commit, `YYYY-MM-DD`.
    last_active: Option<String>,
    /// How that commit was matched: `email`, `noreply`, `mailmap`,
    /// `merged-pr`, `co-author` or `name`.
    activity_match: Option<&'static str>,
    /// Each identity found to be theirs, newest first.
    activity_evidence: Vec<EvidenceJson<'a>>,
    /// Why an identity that could be theirs was not counted (shared,
    /// ambiguous); null when there is nothing to say.
    activity_ambiguous: Option<&'a str>,
}

#[derive(Serialize)]
struct EvidenceJson<'a> {
    /// The address, name, or `#N` for a merged pull request.
    identity: &'a str,
    /// How it was found to be theirs.
    how: &'static str,
    /// Its newest commit's day and hash.
    last_active: String,
    commit: &'a str,
    /// What else there is to say (the mapped address, why an address is
    /// a login's).
    detail: Option<&'a str>,
}

#[derive(Serialize)]
struct GroupJson<'a> {
    id: &'a str,
    title: &'a str,
    parent: Option<&'a str>,
    #[serde(rename = "github-team")]
    github_team: &'a [String],
    source: Option<String>,
    members: Vec<MemberJson<'a>>,
}

#[derive(Serialize)]
struct MemberJson<'a> {
    handle: &'a str,
    status: Option<&'a str>,
    role: Option<&'a str>,
    #[serde(skip_serializing_if = "Fields::is_empty")]
    fields: Fields<'a>,
}

/// Free fields as a JSON object, in their order.
struct Fields<'a>(&'a [(String, String)]);

impl Fields<'_> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Fields<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// The roster in the stable JSON shape, with each person's last counted
/// commit from `activity` (null without it).
pub fn json<'a>(people: &'a People, activity: Option<&'a Activity>) -> RosterJson<'a> {
    let evidence = |at: usize| -> Vec<EvidenceJson<'a>> {
        (activity.map_or(&[][..], |a| a.evidence(at)).iter())
            .map(|seen| EvidenceJson {
                identity: &seen.identity,
                how: seen.how.name(),
                last_active: seen.day.to_string(),
                commit: &seen.commit,
                detail: seen.detail.as_deref(),
            })
            .collect()
    };
    let persons = people.people.iter().enumerate().map(|(at, p)| PersonJson {
        handle: &p.handle,
        name: &p.name,
        github: p.github.as_deref(),
        email: p.email.as_deref(),
        affiliation: p.affiliation.as_deref(),
        url: p.url.as_deref(),
        fields: Fields(&p.fields),
        source: source(&p.at),
        last_active: activity.and_then(|a| a.of(at)).map(|s| s.day.to_string()),
        activity_match: activity.and_then(|a| a.of(at)).map(|s| s.how.name()),
        activity_evidence: evidence(at),
        activity_ambiguous: activity
            .filter(|a| a.of(at).is_none())
            .and_then(|a| a.ambiguous(at)),
    });
    let groups = people.groups.iter().map(|group| GroupJson {
        id: &group.id,
        title: &group.title,
        parent: group.parent.map(|p| people.groups[p].id.as_str()),
        github_team: &group.github_teams,
        source: source(&group.at),
        members: (group.members.iter())
            .map(|m| MemberJson {
                handle: &people.people[m.person].handle,
                status: m.status.as_deref(),
                role: m.role.as_deref(),
                fields: Fields(&m.fields),
            })
            .collect(),
    });
    RosterJson {
        people: persons.collect(),
        groups: groups.collect(),
    }
}

/// Groups with their members, indented under their parents, then the
/// people in no group; with `activity`, when each was last active and
/// how they were found, or `not matched`.
fn human(people: &People, activity: Option<&Activity>) -> String {
    let mut out = String::new();
    // Each line's text is data: printed on its one line, control
    // characters visible (a name cannot start a line of its own).
    let mut line = |text: String| {
        out.push_str(&crate::report::shown_line(&text));
        out.push('\n');
    };
    let mut stack: Vec<(usize, usize)> = people.children(None).map(|(i, _)| (i, 0)).collect();
    stack.reverse();
    while let Some((index, depth)) = stack.pop() {
        let group = &people.groups[index];
        let indent = "  ".repeat(depth);
        let mut text = format!("{indent}{} ({})", group.title, group.id);
        for team in &group.github_teams {
            text.push_str(&format!(" @{team}"));
        }
        line(format!("{text}  {}", shown_source(&group.at)));
        for member in &group.members {
            let person = &people.people[member.person];
            let mut text = format!("{indent}  - {}", who(person));
            for extra in [&member.status, &member.role].into_iter().flatten() {
                text.push_str(&format!(", {extra}"));
            }
            text.push_str(&last_active(activity, member.person));
            line(format!("{text}  {}", shown_source(&member.at)));
        }
        let children: Vec<(usize, usize)> = (people.children(Some(index)))
            .map(|(i, _)| (i, depth + 1))
            .collect();
        stack.extend(children.into_iter().rev());
    }
    let in_groups: std::collections::HashSet<usize> = (people.groups.iter())
        .flat_map(|g| g.members.iter().map(|m| m.person))
        .collect();
    let alone: Vec<(usize, &Person)> = (people.people.iter().enumerate())
        .filter(|(i, _)| !in_groups.contains(i))
        .collect();
    if !alone.is_empty() {
        line("In no group".to_string());
        for (at, person) in alone {
            line(format!(
                "  - {}{}  {}",
                who(person),
                last_active(activity, at),
                shown_source(&person.at)
            ));
        }
    }
    line(format!(
        "{} in {} from `{}`",
        crate::diagnostic::plural(people.people.len(), "person").replace("persons", "people"),
        crate::diagnostic::plural(people.groups.len(), "group"),
        people.name
    ));
    out
}

/// `, last active 2026-05-01 (email)`, `, not matched`, `, last active
/// unknown` when the history cannot say (a shallow clone), or nothing when
/// it was not read.
fn last_active(activity: Option<&Activity>, person: usize) -> String {
    let Some(activity) = activity else {
        return String::new();
    };
    match activity.of(person) {
        Some(seen) => format!(", last active {} ({})", seen.day, seen.how.name()),
        None if matches!(activity.history, History::Read { .. }) => ", not matched".to_string(),
        None => ", last active unknown".to_string(),
    }
}

/// One file's counts, for [`per_file`].
#[derive(Default)]
struct FileCounts {
    people: usize,
    listings: usize,
    statuses: std::collections::BTreeMap<String, usize>,
    unread: usize,
}

/// The counts of the file `name`, added in first-seen order.
fn counts_of<'a>(files: &'a mut Vec<(String, FileCounts)>, name: &str) -> &'a mut FileCounts {
    let index = match files.iter().position(|(f, _)| f == name) {
        Some(index) => index,
        None => {
            files.push((name.to_string(), FileCounts::default()));
            files.len() - 1
        }
    };
    &mut files[index].1
}

/// For each file of the roster: its people, its listings and their
/// statuses, and its lines not read (the C208 warnings at it).
fn per_file(people: &People, diagnostics: &[Diagnostic]) -> String {
    let mut files: Vec<(String, FileCounts)> = Vec::new();
    for person in &people.people {
        if let Some(place) = &person.at {
            counts_of(&mut files, &place.file.name).people += 1;
        }
    }
    for member in people.groups.iter().flat_map(|g| &g.members) {
        if let Some(place) = &member.at {
            let counts = counts_of(&mut files, &place.file.name);
            counts.listings += 1;
            if let Some(status) = &member.status {
                *counts.statuses.entry(status.clone()).or_default() += 1;
            }
        }
    }
    for diagnostic in diagnostics.iter().filter(|d| d.code == Code::UnreadEntry) {
        if let Some(crate::diagnostic::Location::File { file, .. }) = &diagnostic.location {
            counts_of(&mut files, &file.name).unread += 1;
        }
    }
    let mut out = String::new();
    for (name, c) in files {
        let statuses: Vec<String> = (c.statuses.iter())
            .map(|(s, n)| format!("{n} {s}"))
            .collect();
        let statuses = match statuses.is_empty() {
            true => String::new(),
            false => format!(" ({})", statuses.join(", ")),
        };
        let text = format!(
            "  {name}: {}, {}{statuses}, {} not read",
            crate::diagnostic::plural(c.people, "person").replace("persons", "people"),
            crate::diagnostic::plural(c.listings, "listing"),
            crate::diagnostic::plural(c.unread, "line"),
        );
        out.push_str(&crate::report::shown_line(&text));
        out.push('\n');
    }
    out
}

fn who(person: &Person) -> String {
    match &person.github {
        Some(login) if *login == person.name => format!("@{login}"),
        Some(login) => format!("{} @{login}", person.name),
        None => format!("{} (no GitHub login)", person.name),
    }
}

fn shown_source(at: &Option<Place>) -> String {
    at.as_ref()
        .map_or_else(String::new, |p| format!("{}:{}", p.file.name, p.line()))
}

/// A `maintainers.toml` that reads back as `people`.
pub fn toml(people: &People) -> DocumentMut {
    let mut doc = DocumentMut::new();
    let mut persons = Table::new();
    persons.set_implicit(true);
    for person in &people.people {
        persons.insert(&person.handle, Item::Table(person_toml(person)));
    }
    doc.insert("people", Item::Table(persons));
    let mut groups = toml_edit::ArrayOfTables::new();
    for group in &people.groups {
        let mut table = Table::new();
        table.insert("id", toml_edit::value(&group.id));
        if group.title != group.id {
            table.insert("title", toml_edit::value(&group.title));
        }
        if let Some(description) = &group.description {
            table.insert("description", toml_edit::value(description));
        }
        if let Some(parent) = group.parent {
            table.insert("parent", toml_edit::value(&people.groups[parent].id));
        }
        if !group.github_teams.is_empty() {
            table.insert(
                "github-team",
                toml_edit::value(strings(&group.github_teams)),
            );
        }
        let mut members = Array::new();
        for member in &group.members {
            members.push(member_toml(people, member));
        }
        table.insert("members", toml_edit::value(members));
        groups.push(table);
    }
    doc.insert("groups", Item::ArrayOfTables(groups));
    doc
}

fn person_toml(person: &Person) -> Table {
    let mut table = Table::new();
    if person.name != person.handle {
        table.insert("name", toml_edit::value(&person.name));
    }
    match &person.github {
        Some(login) if *login == person.handle => {}
        Some(login) => {
            table.insert("github", toml_edit::value(login));
        }
        None => {
            table.insert("github", toml_edit::value(false));
        }
    }
    let default_url = person
        .github
        .as_ref()
        .map(|l| format!("https://github.com/{l}"));
    if person.url.is_some() && person.url != default_url {
        table.insert("url", toml_edit::value(person.url.as_deref().unwrap_or("")));
    }
    for (key, value) in [
        ("email", &person.email),
        ("affiliation", &person.affiliation),
        ("avatar", &person.avatar),
    ] {
        if let Some(value) = value {
            table.insert(key, toml_edit::value(value));
        }
    }
    if !person.fields.is_empty() {
        table.insert("fields", toml_edit::value(fields(&person.fields)));
    }
    table
}

fn member_toml(people: &People, member: &Member) -> toml_edit::Value {
    let handle = &people.people[member.person].handle;
    if member.status.is_none() && member.role.is_none() && member.fields.is_empty() {
        return handle.into();
    }
    let mut table = InlineTable::new();
    table.insert("handle", handle.into());
    if let Some(status) = &member.status {
        table.insert("status", status.into());
    }
    if let Some(role) = &member.role {
        table.insert("role", role.into());
    }
    if !member.fields.is_empty() {
        table.insert(
            "fields",
            toml_edit::Value::InlineTable(fields(&member.fields)),
        );
    }
    toml_edit::Value::InlineTable(table)
}

fn fields(fields: &[(String, String)]) -> InlineTable {
    let mut table = InlineTable::new();
    for (key, value) in fields {
        table.insert(key, value.into());
    }
    table
}

fn strings(items: &[String]) -> Array {
    items.iter().map(String::as_str).collect()
}
