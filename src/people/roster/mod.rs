//! The roster: the people and groups of every source `people` names, each
//! read in its own format, merged into one [`People`].
//!
//! People are one person across sources when their GitHub logins match
//! (case-insensitively): the first source that gives a field wins, later
//! ones fill gaps. A group id is defined by one source only. Members that a
//! source names by login (OWNERS files) are resolved when merging, so that
//! an OWNERS_ALIASES source expands the aliases any OWNERS file lists.

mod all_contributors;
pub mod cncf_maintainers;
mod maintainers_csv;
mod maintainers_text;
mod markdown;
mod merge;
mod native;
mod owners;
mod rust_team;
mod sniff;

use std::path::Path;
use std::sync::Arc;

use crate::config::{PeopleFormat, PeopleSource, Settings};
use crate::diagnostic::{Code, Diagnostic, Place, SourceFile};
use crate::files::tree::YamlFiles;
use crate::mdbook::MarkdownOptions;
use crate::people::{Group, People, Person, check_login};
use merge::Merger;

/// One source, read.
pub(super) struct SourceRoster {
    /// Its files, the main one first.
    pub files: Vec<Arc<SourceFile>>,
    /// Its people, with every default filled in.
    pub people: Vec<Person>,
    /// Its groups.
    pub groups: Vec<SourceGroup>,
    /// What was read but is worth a word: entries that could not be read,
    /// a link whose text and URL name different logins.
    pub warnings: Vec<Diagnostic>,
}

/// A group as a source defines it.
pub(super) struct SourceGroup {
    /// Members point into the source's people; `parent` into its groups.
    pub group: Group,
    /// Members the source names by login, resolved when merging.
    pub by_login: Vec<ByLogin>,
    /// Where the group is defined (its id).
    pub at: Place,
}

/// A member named by login, which may be an OWNERS_ALIASES alias.
pub(super) struct ByLogin {
    /// The login or alias as written.
    pub login: String,
    /// The membership's status.
    pub status: Option<String>,
    /// Where it is written.
    pub at: Place,
}

/// The roster, or its errors; and the warnings its sources gave either way.
pub type Read = (Result<People, Vec<Diagnostic>>, Vec<Diagnostic>);

/// Reads every source (relative to `root`) and merges them; Markdown
/// sources are read with `markdown`.
pub(super) fn read_sources(
    sources: &[PeopleSource],
    root: &Path,
    markdown: MarkdownOptions,
    yaml: &YamlFiles,
) -> Read {
    let mut read = Vec::new();
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for source in sources {
        let full = root.join(&source.path);
        let display = crate::paths::display(&source.path);
        match read_source(source, &full, &display, markdown, yaml) {
            Ok(mut roster) => {
                warnings.append(&mut roster.warnings);
                if roster.people.is_empty()
                    && let Some(warning) = lists_no_one(&roster, source, &display)
                {
                    warnings.push(warning);
                }
                read.push((source.format, roster));
            }
            Err(found) => match sniff::wrong_format(&found, source.format, &display) {
                Some(one) => errors.push(one),
                None => errors.extend(found),
            },
        }
    }
    if !errors.is_empty() {
        return (Err(errors), warnings);
    }
    (Merger::default().merge(read), warnings)
}

/// The warning for a Markdown or MAINTAINERS source that gave no one:
/// what it saw, and the format its text looks like when that is another.
fn lists_no_one(roster: &SourceRoster, source: &PeopleSource, path: &str) -> Option<Diagnostic> {
    let file = (roster.files.first()).filter(|_| source.format.facts().line_based)?;
    let lines = file.text.lines().filter(|l| !l.trim().is_empty()).count();
    let mut warning = Diagnostic::warning(
        Code::UnreadEntry,
        format!(
            "`{path}` lists no one: {} read as `{}`, 0 people{}",
            crate::diagnostic::plural(lines, "line"),
            source.format.name(),
            match &source.section {
                Some(section) => format!(" under `{section}`"),
                None => String::new(),
            }
        ),
    )
    .in_file(file, 0..0)
    .with_label("no person read from this file");
    match PeopleFormat::of_text(&file.text).filter(|f| *f != source.format) {
        Some(looks) => {
            warning = warning.with_help(format!(
                "its text looks like `{}`: people = [{{ path = \"{path}\", format = \"{}\" }}]",
                looks.name(),
                looks.name()
            ));
        }
        None => {
            let first = file.text.lines().map(str::trim).find(|l| !l.is_empty());
            if let Some(first) = first {
                let shown: String = first.chars().take(60).collect();
                warning = warning.with_note(format!("its first line is `{shown}`"));
            }
            warning = warning.with_help(
                "people are read from `Name (@login)` or `Name <email>` entries in lists, tables or lines; see the people-file chapter",
            );
        }
    }
    Some(warning)
}

fn read_source(
    source: &PeopleSource,
    full: &Path,
    display: &str,
    markdown: MarkdownOptions,
    yaml: &YamlFiles,
) -> Result<SourceRoster, Vec<Diagnostic>> {
    match source.format {
        PeopleFormat::Markdown => markdown::read(
            full,
            display,
            markdown.for_data(),
            source.section.as_deref(),
        ),
        PeopleFormat::Community => native::read(full, display),
        PeopleFormat::AllContributors => all_contributors::read(full, display),
        PeopleFormat::OwnersAliases => owners::read_aliases(full, display, yaml),
        PeopleFormat::Owners => owners::read_owners(
            full,
            display,
            source.prefix.as_deref().unwrap_or_default(),
            yaml,
        ),
        PeopleFormat::RustTeam => rust_team::read(full, display),
        PeopleFormat::MaintainersCsv => maintainers_csv::read(full, display),
        PeopleFormat::MaintainersText => maintainers_text::read(full, display),
        PeopleFormat::CncfMaintainers => cncf_maintainers::read(full, display, yaml),
    }
}

/// This plugin's people file from text, as the roster it is (for tests
/// and fuzzing).
pub fn parse_native(text: &str, is_json: bool) -> Result<People, Vec<Diagnostic>> {
    let source = native::parse(text, is_json)?;
    Merger::default().merge(vec![(PeopleFormat::Community, source)])
}

/// A person known only by a GitHub login.
pub(super) fn person_of_login(login: &str, at: &Place) -> Person {
    Person {
        handle: login.to_string(),
        name: login.to_string(),
        github: Some(login.to_string()),
        url: Some(match login.strip_suffix("[bot]") {
            Some(app) => format!("https://github.com/apps/{app}"),
            None => format!("https://github.com/{login}"),
        }),
        email: None,
        affiliation: None,
        avatar: None,
        fields: Vec::new(),
        at: Some(at.clone()),
    }
}

/// An empty group with `id` and `title`.
pub(super) fn group(id: &str, title: &str) -> Group {
    Group {
        id: id.to_string(),
        title: title.to_string(),
        description: None,
        parent: None,
        members: Vec::new(),
        github_teams: Vec::new(),
        at: None,
    }
}

/// The error for a login that GitHub would not accept, at `at`.
pub(super) fn check_login_at(login: &str, at: &Place) -> Result<(), Diagnostic> {
    check_login(login).map_err(|why| {
        Diagnostic::error(Code::InvalidName, format!("`{login}` {why}"))
            .at(at)
            .with_label("not a GitHub login")
    })
}

/// Reads the roster `settings` name, for `data::Data`; YAML files
/// through `yaml`, the run's one read of each.
pub fn load(settings: &Settings, yaml: &YamlFiles) -> Read {
    let default = [PeopleSource::default_file()];
    let sources = if settings.people.is_empty() {
        &default[..]
    } else {
        &settings.people[..]
    };
    let (mut read, warnings) = read_sources(sources, &settings.root, settings.markdown, yaml);
    if let Ok(people) = &mut read {
        people.judge_standing(&settings.inactive_statuses);
    }
    (read, warnings)
}

/// Reads one source on its own (a copy of a group, `people::copies`), its
/// standing judged as the roster's is.
pub fn load_one(settings: &Settings, source: &PeopleSource, yaml: &YamlFiles) -> Read {
    let sources = std::slice::from_ref(source);
    let (mut read, warnings) = read_sources(sources, &settings.root, settings.markdown, yaml);
    if let Ok(people) = &mut read {
        people.judge_standing(&settings.inactive_statuses);
    }
    (read, warnings)
}

/// A Markdown people file from text, as the roster it is, and its
/// warnings (for tests and fuzzing).
pub fn parse_markdown(text: &str, name: &str) -> Read {
    let text = crate::files::lone_cr_as_lf(text.to_string());
    let file = Arc::new(SourceFile::new(name.to_string(), text));
    let options = MarkdownOptions::defaults(crate::mdbook::Generation::V05).for_data();
    let mut source = markdown::parse(file, options);
    let warnings = std::mem::take(&mut source.warnings);
    let merged = Merger::default().merge(vec![(PeopleFormat::Markdown, source)]);
    (merged, warnings)
}

/// A plain-text MAINTAINERS file from text, as the roster it is, and its
/// warnings (for tests and fuzzing).
pub fn parse_maintainers_text(text: &str, name: &str) -> Read {
    let text = crate::files::lone_cr_as_lf(text.to_string());
    let file = Arc::new(SourceFile::new(name.to_string(), text));
    let mut source = maintainers_text::parse(file);
    let warnings = std::mem::take(&mut source.warnings);
    let merged = Merger::default().merge(vec![(PeopleFormat::MaintainersText, source)]);
    (merged, warnings)
}

/// A CNCF `.project/maintainers.yaml` from text, as the roster it is, and
/// its warnings (for tests and fuzzing).
pub fn parse_cncf_maintainers(text: &str, name: &str) -> Read {
    let (file, root) = match crate::files::tree::parse_yaml(name, text) {
        Ok(read) => read,
        Err(errors) => return (Err(errors), Vec::new()),
    };
    match cncf_maintainers::parse_tree(file, &root) {
        Ok(mut source) => {
            let warnings = std::mem::take(&mut source.warnings);
            let merged = Merger::default().merge(vec![(PeopleFormat::CncfMaintainers, source)]);
            (merged, warnings)
        }
        Err(errors) => (Err(errors), Vec::new()),
    }
}
