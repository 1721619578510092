//! The pipeline over small books with test-only directives: what the
//! stages do together, and which chapters they parse and expand.

use super::*;
use crate::diagnostic::Code;
use crate::directive::{BraceDirective, Call, Cx, Expansion, FenceBlock, FenceDirective};
use crate::directives::links::Ref;
use crate::mdbook::{Context, Generation};

/// A test-only directive: `{{#shout words}}` upper-cases its words
/// inline; `{{#shout words list}}` makes a bullet list; `{{#shout}}` with
/// no words is an error.
struct Shout;
impl BraceDirective for Shout {
    fn name(&self) -> &'static str {
        "shout"
    }
    fn expand(&self, call: &Call<'_>, _: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        let tokens = call.tokens().map_err(|e| vec![e])?;
        if tokens.is_empty() {
            return Err(vec![
                call.error(Code::InvalidArguments, "`shout` needs words"),
            ]);
        }
        let words: Vec<String> = call
            .args
            .split_whitespace()
            .filter(|w| *w != "list")
            .map(str::to_uppercase)
            .collect();
        if call.args.ends_with("list") {
            let items: Vec<String> = words.iter().map(|w| format!("- {w}")).collect();
            Ok(Expansion::Block(items.join("\n")))
        } else {
            Ok(Expansion::Inline(words.join(" ")))
        }
    }
}

/// A test-only fence: its body, with directives expanded, in a quote.
struct Box_;
impl FenceDirective for Box_ {
    fn name(&self) -> &'static str {
        "box"
    }
    fn expand(&self, block: &FenceBlock<'_>, cx: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        let map = |o| block.body_map.to_source(o);
        let inner = cx.expand_fragment(&block.body, &map);
        let errors: Vec<_> = inner
            .diagnostics
            .into_iter()
            .map(|d| d.map_range(&map))
            .collect();
        if errors.iter().any(Diagnostic::is_error) {
            return Err(errors);
        }
        let body = inner.text.unwrap_or_else(|| block.body.clone());
        Ok(Expansion::Block(format!("BOX[{}]", body.trim_end())))
    }
}

/// A chapter at `path` (relative to `src`).
fn chapter(path: &str, content: &str) -> Chapter {
    Chapter::new(path, Some(path), Some(path), content)
}

/// Settings for a book whose root holds no data files.
fn settings() -> Settings {
    static EMPTY_ROOT: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    let root = EMPTY_ROOT.get_or_init(|| tempfile::tempdir().expect("tempdir"));
    let context = Context {
        root: root.path().to_path_buf(),
        config: serde_json::json!({}),
        renderer: "html".into(),
        mdbook_version: "0.5.4".into(),
    };
    Settings::from_context(&context, Generation::V05).expect("valid")
}

fn expand(texts: &[&str]) -> (Vec<Option<String>>, Vec<Diagnostic>) {
    let settings = settings();
    let registry = Registry::new().with_brace(Shout).with_fence(Box_);
    let chapters: Vec<Chapter> = texts
        .iter()
        .map(|t| Chapter::new("c", None, None, *t))
        .collect();
    process_chapters(&settings, &registry, &chapters)
}

#[test]
fn expands_inline_and_block_calls() {
    let (out, diags) = expand(&["Hi {{#shout a b}}!\n\n{{#shout x y list}}\n\nend\n"]);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(out[0].as_deref(), Some("Hi A B!\n\n- X\n- Y\n\nend\n"));
}

#[test]
fn chapters_without_calls_are_untouched() {
    let text = "# T\n\n{{#include x.md}} `{{#shout a}}` \\{{#shout b}}\n";
    let (out, diags) = expand(&[text, "plain"]);
    assert_eq!(out, vec![None, None]);
    assert!(diags.is_empty());
}

#[test]
fn block_expansion_in_running_text_is_an_error_with_a_note() {
    let (out, diags) = expand(&["See {{#shout a list}} here.\n"]);
    assert_eq!(diags.len(), 1);
    assert!(diags[0].message.contains("must be a paragraph of its own"));
    let out = out[0].as_deref().expect("note spliced in");
    assert!(out.starts_with("See **\\[mdbook-community error:"), "{out}");
    assert!(out.ends_with(" here.\n"), "{out}");
}

#[test]
fn errors_are_located_in_their_chapter() {
    let text = "x\n\n{{#shout}}\n";
    let (_, diags) = expand(&["fine", text]);
    assert_eq!(diags.len(), 1);
    match &diags[0].location {
        Some(crate::diagnostic::Location::Chapter { chapter, range }) => {
            assert_eq!(*chapter, 1);
            assert_eq!(&text[range.clone()], "shout");
        }
        other => panic!("unexpected location {other:?}"),
    }
}

#[test]
fn fence_bodies_expand_nested_calls_and_map_errors() {
    let text = "- item\n\n  ```box\n  {{#shout hi}}\n  ```\n";
    let (out, diags) = expand(&[text]);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(out[0].as_deref(), Some("- item\n\n  BOX[HI]\n"));

    let text = "```box\nok\n{{#shout}}\n```\n";
    let (_, diags) = expand(&[text]);
    match &diags[0].location {
        Some(crate::diagnostic::Location::Chapter { range, .. }) => {
            assert_eq!(&text[range.clone()], "shout");
        }
        other => panic!("unexpected location {other:?}"),
    }
}

#[test]
fn nested_fences_are_errors() {
    let (_, diags) = expand(&["````box\n```box\nx\n```\n````\n"]);
    assert!(
        diags.iter().any(|d| d.message.contains("cannot be nested")),
        "{diags:?}"
    );
}

/// The fast path: a chapter with neither `{{#` of ours nor a `faq`
/// fence is not parsed at all; with the anchor check on, a chapter is
/// parsed only when it has a link with a fragment, or is the target of
/// one.
#[test]
fn only_chapters_that_need_it_are_parsed() {
    use crate::mdbook::options::parse_log::count;
    let settings = settings();
    let registry = Registry::new().with_brace(Shout).with_fence(Box_);
    let chapters = [
        chapter(
            "plain.md",
            "fastpath-plain: {{#include x.md}} {{#title T}} `faq` [a](b.md)\n\n```rust\nfaq\n```\n",
        ),
        chapter("linking.md", "fastpath-linking: see [it](target.md#t).\n"),
        chapter("target.md", "fastpath-target\n\n# T\n"),
        chapter("shouting.md", "fastpath-shouting {{#shout a}}\n"),
    ];
    let (out, diags) = process_chapters(&settings, &registry, &chapters);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(out[..3], [None, None, None]);
    assert_eq!(out[3].as_deref(), Some("fastpath-shouting A\n"));
    assert_eq!(count("fastpath-plain"), 0);
    assert_eq!(count("fastpath-linking"), 1);
    assert_eq!(count("fastpath-target"), 1);
    assert!(count("fastpath-shouting") >= 1);
}

#[test]
fn many_chapters_in_parallel_keep_their_order() {
    let texts: Vec<String> = (0..200).map(|i| format!("{{{{#shout c{i}}}}}")).collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let (out, _) = expand(&refs);
    for (i, o) in out.iter().enumerate() {
        assert_eq!(o.as_deref(), Some(format!("C{i}").as_str()));
    }
}

/// A test-only directive that counts its expansions by its argument.
struct Count;
static COUNTED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
impl BraceDirective for Count {
    fn name(&self) -> &'static str {
        "count"
    }
    fn expand(&self, call: &Call<'_>, _: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        COUNTED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(call.args.to_string());
        Ok(Expansion::Inline(String::new()))
    }
}

fn expansions_of(marker: &str) -> usize {
    let counted = COUNTED.lock().unwrap_or_else(|e| e.into_inner());
    counted.iter().filter(|a| *a == marker).count()
}

/// Every chapter is expanded once, however many chapters link to it and
/// whichever links ask for its ids: its own, `{{#ref}}`s and fragment links
/// from other chapters, a chapter linking to itself.
#[test]
fn every_chapter_is_expanded_once() {
    let settings = settings();
    let registry = Registry::new().with_brace(Count).with_brace(Ref);
    let chapters = [
        chapter(
            "a.md",
            "# A\n\n{{#count once-a}} [b](b.md#b) {{#ref b.md#b}} [self](#a)\n",
        ),
        chapter(
            "b.md",
            "# B\n\n{{#count once-b}} {{#ref a.md#a}} {{#ref c.md}}\n",
        ),
        chapter("c.md", "# C\n\n{{#count once-c}} [a](a.md#a) [b](b.md#b)\n"),
    ];
    let (out, diags) = process_chapters(&settings, &registry, &chapters);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        out[0].as_deref(),
        Some("# A\n\n [b](b.md#b) [B](b.md#b) [self](#a)\n")
    );
    assert_eq!(
        out[1].as_deref(),
        Some("# B\n\n [A](a.md#a) [c.md](c.md)\n")
    );
    for marker in ["once-a", "once-b", "once-c"] {
        assert_eq!(expansions_of(marker), 1, "{marker}");
    }
}

/// A deferred link in a FAQ-like fence body resolves inside the block, and
/// its errors point at the call in the chapter.
#[test]
fn links_in_fence_bodies_resolve_and_locate_their_errors() {
    let settings = settings();
    let registry = Registry::new().with_brace(Ref).with_fence(Box_);
    let content = "# T\n\n```box\nsee {{#ref #t}} and {{#ref #nope}}\n```\n";
    let chapters = [chapter("t.md", content)];
    let (out, diags) = process_chapters(&settings, &registry, &chapters);
    assert_eq!(diags.len(), 1, "{diags:?}");
    match &diags[0].location {
        Some(crate::diagnostic::Location::Chapter { chapter, range }) => {
            assert_eq!(*chapter, 0);
            assert_eq!(&content[range.clone()], "#nope");
        }
        other => panic!("unexpected location {other:?}"),
    }
    let out = out[0].as_deref().expect("expanded");
    assert!(out.contains("see [T](#t) and **"), "{out}");
}
