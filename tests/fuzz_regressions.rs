//! Regression tests for bugs found by fuzzing (`fuzz/`, see "Fuzzing" in
//! CONTRIBUTING.md). Each test is the minimized input of one finding.
//!
//! Each test says which target found the bug, what happened and where, and
//! how it was fixed.

use std::sync::Arc;

use mdbook_community::testing::Chapter;
use mdbook_community::testing::CodeOwners;
use mdbook_community::testing::Settings;
use mdbook_community::testing::builtin_registry;
use mdbook_community::testing::process_chapters;
use mdbook_community::testing::{self as diagnostics, EmitOptions, SourceFile};
use mdbook_community::testing::{Context, Generation};
use serde_json::{Value, json};

fn settings(config: Value) -> Settings {
    let context = Context {
        root: ".".into(),
        config,
        renderer: "html".into(),
        mdbook_version: "0.5.4".into(),
    };
    Settings::from_context(&context, Generation::V05).expect("valid settings")
}

fn chapter(content: &str) -> Chapter {
    Chapter::new("Chapter", Some("chapter.md"), Some("chapter.md"), content)
}

/// Found by `chapter` (minimized input `b"[](#%\xff)"`, the `\xff` read as
/// U+FFFD). Panicked with "end byte index 3 is not a char boundary; it is
/// inside '\u{fffd}' (bytes 1..4) of `%\u{fffd}`" at
/// `src/anchors.rs:128`, since moved to `paths::percent_decoded` in
/// `src/paths.rs` (`percent_decode` sliced `text[i + 1..i + 3]`
/// without checking char boundaries), called from the whole-book anchor
/// check (`check_chapter` -> `check_link` -> `target_of`), which runs by
/// default: a chapter with such a link made `mdbook build` panic.
#[test]
fn fuzz_percent_before_a_multibyte_char_in_a_fragment_does_not_panic() {
    let links = [
        "[](#%\u{fffd})",
        "[a](#%a\u{e9})",
        "[b](#%1\u{4e2d}\u{6587})",
        "[c](#50%\u{6298}\u{6263})",
    ];
    for link in links {
        let (contents, found) = process_chapters(
            &settings(json!({})),
            &builtin_registry(),
            &[chapter(&format!("# Title\n\n{link}\n"))],
        );
        assert_eq!(contents, vec![None], "{link}");
        assert!(
            found.iter().any(|d| d.message.contains("broken link")),
            "{link}: {found:?}"
        );
    }
    // The same decoding for links to CONTRIBUTING on the repository host.
    let url = "https://github.com/o/r/blob/main/CONTRIBUTING.md";
    let config = json!({"preprocessor": {"community": {"contributing-url": url}}});
    let _ = process_chapters(
        &settings(config),
        &builtin_registry(),
        &[chapter(&format!("[x]({url}#%a\u{e9})\n"))],
    );
}

/// Found by profiling the `codeowners` target (its throughput was dominated
/// by printing diagnostics). `diagnostics::emit` added the data file to a
/// fresh `SimpleFiles` for every diagnostic that pointed into it, and
/// codespan indexes a file's line starts on every `add`: printing the
/// warnings of a CODEOWNERS file took time proportional to
/// (number of warnings) x (file size). A CODEOWNERS of 64,000 invalid lines
/// (`"!neg @a\n"`, 820 KB, well under GitHub's 3 MB limit) took 58 s to print
/// in a release build. Fixed by indexing each file once per `emit`
/// (`FileIndex`, now in `src/report/mod.rs`, whose unit test checks that a file
/// is added once). This test prints such a file's warnings, with the right
/// line for each, and GitHub annotations for them (since issue 17 the first
/// ten in full and the rest as one line); it asserts no time (speed is for
/// benchmarks), but before the fix it ran for minutes.
#[test]
fn fuzz_every_warning_of_a_big_codeowners_file_is_printed_with_its_line() {
    const LINES: usize = 20_000;
    let (_, found) = CodeOwners::parse(Arc::new(SourceFile::new(
        "CODEOWNERS".into(),
        "!negated @a\n".repeat(LINES),
    )));
    assert_eq!(found.len(), LINES, "one diagnostic per invalid line");
    let mut out = Vec::new();
    let options = EmitOptions {
        workflow_commands: true,
        ..EmitOptions::default()
    };
    diagnostics::emit(&mut out, &found, &[], &options).expect("written to memory");
    let out = String::from_utf8(out).expect("UTF-8");
    // Ten of one kind are printed in full, the rest summarised in one line
    // (issue 17: output is bounded).
    assert!(
        out.contains("and 19,990 more like this in CODEOWNERS"),
        "no summary"
    );
    for line in [1, 2, 10] {
        assert!(
            out.contains(&format!("CODEOWNERS:{line}:1")),
            "no rustc-style location for line {line}"
        );
        assert!(
            out.contains(&format!("file=CODEOWNERS,line={line},col=1")),
            "no annotation for line {line}"
        );
    }
    assert_eq!(
        out.matches("::warning").count() + out.matches("::error").count(),
        10
    );
}

/// Found by `protocol` (a Rust by Example chapter whose object had a second
/// `"content": [2, 2, 1]` after the real one), right after the book came to
/// be read in place (`book::Book::parse`): the walk kept the first content
/// and its span, while JSON readers (mdBook among them) take the last of a
/// repeated key, so the answer's chapter no longer matched the question's.
/// Fixed in `ChapterSeed::visit_map`: every field counts its last time, a
/// value that is not a string included.
#[test]
fn fuzz_a_repeated_content_key_counts_its_last_time() {
    use mdbook_community::testing::Book;
    let text = r#"{"items":[{"Chapter":{"name":"Debug","content":"See {{#person a}}.\n","content":[2,2,1],"sub_items":[]}}]}"#;
    let book = Book::parse(text).expect("a book");
    assert_eq!(book.chapters[0].content, "");
    assert_eq!(book.content_spans(), [None]);
    let mut out = Vec::new();
    book.write(&mut out, &[Some("changed".into())])
        .expect("write");
    // Nothing to write back: the answer is the question.
    assert_eq!(out, text.as_bytes());
    let answer: Value = serde_json::from_slice(&out).expect("JSON");
    assert_eq!(answer["items"][0]["Chapter"]["content"], json!([2, 2, 1]));
}
