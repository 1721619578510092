//! A repository file's Markdown made into a chapter's: parsed as GitHub
//! parses it, its raw HTML sanitized (`markdown::sanitize`), every relative
//! link and image resolved against the file's own folder
//! (`data::repository_links`), and written again by `to_markdown`, which
//! spells `{{` so that no directive in it is ever expanded.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use pulldown_cmark::{CowStr, Event, LinkType, Tag, TagEnd};

use crate::config::Level;
use crate::data::repository_links::{LinkKind, RepositoryLinks, Written};
use crate::diagnostic::{Code, Diagnostic, SourceFile};
use crate::directive::Cx;
use crate::markdown::sanitize::{Sanitizer, UrlKind, allowed_url};
use crate::markdown::to_markdown;
use crate::mdbook::options::github_parser;

/// The chapter Markdown for `file`, whose folder is `from` (absolute,
/// canonical). Problems with its links are reported through `cx`, at their
/// place in the file.
pub fn render(file: &Arc<SourceFile>, from: &Path, cx: &Cx<'_>) -> String {
    let mut links = Links {
        file,
        from,
        cx,
        resolver: cx.run.data.repository_links(cx.settings()),
    };
    let mut sanitizer = Sanitizer::new();
    let mut out: Vec<Event<'_>> = Vec::new();
    // Whether each open link or image was kept (a dropped one keeps its
    // text only).
    let mut kept: Vec<bool> = Vec::new();
    let mut block: Option<(String, Range<usize>)> = None;
    for (event, range) in github_parser(&file.text).into_offset_iter() {
        if let Some((html, _)) = block.as_mut() {
            match event {
                Event::Html(text) => html.push_str(&text),
                Event::End(TagEnd::HtmlBlock) => {
                    let (html, at) = block.take().unwrap_or_default();
                    let clean = sanitizer.block(&html, &mut |kind, url| {
                        links.url_in_html(kind, url, &html, at.clone())
                    });
                    if !clean.is_empty() {
                        out.push(Event::Start(Tag::HtmlBlock));
                        out.push(Event::Html(CowStr::from(clean + "\n")));
                        out.push(Event::End(TagEnd::HtmlBlock));
                    }
                }
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(Tag::HtmlBlock) => block = Some((String::new(), range)),
            Event::InlineHtml(html) | Event::Html(html) => {
                let clean = sanitizer.inline(&html, &mut |kind, url| {
                    links.url_in_html(kind, url, &html, range.clone())
                });
                if !clean.is_empty() {
                    out.push(Event::InlineHtml(CowStr::from(clean)));
                }
            }
            Event::Start(tag @ (Tag::Link { .. } | Tag::Image { .. })) => {
                let kept_tag = links.tag(tag, range);
                kept.push(kept_tag.is_some());
                out.extend(kept_tag.map(Event::Start));
            }
            Event::End(end @ (TagEnd::Link | TagEnd::Image)) => {
                if kept.pop().unwrap_or(true) {
                    out.push(Event::End(end));
                }
            }
            Event::Text(_) | Event::Code(_) | Event::SoftBreak | Event::HardBreak
                if sanitizer.is_dropping() => {}
            event => out.push(event),
        }
    }
    to_markdown(out, cx.settings().markdown.parser_options())
}

fn is_autolink(link_type: LinkType) -> bool {
    matches!(link_type, LinkType::Autolink | LinkType::Email)
}

/// The written link type: a reference's definition is not written again,
/// so every link but an autolink becomes inline.
fn inline_type(link_type: LinkType) -> LinkType {
    if is_autolink(link_type) {
        link_type
    } else {
        LinkType::Inline
    }
}

/// What resolving a file's links needs.
struct Links<'a, 'c> {
    file: &'a Arc<SourceFile>,
    from: &'a Path,
    cx: &'a Cx<'c>,
    resolver: &'a RepositoryLinks,
}

impl Links<'_, '_> {
    /// A link or image with its destination resolved; `None` when it is
    /// dropped (its text kept).
    fn tag<'e>(&mut self, tag: Tag<'e>, range: Range<usize>) -> Option<Tag<'e>> {
        Some(match tag {
            Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            } => Tag::Link {
                dest_url: self.destination(&dest_url, link_type, LinkKind::Link, range)?,
                link_type: inline_type(link_type),
                title,
                id: if is_autolink(link_type) {
                    id
                } else {
                    CowStr::from("")
                },
            },
            Tag::Image {
                link_type,
                dest_url,
                title,
                ..
            } => Tag::Image {
                dest_url: self.destination(&dest_url, link_type, LinkKind::Image, range)?,
                link_type: inline_type(link_type),
                title,
                id: CowStr::from(""),
            },
            other => other,
        })
    }

    /// The destination a Markdown link or image is written with; `None`
    /// when it is dropped (its text kept).
    fn destination(
        &mut self,
        dest: &str,
        link_type: LinkType,
        kind: LinkKind,
        range: Range<usize>,
    ) -> Option<CowStr<'static>> {
        if is_autolink(link_type) {
            return Some(CowStr::from(dest.to_string()));
        }
        let url_kind = match kind {
            LinkKind::Link => UrlKind::Link,
            LinkKind::Image => UrlKind::Image,
        };
        let dest = allowed_url(dest, url_kind)?;
        let at = place_of(&self.file.text, &dest, range);
        self.resolve(&dest, kind, at).map(CowStr::from)
    }

    /// A URL of an HTML attribute, resolved as a Markdown link is.
    fn url_in_html(
        &mut self,
        kind: UrlKind,
        url: &str,
        html: &str,
        range: Range<usize>,
    ) -> Option<String> {
        let kind = match kind {
            UrlKind::Link => LinkKind::Link,
            UrlKind::Image => LinkKind::Image,
        };
        let at = match html.find(url) {
            Some(at) => range.start + at..range.start + at + url.len(),
            None => range,
        };
        self.resolve(url, kind, at)
    }

    /// Where `dest` goes, reporting a problem at `at` in the file.
    fn resolve(&mut self, dest: &str, kind: LinkKind, at: Range<usize>) -> Option<String> {
        let cx = self.cx;
        let files = || cx.run.data.repository(cx.settings()).ok();
        let written = Written {
            from: self.from,
            dest,
            kind,
        };
        let rewritten = self
            .resolver
            .rewrite(&written, cx.run.chapters, cx.chapter, &files);
        if let Some(problem) = rewritten.problem
            && self.resolver.first_report(&self.file.name, at.start)
        {
            self.report(problem, at.clone());
        }
        // Links a directive writes are not in the anchor check's view of
        // the page: each fragment into a chapter is checked here.
        if let Some((index, fragment)) = rewritten.anchor
            && cx.settings().check_anchors != Level::Off
            && let Some(path) = cx.run.chapters[index].path()
        {
            let error = Diagnostic::warning(
                Code::BrokenAnchor,
                format!("broken link: no heading `#{fragment}` in `{path}`"),
            )
            .with_label("this anchor does not exist")
            .in_file(self.file, at);
            cx.check_anchor_later(path.to_string(), fragment, error);
        }
        rewritten.link
    }

    fn report(&self, diagnostic: Diagnostic, at: Range<usize>) {
        self.cx.report(diagnostic.in_file(self.file, at));
    }
}

/// Where `dest` is written in the link at `range` of `text`: the
/// destination itself when it is there as written, else the whole link.
pub fn place_of(text: &str, dest: &str, range: Range<usize>) -> Range<usize> {
    let written = text.get(range.clone()).unwrap_or_default();
    match written.rfind(dest) {
        Some(at) if !dest.is_empty() => range.start + at..range.start + at + dest.len(),
        _ => range,
    }
}
