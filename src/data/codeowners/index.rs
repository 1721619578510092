//! The rules of a CODEOWNERS file arranged by the folder names their
//! patterns start with, so that a path is tried only against the rules
//! that can match it: those anchored under one of its leading folders
//! (found by walking a tree of names along the path), those that match at
//! any depth by a name or an extension one of its segments has (found by
//! looking each segment up), and the few others. A repository of 20,000
//! files against 500 rules costs a few candidates per file instead of
//! 500; 2,000 `*.xN` rules cost a lookup per dot of a path, not 2,000
//! tries (issue 38, 4).

use std::collections::HashMap;

use super::pattern::{AnyDepthKey, Compiled};

/// The compiled rules, and the tree of their literal prefixes.
#[derive(Debug, Clone)]
pub(super) struct RuleIndex {
    /// Each rule's pattern ready to match; `None` for one that failed to
    /// compile (never, for a parsed rule).
    compiled: Vec<Option<Compiled>>,
    root: Node,
    /// Rules that match at any depth, by the name one segment of the path
    /// must be (`vendor`, `**/vendor/x`).
    by_name: HashMap<String, Vec<usize>>,
    /// Rules that match at any depth, by the end, from a `.`, one segment
    /// of the path must have (`*.md`: `.md`).
    by_extension: HashMap<String, Vec<usize>>,
}

/// The rules whose literal prefix ends here, and the names below.
#[derive(Debug, Clone, Default)]
struct Node {
    rules: Vec<usize>,
    children: HashMap<String, Node>,
}

impl RuleIndex {
    /// The index of `compiled`, in rule order.
    pub(super) fn new(compiled: Vec<Option<Compiled>>) -> RuleIndex {
        let mut root = Node::default();
        let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
        let mut by_extension: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, rule) in compiled.iter().enumerate() {
            let Some(rule) = rule else { continue };
            match rule.any_depth_key() {
                Some(AnyDepthKey::Name(name)) => by_name.entry(name).or_default().push(i),
                Some(AnyDepthKey::Extension(end)) => by_extension.entry(end).or_default().push(i),
                None => {
                    let mut node = &mut root;
                    for name in rule.literal_prefix() {
                        node = node.children.entry(name).or_default();
                    }
                    node.rules.push(i);
                }
            }
        }
        RuleIndex {
            compiled,
            root,
            by_name,
            by_extension,
        }
    }

    /// The rules that may match the path of `segments`, sorted, each once.
    fn candidates(&self, segments: &[&str], out: &mut Vec<usize>) {
        out.clear();
        let mut node = &self.root;
        out.extend_from_slice(&node.rules);
        for segment in segments {
            let Some(next) = node.children.get(*segment) else {
                break;
            };
            node = next;
            out.extend_from_slice(&node.rules);
        }
        let before = out.len();
        if !self.by_name.is_empty() || !self.by_extension.is_empty() {
            for segment in segments {
                if let Some(rules) = self.by_name.get(*segment) {
                    out.extend_from_slice(rules);
                }
                if self.by_extension.is_empty() {
                    continue;
                }
                for (at, _) in segment.match_indices('.') {
                    if let Some(rules) = self.by_extension.get(&segment[at..]) {
                        out.extend_from_slice(rules);
                    }
                }
            }
        }
        out.sort_unstable();
        // Only a rule found by two segments is there twice.
        if out.len() > before {
            out.dedup();
        }
    }

    /// The last rule that matches the path of `segments`.
    pub(super) fn last_match(&self, segments: &[&str]) -> Option<usize> {
        let mut candidates = Vec::new();
        self.candidates(segments, &mut candidates);
        candidates
            .into_iter()
            .rev()
            .find(|&i| self.matches(i, segments))
    }

    /// Every rule that matches the path of `segments`, in rule order.
    pub(super) fn all_matches(&self, segments: &[&str], out: &mut Vec<usize>) {
        let mut candidates = Vec::new();
        self.candidates(segments, &mut candidates);
        out.clear();
        out.extend(
            candidates
                .into_iter()
                .filter(|&i| self.matches(i, segments)),
        );
    }

    /// The last rule that matches the path of `segments`; and every other
    /// candidate not yet marked in `matched` is tried and marked when it
    /// matches (a rule is tried until it has matched once, so a pass over
    /// a repository costs little more than finding each file's rule).
    pub(super) fn last_match_marking(
        &self,
        segments: &[&str],
        matched: &mut [bool],
    ) -> Option<usize> {
        let mut candidates = Vec::new();
        self.candidates(segments, &mut candidates);
        let mut decided = None;
        for i in candidates.into_iter().rev() {
            if decided.is_some() && matched[i] {
                continue;
            }
            if self.matches(i, segments) {
                matched[i] = true;
                decided = decided.or(Some(i));
            }
        }
        decided
    }

    fn matches(&self, rule: usize, segments: &[&str]) -> bool {
        self.compiled[rule]
            .as_ref()
            .is_some_and(|c| c.matches_segments(segments))
    }
}

#[cfg(test)]
mod tests {
    use super::super::pattern::compile;
    use super::*;

    /// Issue 38 (4): 2,000 extension rules and 2,000 name rules that match
    /// at any depth leave a path a handful of candidates, not 4,000; and
    /// the answers are those of trying every rule.
    #[test]
    fn any_depth_rules_are_found_by_the_paths_segments() {
        let mut patterns: Vec<String> = (0..2000).map(|i| format!("*.x{i}")).collect();
        patterns.extend((0..2000).map(|i| format!("name{i}")));
        patterns.extend(["*", "**/docs/", "*.tar.gz", "x?y", "/src/", "*.md"].map(String::from));
        let compiled: Vec<Option<Compiled>> = patterns.iter().map(|p| compile(p).ok()).collect();
        let index = RuleIndex::new(compiled.clone());
        let mut candidates = Vec::new();
        for path in [
            "a/b/file.x17",
            "name42/deep/file.rs",
            "src/name7/file.tar.gz",
            "docs/readme.md",
            "x1y/z",
            ".x5",
            "plain",
        ] {
            let segments: Vec<&str> = path.split('/').collect();
            index.candidates(&segments, &mut candidates);
            assert!(
                candidates.len() <= 6,
                "{path}: {} candidates",
                candidates.len()
            );
            let every: Vec<usize> = (0..compiled.len())
                .filter(|&i| {
                    compiled[i]
                        .as_ref()
                        .is_some_and(|c| c.matches_segments(&segments))
                })
                .collect();
            let mut found = Vec::new();
            index.all_matches(&segments, &mut found);
            assert_eq!(found, every, "{path}");
            assert_eq!(index.last_match(&segments), every.last().copied(), "{path}");
        }
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(300))]

            /// The index finds exactly the rules trying each would.
            #[test]
            fn the_index_answers_as_trying_every_rule(
                patterns in prop::collection::vec("(/|\\*\\*/)?([ab.*?]{1,4}/){0,2}[ab.*?]{1,4}/?", 1..30),
                paths in prop::collection::vec("([ab.]{1,4}/){0,3}[ab.]{1,4}", 1..20),
            ) {
                let compiled: Vec<Option<Compiled>> =
                    patterns.iter().map(|p| compile(p).ok()).collect();
                let index = RuleIndex::new(compiled.clone());
                for path in &paths {
                    let segments: Vec<&str> = path.split('/').collect();
                    let every: Vec<usize> = (0..compiled.len())
                        .filter(|&i| compiled[i].as_ref().is_some_and(|c| c.matches_segments(&segments)))
                        .collect();
                    let mut found = Vec::new();
                    index.all_matches(&segments, &mut found);
                    prop_assert_eq!(&found, &every, "{} {:?}", path, patterns);
                    prop_assert_eq!(index.last_match(&segments), every.last().copied());
                    let mut marked = vec![false; compiled.len()];
                    prop_assert_eq!(index.last_match_marking(&segments, &mut marked), every.last().copied());
                }
            }
        }
    }
}
