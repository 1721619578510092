//! From the expanded text of a chapter back to the chapter mdBook sent:
//! offsets outside a directive's output shift by what the directives before
//! them added; inside one, a link is found where the directive copied it
//! from (a FAQ answer), or is the directive's own.

use std::ops::Range;

use crate::expand::splice::Replacement;

/// Where a visible note about a link goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// After this offset of the chapter.
    At(usize),
    /// After the output of replacement `k` (the note is a block of its own
    /// at the end of the directive's block).
    AfterReplacement(usize),
}

/// The map of one chapter: its replacements and their spans in the
/// expanded text (none for a chapter without directives).
pub struct ChapterMap<'a> {
    /// The chapter as mdBook sent it.
    pub content: &'a str,
    /// Replaced ranges of `content`, in order.
    pub replacements: &'a [Replacement],
    /// Where each replacement's text is in the expanded text.
    pub spans: &'a [Range<usize>],
}

impl ChapterMap<'_> {
    /// The expanded text this maps from: the chapter with its replacements.
    pub fn expanded(&self) -> std::borrow::Cow<'_, str> {
        if self.replacements.is_empty() {
            return self.content.into();
        }
        crate::expand::splice::splice(self.content, self.replacements).into()
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
    pub fn written(&self, expanded: &str, range: Range<usize>) -> Option<(Range<usize>, Place)> {
        let last = range.end.max(range.start + 1) - 1;
        match (self.locate(range.start), self.locate(last)) {
            (Ok(start), Ok(last)) => Some((start..last + 1, Place::At(last + 1))),
            (Err(k), _) | (_, Err(k)) => {
                let written = expanded.get(range)?;
                let source = &self.replacements[k].range;
                let at = memchr::memmem::find(
                    self.content.get(source.clone())?.as_bytes(),
                    written.as_bytes(),
                )?;
                let start = source.start + at;
                Some((start..start + written.len(), Place::AfterReplacement(k)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expand::splice::splice_with_spans;

    #[test]
    fn offsets_map_around_and_inside_replacements() {
        let content = "a [x](#y) {{#d}} [z](#w) ```faq\n[q](#r)\n```";
        let d = content.find("{{#d}}").expect("call");
        let faq = content.find("```faq").expect("block");
        let replacements = vec![
            Replacement {
                range: d..d + 6,
                text: "LONGER OUTPUT [gen](#g)".into(),
            },
            Replacement {
                range: faq..content.len(),
                text: "<div>[q](#r)</div>".into(),
            },
        ];
        let (expanded, spans) = splice_with_spans(content, &replacements);
        let map = ChapterMap {
            content,
            replacements: &replacements,
            spans: &spans,
        };
        let find = |needle: &str| {
            let at = expanded.find(needle).expect("in expanded");
            at..at + needle.len()
        };
        let (range, place) = map.written(&expanded, find("[x](#y)")).expect("before");
        assert_eq!(&content[range.clone()], "[x](#y)");
        assert_eq!(place, Place::At(range.end));
        let (range, _) = map.written(&expanded, find("[z](#w)")).expect("between");
        assert_eq!(&content[range], "[z](#w)");
        let (range, place) = map.written(&expanded, find("[q](#r)")).expect("copied");
        assert_eq!(&content[range], "[q](#r)");
        assert_eq!(place, Place::AfterReplacement(1));
        assert!(
            map.written(&expanded, find("[gen](#g)")).is_none(),
            "generated"
        );
    }
}
