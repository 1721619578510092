//! Unit tests of the file lookup.

use std::path::{Path, PathBuf};

use super::*;
use crate::data::contributing::CONTRIBUTING_CANDIDATES;
use crate::ownership::codeowners::CODEOWNERS_CANDIDATES;

/// CODEOWNERS and CONTRIBUTING are looked for in GitHub's order in the
/// book root, then in its parent; what is there but is not a file is
/// found too, so that reading it says why.
#[test]
fn data_files_are_found_in_order_in_the_root_then_its_parent() {
    let repo = tempfile::tempdir().expect("tempdir");
    let book = repo.path().join("book");
    for dir in [".github", "docs"] {
        std::fs::create_dir_all(book.join(dir)).expect("mkdir");
        std::fs::create_dir_all(repo.path().join(dir)).expect("mkdir");
    }
    let write = |path: &str| std::fs::write(book.join(path), "x\n").expect("write");
    for (names, first) in [
        (CODEOWNERS_CANDIDATES, ".github/CODEOWNERS"),
        (CONTRIBUTING_CANDIDATES, "CONTRIBUTING.md"),
    ] {
        let looked = find_in_root_then_parent(&book, names).expect_err("nothing yet");
        let expected: Vec<PathBuf> = (names.iter().map(|n| book.join(n)))
            .chain(names.iter().map(|n| book.join("..").join(n)))
            .collect();
        assert_eq!(looked, expected);
        assert_eq!(names[0], first);
        // Each candidate, from the last to the first, wins over those
        // after it: the parent's first, ..., the root's first.
        for (i, name) in names.iter().enumerate().rev() {
            write(&format!("../{name}"));
            let found = find_in_root_then_parent(&book, names).expect("in the parent");
            assert_eq!(found, Path::new("..").join(name), "{i}");
        }
        for name in names.iter().rev() {
            write(name);
            let found = find_in_root_then_parent(&book, names).expect("in the root");
            assert_eq!(found, Path::new(name));
        }
    }
    // A folder where the file should be is found, and reading it fails.
    let other = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(other.path().join("CODEOWNERS")).expect("mkdir");
    let found = find_in_root_then_parent(other.path(), CODEOWNERS_CANDIDATES).expect("found");
    assert_eq!(found, Path::new("CODEOWNERS"));
}

/// What is not a regular file is refused without blocking, and named as
/// what it is: a FIFO (opened without waiting for a writer, even if it was
/// a regular file when looked at), a device.
#[cfg(unix)]
#[test]
fn what_is_not_a_regular_file_is_named_and_never_blocks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let describe = |path: &Path| match read_bytes(path, MAX_DATA_FILE) {
        Err(e @ ReadError::NotAFile(_)) => e.describe("it"),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        describe(&fifo),
        "it is not a regular file but a FIFO (a FIFO, device or socket is never read)"
    );
    assert!(describe(Path::new("/dev/zero")).contains("but a character device"));
    // Opened without waiting: a FIFO opened for reading returns at once.
    let file = open_without_waiting(&fifo).expect("opened");
    assert!(matches!(
        regular_file(&file.metadata().expect("stat")),
        Err(ReadError::NotAFile("a FIFO"))
    ));
}
