//! What is written by hand in more than one place stays in step with the
//! code: every shipped directive has its guide page and is in the fuzz
//! dictionary. (The fuzz targets take the directive list from the registry
//! itself; the error reference is checked by `tests/bad_input.rs`.)

use std::path::Path;

use mdbook_community::testing::builtin_registry;

fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

#[test]
fn every_directive_has_a_guide_page_in_the_summary() {
    let registry = builtin_registry();
    let summary = read("book/SUMMARY.md");
    for name in registry.brace_names().chain(registry.fence_names()) {
        let page = format!("directives/{name}.md");
        assert!(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("book")
                .join(&page)
                .is_file(),
            "book/{page} is missing"
        );
        assert!(
            summary.contains(&format!("]({page})")),
            "book/SUMMARY.md does not list {page}"
        );
    }
}

#[test]
fn every_directive_is_in_the_fuzz_dictionary() {
    let registry = builtin_registry();
    let dictionary = read("fuzz/dict/markdown.dict");
    let has = |entry: String| dictionary.lines().any(|line| line == entry);
    for name in registry.brace_names() {
        assert!(
            has(format!("\"{{{{#{name}\"")),
            "{{{{#{name} is not in fuzz/dict/markdown.dict"
        );
    }
    for name in registry.fence_names() {
        assert!(
            has(format!("\"```{name}\"")),
            "```{name} is not in fuzz/dict/markdown.dict"
        );
    }
}
