//! Links in text that mdBook's `links` preprocessor included into a
//! chapter from a file outside `src` (`{{#include ../../CONTRIBUTING.md}}`):
//! they were written relative to that file's folder, so each is resolved
//! there (`data::repository_links`) and only its destination's bytes are
//! replaced; the chapter is never written again.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use pulldown_cmark::{Event, LinkType, Tag};

use super::directive::Run;
use super::splice::Replacement;
use crate::data::repository_links::{LinkKind, RepositoryLinks, Written};
use crate::diagnostic::{Diagnostic, SourceFile};
use crate::files::{self, MAX_DATA_FILE};
use crate::mdbook::include::includes;

/// The replacements of the links in chapter `index`'s included text
/// (`content` is its text, as mdBook sent it), and their problems.
pub(super) fn links(run: &Run<'_>, index: usize) -> (Vec<Replacement>, Vec<Diagnostic>) {
    let mut out = (Vec::new(), Vec::new());
    let chapter = &run.chapters[index];
    let Some(source) = chapter.source_path() else {
        return out;
    };
    let settings = run.settings;
    let src = settings.in_root(&settings.src);
    let file = src.join(source);
    let Ok(text) = files::read_text(&file, MAX_DATA_FILE) else {
        return out;
    };
    if memchr::memmem::find(text.as_bytes(), b"{{#include").is_none() {
        return out;
    }
    let content = chapter.content.get();
    if *content == *text {
        // mdBook's `links` has not run: nothing was included yet.
        return out;
    }
    let (Ok(src), Some(folder)) = (src.canonicalize(), file.parent()) else {
        return out;
    };
    let resolver = run.data.repository_links(settings);
    let mut seen = Vec::new();
    for include in includes(&text).filter(|include| include.whole) {
        let Ok(target) = folder.join(include.path).canonicalize() else {
            continue;
        };
        if target.starts_with(&src)
            || !target.starts_with(resolver.root())
            || seen.contains(&target)
        {
            continue;
        }
        seen.push(target.clone());
        let Ok(included) = files::read_text(&target, MAX_DATA_FILE) else {
            continue;
        };
        if included.trim().is_empty() {
            continue;
        }
        // mdBook may have read a CRLF file with LF line endings.
        let lf = included
            .contains("\r\n")
            .then(|| included.replace("\r\n", "\n"));
        let find = |text: &str| -> Vec<usize> {
            memchr::memmem::find_iter(content.as_bytes(), text.as_bytes()).collect()
        };
        let mut shown_text = None;
        let mut starts = find(&included);
        if starts.is_empty()
            && let Some(lf) = &lf
        {
            starts = find(lf);
            shown_text = Some(lf.as_str());
        }
        if starts.is_empty() {
            continue;
        }
        let book = settings
            .root
            .canonicalize()
            .unwrap_or_else(|_| settings.root.clone());
        let name = crate::paths::display(&crate::paths::relative_path(&book, &target));
        let searched = shown_text.unwrap_or(&included).to_string();
        let shown = Arc::new(SourceFile::new(name, included.clone()));
        let (edits, problems) = edits(run, index, resolver, (&shown, &searched), &target);
        for start in starts {
            out.0.extend(edits.iter().map(|(range, dest)| {
                Replacement::new(
                    start + range.start..start + range.end,
                    Arc::from(dest.as_str()),
                )
            }));
        }
        out.1.extend(problems);
    }
    out.0.sort_by_key(|r| r.range.start);
    out
}

/// The destinations to replace in `file` (at `path`), in its offsets, and
/// the problems of its links, located in it.
fn edits(
    run: &Run<'_>,
    index: usize,
    resolver: &RepositoryLinks,
    (file, text): (&Arc<SourceFile>, &str),
    path: &Path,
) -> (Vec<(Range<usize>, String)>, Vec<Diagnostic>) {
    let from = path.parent().unwrap_or(resolver.root());
    let files = || run.data.repository(run.settings).ok();
    let mut edits = Vec::new();
    let mut problems = Vec::new();
    // `text` is the file's, or the file's with LF line endings: an
    // offset in it is one in the file plus the `\r`s before it.
    let returns: Vec<usize> = if text.len() == file.text.len() {
        Vec::new()
    } else {
        let mut removed = 0;
        memchr::memmem::find_iter(file.text.as_bytes(), b"\r\n")
            .map(|at| {
                removed += 1;
                at + 1 - removed
            })
            .collect()
    };
    let in_file = |offset: usize| offset + returns.partition_point(|&r| r < offset);
    for (range, kind) in destinations(text, run.settings.markdown) {
        let dest = &text[range.clone()];
        let written = Written { from, dest, kind };
        // The anchor check reads the chapter's links, these included.
        let rewritten = resolver.rewrite(&written, run.chapters, index, &files);
        let (link, problem) = (rewritten.link, rewritten.problem);
        let at = in_file(range.start)..in_file(range.end);
        if let Some(problem) = problem
            && resolver.first_report(&file.name, at.start)
        {
            problems.push(problem.in_file(file, at));
        }
        match link {
            Some(link) if link != dest => edits.push((range, link)),
            Some(_) => {}
            // Never a path out of the repository in the book.
            None if !resolver.is_inside(from, dest) => edits.push((range, "#".to_string())),
            None => {}
        }
    }
    edits.sort_by_key(|(range, _)| range.start);
    edits.dedup_by_key(|(range, _)| range.start);
    (edits, problems)
}

/// Where each link and image destination is written in `text`: inline
/// links, reference definitions, and `href`/`src` of raw HTML; a
/// destination written otherwise than the parser reads it (escapes) is
/// left out.
fn destinations(
    text: &str,
    markdown: crate::mdbook::MarkdownOptions,
) -> Vec<(Range<usize>, LinkKind)> {
    let mut out = Vec::new();
    let events = markdown.parser(text).into_offset_iter();
    for (_, definition) in events.reference_definitions().iter() {
        if let Some(range) = find_in(text, &definition.dest, definition.span.clone()) {
            out.push((range, LinkKind::Link));
        }
    }
    for (event, range) in events {
        let (link_type, dest, kind) = match &event {
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            }) => (*link_type, dest_url, LinkKind::Link),
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                ..
            }) => (*link_type, dest_url, LinkKind::Image),
            Event::Html(html) | Event::InlineHtml(html) => {
                out.extend(html_urls(html, range.start));
                continue;
            }
            _ => continue,
        };
        if link_type == LinkType::Inline
            && let Some(range) = rfind_in(text, dest, range)
        {
            out.push((range, kind));
        }
    }
    out
}

fn find_in(text: &str, needle: &str, range: Range<usize>) -> Option<Range<usize>> {
    let at = text
        .get(range.clone())?
        .find(needle)
        .filter(|_| !needle.is_empty())?;
    Some(range.start + at..range.start + at + needle.len())
}

fn rfind_in(text: &str, needle: &str, range: Range<usize>) -> Option<Range<usize>> {
    let at = text
        .get(range.clone())?
        .rfind(needle)
        .filter(|_| !needle.is_empty())?;
    Some(range.start + at..range.start + at + needle.len())
}

/// The quoted `href` and `src` values of raw HTML at `offset`.
fn html_urls(html: &str, offset: usize) -> Vec<(Range<usize>, LinkKind)> {
    let lower = html.to_ascii_lowercase();
    let mut out = Vec::new();
    for (name, kind) in [("href=", LinkKind::Link), ("src=", LinkKind::Image)] {
        for at in memchr::memmem::find_iter(lower.as_bytes(), name.as_bytes()) {
            let before = lower[..at].chars().next_back();
            if !before.is_some_and(char::is_whitespace) {
                continue;
            }
            let value = at + name.len();
            let Some(quote) = html[value..]
                .chars()
                .next()
                .filter(|c| matches!(c, '"' | '\''))
            else {
                continue;
            };
            let Some(end) = html[value + 1..].find(quote) else {
                continue;
            };
            let range = value + 1..value + 1 + end;
            if !html[range.clone()].contains('&') {
                out.push((offset + range.start..offset + range.end, kind));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destinations_as_written() {
        let text = "[a](x.md) [b][r] ![c](i.png \"t\") <https://e.org> [d](a\\_b.md)\n\n<a href=\"y.md\">y</a> <img src='z.png'>\n\n[r]: <ref.md>\n";
        let options = crate::mdbook::MarkdownOptions::defaults(crate::mdbook::Generation::V05);
        let found: Vec<(&str, LinkKind)> = destinations(text, options)
            .into_iter()
            .map(|(r, k)| (&text[r], k))
            .collect();
        assert_eq!(
            found,
            [
                ("ref.md", LinkKind::Link),
                ("x.md", LinkKind::Link),
                ("i.png", LinkKind::Image),
                ("y.md", LinkKind::Link),
                ("z.png", LinkKind::Image),
            ]
        );
    }
}
