//! Files the HTML output needs, shipped inside the binary. `install` writes
//! them beside `book.toml` and adds them to `[output.html]`; a book without
//! them gets the same styles and script inline in pages that use them.

use crate::mdbook::config::html_list;

/// The stylesheet's file name.
pub const CSS_FILE: &str = "mdbook-community.css";
/// The script's file name.
pub const JS_FILE: &str = "mdbook-community.js";
/// The stylesheet.
pub const CSS: &str = include_str!("../assets/mdbook-community.css");
/// The script.
pub const JS: &str = include_str!("../assets/mdbook-community.js");

/// Whether the book's `[output.html]` lists both assets.
pub fn installed(html: Option<&serde_json::Value>) -> bool {
    let lists = |key: &str, file: &str| {
        html_list(html, key).any(|item| item.rsplit(['/', '\\']).next() == Some(file))
    };
    lists("additional-css", CSS_FILE) && lists("additional-js", JS_FILE)
}

/// The assets as raw HTML, for pages of a book that never ran `install`.
pub fn inline_html() -> String {
    format!(
        "<style>\n{}\n</style>\n<script>\n{}\n</script>",
        CSS.trim_end(),
        JS.trim_end()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_installed_assets() {
        let yes = serde_json::json!({
            "additional-css": ["theme/x.css", "./mdbook-community.css"],
            "additional-js": ["mdbook-community.js"]
        });
        assert!(installed(Some(&yes)));
        let half = serde_json::json!({"additional-css": ["mdbook-community.css"]});
        assert!(!installed(Some(&half)));
        assert!(!installed(None));
    }

    /// Pages that inline the assets must not hold anything mdBook's
    /// preprocessors (or this one) would read as a directive.
    #[test]
    fn assets_hold_no_directive() {
        assert!(!CSS.contains("{{") && !JS.contains("{{"));
    }

    #[test]
    fn inline_assets_stay_raw_html() {
        // Markdown must not see any of the CSS or script as text.
        let html = inline_html();
        let parser = pulldown_cmark::Parser::new_ext(&html, pulldown_cmark::Options::all());
        for event in parser {
            assert!(
                matches!(
                    event,
                    pulldown_cmark::Event::Html(_)
                        | pulldown_cmark::Event::Start(pulldown_cmark::Tag::HtmlBlock)
                        | pulldown_cmark::Event::End(pulldown_cmark::TagEnd::HtmlBlock)
                ),
                "{event:?}"
            );
        }
    }
}
