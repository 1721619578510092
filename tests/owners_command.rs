//! `mdbook-community owners`: who owns each path, from CODEOWNERS or the
//! Kubernetes OWNERS tree, with the roster's names and statuses, and the
//! repository's coverage; its JSON shape (snapshots), and its answers held
//! against an independent computation (`tests/data/owners_reference.py`:
//! Python's `pathspec` with last-match-wins for CODEOWNERS, Prow's
//! algorithm written again for OWNERS) on generated trees and the corpus's
//! real files.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::{corpus_path, on_ci};
use serde_json::{Value, json};

/// Runs `owners` on the book in `book` with `args`; (exit code, stdout,
/// stderr).
fn owners(book: &Path, args: &[&str]) -> (i32, String, String) {
    let output = common::bin()
        .arg("owners")
        .arg(book)
        .args(args)
        .env("NO_COLOR", "1")
        .current_dir(book)
        .output()
        .expect("runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn owners_json(book: &Path, args: &[&str]) -> Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = owners(book, &all);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

fn write(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let full = root.join(path);
        std::fs::create_dir_all(full.parent().expect("a folder")).expect("writable");
        std::fs::write(full, text).expect("writable");
    }
}

/// Whether `program` runs; under `CI=true` it must.
fn available(test: &str, program: &str, args: &[&str], what: &str) -> bool {
    let ok = Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(ok || !on_ci(), "{test}: CI=true, but {what} is missing");
    if !ok {
        eprintln!("skipped: {test}: needs {what}");
    }
    ok
}

/// `git init` and `git add` of everything in `root`.
fn git_repository(root: &Path) {
    for args in [
        &["init", "-q", "-b", "main"][..],
        &["add", "-A"],
        &[
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-qm",
            "files",
        ],
    ] {
        let status = Command::new("git")
            .args(args)
            .current_dir(root)
            .status()
            .expect("git runs");
        assert!(status.success(), "git {args:?}");
    }
}

const PEOPLE: &str = r#"
[people.ada]
name = "Ada Lovelace"

[people.grace]
name = "Grace Hopper"

[people.alan]
name = "Alan Turing"

[[groups]]
id = "core"
title = "Core Maintainers"
github-team = "acme/core"
members = ["ada", "grace", { handle = "alan", status = "emeritus" }]
"#;

const CODEOWNERS: &str = "\
# Who owns what.
*              @acme/core
/docs/         @grace
/old/          @alan
/src/gen/
/renamed.rs    @ada
*.md           @stranger
";

/// A git repository with a book in `docs/`, CODEOWNERS at the root, and a
/// few files: `src/gen/` explicitly unowned, `old/` owned by someone who
/// no longer serves, `/renamed.rs` matching nothing.
fn codeowners_repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        &[
            ("CODEOWNERS", CODEOWNERS),
            (
                "docs/book.toml",
                "[book]\ntitle = \"T\"\n\n[preprocessor.community]\n",
            ),
            ("docs/maintainers.toml", PEOPLE),
            ("docs/src/SUMMARY.md", "- [A](a.md)\n"),
            ("docs/src/a.md", "# A\n"),
            ("src/main.rs", ""),
            ("src/gen/one.rs", ""),
            ("src/gen/two.rs", ""),
            ("old/legacy.c", ""),
            ("README.md", ""),
        ],
    );
    git_repository(dir.path());
    dir
}

#[test]
fn the_json_shape_for_codeowners_is_stable() {
    if !available("codeowners json", "git", &["--version"], "git") {
        return;
    }
    let repo = codeowners_repository();
    let book = repo.path().join("docs");
    let value = owners_json(
        &book,
        &[
            "src/main.rs",
            "docs/a.md",
            "old/legacy.c",
            "src/gen/one.rs",
            "nowhere/x",
            "--coverage",
        ],
    );
    insta::assert_snapshot!(
        "owners_codeowners_json",
        serde_json::to_string_pretty(&value).expect("JSON")
    );
}

#[test]
fn the_human_listing_for_codeowners() {
    if !available("codeowners human", "git", &["--version"], "git") {
        return;
    }
    let repo = codeowners_repository();
    let (code, stdout, stderr) = owners(
        &repo.path().join("docs"),
        &[
            "src/main.rs",
            "docs/",
            "old/legacy.c",
            "src/gen/one.rs",
            "--coverage",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("owners_codeowners_human", stdout);
}

/// Without PATH, every file the repository tracks, and those not yet
/// committed that git does not ignore (as `git status` shows them), and no
/// more: an ignored file is not one of them.
#[test]
fn without_paths_every_tracked_or_unignored_file() {
    if !available("every tracked file", "git", &["--version"], "git") {
        return;
    }
    let repo = codeowners_repository();
    write(
        repo.path(),
        &[
            ("untracked.txt", ""),
            (".gitignore", "ignored.txt\n"),
            ("ignored.txt", ""),
        ],
    );
    let value = owners_json(&repo.path().join("docs"), &[]);
    let paths: Vec<&str> = value["paths"]
        .as_object()
        .expect("paths")
        .keys()
        .map(String::as_str)
        .collect();
    assert!(paths.contains(&"src/gen/two.rs"), "{paths:?}");
    assert!(paths.contains(&"docs/src/a.md"), "{paths:?}");
    assert!(paths.contains(&"untracked.txt"), "{paths:?}");
    assert!(!paths.contains(&"ignored.txt"), "{paths:?}");
    assert_eq!(paths.len(), 12, "{paths:?}");
}

/// A small OWNERS tree: aliases, a filter, `no_parent_owners`, emeritus
/// approvers, and a malformed file (reported once, its folder owned from
/// above).
fn owners_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        &[
            (
                "OWNERS",
                "approvers:\n  - core-leads\nreviewers:\n  - grace\nemeritus_approvers:\n  - alan\n",
            ),
            (
                "OWNERS_ALIASES",
                "aliases:\n  core-leads:\n    - ada\n    - Grace\n",
            ),
            (
                "pkg/OWNERS",
                "filters:\n  \".*\":\n    approvers:\n      - bob\n  \"\\\\.go$\":\n    approvers:\n      - gopher\n",
            ),
            ("pkg/a.go", ""),
            ("pkg/notes.txt", ""),
            (
                "vendor/OWNERS",
                "options:\n  no_parent_owners: true\napprovers:\n  - alan\n",
            ),
            ("vendor/lib/x.c", ""),
            ("broken/OWNERS", "approvers: ada\n"),
            ("broken/y.rs", ""),
            (
                "docs/book.toml",
                "[book]\ntitle = \"T\"\n\n[preprocessor.community]\n",
            ),
            ("docs/maintainers.toml", PEOPLE),
        ],
    );
    dir
}

#[test]
fn the_json_shape_for_owners_files_is_stable() {
    let tree = owners_tree();
    let (code, stdout, stderr) = owners(
        &tree.path().join("docs"),
        &[
            "pkg/a.go",
            "pkg/notes.txt",
            "vendor/lib/x.c",
            "broken/y.rs",
            "--coverage",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    // The malformed file: one warning, at its place.
    assert_eq!(stderr.matches("warning[").count(), 1, "{stderr}");
    assert!(stderr.contains("broken/OWNERS:1:12"), "{stderr}");
    let value: Value = serde_json::from_str(&stdout).expect("JSON");
    insta::assert_snapshot!(
        "owners_tree_json",
        serde_json::to_string_pretty(&value).expect("JSON")
    );
}

#[test]
fn the_human_listing_for_owners_files() {
    let tree = owners_tree();
    let (code, stdout, _) = owners(
        &tree.path().join("docs"),
        &["pkg/a.go", "vendor/lib/x.c", "--coverage"],
    );
    assert_eq!(code, 0);
    insta::assert_snapshot!("owners_tree_human", stdout);
}

#[test]
fn a_folder_without_a_book_or_ownership_cannot_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, _, stderr) = owners(dir.path(), &[]);
    assert_eq!(code, 2, "{stderr}");
    write(
        dir.path(),
        &[(
            "book/book.toml",
            "[book]\ntitle = \"T\"\n\n[preprocessor.community]\n",
        )],
    );
    let (code, _, stderr) = owners(&dir.path().join("book"), &["x"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("no CODEOWNERS file"), "{stderr}");
}

// -- the independent reference ---------------------------------------------

/// The reference's answer to `request`, or `None` (said, and a failure
/// under `CI=true`) without Python, `pathspec` and PyYAML.
fn reference(test: &str, request: &Value) -> Option<Value> {
    if !available(
        test,
        "python3",
        &["-c", "import pathspec, wcmatch, yaml"],
        "python3 with pathspec, wcmatch and PyYAML (pip install pathspec wcmatch pyyaml)",
    ) {
        return None;
    }
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/owners_reference.py"
    );
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    use std::io::Write as _;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(request.to_string().as_bytes())
        .expect("written");
    let output = child.wait_with_output().expect("finished");
    assert!(output.status.success(), "the reference failed");
    Some(serde_json::from_slice(&output.stdout).expect("JSON"))
}

/// A tiny deterministic generator (no seed files, same trees every run).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const FOLDERS: [&str; 8] = ["src", "docs", "lib", "test", "a", "my dir", "gen", "build"];
const NAMES: [&str; 8] = [
    "x.rs",
    "y.md",
    "my file.md",
    "README",
    "z.go",
    "logs",
    "a.txt",
    "b.rs",
];

/// `n` random file paths, one to four folders deep.
fn random_files(rng: &mut Rng, n: usize) -> Vec<String> {
    let mut files: Vec<String> = (0..n)
        .map(|_| {
            let depth = rng.below(4);
            let mut path: Vec<&str> = (0..depth).map(|_| rng.pick(&FOLDERS)).collect();
            path.push(rng.pick(&NAMES));
            path.join("/")
        })
        .collect();
    files.sort();
    files.dedup();
    // A name can't be both a file and a folder.
    let folders: Vec<String> = files
        .iter()
        .flat_map(|f| {
            f.match_indices('/')
                .map(|(at, _)| f[..at].to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    files.retain(|f| !folders.contains(f));
    files
}

/// A random CODEOWNERS pattern over the folders and names: every form the
/// issue names (`*`, `/dir/`, `dir/`, `**`, `*.ext`, escaped spaces).
fn random_pattern(rng: &mut Rng) -> String {
    let folder = rng.pick(&FOLDERS).replace(' ', "\\ ");
    let other = rng.pick(&FOLDERS).replace(' ', "\\ ");
    let name = rng.pick(&NAMES).replace(' ', "\\ ");
    let ext = rng.pick(&["rs", "md", "go", "txt"]);
    match rng.below(13) {
        0 => "*".to_string(),
        1 => format!("/{folder}/"),
        2 => format!("{folder}/"),
        3 => format!("**/{folder}"),
        4 => format!("*.{ext}"),
        5 => format!("/{folder}/*"),
        6 => format!("/{folder}/**/*.{ext}"),
        7 => format!("{folder}/{other}/"),
        8 => format!("/{folder}/{name}"),
        9 => name,
        10 => format!("/{folder}/**"),
        11 => format!("{folder}/**/{name}"),
        _ => format!("/{folder}/{other}"),
    }
}

fn random_codeowners(rng: &mut Rng) -> String {
    let mut text = String::from("# generated\n");
    for _ in 0..(3 + rng.below(20)) {
        let owners: Vec<String> = (0..rng.below(3))
            .map(|_| format!("@user{}", rng.below(6)))
            .collect();
        text.push_str(&format!("{} {}\n", random_pattern(rng), owners.join(" ")));
    }
    text
}

/// Our JSON's CODEOWNERS answers as the reference gives them.
fn codeowners_answers(value: &Value) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for (path, answer) in value["paths"].as_object().expect("paths") {
        let owners: Vec<Value> = (answer["owners"].as_array().expect("owners").iter())
            .map(|o| o["owner"].clone())
            .collect();
        let line = answer["rule"]
            .as_str()
            .map(|r| json!(r.rsplit(':').next().and_then(|l| l.parse::<u64>().ok())));
        out.insert(
            path.clone(),
            json!({"owners": owners, "line": line.unwrap_or(Value::Null)}),
        );
    }
    out
}

/// A book in `root/book` (outside any git repository: the files are the
/// folder's) with no roster.
fn add_book(root: &Path) {
    write(
        root,
        &[(
            "book/book.toml",
            "[book]\ntitle = \"T\"\n\n[preprocessor.community]\n",
        )],
    );
}

#[test]
fn codeowners_answers_agree_with_pathspec_on_generated_trees() {
    let mut requests = Vec::new();
    let mut answers = Vec::new();
    let mut dirs = Vec::new();
    for seed in 0..40 {
        let mut rng = Rng(seed);
        let count = 30 + rng.below(40);
        let files = random_files(&mut rng, count);
        let dir = tempfile::tempdir().expect("tempdir");
        let codeowners = random_codeowners(&mut rng);
        write(dir.path(), &[("CODEOWNERS", &codeowners)]);
        for file in &files {
            write(dir.path(), &[(file, "")]);
        }
        add_book(dir.path());
        let ours = codeowners_answers(&owners_json(&dir.path().join("book"), &[]));
        let listed: Vec<&String> = ours.keys().collect();
        let mut expected: Vec<&String> = files.iter().collect();
        let extra = ["CODEOWNERS".to_string(), "book/book.toml".to_string()];
        expected.extend(&extra);
        expected.sort();
        assert_eq!(listed, expected, "the folder's files, seed {seed}");
        requests.push(json!({
            "kind": "codeowners",
            "codeowners": dir.path().join("CODEOWNERS"),
            "paths": ours.keys().collect::<Vec<_>>(),
        }));
        answers.push((seed, codeowners, ours));
        dirs.push(dir);
    }
    let Some(theirs) = reference("codeowners reference", &Value::Array(requests)) else {
        return;
    };
    let theirs: Vec<BTreeMap<String, Value>> = serde_json::from_value(theirs).expect("maps");
    let mut checked = 0;
    for ((seed, codeowners, ours), theirs) in answers.iter().zip(&theirs) {
        assert_eq!(ours, theirs, "seed {seed}, CODEOWNERS:\n{codeowners}");
        checked += ours.len();
    }
    assert!(checked > 1500, "only {checked} paths checked");
}

/// rust-lang/team's real CODEOWNERS over its real files (the corpus keeps
/// its people, teams and docs).
#[test]
fn codeowners_answers_agree_with_pathspec_on_rust_lang_team() {
    let Some(team) = corpus_path("rust-lang/team", "others/rust-lang-team") else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    copy_tree(&team, dir.path());
    add_book(dir.path());
    let ours = codeowners_answers(&owners_json(&dir.path().join("book"), &[]));
    assert!(ours.len() > 100, "{} files", ours.len());
    let request = json!({
        "kind": "codeowners",
        "codeowners": dir.path().join(".github/CODEOWNERS"),
        "paths": ours.keys().collect::<Vec<_>>(),
    });
    let Some(theirs) = reference("rust-lang/team reference", &request) else {
        return;
    };
    let theirs: BTreeMap<String, Value> = serde_json::from_value(theirs).expect("a map");
    assert_eq!(ours, theirs);
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("readable") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            std::fs::create_dir_all(&target).expect("writable");
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copied");
        }
    }
}

/// Our JSON's OWNERS answers as the reference gives them: logins only, in
/// lower case as Prow compares them (ours are as the project writes them).
fn tree_answers(value: &Value) -> BTreeMap<String, Value> {
    let logins = |list: &Value| -> Vec<Value> {
        list.as_array()
            .expect("a list")
            .iter()
            .map(|o| json!(o["owner"].as_str().expect("a login").to_lowercase()))
            .collect()
    };
    (value["paths"].as_object().expect("paths").iter())
        .map(|(path, answer)| {
            let answer = json!({
                "approvers": logins(&answer["approvers"]),
                "reviewers": logins(&answer["reviewers"]),
            });
            (path.clone(), answer)
        })
        .collect()
}

fn random_logins(rng: &mut Rng, aliases: bool) -> String {
    let mut out = String::new();
    for _ in 0..rng.below(4) {
        let login = match (aliases, rng.below(4)) {
            (true, 0) => format!("alias-{}", rng.below(3)),
            (_, 1) => format!("@User{}", rng.below(8)),
            _ => format!("user{}", rng.below(8)),
        };
        out.push_str(&format!("  - {login}\n"));
    }
    out
}

/// A random OWNERS file: top-level lists, or filters (`.*`, a suffix, a
/// folder), sometimes `no_parent_owners`, sometimes emeritus approvers.
fn random_owners(rng: &mut Rng) -> String {
    let mut text = String::new();
    if rng.below(4) == 0 {
        text.push_str(&format!(
            "options:\n  no_parent_owners: {}\n",
            rng.below(2) == 0
        ));
    }
    if rng.below(3) == 0 {
        text.push_str("filters:\n");
        for filter in ["\".*\"", "\"\\\\.md$\"", "\"^gen/\"", "\"(?i)readme\""] {
            if rng.below(2) == 0 {
                text.push_str(&format!("  {filter}:\n"));
                let approvers = random_logins(rng, true).replace("  - ", "      - ");
                let reviewers = random_logins(rng, true).replace("  - ", "      - ");
                text.push_str(&format!(
                    "    approvers:\n{approvers}    reviewers:\n{reviewers}"
                ));
            }
        }
    } else {
        text.push_str(&format!("approvers:\n{}", random_logins(rng, true)));
        text.push_str(&format!("reviewers:\n{}", random_logins(rng, true)));
    }
    if rng.below(3) == 0 {
        text.push_str(&format!(
            "emeritus_approvers:\n{}",
            random_logins(rng, false)
        ));
    }
    // An empty list is `approvers:` with nothing after it: null, which
    // Prow reads as no one.
    text
}

#[test]
fn owners_answers_agree_with_prows_algorithm_on_generated_trees() {
    let mut requests = Vec::new();
    let mut answers = Vec::new();
    let mut dirs = Vec::new();
    for seed in 0..40 {
        let mut rng = Rng(1000 + seed);
        let count = 30 + rng.below(40);
        let files = random_files(&mut rng, count);
        let dir = tempfile::tempdir().expect("tempdir");
        for file in &files {
            write(dir.path(), &[(file, "")]);
        }
        let mut folders: Vec<String> = files
            .iter()
            .filter_map(|f| f.rsplit_once('/').map(|(d, _)| d.to_string()))
            .collect();
        folders.sort();
        folders.dedup();
        write(dir.path(), &[("OWNERS", &random_owners(&mut rng))]);
        for folder in &folders {
            if rng.below(2) == 0 {
                write(
                    dir.path(),
                    &[(&format!("{folder}/OWNERS"), &random_owners(&mut rng))],
                );
            }
        }
        let aliases = "aliases:\n  alias-0:\n    - Ali\n    - user1\n  alias-1:\n    - user7\n  alias-2: []\n";
        write(dir.path(), &[("OWNERS_ALIASES", aliases)]);
        add_book(dir.path());
        let book = dir.path().join("book");
        let ours = tree_answers(&owners_json(&book, &[]));
        let listed: Vec<String> = ours.keys().cloned().collect();
        assert!(files.iter().all(|f| listed.contains(f)), "seed {seed}");
        // Folders too: a folder is owned from its own OWNERS file up.
        let asked: Vec<String> = folders.iter().map(|f| format!("{f}/")).collect();
        let asked: Vec<&str> = asked.iter().map(String::as_str).collect();
        let mut all = ours;
        all.extend(tree_answers(&owners_json(&book, &asked)));
        requests.push(json!({
            "kind": "owners",
            "root": dir.path(),
            "files": listed,
            "paths": all.keys().collect::<Vec<_>>(),
        }));
        answers.push((seed, all));
        dirs.push(dir);
    }
    let Some(theirs) = reference("OWNERS reference", &Value::Array(requests)) else {
        return;
    };
    let theirs: Vec<BTreeMap<String, Value>> = serde_json::from_value(theirs).expect("maps");
    let mut checked = 0;
    for ((seed, ours), theirs) in answers.iter().zip(&theirs) {
        assert_eq!(ours, theirs, "seed {seed}");
        checked += ours.len();
    }
    assert!(checked > 1500, "only {checked} paths checked");
}

/// kubernetes/community's real OWNERS files (filters with a case-blind
/// regex and labels, aliases of OWNERS_ALIASES, emeritus approvers) over
/// its real files.
#[test]
fn owners_answers_agree_with_prows_algorithm_on_kubernetes_community() {
    let Some(community) = corpus_path("kubernetes/community", "others/kubernetes-community") else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    copy_tree(&community, dir.path());
    write(
        dir.path(),
        &[
            ("sig-docs/annual-report-2024.md", ""),
            ("sig-docs/CHARTER.md", ""),
        ],
    );
    add_book(dir.path());
    let ours = tree_answers(&owners_json(&dir.path().join("book"), &[]));
    assert!(ours.len() > 40, "{} files", ours.len());
    let request = json!({
        "kind": "owners",
        "root": dir.path(),
        "files": ours.keys().collect::<Vec<_>>(),
        "paths": ours.keys().collect::<Vec<_>>(),
    });
    let Some(theirs) = reference("kubernetes/community reference", &request) else {
        return;
    };
    let theirs: BTreeMap<String, Value> = serde_json::from_value(theirs).expect("a map");
    assert_eq!(ours, theirs);
    // sig-docs/ has its own approvers and the root's; emeritus approvers
    // are no approvers.
    let count = |path: &str| ours[path]["approvers"].as_array().expect("list").len();
    assert!(count("sig-docs/README.md") > count("governance.md"));
    assert!(
        !ours["governance.md"]["approvers"]
            .to_string()
            .contains("parispittman")
    );
}

/// Issue 38 (18): a path is normalised before it is matched
/// (`src/gen/../main.rs` is `src/main.rs`), and one that climbs out of the
/// repository is refused: nothing is printed on stdout.
#[test]
fn paths_are_normalised_and_those_outside_the_repository_refused() {
    if !available("owners paths", "git", &["--version"], "git") {
        return;
    }
    let repo = codeowners_repository();
    let book = repo.path().join("docs");
    let direct = owners_json(&book, &["src/main.rs"]);
    let climbed = owners_json(&book, &["src/gen/../main.rs"]);
    assert_eq!(direct, climbed);
    let (code, stdout, stderr) = owners(&book, &["src/main.rs", "d/../../x"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains(
            "`d/../../x` is outside the repository: paths are relative to the repository root"
        ),
        "{stderr}"
    );
    let (code, _, stderr) = owners(&book, &["d/.."]);
    assert_eq!(code, 0, "{stderr}");
}

/// A random GitLab CODEOWNERS file: entries before any section, sections
/// (optional, with approvals, with default owners, one name repeated in
/// another case), entries without owners, `!` exclusions, role and group
/// owners, character classes.
fn random_gitlab(rng: &mut Rng) -> String {
    let mut text = String::from("# generated for GitLab\n");
    let sections = ["Docs", "Backend", "docs", "Frontend"];
    for _ in 0..(3 + rng.below(20)) {
        if rng.below(5) == 0 {
            let optional = if rng.below(3) == 0 { "^" } else { "" };
            let approvals = if rng.below(3) == 0 { "[2]" } else { "" };
            let defaults = match rng.below(2) {
                0 => String::new(),
                _ => format!(" @team{}/sub", rng.below(3)),
            };
            let name = rng.pick(&sections);
            text.push_str(&format!("{optional}[{name}]{approvals}{defaults}\n"));
        }
        let owners: Vec<String> = (0..rng.below(3))
            .map(|_| match rng.below(4) {
                0 => "@@maintainer".to_string(),
                1 => format!("@group{}/nested/sub", rng.below(2)),
                _ => format!("@user{}", rng.below(6)),
            })
            .collect();
        let pattern = match rng.below(8) {
            0 => format!("!{}", random_pattern(rng)),
            1 => format!("/{}/[xy].*", rng.pick(&FOLDERS)),
            _ => random_pattern(rng),
        };
        text.push_str(&format!("{pattern} {}\n", owners.join(" ")));
    }
    text
}

/// Our JSON's answers as the GitLab reference gives them: the owners of
/// every section together, and the line of each section's rule.
fn gitlab_answers(value: &Value) -> BTreeMap<String, Value> {
    let line = |rule: &Value| {
        json!(
            rule.as_str()
                .and_then(|r| r.rsplit(':').next()?.parse::<u64>().ok())
        )
    };
    let mut out = BTreeMap::new();
    for (path, answer) in value["paths"].as_object().expect("paths") {
        let owners: Vec<Value> = (answer["owners"].as_array().expect("owners").iter())
            .map(|o| o["owner"].clone())
            .collect();
        let lines: Vec<Value> = match answer.get("sections").and_then(Value::as_array) {
            Some(sections) => sections.iter().map(|s| line(&s["rule"])).collect(),
            None => answer
                .get("rule")
                .filter(|r| !r.is_null())
                .map(line)
                .into_iter()
                .collect(),
        };
        out.insert(path.clone(), json!({"owners": owners, "lines": lines}));
    }
    out
}

/// GitLab's CODEOWNERS (`.gitlab/CODEOWNERS`): who owns every path of a
/// generated tree is what a reference written from GitLab's documented
/// semantics says (sections add up, each section's last match applies,
/// default owners, exclusions, only a leading `/` anchors).
#[test]
fn gitlab_answers_agree_with_the_reference_on_generated_trees() {
    let (mut requests, mut answers, mut dirs) = (Vec::new(), Vec::new(), Vec::new());
    for seed in 0..40 {
        let mut rng = Rng(seed);
        let count = 30 + rng.below(40);
        let files = random_files(&mut rng, count);
        let dir = tempfile::tempdir().expect("tempdir");
        let codeowners = random_gitlab(&mut rng);
        write(dir.path(), &[(".gitlab/CODEOWNERS", &codeowners)]);
        for file in &files {
            write(dir.path(), &[(file, "")]);
        }
        add_book(dir.path());
        let ours = gitlab_answers(&owners_json(&dir.path().join("book"), &[]));
        requests.push(json!({
            "kind": "gitlab",
            "codeowners": dir.path().join(".gitlab/CODEOWNERS"),
            "paths": ours.keys().collect::<Vec<_>>(),
        }));
        answers.push((seed, codeowners, ours));
        dirs.push(dir);
    }
    let Some(theirs) = reference("gitlab reference", &Value::Array(requests)) else {
        return;
    };
    let theirs: Vec<BTreeMap<String, Value>> = serde_json::from_value(theirs).expect("maps");
    let mut checked = 0;
    for ((seed, codeowners, ours), theirs) in answers.iter().zip(&theirs) {
        assert_eq!(
            ours, theirs,
            "seed {seed}, .gitlab/CODEOWNERS:\n{codeowners}"
        );
        checked += ours.len();
    }
    assert!(checked > 1500, "only {checked} paths checked");
}

/// Every example of GitLab's "Syntax of CODEOWNERS file" page reads with no
/// error, and owns paths as the reference says.
#[test]
fn gitlab_documented_examples_read_without_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let example = include_str!("data/gitlab_codeowners_examples");
    let files = [
        "README.md",
        "docs/index.md",
        "docs/guide/a.md",
        "ee/docs/x.md",
        "model/db/x.rb",
        "config/db/database-setup.md",
        "config/x.yml",
        "lib/a.rb",
        "app/lib/b.rb",
        "a.txt",
        "LICENSE",
        "#file_with_pound.rb",
        "path with spaces/x",
        "db/y/index.md",
        "src/a.js",
    ];
    write(dir.path(), &[(".gitlab/CODEOWNERS", example)]);
    for file in files {
        write(dir.path(), &[(file, "")]);
    }
    add_book(dir.path());
    let (code, stdout, stderr) = owners(&dir.path().join("book"), &["--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
    let ours = gitlab_answers(&serde_json::from_str(&stdout).expect("JSON"));
    let request = json!({
        "kind": "gitlab",
        "codeowners": dir.path().join(".gitlab/CODEOWNERS"),
        "paths": ours.keys().collect::<Vec<_>>(),
    });
    let Some(theirs) = reference("gitlab examples", &request) else {
        return;
    };
    let theirs: BTreeMap<String, Value> = serde_json::from_value(theirs).expect("a map");
    assert_eq!(ours, theirs);
    assert_eq!(
        ours["docs/index.md"]["owners"],
        json!(["@root-docs", "@docs-team", "@dev-team"]),
        "each section's last match, the sections added up"
    );
}

/// A folder as PATH: besides the rule for the folder itself, how many of
/// its files have an active owner and who owns them (issue 36, 5).
#[test]
fn a_folder_gets_a_summary_of_its_files() {
    if !available("folder summary", "git", &["--version"], "git") {
        return;
    }
    let repo = codeowners_repository();
    let book = repo.path().join("docs");
    let (code, stdout, stderr) = owners(&book, &["src", "old/", "README.md"]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("owners_folder_summary", stdout);
    let value = owners_json(&book, &["src/", "README.md"]);
    let folder = &value["paths"]["src/"]["folder"];
    assert_eq!(folder["files"], 3, "{value}");
    assert!(
        value["paths"]["README.md"].get("folder").is_none(),
        "{value}"
    );
}

/// The roster of the owner-count test: user2 and user4 have left; the team
/// `org/core` is user0, user1 and (former) user2; `org/docs` is user3.
const COUNT_ROSTER: &str = r#"
[people.user0]
[people.user1]
[people.user2]
[people.user3]
[people.user4]

[[groups]]
id = "core"
github-team = "org/core"
members = ["user0", "user1", { handle = "user2", status = "emeritus" }]

[[groups]]
id = "docs"
github-team = "org/docs"
members = ["user3"]

[[groups]]
id = "old"
members = [{ handle = "user4", status = "emeritus" }]
"#;

/// The active people an owner is, counted here without the plugin: the
/// roster above written out by hand.
fn counted_people(owner: &str) -> Vec<&str> {
    match owner {
        "@org/core" => vec!["user0", "user1"],
        "@org/docs" => vec!["user3"],
        "@user2" | "@user4" => vec![],
        other => vec![other.trim_start_matches('@')],
    }
}

/// `owners --coverage`'s files by number of active owners (teams expanded
/// through the roster, those who left not counted) equal a count made from
/// the independent reference's owners of every file (issue 36, 4).
#[test]
fn owner_counts_agree_with_an_independent_count() {
    let (mut requests, mut answers, mut dirs) = (Vec::new(), Vec::new(), Vec::new());
    let owners_pool = [
        "@user0",
        "@user2",
        "@user3",
        "@user4",
        "@user5",
        "@org/core",
        "@org/docs",
    ];
    for seed in 100..115 {
        let mut rng = Rng(seed);
        let count = 30 + rng.below(30);
        let files = random_files(&mut rng, count);
        let mut codeowners = String::new();
        for _ in 0..(3 + rng.below(15)) {
            let owners: Vec<&str> = (0..rng.below(4)).map(|_| rng.pick(&owners_pool)).collect();
            codeowners.push_str(&format!(
                "{} {}\n",
                random_pattern(&mut rng),
                owners.join(" ")
            ));
        }
        let dir = tempfile::tempdir().expect("tempdir");
        write(
            dir.path(),
            &[
                ("CODEOWNERS", &codeowners),
                ("book/maintainers.toml", COUNT_ROSTER),
            ],
        );
        for file in &files {
            write(dir.path(), &[(file, "")]);
        }
        add_book(dir.path());
        let ours = owners_json(&dir.path().join("book"), &["--coverage"]);
        let every = codeowners_answers(&owners_json(&dir.path().join("book"), &[]));
        requests.push(json!({
            "kind": "codeowners",
            "codeowners": dir.path().join("CODEOWNERS"),
            "paths": every.keys().collect::<Vec<_>>(),
        }));
        answers.push((seed, codeowners, ours["by_active_owners"].clone()));
        dirs.push(dir);
    }
    let Some(theirs) = reference("owner counts", &Value::Array(requests)) else {
        return;
    };
    let theirs: Vec<BTreeMap<String, Value>> = serde_json::from_value(theirs).expect("maps");
    for ((seed, codeowners, ours), theirs) in answers.iter().zip(&theirs) {
        let mut counts = [0usize; 3];
        for answer in theirs.values() {
            let mut people: Vec<&str> = (answer["owners"].as_array().expect("owners").iter())
                .flat_map(|o| counted_people(o.as_str().expect("text")))
                .collect();
            people.sort_unstable();
            people.dedup();
            counts[people.len().min(2)] += 1;
        }
        let expected = json!({"0": counts[0], "1": counts[1], "2+": counts[2]});
        assert_eq!(ours, &expected, "seed {seed}, CODEOWNERS:\n{codeowners}");
    }
}
