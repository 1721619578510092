//! What expanding a chapter leaves for the check pass: link directives'
//! calls, and the anchors of links directives generated.

use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::markdown::Placement;

/// A link directive's call, kept for the resolve stage. Its ranges are in
/// the chapter's offsets, wherever the call stood (a FAQ answer included).
#[derive(Debug, Clone)]
pub struct PendingLink {
    /// The directive's name.
    pub name: &'static str,
    /// The call's arguments.
    pub args: String,
    /// The whole call.
    pub range: Range<usize>,
    /// The directive's name, after `#`.
    pub name_range: Range<usize>,
    /// The arguments.
    pub args_range: Range<usize>,
    /// Block or inline.
    pub placement: Placement,
    /// Level of the last heading before the call.
    pub section_level: u8,
    /// Whether the call is inside a link's text.
    pub in_link: bool,
}

/// A link a directive generated (into a group description, say) whose
/// anchor the resolve stage checks: `diagnostic` is reported, with the
/// closest id as help, when `path` has no `#fragment`.
#[derive(Debug, Clone)]
pub struct AnchorRequest {
    /// The target chapter's path, relative to `src`.
    pub path: String,
    /// The fragment, without `#`.
    pub fragment: String,
    /// What to report when it is missing (in chapter offsets).
    pub diagnostic: Diagnostic,
}

/// What expanding one chapter leaves for the resolve stage.
#[derive(Debug, Default)]
pub struct Deferred {
    /// Link directives, in the order of their markers.
    pub links: Vec<PendingLink>,
    /// Anchors of generated links.
    pub anchors: Vec<AnchorRequest>,
    /// Groups whose headings this chapter renders (`{{#maintainers}}`),
    /// so that links to a group can find its page.
    pub rendered_groups: Vec<String>,
    /// What the chapter's link markers open with.
    pub marker_open: super::marker::Open,
}

impl Deferred {
    /// Gives back the room its lists grew into (see `Expanded`).
    pub fn shrink_to_fit(&mut self) {
        self.links.shrink_to_fit();
        self.anchors.shrink_to_fit();
        self.rendered_groups.shrink_to_fit();
    }
}
