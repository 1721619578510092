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

/// How a format is named in a sentence.
fn described(format: PeopleFormat) -> &'static str {
    match format {
        PeopleFormat::Community => "this plugin's people file (maintainers.toml)",
        PeopleFormat::AllContributors => "an .all-contributorsrc file",
        PeopleFormat::OwnersAliases => "a Kubernetes OWNERS_ALIASES file",
        PeopleFormat::Owners => "a Kubernetes OWNERS file",
        PeopleFormat::RustTeam => "a rust-lang/team folder",
        PeopleFormat::MaintainersCsv => "a containerd MAINTAINERS file",
        PeopleFormat::MaintainersText => {
            "a plain-text MAINTAINERS file (`Name <email> (@login)` lines)"
        }
        PeopleFormat::Markdown => "Markdown",
    }
}

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
    let name = PeopleFormat::ALL.iter().find(|(_, f)| *f == actual)?.0;
    let help = format!(
        "to read it as {}, name its format in [preprocessor.community]: people = [{{ path = \"{path}\", format = \"{name}\" }}]",
        described(actual)
    );
    let error = Diagnostic::error(
        Code::InvalidSetting,
        format!(
            "`{path}` looks like {}, not {}",
            described(actual),
            described(format)
        ),
    )
    .in_file(file, 0..0)
    .with_label("read with the wrong format")
    .with_help(help)
    .with_note(format!(
        "reading it as {} gave {}",
        described(format),
        crate::diagnostic::plural(errors.len(), "error")
    ));
    Some(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_apart() {
        let markdown = "# Maintainers\n\n| Name | GitHub |\n|---|---|\n| Ada | @ada |\n";
        assert_eq!(looks_like(markdown), Some(PeopleFormat::Markdown));
        let csv =
            "# COMMITTERS\n\"ada\",\"Ada\",\"a@example.com\"\n\"bob\",\"Bob\",\"b@example.com\"\n";
        assert_eq!(looks_like(csv), Some(PeopleFormat::MaintainersCsv));
        assert_eq!(
            looks_like("aliases:\n  a: [x]\n"),
            Some(PeopleFormat::OwnersAliases)
        );
        assert_eq!(
            looks_like("# c\napprovers:\n- a\n"),
            Some(PeopleFormat::Owners)
        );
        assert_eq!(
            looks_like("{\"contributors\": []}"),
            Some(PeopleFormat::AllContributors)
        );
        assert_eq!(
            looks_like("[people.ada]\nname = \"A\"\n"),
            Some(PeopleFormat::Community)
        );
        assert_eq!(looks_like("just some words\nand more\n"), None);
        // Markdown without a heading: a list of links, a table.
        let list = "- [Ada](https://github.com/ada)\n- [Bob](https://github.com/bob)\n";
        assert_eq!(looks_like(list), Some(PeopleFormat::Markdown));
        let table = "| Name | GitHub |\n|---|---|\n| Ada | @ada |\n";
        assert_eq!(looks_like(table), Some(PeopleFormat::Markdown));
        let text = "# Maintainers\nAda <ada@example.com> (@ada)\nBob <bob@example.com> (bob@)\n";
        assert_eq!(looks_like(text), Some(PeopleFormat::MaintainersText));
    }
}
