//! Merging the sources into one roster: people are one person across
//! sources when their logins match, a group id and a handle belong to one
//! definition, and the logins OWNERS files list are expanded through the
//! OWNERS_ALIASES aliases.
//!
//! Alias expansion is memoised (each alias is expanded once, whatever
//! lists it), cycle-checked, and bounded: the memberships it makes are
//! counted against [`MAX_MEMBERSHIPS`], so that a small file of aliases
//! listing aliases cannot make the build take minutes and gigabytes.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::{SourceGroup, SourceRoster, check_login_at, person_of_login};
use crate::config::PeopleFormat;
use crate::diagnostic::{Code, Diagnostic, Place, SourceFile};
use crate::people::{Group, Member, People, Person, check_handle};
use crate::unicode::nfc;

/// The most memberships alias expansion may make in one roster: far above
/// any real project's (Kubernetes' whole tree makes tens of thousands),
/// far below what would take the build's memory.
pub const MAX_MEMBERSHIPS: usize = 1_000_000;

/// An alias being expanded, or its people once it is.
enum Expansion {
    Running,
    Done(Arc<[usize]>),
}

/// The roster being merged.
#[derive(Default)]
pub(super) struct Merger {
    files: Vec<Arc<SourceFile>>,
    people: Vec<Person>,
    by_login: HashMap<String, usize>,
    /// E-mail addresses (lower case) to the person that has each, and the
    /// source that gave them: one source's person without a login is
    /// another source's with the address (within a source, two entries
    /// are two people).
    by_email: HashMap<String, (usize, usize)>,
    /// The source being added, counted from 0.
    source: usize,
    /// Handles (NFC) to the person that has each.
    by_handle: HashMap<String, usize>,
    groups: Vec<Group>,
    /// Where each group id is defined, and whether an OWNERS file's
    /// `prefix` made it.
    group_at: HashMap<String, (Place, bool)>,
    /// OWNERS_ALIASES aliases: their members by login.
    aliases: HashMap<String, Vec<(String, Place)>>,
    expanded: HashMap<String, Expansion>,
    /// Memberships alias expansion may still make.
    budget: Option<usize>,
    errors: Vec<Diagnostic>,
}

impl Merger {
    pub(super) fn merge(
        mut self,
        sources: Vec<(PeopleFormat, SourceRoster)>,
    ) -> Result<People, Vec<Diagnostic>> {
        self.budget = Some(MAX_MEMBERSHIPS);
        for (format, source) in &sources {
            if *format == PeopleFormat::OwnersAliases {
                for group in &source.groups {
                    let members = group
                        .by_login
                        .iter()
                        .map(|m| (m.login.clone(), m.at.clone()));
                    self.aliases
                        .insert(group.group.id.clone(), members.collect());
                }
            }
        }
        for (format, source) in sources {
            self.add_source(source, format == PeopleFormat::Owners);
        }
        self.check_parents_end();
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        Ok(People::assemble(self.files, self.people, self.groups))
    }

    /// Adds one source; `prefixed` when its group ids are made from an
    /// OWNERS file's `prefix`.
    fn add_source(&mut self, source: SourceRoster, prefixed: bool) {
        self.source += 1;
        self.files.extend(source.files);
        let mut in_source: HashMap<String, Place> = HashMap::new();
        // Room for the source's people at once: grown by doubling, the
        // vector kept up to twice the room while the source's own was alive.
        self.people.reserve(source.people.len());
        let local: Vec<usize> = source
            .people
            .into_iter()
            .map(|person| {
                self.check_listed_once(&person, &mut in_source);
                self.add_person(person)
            })
            .collect();
        let base = self.groups.len();
        for SourceGroup {
            mut group,
            by_login,
            at,
        } in source.groups
        {
            self.claim_group_id(&group.id, &at, prefixed);
            group.at.get_or_insert(at);
            for member in &mut group.members {
                member.person = local[member.person];
            }
            group.parent = group.parent.map(|p| p + base);
            // Who is in the group already: one lookup per login, so that
            // an OWNERS file of many approvers reads in linear time.
            let mut listed: HashSet<usize> = group.members.iter().map(|m| m.person).collect();
            for member in by_login {
                if self.budget.is_none() {
                    break; // reported: the rest would be as incomplete
                }
                let expanded = self.expand(&member.login, &member.at, &mut Vec::new());
                for &person in expanded.iter() {
                    if listed.insert(person) && self.spend(1, &member.at) {
                        group.members.push(Member {
                            person,
                            status: member.status.clone(),
                            role: None,
                            fields: Vec::new(),
                            at: Some(member.at.clone()),
                        });
                    }
                }
            }
            self.groups.push(group);
        }
    }

    /// Reports parent links that lead back to where they start (rust-team's
    /// `subteam-of`): such groups have no top-level ancestor, and would be
    /// left out of every listing. Each cycle once; linear in the groups.
    fn check_parents_end(&mut self) {
        // 0: not seen, 1: on the current walk, 2: done.
        let mut state = vec![0u8; self.groups.len()];
        for start in 0..self.groups.len() {
            let mut walk = Vec::new();
            let mut at = Some(start);
            while let Some(group) = at.filter(|&g| state[g] != 2) {
                if state[group] == 1 {
                    let from = walk.iter().position(|&g| g == group).unwrap_or(0);
                    self.parent_cycle(&walk[from..]);
                    break;
                }
                state[group] = 1;
                walk.push(group);
                at = self.groups[group].parent;
            }
            for group in walk {
                state[group] = 2;
            }
        }
    }

    /// Reports the cycle of parent links through `groups`.
    fn parent_cycle(&mut self, groups: &[usize]) {
        let mut path: Vec<&str> = groups.iter().map(|&g| self.groups[g].id.as_str()).collect();
        let Some(&first) = groups.first() else {
            return;
        };
        path.push(&self.groups[first].id);
        let mut error = Diagnostic::error(
            Code::Cycle,
            format!(
                "groups form a cycle through their parents: {}",
                path.join(" -> ")
            ),
        )
        .with_label("this group's parent leads back to it")
        .with_help("make one of them a top-level group");
        if let Some(at) = &self.groups[first].at {
            error = error.at(at);
        }
        self.errors.push(error);
    }

    /// Reports a login a source lists twice (`alice` and `ALICE` are one
    /// account): every format says who a person is once.
    fn check_listed_once(&mut self, person: &Person, seen: &mut HashMap<String, Place>) {
        let (Some(login), Some(at)) = (&person.github, &person.at) else {
            return;
        };
        match seen.get(&login.to_lowercase()) {
            Some(first) => {
                let where_first = match Arc::ptr_eq(&first.file, &at.file) {
                    true => format!("line {}", first.line()),
                    false => format!("`{}`", first.file.name),
                };
                let error = Diagnostic::error(
                    Code::Duplicate,
                    format!("`{login}` is listed twice in one people source"),
                )
                .at(at)
                .with_label("a second entry for this login")
                .with_note(format!("first listed in {where_first}"))
                .with_help("list each person once (logins are compared ignoring case)");
                self.errors.push(error);
            }
            None => {
                seen.insert(login.to_lowercase(), at.clone());
            }
        }
    }

    /// Adds `person`, or fills the gaps of the person with the same login
    /// (or, when either has none, the same e-mail address).
    fn add_person(&mut self, person: Person) -> usize {
        let key = person.github.as_ref().map(|l| l.to_lowercase());
        let email = person.email.as_ref().map(|e| e.to_lowercase());
        if let Some(&index) = key.as_ref().and_then(|k| self.by_login.get(k)) {
            fill_gaps(&mut self.people[index], person);
            return index;
        }
        let same_email = (email.as_ref().and_then(|e| self.by_email.get(e)))
            .filter(|(_, source)| *source != self.source)
            .map(|(index, _)| *index);
        if let Some(index) = same_email.filter(|&i| {
            let existing = &self.people[i].github;
            existing.is_none() || key.is_none()
        }) {
            let had_login = self.people[index].github.is_some();
            fill_gaps(&mut self.people[index], person);
            if !had_login && let Some(key) = key {
                self.by_login.insert(key, index);
            }
            return index;
        }
        let index = self.people.len();
        if let Some(key) = key {
            self.by_login.insert(key, index);
        }
        if let Some(email) = email {
            self.by_email.entry(email).or_insert((index, self.source));
        }
        self.claim_handle(&person, index);
        self.people.push(person);
        index
    }

    /// Reports a handle an earlier person has: `{{#person HANDLE}}` would
    /// find only one of them.
    fn claim_handle(&mut self, person: &Person, index: usize) {
        let handle = nfc(&person.handle).into_owned();
        let Some(&first) = self.by_handle.get(&handle) else {
            self.by_handle.insert(handle, index);
            return;
        };
        let first = &self.people[first];
        let account = |p: &Person| match &p.github {
            Some(login) => format!("GitHub `{login}`"),
            None => "no GitHub login".to_string(),
        };
        let mut error = Diagnostic::error(
            Code::Duplicate,
            format!(
                "two people have the handle `{}`: one with {}, one with {}",
                person.handle,
                account(first),
                account(person)
            ),
        )
        .with_label("a second person with this handle")
        .with_help(
            "give one of them another handle, or the same `github` login if they are one person",
        );
        if let Some(at) = &first.at {
            error = error.with_note(format!(
                "the first is in `{}`, line {}",
                at.file.name,
                at.line()
            ));
        }
        if let Some(at) = &person.at {
            error = error.at(at);
        }
        self.errors.push(error);
    }

    /// Checks a group id the way the native format does, and reports an
    /// id an earlier definition has.
    fn claim_group_id(&mut self, id: &str, at: &Place, prefixed: bool) {
        if let Err(why) = check_handle(id) {
            let error = Diagnostic::error(Code::InvalidName, format!("group id `{id}` {why}"))
                .at(at)
                .with_label("not usable as a group id");
            self.errors.push(error);
            return;
        }
        let Some((first, first_prefixed)) = self.group_at.get(id) else {
            self.group_at.insert(id.to_string(), (at.clone(), prefixed));
            return;
        };
        let error = match (first_prefixed, prefixed) {
            (false, true) => made_from_prefix(id, first, at),
            (true, false) => made_from_prefix(id, at, first),
            _ => defined_twice(id, first, at),
        };
        self.errors.push(error);
    }

    /// The people `login` stands for: an alias's members, or one person.
    fn expand(&mut self, login: &str, at: &Place, stack: &mut Vec<String>) -> Arc<[usize]> {
        if !self.aliases.contains_key(login) {
            if let Err(error) = check_login_at(login, at) {
                self.errors.push(error);
                return Arc::from([]);
            }
            return Arc::from([self.add_person(person_of_login(login, at))]);
        }
        match self.expanded.get(login) {
            Some(Expansion::Done(people)) => return Arc::clone(people),
            Some(Expansion::Running) => {
                self.cycle(login, at, stack);
                return Arc::from([]);
            }
            None => {}
        }
        self.expanded.insert(login.to_string(), Expansion::Running);
        stack.push(login.to_string());
        let members = self.aliases.get(login).cloned().unwrap_or_default();
        let mut seen = HashSet::new();
        let mut people = Vec::new();
        for (member, member_at) in members {
            if self.budget.is_none() {
                break;
            }
            let expanded = self.expand(&member, &member_at, stack);
            for &person in expanded.iter() {
                if seen.insert(person) && self.spend(1, &member_at) {
                    people.push(person);
                }
            }
        }
        stack.pop();
        let people: Arc<[usize]> = people.into();
        let done = Expansion::Done(Arc::clone(&people));
        self.expanded.insert(login.to_string(), done);
        people
    }

    /// Reports the cycle `stack` closes by coming back to `login`.
    fn cycle(&mut self, login: &str, at: &Place, stack: &[String]) {
        let start = stack.iter().position(|s| s == login).unwrap_or(0);
        let mut path: Vec<&str> = stack[start..].iter().map(String::as_str).collect();
        path.push(login);
        let error = Diagnostic::error(
            Code::Cycle,
            format!("aliases form a cycle: {}", path.join(" -> ")),
        )
        .at(at)
        .with_label("this alias leads back to itself");
        self.errors.push(error);
    }

    /// Takes `count` memberships from the budget; reports (once) and
    /// refuses when it is spent.
    fn spend(&mut self, count: usize, at: &Place) -> bool {
        let Some(left) = self.budget else {
            return false;
        };
        if let Some(left) = left.checked_sub(count) {
            self.budget = Some(left);
            return true;
        }
        self.budget = None;
        let error = Diagnostic::error(
            Code::InvalidData,
            format!("the aliases expand to more than {MAX_MEMBERSHIPS} group memberships"),
        )
        .at(at)
        .with_label("expansion stopped here")
        .with_help(
            "an alias that lists aliases takes in all of their members: list people rather than aliases of aliases",
        );
        self.errors.push(error);
        false
    }
}

/// Fills the fields `existing` lacks from `later` (a later source).
fn fill_gaps(existing: &mut Person, later: Person) {
    if existing.github.is_none() && later.github.is_some() {
        existing.github = later.github.clone();
        existing.url = existing.url.take().or(later.url.clone());
    }
    if existing.name == existing.handle && later.name != later.handle {
        existing.name = later.name;
    }
    let default_url = existing
        .github
        .as_ref()
        .map(|l| format!("https://github.com/{l}"));
    let later_default = later
        .github
        .as_ref()
        .map(|l| format!("https://github.com/{l}"));
    if existing.url == default_url && later.url.is_some() && later.url != later_default {
        existing.url = later.url;
    }
    existing.email = existing.email.take().or(later.email);
    existing.affiliation = existing.affiliation.take().or(later.affiliation);
    existing.avatar = existing.avatar.take().or(later.avatar);
    for (key, value) in later.fields {
        if existing.fields.iter().all(|(k, _)| *k != key) {
            existing.fields.push((key, value));
        }
    }
}

/// The error for a group id defined twice by sources that name it.
fn defined_twice(id: &str, first: &Place, at: &Place) -> Diagnostic {
    let message = if Arc::ptr_eq(&first.file, &at.file) {
        format!("group `{id}` is defined twice in `{}`", at.file.name)
    } else {
        format!(
            "group `{id}` is defined by two sources: `{}` and `{}`",
            first.file.name, at.file.name
        )
    };
    Diagnostic::error(Code::Duplicate, message)
        .at(at)
        .with_note(format!("first defined on line {}", first.line()))
        .with_help("rename one of them; group ids name groups in directives")
}

/// The error for a group id that an OWNERS file's `prefix` makes (at
/// `generated`, its list) and another source defines (at `named`, an
/// alias): located at the name, with the `prefix` setting as the fix.
fn made_from_prefix(id: &str, named: &Place, generated: &Place) -> Diagnostic {
    let list = id.rsplit('-').next().unwrap_or(id);
    let prefix = id.strip_suffix(&format!("-{list}")).unwrap_or(id);
    let owners = &generated.file.name;
    Diagnostic::error(
        Code::Duplicate,
        format!(
            "group `{id}` is defined in `{}` and is also the group `prefix = \"{prefix}\"` makes of the {list} in `{owners}`",
            named.file.name
        ),
    )
    .at(named)
    .with_label("defined here")
    .with_note(format!(
        "`{owners}`, line {}: its `{list}` become the group `{id}`",
        generated.line()
    ))
    .with_help(format!(
        "give `{owners}` another prefix in book.toml, one no alias or group starts with: people = [..., {{ path = \"{owners}\", prefix = \"{prefix}-root\" }}]"
    ))
}
