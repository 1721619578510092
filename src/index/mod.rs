//! The index stage: the ids and links of the expanded book.
//!
//! A chapter's page is parsed at most once, when a later stage first asks
//! for it, and that one parse gives both its ids and its links. Chapters
//! nothing links to and that link nowhere are never parsed.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use crate::config::Settings;
use crate::ids::{self, BookIds, Link, PageIds};
use crate::mdbook::Chapter;

/// The book's pages as they will be rendered, indexed on demand.
pub struct BookIndex<'a> {
    settings: &'a Settings,
    chapters: &'a [Chapter],
    /// Each chapter's text after the expand stage. It is made on each call
    /// (expanded texts are not kept, see `expand::Expanded`), so the index
    /// holds only what its parse found.
    texts: Box<Texts<'a>>,
    /// Whether a directive failed in each chapter (see [`PageIds::partial`]).
    partial: Vec<bool>,
    pages: Vec<OnceLock<Page>>,
    by_path: OnceLock<HashMap<&'a str, usize>>,
}

/// Chapter `index`'s text after the expand stage.
pub type Texts<'a> = dyn Fn(usize) -> Cow<'a, str> + Sync + 'a;

/// One parsed page.
struct Page {
    ids: Arc<PageIds>,
    links: Vec<Link>,
}

impl<'a> BookIndex<'a> {
    /// The index of `chapters`, whose expanded texts `texts` makes and in
    /// which a directive failed where `partial` says so (one per chapter).
    pub fn new(
        settings: &'a Settings,
        chapters: &'a [Chapter],
        texts: Box<Texts<'a>>,
        partial: Vec<bool>,
    ) -> Self {
        BookIndex {
            settings,
            chapters,
            pages: chapters.iter().map(|_| OnceLock::new()).collect(),
            texts,
            partial,
            by_path: OnceLock::new(),
        }
    }

    /// Chapter `index` after the expand stage.
    fn text(&self, index: usize) -> Cow<'a, str> {
        (self.texts)(index)
    }

    /// Every link with a fragment in chapter `index`'s expanded text
    /// `text` (which the caller has at hand: the page is parsed from it if
    /// it was not yet), with ranges in it.
    pub fn links_in(&self, index: usize, text: &str) -> &[Link] {
        self.parsed(index, Some(text))
            .map_or(&[], |page| &page.links)
    }

    fn parsed(&self, index: usize, text: Option<&str>) -> Option<&Page> {
        let slot = self.pages.get(index)?;
        Some(slot.get_or_init(|| {
            let settings = self.settings;
            let made;
            let text = match text {
                Some(text) => text,
                None => {
                    made = self.text(index);
                    &made
                }
            };
            let (mut ids, mut links) =
                ids::mdbook_page_and_links(text, settings.markdown, settings.generation);
            links.shrink_to_fit();
            ids.partial = self.partial.get(index).copied().unwrap_or(false);
            Page {
                ids: Arc::new(ids),
                links,
            }
        }))
    }
}

impl BookIds for BookIndex<'_> {
    fn page(&self, chapter: usize) -> Option<Arc<PageIds>> {
        self.parsed(chapter, None).map(|page| Arc::clone(&page.ids))
    }

    fn chapter_by_path(&self, path: &str) -> Option<usize> {
        self.by_path
            .get_or_init(|| {
                self.chapters
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| Some((c.path.as_deref()?, i)))
                    .collect()
            })
            .get(path)
            .copied()
    }
}
