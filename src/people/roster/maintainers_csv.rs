//! containerd-style `MAINTAINERS`: rows of quoted CSV, `"GitHub ID","Name",
//! "Email",...`, under `# SECTION` comment headers (`# COMMITTERS`,
//! `# REVIEWERS`), one group per section.
//!
//! Read by hand rather than with a CSV crate: the format is a handful of
//! quoted fields a line, and every field's byte range is needed for errors.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use super::{SourceGroup, SourceRoster, check_login_at, group, person_of_login};
use crate::diagnostic::{Code, Diagnostic, Place, SourceFile};
use crate::people::{Member, Person};
use crate::unicode::sentence_case;

/// Reads the MAINTAINERS file at `path`.
pub(super) fn read(path: &Path, display: &str) -> Result<SourceRoster, Vec<Diagnostic>> {
    let file = crate::files::tree::read_lines_file(path, display)?;
    let mut people: Vec<Person> = Vec::new();
    let mut groups: Vec<SourceGroup> = Vec::new();
    let mut errors = Vec::new();
    let mut offset = 0;
    for line in file.text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        if let Some(comment) = content.trim_start().strip_prefix('#') {
            if let Some(section) = section_name(comment) {
                let id = section.to_lowercase().replace(' ', "-");
                groups.push(SourceGroup {
                    group: group(&id, &sentence_case(&section.to_lowercase())),
                    by_login: Vec::new(),
                    at: Place::new(&file, start..start + content.len()),
                });
            }
            continue;
        }
        if content.trim().is_empty() {
            continue;
        }
        match row(&file, content, start) {
            Ok(person) => {
                let at = person.at.clone();
                if groups.is_empty() {
                    groups.push(SourceGroup {
                        group: group("maintainers", "Maintainers"),
                        by_login: Vec::new(),
                        at: Place::new(&file, start..start),
                    });
                }
                if let Some(last) = groups.last_mut() {
                    last.group.members.push(Member {
                        person: people.len(),
                        status: None,
                        role: None,
                        fields: Vec::new(),
                        at,
                    });
                }
                people.push(person);
            }
            Err(error) => errors.push(error),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(SourceRoster {
        files: vec![file],
        people,
        groups,
        warnings: Vec::new(),
    })
}

/// `COMMITTERS` in `# COMMITTERS`: a comment that is one upper-case word
/// (or words), not prose like `# GitHub ID, Name, Email address`.
fn section_name(comment: &str) -> Option<String> {
    let name = comment.trim();
    let is_header = !name.is_empty()
        && name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || matches!(c, ' ' | '-' | '_'));
    is_header.then(|| name.to_string())
}

/// One row: the login, the name and the e-mail address.
fn row(file: &Arc<SourceFile>, line: &str, start: usize) -> Result<Person, Diagnostic> {
    let fields = split(line).map_err(|problem| {
        let (message, at, label) = match problem {
            RowError::Unclosed(at) => ("a quoted field is not closed", at, "opened here"),
            RowError::AfterQuote(at) => (
                "text after a quoted field's closing quote",
                at,
                "neither a comma nor the end of the row",
            ),
            RowError::Tab(at) => ("fields separated by a tab", at, "a tab, not a comma"),
        };
        Diagnostic::error(Code::SyntaxError, format!("{}: {message}", file.name))
            .in_file(file, start + at..start + line.len())
            .with_label(label)
            .with_help("rows are \"GitHub ID\",\"Name\",\"Email\",...")
    })?;
    let Some((login, range)) = fields.first().filter(|(l, _)| !l.is_empty()) else {
        return Err(Diagnostic::error(
            Code::InvalidData,
            format!("{}: a row without a GitHub ID", file.name),
        )
        .in_file(file, start..start + line.len()));
    };
    let at = Place::new(file, start + range.start..start + range.end);
    check_login_at(login, &at)?;
    let mut person = person_of_login(login, &at);
    if let Some((name, _)) = fields.get(1).filter(|(n, _)| !n.trim().is_empty()) {
        person.name = name.clone();
    }
    person.email = fields
        .get(2)
        .map(|(e, _)| e.clone())
        .filter(|e| !e.is_empty());
    Ok(person)
}

/// Why a row cannot be split into fields, at an offset in the row.
#[derive(Debug, PartialEq)]
enum RowError {
    /// A quote that is not closed, where it opens.
    Unclosed(usize),
    /// Text between a closing quote and the next comma (`"alice"junk`),
    /// which would be lost.
    AfterQuote(usize),
    /// A tab outside quotes: a tab-separated row would read as one field.
    Tab(usize),
}

/// The comma-separated fields of `line`, quoted or not, with their ranges.
fn split(line: &str) -> Result<Vec<(String, Range<usize>)>, RowError> {
    let mut fields = Vec::new();
    let bytes = line.as_bytes();
    let mut at = 0;
    loop {
        while bytes.get(at) == Some(&b' ') {
            at += 1;
        }
        if bytes.get(at) == Some(&b'"') {
            let (value, range, end) = quoted(line, at)?;
            fields.push((value, range));
            at = end + line[end..].bytes().take_while(|&b| b == b' ').count();
            if at < line.len() && bytes[at] != b',' {
                return Err(RowError::AfterQuote(at));
            }
        } else {
            let end = line[at..].find(',').map_or(line.len(), |c| at + c);
            if let Some(tab) = line[at..end].find('\t') {
                return Err(RowError::Tab(at + tab));
            }
            fields.push((line[at..end].trim().to_string(), at..end));
            at = end;
        }
        if at >= line.len() {
            return Ok(fields);
        }
        at += 1; // the comma
    }
}

/// The quoted field opening at `open`: its value (`""` read as `"`), the
/// range of its text, and the offset after its closing quote.
fn quoted(line: &str, open: usize) -> Result<(String, Range<usize>, usize), RowError> {
    let mut value = String::new();
    let mut i = open + 1;
    loop {
        match line[i..].find('"') {
            None => return Err(RowError::Unclosed(open)),
            Some(q) if line[i + q + 1..].starts_with('"') => {
                value.push_str(&line[i..i + q + 1]);
                i += q + 2;
            }
            Some(q) => {
                value.push_str(&line[i..i + q]);
                return Ok((value, open + 1..i + q, i + q + 1));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_fields_with_commas_and_quotes() {
        let fields = split(r#""a","B, C","x""y",plain ,"#).expect("closed");
        let values: Vec<&str> = fields.iter().map(|(v, _)| v.as_str()).collect();
        assert_eq!(values, ["a", "B, C", "x\"y", "plain", ""]);
        assert_eq!(fields[0].1, 1..2);
        assert_eq!(split(r#""a","b"#), Err(RowError::Unclosed(4)));
    }

    /// Issue 26 (16): nothing in a row is dropped without a word.
    #[test]
    fn text_after_a_quote_and_tabs_are_errors() {
        assert_eq!(split(r#""alice"junk,"A""#), Err(RowError::AfterQuote(7)));
        assert_eq!(split(r#""alice" ,"A" "#).map(|f| f.len()), Ok(2));
        assert_eq!(split("alice\tAlice\ta@example.com"), Err(RowError::Tab(5)));
        assert_eq!(split("\"a\tb\",c").map(|f| f.len()), Ok(2));
    }

    #[test]
    fn section_headers_are_upper_case_words() {
        assert_eq!(section_name(" COMMITTERS"), Some("COMMITTERS".into()));
        assert_eq!(
            section_name(" SECURITY ADVISORS"),
            Some("SECURITY ADVISORS".into())
        );
        assert_eq!(section_name(" GitHub ID, Name, Email address"), None);
        assert_eq!(section_name(""), None);
        assert_eq!(sentence_case(&"REVIEWERS".to_lowercase()), "Reviewers");
    }
}
