//! What GitHub's merge commits say about who is who, read in the same one
//! pass over the log as everything else.
//!
//! `Merge pull request #N from LOGIN/branch` names the pull request's
//! author. The commits it brings in (`merge^1..merge^2`) are found by
//! walking first parents from `merge^2` as the log reaches them, newest
//! first, until the first-parent line of `HEAD` (which the merge's first
//! parent is on) or another merge's branch: a commit both of two merges
//! bring in belongs to the older one, as `merge^1..merge^2` of the newer
//! leaves out what its first parent already holds. Each branch is walked
//! at most [`MAX_BRANCH`] commits, and every map is bounded, so memory
//! grows with the people and the open branches, not the commits.
//!
//! An author's address (and name) is the login's when it wrote more than
//! half of the commits of the login's merged pull requests, in at least
//! two of them: a branch that carries someone else's commits, or a login
//! whose one pull request was someone else's work, teaches nothing.
//!
//! The log is in git's default order, where a commit comes after the
//! children the walk came through; with commit dates that run backwards,
//! the first-parent line can be lost, and a branch walk then ends at its
//! bound instead, still counted under the majority rule.

use std::collections::HashMap;

use super::git::Commit;
use super::identity::{is_bot, name_key};

/// The most commits one merge's branch is walked (GitHub shows 250).
const MAX_BRANCH: u16 = 250;
/// The most branch commits waiting to be reached at once.
const MAX_PENDING: usize = 100_000;
/// The most logins and (login, address) pairs counted.
const MAX_COUNTED: usize = 100_000;

/// A GitHub pull request merge's number and its head's owner, from the
/// subject `Merge pull request #N from LOGIN/branch`; `None` for any
/// other subject (`Merge branch 'x'`, a missing or invalid login, no
/// branch).
pub fn pull_request(subject: &str) -> Option<(u64, &str)> {
    let rest = subject.strip_prefix("Merge pull request #")?;
    let (number, rest) = rest.split_once(' ')?;
    let number: u64 = number.parse().ok()?;
    let head = rest.strip_prefix("from ")?;
    let (login, branch) = head.split_once('/')?;
    (is_login(login) && !branch.trim().is_empty() && !branch.contains(' '))
        .then_some((number, login))
}

/// Whether `login` can be a GitHub login: 1 to 39 letters, digits and
/// single hyphens, not at either end.
pub fn is_login(login: &str) -> bool {
    !login.is_empty()
        && login.len() <= 39
        && login
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && !login.starts_with('-')
        && !login.ends_with('-')
        && !login.contains("--")
}

/// A branch commit waiting to be reached: which merge brings it in (the
/// merge's order in the log: a later one is older) and how deep in the
/// branch it is.
#[derive(Debug, Clone, Copy)]
struct Claim {
    merge: u32,
    /// The login, when the merge is a pull request's.
    login: Option<u32>,
    depth: u16,
}

/// What one login's merged pull requests hold.
#[derive(Debug)]
struct Login {
    /// As the subject writes it.
    written: String,
    /// Commits counted in its pull requests.
    total: u32,
    /// The newest merge: its commit time, hash and pull request number.
    newest: (i64, String, u64),
}

/// How often an address wrote a login's merged commits.
#[derive(Debug, Default, Clone, Copy)]
struct Count {
    commits: u32,
    /// In how many of the login's pull requests.
    pulls: u32,
    /// The last merge counted, to count pull requests once.
    last: u32,
}

/// The merge commits read so far.
#[derive(Debug, Default)]
pub struct Merges {
    /// The next commit on `HEAD`'s first-parent line; `None` before the
    /// first commit.
    mainline: Option<String>,
    /// Whether the first commit has been read.
    started: bool,
    pending: HashMap<String, Claim>,
    merges: u32,
    logins: Vec<Login>,
    login_ids: HashMap<String, u32>,
    /// By login and lowercased author address.
    counts: HashMap<(u32, String), Count>,
    /// By login and author name ([`name_key`]).
    name_counts: HashMap<(u32, String), Count>,
    /// An address's name, as its commits in pull requests have it.
    names: HashMap<String, String>,
}

/// What the merges taught: an address that is a login's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Learned {
    /// The login as the merges write it.
    pub login: String,
    /// The lowercased address.
    pub email: String,
    /// The name its commits carry.
    pub name: String,
    /// Its commits in the login's pull requests, and all of theirs.
    pub commits: u32,
    /// All commits of the login's pull requests.
    pub total: u32,
    /// The login's newest merged pull request: commit time, hash, number.
    pub newest: (i64, String, u64),
}

impl Merges {
    /// Reads `commit`.
    pub fn visit(&mut self, commit: &Commit<'_>) {
        let mut parents = commit.parents.split_ascii_whitespace();
        let first = parents.next();
        let second = parents.next();
        let on_mainline = match &self.mainline {
            _ if !self.started => true,
            Some(next) => next == commit.hash,
            None => false,
        };
        self.started = true;
        if on_mainline {
            self.mainline = first.map(str::to_string);
        }
        let claim = self.pending.remove(commit.hash).filter(|_| !on_mainline);
        if let Some(claim) = claim {
            if second.is_none() {
                self.count(claim, commit);
            }
            if let Some(first) = first.filter(|_| claim.depth < MAX_BRANCH) {
                let next = Claim {
                    depth: claim.depth + 1,
                    ..claim
                };
                self.claim(first, next);
            }
        }
        if let Some(second) = second {
            self.merge(commit, second);
        }
    }

    /// A merge commit whose second parent is `second`.
    fn merge(&mut self, commit: &Commit<'_>, second: &str) {
        self.merges = self.merges.saturating_add(1);
        let login = pull_request(commit.subject).and_then(|(number, login)| {
            let newest = (commit.committed, commit.hash.to_string(), number);
            self.login(login, newest)
        });
        let claim = Claim {
            merge: self.merges,
            login,
            depth: 0,
        };
        self.claim(second, claim);
    }

    /// The login's id, made on first sight (within the bound).
    fn login(&mut self, login: &str, newest: (i64, String, u64)) -> Option<u32> {
        let key = login.to_ascii_lowercase();
        if let Some(&id) = self.login_ids.get(&key) {
            let known = &mut self.logins[id as usize];
            if newest.0 > known.newest.0 {
                known.newest = newest;
            }
            return Some(id);
        }
        if self.logins.len() >= MAX_COUNTED {
            return None;
        }
        let id = u32::try_from(self.logins.len()).ok()?;
        self.logins.push(Login {
            written: login.to_string(),
            total: 0,
            newest,
        });
        self.login_ids.insert(key, id);
        Some(id)
    }

    /// `hash` is brought in by `claim`'s merge, unless an older merge
    /// (read later) already claims it.
    fn claim(&mut self, hash: &str, claim: Claim) {
        let room = self.pending.len() < MAX_PENDING;
        match self.pending.get_mut(hash) {
            Some(known) if known.merge >= claim.merge => {}
            Some(known) => *known = claim,
            None if room => {
                self.pending.insert(hash.to_string(), claim);
            }
            None => {}
        }
    }

    /// Counts `commit`'s author for `claim`'s login.
    fn count(&mut self, claim: Claim, commit: &Commit<'_>) {
        let Some(login) = claim.login else {
            return;
        };
        let author = &commit.author;
        if is_bot(author.name, author.email) || author.email.trim().is_empty() {
            return;
        }
        let email = author.email.trim().to_lowercase();
        if !self.counts.contains_key(&(login, email.clone())) && self.counts.len() >= MAX_COUNTED {
            return;
        }
        if let Some(known) = self.logins.get_mut(login as usize) {
            known.total += 1;
        }
        let name = name_key(author.name);
        if !self.names.contains_key(&email) && self.names.len() < MAX_COUNTED {
            self.names.insert(email.clone(), author.name.to_string());
        }
        add(&mut self.counts, (login, email), claim.merge);
        if !name.is_empty()
            && (self.name_counts.len() < MAX_COUNTED
                || self.name_counts.contains_key(&(login, name.clone())))
        {
            add(&mut self.name_counts, (login, name), claim.merge);
        }
    }

    /// Whether `count` of `login`'s commits is a clear majority: more
    /// than half, in at least two pull requests.
    fn clear(&self, login: u32, count: &Count) -> bool {
        self.logins.get(login as usize).is_some_and(|of| {
            u64::from(count.commits) * 2 > u64::from(of.total) && count.pulls >= 2
        })
    }

    /// Every login's name ([`name_key`]): the one that wrote more than half
    /// of its merged commits, in at least two of its pull requests; as
    /// (login, name key).
    pub fn learned_names(&self) -> Vec<(String, String)> {
        let mut learned: Vec<(String, String)> = (self.name_counts.iter())
            .filter(|((login, _), count)| self.clear(*login, count))
            .filter_map(|((login, key), _)| {
                Some((
                    self.logins.get(*login as usize)?.written.clone(),
                    key.clone(),
                ))
            })
            .collect();
        learned.sort();
        learned
    }

    /// Every login's address: the one that wrote more than half of its
    /// merged commits, in at least two of its pull requests.
    pub fn learned(&self) -> Vec<Learned> {
        let mut learned: Vec<Learned> = (self.counts.iter())
            .filter_map(|((login, email), count)| {
                let of = self.logins.get(*login as usize)?;
                self.clear(*login, count).then(|| Learned {
                    login: of.written.clone(),
                    email: email.clone(),
                    name: self.names.get(email).cloned().unwrap_or_default(),
                    commits: count.commits,
                    total: of.total,
                    newest: of.newest.clone(),
                })
            })
            .collect();
        learned.sort_by(|a, b| (&a.login, &a.email).cmp(&(&b.login, &b.email)));
        learned
    }
}

/// Counts one commit of merge `merge` under `key`.
fn add(counts: &mut HashMap<(u32, String), Count>, key: (u32, String), merge: u32) {
    let count = counts.entry(key).or_default();
    count.commits += 1;
    if count.last != merge {
        count.pulls += 1;
        count.last = merge;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_githubs_subjects_name_a_login() {
        assert_eq!(
            pull_request("Merge pull request #14079 from sbueringer/pr-prom-pq-rrl"),
            Some((14079, "sbueringer"))
        );
        assert_eq!(
            pull_request("Merge pull request #7 from Ada-L/fix/deep"),
            Some((7, "Ada-L"))
        );
        for subject in [
            "Merge branch 'x'",
            "Merge pull request #1 from",
            "Merge pull request #1 from ada",
            "Merge pull request #1 from ada/",
            "Merge pull request #x from ada/b",
            "Merge pull request #1 from a_b/c",
            "Merge pull request #1 from -ada/c",
            "Merge pull request #1 from ada--x/c",
            "Merge pull request #1 from a da/c",
            "Merge remote-tracking branch 'origin/main'",
        ] {
            assert_eq!(pull_request(subject), None, "{subject}");
        }
        assert!(!is_login(&"a".repeat(40)));
    }

    /// Reads `log` (newest first: hash, author, parents, subject).
    fn walk(log: &[(&str, &str, &str, &str)]) -> Merges {
        let mut merges = Merges::default();
        for (at, (hash, email, parents, subject)) in log.iter().enumerate() {
            let time = (1_000_000 - at).to_string();
            let fields = [
                hash, email, email, "N", "N", email, email, "N", "N", &time, &time, parents,
                subject, "",
            ];
            let line = fields.join("\0");
            let commit = Commit::parse(&line).expect("a commit");
            merges.visit(&commit);
        }
        merges
    }

    /// The learned addresses as `login email commits/total`.
    fn learned(merges: &Merges) -> Vec<String> {
        (merges.learned().iter())
            .map(|l| format!("{} {} {}/{}", l.login, l.email, l.commits, l.total))
            .collect()
    }

    #[test]
    fn a_branch_is_walked_to_the_first_parent_line_and_counted() {
        // main: r - m1 - m2 - m3; alice's a1, a2 (with carl's c1) and a3.
        let merges = walk(&[
            ("m3", "mia@x", "m2 a3", "Merge pull request #3 from alice/b"),
            ("a3", "Alice@A", "m2", "three"),
            ("m2", "mia@x", "m1 c1", "Merge pull request #2 from alice/a"),
            ("c1", "carl@c", "a2", "carl's"),
            ("a2", "alice@a", "a1", "two"),
            ("a1", "alice@a", "m1", "one"),
            ("m1", "mia@x", "r", "Merge branch 'x'"),
            ("r", "root@r", "", "root"),
        ]);
        assert_eq!(learned(&merges), ["alice alice@a 3/4"]);
    }

    #[test]
    fn a_commit_two_merges_bring_in_is_the_older_ones() {
        // bob's branch starts on alice's before alice's merge.
        let merges = walk(&[
            ("m2", "mia@x", "m1 b1", "Merge pull request #2 from bob/b"),
            ("b1", "bob@b", "a2", "bob's"),
            ("m1", "mia@x", "r a2", "Merge pull request #1 from alice/a"),
            ("a2", "alice@a", "a1", "two"),
            ("a1", "alice@a", "r", "one"),
            ("r", "root@r", "", "root"),
        ]);
        let totals: Vec<(String, u32)> = (merges.logins.iter())
            .map(|l| (l.written.clone(), l.total))
            .collect();
        assert_eq!(totals, [("bob".to_string(), 1), ("alice".to_string(), 2)]);
        // One pull request each: nothing is learned.
        assert!(learned(&merges).is_empty());
    }

    #[test]
    fn one_pull_request_or_no_majority_teaches_nothing() {
        let merges = walk(&[
            ("m3", "mia@x", "m2 p3", "Merge pull request #3 from acme/c"),
            ("p3", "p3@x", "m2", "c"),
            ("m2", "mia@x", "m1 p2", "Merge pull request #2 from acme/b"),
            ("p2", "p2@x", "p1", "b"),
            ("p1", "p1@x", "m1", "a"),
            (
                "m1",
                "mia@x",
                "r v1",
                "Merge pull request #1 from mallory/a",
            ),
            ("v1", "victor@v", "r", "victor's"),
            ("r", "root@r", "", "root"),
        ]);
        assert!(learned(&merges).is_empty());
    }

    proptest::proptest! {
        /// Any subject, parents and authors: no panic, and a login only
        /// from GitHub's own subject.
        #[test]
        fn any_log_is_read_without_panic(
            log in proptest::collection::vec(
                ("[a-d]{1,2}", "[a-c@A-C.]{0,4}", "[a-d ]{0,6}", "(Merge pull request #[0-9]{1,3} from [a-z_-]{0,4}/[a-z ]{0,3}|.{0,12})"),
                0..24,
            )
        ) {
            let mut merges = Merges::default();
            for (at, (hash, email, parents, subject)) in log.iter().enumerate() {
                let time = (1_000_000 - at).to_string();
                let fields = [
                    hash.as_str(), email, email, "N", "N", email, email, "N", "N", &time, &time,
                    parents, subject, "",
                ];
                let line = fields.join("\0");
                if let Some(commit) = Commit::parse(&line) {
                    merges.visit(&commit);
                }
            }
            for learned in merges.learned() {
                proptest::prop_assert!(is_login(&learned.login));
                proptest::prop_assert!(u64::from(learned.commits) * 2 > u64::from(learned.total));
            }
        }
    }
}
