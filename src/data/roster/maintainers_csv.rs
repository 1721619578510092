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
use crate::data::people::{Member, Person};
use crate::diagnostic::{Code, Diagnostic, Place, SourceFile};
use crate::unicode::sentence_case;

/// Reads the MAINTAINERS file at `path`.
pub(super) fn read(path: &Path, display: &str) -> Result<SourceRoster, Vec<Diagnostic>> {
    let file = crate::data::tree::read_text_file(path, display)?;
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
    let fields = split(line).map_err(|at| {
        Diagnostic::error(
            Code::SyntaxError,
            format!("{}: a quoted field is not closed", file.name),
        )
        .in_file(file, start + at..start + line.len())
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

/// The comma-separated fields of `line`, quoted or not, with their ranges;
/// the offset of an unclosed quote as the error.
fn split(line: &str) -> Result<Vec<(String, Range<usize>)>, usize> {
    let mut fields = Vec::new();
    let bytes = line.as_bytes();
    let mut at = 0;
    loop {
        while bytes.get(at) == Some(&b' ') {
            at += 1;
        }
        if bytes.get(at) == Some(&b'"') {
            let open = at;
            let mut value = String::new();
            let mut i = at + 1;
            loop {
                match line[i..].find('"') {
                    None => return Err(open),
                    Some(q) if line[i + q + 1..].starts_with('"') => {
                        value.push_str(&line[i..i + q + 1]);
                        i += q + 2;
                    }
                    Some(q) => {
                        value.push_str(&line[i..i + q]);
                        fields.push((value, open + 1..i + q));
                        at = i + q + 1;
                        break;
                    }
                }
            }
            at += line[at..].find(',').map_or(line.len() - at, |c| c);
        } else {
            let end = line[at..].find(',').map_or(line.len(), |c| at + c);
            fields.push((line[at..end].trim().to_string(), at..end));
            at = end;
        }
        if at >= line.len() {
            return Ok(fields);
        }
        at += 1; // the comma
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
        assert_eq!(split(r#""a","b"#), Err(4));
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
