//! End-to-end: real books built by real mdBook binaries with the plugin.
//!
//! They run with mdBook 0.5 and mdBook 0.4: `MDBOOK_05` and `MDBOOK_04`
//! name the binaries (`.ci/run` installs 0.5.4 and 0.4.52 and sets both).
//! For a generation whose variable is unset, the `mdbook` on `PATH` runs if
//! it is of that generation; with neither, the tests of that generation are
//! skipped. The first test to start says which mdBooks run (on stderr,
//! past the test harness's capture).

mod common;

use std::path::Path;
use std::process::Command;

use common::mdbook::{Generation, Mdbook, choose, describe};

/// A book on disk, using this checkout's binary as its preprocessor.
struct TestBook {
    dir: tempfile::TempDir,
}

impl TestBook {
    /// A book with `extra` appended to book.toml and `files` under the root
    /// (paths relative to the book root; chapters go under `src/`).
    fn new(extra_toml: &str, files: &[(&str, &str)]) -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let binary = env!("CARGO_BIN_EXE_mdbook-community");
        let toml = format!(
            "[book]\ntitle = \"Test\"\n\n[preprocessor.community]\ncommand = {binary:?}\nafter = [\"links\"]\n{extra_toml}\n"
        );
        std::fs::write(dir.path().join("book.toml"), toml).expect("write book.toml");
        for (path, content) in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().expect("has parent")).expect("mkdir");
            std::fs::write(full, content).expect("write file");
        }
        TestBook { dir }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    /// `mdbook build` in the book's folder, as a user runs it.
    fn build(&self, mdbook: &Mdbook) -> std::process::Output {
        Command::new(mdbook.binary())
            .arg("build")
            .current_dir(self.root())
            .env("PWD", self.root())
            .env_remove("GITHUB_ACTIONS")
            .output()
            .expect("mdbook runs")
    }

    fn build_ok(&self, mdbook: &Mdbook) -> String {
        let output = self.build(mdbook);
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        assert!(
            output.status.success(),
            "{mdbook:?} build failed:\n{stderr}"
        );
        stderr
    }

    /// The search index mdBook wrote (`searchindex.js`, or with a content
    /// hash in its name in mdBook 0.5).
    fn search_index(&self) -> String {
        let dir = self.root().join("book");
        let name = std::fs::read_dir(&dir)
            .expect("build output")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .find(|n| n.starts_with("searchindex") && n.ends_with(".js"))
            .unwrap_or_else(|| panic!("no search index in {}", dir.display()));
        self.read(&format!("book/{name}"))
    }

    fn read(&self, path: &str) -> String {
        let full = self.root().join(path);
        std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
    }
}

#[test]
fn both_mdbooks_accept_the_answer_and_chapters_stay_byte_identical() {
    // mdBook's `links` removes one backslash from an escaped `\\{{#...}}`, so a
    // book that runs it first writes two to show a directive as text.
    let chapter = "# Plain\r\n\r\nText with `{{#maintainers}}` in code and \\\\{{#person x}} escaped.\r\n\r\n| a | b |\r\n|---|---|\r\n| 1 | 2 |\r\n";
    for mdbook in Mdbook::all() {
        let book = TestBook::new(
            "[output.markdown]\n[output.html]\n",
            &[
                ("src/SUMMARY.md", "[Plain](plain.md)\n"),
                ("src/plain.md", chapter),
            ],
        );
        book.build_ok(mdbook);
        // The markdown renderer writes chapters as preprocessors left them.
        let rendered = book.read("book/markdown/plain.md");
        let expected = chapter.replace("\\\\{{#person", "\\{{#person");
        assert_eq!(rendered, expected, "{mdbook:?}");
        assert!(
            book.read("book/html/plain.html").contains("<table>"),
            "{mdbook:?}"
        );
    }
}

#[test]
fn a_settings_error_stops_mdbook_with_the_location() {
    for mdbook in Mdbook::all() {
        let book = TestBook::new(
            "on-eror = \"warn\"\n",
            &[("src/SUMMARY.md", "[A](a.md)\n"), ("src/a.md", "# A\n")],
        );
        let output = book.build(mdbook);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{mdbook:?}");
        assert!(
            stderr.contains("unknown key `on-eror`"),
            "{mdbook:?}: {stderr}"
        );
        assert!(stderr.contains("book.toml:7:1"), "{mdbook:?}: {stderr}");
        assert!(!book.root().join("book/index.html").exists());
    }
}

const FAQ_CHAPTER: &str = "# FAQ\n\n```faq\n## How can I contribute as a reviewer?\nReproduce issues; the word zebracorn appears only here.\n\n## CI tests failed, what does it mean?\nAsk {{#person ezyang}}.\n\n## CI tests failed, what does it mean?\nA duplicate question.\n```\n";

const PEOPLE: &str = "[people.ezyang]\nname = \"Edward Yang\"\n\n[people.soumith]\nname = \"Soumith Chintala\"\n\n[[groups]]\nid = \"core\"\ntitle = \"Core Maintainers\"\nmembers = [\"soumith\", { handle = \"ezyang\", status = \"emeritus\" }]\n";

fn faq_book() -> TestBook {
    TestBook::new(
        "",
        &[
            ("maintainers.toml", PEOPLE),
            ("src/SUMMARY.md", "[FAQ](faq.md)\n[People](people.md)\n"),
            ("src/faq.md", FAQ_CHAPTER),
            (
                "src/people.md",
                "# People\n\n{{#maintainers}}\n\nThe lead is {{#person soumith}}.\n",
            ),
        ],
    )
}

#[test]
fn faq_questions_get_ids_anchors_and_search_entries() {
    for mdbook in Mdbook::all() {
        let book = faq_book();
        book.build_ok(mdbook);
        let html = book.read("book/faq.html");
        let ids = [
            "how-can-i-contribute-as-a-reviewer",
            "ci-tests-failed-what-does-it-mean",
            "ci-tests-failed-what-does-it-mean-1",
        ];
        for id in ids {
            assert!(
                html.contains(&format!("id=\"{id}\"")),
                "{mdbook:?}: no id {id}\n{html}"
            );
            assert!(
                html.contains(&format!("href=\"#{id}\"")),
                "{mdbook:?}: no anchor for {id}"
            );
        }
        assert_eq!(
            html.matches("<details class=\"community-faq-entry\">")
                .count(),
            3,
            "{mdbook:?}"
        );
        assert!(html.contains("<summary>"), "{mdbook:?}");
        assert!(
            html.contains("Edward Yang (<a href=\"https://github.com/ezyang\">ezyang</a>)"),
            "{mdbook:?}: directive inside an answer\n{html}"
        );
        let index = book.search_index();
        for id in ids {
            assert!(
                index.contains(&format!("faq.html#{id}")),
                "{mdbook:?}: no search entry for {id}"
            );
        }
        assert!(
            index.contains("zebracorn"),
            "{mdbook:?}: answer text not indexed"
        );
    }
}

#[test]
fn maintainer_hierarchy_renders_linked_headings_and_profiles() {
    for mdbook in Mdbook::all() {
        let book = faq_book();
        book.build_ok(mdbook);
        let html = book.read("book/people.html");
        assert!(
            html.contains("id=\"core-maintainers\""),
            "{mdbook:?}\n{html}"
        );
        assert!(
            html.contains("<a href=\"https://github.com/soumith\">soumith</a>"),
            "{mdbook:?}"
        );
        assert!(html.contains("(emeritus) Edward Yang"), "{mdbook:?}");
        assert!(html.contains("The lead is Soumith Chintala"), "{mdbook:?}");
    }
}

#[test]
fn errors_fail_the_build_and_warn_mode_builds_with_notes() {
    for mdbook in Mdbook::all() {
        let files = [
            ("maintainers.toml", PEOPLE),
            ("src/SUMMARY.md", "[A](a.md)\n"),
            (
                "src/a.md",
                "# A\n\n{{#maintainers cor}}\n\nText {{#person nobody}} here.\n",
            ),
        ];
        let book = TestBook::new("", &files);
        let output = book.build(mdbook);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{mdbook:?}");
        assert!(stderr.contains("src/a.md:3:16"), "{mdbook:?}: {stderr}");
        assert!(
            stderr.contains("did you mean `core`?"),
            "{mdbook:?}: {stderr}"
        );
        assert!(stderr.contains("src/a.md:5:16"), "{mdbook:?}: {stderr}");

        let book = TestBook::new("on-error = \"warn\"\n", &files);
        let stderr = book.build_ok(mdbook);
        assert!(
            stderr.contains("warning[C505]: no group `cor`"),
            "{mdbook:?}: {stderr}"
        );
        let html = book.read("book/a.html");
        assert!(
            html.contains("mdbook-community error:"),
            "{mdbook:?}: {html}"
        );
        // The message's code spans show as code.
        assert!(
            html.contains("Text <strong>[mdbook-community error: no person <code>nobody</code> in <code>maintainers.toml</code>]</strong>"),
            "{mdbook:?}: {html}"
        );
    }
}

#[test]
fn escaped_directives_show_as_text() {
    for mdbook in Mdbook::all() {
        let book = TestBook::new(
            "",
            &[
                ("src/SUMMARY.md", "[A](a.md)\n"),
                (
                    "src/a.md",
                    "# A\n\nWrite \\\\{{#person octocat}} to mention someone.\n",
                ),
            ],
        );
        book.build_ok(mdbook);
        let html = book.read("book/a.html");
        assert!(
            html.contains("Write {{#person octocat}} to mention someone."),
            "{mdbook:?}: {html}"
        );
    }
}

const CONTRIBUTING: &str =
    "# Contributing to Example\n\n## Reporting Issues\n\n## Common Mistakes\n";

#[test]
fn links_into_a_contributing_chapter_and_to_faq_questions_are_checked() {
    for mdbook in Mdbook::all() {
        let book = TestBook::new(
            "check-anchors = \"error\"\n",
            &[
                ("CONTRIBUTING.md", CONTRIBUTING),
                (
                    "src/SUMMARY.md",
                    "[Guide](guide/index.md)\n[FAQ](faq.md)\n[Contributing](contributing.md)\n",
                ),
                ("src/contributing.md", "{{#include ../CONTRIBUTING.md}}\n"),
                (
                    "src/faq.md",
                    "# FAQ\n\n```faq\n## How do I start?\nRead {{#contributing #reporting-issues}}.\n```\n",
                ),
                (
                    "src/guide/index.md",
                    "# Guide\n\nSee {{#contributing Common Mistakes}}, {{#ref ../faq.md#how-do-i-start}} and [the answer](../faq.md#how-do-i-start).\n",
                ),
            ],
        );
        book.build_ok(mdbook);
        let html = book.read("book/guide/index.html");
        assert!(
            html.contains("<a href=\"../contributing.html#common-mistakes\">Common Mistakes</a>"),
            "{mdbook:?}: {html}"
        );
        assert!(
            html.contains("<a href=\"../faq.html#how-do-i-start\">How do I start?</a>"),
            "{mdbook:?}: {html}"
        );
        let faq = book.read("book/faq.html");
        assert!(
            faq.contains("<a href=\"contributing.html#reporting-issues\">Reporting Issues</a>"),
            "{mdbook:?}: {faq}"
        );
        assert!(
            book.read("book/contributing.html")
                .contains("id=\"common-mistakes\""),
            "{mdbook:?}"
        );
    }
}

#[test]
fn links_to_the_repository_and_broken_anchors() {
    for mdbook in Mdbook::all() {
        let files = [
            ("CONTRIBUTING.md", CONTRIBUTING),
            ("src/SUMMARY.md", "[A](a.md)\n[FAQ](faq.md)\n"),
            (
                "src/faq.md",
                "# FAQ\n\n```faq\n## How do I start?\nRead on.\n```\n",
            ),
            (
                "src/a.md",
                "# A\n\n{{#contributing #reporting-issues}}\n\n[broken](faq.md#how-do-i-stat)\n",
            ),
        ];
        let url = "contributing-url = \"https://github.com/o/r/blob/main/CONTRIBUTING.md\"\n";
        let book = TestBook::new(url, &files);
        let stderr = book.build_ok(mdbook);
        assert!(
            stderr.contains("warning[C601]: broken link: no heading `#how-do-i-stat` in `faq.md`"),
            "{mdbook:?}: {stderr}"
        );
        assert!(
            stderr.contains("did you mean `#how-do-i-start`?"),
            "{mdbook:?}: {stderr}"
        );
        let html = book.read("book/a.html");
        assert!(
            html.contains("<a href=\"https://github.com/o/r/blob/main/CONTRIBUTING.md#reporting-issues\">Reporting Issues</a>"),
            "{mdbook:?}: {html}"
        );
        let book = TestBook::new(&format!("{url}check-anchors = \"error\"\n"), &files);
        let output = book.build(mdbook);
        assert!(
            !output.status.success(),
            "{mdbook:?}: check-anchors = error must fail the build"
        );
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("src/a.md:5:16"),
            "{mdbook:?}"
        );
    }
}

#[test]
fn errors_point_at_the_files_authors_edit_despite_includes() {
    for mdbook in Mdbook::all() {
        let book = TestBook::new(
            "",
            &[
                ("maintainers.toml", PEOPLE),
                ("src/SUMMARY.md", "[A](a.md)\n"),
                (
                    "src/header.md",
                    "Line one.\n\nLine two.\n\nAsk {{#person nobdy}} here.\n",
                ),
                (
                    "src/a.md",
                    "# A\n\n{{#include header.md}}\n\nThen {{#person ezyng}}.\n",
                ),
            ],
        );
        let output = book.build(mdbook);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{mdbook:?}");
        // Line 5 of a.md, not line 9 of the text mdBook sent.
        assert!(stderr.contains("--> src/a.md:5:16"), "{mdbook:?}: {stderr}");
        // The included file's own line.
        assert!(
            stderr.contains("--> src/header.md:5:15"),
            "{mdbook:?}: {stderr}"
        );
    }
}

#[test]
fn the_variables_come_first_then_the_mdbook_on_path() {
    let version = |path: &Path| match path.to_str() {
        Some("mdbook") => Some("0.5.4".to_string()),
        Some("/opt/mdbook-0.4.52") => Some("0.4.52".to_string()),
        Some("/opt/mdbook-0.5.1") => Some("0.5.1".to_string()),
        _ => None,
    };
    let versions = |all: Vec<Mdbook>| -> Vec<(String, String)> {
        all.into_iter().map(|m| (m.version, m.from)).collect()
    };
    let on_path = "the `mdbook` on PATH".to_string();
    assert_eq!(
        versions(choose(None, None, version)),
        [("v0.5.4".to_string(), on_path.clone())]
    );
    assert_eq!(
        versions(choose(None, Some("/opt/mdbook-0.4.52".into()), version)),
        [
            ("v0.5.4".to_string(), on_path),
            ("v0.4.52".to_string(), "MDBOOK_04".to_string())
        ]
    );
    assert_eq!(
        versions(choose(Some("/opt/mdbook-0.5.1".into()), None, version)),
        [("v0.5.1".to_string(), "MDBOOK_05".to_string())]
    );
    assert!(choose(None, None, |_: &Path| None).is_empty());
    let line = describe(&choose(None, None, version));
    assert!(
        line.contains("mdBook v0.5.4 (mdbook, from the `mdbook` on PATH)")
            && line.contains(
                "no mdBook 0.4 (its tests are skipped: put one on PATH or set MDBOOK_04)"
            ),
        "{line}"
    );
}

/// Without `MDBOOK_05` and `MDBOOK_04`, `cargo test` runs these tests with
/// the `mdbook` on PATH, and says so.
#[test]
fn without_the_variables_the_mdbook_on_path_runs() {
    let Some(mdbook) = Mdbook::of(Generation::V05) else {
        return;
    };
    let Ok(real) = std::fs::canonicalize(mdbook.binary()) else {
        return; // the one on PATH already
    };
    let out = Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "escaped_directives_show_as_text",
            "--test-threads=1",
        ])
        .env_remove("MDBOOK_05")
        .env_remove("MDBOOK_04")
        // Only one generation is on PATH: not a CI run.
        .env_remove("CI")
        .env("PATH", path_with(&[real.parent().expect("dir")]))
        .output()
        .expect("the tests run");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("1 passed"), "{stdout}");
    assert!(
        stderr.contains(&format!(
            "tests with a real mdBook run with mdBook {} (mdbook, from the `mdbook` on PATH)",
            mdbook.version
        )),
        "{stderr}"
    );
}

/// mdBook runs the plugin once per renderer: warnings are printed once a
/// build, errors fail every run.
#[test]
fn warnings_are_printed_once_with_two_renderers() {
    for mdbook in Mdbook::all() {
        let files = [
            ("src/SUMMARY.md", "[A](a.md)\n"),
            ("src/a.md", "# A\n\n[broken](#nowhere) {{#persn x}}\n"),
        ];
        let book = TestBook::new("[output.html]\n[output.markdown]\n", &files);
        let stderr = book.build_ok(mdbook);
        for warning in ["warning[C601]: broken link", "warning[C501]: `{{#persn}}`"] {
            assert_eq!(
                stderr.matches(warning).count(),
                1,
                "{mdbook:?}: {warning}\n{stderr}"
            );
        }
        assert!(
            book.root().join("book/markdown/a.md").is_file(),
            "{mdbook:?}"
        );
        // `renderers` leaves HTML out: the markdown run is the first.
        let book = TestBook::new(
            "renderers = [\"markdown\"]\n[output.html]\n[output.markdown]\n",
            &files,
        );
        let stderr = book.build_ok(mdbook);
        assert_eq!(
            stderr.matches("warning[C601]: broken link").count(),
            1,
            "{mdbook:?}: {stderr}"
        );
    }
}

/// A book in a folder of a repository, with CODEOWNERS and CONTRIBUTING
/// (included as a chapter) in the repository root: annotations name every
/// file relative to the repository, the terminal relative to the folder
/// `mdbook` runs in.
#[test]
fn paths_in_annotations_and_on_the_terminal() {
    for mdbook in Mdbook::all() {
        let repo = common::book_root(&[
            (".git/HEAD", "ref: refs/heads/main\n"),
            ("CODEOWNERS", "* @a\n/docs/ ezyang\n"),
            ("CONTRIBUTING.md", "# Contributing\n\nSee [x](#nowhere).\n"),
            (
                "community/src/SUMMARY.md",
                "[A](a.md)\n[C](contributing.md)\n",
            ),
            (
                "community/src/a.md",
                "# A\n\n{{#codeowners}}\n\n[b](#nope)\n",
            ),
            (
                "community/src/contributing.md",
                "{{#include ../../CONTRIBUTING.md}}\n",
            ),
        ]);
        let repo = repo.path();
        let book = TestBook::new("", &[]);
        std::fs::copy(
            book.root().join("book.toml"),
            repo.join("community/book.toml"),
        )
        .expect("copy book.toml");
        let build = |dir: &Path, args: &[&str]| {
            let out = Command::new(mdbook.binary())
                .arg("build")
                .args(args)
                .current_dir(dir)
                .env("PWD", dir)
                .env("GITHUB_ACTIONS", "true")
                .env("GITHUB_WORKSPACE", repo)
                .output()
                .expect("mdbook runs");
            let stderr = String::from_utf8_lossy(&out.stderr).to_string();
            assert!(out.status.success(), "{mdbook:?}: {stderr}");
            assert!(
                !stderr.contains("community/..") && !stderr.contains("community//"),
                "{mdbook:?}: {stderr}"
            );
            stderr
        };
        let annotations = [
            "::warning file=CODEOWNERS,line=2,col=8,title=C301 codeowners-syntax::invalid owner `ezyang`",
            "::warning file=community/src/a.md,line=5,col=5,title=C601 broken-anchor::broken link",
            "::warning file=CONTRIBUTING.md,line=3,col=9,title=C601 broken-anchor::broken link",
        ];
        // From the repository root.
        let stderr = build(repo, &["community"]);
        for expected in annotations.iter().chain(&[
            "--> CODEOWNERS:2:8",
            "--> community/src/a.md:5:5",
            "--> CONTRIBUTING.md:3:9",
        ]) {
            assert!(
                stderr.contains(expected),
                "{mdbook:?}: {expected}\n{stderr}"
            );
        }
        // From the book's folder: files outside it by their full path.
        let stderr = build(&repo.join("community"), &[]);
        let real = repo.canonicalize().expect("repo");
        let outside = format!("--> {}:2:8", real.join("CODEOWNERS").display());
        for expected in annotations
            .iter()
            .chain(&["--> src/a.md:5:5", outside.as_str()])
        {
            assert!(
                stderr.contains(expected),
                "{mdbook:?}: {expected}\n{stderr}"
            );
        }
    }
}

/// A link to an `id-prefix` question works, and is checked, in every
/// renderer's run.
#[test]
fn faq_id_prefix_links_work_with_a_second_renderer() {
    for mdbook in Mdbook::all() {
        let book = TestBook::new(
            "check-anchors = \"error\"\n[output.html]\n[output.markdown]\n",
            &[
                ("src/SUMMARY.md", "[FAQ](faq.md)\n[A](a.md)\n"),
                (
                    "src/faq.md",
                    "# FAQ\n\n```faq id-prefix=q-\n## Why?\nBecause.\n```\n",
                ),
                ("src/a.md", "# A\n\nSee {{#ref faq.md#q-why}}.\n"),
            ],
        );
        book.build_ok(mdbook);
        let html = book.read("book/html/faq.html");
        assert!(html.contains("id=\"q-why\""), "{mdbook:?}: {html}");
        let markdown = book.read("book/markdown/faq.md");
        assert!(
            markdown.contains("## Why? {#q-why}"),
            "{mdbook:?}: {markdown}"
        );
        for a in ["book/html/a.html", "book/markdown/a.md"] {
            let page = book.read(a);
            assert!(
                page.contains("faq.md#q-why") || page.contains("faq.html#q-why"),
                "{mdbook:?}: {page}"
            );
        }
    }
}

/// mdBook 0.4 builds the book with the directives as text when the plugin
/// is not on PATH; the guard the guide gives for CI fails then.
#[test]
fn the_ci_guard_fails_when_the_plugin_is_not_on_path() {
    let guard = code_blocks("installation.md")
        .into_iter()
        .map(|(_, text)| text)
        .find(|text| text.contains("mdbook-community --version"))
        .expect("the guard in the Installation page");
    let ci = code_blocks("ci.md")
        .into_iter()
        .any(|(_, text)| text.contains(guard.trim()));
    assert!(ci, "the CI page shows the guard: {guard}");
    let empty = tempfile::tempdir().expect("tempdir");
    let run = |path: &Path| {
        Command::new("sh")
            .arg("-ec")
            .arg(&guard)
            .env(
                "PATH",
                std::env::join_paths([path, Path::new("/usr/bin"), Path::new("/bin")])
                    .expect("PATH"),
            )
            .output()
            .expect("sh runs")
    };
    assert!(!run(empty.path()).status.success(), "{guard}");
    let plugin = Path::new(env!("CARGO_BIN_EXE_mdbook-community"));
    let out = run(plugin.parent().expect("dir"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // What the guard is for.
    if let Some(mdbook) = Mdbook::of(Generation::V04) {
        let book = TestBook::new(
            "",
            &[
                ("src/SUMMARY.md", "[A](a.md)\n"),
                ("src/a.md", "{{#person a}}\n"),
            ],
        );
        let toml = book.read("book.toml");
        let toml = toml.replace(
            env!("CARGO_BIN_EXE_mdbook-community"),
            "mdbook-community-not-installed",
        );
        std::fs::write(book.root().join("book.toml"), toml).expect("write");
        let out = book.build(mdbook);
        assert!(out.status.success(), "{mdbook:?}");
        assert!(
            book.read("book/a.html").contains("{{#person a}}"),
            "{mdbook:?}"
        );
    }
}

/// The fenced code blocks of a guide chapter, in order: (info string, text).
fn code_blocks(chapter: &str) -> Vec<(String, String)> {
    use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("book")
            .join(chapter),
    )
    .expect("guide chapter");
    let mut blocks = Vec::new();
    let mut current: Option<(String, String)> = None;
    for event in Parser::new(&text) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                current = Some((info.to_string(), String::new()))
            }
            Event::Text(t) => {
                if let Some((_, body)) = current.as_mut() {
                    body.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => blocks.extend(current.take()),
            _ => {}
        }
    }
    blocks
}

/// A `PATH` with `dirs` first.
fn path_with(dirs: &[&Path]) -> std::ffi::OsString {
    let rest = std::env::var_os("PATH").unwrap_or_default();
    let dirs = dirs.iter().map(|d| d.to_path_buf());
    std::env::join_paths(dirs.chain(std::env::split_paths(&rest))).expect("PATH")
}

/// Step 2 of the quick start, with this checkout's binary as the
/// installed plugin: the book it makes rebuilds under `mdbook serve` when
/// `maintainers.toml`, written in step 3, changes.
#[test]
fn the_quick_starts_book_watches_the_data_file() {
    let Some(mdbook) = Mdbook::of(Generation::V05) else {
        return;
    };
    let blocks = code_blocks("quick-start.md");
    let (_, init) = &blocks[2];
    let work = tempfile::tempdir().expect("tempdir");
    let plugin = Path::new(env!("CARGO_BIN_EXE_mdbook-community"));
    let mdbook_dir = std::fs::canonicalize(mdbook.binary())
        .ok()
        .and_then(|p| Some(p.parent()?.to_path_buf()));
    let mut dirs = vec![plugin.parent().expect("dir")];
    dirs.extend(mdbook_dir.as_deref());
    let out = Command::new("sh")
        .arg("-ec")
        .arg(init)
        .current_dir(work.path())
        .env("PATH", path_with(&dirs))
        .output()
        .expect("sh runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let book = work.path().join("my-community");
    let toml = std::fs::read_to_string(book.join("book.toml")).expect("book.toml");
    assert!(toml.contains("extra-watch-dirs = [\".\"]"), "{toml}");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(!report.contains("will not rebuild"), "{report}");
}

/// Step 2 of the quick start as written, in a repository with a
/// `MAINTAINERS.md`, a CODEOWNERS and a CONTRIBUTING.md: `init`, then
/// `mdbook build docs`, with this checkout's binary as the plugin.
#[test]
fn the_quick_starts_init_builds_a_book_from_a_repository() {
    let Some(mdbook) = Mdbook::of(Generation::V05) else {
        return;
    };
    let blocks = code_blocks("quick-start.md");
    let (_, steps) = &blocks[1];
    assert!(steps.contains("mdbook-community init"), "{steps}");
    let work = tempfile::tempdir().expect("tempdir");
    let repo = work.path().join("your-project");
    for (path, text) in [
        ("MAINTAINERS.md", "# Maintainers\n\n* Ada Lovelace (@ada)\n"),
        (
            "CONTRIBUTING.md",
            "# Contributing\n\nSend a pull request.\n",
        ),
        (".github/CODEOWNERS", "* @ada\n"),
        (".git/HEAD", "ref: refs/heads/main\n"),
    ] {
        let full = repo.join(path);
        std::fs::create_dir_all(full.parent().expect("dir")).expect("mkdir");
        std::fs::write(full, text).expect("write");
    }
    let plugin = Path::new(env!("CARGO_BIN_EXE_mdbook-community"));
    let mdbook_dir = std::fs::canonicalize(mdbook.binary())
        .ok()
        .and_then(|p| Some(p.parent()?.to_path_buf()));
    let mut dirs = vec![plugin.parent().expect("dir")];
    dirs.extend(mdbook_dir.as_deref());
    let out = Command::new("sh")
        .arg("-ec")
        .arg(steps)
        .current_dir(work.path())
        .env("PATH", path_with(&dirs))
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("warning["), "{stderr}");
    let page = std::fs::read_to_string(repo.join("docs/book/maintainers.html")).expect("built");
    assert!(page.contains("Ada Lovelace"), "{page}");
}

#[test]
#[ignore = "installs the plugin with `cargo install` (a release build); run by .ci/run"]
fn the_quick_start_works_as_written() {
    let blocks = code_blocks("quick-start.md");
    let (_, install) = &blocks[0];
    let (_, init) = &blocks[2];
    let (_, people) = &blocks[3];
    let (_, page) = &blocks[4];
    let (_, error) = &blocks[6];
    let work = tempfile::tempdir().expect("tempdir");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Step 1 in this checkout, installing into a folder of the test's own;
    // cloning and installing mdBook need the network, and the real mdBook
    // is already here.
    let install_root = work.path().join("cargo-root");
    let offline: Vec<&str> = install
        .lines()
        .filter(|l| {
            !(l.starts_with("git clone")
                || l.starts_with("cd mdbook-community")
                || l.starts_with("cargo install --locked mdbook@"))
        })
        .collect();
    assert_eq!(offline, ["cargo install --locked --path ."], "{install}");
    let mdbook = Mdbook::of(Generation::V05).expect("the quick start needs mdBook 0.5");
    let mdbook_dir = std::fs::canonicalize(mdbook.binary())
        .ok()
        .and_then(|p| Some(p.parent()?.to_path_buf()));
    let bin = install_root.join("bin");
    let mut dirs = vec![bin.as_path()];
    dirs.extend(mdbook_dir.as_deref());
    let path = path_with(&dirs);
    let sh = |script: &str, dir: &Path| {
        Command::new("sh")
            .arg("-ec")
            .arg(script)
            .current_dir(dir)
            .env("PATH", &path)
            .env("CARGO_INSTALL_ROOT", &install_root)
            // Not target/ itself: `cargo test` holds its lock while tests run.
            .env("CARGO_TARGET_DIR", repo.join("target/quick-start"))
            .output()
            .expect("sh runs")
    };
    let out = sh(&offline.join("\n"), repo);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(install_root.join("bin/mdbook-community").is_file());
    let out = sh(init, work.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let book = work.path().join("my-community");
    std::fs::write(book.join("maintainers.toml"), people).expect("write");
    std::fs::write(book.join("src/chapter_1.md"), page).expect("write");
    let out = sh("mdbook build", &book);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // The plugin's `warning:` and mdBook's own `WARN`.
    assert!(
        !stderr.contains("warning") && !stderr.contains("WARN"),
        "{stderr}"
    );
    let html = std::fs::read_to_string(book.join("book/chapter_1.html")).expect("built");
    assert!(html.contains("id=\"who-decides\""), "{html}");
    assert!(
        html.contains("<a href=\"https://github.com/octocat\">octocat</a>"),
        "{html}"
    );
    // Break it as the chapter says, and get the error it shows.
    std::fs::write(
        book.join("src/chapter_1.md"),
        page.replace("{{#person octocat}}", "{{#person octocta}}"),
    )
    .expect("write");
    let out = sh("mdbook build", &book);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(error.trim_end()),
        "the guide shows:\n{error}\nmdBook printed:\n{stderr}"
    );
}

// -- issue 17: data is text in every context, built by real mdBooks -------

const HOSTILE_PEOPLE: &str = r###"
[people.a]
name = "Team # {onmouseover=alert(1)} jan--f {{#include ../secret.txt}}\\"
affiliation = "Aff {onclick=alert(2)} -- \\"
url = "https://example.com/a"

[people."jan--f"]
name = "Jan -- F... \"q\""
url = "https://example.com/j"

[people.b]
name = "Bee\n\n[click](javascript:alert(7))\n\n# Head {tabindex=0 onfocus=alert(8)}\n\n{{#include ../secret.txt}} {{#title Owned}}"
avatar = "https://example.com/b.png"

[[groups]]
id = "core"
title = "Core {onmouseover=alert(3)}"
description = "## Sub {onclick=alert(4)}\n\n{{#title Owned}}\n\n```\nunclosed"
members = [{ handle = "a", status = "st {tabindex=0 onfocus=alert(5)}", role = "role {onclick=alert(6)} #" }, "jan--f", "b"]

[[groups]]
id = "later"
title = "Later Group"
members = ["a"]
"###;

const HOSTILE_CHAPTER: &str = "# Hostile\n\n## Ask {{#person a}}\n\n## By {{#maintainers core style=inline}}\n\n\
| Who | x |\n|-----|---|\n| {{#person a}} | y |\n\n[see {{#person a}}](https://example.com/see)\n\n\
- {{#person jan--f}}\n\n> {{#maintainers core style=inline}}\n\n{{#maintainers core style=table}}\n\n\
{{#maintainers}}\n\n{{#maintainers core style=grid}}\n\n\
{{#maintainers core style=table columns=avatar,name,role}}\n\n```faq id-prefix=faq-\n## Q1 {{#person a}}\n\nAnswer.\n\n## Q2 {.cls}\n\nAnswer 2.\n```\n\nAfter everything.\n";

/// The `<main>` part of an mdBook page: what the chapter became.
fn main_of(html: &str) -> &str {
    let start = html.find("<main>").unwrap_or(0);
    let end = html[start..]
        .find("</main>")
        .map_or(html.len(), |e| start + e);
    &html[start..end]
}

/// Issue 17 (1, 3, 4, 13, 14, 18, 19) and issue 16 (7): hostile data in
/// every field and every context, built by mdBook 0.5.4 and 0.4.52, with
/// the plugin after mdBook's `links` and before it: no attribute, event
/// handler, element or included file comes from data; every text shows as
/// written (no smart dashes); the blocks after the directives are intact.
#[test]
fn hostile_data_is_text_in_every_context() {
    for after_links in [true, false] {
        let book = TestBook::new(
            "",
            &[
                ("maintainers.toml", HOSTILE_PEOPLE),
                ("secret.txt", "TOPSECRET"),
                ("src/SUMMARY.md", "# Summary\n\n- [Hostile](hostile.md)\n"),
                ("src/hostile.md", HOSTILE_CHAPTER),
            ],
        );
        if !after_links {
            let toml = book.read("book.toml").replace("after = [\"links\"]\n", "");
            std::fs::write(book.root().join("book.toml"), toml).expect("write book.toml");
        }
        for mdbook in Mdbook::all() {
            let _ = std::fs::remove_dir_all(book.root().join("book"));
            book.build_ok(mdbook);
            let page = book.read("book/hostile.html");
            let main = main_of(&page);
            let at = format!("{mdbook:?}, after links: {after_links}");
            // The grid's and the FAQ block's own inlined script (the
            // plugin's asset), and nothing else.
            let asset = include_str!("../assets/mdbook-community.js");
            let scripts: Vec<&str> = main.split("<script").skip(1).collect();
            assert!(scripts.len() <= 2, "{at}: <script> in\n{main}");
            for script in scripts {
                let body = script.split_once('>').map_or("", |(_, b)| b.trim_start());
                let ours = asset.trim_start().lines().next().unwrap_or(asset);
                assert!(body.starts_with(ours), "{at}: a script not ours:\n{script}");
            }
            for forbidden in ["TOPSECRET", "jan–f", "Jan – F", "<pre><code>unclosed\n\n"] {
                assert!(!main.contains(forbidden), "{at}: {forbidden} in\n{main}");
            }
            // No tag has an attribute or a URL from data (in an `alt`
            // value, quoted, text is text).
            for (name, attributes) in common::html::tags(main) {
                for attribute in &attributes {
                    let from_data = attribute.starts_with("on") || attribute == "tabindex";
                    assert!(!from_data, "{at}: <{name} {attribute}> in\n{main}");
                }
            }
            for url in common::html::markup(main) {
                assert!(!url.contains("javascript:"), "{at}: {url} in\n{main}");
            }
            assert!(!page.contains("<title>Owned"), "{at}: the title changed");
            // Issue 26 (1, 3): a name's blank lines end no grid or table;
            // its heading and link stay text.
            assert_eq!(
                main.matches("<h1").count(),
                1,
                "{at}: a heading from data\n{main}"
            );
            for shown in [
                "Bee",
                "# Head {tabindex=0 onfocus=alert(8)}",
                "[click](javascript:alert(7))",
            ] {
                assert!(main.contains(shown), "{at}: {shown:?} not in\n{main}");
            }
            for shown in [
                "Ask Team # {onmouseover=alert(1)} jan--f {{#include ../secret.txt}}\\",
                "Aff {onclick=alert(2)} -- \\</td>",
                "Core {onmouseover=alert(3)}",
                "Sub {onclick=alert(4)}",
                "{{#title Owned}}",
                "role {onclick=alert(6)} #",
                "<a href=\"https://example.com/see\">see Team #",
                "id=\"later-group\"",
                "class=\"cls\"",
                "id=\"faq-q2\"",
                "After everything.",
            ] {
                assert!(main.contains(shown), "{at}: {shown:?} not in\n{main}");
            }
            assert!(
                main.contains("Jan -- F... &quot;q&quot;") || main.contains("Jan -- F... \"q\""),
                "{at}\n{main}"
            );
        }
    }
}

/// `{{#codeowners coverage}}` in a book in `docs/` of a git repository:
/// the files git tracks (not an untracked one, not the build's output),
/// with both mdBooks, and the OWNERS tree's table.
#[test]
fn coverage_of_a_git_repository_renders_in_both_mdbooks() {
    let git = |dir: &Path, args: &[&str]| {
        let status = Command::new("git").args(args).current_dir(dir).status();
        assert!(
            status.is_ok_and(|s| s.success()) || !common::on_ci(),
            "git {args:?}"
        );
    };
    if Command::new("git").arg("--version").output().is_err() {
        assert!(!common::on_ci(), "CI=true, but git is missing");
        eprintln!("skipped: coverage_of_a_git_repository: needs git");
        return;
    }
    for mdbook in Mdbook::all() {
        let repo = common::book_root(&[
            ("CODEOWNERS", "* @soumith\n/src/gen/\n/old/ @soumith\n"),
            (".gitignore", "ignored.txt\n"),
            ("src/main.rs", ""),
            ("src/gen/a.rs", ""),
            ("tools/run.sh", ""),
            ("docs/maintainers.toml", PEOPLE),
            ("docs/src/SUMMARY.md", "[Coverage](coverage.md)\n"),
            (
                "docs/src/coverage.md",
                "# Coverage\n\n{{#codeowners coverage depth=1}}\n",
            ),
        ]);
        let book = TestBook::new("", &[]);
        std::fs::copy(
            book.root().join("book.toml"),
            repo.path().join("docs/book.toml"),
        )
        .expect("copy book.toml");
        git(repo.path(), &["init", "-q", "-b", "main"]);
        git(repo.path(), &["add", "-A"]);
        // Not yet committed but not ignored: one of the repository's files;
        // ignored: not one.
        std::fs::write(repo.path().join("untracked.txt"), "").expect("write");
        std::fs::write(repo.path().join("ignored.txt"), "").expect("write");
        let docs = repo.path().join("docs");
        let output = Command::new(mdbook.binary())
            .arg("build")
            .current_dir(&docs)
            .env("PWD", &docs)
            .env_remove("GITHUB_ACTIONS")
            .output()
            .expect("mdbook runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{mdbook:?}: {stderr}");
        // The one finding: `/old/` matches nothing.
        assert!(
            stderr.contains("warning[C405]: the pattern `/old/` matches no file"),
            "{mdbook:?}: {stderr}"
        );
        assert_eq!(
            stderr.matches("warning[").count(),
            1,
            "{mdbook:?}: {stderr}"
        );
        let html = std::fs::read_to_string(docs.join("book/coverage.html")).expect("built");
        let main = main_of(&html);
        for expected in [
            "<td><code>docs/</code></td><td>4</td><td>100%</td>",
            "<td><code>src/</code></td><td>2</td><td>50%</td>",
            "<td><code>tools/</code></td><td>1</td><td>100%</td>",
            "Of the 10 files of the repository, 9 (90%) have an active owner and 1 has none.",
        ] {
            assert!(main.contains(expected), "{mdbook:?}: {expected}\n{main}");
        }
    }
}

/// Folder names that would end a table row or a list item and start HTML
/// or a link, if they were not text (issue 38, 1).
#[cfg(unix)]
const HOSTILE_FOLDERS: &[&str] = &[
    "a\n<img src=x onerror=alert(1)>",
    "b\r[click](javascript:alert(2))",
    "c\n\n<script>alert(3)</script>",
    "d|e`f``g",
    "e\r\n- item\r\n# heading",
    "x\u{1b}[2J\u{1b}]0;PWNED\u{7}",
];

/// Issue 38 (1): folders named with line breaks, carriage returns, `<`,
/// `|` and backticks stay text in the `{{#codeowners coverage}}` table and
/// in the OWNERS tree's `{{#codeowners}}` table, with both mdBooks: as
/// many rows as folders, no element or link from a name.
#[cfg(unix)]
#[test]
fn hostile_folder_names_are_text_in_every_table() {
    for owners_tree in [false, true] {
        let mut files: Vec<(String, String)> = vec![
            ("docs/maintainers.toml".into(), PEOPLE.into()),
            (
                "docs/src/SUMMARY.md".into(),
                "[Coverage](coverage.md)\n".into(),
            ),
            (
                "docs/src/coverage.md".into(),
                "# Coverage\n\n{{#codeowners coverage depth=1}}\n\n# Tree\n\n{{#codeowners}}\n\nAfter everything.\n".into(),
            ),
        ];
        if owners_tree {
            files.push(("OWNERS".into(), "approvers:\n  - soumith\n".into()));
        } else {
            files.push(("CODEOWNERS".into(), "* @soumith\n".into()));
        }
        for folder in HOSTILE_FOLDERS {
            files.push((format!("{folder}/file.rs"), String::new()));
            if owners_tree {
                files.push((
                    format!("{folder}/OWNERS"),
                    "approvers:\n  - soumith\n".into(),
                ));
            }
        }
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let repo = common::book_root(&refs);
        std::fs::create_dir_all(repo.path().join(".git")).expect("mkdir");
        let book = TestBook::new("", &[]);
        std::fs::copy(
            book.root().join("book.toml"),
            repo.path().join("docs/book.toml"),
        )
        .expect("copy book.toml");
        let docs = repo.path().join("docs");
        for mdbook in Mdbook::all() {
            let at = format!("{mdbook:?}, OWNERS tree: {owners_tree}");
            let _ = std::fs::remove_dir_all(docs.join("book"));
            let output = Command::new(mdbook.binary())
                .arg("build")
                .current_dir(&docs)
                .env("PWD", &docs)
                .env_remove("GITHUB_ACTIONS")
                .output()
                .expect("mdbook runs");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(output.status.success(), "{at}: {stderr}");
            let html = std::fs::read_to_string(docs.join("book/coverage.html")).expect("built");
            let main = main_of(&html);
            for forbidden in [
                "<img",
                "<script",
                "<li",
                "heading</h1>",
                "<a href=\"javascript",
            ] {
                assert!(!main.contains(forbidden), "{at}: {forbidden:?} in\n{main}");
            }
            for url in common::html::markup(main) {
                assert!(!url.contains("javascript:"), "{at}: {url} in\n{main}");
            }
            // Coverage: a row per top-level folder (the hostile ones,
            // `docs/`, and the root's files); the tree: a row per OWNERS
            // file, or the CODEOWNERS rule.
            let rows = main.matches("<tr>").count();
            let expected = if owners_tree {
                (1 + HOSTILE_FOLDERS.len() + 1) + (1 + 1 + HOSTILE_FOLDERS.len())
            } else {
                (1 + HOSTILE_FOLDERS.len() + 1) + (1 + 1)
            };
            assert!(
                rows >= expected,
                "{at}: {rows} rows, not {expected}\n{main}"
            );
            assert_eq!(main.matches("<table").count(), 2, "{at}\n{main}");
            assert!(main.contains("After everything."), "{at}\n{main}");
            assert!(
                main.contains("&lt;img src=x onerror=alert(1)&gt;"),
                "{at}\n{main}"
            );
            assert!(main.contains("<code>d|e`f``g/</code>"), "{at}\n{main}");
        }
    }
}
