//! Stable codes: one per kind of problem, as rustc's `E0425`. A code names
//! a kind, not a message: messages may be reworded, codes never change
//! meaning and are never reused. The guide's error reference has a section
//! per code (a test keeps the two in step), and the machine formats (JSON,
//! SARIF) key on them.

/// The kind of a diagnostic. The numbering follows the pipeline: `C0xx` the
/// run, `C1xx` settings, `C2xx` data files, `C3xx` CODEOWNERS, `C4xx` the
/// drift and activity checks, `C5xx` directives, `C6xx` links and anchors, `C7xx`
/// redirects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Code {
    /// mdBook's input is not a preprocessor request, or the answer cannot be written.
    BadInput,
    /// The mdBook version is not one the plugin is tested with.
    UntestedMdbook,
    /// A subcommand cannot run: no book, a `book.toml` that is not TOML,
    /// an mdBook that cannot load the book.
    CannotRun,
    /// An unknown key in `[preprocessor.community]`.
    UnknownSetting,
    /// A setting of the wrong type or value.
    InvalidSetting,
    /// A configured file does not exist or is a folder.
    MissingFile,
    /// A file that cannot be read: not a regular file, too big, not UTF-8.
    UnreadableFile,
    /// A data file that is not valid TOML, JSON, YAML or CSV.
    SyntaxError,
    /// A data file whose structure is not what its format expects.
    InvalidData,
    /// A handle, login, group id or team name that is not valid.
    InvalidName,
    /// A name that refers to nobody: a member, team or parent not defined.
    UndefinedReference,
    /// The same person or group defined twice.
    Duplicate,
    /// Aliases or parent groups that lead back to themselves.
    Cycle,
    /// A line of a people file that looks like a person but cannot be read.
    UnreadEntry,
    /// A link whose text names another GitHub login than its URL.
    ConflictingLogin,
    /// A CODEOWNERS line that is not valid.
    CodeownersSyntax,
    /// A code owner who is in no roster source.
    OwnerNotInRoster,
    /// A code owner team no group claims.
    UnclaimedTeam,
    /// A code owner every group lists as inactive.
    InactiveOwner,
    /// CODEOWNERS rules whose paths have no active owner.
    NoActiveOwner,
    /// A CODEOWNERS rule that matches no file of the repository.
    RuleMatchesNothing,
    /// An active member of a group without a commit in `check-activity`.
    InactiveMaintainer,
    /// The history cannot say who is active: a shallow clone, no repository.
    ActivityNotJudged,
    /// Files of the repository without an active owner (`unowned`).
    UnownedFiles,
    /// `{{#name}}` where `name` is not a directive of this plugin.
    UnknownDirective,
    /// `{{#name` not closed on its line.
    UnclosedDirective,
    /// Arguments or options a directive does not take.
    InvalidArguments,
    /// A directive where its output cannot stand.
    MisplacedDirective,
    /// A group that is not in the people file.
    UnknownGroup,
    /// A person who is not in the people file.
    UnknownPerson,
    /// A selection of members that matches nobody.
    EmptySelection,
    /// A directive that needs a file or setting that is not there.
    MissingData,
    /// A FAQ block whose structure is broken.
    InvalidFaq,
    /// A link to a heading that does not exist.
    BrokenAnchor,
    /// A link to a chapter that is not in the book.
    UnknownChapter,
    /// A redirect whose target page or heading does not exist.
    BrokenRedirect,
    /// A whole-page redirect whose source is still a chapter.
    RedirectOverwritesChapter,
    /// A link to a page or heading that has moved (valid, through a redirect).
    RedirectedLink,
}

/// Each code's id, name, summary and fix, in declaration order.
const TABLE: &[(Code, &str, &str, &str, &str)] = &[
    (
        Code::BadInput,
        "C001",
        "bad-input",
        "mdBook's input is not a preprocessor request",
        "Run the plugin through mdBook (`mdbook build`, `mdbook serve`) or `mdbook-community check`, not on its own.",
    ),
    (
        Code::UntestedMdbook,
        "C002",
        "untested-mdbook",
        "an mdBook version the plugin is not tested with",
        "Use mdBook 0.4.40 or later (0.5 recommended), or update the plugin.",
    ),
    (
        Code::CannotRun,
        "C003",
        "cannot-run",
        "a command that cannot run on this book",
        "Fix what the message names (the folder, book.toml, SUMMARY.md or the mdBook used), then run the command again.",
    ),
    (
        Code::UnknownSetting,
        "C101",
        "unknown-setting",
        "an unknown key in [preprocessor.community]",
        "Fix the key's spelling (the help names the closest one) or remove it.",
    ),
    (
        Code::InvalidSetting,
        "C102",
        "invalid-setting",
        "a setting of the wrong type or value",
        "Give the setting one of the values the message lists.",
    ),
    (
        Code::MissingFile,
        "C103",
        "missing-file",
        "a configured file does not exist",
        "Fix the path (relative to the book root) or create the file.",
    ),
    (
        Code::UnreadableFile,
        "C201",
        "unreadable-file",
        "a file that cannot be read",
        "Make it a regular UTF-8 file under the size limit, readable by the build.",
    ),
    (
        Code::SyntaxError,
        "C202",
        "syntax-error",
        "a data file that is not valid TOML, JSON, YAML or CSV",
        "Fix the syntax at the position shown.",
    ),
    (
        Code::InvalidData,
        "C203",
        "invalid-data",
        "a data file whose structure is not what its format expects",
        "Give the field the type and shape the message names; see the data file chapter.",
    ),
    (
        Code::InvalidName,
        "C204",
        "invalid-name",
        "a handle, login, group id or team name that is not valid",
        "Use the form the message names: a GitHub login, `org/team`, an id of letters, digits and dashes.",
    ),
    (
        Code::UndefinedReference,
        "C205",
        "undefined-reference",
        "a member, team or parent group that is not defined",
        "Define it, or fix the name (the help names the closest one).",
    ),
    (
        Code::Duplicate,
        "C206",
        "duplicate",
        "a person or group defined twice",
        "Keep one definition, and name the person or group by it everywhere.",
    ),
    (
        Code::Cycle,
        "C207",
        "cycle",
        "aliases or parent groups that lead back to themselves",
        "Break the cycle the message shows.",
    ),
    (
        Code::UnreadEntry,
        "C208",
        "unread-entry",
        "a line of a people file that looks like a person but cannot be read",
        "Write the person as the format's help says, or remove what is not a person.",
    ),
    (
        Code::ConflictingLogin,
        "C209",
        "conflicting-login",
        "a link whose text names another GitHub login than its URL",
        "Make the link's text and its URL name the same login.",
    ),
    (
        Code::CodeownersSyntax,
        "C301",
        "codeowners-syntax",
        "a CODEOWNERS line that is not valid",
        "Fix the pattern or owner as GitHub reads CODEOWNERS; GitHub skips such lines too.",
    ),
    (
        Code::OwnerNotInRoster,
        "C401",
        "owner-not-in-roster",
        "a code owner who is in no roster source",
        "Add the person to the roster, or fix or remove the owner in CODEOWNERS.",
    ),
    (
        Code::UnclaimedTeam,
        "C402",
        "unclaimed-team",
        "a code owner team that no group claims",
        "Give the group that owns these paths `github-team = \"org/team\"`.",
    ),
    (
        Code::InactiveOwner,
        "C403",
        "inactive-owner",
        "a code owner who no longer serves",
        "Give these paths an active owner, or remove the owner.",
    ),
    (
        Code::NoActiveOwner,
        "C404",
        "no-active-owner",
        "paths with no active code owner",
        "Add an active owner to the rule.",
    ),
    (
        Code::RuleMatchesNothing,
        "C405",
        "rule-matches-nothing",
        "a CODEOWNERS rule that matches no file of the repository",
        "Fix the pattern to the path's new name, or remove the rule if the path is gone.",
    ),
    (
        Code::InactiveMaintainer,
        "C406",
        "inactive-maintainer",
        "an active maintainer with no commit in the `check-activity` window",
        "Nothing may be wrong: ask them; if they have stepped back, give them an inactive status. If they commit under another address, add it to `.mailmap`.",
    ),
    (
        Code::ActivityNotJudged,
        "C407",
        "activity-not-judged",
        "a git history that cannot say who is active",
        "Build from a full clone of the repository (`fetch-depth: 0` with actions/checkout).",
    ),
    (
        Code::UnownedFiles,
        "C408",
        "unowned-files",
        "files of the repository without an active owner",
        "Add a CODEOWNERS rule (or OWNERS approvers) with an active owner for the folders listed.",
    ),
    (
        Code::UnknownDirective,
        "C501",
        "unknown-directive",
        "text that looks like a directive but is not one",
        "Fix the directive's name (the help names the closest), or escape it as `\\{{#`.",
    ),
    (
        Code::UnclosedDirective,
        "C502",
        "unclosed-directive",
        "a directive not closed on its line",
        "Close it with `}}` on the same line, or escape it as `\\{{#`.",
    ),
    (
        Code::InvalidArguments,
        "C503",
        "invalid-arguments",
        "arguments or options a directive does not take",
        "Use the arguments the directive's chapter lists (the help shows the form).",
    ),
    (
        Code::MisplacedDirective,
        "C504",
        "misplaced-directive",
        "a directive where its output cannot stand",
        "Put it in a paragraph of its own, or use its inline form.",
    ),
    (
        Code::UnknownGroup,
        "C505",
        "unknown-group",
        "a group that is not in the people file",
        "Fix the group id (the help names the closest) or add the group.",
    ),
    (
        Code::UnknownPerson,
        "C506",
        "unknown-person",
        "a person who is not in the people file",
        "Fix the handle (the help names the closest) or add the person.",
    ),
    (
        Code::EmptySelection,
        "C507",
        "empty-selection",
        "a selection of members that matches nobody",
        "Fix the status, or pass `empty=\"TEXT\"` to show a text when nobody matches.",
    ),
    (
        Code::MissingData,
        "C508",
        "missing-data",
        "a directive that needs a file or setting that is not there",
        "Configure the file or setting the message names in [preprocessor.community].",
    ),
    (
        Code::InvalidFaq,
        "C509",
        "invalid-faq",
        "a FAQ block whose structure is broken",
        "Start each question with a heading and close every block inside an answer.",
    ),
    (
        Code::BrokenAnchor,
        "C601",
        "broken-anchor",
        "a link to a heading that does not exist",
        "Link to an existing heading (the help names the closest); if a heading was renamed, also add a redirect.",
    ),
    (
        Code::UnknownChapter,
        "C602",
        "unknown-chapter",
        "a link to a chapter that is not in the book",
        "Fix the path, or add the chapter to SUMMARY.md.",
    ),
    (
        Code::BrokenRedirect,
        "C701",
        "broken-redirect",
        "a redirect whose target does not exist",
        "Point the redirect in [output.html.redirect] at an existing page and heading.",
    ),
    (
        Code::RedirectOverwritesChapter,
        "C702",
        "redirect-overwrites-chapter",
        "a whole-page redirect whose source is still a chapter",
        "Remove the redirect, or the chapter from SUMMARY.md.",
    ),
    (
        Code::RedirectedLink,
        "C703",
        "redirected-link",
        "a link to a page or heading that has moved",
        "Nothing is broken; link to the new place the help names.",
    ),
];

/// Every code, in order.
pub fn all() -> impl Iterator<Item = Code> {
    TABLE.iter().map(|row| row.0)
}

impl Code {
    /// The code as printed: `C` and three digits.
    pub fn id(self) -> &'static str {
        self.row().1
    }

    /// A short kebab-case name (SARIF's `rule.name`).
    pub fn name(self) -> &'static str {
        self.row().2
    }

    /// One line saying what the code means (SARIF's `shortDescription`).
    pub fn summary(self) -> &'static str {
        self.row().3
    }

    /// One line saying how to fix it (SARIF's `help`).
    pub fn fix(self) -> &'static str {
        self.row().4
    }

    fn row(self) -> &'static (Code, &'static str, &'static str, &'static str, &'static str) {
        &TABLE[self as usize]
    }

    /// The code with this id (`C505`), if any.
    pub fn from_id(id: &str) -> Option<Code> {
        all().find(|c| c.id() == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_sorted_and_well_formed() {
        let ids: Vec<&str> = all().map(|c| c.id()).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(ids, sorted, "codes are listed in order, each once");
        for code in all() {
            let id = code.id();
            assert!(id.len() == 4 && id.starts_with('C'), "{id}");
            assert!(id[1..].bytes().all(|b| b.is_ascii_digit()), "{id}");
            assert_eq!(Code::from_id(id), Some(code));
            assert!(
                code.name()
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'-')
            );
        }
    }

    /// The table has a row for every variant, in declaration order (which
    /// `row` relies on).
    #[test]
    fn the_table_lists_every_code_in_declaration_order() {
        assert_eq!(TABLE.len(), Code::RedirectedLink as usize + 1);
        for (i, row) in TABLE.iter().enumerate() {
            assert_eq!(row.0 as usize, i, "{:?}", row.0);
        }
    }
}
