//! Links in text that mdBook's `links` preprocessor included into a
//! chapter from a file outside `src` (`{{#include ../../CONTRIBUTING.md}}`):
//! they were written relative to that file's folder, so each is resolved
//! there (`data::repository_links`) and only its destination's bytes are
//! replaced; the chapter is never written again. The same for a chapter's
//! own links to the repository's files outside `src` (`../../LICENSE`).
//! The chapter is parsed once, so that a link is one where the chapter
//! shows it (not in a code block the include stands in).

use std::ffi::OsStr;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pulldown_cmark::{Event, LinkType, Tag};

use crate::chapter::splice::Replacement;
use crate::data::repository_links::{LinkKind, RepositoryLinks, Written};
use crate::diagnostic::{Diagnostic, SourceFile};
use crate::directive::Run;
use crate::files::{self, MAX_DATA_FILE};
use crate::mdbook::include::includes;
use crate::paths;

type Found = (Vec<Replacement>, Vec<Diagnostic>);

/// A folder of chapters listed is one of at most this many entries.
const MAX_LISTED: usize = 100_000;

/// The file of chapter `index` in `src`, unless it is outside `src`: a
/// chapter there (`../../X.md` in SUMMARY.md) is written by mdBook outside
/// the build folder too, and its links are left as they are.
fn source_in_src<'c>(run: &Run<'c>, index: usize) -> Option<&'c Path> {
    let source = run.chapters[index].source_path()?;
    (!source.starts_with("../")).then(|| Path::new(source))
}

/// Which chapters have a file that may be there to read: each folder of
/// chapter files is listed once (a file it does not hold is not looked
/// for), and a chapter in a folder that is there but cannot be listed
/// may have one. Sorted, not hashed: hashing each path was 2.5% of a
/// directive-free book's instructions.
pub(super) fn chapters_with_files(run: &Run<'_>) -> Vec<bool> {
    let src = run.settings.in_root(&run.settings.src);
    let mut found = vec![false; run.chapters.len()];
    let mut sources: Vec<(&OsStr, &OsStr, usize)> = Vec::new();
    for (index, found) in found.iter_mut().enumerate() {
        let Some(source) = source_in_src(run, index) else {
            continue;
        };
        match (source.parent(), source.file_name()) {
            (Some(folder), Some(name)) => sources.push((folder.as_os_str(), name, index)),
            _ => *found = true,
        }
    }
    sources.sort_unstable();
    for group in sources.chunk_by(|a, b| a.0 == b.0) {
        let names = files::names_in(&src.join(group[0].0), MAX_LISTED);
        for &(_, name, index) in group {
            let name = name.to_ascii_lowercase();
            found[index] = (names.as_ref()).is_none_or(|names| names.binary_search(&name).is_ok());
        }
    }
    found
}

/// The replacements of the links in chapter `index` that lead out of
/// `src`, and their problems.
pub(super) fn links(run: &Run<'_>, index: usize) -> Found {
    let mut out = (Vec::new(), Vec::new());
    let chapter = &run.chapters[index];
    let Some(source) = source_in_src(run, index) else {
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
    let (Ok(folder), Ok(book)) = (folder.canonicalize(), settings.root.canonicalize()) else {
        return out;
    };
    let content = chapter.content.get();
    let chapter = Chapter {
        run,
        index,
        content: &content,
        src: &src,
        book: &book,
        folder: &folder,
        resolver: run.data.repository_links(settings),
    };
    // Text equal to the file: mdBook's `links` has not run, nothing was
    // included yet.
    let regions = match has_include && *content != *text {
        true => chapter.regions(&text),
        false => Vec::new(),
    };
    if !regions.is_empty() || climbs {
        chapter.resolve(&regions, climbs, &mut out);
    }
    out.0.sort_by_key(|r| r.range.start);
    out.0.dedup_by_key(|r| r.range.start);
    out
}

/// Where the chapter holds the text of a file outside `src`.
struct Region {
    /// Where, in the chapter.
    range: Range<usize>,
    /// The file, for diagnostics.
    file: Arc<SourceFile>,
    /// Its folder, canonical.
    from: PathBuf,
    /// Where the file has `\r\n` while the chapter holds it with `\n`:
    /// the offsets in the chapter's copy after which a `\r` was dropped.
    returns: Arc<Vec<usize>>,
}

impl Region {
    /// The file's offset of the chapter's `offset` (in this region).
    fn in_file(&self, offset: usize) -> usize {
        let o = offset - self.range.start;
        o + self.returns.partition_point(|&r| r < o)
    }
}

/// The chapter whose links are resolved.
struct Chapter<'a, 'r> {
    run: &'a Run<'r>,
    index: usize,
    content: &'a str,
    /// `src`, the book's folder and the chapter's folder, canonical.
    src: &'a Path,
    book: &'a Path,
    folder: &'a Path,
    resolver: &'a RepositoryLinks,
}

impl Chapter<'_, '_> {
    /// Where the chapter holds each file outside `src` (and inside the
    /// repository) that its file (`text`) includes whole.
    fn regions(&self, text: &str) -> Vec<Region> {
        let mut regions = Vec::new();
        let mut seen = Vec::new();
        for include in includes(text).filter(|include| include.whole) {
            let Ok(target) = self.folder.join(include.path).canonicalize() else {
                continue;
            };
            if target.starts_with(self.src)
                || !target.starts_with(self.resolver.root())
                || seen.contains(&target)
            {
                continue;
            }
            seen.push(target.clone());
            self.regions_of(&target, &mut regions);
        }
        regions
    }

    /// Every place the chapter holds `target`'s text.
    fn regions_of(&self, target: &Path, regions: &mut Vec<Region>) {
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
        let mut len = included.len();
        let mut returns = Vec::new();
        let mut starts = find(&included);
        if starts.is_empty() && included.contains("\r\n") {
            let lf = included.replace("\r\n", "\n");
            starts = find(&lf);
            len = lf.len();
            let mut removed = 0;
            returns = memchr::memmem::find_iter(included.as_bytes(), b"\r\n")
                .map(|at| {
                    removed += 1;
                    at + 1 - removed
                })
                .collect();
        }
        if starts.is_empty() {
            return;
        }
        let settings = self.run.settings;
        let book = (settings.root.canonicalize()).unwrap_or_else(|_| settings.root.clone());
        let name = paths::display(&paths::relative_path(&book, target));
        let file = Arc::new(SourceFile::new(name, included));
        let returns = Arc::new(returns);
        let from = target
            .parent()
            .unwrap_or(self.resolver.root())
            .to_path_buf();
        regions.extend(starts.into_iter().map(|start| Region {
            range: start..start + len,
            file: Arc::clone(&file),
            from: from.clone(),
            returns: Arc::clone(&returns),
        }));
    }

    /// Resolves each link of the chapter in a region (from its file's
    /// folder), and with `climbs` each of its own links to a repository
    /// file outside `src`; a link out of the repository in the chapter's
    /// own text is its own business and is left alone.
    fn resolve(&self, regions: &[Region], climbs: bool, out: &mut Found) {
        let files = || self.run.data.repository(self.run.settings).ok();
        for (range, kind) in destinations(self.content, self.run.settings.markdown) {
            let dest = &self.content[range.clone()];
            let region = regions
                .iter()
                .find(|r| r.range.start <= range.start && range.end <= r.range.end);
            let from = match region {
                Some(region) => region.from.as_path(),
                None if climbs && self.leaves_book(dest) => self.folder,
                None => continue,
            };
            let written = Written { from, dest, kind };
            let rewritten = self
                .resolver
                .rewrite(&written, self.run.chapters, self.index, &files);
            if let Some(problem) = rewritten.problem {
                match region {
                    Some(region) => {
                        let at = region.in_file(range.start)..region.in_file(range.end);
                        if self.resolver.first_report(&region.file.name, at.start) {
                            out.1.push(problem.in_file(&region.file, at));
                        }
                    }
                    None => out.1.push(problem.in_this_chapter(range.clone())),
                }
            }
            let link = match rewritten.link {
                Some(link) => link,
                // Never a path out of the repository from a file's text.
                None if !self.resolver.is_inside(from, dest) => "#".to_string(),
                None => continue,
            };
            if link != dest {
                out.0
                    .push(Replacement::new(range, Arc::from(link.as_str())));
            }
        }
    }

    /// Whether the chapter's own relative link `dest` names a place in
    /// the repository outside the book's folder (`../../LICENSE` from
    /// `docs/src`). A link that stays in the book's folder (the Rust
    /// Book's `../std/index.html`, from `src`) is a web address relative
    /// to where the book is served, beside other books: left as written,
    /// unreported.
    fn leaves_book(&self, dest: &str) -> bool {
        let (path, _) = paths::split_fragment(dest);
        let path = paths::percent_decoded(path);
        if !paths::is_relative(dest) || path.is_empty() || path.starts_with('/') {
            return false;
        }
        let lexical = paths::normalize(&self.folder.join(&path));
        !lexical.starts_with(self.book) && self.resolver.is_inside(self.folder, dest)
    }
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
    use crate::mdbook::{Chapter, Context, Generation};

    #[test]
    fn only_files_their_folder_holds_are_read() {
        let root = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(root.path().join("src/part")).expect("folders");
        std::fs::write(root.path().join("src/here.md"), "# Here\n").expect("file");
        std::fs::write(root.path().join("src/part/deep.md"), "# Deep\n").expect("file");
        let context = Context {
            root: root.path().to_path_buf(),
            config: serde_json::json!({}),
            renderer: "html".into(),
            mdbook_version: "0.5.4".into(),
        };
        let settings =
            crate::config::Settings::from_context(&context, Generation::V05).expect("valid");
        let chapter = |path: &str| Chapter::new(path, Some(path), Some(path), "");
        let chapters = [
            chapter("here.md"),
            chapter("HERE.md"),
            chapter("gone.md"),
            chapter("part/deep.md"),
            chapter("none/x.md"),
            chapter("../outside.md"),
            Chapter::new("Draft", None, None, ""),
        ];
        let (registry, data) = (
            crate::directive::Registry::new(),
            crate::data::Data::default(),
        );
        let run = Run {
            settings: &settings,
            registry: &registry,
            chapters: &chapters,
            data: &data,
            today: None,
        };
        let found = chapters_with_files(&run);
        // `none/` is not there: nor is its chapter's file.
        // `HERE.md` is looked for: the file system may not tell cases apart.
        assert_eq!(found, [true, true, false, true, false, false, false]);
    }

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
