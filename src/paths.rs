//! Chapter paths as links see them: `/`-separated, relative to `src`, with
//! `.` and `..` resolved, and the relative path from one chapter to another;
//! and file paths as messages, the terminal and annotations show them.

use std::path::{Component, Path, PathBuf};

/// `path` as messages, annotations and chapter paths show it:
/// `/`-separated on every platform.
pub fn display(path: &Path) -> String {
    forward_slashes(&path.to_string_lossy())
}

/// The name of the entry beside `path` (a file that does not exist) whose
/// name is close enough to `path`'s to be a typo for it, if any.
pub fn closest_sibling(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let entries = std::fs::read_dir(path.parent()?).ok()?;
    let names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n != name)
        .collect();
    crate::diagnostic::did_you_mean(name, names.iter().map(String::as_str)).map(str::to_string)
}

/// `text` with Windows separators turned into `/`.
pub fn forward_slashes(text: &str) -> String {
    text.replace('\\', "/")
}

/// `path` with `.` and `..` resolved without touching the file system; a
/// relative path keeps the `..`s it starts with.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(".."),
            },
            other => out.push(other),
        }
    }
    out
}

/// The way from folder `from` to `to` (both absolute, or both relative
/// to one folder), as `..`s and names.
pub fn relative_path(from: &Path, to: &Path) -> PathBuf {
    let (from, to) = (normalize(from), normalize(to));
    let from: Vec<Component<'_>> = from.components().collect();
    let to: Vec<Component<'_>> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut path = PathBuf::new();
    for _ in common..from.len() {
        path.push("..");
    }
    for part in &to[common..] {
        path.push(part);
    }
    path
}

/// How diagnostics name files: on the terminal relative to the folder the
/// user is in (absolute for a file outside it), and in GitHub annotations
/// relative to the repository. The names diagnostics carry are relative
/// to the book root, or absolute.
#[derive(Debug, Clone, Default)]
pub struct ShownPaths {
    /// The book root.
    root: PathBuf,
    /// The user's folder; `None` shows names as they are.
    here: Option<PathBuf>,
    /// What annotation paths are relative to: the repository root, or the
    /// book root when there is none.
    repository: PathBuf,
}

impl ShownPaths {
    /// Paths for a book at `root`, a user in `here` and a repository at
    /// `repository` (each resolved through symbolic links where it exists).
    pub fn new(root: &Path, here: Option<&Path>, repository: Option<&Path>) -> Self {
        let real = |p: &Path| p.canonicalize().unwrap_or_else(|_| normalize(p));
        let root = real(root);
        ShownPaths {
            here: here.map(real),
            repository: repository.map_or_else(|| root.clone(), real),
            root,
        }
    }

    /// The file `name` (relative to the book root, or absolute) as the
    /// terminal shows it.
    pub fn terminal(&self, name: &str) -> String {
        let Some(here) = &self.here else {
            return name.to_string();
        };
        let full = self.full(&self.root, name);
        match full.strip_prefix(here) {
            Ok(inside) if inside.as_os_str().is_empty() => ".".to_string(),
            Ok(inside) => display(inside),
            Err(_) => display(&full),
        }
    }

    /// The file `shown` (as [`terminal`](Self::terminal) shows it) as a
    /// GitHub annotation names it: relative to the repository; `None` for
    /// a file outside it, which GitHub cannot annotate.
    pub fn annotation(&self, shown: &str) -> Option<String> {
        let base = self.here.as_deref().unwrap_or(&self.root);
        let full = self.full(base, shown);
        let inside = full.strip_prefix(&self.repository).ok()?;
        Some(display(inside))
    }

    /// `name`, relative to `base` or absolute, as a full path.
    fn full(&self, base: &Path, name: &str) -> PathBuf {
        let path = base.join(name);
        if base.as_os_str().is_empty() {
            return normalize(&path); // no book root: names stay relative
        }
        path.canonicalize().unwrap_or_else(|_| normalize(&path))
    }
}

/// Writes `bytes` to `path` through a temporary file beside it and a
/// rename, so that a reader never sees half a file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map_or_else(|| "report".into(), |n| n.to_string_lossy().into_owned());
    let staged = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&staged, bytes)?;
    std::fs::rename(&staged, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&staged);
    })
}

/// The repository `folder` is in: the nearest folder holding `.git`.
pub fn repository_of(folder: &Path) -> Option<PathBuf> {
    let folder = folder.canonicalize().ok()?;
    folder
        .ancestors()
        .find(|a| a.join(".git").exists())
        .map(Path::to_path_buf)
}

/// `%20` and friends decoded, as mdBook and browsers read a link's path
/// and fragment; the text as written when the bytes it encodes are not
/// UTF-8.
pub fn percent_decoded(text: &str) -> String {
    percent_encoding::percent_decode_str(text)
        .decode_utf8()
        .map_or_else(|_| text.to_string(), |decoded| decoded.into_owned())
}

/// The chapter path a relative link's path part (`../guide/my%20page.md`)
/// names from chapter `here`: percent-decoded, resolved, `.html` read as
/// `.md`. `None` when it climbs out of `src`.
pub fn link_target(here: &str, path: &str) -> Option<String> {
    resolve(here, &percent_decoded(path)).map(|p| as_chapter_path(&p))
}

/// Resolves `link` (a link's path part, without fragment) relative to the
/// folder of chapter `from` (`guide/intro.md`). `None` when it climbs out of
/// `src`.
pub fn resolve(from: &str, link: &str) -> Option<String> {
    let mut parts: Vec<&str> = if link.starts_with('/') {
        Vec::new()
    } else {
        let mut dir: Vec<&str> = from.split('/').collect();
        dir.pop();
        dir
    };
    for part in link.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// The relative link from chapter `from` to chapter `to` (both relative to
/// `src`).
pub fn relative(from: &str, to: &str) -> String {
    let from_dir: Vec<&str> = {
        let mut d: Vec<&str> = from.split('/').collect();
        d.pop();
        d
    };
    let to_parts: Vec<&str> = to.split('/').collect();
    let common = from_dir
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count()
        .min(to_parts.len().saturating_sub(1));
    let mut out: Vec<&str> = vec![".."; from_dir.len() - common];
    out.extend(&to_parts[common..]);
    out.join("/")
}

/// `x.html` links point at `x.md` chapters: the chapter path a link names.
pub fn as_chapter_path(path: &str) -> String {
    match path.strip_suffix(".html") {
        Some(stem) => format!("{stem}.md"),
        None => path.to_string(),
    }
}

/// Whether a link destination is relative to the book (no scheme, not
/// protocol-relative).
pub fn is_relative(dest: &str) -> bool {
    if dest.starts_with("//") {
        return false;
    }
    match dest.find([':', '/', '?', '#']) {
        Some(i) => dest.as_bytes()[i] != b':',
        None => true,
    }
}

/// Splits `path#fragment` (a `?query` stays with the path and is dropped).
pub fn split_fragment(dest: &str) -> (&str, Option<&str>) {
    let (path, fragment) = match dest.split_once('#') {
        Some((path, fragment)) => (path, Some(fragment)),
        None => (dest, None),
    };
    let path = path.split_once('?').map_or(path, |(p, _)| p);
    (path, fragment)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_to_the_chapter_folder() {
        assert_eq!(
            resolve("guide/intro.md", "setup.md").as_deref(),
            Some("guide/setup.md")
        );
        assert_eq!(
            resolve("guide/intro.md", "../faq.md").as_deref(),
            Some("faq.md")
        );
        assert_eq!(
            resolve("guide/intro.md", "./a/../b.md").as_deref(),
            Some("guide/b.md")
        );
        assert_eq!(resolve("intro.md", "../../x.md"), None);
        assert_eq!(
            resolve("guide/intro.md", "/faq.md").as_deref(),
            Some("faq.md")
        );
    }

    #[test]
    fn relative_links_between_chapters() {
        assert_eq!(relative("guide/intro.md", "faq.md"), "../faq.md");
        assert_eq!(relative("intro.md", "guide/setup.md"), "guide/setup.md");
        assert_eq!(relative("guide/a.md", "guide/b.md"), "b.md");
        assert_eq!(relative("a/b/c.md", "a/d/e.md"), "../d/e.md");
        assert_eq!(relative("a.md", "a.md"), "a.md");
    }

    #[test]
    fn shown_paths_are_relative_to_the_user_and_the_repository() {
        let repo = Path::new("/repo");
        let root = Path::new("/repo/community");
        // The user in the repository root, the book in a folder of it.
        let paths = ShownPaths::new(root, Some(repo), Some(repo));
        assert_eq!(paths.terminal("src/a.md"), "community/src/a.md");
        assert_eq!(paths.terminal("../CODEOWNERS"), "CODEOWNERS");
        assert_eq!(paths.terminal("/repo/CONTRIBUTING.md"), "CONTRIBUTING.md");
        assert_eq!(paths.terminal("../../etc/x"), "/etc/x");
        assert_eq!(
            paths.annotation("community/src/a.md").as_deref(),
            Some("community/src/a.md")
        );
        assert_eq!(
            paths.annotation("CODEOWNERS").as_deref(),
            Some("CODEOWNERS")
        );
        assert_eq!(paths.annotation("/etc/x"), None);
        // The user in the book: annotations still relative to the repository.
        let paths = ShownPaths::new(root, Some(root), Some(repo));
        assert_eq!(paths.terminal("src/a.md"), "src/a.md");
        assert_eq!(paths.terminal("../CODEOWNERS"), "/repo/CODEOWNERS");
        assert_eq!(
            paths.annotation("src/a.md").as_deref(),
            Some("community/src/a.md")
        );
        assert_eq!(
            paths.annotation("/repo/CODEOWNERS").as_deref(),
            Some("CODEOWNERS")
        );
        // Without a user folder, names stay as diagnostics carry them.
        let paths = ShownPaths::new(root, None, None);
        assert_eq!(paths.terminal("../CODEOWNERS"), "../CODEOWNERS");
        assert_eq!(paths.annotation("src/a.md").as_deref(), Some("src/a.md"));
        assert_eq!(paths.annotation("../CODEOWNERS"), None);
        assert_eq!(
            ShownPaths::default().annotation("src/a.md").as_deref(),
            Some("src/a.md")
        );
    }

    #[test]
    fn classifies_destinations() {
        assert!(is_relative("a.md#x"));
        assert!(is_relative("#x"));
        assert!(is_relative("../a.md"));
        assert!(!is_relative("https://x.org/#a"));
        assert!(!is_relative("mailto:a@b"));
        assert!(!is_relative("//cdn.example/x"));
        assert_eq!(split_fragment("a.md?x=1#f"), ("a.md", Some("f")));
        assert_eq!(split_fragment("#f"), ("", Some("f")));
        assert_eq!(as_chapter_path("guide/x.html"), "guide/x.md");
    }
}
