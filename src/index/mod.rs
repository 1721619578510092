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

use crate::chapter::Expanded;
use crate::config::Settings;
use crate::diagnostic::Suggestions;
use crate::ids::{self, BookIds, HeadingTexts, Link, PageIds};
use crate::mdbook::Chapter;

/// The book's pages as they will be rendered, indexed on demand.
pub struct BookIndex<'a> {
    settings: &'a Settings,
    chapters: &'a [Chapter],
    /// Each chapter after the expand stage (`None`: unchanged). Its text is
    /// made when its page is parsed (expanded texts are not kept), so the
    /// index holds only what its parse found.
    expanded: &'a [Option<Box<Expanded>>],
    /// Whether heading texts are kept: only a link directive looks a
    /// heading up by its text; the anchor check needs ids only.
    heading_texts: HeadingTexts,
    pages: Vec<OnceLock<PageIds>>,
    /// The links of pages parsed as a link's target, until their own
    /// chapter's check takes them.
    waiting: Mutex<HashMap<usize, Vec<Link>>>,
    /// The chapters with a path, sorted by it.
    by_path: OnceLock<Box<[u32]>>,
    /// The chapters with a path and the did-you-mean index of their paths,
    /// made for the first link to a path that is no chapter.
    closest_paths: OnceLock<(Vec<usize>, Suggestions)>,
}

impl<'a> BookIndex<'a> {
    /// The index of `chapters` after the expand stage (`expanded`, one per
    /// chapter); pages keep their heading texts or not as `heading_texts`
    /// says.
    pub fn new(
        settings: &'a Settings,
        chapters: &'a [Chapter],
        expanded: &'a [Option<Box<Expanded>>],
        heading_texts: HeadingTexts,
    ) -> Self {
        BookIndex {
            settings,
            chapters,
            pages: chapters.iter().map(|_| OnceLock::new()).collect(),
            expanded,
            heading_texts,
            waiting: Mutex::default(),
            by_path: OnceLock::new(),
            closest_paths: OnceLock::new(),
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
        let (markdown, generation) = (settings.markdown, settings.generation);
        let (mut ids, links) =
            ids::mdbook_page_and_links(text, markdown, generation, self.heading_texts);
        ids.partial = self.expanded(index).is_some_and(Expanded::is_partial);
        (ids, links)
    }

    fn expanded(&self, index: usize) -> Option<&'a Expanded> {
        self.expanded.get(index)?.as_deref()
    }

    /// Chapter `index`'s text after the expand stage.
    fn text(&self, index: usize) -> Cow<'a, str> {
        let content = self.chapters[index].content.get();
        match self.expanded(index) {
            Some(expanded) => Cow::Owned(expanded.text(&content)),
            None => content,
        }
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
            let (ids, links) = self.parse(chapter, &self.text(chapter));
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

    fn closest_chapter(&self, path: &str) -> Option<usize> {
        let (chapters, index) = self.closest_paths.get_or_init(|| {
            let chapters: Vec<usize> = (0..self.chapters.len())
                .filter(|&i| self.chapters[i].path().is_some())
                .collect();
            let paths = chapters.iter().map(|&i| self.chapters[i].path());
            let index = Suggestions::new(paths.map(Option::unwrap_or_default));
            (chapters, index)
        });
        chapters.get(index.closest(path)?).copied()
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
        let expanded: Vec<_> = chapters.iter().map(|_| None).collect();
        let index = BookIndex::new(&settings, &chapters, &expanded, HeadingTexts::Drop);
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
        let expanded = [None, Some(Box::new(Expanded::partial_for_tests()))];
        let index = BookIndex::new(&settings, &chapters, &expanded, HeadingTexts::Keep);
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
