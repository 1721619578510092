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
    /// Each rule's section (GitLab's; all 0 on GitHub).
    sections: Vec<usize>,
    /// How many sections there are.
    section_count: usize,
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
    /// The index of `compiled`, in rule order, each rule in the section
    /// `sections` gives it.
    pub(super) fn new(compiled: Vec<Option<Compiled>>, sections: Vec<usize>) -> RuleIndex {
        let section_count = sections.iter().max().map_or(1, |&m| m + 1);
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
            sections,
            section_count,
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

    /// The last rule that matches the path of `segments` (of any
    /// section).
    #[cfg(test)]
    pub(super) fn last_match(&self, segments: &[&str]) -> Option<usize> {
        let mut candidates = Vec::new();
        self.candidates(segments, &mut candidates);
        candidates
            .into_iter()
            .rev()
            .find(|&i| self.matches(i, segments))
    }

    /// Into `out`, each section's last rule that matches the path of
    /// `segments`, latest first. With `matched` (one flag per rule), every
    /// other candidate not yet marked is tried too and marked when it
    /// matches (a rule is tried until it has matched once, so a pass over
    /// a repository costs little more than finding each file's rules).
    pub(super) fn last_match_per_section(
        &self,
        segments: &[&str],
        out: &mut Vec<usize>,
        mut matched: Option<&mut [bool]>,
    ) {
        let mut candidates = Vec::new();
        self.candidates(segments, &mut candidates);
        out.clear();
        let mut decided = 0;
        for i in candidates.into_iter().rev() {
            let section = self.sections.get(i).copied().unwrap_or(0);
            let open = !out
                .iter()
                .any(|&d| self.sections.get(d).copied().unwrap_or(0) == section);
            let marked = matched.as_deref().is_some_and(|m| m[i]);
            if !open && (matched.is_none() || marked) {
                if matched.is_none() && decided == self.section_count {
                    break;
                }
                continue;
            }
            if self.matches(i, segments) {
                if let Some(m) = matched.as_deref_mut() {
                    m[i] = true;
                }
                if open {
                    out.push(i);
                    decided += 1;
                }
            }
        }
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
        let index = RuleIndex::new(compiled.clone(), vec![0; compiled.len()]);
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
                let index = RuleIndex::new(compiled.clone(), vec![0; compiled.len()]);
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
                    let mut decided = Vec::new();
                    index.last_match_per_section(&segments, &mut decided, Some(&mut marked));
                    prop_assert_eq!(decided.first().copied(), every.last().copied());
                    let marked_rules: Vec<usize> = (0..compiled.len()).filter(|&i| marked[i]).collect();
                    prop_assert_eq!(&marked_rules, &every);
                }
            }
        }
    }
}
