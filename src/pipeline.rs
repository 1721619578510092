//! The pipeline, in order: read the request, read the settings, then for
//! the book: expand each chapter once, index the expanded chapters, resolve
//! links and check anchors, report, and write the answer.

use std::borrow::Cow;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::check;
use crate::config::{AnchorCheck, OnError, Settings};
use crate::data::Data;
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::expand::{self, Expanded, Run, directive::Registry};
use crate::ids::HeadingTexts;
use crate::index::BookIndex;
use crate::mdbook::{self, Chapter};
use crate::paths::ShownPaths;
use crate::report::{self, ChapterSource, EmitOptions, MessageFormat};

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
    // The book is read in place: the input stays until the answer is
    // written, and chapters are decoded from it when read.
    let input = std::sync::Arc::new(input);
    let request = match mdbook::protocol::parse_request_shared(&input) {
        Ok(request) => request,
        Err(e) => {
            let _ = writeln!(stderr, "error[C001]: mdbook-community: {e}");
            return 1;
        }
    };
    let output = Output::new(&request.context, &env);
    if output.first_run
        && let Some(warning) = mdbook::protocol::version_warning(&request.context.mdbook_version)
    {
        let _ = writeln!(stderr, "warning[C002]: {warning}");
    }
    // Problems in book.toml fail the build before any chapter is read,
    // unless `on-error = "warn"`: then they are warnings like the rest.
    let (settings, settings_problems) = Settings::read(&request.context, request.book.generation);
    let warn_only = settings.on_error == OnError::Warn;
    if !settings_problems.is_empty() && !warn_only {
        output.report(stderr, settings_problems, &[], &settings);
        if env.check_status.is_none() {
            return 1;
        }
        // `check` counts the problems; mdBook must not stop before the
        // other preprocessors have run.
        return write_book(&request.book, stdout, stderr, |_| None);
    }

    let chapters = &request.book.chapters;
    let (mut answer, mut found) = check_chapters(&settings, registry, chapters);
    report::map_to_files(&mut found, chapters, &settings);
    found.splice(0..0, settings_problems);
    if output.report(stderr, found, chapters, &settings) {
        return 1;
    }

    // Each new content is made, written and dropped in turn.
    write_book(&request.book, stdout, stderr, |i| answer.content(i))
}

/// Writes the answer, each chapter's new content from `content` (`None`
/// where it is unchanged); 0, or 1 when stdout cannot take it.
fn write_book(
    book: &mdbook::Book<'_>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    content: impl FnMut(usize) -> Option<String>,
) -> u8 {
    if let Err(e) = book.write_with(stdout, content) {
        let _ = writeln!(
            stderr,
            "error[C001]: mdbook-community: cannot write the book to stdout: {e}"
        );
        return 1;
    }
    0
}

/// How this run reports what it found.
struct Output<'a> {
    root: &'a Path,
    env: &'a Environment,
    /// Whether this is the first of mdBook's runs for this build (one per
    /// renderer): warnings are printed in that one only.
    first_run: bool,
}

impl<'a> Output<'a> {
    fn new(context: &'a mdbook::Context, env: &'a Environment) -> Self {
        Output {
            root: &context.root,
            env,
            first_run: mdbook::renderers::is_first_run(
                &context.config,
                &context.renderer,
                PREPROCESSOR_NAME,
            ),
        }
    }

    /// How files are named, on the terminal (relative to the user's
    /// folder when `for_people`, else to the book root) and in annotations
    /// (worked out only when there is something to print).
    fn paths(&self, for_people: bool) -> ShownPaths {
        let here = user_folder(self.root, self.env).filter(|_| for_people);
        let repository = (self.env.workspace.as_deref())
            .and_then(|w| w.canonicalize().ok())
            .or_else(|| repository_of(self.root));
        ShownPaths::new(self.root, here.as_deref(), repository.as_deref())
    }

    /// Prints `found` (problems that follow from another are counted, not
    /// printed; after the first run, only errors that fail it are printed)
    /// and the closing line; returns whether the run failed.
    fn report(
        &self,
        stderr: &mut dyn Write,
        found: Vec<Diagnostic>,
        chapters: &[Chapter],
        settings: &Settings,
    ) -> bool {
        let checking = self.env.check_status.is_some();
        let warn_only = settings.on_error == OnError::Warn && !checking;
        let failed = !warn_only && found.iter().any(Diagnostic::is_error);
        let (mut shown, notes) = report::collapse(found);
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
            let format = self.env.message_format;
            let mut text = Vec::new();
            let _ = self.emit(&mut text, format, &printed, chapters, settings);
            self.write_report_file(stderr, path, &text);
        }
        if let Some(status) = &self.env.check_status {
            let errors = shown.iter().filter(|d| d.is_error()).count();
            let warnings = shown
                .iter()
                .filter(|d| d.severity == Severity::Warning)
                .count();
            let counts = format!("errors {errors}\nwarnings {warnings}\n");
            let _ = crate::paths::write_atomically(status, counts.as_bytes());
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
        report::show_paths(&mut shown, &paths);
        // Only the chapters a diagnostic points into are named (which may
        // look the file up) and decoded.
        let named = if shown.is_empty() { 0 } else { chapters.len() };
        let mut names: Vec<String> = vec![String::new(); named];
        let mut texts: Vec<Cow<'_, str>> = vec![Cow::Borrowed(""); named];
        for diagnostic in &shown {
            if let Some(Location::Chapter { chapter, .. }) = diagnostic.location
                && let (Some(name), Some(text), Some(c)) = (
                    names.get_mut(chapter),
                    texts.get_mut(chapter),
                    chapters.get(chapter),
                )
                && name.is_empty()
            {
                *name = display_name(settings, &paths, c);
                *text = c.content.get();
            }
        }
        let sources: Vec<ChapterSource<'_>> = names
            .iter()
            .zip(&texts)
            .map(|(name, text)| ChapterSource { name, text })
            .collect();
        let options = EmitOptions {
            format,
            color: self.env.color && format == MessageFormat::Human,
            paths,
            workflow_commands: self.env.github_actions,
            errors_as_warnings: warn_only,
        };
        report::emit(out, &shown, &sources, &options)?;
        let failed = !warn_only && shown.iter().any(Diagnostic::is_error);
        if !format.is_machine() && (self.first_run || failed) {
            for note in notes {
                match format {
                    MessageFormat::Github => writeln!(
                        out,
                        "::notice::mdbook-community: {}",
                        report::escape_workflow_data(note)
                    )?,
                    _ => writeln!(out, "note: mdbook-community: {note}")?,
                }
            }
        }
        Ok(())
    }

    /// Writes the report to `MDBOOK_COMMUNITY_MESSAGE_FILE` (a relative
    /// path is relative to the user's folder).
    fn write_report_file(&self, stderr: &mut dyn Write, path: &Path, text: &[u8]) {
        let here = user_folder(self.root, self.env);
        let path = match here {
            Some(here) if path.is_relative() => here.join(path),
            _ => path.to_path_buf(),
        };
        if let Err(e) = crate::paths::write_atomically(&path, text) {
            let _ = writeln!(
                stderr,
                "error[C001]: mdbook-community: cannot write the diagnostics to {}: {e}",
                path.display()
            );
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

/// The name mdBook knows this plugin by, in `[preprocessor.NAME]`.
const PREPROCESSOR_NAME: &str = "community";

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

/// The repository the book is in: the nearest folder holding `.git`.
fn repository_of(root: &Path) -> Option<PathBuf> {
    let root = root.canonicalize().ok()?;
    root.ancestors()
        .find(|a| a.join(".git").exists())
        .map(Path::to_path_buf)
}

/// Runs the stages from data to check over `chapters`: new contents
/// (`None` where unchanged) and every diagnostic, data files' first, then
/// the chapters' in book order.
pub fn process_chapters(
    settings: &Settings,
    registry: &Registry,
    chapters: &[Chapter],
) -> (Vec<Option<String>>, Vec<Diagnostic>) {
    let (mut answer, diagnostics) = check_chapters(settings, registry, chapters);
    let contents = (0..chapters.len()).map(|i| answer.content(i)).collect();
    (contents, diagnostics)
}

/// [`process_chapters`], with the new contents left to be made one at a
/// time while the answer is written, so that they are never all in memory.
fn check_chapters<'a>(
    settings: &Settings,
    registry: &Registry,
    chapters: &'a [Chapter],
) -> (Answer<'a>, Vec<Diagnostic>) {
    let data = Data::default();
    let run = Run {
        settings,
        registry,
        chapters,
        data: &data,
    };
    let expanded = expand::expand_book(&run);
    // A page where a directive failed may lack the ids it would have made.
    let partial = expanded
        .iter()
        .map(|e| {
            e.as_ref()
                .is_some_and(|e| e.diagnostics.iter().any(Diagnostic::is_error))
        })
        .collect();
    let texts = |i: usize| -> Cow<'_, str> {
        let content = chapters[i].content.get();
        match &expanded[i] {
            Some(e) => Cow::Owned(e.text(&content)),
            None => content,
        }
    };
    // Only link directives look headings up by their text.
    let heading_texts = match (expanded.iter().flatten()).any(|e| !e.deferred.links.is_empty()) {
        true => HeadingTexts::Keep,
        false => HeadingTexts::Drop,
    };
    let book = BookIndex::new(settings, chapters, Box::new(texts), partial, heading_texts);
    let checked = check::check_book(&run, &expanded, &book);
    let redirects = match settings.check_anchors {
        AnchorCheck::Off => Vec::new(),
        _ => check::redirects::check_redirects(&run, &book),
    };
    drop(book);
    let drift = check::owners::check(settings, &data);
    // Data files' own problems first, once each; then the drift between
    // CODEOWNERS and the roster; then the chapters', in order.
    let mut diagnostics = data.diagnostics();
    diagnostics.extend(drift);
    diagnostics.extend(redirects);
    let mut finished: Vec<Option<Finished>> = (0..chapters.len()).map(|_| None).collect();
    for (index, checked) in checked {
        finished[index] = Some(match checked.text {
            Some(text) => Finished::Text(text),
            None => Finished::Links(checked.links),
        });
        let found = checked.diagnostics.into_iter();
        diagnostics.extend(found.map(|d| d.for_chapter(index)));
    }
    let answer = Answer {
        chapters,
        expanded,
        finished,
    };
    (answer, diagnostics)
}

/// The chapters' new contents, each made when it is asked for.
struct Answer<'a> {
    chapters: &'a [Chapter],
    expanded: Vec<Option<Box<Expanded>>>,
    finished: Vec<Option<Finished>>,
}

/// How the check stage left a chapter.
enum Finished {
    /// Written by the check stage (with notes about broken links).
    Text(String),
    /// The expanded chapter, with these links in place of its markers.
    Links(Vec<std::sync::Arc<str>>),
}

impl Answer<'_> {
    /// Chapter `index`'s new content; `None` when it is unchanged.
    fn content(&mut self, index: usize) -> Option<String> {
        match self.finished.get_mut(index)?.as_mut()? {
            Finished::Text(text) => Some(std::mem::take(text)),
            Finished::Links(links) => {
                let expanded = self.expanded.get(index)?.as_ref()?;
                expanded.finish(&self.chapters[index].content.get(), links)
            }
        }
    }
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
