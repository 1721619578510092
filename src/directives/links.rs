//! Checked links: `{{#contributing ...}}` into CONTRIBUTING.md and
//! `{{#ref PATH#anchor}}` to other chapters. Both take their text from the
//! heading they point at, and fail with a suggestion when it does not exist.

use std::ops::Range;

use pulldown_cmark::{CowStr, Event, LinkType, Tag, TagEnd};

use crate::data::contributing::Contributing;
use crate::diagnostic::{Code, Diagnostic, FollowOn};
use crate::directive::args::ArgKind;
use crate::directive::{BraceDirective, Call, Cx, Expansion, LinkCx};
use crate::ids;
use crate::ids::PageIds;
use crate::markdown::to_markdown;
use crate::paths;

/// `{{#contributing}}`, `{{#contributing #anchor}}`,
/// `{{#contributing Heading Text}}`, each with an optional `"link text"`.
pub struct ContributingLink;

/// `{{#ref PATH#anchor}}`, `{{#ref PATH}}`, `{{#ref #anchor}}`, each with an
/// optional `"link text"`.
pub struct Ref;

/// A call's arguments: what it points at, and the quoted text if any.
struct LinkArgs<'a> {
    target: &'a str,
    target_range: Range<usize>,
    text: Option<String>,
}

/// Splits off a trailing quoted link text; the rest is the target.
fn link_args<'a>(call: &Call<'a>) -> Result<LinkArgs<'a>, Vec<Diagnostic>> {
    if call.in_link {
        return Err(vec![
            call.error(
                Code::MisplacedDirective,
                format!(
                    "`{{{{#{}}}}}` makes a link, and it stands in the text of another link",
                    call.name
                ),
            )
            .with_label("a link inside a link")
            .with_help("a link cannot contain a link: move it out of the `[...]`"),
        ]);
    }
    let tokens = call.tokens().map_err(|e| vec![e])?;
    let mut text = None;
    // Offsets into `call.args` itself: a deferred call's range is mapped
    // back to the chapter (from a FAQ answer, say), and only its start is
    // sure to match the text.
    let base = call.args_range.start;
    let mut end = base + call.args.len();
    for (i, token) in tokens.iter().enumerate() {
        if let ArgKind::Quoted(quoted) = &token.kind {
            if i + 1 != tokens.len() {
                return Err(vec![call.error_at(
                    token.range.clone(),
                    Code::InvalidArguments,
                    "the quoted link text must come last",
                )]);
            }
            if quoted.trim().is_empty() {
                return Err(vec![
                    call.error_at(
                        token.range.clone(),
                        Code::InvalidArguments,
                        "the quoted link text is empty",
                    )
                    .with_help("leave it out to use the heading's text"),
                ]);
            }
            text = Some(quoted.to_string());
            end = token.range.start;
        }
    }
    let raw = call.args.get(..end - base).unwrap_or(call.args);
    let target = raw.trim();
    let start = base + (raw.len() - raw.trim_start().len());
    Ok(LinkArgs {
        target,
        target_range: start..start + target.len(),
        text,
    })
}

/// The chapter a `{{#ref PATH}}` names (`range` is where `path` is), or
/// the error for a path that is no chapter, with the closest one.
fn target_chapter(
    call: &Call<'_>,
    cx: &LinkCx<'_>,
    path: &str,
    range: Range<usize>,
) -> Result<usize, Vec<Diagnostic>> {
    let here = cx.current().path().unwrap_or_default();
    // `my%20file.md` names the chapter `my file.md`, as in a Markdown link.
    let resolved = paths::link_target(here, path);
    if let Some(index) = resolved.as_deref().and_then(|p| cx.chapter_by_path(p)) {
        return Ok(index);
    }
    // mdBook renders a `README.md` as `index.md` (its `index` preprocessor
    // changes the chapter's path, not its source).
    let renamed = cx.run.chapters.iter().find(|c| {
        c.source_path().is_some()
            && c.source_path() != c.path()
            && c.source_path() == resolved.as_deref()
    });
    let error = call
        .error_at(
            range,
            Code::UnknownChapter,
            format!("no chapter `{path}` in this book"),
        )
        .with_label("not in SUMMARY.md");
    let error = match renamed.and_then(|c| c.path()) {
        Some(rendered) => error.with_help(format!(
            "mdBook renders `{path}` as the chapter `{}`: link to that",
            paths::relative(here, rendered)
        )),
        None => {
            let closest = resolved.as_deref().and_then(|p| cx.closest_chapter(p));
            let closest = closest.and_then(|i| cx.run.chapters[i].path());
            error.with_suggestion(closest.map(|p| paths::relative(here, p)))
        }
    };
    Err(vec![error.with_note(
        "paths are relative to the current chapter, as in a Markdown link",
    )])
}

/// Where a `{{#contributing}}` link goes: the chapter holding CONTRIBUTING
/// (its ids, and the path to it), or the repository host (GitHub's ids, and
/// `contributing-url`).
fn destination<'c>(
    call: &Call<'_>,
    cx: &LinkCx<'c>,
    contributing: &'c Contributing,
) -> Result<(&'c PageIds, String), Vec<Diagnostic>> {
    let name = &contributing.file.name;
    Ok(match contributing.chapter {
        Some(index) => {
            let page = match &contributing.included_page {
                Some(page) => page,
                None => cx.page_ids(index),
            };
            let here = cx.current().path().unwrap_or_default();
            let there = cx.run.chapters[index].path().unwrap_or_default();
            let base = if index == cx.chapter {
                String::new()
            } else {
                paths::relative(here, there)
            };
            (page, base)
        }
        None => match &cx.settings().contributing_url {
            Some(url) => (&contributing.github, url.clone()),
            None => {
                return Err(vec![
                    call.error(Code::MissingData, format!("cannot link to {name}: it is not a chapter of this book, and `contributing-url` is not set"))
                        .with_help("set `contributing-url = \"https://github.com/ORG/REPO/blob/main/CONTRIBUTING.md\"` in [preprocessor.community], or add the file to SUMMARY.md"),
                ]);
            }
        },
    })
}

/// A `{{#ref}}` call's arguments: a target without spaces, and the quoted
/// text if any.
fn ref_args<'a>(call: &Call<'a>) -> Result<LinkArgs<'a>, Vec<Diagnostic>> {
    let args = link_args(call)?;
    if args.target.is_empty() {
        return Err(vec![
            call.error(
                Code::InvalidArguments,
                "`{{#ref}}` needs a target: `PATH`, `PATH#anchor` or `#anchor`",
            )
            .with_help("e.g. `{{#ref governance.md#decision-making}}`"),
        ]);
    }
    if args.target.contains(char::is_whitespace) {
        return Err(vec![
            call.error_at(
                args.target_range,
                Code::InvalidArguments,
                "a `{{#ref}}` target has no spaces; put link text in quotes",
            )
            .with_help("e.g. `{{#ref faq.md#setup \"the setup answer\"}}`"),
        ]);
    }
    Ok(args)
}

fn link(dest: &str, text: &str, cx: &LinkCx<'_>) -> Expansion {
    let events = [
        Event::Start(Tag::Link {
            link_type: LinkType::Inline,
            dest_url: CowStr::from(dest.to_string()),
            title: CowStr::from(""),
            id: CowStr::from(""),
        }),
        Event::Text(CowStr::from(text.to_string())),
        Event::End(TagEnd::Link),
    ];
    Expansion::Inline(to_markdown(events, cx.settings().markdown.parser_options()))
}

/// An error for an anchor that is not on `page`, with the closest id.
fn missing_anchor(
    call: &Call<'_>,
    range: Range<usize>,
    anchor: &str,
    page: &PageIds,
    place: &str,
) -> Diagnostic {
    let error = call
        .error_at(
            range,
            Code::BrokenAnchor,
            format!("no heading `#{anchor}` {place}"),
        )
        .with_label("no such anchor");
    ids::with_closest_anchor(error, anchor, page)
}

fn missing_heading(
    call: &Call<'_>,
    range: Range<usize>,
    text: &str,
    page: &PageIds,
    place: &str,
) -> Diagnostic {
    let closest = ids::closest_heading(text, page);
    // A text that cannot be written inside `{{#... }}` is suggested by its id.
    let suggestion = closest.as_ref().map(|h| {
        if h.text.contains(['}', '"']) {
            format!("#{}", h.id)
        } else {
            h.text.to_string()
        }
    });
    let error = call
        .error_at(
            range,
            Code::BrokenAnchor,
            format!("no heading \"{text}\" {place}"),
        )
        .with_label("no heading with this text");
    let note = closest.and_then(|h| crate::unicode::difference_note(text, h.text));
    let error = match suggestion {
        Some(_) => match note {
            Some(note) => error.with_suggestion(suggestion).with_note(note),
            None => error.with_suggestion(suggestion),
        },
        None => {
            let texts = page.headings().map(|h| format!("\"{}\"", h.text));
            let count = page.heading_count();
            error.with_note(ids::listing(
                "its headings",
                "it has no headings",
                texts,
                count,
            ))
        }
    };
    if page.partial {
        error.with_follow_on(FollowOn::PartialPage)
    } else {
        error
    }
}

impl BraceDirective for ContributingLink {
    fn name(&self) -> &'static str {
        "contributing"
    }

    fn expand(&self, call: &Call<'_>, cx: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        link_args(call)?;
        Ok(cx.defer_link(call))
    }

    fn resolve(&self, call: &Call<'_>, cx: &LinkCx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        let args = link_args(call)?;
        let contributing = cx
            .run
            .contributing()
            .map_err(|e| vec![call.load_error(&e)])?;
        let name = contributing.file.name.clone();
        let (page, base) = destination(call, cx, &contributing)?;
        let place = format!("in {name}");
        let (fragment, heading_text) = if args.target.is_empty() {
            (None, contributing.title.clone())
        } else if let Some(anchor) = args.target.strip_prefix('#') {
            if anchor.is_empty() || anchor.contains(char::is_whitespace) {
                return Err(vec![call.error_at(
                    args.target_range,
                    Code::InvalidArguments,
                    "expected `#anchor` or a heading's text",
                )]);
            }
            if !page.contains(anchor) {
                return Err(vec![missing_anchor(
                    call,
                    args.target_range,
                    anchor,
                    page,
                    &place,
                )]);
            }
            let text = page
                .headings()
                .find(|h| h.id == anchor)
                .map(|h| h.text.to_string());
            (Some(anchor.to_string()), text)
        } else {
            let heading = page.find_by_text(args.target).ok_or_else(|| {
                vec![missing_heading(
                    call,
                    args.target_range.clone(),
                    args.target,
                    page,
                    &place,
                )]
            })?;
            (Some(heading.id.to_string()), Some(heading.text.to_string()))
        };
        let text = args
            .text
            .or(heading_text)
            .or_else(|| fragment.clone())
            .unwrap_or_else(|| name.rsplit('/').next().unwrap_or(&name).to_string());
        let dest = match fragment {
            Some(f) => format!("{base}#{f}"),
            None if base.is_empty() => "#".to_string(),
            None => base,
        };
        Ok(link(&dest, &text, cx))
    }
}

impl BraceDirective for Ref {
    fn name(&self) -> &'static str {
        "ref"
    }

    fn expand(&self, call: &Call<'_>, cx: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        ref_args(call)?;
        Ok(cx.defer_link(call))
    }

    fn resolve(&self, call: &Call<'_>, cx: &LinkCx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        let args = ref_args(call)?;
        let (path, anchor) = paths::split_fragment(args.target);
        let (index, place) = if path.is_empty() {
            (cx.chapter, "on this page".to_string())
        } else {
            let range = args.target_range.start..args.target_range.start + path.len();
            let index = target_chapter(call, cx, path, range)?;
            let shown = cx.run.chapters[index].path().unwrap_or(path);
            (index, format!("in `{shown}`"))
        };
        let chapter = &cx.run.chapters[index];
        let text = match anchor {
            None => args.text.unwrap_or_else(|| chapter.name().to_string()),
            Some(anchor) => {
                let page = cx.page_ids(index);
                let range = args.target_range.start + path.len()..args.target_range.end;
                if anchor.is_empty() {
                    return Err(vec![call.error_at(
                        range,
                        Code::InvalidArguments,
                        "empty anchor after `#`",
                    )]);
                }
                if !page.contains(anchor) {
                    return Err(vec![missing_anchor(call, range, anchor, page, &place)]);
                }
                args.text.unwrap_or_else(|| {
                    page.headings()
                        .find(|h| h.id == anchor)
                        .map_or_else(|| anchor.to_string(), |h| h.text.to_string())
                })
            }
        };
        Ok(link(args.target, &text, cx))
    }
}
