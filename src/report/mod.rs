//! Reporting: diagnostics printed like rustc prints its errors, and
//! optionally as GitHub Actions workflow commands.

mod ci;
mod follow_on;
mod locate;
mod machine;
mod reporter;
mod shown;

use std::borrow::Cow;
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
pub use reporter::{Environment, Reporter, run_error};
pub use shown::line as shown_line;

/// A chapter as far as diagnostics care: its display path and its text.
#[derive(Debug, Clone, Copy)]
pub struct ChapterSource<'a> {
    /// Path relative to the book root, e.g. `src/governance.md`.
    pub name: &'a str,
    /// The content mdBook passed for it.
    pub text: &'a str,
}

/// The shape diagnostics are printed in (`--message-format`,
/// `MDBOOK_COMMUNITY_MESSAGE_FORMAT`); clap derives the names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum MessageFormat {
    /// As rustc prints them: the line, a caret, help and notes (on stderr).
    #[default]
    Human,
    /// One JSON object a line.
    Json,
    /// One SARIF 2.1.0 document.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// A GitLab Code Quality report (a JSON array of issues).
    Gitlab,
    /// A JUnit XML report: a test case per file checked and per problem.
    Junit,
}

impl MessageFormat {
    /// The format named `name`, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        clap::ValueEnum::from_str(name, false).ok()
    }

    /// The format's name, as `--message-format` takes it.
    pub fn name(self) -> String {
        let value = clap::ValueEnum::to_possible_value(&self);
        value.map_or_else(String::new, |v| v.get_name().to_string())
    }

    /// Every format's name.
    pub fn names() -> Vec<String> {
        let all = <MessageFormat as clap::ValueEnum>::value_variants();
        all.iter().map(|f| f.name()).collect()
    }

    /// Whether the format is for programs: every diagnostic is printed,
    /// none summarised, and files are named relative to the book root.
    pub fn is_machine(self) -> bool {
        !matches!(self, MessageFormat::Human | MessageFormat::Github)
    }
}

/// How diagnostics are printed.
#[derive(Debug, Clone, Default)]
pub struct EmitOptions {
    /// The shape of the output.
    pub format: MessageFormat,
    /// Use ANSI colours.
    pub color: bool,
    /// How files are named in annotations and SARIF (relative to the
    /// repository).
    pub paths: ShownPaths,
    /// With the human format, also print GitHub Actions workflow commands
    /// (`GITHUB_ACTIONS=true`).
    pub workflow_commands: bool,
    /// Print errors as warnings (`on-error = "warn"`).
    pub errors_as_warnings: bool,
}

/// At most this many diagnostics of one kind (see [`kind_of`]) are printed
/// for one file; the rest are counted and summarised in one line.
pub const MAX_PER_KIND: usize = 10;

/// A source line longer than this many bytes is quoted as a window around
/// the span ([`Excerpt`]), so that a diagnostic's size does not grow with
/// its line.
const LONG_LINE: usize = 200;

/// Bytes of context shown on each side of the span in a long line, and the
/// most of the span itself.
const WINDOW_CONTEXT: usize = 60;
const WINDOW_SPAN: usize = 80;

/// Prints diagnostics in the order given: each at most [`MAX_PER_KIND`]
/// times per kind and file, then one line for the rest.
pub fn emit(
    out: &mut dyn Write,
    diagnostics: &[Diagnostic],
    chapters: &[ChapterSource<'_>],
    options: &EmitOptions,
) -> io::Result<()> {
    // The machine formats and annotations give each place of a finding
    // its own result; the terminal shows the others in a note.
    let placed: Vec<Diagnostic>;
    let diagnostics = match options.format {
        MessageFormat::Human => diagnostics,
        _ => {
            placed = diagnostics
                .iter()
                .flat_map(Diagnostic::each_place)
                .collect();
            &placed[..]
        }
    };
    let files = FileIndex::of(diagnostics, chapters);
    if options.format.is_machine() {
        return emit_for_programs(out, diagnostics, chapters, &files, options);
    }
    let mut seen: HashMap<(String, Severity, String), usize> = HashMap::new();
    let mut hidden: Vec<(String, Severity, String)> = Vec::new();
    let mut buffer = Vec::new();
    for diagnostic in diagnostics {
        let severity = effective_severity(diagnostic, options);
        let file = files.file_key(diagnostic);
        let key = (file.clone(), severity, kind_of(&diagnostic.message));
        let count = seen.entry(key.clone()).or_default();
        *count += 1;
        if *count > MAX_PER_KIND {
            if *count == MAX_PER_KIND + 1 {
                hidden.push(key);
            }
            continue;
        }
        if options.format == MessageFormat::Human {
            buffer.clear();
            render(&mut buffer, diagnostic, severity, &files, options.color)?;
            out.write_all(&buffer)?;
        }
        if options.format == MessageFormat::Github || options.workflow_commands {
            let position = files.position(diagnostic).and_then(|mut p| {
                p.file = options.paths.annotation(&p.file)?;
                Some(p)
            });
            writeln!(
                out,
                "{}",
                workflow_command(diagnostic, severity, position.as_ref())
            )?;
        }
    }
    for key in hidden {
        let count = seen.get(&key).map_or(0, |n| n - MAX_PER_KIND);
        let (file, severity, kind) = key;
        let place = files.display_name(&file);
        let line = format!("and {} more like this{place}: {kind}", thousands(count));
        match options.format {
            MessageFormat::Github => writeln!(out, "::notice::{}", escape_data(&line))?,
            _ => writeln!(out, "{}: {}\n", severity_word(severity), shown::line(&line))?,
        }
    }
    Ok(())
}

/// Every diagnostic in a machine format, none summarised.
fn emit_for_programs(
    out: &mut dyn Write,
    diagnostics: &[Diagnostic],
    chapters: &[ChapterSource<'_>],
    files: &FileIndex<'_>,
    options: &EmitOptions,
) -> io::Result<()> {
    let all: Vec<(&Diagnostic, Severity)> = diagnostics
        .iter()
        .map(|d| (d, effective_severity(d, options)))
        .collect();
    match options.format {
        MessageFormat::Sarif => machine::sarif(out, &all, files, &options.paths),
        MessageFormat::Gitlab => ci::gitlab(out, &all, files, &options.paths),
        MessageFormat::Junit => {
            let checked: Vec<&str> = (chapters.iter())
                .map(|c| c.name)
                .filter(|n| !n.is_empty())
                .collect();
            ci::junit(out, &all, files, &checked)
        }
        _ => machine::json_lines(out, &all, files),
    }
}

/// Renders one diagnostic into `buffer`, quoting a window of a long line.
fn render(
    buffer: &mut Vec<u8>,
    diagnostic: &Diagnostic,
    severity: Severity,
    files: &FileIndex<'_>,
    color: bool,
) -> io::Result<()> {
    let config = Config {
        display_style: DisplayStyle::Rich,
        chars: Chars::ascii(),
        ..Config::default()
    };
    let mut cs = CsDiagnostic::new(match severity {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
        Severity::Note => CsSeverity::Note,
    })
    .with_code(diagnostic.code.id())
    .with_message(shorten(&diagnostic.message));
    let mut excerpt = None;
    match &diagnostic.location {
        Some(Location::Path(path)) => cs = cs.with_notes(vec![format!("in {}", shown::line(path))]),
        Some(_) => {
            if let Some((id, range)) = files.shown_span(diagnostic) {
                let (range, window) = match Excerpt::of(&files.shown, id, range.clone()) {
                    Some((excerpt, range)) => (range, Some(excerpt)),
                    None => (range, None),
                };
                excerpt = window;
                let label = Label::primary(id, range).with_message(shorten(&diagnostic.label));
                cs = cs.with_labels(vec![label]);
            }
        }
        None => {}
    }
    cs.notes.extend(
        diagnostic
            .help
            .iter()
            .map(|h| format!("help: {}", shorten(h))),
    );
    cs.notes.extend(
        diagnostic
            .notes
            .iter()
            .map(|n| format!("note: {}", shorten(n))),
    );
    let rendered = match &excerpt {
        Some(excerpt) => render_one(buffer, &config, excerpt, &cs, color),
        None => render_one(buffer, &config, &files.shown, &cs, color),
    };
    if rendered.is_err() {
        // Rendering can only fail on an out-of-range span, which `clamp`
        // prevents; fall back to the headline alone.
        buffer.clear();
        writeln!(
            buffer,
            "{}: {}",
            severity_word(severity),
            shorten(&diagnostic.message)
        )?;
    }
    Ok(())
}

/// At most this many characters of a message, label, help or note are
/// printed: a message may quote data (an anchor, a heading) of any length.
const MAX_TEXT: usize = 1000;

/// `text` as printed: on one line (see [`shown`]), cut to [`MAX_TEXT`]
/// characters with a note of how many more there were.
fn shorten(text: &str) -> Cow<'_, str> {
    let Some((cut, _)) = text.char_indices().nth(MAX_TEXT) else {
        return shown::line(text);
    };
    let more = text[cut..].chars().count();
    Cow::Owned(format!(
        "{}... ({more} more characters)",
        shown::line(&text[..cut])
    ))
}

/// What makes two diagnostics "of one kind": the message with its quoted
/// parts (`` `...` `` and `"..."`) left out, so that "no heading `#a`" and
/// "no heading `#b`" are one kind.
pub fn kind_of(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut quote: Option<char> = None;
    for c in message.chars() {
        match quote {
            Some(q) if c == q => {
                quote = None;
                out.push(c);
            }
            Some(_) => {}
            None => {
                if c == '`' || c == '"' {
                    quote = Some(c);
                    out.push(c);
                    out.push('…');
                } else {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// `4812` as `4,812`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One line of a file, or a window of it when the line is long: the part
/// of the line around the span, with `...` where it was cut, numbered with
/// the line's real line and column numbers.
struct Excerpt<'a> {
    name: Cow<'a, str>,
    text: String,
    /// 1-based line number of the line.
    line_number: usize,
    /// Column (1-based, in characters) of `text`'s first character in the
    /// real line, which may be before the line's start for the `...`.
    first_column: isize,
}

impl<'a> Excerpt<'a> {
    /// The window of the line `range` starts on in file `id`, and `range`
    /// in the window; `None` when the line is short enough to show whole.
    fn of(
        files: &'a SimpleFiles<Cow<'a, str>, Cow<'a, str>>,
        id: usize,
        range: Range<usize>,
    ) -> Option<(Excerpt<'a>, Range<usize>)> {
        let text: &str = files.source(id).ok()?;
        let line_index = files.line_index(id, range.start).ok()?;
        let line = files.line_range(id, line_index).ok()?;
        let line = crate::markdown::trim_line_end(text, line);
        if line.len() <= LONG_LINE {
            return None;
        }
        let range = range.start.min(line.end)..range.end;
        let span_end = range.end.min(line.end).max(range.start);
        let span_end = floor_boundary(text, span_end.min(range.start + WINDOW_SPAN));
        let start = floor_boundary(
            text,
            range.start.saturating_sub(WINDOW_CONTEXT).max(line.start),
        );
        let end = floor_boundary(
            text,
            (span_end.max(range.start + 1) + WINDOW_CONTEXT).min(line.end),
        );
        let end = end.max(span_end);
        let mut window = String::new();
        let head = if start > line.start { "..." } else { "" };
        window.push_str(head);
        window.push_str(&text[start..end]);
        if end < line.end {
            window.push_str("...");
        }
        let column = text[line.start..start].chars().count() + 1;
        let offset = head.len();
        let excerpt = Excerpt {
            name: files.name(id).ok()?,
            text: window,
            line_number: line_index + 1,
            first_column: column as isize - offset as isize,
        };
        let local = offset + (range.start - start)..offset + (span_end - start);
        Some((excerpt, local))
    }
}

/// `at`, or the nearest character boundary before it.
fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

impl<'f> Files<'f> for Excerpt<'_> {
    type FileId = usize;
    type Name = &'f str;
    type Source = &'f str;

    fn name(&'f self, _: usize) -> Result<&'f str, codespan_reporting::files::Error> {
        Ok(self.name.as_ref())
    }

    fn source(&'f self, _: usize) -> Result<&'f str, codespan_reporting::files::Error> {
        Ok(&self.text)
    }

    fn line_index(&'f self, _: usize, _: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(0)
    }

    fn line_number(
        &'f self,
        _: usize,
        _: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.line_number)
    }

    fn column_number(
        &'f self,
        _: usize,
        _: usize,
        byte_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        let before = self.text[..floor_boundary(&self.text, byte_index)]
            .chars()
            .count();
        Ok((self.first_column + before as isize).max(1) as usize)
    }

    fn line_range(
        &'f self,
        _: usize,
        _: usize,
    ) -> Result<Range<usize>, codespan_reporting::files::Error> {
        Ok(0..self.text.len())
    }
}

/// The files diagnostics point into, each added (and its lines indexed) once
/// however many diagnostics point into it: only those chapters and data files,
/// since most chapters of a book have nothing to report.
struct FileIndex<'a> {
    files: SimpleFiles<&'a str, &'a str>,
    /// The same files as the human format prints them (control characters
    /// made visible), and how each one's offsets moved.
    shown: SimpleFiles<Cow<'a, str>, Cow<'a, str>>,
    moves: Vec<shown::Moves>,
    chapter_ids: Vec<Option<usize>>,
    /// Data files by address: diagnostics share one `Arc` per file.
    data_ids: HashMap<*const SourceFile, usize>,
}

impl<'a> FileIndex<'a> {
    fn of(diagnostics: &'a [Diagnostic], chapters: &[ChapterSource<'a>]) -> Self {
        let mut index = FileIndex {
            files: SimpleFiles::new(),
            shown: SimpleFiles::new(),
            moves: Vec::new(),
            chapter_ids: vec![None; chapters.len()],
            data_ids: HashMap::new(),
        };
        for diagnostic in diagnostics {
            match &diagnostic.location {
                Some(Location::Chapter { chapter, .. }) => {
                    if let (Some(None), Some(source)) =
                        (index.chapter_ids.get(*chapter), chapters.get(*chapter))
                    {
                        let id = index.add(source.name, source.text);
                        index.chapter_ids[*chapter] = Some(id);
                    }
                }
                Some(Location::File { file, .. })
                    if !index.data_ids.contains_key(&Arc::as_ptr(file)) =>
                {
                    let id = index.add(file.name.as_str(), file.text.as_str());
                    index.data_ids.insert(Arc::as_ptr(file), id);
                }
                _ => {}
            }
        }
        index
    }

    /// Adds a file, as it is and as it is printed.
    fn add(&mut self, name: &'a str, text: &'a str) -> usize {
        let (source, moves) = shown::source(text);
        self.shown.add(shown::line(name), source);
        self.moves.push(moves);
        self.files.add(name, text)
    }

    /// [`span`](Self::span) in the printed text of its file.
    fn shown_span(&self, diagnostic: &Diagnostic) -> Option<(usize, Range<usize>)> {
        let (id, range) = self.span(diagnostic)?;
        Some((id, self.moves.get(id)?.map(range)))
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

    /// Which file a diagnostic is in, as a key ("" for none).
    fn file_key(&self, diagnostic: &Diagnostic) -> String {
        match &diagnostic.location {
            Some(Location::Path(path)) => format!("p{path}"),
            Some(_) => self
                .span(diagnostic)
                .map(|(id, _)| format!("f{id}"))
                .unwrap_or_default(),
            None => String::new(),
        }
    }

    /// " in NAME" for a [`file_key`](Self::file_key), or "".
    fn display_name(&self, key: &str) -> String {
        if let Some(path) = key.strip_prefix('p') {
            return format!(" in {path}");
        }
        key.strip_prefix('f')
            .and_then(|id| id.parse().ok())
            .and_then(|id| self.files.name(id).ok())
            .map(|name| format!(" in {name}"))
            .unwrap_or_default()
    }

    /// Where a diagnostic starts and ends; a whole-file location is the
    /// file's start.
    fn region(&self, diagnostic: &Diagnostic) -> Option<machine::Region> {
        let start = self.position(diagnostic)?;
        let end = match self.span(diagnostic) {
            Some((id, range)) => {
                let location = self.files.location(id, range.end).ok()?;
                Position {
                    file: start.file.clone(),
                    line: location.line_number,
                    column: location.column_number,
                }
            }
            None => start.clone(),
        };
        Some(machine::Region { start, end })
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
    if options.errors_as_warnings && diagnostic.is_error() {
        Severity::Warning
    } else {
        diagnostic.severity
    }
}

fn severity_word(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// A GitHub Actions workflow command for one diagnostic.
fn workflow_command(
    diagnostic: &Diagnostic,
    severity: Severity,
    position: Option<&Position>,
) -> String {
    let mut command = String::from("::");
    // Workflow commands call a note a notice.
    command.push_str(match severity {
        Severity::Note => "notice",
        other => severity_word(other),
    });
    let title = format!("{} {}", diagnostic.code.id(), diagnostic.code.name());
    match position {
        Some(p) => {
            let _ = write!(
                command,
                " file={},line={},col={},title={}",
                escape_property(&p.file),
                p.line,
                p.column,
                escape_property(&title)
            );
        }
        None => {
            let _ = write!(command, " title={}", escape_property(&title));
        }
    }
    command.push_str("::");
    let mut message = shorten(&diagnostic.message).into_owned();
    for help in &diagnostic.help {
        let _ = write!(message, "\nhelp: {}", shorten(help));
    }
    command.push_str(&escape_data(&message));
    command
}

/// `s` as the data of a workflow command (`%`, CR and LF escaped).
pub fn escape_workflow_data(s: &str) -> String {
    escape_data(s)
}

/// `s` as a workflow command's data: `%`, CR and LF as GitHub unescapes
/// them, and every other control character (ESC, BEL, the C1 controls)
/// percent-encoded too, which GitHub leaves as written: a file or folder
/// name holding an escape sequence never reaches the log raw (issue 38,
/// 15).
fn escape_data(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c if c.is_control() => {
                for byte in c.encode_utf8(&mut [0; 4]).bytes() {
                    let _ = write!(out, "%{byte:02X}");
                }
            }
            c => out.push(c),
        }
    }
    out
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests;
