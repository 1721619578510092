//! The stand-ins for deferred link directives in expanded text.
//!
//! A marker is `U+FDD0`, the link's number in its chapter, `U+FDD1`: two
//! noncharacters, which Unicode reserves for a program's internal use, so
//! no Markdown construct and no slug rule gives them a meaning. Every
//! marker in a directive's output is replaced before the chapter is written
//! (`chapter::final_text`); one it cannot account for (a number out of
//! order) is left as it is. Only directives' output is searched: the same
//! characters in the author's own text are text.

use std::ops::Range;
use std::sync::{Arc, LazyLock};

use memchr::memmem::Finder;

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
    // Built once: each directive's output is searched, and building a
    // searcher per search cost 1% of a book with ten directives a chapter.
    static OPEN_FINDER: LazyLock<Finder<'static>> =
        LazyLock::new(|| Finder::new(OPEN.encode_utf8(&mut [0; 4]).as_bytes()).into_owned());
    OPEN_FINDER.find_iter(text.as_bytes()).filter_map(move |start| {
        let digits_start = start + OPEN.len_utf8();
        let rest = &text[digits_start..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let number = rest[..digits].parse().ok()?;
        rest[digits..]
            .starts_with(CLOSE)
            .then(|| (start..digits_start + digits + CLOSE.len_utf8(), number))
    })
}

/// `text` (a directive's output, `\n` line endings) with marker `n`
/// replaced by `links[n]` (a multi-line link stays in the container its
/// marker is in, see [`splice::push_in_place`]); a marker without a link
/// stays as it is. `None` when `text` holds no marker.
pub fn replace_markers(text: &str, links: &[Arc<str>]) -> Option<String> {
    markers_in(text).next()?;
    let mut out = String::with_capacity(text.len());
    // Where the line of the next marker starts, found incrementally so
    // that many markers on one long line stay linear.
    let (mut copied, mut line_start) = (0, 0);
    for (range, number) in markers_in(text) {
        let Some(link) = links.get(number) else {
            continue;
        };
        let gap = &text[copied..range.start];
        if let Some(newline) = memchr::memrchr(b'\n', gap.as_bytes()) {
            line_start = copied + newline + 1;
        }
        out.push_str(gap);
        splice::push_in_place(&mut out, link, &text[line_start..range.start], false);
        copied = range.end;
    }
    out.push_str(&text[copied..]);
    Some(out)
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
