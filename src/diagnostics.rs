//! Diagnostics: collected during a run, printed at the end like rustc prints
//! its errors, and optionally as GitHub Actions workflow commands.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::ops::Range;
use std::sync::Arc;

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::{Files, SimpleFiles};
use codespan_reporting::term::{self, Chars, Config, DisplayStyle};

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Printed, but the book is still written.
    Warning,
    /// Fails the build (unless `on-error = "warn"`).
    Error,
}

/// A text file a diagnostic can point into that is not a chapter
/// (a data file, `book.toml`, CONTRIBUTING.md, ...).
#[derive(Debug)]
pub struct SourceFile {
    /// The path shown to the user, relative to the book root where possible.
    pub name: String,
    /// The file's text.
    pub text: String,
}

/// Where a diagnostic points.
#[derive(Debug, Clone)]
pub enum Location {
    /// A byte range in the content of chapter `chapter` (its index in book order).
    Chapter {
        /// Index of the chapter in book order.
        chapter: usize,
        /// Byte range in the chapter's content as mdBook passed it.
        range: Range<usize>,
    },
    /// A byte range in another file.
    File {
        /// The file.
        file: Arc<SourceFile>,
        /// Byte range in the file's text.
        range: Range<usize>,
    },
    /// A whole file, without a position (for example one that cannot be read).
    Path(String),
}

/// One problem found during a run.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The headline, without a trailing period.
    pub message: String,
    /// Where it is; `None` for problems with the run as a whole.
    pub location: Option<Location>,
    /// Text printed under the caret.
    pub label: String,
    /// `help:` lines (suggestions).
    pub help: Vec<String>,
    /// `note:` lines (context).
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A new error with no location.
    pub fn error(message: impl Into<String>) -> Self {
        Self::new(Severity::Error, message)
    }

    /// A new warning with no location.
    pub fn warning(message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, message)
    }

    fn new(severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            message: message.into(),
            location: None,
            label: String::new(),
            help: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Points the diagnostic at `range` in chapter `chapter`.
    pub fn in_chapter(mut self, chapter: usize, range: Range<usize>) -> Self {
        self.location = Some(Location::Chapter { chapter, range });
        self
    }

    /// Points the diagnostic at `range` in `file`.
    pub fn in_file(mut self, file: &Arc<SourceFile>, range: Range<usize>) -> Self {
        self.location = Some(Location::File {
            file: Arc::clone(file),
            range,
        });
        self
    }

    /// Points the diagnostic at a whole file.
    pub fn at_path(mut self, path: impl Into<String>) -> Self {
        self.location = Some(Location::Path(path.into()));
        self
    }

    /// Sets the text printed under the caret.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Adds a `help:` line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help.push(help.into());
        self
    }

    /// Adds a `help: did you mean ...?` line when `suggestion` is some.
    pub fn with_suggestion(self, suggestion: Option<impl std::fmt::Display>) -> Self {
        match suggestion {
            Some(s) => self.with_help(format!("did you mean `{s}`?")),
            None => self,
        }
    }

    /// Adds a `note:` line.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Turns the diagnostic into a warning.
    pub fn as_warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Maps a chapter location's byte range through `map` (used when a
    /// fragment, such as a FAQ body, was scanned on its own).
    pub fn map_range(mut self, map: &dyn Fn(usize) -> usize) -> Self {
        if let Some(Location::Chapter { range, .. }) = &mut self.location {
            let start = map(range.start);
            let end = if range.start >= range.end {
                start
            } else {
                map(range.end - 1) + 1
            };
            *range = start..end.max(start);
        }
        self
    }

    /// Sets the chapter a chapter location refers to.
    pub fn for_chapter(mut self, index: usize) -> Self {
        if let Some(Location::Chapter { chapter, .. }) = &mut self.location {
            *chapter = index;
        }
        self
    }
}

/// A chapter as far as diagnostics care: its display path and its text.
#[derive(Debug, Clone, Copy)]
pub struct ChapterSource<'a> {
    /// Path relative to the book root, e.g. `src/governance.md`.
    pub name: &'a str,
    /// The content mdBook passed for it.
    pub text: &'a str,
}

/// How diagnostics are printed.
#[derive(Debug, Clone, Default)]
pub struct EmitOptions {
    /// Use ANSI colours.
    pub color: bool,
    /// Also print GitHub Actions workflow commands, with file paths prefixed
    /// by this (the book root relative to the repository root, e.g. `docs/`).
    pub github_actions: Option<String>,
    /// Print errors as warnings (`on-error = "warn"`).
    pub errors_as_warnings: bool,
}

/// A resolved position: file name, 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// File path as shown.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// Prints diagnostics in the order given.
pub fn emit(
    out: &mut dyn Write,
    diagnostics: &[Diagnostic],
    chapters: &[ChapterSource<'_>],
    options: &EmitOptions,
) -> io::Result<()> {
    let files = FileIndex::of(diagnostics, chapters);
    let config = Config {
        display_style: DisplayStyle::Rich,
        chars: Chars::ascii(),
        ..Config::default()
    };
    let mut buffer = Vec::new();
    for diagnostic in diagnostics {
        let severity = effective_severity(diagnostic, options);
        let mut cs = CsDiagnostic::new(match severity {
            Severity::Error => CsSeverity::Error,
            Severity::Warning => CsSeverity::Warning,
        })
        .with_message(&diagnostic.message);
        match &diagnostic.location {
            Some(Location::Path(path)) => cs = cs.with_notes(vec![format!("in {path}")]),
            Some(_) => {
                if let Some((id, range)) = files.span(diagnostic) {
                    cs = cs.with_labels(vec![
                        Label::primary(id, range).with_message(&diagnostic.label),
                    ]);
                }
            }
            None => {}
        }
        cs.notes
            .extend(diagnostic.help.iter().map(|h| format!("help: {h}")));
        cs.notes
            .extend(diagnostic.notes.iter().map(|n| format!("note: {n}")));

        buffer.clear();
        if render_one(&mut buffer, &config, &files.files, &cs, options.color).is_err() {
            // Rendering can only fail on an out-of-range span, which `clamp`
            // prevents; fall back to the headline alone.
            buffer.clear();
            writeln!(
                buffer,
                "{}: {}",
                severity_word(severity),
                diagnostic.message
            )?;
        }
        out.write_all(&buffer)?;
        if let Some(prefix) = &options.github_actions {
            let position = files.position(diagnostic).map(|mut p| {
                p.file = format!("{prefix}{}", p.file);
                p
            });
            writeln!(
                out,
                "{}",
                workflow_command(diagnostic, severity, position.as_ref())
            )?;
        }
    }
    Ok(())
}

/// The files diagnostics point into, each added (and its lines indexed) once
/// however many diagnostics point into it: only those chapters and data files,
/// since most chapters of a book have nothing to report.
struct FileIndex<'a> {
    files: SimpleFiles<&'a str, &'a str>,
    chapter_ids: Vec<Option<usize>>,
    /// Data files by address: diagnostics share one `Arc` per file.
    data_ids: HashMap<*const SourceFile, usize>,
}

impl<'a> FileIndex<'a> {
    fn of(diagnostics: &'a [Diagnostic], chapters: &[ChapterSource<'a>]) -> Self {
        let mut index = FileIndex {
            files: SimpleFiles::new(),
            chapter_ids: vec![None; chapters.len()],
            data_ids: HashMap::new(),
        };
        for diagnostic in diagnostics {
            match &diagnostic.location {
                Some(Location::Chapter { chapter, .. }) => {
                    if let (Some(slot @ None), Some(source)) =
                        (index.chapter_ids.get_mut(*chapter), chapters.get(*chapter))
                    {
                        *slot = Some(index.files.add(source.name, source.text));
                    }
                }
                Some(Location::File { file, .. }) => {
                    let files = &mut index.files;
                    index
                        .data_ids
                        .entry(Arc::as_ptr(file))
                        .or_insert_with(|| files.add(file.name.as_str(), file.text.as_str()));
                }
                _ => {}
            }
        }
        index
    }

    /// The file id and clamped byte range a diagnostic points at.
    fn span(&self, diagnostic: &Diagnostic) -> Option<(usize, Range<usize>)> {
        let (id, range) = match diagnostic.location.as_ref()? {
            Location::Chapter { chapter, range } => ((*self.chapter_ids.get(*chapter)?)?, range),
            Location::File { file, range } => (*self.data_ids.get(&Arc::as_ptr(file))?, range),
            Location::Path(_) => return None,
        };
        let text = self.files.source(id).ok()?;
        Some((id, clamp(range.clone(), text)))
    }

    /// File, line and column of a diagnostic (1-based; columns in characters).
    fn position(&self, diagnostic: &Diagnostic) -> Option<Position> {
        if let Some(Location::Path(path)) = &diagnostic.location {
            return Some(Position {
                file: path.clone(),
                line: 1,
                column: 1,
            });
        }
        let (id, range) = self.span(diagnostic)?;
        let location = self.files.location(id, range.start).ok()?;
        Some(Position {
            file: self.files.name(id).ok()?.to_string(),
            line: location.line_number,
            column: location.column_number,
        })
    }
}

fn render_one<'f, F: Files<'f, FileId = usize>>(
    buffer: &mut Vec<u8>,
    config: &Config,
    files: &'f F,
    diagnostic: &CsDiagnostic<usize>,
    color: bool,
) -> Result<(), codespan_reporting::files::Error> {
    if color {
        let mut writer = term::termcolor::Ansi::new(buffer);
        term::emit_to_write_style(&mut writer, config, files, diagnostic)
    } else {
        term::emit_to_io_write(buffer, config, files, diagnostic)
    }
}

fn effective_severity(diagnostic: &Diagnostic, options: &EmitOptions) -> Severity {
    if options.errors_as_warnings {
        Severity::Warning
    } else {
        diagnostic.severity
    }
}

fn severity_word(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn clamp(range: Range<usize>, text: &str) -> Range<usize> {
    let mut start = range.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = range.end.clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

/// 1-based line and character column of byte `offset` in `text`.
pub fn position_in(name: &str, text: &str, offset: usize) -> Position {
    let mut files: SimpleFiles<&str, &str> = SimpleFiles::new();
    let id = files.add(name, text);
    let offset = clamp(offset..offset, text).start;
    let location = files.location(id, offset).ok();
    Position {
        file: name.to_string(),
        line: location.as_ref().map_or(1, |l| l.line_number),
        column: location.as_ref().map_or(1, |l| l.column_number),
    }
}

/// A GitHub Actions workflow command for one diagnostic.
fn workflow_command(
    diagnostic: &Diagnostic,
    severity: Severity,
    position: Option<&Position>,
) -> String {
    let mut command = String::from("::");
    command.push_str(severity_word(severity));
    if let Some(p) = position {
        let _ = write!(
            command,
            " file={},line={},col={}",
            escape_property(&p.file),
            p.line,
            p.column
        );
    }
    command.push_str("::");
    let mut message = diagnostic.message.clone();
    for help in &diagnostic.help {
        let _ = write!(message, "\nhelp: {help}");
    }
    command.push_str(&escape_data(&message));
    command
}

fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// The closest of `candidates` to `input`, if any is close enough to be a
/// plausible typo (Jaro-Winkler similarity, or a tiny edit distance).
pub fn did_you_mean<'a, I>(input: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let lowered = input.to_lowercase();
    let mut best: Option<(f64, &'a str)> = None;
    for candidate in candidates {
        let score = strsim::jaro_winkler(&lowered, &candidate.to_lowercase());
        let close = score >= 0.8
            || strsim::damerau_levenshtein(&lowered, &candidate.to_lowercase()) <= 2
                && candidate.chars().count() > 2;
        if close && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, candidate));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_file_is_indexed_once_however_many_diagnostics_point_into_it() {
        let big = Arc::new(SourceFile {
            name: "CODEOWNERS".into(),
            text: "x\n".repeat(100),
        });
        let other = Arc::new(SourceFile {
            name: "maintainers.toml".into(),
            text: "y\n".into(),
        });
        let at = |file: &Arc<SourceFile>, line: usize| {
            Diagnostic::error("bad line").in_file(file, 2 * line..2 * line + 1)
        };
        let mut diagnostics: Vec<Diagnostic> = (0..100).map(|line| at(&big, line)).collect();
        diagnostics.push(at(&other, 0));
        let chapters = [ChapterSource {
            name: "a.md",
            text: "z\n",
        }];
        diagnostics.push(Diagnostic::error("bad chapter").in_chapter(0, 0..1));
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
                github_actions: gha.then(String::new),
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
        let d = Diagnostic::error("unknown group `maintaners`")
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
        assert!(out.contains("error: unknown group `maintaners`"), "{out}");
        assert!(out.contains("src/governance.md:3:20"), "{out}");
        assert!(out.contains("^^^^^^^^^^ no group with this id"), "{out}");
        assert!(out.contains("help: did you mean `maintainers`?"), "{out}");
    }

    #[test]
    fn github_actions_command_is_escaped_and_positioned() {
        let text = "a\nb {{#x}}\n";
        let d = Diagnostic::error("bad, really: 100%")
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
            out.contains(
                "::error file=src/a%2Cb.md,line=2,col=3::bad, really: 100%25%0Ahelp: try y"
            ),
            "{out}"
        );
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let p = position_in("x.md", "héllo {{#x}}", "héllo ".len());
        assert_eq!((p.line, p.column), (1, 7));
    }

    #[test]
    fn out_of_range_spans_do_not_panic() {
        let d = Diagnostic::error("x").in_chapter(0, 100..200);
        let out = render(
            &[d],
            &[ChapterSource {
                name: "a.md",
                text: "é",
            }],
            true,
        );
        assert!(out.contains("error: x"));
    }

    #[test]
    fn suggestions_find_typos_only() {
        let names = ["maintainers", "core", "emeritus"];
        assert_eq!(did_you_mean("maintaners", names), Some("maintainers"));
        assert_eq!(did_you_mean("Core", names), Some("core"));
        assert_eq!(did_you_mean("zzz", names), None);
    }
}
