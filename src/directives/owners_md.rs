//! Owners as Markdown events, for `{{#codeowners}}`: one owner (a person
//! or group of the roster, or a GitHub link), a sentence of owners or of
//! their people, the CODEOWNERS table, the OWNERS tree's table, and the
//! coverage table with its sentence.

use pulldown_cmark::{Alignment, CowStr, Event, Tag, TagEnd};

use crate::diagnostic::plural;
use crate::directive::LinkCx;
use crate::directives::people_md::{self, Entry as PersonEntry};
use crate::directives::people_table::cell;
use crate::ownership::codeowners::{CodeOwners, Dialect, Owner, OwnerKind, Section};
use crate::ownership::coverage::{Coverage, FolderCoverage};
use crate::ownership::repository::Repository;
use crate::ownership::tree::{Block, Entry, OwnersTree};
use crate::ownership::user;
use crate::people::{People, check_login};

/// At most this many owners are named in a coverage row.
const OWNERS_PER_ROW: usize = 5;

fn text(s: &str) -> Event<'static> {
    Event::Text(CowStr::from(s.to_string()))
}

fn emphasis(s: &str, out: &mut Vec<Event<'static>>) {
    out.push(Event::Start(Tag::Emphasis));
    out.push(text(s));
    out.push(Event::End(TagEnd::Emphasis));
}

fn code(s: &str) -> Event<'static> {
    Event::Code(CowStr::from(s.to_string()))
}

/// Which members `{{#codeowners PATH members}}` lists: `hide`, `only`
/// (both empty: every status but the inactive ones).
#[derive(Default)]
pub struct Statuses {
    /// Statuses left out.
    pub hide: Vec<String>,
    /// The only statuses shown, when not empty.
    pub only: Vec<String>,
}

impl Statuses {
    fn shows(&self, status: Option<&str>, people: &People) -> bool {
        let is = |list: &[String]| list.iter().any(|s| Some(s.as_str()) == status);
        match (self.hide.is_empty(), self.only.is_empty()) {
            (true, true) => !people.is_former(status),
            _ => !is(&self.hide) && (self.only.is_empty() || is(&self.only)),
        }
    }
}

/// Writes owners as Markdown events.
pub struct Writer<'a> {
    /// The roster, when there is one.
    pub people: Option<&'a People>,
    /// For links to the headings of groups.
    pub cx: &'a LinkCx<'a>,
    /// Whether owners are GitHub accounts (GitHub's CODEOWNERS, an OWNERS
    /// tree), linked to their profiles; a GitLab file's are text unless
    /// the roster knows them.
    pub github_links: bool,
}

impl Writer<'_> {
    /// One owner: a person or group of the roster, or a GitHub link.
    pub fn owner(&self, owner: &Owner, out: &mut Vec<Event<'static>>) {
        let name = owner.text.trim_start_matches('@');
        match owner.kind {
            OwnerKind::User => match self.people.and_then(|p| p.by_github(name)) {
                Some(person) => people_md::entry_events(PersonEntry::of_person(person), out),
                // An OWNERS entry can be any text: only a login is a link.
                None if check_login(name).is_err() || !self.github_links => {
                    out.push(text(&owner.text))
                }
                None => {
                    people_md::link_events(&format!("https://github.com/{name}"), &owner.text, out)
                }
            },
            OwnerKind::Team => match self.people.and_then(|p| p.group_of_team(name)) {
                Some(group) => match self.cx.group_link(&group.id, &group.title) {
                    Some(link) => people_md::link_events(&link, &group.title, out),
                    None => people_md::link_events(&team_page(name), &group.title, out),
                },
                None if !self.github_links => out.push(text(&owner.text)),
                None => people_md::link_events(&team_page(name), &owner.text, out),
            },
            OwnerKind::Email => match self.people.and_then(|p| p.by_email(&owner.text)) {
                Some(person) => people_md::entry_events(PersonEntry::of_person(person), out),
                None => out.push(text(&owner.text)),
            },
            OwnerKind::Role => out.push(text(&owner.text)),
        }
    }

    /// Owners as a sentence: `A, B and C`.
    fn owners(&self, owners: &[Owner], out: &mut Vec<Event<'static>>) {
        for (i, owner) in owners.iter().enumerate() {
            if i > 0 {
                out.push(text(if i + 1 == owners.len() { " and " } else { ", " }));
            }
            self.owner(owner, out);
        }
    }

    /// Who owns a path, as a sentence: its owners, or "no code owner".
    pub fn owner_sentence(&self, owners: &[Owner], out: &mut Vec<Event<'static>>) {
        match owners {
            [] => out.push(text("no code owner")),
            owners => self.owners(owners, out),
        }
    }

    /// The people who own a path: users, and the members of claimed
    /// teams, each once, as `statuses` chooses them (a user by their
    /// status across the roster, a team's member by theirs in the team);
    /// owners outside the roster as in the sentence.
    pub fn member_sentence(
        &self,
        owners: &[Owner],
        statuses: &Statuses,
        out: &mut Vec<Event<'static>>,
    ) {
        let Some(roster) = self.people else {
            return self.owner_sentence(owners, out);
        };
        let mut items: Vec<Result<usize, &Owner>> = Vec::new();
        let mut listed = std::collections::HashSet::new();
        for owner in owners {
            let name = owner.text.trim_start_matches('@');
            let people: Vec<(usize, Option<&str>)> = match owner.kind {
                OwnerKind::User => (roster.index_by_github(name).into_iter())
                    .map(|p| (p, roster.standing(p).former_status.as_deref()))
                    .collect(),
                OwnerKind::Team => roster
                    .group_of_team(name)
                    .map(|g| {
                        (g.members.iter())
                            .map(|m| (m.person, m.status.as_deref()))
                            .collect()
                    })
                    .unwrap_or_default(),
                OwnerKind::Email => (roster.index_by_email(&owner.text).into_iter())
                    .map(|p| (p, roster.standing(p).former_status.as_deref()))
                    .collect(),
                OwnerKind::Role => Vec::new(),
            };
            if people.is_empty() {
                items.push(Err(owner));
            }
            for (person, status) in people {
                if statuses.shows(status, roster) && listed.insert(person) {
                    items.push(Ok(person));
                }
            }
        }
        if items.is_empty() {
            let chosen = !(statuses.hide.is_empty() && statuses.only.is_empty());
            return out.push(text(match (owners.is_empty(), chosen) {
                (true, _) => "no code owner",
                (false, false) => "no active code owner",
                (false, true) => "no code owner with these statuses",
            }));
        }
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push(text(if i + 1 == items.len() { " and " } else { ", " }));
            }
            match item {
                Ok(person) => {
                    people_md::entry_events(PersonEntry::of_person(&roster.people[*person]), out)
                }
                Err(owner) => self.owner(owner, out),
            }
        }
    }

    /// The CODEOWNERS table, with a section row for each comment block
    /// directly above a rule.
    /// With `coverage` (the repository's own CODEOWNERS), a rule that
    /// matches no file is marked.
    pub fn table(
        &self,
        owners: &CodeOwners,
        coverage: Option<&Coverage>,
        out: &mut Vec<Event<'static>>,
    ) {
        head(&["Pattern", "Owners"], out);
        let lines: Vec<&str> = owners.file().text.lines().collect();
        let mut section = 0;
        for (index, rule) in owners.rules().iter().enumerate() {
            let title = match owners.dialect() {
                Dialect::GitLab if rule.section != section => {
                    section = rule.section;
                    Some(section_title(&owners.sections()[section]))
                }
                Dialect::GitLab => None,
                Dialect::GitHub => section_above(&lines, rule.line),
            };
            if let Some(title) = title {
                out.push(Event::Start(Tag::TableRow));
                cell(out, |out| {
                    out.push(Event::Start(Tag::Strong));
                    out.push(text(&title));
                    out.push(Event::End(TagEnd::Strong));
                });
                cell(out, |_| {});
                out.push(Event::End(TagEnd::TableRow));
            }
            out.push(Event::Start(Tag::TableRow));
            cell(out, |out| {
                out.push(code(&rule.pattern));
                if coverage.is_some_and(|c| !c.rule_matches(index)) {
                    out.push(text(" "));
                    emphasis("(matches no file)", out);
                }
            });
            cell(out, |out| {
                if rule.owners.is_empty() {
                    emphasis("no code owner", out);
                }
                self.list(&rule.owners, out);
            });
            out.push(Event::End(TagEnd::TableRow));
        }
        out.push(Event::End(TagEnd::Table));
    }

    /// Owners separated by commas.
    fn list(&self, owners: &[Owner], out: &mut Vec<Event<'static>>) {
        for (i, owner) in owners.iter().enumerate() {
            if i > 0 {
                out.push(text(", "));
            }
            self.owner(owner, out);
        }
    }

    /// The OWNERS tree as a table: a row for each OWNERS file (and each of
    /// its filters), the root first, with its approvers and reviewers.
    pub fn tree_table(&self, tree: &OwnersTree, out: &mut Vec<Event<'static>>) {
        head(&["Folder", "Approvers", "Reviewers"], out);
        let mut files: Vec<_> = tree.files().iter().collect();
        files.sort_by(|a, b| a.folder.cmp(&b.folder));
        for owners in files {
            for (i, block) in owners.blocks.iter().enumerate() {
                out.push(Event::Start(Tag::TableRow));
                cell(out, |out| {
                    out.push(code(&format!("{}/", owners.folder)));
                    folder_notes(block, i == 0 && owners.no_parent_owners, out);
                });
                cell(out, |out| self.entries(&block.approvers, out));
                cell(out, |out| self.entries(&block.reviewers, out));
                out.push(Event::End(TagEnd::TableRow));
            }
        }
        out.push(Event::End(TagEnd::Table));
    }

    /// An OWNERS list: logins as owners, an alias as its roster group
    /// (OWNERS_ALIASES read as a people source) or as written.
    fn entries(&self, entries: &[Entry], out: &mut Vec<Event<'static>>) {
        for (i, entry) in entries.iter().enumerate() {
            if i > 0 {
                out.push(text(", "));
            }
            if !entry.alias {
                self.owner(&user(&entry.written), out);
                continue;
            }
            match self.people.and_then(|p| p.group(&entry.written)) {
                Some(group) => match self.cx.group_link(&group.id, &group.title) {
                    Some(link) => people_md::link_events(&link, &group.title, out),
                    None => out.push(text(&group.title)),
                },
                None => out.push(text(&entry.written)),
            }
        }
    }

    /// The coverage table of `repository`'s folders down to `depth`, and
    /// the sentence with the whole repository's figure.
    pub fn coverage(
        &self,
        coverage: &Coverage,
        repository: &Repository,
        depth: usize,
        out: &mut Vec<Event<'static>>,
    ) {
        let folders = coverage.folders(repository, depth);
        if !folders.is_empty() {
            head(&["Folder", "Files", "With an active owner", "Owners"], out);
            for folder in &folders {
                self.coverage_row(folder, out);
            }
            out.push(Event::End(TagEnd::Table));
        }
        out.push(Event::Start(Tag::Paragraph));
        out.push(text(&coverage_sentence(coverage.owned(), coverage.files())));
        if coverage.files() > 0 {
            out.push(text(" "));
            out.push(text(&owner_counts_sentence(coverage.by_active_people())));
        }
        out.push(Event::End(TagEnd::Paragraph));
    }

    fn coverage_row(&self, folder: &FolderCoverage, out: &mut Vec<Event<'static>>) {
        out.push(Event::Start(Tag::TableRow));
        cell(out, |out| out.push(code(&folder.folder)));
        cell(out, |out| out.push(text(&folder.files.to_string())));
        cell(out, |out| match folder.owned {
            0 => {
                out.push(Event::Start(Tag::Strong));
                out.push(text("unowned"));
                out.push(Event::End(TagEnd::Strong));
            }
            owned => out.push(text(&share(owned, folder.files))),
        });
        cell(out, |out| {
            let shown = &folder.owners[..folder.owners.len().min(OWNERS_PER_ROW)];
            if shown.is_empty() {
                emphasis("no code owner", out);
            }
            self.list(shown, out);
            let more = folder.owners.len() - shown.len();
            if more > 0 {
                out.push(text(&format!(" and {more} more")));
            }
        });
        out.push(Event::End(TagEnd::TableRow));
    }
}

/// A table's start and head row.
fn head(headers: &[&str], out: &mut Vec<Event<'static>>) {
    out.push(Event::Start(Tag::Table(vec![
        Alignment::None;
        headers.len()
    ])));
    out.push(Event::Start(Tag::TableHead));
    for header in headers {
        cell(out, |out| out.push(text(header)));
    }
    out.push(Event::End(TagEnd::TableHead));
}

/// What a row of the OWNERS table applies to, after its folder.
fn folder_notes(block: &Block, no_parent_owners: bool, out: &mut Vec<Event<'static>>) {
    if let Some(filter) = &block.filter {
        out.push(text(", files matching "));
        out.push(code(&filter.pattern));
    }
    if no_parent_owners {
        out.push(text(" "));
        emphasis("(no parent owners)", out);
    }
}

/// `97%`, rounded down, and `100%` only when all are: `<1%` for a few.
pub fn share(part: usize, whole: usize) -> String {
    if whole == 0 || part == whole {
        return "100%".to_string();
    }
    match part * 100 / whole {
        0 => "<1%".to_string(),
        percent => format!("{percent}%"),
    }
}

/// The whole repository's figure, as a sentence.
pub fn coverage_sentence(owned: usize, files: usize) -> String {
    let all = plural(files, "file");
    match (owned, files - owned.min(files)) {
        _ if files == 0 => "The repository has no files.".to_string(),
        (1, 0) => "The one file of the repository has an active owner.".to_string(),
        (0, 1) => "The one file of the repository has no active owner.".to_string(),
        (_, 0) => format!("All {all} of the repository have an active owner."),
        (0, _) => format!("None of the {all} of the repository has an active owner."),
        (owned, unowned) => format!(
            "Of the {all} of the repository, {owned} ({}) have an active owner and {unowned} {} none.",
            share(owned, files),
            if unowned == 1 { "has" } else { "have" }
        ),
    }
}

/// How many files have no active owner, one, and two or more: `By active
/// owners: 3 files have none, 12 one and 40 two or more.`
pub fn owner_counts_sentence([none, one, more]: [usize; 3]) -> String {
    let files = |n: usize| match n {
        1 => "1 file has".to_string(),
        n => format!("{n} files have"),
    };
    format!(
        "By active owners: {} none, {one} one and {more} two or more.",
        files(none)
    )
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
    let parts = parts
        .into_iter()
        .rev()
        .map(without_rules)
        .filter(|p| !p.is_empty());
    let section = parts.collect::<Vec<_>>().join(" ");
    (!section.is_empty()).then_some(section)
}

/// A comment's words without the rules drawn around them (`# -----`,
/// `# === Docs ===`): a part that is only such characters is nothing.
fn without_rules(part: &str) -> &str {
    let rule = |c: char| matches!(c, '-' | '=' | '*' | '#' | '~' | '_' | '+' | '/' | '|');
    let trimmed = part.trim_matches(|c: char| rule(c) || c.is_whitespace());
    match trimmed.chars().any(char::is_alphanumeric) {
        true => trimmed,
        false => "",
    }
}

/// A GitLab section's row: its name, and whether it is optional or needs
/// more than one approval.
fn section_title(section: &Section) -> String {
    let mut title = match section.name.is_empty() {
        true => "Every file".to_string(),
        false => section.name.clone(),
    };
    if section.optional {
        title.push_str(" (optional)");
    }
    if let Some(n) = section.approvals.filter(|&n| n > 1) {
        title.push_str(&format!(" ({n} approvals)"));
    }
    title
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
        // Rules drawn around a title are not part of it.
        let text = "# -----------\n# Global Owners -------------\n# ===========\n* @a\n# === Docs ===\n/docs/ @b\n";
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(section_above(&lines, 4).as_deref(), Some("Global Owners"));
        assert_eq!(section_above(&lines, 6).as_deref(), Some("Docs"));
    }

    #[test]
    fn shares_round_down_and_say_all_only_for_all() {
        assert_eq!(share(997, 1000), "99%");
        assert_eq!(share(1000, 1000), "100%");
        assert_eq!(share(1, 1000), "<1%");
        assert_eq!(share(1, 2), "50%");
        assert_eq!(
            coverage_sentence(290, 297),
            "Of the 297 files of the repository, 290 (97%) have an active owner and 7 have none."
        );
        assert_eq!(
            coverage_sentence(1, 1),
            "The one file of the repository has an active owner."
        );
        assert_eq!(
            coverage_sentence(2, 2),
            "All 2 files of the repository have an active owner."
        );
        assert_eq!(
            coverage_sentence(0, 3),
            "None of the 3 files of the repository has an active owner."
        );
    }
}
