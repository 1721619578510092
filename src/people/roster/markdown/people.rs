//! What the Markdown reader gathers: groups as the file's headings and
//! labels make them (kept when someone is in them or below them), and
//! people, one per login, nickname or name, however often they are listed.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use super::super::SourceGroup;
use super::entry::Entry;
use super::status::status_in;
use crate::diagnostic::{Place, SourceFile};
use crate::people::{Group, Member, Person};

/// One person in one group.
#[derive(Debug, Clone)]
pub struct Membership {
    pub person: usize,
    pub status: Option<&'static str>,
    pub role: Option<String>,
    pub fields: Vec<(String, String)>,
    pub place: Place,
}

/// A group as the file makes it, before it is known to hold anyone.
struct Draft {
    title: String,
    parent: Option<usize>,
    status: Option<&'static str>,
    teams: Vec<String>,
    /// `teams`, for one lookup per mention: a group's text may mention
    /// thousands.
    claimed: HashSet<String>,
    place: Place,
    members: Vec<Membership>,
    /// Where each person is in `members`: one lookup per entry, so that
    /// a table of many people reads in linear time.
    listed: HashMap<usize, usize>,
}

/// The groups of one file.
pub struct Drafts {
    file: Arc<SourceFile>,
    drafts: Vec<Draft>,
    /// The headings above the current place: level and draft.
    stack: Vec<(u8, usize)>,
    /// The group of people above every heading, named after the file.
    default: Option<usize>,
}

impl Drafts {
    pub fn new(file: &Arc<SourceFile>) -> Self {
        Drafts {
            file: Arc::clone(file),
            drafts: Vec::new(),
            stack: Vec::new(),
            default: None,
        }
    }

    fn push(&mut self, title: &str, parent: Option<usize>, range: Range<usize>) -> usize {
        let inherited = parent.and_then(|p| self.drafts[p].status);
        self.drafts.push(Draft {
            title: title.to_string(),
            parent,
            status: status_in(title).or(inherited),
            teams: Vec::new(),
            claimed: HashSet::new(),
            place: Place::new(&self.file, range),
            members: Vec::new(),
            listed: HashMap::new(),
        });
        self.drafts.len() - 1
    }

    /// A heading of `level`: a group under the nearest heading above it.
    pub fn heading(&mut self, level: u8, title: &str, range: Range<usize>) {
        while self.stack.last().is_some_and(|&(l, _)| l >= level) {
            self.stack.pop();
        }
        let parent = self.stack.last().map(|&(_, draft)| draft);
        let draft = self.push(title, parent, range);
        self.stack.push((level, draft));
    }

    /// A label paragraph: a group under the current heading.
    pub fn label(&mut self, title: &str, range: Range<usize>) -> usize {
        let parent = self.stack.last().map(|&(_, draft)| draft);
        self.push(title, parent, range)
    }

    /// A label under `parent` (a list item that labels the list in it).
    pub fn label_under(&mut self, parent: usize, title: &str, range: Range<usize>) -> usize {
        self.push(title, Some(parent), range)
    }

    /// The group of the current place: the nearest heading's, or the
    /// file's own before any heading.
    pub fn current(&mut self) -> usize {
        if let Some(&(_, draft)) = self.stack.last() {
            return draft;
        }
        if let Some(default) = self.default {
            return default;
        }
        let stem = self.file.name.rsplit(['/', '\\']).next().unwrap_or("");
        let stem = stem.split('.').next().unwrap_or("").to_lowercase();
        let stem = if stem.is_empty() || stem == "readme" {
            "maintainers".to_string()
        } else {
            stem
        };
        let draft = self.push(&crate::unicode::sentence_case(&stem), None, 0..0);
        self.default = Some(draft);
        draft
    }

    /// The group's title, for messages.
    pub fn title(&self, group: usize) -> &str {
        &self.drafts[group].title
    }

    /// The group's parent, and whether anyone is in the group yet.
    pub fn parent_of_empty(&self, group: usize) -> Option<Option<usize>> {
        let draft = &self.drafts[group];
        draft.members.is_empty().then_some(draft.parent)
    }

    /// GitHub teams the group's text mentions: the group is them.
    pub fn claim(&mut self, group: usize, teams: Vec<String>) {
        let draft = &mut self.drafts[group];
        for team in teams {
            let team = team.to_lowercase();
            if draft.claimed.insert(team.clone()) {
                draft.teams.push(team);
            }
        }
    }

    /// Adds `membership`; the line of the first when the person is in the
    /// group already (then it is not added again). A second role of
    /// theirs (a table row per feature area) joins the first.
    pub fn add(&mut self, group: usize, mut membership: Membership) -> Option<usize> {
        let draft = &mut self.drafts[group];
        if let Some(&at) = draft.listed.get(&membership.person) {
            let first = &mut draft.members[at];
            return match (&mut first.role, membership.role) {
                (Some(roles), Some(role)) if !roles.split("; ").any(|r| r == role) => {
                    roles.push_str("; ");
                    roles.push_str(&role);
                    None
                }
                _ => Some(first.place.line()),
            };
        }
        // `active` (a status column that says so) overrides the group's.
        membership.status = match membership.status {
            Some("active") => None,
            None => draft.status,
            status => status,
        };
        draft.listed.insert(membership.person, draft.members.len());
        draft.members.push(membership);
        None
    }

    /// The groups someone is in or below, with unique ids from their
    /// titles; `persons` maps the memberships' people.
    pub fn finish(self, persons: &[usize]) -> Vec<SourceGroup> {
        let mut kept = vec![false; self.drafts.len()];
        for (index, draft) in self.drafts.iter().enumerate() {
            if !draft.members.is_empty() {
                let mut at = Some(index);
                while let Some(i) = at.filter(|&i| !kept[i]) {
                    kept[i] = true;
                    at = self.drafts[i].parent;
                }
            }
        }
        let mut new_index = vec![None; self.drafts.len()];
        let mut ids: HashMap<String, usize> = HashMap::new();
        let mut groups = Vec::new();
        for (index, draft) in self.drafts.into_iter().enumerate() {
            if !kept[index] {
                continue;
            }
            new_index[index] = Some(groups.len());
            let id = unique_id(&draft.title, &mut ids);
            groups.push(group_of(draft, id, &new_index, persons));
        }
        groups
    }
}

fn group_of(
    draft: Draft,
    id: String,
    new_index: &[Option<usize>],
    persons: &[usize],
) -> SourceGroup {
    let members = (draft.members.into_iter())
        .map(|m| Member {
            person: persons[m.person],
            status: m.status.map(str::to_string),
            role: m.role,
            fields: m.fields,
            at: Some(m.place),
        })
        .collect();
    let group = Group {
        id,
        title: draft.title,
        description: None,
        parent: draft.parent.and_then(|p| new_index[p]),
        members,
        github_teams: draft.teams,
        at: Some(draft.place.clone()),
    };
    SourceGroup {
        group,
        by_login: Vec::new(),
        at: draft.place,
    }
}

/// A group id from a title: letters and digits in lower case, other
/// runs as one `-`; `-2`, `-3`... when taken.
fn unique_id(title: &str, taken: &mut HashMap<String, usize>) -> String {
    let mut base = String::new();
    for c in title.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            base.push(c);
        } else if !base.ends_with('-') && !base.is_empty() {
            base.push('-');
        }
    }
    let base = match base.trim_end_matches('-') {
        "" => "group".to_string(),
        trimmed => trimmed.to_string(),
    };
    let count = taken.entry(base.clone()).or_insert(0);
    *count += 1;
    match *count {
        1 => base,
        n => format!("{base}-{n}"),
    }
}

/// The people of one file, each once.
#[derive(Default)]
pub struct Persons {
    people: Vec<Person>,
    nicks: Vec<Option<String>>,
    /// `l:login`, `n:nick`, `m:name` (lower case) to a person.
    by_key: HashMap<String, usize>,
}

impl Persons {
    /// The person `entry` names (one listed before, or a new one).
    pub fn add(&mut self, entry: Entry, place: &Place) -> usize {
        let login = entry.login.as_ref().map(|(l, _)| l.to_lowercase());
        let nick = entry.nick.as_ref().map(|n| n.to_lowercase());
        let name = entry.name.as_ref().map(|n| n.to_lowercase());
        let found = match (&login, &nick, &name) {
            (Some(login), _, _) => self
                .key(&format!("l:{login}"))
                .or(self.key(&format!("n:{login}"))),
            (None, Some(nick), _) => self
                .key(&format!("l:{nick}"))
                .or(self.key(&format!("n:{nick}"))),
            (None, None, Some(name)) => self.key(&format!("m:{name}")),
            (None, None, None) => None,
        };
        let index = match found {
            Some(index) => {
                fill(&mut self.people[index], &entry);
                index
            }
            None => self.new_person(&entry, place),
        };
        for (prefix, key) in [("l", login), ("n", nick), ("m", name)] {
            if let Some(key) = key {
                self.by_key
                    .entry(format!("{prefix}:{key}"))
                    .or_insert(index);
            }
        }
        index
    }

    fn key(&self, key: &str) -> Option<usize> {
        self.by_key.get(key).copied()
    }

    fn new_person(&mut self, entry: &Entry, place: &Place) -> usize {
        let login = entry.login.as_ref().map(|(l, _)| l.clone());
        let shown = (entry.name.clone())
            .or(login.clone())
            .or(entry.nick.clone())
            .unwrap_or_default();
        self.people.push(Person {
            handle: String::new(),
            name: shown,
            url: login.as_ref().map(|l| format!("https://github.com/{l}")),
            github: login,
            email: entry.email.clone(),
            affiliation: entry.affiliation.clone(),
            avatar: None,
            fields: Vec::new(),
            at: Some(place.clone()),
        });
        self.nicks.push(entry.nick.clone());
        self.people.len() - 1
    }

    /// The person a bare word names: a login or nickname the file gives.
    pub fn known(&self, word: &str) -> Option<usize> {
        let word = word.to_lowercase();
        self.key(&format!("l:{word}"))
            .or(self.key(&format!("n:{word}")))
    }

    /// How messages name a person.
    pub fn shown(&self, index: usize) -> String {
        let person = &self.people[index];
        match &person.github {
            Some(login) => format!("`{login}`"),
            None => format!("`{}`", person.name),
        }
    }

    /// The people, each with a handle (their login, else nickname, else
    /// their name's slug, unique), and where each index went.
    pub fn finish(self) -> (Vec<Person>, Vec<usize>) {
        let mut taken: HashMap<String, usize> = HashMap::new();
        let mut people = self.people;
        for (person, nick) in people.iter_mut().zip(self.nicks) {
            let base = (person.github.clone())
                .or(nick)
                .unwrap_or_else(|| person.name.clone());
            person.handle = unique_id(&base, &mut taken);
            if let Some(login) = &person.github {
                // A login keeps its case as written.
                if person.handle.eq_ignore_ascii_case(login) {
                    person.handle = login.clone();
                }
            }
        }
        let indices = (0..people.len()).collect();
        (people, indices)
    }
}

/// Fills what `person` lacks from a later entry of theirs.
fn fill(person: &mut Person, entry: &Entry) {
    if person.github.is_none()
        && let Some((login, _)) = &entry.login
    {
        person.github = Some(login.clone());
        person.url = Some(format!("https://github.com/{login}"));
    }
    if person.name == person.github.clone().unwrap_or_default()
        && let Some(name) = &entry.name
    {
        person.name = name.clone();
    }
    person.email = person.email.take().or(entry.email.clone());
    person.affiliation = person.affiliation.take().or(entry.affiliation.clone());
}
