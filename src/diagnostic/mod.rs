//! Diagnostics as values: what went wrong, where, and how bad it is. Every
//! stage returns them; the report stage prints them at the end.

use std::ops::Range;
use std::sync::Arc;

use codespan_reporting::files::{Files, SimpleFiles};

mod code;
mod suggest;

pub use code::{Code, all as all_codes};
pub use suggest::{Suggestions, did_you_mean};

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Information that needs no change (a link that works through a
    /// redirect); never fails a run.
    Note,
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
    /// Where each line starts, made on the first question of a line: a
    /// roster of many people asks for thousands of lines of one file.
    line_starts: std::sync::OnceLock<Vec<usize>>,
}

impl SourceFile {
    /// The file `name` holding `text`.
    pub fn new(name: String, text: String) -> Self {
        SourceFile {
            name,
            text,
            line_starts: std::sync::OnceLock::new(),
        }
    }

    /// The 1-based line of byte `offset`, by a binary search.
    pub fn line_of(&self, offset: usize) -> usize {
        let starts = self.line_starts.get_or_init(|| {
            let newlines = memchr::memchr_iter(b'\n', self.text.as_bytes());
            std::iter::once(0)
                .chain(newlines.map(|at| at + 1))
                .collect()
        });
        starts.partition_point(|&start| start <= offset)
    }
}

/// A byte range of a file: where something a data file defines is
/// written.
#[derive(Debug, Clone)]
pub struct Place {
    /// The file.
    pub file: Arc<SourceFile>,
    /// The bytes.
    pub range: Range<usize>,
}

impl Place {
    /// `range` of `file`.
    pub fn new(file: &Arc<SourceFile>, range: Range<usize>) -> Self {
        Place {
            file: Arc::clone(file),
            range,
        }
    }

    /// The 1-based line the place starts on.
    pub fn line(&self) -> usize {
        self.file.line_of(self.range.start)
    }
}

/// Places are equal when they name the same bytes of the same file.
impl PartialEq for Place {
    fn eq(&self, other: &Place) -> bool {
        self.file.name == other.file.name && self.range == other.range
    }
}

impl Eq for Place {}

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

/// Why a problem is a consequence of another one, which is reported on its
/// own: printing it too would bury the first (one typo in the data file
/// would fail every directive that needs the file).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FollowOn {
    /// A directive needs a data file that could not be used. `reported`:
    /// why is reported on its own (the file's problems, or its path in
    /// `book.toml`); otherwise the first such directive reports it.
    DataFile {
        /// The file, as messages name it.
        file: String,
        /// Whether the cause is reported separately.
        reported: bool,
    },
    /// An anchor missing from a page on which a directive failed: the
    /// heading may be one the directive would have made.
    PartialPage,
}

/// One problem found during a run.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// Error, warning or note.
    pub severity: Severity,
    /// The kind of problem, as a stable code.
    pub code: Code,
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
    /// Set when the problem follows from another one: it still fails the
    /// build and shows in the page, but is counted rather than printed.
    pub follow_on: Option<FollowOn>,
    /// Further places of the same finding, in the same file as `location`
    /// (a CODEOWNERS owner on several lines): the terminal shows them as a
    /// note, the machine formats as a result each, so that code scanning
    /// annotates every line.
    pub also_at: Vec<Range<usize>>,
}

impl Diagnostic {
    /// A new error with no location.
    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message)
    }

    /// A new warning with no location.
    pub fn warning(code: Code, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message)
    }

    /// A new note with no location.
    pub fn note(code: Code, message: impl Into<String>) -> Self {
        Self::new(Severity::Note, code, message)
    }

    fn new(severity: Severity, code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            location: None,
            label: String::new(),
            help: Vec::new(),
            notes: Vec::new(),
            follow_on: None,
            also_at: Vec::new(),
        }
    }

    /// The same finding at further places of its file (see `also_at`).
    pub fn also_at(mut self, ranges: Vec<Range<usize>>) -> Self {
        self.also_at = ranges;
        self
    }

    /// The diagnostic once per place: itself, then a copy at each of
    /// `also_at`.
    pub fn each_place(&self) -> Vec<Diagnostic> {
        let mut one = self.clone();
        one.also_at = Vec::new();
        let mut out = vec![one.clone()];
        for range in &self.also_at {
            let mut copy = one.clone();
            copy.location = match &one.location {
                Some(Location::Chapter { chapter, .. }) => Some(Location::Chapter {
                    chapter: *chapter,
                    range: range.clone(),
                }),
                Some(Location::File { file, .. }) => Some(Location::File {
                    file: Arc::clone(file),
                    range: range.clone(),
                }),
                other => other.clone(),
            };
            out.push(copy);
        }
        out
    }

    /// Points the diagnostic at `range` in chapter `chapter`.
    pub fn in_chapter(mut self, chapter: usize, range: Range<usize>) -> Self {
        self.location = Some(Location::Chapter { chapter, range });
        self
    }

    /// Points the diagnostic at `range` of the chapter being expanded: a
    /// directive does not know which chapter it is in, and the expand stage
    /// sets it ([`for_chapter`](Self::for_chapter)).
    pub fn in_this_chapter(self, range: Range<usize>) -> Self {
        self.in_chapter(0, range)
    }

    /// Points the diagnostic at `range` in `file`.
    pub fn in_file(mut self, file: &Arc<SourceFile>, range: Range<usize>) -> Self {
        self.location = Some(Location::File {
            file: Arc::clone(file),
            range,
        });
        self
    }

    /// Points the diagnostic at `place`.
    pub fn at(self, place: &Place) -> Self {
        self.in_file(&place.file, place.range.clone())
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

    /// [`with_suggestion`](Self::with_suggestion) for a suggestion of what
    /// `input` should have been, with a note of how the two differ when
    /// they would print the same.
    pub fn with_suggestion_for(self, input: &str, suggestion: Option<&str>) -> Self {
        let note = suggestion.and_then(|s| crate::unicode::difference_note(input, s));
        let with = self.with_suggestion(suggestion);
        match note {
            Some(note) => with.with_note(note),
            None => with,
        }
    }

    /// Adds a `note:` line.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Marks the diagnostic as a consequence of another problem.
    pub fn with_follow_on(mut self, cause: FollowOn) -> Self {
        self.follow_on = Some(cause);
        self
    }

    /// Turns the diagnostic into a warning.
    pub fn as_warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    /// Turns the diagnostic into a note.
    pub fn as_note(mut self) -> Self {
        self.severity = Severity::Note;
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
            *range = crate::span::map_range(range.clone(), map);
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

pub(crate) fn clamp(range: Range<usize>, text: &str) -> Range<usize> {
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

/// `1 error`, `2 errors`: a count and its noun, for messages.
pub fn plural(n: usize, word: &str) -> String {
    match n {
        1 => format!("{n} {word}"),
        _ => format!("{n} {word}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_a_file() {
        let file = SourceFile::new("f".into(), "a\nbc\n\nd".into());
        let lines: Vec<usize> = (0..=8).map(|o| file.line_of(o)).collect();
        assert_eq!(lines, [1, 1, 2, 2, 2, 3, 4, 4, 4]);
    }

    #[test]
    fn suggestions_find_typos_only() {
        let names = ["maintainers", "core", "emeritus"];
        assert_eq!(did_you_mean("maintaners", names), Some("maintainers"));
        assert_eq!(did_you_mean("Core", names), Some("core"));
        assert_eq!(did_you_mean("zzz", names), None);
    }
}
