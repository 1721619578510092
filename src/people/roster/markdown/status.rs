//! The words that give people a status, wherever a file writes them: a
//! group's heading (`## Emeritus maintainers`), a marker on the entry
//! (`(retired)`), a status column; and the colon lines that introduce a
//! list rather than name a group.

/// The status a group's title (or a status cell) gives its members:
/// `emeritus` for emeritus, emeriti, former, past, retired and inactive
/// members, `alumni` for alumni.
pub fn status_in(text: &str) -> Option<&'static str> {
    let lower = text.to_lowercase();
    let words = lower.split(|c: char| !c.is_alphanumeric());
    let mut status = None;
    for word in words {
        match word {
            "alumni" | "alumnus" | "alumna" => return Some("alumni"),
            "sunsetting" => return Some("sunsetting"),
            "emeritus" | "emeriti" | "emerita" | "former" | "past" | "retired" | "inactive" => {
                status = Some("emeritus");
            }
            _ => {}
        }
    }
    status
}

/// The status a marker on an entry gives: `(emeritus)`, `(retired 2020)`,
/// `(sunsetting)`, `(alumni)`, `(inactive)`: at most four words, one of
/// them a status word (the same words a group's heading is read by).
pub fn status_marker(text: &str) -> Option<&'static str> {
    let words = text.split_whitespace().count();
    match words {
        1..=4 => status_in(text),
        _ => None,
    }
}

/// Whether a colon line says how the list is ordered or introduces it
/// (`In alphabetical order:`, `Listed below:`) rather than naming a group.
pub fn is_caption(title: &str) -> bool {
    let lower = title.to_lowercase();
    lower.split(|c: char| !c.is_alphanumeric()).any(|w| {
        matches!(
            w,
            "alphabetical" | "alphabetically" | "order" | "sorted" | "following" | "below"
        )
    })
}
