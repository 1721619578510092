//! Ownership held against the repository's files: a CODEOWNERS rule that
//! matches no file (C405: a deleted or renamed path, at its line, at the
//! level of `check-owners`), and, with `unowned`, the files no active
//! owner owns (C406: one finding, summed up by folder).
//!
//! C405 needs the repository's files, so it runs only for the
//! repository's own CODEOWNERS (where GitHub reads it: `.github/`, the
//! root or `docs/` of the repository root); a book keeping a CODEOWNERS of
//! its own, for show, lists nothing. `unowned` is off unless set.

use std::sync::Arc;

use crate::config::{Level, OwnershipSource, Settings};
use crate::data::codeowners::CodeOwners;
use crate::data::files::{CODEOWNERS_CANDIDATES, find_in_root_then_parent};
use crate::data::ownership::coverage::{Coverage, UnownedFolder};
use crate::data::ownership::{self, Ownership};
use crate::data::repository::Repository;
use crate::data::{Data, LoadError};
use crate::diagnostic::{Code, Diagnostic, SourceFile, plural};
use crate::mdbook::config::BookToml;

/// At most this many folders are named in the `unowned` finding.
const FOLDER_LINES: usize = 8;

/// The findings of both checks, or nothing when they are off or do not
/// apply.
pub fn check(settings: &Settings, data: &Data) -> Vec<Diagnostic> {
    let mut out = rules_matching_nothing(settings, data);
    out.extend(unowned(settings, data));
    out
}

/// C405, for the repository's own CODEOWNERS.
fn rules_matching_nothing(settings: &Settings, data: &Data) -> Vec<Diagnostic> {
    if settings.check_owners == Level::Off
        || ownership::source(settings) != OwnershipSource::CodeOwners
    {
        return Vec::new();
    }
    let found = match &settings.codeowners {
        Some(path) => Some(path.clone()),
        None => find_in_root_then_parent(&settings.root, CODEOWNERS_CANDIDATES).ok(),
    };
    let Some(found) = found else {
        return Vec::new();
    };
    let root = Repository::root_of(settings);
    if !ownership::is_repository_codeowners(&root, &settings.in_root(&found)) {
        return Vec::new();
    }
    // A CODEOWNERS or a repository that cannot be read is reported by
    // whatever else reads it; this check has nothing to say then.
    let (Ok(owners), Ok(repository), Ok(coverage)) = (
        data.codeowners(settings),
        data.repository(settings),
        data.coverage(settings),
    ) else {
        return Vec::new();
    };
    (owners.rules().iter().enumerate())
        .filter(|(i, _)| !coverage.rule_matches(*i))
        .map(|(_, rule)| {
            let d = Diagnostic::error(
                Code::RuleMatchesNothing,
                format!("the pattern `{}` matches no file in the repository", rule.pattern),
            )
            .in_file(owners.file(), rule.pattern_range.clone())
            .with_label("a deleted or renamed path?")
            .with_help("if the path was renamed, give the rule its new name; if it is gone, remove the rule")
            .with_note(format!(
                "checked against the {} {}",
                plural(repository.files().len(), "file"),
                repository.described()
            ));
            settings.check_owners.severity_of(d)
        })
        .collect()
}

/// C406, with `unowned` on.
fn unowned(settings: &Settings, data: &Data) -> Vec<Diagnostic> {
    if settings.unowned == Level::Off {
        return Vec::new();
    }
    let loaded = data.ownership(settings).and_then(|ownership| {
        Ok((
            ownership,
            data.repository(settings)?,
            data.coverage(settings)?,
        ))
    });
    let (ownership, repository, coverage) = match loaded {
        Ok(loaded) => loaded,
        Err(e) => return vec![not_checked(settings, &e)],
    };
    let folders = coverage.unowned_by_folder(&repository, FOLDER_LINES);
    if folders.is_empty() {
        return Vec::new();
    }
    let d = unowned_diagnostic(&coverage, &folders);
    let d = match at_file(&ownership) {
        Some(file) => d.in_file(&file, 0..0),
        None => d.at_path(ownership.source_name()),
    };
    vec![settings.unowned.severity_of(d)]
}

/// The one finding: the count, then a note per folder.
fn unowned_diagnostic(coverage: &Coverage, folders: &[UnownedFolder]) -> Diagnostic {
    let unowned: usize = folders.iter().map(|f| f.unowned).sum();
    let mut d = Diagnostic::error(
        Code::UnownedFiles,
        format!(
            "{unowned} of the repository's {} have no active owner",
            plural(coverage.files(), "file")
        ),
    )
    .with_label("no rule here gives them an active owner");
    for folder in folders.iter().take(FOLDER_LINES) {
        let name = match folder.folder.as_str() {
            "" => "the repository root".to_string(),
            folder => format!("`{folder}`"),
        };
        let share = match folder.unowned == folder.files {
            true => format!("all {}", plural(folder.files, "file")),
            false => format!("{} of {}", folder.unowned, plural(folder.files, "file")),
        };
        d = d.with_note(format!("{name}: {share}"));
    }
    let rest = &folders[folders.len().min(FOLDER_LINES)..];
    if !rest.is_empty() {
        let files: usize = rest.iter().map(|f| f.unowned).sum();
        d = d.with_note(format!(
            "and {} more, with {}",
            plural(rest.len(), "folder"),
            plural(files, "file")
        ));
    }
    d.with_help("`mdbook-community owners --coverage` lists every file and who owns what")
}

/// Where the finding is: CODEOWNERS, or the root's OWNERS file (else the
/// first OWNERS file).
fn at_file(ownership: &Ownership) -> Option<Arc<SourceFile>> {
    match ownership {
        Ownership::CodeOwners(owners) => Some(Arc::clone(CodeOwners::file(owners))),
        Ownership::Owners(tree) => {
            let files = tree.files();
            let root = files.iter().find(|f| f.folder.is_empty()).or(files.first());
            root.map(|f| Arc::clone(&f.file))
        }
    }
}

/// Why `unowned` could not be checked, at the setting in `book.toml`.
fn not_checked(settings: &Settings, e: &LoadError) -> Diagnostic {
    let d = Diagnostic::error(Code::MissingData, e.summary.clone())
        .with_note("`unowned` is on, but who owns the repository's files is not known");
    let d = match BookToml::read(&settings.root) {
        Some(book) => match book.plugin_key("unowned", true) {
            Some(range) => d.in_file(&book.file, range),
            None => d.at_path("book.toml"),
        },
        None => d.at_path("book.toml"),
    };
    settings.unowned.severity_of(d)
}
