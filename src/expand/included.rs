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

/// The replacements of the links in chapter `index` that lead out of
/// `src`: those of text mdBook included from a file outside `src`
/// (resolved from that file's folder), and the chapter's own links to
/// the repository's files (`../../LICENSE`); and their problems.
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
    let has_include = memchr::memmem::find(text.as_bytes(), b"{{#include").is_some();
    let climbs = memchr::memmem::find(text.as_bytes(), b"../").is_some();
    if !has_include && !climbs {
        return out;
    }
    let (Ok(src), Some(folder)) = (src.canonicalize(), file.parent()) else {
        return out;
    };
    let Ok(folder) = folder.canonicalize() else {
        return out;
    };
    let content = chapter.content.get();
    let chapter = Chapter {
        run,
        index,
        content: &content,
        src: &src,
        folder: &folder,
        resolver: run.data.repository_links(settings),
    };
    let mut regions = Vec::new();
    // Text equal to the file: mdBook's `links` has not run, nothing was
    // included yet.
    if has_include && *content != *text {
        let mut seen = Vec::new();
        for include in includes(&text).filter(|include| include.whole) {
            let Ok(target) = folder.join(include.path).canonicalize() else {
                continue;
            };
            if target.starts_with(&src)
                || !target.starts_with(chapter.resolver.root())
                || seen.contains(&target)
            {
                continue;
            }
            seen.push(target.clone());
            chapter.included_file(&target, &mut out, &mut regions);
        }
    }
    if climbs {
        chapter.own_links(&regions, &mut out);
    }
    out.0.sort_by_key(|r| r.range.start);
    out.0.dedup_by_key(|r| r.range.start);
    out
}

/// The chapter whose links are resolved.
struct Chapter<'a, 'r> {
    run: &'a Run<'r>,
    index: usize,
    content: &'a str,
    /// `src` and the chapter's folder, canonical.
    src: &'a Path,
    folder: &'a Path,
    resolver: &'a RepositoryLinks,
}

type Found = (Vec<Replacement>, Vec<Diagnostic>);

impl Chapter<'_, '_> {
    /// The links of `target`'s text, wherever the chapter holds it; the
    /// ranges it is at are added to `regions`.
    fn included_file(&self, target: &Path, out: &mut Found, regions: &mut Vec<Range<usize>>) {
        let Ok(included) = files::read_text(target, MAX_DATA_FILE) else {
            return;
        };
        if included.trim().is_empty() {
            return;
        }
        let find = |text: &str| -> Vec<usize> {
            memchr::memmem::find_iter(self.content.as_bytes(), text.as_bytes()).collect()
        };
        // mdBook may have read a CRLF file with LF line endings.
        let mut searched = included.clone();
        let mut starts = find(&included);
        if starts.is_empty() && included.contains("\r\n") {
            searched = included.replace("\r\n", "\n");
            starts = find(&searched);
        }
        if starts.is_empty() {
            return;
        }
        let settings = self.run.settings;
        let book = (settings.root.canonicalize()).unwrap_or_else(|_| settings.root.clone());
        let name = crate::paths::display(&crate::paths::relative_path(&book, target));
        let shown = Arc::new(SourceFile::new(name, included));
        let (edits, problems) = edits(
            self.run,
            self.index,
            self.resolver,
            (&shown, &searched),
            target,
        );
        for start in starts {
            regions.push(start..start + searched.len());
            out.0.extend(edits.iter().map(|(range, dest)| {
                Replacement::new(
                    start + range.start..start + range.end,
                    Arc::from(dest.as_str()),
                )
            }));
        }
        out.1.extend(problems);
    }

    /// The chapter's own links to files of the repository outside `src`
    /// (not those in `regions`, the included text): to the chapter that
    /// holds the file, else to the repository host. A link out of the
    /// repository is the chapter's own business and is left alone.
    fn own_links(&self, regions: &[Range<usize>], out: &mut Found) {
        let files = || self.run.data.repository(self.run.settings).ok();
        for (range, kind) in destinations(self.content, self.run.settings.markdown) {
            if regions
                .iter()
                .any(|r| r.start <= range.start && range.end <= r.end)
            {
                continue;
            }
            let dest = &self.content[range.clone()];
            let (path, _) = crate::paths::split_fragment(dest);
            let path = crate::paths::percent_decoded(path);
            if !crate::paths::is_relative(dest) || path.is_empty() || path.starts_with('/') {
                continue;
            }
            let lexical = crate::paths::normalize(&self.folder.join(&path));
            if lexical.starts_with(self.src) || !self.resolver.is_inside(self.folder, dest) {
                continue;
            }
            let written = Written {
                from: self.folder,
                dest,
                kind,
            };
            let rewritten = self
                .resolver
                .rewrite(&written, self.run.chapters, self.index, &files);
            if let Some(problem) = rewritten.problem {
                out.1.push(problem.in_this_chapter(range.clone()));
            }
            if let Some(link) = rewritten.link.filter(|link| link != dest) {
                out.0
                    .push(Replacement::new(range, Arc::from(link.as_str())));
            }
        }
    }
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
