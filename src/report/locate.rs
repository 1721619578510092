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
use std::path::Path;
use std::sync::Arc;

use crate::config::Settings;
use crate::diagnostic::{Diagnostic, Location, SourceFile};
use crate::mdbook::Chapter;
use crate::mdbook::include::includes;
use crate::paths::ShownPaths;

/// Points chapter diagnostics at the file (chapter or included file) their
/// line is written in, when that differs from the text mdBook passed.
pub fn map_to_files(diagnostics: &mut [Diagnostic], chapters: &[Chapter], settings: &Settings) {
    // Each chapter's text and files, once: a chapter with thousands of
    // diagnostics is decoded once, not once for each.
    type Sources<'c> = Option<(Cow<'c, str>, Vec<Arc<SourceFile>>)>;
    let mut cache: HashMap<usize, Sources<'_>> = HashMap::new();
    for diagnostic in diagnostics.iter_mut() {
        let Some(Location::Chapter { chapter, range }) = &diagnostic.location else {
            continue;
        };
        let sources = cache.entry(*chapter).or_insert_with(|| {
            let of = chapters.get(*chapter)?;
            // `None`: the file on disk is what mdBook sent, nothing to map.
            let files = files_of(of, settings)?;
            Some((of.content.get(), files))
        });
        let Some((content, files)) = sources else {
            continue;
        };
        if let Some((file, mapped)) = find_line(content, range.clone(), files) {
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
    let text = std::fs::read_to_string(&path).ok()?;
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
        if let Ok(text) = std::fs::read_to_string(&included) {
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

/// Finds the line holding `range` of `content` in exactly one place of
/// `files`; returns that file and the range moved there.
fn find_line(
    content: &str,
    range: std::ops::Range<usize>,
    files: &[Arc<SourceFile>],
) -> Option<(Arc<SourceFile>, std::ops::Range<usize>)> {
    let start = range.start.min(content.len());
    let line_start = content[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = content[start..]
        .find('\n')
        .map_or(content.len(), |i| start + i);
    let line = content[line_start..line_end].trim_end_matches('\r');
    if line.trim().is_empty() {
        return None;
    }
    let mut found = None;
    for file in files {
        for (at, _) in file.text.match_indices(line) {
            let starts_line = at == 0 || file.text.as_bytes()[at - 1] == b'\n';
            let ends_line = file.text[at + line.len()..]
                .chars()
                .next()
                .is_none_or(|c| c == '\n' || c == '\r');
            if starts_line && ends_line {
                if found.is_some() {
                    return None; // ambiguous: keep the original position
                }
                found = Some((Arc::clone(file), at));
            }
        }
    }
    let (file, at) = found?;
    let offset = at + (start - line_start);
    let len = range.end.saturating_sub(range.start);
    Some((file, offset..offset + len))
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
        let files = [
            file("src/a.md", "# A\n{{#include inc.md}}\nAsk {{#person x}}.\n"),
            file("src/inc.md", "included one\nincluded two\n"),
        ];
        let (found, range) = find_line(content, at..at + 1, &files).expect("found");
        assert_eq!(found.name, "src/a.md");
        assert_eq!(&found.text[range], "x");

        let at = content.find("two").expect("present");
        let (found, range) = find_line(content, at..at + 3, &files).expect("found");
        assert_eq!(found.name, "src/inc.md");
        assert_eq!(&found.text[range], "two");
    }

    #[test]
    fn ambiguous_or_missing_lines_keep_the_original_position() {
        let files = [file("a", "x\nx\n")];
        assert!(find_line("x\n", 0..1, &files).is_none());
        assert!(find_line("y\n", 0..1, &files).is_none());
    }
}
