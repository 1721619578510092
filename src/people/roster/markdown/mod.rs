//! `format = "markdown"`: a `MAINTAINERS.md`, `OWNERS.md` or governance
//! page that lists people, as projects write them. Read with pulldown-cmark
//! (the book's options), never with line patterns:
//!
//! * headings, bold paragraphs and short `Label:` paragraphs before a list
//!   are groups (nested headings nest them); a group whose heading says
//!   emeritus, emeriti, alumni, former, retired, past or inactive gives its
//!   members that status;
//! * list items and table rows are people (see `entry.rs` and `table.rs`);
//!   a nested bullet under a person is a field of theirs (`GPG key: ...`);
//! * a paragraph of bare logins (`sougou, deepthi`) lists people the file
//!   gives elsewhere; `@org/team` mentions in a group's text claim the team;
//! * what cannot be read is a warning at its line, never dropped silently.

mod blocks;
mod entry;
mod fields;
mod people;
mod status;
mod table;
mod tokens;

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use blocks::{Block, Item, Piece, plain};
use entry::{Mismatch, Read};
use fields::{fields_of_a_line, is_field, nested_fields};

pub(super) use entry::{After, Entry, after_login, as_login, is_name};
pub(super) use people::{Drafts, Membership, Persons};
pub(super) use status::{is_caption, status_marker};
pub(super) use table::field_key;
pub(super) use tokens::token_in_text;
use tokens::{logins_in, token_in};

use super::SourceRoster;
use crate::diagnostic::{Code, Diagnostic, Place, SourceFile};
use crate::mdbook::MarkdownOptions;
use crate::people::check_team;

/// Reads the Markdown people file at `path`: the part under the heading
/// `section` only, when one is named.
pub(super) fn read(
    path: &Path,
    display: &str,
    options: MarkdownOptions,
    section: Option<&str>,
) -> Result<SourceRoster, Vec<Diagnostic>> {
    let file = crate::files::tree::read_lines_file(path, display)?;
    match section {
        None => Ok(parse(file, options)),
        Some(section) => parse_section(file, options, section),
    }
}

/// Reads the Markdown people file `file`.
pub(super) fn parse(file: Arc<SourceFile>, options: MarkdownOptions) -> SourceRoster {
    let mut reader = Reader::new(&file, options);
    let too_deep = blocks::each_block(&file.text, options, |block| reader.block(&block));
    if let Some(at) = too_deep {
        reader.too_deep(at);
    }
    reader.finish()
}

/// Reads the part of `file` under the heading `section` (compared without
/// case and trailing colons) and its sub-headings: `Maintainers` in a
/// README. The first such heading is read; another is a warning. No such
/// heading is an error that names the headings there are.
pub(super) fn parse_section(
    file: Arc<SourceFile>,
    options: MarkdownOptions,
    section: &str,
) -> Result<SourceRoster, Vec<Diagnostic>> {
    let blocks = blocks::blocks(&file.text, options);
    let key = |title: &str| {
        let title = title.trim().trim_end_matches([':', '#']).trim();
        title
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let wanted = key(section);
    let headings: Vec<(usize, u8, String, Range<usize>)> = (blocks.iter().enumerate())
        .filter_map(|(i, block)| match block {
            Block::Heading {
                level,
                pieces,
                range,
            } => Some((i, *level, plain(pieces).trim().to_string(), range.clone())),
            _ => None,
        })
        .collect();
    let mut found = headings
        .iter()
        .filter(|(_, _, title, _)| key(title) == wanted);
    let Some((start, level, _, _)) = found.next() else {
        let titles: Vec<&str> = headings.iter().map(|(_, _, t, _)| t.as_str()).collect();
        let error = Diagnostic::error(
            Code::InvalidSetting,
            format!(
                "`{}` has no heading `{section}` (its `section` setting)",
                file.name
            ),
        )
        .in_file(&file, 0..0)
        .with_label("no such heading in this file")
        .with_suggestion(crate::diagnostic::did_you_mean(
            section,
            titles.iter().copied(),
        ))
        .with_note(match titles.is_empty() {
            true => "the file has no headings".to_string(),
            false => format!("its headings: {}", titles.join(", ")),
        });
        return Err(vec![error]);
    };
    let end = (blocks.iter().enumerate().skip(start + 1))
        .find(|(_, b)| matches!(b, Block::Heading { level: l, .. } if l <= level))
        .map_or(blocks.len(), |(i, _)| i);
    let mut reader = Reader::new(&file, options);
    for block in &blocks[*start..end] {
        reader.block(block);
    }
    if let Some((_, _, title, range)) = found.next() {
        let warning = Diagnostic::warning(
            Code::UnreadEntry,
            format!("the heading `{title}` appears again here; only the first one is read as the section"),
        )
        .in_file(&file, range.clone())
        .with_label("not read")
        .with_help("rename one of the headings, or name the other in `section`");
        reader.warnings.push(warning);
    }
    Ok(reader.finish())
}

/// A word of a paragraph, and where it is.
type Word = (String, Range<usize>);

/// A label group: a bold paragraph (until the next heading or label), or
/// a `Label:` paragraph (for the list or table right after it).
#[derive(Debug, Clone, Copy)]
struct Label {
    draft: usize,
    next_block_only: bool,
}

struct Reader {
    file: Arc<SourceFile>,
    drafts: Drafts,
    persons: Persons,
    warnings: Vec<Diagnostic>,
    label: Option<Label>,
    /// Paragraphs of bare logins, resolved once every person is known.
    bare_lists: Vec<(usize, Vec<Word>)>,
    /// The table just before, when it had no rows (a blank line after its
    /// delimiter row cut them off): its header and delimiter, its group.
    empty_table: Option<(Range<usize>, usize)>,
    options: MarkdownOptions,
}

impl Reader {
    fn new(file: &Arc<SourceFile>, options: MarkdownOptions) -> Self {
        Reader {
            drafts: Drafts::new(file),
            persons: Persons::default(),
            warnings: Vec::new(),
            label: None,
            bare_lists: Vec::new(),
            empty_table: None,
            options,
            file: Arc::clone(file),
        }
    }

    fn block(&mut self, block: &Block) {
        let empty_table_before = self.empty_table.take();
        match block {
            Block::Heading {
                level,
                pieces,
                range,
            } => {
                self.label = None;
                self.drafts
                    .heading(*level, plain(pieces).trim(), range.clone());
            }
            Block::Paragraph { pieces, range } => {
                self.paragraph(pieces, range, empty_table_before);
            }
            Block::List(items) => {
                let group = self.group_for_block();
                self.list(items, group);
            }
            Block::Html(range) => self.html(range),
            Block::Table {
                head,
                rows,
                range,
                cut,
            } => {
                let group = self.group_for_block();
                if rows.is_empty() && cut.is_none() {
                    self.empty_table = Some((range.clone(), group));
                }
                self.table(head, rows, range, group);
                if let Some(cut) = cut {
                    self.cut_by_parser(range, *cut, head.len());
                }
            }
        }
    }

    /// The group a list or table belongs to; a `Label:` label lasts for
    /// one block.
    fn group_for_block(&mut self) -> usize {
        match self.label {
            Some(label) if label.next_block_only => {
                self.label = None;
                label.draft
            }
            Some(label) => label.draft,
            None => self.drafts.current(),
        }
    }

    fn paragraph(
        &mut self,
        pieces: &[Piece],
        range: &Range<usize>,
        after_empty_table: Option<(Range<usize>, usize)>,
    ) {
        let text = plain(pieces);
        let trimmed = text.trim();
        if self.label.is_some_and(|l| l.next_block_only) {
            // A `Label:` paragraph followed by prose is no label.
            self.label = None;
        }
        if trimmed.starts_with('|') {
            return match after_empty_table {
                Some((table, group)) => self.cut_off_rows(table, range, group),
                None => self.stray_table_row(range),
            };
        }
        let teams = entry::teams_in(pieces);
        if let [Piece::Strong(title, _)] = trimmed_pieces(pieces) {
            let title = title.trim().trim_end_matches(':').trim().to_string();
            let draft = self.drafts.label(&title, range.clone());
            self.label = Some(Label {
                draft,
                next_block_only: false,
            });
        } else if let Some(title) = colon_label(trimmed) {
            // `Alphabetical by first name:` introduces the list, in the
            // group above it.
            if !is_caption(&title) {
                let draft = self.drafts.label(&title, range.clone());
                self.label = Some(Label {
                    draft,
                    next_block_only: true,
                });
            }
        } else if let Some(words) = bare_logins(pieces) {
            let group = self
                .label
                .map_or_else(|| self.drafts.current(), |l| l.draft);
            self.bare_lists.push((group, words));
        } else {
            if !self.lines_of_people(range) {
                self.prose(pieces, trimmed, range, false);
            }
        }
        let group = self
            .label
            .map_or_else(|| self.drafts.current(), |l| l.draft);
        self.claim(group, teams, range);
    }

    /// A paragraph of several lines that name someone (`Ada (@ada)` then
    /// `Bob (@bob)`, without bullets) lists them one a line: each line is
    /// read as its own paragraph. Whether it was such a paragraph.
    fn lines_of_people(&mut self, range: &Range<usize>) -> bool {
        let text = &self.file.text[range.clone()];
        let mut lines = Vec::new();
        let mut offset = range.start;
        for line in text.split_inclusive('\n') {
            let content = line.trim_end();
            if token_in_text(content).is_some() {
                lines.push(offset..offset + content.len());
            }
            offset += line.len();
        }
        if lines.len() < 2 {
            return false;
        }
        for at in lines {
            let line = self.file.text[at.clone()].to_string();
            let (start, len) = (at.start, line.len());
            let shift = move |o: usize| start + o.min(len);
            for block in blocks::blocks(&line, self.options) {
                if let Block::Paragraph { pieces, .. } = block {
                    let pieces = blocks::shifted(pieces, &shift);
                    let text = plain(&pieces);
                    self.prose(&pieces, text.trim(), &at, true);
                }
            }
        }
        true
    }

    /// A paragraph that starts with a person (`Fernando Perez (@fperez) is
    /// the BDFL.`, `@ada leads it.`) names them; one that mentions someone
    /// otherwise is a warning, never dropped silently.
    fn prose(&mut self, pieces: &[Piece], text: &str, range: &Range<usize>, one_a_line: bool) {
        let Some(token) = token_in(pieces) else {
            return;
        };
        let (mut mismatches, mut teams) = (Vec::new(), Vec::new());
        let read = entry::read(pieces, &mut mismatches, &mut teams);
        // A line of people one a line may be a name and an address alone.
        let by_address = |e: &Entry| one_a_line && e.email.is_some() && e.name.is_some();
        if let Read::Person(entry) = read
            && (entry.login.is_some() || by_address(&entry))
            && (entry.name.is_some()
                || text.starts_with('@')
                || matches!(trimmed_pieces(pieces), [Piece::Link { .. }]))
        {
            self.mismatches(mismatches);
            let group = self
                .label
                .map_or_else(|| self.drafts.current(), |l| l.draft);
            let entry = fields_of_a_line(entry, &self.file.text[range.clone()], one_a_line);
            return self.add(group, entry, range.clone(), None, Vec::new());
        }
        let why = format!("this paragraph names `{token}`, but not as a person of a list");
        let help = "list people one a line (`- Name (@login)`) for them to be read";
        self.warn(range.clone(), Code::UnreadEntry, &why, Some(help));
    }

    /// An HTML block is not read as people: a line of it that names
    /// someone (`<a href="https://github.com/ada">`) is a warning. HTML
    /// comments are left out on purpose, and say nothing.
    fn html(&mut self, range: &Range<usize>) {
        let text = &self.file.text[range.clone()];
        if text.trim_start().starts_with("<!--") {
            return;
        }
        let mut offset = range.start;
        let mut found = Vec::new();
        for line in text.split_inclusive('\n') {
            let words = line.replace(['"', '\'', '=', '<', '>'], " ");
            if let Some(token) = token_in_text(&words) {
                let content = line.trim_end();
                found.push((offset..offset + content.len(), token));
            }
            offset += line.len();
        }
        for (at, token) in found {
            let why = format!("this HTML names `{token}`, but HTML is not read as people");
            let help =
                "list the people as Markdown (`- Name (@login)`, or a table) for them to be read";
            self.warn(at, Code::UnreadEntry, &why, Some(help));
        }
    }

    /// `[Organisation](site) (Name, Name)`: the people in parentheses
    /// after an organisation's link, by name; whether there were any.
    fn represented(&mut self, item: &Item, group: usize) -> bool {
        let pieces = trimmed_pieces(&item.pieces);
        let [
            Piece::Link {
                text: org,
                url,
                email: false,
                ..
            },
            Piece::Text(rest, _),
        ] = pieces
        else {
            return false;
        };
        if !matches!(entry::target(url, false), entry::Target::Elsewhere) {
            return false;
        }
        let Some(inner) = (rest.trim().strip_prefix('(')).and_then(|r| r.strip_suffix(')')) else {
            return false;
        };
        let names: Vec<&str> = inner.split(',').map(str::trim).collect();
        if !names.iter().all(|n| entry::is_name(n)) {
            return false;
        }
        for name in names {
            let entry = Entry {
                name: Some(name.to_string()),
                affiliation: Some(org.trim().to_string()),
                ..Entry::default()
            };
            self.add(group, entry, item.range.clone(), None, Vec::new());
        }
        true
    }

    /// The parser stopped reading the table at `range` at `cut`, its rows
    /// having fewer cells than its `columns` (see
    /// `blocks::MAX_FILLED_CELLS`): one warning at the table's header, that
    /// says so and which rows are not read.
    fn cut_by_parser(&mut self, range: &Range<usize>, cut: usize, columns: usize) {
        let text = &self.file.text[range.clone()];
        let header = text.find('\n').unwrap_or(text.len());
        let line = self.file.line_of(cut);
        let message = format!(
            "this table has {columns} columns and rows of fewer cells: the Markdown parser fills in at most {} missing cells in one table, and stops reading it at line {line}; its rows from there on are not read",
            blocks::MAX_FILLED_CELLS
        );
        let warning = Diagnostic::warning(Code::UnreadEntry, message)
            .in_file(&self.file, range.start..range.start + header)
            .with_label(format!("{columns} columns"))
            .also_at(std::iter::once(cut..range.start + text.trim_end().len()).collect())
            .with_help("give every row a cell for each column (or drop the columns no row fills), or split the table");
        self.warnings.push(warning);
    }

    fn stray_table_row(&mut self, range: &Range<usize>) {
        let message =
            "this looks like a table, but has no delimiter row (`|---|---|`) under its header";
        let help = "add a delimiter row under the header row";
        self.warn(range.clone(), Code::UnreadEntry, message, Some(help));
    }

    /// Rows a blank line cut off from their table's delimiter row: GitHub
    /// shows them as loose text, but each is still one person. Read as if
    /// the blank line were not there, with a warning that says why.
    fn cut_off_rows(&mut self, table: Range<usize>, rows: &Range<usize>, group: usize) {
        let head = self.file.text[table.clone()].trim_end();
        let synthetic = format!("{head}\n{}", &self.file.text[rows.clone()]);
        let split = head.len() + 1;
        let shift = |at: usize| match at < split {
            true => table.start + at,
            false => rows.start + at - split,
        };
        for block in blocks::blocks(&synthetic, self.options) {
            if let Block::Table {
                head,
                rows: read,
                range: _,
                cut: _,
            } = block
            {
                let read: Vec<_> = (read.into_iter())
                    .map(|(cells, at)| {
                        let cells = cells
                            .into_iter()
                            .map(|c| blocks::shifted(c, &shift))
                            .collect();
                        (cells, shift(at.start)..shift(at.end))
                    })
                    .collect();
                let head: Vec<_> = head
                    .into_iter()
                    .map(|c| blocks::shifted(c, &shift))
                    .collect();
                self.table(&head, &read, &table, group);
            }
        }
        let message = "these table rows are cut off from their table by a blank line after its delimiter row; GitHub shows them as text";
        let help = "remove the blank line, so that the rows follow the delimiter row (they are read as if it were not there)";
        self.warn(rows.clone(), Code::UnreadEntry, message, Some(help));
    }

    fn list(&mut self, items: &[Item], group: usize) {
        if self.heading_person(items, group) {
            return;
        }
        for item in items {
            let mut mismatches = Vec::new();
            let mut teams = Vec::new();
            let read = entry::read(&item.pieces, &mut mismatches, &mut teams);
            self.mismatches(mismatches);
            self.claim(group, teams, &item.range);
            match read {
                // `* Core` with people below it labels them.
                Read::Person(entry) if entry.login.is_none() && has_people_below(item) => {
                    self.sublists(item, group)
                }
                Read::Person(entry) => {
                    let own = entry.login.as_ref().map(|l| l.0.to_lowercase());
                    let logins = logins_in(&item.pieces);
                    if logins.len() < 2 || !self.several(item, group, &logins) {
                        let fields = nested_fields(&item.children);
                        self.add(group, entry, item.range.clone(), None, fields);
                    }
                    self.nested_people(item, group, own.as_deref());
                }
                Read::Unreadable(at, why) => self.unreadable(at, why),
                Read::NotAPerson => {
                    let lists = item.children.iter().any(|b| matches!(b, Block::List(_)));
                    if !lists
                        && !self.represented(item, group)
                        && let Some(token) = token_in(&item.pieces)
                    {
                        let why = format!("this item names `{token}`, but is not read as a person");
                        self.unreadable(item.range.clone(), why);
                    }
                    self.sublists(item, group)
                }
            }
        }
    }

    /// A heading that is a person's name over a list of their fields
    /// (`### Ada Lovelace`, then `- GitHub: @ada`, `- Company: Acme`): the
    /// person, in the group above the heading. Whether it was one.
    fn heading_person(&mut self, items: &[Item], group: usize) -> bool {
        let Some(parent) = self.drafts.parent_of_empty(group) else {
            return false;
        };
        let name = self.drafts.title(group).to_string();
        if !entry::is_name(&name) || self.label.is_some() {
            return false;
        }
        let mut person = Entry {
            name: Some(name),
            ..Entry::default()
        };
        let mut fields = Vec::new();
        for item in items {
            let text = plain(&item.pieces);
            let Some((key, value)) = text.split_once(':') else {
                return false;
            };
            let (key, value) = (key.trim().to_lowercase(), value.trim());
            if key.split_whitespace().count() > 3 || !item.children.is_empty() {
                return false;
            }
            let link = item.pieces.iter().find_map(|p| match p {
                Piece::Link {
                    url, email, range, ..
                } => Some((entry::target(url, *email), range)),
                _ => None,
            });
            match key.as_str() {
                "github" | "github id" | "github handle" | "github username" | "login"
                | "handle" => {
                    let login = match link {
                        Some((entry::Target::Profile(login), range)) => {
                            Some((login, range.clone()))
                        }
                        _ => entry::as_login(value).map(|l| (l.to_string(), item.range.clone())),
                    };
                    let Some(login) = login else { return false };
                    person.login = Some(login);
                }
                "email" | "e-mail" | "mail" => {
                    let address = match link {
                        Some((entry::Target::Email(address), _)) => address,
                        _ => value.trim_start_matches("mailto:").to_string(),
                    };
                    person.email = Some(address);
                }
                "company" | "affiliation" | "organization" | "organisation" | "employer" => {
                    person.affiliation = Some(value.to_string());
                }
                "role" | "roles" => person.role = Some(value.to_string()),
                _ => fields.push((table::field_key(&key), value.to_string())),
            }
        }
        if person.login.is_none() && person.email.is_none() {
            return false;
        }
        let at = items.first().map_or(0..0, |i| i.range.clone());
        let into = parent.unwrap_or(group);
        self.add(into, person, at, None, fields);
        true
    }

    /// An item that names several people (`Ada (@ada), Bob (@bob)`): each
    /// part between commas that is a person with a login; whether every
    /// login of the item was read so. When not, the item is read as one
    /// person, and each login it leaves out is a warning.
    fn several(&mut self, item: &Item, group: usize, logins: &[String]) -> bool {
        let mut read = Vec::new();
        for part in table::split_at_commas(&item.pieces) {
            let (mut mismatches, mut teams) = (Vec::new(), Vec::new());
            if let Read::Person(entry) = entry::read(&part, &mut mismatches, &mut teams)
                && entry.login.is_some()
            {
                read.push(entry);
            }
        }
        let found: Vec<String> = (read.iter())
            .filter_map(|e| Some(e.login.as_ref()?.0.to_lowercase()))
            .collect();
        if logins.iter().all(|l| found.contains(l)) {
            for entry in read {
                self.add(group, entry, item.range.clone(), None, Vec::new());
            }
            return true;
        }
        let first = found.first().cloned().unwrap_or_default();
        for login in logins.iter().skip(1) {
            let why =
                format!("this item names `@{login}` too, but only `{first}` is read as a person");
            self.unreadable(item.range.clone(), why);
        }
        false
    }

    /// The lists nested in an item that is no person: its text (if any)
    /// labels them.
    fn sublists(&mut self, item: &Item, group: usize) {
        let lists: Vec<&Vec<Item>> = (item.children.iter())
            .filter_map(|b| match b {
                Block::List(items) => Some(items),
                _ => None,
            })
            .collect();
        if lists.is_empty() {
            return;
        }
        let title = plain(&item.pieces);
        let title = title.trim().trim_end_matches(':').trim();
        let group = match title.is_empty() {
            true => group,
            false => self.drafts.label_under(group, title, item.range.clone()),
        };
        for items in lists {
            self.list(items, group);
        }
    }

    /// People in the lists nested under a person, at any depth (under a
    /// label such as `* Areas` too), are members too; an item below that
    /// names someone and is not read is a warning. Walked with a stack:
    /// nesting may be deep.
    fn nested_people(&mut self, item: &Item, group: usize, own: Option<&str>) {
        let mut stack: Vec<&Item> = Vec::new();
        push_nested(&mut stack, item);
        while let Some(nested) = stack.pop() {
            let (mut mismatches, mut teams) = (Vec::new(), Vec::new());
            let read = entry::read(&nested.pieces, &mut mismatches, &mut teams);
            let login = |e: &Entry| e.login.as_ref().map(|l| l.0.to_lowercase());
            match read {
                // The person's own field (`GitHub: @ada` under Ada).
                Read::Person(entry)
                    if is_field(&nested.pieces) && login(&entry).as_deref() == own => {}
                Read::Person(entry) if entry.login.is_some() => {
                    self.mismatches(mismatches);
                    self.add(group, entry, nested.range.clone(), None, Vec::new());
                }
                // Fields of the person (read by `nested_fields`).
                _ if is_field(&nested.pieces) => {}
                _ if !nested.children.is_empty() => {}
                _ => {
                    if let Some(token) = token_in(&nested.pieces) {
                        let why = format!("this item names `{token}`, but is not read as a person");
                        self.unreadable(nested.range.clone(), why);
                    }
                }
            }
            push_nested(&mut stack, nested);
        }
    }

    fn table(
        &mut self,
        head: &[Vec<Piece>],
        rows: &[(Vec<Vec<Piece>>, Range<usize>)],
        range: &Range<usize>,
        group: usize,
    ) {
        let columns = table::columns(head, rows);
        let person_columns = columns.iter().any(|c| {
            matches!(
                c,
                table::Column::Name | table::Column::Login | table::Column::People
            )
        });
        if !person_columns {
            // A table of something else (areas, meetings): a row that
            // names someone is a warning.
            let _ = range;
            for (cells, row_range) in rows {
                if let Some(token) = cells.iter().find_map(|c| token_in(c)) {
                    let why = format!(
                        "this row names `{token}`, but its table has no column of people (Name, GitHub, Maintainer...)"
                    );
                    self.unreadable(row_range.clone(), why);
                }
            }
            return;
        }
        for (cells, row_range) in rows {
            let (mut mismatches, mut teams) = (Vec::new(), Vec::new());
            let row = table::row(&columns, cells, &mut mismatches, &mut teams);
            self.mismatches(mismatches);
            self.claim(group, teams, row_range);
            for (at, why) in row.unreadable {
                self.unreadable(at, why);
            }
            let status = row.status.as_deref().and_then(|text| {
                let active = ["active", "current"].contains(&text.trim().to_lowercase().as_str());
                status::status_in(text).or(active.then_some("active"))
            });
            if row.person.is_none()
                && row.listed.is_empty()
                && let Some(token) = cells.iter().find_map(|c| token_in(c))
            {
                let why = format!("this row names `{token}`, but no person is read from it");
                self.unreadable(row_range.clone(), why);
            }
            if let Some(person) = row.person {
                let at = row_range.clone();
                self.add(group, person, at, status, row.fields.clone());
            }
            for listed in row.listed {
                self.add(group, listed, row_range.clone(), status, row.fields.clone());
            }
        }
    }

    fn add(
        &mut self,
        group: usize,
        entry: Entry,
        range: Range<usize>,
        status: Option<&'static str>,
        fields: Vec<(String, String)>,
    ) {
        let place = Place::new(&self.file, range.clone());
        let role = entry.role.clone();
        let status = entry.status.or(status);
        let person = self.persons.add(entry, &place);
        let membership = Membership {
            person,
            status,
            role,
            fields,
            place,
        };
        if let Some(first) = self.drafts.add(group, membership) {
            let who = self.persons.shown(person);
            let title = self.drafts.title(group).to_string();
            let message = format!("{who} is listed twice in the group `{title}`");
            let note = format!("first listed on line {first}");
            let warning = Diagnostic::warning(Code::Duplicate, message)
                .in_file(&self.file, range)
                .with_note(note);
            self.warnings.push(warning);
        }
    }

    /// The GitHub teams a paragraph, item or row (at `at`) mentions: the
    /// group claims them. One that is no `org/team` (`@org/a/b`,
    /// `github.com/orgs/my.org/teams/x`) is a warning there, not claimed:
    /// `github-team` would not read it back.
    fn claim(&mut self, group: usize, teams: Vec<String>, at: &Range<usize>) {
        let (good, bad): (Vec<String>, Vec<String>) =
            teams.into_iter().partition(|t| check_team(t).is_ok());
        for team in bad {
            let message = format!(
                "`@{team}` is not a GitHub team (`@org/team`), so the group does not claim it"
            );
            let shown = self.file.text[at.clone()].trim_end().len();
            let warning = Diagnostic::warning(Code::InvalidName, message)
                .in_file(&self.file, at.start..at.start + shown)
                .with_label("not read as a team")
                .with_help(
                    "write the team as `@org/team`: the organisation's login, then the team's slug",
                );
            self.warnings.push(warning);
        }
        self.drafts.claim(group, good);
    }

    fn mismatches(&mut self, mismatches: Vec<Mismatch>) {
        for Mismatch { range, text, url } in mismatches {
            let message =
                format!("the link's text names `{text}` but its URL the GitHub login `{url}`");
            let warning = Diagnostic::warning(Code::ConflictingLogin, message)
                .in_file(&self.file, range)
                .with_label(format!("read as `{url}`"))
                .with_help(format!(
                    "write the link as `[{url}](https://github.com/{url})` if that is who is meant"
                ));
            self.warnings.push(warning);
        }
    }

    /// Lists nested deeper than `blocks::MAX_LIST_DEPTH`, from `at`, are
    /// not read: one warning.
    fn too_deep(&mut self, at: Range<usize>) {
        let why = format!(
            "lists nested more than {} levels deep are not read, from here on",
            blocks::MAX_LIST_DEPTH
        );
        self.unreadable(at, why);
    }

    fn unreadable(&mut self, at: Range<usize>, why: String) {
        self.warn(at, Code::UnreadEntry, &why, None);
    }

    fn warn(&mut self, at: Range<usize>, code: Code, message: &str, help: Option<&str>) {
        let warning = Diagnostic::warning(code, message).in_file(&self.file, at);
        let warning = match help {
            Some(help) => warning.with_help(help),
            None => warning.with_label("not read as a person"),
        };
        self.warnings.push(warning);
    }

    fn finish(mut self) -> SourceRoster {
        for (group, words) in std::mem::take(&mut self.bare_lists) {
            self.bare_list(group, words);
        }
        let (people, by_index) = self.persons.finish();
        let groups = self.drafts.finish(&by_index);
        SourceRoster {
            files: vec![self.file],
            people,
            groups,
            warnings: self.warnings,
        }
    }

    /// A paragraph of bare logins: those of people the file lists are
    /// members; the others are warnings, unless none is (then it is prose).
    fn bare_list(&mut self, group: usize, words: Vec<Word>) {
        let known: Vec<Option<usize>> = words.iter().map(|(w, _)| self.persons.known(w)).collect();
        if known.iter().all(Option::is_none) {
            return;
        }
        for ((word, range), person) in words.into_iter().zip(known) {
            let place = Place::new(&self.file, range.clone());
            match person {
                Some(person) => {
                    let membership = Membership {
                        person,
                        status: None,
                        role: None,
                        fields: Vec::new(),
                        place,
                    };
                    let _ = self.drafts.add(group, membership);
                }
                None => {
                    let why = format!("`{word}` is not the login of anyone this file lists");
                    self.unreadable(range, why);
                }
            }
        }
    }
}

/// `pieces` without blank text around them.
fn trimmed_pieces(pieces: &[Piece]) -> &[Piece] {
    let blank =
        |p: &Piece| matches!(p, Piece::Text(t, _) if t.trim().is_empty() || t.trim() == ":");
    let start = pieces
        .iter()
        .position(|p| !blank(p))
        .unwrap_or(pieces.len());
    let end = pieces
        .iter()
        .rposition(|p| !blank(p))
        .map_or(start, |i| i + 1);
    &pieces[start..end.max(start)]
}

/// `Approvers (@org/team):` gives `Approvers`: a paragraph of at most
/// five words (a parenthesis aside) that ends with a colon.
fn colon_label(text: &str) -> Option<String> {
    let body = text.strip_suffix(':')?;
    let without = match (body.find('('), body.rfind(')')) {
        (Some(open), Some(close)) if open < close => [&body[..open], &body[close + 1..]].concat(),
        _ => body.to_string(),
    };
    let title = without.split_whitespace().collect::<Vec<_>>().join(" ");
    let words = title.split_whitespace().count();
    ((1..=5).contains(&words) && !title.contains(':')).then_some(title)
}

/// The words of a paragraph that is only bare logins, comma-separated.
fn bare_logins(pieces: &[Piece]) -> Option<Vec<Word>> {
    let [Piece::Text(text, range)] = pieces else {
        return None;
    };
    let mut words = Vec::new();
    let mut offset = range.start;
    for part in text.split(',') {
        let word = part.trim();
        if entry::as_login(word).is_none() || word.starts_with('@') {
            return None;
        }
        let start = offset + (part.len() - part.trim_start().len());
        words.push((word.to_string(), start..start + word.len()));
        offset += part.len() + 1;
    }
    Some(words)
}

/// How many levels below an item a label looks for the people it labels
/// (`* Networking` > `* Leads` > `* Alice (@alice)`): a bound, so that a
/// chain of labels costs linear time.
const LABEL_DEPTH: usize = 3;

/// Whether a list nested in `item`, up to [`LABEL_DEPTH`] levels down,
/// names someone by login.
fn has_people_below(item: &Item) -> bool {
    let mut level: Vec<&Item> = vec![item];
    for _ in 0..LABEL_DEPTH {
        let nested: Vec<&Item> = (level.iter())
            .flat_map(|i| &i.children)
            .filter_map(|b| match b {
                Block::List(items) => Some(items),
                _ => None,
            })
            .flatten()
            .collect();
        let person = nested.iter().any(|nested| {
            let (mut mismatches, mut teams) = (Vec::new(), Vec::new());
            let read = entry::read(&nested.pieces, &mut mismatches, &mut teams);
            matches!(read, Read::Person(e) if e.login.is_some())
        });
        if person {
            return true;
        }
        level = nested;
    }
    false
}

/// The items of the lists nested in `item`, pushed so that they pop in
/// order.
fn push_nested<'i>(stack: &mut Vec<&'i Item>, item: &'i Item) {
    for block in item.children.iter().rev() {
        if let Block::List(items) = block {
            stack.extend(items.iter().rev());
        }
    }
}

#[cfg(test)]
mod tests;
