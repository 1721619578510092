//! `people`: the people data file loader, `parse_people`, on arbitrary
//! text as TOML and as JSON (and the raw bytes through
//! `datatree::parse_bytes`, as the loader reads a file); then, for data that loads, the directives that
//! render it (`maintainers` in every style, `person`, `codeowners`) through
//! `preprocess`, with the data written as the book's data file.
//!
//! Invariants: a failed parse reports at least one problem, and its
//! diagnostics print; valid data renders without errors; the `preprocess`
//! contract.

#![no_main]

use std::path::PathBuf;
use std::sync::LazyLock;

use fuzz_support::{BuildOptions, chapter, is_plain_word, preprocess_chapters, scratch_dir, write};
use libfuzzer_sys::fuzz_target;
use mdbook_community::testing::People;
use mdbook_community::testing::datatree;
use mdbook_community::testing::parse_people;
use mdbook_community::testing::{self as diagnostics, Diagnostic, EmitOptions, Severity};
use serde_json::{Map, json};

/// A book root of this process, with a fixed CODEOWNERS naming people by
/// their GitHub logins; the data file is rewritten for every input.
static ROOT: LazyLock<PathBuf> = LazyLock::new(|| {
    let dir = scratch_dir("people");
    write(
        &dir.join("CODEOWNERS"),
        "* @ada @org/team\n/docs/ @grace x@example.com\n/none/\n",
    );
    dir
});

/// Exercises the lookups on parsed data.
fn query(people: &People) {
    for person in &people.people {
        assert!(
            people.person(&person.handle).is_some(),
            "every person is found by handle"
        );
        if let Some(login) = &person.github {
            // Logins are matched as GitHub does: case-insensitively.
            let _ = people.by_github(login);
        }
    }
    for group in &people.groups {
        assert!(
            people.group(&group.id).is_some(),
            "every group is found by id"
        );
        for member in &group.members {
            assert!(member.person < people.people.len(), "members are people");
        }
        if let Some(parent) = group.parent {
            assert!(parent < people.groups.len(), "parents are groups");
        }
    }
    let _ = people.statuses();
    let _ = people.children(None).count();
}

/// Renders valid data with every directive that shows people.
fn render(text: &str, is_json: bool, people: &People) {
    let file = if is_json {
        "maintainers.json"
    } else {
        "maintainers.toml"
    };
    write(&ROOT.join(file), text);
    let mut calls = vec![
        "{{#maintainers}}".to_string(),
        "{{#codeowners}}".to_string(),
    ];
    if let Some(group) = people.groups.first().filter(|g| is_plain_word(&g.id)) {
        for style in ["list", "table"] {
            calls.push(format!("{{{{#maintainers {} style={style}}}}}", group.id));
        }
        calls.push(format!(
            "In a sentence: {{{{#maintainers {} style=inline}}}}.",
            group.id
        ));
    }
    if let Some(person) = people.people.first().filter(|p| is_plain_word(&p.handle)) {
        calls.push(format!("Hello {{{{#person {}}}}}!", person.handle));
        calls.push("See {{#codeowners docs/x.md}}.".to_string());
    }
    let content = calls.join("\n\n") + "\n";
    let mut extra = Map::new();
    extra.insert("people".into(), json!(file));
    for options in [
        BuildOptions::default(),
        BuildOptions {
            mdbook_04: true,
            markdown_renderer: true,
            ..BuildOptions::default()
        },
    ] {
        let result = preprocess_chapters(
            &options,
            &ROOT,
            extra.clone(),
            &[chapter("people", Some("people.md"), content.clone())],
        );
        assert_eq!(
            result.code,
            0,
            "valid data did not render: {}",
            String::from_utf8_lossy(&result.stderr)
        );
    }
}

/// Prints `problems` as the plugin would (into a buffer).
fn emit(problems: &[Diagnostic]) {
    let mut sink = Vec::new();
    let _ = diagnostics::emit(&mut sink, problems, &[], &EmitOptions::default());
}

fuzz_target!(|data: &[u8]| {
    // The bytes as a file holds them: invalid UTF-8 and a BOM included.
    for (name, is_json) in [("maintainers.toml", false), ("maintainers.json", true)] {
        if let Err(problems) = datatree::parse_bytes(data.to_vec(), name, is_json) {
            emit(&problems);
        }
    }
    let text = String::from_utf8_lossy(data);
    for is_json in [false, true] {
        match parse_people(&text, is_json) {
            Ok(people) => {
                query(&people);
                render(&text, is_json, &people);
            }
            Err(problems) => {
                assert!(!problems.is_empty(), "a failed parse says why");
                assert!(problems.iter().all(|d| d.severity == Severity::Error));
                emit(&problems);
            }
        }
    }
});
