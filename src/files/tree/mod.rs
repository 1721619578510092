//! Data files (TOML or JSON) read into one tree whose every key and value
//! knows its byte range, so that a wrong value can be reported at its line
//! and column whichever format the author chose.

mod json;
mod yaml;

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use crate::diagnostic::{Code, Diagnostic, SourceFile};
use crate::files::{self, ReadError};

/// A value and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Byte range of the value in the file.
    pub span: Range<usize>,
    /// The value.
    pub kind: NodeKind,
}

/// The kinds of value a data file holds.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// A table (TOML) or object (JSON), in file order.
    Table(Vec<Entry>),
    /// An array.
    Array(Vec<Node>),
    /// A string.
    Str(String),
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(f64),
    /// Anything else (JSON `null`, TOML dates): named for error messages.
    Other(&'static str),
}

/// A key and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The key.
    pub key: String,
    /// Where the key is.
    pub key_span: Range<usize>,
    /// The value.
    pub value: Node,
}

impl NodeKind {
    /// The kind's name, as used in "expected a string, found an array".
    pub fn describe(&self) -> &'static str {
        match self {
            NodeKind::Table(_) => "a table",
            NodeKind::Array(_) => "an array",
            NodeKind::Str(_) => "a string",
            NodeKind::Bool(_) => "a boolean",
            NodeKind::Number(_) => "a number",
            NodeKind::Other(name) => name,
        }
    }
}

/// Reads a data file: bytes to text (UTF-8, an optional BOM), then TOML or
/// JSON by extension. `display` is the path shown in diagnostics.
pub fn read(path: &Path, display: &str) -> Result<(Arc<SourceFile>, Node), Vec<Diagnostic>> {
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    read_as(path, display, is_json)
}

/// Reads a data file that is JSON (`is_json`) or TOML whatever its name
/// (`.all-contributorsrc`), under the same limits as [`read`].
pub fn read_as(
    path: &Path,
    display: &str,
    is_json: bool,
) -> Result<(Arc<SourceFile>, Node), Vec<Diagnostic>> {
    let bytes = files::read_bytes(path, files::MAX_DATA_FILE).map_err(|e| {
        vec![Diagnostic::error(Code::UnreadableFile, e.describe(display)).at_path(display)]
    })?;
    parse_bytes(bytes, display, is_json)
}

/// Reads a YAML file into the tree (Kubernetes OWNERS files).
pub fn read_yaml(path: &Path, display: &str) -> Result<(Arc<SourceFile>, Node), Vec<Diagnostic>> {
    let file = read_text_file(path, display)?;
    let node = yaml::parse(&file).map_err(|d| vec![d])?;
    Ok((file, node))
}

/// A YAML file read, or why it could not be.
pub type YamlRead = Result<(Arc<SourceFile>, Node), Vec<Diagnostic>>;

/// The YAML files of one run, each read once whoever asks: an OWNERS file
/// can be a people source and a part of the OWNERS tree, and
/// OWNERS_ALIASES both a people source and the tree's aliases.
#[derive(Debug, Default)]
pub struct YamlFiles {
    read: std::sync::Mutex<std::collections::HashMap<std::path::PathBuf, YamlRead>>,
}

impl YamlFiles {
    /// The YAML file at `path` (shown as `display` by whoever reads it
    /// first), read on the first call for it.
    pub fn read(&self, path: &Path, display: &str) -> YamlRead {
        // The directory entry, not what a link leads to: two links to one
        // file are two files, each reported at its own name.
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let key = crate::paths::in_real_folder(&absolute);
        let mut read = self.read.lock().unwrap_or_else(|e| e.into_inner());
        read.entry(key)
            .or_insert_with(|| read_yaml(path, display))
            .clone()
    }
}

/// YAML `text`, named `name`, read into the tree (for tests and fuzzing).
pub fn parse_yaml(name: &str, text: &str) -> YamlRead {
    let file = Arc::new(SourceFile::new(name.to_string(), text.to_string()));
    let node = yaml::parse(&file).map_err(|d| vec![d])?;
    Ok((file, node))
}

/// Reads a text file for a reader of its own, with the one error a file
/// that cannot be read gives (at the first byte that is not UTF-8, when
/// that is why).
pub fn read_text_file(path: &Path, display: &str) -> Result<Arc<SourceFile>, Vec<Diagnostic>> {
    let bytes = files::read_bytes(path, files::MAX_DATA_FILE).map_err(|e| {
        vec![Diagnostic::error(Code::UnreadableFile, e.describe(display)).at_path(display)]
    })?;
    decoded(bytes, display)
}

/// As [`read_text_file`], for a reader that reads the file by its lines:
/// lone CRs (old Mac line endings) are line endings, see
/// [`files::lone_cr_as_lf`].
pub fn read_lines_file(path: &Path, display: &str) -> Result<Arc<SourceFile>, Vec<Diagnostic>> {
    let bytes = files::read_bytes(path, files::MAX_DATA_FILE).map_err(|e| {
        vec![Diagnostic::error(Code::UnreadableFile, e.describe(display)).at_path(display)]
    })?;
    match files::decode(bytes) {
        Ok(text) => Ok(Arc::new(SourceFile::new(
            display.to_string(),
            files::lone_cr_as_lf(text),
        ))),
        Err(e) => decoded_error(e, display),
    }
}

/// `bytes` as the text of the file shown as `display`; the error at the
/// first byte that is not UTF-8.
fn decoded(bytes: Vec<u8>, display: &str) -> Result<Arc<SourceFile>, Vec<Diagnostic>> {
    match files::decode(bytes) {
        Ok(text) => Ok(Arc::new(SourceFile::new(display.to_string(), text))),
        Err(e) => decoded_error(e, display),
    }
}

/// The error of a file whose bytes could not be decoded: at the first
/// byte that is not UTF-8.
fn decoded_error(error: ReadError, display: &str) -> Result<Arc<SourceFile>, Vec<Diagnostic>> {
    match error {
        ReadError::NotUtf8 { lossy, at } => {
            let file = Arc::new(SourceFile::new(display.to_string(), lossy));
            Err(vec![
                Diagnostic::error(
                    Code::UnreadableFile,
                    format!("{display} is not valid UTF-8"),
                )
                .in_file(&file, at..at + 1)
                .with_label("invalid byte here")
                .with_help("save the file as UTF-8"),
            ])
        }
        e => Err(vec![
            Diagnostic::error(Code::UnreadableFile, e.describe(display)).at_path(display),
        ]),
    }
}

/// Like [`read`], for bytes already in memory.
pub fn parse_bytes(
    bytes: Vec<u8>,
    display: &str,
    is_json: bool,
) -> Result<(Arc<SourceFile>, Node), Vec<Diagnostic>> {
    let file = decoded(bytes, display)?;
    let node = if is_json {
        json::parse(&file)
    } else {
        parse_toml(&file)
    }
    .map_err(|d| vec![d])?;
    Ok((file, node))
}

/// Parses TOML with `toml_edit`, which keeps spans.
fn parse_toml(file: &Arc<SourceFile>) -> Result<Node, Diagnostic> {
    let doc = toml_edit::Document::parse(file.text.as_str()).map_err(|e| {
        // The nesting limit's error comes without a place: find it.
        let span = e
            .span()
            .filter(|span| !span.is_empty() || span.start > 0)
            .or_else(|| too_deep_at(&file.text).map(|at| at..at + 1))
            .unwrap_or(0..0);
        Diagnostic::error(
            Code::SyntaxError,
            format!("{} is not valid TOML", file.name),
        )
        .in_file(file, span)
        .with_label(e.message().trim().to_string())
    })?;
    Ok(toml_table(doc.as_table(), 0..0))
}

/// Where TOML nests deeper than `toml_edit` allows (80): the first `[` or
/// `{` of a value that does, or the dot of a key (dotted, or in a table
/// header) with that many parts; skipping strings and comments. `None`
/// when nothing does.
fn too_deep_at(text: &str) -> Option<usize> {
    const LIMIT: usize = 80;
    let bytes = text.as_bytes();
    let (mut depth, mut i, mut after_equals, mut dots) = (0usize, 0, false, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
                continue;
            }
            b'"' | b'\'' => {
                i = string_end(bytes, i);
                continue;
            }
            b'=' => after_equals = true,
            b'.' if depth == 0 && !after_equals => {
                dots += 1;
                if dots + 1 >= LIMIT {
                    return Some(i);
                }
            }
            b'\n' if depth == 0 => {
                after_equals = false;
                dots = 0;
            }
            b'[' | b'{' if depth > 0 || after_equals => {
                depth += 1;
                if depth > LIMIT {
                    return Some(i);
                }
            }
            b']' | b'}' if depth > 0 => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The offset after the TOML string that starts at `start` (a quote).
fn string_end(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let triple = bytes[start..].starts_with(&[quote; 3]);
    let mut i = start + if triple { 3 } else { 1 };
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quote == b'"' => i += 1,
            b'\n' if !triple => return i,
            c if c == quote && (!triple || bytes[i..].starts_with(&[quote; 3])) => {
                return i + if triple { 3 } else { 1 };
            }
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

fn toml_table(table: &toml_edit::Table, fallback: Range<usize>) -> Node {
    let span = table.span().unwrap_or(fallback);
    let entries = table
        .iter()
        .filter_map(|(key, _)| table.get_key_value(key))
        .map(|(key, item)| {
            let key_span = key.span().unwrap_or(0..0);
            Entry {
                key: key.get().to_string(),
                key_span: key_span.clone(),
                value: toml_item(item, key_span),
            }
        })
        .collect();
    Node {
        span,
        kind: NodeKind::Table(entries),
    }
}

fn toml_item(item: &toml_edit::Item, key_span: Range<usize>) -> Node {
    match item {
        toml_edit::Item::Table(table) => toml_table(table, key_span),
        toml_edit::Item::ArrayOfTables(array) => Node {
            span: array.span().unwrap_or(key_span.clone()),
            kind: NodeKind::Array(
                array
                    .iter()
                    .map(|t| toml_table(t, key_span.clone()))
                    .collect(),
            ),
        },
        toml_edit::Item::Value(value) => toml_value(value, key_span),
        toml_edit::Item::None => Node {
            span: key_span,
            kind: NodeKind::Other("nothing"),
        },
    }
}

fn toml_value(value: &toml_edit::Value, fallback: Range<usize>) -> Node {
    use toml_edit::Value;
    let span = value.span().unwrap_or(fallback);
    let kind = match value {
        Value::String(s) => NodeKind::Str(s.value().clone()),
        Value::Integer(i) => NodeKind::Number(*i.value() as f64),
        Value::Float(f) => NodeKind::Number(*f.value()),
        Value::Boolean(b) => NodeKind::Bool(*b.value()),
        Value::Datetime(_) => NodeKind::Other("a date"),
        Value::Array(array) => {
            NodeKind::Array(array.iter().map(|v| toml_value(v, span.clone())).collect())
        }
        Value::InlineTable(table) => NodeKind::Table(
            table
                .iter()
                .filter_map(|(key, _)| table.get_key_value(key))
                .map(|(key, v)| {
                    let key_span = key.span().unwrap_or(span.clone());
                    Entry {
                        key: key.get().to_string(),
                        key_span: key_span.clone(),
                        value: toml_item(v, key_span),
                    }
                })
                .collect(),
        ),
    };
    Node { span, kind }
}

#[cfg(test)]
mod tests;
