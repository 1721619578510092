//! Files the HTML output needs, shipped inside the binary. `install` writes
//! them beside `book.toml` and adds them to `[output.html]`; a book without
//! them gets the same styles and script inline in pages that use them.

use crate::markdown::html::HtmlWriter;
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

/// Writes the assets as raw HTML, for pages of a book that never ran
/// `install`.
pub fn write_inline(html: &mut HtmlWriter) {
    html.raw_text_element("style", CSS);
    html.newline();
    html.raw_text_element("script", JS);
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
    /// preprocessors (or this one) would read as a directive, nor an end
    /// tag that would end their element early.
    #[test]
    fn assets_hold_no_directive_and_no_end_tag() {
        assert!(!CSS.contains("{{") && !JS.contains("{{"));
        assert!(!CSS.contains("</") && !JS.contains("</"));
    }

    #[test]
    fn inline_assets_stay_raw_html() {
        // Markdown must not see any of the CSS or script as text.
        let mut html = HtmlWriter::new();
        write_inline(&mut html);
        let html = html.finish();
        let options = crate::mdbook::MarkdownOptions::defaults(crate::mdbook::Generation::V05);
        for event in options.parser(&html) {
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
