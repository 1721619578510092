//! Activity: when each person of the roster last committed, read from the
//! git history of the repository the book is in, offline. Read once per
//! run, and only when something asks (`check-activity`, a `last-active`
//! column, `roster --format json`).
//!
//! The history is read newest first, so the first commit that counts for
//! a person is their last one; the walk stops as soon as everyone has
//! been found, or at `activity-max-commits`. A shallow clone, a book in no
//! repository, or a `git` that cannot run are said ([`History`]), never
//! guessed from.

mod git;
pub mod identity;
mod merges;
mod resolve;
mod walk;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::config::Settings;
use crate::date::Day;
use crate::diagnostic::plural;
use crate::people::{People, Person};
use git::End;
use identity::Index;
use resolve::Found;
use walk::Walk;

/// How an identity was found to be someone's: the evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Match {
    /// The author's or committer's e-mail is the person's in the roster.
    Email,
    /// A GitHub no-reply address names the person's login.
    Noreply,
    /// `.mailmap` maps the address to one of those.
    Mailmap,
    /// The address wrote most of the commits of the pull requests GitHub
    /// merged from the person's login (or the login's newest merged pull
    /// request, once that address is theirs).
    MergedPr,
    /// A `Co-authored-by:` trailer names one of the person's identities.
    CoAuthor,
    /// The name, unique in the roster and in the history.
    Name,
}

impl Match {
    /// The name `roster --format json` gives it.
    pub fn name(self) -> &'static str {
        match self {
            Match::Email => "email",
            Match::Noreply => "noreply",
            Match::Mailmap => "mailmap",
            Match::MergedPr => "merged-pr",
            Match::CoAuthor => "co-author",
            Match::Name => "name",
        }
    }
}

/// An identity of a person and its newest commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// Its day (UTC): when they wrote it (as author or co-author) or
    /// committed it, the later of the two when both.
    pub day: Day,
    /// How the identity was found to be theirs.
    pub how: Match,
    /// The address as commits have it (for [`Match::Name`], the name; for
    /// a merged pull request, `#N`).
    pub identity: String,
    /// What else there is to say: for [`Match::Mailmap`] the address
    /// `.mailmap` gives it, for [`Match::MergedPr`] why the address is
    /// theirs.
    pub detail: Option<String>,
    /// The commit's hash.
    pub commit: String,
}

/// What was tried for a person: `login `x`, name `y``.
pub fn tried(person: &Person) -> String {
    let mut what = Vec::new();
    if let Some(email) = &person.email {
        what.push(format!("e-mail `{email}`"));
    }
    if let Some(login) = &person.github {
        what.push(format!("login `{login}`"));
    }
    if !person.name.trim().is_empty() && Some(&person.name) != person.github.as_ref() {
        what.push(format!("name `{}`", person.name));
    }
    what.join(", ")
}

/// How much of the history could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum History {
    /// Read newest first: `commits` of them, back to `oldest` (the day of
    /// the oldest commit read; `None` for a repository without commits).
    /// `limit` when `activity-max-commits` ended the walk.
    Read {
        /// Commits read.
        commits: usize,
        /// The oldest commit's day.
        oldest: Option<Day>,
        /// The limit that stopped the walk, if one did.
        limit: Option<u64>,
    },
    /// A shallow clone: only its newest `commits` are there.
    Shallow {
        /// Commits in the clone (at most `activity-max-commits`).
        commits: usize,
    },
    /// The book is in no git repository.
    NoRepository {
        /// The book root the search started from.
        root: PathBuf,
    },
    /// `git` could not run or could not read the repository.
    Failed {
        /// The repository.
        repository: PathBuf,
        /// What git said.
        why: String,
    },
}

impl History {
    /// Why the history cannot say who is inactive, if it cannot.
    pub fn cannot_judge(&self) -> Option<String> {
        match self {
            History::Read { .. } => None,
            History::Shallow { commits } => Some(format!(
                "the history is shallow: {}; activity not judged",
                plural(*commits, "commit")
            )),
            History::NoRepository { root } => Some(format!(
                "the book is in no git repository (no `.git` in {} or a folder above it); activity not judged",
                root.display()
            )),
            History::Failed { repository, why } => Some(format!(
                "cannot read the git history of {}: {why}; activity not judged",
                repository.display()
            )),
        }
    }
}

/// When each person of a roster last committed, and how they were found.
#[derive(Debug)]
pub struct Activity {
    /// How much of the history was read.
    pub history: History,
    /// By person (index into [`People::people`]).
    found: Vec<Found>,
    /// Person by handle.
    by_handle: HashMap<String, usize>,
}

impl Activity {
    /// Person `person`'s last counted commit: the newest of their
    /// identities'.
    pub fn of(&self, person: usize) -> Option<&Seen> {
        self.found.get(person)?.evidence.first()
    }

    /// Each identity of person `person`, with its newest commit, newest
    /// first.
    pub fn evidence(&self, person: usize) -> &[Seen] {
        self.found
            .get(person)
            .map_or(&[], |f| f.evidence.as_slice())
    }

    /// Why an identity that could be person `person`'s was not counted.
    pub fn ambiguous(&self, person: usize) -> Option<&str> {
        self.found.get(person)?.ambiguous.as_deref()
    }

    /// The index of the person with `handle`.
    pub fn person(&self, handle: &str) -> Option<usize> {
        self.by_handle.get(handle).copied()
    }
}

/// The activity of `people` in the repository the book is in.
pub fn load(settings: &Settings, people: &People) -> Activity {
    let index = Index::of(people);
    let (history, found) = match crate::paths::repository_of(&settings.root) {
        None => (
            History::NoRepository {
                root: settings.root.clone(),
            },
            Vec::new(),
        ),
        Some(repository) => read(&repository, settings.activity_max_commits, &index, people),
    };
    let by_handle = (people.people.iter().enumerate())
        .map(|(at, p)| (p.handle.clone(), at))
        .rev()
        .collect();
    Activity {
        history,
        found,
        by_handle,
    }
}

/// Reads the history of `repository`: how much, and what it says of each
/// person.
fn read(
    repository: &Path,
    max: Option<u64>,
    index: &Index,
    people: &People,
) -> (History, Vec<Found>) {
    let failed = |why: String| History::Failed {
        repository: repository.to_path_buf(),
        why,
    };
    let shallow = match git::is_shallow(repository) {
        Ok(shallow) => shallow,
        Err(why) => return (failed(why), Vec::new()),
    };
    let wanted = (people.people.iter())
        .filter(|p| !identity::is_bot_person(p))
        .count();
    let mut walk = Walk::new(index, people.people.len(), wanted);
    // A shallow history is read whole, to count it.
    let mut visit = |commit: &git::Commit<'_>| walk.visit(commit) || shallow;
    let history = match git::log(repository, max, &mut visit) {
        Err(why) => return (failed(why), Vec::new()),
        Ok((commits, _)) if shallow => History::Shallow { commits },
        Ok((commits, end)) => History::Read {
            commits,
            oldest: walk.oldest,
            limit: (end == End::Limit).then_some(max).flatten(),
        },
    };
    (history, resolve::resolve(index, people, &walk))
}
