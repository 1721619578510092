//! `owners_yaml`: the input as a people file of that format, read as a build
//! reads it and rendered by the people directives; see
//! `fuzz_support::fuzz_roster` for what is checked.

#![no_main]

use fuzz_support::RosterFormat;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    fuzz_support::fuzz_roster(RosterFormat::OwnersAliases, data);
    fuzz_support::fuzz_roster(RosterFormat::Owners, data);
    owners_tree(data);
});

/// The input as the OWNERS files of a root and a folder below it, and as
/// OWNERS_ALIASES: the tree is built (a file it cannot read is left out)
/// and answers for paths at every depth, approvers and reviewers sorted.
fn owners_tree(data: &[u8]) {
    use mdbook_community::testing::{OwnersSource, OwnersTree, datatree};
    let text = String::from_utf8_lossy(data);
    let source = |folder: &str| OwnersSource {
        folder: folder.to_string(),
        read: datatree::parse_yaml("OWNERS", &text),
    };
    let aliases = datatree::parse_yaml("OWNERS_ALIASES", &text);
    let (tree, _) = OwnersTree::build(vec![source(""), source("a/b")], Some(aliases));
    for path in ["a/b/c.go", "a/b", "a", "README.md", "a/b/charter.md"] {
        let owners = tree.owners_of(path);
        assert!(owners.approvers.windows(2).all(|w| w[0] < w[1]), "{path}");
        assert!(owners.reviewers.windows(2).all(|w| w[0] < w[1]), "{path}");
    }
}
