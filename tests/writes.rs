//! Issue 26 (21 to 24): how the plugin reads `book.toml` and writes the
//! files it writes. A write goes through a symbolic link to its target
//! (the link stays); only a regular file is replaced by a rename; a FIFO
//! or a device is written in place. `install` reads `book.toml` only when
//! it is a regular file of at most 16 MiB, and edits it in its own style:
//! line endings, a byte-order mark, inline tables and dotted keys kept.
//!
//! Every run that could block on a regression is bounded in time (and the
//! one that could read `/dev/zero` in memory), so that a regression fails
//! instead of hanging the suite or the machine.

mod common;

use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

use common::mdbook::Mdbook;
use common::{Shape, bin, request};
use serde_json::json;

/// How long a run may take before it counts as blocked.
const LIMIT: Duration = Duration::from_secs(30);

/// What one bounded run printed.
struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `cmd`, killed after [`LIMIT`]; panics when it was.
fn bounded(mut cmd: assert_cmd::Command, what: &str) -> Ran {
    let started = Instant::now();
    let output = cmd.timeout(LIMIT).output().expect("runs");
    assert!(
        started.elapsed() < LIMIT,
        "{what} did not finish within {LIMIT:?}: it blocked"
    );
    Ran {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// `mdbook-community install dir`, bounded in time.
fn install(dir: &Path) -> Ran {
    let mut cmd = bin();
    cmd.arg("install").arg(dir);
    bounded(cmd, "install")
}

/// `install`, with its address space limited to 1 GiB, so that reading an
/// endless file fails fast instead of taking the machine's memory.
fn install_in_1_gib(dir: &Path) -> Ran {
    let mut cmd = assert_cmd::Command::new("sh");
    cmd.args(["-c", "ulimit -v 1048576 && exec \"$0\" install \"$1\""])
        .arg(env!("CARGO_BIN_EXE_mdbook-community"))
        .arg(dir)
        .env_remove("GITHUB_ACTIONS");
    bounded(cmd, "install")
}

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

// -- 21: install writes through a symbolic link ----------------------------

/// A `book.toml` that is a symbolic link (to a file in another folder,
/// as a repository that shares one configuration keeps it) is edited
/// where it is: the target is replaced by a file written beside it, with
/// its permissions, and the link stays a link to it.
#[test]
fn install_writes_through_a_symlinked_book_toml() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (shared, book) = (dir.path().join("shared"), dir.path().join("book"));
    std::fs::create_dir_all(&shared).expect("mkdir");
    std::fs::create_dir_all(&book).expect("mkdir");
    let target = shared.join("book.toml");
    std::fs::write(&target, "[book]\ntitle = \"Shared\"\n").expect("write");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let link = book.join("book.toml");
    std::os::unix::fs::symlink("../shared/book.toml", &link).expect("symlink");

    let ran = install(&book);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let meta = std::fs::symlink_metadata(&link).expect("stat");
    assert!(meta.file_type().is_symlink(), "book.toml is still a link");
    assert_eq!(
        std::fs::read_link(&link).expect("readlink"),
        Path::new("../shared/book.toml")
    );
    let text = std::fs::read_to_string(&target).expect("read");
    assert!(
        text.starts_with("[book]\ntitle = \"Shared\"\n")
            && text.contains("[preprocessor.community]\nafter = [\"links\"]"),
        "the target was edited:\n{text}"
    );
    let mode = std::fs::metadata(&target).expect("stat").mode() & 0o777;
    assert_eq!(mode, 0o640, "the target keeps its permissions");
    assert_eq!(listing(&shared), ["book.toml"], "nothing left beside it");
    assert_eq!(
        listing(&book),
        ["book.toml", "mdbook-community.css", "mdbook-community.js"]
    );

    let again = install(&book);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    assert!(again.stdout.contains("nothing changed"), "{}", again.stdout);
    assert!(std::fs::symlink_metadata(&link).expect("stat").is_symlink());
}

// -- 22: install edits book.toml in its own style --------------------------

/// `book.toml`s of every shape, and what `install` makes of each: the
/// original bytes, with only the additions (so that everything else is
/// kept byte for byte).
const SHAPES: &[(&str, &str, &str)] = &[
    (
        "CRLF line endings",
        "[book]\r\ntitle = \"x\"\r\n\r\n[output.html]\r\n",
        "[book]\r\ntitle = \"x\"\r\n\r\n[output.html]\r\nadditional-css = [\"mdbook-community.css\"]\r\nadditional-js = [\"mdbook-community.js\"]\r\n\r\n[preprocessor.community]\r\nafter = [\"links\"]\r\n",
    ),
    (
        "a byte-order mark",
        "\u{feff}[book]\ntitle = \"x\"\n",
        "\u{feff}[book]\ntitle = \"x\"\n\n[preprocessor.community]\nafter = [\"links\"]\n\n[output.html]\nadditional-css = [\"mdbook-community.css\"]\nadditional-js = [\"mdbook-community.js\"]\n",
    ),
    (
        "a byte-order mark, CRLF and a multi-line string",
        "\u{feff}[book]\r\ntitle = \"x\"\r\ndescription = \"\"\"\r\ntwo\r\nlines\"\"\"\r\n[preprocessor.community]\r\n",
        "\u{feff}[book]\r\ntitle = \"x\"\r\ndescription = \"\"\"\r\ntwo\r\nlines\"\"\"\r\n[preprocessor.community]\r\nafter = [\"links\"]\r\n\r\n[output.html]\r\nadditional-css = [\"mdbook-community.css\"]\r\nadditional-js = [\"mdbook-community.js\"]\r\n",
    ),
    (
        "an inline table under a dotted key",
        "preprocessor.community = { after = [\"links\"] } # ours\n[book]\ntitle = \"x\"\n",
        "preprocessor.community = { after = [\"links\"] } # ours\n[book]\ntitle = \"x\"\n\n[output.html]\nadditional-css = [\"mdbook-community.css\"]\nadditional-js = [\"mdbook-community.js\"]\n",
    ),
    (
        "an empty inline table in [preprocessor]",
        "[book]\ntitle = \"x\"\n\n[preprocessor]\ncommunity = {}\n",
        "[book]\ntitle = \"x\"\n\n[preprocessor]\ncommunity = { after = [\"links\"] }\n\n[output.html]\nadditional-css = [\"mdbook-community.css\"]\nadditional-js = [\"mdbook-community.js\"]\n",
    ),
    (
        "dotted keys at the top",
        "preprocessor.community.renderers = [\"html\"]\nbuild.create-missing = false\n[book]\ntitle = \"x\"\n",
        "preprocessor.community.renderers = [\"html\"]\npreprocessor.community.after = [\"links\"]\nbuild.create-missing = false\n[book]\ntitle = \"x\"\n\n[output.html]\nadditional-css = [\"mdbook-community.css\"]\nadditional-js = [\"mdbook-community.js\"]\n",
    ),
    (
        "dotted keys in [preprocessor], a multi-line array, an inline [output] html",
        "[preprocessor]\ncommunity.after = [\n  \"index\",\n]\n\n[output]\nhtml = { default-theme = \"navy\" } # theme\n",
        "[preprocessor]\ncommunity.after = [\n  \"index\",\n  \"links\",\n]\n\n[output]\nhtml = { default-theme = \"navy\", additional-css = [\"mdbook-community.css\"], additional-js = [\"mdbook-community.js\"] } # theme\n",
    ),
    (
        "inline tables all the way",
        "preprocessor = { links = {} }\noutput = { html = { default-theme = \"navy\" } }\n",
        "preprocessor = { links = {}, community = { after = [\"links\"] } }\noutput = { html = { default-theme = \"navy\", additional-css = [\"mdbook-community.css\"], additional-js = [\"mdbook-community.js\"] } }\n",
    ),
];

/// Each shape is edited in place in its own style: the output is exactly
/// the expected bytes (line endings, the byte-order mark, inline tables,
/// dotted keys and every other byte kept), mdBook's own configuration
/// reader finds the plugin and the assets in it, and a second run changes
/// nothing.
#[test]
fn install_edits_each_shape_of_book_toml_in_its_own_style() {
    for (shape, original, expected) in SHAPES {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("book.toml");
        std::fs::write(&path, original).expect("write");
        let ran = install(dir.path());
        assert_eq!(ran.code, Some(0), "{shape}: {}", ran.stderr);
        let written = std::fs::read_to_string(&path).expect("read");
        assert_eq!(written, *expected, "{shape}");
        assert_read_by_mdbook(shape, &written);
        let again = install(dir.path());
        assert!(
            again.stdout.contains("nothing changed"),
            "{shape}: {}",
            again.stdout
        );
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            written,
            "{shape}"
        );
    }
}

/// mdBook 0.5's configuration reader (as `mdbook` reads `book.toml`: the
/// file's text as it is) finds the plugin, after `links`, and the assets.
fn assert_read_by_mdbook(shape: &str, text: &str) {
    let config = mdbook_preprocessor::config::Config::from_str(text)
        .unwrap_or_else(|e| panic!("{shape}: mdBook cannot read it: {e:?}\n{text}"));
    let list = |key: &str| -> Vec<String> {
        (config.get::<Vec<String>>(key))
            .unwrap_or_else(|e| panic!("{shape}: {key}: {e:?}"))
            .unwrap_or_default()
    };
    assert!(
        list("preprocessor.community.after").contains(&"links".to_string()),
        "{shape}"
    );
    assert!(
        list("output.html.additional-css").contains(&"mdbook-community.css".to_string()),
        "{shape}"
    );
    assert!(
        list("output.html.additional-js").contains(&"mdbook-community.js".to_string()),
        "{shape}"
    );
}

/// Each shape, once installed, builds with the real mdBooks, which run the
/// plugin and link its styles.
#[test]
fn installed_shapes_build_with_real_mdbooks() {
    for mdbook in Mdbook::all() {
        for (shape, original, _) in SHAPES {
            let dir = tempfile::tempdir().expect("tempdir");
            std::fs::write(dir.path().join("book.toml"), original).expect("write");
            let ran = install(dir.path());
            assert_eq!(ran.code, Some(0), "{shape}: {}", ran.stderr);
            let files = [
                ("src/SUMMARY.md", "# Summary\n\n- [People](people.md)\n"),
                ("src/people.md", "# People\n\n{{#person octocat}}\n"),
                (
                    "maintainers.toml",
                    "[people.octocat]\nname = \"Mona Lisa Octocat\"\n",
                ),
            ];
            for (file, content) in files {
                let full = dir.path().join(file);
                std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
                std::fs::write(full, content).expect("write");
            }
            let output = std::process::Command::new(mdbook.binary())
                .arg("build")
                .current_dir(dir.path())
                .env(
                    "MDBOOK_PREPROCESSOR__COMMUNITY__COMMAND",
                    env!("CARGO_BIN_EXE_mdbook-community"),
                )
                .env_remove("GITHUB_ACTIONS")
                .output()
                .expect("mdbook runs");
            let log = String::from_utf8_lossy(&output.stderr);
            assert!(output.status.success(), "{shape}, {mdbook:?}:\n{log}");
            let page = std::fs::read_to_string(dir.path().join("book/people.html")).expect("page");
            assert!(
                page.contains("Mona Lisa Octocat"),
                "{shape}, {mdbook:?}: not expanded"
            );
            assert!(
                // mdBook 0.5 puts a hash in the name.
                page.contains("<link rel=\"stylesheet\" href=\"mdbook-community"),
                "{shape}, {mdbook:?}: no styles"
            );
        }
    }
}

// -- 23: book.toml is read only when it is a regular file ------------------

/// A FIFO as `book.toml` is an error at once, naming it and what it is
/// (opening it used to wait for a writer forever), and nothing is written.
#[test]
fn install_refuses_a_fifo_book_toml_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("book.toml");
    mkfifo(&fifo);
    let ran = install(dir.path());
    assert_eq!(ran.code, Some(1), "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("book.toml is not a regular file but a FIFO"),
        "{}",
        ran.stderr
    );
    assert!(
        std::fs::metadata(&fifo)
            .expect("stat")
            .file_type()
            .is_fifo()
    );
    assert_eq!(listing(dir.path()), ["book.toml"], "nothing written");
}

/// A `book.toml` that is a link to `/dev/zero` is refused without being
/// read (it used to be read until memory ran out), and one over 16 MiB
/// is not read either; each error names the file and what is wrong.
#[test]
fn install_refuses_a_device_or_an_oversized_book_toml() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("book.toml")).expect("symlink");
    let ran = install_in_1_gib(dir.path());
    assert_eq!(ran.code, Some(1), "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("book.toml is not a regular file but a character device"),
        "{}",
        ran.stderr
    );
    assert_eq!(listing(dir.path()), ["book.toml"], "nothing written");

    let dir = tempfile::tempdir().expect("tempdir");
    let file = std::fs::File::create(dir.path().join("book.toml")).expect("create");
    file.set_len(17 * 1024 * 1024).expect("a sparse file");
    let ran = install_in_1_gib(dir.path());
    assert_eq!(ran.code, Some(1), "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("book.toml is 17825792 bytes, more than the 16 MiB mdbook-community reads"),
        "{}",
        ran.stderr
    );
}

// -- 24: the message file is written through what it names -----------------

/// Runs the preprocessor over a one-chapter book with the report in
/// SARIF written to `message_file`.
fn build_with_message_file(message_file: &Path) -> Ran {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = request(Shape::V05, dir.path(), json!({}), &[("A", "a.md", "# A\n")]);
    let mut cmd = bin();
    cmd.current_dir(dir.path())
        .env("PWD", dir.path())
        .env("MDBOOK_COMMUNITY_MESSAGE_FORMAT", "sarif")
        .env("MDBOOK_COMMUNITY_MESSAGE_FILE", message_file)
        .write_stdin(input);
    bounded(cmd, "the preprocessor")
}

/// Whether `text` is the SARIF document of a run.
fn is_sarif(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v["version"] == "2.1.0")
}

/// A message file that is a symbolic link gets the report in its target
/// (written beside it and renamed over it); the link stays a link. A
/// link to a file that does not exist yet makes the file.
#[test]
fn the_message_file_is_written_through_a_symlink() {
    let dir = tempfile::tempdir().expect("tempdir");
    let reports = dir.path().join("reports");
    std::fs::create_dir_all(&reports).expect("mkdir");
    let target = reports.join("community.sarif");
    std::fs::write(&target, "old").expect("write");
    let link = dir.path().join("community.sarif");
    std::os::unix::fs::symlink("reports/community.sarif", &link).expect("symlink");
    let dangling = dir.path().join("later.sarif");
    std::os::unix::fs::symlink("reports/later.sarif", &dangling).expect("symlink");

    for (path, written) in [(&link, &target), (&dangling, &reports.join("later.sarif"))] {
        let ran = build_with_message_file(path);
        assert_eq!(ran.code, Some(0), "{}", ran.stderr);
        assert!(!ran.stderr.contains("cannot write"), "{}", ran.stderr);
        assert!(std::fs::symlink_metadata(path).expect("stat").is_symlink());
        let report = std::fs::read_to_string(written).expect("the target is written");
        assert!(is_sarif(&report), "{report}");
    }
    assert_eq!(listing(&reports), ["community.sarif", "later.sarif"]);
    assert_eq!(
        listing(dir.path()),
        ["community.sarif", "later.sarif", "reports"]
    );
}

/// Whether the tests run as root (who may replace a device node).
fn is_root() -> bool {
    let probe = tempfile::tempfile().expect("tempfile");
    probe.metadata().expect("stat").uid() == 0
}

/// A message file that is a device is written into, never replaced: for a
/// user, `/dev/null` (a rename into /dev failed); as root, a copy of it
/// made in a temporary folder (a rename replaced the device by a file,
/// which the test must not do to the real one).
#[test]
fn the_message_file_can_be_a_device() {
    let dir = tempfile::tempdir().expect("tempdir");
    let null = if is_root() {
        let copy = dir.path().join("null");
        let made = std::process::Command::new("mknod")
            .arg(&copy)
            .args(["c", "1", "3"])
            .status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped: the_message_file_can_be_a_device: root, but mknod failed");
            return;
        }
        copy
    } else {
        PathBuf::from("/dev/null")
    };
    let ran = build_with_message_file(&null);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(!ran.stderr.contains("cannot write"), "{}", ran.stderr);
    let meta = std::fs::symlink_metadata(&null).expect("stat");
    assert!(meta.file_type().is_char_device(), "still a device");
    if null.starts_with(dir.path()) {
        assert_eq!(listing(dir.path()), ["null"], "nothing left beside it");
    }
}

/// A message file that is a FIFO is written into, for the program reading
/// it; it stays a FIFO. The reader opens it first, in a thread, and the
/// test waits for what it read for a bounded time.
#[test]
fn the_message_file_can_be_a_fifo() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("report.fifo");
    mkfifo(&fifo);
    let (sender, received) = std::sync::mpsc::channel();
    let reading = fifo.clone();
    std::thread::spawn(move || {
        let _ = sender.send(std::fs::read_to_string(reading));
    });
    let ran = build_with_message_file(&fifo);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(!ran.stderr.contains("cannot write"), "{}", ran.stderr);
    let report = received
        .recv_timeout(LIMIT)
        .expect("the reader got the report")
        .expect("readable");
    assert!(is_sarif(&report), "{report}");
    assert!(
        std::fs::metadata(&fifo)
            .expect("stat")
            .file_type()
            .is_fifo()
    );
    assert_eq!(listing(dir.path()), ["report.fifo"]);
}
