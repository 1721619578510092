//! `{{#codeowners}}`: the repository's CODEOWNERS as a table, and
//! `{{#codeowners PATH}}`: who owns a path (the last matching rule wins).
//! Owners found in the people data file show with their name and profile.

use pulldown_cmark::{Alignment, CowStr, Event, Tag, TagEnd};

use crate::data::codeowners::{Owner, Rule};
use crate::data::people::People;
use crate::diagnostic::Diagnostic;
use crate::directives::people_md::{self, Entry};
use crate::expand::Cx;
use crate::expand::args::ArgKind;
use crate::expand::directive::{BraceDirective, Call, Expansion, Placement};
use crate::markdown::to_markdown;

/// The `codeowners` directive.
pub struct CodeownersDirective;

impl BraceDirective for CodeownersDirective {
    fn name(&self) -> &'static str {
        "codeowners"
    }

    fn expand(&self, call: &Call<'_>, cx: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        let tokens = call.tokens().map_err(|e| vec![e])?;
        let path = match tokens.as_slice() {
            [] => None,
            [arg] => match &arg.kind {
                ArgKind::Word(path) => Some(path.to_string()),
                ArgKind::Quoted(path) => Some(path.to_string()),
                ArgKind::Pair { .. } => {
                    return Err(vec![
                        call.error_at(arg.range.clone(), "`{{#codeowners}}` takes no options")
                            .with_help("`{{#codeowners}}` for the whole table, `{{#codeowners PATH}}` for one path"),
                    ]);
                }
            },
            [_, extra, ..] => {
                return Err(vec![
                    call.error_at(
                        extra.range.start..call.args_range.end,
                        "`{{#codeowners}}` takes one path",
                    )
                    .with_help(
                        "quote a path that contains spaces: `{{#codeowners \"docs/my file.md\"}}`",
                    ),
                ]);
            }
        };
        let owners = cx
            .run
            .data
            .codeowners(cx.settings())
            .map_err(|e| vec![call.error(e.summary)])?;
        // The data file is optional here: without it owners show as written.
        let people = match cx.run.data.people(cx.settings()) {
            Ok(people) => Some(people),
            Err(e) if e.diagnostics.is_empty() => None,
            Err(e) => return Err(vec![call.error(e.summary)]),
        };
        let options = cx.settings().markdown.parser_options();
        let mut events = Vec::new();
        match path {
            Some(path) => {
                let path = path.trim_start_matches("./").trim_start_matches('/');
                if path.is_empty() {
                    return Err(vec![
                        call.error("`{{#codeowners PATH}}` needs a non-empty path"),
                    ]);
                }
                let rule = owners.owners_of(path);
                owner_sentence(rule, people.as_deref(), &mut events);
                if call.in_link {
                    events = crate::markdown::without_links(events);
                }
                Ok(Expansion::Inline(to_markdown(events, options)))
            }
            None => {
                if call.placement == Placement::Inline {
                    return Err(vec![
                        call.error(
                            "`{{#codeowners}}` makes a table, so it must be a paragraph of its own",
                        )
                        .with_help(
                            "use `{{#codeowners PATH}}` in running text for the owners of one path",
                        ),
                    ]);
                }
                table(owners.rules(), people.as_deref(), &mut events);
                Ok(Expansion::Block(to_markdown(events, options)))
            }
        }
    }
}

fn text(s: &str) -> Event<'static> {
    Event::Text(CowStr::from(s.to_string()))
}

/// One owner: a person from the data file, or the owner as written.
fn owner_events(owner: &Owner, people: Option<&People>, out: &mut Vec<Event<'static>>) {
    match owner.login().and_then(|login| people?.by_github(login)) {
        Some(person) => people_md::entry_events(Entry::of_person(person), out),
        None => out.push(text(&owner.text)),
    }
}

fn owner_sentence(rule: Option<&Rule>, people: Option<&People>, out: &mut Vec<Event<'static>>) {
    let owners = rule.map(|r| r.owners.as_slice()).unwrap_or_default();
    if owners.is_empty() {
        out.push(text("no code owner"));
        return;
    }
    for (i, owner) in owners.iter().enumerate() {
        if i > 0 {
            out.push(text(if i + 1 == owners.len() { " and " } else { ", " }));
        }
        owner_events(owner, people, out);
    }
}

fn table(rules: &[Rule], people: Option<&People>, out: &mut Vec<Event<'static>>) {
    out.push(Event::Start(Tag::Table(vec![Alignment::None; 2])));
    out.push(Event::Start(Tag::TableHead));
    for header in ["Pattern", "Owners"] {
        out.push(Event::Start(Tag::TableCell));
        out.push(text(header));
        out.push(Event::End(TagEnd::TableCell));
    }
    out.push(Event::End(TagEnd::TableHead));
    for rule in rules {
        out.push(Event::Start(Tag::TableRow));
        out.push(Event::Start(Tag::TableCell));
        out.push(Event::Code(CowStr::from(rule.pattern.clone())));
        out.push(Event::End(TagEnd::TableCell));
        out.push(Event::Start(Tag::TableCell));
        if rule.owners.is_empty() {
            out.push(Event::Start(Tag::Emphasis));
            out.push(text("no code owner"));
            out.push(Event::End(TagEnd::Emphasis));
        }
        for (i, owner) in rule.owners.iter().enumerate() {
            if i > 0 {
                out.push(text(", "));
            }
            owner_events(owner, people, out);
        }
        out.push(Event::End(TagEnd::TableCell));
        out.push(Event::End(TagEnd::TableRow));
    }
    out.push(Event::End(TagEnd::Table));
}
