//! Kubernetes' OWNERS and OWNERS_ALIASES files (YAML).
//!
//! An OWNERS file gives two groups, `PREFIX-approvers` and
//! `PREFIX-reviewers`, from its top-level lists and those of its `".*"`
//! filter; `emeritus_approvers` join the approvers with the status
//! `emeritus`. OWNERS_ALIASES gives one group per alias. Entries are logins
//! or aliases, resolved when the roster is merged. The YAML is read as
//! the OWNERS tree reads it (`data::ownership::owners_file`), through the
//! run's one read of each YAML file.

use std::path::Path;
use std::sync::Arc;

use super::{ByLogin, SourceGroup, SourceRoster, group};
use crate::diagnostic::{Diagnostic, Place, SourceFile};
use crate::files::tree::YamlFiles;
use crate::ownership::owners_file::{self, Login};

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
    yaml: &YamlFiles,
) -> Result<SourceRoster, Vec<Diagnostic>> {
    let (file, root) = yaml.read(path, display)?;
    let mut errors = Vec::new();
    let top = owners_file::table(&file, &root, "the OWNERS file", &mut errors);
    let mut blocks = vec![owners_file::lists(&file, top, &mut errors)];
    if let Some(filters) = top.iter().find(|e| e.key == "filters") {
        let filters = owners_file::table(&file, &filters.value, "`filters`", &mut errors);
        if let Some(all) = filters.iter().find(|e| e.key == ".*") {
            let all = owners_file::table(&file, &all.value, "the `\".*\"` filter", &mut errors);
            blocks.push(owners_file::lists(&file, all, &mut errors));
        }
    }
    let mut groups = Vec::new();
    for name in ["approvers", "reviewers"] {
        let id = format!("{prefix}-{name}");
        // The group is where its list is: its key's first `approvers:` or
        // `reviewers:`, the file's start when it has none.
        let key = blocks.iter().find_map(|block| match name {
            "approvers" => block.approvers_key.clone(),
            _ => block.reviewers_key.clone(),
        });
        let mut source_group = SourceGroup {
            group: group(&id, &id),
            by_login: Vec::new(),
            at: Place::new(&file, key.unwrap_or(0..0)),
        };
        for (key, _, status) in LISTS.iter().filter(|(_, g, _)| *g == name) {
            for block in &blocks {
                let list = match *key {
                    "approvers" => &block.approvers,
                    "reviewers" => &block.reviewers,
                    _ => &block.emeritus,
                };
                source_group
                    .by_login
                    .extend(list.iter().map(|l| by_login(&file, l, *status)));
            }
        }
        groups.push(source_group);
    }
    finish(file, groups, errors)
}

/// Reads OWNERS_ALIASES: `aliases:` with a list of logins per alias.
pub(super) fn read_aliases(
    path: &Path,
    display: &str,
    yaml: &YamlFiles,
) -> Result<SourceRoster, Vec<Diagnostic>> {
    let (file, root) = yaml.read(path, display)?;
    let mut errors = Vec::new();
    let groups = owners_file::aliases(&file, &root, &mut errors)
        .into_iter()
        .map(|alias| SourceGroup {
            group: group(&alias.name, &alias.name),
            by_login: (alias.members.iter())
                .map(|l| by_login(&file, l, None))
                .collect(),
            at: Place::new(&file, alias.span.clone()),
        })
        .collect();
    finish(file, groups, errors)
}

fn by_login(file: &Arc<SourceFile>, login: &Login, status: Option<&str>) -> ByLogin {
    ByLogin {
        login: login.login.clone(),
        status: status.map(str::to_string),
        at: Place::new(file, login.span.clone()),
    }
}

fn finish(
    file: Arc<SourceFile>,
    groups: Vec<SourceGroup>,
    errors: Vec<Diagnostic>,
) -> Result<SourceRoster, Vec<Diagnostic>> {
    let (errors, warnings) = owners_file::split_warnings(errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(SourceRoster {
        files: vec![file],
        people: Vec::new(),
        groups,
        warnings,
    })
}
