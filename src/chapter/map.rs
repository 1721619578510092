//! From the expanded text of a chapter back to the chapter mdBook sent:
//! offsets outside a directive's output shift by what the directives before
//! them added; inside one, a link is found where the directive copied it
//! from (a FAQ answer), or is the directive's own.

use std::borrow::Cow;
use std::ops::Range;

use super::splice::{Replacement, splice};

/// Where a visible note about a link goes (`on-error = "warn"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotePlace {
    /// Inline, after this offset of the chapter.
    At(usize),
    /// A block after the output of replacement `k` (the note is a block of
    /// its own at the end of the directive's block).
    AfterReplacement(usize),
}

/// The map of one chapter: its replacements and their spans in the
/// expanded text (none for a chapter without directives).
pub struct ChapterMap<'a> {
    /// The chapter as mdBook sent it.
    pub content: &'a str,
    /// Replaced ranges of `content`, in order.
    replacements: &'a [Replacement],
    /// Where each replacement's text is in the expanded text.
    spans: &'a [Range<usize>],
}

impl<'a> ChapterMap<'a> {
    /// The map of `content` with `replacements`, whose texts are at `spans`
    /// of the expanded text.
    pub(super) fn new(
        content: &'a str,
        replacements: &'a [Replacement],
        spans: &'a [Range<usize>],
    ) -> Self {
        ChapterMap {
            content,
            replacements,
            spans,
        }
    }

    /// The map of a chapter without directives.
    pub fn unchanged(content: &'a str) -> Self {
        ChapterMap::new(content, &[], &[])
    }

    /// The expanded text this maps from: the chapter with its replacements.
    pub fn expanded(&self) -> Cow<'a, str> {
        if self.replacements.is_empty() {
            return self.content.into();
        }
        splice(self.content, self.replacements).into()
    }

    /// The replacement whose output holds expanded offset `offset`, or the
    /// chapter offset it came from.
    fn locate(&self, offset: usize) -> Result<usize, usize> {
        let k = self.spans.partition_point(|span| span.start <= offset);
        let Some(before) = k.checked_sub(1) else {
            return Ok(offset);
        };
        let span = &self.spans[before];
        if offset < span.end {
            return Err(before);
        }
        let original = &self.replacements[before].range;
        Ok(offset - span.end + original.end)
    }

    /// Where the link written at `range` of the expanded text `expanded` is
    /// in the chapter, and where a note about it goes; `None` for a link a
    /// directive generated.
    pub fn written(
        &self,
        expanded: &str,
        range: Range<usize>,
    ) -> Option<(Range<usize>, NotePlace)> {
        let last = range.end.max(range.start + 1) - 1;
        match (self.locate(range.start), self.locate(last)) {
            (Ok(start), Ok(last)) => Some((start..last + 1, NotePlace::At(last + 1))),
            (Err(k), _) | (_, Err(k)) => {
                let written = expanded.get(range)?;
                let source = &self.replacements[k].range;
                let at = memchr::memmem::find(
                    self.content.get(source.clone())?.as_bytes(),
                    written.as_bytes(),
                )?;
                let start = source.start + at;
                let place = NotePlace::AfterReplacement(k);
                Some((start..start + written.len(), place))
            }
        }
    }
}

/// `replacements` with `notes` added: a block note ends the block of the
/// replacement it follows, an inline note is inserted after its offset.
pub(super) fn with_notes(
    replacements: &[Replacement],
    notes: &[(NotePlace, String)],
) -> Vec<Replacement> {
    let mut out = replacements.to_vec();
    let mut inserted = false;
    for (place, note) in notes {
        match *place {
            NotePlace::AfterReplacement(k) => {
                let Some(block) = out.get_mut(k) else {
                    continue;
                };
                let text = [block.text.trim_end_matches('\n'), note].join("\n\n");
                block.text = text.into();
            }
            NotePlace::At(at) => {
                let text = [" ", note.as_str()].concat();
                out.push(Replacement::new(at..at, text.into()));
                inserted = true;
            }
        }
    }
    if inserted {
        // An insertion goes before a replacement that starts where it is.
        out.sort_by_key(|r| (r.range.start, r.range.end));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chapter::splice::splice_with_spans;

    #[test]
    fn offsets_map_around_and_inside_replacements() {
        let content = "a [x](#y) {{#d}} [z](#w) ```faq\n[q](#r)\n```";
        let d = content.find("{{#d}}").expect("call");
        let faq = content.find("```faq").expect("block");
        let replacements = vec![
            Replacement::new(d..d + 6, "LONGER OUTPUT [gen](#g)".into()),
            Replacement::new(faq..content.len(), "<div>[q](#r)</div>".into()),
        ];
        let (expanded, spans) = splice_with_spans(content, &replacements);
        let map = ChapterMap::new(content, &replacements, &spans);
        let find = |needle: &str| {
            let at = expanded.find(needle).expect("in expanded");
            at..at + needle.len()
        };
        let (range, place) = map.written(&expanded, find("[x](#y)")).expect("before");
        assert_eq!(&content[range.clone()], "[x](#y)");
        assert_eq!(place, NotePlace::At(range.end));
        let (range, _) = map.written(&expanded, find("[z](#w)")).expect("between");
        assert_eq!(&content[range], "[z](#w)");
        let (range, place) = map.written(&expanded, find("[q](#r)")).expect("copied");
        assert_eq!(&content[range], "[q](#r)");
        assert_eq!(place, NotePlace::AfterReplacement(1));
        assert!(
            map.written(&expanded, find("[gen](#g)")).is_none(),
            "generated"
        );
    }

    #[test]
    fn notes_follow_their_link_or_end_their_block() {
        let content = "[a](#x)\n\n{{#d}}";
        let replacements = vec![Replacement::new(9..15, "BLOCK\n".into())];
        let notes = [
            (NotePlace::At(7), "N1".to_string()),
            (NotePlace::AfterReplacement(0), "N2".to_string()),
        ];
        let text = splice(content, &with_notes(&replacements, &notes));
        assert_eq!(text, "[a](#x) N1\n\nBLOCK\n\nN2");
    }
}
