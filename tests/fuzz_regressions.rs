//! Regression tests for bugs found by fuzzing (`fuzz/`, see "Fuzzing" in
//! CONTRIBUTING.md). Each test is the minimized input of one finding.
//!
//! FAILING UNTIL FIXED: when a test here was added, the bug it reproduces was
//! not fixed yet (`src/` is not changed by the fuzzing work). Each test says
//! which target found it, what happened and where; once the fix lands the
//! test must pass and stays as the regression test.

use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use mdbook_community::book::Chapter;
use mdbook_community::codeowners::CodeOwners;
use mdbook_community::diagnostics::{self, Diagnostic, EmitOptions, SourceFile};
use mdbook_community::directive::Registry;
use mdbook_community::process_chapters;
use mdbook_community::protocol::{Context, Generation};
use mdbook_community::settings::Settings;
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
    Chapter {
        name: "Chapter".into(),
        path: Some("chapter.md".into()),
        source_path: Some("chapter.md".into()),
        content: content.into(),
    }
}

/// Found by `chapter` (minimized input `b"[](#%\xff)"`, the `\xff` read as
/// U+FFFD). Panicked with "end byte index 3 is not a char boundary; it is
/// inside '\u{fffd}' (bytes 1..4) of `%\u{fffd}`" at
/// `src/anchors.rs:128` (`percent_decode` slices `text[i + 1..i + 3]`
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
            &Registry::builtin(),
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
        &Registry::builtin(),
        &[chapter(&format!("[x]({url}#%a\u{e9})\n"))],
    );
}

/// Found by profiling the `codeowners` target (its throughput was dominated
/// by printing diagnostics). `diagnostics::emit` adds the data file to a
/// fresh `SimpleFiles` for every diagnostic that points into it
/// (`src/diagnostics.rs`, `local_files.add(...)` in the loop), and
/// codespan indexes the file's line starts on every `add`: printing the
/// warnings of a CODEOWNERS file takes time proportional to
/// (number of warnings) x (file size). A CODEOWNERS of 64,000 invalid lines
/// (`"!neg @a\n"`, 820 KB, well under GitHub's 3 MB limit) took 58 s to print
/// in a release build; 20,000 lines take about 55 s in a debug build, against
/// 0.6 s for the same warnings from one-line files.
#[test]
fn fuzz_printing_many_warnings_of_one_file_takes_linear_time() {
    const LINES: usize = 20_000;
    let line = "!negated @a\n";
    let (_, shared) = CodeOwners::parse(Arc::new(SourceFile {
        name: "CODEOWNERS".into(),
        text: line.repeat(LINES),
    }));
    assert_eq!(shared.len(), LINES, "one error per invalid line");
    // The same number of diagnostics, each in a file of its own: the cost of
    // printing them without re-indexing a big file.
    let separate: Vec<Diagnostic> = (0..LINES)
        .flat_map(|_| {
            CodeOwners::parse(Arc::new(SourceFile {
                name: "CODEOWNERS".into(),
                text: line.into(),
            }))
            .1
        })
        .collect();
    let start = Instant::now();
    let _ = diagnostics::emit(&mut Vec::new(), &separate, &[], EmitOptions::default());
    let baseline = start.elapsed();

    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = diagnostics::emit(&mut Vec::new(), &shared, &[], EmitOptions::default());
        let _ = done.send(());
    });
    let limit = baseline * 20 + Duration::from_secs(5);
    assert!(
        finished.recv_timeout(limit).is_ok(),
        "printing {LINES} warnings of one CODEOWNERS file took more than {limit:?} \
         (the same warnings from one-line files: {baseline:?})"
    );
}
