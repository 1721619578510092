//! What a directive sees while it runs: [`Cx`] in the expand stage, and
//! [`LinkCx`] in the resolve stage for directives that link into the book.
//!
//! A directive whose output needs other chapters' ids does not get them
//! here: it defers the call ([`Cx::defer_link`]) or the check
//! ([`Cx::check_anchor_later`]), and the resolve stage finishes it against
//! the index of the expanded book. So no chapter is ever expanded twice.

use std::cell::RefCell;
use std::collections::HashSet;
use std::ops::Range;
use std::sync::Arc;

use super::directive::{Call, Expansion, Placement, Registry};
use super::text::{Outcome, expand_text};
use crate::config::Settings;
use crate::data::contributing::Contributing;
use crate::data::{Data, LoadError};
use crate::diagnostic::Diagnostic;
use crate::ids::{self, BookIds, PageIds};
use crate::mdbook::Chapter;

/// Everything shared by one run: settings, directives, the book as mdBook
/// sent it, and the data files (each loaded at most once, on first use).
#[derive(Clone, Copy)]
pub struct Run<'a> {
    /// The build's settings.
    pub settings: &'a Settings,
    /// The directives.
    pub registry: &'a Registry,
    /// The chapters, unmodified.
    pub chapters: &'a [Chapter],
    /// Lazily loaded data files.
    pub data: &'a Data,
}

impl<'a> Run<'a> {
    /// CONTRIBUTING, loaded on first use.
    pub fn contributing(&self) -> Result<Arc<Contributing>, LoadError> {
        self.data.contributing(self.settings, self.chapters)
    }

    /// CONTRIBUTING, borrowed for the run; `None` when it failed to load.
    pub fn contributing_loaded(&self) -> Option<&'a Contributing> {
        let loaded = self.data.contributing_loaded(self.settings, self.chapters);
        loaded.as_ref().ok().map(|contributing| &**contributing)
    }
}

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

impl PendingLink {
    /// The call as the directive first saw it (in chapter offsets).
    pub fn call(&self) -> Call<'_> {
        Call {
            name: self.name,
            range: self.range.clone(),
            name_range: self.name_range.clone(),
            args: &self.args,
            args_range: self.args_range.clone(),
            placement: self.placement,
            section_level: self.section_level,
            in_link: self.in_link,
        }
    }
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
}

/// State of one chapter's expansion, shared by the contexts of its
/// fragments (FAQ questions and answers).
#[derive(Default)]
pub(super) struct ChapterState {
    /// Ids directives set explicitly on this page so far (`{#id}`), and the
    /// ids of the chapter's own headings, computed on first use.
    claimed_ids: RefCell<Option<HashSet<String>>>,
    pub(super) deferred: RefCell<Deferred>,
}

/// The context a directive expands in.
pub struct Cx<'a> {
    /// The run.
    pub run: &'a Run<'a>,
    /// Index of the chapter being expanded.
    pub chapter: usize,
    /// Whether this is the body of a fence directive (no fences allowed).
    pub in_fence: bool,
    /// Warnings (and checks' errors) a directive reports beside a
    /// successful expansion.
    reported: RefCell<Vec<Diagnostic>>,
    state: &'a ChapterState,
    /// Maps offsets of the text being expanded to the chapter's (fragments).
    to_chapter: Option<&'a dyn Fn(usize) -> usize>,
}

impl<'a> Cx<'a> {
    /// The context for expanding chapter `chapter` of `run`.
    pub(super) fn new(run: &'a Run<'a>, chapter: usize, state: &'a ChapterState) -> Self {
        Cx {
            run,
            chapter,
            in_fence: false,
            reported: RefCell::new(Vec::new()),
            state,
            to_chapter: None,
        }
    }

    /// The build's settings.
    pub fn settings(&self) -> &Settings {
        self.run.settings
    }

    /// The chapter being expanded.
    pub fn current(&self) -> &Chapter {
        &self.run.chapters[self.chapter]
    }

    /// An id for a heading a directive generates with an explicit `{#id}`:
    /// `base`, or `base-1`, `base-2`, ... when the chapter's own headings or
    /// an earlier explicit id of this page already have it. (mdBook numbers
    /// repeats of the ids it makes, never of explicit ones.)
    pub fn claim_id(&self, base: &str) -> String {
        let mut claimed = self.state.claimed_ids.borrow_mut();
        let claimed = claimed.get_or_insert_with(|| {
            let settings = self.settings();
            ids::mdbook_page(
                &self.current().content.get(),
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

    pub(super) fn take_reported(&self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.reported.borrow_mut())
    }

    /// Leaves `call` for the resolve stage, which calls the directive's
    /// [`resolve`](super::directive::BraceDirective::resolve) once every
    /// chapter is expanded and indexed. Returns what stands in the
    /// expanded text until then.
    pub fn defer_link(&self, call: &Call<'_>) -> Expansion {
        let map = |r: &Range<usize>| self.range_in_chapter(r.clone());
        let mut deferred = self.state.deferred.borrow_mut();
        let number = deferred.links.len();
        deferred.links.push(PendingLink {
            name: self.run.registry.brace(call.name).map_or("", |d| d.name()),
            args: call.args.to_string(),
            range: map(&call.range),
            name_range: map(&call.name_range),
            args_range: map(&call.args_range),
            placement: call.placement,
            section_level: call.section_level,
            in_link: call.in_link,
        });
        Expansion::Inline(super::marker::marker(number))
    }

    /// Records that this chapter renders group `id` as a heading.
    pub fn renders_group(&self, id: &str) {
        self.state
            .deferred
            .borrow_mut()
            .rendered_groups
            .push(id.to_string());
    }

    /// Asks the resolve stage to check that `path` (relative to `src`) has
    /// `#fragment`, reporting `diagnostic` (with the closest id) if not.
    pub fn check_anchor_later(&self, path: String, fragment: String, diagnostic: Diagnostic) {
        let diagnostic = match self.to_chapter {
            Some(map) => diagnostic.map_range(map),
            None => diagnostic,
        };
        self.state
            .deferred
            .borrow_mut()
            .anchors
            .push(AnchorRequest {
                path,
                fragment,
                diagnostic,
            });
    }

    fn range_in_chapter(&self, range: Range<usize>) -> Range<usize> {
        match self.to_chapter {
            None => range,
            // An empty range (the arguments of `{{#contributing}}`) stays
            // empty: a stage that slices by it must not reach past it.
            Some(map) if range.is_empty() => map(range.start)..map(range.start),
            Some(map) => {
                let start = map(range.start);
                let end = map(range.end.max(range.start + 1) - 1) + 1;
                start..end.max(start)
            }
        }
    }

    /// Expands the directives in `text`, a fragment of the current chapter
    /// (such as a FAQ answer) whose offset `o` is `to_chapter(o)` in the
    /// chapter. Diagnostics are in `text`'s offsets.
    pub fn expand_fragment(&self, text: &str, to_chapter: &dyn Fn(usize) -> usize) -> Outcome {
        let cx = Cx {
            run: self.run,
            chapter: self.chapter,
            in_fence: true,
            reported: RefCell::new(Vec::new()),
            state: self.state,
            to_chapter: Some(to_chapter),
        };
        expand_text(text, &cx)
    }
}

/// The context a link directive resolves in: the book's ids, from the
/// index of the expanded chapters.
pub struct LinkCx<'a> {
    /// The run.
    pub run: &'a Run<'a>,
    /// Index of the chapter the link is in.
    pub chapter: usize,
    /// Every chapter's ids.
    pub ids: &'a dyn BookIds,
    /// The chapter that renders each group as a heading, by group id.
    pub group_pages: &'a std::collections::HashMap<String, usize>,
}

impl<'a> LinkCx<'a> {
    /// The build's settings.
    pub fn settings(&self) -> &Settings {
        self.run.settings
    }

    /// The chapter the link is in.
    pub fn current(&self) -> &Chapter {
        &self.run.chapters[self.chapter]
    }

    /// The ids chapter `index`'s page will have.
    pub fn page_ids(&self, index: usize) -> &'a PageIds {
        self.ids.page(index).unwrap_or_else(|| PageIds::none())
    }

    /// The chapter whose path (relative to `src`) is `path`.
    pub fn chapter_by_path(&self, path: &str) -> Option<usize> {
        self.ids.chapter_by_path(path)
    }

    /// A link from this chapter to the heading `title` that a
    /// `{{#maintainers}}` renders for group `id`, if a chapter does.
    pub fn group_link(&self, id: &str, title: &str) -> Option<String> {
        let chapter = *self.group_pages.get(id)?;
        let page = self.ids.page(chapter)?;
        let heading = page.find_by_text(title)?;
        let here = self.current().path().unwrap_or_default();
        let there = self.run.chapters[chapter].path()?;
        let base = if chapter == self.chapter {
            String::new()
        } else {
            crate::paths::relative(here, there)
        };
        Some(format!("{base}#{}", heading.id))
    }
}
