//! Helpers shared by the integration tests: building mdBook's protocol input
//! and running the real binary.

#![allow(dead_code)]

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

/// Runs `cmd` as the preprocessor on `input`.
pub fn run_with(mut cmd: Command, input: &str) -> RunResult {
    let output = cmd
        .write_stdin(input.as_bytes().to_vec())
        .output()
        .expect("runs");
    RunResult {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8 stderr"),
    }
}

/// `../shared/corpus`, beside the repository.
pub fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}
