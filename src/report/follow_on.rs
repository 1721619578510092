//! Problems that follow from another one are not printed again: one typo
//! in the data file would otherwise print an error for every directive
//! that needs the file, and a missing anchor for every link to a heading
//! a failed directive did not make. They still fail the build (and show
//! in their pages with `on-error = "warn"`); the report counts them in one
//! note per cause.

use std::collections::HashSet;

use crate::diagnostic::{Diagnostic, FollowOn};

/// The diagnostics to print, in order, and a note for each cause whose
/// follow-ons were left out. A data file's problem that is not reported
/// on its own (a missing file) is printed by the first directive that
/// needs the file, and counted for the others.
pub fn collapse(found: Vec<Diagnostic>) -> (Vec<Diagnostic>, Vec<String>) {
    let mut printed = Vec::with_capacity(found.len());
    let mut first_printed: HashSet<FollowOn> = HashSet::new();
    let mut left_out: Vec<(FollowOn, usize)> = Vec::new();
    for diagnostic in found {
        let Some(cause) = &diagnostic.follow_on else {
            printed.push(diagnostic);
            continue;
        };
        let print_first = matches!(
            cause,
            FollowOn::DataFile {
                reported: false,
                ..
            }
        );
        if print_first && first_printed.insert(cause.clone()) {
            printed.push(diagnostic);
            continue;
        }
        match left_out.iter_mut().find(|(c, _)| c == cause) {
            Some((_, count)) => *count += 1,
            None => left_out.push((cause.clone(), 1)),
        }
    }
    let notes = left_out
        .iter()
        .map(|(cause, count)| note(cause, *count))
        .collect();
    (printed, notes)
}

fn note(cause: &FollowOn, count: usize) -> String {
    let one = count == 1;
    let directives = if one { "directive" } else { "directives" };
    let uses = if one { "uses" } else { "use" };
    let were = if one { "was" } else { "were" };
    match cause {
        FollowOn::DataFile {
            file,
            reported: true,
        } => format!("{count} {directives} that {uses} `{file}` {were} not expanded"),
        FollowOn::DataFile { file, .. } => {
            format!("{count} more {directives} that {uses} `{file}` failed the same way")
        }
        FollowOn::PartialPage => format!(
            "{count} missing {} on pages where a directive failed {were} not reported: the directive may have made {}",
            if one { "anchor" } else { "anchors" },
            if one { "it" } else { "them" },
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Code;

    fn data(file: &str, reported: bool) -> FollowOn {
        FollowOn::DataFile {
            file: file.into(),
            reported,
        }
    }

    #[test]
    fn follow_ons_are_counted_once_per_cause() {
        let found = vec![
            Diagnostic::error(Code::BrokenAnchor, "the data file's own problem"),
            Diagnostic::error(Code::BrokenAnchor, "a")
                .with_follow_on(data("maintainers.toml", true)),
            Diagnostic::error(Code::BrokenAnchor, "no CODEOWNERS file")
                .with_follow_on(data("CODEOWNERS", false)),
            Diagnostic::error(Code::BrokenAnchor, "a")
                .with_follow_on(data("maintainers.toml", true)),
            Diagnostic::error(Code::BrokenAnchor, "no CODEOWNERS file")
                .with_follow_on(data("CODEOWNERS", false)),
            Diagnostic::warning(Code::BrokenAnchor, "broken link")
                .with_follow_on(FollowOn::PartialPage),
            Diagnostic::error(Code::BrokenAnchor, "something else"),
        ];
        let (printed, notes) = collapse(found);
        let messages: Vec<&str> = printed.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "the data file's own problem",
                "no CODEOWNERS file",
                "something else"
            ]
        );
        assert_eq!(
            notes,
            [
                "2 directives that use `maintainers.toml` were not expanded",
                "1 more directive that uses `CODEOWNERS` failed the same way",
                "1 missing anchor on pages where a directive failed was not reported: the directive may have made it",
            ]
        );
    }
}
