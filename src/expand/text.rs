//! Expanding the directives of one text: scan it, run each call site's
//! directive, and splice the results into exactly the sites' bytes.

use super::scan::{self, Site};
use crate::chapter::splice::{Replacement, splice};
use crate::diagnostic::{Code, Diagnostic};
use crate::directive::{Cx, Expansion};
use crate::markdown::{Placement, error_note};

/// The result of expanding one text.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The new text, or `None` when nothing changed.
    pub text: Option<String>,
    /// Errors and warnings, in the text's offsets.
    pub diagnostics: Vec<Diagnostic>,
}

impl Cx<'_> {
    /// Expands the directives in `text`, a fragment of the current chapter
    /// (such as a FAQ answer) whose offset `o` is `to_chapter(o)` in the
    /// chapter. Diagnostics are in `text`'s offsets.
    pub fn expand_fragment(&self, text: &str, to_chapter: &dyn Fn(usize) -> usize) -> Outcome {
        expand_text(text, &self.for_fragment(to_chapter))
    }
}

/// Expands every directive in `text`.
fn expand_text(text: &str, cx: &Cx<'_>) -> Outcome {
    let (replacements, diagnostics) = replacements_of(text, cx);
    let text = (!replacements.is_empty()).then(|| splice(text, &replacements));
    Outcome { text, diagnostics }
}

/// What each call site in `text` becomes, in text order, and every problem
/// found. A failed directive becomes a visible note ([`error_note`]).
pub fn replacements_of(text: &str, cx: &Cx<'_>) -> (Vec<Replacement>, Vec<Diagnostic>) {
    let names = cx.run.registry.names();
    if !scan::may_contain(text, names) {
        return (Vec::new(), Vec::new());
    }
    let scan = scan::scan(text, names, cx.settings().markdown);
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
                let messages = errors.iter().map(|e| e.message.as_str());
                let note = error_note(messages, placement, cx.settings().markdown.parser_options());
                diagnostics.extend(errors);
                note
            }
        };
        replacements.push(Replacement {
            range: site.range(),
            text: text.into(),
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
                Err(vec![block.error(
                    Code::MisplacedDirective,
                    format!(
                        "a `{}` block cannot be nested inside another directive block",
                        block.name
                    ),
                )])
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
        (Expansion::Block(_), Placement::Inline, Site::Brace(call)) => {
            Err(vec![
            call.error(Code::MisplacedDirective, format!(
                "`{{{{#{}}}}}` makes block content here, so it must be a paragraph of its own",
                call.name
            ))
            .with_label("inside running text")
            .with_help("put it on a line of its own with blank lines around it"),
        ])
        }
        _ => Ok(expansion),
    }
}
