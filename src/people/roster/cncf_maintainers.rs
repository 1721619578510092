//! CNCF's per-project `.project/maintainers.yaml` (cncf/automation,
//! `utilities/dot-project`), read by the rules of its validator
//! (`maintainers.go`, `SCHEMA.md`): a `maintainers` list of entries, each
//! with a `project_id`, an optional `org` and `teams` of `name` and
//! `members` (GitHub handles). Every team is a group; a team named
//! `emeritus` (or `NAME-emeritus`) lists its members with the status
//! `emeritus`. With more than one entry, a team's group id is
//! `PROJECT_ID-TEAM`.
//!
//! The schema's rules, each a located error: unknown fields are refused,
//! `project_id` and `teams` are required, `project-maintainers` is a
//! required, non-empty team, a handle is not empty, and a team lists a
//! handle once (compared case-insensitively). A leading `@`, which the
//! validator strips, is read without it and warned about; a team named
//! twice is an error (its members would be two lists).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::{SourceGroup, SourceRoster, check_login_at, group, person_of_login};
use crate::diagnostic::{Code, Diagnostic, Place, SourceFile};
use crate::files::tree::{Entry, Node, NodeKind, YamlFiles};
use crate::people::{Member, Person};

/// The team every entry must have, non-empty.
pub const REQUIRED_TEAM: &str = "project-maintainers";

/// The keys of the file, an entry and a team.
const TOP_KEYS: &[&str] = &["maintainers"];
const ENTRY_KEYS: &[&str] = &["project_id", "org", "teams"];
const TEAM_KEYS: &[&str] = &["name", "members"];

/// Reads `.project/maintainers.yaml` at `path`, through the run's one
/// read of each YAML file.
pub(super) fn read(
    path: &Path,
    display: &str,
    yaml: &YamlFiles,
) -> Result<SourceRoster, Vec<Diagnostic>> {
    let (file, root) = yaml.read(path, display)?;
    parse_tree(file, &root)
}

/// The file's tree, read as the roster it is.
pub(super) fn parse_tree(
    file: Arc<SourceFile>,
    root: &Node,
) -> Result<SourceRoster, Vec<Diagnostic>> {
    let mut reader = Reader {
        file: &file,
        errors: Vec::new(),
        warnings: Vec::new(),
        people: Vec::new(),
        by_login: HashMap::new(),
        groups: Vec::new(),
        group_at: HashMap::new(),
    };
    reader.file_root(root);
    let Reader {
        errors,
        warnings,
        people,
        groups,
        ..
    } = reader;
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(SourceRoster {
        files: vec![Arc::clone(&file)],
        people,
        groups,
        warnings,
    })
}

struct Reader<'a> {
    file: &'a Arc<SourceFile>,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    people: Vec<Person>,
    /// Index of each person by lowercase login.
    by_login: HashMap<String, usize>,
    groups: Vec<SourceGroup>,
    /// Where each group id was first written.
    group_at: HashMap<String, std::ops::Range<usize>>,
}

impl Reader<'_> {
    fn error(
        &mut self,
        span: std::ops::Range<usize>,
        code: Code,
        message: String,
    ) -> &mut Diagnostic {
        let error = Diagnostic::error(code, format!("{}: {message}", self.file.name))
            .in_file(self.file, span);
        self.errors.push(error);
        let last = self.errors.len() - 1;
        &mut self.errors[last]
    }

    /// The entries of `node`, a mapping with only `keys` (`what` names it).
    fn table<'n>(&mut self, node: &'n Node, keys: &[&str], what: &str) -> Option<&'n [Entry]> {
        let NodeKind::Table(entries) = &node.kind else {
            let found = node.kind.describe();
            let error = self.error(
                node.span.clone(),
                Code::InvalidData,
                format!("{what} must be a mapping, found {found}"),
            );
            error.label = format!("expected a mapping for {what}");
            return None;
        };
        for entry in entries.iter().filter(|e| !keys.contains(&e.key.as_str())) {
            let suggestion = crate::diagnostic::did_you_mean(&entry.key, keys.iter().copied());
            let known = keys.join(", ");
            let message = format!("unknown field `{}` in {what} (fields: {known})", entry.key);
            let error = self.error(entry.key_span.clone(), Code::InvalidData, message);
            error.label = "the schema refuses unknown fields".to_string();
            if let Some(suggestion) = suggestion {
                error.help.push(format!("did you mean `{suggestion}`?"));
            }
            if entry.key == "managed" {
                error.notes.push(
                    "the validator this format follows (cncf/automation, utilities/dot-project) knows only `name` and `members` in a team and refuses `managed`: remove it".to_string(),
                );
            }
        }
        Some(entries)
    }

    /// A string field; `None` (and an error when `required`) otherwise.
    /// Where a field missing from the mapping `at` is reported: its first
    /// key, else the mapping.
    fn missing_at(at: &Node) -> std::ops::Range<usize> {
        match &at.kind {
            NodeKind::Table(entries) if !entries.is_empty() => entries[0].key_span.clone(),
            _ => at.span.clone(),
        }
    }

    fn text(
        &mut self,
        entries: &[Entry],
        key: &str,
        at: &Node,
        required: bool,
    ) -> Option<(String, std::ops::Range<usize>)> {
        let Some(entry) = entries.iter().find(|e| e.key == key) else {
            if required {
                let message = format!("`{key}` is required");
                self.error(Self::missing_at(at), Code::InvalidData, message)
                    .label = format!("no `{key}` in this mapping");
            }
            return None;
        };
        match &entry.value.kind {
            NodeKind::Str(text) if !text.trim().is_empty() => {
                Some((text.trim().to_string(), entry.value.span.clone()))
            }
            kind => {
                let found = match kind {
                    NodeKind::Str(_) => "an empty string",
                    kind => kind.describe(),
                };
                let message = format!("`{key}` must be a non-empty string, found {found}");
                self.error(entry.value.span.clone(), Code::InvalidData, message);
                None
            }
        }
    }

    /// The list `key` of `entries`, required and an array.
    fn list<'n>(&mut self, entries: &'n [Entry], key: &str, at: &Node) -> Option<&'n [Node]> {
        let Some(entry) = entries.iter().find(|e| e.key == key) else {
            let message = format!("`{key}` is required");
            self.error(Self::missing_at(at), Code::InvalidData, message)
                .label = format!("no `{key}` in this mapping");
            return None;
        };
        match &entry.value.kind {
            NodeKind::Array(items) => Some(items),
            kind => {
                let message = format!("`{key}` must be a list, found {}", kind.describe());
                self.error(entry.value.span.clone(), Code::InvalidData, message);
                None
            }
        }
    }

    fn file_root(&mut self, root: &Node) {
        if matches!(&root.kind, NodeKind::Table(entries) if entries.is_empty()) {
            let message = "is empty: the schema requires a `maintainers` list".to_string();
            self.error(root.span.clone(), Code::InvalidData, message)
                .label = "expected `maintainers:`".to_string();
            return;
        }
        let Some(top) = self.table(root, TOP_KEYS, "the file") else {
            return;
        };
        let Some(entries) = self.list(top, "maintainers", root) else {
            return;
        };
        if entries.is_empty() {
            let span =
                (top.iter().find(|e| e.key == "maintainers")).map_or(0..0, |e| e.key_span.clone());
            self.error(
                span,
                Code::InvalidData,
                "`maintainers` has no entries".to_string(),
            );
        }
        let several = entries.len() > 1;
        for entry in entries {
            self.entry(entry, several);
        }
    }

    fn entry(&mut self, node: &Node, several: bool) {
        let Some(fields) = self.table(node, ENTRY_KEYS, "a maintainers entry") else {
            return;
        };
        let project = self.text(fields, "project_id", node, true);
        if let Some(org) = fields.iter().find(|e| e.key == "org")
            && !matches!(org.value.kind, NodeKind::Str(_))
        {
            let message = format!(
                "`org` must be a string, found {}",
                org.value.kind.describe()
            );
            self.error(org.value.span.clone(), Code::InvalidData, message);
        }
        let Some(teams) = self.list(fields, "teams", node) else {
            return;
        };
        let mut required = false;
        for team in teams {
            required |= self.team(
                team,
                project.as_ref().map(|p| p.0.as_str()).filter(|_| several),
            );
        }
        if !required {
            let span = (fields.iter().find(|e| e.key == "teams"))
                .map_or(node.span.clone(), |e| e.key_span.clone());
            let message = format!("team `{REQUIRED_TEAM}` is required, with at least one member");
            let error = self.error(span, Code::InvalidData, message);
            error.label = format!("no non-empty `{REQUIRED_TEAM}` team in these teams");
            error.help.push(format!(
                "add `- name: \"{REQUIRED_TEAM}\"` with the project's maintainers as `members`"
            ));
        }
    }

    /// Reads one team into a group; whether it is a non-empty
    /// `project-maintainers`.
    fn team(&mut self, node: &Node, project: Option<&str>) -> bool {
        let Some(fields) = self.table(node, TEAM_KEYS, "a team") else {
            return false;
        };
        let Some((name, name_span)) = self.text(fields, "name", node, true) else {
            return false;
        };
        let Some(members) = self.list(fields, "members", node) else {
            return false;
        };
        if name == REQUIRED_TEAM && members.is_empty() {
            let message = format!("team `{REQUIRED_TEAM}` cannot be empty");
            self.error(name_span.clone(), Code::InvalidData, message);
        }
        let id = match project {
            Some(project) => format!("{project}-{name}"),
            None => name.clone(),
        };
        if let Some(first) = self.group_at.get(&id).cloned() {
            let line = self.file.line_of(first.start);
            let message = format!("team `{name}` is given twice (first on line {line})");
            let error = self.error(name_span, Code::Duplicate, message);
            error.label = "a second team of this name".to_string();
            error
                .help
                .push("merge the two teams' members into one".to_string());
            return false;
        }
        self.group_at.insert(id.clone(), name_span.clone());
        let status =
            (name == "emeritus" || name.ends_with("-emeritus")).then(|| "emeritus".to_string());
        let mut source_group = SourceGroup {
            group: group(&id, &name),
            by_login: Vec::new(),
            at: Place::new(self.file, name_span.clone()),
        };
        source_group.group.at = Some(Place::new(self.file, name_span));
        let mut seen: HashMap<String, std::ops::Range<usize>> = HashMap::new();
        for (index, member) in members.iter().enumerate() {
            let Some((login, span)) = self.handle(member, index, &name) else {
                continue;
            };
            let key = login.to_lowercase();
            if let Some(first) = seen.get(&key) {
                let line = self.file.line_of(first.start);
                let message = format!(
                    "team `{name}` lists `{login}` twice (first on line {line}; handles are compared case-insensitively)"
                );
                self.error(span, Code::Duplicate, message).label = "duplicate handle".to_string();
                continue;
            }
            seen.insert(key.clone(), span.clone());
            let at = Place::new(self.file, span);
            let person = match self.by_login.get(&key) {
                Some(&person) => person,
                None => {
                    self.people.push(person_of_login(&login, &at));
                    self.by_login.insert(key, self.people.len() - 1);
                    self.people.len() - 1
                }
            };
            source_group.group.members.push(Member {
                person,
                status: status.clone(),
                role: None,
                fields: Vec::new(),
                at: Some(at),
            });
        }
        self.groups.push(source_group);
        name == REQUIRED_TEAM && !members.is_empty()
    }

    /// A member's handle, trimmed and without a leading `@` (warned
    /// about), checked as a GitHub login.
    fn handle(
        &mut self,
        node: &Node,
        index: usize,
        team: &str,
    ) -> Option<(String, std::ops::Range<usize>)> {
        let NodeKind::Str(text) = &node.kind else {
            let message = format!(
                "team `{team}`: handles[{index}] must be a GitHub handle, found {}",
                node.kind.describe()
            );
            self.error(node.span.clone(), Code::InvalidData, message);
            return None;
        };
        let trimmed = text.trim();
        if trimmed.is_empty() {
            let message = format!("team `{team}`: handles[{index}] cannot be empty");
            self.error(node.span.clone(), Code::InvalidData, message);
            return None;
        }
        let login = match trimmed.strip_prefix('@') {
            Some(login) => {
                let warning = Diagnostic::warning(
                    Code::InvalidName,
                    format!("{}: handle `{trimmed}` is written with `@`", self.file.name),
                )
                .in_file(self.file, node.span.clone())
                .with_label("read as `".to_string() + login + "`")
                .with_help(
                    "the schema's handles are GitHub logins without `@`; the validator strips it",
                );
                self.warnings.push(warning);
                login
            }
            None => trimmed,
        };
        let at = Place::new(self.file, node.span.clone());
        if let Err(error) = check_login_at(login, &at) {
            self.errors.push(error);
            return None;
        }
        Some((login.to_string(), node.span.clone()))
    }
}
