//! The people model every roster becomes, whatever files it was read
//! from (see `data::roster`): who is who, the groups they belong to, and
//! where each was written.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use crate::diagnostic::{Place, SourceFile, Suggestions};
use crate::ownership::codeowners::{Owner, OwnerKind};
use crate::unicode::{is_invisible, nfc};

pub mod copies;
pub mod roster;

pub use crate::config::DEFAULT_FILE;

/// Statuses the format knows, whether or not anyone has them yet:
/// `{{#maintainers}}` accepts them in `hide=` and `only=` (any other status
/// must be someone's, or it is a typo).
pub const KNOWN_STATUSES: &[&str] = &["alumni", "emeritus", "inactive", "retired", "sunsetting"];

/// Everyone in the roster, and the groups.
#[derive(Debug)]
pub struct People {
    /// The roster's first file (what messages name).
    pub file: Arc<SourceFile>,
    /// How messages name the roster: its file, or its files.
    pub name: String,
    /// People, in file order.
    pub people: Vec<Person>,
    /// Groups, in file order.
    pub groups: Vec<Group>,
    by_handle: HashMap<String, usize>,
    /// By GitHub login, lowercased.
    by_login: HashMap<String, usize>,
    /// By e-mail address, lowercased: people without a login are found
    /// by it (a CODEOWNERS owner written as an address).
    by_email: HashMap<String, usize>,
    by_group: HashMap<String, usize>,
    /// Each group's child groups, and (last) the top-level groups, in order.
    children: Vec<Vec<usize>>,
    /// The handles, indexed for the first unknown one a directive names.
    handle_index: OnceLock<Suggestions>,
    /// Whether each person still serves (see [`Standing`]), by index.
    standing: Vec<Standing>,
    /// The statuses of a former membership (`inactive-statuses`).
    inactive: Vec<String>,
}

/// Whether a person still serves: the one answer every consumer uses (the
/// drift checks, coverage, the activity check, the owners tables). A
/// membership is former when its status is one of `inactive-statuses`; a
/// person serves in the groups of their other memberships, and serves
/// overall unless every membership is former (a person in no group
/// serves: an owner is active unless the roster says otherwise).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Standing {
    /// The groups the person serves in, in file order, each once.
    pub serving_in: Vec<usize>,
    /// How many memberships the person has.
    pub memberships: usize,
    /// When every membership is former: the first one's status.
    pub former_status: Option<String>,
}

impl Standing {
    /// Whether the person still serves somewhere (or is in no group).
    pub fn serves(&self) -> bool {
        self.memberships == 0 || !self.serving_in.is_empty()
    }
}

/// One person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    /// The key in `[people.HANDLE]`.
    pub handle: String,
    /// Display name (defaults to the handle).
    pub name: String,
    /// GitHub login, if any (defaults to the handle; `false` for none).
    pub github: Option<String>,
    /// Profile link: `url`, or the GitHub profile.
    pub url: Option<String>,
    /// E-mail address.
    pub email: Option<String>,
    /// Employer or organisation.
    pub affiliation: Option<String>,
    /// Avatar image URL.
    pub avatar: Option<String>,
    /// Free fields (`[people.HANDLE.fields]`), for `columns=`.
    pub fields: Vec<(String, String)>,
    /// Where the person is defined (the first source that names them).
    pub at: Option<Place>,
}

/// A group of people (`[[groups]]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// What directives name.
    pub id: String,
    /// Heading text (defaults to the id).
    pub title: String,
    /// Markdown shown under the heading.
    pub description: Option<String>,
    /// Index of the parent group.
    pub parent: Option<usize>,
    /// Members in data order.
    pub members: Vec<Member>,
    /// GitHub teams this group is (`org/team`, lowercased), from
    /// `github-team`: CODEOWNERS owners `@org/team` mean this group.
    pub github_teams: Vec<String>,
    /// Where the group is defined.
    pub at: Option<Place>,
}

/// A person's membership in a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Index into [`People::people`].
    pub person: usize,
    /// For example `emeritus` or `sunsetting`.
    pub status: Option<String>,
    /// For example `lead`.
    pub role: Option<String>,
    /// Free fields of this membership (`fields = { term = "2027" }`).
    pub fields: Vec<(String, String)>,
    /// Where the membership is written.
    pub at: Option<Place>,
}

impl People {
    /// The roster of `people` and `groups` (whose indices point into
    /// `people` and `groups`) read from `files`, with its lookups. The
    /// first person of a handle or login, and the first group of an id,
    /// win.
    pub fn assemble(
        files: Vec<Arc<SourceFile>>,
        people: Vec<Person>,
        groups: Vec<Group>,
    ) -> People {
        let mut by_handle = HashMap::with_capacity(people.len());
        let mut by_login = HashMap::with_capacity(people.len());
        let mut by_email = HashMap::new();
        for (index, person) in people.iter().enumerate() {
            if let Some(email) = &person.email {
                by_email.entry(email.to_lowercase()).or_insert(index);
            }
            by_handle
                .entry(nfc(&person.handle).into_owned())
                .or_insert(index);
            if let Some(login) = &person.github {
                by_login.entry(login.to_lowercase()).or_insert(index);
            }
        }
        let mut by_group = HashMap::with_capacity(groups.len());
        let mut children = vec![Vec::new(); groups.len() + 1];
        for (index, group) in groups.iter().enumerate() {
            by_group.entry(nfc(&group.id).into_owned()).or_insert(index);
            children[group.parent.unwrap_or(groups.len())].push(index);
        }
        let name = files
            .iter()
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>()
            .join("`, `");
        let file = match files.first() {
            Some(file) => Arc::clone(file),
            None => Arc::new(SourceFile::new(DEFAULT_FILE.to_string(), String::new())),
        };
        let mut people = People {
            file,
            name,
            people,
            groups,
            by_handle,
            by_login,
            by_email,
            by_group,
            children,
            handle_index: OnceLock::new(),
            standing: Vec::new(),
            inactive: Vec::new(),
        };
        people.judge_standing(&crate::config::INACTIVE_STATUSES.map(str::to_string));
        people
    }

    /// Decides each person's [`Standing`] by `inactive` (the book's
    /// `inactive-statuses`): done once, when the roster is loaded.
    pub fn judge_standing(&mut self, inactive: &[String]) {
        self.inactive = inactive.to_vec();
        let mut standing = vec![Standing::default(); self.people.len()];
        for (index, group) in self.groups.iter().enumerate() {
            for member in &group.members {
                let person = &mut standing[member.person];
                person.memberships += 1;
                let status = member.status.as_deref();
                if self.is_former(status) {
                    if person.memberships == 1 {
                        person.former_status = status.map(str::to_string);
                    }
                } else if person.serving_in.last() != Some(&index) {
                    person.serving_in.push(index);
                }
            }
        }
        for person in &mut standing {
            if person.serves() {
                person.former_status = None;
            }
        }
        self.standing = standing;
    }

    /// Whether a membership with `status` is former (the status is one of
    /// `inactive-statuses`).
    pub fn is_former(&self, status: Option<&str>) -> bool {
        status.is_some_and(|s| self.inactive.iter().any(|i| i == s))
    }

    /// Whether person `index` still serves, and where.
    pub fn standing(&self, index: usize) -> &Standing {
        &self.standing[index]
    }

    /// The group that claims the GitHub team `team` (`org/name`, any case).
    pub fn group_of_team(&self, team: &str) -> Option<&Group> {
        let team = team.to_lowercase();
        self.groups.iter().find(|g| g.github_teams.contains(&team))
    }

    /// The person with `handle` (compared in Unicode's NFC form: a handle
    /// typed decomposed finds its composed spelling).
    pub fn person(&self, handle: &str) -> Option<&Person> {
        self.by_handle.get(&*nfc(handle)).map(|&i| &self.people[i])
    }

    /// The person with GitHub login `login` (case-insensitive, as GitHub).
    pub fn by_github(&self, login: &str) -> Option<&Person> {
        self.by_login
            .get(&login.to_lowercase())
            .map(|&i| &self.people[i])
    }

    /// The index of the person with GitHub login `login`.
    pub fn index_by_github(&self, login: &str) -> Option<usize> {
        self.by_login.get(&login.to_lowercase()).copied()
    }

    /// The index of the person with the e-mail address `email` (any case).
    pub fn index_by_email(&self, email: &str) -> Option<usize> {
        self.by_email.get(&email.to_lowercase()).copied()
    }

    /// The person with the e-mail address `email` (any case).
    pub fn by_email(&self, email: &str) -> Option<&Person> {
        self.index_by_email(email).map(|i| &self.people[i])
    }

    /// The group with `id` (compared in NFC, like handles).
    pub fn group(&self, id: &str) -> Option<&Group> {
        self.by_group.get(&*nfc(id)).map(|&i| &self.groups[i])
    }

    /// The handle closest to `handle`, which is no one's (see
    /// [`Suggestions`]): the handles are indexed once, however many
    /// directives name someone who is not in the roster.
    pub fn closest_handle(&self, handle: &str) -> Option<&str> {
        let handles = || self.people.iter().map(|p| p.handle.as_str());
        let index = self
            .handle_index
            .get_or_init(|| Suggestions::new(handles()));
        let closest = index.closest(handle)?;
        self.people.get(closest).map(|p| p.handle.as_str())
    }

    /// Every group id, for suggestions.
    pub fn group_ids(&self) -> impl Iterator<Item = &str> {
        self.groups.iter().map(|g| g.id.as_str())
    }

    /// Every status used anywhere, sorted.
    pub fn statuses(&self) -> Vec<&str> {
        let mut statuses: Vec<&str> = self
            .groups
            .iter()
            .flat_map(|g| g.members.iter().filter_map(|m| m.status.as_deref()))
            .collect();
        statuses.sort_unstable();
        statuses.dedup();
        statuses
    }

    /// The active people a code owner stands for, as keys (see
    /// `ownership::coverage::Judge`): a user or e-mail address of the
    /// roster, themselves when they serve; a team a group claims, its
    /// members who serve in it; an owner the roster does not know (and a
    /// GitLab role), one active person.
    pub fn active_people(&self, owner: &Owner) -> Vec<String> {
        let name = owner.text.trim_start_matches('@');
        let person = match owner.kind {
            OwnerKind::User => self.index_by_github(name),
            OwnerKind::Email => self.by_email.get(&name.to_lowercase()).copied(),
            OwnerKind::Team => {
                let Some(group) = self.group_of_team(name) else {
                    return vec![owner.text.to_lowercase()];
                };
                return (group.members.iter())
                    .filter(|m| !self.is_former(m.status.as_deref()))
                    .map(|m| format!("person:{}", m.person))
                    .collect();
            }
            OwnerKind::Role => None,
        };
        match person {
            Some(i) if self.standing(i).serves() => vec![format!("person:{i}")],
            Some(_) => Vec::new(),
            None => vec![owner.text.to_lowercase()],
        }
    }

    /// The lower-case GitHub logins of the people who no longer serve
    /// (see [`Standing`]).
    pub fn inactive_logins(&self) -> std::collections::HashSet<String> {
        (self.people.iter().zip(&self.standing))
            .filter(|(_, standing)| !standing.serves())
            .filter_map(|(person, _)| Some(person.github.as_ref()?.to_lowercase()))
            .collect()
    }

    /// Groups whose parent is `parent` (`None`: top-level groups), in order.
    pub fn children(&self, parent: Option<usize>) -> impl Iterator<Item = (usize, &Group)> {
        let index = parent.unwrap_or(self.groups.len());
        (self.children.get(index).into_iter().flatten()).map(|&i| (i, &self.groups[i]))
    }
}

/// Whether `url` may be used as a link or image: http, https or mailto, and
/// nothing a Markdown link destination could misread.
pub fn allowed_url(url: &str) -> Result<(), String> {
    let lower = url.trim().to_ascii_lowercase();
    let scheme_ok = ["https://", "http://", "mailto:"]
        .iter()
        .any(|s| lower.starts_with(s) && lower.len() > s.len());
    if !scheme_ok {
        return Err("must be an http, https or mailto URL".into());
    }
    if url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"'))
    {
        return Err("must not contain spaces, quotes, `<` or `>`".into());
    }
    Ok(())
}

/// Handles and group ids are written in directives: no spaces or braces,
/// and nothing invisible.
pub(crate) fn check_handle(handle: &str) -> Result<(), &'static str> {
    if handle.is_empty() {
        return Err("must not be empty");
    }
    if handle.chars().any(is_invisible) {
        return Err("must not contain invisible characters (zero-width or direction marks)");
    }
    if handle
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '{' | '}' | '"' | '=' | ','))
    {
        return Err("must not contain spaces, quotes, braces, `=` or `,`");
    }
    Ok(())
}

/// A GitHub team as `github-team` holds it: `org/team`, the organisation
/// a GitHub login, the team's slug not empty and without `/`. The one
/// check of the native format and of the teams a Markdown roster mentions,
/// so that what `roster --format toml` writes reads back.
pub(crate) fn check_team(team: &str) -> Result<(), &'static str> {
    let valid = team.split_once('/').is_some_and(|(org, name)| {
        check_login(org).is_ok() && !name.is_empty() && !name.contains('/')
    });
    match valid {
        true => Ok(()),
        false => Err("is not a GitHub team (`org/team`)"),
    }
}

/// GitHub logins: letters, digits and single hyphens, at most 39 characters.
pub(crate) fn check_login(login: &str) -> Result<(), &'static str> {
    // GitHub Apps act as `name[bot]`.
    let login = login.strip_suffix("[bot]").unwrap_or(login);
    let ok = !login.is_empty()
        && login.len() <= 39
        && login
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && !login.starts_with('-');
    if ok {
        Ok(())
    } else {
        Err("is not a GitHub login (letters, digits and `-`)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(person: usize, status: Option<&str>) -> Member {
        Member {
            person,
            status: status.map(str::to_string),
            role: None,
            fields: Vec::new(),
            at: None,
        }
    }

    fn group(id: &str, members: Vec<Member>) -> Group {
        Group {
            id: id.into(),
            title: id.into(),
            description: None,
            parent: None,
            members,
            github_teams: Vec::new(),
            at: None,
        }
    }

    fn person(login: &str) -> Person {
        Person {
            handle: login.into(),
            name: login.into(),
            github: Some(login.into()),
            url: None,
            email: None,
            affiliation: None,
            avatar: None,
            fields: Vec::new(),
            at: None,
        }
    }

    /// Former in every group: no longer serves, with the first status;
    /// former in one of two: serves in the other; in no group: serves.
    #[test]
    fn standing_is_decided_once_from_the_inactive_statuses() {
        let people = vec![person("gone"), person("half"), person("nobody")];
        let groups = vec![
            group(
                "core",
                vec![member(0, Some("emeritus")), member(1, Some("alumni"))],
            ),
            group("docs", vec![member(0, Some("alumni")), member(1, None)]),
        ];
        let mut roster = People::assemble(Vec::new(), people, groups);
        assert!(!roster.standing(0).serves());
        assert_eq!(
            roster.standing(0).former_status.as_deref(),
            Some("emeritus")
        );
        assert_eq!(roster.standing(1).serving_in, [1]);
        assert!(roster.standing(2).serves() && roster.standing(2).memberships == 0);
        let gone: Vec<String> = roster.inactive_logins().into_iter().collect();
        assert_eq!(gone, ["gone"]);
        roster.judge_standing(&["emeritus".to_string()]);
        assert_eq!(
            roster.standing(0).serving_in,
            [1],
            "alumni is no longer former"
        );
        assert!(roster.is_former(Some("emeritus")) && !roster.is_former(Some("alumni")));
    }
}
