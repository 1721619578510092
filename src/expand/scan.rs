//! Finding directive call sites in a chapter.
//!
//! A cheap byte scan decides whether a chapter can hold a directive at all
//! (`{{#` followed by one of our names, or a fence whose info string starts
//! with a fence directive's name). Only then is the chapter parsed, with the
//! options mdBook renders with, and a candidate counts only where Markdown
//! sees text: never in inline code, code blocks, HTML or comments, and never
//! after a backslash.

use std::ops::Range;

use memchr::memmem;
use pulldown_cmark::{CodeBlockKind, Event, Tag, TagEnd};

use crate::diagnostic::{Code, Diagnostic};
use crate::directive::args::find_close;
use crate::directive::{Call, DirectiveNames, FenceBlock};
use crate::markdown::{Placement, is_inline_end, is_inline_tag, trim_line_end};
use crate::mdbook::MarkdownOptions;
use crate::span::OffsetMap;

/// A call site found in a text.
#[derive(Debug, Clone)]
pub enum Site<'t> {
    /// `{{#name args}}`.
    Brace(Call<'t>),
    /// A fence directive block.
    Fence(FenceBlock<'t>),
}

impl Site<'_> {
    /// The bytes the site occupies.
    pub fn range(&self) -> Range<usize> {
        match self {
            Site::Brace(call) => call.range.clone(),
            Site::Fence(block) => block.range.clone(),
        }
    }
}

/// What a scan found: sites in text order, and warnings for calls that are
/// not closed.
#[derive(Debug, Default)]
pub struct Scan<'t> {
    /// Call sites, sorted by position.
    pub sites: Vec<Site<'t>>,
    /// Problems that leave the text as it is.
    pub warnings: Vec<Diagnostic>,
}

/// A `{{#name` the byte scan found.
#[derive(Debug, Clone)]
struct Candidate<'t> {
    start: usize,
    name: &'t str,
    name_range: Range<usize>,
    /// Index of the closing `}}`, if it is on the same line.
    close: Option<usize>,
    /// The directive of ours it calls (`None` for a likely typo).
    ours: Option<&'static str>,
    /// For a name that is not ours but one letter or two away from one of
    /// ours (`{{#persn}}`), the name it was probably meant to be.
    typo_of: Option<&'static str>,
}

/// Whether `text` may contain a directive named in `names` (the fast path: no
/// parsing, only byte searches).
pub fn may_contain(text: &str, names: &DirectiveNames) -> bool {
    brace_candidates(text, names).next().is_some() || may_contain_fence(text.as_bytes(), names)
}

/// What the byte scan finds in a chapter, before any decoding or parsing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sites {
    /// Neither `{{` nor a fence directive's name: no call can be there.
    None,
    /// `{{` or a fence directive's name, but no call of ours the byte scan
    /// can see: a misspelt one, Rust's `{{`, mdBook's own `{{#include}}`,
    /// or a call a JSON string spells differently (a tab after `{{`).
    Maybe,
    /// A call of ours: `{{#name` with a name of ours, or a fence directive
    /// after a fence.
    Calls,
}

/// What `bytes` (a chapter's text, or its JSON string as written when that
/// has no `\u` escape: ASCII syntax is spelled there as in the text) may
/// hold. One pass over each needle; the first call found ends it.
pub fn sites_in(bytes: &[u8], names: &DirectiveNames) -> Sites {
    let mut sites = Sites::None;
    for start in memmem::find_iter(bytes, b"{{") {
        sites = Sites::Maybe;
        let ours = brace_name_at(bytes, start)
            .and_then(|name| std::str::from_utf8(&bytes[name]).ok())
            .and_then(|name| names.brace(name));
        if ours.is_some() {
            return Sites::Calls;
        }
    }
    for name in names.fence_names() {
        for at in memmem::find_iter(bytes, name.as_bytes()) {
            sites = Sites::Maybe;
            if after_fence(bytes, at) {
                return Sites::Calls;
            }
        }
    }
    sites
}

/// Finds every call site in `text`.
pub fn scan<'t>(text: &'t str, names: &DirectiveNames, options: MarkdownOptions) -> Scan<'t> {
    let candidates: Vec<Candidate<'t>> = brace_candidates(text, names).collect();
    if candidates.is_empty() && !may_contain_fence(text.as_bytes(), names) {
        return Scan::default();
    }
    let mut structure = Structure::of(text, names, options);
    let mut scan = Scan::default();
    let mut fences = std::mem::take(&mut structure.fences).into_iter().peekable();
    for candidate in candidates {
        if !structure.text_ranges.contains(candidate.start) {
            continue;
        }
        while let Some(fence) = fences.next_if(|f| f.range.start < candidate.start) {
            scan.sites.push(Site::Fence(fence));
        }
        let Some(name) = candidate.ours else {
            if let Some(meant) = candidate.typo_of {
                scan.warnings.push(misspelt(&candidate, meant));
            }
            continue;
        };
        let Some(close) = candidate.close else {
            scan.warnings.push(unclosed(&candidate));
            continue;
        };
        let range = candidate.start..close + 2;
        let raw_args = &text[candidate.name_range.end..close];
        let trimmed_start = raw_args.len() - raw_args.trim_start().len();
        let args = raw_args.trim();
        let args_start = candidate.name_range.end + trimmed_start;
        let placement = if structure.block_runs.contains(&range) {
            Placement::Block
        } else {
            Placement::Inline
        };
        let section_level = structure.section_level_at(candidate.start);
        let in_link = structure.in_link(candidate.start);
        scan.sites.push(Site::Brace(Call {
            name,
            range,
            name_range: candidate.name_range,
            args,
            args_range: args_start..args_start + args.len(),
            placement,
            section_level,
            in_link,
        }));
    }
    scan.sites.extend(fences.map(Site::Fence));
    // Overlapping sites cannot both be replaced; keep the first of each overlap.
    let mut end = 0;
    scan.sites.retain(|site| {
        let range = site.range();
        let keep = range.start >= end;
        if keep {
            end = range.end;
        }
        keep
    });
    scan
}

/// The warning for `{{#name}}` where `meant` is a directive and `name` is not.
fn misspelt(candidate: &Candidate<'_>, meant: &str) -> Diagnostic {
    Diagnostic::warning(
        Code::UnknownDirective,
        format!(
            "`{{{{#{}}}}}` is not a directive of mdbook-community; left as text",
            candidate.name
        ),
    )
    .in_this_chapter(candidate.name_range.clone())
    .with_label("unknown directive")
    .with_help(format!("did you mean `{{{{#{meant}}}}}`?"))
}

/// The warning for `{{#name` without `}}` on its line.
fn unclosed(candidate: &Candidate<'_>) -> Diagnostic {
    Diagnostic::warning(
        Code::UnclosedDirective,
        format!(
            "`{{{{#{}` is not closed with `}}}}` on the same line; left as text",
            candidate.name
        ),
    )
    .in_this_chapter(candidate.start..candidate.name_range.end)
    .with_label("unclosed directive")
    .with_help("close it with `}}`, or write `\\{{#` to show it as text")
}

/// `{{#name` occurrences for our names, outside any Markdown context check.
fn brace_candidates<'t, 'r>(
    text: &'t str,
    names: &'r DirectiveNames,
) -> impl Iterator<Item = Candidate<'t>> + use<'t, 'r> {
    brace_names(text.as_bytes()).filter_map(move |(start, name_range)| {
        let name = &text[name_range.clone()];
        let ours = names.brace(name);
        let typo_of = match ours {
            Some(_) => None,
            None => Some(likely_typo_of(name, names)?),
        };
        let close = find_close(&text[name_range.end..]).map(|i| name_range.end + i);
        Some(Candidate {
            start,
            name,
            name_range,
            close,
            ours,
            typo_of,
        })
    })
}

/// Where each `{{#name` in `bytes` starts, and where its name is: any
/// name, ours or not.
fn brace_names(bytes: &[u8]) -> impl Iterator<Item = (usize, Range<usize>)> + '_ {
    memmem::find_iter(bytes, b"{{").filter_map(|start| Some((start, brace_name_at(bytes, start)?)))
}

/// Where the name is of the `{{#name` whose `{{` is at `start` of `bytes`;
/// `None` when the `{{` starts no call (`\{{`, `{{ x`, `{{#personal` is
/// not `{{#person`).
fn brace_name_at(bytes: &[u8], start: usize) -> Option<Range<usize>> {
    if start > 0 && bytes[start - 1] == b'\\' {
        return None;
    }
    let mut i = start + 2;
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
        i += 1;
    }
    if bytes.get(i) != Some(&b'#') {
        return None;
    }
    let name_start = i + 1;
    let mut name_end = name_start;
    while name_end < bytes.len()
        && (bytes[name_end].is_ascii_alphanumeric() || matches!(bytes[name_end], b'_' | b'-'))
    {
        name_end += 1;
    }
    // The name must end the word: `{{#personal}}` is not `{{#person}}`.
    if name_end < bytes.len() && !matches!(bytes[name_end], b' ' | b'\t' | b'}' | b'\r' | b'\n') {
        return None;
    }
    Some(name_start..name_end)
}

/// The directive of ours `name` is a likely misspelling of: at most one edit
/// away (two for names of eight letters or more), ignoring case, where
/// swapping two neighbours is one edit. Short names are left alone, since
/// other plugins' directives may be near them (`{{#refs}}` is not
/// `{{#ref}}`).
///
/// Runs for every other plugin's directive (a book may hold hundreds of
/// `{{#include}}`s), so mdBook's own names and names whose length alone
/// rules them out are not compared (the Rust book's 707 includes were 7%
/// of its instructions). Names are ASCII, so bytes are characters.
fn likely_typo_of(name: &str, names: &DirectiveNames) -> Option<&'static str> {
    const SHORTEST: usize = 5;
    if name.len() < SHORTEST || crate::mdbook::include::MDBOOK_DIRECTIVES.contains(&name) {
        return None;
    }
    let mut lowered = None;
    names
        .brace_names()
        .filter(|ours| ours.len() >= SHORTEST)
        .find(|ours| {
            let allowed = if ours.len() >= 8 { 2 } else { 1 };
            ours.len().abs_diff(name.len()) <= allowed
                && strsim::osa_distance(
                    lowered.get_or_insert_with(|| name.to_ascii_lowercase()),
                    ours,
                ) <= allowed
        })
}

/// Whether some line may open a fence whose info string starts with one of
/// our fence names.
fn may_contain_fence(bytes: &[u8], names: &DirectiveNames) -> bool {
    names
        .fence_names()
        .any(|name| memmem::find_iter(bytes, name.as_bytes()).any(|at| after_fence(bytes, at)))
}

/// Whether the name at `at` of `bytes` follows a fence's three or more
/// backticks or tildes (and spaces).
fn after_fence(bytes: &[u8], at: usize) -> bool {
    let mut i = at;
    while i > 0 && matches!(bytes[i - 1], b' ' | b'\t') {
        i -= 1;
    }
    let fence_end = i;
    while i > 0 && matches!(bytes[i - 1], b'`' | b'~') {
        i -= 1;
    }
    fence_end - i >= 3
}

/// What the Markdown parser tells us about a text.
struct Structure<'t> {
    /// Where Markdown sees plain text (outside code, HTML and fences).
    text_ranges: Ranges,
    /// Inline content that is a whole paragraph or list item on its own.
    block_runs: Vec<Range<usize>>,
    /// Fence directive blocks, in order.
    fences: Vec<FenceBlock<'t>>,
    /// Where each heading starts, and its level.
    headings: Vec<(usize, u8)>,
    /// Every link, in order (links do not nest).
    links: Vec<Range<usize>>,
}

impl<'t> Structure<'t> {
    fn of(text: &'t str, names: &DirectiveNames, options: MarkdownOptions) -> Self {
        let mut text_ranges = Vec::new();
        let mut block_runs = Vec::new();
        let mut fences = Vec::new();
        let mut headings = Vec::new();
        let mut links = Vec::new();
        let mut code_depth = 0usize;
        let mut open_fence: Option<FenceBlock<'t>> = None;
        // The innermost block container: whether it is a paragraph or item,
        // and the inline run collected directly inside it so far.
        let mut blocks: Vec<(bool, Option<Range<usize>>)> = Vec::new();

        for (event, range) in options.parser(text).into_offset_iter() {
            if let Event::Start(Tag::Link { .. }) = &event {
                links.push(range.clone());
            }
            match &event {
                Event::Start(tag) if !is_inline_tag(tag) => {
                    finish_run(&mut blocks, &mut block_runs);
                    let accepts_block = matches!(tag, Tag::Paragraph | Tag::Item);
                    blocks.push((accepts_block, None));
                    if let Tag::Heading { level, .. } = tag {
                        headings.push((range.start, *level as u8));
                    }
                    if let Tag::CodeBlock(kind) = tag {
                        code_depth += 1;
                        if let CodeBlockKind::Fenced(info) = kind {
                            open_fence = fence_block(text, names, info, range.clone());
                        }
                    }
                }
                Event::End(tag) if !is_inline_end(*tag) => {
                    finish_run(&mut blocks, &mut block_runs);
                    blocks.pop();
                    if *tag == TagEnd::CodeBlock {
                        code_depth = code_depth.saturating_sub(1);
                        if let Some(fence) = open_fence.take() {
                            fences.push(fence);
                        }
                    }
                }
                Event::Text(_) if code_depth > 0 => {
                    if let Some(fence) = open_fence.as_mut() {
                        fence.body_map.push(fence.body.len(), range.start);
                        fence.body.push_str(&text[range.clone()]);
                    }
                }
                _ => {
                    if matches!(event, Event::Text(_)) {
                        text_ranges.push(range.clone());
                    }
                    if let Some((true, run)) = blocks.last_mut() {
                        *run = Some(match run.take() {
                            Some(r) => r.start..range.end,
                            None => range.clone(),
                        });
                    } else if let Some((false, run)) = blocks.last_mut() {
                        // Inline content in a heading, table cell, ...: never a block site.
                        *run = None;
                    }
                }
            }
        }
        Structure {
            text_ranges: Ranges(text_ranges),
            block_runs,
            fences,
            headings,
            links,
        }
    }

    /// Whether `offset` is inside a link (its text, in practice).
    fn in_link(&self, offset: usize) -> bool {
        let i = self.links.partition_point(|link| link.start <= offset);
        i.checked_sub(1)
            .is_some_and(|i| self.links[i].contains(&offset))
    }

    /// The level of the last heading that starts before `offset` (0: none).
    fn section_level_at(&self, offset: usize) -> u8 {
        let i = self.headings.partition_point(|&(start, _)| start < offset);
        i.checked_sub(1).map_or(0, |i| self.headings[i].1)
    }
}

fn finish_run(blocks: &mut [(bool, Option<Range<usize>>)], runs: &mut Vec<Range<usize>>) {
    if let Some((true, run)) = blocks.last_mut()
        && let Some(run) = run.take()
    {
        runs.push(run);
    }
}

/// A fence directive block opening at `range`, if `info` names one.
fn fence_block<'t>(
    text: &'t str,
    names: &DirectiveNames,
    info: &str,
    range: Range<usize>,
) -> Option<FenceBlock<'t>> {
    let first = info.split_whitespace().next()?;
    let name = names.fence(first)?;
    // Find the info string in the source to give options a real range.
    let block = &text[range.clone()];
    let line_end = block.find('\n').unwrap_or(block.len());
    let opening = &block[..line_end];
    let name_at = opening.find(first).unwrap_or(0);
    let after_name = name_at + first.len();
    let options_raw = &opening[after_name..];
    let options = options_raw.trim();
    let options_start =
        range.start + after_name + (options_raw.len() - options_raw.trim_start().len());
    Some(FenceBlock {
        name,
        range: trim_line_end(text, range),
        options,
        options_range: options_start..options_start + options.len(),
        body: String::new(),
        body_map: OffsetMap::default(),
    })
}

/// Sorted, non-overlapping ranges.
struct Ranges(Vec<Range<usize>>);

impl Ranges {
    fn contains(&self, offset: usize) -> bool {
        let i = self.0.partition_point(|r| r.end <= offset);
        self.0.get(i).is_some_and(|r| r.start <= offset)
    }
}

#[cfg(test)]
mod tests;
