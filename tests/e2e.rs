//! End-to-end: real books built by real mdBook binaries with the plugin.
//!
//! These need mdBook 0.5.4 and 0.4.52: set `MDBOOK_05` and `MDBOOK_04` to
//! their paths. `.ci/run` installs both and runs these with
//! `cargo test --test e2e -- --ignored`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The real mdBook binaries.
#[derive(Debug, Clone, Copy)]
enum Mdbook {
    V05,
    V04,
}

impl Mdbook {
    const ALL: [Mdbook; 2] = [Mdbook::V05, Mdbook::V04];

    fn binary(self) -> PathBuf {
        let var = match self {
            Mdbook::V05 => "MDBOOK_05",
            Mdbook::V04 => "MDBOOK_04",
        };
        let path = std::env::var_os(var)
            .map(PathBuf::from)
            .unwrap_or_else(|| panic!("set {var} to the path of the mdBook binary"));
        assert!(path.is_file(), "{var}={} is not a file", path.display());
        path
    }
}

/// A book on disk, using this checkout's binary as its preprocessor.
struct TestBook {
    dir: tempfile::TempDir,
}

impl TestBook {
    /// A book with `extra` appended to book.toml and `files` under the root
    /// (paths relative to the book root; chapters go under `src/`).
    fn new(extra_toml: &str, files: &[(&str, &str)]) -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let binary = env!("CARGO_BIN_EXE_mdbook-community");
        let toml = format!(
            "[book]\ntitle = \"Test\"\n\n[preprocessor.community]\ncommand = {binary:?}\nafter = [\"links\"]\n{extra_toml}\n"
        );
        std::fs::write(dir.path().join("book.toml"), toml).expect("write book.toml");
        for (path, content) in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().expect("has parent")).expect("mkdir");
            std::fs::write(full, content).expect("write file");
        }
        TestBook { dir }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn build(&self, mdbook: Mdbook) -> std::process::Output {
        Command::new(mdbook.binary())
            .arg("build")
            .arg(self.root())
            .env_remove("GITHUB_ACTIONS")
            .output()
            .expect("mdbook runs")
    }

    fn build_ok(&self, mdbook: Mdbook) -> String {
        let output = self.build(mdbook);
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        assert!(
            output.status.success(),
            "{mdbook:?} build failed:\n{stderr}"
        );
        stderr
    }

    fn read(&self, path: &str) -> String {
        let full = self.root().join(path);
        std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
    }
}

#[test]
#[ignore = "needs real mdBook binaries; run by .ci/run"]
fn both_mdbooks_accept_the_answer_and_chapters_stay_byte_identical() {
    let chapter = "# Plain\r\n\r\nText with `{{#maintainers}}` in code and \\{{#person x}} escaped.\r\n\r\n| a | b |\r\n|---|---|\r\n| 1 | 2 |\r\n";
    for mdbook in Mdbook::ALL {
        let book = TestBook::new(
            "[output.markdown]\n[output.html]\n",
            &[
                ("src/SUMMARY.md", "[Plain](plain.md)\n"),
                ("src/plain.md", chapter),
            ],
        );
        book.build_ok(mdbook);
        // The markdown renderer writes chapters as preprocessors left them.
        let rendered = book.read("book/markdown/plain.md");
        let expected = chapter.replace("\\{{#person", "{{#person"); // links un-escapes
        assert_eq!(rendered, expected, "{mdbook:?}");
        assert!(
            book.read("book/html/plain.html").contains("<table>"),
            "{mdbook:?}"
        );
    }
}

#[test]
#[ignore = "needs real mdBook binaries; run by .ci/run"]
fn a_settings_error_stops_mdbook_with_the_location() {
    for mdbook in Mdbook::ALL {
        let book = TestBook::new(
            "on-eror = \"warn\"\n",
            &[("src/SUMMARY.md", "[A](a.md)\n"), ("src/a.md", "# A\n")],
        );
        let output = book.build(mdbook);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{mdbook:?}");
        assert!(
            stderr.contains("unknown key `on-eror`"),
            "{mdbook:?}: {stderr}"
        );
        assert!(stderr.contains("book.toml:7:1"), "{mdbook:?}: {stderr}");
        assert!(!book.root().join("book/index.html").exists());
    }
}
