//! One CODEOWNERS line: its pattern and its owners, each problem reported
//! at the bytes it is about.

use std::ops::Range;
use std::sync::Arc;

use super::pattern::{self, PatternError};
use super::{MAX_PATTERN_LEN, Owner, OwnerKind, Parsed, Rule};
use crate::diagnostic::{Code, Diagnostic, SourceFile};

/// Whitespace between tokens; `\n` never occurs, lines are split first.
pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

/// Parses every line of `file`, pushing the valid rules to `parsed` and
/// the problems of the others to `diagnostics`.
pub(super) fn parse_lines(
    file: &Arc<SourceFile>,
    parsed: &mut Vec<Parsed>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for_each_line(file, |range, line| {
        if let Some(p) = parse_line(file, range, line, diagnostics) {
            parsed.push(p);
        }
    });
}

/// Calls `each` with the range (without its line ending) and number of
/// every line of `file`, a byte-order mark left out.
pub(super) fn for_each_line(file: &SourceFile, mut each: impl FnMut(Range<usize>, usize)) {
    let text = file.text.as_str();
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut line_start = start;
    let mut line = 1;
    while line_start <= text.len() {
        let line_end = memchr::memchr(b'\n', &text.as_bytes()[line_start..])
            .map_or(text.len(), |i| line_start + i);
        // CRLF: the `\r` is not part of the line.
        let content_end = if text.as_bytes()[line_start..line_end].ends_with(b"\r") {
            line_end - 1
        } else {
            line_end
        };
        each(line_start..content_end, line);
        line_start = line_end + 1;
        line += 1;
    }
}

/// Parses one line (`range` excludes the `\n`); `None` for blank lines,
/// comments and lines with errors (reported).
fn parse_line(
    file: &Arc<SourceFile>,
    range: Range<usize>,
    line: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Parsed> {
    let bytes = file.text.as_bytes();
    let start = skip_spaces(bytes, range.start, range.end);
    if at_comment_or_end(bytes, start, range.end) {
        return None;
    }
    let pattern_range = start..pattern_end(bytes, start, range.end);
    // Both halves are checked even when the first fails, so that one run
    // reports every problem of the line.
    let valid = check_pattern(file, pattern_range.clone(), diagnostics);
    let owners = parse_owners(file, pattern_range.end..range.end, diagnostics);
    let (Some(()), Some(owners)) = (valid, owners) else {
        return None;
    };
    Some(Parsed {
        rule: Rule {
            pattern: file.text[pattern_range.clone()].to_string(),
            pattern_range,
            owners,
            line,
            section: 0,
            excluded: false,
        },
    })
}

/// The first position from `pos` that is not whitespace, or `end`.
pub(super) fn skip_spaces(bytes: &[u8], mut pos: usize, end: usize) -> usize {
    while pos < end && is_space(bytes[pos]) {
        pos += 1;
    }
    pos
}

/// Whether nothing but a comment is left at `pos`.
fn at_comment_or_end(bytes: &[u8], pos: usize, end: usize) -> bool {
    pos == end || bytes[pos] == b'#'
}

/// Where the pattern starting at `pos` ends: at unescaped whitespace.
/// Whitespace and `\` are ASCII, so stepping over single bytes never splits
/// a token inside a character.
pub(super) fn pattern_end(bytes: &[u8], mut pos: usize, end: usize) -> usize {
    while pos < end && !is_space(bytes[pos]) {
        pos += if bytes[pos] == b'\\' { 2 } else { 1 };
    }
    pos.min(end)
}

/// The globs of the pattern at `range`; `None` when it is invalid
/// (reported).
fn check_pattern(
    file: &Arc<SourceFile>,
    range: Range<usize>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<()> {
    let pattern = &file.text[range.clone()];
    match pattern::compile(pattern) {
        Ok(_) => Some(()),
        Err(e) => {
            diagnostics.push(pattern_error(file, range.start, pattern.len(), e, "GitHub"));
            None
        }
    }
}

/// `e`, about the pattern of `len` bytes at `start`, as a diagnostic.
pub(super) fn pattern_error(
    file: &Arc<SourceFile>,
    start: usize,
    len: usize,
    e: PatternError,
    host: &str,
) -> Diagnostic {
    let at = start + e.range.start..start + e.range.end;
    let mut d = Diagnostic::error(Code::CodeownersSyntax, e.message)
        .in_file(file, at)
        .with_label(e.label);
    if let Some(help) = e.help {
        d = d.with_help(help);
    }
    // The length limit is ours, not the host's: it may well use the line.
    if len <= MAX_PATTERN_LEN {
        d = d.with_note(format!("{host} skips lines with invalid syntax"));
    }
    d
}

/// The owners in `range` (after the pattern), up to a comment; `None` when
/// any is invalid, after reporting every invalid one.
fn parse_owners(
    file: &Arc<SourceFile>,
    range: Range<usize>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Vec<Owner>> {
    let text = file.text.as_str();
    let bytes = text.as_bytes();
    let end = range.end;
    let mut pos = range.start;
    let mut owners = Vec::new();
    let mut ok = true;
    let mut first = true;
    loop {
        pos = skip_spaces(bytes, pos, end);
        if at_comment_or_end(bytes, pos, end) {
            break;
        }
        let owner_start = pos;
        while pos < end && !is_space(bytes[pos]) {
            pos += 1;
        }
        let owner_range = owner_start..pos;
        let owner = &text[owner_range.clone()];
        match classify_owner(owner) {
            Some(kind) => owners.push(Owner {
                text: owner.to_string(),
                kind,
                range: owner_range,
            }),
            None => {
                ok = false;
                diagnostics.push(owner_error(file, owner, owner_range, first));
            }
        }
        first = false;
    }
    ok.then_some(owners)
}

/// `first`: the owner follows the pattern directly, so it may be the rest
/// of a path with an unescaped space.
fn owner_error(
    file: &Arc<SourceFile>,
    owner: &str,
    range: Range<usize>,
    first: bool,
) -> Diagnostic {
    let mut d = Diagnostic::error(Code::CodeownersSyntax, format!("invalid owner `{owner}`"))
        .in_file(file, range)
        .with_label("expected `@user`, `@org/team` or an e-mail address");
    let with_at = format!("@{owner}");
    if !owner.starts_with('@') && classify_owner(&with_at).is_some() {
        d = d.with_help(format!("did you mean `{with_at}`?"));
    } else if let Some(login) = owner.strip_prefix('@')
        && login.matches('/').count() > 1
    {
        d = d.with_help("a team is written `@org/team-name`, with one slash");
    }
    if first && !owner.starts_with('@') {
        d = d.with_help(format!(
            "if `{owner}` is part of the path, escape the space before it with `\\`"
        ));
    }
    d.with_note("GitHub skips lines with invalid syntax")
}

pub(super) fn is_login_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// `@login`, `@org/team` or an e-mail address; `None` for anything else.
pub(super) fn classify_owner(owner: &str) -> Option<OwnerKind> {
    if let Some(name) = owner.strip_prefix('@') {
        return match name.split_once('/') {
            None => {
                (!name.is_empty() && name.chars().all(is_login_char)).then_some(OwnerKind::User)
            }
            Some((org, team)) => (!org.is_empty()
                && !team.is_empty()
                && org.chars().all(is_login_char)
                && team.chars().all(is_login_char))
            .then_some(OwnerKind::Team),
        };
    }
    let (local, domain) = owner.split_once('@')?;
    let local_ok = !local.is_empty()
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._%+-'".contains(c));
    let labels_ok = domain.split('.').all(|label| {
        !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    });
    let tld_ok = domain
        .rsplit_once('.')
        .is_some_and(|(_, tld)| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()));
    (local_ok && labels_ok && tld_ok).then_some(OwnerKind::Email)
}
