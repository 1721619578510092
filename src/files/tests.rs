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
    for dir in [".github", "docs", ".gitlab"] {
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

/// Issue 38 (2): in a repository, a data file that is a symbolic link out
/// of it, or that is reached through a folder linked out of it, is never
/// read, and its error quotes nothing of the target; a link that stays in
/// the repository is followed; a file outside any repository is read as
/// named.
#[cfg(unix)]
#[test]
fn links_out_of_the_repository_are_never_followed() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("secret"), "MY_SECRET_TOKEN=1\n").expect("write");
    std::fs::create_dir_all(outside.path().join("other/.git")).expect("mkdir");
    std::fs::write(outside.path().join("other/OWNERS"), "MY_SECRET_TOKEN=2\n").expect("write");
    let repo = tempfile::tempdir().expect("tempdir");
    let root = repo.path();
    std::fs::create_dir_all(root.join(".git")).expect("mkdir");
    std::fs::create_dir_all(root.join("docs")).expect("mkdir");
    std::fs::write(root.join("docs/real.toml"), "inside\n").expect("write");
    symlink(outside.path().join("secret"), root.join("OWNERS")).expect("symlink");
    symlink("docs/real.toml", root.join("maintainers.toml")).expect("symlink");
    symlink(outside.path(), root.join("linked")).expect("symlink");
    symlink(outside.path().join("other"), root.join("other")).expect("symlink");
    symlink("../..", root.join("docs/up")).expect("symlink");
    let refused = |path: &Path| match read_bytes(path, MAX_DATA_FILE) {
        Err(e @ ReadError::OutsideRepository) => {
            let said = e.describe("OWNERS");
            assert!(!said.contains("MY_SECRET"), "{said}");
            assert_eq!(
                said,
                "OWNERS is a symbolic link out of the repository, which is never followed"
            );
            true
        }
        other => panic!("{}: {other:?}", path.display()),
    };
    assert!(refused(&root.join("OWNERS")));
    assert!(refused(&root.join("linked/secret")));
    assert!(refused(&root.join("other/OWNERS")));
    assert!(refused(&root.join("docs/../OWNERS")));
    let outside_name = outside.path().file_name().expect("a name");
    if root.parent() == outside.path().parent() {
        assert!(refused(
            &root.join("docs/up").join(outside_name).join("secret")
        ));
    }
    // Inside: followed.
    let inside = read_bytes(&root.join("maintainers.toml"), MAX_DATA_FILE).expect("read");
    assert_eq!(inside, b"inside\n");
    // From a folder of the repository, relative.
    let here = std::env::current_dir().expect("cwd");
    let relative = crate::paths::relative_path(&here, &root.join("OWNERS"));
    assert!(matches!(
        read_bytes(&relative, MAX_DATA_FILE),
        Err(ReadError::OutsideRepository)
    ));
    // Outside any repository: read as named.
    let plain = tempfile::tempdir().expect("tempdir");
    symlink(
        outside.path().join("secret"),
        plain.path().join("people.toml"),
    )
    .expect("symlink");
    assert!(read_bytes(&plain.path().join("people.toml"), MAX_DATA_FILE).is_ok());
}

#[test]
fn lone_crs_become_lfs_one_byte_for_one() {
    assert_eq!(lone_cr_as_lf("a\rb\r\nc\r".into()), "a\nb\r\nc\n");
    assert_eq!(lone_cr_as_lf("é\r\rü".into()), "é\n\nü");
    assert_eq!(lone_cr_as_lf("plain\n".into()), "plain\n");
}
