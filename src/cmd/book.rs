//! Finding and loading a book from the command line, the one way every
//! subcommand does it: `book.toml` read as mdBook reads it, and the
//! settings of `[preprocessor.community]` from it.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::data::files::{MAX_DATA_FILE, read_text};
use crate::diagnostic::{Code, Diagnostic, SourceFile};
use crate::mdbook::Context;
use crate::mdbook::config::{parse_book_toml, plugin_table};

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
        let text = read_text(&path, MAX_DATA_FILE)
            .map_err(|e| NotABook(cannot_run(e.describe(&name)).at_path(&name)))?;
        let book_toml = Arc::new(SourceFile { name, text });
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
