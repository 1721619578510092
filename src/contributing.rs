//! The CONTRIBUTING file: where it is, its headings (with GitHub's ids), and
//! whether the book holds it as a chapter.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::book::Chapter;
use crate::data::{self, LoadError};
use crate::diagnostics::SourceFile;
use crate::headings::{self, PageIds};
use crate::settings::Settings;

/// CONTRIBUTING, read and indexed once per run.
#[derive(Debug)]
pub struct Contributing {
    /// The file.
    pub file: Arc<SourceFile>,
    /// Its first heading's text, the default link text.
    pub title: Option<String>,
    /// Its ids as GitHub renders them.
    pub github: PageIds,
    /// The chapter whose source is this file (or that includes it whole).
    pub chapter: Option<usize>,
    /// The ids of that chapter's page when its content is still a raw
    /// `{{#include}}` of the file (mdBook's `links` did not run first).
    pub included_page: Option<PageIds>,
}

/// Finds, reads and indexes CONTRIBUTING.
pub fn load(settings: &Settings, chapters: &[Chapter]) -> Result<Contributing, LoadError> {
    let relative = match &settings.contributing {
        Some(path) => {
            if !settings.in_root(path).is_file() {
                return Err(LoadError {
                    summary: format!(
                        "the CONTRIBUTING file `{}` (set by `contributing` in book.toml) does not exist: looked for {}",
                        data::display_path(path),
                        settings.in_root(path).display()
                    ),
                    diagnostics: Vec::new(),
                });
            }
            path.clone()
        }
        None => data::find_in_root_then_parent(&settings.root, data::CONTRIBUTING_CANDIDATES).map_err(
            |looked| LoadError {
                summary: format!(
                    "no CONTRIBUTING file: looked for {} (set `contributing = \"path\"` in [preprocessor.community])",
                    looked
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                diagnostics: Vec::new(),
            },
        )?,
    };
    let full = settings.in_root(&relative);
    let display = data::display_path(&relative);
    let text = std::fs::read(&full)
        .map_err(|e| LoadError {
            summary: format!("cannot read {display}: {e}"),
            diagnostics: Vec::new(),
        })
        .and_then(|bytes| {
            String::from_utf8(bytes).map_err(|_| LoadError {
                summary: format!("{display} is not valid UTF-8"),
                diagnostics: Vec::new(),
            })
        })?;
    let text = text
        .strip_prefix('\u{feff}')
        .map(str::to_string)
        .unwrap_or(text);
    let github = headings::github_page(&text);
    let title = github.headings.first().map(|h| h.text.clone());
    let chapter = chapter_holding(settings, chapters, &full, &text);
    let src = settings.in_root(&settings.src);
    let canonical = full.canonicalize().ok();
    let included_page = chapter
        .filter(|&i| includes_whole(&chapters[i], &src, canonical.as_deref()))
        .map(|_| headings::mdbook_page(&text, settings.markdown, settings.generation));
    Ok(Contributing {
        file: Arc::new(SourceFile {
            name: display,
            text,
        }),
        title,
        github,
        chapter,
        included_page,
    })
}

/// The chapter whose source file is `file`, or whose content is `file`'s
/// text (an `{{#include}}` of the whole file, expanded by `links`).
fn chapter_holding(
    settings: &Settings,
    chapters: &[Chapter],
    file: &Path,
    text: &str,
) -> Option<usize> {
    let canonical = file.canonicalize().ok();
    let src = settings.in_root(&settings.src);
    chapters.iter().position(|chapter| {
        let same_file = chapter.source_path.as_ref().is_some_and(|source| {
            let path: PathBuf = src.join(source);
            canonical.is_some() && path.canonicalize().ok() == canonical
        });
        same_file
            || (chapter.path.is_some()
                && chapter.content.trim() == text.trim()
                && !text.trim().is_empty())
            || includes_whole(chapter, &src, canonical.as_deref())
    })
}

/// A chapter that is only `{{#include PATH}}` of the file (when mdBook's
/// `links` preprocessor did not run first).
fn includes_whole(chapter: &Chapter, src: &Path, file: Option<&Path>) -> bool {
    let (Some(file), Some(source)) = (file, chapter.source_path.as_deref()) else {
        return false;
    };
    let content = chapter.content.trim();
    let Some(inner) = content
        .strip_prefix("{{")
        .and_then(|c| c.strip_suffix("}}"))
    else {
        return false;
    };
    let Some(path) = inner.trim().strip_prefix("#include") else {
        return false;
    };
    let path = path.trim();
    if path.is_empty() || path.contains(':') {
        return false;
    }
    let chapter_dir = src.join(source);
    let chapter_dir = chapter_dir.parent().unwrap_or(src);
    chapter_dir.join(path).canonicalize().ok().as_deref() == Some(file)
}
