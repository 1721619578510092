//! The engine: runs scan -> expand -> splice over every chapter, on all
//! cores, and collects diagnostics.

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use pulldown_cmark::{Event, Tag, TagEnd};

use crate::anchors;
use crate::book::Chapter;
use crate::contributing::Contributing;
use crate::data::{Data, LoadError};
use crate::diagnostics::Diagnostic;
use crate::directive::{Expansion, Placement, Registry};
use crate::headings::{self, PageIds};
use crate::markdown::to_markdown;
use crate::scan::{self, Site};
use crate::settings::{AnchorCheck, OnError, Settings};
use crate::splice::{Replacement, splice};

/// Everything shared by one run: settings, directives, the book as mdBook
/// sent it, and the data files (each loaded at most once, on first use).
pub struct Run<'a> {
    /// The build's settings.
    pub settings: &'a Settings,
    /// The directives.
    pub registry: &'a Registry,
    /// The chapters, unmodified.
    pub chapters: &'a [Chapter],
    /// Lazily loaded data files and indexes.
    pub data: Data,
}

impl<'a> Run<'a> {
    /// A run over `chapters`.
    pub fn new(settings: &'a Settings, registry: &'a Registry, chapters: &'a [Chapter]) -> Self {
        Run {
            settings,
            registry,
            chapters,
            data: Data::new(chapters.len()),
        }
    }

    /// The ids chapter `index`'s page will have once rendered: its headings
    /// (including those directives generate) and other ids, computed once.
    pub fn page_ids(&self, index: usize) -> Option<Arc<PageIds>> {
        self.data.page(index, || {
            let content = &self.chapters[index].content;
            let (markdown, generation) = (self.settings.markdown, self.settings.generation);
            if !scan::may_contain(content, self.registry) {
                // Nothing to expand: the page is the chapter, and one parse
                // gives both its ids and its links (for the anchor check).
                let (ids, links) = headings::mdbook_page_and_links(content, markdown, generation);
                self.data.set_links(index, links);
                return ids;
            }
            let cx = Cx::new(self, index, Mode::Index);
            let expanded = expand_text(content, &cx).text;
            let text = expanded.as_deref().unwrap_or(content);
            headings::mdbook_page(text, markdown, generation)
        })
    }

    /// The chapter whose path (relative to `src`) is `path`.
    pub fn chapter_by_path(&self, path: &str) -> Option<usize> {
        self.data.chapter_by_path(self.chapters, path)
    }

    /// CONTRIBUTING, loaded on first use.
    pub fn contributing(&self) -> Result<Arc<Contributing>, LoadError> {
        self.data.contributing(self.settings, self.chapters)
    }
}

/// Whether link directives are resolved or left as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Expand everything: the real output.
    Final,
    /// Expand everything but link directives, to learn the headings a page
    /// will have.
    Index,
}

/// The context a directive expands in.
pub struct Cx<'a> {
    /// The run.
    pub run: &'a Run<'a>,
    /// Index of the chapter being expanded.
    pub chapter: usize,
    /// Final output or index building.
    pub mode: Mode,
    /// Whether this is the body of a fence directive (no fences allowed).
    pub in_fence: bool,
    /// Warnings (and checks' errors) a directive reports beside a
    /// successful expansion.
    reported: RefCell<Vec<Diagnostic>>,
    /// Ids directives set explicitly on this page so far (`{#id}`), and the
    /// ids of the chapter's own headings, computed on first use.
    claimed_ids: RefCell<Option<HashSet<String>>>,
}

impl<'a> Cx<'a> {
    /// The context for expanding chapter `chapter` of `run`.
    pub fn new(run: &'a Run<'a>, chapter: usize, mode: Mode) -> Self {
        Cx {
            run,
            chapter,
            mode,
            in_fence: false,
            reported: RefCell::new(Vec::new()),
            claimed_ids: RefCell::new(None),
        }
    }

    /// An id for a heading a directive generates with an explicit `{#id}`:
    /// `base`, or `base-1`, `base-2`, ... when the chapter's own headings or
    /// an earlier explicit id of this page already have it. (mdBook numbers
    /// repeats of the ids it makes, never of explicit ones.)
    pub fn claim_id(&self, base: &str) -> String {
        let mut claimed = self.claimed_ids.borrow_mut();
        let claimed = claimed.get_or_insert_with(|| {
            let settings = self.settings();
            headings::mdbook_page(
                &self.current().content,
                settings.markdown,
                settings.generation,
            )
            .ids()
            .map(str::to_string)
            .collect()
        });
        let mut id = base.to_string();
        let mut n = 1;
        while claimed.contains(&id) {
            id = format!("{base}-{n}");
            n += 1;
        }
        claimed.insert(id.clone());
        id
    }

    /// Reports a problem that does not stop the directive from expanding
    /// (such as a broken link in data it renders).
    pub fn report(&self, diagnostic: Diagnostic) {
        self.reported.borrow_mut().push(diagnostic);
    }

    fn take_reported(&self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.reported.borrow_mut())
    }
}

impl Cx<'_> {
    /// The build's settings.
    pub fn settings(&self) -> &Settings {
        self.run.settings
    }

    /// The chapter being expanded.
    pub fn current(&self) -> &Chapter {
        &self.run.chapters[self.chapter]
    }

    /// Expands the directives in `text`, a fragment of the current chapter
    /// (such as a FAQ answer). Diagnostics are in `text`'s offsets.
    pub fn expand_fragment(&self, text: &str) -> Outcome {
        let cx = Cx {
            in_fence: true,
            ..Cx::new(self.run, self.chapter, self.mode)
        };
        expand_text(text, &cx)
    }
}

/// The result of expanding one text.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The new text, or `None` when nothing changed.
    pub text: Option<String>,
    /// Errors and warnings, in the text's offsets.
    pub diagnostics: Vec<Diagnostic>,
}

/// Expands every directive in `text`.
pub fn expand_text(text: &str, cx: &Cx<'_>) -> Outcome {
    expand_text_with_notes(text, cx, &[])
}

/// Expands every directive in `text` and shows each of `notes` (a problem
/// the directives did not report, and the byte offset of `text` it belongs
/// after) as a visible note: at that offset, or after the directive block
/// the offset is inside of, whose text is replaced.
fn expand_text_with_notes(text: &str, cx: &Cx<'_>, notes: &[(usize, &Diagnostic)]) -> Outcome {
    let registry = cx.run.registry;
    let options = cx.settings().markdown.parser_options();
    if !scan::may_contain(text, registry) {
        if notes.is_empty() {
            return Outcome::default();
        }
        let replacements: Vec<Replacement> = notes
            .iter()
            .map(|&(at, note)| Replacement {
                range: at..at,
                text: format!(" {}", error_note(&[note], Placement::Inline, options)),
            })
            .collect();
        return Outcome {
            text: Some(splice(text, &replacements)),
            diagnostics: Vec::new(),
        };
    }
    let scan = scan::scan(text, registry, cx.settings().markdown);
    let mut diagnostics = scan.warnings;
    let mut replacements = Vec::with_capacity(scan.sites.len());
    for site in &scan.sites {
        let (range, placement, result) = match site {
            Site::Brace(call) => {
                let Some(directive) = registry.brace(call.name) else {
                    continue;
                };
                if cx.mode == Mode::Index && directive.is_link() {
                    continue;
                }
                (
                    call.range.clone(),
                    call.placement,
                    directive.expand(call, cx),
                )
            }
            Site::Fence(block) => {
                let Some(directive) = registry.fence(block.name) else {
                    continue;
                };
                let result = if cx.in_fence {
                    Err(vec![block.error(format!(
                        "a `{}` block cannot be nested inside another directive block",
                        block.name
                    ))])
                } else {
                    directive.expand(block, cx)
                };
                (block.range.clone(), Placement::Block, result)
            }
        };
        diagnostics.extend(cx.take_reported());
        let result = result.and_then(|expansion| fit(expansion, placement, site));
        let text = match result {
            Ok(Expansion::Inline(text) | Expansion::Block(text)) => text,
            Err(errors) => {
                let note = error_note(&errors, placement, cx.settings().markdown.parser_options());
                diagnostics.extend(errors);
                note
            }
        };
        replacements.push(Replacement { range, text });
    }
    if !notes.is_empty() {
        for &(at, note) in notes {
            match replacements
                .iter_mut()
                .find(|r| r.range.start < at && at < r.range.end)
            {
                // Inside a directive block (a FAQ answer): after the block's
                // text, as a block of its own, indented like the block.
                Some(block) => {
                    let note = error_note(&[note], Placement::Block, options);
                    block.text = format!("{}\n\n{note}", block.text.trim_end_matches('\n'));
                }
                None => replacements.push(Replacement {
                    range: at..at,
                    text: format!(" {}", error_note(&[note], Placement::Inline, options)),
                }),
            }
        }
        // An insertion goes before a replacement that starts where it is.
        replacements.sort_by_key(|r| (r.range.start, r.range.end));
    }
    let text = (!replacements.is_empty()).then(|| splice(text, &replacements));
    Outcome { text, diagnostics }
}

/// Checks that an expansion fits where its call is.
fn fit(
    expansion: Expansion,
    placement: Placement,
    site: &Site<'_>,
) -> Result<Expansion, Vec<Diagnostic>> {
    match (&expansion, placement, site) {
        (Expansion::Block(_), Placement::Inline, Site::Brace(call)) => Err(vec![
            call.error(format!(
                "`{{{{#{}}}}}` makes block content here, so it must be a paragraph of its own",
                call.name
            ))
            .with_label("inside running text")
            .with_help("put it on a line of its own with blank lines around it"),
        ]),
        _ => Ok(expansion),
    }
}

/// The visible note that replaces a failed directive (`on-error = "warn"`).
fn error_note<D: std::borrow::Borrow<Diagnostic>>(
    errors: &[D],
    placement: Placement,
    options: pulldown_cmark::Options,
) -> String {
    let message = errors
        .iter()
        .map(|e| e.borrow().message.as_str())
        .collect::<Vec<_>>()
        .join("; ");
    let label = format!("mdbook-community error: {message}");
    match placement {
        Placement::Block => to_markdown(
            [
                Event::Start(Tag::BlockQuote(None)),
                Event::Start(Tag::Paragraph),
                Event::Start(Tag::Strong),
                Event::Text("mdbook-community error:".into()),
                Event::End(TagEnd::Strong),
                Event::Text(" ".into()),
                Event::Text(message.into()),
                Event::End(TagEnd::Paragraph),
                Event::End(TagEnd::BlockQuote(None)),
            ],
            options,
        ),
        Placement::Inline => to_markdown(
            [
                Event::Start(Tag::Strong),
                Event::Text(format!("[{label}]").into()),
                Event::End(TagEnd::Strong),
            ],
            options,
        ),
    }
}

/// Expands every chapter of the book; returns the new contents (`None` for
/// unchanged chapters) and all diagnostics, in book order.
pub fn expand_book(run: &Run<'_>) -> (Vec<Option<String>>, Vec<Diagnostic>) {
    let chapters = run.chapters;
    let check_anchors = run.settings.check_anchors != AnchorCheck::Off;
    let url = run.settings.contributing_url.as_deref();
    let todo: Vec<usize> = (0..chapters.len())
        .filter(|&i| {
            let text = &chapters[i].content;
            scan::may_contain(text, run.registry)
                || check_anchors && anchors::may_have_fragment_links(text, url)
        })
        .collect();
    let results: Mutex<Vec<(usize, Outcome)>> = Mutex::new(Vec::with_capacity(todo.len()));
    let next = AtomicUsize::new(0);
    let work = || {
        loop {
            let n = next.fetch_add(1, Ordering::Relaxed);
            let Some(&index) = todo.get(n) else { break };
            let cx = Cx::new(run, index, Mode::Final);
            // With `on-error = "warn"`, a link the anchor check fails shows
            // in the page like a failed directive.
            let broken = anchors::check_chapter(run, index);
            let notes: Vec<(usize, &Diagnostic)> = broken
                .iter()
                .filter(|b| b.diagnostic.is_error() && run.settings.on_error == OnError::Warn)
                .map(|b| (b.link.end, &b.diagnostic))
                .collect();
            let mut outcome = expand_text_with_notes(&chapters[index].content, &cx, &notes);
            outcome
                .diagnostics
                .extend(broken.into_iter().map(|b| b.diagnostic));
            if let Ok(mut results) = results.lock() {
                results.push((index, outcome));
            }
        }
    };
    let threads = worker_count(todo.len());
    if threads > 1 {
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(work);
            }
            work();
        });
    } else {
        work();
    }
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(index, _)| *index);
    let mut contents = vec![None; chapters.len()];
    // Data files' own problems first, once each; then the chapters', in order.
    let mut diagnostics = run.data.diagnostics();
    for (index, outcome) in results {
        contents[index] = outcome.text;
        diagnostics.extend(
            outcome
                .diagnostics
                .into_iter()
                .map(|d| d.for_chapter(index)),
        );
    }
    (contents, diagnostics)
}

/// How many threads to use for `jobs` chapters.
fn worker_count(jobs: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    cores.min(jobs).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::directive::{BraceDirective, Call, FenceBlock, FenceDirective};
    use crate::protocol::{Context, Generation};

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
                return Err(vec![call.error("`shout` needs words")]);
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
        fn expand(
            &self,
            block: &FenceBlock<'_>,
            cx: &Cx<'_>,
        ) -> Result<Expansion, Vec<Diagnostic>> {
            let inner = cx.expand_fragment(&block.body);
            let map = |o| block.body_map.to_source(o);
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

    fn settings() -> Settings {
        let context = Context {
            root: ".".into(),
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
            .map(|t| Chapter {
                name: "c".into(),
                content: (*t).into(),
                ..Chapter::default()
            })
            .collect();
        let run = Run::new(&settings, &registry, &chapters);
        expand_book(&run)
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
            Some(crate::diagnostics::Location::Chapter { chapter, range }) => {
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
            Some(crate::diagnostics::Location::Chapter { range, .. }) => {
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
        use crate::markdown::parse_log::count;
        let settings = settings();
        let registry = Registry::new().with_brace(Shout).with_fence(Box_);
        let chapter = |path: &str, content: &str| Chapter {
            name: path.into(),
            path: Some(path.into()),
            source_path: Some(path.into()),
            content: content.into(),
        };
        let chapters = [
            chapter(
                "plain.md",
                "fastpath-plain: {{#include x.md}} {{#title T}} `faq` [a](b.md)\n\n```rust\nfaq\n```\n",
            ),
            chapter("linking.md", "fastpath-linking: see [it](target.md#t).\n"),
            chapter("target.md", "fastpath-target\n\n# T\n"),
            chapter("shouting.md", "fastpath-shouting {{#shout a}}\n"),
        ];
        let run = Run::new(&settings, &registry, &chapters);
        let (out, diags) = expand_book(&run);
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
}
