//! JSON with spans. `serde_json` checks the syntax and gives the message;
//! this small reader then builds the spanned tree from text known to be
//! valid, and reports duplicate keys, which JSON parsers silently accept.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use super::{Entry, Node, NodeKind};
use crate::diagnostic::{Code, Diagnostic, SourceFile};

// The structural bytes, named as in the grammar of RFC 8259.
const BEGIN_OBJECT: u8 = b'{';
const END_OBJECT: u8 = b'}';
const BEGIN_ARRAY: u8 = b'[';
const END_ARRAY: u8 = b']';
const NAME_SEPARATOR: u8 = b':';
const VALUE_SEPARATOR: u8 = b',';

/// How deep arrays and objects may nest: the TOML reader's limit
/// (`toml_edit` stops at 80), applied to JSON too.
pub(super) const MAX_DEPTH: usize = 80;

/// Parses `file` as JSON, reporting a syntax error where `serde_json`
/// found it.
pub(super) fn parse(file: &Arc<SourceFile>) -> Result<Node, Diagnostic> {
    let text = file.text.as_str();
    if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
        let at = offset_of(text, e.line(), e.column());
        return Err(Diagnostic::error(
            Code::SyntaxError,
            format!("{} is not valid JSON", file.name),
        )
        .in_file(file, at..at + 1)
        .with_label(strip_position(&e.to_string())));
    }
    let mut reader = Reader {
        text,
        pos: 0,
        depth: 0,
        file,
    };
    let node = reader.value()?;
    Ok(node)
}

/// `serde_json`'s message without its " at line L column C": the
/// diagnostic shows the place itself.
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

/// A cursor over text that `serde_json` has accepted; its errors are
/// safety nets, not expected.
struct Reader<'a> {
    text: &'a str,
    pos: usize,
    /// How many arrays and objects the cursor is in.
    depth: usize,
    file: &'a Arc<SourceFile>,
}

impl Reader<'_> {
    fn skip_ws(&mut self) {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && matches!(bytes[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn unexpected(&self) -> Diagnostic {
        Diagnostic::error(
            Code::SyntaxError,
            format!("{} is not valid JSON", self.file.name),
        )
        .in_file(self.file, self.pos..self.pos + 1)
        .with_label("unexpected character")
    }

    /// The value after any whitespace, spanning its own bytes only.
    fn value(&mut self) -> Result<Node, Diagnostic> {
        self.skip_ws();
        let start = self.pos;
        let kind = match self.peek() {
            Some(BEGIN_OBJECT) => self.object()?,
            Some(BEGIN_ARRAY) => self.array()?,
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

    /// A string, its escapes resolved by `serde_json`.
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

    /// Enters an array or object at the cursor: an error when that would
    /// nest more than [`MAX_DEPTH`] deep (the reader recurses, and its stack
    /// is not unbounded).
    fn enter(&mut self) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::error(
                Code::SyntaxError,
                format!("{} is nested too deeply", self.file.name),
            )
            .in_file(self.file, self.pos..self.pos + 1)
            .with_label(format!("more than {MAX_DEPTH} arrays and objects deep"))
            .with_note("a people file needs four levels"));
        }
        Ok(())
    }

    fn array(&mut self) -> Result<NodeKind, Diagnostic> {
        self.enter()?;
        let mut items = Vec::new();
        if self.open(END_ARRAY) {
            self.depth -= 1;
            return Ok(NodeKind::Array(items));
        }
        loop {
            items.push(self.value()?);
            if self.closes(END_ARRAY)? {
                self.depth -= 1;
                return Ok(NodeKind::Array(items));
            }
        }
    }

    fn object(&mut self) -> Result<NodeKind, Diagnostic> {
        self.enter()?;
        let mut entries: Vec<Entry> = Vec::new();
        // Where each key is in `entries`: duplicates are found in one pass.
        let mut seen: HashMap<String, usize> = HashMap::new();
        if self.open(END_OBJECT) {
            self.depth -= 1;
            return Ok(NodeKind::Table(entries));
        }
        loop {
            let (key, key_span) = self.key(&entries, &seen)?;
            seen.insert(key.clone(), entries.len());
            self.skip_ws();
            if self.peek() != Some(NAME_SEPARATOR) {
                return Err(self.unexpected());
            }
            self.pos += 1;
            let value = self.value()?;
            entries.push(Entry {
                key,
                key_span,
                value,
            });
            if self.closes(END_OBJECT)? {
                self.depth -= 1;
                return Ok(NodeKind::Table(entries));
            }
        }
    }

    /// Steps over the opening byte of an array or object; whether `end`
    /// follows at once (an empty one, then stepped over too).
    fn open(&mut self, end: u8) -> bool {
        self.pos += 1;
        self.skip_ws();
        let empty = self.peek() == Some(end);
        if empty {
            self.pos += 1;
        }
        empty
    }

    /// Steps over what follows an item: `,` (another item follows) or
    /// `end`; whether it was `end`.
    fn closes(&mut self, end: u8) -> Result<bool, Diagnostic> {
        self.skip_ws();
        match self.peek() {
            Some(VALUE_SEPARATOR) => {
                self.pos += 1;
                Ok(false)
            }
            Some(byte) if byte == end => {
                self.pos += 1;
                Ok(true)
            }
            _ => Err(self.unexpected()),
        }
    }

    /// A member's name and its span; an error when one of the members
    /// before it (`entries`) has the same name.
    fn key(
        &mut self,
        entries: &[Entry],
        seen: &HashMap<String, usize>,
    ) -> Result<(String, Range<usize>), Diagnostic> {
        self.skip_ws();
        let key_start = self.pos;
        if self.peek() != Some(b'"') {
            return Err(self.unexpected());
        }
        let key = self.string()?;
        let key_span = key_start..self.pos;
        if let Some(first) = seen.get(&key).and_then(|&i| entries.get(i)) {
            let line =
                crate::diagnostic::position_in(&self.file.name, self.text, first.key_span.start)
                    .line;
            return Err(
                Diagnostic::error(Code::SyntaxError, format!("duplicate key `{key}`"))
                    .in_file(self.file, key_span)
                    .with_label("already defined")
                    .with_note(format!("first defined on line {line}")),
            );
        }
        Ok((key, key_span))
    }
}
