//! The activity check (`check-activity`): a warning for each active member
//! of the groups judged whose last counted commit is older than the
//! window. Advice, never an error: a maintainer may be reviewing,
//! mentoring or on leave, and no commit shows that.
//!
//! Only someone the history identifies is dated: a member it cannot
//! identify, or whose identity is ambiguous, is "not matched" (a note,
//! with what was tried and how to fix it), never a warning. A history
//! that cannot answer (a shallow clone, a book in no repository, a `git`
//! that fails) gives one note and no finding; so do members the history
//! read does not reach back far enough to judge.

use std::sync::Arc;

use crate::activity::{Activity, History, Match, Seen, identity, tried};
use crate::config::{Settings, Window};
use crate::data::Data;
use crate::date::Day;
use crate::diagnostic::{Code, Diagnostic, Place, did_you_mean, plural};
use crate::mdbook::config::BookToml;
use crate::people::{People, Person};

/// The activity check's findings, or nothing when `check-activity` is not
/// set or the book has no roster. `today` is the day the window ends
/// (`None`: by the clock).
pub fn check(settings: &Settings, data: &Data, today: Option<Day>) -> Vec<Diagnostic> {
    let Some(window) = settings.check_activity else {
        return Vec::new();
    };
    if !super::owners::has_roster(settings) {
        return Vec::new();
    }
    let Ok(people) = data.people(settings) else {
        return Vec::new(); // the roster's own problems are reported by the data stage
    };
    let scope = match scope(settings, &people) {
        Ok(scope) => scope,
        Err(unknown) => return unknown,
    };
    let activity = data.activity(settings, &people);
    let History::Read { oldest, .. } = &activity.history else {
        let why = activity.history.cannot_judge().unwrap_or_default();
        return vec![not_judged(settings, why, &activity.history)];
    };
    let judge = Judge {
        people: &people,
        activity: &activity,
        window,
        cutoff: window.cutoff(today.unwrap_or_else(Day::today)),
        oldest: *oldest,
        inactive: inactive_status(settings),
    };
    let mut found = Vec::new();
    let mut unjudged = Vec::new();
    for (index, person) in people.people.iter().enumerate() {
        let groups: Vec<usize> = (people.standing(index).serving_in.iter())
            .copied()
            .filter(|g| scope.as_ref().is_none_or(|s| s.contains(g)))
            .collect();
        if groups.is_empty() || identity::is_bot_person(person) {
            continue;
        }
        match activity.of(index) {
            Some(seen) if seen.day < judge.cutoff => found.push(judge.quiet(index, seen, &groups)),
            Some(_) => {}
            None if oldest.is_some_and(|o| o < judge.cutoff) => {
                found.push(judge.not_matched(index, &groups));
            }
            None => unjudged.push(person),
        }
    }
    if !unjudged.is_empty() {
        found.push(judge.too_short(settings, &unjudged));
    }
    found
}

/// The groups `check-activity`'s `groups` names (`None`: every group),
/// or an error for each id the roster does not have, at the id in
/// `book.toml`.
fn scope(settings: &Settings, people: &People) -> Result<Option<Vec<usize>>, Vec<Diagnostic>> {
    let Some(ids) = &settings.activity_groups else {
        return Ok(None);
    };
    let mut scope = Vec::new();
    let mut unknown = Vec::new();
    for id in ids {
        match people.groups.iter().position(|g| g.id == *id) {
            Some(at) => scope.push(at),
            None => unknown.push(unknown_group(settings, people, id)),
        }
    }
    match unknown.is_empty() {
        true => Ok(Some(scope)),
        false => Err(unknown),
    }
}

/// The error for a group `check-activity` names that the roster lacks.
fn unknown_group(settings: &Settings, people: &People, id: &str) -> Diagnostic {
    let error = Diagnostic::error(
        Code::UnknownGroup,
        format!(
            "`check-activity` names the group `{id}`, which `{}` does not have",
            people.name
        ),
    );
    let ids: Vec<String> = people.group_ids().map(|g| format!("`{g}`")).collect();
    let error = error.with_note(format!("groups: {}", ids.join(", ")));
    let error = match did_you_mean(id, people.group_ids()) {
        Some(closest) => error.with_help(format!("did you mean `{closest}`?")),
        None => error,
    };
    let book_toml = BookToml::read(&settings.root);
    let place = (book_toml.as_ref()).and_then(|b| {
        let range = (b.plugin_list_item("check-activity", "groups", id))
            .or_else(|| b.plugin_key("check-activity", true))?;
        Some((Arc::clone(&b.file), range))
    });
    match place {
        Some((file, range)) => error.in_file(&file, range).with_label("unknown group"),
        None => error.at_path("book.toml"),
    }
}

/// The first inactive status, for the help.
fn inactive_status(settings: &Settings) -> String {
    (settings.inactive_statuses.first()).map_or_else(|| "emeritus".to_string(), Clone::clone)
}

/// What the findings are judged against.
struct Judge<'a> {
    people: &'a People,
    activity: &'a Activity,
    window: Window,
    /// The first day inside the window.
    cutoff: Day,
    /// The oldest commit read.
    oldest: Option<Day>,
    /// A status to suggest.
    inactive: String,
}

impl Judge<'_> {
    /// Person `index`, quiet since `seen`.
    fn quiet(&self, index: usize, seen: &Seen, groups: &[usize]) -> Diagnostic {
        let person = &self.people.people[index];
        let message = format!(
            "{} has no commits since {}, more than {} ago",
            who(person),
            seen.day,
            self.window
        );
        self.at(index, groups, Diagnostic::warning(Code::InactiveMaintainer, message))
            .with_note(matched(seen))
            .with_help(format!(
                "if they have stepped back, give them the status `{}`; reviews, issues and meetings do not show in the history",
                self.inactive
            ))
    }

    /// Person `index`, whom the history read does not identify: a note,
    /// never a date.
    fn not_matched(&self, index: usize, groups: &[usize]) -> Diagnostic {
        let person = &self.people.people[index];
        let why = match self.activity.ambiguous(index) {
            Some(why) => format!(": {why}"),
            None => String::new(),
        };
        let message = format!(
            "{} is not matched in the history{why} (tried: {}); activity not judged",
            who(person),
            tried(person)
        );
        let note = Diagnostic::note(Code::ActivityNotJudged, message);
        self.at(index, groups, note)
            .with_note(format!("looked in {}", self.read()))
            .with_help(
                "add their `email` to the roster, or a `.mailmap` line mapping the address they commit from to theirs",
            )
    }

    /// `diagnostic` at person `index`'s place in the roster, labelled with
    /// the groups they serve in.
    fn at(&self, index: usize, groups: &[usize], diagnostic: Diagnostic) -> Diagnostic {
        let person = &self.people.people[index];
        let membership = groups.first().and_then(|&g| {
            let group = &self.people.groups[g];
            group.members.iter().find(|m| m.person == index)?.at.clone()
        });
        let ids: Vec<String> = (groups.iter())
            .map(|&g| format!("`{}`", self.people.groups[g].id))
            .collect();
        let label = format!("active in {}", ids.join(", "));
        match person.at.clone().or(membership) {
            Some(place) => diagnostic.at(&place).with_label(label),
            None => diagnostic
                .at(&Place::new(&self.people.file, 0..0))
                .with_label(label),
        }
    }

    /// How much of the history was read.
    fn read(&self) -> String {
        match &self.activity.history {
            History::Read {
                commits,
                limit: Some(_),
                oldest,
            } => format!(
                "{} back to {} (the `activity-max-commits` limit)",
                plural(*commits, "commit"),
                oldest.map(|d| d.to_string()).unwrap_or_default()
            ),
            History::Read {
                commits,
                oldest: Some(oldest),
                ..
            } => format!("{} back to {oldest}", plural(*commits, "commit")),
            _ => "the history".to_string(),
        }
    }

    /// One note for the members the history read is too short to judge.
    fn too_short(&self, settings: &Settings, unjudged: &[&Person]) -> Diagnostic {
        let reach = match self.oldest {
            Some(oldest) => format!("the history read goes back to {oldest} only"),
            None => "the repository has no commits yet".to_string(),
        };
        let who = match unjudged.len() {
            1 => "1 active member without a commit in it is".to_string(),
            n => format!("{n} active members without a commit in it are"),
        };
        let names: Vec<String> = (unjudged.iter().take(10))
            .map(|p| format!("`{}`", p.handle))
            .collect();
        let more = match unjudged.len().saturating_sub(10) {
            0 => String::new(),
            n => format!(", and {n} more"),
        };
        let message = format!(
            "{reach}, inside the {} window: {who} not judged",
            self.window
        );
        let note = not_judged(settings, message, &self.activity.history)
            .with_note(format!("not judged: {}{more}", names.join(", ")));
        match &self.activity.history {
            History::Read {
                limit: Some(limit), ..
            } => note.with_help(format!(
                "raise `activity-max-commits` (now {limit}) to read further back"
            )),
            _ => note,
        }
    }
}

/// `` `ada` (Ada Lovelace) ``, or `` `ada` `` when the name is the handle.
fn who(person: &Person) -> String {
    match person.name == person.handle {
        true => format!("`{}`", person.handle),
        false => format!("`{}` ({})", person.handle, person.name),
    }
}

/// How `seen`'s commit was matched to its person.
pub fn matched(seen: &Seen) -> String {
    let commit = seen.commit.get(..12).unwrap_or(&seen.commit);
    let identity = &seen.identity;
    let detail = seen.detail.as_deref().unwrap_or_default();
    let how = match seen.how {
        Match::Email => format!("matched by the e-mail `{identity}`"),
        Match::Noreply => format!("matched by the GitHub no-reply address `{identity}`"),
        Match::Mailmap => format!("matched through .mailmap: `{identity}` is `{detail}`"),
        Match::MergedPr if identity.starts_with('#') => format!("matched by {detail}"),
        Match::MergedPr => format!("matched by `{identity}`, {detail}"),
        Match::CoAuthor => format!("matched by a Co-authored-by trailer naming `{identity}`"),
        Match::Name => {
            format!("matched by name only (`{identity}`, unique in the roster and the history)")
        }
    };
    format!("{how}, in commit {commit}")
}

/// The note that activity was not judged, at `check-activity` in
/// `book.toml`.
fn not_judged(settings: &Settings, why: String, history: &History) -> Diagnostic {
    let note = Diagnostic::note(Code::ActivityNotJudged, why);
    let note = match history {
        History::Shallow { .. } => note.with_help(
            "a shallow clone has only the newest commits: fetch the whole history (`fetch-depth: 0` with actions/checkout)",
        ),
        _ => note,
    };
    let book_toml = BookToml::read(&settings.root);
    let place = (book_toml.as_ref())
        .and_then(|b| Some((Arc::clone(&b.file), b.plugin_key("check-activity", true)?)));
    match place {
        Some((file, range)) => note
            .in_file(&file, range)
            .with_label("activity asked for here"),
        None => note.at_path("book.toml"),
    }
}
