//! The rules of a CODEOWNERS file arranged by the folder names their
//! patterns start with, so that a path is tried only against the rules
//! that can match it: those anchored under one of its leading folders
//! (found by walking a tree of names along the path), and those that
//! match at any depth. A repository of 20,000 files against 500 rules
//! costs a few candidates per file instead of 500.

use std::collections::HashMap;

use super::pattern::Compiled;

/// The compiled rules, and the tree of their literal prefixes.
#[derive(Debug, Clone)]
pub(super) struct RuleIndex {
    /// Each rule's pattern ready to match; `None` for one that failed to
    /// compile (never, for a parsed rule).
    compiled: Vec<Option<Compiled>>,
    root: Node,
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
        for (i, rule) in compiled.iter().enumerate() {
            let Some(rule) = rule else { continue };
            let mut node = &mut root;
            for name in rule.literal_prefix() {
                node = node.children.entry(name).or_default();
            }
            node.rules.push(i);
        }
        RuleIndex { compiled, root }
    }

    /// The rules that may match the path of `segments`, in no order.
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
    }

    /// The last rule that matches the path of `segments`.
    pub(super) fn last_match(&self, segments: &[&str]) -> Option<usize> {
        let mut candidates = Vec::new();
        self.candidates(segments, &mut candidates);
        candidates.sort_unstable_by(|a, b| b.cmp(a));
        candidates.into_iter().find(|&i| self.matches(i, segments))
    }

    /// Every rule that matches the path of `segments`, in rule order.
    pub(super) fn all_matches(&self, segments: &[&str], out: &mut Vec<usize>) {
        let mut candidates = Vec::new();
        self.candidates(segments, &mut candidates);
        candidates.sort_unstable();
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
        candidates.sort_unstable_by(|a, b| b.cmp(a));
        let mut decided = None;
        for i in candidates {
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
