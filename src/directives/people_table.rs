//! People as a table whose columns fit what is shown (a column empty for
//! every row is left out, unless `columns=` asks for it), and as a grid of
//! avatars with names below, the look all-contributors users expect.

use pulldown_cmark::{Alignment, CowStr, Event, Tag, TagEnd};

use super::people_md::{self, Entry};
use crate::activity::{Activity, History, Match};
use crate::markdown::html::{HtmlWriter, Value};
use crate::people::Person;

/// A column of a people table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Column {
    /// The avatar image (HTML only).
    Avatar,
    /// The display name.
    Name,
    /// The handle, linked to the profile.
    Handle,
    /// The role in the group.
    Role,
    /// The status in the group.
    Status,
    /// The affiliation.
    Affiliation,
    /// The e-mail address.
    Email,
    /// The day of the person's last counted commit (from the git history).
    LastActive,
    /// A free field of the member or the person.
    Field(String),
}

/// The names `columns=` takes besides field names, in default order.
pub const BUILT_IN: [&str; 8] = [
    "avatar",
    "name",
    "handle",
    "role",
    "status",
    "affiliation",
    "email",
    "last-active",
];

impl Column {
    /// The column `columns=` names `name`: a built-in one or a field.
    pub fn named(name: &str) -> Column {
        match name {
            "avatar" => Column::Avatar,
            "name" => Column::Name,
            "handle" => Column::Handle,
            "role" => Column::Role,
            "status" => Column::Status,
            "affiliation" => Column::Affiliation,
            "email" => Column::Email,
            "last-active" => Column::LastActive,
            field => Column::Field(field.to_string()),
        }
    }

    fn header(&self) -> String {
        let header = match self {
            Column::Avatar => "Avatar",
            Column::Name => "Name",
            Column::Handle => "Handle",
            Column::Role => "Role",
            Column::Status => "Status",
            Column::Affiliation => "Affiliation",
            Column::Email => "E-mail",
            Column::LastActive => "Last active",
            Column::Field(name) => return crate::unicode::sentence_case(name),
        };
        header.to_string()
    }

    /// The column's text for `entry` (not the avatar, handle or last
    /// activity, which are not data the entry holds).
    fn text<'e>(&self, entry: &Entry<'e>) -> Option<&'e str> {
        match self {
            Column::Avatar | Column::Handle | Column::LastActive => None,
            Column::Name => Some(&entry.person.name),
            Column::Role => entry.role,
            Column::Status => entry.status,
            Column::Affiliation => entry.person.affiliation.as_deref(),
            Column::Email => entry.person.email.as_deref(),
            Column::Field(name) => entry.field(name),
        }
    }

    fn is_empty_for(&self, entries: &[Entry<'_>]) -> bool {
        match self {
            // Shown by default when someone has chosen a picture; then
            // (and when asked for) everyone has one: the chosen one, their
            // GitHub one, or initials.
            Column::Avatar => entries.iter().all(|e| e.person.avatar.is_none()),
            Column::Name | Column::Handle | Column::LastActive => false,
            other => entries
                .iter()
                .all(|e| other.text(e).is_none_or(str::is_empty)),
        }
    }
}

/// The columns a table of `entries` shows by default: avatars (HTML only),
/// name, handle, role, status, affiliation and every free field, less
/// those empty in every row.
pub fn default_columns(entries: &[Entry<'_>], html: bool) -> Vec<Column> {
    let mut columns = vec![
        Column::Avatar,
        Column::Name,
        Column::Handle,
        Column::Role,
        Column::Status,
        Column::Affiliation,
    ];
    for entry in entries {
        for (name, _) in entry.fields.iter().chain(&entry.person.fields) {
            let column = Column::Field(name.clone());
            if !columns.contains(&column) {
                columns.push(column);
            }
        }
    }
    columns.retain(|c| !c.is_empty_for(entries) && (html || *c != Column::Avatar));
    columns
}

/// A table of `entries` with `columns`; `activity` fills the
/// `last-active` column.
pub fn table_events(
    entries: &[Entry<'_>],
    columns: &[Column],
    activity: Option<&Activity>,
    out: &mut Vec<Event<'static>>,
) {
    out.push(Event::Start(Tag::Table(vec![
        Alignment::None;
        columns.len()
    ])));
    out.push(Event::Start(Tag::TableHead));
    for column in columns {
        cell(out, |out| {
            let header = column.header();
            if !header.is_empty() {
                out.push(text(&header));
            }
        });
    }
    out.push(Event::End(TagEnd::TableHead));
    for entry in entries {
        out.push(Event::Start(Tag::TableRow));
        for column in columns {
            cell(out, |out| match column {
                Column::Avatar => out.push(match avatar_url(entry.person) {
                    Some(url) => people_md::avatar_html(&url, &entry.person.name),
                    None => initials_html(&entry.person.name),
                }),
                Column::Handle => people_md::handle_link_events(entry.person, out),
                Column::LastActive => out.push(text(&last_active(entry.person, activity))),
                other => {
                    if let Some(value) = other.text(entry) {
                        out.push(text(value));
                    }
                }
            });
        }
        out.push(Event::End(TagEnd::TableRow));
    }
    out.push(Event::End(TagEnd::Table));
}

/// The `last-active` cell: the day of the person's last counted commit
/// (`(by name)` when only their name matched it), `not matched` when the
/// history does not identify them, or `unknown` when the history cannot
/// say (a shallow clone, no repository).
fn last_active(person: &Person, activity: Option<&Activity>) -> String {
    let Some(activity) = activity else {
        return "unknown".to_string();
    };
    let seen = activity
        .person(&person.handle)
        .and_then(|at| activity.of(at));
    match seen {
        Some(seen) if seen.how == Match::Name => format!("{} (by name)", seen.day),
        Some(seen) => seen.day.to_string(),
        None if matches!(activity.history, History::Read { .. }) => "not matched".to_string(),
        None => "unknown".to_string(),
    }
}

/// One table cell holding what `content` writes.
pub fn cell(out: &mut Vec<Event<'static>>, content: impl FnOnce(&mut Vec<Event<'static>>)) {
    out.push(Event::Start(Tag::TableCell));
    content(out);
    out.push(Event::End(TagEnd::TableCell));
}

fn text(s: &str) -> Event<'static> {
    Event::Text(CowStr::from(s.to_string()))
}

/// Avatars in a grid with names below, as one HTML block (after the
/// assets, for a book that never ran `install`): a person without an
/// avatar gets their GitHub one, or their initials.
pub fn grid_html(entries: &[Entry<'_>], inline_assets: bool) -> String {
    let mut html = HtmlWriter::new();
    if inline_assets {
        crate::assets::write_inline(&mut html);
        html.newline();
    }
    html.open("div", &[("class", Some(Value::Fixed("community-grid")))]);
    for entry in entries {
        let person = entry.person;
        html.newline();
        let href = person.url.as_deref().map(Value::Url);
        let class = Some(Value::Fixed("community-grid-person"));
        html.open("a", &[("class", class), ("href", href)]);
        match avatar_url(person) {
            Some(url) => html.void(
                "img",
                &[
                    ("class", Some(Value::Fixed("community-avatar"))),
                    ("src", Some(Value::Url(&url))),
                    ("alt", Some(Value::Fixed(""))),
                    ("width", Some(Value::Fixed("64"))),
                    ("height", Some(Value::Fixed("64"))),
                    ("loading", Some(Value::Fixed("lazy"))),
                ],
            ),
            None => {
                let class = Some(Value::Fixed("community-initials"));
                html.open(
                    "span",
                    &[
                        ("class", class),
                        ("aria-hidden", Some(Value::Fixed("true"))),
                    ],
                );
                html.text(&initials(&person.name));
                html.close("span");
            }
        }
        html.open(
            "span",
            &[("class", Some(Value::Fixed("community-grid-name")))],
        );
        html.text(&person.name);
        html.close("span");
        html.close("a");
    }
    html.newline();
    html.close("div");
    html.finish()
}

/// A table cell's initials (for a person with neither an avatar nor a
/// login), as the grid shows them.
fn initials_html(name: &str) -> Event<'static> {
    let mut html = HtmlWriter::new();
    let class = Some(Value::Fixed("community-initials"));
    html.open(
        "span",
        &[("class", class), ("title", Some(Value::Text(name)))],
    );
    html.text(&initials(name));
    html.close("span");
    Event::InlineHtml(CowStr::from(html.finish()))
}

/// The person's avatar, else their GitHub one.
fn avatar_url(person: &Person) -> Option<String> {
    person.avatar.clone().or_else(|| {
        let login = person.github.as_deref()?;
        Some(format!("https://github.com/{login}.png"))
    })
}

/// `AL` for `Ada Lovelace`: the first letter of the first and last words
/// (punctuation skipped).
fn initials(name: &str) -> String {
    let words: Vec<&str> = name
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .collect();
    let first = |w: Option<&&str>| {
        w.and_then(|w| w.chars().find(|c| c.is_alphanumeric()))
            .map(|c| c.to_uppercase().to_string())
    };
    match words.len() {
        0 => String::new(),
        1 => first(words.first()).unwrap_or_default(),
        _ => first(words.first()).unwrap_or_default() + &first(words.last()).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_and_initials() {
        assert_eq!(crate::unicode::sentence_case("term-ends"), "Term ends");
        assert_eq!(
            crate::unicode::sentence_case("contributions"),
            "Contributions"
        );
        assert_eq!(initials("Ada King Lovelace"), "AL");
        assert_eq!(initials("ézé"), "É");
        assert_eq!(initials("  "), "");
    }
}
