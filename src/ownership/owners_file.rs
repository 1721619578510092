//! The YAML of Kubernetes' `OWNERS` and `OWNERS_ALIASES` files, as the
//! roster (people sources) and the OWNERS tree (who owns what) both read
//! it: mappings, lists of logins, each with where it is written.

use std::ops::Range;
use std::sync::Arc;

use crate::diagnostic::{Code, Diagnostic, SourceFile};
use crate::files::tree::{Entry, Node, NodeKind};

/// A login (or alias) as an OWNERS file lists it, without a leading `@`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Login {
    /// The login as written, `@` removed.
    pub login: String,
    /// Where it is written.
    pub span: Range<usize>,
}

/// The lists of one block of an OWNERS file: its top level, or one filter.
#[derive(Debug, Clone, Default)]
pub struct Lists {
    /// `approvers`.
    pub approvers: Vec<Login>,
    /// `reviewers`.
    pub reviewers: Vec<Login>,
    /// `emeritus_approvers`: not approvers (Prow ignores them).
    pub emeritus: Vec<Login>,
    /// Where `approvers:` is (its key), when given.
    pub approvers_key: Option<Range<usize>>,
    /// Where `reviewers:` is (its key), when given.
    pub reviewers_key: Option<Range<usize>>,
    /// Whether the block gives anything Prow reads as the file's own lists
    /// (`approvers`, `reviewers`, `required_reviewers`, `labels`): then
    /// Prow ignores the file's `filters`.
    pub has_lists: bool,
}

/// The keys of a block that are lists of logins, and their list.
const LIST_KEYS: [&str; 3] = ["approvers", "reviewers", "emeritus_approvers"];

/// The lists of the block `entries`.
pub fn lists(file: &Arc<SourceFile>, entries: &[Entry], errors: &mut Vec<Diagnostic>) -> Lists {
    let mut out = Lists::default();
    for key in LIST_KEYS {
        let Some(list) = entries.iter().find(|e| e.key == key) else {
            continue;
        };
        let logins = logins(file, &list.value, key, errors);
        match key {
            "approvers" => {
                out.approvers_key = Some(list.key_span.clone());
                out.approvers = logins;
            }
            "reviewers" => {
                out.reviewers_key = Some(list.key_span.clone());
                out.reviewers = logins;
            }
            _ => out.emeritus = logins,
        }
    }
    out.has_lists = ["approvers", "reviewers", "required_reviewers", "labels"]
        .iter()
        .any(|key| {
            entries.iter().any(|e| {
                e.key == *key && matches!(&e.value.kind, NodeKind::Array(a) if !a.is_empty())
            })
        });
    out
}

/// The entries of `node`, which must be a mapping (`what` names it in the
/// error); none when it is not.
pub fn table<'n>(
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

/// A list of logins (`list` under `key`). An entry that cannot be a login
/// is a warning pushed to `errors` and skipped; callers keep warnings
/// apart from errors (see [`split_warnings`]).
pub fn logins(
    file: &Arc<SourceFile>,
    list: &Node,
    key: &str,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Login> {
    if matches!(list.kind, NodeKind::Other(null) if null.starts_with("nothing")) {
        return Vec::new(); // `approvers:` with nothing after it: none, as Prow reads it
    }
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
        .filter_map(|item| match &item.kind {
            NodeKind::Str(login) if !could_be_login(login.trim_start_matches('@')) => {
                errors.push(not_a_login(file, key, login, item.span.clone()));
                None
            }
            NodeKind::Str(login) => Some(Login {
                login: login.trim_start_matches('@').to_string(),
                span: item.span.clone(),
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
        })
        .collect()
}

/// Whether `entry` (without its `@`) could be a GitHub login or an
/// OWNERS_ALIASES alias: ASCII letters, digits, `-`, `_` and `.`, with
/// an optional `[bot]` (aliases are longer than logins may be, so no
/// length is asked). A space, a quote, `<`, `{`, a control character is
/// none of them.
pub fn could_be_login(entry: &str) -> bool {
    let entry = entry.strip_suffix("[bot]").unwrap_or(entry);
    !entry.is_empty()
        && entry
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The warning for an entry of `key` that cannot be a login: it is
/// skipped, not taken as an owner (issue 38, 19).
fn not_a_login(file: &Arc<SourceFile>, key: &str, entry: &str, span: Range<usize>) -> Diagnostic {
    Diagnostic::error(
        Code::InvalidData,
        format!("`{key}` must be a list of logins: `{entry}` is not a login"),
    )
    .in_file(file, span)
    .with_label("not a GitHub login or alias")
    .with_note("it is skipped: a login or alias is letters, digits, `-`, `_` and `.`")
    .as_warning()
}

/// One alias of OWNERS_ALIASES.
#[derive(Debug, Clone)]
pub struct Alias {
    /// The alias as written.
    pub name: String,
    /// Where the alias is defined.
    pub span: Range<usize>,
    /// Its members.
    pub members: Vec<Login>,
}

/// The aliases of an OWNERS_ALIASES file whose tree is `root`.
pub fn aliases(file: &Arc<SourceFile>, root: &Node, errors: &mut Vec<Diagnostic>) -> Vec<Alias> {
    let top = table(file, root, "the OWNERS_ALIASES file", errors);
    let Some(aliases) = top.iter().find(|e| e.key == "aliases") else {
        if errors.is_empty() {
            errors.push(
                Diagnostic::error(
                    Code::InvalidData,
                    format!("{} has no `aliases:`", file.name),
                )
                .in_file(file, 0..0)
                .with_help(
                    "an OWNERS_ALIASES file is `aliases:` with a list of logins under each alias",
                ),
            );
        }
        return Vec::new();
    };
    table(file, &aliases.value, "`aliases`", errors)
        .iter()
        .map(|alias| Alias {
            name: alias.key.clone(),
            span: alias.key_span.clone(),
            members: logins(file, &alias.value, &alias.key, errors),
        })
        .collect()
}

/// `diagnostics` split into the errors and the warnings (entries skipped
/// by [`logins`]).
pub fn split_warnings(diagnostics: Vec<Diagnostic>) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    diagnostics.into_iter().partition(Diagnostic::is_error)
}
