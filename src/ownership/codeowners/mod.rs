//! GitHub CODEOWNERS files: parse one into rules, find who owns a path, and
//! find the file itself.
//!
//! The syntax follows GitHub's "About code owners" page:
//!
//! - one rule a line: a gitignore-style pattern, then zero or more owners
//!   (`@login`, `@org/team` or an e-mail address) separated by whitespace;
//!   a rule without owners makes the paths it matches unowned;
//! - `#` at the start of a line starts a comment, and so does `#` after
//!   whitespace (GitHub's own example has `*.js @js-owner #This is an inline
//!   comment.`);
//! - the last matching rule wins;
//! - paths are case sensitive;
//! - three gitignore rules do not work: `\#` at the start of a pattern,
//!   `!` negation and `[ ]` character ranges. GitHub flags `!` patterns as
//!   invalid and says of brackets "both `[` and `]` must be escaped with a
//!   `\`"; "if any line in your CODEOWNERS file contains invalid syntax,
//!   that line will be skipped": so does [`CodeOwners::parse`], after
//!   reporting it as an error;
//! - files of 3 MB or more are not loaded at all.
//!
//! Matching follows gitignore as GitHub applies it: a pattern with no slash
//! but a trailing one matches at any depth, any other slash anchors it to the
//! repository root, a trailing slash matches everything below a directory, a
//! pattern that names a file or directory also owns everything below it, and
//! a trailing `/*` matches direct children only (`docs/*` owns
//! `docs/index.md` but not `docs/guide/index.md`).
//!
//! This module holds the model and the two entry points;
//! [`line`](mod@line) reads one line into a rule, [`pattern`] checks
//! patterns and matches them, once a path is first asked about.

mod index;
mod line;
mod pattern;

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use crate::diagnostic::{Code, Diagnostic, SourceFile};
use index::RuleIndex;

/// GitHub does not load a CODEOWNERS file of this size or more.
pub const MAX_FILE_SIZE: usize = 3 * 1024 * 1024;

/// Longest pattern accepted, in bytes. GitHub documents no limit, but no
/// path that long can be checked out on common file systems (`PATH_MAX` is
/// 4096 on Linux), and compiling much longer ones gets slow.
pub const MAX_PATTERN_LEN: usize = 4096;

/// Where the file is looked for, relative to a directory, in GitHub's own
/// order: when more than one exists, GitHub uses the first.
pub const FILE_LOCATIONS: [&str; 3] = [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"];

/// Where CODEOWNERS is looked for, in order (GitHub's), in the book root and
/// then in its parent (the repository root when the book lives in a
/// subfolder).
pub const CODEOWNERS_CANDIDATES: &[&str] = &FILE_LOCATIONS;

/// What kind of owner a CODEOWNERS rule names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OwnerKind {
    /// A user, `@login`.
    User,
    /// A team, `@org/team-name`.
    Team,
    /// A user given by an e-mail address, `user@example.com`.
    Email,
}

/// One owner of a rule, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// The owner as written: `@login`, `@org/team` or `user@example.com`.
    pub text: String,
    /// User, team or e-mail address.
    pub kind: OwnerKind,
    /// Byte range of `text` in the file.
    pub range: Range<usize>,
}

impl Owner {
    /// The login of a user owner, without the `@`; `None` for teams and
    /// e-mail addresses.
    pub fn login(&self) -> Option<&str> {
        match self.kind {
            OwnerKind::User => self.text.strip_prefix('@'),
            OwnerKind::Team | OwnerKind::Email => None,
        }
    }
}

/// One rule: a pattern and the owners of the paths it matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// The pattern as written, backslash escapes included.
    pub pattern: String,
    /// Byte range of `pattern` in the file.
    pub pattern_range: Range<usize>,
    /// The owners, in file order; empty when the rule makes its paths
    /// unowned.
    pub owners: Vec<Owner>,
    /// 1-based line number.
    pub line: usize,
}

/// A parsed CODEOWNERS file, ready to answer [`CodeOwners::owners_of`].
#[derive(Debug, Clone)]
pub struct CodeOwners {
    file: Arc<SourceFile>,
    rules: Vec<Rule>,
    /// Each rule's pattern ready to match, arranged by the folders it
    /// starts with; made when a path is first asked about (a book that
    /// only shows the table never needs them).
    index: OnceLock<RuleIndex>,
}

impl CodeOwners {
    /// Parses `file`. Every line with invalid syntax is reported and, as
    /// GitHub does, skipped; the other rules still work.
    pub fn parse(file: Arc<SourceFile>) -> (CodeOwners, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let mut parsed = Vec::new();
        if file.text.len() >= MAX_FILE_SIZE {
            diagnostics.push(Self::too_big(&file.name, file.text.len() as u64));
        } else {
            line::parse_lines(&file, &mut parsed, &mut diagnostics);
        }
        let rules = parsed.into_iter().map(|p| p.rule).collect();
        (
            CodeOwners {
                file,
                rules,
                index: OnceLock::new(),
            },
            diagnostics,
        )
    }

    /// The error for a CODEOWNERS file `name` of `size` bytes, at least
    /// [`MAX_FILE_SIZE`]: GitHub ignores it.
    pub fn too_big(name: &str, size: u64) -> Diagnostic {
        Diagnostic::error(Code::UnreadableFile, format!(
            "the CODEOWNERS file is {size} bytes; GitHub ignores CODEOWNERS files of 3 MB or more"
        ))
        .at_path(name.to_string())
        .with_help("use wildcard patterns to merge rules and make the file smaller")
    }

    /// The file the rules come from.
    pub fn file(&self) -> &Arc<SourceFile> {
        &self.file
    }

    /// The valid rules, in file order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The rule that decides who owns `path` (relative to the repository
    /// root, `/`-separated; a leading `/` or `./` is ignored): the last rule
    /// that matches it. A rule with no owners means the path is explicitly
    /// unowned; `None` means no rule matches.
    pub fn owners_of(&self, path: &str) -> Option<&Rule> {
        self.rules.get(self.rule_of(path)?)
    }

    /// The index in [`rules`](Self::rules) of the rule that decides who
    /// owns `path`, as [`owners_of`](Self::owners_of) finds it.
    pub fn rule_of(&self, path: &str) -> Option<usize> {
        let path = normalize_path(path);
        if path.is_empty() {
            return None;
        }
        let segments: Vec<&str> = path.split('/').collect();
        self.index().last_match(&segments)
    }

    /// Every rule that matches `path` (not only the one that decides), by
    /// index in [`rules`](Self::rules), in file order, into `out`.
    pub fn rules_matching(&self, path: &str, out: &mut Vec<usize>) {
        out.clear();
        let path = normalize_path(path);
        if path.is_empty() {
            return;
        }
        let segments: Vec<&str> = path.split('/').collect();
        self.index().all_matches(&segments, out);
    }

    /// [`rule_of`](Self::rule_of), marking in `matched` (one flag per
    /// rule) every rule that matches `path`, as
    /// [`rules_matching`](Self::rules_matching) would find them, but trying
    /// only the rules not marked yet.
    pub fn rule_of_marking(&self, path: &str, matched: &mut [bool]) -> Option<usize> {
        let path = normalize_path(path);
        if path.is_empty() || matched.len() < self.rules.len() {
            return None;
        }
        let segments: Vec<&str> = path.split('/').collect();
        self.index().last_match_marking(&segments, matched)
    }

    fn index(&self) -> &RuleIndex {
        self.index.get_or_init(|| {
            RuleIndex::new(
                (self.rules.iter())
                    .map(|rule| pattern::compile(&rule.pattern).ok())
                    .collect(),
            )
        })
    }
}

/// Strips what does not change the path: leading `./` and `/`.
fn normalize_path(mut path: &str) -> &str {
    loop {
        if let Some(rest) = path.strip_prefix("./") {
            path = rest;
        } else if let Some(rest) = path.strip_prefix('/') {
            path = rest;
        } else {
            return path;
        }
    }
}

/// A valid rule, as [`line`](mod@line) reads it.
struct Parsed {
    rule: Rule,
}

#[cfg(test)]
mod tests;
