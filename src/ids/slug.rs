//! Heading ids ("slugs"): the rules mdBook 0.4, mdBook 0.5 and github.com
//! use to turn a heading into the fragment a link can point at.
//!
//! Everything here is a pure function of its input; the parent module
//! works out which text each renderer feeds into these rules.
//!
//! | rules | base id | duplicates |
//! | --- | --- | --- |
//! | mdBook 0.5 | Unicode lowercase; keep alphanumerics, `_`, `-`; whitespace becomes `-` | `id-1`, `id-2`, ... skipping every id already handed out |
//! | mdBook 0.4 | from the heading's *HTML*: tags and five entities removed, `#` trimmed, ASCII-only lowercase | a counter per base id, never checked against other ids |
//! | GitHub | github-slugger: lowercase, drop punctuation and symbols, each space becomes `-`, no trimming | github-slugger's loop: `id-1`, `id-2`, ... skipping ids already handed out |

use std::collections::{HashMap, HashSet};

use crate::mdbook::Generation;

/// Whose heading-id rules to follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdRules {
    /// mdBook's HTML renderer of that generation.
    MdBook(Generation),
    /// github.com showing a Markdown file (github-slugger semantics).
    GitHub,
}

/// The id a heading with this text gets before duplicates are resolved.
///
/// `text` is the heading's plain text as the renderer collects it: Markdown
/// already parsed, entities decoded, markup and image alt text dropped, code
/// spans kept (see the parent module). Per rules:
///
/// - `MdBook(V05)`: mdBook-html 0.5.4 `id_from_content`: trim, Unicode
///   lowercase, keep `char::is_alphanumeric`, `_` and `-`, each whitespace
///   character becomes `-`, drop the rest.
/// - `MdBook(V04)`: mdBook 0.4.52 works on the heading's rendered HTML, so the
///   text is first escaped as pulldown-cmark escapes body text and then goes
///   through [`mdbook04_id_from_html`]. For plain text this amounts to:
///   drop `&`, `<`, `>`, trim, trim leading `#`s, trim, then keep
///   alphanumerics (lowercased only if ASCII: `Über` stays `Über`), `_` and
///   `-`, whitespace becomes `-`.
/// - `GitHub`: github-slugger 2.x `slug`: Unicode lowercase, delete what
///   [`github_keeps`] rejects, each ASCII space becomes `-`. Nothing is
///   trimmed: the Markdown parser already strips the heading's outer spaces.
pub fn base_id(rules: IdRules, text: &str) -> String {
    match rules {
        IdRules::MdBook(Generation::V05) => mdbook05_id(text),
        IdRules::MdBook(Generation::V04) => mdbook04_id_from_html(&escape_body_text(text)),
        IdRules::GitHub => github_slug(text),
    }
}

fn mdbook05_id(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c)
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// mdBook 0.4.52's `id_from_content`, applied to a heading's inner HTML as
/// pulldown-cmark rendered it (what `build_header_links` captures between
/// `<hN>` and `</hN>`).
///
/// Steps, as in mdBook: remove every `<.*?>` (a `<`, the shortest run of
/// characters without a newline, a `>`), remove the strings `&lt;`, `&gt;`,
/// `&amp;`, `&#39;` and `&quot;` (in that order), trim whitespace, trim
/// leading `#`s, trim again, then `normalize_id`: alphanumerics, `_` and `-`
/// are kept with `to_ascii_lowercase`, whitespace becomes `-`, the rest is
/// dropped.
pub fn mdbook04_id_from_html(html: &str) -> String {
    let mut content = strip_tags_like_mdbook04(html);
    for entity in ["&lt;", "&gt;", "&amp;", "&#39;", "&quot;"] {
        if content.contains(entity) {
            content = content.replace(entity, "");
        }
    }
    let trimmed = content.trim().trim_start_matches('#').trim();
    trimmed
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// Removes what the regex `<.*?>` matches (`.` excludes `\n`).
fn strip_tags_like_mdbook04(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        let after = &rest[lt + 1..];
        match after.find(['>', '\n']) {
            Some(end) if after.as_bytes()[end] == b'>' => rest = &after[end + 1..],
            _ => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Escapes text as pulldown-cmark's HTML writer escapes body text
/// (`&`, `<`, `>`; quotes are left alone), with its own escaper.
fn escape_body_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // Writing into a String cannot fail.
    let _ = pulldown_cmark_escape::escape_html_body_text(&mut out, text);
    out
}

fn github_slug(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .filter(|&c| github_keeps(c))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Whether github-slugger keeps `c` (after lowercasing).
///
/// github-slugger deletes every code point whose Unicode 13 general
/// category is Other_Number, punctuation other than Connector_Punctuation
/// (`-` excepted), a symbol, a separator (ASCII space excepted), Control,
/// Format, Private_Use or Unassigned, unless the code point is Alphabetic.
/// What survives is letters, marks, decimal and letter numbers, connector
/// punctuation such as `_`, `-` and the ASCII space.
///
/// The standard library has no general-category lookup, so this is an
/// approximation built from `char::is_alphabetic`, `is_whitespace` and
/// `is_control` plus a table (`GITHUB_REMOVED`) of the remaining ranges
/// github-slugger deletes. The table was derived by comparing this
/// function with github-slugger 2.0.0 over every code point: the two agree
/// on every code point assigned in Unicode 13. They disagree only on code
/// points github-slugger deletes as unassigned: this keeps those the
/// standard library (a newer Unicode) knows as letters, marks or digits,
/// plus a few dozen newer punctuation and symbol characters and code points
/// that are still unassigned.
pub fn github_keeps(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_');
    }
    if c.is_alphabetic() {
        return true;
    }
    // Latin-1: every non-letter is punctuation, a symbol, a space or a control.
    if (c as u32) < 0x100 || c.is_whitespace() || c.is_control() {
        return false;
    }
    let cp = c as u32;
    let i = GITHUB_REMOVED.partition_point(|&(_, end)| end < cp);
    GITHUB_REMOVED.get(i).is_none_or(|&(start, _)| start > cp)
}

/// Ranges of non-alphabetic code points that github-slugger deletes and that
/// `is_whitespace`/`is_control` do not catch: punctuation, symbols, other
/// numbers, format characters and private use, by block. Alphabetic code
/// points inside a range are kept (they are tested first); decimal digits,
/// marks and connector punctuation never fall inside one. Sorted, disjoint.
#[rustfmt::skip]
const GITHUB_REMOVED: &[(u32, u32)] = &[
    (0x02C2, 0x02FF), (0x0375, 0x0482), (0x055A, 0x058F), (0x05BE, 0x061F),
    (0x066A, 0x06DE), (0x06E9, 0x06E9), (0x06FD, 0x070F), (0x07F6, 0x07F9),
    (0x07FE, 0x07FF), (0x0830, 0x083E), (0x085E, 0x08D2), (0x08E2, 0x08E2),
    (0x0964, 0x0965), (0x0970, 0x0970), (0x09F2, 0x09FD), (0x0A76, 0x0A76),
    (0x0AF0, 0x0AF1), (0x0B70, 0x0B77), (0x0BF0, 0x0C3C), (0x0C77, 0x0C84),
    (0x0D4F, 0x0D5E), (0x0D70, 0x0D79), (0x0DF4, 0x0E3F), (0x0E4F, 0x0E4F),
    (0x0E5A, 0x0E5B), (0x0F01, 0x0F17), (0x0F1A, 0x0F1F), (0x0F2A, 0x0F34),
    (0x0F36, 0x0F36), (0x0F38, 0x0F38), (0x0F3A, 0x0F3D), (0x0F85, 0x0F85),
    (0x0FBE, 0x0FC5), (0x0FC7, 0x0FDA), (0x104A, 0x104F), (0x109E, 0x10FB),
    (0x1360, 0x16ED), (0x1715, 0x1715), (0x1735, 0x1736), (0x17D4, 0x17DB),
    (0x17F0, 0x180A), (0x180E, 0x180F), (0x1940, 0x1945), (0x19DA, 0x1A1F),
    (0x1AA0, 0x1AAD), (0x1AC1, 0x1ACB), (0x1B5A, 0x1B6A), (0x1B74, 0x1B7E),
    (0x1BFC, 0x1BFF), (0x1C3B, 0x1C3F), (0x1C7E, 0x1CC7), (0x1CD3, 0x1CD3),
    (0x1DFA, 0x1DFA), (0x1FBD, 0x203E), (0x2041, 0x2053), (0x2055, 0x20C0),
    (0x2100, 0x2CEA), (0x2CF9, 0x2D70), (0x2E00, 0x3020), (0x3030, 0x303F),
    (0x309B, 0xA60F), (0xA673, 0xA673), (0xA67E, 0xA67E), (0xA6F2, 0xA78A),
    (0xA828, 0xA82B), (0xA830, 0xA877), (0xA8CE, 0xA8CF), (0xA8F8, 0xA8FC),
    (0xA92E, 0xA92F), (0xA95F, 0xA95F), (0xA9C1, 0xA9CD), (0xA9DE, 0xA9DF),
    (0xAA5C, 0xAA79), (0xAADE, 0xAAF1), (0xAB5B, 0xABEB), (0xE000, 0xFDFF),
    (0xFE10, 0xFE19), (0xFE30, 0xFE32), (0xFE35, 0xFE4C), (0xFE50, 0xFF0F),
    (0xFF1A, 0xFF3E), (0xFF40, 0x101FC), (0x102E1, 0x103D0), (0x1056F, 0x109FF),
    (0x10A40, 0x10AC8), (0x10AEB, 0x10CFF), (0x10E60, 0x10F26), (0x10F51, 0x10FCB),
    (0x11047, 0x11065), (0x11070, 0x11070), (0x110BB, 0x110CD), (0x11140, 0x11143),
    (0x11174, 0x11175), (0x111C5, 0x111C8), (0x111CD, 0x111CD), (0x111DB, 0x111F4),
    (0x11238, 0x112A9), (0x1144B, 0x1144F), (0x1145A, 0x1145D), (0x114C6, 0x114C6),
    (0x115C1, 0x115D7), (0x11641, 0x11643), (0x11660, 0x1166C), (0x116B9, 0x116B9),
    (0x1173A, 0x1173F), (0x1183B, 0x1183B), (0x118EA, 0x118F2), (0x11944, 0x11946),
    (0x119E2, 0x119E2), (0x11A3F, 0x11A46), (0x11A9A, 0x11AA2), (0x11C41, 0x11C45),
    (0x11C5A, 0x11C71), (0x11EF7, 0x13438), (0x16A6E, 0x16AC9), (0x16AF5, 0x16AF5),
    (0x16B37, 0x16B45), (0x16B5B, 0x16FE2), (0x1BC9C, 0x1BC9C), (0x1BC9F, 0x1D164),
    (0x1D16A, 0x1D16C), (0x1D173, 0x1D17A), (0x1D183, 0x1D184), (0x1D18C, 0x1D1A9),
    (0x1D1AE, 0x1D241), (0x1D245, 0x1D7C3), (0x1D800, 0x1D9FF), (0x1DA37, 0x1DA3A),
    (0x1DA6D, 0x1DA74), (0x1DA76, 0x1DA83), (0x1DA85, 0x1DA8B), (0x1E14F, 0x1E2AE),
    (0x1E2FF, 0x1E8CF), (0x1E95E, 0x1FBCA), (0xE0001, 0xE007F), (0xF0000, 0x10FFFD),
];

/// Hands out unique ids on one page, the way the chosen renderer resolves
/// duplicates. Feed it the base ids in document order.
///
/// - mdBook 0.5 (`unique_id`): a set of every id returned so far; a taken id
///   becomes `id-1`, `id-2`, ... (the first one not in the set). Custom
///   `{#id}` ids never enter the set, so do not pass them here.
/// - mdBook 0.4 (`unique_id_from_content`): a counter per base id: `id`,
///   `id-1`, `id-2`, ... with no check against other ids, so a heading
///   `Setup 1` after two `Setup`s also gets `setup-1`.
/// - GitHub (github-slugger): `id`, `id-1`, ... where a generated id that is
///   already taken bumps the counter again; every result is remembered.
#[derive(Debug, Clone)]
pub struct IdAllocator {
    rules: IdRules,
    used: HashSet<String>,
    counters: HashMap<String, usize>,
}

impl IdAllocator {
    /// An allocator for one page.
    pub fn new(rules: IdRules) -> Self {
        IdAllocator {
            rules,
            used: HashSet::new(),
            counters: HashMap::new(),
        }
    }

    /// The unique id for the next heading whose base id is `base`.
    pub fn next(&mut self, base: &str) -> String {
        match self.rules {
            IdRules::MdBook(Generation::V05) => {
                if self.used.insert(base.to_string()) {
                    return base.to_string();
                }
                (1u32..)
                    .map(|n| format!("{base}-{n}"))
                    .find(|candidate| self.used.insert(candidate.clone()))
                    .unwrap_or_default()
            }
            IdRules::MdBook(Generation::V04) => {
                let count = self.counters.entry(base.to_string()).or_insert(0);
                let id = match *count {
                    0 => base.to_string(),
                    n => format!("{base}-{n}"),
                };
                *count += 1;
                id
            }
            IdRules::GitHub => {
                let mut result = base.to_string();
                while self.counters.contains_key(&result) {
                    let count = self.counters.entry(base.to_string()).or_insert(0);
                    *count += 1;
                    result = format!("{base}-{count}");
                }
                self.counters.insert(result.clone(), 0);
                result
            }
        }
    }

    /// `next(&base_id(rules, text))`.
    pub fn id_for(&mut self, text: &str) -> String {
        let base = base_id(self.rules, text);
        self.next(&base)
    }
}

#[cfg(test)]
mod tests;
