//! The data stage: the people, CODEOWNERS and CONTRIBUTING files, the
//! repository's file list and its ownership (CODEOWNERS or the OWNERS
//! tree), and the git history's activity, each loaded at most once per run
//! and only when something first needs it (a book without people
//! directives never reads `maintainers.toml`, one without coverage never
//! lists the repository, one that asks nothing of activity never reads the
//! history).
//!
//! Each format has its own module and loader; [`files::tree`] is the spanned
//! TOML/JSON reader the people file is read with, [`files`] the one lookup
//! and text decoding every loader shares.

pub mod contributing;
pub mod repository_links;

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::activity::{self, Activity};
use crate::config::{OwnershipSource, Settings};
use crate::diagnostic::{Diagnostic, SourceFile, plural};
use crate::files::tree::YamlFiles;
use crate::files::{self, LoadError};
use crate::files::{ReadError, display_path, find_in_root_then_parent};
use crate::mdbook::Chapter;
use crate::ownership::codeowners::{self, CODEOWNERS_CANDIDATES, CodeOwners};
use crate::ownership::coverage::{self, Coverage};
use crate::ownership::repository::Repository;
use crate::ownership::tree::OwnersTree;
use crate::ownership::{self, Ownership};
use crate::people::{self, People, roster};
use contributing::Contributing;

type Loaded<T> = Result<Arc<T>, LoadError>;

/// The data files of one run, each loaded on first use.
#[derive(Debug, Default)]
pub struct Data {
    /// The roster, and its sources' warnings.
    people: OnceLock<(Loaded<People>, Vec<Diagnostic>)>,
    contributing: OnceLock<Loaded<Contributing>>,
    codeowners: OnceLock<(Loaded<CodeOwners>, Vec<Diagnostic>)>,
    /// When each person of the roster last committed.
    activity: OnceLock<Arc<Activity>>,
    /// The repository's files.
    repository: OnceLock<Loaded<Repository>>,
    /// The OWNERS tree, and its files' problems.
    owners_tree: OnceLock<(Loaded<OwnersTree>, Vec<Diagnostic>)>,
    /// Who owns each of the repository's files.
    coverage: OnceLock<Loaded<Coverage>>,
    /// Where ownership is read from (asked of the file system once).
    ownership_source: OnceLock<OwnershipSource>,
    /// Whether the CODEOWNERS read is the repository's own.
    codeowners_is_repositorys: OnceLock<bool>,
    /// Links written in repository files, resolved (and the chapters
    /// holding files asked about).
    repository_links: OnceLock<repository_links::RepositoryLinks>,
    /// Every YAML file read (OWNERS files can be both people sources and
    /// part of the OWNERS tree): each once.
    yaml: YamlFiles,
}

impl Data {
    /// The run's one read of each YAML file.
    pub fn yaml_files(&self) -> &YamlFiles {
        &self.yaml
    }

    /// The people data file, loaded on first use.
    pub fn people(&self, settings: &Settings) -> Result<Arc<People>, LoadError> {
        self.people
            .get_or_init(|| load_people(settings, &self.yaml))
            .0
            .clone()
    }

    /// CODEOWNERS, loaded on first use. Lines GitHub would reject are
    /// reported as warnings and skipped, as GitHub skips them.
    pub fn codeowners(&self, settings: &Settings) -> Result<Arc<CodeOwners>, LoadError> {
        self.codeowners
            .get_or_init(|| load_codeowners(settings))
            .0
            .clone()
    }

    /// When each person of `people` (the roster of
    /// [`people`](Self::people)) last committed, read from the git history
    /// on first use.
    pub fn activity(&self, settings: &Settings, people: &People) -> Arc<Activity> {
        Arc::clone(
            self.activity
                .get_or_init(|| Arc::new(activity::load(settings, people))),
        )
    }

    /// The repository's files, listed on first use.
    pub fn repository(&self, settings: &Settings) -> Result<Arc<Repository>, LoadError> {
        self.repository
            .get_or_init(|| {
                let root = Repository::root_of(settings);
                Repository::load(&root)
                    .map(Arc::new)
                    .map_err(|why| LoadError::summary(&root.display().to_string(), why))
            })
            .clone()
    }

    /// Where ownership is read from: `ownership`, or the files there are
    /// ([`ownership::source`]), looked for once a run, however many
    /// directives and checks ask.
    pub fn ownership_source(&self, settings: &Settings) -> OwnershipSource {
        *self
            .ownership_source
            .get_or_init(|| ownership::source(settings))
    }

    /// Whether the CODEOWNERS file ownership reads is the repository's own
    /// (where GitHub or GitLab reads it), so that its rules are about the
    /// repository's files: decided once a run.
    pub fn codeowners_is_repositorys(&self, settings: &Settings) -> bool {
        *self.codeowners_is_repositorys.get_or_init(|| {
            codeowners_path(settings).is_ok_and(|found| {
                let root = Repository::root_of(settings);
                ownership::is_repository_codeowners(&root, &settings.in_root(&found))
            })
        })
    }

    /// Who owns the repository's files: CODEOWNERS or the OWNERS tree, as
    /// `ownership` chooses, each loaded on first use.
    pub fn ownership(&self, settings: &Settings) -> Result<Ownership, LoadError> {
        match self.ownership_source(settings) {
            OwnershipSource::CodeOwners => self.codeowners(settings).map(Ownership::CodeOwners),
            OwnershipSource::Owners => self
                .owners_tree
                .get_or_init(|| match self.repository(settings) {
                    Ok(repository) => {
                        let (tree, problems) =
                            ownership::load_tree(settings, &repository, &self.yaml);
                        (tree.map(Arc::new), problems)
                    }
                    Err(e) => (Err(e), Vec::new()),
                })
                .0
                .clone()
                .map(Ownership::Owners),
        }
    }

    /// Who owns each of the repository's files, computed on first use:
    /// owners judged by the roster (`People::active_people`), each one
    /// active person when there is none.
    pub fn coverage(&self, settings: &Settings) -> Result<Arc<Coverage>, LoadError> {
        self.coverage
            .get_or_init(|| {
                let repository = self.repository(settings)?;
                let ownership = self.ownership(settings)?;
                let coverage = match self.people(settings) {
                    Ok(people) => {
                        Coverage::compute(&repository, &ownership, &|o| people.active_people(o))
                    }
                    Err(_) => Coverage::compute(&repository, &ownership, &coverage::without_roster),
                };
                Ok(Arc::new(coverage))
            })
            .clone()
    }

    /// Whether the repository's files were listed in this run.
    #[cfg(test)]
    pub(crate) fn repository_listed(&self) -> bool {
        self.repository.get().is_some()
    }

    /// CONTRIBUTING, loaded on first use.
    pub fn contributing(
        &self,
        settings: &Settings,
        chapters: &[Chapter],
    ) -> Result<Arc<Contributing>, LoadError> {
        self.contributing_loaded(settings, chapters).clone()
    }

    /// [`contributing`](Self::contributing), borrowed.
    pub fn contributing_loaded(
        &self,
        settings: &Settings,
        chapters: &[Chapter],
    ) -> &Result<Arc<Contributing>, LoadError> {
        self.contributing
            .get_or_init(|| contributing::load(settings, chapters).map(Arc::new))
    }

    /// How links written in repository files resolve, made on first use.
    pub fn repository_links(&self, settings: &Settings) -> &repository_links::RepositoryLinks {
        self.repository_links
            .get_or_init(|| repository_links::RepositoryLinks::new(settings))
    }

    /// The problems found in data files that were loaded, to be reported
    /// once, before the chapters' own.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        if let Some((loaded, warnings)) = self.people.get() {
            if let Err(e) = loaded {
                out.extend(e.diagnostics.iter().cloned());
            }
            out.extend(warnings.iter().cloned());
        }
        if let Some((_, warnings)) = self.codeowners.get() {
            out.extend(warnings.iter().cloned());
        }
        if let Some((_, problems)) = self.owners_tree.get() {
            // An OWNERS file that is also a people source has its problems
            // reported by the roster already.
            let said = |d: &Diagnostic| {
                out.iter()
                    .any(|o| o.message == d.message && same_place(o, d))
            };
            let unsaid: Vec<Diagnostic> = problems.iter().filter(|d| !said(d)).cloned().collect();
            out.extend(unsaid);
        }
        out
    }
}

/// Whether `a` and `b` point at the same bytes of the same file.
fn same_place(a: &Diagnostic, b: &Diagnostic) -> bool {
    use crate::diagnostic::Location;
    match (&a.location, &b.location) {
        (
            Some(Location::File { file: f, range: r }),
            Some(Location::File { file: g, range: s }),
        ) => f.name == g.name && r == s,
        (Some(Location::Path(p)), Some(Location::Path(q))) => p == q,
        _ => false,
    }
}

fn load_people(settings: &Settings, yaml: &YamlFiles) -> (Loaded<People>, Vec<Diagnostic>) {
    match missing_people(settings) {
        Some(missing) => (Err(missing), Vec::new()),
        None => {
            let (read, warnings) = roster::load(settings, yaml);
            (
                read.map(Arc::new).map_err(|e| broken_people(settings, e)),
                warnings,
            )
        }
    }
}

/// Why the roster's files are not there, if they are not.
fn missing_people(settings: &Settings) -> Option<LoadError> {
    if !settings.people_configured {
        let display = people::DEFAULT_FILE.to_string();
        let full = settings.in_root(Path::new(people::DEFAULT_FILE));
        if !full.exists() {
            return Some(missing_default_people(&display, &full));
        }
    }
    if let Some(missing) = settings
        .people
        .iter()
        .find(|s| !settings.in_root(&s.path).exists())
    {
        // book.toml's check reports the path, with its suggestion.
        let display = display_path(&missing.path);
        return Some(LoadError::reported(
            &display,
            format!(
                "the people data file `{display}` (set by `people` in book.toml) does not exist: looked for {}",
                settings.in_root(&missing.path).display()
            ),
        ));
    }
    None
}

/// The error of a roster whose files have `diagnostics`.
fn broken_people(settings: &Settings, diagnostics: Vec<Diagnostic>) -> LoadError {
    let count = diagnostics.len();
    let names: Vec<String> = crate::config::source_paths(settings)
        .iter()
        .map(|p| display_path(p))
        .collect();
    let display = names.join("`, `");
    let summary = format!(
        "`{display}` has {} (reported separately)",
        plural(count, "error")
    );
    LoadError {
        diagnostics,
        ..LoadError::reported(&display, summary)
    }
}

/// No `maintainers.toml` in the book root, and no `people` setting: with
/// the closest file there as a suggestion.
fn missing_default_people(display: &str, full: &std::path::Path) -> LoadError {
    let error = LoadError::summary(
        display,
        format!(
            "no people data file: looked for {} (set `people = \"path\"` in [preprocessor.community] to use another file)",
            full.display()
        ),
    );
    match crate::paths::closest_sibling(full) {
        Some(close) => error.with_help(format!(
            "did you mean `{close}`? Set `people = \"{close}\"` in [preprocessor.community] to use it"
        )),
        None => error,
    }
}

/// The CODEOWNERS file ownership reads (relative to the book root, or as
/// `codeowners` names it): the one lookup, `Err` with the places looked.
fn codeowners_path(settings: &Settings) -> Result<PathBuf, Vec<PathBuf>> {
    match &settings.codeowners {
        Some(path) => Ok(path.clone()),
        None => find_in_root_then_parent(&settings.root, CODEOWNERS_CANDIDATES),
    }
}

fn load_codeowners(settings: &Settings) -> (Loaded<CodeOwners>, Vec<Diagnostic>) {
    let relative = match codeowners_path(settings) {
        Ok(path) => path,
        Err(looked) => {
            let looked: Vec<String> = looked.iter().map(|p| p.display().to_string()).collect();
            let summary = format!(
                "no CODEOWNERS file: looked for {} (set `codeowners = \"path\"` in [preprocessor.community])",
                looked.join(", ")
            );
            return (Err(LoadError::summary("CODEOWNERS", summary)), Vec::new());
        }
    };
    let display = display_path(&relative);
    let full = settings.in_root(&relative);
    // A configured path that names no file is reported in book.toml.
    let reported = settings.codeowners.is_some() && !full.is_file();
    let error = |summary: String| match reported {
        true => LoadError::reported(&display, summary),
        false => LoadError::summary(&display, summary),
    };
    let text = match files::read_text(&full, codeowners::MAX_FILE_SIZE as u64 - 1) {
        Ok(text) => text,
        Err(ReadError::TooBig { size, .. }) => {
            // GitHub ignores it: so do we, without reading it.
            let file = Arc::new(SourceFile::new(display, String::new()));
            let warning = CodeOwners::too_big(&file.name, size).as_warning();
            return (Ok(Arc::new(CodeOwners::parse(file).0)), vec![warning]);
        }
        Err(ReadError::Io(e)) => {
            let summary = format!(
                "cannot read the CODEOWNERS file {display} ({}): {e}",
                full.display()
            );
            return (Err(error(summary)), Vec::new());
        }
        Err(e) => return (Err(error(e.describe(&display))), Vec::new()),
    };
    let file = Arc::new(SourceFile::new(display, text));
    let (owners, problems) = CodeOwners::parse(file);
    let warnings = problems.into_iter().map(Diagnostic::as_warning).collect();
    (Ok(Arc::new(owners)), warnings)
}

/// The data files a book would use, relative to its root (configured, or
/// found where they are looked for), for `install` to watch.
pub fn candidate_files(
    root: &Path,
    codeowners: Option<PathBuf>,
    contributing: Option<PathBuf>,
) -> Vec<PathBuf> {
    let codeowners =
        codeowners.or_else(|| find_in_root_then_parent(root, CODEOWNERS_CANDIDATES).ok());
    let contributing = contributing
        .or_else(|| find_in_root_then_parent(root, contributing::CONTRIBUTING_CANDIDATES).ok());
    codeowners.into_iter().chain(contributing).collect()
}
