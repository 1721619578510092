//! `people` (the roster's sources, merged in order) and the settings of the
//! CODEOWNERS drift check.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Level, Problem, Settings, path, string};
use crate::diagnostic::did_you_mean;

/// A file format the roster can be read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeopleFormat {
    /// This plugin's own `maintainers.toml` or `.json`.
    Community,
    /// all-contributors' `.all-contributorsrc`.
    AllContributors,
    /// Kubernetes' `OWNERS_ALIASES`.
    OwnersAliases,
    /// One Kubernetes `OWNERS` file (needs a `prefix`).
    Owners,
    /// rust-lang/team's folder of `people/` and `teams/`.
    RustTeam,
    /// containerd's `MAINTAINERS`: quoted CSV under `# SECTION` headers.
    MaintainersCsv,
    /// A plain-text `MAINTAINERS`: `Name <email> (@login)` lines, `#`
    /// comment headers and `Label:` lines.
    MaintainersText,
    /// A Markdown page that lists people: `MAINTAINERS.md`, `OWNERS.md`.
    Markdown,
}

impl PeopleFormat {
    /// Every format, by the name `format = "..."` takes.
    pub const ALL: [(&'static str, PeopleFormat); 8] = [
        ("community", PeopleFormat::Community),
        ("all-contributors", PeopleFormat::AllContributors),
        ("owners-aliases", PeopleFormat::OwnersAliases),
        ("owners", PeopleFormat::Owners),
        ("rust-team", PeopleFormat::RustTeam),
        ("maintainers-csv", PeopleFormat::MaintainersCsv),
        ("maintainers-text", PeopleFormat::MaintainersText),
        ("markdown", PeopleFormat::Markdown),
    ];

    /// The name `format = "..."` takes.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("community", |(n, _)| n)
    }

    /// The format a source's name implies, for a source without `format`:
    /// `*.toml` and `*.json` are this plugin's, the others go by the names
    /// their projects give them; a folder is rust-lang/team's.
    pub fn implied_by(path: &Path, is_dir: bool) -> Option<PeopleFormat> {
        if is_dir {
            return Some(PeopleFormat::RustTeam);
        }
        let name = path.file_name()?.to_str()?;
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        Some(match name {
            ".all-contributorsrc" => PeopleFormat::AllContributors,
            "OWNERS_ALIASES" => PeopleFormat::OwnersAliases,
            "OWNERS" => PeopleFormat::Owners,
            "MAINTAINERS" => PeopleFormat::MaintainersCsv,
            _ if extension.eq_ignore_ascii_case("toml")
                || extension.eq_ignore_ascii_case("json") =>
            {
                PeopleFormat::Community
            }
            _ if extension.eq_ignore_ascii_case("md")
                || extension.eq_ignore_ascii_case("markdown") =>
            {
                PeopleFormat::Markdown
            }
            _ => return None,
        })
    }
}

impl PeopleFormat {
    /// The format `text` clearly is, if any: a JSON object, YAML with
    /// OWNERS keys, quoted CSV rows, this plugin's TOML tables, Markdown
    /// headings, tables and lists, or `Name <email> (@login)` lines. For
    /// the one error a file read in the wrong format gives, and for files
    /// whose name does not tell (`MAINTAINERS`, `people.txt`).
    pub fn of_text(text: &str) -> Option<PeopleFormat> {
        looks_like(text)
    }
}

/// The format `text` clearly is, if any (see [`PeopleFormat::of_text`]).
fn looks_like(text: &str) -> Option<PeopleFormat> {
    let lines: Vec<&str> = (text.lines())
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let first = lines.iter().find(|l| !l.starts_with('#'))?;
    structured(text, first)
        .or_else(|| csv_rows(&lines))
        .or_else(|| native_tables(&lines))
        .or_else(|| maintainers_text(&lines))
        .or_else(|| markdown(&lines))
}

/// JSON, or YAML with the keys of OWNERS files, by the first line that is
/// not a comment.
fn structured(text: &str, first: &str) -> Option<PeopleFormat> {
    // `{`, as its code point: tools that count braces read the literal as one.
    if first.starts_with('\u{7b}') {
        return Some(match text.contains("\"contributors\"") {
            true => PeopleFormat::AllContributors,
            false => PeopleFormat::Community,
        });
    }
    if first == "aliases:" {
        return Some(PeopleFormat::OwnersAliases);
    }
    let owners_keys = [
        "approvers:",
        "reviewers:",
        "filters:",
        "options:",
        "emeritus_approvers:",
    ];
    owners_keys
        .iter()
        .any(|k| first.starts_with(k))
        .then_some(PeopleFormat::Owners)
}

/// Mostly quoted CSV rows (`"login","Name",...`).
fn csv_rows(lines: &[&str]) -> Option<PeopleFormat> {
    let rows = lines
        .iter()
        .filter(|l| l.starts_with('"') && l.contains("\",\""));
    let content = lines.iter().filter(|l| !l.starts_with('#')).count();
    (rows.count() * 2 > content).then_some(PeopleFormat::MaintainersCsv)
}

/// This plugin's TOML tables.
fn native_tables(lines: &[&str]) -> Option<PeopleFormat> {
    (lines
        .iter()
        .any(|l| l.starts_with("[people.") || *l == "[[groups]]"))
    .then_some(PeopleFormat::Community)
}

/// Headings, tables and lists making up a good part of the lines, with a
/// heading, a table's delimiter row or Markdown links: Markdown even
/// without a heading (a list of `[Name](url)`, a table).
fn markdown(lines: &[&str]) -> Option<PeopleFormat> {
    let heading = |l: &&&str| l.starts_with("# ") || l.starts_with("## ") || l.starts_with("### ");
    let list = |l: &&&str| l.starts_with("- ") || l.starts_with("* ");
    let marked = |l: &&&str| heading(l) || l.starts_with('|') || list(l);
    let headings = lines.iter().filter(heading).count();
    let delimiter = lines
        .iter()
        .any(|l| l.contains("---") && l.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ')));
    let links = lines.iter().filter(|l| l.contains("](")).count();
    let marks = lines.iter().filter(marked).count();
    let sure = headings > 0 || delimiter || links * 2 >= lines.len();
    (marks * 3 >= lines.len() && sure).then_some(PeopleFormat::Markdown)
}

/// Mostly `Name <email> (@login)` lines, not in a list or table: a
/// plain-text MAINTAINERS file (its `#` lines are comments).
fn maintainers_text(lines: &[&str]) -> Option<PeopleFormat> {
    let content: Vec<&str> = (lines.iter().copied())
        .filter(|l| !l.starts_with('#'))
        .collect();
    let person = |l: &&&str| {
        let email =
            (l.find('<').zip(l.find('>'))).is_some_and(|(a, b)| a < b && l[a..b].contains('@'));
        let marked = l.starts_with(['-', '*', '|', '[']);
        !marked
            && (email
                || l.contains("(@")
                || l.contains("@)")
                || l.to_lowercase().contains("github: @"))
    };
    let people = content.iter().filter(person).count();
    (people >= 1 && people * 2 >= content.len()).then_some(PeopleFormat::MaintainersText)
}
/// One source of the roster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeopleSource {
    /// Relative to the book root.
    pub path: PathBuf,
    /// How to read it.
    pub format: PeopleFormat,
    /// For `owners`: the start of its groups' ids (`PREFIX-approvers`).
    pub prefix: Option<String>,
    /// For `markdown`: read only the part under this heading (and its
    /// sub-headings), for people listed in a section of a larger page.
    pub section: Option<String>,
}

impl PeopleSource {
    /// The default roster: `maintainers.toml` in the book root.
    pub fn default_file() -> PeopleSource {
        PeopleSource {
            path: PathBuf::from(DEFAULT_FILE),
            format: PeopleFormat::Community,
            prefix: None,
            section: None,
        }
    }
}

/// The default people file, in the book root.
pub const DEFAULT_FILE: &str = "maintainers.toml";

/// Statuses that mean someone no longer serves, by default.
pub const INACTIVE_STATUSES: [&str; 2] = ["emeritus", "alumni"];

const SOURCE_KEYS: &[&str] = &["path", "format", "prefix", "section"];

impl Settings {
    /// `people = "path"`, or an array of paths and `{ path, format, prefix }`
    /// tables.
    pub(super) fn apply_people(&mut self, value: &Value) -> Result<(), Problem> {
        let items: Vec<&Value> = match value {
            Value::Array(items) => items.iter().collect(),
            other => vec![other],
        };
        if items.is_empty() {
            return Err(Problem::value("must name at least one source", None));
        }
        let mut sources = Vec::new();
        let mut problem = None;
        for item in items {
            match self.people_source(item) {
                Ok(source) => sources.push(source),
                Err(found) => {
                    // A source that names no file is kept, so that the
                    // directives that need it say so in their pages.
                    if let Some(path) = item.as_str().map(PathBuf::from) {
                        sources.push(PeopleSource {
                            path,
                            format: PeopleFormat::Community,
                            prefix: None,
                            section: None,
                        });
                    }
                    problem.get_or_insert(found);
                }
            }
        }
        self.people = sources;
        self.people_configured = true;
        problem.map_or(Ok(()), Err)
    }

    fn people_source(&self, value: &Value) -> Result<PeopleSource, Problem> {
        let (path, format, prefix, section) = match value {
            Value::Object(table) => {
                if let Some(key) = table.keys().find(|k| !SOURCE_KEYS.contains(&k.as_str())) {
                    return Err(Problem::value(
                        format!(
                            "has a source with the unknown key `{key}` (keys: path, format, prefix, section)"
                        ),
                        did_you_mean(key, SOURCE_KEYS.iter().copied()).map(str::to_string),
                    ));
                }
                let path = path(table.get("path").unwrap_or(&Value::Null))
                    .map_err(|_| Problem::value("has a source without a `path`", None))?;
                let format = match table.get("format") {
                    Some(format) => Some(format_named(format)?),
                    None => None,
                };
                let prefix = table.get("prefix").map(string).transpose()?;
                let section = table.get("section").map(string).transpose()?;
                (path, format, prefix, section)
            }
            other => (path(other)?, None, None, None),
        };
        let full = self.in_root(&path);
        if !full.exists() {
            return Err(self.missing_file(&path).unwrap_or_else(|| {
                Problem::file(format!("`{}` does not exist", path.display()), None)
            }));
        }
        let team_folder = full.join("people").is_dir() && full.join("teams").is_dir();
        if format.is_none() && full.is_dir() && !team_folder {
            return Err(Problem::file(
                format!(
                    "`{}` is a folder; name the file in it",
                    crate::paths::display(&path)
                ),
                None,
            ));
        }
        let format = match format.or_else(|| implied(&path, &full)) {
            Some(format) => format,
            None => return Err(unknown_format(&path, &full)),
        };
        if format != PeopleFormat::RustTeam
            && let Some(problem) = self.missing_file(&path)
        {
            return Err(problem); // a FIFO or device, say
        }
        check_source(&path, &full, format, prefix.as_deref())?;
        if let Some(section) = &section
            && (format != PeopleFormat::Markdown || section.trim().is_empty())
        {
            return Err(Problem::value(
                match format {
                    PeopleFormat::Markdown => {
                        "has an empty `section`; name a heading of the file".to_string()
                    }
                    _ => format!(
                        "has `section = \"{section}\"` for `{}`, which is read as `{}`: only Markdown files have sections",
                        crate::paths::display(&path),
                        format.name()
                    ),
                },
                None,
            ));
        }
        Ok(PeopleSource {
            path,
            format,
            prefix,
            section,
        })
    }

    /// `check-owners` and `inactive-statuses`.
    pub(super) fn apply_owner_check(&mut self, key: &str, value: &Value) -> Result<(), Problem> {
        if key == "check-owners" {
            self.check_owners = Level::read(value)?;
            return Ok(());
        }
        let Value::Array(items) = value else {
            return Err(Problem::value("must be an array of statuses", None));
        };
        self.inactive_statuses = items.iter().map(string).collect::<Result<_, _>>()?;
        Ok(())
    }
}

/// The format a source without `format` is read in: by its name, and for
/// `MAINTAINERS` (or `MAINTAINERS.txt`), whose projects write it as quoted
/// CSV, plain `Name <email> (@login)` lines or Markdown, by its text.
fn implied(path: &Path, full: &Path) -> Option<PeopleFormat> {
    let name = path.file_name()?.to_str()?;
    let (stem, extension) = name.split_once('.').unwrap_or((name, ""));
    let plain = extension.is_empty() || extension.eq_ignore_ascii_case("txt");
    if stem == "MAINTAINERS" && plain && full.is_file() {
        let text = crate::files::read_bytes(full, crate::files::MAX_DATA_FILE).ok()?;
        let text = String::from_utf8_lossy(&text);
        return Some(match PeopleFormat::of_text(&text) {
            Some(format @ (PeopleFormat::MaintainersText | PeopleFormat::Markdown)) => format,
            Some(_) => PeopleFormat::MaintainersCsv,
            // Neither clearly: e-mail addresses or logins make it text.
            None if text.contains('@') => PeopleFormat::MaintainersText,
            None => PeopleFormat::MaintainersCsv,
        });
    }
    PeopleFormat::implied_by(path, full.is_dir())
}

/// The error for a source whose name does not tell its format: the exact
/// line to write, with the format its text looks like.
fn unknown_format(path: &Path, full: &Path) -> Problem {
    let text = crate::files::read_bytes(full, crate::files::MAX_DATA_FILE).unwrap_or_default();
    let looks = PeopleFormat::of_text(&String::from_utf8_lossy(&text));
    let shown = crate::paths::display(path);
    match looks {
        Some(format) => Problem::value(
            format!(
                "cannot tell the format of `{}` from its name; its text looks like `{}`: name it",
                path.display(),
                format.name()
            ),
            Some(format!(
                "people = [{{ path = \"{shown}\", format = \"{}\" }}]",
                format.name()
            )),
        ),
        None => Problem::value(
            format!(
                "cannot tell the format of `{}` from its name or its text; add `format = \"...\"` ({}), e.g. people = [{{ path = \"{shown}\", format = \"markdown\" }}]",
                path.display(),
                format_names()
            ),
            None,
        ),
    }
}

fn format_names() -> String {
    PeopleFormat::ALL
        .iter()
        .map(|(name, _)| format!("\"{name}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

fn format_named(value: &Value) -> Result<PeopleFormat, Problem> {
    let name = string(value)?;
    PeopleFormat::ALL
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, f)| *f)
        .ok_or_else(|| {
            Problem::value(
                format!(
                    "has an unknown format `{name}` (formats: {})",
                    format_names()
                ),
                did_you_mean(&name, PeopleFormat::ALL.iter().map(|(n, _)| *n)).map(str::to_string),
            )
        })
}

/// What a source of `format` must be: a folder with `people/` and `teams/`
/// for rust-team, a file otherwise; `owners` needs a prefix.
fn check_source(
    path: &Path,
    full: &Path,
    format: PeopleFormat,
    prefix: Option<&str>,
) -> Result<(), Problem> {
    let shown = crate::paths::display(path);
    match format {
        PeopleFormat::RustTeam
            if !(full.join("people").is_dir() && full.join("teams").is_dir()) =>
        {
            return Err(Problem::value(
                format!(
                    "`{shown}` is not a rust-lang/team folder: it has no `people/` and `teams/` folders"
                ),
                None,
            ));
        }
        PeopleFormat::RustTeam => {}
        _ if full.is_dir() => {
            return Err(Problem::value(
                format!("`{shown}` is a folder; name the file in it"),
                None,
            ));
        }
        PeopleFormat::Owners if prefix.is_none_or(|p| p.trim().is_empty()) => {
            return Err(Problem::value(
                format!(
                    "`{shown}` is an OWNERS file: give it a `prefix` for its groups' ids, e.g. {{ path = \"{shown}\", prefix = \"sig-docs\" }}"
                ),
                None,
            ));
        }
        _ => {}
    }
    Ok(())
}

/// `PathBuf` of a source, for messages and watching.
pub fn source_paths(settings: &Settings) -> Vec<PathBuf> {
    if settings.people.is_empty() {
        vec![PathBuf::from(DEFAULT_FILE)]
    } else {
        settings.people.iter().map(|s| s.path.clone()).collect()
    }
}
