//! `chapter`: the chapter transform, through `process_chapters` and
//! `preprocess`, in a book whose data files are small and valid.
//!
//! Each input is used twice:
//!
//! 1. as it is: lossy UTF-8, split into chapters at NUL bytes, with default
//!    settings (so the real books in the seed corpus are real chapters);
//! 2. as an `arbitrary` description of a book: build options, and chapters
//!    made of raw text, directive fragments and whole directive calls, run
//!    through `process_chapters` and, when it says so, `preprocess`.
//!
//! Invariants: chapters without `{{` and `faq` come back unchanged; the
//! `preprocess` contract (see `fuzz_support::run_preprocess`).

#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use fuzz_support::{
    BuildOptions, assert_untouched, chapter, data_root, preprocess_chapters, registry,
};
use libfuzzer_sys::fuzz_target;
use mdbook_community::testing::Chapter;
use mdbook_community::testing::process_chapters;
use serde_json::Map;

/// Pieces of Markdown that reach the directive code: openings and whole
/// calls, FAQ fences, and the block structure around them.
const FRAGMENTS: &[&str] = &[
    "{{#maintainers",
    "{{#maintainers}}",
    "{{#maintainers core}}",
    "{{#maintainers core style=table}}",
    "{{#maintainers docs style=inline hide=emeritus}}",
    "{{#maintainers only=sunsetting,emeritus}}",
    "{{#person",
    "{{#person ada}}",
    "{{#person grace}}",
    "{{#codeowners}}",
    "{{#codeowners src/lib.rs}}",
    "{{#codeowners \"docs/my file.md\"}}",
    "{{#contributing}}",
    "{{#contributing #testing}}",
    "{{#contributing Testing \"how to test\"}}",
    "{{#contributing #custom-id}}",
    "{{#ref x.md#a}}",
    "{{#ref #b}}",
    "{{#ref faq.md \"the FAQ\"}}",
    "{{#ref ../guide/y.md#c}}",
    "{{#include ../CONTRIBUTING.md}}",
    "{{#",
    "}}",
    "{{ #person ada }}",
    "\\{{#person ada}}",
    "```faq\n## Q\n",
    "```faq\n## Q\nA\n```\n",
    "```faq open id-prefix=faq-\n",
    "````faq\n",
    "~~~faq\n",
    "```\n",
    "````\n",
    "~~~\n",
    "# ",
    "## ",
    "### A {#a}\n",
    "## b\n",
    "\n",
    "\n\n",
    "\r\n",
    "  ",
    "    ",
    "\t",
    "- ",
    "1. ",
    "> ",
    "> [!NOTE]\n> ",
    "| a | b |\n|---|---|\n| ",
    " | ",
    "`",
    "\\",
    "\"",
    "<!-- ",
    " -->",
    "<div>\n",
    "</div>\n",
    "[a](#a)",
    "[c](CONTRIBUTING.md#testing)",
    "[x](x.md#a)",
    "[y](../guide/y.md#c)",
    "[^1]\n\n[^1]: note\n",
    "Term\n: definition\n",
    "*",
    "_",
    "&amp;",
    "é",
];

/// Words for generated directive arguments: groups, handles, statuses,
/// paths and anchors that exist in the data, and some that do not.
const WORDS: &[&str] = &[
    "core",
    "docs",
    "cor",
    "ada",
    "grace",
    "ghopper",
    "emeritus",
    "sunsetting",
    "x.md",
    "x.md#a",
    "faq.md",
    "#a",
    "#b",
    "#testing",
    "#getting-started",
    "#testing-1",
    "Testing",
    "src/lib.rs",
    "docs/index.md",
    "vendor/x",
    "../guide/y.md#c",
    "guide/y.md#c",
    "",
];

/// Option keys of all directives, and one that is none of them.
const KEYS: &[&str] = &[
    "style",
    "hide",
    "only",
    "open",
    "id-prefix",
    "text",
    "stlye",
];

/// Option values.
const VALUES: &[&str] = &[
    "list",
    "table",
    "inline",
    "emeritus",
    "emeritus,sunsetting",
    "lead",
    "",
];

/// Brace directive names, `include` (mdBook's) and a near miss.
const NAMES: &[&str] = &[
    "maintainers",
    "person",
    "codeowners",
    "contributing",
    "ref",
    "include",
    "personal",
];

/// Where a chapter lives, relative to `src`.
const PATHS: &[Option<&str>] = &[
    Some("intro.md"),
    Some("x.md"),
    Some("faq.md"),
    Some("guide/y.md"),
    Some("contributing.md"),
    None,
];

fn pick<'a, T: ?Sized>(list: &[&'a T], i: u8) -> &'a T {
    list[usize::from(i) % list.len()]
}

#[derive(Arbitrary, Debug)]
enum Arg {
    Word(u8),
    Pair(u8, u8),
    Quoted(String),
    Raw(String),
}

#[derive(Arbitrary, Debug)]
enum Piece {
    Text(Vec<u8>),
    Fragment(u8),
    Call {
        name: u8,
        args: Vec<Arg>,
        closed: bool,
    },
}

#[derive(Arbitrary, Debug)]
struct ChapterInput {
    path: u8,
    pieces: Vec<Piece>,
}

#[derive(Arbitrary, Debug)]
struct Input {
    options: BuildOptions,
    through_preprocess: bool,
    chapters: Vec<ChapterInput>,
}

impl Piece {
    fn write(&self, out: &mut String) {
        match self {
            Piece::Text(bytes) => out.push_str(&String::from_utf8_lossy(bytes)),
            Piece::Fragment(i) => out.push_str(pick(FRAGMENTS, *i)),
            Piece::Call { name, args, closed } => {
                out.push_str("{{#");
                out.push_str(pick(NAMES, *name));
                for arg in args {
                    out.push(' ');
                    match arg {
                        Arg::Word(i) => out.push_str(pick(WORDS, *i)),
                        Arg::Pair(k, v) => {
                            out.push_str(pick(KEYS, *k));
                            out.push('=');
                            out.push_str(pick(VALUES, *v));
                        }
                        Arg::Quoted(text) => out.push_str(&fuzz_support::quote(text)),
                        Arg::Raw(text) => out.push_str(text),
                    }
                }
                if *closed {
                    out.push_str("}}");
                }
            }
        }
    }
}

/// The input as it is: chapters separated by NUL bytes.
fn raw(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let chapters: Vec<Chapter> = text
        .split('\0')
        .take(8)
        .zip(PATHS.iter().cycle())
        .map(|(content, path)| chapter("raw", *path, content.to_string()))
        .collect();
    let settings = BuildOptions::default().settings(data_root(), Map::new());
    let (contents, _) = process_chapters(&settings, registry(), &chapters);
    assert_untouched(&chapters, &contents);
}

/// The input as a book description.
fn structured(input: Input) {
    let chapters: Vec<Chapter> = input
        .chapters
        .iter()
        .take(8)
        .map(|c| {
            let mut content = String::new();
            for piece in &c.pieces {
                piece.write(&mut content);
            }
            chapter(
                "generated",
                PATHS[usize::from(c.path) % PATHS.len()],
                content,
            )
        })
        .collect();
    let settings = input.options.settings(data_root(), Map::new());
    let (contents, _) = process_chapters(&settings, registry(), &chapters);
    assert_untouched(&chapters, &contents);
    if input.through_preprocess {
        preprocess_chapters(&input.options, data_root(), Map::new(), &chapters);
    }
}

fuzz_target!(|data: &[u8]| {
    raw(data);
    if let Ok(input) = Input::arbitrary_take_rest(Unstructured::new(data)) {
        structured(input);
    }
});
