//! GitLab's CODEOWNERS lines: section headers (`[Name]`, `^[Optional]`,
//! `[Name][2]`, default owners after the header), entries (a pattern, then
//! owners: `@user`, `@group`, `@group/sub/group`, `@@role`, e-mail
//! addresses), `!` exclusions, and comments, as GitLab's "Syntax of
//! CODEOWNERS file" documents them. Each problem is reported at its bytes.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use super::line::{
    classify_owner, for_each_line, is_login_char, is_space, pattern_end, pattern_error, skip_spaces,
};
use super::pattern;
use super::{Owner, OwnerKind, Parsed, Rule, Section};
use crate::diagnostic::{Code, Diagnostic, SourceFile};

/// GitLab's project roles that can own code (`@@developer`, ...).
const ROLES: &[&str] = &[
    "developer",
    "developers",
    "maintainer",
    "maintainers",
    "owner",
    "owners",
];

/// Whether `line` is a section header: `[Name]` or `^[Name]` at its start,
/// then nothing, an approval count or owners.
pub(super) fn is_section_header(line: &str) -> bool {
    header(line.trim_start()).is_some()
}

/// A header's parts: optional, the name's range, the approvals' range, and
/// where the default owners start (offsets into `line`).
struct Header {
    optional: bool,
    name: Range<usize>,
    approvals: Option<Range<usize>>,
    owners_from: usize,
}

/// `line` (from its first non-space character) read as a section header.
fn header(line: &str) -> Option<Header> {
    let optional = line.starts_with('^');
    let open = usize::from(optional);
    if line.as_bytes().get(open) != Some(&b'[') {
        return None;
    }
    let close = open + 1 + line[open + 1..].find(']')?;
    let name = open + 1..close;
    let mut after = close + 1;
    let mut approvals = None;
    if let Some(rest) = line[after..].strip_prefix('[') {
        let end = rest.find(']')?;
        approvals = Some(after + 1..after + 1 + end);
        after += end + 2;
    }
    // A header is followed by nothing or by whitespace (then owners).
    let next = line.as_bytes().get(after);
    if next.is_some_and(|&b| !is_space(b)) {
        return None;
    }
    Some(Header {
        optional,
        name,
        approvals,
        owners_from: after,
    })
}

/// What the reader keeps between lines.
struct State<'s> {
    sections: &'s mut Vec<Section>,
    /// Section index by lower-case name.
    by_name: HashMap<String, usize>,
    /// The section the lines below are in, and its header's default owners.
    current: usize,
    defaults: Vec<Owner>,
}

/// Parses every line of `file` as GitLab reads it, pushing its sections
/// (after the unnamed one already in `sections`), its rules to `parsed`
/// and the problems to `diagnostics`.
pub(super) fn parse_lines(
    file: &Arc<SourceFile>,
    sections: &mut Vec<Section>,
    parsed: &mut Vec<Parsed>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut state = State {
        sections,
        by_name: HashMap::new(),
        current: 0,
        defaults: Vec::new(),
    };
    for_each_line(file, |range, line| {
        let bytes = file.text.as_bytes();
        let start = skip_spaces(bytes, range.start, range.end);
        if start == range.end || bytes[start] == b'#' {
            return;
        }
        match header(&file.text[start..range.end]) {
            Some(found) => state.section(file, start..range.end, &found, line, diagnostics),
            None => {
                if let Some(rule) = state.entry(file, start..range.end, line, diagnostics) {
                    parsed.push(Parsed { rule });
                }
            }
        }
    });
}

impl State<'_> {
    /// A section header in `range` (from its first non-space character)
    /// of line `line`.
    fn section(
        &mut self,
        file: &Arc<SourceFile>,
        range: Range<usize>,
        found: &Header,
        line: usize,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let (text, start) = (&file.text, range.start);
        let name_range = start + found.name.start..start + found.name.end;
        let name = text[name_range.clone()].trim();
        let approvals = found.approvals.as_ref().and_then(|r| {
            let r = start + r.start..start + r.end;
            let count = text[r.clone()]
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|&n| n >= 1);
            if count.is_none() {
                diagnostics.push(
                    Diagnostic::warning(
                        Code::CodeownersSyntax,
                        "the number of approvals must be 1 or more",
                    )
                    .in_file(file, r)
                    .with_label("not a number of approvals")
                    .with_note(
                        "GitLab then requires 1 approval, as for a section without a number",
                    ),
                );
            }
            count
        });
        if name.is_empty() {
            diagnostics.push(
                Diagnostic::error(Code::CodeownersSyntax, "a section must have a name")
                    .in_file(file, start..start + found.owners_from)
                    .with_label("no name between the brackets")
                    .with_note("GitLab skips lines with invalid syntax"),
            );
            return;
        }
        let key = name.to_lowercase();
        let next = self.sections.len();
        let index = *self.by_name.entry(key).or_insert(next);
        if index == next {
            self.sections.push(Section {
                name: name.to_string(),
                optional: found.optional,
                approvals,
                line,
            });
        } else {
            // Same-named sections are one: optional only if every header
            // says so, and the most approvals any asks for.
            let section = &mut self.sections[index];
            section.optional &= found.optional;
            section.approvals = section.approvals.max(approvals);
        }
        self.current = index;
        self.defaults = owners(file, start + found.owners_from..range.end, diagnostics);
    }

    /// An entry: a pattern and its owners (the section's default owners
    /// when it names none).
    fn entry(
        &mut self,
        file: &Arc<SourceFile>,
        range: Range<usize>,
        line: usize,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Rule> {
        let bytes = file.text.as_bytes();
        let pattern_range = range.start..pattern_end(bytes, range.start, range.end);
        let written = &file.text[pattern_range.clone()];
        let excluded = written.starts_with('!');
        let rule = Rule {
            pattern: written.to_string(),
            pattern_range: pattern_range.clone(),
            owners: Vec::new(),
            line,
            section: self.current,
            excluded,
        };
        if let Err(mut e) = pattern::compile_gitlab(pattern_of(&rule)) {
            let mut start = pattern_range.start + usize::from(excluded);
            let len = pattern_range.len() - usize::from(excluded);
            if e.range.is_empty() {
                // Nothing after the `!`: the error is about the `!` itself.
                start = pattern_range.start;
                e.range = 0..pattern_range.len();
            }
            diagnostics.push(pattern_error(file, start, len, e, "GitLab"));
            return None;
        }
        let mut owners = owners(file, pattern_range.end..range.end, diagnostics);
        if owners.is_empty() && !excluded {
            owners = self.defaults.clone();
            if owners.is_empty() {
                diagnostics.push(
                    Diagnostic::warning(Code::CodeownersSyntax, "this entry has no owner")
                        .in_file(file, pattern_range)
                        .with_label("no owner after the pattern, and no default owner for its section")
                        .with_help("add owners after the pattern, or default owners after the section's header"),
                );
            }
        }
        Some(Rule { owners, ..rule })
    }
}

/// The pattern of `rule` GitLab matches: without the exclusion's `!`.
pub(super) fn pattern_of(rule: &Rule) -> &str {
    match rule.excluded {
        true => &rule.pattern[1..],
        false => &rule.pattern,
    }
}

/// The owners written in `range`: every word that is one. GitLab has no
/// inline comments: owners after a `#` count too, and the other words
/// after it are the comment's; any other word is a warning, and left out.
fn owners(
    file: &Arc<SourceFile>,
    range: Range<usize>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Owner> {
    let text = file.text.as_str();
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut in_comment = false;
    let mut pos = range.start;
    while pos < range.end {
        pos = skip_spaces(bytes, pos, range.end);
        let start = pos;
        while pos < range.end && !is_space(bytes[pos]) {
            pos += 1;
        }
        if start == pos {
            break;
        }
        let word = &text[start..pos];
        match classify(word) {
            Some(kind) => found.push(Owner {
                text: word.to_string(),
                kind,
                range: start..pos,
            }),
            None if in_comment || word.starts_with('#') => in_comment = true,
            None => diagnostics.push(
                Diagnostic::warning(
                    Code::CodeownersSyntax,
                    format!("`{word}` is not an owner GitLab reads"),
                )
                .in_file(file, start..pos)
                .with_label("expected `@user`, `@group/subgroup`, `@@role` or an e-mail address")
                .with_note("GitLab leaves it out"),
            ),
        }
    }
    found
}

/// `@user`, `@group`, `@group/sub/group`, `@@role` or an e-mail address.
/// GitLab's user and group paths may hold dots.
fn classify(owner: &str) -> Option<OwnerKind> {
    if let Some(role) = owner.strip_prefix("@@") {
        return ROLES
            .contains(&role.to_lowercase().as_str())
            .then_some(OwnerKind::Role);
    }
    let Some(path) = owner.strip_prefix('@') else {
        return classify_owner(owner);
    };
    let name_ok = |p: &str| !p.is_empty() && p.chars().all(|c| is_login_char(c) || c == '.');
    match path.contains('/') {
        false => name_ok(path).then_some(OwnerKind::User),
        true => path.split('/').all(name_ok).then_some(OwnerKind::Team),
    }
}
