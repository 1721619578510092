//! Ownership held against the repository's files: a CODEOWNERS rule that
//! matches no file (C405: a deleted or renamed path, at its line, at the
//! level of `check-owners`), and, with `unowned`, the files no active
//! owner owns (C408: one finding, summed up by folder), and with
//! `min-owners`, the files with fewer active owners (C409, a warning,
//! summed up the same way).
//!
//! C405 needs the repository's files, so it runs only for the
//! repository's own CODEOWNERS (where GitHub reads it: `.github/`, the
//! root or `docs/` of the repository root); a book keeping a CODEOWNERS of
//! its own, for show, lists nothing. `unowned` is off unless set.

use std::sync::Arc;

use crate::config::{Level, OwnershipSource, Settings};
use crate::data::Data;
use crate::diagnostic::{Code, Diagnostic, SourceFile, plural};
use crate::files::LoadError;
use crate::mdbook::config::BookToml;
use crate::ownership::Ownership;
use crate::ownership::codeowners::CodeOwners;
use crate::ownership::coverage::{Coverage, UnownedFolder};

/// At most this many folders are named in the `unowned` finding.
const FOLDER_LINES: usize = 8;

/// The findings of both checks, or nothing when they are off or do not
/// apply.
pub fn check(settings: &Settings, data: &Data) -> Vec<Diagnostic> {
    let mut out = rules_matching_nothing(settings, data);
    out.extend(unowned(settings, data));
    out.extend(too_few_owners(settings, data));
    out
}

/// C409, with `min-owners` set: the files with fewer active owners, summed
/// up by folder as C408 sums the unowned; a warning.
fn too_few_owners(settings: &Settings, data: &Data) -> Vec<Diagnostic> {
    let Some(min) = settings.min_owners.filter(|&n| n > 1) else {
        return Vec::new();
    };
    let (Ok(ownership), Ok(repository), Ok(coverage)) = (
        data.ownership(settings),
        data.repository(settings),
        data.coverage(settings),
    ) else {
        return Vec::new(); // reported by what else reads them, or by `unowned`
    };
    let folders = coverage.short_by_folder(&repository, FOLDER_LINES, min);
    if folders.is_empty() {
        return Vec::new();
    }
    let short: usize = folders.iter().map(|f| f.unowned).sum();
    let message = format!(
        "{short} of the repository's {} have fewer than {min} active owners",
        plural(coverage.files(), "file")
    );
    let d = by_folder(Diagnostic::warning(Code::TooFewOwners, message), &folders)
        .with_label(format!("`min-owners = {min}`"))
        .with_note("a team counts as its members who serve; an owner the roster does not know counts as one");
    vec![match at_file(&ownership) {
        Some(file) => d.in_file(&file, 0..0),
        None => d.at_path(ownership.source_name()),
    }]
}

/// C405, for the repository's own CODEOWNERS.
fn rules_matching_nothing(settings: &Settings, data: &Data) -> Vec<Diagnostic> {
    if settings.check_owners == Level::Off
        || data.ownership_source(settings) != OwnershipSource::CodeOwners
        || !data.codeowners_is_repositorys(settings)
    {
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

/// C408, with `unowned` on.
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
    let label = match &ownership {
        Ownership::CodeOwners(_) => "no rule of this file gives them an active owner",
        Ownership::Owners(_) => "no OWNERS file gives them an active approver",
    };
    let d = unowned_diagnostic(&coverage, &folders).with_label(label);
    let d = match at_file(&ownership) {
        Some(file) => d.in_file(&file, 0..0),
        None => d.at_path(ownership.source_name()),
    };
    vec![settings.unowned.severity_of(d)]
}

/// The one finding: the count, then a note per folder.
fn unowned_diagnostic(coverage: &Coverage, folders: &[UnownedFolder]) -> Diagnostic {
    let unowned: usize = folders.iter().map(|f| f.unowned).sum();
    let d = Diagnostic::error(
        Code::UnownedFiles,
        format!(
            "{unowned} of the repository's {} have no active owner",
            plural(coverage.files(), "file")
        ),
    );
    by_folder(d, folders)
}

/// `d` with a note per folder (at most [`FOLDER_LINES`], then one for the
/// rest) and the command that lists every file.
fn by_folder(mut d: Diagnostic, folders: &[UnownedFolder]) -> Diagnostic {
    for folder in folders.iter().take(FOLDER_LINES) {
        let name = match folder.folder.as_str() {
            "" => "the repository root".to_string(),
            folder => format!("`{folder}`"),
        };
        let share = match (folder.unowned, folder.files) {
            (1, 1) => "its one file".to_string(),
            (unowned, files) if unowned == files => format!("all {files} files"),
            (unowned, files) => format!("{unowned} of {}", plural(files, "file")),
        };
        d = d.with_note(format!("{name}: {share}"));
    }
    let rest = &folders[folders.len().min(FOLDER_LINES)..];
    if !rest.is_empty() {
        let files: usize = rest.iter().map(|f| f.unowned).sum();
        let folders = if rest.len() == 1 { "folder" } else { "folders" };
        d = d.with_note(format!(
            "and {} more {folders}, with {}",
            rest.len(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;
    use crate::mdbook::{Context, Generation};

    /// A repository (a `.git` folder, listed by walking it: git cannot read
    /// this one) holding `files`, with its book in `book/`.
    fn repository(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        for (path, text) in [
            (".git/HEAD", "ref: refs/heads/main\n"),
            ("book/book.toml", ""),
        ]
        .iter()
        .chain(files)
        {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().expect("a folder")).expect("writable");
            std::fs::write(full, text).expect("writable");
        }
        dir
    }

    fn settings(root: &std::path::Path, config: serde_json::Value) -> Settings {
        let context = Context {
            root: root.join("book"),
            config: serde_json::json!({"preprocessor": {"community": config}}),
            renderer: "html".into(),
            mdbook_version: "0.5.4".into(),
        };
        Settings::from_context(&context, Generation::V05).expect("valid")
    }

    #[test]
    fn a_rule_that_matches_nothing_is_a_warning_at_its_pattern() {
        let repo = repository(&[
            ("CODEOWNERS", "* @a\n/old/ @b\n/src/ @c\n"),
            ("src/main.rs", ""),
        ]);
        let data = Data::default();
        let found = check(&settings(repo.path(), serde_json::json!({})), &data);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].code, Code::RuleMatchesNothing);
        assert_eq!(found[0].severity, Severity::Warning);
        assert!(found[0].message.contains("`/old/`"), "{found:?}");
        // Off with the drift check.
        let data = Data::default();
        let off = serde_json::json!({"check-owners": "off"});
        assert!(check(&settings(repo.path(), off), &data).is_empty());
        assert!(!data.repository_listed());
    }

    /// Nothing is listed when nothing asks: a CODEOWNERS the book keeps
    /// for itself (not where GitHub reads the repository's), `unowned`
    /// off.
    #[test]
    fn nothing_is_listed_when_nothing_asks() {
        let repo = repository(&[("book/CODEOWNERS", "/nowhere/ @a\n")]);
        let data = Data::default();
        assert!(check(&settings(repo.path(), serde_json::json!({})), &data).is_empty());
        assert!(!data.repository_listed());
    }

    #[test]
    fn unowned_files_are_one_finding_summed_up_by_folder() {
        let mut files = vec![("CODEOWNERS", "/src/ @a\n/src/gen/\n")];
        let names: Vec<String> = (0..40).map(|i| format!("gen{}/f{i}.rs", i % 12)).collect();
        files.extend(names.iter().map(|n| (n.as_str(), "")));
        files.push(("src/main.rs", ""));
        files.push(("src/gen/x.rs", ""));
        let repo = repository(&files);
        let data = Data::default();
        let error = serde_json::json!({"unowned": "error"});
        let found = check(&settings(repo.path(), error), &data);
        assert_eq!(found.len(), 1, "{found:?}");
        let d = &found[0];
        assert_eq!((d.code, d.severity), (Code::UnownedFiles, Severity::Error));
        assert_eq!(
            d.message,
            "43 of the repository's 44 files have no active owner"
        );
        // Fifteen groups (twelve folders, `book/`, `src/` and the root):
        // eight named, the rest in one note.
        assert_eq!(d.notes.len(), 9, "{:?}", d.notes);
        assert_eq!(d.notes[0], "`gen0/`: all 4 files");
        assert_eq!(d.notes[8], "and 7 more folders, with 15 files");
        assert!(matches!(
            d.location,
            Some(crate::diagnostic::Location::File { .. })
        ));
    }

    #[test]
    fn unowned_without_ownership_is_reported_once() {
        let repo = repository(&[("src/main.rs", "")]);
        let data = Data::default();
        let found = check(
            &settings(repo.path(), serde_json::json!({"unowned": "warn"})),
            &data,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].code, Code::MissingData);
        assert_eq!(found[0].severity, Severity::Warning);
    }
}
