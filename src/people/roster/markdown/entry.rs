//! One person as a Markdown people file writes them in a list item or a
//! table cell: `Name (@login)`, `Name <email> @login`,
//! `[Name](https://github.com/login), Company`, `- @login`,
//! `[login](url) - **Name**`, `Name ([login](url)) (email)`, `Name (nick)`,
//! or a bare `Name`. A GitHub login comes only from an `@login` or a
//! `github.com/LOGIN` profile link (or, in a table, a column that says it
//! holds logins, see `table.rs`).

use std::ops::Range;

use super::blocks::{Piece, plain};
use super::status::status_marker;
use crate::people::check_login;

/// A person read from an entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry {
    /// The name as written.
    pub name: Option<String>,
    /// The GitHub login as written, and where.
    pub login: Option<(String, Range<usize>)>,
    /// A nickname in parentheses that is not a GitHub login (`(matz)`).
    pub nick: Option<String>,
    pub email: Option<String>,
    pub affiliation: Option<String>,
    /// What follows ` - ` (`Chair`).
    pub role: Option<String>,
    /// A status marked on the entry itself: `(emeritus)`, `~~Name~~`.
    pub status: Option<&'static str>,
}

/// What an entry is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read {
    /// A person.
    Person(Entry),
    /// Not a person: prose, a placeholder, a link to a site or repository.
    NotAPerson,
    /// Looks like a person, but cannot be read: where, and why.
    Unreadable(Range<usize>, String),
}

/// A problem worth a warning beside a person that was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The link.
    pub range: Range<usize>,
    /// The login the link's text names.
    pub text: String,
    /// The login its URL names, which is used.
    pub url: String,
}

/// What a link points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A GitHub profile: the login as the URL spells it.
    Profile(String),
    /// A GitHub team: `org/team`.
    Team(String),
    /// An e-mail address.
    Email(String),
    /// A GitHub URL that is no profile (a repository, an organisation's
    /// page) or any other site.
    Elsewhere,
    /// A github.com URL whose first segment is no login.
    BadProfile(String),
}

/// Paths of github.com that are not users.
const NOT_USERS: &[&str] = &[
    "about",
    "apps",
    "collections",
    "contact",
    "enterprise",
    "explore",
    "features",
    "issues",
    "login",
    "marketplace",
    "notifications",
    "orgs",
    "pricing",
    "pulls",
    "search",
    "settings",
    "sponsors",
    "topics",
    "trending",
];

/// What `url` points at.
pub fn target(url: &str, email: bool) -> Target {
    if email {
        return Target::Email(url.to_string());
    }
    if let Some(address) = url.strip_prefix("mailto:") {
        return Target::Email(address.to_string());
    }
    let lower = url.to_ascii_lowercase();
    let Some(path) = ["https://", "http://"]
        .iter()
        .find_map(|scheme| lower.strip_prefix(scheme))
        .and_then(|rest| rest.strip_prefix("www.").or(Some(rest)))
        .and_then(|rest| rest.strip_prefix("github.com/"))
    else {
        return Target::Elsewhere;
    };
    // The path as written (case kept), without query or fragment.
    let written = &url[url.len() - path.len()..];
    let written = written.split(['?', '#']).next().unwrap_or("");
    let segments: Vec<&str> = written.split('/').filter(|s| !s.is_empty()).collect();
    match segments.as_slice() {
        ["orgs", org, "teams", team] => Target::Team(format!("{org}/{team}")),
        [login] if NOT_USERS.contains(&login.to_ascii_lowercase().as_str()) => Target::Elsewhere,
        [login] if check_login(login).is_ok() => Target::Profile(login.to_string()),
        [login] => Target::BadProfile(login.to_string()),
        _ => Target::Elsewhere,
    }
}

/// The account a link to a profile on another site names: its text is
/// one login-like word and the last segment of its URL.
fn account_elsewhere<'a>(text: &'a str, url: &str) -> Option<&'a str> {
    let text = text.trim().trim_start_matches('@');
    let (_, rest) = url.split_once("://")?;
    let mut segments = rest
        .split(['?', '#'])
        .next()?
        .split('/')
        .filter(|s| !s.is_empty());
    let host = segments.next()?.to_ascii_lowercase();
    let account = segments.next()?.trim_start_matches('@');
    let one_segment = segments.next().is_none();
    let github = host == "github.com" || host.ends_with(".github.com");
    (one_segment && !github && check_login(text).is_ok() && account.eq_ignore_ascii_case(text))
        .then_some(text)
}

/// Placeholders that stand where a person would: not a person, no warning.
pub fn is_placeholder(text: &str) -> bool {
    let text = text.trim_matches(|c: char| c.is_whitespace() || "*_`~".contains(c));
    let lower = text.to_lowercase();
    // `need-a-documentarian`, `Maintainer WANTED`, `looking for help`.
    let wanted =
        lower.starts_with("need") || lower.contains("wanted") || lower.contains("looking for");
    wanted
        || matches!(
            lower.as_str(),
            "" | "?"
                | "-"
                | "—"
                | "–"
                | "none"
                | "n/a"
                | "na"
                | "tbd"
                | "tba"
                | "vacant"
                | "open"
                | "to be filled"
                | "to be determined"
                | "unmaintained"
                | "nobody"
        )
}

/// Words that may stand lower-case in a name.
const PARTICLES: &[&str] = &[
    "al", "bin", "da", "de", "del", "della", "den", "der", "di", "du", "e", "la", "le", "van",
    "von", "y", "zu",
];

/// Whether `text` reads as a person's name: one to six words, each
/// capitalised (or a particle such as `van`), of letters, `.`, `'` and
/// `-` only. Prose such as `API change needs approval` is not.
pub fn is_name(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    (1..=6).contains(&words.len())
        && words.iter().all(|word| {
            // `NARUSE, Yui`: a comma may end a word.
            let word = word.strip_suffix(',').unwrap_or(word);
            let letters = word
                .chars()
                .all(|c| c.is_alphabetic() || matches!(c, '.' | '\'' | '’' | '-'));
            // Scripts without case (Chinese, Japanese...) count as capitals.
            let capital = word
                .chars()
                .next()
                .is_some_and(|c| c.is_uppercase() || (c.is_alphabetic() && !c.is_lowercase()));
            letters && (capital || PARTICLES.contains(&word))
        })
}

/// `text` without a status marker in parentheses at its start or end
/// (`(emeritus) Name`, `Name (retired)`), and the status it gives.
fn without_marker(text: &str) -> (Option<&'static str>, &str) {
    let trimmed = text.trim();
    if let Some(rest) = trimmed.strip_prefix('(')
        && let Some((inner, after)) = rest.split_once(')')
        && let Some(status) = status_marker(inner)
    {
        return (Some(status), after.trim());
    }
    if let Some(rest) = trimmed.strip_suffix(')')
        && let Some((before, inner)) = rest.rsplit_once('(')
        && let Some(status) = status_marker(inner)
    {
        return (Some(status), before.trim());
    }
    (None, text)
}

/// What follows a dash before it: ` - Lead`, ` – Lead`, ` — Lead` (a
/// hyphen, an en dash or an em dash, then a space) give `Lead`.
pub fn strip_dash(text: &str) -> Option<&str> {
    ["- ", "– ", "— "]
        .iter()
        .find_map(|dash| text.strip_prefix(dash))
}

/// What the text after a person's login says, as a reader takes it: after
/// a comma an affiliation (`, Acme`), unless it is a role (`, Approver`)
/// or a status (`, Emeritus`); after a dash (see [`strip_dash`]) a role,
/// or a status (`- retired`). Anything else is `Other` (a scope such as
/// `pkg/engine`, kept by the caller).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum After {
    Affiliation(String),
    Role(String),
    Status(&'static str),
    Other,
}

/// Reads the text after a person's login (see [`After`]).
pub fn after_login(tail: &str) -> After {
    let tail = tail.trim();
    let (value, comma) = match (tail.strip_prefix(','), strip_dash(tail)) {
        (Some(value), _) => (clean(value), true),
        (None, Some(value)) => (clean(value), false),
        (None, None) => return After::Other,
    };
    if value.is_empty() {
        return After::Other;
    }
    match status_marker(&value) {
        Some(status) => After::Status(status),
        None if comma && !is_role(&value) => After::Affiliation(value),
        None => After::Role(value),
    }
}

/// Whether `text` names a role in a project (`Approver`, `Core
/// Maintainer`, `TSC Chair`): at most three words, the last a role's.
pub fn is_role(text: &str) -> bool {
    const ROLES: &[&str] = &[
        "maintainer",
        "maintainers",
        "approver",
        "approvers",
        "reviewer",
        "reviewers",
        "committer",
        "committers",
        "member",
        "lead",
        "chair",
        "owner",
        "triager",
        "admin",
        "contributor",
        "author",
        "creator",
        "founder",
    ];
    let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    (1..=3).contains(&words.len()) && words.last().is_some_and(|w| ROLES.contains(&w.as_str()))
}

/// Whether `text` reads as a name written without capitals (`katelyn
/// martin`): one to four words of letters, `.`, `'` and `-`.
pub fn is_loose_name(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    (1..=4).contains(&words.len())
        && words.iter().all(|word| {
            word.chars().any(char::is_alphabetic)
                && word
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '.' | '\'' | '’' | '-'))
        })
}

/// The login a profile link's text names: `[@ada](...)`, `[ada](...)`;
/// not the site's name (`[GitHub](https://github.com/ada)`).
pub fn login_in_link_text(text: &str) -> Option<String> {
    let login = as_login(text)?;
    (!is_site_name(text) || text.trim().starts_with('@')).then(|| login.to_string())
}

/// Whether a link's text names the site or the kind of page rather than
/// the person (`GitHub`, `Profile`, `Twitter`).
fn is_site_name(text: &str) -> bool {
    let lower = text.trim().to_lowercase();
    [
        "github", "gh", "profile", "twitter", "linkedin", "website", "homepage", "blog", "x",
        "mastodon", "web",
    ]
    .contains(&lower.as_str())
}

/// Whether `text` is one GitHub login as written (`@` allowed before it).
pub fn as_login(text: &str) -> Option<&str> {
    let text = text.trim().trim_matches('`').trim();
    let login = text.strip_prefix('@').unwrap_or(text);
    check_login(login).ok().map(|()| login)
}

/// The GitHub teams `pieces` mention: `@org/team` and team links.
pub fn teams_in(pieces: &[Piece]) -> Vec<String> {
    let mut teams = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Link { url, email, .. } => {
                if let Target::Team(team) = target(url, *email) {
                    teams.push(team);
                }
            }
            Piece::Text(text, _) => {
                for (at, _) in text.match_indices('@') {
                    let before = text[..at].chars().next_back();
                    if before.is_some_and(|c| c.is_alphanumeric()) {
                        continue;
                    }
                    let word: String = text[at + 1..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '/'))
                        .collect();
                    // Checked where they are claimed: a bad one is a warning.
                    if word.contains('/') {
                        teams.push(word.clone());
                    }
                }
            }
            _ => {}
        }
    }
    teams
}

/// Reads one entry. `mismatches` gets each link whose text names another
/// login than its URL; `teams` each `@org/team` or team link.
pub fn read(pieces: &[Piece], mismatches: &mut Vec<Mismatch>, teams: &mut Vec<String>) -> Read {
    let text = plain(pieces);
    if is_placeholder(&text) {
        return Read::NotAPerson;
    }
    if let Some(unreadable) = hidden_in_login(pieces) {
        return unreadable;
    }
    let mut reader = Reader::default();
    for piece in pieces {
        reader.piece(piece, mismatches, teams);
    }
    reader.finish(&text)
}

/// An invisible or control character in or right after an `@login`
/// (`@ali<U+200B>ce`, `@car<NUL>ol`): the login would be cut short at it and
/// name another account, so the entry is not read, and says why.
fn hidden_in_login(pieces: &[Piece]) -> Option<Read> {
    let hidden = |c: char| crate::unicode::is_invisible(c) || (c.is_control() && c != '\t');
    for piece in pieces {
        let (Piece::Text(text, range)
        | Piece::Strong(text, range)
        | Piece::Link { text, range, .. }) = piece
        else {
            continue;
        };
        for (at, _) in text.match_indices('@') {
            let rest = &text[at + 1..];
            let login = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'));
            let Some(end) = login.filter(|&end| end > 0) else {
                continue;
            };
            let Some(c) = rest[end..].chars().next().filter(|&c| hidden(c)) else {
                continue;
            };
            let why = format!(
                "`@{}` is followed by an invisible character (U+{:04X}), which would cut the login short; write the login without it",
                &rest[..end],
                c as u32
            );
            return Some(Read::Unreadable(range.clone(), why));
        }
    }
    None
}

/// How far a bracket's closing `)`, `>` or `]` is looked for: what is worth
/// reading between brackets in an entry (a status, an e-mail address, a
/// nickname) is short, and a line of thousands of `(` must cost linear
/// time, not a search to its end from each (issue 38, 5).
const BRACKET_WINDOW: usize = 256;

/// The start of `text` that a closing bracket is looked for in.
fn near(text: &str) -> &str {
    let mut end = text.len().min(BRACKET_WINDOW);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The state of [`read`].
#[derive(Default)]
struct Reader {
    entry: Entry,
    /// Text before the first login, link or parenthesis: the name.
    lead: String,
    lead_done: bool,
    /// Text after the person's login or link.
    tail: String,
    strong: Option<String>,
    /// A link's text that is a name (`[Owais Lone](https://github.com/owais)`).
    link_name: Option<String>,
    saw_link_elsewhere: bool,
    /// Whether the login was read from `(@login)`.
    login_in_parentheses: bool,
    /// A code span: `` `cmd` `` names a part of the code, not a person.
    saw_code: bool,
    problem: Option<(Range<usize>, String)>,
}

impl Reader {
    fn piece(&mut self, piece: &Piece, mismatches: &mut Vec<Mismatch>, teams: &mut Vec<String>) {
        match piece {
            Piece::Link {
                text,
                url,
                email,
                range,
            } => self.link(text, url, *email, range, mismatches, teams),
            Piece::Strong(text, _) => {
                self.strong.get_or_insert_with(|| text.trim().to_string());
            }
            Piece::Text(text, range) => self.text(text, range, teams),
            Piece::Code(text, range) => {
                // A login in backticks counts only in a login column.
                self.saw_code = true;
                self.text(text, range, teams)
            }
            Piece::Break => self.tail.push_str("; "),
            Piece::Strike => self.entry.status = self.entry.status.or(Some("emeritus")),
        }
    }

    fn link(
        &mut self,
        text: &str,
        url: &str,
        email: bool,
        range: &Range<usize>,
        mismatches: &mut Vec<Mismatch>,
        teams: &mut Vec<String>,
    ) {
        self.lead_done = true;
        if url.trim().is_empty() {
            self.problem = Some((range.clone(), "a link without a URL".into()));
            return;
        }
        match target(url, email) {
            Target::Profile(login) => {
                // `[(emeritus) Name](profile)`: a marker in the link's text.
                let (marked, text) = without_marker(text);
                self.entry.status = self.entry.status.or(marked);
                // `[Jaryk](https://github.com/Ugzuzg)`: a capitalised word
                // that is not the URL's login is a name, not another login.
                let trimmed = text.trim();
                let a_name = !trimmed.starts_with('@')
                    && is_name(trimmed)
                    && !trimmed.eq_ignore_ascii_case(&login);
                let named = login_in_link_text(text).filter(|_| !a_name);
                let login = match named {
                    Some(named) if named.eq_ignore_ascii_case(&login) => named,
                    Some(named) => {
                        mismatches.push(Mismatch {
                            range: range.clone(),
                            text: named,
                            url: login.clone(),
                        });
                        login
                    }
                    None => {
                        if is_name(text.trim()) && !is_site_name(text) {
                            self.link_name = Some(text.trim().to_string());
                        }
                        login
                    }
                };
                if self.entry.login.is_none() {
                    self.entry.login = Some((login, range.clone()));
                }
            }
            Target::Team(team) => teams.push(team),
            Target::Email(address) => {
                self.entry.email.get_or_insert(address);
            }
            Target::BadProfile(login) if !is_placeholder(&login) => {
                let why = format!("`{login}` in this GitHub link is not a GitHub login");
                self.problem = Some((range.clone(), why));
            }
            Target::BadProfile(_) => {}
            Target::Elsewhere => {
                // An organisation's site after the person: the affiliation.
                if self.entry.login.is_some() || !self.lead.trim().is_empty() {
                    self.tail.push_str(text);
                } else if let Some(account) = account_elsewhere(text, url) {
                    // `[steward379](https://dribbble.com/steward379)`: a
                    // profile on another site, by the account's name.
                    self.entry.nick = Some(account.to_string());
                    self.entry.name = Some(account.to_string());
                    self.link_name = Some(account.to_string());
                } else {
                    self.saw_link_elsewhere = true;
                }
            }
        }
    }

    fn text(&mut self, text: &str, range: &Range<usize>, teams: &mut Vec<String>) {
        let mut rest = text;
        let mut offset = range.start;
        while !rest.is_empty() {
            let Some(at) = rest.find(['@', '(', '<', '[']) else {
                self.plain(rest);
                return;
            };
            self.plain(&rest[..at]);
            // `andrew@example.com`: an `@` inside a word is no login.
            let in_word = rest[..at].ends_with(|c: char| c.is_alphanumeric() || c == '.');
            if in_word && rest[at..].starts_with('@') {
                self.plain("@");
                offset += at + 1;
                rest = &rest[at + 1..];
                continue;
            }
            let (consumed, token) = self.special(&rest[at..], offset + at, teams);
            if !token {
                self.plain(&rest[at..at + consumed]);
            }
            offset += at + consumed;
            rest = &rest[at + consumed..];
        }
    }

    /// Reads what starts at `text` (`@`, `(`, `<` or `[`); how many bytes it
    /// took, and whether it was read (else they are plain text).
    fn special(&mut self, text: &str, at: usize, teams: &mut Vec<String>) -> (usize, bool) {
        let word_end = text[1..]
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '/' | '.')))
            .map_or(text.len(), |i| i + 1);
        let word = &text[1..word_end];
        match text.as_bytes()[0] {
            b'@' => {
                let word = word.trim_end_matches('.');
                if let Some((org, team)) = word.split_once('/') {
                    teams.push(format!("{org}/{team}"));
                    return (1 + word.len(), true);
                }
                if check_login(word).is_ok() {
                    self.lead_done = true;
                    if self.entry.login.is_none() {
                        self.login_in_parentheses = self.tail.trim_end().ends_with('(');
                        self.entry.login = Some((word.to_string(), at..at + 1 + word.len()));
                    }
                    return (1 + word.len(), true);
                }
                (1, false)
            }
            b'<' => match near(text).find('>') {
                Some(close) if text[1..close].contains('@') && !text[1..close].contains(' ') => {
                    self.entry.email.get_or_insert(text[1..close].to_string());
                    self.lead_done = true;
                    (close + 1, true)
                }
                _ => (1, false),
            },
            b'[' => {
                // `[Name] (url)`: a link the space broke.
                if let Some(close) = near(text).find(']')
                    && text[close + 1..].starts_with(" (")
                {
                    let why = "`[...] (...)` is not a link: remove the space between `]` and `(`";
                    self.problem = Some((at..at + close + 2, why.into()));
                }
                (1, false)
            }
            _ => self.parenthesis(text),
        }
    }

    /// `(nick)`, `(email)`, `(` before a link: read, else text.
    fn parenthesis(&mut self, text: &str) -> (usize, bool) {
        let window = near(text);
        let close = window.find(')');
        let inner_end = close.unwrap_or(window.len());
        let inner = text[1..inner_end].trim();
        if let Some(status) = status_marker(inner).filter(|_| close.is_some()) {
            // `(emeritus) Name`, `Name (retired)`: the name goes on.
            self.entry.status = self.entry.status.or(Some(status));
            return (inner_end + 1, true);
        }
        if inner.is_empty() {
            // `Name ([login](url))`: the link comes next.
            self.lead_done = true;
            return (1, true);
        }
        let closed = close.is_some();
        if closed && inner.contains('@') && !inner.contains(' ') && !inner.starts_with('@') {
            self.entry.email.get_or_insert(inner.to_string());
            self.lead_done = true;
            return ((inner_end + 1).min(text.len()), true);
        }
        if closed && !self.lead_done && check_login(inner).is_ok() && !inner.contains('.') {
            self.entry.nick = Some(inner.to_string());
            self.lead_done = true;
            return ((inner_end + 1).min(text.len()), true);
        }
        // Anything else in parentheses follows the name.
        self.lead_done = true;
        (1, false)
    }

    fn plain(&mut self, text: &str) {
        if self.lead_done {
            self.tail.push_str(text);
        } else {
            self.lead.push_str(text);
        }
    }

    fn finish(mut self, text: &str) -> Read {
        let (lead, represents) = self.lead_and_role();
        self.tail_fields();
        self.roles_and_statuses();
        let name = self.name(&lead);
        self.entry.name = name;
        // A bullet that is one nickname (`* aycabta`): the person by it.
        let whole = clean(text);
        if self.entry.login.is_none()
            && self.entry.name.is_none()
            && whole == lead
            && self.entry.role.is_none()
            && !self.saw_code
            && !text.contains('@')
            && as_login(&whole).is_some()
        {
            self.entry.nick = Some(whole.clone());
            self.entry.name = Some(whole.clone());
        }
        // Only the name, with what was read beside it (an e-mail address,
        // a status marker, what the person represents).
        let rest = clean(self.tail.trim().trim_start_matches(')'));
        let lead_is_name = lead.is_empty() || self.entry.name.as_deref() == Some(lead.as_str());
        let name_alone =
            lead == whole || represents || (rest.is_empty() && lead_is_name && !self.saw_code);
        let person = self.entry.login.is_some()
            || (self.entry.nick.is_some() && self.entry.name.is_some())
            || (self.entry.name.is_some() && name_alone && !self.saw_link_elsewhere);
        match (person, self.problem) {
            (true, _) => Read::Person(self.entry),
            (false, Some((at, why))) => Read::Unreadable(at, why),
            (false, None) => Read::NotAPerson,
        }
    }

    /// The text before the person's login or link, without what it says
    /// besides the name: `` `promtool`: David Leadbeater `` (what the
    /// person looks after, their role), `Nate Abele: Lithium` (what they
    /// represent: whether so).
    fn lead_and_role(&mut self) -> (String, bool) {
        let lead = clean(&self.lead);
        if let Some((part, rest)) = lead.split_once(": ") {
            let (part, rest) = (part.trim().to_string(), rest.trim().to_string());
            if !is_name(&part) && is_name(&rest) {
                self.entry.role = Some(part);
                return (rest, false);
            } else if is_name(&part) && part.split_whitespace().count() >= 2 && !rest.is_empty() {
                self.entry.affiliation = Some(rest);
                return (part, true);
            }
        }
        (lead, false)
    }

    /// `[Owais Lone](profile), Approver`: a role, not a company; `Jane Doe,
    /// Emeritus`, `Jane Doe - retired`: a status, not a role or a company.
    fn roles_and_statuses(&mut self) {
        if self.entry.affiliation.as_deref().is_some_and(is_role) && self.entry.role.is_none() {
            self.entry.role = self.entry.affiliation.take();
        }
        for field in [&mut self.entry.role, &mut self.entry.affiliation] {
            if let Some(status) = field.as_deref().and_then(status_marker) {
                self.entry.status = self.entry.status.or(Some(status));
                *field = None;
            }
        }
    }

    /// The person's name: bold text, the text before the login, a link's
    /// text; `katelyn martin (@cratelyn)` (before a parenthesised login,
    /// words are a name whatever their case); `@dan - Dan Ritchie` (after
    /// the login, two words or more; one is a role, `- Chair`).
    fn name(&mut self, lead: &str) -> Option<String> {
        let before_login =
            (self.login_in_parentheses && is_loose_name(lead)).then(|| lead.to_string());
        let name = (self.strong.clone())
            .filter(|s| is_name(s))
            .or_else(|| (!lead.is_empty() && is_name(lead)).then(|| lead.to_string()))
            .or(self.link_name.clone())
            .or(before_login);
        if name.is_some() {
            return name;
        }
        let after = clean(self.tail.trim().trim_start_matches(')'));
        // `, Company` after a login is the affiliation.
        let company = (self.tail.trim().trim_start_matches(')').trim()).starts_with(',');
        let after_login =
            self.entry.login.is_some() && lead.is_empty() && self.strong.is_none() && !company;
        let words = after.split_whitespace().count();
        (after_login && words >= 2 && is_name(&after)).then(|| {
            self.entry.role = None;
            after
        })
    }

    /// What follows the person: `, Company`, ` - Role`, an e-mail address.
    fn tail_fields(&mut self) {
        let tail = self.tail.trim();
        let tail = tail.trim_start_matches(|c: char| c == '(' || c == ')' || c.is_whitespace());
        for word in tail.split_whitespace() {
            let word = word.trim_matches(|c: char| "()<>,;".contains(c));
            if word.contains('@') && word.contains('.') && !word.starts_with('@') {
                self.entry.email.get_or_insert(word.to_string());
            }
        }
        if let Some(role) = strip_dash(tail) {
            let role = clean(role);
            if !role.is_empty() && self.strong.is_none() && self.entry.role.is_none() {
                self.entry.role = Some(role);
            }
        } else if let Some(company) = tail.strip_prefix(',') {
            let company = clean(company);
            if !company.is_empty() && !company.contains('@') {
                self.entry.affiliation = Some(company);
            }
        }
    }
}

/// `text` without the punctuation around a name or value.
fn clean(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    text.trim_matches(|c: char| c.is_whitespace() || ",;:-–()*_".contains(c))
        .to_string()
}

#[cfg(test)]
mod tests;
