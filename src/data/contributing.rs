//! The CONTRIBUTING file: where it is, its headings (with GitHub's ids), and
//! whether the book holds it as a chapter.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::Settings;
use crate::diagnostic::SourceFile;
use crate::files::LoadError;
use crate::files::{self, display_path, find_in_root_then_parent};
use crate::ids::{self, PageIds};
use crate::mdbook::Chapter;
use crate::mdbook::include::includes;

/// Where CONTRIBUTING is looked for, in the book root and then its parent.
pub const CONTRIBUTING_CANDIDATES: &[&str] = &[
    "CONTRIBUTING.md",
    ".github/CONTRIBUTING.md",
    "docs/CONTRIBUTING.md",
];

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
    /// The ids of that chapter's page when it still holds a raw
    /// `{{#include}}` of the file (mdBook's `links` did not run first).
    pub included_page: Option<PageIds>,
}

/// Finds, reads and indexes CONTRIBUTING.
pub fn load(settings: &Settings, chapters: &[Chapter]) -> Result<Contributing, LoadError> {
    let relative = match &settings.contributing {
        Some(path) => {
            if !settings.in_root(path).exists() {
                // book.toml's check reports the path, with its suggestion.
                return Err(LoadError::reported(&display_path(path), format!(
                    "the CONTRIBUTING file `{}` (set by `contributing` in book.toml) does not exist: looked for {}",
                    display_path(path),
                    settings.in_root(path).display()
                )));
            }
            path.clone()
        }
        None => find_in_root_then_parent(&settings.root, CONTRIBUTING_CANDIDATES).map_err(
            |looked| {
                let looked: Vec<String> = looked.iter().map(|p| p.display().to_string()).collect();
                LoadError::summary("CONTRIBUTING", format!(
                    "no CONTRIBUTING file: looked for {} (set `contributing = \"path\"` in [preprocessor.community])",
                    looked.join(", ")
                ))
            },
        )?,
    };
    let full = settings.in_root(&relative);
    let display = display_path(&relative);
    let text = files::read_text(&full, files::MAX_DATA_FILE)
        .map_err(|e| LoadError::summary(&display, e.describe(&display)))?;
    let github = ids::github_page(&text);
    let title = github.headings().next().map(|h| h.text.to_string());
    let chapter = chapter_holding(settings, chapters, &full, &text);
    let src = settings.in_root(&settings.src);
    let canonical = full.canonicalize().ok();
    let included_page = chapter.and_then(|i| {
        let content = chapters[i].content.get();
        let include = whole_file_include(&chapters[i], &content, &src, canonical.as_deref())?;
        let page = format!(
            "{}{text}{}",
            &content[..include.start],
            &content[include.end..]
        );
        Some(ids::mdbook_page(
            &page,
            settings.markdown,
            settings.generation,
        ))
    });
    Ok(Contributing {
        file: Arc::new(SourceFile::new(display, text)),
        title,
        github,
        chapter,
        included_page,
    })
}

/// The chapter whose source file is `file`, or that holds `file`'s text
/// whole (an `{{#include}}` of the whole file, expanded by `links` or not).
fn chapter_holding(
    settings: &Settings,
    chapters: &[Chapter],
    file: &Path,
    text: &str,
) -> Option<usize> {
    let target = Target::of(file);
    let src = settings.in_root(&settings.src);
    let whole = text.trim();
    let finder = memchr::memmem::Finder::new(whole.as_bytes());
    chapters.iter().position(|chapter| {
        let same_file = (chapter.source_path()).is_some_and(|source| target.is(&src.join(source)));
        if same_file {
            return true;
        }
        let content = chapter.content.get();
        (chapter.path().is_some() && !whole.is_empty() && finder.find(content.as_bytes()).is_some())
            || whole_file_include(chapter, &content, &src, target.canonical.as_deref()).is_some()
            || holds_repository_file(chapter, &content, &src, &target)
    })
}

/// Whether `chapter` (whose text is `content`) shows `target` through
/// `{{#repository-file}}`, which the plugin expands itself.
fn holds_repository_file(chapter: &Chapter, content: &str, src: &Path, target: &Target) -> bool {
    let Some(source) = chapter.source_path() else {
        return false;
    };
    let chapter_file = src.join(source);
    let folder = chapter_file.parent().unwrap_or(src);
    super::repository_links::repository_file_calls(content)
        .any(|path| target.is(&folder.join(path)))
}

/// The file a chapter's source may be, known by its canonical path.
struct Target {
    canonical: Option<PathBuf>,
    /// Its device and inode: one `stat` tells most other files apart,
    /// where resolving a path costs a system call per component (the
    /// check runs for every chapter of the book, on one core).
    identity: Option<(u64, u64)>,
}

impl Target {
    fn of(file: &Path) -> Target {
        Target {
            canonical: file.canonicalize().ok(),
            identity: identity_of(file),
        }
    }

    /// Whether `path` resolves to this file (the same canonical path).
    fn is(&self, path: &Path) -> bool {
        let Some(canonical) = &self.canonical else {
            return false;
        };
        // The same canonical path implies the same inode, so a different
        // (or no) inode rules it out without resolving the path.
        if self.identity.is_some() && identity_of(path) != self.identity {
            return false;
        }
        path.canonicalize().ok().as_ref() == Some(canonical)
    }
}

#[cfg(unix)]
fn identity_of(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let metadata = std::fs::metadata(path).ok()?;
    Some((metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn identity_of(_: &Path) -> Option<(u64, u64)> {
    None
}

/// The byte range of an `{{#include PATH}}` of the whole `file` in
/// `chapter` (whose text is `content`), for a chapter that mdBook's `links`
/// preprocessor has not expanded yet (it did not run first). Includes of a
/// part of the file (`PATH:anchor`, `PATH:10:20`) do not count.
fn whole_file_include(
    chapter: &Chapter,
    content: &str,
    src: &Path,
    file: Option<&Path>,
) -> Option<Range<usize>> {
    let (file, source) = (file?, chapter.source_path()?);
    let chapter_dir = src.join(source);
    let chapter_dir = chapter_dir.parent().unwrap_or(src);
    includes(content).find_map(|include| {
        let same = chapter_dir
            .join(include.path)
            .canonicalize()
            .ok()
            .as_deref()
            == Some(file);
        (include.whole && same).then_some(include.range)
    })
}
