//! The roster: the people and groups of every source `people` names, each
//! read in its own format, merged into one [`People`].
//!
//! People are one person across sources when their GitHub logins match
//! (case-insensitively): the first source that gives a field wins, later
//! ones fill gaps. A group id is defined by one source only. Members that a
//! source names by login (OWNERS files) are resolved when merging, so that
//! an OWNERS_ALIASES source expands the aliases any OWNERS file lists.

mod all_contributors;
mod maintainers_csv;
mod markdown;
mod native;
mod owners;
mod rust_team;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use super::people::{Group, Member, People, Person, check_login};
use crate::config::{PeopleFormat, PeopleSource, Settings};
use crate::diagnostic::{Code, Diagnostic, Place, SourceFile};
use crate::mdbook::MarkdownOptions;

/// One source, read.
pub(super) struct SourceRoster {
    /// Its files, the main one first.
    pub files: Vec<Arc<SourceFile>>,
    /// Its people, with every default filled in.
    pub people: Vec<Person>,
    /// Its groups.
    pub groups: Vec<SourceGroup>,
    /// What was read but is worth a word: entries that could not be read,
    /// a link whose text and URL name different logins.
    pub warnings: Vec<Diagnostic>,
}

/// A group as a source defines it.
pub(super) struct SourceGroup {
    /// Members point into the source's people; `parent` into its groups.
    pub group: Group,
    /// Members the source names by login, resolved when merging.
    pub by_login: Vec<ByLogin>,
    /// Where the group is defined (its id).
    pub at: Place,
}

/// A member named by login, which may be an OWNERS_ALIASES alias.
pub(super) struct ByLogin {
    /// The login or alias as written.
    pub login: String,
    /// The membership's status.
    pub status: Option<String>,
    /// Where it is written.
    pub at: Place,
}

/// The roster, or its errors; and the warnings its sources gave either way.
pub type Read = (Result<People, Vec<Diagnostic>>, Vec<Diagnostic>);

/// Reads every source (relative to `root`) and merges them; Markdown
/// sources are read with `markdown`.
pub(super) fn read_sources(
    sources: &[PeopleSource],
    root: &Path,
    markdown: MarkdownOptions,
) -> Read {
    let mut read = Vec::new();
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for source in sources {
        let full = root.join(&source.path);
        let display = crate::paths::display(&source.path);
        match read_source(source, &full, &display, markdown) {
            Ok(mut roster) => {
                warnings.append(&mut roster.warnings);
                read.push((source.format, roster));
            }
            Err(found) => errors.extend(found),
        }
    }
    if !errors.is_empty() {
        return (Err(errors), warnings);
    }
    (Merger::default().merge(read), warnings)
}

fn read_source(
    source: &PeopleSource,
    full: &Path,
    display: &str,
    markdown: MarkdownOptions,
) -> Result<SourceRoster, Vec<Diagnostic>> {
    match source.format {
        PeopleFormat::Markdown => markdown::read(full, display, markdown),
        PeopleFormat::Community => native::read(full, display),
        PeopleFormat::AllContributors => all_contributors::read(full, display),
        PeopleFormat::OwnersAliases => owners::read_aliases(full, display),
        PeopleFormat::Owners => {
            owners::read_owners(full, display, source.prefix.as_deref().unwrap_or_default())
        }
        PeopleFormat::RustTeam => rust_team::read(full, display),
        PeopleFormat::MaintainersCsv => maintainers_csv::read(full, display),
    }
}

/// This plugin's people file from text, as the roster it is (for tests
/// and fuzzing).
pub fn parse_native(text: &str, is_json: bool) -> Result<People, Vec<Diagnostic>> {
    let source = native::parse(text, is_json)?;
    Merger::default().merge(vec![(PeopleFormat::Community, source)])
}

/// A person known only by a GitHub login.
pub(super) fn person_of_login(login: &str, at: &Place) -> Person {
    Person {
        handle: login.to_string(),
        name: login.to_string(),
        github: Some(login.to_string()),
        url: Some(match login.strip_suffix("[bot]") {
            Some(app) => format!("https://github.com/apps/{app}"),
            None => format!("https://github.com/{login}"),
        }),
        email: None,
        affiliation: None,
        avatar: None,
        fields: Vec::new(),
        at: Some(at.clone()),
    }
}

/// An empty group with `id` and `title`.
pub(super) fn group(id: &str, title: &str) -> Group {
    Group {
        id: id.to_string(),
        title: title.to_string(),
        description: None,
        parent: None,
        members: Vec::new(),
        github_teams: Vec::new(),
        at: None,
    }
}

/// The error for a login that GitHub would not accept, at `at`.
pub(super) fn check_login_at(login: &str, at: &Place) -> Result<(), Diagnostic> {
    check_login(login).map_err(|why| {
        Diagnostic::error(Code::InvalidName, format!("`{login}` {why}"))
            .at(at)
            .with_label("not a GitHub login")
    })
}

/// The roster being merged.
#[derive(Default)]
struct Merger {
    files: Vec<Arc<SourceFile>>,
    people: Vec<Person>,
    by_login: HashMap<String, usize>,
    groups: Vec<Group>,
    group_at: HashMap<String, Place>,
    /// OWNERS_ALIASES aliases: their members by login.
    aliases: HashMap<String, Vec<(String, Place)>>,
    errors: Vec<Diagnostic>,
}

impl Merger {
    fn merge(
        mut self,
        sources: Vec<(PeopleFormat, SourceRoster)>,
    ) -> Result<People, Vec<Diagnostic>> {
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
        for (_, source) in sources {
            self.add_source(source);
        }
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        Ok(People::assemble(self.files, self.people, self.groups))
    }

    fn add_source(&mut self, source: SourceRoster) {
        self.files.extend(source.files);
        let local: Vec<usize> = source
            .people
            .into_iter()
            .map(|person| self.add_person(person))
            .collect();
        let base = self.groups.len();
        for SourceGroup {
            mut group,
            by_login,
            at,
        } in source.groups
        {
            self.claim_group_id(&group.id, &at);
            group.at.get_or_insert(at);
            for member in &mut group.members {
                member.person = local[member.person];
            }
            group.parent = group.parent.map(|p| p + base);
            // Who is in the group already: one lookup per login, so that
            // an OWNERS file of many approvers reads in linear time.
            let mut listed: HashSet<usize> = group.members.iter().map(|m| m.person).collect();
            for member in by_login {
                let expanded = self.expand(&member.login, &member.at, &mut Vec::new());
                for person in expanded {
                    if listed.insert(person) {
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

    /// Adds `person`, or fills the gaps of the person with the same login.
    fn add_person(&mut self, person: Person) -> usize {
        let key = person.github.as_ref().map(|l| l.to_lowercase());
        if let Some(&index) = key.as_ref().and_then(|k| self.by_login.get(k)) {
            fill_gaps(&mut self.people[index], person);
            return index;
        }
        let index = self.people.len();
        if let Some(key) = key {
            self.by_login.insert(key, index);
        }
        self.people.push(person);
        index
    }

    /// Reports a group id a former source defined already.
    fn claim_group_id(&mut self, id: &str, at: &Place) {
        match self.group_at.get(id) {
            Some(first) => {
                let error = Diagnostic::error(
                    Code::Duplicate,
                    format!(
                        "group `{id}` is defined by two sources: `{}` and `{}`",
                        first.file.name, at.file.name
                    ),
                )
                .at(at)
                .with_help("rename one of them; group ids name groups in directives");
                self.errors.push(error);
            }
            None => {
                self.group_at.insert(id.to_string(), at.clone());
            }
        }
    }

    /// The people `login` stands for: an alias's members, or one person.
    fn expand(&mut self, login: &str, at: &Place, stack: &mut Vec<String>) -> Vec<usize> {
        let Some(members) = self.aliases.get(login).cloned() else {
            if let Err(error) = check_login_at(login, at) {
                self.errors.push(error);
                return Vec::new();
            }
            return vec![self.add_person(person_of_login(login, at))];
        };
        if stack.iter().any(|s| s == login) {
            stack.push(login.to_string());
            let error = Diagnostic::error(
                Code::Cycle,
                format!("aliases form a cycle: {}", stack.join(" -> ")),
            )
            .at(at)
            .with_label("this alias leads back to itself");
            stack.pop();
            self.errors.push(error);
            return Vec::new();
        }
        stack.push(login.to_string());
        let mut people = Vec::new();
        for (member, member_at) in members {
            for person in self.expand(&member, &member_at, stack) {
                if !people.contains(&person) {
                    people.push(person);
                }
            }
        }
        stack.pop();
        people
    }
}

/// Fills the fields `existing` lacks from `later` (a later source).
fn fill_gaps(existing: &mut Person, later: Person) {
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

/// Reads the roster `settings` name, for [`super::Data`].
pub(super) fn load(settings: &Settings) -> Read {
    let default = [PeopleSource::default_file()];
    let sources = if settings.people.is_empty() {
        &default[..]
    } else {
        &settings.people[..]
    };
    read_sources(sources, &settings.root, settings.markdown)
}

/// A Markdown people file from text, as the roster it is, and its
/// warnings (for tests and fuzzing).
pub fn parse_markdown(text: &str, name: &str) -> Read {
    let file = Arc::new(SourceFile::new(name.to_string(), text.to_string()));
    let options = MarkdownOptions::defaults(crate::mdbook::Generation::V05);
    let mut source = markdown::parse(file, options);
    let warnings = std::mem::take(&mut source.warnings);
    let merged = Merger::default().merge(vec![(PeopleFormat::Markdown, source)]);
    (merged, warnings)
}
