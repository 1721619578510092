//! `{{#maintainers GROUP [style=list|table|inline] [hide=S,..] [only=S,..]}}`
//! and `{{#maintainers}}`: people from the data file, as a list, a table, a
//! sentence, or a whole hierarchy of groups under headings.

use pulldown_cmark::{CowStr, Event, HeadingLevel, Tag, TagEnd};

use std::sync::Arc;

use crate::activity::{Activity, History};
use crate::config::Level;
use crate::diagnostic::{Code, Diagnostic, did_you_mean};
use crate::directive::args::ArgKind;
use crate::directive::{BraceDirective, Call, Cx, Expansion, unknown_option};
use crate::directives::people_md::{self, Entry};
use crate::directives::people_table::{self, Column};
use crate::markdown::Placement;
use crate::markdown::to_markdown;
use crate::paths;
use crate::people::{Group, KNOWN_STATUSES, People};

/// The `maintainers` directive.
pub struct Maintainers;

const OPTIONS: &[&str] = &["style", "hide", "only", "columns", "empty"];
const STYLES: &[&str] = &["list", "table", "inline", "grid"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    List,
    Table,
    Inline,
    Grid,
}

/// The parsed arguments.
#[derive(Debug)]
struct Request<'a> {
    group: Option<(&'a str, std::ops::Range<usize>)>,
    style: Style,
    hide: Vec<(String, std::ops::Range<usize>)>,
    only: Vec<(String, std::ops::Range<usize>)>,
    /// `columns=`: a table's columns, in order.
    columns: Option<Vec<(String, std::ops::Range<usize>)>>,
    /// What to show when the filters leave nobody.
    empty: Option<String>,
}

impl BraceDirective for Maintainers {
    fn name(&self) -> &'static str {
        "maintainers"
    }

    fn expand(&self, call: &Call<'_>, cx: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        let (request, mut errors) = parse(call)?;
        let people = cx
            .run
            .data
            .people(cx.settings())
            .map_err(|e| vec![call.load_error(&e)])?;
        errors.extend(check_statuses(&request, &people, call));
        errors.extend(check_columns(&request, &people, call));
        if let Some((id, range)) = &request.group
            && people.group(id).is_none()
        {
            errors.push(unknown_group(id, range, &people, call));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let activity = activity(&request, &people, call, cx);
        let activity = activity.as_deref();
        match &request.group {
            Some((id, range)) => {
                let group = people.group(id).ok_or_else(|| {
                    vec![call.error_at(
                        range.clone(),
                        Code::UnknownGroup,
                        format!("no group `{id}`"),
                    )]
                })?;
                expand_group(&people, group, &request, activity, call, cx)
            }
            None => expand_hierarchy(&people, &request, activity, call, cx),
        }
    }
}

/// The activity a `last-active` column of a table shows, read from the
/// git history on first use; a note at the column when the history cannot
/// say (unless `check-activity` says it once for the book).
fn activity(
    request: &Request<'_>,
    people: &People,
    call: &Call<'_>,
    cx: &Cx<'_>,
) -> Option<Arc<Activity>> {
    let column = (request.columns.iter().flatten()).find(|(name, _)| name == "last-active");
    let (_, range) = column.filter(|_| request.style == Style::Table)?;
    let activity = cx.run.data.activity(cx.settings(), people);
    if let Some(why) = activity.history.cannot_judge()
        && cx.settings().check_activity.is_none()
    {
        let note = call
            .error_at(range.clone(), Code::ActivityNotJudged, why)
            .as_note()
            .with_label("`unknown` where no commit was found");
        cx.report(match activity.history {
            History::Shallow { .. } => note.with_help(
                "a shallow clone has only the newest commits: fetch the whole history (`fetch-depth: 0` with actions/checkout)",
            ),
            _ => note,
        });
    }
    Some(activity)
}

/// `{{#maintainers GROUP ...}}`: one group as a list, a table or a
/// sentence; the `empty` text, or nothing, when the filters leave nobody.
fn expand_group(
    people: &People,
    group: &Group,
    request: &Request<'_>,
    activity: Option<&Activity>,
    call: &Call<'_>,
    cx: &Cx<'_>,
) -> Result<Expansion, Vec<Diagnostic>> {
    let options = cx.settings().markdown.parser_options();
    if call.placement == Placement::Inline && request.style != Style::Inline {
        return Err(vec![in_running_text(call, &group.id)]);
    }
    let entries = entries(people, group, request);
    if entries.is_empty() && !group.members.is_empty() && request.empty.is_none() {
        cx.report(empty_selection(request, group, call));
    }
    let mut events = Vec::new();
    match (&request.empty, request.style) {
        (Some(empty), style) if entries.is_empty() => {
            if style == Style::Inline {
                events.push(Event::Text(CowStr::from(empty.clone())));
                return Ok(Expansion::Inline(to_markdown(events, options)));
            }
            paragraph(empty, &mut events);
        }
        (_, Style::Inline) => {
            people_md::sentence_events(&entries, &mut events);
            if call.in_link {
                events = crate::markdown::without_links(events);
            }
            return Ok(Expansion::Inline(to_markdown(events, options)));
        }
        (_, _) => {
            let look = Look {
                html: cx.settings().html,
                inline_assets: !cx.settings().assets_installed,
                activity,
            };
            render_block(&entries, request, look, &mut events);
        }
    }
    Ok(Expansion::Block(to_markdown(events, options)))
}

/// `{{#maintainers}}`: every group, as headings.
fn expand_hierarchy(
    people: &People,
    request: &Request<'_>,
    activity: Option<&Activity>,
    call: &Call<'_>,
    cx: &Cx<'_>,
) -> Result<Expansion, Vec<Diagnostic>> {
    if call.placement == Placement::Inline {
        return Err(vec![
            call.error(Code::MisplacedDirective, "`{{#maintainers}}` without a group makes headings, so it must be a paragraph of its own")
                .with_help("name a group, e.g. `{{#maintainers core style=inline}}`, for use in running text"),
        ]);
    }
    let options = cx.settings().markdown.parser_options();
    let base = (call.section_level + 1).clamp(2, 6);
    let writer = Hierarchy {
        people,
        request,
        look: Look {
            html: cx.settings().html,
            inline_assets: false,
            activity,
        },
        cx,
        call,
    };
    let mut events = Vec::new();
    writer.groups(base, &mut events);
    Ok(Expansion::Block(to_markdown(events, options)))
}

/// A list or table in running text: the error `fit` would give, with the
/// style that fits there.
fn in_running_text(call: &Call<'_>, group: &str) -> Diagnostic {
    call.error(
        Code::MisplacedDirective,
        "`{{#maintainers}}` makes block content here, so it must be a paragraph of its own",
    )
    .with_label("inside running text")
    .with_help("put it on a line of its own with blank lines around it")
    .with_help(format!(
        "or name them in the sentence: `{{{{#maintainers {group} style=inline}}}}`"
    ))
}

/// The warning for filters that leave nobody of `group` (a page prepared
/// before anyone has the status, say).
fn empty_selection(request: &Request<'_>, group: &Group, call: &Call<'_>) -> Diagnostic {
    let range = request
        .only
        .first()
        .or(request.hide.first())
        .map_or_else(|| call.name_range.clone(), |(_, r)| r.clone());
    call.error_at(
        range,
        Code::EmptySelection,
        format!(
            "no member of group `{}` is left by the filters: the list is empty",
            group.id
        ),
    )
    .as_warning()
    .with_help("add `empty=\"...\"` to show a text instead, e.g. `empty=\"Nobody yet.\"`")
}

fn paragraph(text: &str, out: &mut Vec<Event<'static>>) {
    out.push(Event::Start(Tag::Paragraph));
    out.push(Event::Text(CowStr::from(text.to_string())));
    out.push(Event::End(TagEnd::Paragraph));
}

/// The request, and the problems found in it (reported with any found later).
fn parse<'a>(call: &Call<'a>) -> Result<(Request<'a>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut request = Request {
        group: None,
        style: Style::List,
        hide: Vec::new(),
        only: Vec::new(),
        columns: None,
        empty: None,
    };
    let mut errors = Vec::new();
    let mut style_at: Option<std::ops::Range<usize>> = None;
    for arg in call.tokens().map_err(|e| vec![e])? {
        match &arg.kind {
            ArgKind::Word(word) if request.group.is_none() => {
                request.group = Some((word, arg.range.clone()));
            }
            ArgKind::Pair {
                key,
                value,
                value_range,
            } => match *key {
                "style" => errors.extend(style(call, &arg, value, value_range, &mut style_at)
                    .map(|s| request.style = s)
                    .err()),
                "columns" => {
                    let columns = split_statuses(value, value_range.start);
                    if columns.is_empty() {
                        errors.push(call.error_at(
                            value_range.clone(),
                            Code::InvalidArguments,
                            "`columns` needs at least one column, e.g. `columns=name,handle`",
                        ));
                    }
                    request.columns = Some(columns);
                }
                "hide" | "only" => {
                    let statuses = split_statuses(value, value_range.start);
                    if statuses.is_empty() {
                        errors.push(call.error_at(
                            value_range.clone(),
                            Code::InvalidArguments,
                            format!("`{key}` needs at least one status, e.g. `{key}=emeritus`"),
                        ));
                    }
                    if *key == "hide" {
                        request.hide.extend(statuses);
                    } else {
                        request.only.extend(statuses);
                    }
                }
                "empty" => request.empty = Some(value.to_string()),
                other => errors.push(unknown_option(&arg, other, OPTIONS, call)),
            },
            _ => errors.push(
                call.error_at(arg.range.clone(), Code::InvalidArguments, "unexpected argument")
                    .with_help(
                        "`{{#maintainers GROUP style=list|table|inline hide=STATUS only=STATUS empty=\"TEXT\"}}`",
                    ),
            ),
        }
    }
    errors.extend(conflicting_filters(&request, call));
    Ok((request, errors))
}

/// The style `style=VALUE` asks for, or why it cannot be used; `style_at`
/// remembers the first `style=`, since a second is an error.
fn style(
    call: &Call<'_>,
    arg: &crate::directive::args::Arg<'_>,
    value: &str,
    value_range: &std::ops::Range<usize>,
    style_at: &mut Option<std::ops::Range<usize>>,
) -> Result<Style, Diagnostic> {
    if style_at.is_some() {
        return Err(call
            .error_at(
                arg.range.clone(),
                Code::InvalidArguments,
                "`style` is given twice",
            )
            .with_label("a second style")
            .with_help("keep one `style=`"));
    }
    let style = match value {
        "list" => Style::List,
        "table" => Style::Table,
        "inline" => Style::Inline,
        "grid" => Style::Grid,
        other => {
            return Err(call
                .error_at(
                    value_range.clone(),
                    Code::InvalidArguments,
                    format!("unknown style `{other}`"),
                )
                .with_suggestion(did_you_mean(other, STYLES.iter().copied()))
                .with_note(format!("styles: {}", STYLES.join(", "))));
        }
    };
    *style_at = Some(arg.range.clone());
    Ok(style)
}

/// The error for a group the roster does not have, with the help that
/// fixes it: a status is chosen with `only=`, a team's name leads to the
/// group that claims it, else the closest group id.
fn unknown_group(
    id: &str,
    range: &std::ops::Range<usize>,
    people: &People,
    call: &Call<'_>,
) -> Diagnostic {
    let error = call
        .error_at(
            range.clone(),
            Code::UnknownGroup,
            format!("no group `{id}` in `{}`", people.name),
        )
        .with_label("unknown group")
        .with_note(format!("groups: {}", list(people.group_ids())));
    let is_status = people.statuses().contains(&id) || KNOWN_STATUSES.contains(&id);
    let team = id.trim_start_matches('@').to_lowercase();
    let claimer = people.groups.iter().find(|g| {
        g.github_teams
            .iter()
            .any(|t| *t == team || t.split_once('/').is_some_and(|(_, name)| name == team))
    });
    match (is_status, claimer) {
        (true, _) => error.with_help(format!(
            "`{id}` is a status, not a group: `{{{{#maintainers GROUP only={id}}}}}` lists the members of GROUP who have it"
        )),
        (false, Some(group)) => error.with_help(format!(
            "`{id}` is a GitHub team; the group that claims it is `{}`: `{{{{#maintainers {}}}}}`",
            group.id, group.id
        )),
        (false, None) => error.with_suggestion_for(id, did_you_mean(id, people.group_ids())),
    }
}

/// A status both hidden and the only one shown selects nobody, always.
fn conflicting_filters(request: &Request<'_>, call: &Call<'_>) -> Vec<Diagnostic> {
    let hidden: std::collections::HashSet<&str> =
        request.hide.iter().map(|(s, _)| s.as_str()).collect();
    request
        .only
        .iter()
        .filter(|(status, _)| hidden.contains(status.as_str()))
        .map(|(status, range)| {
            call.error_at(
                range.clone(),
                Code::InvalidArguments,
                format!("`{status}` is both hidden (`hide`) and the only status shown (`only`)"),
            )
            .with_label("selects nobody")
            .with_help("keep it in `hide` or in `only`, not both")
        })
        .collect()
}

/// `a,b` into statuses with their ranges.
pub(crate) fn split_statuses(value: &str, start: usize) -> Vec<(String, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut offset = start;
    for part in value.split(',') {
        let trimmed = part.trim();
        if !trimmed.is_empty() {
            let lead = part.len() - part.trim_start().len();
            out.push((
                trimmed.to_string(),
                offset + lead..offset + lead + trimmed.len(),
            ));
        }
        offset += part.len() + 1;
    }
    out
}

/// Statuses nobody has are errors (a typo, most likely), except the ones
/// the data file format knows ([`KNOWN_STATUSES`]): a page may be written
/// before anyone has them.
fn check_statuses(request: &Request<'_>, people: &People, call: &Call<'_>) -> Vec<Diagnostic> {
    let used = people.statuses();
    let mut known = used.clone();
    known.extend(KNOWN_STATUSES.iter().filter(|s| !used.contains(s)));
    request
        .hide
        .iter()
        .chain(&request.only)
        .filter(|(status, _)| !known.contains(&status.as_str()))
        .map(|(status, range)| {
            let note = if used.is_empty() {
                format!("no member in `{}` has a status", people.file.name)
            } else {
                format!("statuses in `{}`: {}", people.file.name, used.join(", "))
            };
            call.error_at(
                range.clone(),
                Code::EmptySelection,
                format!("no member has the status `{status}`"),
            )
            .with_suggestion(did_you_mean(status, known.iter().copied()))
            .with_note(note)
        })
        .collect()
}

fn entries<'a>(people: &'a People, group: &'a Group, request: &Request<'_>) -> Vec<Entry<'a>> {
    let mut entries: Vec<Entry<'a>> = group
        .members
        .iter()
        .filter(|m| {
            let status = m.status.as_deref();
            let hidden = request.hide.iter().any(|(s, _)| Some(s.as_str()) == status);
            let wanted = request.only.is_empty()
                || request.only.iter().any(|(s, _)| Some(s.as_str()) == status);
            !hidden && wanted
        })
        .map(|m| Entry::of_member(people, m))
        .collect();
    // `only=emeritus`: when every listed member has the one status, the
    // `(emeritus)` before each says nothing.
    let statuses: Vec<Option<&str>> = entries.iter().map(|e| e.status).collect();
    if !request.only.is_empty() && statuses.windows(2).all(|w| w[0] == w[1]) {
        for entry in &mut entries {
            entry.status = None;
        }
    }
    entries
}

/// Writes groups as headings with their descriptions and members.
struct Hierarchy<'a> {
    people: &'a People,
    request: &'a Request<'a>,
    look: Look<'a>,
    cx: &'a Cx<'a>,
    call: &'a Call<'a>,
}

impl Hierarchy<'_> {
    /// Every group, depth first in file order, the top-level ones at
    /// `base`. A walk with a stack, not recursion: a `parent` chain may be
    /// thousands of groups deep.
    /// A group with no member below it and no description (an empty
    /// OWNERS alias, say) is left out, unless `empty=` asks for its text.
    fn groups(&self, base: u8, out: &mut Vec<Event<'static>>) {
        let shown = self.shown_groups();
        let mut stack: Vec<(usize, u8)> = self
            .people
            .children(None)
            .map(|(index, _)| (index, base))
            .collect();
        stack.reverse();
        while let Some((index, level)) = stack.pop() {
            if !shown[index] {
                continue;
            }
            self.group(index, level, out);
            let children: Vec<(usize, u8)> = (self.people.children(Some(index)))
                .map(|(child, _)| (child, (level + 1).min(6)))
                .collect();
            stack.extend(children.into_iter().rev());
        }
    }

    /// Which groups have something to show: a member or a description, in
    /// them or below them; every group when `empty=` is given. Each group
    /// marks its parents once, so the cost is linear however deep.
    fn shown_groups(&self) -> Vec<bool> {
        let groups = &self.people.groups;
        if self.request.empty.is_some() {
            return vec![true; groups.len()];
        }
        let mut shown = vec![false; groups.len()];
        for (index, group) in groups.iter().enumerate() {
            if group.members.is_empty() && group.description.is_none() {
                continue;
            }
            let mut at = Some(index);
            while let Some(i) = at.filter(|&i| !shown[i]) {
                shown[i] = true;
                at = groups[i].parent;
            }
        }
        shown
    }

    /// One group's heading, description and members.
    fn group(&self, index: usize, level: u8, out: &mut Vec<Event<'static>>) {
        let group = &self.people.groups[index];
        self.cx.renders_group(&group.id);
        let heading = HeadingLevel::try_from(level as usize).unwrap_or(HeadingLevel::H6);
        out.push(Event::Start(Tag::Heading {
            level: heading,
            id: None,
            classes: Vec::new(),
            attrs: Vec::new(),
        }));
        out.push(Event::Text(CowStr::from(group.title.clone())));
        out.push(Event::End(TagEnd::Heading(heading)));
        if let Some(description) = &group.description {
            let mut relink = |dest: &str| self.relink(dest, group);
            out.extend(people_md::sanitized_markdown_events(
                description,
                self.cx.settings().markdown,
                &mut relink,
            ));
        }
        let entries = entries(self.people, group, self.request);
        let leaf = self.people.children(Some(index)).next().is_none();
        if let (Some(empty), true, true) = (&self.request.empty, entries.is_empty(), leaf) {
            paragraph(empty, out);
        }
        if !entries.is_empty() {
            match self.request.style {
                Style::Inline => {
                    out.push(Event::Start(Tag::Paragraph));
                    people_md::sentence_events(&entries, out);
                    out.push(Event::End(TagEnd::Paragraph));
                }
                _ => render_block(&entries, self.request, self.look, out),
            }
        }
    }

    /// A description's relative link is relative to the book's `src`
    /// folder (like SUMMARY.md); it is rewritten relative to the page that
    /// shows it, and its anchor is checked like any link in a chapter.
    fn relink(&self, dest: &str, group: &Group) -> String {
        let (path, fragment) = paths::split_fragment(dest);
        let Some(resolved) = paths::resolve("", path) else {
            return dest.to_string();
        };
        let here = self.cx.current().path().unwrap_or_default();
        let mut link = paths::relative(here, &resolved);
        if let Some(fragment) = fragment {
            link.push('#');
            link.push_str(fragment);
            self.check_anchor(&resolved, fragment, group);
        }
        link
    }

    fn check_anchor(&self, path: &str, fragment: &str, group: &Group) {
        if self.cx.settings().check_anchors == Level::Off || fragment.is_empty() {
            return;
        }
        let diagnostic = self
            .call
            .error(Code::BrokenAnchor, format!(
                "broken link in the description of group `{}` in `{}`: no heading `#{fragment}` in `{path}`",
                group.id, self.people.file.name
            ))
            .with_label("this group's description")
            .with_note("links in descriptions are relative to the book's `src` folder");
        self.cx.check_anchor_later(
            paths::as_chapter_path(path),
            fragment.to_string(),
            diagnostic,
        );
    }
}

/// How a group's entries are shown besides the style.
#[derive(Clone, Copy)]
struct Look<'a> {
    /// For mdBook's HTML renderer.
    html: bool,
    /// A grid carries its CSS (the book never ran `install`).
    inline_assets: bool,
    /// The `last-active` column's data.
    activity: Option<&'a Activity>,
}

/// A group's entries as a list, table or grid.
fn render_block(
    entries: &[Entry<'_>],
    request: &Request<'_>,
    look: Look<'_>,
    out: &mut Vec<Event<'static>>,
) {
    match request.style {
        Style::Table => {
            let columns = match &request.columns {
                Some(names) => names.iter().map(|(n, _)| Column::named(n)).collect(),
                None => people_table::default_columns(entries, look.html),
            };
            people_table::table_events(entries, &columns, look.activity, out);
        }
        Style::Grid if look.html => {
            let grid = people_table::grid_html(entries, look.inline_assets);
            out.push(Event::Start(Tag::HtmlBlock));
            out.push(Event::Html(CowStr::from(grid)));
            out.push(Event::End(TagEnd::HtmlBlock));
        }
        _ => people_md::list_events(entries, out),
    }
}

/// Columns that are neither built in nor a field anyone has.
fn check_columns(request: &Request<'_>, people: &People, call: &Call<'_>) -> Vec<Diagnostic> {
    let Some(columns) = &request.columns else {
        return Vec::new();
    };
    let mut known: Vec<&str> = people_table::BUILT_IN.to_vec();
    let fields = people.people.iter().flat_map(|p| &p.fields).chain(
        people
            .groups
            .iter()
            .flat_map(|g| g.members.iter().flat_map(|m| &m.fields)),
    );
    for (name, _) in fields {
        if !known.contains(&name.as_str()) {
            known.push(name);
        }
    }
    columns
        .iter()
        .filter(|(name, _)| !known.contains(&name.as_str()))
        .map(|(name, range)| {
            call.error_at(
                range.clone(),
                Code::InvalidArguments,
                format!("unknown column `{name}`"),
            )
            .with_suggestion(did_you_mean(name, known.iter().copied()))
            .with_note(format!("columns: {}", known.join(", ")))
        })
        .collect()
}

fn list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    items.collect::<Vec<_>>().join(", ")
}
