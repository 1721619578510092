//! Who each identity the walk kept is, once the whole walk is read: by
//! what the roster says (`identity.rs`), by what the merges taught
//! (`merges.rs`), and last by a name that only one person has, in the
//! roster and in the history. What is ambiguous (an address two people
//! share, a name two people of the roster have, an address most of two
//! logins' pull requests were written from) is nobody's, and the people it
//! could be are told why.

use std::collections::{HashMap, HashSet};

use super::identity::{Index, Owner, name_key, noreply_login};
use super::merges::Learned;
use super::walk::{Record, Walk};
use super::{Match, Seen};
use crate::date::Day;
use crate::people::People;

/// The most pieces of evidence kept for one person.
const MAX_EVIDENCE: usize = 8;

/// What the history says of one person.
#[derive(Debug, Clone, Default)]
pub struct Found {
    /// Each identity that is theirs with its newest commit, newest first.
    pub evidence: Vec<Seen>,
    /// Why an identity that could be theirs was not counted (shared,
    /// ambiguous), for someone nothing matched.
    pub ambiguous: Option<String>,
}

/// Who an identity is.
#[derive(Debug, Clone)]
enum Who {
    /// The person, how, and what to say of it.
    Person(usize, Match, Option<String>),
    /// Someone else, or more than one person: nobody of the roster.
    Nobody,
    /// Nothing known yet.
    Unknown,
}

/// The person of a name seen with identities known to be someone else's.
const SOMEONE_ELSE: usize = usize::MAX;

struct Resolver<'a> {
    index: &'a Index,
    people: &'a People,
    /// What the merges taught, by lowercased address.
    learned: HashMap<String, Vec<Learned>>,
    /// The people of the roster whose login's merged commits are mostly
    /// under a name, by its [`name_key`].
    learned_names: HashMap<String, HashSet<usize>>,
    found: Vec<Found>,
}

/// What the history says of each person of `people`.
pub fn resolve(index: &Index, people: &People, walk: &Walk<'_>) -> Vec<Found> {
    let mut learned: HashMap<String, Vec<Learned>> = HashMap::new();
    let all = walk.merges.learned();
    for one in &all {
        learned
            .entry(one.email.clone())
            .or_default()
            .push(one.clone());
    }
    let mut learned_names: HashMap<String, HashSet<usize>> = HashMap::new();
    for (login, key) in walk.merges.learned_names() {
        if let Some(person) = index.login(&login) {
            learned_names.entry(key).or_default().insert(person);
        }
    }
    let mut resolver = Resolver {
        index,
        people,
        learned,
        learned_names,
        found: vec![Found::default(); people.people.len()],
    };
    let plain = resolver.identities(&walk.plain, false);
    let trailers = resolver.identities(&walk.trailers, true);
    let mut owned: HashSet<(usize, String)> = HashSet::new();
    for (record, who) in plain.iter().chain(&trailers) {
        if let Who::Person(person, how, detail) = who {
            owned.insert((*person, record.email.trim().to_lowercase()));
            resolver.credit(*person, record, *how, detail.clone());
        }
    }
    resolver.credit_merges(&all, &owned);
    resolver.conflicts(&all);
    for found in &mut resolver.found {
        found
            .evidence
            .sort_by(|a, b| b.day.cmp(&a.day).then(a.how.cmp(&b.how)));
        let mut seen = HashSet::new();
        found
            .evidence
            .retain(|e| seen.insert((e.how, e.identity.to_lowercase())));
        found.evidence.truncate(MAX_EVIDENCE);
    }
    resolver.found
}

impl Resolver<'_> {
    /// Who each of `records` is: by address first, then by name.
    fn identities<'r>(
        &mut self,
        records: &'r HashMap<String, Record>,
        trailer: bool,
    ) -> Vec<(&'r Record, Who)> {
        let mut records: Vec<&Record> = records.values().collect();
        records.sort_by(|a, b| (&a.email, &a.name).cmp(&(&b.email, &b.name)));
        let mut resolved: Vec<(&Record, Who)> = (records.into_iter())
            .map(|r| (r, self.by_address(r)))
            .collect();
        let names = names_known(&resolved);
        for (record, who) in &mut resolved {
            if matches!(who, Who::Unknown) {
                *who = self.by_name(record, &names);
            }
        }
        if trailer {
            for (_, who) in &mut resolved {
                if let Who::Person(_, how, _) = who {
                    *how = Match::CoAuthor;
                }
            }
        }
        resolved
    }

    /// Who `record`'s address is: the roster's, else the merges'.
    fn by_address(&mut self, record: &Record) -> Who {
        match self.index.identify(&record.ident()) {
            Some((Owner::One(person), how)) => {
                let detail = (how == Match::Mailmap).then(|| record.mapped_email.clone());
                Who::Person(person, how, detail)
            }
            Some((Owner::Shared(one, two), _)) => {
                let why = format!(
                    "the address `{}` is both `{}`'s and `{}`'s in the roster",
                    record.email,
                    self.handle(one),
                    self.handle(two)
                );
                self.ambiguous(&[one, two], why);
                Who::Nobody
            }
            None => [&record.email, &record.mapped_email]
                .into_iter()
                .map(|email| self.by_merges(email))
                .find(|who| !matches!(who, Who::Unknown))
                .unwrap_or(Who::Unknown),
        }
    }

    /// Who an address is by the merges: the login most of whose merged
    /// commits it wrote.
    fn by_merges(&mut self, email: &str) -> Who {
        let email = email.trim().to_lowercase();
        let Some(logins) = self.learned.get(&email).cloned() else {
            return Who::Unknown;
        };
        if let [one] = logins.as_slice() {
            // A no-reply address names its own login.
            if noreply_login(&email).is_some_and(|l| !l.eq_ignore_ascii_case(&one.login)) {
                return Who::Nobody;
            }
            return match self.index.login(&one.login) {
                Some(person) => Who::Person(
                    person,
                    Match::MergedPr,
                    Some(format!(
                        "which wrote {} of the {} commits of `{}`'s merged pull requests",
                        one.commits, one.total, one.login
                    )),
                ),
                None => Who::Nobody,
            };
        }
        let names: Vec<String> = logins.iter().map(|l| format!("`{}`", l.login)).collect();
        let why = format!(
            "the address `{email}` wrote most of the merged pull requests of {}",
            names.join(" and ")
        );
        let people: Vec<usize> = (logins.iter())
            .filter_map(|l| self.index.login(&l.login))
            .collect();
        self.ambiguous(&people, why);
        Who::Nobody
    }

    /// Who `record` is by its name: the one person who has it in the
    /// roster or among the identities known, when no identity known to
    /// be someone else's has it too.
    fn by_name(&mut self, record: &Record, known: &HashMap<String, HashSet<usize>>) -> Who {
        for name in [&record.mapped_name, &record.name] {
            let key = name_key(name);
            if key.is_empty() {
                continue;
            }
            let mut holders: HashSet<usize> = known.get(&key).cloned().unwrap_or_default();
            let learned = self.learned_names.get(&key);
            holders.extend(learned.into_iter().flatten());
            let holders = (!holders.is_empty()).then_some(&holders);
            let candidate = match self.index.name(name) {
                Some(Owner::Shared(one, two)) => {
                    let why = format!(
                        "the name `{}` is both `{}`'s and `{}`'s in the roster",
                        name.trim(),
                        self.handle(one),
                        self.handle(two)
                    );
                    self.ambiguous(&[one, two], why);
                    return Who::Nobody;
                }
                Some(Owner::One(person)) => Some(person),
                None => holders.and_then(|h| (h.len() == 1).then(|| h.iter().next().copied())?),
            };
            let Some(person) = candidate.filter(|&p| p != SOMEONE_ELSE) else {
                continue;
            };
            if holders.is_some_and(|h| h.iter().any(|&p| p != person)) {
                return Who::Nobody;
            }
            let detail = learned
                .is_some_and(|l| l.contains(&person))
                .then(|| "the name of most of their merged pull requests' commits".to_string());
            return Who::Person(person, Match::Name, detail);
        }
        Who::Unknown
    }

    /// Counts `record` for `person`.
    fn credit(&mut self, person: usize, record: &Record, how: Match, detail: Option<String>) {
        let identity = match how {
            Match::Name => record.mapped_name.trim().to_string(),
            _ if record.email.is_empty() => record.name.trim().to_string(),
            _ => record.email.clone(),
        };
        if let Some(found) = self.found.get_mut(person) {
            found.evidence.push(Seen {
                day: Day::from_unix(record.newest),
                how,
                identity,
                detail,
                commit: record.commit.clone(),
            });
        }
    }

    /// A login's newest merged pull request counts for its person when
    /// the address that wrote most of its commits is theirs.
    fn credit_merges(&mut self, learned: &[Learned], owned: &HashSet<(usize, String)>) {
        for one in learned {
            let Some(person) = self.index.login(&one.login) else {
                continue;
            };
            if !owned.contains(&(person, one.email.clone())) {
                continue;
            }
            let (time, commit, number) = &one.newest;
            if let Some(found) = self.found.get_mut(person) {
                found.evidence.push(Seen {
                    day: Day::from_unix(*time),
                    how: Match::MergedPr,
                    identity: format!("#{number}"),
                    detail: Some(format!(
                        "pull request #{number} from `{}`, whose commits are mostly `{}`'s",
                        one.login, one.email
                    )),
                    commit: commit.clone(),
                });
            }
        }
    }

    /// A login whose merged commits were mostly written from someone
    /// else's address is told so, if nothing else matched them.
    fn conflicts(&mut self, learned: &[Learned]) {
        for one in learned {
            let Some(person) = self.index.login(&one.login) else {
                continue;
            };
            if let Some((Owner::One(other), _)) = self.index.address(&one.email)
                && other != person
            {
                let why = format!(
                    "the address `{}` that wrote most of `{}`'s merged pull requests is `{}`'s in the roster",
                    one.email,
                    one.login,
                    self.handle(other)
                );
                self.ambiguous(&[person], why);
            }
        }
    }

    /// Records `why` for each of `people` (the first reason is kept).
    fn ambiguous(&mut self, people: &[usize], why: String) {
        for &person in people {
            if let Some(found) = self.found.get_mut(person)
                && found.ambiguous.is_none()
            {
                found.ambiguous = Some(why.clone());
            }
        }
    }

    fn handle(&self, person: usize) -> &str {
        self.people
            .people
            .get(person)
            .map_or("", |p| p.handle.as_str())
    }
}

/// The names of the identities known: who has each ([`SOMEONE_ELSE`] for
/// an identity that is nobody of the roster's).
fn names_known(resolved: &[(&Record, Who)]) -> HashMap<String, HashSet<usize>> {
    let mut names: HashMap<String, HashSet<usize>> = HashMap::new();
    for (record, who) in resolved {
        let person = match who {
            Who::Person(person, _, _) => *person,
            Who::Nobody => SOMEONE_ELSE,
            Who::Unknown => continue,
        };
        for name in [&record.name, &record.mapped_name] {
            let key = name_key(name);
            if !key.is_empty() {
                names.entry(key).or_default().insert(person);
            }
        }
    }
    names
}
