//! CODEOWNERS patterns: checked when the file is read, and matched
//! against paths by a small segment matcher (gitignore's rules as GitHub
//! applies them) only when a path is asked about. Nothing is compiled per
//! rule, so a file of 75,000 rules costs memory in proportion to its text.
//! The translation to `globset` globs is kept for the tests, which check
//! the matcher against `globset`.
//!
//! Hand-written beside `globset`, by measurement (2026-12-04, globset
//! 0.4.22, release builds, a CODEOWNERS of directory, extension and
//! `docs/partN/**/*.md` rules, one `GlobSet` of each rule and its
//! `rule/**`, as a CODEOWNERS rule owns what is below it): 5,000 rules
//! build in 0.55 s and 64 MB with `globset`, where `owners PATH` answers in
//! 0.03 s and 11 MB in all; at 25,000 rules `globset` fails ("error
//! building NFA") after 3.7 s and 270 MB, and at 75,000 after 5.4 s and
//! 785 MB, where `owners PATH` answers in 0.21 s / 31 MB and 0.74 s /
//! 75 MB. GitHub accepts a 3 MB CODEOWNERS (about 75,000 such rules).

use std::ops::Range;

#[cfg(test)]
use globset::{Glob, GlobBuilder};

use super::MAX_PATTERN_LEN;

/// Why a pattern is rejected; `range` is relative to the pattern.
#[derive(Debug)]
pub(super) struct PatternError {
    pub(super) range: Range<usize>,
    pub(super) message: String,
    pub(super) label: String,
    pub(super) help: Option<String>,
}

/// A pattern ready to match: its segments (a leading `**` for one that
/// matches at any depth), and what below the last one it owns.
#[derive(Debug, Clone)]
pub(super) struct Compiled {
    body: Vec<Seg>,
    owns: Owns,
}

/// What one segment of every path an any-depth pattern matches is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum AnyDepthKey {
    /// The segment is this name (`vendor`, `**/vendor/x`).
    Name(String),
    /// The segment ends with this, which starts with `.` (`*.md`).
    Extension(String),
}

/// One segment of a pattern.
#[derive(Debug, Clone)]
enum Seg {
    /// `**`: any number of path segments (at least one when last).
    Any,
    /// One path segment's name, with `*` and `?`.
    Name(Vec<Tok>),
}

/// What a pattern owns below the path it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owns {
    /// Only what it names (`docs/*`, `docs/**`).
    Named,
    /// What it names and everything below it (`docs`, `*.md`).
    NamedAndBelow,
    /// Only what is below (`docs/`).
    OnlyBelow,
}

impl Compiled {
    /// Whether the pattern matches `path` (`/`-separated, relative to the
    /// repository root).
    #[cfg(test)]
    pub(super) fn matches(&self, path: &str) -> bool {
        let path: Vec<&str> = path.split('/').collect();
        self.matches_segments(&path)
    }

    /// Whether the pattern matches a path already split at `/`. The
    /// matcher's state lives on the stack for paths up to 63 segments
    /// deep: matching allocates nothing.
    pub(super) fn matches_segments(&self, path: &[&str]) -> bool {
        let n = path.len();
        if n < 64 {
            let (mut a, mut b) = ([false; 64], [false; 64]);
            self.run(path, &mut a[..=n], &mut b[..=n])
        } else {
            self.run(path, &mut vec![false; n + 1], &mut vec![false; n + 1])
        }
    }

    /// The matcher: `reach[j]` says the segments so far match the first
    /// `j` path segments; `next` is scratch of the same length.
    fn run<'a>(&self, path: &[&str], mut reach: &'a mut [bool], mut next: &'a mut [bool]) -> bool {
        let n = path.len();
        reach.fill(false);
        reach[0] = true;
        for (i, seg) in self.body.iter().enumerate() {
            let last = i + 1 == self.body.len();
            next.fill(false);
            match seg {
                Seg::Any => {
                    let mut any = false;
                    for j in 0..=n {
                        if last {
                            next[j] = any;
                            any |= reach[j];
                        } else {
                            any |= reach[j];
                            next[j] = any;
                        }
                    }
                }
                Seg::Name(toks) => {
                    for j in 0..n {
                        if reach[j] && segment_matches(toks, path[j]) {
                            next[j + 1] = true;
                        }
                    }
                }
            }
            std::mem::swap(&mut reach, &mut next);
            if !reach.contains(&true) {
                return false;
            }
        }
        match self.owns {
            Owns::Named => reach[n],
            Owns::NamedAndBelow => reach[1..].contains(&true),
            Owns::OnlyBelow => reach[1..n].contains(&true),
        }
    }

    /// For a pattern that matches at any depth (`name`, `*.ext`,
    /// `**/name/...`): what one segment of every path it matches is, so
    /// that an index finds it by the path's segments instead of trying it
    /// on every path. `None` for any other pattern.
    pub(super) fn any_depth_key(&self) -> Option<AnyDepthKey> {
        let [Seg::Any, Seg::Name(toks), ..] = self.body.as_slice() else {
            return None;
        };
        let literal = |toks: &[Tok]| -> Option<String> {
            toks.iter()
                .map(|t| match t {
                    Tok::Lit(c) => Some(*c),
                    Tok::Star | Tok::Question | Tok::Class(_) => None,
                })
                .collect()
        };
        match toks.as_slice() {
            [Tok::Star, rest @ ..] if rest.first() == Some(&Tok::Lit('.')) => {
                literal(rest).map(AnyDepthKey::Extension)
            }
            toks => literal(toks).map(AnyDepthKey::Name),
        }
    }

    /// The names every path the pattern matches starts with: its leading
    /// segments without wildcards, when it is anchored (none for a pattern
    /// that matches at any depth).
    pub(super) fn literal_prefix(&self) -> Vec<String> {
        self.body
            .iter()
            .map_while(|seg| match seg {
                Seg::Name(toks) => toks
                    .iter()
                    .map(|t| match t {
                        Tok::Lit(c) => Some(*c),
                        Tok::Star | Tok::Question | Tok::Class(_) => None,
                    })
                    .collect::<Option<String>>(),
                Seg::Any => None,
            })
            .collect()
    }
}

/// Whether one segment pattern matches one path segment: `*` any run of
/// characters, `?` one character, anything else itself (case sensitive).
/// Walks the name by byte offsets at character boundaries: nothing is
/// allocated.
fn segment_matches(toks: &[Tok], name: &str) -> bool {
    let (mut t, mut c) = (0, 0);
    // The last `*` seen, and where in `name` it is tried up to.
    let mut star: Option<(usize, usize)> = None;
    while let Some(ch) = name[c..].chars().next() {
        match toks.get(t) {
            Some(Tok::Star) => {
                star = Some((t, c));
                t += 1;
            }
            Some(Tok::Question) => {
                t += 1;
                c += ch.len_utf8();
            }
            Some(Tok::Lit(l)) if *l == ch => {
                t += 1;
                c += ch.len_utf8();
            }
            Some(Tok::Class(class)) if class.contains(ch) => {
                t += 1;
                c += ch.len_utf8();
            }
            _ => match star {
                Some((at, from)) => {
                    let skipped = name[from..].chars().next().map_or(1, char::len_utf8);
                    t = at + 1;
                    c = from + skipped;
                    star = Some((at, from + skipped));
                }
                None => return false,
            },
        }
    }
    toks[t..].iter().all(|tok| *tok == Tok::Star)
}

/// `pattern` ready to match, or why it is invalid. Overlong patterns are
/// refused first: no such path exists.
pub(super) fn compile(pattern: &str) -> Result<Compiled, PatternError> {
    check_length(pattern)?;
    reject_unsupported_start(pattern)?;
    let mut segments = split_segments(pattern)?;
    let anchored_by_slash = segments.first().is_some_and(Vec::is_empty) && segments.len() > 1;
    let dir_only = segments.len() > 1 && segments.last().is_some_and(Vec::is_empty);
    segments.retain(|s| !s.is_empty());
    let Some(last) = segments.last() else {
        return Err(never_matches(pattern));
    };
    let owns = if is_double_star(last) || (!dir_only && is_single_star(last)) {
        Owns::Named
    } else if dir_only {
        Owns::OnlyBelow
    } else {
        Owns::NamedAndBelow
    };
    let mut body = Vec::with_capacity(segments.len() + 1);
    // No slash but a trailing one: matches at any depth.
    if !anchored_by_slash && segments.len() == 1 && !is_double_star(&segments[0]) {
        body.push(Seg::Any);
    }
    body.extend(segments.into_iter().map(|s| {
        if is_double_star(&s) {
            Seg::Any
        } else {
            Seg::Name(s)
        }
    }));
    Ok(Compiled { body, owns })
}

/// A GitLab CODEOWNERS `pattern` ready to match, as GitLab reads it
/// (`Gitlab::CodeOwners::File`): `*` is every file; a pattern without a
/// leading `/` matches at any depth (`/**/` before it), one with a
/// trailing `/` everything below it, any other exactly what it names;
/// `File.fnmatch` with `FNM_PATHNAME | FNM_DOTMATCH` then matches it, so
/// `*` and `?` stay inside one segment, `**/` is any number of folders,
/// `**` elsewhere is `*`, and `[...]` is a character class. A leading `!`
/// (an exclusion) is the caller's.
pub(super) fn compile_gitlab(pattern: &str) -> Result<Compiled, PatternError> {
    check_length(pattern)?;
    if pattern == "*" {
        let body = vec![Seg::Any, Seg::Name(vec![Tok::Star])];
        return Ok(Compiled {
            body,
            owns: Owns::Named,
        });
    }
    let anchored = pattern.starts_with('/');
    let dir_only = pattern.ends_with('/') && pattern.len() > 1;
    let mut segments = split_segments_with(pattern, true)?;
    segments.retain(|s| !s.is_empty());
    let Some(last) = segments.len().checked_sub(1) else {
        return Err(never_matches(pattern));
    };
    let mut body = Vec::with_capacity(segments.len() + 1);
    if !anchored {
        body.push(Seg::Any);
    }
    for (i, segment) in segments.into_iter().enumerate() {
        // `**` is any number of folders only before a `/`.
        body.push(match is_double_star(&segment) && (i < last || dir_only) {
            true => Seg::Any,
            false => Seg::Name(segment),
        });
    }
    let owns = if dir_only {
        Owns::OnlyBelow
    } else {
        Owns::Named
    };
    Ok(Compiled { body, owns })
}

fn check_length(pattern: &str) -> Result<(), PatternError> {
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
    Ok(())
}

fn never_matches(pattern: &str) -> PatternError {
    PatternError {
        range: 0..pattern.len(),
        message: format!("the pattern `{pattern}` never matches anything"),
        label: "no file or directory name".into(),
        help: Some("did you mean `*`?".into()),
    }
}

// ---------------------------------------------------------------------------
// Translation

/// One piece of a path segment.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Lit(char),
    Star,
    Question,
    /// `[...]` (GitLab only): one character in (or, negated, not in) the
    /// ranges.
    Class(Box<Class>),
}

/// A bracket expression, as Ruby's `File.fnmatch` reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Class {
    negated: bool,
    ranges: Vec<(char, char)>,
}

impl Class {
    fn contains(&self, c: char) -> bool {
        self.ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != self.negated
    }
}

/// The globs (for `globset`, with `literal_separator` and backslash escapes)
/// that together match what the CODEOWNERS `pattern` matches: the tests'
/// reference for [`Compiled::matches`].
#[cfg(test)]
pub(super) fn translate(pattern: &str) -> Result<Vec<String>, PatternError> {
    reject_unsupported_start(pattern)?;
    let mut segments = split_segments(pattern)?;
    let anchored_by_slash = segments.first().is_some_and(Vec::is_empty) && segments.len() > 1;
    let dir_only = segments.len() > 1 && segments.last().is_some_and(Vec::is_empty);
    segments.retain(|s| !s.is_empty());
    if segments.is_empty() {
        return Err(never_matches(pattern));
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
    split_segments_with(pattern, false)
}

/// [`split_segments`], reading `[...]` as a character class when
/// `classes` (GitLab) and refusing brackets otherwise (GitHub).
fn split_segments_with(pattern: &str, classes: bool) -> Result<Vec<Vec<Tok>>, PatternError> {
    let mut segments: Vec<Vec<Tok>> = vec![Vec::new()];
    let mut chars = pattern.char_indices().peekable();
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
            '[' if classes => match class_at(pattern, i) {
                Some((class, end)) => {
                    current.push(Tok::Class(Box::new(class)));
                    while chars.peek().is_some_and(|&(j, _)| j < end) {
                        chars.next();
                    }
                }
                None => current.push(Tok::Lit('[')),
            },
            '[' | ']' if !classes => return Err(bracket_error(pattern, i, c)),
            _ => current.push(Tok::Lit(c)),
        }
    }
    Ok(segments)
}

/// The bracket expression starting at `pattern[at]` (`[`) and where it
/// ends, as `File.fnmatch` reads one: `!` or `^` first negates, `a-z` is a
/// range, `\` escapes, and a `]` right after the opening is a member.
/// `None` when it is not closed (then `[` is itself), or holds a `/`.
fn class_at(pattern: &str, at: usize) -> Option<(Class, usize)> {
    let mut chars = pattern[at + 1..]
        .char_indices()
        .map(|(i, c)| (at + 1 + i, c))
        .peekable();
    let negated = chars.next_if(|&(_, c)| c == '!' || c == '^').is_some();
    let mut ranges = Vec::new();
    let mut first = true;
    while let Some((i, c)) = chars.next() {
        let lo = match c {
            ']' if !first => return Some((Class { negated, ranges }, i + 1)),
            '/' => return None,
            '\\' => chars.next()?.1,
            c => c,
        };
        first = false;
        let hi = match chars.peek() {
            Some(&(_, '-')) => {
                let mut ahead = chars.clone();
                ahead.next();
                match ahead.next() {
                    Some((_, ']')) | None => lo,
                    Some((_, '\\')) => {
                        chars.next();
                        chars.next();
                        chars.next()?.1
                    }
                    Some((_, hi)) => {
                        chars.next();
                        chars.next();
                        hi
                    }
                }
            }
            _ => lo,
        };
        ranges.push((lo, hi));
    }
    None
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

#[cfg(test)]
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

#[cfg(test)]
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
            Tok::Class(_) => unreachable!("GitHub patterns have no classes"),
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

#[cfg(test)]
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
// The reference

/// Builds one glob the way the reference globs are built: `*` stops at
/// `/`, `\` escapes, and paths are case sensitive as on GitHub.
#[cfg(test)]
pub(super) fn build_glob(glob: &str) -> Result<Glob, globset::Error> {
    GlobBuilder::new(glob)
        .literal_separator(true)
        .backslash_escape(true)
        .case_insensitive(false)
        .build()
}
