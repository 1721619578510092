//! The rules ARCHITECTURE.md states, checked against the code: each
//! folder imports only what its "May import" line says (through `crate::`,
//! `super::` and `self::` paths alike), no import cycle between files and
//! no function over 80 lines (what `../shared/tools/modgraph.py` checks,
//! here too so that a clone without it still checks them), one Markdown
//! parser constructor, no HTML written outside the writers, mdBook's
//! settings read only by `mdbook/`, one place that makes a chapter's final
//! text, no source file over 1,000 lines. Test items are left out whole;
//! code after them is read (`source.rs`, and the checks of the checker at
//! the end).

#[path = "architecture/source.rs"]
mod source;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use source::{ModPath, Source};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every source file of `src/` with its non-test code, comments blanked.
fn sources() -> Vec<Source> {
    source::sources(&root().join("src"))
}

/// The top-level module of a module path (`expand` for `expand::scan`,
/// `lib` for the crate root).
fn top(module: &[String]) -> String {
    module.first().cloned().unwrap_or_else(|| "lib".to_string())
}

/// The top-level modules `source` imports, resolved through `crate::`,
/// `super::` and `self::`; the root's re-exports are named by the module
/// they are of.
fn imports_of(source: &Source, modules: &BTreeSet<ModPath>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for path in source::paths(&source.code) {
        let Some(target) = source::resolve(&source.module, &path, modules) else {
            continue;
        };
        let name = if target.is_empty() {
            // An item of the crate root: a re-export.
            let item = path
                .iter()
                .find(|p| !matches!(p.as_str(), "crate" | "super" | "self"));
            match item.map(String::as_str) {
                Some("preprocess") => "pipeline".to_string(),
                Some("Environment") => "report".to_string(),
                Some("run_cli") => "cmd".to_string(),
                _ => continue,
            }
        } else {
            top(&target)
        };
        found.insert(name);
    }
    found
}

/// The "May import" lists of ARCHITECTURE.md, by module, and the shared
/// leaves.
fn may_import() -> (BTreeMap<String, BTreeSet<String>>, BTreeSet<String>) {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let backticked = |s: &str| -> Vec<String> {
        s.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    let mut lists = BTreeMap::new();
    let mut leaves = BTreeSet::new();
    for section in text.split("\n### ").skip(1) {
        let (heading, body) = section.split_once('\n').unwrap_or((section, ""));
        let modules: Vec<String> = backticked(heading)
            .iter()
            .map(|m| m.trim_end_matches('/').trim_end_matches(".rs").to_string())
            .collect();
        let paragraph = |start: &str| -> Option<String> {
            let at = body.find(start)?;
            let rest = &body[at + start.len()..];
            let end = rest
                .find("\n- ")
                .or(rest.find("\n\n"))
                .unwrap_or(rest.len());
            Some(rest[..end].to_string())
        };
        if heading.starts_with("Shared leaves") {
            let list = body.split("\n\n").next().unwrap_or("");
            for name in backticked(list) {
                if name.ends_with('/') || name.ends_with(".rs") {
                    leaves.insert(
                        name.trim_end_matches('/')
                            .trim_end_matches(".rs")
                            .to_string(),
                    );
                }
            }
            continue;
        }
        let Some(allowed) = paragraph("- May import:") else {
            continue;
        };
        let allowed: BTreeSet<String> = backticked(&allowed)
            .into_iter()
            .filter(|name| !name.contains("::"))
            .collect();
        for module in modules {
            lists.insert(module, allowed.clone());
        }
    }
    (lists, leaves)
}

/// Imports the code map does not allow, in `sources`.
fn forbidden_imports(sources: &[Source], modules: &BTreeSet<ModPath>) -> Vec<String> {
    let (lists, leaves) = may_import();
    assert!(
        lists.contains_key("expand") && leaves.contains("diagnostic"),
        "ARCHITECTURE.md's code map could not be read: {lists:?} {leaves:?}"
    );
    let mut wrong = Vec::new();
    for source in sources {
        let module = top(&source.module);
        if module == "lib" || module == "main" {
            continue;
        }
        let allowed = match (lists.get(&module), leaves.contains(&module)) {
            (Some(allowed), _) => allowed,
            (None, true) => &leaves,
            (None, false) => {
                wrong.push(format!("{module}: not in ARCHITECTURE.md's code map"));
                continue;
            }
        };
        for import in imports_of(source, modules) {
            if import != module && !allowed.contains(&import) && !leaves.contains(&import) {
                wrong.push(format!("{}: imports `{import}`", source.path.display()));
            }
        }
    }
    wrong
}

#[test]
fn every_folder_imports_only_what_architecture_md_says() {
    let sources = sources();
    let modules = sources.iter().map(|s| s.module.clone()).collect();
    let wrong = forbidden_imports(&sources, &modules);
    assert!(
        wrong.is_empty(),
        "imports ARCHITECTURE.md does not allow:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_import_cycle_between_files() {
    let cycles = source::cycles(&source::graph(&sources()));
    let shown: Vec<String> = (cycles.iter())
        .map(|c| {
            c.iter()
                .map(|m| m.join("::"))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    assert!(shown.is_empty(), "import cycles:\n{}", shown.join("\n"));
}

#[test]
fn no_function_over_eighty_lines() {
    let mut long = Vec::new();
    for source in sources() {
        for (name, line, length) in source::long_functions(&source.code, 80) {
            long.push(format!(
                "{}:{line}: {name} ({length} lines)",
                source.path.display()
            ));
        }
    }
    assert!(
        long.is_empty(),
        "functions over 80 lines:\n{}",
        long.join("\n")
    );
}

/// `code` lines that hold `needle`, with their files, outside the files
/// (or folders, ending in `/`) in `skip`.
fn occurrences(needle: &str, skip: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for source in sources() {
        let shown = (source.path.strip_prefix(root()).unwrap_or(&source.path))
            .display()
            .to_string();
        if skip
            .iter()
            .any(|s| shown == *s || (s.ends_with('/') && shown.starts_with(s)))
        {
            continue;
        }
        for (n, line) in source.code.lines().enumerate() {
            if line.contains(needle) {
                found.push(format!("{shown}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn one_markdown_parser_constructor() {
    for needle in ["Parser::new(", "Parser::new_ext("] {
        let found = occurrences(needle, &["src/mdbook/options.rs"]);
        assert!(
            found.is_empty(),
            "parsers built outside mdbook/options.rs:\n{}",
            found.join("\n")
        );
    }
}

/// A tag in a string literal (`"<div"`, `"</a>"`) that is written, outside
/// the writers: `markdown/html.rs` writes HTML, and `markdown/literal.rs`
/// spells a code span or block that Markdown cannot hold as escaped
/// `<code>`; `ids/` reads HTML (mdBook 0.4's rendered headings, raw HTML
/// ids, GitHub's headings) to compute ids, and never emits it. A literal
/// that is only looked for or compared with (`find("<summary")`) is read,
/// not written.
#[test]
fn no_html_written_outside_the_writers() {
    let mut found = Vec::new();
    let skip = [
        "src/markdown/html.rs",
        "src/markdown/literal.rs",
        "src/ids/",
    ];
    for hit in occurrences("\"<", &skip) {
        if writes_a_tag(&hit) {
            found.push(hit);
        }
    }
    assert!(
        found.is_empty(),
        "HTML built by hand:\n{}",
        found.join("\n")
    );
}

/// Whether a line holds a string literal that starts with a tag and is not
/// the argument of a search or a comparison.
fn writes_a_tag(line: &str) -> bool {
    const READS: &[&str] = &[
        "find(",
        "rfind(",
        "starts_with(",
        "ends_with(",
        "strip_prefix(",
        "strip_suffix(",
        "contains(",
        "split(",
        "split_once(",
        "matches(",
        "== ",
        "!= ",
        "eq_ignore_ascii_case(",
    ];
    line.match_indices("\"<").any(|(at, _)| {
        let tag =
            line[at + 2..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '/' || c == '!');
        let before = line[..at].trim_end_matches('&');
        tag && !READS.iter().any(|read| before.ends_with(read))
    })
}

#[test]
fn the_html_check_tells_writing_from_reading() {
    assert!(writes_a_tag(r#"let html = format!("<code>{x}</code>");"#));
    assert!(writes_a_tag(r#"out.push_str("</div>");"#));
    assert!(!writes_a_tag(
        r#"let Some(open) = lower.find("<summary") else {"#
    ));
    assert!(!writes_a_tag(r#"if tag == "<br>" {"#));
    assert!(!writes_a_tag(r#"let x = "<= 3";"#));
}

/// mdBook's tables are read through `mdbook::Context` and `mdbook/config.rs`
/// alone; `cmd/install.rs` edits `book.toml` and `cmd/init.rs` writes a new
/// one, through `toml_edit`.
#[test]
fn only_mdbook_reads_mdbooks_settings() {
    let mut found = Vec::new();
    for table in ["output", "preprocessor", "book", "build"] {
        for needle in [format!("get(\"{table}\")"), format!("[\"{table}\"]")] {
            found.extend(occurrences(
                &needle,
                &["src/mdbook/", "src/cmd/install.rs", "src/cmd/init.rs"],
            ));
        }
    }
    assert!(
        found.is_empty(),
        "mdBook's settings read outside mdbook/:\n{}",
        found.join("\n")
    );
}

#[test]
fn one_place_makes_a_chapters_final_text() {
    // The splicing itself is `chapter/`'s (`only_chapter_and_expand_splice`).
    let found = occurrences("final_text(", &["src/chapter/mod.rs", "src/pipeline.rs"]);
    assert!(
        found.is_empty(),
        "final text made elsewhere:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_source_file_over_a_thousand_lines() {
    let long: Vec<String> = sources()
        .into_iter()
        .filter(|s| s.code.trim_end().lines().count() > 1000)
        .map(|s| format!("{}: {} lines", s.path.display(), s.code.lines().count()))
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}

/// The checks above read what they think they read: groups, `super::`
/// paths and re-exports resolved; comments are not imports.
#[test]
fn the_import_reader_reads_groups_super_and_reexports() {
    let modules: BTreeSet<ModPath> = [vec![], vec!["data".into()], vec!["paths".into()]]
        .into_iter()
        .chain([
            vec!["pipeline".into()],
            vec!["expand".into(), "scan".into()],
        ])
        .chain([vec!["expand".into()], vec!["cmd".into()]])
        .collect();
    let code = "use crate::{data::Data, preprocess};\nlet x = crate::paths::display(p); // crate::cmd\nuse super::{scan::{self, Site}};\n";
    let source = Source {
        path: PathBuf::from("src/expand/text.rs"),
        module: vec!["expand".into(), "text".into()],
        code: source::blank_comments(code),
    };
    let found: Vec<String> = imports_of(&source, &modules).into_iter().collect();
    assert_eq!(found, ["data", "expand", "paths", "pipeline"]);
    let top_level = Source {
        path: PathBuf::from("src/cmd/mod.rs"),
        module: vec!["cmd".into()],
        code: "use super::data::Data;".into(),
    };
    let found: Vec<String> = imports_of(&top_level, &modules).into_iter().collect();
    assert_eq!(found, ["data"]);
}

/// A test-only item early in a file does not hide the code after it: a
/// forbidden import and a long function placed after a `#[cfg(test)] use`
/// are found, and the test items themselves are not read.
#[test]
fn code_after_a_test_only_item_is_checked() {
    let body: String = (0..85).map(|i| format!("    let _x{i} = {i};\n")).collect();
    let text = format!(
        "use crate::diagnostic::Diagnostic;\n#[cfg(test)]\nuse crate::cmd::Cli;\n\n\
         #[cfg(test)]\nmod tests {{\n    use crate::report::Reporter;\n}}\n\n\
         use crate::report::Reporter;\n\nfn long() {{\n{body}}}\n"
    );
    let code = source::blank_comments(&source::without_test_items(&text));
    assert!(
        !code.contains("crate::cmd"),
        "the test-only use is left out"
    );
    assert_eq!(
        code.matches("crate::report").count(),
        1,
        "the test module is left out"
    );
    assert_eq!(
        code.lines().count(),
        text.lines().count(),
        "lines keep their numbers"
    );
    let sources = [Source {
        path: PathBuf::from("src/ids/fixture.rs"),
        module: vec!["ids".into(), "fixture".into()],
        code: code.clone(),
    }];
    let mut modules: BTreeSet<ModPath> = self::sources().iter().map(|s| s.module.clone()).collect();
    modules.insert(sources[0].module.clone());
    let wrong = forbidden_imports(&sources, &modules);
    assert_eq!(wrong, ["src/ids/fixture.rs: imports `report`"]);
    let long = source::long_functions(&code, 80);
    assert_eq!(long, [("long".to_string(), 12, 87)]);
}

/// Only the code's own braces count toward a function's length: a `'}'`,
/// a brace in a string or a comment, and a multi-line raw string of braces
/// neither end a long function early nor make a short one long.
#[test]
fn the_length_check_counts_only_the_codes_braces() {
    let body: String = (0..85).map(|i| format!("    let _x{i} = {i};\n")).collect();
    let code = format!(
        "fn long() {{\n    let _c = '}}';\n    let _s = \"}}}}\"; // }}\n{body}}}\n\n\
         fn short() {{\n    let _r = r#\"\n{{\n{{\n\"#;\n    let _o = '{{';\n}}\n"
    );
    assert_eq!(
        source::long_functions(&code, 80),
        [("long".to_string(), 1, 89)]
    );
}

/// An import cycle between two files is found.
#[test]
fn the_cycle_finder_finds_a_cycle() {
    let a: ModPath = vec!["a".into()];
    let b: ModPath = vec!["b".into()];
    let edges = BTreeMap::from([
        (a.clone(), BTreeSet::from([b.clone()])),
        (b.clone(), BTreeSet::from([a.clone()])),
        (vec!["c".into()], BTreeSet::from([a.clone()])),
    ]);
    assert_eq!(source::cycles(&edges), [vec![a, b]]);
}

/// Whether a person still serves is decided once, in the people model
/// (`People::judge_standing`, from `inactive-statuses`): no other module
/// reads the setting to decide it again (`check/activity.rs` reads it only
/// for the status its help suggests).
#[test]
fn one_definition_of_a_persons_standing() {
    let found = occurrences(
        "inactive_statuses",
        &[
            "src/config.rs",
            "src/config/",
            "src/people/roster/mod.rs",
            "src/check/activity.rs",
        ],
    );
    assert!(
        found.is_empty(),
        "standing decided outside the people model:\n{}",
        found.join("\n")
    );
}

/// Every file the plugin reads from the book or the repository goes
/// through the bounded reader of `files/` (regular files only, a size
/// bound, no wait on a FIFO); `cmd/check.rs` reads back only the reports
/// it had the plugin write into its own scratch folder.
#[test]
fn files_are_read_through_the_bounded_reader() {
    let mut found = Vec::new();
    for needle in ["read_to_string(", "fs::read(", "File::open("] {
        found.extend(occurrences(needle, &["src/files/", "src/cmd/check.rs"]));
    }
    assert!(
        found.is_empty(),
        "files read outside files/:\n{}",
        found.join("\n")
    );
}

/// A people format's identity (its name in `format = "..."`, how a
/// sentence names it, the file names that imply it) is written once, in its
/// entry in `config/formats.rs`: no other file spells one of them.
#[test]
fn one_registry_of_people_formats() {
    let registry = std::fs::read_to_string(root().join("src/config/formats.rs")).expect("read");
    let facts: Vec<String> = (registry.lines())
        .filter_map(|line| {
            let line = line.trim();
            let value = [
                "name: ",
                "described: ",
                "file_names: &[",
                "found_by_init: &[",
                "found_by_init_alone: &[",
            ]
            .iter()
            .find_map(|key| line.strip_prefix(key))?;
            Some(value.split('"').nth(1)?.to_string())
        })
        .collect();
    assert!(facts.len() >= 16, "the registry's entries: {facts:?}");
    // Plain lowercase words ("owners", "community") are ordinary words
    // elsewhere: only the names that are a format's own are looked for.
    let own =
        |fact: &&String| fact.contains(['-', '.', ' ']) || fact.chars().any(char::is_uppercase);
    let mut found = Vec::new();
    for fact in facts.iter().filter(own) {
        let literal = format!("\"{fact}\"");
        found.extend(occurrences(
            &literal,
            &["src/config/formats.rs", "src/ownership/mod.rs"],
        ));
    }
    assert!(
        found.is_empty(),
        "a format's identity written outside config/formats.rs:\n{}",
        found.join("\n")
    );
}

/// A code's SARIF level is a fact of its row in `diagnostic/code.rs`: no
/// format decides it on its own.
#[test]
fn one_table_of_code_facts() {
    let mut found = occurrences("fn default_level", &["src/diagnostic/code.rs"]);
    found.extend(occurrences("fn sarif_level", &["src/diagnostic/code.rs"]));
    assert!(
        found.is_empty(),
        "levels decided outside the code table:\n{}",
        found.join("\n")
    );
}

/// A chapter's text, once it leaves the expand pass, is read and made
/// through `chapter/` alone, and the passes after expand never go back
/// into it: the index and the check pass import nothing of `expand/` (the
/// check pass calls a link directive's `resolve` through `directive/`, the
/// seam that belongs to neither pass).
#[test]
fn no_return_into_expand_after_a_chapter_leaves_it() {
    let mut found = Vec::new();
    for source in sources() {
        if !["index", "check", "directive"].contains(&top(&source.module).as_str()) {
            continue;
        }
        for path in source::paths(&source.code) {
            if path.len() > 1 && path[0] == "crate" && path[1] == "expand" {
                found.push(format!("{}: {}", source.path.display(), path.join("::")));
            }
        }
    }
    assert!(found.is_empty(), "back into expand/:\n{}", found.join("\n"));
}

/// Only `chapter/` and `expand/` splice a chapter.
#[test]
fn only_chapter_and_expand_splice() {
    let found = occurrences("splice::", &["src/chapter/", "src/expand/"]);
    assert!(found.is_empty(), "spliced elsewhere:\n{}", found.join("\n"));
}

/// `git` is started only through `src/git.rs`, which neutralises the
/// settings of a checkout's configuration that could run a program.
#[test]
fn git_is_run_only_through_the_one_command() {
    let found = occurrences("Command::new(\"git\")", &["src/git.rs"]);
    assert!(
        found.is_empty(),
        "git started elsewhere:\n{}",
        found.join("\n")
    );
}
