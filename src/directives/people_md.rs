//! People as Markdown: the `Name ([handle](url))` entry, lists, tables and
//! sentences, all built as pulldown-cmark events so that data is always text.

use pulldown_cmark::{CowStr, Event, LinkType, Tag, TagEnd};

use crate::markdown::html::{HtmlWriter, Value};
use crate::mdbook::MarkdownOptions;
use crate::people::{Member, People, Person, allowed_url};

/// One person, with their status and role in a group.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    /// Who.
    pub person: &'a Person,
    /// Status in the group (shown as a prefix).
    pub status: Option<&'a str>,
    /// Role in the group (shown after the name).
    pub role: Option<&'a str>,
    /// The membership's free fields.
    pub fields: &'a [(String, String)],
}

impl<'a> Entry<'a> {
    /// The entry for a group member.
    pub fn of_member(people: &'a People, member: &'a Member) -> Self {
        Entry {
            person: &people.people[member.person],
            status: member.status.as_deref(),
            role: member.role.as_deref(),
            fields: &member.fields,
        }
    }

    /// A person outside any group.
    pub fn of_person(person: &'a Person) -> Self {
        Entry {
            person,
            status: None,
            role: None,
            fields: &[],
        }
    }

    /// The free field `name`: the membership's, or the person's.
    pub fn field(&self, name: &str) -> Option<&'a str> {
        let person: &'a [(String, String)] = &self.person.fields;
        self.fields
            .iter()
            .chain(person)
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

fn text(s: &str) -> Event<'static> {
    Event::Text(CowStr::from(s.to_string()))
}

/// `(status) Name, role ([handle](url))`, or without the link when the
/// person has no profile.
pub fn entry_events(entry: Entry<'_>, out: &mut Vec<Event<'static>>) {
    if let Some(status) = entry.status {
        out.push(text(&format!("({status}) ")));
    }
    out.push(text(&entry.person.name));
    if let Some(role) = entry.role {
        out.push(text(&format!(", {role}")));
    }
    if entry.person.url.is_some() {
        out.push(text(" ("));
        handle_link_events(entry.person, out);
        out.push(text(")"));
    }
}

/// `[handle](url)`, or the bare handle when there is no profile.
pub fn handle_link_events(person: &Person, out: &mut Vec<Event<'static>>) {
    match &person.url {
        Some(url) => link_events(url, &person.handle, out),
        None => out.push(text(&person.handle)),
    }
}

/// `[label](url)`.
pub fn link_events(url: &str, label: &str, out: &mut Vec<Event<'static>>) {
    let tag = Tag::Link {
        link_type: LinkType::Inline,
        dest_url: CowStr::from(url.to_string()),
        title: CowStr::from(""),
        id: CowStr::from(""),
    };
    out.push(Event::Start(tag));
    out.push(text(label));
    out.push(Event::End(TagEnd::Link));
}

/// A bullet list, one entry per item.
pub fn list_events(entries: &[Entry<'_>], out: &mut Vec<Event<'static>>) {
    out.push(Event::Start(Tag::List(None)));
    for entry in entries {
        out.push(Event::Start(Tag::Item));
        entry_events(*entry, out);
        out.push(Event::End(TagEnd::Item));
    }
    out.push(Event::End(TagEnd::List(false)));
}

/// "A, B and C".
pub fn sentence_events(entries: &[Entry<'_>], out: &mut Vec<Event<'static>>) {
    if entries.is_empty() {
        out.push(text("(none)"));
    }
    for (i, entry) in entries.iter().enumerate() {
        if i > 0 {
            out.push(text(if i + 1 == entries.len() {
                " and "
            } else {
                ", "
            }));
        }
        entry_events(*entry, out);
    }
}

/// An `<img>` for the HTML renderer, written by the HTML writer (the URL
/// was checked to be http(s) already).
pub fn avatar_html(url: &str, name: &str) -> Event<'static> {
    let mut html = HtmlWriter::new();
    html.void(
        "img",
        &[
            ("class", Some(Value::Fixed("community-avatar"))),
            ("src", Some(Value::Url(url))),
            ("alt", Some(Value::Text(name))),
            ("width", Some(Value::Fixed("32"))),
            ("height", Some(Value::Fixed("32"))),
            ("loading", Some(Value::Fixed("lazy"))),
        ],
    );
    Event::InlineHtml(CowStr::from(html.finish()))
}

/// Markdown written by a data author (a group description), as events that
/// cannot inject markup: raw HTML becomes text, heading attributes are not
/// read (`{...}` stays text), and links and images whose URL is not http,
/// https, mailto or relative lose their link. Relative destinations other
/// than a bare `#fragment` go through `relink`.
pub fn sanitized_markdown_events(
    markdown: &str,
    options: MarkdownOptions,
    relink: &mut dyn FnMut(&str) -> String,
) -> Vec<Event<'static>> {
    let mut destination = |url: &str| -> CowStr<'static> {
        if crate::paths::is_relative(url) && !url.starts_with('#') && !url.is_empty() {
            CowStr::from(relink(url))
        } else {
            CowStr::from(url.to_string())
        }
    };
    let mut out = Vec::new();
    let mut dropped: Vec<bool> = Vec::new();
    for event in options.data_parser(markdown) {
        match event {
            Event::Html(html) | Event::InlineHtml(html) => out.push(text(&html)),
            Event::Start(Tag::HtmlBlock) => out.push(Event::Start(Tag::Paragraph)),
            Event::End(TagEnd::HtmlBlock) => out.push(Event::End(TagEnd::Paragraph)),
            // Every link is written inline: a reference definition would
            // carry the data's label into the page as it is.
            Event::Start(Tag::Link {
                dest_url, title, ..
            }) => {
                let safe = safe_destination(&dest_url);
                dropped.push(!safe);
                if safe {
                    out.push(Event::Start(Tag::Link {
                        link_type: LinkType::Inline,
                        dest_url: destination(&dest_url),
                        title: CowStr::from(title.to_string()),
                        id: CowStr::from(""),
                    }));
                }
            }
            // Footnotes are the page's, not a description's: shown as text.
            Event::FootnoteReference(label) => out.push(text(&format!("[^{label}]"))),
            Event::Start(Tag::FootnoteDefinition(_)) => {
                out.push(Event::Start(Tag::BlockQuote(None)));
            }
            Event::End(TagEnd::FootnoteDefinition) => {
                out.push(Event::End(TagEnd::BlockQuote(None)));
            }
            Event::End(TagEnd::Link) => {
                if dropped.pop() == Some(false) {
                    out.push(Event::End(TagEnd::Link));
                }
            }
            Event::Start(Tag::Image { dest_url, .. }) if !safe_destination(&dest_url) => {
                dropped.push(true);
            }
            Event::Start(Tag::Image {
                dest_url, title, ..
            }) => {
                dropped.push(false);
                out.push(Event::Start(Tag::Image {
                    link_type: LinkType::Inline,
                    dest_url: destination(&dest_url),
                    title: CowStr::from(title.to_string()),
                    id: CowStr::from(""),
                }));
            }
            Event::End(TagEnd::Image) => {
                if dropped.pop() == Some(false) {
                    out.push(Event::End(TagEnd::Image));
                }
            }
            other => out.push(other.into_static()),
        }
    }
    out
}

/// Relative links, fragments and http(s)/mailto URLs are safe.
fn safe_destination(url: &str) -> bool {
    let scheme_end = url.find([':', '/', '?', '#']);
    match scheme_end {
        Some(i) if url.as_bytes()[i] == b':' => allowed_url(url).is_ok(),
        _ => true,
    }
}

#[cfg(test)]
mod tests;
