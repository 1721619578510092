//! FAQ blocks: a fenced block with the info string `faq`, one question per
//! heading. In HTML each question is a collapsible `<details>` whose summary
//! is a real Markdown heading, so mdBook gives it its id, anchor link and
//! search entry. Every other renderer gets the questions as plain headings
//! with their answers.
//!
//! ````markdown
//! ```faq open id-prefix=faq-
//! ## How can I contribute as a reviewer?
//! Reproduce issues, try new functionality and comment on pull requests.
//! ```
//! ````

use std::borrow::Cow;
use std::ops::Range;

use pulldown_cmark::{Event, Tag, TagEnd};

use crate::assets;
use crate::diagnostic::{Code, Diagnostic, did_you_mean};
use crate::directive::args::{self, ArgKind};
use crate::directive::{Cx, Expansion, FenceBlock, FenceDirective};
use crate::markdown::html::{HtmlWriter, Value};
use crate::markdown::{is_inline_end, is_inline_tag, trim_line_end};

/// The `faq` fence directive.
pub struct Faq;

const OPTIONS: &[&str] = &["open", "id-prefix"];

/// Options from the info string.
#[derive(Debug, Default)]
struct FaqOptions {
    open: bool,
    id_prefix: Option<String>,
}

/// One question: its heading and its answer, as byte ranges of the body.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Question {
    /// The heading, without its line ending.
    heading: Range<usize>,
    /// Whether the heading sets its own `{#id}`.
    has_custom_id: bool,
    /// Whether the heading ends with an attribute block (`{.class}`), into
    /// which a prefixed id goes.
    has_attributes: bool,
    /// The heading's level, 1 to 6.
    level: u8,
    /// Everything up to the next question.
    answer: Range<usize>,
}

impl FenceDirective for Faq {
    fn name(&self) -> &'static str {
        "faq"
    }

    fn expand(&self, block: &FenceBlock<'_>, cx: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        let options = parse_options(block)?;
        let questions = split(block, cx)?;
        check_closed(block, &questions, cx)?;
        // Directives in questions and answers expand like any other; their
        // problems are reported at their place in the chapter, and a failed
        // one shows as a note inside its answer, so the rest of the block
        // (and its question ids) stays.
        let expand = |range: Range<usize>| -> String {
            let piece = &block.body[range.clone()];
            let map = |offset: usize| block.body_map.to_source(range.start + offset);
            let outcome = cx.expand_fragment(piece, &map);
            for diagnostic in outcome.diagnostics {
                cx.report(diagnostic.map_range(&map));
            }
            outcome.text.unwrap_or_else(|| piece.to_string())
        };
        let expanded: Vec<(String, String)> = questions
            .iter()
            .map(|q| (expand(q.heading.clone()), expand(q.answer.clone())))
            .collect();
        // Every renderer gets the prefixed ids, so that links to them work
        // (and are checked) the same in each of mdBook's runs.
        let ids = options
            .id_prefix
            .as_deref()
            .map(|prefix| prefixed_ids(prefix, &expanded, &questions, cx));
        if !cx.settings().html {
            return Ok(Expansion::Block(plain(
                &expanded,
                &questions,
                ids.as_deref(),
            )));
        }
        Ok(Expansion::Block(html(
            &expanded,
            &questions,
            ids.as_deref(),
            options.open,
            !cx.settings().assets_installed,
        )))
    }
}

fn parse_options(block: &FenceBlock<'_>) -> Result<FaqOptions, Vec<Diagnostic>> {
    let mut options = FaqOptions::default();
    let tokens = args::tokenize(block.options, block.options_range.start).map_err(|e| {
        vec![Diagnostic::error(Code::InvalidArguments, e.message).in_this_chapter(e.range)]
    })?;
    let mut errors = Vec::new();
    for arg in tokens {
        match &arg.kind {
            ArgKind::Word("open") => options.open = true,
            ArgKind::Pair {
                key: "id-prefix",
                value,
                value_range,
            } => {
                if value.is_empty()
                    || !value
                        .chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'))
                {
                    errors.push(
                        Diagnostic::error(
                            Code::InvalidArguments,
                            "`id-prefix` must be a non-empty id fragment such as `faq-`",
                        )
                        .in_this_chapter(value_range.clone())
                        .with_label("letters, digits, `-`, `_`, `.` and `:` only"),
                    );
                } else {
                    options.id_prefix = Some(value.to_string());
                }
            }
            kind => {
                let name = match kind {
                    ArgKind::Word(w) => w.to_string(),
                    ArgKind::Pair { key, .. } => key.to_string(),
                    ArgKind::Quoted(q) => format!("\"{q}\""),
                };
                errors.push(
                    Diagnostic::error(
                        Code::InvalidArguments,
                        format!("unknown FAQ option `{name}`"),
                    )
                    .in_this_chapter(arg.range.clone())
                    .with_label("not an option of ```faq")
                    .with_suggestion(did_you_mean(&name, OPTIONS.iter().copied()))
                    .with_note("options: `open` (entries start expanded), `id-prefix=PREFIX`"),
                );
            }
        }
    }
    if errors.is_empty() {
        Ok(options)
    } else {
        Err(errors)
    }
}

/// Every answer must close what it opens: a fence or an HTML comment left
/// open would swallow the `</details>` after it and the rest of the
/// chapter (without the plugin, the block's own fence would end it).
fn check_closed(
    block: &FenceBlock<'_>,
    questions: &[Question],
    cx: &Cx<'_>,
) -> Result<(), Vec<Diagnostic>> {
    let options = cx.settings().markdown;
    let errors: Vec<Diagnostic> = questions
        .iter()
        .filter_map(|q| {
            let answer = &block.body[q.answer.clone()];
            let open = crate::markdown::unclosed_block(answer, options)?;
            let at = q.answer.start + open.start..q.answer.start + open.end;
            Some(
                block
                    .error_in_body(at, Code::InvalidFaq, "this FAQ answer leaves a block open")
                    .with_label("not closed before the next question or the end of the block")
                    .with_help("close the code block or HTML comment inside its answer"),
            )
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Splits the body into questions at its top-level headings of the first
/// question's level (or above).
fn split(block: &FenceBlock<'_>, cx: &Cx<'_>) -> Result<Vec<Question>, Vec<Diagnostic>> {
    let body = block.body.as_str();
    let mut splitter = Splitter::default();
    for (event, range) in cx.settings().markdown.parser(body).into_offset_iter() {
        splitter.event(&event, range, block);
    }
    splitter.finish(block)
}

/// The state of [`split`] between two events.
#[derive(Default)]
struct Splitter {
    questions: Vec<Question>,
    errors: Vec<Diagnostic>,
    /// The level of the first question: headings at it or above start one.
    question_level: Option<u8>,
    /// How deep in blocks (and headings) the parser is.
    depth: usize,
    /// The question heading being read: its range, text, `{#id}`, level,
    /// and whether it has other attributes.
    current: Option<(Range<usize>, String, bool, u8, bool)>,
    /// Content before the first question (an error).
    first_content: Option<Range<usize>>,
}

impl Splitter {
    fn event(&mut self, event: &Event<'_>, range: Range<usize>, block: &FenceBlock<'_>) {
        match event {
            Event::Start(Tag::Heading {
                level,
                id,
                classes,
                attrs,
            }) if self.depth == 0 => {
                let level = *level as u8;
                if self.question_level.is_none_or(|q| level <= q) {
                    self.question_level.get_or_insert(level);
                    let other = !classes.is_empty() || !attrs.is_empty();
                    self.current = Some((range, String::new(), id.is_some(), level, other));
                }
                self.depth += 1;
            }
            Event::End(TagEnd::Heading(_)) => {
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 0 {
                    self.end_question_heading(block);
                }
            }
            Event::Start(tag) if !is_inline_tag(tag) => {
                self.note_content(range);
                self.depth += 1;
            }
            Event::End(tag) if !is_inline_end(*tag) => {
                self.depth = self.depth.saturating_sub(1);
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, text, ..)) = self.current.as_mut() {
                    text.push_str(t);
                }
            }
            Event::Html(_) | Event::Rule | Event::InlineHtml(_) => self.note_content(range),
            _ => {}
        }
    }

    /// Remembers `range` if it is the first top-level content before any
    /// question.
    fn note_content(&mut self, range: Range<usize>) {
        if self.depth == 0
            && self.questions.is_empty()
            && self.current.is_none()
            && self.first_content.is_none()
        {
            self.first_content = Some(range);
        }
    }

    /// A question heading ended: the previous answer ends where it starts.
    fn end_question_heading(&mut self, block: &FenceBlock<'_>) {
        let Some((heading, text, custom, level, attributes)) = self.current.take() else {
            return;
        };
        let body = block.body.as_str();
        let heading = trim_line_end(body, heading);
        if text.trim().is_empty() {
            self.errors.push(block.error_in_body(
                heading.clone(),
                Code::InvalidFaq,
                "a FAQ question heading is empty",
            ));
        }
        if let Some(last) = self.questions.last_mut() {
            last.answer.end = heading.start;
        }
        self.questions.push(Question {
            answer: heading.end..body.len(),
            heading,
            has_custom_id: custom,
            has_attributes: attributes,
            level,
        });
    }

    fn finish(mut self, block: &FenceBlock<'_>) -> Result<Vec<Question>, Vec<Diagnostic>> {
        if let Some(range) = self.first_content {
            let range = trim_line_end(&block.body, range);
            self.errors.push(
                block
                    .error_in_body(
                        range,
                        Code::InvalidFaq,
                        "text before the first question of a FAQ block",
                    )
                    .with_help("start the block with a question heading, e.g. `## How do I ...?`"),
            );
        }
        if self.questions.is_empty() && self.errors.is_empty() {
            self.errors
                .push(block.error(Code::InvalidFaq, "a FAQ block has no question").with_help(
                "write each question as a heading, e.g. `## How do I ...?`, with its answer below",
            ));
        }
        if self.errors.is_empty() {
            Ok(self.questions)
        } else {
            Err(self.errors)
        }
    }
}

/// Non-HTML renderers: the questions as headings, the answers below.
fn plain(expanded: &[(String, String)], questions: &[Question], ids: Option<&[String]>) -> String {
    let mut out = HtmlWriter::new();
    for (index, ((heading, answer), question)) in expanded.iter().zip(questions).enumerate() {
        let id = ids.and_then(|ids| ids.get(index));
        out.markdown_block(&question_line(heading, question, id));
        out.markdown_block(answer);
    }
    // One line ending after the block; the blank line the splice leaves
    // keeps a paragraph right after the closing fence out of the last
    // answer.
    out.finish_block()
}

/// The HTML renderer: one `<details>` per question in a `<div>`, each
/// question a Markdown heading in its `<summary>`.
fn html(
    expanded: &[(String, String)],
    questions: &[Question],
    ids: Option<&[String]>,
    open: bool,
    inline_assets: bool,
) -> String {
    let mut out = HtmlWriter::new();
    if inline_assets {
        assets::write_inline(&mut out);
        out.blank_line();
    }
    out.open("div", &[("class", Some(Value::Fixed("community-faq")))]);
    out.blank_line();
    for (index, ((heading, answer), question)) in expanded.iter().zip(questions).enumerate() {
        let class = Some(Value::Fixed("community-faq-entry"));
        let open = open.then_some(Value::Fixed(""));
        out.open("details", &[("class", class), ("open", open)]);
        out.newline();
        out.open("summary", &[]);
        out.blank_line();
        let id = ids.and_then(|ids| ids.get(index));
        out.markdown_block(&question_line(heading, question, id));
        out.close("summary");
        out.blank_line();
        out.markdown_block(answer);
        out.close("details");
        out.blank_line();
    }
    // The blank line ends the HTML block, so that a paragraph right after the
    // closing fence is Markdown again.
    out.close("div");
    out.finish_block()
}

/// A question's heading, with its `id-prefix` id when it has one: an id
/// attribute only ends an ATX heading's line, so an underlined heading's
/// text moves onto one.
fn question_line(heading: &str, question: &Question, id: Option<&String>) -> String {
    match id {
        Some(id) if !question.has_custom_id => {
            let line = atx_heading(heading, question.level);
            crate::markdown::with_heading_id(&line, id, question.has_attributes)
        }
        _ => heading.trim_end().to_string(),
    }
}

/// `heading` (an ATX or setext heading, as written) as one ATX heading line.
fn atx_heading(heading: &str, level: u8) -> Cow<'_, str> {
    let heading = heading.trim_end();
    if heading.trim_start().starts_with('#') {
        return Cow::Borrowed(heading);
    }
    // Setext: the text lines above the underline, joined.
    let mut lines: Vec<&str> = heading.lines().map(str::trim).collect();
    lines.pop();
    Cow::Owned(format!(
        "{} {}",
        "#".repeat(usize::from(level)),
        lines.join(" ")
    ))
}

/// `id-prefix`: ids are the prefix plus the id mdBook would give the
/// question as rendered (its directives expanded), unique on the page.
fn prefixed_ids(
    prefix: &str,
    expanded: &[(String, String)],
    questions: &[Question],
    cx: &Cx<'_>,
) -> Vec<String> {
    let settings = cx.settings();
    expanded
        .iter()
        .zip(questions)
        .map(|((heading, _), question)| {
            if question.has_custom_id {
                // Unused: the question keeps its own id.
                return String::new();
            }
            let page = crate::ids::mdbook_page(heading, settings.markdown, settings.generation);
            let base = page.headings().next().map_or("", |h| h.id);
            cx.claim_id(&format!("{prefix}{base}"))
        })
        .collect()
}
