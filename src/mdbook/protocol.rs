//! mdBook's preprocessor protocol: `[context, book]` JSON on stdin, the book
//! JSON on stdout.
//!
//! The input is read as plain JSON values first and only the fields this
//! plugin needs are looked at, so a field added or renamed by another mdBook
//! version never turns into "unable to parse input". Both generations are
//! accepted and answered in the shape they were sent in:
//!
//! * mdBook 0.5: the book is `{"items": [...]}`;
//! * mdBook 0.4.40 and later: `{"sections": [...], "__non_exhaustive": null}`.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use semver::{Version, VersionReq};
use serde_json::Value;
use serde_json::value::RawValue;

use super::book::Book;

/// The mdBook versions this plugin is tested with.
pub const SUPPORTED_MDBOOK: &str = ">=0.4.40, <0.6";

/// The parts of mdBook's `PreprocessorContext` this plugin uses.
#[derive(Debug, Clone)]
pub struct Context {
    /// The book root (where `book.toml` is).
    pub root: PathBuf,
    /// The whole `book.toml`, as mdBook passed it.
    pub config: Value,
    /// The renderer this run is for (`html`, `markdown`, ...).
    pub renderer: String,
    /// The calling mdBook's version, as it reported it.
    pub mdbook_version: String,
}

/// A parsed request: the context, and the book read out of the input it
/// borrows.
#[derive(Debug)]
pub struct Request {
    /// What mdBook told us about the build.
    pub context: Context,
    /// The book: its JSON exactly as received, its chapters, and the
    /// shape (generation) it must be answered in.
    pub book: Book,
}

/// Why stdin could not be used.
#[derive(Debug)]
pub enum ProtocolError {
    /// Nothing (or only whitespace) on stdin.
    Empty,
    /// Not JSON.
    Json(serde_json::Error),
    /// JSON, but not what mdBook sends.
    Shape(String),
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::Empty => write!(
                f,
                "no input on stdin: expected the [context, book] JSON that mdBook sends a preprocessor"
            ),
            ProtocolError::Json(e) => write!(
                f,
                "stdin is not valid JSON ({e}): expected the [context, book] JSON that mdBook sends a preprocessor"
            ),
            ProtocolError::Shape(what) => write!(f, "unexpected input from mdBook: {what}"),
        }
    }
}

impl std::error::Error for ProtocolError {}

/// Parses what mdBook wrote to our stdin. Only the context becomes JSON
/// values; the book is read in place (see the `book` module).
pub fn parse_request(input: &[u8]) -> Result<Request, ProtocolError> {
    parse_request_in(input, None)
}

/// [`parse_request`], with the chapters' contents left in `input`, which
/// the book then owns: decoded when read, or in place
/// ([`Book::decode_in_place`]); see [`Content`](super::book::Content).
pub fn parse_request_owned(input: Vec<u8>) -> Result<Request, ProtocolError> {
    let shared = Arc::new(input);
    parse_request_in(&shared, Some(&shared))
}

fn parse_request_in(input: &[u8], shared: Option<&Arc<Vec<u8>>>) -> Result<Request, ProtocolError> {
    if input.iter().all(u8::is_ascii_whitespace) {
        return Err(ProtocolError::Empty);
    }
    // What mdBook sends: the book read once, in its walk.
    if let Some((context, book)) = split_request(input)
        && let Ok(book) = Book::parse_in(book, shared)
    {
        let context = serde_json::from_str(context).map_err(ProtocolError::Json)?;
        let context = parse_context(context)?;
        return Ok(Request { context, book });
    }
    // Anything else is read whole, to say what is wrong.
    let pair: Vec<&RawValue> = serde_json::from_slice(input).map_err(|e| {
        // Not an array: say so if it is JSON at all (cold path).
        match serde_json::from_slice::<serde::de::IgnoredAny>(input) {
            Ok(_) if e.classify() == serde_json::error::Category::Data => {
                ProtocolError::Shape("expected a JSON array [context, book]".into())
            }
            _ => ProtocolError::Json(e),
        }
    })?;
    let [context, book] = pair[..] else {
        return Err(ProtocolError::Shape(format!(
            "expected a JSON array of two elements [context, book], found {}",
            pair.len()
        )));
    };
    let context = serde_json::from_str(context.get()).map_err(ProtocolError::Json)?;
    let context = parse_context(context)?;
    let book = Book::parse_in(book.get(), shared).map_err(|e| match e {
        super::book::BookError::Json(e) => ProtocolError::Json(e),
        other => ProtocolError::Shape(other.to_string()),
    })?;
    Ok(Request { context, book })
}

/// The texts of the context and the book in `[context, book]`, found
/// by reading only the context: the book is what lies between the comma
/// after it and the closing `]`, and is checked by the book's walk.
/// `None` when the input is not laid out so.
fn split_request(input: &[u8]) -> Option<(&str, &str)> {
    const BLANK: [char; 4] = [' ', '\t', '\n', '\r'];
    let text = std::str::from_utf8(input).ok()?;
    let inner = text.trim_start_matches(BLANK).strip_prefix('[')?;
    let mut elements = serde_json::Deserializer::from_str(inner).into_iter::<&RawValue>();
    let context = elements.next()?.ok()?;
    let rest = inner.get(elements.byte_offset()..)?;
    let book = rest.trim_start_matches(BLANK).strip_prefix(',')?;
    let book = book.trim_end_matches(BLANK).strip_suffix(']')?;
    Some((context.get(), book.trim_matches(BLANK)))
}

fn parse_context(value: Value) -> Result<Context, ProtocolError> {
    let Value::Object(mut map) = value else {
        return Err(ProtocolError::Shape(
            "the context (first element) is not a JSON object".into(),
        ));
    };
    let string_field = |name: &str| match map.get(name) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(ProtocolError::Shape(format!(
            "context field `{name}` is not a string"
        ))),
        None => Err(ProtocolError::Shape(format!(
            "context field `{name}` is missing"
        ))),
    };
    let root = PathBuf::from(string_field("root")?);
    let renderer = string_field("renderer")?;
    let mdbook_version = string_field("mdbook_version")?;
    let config = match map.remove("config") {
        Some(config @ Value::Object(_)) => config,
        Some(_) => {
            return Err(ProtocolError::Shape(
                "context field `config` is not an object".into(),
            ));
        }
        None => Value::Object(serde_json::Map::new()),
    };
    Ok(Context {
        root,
        config,
        renderer,
        mdbook_version,
    })
}

/// A warning line when `mdbook_version` is outside [`SUPPORTED_MDBOOK`].
pub fn version_warning(mdbook_version: &str) -> Option<String> {
    let Ok(required) = VersionReq::parse(SUPPORTED_MDBOOK) else {
        return None;
    };
    let supported = match Version::parse(mdbook_version.trim()) {
        // A pre-release such as 0.5.0-beta.1 counts as the release it leads to.
        Ok(mut version) => {
            version.pre = semver::Prerelease::EMPTY;
            required.matches(&version)
        }
        Err(_) => false,
    };
    (!supported).then(|| {
        format!(
            "mdbook-community is tested with mdBook {SUPPORTED_MDBOOK}, but this is mdBook {mdbook_version}; continuing anyway"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mdbook::Generation;

    const CONTEXT: &str =
        r#"{"root":"/b","config":{"book":{}},"renderer":"html","mdbook_version":"0.5.4"}"#;

    #[test]
    fn accepts_both_generations() {
        let v05 = format!(r#"[{CONTEXT},{{"items":[]}}]"#);
        let v04 = format!(r#"[{CONTEXT},{{"sections":[],"__non_exhaustive":null}}]"#);
        assert_eq!(
            parse_request(v05.as_bytes())
                .map(|r| r.book.generation)
                .ok(),
            Some(Generation::V05)
        );
        assert_eq!(
            parse_request(v04.as_bytes())
                .map(|r| r.book.generation)
                .ok(),
            Some(Generation::V04)
        );
    }

    #[test]
    fn the_book_is_found_between_any_blanks() {
        let input = format!(" \r\n[ {CONTEXT}\t,\n {{\"items\":[]}} \n]\n");
        let request = parse_request(input.as_bytes()).expect("valid");
        assert_eq!(request.book.generation, Generation::V05);
        let mut out = Vec::new();
        request.book.write(&mut out, &[]).expect("write");
        assert_eq!(out, br#"{"items":[]}"#);
    }

    #[test]
    fn extra_fields_are_kept() {
        let input = format!(r#"[{CONTEXT},{{"items":[],"future":{{"x":1}}}}]"#);
        let request = parse_request(input.as_bytes()).expect("valid");
        let mut out = Vec::new();
        request.book.write(&mut out, &[]).expect("write");
        assert_eq!(out, br#"{"items":[],"future":{"x":1}}"#);
    }

    #[test]
    fn bad_input_is_explained() {
        let cases: &[(&str, &str)] = &[
            ("", "no input on stdin"),
            ("  \n", "no input on stdin"),
            ("[1,", "not valid JSON"),
            ("{}", "expected a JSON array"),
            ("[1]", "two elements"),
            (r#"[1, {"items": []}]"#, "context (first element)"),
            (
                r#"[{"root":".","renderer":"html"}, {"items": []}]"#,
                "`mdbook_version` is missing",
            ),
            (&format!("[{CONTEXT}, {{}}]"), "neither `items`"),
            // Past the book's walk: the pair, read whole, says what is wrong.
            (&format!(r#"[{CONTEXT}, {{"items": []}}, 1]"#), "found 3"),
            (
                &format!(r#"[{CONTEXT}, {{"items": []}}] x"#),
                "not valid JSON",
            ),
            (&format!(r#"[{CONTEXT}, {{"items": [}}]"#), "not valid JSON"),
        ];
        for (input, expected) in cases {
            let err = parse_request(input.as_bytes()).expect_err(input);
            assert!(err.to_string().contains(expected), "{input}: {err}");
        }
    }

    #[test]
    fn version_range() {
        assert_eq!(version_warning("0.5.4"), None);
        assert_eq!(version_warning("0.4.40"), None);
        assert_eq!(version_warning("0.4.52"), None);
        assert_eq!(version_warning("0.5.0-beta.2"), None);
        assert!(version_warning("0.4.39").is_some());
        assert!(version_warning("0.6.0").is_some());
        assert!(
            version_warning("banana")
                .is_some_and(|w| w.contains("mdBook banana") && !w.contains('\n'))
        );
    }
}
