//! The report formats other CI systems read: GitLab Code Quality (a JSON
//! array of issues, shown in merge requests) and JUnit XML (one test case
//! per file checked and per problem, read by GitLab, Jenkins and most CI
//! dashboards).

use std::collections::HashMap;
use std::io::{self, Write};

use serde_json::json;

use super::{FileIndex, severity_word};
use crate::diagnostic::{Diagnostic, Severity};
use crate::paths::ShownPaths;

/// A GitLab Code Quality report: `description`, `check_name` (the code),
/// `fingerprint` (unique, and stable across runs while the problem stays:
/// it hashes the code, file and message, not the line), `severity`, and
/// `location.path` (relative to the repository) with `lines.begin`.
pub(super) fn gitlab(
    out: &mut dyn Write,
    diagnostics: &[(&Diagnostic, Severity)],
    files: &FileIndex<'_>,
    paths: &ShownPaths,
) -> io::Result<()> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let issues: Vec<serde_json::Value> = diagnostics
        .iter()
        .map(|(diagnostic, severity)| {
            let position = files.position(diagnostic);
            let file = position.as_ref().map_or("book.toml", |p| p.file.as_str());
            let path = paths.annotation(file).unwrap_or_else(|| file.to_string());
            let key = format!("{}\0{path}\0{}", diagnostic.code.id(), diagnostic.message);
            let nth = seen.entry(key.clone()).or_default();
            *nth += 1;
            json!({
                "description": described(diagnostic),
                "check_name": diagnostic.code.id(),
                "fingerprint": fingerprint(&format!("{key}\0{nth}")),
                "severity": match severity {
                    Severity::Error => "major",
                    Severity::Warning => "minor",
                    Severity::Note => "info",
                },
                "location": {
                    "path": path,
                    "lines": { "begin": position.as_ref().map_or(1, |p| p.line) },
                },
            })
        })
        .collect();
    serde_json::to_writer_pretty(&mut *out, &issues)?;
    out.write_all(b"\n")
}

/// The message with its help and notes, one a line.
fn described(diagnostic: &Diagnostic) -> String {
    let mut text = diagnostic.message.clone();
    for (word, lines) in [("help", &diagnostic.help), ("note", &diagnostic.notes)] {
        for line in lines {
            text.push_str(&format!("\n{word}: {line}"));
        }
    }
    text
}

/// 128 bits of FNV-1a over `key`, as hex: stable across runs and
/// platforms (unlike `std`'s hasher), which is all a fingerprint needs.
fn fingerprint(key: &str) -> String {
    let hash = |basis: u64| {
        key.bytes().fold(basis, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    };
    format!(
        "{:016x}{:016x}",
        hash(0xcbf2_9ce4_8422_2325),
        hash(0x6c62_272e_07bb_0142)
    )
}

/// A JUnit test case: its class (the file), its name, and its problem.
type TestCase<'d> = (String, String, Option<(&'d Diagnostic, Severity)>);

/// A JUnit XML report: one test suite; in it, for every file that has
/// problems a test case per problem (`FILE:LINE:COLUMN CODE`, failing),
/// and for every other file checked one passing test case.
pub(super) fn junit(
    out: &mut dyn Write,
    diagnostics: &[(&Diagnostic, Severity)],
    files: &FileIndex<'_>,
    checked: &[&str],
) -> io::Result<()> {
    let mut cases: Vec<TestCase<'_>> = Vec::new();
    let mut with_problems = std::collections::HashSet::new();
    for &(diagnostic, severity) in diagnostics {
        let position = files.position(diagnostic);
        let file = position
            .as_ref()
            .map_or("book.toml".to_string(), |p| p.file.clone());
        let name = match &position {
            Some(p) => format!(
                "{}:{}:{} {}",
                p.file,
                p.line,
                p.column,
                diagnostic.code.id()
            ),
            None => format!("{file} {}", diagnostic.code.id()),
        };
        with_problems.insert(file.clone());
        cases.push((file, name, Some((diagnostic, severity))));
    }
    for file in checked.iter().filter(|f| !with_problems.contains(**f)) {
        cases.push((file.to_string(), file.to_string(), None));
    }
    let failures = cases.iter().filter(|c| c.2.is_some()).count();
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    let counts = format!(
        r#"tests="{}" failures="{failures}" errors="0" skipped="0""#,
        cases.len()
    );
    writeln!(out, r#"<testsuites name="mdbook-community" {counts}>"#)?;
    writeln!(out, r#"  <testsuite name="mdbook-community" {counts}>"#)?;
    for (file, name, problem) in &cases {
        write!(
            out,
            r#"    <testcase classname="{}" name="{}""#,
            xml(file),
            xml(name)
        )?;
        match problem {
            None => writeln!(out, "/>")?,
            Some((diagnostic, severity)) => {
                writeln!(out, ">")?;
                writeln!(
                    out,
                    r#"      <failure type="{}" message="{}">{}</failure>"#,
                    xml(&format!(
                        "{} {}",
                        severity_word(*severity),
                        diagnostic.code.id()
                    )),
                    xml(&diagnostic.message),
                    xml(&format!("{name}: {}", described(diagnostic)))
                )?;
                writeln!(out, "    </testcase>")?;
            }
        }
    }
    writeln!(out, "  </testsuite>")?;
    writeln!(out, "</testsuites>")
}

/// `text` as XML character data or an attribute value: markup characters
/// as references, characters XML 1.0 cannot hold (most control
/// characters) as U+FFFD.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if c < ' ' || matches!(c, '\u{fffe}' | '\u{ffff}') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_text_is_escaped_and_valid() {
        assert_eq!(
            xml("a<b>&\"c'\n\u{1}\u{1b}"),
            "a&lt;b&gt;&amp;&quot;c&apos;&#10;\u{fffd}\u{fffd}"
        );
    }

    #[test]
    fn fingerprints_are_stable_and_distinct() {
        assert_eq!(fingerprint("C401\0a\0m\0-1"), fingerprint("C401\0a\0m\0-1"));
        assert_ne!(fingerprint("C401\0a\0m\0-1"), fingerprint("C401\0a\0m\0-2"));
        assert_eq!(fingerprint("x").len(), 32);
    }
}
