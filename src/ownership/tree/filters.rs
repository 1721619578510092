//! The `filters` of one OWNERS file, matched together: the ones that only
//! ask for a path to end with, start with or be a literal (`\.go$`,
//! `.*_test\.go$`, `^docs/`) are looked up by the path's ends, and the
//! others are one `RegexSet`, matched once per path. 2,000 filters over
//! 100,000 files cost a few lookups and one set match per file, not
//! 2,000 regular expressions (issue 38, 4).

use std::collections::HashMap;

use super::Block;

/// The filters of one OWNERS file, by block.
#[derive(Debug, Clone)]
pub(super) struct FilterSet {
    /// The blocks without a filter (the top level, `".*"`).
    unfiltered: Vec<usize>,
    /// Blocks whose filter is "ends with": by the literal.
    ends: Literals,
    /// Blocks whose filter is "starts with".
    starts: Literals,
    /// Blocks whose filter is "is exactly".
    exact: HashMap<Vec<u8>, Vec<usize>>,
    /// The other filters as one set, and the block of each.
    set: Option<(regex::bytes::RegexSet, Vec<usize>)>,
}

/// Blocks by a literal, and the lengths of the literals (so that a path
/// is looked up once per distinct length).
#[derive(Debug, Clone, Default)]
struct Literals {
    blocks: HashMap<Vec<u8>, Vec<usize>>,
    lengths: Vec<usize>,
}

impl Literals {
    fn add(&mut self, literal: Vec<u8>, block: usize) {
        if !self.lengths.contains(&literal.len()) {
            self.lengths.push(literal.len());
        }
        self.blocks.entry(literal).or_default().push(block);
    }

    /// The blocks of the literals `cut` finds in `path` for each length.
    fn find(&self, path: &[u8], cut: fn(&[u8], usize) -> &[u8], out: &mut Vec<usize>) {
        for &length in &self.lengths {
            if length <= path.len()
                && let Some(blocks) = self.blocks.get(cut(path, length))
            {
                out.extend_from_slice(blocks);
            }
        }
    }
}

/// What a filter asks of a path, when it is only a literal.
#[derive(Debug, PartialEq, Eq)]
enum Literal {
    Ends(Vec<u8>),
    Starts(Vec<u8>),
    Exact(Vec<u8>),
}

impl FilterSet {
    /// The filters of `blocks`, when there are two or more; `None` also
    /// when the others do not fit one set (each is then matched alone).
    pub(super) fn of(blocks: &[Block]) -> Option<FilterSet> {
        if blocks.iter().filter(|b| b.filter.is_some()).count() < 2 {
            return None;
        }
        let mut filters = FilterSet {
            unfiltered: Vec::new(),
            ends: Literals::default(),
            starts: Literals::default(),
            exact: HashMap::new(),
            set: None,
        };
        let mut patterns = Vec::new();
        let mut block_of_slot = Vec::new();
        for (i, block) in blocks.iter().enumerate() {
            let Some(filter) = &block.filter else {
                filters.unfiltered.push(i);
                continue;
            };
            match literal(&filter.pattern) {
                Some(Literal::Ends(l)) => filters.ends.add(l, i),
                Some(Literal::Starts(l)) => filters.starts.add(l, i),
                Some(Literal::Exact(l)) => filters.exact.entry(l).or_default().push(i),
                None => {
                    patterns.push(filter.pattern.as_str());
                    block_of_slot.push(i);
                }
            }
        }
        if !patterns.is_empty() {
            let set = regex::bytes::RegexSetBuilder::new(patterns)
                .unicode(false)
                .dfa_size_limit(64 << 20)
                .build()
                .ok()?;
            filters.set = Some((set, block_of_slot));
        }
        Some(filters)
    }

    /// The blocks whose filter matches `path` and those without one, in no
    /// order.
    pub(super) fn applying(&self, path: &[u8], out: &mut Vec<usize>) {
        out.clear();
        out.extend_from_slice(&self.unfiltered);
        self.ends.find(path, |p, n| &p[p.len() - n..], out);
        self.starts.find(path, |p, n| &p[..n], out);
        if let Some(blocks) = self.exact.get(path) {
            out.extend_from_slice(blocks);
        }
        if let Some((set, block_of_slot)) = &self.set {
            out.extend(set.matches(path).iter().map(|slot| block_of_slot[slot]));
        }
    }
}

/// `pattern` as the literal it asks a path to end with (`\.go$`,
/// `.*_test\.go$`), start with (`^docs/`) or be (`^OWNERS$`), when it asks
/// only that: letters, digits, `_`, `-`, `/` and escaped ASCII
/// punctuation, with the anchors. Anything else (a class, `.`, `|`, a
/// flag, an unanchored literal) is `None`, for the regular expression.
fn literal(pattern: &str) -> Option<Literal> {
    let (starts, rest) = match pattern.strip_prefix('^') {
        Some(rest) => (true, rest),
        // `.*` before a literal that ends the path changes nothing.
        None => (false, pattern.strip_prefix(".*").unwrap_or(pattern)),
    };
    let mut literal = Vec::new();
    let mut ends = false;
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '$' if chars.as_str().is_empty() => ends = true,
            '\\' => match chars.next() {
                Some(e) if e.is_ascii_punctuation() => literal.push(e as u8),
                _ => return None,
            },
            c if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '/') => literal.push(c as u8),
            _ => return None,
        }
    }
    match (starts, ends) {
        (true, true) => Some(Literal::Exact(literal)),
        (true, false) => Some(Literal::Starts(literal)),
        (false, true) => Some(Literal::Ends(literal)),
        (false, false) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_filters_are_recognised_and_nothing_else() {
        let ends = |l: &str| Some(Literal::Ends(l.as_bytes().to_vec()));
        let starts = |l: &str| Some(Literal::Starts(l.as_bytes().to_vec()));
        let exact = |l: &str| Some(Literal::Exact(l.as_bytes().to_vec()));
        for (pattern, expected) in [
            ("\\.go$", ends(".go")),
            (".*_test\\.go$", ends("_test.go")),
            ("\\.x17$", ends(".x17")),
            ("^docs/", starts("docs/")),
            ("^OWNERS$", exact("OWNERS")),
            ("\\$$", ends("$")),
            ("\\\\$", ends("\\")),
            (".*$", ends("")),
            ("^", starts("")),
            ("go$", ends("go")),
            ("\\.go", None),
            (".go$", None),
            ("(?i)\\.md$", None),
            ("\\.(go|rs)$", None),
            ("[a-z]+\\.go$", None),
            ("\\d$", None),
            ("\\.go$|^x", None),
            ("a$b", None),
            (".*", None),
            ("^.*\\.go$", None),
            ("\\.é$", None),
        ] {
            assert_eq!(literal(pattern), expected, "{pattern}");
        }
    }

    mod properties {
        use super::super::super::{Filter, filter_regex};
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(300))]

            /// The blocks that apply are those each filter alone finds.
            #[test]
            fn the_set_answers_as_each_filter_alone(
                patterns in prop::collection::vec("(\\^|\\.\\*)?([ab/_]|\\\\\\.|\\.|\\[ab\\])*\\$?", 2..12),
                paths in prop::collection::vec("[ab./_]{0,8}", 1..12),
            ) {
                let blocks: Vec<Block> = patterns
                    .iter()
                    .filter_map(|p| filter_regex(p).ok().map(|regex| (p, regex)))
                    .map(|(pattern, regex)| Block {
                        filter: Some(Filter { pattern: pattern.clone(), span: 0..0, regex }),
                        approvers: Vec::new(),
                        reviewers: Vec::new(),
                        approvers_key: None,
                    })
                    .collect();
                let Some(set) = FilterSet::of(&blocks) else { return Ok(()); };
                for path in &paths {
                    let mut found = Vec::new();
                    set.applying(path.as_bytes(), &mut found);
                    found.sort_unstable();
                    let every: Vec<usize> = (0..blocks.len())
                        .filter(|&i| blocks[i].filter.as_ref().is_some_and(|f| f.regex.is_match(path.as_bytes())))
                        .collect();
                    prop_assert_eq!(&found, &every, "{} {:?}", path, patterns);
                }
            }
        }
    }
}
