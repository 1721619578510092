//! Which anchor of a page a missing one most likely meant: a near spelling
//! of one of its ids, else the heading sharing the most words with it (a
//! renamed heading). Each page's ids are indexed once, when the first
//! anchor missing from it is reported, so that N broken links into a page
//! of N headings cost N bounded questions, not N passes over the page.

use std::collections::HashMap;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::diagnostic::Suggestions;

/// The candidates a question looks at are the first this many having each
/// of its words: a word most of a large page's headings have says little
/// about which one a link meant, and a question costs at most this many
/// candidates per word of it.
const SHARED_BY_AT_MOST: usize = 256;

/// What a page's missing anchors are compared with, made on first use
/// (kept in its `PageIds`).
#[derive(Debug, Default)]
pub(super) struct Closest {
    /// The page's ids, and the words of its headings' ids.
    ids: OnceLock<Candidates>,
    /// Its headings' texts, and their words (for a link by heading text).
    texts: OnceLock<Candidates>,
}

/// Names by spelling, and by the words they hold.
#[derive(Debug)]
struct Candidates {
    spelling: Suggestions,
    words: SharedWords,
}

impl Candidates {
    /// A near spelling of `wanted` (see [`Suggestions`]), else the
    /// candidate sharing the most words with it.
    fn closest(&self, wanted: &str) -> Option<usize> {
        (self.spelling.closest(wanted)).or_else(|| self.words.best(wanted))
    }
}

impl Closest {
    /// The position of the id a link to the missing `#fragment` most
    /// likely meant among the page's `ids`: a near spelling, else the
    /// heading (the first ids are the headings') whose id shares the most
    /// words with it. `ids` makes the page's ids and its headings' ids,
    /// once.
    pub(super) fn anchor<'p, I, H>(
        &self,
        fragment: &str,
        ids: impl FnOnce() -> (I, H),
    ) -> Option<usize>
    where
        I: Iterator<Item = &'p str>,
        H: Iterator<Item = &'p str>,
    {
        let candidates = self.ids.get_or_init(|| {
            let (ids, headings) = ids();
            Candidates {
                spelling: Suggestions::new(ids),
                words: SharedWords::new(headings),
            }
        });
        candidates.closest(fragment)
    }

    /// The position of the heading a link by the missing heading text
    /// `text` most likely meant among the page's heading `texts`: a near
    /// spelling, else the one sharing the most words. `texts` makes them,
    /// once or twice.
    pub(super) fn heading<'p, T>(&self, text: &str, texts: impl Fn() -> T) -> Option<usize>
    where
        T: Iterator<Item = &'p str>,
    {
        let candidates = self.texts.get_or_init(|| Candidates {
            spelling: Suggestions::new(texts()),
            words: SharedWords::new(texts()),
        });
        candidates.closest(text)
    }

    /// How many candidates every question so far compared with its input.
    #[cfg(test)]
    pub(super) fn scored(&self) -> usize {
        let scored = |candidates: Option<&Candidates>| {
            candidates.map_or(0, |c| c.spelling.scored() + c.words.scored())
        };
        scored(self.ids.get()) + scored(self.texts.get())
    }
}

/// Which candidates have each word: the candidate sharing the most words
/// with an input (words: runs of letters and digits, ignoring case and
/// words like "the" or "to"), for a heading that was renamed ("Steps to
/// Contribute" to "How to Contribute"); the first of those that share as
/// many. The candidates looked at are the first [`SHARED_BY_AT_MOST`]
/// having each word of the input (each counted with all the words it
/// shares).
#[derive(Debug, Default)]
struct SharedWords {
    /// Each word: the candidates having it, in order.
    having: HashMap<String, Vec<u32>>,
    /// How many candidates the questions so far counted words of.
    scored: AtomicUsize,
}

impl SharedWords {
    fn new<'a>(candidates: impl IntoIterator<Item = &'a str>) -> Self {
        let mut having: HashMap<String, Vec<u32>> = HashMap::new();
        for (at, candidate) in (0..=u32::MAX).zip(candidates) {
            for word in words(candidate) {
                having.entry(word).or_default().push(at);
            }
        }
        SharedWords {
            having,
            scored: AtomicUsize::new(0),
        }
    }

    /// The position of the candidate sharing the most words with `wanted`
    /// (the first of those that share as many), if any shares one.
    fn best(&self, wanted: &str) -> Option<usize> {
        let lists: Vec<&Vec<u32>> = (words(wanted).iter())
            .filter_map(|word| self.having.get(word))
            .collect();
        let mut looked_at: Vec<u32> = (lists.iter())
            .flat_map(|list| list.iter().take(SHARED_BY_AT_MOST))
            .copied()
            .collect();
        looked_at.sort_unstable();
        looked_at.dedup();
        self.scored.fetch_add(looked_at.len(), Ordering::Relaxed);
        let mut best: Option<(usize, u32)> = None;
        for at in looked_at {
            let shared = (lists.iter())
                .filter(|list| list.binary_search(&at).is_ok())
                .count();
            if best.is_none_or(|(most, _)| shared > most) {
                best = Some((shared, at));
            }
        }
        best.map(|(_, at)| at as usize)
    }

    #[cfg(test)]
    fn scored(&self) -> usize {
        self.scored.load(Ordering::Relaxed)
    }
}

/// The distinct significant words of `text`, lowercased.
fn words(text: &str) -> Vec<String> {
    const SMALL: &[&str] = &[
        "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how",
        "i", "in", "is", "it", "my", "of", "on", "or", "the", "to", "what", "when", "where", "who",
        "why", "with", "you", "your",
    ];
    let mut out: Vec<String> = Vec::new();
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        let word = word.to_lowercase();
        if !word.is_empty() && !SMALL.contains(&word.as_str()) && !out.contains(&word) {
            out.push(word);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{PageIds, closest_anchor, closest_heading, mdbook_page};
    use crate::mdbook::Generation;
    use crate::mdbook::options::MarkdownOptions;

    fn page(text: &str) -> PageIds {
        mdbook_page(
            text,
            MarkdownOptions::defaults(Generation::V05),
            Generation::V05,
        )
    }

    #[test]
    fn a_near_spelling_then_the_most_shared_words() {
        let page = page("# Install\n\n## Steps to Contribute\n\n## Reporting bugs\n");
        assert_eq!(closest_anchor("instal", &page), Some("install"));
        assert_eq!(
            closest_anchor("how-to-contribute", &page),
            Some("steps-to-contribute")
        );
        assert_eq!(closest_anchor("unrelated", &page), None);
        let heading = closest_heading("How to Contribute", &page).map(|h| h.id);
        assert_eq!(heading, Some("steps-to-contribute"));
        assert_eq!(
            closest_heading("Reportng bugs", &page).map(|h| h.id),
            Some("reporting-bugs")
        );
    }

    #[test]
    fn the_first_heading_sharing_as_many_words() {
        let words = SharedWords::new(["alpha beta", "beta gamma", "alpha beta gamma"]);
        assert_eq!(words.best("beta"), Some(0));
        assert_eq!(words.best("gamma-beta"), Some(1));
        assert_eq!(words.best("the-alpha-gamma-beta"), Some(2));
        assert_eq!(words.best("delta"), None);
        // Of a word every candidate has, only the first few are looked at
        // (with all the words they share).
        let many: Vec<String> = (0..1_000).map(|i| format!("common {i}")).collect();
        let words = SharedWords::new(many.iter().map(String::as_str));
        assert_eq!(words.best("common 999"), Some(999));
        assert_eq!(words.best("common"), Some(0));
        assert_eq!(words.scored(), 257 + 256);
    }

    /// Broken anchors into a page of 8,000 headings (2,000 typos of one,
    /// 2,000 of none): each is compared with a bounded number of the page's
    /// ids and words (comparing with every id: 8,000 each), and gets the
    /// right one.
    #[test]
    fn broken_anchors_cost_a_bounded_number_of_comparisons_each() {
        let text: String = (0..8_000)
            .map(|i| format!("## Heading number {i}\n\nText.\n\n"))
            .collect();
        let page = page(&text);
        // A page this large is searched by a sorted index of its ids.
        assert!(page.contains("heading-number-7999") && page.contains("heading-number-0"));
        assert!(!page.contains("heading-numbr-1") && !page.contains("heading-number-8000"));
        for i in (0..8_000).step_by(4) {
            let wanted = format!("heading-number-{i}");
            assert_eq!(
                closest_anchor(&format!("heading-numbr-{i}"), &page),
                Some(&*wanted)
            );
        }
        let typos = page.suggestion_scores();
        assert!(typos <= 2_000 * 400, "typos: {typos}");
        // No near spelling: the neighbours in sorted order, then the words.
        for i in (1..8_000).step_by(4) {
            let wanted = format!("heading-number-{i}");
            assert_eq!(closest_anchor(&format!("gone-{i}"), &page), Some(&*wanted));
        }
        let strangers = page.suggestion_scores() - typos;
        assert!(strangers <= 2_000 * (64 + 1), "strangers: {strangers}");
    }
}
