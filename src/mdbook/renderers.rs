//! Which renderers mdBook runs a preprocessor for, and in what order.
//!
//! mdBook runs every preprocessor once per renderer, so a book with
//! `[output.html]` and `[output.markdown]` sends the same chapters twice.
//! Both generations take the renderers from the `[output]` table in the
//! order of its keys (a sorted map: `epub`, `html`, `markdown`, ...), or
//! HTML alone when there is none, and run a preprocessor for a renderer
//! unless its `renderers` list leaves that renderer out (this plugin's
//! `supports` says yes to every renderer).

use serde_json::Value;

/// The renderers mdBook runs the preprocessor `[preprocessor.NAME]` for, in
/// the order it runs them.
pub fn runs_of(config: &Value, name: &str) -> Vec<String> {
    let mut renderers: Vec<String> = match config.get("output").and_then(Value::as_object) {
        Some(output) if !output.is_empty() => output.keys().cloned().collect(),
        _ => vec!["html".to_string()],
    };
    // serde_json keeps the order mdBook wrote; mdBook iterates sorted keys.
    renderers.sort_unstable();
    let only = config
        .get("preprocessor")
        .and_then(|p| p.get(name))
        .and_then(|table| table.get("renderers"))
        .and_then(Value::as_array);
    if let Some(only) = only {
        renderers.retain(|r| only.iter().any(|o| o.as_str() == Some(r.as_str())));
    }
    renderers
}

/// Whether the run for `renderer` is the first run of the build for the
/// preprocessor `[preprocessor.NAME]` (warnings are printed in that one
/// only). A renderer mdBook would not run it for (`mdbook test`, another
/// tool driving the plugin) counts as a first run.
pub fn is_first_run(config: &Value, renderer: &str) -> bool {
    let runs = runs_of(config, super::PREPROCESSOR_NAME);
    runs.first().is_none_or(|first| first == renderer) || !runs.iter().any(|r| r == renderer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn renderers_run_in_the_order_of_their_keys() {
        let config = json!({"output": {"markdown": {}, "html": {}, "epub": {}}});
        assert_eq!(runs_of(&config, "community"), ["epub", "html", "markdown"]);
        assert!(is_first_run(&config, "epub"));
        assert!(!is_first_run(&config, "html"));
        assert!(!is_first_run(&config, "markdown"));
        // No [output]: HTML alone.
        assert_eq!(runs_of(&json!({}), "community"), ["html"]);
        assert!(is_first_run(&json!({}), "html"));
        // A renderer mdBook does not run the plugin for.
        assert!(is_first_run(&config, "test"));
    }

    #[test]
    fn the_preprocessors_renderers_list_leaves_renderers_out() {
        let config = json!({
            "output": {"html": {}, "markdown": {}, "epub": {}},
            "preprocessor": {"community": {"renderers": ["markdown", "html"]}}
        });
        assert_eq!(runs_of(&config, "community"), ["html", "markdown"]);
        assert!(is_first_run(&config, "html"));
        assert!(!is_first_run(&config, "markdown"));
    }
}
