use super::*;
use crate::diagnostic::Severity;
use crate::files::tree::parse_yaml;

fn source(folder: &str, text: &str) -> Source {
    let name = match folder {
        "" => "OWNERS".to_string(),
        folder => format!("{folder}/OWNERS"),
    };
    Source {
        folder: folder.to_string(),
        read: parse_yaml(&name, text),
    }
}

fn tree(files: &[(&str, &str)], aliases: Option<&str>) -> (OwnersTree, Vec<Diagnostic>) {
    let sources = files.iter().map(|(f, t)| source(f, t)).collect();
    OwnersTree::build(sources, aliases.map(|a| parse_yaml("OWNERS_ALIASES", a)))
}

fn approvers(tree: &OwnersTree, path: &str) -> Vec<String> {
    tree.owners_of(path).approvers
}

#[test]
fn owners_are_collected_up_to_the_root() {
    let (tree, problems) = tree(
        &[
            ("", "approvers:\n  - Root\nreviewers:\n  - r0\n"),
            ("pkg", "approvers:\n  - '@pkg'\n"),
            ("pkg/util", "reviewers:\n  - r2\n"),
        ],
        None,
    );
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(approvers(&tree, "pkg/util/a.go"), ["pkg", "root"]);
    assert_eq!(tree.owners_of("pkg/util/a.go").reviewers, ["r0", "r2"]);
    assert_eq!(approvers(&tree, "README.md"), ["root"]);
    // A folder is owned by its own OWNERS file too.
    assert_eq!(approvers(&tree, "pkg"), ["pkg", "root"]);
    assert_eq!(tree.owners_of("pkg/util/a.go").files, [2, 1, 0]);
}

#[test]
fn no_parent_owners_stops_once_some_are_found() {
    let (tree, _) = tree(
        &[
            ("", "approvers:\n  - root\nreviewers:\n  - rr\n"),
            (
                "vendor",
                "options:\n  no_parent_owners: true\napprovers:\n  - v\n",
            ),
            ("empty", "options:\n  no_parent_owners: true\n"),
        ],
        None,
    );
    assert_eq!(approvers(&tree, "vendor/x/y.go"), ["v"]);
    // Reviewers are collected on their own: none in vendor/, so on up.
    assert_eq!(tree.owners_of("vendor/x/y.go").reviewers, ["rr"]);
    // Nothing collected yet at `empty/`: Prow goes on to the parents.
    assert_eq!(approvers(&tree, "empty/a"), ["root"]);
}

#[test]
fn filters_apply_to_the_paths_they_find_a_match_in() {
    let text = "filters:\n  \".*\":\n    approvers:\n      - all\n  \"\\\\.go$\":\n    approvers:\n      - gopher\n  \"(?i)charter.md\":\n    approvers:\n      - steering\n  \"^docs/\":\n    reviewers:\n      - writer\n";
    let (tree, problems) = tree(&[("sig", text)], None);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(approvers(&tree, "sig/a.go"), ["all", "gopher"]);
    assert_eq!(approvers(&tree, "sig/sub/b.go"), ["all", "gopher"]);
    assert_eq!(approvers(&tree, "sig/CHARTER.md"), ["all", "steering"]);
    assert_eq!(approvers(&tree, "sig/a.rs"), ["all"]);
    // The path the regex sees is relative to the OWNERS file's folder.
    assert_eq!(tree.owners_of("sig/docs/x.md").reviewers, ["writer"]);
    assert!(tree.owners_of("docs/x.md").reviewers.is_empty());
}

#[test]
fn aliases_expand_and_emeritus_approvers_are_not_approvers() {
    let aliases = "aliases:\n  sig-leads:\n    - Ada\n    - bob\n";
    let (tree, problems) = tree(
        &[(
            "",
            "approvers:\n  - sig-leads\n  - carol\nemeritus_approvers:\n  - dan\n",
        )],
        Some(aliases),
    );
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(approvers(&tree, "x"), ["ada", "bob", "carol"]);
    let entry = &tree.files()[0].blocks[0].approvers[0];
    assert!(entry.alias);
    assert_eq!(entry.written, "sig-leads");
}

#[test]
fn filters_beside_top_level_lists_are_ignored_as_prow_ignores_them() {
    let (tree, problems) = tree(
        &[(
            "",
            "approvers:\n  - top\nfilters:\n  \".*\":\n    approvers:\n      - filtered\n",
        )],
        None,
    );
    assert_eq!(approvers(&tree, "a"), ["top"]);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].severity, Severity::Warning);
    assert!(
        problems[0].message.contains("Prow ignores `filters`"),
        "{problems:?}"
    );
}

#[test]
fn a_malformed_file_is_one_warning_and_the_rest_still_read() {
    let (tree, problems) = tree(
        &[
            ("", "approvers:\n  - root\n"),
            ("bad", "approvers: [a\n"),
            ("worse", "approvers: ada\nreviewers: bob\n"),
            (
                "regex",
                "filters:\n  \"(\":\n    approvers:\n      - x\n  \".*\":\n    approvers:\n      - y\n",
            ),
        ],
        None,
    );
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(problems.iter().all(|p| p.severity == Severity::Warning));
    assert!(
        problems[1]
            .message
            .contains("`approvers` must be a list of logins")
    );
    assert!(problems[2].message.contains("not a regular expression"));
    // The broken files are left out: their folders have the root's owners.
    assert_eq!(approvers(&tree, "bad/x"), ["root"]);
    assert_eq!(approvers(&tree, "worse/x"), ["root"]);
    // A bad filter is skipped, the file's other filters kept.
    assert_eq!(approvers(&tree, "regex/x"), ["root", "y"]);
    assert_eq!(tree.files().len(), 2);
}

/// Filters are read as Go's `regexp` reads them: `\d` and `\w` are ASCII
/// (Arabic-Indic digits are no `\d`); a file name that is not UTF-8 is
/// still matched.
#[test]
fn filters_read_perl_classes_as_go_does() {
    let (owners, problems) = tree(
        &[(
            "",
            "filters:\n  \"^\\\\d+\\\\.go$\":\n    approvers:\n      - digits\n  \".*\":\n    approvers:\n      - all\n",
        )],
        None,
    );
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(approvers(&owners, "12.go"), ["all", "digits"]);
    assert_eq!(approvers(&owners, "\u{661}\u{662}.go"), ["all"]);
    assert_eq!(approvers(&owners, "a1.go"), ["all"]);
    // A Unicode class, which Go reads and this tool does not: said so.
    let (_, problems) = tree(
        &[(
            "",
            "filters:\n  \"\\\\p{Greek}\":\n    approvers:\n      - x\n",
        )],
        None,
    );
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].message.contains("uses a Unicode class"),
        "{problems:#?}"
    );
}

/// Issue 38 (19): entries that cannot be logins (a space, quotes, HTML, a
/// directive, ESC) are skipped with the "must be a list of logins"
/// warning, not taken as owners; the file's other logins are kept.
#[test]
fn entries_that_cannot_be_logins_are_skipped_with_a_warning() {
    let (tree, problems) = tree(
        &[(
            "",
            "approvers:\n  - alice\n  - alice smith\n  - '\"quoted\"'\n  - '<img src=x onerror=alert(1)>'\n  - '{{#title Owned}}'\n  - \"x\\ey\"\n  - '@bob'\n  - dependabot[bot]\n  - sig-node.leads\nreviewers:\n  - ''\n",
        )],
        Some("aliases:\n  core:\n    - carol\n    - 'carol <c@x>'\n"),
    );
    assert_eq!(
        approvers(&tree, "a"),
        ["alice", "bob", "dependabot[bot]", "sig-node.leads"]
    );
    assert!(tree.owners_of("a").reviewers.is_empty());
    assert_eq!(tree.aliases()[0].members.len(), 1);
    assert_eq!(problems.len(), 7, "{problems:#?}");
    assert!(problems.iter().all(|p| p.severity == Severity::Warning));
    assert!(
        problems
            .iter()
            .all(|p| p.message.contains("must be a list of logins: `")),
        "{problems:#?}"
    );
    assert_eq!(tree.files().len(), 1);
}

/// Issue 38 (4): an OWNERS file's filters are matched as one set, once per
/// path, with the answers of matching each alone.
#[test]
fn many_filters_are_matched_as_one_set() {
    let mut text = String::from("filters:\n");
    for i in 0..2000 {
        text.push_str(&format!(
            "  \"\\\\.x{i}$\":\n    approvers:\n      - u{i}\n"
        ));
    }
    text.push_str(
        "  \".*\":\n    reviewers:\n      - all\n  \"^docs/\":\n    approvers:\n      - writer\n",
    );
    let (tree, problems) = tree(&[("", &text)], None);
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(tree.files()[0].filters.is_some());
    assert_eq!(approvers(&tree, "a/b/file.x17"), ["u17"]);
    assert_eq!(approvers(&tree, "docs/file.x1999"), ["u1999", "writer"]);
    assert!(approvers(&tree, "file.x2000").is_empty());
    assert_eq!(tree.owners_of("file.rs").reviewers, ["all"]);
    for i in (0..2500).step_by(7) {
        let owners = tree.owners_of(&format!("d{}/f{i}.x{i}", i % 7));
        assert_eq!(owners.approvers.len(), usize::from(i < 2000), "{i}");
    }
}
