//! Unit tests of `report/mod.rs`.

use super::*;
use crate::diagnostic::{Code, position_in};

#[test]
fn each_file_is_indexed_once_however_many_diagnostics_point_into_it() {
    let big = Arc::new(SourceFile::new("CODEOWNERS".into(), "x\n".repeat(100)));
    let other = Arc::new(SourceFile::new("maintainers.toml".into(), "y\n".into()));
    let at = |file: &Arc<SourceFile>, line: usize| {
        Diagnostic::error(Code::BrokenAnchor, "bad line").in_file(file, 2 * line..2 * line + 1)
    };
    let mut diagnostics: Vec<Diagnostic> = (0..100).map(|line| at(&big, line)).collect();
    diagnostics.push(at(&other, 0));
    let chapters = [ChapterSource {
        name: "a.md",
        text: "z\n",
    }];
    diagnostics.push(Diagnostic::error(Code::BrokenAnchor, "bad chapter").in_chapter(0, 0..1));
    let index = FileIndex::of(&diagnostics, &chapters);
    assert!(index.files.get(2).is_ok() && index.files.get(3).is_err());
    let position = index
        .position(&diagnostics[99])
        .expect("a position in CODEOWNERS");
    assert_eq!((position.file.as_str(), position.line), ("CODEOWNERS", 100));
    assert_eq!(
        index
            .position(&diagnostics[101])
            .expect("a position in a.md")
            .file,
        "a.md"
    );
}

fn render(diagnostics: &[Diagnostic], chapters: &[ChapterSource<'_>], gha: bool) -> String {
    let mut out = Vec::new();
    emit(
        &mut out,
        diagnostics,
        chapters,
        &EmitOptions {
            workflow_commands: gha,
            ..EmitOptions::default()
        },
    )
    .expect("writing to a Vec cannot fail");
    String::from_utf8(out).expect("diagnostics are UTF-8")
}

#[test]
fn chapter_error_shows_file_line_column_caret_and_help() {
    let text = "# Title\n\nSee {{#maintainers maintaners}} here.\n";
    let start = text.find("maintaners").expect("present");
    let d = Diagnostic::error(Code::UnknownGroup, "unknown group `maintaners`")
        .in_chapter(0, start..start + 10)
        .with_label("no group with this id")
        .with_suggestion(Some("maintainers"));
    let out = render(
        &[d],
        &[ChapterSource {
            name: "src/governance.md",
            text,
        }],
        false,
    );
    assert!(
        out.contains("error[C505]: unknown group `maintaners`"),
        "{out}"
    );
    assert!(out.contains("src/governance.md:3:20"), "{out}");
    assert!(out.contains("^^^^^^^^^^ no group with this id"), "{out}");
    assert!(out.contains("help: did you mean `maintainers`?"), "{out}");
}

#[test]
fn github_actions_command_is_escaped_and_positioned() {
    let text = "a\nb {{#x}}\n";
    let d = Diagnostic::error(Code::BrokenAnchor, "bad, really: 100%")
        .in_chapter(0, 4..10)
        .with_help("try y");
    let out = render(
        &[d],
        &[ChapterSource {
            name: "src/a,b.md",
            text,
        }],
        true,
    );
    assert!(
        out.contains("::error file=src/a%2Cb.md,line=2,col=3,title=C601 broken-anchor::bad, really: 100%25%0Ahelp: try y"),
        "{out}"
    );
}

/// Issue 38 (15): a file named with ESC and other control characters is
/// written with them escaped in `file=` and in the message, with
/// `--message-format github` and with `GITHUB_ACTIONS=true`.
#[test]
fn github_actions_commands_hold_no_control_character() {
    let name = "x\u{1b}[2J\u{1b}]0;PWNED\u{7}\u{9b}y\t/a.md";
    let d = Diagnostic::error(Code::BrokenAnchor, "bad \u{1b}[31mred\u{7}").in_chapter(0, 0..1);
    let chapters = [ChapterSource { name, text: "z\n" }];
    let mut github = Vec::new();
    emit(
        &mut github,
        std::slice::from_ref(&d),
        &chapters,
        &EmitOptions {
            format: MessageFormat::Github,
            ..EmitOptions::default()
        },
    )
    .expect("writing to a Vec cannot fail");
    let github = String::from_utf8(github).expect("UTF-8");
    for out in [render(&[d], &chapters, true), github] {
        let command = out
            .lines()
            .find(|l| l.starts_with("::error"))
            .unwrap_or_else(|| panic!("no command in {out:?}"));
        assert!(
            !command.chars().any(char::is_control),
            "a control character in {command:?}"
        );
        assert!(
            command.starts_with("::error file=x%1B[2J%1B]0;PWNED%07%C2%9By%09/a.md,line=1,col=1,"),
            "{command:?}"
        );
    }
}

/// Issue 38 (16): a SARIF `uri` relative to the repository never takes
/// its scheme from a folder name: a colon is percent-encoded.
#[test]
fn sarif_uris_take_no_scheme_from_a_folder_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let names = [
        "javascript:alert(1)/OWNERS",
        "a/b:c.md",
        "data:text/html,x.md",
    ];
    let chapters: Vec<ChapterSource<'_>> = names
        .iter()
        .map(|name| ChapterSource { name, text: "z\n" })
        .collect();
    let diagnostics: Vec<Diagnostic> = (0..names.len())
        .map(|i| Diagnostic::error(Code::BrokenAnchor, "bad").in_chapter(i, 0..1))
        .collect();
    let mut out = Vec::new();
    emit(
        &mut out,
        &diagnostics,
        &chapters,
        &EmitOptions {
            format: MessageFormat::Sarif,
            paths: ShownPaths::new(dir.path(), None, Some(dir.path())),
            ..EmitOptions::default()
        },
    )
    .expect("writing to a Vec cannot fail");
    let sarif: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let uris: Vec<&str> = results
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .expect("a uri")
        })
        .collect();
    assert_eq!(
        uris,
        [
            "javascript%3Aalert(1)/OWNERS",
            "a/b%3Ac.md",
            "data%3Atext/html,x.md"
        ]
    );
}

/// Issue 38 (1, 15, 16): a file named with a line break, ESC, `<`, `"`,
/// a colon and a backtick keeps every machine format well-formed: JSON
/// lines and SARIF parse, GitLab's report parses, JUnit holds no control
/// character XML cannot, and none writes ESC raw.
#[test]
fn a_hostile_file_name_keeps_every_format_well_formed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "javascript:x\n<img src=x>\u{1b}[2J\"`/OWNERS";
    let chapters = [ChapterSource { name, text: "z\n" }];
    let d = Diagnostic::error(Code::BrokenAnchor, "bad").in_chapter(0, 0..1);
    for format in [
        MessageFormat::Json,
        MessageFormat::Sarif,
        MessageFormat::Gitlab,
        MessageFormat::Junit,
        MessageFormat::Github,
        MessageFormat::Human,
    ] {
        let mut out = Vec::new();
        emit(
            &mut out,
            std::slice::from_ref(&d),
            &chapters,
            &EmitOptions {
                format,
                paths: ShownPaths::new(dir.path(), None, Some(dir.path())),
                ..EmitOptions::default()
            },
        )
        .expect("writing to a Vec cannot fail");
        let text = String::from_utf8(out).expect("UTF-8");
        assert!(!text.contains('\u{1b}'), "{format:?}: {text:?}");
        match format {
            MessageFormat::Json => {
                for line in text.lines() {
                    serde_json::from_str::<serde_json::Value>(line).expect("a JSON line");
                }
            }
            MessageFormat::Sarif | MessageFormat::Gitlab => {
                serde_json::from_str::<serde_json::Value>(&text).expect("JSON");
            }
            MessageFormat::Junit => {
                let bad = text
                    .chars()
                    .any(|c| c < ' ' && !matches!(c, '\t' | '\n' | '\r'));
                assert!(!bad, "{text:?}");
                assert!(!text.contains("<img"), "{text}");
            }
            MessageFormat::Github => {
                let command = text
                    .lines()
                    .find(|l| l.starts_with("::"))
                    .expect("a command");
                assert!(command.contains("file=javascript%3Ax%0A<img"), "{command}");
            }
            MessageFormat::Human => {}
        }
    }
}

#[test]
fn columns_count_characters_not_bytes() {
    let p = position_in("x.md", "héllo {{#x}}", "héllo ".len());
    assert_eq!((p.line, p.column), (1, 7));
}

#[test]
fn out_of_range_spans_do_not_panic() {
    let d = Diagnostic::error(Code::BrokenAnchor, "x").in_chapter(0, 100..200);
    let out = render(
        &[d],
        &[ChapterSource {
            name: "a.md",
            text: "é",
        }],
        true,
    );
    assert!(out.contains("error[C601]: x"));
}

/// Issue 17 (2): a long line is quoted as a window around the span, with
/// its real line and column, and after ten diagnostics of one kind in one
/// file the rest are counted in one line: output is bounded per
/// diagnostic and in all.
#[test]
fn long_lines_are_windowed_and_repeats_summarised() {
    let text = format!("{}{}\n", "x".repeat(50_000), "[a](#b) ".repeat(1_000));
    let diagnostics: Vec<Diagnostic> = (0..1_000)
        .map(|i| {
            let start = 50_000 + 8 * i + 4;
            Diagnostic::warning(
                Code::BrokenAnchor,
                format!("no heading `#b{i}` on this page"),
            )
            .in_chapter(0, start..start + 2)
            .with_label("no such anchor")
        })
        .collect();
    let chapters = [ChapterSource {
        name: "a.md",
        text: &text,
    }];
    let out = render(&diagnostics, &chapters, true);
    assert!(out.len() < 8_000, "{} bytes:\n{out}", out.len());
    assert!(out.contains("--> a.md:1:50005"), "{out}");
    assert!(out.contains("1 | ...xxxx"), "{out}");
    assert!(
        out.contains("warning: and 990 more like this in a.md: no heading `…` on this page"),
        "{out}"
    );
    assert_eq!(out.matches("::warning").count(), 10, "{out}");
    // The caret is under the span in the window.
    let line = out.lines().find(|l| l.contains("1 | ...")).expect("quoted");
    let caret = out
        .lines()
        .find(|l| l.contains("^^"))
        .expect("a caret line");
    let column = line.find("#b").expect("span in window");
    assert_eq!(caret.find('^'), Some(column), "{line}\n{caret}");
}

#[test]
fn kinds_leave_out_quoted_parts() {
    assert_eq!(
        kind_of("no heading `#a` in `x.md`"),
        "no heading `…` in `…`"
    );
    assert_eq!(kind_of("no heading \"A b\" here"), "no heading \"…\" here");
}

#[test]
fn message_formats_round_trip_by_name() {
    let names = MessageFormat::names();
    assert_eq!(
        names,
        ["human", "json", "sarif", "github", "gitlab", "junit"]
    );
    for name in names {
        let format = MessageFormat::from_name(&name).expect("a format");
        assert_eq!(format.name(), name);
    }
    assert_eq!(MessageFormat::from_name("xml"), None);
}
