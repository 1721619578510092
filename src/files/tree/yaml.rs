//! YAML (Kubernetes' OWNERS and OWNERS_ALIASES) into the spanned tree, with
//! yaml-rust2's event parser: every scalar knows where it starts.

use std::ops::Range;
use std::sync::Arc;

use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::{Marker, ScanError, TScalarStyle};

use super::{Entry, Node, NodeKind};
use crate::diagnostic::{Code, Diagnostic, SourceFile};

/// Deepest nesting read; OWNERS files are two or three levels deep.
const MAX_DEPTH: usize = 64;

/// Parses `file` as one YAML document. A NUL byte (which ends the text
/// for the YAML parser) and a second document are errors, not silently
/// dropped.
pub(super) fn parse(file: &Arc<SourceFile>) -> Result<Node, Diagnostic> {
    if let Some(at) = memchr::memchr(0, file.text.as_bytes()) {
        return Err(Diagnostic::error(
            Code::SyntaxError,
            format!("{} holds a NUL byte, which YAML does not allow", file.name),
        )
        .in_file(file, at..at + 1)
        .with_label("NUL byte"));
    }
    let mut reader = Reader {
        file,
        parser: Parser::new_from_str(&file.text),
        char_starts: (!file.text.is_ascii())
            .then(|| file.text.char_indices().map(|(at, _)| at).collect()),
    };
    let node = loop {
        let (event, mark) = reader.next()?;
        match event {
            Event::StreamStart | Event::DocumentStart => {}
            Event::StreamEnd | Event::DocumentEnd => {
                let at = reader.offset(mark);
                break Node {
                    span: at..at,
                    kind: NodeKind::Table(Vec::new()),
                };
            }
            event => break reader.node(event, mark, 0)?,
        }
    };
    reader.no_second_document()?;
    Ok(node)
}

struct Reader<'a> {
    file: &'a Arc<SourceFile>,
    parser: Parser<std::str::Chars<'a>>,
    /// The byte offset of each character, when they differ (yaml-rust2
    /// counts characters): built once, so that a file with one non-ASCII
    /// character reads in linear time.
    char_starts: Option<Vec<usize>>,
}

impl Reader<'_> {
    fn next(&mut self) -> Result<(Event, Marker), Diagnostic> {
        self.parser.next_token().map_err(|e| self.syntax_error(&e))
    }

    /// The byte offset of `mark` (yaml-rust2 counts characters).
    fn offset(&self, mark: Marker) -> usize {
        let text = &self.file.text;
        match &self.char_starts {
            None => mark.index().min(text.len()),
            Some(starts) => starts.get(mark.index()).copied().unwrap_or(text.len()),
        }
    }

    /// After the first document, the end of the stream.
    fn no_second_document(&mut self) -> Result<(), Diagnostic> {
        loop {
            let (event, mark) = self.next()?;
            match event {
                Event::StreamEnd => return Ok(()),
                Event::DocumentEnd => {}
                _ => {
                    let at = self.offset(mark);
                    let end = (at + 3).min(self.file.text.len());
                    return Err(self
                        .error(at..end, "holds a second YAML document, which is not read")
                        .with_help(
                            "keep one document: remove the `---` and what follows, or merge it",
                        ));
                }
            }
        }
    }

    fn syntax_error(&self, error: &ScanError) -> Diagnostic {
        let at = self.offset(*error.marker());
        Diagnostic::error(
            Code::SyntaxError,
            format!("{} is not valid YAML: {}", self.file.name, error.info()),
        )
        .in_file(self.file, at..(at + 1).min(self.file.text.len()).max(at))
    }

    fn error(&self, at: Range<usize>, message: &str) -> Diagnostic {
        Diagnostic::error(Code::SyntaxError, format!("{}: {message}", self.file.name))
            .in_file(self.file, at)
    }

    fn node(&mut self, event: Event, mark: Marker, depth: usize) -> Result<Node, Diagnostic> {
        let start = self.offset(mark);
        if depth > MAX_DEPTH {
            return Err(self.error(start..start + 1, "nested too deeply"));
        }
        let kind = match event {
            Event::Scalar(value, TScalarStyle::Plain, _, _)
                if matches!(value.as_str(), "" | "~" | "null" | "Null" | "NULL") =>
            {
                let len = value.len();
                return Ok(Node {
                    span: start..(start + len.max(1)).min(self.file.text.len()),
                    kind: NodeKind::Other("nothing (null)"),
                });
            }
            Event::Scalar(value, style, _, _) => {
                let len = value.len() + if style == TScalarStyle::Plain { 0 } else { 2 };
                return Ok(Node {
                    span: start..(start + len).min(self.file.text.len()),
                    kind: NodeKind::Str(value),
                });
            }
            Event::SequenceStart(..) => NodeKind::Array(self.sequence(depth)?),
            Event::MappingStart(..) => NodeKind::Table(self.mapping(depth)?),
            Event::Alias(_) => NodeKind::Other("a YAML alias"),
            _ => return Err(self.error(start..start + 1, "unexpected YAML structure")),
        };
        Ok(Node {
            span: start..start + 1,
            kind,
        })
    }

    fn sequence(&mut self, depth: usize) -> Result<Vec<Node>, Diagnostic> {
        let mut items = Vec::new();
        loop {
            match self.next()? {
                (Event::SequenceEnd, _) => return Ok(items),
                (event, mark) => items.push(self.node(event, mark, depth + 1)?),
            }
        }
    }

    fn mapping(&mut self, depth: usize) -> Result<Vec<Entry>, Diagnostic> {
        let mut entries = Vec::new();
        let mut keys = std::collections::HashSet::new();
        loop {
            let (event, mark) = self.next()?;
            if event == Event::MappingEnd {
                return Ok(entries);
            }
            let key = self.node(event, mark, depth + 1)?;
            let (event, mark) = self.next()?;
            let value = self.node(event, mark, depth + 1)?;
            let NodeKind::Str(name) = key.kind else {
                return Err(self.error(key.span, "a key must be a string"));
            };
            if !keys.insert(name.clone()) {
                let message =
                    format!("`{name}` is given twice in one mapping (the second would be lost)");
                return Err(self
                    .error(key.span, &message)
                    .with_help("keep one, merging their lists"));
            }
            entries.push(Entry {
                key: name,
                key_span: key.span,
                value,
            });
        }
    }
}
