//! Finding and reading the files the data stage loads: one lookup order
//! (GitHub's, in the book root and then its parent) and one way of turning
//! bytes into text (UTF-8, an optional byte-order mark dropped).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, FollowOn};

pub mod tree;

pub use crate::paths::display as display_path;

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

/// The names in `folder`, in ASCII lower case and sorted (none when it
/// does not exist), when it can be listed and holds at most `limit`
/// entries; `None` otherwise. Lower case because the file system may not
/// tell cases apart (macOS, Windows): a name asked for in another case is
/// then looked for, not ruled out.
/// Whether many files of one folder exist is then asked of the folder
/// once, not of each file: a book of 1,000 chapters whose files are not
/// there cost 1,000 failed `stat`s.
pub fn names_in(folder: &Path, limit: usize) -> Option<Vec<OsString>> {
    let entries = match std::fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Some(Vec::new()),
        Err(_) => return None,
    };
    let mut names = Vec::new();
    for entry in entries {
        if names.len() == limit {
            return None;
        }
        names.push(entry.ok()?.file_name().to_ascii_lowercase());
    }
    names.sort_unstable();
    Some(names)
}

/// The largest people data file or CONTRIBUTING read, in bytes (16 MiB):
/// hundreds of times a large real one. CODEOWNERS has GitHub's own limit,
/// `ownership::codeowners::MAX_FILE_SIZE`.
pub const MAX_DATA_FILE: u64 = 16 * 1024 * 1024;

/// Why a file's text could not be had.
#[derive(Debug)]
pub enum ReadError {
    /// Reading failed (missing, a folder, no permission, ...).
    Io(std::io::Error),
    /// The path names something that is not a regular file (a FIFO, a
    /// device such as `/dev/zero`, a socket), named as what it is: it is
    /// never read, since opening or reading it could block or never end.
    NotAFile(&'static str),
    /// The path leads, through a symbolic link (the file's or a folder's),
    /// out of the repository it is in: it is never followed, and nothing
    /// of what it leads to is read or quoted.
    OutsideRepository,
    /// The file is larger than the limit for its kind; it is not read.
    TooBig {
        /// Its size in bytes.
        size: u64,
        /// The limit it is over.
        limit: u64,
    },
    /// The bytes are not UTF-8: the text with invalid bytes replaced, and
    /// the byte offset in it of the first invalid one.
    NotUtf8 {
        /// The text, lossily decoded.
        lossy: String,
        /// Where the first invalid byte is in `lossy`.
        at: usize,
    },
}

impl ReadError {
    /// The problem as one sentence about the file shown as `display`.
    pub fn describe(&self, display: &str) -> String {
        match self {
            ReadError::Io(e) => format!("cannot read {display}: {e}"),
            ReadError::NotAFile(kind) => format!(
                "{display} is not a regular file but {kind} (a FIFO, device or socket is never read)"
            ),
            ReadError::OutsideRepository => format!(
                "{display} is a symbolic link out of the repository, which is never followed"
            ),
            ReadError::TooBig { size, limit } => format!(
                "{display} is {size} bytes, more than the {} MiB mdbook-community reads",
                limit / (1024 * 1024)
            ),
            ReadError::NotUtf8 { .. } => format!("{display} is not valid UTF-8"),
        }
    }
}

/// Reads `path` as text (at most `limit` bytes); see [`read_bytes`] and
/// [`decode`].
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    decode(read_bytes(path, limit)?)
}

/// Reads `path` as text, as [`read_bytes_following_links`] reads it.
pub fn read_text_following_links(path: &Path, limit: u64) -> Result<String, ReadError> {
    decode(read_bytes_following_links(path, limit)?)
}

/// The bytes of the regular file at `path` (a symbolic link is followed
/// when it stays in the repository, see [`within_repository`]), when it
/// has at most `limit` of them. Anything else is refused before it is
/// opened: a link out of the repository could quote any file of the
/// machine (`/proc/self/environ`) in a public log or page, a FIFO would
/// block the build and a device could be endless. What is opened is looked
/// at again before it is read (on Unix it is opened without waiting for a
/// FIFO's writer), so that a file replaced by a FIFO in between cannot
/// block either.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let metadata = std::fs::metadata(path).map_err(ReadError::Io)?;
    within_repository(path)?;
    read_regular(path, &metadata, limit)
}

/// As [`read_bytes`], following a symbolic link wherever it leads: for
/// `book.toml` and the files `install` writes, which are edited at their
/// target (`book.toml` names the commands mdBook runs: it is trusted as
/// mdBook trusts it), never for data.
pub fn read_bytes_following_links(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let metadata = std::fs::metadata(path).map_err(ReadError::Io)?;
    read_regular(path, &metadata, limit)
}

/// The bytes of `path`, whose `metadata` was just read, when it is a
/// regular file of at most `limit` bytes.
fn read_regular(
    path: &Path,
    metadata: &std::fs::Metadata,
    limit: u64,
) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    regular_file(metadata)?;
    let file = open_without_waiting(path).map_err(ReadError::Io)?;
    let metadata = file.metadata().map_err(ReadError::Io)?;
    regular_file(&metadata)?;
    if metadata.len() > limit {
        return Err(ReadError::TooBig {
            size: metadata.len(),
            limit,
        });
    }
    let capacity = usize::try_from(metadata.len()).unwrap_or_default();
    let mut bytes = Vec::with_capacity(capacity);
    // The file may have grown since: never read more than the limit.
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooBig {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// `Ok` unless `path` is in a repository (a folder above it holds `.git`)
/// and leads out of it through a symbolic link: the file's own, or a
/// folder's between the repository root and the file. A link that stays
/// in the repository is followed. A path outside any repository (one
/// `book.toml` names outside it, say) is read as named: only what the
/// repository holds can be changed by a pull request.
///
/// Only when a link is on the way is anything resolved: a plain file
/// costs an `lstat`, once its folder is settled ([`folder_verdict`]).
pub fn within_repository(path: &Path) -> Result<(), ReadError> {
    let Ok(absolute) = std::path::absolute(path) else {
        return Ok(());
    };
    let absolute = crate::paths::normalize(&absolute);
    let Some(parent) = absolute.parent() else {
        return Ok(());
    };
    let Some(FolderVerdict { root, linked }) = folder_verdict(parent) else {
        return Ok(());
    };
    let linked =
        linked || std::fs::symlink_metadata(&absolute).is_ok_and(|m| m.file_type().is_symlink());
    if !linked {
        return Ok(());
    }
    let (Ok(real_root), Ok(real)) = (root.canonicalize(), absolute.canonicalize()) else {
        // A link that leads nowhere: opening it says so.
        return Ok(());
    };
    if real.starts_with(&real_root) {
        Ok(())
    } else {
        Err(ReadError::OutsideRepository)
    }
}

/// What is known of a folder data files are read from: the repository it
/// is in, and whether a folder between that root and it (itself
/// included) is a symbolic link.
#[derive(Debug, Clone)]
struct FolderVerdict {
    root: PathBuf,
    linked: bool,
}

/// The verdict on `folder` (absolute, normalised); `None` when it is in no
/// repository. Remembered for the run: a roster of 840 files in one
/// folder costs one walk up, then an `lstat` per file.
fn folder_verdict(folder: &Path) -> Option<FolderVerdict> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static KNOWN: OnceLock<Mutex<HashMap<PathBuf, Option<FolderVerdict>>>> = OnceLock::new();
    let known = KNOWN.get_or_init(Mutex::default);
    if let Some(verdict) = known.lock().ok().and_then(|k| k.get(folder).cloned()) {
        return verdict;
    }
    let verdict = repository_root(folder).map(|root| {
        let mut at = root.clone();
        let below = folder.strip_prefix(&root).unwrap_or(Path::new(""));
        let linked = below.components().any(|component| {
            at.push(component);
            std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink())
        });
        FolderVerdict { root, linked }
    });
    if let Ok(mut known) = known.lock() {
        known.insert(folder.to_path_buf(), verdict.clone());
    }
    verdict
}

/// The repository `folder` (absolute, normalised) is in: the nearest
/// folder holding `.git` from it up, not counting a folder that is itself
/// a symbolic link (a link to another repository is a way out of this
/// one), unless no other is found (the repository reached through a link).
fn repository_root(folder: &Path) -> Option<PathBuf> {
    let mut first_linked = None;
    for folder in folder.ancestors() {
        if std::fs::symlink_metadata(folder.join(".git")).is_err() {
            continue;
        }
        let is_link = std::fs::symlink_metadata(folder).is_ok_and(|m| m.file_type().is_symlink());
        if !is_link {
            return Some(folder.to_path_buf());
        }
        first_linked.get_or_insert_with(|| folder.to_path_buf());
    }
    first_linked
}

/// `Ok` for a regular file, or a folder (which then fails to read, with
/// the system's own reason); `NotAFile`, naming what it is, otherwise.
fn regular_file(metadata: &std::fs::Metadata) -> Result<(), ReadError> {
    let kind = metadata.file_type();
    if kind.is_file() || kind.is_dir() {
        return Ok(());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let named = [
            (kind.is_fifo(), "a FIFO"),
            (kind.is_char_device(), "a character device"),
            (kind.is_block_device(), "a block device"),
            (kind.is_socket(), "a socket"),
        ];
        if let Some((_, name)) = named.into_iter().find(|(is, _)| *is) {
            return Err(ReadError::NotAFile(name));
        }
    }
    Err(ReadError::NotAFile("something else"))
}

/// `path` opened for reading; on Unix without blocking (`O_NONBLOCK`), so
/// that opening a FIFO never waits for a writer. A regular file reads the
/// same either way.
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    options.open(path)
}

/// UTF-8 text from `bytes`, without a leading byte-order mark.
pub fn decode(bytes: Vec<u8>) -> Result<String, ReadError> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(match text.strip_prefix('\u{feff}') {
            Some(rest) => rest.to_string(),
            None => text,
        }),
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let at = String::from_utf8_lossy(&e.as_bytes()[..valid]).len();
            let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
            Err(ReadError::NotUtf8 { lossy, at })
        }
    }
}

/// `text` with each lone CR (an old Mac line ending, not the CR of a
/// CRLF) made a LF, for the readers that read a file by its lines: one
/// byte for one, so that every offset, line and column a diagnostic gives
/// is the file's own. Costs nothing for a file without a CR.
pub fn lone_cr_as_lf(text: String) -> String {
    if memchr::memchr(b'\r', text.as_bytes()).is_none() {
        return text;
    }
    let mut bytes = text.into_bytes();
    let mut from = 0;
    while let Some(found) = memchr::memchr(b'\r', &bytes[from..]) {
        let at = from + found;
        if bytes.get(at + 1) != Some(&b'\n') {
            bytes[at] = b'\n';
        }
        from = at + 1;
    }
    // ASCII for ASCII: still UTF-8.
    String::from_utf8(bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests;

/// Why a data file could not be used.
#[derive(Debug, Clone)]
pub struct LoadError {
    /// One line for the directive that needed the file.
    pub summary: String,
    /// `help:` lines for it (a file with a close name, say).
    pub help: Vec<String>,
    /// The file's own problems, reported once for the whole run.
    pub diagnostics: Vec<Diagnostic>,
    /// What the directives' errors follow from: they are printed once (or
    /// not at all when the cause is reported on its own), not once each.
    pub cause: FollowOn,
}

impl LoadError {
    /// An error that is all summary (the file is missing or unreadable):
    /// the first directive that needs the file reports it.
    pub fn summary(file: &str, summary: String) -> Self {
        LoadError {
            summary,
            help: Vec::new(),
            diagnostics: Vec::new(),
            cause: FollowOn::DataFile {
                file: file.to_string(),
                reported: false,
            },
        }
    }

    /// An error whose cause is reported on its own (the file's path in
    /// `book.toml`): no directive repeats it.
    pub fn reported(file: &str, summary: String) -> Self {
        LoadError {
            cause: FollowOn::DataFile {
                file: file.to_string(),
                reported: true,
            },
            ..LoadError::summary(file, summary)
        }
    }

    /// Adds a `help:` line.
    pub fn with_help(mut self, help: String) -> Self {
        self.help.push(help);
        self
    }
}
