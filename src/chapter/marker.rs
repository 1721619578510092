//! The stand-ins for deferred link directives in expanded text.
//!
//! A marker is an opening character, the link's number in its chapter, and
//! `U+FDD1`: noncharacters, which Unicode reserves for a program's internal
//! use, so no Markdown construct and no slug rule gives them a meaning. The
//! opening character is `U+FDD0`, or, in a chapter whose own text holds
//! that, the first of `U+FDD2`..`U+FDEF` it does not hold ([`Open::for_text`]):
//! no text of the author's spells a marker, in a FAQ answer (which a
//! directive's output carries) or anywhere. Every marker in a directive's
//! output is replaced before the chapter is written (`chapter::final_text`);
//! one it cannot account for (a number out of order) is left as it is.

use std::ops::Range;
use std::sync::{Arc, LazyLock};

use memchr::memmem::Finder;

use super::splice;

const CLOSE: char = '\u{FDD1}';

/// The character a chapter's markers open with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Open(char);

impl Default for Open {
    fn default() -> Self {
        Open('\u{FDD0}')
    }
}

impl Open {
    /// The opening character for the markers of a chapter whose text is
    /// `text`: the first noncharacter of `U+FDD0`, `U+FDD2`..`U+FDEF` that
    /// `text` does not hold (one `char` search for a text that holds no
    /// `U+FDD0`). Only a chapter holding all 31 keeps `U+FDD0`.
    pub fn for_text(text: &str) -> Open {
        let mut candidates = std::iter::once('\u{FDD0}').chain('\u{FDD2}'..='\u{FDEF}');
        Open(
            candidates
                .find(|c| !text.contains(*c))
                .unwrap_or('\u{FDD0}'),
        )
    }

    /// The marker for link `number` of the chapter.
    pub fn marker(self, number: usize) -> String {
        let mut marker = String::with_capacity(8);
        marker.push(self.0);
        marker.push_str(&number.to_string());
        marker.push(CLOSE);
        marker
    }

    /// Every well-formed marker in `text`: its range and number, in order.
    pub fn markers_in(self, text: &str) -> impl Iterator<Item = (Range<usize>, usize)> + '_ {
        // Every opening character is `EF B7 xx` in UTF-8. The searcher is
        // built once: each directive's output is searched, and building
        // one per search cost 1% of a book with ten directives a chapter.
        static PREFIX: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\xEF\xB7"));
        let mut open = [0; 4];
        let last = self.0.encode_utf8(&mut open).as_bytes()[2];
        let found = PREFIX.find_iter(text.as_bytes());
        found.filter_map(move |start| {
            let digits_start = start + 3;
            if text.as_bytes().get(start + 2) != Some(&last) {
                return None;
            }
            let rest = text.get(digits_start..)?;
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let number = rest[..digits].parse().ok()?;
            rest[digits..]
                .starts_with(CLOSE)
                .then(|| (start..digits_start + digits + CLOSE.len_utf8(), number))
        })
    }
}

/// `text` (a directive's output, `\n` line endings) with marker `n`
/// replaced by `links[n]` (a multi-line link stays in the container its
/// marker is in, see [`splice::push_in_place`]); a marker without a link
/// stays as it is. `None` when `text` holds no marker.
pub fn replace_markers(text: &str, links: &[Arc<str>], open: Open) -> Option<String> {
    open.markers_in(text).next()?;
    let mut out = String::with_capacity(text.len());
    // Where the line of the next marker starts, found incrementally so
    // that many markers on one long line stay linear.
    let (mut copied, mut line_start) = (0, 0);
    for (range, number) in open.markers_in(text) {
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
        let open = Open::default();
        let text = format!(
            "a{}b\u{FDD0}x{}c\u{FDD0}\u{FDF2}",
            open.marker(0),
            open.marker(12)
        );
        let found: Vec<_> = open.markers_in(&text).collect();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].1, 0);
        assert_eq!(&text[found[0].0.clone()], open.marker(0));
        assert_eq!(found[1].1, 12);
        assert_eq!(&text[found[1].0.clone()], open.marker(12));
    }

    /// A chapter that spells a marker gets markers that open with a
    /// character it does not hold, and its own is not one of them.
    #[test]
    fn a_chapters_markers_open_with_a_character_it_does_not_hold() {
        let plain = Open::for_text("text");
        assert_eq!(plain, Open::default());
        let text = format!("{}, \u{FDD2}", plain.marker(0));
        let open = Open::for_text(&text);
        assert_eq!(open, Open('\u{FDD3}'));
        assert_eq!(open.markers_in(&text).count(), 0);
        let both = format!("{text} {}", open.marker(0));
        let found: Vec<_> = open.markers_in(&both).collect();
        assert_eq!(found, [(both.len() - open.marker(0).len()..both.len(), 0)]);
    }
}
