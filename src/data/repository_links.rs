//! Links written in a file of the repository (CONTRIBUTING, GOVERNANCE,
//! SECURITY, a chapter kept outside `src`) resolved where they were
//! written: against that file's own folder. A target that is a chapter of
//! the book (or a file a chapter holds whole) becomes a link to the
//! chapter; any other file or folder of the repository a link to it on the
//! repository host (`[output.html] git-repository-url`, `/blob/REF/path`,
//! `/tree/REF/path`, images `/raw/REF/path`); a target outside the
//! repository is never written.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};

use crate::config::Settings;
use crate::diagnostic::{Code, Diagnostic};
use crate::files::{self, MAX_DATA_FILE};
use crate::mdbook::Chapter;
use crate::mdbook::include::includes;
use crate::ownership::repository::Repository;
use crate::paths;

/// What a relative chapter link encodes (`/` kept).
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'(')
    .add(b')')
    .add(b'`')
    .add(b'{')
    .add(b'}')
    .add(b'\\')
    .add(b'^')
    .add(b'|');

/// What a path segment of a host URL encodes.
const SEGMENT: &AsciiSet = &PATH.add(b'/');

/// Whether a link is a link or an image (an image goes to the raw file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// `[text](dest)`, `<a href>`.
    Link,
    /// `![alt](src)`, `<img src>`.
    Image,
}

/// Where a link written in a repository file goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Not a link into the repository (a URL, `mailto:`, `#fragment`):
    /// kept as it is.
    Unchanged,
    /// The chapter `index` (the file is its source, or it holds it whole),
    /// with the link's fragment.
    Chapter {
        /// The chapter, in book order.
        index: usize,
        /// The fragment, without `#`.
        fragment: Option<String>,
    },
    /// A file or folder of the repository, on the repository host.
    Host(String),
    /// A file or folder of the repository, but `git-repository-url` is
    /// not set: `first` is true once a run.
    NoUrl {
        /// The path, relative to the repository root.
        path: String,
        /// Whether this is the first such link of the run.
        first: bool,
    },
    /// Nothing of that name in the repository: a link to where it would
    /// be on the host (when the URL is known), and the closest path.
    Missing {
        /// The path, relative to the repository root.
        path: String,
        /// Where it would be on the host.
        url: Option<String>,
        /// The closest path of the repository.
        suggestion: Option<String>,
    },
    /// The path leaves the repository (`..`, or a symbolic link): it is
    /// never written into the book.
    Outside,
}

/// A link as written in a repository file.
#[derive(Debug, Clone, Copy)]
pub struct Written<'a> {
    /// The folder of the file it is written in (absolute, canonical).
    pub from: &'a Path,
    /// Its destination, as the Markdown or HTML gives it.
    pub dest: &'a str,
    /// A link or an image.
    pub kind: LinkKind,
}

/// What a written link becomes.
#[derive(Debug)]
pub struct Rewritten {
    /// Its new destination; `None`: the link is shown as text.
    pub link: Option<String>,
    /// The problem to report at it, without a location.
    pub problem: Option<Diagnostic>,
    /// The chapter and fragment it links to, for the anchor check.
    pub anchor: Option<(usize, String)>,
}

/// The repository, the book's chapters and the host, for resolving links.
#[derive(Debug)]
pub struct RepositoryLinks {
    /// The repository root, canonical.
    root: PathBuf,
    /// `src`, canonical.
    src: PathBuf,
    url: Option<String>,
    reference: String,
    gitlab: bool,
    /// The chapter holding each file asked about, by canonical path.
    holding: Mutex<HashMap<PathBuf, Option<usize>>>,
    warned_no_url: AtomicBool,
    /// The problems reported so far, by file and offset: a file shown or
    /// included twice has its problems reported once.
    reported: Mutex<std::collections::HashSet<(String, usize)>>,
}

impl RepositoryLinks {
    /// The resolver for the book `settings` describe.
    pub fn new(settings: &Settings) -> RepositoryLinks {
        let root = Repository::root_of(settings);
        let root = root.canonicalize().unwrap_or(root);
        let src = settings.in_root(&settings.src);
        let src = src.canonicalize().unwrap_or(src);
        let url = settings.repository_url.clone();
        let gitlab = url.as_deref().is_some_and(|u| u.contains("gitlab"));
        let reference = settings
            .repository_ref
            .clone()
            .or_else(|| head_branch(&root))
            .unwrap_or_else(|| "main".to_string());
        RepositoryLinks {
            root,
            src,
            url,
            reference,
            gitlab,
            holding: Mutex::new(HashMap::new()),
            warned_no_url: AtomicBool::new(false),
            reported: Mutex::default(),
        }
    }

    /// Whether a problem at `offset` of `file` is reported for the first
    /// time this run (a file shown or included twice is reported once).
    pub fn first_report(&self, file: &str, offset: usize) -> bool {
        self.reported
            .lock()
            .map_or(true, |mut seen| seen.insert((file.to_string(), offset)))
    }

    /// Whether `dest`, written in the folder `from`, names a place inside
    /// the repository as written (symbolic links not followed).
    pub fn is_inside(&self, from: &Path, dest: &str) -> bool {
        let (path, _) = paths::split_fragment(dest);
        let path = paths::percent_decoded(path);
        let joined = match path.strip_prefix('/') {
            Some(rooted) => self.root.join(rooted),
            None => from.join(&path),
        };
        paths::normalize_within(&joined).is_some_and(|p| p.starts_with(&self.root))
    }

    /// The repository root, canonical.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `path` (absolute) relative to the repository root, `/`-separated;
    /// `None` outside it.
    pub fn in_repository(&self, path: &Path) -> Option<String> {
        let relative = path.strip_prefix(&self.root).ok()?;
        Some(paths::forward_slashes(&relative.to_string_lossy()))
    }

    /// Where `dest`, written in a file in the folder `from` (absolute,
    /// canonical), goes. `files` is the repository's file list, asked for
    /// only when a target is missing (for the closest path).
    pub fn resolve(
        &self,
        from: &Path,
        dest: &str,
        kind: LinkKind,
        chapters: &[Chapter],
        files: &dyn Fn() -> Option<std::sync::Arc<Repository>>,
    ) -> Target {
        if dest.is_empty() || dest.starts_with('#') || !paths::is_relative(dest) {
            return Target::Unchanged;
        }
        let (path, fragment) = paths::split_fragment(dest);
        let path = paths::percent_decoded(path);
        if path.is_empty() {
            return Target::Unchanged;
        }
        // `/x` is the repository root's `x`, as on GitHub.
        let joined = match path.strip_prefix('/') {
            Some(rooted) => self.root.join(rooted),
            None => from.join(&path),
        };
        let Some(lexical) = paths::normalize_within(&joined) else {
            return Target::Outside;
        };
        let Some(relative) = self.in_repository(&lexical) else {
            return Target::Outside;
        };
        let fragment = fragment.map(paths::percent_decoded);
        if !lexical.exists() {
            return self.missing(relative, kind, files);
        }
        // A symbolic link (or a folder on the way) that leaves it.
        let canonical = match lexical.canonicalize() {
            Ok(canonical) if canonical.starts_with(&self.root) => canonical,
            _ => return Target::Outside,
        };
        if kind == LinkKind::Link
            && canonical.is_file()
            && let Some(index) = self.chapter_holding(&canonical, chapters)
        {
            return Target::Chapter { index, fragment };
        }
        match self.host_url(&relative, canonical.is_dir(), kind, fragment.as_deref()) {
            Some(url) => Target::Host(url),
            None => Target::NoUrl {
                path: relative,
                first: !self.warned_no_url.swap(true, Ordering::Relaxed),
            },
        }
    }

    /// What `written`, shown in chapter `here`, becomes.
    pub fn rewrite(
        &self,
        written: &Written<'_>,
        chapters: &[Chapter],
        here: usize,
        files: &dyn Fn() -> Option<std::sync::Arc<Repository>>,
    ) -> Rewritten {
        let dest = written.dest;
        let (link, problem) = match self.resolve(written.from, dest, written.kind, chapters, files)
        {
            Target::Unchanged => (Some(dest.to_string()), None),
            Target::Chapter { index, fragment } => {
                let link = chapter_link(chapters, here, index, fragment.clone());
                let anchor = fragment.filter(|f| !f.is_empty()).map(|f| (index, f));
                return Rewritten {
                    link: Some(link),
                    problem: None,
                    anchor,
                };
            }
            Target::Host(url) => (Some(url), None),
            Target::NoUrl { path, first } => (None, first.then(|| no_url(&path))),
            Target::Missing {
                path,
                url,
                suggestion,
            } => (url, Some(missing(dest, &path, suggestion))),
            Target::Outside => {
                let warning = Diagnostic::warning(
                    Code::MissingRepositoryPath,
                    format!("`{dest}` leaves the repository; the link is shown as text"),
                )
                .with_label("outside the repository")
                .with_note("a repository file links only into the repository");
                (None, Some(warning))
            }
        };
        Rewritten {
            link,
            problem,
            anchor: None,
        }
    }

    fn missing(
        &self,
        relative: String,
        kind: LinkKind,
        files: &dyn Fn() -> Option<std::sync::Arc<Repository>>,
    ) -> Target {
        let suggestion = files().and_then(|repository| {
            crate::diagnostic::did_you_mean(
                &relative,
                repository.files().iter().map(String::as_str),
            )
            .map(str::to_string)
        });
        Target::Missing {
            url: self.host_url(&relative, false, kind, None),
            path: relative,
            suggestion,
        }
    }

    /// `relative` on the host: `/blob/`, `/tree/` (a folder) or `/raw/`
    /// (an image); `None` without `git-repository-url`.
    pub fn host_url(
        &self,
        relative: &str,
        folder: bool,
        kind: LinkKind,
        fragment: Option<&str>,
    ) -> Option<String> {
        let url = self.url.as_deref()?;
        let mode = match (kind, folder) {
            (_, true) => "tree",
            (LinkKind::Image, false) => "raw",
            (LinkKind::Link, false) => "blob",
        };
        let separator = if self.gitlab { "/-/" } else { "/" };
        let mut out = format!("{url}{separator}{mode}/{}", encode(&self.reference));
        for segment in relative.split('/').filter(|s| !s.is_empty()) {
            out.push('/');
            out.push_str(&encode(segment));
        }
        if let Some(fragment) = fragment.filter(|f| !f.is_empty() && kind == LinkKind::Link) {
            out.push('#');
            out.push_str(&encode(fragment));
        }
        Some(out)
    }

    /// The chapter whose source is `file` (canonical), or that holds it
    /// whole: an `{{#include}}` or `{{#repository-file}}` of it, or its
    /// text (mdBook's `links` expanded the include before the plugin ran).
    pub fn chapter_holding(&self, file: &Path, chapters: &[Chapter]) -> Option<usize> {
        if let Some(known) = self.holding.lock().ok().and_then(|h| h.get(file).copied()) {
            return known;
        }
        let found = self.find_chapter_holding(file, chapters);
        if let Ok(mut holding) = self.holding.lock() {
            holding.insert(file.to_path_buf(), found);
        }
        found
    }

    fn find_chapter_holding(&self, file: &Path, chapters: &[Chapter]) -> Option<usize> {
        let source_of = |chapter: &Chapter| {
            let source = self.src.join(chapter.source_path()?);
            source.canonicalize().ok()
        };
        if let Some(index) = chapters
            .iter()
            .position(|c| c.path().is_some() && source_of(c).as_deref() == Some(file))
        {
            return Some(index);
        }
        let named = chapters.iter().position(|chapter| {
            let Some(source) = chapter.path().and(source_of(chapter)) else {
                return false;
            };
            let folder = source.parent().unwrap_or(&self.src).to_path_buf();
            let content = chapter.content.get();
            whole_file_calls(&content)
                .any(|path| folder.join(path).canonicalize().ok().as_deref() == Some(file))
        });
        if named.is_some() {
            return named;
        }
        let text = files::read_text(file, MAX_DATA_FILE).ok()?;
        // As written, and with LF line endings (as mdBook may include it).
        let lf = text.replace("\r\n", "\n");
        let wholes = [text.trim(), lf.trim()];
        if wholes[0].len() < 16 {
            return None;
        }
        let finders = wholes.map(|whole| memchr::memmem::Finder::new(whole.as_bytes()));
        chapters.iter().position(|chapter| {
            let content = chapter.content.get();
            chapter.path().is_some() && finders.iter().any(|f| f.find(content.as_bytes()).is_some())
        })
    }
}

/// The link from chapter `here` to chapter `index`, `#fragment` kept.
fn chapter_link(
    chapters: &[Chapter],
    here: usize,
    index: usize,
    fragment: Option<String>,
) -> String {
    let from = chapters[here].path().unwrap_or_default();
    let to = chapters[index].path().unwrap_or_default();
    let mut link = if index == here {
        String::new()
    } else {
        utf8_percent_encode(&paths::relative(from, to), PATH).to_string()
    };
    match fragment.filter(|f| !f.is_empty()) {
        Some(fragment) => {
            link.push('#');
            link.push_str(&encode(&fragment));
        }
        None if link.is_empty() => link.push('#'),
        None => {}
    }
    link
}

/// The warning for a link to nothing in the repository.
fn missing(dest: &str, path: &str, suggestion: Option<String>) -> Diagnostic {
    let (written, _) = paths::split_fragment(dest);
    let message = if written.trim_start_matches("./") == path {
        format!("`{path}` is not in the repository")
    } else {
        format!("`{written}` links to `{path}`, which is not in the repository")
    };
    Diagnostic::warning(Code::MissingRepositoryPath, message)
        .with_label("no such file or folder")
        .with_suggestion(suggestion)
        .with_note("links in this file are relative to its own folder, as on GitHub")
}

/// The warning for the first link of a run that needs
/// `git-repository-url`.
fn no_url(path: &str) -> Diagnostic {
    Diagnostic::warning(
        Code::NoRepositoryUrl,
        format!("a link to the repository's `{path}` needs `git-repository-url`; shown as text"),
    )
    .with_label("not a chapter of the book")
    .with_help("set `git-repository-url = \"https://github.com/ORG/REPO\"` in [output.html] (`init` sets it from the `origin` remote)")
    .with_note("links to the repository's other files go to the repository host; this is the first of them, and the others are shown as text too")
}

/// The paths of the whole-file `{{#include PATH}}` and
/// `{{#repository-file PATH}}` calls in a chapter's text.
pub fn whole_file_calls(content: &str) -> impl Iterator<Item = &str> {
    includes(content)
        .filter(|include| include.whole)
        .map(|include| include.path)
        .chain(repository_file_calls(content))
}

/// The paths of the `{{#repository-file PATH}}` calls in a chapter's text.
pub fn repository_file_calls(content: &str) -> impl Iterator<Item = &str> {
    const OPEN: &str = "{{#repository-file";
    memchr::memmem::find_iter(content.as_bytes(), OPEN).filter_map(move |start| {
        let after = start + OPEN.len();
        let end = after + content[after..].find("}}")?;
        let path = content[after..end].trim();
        // A path with spaces is quoted.
        let path = path
            .strip_prefix('"')
            .and_then(|p| p.strip_suffix('"'))
            .unwrap_or(path);
        let spaced = content[after..].starts_with(char::is_whitespace);
        (spaced && !path.is_empty() && !path.contains('\n')).then_some(path)
    })
}

fn encode(segment: &str) -> String {
    utf8_percent_encode(segment, SEGMENT).to_string()
}

/// The branch the repository's HEAD names (`ref: refs/heads/NAME`).
fn head_branch(root: &Path) -> Option<String> {
    let head = files::read_text(&root.join(".git").join("HEAD"), 4096).ok()?;
    let name = head.trim().strip_prefix("ref: refs/heads/")?;
    (!name.is_empty() && !name.contains(char::is_whitespace)).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links(url: Option<&str>) -> RepositoryLinks {
        RepositoryLinks {
            root: PathBuf::from("/repo"),
            src: PathBuf::from("/repo/docs/src"),
            url: url.map(str::to_string),
            reference: "main".into(),
            gitlab: url.is_some_and(|u| u.contains("gitlab")),
            holding: Mutex::new(HashMap::new()),
            warned_no_url: AtomicBool::new(false),
            reported: Mutex::default(),
        }
    }

    #[test]
    fn host_urls_by_kind() {
        let l = links(Some("https://github.com/o/r"));
        let url = |p, folder, kind, f| l.host_url(p, folder, kind, f).expect("url");
        assert_eq!(
            url("docs/a b.md", false, LinkKind::Link, Some("x y")),
            "https://github.com/o/r/blob/main/docs/a%20b.md#x%20y"
        );
        assert_eq!(
            url("docs", true, LinkKind::Link, None),
            "https://github.com/o/r/tree/main/docs"
        );
        assert_eq!(
            url("i/a.png", false, LinkKind::Image, None),
            "https://github.com/o/r/raw/main/i/a.png"
        );
        let g = links(Some("https://gitlab.com/o/r"));
        assert_eq!(
            g.host_url("LICENSE", false, LinkKind::Link, None)
                .as_deref(),
            Some("https://gitlab.com/o/r/-/blob/main/LICENSE")
        );
    }

    #[test]
    fn urls_fragments_and_climbing_out() {
        let l = links(None);
        let none = || None;
        let r = |d| l.resolve(Path::new("/repo"), d, LinkKind::Link, &[], &none);
        assert_eq!(r("https://x.org/a"), Target::Unchanged);
        assert_eq!(r("mailto:a@b"), Target::Unchanged);
        assert_eq!(r("#section"), Target::Unchanged);
        assert_eq!(r("../etc/passwd"), Target::Outside);
        assert_eq!(r("../../../../../../../../etc/passwd"), Target::Outside);
        assert_eq!(r("a/../../x"), Target::Outside);
    }

    #[test]
    fn whole_file_calls_of_both_kinds() {
        let text = "{{#include ../A.md}} {{#include b.rs:1:2}} {{#repository-file ../../C.md }}";
        let found: Vec<&str> = whole_file_calls(text).collect();
        assert_eq!(found, ["../A.md", "../../C.md"]);
    }
}
