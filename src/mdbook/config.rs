//! mdBook's settings: the context's `config` (the whole `book.toml` as
//! JSON) read through accessors, and `book.toml` itself, read as mdBook
//! reads it (for the subcommands, which run without mdBook) or as text to
//! point at a key. No other module looks into mdBook's settings.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::protocol::Context;
use crate::diagnostic::SourceFile;

/// The name mdBook knows this plugin by: `[preprocessor.community]`.
pub const PREPROCESSOR_NAME: &str = "community";

impl Context {
    /// `[preprocessor.community]`, when `book.toml` has it.
    pub fn plugin_table(&self) -> Option<&Map<String, Value>> {
        plugin_table(&self.config)
    }

    /// The book's `[output.html]`: the HTML renderer's settings (Markdown
    /// options, assets, redirects). A renderer that stands in for the HTML
    /// one (`mdbook-community check`'s) carries them as its `html` key.
    pub fn html_table(&self) -> Option<&Value> {
        let output = self.config.get("output")?;
        output
            .get("html")
            .or_else(|| output.get(&self.renderer)?.get("html"))
    }

    /// `[output.html]` when mdBook renders HTML: the table, or an empty
    /// one for a book without `[output]` (mdBook then renders HTML alone);
    /// `None` for a book whose `[output]` has no HTML renderer.
    pub fn html_if_rendered(&self) -> Option<Value> {
        match self.config.get("output") {
            None => Some(Value::Object(Map::new())),
            Some(_) => self.html_table().cloned(),
        }
    }

    /// `book.src`: the chapters' folder, relative to the root.
    pub fn src(&self) -> &str {
        let src = self.config.get("book").and_then(|b| b.get("src"));
        src.and_then(Value::as_str).unwrap_or("src")
    }
}

/// `[preprocessor.community]` of a book's config.
pub fn plugin_table(config: &Value) -> Option<&Map<String, Value>> {
    config
        .get("preprocessor")?
        .get(PREPROCESSOR_NAME)?
        .as_object()
}

/// The strings of the list `key` of `[output.html]` (`additional-css`).
pub fn html_list<'a>(html: Option<&'a Value>, key: &str) -> impl Iterator<Item = &'a str> {
    let items = html.and_then(|h| h.get(key)).and_then(Value::as_array);
    items.into_iter().flatten().filter_map(Value::as_str)
}

/// `[output.html.redirect]`: old path to new, in `book.toml`'s order.
pub fn redirects(html: Option<&Value>) -> Option<&Map<String, Value>> {
    html?.get("redirect")?.as_object()
}

/// Why `book.toml` cannot be read as mdBook reads it.
#[derive(Debug)]
pub struct BookTomlError {
    /// What is wrong, without position.
    pub message: String,
    /// Where, when the TOML parser says.
    pub range: Option<Range<usize>>,
}

/// `book.toml`'s text read as mdBook reads it: the config a preprocessor is
/// sent.
pub fn parse_book_toml(text: &str) -> Result<Value, BookTomlError> {
    toml_edit::de::from_str(text).map_err(|e| BookTomlError {
        message: e.message().trim().to_string(),
        range: e.span(),
    })
}

/// `book.toml` as text, read to point a diagnostic at a key.
pub struct BookToml {
    /// The file, named `book.toml`.
    pub file: Arc<SourceFile>,
    doc: Option<toml_edit::Document<String>>,
}

impl BookToml {
    /// `root/book.toml`, if it can be read.
    pub fn read(root: &Path) -> Option<BookToml> {
        let text =
            crate::files::read_text(&root.join("book.toml"), crate::files::MAX_DATA_FILE).ok()?;
        let doc = toml_edit::Document::parse(text.clone()).ok();
        let file = Arc::new(SourceFile::new("book.toml".into(), text));
        Some(BookToml { file, doc })
    }

    /// Where `[preprocessor.community] key` is: its key, or with `value`
    /// its value.
    pub fn plugin_key(&self, key: &str, value: bool) -> Option<Range<usize>> {
        let doc = self.doc.as_ref()?;
        let table = doc
            .get("preprocessor")?
            .get(PREPROCESSOR_NAME)?
            .as_table_like()?;
        match value {
            true => table.get(key)?.span(),
            false => table.get_key_value(key)?.0.span(),
        }
    }

    /// Where the value (or with `value` false, the key) is that the keys
    /// `path` lead to below `[preprocessor.community]`
    /// (`governance.core.quorum`).
    pub fn plugin_path(&self, path: &[&str], value: bool) -> Option<Range<usize>> {
        let doc = self.doc.as_ref()?;
        let (last, parents) = path.split_last()?;
        let mut item = doc.get("preprocessor")?.get(PREPROCESSOR_NAME)?;
        for key in parents {
            item = item.get(key)?;
        }
        let table = item.as_table_like()?;
        match value {
            true => table.get(last)?.span(),
            false => table.get_key_value(last)?.0.span(),
        }
    }

    /// Where the text `item` is in the list `[preprocessor.community]
    /// key.sub` (`check-activity = { groups = [...] }`).
    pub fn plugin_list_item(&self, key: &str, sub: &str, item: &str) -> Option<Range<usize>> {
        let doc = self.doc.as_ref()?;
        let list = doc
            .get("preprocessor")?
            .get(PREPROCESSOR_NAME)?
            .get(key)?
            .get(sub)?
            .as_array()?;
        list.iter()
            .find(|v| v.as_str().is_some_and(|s| s.trim() == item))?
            .span()
    }

    /// Where each key of `[output.html.redirect]` is.
    pub fn redirect_keys(&self) -> HashMap<String, Range<usize>> {
        let table = (self.doc.as_ref()).and_then(|doc| {
            doc.get("output")?
                .get("html")?
                .get("redirect")?
                .as_table_like()
        });
        let Some(table) = table else {
            return HashMap::new();
        };
        table
            .iter()
            .filter_map(|(key, _)| Some((key.to_string(), table.get_key_value(key)?.0.span()?)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn context(config: Value, renderer: &str) -> Context {
        Context {
            root: ".".into(),
            config,
            renderer: renderer.into(),
            mdbook_version: "0.5.4".into(),
        }
    }

    #[test]
    fn the_html_table_is_the_html_renderers_or_its_stand_ins() {
        let html = json!({"output": {"html": {"a": 1}, "x": {"html": {"b": 2}}}});
        assert_eq!(context(html, "x").html_table(), Some(&json!({"a": 1})));
        let stand_in = json!({"output": {"x": {"html": {"b": 2}}}});
        assert_eq!(
            context(stand_in.clone(), "x").html_table(),
            Some(&json!({"b": 2}))
        );
        assert_eq!(context(stand_in, "y").html_table(), None);
        assert_eq!(context(json!({}), "html").src(), "src");
    }

    #[test]
    fn book_toml_reads_as_mdbook_reads_it() {
        let config = parse_book_toml("[book]\nsrc = \"docs\"\n[preprocessor.community]\nx = 1\n");
        let config = config.expect("valid");
        assert_eq!(config["book"]["src"], "docs");
        assert!(plugin_table(&config).is_some());
        let error = parse_book_toml("[book\nsrc = 1").expect_err("invalid");
        assert!(error.range.is_some(), "{error:?}");
    }
}
