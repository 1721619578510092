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
use crate::ids::{self, BookIds, HeadingTexts, Link, PageIds};
use crate::mdbook::Chapter;

/// The book's pages as they will be rendered, indexed on demand.
pub struct BookIndex<'a> {
    settings: &'a Settings,
    chapters: &'a [Chapter],
    /// Each chapter's text after the expand stage. It is made on each call
    /// (expanded texts are not kept, see `expand::Expanded`), so the index
    /// holds only what its parse found.
    made: Box<Texts<'a>>,
    /// Whether a directive failed in each chapter (see [`PageIds::partial`]).
    partial: Vec<bool>,
    /// Whether heading texts are kept: only a link directive looks a
    /// heading up by its text; the anchor check needs ids only.
    texts: HeadingTexts,
    pages: Vec<OnceLock<PageIds>>,
    /// The links of pages parsed as a link's target, until their own
    /// chapter's check takes them.
    waiting: Mutex<HashMap<usize, Vec<Link>>>,
    /// The chapters with a path, sorted by it.
    by_path: OnceLock<Box<[u32]>>,
}

/// Chapter `index`'s text after the expand stage.
pub type Texts<'a> = dyn Fn(usize) -> Cow<'a, str> + Sync + 'a;

impl<'a> BookIndex<'a> {
    /// The index of `chapters`, whose expanded texts `texts` makes and in
    /// which a directive failed where `partial` says so (one per chapter).
    /// Pages keep their heading texts or not as `texts` says.
    pub fn new(
        settings: &'a Settings,
        chapters: &'a [Chapter],
        made: Box<Texts<'a>>,
        partial: Vec<bool>,
        texts: HeadingTexts,
    ) -> Self {
        BookIndex {
            settings,
            chapters,
            pages: chapters.iter().map(|_| OnceLock::new()).collect(),
            made,
            partial,
            texts,
            waiting: Mutex::default(),
            by_path: OnceLock::new(),
        }
    }

    /// Every link with a fragment in chapter `index`'s expanded text
    /// `text` (which the caller has at hand: the page is parsed from it if
    /// it was not yet), with ranges in it. Handed out once: a second call
    /// for the same chapter gets none.
    pub fn take_links(&self, index: usize, text: &str) -> Vec<Link> {
        let Some(slot) = self.pages.get(index) else {
            return Vec::new();
        };
        let mut fresh = None;
        slot.get_or_init(|| {
            let (ids, links) = self.parse(index, text);
            fresh = Some(links);
            ids
        });
        // Parsed before as another link's target: its links were kept.
        fresh.unwrap_or_else(|| {
            let waiting = self.waiting.lock().ok();
            waiting
                .and_then(|mut w| w.remove(&index))
                .unwrap_or_default()
        })
    }

    /// Parses chapter `index`'s expanded `text`.
    fn parse(&self, index: usize, text: &str) -> (PageIds, Vec<Link>) {
        let settings = self.settings;
        let (mut ids, links) =
            ids::mdbook_page_and_links(text, settings.markdown, settings.generation, self.texts);
        ids.partial = self.partial.get(index).copied().unwrap_or(false);
        (ids, links)
    }

    /// The chapter's path, for the lookup by path.
    fn path_of(&self, index: u32) -> &str {
        let chapter = self.chapters.get(index as usize);
        chapter.and_then(Chapter::path).unwrap_or_default()
    }
}

impl BookIds for BookIndex<'_> {
    fn page(&self, chapter: usize) -> Option<&PageIds> {
        let slot = self.pages.get(chapter)?;
        Some(slot.get_or_init(|| {
            let (ids, links) = self.parse(chapter, &(self.made)(chapter));
            // Kept before the page is published: the chapter's own check,
            // which may be waiting for this page, then finds them.
            if !links.is_empty()
                && let Ok(mut waiting) = self.waiting.lock()
            {
                waiting.insert(chapter, links);
            }
            ids
        }))
    }

    /// With two chapters at one path (no mdBook sends that), the later.
    fn chapter_by_path(&self, path: &str) -> Option<usize> {
        let sorted = self.by_path.get_or_init(|| {
            let mut sorted: Vec<u32> = (0..self.chapters.len())
                .filter(|&i| self.chapters[i].path().is_some())
                .filter_map(|i| u32::try_from(i).ok())
                .collect();
            // Stable: chapters at one path stay in book order.
            sorted.sort_by(|&a, &b| self.path_of(a).cmp(self.path_of(b)));
            sorted.into_boxed_slice()
        });
        let end = sorted.partition_point(|&i| self.path_of(i) <= path);
        let last = *sorted.get(end.checked_sub(1)?)?;
        (self.path_of(last) == path).then_some(last as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mdbook::{Context, Generation};

    fn chapter(path: &str, content: &str) -> Chapter {
        Chapter::new(path, Some(path), Some(path), content)
    }

    fn settings() -> Settings {
        let context = Context {
            root: std::env::temp_dir(),
            config: serde_json::json!({}),
            renderer: "html".into(),
            mdbook_version: "0.5.4".into(),
        };
        Settings::from_context(&context, Generation::V05).expect("valid")
    }

    #[test]
    fn chapters_are_found_by_path() {
        let settings = settings();
        let chapters = [
            chapter("b/c.md", ""),
            Chapter::new("Draft", None, None, ""),
            chapter("a.md", ""),
            chapter("b/c.md", ""),
            chapter("b.md", ""),
        ];
        let texts = |i: usize| chapters[i].content.get();
        let index = BookIndex::new(
            &settings,
            &chapters,
            Box::new(texts),
            vec![false; 5],
            HeadingTexts::Drop,
        );
        let found = ["a.md", "b.md", "b/c.md", "", "c.md", "b"].map(|p| index.chapter_by_path(p));
        assert_eq!(found, [Some(2), Some(4), Some(3), None, None, None]);
    }

    #[test]
    fn links_are_handed_out_once_and_ids_stay() {
        let settings = settings();
        let chapters = [
            chapter("a.md", "# A\n\n[to b](b.md#two)\n"),
            chapter("b.md", "# One\n\n## Two\n\n[back](a.md#a)\n"),
        ];
        let texts = |i: usize| chapters[i].content.get();
        let index = BookIndex::new(
            &settings,
            &chapters,
            Box::new(texts),
            vec![false, true],
            HeadingTexts::Keep,
        );
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
