//! Data files (TOML or JSON) read into one tree whose every key and value
//! knows its byte range, so that a wrong value can be reported at its line
//! and column whichever format the author chose.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use super::files::{self, ReadError};
use crate::diagnostic::{Diagnostic, SourceFile};

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
    let bytes = std::fs::read(path).map_err(|e| {
        vec![Diagnostic::error(format!("cannot read {display}: {e}")).at_path(display)]
    })?;
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    parse_bytes(bytes, display, is_json)
}

/// Like [`read`], for bytes already in memory.
pub fn parse_bytes(
    bytes: Vec<u8>,
    display: &str,
    is_json: bool,
) -> Result<(Arc<SourceFile>, Node), Vec<Diagnostic>> {
    let text = match files::decode(bytes) {
        Ok(text) => text,
        Err(ReadError::NotUtf8 { lossy, at }) => {
            let file = Arc::new(SourceFile {
                name: display.to_string(),
                text: lossy,
            });
            return Err(vec![
                Diagnostic::error(format!("{display} is not valid UTF-8"))
                    .in_file(&file, at..at + 1)
                    .with_label("invalid byte here")
                    .with_help("save the file as UTF-8"),
            ]);
        }
        Err(ReadError::Io(e)) => {
            return Err(vec![
                Diagnostic::error(format!("cannot read {display}: {e}")).at_path(display),
            ]);
        }
    };
    let file = Arc::new(SourceFile {
        name: display.to_string(),
        text,
    });
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
        let span = e.span().unwrap_or(0..0);
        Diagnostic::error(format!("{} is not valid TOML", file.name))
            .in_file(file, span)
            .with_label(e.message().trim().to_string())
    })?;
    Ok(toml_table(doc.as_table(), 0..0))
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

/// JSON with spans. `serde_json` checks the syntax and gives the message;
/// this small reader then builds the spanned tree from text known to be
/// valid, and reports duplicate keys, which JSON parsers silently accept.
mod json {
    use super::*;

    pub(super) fn parse(file: &Arc<SourceFile>) -> Result<Node, Diagnostic> {
        let text = file.text.as_str();
        if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
            let at = offset_of(text, e.line(), e.column());
            return Err(
                Diagnostic::error(format!("{} is not valid JSON", file.name))
                    .in_file(file, at..at + 1)
                    .with_label(strip_position(&e.to_string())),
            );
        }
        let mut reader = Reader { text, pos: 0, file };
        let node = reader.value()?;
        Ok(node)
    }

    fn strip_position(message: &str) -> String {
        match message.find(" at line ") {
            Some(i) => message[..i].to_string(),
            None => message.to_string(),
        }
    }

    /// Byte offset of 1-based `line` and `column` (serde_json counts bytes).
    fn offset_of(text: &str, line: usize, column: usize) -> usize {
        let mut offset = 0;
        for (i, l) in text.split_inclusive('\n').enumerate() {
            if i + 1 == line {
                let mut at = (offset + column.saturating_sub(1)).min(text.len());
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                return at;
            }
            offset += l.len();
        }
        text.len()
    }

    struct Reader<'a> {
        text: &'a str,
        pos: usize,
        file: &'a Arc<SourceFile>,
    }

    impl Reader<'_> {
        fn skip_ws(&mut self) {
            let bytes = self.text.as_bytes();
            while self.pos < bytes.len() && matches!(bytes[self.pos], b' ' | b'\t' | b'\n' | b'\r')
            {
                self.pos += 1;
            }
        }

        fn peek(&self) -> Option<u8> {
            self.text.as_bytes().get(self.pos).copied()
        }

        fn unexpected(&self) -> Diagnostic {
            Diagnostic::error(format!("{} is not valid JSON", self.file.name))
                .in_file(self.file, self.pos..self.pos + 1)
                .with_label("unexpected character")
        }

        fn value(&mut self) -> Result<Node, Diagnostic> {
            self.skip_ws();
            let start = self.pos;
            let kind = match self.peek() {
                Some(b'{') => self.object()?,
                Some(b'[') => self.array()?,
                Some(b'"') => NodeKind::Str(self.string()?),
                Some(b't') => self.literal("true", NodeKind::Bool(true))?,
                Some(b'f') => self.literal("false", NodeKind::Bool(false))?,
                Some(b'n') => self.literal("null", NodeKind::Other("null"))?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                _ => return Err(self.unexpected()),
            };
            Ok(Node {
                span: start..self.pos,
                kind,
            })
        }

        fn literal(&mut self, word: &str, kind: NodeKind) -> Result<NodeKind, Diagnostic> {
            if self.text[self.pos..].starts_with(word) {
                self.pos += word.len();
                Ok(kind)
            } else {
                Err(self.unexpected())
            }
        }

        fn number(&mut self) -> Result<NodeKind, Diagnostic> {
            let start = self.pos;
            let bytes = self.text.as_bytes();
            while self.pos < bytes.len()
                && matches!(
                    bytes[self.pos],
                    b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                )
            {
                self.pos += 1;
            }
            self.text[start..self.pos]
                .parse::<f64>()
                .map(NodeKind::Number)
                .map_err(|_| self.unexpected())
        }

        fn string(&mut self) -> Result<String, Diagnostic> {
            let start = self.pos;
            let bytes = self.text.as_bytes();
            self.pos += 1;
            while self.pos < bytes.len() {
                match bytes[self.pos] {
                    b'\\' => self.pos += 2,
                    b'"' => {
                        self.pos += 1;
                        return serde_json::from_str(&self.text[start..self.pos])
                            .map_err(|_| self.unexpected());
                    }
                    _ => self.pos += 1,
                }
            }
            Err(self.unexpected())
        }

        fn array(&mut self) -> Result<NodeKind, Diagnostic> {
            self.pos += 1;
            let mut items = Vec::new();
            self.skip_ws();
            if self.peek() == Some(b']') {
                self.pos += 1;
                return Ok(NodeKind::Array(items));
            }
            loop {
                items.push(self.value()?);
                self.skip_ws();
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b']') => {
                        self.pos += 1;
                        return Ok(NodeKind::Array(items));
                    }
                    _ => return Err(self.unexpected()),
                }
            }
        }

        fn object(&mut self) -> Result<NodeKind, Diagnostic> {
            self.pos += 1;
            let mut entries: Vec<Entry> = Vec::new();
            self.skip_ws();
            if self.peek() == Some(b'}') {
                self.pos += 1;
                return Ok(NodeKind::Table(entries));
            }
            loop {
                self.skip_ws();
                let key_start = self.pos;
                if self.peek() != Some(b'"') {
                    return Err(self.unexpected());
                }
                let key = self.string()?;
                let key_span = key_start..self.pos;
                if let Some(first) = entries.iter().find(|e| e.key == key) {
                    let line = crate::diagnostic::position_in(
                        &self.file.name,
                        self.text,
                        first.key_span.start,
                    )
                    .line;
                    return Err(Diagnostic::error(format!("duplicate key `{key}`"))
                        .in_file(self.file, key_span)
                        .with_label("already defined")
                        .with_note(format!("first defined on line {line}")));
                }
                self.skip_ws();
                if self.peek() != Some(b':') {
                    return Err(self.unexpected());
                }
                self.pos += 1;
                let value = self.value()?;
                entries.push(Entry {
                    key,
                    key_span,
                    value,
                });
                self.skip_ws();
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b'}') => {
                        self.pos += 1;
                        return Ok(NodeKind::Table(entries));
                    }
                    _ => return Err(self.unexpected()),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, json: bool) -> Result<(Arc<SourceFile>, Node), Vec<Diagnostic>> {
        parse_bytes(text.as_bytes().to_vec(), "data", json)
    }

    fn entries(node: &Node) -> &[Entry] {
        match &node.kind {
            NodeKind::Table(e) => e,
            other => panic!("not a table: {other:?}"),
        }
    }

    #[test]
    fn toml_and_json_give_the_same_tree_shape_with_spans() {
        let toml = "[people.a]\nname = \"A\"\n\n[[groups]]\nid = \"g\"\nmembers = [\"a\", { handle = \"a\", status = \"x\" }]\n";
        let json = r#"{"people": {"a": {"name": "A"}}, "groups": [{"id": "g", "members": ["a", {"handle": "a", "status": "x"}]}]}"#;
        for (text, is_json) in [(toml, false), (json, true)] {
            let (file, root) = parse(text, is_json).expect("valid");
            let top = entries(&root);
            assert_eq!(top[0].key, "people");
            assert_eq!(top[1].key, "groups");
            let person = &entries(&top[0].value)[0];
            assert_eq!(
                &file.text[person.key_span.clone()],
                if is_json { "\"a\"" } else { "a" }
            );
            let NodeKind::Array(groups) = &top[1].value.kind else {
                panic!("array")
            };
            let members = &entries(&groups[0])[1].value;
            let NodeKind::Array(members) = &members.kind else {
                panic!("array")
            };
            assert_eq!(&file.text[members[0].span.clone()], "\"a\"");
            let status = &entries(&members[1])[1];
            assert_eq!(&file.text[status.value.span.clone()], "\"x\"");
        }
    }

    #[test]
    fn syntax_errors_have_positions() {
        let err = parse("[people]\nname = \n", false).expect_err("invalid");
        assert!(err[0].message.contains("not valid TOML"));
        let err = parse("{\"a\": [1,}", true).expect_err("invalid");
        assert!(err[0].message.contains("not valid JSON"));
        let Some(crate::diagnostic::Location::File { range, .. }) = &err[0].location else {
            panic!("located")
        };
        assert_eq!(range.start, 9);
    }

    #[test]
    fn json_duplicate_keys_are_errors() {
        let err = parse("{\"a\": 1,\n \"a\": 2}", true).expect_err("duplicate");
        assert!(err[0].message.contains("duplicate key `a`"));
        assert_eq!(err[0].notes, ["first defined on line 1"]);
    }

    #[test]
    fn bom_crlf_and_invalid_utf8() {
        let (_, root) = parse("\u{feff}[people.a]\r\nname = \"A\"\r\n", false).expect("valid");
        assert_eq!(entries(&root).len(), 1);
        let err = parse_bytes(b"name = \"\xff\"\n".to_vec(), "d.toml", false).expect_err("bad");
        assert!(err[0].message.contains("not valid UTF-8"));
    }
}
