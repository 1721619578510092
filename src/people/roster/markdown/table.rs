//! People in a Markdown table: a row is a person, and each column is
//! recognised by its header (Name, GitHub, E-mail, Affiliation, Role,
//! Status, ...) or, without a header it knows, by its content (profile
//! links, `@login`s). Columns it does not know become free fields that
//! `columns=` can show. A table without a name or login column whose cells
//! list people (`Name (login), Name (login)`) gives a membership for each,
//! the row's other cells as its fields.

use std::ops::Range;

use super::blocks::{Piece, plain};
use super::entry::{self, Entry, Mismatch, Read, Target, as_login, is_placeholder};

/// What a column holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Column {
    Name,
    Login,
    Email,
    Affiliation,
    Role,
    Status,
    /// Chat handles (Discord, Slack): a free field, never a login.
    Chat(String),
    /// Anything else: a free field under this key.
    Field(String),
    /// Cells that list people.
    People,
}

/// The role of each column, from the header and the cells.
pub fn columns(head: &[Vec<Piece>], rows: &[(Vec<Vec<Piece>>, Range<usize>)]) -> Vec<Column> {
    let mut columns: Vec<Column> = head.iter().map(|cell| by_header(&plain(cell))).collect();
    let has_person = |columns: &[Column]| {
        columns
            .iter()
            .any(|c| matches!(c, Column::Name | Column::Login))
    };
    // A column the header says nothing of, mostly profile links: logins.
    for (index, column) in columns.iter_mut().enumerate() {
        if matches!(column, Column::Field(_)) && mostly(rows, index, is_profile) {
            *column = Column::Login;
        }
    }
    // `| Alumni | GitHub ID |`: the first column of names is the name.
    if !columns.contains(&Column::Name)
        && let Some(index) = (0..columns.len())
            .find(|&i| matches!(columns[i], Column::Field(_)) && mostly(rows, i, is_name_cell))
    {
        columns[index] = Column::Name;
    }
    if !has_person(&columns) {
        for (index, column) in columns.iter_mut().enumerate() {
            if mostly(rows, index, lists_people) {
                *column = Column::People;
            }
        }
    }
    columns
}

/// A column's role from its header's words.
fn by_header(header: &str) -> Column {
    let lower = header.trim().to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let has = |names: &[&str]| words.iter().any(|w| names.contains(w));
    let chats = [
        "discord", "slack", "irc", "matrix", "gitter", "chat", "twitter", "mastodon", "telegram",
        "wechat", "zulip", "bluesky", "linkedin",
    ];
    if has(&chats) {
        Column::Chat(field_key(header))
    } else if has(&["github", "login", "handle", "username", "gh"]) && !has(&["team"])
        || words == ["id"]
        || words == ["user"]
    {
        Column::Login
    } else if has(&["email", "mail", "e"]) && has(&["mail", "email"]) || has(&["邮箱", "邮件"])
    {
        Column::Email
    } else if has(&[
        "company",
        "employer",
        "affiliation",
        "organization",
        "organisation",
        "org",
        "公司",
        "单位",
        "组织",
    ]) {
        Column::Affiliation
    } else if has(&[
        "role",
        "roles",
        "responsibilities",
        "responsibility",
        "area",
        "areas",
        "角色",
        "职责",
    ]) {
        Column::Role
    } else if has(&["status", "state", "状态"]) {
        Column::Status
    } else if has(&[
        "name",
        "maintainer",
        "maintainers",
        "member",
        "person",
        "owner",
        "who",
        "姓名",
        "名字",
        "成员",
    ]) {
        Column::Name
    } else {
        Column::Field(field_key(header))
    }
}

/// A free field's key: the header in lower case, words joined by `-`.
pub fn field_key(header: &str) -> String {
    let words: Vec<String> = header
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    match words.is_empty() {
        true => "column".to_string(),
        false => words.join("-"),
    }
}

/// Whether most non-empty cells of column `index` satisfy `test`.
fn mostly(
    rows: &[(Vec<Vec<Piece>>, Range<usize>)],
    index: usize,
    test: fn(&[Piece]) -> bool,
) -> bool {
    let cells: Vec<&Vec<Piece>> = (rows.iter())
        .filter_map(|(cells, _)| cells.get(index))
        .filter(|cell| !is_placeholder(&plain(cell)))
        .collect();
    !cells.is_empty() && 2 * cells.iter().filter(|c| test(c)).count() > cells.len()
}

fn is_name_cell(cell: &[Piece]) -> bool {
    entry::is_name(plain(cell).trim())
}

fn is_profile(cell: &[Piece]) -> bool {
    cell.iter().any(|piece| match piece {
        Piece::Link { url, email, .. } => matches!(entry::target(url, *email), Target::Profile(_)),
        Piece::Text(text, _) => text.trim().starts_with('@') && as_login(text).is_some(),
        _ => false,
    })
}

/// `Name (login), Name (login)` or `@a, @b`.
fn lists_people(cell: &[Piece]) -> bool {
    let text = plain(cell);
    text.contains('(') || text.contains('@') || is_profile(cell)
}

/// One row, read.
#[derive(Debug, Default)]
pub struct Row {
    /// The person (when the row is one).
    pub person: Option<Entry>,
    /// People a `People` column lists.
    pub listed: Vec<Entry>,
    /// The status its status column gives.
    pub status: Option<String>,
    /// Free fields.
    pub fields: Vec<(String, String)>,
    /// Cells that look like a person but cannot be read: where, and why.
    pub unreadable: Vec<(Range<usize>, String)>,
}

/// Reads one row with the table's `columns`.
pub fn row(
    columns: &[Column],
    cells: &[Vec<Piece>],
    mismatches: &mut Vec<Mismatch>,
    teams: &mut Vec<String>,
) -> Row {
    let mut row = Row::default();
    let mut person = Entry::default();
    let mut named = false;
    for (column, cell) in columns.iter().zip(cells) {
        let text = clean(&plain(cell));
        if is_placeholder(&text) {
            continue;
        }
        match column {
            Column::Name => {
                named |= name_cell(cell, &text, &mut person, mismatches, teams);
            }
            Column::Login => login_cell(cell, &text, &mut person, &mut row, mismatches),
            Column::Email => person.email = Some(text.trim_start_matches("mailto:").to_string()),
            Column::Affiliation => person.affiliation = Some(text),
            Column::Role => person.role = Some(text),
            Column::Status => row.status = Some(text),
            Column::Field(key) | Column::Chat(key) => row.fields.push((key.clone(), text)),
            Column::People => people_cell(cell, &mut row, mismatches, teams),
        }
    }
    // The row's role (a feature area) is each listed person's.
    for listed in &mut row.listed {
        listed.role = listed.role.take().or(person.role.clone());
    }
    if named || person.login.is_some() {
        row.person = Some(person);
    }
    row
}

/// A name cell: the name, or a person written whole (`[Name](profile)`);
/// whether it named someone.
fn name_cell(
    cell: &[Piece],
    text: &str,
    person: &mut Entry,
    mismatches: &mut Vec<Mismatch>,
    teams: &mut Vec<String>,
) -> bool {
    match entry::read(cell, mismatches, teams) {
        Read::Person(found) => {
            let only_login = found.name.is_none() && found.nick.is_none();
            person.login = person.login.take().or(found.login);
            person.name = found.name.or((!only_login).then(|| text.to_string()));
            person.nick = found.nick;
            person.email = person.email.take().or(found.email);
            person.status = person.status.or(found.status);
        }
        // A name column holds a name, whatever its shape.
        _ => person.name = Some(text.to_string()),
    }
    true
}

/// A login cell: a profile link, `@login`, or a bare login (the header
/// says it is one).
fn login_cell(
    cell: &[Piece],
    text: &str,
    person: &mut Entry,
    row: &mut Row,
    mismatches: &mut Vec<Mismatch>,
) {
    let link = cell.iter().find_map(|piece| match piece {
        Piece::Link {
            text, url, range, ..
        } => Some((text, entry::target(url, false), range.clone())),
        _ => None,
    });
    let range = cell_range(cell);
    match link {
        Some((text, Target::Profile(login), range)) => {
            let named = entry::login_in_link_text(text);
            let login = match named {
                Some(named) if named.eq_ignore_ascii_case(&login) => named,
                Some(named) => {
                    let url = login.clone();
                    mismatches.push(Mismatch {
                        range: range.clone(),
                        text: named,
                        url,
                    });
                    login
                }
                None => login,
            };
            person.login = Some((login, range));
        }
        Some((_, Target::BadProfile(login), range)) if !is_placeholder(&login) => {
            let why = format!("`{login}` in this GitHub link is not a GitHub login");
            row.unreadable.push((range, why));
        }
        Some(_) => {}
        None => match as_login(text).or_else(|| profile_in_text(text)) {
            Some(login) => person.login = Some((login.to_string(), range)),
            None => {
                let why = format!("`{text}` in a GitHub column is not a GitHub login");
                row.unreadable.push((range, why));
            }
        },
    }
}

/// The login of a profile URL written as text (`https://github.com/ada`,
/// `github.com/ada`) in a login column.
fn profile_in_text(text: &str) -> Option<&str> {
    let path = text.trim().trim_end_matches('/');
    let path = ["https://", "http://"]
        .iter()
        .find_map(|s| path.strip_prefix(s))
        .unwrap_or(path);
    let path = path.strip_prefix("www.").unwrap_or(path);
    let login = path.strip_prefix("github.com/")?;
    matches!(
        entry::target(&format!("https://github.com/{login}"), false),
        Target::Profile(_)
    )
    .then_some(login)
}

/// A cell listing people, split at the commas between them.
fn people_cell(
    cell: &[Piece],
    row: &mut Row,
    mismatches: &mut Vec<Mismatch>,
    teams: &mut Vec<String>,
) {
    for part in split_at_commas(cell) {
        match entry::read(&part, mismatches, teams) {
            Read::Person(found) => row.listed.push(found),
            Read::Unreadable(at, why) => row.unreadable.push((at, why)),
            Read::NotAPerson => {}
        }
    }
}

/// `pieces` split at the commas outside parentheses.
pub fn split_at_commas(pieces: &[Piece]) -> Vec<Vec<Piece>> {
    let mut parts = vec![Vec::new()];
    let mut depth = 0usize;
    for piece in pieces {
        let Piece::Text(text, range) = piece else {
            if let Some(part) = parts.last_mut() {
                part.push(piece.clone());
            }
            continue;
        };
        let mut start = 0;
        for (at, c) in text.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => {
                    push_text(&mut parts, &text[start..at], range.start + start);
                    parts.push(Vec::new());
                    start = at + 1;
                }
                _ => {}
            }
        }
        push_text(&mut parts, &text[start..], range.start + start);
    }
    parts.retain(|part| !part.is_empty());
    parts
}

fn push_text(parts: &mut [Vec<Piece>], text: &str, start: usize) {
    if let (Some(part), false) = (parts.last_mut(), text.is_empty()) {
        part.push(Piece::Text(text.to_string(), start..start + text.len()));
    }
}

/// The bytes a cell's pieces span.
fn cell_range(cell: &[Piece]) -> Range<usize> {
    let range = |piece: &Piece| match piece {
        Piece::Text(_, r) | Piece::Code(_, r) | Piece::Strong(_, r) => Some(r.clone()),
        Piece::Link { range, .. } => Some(range.clone()),
        Piece::Break | Piece::Strike => None,
    };
    let mut ranges = cell.iter().filter_map(range);
    let first = ranges.next().unwrap_or(0..0);
    let last = ranges.next_back().unwrap_or(first.clone());
    first.start..last.end
}

/// A cell's text without the spaces and backticks around it, `<br>`s as
/// `; `.
fn clean(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let trimmed = joined.trim_matches(|c: char| c.is_whitespace() || c == '`' || c == ';');
    trimmed.replace(" ;", ";")
}
