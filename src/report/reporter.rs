//! The reporting policy of one run: which diagnostics are printed (warnings
//! in mdBook's first run only; follow-on problems counted, not printed),
//! where (the terminal, `MDBOOK_COMMUNITY_MESSAGE_FILE`, the counts file of
//! `check`), in which format, and whether the run failed. The pipeline only
//! hands it diagnostics.

use std::borrow::Cow;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{ChapterSource, EmitOptions, MessageFormat, collapse, emit, show_paths};
use crate::config::{OnError, Settings};
use crate::diagnostic::{Code, Diagnostic, Location, Severity, plural};
use crate::mdbook::{self, Chapter};
use crate::paths::ShownPaths;

/// How the process was started, as far as output is concerned.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    /// `GITHUB_ACTIONS=true`: also print workflow commands.
    pub github_actions: bool,
    /// `GITHUB_WORKSPACE`: the repository root annotations are relative to.
    pub workspace: Option<PathBuf>,
    /// Colour diagnostics.
    pub color: bool,
    /// The process's working folder. `None` names files relative to the
    /// book root.
    pub current_dir: Option<PathBuf>,
    /// `PWD`: the folder the user's shell is in. mdBook 0.5 starts the
    /// plugin in the book root, mdBook 0.4 where `mdbook` was started.
    pub pwd: Option<PathBuf>,
    /// `MDBOOK_COMMUNITY_MESSAGE_FORMAT`: the shape of the diagnostics.
    pub message_format: MessageFormat,
    /// `MDBOOK_COMMUNITY_MESSAGE_FILE`: where the diagnostics go in that
    /// shape (the terminal still gets the human ones); relative to the
    /// user's folder.
    pub message_file: Option<PathBuf>,
    /// Set by `mdbook-community check`: the file the counts of errors and
    /// warnings are written to. The run then prints nothing, fails on
    /// nothing, and reports errors as errors whatever `on-error` says.
    pub check_status: Option<PathBuf>,
    /// `MDBOOK_COMMUNITY_NOW`: the day the activity check's window ends
    /// (`None`: today, by the clock).
    pub today: Option<crate::date::Day>,
}

/// Prints a problem that stops the run before there is anything to
/// report on (input that is not a request, an answer that cannot be
/// written).
pub fn run_error(out: &mut dyn Write, code: Code, message: impl std::fmt::Display) {
    let _ = writeln!(out, "error[{}]: mdbook-community: {message}", code.id());
}

/// How one run reports what it found.
pub struct Reporter<'a> {
    root: &'a Path,
    env: &'a Environment,
    /// Whether this is the first of mdBook's runs for this build (one per
    /// renderer): warnings are printed in that one only.
    first_run: bool,
}

impl<'a> Reporter<'a> {
    /// The reporter of the run mdBook described in `context`.
    pub fn new(context: &'a mdbook::Context, env: &'a Environment) -> Self {
        Reporter {
            root: &context.root,
            env,
            first_run: mdbook::renderers::is_first_run(&context.config, &context.renderer),
        }
    }

    /// Warns, once per build, when mdBook's version is not one the plugin
    /// is tested with.
    pub fn check_version(&self, stderr: &mut dyn Write, mdbook_version: &str) {
        if !self.first_run {
            return;
        }
        if let Some(warning) = mdbook::protocol::version_warning(mdbook_version) {
            let _ = writeln!(stderr, "warning[{}]: {warning}", Code::UntestedMdbook.id());
        }
    }

    /// Whether errors are printed as warnings and fail nothing:
    /// `on-error = "warn"`, except under `check`, which softens nothing.
    fn errors_as_warnings(&self, settings: &Settings) -> bool {
        settings.on_error == OnError::Warn && self.env.check_status.is_none()
    }

    /// Whether the run must write the book even though `book.toml` has
    /// problems: under `check`, mdBook must go on to the other
    /// preprocessors (the problems are counted).
    pub fn writes_book_anyway(&self) -> bool {
        self.env.check_status.is_some()
    }

    /// Prints `found` (problems that follow from another are counted, not
    /// printed; after the first run, only errors that fail it are printed)
    /// and the closing line; returns whether the run failed.
    pub fn report(
        &self,
        stderr: &mut dyn Write,
        found: Vec<Diagnostic>,
        chapters: &[Chapter],
        settings: &Settings,
    ) -> bool {
        let warn_only = self.errors_as_warnings(settings);
        let failed = !warn_only && found.iter().any(Diagnostic::is_error);
        let (mut shown, notes) = collapse(found);
        if !self.first_run {
            shown.retain(|d| d.is_error() && !warn_only);
        }
        let printed = Printed {
            shown: &shown,
            notes: &notes,
            warn_only,
        };
        let file = self.env.message_file.as_deref().filter(|_| self.first_run);
        if let Some(path) = file {
            let mut text = Vec::new();
            let format = self.env.message_format;
            let _ = self.emit(&mut text, format, &printed, chapters, settings);
            self.write_report_file(stderr, path, &text);
        }
        if let Some(status) = &self.env.check_status {
            write_counts(status, &shown);
            return false;
        }
        if !shown.is_empty() || !notes.is_empty() {
            let format = match file {
                Some(_) => MessageFormat::Human,
                None => self.env.message_format,
            };
            let _ = self.emit(stderr, format, &printed, chapters, settings);
            if format == MessageFormat::Human {
                let _ = summary(stderr, &shown, warn_only);
            }
        }
        failed
    }

    /// How files are named, on the terminal (relative to the user's
    /// folder when `for_people`, else to the book root) and in annotations
    /// (worked out only when there is something to print).
    fn paths(&self, for_people: bool) -> ShownPaths {
        let here = user_folder(self.root, self.env).filter(|_| for_people);
        let repository = (self.env.workspace.as_deref())
            .and_then(|w| w.canonicalize().ok())
            .or_else(|| crate::paths::repository_of(self.root));
        ShownPaths::new(self.root, here.as_deref(), repository.as_deref())
    }

    /// Prints the diagnostics in `format`, with the follow-on notes in the
    /// human formats (notes are printed once, in the first run or a
    /// failing one).
    fn emit(
        &self,
        out: &mut dyn Write,
        format: MessageFormat,
        printed: &Printed<'_>,
        chapters: &[Chapter],
        settings: &Settings,
    ) -> std::io::Result<()> {
        let Printed {
            shown,
            notes,
            warn_only,
        } = *printed;
        // Programs get paths relative to the book root; people, relative
        // to the folder they are in.
        let paths = self.paths(!format.is_machine());
        let mut shown = shown.to_vec();
        show_paths(&mut shown, &paths);
        // JUnit lists every chapter checked; the others, those with problems.
        let every = format == MessageFormat::Junit;
        let named = NamedChapters::of(&shown, chapters, settings, &paths, every);
        let options = EmitOptions {
            format,
            color: self.env.color && format == MessageFormat::Human,
            paths,
            workflow_commands: self.env.github_actions,
            errors_as_warnings: warn_only,
        };
        emit(out, &shown, &named.sources(), &options)?;
        let failed = !warn_only && shown.iter().any(Diagnostic::is_error);
        if !format.is_machine() && (self.first_run || failed) {
            for note in notes {
                match format {
                    MessageFormat::Github => writeln!(
                        out,
                        "::notice::mdbook-community: {}",
                        super::escape_workflow_data(note)
                    )?,
                    _ => writeln!(out, "note: mdbook-community: {}", super::shown::line(note))?,
                }
            }
        }
        Ok(())
    }

    /// Writes the report to `MDBOOK_COMMUNITY_MESSAGE_FILE` (a relative
    /// path is relative to the user's folder), through a symbolic link,
    /// into a FIFO or device, and by a rename over a regular file
    /// ([`crate::paths::prepare_write`]).
    fn write_report_file(&self, stderr: &mut dyn Write, path: &Path, text: &[u8]) {
        let here = user_folder(self.root, self.env);
        let path = match here {
            Some(here) if path.is_relative() => here.join(path),
            _ => path.to_path_buf(),
        };
        if let Err(e) = crate::paths::write_file(&path, text) {
            let message = format!("cannot write the diagnostics to {}: {e}", path.display());
            run_error(stderr, Code::BadInput, message);
        }
    }
}

/// What a run prints: the diagnostics, the notes counting follow-on
/// problems, and whether errors are printed as warnings.
#[derive(Clone, Copy)]
struct Printed<'a> {
    shown: &'a [Diagnostic],
    notes: &'a [String],
    warn_only: bool,
}

/// The names and texts of the chapters diagnostics point into; the others
/// are neither named (which may look the file up) nor decoded.
struct NamedChapters<'c> {
    names: Vec<String>,
    texts: Vec<Cow<'c, str>>,
}

impl<'c> NamedChapters<'c> {
    fn of(
        shown: &[Diagnostic],
        chapters: &'c [Chapter],
        settings: &Settings,
        paths: &ShownPaths,
        every: bool,
    ) -> Self {
        let named = if shown.is_empty() && !every {
            0
        } else {
            chapters.len()
        };
        let mut names: Vec<String> = vec![String::new(); named];
        let mut texts: Vec<Cow<'c, str>> = vec![Cow::Borrowed(""); named];
        for diagnostic in shown {
            if let Some(Location::Chapter { chapter, .. }) = diagnostic.location
                && let (Some(name), Some(text), Some(c)) = (
                    names.get_mut(chapter),
                    texts.get_mut(chapter),
                    chapters.get(chapter),
                )
                && name.is_empty()
            {
                *name = display_name(settings, paths, c);
                *text = c.content.get();
            }
        }
        if every {
            for (name, chapter) in names.iter_mut().zip(chapters) {
                if name.is_empty() && chapter.source_path().is_some() {
                    *name = display_name(settings, paths, chapter);
                }
            }
        }
        NamedChapters { names, texts }
    }

    fn sources(&self) -> Vec<ChapterSource<'_>> {
        let pairs = self.names.iter().zip(&self.texts);
        pairs
            .map(|(name, text)| ChapterSource { name, text })
            .collect()
    }
}

/// The counts `check` reads, written as every file is
/// ([`crate::paths::prepare_write`]).
fn write_counts(status: &Path, shown: &[Diagnostic]) {
    let errors = shown.iter().filter(|d| d.is_error()).count();
    let warnings = (shown.iter())
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let counts = format!("errors {errors}\nwarnings {warnings}\n");
    let _ = crate::paths::write_file(status, counts.as_bytes());
}

/// The folder the user is in, whom the terminal's paths are for: `PWD` when
/// mdBook 0.5 started the plugin in the book root (and `PWD` is a folder),
/// else the working folder.
fn user_folder(root: &Path, env: &Environment) -> Option<PathBuf> {
    let cwd = env.current_dir.as_deref()?;
    let in_root = cwd.canonicalize().ok() == root.canonicalize().ok();
    let pwd = env
        .pwd
        .as_deref()
        .filter(|pwd| in_root && pwd.is_absolute() && pwd.is_dir());
    Some(pwd.unwrap_or(cwd).to_path_buf())
}

fn display_name(settings: &Settings, paths: &ShownPaths, chapter: &Chapter) -> String {
    match chapter.source_path() {
        Some(path) => paths.terminal(&settings.chapter_display_path(path)),
        None => format!("chapter `{}`", chapter.name()),
    }
}

/// The last line, like rustc's `aborting due to ...`.
fn summary(out: &mut dyn Write, found: &[Diagnostic], warn_only: bool) -> std::io::Result<()> {
    let errors = found
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = found.len() - errors;
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
