//! `mdbook-community owners [BOOK_DIR] [PATH...] [--coverage] [--format
//! human|json]`: who owns each PATH (relative to the repository root;
//! every file when none is given and `--coverage` is not), from CODEOWNERS
//! (the rule and its line) or the OWNERS tree (approvers and reviewers),
//! each owner with their roster name and status; `--coverage` adds the
//! repository's figures. `json` is a stable interface (see the guide's
//! "Who owns what").

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use serde::Serialize;

use super::book::{LoadedBook, NotABook, cannot_run, print};
use crate::config::Settings;
use crate::data::Data;
use crate::diagnostic::plural;
use crate::files::LoadError;
use crate::ownership::codeowners::{CodeOwners, Owner, OwnerKind, Rule};
use crate::ownership::coverage::{Coverage, without_roster};
use crate::ownership::repository::Repository;
use crate::ownership::tree::TreeOwners;
use crate::ownership::{Ownership, user};
use crate::people::People;
use crate::report::{MessageFormat, shown_line};

/// `--format`'s values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OwnersFormat {
    /// Lines for people.
    #[default]
    Human,
    /// The stable JSON shape.
    Json,
}

/// What to print.
pub struct OwnersOptions<'a> {
    /// The book's folder.
    pub book_dir: &'a Path,
    /// The paths asked about.
    pub paths: &'a [String],
    /// `--coverage`.
    pub coverage: bool,
    /// `--format`.
    pub format: OwnersFormat,
    /// Colour on stderr.
    pub color: bool,
}

/// How many folders the human coverage names.
const FOLDER_LINES: usize = 20;

/// Exit codes: 0 printed (warnings about the data are printed too), 1 who
/// owns what could not be read, 2 the command could not run.
pub fn run(options: &OwnersOptions<'_>) -> u8 {
    let mut stderr = std::io::stderr().lock();
    let say = |stderr: &mut dyn Write, d: &[crate::diagnostic::Diagnostic]| {
        let _ = print(
            stderr,
            d,
            options.book_dir,
            MessageFormat::Human,
            options.color,
        );
    };
    let book = match LoadedBook::load(options.book_dir) {
        Ok(book) => book,
        Err(NotABook(why)) => {
            say(&mut stderr, &[why]);
            return 2;
        }
    };
    let (settings, problems) = book.settings();
    if !problems.is_empty() {
        say(&mut stderr, &problems);
        return 2;
    }
    let outside: Vec<_> = (options.paths.iter())
        .filter(|p| in_repository(p).is_none())
        .map(|p| {
            cannot_run(format!(
                "`{p}` is outside the repository: paths are relative to the repository root"
            ))
        })
        .collect();
    if !outside.is_empty() {
        say(&mut stderr, &outside);
        return 2;
    }
    let data = Data::default();
    let loaded = load(&settings, &data, options.coverage);
    // The roster's problems are printed with the others.
    let people = data.people(&settings).ok();
    say(&mut stderr, &data.diagnostics());
    let (ownership, repository, coverage) = match loaded {
        Ok(loaded) => loaded,
        Err(e) => {
            if e.diagnostics.is_empty() {
                say(&mut stderr, &[cannot_run(e.summary)]);
            }
            return 1;
        }
    };
    let report = Report {
        settings: &settings,
        ownership: &ownership,
        repository: &repository,
        people: people.as_deref(),
        inactive: (people.as_deref())
            .map(|p| p.inactive_logins())
            .unwrap_or_default(),
    };
    let paths = report.paths(options);
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let written = match options.format {
        OwnersFormat::Human => {
            stdout.write_all(report.human(&paths, coverage.as_deref()).as_bytes())
        }
        OwnersFormat::Json => {
            serde_json::to_writer(&mut stdout, &report.json(&paths, coverage.as_deref()))
                .map_err(std::io::Error::from)
                .and_then(|()| stdout.write_all(b"\n"))
        }
    };
    match written.and_then(|()| stdout.flush()) {
        Ok(()) => 0,
        Err(_) => 2,
    }
}

/// `path` (relative to the repository root; a leading `/` or `./` is the
/// root) as the repository names it: `.` and empty segments dropped, each
/// `..` taking back the segment before it, a folder's trailing `/` kept
/// (`d/../x/` is `x/`). `None` when a `..` climbs above the root (issue
/// 38, 18).
fn in_repository(path: &str) -> Option<String> {
    let mut segments: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop()?;
            }
            name => segments.push(name),
        }
    }
    let mut out = segments.join("/");
    let last = path.rsplit('/').next().unwrap_or_default();
    let folder = path.ends_with('/') || matches!(last, "." | "..");
    if folder && !out.is_empty() {
        out.push('/');
    }
    Some(out)
}

type Loaded = (
    Ownership,
    std::sync::Arc<Repository>,
    Option<std::sync::Arc<Coverage>>,
);

/// Who owns what, the repository's files, and (for `--coverage`) who
/// owns each.
fn load(settings: &Settings, data: &Data, coverage: bool) -> Result<Loaded, LoadError> {
    let ownership = data.ownership(settings)?;
    let repository = data.repository(settings)?;
    let coverage = match coverage {
        true => Some(data.coverage(settings)?),
        false => None,
    };
    Ok((ownership, repository, coverage))
}

/// What the report is made from.
struct Report<'a> {
    settings: &'a Settings,
    ownership: &'a Ownership,
    repository: &'a Repository,
    people: Option<&'a People>,
    inactive: std::collections::HashSet<String>,
}

/// One owner in the JSON shape.
#[derive(Serialize)]
struct OwnerJson {
    owner: String,
    name: Option<String>,
    status: &'static str,
}

/// One path in the JSON shape: CODEOWNERS's or the OWNERS tree's.
#[derive(Serialize)]
#[serde(untagged)]
enum PathJson {
    Rule {
        owners: Vec<OwnerJson>,
        rule: Option<String>,
        /// GitLab: each section's rule that applies, when any is in a
        /// named section (the owners above are theirs together).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        sections: Vec<SectionJson>,
    },
    Tree {
        approvers: Vec<OwnerJson>,
        reviewers: Vec<OwnerJson>,
    },
}

/// A folder's files and who owns them.
#[derive(Serialize)]
struct FolderJson {
    files: usize,
    owned: usize,
    /// The owners of its files, those owning the most files first.
    owners: Vec<OwnerJson>,
}

/// A GitLab section's rule for a path.
#[derive(Serialize)]
struct SectionJson {
    section: String,
    rule: String,
    pattern: String,
    optional: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    approvals: Option<u32>,
    owners: Vec<OwnerJson>,
}

/// A rule that matches no file.
#[derive(Serialize)]
struct UnmatchedJson {
    line: usize,
    pattern: String,
}

/// The stable JSON shape.
#[derive(Serialize)]
struct OwnersJson {
    source: &'static str,
    paths: serde_json::Map<String, serde_json::Value>,
    #[serde(flatten)]
    coverage: Option<CoverageJson>,
}

#[derive(Serialize)]
struct CoverageJson {
    files: usize,
    owned: usize,
    unowned: usize,
    /// Files by how many active people own them: `"0"`, `"1"`, `"2+"`.
    by_active_owners: BTreeMap<&'static str, usize>,
    unowned_paths: Vec<String>,
    rules_matching_nothing: Vec<UnmatchedJson>,
}

impl Report<'_> {
    /// The paths asked about, as the repository names them (a folder
    /// keeps its trailing `/`: who owns the files in it); every file when
    /// none is asked about and coverage is not.
    fn paths(&self, options: &OwnersOptions<'_>) -> Vec<String> {
        if options.paths.is_empty() && !options.coverage {
            return self.repository.files().to_vec();
        }
        (options.paths.iter())
            .filter_map(|p| in_repository(p))
            .collect()
    }

    /// What the roster says of `owner`: their name, and `active`,
    /// `inactive` or `not-in-roster`.
    fn owner_json(&self, owner: &Owner) -> OwnerJson {
        let name = owner.text.trim_start_matches('@');
        let (shown, known) = match owner.kind {
            OwnerKind::User => (
                self.people
                    .and_then(|p| p.by_github(name))
                    .map(|p| p.name.clone()),
                self.people.and_then(|p| p.by_github(name)).is_some(),
            ),
            OwnerKind::Team => {
                let group = self.people.and_then(|p| p.group_of_team(name));
                (group.map(|g| g.title.clone()), group.is_some())
            }
            OwnerKind::Email | OwnerKind::Role => (None, false),
        };
        let inactive =
            owner.kind == OwnerKind::User && self.inactive.contains(&name.to_lowercase());
        OwnerJson {
            owner: owner.text.clone(),
            name: shown,
            status: match (owner.kind, known, inactive) {
                (OwnerKind::Role, _, _) => "role",
                (_, _, true) => "inactive",
                (_, true, false) => "active",
                (_, false, false) => "not-in-roster",
            },
        }
    }

    /// An OWNERS login, as the project writes it (no `@`).
    fn login_json(&self, login: &str) -> OwnerJson {
        let written = match self.ownership {
            Ownership::Owners(tree) => tree.as_written(login),
            Ownership::CodeOwners(_) => login,
        };
        OwnerJson {
            owner: written.to_string(),
            ..self.owner_json(&user(written))
        }
    }

    fn path_json(&self, path: &str) -> PathJson {
        match self.ownership {
            Ownership::CodeOwners(owners) => {
                let rules = owners.owners_of(path);
                let name = self.codeowners_name(owners);
                let sections = match rules.iter().any(|r| r.section > 0) {
                    true => rules
                        .iter()
                        .map(|r| self.section_json(owners, r, &name))
                        .collect(),
                    false => Vec::new(),
                };
                let owned =
                    crate::ownership::Owned::Rules(rules.clone(), owners.dialect()).owners();
                PathJson::Rule {
                    owners: owned.iter().map(|o| self.owner_json(o)).collect(),
                    rule: rules.first().map(|r| format!("{name}:{}", r.line)),
                    sections,
                }
            }
            Ownership::Owners(tree) => {
                let TreeOwners {
                    approvers,
                    reviewers,
                    ..
                } = tree.owners_of(path);
                PathJson::Tree {
                    approvers: approvers.iter().map(|l| self.login_json(l)).collect(),
                    reviewers: reviewers.iter().map(|l| self.login_json(l)).collect(),
                }
            }
        }
    }

    /// GitLab section `rule`'s answer for a path.
    fn section_json(&self, owners: &CodeOwners, rule: &Rule, name: &str) -> SectionJson {
        let section = &owners.sections()[rule.section];
        SectionJson {
            section: section.name.clone(),
            rule: format!("{name}:{}", rule.line),
            pattern: rule.pattern.clone(),
            optional: section.optional,
            approvals: section.approvals,
            owners: rule.owners.iter().map(|o| self.owner_json(o)).collect(),
        }
    }

    /// CODEOWNERS as the repository names it (`.github/CODEOWNERS`), or as
    /// the book does when it is outside the repository.
    fn codeowners_name(&self, owners: &CodeOwners) -> String {
        let name = &owners.file().name;
        let full = crate::paths::normalize(&self.settings.in_root(Path::new(name)));
        let root = self
            .repository
            .root
            .canonicalize()
            .unwrap_or_else(|_| self.repository.root.clone());
        let full = full.canonicalize().unwrap_or(full);
        match full.strip_prefix(&root) {
            Ok(inside) => crate::paths::display(inside),
            Err(_) => name.clone(),
        }
    }

    /// When `path` is a folder of the repository: how many of its files
    /// have an active owner, and who owns them (a folder's own rule, if
    /// any, may say nothing of the files in it).
    fn folder_json(&self, path: &str) -> Option<FolderJson> {
        let prefix = format!("{}/", path.trim_end_matches('/'));
        let files = self.repository.files();
        let start = files.partition_point(|f| f.as_str() < prefix.as_str());
        let below: Vec<String> = (files[start..].iter())
            .take_while(|f| f.starts_with(&prefix))
            .cloned()
            .collect();
        if below.is_empty() {
            return None;
        }
        let folder = Repository::of_files(self.repository.root.clone(), below);
        let coverage = match self.people {
            Some(people) => {
                Coverage::compute(&folder, self.ownership, &|o| people.active_people(o))
            }
            None => Coverage::compute(&folder, self.ownership, &without_roster),
        };
        let depth = prefix.matches('/').count();
        let summary =
            (coverage.folders(&folder, depth).into_iter()).find(|f| f.folder == prefix)?;
        Some(FolderJson {
            files: summary.files,
            owned: summary.owned,
            owners: summary.owners.iter().map(|o| self.owner_json(o)).collect(),
        })
    }

    fn json(&self, paths: &[String], coverage: Option<&Coverage>) -> OwnersJson {
        let mut map = serde_json::Map::new();
        for path in paths {
            let mut value = serde_json::to_value(self.path_json(path)).unwrap_or_default();
            if let (Some(folder), Some(object)) = (self.folder_json(path), value.as_object_mut()) {
                object.insert(
                    "folder".into(),
                    serde_json::to_value(folder).unwrap_or_default(),
                );
            }
            map.insert(path.clone(), value);
        }
        OwnersJson {
            source: self.ownership.source_name(),
            paths: map,
            coverage: coverage.map(|c| self.coverage_json(c)),
        }
    }

    fn coverage_json(&self, coverage: &Coverage) -> CoverageJson {
        let files = self.repository.files();
        let unowned_paths: Vec<String> = (0..files.len())
            .filter(|&i| !coverage.is_owned(i))
            .map(|i| files[i].clone())
            .collect();
        let [none, one, more] = coverage.by_active_people();
        CoverageJson {
            files: files.len(),
            owned: files.len() - unowned_paths.len(),
            unowned: unowned_paths.len(),
            by_active_owners: BTreeMap::from([("0", none), ("1", one), ("2+", more)]),
            unowned_paths,
            rules_matching_nothing: self
                .unmatched(coverage)
                .into_iter()
                .map(|(line, pattern)| UnmatchedJson { line, pattern })
                .collect(),
        }
    }

    /// The CODEOWNERS rules that match no file: line and pattern.
    fn unmatched(&self, coverage: &Coverage) -> Vec<(usize, String)> {
        match self.ownership {
            Ownership::CodeOwners(owners) => (owners.rules().iter().enumerate())
                .filter(|(i, _)| !coverage.rule_matches(*i))
                .map(|(_, r)| (r.line, r.pattern.clone()))
                .collect(),
            Ownership::Owners(_) => Vec::new(),
        }
    }

    /// Each path with its owners, then the coverage.
    fn human(&self, paths: &[String], coverage: Option<&Coverage>) -> String {
        let mut out = String::new();
        let mut line = |text: String| {
            out.push_str(&shown_line(&text));
            out.push('\n');
        };
        for path in paths {
            line(path.clone());
            for (label, owners) in self.human_path(path) {
                line(format!("  {label:<11}{owners}"));
            }
            if let Some(folder) = self.folder_json(path) {
                line(format!("  {:<11}{}", "folder", human_folder(&folder)));
            }
        }
        if let Some(coverage) = coverage {
            for text in self.human_coverage(coverage) {
                line(text);
            }
        }
        out
    }

    /// The labelled lines for one path.
    fn human_path(&self, path: &str) -> Vec<(&'static str, String)> {
        match self.path_json(path) {
            PathJson::Rule {
                owners,
                rule,
                sections,
            } => {
                if !sections.is_empty() {
                    let mut lines: Vec<(&'static str, String)> = (sections.iter())
                        .map(|s| ("section", human_section(s)))
                        .collect();
                    lines.push(("owners", human_owners(&owners)));
                    return lines;
                }
                let rule = match (rule, self.ownership) {
                    (Some(at), Ownership::CodeOwners(o)) => {
                        let rules = o.owners_of(path);
                        let pattern = rules.first().map_or("", |r| r.pattern.as_str());
                        format!("{at} `{pattern}`")
                    }
                    _ => "none matches".to_string(),
                };
                vec![("rule", rule), ("owners", human_owners(&owners))]
            }
            PathJson::Tree {
                approvers,
                reviewers,
            } => vec![
                ("approvers", human_owners(&approvers)),
                ("reviewers", human_owners(&reviewers)),
            ],
        }
    }

    fn human_coverage(&self, coverage: &Coverage) -> Vec<String> {
        let (files, owned) = (coverage.files(), coverage.owned());
        let mut lines = vec![format!(
            "{owned} of {} {} have an active owner ({}); {} none",
            plural(files, "file"),
            self.repository.described(),
            self.ownership.source_name(),
            match files - owned {
                1 => "1 has".to_string(),
                n => format!("{n} have"),
            }
        )];
        let folders = coverage.unowned_by_folder(self.repository, FOLDER_LINES);
        for folder in folders.iter().take(FOLDER_LINES) {
            let name = match folder.folder.as_str() {
                "" => "(the root)",
                name => name,
            };
            lines.push(format!(
                "  {name}: {} of {}",
                folder.unowned,
                plural(folder.files, "file")
            ));
        }
        if folders.len() > FOLDER_LINES {
            lines.push(format!(
                "  and {} more",
                plural(folders.len() - FOLDER_LINES, "folder")
            ));
        }
        let [none, one, more] = coverage.by_active_people();
        lines.push(format!(
            "By active owners: {none} with none, {one} with one, {more} with two or more"
        ));
        let unmatched = self.unmatched(coverage);
        if !unmatched.is_empty() {
            lines.push("Rules that match no file:".to_string());
            if let Ownership::CodeOwners(owners) = self.ownership {
                let file = self.codeowners_name(owners);
                lines.extend(unmatched.iter().map(|(l, p)| format!("  {file}:{l} `{p}`")));
            }
        }
        lines
    }
}

/// `Ada Lovelace (@ada), @bob (not in the roster)`, or `none`.
fn human_owners(owners: &[OwnerJson]) -> String {
    if owners.is_empty() {
        return "none".to_string();
    }
    let shown: Vec<String> = owners
        .iter()
        .map(|o| {
            let login = o.owner.trim_start_matches('@');
            let who = match &o.name {
                Some(name) if !name.eq_ignore_ascii_case(login) => format!("{name} ({})", o.owner),
                _ => o.owner.clone(),
            };
            match o.status {
                "active" => who,
                "inactive" => format!("{who}, inactive"),
                "role" => format!("{who}, a GitLab role"),
                _ => format!("{who}, not in the roster"),
            }
        })
        .collect();
    shown.join("; ")
}

/// A folder's line: `2 of 74 files have an active owner: @a, @b`.
fn human_folder(folder: &FolderJson) -> String {
    let owners = match folder.owners.is_empty() {
        true => String::new(),
        false => format!(": {}", human_owners(&folder.owners)),
    };
    format!(
        "{} of {} {} an active owner{owners}",
        folder.owned,
        plural(folder.files, "file"),
        if folder.owned == 1 || folder.files == 1 {
            "has"
        } else {
            "have"
        },
    )
}

/// One GitLab section's line: `[Name] FILE:LINE `pattern` (optional, 2
/// approvals): owners`.
fn human_section(section: &SectionJson) -> String {
    let mut flags = Vec::new();
    if section.optional {
        flags.push("optional".to_string());
    }
    if let Some(n) = section.approvals {
        flags.push(plural(n as usize, "approval"));
    }
    let flags = match flags.is_empty() {
        true => String::new(),
        false => format!(" ({})", flags.join(", ")),
    };
    let name = match section.section.is_empty() {
        true => "(no section)".to_string(),
        false => format!("[{}]", section.section),
    };
    format!(
        "{name} {} `{}`{flags}: {}",
        section.rule,
        section.pattern,
        human_owners(&section.owners)
    )
}

#[cfg(test)]
mod tests {
    use super::in_repository;

    /// Issue 38 (18): paths are normalised, and those above the root are
    /// refused.
    #[test]
    fn paths_are_normalised_and_none_leaves_the_repository() {
        for (asked, named) in [
            ("src/main.rs", Some("src/main.rs")),
            ("./src//main.rs", Some("src/main.rs")),
            ("/docs/", Some("docs/")),
            ("d/../x", Some("x")),
            ("d/../x/", Some("x/")),
            ("d/e/..", Some("d/")),
            ("d/./e", Some("d/e")),
            ("d/..", Some("")),
            ("d/../../x", None),
            ("..", None),
            ("../x", None),
            ("/../x", None),
            ("a/b/../../../etc/passwd", None),
        ] {
            assert_eq!(in_repository(asked).as_deref(), named, "{asked}");
        }
    }
}
