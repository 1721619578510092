//! Do no harm: real books and the CommonMark and GFM spec examples, which
//! hold no directive of ours, come back byte-identical.
//!
//! These need `../shared/corpus` beside the repository; `.ci/run` runs them
//! with `cargo test --test corpus -- --ignored`.

mod common;

use common::{Shape, corpus, request, run};
use serde_json::{Value, json};

fn recorded_inputs() -> Vec<std::path::PathBuf> {
    let dir = corpus().join("inputs");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("readable dir").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

#[test]
#[ignore = "needs ../shared/corpus; run by .ci/run"]
fn recorded_books_come_back_unchanged_in_their_own_shape() {
    let files = recorded_inputs();
    assert_eq!(files.len(), 10, "five books, two mdBook versions each");
    for file in files {
        let input = std::fs::read_to_string(&file).expect("readable");
        let sent: Value = serde_json::from_str(&input).expect("recorded JSON");
        let result = run(&input);
        assert_eq!(result.code, 0, "{}: {}", file.display(), result.stderr);
        assert!(
            !result.stderr.contains("error"),
            "{}: {}",
            file.display(),
            result.stderr
        );
        let returned: Value = serde_json::from_str(&result.stdout).expect("book JSON");
        // Same shape, same items, same bytes in every chapter.
        assert_eq!(returned, sent[1], "{}", file.display());
        let shape = if file.to_string_lossy().contains("0.4") {
            "sections"
        } else {
            "items"
        };
        assert!(
            returned.get(shape).is_some(),
            "{}: answered in another shape",
            file.display()
        );
    }
}

/// Every example of a spec file (`spec.json`), as one chapter each.
fn spec_examples(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let examples: Vec<Value> = serde_json::from_str(&text).expect("spec.json");
    examples
        .iter()
        .map(|e| e["markdown"].as_str().expect("markdown").to_string())
        .collect()
}

fn assert_examples_unchanged(examples: &[String], shape: Shape) {
    let chapters: Vec<(String, String)> = examples
        .iter()
        .enumerate()
        .map(|(i, md)| (format!("example-{i}.md"), md.clone()))
        .collect();
    let refs: Vec<_> = chapters
        .iter()
        .map(|(p, c)| (p.as_str(), p.as_str(), c.as_str()))
        .collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let input = request(shape, dir.path(), json!({"book": {}}), &refs);
    let result = run(&input);
    assert_eq!(result.code, 0, "{}", result.stderr);
    let contents = result.contents(shape);
    assert_eq!(contents.len(), examples.len());
    for (i, (got, want)) in contents.iter().zip(examples).enumerate() {
        assert_eq!(got, want, "example {} changed", i + 1);
    }
}

#[test]
#[ignore = "needs ../shared/corpus; run by .ci/run"]
fn commonmark_spec_examples_come_back_unchanged() {
    let examples = spec_examples(&corpus().join("commonmark/commonmark-spec/spec.json"));
    assert_eq!(examples.len(), 655);
    assert_examples_unchanged(&examples, Shape::V05);
    assert_examples_unchanged(&examples, Shape::V04);
}

#[test]
#[ignore = "needs ../shared/corpus; run by .ci/run"]
fn gfm_spec_examples_come_back_unchanged() {
    let examples = spec_examples(&corpus().join("commonmark/cmark-gfm/test/spec.json"));
    assert!(examples.len() > 600, "{}", examples.len());
    assert_examples_unchanged(&examples, Shape::V05);
    assert_examples_unchanged(&examples, Shape::V04);
}
