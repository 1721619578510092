//! The stand-ins for deferred link directives in expanded text.
//!
//! A marker is `U+FDD0`, the link's number in its chapter, `U+FDD1`: two
//! noncharacters, which Unicode reserves for a program's internal use, so
//! no Markdown construct and no slug rule gives them a meaning. The resolve
//! stage replaces every marker before the chapter is written; one it cannot
//! account for (a number out of order) is left as it is.

use std::ops::Range;
use std::sync::Arc;

use super::splice;

const OPEN: char = '\u{FDD0}';
const CLOSE: char = '\u{FDD1}';

/// The marker for link `number` of a chapter.
pub fn marker(number: usize) -> String {
    let mut marker = String::with_capacity(8);
    marker.push(OPEN);
    marker.push_str(&number.to_string());
    marker.push(CLOSE);
    marker
}

/// Every well-formed marker in `text`: its range and number, in order.
pub fn markers_in(text: &str) -> impl Iterator<Item = (Range<usize>, usize)> + '_ {
    const OPEN_BYTES: &[u8] = "\u{FDD0}".as_bytes();
    memchr::memmem::find_iter(text.as_bytes(), OPEN_BYTES).filter_map(move |start| {
        let digits_start = start + OPEN.len_utf8();
        let rest = &text[digits_start..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let number = rest[..digits].parse().ok()?;
        rest[digits..]
            .starts_with(CLOSE)
            .then(|| (start..digits_start + digits + CLOSE.len_utf8(), number))
    })
}

/// `text` with marker `n` replaced by `links[n]` (a multi-line link stays
/// in the container its marker is in, see [`splice::push_in_place`]); a
/// marker without a link stays as it is.
pub fn replace_markers(text: String, links: &[Arc<str>]) -> String {
    if markers_in(&text).next().is_none() {
        return text;
    }
    let crlf = crate::markdown::uses_crlf(&text);
    let mut out = String::with_capacity(text.len());
    // Where the line of the next marker starts, found incrementally so
    // that many markers on one long line stay linear.
    let (mut copied, mut line_start) = (0, 0);
    for (range, number) in markers_in(&text) {
        let Some(link) = links.get(number) else {
            continue;
        };
        let gap = &text[copied..range.start];
        if let Some(newline) = memchr::memrchr(b'\n', gap.as_bytes()) {
            line_start = copied + newline + 1;
        }
        out.push_str(gap);
        splice::push_in_place(&mut out, link, &text[line_start..range.start], crlf);
        copied = range.end;
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_round_trip_and_ignore_stray_noncharacters() {
        let text = format!("a{}b\u{FDD0}x{}c\u{FDD0}", marker(0), marker(12));
        let found: Vec<_> = markers_in(&text).collect();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].1, 0);
        assert_eq!(&text[found[0].0.clone()], marker(0));
        assert_eq!(found[1].1, 12);
        assert_eq!(&text[found[1].0.clone()], marker(12));
    }
}
