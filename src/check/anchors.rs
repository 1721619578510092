//! The whole-book anchor check: every relative link with a fragment, and
//! every link into `contributing-url` with one, must name an id its target
//! page will have once rendered.
//!
//! The links are those of the expanded chapter, from the index's one parse
//! of it; only chapters whose text may hold such a link are looked at.

use std::ops::Range;

use memchr::memmem;

use super::redirects;
use crate::chapter::{ChapterMap, NotePlace};
use crate::diagnostic::{Code, Diagnostic};
use crate::directive::Run;
use crate::ids::{self, BookIds, PageIds};
use crate::index::BookIndex;
use crate::paths;

/// A link whose anchor does not exist.
#[derive(Debug)]
pub struct BrokenLink {
    /// What to report (pointing at the fragment where it is written).
    pub diagnostic: Diagnostic,
    /// Where a visible note about it goes (`on-error = "warn"`).
    pub note_at: NotePlace,
}

/// Checks the links of chapter `index` (whose expanded text `map` maps
/// back to the chapter); returns each whose anchor does not exist. Links
/// that a directive generated, rather than copied from the chapter, are
/// left to the directive.
pub fn check_chapter(
    run: &Run<'_>,
    book: &BookIndex<'_>,
    index: usize,
    map: &ChapterMap<'_>,
) -> Vec<BrokenLink> {
    let chapter = &run.chapters[index];
    let Some(here) = chapter.path() else {
        return Vec::new(); // a draft chapter is not rendered
    };
    if !may_have_fragment_links(map.content, run.settings.contributing_url.as_deref()) {
        return Vec::new();
    }
    let expanded = map.expanded();
    book.take_links(index, &expanded)
        .into_iter()
        .filter_map(|link| {
            let (range, note_at) = map.written(&expanded, link.range.clone())?;
            let diagnostic = check_link(run, book, (index, map.content), here, &link.dest, range)?;
            let diagnostic = match diagnostic.is_error() {
                true => run.settings.check_anchors.severity_of(diagnostic),
                false => diagnostic, // a note about a redirect
            };
            Some(BrokenLink {
                diagnostic,
                note_at,
            })
        })
        .collect()
}

/// The target page of a link and the fragment it names, or `None` when the
/// link is not one this check covers.
fn target_of<'b>(
    run: &'b Run<'_>,
    book: &'b BookIndex<'_>,
    index: usize,
    here: &str,
    dest: &str,
) -> Option<(&'b PageIds, String, String)> {
    if paths::is_relative(dest) {
        let (path, fragment) = paths::split_fragment(dest);
        let fragment = fragment?;
        let target = target_chapter(book, index, here, path)?;
        let place = if target == index {
            "on this page".to_string()
        } else {
            format!("in `{}`", run.chapters[target].path().unwrap_or_default())
        };
        Some((book.page(target)?, place, paths::percent_decoded(fragment)))
    } else {
        let url = run.settings.contributing_url.as_deref()?;
        let fragment = dest.strip_prefix(url)?.strip_prefix('#')?;
        let contributing = run.contributing_loaded()?;
        let place = format!("in {} on the repository host", contributing.file.name);
        Some((
            &contributing.github,
            place,
            paths::percent_decoded(fragment),
        ))
    }
}

/// The problem with the link to `dest` written at `range` of the chapter
/// (`index`, and its text), if its anchor does not exist.
fn check_link(
    run: &Run<'_>,
    book: &BookIndex<'_>,
    (index, text): (usize, &str),
    here: &str,
    dest: &str,
    range: Range<usize>,
) -> Option<Diagnostic> {
    if let Some(note) = through_redirect(run, book, here, dest) {
        return Some(note.in_chapter(index, range));
    }
    let (page, place, fragment) = target_of(run, book, index, here, dest)?;
    if fragment.is_empty() || page.contains(&fragment) {
        return None;
    }
    // Point at the fragment when the link is written inline; a reference
    // link's fragment is in its definition, so point at the use.
    let range = text
        .get(range.clone())
        .and_then(|written| {
            let raw = dest.rsplit_once('#').map(|(_, f)| f)?;
            let at = written.rfind(&format!("#{raw}"))?;
            Some(range.start + at..range.start + at + raw.len() + 1)
        })
        .unwrap_or(range);
    let error = Diagnostic::error(
        Code::BrokenAnchor,
        format!("broken link: no heading `#{fragment}` {place}"),
    )
    .in_chapter(index, range)
    .with_label("this anchor does not exist");
    let closest = ids::closest_anchor(&fragment, page);
    let redirect_help = closest
        .filter(|_| paths::is_relative(dest))
        .and_then(|closest| {
            let (path, _) = paths::split_fragment(dest);
            let target = target_chapter(book, index, here, path)?;
            let page = run.chapters[target].path()?;
            redirects::suggest_redirect(run.settings.generation, page, &fragment, closest)
        });
    let error = ids::with_anchor_suggestion(error, &fragment, page, closest);
    Some(match redirect_help {
        Some(help) => error.with_help(help),
        None => error,
    })
}

/// The chapter a relative link's path part points at (`index` for a bare
/// `#fragment`); mdBook links `my%20file.md` to the chapter `my file.md`.
fn target_chapter(book: &BookIndex<'_>, index: usize, here: &str, path: &str) -> Option<usize> {
    if path.is_empty() {
        return Some(index);
    }
    book.chapter_by_path(&paths::link_target(here, path)?)
}

/// The note for a relative link whose page or heading has moved, when a
/// redirect of `[output.html.redirect]` takes it to the new place.
fn through_redirect(
    run: &Run<'_>,
    book: &BookIndex<'_>,
    here: &str,
    dest: &str,
) -> Option<Diagnostic> {
    let redirects = &run.settings.redirects;
    if redirects.is_empty() || !paths::is_relative(dest) {
        return None;
    }
    let (path, fragment) = paths::split_fragment(dest);
    let fragment = paths::percent_decoded(fragment?);
    let page = if path.is_empty() {
        here.to_string()
    } else {
        paths::link_target(here, path)?
    };
    let chapter = book.chapter_by_path(&page);
    if let Some(ids) = chapter.and_then(|c| book.page(c))
        && ids.contains(&fragment)
    {
        return None; // the heading is there: no redirect is involved
    }
    let (redirect, new_place) = redirects::moved(redirects, &page, &fragment, chapter.is_some())?;
    Some(redirects::note_for_link(redirect, here, &new_place))
}

/// Whether `text` may hold a link with a fragment: a `](` or `]:` followed
/// (after spaces, tabs and at most one line ending, as CommonMark allows) by
/// a destination holding `#`, or the contributing URL anywhere. A byte scan,
/// no parsing; it may say yes for text that has no such link, never no for
/// text that has one.
pub fn may_have_fragment_links(text: &str, contributing_url: Option<&str>) -> bool {
    let bytes = text.as_bytes();
    let is_blank = |b: &u8| matches!(b, b' ' | b'\t');
    let destination_has_fragment = |after: &[u8]| {
        let mut rest = after;
        let skip_blanks =
            |rest: &[u8]| rest.iter().position(|b| !is_blank(b)).unwrap_or(rest.len());
        rest = &rest[skip_blanks(rest)..];
        if let Some(next) = rest.strip_prefix(b"\r\n").or_else(|| {
            rest.strip_prefix(b"\n")
                .or_else(|| rest.strip_prefix(b"\r"))
        }) {
            rest = &next[skip_blanks(next)..];
        }
        let end = match rest.strip_prefix(b"<") {
            // `<...>` destinations may hold spaces, not line endings.
            Some(inner) => 1 + memchr::memchr3(b'>', b'\n', b'\r', inner).unwrap_or(inner.len()),
            None => rest
                .iter()
                .position(|b| b.is_ascii_whitespace())
                .unwrap_or(rest.len()),
        };
        memchr::memchr(b'#', &rest[..end]).is_some()
    };
    memchr::memchr_iter(b']', bytes).any(|at| {
        matches!(bytes.get(at + 1), Some(b'(' | b':')) && destination_has_fragment(&bytes[at + 2..])
    }) || contributing_url.is_some_and(|url| memmem::find(bytes, url.as_bytes()).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragment_link_prefilter() {
        assert!(may_have_fragment_links("see [x](a.md#b)", None));
        assert!(may_have_fragment_links("see [x](#b)", None));
        assert!(may_have_fragment_links("[x]: a.md#b", None));
        assert!(!may_have_fragment_links("see [x](a.md) # not a link", None));
        assert!(!may_have_fragment_links("# Heading\n\nplain", None));
        // Whatever CommonMark allows between `](` or `]:` and the destination.
        assert!(may_have_fragment_links("[s]:   b.md#x", None));
        assert!(may_have_fragment_links("[s]:\n  b.md#x", None));
        assert!(may_have_fragment_links("[s]:\r\n\tb.md#x", None));
        assert!(may_have_fragment_links("[x]( b.md#x)", None));
        assert!(may_have_fragment_links("[x](\n b.md#x)", None));
        assert!(may_have_fragment_links("[x](<my file.md#x>)", None));
        assert!(!may_have_fragment_links("[x](a.md) and #tag", None));
        assert!(!may_have_fragment_links("[x]:\n\n#heading", None));
        assert!(may_have_fragment_links(
            "https://h/C.md#x",
            Some("https://h/C.md")
        ));
    }

    #[test]
    fn percent_decoding() {
        let decode = paths::percent_decoded;
        assert_eq!(decode("caf%C3%A9"), "café");
        assert_eq!(decode("a%2"), "a%2");
        assert_eq!(decode("plain"), "plain");
        // Found by fuzzing: `%` before a multi-byte character.
        assert_eq!(decode("%%é%"), "%%é%");
        assert_eq!(decode("a%é"), "a%é");
    }
}
