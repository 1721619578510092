//! Reporting: diagnostics printed like rustc prints its errors, and
//! optionally as GitHub Actions workflow commands.

mod follow_on;
mod locate;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::ops::Range;
use std::sync::Arc;

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::{Files, SimpleFiles};
use codespan_reporting::term::{self, Chars, Config, DisplayStyle};

use crate::diagnostic::{Diagnostic, Location, Position, Severity, SourceFile, clamp};
use crate::paths::ShownPaths;

pub use follow_on::collapse;
pub use locate::{map_to_files, show_paths};

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
    /// Also print GitHub Actions workflow commands, with file paths
    /// relative to the repository as these paths say.
    pub github_actions: Option<ShownPaths>,
    /// Print errors as warnings (`on-error = "warn"`).
    pub errors_as_warnings: bool,
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
        if let Some(paths) = &options.github_actions {
            let position = files.position(diagnostic).and_then(|mut p| {
                p.file = paths.annotation(&p.file)?;
                Some(p)
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

#[cfg(test)]
mod tests;
