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
//! GitLab's CODEOWNERS ([`gitlab`]) is read with GitLab's rules: sections
//! (`[Name]`, `^[Optional]`, `[Name][2]`, default owners on the header
//! line; same-named sections merged, names compared without case), each
//! section's last matching rule applies and the sections add up, `@@role`
//! and nested `@group/sub` owners, `!` exclusions, and GitLab's patterns
//! (only a leading `/` anchors; `[ ]` classes). A file is GitLab's when it
//! is `.gitlab/CODEOWNERS` or holds a section header.
//!
//! This module holds the model and the two entry points;
//! [`line`](mod@line) reads one line into a rule, [`pattern`] checks
//! patterns and matches them, once a path is first asked about.

mod gitlab;
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
/// GitLab's own file, `.gitlab/CODEOWNERS`, comes last: GitLab reads the
/// root's and `docs/`'s first too.
pub const FILE_LOCATIONS: [&str; 4] = [
    ".github/CODEOWNERS",
    "CODEOWNERS",
    "docs/CODEOWNERS",
    ".gitlab/CODEOWNERS",
];

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
    /// A GitLab role of the project, `@@maintainer`: who has it is
    /// GitLab's to say, not the roster's.
    Role,
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
            OwnerKind::Team | OwnerKind::Email | OwnerKind::Role => None,
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
    /// The section it is in (index into [`CodeOwners::sections`]; 0, the
    /// unnamed one, on GitHub and before GitLab's first header).
    pub section: usize,
    /// A GitLab exclusion (`!pattern`): when it is the section's last
    /// match, the section gives the path no owner.
    pub excluded: bool,
}

/// Whose syntax and rules a CODEOWNERS file follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// GitHub's: one list of rules, the last match decides.
    GitHub,
    /// GitLab's: sections, each section's last match applies.
    GitLab,
}

impl Dialect {
    /// The dialect a file at `name` is in by its place alone.
    pub fn of_name(name: &str) -> Dialect {
        match name.replace('\\', "/").ends_with(".gitlab/CODEOWNERS") {
            true => Dialect::GitLab,
            false => Dialect::GitHub,
        }
    }

    /// The dialect of the file `name` holding `text`: GitLab's by its
    /// place, or when a line is a section header (`[Name]`, `^[Name]`),
    /// which GitHub refuses anyway.
    pub fn of(name: &str, text: &str) -> Dialect {
        match Dialect::of_name(name) {
            Dialect::GitLab => Dialect::GitLab,
            Dialect::GitHub if text.lines().any(gitlab::is_section_header) => Dialect::GitLab,
            Dialect::GitHub => Dialect::GitHub,
        }
    }

    /// `"GitHub"` or `"GitLab"`, for messages.
    pub fn host(self) -> &'static str {
        match self {
            Dialect::GitHub => "GitHub",
            Dialect::GitLab => "GitLab",
        }
    }
}

/// A section of a GitLab CODEOWNERS file (on GitHub, the one unnamed
/// section every rule is in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The name as first written; empty for the unnamed section.
    pub name: String,
    /// `^[Name]`: approval is optional.
    pub optional: bool,
    /// `[Name][N]`: how many approvals it requires.
    pub approvals: Option<u32>,
    /// The 1-based line of its first header (0 for the unnamed section).
    pub line: usize,
}

/// A parsed CODEOWNERS file, ready to answer [`CodeOwners::owners_of`].
#[derive(Debug, Clone)]
pub struct CodeOwners {
    file: Arc<SourceFile>,
    dialect: Dialect,
    /// The sections; the first is the unnamed one.
    sections: Vec<Section>,
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
        let dialect = Dialect::of(&file.name, &file.text);
        let mut diagnostics = Vec::new();
        let mut parsed = Vec::new();
        let mut sections = vec![Section {
            name: String::new(),
            optional: false,
            approvals: None,
            line: 0,
        }];
        if file.text.len() >= MAX_FILE_SIZE {
            diagnostics.push(Self::too_big(&file.name, file.text.len() as u64));
        } else if dialect == Dialect::GitLab {
            gitlab::parse_lines(&file, &mut sections, &mut parsed, &mut diagnostics);
        } else {
            line::parse_lines(&file, &mut parsed, &mut diagnostics);
        }
        let rules = parsed.into_iter().map(|p| p.rule).collect();
        (
            CodeOwners {
                file,
                dialect,
                sections,
                rules,
                index: OnceLock::new(),
            },
            diagnostics,
        )
    }

    /// Whose rules the file follows.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The sections, the unnamed one first.
    pub fn sections(&self) -> &[Section] {
        &self.sections
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

    /// The rules that decide who owns `path` (relative to the repository
    /// root, `/`-separated; a leading `/` or `./` is ignored): each
    /// section's last matching rule, in section order (on GitHub, the one
    /// last matching rule). A rule with no owners means the path is
    /// explicitly unowned; an empty list means no rule matches. A GitLab
    /// exclusion that is its section's last match leaves that section out.
    pub fn owners_of(&self, path: &str) -> Vec<&Rule> {
        self.rules_of(path)
            .into_iter()
            .map(|i| &self.rules[i])
            .collect()
    }

    /// The indices in [`rules`](Self::rules) of the rules that decide who
    /// owns `path`, as [`owners_of`](Self::owners_of) finds them.
    pub fn rules_of(&self, path: &str) -> Vec<usize> {
        let path = normalize_path(path);
        if path.is_empty() {
            return Vec::new();
        }
        let segments: Vec<&str> = path.split('/').collect();
        let mut decided = Vec::new();
        self.index()
            .last_match_per_section(&segments, &mut decided, None);
        self.decided(decided)
    }

    /// Each section's decision, exclusions left out, in section order.
    fn decided(&self, mut decided: Vec<usize>) -> Vec<usize> {
        decided.retain(|&i| !self.rules[i].excluded);
        decided.sort_unstable_by_key(|&i| self.rules[i].section);
        decided
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

    /// [`rules_of`](Self::rules_of), marking in `matched` (one flag per
    /// rule) every rule that matches `path`, as
    /// [`rules_matching`](Self::rules_matching) would find them, but trying
    /// only the rules not marked yet.
    pub fn rules_of_marking(&self, path: &str, matched: &mut [bool]) -> Vec<usize> {
        let path = normalize_path(path);
        if path.is_empty() || matched.len() < self.rules.len() {
            return Vec::new();
        }
        let segments: Vec<&str> = path.split('/').collect();
        let mut decided = Vec::new();
        self.index()
            .last_match_per_section(&segments, &mut decided, Some(matched));
        self.decided(decided)
    }

    fn index(&self) -> &RuleIndex {
        self.index.get_or_init(|| {
            let compile = |rule: &Rule| match self.dialect {
                Dialect::GitHub => pattern::compile(&rule.pattern).ok(),
                Dialect::GitLab => pattern::compile_gitlab(gitlab::pattern_of(rule)).ok(),
            };
            let sections = self.rules.iter().map(|rule| rule.section).collect();
            RuleIndex::new(self.rules.iter().map(compile).collect(), sections)
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
