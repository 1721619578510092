//! Splicing: replacing directive byte ranges with their expansions, and
//! nothing else. Multi-line expansions are re-prefixed so that they stay in
//! the list item or block quote the directive sat in, and take the chapter's
//! line endings.

use std::ops::Range;
use std::sync::Arc;

/// One replacement: `range` of the original becomes `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replacement {
    /// The bytes replaced (a directive call or block).
    pub range: Range<usize>,
    /// The new text, with `\n` line endings and no container prefixes.
    /// Shared: equal expansions across the book are kept once (see
    /// `expand::expand_book`).
    pub text: Arc<str>,
}

impl Replacement {
    /// `range` of the chapter becomes `text`.
    pub fn new(range: Range<usize>, text: Arc<str>) -> Self {
        Replacement { range, text }
    }
}

/// Applies `replacements` (sorted, non-overlapping) to `source`.
///
/// Bytes outside the replaced ranges are copied unchanged. The output is
/// built front to back in one buffer, which is equivalent to replacing in
/// reverse order but linear in the number of replacements.
pub fn splice(source: &str, replacements: &[Replacement]) -> String {
    splice_with_spans(source, replacements).0
}

/// [`splice`], and where each replacement's text ended up in the output
/// (the spans of skipped replacements are empty), so that offsets in the
/// output can be mapped back to the source.
pub fn splice_with_spans(
    source: &str,
    replacements: &[Replacement],
) -> (String, Vec<Range<usize>>) {
    let extra: usize = replacements.iter().map(|r| r.text.len()).sum();
    let mut out = String::with_capacity(source.len() + extra);
    let spans = splice_into(&mut out, source, replacements);
    (out, spans)
}

/// Where each replacement's text is in [`splice`]'s output, without
/// building it.
pub fn spans_of(source: &str, replacements: &[Replacement]) -> Vec<Range<usize>> {
    splice_into(&mut Length(0), source, replacements)
}

/// Where spliced text goes: a string, or only its length.
trait Sink {
    fn push_str(&mut self, text: &str);
    fn len(&self) -> usize;
}

impl Sink for String {
    fn push_str(&mut self, text: &str) {
        String::push_str(self, text);
    }

    fn len(&self) -> usize {
        String::len(self)
    }
}

/// The length of what would have been written.
struct Length(usize);

impl Sink for Length {
    fn push_str(&mut self, text: &str) {
        self.0 += text.len();
    }

    fn len(&self) -> usize {
        self.0
    }
}

fn splice_into(
    out: &mut impl Sink,
    source: &str,
    replacements: &[Replacement],
) -> Vec<Range<usize>> {
    let mut spans = Vec::with_capacity(replacements.len());
    let crlf = crate::markdown::uses_crlf(source);
    let mut copied = 0;
    // Start of the line the next replacement is on, found incrementally so
    // that many replacements on one long line stay linear.
    let mut line_start = 0;
    for replacement in replacements {
        let range = &replacement.range;
        debug_assert!(
            range.start >= copied,
            "replacements must be sorted and disjoint"
        );
        if range.start < copied || range.end > source.len() {
            spans.push(out.len()..out.len());
            continue;
        }
        let gap = &source[copied..range.start];
        if let Some(newline) = memchr::memrchr(b'\n', gap.as_bytes()) {
            line_start = copied + newline + 1;
        }
        out.push_str(gap);
        let start = out.len();
        if memchr::memchr(b'\n', replacement.text.as_bytes()).is_some() {
            let prefix = prefix_of(&source[line_start..range.start]);
            push_reindented(out, &replacement.text, &prefix, crlf);
        } else {
            out.push_str(&replacement.text);
        }
        spans.push(start..out.len());
        copied = range.end;
        if let Some(newline) = memchr::memrchr(b'\n', source[range.clone()].as_bytes()) {
            line_start = range.start + newline + 1;
        }
    }
    out.push_str(&source[copied..]);
    spans
}

/// Pushes `text` as a replacement whose line starts with `line_head` (the
/// text before it on its line): multi-line text is re-prefixed to stay in
/// that container and takes the chapter's line endings, as in [`splice`].
pub fn push_in_place(out: &mut String, text: &str, line_head: &str, crlf: bool) {
    if memchr::memchr(b'\n', text.as_bytes()).is_some() {
        push_reindented(out, text, &prefix_of(line_head), crlf);
    } else {
        out.push_str(text);
    }
}

/// The prefix that continues the container a replacement sits in: the
/// line's text before it (`line_head`), with list markers and other
/// characters turned into spaces and block quote markers `>` kept.
fn prefix_of(line_head: &str) -> String {
    line_head
        .chars()
        .map(|c| match c {
            '>' | '\t' => c,
            _ => ' ',
        })
        .collect()
}

fn push_reindented(out: &mut impl Sink, text: &str, prefix: &str, crlf: bool) {
    // At the top level of an LF chapter every line stays as it is.
    if prefix.is_empty() && !crlf && memchr::memchr(b'\r', text.as_bytes()).is_none() {
        out.push_str(text);
        return;
    }
    let newline = if crlf { "\r\n" } else { "\n" };
    let mut lines = text.split('\n');
    if let Some(first) = lines.next() {
        out.push_str(first.strip_suffix('\r').unwrap_or(first));
    }
    for line in lines {
        out.push_str(newline);
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            out.push_str(prefix.trim_end());
        } else {
            out.push_str(prefix);
            out.push_str(line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rep(range: Range<usize>, text: &str) -> Replacement {
        Replacement {
            range,
            text: text.into(),
        }
    }

    #[test]
    fn replaces_only_the_ranges() {
        let src = "a XX b YY c";
        assert_eq!(
            splice(src, &[rep(2..4, "1"), rep(7..9, "22")]),
            "a 1 b 22 c"
        );
        assert_eq!(splice(src, &[]), src);
    }

    #[test]
    fn multi_line_expansions_follow_list_items_and_quotes() {
        let src = "1. XX\n\n> - YY\n";
        let out = splice(src, &[rep(3..5, "- a\n\n- b"), rep(11..13, "x\ny")]);
        assert_eq!(out, "1. - a\n\n   - b\n\n> - x\n>   y\n");
    }

    #[test]
    fn spans_without_the_text() {
        let src = "1. XX\n\n> - YY\r\n";
        let replacements = [rep(3..5, "- a\n\n- b"), rep(11..13, "x\ny")];
        let (_, spans) = splice_with_spans(src, &replacements);
        assert_eq!(spans_of(src, &replacements), spans);
    }

    #[test]
    fn crlf_chapters_keep_crlf() {
        let src = "XX\r\nend\r\n";
        assert_eq!(splice(src, &[rep(0..2, "a\nb")]), "a\r\nb\r\nend\r\n");
    }

    #[test]
    fn blank_lines_in_quotes_keep_the_marker() {
        let src = "> XX\n";
        assert_eq!(splice(src, &[rep(2..4, "a\n\nb")]), "> a\n>\n> b\n");
    }
}
