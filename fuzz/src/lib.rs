//! Shared by the fuzz targets: a temporary book root holding small, valid
//! data files, settings and mdBook requests for it, and the invariants the
//! targets check beyond "no panic".
//!
//! Everything here is set up once per fuzzing process; nothing is derived
//! from fuzzer input except where a function says so.

use std::path::{Path, PathBuf};
use std::sync::{LazyLock, OnceLock};

use arbitrary::Arbitrary;
use mdbook_community::testing::Settings;
use mdbook_community::testing::{Book, Chapter};
use mdbook_community::testing::{Context, Generation};
use mdbook_community::testing::{Registry, builtin_registry};
use mdbook_community::{Environment, preprocess};
use serde_json::{Map, Value, json};

/// The data file of the temporary book: two nested groups, statuses and
/// roles, a person without GitHub login and one with an avatar.
pub const MAINTAINERS_TOML: &str = r#"
[people.ada]
name = "Ada Lovelace"
url = "https://example.com/ada"
affiliation = "Analytical Engines"
avatar = "https://example.com/ada.png"

[people.grace]
name = "Grace Hopper"
github = "ghopper"
email = "grace@example.com"

[people.linus]
github = false

[people.margaret]
name = "Margaret *Hamilton*"
url = "mailto:margaret@example.com"

[[groups]]
id = "core"
title = "Core Team"
description = "Decides on [the direction](governance.md)."
members = [{ handle = "ada", role = "lead" }, "grace", { handle = "linus", status = "emeritus" }]

[[groups]]
id = "docs"
title = "Docs"
parent = "core"
members = ["margaret", { handle = "grace", status = "sunsetting", role = "editor" }]
"#;

/// CODEOWNERS of the temporary book: users, teams, an e-mail address, an
/// unowned path, an inline comment and one invalid line.
pub const CODEOWNERS: &str = "# Who reviews what\n\
*                 @ada\n\
/docs/            @org/docs @ghopper\n\
*.rs              @ada @org/rust # inline comment\n\
src/**/gen/       grace@example.com\n\
/vendor/\n\
docs/*            @margaret\n\
!negated          @ada\n";

/// CONTRIBUTING.md of the temporary book: repeated, formatted and empty
/// headings, and a custom id.
pub const CONTRIBUTING_MD: &str = "# Contributing to Example\n\n\
Intro.\n\n\
## Getting Started\n\ntext\n\n\
## Testing\n\n```sh\ncargo test\n```\n\n\
## Testing\n\nagain\n\n\
### `cargo` *and* **you**\n\n\
## Custom {#custom-id}\n\n\
Setext heading\n--------------\n\n\
##\n";

/// The brace directives, by name: the shipped registry's, so that a new
/// directive is fuzzed without anyone remembering to list it here.
pub fn directive_names() -> Vec<&'static str> {
    registry().names().brace_names().collect()
}

/// The directive registry, built once.
pub fn registry() -> &'static Registry {
    static REGISTRY: LazyLock<Registry> = LazyLock::new(builtin_registry);
    &REGISTRY
}

/// A directory of this process's own under the temporary directory, with a
/// `src/` folder. `run.sh` points `TMPDIR` into `fuzz/target` and removes it
/// afterwards.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mdbook-community-fuzz-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(dir.join("src")).expect("cannot create the fuzz book root");
    dir
}

/// Writes `text` to `path`; for harness setup, where failing is a bug of
/// the machine, not of the code under test.
pub fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// The book root with [`MAINTAINERS_TOML`], [`CODEOWNERS`] and
/// [`CONTRIBUTING_MD`], created once per process.
pub fn data_root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = scratch_dir("book");
        write(&dir.join("book.toml"), "[book]\ntitle = \"fuzz\"\n");
        write(&dir.join("maintainers.toml"), MAINTAINERS_TOML);
        write(&dir.join("CODEOWNERS"), CODEOWNERS);
        write(&dir.join("CONTRIBUTING.md"), CONTRIBUTING_MD);
        write(
            &dir.join("src/contributing.md"),
            "{{#include ../CONTRIBUTING.md}}\n",
        );
        dir
    })
}

/// `check-anchors`.
#[derive(Arbitrary, Debug, Clone, Copy, Default)]
pub enum AnchorCheck {
    /// The default.
    #[default]
    Warn,
    /// Broken anchors fail the build.
    Error,
    /// No anchor check.
    Off,
}

/// The build settings a target may vary: mdBook generation, renderer,
/// `[preprocessor.community]` keys, Markdown extensions and how output is
/// printed. `Default` is a plain mdBook 0.5 HTML build.
#[derive(Arbitrary, Debug, Clone, Copy, Default)]
pub struct BuildOptions {
    /// mdBook 0.4 (`sections`) instead of 0.5 (`items`).
    pub mdbook_04: bool,
    /// The `markdown` renderer instead of `html`.
    pub markdown_renderer: bool,
    /// `on-error = "warn"`.
    pub on_error_warn: bool,
    /// `check-anchors`.
    pub check_anchors: AnchorCheck,
    /// Set `contributing-url`.
    pub contributing_url: bool,
    /// `output.html.smart-punctuation`, when set.
    pub smart_punctuation: Option<bool>,
    /// `output.html.definition-lists`, when set.
    pub definition_lists: Option<bool>,
    /// `output.html.admonitions`, when set.
    pub admonitions: Option<bool>,
    /// Colour diagnostics (only used through `preprocess`).
    pub color: bool,
    /// GitHub Actions annotations (only used through `preprocess`).
    pub github_actions: bool,
}

impl BuildOptions {
    /// The mdBook generation.
    pub fn generation(&self) -> Generation {
        if self.mdbook_04 {
            Generation::V04
        } else {
            Generation::V05
        }
    }

    /// How output is printed.
    pub fn environment(&self) -> Environment {
        Environment {
            github_actions: self.github_actions,
            color: self.color,
            ..Environment::default()
        }
    }

    /// `book.toml` as mdBook passes it, with `extra` keys added to
    /// `[preprocessor.community]`.
    pub fn config(&self, extra: Map<String, Value>) -> Value {
        let mut html = Map::new();
        for (key, value) in [
            ("smart-punctuation", self.smart_punctuation),
            ("definition-lists", self.definition_lists),
            ("admonitions", self.admonitions),
        ] {
            if let Some(value) = value {
                html.insert(key.into(), Value::Bool(value));
            }
        }
        let mut community = extra;
        community.insert(
            "on-error".into(),
            json!(if self.on_error_warn { "warn" } else { "fail" }),
        );
        let anchors = match self.check_anchors {
            AnchorCheck::Warn => "warn",
            AnchorCheck::Error => "error",
            AnchorCheck::Off => "off",
        };
        community.insert("check-anchors".into(), json!(anchors));
        if self.contributing_url {
            community.insert(
                "contributing-url".into(),
                json!("https://github.com/example/repo/blob/main/CONTRIBUTING.md"),
            );
        }
        json!({
            "book": { "title": "fuzz", "src": "src" },
            "output": { "html": html },
            "preprocessor": { "community": community },
        })
    }

    fn context(&self, root: &Path, extra: Map<String, Value>) -> Context {
        Context {
            root: root.to_path_buf(),
            config: self.config(extra),
            renderer: if self.markdown_renderer {
                "markdown"
            } else {
                "html"
            }
            .into(),
            mdbook_version: if self.mdbook_04 { "0.4.52" } else { "0.5.4" }.into(),
        }
    }

    /// Settings for a book at `root`.
    pub fn settings(&self, root: &Path, extra: Map<String, Value>) -> Settings {
        // The config is built above from fixed, valid values.
        Settings::from_context(&self.context(root, extra), self.generation())
            .expect("the harness's own config is valid")
    }

    /// mdBook's `[context, book]` JSON for `chapters` in a book at `root`.
    pub fn request(&self, root: &Path, extra: Map<String, Value>, chapters: &[Chapter]) -> Vec<u8> {
        let context = self.context(root, extra);
        let items: Vec<Value> = chapters
            .iter()
            .map(|c| {
                json!({ "Chapter": {
                    "name": c.name(), "content": c.content.get(), "number": null, "sub_items": [],
                    "path": c.path(), "source_path": c.source_path(), "parent_names": [],
                }})
            })
            .collect();
        let mut book = Map::new();
        book.insert(self.generation().items_key().into(), Value::Array(items));
        if self.mdbook_04 {
            book.insert("__non_exhaustive".into(), Value::Null);
        }
        let context = json!({
            "root": context.root, "config": context.config,
            "renderer": context.renderer, "mdbook_version": context.mdbook_version,
        });
        serde_json::to_vec(&json!([context, Value::Object(book)]))
            .expect("JSON built from strings serializes")
    }
}

/// A chapter at `path` (relative to `src`; `None` for a draft).
pub fn chapter(name: &str, path: Option<&str>, content: String) -> Chapter {
    Chapter::new(name, path, path, content)
}

/// Whether a chapter may hold a directive: only then may it change.
pub fn may_hold_directive(text: &str) -> bool {
    text.contains("{{") || text.contains("faq")
}

/// Invariant of `process_chapters`: one result a chapter, and for every
/// chapter without `{{` and `faq` either no change, or (with
/// `on-error = "warn"` and `check-anchors = "error"`) only notes after
/// broken links inserted.
pub fn assert_untouched(chapters: &[Chapter], contents: &[Option<String>]) {
    assert_eq!(contents.len(), chapters.len(), "one result per chapter");
    for (chapter, content) in chapters.iter().zip(contents) {
        if !may_hold_directive(&chapter.content.get()) {
            assert!(
                content
                    .as_deref()
                    .is_none_or(|new| chapter.content == *without_link_notes(new)),
                "a chapter without directives changed: {:?} became {content:?}",
                chapter.content
            );
        }
    }
}

/// `text` without the notes `on-error = "warn"` puts after broken links
/// (`` **\[mdbook-community error: ...\]**``, with the message escaped).
pub fn without_link_notes(text: &str) -> String {
    const START: &str = " **\\[mdbook-community error: ";
    const END: &str = "\\]**";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(START) {
        let Some(end) = rest[start + START.len()..].find(END) else {
            break;
        };
        out.push_str(&rest[..start]);
        rest = &rest[start + START.len() + end + END.len()..];
    }
    out.push_str(rest);
    out
}

/// What `preprocess` did.
pub struct Preprocessed {
    /// The exit code.
    pub code: u8,
    /// The book written to stdout, parsed (exit code 0 only).
    pub book: Option<Value>,
    /// Everything written to stderr.
    pub stderr: Vec<u8>,
}

/// Runs `preprocess` on `input` and checks its contract: exit code 0 with
/// a JSON book on stdout, or 1 with nothing on stdout.
pub fn run_preprocess(input: Vec<u8>, env: Environment) -> Preprocessed {
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let code = preprocess(input, &mut stdout, &mut stderr, env, registry());
    let book = match code {
        0 => match serde_json::from_slice(&stdout) {
            Ok(book) => Some(book),
            Err(e) => panic!(
                "exit code 0 but stdout is not JSON ({e}): {:?}",
                String::from_utf8_lossy(&stdout)
            ),
        },
        1 => {
            assert!(
                stdout.is_empty(),
                "exit code 1 but stdout is not empty: {:?}",
                String::from_utf8_lossy(&stdout)
            );
            None
        }
        other => panic!("unexpected exit code {other}"),
    };
    Preprocessed { code, book, stderr }
}

/// The chapters' contents in a book written by `preprocess`, in reading
/// order, found by the plugin's own book walk.
pub fn book_contents(book: &Value, generation: Generation) -> Vec<String> {
    let text = book.to_string();
    let book = Book::parse(&text).expect("preprocess wrote a book");
    assert_eq!(book.generation, generation, "the answer keeps its shape");
    book.chapters
        .into_iter()
        .map(|c| c.content.get().into_owned())
        .collect()
}

/// The book with every chapter content blanked, as a JSON value: what
/// must not change.
pub fn skeleton(book: &Book) -> Value {
    let blank = vec![Some(String::new()); book.chapters.len()];
    let mut out = Vec::new();
    book.write(&mut out, &blank).expect("write to memory");
    serde_json::from_slice(&out).expect("the book is JSON")
}

/// Runs `chapters` through `preprocess` as a book at `root` and checks, on
/// top of [`run_preprocess`], that the book comes back with its chapters
/// and that chapters without directives are byte-identical but for the
/// notes `on-error = "warn"` puts after broken links.
pub fn preprocess_chapters(
    options: &BuildOptions,
    root: &Path,
    extra: Map<String, Value>,
    chapters: &[Chapter],
) -> Preprocessed {
    let input = options.request(root, extra, chapters);
    let result = run_preprocess(input, options.environment());
    if let Some(book) = &result.book {
        let contents = book_contents(book, options.generation());
        assert_eq!(
            contents.len(),
            chapters.len(),
            "the book keeps its chapters"
        );
        for (chapter, content) in chapters.iter().zip(&contents) {
            if !may_hold_directive(&chapter.content.get()) {
                assert_eq!(
                    *chapter.content.get(),
                    *without_link_notes(content),
                    "a chapter without directives changed (other than by notes after broken links)"
                );
            }
        }
    }
    result
}

/// Quotes `text` as one directive argument (`"..."` with `\"` and `\\`).
pub fn quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Whether `text` is a plain word in directive arguments: no whitespace,
/// quotes, `=`, braces or backslashes, and not empty.
pub fn is_plain_word(text: &str) -> bool {
    !text.is_empty()
        && !text
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '"' | '=' | '{' | '}' | '\\'))
}

/// A people format the roster targets read their input as.
#[derive(Debug, Clone, Copy)]
pub enum RosterFormat {
    /// OWNERS_ALIASES (YAML), with a fixed OWNERS listing an alias.
    OwnersAliases,
    /// An OWNERS file (YAML), with a fixed OWNERS_ALIASES.
    Owners,
    /// containerd's MAINTAINERS (CSV rows under `# SECTION` comments).
    MaintainersCsv,
    /// `.all-contributorsrc` (JSON).
    AllContributors,
    /// A Markdown MAINTAINERS.md.
    Markdown,
    /// A plain-text MAINTAINERS (`Name <email> (@login)` lines).
    MaintainersText,
    /// CNCF's `.project/maintainers.yaml`.
    CncfMaintainers,
}

/// Reads `data` as a roster in `format` the way a build does (written as
/// the book's people file, every people directive using it), and checks:
/// the `preprocess` contract; a roster that fails says why, each problem
/// at a file and line; the Markdown and plain-text readers' warnings are
/// located.
pub fn fuzz_roster(format: RosterFormat, data: &[u8]) {
    static ROOTS: OnceLock<PathBuf> = OnceLock::new();
    let root = ROOTS.get_or_init(|| scratch_dir("roster"));
    let (file, people) = match format {
        RosterFormat::OwnersAliases => {
            write(&root.join("OWNERS"), "approvers:\n  - core\n  - ada\n");
            (
                "OWNERS_ALIASES",
                serde_json::json!(["OWNERS_ALIASES", {"path": "OWNERS", "prefix": "p"}]),
            )
        }
        RosterFormat::Owners => {
            write(
                &root.join("OWNERS_ALIASES"),
                "aliases:\n  core:\n    - ada\n",
            );
            (
                "OWNERS",
                serde_json::json!(["OWNERS_ALIASES", {"path": "OWNERS", "prefix": "p"}]),
            )
        }
        RosterFormat::MaintainersCsv => ("MAINTAINERS", serde_json::json!("MAINTAINERS")),
        RosterFormat::AllContributors => (
            ".all-contributorsrc",
            serde_json::json!(".all-contributorsrc"),
        ),
        RosterFormat::Markdown => ("MAINTAINERS.md", serde_json::json!("MAINTAINERS.md")),
        RosterFormat::MaintainersText => (
            "MAINTAINERS.txt",
            serde_json::json!([{"path": "MAINTAINERS.txt", "format": "maintainers-text"}]),
        ),
        RosterFormat::CncfMaintainers => {
            std::fs::create_dir_all(root.join(".project")).expect("cannot make .project");
            (
                ".project/maintainers.yaml",
                serde_json::json!(".project/maintainers.yaml"),
            )
        }
    };
    std::fs::write(root.join(file), data).expect("cannot write the fuzz roster");
    write(&root.join("CODEOWNERS"), "* @ada @core\n");
    if let RosterFormat::Markdown | RosterFormat::MaintainersText | RosterFormat::CncfMaintainers =
        format
    {
        let text = String::from_utf8_lossy(data);
        let (read, warnings) = match format {
            RosterFormat::MaintainersText => {
                mdbook_community::testing::parse_people_text(&text, file)
            }
            RosterFormat::CncfMaintainers => {
                mdbook_community::testing::parse_people_cncf(&text, file)
            }
            _ => mdbook_community::testing::parse_people_markdown(&text, file),
        };
        for warning in warnings
            .iter()
            .chain(read.as_ref().err().into_iter().flatten())
        {
            assert!(
                warning.location.is_some(),
                "an unlocated problem: {}",
                warning.message
            );
        }
    }
    let mut extra = Map::new();
    extra.insert("people".into(), people);
    let content = "{{#maintainers}}\n\n{{#maintainers p-approvers style=grid}}\n\n\
                   {{#maintainers core style=table}}\n\n{{#person ada}}\n"
        .to_string();
    let chapters = [chapter("people", Some("people.md"), content)];
    let result = preprocess_chapters(&BuildOptions::default(), root, extra, &chapters);
    let stderr = String::from_utf8_lossy(&result.stderr);
    if result.code == 1 {
        assert!(
            stderr.contains("error["),
            "a failed build says why: {stderr}"
        );
    }
    for headline in stderr.split("\n\n").filter(|b| b.starts_with("error[")) {
        assert!(
            headline.contains("--> ") || headline.contains("= in "),
            "an error without a file and line: {headline}"
        );
    }
}
