//! `{{#codeowners}}`: the repository's CODEOWNERS as a table, with a
//! section row for each comment directly above a block of rules;
//! `{{#codeowners PATH}}`: who owns a path (the last matching rule wins);
//! `{{#codeowners PATH members [hide=S,..] [only=S,..]}}`: the people who
//! own it, teams expanded; those who still serve unless `hide`/`only`
//! say otherwise, as `{{#maintainers}}` takes them.
//!
//! Owners in the roster show with their name and profile; a team a group
//! claims (`github-team`) shows as the group, linked to its heading where a
//! `{{#maintainers}}` renders it. Anyone else links to their GitHub page.
//! The links to group headings need the book's ids, so the directive runs
//! in the resolve stage.

use pulldown_cmark::{Alignment, CowStr, Event, Tag, TagEnd};

use crate::data::codeowners::{CodeOwners, Owner, OwnerKind, Rule};
use crate::data::people::People;
use crate::diagnostic::{Code, Diagnostic, did_you_mean};
use crate::directives::maintainers::split_statuses;
use crate::directives::people_md::{self, Entry};
use crate::directives::people_table::cell;
use crate::expand::args::ArgKind;
use crate::expand::{BraceDirective, Call, Cx, Expansion, LinkCx, Run};
use crate::markdown::Placement;
use crate::markdown::to_markdown;

/// The `codeowners` directive.
pub struct CodeownersDirective;

/// What a call asks for.
enum Request {
    Table,
    Owners(String),
    Members(String, Statuses),
}

/// Which members `members` lists: `hide`, `only` (empty: every status but
/// the inactive ones).
#[derive(Default)]
struct Statuses {
    hide: Vec<String>,
    only: Vec<String>,
}

impl Statuses {
    fn shows(&self, status: Option<&str>, inactive: &[String]) -> bool {
        let is = |list: &[String]| list.iter().any(|s| Some(s.as_str()) == status);
        match (self.hide.is_empty(), self.only.is_empty()) {
            (true, true) => !is(inactive),
            _ => !is(&self.hide) && (self.only.is_empty() || is(&self.only)),
        }
    }
}

impl BraceDirective for CodeownersDirective {
    fn name(&self) -> &'static str {
        "codeowners"
    }

    fn expand(&self, call: &Call<'_>, cx: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        let request = parse(call)?;
        if matches!(request, Request::Table) && call.placement == Placement::Inline {
            return Err(vec![
                call.error(
                    Code::MisplacedDirective,
                    "`{{#codeowners}}` makes a table, so it must be a paragraph of its own",
                )
                .with_help("use `{{#codeowners PATH}}` in running text for the owners of one path"),
            ]);
        }
        load(call, cx.run)?;
        Ok(cx.defer_link(call))
    }

    fn resolve(&self, call: &Call<'_>, cx: &LinkCx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        let request = parse(call)?;
        let (owners, people) = load(call, cx.run)?;
        let writer = Writer {
            people: people.as_deref(),
            cx,
        };
        let options = cx.settings().markdown.parser_options();
        let mut events = Vec::new();
        if let Request::Table = request {
            writer.table(&owners, &mut events);
            return Ok(Expansion::Block(to_markdown(events, options)));
        }
        // In a paragraph, so that the writer does not take the space after
        // a link for the start of a line (and write it as `&#32;`).
        events.push(Event::Start(Tag::Paragraph));
        match request {
            Request::Owners(path) => writer.owner_sentence(owners.owners_of(&path), &mut events),
            Request::Members(path, statuses) => {
                writer.member_sentence(owners.owners_of(&path), &statuses, &mut events)
            }
            Request::Table => {}
        }
        events.push(Event::End(TagEnd::Paragraph));
        if call.in_link {
            events = crate::markdown::without_links(events);
        }
        Ok(Expansion::Inline(to_markdown(events, options)))
    }
}

/// The call's arguments.
fn parse(call: &Call<'_>) -> Result<Request, Vec<Diagnostic>> {
    let tokens = call.tokens().map_err(|e| vec![e])?;
    let mut words = Vec::new();
    let mut statuses = Statuses::default();
    let mut options = Vec::new();
    for arg in &tokens {
        match &arg.kind {
            ArgKind::Word(word) => words.push((word.to_string(), arg.range.clone())),
            ArgKind::Quoted(path) => words.push((path.to_string(), arg.range.clone())),
            ArgKind::Pair {
                key,
                value,
                value_range,
            } if matches!(*key, "hide" | "only") => {
                let list = split_statuses(value, value_range.start);
                if list.is_empty() {
                    return Err(vec![call.error_at(
                        value_range.clone(),
                        Code::InvalidArguments,
                        format!("`{key}` needs at least one status, e.g. `{key}=emeritus`"),
                    )]);
                }
                let list = list.into_iter().map(|(status, _)| status);
                match *key {
                    "hide" => statuses.hide.extend(list),
                    _ => statuses.only.extend(list),
                }
                options.push(arg.range.clone());
            }
            ArgKind::Pair { key, .. } => {
                return Err(vec![
                    call.error_at(arg.range.clone(), Code::InvalidArguments, format!("`{{{{#codeowners}}}}` has no option `{key}`"))
                        .with_suggestion(did_you_mean(key, ["hide", "only"]))
                        .with_help("`{{#codeowners}}` for the whole table, `{{#codeowners PATH}}` for one path, `{{#codeowners PATH members hide=STATUS only=STATUS}}` for its people"),
                ]);
            }
        }
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
    let request = match words.as_slice() {
        [] => Request::Table,
        [(p, _)] => Request::Owners(path(p)?),
        [(p, _), (m, _)] if m == "members" => Request::Members(path(p)?, statuses),
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
    match (&request, options.first()) {
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

type Loaded = (std::sync::Arc<CodeOwners>, Option<std::sync::Arc<People>>);

/// CODEOWNERS, and the roster when there is one (without it owners show as
/// written).
fn load(call: &Call<'_>, run: &Run<'_>) -> Result<Loaded, Vec<Diagnostic>> {
    let owners = run
        .data
        .codeowners(run.settings)
        .map_err(|e| vec![call.load_error(&e)])?;
    let people = match run.data.people(run.settings) {
        Ok(people) => Some(people),
        Err(e) if e.diagnostics.is_empty() => None,
        Err(e) => return Err(vec![call.load_error(&e)]),
    };
    Ok((owners, people))
}

fn text(s: &str) -> Event<'static> {
    Event::Text(CowStr::from(s.to_string()))
}

/// Writes owners as Markdown events.
struct Writer<'a> {
    people: Option<&'a People>,
    cx: &'a LinkCx<'a>,
}

impl Writer<'_> {
    /// One owner: a person or group of the roster, or a GitHub link.
    fn owner(&self, owner: &Owner, out: &mut Vec<Event<'static>>) {
        let name = owner.text.trim_start_matches('@');
        match owner.kind {
            OwnerKind::User => match self.people.and_then(|p| p.by_github(name)) {
                Some(person) => people_md::entry_events(Entry::of_person(person), out),
                None => {
                    people_md::link_events(&format!("https://github.com/{name}"), &owner.text, out)
                }
            },
            OwnerKind::Team => match self.people.and_then(|p| p.group_of_team(name)) {
                Some(group) => match self.cx.group_link(&group.id, &group.title) {
                    Some(link) => people_md::link_events(&link, &group.title, out),
                    None => people_md::link_events(&team_page(name), &group.title, out),
                },
                None => people_md::link_events(&team_page(name), &owner.text, out),
            },
            OwnerKind::Email => out.push(text(&owner.text)),
        }
    }

    fn owners(&self, owners: &[Owner], out: &mut Vec<Event<'static>>) {
        for (i, owner) in owners.iter().enumerate() {
            if i > 0 {
                out.push(text(if i + 1 == owners.len() { " and " } else { ", " }));
            }
            self.owner(owner, out);
        }
    }

    fn owner_sentence(&self, rule: Option<&Rule>, out: &mut Vec<Event<'static>>) {
        match rule.map(|r| r.owners.as_slice()).unwrap_or_default() {
            [] => out.push(text("no code owner")),
            owners => self.owners(owners, out),
        }
    }

    /// The people who own a path: users, and the members of claimed
    /// teams, each once, as `statuses` chooses them (a user by their
    /// status across the roster, a team's member by theirs in the team);
    /// owners outside the roster as in the sentence.
    fn member_sentence(
        &self,
        rule: Option<&Rule>,
        statuses: &Statuses,
        out: &mut Vec<Event<'static>>,
    ) {
        let Some(roster) = self.people else {
            return self.owner_sentence(rule, out);
        };
        let inactive = &self.cx.settings().inactive_statuses;
        let mut items: Vec<Result<usize, &Owner>> = Vec::new();
        let mut listed = std::collections::HashSet::new();
        for owner in rule.map(|r| r.owners.as_slice()).unwrap_or_default() {
            let name = owner.text.trim_start_matches('@');
            let people: Vec<(usize, Option<&str>)> = match owner.kind {
                OwnerKind::User => (roster.index_by_github(name).into_iter())
                    .map(|p| (p, standing(roster, p, inactive)))
                    .collect(),
                OwnerKind::Team => roster
                    .group_of_team(name)
                    .map(|g| {
                        (g.members.iter())
                            .map(|m| (m.person, m.status.as_deref()))
                            .collect()
                    })
                    .unwrap_or_default(),
                OwnerKind::Email => Vec::new(),
            };
            if people.is_empty() {
                items.push(Err(owner));
            }
            for (person, status) in people {
                if statuses.shows(status, inactive) && listed.insert(person) {
                    items.push(Ok(person));
                }
            }
        }
        if items.is_empty() {
            let owned = rule.is_some_and(|r| !r.owners.is_empty());
            let chosen = !(statuses.hide.is_empty() && statuses.only.is_empty());
            return out.push(text(match (owned, chosen) {
                (false, _) => "no code owner",
                (true, false) => "no active code owner",
                (true, true) => "no code owner with these statuses",
            }));
        }
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push(text(if i + 1 == items.len() { " and " } else { ", " }));
            }
            match item {
                Ok(person) => {
                    people_md::entry_events(Entry::of_person(&roster.people[*person]), out)
                }
                Err(owner) => self.owner(owner, out),
            }
        }
    }

    /// The table, with a section row for each comment block directly above
    /// a rule.
    fn table(&self, owners: &CodeOwners, out: &mut Vec<Event<'static>>) {
        out.push(Event::Start(Tag::Table(vec![Alignment::None; 2])));
        out.push(Event::Start(Tag::TableHead));
        for header in ["Pattern", "Owners"] {
            cell(out, |out| out.push(text(header)));
        }
        out.push(Event::End(TagEnd::TableHead));
        let lines: Vec<&str> = owners.file().text.lines().collect();
        for rule in owners.rules() {
            if let Some(section) = section_above(&lines, rule.line) {
                out.push(Event::Start(Tag::TableRow));
                cell(out, |out| {
                    out.push(Event::Start(Tag::Strong));
                    out.push(text(&section));
                    out.push(Event::End(TagEnd::Strong));
                });
                cell(out, |_| {});
                out.push(Event::End(TagEnd::TableRow));
            }
            out.push(Event::Start(Tag::TableRow));
            cell(out, |out| {
                out.push(Event::Code(CowStr::from(rule.pattern.clone())))
            });
            cell(out, |out| {
                if rule.owners.is_empty() {
                    out.push(Event::Start(Tag::Emphasis));
                    out.push(text("no code owner"));
                    out.push(Event::End(TagEnd::Emphasis));
                }
                for (i, owner) in rule.owners.iter().enumerate() {
                    if i > 0 {
                        out.push(text(", "));
                    }
                    self.owner(owner, out);
                }
            });
            out.push(Event::End(TagEnd::TableRow));
        }
        out.push(Event::End(TagEnd::Table));
    }
}

/// A person's status across the roster: an inactive status when every
/// group lists them with one (they no longer serve), else none.
fn standing<'p>(people: &'p People, person: usize, inactive: &[String]) -> Option<&'p str> {
    let statuses: Vec<Option<&str>> = (people.groups.iter())
        .flat_map(|g| g.members.iter())
        .filter(|m| m.person == person)
        .map(|m| m.status.as_deref())
        .collect();
    let gone = |s: &Option<&str>| s.is_some_and(|s| inactive.iter().any(|i| i == s));
    match statuses.first() {
        Some(first) if statuses.iter().all(gone) => *first,
        _ => None,
    }
}

/// `https://github.com/orgs/ORG/teams/TEAM` for `org/team`.
fn team_page(team: &str) -> String {
    let (org, name) = team.split_once('/').unwrap_or((team, ""));
    format!("https://github.com/orgs/{org}/teams/{name}")
}

/// The comment lines directly above line `line` (1-based), joined, when
/// the line before the rule is a comment: that comment names the block of
/// rules below it. A comment separated by a blank line, or above a rule
/// that continues a block, is not a section.
fn section_above(lines: &[&str], line: usize) -> Option<String> {
    let above = &lines[..line.checked_sub(1)?.min(lines.len())];
    let parts: Vec<&str> = above.iter().rev().map_while(|l| comment(l)).collect();
    let section = parts.into_iter().rev().collect::<Vec<_>>().join(" ");
    (!section.is_empty()).then_some(section)
}

/// The text of a comment line.
fn comment(line: &str) -> Option<&str> {
    line.trim_start().strip_prefix('#').map(str::trim)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_comments_directly_above_a_rule() {
        let text =
            "# Header\n\n*  @a\n# Service discovery.\n/sd/ @b\n/sd2/ @c\n# Two\n# lines\n/x/\n";
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(section_above(&lines, 3), None);
        assert_eq!(
            section_above(&lines, 5).as_deref(),
            Some("Service discovery.")
        );
        assert_eq!(section_above(&lines, 6), None);
        assert_eq!(section_above(&lines, 9).as_deref(), Some("Two lines"));
        assert_eq!(section_above(&lines, 1), None);
    }
}
