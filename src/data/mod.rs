//! The data stage: the people, CODEOWNERS and CONTRIBUTING files, each
//! loaded at most once per run and only when something first needs it (a
//! book without people directives never reads `maintainers.toml`).
//!
//! Each format has its own module and loader; [`tree`] is the spanned
//! TOML/JSON reader the people file is read with, [`files`] the one lookup
//! and text decoding every loader shares.

pub mod codeowners;
pub mod contributing;
pub mod files;
pub mod people;
pub mod tree;

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use crate::config::Settings;
use crate::diagnostic::{Diagnostic, SourceFile};
use crate::mdbook::Chapter;
use codeowners::CodeOwners;
use contributing::Contributing;
use files::{CODEOWNERS_CANDIDATES, ReadError, display_path, find_in_root_then_parent};
use people::People;

/// Why a data file could not be used.
#[derive(Debug, Clone)]
pub struct LoadError {
    /// One line for the directive that needed the file.
    pub summary: String,
    /// The file's own problems, reported once for the whole run.
    pub diagnostics: Vec<Diagnostic>,
}

impl LoadError {
    /// An error that is all summary (the file is missing or unreadable).
    pub fn summary(summary: String) -> Self {
        LoadError {
            summary,
            diagnostics: Vec::new(),
        }
    }
}

type Loaded<T> = Result<Arc<T>, LoadError>;

/// The data files of one run, each loaded on first use.
#[derive(Debug, Default)]
pub struct Data {
    people: OnceLock<Loaded<People>>,
    contributing: OnceLock<Loaded<Contributing>>,
    codeowners: OnceLock<(Loaded<CodeOwners>, Vec<Diagnostic>)>,
}

impl Data {
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

fn load_people(settings: &Settings) -> Loaded<People> {
    let (relative, configured) = match &settings.people {
        Some(path) => (path.clone(), true),
        None => (PathBuf::from(people::DEFAULT_FILE), false),
    };
    let display = display_path(&relative);
    let full = settings.in_root(&relative);
    if !full.exists() {
        return Err(LoadError::summary(if configured {
            format!(
                "the people data file `{display}` (set by `people` in book.toml) does not exist: looked for {}",
                full.display()
            )
        } else {
            format!(
                "no people data file: looked for {} (set `people = \"path\"` in [preprocessor.community] to use another file)",
                full.display()
            )
        }));
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
                return (Err(LoadError::summary(summary)), Vec::new());
            }
        },
    };
    let display = display_path(&relative);
    let full = settings.in_root(&relative);
    let text = match files::read_text(&full, codeowners::MAX_FILE_SIZE as u64 - 1) {
        Ok(text) => text,
        Err(ReadError::TooBig { size, .. }) => {
            // GitHub ignores it: so do we, without reading it.
            let file = Arc::new(SourceFile {
                name: display,
                text: String::new(),
            });
            let warning = CodeOwners::too_big(&file.name, size).as_warning();
            return (Ok(Arc::new(CodeOwners::parse(file).0)), vec![warning]);
        }
        Err(ReadError::Io(e)) => {
            let summary = format!(
                "cannot read the CODEOWNERS file {display} ({}): {e}",
                full.display()
            );
            return (Err(LoadError::summary(summary)), Vec::new());
        }
        Err(e) => return (Err(LoadError::summary(e.describe(&display))), Vec::new()),
    };
    let file = Arc::new(SourceFile {
        name: display,
        text,
    });
    let (owners, problems) = CodeOwners::parse(file);
    let warnings = problems.into_iter().map(Diagnostic::as_warning).collect();
    (Ok(Arc::new(owners)), warnings)
}
