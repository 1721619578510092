//! `copies`: the other files that copy a group of the roster, so that a
//! build can say where they disagree (`people::copies`).
//!
//! ```toml
//! [preprocessor.community.copies]
//! maintainers = ["../.project/maintainers.yaml", "../OWNERS_ALIASES#approvers"]
//! ```
//!
//! Each key is a group id; each copy a path relative to the book root,
//! read in the format its name implies, with `#NAME` choosing one team,
//! alias or group in it; or a table `{ path, format, group }`.

use std::path::PathBuf;

use serde_json::Value;

use super::formats::PeopleFormat;
use super::{Problem, Settings, string};
use crate::diagnostic::did_you_mean;

/// The copies of one group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupCopies {
    /// The group's id in the roster.
    pub group: String,
    /// Its copies, in order.
    pub copies: Vec<CopySource>,
}

/// One file that copies a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopySource {
    /// As `book.toml` spells it (`../OWNERS_ALIASES#approvers`).
    pub spelled: String,
    /// Relative to the book root.
    pub path: PathBuf,
    /// How to read it.
    pub format: PeopleFormat,
    /// The team, alias or group of the file that is the copy (`None`: the
    /// group of the same id, `project-maintainers` in a CNCF file, else
    /// everyone the file lists).
    pub name: Option<String>,
}

const COPY_KEYS: &[&str] = &["path", "format", "group"];

impl Settings {
    /// `copies = { GROUP = ["PATH#NAME", ...] }`.
    pub(super) fn apply_copies(&mut self, value: &Value) -> Result<(), Problem> {
        let Value::Object(table) = value else {
            return Err(Problem::value(
                "must be a table of group ids, each with a list of files, e.g. copies = { maintainers = [\"../.project/maintainers.yaml\"] }",
                None,
            ));
        };
        let mut all = Vec::new();
        for (group, copies) in table {
            let Value::Array(items) = copies else {
                return Err(Problem::value(
                    format!("`{group}` must be a list of files, found {copies}"),
                    None,
                ));
            };
            let copies = (items.iter())
                .map(|item| self.copy_source(group, item))
                .collect::<Result<Vec<_>, _>>()?;
            all.push(GroupCopies {
                group: group.clone(),
                copies,
            });
        }
        self.copies = all;
        Ok(())
    }

    fn copy_source(&self, group: &str, item: &Value) -> Result<CopySource, Problem> {
        let (spelled, format, name) = match item {
            Value::Object(table) => {
                if let Some(key) = table.keys().find(|k| !COPY_KEYS.contains(&k.as_str())) {
                    return Err(Problem::value(
                        format!(
                            "`{group}` has a copy with the unknown key `{key}` (keys: path, format, group)"
                        ),
                        did_you_mean(key, COPY_KEYS.iter().copied()).map(str::to_string),
                    ));
                }
                let path = string(table.get("path").unwrap_or(&Value::Null)).map_err(|_| {
                    Problem::value(format!("`{group}` has a copy without a `path`"), None)
                })?;
                let format = table.get("format").map(string).transpose()?;
                let name = table.get("group").map(string).transpose()?;
                (path, format, name)
            }
            other => {
                let spelled = string(other)?;
                match spelled.rsplit_once('#') {
                    Some((path, name)) => (path.to_string(), None, Some(name.to_string())),
                    None => (spelled, None, None),
                }
            }
        };
        let path = PathBuf::from(&spelled);
        let full = self.in_root(&path);
        let shown = crate::paths::display(&path);
        if !full.is_file() {
            return Err(Problem::file(
                format!("`{group}` names the copy `{shown}`, which is not a file"),
                None,
            ));
        }
        let format = match format {
            Some(name) => PeopleFormat::named(&name).ok_or_else(|| {
                Problem::value(format!("`{group}`: unknown format `{name}` for `{shown}`"), None)
            })?,
            None => PeopleFormat::implied(&path, &full).ok_or_else(|| {
                Problem::value(
                    format!("`{group}`: cannot tell the format of `{shown}` from its name; write {{ path = \"{shown}\", format = \"...\" }}"),
                    None,
                )
            })?,
        };
        if format == PeopleFormat::RustTeam {
            return Err(Problem::value(
                format!("`{group}`: a rust-lang/team folder cannot be a copy"),
                None,
            ));
        }
        let spelled = match &name {
            Some(name) => format!("{shown}#{name}"),
            None => shown,
        };
        Ok(CopySource {
            spelled,
            path,
            format,
            name: name.filter(|n| !n.is_empty()),
        })
    }
}
