//! Finding and reading the files the data stage loads: one lookup order
//! (GitHub's, in the book root and then its parent) and one way of turning
//! bytes into text (UTF-8, an optional byte-order mark dropped).

use std::path::{Path, PathBuf};

/// Where CODEOWNERS is looked for, in order (GitHub's), in the book root and
/// then in its parent (the repository root when the book lives in a
/// subfolder).
pub const CODEOWNERS_CANDIDATES: &[&str] = &super::codeowners::FILE_LOCATIONS;

/// Where CONTRIBUTING is looked for, in the same way.
pub const CONTRIBUTING_CANDIDATES: &[&str] = &[
    "CONTRIBUTING.md",
    ".github/CONTRIBUTING.md",
    "docs/CONTRIBUTING.md",
];

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

/// Why a file's text could not be had.
#[derive(Debug)]
pub enum ReadError {
    /// Reading failed (missing, a folder, no permission, ...).
    Io(std::io::Error),
    /// The bytes are not UTF-8: the text with invalid bytes replaced, and
    /// the byte offset in it of the first invalid one.
    NotUtf8 {
        /// The text, lossily decoded.
        lossy: String,
        /// Where the first invalid byte is in `lossy`.
        at: usize,
    },
}

/// Reads `path` as text; see [`decode`].
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    decode(std::fs::read(path).map_err(ReadError::Io)?)
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

#[cfg(test)]
mod tests;
