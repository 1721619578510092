//! Data shared by all chapters of a run, each piece loaded at most once and
//! only when a directive first needs it (a book without people directives
//! never reads `maintainers.toml`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::book::Chapter;
use crate::codeowners::CodeOwners;
use crate::contributing::{self, Contributing};
use crate::diagnostics::{Diagnostic, SourceFile};
use crate::headings::{PageIds, PageLink};
use crate::people::{self, People};
use crate::settings::Settings;

/// Why a data file could not be used.
#[derive(Debug, Clone)]
pub struct LoadError {
    /// One line for the directive that needed the file.
    pub summary: String,
    /// The file's own problems, reported once for the whole run.
    pub diagnostics: Vec<Diagnostic>,
}

type Loaded<T> = Result<Arc<T>, LoadError>;

/// Lazily loaded data files and indexes of one run.
#[derive(Debug, Default)]
pub struct Data {
    people: OnceLock<Loaded<People>>,
    contributing: OnceLock<Loaded<Contributing>>,
    codeowners: OnceLock<(Loaded<CodeOwners>, Vec<Diagnostic>)>,
    /// The ids each chapter's page will have, by chapter index.
    pages: Vec<OnceLock<Arc<PageIds>>>,
    /// The links of chapters without directives, found by the same parse
    /// as their page ids.
    links: Vec<OnceLock<Vec<PageLink>>>,
    /// Chapter index by path (relative to `src`).
    by_path: OnceLock<HashMap<String, usize>>,
}

impl Data {
    /// Empty data for a book of `chapters` chapters.
    pub fn new(chapters: usize) -> Self {
        Data {
            pages: (0..chapters).map(|_| OnceLock::new()).collect(),
            links: (0..chapters).map(|_| OnceLock::new()).collect(),
            ..Data::default()
        }
    }

    /// The people data file, loaded on first use.
    pub fn people(&self, settings: &Settings) -> Result<Arc<People>, LoadError> {
        self.people.get_or_init(|| load_people(settings)).clone()
    }

    /// CODEOWNERS, loaded on first use. Lines GitHub would reject are
    /// reported as warnings and skipped, as GitHub skips them.
    pub fn codeowners(&self, settings: &Settings) -> Result<Arc<CodeOwners>, LoadError> {
        self.codeowners
            .get_or_init(|| load_codeowners(settings))
            .0
            .clone()
    }

    /// CONTRIBUTING, loaded on first use.
    pub fn contributing(
        &self,
        settings: &Settings,
        chapters: &[Chapter],
    ) -> Result<Arc<Contributing>, LoadError> {
        self.contributing
            .get_or_init(|| contributing::load(settings, chapters).map(Arc::new))
            .clone()
    }

    /// The page ids of chapter `index`, computed by `compute` on first use.
    pub fn page(&self, index: usize, compute: impl FnOnce() -> PageIds) -> Option<Arc<PageIds>> {
        let slot = self.pages.get(index)?;
        Some(Arc::clone(slot.get_or_init(|| Arc::new(compute()))))
    }

    /// Remembers the links of chapter `index` (first call wins).
    pub fn set_links(&self, index: usize, links: Vec<PageLink>) {
        if let Some(slot) = self.links.get(index) {
            let _ = slot.set(links);
        }
    }

    /// The links of chapter `index`, if they were remembered.
    pub fn links(&self, index: usize) -> Option<&[PageLink]> {
        self.links.get(index)?.get().map(Vec::as_slice)
    }

    /// The chapter with `path` (relative to `src`).
    pub fn chapter_by_path(&self, chapters: &[Chapter], path: &str) -> Option<usize> {
        self.by_path
            .get_or_init(|| {
                chapters
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| Some((c.path.clone()?, i)))
                    .collect()
            })
            .get(path)
            .copied()
    }

    /// The problems found in data files that were loaded, to be reported
    /// once, before the chapters' own.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        if let Some(Err(e)) = self.people.get() {
            out.extend(e.diagnostics.iter().cloned());
        }
        if let Some((_, warnings)) = self.codeowners.get() {
            out.extend(warnings.iter().cloned());
        }
        out
    }
}

/// `path` relative to the book root, for messages.
pub fn display_path(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

fn load_people(settings: &Settings) -> Loaded<People> {
    let (relative, configured) = match &settings.people {
        Some(path) => (path.clone(), true),
        None => (PathBuf::from(people::DEFAULT_FILE), false),
    };
    let display = display_path(&relative);
    let full = settings.in_root(&relative);
    if !full.exists() {
        let summary = if configured {
            format!(
                "the people data file `{display}` (set by `people` in book.toml) does not exist: looked for {}",
                full.display()
            )
        } else {
            format!(
                "no people data file: looked for {} (set `people = \"path\"` in [preprocessor.community] to use another file)",
                full.display()
            )
        };
        return Err(LoadError {
            summary,
            diagnostics: Vec::new(),
        });
    }
    People::load(&full, &display)
        .map(Arc::new)
        .map_err(|diagnostics| {
            let count = diagnostics.len();
            LoadError {
                summary: format!(
                    "`{display}` has {count} error{} (reported separately)",
                    if count == 1 { "" } else { "s" }
                ),
                diagnostics,
            }
        })
}

/// Where CODEOWNERS is looked for, in order (GitHub's), in the book root and
/// then in its parent (the repository root when the book lives in a
/// subfolder).
pub const CODEOWNERS_CANDIDATES: &[&str] = &crate::codeowners::FILE_LOCATIONS;

/// Where CONTRIBUTING is looked for, in the same way.
pub const CONTRIBUTING_CANDIDATES: &[&str] = &[
    "CONTRIBUTING.md",
    ".github/CONTRIBUTING.md",
    "docs/CONTRIBUTING.md",
];

/// The first of `names` that exists in `root`, then in `root/..`, as a path
/// relative to `root`; or every path looked at. Something that is there but
/// is not a readable file is found too, so that reading it says why.
pub fn find_in_root_then_parent(root: &Path, names: &[&str]) -> Result<PathBuf, Vec<PathBuf>> {
    let mut looked = Vec::new();
    for base in [PathBuf::new(), PathBuf::from("..")] {
        for name in names {
            let relative = base.join(name);
            let full = root.join(&relative);
            if full.exists() {
                return Ok(relative);
            }
            looked.push(full);
        }
    }
    Err(looked)
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
    let contributing =
        contributing.or_else(|| find_in_root_then_parent(root, CONTRIBUTING_CANDIDATES).ok());
    codeowners.into_iter().chain(contributing).collect()
}

fn load_codeowners(settings: &Settings) -> (Loaded<CodeOwners>, Vec<Diagnostic>) {
    let relative = match &settings.codeowners {
        Some(path) => path.clone(),
        None => match find_in_root_then_parent(&settings.root, CODEOWNERS_CANDIDATES) {
            Ok(path) => path,
            Err(looked) => {
                let looked: Vec<String> = looked.iter().map(|p| p.display().to_string()).collect();
                let summary = format!(
                    "no CODEOWNERS file: looked for {} (set `codeowners = \"path\"` in [preprocessor.community])",
                    looked.join(", ")
                );
                return (
                    Err(LoadError {
                        summary,
                        diagnostics: Vec::new(),
                    }),
                    Vec::new(),
                );
            }
        },
    };
    let display = display_path(&relative);
    let full = settings.in_root(&relative);
    let text = match std::fs::read(&full) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                let summary = format!("{display} is not valid UTF-8");
                return (
                    Err(LoadError {
                        summary,
                        diagnostics: Vec::new(),
                    }),
                    Vec::new(),
                );
            }
        },
        Err(e) => {
            let summary = format!(
                "cannot read the CODEOWNERS file {display} ({}): {e}",
                full.display()
            );
            return (
                Err(LoadError {
                    summary,
                    diagnostics: Vec::new(),
                }),
                Vec::new(),
            );
        }
    };
    let text = text
        .strip_prefix('\u{feff}')
        .map(str::to_string)
        .unwrap_or(text);
    let file = Arc::new(SourceFile {
        name: display,
        text,
    });
    let (owners, problems) = CodeOwners::parse(file);
    let warnings = problems.into_iter().map(Diagnostic::as_warning).collect();
    (Ok(Arc::new(owners)), warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CODEOWNERS and CONTRIBUTING are looked for in GitHub's order in the
    /// book root, then in its parent; what is there but is not a file is
    /// found too, so that reading it says why.
    #[test]
    fn data_files_are_found_in_order_in_the_root_then_its_parent() {
        let repo = tempfile::tempdir().expect("tempdir");
        let book = repo.path().join("book");
        for dir in [".github", "docs"] {
            std::fs::create_dir_all(book.join(dir)).expect("mkdir");
            std::fs::create_dir_all(repo.path().join(dir)).expect("mkdir");
        }
        let write = |path: &str| std::fs::write(book.join(path), "x\n").expect("write");
        for (names, first) in [
            (CODEOWNERS_CANDIDATES, ".github/CODEOWNERS"),
            (CONTRIBUTING_CANDIDATES, "CONTRIBUTING.md"),
        ] {
            let looked = find_in_root_then_parent(&book, names).expect_err("nothing yet");
            let expected: Vec<PathBuf> = (names.iter().map(|n| book.join(n)))
                .chain(names.iter().map(|n| book.join("..").join(n)))
                .collect();
            assert_eq!(looked, expected);
            assert_eq!(names[0], first);
            // Each candidate, from the last to the first, wins over those
            // after it: the parent's first, ..., the root's first.
            for (i, name) in names.iter().enumerate().rev() {
                write(&format!("../{name}"));
                let found = find_in_root_then_parent(&book, names).expect("in the parent");
                assert_eq!(found, Path::new("..").join(name), "{i}");
            }
            for name in names.iter().rev() {
                write(name);
                let found = find_in_root_then_parent(&book, names).expect("in the root");
                assert_eq!(found, Path::new(name));
            }
        }
        // A folder where the file should be is found, and reading it fails.
        let other = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(other.path().join("CODEOWNERS")).expect("mkdir");
        let found = find_in_root_then_parent(other.path(), CODEOWNERS_CANDIDATES).expect("found");
        assert_eq!(found, Path::new("CODEOWNERS"));
    }
}
