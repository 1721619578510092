//! Text as the human format prints it: data may hold any character, and a
//! control character reaching a terminal or a CI log is a command (an ESC
//! sequence, a newline that starts a `::error` workflow command). Every
//! message, name and quoted source line is printed with its control
//! characters as visible pictures (`␛`, `␊`), one character for one, so
//! that columns stay right.

use std::borrow::Cow;
use std::ops::Range;

/// `c` as printed: a C0 control or DEL as its Unicode control picture, a
/// C1 control as `�`; `None` for any other character.
fn picture(c: char) -> Option<char> {
    match c {
        '\0'..='\u{1f}' => char::from_u32(0x2400 + u32::from(c)),
        '\u{7f}' => Some('\u{2421}'),
        '\u{80}'..='\u{9f}' => Some('\u{fffd}'),
        _ => None,
    }
}

/// `text` on one line: every control character, newlines and tabs too,
/// as a picture.
pub fn line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| picture(c).is_some()) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().map(|c| picture(c).unwrap_or(c)).collect())
}

/// Where a file's printed text moved from its original: for each control
/// character replaced, its offset in the original text and how many bytes
/// longer the text is from there on.
#[derive(Debug, Default)]
pub struct Moves(Vec<(usize, usize)>);

impl Moves {
    /// `range` of the original text, in the printed text.
    pub fn map(&self, range: Range<usize>) -> Range<usize> {
        let at = |offset: usize| {
            let before = self.0.partition_point(|&(i, _)| i < offset);
            offset + before.checked_sub(1).map_or(0, |b| self.0[b].1)
        };
        at(range.start)..at(range.end)
    }
}

/// A file's text as quoted under a diagnostic: control characters as
/// pictures but for tabs and line ends (`\n`, and `\r` before it); and
/// how its offsets moved.
pub fn source(text: &str) -> (Cow<'_, str>, Moves) {
    let keep = |i: usize, c: char| {
        c == '\t' || c == '\n' || (c == '\r' && text[i + 1..].starts_with('\n'))
    };
    let needs = |(i, c): (usize, char)| picture(c).is_some() && !keep(i, c);
    if !text.char_indices().any(needs) {
        return (Cow::Borrowed(text), Moves::default());
    }
    let mut shown = String::with_capacity(text.len());
    let mut moved = Vec::new();
    for (i, c) in text.char_indices() {
        match picture(c).filter(|_| !keep(i, c)) {
            Some(p) => {
                shown.push(p);
                moved.push((i, shown.len() - i - c.len_utf8()));
            }
            None => shown.push(c),
        }
    }
    (Cow::Owned(shown), Moves(moved))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_become_pictures() {
        assert_eq!(line("a\n::error::x\u{1b}[2J"), "a␊::error::x␛[2J");
        assert_eq!(line("tab\there\u{9b}"), "tab␉here\u{fffd}");
        assert!(matches!(line("plain é"), Cow::Borrowed(_)));
    }

    #[test]
    fn quoted_sources_keep_line_ends_and_move_spans() {
        let (shown, moves) = source("a\u{1b}b\r\nc\rd\n");
        assert_eq!(shown, "a␛b\r\nc␍d\n");
        // `b` is after one 3-byte picture for a 1-byte ESC.
        assert_eq!(moves.map(2..3), 4..5);
        assert_eq!(&shown[moves.map(5..6)], "c");
        assert_eq!(&shown[moves.map(7..8)], "d");
        assert_eq!(&shown[moves.map(1..2)], "␛");
        assert!(source("x\r\ny\n").1.0.is_empty());
    }
}
