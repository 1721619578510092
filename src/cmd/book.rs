//! Finding and loading a book from the command line, the one way every
//! subcommand does it: `book.toml` read as mdBook reads it, and the
//! settings of `[preprocessor.community]` from it.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::Settings;
use crate::diagnostic::{Code, Diagnostic, SourceFile};
use crate::files::{MAX_DATA_FILE, read_text_following_links};
use crate::mdbook::config::{parse_book_toml, plugin_table};
use crate::mdbook::{Context, Generation};
use crate::paths::ShownPaths;
use crate::report::{EmitOptions, MessageFormat, emit, show_paths};

/// A book found on the command line.
pub struct LoadedBook {
    /// `book.toml`, as text (diagnostics point into it).
    pub book_toml: Arc<SourceFile>,
    /// What mdBook would tell the plugin about the book (for the HTML
    /// renderer).
    pub context: Context,
}

/// Why a folder cannot be loaded as a book: one diagnostic, located in
/// `book.toml` where it can be.
#[derive(Debug)]
pub struct NotABook(pub Diagnostic);

impl LoadedBook {
    /// The book in `dir`.
    pub fn load(dir: &Path) -> Result<LoadedBook, NotABook> {
        let path = dir.join("book.toml");
        if !path.is_file() {
            let message = format!(
                "{} is not an mdBook book: there is no book.toml in it",
                crate::paths::display(dir)
            );
            return Err(NotABook(cannot_run(message)));
        }
        // Named relative to the book root, as every file of the book is.
        let name = "book.toml".to_string();
        let text = read_text_following_links(&path, MAX_DATA_FILE)
            .map_err(|e| NotABook(cannot_run(e.describe(&name)).at_path(&name)))?;
        let book_toml = Arc::new(SourceFile::new(name, text));
        let config = parse_book_toml(&book_toml.text).map_err(|e| {
            let message = format!("book.toml is not valid TOML: {}", e.message);
            NotABook(located(cannot_run(message), &book_toml, e.range))
        })?;
        let context = Context {
            root: std::path::absolute(dir).unwrap_or_else(|_| PathBuf::from(dir)),
            config,
            renderer: "html".into(),
            mdbook_version: String::new(),
        };
        Ok(LoadedBook { book_toml, context })
    }

    /// The book, which must have `[preprocessor.community]`.
    pub fn load_with_plugin(dir: &Path) -> Result<LoadedBook, NotABook> {
        let book = LoadedBook::load(dir)?;
        if plugin_table(&book.context.config).is_none() {
            let message =
                "book.toml has no [preprocessor.community]; add it with `mdbook-community install`";
            return Err(NotABook(cannot_run(message).at_path(&book.book_toml.name)));
        }
        Ok(book)
    }
}

impl LoadedBook {
    /// The book's settings as a build with mdBook 0.5 reads them, and the
    /// problems with them.
    pub fn settings(&self) -> (Settings, Vec<Diagnostic>) {
        Settings::read(&self.context, Generation::V05)
    }
}

/// Prints `diagnostics` of the book in `root` in `format` (files named
/// for the user's folder in the human format), ending with one line
/// ending when there is no place to show.
pub fn print(
    out: &mut dyn std::io::Write,
    diagnostics: &[Diagnostic],
    root: &Path,
    format: MessageFormat,
    color: bool,
) -> std::io::Result<()> {
    let human = format == MessageFormat::Human;
    let here = std::env::current_dir().ok().filter(|_| human);
    let repository = crate::paths::repository_of(root);
    let paths = ShownPaths::new(root, here.as_deref(), repository.as_deref());
    let mut shown = diagnostics.to_vec();
    show_paths(&mut shown, &paths);
    let options = EmitOptions {
        format,
        color: color && human,
        paths,
        workflow_commands: false,
        errors_as_warnings: false,
    };
    let mut text = Vec::new();
    emit(&mut text, &shown, &[], &options)?;
    if human && !text.is_empty() {
        text.truncate(text.trim_ascii_end().len());
        text.push(b'\n');
    }
    out.write_all(&text)
}

/// The diagnostic for a command that cannot run.
pub fn cannot_run(message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(Code::CannotRun, message)
}

fn located(d: Diagnostic, file: &Arc<SourceFile>, range: Option<Range<usize>>) -> Diagnostic {
    match range {
        Some(range) => d.in_file(file, range),
        None => d.at_path(&file.name),
    }
}
