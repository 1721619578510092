//! A chapter's text and the edits made to it, after it leaves the expand
//! pass: what each call site became (`Expanded`), what the check pass
//! decided for its links and notes (`Resolved`), and the one way each text
//! is made from them. The passes after expand (index, check, the answer)
//! read a chapter through this module and never go back into `expand/`.
//!
//! [`splice`](mod@splice) replaces exactly the sites' bytes; [`marker`] is the stand-in
//! for a deferred link; [`map`] maps offsets of the expanded text back to
//! the chapter; [`deferred`] is what a chapter leaves for the check pass.

pub mod deferred;
pub mod map;
pub mod marker;
pub mod splice;

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

pub use deferred::{AnchorRequest, Deferred, PendingLink};
pub use map::{ChapterMap, NotePlace};

use crate::diagnostic::Diagnostic;
use splice::{Replacement, spans_of, splice};

/// One chapter after the expand stage.
///
/// It keeps the replacements, not the expanded text: the text is made
/// from the chapter when a later stage needs it (once to index the page,
/// whose parse the check pass reads; the final text, once, to write it),
/// and dropped after each use. Equal expansions share one text, so a book
/// that repeats the same directives holds each output once, not once per
/// chapter.
#[derive(Debug, Default)]
pub struct Expanded {
    /// The replacements that make the expanded text, in chapter offsets,
    /// in order.
    replacements: Vec<Replacement>,
    /// Where each replacement's text is in the expanded text.
    spans: Vec<Range<usize>>,
    /// What the resolve stage finishes.
    pub deferred: Deferred,
    /// Problems, in chapter offsets, in the order of their sites.
    pub diagnostics: Vec<Diagnostic>,
}

/// What the resolve stage decided for a chapter: what each link marker
/// becomes, and the notes shown after broken links (`on-error = "warn"`).
#[derive(Debug, Default)]
pub struct Resolved {
    /// What link marker `n` becomes.
    pub links: Vec<Arc<str>>,
    /// Visible notes, each a Markdown block or inline text from the writer.
    pub notes: Vec<(NotePlace, String)>,
}

impl Expanded {
    /// Chapter `content`'s expansion: its `replacements` (in chapter
    /// offsets, in order), what it leaves for the check pass, and its
    /// problems (in chapter offsets).
    pub fn new(
        content: &str,
        replacements: Vec<Replacement>,
        deferred: Deferred,
        diagnostics: Vec<Diagnostic>,
    ) -> Expanded {
        let spans = spans_of(content, &replacements);
        let mut expanded = Expanded {
            replacements,
            spans,
            deferred,
            diagnostics,
        };
        expanded.shrink_to_fit();
        expanded
    }

    /// Gives back the room its lists grew into: kept for every chapter
    /// with a directive until the answer is written, a list of one link
    /// grown to four was a tenth of the run's memory.
    fn shrink_to_fit(&mut self) {
        self.replacements.shrink_to_fit();
        self.spans.shrink_to_fit();
        self.diagnostics.shrink_to_fit();
        self.deferred.shrink_to_fit();
    }

    /// The chapter (`content`, as mdBook sent it) with every directive
    /// expanded and every link directive a marker: the text the book index
    /// is built from.
    pub fn text(&self, content: &str) -> String {
        splice(content, &self.replacements)
    }

    /// How offsets of [`text`](Self::text) map back to `content`.
    pub fn map<'a>(&'a self, content: &'a str) -> ChapterMap<'a> {
        ChapterMap::new(content, &self.replacements, &self.spans)
    }

    /// Whether a directive on this page failed: the page may lack the ids
    /// it would have made.
    pub fn is_partial(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// A chapter without replacements whose directive failed.
    #[cfg(test)]
    pub fn partial_for_tests() -> Self {
        let error = Diagnostic::error(crate::diagnostic::Code::MissingData, "failed");
        Expanded {
            diagnostics: vec![error],
            ..Expanded::default()
        }
    }
}

/// A chapter's final text: `content` with `expanded`'s replacements, the
/// resolve stage's notes, and its links in place of the markers; `None`
/// when nothing changes. The one place a chapter's final text is made.
pub fn final_text(
    content: &str,
    expanded: Option<&Expanded>,
    resolved: Option<&Resolved>,
) -> Option<String> {
    let empty = Expanded::default();
    let expanded = expanded.unwrap_or(&empty);
    let (links, notes) = match resolved {
        Some(r) => (&r.links[..], &r.notes[..]),
        None => (&[][..], &[][..]),
    };
    if expanded.replacements.is_empty() && notes.is_empty() {
        return None;
    }
    let mut replacements = match notes.is_empty() {
        true => Cow::Borrowed(&expanded.replacements[..]),
        false => Cow::Owned(map::with_notes(&expanded.replacements, notes)),
    };
    // Links go into the directives' output before it is spliced in, so
    // that the chapter is spliced once and its own text is never searched.
    if !links.is_empty() {
        let open = expanded.deferred.marker_open;
        let linked: Vec<(usize, String)> = (replacements.iter().enumerate())
            .filter_map(|(k, r)| marker::replace_markers(&r.text, links, open).map(|t| (k, t)))
            .collect();
        for (k, text) in linked {
            replacements.to_mut()[k].text = text.into();
        }
    }
    Some(splice(content, &replacements))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expanded(content: &str, sites: &[(&str, &str)]) -> Expanded {
        let replacements = (sites.iter())
            .map(|(site, text)| {
                let at = content.find(site).expect("site");
                Replacement::new(at..at + site.len(), (*text).into())
            })
            .collect();
        Expanded::new(content, replacements, Deferred::default(), Vec::new())
    }

    fn resolved(links: &[&str]) -> Resolved {
        Resolved {
            links: links.iter().map(|l| Arc::from(*l)).collect(),
            notes: Vec::new(),
        }
    }

    /// The author's own text is text, even when it spells a marker: only
    /// the directives' output has its markers replaced.
    #[test]
    fn only_the_directives_markers_become_links() {
        let open = marker::Open::default();
        let content = format!("mine {} and {{{{#d}}}}\n", open.marker(0));
        let chapter = expanded(&content, &[("{{#d}}", &open.marker(0))]);
        let text = final_text(&content, Some(&chapter), Some(&resolved(&["[a](b)"])));
        let mine = format!("mine {} and [a](b)\n", open.marker(0));
        assert_eq!(text.as_deref(), Some(mine.as_str()));
    }

    /// A multi-line link in a multi-line output stays in the block quote
    /// and the list item the call sat in, with the chapter's line endings.
    #[test]
    fn a_link_in_an_output_keeps_the_outputs_container() {
        let content = "> - {{#d}}\r\n";
        let output = format!("- x {}\n- y", marker::Open::default().marker(0));
        let chapter = expanded(content, &[("{{#d}}", &output)]);
        let links = resolved(&["[a\nb](c)"]);
        let text = final_text(content, Some(&chapter), Some(&links));
        let expected = "> - - x [a\r\n>       b](c)\r\n>   - y\r\n";
        assert_eq!(text.as_deref(), Some(expected));
    }
}
