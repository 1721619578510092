//! Helpers shared by the integration tests: building mdBook's protocol input
//! and running the real binary.

#![allow(dead_code)]

pub mod html;
pub mod mdbook;

use std::io::Write as _;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{Value, json};

/// Which mdBook generation's JSON to send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    V04,
    V05,
}

impl Shape {
    pub fn items_key(self) -> &'static str {
        match self {
            Shape::V04 => "sections",
            Shape::V05 => "items",
        }
    }

    pub fn version(self) -> &'static str {
        match self {
            Shape::V04 => "0.4.52",
            Shape::V05 => "0.5.4",
        }
    }
}

/// A chapter for [`request`]: (name, path relative to src, content).
pub type TestChapter<'a> = (&'a str, &'a str, &'a str);

/// mdBook's `[context, book]` for `chapters`, with `config` as book.toml.
pub fn request(shape: Shape, root: &Path, config: Value, chapters: &[TestChapter<'_>]) -> String {
    let items: Vec<Value> = chapters
        .iter()
        .map(|(name, path, content)| {
            json!({"Chapter": {
                "name": name, "content": content, "number": null, "sub_items": [],
                "path": path, "source_path": path, "parent_names": []
            }})
        })
        .collect();
    let mut book = serde_json::Map::new();
    book.insert(shape.items_key().to_string(), Value::Array(items));
    if shape == Shape::V04 {
        book.insert("__non_exhaustive".into(), Value::Null);
    }
    let context = json!({
        "root": root, "config": config, "renderer": "html", "mdbook_version": shape.version()
    });
    serde_json::to_string(&json!([context, Value::Object(book)])).expect("serializable")
}

/// The binary under test.
pub fn bin() -> Command {
    let mut cmd = Command::cargo_bin("mdbook-community").expect("binary built");
    cmd.env_remove("GITHUB_ACTIONS");
    cmd
}

/// What one run printed.
pub struct RunResult {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl RunResult {
    /// Stderr with the diagnostics' codes left out (`error[C505]: x` as
    /// `error: x`), for tests of messages; the codes have tests of their own.
    pub fn messages(&self) -> String {
        without_codes(&self.stderr)
    }

    /// The chapters' contents from stdout, in order.
    pub fn contents(&self, shape: Shape) -> Vec<String> {
        let book: Value = serde_json::from_str(&self.stdout).expect("stdout is the book JSON");
        let mut out = Vec::new();
        collect(&book[shape.items_key()], &mut out);
        out
    }
}

fn collect(items: &Value, out: &mut Vec<String>) {
    for item in items.as_array().into_iter().flatten() {
        if let Some(chapter) = item.get("Chapter") {
            out.push(chapter["content"].as_str().unwrap_or_default().to_string());
            collect(&chapter["sub_items"], out);
        }
    }
}

/// Runs the preprocessor on `input`.
pub fn run(input: &str) -> RunResult {
    run_with(bin(), input)
}

/// Runs the preprocessor on `input`, which need not be UTF-8.
#[allow(dead_code)] // not every test crate sends raw bytes
pub fn run_bytes(input: &[u8]) -> RunResult {
    run_with_bytes(bin(), input)
}

/// Runs `cmd` as the preprocessor on `input`.
pub fn run_with(cmd: Command, input: &str) -> RunResult {
    run_with_bytes(cmd, input.as_bytes())
}

fn run_with_bytes(mut cmd: Command, input: &[u8]) -> RunResult {
    // As mdBook 0.5 runs it for a user in the book's folder: there, with
    // `PWD` saying so (paths in messages are relative to the user's folder).
    if let Some(root) = root_of(input) {
        cmd.current_dir(&root).env("PWD", &root);
    }
    let output = cmd.write_stdin(input.to_vec()).output().expect("runs");
    RunResult {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8 stderr"),
    }
}

/// The book root named in mdBook's input, when it is a folder.
fn root_of(input: &[u8]) -> Option<PathBuf> {
    // The context comes first; the book after it may be large.
    let head = &input[..input.len().min(1 << 16)];
    let at = head.windows(7).position(|w| w == b"\"root\":")?;
    let root: String = serde_json::Deserializer::from_slice(&head[at + 7..])
        .into_iter()
        .next()?
        .ok()?;
    let root = PathBuf::from(root);
    root.is_dir().then_some(root)
}

/// `../shared/corpus`, beside the repository.
pub fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

/// Whether the tests run on CI (`CI=true`, as `.ci/run` sets it), where a
/// test whose dependency is missing fails instead of being skipped.
pub fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// The corpus folder or file `relative` (under `../shared/corpus`), or
/// `None` when it is not there: then `test` says it is skipped, on stderr
/// past the harness's capture, and fails under `CI=true`.
pub fn corpus_path(test: &str, relative: &str) -> Option<PathBuf> {
    let path = corpus().join(relative);
    if path.exists() {
        return Some(path);
    }
    assert!(
        !on_ci(),
        "{test}: CI=true, but {} is not there (../shared/corpus beside the repository)",
        path.display()
    );
    let _ = writeln!(
        std::io::stderr(),
        "skipped: {test}: needs {} (../shared/corpus)",
        path.display()
    );
    None
}

/// A book root on disk with `files` (paths relative to the root).
pub fn book_root(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, content) in files {
        let full = dir.path().join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(full, content).expect("write");
    }
    dir
}

/// Runs the preprocessor over `chapters` in a book root holding `files`.
pub fn run_in(files: &[(&str, &str)], config: Value, chapters: &[TestChapter<'_>]) -> RunResult {
    let dir = book_root(files);
    run(&request(Shape::V05, dir.path(), config, chapters))
}

/// Runs one chapter and returns its new content, asserting success.
pub fn expand_one(files: &[(&str, &str)], chapter: &str) -> String {
    let result = run_in(files, json!({}), &[("Chapter", "chapter.md", chapter)]);
    assert_eq!(result.code, 0, "stderr:\n{}", result.stderr);
    result.contents(Shape::V05).remove(0)
}

/// Runs one chapter expecting failure; returns stderr with the temp root
/// path replaced by `<root>`.
pub fn errors_of(files: &[(&str, &str)], chapter: &str) -> String {
    let dir = book_root(files);
    let result = run(&request(
        Shape::V05,
        dir.path(),
        json!({}),
        &[("Chapter", "chapter.md", chapter)],
    ));
    assert_eq!(
        result.code, 1,
        "expected failure, stderr:\n{}",
        result.stderr
    );
    assert!(result.stdout.is_empty(), "no partial book on failure");
    result
        .stderr
        .replace(&dir.path().display().to_string(), "<root>")
}

/// `text` with `error[C505]:`, `warning[C601]:` and `note[C703]:` written
/// without their codes.
pub fn without_codes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("[C") {
        let code = &rest[at + 2..];
        let digits = code.bytes().take_while(u8::is_ascii_digit).count();
        let word = ["error", "warning", "note"]
            .iter()
            .any(|w| rest[..at].ends_with(w));
        if digits == 3 && word && code[digits..].starts_with("]:") {
            out.push_str(&rest[..at]);
            rest = &code[digits + 1..];
        } else {
            out.push_str(&rest[..at + 2]);
            rest = code;
        }
    }
    out.push_str(rest);
    out
}
