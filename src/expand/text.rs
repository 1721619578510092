//! Expanding the directives of one text: scan it, run each call site's
//! directive, and splice the results into exactly the sites' bytes.

use pulldown_cmark::{Event, Tag, TagEnd};

use super::context::Cx;
use super::directive::{Expansion, Placement};
use super::scan::{self, Site};
use super::splice::{Replacement, splice};
use crate::diagnostic::Diagnostic;
use crate::markdown::to_markdown;

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
    let (replacements, diagnostics) = replacements_of(text, cx);
    let text = (!replacements.is_empty()).then(|| splice(text, &replacements));
    Outcome { text, diagnostics }
}

/// What each call site in `text` becomes, in text order, and every problem
/// found. A failed directive becomes a visible note ([`error_note`]).
pub fn replacements_of(text: &str, cx: &Cx<'_>) -> (Vec<Replacement>, Vec<Diagnostic>) {
    let registry = cx.run.registry;
    if !scan::may_contain(text, registry) {
        return (Vec::new(), Vec::new());
    }
    let scan = scan::scan(text, registry, cx.settings().markdown);
    let mut diagnostics = scan.warnings;
    let mut replacements = Vec::with_capacity(scan.sites.len());
    for site in &scan.sites {
        let Some((placement, result)) = expand_site(site, cx) else {
            continue;
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
        replacements.push(Replacement {
            range: site.range(),
            text,
        });
    }
    (replacements, diagnostics)
}

type Expanded = Result<Expansion, Vec<Diagnostic>>;

/// Runs the directive of one site; `None` for a name no directive has.
fn expand_site(site: &Site<'_>, cx: &Cx<'_>) -> Option<(Placement, Expanded)> {
    let registry = cx.run.registry;
    match site {
        Site::Brace(call) => {
            let directive = registry.brace(call.name)?;
            Some((call.placement, directive.expand(call, cx)))
        }
        Site::Fence(block) => {
            let directive = registry.fence(block.name)?;
            let result = if cx.in_fence {
                Err(vec![block.error(format!(
                    "a `{}` block cannot be nested inside another directive block",
                    block.name
                ))])
            } else {
                directive.expand(block, cx)
            };
            Some((Placement::Block, result))
        }
    }
}

/// Checks that an expansion fits where its call is.
fn fit(expansion: Expansion, placement: Placement, site: &Site<'_>) -> Expanded {
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
pub fn error_note<D: std::borrow::Borrow<Diagnostic>>(
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
