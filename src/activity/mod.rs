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

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::config::Settings;
use crate::date::Day;
use crate::diagnostic::plural;
use crate::people::People;
use git::{Commit, End};
use identity::{Cache, Ident, Index};

/// How a commit was found to be someone's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Match {
    /// The author's or committer's e-mail is the person's in the roster.
    Email,
    /// A GitHub no-reply address names the person's login.
    Noreply,
    /// `.mailmap` maps the address to one of those.
    Mailmap,
    /// A `Co-authored-by:` trailer names the person's address or login.
    Trailer,
    /// The name alone, unique in the roster.
    Name,
}

impl Match {
    /// The name `roster --format json` gives it.
    pub fn name(self) -> &'static str {
        match self {
            Match::Email => "email",
            Match::Noreply => "noreply",
            Match::Mailmap => "mailmap",
            Match::Trailer => "trailer",
            Match::Name => "name",
        }
    }
}

/// A person's last counted commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// Its day (UTC): when they wrote it (as author or co-author) or
    /// committed it, the later of the two when both.
    pub day: Day,
    /// How it was matched.
    pub how: Match,
    /// The address (or, for [`Match::Name`], the name) as the commit has it.
    pub identity: String,
    /// For [`Match::Mailmap`], the address `.mailmap` gives it.
    pub mapped: Option<String>,
    /// The commit's hash.
    pub commit: String,
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

/// When each person of a roster last committed.
#[derive(Debug)]
pub struct Activity {
    /// How much of the history was read.
    pub history: History,
    /// By person (index into [`People::people`]).
    seen: Vec<Option<Seen>>,
    /// Person by handle.
    by_handle: HashMap<String, usize>,
    index: Index,
}

impl Activity {
    /// Person `person`'s last counted commit.
    pub fn of(&self, person: usize) -> Option<&Seen> {
        self.seen.get(person)?.as_ref()
    }

    /// The last counted commit of the person with `handle`.
    pub fn of_handle(&self, handle: &str) -> Option<&Seen> {
        self.of(*self.by_handle.get(handle)?)
    }

    /// Whether a match by `name` counts (the name is unique in the roster).
    pub fn unique_name(&self, name: &str) -> bool {
        self.index.unique_name(name)
    }
}

/// The activity of `people` in the repository the book is in.
pub fn load(settings: &Settings, people: &People) -> Activity {
    let index = Index::of(people);
    let mut seen = vec![None; people.people.len()];
    let history = match crate::paths::repository_of(&settings.root) {
        None => History::NoRepository {
            root: settings.root.clone(),
        },
        Some(repository) => read(
            &repository,
            settings.activity_max_commits,
            &index,
            people,
            &mut seen,
        ),
    };
    let by_handle = (people.people.iter().enumerate())
        .map(|(at, p)| (p.handle.clone(), at))
        .rev()
        .collect();
    Activity {
        history,
        seen,
        by_handle,
        index,
    }
}

/// Reads the history of `repository` into `seen`.
fn read(
    repository: &Path,
    max: Option<u64>,
    index: &Index,
    people: &People,
    seen: &mut [Option<Seen>],
) -> History {
    let failed = |why: String| History::Failed {
        repository: repository.to_path_buf(),
        why,
    };
    let shallow = match git::is_shallow(repository) {
        Ok(shallow) => shallow,
        Err(why) => return failed(why),
    };
    let mut wanted = (people.people.iter())
        .filter(|p| !identity::is_bot_person(p))
        .count();
    let mut oldest: Option<Day> = None;
    let mut cache = Cache::default();
    let mut visit = |commit: &Commit<'_>| {
        let day = Day::from_unix(commit.committed);
        oldest = Some(oldest.map_or(day, |o| o.min(day)));
        wanted -= record(commit, index, &mut cache, seen).min(wanted);
        // A shallow history is read whole, to count it.
        wanted > 0 || shallow
    };
    match git::log(repository, max, &mut visit) {
        Err(why) => failed(why),
        Ok((commits, _)) if shallow => History::Shallow { commits },
        Ok((commits, end)) => History::Read {
            commits,
            oldest,
            limit: (end == End::Limit).then_some(max).flatten(),
        },
    }
}

/// Records `commit` for everyone it counts for who has no commit yet;
/// returns how many people were found.
fn record(
    commit: &Commit<'_>,
    index: &Index,
    cache: &mut Cache,
    seen: &mut [Option<Seen>],
) -> usize {
    let mut found: Vec<(usize, Match, i64, Ident<'_>)> = Vec::new();
    let roles = [
        (commit.author, commit.authored, false),
        (commit.committer, commit.committed, false),
    ];
    let co_authors = commit.co_authors().map(|i| (i, commit.authored, true));
    for (ident, time, trailer) in roles.into_iter().chain(co_authors) {
        let Some((person, how)) = index.identify_cached(&ident, trailer, cache) else {
            continue;
        };
        if seen.get(person).is_none_or(Option::is_some) {
            continue;
        }
        match found.iter_mut().find(|f| f.0 == person) {
            // The best match, and the later time, of the person's roles.
            Some(f) => {
                if how < f.1 {
                    (f.1, f.3) = (how, ident);
                }
                f.2 = f.2.max(time);
            }
            None => found.push((person, how, time, ident)),
        }
    }
    for (person, how, time, ident) in &found {
        seen[*person] = Some(Seen {
            day: Day::from_unix(*time),
            how: *how,
            identity: match how {
                Match::Name => ident.mapped_name.to_string(),
                _ => ident.email.to_string(),
            },
            mapped: (*how == Match::Mailmap).then(|| ident.mapped_email.to_string()),
            commit: commit.hash.to_string(),
        });
    }
    found.len()
}
