//! The people readers on real files they were not written against: every
//! case of `../shared/corpus/others/people-files/` (a people file and the
//! `expected.json` written by reading it) and the seed's own Maintainers
//! page, read through `roster --format json` with no format named, as a
//! project would point `people` at its file. Prints the table and fails
//! below the floor: handles and statuses 98%, groups and names 95%, at
//! most one invented login per ten files, and no listing dropped without
//! a warning at its line.
//!
//! The scoring is `../shared/tools/people-accuracy.py`'s, with one
//! difference: a listing whose expected group is `null` (a file without
//! groups) is right in any group, where the tool counts it wrong.
//!
//! `PEOPLE_CORPUS` names another folder of cases. Without the corpus the
//! test is skipped, and fails under `CI=true`.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde_json::Value;

/// Statuses that mean someone no longer serves (the tool's list).
const INACTIVE: &[&str] = &[
    "emeritus",
    "alumni",
    "retired",
    "inactive",
    "former",
    "emeriti",
    "sunsetting",
    "past",
];

fn norm(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .filter(|c| c.is_ascii_digit() || c.is_ascii_lowercase() || *c >= '\u{c0}')
        .collect()
}

fn inactive(status: Option<&str>) -> bool {
    status.is_some_and(|s| INACTIVE.contains(&s.to_lowercase().as_str()))
}

/// One expected listing.
struct Listing {
    login: String,
    name: String,
    email: String,
    group: Option<String>,
    inactive: bool,
}

/// A membership the roster gave.
struct Found {
    login: String,
    name: String,
    email: String,
    group: String,
    inactive: bool,
}

#[derive(Default, Clone, Copy)]
struct Tally {
    listings: usize,
    handles: usize,
    names: usize,
    handle_ok: usize,
    status_ok: usize,
    group_ok: usize,
    name_ok: usize,
    invented: usize,
    silent: usize,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.listings += o.listings;
        self.handles += o.handles;
        self.names += o.names;
        self.handle_ok += o.handle_ok;
        self.status_ok += o.status_ok;
        self.group_ok += o.group_ok;
        self.name_ok += o.name_ok;
        self.invented += o.invented;
        self.silent += o.silent;
    }
}

/// `roster --format json` on a book whose `people` is `file` (copied from
/// `dir`), with `section` when given; the JSON and stderr.
fn roster(dir: &Path, file: &str, section: Option<&str>) -> (Option<Value>, String) {
    let repo = tempfile::tempdir().expect("tempdir");
    let target = repo.path().join(file);
    std::fs::copy(dir.join(file), &target).expect("copied");
    let book = repo.path().join("docs");
    std::fs::create_dir_all(book.join("src")).expect("book");
    std::fs::write(
        book.join("src/SUMMARY.md"),
        "# Summary\n\n- [People](people.md)\n",
    )
    .expect("written");
    std::fs::write(book.join("src/people.md"), "# People\n\n{{#maintainers}}\n").expect("written");
    let section = section.map_or(String::new(), |s| format!(", section = {s:?}"));
    let toml = format!(
        "[book]\ntitle = \"t\"\n\n[preprocessor.community]\npeople = [{{ path = {:?}{section} }}]\n",
        format!("../{file}")
    );
    std::fs::write(book.join("book.toml"), toml).expect("written");
    let output = common::bin()
        .arg("roster")
        .arg(&book)
        .args(["--format", "json"])
        .env("NO_COLOR", "1")
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (serde_json::from_slice(&output.stdout).ok(), stderr)
}

/// The memberships of a roster's JSON, with each person's fields.
fn memberships(roster: &Value) -> Vec<Found> {
    let empty = Vec::new();
    let people: HashMap<&str, &Value> = (roster["people"].as_array().unwrap_or(&empty).iter())
        .filter_map(|p| Some((p["handle"].as_str()?, p)))
        .collect();
    let mut found = Vec::new();
    for group in roster["groups"].as_array().unwrap_or(&empty) {
        let title = group["title"]
            .as_str()
            .or(group["id"].as_str())
            .unwrap_or("");
        for member in group["members"].as_array().unwrap_or(&empty) {
            let handle = member["handle"].as_str().or(member.as_str()).unwrap_or("");
            let person = people.get(handle).copied().unwrap_or(&Value::Null);
            found.push(Found {
                login: person["github"].as_str().unwrap_or("").to_lowercase(),
                name: norm(person["name"].as_str().unwrap_or("")),
                email: person["email"].as_str().unwrap_or("").to_lowercase(),
                group: norm(title),
                inactive: inactive(member["status"].as_str()),
            });
        }
    }
    found
}

/// The lines of `file` that a warning on stderr points at.
fn warned_lines(stderr: &str, file: &str) -> BTreeSet<usize> {
    let needle = format!("{file}:");
    (stderr.match_indices(&needle))
        .filter_map(|(at, _)| {
            let rest = &stderr[at + needle.len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

fn score(dir: &Path, file: &str, section: Option<&str>, expected: &[Listing]) -> Tally {
    let (json, stderr) = roster(dir, file, section);
    let json = json.unwrap_or_else(|| panic!("{}: no roster: {stderr}", dir.display()));
    let found = memberships(&json);
    let text =
        String::from_utf8_lossy(&std::fs::read(dir.join(file)).expect("readable")).into_owned();
    let lines: Vec<String> = text.lines().map(str::to_lowercase).collect();
    let warned = warned_lines(&stderr, file);
    let mut tally = Tally {
        listings: expected.len(),
        handles: expected.iter().filter(|e| !e.login.is_empty()).count(),
        names: expected.iter().filter(|e| !e.name.is_empty()).count(),
        ..Tally::default()
    };
    for e in expected {
        let name = norm(&e.name);
        let mine: Vec<&Found> = (found.iter())
            .filter(|m| match e.login.is_empty() {
                false => m.login == e.login,
                true => {
                    (!name.is_empty() && m.name == name)
                        || (!e.email.is_empty() && m.email == e.email)
                }
            })
            .collect();
        if !e.login.is_empty() && !mine.is_empty() {
            tally.handle_ok += 1;
        }
        if mine.is_empty() {
            let needles: Vec<String> = [&e.login, &e.name.to_lowercase(), &e.email]
                .into_iter()
                .filter(|n| !n.is_empty())
                .cloned()
                .collect();
            let at_warning = (lines.iter().enumerate()).any(|(i, l)| {
                needles.iter().any(|n| l.contains(n.as_str())) && warned.contains(&(i + 1))
            });
            if !at_warning {
                eprintln!("  silent: {} {} {}", e.login, e.name, dir.display());
                tally.silent += 1;
            }
        } else {
            let in_group: Vec<&&Found> = match &e.group {
                None => mine.iter().collect(),
                Some(group) => {
                    let g = norm(group);
                    (mine.iter())
                        .filter(|m| {
                            !g.is_empty()
                                && (m.group == g
                                    || m.group.contains(&g)
                                    || (!m.group.is_empty() && g.contains(&m.group)))
                        })
                        .collect()
                }
            };
            tally.group_ok += usize::from(!in_group.is_empty());
            let pool: Vec<&Found> = match in_group.is_empty() {
                true => mine.clone(),
                false => in_group.into_iter().copied().collect(),
            };
            tally.status_ok += usize::from(pool.iter().any(|m| m.inactive == e.inactive));
        }
        if !e.name.is_empty() {
            let by_login = (!e.login.is_empty())
                .then(|| found.iter().find(|m| m.login == e.login))
                .flatten();
            let person = by_login.or_else(|| found.iter().find(|m| m.name == name));
            tally.name_ok += usize::from(person.is_some_and(|p| p.name == name));
        }
    }
    let expected_logins: BTreeSet<&str> = expected.iter().map(|e| e.login.as_str()).collect();
    let invented: BTreeSet<&str> = (found.iter())
        .map(|m| m.login.as_str())
        .filter(|l| !l.is_empty() && !expected_logins.contains(l))
        .collect();
    tally.invented = invented.len();
    tally
}

fn listings(expected: &Value) -> Vec<Listing> {
    let text = |v: &Value| v.as_str().unwrap_or("").to_string();
    (expected["people"].as_array().expect("people").iter())
        .map(|e| {
            let login = e
                .get("handle")
                .or(e.get("github"))
                .map(text)
                .unwrap_or_default();
            Listing {
                login: login.to_lowercase(),
                name: text(&e["name"]),
                email: text(&e["email"]).to_lowercase(),
                group: e["group"].as_str().map(str::to_string),
                inactive: inactive(e["status"].as_str()),
            }
        })
        .collect()
}

/// The seed's Maintainers page, its listings as the page writes them:
/// `- [(emeritus)] Name ([login](https://github.com/login))` under the
/// nearest heading.
fn seed_listings(text: &str) -> Vec<Listing> {
    let mut group = String::new();
    let mut found = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix('#') {
            group = heading.trim_start_matches('#').trim().to_string();
            continue;
        }
        let Some(item) = line.strip_prefix("- ") else {
            continue;
        };
        let Some(at) = item.find("](https://github.com/") else {
            continue;
        };
        let login = item[at + "](https://github.com/".len()..]
            .split([')', '/'])
            .next()
            .unwrap_or("")
            .to_lowercase();
        let emeritus = item.starts_with("(emeritus)");
        let name = item.trim_start_matches("(emeritus)").trim();
        let name = name.split(" ([").next().unwrap_or("").trim().to_string();
        found.push(Listing {
            login,
            name,
            email: String::new(),
            group: Some(group.clone()),
            inactive: emeritus,
        });
    }
    found
}

fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        100.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

fn row(name: &str, t: &Tally) -> String {
    format!(
        "{name:48} {:>7.1}% {:>7.1}% {:>7.1}% {:>7.1}% {:>8} {:>6}",
        pct(t.handle_ok, t.handles),
        pct(t.status_ok, t.listings),
        pct(t.group_ok, t.listings),
        pct(t.name_ok, t.names),
        t.invented,
        t.silent
    )
}

fn cases() -> Option<Vec<PathBuf>> {
    let folder = match std::env::var_os("PEOPLE_CORPUS") {
        Some(folder) => PathBuf::from(folder),
        None => common::corpus_path("people_corpus", "others/people-files")?,
    };
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.join("expected.json").is_file())
        .collect();
    cases.sort();
    Some(cases)
}

#[test]
fn real_people_files_are_read_right_and_never_silently() {
    let Some(cases) = cases() else { return };
    assert!(!cases.is_empty(), "no cases");
    let mut total = Tally::default();
    let mut table = vec![format!(
        "{:48} {:>8} {:>8} {:>8} {:>8} {:>8} {:>6}",
        "case", "handles", "status", "group", "names", "invented", "silent"
    )];
    for case in &cases {
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(case.join("expected.json")).expect("readable"),
        )
        .expect("expected.json");
        let file = expected["file"].as_str().expect("file");
        let tally = score(
            case,
            file,
            expected["section"].as_str(),
            &listings(&expected),
        );
        let name = case.file_name().and_then(|n| n.to_str()).unwrap_or("");
        table.push(row(name, &tally));
        total += tally;
    }
    let files = cases.len();
    if let Some(seed) =
        common::corpus_path("people_corpus", "pytorch-community/persons_of_interest.md")
    {
        let dir = seed.parent().expect("folder");
        let text = std::fs::read_to_string(&seed).expect("readable");
        let listings = seed_listings(&text);
        assert_eq!(listings.len(), 257, "the seed page's linked listings");
        assert_eq!(listings.iter().filter(|l| l.inactive).count(), 124);
        let tally = score(dir, "persons_of_interest.md", None, &listings);
        table.push(row("pytorch-community (seed)", &tally));
        total += tally;
        // And the one listing without a login is a person by name.
        let (json, _) = roster(dir, "persons_of_interest.md", None);
        let json = json.expect("roster");
        let members: usize = (json["groups"].as_array().expect("groups").iter())
            .map(|g| g["members"].as_array().map_or(0, Vec::len))
            .sum();
        assert_eq!(members, 258, "every listing of the seed page");
        let nameless = (json["people"].as_array().expect("people").iter())
            .filter(|p| p["github"].is_null())
            .count();
        assert_eq!(nameless, 1, "one person without a login");
    }
    table.push(row("TOTAL", &total));
    let table = table.join("\n");
    println!("{table}");
    let floors = [
        ("handles", pct(total.handle_ok, total.handles), 98.0),
        ("statuses", pct(total.status_ok, total.listings), 98.0),
        ("groups", pct(total.group_ok, total.listings), 95.0),
        ("names", pct(total.name_ok, total.names), 95.0),
    ];
    for (what, got, floor) in floors {
        assert!(got >= floor, "{what}: {got:.1}% < {floor}%\n{table}");
    }
    assert!(
        total.invented * 10 <= files,
        "{} invented logins in {files} files\n{table}",
        total.invented
    );
    assert_eq!(
        total.silent, 0,
        "listings dropped without a warning\n{table}"
    );
}

mod never_silent {
    //! Never silent, by construction: in a generated people file, every
    //! line that holds an `@login`, a GitHub profile link or an e-mail
    //! address gives a person (a membership at that line) or a warning at
    //! that line; and reading never panics.

    use mdbook_community::testing::{
        Diagnostic, Location, People, parse_people_markdown, parse_people_text,
    };
    use proptest::prelude::*;

    fn line_at(text: &str, offset: usize) -> usize {
        text[..offset.min(text.len())].matches('\n').count() + 1
    }

    fn lines_read(
        text: &str,
        people: &Result<People, Vec<Diagnostic>>,
        warnings: &[Diagnostic],
    ) -> Vec<usize> {
        let mut lines = Vec::new();
        if let Ok(people) = people {
            for member in people.groups.iter().flat_map(|g| &g.members) {
                if let Some(at) = &member.at {
                    lines.push(at.line());
                }
            }
        }
        let errors = people.as_ref().err().map_or(&[][..], Vec::as_slice);
        for diagnostic in warnings.iter().chain(errors) {
            if let Some(Location::File { range, .. }) = &diagnostic.location {
                lines.push(line_at(text, range.start));
            }
        }
        lines
    }

    /// Lines that name someone, as the rule says.
    fn naming_lines(text: &str) -> Vec<usize> {
        (text.lines().enumerate())
            .filter(|(_, l)| l.contains("github.com/") || l.contains('@'))
            .map(|(i, _)| i + 1)
            .collect()
    }

    fn name() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "Ada Lovelace",
            "bob",
            "Carol de Vries",
            "铁城",
            "Dan O'Neil",
            "Eve",
        ])
        .prop_map(str::to_string)
    }

    fn login() -> impl Strategy<Value = String> {
        prop::sample::select(vec!["ada", "bob-b", "c4rol", "not a login", "-x", "dan_"])
            .prop_map(str::to_string)
    }

    fn markdown_block() -> impl Strategy<Value = String> {
        (name(), login(), 0..16usize).prop_map(|(name, login, shape)| match shape {
            0 => format!("- {name} (@{login})"),
            1 => format!("- {name} <{}@example.com>", login.replace(' ', "")),
            2 => format!("- (emeritus) {name} ([{login}](https://github.com/{login}))"),
            3 => format!("- @{login}"),
            4 => format!("Ask {name} or @{login} about it."),
            5 => format!(
                "| Name | GitHub |\n|---|---|\n| {name} | [{login}](https://github.com/{login}) |"
            ),
            6 => format!("| Name | GitHub |\n|---|---|\n\n| {name} | @{login} |"),
            7 => format!("## {name}"),
            8 => "- just some words".to_string(),
            9 => format!("Write to {}@example.com.", login.replace(' ', "")),
            10 => format!("- [{name}] (https://github.com/{login})"),
            11 => format!("- ~~{name}~~ ([@{login}](https://github.com/{login}))"),
            12 => format!("| Area | Notes |\n|---|---|\n| docs | ask @{login} |"),
            13 => format!("<table><tr>\n<td><a href=\"https://github.com/{login}\">{name}</a></td>\n</tr></table>"),
            14 => format!("{name} (@{login})\nAnother Person <{}@example.com>", login.replace(' ', "")),
            _ => format!("{name}:"),
        })
    }

    fn text_line() -> impl Strategy<Value = String> {
        (name(), login(), 0..9usize).prop_map(|(name, login, shape)| match shape {
            0 => format!("{name} <{}@example.com> (@{login})", login.replace(' ', "")),
            1 => format!("{name}, Co <x@example.com> (github: @{login}, slack: x)"),
            2 => format!("{name} <y@example.com> ({login}@)"),
            3 => format!("# {name}"),
            4 => "Emeritus Maintainers:".to_string(),
            5 => format!("  {name}"),
            6 => format!("Questions to @{login} or z@example.com please"),
            7 => format!("{name}\n    Email: e@example.com\n    GitHub username: @{login}"),
            _ => String::new(),
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn every_markdown_line_naming_someone_is_read_or_reported(
            blocks in prop::collection::vec(markdown_block(), 1..12)
        ) {
            let text = format!("# Maintainers\n\n{}\n", blocks.join("\n\n"));
            let (people, warnings) = parse_people_markdown(&text, "MAINTAINERS.md");
            let read = lines_read(&text, &people, &warnings);
            for line in naming_lines(&text) {
                prop_assert!(read.contains(&line), "line {line} of\n{text}\nread: {read:?}");
            }
        }

        #[test]
        fn any_text_reads_without_panicking(
            text in "(?s)[ -~\t\n<>()@:#*\\-=\"'éÖ铁]{0,400}"
        ) {
            let (people, warnings) = parse_people_text(&text, "MAINTAINERS");
            let _ = lines_read(&text, &people, &warnings);
            let (people, warnings) = parse_people_markdown(&text, "MAINTAINERS.md");
            let _ = lines_read(&text, &people, &warnings);
        }

        #[test]
        fn every_text_line_naming_someone_is_read_or_reported(
            lines in prop::collection::vec(text_line(), 1..12)
        ) {
            let text = format!("{}\n", lines.join("\n"));
            let (people, warnings) = parse_people_text(&text, "MAINTAINERS");
            let read = lines_read(&text, &people, &warnings);
            for line in naming_lines(&text) {
                let content = text.lines().nth(line - 1).unwrap_or("");
                // An indented `Key: value` line belongs to the person above.
                if content.starts_with("    ") {
                    continue;
                }
                prop_assert!(read.contains(&line), "line {line} of\n{text}\nread: {read:?}");
            }
        }
    }
}
