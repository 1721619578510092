//! Mapping diagnostics back to the files authors edit.
//!
//! mdBook's `links` preprocessor runs first and replaces every
//! `{{#include}}` with the included text, so a position in the chapter
//! mdBook sends is not always the same line of the chapter's file. Before
//! diagnostics are printed, a chapter position is looked up in the
//! chapter's file on disk and, failing that, in the files it includes; when
//! its line is found exactly once, the diagnostic points there instead.
//! Only chapters with diagnostics are read, and only when their file differs
//! from what mdBook sent.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use crate::config::Settings;
use crate::diagnostic::{Diagnostic, Location, SourceFile};
use crate::files::{MAX_DATA_FILE, read_text};
use crate::mdbook::Chapter;
use crate::mdbook::include::includes;
use crate::paths::ShownPaths;

/// Points chapter diagnostics at the file (chapter or included file) their
/// line is written in, when that differs from the text mdBook passed.
pub fn map_to_files(diagnostics: &mut [Diagnostic], chapters: &[Chapter], settings: &Settings) {
    // Each chapter's text and files, read and indexed once: a chapter with
    // thousands of diagnostics costs one pass over its files, not one each.
    let mut cache: HashMap<usize, Option<ChapterFiles<'_>>> = HashMap::new();
    for diagnostic in diagnostics.iter_mut() {
        let Some(Location::Chapter { chapter, range }) = &diagnostic.location else {
            continue;
        };
        let sources = cache.entry(*chapter).or_insert_with(|| {
            let of = chapters.get(*chapter)?;
            // `None`: the file on disk is what mdBook sent, nothing to map.
            let files = files_of(of, settings)?;
            Some(ChapterFiles::new(of.content.get(), files))
        });
        let Some(sources) = sources else {
            continue;
        };
        if let Some((file, mapped)) = sources.find_line(range.clone()) {
            diagnostic.location = Some(Location::File {
                file,
                range: mapped,
            });
        }
    }
}

/// Names every file diagnostics point into as the terminal shows it (see
/// [`ShownPaths::terminal`]); the names they carry are relative to the
/// book root. Each file is renamed once, however many point into it.
pub fn show_paths(diagnostics: &mut [Diagnostic], paths: &ShownPaths) {
    // The old file stays in the map, so that its address is not reused.
    let mut renamed: HashMap<*const SourceFile, (Arc<SourceFile>, Arc<SourceFile>)> =
        HashMap::new();
    for diagnostic in diagnostics {
        match &mut diagnostic.location {
            Some(Location::File { file, .. }) => {
                let (_, new) = renamed.entry(Arc::as_ptr(file)).or_insert_with(|| {
                    let new = Arc::new(SourceFile::new(
                        paths.terminal(&file.name),
                        file.text.clone(),
                    ));
                    (Arc::clone(file), new)
                });
                *file = Arc::clone(new);
            }
            Some(Location::Path(path)) => *path = paths.terminal(path),
            _ => {}
        }
    }
}

/// The chapter's file and the files it includes, when the file's text is
/// not exactly the chapter's content; `None` otherwise.
fn files_of(chapter: &Chapter, settings: &Settings) -> Option<Vec<Arc<SourceFile>>> {
    let source = chapter.source_path()?;
    let src = settings.in_root(&settings.src);
    let path = src.join(source);
    let text = read_text(&path, MAX_DATA_FILE).ok()?;
    if chapter.content == *text {
        return None;
    }
    let mut files = vec![Arc::new(SourceFile::new(
        settings.chapter_display_path(source),
        text.clone(),
    ))];
    let dir = path.parent().map_or_else(|| src.clone(), Path::to_path_buf);
    for include in includes(&text) {
        let included = dir.join(include.path);
        if let Ok(text) = read_text(&included, MAX_DATA_FILE) {
            files.push(Arc::new(SourceFile::new(
                display(&included, &settings.root),
                text,
            )));
        }
    }
    Some(files)
}

fn display(path: &Path, root: &Path) -> String {
    let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    crate::paths::display(path.strip_prefix(&root).unwrap_or(&path))
}

/// A chapter's text as mdBook sent it and the files it is written in,
/// indexed once: where each line of the text starts, and where each
/// distinct non-blank line of the files is (`None`: in more than one place).
struct ChapterFiles<'c> {
    content: Cow<'c, str>,
    line_starts: Vec<usize>,
    files: Vec<Arc<SourceFile>>,
    lines: HashMap<Box<str>, Option<(usize, usize)>>,
}

impl<'c> ChapterFiles<'c> {
    fn new(content: Cow<'c, str>, files: Vec<Arc<SourceFile>>) -> Self {
        let line_starts = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', content.as_bytes()).map(|i| i + 1))
            .collect();
        let mut lines: HashMap<Box<str>, Option<(usize, usize)>> = HashMap::new();
        for (index, file) in files.iter().enumerate() {
            let mut at = 0;
            for line in file.text.split('\n') {
                let text = line.strip_suffix('\r').unwrap_or(line);
                if !text.trim().is_empty() {
                    (lines.entry(text.into()))
                        .and_modify(|place| *place = None)
                        .or_insert(Some((index, at)));
                }
                at += line.len() + 1;
            }
        }
        ChapterFiles {
            content,
            line_starts,
            files,
            lines,
        }
    }

    /// The line holding `range` of the text, when it is in exactly one
    /// place of the files: that file and the range moved there.
    fn find_line(&self, range: Range<usize>) -> Option<(Arc<SourceFile>, Range<usize>)> {
        let content = &*self.content;
        let start = range.start.min(content.len());
        let line = self.line_starts.partition_point(|&s| s <= start) - 1;
        let line_start = self.line_starts[line];
        let line_end = (self.line_starts.get(line + 1)).map_or(content.len(), |next| next - 1);
        let text = content[line_start..line_end].trim_end_matches('\r');
        if text.trim().is_empty() {
            return None;
        }
        let (index, at) = (*self.lines.get(text)?)?;
        let offset = at + (start - line_start);
        let len = range.end.saturating_sub(range.start);
        Some((Arc::clone(&self.files[index]), offset..offset + len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> Arc<SourceFile> {
        Arc::new(SourceFile::new(name.into(), text.into()))
    }

    #[test]
    fn finds_a_unique_line_in_the_chapter_file_or_an_include() {
        let content = "# A\nincluded one\nincluded two\nAsk {{#person x}}.\n";
        let at = content.find("x}}").expect("present");
        let files = vec![
            file("src/a.md", "# A\n{{#include inc.md}}\nAsk {{#person x}}.\n"),
            file("src/inc.md", "included one\nincluded two\n"),
        ];
        let files = ChapterFiles::new(content.into(), files);
        let (found, range) = files.find_line(at..at + 1).expect("found");
        assert_eq!(found.name, "src/a.md");
        assert_eq!(&found.text[range], "x");

        let at = content.find("two").expect("present");
        let (found, range) = files.find_line(at..at + 3).expect("found");
        assert_eq!(found.name, "src/inc.md");
        assert_eq!(&found.text[range], "two");
    }

    #[test]
    fn ambiguous_or_missing_lines_keep_the_original_position() {
        let twice = ChapterFiles::new("x\n".into(), vec![file("a", "x\nx\n")]);
        assert!(twice.find_line(0..1).is_none());
        let missing = ChapterFiles::new("y\n".into(), vec![file("a", "x\nx\n")]);
        assert!(missing.find_line(0..1).is_none());
        // In two files: ambiguous too.
        let files = vec![file("a", "x\n"), file("b", "x\r\n")];
        assert!(
            ChapterFiles::new("x\n".into(), files)
                .find_line(0..1)
                .is_none()
        );
    }

    /// A line ending in CRLF in the file is the same line; the last line
    /// needs no newline.
    #[test]
    fn crlf_and_a_last_line_without_newline() {
        let files = vec![file("a", "one\r\ntwo")];
        let files = ChapterFiles::new("one\ntwo".into(), files);
        let (_, range) = files.find_line(4..7).expect("found");
        assert_eq!(range, 5..8);
        let (_, range) = files.find_line(0..3).expect("found");
        assert_eq!(range, 0..3);
    }
}
