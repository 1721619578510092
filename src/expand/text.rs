//! Expanding the directives of one text: scan it, run each call site's
//! directive, and splice the results into exactly the sites' bytes.

use pulldown_cmark::{Event, Tag, TagEnd};

use super::context::Cx;
use super::directive::{Expansion, Placement};
use super::scan::{self, Site};
use super::splice::{Replacement, splice};
use crate::diagnostic::{Code, Diagnostic};
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

/// The visible note that replaces a failed directive (`on-error = "warn"`).
/// What messages put in backticks shows as code.
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
    let mut events = Vec::new();
    match placement {
        Placement::Block => {
            events.push(Event::Start(Tag::BlockQuote(None)));
            events.push(Event::Start(Tag::Paragraph));
            events.push(Event::Start(Tag::Strong));
            events.push(Event::Text("mdbook-community error:".into()));
            events.push(Event::End(TagEnd::Strong));
            events.push(Event::Text(" ".into()));
            message_events(&message, &mut events);
            events.push(Event::End(TagEnd::Paragraph));
            events.push(Event::End(TagEnd::BlockQuote(None)));
        }
        Placement::Inline => {
            events.push(Event::Start(Tag::Strong));
            events.push(Event::Text("[mdbook-community error: ".into()));
            message_events(&message, &mut events);
            events.push(Event::Text("]".into()));
            events.push(Event::End(TagEnd::Strong));
        }
    }
    to_markdown(events, options)
}

/// `message` as text, with each `` `span` `` in it as a code span.
fn message_events(message: &str, out: &mut Vec<Event<'static>>) {
    let mut rest = message;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`').filter(|&close| close > 0) else {
            break;
        };
        if open > 0 {
            out.push(Event::Text(rest[..open].to_string().into()));
        }
        out.push(Event::Code(after[..close].to_string().into()));
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        out.push(Event::Text(rest.to_string().into()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Code;

    #[test]
    fn notes_show_the_messages_code_spans_as_code() {
        let error = Diagnostic::error(
            Code::BrokenAnchor,
            "no chapter `codeowners.md` in this book",
        );
        let options = pulldown_cmark::Options::empty();
        let inline = error_note(&[&error], Placement::Inline, options);
        assert_eq!(
            inline,
            "**\\[mdbook-community error: no chapter `codeowners.md` in this book\\]**"
        );
        let block = error_note(&[&error], Placement::Block, options);
        assert!(
            block
                .ends_with("> **mdbook-community error:** no chapter `codeowners.md` in this book"),
            "{block}"
        );
        let mut events = Vec::new();
        message_events("a `b` c ``d `e", &mut events);
        assert_eq!(
            events,
            [
                Event::Text("a ".into()),
                Event::Code("b".into()),
                Event::Text(" c ``d `e".into()),
            ]
        );
    }
}
