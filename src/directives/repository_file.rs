//! `{{#repository-file PATH}}`: a file of the repository (CONTRIBUTING,
//! GOVERNANCE, SECURITY, ...) shown in a chapter as GitHub shows it, and no
//! more trusted there than on GitHub: the directives it holds are text,
//! its raw HTML is cut down to GitHub's allowlist, its relative links
//! resolve where they were written (`repository_text.rs`), and a path or a
//! symbolic link that leaves the repository is refused.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diagnostic::{Code, Diagnostic, SourceFile};
use crate::directive::args::ArgKind;
use crate::directive::{BraceDirective, Call, Cx, Expansion};
use crate::files::{self, MAX_DATA_FILE};
use crate::markdown::Placement;
use crate::paths;

use super::repository_text;

/// `{{#repository-file PATH}}`, `PATH` relative to the chapter's file, as
/// in mdBook's `{{#include}}`.
pub struct RepositoryFile;

impl BraceDirective for RepositoryFile {
    fn name(&self) -> &'static str {
        "repository-file"
    }

    fn expand(&self, call: &Call<'_>, cx: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        if call.placement == Placement::Inline || call.in_link {
            return Err(vec![
                call.error(
                    Code::MisplacedDirective,
                    "`{{#repository-file}}` shows a whole file, and it stands in running text",
                )
                .with_help("put it on a line of its own"),
            ]);
        }
        let (path, range) = path_argument(call)?;
        let path = path.as_ref();
        let settings = cx.settings();
        let links = cx.run.data.repository_links(settings);
        let Some(source) = cx.current().source_path() else {
            return Err(vec![call.error(
                Code::MissingData,
                "`{{#repository-file}}` needs a chapter with a file (this one is a draft)",
            )]);
        };
        let src = settings.in_root(&settings.src);
        let chapter_file = src.join(source);
        let folder = chapter_file.parent().unwrap_or(&src);
        let outside = |why: String| {
            vec![
                call.error_at(range.clone(), Code::OutsideRepository, why)
                    .with_label("not in the repository")
                    .with_note(
                        "a repository file is shown only from inside the repository (the folder holding `.git` above the book)",
                    ),
            ]
        };
        let folder = folder
            .canonicalize()
            .unwrap_or_else(|_| folder.to_path_buf());
        let lexical = lexical_absolute(&folder.join(path)).filter(|p| p.starts_with(links.root()));
        let Some(lexical) = lexical else {
            return Err(outside(format!("`{path}` leaves the repository")));
        };
        let canonical = match lexical.canonicalize() {
            Ok(canonical) => canonical,
            Err(e) => return Err(vec![missing_file(call, range, path, &e)]),
        };
        if !canonical.starts_with(links.root()) {
            return Err(outside(format!(
                "`{path}` is a symbolic link that leaves the repository"
            )));
        }
        // Diagnostics name files relative to the book root.
        let book = settings
            .root
            .canonicalize()
            .unwrap_or_else(|_| settings.root.clone());
        let display = paths::display(&paths::relative_path(&book, &canonical));
        let text = files::read_text(&canonical, MAX_DATA_FILE).map_err(|e| {
            vec![call.error_at(range.clone(), Code::UnreadableFile, e.describe(&display))]
        })?;
        let file = Arc::new(SourceFile::new(display, text));
        let from = canonical.parent().unwrap_or(links.root()).to_path_buf();
        Ok(Expansion::Block(repository_text::render(&file, &from, cx)))
    }
}

/// The one path argument, and where it is.
fn path_argument<'a>(
    call: &Call<'a>,
) -> Result<(Cow<'a, str>, std::ops::Range<usize>), Vec<Diagnostic>> {
    let tokens = call.tokens().map_err(|e| vec![e])?;
    let usage = "`{{#repository-file PATH}}` takes one path, relative to this chapter's file";
    match tokens.as_slice() {
        [arg] => match &arg.kind {
            ArgKind::Word(path) => Ok((Cow::Borrowed(path), arg.range.clone())),
            // A path with spaces, in quotes.
            ArgKind::Quoted(path) => Ok((path.clone(), arg.range.clone())),
            ArgKind::Pair { .. } => Err(vec![
                call.error_at(arg.range.clone(), Code::InvalidArguments, usage)
                    .with_help("e.g. `{{#repository-file ../../CONTRIBUTING.md}}`"),
            ]),
        },
        [] => {
            Err(vec![call.error(Code::InvalidArguments, usage).with_help(
                "e.g. `{{#repository-file ../../CONTRIBUTING.md}}`",
            )])
        }
        [_, extra, ..] => Err(vec![call.error_at(
            extra.range.clone(),
            Code::InvalidArguments,
            usage,
        )]),
    }
}

fn missing_file(
    call: &Call<'_>,
    range: std::ops::Range<usize>,
    path: &str,
    e: &std::io::Error,
) -> Diagnostic {
    call.error_at(
        range,
        Code::MissingFile,
        format!("cannot read the repository file `{path}`: {e}"),
    )
    .with_label("no such file")
    .with_note("the path is relative to this chapter's file, as in `{{#include}}`")
}

/// `path` made absolute with `.` and `..` removed lexically; `None` when a
/// `..` climbs past the file system's root.
fn lexical_absolute(path: &Path) -> Option<PathBuf> {
    crate::paths::normalize_within(&std::path::absolute(path).ok()?)
}
