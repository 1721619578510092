//! mdbook-community: an mdBook preprocessor for community documentation.
//!
//! The pipeline, one module per stage:
//!
//! 1. [`protocol`]: `[context, book]` JSON in, book JSON out (mdBook 0.4 and 0.5);
//! 2. [`book`]: the walk that takes chapters out of the book and puts them back;
//! 3. [`scan`]: finds directive call sites (a byte scan first, Markdown parsing
//!    only for chapters that may hold one);
//! 4. [`directives`]: one module per directive, each parsing its arguments,
//!    resolving them against shared [`data`] and rendering Markdown;
//! 5. [`splice`]: replaces exactly the call sites' bytes;
//! 6. [`diagnostics`]: collected across the run, printed like rustc's.
//!
//! [`engine`] drives stages 3 to 5 over all chapters on all cores.

pub mod anchors;
pub mod args;
pub mod assets;
pub mod book;
pub mod cli;
pub mod codeowners;
pub mod contributing;
pub mod data;
pub mod datatree;
pub mod diagnostics;
pub mod directive;
pub mod directives;
pub mod engine;
pub mod headings;
pub mod install;
pub mod locate;
pub mod markdown;
pub mod paths;
pub mod people;
pub mod protocol;
pub mod scan;
pub mod settings;
pub mod slug;
pub mod splice;

use std::io::Write;

use crate::book::Chapter;
use crate::diagnostics::{ChapterSource, Diagnostic, EmitOptions, Severity};
use crate::directive::Registry;
use crate::engine::Run;
use crate::settings::{OnError, Settings};

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
    let request = match protocol::parse_request(&input) {
        Ok(request) => request,
        Err(e) => {
            let _ = writeln!(stderr, "error: mdbook-community: {e}");
            return 1;
        }
    };
    if let Some(warning) = protocol::version_warning(&request.context.mdbook_version) {
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
    let (settings, settings_problems) = Settings::read(&request.context, request.generation);
    let warn_only = settings.on_error == OnError::Warn;
    if !settings_problems.is_empty() && !warn_only {
        let _ = diagnostics::emit(stderr, &settings_problems, &[], &emit_options);
        let _ = summary(stderr, &settings_problems, false);
        return 1;
    }

    let chapters = &request.book.chapters;
    let (contents, mut found) = process_chapters(&settings, registry, chapters);
    locate::map_to_files(&mut found, chapters, &settings);
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
    let _ = diagnostics::emit(stderr, &found, &sources, &emit_options);
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

/// Runs the engine over `chapters`: new contents (`None` where unchanged)
/// and every diagnostic, in book order.
pub fn process_chapters(
    settings: &Settings,
    registry: &Registry,
    chapters: &[Chapter],
) -> (Vec<Option<String>>, Vec<Diagnostic>) {
    let run = Run::new(settings, registry, chapters);
    engine::expand_book(&run)
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
            format!("{}/", relative.to_string_lossy().replace('\\', "/"))
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
