//! Byte ranges carried from one text to another: a fragment scanned on its
//! own (a fence body, a FAQ answer) maps its offsets back to the chapter it
//! came from. A leaf: it imports nothing from the crate.

use std::ops::Range;

/// `range` of a text mapped through `map` (an offset map of that text to
/// another): its first byte and its last byte are mapped, so that a range
/// which crosses a gap of the map keeps both its ends. An empty range stays
/// empty: a stage that slices by it must not reach past it.
pub fn map_range(range: Range<usize>, map: impl Fn(usize) -> usize) -> Range<usize> {
    let start = map(range.start);
    if range.is_empty() {
        return start..start;
    }
    let end = map(range.end - 1) + 1;
    start..end.max(start)
}

/// A piecewise map from offsets in an extracted text (a fence body) to
/// offsets in the text it was extracted from.
#[derive(Debug, Clone, Default)]
pub struct OffsetMap {
    /// `(offset in extracted text, offset in source)` at the start of each piece.
    pieces: Vec<(usize, usize)>,
}

impl OffsetMap {
    /// Records that extracted offset `extracted` corresponds to `source`, and
    /// that the following bytes are contiguous in both.
    pub fn push(&mut self, extracted: usize, source: usize) {
        self.pieces.push((extracted, source));
    }

    /// The source offset of extracted offset `offset`.
    pub fn to_source(&self, offset: usize) -> usize {
        let index = self.pieces.partition_point(|&(e, _)| e <= offset);
        match index.checked_sub(1).and_then(|i| self.pieces.get(i)) {
            Some(&(e, s)) => s + (offset - e),
            None => offset,
        }
    }

    /// `range` of the extracted text, in the source.
    pub fn range_to_source(&self, range: Range<usize>) -> Range<usize> {
        map_range(range, |offset| self.to_source(offset))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_map_maps_pieces() {
        let mut map = OffsetMap::default();
        map.push(0, 10);
        map.push(4, 20);
        assert_eq!(map.to_source(0), 10);
        assert_eq!(map.to_source(3), 13);
        assert_eq!(map.to_source(4), 20);
        assert_eq!(map.to_source(9), 25);
        assert_eq!(OffsetMap::default().to_source(7), 7);
    }

    #[test]
    fn ranges_keep_their_ends_across_gaps_and_empty_ranges_stay_empty() {
        let mut map = OffsetMap::default();
        map.push(0, 10);
        map.push(4, 20);
        assert_eq!(map.range_to_source(2..6), 12..22);
        assert_eq!(map.range_to_source(0..4), 10..14);
        assert_eq!(map.range_to_source(4..4), 20..20);
    }
}
