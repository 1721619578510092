//! `people` (the roster's sources, merged in order) and the settings of the
//! CODEOWNERS drift check.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::formats::{FORMATS, PeopleFormat};
use super::{Level, Problem, Settings, path, string};
use crate::diagnostic::did_you_mean;

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
        let format = match format.or_else(|| PeopleFormat::implied(&path, &full)) {
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
    FORMATS
        .iter()
        .map(|facts| format!("\"{}\"", facts.name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn format_named(value: &Value) -> Result<PeopleFormat, Problem> {
    let name = string(value)?;
    PeopleFormat::named(&name).ok_or_else(|| {
        Problem::value(
            format!(
                "has an unknown format `{name}` (formats: {})",
                format_names()
            ),
            did_you_mean(&name, FORMATS.iter().map(|facts| facts.name)).map(str::to_string),
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
