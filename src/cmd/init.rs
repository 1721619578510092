//! `mdbook-community init [BOOK_DIR]`: a community book for the repository
//! it is run in, that builds at once. It finds the people files the project
//! keeps (`MAINTAINERS.md`, `OWNERS.md`, `OWNERS` and `OWNERS_ALIASES`,
//! `.all-contributorsrc`, `MAINTAINERS`, a rust-lang/team folder, else the
//! sections of a README, GOVERNANCE or CONTRIBUTING page that list people),
//! CODEOWNERS
//! and the community files GitHub shows (CONTRIBUTING, GOVERNANCE,
//! CODE_OF_CONDUCT, SECURITY, SUPPORT), shows the latter with
//! `{{#repository-file}}` (never copies them; never `{{#include}}`, which
//! would expand what they hold), sets `[output.html] git-repository-url`
//! from the `origin` remote (`init/remote.rs`), and writes `book.toml` through
//! `install`, so that the two never disagree. It never overwrites: a book
//! folder that exists is refused, and nothing is written.

use std::path::{Path, PathBuf};

use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, Value, value};

use crate::config::{FORMATS, PeopleFormat};
use crate::ownership::codeowners::FILE_LOCATIONS;

mod remote;

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
    /// Whether the root has an OWNERS file (a Kubernetes OWNERS tree).
    owners_tree: bool,
    /// The web address of the `origin` remote, on a known host.
    repository_url: Option<String>,
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
    // mdBook reads its book's path as UTF-8, and book.toml could not name
    // the files between: a book it cannot build is not made (issue 38, 17).
    if let Some(folder) = [book, repository]
        .into_iter()
        .find(|p| p.to_str().is_none())
    {
        return Err(format!(
            "the path {} is not UTF-8, and mdBook cannot build a book there",
            folder.display()
        ));
    }
    if book.exists() || book.is_symlink() {
        return Err(exists_already(book));
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
    made.push(match &found.repository_url {
        Some(url) => format!(
            "note: git-repository-url = \"{url}\" (from the origin remote): links in the repository files go there"
        ),
        None => "note: no GitHub or GitLab origin remote: set [output.html] git-repository-url for links to the repository's files".to_string(),
    });
    Ok(made)
}

/// Why `book` cannot be made, and what to do instead: an mdBook there is
/// given the plugin by `install`; any other folder (a Sphinx or MkDocs
/// site) is left alone, and the next free name is proposed.
fn exists_already(book: &Path) -> String {
    let shown = book.display();
    if book.join("book.toml").is_file() {
        return format!(
            "{shown} is an mdBook already: add the plugin to it with `mdbook-community install {shown}`"
        );
    }
    let parent = book.parent().unwrap_or(Path::new("."));
    let free = ["community", "community-book", "contributor-docs"]
        .iter()
        .map(|name| parent.join(name))
        .chain((2..100).map(|n| parent.join(format!("community-{n}"))))
        .find(|p| !p.exists() && !p.is_symlink());
    let proposal = match free {
        Some(free) => format!(
            ": make the book beside it with `mdbook-community init {}`",
            free.display()
        ),
        None => String::new(),
    };
    format!(
        "{shown} exists already and is not an mdBook (init never writes into a folder that is there){proposal}"
    )
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
        let text = ["{{#repository-file ", &slashes(&include), "}}\n"].concat();
        files.push((src.join(page.chapter), text));
    }
    if found.codeowners.is_some() {
        files.push((src.join("code-owners.md"), CODE_OWNERS_PAGE.to_string()));
    } else if found.owners_tree {
        files.push((src.join("code-owners.md"), OWNERS_TREE_PAGE.to_string()));
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

/// Whether `path` is a file the book may read: a regular file, or a
/// symbolic link to one that stays in the repository (a link out of it is
/// never followed, by `init` or by the build).
fn is_data_file(path: &Path) -> bool {
    path.is_file() && crate::files::within_repository(path).is_ok()
}

/// What `repository` holds.
fn find(repository: &Path) -> Found {
    let first = |names: &[&str]| -> Option<PathBuf> {
        FOLDERS.iter().find_map(|folder| {
            names.iter().find_map(|name| {
                let path = Path::new(folder).join(name);
                is_data_file(&repository.join(&path)).then_some(path)
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
            .find(|p| is_data_file(&repository.join(p))),
        repository_url: remote::origin_url(repository),
        ..Found::default()
    };
    let names = FORMATS.iter().flat_map(|facts| facts.found_by_init);
    for name in names {
        if let Some(path) = first(&[name]) {
            found.people.push((path, None, None, None));
        }
    }
    if is_data_file(&repository.join(crate::ownership::OWNERS)) {
        let prefix = owners_prefix(repository);
        found.people.push((
            PathBuf::from(crate::ownership::OWNERS),
            None,
            Some(prefix),
            None,
        ));
        found.owners_tree = true;
    }
    let has_toml = |folder: &str| {
        std::fs::read_dir(repository.join(folder)).is_ok_and(|entries| {
            entries
                .filter_map(Result::ok)
                .any(|e| e.path().extension().is_some_and(|x| x == "toml"))
        })
    };
    if has_toml("people") && has_toml("teams") {
        found.people.push((
            PathBuf::from("."),
            Some(PeopleFormat::RustTeam.name()),
            None,
            None,
        ));
    }
    if found.people.is_empty() {
        // No people file of the project's own: a copy kept for others
        // (beside another file it would list the same people twice).
        let alone = FORMATS.iter().flat_map(|facts| facts.found_by_init_alone);
        if let Some(path) = alone.into_iter().find_map(|name| first(&[name])) {
            found.people.push((path, None, None, None));
        }
    }
    if found.people.is_empty() {
        found.people = people_in_pages(repository, &first);
    }
    found
}

/// No people file: the sections of a README, GOVERNANCE or CONTRIBUTING
/// page that list people, from the first page with any; `first` finds a
/// file by its name.
fn people_in_pages(repository: &Path, first: &dyn Fn(&[&str]) -> Option<PathBuf>) -> Vec<Source> {
    let page = ["README.md", "GOVERNANCE.md", "CONTRIBUTING.md"]
        .iter()
        .filter_map(|name| first(&[name]))
        .map(|path| {
            let full = repository.join(&path);
            let text =
                crate::files::read_bytes(&full, crate::files::MAX_DATA_FILE).unwrap_or_default();
            let sections = people_sections(&String::from_utf8_lossy(&text));
            (path, sections)
        })
        .find(|(_, sections)| !sections.is_empty());
    let Some((path, sections)) = page else {
        return Vec::new();
    };
    (sections.into_iter())
        .map(|section| (path.clone(), None, None, Some(section)))
        .collect()
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
    use pulldown_cmark::{Event, Tag, TagEnd};
    let names_someone = |text: &str| {
        text.contains("github.com/")
            || text.match_indices('@').any(|(at, _)| {
                let after = text[at + 1..].chars().next();
                after.is_some_and(|c| c.is_ascii_alphanumeric())
            })
    };
    // Read as the Markdown roster reader reads it (so that a heading's text
    // is the one its `section` setting matches), code blocks left out.
    let options = crate::mdbook::MarkdownOptions::defaults(crate::mdbook::Generation::V05);
    let mut sections: Vec<String> = Vec::new();
    let (mut title, mut current, mut found) = (None::<String>, None::<String>, false);
    let mut in_code = false;
    let mut close = |current: &mut Option<String>, found: bool| {
        if let Some(heading) = current.take().filter(|h| found && !sections.contains(h)) {
            sections.push(heading);
        }
    };
    for event in options.data_parser(text) {
        match event {
            Event::Start(Tag::Heading { .. }) => {
                close(&mut current, found);
                (title, found) = (Some(String::new()), false);
            }
            Event::End(TagEnd::Heading(_)) => {
                let heading = title.take().unwrap_or_default().trim().to_string();
                let lower = heading.to_lowercase();
                let names_people =
                    (lower.split(|c: char| !c.is_alphanumeric())).any(|w| WORDS.contains(&w));
                current = names_people.then_some(heading);
            }
            Event::Start(Tag::CodeBlock(_)) => in_code = true,
            Event::End(TagEnd::CodeBlock) => in_code = false,
            Event::Text(t) | Event::Code(t) if title.is_some() => {
                if let Some(heading) = title.as_mut() {
                    heading.push_str(&t);
                }
            }
            Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) if !in_code => {
                found |= current.is_some() && names_someone(&t);
            }
            Event::Start(Tag::Link { dest_url, .. }) if title.is_none() => {
                found |= current.is_some() && names_someone(&dest_url);
            }
            _ => {}
        }
    }
    close(&mut current, found);
    sections
}

/// The prefix of the root OWNERS file's groups: the repository's name, or
/// the first of a few others whose groups (`PREFIX-approvers`, ...) no
/// alias of OWNERS_ALIASES is named already (a project often names its
/// root's aliases `REPO-approvers`), so that the book builds.
fn owners_prefix(repository: &Path) -> String {
    let name = repository
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase());
    let slug: String = (name.unwrap_or_default().chars())
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    let slug = match slug.trim_matches('-') {
        "" => "repository".to_string(),
        slug => slug.to_string(),
    };
    let taken = alias_names(repository);
    let lists = [
        "approvers",
        "reviewers",
        "emeritus_approvers",
        "required_reviewers",
    ];
    let free = |prefix: &String| {
        !lists
            .iter()
            .any(|l| taken.contains(&format!("{prefix}-{l}")))
    };
    [slug.clone(), format!("{slug}-root"), "root".to_string()]
        .into_iter()
        .chain((2..100).map(|n| format!("{slug}-root-{n}")))
        .find(free)
        .unwrap_or(slug)
}

/// The lower-case names of the aliases in the repository's OWNERS_ALIASES
/// (none when it cannot be read: the build reports that file).
fn alias_names(repository: &Path) -> std::collections::HashSet<String> {
    let path = repository.join(crate::ownership::OWNERS_ALIASES);
    let Ok((_, root)) = crate::files::tree::read_yaml(&path, crate::ownership::OWNERS_ALIASES)
    else {
        return Default::default();
    };
    use crate::files::tree::NodeKind;
    let NodeKind::Table(top) = root.kind else {
        return Default::default();
    };
    let aliases = top
        .into_iter()
        .find(|e| e.key == "aliases")
        .map(|e| e.value.kind);
    match aliases {
        Some(NodeKind::Table(aliases)) => {
            aliases.into_iter().map(|e| e.key.to_lowercase()).collect()
        }
        _ => Default::default(),
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
    if let Some(url) = &found.repository_url {
        let mut html = Table::new();
        html.insert("git-repository-url", value(url.as_str()));
        let mut output = Table::new();
        output.set_implicit(true);
        output.insert("html", Item::Table(html));
        doc.insert("output", Item::Table(output));
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
    if found.codeowners.is_some() || found.owners_tree {
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

const OWNERS_TREE_PAGE: &str =
    "# Code owners\n\nWho approves and reviews what, from the OWNERS files:\n\n{{#codeowners}}\n";

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
