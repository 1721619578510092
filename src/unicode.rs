//! Comparing text as a reader sees it: Unicode normalisation (NFC), full
//! case folding, and the characters that show as nothing. A shared leaf:
//! it imports nothing from the crate.

use std::borrow::Cow;

use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// `text` in Unicode's Normalization Form C, the form handles and group
/// ids are compared in: `Café` typed with a combining accent is the same
/// handle as `Café` typed with `é`.
pub fn nfc(text: &str) -> Cow<'_, str> {
    match is_nfc_quick(text.chars()) {
        IsNormalized::Yes => Cow::Borrowed(text),
        _ => Cow::Owned(text.nfc().collect()),
    }
}

/// `text` for caseless matching: NFC, then Unicode's full case folding
/// (`ΣΊΣΥΦΟΣ`, `σίσυφος` and `Σίσυφοσ` are one word; `Straße` is
/// `strasse`).
pub fn fold(text: &str) -> String {
    unicase::UniCase::new(&*nfc(text)).to_folded_case()
}

/// Characters that show as nothing (Unicode's Default_Ignorable_Code_Point:
/// zero-width joiners and spaces, direction marks and overrides, variation
/// selectors, tags, ...): two names that differ only by them look the same.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}'..='\u{1160}' | '\u{17B4}'..='\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}' | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}')
}

/// When `suggestion` would print the same as `input` although the two
/// differ (in normalisation, case folding aside, or invisible characters),
/// a note saying how: both as code points. `None` when they look different.
pub fn difference_note(input: &str, suggestion: &str) -> Option<String> {
    let visible = |s: &str| -> String { nfc(s).chars().filter(|c| !is_invisible(*c)).collect() };
    if input == suggestion || visible(input) != visible(suggestion) {
        return None;
    }
    let points = |s: &str| -> String {
        s.chars()
            .take(24)
            .map(|c| {
                if c.is_ascii_graphic() {
                    c.to_string()
                } else {
                    format!("U+{:04X}", u32::from(c))
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    Some(format!(
        "the two look the same but are different characters: `{}` here, `{}` there",
        points(input),
        points(suggestion)
    ))
}

/// `term-ends` as a header, `Term ends`: `-` and `_` as spaces, the first
/// letter upper-case, the rest as written.
pub fn sentence_case(name: &str) -> String {
    let spaced = name.replace(['-', '_'], " ");
    let mut chars = spaced.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_matches_what_a_reader_sees_as_the_same_word() {
        assert_eq!(fold("ΣΊΣΥΦΟΣ"), fold("σίσυφος"));
        assert_eq!(fold("Cafe\u{301}"), fold("Caf\u{e9}"));
        assert_eq!(fold("Straße"), "strasse");
        assert_ne!(fold("a"), fold("b"));
    }

    #[test]
    fn a_difference_that_does_not_show_is_spelled_out() {
        let note = difference_note("Cafe\u{301}", "Caf\u{e9}").expect("looks the same");
        assert!(note.contains("U+0301") && note.contains("U+00E9"), "{note}");
        assert!(difference_note("ab\u{200d}", "ab").is_some());
        assert_eq!(difference_note("abc", "abd"), None);
        assert_eq!(difference_note("abc", "abc"), None);
    }
}
