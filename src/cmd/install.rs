//! `mdbook-community install`: adds the preprocessor, and what its directives
//! need, to a book's `book.toml`, keeping the user's comments and order.
//! Running it again changes nothing.

use std::fmt;
use std::path::{Path, PathBuf};

use toml_edit::{Array, Decor, DocumentMut, InlineTable, Item, Key, Table, Value};

use crate::assets;
use crate::files::{MAX_DATA_FILE, ReadError, decode, read_bytes_following_links};
use crate::mdbook::PREPROCESSOR_NAME;
use crate::paths::{PreparedWrite, normalize, prepare_write};

/// What `install` did, for the user.
#[derive(Debug, Default)]
pub struct Report {
    /// One line per change.
    pub changes: Vec<String>,
    /// Things the user may want to do that `install` cannot.
    pub notes: Vec<String>,
    /// The `book.toml` that was edited.
    pub book_toml: PathBuf,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.changes.is_empty() {
            write!(
                f,
                "{} already has everything mdbook-community needs; nothing changed",
                self.book_toml.display()
            )?;
        } else {
            write!(f, "updated {}:", self.book_toml.display())?;
            for change in &self.changes {
                write!(f, "\n  - {change}")?;
            }
        }
        for note in &self.notes {
            write!(f, "\nnote: {note}")?;
        }
        Ok(())
    }
}

/// Why `install` failed.
#[derive(Debug)]
pub enum InstallError {
    /// A file could not be written, or the book's folder looked at.
    Io(PathBuf, std::io::Error),
    /// `book.toml` (or an asset beside it) could not be read: missing, not
    /// a regular file, too big, not UTF-8.
    Read(PathBuf, ReadError),
    /// `book.toml` is not valid TOML.
    Toml(PathBuf, toml_edit::TomlError),
    /// `book.toml` has a value of the wrong type where we need to edit.
    Shape(String),
}

impl fmt::Display for InstallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstallError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            InstallError::Read(path, e) => {
                write!(f, "{}", e.describe(&crate::paths::display(path)))
            }
            InstallError::Toml(path, e) => write!(f, "{} is not valid TOML: {e}", path.display()),
            InstallError::Shape(what) => write!(f, "{what}"),
        }
    }
}

impl std::error::Error for InstallError {}

/// `mdbook-community install BOOK_DIR`: prints what changed.
pub fn run(book_dir: &Path) -> std::process::ExitCode {
    match install(book_dir) {
        Ok(report) => {
            println!("{report}");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: mdbook-community install: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Edits `book_dir/book.toml` (and writes asset files beside it).
///
/// `book.toml` is read only when it is a regular file (through a symbolic
/// link) of at most [`MAX_DATA_FILE`] bytes, so that a FIFO or a device
/// fails at once. It is edited in its own style (inline tables and dotted
/// keys stay as they are, a byte-order mark and `\r\n` line endings are
/// kept), and every byte the edit does not touch is kept.
///
/// Nothing is written in place: every new file is written in full beside
/// its target first (`book.toml` keeping its permissions), then renamed
/// over it, `book.toml` before the assets; a symbolic link is written
/// through, its target replaced ([`prepare_write`]). A full disk, a kill
/// or a read-only `book.toml` leaves every file as it was, and a
/// concurrent run reads either the old file or the new one, never half of
/// one.
pub fn install(book_dir: &Path) -> Result<Report, InstallError> {
    let path = book_dir.join("book.toml");
    let file = TomlFile::read(&path)?;
    let mut doc: DocumentMut =
        (file.text.parse()).map_err(|e| InstallError::Toml(path.clone(), e))?;
    let before = doc.to_string();
    let mut report = Report {
        book_toml: path.clone(),
        ..Report::default()
    };
    edit(&mut doc, &mut report)?;
    let mut writes: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    if html_output(&doc) {
        asset_writes(book_dir, &mut writes, &mut report)?;
    }
    watch_data_folders(&mut doc, book_dir, &mut report)?;
    let new_text = doc.to_string();
    if new_text != before {
        // What is written must read back as what was meant.
        new_text
            .parse::<DocumentMut>()
            .map_err(|e| InstallError::Toml(path.clone(), e))?;
        let metadata = std::fs::metadata(&path).map_err(|e| InstallError::Io(path.clone(), e))?;
        if metadata.permissions().readonly() {
            let e = std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "book.toml is read-only",
            );
            return Err(InstallError::Io(path, e));
        }
        writes.insert(0, (path, file.restore(&new_text)));
    }
    commit(&writes)?;
    Ok(report)
}

/// `book.toml` as read: its text, and what of its bytes `toml_edit` does
/// not keep (a byte-order mark, `\r\n` line endings).
struct TomlFile {
    /// The text, without a byte-order mark.
    text: String,
    /// Whether it starts with a byte-order mark.
    bom: bool,
    /// Whether its lines end in `\r\n` (as its first line does).
    crlf: bool,
}

impl TomlFile {
    /// The file at `path`, when it is a regular file (through a symbolic
    /// link) of at most [`MAX_DATA_FILE`] bytes of UTF-8.
    fn read(path: &Path) -> Result<TomlFile, InstallError> {
        let failed = |e| InstallError::Read(path.to_path_buf(), e);
        let bytes = read_bytes_following_links(path, MAX_DATA_FILE).map_err(failed)?;
        let bom = bytes.starts_with("\u{feff}".as_bytes());
        let text = decode(bytes).map_err(failed)?;
        let crlf = (text.find('\n')).is_some_and(|end| text[..end].ends_with('\r'));
        Ok(TomlFile { text, bom, crlf })
    }

    /// `text`, as `toml_edit` writes it (each line ending in `\n`, but for
    /// the `\r\n`s inside a multi-line string, kept as written), with this
    /// file's byte-order mark and line endings.
    fn restore(&self, text: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() + 3);
        if self.bom {
            out.extend_from_slice("\u{feff}".as_bytes());
        }
        if !self.crlf {
            out.extend_from_slice(text.as_bytes());
            return out;
        }
        let mut previous = 0;
        for &byte in text.as_bytes() {
            if byte == b'\n' && previous != b'\r' {
                out.push(b'\r');
            }
            out.push(byte);
            previous = byte;
        }
        out
    }
}

/// Adds the CSS and JS files beside `book.toml` to `writes` when they are
/// missing or differ from this version's. One that is there but is not a
/// regular file is an error: it is never read nor written.
fn asset_writes(
    book_dir: &Path,
    writes: &mut Vec<(PathBuf, Vec<u8>)>,
    report: &mut Report,
) -> Result<(), InstallError> {
    for (file, content) in [
        (assets::CSS_FILE, assets::CSS),
        (assets::JS_FILE, assets::JS),
    ] {
        let asset = book_dir.join(file);
        // Read no more than it takes to tell whether it is this version.
        let verb = match read_bytes_following_links(&asset, content.len() as u64) {
            Ok(current) if current == content.as_bytes() => continue,
            Ok(_) | Err(ReadError::TooBig { .. }) => "updated",
            Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => "wrote",
            Err(e) => return Err(InstallError::Read(asset, e)),
        };
        report.changes.push(format!("{verb} {}", asset.display()));
        writes.push((asset, content.as_bytes().to_vec()));
    }
    Ok(())
}

/// Readies every file of `writes` ([`prepare_write`]: each new file
/// written beside its target), then commits them in order; on any
/// failure, the files not yet committed are left as they were and what was
/// staged for them is removed.
fn commit(writes: &[(PathBuf, Vec<u8>)]) -> Result<(), InstallError> {
    let prepared = (writes.iter())
        .map(|(target, content)| {
            let prepared = prepare_write(target, content);
            prepared.map_err(|e| InstallError::Io(target.clone(), e))
        })
        .collect::<Result<Vec<PreparedWrite<'_>>, InstallError>>()?;
    for ((target, _), prepared) in writes.iter().zip(prepared) {
        prepared
            .commit()
            .map_err(|e| InstallError::Io(target.clone(), e))?;
    }
    Ok(())
}

/// Whether the book renders HTML: an `[output.html]` table, or no
/// `[output]` at all (mdBook's default).
fn html_output(doc: &DocumentMut) -> bool {
    match doc.get("output") {
        None => true,
        Some(output) => output.get("html").is_some(),
    }
}

/// Adds the folders of the data files the book uses to
/// `build.extra-watch-dirs`, so that `mdbook serve` rebuilds when they
/// change. A folder that holds the build output is added only when
/// mdBook's watcher skips that output (the `.gitignore` it reads ignores
/// it); otherwise the report says why it is not. A folder already watched,
/// itself or through a folder it is in, is not added, nor one inside
/// another added folder: each change rebuilds once. The people file's
/// folder is watched before the file exists, so that a `maintainers.toml`
/// written after `install` is watched too. Everything is worked out from
/// the book's own folder, whatever folder `install` runs in.
fn watch_data_folders(
    doc: &mut DocumentMut,
    book_dir: &Path,
    report: &mut Report,
) -> Result<(), InstallError> {
    let book_dir = book_dir
        .canonicalize()
        .map_err(|e| InstallError::Io(book_dir.to_path_buf(), e))?;
    let layout = Layout::of(doc, &book_dir);
    let watched = layout.watched(doc);
    let mut folders: Vec<PathBuf> = Vec::new();
    for (file, needed) in data_files(doc, &book_dir) {
        let exists = book_dir.join(&file).is_file();
        if !exists && !needed {
            continue;
        }
        // A file that is not there yet gets no note: the book may never
        // have one.
        let mut quiet = Report::default();
        let notes = if exists { &mut *report } else { &mut quiet };
        if let Some(folder) = layout.folder_to_watch(&file, notes)
            && !folders.contains(&folder)
        {
            folders.push(folder);
        }
    }
    let outermost: Vec<PathBuf> = (folders.iter())
        .filter(|f| !watched.iter().any(|w| f.starts_with(w)))
        .filter(|f| !folders.iter().any(|g| g != *f && f.starts_with(g)))
        .cloned()
        .collect();
    if outermost.is_empty() {
        return Ok(());
    }
    let build = table_at(doc.as_item_mut(), "build", false)?;
    for folder in outermost {
        let folder = layout.shown(&folder);
        if ensure_in_array(build, "extra-watch-dirs", &folder)? {
            report.changes.push(format!(
                "`mdbook serve` now watches {folder} (build.extra-watch-dirs)"
            ));
        }
    }
    Ok(())
}

/// The data files the book would use, relative to its root: the people
/// files (configured, as one path or a list, or the default; `true`:
/// watched even before they exist), CODEOWNERS and CONTRIBUTING
/// (configured, or where they are found).
fn data_files(doc: &DocumentMut, book_dir: &Path) -> Vec<(PathBuf, bool)> {
    let community = doc
        .get("preprocessor")
        .and_then(|p| p.get(PREPROCESSOR_NAME));
    let configured = |key: &str| {
        community
            .and_then(|c| c.get(key))
            .and_then(|v| v.as_str())
            .map(PathBuf::from)
    };
    let people: Vec<PathBuf> = match community.and_then(|c| c.get("people")) {
        None => vec![PathBuf::from(crate::people::DEFAULT_FILE)],
        Some(item) => match item.as_array() {
            Some(sources) => sources.iter().filter_map(source_path).collect(),
            None => item.as_value().and_then(source_path).into_iter().collect(),
        },
    };
    // `copies = { GROUP = ["PATH#NAME", ...] }`: the copies' files too.
    let copies: Vec<PathBuf> = (community.and_then(|c| c.get("copies")))
        .and_then(|c| c.as_table_like())
        .into_iter()
        .flat_map(|table| table.iter().filter_map(|(_, list)| list.as_array()))
        .flat_map(|list| list.iter().filter_map(copy_path))
        .collect();
    let found = crate::data::candidate_files(
        book_dir,
        configured("codeowners"),
        configured("contributing"),
    );
    (people.into_iter().map(|p| (p, true)))
        .chain(copies.into_iter().map(|c| (c, false)))
        .chain(found.into_iter().map(|f| (f, false)))
        .collect()
}

/// A `people` source's path: `"path"` or `{ path = "..." }`.
fn source_path(value: &Value) -> Option<PathBuf> {
    match value {
        Value::String(path) => Some(PathBuf::from(path.value())),
        Value::InlineTable(table) => table.get("path")?.as_str().map(PathBuf::from),
        _ => None,
    }
}

/// A copy's path: `"path#name"` or `{ path = "..." }`.
fn copy_path(value: &Value) -> Option<PathBuf> {
    match value {
        Value::String(spelled) => {
            let spelled = spelled.value();
            let path = spelled
                .rsplit_once('#')
                .map_or(spelled.as_str(), |(path, _)| path);
            Some(PathBuf::from(path))
        }
        other => source_path(other),
    }
}

/// Where a book's sources and build output are, as absolute paths.
struct Layout<'a> {
    book_dir: &'a Path,
    build_dir: String,
    build_abs: PathBuf,
    src_abs: PathBuf,
}

impl<'a> Layout<'a> {
    /// The layout of the book in `book_dir` (absolute).
    fn of(doc: &DocumentMut, book_dir: &'a Path) -> Self {
        let setting = |table: &str, key: &str, default: &str| {
            doc.get(table)
                .and_then(|t| t.get(key))
                .and_then(|s| s.as_str())
                .unwrap_or(default)
                .to_string()
        };
        let src = setting("book", "src", "src");
        let build_dir = setting("build", "build-dir", "book");
        Layout {
            book_dir,
            build_abs: normalize(&book_dir.join(&build_dir)),
            src_abs: normalize(&book_dir.join(&src)),
            build_dir,
        }
    }

    /// The folders `build.extra-watch-dirs` lists already, resolved.
    fn watched(&self, doc: &DocumentMut) -> Vec<PathBuf> {
        let listed = doc
            .get("build")
            .and_then(|b| b.get("extra-watch-dirs"))
            .and_then(|w| w.as_array());
        listed
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str())
            .map(|folder| normalize(&self.book_dir.join(folder)))
            .collect()
    }

    /// `folder` (absolute) as `extra-watch-dirs` lists it: relative to the
    /// book's folder.
    fn shown(&self, folder: &Path) -> String {
        let relative = crate::paths::relative_path(self.book_dir, folder);
        match crate::paths::display(&relative).as_str() {
            "" => ".".to_string(),
            shown => shown.to_string(),
        }
    }

    /// The folder (absolute) to watch for `file` (relative to the book
    /// root), or `None` when mdBook watches it already or watching it would
    /// rebuild forever (then the report says why).
    fn folder_to_watch(&self, file: &Path, report: &mut Report) -> Option<PathBuf> {
        let folder_rel = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let folder_abs = normalize(&self.book_dir.join(&folder_rel));
        if folder_abs.starts_with(&self.src_abs) {
            return None; // mdBook watches `src` already
        }
        let build_dir = &self.build_dir;
        if self.build_abs.starts_with(&folder_abs) && !self.watcher_skips_build() {
            let inside = self.build_abs.starts_with(self.book_dir);
            report.notes.push(format!(
                "`mdbook serve` will not rebuild when {} changes: its folder also holds the build output `{build_dir}`, so every build would trigger the next. {}",
                file.display(),
                if inside {
                    format!("Add `/{build_dir}/` to .gitignore beside book.toml (mdBook's watcher skips ignored files) and run `install` again, or move the file into a folder of its own.")
                } else {
                    "Move the file into a folder of its own to have it watched.".to_string()
                }
            ));
            return None;
        }
        Some(folder_abs)
    }

    /// Whether mdBook's watcher skips the build output: it filters the
    /// changes inside the book's folder through the nearest `.gitignore` at
    /// or above it (and never the ones outside).
    fn watcher_skips_build(&self) -> bool {
        if !self.build_abs.starts_with(self.book_dir) {
            return false;
        }
        let ancestors = self.book_dir.ancestors();
        let Some(gitignore) = ancestors
            .map(|p| p.join(".gitignore"))
            .find(|p| p.is_file())
        else {
            return false;
        };
        let (matcher, _) = ignore::gitignore::Gitignore::new(&gitignore);
        let base = gitignore.parent().unwrap_or(Path::new(""));
        let Ok(relative) = self.build_abs.strip_prefix(base) else {
            return false;
        };
        // What the watcher sees is a file the build writes in it.
        let written = relative.join("index.html");
        matcher
            .matched_path_or_any_parents(written, false)
            .is_ignore()
    }
}

/// The `book.toml` edits, on a parsed document.
pub fn edit(doc: &mut DocumentMut, report: &mut Report) -> Result<(), InstallError> {
    let preprocessor = table_at(doc.as_item_mut(), "preprocessor", true)?;
    let existed = preprocessor.get(PREPROCESSOR_NAME).is_some();
    let community = table_at(preprocessor, PREPROCESSOR_NAME, false)?;
    if !existed {
        report
            .changes
            .push("added [preprocessor.community]".to_string());
    }
    if ensure_in_array(community, "after", "links")? {
        report.changes.push(
            "[preprocessor.community] runs after = [\"links\"], so {{#include}}d files are expanded first"
                .to_string(),
        );
    }
    if html_output(doc) {
        let output = table_at(doc.as_item_mut(), "output", true)?;
        let html = table_at(output, "html", false)?;
        for (key, file) in [
            ("additional-css", assets::CSS_FILE),
            ("additional-js", assets::JS_FILE),
        ] {
            if ensure_in_array(html, key, file)? {
                report
                    .changes
                    .push(format!("[output.html] {key} includes {file}"));
            }
        }
    }
    Ok(())
}

/// The table `key` of `parent` (a table or an inline table), made when
/// missing in the style of `parent` ([`new_table`]). A table keeps the
/// style it is written in: an inline table is edited as one.
fn table_at<'t>(
    parent: &'t mut Item,
    key: &str,
    implicit: bool,
) -> Result<&'t mut Item, InstallError> {
    let shape = || InstallError::Shape(format!("`{key}` in book.toml is not a table"));
    if parent.get(key).is_none() {
        let table = new_table(parent, implicit);
        insert_in_style(parent, key, table);
    }
    let item = parent.get_mut(key).ok_or_else(shape)?;
    if item.is_table_like() {
        Ok(item)
    } else {
        Err(shape())
    }
}

/// A new, empty table for `parent`: `{}` inside an inline table (nothing
/// can be added to one from outside it), dotted keys beside dotted keys
/// (`preprocessor.links.x = 1` gets `preprocessor.community.after = ...`),
/// else a `[table]` (`implicit`: one whose header is left out, as
/// `[preprocessor]` above `[preprocessor.community]`).
fn new_table(parent: &Item, implicit: bool) -> Item {
    if parent.is_inline_table() {
        return Item::Value(Value::InlineTable(InlineTable::new()));
    }
    let mut table = Table::new();
    if parent.as_table().is_some_and(Table::is_dotted) {
        table.set_dotted(true);
    } else {
        table.set_implicit(implicit);
    }
    Item::Table(table)
}

/// Adds `key = item` to `table` (a table or an inline table; an item an
/// inline table cannot hold is left out), after its last entry.
fn insert_in_style(table: &mut Item, key: &str, item: Item) {
    match table {
        Item::Table(table) => {
            table.insert(key, item);
        }
        Item::Value(Value::InlineTable(table)) => {
            if let Ok(value) = item.into_value() {
                append_to_inline(table, key, value);
            }
        }
        _ => {}
    }
}

/// Adds `key = value` to `table` after its last entry, spaced as it is:
/// `{ a = 1 }` becomes `{ a = 1, key = value }` (not `{ a = 1 , key =
/// value }`).
fn append_to_inline(table: &mut InlineTable, key: &str, mut value: Value) {
    let Some((_, last)) = table.iter_mut().last() else {
        table.insert(key, value);
        return;
    };
    if let Some(space) = trailing_space(last) {
        last.decor_mut().set_suffix("");
        value.decor_mut().set_suffix(space);
    }
    value.decor_mut().set_prefix(" ");
    let key = Key::new(key).with_leaf_decor(Decor::new(" ", " "));
    table.insert_formatted(&key, value);
}

/// Adds `entry` after the last value of `array`, spaced as it is: on a line
/// of its own, indented as the last, in an array of one value a line, and
/// before the space or line break that closes the array.
fn push_in_style(array: &mut Array, entry: &str) {
    let mut value = Value::from(entry);
    let Some(last) = array.iter_mut().last() else {
        array.push(value);
        return;
    };
    let prefix = last.decor().prefix().and_then(|p| p.as_str());
    let line = prefix.and_then(|p| p.rfind('\n').map(|at| p[at..].to_string()));
    if let Some(space) = trailing_space(last) {
        last.decor_mut().set_suffix("");
        value.decor_mut().set_suffix(space);
    }
    value
        .decor_mut()
        .set_prefix(line.unwrap_or_else(|| " ".to_string()));
    array.push_formatted(value);
}

/// The white space after `value` (before a `,`, `]` or `}`), when that is
/// all there is (a comment stays where it is).
fn trailing_space(value: &Value) -> Option<String> {
    let suffix = value.decor().suffix()?.as_str()?;
    suffix.trim().is_empty().then(|| suffix.to_string())
}

/// Makes sure `table.key` is an array containing `entry`; returns whether
/// anything changed.
fn ensure_in_array(table: &mut Item, key: &str, entry: &str) -> Result<bool, InstallError> {
    // `get`, not `get_mut`: that one adds an empty entry for a missing key.
    if table.get(key).is_none() {
        let mut array = Array::new();
        array.push(entry);
        insert_in_style(table, key, Item::Value(Value::Array(array)));
        return Ok(true);
    }
    let array = (table.get_mut(key))
        .and_then(Item::as_array_mut)
        .ok_or_else(|| InstallError::Shape(format!("`{key}` in book.toml is not an array")))?;
    if array.iter().any(|v| v.as_str() == Some(entry)) {
        return Ok(false);
    }
    push_in_style(array, entry);
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> (String, Vec<String>) {
        let mut doc: DocumentMut = text.parse().expect("valid TOML");
        let mut report = Report::default();
        edit(&mut doc, &mut report).expect("editable");
        (doc.to_string(), report.changes)
    }

    #[test]
    fn adds_the_preprocessor_keeping_comments_and_order() {
        let original = "# My book\n[book]\ntitle = \"T\" # the title\n\n[output.html]\n";
        let (text, changes) = run(original);
        assert!(
            text.starts_with("# My book\n[book]\ntitle = \"T\" # the title\n"),
            "{text}"
        );
        assert!(
            text.contains("[preprocessor.community]\nafter = [\"links\"]"),
            "{text}"
        );
        assert!(
            text.contains("[output.html]\nadditional-css = [\"mdbook-community.css\"]\nadditional-js = [\"mdbook-community.js\"]"),
            "{text}"
        );
        assert_eq!(changes.len(), 4, "{changes:?}");
    }

    #[test]
    fn does_not_turn_on_html_output() {
        let (text, _) = run("[output.markdown]\n");
        assert!(!text.contains("output.html"), "{text}");
    }

    #[test]
    fn is_idempotent() {
        let (once, _) = run("[book]\n");
        let (twice, changes) = run(&once);
        assert_eq!(once, twice);
        assert!(changes.is_empty());
    }

    #[test]
    fn extends_an_existing_after_list() {
        let (text, _) = run("[preprocessor.community]\nafter = [\"index\"]\ncommand = \"x\"\n");
        assert!(text.contains("after = [\"index\", \"links\"]"), "{text}");
        assert!(text.contains("command = \"x\""), "{text}");
    }

    #[test]
    fn a_folder_inside_a_watched_one_is_not_added() {
        let dir = tempfile::tempdir().expect("tempdir");
        let book = dir.path().join("book");
        std::fs::create_dir_all(&book).expect("mkdir");
        std::fs::write(book.join(".gitignore"), "book\n").expect("write");
        std::fs::write(book.join("maintainers.toml"), "").expect("write");
        let mut doc: DocumentMut = "[build]\nextra-watch-dirs = [\"..\"]\n"
            .parse()
            .expect("valid TOML");
        let mut report = Report::default();
        watch_data_folders(&mut doc, &book, &mut report).expect("editable");
        assert!(
            doc.to_string().contains("extra-watch-dirs = [\"..\"]\n"),
            "{doc}"
        );
        assert!(report.changes.is_empty(), "{:?}", report.changes);
    }

    #[test]
    fn the_folders_of_a_groups_copies_are_watched() {
        let dir = tempfile::tempdir().expect("tempdir");
        let book = dir.path().join("docs");
        std::fs::create_dir_all(dir.path().join(".project")).expect("mkdir");
        std::fs::create_dir_all(dir.path().join("teams")).expect("mkdir");
        std::fs::create_dir_all(&book).expect("mkdir");
        std::fs::write(dir.path().join(".project/maintainers.yaml"), "").expect("write");
        std::fs::write(dir.path().join("teams/OWNERS_ALIASES"), "").expect("write");
        let mut doc: DocumentMut = "[preprocessor.community]\npeople = \"maintainers.toml\"\n\n\
             [preprocessor.community.copies]\nmaintainers = [\"../.project/maintainers.yaml\", \
             { path = \"../teams/OWNERS_ALIASES\" }]\n"
            .parse()
            .expect("valid TOML");
        let mut report = Report::default();
        watch_data_folders(&mut doc, &book, &mut report).expect("editable");
        let text = doc.to_string();
        assert!(text.contains("\"../.project\""), "{text}");
        assert!(text.contains("\"../teams\""), "{text}");
    }

    #[test]
    fn the_people_files_folder_is_watched_before_the_file_exists() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join(".gitignore"), "/book/\n").expect("write");
        let mut doc: DocumentMut = "[book]\n".parse().expect("valid TOML");
        let mut report = Report::default();
        watch_data_folders(&mut doc, dir.path(), &mut report).expect("editable");
        assert!(
            doc.to_string().contains("extra-watch-dirs = [\".\"]"),
            "{doc}"
        );
        // Without the .gitignore the root cannot be watched, and a file
        // that is not there gets no note either.
        let dir = tempfile::tempdir().expect("tempdir");
        let mut doc: DocumentMut = "[book]\n".parse().expect("valid TOML");
        let mut report = Report::default();
        watch_data_folders(&mut doc, dir.path(), &mut report).expect("editable");
        assert!(!doc.to_string().contains("extra-watch-dirs"), "{doc}");
        assert!(report.notes.is_empty(), "{:?}", report.notes);
    }

    /// Tables stay in the style they are written in: an inline table is
    /// added to as one (spaced as it is), dotted keys get dotted keys, a
    /// multi-line array gets a line; nothing else changes.
    #[test]
    fn edits_inline_tables_dotted_keys_and_arrays_in_their_own_style() {
        for (original, expected) in [
            (
                "preprocessor.community = { after = [\"index\"] }\n[output.html]\n",
                "preprocessor.community = { after = [\"index\", \"links\"] }\n[output.html]\nadditional-css = [\"mdbook-community.css\"]\nadditional-js = [\"mdbook-community.js\"]\n",
            ),
            (
                "[preprocessor]\ncommunity = {command = \"x\"}\n[output]\nhtml = {}\n",
                "[preprocessor]\ncommunity = {command = \"x\", after = [\"links\"]}\n[output]\nhtml = { additional-css = [\"mdbook-community.css\"], additional-js = [\"mdbook-community.js\"] }\n",
            ),
            (
                "preprocessor.links.x = 1\noutput.html.theme = \"t\"\n",
                "preprocessor.links.x = 1\npreprocessor.community.after = [\"links\"]\noutput.html.theme = \"t\"\noutput.html.additional-css = [\"mdbook-community.css\"]\noutput.html.additional-js = [\"mdbook-community.js\"]\n",
            ),
            (
                "[preprocessor.community]\nafter = [\n    \"index\" # first\n]\n[output.html]\n",
                "[preprocessor.community]\nafter = [\n    \"index\" # first\n,\n    \"links\"]\n[output.html]\nadditional-css = [\"mdbook-community.css\"]\nadditional-js = [\"mdbook-community.js\"]\n",
            ),
        ] {
            let (text, _) = run(original);
            assert_eq!(text, expected);
        }
    }

    /// The bytes `toml_edit` does not keep are put back: a byte-order mark,
    /// and `\r\n` on every line (but not twice where a multi-line string
    /// kept one).
    #[test]
    fn keeps_a_byte_order_mark_and_crlf_line_endings() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("book.toml");
        let original = "\u{feff}a = 1\r\ns = '''x\r\ny'''\r\n";
        std::fs::write(&path, original).expect("write");
        let file = TomlFile::read(&path).expect("read");
        assert!(file.bom && file.crlf);
        let doc: DocumentMut = file.text.parse().expect("valid TOML");
        let text = format!("{doc}b = 2\n");
        let restored = String::from_utf8(file.restore(&text)).expect("UTF-8");
        assert_eq!(restored, format!("{original}b = 2\r\n"));
        std::fs::write(&path, "a = 1\n").expect("write");
        let file = TomlFile::read(&path).expect("read");
        assert!(!file.bom && !file.crlf);
        assert_eq!(file.restore("a = 1\nb = 2\n"), b"a = 1\nb = 2\n");
    }

    #[test]
    fn rejects_wrong_types() {
        let mut doc: DocumentMut = "preprocessor = 3\n".parse().expect("valid TOML");
        assert!(edit(&mut doc, &mut Report::default()).is_err());
    }
}
