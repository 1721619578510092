//! The people data file read end to end: defaults, JSON, and the errors
//! reported for unknown keys, memberships, parents, types and URLs.

use super::*;

const EXAMPLE: &str = r#"
[people.apaszke]
name = "Adam Paszke"

[people.soumith]
name = "Soumith Chintala"
affiliation = "Meta"

[people.colesbury]
name = "Sam Gross"

[people.ezyang]
name = "Edward Yang"
url = "https://ezyang.com"

[people.anon]
name = "No Account"
github = false

[[groups]]
id = "core"
title = "Core Maintainers"

[[groups]]
id = "maintainers"
title = "Project Maintainers"
description = "They *maintain*."
parent = "core"
members = ["apaszke", "soumith", { handle = "colesbury", status = "sunsetting" }, { handle = "ezyang", role = "lead" }, "anon"]
"#;

fn errors(text: &str) -> Vec<String> {
    super::super::parse_native(text, false)
        .expect_err("invalid")
        .iter()
        .map(|d| {
            let line = match &d.location {
                Some(crate::diagnostic::Location::File { file, range }) => {
                    crate::diagnostic::position_in("", &file.text, range.start).line
                }
                _ => 0,
            };
            format!("{line}: {} {:?}", d.message, d.help)
        })
        .collect()
}

#[test]
fn reads_people_and_groups_with_defaults() {
    let data = super::super::parse_native(EXAMPLE, false).expect("valid");
    let adam = data.person("apaszke").expect("present");
    assert_eq!(adam.name, "Adam Paszke");
    assert_eq!(adam.url.as_deref(), Some("https://github.com/apaszke"));
    assert_eq!(
        data.person("ezyang").and_then(|p| p.url.as_deref()),
        Some("https://ezyang.com")
    );
    assert_eq!(data.person("anon").and_then(|p| p.url.as_deref()), None);
    let group = data.group("maintainers").expect("present");
    assert_eq!(group.parent, Some(0));
    assert_eq!(group.members.len(), 5);
    assert_eq!(group.members[2].status.as_deref(), Some("sunsetting"));
    assert_eq!(group.members[3].role.as_deref(), Some("lead"));
    assert_eq!(
        data.group("core").map(|g| g.title.as_str()),
        Some("Core Maintainers")
    );
    assert_eq!(data.statuses(), ["sunsetting"]);
    assert_eq!(
        data.by_github("EZYANG").map(|p| p.handle.as_str()),
        Some("ezyang")
    );
}

#[test]
fn json_with_the_same_structure_is_accepted() {
    let json = r#"{"people": {"a": {"name": "A", "github": false}}, "groups": [{"id": "g", "members": [{"handle": "a", "status": "emeritus"}]}]}"#;
    let data = super::super::parse_native(json, true).expect("valid");
    assert_eq!(
        data.group("g").map(|g| g.members[0].status.clone()),
        Some(Some("emeritus".into()))
    );
}

#[test]
fn unknown_keys_are_errors_with_lines_and_suggestions() {
    let text = "[people.a]\nnmae = \"A\"\n\n[[groups]]\nid = \"g\"\nmemebers = [\"a\"]\n";
    assert_eq!(
        errors(text),
        [
            "2: unknown key `nmae` in person `a` [\"did you mean `name`?\"]",
            "6: unknown key `memebers` in group `g` [\"did you mean `members`?\"]",
        ]
    );
}

#[test]
fn membership_problems_are_errors() {
    let text = "[people.alice]\n[people.bob]\n\n[[groups]]\nid = \"g\"\nmembers = [\"alice\", \"alcie\", \"bob\", { handle = \"bob\" }]\n";
    let found = errors(text);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].starts_with("6: group `g` lists `alcie`, who is not in `people`"),
        "{found:?}"
    );
    assert!(found[0].contains("did you mean `alice`?"), "{found:?}");
    assert!(
        found[1].starts_with("6: group `g` lists `bob` twice"),
        "{found:?}"
    );
}

#[test]
fn parent_problems_are_errors() {
    let missing = "[[groups]]\nid = \"a\"\nparent = \"cor\"\n[[groups]]\nid = \"core\"\n";
    assert!(errors(missing)[0].contains("parent group `cor` does not exist"));
    let cycle = "[[groups]]\nid = \"a\"\nparent = \"b\"\n[[groups]]\nid = \"b\"\nparent = \"a\"\n";
    let found = errors(cycle);
    assert!(found.iter().all(|e| e.contains("cycle")), "{found:?}");
    assert!(!found.is_empty());
    let own = "[[groups]]\nid = \"a\"\nparent = \"a\"\n";
    assert!(errors(own)[0].contains("its own parent"));
    let dup = "[[groups]]\nid = \"a\"\n[[groups]]\nid = \"a\"\n";
    assert!(
        errors(dup)[0].contains("4: duplicate group id `a`"),
        "{:?}",
        errors(dup)
    );
}

#[test]
fn wrong_types_and_bad_urls_are_errors() {
    let text = "[people.a]\nname = 3\nurl = \"javascript:alert(1)\"\navatar = \"https://x/a b.png\"\ngithub = \"no spaces allowed\"\n";
    let found = errors(text);
    assert_eq!(found.len(), 4, "{found:?}");
    assert!(found[0].contains("`name` of `a` must be a string, found a number"));
    assert!(found[1].contains("must be an http, https or mailto URL"));
    assert!(found[2].contains("must not contain spaces"));
    assert!(found[3].contains("is not a GitHub login"));
    let groups = "groups = 3\n";
    assert!(errors(groups)[0].contains("`groups` must be an array"));
}

#[test]
fn urls() {
    assert!(allowed_url("https://example.com/x").is_ok());
    assert!(allowed_url("mailto:a@b.c").is_ok());
    assert!(allowed_url("HTTP://EXAMPLE.COM").is_ok());
    for bad in [
        "javascript:alert(1)",
        "data:text/html,x",
        "//evil",
        "https://",
        "ftp://x",
        "https://a b",
    ] {
        assert!(allowed_url(bad).is_err(), "{bad}");
    }
}
