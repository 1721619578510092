//! `{{#codeowners}}`: the repository's CODEOWNERS as a table, with a
//! section row for each comment directly above a block of rules (or, for
//! an OWNERS tree, a row per OWNERS file and filter);
//! `{{#codeowners PATH}}`: who owns a path (the last matching rule wins;
//! in an OWNERS tree, the approvers up to the root);
//! `{{#codeowners PATH members [hide=S,..] [only=S,..]}}`: the people who
//! own it, teams expanded; those who still serve unless `hide`/`only`
//! say otherwise, as `{{#maintainers}}` takes them;
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

use crate::diagnostic::{Code, Diagnostic, did_you_mean};
use crate::directive::args::ArgKind;
use crate::directive::{BraceDirective, Call, Cx, Expansion, LinkCx, Run};
use crate::directives::maintainers::split_statuses;
use crate::directives::owners_md::{Statuses, Writer};
use crate::markdown::Placement;
use crate::markdown::to_markdown;
use crate::ownership::Ownership;
use crate::ownership::codeowners::Dialect;
use crate::ownership::coverage::Coverage;
use crate::people::People;

/// The `codeowners` directive.
pub struct CodeownersDirective;

/// The deepest `depth=` a coverage table takes.
const MAX_DEPTH: usize = 10;

/// What a call asks for.
enum Request {
    Table,
    Owners(String),
    Members(String, Statuses),
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
        let github_links =
            !matches!(&ownership, Ownership::CodeOwners(o) if o.dialect() == Dialect::GitLab);
        let writer = Writer {
            people: people.as_deref(),
            cx,
            github_links,
        };
        let options = cx.settings().markdown.parser_options();
        let mut events = Vec::new();
        match (&request, &ownership) {
            (Request::Table, Ownership::CodeOwners(owners)) => {
                let coverage = own_coverage(cx.run);
                writer.table(owners, coverage.as_deref(), &mut events)
            }
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
            Request::Members(path, statuses) => {
                writer.member_sentence(&ownership.owners_of(path).owners(), statuses, &mut events)
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
const FORMS: &str = "`{{#codeowners}}` for the whole table, `{{#codeowners PATH}}` for one path, `{{#codeowners PATH members hide=STATUS only=STATUS}}` for its people, `{{#codeowners coverage depth=2}}` for the repository's coverage";

/// The call's arguments.
fn parse(call: &Call<'_>) -> Result<Request, Vec<Diagnostic>> {
    let tokens = call.tokens().map_err(|e| vec![e])?;
    let coverage = matches!(
        tokens.first().map(|a| &a.kind),
        Some(ArgKind::Word("coverage"))
    );
    let args = Arguments::read(call, &tokens, coverage)?;
    match coverage {
        true => coverage_request(call, &args),
        false => path_request(call, args),
    }
}

/// A call's words (paths, `members`, `coverage`) and options.
#[derive(Default)]
struct Arguments {
    words: Vec<(String, std::ops::Range<usize>)>,
    statuses: Statuses,
    /// Where `hide=` and `only=` are, for the error when they do not apply.
    status_options: Vec<std::ops::Range<usize>>,
    depth: Option<usize>,
}

impl Arguments {
    /// The options `coverage` takes (`depth`), or those the other forms
    /// take (`hide`, `only`).
    fn read(
        call: &Call<'_>,
        tokens: &[crate::directive::args::Arg<'_>],
        coverage: bool,
    ) -> Result<Arguments, Vec<Diagnostic>> {
        let mut args = Arguments::default();
        for arg in tokens {
            match &arg.kind {
                ArgKind::Word(word) => args.words.push((word.to_string(), arg.range.clone())),
                ArgKind::Quoted(path) => args.words.push((path.to_string(), arg.range.clone())),
                ArgKind::Pair {
                    key: "depth",
                    value,
                    value_range,
                } if coverage => args.depth = Some(depth_of(call, value, value_range.clone())?),
                ArgKind::Pair { key, .. } if coverage => {
                    return Err(vec![crate::directive::unknown_option(
                        arg,
                        key,
                        &["depth"],
                        call,
                    )]);
                }
                ArgKind::Pair {
                    key,
                    value,
                    value_range,
                } if matches!(*key, "hide" | "only") => {
                    args.statuses_option(call, key, value, value_range.clone())?;
                    args.status_options.push(arg.range.clone());
                }
                ArgKind::Pair { key, .. } => {
                    return Err(vec![
                        call.error_at(
                            arg.range.clone(),
                            Code::InvalidArguments,
                            format!("`{{{{#codeowners}}}}` has no option `{key}`"),
                        )
                        .with_suggestion(did_you_mean(key, ["hide", "only"]))
                        .with_help(FORMS),
                    ]);
                }
            }
        }
        Ok(args)
    }

    /// `hide=S,..` or `only=S,..`.
    fn statuses_option(
        &mut self,
        call: &Call<'_>,
        key: &str,
        value: &str,
        value_range: std::ops::Range<usize>,
    ) -> Result<(), Vec<Diagnostic>> {
        let list = split_statuses(value, value_range.start);
        if list.is_empty() {
            return Err(vec![call.error_at(
                value_range,
                Code::InvalidArguments,
                format!("`{key}` needs at least one status, e.g. `{key}=emeritus`"),
            )]);
        }
        let list = list.into_iter().map(|(status, _)| status);
        match key {
            "hide" => self.statuses.hide.extend(list),
            _ => self.statuses.only.extend(list),
        }
        Ok(())
    }
}

/// `{{#codeowners coverage [depth=N]}}`.
fn coverage_request(call: &Call<'_>, args: &Arguments) -> Result<Request, Vec<Diagnostic>> {
    match args.words.get(1) {
        None => Ok(Request::Coverage {
            depth: args.depth.unwrap_or(2),
        }),
        Some((_, extra)) => Err(vec![
            call.error_at(
                extra.start..call.args_range.end,
                Code::InvalidArguments,
                "`{{#codeowners coverage}}` takes no path",
            )
            .with_help("for the owners of a path named `coverage`, quote it: `{{#codeowners \"coverage\"}}`"),
        ]),
    }
}

/// The table, `PATH`, or `PATH members [hide=..] [only=..]`.
fn path_request(call: &Call<'_>, args: Arguments) -> Result<Request, Vec<Diagnostic>> {
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
    let request = match args.words.as_slice() {
        [] => Request::Table,
        [(p, _)] => Request::Owners(path(p)?),
        [(p, _), (m, _)] if m == "members" => Request::Members(path(p)?, args.statuses),
        [_, (_, extra), ..] => {
            return Err(vec![
                call.error_at(
                    extra.start..call.args_range.end,
                    Code::InvalidArguments,
                    "`{{#codeowners}}` takes one path (and `members`)",
                )
                .with_help(
                    "quote a path that contains spaces: `{{#codeowners \"docs/my file.md\"}}`",
                ),
            ]);
        }
    };
    match (&request, args.status_options.first()) {
        (Request::Members(..), _) | (_, None) => Ok(request),
        (_, Some(range)) => Err(vec![
            call.error_at(
                range.clone(),
                Code::InvalidArguments,
                "`hide` and `only` choose among the people of `members`",
            )
            .with_help("`{{#codeowners PATH members only=emeritus}}`"),
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

/// Who owns the repository's files, when `owners` is the repository's own
/// CODEOWNERS (where GitHub or GitLab reads it): then its rules that match
/// no file can be marked. Listing the repository is what C405 does on the
/// same build, so this costs nothing more.
fn own_coverage(run: &Run<'_>) -> Option<Arc<Coverage>> {
    let settings = run.settings;
    (run.data.codeowners_is_repositorys(settings))
        .then(|| run.data.coverage(settings).ok())
        .flatten()
}

type CoverageData = (
    Arc<crate::ownership::repository::Repository>,
    Arc<crate::ownership::coverage::Coverage>,
);

/// The repository's files and who owns each.
fn coverage_data(call: &Call<'_>, run: &Run<'_>) -> Result<CoverageData, Vec<Diagnostic>> {
    let repository = (run.data.repository(run.settings)).map_err(|e| vec![call.load_error(&e)])?;
    let coverage = (run.data.coverage(run.settings)).map_err(|e| vec![call.load_error(&e)])?;
    Ok((repository, coverage))
}
