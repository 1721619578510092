//! Stable codes: one per kind of problem, as rustc's `E0425`. A code names
//! a kind, not a message: messages may be reworded, codes never change
//! meaning and are never reused. The guide's error reference has a section
//! per code (a test keeps the two in step), and the machine formats (JSON,
//! SARIF) key on them.

/// The kind of a diagnostic. The numbering follows the pipeline: `C0xx` the
/// run, `C1xx` settings, `C2xx` data files, `C3xx` CODEOWNERS, `C4xx` the
/// drift check, `C5xx` directives, `C6xx` links and anchors, `C7xx`
/// redirects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Code {
    /// mdBook's input is not a preprocessor request, or the answer cannot be written.
    BadInput,
    /// The mdBook version is not one the plugin is tested with.
    UntestedMdbook,
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

/// Every code, in order.
pub const ALL: &[Code] = &[
    Code::BadInput,
    Code::UntestedMdbook,
    Code::UnknownSetting,
    Code::InvalidSetting,
    Code::MissingFile,
    Code::UnreadableFile,
    Code::SyntaxError,
    Code::InvalidData,
    Code::InvalidName,
    Code::UndefinedReference,
    Code::Duplicate,
    Code::Cycle,
    Code::CodeownersSyntax,
    Code::OwnerNotInRoster,
    Code::UnclaimedTeam,
    Code::InactiveOwner,
    Code::NoActiveOwner,
    Code::UnknownDirective,
    Code::UnclosedDirective,
    Code::InvalidArguments,
    Code::MisplacedDirective,
    Code::UnknownGroup,
    Code::UnknownPerson,
    Code::EmptySelection,
    Code::MissingData,
    Code::InvalidFaq,
    Code::BrokenAnchor,
    Code::UnknownChapter,
    Code::BrokenRedirect,
    Code::RedirectOverwritesChapter,
    Code::RedirectedLink,
];

impl Code {
    /// The code as printed: `C` and three digits.
    pub fn id(self) -> &'static str {
        self.describe().0
    }

    /// A short kebab-case name (SARIF's `rule.name`).
    pub fn name(self) -> &'static str {
        self.describe().1
    }

    /// One line saying what the code means (SARIF's `shortDescription`).
    pub fn summary(self) -> &'static str {
        self.describe().2
    }

    fn describe(self) -> (&'static str, &'static str, &'static str) {
        use Code::*;
        match self {
            BadInput => ("C001", "bad-input", "mdBook's input is not a preprocessor request"),
            UntestedMdbook => ("C002", "untested-mdbook", "an mdBook version the plugin is not tested with"),
            UnknownSetting => ("C101", "unknown-setting", "an unknown key in [preprocessor.community]"),
            InvalidSetting => ("C102", "invalid-setting", "a setting of the wrong type or value"),
            MissingFile => ("C103", "missing-file", "a configured file does not exist"),
            UnreadableFile => ("C201", "unreadable-file", "a file that cannot be read"),
            SyntaxError => ("C202", "syntax-error", "a data file that is not valid TOML, JSON, YAML or CSV"),
            InvalidData => ("C203", "invalid-data", "a data file whose structure is not what its format expects"),
            InvalidName => ("C204", "invalid-name", "a handle, login, group id or team name that is not valid"),
            UndefinedReference => ("C205", "undefined-reference", "a member, team or parent group that is not defined"),
            Duplicate => ("C206", "duplicate", "a person or group defined twice"),
            Cycle => ("C207", "cycle", "aliases or parent groups that lead back to themselves"),
            CodeownersSyntax => ("C301", "codeowners-syntax", "a CODEOWNERS line that is not valid"),
            OwnerNotInRoster => ("C401", "owner-not-in-roster", "a code owner who is in no roster source"),
            UnclaimedTeam => ("C402", "unclaimed-team", "a code owner team that no group claims"),
            InactiveOwner => ("C403", "inactive-owner", "a code owner who no longer serves"),
            NoActiveOwner => ("C404", "no-active-owner", "paths with no active code owner"),
            UnknownDirective => ("C501", "unknown-directive", "text that looks like a directive but is not one"),
            UnclosedDirective => ("C502", "unclosed-directive", "a directive not closed on its line"),
            InvalidArguments => ("C503", "invalid-arguments", "arguments or options a directive does not take"),
            MisplacedDirective => ("C504", "misplaced-directive", "a directive where its output cannot stand"),
            UnknownGroup => ("C505", "unknown-group", "a group that is not in the people file"),
            UnknownPerson => ("C506", "unknown-person", "a person who is not in the people file"),
            EmptySelection => ("C507", "empty-selection", "a selection of members that matches nobody"),
            MissingData => ("C508", "missing-data", "a directive that needs a file or setting that is not there"),
            InvalidFaq => ("C509", "invalid-faq", "a FAQ block whose structure is broken"),
            BrokenAnchor => ("C601", "broken-anchor", "a link to a heading that does not exist"),
            UnknownChapter => ("C602", "unknown-chapter", "a link to a chapter that is not in the book"),
            BrokenRedirect => ("C701", "broken-redirect", "a redirect whose target does not exist"),
            RedirectOverwritesChapter => ("C702", "redirect-overwrites-chapter", "a whole-page redirect whose source is still a chapter"),
            RedirectedLink => ("C703", "redirected-link", "a link to a page or heading that has moved"),
        }
    }

    /// The code with this id (`C505`), if any.
    pub fn from_id(id: &str) -> Option<Code> {
        ALL.iter().copied().find(|c| c.id() == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_sorted_and_well_formed() {
        let ids: Vec<&str> = ALL.iter().map(|c| c.id()).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(ids, sorted, "codes are listed in order, each once");
        for code in ALL {
            let id = code.id();
            assert!(id.len() == 4 && id.starts_with('C'), "{id}");
            assert!(id[1..].bytes().all(|b| b.is_ascii_digit()), "{id}");
            assert_eq!(Code::from_id(id), Some(*code));
            assert!(code.name().bytes().all(|b| b.is_ascii_lowercase() || b == b'-'));
        }
    }

    /// `ALL` holds every variant: they are numbered in declaration order.
    #[test]
    fn all_lists_every_code_in_declaration_order() {
        assert_eq!(ALL.len(), Code::RedirectedLink as usize + 1);
        for (i, code) in ALL.iter().enumerate() {
            assert_eq!(*code as usize, i, "{code:?}");
        }
    }
}
