//! Who owns the repository's files: GitHub's CODEOWNERS file, or
//! Kubernetes' tree of OWNERS files (`ownership`), as one model that
//! `{{#codeowners}}`, the drift check, coverage and `owners` read.
//!
//! [`owners_file`] is the YAML of OWNERS and OWNERS_ALIASES (shared with
//! the roster's readers), [`tree`] the OWNERS tree with Prow's
//! semantics, [`coverage`] the share of files each folder has with an
//! active owner.

pub mod codeowners;
pub mod coverage;
pub mod owners_file;
pub mod repository;
pub mod tree;

use std::path::Path;
use std::sync::Arc;

use crate::config::{OwnershipSource, Settings};
use crate::diagnostic::Diagnostic;
use crate::files::LoadError;
use crate::files::find_in_root_then_parent;
use crate::files::tree::YamlFiles;
use codeowners::CODEOWNERS_CANDIDATES;
use codeowners::{CodeOwners, Dialect, Owner, OwnerKind, Rule};
use repository::Repository;
use tree::{OwnersTree, Source, TreeOwners};

/// The file an OWNERS tree is made of.
pub const OWNERS: &str = "OWNERS";
/// The aliases of an OWNERS tree, at the repository root.
pub const OWNERS_ALIASES: &str = "OWNERS_ALIASES";

/// The repository's ownership, from one of its two sources.
#[derive(Debug, Clone)]
pub enum Ownership {
    /// A CODEOWNERS file.
    CodeOwners(Arc<CodeOwners>),
    /// The tree of OWNERS files.
    Owners(Arc<OwnersTree>),
}

/// Who owns one path.
#[derive(Debug, Clone)]
pub enum Owned<'a> {
    /// The CODEOWNERS rules that decide: the last match (GitHub), or each
    /// section's (GitLab); empty when no rule matches.
    Rules(Vec<&'a Rule>, Dialect),
    /// The approvers and reviewers the OWNERS tree gives.
    Tree(TreeOwners),
}

impl Ownership {
    /// `"CODEOWNERS"` or `"OWNERS"`, as `owners --format json` names it.
    pub fn source_name(&self) -> &'static str {
        match self {
            Ownership::CodeOwners(_) => "CODEOWNERS",
            Ownership::Owners(_) => OWNERS,
        }
    }

    /// Who owns `path` (relative to the repository root).
    pub fn owners_of(&self, path: &str) -> Owned<'_> {
        match self {
            Ownership::CodeOwners(owners) => Owned::Rules(owners.owners_of(path), owners.dialect()),
            // Logins as the project writes them.
            Ownership::Owners(tree) => {
                let mut owners = tree.owners_of(path);
                for login in owners.approvers.iter_mut().chain(&mut owners.reviewers) {
                    *login = tree.as_written(login).to_string();
                }
                Owned::Tree(owners)
            }
        }
    }
}

impl Owned<'_> {
    /// The owners that decide: a rule's owners, or the approvers (as
    /// `@login` users, to be shown like CODEOWNERS users).
    pub fn owners(&self) -> Vec<Owner> {
        match self {
            // GitHub: the rule's owners as written; GitLab: every section's
            // together, each owner once.
            Owned::Rules(rules, Dialect::GitHub) => {
                rules.first().map(|r| r.owners.clone()).unwrap_or_default()
            }
            Owned::Rules(rules, Dialect::GitLab) => {
                let mut owners: Vec<Owner> = Vec::new();
                for owner in rules.iter().flat_map(|r| &r.owners) {
                    if !owners
                        .iter()
                        .any(|o| o.text.eq_ignore_ascii_case(&owner.text))
                    {
                        owners.push(owner.clone());
                    }
                }
                owners
            }
            Owned::Tree(tree) => tree.approvers.iter().map(|l| user(l)).collect(),
        }
    }
}

/// The login `login` as a CODEOWNERS user owner, written nowhere.
pub fn user(login: &str) -> Owner {
    Owner {
        text: format!("@{login}"),
        kind: OwnerKind::User,
        range: 0..0,
    }
}

/// Which source `settings` choose: `ownership` when set; else CODEOWNERS
/// when one is found, else the OWNERS tree when the repository root has an
/// `OWNERS` file, else CODEOWNERS (whose absence is then what is reported).
pub fn source(settings: &Settings) -> OwnershipSource {
    if let Some(source) = settings.ownership {
        return source;
    }
    let codeowners = settings.codeowners.is_some()
        || find_in_root_then_parent(&settings.root, CODEOWNERS_CANDIDATES).is_ok();
    if !codeowners && Repository::root_of(settings).join(OWNERS).is_file() {
        return OwnershipSource::Owners;
    }
    OwnershipSource::CodeOwners
}

/// Reads every OWNERS file of `repository` (and the root's OWNERS_ALIASES)
/// through `yaml`; names them relative to the book root of `settings`.
pub(super) fn load_tree(
    settings: &Settings,
    repository: &Repository,
    yaml: &YamlFiles,
) -> (Result<OwnersTree, LoadError>, Vec<Diagnostic>) {
    let book = std::path::absolute(&settings.root).unwrap_or_else(|_| settings.root.clone());
    let read = |relative: &str| {
        let full = repository.root.join(relative);
        let shown = crate::paths::relative_path(&book, &full);
        yaml.read(&full, &crate::paths::display(&shown))
    };
    let sources: Vec<Source> = (repository.files().iter())
        .filter(|path| path.rsplit('/').next() == Some(OWNERS))
        .map(|path| Source {
            folder: path
                .rsplit_once('/')
                .map_or("", |(folder, _)| folder)
                .to_string(),
            read: read(path),
        })
        .collect();
    if sources.is_empty() {
        let summary = format!(
            "no OWNERS file in the repository at {} (`ownership = \"owners\"` reads its OWNERS files)",
            repository.root.display()
        );
        return (Err(LoadError::summary(OWNERS, summary)), Vec::new());
    }
    let aliases = repository
        .has_file(OWNERS_ALIASES)
        .then(|| read(OWNERS_ALIASES));
    let (tree, problems) = OwnersTree::build(sources, aliases);
    (Ok(tree), problems)
}

/// Whether `path` is the folder of the repository at `root` holding the
/// CODEOWNERS file `file` where GitHub reads it (`.github/`, the root or
/// `docs/`): only then are its patterns about this repository's files.
pub fn is_repository_codeowners(root: &Path, file: &Path) -> bool {
    let real = |p: &Path| p.canonicalize().ok();
    let Some(file) = real(file) else {
        return false;
    };
    codeowners::FILE_LOCATIONS
        .iter()
        .any(|location| real(&root.join(location)).as_ref() == Some(&file))
}
