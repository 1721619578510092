//! What is written by hand in more than one place stays in step with the
//! code: every shipped directive has its guide page and is in the fuzz
//! dictionary. (The fuzz targets take the directive list from the registry
//! itself; the error reference is checked by `tests/bad_input.rs`.)

use std::path::Path;

use mdbook_community::testing::builtin_registry;

fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

#[test]
fn every_directive_has_a_guide_page_in_the_summary() {
    let registry = builtin_registry();
    let summary = read("book/SUMMARY.md");
    for name in registry
        .names()
        .brace_names()
        .chain(registry.names().fence_names())
    {
        let page = format!("directives/{name}.md");
        assert!(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("book")
                .join(&page)
                .is_file(),
            "book/{page} is missing"
        );
        assert!(
            summary.contains(&format!("]({page})")),
            "book/SUMMARY.md does not list {page}"
        );
    }
}

#[test]
fn every_directive_is_in_the_fuzz_dictionary() {
    let registry = builtin_registry();
    let dictionary = read("fuzz/dict/markdown.dict");
    let has = |entry: String| dictionary.lines().any(|line| line == entry);
    for name in registry.names().brace_names() {
        assert!(
            has(format!("\"{{{{#{name}\"")),
            "{{{{#{name} is not in fuzz/dict/markdown.dict"
        );
    }
    for name in registry.names().fence_names() {
        assert!(
            has(format!("\"```{name}\"")),
            "```{name} is not in fuzz/dict/markdown.dict"
        );
    }
}

/// The install commands in the README and the guide work today: the crate
/// is not on crates.io yet, so they install from the repository (or a
/// clone), and name the registry form only as a later option.
#[test]
fn install_commands_install_from_the_repository() {
    let repository = "https://github.com/mdbook-community/mdbook-community";
    for file in ["README.md", "book/installation.md"] {
        let text = read(file);
        let commands: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("cargo install") && l.contains("mdbook-community"))
            .collect();
        assert!(!commands.is_empty(), "{file}: no install command");
        for command in commands {
            assert!(
                command.contains(&format!("--git {repository}")) || command.contains("--path ."),
                "{file}: `{command}` does not install from the repository"
            );
        }
        assert!(
            text.contains("not on crates.io yet")
                || text.contains("not published on crates.io yet"),
            "{file} does not say the crate is not published yet"
        );
    }
}

/// The README's first command builds the guide with the plugin from the
/// checkout (`cargo run` in book.toml), which compiles it first: a minute
/// without output, which the command's comment announces.
#[test]
fn the_readme_says_the_first_build_compiles_the_plugin() {
    assert!(read("book.toml").contains("command = \"cargo run"));
    let readme = read("README.md");
    let first = readme
        .lines()
        .find(|l| l.starts_with("cargo install --locked mdbook@") && l.contains("mdbook build"))
        .expect("the README's first command");
    assert!(first.contains("compiles the plugin"), "{first}");
}

/// The guide says the same of `install` everywhere: the preprocessor, the
/// assets and the watched folders.
#[test]
fn the_guide_describes_install_the_same_everywhere() {
    for file in [
        "book/installation.md",
        "book/quick-start.md",
        "book/configuration.md",
    ] {
        let text = read(file);
        for what in [
            "[preprocessor.community]",
            "extra-watch-dirs",
            "[output.html]",
        ] {
            assert!(
                text.contains(what),
                "{file} does not say install adds {what}"
            );
        }
    }
}

/// ARCHITECTURE.md names every folder and top-level file of `src/`, so
/// that its code map cannot silently fall behind the code.
#[test]
fn the_code_map_names_every_module_of_src() {
    let map = read("ARCHITECTURE.md");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&src).expect("src/") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let shown = if path.is_dir() {
            // A folder that only holds a file module's tests (`cli/`) is
            // that module's.
            if src.join(format!("{name}.rs")).is_file() {
                continue;
            }
            format!("`{name}/`")
        } else if name == "lib.rs" || name == "main.rs" || !name.ends_with(".rs") {
            continue;
        } else {
            format!("`{name}`")
        };
        if !map.contains(&shown) {
            missing.push(shown);
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md does not name {missing:?}"
    );
}

/// The source files of `src/` whose text names `needle`.
fn files_naming(needle: &str) -> Vec<String> {
    fn walk(dir: &Path, needle: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("readable") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, needle, out);
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "tests.rs")
                && std::fs::read_to_string(&path).is_ok_and(|t| t.contains(needle))
            {
                out.push(path.display().to_string());
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        needle,
        &mut out,
    );
    out.sort();
    out
}

/// The number word CONTRIBUTING.md's section `heading` starts with
/// ("Four source files").
fn stated_count(heading: &str) -> usize {
    let text = read("CONTRIBUTING.md");
    let section = text.split(heading).nth(1).expect("the section");
    let first = section.split_whitespace().next().unwrap_or("");
    let words = [
        "one", "two", "three", "four", "five", "six", "seven", "eight",
    ];
    (words.iter().position(|w| first.eq_ignore_ascii_case(w)))
        .unwrap_or_else(|| panic!("no count in {heading}: {first}"))
        + 1
}

/// The file counts CONTRIBUTING.md gives are measured: the files that name
/// the last people format and message format added, and the reader or
/// writer file of their own.
#[test]
fn contributings_file_counts_are_the_files_a_format_touches() {
    let people = files_naming("PeopleFormat::CncfMaintainers");
    assert_eq!(
        people.len() + 1,
        stated_count("### Adding a People Format"),
        "{people:?} and the reader"
    );
    let message = files_naming("MessageFormat::Junit");
    assert_eq!(
        message.len() + 1,
        stated_count("### Adding a Message Format"),
        "{message:?} and the writer"
    );
}
