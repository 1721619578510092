//! mdBook's `[output.html.redirect]` table: old pages and headings, and
//! where they went. The anchor check treats it as part of the book's map.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use crate::diagnostic::SourceFile;
use crate::mdbook::{self, config::BookToml};
use crate::paths;

/// One entry of `[output.html.redirect]`.
#[derive(Debug, Clone)]
pub struct Redirect {
    /// The old page as a chapter path (`guide/old.md`): the key without
    /// its leading `/` and fragment, `.html` read as `.md`.
    pub from: String,
    /// The key's fragment (`/page.html#old` redirects one heading).
    pub from_fragment: Option<String>,
    /// Where it goes, as written.
    pub to: String,
    /// The entry in `book.toml`, when it can be found there.
    pub at: Option<(Arc<SourceFile>, Range<usize>)>,
}

impl Redirect {
    /// The target as a chapter path and fragment, when it is a link into
    /// the book (relative to the old page's folder); `None` for a URL, a
    /// site-absolute path, or one that climbs out of the book.
    pub fn target(&self) -> Option<(String, Option<&str>)> {
        if !paths::is_relative(&self.to) || self.to.starts_with('/') {
            return None;
        }
        let (path, fragment) = paths::split_fragment(&self.to);
        let page = if path.is_empty() {
            self.from.clone()
        } else {
            paths::as_chapter_path(&paths::resolve(&self.from, path)?)
        };
        Some((page, fragment))
    }

    /// The key as written: `/old.html#fragment`.
    pub fn key(&self) -> String {
        let html = self.from.strip_suffix(".md").unwrap_or(&self.from);
        match &self.from_fragment {
            Some(f) => format!("/{html}.html#{f}"),
            None => format!("/{html}.html"),
        }
    }
}

/// The redirects of the book's `[output.html]`, with their places in
/// `root/book.toml` (read only when there are any).
pub fn read(html: Option<&Value>, root: &Path) -> Vec<Redirect> {
    let Some(table) = mdbook::config::redirects(html).filter(|t| !t.is_empty()) else {
        return Vec::new();
    };
    let book_toml = BookToml::read(root);
    let keys = book_toml.as_ref().map(BookToml::redirect_keys);
    let place = |key: &str| -> Option<(Arc<SourceFile>, Range<usize>)> {
        let range = keys.as_ref()?.get(key)?.clone();
        Some((Arc::clone(&book_toml.as_ref()?.file), range))
    };
    table
        .iter()
        .filter_map(|(key, to)| {
            let to = to.as_str()?;
            let (page, fragment) = paths::split_fragment(key.trim_start_matches('/'));
            Some(Redirect {
                from: paths::as_chapter_path(page),
                from_fragment: fragment.map(str::to_string),
                to: to.to_string(),
                at: place(key),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_targets_are_read_as_chapter_paths() {
        let html = serde_json::json!({"redirect": {
            "/guide/old.html": "new.html",
            "/guide/page.html#old": "../other.html#new",
            "/gone.html": "https://example.com/",
        }});
        let redirects = read(Some(&html), Path::new("/nonexistent"));
        assert_eq!(redirects.len(), 3);
        let old = &redirects[0];
        assert_eq!(old.from, "guide/old.md");
        assert_eq!(old.target(), Some(("guide/new.md".to_string(), None)));
        let moved = &redirects[1];
        assert_eq!(moved.from_fragment.as_deref(), Some("old"));
        assert_eq!(moved.target(), Some(("other.md".to_string(), Some("new"))));
        assert_eq!(moved.key(), "/guide/page.html#old");
        assert_eq!(redirects[2].target(), None);
    }
}
