//! "Did you mean": the closest of a set of names to one that is not among
//! them, by one rule for every set and an index for the large ones.
//!
//! The rule, on the first [`MAX_COMPARED`] characters of each name, folded
//! (NFC, full case folding):
//!
//! 1. A *typo*: a candidate within [`MAX_EDITS`] edits (Damerau-Levenshtein)
//!    of the input whose own text is longer than two characters, or whose
//!    Jaro-Winkler similarity is at least [`SIMILAR`]. The closest wins:
//!    fewest edits, then the most similar, then the first.
//! 2. Else a *similar* name: Jaro-Winkler similarity at least [`SIMILAR`],
//!    of a plausible length, among the [`SIMILAR_POOL`] candidates nearest
//!    the input in sorted order (for a set of that size or less, all of
//!    them); the most similar wins, then the first. Similarity beyond a few
//!    edits weighs the start of a name most, and the names that share the
//!    longest start with the input are its neighbours in sorted order.
//!
//! A [`Suggestions`] of up to [`LINEAR_UP_TO`] names is searched name by
//! name. A larger one is indexed once (SymSpell's symmetric deletions:
//! every variant of a name with up to two characters deleted, over at most
//! [`deletions::KEY_CHARS`] of its first and of its last characters), so
//! that a question compares the input with the few names within reach
//! instead of every name: a CODEOWNERS of 50,000 strangers against a roster
//! of 20,000 logins, or 8,000 broken anchors into a page of 8,000 headings,
//! cost linear time. Both ways give the same answer (a property test holds
//! them to a comparison with every name). [`did_you_mean`] is for a
//! question asked once, and compares the input with every name.
//!
//! Hand-written beside `strsim` (which the tests use as the reference):
//! `strsim` compares two strings, and asking it of every name in the set
//! made the drift check of a 2.5 MB CODEOWNERS against a 20,000-person
//! roster take over a minute (issue 26, in the CHANGELOG); no crate of
//! the list keeps a deletion index.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use deletions::Deletions;
use distance::{chars_of, edits_within_reach, jaro_winkler};

mod deletions;
mod distance;

/// At most this many characters of a name are compared: a typo shows in
/// its start, and comparing is quadratic in length.
pub const MAX_COMPARED: usize = 64;

/// A typo is at most this many edits (insertions, deletions,
/// substitutions, transpositions).
pub const MAX_EDITS: usize = 2;

/// The Jaro-Winkler similarity from which two names are alike.
pub const SIMILAR: f64 = 0.8;

/// How many names nearest the input in sorted order are compared for
/// similarity when no name is a typo of it.
pub const SIMILAR_POOL: usize = 64;

/// Sets up to this size are searched name by name; larger ones are indexed.
/// A question compares at least [`SIMILAR_POOL`] names when no name is a
/// typo of it, so below that size an index saves nothing, and it costs a
/// few dozen variants a name to build; the fixed lists (settings, styles,
/// statuses) are far smaller.
pub const LINEAR_UP_TO: usize = 64;

/// The closest of a set of names to inputs that are not among them, by the
/// rule of the [module](self), built once per set and asked any number of
/// times (from any thread). Answers are remembered per folded input.
pub struct Suggestions {
    /// Every candidate's comparable text, one after another.
    folded: String,
    /// Where each candidate's comparable text ends in `folded`.
    ends: Vec<u32>,
    /// Each candidate's comparable length in characters.
    lens: Vec<u8>,
    /// Whether each candidate's own text is longer than two characters.
    long_enough: Vec<bool>,
    /// The candidates in the order of their comparable texts (then their
    /// own order): the neighbours of an input for similarity.
    sorted: Vec<u32>,
    /// The deletion index of a set larger than [`LINEAR_UP_TO`].
    deletions: Option<Deletions>,
    /// The answer to each folded input asked before.
    memo: Mutex<HashMap<Box<str>, Option<u32>>>,
    /// How many candidates have been compared with an input, over every
    /// question: the proof that a question costs a bounded number.
    scored: AtomicUsize,
}

impl std::fmt::Debug for Suggestions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Suggestions")
            .field("len", &self.len())
            .field("indexed", &self.deletions.is_some())
            .field("scored", &self.scored())
            .finish_non_exhaustive()
    }
}

impl Suggestions {
    /// The index of `candidates`, in their order (ties go to the first).
    pub fn new<'a>(candidates: impl IntoIterator<Item = &'a str>) -> Self {
        Self::build(candidates, LINEAR_UP_TO)
    }

    /// [`new`](Self::new), with a deletion index for sets larger than
    /// `linear_up_to` (a test indexes small sets too).
    fn build<'a>(candidates: impl IntoIterator<Item = &'a str>, linear_up_to: usize) -> Self {
        let mut folded = String::new();
        let (mut ends, mut lens, mut long_enough) = (Vec::new(), Vec::new(), Vec::new());
        for candidate in candidates {
            let comparable = comparable(candidate);
            folded.push_str(&comparable);
            ends.push(u32::try_from(folded.len()).unwrap_or(u32::MAX));
            lens.push(u8::try_from(comparable.chars().count()).unwrap_or(u8::MAX));
            long_enough.push(candidate.chars().nth(2).is_some());
        }
        let mut suggestions = Suggestions {
            folded,
            ends,
            lens,
            long_enough,
            sorted: Vec::new(),
            deletions: None,
            memo: Mutex::default(),
            scored: AtomicUsize::new(0),
        };
        let mut sorted: Vec<u32> = (0..suggestions.len_u32()).collect();
        sorted.sort_by(|&a, &b| suggestions.text(a).cmp(suggestions.text(b)).then(a.cmp(&b)));
        // (Positions in the index are below 2³¹; no real set comes near.)
        let len = suggestions.ends.len();
        if len > linear_up_to && len < 1 << 31 {
            // Of candidates with equal texts only the first is indexed: it
            // wins every tie with the others.
            let mut distinct = sorted
                .iter()
                .map(|&i| (i, suggestions.text(i)))
                .collect::<Vec<_>>();
            distinct.dedup_by(|later, first| later.1 == first.1);
            suggestions.deletions = Some(Deletions::of(distinct));
        }
        suggestions.sorted = sorted;
        suggestions
    }

    /// How many candidates there are.
    fn len(&self) -> usize {
        self.ends.len()
    }

    /// How many candidates all questions so far compared with their input.
    pub fn scored(&self) -> usize {
        self.scored.load(Ordering::Relaxed)
    }

    /// The position of the candidate closest to `input` by the rule of the
    /// [module](self), if any is close enough.
    pub fn closest(&self, input: &str) -> Option<usize> {
        let wanted = comparable(input);
        let memo = |m: &Mutex<HashMap<Box<str>, Option<u32>>>| {
            m.lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .get(wanted.as_str())
                .copied()
        };
        if let Some(known) = memo(&self.memo) {
            return known.map(|i| i as usize);
        }
        let chars: Vec<char> = wanted.chars().collect();
        let answer = (self.typo(&chars)).or_else(|| self.similar(&wanted, &chars));
        let mut memo = self
            .memo
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        memo.insert(wanted.into(), answer);
        answer.map(|i| i as usize)
    }

    fn len_u32(&self) -> u32 {
        u32::try_from(self.ends.len()).unwrap_or(u32::MAX)
    }

    /// Candidate `i`'s comparable text.
    fn text(&self, i: u32) -> &str {
        let i = i as usize;
        let start = match i {
            0 => 0,
            _ => self.ends[i - 1] as usize,
        };
        &self.folded[start..self.ends[i] as usize]
    }

    /// The closest candidate within [`MAX_EDITS`] of `wanted`.
    fn typo(&self, wanted: &[char]) -> Option<u32> {
        let within_reach: Vec<u32> = match &self.deletions {
            Some(deletions) => deletions.near(wanted),
            None => (0..self.len_u32()).collect(),
        };
        let mut best: Option<(usize, f64, u32)> = None;
        let mut buffer = ['\0'; MAX_COMPARED];
        for i in within_reach {
            if usize::from(self.lens[i as usize]).abs_diff(wanted.len()) > MAX_EDITS {
                continue;
            }
            self.scored.fetch_add(1, Ordering::Relaxed);
            let text = chars_of(self.text(i), &mut buffer);
            let Some(edits) = edits_within_reach(wanted, text) else {
                continue;
            };
            let similarity = jaro_winkler(wanted, text);
            if !self.long_enough[i as usize] && similarity < SIMILAR {
                continue;
            }
            let better = best.is_none_or(|(fewest, most, first)| {
                (edits, -similarity, i) < (fewest, -most, first)
            });
            if better {
                best = Some((edits, similarity, i));
            }
        }
        best.map(|(_, _, i)| i)
    }

    /// The most similar candidate to `wanted` among its neighbours in
    /// sorted order.
    fn similar(&self, wanted: &str, wanted_chars: &[char]) -> Option<u32> {
        let wanted_len = wanted_chars.len();
        let mut buffer = ['\0'; MAX_COMPARED];
        let at = self.sorted.partition_point(|&i| self.text(i) < wanted);
        let start = at
            .saturating_sub(SIMILAR_POOL / 2)
            .min(self.sorted.len().saturating_sub(SIMILAR_POOL));
        let end = (start + SIMILAR_POOL).min(self.sorted.len());
        let mut best: Option<(f64, u32)> = None;
        for &i in &self.sorted[start..end] {
            let len = usize::from(self.lens[i as usize]);
            if len.max(wanted_len) > 3 * len.min(wanted_len) + 2 {
                continue;
            }
            self.scored.fetch_add(1, Ordering::Relaxed);
            let similarity = jaro_winkler(wanted_chars, chars_of(self.text(i), &mut buffer));
            let better = best.is_none_or(|(most, first)| (-similarity, i) < (-most, first));
            if similarity >= SIMILAR && better {
                best = Some((similarity, i));
            }
        }
        best.map(|(_, i)| i)
    }
}

/// The closest of `candidates` to `input`, if any is close enough to be a
/// plausible typo or a similar name, by the rule of the [module](self).
///
/// For a question asked once: `input` is compared with every candidate
/// within reach of its length, which costs less than indexing the set (a
/// setting's name against the list of settings, a chapter path against
/// the book's). A caller that asks many questions of one large set (the
/// drift check, the anchors of a page) keeps a [`Suggestions`] instead.
pub fn did_you_mean<'a, I>(input: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    let once = Suggestions::build(candidates.iter().copied(), usize::MAX);
    candidates.get(once.closest(input)?).copied()
}

/// The start of `text`, folded for comparing.
fn comparable(text: &str) -> String {
    let mut end = text.len().min(MAX_COMPARED * 4);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    crate::unicode::fold(&text[..end])
        .chars()
        .take(MAX_COMPARED)
        .collect()
}

#[cfg(test)]
mod tests;
