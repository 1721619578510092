//! CODEOWNERS patterns as globs: the gitignore rules GitHub applies, spelled
//! in `globset` syntax, then compiled once for the whole file.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

use super::{MAX_PATTERN_LEN, Parsed, Rule};
use crate::diagnostic::{Diagnostic, SourceFile};

/// Why a pattern is rejected; `range` is relative to the pattern.
#[derive(Debug)]
pub(super) struct PatternError {
    pub(super) range: Range<usize>,
    pub(super) message: String,
    pub(super) label: String,
    pub(super) help: Option<String>,
}

/// All rules' globs, compiled once.
#[derive(Debug, Clone)]
pub(super) enum Matcher {
    /// One set for the whole file; `rule_of[glob]` is the glob's rule.
    Set { set: GlobSet, rule_of: Vec<usize> },
    /// One set a rule, for files whose single set would be too big to
    /// compile.
    PerRule(Vec<GlobSet>),
}

impl Matcher {
    /// The index of the last rule that matches `path`: the one that wins.
    pub(super) fn last_match(&self, path: &str) -> Option<usize> {
        match self {
            Matcher::Set { set, rule_of } => set
                .matches(path)
                .into_iter()
                .filter_map(|glob| rule_of.get(glob).copied())
                .max(),
            Matcher::PerRule(sets) => sets.iter().rposition(|set| set.is_match(path)),
        }
    }
}

/// The globs for `pattern`, or why it is invalid. Overlong patterns are
/// refused before translation: no such path exists and they compile slowly.
pub(super) fn globs(pattern: &str) -> Result<Vec<String>, PatternError> {
    if pattern.len() > MAX_PATTERN_LEN {
        return Err(PatternError {
            range: 0..pattern.len(),
            message: format!(
                "the pattern is {} bytes long; mdbook-community accepts at most {MAX_PATTERN_LEN}",
                pattern.len()
            ),
            label: "too long".into(),
            help: None,
        });
    }
    translate(pattern)
}

// ---------------------------------------------------------------------------
// Translation

/// One piece of a path segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Lit(char),
    Star,
    Question,
}

/// The globs (for `globset`, with `literal_separator` and backslash escapes)
/// that together match what the CODEOWNERS `pattern` matches.
pub(super) fn translate(pattern: &str) -> Result<Vec<String>, PatternError> {
    reject_unsupported_start(pattern)?;
    let mut segments = split_segments(pattern)?;
    let anchored_by_slash = segments.first().is_some_and(Vec::is_empty) && segments.len() > 1;
    let dir_only = segments.len() > 1 && segments.last().is_some_and(Vec::is_empty);
    segments.retain(|s| !s.is_empty());
    if segments.is_empty() {
        return Err(PatternError {
            range: 0..pattern.len(),
            message: format!("the pattern `{pattern}` never matches anything"),
            label: "no file or directory name".into(),
            help: Some("did you mean `*`?".into()),
        });
    }
    let body = glob_body(&segments, anchored_by_slash);
    let last = segments.last().map_or(&[][..], Vec::as_slice);
    Ok(with_what_is_below(body, last, dir_only))
}

/// Rejects the two gitignore forms GitHub does not support at the start of
/// a pattern: an escaped `#` and `!` negation.
fn reject_unsupported_start(pattern: &str) -> Result<(), PatternError> {
    if let Some(rest) = pattern.strip_prefix("\\#") {
        return Err(PatternError {
            range: 0..2,
            message: "GitHub does not support escaping `#` at the start of a pattern".into(),
            label: "`\\#` does not work in CODEOWNERS".into(),
            help: Some(format!("match the `#` with `?` instead: `?{rest}`")),
        });
    }
    if pattern.starts_with('!') {
        return Err(PatternError {
            range: 0..1,
            message: "GitHub does not support `!` (negated) patterns in CODEOWNERS".into(),
            label: "negation does not work in CODEOWNERS".into(),
            help: Some("to leave paths unowned, add a later rule for them with no owners".into()),
        });
    }
    Ok(())
}

/// Splits `pattern` into segments on unescaped `/`, resolving escapes. The
/// first and last segments are empty for a leading and a trailing `/`.
fn split_segments(pattern: &str) -> Result<Vec<Vec<Tok>>, PatternError> {
    let mut segments: Vec<Vec<Tok>> = vec![Vec::new()];
    let mut chars = pattern.char_indices();
    while let Some((i, c)) = chars.next() {
        let current = segments.last_mut().expect("never empty");
        match c {
            '\\' => match chars.next() {
                Some((_, '/')) => segments.push(Vec::new()),
                Some((_, escaped)) => current.push(Tok::Lit(escaped)),
                None => {
                    return Err(PatternError {
                        range: i..i + 1,
                        message: "the pattern ends with a lone `\\`".into(),
                        label: "escapes nothing".into(),
                        help: Some("write `\\\\` for a literal backslash".into()),
                    });
                }
            },
            '/' => segments.push(Vec::new()),
            '*' => current.push(Tok::Star),
            '?' => current.push(Tok::Question),
            '[' | ']' => return Err(bracket_error(pattern, i, c)),
            _ => current.push(Tok::Lit(c)),
        }
    }
    Ok(segments)
}

/// The error for the bracket `c` at `i`, pointing at the whole `[...]` when
/// it is one.
fn bracket_error(pattern: &str, i: usize, c: char) -> PatternError {
    let end = if c == '[' {
        pattern[i..].find(']').map_or(i + 1, |close| i + close + 1)
    } else {
        i + 1
    };
    PatternError {
        range: i..end,
        message: "GitHub does not support `[ ]` character ranges in CODEOWNERS".into(),
        label: "both `[` and `]` must be escaped with a `\\`".into(),
        help: Some("write `\\[` and `\\]` to match brackets, or `?` for any one character".into()),
    }
}

fn is_double_star(s: &[Tok]) -> bool {
    s == [Tok::Star, Tok::Star]
}

fn is_single_star(s: &[Tok]) -> bool {
    !s.is_empty() && s.iter().all(|t| *t == Tok::Star) && !is_double_star(s)
}

/// The non-empty `segments` as one glob, matching at any depth unless the
/// pattern is anchored.
fn glob_body(segments: &[Vec<Tok>], anchored_by_slash: bool) -> String {
    let mut body = String::new();
    // No slash but a trailing one: matches at any depth.
    if !anchored_by_slash && segments.len() == 1 && !is_double_star(&segments[0]) {
        body.push_str("**/");
    }
    for (i, segment) in segments.iter().enumerate() {
        if i > 0 {
            body.push('/');
        }
        push_segment(&mut body, segment);
    }
    body
}

/// Appends one segment in glob syntax, escaping what globset would read as
/// syntax but CODEOWNERS takes literally.
fn push_segment(body: &mut String, segment: &[Tok]) {
    if is_double_star(segment) {
        body.push_str("**");
        return;
    }
    let mut previous_star = false;
    for tok in segment {
        match tok {
            // Runs of `*` inside a segment are one `*` (gitignore).
            Tok::Star if previous_star => {}
            Tok::Star => body.push('*'),
            Tok::Question => body.push('?'),
            Tok::Lit(c) => {
                if matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | '\\' | ',' | '!') {
                    body.push('\\');
                }
                body.push(*c);
            }
        }
        previous_star = *tok == Tok::Star;
    }
}

/// The final globs: `body`, plus `body/**` where the pattern also owns
/// everything below what it names; `last` is the last segment.
fn with_what_is_below(body: String, last: &[Tok], dir_only: bool) -> Vec<String> {
    if is_double_star(last) {
        // `foo/**` already matches everything below `foo`.
        vec![body]
    } else if dir_only {
        vec![format!("{body}/**")]
    } else if is_single_star(last) {
        // A trailing `/*` matches direct children only (GitHub's `docs/*`).
        // A lone `*` is `**/*` and matches every path anyway.
        vec![body]
    } else {
        // A file, or a directory and everything below it.
        let below = format!("{body}/**");
        vec![body, below]
    }
}

// ---------------------------------------------------------------------------
// Compilation

/// Builds one glob the way every rule's globs are built: `*` stops at `/`,
/// `\` escapes, and paths are case sensitive as on GitHub.
pub(super) fn build_glob(glob: &str) -> Result<Glob, globset::Error> {
    GlobBuilder::new(glob)
        .literal_separator(true)
        .backslash_escape(true)
        .case_insensitive(false)
        .build()
}

/// Compiles the rules' globs; rules whose globs cannot be compiled are
/// reported and dropped.
pub(super) fn compile(
    file: &Arc<SourceFile>,
    parsed: Vec<Parsed>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<Rule>, Vec<Vec<Glob>>) {
    build_rule_globs(file, parsed, diagnostics)
}

/// The matcher for the rules' globs: one set for the whole file, or, when
/// that is too big to compile, one set a rule (a rule whose own set still
/// fails never matches). Built on first use: the drift check and the table
/// never match paths.
pub(super) fn matcher(per_rule_globs: &[Vec<Glob>]) -> Matcher {
    one_set(per_rule_globs).unwrap_or_else(|| one_set_a_rule(per_rule_globs))
}

/// The rules whose globs all build, with their globs.
fn build_rule_globs(
    file: &Arc<SourceFile>,
    parsed: Vec<Parsed>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<Rule>, Vec<Vec<Glob>>) {
    let mut rules = Vec::with_capacity(parsed.len());
    let mut per_rule_globs = Vec::with_capacity(parsed.len());
    for Parsed { rule, globs } in parsed {
        match globs
            .iter()
            .map(|g| build_glob(g))
            .collect::<Result<Vec<_>, _>>()
        {
            Ok(globs) => {
                rules.push(rule);
                per_rule_globs.push(globs);
            }
            Err(e) => diagnostics.push(too_complex(file, &rule, &e)),
        }
    }
    (rules, per_rule_globs)
}

/// One set for every rule, or `None` when it is too big to compile.
fn one_set(per_rule_globs: &[Vec<Glob>]) -> Option<Matcher> {
    // A glob that a later rule repeats can never decide: compile it once,
    // for the last rule that has it.
    let mut last_rule_of: HashMap<&str, usize> = HashMap::new();
    for (i, globs) in per_rule_globs.iter().enumerate() {
        for glob in globs {
            last_rule_of.insert(glob.glob(), i);
        }
    }
    let mut builder = GlobSetBuilder::new();
    let mut rule_of = Vec::new();
    for (i, globs) in per_rule_globs.iter().enumerate() {
        for glob in globs {
            if last_rule_of.get(glob.glob()) == Some(&i) {
                builder.add(glob.clone());
                rule_of.push(i);
            }
        }
    }
    let set = builder.build().ok()?;
    Some(Matcher::Set { set, rule_of })
}

/// One set a rule; a rule whose set fails gets an empty one.
fn one_set_a_rule(per_rule_globs: &[Vec<Glob>]) -> Matcher {
    let sets = per_rule_globs
        .iter()
        .map(|globs| {
            let mut builder = GlobSetBuilder::new();
            for glob in globs {
                builder.add(glob.clone());
            }
            builder.build().unwrap_or_else(|_| GlobSet::empty())
        })
        .collect();
    Matcher::PerRule(sets)
}

fn too_complex(file: &Arc<SourceFile>, rule: &Rule, e: &globset::Error) -> Diagnostic {
    Diagnostic::error("this pattern cannot be compiled")
        .in_file(file, rule.pattern_range.clone())
        .with_label("too long or too complex")
        .with_note(e.to_string())
}
