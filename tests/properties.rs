//! Properties that hold for any input (proptest):
//! - text without directives comes back byte-identical;
//! - expanding is idempotent: what an expansion produced expands to itself;
//! - splicing never touches bytes outside directive ranges;
//! - a directive inside code is never expanded;
//! - CRLF in, CRLF out.

use std::path::PathBuf;
use std::sync::OnceLock;

use mdbook_community::testing::Chapter;
use mdbook_community::testing::Settings;
use mdbook_community::testing::builtin_registry;
use mdbook_community::testing::{Context, Generation};
use proptest::prelude::*;

/// A book root with every data file, shared by all cases.
fn root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = tempfile::tempdir().expect("tempdir").keep();
        std::fs::write(
            dir.join("maintainers.toml"),
            "[people.ada]\nname = \"Ada Lovelace\"\n\n[people.bob]\nname = \"Bob\"\ngithub = false\n\n[[groups]]\nid = \"core\"\ntitle = \"Core\"\nmembers = [\"ada\", { handle = \"bob\", status = \"emeritus\" }]\n",
        )
        .expect("write");
        std::fs::write(dir.join("CODEOWNERS"), "* @ada\n/docs/ @bob @org/team\n").expect("write");
        std::fs::write(dir.join("CONTRIBUTING.md"), "# Contributing\n\n## Testing\n").expect("write");
        dir
    })
}

fn settings() -> Settings {
    let context = Context {
        root: root().clone(),
        config: serde_json::json!({"preprocessor": {"community": {
            "contributing-url": "https://github.com/o/r/blob/main/CONTRIBUTING.md",
            "check-anchors": "off"
        }}}),
        renderer: "html".into(),
        mdbook_version: "0.5.4".into(),
    };
    Settings::from_context(&context, Generation::V05).expect("valid settings")
}

/// Expands one chapter; `None` when it came back unchanged, and whether any
/// error was reported.
fn expand(text: &str) -> (Option<String>, bool) {
    let chapters = vec![
        Chapter::new("Chapter", Some("chapter.md"), Some("chapter.md"), text),
        Chapter::new(
            "Other",
            Some("other.md"),
            Some("other.md"),
            "# Other\n\n## Part\n",
        ),
    ];
    let (mut contents, diagnostics) =
        mdbook_community::testing::process_chapters(&settings(), &builtin_registry(), &chapters);
    (
        contents.swap_remove(0),
        diagnostics.iter().any(|d| d.is_error()),
    )
}

/// Markdown-ish text: the characters that matter to Markdown and to the
/// scanner, without ever forming one of our directives.
fn plain_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("\n".to_string()),
            Just("\r\n".to_string()),
            Just("# ".to_string()),
            Just("- ".to_string()),
            Just("> ".to_string()),
            Just("```".to_string()),
            Just("~~~".to_string()),
            Just("`".to_string()),
            Just("{".to_string()),
            Just("}".to_string()),
            Just("{{ #include x.md }}".to_string()),
            Just("{{#title T}}".to_string()),
            Just("[a](b.md#c)".to_string()),
            Just("<div>".to_string()),
            Just("\\".to_string()),
            Just("| a |".to_string()),
            "[a-zA-Z0-9 .,*_#-]{1,12}",
            "\\PC{1,4}",
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
    .prop_filter("no directive of ours", |text| !has_directive(text))
}

fn has_directive(text: &str) -> bool {
    let squashed: String = text.chars().filter(|c| *c != ' ' && *c != '\t').collect();
    [
        "{{#maintainers",
        "{{#person",
        "{{#codeowners",
        "{{#contributing",
        "{{#ref",
    ]
    .iter()
    .any(|d| squashed.contains(d))
        || text.contains("faq")
}

/// A directive of ours that expands without error.
fn directive() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "{{#person ada}}",
        "{{#person bob}}",
        "{{#maintainers core style=inline}}",
        "{{#maintainers core style=inline hide=emeritus}}",
        "{{#codeowners docs/x.md}}",
        "{{#contributing #testing}}",
        "{{#contributing}}",
        "{{#ref other.md#part}}",
        "{{#ref other.md \"the other page\"}}",
    ])
}

/// A block directive, on a paragraph of its own.
fn block_directive() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "{{#maintainers core}}",
        "{{#maintainers core style=table}}",
        "{{#maintainers}}",
        "{{#codeowners}}",
        "```faq\n## Q?\nAn *answer* with {{#person ada}}.\n\n## R\n- a\n- b\n```",
        "```faq open id-prefix=faq-\n## Q?\nA.\n```",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn text_without_directives_is_untouched(text in plain_text()) {
        let (out, _) = expand(&text);
        prop_assert_eq!(out, None);
    }

    #[test]
    fn splicing_touches_only_the_directive(before in plain_text(), call in directive(), after in plain_text()) {
        // Separate the call from the random text so that it is plain text in
        // a paragraph of its own whenever the random text allows it.
        let text = format!("{before}\n\n{call}\n\n{after}");
        let (out, _) = expand(&text);
        // Random text that leaves a code block or HTML open hides the call;
        // such cases are not counted, so every counted case expanded.
        prop_assume!(out.is_some());
        let out = out.unwrap_or_default();
        let head = format!("{before}\n\n");
        let tail = format!("\n\n{after}");
        prop_assert!(out.starts_with(&head), "prefix changed: {:?}", out);
        prop_assert!(out.ends_with(&tail), "suffix changed: {:?}", out);
        prop_assert!(!out.contains(call), "not expanded: {:?}", out);
    }

    #[test]
    fn expanding_is_idempotent(
        before in "[a-z .]{0,20}",
        inline in directive(),
        block in block_directive(),
        after in "[a-z .]{0,20}",
    ) {
        let text = format!("# Title\n\n{before} {inline} {after}\n\n{block}\n\n{after}\n");
        let (once, errors) = expand(&text);
        prop_assert!(!errors, "the directives are valid");
        let once = once.expect("directives expanded");
        let (twice, _) = expand(&once);
        prop_assert_eq!(twice, None, "a second pass changed the output:\n{}", once);
    }

    #[test]
    fn directives_in_code_are_never_expanded(call in directive(), fence in prop::sample::select(vec!["```", "~~~", "````"])) {
        for text in [
            format!("Inline `{call}` code.\n"),
            format!("{fence}text\n{call}\n{fence}\n"),
            format!("Para.\n\n    {call}\n"),
            format!("<div>\n{call}\n</div>\n"),
            format!("<!-- {call} -->\n"),
            format!("\\{call}\n"),
        ] {
            let (out, _) = expand(&text);
            prop_assert_eq!(out, None, "expanded in: {:?}", text);
        }
    }

    #[test]
    fn crlf_in_crlf_out(inline in directive(), block in block_directive(), words in "[a-z ]{0,30}") {
        let text = format!("# Title\n\n{words} {inline}\n\n{block}\n\n- item {inline}\n\n> {words}\n").replace('\n', "\r\n");
        let (out, errors) = expand(&text);
        prop_assert!(!errors);
        let out = out.expect("expanded");
        prop_assert!(!out.replace("\r\n", "").contains('\n'), "a bare LF in: {:?}", out);
        prop_assert!(!out.replace("\r\n", "").contains('\r'), "a bare CR in: {:?}", out);
    }
}
