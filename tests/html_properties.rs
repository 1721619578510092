//! Issue 26 (1, 2, 3): data is text in every style, whatever it holds. A
//! property test feeds hostile text into every text field of each people
//! format (this plugin's TOML, `.all-contributorsrc`, rust-lang/team,
//! MAINTAINERS), expands every style (list, table with avatars, grid,
//! inline, `{{#person}}`, `{{#codeowners}}`, a FAQ question), renders the
//! page with pulldown-cmark under mdBook's options, and asserts that the
//! HTML has the same elements, attributes and URLs as the same page made
//! from plain data: nothing the data wrote became markup. The real-mdBook
//! version of this, with both mdBooks, is `e2e.rs`'s hostile-data test.

mod common;

use std::path::Path;

use common::html::markup;
use mdbook_community::testing::{Chapter, Context, Generation, Settings, builtin_registry};
use proptest::prelude::*;
use pulldown_cmark::{Options, Parser, html};

/// The people formats and how each holds one text (some cannot hold every
/// character: a MAINTAINERS row is one line).
#[derive(Debug, Clone, Copy)]
enum Format {
    Native,
    AllContributors,
    RustTeam,
    MaintainersCsv,
}

/// A TOML or JSON string holding `text` (JSON's escapes are TOML's).
fn quoted(text: &str) -> String {
    serde_json::to_string(text).expect("a string")
}

/// The files of a roster in `format` whose every text field is `text`,
/// and the `people` setting that names it.
fn roster(format: Format, text: &str) -> (Vec<(&'static str, String)>, &'static str) {
    let q = quoted(text);
    match format {
        Format::Native => (
            vec![(
                "maintainers.toml",
                format!(
                    "[people.ada]\nname = {q}\naffiliation = {q}\nurl = \"https://example.com/ada\"\n\
                     avatar = \"https://example.com/ada.png\"\nfields = {{ pronouns = {q} }}\n\n\
                     [[groups]]\nid = \"core\"\ntitle = {q}\ndescription = {q}\n\
                     members = [{{ handle = \"ada\", role = {q}, status = {q} }}]\n"
                ),
            )],
            "maintainers.toml",
        ),
        Format::AllContributors => (
            vec![(
                ".all-contributorsrc",
                format!(
                    "{{\"contributors\": [{{\"login\": \"ada\", \"name\": {q}, \
                     \"profile\": \"https://example.com/ada\", \
                     \"avatar_url\": \"https://example.com/ada.png\", \"contributions\": [\"code\"]}}]}}"
                ),
            )],
            ".all-contributorsrc",
        ),
        Format::RustTeam => (
            vec![
                (
                    "team/people/ada.toml",
                    format!("github = \"ada\"\nname = {q}\n"),
                ),
                (
                    "team/teams/core.toml",
                    format!(
                        "name = \"core\"\n[website]\nname = {q}\ndescription = {q}\n\
                         [people]\nleads = [\"ada\"]\nmembers = [\"ada\"]\n"
                    ),
                ),
            ],
            "team",
        ),
        Format::MaintainersCsv => {
            let one_line = text.replace(['\n', '\r'], " ").replace('"', "\"\"");
            (
                vec![(
                    "MAINTAINERS",
                    format!("# CORE\n\"ada\",\"{one_line}\",\"ada@example.com\"\n"),
                )],
                "MAINTAINERS",
            )
        }
    }
}

/// Every style and every directive that shows data.
const CHAPTER: &str = "# Page\n\n{{#maintainers GROUP}}\n\n\
{{#maintainers GROUP style=table columns=avatar,name,affiliation,role,status}}\n\n\
{{#maintainers GROUP style=grid}}\n\nBy {{#maintainers GROUP style=inline}} today.\n\n\
| Who | What |\n|-----|------|\n| {{#person ada}} | x |\n\n> {{#person ada}}\n\n\
{{#codeowners}}\n\n```faq\n## Who is {{#person ada}}?\n\nAnswer.\n```\n\nAfter.\n";

/// The chapter expanded with the roster `files`, or why it failed.
fn expand(files: &[(&str, String)], people: &str) -> Result<String, String> {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        write(dir.path(), name, text);
    }
    write(dir.path(), "CODEOWNERS", "* @ada\n");
    let context = Context {
        root: dir.path().to_path_buf(),
        config: serde_json::json!({"preprocessor": {"community": {
            "people": people, "check-anchors": "off", "check-owners": "off"
        }}}),
        renderer: "html".into(),
        mdbook_version: "0.5.4".into(),
    };
    let settings =
        Settings::from_context(&context, Generation::V05).map_err(|e| format!("{e:?}"))?;
    let group = if people == ".all-contributorsrc" {
        "contributors"
    } else {
        "core"
    };
    let chapter = CHAPTER.replace("GROUP", group);
    let chapters = vec![Chapter::new(
        "Page",
        Some("page.md"),
        Some("page.md"),
        chapter,
    )];
    let (mut contents, diagnostics) =
        mdbook_community::testing::process_chapters(&settings, &builtin_registry(), &chapters);
    if let Some(error) = diagnostics.iter().find(|d| d.is_error()) {
        return Err(error.message.clone());
    }
    contents
        .swap_remove(0)
        .ok_or_else(|| "nothing expanded".to_string())
}

fn write(root: &Path, name: &str, text: &str) {
    let path = root.join(name);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// The page as mdBook 0.5 renders it (every option it may enable).
fn render(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_SMART_PUNCTUATION
        | Options::ENABLE_DEFINITION_LIST
        | Options::ENABLE_GFM;
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(markdown, options));
    out
}

/// Text made of what Markdown, HTML, mdBook's `links` preprocessor and
/// attribute syntax give meaning to.
fn hostile() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("<script>alert(1)</script>"),
            Just("<img src=x onerror=alert(1)>"),
            Just("\"><a href=\"javascript:alert(1)\">"),
            Just("[x](javascript:alert(1))"),
            Just("{{#include /etc/hostname}}"),
            Just("{{#title Owned}}"),
            Just("{onfocus=alert(1) tabindex=0}"),
            Just("\n\n# Heading {#id .cls}\n\n"),
            Just("\n"),
            Just("\n\n"),
            Just("\n| a | b |\n"),
            Just("```"),
            Just("~~~"),
            Just("<!--"),
            Just("-->"),
            Just("</div>"),
            Just("</td></tr>"),
            Just("&amp;"),
            Just("&#60;"),
            Just("\\"),
            Just("|"),
            Just("*"),
            Just("_"),
            Just("`"),
            Just("<"),
            Just(">"),
            Just("'"),
            Just("\""),
            Just("[^1]"),
            Just("![i](https://evil.example/i.png)"),
            Just("<https://evil.example>"),
            Just("https://evil.example"),
            Just("- item"),
            Just("1. item"),
            Just("    indented"),
            Just("---"),
            Just(" "),
            Just("word"),
        ],
        1..12,
    )
    .prop_map(|parts| format!("N{}", parts.concat()))
}

fn format() -> impl Strategy<Value = Format> {
    prop_oneof![
        Just(Format::Native),
        Just(Format::AllContributors),
        Just(Format::RustTeam),
        Just(Format::MaintainersCsv),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn data_never_becomes_markup(format in format(), text in hostile()) {
        let (plain_files, people) = roster(format, "Plain Words");
        let plain = expand(&plain_files, people).expect("plain data expands");
        let (files, people) = roster(format, &text);
        let expanded = expand(&files, people).map_err(|e| TestCaseError::fail(format!("{format:?}: {e}")))?;
        // mdBook's `links` preprocessor, before or after us, sees no
        // directive the data wrote.
        let unescaped = expanded.match_indices("{{#").filter(|(i, _)| !expanded[..*i].ends_with('\\'));
        prop_assert_eq!(unescaped.count(), plain.matches("{{#").count(), "{}", expanded);
        let (want, got) = (markup(&render(&plain)), markup(&render(&expanded)));
        prop_assert_eq!(&got, &want, "{:?} with {:?}:\n{}", format, text, expanded);
    }
}

#[test]
fn markup_is_tags_attributes_and_urls() {
    let html = "<p>x</p><a href=\"https://a.example/\" title='t > u'>y</a><img src=x alt=\"&lt;\" /><h2 id=\"h\"><a href=\"#h\">h</a></h2>";
    assert_eq!(
        markup(html),
        [
            "a href=https://a.example/ title",
            "/a",
            "img src=x alt",
            "h2 id",
            "a href",
            "/a",
            "/h2"
        ]
    );
}
