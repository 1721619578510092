//! `args`: the directive argument syntax, `args::tokenize` and
//! `args::find_close`, on arbitrary text; then the same text as the
//! arguments of one `{{#name ARGS}}` call of every brace directive, each in
//! a chapter of its own, through the chapter transform.
//!
//! Invariants: arguments come in order, without overlapping, inside the
//! text (shifted by `base`), each range holding what it says; a close found
//! by `find_close` is a `}}`; chapters without `{{` are unchanged.

#![no_main]

use fuzz_support::{BuildOptions, assert_untouched, chapter, data_root, directive_names, registry};
use libfuzzer_sys::fuzz_target;
use mdbook_community::testing::Chapter;
use mdbook_community::testing::process_chapters;
use mdbook_community::testing::{ArgKind, args};
use serde_json::Map;

/// Where the arguments start in the scanned text: any offset, kept small
/// enough that `base + len` cannot overflow.
const BASE: usize = 17;

fn check_tokens(text: &str) {
    let Ok(tokens) = args::tokenize(text, BASE) else {
        return;
    };
    let mut end = BASE;
    for arg in &tokens {
        assert!(arg.range.start >= end, "arguments are in order: {tokens:?}");
        assert!(arg.range.start < arg.range.end, "arguments are not empty");
        assert!(
            arg.range.end <= BASE + text.len(),
            "arguments are in the text"
        );
        end = arg.range.end;
        let Some(written) = text.get(arg.range.start - BASE..arg.range.end - BASE) else {
            panic!("argument range {:?} is not on char boundaries", arg.range);
        };
        match &arg.kind {
            ArgKind::Word(word) => assert_eq!(*word, written),
            ArgKind::Pair {
                key, value_range, ..
            } => {
                assert!(written.starts_with(&format!("{key}=")), "{written:?}");
                assert!(
                    arg.range.start <= value_range.start && value_range.end == arg.range.end,
                    "the value is inside its argument"
                );
            }
            ArgKind::Quoted(_) => {
                assert!(
                    written.starts_with('"') && written.ends_with('"'),
                    "{written:?}"
                );
            }
        }
    }
}

fn check_close(text: &str) {
    if let Some(i) = args::find_close(text) {
        assert_eq!(text.get(i..i + 2), Some("}}"), "find_close finds `}}`");
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    check_tokens(&text);
    check_close(&text);
    // One call of each directive, as a paragraph and in running text.
    let chapters: Vec<Chapter> = directive_names()
        .into_iter()
        .map(|name| {
            let call = format!("{{{{#{name} {text}}}}}");
            let content = format!("# T\n\n{call}\n\nText {call} text.\n");
            chapter(name, Some("x.md"), content)
        })
        .collect();
    let settings = BuildOptions::default().settings(data_root(), Map::new());
    let (contents, _) = process_chapters(&settings, registry(), &chapters);
    assert_untouched(&chapters, &contents);
});
