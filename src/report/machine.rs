//! Diagnostics for programs: JSON lines (as `cargo --message-format json`)
//! and one SARIF 2.1.0 document (as GitHub code scanning reads it). Both
//! are built as `serde_json` values, so whatever a message holds (quotes,
//! newlines, control characters) the output stays valid JSON.

use std::io::{self, Write};

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use serde_json::{Value, json};

use super::{FileIndex, severity_word};
use crate::diagnostic::{Diagnostic, Position, Severity, all_codes};
use crate::paths::ShownPaths;

/// Where a diagnostic starts and ends (the end is the position after its
/// last character, as in SARIF and cargo's JSON).
pub(super) struct Region {
    pub start: Position,
    pub end: Position,
}

/// One JSON object a line: `severity`, `code`, `message`, `file` (relative
/// to the book root), `line`, `column`, `end_line`, `end_column`, `label`,
/// `help` and `notes`.
pub(super) fn json_lines(
    out: &mut dyn Write,
    diagnostics: &[(&Diagnostic, Severity)],
    files: &FileIndex<'_>,
) -> io::Result<()> {
    for (diagnostic, severity) in diagnostics {
        let region = files.region(diagnostic);
        let at = |f: fn(&Region) -> usize| region.as_ref().map(f);
        let line = json!({
            "severity": severity_word(*severity),
            "code": diagnostic.code.id(),
            "message": diagnostic.message,
            "file": region.as_ref().map(|r| r.start.file.as_str()),
            "line": at(|r| r.start.line),
            "column": at(|r| r.start.column),
            "end_line": at(|r| r.end.line),
            "end_column": at(|r| r.end.column),
            "label": diagnostic.label,
            "help": diagnostic.help,
            "notes": diagnostic.notes,
        });
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Where the tool and its rules are documented.
const INFORMATION_URI: &str = env!("CARGO_PKG_REPOSITORY");

/// The error reference in the guide, where each code has a section.
const ERRORS_PAGE: &str =
    "https://github.com/mdbook-community/mdbook-community/blob/main/book/errors.md";

/// One SARIF 2.1.0 document: a rule per code, a result per diagnostic,
/// with paths relative to the repository (`%SRCROOT%`).
pub(super) fn sarif(
    out: &mut dyn Write,
    diagnostics: &[(&Diagnostic, Severity)],
    files: &FileIndex<'_>,
    paths: &ShownPaths,
) -> io::Result<()> {
    let rules: Vec<Value> = all_codes()
        .map(|code| {
            let anchor = format!("{}-{}", code.id().to_lowercase(), code.name());
            json!({
                "id": code.id(),
                "name": code.name(),
                "shortDescription": { "text": code.summary() },
                "fullDescription": { "text": code.summary() },
                "help": { "text": code.fix() },
                "helpUri": format!("{ERRORS_PAGE}#{anchor}"),
                "defaultConfiguration": { "level": code.default_level().sarif() },
            })
        })
        .collect();
    let results: Vec<Value> = diagnostics
        .iter()
        .map(|(d, severity)| result(d, *severity, files, paths))
        .collect();
    let document = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": env!("CARGO_PKG_NAME"),
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": INFORMATION_URI,
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "originalUriBaseIds": base_ids(paths),
            "results": results,
        }],
    });
    serde_json::to_writer_pretty(&mut *out, &document)?;
    out.write_all(b"\n")
}

fn result(
    diagnostic: &Diagnostic,
    severity: Severity,
    files: &FileIndex<'_>,
    paths: &ShownPaths,
) -> Value {
    let mut text = diagnostic.message.clone();
    for (word, lines) in [("help", &diagnostic.help), ("note", &diagnostic.notes)] {
        for line in lines {
            text.push_str(&format!("\n{word}: {line}"));
        }
    }
    let rule_index = all_codes().position(|c| c == diagnostic.code);
    let mut result = json!({
        "ruleId": diagnostic.code.id(),
        "ruleIndex": rule_index,
        "level": severity_word(severity),
        "message": { "text": text },
    });
    // GitHub code scanning shows a result at a place only; one without a
    // position points at the top of `book.toml`.
    let (file, region) = match files.region(diagnostic) {
        Some(r) => (r.start.file.clone(), Some(r)),
        None => ("book.toml".to_string(), None),
    };
    let mut physical = json!({ "artifactLocation": artifact(&file, paths) });
    if let Some(r) = region {
        physical["region"] = json!({
            "startLine": r.start.line,
            "startColumn": r.start.column,
            "endLine": r.end.line,
            "endColumn": at_least_one_character(&r),
        });
    }
    result["locations"] = json!([{ "physicalLocation": physical }]);
    result
}

/// The end column, one past the start for an empty span on one line:
/// code scanning highlights at least the character a result points at.
fn at_least_one_character(region: &Region) -> usize {
    if region.end.line == region.start.line && region.end.column <= region.start.column {
        region.start.column + 1
    } else {
        region.end.column
    }
}

/// Characters a SARIF `uri` (a URI reference) cannot hold as they are.
const URI_PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// Characters a relative `uri` cannot hold as they are: [`URI_PATH`]'s and
/// `:`, so that a folder named `javascript:x` is never read as a scheme
/// (issue 38, 16).
const RELATIVE_URI_PATH: &AsciiSet = &URI_PATH.add(b':');

/// The artifact location of `file` (relative to the book root, or
/// absolute): relative to the repository where it is inside it.
fn artifact(file: &str, paths: &ShownPaths) -> Value {
    match paths.annotation(file) {
        Some(inside) => json!({
            "uri": utf8_percent_encode(&inside, RELATIVE_URI_PATH).to_string(),
            "uriBaseId": "%SRCROOT%",
        }),
        // Outside the repository: an absolute `file:` URI, `..`s resolved.
        None => match paths.absolute(file) {
            Some(absolute) => json!({ "uri": file_uri(&absolute, false) }),
            None => {
                json!({ "uri": utf8_percent_encode(&crate::paths::forward_slashes(file), RELATIVE_URI_PATH).to_string() })
            }
        },
    }
}

/// Where `%SRCROOT%` is, for a SARIF reader that wants it (GitHub code
/// scanning knows its own checkout).
fn base_ids(paths: &ShownPaths) -> Value {
    match paths.annotation_root() {
        Some(root) => json!({ "%SRCROOT%": { "uri": file_uri(root, true) } }),
        None => json!({}),
    }
}

/// The `file:` URI of the absolute path `path` (a folder's ends in `/`).
fn file_uri(path: &std::path::Path, folder: bool) -> String {
    let shown = crate::paths::forward_slashes(&crate::paths::display(path));
    let mut uri = format!(
        "file:///{}",
        utf8_percent_encode(shown.trim_start_matches('/'), URI_PATH)
    );
    if folder && !uri.ends_with('/') {
        uri.push('/');
    }
    uri
}
