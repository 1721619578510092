//! Chapter paths as links see them: `/`-separated, relative to `src`, with
//! `.` and `..` resolved, and the relative path from one chapter to another;
//! file paths as messages, the terminal and annotations show them; and the
//! one way every file the plugin writes is written ([`prepare_write`]).

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

/// `path` with `.` and `..` removed lexically, for a path that must not
/// leave where it starts: `None` when a `..` climbs past its first
/// component (for an absolute path, past the file system's root), where
/// [`normalize`] would keep the `..`.
pub fn normalize_within(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Some(out)
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

    /// The file `shown` (as [`terminal`](Self::terminal) shows it) as an
    /// absolute path, `..`s resolved; `None` when there is no book root to
    /// resolve a relative name against.
    pub fn absolute(&self, shown: &str) -> Option<PathBuf> {
        let base = self.here.as_deref().unwrap_or(&self.root);
        Some(self.full(base, shown)).filter(|p| p.is_absolute())
    }

    /// The folder annotation paths are relative to (the repository root,
    /// or the book root), when it is absolute.
    pub fn annotation_root(&self) -> Option<&Path> {
        Some(self.repository.as_path()).filter(|p| p.is_absolute())
    }

    /// `name`, relative to `base` or absolute, as a full path: its folder
    /// resolved through symbolic links, the file named as it is (a file
    /// that is a link is shown as the link, never as what it leads to).
    fn full(&self, base: &Path, name: &str) -> PathBuf {
        let path = normalize(&base.join(name));
        if base.as_os_str().is_empty() {
            return path; // no book root: names stay relative
        }
        in_real_folder(&path)
    }
}

/// Writes `bytes` to `path`: [`prepare_write`], then
/// [`PreparedWrite::commit`].
pub fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    prepare_write(path, bytes)?.commit()
}

/// Readies a write of `bytes` to `path`, by the one rule every file the
/// plugin writes follows: a write goes through the path to what it names.
/// A regular file, or nothing, is replaced whole: the bytes are written to
/// a new file beside it (with its permissions, flushed to disk) that
/// [`PreparedWrite::commit`] renames over it, so that a reader never sees
/// half a file. A symbolic link is followed to its final target, which is
/// replaced so (the link stays a link), or made when the link dangles.
/// Anything else (a FIFO, a device such as `/dev/null`, a terminal) is
/// opened and written in place when committed: renaming over it would
/// replace it, or fail.
pub fn prepare_write<'b>(path: &Path, bytes: &'b [u8]) -> std::io::Result<PreparedWrite<'b>> {
    let (target, how) = match write_target(path)? {
        WriteTarget::Replace(target) => {
            let staged = stage_beside(&target, bytes)?;
            (target, Staged::Rename(staged))
        }
        WriteTarget::InPlace => (path.to_path_buf(), Staged::InPlace(bytes)),
    };
    Ok(PreparedWrite { target, how })
}

/// A write [`prepare_write`] readied. Dropped uncommitted, it leaves the
/// target as it was and removes its staged file.
#[derive(Debug)]
pub struct PreparedWrite<'b> {
    /// What is written: the final target of a symbolic link.
    target: PathBuf,
    how: Staged<'b>,
}

#[derive(Debug)]
enum Staged<'b> {
    /// The bytes, in a file beside the target, to rename over it.
    Rename(tempfile::NamedTempFile),
    /// The bytes, to write into the target as it is.
    InPlace(&'b [u8]),
}

impl PreparedWrite<'_> {
    /// Writes the bytes: renames the staged file over the target, or
    /// writes into it.
    pub fn commit(self) -> std::io::Result<()> {
        use std::io::Write;
        match self.how {
            Staged::Rename(staged) => staged.persist(&self.target).map(drop).map_err(|e| e.error),
            Staged::InPlace(bytes) => {
                let mut file = std::fs::OpenOptions::new().write(true).open(&self.target)?;
                if file.metadata()?.is_file() {
                    // Replaced by a regular file since it was looked at:
                    // never write one in place.
                    let message = "became a regular file while it was written";
                    return Err(std::io::Error::other(message));
                }
                file.write_all(bytes)?;
                file.flush()
            }
        }
    }
}

/// Where and how [`prepare_write`] writes.
enum WriteTarget {
    /// Rename a new file over this path (a regular file, or nothing).
    Replace(PathBuf),
    /// Write into the path as it is.
    InPlace,
}

/// The rule of [`prepare_write`]: what `path` names, through any symbolic
/// links, decides how it is written.
fn write_target(path: &Path) -> std::io::Result<WriteTarget> {
    let is_link = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_symlink());
    match std::fs::metadata(path) {
        Ok(metadata) if !metadata.is_file() => Ok(WriteTarget::InPlace),
        Ok(_) if is_link(path) => Ok(WriteTarget::Replace(path.canonicalize()?)),
        Ok(_) => Ok(WriteTarget::Replace(path.to_path_buf())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Ok(WriteTarget::Replace(dangling_target(path)?))
        }
        Err(e) => Err(e),
    }
}

/// The path that `path`, which does not resolve to anything, would name
/// once made: itself, or the end of the chain of symbolic links it starts.
fn dangling_target(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    // Linux's own limit on the links one lookup follows.
    for _ in 0..40 {
        let Ok(link) = std::fs::read_link(&current) else {
            return Ok(current);
        };
        current = match current.parent() {
            Some(folder) => folder.join(link),
            None => link,
        };
    }
    let message = "too many levels of symbolic links";
    Err(std::io::Error::other(format!(
        "{}: {message}",
        path.display()
    )))
}

/// `bytes` in a new file beside `target` (in its folder, so that a rename
/// moves it over the target), with `target`'s permissions when it exists
/// (a new file's, less the umask, otherwise), flushed to disk.
fn stage_beside(target: &Path, bytes: &[u8]) -> std::io::Result<tempfile::NamedTempFile> {
    use std::io::Write;
    let name = target
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let folder = match target.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut staged = builder.tempfile_in(folder)?;
    staged.write_all(bytes)?;
    if let Ok(metadata) = std::fs::metadata(target) {
        staged.as_file().set_permissions(metadata.permissions())?;
    }
    staged.as_file().sync_all()?;
    Ok(staged)
}

/// `path` (normalised) with its folder resolved through symbolic links and
/// its file name as it is: one name for one directory entry, whichever
/// way it is reached, where a link is named as the link, never as what it
/// leads to.
pub fn in_real_folder(path: &Path) -> PathBuf {
    let path = normalize(path);
    match (path.parent(), path.file_name()) {
        (Some(folder), Some(file)) if !folder.as_os_str().is_empty() => folder
            .canonicalize()
            .map_or_else(|_| path.clone(), |folder| folder.join(file)),
        _ => path.canonicalize().unwrap_or(path),
    }
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

    /// The one write rule: a regular file (or nothing) is replaced by a
    /// rename, keeping its permissions; symbolic links (a chain of them,
    /// relative, or one that dangles) are followed to their final target,
    /// which is replaced, and stay links; nothing is left beside a target.
    #[cfg(unix)]
    #[test]
    fn writes_go_through_symbolic_links_and_replace_only_regular_files() {
        use std::os::unix::fs::{PermissionsExt, symlink};
        let dir = tempfile::tempdir().expect("tempdir");
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir_all(&a).expect("mkdir");
        std::fs::create_dir_all(&b).expect("mkdir");
        let file = b.join("file");
        std::fs::write(&file, "old").expect("write");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        symlink("../b/file", a.join("one")).expect("symlink");
        symlink("one", a.join("two")).expect("symlink");
        write_file(&a.join("two"), b"new").expect("written");
        assert_eq!(std::fs::read_to_string(&file).expect("read"), "new");
        let mode = std::fs::metadata(&file).expect("stat").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        for link in ["one", "two"] {
            let meta = std::fs::symlink_metadata(a.join(link)).expect("stat");
            assert!(meta.is_symlink(), "{link}");
        }
        symlink("../b/later", a.join("dangling")).expect("symlink");
        write_file(&a.join("dangling"), b"made").expect("written");
        assert_eq!(
            std::fs::read_to_string(b.join("later")).expect("read"),
            "made"
        );
        write_file(&b.join("new"), b"fresh").expect("written");
        let names = |d: &Path| {
            let mut names: Vec<String> = std::fs::read_dir(d)
                .expect("list")
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .collect();
            names.sort();
            names
        };
        assert_eq!(names(&b), ["file", "later", "new"]);
        assert_eq!(names(&a), ["dangling", "one", "two"]);
        // A write readied and dropped leaves the target and nothing else.
        drop(prepare_write(&file, b"never").expect("staged"));
        assert_eq!(std::fs::read_to_string(&file).expect("read"), "new");
        assert_eq!(names(&b), ["file", "later", "new"]);
        // A folder is neither replaced nor written.
        assert!(write_file(&a, b"x").is_err());
        assert!(a.is_dir());
    }

    /// A FIFO is written into, not replaced (and a device, such as
    /// `/dev/null`, likewise).
    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_device_is_written_in_place() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let reading = fifo.clone();
        let reader = std::thread::spawn(move || std::fs::read(reading));
        write_file(&fifo, b"through").expect("written");
        assert_eq!(reader.join().expect("read").expect("read"), b"through");
        let meta = std::fs::metadata(&fifo).expect("stat");
        assert!(meta.file_type().is_fifo());
        assert!(matches!(
            write_target(Path::new("/dev/null")),
            Ok(WriteTarget::InPlace)
        ));
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
