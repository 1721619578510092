//! CODEOWNERS parsing, matching against GitHub's own cases and an
//! independent oracle, hostile input, and real files from the corpus.

use super::pattern::{build_glob, translate};
use super::*;

/// GitHub's answer for a path: the one rule that decides (for a file read
/// as GitLab's, which generated text can be, its first section's).
trait Single {
    fn single(&self, path: &str) -> Option<&Rule>;
}

impl Single for CodeOwners {
    fn single(&self, path: &str) -> Option<&Rule> {
        let rules = self.owners_of(path);
        if self.dialect() == Dialect::GitHub {
            assert!(rules.len() <= 1, "a GitHub file decides by one rule");
        }
        rules.into_iter().next()
    }
}
use crate::diagnostic::{Location, Severity};
use globset::GlobSetBuilder;

fn source(text: &str) -> Arc<SourceFile> {
    Arc::new(SourceFile::new(".github/CODEOWNERS".into(), text.into()))
}

fn parse(text: &str) -> (CodeOwners, Vec<Diagnostic>) {
    CodeOwners::parse(source(text))
}

/// Parses a file that must have no diagnostics.
fn parse_ok(text: &str) -> CodeOwners {
    let (owners, diagnostics) = parse(text);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    owners
}

fn range_of(d: &Diagnostic) -> Range<usize> {
    match &d.location {
        Some(Location::File { range, .. }) => range.clone(),
        other => panic!("not a file location: {other:?}"),
    }
}

/// The text a diagnostic points at.
fn pointed<'a>(text: &'a str, d: &Diagnostic) -> &'a str {
    &text[range_of(d)]
}

/// Line of the rule that owns `path`.
fn line_of(owners: &CodeOwners, path: &str) -> Option<usize> {
    owners.single(path).map(|r| r.line)
}

fn owner_texts(rule: Option<&Rule>) -> Vec<&str> {
    rule.map(|r| r.owners.iter().map(|o| o.text.as_str()).collect())
        .unwrap_or_default()
}

/// Every range lies on character boundaries and slices to its text.
fn check_invariants(text: &str, owners: &CodeOwners, diagnostics: &[Diagnostic]) {
    for rule in owners.rules() {
        assert_eq!(
            text.get(rule.pattern_range.clone()),
            Some(rule.pattern.as_str())
        );
        assert!(!rule.pattern.is_empty());
        assert!(rule.line >= 1);
        for owner in &rule.owners {
            assert_eq!(text.get(owner.range.clone()), Some(owner.text.as_str()));
        }
    }
    for d in diagnostics {
        match &d.location {
            Some(Location::File { range, .. }) => {
                assert!(text.get(range.clone()).is_some(), "{range:?} in {text:?}");
                assert!(range.start < range.end, "empty range {range:?}");
            }
            Some(Location::Path(_)) => {}
            other => panic!("unexpected location {other:?}"),
        }
    }
    let lines = owners.rules().iter().map(|r| r.line).collect::<Vec<_>>();
    assert!(lines.windows(2).all(|w| w[0] < w[1]), "file order");
}

// -- parsing ------------------------------------------------------------

#[test]
fn parses_patterns_owners_kinds_ranges_and_lines() {
    let text = "# comment\n\n*   @global @octo-org/docs-team\t jane@example.com\n/build/ \n";
    let owners = parse_ok(text);
    let rules = owners.rules();
    assert_eq!(rules.len(), 2);
    let r = &rules[0];
    assert_eq!((r.pattern.as_str(), r.line), ("*", 3));
    assert_eq!(&text[r.pattern_range.clone()], "*");
    let kinds: Vec<_> = r.owners.iter().map(|o| (o.text.as_str(), o.kind)).collect();
    assert_eq!(
        kinds,
        [
            ("@global", OwnerKind::User),
            ("@octo-org/docs-team", OwnerKind::Team),
            ("jane@example.com", OwnerKind::Email),
        ]
    );
    for o in &r.owners {
        assert_eq!(&text[o.range.clone()], o.text);
    }
    assert_eq!(r.owners[0].login(), Some("global"));
    assert_eq!(r.owners[1].login(), None);
    assert_eq!(r.owners[2].login(), None);
    // A pattern without owners is kept: it makes paths unowned.
    assert_eq!((rules[1].pattern.as_str(), rules[1].line), ("/build/", 4));
    assert!(rules[1].owners.is_empty());
    assert_eq!(owners.file().name, ".github/CODEOWNERS");
}

#[test]
fn comments_blank_lines_and_trailing_comments() {
    let text = "  # indented comment\n\t\n*.js @js-owner #This is an inline comment.\n\
                    docs/ #only a comment, so no owners\nfoo#bar @a\n*.md @a # @b @c\n";
    let owners = parse_ok(text);
    let rules = owners.rules();
    assert_eq!(rules.len(), 4);
    assert_eq!(owner_texts(rules.first()), ["@js-owner"]);
    assert_eq!(rules[1].pattern, "docs/");
    assert!(rules[1].owners.is_empty());
    // `#` inside a pattern is not a comment (gitignore).
    assert_eq!(rules[2].pattern, "foo#bar");
    assert_eq!(line_of(&owners, "foo#bar"), Some(5));
    assert_eq!(owner_texts(rules.get(3)), ["@a"]);
}

#[test]
fn crlf_bom_and_last_line_without_newline() {
    let text = "\u{feff}* @a\r\n\r\n# c\r\n/docs/ @b\r\n*.rs @c";
    let owners = parse_ok(text);
    let rules = owners.rules();
    assert_eq!(rules.len(), 3);
    assert_eq!((rules[0].pattern.as_str(), rules[0].line), ("*", 1));
    assert_eq!(rules[0].pattern_range, 3..4);
    assert_eq!(owner_texts(rules.get(1)), ["@b"]);
    assert_eq!(rules[1].line, 4);
    assert_eq!(owner_texts(rules.get(2)), ["@c"]);
    assert_eq!(rules[2].line, 5);
    // A pattern on a CRLF line without owners does not keep the `\r`.
    let owners = parse_ok("/docs/\r\n");
    assert_eq!(owners.rules()[0].pattern, "/docs/");
}

#[test]
fn escaped_spaces_belong_to_the_pattern() {
    let text = "/docs/My\\ Guide/ @a\npath\\ with\\ spaces.md @b\n";
    let owners = parse_ok(text);
    assert_eq!(owners.rules()[0].pattern, "/docs/My\\ Guide/");
    assert_eq!(line_of(&owners, "docs/My Guide/intro.md"), Some(1));
    assert_eq!(line_of(&owners, "docs/My/intro.md"), None);
    assert_eq!(line_of(&owners, "a/path with spaces.md"), Some(2));
}

#[test]
fn unescaped_space_in_a_path_gets_a_hint() {
    let text = "docs/My Guide.md @a\n";
    let (owners, diagnostics) = parse(text);
    assert!(owners.rules().is_empty());
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(pointed(text, &diagnostics[0]), "Guide.md");
    assert!(
        diagnostics[0]
            .help
            .iter()
            .any(|h| h.contains("escape the space"))
    );
    // Only for the word right after the pattern.
    let (_, diagnostics) = parse("docs/My Guide.md octocat\n");
    assert_eq!(diagnostics.len(), 2);
    let hint = |d: &Diagnostic| d.help.iter().any(|h| h.contains("escape the space"));
    assert!(hint(&diagnostics[0]) && !hint(&diagnostics[1]));
}

#[test]
fn negation_is_rejected_at_the_bang() {
    let text = "* @a\n!docs/ @b\n";
    let (owners, diagnostics) = parse(text);
    assert_eq!(owners.rules().len(), 1, "the invalid line is skipped");
    assert_eq!(diagnostics.len(), 1);
    let d = &diagnostics[0];
    assert_eq!(d.severity, Severity::Error);
    assert!(d.message.contains('!'), "{}", d.message);
    assert_eq!(range_of(d), 5..6);
    // Escaped, a `!` is just a character.
    let owners = parse_ok("\\!important.md @a\n");
    assert_eq!(line_of(&owners, "x/!important.md"), Some(1));
}

#[test]
fn character_ranges_are_rejected_at_the_brackets() {
    let text = "Python/ceval*.[ch] @a\nfoo]bar @b\nx[y @c\n";
    let (owners, diagnostics) = parse(text);
    assert!(owners.rules().is_empty());
    let at: Vec<_> = diagnostics.iter().map(|d| pointed(text, d)).collect();
    assert_eq!(at, ["[ch]", "]", "["]);
    assert!(diagnostics[0].label.contains("escaped"));
    // Escaped brackets are literal (as GitHub's message says).
    let owners = parse_ok("pages/s/\\[org\\]/index.tsx @a\n");
    assert_eq!(line_of(&owners, "pages/s/[org]/index.tsx"), Some(1));
    assert_eq!(line_of(&owners, "pages/s/o/index.tsx"), None);
}

#[test]
fn escaped_hash_at_the_start_is_rejected_with_a_workaround() {
    let text = "\\#notes.md @a\n";
    let (owners, diagnostics) = parse(text);
    assert!(owners.rules().is_empty());
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(pointed(text, &diagnostics[0]), "\\#");
    assert!(
        diagnostics[0]
            .help
            .iter()
            .any(|h| h.contains("`?notes.md`"))
    );
    // The suggested workaround works.
    let owners = parse_ok("?notes.md @a\n");
    assert_eq!(line_of(&owners, "#notes.md"), Some(1));
    // An escaped `#` later in the pattern is fine.
    let owners = parse_ok("docs/\\#1.md @a\n");
    assert_eq!(line_of(&owners, "docs/#1.md"), Some(1));
}

#[test]
fn invalid_owners_are_all_reported_and_the_line_skipped() {
    let text = "* @ok\ndocs/ octocat @good @org/team/sub @ bad@ @-fine_ok\nsrc/ @x/ @/y a@b\n";
    let (owners, diagnostics) = parse(text);
    assert_eq!(owners.rules().len(), 1);
    let at: Vec<_> = diagnostics.iter().map(|d| pointed(text, d)).collect();
    assert_eq!(
        at,
        ["octocat", "@org/team/sub", "@", "bad@", "@x/", "@/y", "a@b"]
    );
    assert!(diagnostics.iter().all(Diagnostic::is_error));
    assert_eq!(
        diagnostics[0].help.first().map(String::as_str),
        Some("did you mean `@octocat`?")
    );
    assert!(diagnostics[1].help.iter().any(|h| h.contains("one slash")));
}

#[test]
fn pattern_and_owner_errors_on_one_line_are_both_reported() {
    let text = "![ab] nobody\n";
    let (owners, diagnostics) = parse(text);
    assert!(owners.rules().is_empty());
    let at: Vec<_> = diagnostics.iter().map(|d| pointed(text, d)).collect();
    assert_eq!(at, ["!", "nobody"]);
}

#[test]
fn lone_backslash_and_root_slash_are_rejected() {
    let text = "docs\\ @a\n/ @b\n// @c\n";
    let (owners, diagnostics) = parse(text);
    // `docs\ @a`: the backslash escapes the space, so the pattern is
    // `docs\ @a`, which is valid: a file named `docs @a`.
    assert_eq!(owners.rules().len(), 1);
    assert_eq!(owners.rules()[0].pattern, "docs\\ @a");
    let at: Vec<_> = diagnostics.iter().map(|d| pointed(text, d)).collect();
    assert_eq!(at, ["/", "//"]);
    assert!(diagnostics[0].help.iter().any(|h| h.contains("`*`")));

    let text = "docs\\\n";
    let (owners, diagnostics) = parse(text);
    assert!(owners.rules().is_empty());
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(pointed(text, &diagnostics[0]), "\\");
}

#[test]
fn files_of_three_megabytes_are_ignored_like_github_does() {
    let text = format!("* @a\n{}", "#".repeat(MAX_FILE_SIZE));
    let (owners, diagnostics) = parse(&text);
    assert!(owners.rules().is_empty());
    assert_eq!(diagnostics.len(), 1);
    assert!(matches!(diagnostics[0].location, Some(Location::Path(_))));
    assert_eq!(owners.single("a"), None);
}

// -- matching -----------------------------------------------------------

/// (pattern, path, matches): the cases of `testdata/patterns.json` in
/// github.com/hmarr/codeowners, plus the examples of GitHub's docs.
const CASES: &[(&str, &str, bool)] = &[
    ("foo", "foo", true),
    ("foo", "foo.txt", false),
    ("foo", "foo/bar", true),
    ("foo", "bar/foo", true),
    ("foo", "bar/foo.txt", false),
    ("foo", "bar/baz", false),
    ("foo", "bar/foo/baz", true),
    ("/foo", "foo", true),
    ("/foo", "fool.txt", false),
    ("/foo", "foo/bar", true),
    ("/foo", "bar/foo", false),
    ("/foo", "foo/bar/baz", true),
    ("/foo", "bar/foo/baz", false),
    ("foo/", "foo", false),
    ("foo/", "foo/bar", true),
    ("foo/", "foo/bar/baz", true),
    ("foo/", "bar/foo", false),
    ("foo/", "bar/foo/baz", true),
    ("foo/", "bar/foo/baz/qux", true),
    ("/foo/", "foo", false),
    ("/foo/", "foo/bar", true),
    ("/foo/", "foo/bar/baz", true),
    ("/foo/", "bar/foo/baz", false),
    ("foo/bar", "foo/bar", true),
    ("foo/bar", "foo/bart", false),
    ("foo/bar", "foo/bar/baz", true),
    ("foo/bar", "baz/foo/bar", false),
    ("foo/bar", "baz/foo/bar/qux", false),
    ("/foo/bar", "foo/bar/baz", true),
    ("/foo/bar", "baz/foo/bar", false),
    ("foo/bar/", "foo/bar", false),
    ("foo/bar/", "foo/bar/baz", true),
    ("foo/bar/", "baz/foo/bar/qux", false),
    ("/foo/bar/", "foo/bar/baz/qux", true),
    ("*", "foo", true),
    ("*", "foo/bar", true),
    ("*", "bar/foo/baz", true),
    ("*", "xfoo", true),
    ("f*", "foo", true),
    ("f*", "foo/bar", true),
    ("f*", "foo/bar/baz", true),
    ("f*", "bar/foo", true),
    ("f*", "bar/foo/baz", true),
    ("f*", "bar/baz", false),
    ("f*", "xfoo", false),
    ("/*", "foo", true),
    ("/*", "foo/bar", false),
    ("/*", "foo/bar/baz", false),
    ("/f*", "foo", true),
    ("/f*", "foo/bar/baz", true),
    ("/f*", "bar/foo", false),
    ("/f*", "xfoo", false),
    ("f*/", "foo", false),
    ("f*/", "foo/bar", true),
    ("f*/", "bar/foo", false),
    ("f*/", "bar/foo/baz", true),
    ("/*/", "foo", false),
    ("/*/", "foo/bar", true),
    ("/*/", "bar/foo/baz", true),
    ("/f*/", "foo", false),
    ("/f*/", "foo/bar", true),
    ("/f*/", "bar/foo/baz", false),
    ("f\\*o", "foo", false),
    ("f\\*o", "f*o", true),
    ("foo/*", "foo", false),
    ("foo/*", "foo/bar", true),
    ("foo/*", "foo/bar/baz", false),
    ("foo/*", "bar/foo/baz", false),
    ("foo/*.txt", "foo/bar.txt", true),
    ("foo/*.txt", "foo/bar/baz.txt", false),
    ("foo/*.txt", "qux/foo/bar.txt", false),
    ("foo/*/baz", "foo/bar", false),
    ("foo/*/baz", "foo/baz", false),
    ("foo/*/baz", "foo/bar/baz", true),
    ("foo/*/baz", "foo/bar/baz/qux", true),
    ("f?o", "foo", true),
    ("f?o", "fo", false),
    ("f?o", "fooo", false),
    ("f?o", "f/o", false),
    ("f\\?o", "foo", false),
    ("f\\?o", "f?o", true),
    ("**/foo/bar", "foo/bar", true),
    ("**/foo/bar", "qux/foo/bar", true),
    ("**/foo/bar", "qux/foo/bar/baz", true),
    ("**/foo/bar", "foo/baz/bar", false),
    ("**/*bar*", "bar", true),
    ("**/*bar*", "foo/rebar", true),
    ("**/*bar*", "foo/qux/barrio", true),
    ("foo/bar/**", "foo/bar", false),
    ("foo/bar/**", "foo/bar/baz", true),
    ("foo/bar/**", "foo/bar/baz/qux", true),
    ("foo/bar/**", "qux/foo/bar/baz", false),
    ("foo/**/bar", "foo/bar", true),
    ("foo/**/bar", "foo/qux/quux/bar/baz", true),
    ("foo/**/bar", "qux/foo/bar", false),
    ("foo/**/", "foo", false),
    ("foo/**/", "foo/bar", true),
    ("foo/**/", "foo/bar/baz", true),
    ("foo/**/bar/b*", "foo/bar/baz", true),
    ("foo/**/bar/b*", "foo/bar/qux", false),
    ("foo/**/bar/b*", "foo/qux/bar/baz", true),
    // GitHub's documented examples.
    ("*.js", "app.js", true),
    ("*.js", "src/deep/app.js", true),
    ("*.js", "src/app.jsx", false),
    ("/build/logs/", "build/logs/today.log", true),
    ("/build/logs/", "build/logs/2024/01.log", true),
    ("/build/logs/", "src/build/logs/x", false),
    ("docs/*", "docs/getting-started.md", true),
    ("docs/*", "docs/build-app/troubleshooting.md", false),
    ("apps/", "apps/x.js", true),
    ("apps/", "src/apps/x/y.js", true),
    ("apps/", "apps", false),
    ("/docs/", "docs/a/b.md", true),
    ("/docs/", "src/docs/a.md", false),
    ("**/logs", "build/logs", true),
    ("**/logs", "deeply/nested/logs/today.txt", true),
    ("**/logs", "logs/x", true),
    ("/docs/**", "docs/a.md", true),
    ("/docs/**", "docs/a/b.md", true),
    ("/docs/**", "docs", false),
    ("/docs/**", "src/docs/a.md", false),
    ("/apps/github", "apps/github/x.rb", true),
    // Case sensitive.
    ("/Docs/", "docs/a.md", false),
    ("*.MD", "a.md", false),
    // Globset syntax is literal in CODEOWNERS.
    ("{a,b}.md", "a.md", false),
    ("{a,b}.md", "{a,b}.md", true),
    (
        "/cookiecutter/{{cookiecutter.id}}/pyproject.toml",
        "cookiecutter/{{cookiecutter.id}}/pyproject.toml",
        true,
    ),
    // Unicode.
    ("/доки/", "доки/введение.md", true),
    // Runs of stars inside a segment are one star.
    ("a**b", "axyb", true),
    ("a**b", "ax/yb", false),
    ("***", "x/y", true),
];

#[test]
fn patterns_match_like_github() {
    let mut failures = Vec::new();
    for &(pattern, path, expected) in CASES {
        let owners = parse_ok(&format!("{pattern} @o\n"));
        if owners.single(path).is_some() != expected {
            failures.push(format!("{pattern:?} on {path:?}: expected {expected}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn paths_are_normalized() {
    let owners = parse_ok("/docs/ @a\n");
    for path in ["docs/a.md", "/docs/a.md", "./docs/a.md", "//docs/a.md"] {
        assert_eq!(line_of(&owners, path), Some(1), "{path}");
    }
    for path in ["", "/", "./", "docs"] {
        assert_eq!(line_of(&owners, path), None, "{path}");
    }
}

#[test]
fn the_last_matching_rule_wins_even_when_it_has_no_owners() {
    // The rules of GitHub's documented example, in its order.
    let text = "\
* @global-owner1 @global-owner2
*.js @js-owner #This is an inline comment.
*.go docs@example.com
*.txt @octo-org/octocats
/build/logs/ @doctocat
docs/* docs@example.com
apps/ @octocat
/docs/ @doctocat
/scripts/ @doctocat @octocat
**/logs @octocat
/apps/ @octocat
/apps/github @doctocat
/apps/ @octocat
/apps/github
";
    let owners = parse_ok(text);
    let who = |path: &str| owner_texts(owners.single(path));
    assert_eq!(who("README.md"), ["@global-owner1", "@global-owner2"]);
    assert_eq!(who("src/app.js"), ["@js-owner"]);
    assert_eq!(who("main.go"), ["docs@example.com"]);
    assert_eq!(who("notes/todo.txt"), ["@octo-org/octocats"]);
    // `*.txt`, `/build/logs/` and `**/logs` match: the last wins.
    assert_eq!(line_of(&owners, "build/logs/today.txt"), Some(10));
    // `docs/*` (line 6), then `/docs/` (line 8).
    assert_eq!(line_of(&owners, "docs/getting-started.md"), Some(8));
    assert_eq!(
        line_of(&owners, "docs/build-app/troubleshooting.md"),
        Some(8)
    );
    assert_eq!(who("scripts/deploy.sh"), ["@doctocat", "@octocat"]);
    assert_eq!(line_of(&owners, "src/apps/main.js"), Some(7));
    assert_eq!(line_of(&owners, "apps/main.rb"), Some(13));
    // The last rule has no owners: `apps/github` is unowned.
    let rule = owners.single("apps/github/README.md").expect("a rule");
    assert_eq!(rule.line, 14);
    assert!(rule.owners.is_empty());
}

#[test]
fn no_rule_no_owner() {
    let owners = parse_ok("/docs/ @a\n");
    assert_eq!(owners.single("src/main.rs"), None);
    let owners = parse_ok("");
    assert_eq!(owners.single("a"), None);
    assert!(owners.rules().is_empty());
}

#[test]
fn many_rules_and_many_paths() {
    let mut text = String::from("* @root\n");
    for i in 0..2000 {
        text.push_str(&format!("/dir{i}/ @team{i}\n*.ext{i} @ext{i}\n"));
    }
    let owners = parse_ok(&text);
    assert_eq!(owners.rules().len(), 4001);
    for i in (0..2000).step_by(97) {
        assert_eq!(line_of(&owners, &format!("dir{i}/a.md")), Some(2 + 2 * i));
        assert_eq!(
            line_of(&owners, &format!("dir{i}/a.ext5")),
            Some(2 + 2 * 5 + 1).max(Some(2 + 2 * i))
        );
        assert_eq!(line_of(&owners, "x/y.z"), Some(1));
    }
}

// -- nasty input --------------------------------------------------------

const NASTY_PATHS: &[&str] = &[
    "",
    "/",
    "//",
    "./",
    ".",
    "..",
    "../x",
    "a//b",
    "a/",
    "\\",
    "\0",
    "\u{feff}x",
    "é/ü",
    "*",
    "**",
    "[",
    "{",
    "a\nb",
    " ",
    "#",
    "\u{fffd}",
];

fn check(text: &str) {
    let (owners, diagnostics) = parse(text);
    check_invariants(text, &owners, &diagnostics);
    for path in NASTY_PATHS {
        let _ = owners.single(path);
    }
}

#[test]
fn nasty_input_never_panics() {
    let cases: Vec<String> = vec![
        String::new(),
        "\u{feff}".into(),
        "\u{feff}\u{feff}* @a".into(),
        "\n\n\n".into(),
        "\r".into(),
        "\r\r\n\r".into(),
        "\\".into(),
        "\\\\".into(),
        "\\\r\n".into(),
        "\\é @a".into(),
        "é\\".into(),
        "* \\".into(),
        "@".into(),
        "@ @".into(),
        "# only".into(),
        "#".into(),
        "!".into(),
        "[".into(),
        "]".into(),
        "[]".into(),
        "\\[".into(),
        "{".into(),
        "}}{{,".into(),
        "**".into(),
        "***/***".into(),
        "**/**/**/".into(),
        "/**/".into(),
        "///".into(),
        "\\/".into(),
        "\\ ".into(),
        "a\\ \\ \\  @b".into(),
        "\0 \0".into(),
        "*\0 @a\0".into(),
        "\u{fffd}\u{fffd} @\u{fffd}".into(),
        "\t\t*\t@a\t#\t@b".into(),
        "* @a\x0b@b\x0c@c".into(),
        "x @a@b@c".into(),
        "x a@b.".into(),
        "x a@.co".into(),
        "x @a/b/c/d".into(),
        "x @@a".into(),
        "x \u{1F600}@example.com".into(),
        "\u{1F600}/\u{1F600}* @\u{1F600}".into(),
        String::from_utf8_lossy(&[0xff, 0xfe, b'*', b' ', b'@', 0xc3, b'\n', 0x80]).into_owned(),
        format!("{} @a", "a/".repeat(50_000)),
        format!("{} @a", "*a".repeat(50_000)),
        format!("{} @a", "**/".repeat(20_000)),
        format!("{} @a", "?".repeat(100_000)),
        format!("* {}", "@a ".repeat(100_000)),
        format!("{}", "\\".repeat(100_001)),
        "* @a\n".repeat(20_000),
        "\n".repeat(100_000),
    ];
    for text in &cases {
        check(text);
    }
}

#[test]
fn huge_pattern_still_matches() {
    // `/d/d/.../d/`, as long as accepted.
    let deep = "d/".repeat(MAX_PATTERN_LEN / 2 - 1);
    let owners = parse_ok(&format!("/{deep} @a\n"));
    assert_eq!(line_of(&owners, &format!("{deep}x")), Some(1));
    assert_eq!(line_of(&owners, deep.trim_end_matches('/')), None);
    let long = format!("{}*", "ab".repeat(2_000));
    let owners = parse_ok(&format!("{long} @a\n"));
    let path = format!("x/{}zz", "ab".repeat(2_000));
    assert_eq!(line_of(&owners, &path), Some(1));
}

#[test]
fn overlong_patterns_are_rejected() {
    let text = format!("* @a\n{} @b\n", "a/".repeat(MAX_PATTERN_LEN));
    let (owners, diagnostics) = parse(&text);
    assert_eq!(owners.rules().len(), 1);
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(range_of(&diagnostics[0]), 5..5 + 2 * MAX_PATTERN_LEN);
    assert!(diagnostics[0].message.contains("4096"));
}

#[test]
fn repeated_patterns_keep_last_match_wins() {
    let owners = parse_ok(&"* @a\n".repeat(20_000));
    assert_eq!(line_of(&owners, "a/b/c"), Some(20_000));
    let owners = parse_ok("/docs/ @a\n*.md @b\n/docs/ @c\n");
    assert_eq!(owner_texts(owners.single("docs/a.md")), ["@c"]);
    assert_eq!(owner_texts(owners.single("a.md")), ["@b"]);
}

#[test]
fn question_mark_matches_one_character() {
    let owners = parse_ok("?.md @a\n??.md @b\n");
    assert_eq!(line_of(&owners, "a.md"), Some(1));
    assert_eq!(line_of(&owners, "é.md"), Some(1));
    assert_eq!(line_of(&owners, "ab.md"), Some(2));
}

/// The matcher agrees with `globset` on the globs the patterns translate
/// to (one set a rule, the last match wins).
#[test]
fn the_matcher_agrees_with_globset() {
    let text = "* @a\n/docs/ @b\ndocs/*.md\n*.rs @c\nsrc/**/x @d\n**/tmp/ @e\na?c/*.txt @f\n";
    let owners = parse_ok(text);
    let mut sets = Vec::new();
    for rule in owners.rules() {
        let mut builder = GlobSetBuilder::new();
        for glob in translate(&rule.pattern).expect("valid") {
            builder.add(build_glob(&glob).expect("compiles"));
        }
        sets.push(builder.build().expect("builds"));
    }
    for path in [
        "a",
        "docs/a.md",
        "docs/x/a.md",
        "docs/a.rs",
        "src/a.rs",
        "docs/x.txt",
        "src/x",
        "src/a/b/x",
        "src/x/y",
        "tmp/a",
        "a/tmp/b",
        "abc/d.txt",
        "abc/e/d.txt",
        "docs/",
    ] {
        let reference = sets.iter().rposition(|set| set.is_match(path));
        let ours = owners
            .single(path)
            .and_then(|rule| owners.rules().iter().position(|r| r == rule));
        assert_eq!(ours, reference, "{path}");
    }
}

/// 75,000 rules are read in memory proportional to the file: nothing is
/// compiled until a path is asked about, and then only a small matcher
/// per rule.
#[test]
fn a_large_file_is_matched_without_compiling_globs() {
    let mut text = String::new();
    for i in 0..75_000 {
        text.push_str(&format!("/src/module{i}/**/*.rs @team{i}\n"));
    }
    let owners = parse_ok(&text);
    assert!(owners.index.get().is_none());
    assert_eq!(line_of(&owners, "src/module74999/a/b.rs"), Some(75_000));
    assert_eq!(line_of(&owners, "src/module3/b.rs"), Some(4));
    assert_eq!(line_of(&owners, "other/b.rs"), None);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Semantics spelled out on segments, independently of globset: the
    /// oracle for the translation to globs.
    fn oracle(pattern: &str, path: &str) -> bool {
        let mut segments: Vec<&str> = pattern.split('/').collect();
        if segments[0].is_empty() {
            segments.remove(0);
        } else if (segments.len() == 1 || (segments.len() == 2 && segments[1].is_empty()))
            && segments[0] != "**"
        {
            segments.insert(0, "**");
        }
        if segments.len() > 1 && segments.last() == Some(&"") {
            segments.pop();
            segments.push("**");
        }
        let path: Vec<&str> = path.split('/').collect();
        matches_from(&segments, &path)
    }

    fn matches_from(pattern: &[&str], path: &[&str]) -> bool {
        match pattern {
            [] => path.is_empty(),
            ["**"] => !path.is_empty(),
            ["**", rest @ ..] => (0..=path.len()).any(|k| matches_from(rest, &path[k..])),
            [segment, rest @ ..] => {
                let Some((first, more)) = path.split_first() else {
                    return false;
                };
                if !segment_matches(segment.as_bytes(), first.as_bytes()) {
                    return false;
                }
                if !rest.is_empty() {
                    matches_from(rest, more)
                } else {
                    // A last segment owns what is below it, except `*`.
                    more.is_empty() || segment.chars().any(|c| c != '*')
                }
            }
        }
    }

    fn segment_matches(pattern: &[u8], name: &[u8]) -> bool {
        match pattern.split_first() {
            None => name.is_empty(),
            Some((b'*', rest)) => (0..=name.len()).any(|k| segment_matches(rest, &name[k..])),
            Some((b'?', rest)) => !name.is_empty() && segment_matches(rest, &name[1..]),
            Some((c, rest)) => name.first() == Some(c) && segment_matches(rest, &name[1..]),
        }
    }

    fn pattern_strategy() -> impl Strategy<Value = String> {
        let segment = prop::sample::select(vec!["a", "b", "ab", "*", "**", "a*", "*b", "?", "a?b"]);
        (
            any::<bool>(),
            prop::collection::vec(segment, 1..4),
            any::<bool>(),
        )
            .prop_map(|(lead, segments, trail)| {
                let mut s = String::new();
                if lead {
                    s.push('/');
                }
                s.push_str(&segments.join("/"));
                if trail {
                    s.push('/');
                }
                s
            })
    }

    fn path_strategy() -> impl Strategy<Value = String> {
        prop::collection::vec("[ab]{1,3}", 1..5).prop_map(|s| s.join("/"))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn globs_agree_with_the_segment_oracle(
            pattern in pattern_strategy(),
            paths in prop::collection::vec(path_strategy(), 1..8),
        ) {
            let owners = parse_ok(&format!("{pattern} @o\n"));
            for path in &paths {
                prop_assert_eq!(
                    owners.single(path).is_some(),
                    oracle(&pattern, path),
                    "pattern {:?} path {:?} globs {:?}", pattern, path, translate(&pattern)
                );
            }
        }

        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
            check(&text);
        }

        #[test]
        fn codeowners_like_text_never_panics(
            text in "[ab/*?\\\\#!\\[\\]{}@. \\t\\r\\n\u{feff}é]{0,120}"
        ) {
            check(&text);
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
            check(&String::from_utf8_lossy(&bytes));
        }

        /// Any pattern against any path: an answer, never a panic, and
        /// the answer is the rule's own (`@o`) or none.
        #[test]
        fn owners_of_answers_for_any_pattern_and_path(
            pattern in "[ab/*?\\\\ ]{1,12}",
            path in "[ab/.\\\\*?é ]{0,16}",
        ) {
            let (owners, _) = parse(&format!("{pattern} @o\n"));
            if let Some(rule) = owners.single(&path) {
                prop_assert_eq!(rule.owners.len(), 1);
                prop_assert_eq!(rule.owners[0].text.as_str(), "@o");
                prop_assert_eq!(rule.line, 1);
            }
        }
    }
}

// -- real files ---------------------------------------------------------

fn corpus_file(project: &str) -> Option<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/others")
        .join(project)
        .join(".github/CODEOWNERS");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        // Skipped without the corpus, which CI always has.
        Err(e) => {
            let on_ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
            assert!(!on_ci, "CI=true, but {}: {e}", path.display());
            eprintln!("skipped: {} not present", path.display());
            None
        }
    }
}

#[test]
fn real_file_rust_lang_team() {
    let Some(text) = corpus_file("rust-lang-team") else {
        return;
    };
    let owners = parse_ok(&text);
    check_invariants(&text, &owners, &[]);
    let admins = [
        "@Mark-Simulacrum",
        "@emilyalbini",
        "@jdno",
        "@marcoieni",
        "@ubiratansoares",
    ];
    // The catch-all requires admins.
    assert_eq!(owner_texts(owners.single("src/main.rs")), admins);
    assert_eq!(owner_texts(owners.single(".github/CODEOWNERS")), admins);
    // Data files are unowned...
    for path in [
        "people/someone.toml",
        "teams/compiler.toml",
        "repos/rust-lang/cargo.toml",
    ] {
        let rule = owners.single(path).expect("a rule");
        assert!(rule.owners.is_empty(), "{path}: {rule:?}");
        assert!(rule.pattern.ends_with("/**/*.toml"), "{path}: {rule:?}");
    }
    // ... and so is Markdown ...
    let rule = owners.single("docs/README.md").expect("a rule");
    assert_eq!((rule.pattern.as_str(), rule.owners.len()), ("*.md", 0));
    // ... except the listed files, which need admins again.
    for path in [
        "repos/rust-lang/team.toml",
        "teams/infra-admins.toml",
        "people/jdno.toml",
    ] {
        assert_eq!(owner_texts(owners.single(path)), admins, "{path}");
    }
    // Not a data file: `/people/**/*.toml` needs a `.toml` under people/.
    assert_eq!(owner_texts(owners.single("people/notes.txt")), admins);
    assert_eq!(owner_texts(owners.single("src/people/x.toml")), admins);
}

#[test]
fn real_file_all_contributors() {
    let Some(text) = corpus_file("all-contributors") else {
        return;
    };
    let owners = parse_ok(&text);
    assert_eq!(owners.rules().len(), 1);
    for path in ["README.md", "docs/en/overview.md", ".github/CODEOWNERS"] {
        let rule = owners.single(path).expect("owned");
        assert_eq!(owner_texts(Some(rule)), ["@all-contributors/core"]);
        assert_eq!(rule.owners[0].kind, OwnerKind::Team);
    }
}

/// The index finds the same rule as trying every rule from the last: over
/// anchored, floating and wildcard patterns and paths that share and
/// differ in their leading folders.
#[test]
fn the_rule_index_agrees_with_trying_every_rule() {
    let text = "\
*            @all
/src/        @src
src/gen/     @gen
/src/a/*.rs  @a
docs         @docs
**/test/**   @test
/src/a/b     @b
*.md         @md
/src/*/c/    @c
/x/y/z.txt   @z
/src/a/b/    @b2
";
    let owners = parse_ok(text);
    let paths = [
        "src/main.rs",
        "src/a/x.rs",
        "src/a/b",
        "src/a/b/c.txt",
        "src/q/c/d.rs",
        "src/gen/x",
        "lib/src/gen/y",
        "docs/x/README.md",
        "a/docs",
        "test/t.rs",
        "a/test/b/c",
        "x/y/z.txt",
        "x/y/z.txt/w",
        "x/y",
        "README.md",
        "other",
    ];
    for path in paths {
        let slow = owners
            .rules()
            .iter()
            .rposition(|r| pattern::compile(&r.pattern).expect("valid").matches(path));
        assert_eq!(owners.rules_of(path).first().copied(), slow, "{path}");
        let mut all = Vec::new();
        owners.rules_matching(path, &mut all);
        let every: Vec<usize> = (0..owners.rules().len())
            .filter(|&i| {
                pattern::compile(&owners.rules()[i].pattern)
                    .expect("valid")
                    .matches(path)
            })
            .collect();
        assert_eq!(all, every, "{path}");
    }
    // Marking over every path marks exactly the rules some path matches.
    let mut marked = vec![false; owners.rules().len()];
    let mut expected = vec![false; owners.rules().len()];
    for path in paths {
        assert_eq!(
            owners.rules_of_marking(path, &mut marked).first().copied(),
            owners.rules_of(path).first().copied(),
            "{path}"
        );
        let mut all = Vec::new();
        owners.rules_matching(path, &mut all);
        for i in all {
            expected[i] = true;
        }
    }
    assert_eq!(marked, expected);
}
