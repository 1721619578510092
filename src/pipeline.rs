//! The pipeline, in order: read the request, read the settings, then for
//! the book: expand each chapter once, index the expanded chapters, resolve
//! links and check anchors, report, and write the answer.

use std::io::Write;

use crate::check;
use crate::config::{OnError, Settings};
use crate::data::Data;
use crate::diagnostic::{Diagnostic, Severity};
use crate::expand::{self, Run, directive::Registry};
use crate::index::BookIndex;
use crate::mdbook::{self, Chapter};
use crate::report::{self, ChapterSource, EmitOptions};

/// How the process was started, as far as output is concerned.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    /// `GITHUB_ACTIONS=true`: also print workflow commands.
    pub github_actions: bool,
    /// `GITHUB_WORKSPACE`: the repository root annotations are relative to.
    pub workspace: Option<std::path::PathBuf>,
    /// Colour diagnostics.
    pub color: bool,
}

/// Runs the preprocessor over mdBook's `input`; writes the book to `stdout`
/// and diagnostics to `stderr`. Returns the process exit code: 0 when the
/// book was written, 1 when it was not.
pub fn preprocess(
    input: Vec<u8>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    env: Environment,
    registry: &Registry,
) -> u8 {
    // The book is read in place: the input stays until the answer is written.
    let request = match mdbook::protocol::parse_request(&input) {
        Ok(request) => request,
        Err(e) => {
            let _ = writeln!(stderr, "error: mdbook-community: {e}");
            return 1;
        }
    };
    if let Some(warning) = mdbook::protocol::version_warning(&request.context.mdbook_version) {
        let _ = writeln!(stderr, "warning: {warning}");
    }
    let emit_options = EmitOptions {
        color: env.color,
        github_actions: env
            .github_actions
            .then(|| annotation_prefix(&request.context.root, env.workspace.as_deref())),
        errors_as_warnings: false,
    };
    // Problems in book.toml fail the build before any chapter is read,
    // unless `on-error = "warn"`: then they are warnings like the rest.
    let (settings, settings_problems) = Settings::read(&request.context, request.book.generation);
    let warn_only = settings.on_error == OnError::Warn;
    if !settings_problems.is_empty() && !warn_only {
        let _ = report::emit(stderr, &settings_problems, &[], &emit_options);
        let _ = summary(stderr, &settings_problems, false);
        return 1;
    }

    let chapters = &request.book.chapters;
    let (contents, mut found) = process_chapters(&settings, registry, chapters);
    report::map_to_files(&mut found, chapters, &settings);
    found.splice(0..0, settings_problems);

    // Chapter names are only needed to print diagnostics.
    let sources: Vec<(String, &Chapter)> = if found.is_empty() {
        Vec::new()
    } else {
        chapters
            .iter()
            .map(|c| (display_name(&settings, c), c))
            .collect()
    };
    let sources: Vec<ChapterSource<'_>> = sources
        .iter()
        .map(|(name, c)| ChapterSource {
            name,
            text: &c.content,
        })
        .collect();
    let emit_options = EmitOptions {
        errors_as_warnings: warn_only,
        ..emit_options
    };
    let _ = report::emit(stderr, &found, &sources, &emit_options);
    let failed = !warn_only && found.iter().any(Diagnostic::is_error);
    let _ = summary(stderr, &found, warn_only);
    drop(sources);
    if failed {
        return 1;
    }

    if let Err(e) = request.book.write(stdout, &contents) {
        let _ = writeln!(
            stderr,
            "error: mdbook-community: cannot write the book to stdout: {e}"
        );
        return 1;
    }
    0
}

/// Runs the stages from data to check over `chapters`: new contents
/// (`None` where unchanged) and every diagnostic, data files' first, then
/// the chapters' in book order.
pub fn process_chapters(
    settings: &Settings,
    registry: &Registry,
    chapters: &[Chapter],
) -> (Vec<Option<String>>, Vec<Diagnostic>) {
    let data = Data::default();
    let run = Run {
        settings,
        registry,
        chapters,
        data: &data,
    };
    let expanded = expand::expand_book(&run);
    let texts = chapters
        .iter()
        .zip(&expanded)
        .map(|(chapter, e)| {
            e.as_ref()
                .map_or(chapter.content.as_str(), |e| e.text.as_str())
        })
        .collect();
    let book = BookIndex::new(settings, chapters, texts);
    let checked = check::check_book(&run, &expanded, &book);
    // The index borrows the expanded texts; they become the chapters now.
    drop(book);
    let mut expanded = expanded;
    let mut contents = vec![None; chapters.len()];
    let drift = check::owners::check(settings, &data);
    // Data files' own problems first, once each; then the drift between
    // CODEOWNERS and the roster; then the chapters', in order.
    let mut diagnostics = data.diagnostics();
    diagnostics.extend(drift);
    for (index, checked) in checked {
        contents[index] = checked
            .text
            .or_else(|| expanded[index].take()?.finish(&checked.links));
        let found = checked.diagnostics.into_iter();
        diagnostics.extend(found.map(|d| d.for_chapter(index)));
    }
    (contents, diagnostics)
}

/// The book root relative to the repository root (`docs/`, or empty), so
/// that GitHub annotations name files as the repository does. The
/// repository is `GITHUB_WORKSPACE`, or the nearest folder holding `.git`.
fn annotation_prefix(root: &std::path::Path, workspace: Option<&std::path::Path>) -> String {
    let Ok(root) = root.canonicalize() else {
        return String::new();
    };
    let repository = workspace.and_then(|w| w.canonicalize().ok()).or_else(|| {
        root.ancestors()
            .find(|a| a.join(".git").exists())
            .map(std::path::Path::to_path_buf)
    });
    match repository
        .as_deref()
        .and_then(|r| root.strip_prefix(r).ok())
    {
        Some(relative) if !relative.as_os_str().is_empty() => {
            format!("{}/", crate::paths::display(relative))
        }
        _ => String::new(),
    }
}

fn display_name(settings: &Settings, chapter: &Chapter) -> String {
    match &chapter.source_path {
        Some(path) => settings.chapter_display_path(path),
        None => format!("chapter `{}`", chapter.name),
    }
}

/// The last line, like rustc's `aborting due to ...`.
fn summary(out: &mut dyn Write, found: &[Diagnostic], warn_only: bool) -> std::io::Result<()> {
    let errors = found
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = found.len() - errors;
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    if errors > 0 && !warn_only {
        let mut line = format!(
            "error: mdbook-community: aborting due to {}",
            plural(errors, "error")
        );
        if warnings > 0 {
            line.push_str(&format!("; {} emitted", plural(warnings, "warning")));
        }
        writeln!(out, "{line}")?;
    } else if errors > 0 {
        writeln!(
            out,
            "warning: mdbook-community: built with {} (on-error = \"warn\")",
            plural(errors, "error")
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
