//! `[preprocessor.community]` in `book.toml`, read from the context mdBook
//! passes, plus the facts about the build the directives need.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, did_you_mean};
use crate::mdbook::config::BookToml;
use crate::mdbook::{Context, Generation, MarkdownOptions};
use crate::paths;

mod activity;
mod copies;
mod formats;
mod governance;
mod people;
mod redirects;

pub use activity::Window;
pub use copies::{CopySource, GroupCopies};

pub use governance::{Base, GroupRules, Share, Votes};

pub use redirects::Redirect;

pub use formats::{FORMATS, PeopleFormat};
pub use people::{DEFAULT_FILE, INACTIVE_STATUSES, PeopleSource, source_paths};

/// What to do when a directive cannot be expanded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnError {
    /// Report every error, then fail the build (the default).
    #[default]
    Fail,
    /// Show each error as a note in the page and as a warning; build anyway.
    Warn,
}

/// How a check's findings are treated: `check-anchors`, `check-owners`,
/// `unowned`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Level {
    /// Report them as warnings (the default).
    #[default]
    Warn,
    /// Report them as errors.
    Error,
    /// Do not check.
    Off,
}

impl Level {
    /// `diagnostic` (an error) at the severity this level gives a finding.
    pub fn severity_of(self, diagnostic: Diagnostic) -> Diagnostic {
        match (self, diagnostic.severity) {
            (Level::Error, _) | (_, crate::diagnostic::Severity::Note) => diagnostic,
            _ => diagnostic.as_warning(),
        }
    }

    /// The level `value` names (`"warn"`, `"error"` or `"off"`).
    fn read(value: &Value) -> Result<Level, Problem> {
        Ok(match choice(value, &["warn", "error", "off"])? {
            "error" => Level::Error,
            "off" => Level::Off,
            _ => Level::Warn,
        })
    }
}

/// Where the repository says who owns its files: `ownership`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OwnershipSource {
    /// GitHub's CODEOWNERS file.
    CodeOwners,
    /// Kubernetes' tree of `OWNERS` files (and `OWNERS_ALIASES`).
    Owners,
}

/// Everything the pipeline needs to know about this build.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The book root.
    pub root: PathBuf,
    /// The book's source folder, relative to the root (`book.src`).
    pub src: PathBuf,
    /// Which mdBook shape we were sent.
    pub generation: Generation,
    /// Whether the output is for mdBook's HTML renderer (raw HTML is allowed).
    pub html: bool,
    /// Markdown extensions as the renderer will use them.
    pub markdown: MarkdownOptions,
    /// `on-error`.
    pub on_error: OnError,
    /// `people`: the roster's sources, in order (empty: the default file).
    pub people: Vec<PeopleSource>,
    /// Whether `people` was set in book.toml.
    pub people_configured: bool,
    /// `copies`: the files that copy a group, compared with it.
    pub copies: Vec<GroupCopies>,
    /// `check-owners`: the CODEOWNERS drift check.
    pub check_owners: Level,
    /// `inactive-statuses`: statuses that mean someone no longer serves.
    pub inactive_statuses: Vec<String>,
    /// `check-activity`: how long an active member of a group may go
    /// without a commit before a warning says so (`None`: not checked).
    pub check_activity: Option<Window>,
    /// `check-activity`'s `groups`: only active members of these groups
    /// are judged (`None`: every group's).
    pub activity_groups: Option<Vec<String>>,
    /// `activity-max-commits`: at most this many commits of the history
    /// are read.
    pub activity_max_commits: Option<u64>,
    /// `codeowners`: the CODEOWNERS file, relative to the root.
    pub codeowners: Option<PathBuf>,
    /// `ownership`: CODEOWNERS or the OWNERS tree; `None` decides by which
    /// the repository has.
    pub ownership: Option<OwnershipSource>,
    /// `unowned`: files without an active owner (off by default).
    pub unowned: Level,
    /// `min-owners`: the fewest active owners a file should have (off by
    /// default; its finding is a warning).
    pub min_owners: Option<u32>,
    /// `contributing`: the CONTRIBUTING file, relative to the root.
    pub contributing: Option<PathBuf>,
    /// `contributing-url`: where CONTRIBUTING lives on the repository host.
    pub contributing_url: Option<String>,
    /// `check-anchors`.
    pub check_anchors: Level,
    /// `[output.html] git-repository-url`, without a trailing `/`, when it
    /// is an http(s) URL: where links to repository files go.
    pub repository_url: Option<String>,
    /// `repository-ref`: the branch or tag those links name (`None`: the
    /// branch the repository's HEAD names, else `main`).
    pub repository_ref: Option<String>,
    /// Whether `install` added the CSS and JS to `[output.html]`; if not,
    /// pages that need them get them inline.
    pub assets_installed: bool,
    /// `[output.html.redirect]`: old pages and headings, and where they went.
    pub redirects: Vec<Redirect>,
    /// `governance`: each group's rules, in file order.
    pub governance: Vec<GroupRules>,
    /// `affiliation-aliases`: spellings of an organisation, and the name
    /// each means.
    pub affiliation_aliases: Vec<(String, String)>,
}

/// Keys mdBook itself reads from every `[preprocessor.*]` table.
const MDBOOK_KEYS: &[&str] = &["command", "before", "after", "renderers", "optional"];

/// How a key's value is read into the settings.
type Apply = fn(&mut Settings, &str, &Value) -> Result<(), Problem>;

/// Every key this plugin reads, and how: the one list (an unknown key's
/// "did you mean" compares with it).
const KEYS: &[(&str, Apply)] = &[
    ("on-error", |s, _, v| {
        s.on_error = match choice(v, &["fail", "warn"])? {
            "warn" => OnError::Warn,
            _ => OnError::Fail,
        };
        Ok(())
    }),
    ("people", |s, _, v| s.apply_people(v)),
    ("copies", |s, _, v| s.apply_copies(v)),
    ("codeowners", Settings::apply_data_path),
    ("ownership", |s, _, v| {
        s.ownership = Some(match choice(v, &["codeowners", "owners"])? {
            "owners" => OwnershipSource::Owners,
            _ => OwnershipSource::CodeOwners,
        });
        Ok(())
    }),
    ("unowned", |s, _, v| {
        s.unowned = Level::read(v)?;
        Ok(())
    }),
    ("min-owners", |s, _, v| {
        s.min_owners = match v.as_u64() {
            Some(n @ 1..=1000) => Some(n as u32),
            _ => {
                let why = format!("must be a number of owners from 1 to 1000, found {v}");
                return Err(Problem::value(why, None));
            }
        };
        Ok(())
    }),
    ("check-owners", Settings::apply_owner_check),
    ("inactive-statuses", Settings::apply_owner_check),
    ("check-activity", Settings::apply_activity),
    ("activity-max-commits", Settings::apply_activity),
    ("contributing", Settings::apply_data_path),
    ("contributing-url", |s, _, v| {
        let url = string(v)?;
        check_url(&url).map_err(|why| Problem::value(why, None))?;
        s.contributing_url = Some(url.trim_end_matches('/').to_string());
        Ok(())
    }),
    ("governance", Settings::apply_governance),
    ("affiliation-aliases", Settings::apply_governance),
    ("check-anchors", |s, _, v| {
        s.check_anchors = Level::read(v)?;
        Ok(())
    }),
    ("repository-ref", |s, _, v| {
        let name = string(v)?;
        let bad = |c: char| c.is_whitespace() || c.is_control() || "<>\"\\`{}#?".contains(c);
        if name.is_empty() || name.chars().any(bad) {
            let why = "must be a branch, tag or commit name, e.g. `main`";
            return Err(Problem::value(why, None));
        }
        s.repository_ref = Some(name);
        Ok(())
    }),
];

impl Settings {
    /// Reads settings from mdBook's context. Problems with our table are
    /// returned as diagnostics pointing into `book.toml` where possible.
    pub fn from_context(
        context: &Context,
        generation: Generation,
    ) -> Result<Settings, Vec<Diagnostic>> {
        let (settings, problems) = Settings::read(context, generation);
        if problems.is_empty() {
            Ok(settings)
        } else {
            Err(problems)
        }
    }

    /// Reads settings from mdBook's context as far as they are valid: a
    /// key with a bad value keeps its default (a data path that names no
    /// file is kept, so the directives that need it report it in their
    /// pages), and every problem is returned as a diagnostic pointing into
    /// `book.toml`. With `on-error = "warn"` the build goes on with these
    /// settings; otherwise the problems fail it.
    pub fn read(context: &Context, generation: Generation) -> (Settings, Vec<Diagnostic>) {
        let html = context.html_table();
        let mut settings = Settings {
            root: context.root.clone(),
            src: PathBuf::from(context.src()),
            generation,
            html: context.renderer == "html",
            markdown: MarkdownOptions::from_html(html, generation),
            on_error: OnError::default(),
            people: Vec::new(),
            people_configured: false,
            copies: Vec::new(),
            check_owners: Level::default(),
            inactive_statuses: INACTIVE_STATUSES.map(str::to_string).to_vec(),
            check_activity: None,
            activity_groups: None,
            activity_max_commits: None,
            codeowners: None,
            ownership: None,
            unowned: Level::Off,
            min_owners: None,
            contributing: None,
            contributing_url: None,
            check_anchors: Level::default(),
            repository_url: html
                .and_then(|h| h.get("git-repository-url"))
                .and_then(Value::as_str)
                .filter(|url| check_url(url).is_ok())
                .map(|url| url.trim_end_matches('/').to_string()),
            repository_ref: None,
            assets_installed: crate::assets::installed(html),
            redirects: redirects::read(html, &context.root),
            governance: Vec::new(),
            affiliation_aliases: Vec::new(),
        };
        let Some(table) = context.plugin_table() else {
            return (settings, Vec::new());
        };
        let mut problems = Vec::new();
        let mut book_toml = None;
        for (key, value) in table {
            if let Err(problem) = settings.apply(key, value) {
                let book_toml = book_toml.get_or_insert_with(|| BookToml::read(&context.root));
                problems.extend(problem.diagnostics(key, book_toml.as_ref()));
            }
        }
        (settings, problems)
    }

    fn apply(&mut self, key: &str, value: &Value) -> Result<(), Problem> {
        if let Some((_, apply)) = KEYS.iter().find(|(name, _)| *name == key) {
            return apply(self, key, value);
        }
        if MDBOOK_KEYS.contains(&key) {
            return Ok(());
        }
        let known = KEYS
            .iter()
            .map(|(name, _)| *name)
            .chain(MDBOOK_KEYS.iter().copied());
        Err(Problem::Key {
            message: format!("unknown key `{key}` in [preprocessor.community]"),
            suggestion: did_you_mean(key, known).map(str::to_string),
        })
    }

    /// `codeowners` or `contributing`: a data file's path, kept even when
    /// it names no file (the directives that need it report it too).
    fn apply_data_path(&mut self, key: &str, value: &Value) -> Result<(), Problem> {
        let path = path(value)?;
        let problem = self.missing_file(&path);
        *match key {
            "codeowners" => &mut self.codeowners,
            _ => &mut self.contributing,
        } = Some(path);
        problem.map_or(Ok(()), Err)
    }

    /// What is wrong with a data-file path from book.toml, if anything: it
    /// must name a file, relative to the book root, whether or not a
    /// directive uses it in this build (a typo would otherwise go unnoticed
    /// until one does, and the anchor check of links to `contributing-url`
    /// would silently stop).
    fn missing_file(&self, path: &Path) -> Option<Problem> {
        let full = self.in_root(path);
        if full.is_file() {
            return None;
        }
        let shown = paths::display(path);
        if full.exists() && !full.is_dir() {
            return Some(Problem::file(
                format!("`{shown}` is not a regular file (a FIFO, device or socket is never read)"),
                None,
            ));
        }
        if full.is_dir() {
            return Some(Problem::file(
                format!("`{shown}` is a folder; name the file in it"),
                None,
            ));
        }
        let suggestion = paths::closest_sibling(&full).map(|close| {
            match path.parent().filter(|p| !p.as_os_str().is_empty()) {
                Some(parent) => paths::display(&parent.join(close)),
                None => close,
            }
        });
        Some(Problem::file(
            format!(
                "`{shown}` does not exist (paths are relative to the book root, {})",
                self.root.display()
            ),
            suggestion,
        ))
    }

    /// The chapter file name shown in diagnostics: `src/<source_path>`.
    pub fn chapter_display_path(&self, source_path: &str) -> String {
        paths::display(&self.src.join(source_path))
    }

    /// Resolves a path relative to the book root.
    pub fn in_root(&self, path: &Path) -> PathBuf {
        self.root.join(path)
    }
}

/// `contributing-url` is an http(s) URL with a host, and nothing a
/// Markdown link destination could misread (as people URLs are checked).
fn check_url(url: &str) -> Result<(), &'static str> {
    let lower = url.to_ascii_lowercase();
    let Some(rest) = ["https://", "http://"]
        .iter()
        .find_map(|scheme| lower.strip_prefix(scheme))
    else {
        return Err("must be an http or https URL");
    };
    if rest.is_empty() || rest.starts_with(['/', '?', '#']) {
        return Err(
            "must be an http or https URL with a host, e.g. `https://github.com/ORG/REPO/blob/main/CONTRIBUTING.md`",
        );
    }
    if url.chars().any(|c| {
        c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | '\\' | '`' | '{' | '}')
    }) {
        return Err("must not contain spaces, quotes, backslashes, braces, `<` or `>`");
    }
    Ok(())
}

/// What is wrong with one setting.
#[derive(Debug)]
enum Problem {
    Key {
        message: String,
        suggestion: Option<String>,
    },
    Value {
        code: Code,
        message: String,
        suggestion: Option<String>,
        /// The keys below the setting's that lead to the value at fault
        /// (`governance.core.quorum`); empty: the setting's own value.
        at: Vec<String>,
    },
    /// Several problems of one setting (a table of tables).
    Many(Vec<Problem>),
}

impl Problem {
    fn value(message: impl Into<String>, suggestion: Option<String>) -> Self {
        Problem::Value {
            code: Code::InvalidSetting,
            message: message.into(),
            suggestion,
            at: Vec::new(),
        }
    }

    /// This problem, at the value the keys `path` lead to (the first is
    /// the setting's own key).
    fn at(mut self, path: &[&str]) -> Self {
        if let Problem::Value { at, .. } = &mut self {
            *at = path.iter().skip(1).map(|k| k.to_string()).collect();
        }
        self
    }

    /// `Ok` when there is no problem, else all of them.
    fn all(mut problems: Vec<Problem>) -> Result<(), Problem> {
        match problems.len() {
            0 => Ok(()),
            1 => Err(problems.remove(0)),
            _ => Err(Problem::Many(problems)),
        }
    }

    /// A path setting that names no usable file.
    fn file(message: impl Into<String>, suggestion: Option<String>) -> Self {
        Problem::Value {
            code: Code::MissingFile,
            message: message.into(),
            suggestion,
            at: Vec::new(),
        }
    }
}

fn string(value: &Value) -> Result<String, Problem> {
    value
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| Problem::value(format!("must be a string, found {value}"), None))
}

fn path(value: &Value) -> Result<PathBuf, Problem> {
    let s = string(value)?;
    if s.trim().is_empty() {
        return Err(Problem::value("must not be empty", None));
    }
    Ok(PathBuf::from(s))
}

fn choice<'a>(value: &Value, choices: &[&'a str]) -> Result<&'a str, Problem> {
    let s = value.as_str().unwrap_or_default();
    choices.iter().copied().find(|c| *c == s).ok_or_else(|| {
        let list = choices
            .iter()
            .map(|c| format!("\"{c}\""))
            .collect::<Vec<_>>()
            .join(", ");
        Problem::value(
            format!("must be one of {list}, found {value}"),
            did_you_mean(s, choices.iter().copied()).map(|c| format!("\"{c}\"")),
        )
    })
}

impl Problem {
    /// The diagnostic for this problem with `key`, at its place in
    /// `book.toml` when the file can be read.
    fn diagnostics(self, key: &str, book_toml: Option<&BookToml>) -> Vec<Diagnostic> {
        let (code, message, suggestion, point_at_value, at) = match self {
            Problem::Key {
                message,
                suggestion,
            } => (Code::UnknownSetting, message, suggestion, false, Vec::new()),
            Problem::Value {
                code,
                message,
                suggestion,
                at,
            } => (
                code,
                format!("[preprocessor.community] {key} {message}"),
                suggestion,
                true,
                at,
            ),
            Problem::Many(problems) => {
                return (problems.into_iter())
                    .flat_map(|p| p.diagnostics(key, book_toml))
                    .collect();
            }
        };
        let diagnostic = Diagnostic::error(code, message).with_suggestion(suggestion);
        let mut path = vec![key];
        path.extend(at.iter().map(String::as_str));
        let place = book_toml.and_then(|b| {
            let range = (b.plugin_path(&path, point_at_value))
                .or_else(|| b.plugin_key(key, point_at_value))?;
            Some((b, range))
        });
        vec![match place {
            Some((book_toml, range)) => diagnostic.in_file(&book_toml.file, range),
            None => diagnostic.at_path("book.toml"),
        }]
    }
}

#[cfg(test)]
mod tests;
