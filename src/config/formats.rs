//! The people formats: one entry each in [`FORMATS`], with everything the
//! plugin knows of a format apart from its reader (its name in `format =
//! "..."`, how a sentence names it, the file names that imply it, whether it
//! is read line by line, the files `init` looks for) and, below, how its
//! text is recognised. The reader is the one arm of
//! `people::roster::read_source` (a `match` the compiler holds exhaustive).

use std::path::Path;

/// A file format the roster can be read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeopleFormat {
    /// This plugin's own `maintainers.toml` or `.json`.
    Community,
    /// all-contributors' `.all-contributorsrc`.
    AllContributors,
    /// Kubernetes' `OWNERS_ALIASES`.
    OwnersAliases,
    /// One Kubernetes `OWNERS` file (needs a `prefix`).
    Owners,
    /// rust-lang/team's folder of `people/` and `teams/`.
    RustTeam,
    /// containerd's `MAINTAINERS`: quoted CSV under `# SECTION` headers.
    MaintainersCsv,
    /// A plain-text `MAINTAINERS`: `Name <email> (@login)` lines, `#`
    /// comment headers and `Label:` lines.
    MaintainersText,
    /// A Markdown page that lists people: `MAINTAINERS.md`, `OWNERS.md`.
    Markdown,
    /// CNCF's `.project/maintainers.yaml`: teams of GitHub handles.
    CncfMaintainers,
}

/// What the plugin knows of one format, apart from its reader.
#[derive(Debug)]
pub struct FormatFacts {
    /// The format.
    pub format: PeopleFormat,
    /// The name `format = "..."` takes.
    pub name: &'static str,
    /// How a sentence names it ("a Kubernetes OWNERS file").
    pub described: &'static str,
    /// File names that imply it, for a source without `format`.
    pub file_names: &'static [&'static str],
    /// Extensions (any case) that imply it.
    pub extensions: &'static [&'static str],
    /// The files `init` looks for, in this order, to read as this format.
    pub found_by_init: &'static [&'static str],
    /// The files `init` reads as this format only when it finds no other
    /// people file (a copy kept for others, such as CNCF's).
    pub found_by_init_alone: &'static [&'static str],
    /// Read line by line: a file of it that gives no one is worth a
    /// warning saying what was seen.
    pub line_based: bool,
}

/// Every format, in the order `init` looks for their files (the first
/// source found gives a person's fields first).
pub const FORMATS: [FormatFacts; 9] = [
    FormatFacts {
        format: PeopleFormat::Markdown,
        name: "markdown",
        described: "Markdown",
        file_names: &[],
        extensions: &["md", "markdown"],
        found_by_init: &["MAINTAINERS.md", "OWNERS.md"],
        found_by_init_alone: &[],
        line_based: true,
    },
    FormatFacts {
        format: PeopleFormat::Community,
        name: "community",
        described: "this plugin's people file (maintainers.toml)",
        file_names: &[],
        extensions: &["toml", "json"],
        found_by_init: &[],
        found_by_init_alone: &[],
        line_based: false,
    },
    FormatFacts {
        format: PeopleFormat::AllContributors,
        name: "all-contributors",
        described: "an .all-contributorsrc file",
        file_names: &[".all-contributorsrc"],
        extensions: &[],
        found_by_init: &[".all-contributorsrc"],
        found_by_init_alone: &[],
        line_based: false,
    },
    FormatFacts {
        format: PeopleFormat::MaintainersCsv,
        name: "maintainers-csv",
        described: "a containerd MAINTAINERS file",
        file_names: &["MAINTAINERS"],
        extensions: &[],
        found_by_init: &["MAINTAINERS"],
        found_by_init_alone: &[],
        line_based: true,
    },
    FormatFacts {
        format: PeopleFormat::MaintainersText,
        name: "maintainers-text",
        described: "a plain-text MAINTAINERS file (`Name <email> (@login)` lines)",
        file_names: &[],
        extensions: &[],
        found_by_init: &[],
        found_by_init_alone: &[],
        line_based: true,
    },
    FormatFacts {
        format: PeopleFormat::OwnersAliases,
        name: "owners-aliases",
        described: "a Kubernetes OWNERS_ALIASES file",
        file_names: &["OWNERS_ALIASES"],
        extensions: &[],
        found_by_init: &["OWNERS_ALIASES"],
        found_by_init_alone: &[],
        line_based: false,
    },
    FormatFacts {
        format: PeopleFormat::Owners,
        name: "owners",
        described: "a Kubernetes OWNERS file",
        file_names: &["OWNERS"],
        extensions: &[],
        found_by_init: &[],
        found_by_init_alone: &[],
        line_based: false,
    },
    FormatFacts {
        format: PeopleFormat::CncfMaintainers,
        name: "cncf-maintainers",
        described: "a CNCF .project/maintainers.yaml file",
        file_names: &[".project/maintainers.yaml", ".project/maintainers.yml"],
        extensions: &[],
        found_by_init: &[],
        found_by_init_alone: &[".project/maintainers.yaml", ".project/maintainers.yml"],
        line_based: false,
    },
    FormatFacts {
        format: PeopleFormat::RustTeam,
        name: "rust-team",
        described: "a rust-lang/team folder",
        file_names: &[],
        extensions: &[],
        found_by_init: &[],
        found_by_init_alone: &[],
        line_based: false,
    },
];

impl PeopleFormat {
    /// Its entry in [`FORMATS`].
    pub fn facts(self) -> &'static FormatFacts {
        let mut entries = FORMATS.iter();
        // Every variant has an entry: a unit test walks them all.
        entries
            .find(|facts| facts.format == self)
            .unwrap_or(&FORMATS[0])
    }

    /// The name `format = "..."` takes.
    pub fn name(self) -> &'static str {
        self.facts().name
    }

    /// How a sentence names it.
    pub fn described(self) -> &'static str {
        self.facts().described
    }

    /// The format `format = "NAME"` names.
    pub fn named(name: &str) -> Option<PeopleFormat> {
        (FORMATS.iter())
            .find(|facts| facts.name == name)
            .map(|facts| facts.format)
    }

    /// The format a source's name implies, for a source without `format`:
    /// by the names and extensions in [`FORMATS`]; a folder is
    /// rust-lang/team's.
    pub fn implied_by(path: &Path, is_dir: bool) -> Option<PeopleFormat> {
        if is_dir {
            return Some(PeopleFormat::RustTeam);
        }
        let name = path.file_name()?.to_str()?;
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        // A name with a folder (`.project/maintainers.yaml`) is matched
        // by the path's last components.
        let names = |f: &&FormatFacts| {
            (f.file_names.iter()).any(|n| *n == name || (n.contains('/') && path.ends_with(n)))
        };
        let by_name = FORMATS.iter().find(names);
        let by_extension = || {
            (FORMATS.iter()).find(|f| {
                f.extensions
                    .iter()
                    .any(|e| e.eq_ignore_ascii_case(extension))
            })
        };
        by_name.or_else(by_extension).map(|facts| facts.format)
    }

    /// The format a source without `format` is read in: by its name, and for
    /// `MAINTAINERS` (or `MAINTAINERS.txt`), whose projects write it as quoted
    /// CSV, plain `Name <email> (@login)` lines or Markdown, by its text.
    pub fn implied(path: &Path, full: &Path) -> Option<PeopleFormat> {
        let name = path.file_name()?.to_str()?;
        let (stem, extension) = name.split_once('.').unwrap_or((name, ""));
        let plain = extension.is_empty() || extension.eq_ignore_ascii_case("txt");
        if stem == "MAINTAINERS" && plain && full.is_file() {
            let text = crate::files::read_bytes(full, crate::files::MAX_DATA_FILE).ok()?;
            let text = String::from_utf8_lossy(&text);
            return Some(match PeopleFormat::of_text(&text) {
                Some(format @ (PeopleFormat::MaintainersText | PeopleFormat::Markdown)) => format,
                Some(_) => PeopleFormat::MaintainersCsv,
                // Neither clearly: e-mail addresses or logins make it text.
                None if text.contains('@') => PeopleFormat::MaintainersText,
                None => PeopleFormat::MaintainersCsv,
            });
        }
        PeopleFormat::implied_by(path, full.is_dir())
    }

    /// The format `text` clearly is, if any: a JSON object, YAML with
    /// OWNERS keys, quoted CSV rows, this plugin's TOML tables, Markdown
    /// headings, tables and lists, or `Name <email> (@login)` lines. For
    /// the one error a file read in the wrong format gives, and for files
    /// whose name does not tell (`MAINTAINERS`, `people.txt`).
    pub fn of_text(text: &str) -> Option<PeopleFormat> {
        looks_like(text)
    }
}

/// The format `text` clearly is, if any (see [`PeopleFormat::of_text`]).
fn looks_like(text: &str) -> Option<PeopleFormat> {
    let lines: Vec<&str> = (text.lines())
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let first = lines.iter().find(|l| !l.starts_with('#'))?;
    structured(text, first)
        .or_else(|| csv_rows(&lines))
        .or_else(|| native_tables(&lines))
        .or_else(|| maintainers_text(&lines))
        .or_else(|| markdown(&lines))
}

/// JSON, or YAML with the keys of OWNERS files, by the first line that is
/// not a comment.
fn structured(text: &str, first: &str) -> Option<PeopleFormat> {
    // `{`, as its code point: tools that count braces read the literal as one.
    if first.starts_with('\u{7b}') {
        return Some(match text.contains("\"contributors\"") {
            true => PeopleFormat::AllContributors,
            false => PeopleFormat::Community,
        });
    }
    if first == "aliases:" {
        return Some(PeopleFormat::OwnersAliases);
    }
    if first == "maintainers:" && text.contains("project_id") {
        return Some(PeopleFormat::CncfMaintainers);
    }
    let owners_keys = [
        "approvers:",
        "reviewers:",
        "filters:",
        "options:",
        "emeritus_approvers:",
    ];
    owners_keys
        .iter()
        .any(|k| first.starts_with(k))
        .then_some(PeopleFormat::Owners)
}

/// Mostly quoted CSV rows (`"login","Name",...`).
fn csv_rows(lines: &[&str]) -> Option<PeopleFormat> {
    let rows = lines
        .iter()
        .filter(|l| l.starts_with('"') && l.contains("\",\""));
    let content = lines.iter().filter(|l| !l.starts_with('#')).count();
    (rows.count() * 2 > content).then_some(PeopleFormat::MaintainersCsv)
}

/// This plugin's TOML tables.
fn native_tables(lines: &[&str]) -> Option<PeopleFormat> {
    (lines
        .iter()
        .any(|l| l.starts_with("[people.") || *l == "[[groups]]"))
    .then_some(PeopleFormat::Community)
}

/// Headings, tables and lists making up a good part of the lines, with a
/// heading, a table's delimiter row or Markdown links: Markdown even
/// without a heading (a list of `[Name](url)`, a table).
fn markdown(lines: &[&str]) -> Option<PeopleFormat> {
    let heading = |l: &&&str| l.starts_with("# ") || l.starts_with("## ") || l.starts_with("### ");
    let list = |l: &&&str| l.starts_with("- ") || l.starts_with("* ");
    let marked = |l: &&&str| heading(l) || l.starts_with('|') || list(l);
    let headings = lines.iter().filter(heading).count();
    let delimiter = lines
        .iter()
        .any(|l| l.contains("---") && l.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ')));
    let links = lines.iter().filter(|l| l.contains("](")).count();
    let marks = lines.iter().filter(marked).count();
    let sure = headings > 0 || delimiter || links * 2 >= lines.len();
    (marks * 3 >= lines.len() && sure).then_some(PeopleFormat::Markdown)
}

/// Mostly `Name <email> (@login)` lines, not in a list or table: a
/// plain-text MAINTAINERS file (its `#` lines are comments).
fn maintainers_text(lines: &[&str]) -> Option<PeopleFormat> {
    let content: Vec<&str> = (lines.iter().copied())
        .filter(|l| !l.starts_with('#'))
        .collect();
    let person = |l: &&&str| {
        let email =
            (l.find('<').zip(l.find('>'))).is_some_and(|(a, b)| a < b && l[a..b].contains('@'));
        let marked = l.starts_with(['-', '*', '|', '[']);
        !marked
            && (email
                || l.contains("(@")
                || l.contains("@)")
                || l.to_lowercase().contains("github: @"))
    };
    let people = content.iter().filter(person).count();
    (people >= 1 && people * 2 >= content.len()).then_some(PeopleFormat::MaintainersText)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_has_one_entry_and_one_name() {
        let variants = [
            PeopleFormat::Community,
            PeopleFormat::AllContributors,
            PeopleFormat::OwnersAliases,
            PeopleFormat::Owners,
            PeopleFormat::RustTeam,
            PeopleFormat::MaintainersCsv,
            PeopleFormat::MaintainersText,
            PeopleFormat::Markdown,
            PeopleFormat::CncfMaintainers,
        ];
        assert_eq!(variants.len(), FORMATS.len());
        for format in variants {
            let entries = FORMATS.iter().filter(|f| f.format == format).count();
            assert_eq!(entries, 1, "{format:?}");
            assert_eq!(format.facts().format, format);
            assert_eq!(PeopleFormat::named(format.name()), Some(format));
        }
    }

    #[test]
    fn names_imply_their_formats() {
        let implied = |name: &str| PeopleFormat::implied_by(Path::new(name), false);
        assert_eq!(implied("OWNERS"), Some(PeopleFormat::Owners));
        assert_eq!(
            implied("a/OWNERS_ALIASES"),
            Some(PeopleFormat::OwnersAliases)
        );
        assert_eq!(
            implied(".all-contributorsrc"),
            Some(PeopleFormat::AllContributors)
        );
        assert_eq!(implied("MAINTAINERS"), Some(PeopleFormat::MaintainersCsv));
        assert_eq!(implied("people.TOML"), Some(PeopleFormat::Community));
        assert_eq!(implied("MAINTAINERS.md"), Some(PeopleFormat::Markdown));
        assert_eq!(implied("people.txt"), None);
        assert_eq!(
            implied("../.project/maintainers.yaml"),
            Some(PeopleFormat::CncfMaintainers)
        );
        assert_eq!(implied("maintainers.yaml"), None);
        for facts in &FORMATS {
            for name in facts.found_by_init.iter().chain(facts.found_by_init_alone) {
                assert_eq!(implied(name), Some(facts.format), "{name}");
            }
        }
    }

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
        assert_eq!(
            looks_like("maintainers:\n  - project_id: x\n"),
            Some(PeopleFormat::CncfMaintainers)
        );
        // Markdown without a heading: a list of links, a table.
        let list = "- [Ada](https://github.com/ada)\n- [Bob](https://github.com/bob)\n";
        assert_eq!(looks_like(list), Some(PeopleFormat::Markdown));
        let table = "| Name | GitHub |\n|---|---|\n| Ada | @ada |\n";
        assert_eq!(looks_like(table), Some(PeopleFormat::Markdown));
        let text = "# Maintainers\nAda <ada@example.com> (@ada)\nBob <bob@example.com> (bob@)\n";
        assert_eq!(looks_like(text), Some(PeopleFormat::MaintainersText));
    }
}
