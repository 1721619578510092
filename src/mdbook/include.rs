//! mdBook's `{{#include PATH}}` as its `links` preprocessor reads it, for
//! the stages that must see through an include mdBook has or has not
//! expanded yet.

use std::ops::Range;

/// The directives mdBook's own `links` preprocessor expands: never a
/// misspelling of another plugin's.
pub const MDBOOK_DIRECTIVES: [&str; 5] = [
    "include",
    "rustdoc_include",
    "playground",
    "playpen",
    "title",
];

/// One `{{#include ...}}` in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Include<'t> {
    /// The whole call, `{{` to `}}`.
    pub range: Range<usize>,
    /// The file's path, as written (relative to the including file).
    pub path: &'t str,
    /// Whether the whole file is included (no `:anchor` or `:lines`).
    pub whole: bool,
}

/// Every `{{#include ...}}` in `text` with a path, in order.
pub fn includes(text: &str) -> impl Iterator<Item = Include<'_>> {
    const OPEN: &str = "{{#include";
    memchr::memmem::find_iter(text.as_bytes(), OPEN).filter_map(move |start| {
        let after = start + OPEN.len();
        let end = after + text[after..].find("}}")?;
        let argument = &text[after..end];
        let path = argument.split(':').next().unwrap_or_default().trim();
        if path.is_empty() || path.contains('\n') {
            return None;
        }
        Some(Include {
            range: start..end + 2,
            path,
            whole: argument.starts_with(char::is_whitespace) && !argument.contains(':'),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_paths_and_parts() {
        let text =
            "{{#include a.md}} {{#include ../b.rs:3:5}} {{#include c.md:anchor}} {{#include}}";
        let found: Vec<_> = includes(text).map(|i| (i.path, i.whole)).collect();
        assert_eq!(found, [("a.md", true), ("../b.rs", false), ("c.md", false)]);
        let first = includes(text).next().expect("one");
        assert_eq!(&text[first.range], "{{#include a.md}}");
    }
}
