//! `format = "maintainers-text"`: a plain-text `MAINTAINERS` file as
//! Docker-, Go- and Linux-style projects write it, one person a line:
//!
//! ```text
//! # Reviewers
//! Ada Lovelace <ada@example.com> (@ada) pkg/engine
//! Bob Babbage, Engines Ltd <bob@example.com> (github: @bob, slack: bob)
//! Carol Hopper <carol@example.com> (carol@)
//! ```
//!
//! or as blocks: a name, then indented `Key: value` lines under it
//! (`Email: ...`, `GitHub username: @login`). What makes a group: a `#`
//! comment of a few words (`# Reviewers`), or a line of a few words that
//! ends with a colon (`Emeritus Maintainers:`), whose title gives its
//! members a status as a Markdown heading's would. Under such a label a
//! line that is only a name (`Vladimir Diaz`) is a person without a login:
//! a login is only ever read from `@login`, `login@` or `github: login`,
//! never made from a name. Linux-style files give a section's title line
//! over `M:` (maintainer) and `R:` (reviewer) lines; their other tags
//! (`L:`, `S:`, `F:`...) name no one. A line that holds an e-mail address,
//! an `@login` or a GitHub profile link and is not read as a person is a
//! warning at that line.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use super::SourceRoster;
use super::markdown::{
    After, Drafts, Entry, Membership, Persons, after_login, as_login, is_caption, is_name,
    status_marker, token_in_text,
};
use crate::diagnostic::{Code, Diagnostic, Place, SourceFile};
use crate::people::check_login;

/// Reads the plain-text MAINTAINERS file at `path`.
pub(super) fn read(path: &Path, display: &str) -> Result<SourceRoster, Vec<Diagnostic>> {
    let file = crate::files::tree::read_lines_file(path, display)?;
    Ok(parse(file))
}

/// Reads the plain-text MAINTAINERS file `file`.
pub(super) fn parse(file: Arc<SourceFile>) -> SourceRoster {
    let mut reader = Reader {
        drafts: Drafts::new(&file),
        persons: Persons::default(),
        warnings: Vec::new(),
        label: None,
        block: None,
        section: None,
        listed: HashMap::new(),
        file: Arc::clone(&file),
    };
    let mut offset = 0;
    for line in file.text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        reader.line(content, start);
    }
    reader.finish()
}

/// A person whose indented `Key: value` lines may follow.
struct Block {
    indent: usize,
    entry: Entry,
    fields: Vec<(String, String)>,
    range: Range<usize>,
    group: usize,
}

struct Reader {
    file: Arc<SourceFile>,
    drafts: Drafts,
    persons: Persons,
    warnings: Vec<Diagnostic>,
    /// The group a label line or header comment made, if any.
    label: Option<usize>,
    block: Option<Block>,
    /// The line before, when it may be the title of a Linux-style section.
    section: Option<(String, Range<usize>)>,
    /// Who is in which group, and the line of their first listing.
    listed: HashMap<(usize, usize), usize>,
}

impl Reader {
    fn line(&mut self, content: &str, start: usize) {
        let trimmed = content.trim();
        let indent = content.len() - content.trim_start().len();
        let lead = start + indent;
        let range = lead..lead + trimmed.len();
        if trimmed.is_empty() {
            self.flush();
            self.section = None;
            return;
        }
        if let Some(comment) = trimmed.strip_prefix('#') {
            self.flush();
            if let Some(title) = header(comment) {
                self.label = Some(self.drafts.label(&title, range));
            }
            return;
        }
        if let Some(block) = &self.block
            && indent > block.indent
            && let Some((key, value)) = trimmed.split_once(':')
            && key.split_whitespace().count() <= 3
        {
            let (key, value) = (key.trim().to_string(), value.trim().to_string());
            return self.field(&key, &value, range);
        }
        if let Some((tag, rest)) = linux_tag(trimmed) {
            return self.tagged(tag, rest, lead + trimmed.len() - rest.len(), range);
        }
        if trimmed.len() >= 3 && trimmed.chars().all(|c| c == '-' || c == '=') {
            return self.underline();
        }
        self.flush();
        if let Some(title) = colon_label(trimmed).filter(|_| indent == 0) {
            if !is_caption(&title) {
                self.label = Some(self.drafts.label(&title, range));
            }
            return;
        }
        if let Some((key, _)) = trimmed.split_once(':')
            && key.split_whitespace().count() <= 3
            && ["github", "mail"]
                .iter()
                .any(|k| key.to_lowercase().contains(k))
        {
            let why = format!("this `{}:` line has no person's name above it", key.trim());
            return self.warn(range, &why);
        }
        let group = self.label.unwrap_or_else(|| self.drafts.current());
        match person(trimmed, lead) {
            Line::Person(entry) => self.start_block(indent, entry, range, group),
            Line::Unreadable(at, why) => self.warn(at, &why),
            Line::Other => self.other(trimmed, indent, range, group),
        }
    }

    /// A line that is no `Name <email> (@login)`: a name alone (a person
    /// under a label, else the start of a block of fields), a section's
    /// title, or a line that names someone it cannot read (a warning).
    fn other(&mut self, trimmed: &str, indent: usize, range: Range<usize>, group: usize) {
        // The title of a Linux-style section, if tagged lines follow.
        self.section = Some((trimmed.to_string(), range.clone()));
        match (name_only(trimmed), token_in_text(trimmed)) {
            (Some(entry), None) if self.label.is_some() => {
                self.start_block(indent, entry, range, group);
            }
            // A name on its own line, followed by indented fields.
            (Some(entry), None) => {
                self.block = Some(Block {
                    indent,
                    entry,
                    fields: Vec::new(),
                    range,
                    group: usize::MAX,
                });
            }
            (_, Some(token)) => {
                let why = format!("this line names `{token}`, but is not read as a person");
                self.warn(range, &why);
            }
            (None, None) => {}
        }
    }

    /// `----` or `====` under a line: that line is a heading, so a group
    /// (not a person, nor a section title).
    fn underline(&mut self) {
        let title = match (self.block.take(), self.section.take()) {
            (Some(block), _) => Some((
                self.file.text[block.range.clone()].trim().to_string(),
                block.range,
            )),
            (None, section) => section,
        };
        if let Some((title, range)) = title {
            self.label = Some(self.drafts.label(&title, range));
        }
    }

    /// A Linux-style tagged line: `M:` (maintainer) and `R:` (reviewer)
    /// name people, in the group the section's title line makes; the other
    /// tags (`L:` mailing list, `F:` files, `S:` status...) name no one.
    fn tagged(&mut self, tag: char, rest: &str, at: usize, range: Range<usize>) {
        // A name-only line right above tagged lines is their section's
        // title (`ACPI`), not a person.
        let title = self
            .block
            .take_if(|b| b.entry.login.is_none() && b.entry.email.is_none() && b.fields.is_empty());
        if let Some(block) = title {
            let text = self.file.text[block.range.clone()].trim().to_string();
            self.section = Some((text, block.range));
        }
        self.flush();
        let role = match tag {
            'M' => "maintainer",
            'R' => "reviewer",
            _ => return,
        };
        if let Some((title, title_at)) = self.section.take() {
            self.label = Some(self.drafts.label(&title, title_at));
        }
        let group = self.label.unwrap_or_else(|| self.drafts.current());
        let entry = match person(rest, at) {
            Line::Person(entry) => Some(entry),
            Line::Unreadable(at, why) => return self.warn(at, &why),
            // `M: nic_swsd@realtek.com`: a person known by an address.
            Line::Other => is_address(rest).then(|| Entry {
                name: Some(rest.to_string()),
                email: Some(rest.to_string()),
                ..Entry::default()
            }),
        };
        match entry {
            Some(mut entry) => {
                entry.role.get_or_insert_with(|| role.to_string());
                self.start_block(usize::MAX, entry, range, group);
            }
            None => {
                if let Some(token) = token_in_text(rest) {
                    let why = format!("this line names `{token}`, but is not read as a person");
                    self.warn(range, &why);
                }
            }
        }
    }

    fn start_block(&mut self, indent: usize, entry: Entry, range: Range<usize>, group: usize) {
        self.block = Some(Block {
            indent,
            entry,
            fields: Vec::new(),
            range,
            group,
        });
    }

    /// An indented `Key: value` line of the person above it.
    fn field(&mut self, key: &str, value: &str, at: Range<usize>) {
        let lower = key.to_lowercase();
        let Some(block) = &mut self.block else { return };
        if lower.contains("github") {
            match as_login(value).filter(|_| !value.contains(' ')) {
                Some(login) => {
                    block.entry.login.get_or_insert((login.to_string(), at));
                }
                None => {
                    let why = format!("`{value}` is not a GitHub login");
                    self.warn(at, &why);
                }
            }
        } else if lower.contains("mail") {
            block.entry.email.get_or_insert(value.to_string());
        } else if !value.is_empty() {
            block
                .fields
                .push((super::markdown::field_key(key), value.to_string()));
        }
    }

    /// Adds the person whose block ends here. A name-only line before any
    /// label is kept only when its block gave it a login or an e-mail.
    fn flush(&mut self) {
        let Some(block) = self.block.take() else {
            return;
        };
        let group = match block.group {
            usize::MAX if block.entry.login.is_none() && block.entry.email.is_none() => return,
            usize::MAX => self.label.unwrap_or_else(|| self.drafts.current()),
            group => group,
        };
        let place = Place::new(&self.file, block.range.clone());
        let line = place.line();
        let status = block.entry.status;
        let role = block.entry.role.clone();
        let person = self.persons.add(block.entry, &place);
        let membership = Membership {
            person,
            status,
            role,
            fields: block.fields,
            place,
        };
        let first = match self.listed.get(&(group, person)) {
            Some(&first) => Some(first),
            None => {
                self.listed.insert((group, person), line);
                self.drafts.add(group, membership)
            }
        };
        if let Some(first) = first {
            let who = self.persons.shown(person);
            let title = self.drafts.title(group).to_string();
            let warning = Diagnostic::warning(
                Code::Duplicate,
                format!("{who} is listed twice in the group `{title}`"),
            )
            .in_file(&self.file, block.range)
            .with_note(format!("first listed on line {first}"));
            self.warnings.push(warning);
        }
    }

    fn warn(&mut self, at: Range<usize>, why: &str) {
        let warning = Diagnostic::warning(Code::UnreadEntry, why)
            .in_file(&self.file, at)
            .with_label("not read as a person")
            .with_help("write it as `Name <email> (@login)`, one person a line");
        self.warnings.push(warning);
    }

    fn finish(mut self) -> SourceRoster {
        self.flush();
        let (people, by_index) = self.persons.finish();
        let groups = self.drafts.finish(&by_index);
        SourceRoster {
            files: vec![self.file],
            people,
            groups,
            warnings: self.warnings,
        }
    }
}

/// `Reviewers` in `# Reviewers`: a comment of one to five words, not a
/// sentence (no full stop, no e-mail or login in it).
fn header(comment: &str) -> Option<String> {
    let title = comment.trim().trim_end_matches(':').trim();
    let words = title.split_whitespace().count();
    let plain = !title.contains(['.', '@', '<', '(', ',', '=', '"']);
    ((1..=5).contains(&words) && plain && title.chars().any(char::is_alphabetic))
        .then(|| title.to_string())
}

/// `Emeritus Maintainers` in `Emeritus Maintainers:`: a line of one to
/// five words that ends with a colon.
pub(super) fn colon_label(line: &str) -> Option<String> {
    let title = line.strip_suffix(':')?.trim();
    let words = title.split_whitespace().count();
    let plain = !title.contains([':', '@', '<', '(', '.', ',']);
    ((1..=5).contains(&words) && plain).then(|| title.to_string())
}

/// `M:\tName <email>`: a Linux-style tag (one capital letter and a
/// colon before white space) and the rest of the line.
fn linux_tag(line: &str) -> Option<(char, &str)> {
    let mut chars = line.chars();
    let tag = chars.next().filter(char::is_ascii_uppercase)?;
    let rest = chars.as_str().strip_prefix(':')?;
    rest.starts_with([' ', '\t']).then(|| (tag, rest.trim()))
}

/// Whether `text` is one e-mail address.
fn is_address(text: &str) -> bool {
    text.split_once('@').is_some_and(|(user, domain)| {
        !user.is_empty() && domain.contains('.') && !text.contains(char::is_whitespace)
    })
}

/// What a line is.
#[derive(Debug)]
enum Line {
    Person(Entry),
    Unreadable(Range<usize>, String),
    Other,
}

/// One line as a person: `Name[, Company] <email>... (logins) [scope]`.
/// It must hold an `<email>`, an `@login` or a `login@`.
fn person(line: &str, start: usize) -> Line {
    let mut entry = Entry::default();
    // The name: everything before the first `<`, `(` or `@login`.
    let name_end = line
        .char_indices()
        .find(|&(i, c)| c == '<' || c == '(' || (c == '@' && is_login_at(line, i)))
        .map_or(line.len(), |(i, _)| i);
    let mut rest = &line[name_end..];
    let mut at = start + name_end;
    let mut tail = String::new();
    let mut saw_token = false;
    while !rest.is_empty() {
        let c = rest.chars().next().unwrap_or(' ');
        let (consumed, read) = match c {
            '<' => match rest.find('>') {
                Some(close) if is_address(&rest[1..close]) => {
                    entry
                        .email
                        .get_or_insert_with(|| rest[1..close].to_string());
                    (close + 1, true)
                }
                _ => (1, false),
            },
            '(' => {
                let close = rest.find(')').unwrap_or(rest.len());
                let inner = &rest[1..close];
                match parenthesis(inner, at + 1, &mut entry) {
                    Ok(true) => ((close + 1).min(rest.len()), true),
                    Ok(false) => (1, false),
                    Err(problem) => return problem,
                }
            }
            '@' if is_login_at(line, line.len() - rest.len()) => {
                let word = login_word(&rest[1..]);
                entry
                    .login
                    .get_or_insert((word.to_string(), at..at + 1 + word.len()));
                (1 + word.len(), true)
            }
            _ => (c.len_utf8(), false),
        };
        saw_token |= read;
        if !read {
            tail.push_str(&rest[..consumed]);
        }
        at += consumed;
        rest = &rest[consumed..];
    }
    if !saw_token || (entry.login.is_none() && entry.email.is_none()) {
        return Line::Other;
    }
    let name = line[..name_end]
        .trim()
        .trim_start_matches(['-', '*', ' '])
        .trim_matches('"')
        .trim_end_matches([',', '-', ':'])
        .trim();
    // `Name, Company <email>`: the company after the comma.
    let (name, company) = match name.split_once(',') {
        Some((name, company)) if !company.trim().is_empty() => (name.trim(), Some(company.trim())),
        _ => (name, None),
    };
    if let Some(status) = status_marker(name) {
        entry.status.get_or_insert(status);
    }
    if !name.is_empty() {
        entry.name = Some(name.to_string());
    }
    if let Some(company) = company {
        entry.affiliation.get_or_insert(company.to_string());
    }
    read_tail(&mut entry, &tail);
    Line::Person(entry)
}

/// What follows a person's tokens on their line (`(@ada), Acme`, `(@ada) -
/// Lead`), read as the Markdown reader reads it; anything else is their
/// scope, kept as the role (`pkg/engine`).
fn read_tail(entry: &mut Entry, tail: &str) {
    let tail = tail.split_whitespace().collect::<Vec<_>>().join(" ");
    // `(@ada), Acme`, `(@ada) - Lead`: as the Markdown reader reads them.
    match after_login(&tail) {
        After::Affiliation(company) => match &mut entry.affiliation {
            // `Name, Acme <email> (@ada), Labs`: both are kept.
            Some(first) => {
                first.push_str(", ");
                first.push_str(&company);
            }
            None => entry.affiliation = Some(company),
        },
        After::Role(role) => entry.role = Some(role),
        After::Status(status) => entry.status = entry.status.or(Some(status)),
        After::Other => {
            let tail = tail.trim_matches(|c: char| c.is_whitespace() || ",;-–—".contains(c));
            if !tail.is_empty() {
                entry.role = Some(tail.to_string());
            }
        }
    }
}

/// Whether the `@` at `at` starts a login: at the start of a word and
/// followed by one (not `@org/team`).
fn is_login_at(text: &str, at: usize) -> bool {
    let before = text[..at].chars().next_back();
    if before.is_some_and(|c| c.is_alphanumeric() || c == '.') {
        return false;
    }
    let after = &text[at + 1..];
    let word = login_word(after);
    !word.is_empty() && !after[word.len()..].starts_with('/') && check_login(word).is_ok()
}

/// The login-like word at the start of `text`.
fn login_word(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// What is in parentheses: `@login`, `login@`, `github: @login, slack: x`,
/// an e-mail address, a status (`emeritus`), else an affiliation
/// (`(NYU, Datadog)`). `Ok(false)` when it is none of these (kept as text).
fn parenthesis(inner: &str, start: usize, entry: &mut Entry) -> Result<bool, Line> {
    if let Some(status) = status_marker(inner) {
        entry.status.get_or_insert(status);
        return Ok(true);
    }
    let mut read = false;
    let mut offset = 0;
    let mut others = Vec::new();
    for part in inner.split(',') {
        let at = start + offset + (part.len() - part.trim_start().len());
        offset += part.len() + 1;
        let part = part.trim();
        let (key, value) = match part.split_once(':') {
            Some((key, value)) if !key.contains(' ') || key.split_whitespace().count() <= 2 => {
                (Some(key.trim().to_lowercase()), value.trim())
            }
            _ => (None, part),
        };
        let range = at..at + part.len();
        let login = match (&key, value) {
            (Some(key), value) if key.contains("github") => {
                let login = value.strip_prefix('@').unwrap_or(value);
                if check_login(login).is_err() {
                    let why = format!("`{value}` is not a GitHub login");
                    return Err(Line::Unreadable(range, why));
                }
                Some(login)
            }
            (Some(_), _) => None,
            (None, value) => match (value.strip_prefix('@'), value.strip_suffix('@')) {
                (Some(login), _) | (None, Some(login)) if check_login(login).is_ok() => Some(login),
                _ => None,
            },
        };
        if let Some(login) = login {
            entry.login.get_or_insert((login.to_string(), range));
            read = true;
        } else if key.is_none()
            && value.contains('@')
            && value.contains('.')
            && !value.contains(' ')
        {
            entry.email.get_or_insert(value.to_string());
            read = true;
        } else if key.is_some() {
            // `slack: name`: another account, kept out of the name.
            read = true;
        } else if !value.is_empty() {
            others.push(value);
        }
    }
    if !read && !others.is_empty() && entry.affiliation.is_none() && entry.login.is_none() {
        entry.affiliation = Some(others.join(", "));
        return Ok(true);
    }
    Ok(read)
}

/// A line that is only a name (`Vladimir Diaz`, `Trishank Kuppusamy (NYU)`):
/// a person without a login, under a label.
fn name_only(line: &str) -> Option<Entry> {
    let (name, aside) = match line.split_once('(') {
        Some((name, aside)) if aside.ends_with(')') => {
            (name.trim(), Some(&aside[..aside.len() - 1]))
        }
        Some(_) => return None,
        None => (line.trim(), None),
    };
    if !is_name(name) {
        return None;
    }
    let mut entry = Entry {
        name: Some(name.to_string()),
        ..Entry::default()
    };
    if let Some(aside) = aside.map(str::trim).filter(|a| !a.is_empty()) {
        match status_marker(aside) {
            Some(status) => entry.status = Some(status),
            None => entry.affiliation = Some(aside.to_string()),
        }
    }
    Some(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> SourceRoster {
        parse(Arc::new(SourceFile::new("MAINTAINERS".into(), text.into())))
    }

    fn summary(roster: &SourceRoster) -> Vec<String> {
        let mut lines = Vec::new();
        for group in &roster.groups {
            for member in &group.group.members {
                let person = &roster.people[member.person];
                lines.push(format!(
                    "{}: {} {:?} {:?} {:?}",
                    group.group.title, person.name, person.github, person.email, member.status
                ));
            }
        }
        lines
    }

    #[test]
    fn docker_style_lines() {
        let roster = read(
            "# Maintainers\nAda Lovelace <ada@example.com> (@ada) pkg/engine\n\
             Bob B, Engines <bob@example.com> (github: @bob, slack: bob)\n\n# Reviewers\n\
             Carol <carol@example.com> (carol@)\n",
        );
        assert_eq!(
            summary(&roster),
            [
                "Maintainers: Ada Lovelace Some(\"ada\") Some(\"ada@example.com\") None",
                "Maintainers: Bob B Some(\"bob\") Some(\"bob@example.com\") None",
                "Reviewers: Carol Some(\"carol\") Some(\"carol@example.com\") None",
            ]
        );
        assert_eq!(roster.people[1].affiliation.as_deref(), Some("Engines"));
        assert!(roster.warnings.is_empty());
    }

    /// Issue 38, 12: what follows the login is kept as a reader takes it.
    #[test]
    fn an_affiliation_or_role_after_the_login_is_kept() {
        let roster = read(
            "Alice Smith (@alice), Acme\nBob Jones (@bob) - Lead\nCarl Doe (@carl) — Lead\n\
             Dan Roe <dan@example.com> (@dan), Approver\nEve Moe (@eve), Emeritus\n",
        );
        let affiliations: Vec<_> = (roster.people.iter())
            .map(|p| p.affiliation.as_deref())
            .collect();
        assert_eq!(affiliations, [Some("Acme"), None, None, None, None]);
        let members = &roster.groups[0].group.members;
        let roles: Vec<_> = members.iter().map(|m| m.role.as_deref()).collect();
        assert_eq!(
            roles,
            [None, Some("Lead"), Some("Lead"), Some("Approver"), None]
        );
        assert_eq!(members[4].status.as_deref(), Some("emeritus"));
    }

    #[test]
    fn indented_blocks_and_names_only() {
        let roster = read(
            "Maintainers:\n\n  Marina Moore\n    Email: mm@example.com\n    GitHub username: @mnm678\n\n\
             Emeritus Maintainers:\n\n  Vladimir Diaz\n  Trishank Kuppusamy (NYU, Datadog)\n",
        );
        assert_eq!(
            summary(&roster),
            [
                "Maintainers: Marina Moore Some(\"mnm678\") Some(\"mm@example.com\") None",
                "Emeritus Maintainers: Vladimir Diaz None None Some(\"emeritus\")",
                "Emeritus Maintainers: Trishank Kuppusamy None None Some(\"emeritus\")",
            ]
        );
        assert_eq!(
            roster.people[2].affiliation.as_deref(),
            Some("NYU, Datadog")
        );
    }

    #[test]
    fn prose_is_not_people_but_a_stray_login_is_a_warning() {
        let roster = read(
            "The maintainers are on Slack.\nFor convenience, they are in the team\n\
             @org/maintainers -- keep it in sync.\nIn alphabetical order:\n\n\
             Ada <ada@example.com> (@ada)\nWrite to maintainers@example.org with questions.\n",
        );
        assert_eq!(roster.people.len(), 1);
        assert_eq!(roster.warnings.len(), 1, "{:?}", roster.warnings);
        assert_eq!(roster.warnings[0].code, Code::UnreadEntry);
    }

    #[test]
    fn linux_style_sections_and_tags() {
        let roster = read(
            "List of maintainers\n===================\n\n\
             3C59X NETWORK DRIVER\nM:\tSteffen Klassert <klassert@kernel.org>\n\
             L:\tnetdev@vger.kernel.org\nS:\tOdd Fixes\n\n\
             ACPI\nM:\t\"Rafael J. Wysocki\" <rafael@kernel.org>\nR:\tLen Brown <lenb@kernel.org>\n\
             M:\tnic_swsd@realtek.com\n",
        );
        assert_eq!(
            summary(&roster),
            [
                "3C59X NETWORK DRIVER: Steffen Klassert None Some(\"klassert@kernel.org\") None",
                "ACPI: Rafael J. Wysocki None Some(\"rafael@kernel.org\") None",
                "ACPI: Len Brown None Some(\"lenb@kernel.org\") None",
                "ACPI: nic_swsd@realtek.com None Some(\"nic_swsd@realtek.com\") None",
            ]
        );
        assert!(roster.warnings.is_empty(), "{:?}", roster.warnings);
    }

    #[test]
    fn bad_logins_are_warnings() {
        let roster = read("Ada <ada@example.com> (github: not/alogin)\n");
        assert!(roster.people.is_empty());
        assert_eq!(roster.warnings.len(), 1);
    }
}
