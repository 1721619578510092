//! What format a people file's text looks like, for the one error a file
//! read in the wrong format gives ("this looks like Markdown, not a
//! containerd MAINTAINERS file") instead of one error per line.
//!
//! Only asked when a source fails to read, and only trusted when the text
//! is clearly of one format: a JSON object, YAML with OWNERS keys, quoted
//! CSV rows, this plugin's TOML tables, or Markdown headings, tables and
//! lists.

use std::sync::Arc;

use super::SourceFile;
use crate::config::PeopleFormat;
use crate::diagnostic::{Code, Diagnostic, Location};

/// The format `text` clearly is, if any.
pub(super) fn looks_like(text: &str) -> Option<PeopleFormat> {
    PeopleFormat::of_text(text)
}

/// One error for a source that failed to read because it is not in
/// `format` at all (its text is clearly another one); `None` when its
/// errors are its own.
pub(super) fn wrong_format(
    errors: &[Diagnostic],
    format: PeopleFormat,
    path: &str,
) -> Option<Diagnostic> {
    let file: &Arc<SourceFile> = errors.iter().find_map(|e| match &e.location {
        Some(Location::File { file, .. }) => Some(file),
        _ => None,
    })?;
    let actual = looks_like(&file.text).filter(|f| *f != format)?;
    let name = actual.name();
    let help = format!(
        "to read it as {}, name its format in [preprocessor.community]: people = [{{ path = \"{path}\", format = \"{name}\" }}]",
        actual.described()
    );
    let error = Diagnostic::error(
        Code::InvalidSetting,
        format!(
            "`{path}` looks like {}, not {}",
            actual.described(),
            format.described()
        ),
    )
    .in_file(file, 0..0)
    .with_label("read with the wrong format")
    .with_help(help)
    .with_note(format!(
        "reading it as {} gave {}",
        format.described(),
        crate::diagnostic::plural(errors.len(), "error")
    ));
    Some(error)
}
