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

/// Parses `file` as one YAML document.
pub(super) fn parse(file: &Arc<SourceFile>) -> Result<Node, Diagnostic> {
    let mut reader = Reader {
        file,
        parser: Parser::new_from_str(&file.text),
        ascii: file.text.is_ascii(),
    };
    loop {
        let (event, mark) = reader.next()?;
        match event {
            Event::StreamStart | Event::DocumentStart => {}
            Event::StreamEnd | Event::DocumentEnd => {
                let at = reader.offset(mark);
                return Ok(Node {
                    span: at..at,
                    kind: NodeKind::Table(Vec::new()),
                });
            }
            event => return reader.node(event, mark, 0),
        }
    }
}

struct Reader<'a> {
    file: &'a Arc<SourceFile>,
    parser: Parser<std::str::Chars<'a>>,
    /// Whether character and byte offsets are the same.
    ascii: bool,
}

impl Reader<'_> {
    fn next(&mut self) -> Result<(Event, Marker), Diagnostic> {
        self.parser.next_token().map_err(|e| self.syntax_error(&e))
    }

    /// The byte offset of `mark` (yaml-rust2 counts characters).
    fn offset(&self, mark: Marker) -> usize {
        let text = &self.file.text;
        if self.ascii {
            return mark.index().min(text.len());
        }
        text.char_indices()
            .nth(mark.index())
            .map_or(text.len(), |(at, _)| at)
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
            entries.push(Entry {
                key: name,
                key_span: key.span,
                value,
            });
        }
    }
}
