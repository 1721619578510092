//! The report formats other CI systems read: GitLab Code Quality (a JSON
//! array of issues, shown in merge requests) and JUnit XML (one test case
//! per file checked and per problem, read by GitLab, Jenkins and most CI
//! dashboards).

use std::collections::HashMap;
use std::io::{self, Write};

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
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
/// and for every other file checked one passing test case. Written with
/// `quick-xml`, which escapes every text and attribute.
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
    write_junit(out, &cases).map_err(io::Error::other)
}

fn write_junit(out: &mut dyn Write, cases: &[TestCase<'_>]) -> quick_xml::Result<()> {
    let mut xml = Writer::new_with_indent(out, b' ', 2);
    xml.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let tests = cases.len().to_string();
    let failures = cases.iter().filter(|c| c.2.is_some()).count().to_string();
    for suite in ["testsuites", "testsuite"] {
        let mut start = BytesStart::new(suite);
        start.push_attribute(("name", "mdbook-community"));
        start.push_attribute(("tests", tests.as_str()));
        start.push_attribute(("failures", failures.as_str()));
        start.push_attribute(("errors", "0"));
        start.push_attribute(("skipped", "0"));
        xml.write_event(Event::Start(start))?;
    }
    for (file, name, problem) in cases {
        let mut case = BytesStart::new("testcase");
        case.push_attribute(("classname", valid(file).as_ref()));
        case.push_attribute(("name", valid(name).as_ref()));
        let Some((diagnostic, severity)) = problem else {
            xml.write_event(Event::Empty(case))?;
            continue;
        };
        xml.write_event(Event::Start(case))?;
        let mut failure = BytesStart::new("failure");
        let kind = format!("{} {}", severity_word(*severity), diagnostic.code.id());
        failure.push_attribute(("type", kind.as_str()));
        failure.push_attribute(("message", valid(&diagnostic.message).as_ref()));
        xml.write_event(Event::Start(failure))?;
        let body = format!("{name}: {}", described(diagnostic));
        xml.write_event(Event::Text(BytesText::new(&valid(&body))))?;
        xml.write_event(Event::End(BytesEnd::new("failure")))?;
        xml.write_event(Event::End(BytesEnd::new("testcase")))?;
    }
    for suite in ["testsuite", "testsuites"] {
        xml.write_event(Event::End(BytesEnd::new(suite)))?;
    }
    xml.get_mut().write_all(b"\n")?;
    Ok(())
}

/// `text` with the characters XML 1.0 cannot hold (control characters
/// other than tab and line breaks) as U+FFFD.
fn valid(text: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| {
        (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{fffe}' | '\u{ffff}')
    };
    if !text.chars().any(bad) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| if bad(c) { '\u{fffd}' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junit_text_is_escaped_and_valid_xml() {
        let diagnostic = Diagnostic::error(
            crate::diagnostic::Code::BrokenAnchor,
            "a<b>&\"c'\n\u{1}\u{1b}",
        );
        let cases = [(
            "f<\"".to_string(),
            "n".to_string(),
            Some((&diagnostic, Severity::Error)),
        )];
        let mut out = Vec::new();
        write_junit(&mut out, &cases).expect("written");
        let xml = String::from_utf8(out).expect("UTF-8");
        assert!(xml.contains(r#"classname="f&lt;&quot;""#), "{xml}");
        assert!(xml.contains("a&lt;b&gt;&amp;&quot;c&apos;"), "{xml}");
        assert!(!xml.contains('\u{1b}') && xml.contains('\u{fffd}'), "{xml}");
    }

    #[test]
    fn fingerprints_are_stable_and_distinct() {
        assert_eq!(fingerprint("C401\0a\0m\0-1"), fingerprint("C401\0a\0m\0-1"));
        assert_ne!(fingerprint("C401\0a\0m\0-1"), fingerprint("C401\0a\0m\0-2"));
        assert_eq!(fingerprint("x").len(), 32);
    }
}
