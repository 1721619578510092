//! SymSpell's symmetric deletion index over a set's comparable texts.
//!
//! Two texts within two edits (Damerau-Levenshtein: an insertion, a
//! deletion, a substitution or a transposition each) share a subsequence
//! that each reaches by deleting at most two of its characters (each edit
//! costs each side at most one deletion), and so do their first
//! [`KEY_CHARS`] characters, and their last. So a candidate within reach of
//! an input has a variant of its start (its first characters with up to two
//! deleted) equal to one of the input's start, and one of its end equal to
//! one of the input's end. Names of at most [`KEY_CHARS`] characters are
//! indexed whole; a longer name is found by its start or by its end,
//! whichever of the two meets fewer candidates (a set of names sharing a
//! long start, such as a page's `heading-number-N`, differs at the end).

/// How many of the first and of the last characters of a name the index
/// holds: a name has at most 1 + K + K(K-1)/2 variants on each side (56
/// for 10), which bounds the index at a fixed multiple of the set's size
/// however long its names are.
pub const KEY_CHARS: usize = 10;

/// The deletion index of a set of distinct texts.
pub struct Deletions {
    /// Variants of each name's first [`KEY_CHARS`] characters (of the
    /// whole of a name that short), the longer names' marked [`LONG`].
    heads: Table,
    /// Variants of the longer names' last [`KEY_CHARS`] characters.
    tails: Table,
}

/// The mark of a name longer than [`KEY_CHARS`] among the heads.
const LONG: u64 = 1 << 31;

impl Deletions {
    /// The index of `texts` (each a candidate's position, below 2³¹, and
    /// its text).
    pub fn of(texts: Vec<(u32, &str)>) -> Deletions {
        let (mut heads, mut tails) = (Vec::new(), Vec::new());
        let mut chars: Vec<char> = Vec::new();
        for (i, text) in texts {
            chars.clear();
            chars.extend(text.chars());
            let entry = |hash: u32| (u64::from(hash) << 32) | u64::from(i);
            if chars.len() <= KEY_CHARS {
                variants(&chars, |hash| heads.push(entry(hash)));
            } else {
                variants(&chars[..KEY_CHARS], |hash| heads.push(entry(hash) | LONG));
                let tail = &chars[chars.len() - KEY_CHARS..];
                variants(tail, |hash| tails.push(entry(hash)));
            }
        }
        Deletions {
            heads: Table::new(heads),
            tails: Table::new(tails),
        }
    }

    /// Every candidate that may be within two edits of the text `chars`,
    /// each once, in their order: the short names whose variants meet
    /// those of the input's start, and the longer names met at their start
    /// or at their end, whichever of the two meets fewer.
    pub fn near(&self, chars: &[char]) -> Vec<u32> {
        let key = chars.len().min(KEY_CHARS);
        let (mut heads, mut tails) = (Vec::new(), Vec::new());
        variants(&chars[..key], |hash| heads.push(self.heads.get(hash)));
        variants(&chars[chars.len() - key..], |hash| {
            tails.push(self.tails.get(hash))
        });
        // A hash's entries of short names sort before those of long ones.
        let short = |found: &&[u64]| found.partition_point(|&e| e & LONG == 0);
        let long_at_start: usize = heads.iter().map(|found| found.len() - short(found)).sum();
        let long_at_end: usize = tails.iter().map(|found| found.len()).sum();
        if long_at_start > long_at_end {
            for found in &mut heads {
                *found = &found[..short(found)];
            }
            heads.append(&mut tails);
        }
        let mut found: Vec<u32> = entries(&heads).map(position).collect();
        found.sort_unstable();
        found.dedup();
        found
    }
}

/// Every entry of the look-ups `found`.
fn entries<'t>(found: &'t [&'t [u64]]) -> impl Iterator<Item = u64> + 't {
    found.iter().flat_map(|entries| entries.iter().copied())
}

/// The candidate's position in an entry.
fn position(entry: u64) -> u32 {
    (entry as u32) & !(LONG as u32)
}

/// Variants as 32-bit hashes beside the candidate's position
/// (`hash << 32 | position`), sorted, and where the entries of each
/// bucket of hashes (by their top bits) start: a look-up reads the
/// directory and a few entries, not a binary search over all of them. A
/// collision of two variants' hashes costs a comparison, never a
/// candidate.
struct Table {
    entries: Vec<u64>,
    /// Where bucket `b`'s entries start (and, at `b + 1`, end).
    starts: Vec<u32>,
    /// A hash's bucket is `hash >> shift`.
    shift: u32,
}

impl Table {
    fn new(mut entries: Vec<u64>) -> Table {
        entries.sort_unstable();
        entries.dedup();
        entries.shrink_to_fit();
        // About four entries a bucket.
        let bits = (entries.len() / 4).max(1).ilog2().min(24);
        let shift = 32 - bits;
        let mut starts = vec![0u32; (1 << bits) + 1];
        for entry in &entries {
            starts[((entry >> 32) >> shift) as usize + 1] += 1;
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        Table {
            entries,
            starts,
            shift,
        }
    }

    /// The entries whose hash is `hash`.
    fn get(&self, hash: u32) -> &[u64] {
        let b = (u64::from(hash) >> self.shift) as usize;
        let bucket = &self.entries[self.starts[b] as usize..self.starts[b + 1] as usize];
        let first = bucket.partition_point(|&e| (e >> 32) < u64::from(hash));
        let end = bucket.partition_point(|&e| (e >> 32) <= u64::from(hash));
        &bucket[first..end]
    }
}

/// Calls `found` with the hash of `chars` and of every variant of it with
/// one or two characters deleted (a variant reached twice is found twice).
fn variants(chars: &[char], mut found: impl FnMut(u32)) {
    let n = chars.len();
    found(hash_without(chars, n, n));
    for i in 0..n {
        found(hash_without(chars, i, n));
        for j in i + 1..n {
            found(hash_without(chars, i, j));
        }
    }
}

/// A 32-bit hash of `chars` without the characters at `skip` and `also`
/// (positions past the end skip nothing).
fn hash_without(chars: &[char], skip: usize, also: usize) -> u32 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut hash: u64 = K;
    for (at, &c) in chars.iter().enumerate() {
        if at != skip && at != also {
            hash = (hash.rotate_left(5) ^ u64::from(c)).wrapping_mul(K);
        }
    }
    (hash >> 32) as u32
}
