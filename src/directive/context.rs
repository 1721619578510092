//! The contexts a directive runs in: the [`Run`] it is part of, [`Cx`]
//! while the expand pass expands it, [`LinkCx`] while the check pass
//! resolves a deferred link.

use std::cell::{OnceCell, RefCell};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use super::Registry;
use super::call::{Call, Expansion};
use crate::chapter::{AnchorRequest, Deferred, marker};
use crate::config::Settings;
use crate::data::Data;
use crate::data::contributing::Contributing;
use crate::diagnostic::Diagnostic;
use crate::files::LoadError;
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
    /// The day the build is for (`MDBOOK_COMMUNITY_NOW`; `None`: by the
    /// clock): terms ending soon are counted from it.
    pub today: Option<crate::date::Day>,
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

/// State of one chapter's expansion, shared by the contexts of its
/// fragments (FAQ questions and answers).
#[derive(Default)]
pub struct ChapterState {
    /// Ids directives set explicitly on this page so far (`{#id}`), and the
    /// ids of the chapter's own headings, computed on first use.
    claimed_ids: RefCell<Option<HashSet<String>>>,
    deferred: RefCell<Deferred>,
    /// What the chapter's link markers open with, decided at the first.
    marker_open: OnceCell<marker::Open>,
}

impl ChapterState {
    /// What the chapter's directives left for the check pass.
    pub(crate) fn into_deferred(self) -> Deferred {
        let mut deferred = self.deferred.into_inner();
        deferred.marker_open = self.marker_open.into_inner().unwrap_or_default();
        deferred
    }
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
    /// The context for expanding chapter `chapter` of `run` (made by the
    /// expand pass).
    pub(crate) fn new(run: &'a Run<'a>, chapter: usize, state: &'a ChapterState) -> Self {
        Cx {
            run,
            chapter,
            in_fence: false,
            reported: RefCell::new(Vec::new()),
            state,
            to_chapter: None,
        }
    }

    /// The context for a fragment of this chapter (a FAQ answer) whose
    /// offset `o` is `to_chapter(o)` in the chapter.
    pub(crate) fn for_fragment(&self, to_chapter: &'a dyn Fn(usize) -> usize) -> Cx<'a> {
        Cx {
            run: self.run,
            chapter: self.chapter,
            in_fence: true,
            reported: RefCell::new(Vec::new()),
            state: self.state,
            to_chapter: Some(to_chapter),
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

    pub(crate) fn take_reported(&self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.reported.borrow_mut())
    }

    /// Leaves `call` for the resolve stage, which calls the directive's
    /// [`resolve`](super::BraceDirective::resolve) once every chapter is expanded
    /// and indexed. Returns what stands in the expanded text until then.
    pub fn defer_link(&self, call: &Call<'_>) -> Expansion {
        let open = (self.state.marker_open)
            .get_or_init(|| marker::Open::for_text(&self.current().content.get()));
        let mut deferred = self.state.deferred.borrow_mut();
        let number = deferred.links.len();
        let link = call.pending(|range| self.range_in_chapter(range));
        deferred.links.push(link);
        Expansion::Inline(open.marker(number))
    }

    /// Records that this chapter renders group `id` as a heading.
    pub fn renders_group(&self, id: &str) {
        let mut deferred = self.state.deferred.borrow_mut();
        deferred.rendered_groups.push(id.to_string());
    }

    /// Asks the resolve stage to check that `path` (relative to `src`) has
    /// `#fragment`, reporting `diagnostic` (with the closest id) if not.
    pub fn check_anchor_later(&self, path: String, fragment: String, diagnostic: Diagnostic) {
        let diagnostic = match self.to_chapter {
            Some(map) => diagnostic.map_range(map),
            None => diagnostic,
        };
        let request = AnchorRequest {
            path,
            fragment,
            diagnostic,
        };
        self.state.deferred.borrow_mut().anchors.push(request);
    }

    fn range_in_chapter(&self, range: Range<usize>) -> Range<usize> {
        match self.to_chapter {
            None => range,
            Some(map) => crate::span::map_range(range, map),
        }
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
    pub group_pages: &'a HashMap<String, usize>,
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

    /// The chapter whose path is closest to `path` (relative to `src`),
    /// which is no chapter's.
    pub fn closest_chapter(&self, path: &str) -> Option<usize> {
        self.ids.closest_chapter(path)
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
