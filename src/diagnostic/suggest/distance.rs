//! How many edits apart two comparable texts (at most [`MAX_COMPARED`]
//! characters each) are, when that is at most [`MAX_EDITS`], without
//! allocating: the index hands a question up to a few hundred candidates,
//! and this is most of what a question costs.

use super::{MAX_COMPARED, MAX_EDITS};

/// A distance past those that matter.
const FAR: u8 = 4;

/// The Damerau-Levenshtein distance (unrestricted: insertions, deletions,
/// substitutions and transpositions of adjacent characters, with edits
/// between transposed ones allowed) between `a` and `b` when it is at most
/// [`MAX_EDITS`], else `None`. Worked out as the optimal string alignment
/// distance (which forbids editing between transposed characters) in a
/// band of the table: it is never below the Damerau-Levenshtein distance
/// and equal to it up to two edits. Where it is three, the other distance
/// is two only for two characters swapped with one inserted or deleted
/// between them (`ca` and `abc`): one edit of cost two, the only one the
/// alignment distance forbids that costs less than three.
pub fn edits_within_reach(a: &[char], b: &[char]) -> Option<usize> {
    match alignment_distance(a, b) {
        edits @ 0..=MAX_EDITS => Some(edits),
        3 if swapped_around_one(a, b) || swapped_around_one(b, a) => Some(2),
        _ => None,
    }
}

/// The characters of `text` (at most [`MAX_COMPARED`]), in `buffer`.
pub fn chars_of<'b>(text: &str, buffer: &'b mut [char; MAX_COMPARED]) -> &'b [char] {
    let mut len = 0;
    for (slot, c) in buffer.iter_mut().zip(text.chars()) {
        *slot = c;
        len += 1;
    }
    &buffer[..len]
}

/// strsim's Jaro-Winkler similarity of `a` and `b` (at most
/// [`MAX_COMPARED`] characters each), by the same arithmetic in the same
/// order, so the same value, without allocating: a question that finds no
/// typo computes it for each of its neighbours.
pub fn jaro_winkler(a: &[char], b: &[char]) -> f64 {
    let similarity = jaro(a, b);
    if similarity <= 0.7 {
        return similarity;
    }
    let prefix = (a.iter().take(4).zip(b))
        .take_while(|(x, y)| x == y)
        .count();
    similarity + 0.1 * prefix as f64 * (1.0 - similarity)
}

/// strsim's Jaro similarity (see [`jaro_winkler`]).
fn jaro(a: &[char], b: &[char]) -> f64 {
    let (a, b) = (
        &a[..a.len().min(MAX_COMPARED)],
        &b[..b.len().min(MAX_COMPARED)],
    );
    if a.is_empty() || b.is_empty() {
        return if a.is_empty() && b.is_empty() {
            1.0
        } else {
            0.0
        };
    }
    let reach = (a.len().max(b.len()) / 2).saturating_sub(1);
    let (mut a_matched, mut b_matched) = ([false; MAX_COMPARED], [false; MAX_COMPARED]);
    let mut matches = 0_usize;
    for (i, x) in a.iter().enumerate() {
        let window = i.saturating_sub(reach)..b.len().min(i + reach + 1);
        if let Some(j) = window.into_iter().find(|&j| *x == b[j] && !b_matched[j]) {
            a_matched[i] = true;
            b_matched[j] = true;
            matches += 1;
        }
    }
    if matches == 0 {
        return 0.0;
    }
    let mut in_b = b_matched.iter().zip(b).filter(|(matched, _)| **matched);
    let mut transpositions = 0_usize;
    for (_, x) in a_matched.iter().zip(a).filter(|(matched, _)| **matched) {
        if in_b.next().is_some_and(|(_, y)| x != y) {
            transpositions += 1;
        }
    }
    transpositions /= 2;
    ((matches as f64 / a.len() as f64)
        + (matches as f64 / b.len() as f64)
        + ((matches - transpositions) as f64 / matches as f64))
        / 3.0
}

/// Whether `b` is `a` with two adjacent characters swapped and one
/// character put between them: `a = u X Y v`, `b = u Y Z X v`.
fn swapped_around_one(a: &[char], b: &[char]) -> bool {
    if b.len() != a.len() + 1 || a.len() < 2 {
        return false;
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = (a.iter().rev().zip(b.iter().rev()))
        .take_while(|(x, y)| x == y)
        .count();
    (0..=prefix.min(a.len() - 2))
        .any(|p| a.len() - p - 2 <= suffix && a[p] == b[p + 2] && a[p + 1] == b[p])
}

/// The optimal string alignment distance between `a` and `b`, or 4 when
/// it is more than 3: only the cells within three of the diagonal are
/// worked out (any other is at least 4 away), in three rows.
fn alignment_distance(a: &[char], b: &[char]) -> usize {
    let (n, m) = (a.len().min(MAX_COMPARED), b.len().min(MAX_COMPARED));
    if n.abs_diff(m) >= usize::from(FAR) {
        return usize::from(FAR);
    }
    let capped = |k: usize| u8::try_from(k).unwrap_or(FAR).min(FAR);
    let mut rows = [[FAR; MAX_COMPARED + 1]; 3];
    for (j, cell) in rows[0].iter_mut().enumerate().take(m + 1) {
        *cell = capped(j);
    }
    let mut least_up = 0;
    for i in 1..=n {
        let (row, up, two_up) = (i % 3, (i - 1) % 3, (i + 1) % 3);
        let (first, last) = (i.saturating_sub(3).max(1), (i + 3).min(m));
        rows[row][0] = capped(i);
        rows[row][first - 1] = if first == 1 { capped(i) } else { FAR };
        if last < m {
            rows[row][last + 1] = FAR;
        }
        let mut least = rows[row][first - 1];
        for j in first..=last {
            let cost = u8::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[up][j] + 1)
                .min(rows[row][j - 1] + 1)
                .min(rows[up][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[two_up][j - 2] + 1);
            }
            rows[row][j] = d.min(FAR);
            least = least.min(rows[row][j]);
        }
        if least >= FAR && least_up >= FAR {
            return usize::from(FAR); // every later row is as far
        }
        least_up = least;
    }
    usize::from(rows[n % 3][m])
}
