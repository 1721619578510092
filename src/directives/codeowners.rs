//! `{{#codeowners}}`: the repository's CODEOWNERS as a table, with a
//! section row for each comment directly above a block of rules (or, for
//! an OWNERS tree, a row per OWNERS file and filter);
//! `{{#codeowners PATH}}`: who owns a path (the last matching rule wins;
//! in an OWNERS tree, the approvers up to the root);
//! `{{#codeowners PATH members}}`: the people who own it, teams expanded;
//! `{{#codeowners coverage}}` (`depth=N`, 2 by default): the repository's
//! folders with the share of their files that have an active owner, and
//! one sentence for the whole repository. A path named `coverage` is
//! written quoted: `{{#codeowners "coverage"}}`.
//!
//! Owners in the roster show with their name and profile; a team a group
//! claims (`github-team`) shows as the group, linked to its heading where a
//! `{{#maintainers}}` renders it. Anyone else links to their GitHub page.
//! The links to group headings need the book's ids, so the directive runs
//! in the resolve stage. The events are written by `owners_md.rs`.

use std::sync::Arc;

use pulldown_cmark::{Event, Tag, TagEnd};

use crate::data::ownership::Ownership;
use crate::data::people::People;
use crate::diagnostic::{Code, Diagnostic};
use crate::directives::owners_md::Writer;
use crate::expand::args::ArgKind;
use crate::expand::{BraceDirective, Call, Cx, Expansion, LinkCx, Run};
use crate::markdown::Placement;
use crate::markdown::to_markdown;

/// The `codeowners` directive.
pub struct CodeownersDirective;

/// The deepest `depth=` a coverage table takes.
const MAX_DEPTH: usize = 10;

/// What a call asks for.
enum Request {
    Table,
    Owners(String),
    Members(String),
    Coverage { depth: usize },
}

impl BraceDirective for CodeownersDirective {
    fn name(&self) -> &'static str {
        "codeowners"
    }

    fn expand(&self, call: &Call<'_>, cx: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        let request = parse(call)?;
        let block = matches!(request, Request::Table | Request::Coverage { .. });
        if block && call.placement == Placement::Inline {
            return Err(vec![
                call.error(
                    Code::MisplacedDirective,
                    "`{{#codeowners}}` makes a table, so it must be a paragraph of its own",
                )
                .with_help("use `{{#codeowners PATH}}` in running text for the owners of one path"),
            ]);
        }
        load(call, cx.run)?;
        if let Request::Coverage { .. } = request {
            coverage_data(call, cx.run)?;
        }
        Ok(cx.defer_link(call))
    }

    fn resolve(&self, call: &Call<'_>, cx: &LinkCx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        let request = parse(call)?;
        let (ownership, people) = load(call, cx.run)?;
        let writer = Writer {
            people: people.as_deref(),
            cx,
        };
        let options = cx.settings().markdown.parser_options();
        let mut events = Vec::new();
        match (&request, &ownership) {
            (Request::Table, Ownership::CodeOwners(owners)) => writer.table(owners, &mut events),
            (Request::Table, Ownership::Owners(tree)) => writer.tree_table(tree, &mut events),
            (Request::Coverage { depth }, _) => {
                let (repository, coverage) = coverage_data(call, cx.run)?;
                writer.coverage(&coverage, &repository, *depth, &mut events);
            }
            _ => {}
        }
        if !events.is_empty() {
            return Ok(Expansion::Block(to_markdown(events, options)));
        }
        // In a paragraph, so that the writer does not take the space after
        // a link for the start of a line (and write it as `&#32;`).
        events.push(Event::Start(Tag::Paragraph));
        match &request {
            Request::Owners(path) => {
                writer.owner_sentence(&ownership.owners_of(path).owners(), &mut events)
            }
            Request::Members(path) => {
                writer.member_sentence(&ownership.owners_of(path).owners(), &mut events)
            }
            Request::Table | Request::Coverage { .. } => {}
        }
        events.push(Event::End(TagEnd::Paragraph));
        if call.in_link {
            events = crate::markdown::without_links(events);
        }
        Ok(Expansion::Inline(to_markdown(events, options)))
    }
}

/// The forms, for help lines.
const FORMS: &str = "`{{#codeowners}}` for the whole table, `{{#codeowners PATH}}` for one path, `{{#codeowners PATH members}}` for its people, `{{#codeowners coverage depth=2}}` for the repository's coverage";

/// The call's arguments.
fn parse(call: &Call<'_>) -> Result<Request, Vec<Diagnostic>> {
    let tokens = call.tokens().map_err(|e| vec![e])?;
    let mut words = Vec::new();
    let mut depth = None;
    let coverage = matches!(
        tokens.first().map(|a| &a.kind),
        Some(ArgKind::Word("coverage"))
    );
    for arg in &tokens {
        match &arg.kind {
            ArgKind::Word(word) => words.push((word.to_string(), arg.range.clone())),
            ArgKind::Quoted(path) => words.push((path.to_string(), arg.range.clone())),
            ArgKind::Pair {
                key: "depth",
                value,
                value_range,
            } if coverage => depth = Some(depth_of(call, value, value_range.clone())?),
            ArgKind::Pair { key, .. } if coverage => {
                return Err(vec![crate::expand::unknown_option(
                    arg,
                    key,
                    &["depth"],
                    call,
                )]);
            }
            ArgKind::Pair { .. } => {
                return Err(vec![
                    call.error_at(
                        arg.range.clone(),
                        Code::InvalidArguments,
                        "`{{#codeowners}}` takes no options",
                    )
                    .with_help(FORMS),
                ]);
            }
        }
    }
    if coverage {
        return match words.get(1) {
            None => Ok(Request::Coverage {
                depth: depth.unwrap_or(2),
            }),
            Some((_, extra)) => Err(vec![
                call.error_at(
                    extra.start..call.args_range.end,
                    Code::InvalidArguments,
                    "`{{#codeowners coverage}}` takes no path",
                )
                .with_help("for the owners of a path named `coverage`, quote it: `{{#codeowners \"coverage\"}}`"),
            ]),
        };
    }
    let path = |raw: &str| -> Result<String, Vec<Diagnostic>> {
        let path = raw.trim_start_matches("./").trim_start_matches('/');
        if path.is_empty() {
            return Err(vec![call.error(
                Code::InvalidArguments,
                "`{{#codeowners PATH}}` needs a non-empty path",
            )]);
        }
        Ok(path.to_string())
    };
    match words.as_slice() {
        [] => Ok(Request::Table),
        [(p, _)] => Ok(Request::Owners(path(p)?)),
        [(p, _), (m, _)] if m == "members" => Ok(Request::Members(path(p)?)),
        [_, (_, extra), ..] => Err(vec![
            call.error_at(
                extra.start..call.args_range.end,
                Code::InvalidArguments,
                "`{{#codeowners}}` takes one path (and `members`)",
            )
            .with_help("quote a path that contains spaces: `{{#codeowners \"docs/my file.md\"}}`"),
        ]),
    }
}

/// `depth=N`: a whole number from 1 to [`MAX_DEPTH`].
fn depth_of(
    call: &Call<'_>,
    value: &str,
    range: std::ops::Range<usize>,
) -> Result<usize, Vec<Diagnostic>> {
    match value.parse::<usize>() {
        Ok(depth) if (1..=MAX_DEPTH).contains(&depth) => Ok(depth),
        _ => Err(vec![call.error_at(
            range,
            Code::InvalidArguments,
            format!("`depth` must be a whole number from 1 to {MAX_DEPTH}, found `{value}`"),
        )
        .with_help("`depth=1` lists the top-level folders, `depth=2` (the default) those and the folders in them")]),
    }
}

type Loaded = (Ownership, Option<Arc<People>>);

/// Who owns what (CODEOWNERS or the OWNERS tree), and the roster when
/// there is one (without it owners show as written).
fn load(call: &Call<'_>, run: &Run<'_>) -> Result<Loaded, Vec<Diagnostic>> {
    let ownership = run
        .data
        .ownership(run.settings)
        .map_err(|e| vec![call.load_error(&e)])?;
    let people = match run.data.people(run.settings) {
        Ok(people) => Some(people),
        Err(e) if e.diagnostics.is_empty() => None,
        Err(e) => return Err(vec![call.load_error(&e)]),
    };
    Ok((ownership, people))
}

type CoverageData = (
    Arc<crate::data::repository::Repository>,
    Arc<crate::data::ownership::coverage::Coverage>,
);

/// The repository's files and who owns each.
fn coverage_data(call: &Call<'_>, run: &Run<'_>) -> Result<CoverageData, Vec<Diagnostic>> {
    let repository = (run.data.repository(run.settings)).map_err(|e| vec![call.load_error(&e)])?;
    let coverage = (run.data.coverage(run.settings)).map_err(|e| vec![call.load_error(&e)])?;
    Ok((repository, coverage))
}
