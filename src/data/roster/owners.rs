//! Kubernetes' OWNERS and OWNERS_ALIASES files (YAML).
//!
//! An OWNERS file gives two groups, `PREFIX-approvers` and
//! `PREFIX-reviewers`, from its top-level lists and those of its `".*"`
//! filter; `emeritus_approvers` join the approvers with the status
//! `emeritus`. OWNERS_ALIASES gives one group per alias. Entries are logins
//! or aliases, resolved when the roster is merged.

use std::path::Path;
use std::sync::Arc;

use super::{ByLogin, SourceGroup, SourceRoster, group};
use crate::data::tree::{self, Entry, Node, NodeKind};
use crate::diagnostic::{Code, Diagnostic, Place, SourceFile};

/// The lists an OWNERS file's groups are made of: key, group, status.
const LISTS: [(&str, &str, Option<&str>); 3] = [
    ("approvers", "approvers", None),
    ("emeritus_approvers", "approvers", Some("emeritus")),
    ("reviewers", "reviewers", None),
];

/// Reads one OWNERS file; its groups' ids start with `prefix`.
pub(super) fn read_owners(
    path: &Path,
    display: &str,
    prefix: &str,
) -> Result<SourceRoster, Vec<Diagnostic>> {
    let (file, root) = tree::read_yaml(path, display)?;
    let mut errors = Vec::new();
    let top = table(&file, &root, "the OWNERS file", &mut errors);
    let mut blocks: Vec<&[Entry]> = vec![top];
    if let Some(filters) = top.iter().find(|e| e.key == "filters") {
        let filters = table(&file, &filters.value, "`filters`", &mut errors);
        if let Some(all) = filters.iter().find(|e| e.key == ".*") {
            blocks.push(table(&file, &all.value, "the `\".*\"` filter", &mut errors));
        }
    }
    let mut groups = Vec::new();
    for name in ["approvers", "reviewers"] {
        let id = format!("{prefix}-{name}");
        let mut source_group = SourceGroup {
            group: group(&id, &id),
            by_login: Vec::new(),
            at: Place::new(&file, 0..0),
        };
        for (key, _, status) in LISTS.iter().filter(|(_, g, _)| *g == name) {
            for entries in &blocks {
                let Some(list) = entries.iter().find(|e| e.key == *key) else {
                    continue;
                };
                source_group
                    .by_login
                    .extend(logins(&file, &list.value, key, *status, &mut errors));
            }
        }
        groups.push(source_group);
    }
    finish(file, groups, errors)
}

/// Reads OWNERS_ALIASES: `aliases:` with a list of logins per alias.
pub(super) fn read_aliases(path: &Path, display: &str) -> Result<SourceRoster, Vec<Diagnostic>> {
    let (file, root) = tree::read_yaml(path, display)?;
    let mut errors = Vec::new();
    let top = table(&file, &root, "the OWNERS_ALIASES file", &mut errors);
    let mut groups = Vec::new();
    match top.iter().find(|e| e.key == "aliases") {
        Some(aliases) => {
            for alias in table(&file, &aliases.value, "`aliases`", &mut errors) {
                groups.push(SourceGroup {
                    group: group(&alias.key, &alias.key),
                    by_login: logins(&file, &alias.value, &alias.key, None, &mut errors),
                    at: Place::new(&file, alias.key_span.clone()),
                });
            }
        }
        None if errors.is_empty() => errors.push(
            Diagnostic::error(
                Code::InvalidData,
                format!("{} has no `aliases:`", file.name),
            )
            .in_file(&file, 0..0)
            .with_help(
                "an OWNERS_ALIASES file is `aliases:` with a list of logins under each alias",
            ),
        ),
        None => {}
    }
    finish(file, groups, errors)
}

fn finish(
    file: Arc<SourceFile>,
    groups: Vec<SourceGroup>,
    errors: Vec<Diagnostic>,
) -> Result<SourceRoster, Vec<Diagnostic>> {
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(SourceRoster {
        files: vec![file],
        people: Vec::new(),
        groups,
        warnings: Vec::new(),
    })
}

fn table<'n>(
    file: &Arc<SourceFile>,
    node: &'n Node,
    what: &str,
    errors: &mut Vec<Diagnostic>,
) -> &'n [Entry] {
    match &node.kind {
        NodeKind::Table(entries) => entries,
        kind => {
            errors.push(
                Diagnostic::error(
                    Code::InvalidData,
                    format!("{what} must be a mapping, found {}", kind.describe()),
                )
                .in_file(file, node.span.clone()),
            );
            &[]
        }
    }
}

/// A list of logins (`list` under `key`).
fn logins(
    file: &Arc<SourceFile>,
    list: &Node,
    key: &str,
    status: Option<&str>,
    errors: &mut Vec<Diagnostic>,
) -> Vec<ByLogin> {
    let NodeKind::Array(items) = &list.kind else {
        errors.push(
            Diagnostic::error(
                Code::InvalidData,
                format!(
                    "`{key}` must be a list of logins, found {}",
                    list.kind.describe()
                ),
            )
            .in_file(file, list.span.clone()),
        );
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| {
            let at = Place::new(file, item.span.clone());
            match &item.kind {
                NodeKind::Str(login) => Some(ByLogin {
                    login: login.trim_start_matches('@').to_string(),
                    status: status.map(str::to_string),
                    at,
                }),
                kind => {
                    errors.push(
                        Diagnostic::error(
                            Code::InvalidData,
                            format!(
                                "an entry of `{key}` must be a login, found {}",
                                kind.describe()
                            ),
                        )
                        .in_file(file, item.span.clone()),
                    );
                    None
                }
            }
        })
        .collect()
}
