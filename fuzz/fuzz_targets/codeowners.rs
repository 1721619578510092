//! `codeowners`: `CodeOwners::parse` on arbitrary text, then `owners_of` on
//! fixed paths and on paths made from the file's own patterns; and the
//! `{{#codeowners}}` directive rendering the file, through `preprocess`.
//!
//! Invariants: every rule and owner points at its own text in the file;
//! `owners_of` answers with rules of the file (one per GitLab section); a CODEOWNERS file never
//! fails the build (bad lines are warnings, printed by `preprocess`).

#![no_main]

use std::path::PathBuf;
use std::sync::{Arc, LazyLock};

use fuzz_support::{
    BuildOptions, MAINTAINERS_TOML, chapter, preprocess_chapters, scratch_dir, write,
};
use libfuzzer_sys::fuzz_target;
use mdbook_community::testing::CodeOwners;
use mdbook_community::testing::SourceFile;
use serde_json::Map;

/// Paths every file is asked about.
const PATHS: &[&str] = &[
    "README.md",
    "src/lib.rs",
    "./docs/index.md",
    "/docs/guide/a b.md",
    "a/b/c/d/e.txt",
    ".github/CODEOWNERS",
    "é/ü.md",
    "/",
    "",
];

/// A book root of this process with a fixed data file; CODEOWNERS is
/// rewritten for every input.
static ROOT: LazyLock<PathBuf> = LazyLock::new(|| {
    let dir = scratch_dir("codeowners");
    write(&dir.join("maintainers.toml"), MAINTAINERS_TOML);
    dir
});

/// A path a pattern would match, roughly: wildcards and escapes dropped.
fn path_from_pattern(pattern: &str) -> String {
    pattern
        .replace("**", "a/b")
        .replace(['*', '?', '\\'], "x")
        .trim_end_matches('/')
        .to_string()
}

fn check(owners: &CodeOwners) {
    let text = &owners.file().text;
    for rule in owners.rules() {
        assert_eq!(
            text.get(rule.pattern_range.clone()),
            Some(rule.pattern.as_str()),
            "a rule's range holds its pattern"
        );
        for owner in &rule.owners {
            assert_eq!(
                text.get(owner.range.clone()),
                Some(owner.text.as_str()),
                "an owner's range holds the owner"
            );
        }
    }
    let derived = owners.rules().iter().map(|r| path_from_pattern(&r.pattern));
    for path in PATHS.iter().map(|p| p.to_string()).chain(derived) {
        for rule in owners.owners_of(&path) {
            assert!(
                owners.rules().iter().any(|r| std::ptr::eq(r, rule)),
                "owners_of answers with a rule of the file"
            );
        }
    }
}

/// `{{#codeowners}}` and `{{#codeowners PATH}}` over the file.
fn render(text: &str) {
    write(&ROOT.join("CODEOWNERS"), text);
    let content = "{{#codeowners}}\n\nOwned by {{#codeowners docs/index.md}}.\n".to_string();
    let result = preprocess_chapters(
        &BuildOptions::default(),
        &ROOT,
        Map::new(),
        &[chapter("owners", Some("owners.md"), content)],
    );
    assert_eq!(
        result.code,
        0,
        "a CODEOWNERS file failed the build: {}",
        String::from_utf8_lossy(&result.stderr)
    );
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let file = Arc::new(SourceFile::new("CODEOWNERS".into(), text));
    let (owners, _) = CodeOwners::parse(Arc::clone(&file));
    check(&owners);
    // Parses the file again, and prints its problems as warnings.
    render(&file.text);
});
