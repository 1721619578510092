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
    /// Files with fewer active owners than `min-owners`.
    TooFewOwners,
    /// A person active in a group and missing or former in one of its
    /// copies (`copies`), or the other way round.
    CopiesDisagree,
    /// A group whose roster breaks a rule of `governance`.
    GovernanceRuleBroken,
    /// Roster data a governance rule reads that is unclear: no
    /// affiliation, a link as one, a date that cannot be read.
    GovernanceData,
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
    /// A `{{#repository-file}}` path, or a symbolic link, that leaves the
    /// repository.
    OutsideRepository,
    /// A link to a heading that does not exist.
    BrokenAnchor,
    /// A link to a chapter that is not in the book.
    UnknownChapter,
    /// A relative link in a repository file to nothing in the repository.
    MissingRepositoryPath,
    /// A link to a repository file, but `git-repository-url` is not set.
    NoRepositoryUrl,
    /// A redirect whose target page or heading does not exist.
    BrokenRedirect,
    /// A whole-page redirect whose source is still a chapter.
    RedirectOverwritesChapter,
    /// A link to a page or heading that has moved (valid, through a redirect).
    RedirectedLink,
}

/// How a code's results are reported when nothing else decides: SARIF's
/// `defaultConfiguration.level` (a check's `Level` setting, or the place
/// that finds the problem, decides each diagnostic's own severity).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultLevel {
    /// The build fails.
    Error,
    /// Reported; the build goes on.
    Warning,
    /// Information.
    Note,
}

impl DefaultLevel {
    /// SARIF's word for it.
    pub fn sarif(self) -> &'static str {
        match self {
            DefaultLevel::Error => "error",
            DefaultLevel::Warning => "warning",
            DefaultLevel::Note => "note",
        }
    }
}

/// A code's facts: the one place each is written. The guide's error
/// reference has a section `## ID: NAME` for each (a test keeps them in
/// step); every message format reads the rest from here.
pub struct Facts {
    /// The variant.
    pub code: Code,
    /// `C` and three digits.
    pub id: &'static str,
    /// Kebab-case (SARIF's `rule.name`).
    pub name: &'static str,
    /// What it means, in one line.
    pub summary: &'static str,
    /// How to fix it, in one line.
    pub fix: &'static str,
    /// How its results are reported by default.
    pub level: DefaultLevel,
}

/// Every code's facts, in declaration order.
const TABLE: &[Facts] = &[
    Facts {
        code: Code::BadInput,
        id: "C001",
        name: "bad-input",
        summary: "mdBook's input is not a preprocessor request",
        fix: "Run the plugin through mdBook (`mdbook build`, `mdbook serve`) or `mdbook-community check`, not on its own.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::UntestedMdbook,
        id: "C002",
        name: "untested-mdbook",
        summary: "an mdBook version the plugin is not tested with",
        fix: "Use mdBook 0.4.40 or later (0.5 recommended), or update the plugin.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::CannotRun,
        id: "C003",
        name: "cannot-run",
        summary: "a command that cannot run on this book",
        fix: "Fix what the message names (the folder, book.toml, SUMMARY.md or the mdBook used), then run the command again.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::UnknownSetting,
        id: "C101",
        name: "unknown-setting",
        summary: "an unknown key in [preprocessor.community]",
        fix: "Fix the key's spelling (the help names the closest one) or remove it.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::InvalidSetting,
        id: "C102",
        name: "invalid-setting",
        summary: "a setting of the wrong type or value",
        fix: "Give the setting one of the values the message lists.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::MissingFile,
        id: "C103",
        name: "missing-file",
        summary: "a configured file does not exist",
        fix: "Fix the path (relative to the book root) or create the file.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::UnreadableFile,
        id: "C201",
        name: "unreadable-file",
        summary: "a file that cannot be read",
        fix: "Make it a regular UTF-8 file under the size limit, readable by the build.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::SyntaxError,
        id: "C202",
        name: "syntax-error",
        summary: "a data file that is not valid TOML, JSON, YAML or CSV",
        fix: "Fix the syntax at the position shown.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::InvalidData,
        id: "C203",
        name: "invalid-data",
        summary: "a data file whose structure is not what its format expects",
        fix: "Give the field the type and shape the message names; see the data file chapter.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::InvalidName,
        id: "C204",
        name: "invalid-name",
        summary: "a handle, login, group id or team name that is not valid",
        fix: "Use the form the message names: a GitHub login, `org/team`, an id of letters, digits and dashes.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::UndefinedReference,
        id: "C205",
        name: "undefined-reference",
        summary: "a member, team or parent group that is not defined",
        fix: "Define it, or fix the name (the help names the closest one).",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::Duplicate,
        id: "C206",
        name: "duplicate",
        summary: "a person or group defined twice",
        fix: "Keep one definition, and name the person or group by it everywhere.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::Cycle,
        id: "C207",
        name: "cycle",
        summary: "aliases or parent groups that lead back to themselves",
        fix: "Break the cycle the message shows.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::UnreadEntry,
        id: "C208",
        name: "unread-entry",
        summary: "a line of a people file that looks like a person but cannot be read",
        fix: "Write the person as the format's help says, or remove what is not a person.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::ConflictingLogin,
        id: "C209",
        name: "conflicting-login",
        summary: "a link whose text names another GitHub login than its URL",
        fix: "Make the link's text and its URL name the same login.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::CodeownersSyntax,
        id: "C301",
        name: "codeowners-syntax",
        summary: "a CODEOWNERS line that is not valid",
        fix: "Fix the pattern or owner as GitHub reads CODEOWNERS; GitHub skips such lines too.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::OwnerNotInRoster,
        id: "C401",
        name: "owner-not-in-roster",
        summary: "a code owner who is in no roster source",
        fix: "Add the person to the roster, or fix or remove the owner in CODEOWNERS.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::UnclaimedTeam,
        id: "C402",
        name: "unclaimed-team",
        summary: "a code owner team that no group claims",
        fix: "Give the group that owns these paths `github-team = \"org/team\"`.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::InactiveOwner,
        id: "C403",
        name: "inactive-owner",
        summary: "a code owner who no longer serves",
        fix: "Give these paths an active owner, or remove the owner.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::NoActiveOwner,
        id: "C404",
        name: "no-active-owner",
        summary: "paths with no active code owner",
        fix: "Add an active owner to the rule.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::RuleMatchesNothing,
        id: "C405",
        name: "rule-matches-nothing",
        summary: "a CODEOWNERS rule that matches no file of the repository",
        fix: "Fix the pattern to the path's new name, or remove the rule if the path is gone.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::InactiveMaintainer,
        id: "C406",
        name: "inactive-maintainer",
        summary: "an active maintainer the history identifies, with no commit in the `check-activity` window",
        fix: "Nothing may be wrong: ask them; if they have stepped back, give them an inactive status. If the match is wrong, give them `email` in the roster or map the address in `.mailmap`.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::ActivityNotJudged,
        id: "C407",
        name: "activity-not-judged",
        summary: "a git history that cannot say whether someone is active",
        fix: "For someone not matched, add their `email` to the roster or a `.mailmap` line; for the whole history, build from a full clone (`fetch-depth: 0` with actions/checkout).",
        level: DefaultLevel::Note,
    },
    Facts {
        code: Code::UnownedFiles,
        id: "C408",
        name: "unowned-files",
        summary: "files of the repository without an active owner",
        fix: "Add a CODEOWNERS rule (or OWNERS approvers) with an active owner for the folders listed.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::TooFewOwners,
        id: "C409",
        name: "too-few-owners",
        summary: "files with fewer active owners than min-owners",
        fix: "Add owners to the rules (or OWNERS files) of the folders named, or lower min-owners.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::CopiesDisagree,
        id: "C410",
        name: "copies-disagree",
        summary: "a person active in a group and missing or emeritus in a copy of it",
        fix: "Make the copies agree: add, remove or mark the person where the note says (`roster --compare` shows every copy side by side).",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::GovernanceRuleBroken,
        id: "C411",
        name: "governance-rule-broken",
        summary: "a group's roster breaks a rule its charter states in `governance`",
        fix: "Change the roster (the rows named) so the group keeps the rule, or the rule if the charter changed.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::GovernanceData,
        id: "C412",
        name: "governance-data",
        summary: "roster data a governance rule reads that is missing or cannot be read",
        fix: "Give the person an `affiliation` (plain text), and write dates as YYYY-MM-DD, not in the future.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::UnknownDirective,
        id: "C501",
        name: "unknown-directive",
        summary: "text that looks like a directive but is not one",
        fix: "Fix the directive's name (the help names the closest), or escape it as `\\{{#`.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::UnclosedDirective,
        id: "C502",
        name: "unclosed-directive",
        summary: "a directive not closed on its line",
        fix: "Close it with `}}` on the same line, or escape it as `\\{{#`.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::InvalidArguments,
        id: "C503",
        name: "invalid-arguments",
        summary: "arguments or options a directive does not take",
        fix: "Use the arguments the directive's chapter lists (the help shows the form).",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::MisplacedDirective,
        id: "C504",
        name: "misplaced-directive",
        summary: "a directive where its output cannot stand",
        fix: "Put it in a paragraph of its own, or use its inline form.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::UnknownGroup,
        id: "C505",
        name: "unknown-group",
        summary: "a group that is not in the people file",
        fix: "Fix the group id (the help names the closest) or add the group.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::UnknownPerson,
        id: "C506",
        name: "unknown-person",
        summary: "a person who is not in the people file",
        fix: "Fix the handle (the help names the closest) or add the person.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::EmptySelection,
        id: "C507",
        name: "empty-selection",
        summary: "a selection of members that matches nobody",
        fix: "Fix the status, or pass `empty=\"TEXT\"` to show a text when nobody matches.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::MissingData,
        id: "C508",
        name: "missing-data",
        summary: "a directive that needs a file or setting that is not there",
        fix: "Configure the file or setting the message names in [preprocessor.community].",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::InvalidFaq,
        id: "C509",
        name: "invalid-faq",
        summary: "a FAQ block whose structure is broken",
        fix: "Start each question with a heading and close every block inside an answer.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::OutsideRepository,
        id: "C510",
        name: "outside-repository",
        summary: "a repository file that is not in the repository",
        fix: "Name a file of the repository, not one a `..` or a symbolic link leads out to.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::BrokenAnchor,
        id: "C601",
        name: "broken-anchor",
        summary: "a link to a heading that does not exist",
        fix: "Link to an existing heading (the help names the closest); if a heading was renamed, also add a redirect.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::UnknownChapter,
        id: "C602",
        name: "unknown-chapter",
        summary: "a link to a chapter that is not in the book",
        fix: "Fix the path, or add the chapter to SUMMARY.md.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::MissingRepositoryPath,
        id: "C603",
        name: "missing-repository-path",
        summary: "a link in a repository file to a path the repository does not have",
        fix: "Fix the link in the file it was written in (the help names the closest path).",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::NoRepositoryUrl,
        id: "C604",
        name: "no-repository-url",
        summary: "a link to a repository file, but no `git-repository-url` to link to",
        fix: "Set `git-repository-url` in [output.html].",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::BrokenRedirect,
        id: "C701",
        name: "broken-redirect",
        summary: "a redirect whose target does not exist",
        fix: "Point the redirect in [output.html.redirect] at an existing page and heading.",
        level: DefaultLevel::Error,
    },
    Facts {
        code: Code::RedirectOverwritesChapter,
        id: "C702",
        name: "redirect-overwrites-chapter",
        summary: "a whole-page redirect whose source is still a chapter",
        fix: "Remove the redirect, or the chapter from SUMMARY.md.",
        level: DefaultLevel::Warning,
    },
    Facts {
        code: Code::RedirectedLink,
        id: "C703",
        name: "redirected-link",
        summary: "a link to a page or heading that has moved",
        fix: "Nothing is broken; link to the new place the help names.",
        level: DefaultLevel::Note,
    },
];

/// Every code, in order.
pub fn all() -> impl Iterator<Item = Code> {
    TABLE.iter().map(|row| row.code)
}

impl Code {
    /// The code as printed: `C` and three digits.
    pub fn id(self) -> &'static str {
        self.row().id
    }

    /// A short kebab-case name (SARIF's `rule.name`).
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// One line saying what the code means (SARIF's `shortDescription`).
    pub fn summary(self) -> &'static str {
        self.row().summary
    }

    /// One line saying how to fix it (SARIF's `help`).
    pub fn fix(self) -> &'static str {
        self.row().fix
    }

    /// How its results are reported by default (SARIF's level).
    pub fn default_level(self) -> DefaultLevel {
        self.row().level
    }

    fn row(self) -> &'static Facts {
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
            assert_eq!(row.code as usize, i, "{:?}", row.code);
        }
    }
}
