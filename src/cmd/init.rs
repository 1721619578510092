//! `mdbook-community init [BOOK_DIR]`: a community book for the repository
//! it is run in, that builds at once. It finds the people files the project
//! keeps (`MAINTAINERS.md`, `OWNERS.md`, `OWNERS` and `OWNERS_ALIASES`,
//! `.all-contributorsrc`, `MAINTAINERS`, a rust-lang/team folder, else the
//! sections of a README, GOVERNANCE or CONTRIBUTING page that list people),
//! CODEOWNERS
//! and the community files GitHub shows (CONTRIBUTING, GOVERNANCE,
//! CODE_OF_CONDUCT, SECURITY, SUPPORT), includes the latter with
//! `{{#include}}` (never copies them), and writes `book.toml` through
//! `install`, so that the two never disagree. It never overwrites: a book
//! folder that exists is refused, and nothing is written.

use std::path::{Path, PathBuf};

use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, Value, value};

use crate::data::codeowners::FILE_LOCATIONS;

/// A community file GitHub shows, and its chapter.
#[derive(Debug)]
struct Page {
    /// The names GitHub looks for, in its order of folders.
    names: &'static [&'static str],
    title: &'static str,
    chapter: &'static str,
}

const PAGES: &[Page] = &[
    Page {
        names: &["CONTRIBUTING.md", "CONTRIBUTING"],
        title: "Contributing",
        chapter: "contributing.md",
    },
    Page {
        names: &["GOVERNANCE.md", "GOVERNANCE"],
        title: "Governance",
        chapter: "governance.md",
    },
    Page {
        names: &["CODE_OF_CONDUCT.md", "CODE_OF_CONDUCT"],
        title: "Code of Conduct",
        chapter: "code-of-conduct.md",
    },
    Page {
        names: &["SECURITY.md", "SECURITY"],
        title: "Security",
        chapter: "security.md",
    },
    Page {
        names: &["SUPPORT.md", "SUPPORT"],
        title: "Support",
        chapter: "support.md",
    },
];

/// The folders GitHub looks for community files in, in order.
const FOLDERS: [&str; 3] = ["", ".github", "docs"];

/// A `people` entry: path, format, OWNERS prefix, Markdown section.
type Source = (
    PathBuf,
    Option<&'static str>,
    Option<String>,
    Option<String>,
);

/// What the repository holds, relative to its root.
#[derive(Debug, Default)]
struct Found {
    pages: Vec<(&'static Page, PathBuf)>,
    /// `people` entries.
    people: Vec<Source>,
    codeowners: Option<PathBuf>,
}

/// Makes the book; prints what it made, or why nothing was.
pub fn run(book_dir: Option<&Path>) -> std::process::ExitCode {
    let here = std::env::current_dir().unwrap_or_default();
    let repository = crate::paths::repository_of(&here).unwrap_or(here.clone());
    let book = match book_dir {
        Some(dir) => here.join(dir),
        None => repository.join("docs"),
    };
    let shown = crate::paths::display(book.strip_prefix(&here).unwrap_or(&book));
    match init(&repository, &book) {
        Ok(made) => {
            println!("made a community book in {shown}:");
            for file in made {
                println!("  - {file}");
            }
            println!("next: mdbook build {shown}   (or: mdbook serve {shown} --open)");
            std::process::ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("error: mdbook-community init: {why}; nothing changed");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Writes the book for `repository` in `book`; the files it made. The
/// book is made in a new folder beside `book` and renamed into place when
/// whole, so that a failure leaves nothing behind.
fn init(repository: &Path, book: &Path) -> Result<Vec<String>, String> {
    if book.exists() || book.is_symlink() {
        return Err(format!(
            "{} exists already (init makes a new book and never writes into a folder that is there)",
            book.display()
        ));
    }
    let parent = book.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(".mdbook-community-init-")
        .tempdir_in(parent)
        .map_err(|e| format!("cannot make a folder in {}: {e}", parent.display()))?;
    let found = find(repository);
    let files = book_files(repository, book, &found);
    for (path, text) in &files {
        write_new(&staging.path().join(path), text)?;
    }
    let report = super::install::install(staging.path()).map_err(|e| e.to_string())?;
    if book.exists() {
        return Err(format!(
            "{} appeared while the book was made",
            book.display()
        ));
    }
    let staged = staging.keep();
    std::fs::rename(&staged, book).map_err(|e| {
        let _ = std::fs::remove_dir_all(&staged);
        format!("cannot move the book to {}: {e}", book.display())
    })?;
    let mut made: Vec<String> = files
        .iter()
        .map(|(path, _)| crate::paths::display(path))
        .collect();
    let written = report
        .changes
        .iter()
        .filter_map(|c| c.strip_prefix("wrote "));
    made.extend(
        written.filter_map(|f| Some(crate::paths::display(Path::new(Path::new(f).file_name()?)))),
    );
    made.extend(report.notes.iter().map(|n| format!("note: {n}")));
    Ok(made)
}

/// The book's files, relative to its folder.
fn book_files(repository: &Path, book: &Path, found: &Found) -> Vec<(PathBuf, String)> {
    let to_root = crate::paths::relative_path(book, repository);
    let src = PathBuf::from("src");
    let mut files: Vec<(PathBuf, String)> = vec![
        (PathBuf::from(".gitignore"), "/book/\n".to_string()),
        (src.join("SUMMARY.md"), summary(found)),
        (src.join("introduction.md"), introduction(repository, found)),
        (src.join("maintainers.md"), MAINTAINERS_PAGE.to_string()),
        (src.join("faq.md"), faq(found)),
    ];
    for (page, path) in &found.pages {
        // From the chapter's folder (`src`) to the book, then the root.
        let include = Path::new("..").join(&to_root).join(path);
        let text = ["{{#include ", &slashes(&include), "}}\n"].concat();
        files.push((src.join(page.chapter), text));
    }
    if found.codeowners.is_some() {
        files.push((src.join("code-owners.md"), CODE_OWNERS_PAGE.to_string()));
    }
    if found.people.is_empty() {
        files.push((PathBuf::from("maintainers.toml"), EMPTY_ROSTER.to_string()));
    }
    let title = repository
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    let config = book_toml(title.as_deref().unwrap_or("Project"), found, &to_root);
    files.push((PathBuf::from("book.toml"), config));
    files
}

/// Creates `path` (and its folder) with `text`; never over a file.
fn write_new(path: &Path, text: &str) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    std::io::Write::write_all(&mut file, text.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// What `repository` holds.
fn find(repository: &Path) -> Found {
    let first = |names: &[&str]| -> Option<PathBuf> {
        FOLDERS.iter().find_map(|folder| {
            names.iter().find_map(|name| {
                let path = Path::new(folder).join(name);
                repository.join(&path).is_file().then_some(path)
            })
        })
    };
    let mut found = Found {
        pages: PAGES
            .iter()
            .filter_map(|p| Some((p, first(p.names)?)))
            .collect(),
        codeowners: FILE_LOCATIONS
            .iter()
            .map(PathBuf::from)
            .find(|p| repository.join(p).is_file()),
        ..Found::default()
    };
    for name in [
        "MAINTAINERS.md",
        "OWNERS.md",
        ".all-contributorsrc",
        "MAINTAINERS",
        "OWNERS_ALIASES",
    ] {
        if let Some(path) = first(&[name]) {
            found.people.push((path, None, None, None));
        }
    }
    if repository.join("OWNERS").is_file() {
        let prefix = owners_prefix(repository);
        found
            .people
            .push((PathBuf::from("OWNERS"), None, Some(prefix), None));
    }
    let has_toml = |folder: &str| {
        std::fs::read_dir(repository.join(folder)).is_ok_and(|entries| {
            entries
                .filter_map(Result::ok)
                .any(|e| e.path().extension().is_some_and(|x| x == "toml"))
        })
    };
    if has_toml("people") && has_toml("teams") {
        found
            .people
            .push((PathBuf::from("."), Some("rust-team"), None, None));
    }
    if found.people.is_empty() {
        // No people file: the sections of a README, GOVERNANCE or
        // CONTRIBUTING page that list people, from the first page with any.
        let page = ["README.md", "GOVERNANCE.md", "CONTRIBUTING.md"]
            .iter()
            .filter_map(|name| first(&[name]))
            .map(|path| {
                let text = std::fs::read(repository.join(&path)).unwrap_or_default();
                let sections = people_sections(&String::from_utf8_lossy(&text));
                (path, sections)
            })
            .find(|(_, sections)| !sections.is_empty());
        if let Some((path, sections)) = page {
            for section in sections {
                found.people.push((path.clone(), None, None, Some(section)));
            }
        }
    }
    found
}

/// The headings of a page that name people (maintainers, approvers,
/// reviewers, committers, owners, emeritus) and whose part, up to the next
/// heading, names someone (an `@login`, a GitHub profile link, an e-mail
/// address); each once, outside code blocks.
fn people_sections(text: &str) -> Vec<String> {
    const WORDS: [&str; 12] = [
        "maintainer",
        "maintainers",
        "approver",
        "approvers",
        "reviewer",
        "reviewers",
        "committer",
        "committers",
        "owner",
        "owners",
        "emeritus",
        "emeriti",
    ];
    let mut sections: Vec<String> = Vec::new();
    let mut current: Option<String> = None;
    let mut names_someone = false;
    let mut fenced = false;
    let mut close = |current: &mut Option<String>, names_someone: bool| {
        if let Some(title) = current.take()
            && names_someone
            && !sections.contains(&title)
        {
            sections.push(title);
        }
    };
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let level = trimmed.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&level) && trimmed[level..].starts_with(' ') {
            close(&mut current, names_someone);
            names_someone = false;
            let title = trimmed[level..].trim().trim_end_matches('#').trim();
            let title = title.replace(['*', '_', '`'], "");
            let lower = title.to_lowercase();
            let names_people = lower
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| WORDS.contains(&w));
            current = names_people.then_some(title);
            continue;
        }
        let token = line.contains("github.com/")
            || line.match_indices('@').any(|(at, _)| {
                let after = line[at + 1..].chars().next();
                after.is_some_and(|c| c.is_ascii_alphanumeric())
            });
        names_someone |= current.is_some() && token;
    }
    close(&mut current, names_someone);
    sections
}

/// The prefix of the root OWNERS file's groups: the repository's name.
fn owners_prefix(repository: &Path) -> String {
    let name = repository
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase());
    let slug: String = (name.unwrap_or_default().chars())
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    match slug.trim_matches('-') {
        "" => "repository".to_string(),
        slug => slug.to_string(),
    }
}

/// `book.toml`: the title, the data files, and (added by `install`) the
/// preprocessor and its assets.
fn book_toml(title: &str, found: &Found, to_root: &Path) -> String {
    let mut doc = DocumentMut::new();
    let mut book = Table::new();
    book.insert("title", value(format!("{title} community")));
    book.insert("src", value("src"));
    doc.insert("book", Item::Table(book));
    let mut plugin = Table::new();
    let in_repo = |path: &Path| slashes(&to_root.join(path));
    if !found.people.is_empty() {
        let mut sources = Array::new();
        for (path, format, prefix, section) in &found.people {
            let path = in_repo(path);
            match (format, prefix) {
                (None, None) if section.is_none() => sources.push(path),
                (format, prefix) => {
                    let mut table = InlineTable::new();
                    table.insert("path", path.into());
                    if let Some(format) = format {
                        table.insert("format", (*format).into());
                    }
                    if let Some(prefix) = prefix {
                        table.insert("prefix", prefix.as_str().into());
                    }
                    if let Some(section) = section {
                        table.insert("section", section.as_str().into());
                    }
                    sources.push(Value::InlineTable(table));
                }
            }
        }
        plugin.insert("people", value(sources));
    }
    if let Some(codeowners) = &found.codeowners {
        plugin.insert("codeowners", value(in_repo(codeowners)));
    }
    if let Some((_, contributing)) = found
        .pages
        .first()
        .filter(|(p, _)| p.chapter == "contributing.md")
    {
        plugin.insert("contributing", value(in_repo(contributing)));
    }
    let mut preprocessor = Table::new();
    preprocessor.set_implicit(true);
    preprocessor.insert(crate::mdbook::PREPROCESSOR_NAME, Item::Table(plugin));
    doc.insert("preprocessor", Item::Table(preprocessor));
    doc.to_string()
}

fn summary(found: &Found) -> String {
    let mut lines = vec![
        "# Summary".to_string(),
        String::new(),
        "[Introduction](introduction.md)".to_string(),
        String::new(),
    ];
    for (page, _) in &found.pages {
        lines.push(format!("- [{}]({})", page.title, page.chapter));
    }
    lines.push("- [Maintainers](maintainers.md)".to_string());
    if found.codeowners.is_some() {
        lines.push("- [Code owners](code-owners.md)".to_string());
    }
    lines.push("- [FAQ](faq.md)".to_string());
    lines.join("\n") + "\n"
}

/// The first page: the project's name is data, so it is written as text.
fn introduction(repository: &Path, found: &Found) -> String {
    use pulldown_cmark::{Event, HeadingLevel, Tag, TagEnd};
    let name = (repository.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let heading = Tag::Heading {
        level: HeadingLevel::H1,
        id: None,
        classes: Vec::new(),
        attrs: Vec::new(),
    };
    let mut events = vec![
        Event::Start(heading),
        Event::Text(format!("The {name} community").into()),
        Event::End(TagEnd::Heading(HeadingLevel::H1)),
        Event::Start(Tag::Paragraph),
        Event::Text(
            format!("How to contribute to {name}, how the project is run, and who maintains what.")
                .into(),
        ),
        Event::End(TagEnd::Paragraph),
    ];
    if found
        .pages
        .iter()
        .any(|(p, _)| p.chapter == "contributing.md")
    {
        let link = Tag::Link {
            link_type: pulldown_cmark::LinkType::Inline,
            dest_url: "contributing.md".into(),
            title: "".into(),
            id: "".into(),
        };
        events.extend([
            Event::Start(Tag::Paragraph),
            Event::Text("New here? Start with the ".into()),
            Event::Start(link),
            Event::Text("contribution guide".into()),
            Event::End(TagEnd::Link),
            Event::Text(".".into()),
            Event::End(TagEnd::Paragraph),
        ]);
    }
    let options = crate::mdbook::MarkdownOptions::defaults(crate::mdbook::Generation::V05);
    crate::markdown::to_markdown(events, options.parser_options()) + "\n"
}

fn faq(found: &Found) -> String {
    let answer = match found
        .pages
        .iter()
        .any(|(p, _)| p.chapter == "contributing.md")
    {
        true => "Read the [contribution guide](contributing.md), then pick an issue.",
        false => "Open an issue or a pull request; the maintainers will guide you.",
    };
    [
        "# FAQ\n\n```faq\n## How do I start contributing?\n",
        answer,
        "\n```\n",
    ]
    .concat()
}

const MAINTAINERS_PAGE: &str = "# Maintainers\n\n{{#maintainers}}\n";

const CODE_OWNERS_PAGE: &str =
    "# Code owners\n\nWho reviews what, from CODEOWNERS:\n\n{{#codeowners}}\n";

const EMPTY_ROSTER: &str = "\
# The people of this project, for {{#maintainers}} and the CODEOWNERS drift
# check. See https://github.com/mdbook-community/mdbook-community for the
# format; for example:
#
# [people.octocat]
# name = \"The Octocat\"
#
# [[groups]]
# id = \"maintainers\"
# title = \"Maintainers\"
# members = [\"octocat\"]
";

/// `path` with `/` between its parts, without `./`.
fn slashes(path: &Path) -> String {
    let shown = crate::paths::display(&crate::paths::normalize(path));
    match shown.as_str() {
        "" => ".".to_string(),
        _ => shown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_between_folders() {
        let relative = crate::paths::relative_path;
        assert_eq!(
            relative(Path::new("/r/docs"), Path::new("/r")),
            PathBuf::from("..")
        );
        assert_eq!(
            relative(Path::new("/r/a/b"), Path::new("/r")),
            PathBuf::from("../..")
        );
        assert_eq!(
            slashes(&PathBuf::from("../.github/CODEOWNERS")),
            "../.github/CODEOWNERS"
        );
        assert_eq!(slashes(&PathBuf::from("..").join(".")), "..");
    }
}
