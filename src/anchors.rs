//! The whole-book anchor check: every relative link with a fragment, and
//! every link into `contributing-url` with one, must name an id its target
//! page will have once rendered.
//!
//! Only chapters whose text may hold such a link are parsed, and a target
//! page's ids are computed once, when first needed.

use std::ops::Range;
use std::sync::Arc;

use memchr::memmem;
use pulldown_cmark::{CodeBlockKind, Event, Tag, TagEnd};

use crate::diagnostics::{Diagnostic, did_you_mean};
use crate::directive::OffsetMap;
use crate::engine::Run;
use crate::headings::PageIds;
use crate::paths;
use crate::scan;
use crate::settings::AnchorCheck;

/// A link found in a chapter: its destination and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundLink {
    /// The destination as written (after reference resolution).
    pub dest: String,
    /// Where the link is in the chapter.
    pub range: Range<usize>,
}

/// A link whose anchor does not exist.
#[derive(Debug)]
pub struct BrokenLink {
    /// What to report (pointing at the fragment where it is written).
    pub diagnostic: Diagnostic,
    /// The whole link, in the chapter's content.
    pub link: Range<usize>,
}

/// Checks chapter `index`; returns each link whose anchor does not exist.
pub fn check_chapter(run: &Run<'_>, index: usize) -> Vec<BrokenLink> {
    let settings = run.settings;
    if settings.check_anchors == AnchorCheck::Off {
        return Vec::new();
    }
    let chapter = &run.chapters[index];
    let Some(here) = chapter.path.as_deref() else {
        return Vec::new(); // a draft chapter is not rendered
    };
    if !may_have_fragment_links(&chapter.content, settings.contributing_url.as_deref()) {
        return Vec::new();
    }
    let links = if scan::may_contain(&chapter.content, run.registry) {
        links_in(&chapter.content, run)
    } else {
        // Parsed once with the page's ids (which same-page links need).
        let _ = run.page_ids(index);
        run.data
            .links(index)
            .map(|links| {
                links
                    .iter()
                    .map(|(dest, range)| FoundLink {
                        dest: dest.clone(),
                        range: range.clone(),
                    })
                    .collect()
            })
            .unwrap_or_else(|| links_in(&chapter.content, run))
    };
    links
        .iter()
        .filter_map(|link| {
            let diagnostic = check_link(run, index, here, link)?;
            Some(BrokenLink {
                diagnostic: match settings.check_anchors {
                    AnchorCheck::Error => diagnostic.for_chapter(index),
                    _ => diagnostic.as_warning().for_chapter(index),
                },
                link: link.range.clone(),
            })
        })
        .collect()
}

/// The target page of a link and the fragment it names, or `None` when the
/// link is not one this check covers.
fn target_of(
    run: &Run<'_>,
    index: usize,
    here: &str,
    dest: &str,
) -> Option<(Arc<PageIds>, String, String)> {
    if paths::is_relative(dest) {
        let (path, fragment) = paths::split_fragment(dest);
        let fragment = fragment?;
        let target = if path.is_empty() {
            index
        } else {
            let resolved = paths::resolve(here, path)?;
            run.chapter_by_path(&paths::as_chapter_path(&resolved))?
        };
        let place = if target == index {
            "on this page".to_string()
        } else {
            format!(
                "in `{}`",
                run.chapters[target].path.as_deref().unwrap_or_default()
            )
        };
        Some((run.page_ids(target)?, place, percent_decode(fragment)))
    } else {
        let url = run.settings.contributing_url.as_deref()?;
        let fragment = dest.strip_prefix(url)?.strip_prefix('#')?;
        let contributing = run.contributing().ok()?;
        let place = format!("in {} on the repository host", contributing.file.name);
        Some((
            Arc::new(contributing.github.clone()),
            place,
            percent_decode(fragment),
        ))
    }
}

fn check_link(run: &Run<'_>, index: usize, here: &str, link: &FoundLink) -> Option<Diagnostic> {
    let (page, place, fragment) = target_of(run, index, here, &link.dest)?;
    if fragment.is_empty() || page.contains(&fragment) {
        return None;
    }
    // Point at the fragment when the link is written inline; a reference
    // link's fragment is in its definition, so point at the use.
    let text = &run.chapters[index].content;
    let range = text
        .get(link.range.clone())
        .and_then(|written| {
            let raw = link.dest.rsplit_once('#').map(|(_, f)| f)?;
            let at = written.rfind(&format!("#{raw}"))?;
            Some(link.range.start + at..link.range.start + at + raw.len() + 1)
        })
        .unwrap_or_else(|| link.range.clone());
    Some(
        Diagnostic::error(format!("broken link: no heading `#{fragment}` {place}"))
            .in_chapter(index, range)
            .with_label("this anchor does not exist")
            .with_suggestion(did_you_mean(&fragment, page.ids()).map(|id| format!("#{id}"))),
    )
}

/// `%20` and friends, for fragments written percent-encoded.
fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_string();
    }
    let hex = |b: u8| (b as char).to_digit(16);
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let (Some(&high), Some(&low)) = (bytes.get(i + 1), bytes.get(i + 2))
            && let (Some(high), Some(low)) = (hex(high), hex(low))
        {
            out.push((high * 16 + low) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
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

/// Every link in `text` outside code, including links inside the bodies of
/// fence directives (FAQ answers), with ranges in `text`.
pub fn links_in(text: &str, run: &Run<'_>) -> Vec<FoundLink> {
    let mut out = Vec::new();
    collect(text, &OffsetMap::default(), run, true, &mut out);
    out
}

fn collect(text: &str, map: &OffsetMap, run: &Run<'_>, top: bool, out: &mut Vec<FoundLink>) {
    let mut fence: Option<(String, OffsetMap)> = None;
    for (event, range) in run.settings.markdown.parser(text).into_offset_iter() {
        match event {
            Event::Start(Tag::Link { dest_url, .. }) => out.push(FoundLink {
                dest: dest_url.to_string(),
                range: map.to_source(range.start)
                    ..map.to_source(range.end.max(range.start + 1) - 1) + 1,
            }),
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) if top => {
                let name = info.split_whitespace().next().unwrap_or_default();
                if run.registry.fence(name).is_some() {
                    fence = Some((String::new(), OffsetMap::default()));
                }
            }
            Event::Text(t) => {
                if let Some((body, body_map)) = fence.as_mut() {
                    body_map.push(body.len(), map.to_source(range.start));
                    body.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((body, body_map)) = fence.take() {
                    collect(&body, &body_map, run, false, out);
                }
            }
            _ => {}
        }
    }
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
        assert_eq!(percent_decode("caf%C3%A9"), "café");
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("plain"), "plain");
        // Found by fuzzing: `%` before a multi-byte character.
        assert_eq!(percent_decode("%%é%"), "%%é%");
        assert_eq!(percent_decode("a%é"), "a%é");
    }
}
