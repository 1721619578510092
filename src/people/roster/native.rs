//! This plugin's own people file (`maintainers.toml` or `.json`), read
//! like every other roster format: checked key by key, every problem at
//! its line and column, every person, group and membership with its place.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use super::{SourceGroup, SourceRoster};
use crate::diagnostic::{Code, Diagnostic, Place, SourceFile, Suggestions, did_you_mean};
use crate::files::tree::{self, Entry, Node, NodeKind};
use crate::people::{
    DEFAULT_FILE, Group, Member, Person, allowed_url, check_handle, check_login, check_team,
};
use crate::unicode::nfc;

const TOP_KEYS: &[&str] = &["people", "groups"];
const PERSON_KEYS: &[&str] = &[
    "name",
    "github",
    "url",
    "email",
    "affiliation",
    "avatar",
    "fields",
];
const GROUP_KEYS: &[&str] = &[
    "id",
    "title",
    "description",
    "parent",
    "members",
    "github-team",
];
const MEMBER_KEYS: &[&str] = &["handle", "status", "role", "fields"];

/// Reads and checks the people file at `path`; `display` is how it is
/// named in messages.
pub(super) fn read(path: &Path, display: &str) -> Result<SourceRoster, Vec<Diagnostic>> {
    let (file, root) = tree::read(path, display)?;
    from_tree(file, &root)
}

/// Parses a people file from text (for tests and fuzzing).
pub(super) fn parse(text: &str, is_json: bool) -> Result<SourceRoster, Vec<Diagnostic>> {
    let (file, root) = tree::parse_bytes(
        text.as_bytes().to_vec(),
        if is_json {
            "maintainers.json"
        } else {
            DEFAULT_FILE
        },
        is_json,
    )?;
    from_tree(file, &root)
}

fn from_tree(file: Arc<SourceFile>, root: &Node) -> Result<SourceRoster, Vec<Diagnostic>> {
    let mut checker = Checker {
        file: &file,
        errors: Vec::new(),
        handles: None,
    };
    let mut people: Vec<Person> = Vec::new();
    let mut by_handle = HashMap::new();
    let mut by_login = HashMap::new();
    let mut group_nodes = Vec::new();
    for entry in checker.table(root, "the data file") {
        match entry.key.as_str() {
            "people" => {
                for person in checker.table(&entry.value, "`people`") {
                    let Some(p) = checker.person(person) else {
                        continue;
                    };
                    // GitHub logins are case-insensitive: two entries
                    // with one login are one person listed twice.
                    if let Some(login) = &p.github {
                        let index = people.len();
                        if let Some(&first) = by_login.get(&login.to_lowercase()) {
                            let first: &Person = &people[first];
                            let error = checker
                                .at(
                                    person.key_span.clone(),
                                    Code::Duplicate,
                                    format!(
                                        "`{}` and `{}` have the same GitHub login `{login}`",
                                        first.handle, p.handle
                                    ),
                                )
                                .with_label("a second entry for this login")
                                .with_help(
                                    "list each person once, and name them by one handle in groups",
                                );
                            checker.report(error);
                        } else {
                            by_login.insert(login.to_lowercase(), index);
                        }
                    }
                    checker.same_handle(&people, &by_handle, &p, person);
                    by_handle
                        .entry(nfc(&p.handle).into_owned())
                        .or_insert(people.len());
                    people.push(p);
                }
            }
            "groups" => group_nodes = checker.array(&entry.value, "`groups`"),
            _ => checker.unknown_key(entry, TOP_KEYS, "at the top level"),
        }
    }
    let groups = checker.groups(&group_nodes, &people, &by_handle);
    if !checker.errors.is_empty() {
        return Err(checker.errors);
    }
    let groups = groups
        .into_iter()
        .map(|group| SourceGroup {
            at: group.at.clone().unwrap_or_else(|| Place::new(&file, 0..0)),
            group,
            by_login: Vec::new(),
        })
        .collect();
    Ok(SourceRoster {
        files: vec![file],
        people,
        groups,
        warnings: Vec::new(),
    })
}

/// Collects every problem while walking the tree.
struct Checker<'a> {
    file: &'a Arc<SourceFile>,
    errors: Vec<Diagnostic>,
    /// The people's handles, indexed for the first unknown member: a
    /// roster that lists thousands of them costs linear time.
    handles: Option<Suggestions>,
}

impl<'a> Checker<'a> {
    /// A new error at `span` of the data file (not yet reported).
    fn at(&self, span: Range<usize>, code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(code, message).in_file(self.file, span)
    }

    fn report(&mut self, diagnostic: Diagnostic) {
        self.errors.push(diagnostic);
    }

    fn error(&mut self, span: Range<usize>, code: Code, message: impl Into<String>) {
        let diagnostic = self.at(span, code, message);
        self.report(diagnostic);
    }

    fn wrong_type(&mut self, node: &Node, what: &str, expected: &str) {
        let found = node.kind.describe();
        self.error(
            node.span.clone(),
            Code::InvalidData,
            format!("{what} must be {expected}, found {found}"),
        );
    }

    fn table<'n>(&mut self, node: &'n Node, what: &str) -> &'n [Entry] {
        match &node.kind {
            NodeKind::Table(entries) => entries,
            _ => {
                self.wrong_type(node, what, "a table");
                &[]
            }
        }
    }

    fn array(&mut self, node: &Node, what: &str) -> Vec<Node> {
        match &node.kind {
            NodeKind::Array(items) => items.clone(),
            _ => {
                self.wrong_type(node, what, "an array");
                Vec::new()
            }
        }
    }

    fn string(&mut self, node: &Node, what: &str) -> Option<String> {
        match &node.kind {
            NodeKind::Str(s) => Some(s.clone()),
            _ => {
                self.wrong_type(node, what, "a string");
                None
            }
        }
    }

    fn unknown_key(&mut self, entry: &Entry, known: &[&str], place: &str) {
        let suggestion = did_you_mean(&entry.key, known.iter().copied()).map(str::to_string);
        let error = self
            .at(
                entry.key_span.clone(),
                Code::InvalidData,
                format!("unknown key `{}` {place}", entry.key),
            )
            .with_label("not a known key")
            .with_suggestion(suggestion)
            .with_note(format!("known keys: {}", known.join(", ")));
        self.report(error);
    }

    /// A `fields` table: names to text, for `columns=`.
    fn fields(&mut self, node: &Node, what: &str) -> Vec<(String, String)> {
        let entries = self.table(node, what).to_vec();
        entries
            .iter()
            .filter_map(|e| {
                let value = self.string(&e.value, &format!("`{}` in {what}", e.key))?;
                Some((e.key.clone(), value))
            })
            .collect()
    }

    /// `github-team`: one `org/team` or an array of them, lowercased.
    fn github_teams(&mut self, node: &Node, what: &str) -> Vec<String> {
        let items = match &node.kind {
            NodeKind::Array(items) => items.clone(),
            _ => vec![node.clone()],
        };
        items
            .iter()
            .filter_map(|item| {
                let team = self.string(item, what)?;
                if check_team(&team).is_err() {
                    self.error(
                        item.span.clone(),
                        Code::InvalidName,
                        format!("{what} must be `org/team`, found `{team}`"),
                    );
                    return None;
                }
                Some(team.trim_start_matches('@').to_lowercase())
            })
            .collect()
    }

    fn url(&mut self, node: &Node, what: &str) -> Option<String> {
        let url = self.string(node, what)?;
        match allowed_url(&url) {
            Ok(()) => Some(url.trim().to_string()),
            Err(why) => {
                self.error(
                    node.span.clone(),
                    Code::InvalidName,
                    format!("{what} {why}"),
                );
                None
            }
        }
    }

    /// Reports `person` (at `entry`) when an earlier handle is the same once
    /// both are in Unicode's NFC form: the two would look identical.
    fn same_handle(
        &mut self,
        people: &[Person],
        by_handle: &HashMap<String, usize>,
        person: &Person,
        entry: &Entry,
    ) {
        let Some(&first) = by_handle.get(&*nfc(&person.handle)) else {
            return;
        };
        let error = self
            .at(
                entry.key_span.clone(),
                Code::Duplicate,
                format!(
                    "handle `{}` is the same as `{}` but for how its characters are encoded",
                    person.handle, people[first].handle
                ),
            )
            .with_label("looks identical to an earlier handle")
            .with_note("handles are compared in Unicode's NFC form; write both the same way");
        self.report(error);
    }

    /// The line of `offset` in the data file, for "first used on line N".
    fn line_of(&self, offset: usize) -> usize {
        self.file.line_of(offset)
    }

    /// Reads and checks `[people.HANDLE]`, with every default filled in.
    fn person(&mut self, entry: &Entry) -> Option<Person> {
        let handle = entry.key.clone();
        if let Err(why) = check_handle(&handle) {
            self.error(
                entry.key_span.clone(),
                Code::InvalidName,
                format!("handle `{handle}` {why}"),
            );
        }
        let mut person = Person {
            name: handle.clone(),
            github: Some(handle.clone()),
            handle,
            url: None,
            email: None,
            affiliation: None,
            avatar: None,
            fields: Vec::new(),
            at: Some(Place::new(self.file, entry.key_span.clone())),
        };
        let github_set = self.person_fields(entry, &mut person);
        if !github_set
            && check_handle(&person.handle).is_ok()
            && check_login(&person.handle).is_err()
        {
            self.no_default_login(entry, &mut person);
        }
        if person.url.is_none() {
            person.url = person
                .github
                .as_ref()
                .map(|login| format!("https://github.com/{login}"));
        }
        Some(person)
    }

    /// Reads the fields of `entry` into `person`; whether `github` was set,
    /// which decides if the handle may stand for the login.
    fn person_fields(&mut self, entry: &Entry, person: &mut Person) -> bool {
        let what = |key: &str| format!("`{key}` of `{}`", entry.key);
        let mut github_set = false;
        for field in self.table(&entry.value, &format!("person `{}`", entry.key)) {
            let value = &field.value;
            match field.key.as_str() {
                "name" => {
                    if let Some(name) = self.name(value, &what("name")) {
                        person.name = name;
                    }
                }
                "github" => {
                    if let Some(github) = self.github(value, &what("github")) {
                        github_set = true;
                        person.github = github;
                    }
                }
                "url" => person.url = self.url(value, &what("url")),
                "avatar" => person.avatar = self.url(value, &what("avatar")),
                "email" => person.email = self.string(value, &what("email")),
                "affiliation" => person.affiliation = self.string(value, &what("affiliation")),
                "fields" => person.fields = self.fields(value, &what("fields")),
                _ => self.unknown_key(field, PERSON_KEYS, &format!("in person `{}`", entry.key)),
            }
        }
        github_set
    }

    /// A person's `name`; an empty one is reported but kept, so that one
    /// mistake does not cause others.
    fn name(&mut self, node: &Node, what: &str) -> Option<String> {
        let name = self.string(node, what)?;
        if name.trim().is_empty() {
            self.error(
                node.span.clone(),
                Code::InvalidData,
                format!("{what} must not be empty"),
            );
        }
        Some(name)
    }

    /// A person's `github`: `Some(None)` for `false`, `Some(login)` for a
    /// string (checked, kept even when invalid); `None` for anything else.
    fn github(&mut self, node: &Node, what: &str) -> Option<Option<String>> {
        match &node.kind {
            NodeKind::Bool(false) => Some(None),
            NodeKind::Str(login) => {
                if let Err(why) = check_login(login) {
                    self.error(
                        node.span.clone(),
                        Code::InvalidName,
                        format!("{what} {why}"),
                    );
                }
                Some(Some(login.clone()))
            }
            _ => {
                self.wrong_type(node, what, "a GitHub login or `false`");
                None
            }
        }
    }

    /// The handle is not a login, so it cannot be the GitHub default: the
    /// person has no login, and without a `url` nothing to link to.
    fn no_default_login(&mut self, entry: &Entry, person: &mut Person) {
        person.github = None;
        if person.url.is_none() {
            let error = self
                .at(
                    entry.key_span.clone(),
                    Code::InvalidName,
                    format!(
                        "handle `{}` is not a GitHub login, and `github` defaults to the handle",
                        person.handle
                    ),
                )
                .with_label("not a GitHub login")
                .with_help(
                    "set `github = \"their-login\"`, a `url`, or `github = false` for someone without one",
                );
            self.report(error);
        }
    }

    /// Reads and checks `[[groups]]`; parents are resolved once every group
    /// is known, since a parent may come later in the file.
    fn groups(
        &mut self,
        nodes: &[Node],
        people: &[Person],
        by_handle: &HashMap<String, usize>,
    ) -> Vec<Group> {
        let mut groups = Vec::new();
        let mut id_spans: Vec<Range<usize>> = Vec::new();
        let mut parents: Vec<Option<(String, Range<usize>)>> = Vec::new();
        let mut by_id: HashMap<String, usize> = HashMap::new();
        for (index, node) in nodes.iter().enumerate() {
            let GroupEntry {
                mut group,
                id_span,
                parent,
                has_id,
            } = self.group(index, node, people, by_handle);
            if has_id {
                match by_id.get(&*nfc(&group.id)) {
                    Some(&first) => self.duplicate_group_id(&id_spans[first], &group.id, &id_span),
                    None => {
                        by_id.insert(nfc(&group.id).into_owned(), groups.len());
                    }
                }
            }
            if group.title.is_empty() {
                group.title = group.id.clone();
            }
            group.at = Some(Place::new(self.file, id_span.clone()));
            groups.push(group);
            id_spans.push(id_span);
            parents.push(parent);
        }
        self.resolve_parents(&mut groups, &parents, &by_id);
        groups
    }

    /// Reads group number `index` (from 0), reporting the problems it has on
    /// its own.
    fn group(
        &mut self,
        index: usize,
        node: &Node,
        people: &[Person],
        by_handle: &HashMap<String, usize>,
    ) -> GroupEntry {
        let label = format!("group {}", index + 1);
        let mut read = GroupEntry {
            group: Group {
                id: String::new(),
                title: String::new(),
                description: None,
                parent: None,
                members: Vec::new(),
                github_teams: Vec::new(),
                at: None,
            },
            id_span: node.span.clone(),
            parent: None,
            has_id: false,
        };
        let entries = self.table(node, &format!("`{label}` in `groups`"));
        let name = group_name(entries, label);
        for field in entries {
            self.group_field(field, &name, &mut read, people, by_handle);
        }
        if !read.has_id && matches!(node.kind, NodeKind::Table(_)) {
            let error = self
                .at(
                    node.span.clone(),
                    Code::InvalidData,
                    format!("{name} has no `id`"),
                )
                .with_help("add `id = \"...\"`: directives name groups by id");
            self.report(error);
        }
        read
    }

    /// Reads one field of the group `name` into `read`.
    fn group_field(
        &mut self,
        field: &Entry,
        name: &str,
        read: &mut GroupEntry,
        people: &[Person],
        by_handle: &HashMap<String, usize>,
    ) {
        let value = &field.value;
        let what = format!("`{}` of {name}", field.key);
        match field.key.as_str() {
            "id" => {
                if let Some(id) = self.string(value, &what) {
                    if let Err(why) = check_handle(&id) {
                        self.error(
                            value.span.clone(),
                            Code::InvalidName,
                            format!("group id `{id}` {why}"),
                        );
                    }
                    read.group.id = id;
                    read.id_span = value.span.clone();
                    read.has_id = true;
                }
            }
            "title" => read.group.title = self.string(value, &what).unwrap_or_default(),
            "description" => read.group.description = self.string(value, &what),
            "parent" => {
                read.parent = self.string(value, &what).map(|p| (p, value.span.clone()));
            }
            "members" => {
                let members = self.array(value, &what);
                read.group.members = self.members(&members, name, people, by_handle);
            }
            "github-team" => read.group.github_teams = self.github_teams(value, &what),
            _ => self.unknown_key(field, GROUP_KEYS, &format!("in {name}")),
        }
    }

    /// Reports the id `id` at `span`, which an earlier group has too (at
    /// `first`): directives could not tell the two apart.
    fn duplicate_group_id(&mut self, first: &Range<usize>, id: &str, span: &Range<usize>) {
        let line = self.line_of(first.start);
        let error = self
            .at(
                span.clone(),
                Code::Duplicate,
                format!("duplicate group id `{id}`"),
            )
            .with_note(format!("first used on line {line}"));
        self.report(error);
    }

    /// Reads and checks the `members` of `group`; members that cannot be
    /// used are reported and left out.
    fn members(
        &mut self,
        nodes: &[Node],
        group: &str,
        people: &[Person],
        by_handle: &HashMap<String, usize>,
    ) -> Vec<Member> {
        let mut members: Vec<Member> = Vec::new();
        let mut spans: Vec<Range<usize>> = Vec::new();
        // Where each person is in `members`, to find repeats in one pass.
        let mut listed: HashMap<usize, usize> = HashMap::new();
        for node in nodes {
            let Some(written) = self.written_member(node, group) else {
                continue;
            };
            let Some(&person) = by_handle.get(&*nfc(&written.handle)) else {
                self.unknown_member(&written, group, people);
                continue;
            };
            if let Some(&first) = listed.get(&person) {
                let line = self.line_of(spans[first].start);
                let error = self
                    .at(
                        written.span,
                        Code::Duplicate,
                        format!("{group} lists `{}` twice", written.handle),
                    )
                    .with_note(format!("first listed on line {line}"));
                self.report(error);
                continue;
            }
            let WrittenMember {
                handle,
                span,
                status,
                role,
                fields,
            } = written;
            for text in [&status, &role].into_iter().flatten() {
                if text.trim().is_empty() {
                    self.error(
                        node.span.clone(),
                        Code::InvalidData,
                        format!("empty status or role for `{handle}` in {group}"),
                    );
                }
            }
            listed.insert(person, members.len());
            members.push(Member {
                person,
                status: status.map(|s| s.trim().to_string()),
                role: role.map(|r| r.trim().to_string()),
                fields,
                at: Some(Place::new(self.file, span.clone())),
            });
            spans.push(span);
        }
        members
    }

    /// A member as written: a handle, or a table with `handle`; `None`
    /// (reported) for anything else.
    fn written_member(&mut self, node: &Node, group: &str) -> Option<WrittenMember> {
        match &node.kind {
            NodeKind::Str(handle) => Some(WrittenMember {
                handle: handle.clone(),
                span: node.span.clone(),
                status: None,
                role: None,
                fields: Vec::new(),
            }),
            NodeKind::Table(entries) => self.member_table(node, entries, group),
            _ => {
                self.wrong_type(
                    node,
                    &format!("a member of {group}"),
                    "a handle or a table with `handle`",
                );
                None
            }
        }
    }

    /// A member written as a table (`node`, with `entries`); `None` when it
    /// has no usable `handle`.
    fn member_table(
        &mut self,
        node: &Node,
        entries: &[Entry],
        group: &str,
    ) -> Option<WrittenMember> {
        let mut handle = None;
        let mut status = None;
        let mut role = None;
        let mut fields = Vec::new();
        for field in entries {
            let what = format!("`{}` of a member of {group}", field.key);
            match field.key.as_str() {
                "handle" => {
                    handle = self
                        .string(&field.value, &what)
                        .map(|h| (h, field.value.span.clone()));
                }
                "status" => status = self.string(&field.value, &what),
                "role" => role = self.string(&field.value, &what),
                "fields" => fields = self.fields(&field.value, &what),
                _ => self.unknown_key(field, MEMBER_KEYS, &format!("in a member of {group}")),
            }
        }
        let Some((handle, span)) = handle else {
            // A `handle` of the wrong type has been reported already.
            if !entries.iter().any(|e| e.key == "handle") {
                self.error(
                    node.span.clone(),
                    Code::InvalidData,
                    format!("a member of {group} has no `handle`"),
                );
            }
            return None;
        };
        Some(WrittenMember {
            handle,
            span,
            status,
            role,
            fields,
        })
    }

    /// Reports a member who is not in `people`, with the closest handle.
    fn unknown_member(&mut self, member: &WrittenMember, group: &str, people: &[Person]) {
        let handle = &member.handle;
        let handles = (self.handles)
            .get_or_insert_with(|| Suggestions::new(people.iter().map(|p| p.handle.as_str())));
        let suggestion = (handles.closest(handle))
            .and_then(|closest| people.get(closest))
            .map(|p| p.handle.clone());
        let error = self
            .at(
                member.span.clone(),
                Code::UndefinedReference,
                format!("{group} lists `{handle}`, who is not in `people`"),
            )
            .with_label("unknown person")
            .with_suggestion(suggestion)
            .with_help(format!("add a [people.{handle}] table, or fix the handle"));
        self.report(error);
    }

    fn resolve_parents(
        &mut self,
        groups: &mut [Group],
        parents: &[Option<(String, Range<usize>)>],
        by_id: &HashMap<String, usize>,
    ) {
        for (index, parent) in parents.iter().enumerate() {
            let Some((id, span)) = parent else { continue };
            match by_id.get(&*nfc(id)).copied() {
                Some(p) if p == index => {
                    self.error(
                        span.clone(),
                        Code::Cycle,
                        format!("group `{id}` is its own parent"),
                    );
                }
                Some(p) => groups[index].parent = Some(p),
                None => {
                    let suggestion =
                        did_you_mean(id, groups.iter().map(|g| g.id.as_str())).map(str::to_string);
                    let error = self
                        .at(
                            span.clone(),
                            Code::UndefinedReference,
                            format!("parent group `{id}` does not exist"),
                        )
                        .with_label("no group with this id")
                        .with_suggestion(suggestion);
                    self.report(error);
                }
            }
        }
        self.report_cycles(groups, parents);
    }

    /// Reports each cycle of `parent`s once, at the first of its groups in
    /// the file; every group is walked once.
    fn report_cycles(&mut self, groups: &mut [Group], parents: &[Option<(String, Range<usize>)>]) {
        // 0: not seen, 1: on the walk in progress, 2: done.
        let mut state = vec![0u8; groups.len()];
        for start in 0..groups.len() {
            let mut walk = Vec::new();
            let mut at = Some(start);
            while let Some(g) = at {
                match state[g] {
                    0 => {
                        state[g] = 1;
                        walk.push(g);
                        at = groups[g].parent;
                    }
                    1 => {
                        let from = walk.iter().position(|&w| w == g).unwrap_or_default();
                        let cycle = &walk[from..];
                        self.cycle(groups, parents, cycle);
                        // Cut the cycle so that rendering never loops.
                        if let Some(&first) = cycle.iter().min() {
                            groups[first].parent = None;
                        }
                        break;
                    }
                    _ => break,
                }
            }
            for g in walk {
                state[g] = 2;
            }
        }
    }

    /// The error for one cycle (`cycle`: each group's parent is the next,
    /// the last's the first), at its first group in the file.
    fn cycle(
        &mut self,
        groups: &[Group],
        parents: &[Option<(String, Range<usize>)>],
        cycle: &[usize],
    ) {
        let Some(first) = cycle.iter().position(|&g| Some(&g) == cycle.iter().min()) else {
            return;
        };
        const SHOWN: usize = 10;
        let mut ids: Vec<&str> = (cycle.iter().cycle().skip(first).take(cycle.len()))
            .map(|&g| groups[g].id.as_str())
            .collect();
        let more = ids.len().saturating_sub(SHOWN);
        ids.truncate(SHOWN);
        let mut path = ids.join(" -> ");
        if more > 0 {
            path.push_str(&format!(" -> ... ({more} more)"));
        }
        let start = cycle[first];
        if let Some((_, span)) = &parents[start] {
            self.error(
                span.clone(),
                Code::Cycle,
                format!(
                    "groups form a cycle through `parent`: {path} -> {}",
                    groups[start].id
                ),
            );
        }
    }
}

/// One `[[groups]]` entry as read, before the checks that need the others.
struct GroupEntry {
    group: Group,
    /// The id's span (the whole entry's without one), for duplicate reports.
    id_span: Range<usize>,
    /// The parent's id and span, resolved once every group is read.
    parent: Option<(String, Range<usize>)>,
    has_id: bool,
}

/// A member as written, before the handle is looked up.
struct WrittenMember {
    handle: String,
    span: Range<usize>,
    status: Option<String>,
    role: Option<String>,
    fields: Vec<(String, String)>,
}

/// How messages name a group: "group `id`" when its id is a string, else
/// `label` ("group N"), so that messages about a group without an id still
/// say which one.
fn group_name(entries: &[Entry], label: String) -> String {
    entries
        .iter()
        .find(|e| e.key == "id")
        .and_then(|e| match &e.value.kind {
            NodeKind::Str(s) => Some(format!("group `{s}`")),
            _ => None,
        })
        .unwrap_or(label)
}

#[cfg(test)]
mod tests;
