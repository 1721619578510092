//! The index stage: the ids and links of the expanded book.
//!
//! A chapter's page is parsed at most once, when a later stage first asks
//! for it, and that one parse gives both its ids and its links. Chapters
//! nothing links to and that link nowhere are never parsed. The ids are
//! kept for the run (any chapter may link to any other); the links are
//! handed out once, to the check of their own chapter, and not kept.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

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
    ids: PageIds,
    /// Its links, until their chapter's check takes them.
    links: Mutex<Option<Box<[Link]>>>,
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
    /// it was not yet), with ranges in it. Handed out once: a second call
    /// for the same chapter gets none.
    pub fn take_links(&self, index: usize, text: &str) -> Vec<Link> {
        let Some(page) = self.parsed(index, Some(text)) else {
            return Vec::new();
        };
        let taken = page.links.lock().ok().and_then(|mut links| links.take());
        taken.map(Vec::from).unwrap_or_default()
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
            let (mut ids, links) =
                ids::mdbook_page_and_links(text, settings.markdown, settings.generation);
            ids.partial = self.partial.get(index).copied().unwrap_or(false);
            Page {
                ids,
                links: Mutex::new(Some(links.into_boxed_slice())),
            }
        }))
    }
}

impl BookIds for BookIndex<'_> {
    fn page(&self, chapter: usize) -> Option<&PageIds> {
        self.parsed(chapter, None).map(|page| &page.ids)
    }

    fn chapter_by_path(&self, path: &str) -> Option<usize> {
        self.by_path
            .get_or_init(|| {
                self.chapters
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| Some((c.path()?, i)))
                    .collect()
            })
            .get(path)
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mdbook::{Context, Generation};

    fn chapter(path: &str, content: &str) -> Chapter {
        Chapter::new(path, Some(path), Some(path), content)
    }

    #[test]
    fn links_are_handed_out_once_and_ids_stay() {
        let context = Context {
            root: std::env::temp_dir(),
            config: serde_json::json!({}),
            renderer: "html".into(),
            mdbook_version: "0.5.4".into(),
        };
        let settings = Settings::from_context(&context, Generation::V05).expect("valid");
        let chapters = [
            chapter("a.md", "# A\n\n[to b](b.md#two)\n"),
            chapter("b.md", "# One\n\n## Two\n\n[back](a.md#a)\n"),
        ];
        let texts = |i: usize| chapters[i].content.get();
        let index = BookIndex::new(&settings, &chapters, Box::new(texts), vec![false, true]);
        // b's page is parsed as a link target first; its links wait for b.
        let b = index.page(1).expect("b is parsed");
        assert_eq!(b.ids().collect::<Vec<_>>(), ["one", "two"]);
        assert!(b.partial);
        let text = chapters[1].content.get();
        let links = index.take_links(1, &text);
        assert_eq!(
            links.iter().map(|l| &*l.dest).collect::<Vec<_>>(),
            ["a.md#a"]
        );
        assert!(index.take_links(1, &text).is_empty());
        assert!(index.page(1).is_some_and(|b| b.contains("two")));
        let a = chapters[0].content.get();
        assert_eq!(index.take_links(0, &a).len(), 1);
        assert!(index.page(0).is_some_and(|a| a.contains("a") && !a.partial));
    }
}
