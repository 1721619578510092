//! The one pass over the log: every identity a commit names (author,
//! committer, co-authors) kept once with its newest commit, and the
//! merges read for what they say (`merges.rs`). Memory grows with the
//! identities, not the commits: at most [`MAX_IDENTITIES`] are kept.

use std::collections::HashMap;

use super::git::Commit;
use super::identity::{Ident, Index, Owner, is_bot};
use super::merges::Merges;
use crate::date::Day;

/// The most identities kept of each kind (each a few hundred bytes); a
/// history of more strangers than this is matched on the ones met first.
const MAX_IDENTITIES: usize = 100_000;

/// One identity as commits name it, with its newest commit.
#[derive(Debug, Clone)]
pub struct Record {
    /// The address as written.
    pub email: String,
    /// The address `.mailmap` gives it.
    pub mapped_email: String,
    /// The name as written.
    pub name: String,
    /// The name `.mailmap` gives it.
    pub mapped_name: String,
    /// The newest time it wrote or committed a commit (Unix seconds).
    pub newest: i64,
    /// That commit's hash.
    pub commit: String,
}

impl Record {
    fn of(ident: &Ident<'_>, time: i64, hash: &str) -> Record {
        Record {
            email: ident.email.to_string(),
            mapped_email: ident.mapped_email.to_string(),
            name: ident.name.to_string(),
            mapped_name: ident.mapped_name.to_string(),
            newest: time,
            commit: hash.to_string(),
        }
    }

    /// The record as an [`Ident`] again.
    pub fn ident(&self) -> Ident<'_> {
        Ident {
            key: &self.email,
            email: &self.email,
            mapped_email: &self.mapped_email,
            name: &self.name,
            mapped_name: &self.mapped_name,
        }
    }
}

/// What the walk has read.
#[derive(Debug)]
pub struct Walk<'a> {
    index: &'a Index,
    /// Authors and committers, by their key.
    pub plain: HashMap<String, Record>,
    /// Co-authors, by their trailer.
    pub trailers: HashMap<String, Record>,
    /// The merges.
    pub merges: Merges,
    /// The oldest commit's day.
    pub oldest: Option<Day>,
    /// People the roster's own addresses found.
    found: Vec<bool>,
    /// How many are not found yet.
    wanted: usize,
}

impl<'a> Walk<'a> {
    /// A walk looking for the `wanted` people of `index` (of `people` in
    /// all).
    pub fn new(index: &'a Index, people: usize, wanted: usize) -> Walk<'a> {
        Walk {
            index,
            plain: HashMap::new(),
            trailers: HashMap::new(),
            merges: Merges::default(),
            oldest: None,
            found: vec![false; people],
            wanted,
        }
    }

    /// Reads `commit`; whether anyone is still wanted (everyone the
    /// roster's own addresses name found, the walk may stop).
    pub fn visit(&mut self, commit: &Commit<'_>) -> bool {
        let day = Day::from_unix(commit.committed);
        self.oldest = Some(self.oldest.map_or(day, |o| o.min(day)));
        let roles = [
            (commit.author, commit.authored),
            (commit.committer, commit.committed),
        ];
        for (ident, time) in roles {
            self.keep(&ident, time, commit.hash, false);
        }
        for ident in commit.co_authors() {
            self.keep(&ident, commit.authored, commit.hash, true);
        }
        self.merges.visit(commit);
        self.wanted > 0
    }

    /// Keeps `ident`'s newest commit.
    fn keep(&mut self, ident: &Ident<'_>, time: i64, hash: &str, trailer: bool) {
        if is_bot(ident.name, ident.email) || is_bot(ident.mapped_name, ident.mapped_email) {
            return;
        }
        let records = match trailer {
            true => &mut self.trailers,
            false => &mut self.plain,
        };
        if let Some(record) = records.get_mut(ident.key) {
            if time > record.newest {
                record.newest = time;
                record.commit = hash.to_string();
            }
            return;
        }
        if records.len() >= MAX_IDENTITIES {
            return;
        }
        records.insert(ident.key.to_string(), Record::of(ident, time, hash));
        if let Some((Owner::One(person), _)) = self.index.identify(ident)
            && let Some(found) = self.found.get_mut(person)
            && !*found
        {
            *found = true;
            self.wanted = self.wanted.saturating_sub(1);
        }
    }
}
