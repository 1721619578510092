//! The repository's files: what coverage, `unowned`, `owners` and the
//! OWNERS tree are computed over.
//!
//! The repository root is the nearest folder above the book holding
//! `.git`, else the book's parent. Its files are the files git tracks
//! (`git ls-files -z`: the index, as a fresh clone has them; the git
//! command line rather than a library in the binary, see the guide's "Who
//! owns what"), else, when the root is no git repository or git cannot list
//! it, the folder's files as the `ignore` crate walks it, honouring
//! `.gitignore`. Read at most once per run, when something first asks.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::config::Settings;

/// More files than this is refused: the list is kept in memory, and no
/// repository this plugin documents comes near it.
pub const MAX_FILES: usize = 2_000_000;

/// How the file list was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// The files git tracks.
    Git,
    /// The folder walked, honouring `.gitignore` (no git repository, or
    /// git could not list it).
    Folder,
}

/// The repository root and its files.
#[derive(Debug, Clone)]
pub struct Repository {
    /// The root, absolute.
    pub root: PathBuf,
    /// How `files` was made.
    pub listing: Listing,
    /// Every file, relative to the root, `/`-separated, sorted, each once.
    files: Vec<String>,
}

impl Repository {
    /// The repository root of the book `settings` describe: the nearest
    /// folder holding `.git` above the book, else the book's parent (the
    /// book root itself when it has none).
    pub fn root_of(settings: &Settings) -> PathBuf {
        let book = std::path::absolute(&settings.root).unwrap_or_else(|_| settings.root.clone());
        if let Some(root) = crate::paths::repository_of(&book) {
            return root;
        }
        let book = crate::paths::normalize(&book);
        book.parent().map_or(book.clone(), Path::to_path_buf)
    }

    /// Lists the files of the repository at `root`.
    pub fn load(root: &Path) -> Result<Repository, String> {
        let (listing, mut files) = match tracked_files(root) {
            Some(files) => (Listing::Git, files),
            None => (Listing::Folder, walked_files(root)?),
        };
        if files.len() > MAX_FILES {
            return Err(format!(
                "the repository at {} has more than {MAX_FILES} files",
                root.display()
            ));
        }
        files.sort_unstable();
        files.dedup();
        Ok(Repository {
            root: root.to_path_buf(),
            listing,
            files,
        })
    }

    /// A repository of `files` (any order) at `root`, for tests and
    /// benchmarks.
    pub fn of_files(root: PathBuf, mut files: Vec<String>) -> Repository {
        files.sort_unstable();
        files.dedup();
        Repository {
            root,
            listing: Listing::Folder,
            files,
        }
    }

    /// Every file, sorted.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// Whether `path` (relative to the root) is one of the files.
    pub fn has_file(&self, path: &str) -> bool {
        self.files
            .binary_search_by(|f| f.as_str().cmp(path))
            .is_ok()
    }

    /// How the list was made, in words: "in git (tracked, ...)".
    pub fn described(&self) -> &'static str {
        match self.listing {
            Listing::Git => "in git (tracked, or untracked and not ignored)",
            Listing::Folder => "in the folder (walked, honouring .gitignore)",
        }
    }
}

/// The files git tracks under `root` and the untracked ones it does not
/// ignore (a file about to be committed is the repository's too: a rule
/// for it matches something), or `None` when `root` has no `.git` or git
/// cannot list it. The repository is named explicitly, so that git never
/// looks above `root` for another one.
fn tracked_files(root: &Path) -> Option<Vec<String>> {
    let git_dir = root.join(".git");
    if !git_dir.exists() {
        return None;
    }
    let output = crate::git::command()
        .arg("--git-dir")
        .arg(&git_dir)
        .arg("--work-tree")
        .arg(root)
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
            "--full-name",
        ])
        .current_dir(root)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    Some(
        output
            .stdout
            .split(|&b| b == 0)
            .filter(|path| !path.is_empty())
            .map(|path| String::from_utf8_lossy(path).into_owned())
            .collect(),
    )
}

/// The files under `root`, honouring `.gitignore` files (and hidden files
/// kept, as git keeps them), without `.git` itself.
fn walked_files(root: &Path) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    let walk = ignore::WalkBuilder::new(root)
        .hidden(false)
        .parents(false)
        .require_git(false)
        .follow_links(false)
        .filter_entry(|entry| entry.file_name() != ".git")
        .build();
    for entry in walk {
        let Ok(entry) = entry else {
            continue; // an unreadable folder: its files are not listed
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Ok(relative) = entry.path().strip_prefix(root) else {
            continue;
        };
        files.push(crate::paths::display(relative));
        if files.len() > MAX_FILES {
            break;
        }
    }
    if files.is_empty() && !root.is_dir() {
        return Err(format!("cannot list the files of {}", root.display()));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_walked_honouring_gitignore() {
        let dir = tempfile::tempdir().expect("tempdir");
        for (path, text) in [
            (".gitignore", "target/\n*.log\n"),
            ("src/main.rs", ""),
            ("target/debug/x", ""),
            ("a.log", ""),
            ("docs/my file.md", ""),
            (".github/CODEOWNERS", ""),
        ] {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
            std::fs::write(full, text).expect("write");
        }
        let repo = Repository::load(dir.path()).expect("listed");
        assert_eq!(repo.listing, Listing::Folder);
        assert_eq!(
            repo.files(),
            [
                ".github/CODEOWNERS",
                ".gitignore",
                "docs/my file.md",
                "src/main.rs"
            ]
        );
        assert!(repo.has_file("src/main.rs"));
        assert!(!repo.has_file("a.log"));
    }

    #[test]
    fn a_broken_git_folder_falls_back_to_the_walk() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join(".git")).expect("mkdir");
        std::fs::write(dir.path().join(".git/HEAD"), "ref: refs/heads/main\n").expect("write");
        std::fs::write(dir.path().join("README.md"), "").expect("write");
        let repo = Repository::load(dir.path()).expect("listed");
        assert_eq!(repo.listing, Listing::Folder);
        assert_eq!(repo.files(), ["README.md"]);
    }

    #[test]
    fn git_ls_files_runs_nothing_the_checkout_configures() {
        let dir = tempfile::tempdir().expect("tempdir");
        let marker = crate::git::hostile::repository(dir.path(), false);
        let repo = Repository::load(dir.path()).expect("listed");
        assert_eq!(repo.listing, Listing::Git);
        assert!(repo.has_file("README.md"));
        assert_eq!(crate::git::hostile::ran(&marker), None);
    }
}
