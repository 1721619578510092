//! The argument syntax shared by every `{{#name ...}}` directive: words,
//! `key=value` pairs and `"quoted text"`, separated by whitespace.

use std::borrow::Cow;
use std::ops::Range;

/// One argument, with its byte range in the scanned text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg<'a> {
    /// What the argument is.
    pub kind: ArgKind<'a>,
    /// Where the whole argument is.
    pub range: Range<usize>,
}

/// The three kinds of argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgKind<'a> {
    /// A bare word: `core`, `#anchor`, `guide/intro.md#setup`.
    Word(&'a str),
    /// `key=value` (the value may be quoted); `value_range` is the value's span.
    Pair {
        /// The key, before `=`.
        key: &'a str,
        /// The value, unquoted.
        value: Cow<'a, str>,
        /// Where the value is.
        value_range: Range<usize>,
    },
    /// `"text"`, unescaped (`\"` and `\\` are the escapes).
    Quoted(Cow<'a, str>),
}

/// A syntax error in the arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgError {
    /// What is wrong.
    pub message: String,
    /// Where.
    pub range: Range<usize>,
}

/// Splits `text` (which starts at byte `base` of the scanned text) into
/// arguments.
pub fn tokenize(text: &str, base: usize) -> Result<Vec<Arg<'_>>, ArgError> {
    let bytes = text.as_bytes();
    let mut args = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if bytes[i] == b'"' {
            let (value, end) = quoted(text, i, base)?;
            i = end;
            expect_separator(bytes, i, base)?;
            args.push(Arg {
                kind: ArgKind::Quoted(value),
                range: base + start..base + i,
            });
            continue;
        }
        // A word or key=value; a quote may only follow `=`.
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'=' {
            if bytes[i] == b'"' {
                return Err(ArgError {
                    message: "a quote may only start an argument or follow `=`".into(),
                    range: base + i..base + i + 1,
                });
            }
            i += 1;
        }
        if i < bytes.len() && bytes[i] == b'=' && i > start {
            let key = &text[start..i];
            i += 1;
            let value_start = i;
            let value = if i < bytes.len() && bytes[i] == b'"' {
                let (value, end) = quoted(text, i, base)?;
                i = end;
                value
            } else {
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                    if bytes[i] == b'"' {
                        return Err(ArgError {
                            message: "a quote may only start a value".into(),
                            range: base + i..base + i + 1,
                        });
                    }
                    i += 1;
                }
                Cow::Borrowed(&text[value_start..i])
            };
            expect_separator(bytes, i, base)?;
            args.push(Arg {
                kind: ArgKind::Pair {
                    key,
                    value,
                    value_range: base + value_start..base + i,
                },
                range: base + start..base + i,
            });
        } else {
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            args.push(Arg {
                kind: ArgKind::Word(&text[start..i]),
                range: base + start..base + i,
            });
        }
    }
    Ok(args)
}

/// Parses a quoted string starting at `start` (the opening quote); returns the
/// unescaped value and the index after the closing quote.
fn quoted(text: &str, start: usize, base: usize) -> Result<(Cow<'_, str>, usize), ArgError> {
    let bytes = text.as_bytes();
    let mut i = start + 1;
    let mut owned: Option<String> = None;
    let mut run_start = i;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let value = match owned {
                    Some(mut s) => {
                        s.push_str(&text[run_start..i]);
                        Cow::Owned(s)
                    }
                    None => Cow::Borrowed(&text[run_start..i]),
                };
                return Ok((value, i + 1));
            }
            b'\\' if i + 1 < bytes.len() && matches!(bytes[i + 1], b'"' | b'\\') => {
                let s = owned.get_or_insert_with(String::new);
                s.push_str(&text[run_start..i]);
                s.push(bytes[i + 1] as char);
                i += 2;
                run_start = i;
            }
            _ => i += 1,
        }
    }
    Err(ArgError {
        message: "unterminated quoted text: add the closing `\"`".into(),
        range: base + start..base + text.len(),
    })
}

fn expect_separator(bytes: &[u8], i: usize, base: usize) -> Result<(), ArgError> {
    if i < bytes.len() && !bytes[i].is_ascii_whitespace() {
        return Err(ArgError {
            message: "expected a space after the closing quote".into(),
            range: base + i..base + i + 1,
        });
    }
    Ok(())
}

/// Finds the end of a directive's arguments: the index of the closing `}}`
/// in `rest` (the text after the directive's name), ignoring `}}` inside
/// quotes, and never looking past the end of the line. Falls back to the
/// line's first `}}` when a quote is never closed, so that the argument
/// parser can report it. The cost is the length of the call, not of the line.
pub fn find_close(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    let mut in_quote = false;
    let mut first_close = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => break,
            b'\\' if in_quote => i += 1,
            b'"' => in_quote = !in_quote,
            b'}' if bytes.get(i + 1) == Some(&b'}') => {
                if !in_quote {
                    return Some(i);
                }
                first_close.get_or_insert(i);
            }
            _ => {}
        }
        i += 1;
    }
    first_close
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<ArgKind<'_>> {
        tokenize(text, 0)
            .expect("valid")
            .into_iter()
            .map(|a| a.kind)
            .collect()
    }

    #[test]
    fn words_pairs_and_quotes() {
        assert_eq!(
            kinds(r#"core style=table hide="a b" "link \"text\"" #x"#),
            vec![
                ArgKind::Word("core"),
                ArgKind::Pair {
                    key: "style",
                    value: "table".into(),
                    value_range: 11..16
                },
                ArgKind::Pair {
                    key: "hide",
                    value: "a b".into(),
                    value_range: 22..27
                },
                ArgKind::Quoted("link \"text\"".into()),
                ArgKind::Word("#x"),
            ]
        );
    }

    #[test]
    fn ranges_are_offset_by_base() {
        let args = tokenize("  a  \"b\"", 10).expect("valid");
        assert_eq!(args[0].range, 12..13);
        assert_eq!(args[1].range, 15..18);
    }

    #[test]
    fn errors_have_ranges() {
        let e = tokenize(r#"a "open"#, 5).expect_err("unterminated");
        assert_eq!(e.range, 7..12);
        assert!(e.message.contains("unterminated"));
        assert!(tokenize(r#""a"b"#, 0).is_err());
        assert!(tokenize(r#"a"b""#, 0).is_err());
        assert!(tokenize(r#"k=v"w""#, 0).is_err());
    }

    #[test]
    fn empty_input_has_no_args() {
        assert!(kinds("   ").is_empty());
        assert_eq!(kinds("=x"), vec![ArgKind::Word("=x")]);
    }

    #[test]
    fn close_ignores_braces_in_quotes() {
        assert_eq!(find_close(r#"a "}}" b}} c"#), Some(8));
        assert_eq!(find_close("a b"), None);
        assert_eq!(find_close(r#"a "b}}"#), Some(4));
        assert_eq!(find_close(r#"a "\"}}" }}"#), Some(9));
        assert_eq!(find_close("a\nb}}"), None, "never past the line");
        assert_eq!(find_close("a \"b\nc}}"), None);
    }
}
