//! `{{#person HANDLE}}`: one person, inline, as `Name ([handle](url))`.

use crate::diagnostic::{Code, Diagnostic};
use crate::directive::args::ArgKind;
use crate::directive::{BraceDirective, Call, Cx, Expansion};
use crate::directives::people_md::{self, Entry};
use crate::markdown::to_markdown;

/// The `person` directive.
pub struct PersonDirective;

impl BraceDirective for PersonDirective {
    fn name(&self) -> &'static str {
        "person"
    }

    fn expand(&self, call: &Call<'_>, cx: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        let tokens = call.tokens().map_err(|e| vec![e])?;
        let (handle, range) = match tokens.as_slice() {
            [arg] => match &arg.kind {
                ArgKind::Word(handle) => (*handle, arg.range.clone()),
                _ => {
                    return Err(vec![call.error_at(
                        arg.range.clone(),
                        Code::InvalidArguments,
                        "expected a handle, e.g. `{{#person octocat}}`",
                    )]);
                }
            },
            [] => {
                return Err(vec![call.error(
                    Code::InvalidArguments,
                    "`{{#person}}` needs a handle, e.g. `{{#person octocat}}`",
                )]);
            }
            [_, extra, ..] => {
                return Err(vec![
                    call.error_at(
                        extra.range.start..call.args_range.end,
                        Code::InvalidArguments,
                        "`{{#person}}` takes one handle",
                    )
                    .with_label("unexpected"),
                ]);
            }
        };
        let people = cx
            .run
            .data
            .people(cx.settings())
            .map_err(|e| vec![call.load_error(&e)])?;
        let person = people.person(handle).ok_or_else(|| {
            vec![
                call.error_at(
                    range.clone(),
                    Code::UnknownPerson,
                    format!("no person `{handle}` in `{}`", people.file.name),
                )
                .with_label("unknown handle")
                .with_suggestion_for(handle, people.closest_handle(handle)),
            ]
        })?;
        let mut events = Vec::new();
        people_md::entry_events(Entry::of_person(person), &mut events);
        if call.in_link {
            events = crate::markdown::without_links(events);
        }
        Ok(Expansion::Inline(to_markdown(
            events,
            cx.settings().markdown.parser_options(),
        )))
    }
}
