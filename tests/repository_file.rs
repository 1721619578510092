//! `{{#repository-file}}` and the links of repository files, end to end
//! with both mdBooks (issue 37): a repository whose CONTRIBUTING,
//! GOVERNANCE and SECURITY link to chapters, other files, folders, images
//! and one missing file builds with every link pointing at a chapter or the
//! repository host, and only the missing one reported, at its line in the
//! file it was written in; `init` on a repository with an `origin` remote
//! makes a book without a dead relative link; hostile repository files are
//! shown as text.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::html::attributes;
use common::mdbook::Mdbook;

const HOST: &str = "https://github.com/o/r";

/// A repository at `root` holding `files`, committed to git (branch
/// `trunk`); `false` when git cannot make it.
fn repository(root: &Path, files: &[(&str, &[u8])]) -> bool {
    for (path, text) in files {
        let full = root.join(path);
        std::fs::create_dir_all(full.parent().expect("a folder")).expect("mkdir");
        std::fs::write(full, text).expect("write");
    }
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(root)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    git(&["init", "-q", "-b", "trunk"]) && git(&["add", "-A"])
}

/// Every link and image URL in the `<main>` of the HTML pages of `book`.
fn urls(book: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(book).expect("built").flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "html") || path.ends_with("print.html") {
            continue;
        }
        let html = std::fs::read_to_string(&path).expect("page");
        let Some(main) = html.split("<main>").nth(1) else {
            continue;
        };
        let main = main.split("</main>").next().unwrap_or_default();
        let mut rest = main;
        while let Some(open) = rest.find('<') {
            rest = &rest[open + 1..];
            let end = common::html::tag_end(rest);
            let parts = attributes(&rest[..end]);
            rest = &rest[end.min(rest.len())..];
            for kv in parts[1..].chunks(2) {
                if matches!(kv[0].as_str(), "href" | "src") {
                    out.push((path.clone(), kv.get(1).cloned().unwrap_or_default()));
                }
            }
        }
    }
    out
}

/// The URLs of `book` that are neither the repository host, an in-page
/// fragment, nor a page of the book that exists.
fn dead(book: &Path, allowed: &[&str]) -> Vec<String> {
    urls(book)
        .into_iter()
        .filter(|(page, url)| {
            if url.starts_with('#') || url.starts_with(&format!("{HOST}/")) {
                return false;
            }
            if allowed.iter().any(|a| url.starts_with(a)) {
                return false;
            }
            let path = url.split('#').next().unwrap_or_default();
            let target = page.parent().expect("folder").join(path);
            !target.is_file()
        })
        .map(|(page, url)| format!("{}: {url}", page.display()))
        .collect()
}

fn build(mdbook: &Mdbook, book: &Path) -> (bool, String) {
    let plugin = Path::new(env!("CARGO_BIN_EXE_mdbook-community"));
    let rest = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::iter::once(plugin.parent().expect("dir").to_path_buf());
    let path = std::env::join_paths(dirs.chain(std::env::split_paths(&rest))).expect("PATH");
    let out = Command::new(mdbook.binary())
        .arg("build")
        .current_dir(book)
        .env("PATH", path)
        .env_remove("GITHUB_ACTIONS")
        .env_remove("MDBOOK_COMMUNITY_MESSAGE_FORMAT")
        .output()
        .expect("mdbook runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const CONTRIBUTING: &str = "\
# Contributing

## How to

Read the [governance](GOVERNANCE.md#decisions), the [security policy](./SECURITY.md),
the [maintainers](MAINTAINERS.md), the [readme](README.md), the [license](LICENSE),
the [tests](tests/), [how to run them](tests/README.md#running) and
[my notes](my%20notes.md).

![architecture](docs/images/arch.png)

<p align=\"center\"><img src=\"docs/images/arch.png\" width=\"100\"> <a href=\"LICENSE\">license</a></p>

Plain: <https://example.org>, [mail](mailto:a@example.org), [here](#how-to),
`[in code](nope.md)`.
";

/// CRLF, with a reference-style link.
const GOVERNANCE: &str = "# Governance\r\n\r\n## Decisions\r\n\r\nSee [how to contribute][how] and the [docs folder](docs).\r\n\r\n[how]: CONTRIBUTING.md#how-to\r\n";

const SECURITY: &str = "\
# Security

Report to [the team](MAINTAINERS.md) or read [the old policy](docs/OLD-POLICY.md).
Back to [contributing](CONTRIBUTING.md).
";

#[test]
fn repository_files_link_to_chapters_and_the_host_with_both_mdbooks() {
    let mdbooks = Mdbook::all();
    if mdbooks.is_empty() {
        return;
    }
    for mdbook in mdbooks {
        let work = tempfile::tempdir().expect("tempdir");
        let root = work.path();
        let made = repository(
            root,
            &[
                ("CONTRIBUTING.md", CONTRIBUTING.as_bytes()),
                ("GOVERNANCE.md", GOVERNANCE.as_bytes()),
                ("SECURITY.md", SECURITY.as_bytes()),
                ("MAINTAINERS.md", b"# Maintainers\n\n* Ada (@ada)\n"),
                ("README.md", b"# The project\n\nSee [contributing](CONTRIBUTING.md).\n"),
                ("LICENSE", b"MIT\n"),
                ("my notes.md", b"# Notes\n\nSome notes.\n"),
                ("tests/README.md", b"# Tests\n\n## Running\n"),
                ("docs/images/arch.png", b"PNG"),
                (
                    "docs/book.toml",
                    format!("[book]\ntitle = \"T\"\n\n[output.html]\ngit-repository-url = \"{HOST}\"\n\n[preprocessor.community]\nafter = [\"links\"]\n").as_bytes(),
                ),
                (
                    "docs/src/SUMMARY.md",
                    b"# Summary\n\n[Intro](README.md)\n\n- [Contributing](contributing.md)\n- [Governance](governance/index.md)\n- [Security](security.md)\n- [Maintainers](maintainers.md)\n- [Notes](notes.md)\n",
                ),
                ("docs/src/README.md", b"{{#repository-file ../../README.md}}\n"),
                ("docs/src/contributing.md", b"{{#repository-file ../../CONTRIBUTING.md}}\n"),
                ("docs/src/governance/index.md", b"{{#repository-file ../../../GOVERNANCE.md}}\n"),
                ("docs/src/security.md", b"{{#repository-file ../../SECURITY.md}}\n"),
                ("docs/src/maintainers.md", b"{{#include ../../MAINTAINERS.md}}\n"),
                ("docs/src/notes.md", b"{{#repository-file \"../../my notes.md\"}}\n"),
            ],
        );
        if !made {
            return;
        }
        let book = root.join("docs");
        let (ok, stderr) = build(mdbook, &book);
        assert!(ok, "{mdbook:?}:\n{stderr}");
        let warnings: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("warning"))
            .collect();
        assert_eq!(
            warnings,
            ["warning[C603]: `docs/OLD-POLICY.md` is not in the repository"],
            "{mdbook:?}:\n{stderr}"
        );
        assert!(stderr.contains("SECURITY.md:3:63"), "{stderr}");
        let out = book.join("book");
        let dead = dead(&out, &["https://example.org", "mailto:a@example.org"]);
        assert!(dead.is_empty(), "{mdbook:?}: {dead:#?}");
        let page = std::fs::read_to_string(out.join("contributing.html")).expect("page");
        for expected in [
            "href=\"governance/index.html#decisions\"",
            "href=\"security.html\"",
            "href=\"maintainers.html\"",
            "href=\"index.html\"",
            "href=\"https://github.com/o/r/blob/trunk/LICENSE\"",
            "href=\"https://github.com/o/r/tree/trunk/tests\"",
            "href=\"https://github.com/o/r/blob/trunk/tests/README.md#running\"",
            "href=\"notes.html\"",
            "src=\"https://github.com/o/r/raw/trunk/docs/images/arch.png\"",
            "<code>[in code](nope.md)</code>",
        ] {
            assert!(
                page.contains(expected),
                "{mdbook:?}: no {expected} in\n{page}"
            );
        }
        let governance = std::fs::read_to_string(out.join("governance/index.html")).expect("page");
        assert!(
            governance.contains("href=\"../contributing.html#how-to\""),
            "{governance}"
        );
        assert!(
            governance.contains("href=\"https://github.com/o/r/tree/trunk/docs\""),
            "{governance}"
        );
    }
}

/// A CONTRIBUTING.md that would publish a file, retitle its page and run a
/// script, through `init` (with an `origin` remote): directives are text,
/// no script, and no dead relative link.
#[test]
fn init_with_an_origin_remote_makes_a_safe_book_without_dead_links() {
    let mdbooks = Mdbook::all();
    if mdbooks.is_empty() {
        return;
    }
    for mdbook in mdbooks {
        let work = tempfile::tempdir().expect("tempdir");
        let root = work.path().join("project");
        let contributing = "# Contributing\n\n{{#include /etc/passwd}}\n{{#title PWNED}}\n\n<script>alert(1)</script>\n<img src=\"x.png\" onerror=\"alert(2)\">\n\n[license](LICENSE), [governance](GOVERNANCE.md), [docs](docs/).\n";
        let made = repository(
            &root,
            &[
                ("CONTRIBUTING.md", contributing.as_bytes()),
                (
                    "GOVERNANCE.md",
                    b"# Governance\n\n[contributing](CONTRIBUTING.md#contributing)\n",
                ),
                ("LICENSE", b"MIT\n"),
                ("x.png", b"PNG"),
                ("docs/notes.md", b"notes\n"),
            ],
        );
        if !made {
            return;
        }
        let remote = Command::new("git")
            .args(["remote", "add", "origin", "git@github.com:o/r.git"])
            .current_dir(&root)
            .status()
            .is_ok_and(|s| s.success());
        assert!(remote);
        let init = Command::new(env!("CARGO_BIN_EXE_mdbook-community"))
            .args(["init", "community"])
            .current_dir(&root)
            .output()
            .expect("init runs");
        let said = String::from_utf8_lossy(&init.stdout);
        assert!(init.status.success(), "{said}");
        assert!(
            said.contains("git-repository-url = \"https://github.com/o/r\""),
            "{said}"
        );
        let book = root.join("community");
        let (ok, stderr) = build(mdbook, &book);
        assert!(ok, "{mdbook:?}:\n{stderr}");
        assert!(!stderr.contains("warning["), "{mdbook:?}:\n{stderr}");
        let out = book.join("book");
        let page = std::fs::read_to_string(out.join("contributing.html")).expect("page");
        assert!(page.contains("{{#include /etc/passwd}}"), "{page}");
        assert!(page.contains("{{#title PWNED}}"), "{page}");
        assert!(!page.contains("root:"), "{page}");
        assert!(!page.contains("<title>PWNED"), "{page}");
        assert!(!page.contains("alert("), "{page}");
        assert!(
            page.contains("src=\"https://github.com/o/r/raw/trunk/x.png\""),
            "{page}"
        );
        let dead = dead(&out, &[]);
        assert!(dead.is_empty(), "{mdbook:?}: {dead:#?}");
    }
}

/// A repository file that is a symbolic link out of the repository is
/// refused at the directive, and never read.
#[cfg(unix)]
#[test]
fn a_symbolic_link_leaving_the_repository_is_refused() {
    let Some(mdbook) = Mdbook::all().first() else {
        return;
    };
    let work = tempfile::tempdir().expect("tempdir");
    let root = work.path().join("project");
    std::fs::write(work.path().join("secret.md"), "# SECRET\n").expect("write");
    let made = repository(
        &root,
        &[
            (
                "docs/book.toml",
                b"[book]\ntitle = \"T\"\n\n[preprocessor.community]\n",
            ),
            (
                "docs/src/SUMMARY.md",
                b"# Summary\n\n- [Contributing](contributing.md)\n",
            ),
            (
                "docs/src/contributing.md",
                b"{{#repository-file ../../CONTRIBUTING.md}}\n",
            ),
        ],
    );
    if !made {
        return;
    }
    std::os::unix::fs::symlink(work.path().join("secret.md"), root.join("CONTRIBUTING.md"))
        .expect("symlink");
    let (ok, stderr) = build(mdbook, &root.join("docs"));
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains(
            "error[C510]: `../../CONTRIBUTING.md` is a symbolic link that leaves the repository"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("src/contributing.md:1:20"), "{stderr}");
    assert!(!stderr.contains("SECRET"), "{stderr}");
}

/// The same links through mdBook's `{{#include}}` (which `links` expands
/// before the plugin runs), with the file included twice at different
/// depths: resolved from the file's folder for each chapter, and the
/// missing one reported once, in the included file.
#[test]
fn included_text_links_resolve_where_they_were_written() {
    let mdbooks = Mdbook::all();
    if mdbooks.is_empty() {
        return;
    }
    let contributing = "# Contributing\n\nSee the [governance](GOVERNANCE.md#decisions), the [license](LICENSE),\nthe [tests](tests/) and [gone](docs/GONE.md).\n\n![arch](docs/arch.png) <img src=\"docs/arch.png\"> [ref][r] [out](../../x)\n\n[r]: LICENSE\n";
    for mdbook in mdbooks {
        let work = tempfile::tempdir().expect("tempdir");
        let root = work.path();
        let made = repository(
            root,
            &[
                ("CONTRIBUTING.md", contributing.as_bytes()),
                // CRLF, which mdBook 0.4 includes with LF line endings.
                (
                    "GOVERNANCE.md",
                    b"# Governance\r\n\r\n## Decisions\r\n\r\nSee the [license](LICENSE).\r\n",
                ),
                ("LICENSE", b"MIT\n"),
                ("tests/t.rs", b"\n"),
                ("docs/arch.png", b"PNG"),
                (
                    "docs/book.toml",
                    format!("[book]\ntitle = \"T\"\n\n[output.html]\ngit-repository-url = \"{HOST}\"\n\n[preprocessor.community]\nafter = [\"links\"]\n").as_bytes(),
                ),
                (
                    "docs/src/SUMMARY.md",
                    b"# Summary\n\n- [Contributing](contributing.md)\n- [Governance](governance.md)\n- [Again](deep/er/again.md)\n",
                ),
                ("docs/src/contributing.md", b"{{#include ../../CONTRIBUTING.md}}\n"),
                ("docs/src/governance.md", b"{{#include ../../GOVERNANCE.md}}\n"),
                (
                    "docs/src/deep/er/again.md",
                    b"# Again\n\n{{#include ../../../../CONTRIBUTING.md}}\n\nIn code, as written:\n\n```toml\n{{#include ../../../../data.toml}}\n```\n",
                ),
                ("data.toml", b"description = \"see [the guide](MISSING.md)\"\n"),
            ],
        );
        if !made {
            return;
        }
        let book = root.join("docs");
        let (ok, stderr) = build(mdbook, &book);
        assert!(ok, "{mdbook:?}:\n{stderr}");
        let warnings: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("warning"))
            .collect();
        assert_eq!(
            warnings,
            [
                "warning[C603]: `docs/GONE.md` is not in the repository",
                "warning[C603]: `../../x` leaves the repository; the link is shown as text",
            ],
            "{mdbook:?}:\n{stderr}"
        );
        assert!(stderr.contains("CONTRIBUTING.md:4:32"), "{stderr}");
        let out = book.join("book");
        let dead = dead(&out, &[]);
        assert!(dead.is_empty(), "{mdbook:?}: {dead:#?}");
        let deep = std::fs::read_to_string(out.join("deep/er/again.html")).expect("page");
        assert!(deep.contains("[the guide](MISSING.md)"), "{deep}");
        assert!(
            deep.contains("href=\"../../governance.html#decisions\""),
            "{deep}"
        );
        let page = std::fs::read_to_string(out.join("contributing.html")).expect("page");
        for expected in [
            "href=\"governance.html#decisions\"",
            "href=\"https://github.com/o/r/blob/trunk/LICENSE\"",
            "href=\"https://github.com/o/r/tree/trunk/tests\"",
            "src=\"https://github.com/o/r/raw/trunk/docs/arch.png\"",
        ] {
            assert!(
                page.contains(expected),
                "{mdbook:?}: no {expected} in\n{page}"
            );
        }
        assert!(!page.contains("../../x"), "{page}");
        let governance = std::fs::read_to_string(out.join("governance.html")).expect("page");
        assert!(
            governance.contains("href=\"https://github.com/o/r/blob/trunk/LICENSE\""),
            "{mdbook:?}: {governance}"
        );
    }
}

/// `check` reports a link to a missing path with the same code in every
/// format, at its line in the file it was written in.
#[test]
fn check_reports_missing_paths_in_every_format() {
    let Some(mdbook) = Mdbook::all().first() else {
        return;
    };
    let work = tempfile::tempdir().expect("tempdir");
    let root = work.path();
    let made = repository(
        root,
        &[
            ("CONTRIBUTING.md", b"# Contributing\n\nRead [the guide](docs/GUIDE.md).\n"),
            (
                "docs/book.toml",
                format!("[book]\ntitle = \"T\"\n\n[output.html]\ngit-repository-url = \"{HOST}\"\n\n[preprocessor.community]\nafter = [\"links\"]\n").as_bytes(),
            ),
            ("docs/src/SUMMARY.md", b"# Summary\n\n- [Contributing](contributing.md)\n"),
            ("docs/src/contributing.md", b"{{#repository-file ../../CONTRIBUTING.md}}\n"),
        ],
    );
    if !made {
        return;
    }
    let book = root.join("docs");
    for format in ["human", "json", "sarif", "github", "gitlab", "junit"] {
        let output = Command::new(env!("CARGO_BIN_EXE_mdbook-community"))
            .arg("check")
            .arg(&book)
            .arg("--mdbook")
            .arg(mdbook.binary())
            .args(["--format", format])
            .env_remove("GITHUB_ACTIONS")
            .env("NO_COLOR", "1")
            .current_dir(&book)
            .output()
            .expect("check runs");
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(all.contains("C603"), "{format}: {all}");
        assert!(all.contains("CONTRIBUTING.md"), "{format}: {all}");
    }
}

/// `{{#contributing}}` links into the chapter that shows CONTRIBUTING with
/// `{{#repository-file}}`, by the ids the book gives its headings; a link
/// to a file that is a symbolic link out of the repository is not written.
#[test]
fn contributing_links_and_the_anchor_check_work_on_a_repository_file() {
    let Some(mdbook) = Mdbook::all().first() else {
        return;
    };
    let work = tempfile::tempdir().expect("tempdir");
    let root = work.path().join("project");
    std::fs::write(work.path().join("outside.md"), "secret\n").expect("write");
    let made = repository(
        &root,
        &[
            (
                "CONTRIBUTING.md",
                b"# Contributing\n\n## Running the tests\n\n[escape](escape.md) [self](#running-the-tests)\n[bad](CONTRIBUTING.md#nope-here)\n",
            ),
            (
                "docs/book.toml",
                format!("[book]\ntitle = \"T\"\n\n[output.html]\ngit-repository-url = \"{HOST}\"\n\n[preprocessor.community]\nafter = [\"links\"]\n").as_bytes(),
            ),
            (
                "docs/src/SUMMARY.md",
                b"# Summary\n\n- [Contributing](contributing.md)\n- [Start](start.md)\n",
            ),
            ("docs/src/contributing.md", b"{{#repository-file ../../CONTRIBUTING.md}}\n"),
            (
                "docs/src/start.md",
                b"# Start\n\nSee {{#contributing #running-the-tests}} and [nope](contributing.md#nope).\n",
            ),
        ],
    );
    if !made {
        return;
    }
    std::os::unix::fs::symlink(work.path().join("outside.md"), root.join("escape.md"))
        .expect("symlink");
    let book = root.join("docs");
    let (ok, stderr) = build(mdbook, &book);
    assert!(ok, "{stderr}");
    let start = std::fs::read_to_string(book.join("book/start.html")).expect("page");
    assert!(
        start.contains("<a href=\"contributing.html#running-the-tests\">Running the tests</a>"),
        "{start}"
    );
    assert!(
        stderr.contains("warning[C601]: broken link: no heading `#nope`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("warning[C601]: broken link: no heading `#nope-here` in `contributing.md`"),
        "{stderr}"
    );
    assert!(stderr.contains("CONTRIBUTING.md:6:7"), "{stderr}");
    assert!(
        stderr.contains("warning[C603]: `escape.md` leaves the repository"),
        "{stderr}"
    );
    let page = std::fs::read_to_string(book.join("book/contributing.html")).expect("page");
    assert!(
        !page.contains("escape.md") && !page.contains("outside"),
        "{page}"
    );
    assert!(page.contains("href=\"#running-the-tests\""), "{page}");
}

/// A chapter's own link to a repository file outside `src`
/// (`../../LICENSE`) goes to the chapter showing it or the host; one to a
/// missing file is a warning at the chapter's line; one out of the
/// repository, and links within `src`, are the chapter's own.
#[test]
fn a_chapters_own_links_out_of_src_resolve() {
    let Some(mdbook) = Mdbook::all().first() else {
        return;
    };
    let work = tempfile::tempdir().expect("tempdir");
    let root = work.path();
    let made = repository(
        root,
        &[
            ("LICENSE", b"MIT\n"),
            ("GOVERNANCE.md", b"# Governance\n\n## Decisions\n"),
            (
                "docs/book.toml",
                format!("[book]\ntitle = \"T\"\n\n[output.html]\ngit-repository-url = \"{HOST}\"\n\n[preprocessor.community]\nafter = [\"links\"]\n").as_bytes(),
            ),
            (
                "docs/src/SUMMARY.md",
                b"# Summary\n\n- [Intro](intro.md)\n- [Governance](governance.md)\n",
            ),
            (
                "docs/src/intro.md",
                b"# Intro\n\nThe [license](../../LICENSE), [how we decide](../../GOVERNANCE.md#decisions),\n[gone](../../NOPE.md) and [the governance page](governance.md).\n",
            ),
            ("docs/src/governance.md", b"{{#repository-file ../../GOVERNANCE.md}}\n"),
        ],
    );
    if !made {
        return;
    }
    let book = root.join("docs");
    let (ok, stderr) = build(mdbook, &book);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains(
            "warning[C603]: `../../NOPE.md` links to `NOPE.md`, which is not in the repository"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("src/intro.md:4:8"), "{stderr}");
    let page = std::fs::read_to_string(book.join("book/intro.html")).expect("page");
    for expected in [
        "href=\"https://github.com/o/r/blob/trunk/LICENSE\"",
        "href=\"governance.html#decisions\"",
        "href=\"governance.html\"",
    ] {
        assert!(page.contains(expected), "no {expected} in {page}");
    }
}

/// The markdown renderer gets the same links, as Markdown, and the
/// warnings are printed once for the two renderers.
#[test]
fn the_markdown_renderer_gets_markdown_links() {
    for mdbook in Mdbook::all() {
        let work = tempfile::tempdir().expect("tempdir");
        let root = work.path();
        let made = repository(
            root,
            &[
                ("CONTRIBUTING.md", b"# Contributing\n\nThe [license](LICENSE), [gone](GONE.md).\n"),
                ("LICENSE", b"MIT\n"),
                (
                    "docs/book.toml",
                    format!("[book]\ntitle = \"T\"\n\n[output.html]\ngit-repository-url = \"{HOST}\"\n\n[output.markdown]\n\n[preprocessor.community]\nafter = [\"links\"]\n").as_bytes(),
                ),
                ("docs/src/SUMMARY.md", b"# Summary\n\n- [Contributing](contributing.md)\n- [Included](included.md)\n"),
                ("docs/src/contributing.md", b"{{#repository-file ../../CONTRIBUTING.md}}\n"),
                ("docs/src/included.md", b"{{#include ../../CONTRIBUTING.md}}\n"),
            ],
        );
        if !made {
            return;
        }
        let book = root.join("docs");
        let (ok, stderr) = build(mdbook, &book);
        assert!(ok, "{mdbook:?}: {stderr}");
        assert_eq!(
            stderr.matches("warning[C603]").count(),
            1,
            "{mdbook:?}: {stderr}"
        );
        for page in ["contributing.md", "included.md"] {
            let text =
                std::fs::read_to_string(book.join("book/markdown").join(page)).expect("page");
            assert!(
                text.contains("[license](https://github.com/o/r/blob/trunk/LICENSE)"),
                "{mdbook:?} {page}: {text}"
            );
        }
    }
}

/// Without an `origin` remote on a known host, `init` says what to set,
/// and the build says it once, at the first link that needs it; such
/// links are shown as text.
#[test]
fn init_without_a_known_remote_says_what_to_set() {
    let Some(mdbook) = Mdbook::all().first() else {
        return;
    };
    let work = tempfile::tempdir().expect("tempdir");
    let root = work.path().join("project");
    let made = repository(
        &root,
        &[
            (
                "CONTRIBUTING.md",
                b"# Contributing\n\nThe [license](LICENSE) and the [tests](tests/).\n",
            ),
            ("LICENSE", b"MIT\n"),
            ("tests/a.rs", b"\n"),
        ],
    );
    if !made {
        return;
    }
    let init = Command::new(env!("CARGO_BIN_EXE_mdbook-community"))
        .arg("init")
        .current_dir(&root)
        .output()
        .expect("init runs");
    let said = String::from_utf8_lossy(&init.stdout);
    assert!(init.status.success(), "{said}");
    assert!(
        said.contains("set [output.html] git-repository-url"),
        "{said}"
    );
    let (ok, stderr) = build(mdbook, &root.join("docs"));
    assert!(ok, "{stderr}");
    assert_eq!(stderr.matches("warning[").count(), 1, "{stderr}");
    assert!(
        stderr.contains(
            "warning[C604]: a link to the repository's `LICENSE` needs `git-repository-url`"
        ),
        "{stderr}"
    );
    let page = std::fs::read_to_string(root.join("docs/book/contributing.html")).expect("page");
    assert!(
        !page.contains("href=\"LICENSE\"") && !page.contains("tests/"),
        "{page}"
    );
}

/// A chapter's own link that stays in the book's folder (`../std/...` from
/// `src`, as the Rust Book links to the standard library served beside
/// it) is a web address, not a repository path: left as written, with no
/// warning, whether or not something is there (the benchmark's do-no-harm
/// check on the Rust Book found this).
#[test]
fn a_chapters_links_beside_the_book_are_left_as_written() {
    let Some(mdbook) = Mdbook::all().first() else {
        return;
    };
    let work = tempfile::tempdir().expect("tempdir");
    let root = work.path();
    let made = repository(
        root,
        &[
            (
                "book/book.toml",
                format!("[book]\ntitle = \"T\"\n\n[output.html]\ngit-repository-url = \"{HOST}\"\n\n[preprocessor.community]\nafter = [\"links\"]\n").as_bytes(),
            ),
            ("book/src/SUMMARY.md", b"# Summary\n\n- [Intro](intro.md)\n"),
            (
                "book/src/intro.md",
                b"# Intro\n\nSee [`Result`](../std/result/enum.Result.html#method.expect) and\n[the reference][r].\n\n[r]: ../reference/const_eval.html\n",
            ),
        ],
    );
    if !made {
        return;
    }
    let book = root.join("book");
    let (ok, stderr) = build(mdbook, &book);
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("warning["), "{stderr}");
    let page = std::fs::read_to_string(book.join("book/intro.html")).expect("page");
    for expected in [
        "href=\"../std/result/enum.Result.html#method.expect\"",
        "href=\"../reference/const_eval.html\"",
    ] {
        assert!(page.contains(expected), "no {expected} in {page}");
    }
}
