//! A chapter's JSON string decoded in place, where it is in the input.
//!
//! Hand-written: serde_json decodes into a new `String`, which is what
//! decoding in place exists to avoid (keeping every decoded text beside
//! the input cost 8-19% of a run's peak memory,
//! `bench/results/2026-12-04-decoded-once.md`). Only a string written as
//! serde_json writes one (as mdBook does) is decoded, so that serde_json's
//! escaping of the text gives the same bytes back when it is written
//! unchanged.

use std::ops::Range;

/// Decodes the JSON string at `span` of `input` (quotes included) into
/// the start of its own bytes, after the opening quote, and says how long
/// its text now is; `None`, with nothing written, when the string is not
/// as serde_json writes one (or is 4 GiB long).
pub(super) fn decode_in_place(input: &mut [u8], span: Range<usize>) -> Option<u32> {
    let start = span.start.checked_add(1)?;
    let end = span.end.checked_sub(1)?;
    let inner = input.get(start..end)?;
    if span.len() < 2 || u32::try_from(inner.len()).is_err() || !as_serde_json_writes(inner) {
        return None;
    }
    let (mut read, mut write) = (start, start);
    while let Some(at) = memchr::memchr(b'\\', input.get(read..end)?) {
        let at = read + at;
        input.copy_within(read..at, write);
        write += at - read;
        let (byte, len) = unescaped(input.get(at..end)?)?;
        input[write] = byte;
        write += 1;
        read = at + len;
    }
    input.copy_within(read..end, write);
    write += end - read;
    u32::try_from(write - start).ok()
}

/// Whether `inner` (a JSON string's bytes between its quotes) is written
/// as serde_json writes a string: no control character unescaped, and
/// every escape the one serde_json chooses for its character.
fn as_serde_json_writes(inner: &[u8]) -> bool {
    if inner.iter().any(|&b| b < 0x20) {
        return false;
    }
    let mut rest = inner;
    while let Some(at) = memchr::memchr(b'\\', rest) {
        let Some((_, len)) = unescaped(&rest[at..]) else {
            return false;
        };
        rest = &rest[at + len..];
    }
    true
}

/// The byte the escape at the start of `escape` stands for, and the
/// escape's length; `None` for an escape serde_json would not write
/// (`\/`, `\u00e9`, `\u001F`, `\u000a`, ...).
fn unescaped(escape: &[u8]) -> Option<(u8, usize)> {
    let short = match escape.get(1)? {
        b'"' => b'"',
        b'\\' => b'\\',
        b'n' => b'\n',
        b't' => b'\t',
        b'r' => b'\r',
        b'b' => 0x08,
        b'f' => 0x0c,
        b'u' => return long(escape.get(2..6)?).map(|byte| (byte, 6)),
        _ => return None,
    };
    Some((short, 2))
}

/// The control character `\u00XX` stands for, when serde_json writes it
/// so: lower-case hex, and only for those without a short escape.
fn long(hex: &[u8]) -> Option<u8> {
    let digit = |b: u8| match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    };
    let [b'0', b'0', high, low] = *hex else {
        return None;
    };
    let byte = digit(high)? * 16 + digit(low)?;
    let has_short = matches!(byte, 0x08 | 0x09 | 0x0a | 0x0c | 0x0d);
    (byte < 0x20 && !has_short).then_some(byte)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes `json` (one JSON string) in place: its text, and whether
    /// serde_json writes the text back as `json`.
    fn round_trip(json: &str) -> Option<(String, bool)> {
        let mut bytes = json.as_bytes().to_vec();
        let whole = 0..bytes.len();
        let len = decode_in_place(&mut bytes, whole)? as usize;
        let text = String::from_utf8(bytes[1..1 + len].to_vec()).expect("UTF-8");
        let again = serde_json::to_string(&text).expect("JSON");
        Some((text, again == json))
    }

    #[test]
    fn serde_json_strings_decode_to_serde_jsons_text_and_back() {
        let texts = [
            "",
            "plain",
            "# Title\n\nA \"quoted\" \\ word\twith\ttabs\r\n",
            "\u{1}\u{8}\u{c}\u{1f}\u{7f} é 😀 \\n",
            "\\\\\\\"",
        ];
        for text in texts {
            let json = serde_json::to_string(text).expect("JSON");
            let (decoded, same) = round_trip(&json).expect(&json);
            assert_eq!(decoded, text);
            assert!(same, "{json}");
        }
    }

    #[test]
    fn other_spellings_are_left_as_they_are() {
        for json in [
            r#""a\/b""#,
            r#""\u00e9""#,
            r#""\u001F""#,
            r#""\u000a""#,
            r#""\x""#,
        ] {
            let mut bytes = json.as_bytes().to_vec();
            let whole = 0..bytes.len();
            assert_eq!(decode_in_place(&mut bytes, whole), None, "{json}");
            assert_eq!(bytes, json.as_bytes(), "nothing written");
        }
        let mut short = b"\"".to_vec();
        assert_eq!(decode_in_place(&mut short, 0..1), None);
    }
}
