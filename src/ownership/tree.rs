//! Kubernetes' tree of OWNERS files, read with Prow's semantics
//! (`sigs.k8s.io/prow/pkg/repoowners`):
//!
//! - every tracked file named `OWNERS` applies to its folder and below;
//! - a file's approvers (and, separately, its reviewers) are collected from
//!   the path itself up through each folder to the root, stopping after a
//!   folder whose OWNERS has `options: no_parent_owners: true` once some
//!   have been collected;
//! - an OWNERS file with top-level `approvers`, `reviewers`,
//!   `required_reviewers` or `labels` is read as they are, and its
//!   `filters` are ignored (Prow does so); otherwise each filter applies
//!   its lists to the paths (relative to the OWNERS file's folder) its
//!   regular expression finds a match in, `".*"` to all;
//! - `emeritus_approvers` are not approvers;
//! - logins are compared in lower case, without `@`; an entry naming an
//!   alias of the root's `OWNERS_ALIASES` stands for its members (one
//!   level, as Prow expands).
//!
//! A file Prow could not read is left out, as Prow leaves it out, and its
//! first problem reported (one per file); the others are still read.

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use std::sync::Arc;

use super::owners_file::{self, Alias, Lists, Login};
use crate::diagnostic::{Code, Diagnostic, SourceFile};
use crate::files::tree::{Node, NodeKind, YamlRead};

/// One list entry of an OWNERS file: as written, and the logins it stands
/// for.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The login or alias as written (`@` removed).
    pub written: String,
    /// Where it is written.
    pub span: Range<usize>,
    /// The logins, lower case: the alias's members, or the login.
    pub logins: Vec<String>,
    /// Whether `written` is an alias.
    pub alias: bool,
}

/// The approvers and reviewers an OWNERS file gives some of its paths.
#[derive(Debug, Clone)]
pub struct Block {
    /// The paths it applies to: all (`None`, the top level or `".*"`), or
    /// those a regular expression finds a match in.
    pub filter: Option<Filter>,
    /// `approvers`.
    pub approvers: Vec<Entry>,
    /// `reviewers`.
    pub reviewers: Vec<Entry>,
    /// Where `approvers:` is, for findings about the block as a whole.
    pub approvers_key: Option<Range<usize>>,
}

/// A filter's regular expression.
#[derive(Debug, Clone)]
pub struct Filter {
    /// As written.
    pub pattern: String,
    /// Where it is written.
    pub span: Range<usize>,
    regex: regex::bytes::Regex,
}

/// One OWNERS file.
#[derive(Debug, Clone)]
pub struct OwnersFile {
    /// Its folder, relative to the repository root (`""` for the root).
    pub folder: String,
    /// The file.
    pub file: Arc<SourceFile>,
    /// `options: no_parent_owners: true`.
    pub no_parent_owners: bool,
    /// What it gives, in file order.
    pub blocks: Vec<Block>,
    /// Every filter of the file as one set, matched once per path: 2,000
    /// filters over 100,000 files are one pass per file, and only the
    /// blocks whose filter matched are looked at, not 2,000 (issue 38, 4).
    /// `None` for a file of fewer than two filters, or whose filters do
    /// not fit one set (each is then matched alone).
    filters: Option<filters::FilterSet>,
}

impl OwnersFile {
    /// The blocks that apply to `relative` (a path relative to the file's
    /// folder), in no order.
    fn applying<'b>(&'b self, relative: &str, out: &mut Vec<&'b Block>) {
        out.clear();
        match &self.filters {
            Some(filters) => {
                let mut blocks = Vec::new();
                filters.applying(relative.as_bytes(), &mut blocks);
                out.extend(blocks.into_iter().map(|b| &self.blocks[b]));
            }
            None => out.extend(self.blocks.iter().filter(|block| {
                (block.filter.as_ref()).is_none_or(|f| f.regex.is_match(relative.as_bytes()))
            })),
        }
    }
}

/// Every OWNERS file of a repository, and its aliases.
#[derive(Debug, Default)]
pub struct OwnersTree {
    files: Vec<OwnersFile>,
    by_folder: HashMap<String, usize>,
    aliases_file: Option<Arc<SourceFile>>,
    aliases: Vec<Alias>,
    /// Each lower-case login as first written (Prow compares logins without
    /// case; people read them as the project writes them).
    written: HashMap<String, String>,
}

/// The approvers and reviewers of one path, and the OWNERS files that give
/// them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TreeOwners {
    /// Logins, lower case, sorted.
    pub approvers: Vec<String>,
    /// Logins, lower case, sorted.
    pub reviewers: Vec<String>,
    /// The OWNERS files (indices into [`OwnersTree::files`]) that gave any,
    /// nearest first.
    pub files: Vec<usize>,
}

/// A source of the tree, read: its folder and YAML.
pub struct Source {
    /// The folder of an OWNERS file (`""` for the root).
    pub folder: String,
    /// Its YAML.
    pub read: YamlRead,
}

impl OwnersTree {
    /// The tree of `sources` (OWNERS files), with the aliases of
    /// `aliases` (the root's OWNERS_ALIASES, when it has one); and every
    /// problem, as warnings.
    pub fn build(sources: Vec<Source>, aliases: Option<YamlRead>) -> (OwnersTree, Vec<Diagnostic>) {
        let mut problems = Vec::new();
        let mut tree = OwnersTree::default();
        if let Some(read) = aliases {
            match read {
                Ok((file, root)) => {
                    let mut errors = Vec::new();
                    let aliases = owners_file::aliases(&file, &root, &mut errors);
                    let (errors, mut warnings) = owners_file::split_warnings(errors);
                    problems.append(&mut warnings);
                    match errors.into_iter().next() {
                        Some(first) => problems.push(left_out(first)),
                        None => tree.aliases = aliases,
                    }
                    tree.aliases_file = Some(file);
                }
                Err(errors) => problems.extend(errors.into_iter().take(1).map(left_out)),
            }
        }
        let expand = Aliases::of(&tree.aliases);
        for source in sources {
            let (file, root) = match source.read {
                Ok(read) => read,
                Err(errors) => {
                    problems.extend(errors.into_iter().take(1).map(left_out));
                    continue;
                }
            };
            match read_file(&file, &root, &expand, &mut problems) {
                Ok((no_parent_owners, blocks)) => {
                    tree.by_folder
                        .insert(source.folder.clone(), tree.files.len());
                    tree.files.push(OwnersFile {
                        folder: source.folder,
                        file,
                        no_parent_owners,
                        filters: filters::FilterSet::of(&blocks),
                        blocks,
                    });
                }
                Err(first) => problems.push(left_out(first)),
            }
        }
        tree.remember_written();
        (tree, problems)
    }

    /// Notes how each login is first written: in OWNERS_ALIASES, then in
    /// the OWNERS files.
    fn remember_written(&mut self) {
        let members = self
            .aliases
            .iter()
            .flat_map(|a| &a.members)
            .map(|m| &m.login);
        let entries = (self.files.iter())
            .flat_map(|f| &f.blocks)
            .flat_map(|b| b.approvers.iter().chain(&b.reviewers))
            .filter(|e| !e.alias)
            .map(|e| &e.written);
        for login in members.chain(entries) {
            (self.written)
                .entry(login.to_lowercase())
                .or_insert_with(|| login.clone());
        }
    }

    /// `login` (lower case, as [`TreeOwners`] holds it) as the project
    /// first wrote it.
    pub fn as_written<'a>(&'a self, login: &'a str) -> &'a str {
        self.written.get(login).map_or(login, String::as_str)
    }

    /// The OWNERS files, in the order they were given.
    pub fn files(&self) -> &[OwnersFile] {
        &self.files
    }

    /// OWNERS_ALIASES, when the root has one.
    pub fn aliases_file(&self) -> Option<&Arc<SourceFile>> {
        self.aliases_file.as_ref()
    }

    /// The aliases, as OWNERS_ALIASES defines them.
    pub fn aliases(&self) -> &[Alias] {
        &self.aliases
    }

    /// Who owns `path` (relative to the repository root; a file or a
    /// folder), as Prow finds it: the approvers and the reviewers each
    /// collected from the path up (Prow's `entriesForFile`), each stopping
    /// at an OWNERS file with `no_parent_owners` once it has some, in one
    /// walk that matches each OWNERS file's filters once.
    pub fn owners_of(&self, path: &str) -> TreeOwners {
        let path = path.trim_start_matches("./").trim_matches('/');
        let mut files: Vec<usize> = Vec::new();
        let mut lists = [
            (
                BTreeSet::new(),
                false,
                (|b: &Block| &b.approvers) as fn(&Block) -> &Vec<Entry>,
            ),
            (BTreeSet::new(), false, |b: &Block| &b.reviewers),
        ];
        let mut applying = Vec::new();
        let mut folder = path;
        loop {
            if let Some(&index) = self.by_folder.get(folder) {
                let owners = &self.files[index];
                owners.applying(relative_to(folder, path), &mut applying);
                for (out, done, list) in &mut lists {
                    if *done {
                        continue;
                    }
                    for block in &applying {
                        let entries = list(block);
                        if !entries.is_empty() && !files.contains(&index) {
                            files.push(index);
                        }
                        out.extend(entries.iter().flat_map(|e| e.logins.iter().cloned()));
                    }
                    *done = owners.no_parent_owners && !out.is_empty();
                }
            }
            if folder.is_empty() || lists.iter().all(|(_, done, _)| *done) {
                break;
            }
            folder = folder.rfind('/').map_or("", |at| &folder[..at]);
        }
        files.sort_unstable_by_key(|&i| std::cmp::Reverse(self.files[i].folder.len()));
        let [(approvers, ..), (reviewers, ..)] = lists;
        TreeOwners {
            approvers: approvers.into_iter().collect(),
            reviewers: reviewers.into_iter().collect(),
            files,
        }
    }
}

/// `path` relative to its ancestor (or itself) `folder`, as Go's
/// `filepath.Rel` gives it: `.` for the folder itself.
fn relative_to<'p>(folder: &str, path: &'p str) -> &'p str {
    if folder.is_empty() {
        path
    } else if folder.len() == path.len() {
        "."
    } else {
        &path[folder.len() + 1..]
    }
}

/// A problem that makes Prow leave a file out, as a warning saying so.
fn left_out(first: Diagnostic) -> Diagnostic {
    first
        .with_note("Prow leaves out an OWNERS file it cannot read; so does this build")
        .as_warning()
}

/// Aliases by lower-case name.
struct Aliases(HashMap<String, Vec<String>>);

impl Aliases {
    fn of(aliases: &[Alias]) -> Aliases {
        let mut map = HashMap::new();
        for alias in aliases {
            let members = alias
                .members
                .iter()
                .map(|m| m.login.to_lowercase())
                .collect();
            map.insert(alias.name.to_lowercase(), members);
        }
        Aliases(map)
    }

    fn entry(&self, login: &Login) -> Entry {
        let lower = login.login.to_lowercase();
        let (logins, alias) = match self.0.get(&lower) {
            Some(members) => (members.clone(), true),
            None => (vec![lower], false),
        };
        Entry {
            written: login.login.clone(),
            span: login.span.clone(),
            logins,
            alias,
        }
    }

    fn entries(&self, logins: &[Login]) -> Vec<Entry> {
        logins.iter().map(|l| self.entry(l)).collect()
    }
}

/// One OWNERS file's options and blocks, or its first problem. Problems
/// that Prow reads past (a filter that is not a regular expression,
/// filters beside top-level lists) are pushed to `problems` as warnings.
fn read_file(
    file: &Arc<SourceFile>,
    root: &Node,
    aliases: &Aliases,
    problems: &mut Vec<Diagnostic>,
) -> Result<(bool, Vec<Block>), Diagnostic> {
    let mut errors = Vec::new();
    let top = owners_file::table(file, root, "the OWNERS file", &mut errors);
    let lists = owners_file::lists(file, top, &mut errors);
    let no_parent_owners = no_parent_owners(file, top, &mut errors);
    let filters = top.iter().find(|e| e.key == "filters");
    let mut blocks = Vec::new();
    if lists.has_lists {
        if let Some(filters) = filters {
            problems.push(
                Diagnostic::error(
                    Code::InvalidData,
                    "Prow ignores `filters` in an OWNERS file that has top-level lists",
                )
                .in_file(file, filters.key_span.clone())
                .with_label("ignored")
                .with_help("move the top-level `approvers` and `reviewers` into a `\".*\"` filter")
                .as_warning(),
            );
        }
        blocks.push(block(None, &lists, aliases));
    } else if let Some(filters) = filters {
        for filter in owners_file::table(file, &filters.value, "`filters`", &mut errors) {
            let what = format!("the `{}` filter", filter.key);
            let entries = owners_file::table(file, &filter.value, &what, &mut errors);
            let lists = owners_file::lists(file, entries, &mut errors);
            if filter.key == ".*" {
                blocks.push(block(None, &lists, aliases));
                continue;
            }
            match filter_regex(&filter.key) {
                Ok(regex) => {
                    let filter = Filter {
                        pattern: filter.key.clone(),
                        span: filter.key_span.clone(),
                        regex,
                    };
                    blocks.push(block(Some(filter), &lists, aliases));
                }
                Err(e) => problems.push(bad_regex(file, filter.key_span.clone(), &e)),
            }
        }
    }
    let (errors, mut warnings) = owners_file::split_warnings(errors);
    problems.append(&mut warnings);
    match errors.into_iter().next() {
        Some(first) => Err(first),
        None => Ok((no_parent_owners, blocks)),
    }
}

fn block(filter: Option<Filter>, lists: &Lists, aliases: &Aliases) -> Block {
    Block {
        filter,
        approvers: aliases.entries(&lists.approvers),
        reviewers: aliases.entries(&lists.reviewers),
        approvers_key: lists.approvers_key.clone(),
    }
}

const YAML_TRUE: [&str; 10] = [
    "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "y",
];
const YAML_FALSE: [&str; 10] = [
    "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "n",
];

/// `options: no_parent_owners`, which must be a boolean.
fn no_parent_owners(
    file: &Arc<SourceFile>,
    top: &[crate::files::tree::Entry],
    errors: &mut Vec<Diagnostic>,
) -> bool {
    let Some(options) = top.iter().find(|e| e.key == "options") else {
        return false;
    };
    let options = owners_file::table(file, &options.value, "`options`", errors);
    let Some(value) = options.iter().find(|e| e.key == "no_parent_owners") else {
        return false;
    };
    match &value.value.kind {
        NodeKind::Bool(b) => *b,
        // The spellings Go's YAML (1.1) reads as booleans.
        NodeKind::Str(s) if YAML_TRUE.contains(&s.as_str()) => true,
        NodeKind::Str(s) if YAML_FALSE.contains(&s.as_str()) => false,
        kind => {
            errors.push(
                Diagnostic::error(
                    Code::InvalidData,
                    format!(
                        "`no_parent_owners` must be `true` or `false`, found {}",
                        kind.describe()
                    ),
                )
                .in_file(file, value.value.span.clone()),
            );
            false
        }
    }
}

/// A filter's pattern as Go's `regexp` reads it for file names: `\w`,
/// `\d`, `\s` and `\b` are ASCII, as in Go.
fn filter_regex(pattern: &str) -> Result<regex::bytes::Regex, regex::Error> {
    regex::bytes::RegexBuilder::new(pattern)
        .unicode(false)
        .build()
}

fn bad_regex(file: &Arc<SourceFile>, span: Range<usize>, e: &regex::Error) -> Diagnostic {
    let why = e.to_string();
    let why = why.lines().last().unwrap_or_default().trim();
    let why = why.strip_prefix("error: ").unwrap_or(why).to_string();
    // Without Unicode tables (see Cargo.toml), `\p{Greek}` is refused
    // here though Go reads it: say so, rather than blame the pattern.
    let message = match why.contains("Unicode") {
        true => "this filter uses a Unicode class, which this tool does not read; it is left out",
        false => "this filter is not a regular expression, so Prow ignores it",
    };
    Diagnostic::error(Code::InvalidData, message)
        .in_file(file, span)
        .with_label(why)
        .as_warning()
}

mod filters;
#[cfg(test)]
mod tests;
