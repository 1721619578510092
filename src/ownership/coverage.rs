//! Coverage: for every file of the repository, who owns it and whether one
//! of them is active; for CODEOWNERS, which rules match some file. Made
//! once per run (in one pass over the files, each tried against the rules
//! that can match it, or walked up the OWNERS tree), and read by
//! `{{#codeowners coverage}}`, the `unowned` finding, C405 and `owners`.

use std::collections::{BTreeMap, HashMap};

use super::Ownership;
use crate::ownership::codeowners::Owner;
use crate::ownership::repository::Repository;

/// The owners a file has: a CODEOWNERS rule's, or the approvers an OWNERS
/// tree gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerSet {
    /// The owners (OWNERS approvers as `@login` users).
    pub owners: Vec<Owner>,
    /// Whether one of them is active.
    pub active: bool,
    /// How many distinct active people they are (a team counted by its
    /// serving members when the roster knows it).
    pub active_people: u32,
}

/// Who an owner is, as the caller knows it: the keys of the active people
/// it stands for (a user: themselves, when they serve; a team: its serving
/// members), empty when none is active. The roster's answer (see
/// `people::People::active_people`), or every owner as one active person
/// when there is no roster.
pub type Judge<'a> = &'a dyn Fn(&Owner) -> Vec<String>;

/// How owners are judged without a roster: each is one active person.
pub fn without_roster(owner: &Owner) -> Vec<String> {
    vec![owner.text.to_lowercase()]
}

/// An owner set of `owners`, judged by `judge`.
fn owner_set(owners: Vec<Owner>, judge: Judge<'_>) -> OwnerSet {
    let mut people: Vec<String> = owners.iter().flat_map(judge).collect();
    people.sort_unstable();
    people.dedup();
    OwnerSet {
        active: !people.is_empty(),
        active_people: people.len().min(u32::MAX as usize) as u32,
        owners,
    }
}

/// Who owns each file of a repository.
#[derive(Debug, Clone)]
pub struct Coverage {
    /// Per file of the repository, in its order: its owner set, `None`
    /// when nothing gives it owners.
    of_file: Vec<Option<u32>>,
    /// The distinct owner sets (for CODEOWNERS, one per rule, by index,
    /// then GitLab's combinations of sections).
    sets: Vec<OwnerSet>,
    /// For CODEOWNERS, whether each rule matches some file; empty for an
    /// OWNERS tree.
    rule_matches: Vec<bool>,
}

/// One folder's figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderCoverage {
    /// The folder, relative to the root, with a trailing `/`.
    pub folder: String,
    /// Files below it.
    pub files: usize,
    /// Of those, the files with an active owner.
    pub owned: usize,
    /// The owners of its files, those owning the most files first.
    pub owners: Vec<Owner>,
}

impl Coverage {
    /// The coverage of `repository` by `ownership`, each owner judged by
    /// `judge`.
    pub fn compute(repository: &Repository, ownership: &Ownership, judge: Judge<'_>) -> Coverage {
        match ownership {
            Ownership::CodeOwners(codeowners) => {
                let mut sets: Vec<OwnerSet> = (codeowners.rules().iter())
                    .map(|rule| owner_set(rule.owners.clone(), judge))
                    .collect();
                // GitLab: a file that several sections own has their
                // owners together, one set per distinct list of rules.
                let mut combined: HashMap<Vec<usize>, u32> = HashMap::new();
                let mut rule_matches = vec![false; codeowners.rules().len()];
                let of_file = (repository.files().iter())
                    .map(
                        |path| match codeowners.rules_of_marking(path, &mut rule_matches)[..] {
                            [] => None,
                            [rule] => Some(rule as u32),
                            ref rules => {
                                Some(*combined.entry(rules.to_vec()).or_insert_with(|| {
                                    let owners = union(rules.iter().map(|&r| &sets[r].owners));
                                    sets.push(owner_set(owners, judge));
                                    (sets.len() - 1) as u32
                                }))
                            }
                        },
                    )
                    .collect();
                Coverage {
                    of_file,
                    sets,
                    rule_matches,
                }
            }
            Ownership::Owners(tree) => {
                let mut sets: Vec<OwnerSet> = Vec::new();
                let mut interned: HashMap<Vec<String>, u32> = HashMap::new();
                let of_file = (repository.files().iter())
                    .map(|path| {
                        let approvers = tree.owners_of(path).approvers;
                        if approvers.is_empty() {
                            return None;
                        }
                        let next = sets.len() as u32;
                        let id = *interned.entry(approvers.clone()).or_insert(next);
                        if id == next {
                            let owners = (approvers.iter())
                                .map(|l| super::user(tree.as_written(l)))
                                .collect();
                            sets.push(owner_set(owners, judge));
                        }
                        Some(id)
                    })
                    .collect();
                Coverage {
                    of_file,
                    sets,
                    rule_matches: Vec::new(),
                }
            }
        }
    }

    /// The owner set of file `index`, when something gives it owners.
    pub fn owners_of_file(&self, index: usize) -> Option<&OwnerSet> {
        let set = self.of_file.get(index).copied().flatten()?;
        self.sets.get(set as usize)
    }

    /// The number of files.
    pub fn files(&self) -> usize {
        self.of_file.len()
    }

    /// Whether file `index` (of the repository's files) has an active
    /// owner.
    pub fn is_owned(&self, index: usize) -> bool {
        self.of_file
            .get(index)
            .copied()
            .flatten()
            .is_some_and(|set| self.sets[set as usize].active)
    }

    /// How many distinct active people own file `index` (0 when nothing
    /// gives it owners).
    pub fn active_people(&self, index: usize) -> u32 {
        (self.of_file.get(index).copied().flatten())
            .map_or(0, |set| self.sets[set as usize].active_people)
    }

    /// The files with no active owner, with one, and with two or more.
    pub fn by_active_people(&self) -> [usize; 3] {
        let mut counts = [0; 3];
        for index in 0..self.files() {
            counts[self.active_people(index).min(2) as usize] += 1;
        }
        counts
    }

    /// The number of files with an active owner.
    pub fn owned(&self) -> usize {
        (0..self.files()).filter(|&i| self.is_owned(i)).count()
    }

    /// Whether CODEOWNERS rule `rule` matches some file (always true for
    /// an OWNERS tree).
    pub fn rule_matches(&self, rule: usize) -> bool {
        self.rule_matches.get(rule).copied().unwrap_or(true)
    }

    /// The folders of `repository` down to `depth` (1: the top-level
    /// folders), each with the figures of every file below it, in the
    /// order of a tree (a folder before what is in it).
    pub fn folders(&self, repository: &Repository, depth: usize) -> Vec<FolderCoverage> {
        let mut folders: BTreeMap<&str, (usize, usize, HashMap<u32, usize>)> = BTreeMap::new();
        for (index, path) in repository.files().iter().enumerate() {
            let owned = self.is_owned(index);
            let slashes = path.match_indices('/').map(|(at, _)| at).take(depth);
            for end in slashes {
                let entry = folders.entry(&path[..=end]).or_default();
                entry.0 += 1;
                entry.1 += usize::from(owned);
                if let Some(set) = self.of_file[index] {
                    *entry.2.entry(set).or_default() += 1;
                }
            }
        }
        folders
            .into_iter()
            .map(|(folder, (files, owned, sets))| FolderCoverage {
                folder: folder.to_string(),
                files,
                owned,
                owners: self.owners_by_count(sets),
            })
            .collect()
    }

    /// The owners of sets counted by files, those owning the most first
    /// (then in the order of their sets).
    fn owners_by_count(&self, sets: HashMap<u32, usize>) -> Vec<Owner> {
        let mut sets: Vec<(u32, usize)> = sets.into_iter().collect();
        sets.sort_unstable();
        let mut counts: Vec<(Owner, usize)> = Vec::new();
        for (set, files) in sets {
            for owner in &self.sets[set as usize].owners {
                match counts.iter_mut().find(|(o, _)| o.text == owner.text) {
                    Some((_, n)) => *n += files,
                    None => counts.push((owner.clone(), files)),
                }
            }
        }
        counts.sort_by_key(|c| std::cmp::Reverse(c.1));
        counts.into_iter().map(|(owner, _)| owner).collect()
    }

    /// The files without an active owner, summed up by folder in at most
    /// `lines` folders where it can be: the deepest folders that keep it to
    /// that many (more when the top-level folders alone are more), those
    /// with the most unowned files first. Files at the root are in the
    /// folder `""`.
    pub fn unowned_by_folder(&self, repository: &Repository, lines: usize) -> Vec<UnownedFolder> {
        self.short_by_folder(repository, lines, 1)
    }

    /// The files with fewer than `min` active owners, summed up by folder
    /// as [`unowned_by_folder`](Self::unowned_by_folder) sums the files
    /// with none (`min` 1).
    pub fn short_by_folder(
        &self,
        repository: &Repository,
        lines: usize,
        min: u32,
    ) -> Vec<UnownedFolder> {
        let unowned: Vec<usize> = (0..self.files())
            .filter(|&i| self.active_people(i) < min)
            .collect();
        if unowned.is_empty() {
            return Vec::new();
        }
        let deepest = (unowned.iter())
            .map(|&i| repository.files()[i].matches('/').count())
            .max()
            .unwrap_or(0);
        let mut depth = 1;
        while depth < deepest && groups(repository, &unowned, depth + 1).len() <= lines {
            depth += 1;
        }
        let mut groups = groups(repository, &unowned, depth);
        groups.sort_by(|a, b| {
            b.unowned
                .cmp(&a.unowned)
                .then_with(|| a.folder.cmp(&b.folder))
        });
        groups
    }
}

/// The owners of `sets` together, each once.
fn union<'a>(sets: impl Iterator<Item = &'a Vec<Owner>>) -> Vec<Owner> {
    let mut out: Vec<Owner> = Vec::new();
    for owner in sets.flatten() {
        if !out.iter().any(|o| o.text.eq_ignore_ascii_case(&owner.text)) {
            out.push(owner.clone());
        }
    }
    out
}

/// A folder's files without an active owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnownedFolder {
    /// The folder, with a trailing `/` (`""`: the root's own files).
    pub folder: String,
    /// Its files without an active owner.
    pub unowned: usize,
    /// All its files.
    pub files: usize,
}

/// The files `unowned` (indices) by their folder cut at `depth` folders.
fn groups(repository: &Repository, unowned: &[usize], depth: usize) -> Vec<UnownedFolder> {
    let cut = |path: &str| -> usize {
        match path.match_indices('/').nth(depth - 1) {
            Some((at, _)) => at + 1,
            None => path.rfind('/').map_or(0, |at| at + 1),
        }
    };
    let files = repository.files();
    let mut counts: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for &i in unowned {
        counts.entry(&files[i][..cut(&files[i])]).or_default().0 += 1;
    }
    for path in files {
        if let Some(entry) = counts.get_mut(&path[..cut(path)]) {
            entry.1 += 1;
        }
    }
    counts
        .into_iter()
        .map(|(folder, (unowned, files))| UnownedFolder {
            folder: folder.to_string(),
            unowned,
            files,
        })
        .collect()
}
