//! The rules ARCHITECTURE.md states, checked against the code: each
//! folder imports only what its "May import" line says, one Markdown
//! parser constructor, no HTML written outside the writers, mdBook's
//! settings read only by `mdbook/`, one place that makes a chapter's final
//! text, no source file over 1,000 lines. (Import cycles and long
//! functions are `../shared/tools/modgraph.py`'s, which `.ci/run` runs.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every source file of `src/` with its non-test code: up to its first
/// `#[cfg(test)]`, and no `tests.rs` or file under a `tests` folder.
fn sources() -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("readable")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if name != "tests" {
                    walk(&path, out);
                }
            } else if name.ends_with(".rs") && name != "tests.rs" {
                let text = std::fs::read_to_string(&path).expect("UTF-8");
                let code = match text.find("\n#[cfg(test)]") {
                    Some(at) => text[..at].to_string(),
                    None => text,
                };
                out.push((path, code));
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join("src"), &mut out);
    out
}

/// The top-level module a file of `src/` belongs to (`expand` for
/// `src/expand/scan.rs`, `config` for `src/config.rs`).
fn module_of(path: &Path) -> String {
    let relative = path.strip_prefix(root().join("src")).expect("in src");
    let first = relative
        .components()
        .next()
        .and_then(|c| c.as_os_str().to_str())
        .unwrap_or("");
    first.trim_end_matches(".rs").to_string()
}

/// Without comments: a module named in a doc comment is not an import.
fn without_comments(code: &str) -> String {
    code.lines()
        .map(|line| match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The crate modules `code` names through `crate::` paths, brace groups
/// included; the root's re-exports are named by the module they are of.
fn crate_imports(code: &str) -> BTreeSet<String> {
    let code = without_comments(code);
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let names: Vec<&str> = match rest.strip_prefix('{') {
            Some(group) => {
                let end = group.find('}').unwrap_or(group.len());
                group[..end]
                    .split(',')
                    .map(|item| item.trim().split("::").next().unwrap_or(""))
                    .collect()
            }
            None => vec![
                rest.split(|c: char| !c.is_alphanumeric() && c != '_')
                    .next()
                    .unwrap_or(""),
            ],
        };
        for name in names.into_iter().filter(|n| !n.is_empty()) {
            let module = match name {
                "preprocess" => "pipeline",
                "Environment" => "report",
                "run_cli" => "cmd",
                other => other,
            };
            found.insert(module.to_string());
        }
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

#[test]
fn every_folder_imports_only_what_architecture_md_says() {
    let (lists, leaves) = may_import();
    assert!(
        lists.contains_key("expand") && leaves.contains("diagnostic"),
        "ARCHITECTURE.md's code map could not be read: {lists:?} {leaves:?}"
    );
    let mut wrong = Vec::new();
    for (path, code) in sources() {
        let module = module_of(&path);
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
        for import in crate_imports(&code) {
            if import != module && !allowed.contains(&import) && !leaves.contains(&import) {
                wrong.push(format!("{}: imports `{import}`", path.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports ARCHITECTURE.md does not allow:\n{}",
        wrong.join("\n")
    );
}

/// `code` lines (comments left out) that hold `needle`, with their files.
fn occurrences(needle: &str, skip: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for (path, code) in sources() {
        let shown = path
            .strip_prefix(root())
            .unwrap_or(&path)
            .display()
            .to_string();
        if skip.iter().any(|s| shown.starts_with(s)) {
            continue;
        }
        for (n, line) in without_comments(&code).lines().enumerate() {
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

/// A tag in a string literal (`"<div"`, `"</a>"`) outside the writers:
/// `markdown/` writes Markdown and HTML; `ids/` renders HTML only to
/// compute the ids mdBook 0.4 derives from it, and never emits it.
#[test]
fn no_html_written_outside_the_writers() {
    let mut found = Vec::new();
    for open in ["\"<", "(\"<"] {
        for hit in occurrences(open, &["src/markdown/", "src/ids/"]) {
            let after = hit.split(open).nth(1).unwrap_or("");
            if after.starts_with(|c: char| c.is_ascii_alphabetic() || c == '/') {
                found.push(hit);
            }
        }
    }
    assert!(
        found.is_empty(),
        "HTML built by hand:\n{}",
        found.join("\n")
    );
}

#[test]
fn only_mdbook_reads_mdbooks_settings() {
    let mut found = Vec::new();
    for needle in [
        "get(\"output\")",
        "get(\"preprocessor\")",
        "get(\"book\")",
        "\"community\")",
    ] {
        found.extend(occurrences(needle, &["src/mdbook/", "src/cmd/install.rs"]));
    }
    assert!(
        found.is_empty(),
        "mdBook's settings read outside mdbook/:\n{}",
        found.join("\n")
    );
}

#[test]
fn one_place_makes_a_chapters_final_text() {
    // The splicing itself is private to `expand/` (the compiler checks).
    let found = occurrences("final_text(", &["src/expand/mod.rs", "src/pipeline.rs"]);
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
        .filter(|(_, code)| code.lines().count() > 1000)
        .map(|(path, code)| format!("{}: {} lines", path.display(), code.lines().count()))
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}

/// The checks above read what they think they read.
#[test]
fn the_import_reader_reads_groups_and_reexports() {
    let code =
        "use crate::{data::Data, preprocess};\nlet x = crate::paths::display(p); // crate::cmd\n";
    let found: Vec<String> = crate_imports(code).into_iter().collect();
    assert_eq!(found, ["data", "paths", "pipeline"]);
}
