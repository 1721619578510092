//! Data shared by all chapters of a run, each piece loaded at most once and
//! only when a directive first needs it (a book without people directives
//! never reads `maintainers.toml`).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::diagnostics::Diagnostic;
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
}

impl Data {
    /// The people data file, loaded on first use.
    pub fn people(&self, settings: &Settings) -> Result<Arc<People>, LoadError> {
        self.people.get_or_init(|| load_people(settings)).clone()
    }

    /// The problems found in data files that were loaded, to be reported
    /// once, before the chapters' own.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        if let Some(Err(e)) = self.people.get() {
            out.extend(e.diagnostics.iter().cloned());
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
    if !full.is_file() {
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
