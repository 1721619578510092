//! Unit tests of `markdown/mod.rs`.

use super::*;
use pulldown_cmark::{Tag, TagEnd};

#[test]
fn generated_markdown_is_escaped() {
    let md = to_markdown(
        [
            Event::Start(Tag::Paragraph),
            Event::Text("<script>alert(1)</script> *x* [y](javascript:z)".into()),
            Event::End(TagEnd::Paragraph),
        ],
        Options::empty(),
    );
    let html = {
        let mut s = String::new();
        pulldown_cmark::html::push_html(&mut s, pulldown_cmark::Parser::new(&md));
        s
    };
    assert!(!html.contains("<script>"), "{html}");
    assert!(!html.contains("<em>") && !html.contains("<a "), "{html}");
}

#[test]
fn remembered_results_are_the_same() {
    let events = || {
        [
            Event::Start(Tag::Paragraph),
            Event::Text("a *b*".into()),
            Event::Start(Tag::Link {
                link_type: pulldown_cmark::LinkType::Inline,
                dest_url: "https://example.com/x".into(),
                title: "".into(),
                id: "".into(),
            }),
            Event::Text("x".into()),
            Event::End(TagEnd::Link),
            Event::End(TagEnd::Paragraph),
        ]
    };
    let first = to_markdown(events(), Options::empty());
    assert_eq!(to_markdown(events(), Options::empty()), first);
    // Another destination is another result.
    let mut other = events();
    if let Event::Start(Tag::Link { dest_url, .. }) = &mut other[2] {
        *dest_url = "https://example.com/y".into();
    }
    assert_ne!(to_markdown(other, Options::empty()), first);
    // Other options are remembered apart (and write the same here).
    assert_eq!(to_markdown(events(), Options::ENABLE_TABLES), first);
}

#[test]
fn crlf_detection() {
    assert!(uses_crlf("a\r\nb"));
    assert!(!uses_crlf("a\nb\r\n"));
    assert!(!uses_crlf("no newline"));
}

#[test]
fn a_pipe_stays_inside_its_table_cell() {
    use pulldown_cmark::{Alignment, CowStr, LinkType, Tag, TagEnd};
    let cell = |inner: Vec<Event<'static>>| {
        let mut events = vec![Event::Start(Tag::TableCell)];
        events.extend(inner);
        events.push(Event::End(TagEnd::TableCell));
        events
    };
    let mut events = vec![
        Event::Start(Tag::Table(vec![Alignment::None, Alignment::None])),
        Event::Start(Tag::TableHead),
    ];
    events.extend(cell(vec![Event::Text("a".into())]));
    events.extend(cell(vec![Event::Text("b".into())]));
    events.push(Event::End(TagEnd::TableHead));
    events.push(Event::Start(Tag::TableRow));
    events.extend(cell(vec![
        Event::Text("t|x".into()),
        Event::Code("c|d".into()),
    ]));
    events.extend(cell(vec![
        Event::Start(Tag::Link {
            link_type: LinkType::Inline,
            dest_url: CowStr::from("https://e.com/p|[y](javascript:alert(1))"),
            title: "ti|t".into(),
            id: "".into(),
        }),
        Event::Text("l".into()),
        Event::End(TagEnd::Link),
        Event::InlineHtml("<img alt=\"a|[z](javascript:alert(2))\">".into()),
    ]));
    events.push(Event::End(TagEnd::TableRow));
    events.push(Event::End(TagEnd::Table));
    let markdown = to_markdown(events, Options::all());
    let mut html = String::new();
    pulldown_cmark::html::push_html(
        &mut html,
        pulldown_cmark::Parser::new_ext(&markdown, Options::all()),
    );
    assert!(
        html.contains(
            "<tr><td>t|x<code>c|d</code></td><td><a href=\"https://e.com/p%7C%5By%5D(javascript:alert(1))\" title=\"ti|t\">l</a><img alt=\"a&#124;[z](javascript:alert(2))\"></td></tr>"
        ),
        "{markdown}\n{html}"
    );
}

/// Data that must show as written wherever an inline expansion lands.
const HOSTILE: &[&str] = &[
    "Core {onmouseover=alert(2)}",
    "Core {#id .cls tabindex=0 onfocus=alert(1)}",
    "Team #",
    "Team ##",
    "ends with a backslash\\",
    "jan--f and a---b",
    "wait... \"quoted\" 'single'",
    "{{#include /etc/passwd}}",
    "{{ #title Owned }}",
    "*em* _u_ `code` [l](javascript:x) <b>h</b> &amp; ~~s~~ ^sup^ $m$ [[wiki]] [^1]",
    "1. x",
    "1) y",
    "- y",
    "+ z",
    "# h",
    "> q",
    ": definition",
    "===",
    "    indented",
    "a | b",
    "line\nbreak # x",
    "two  \nspaces",
    "\u{FDD0}0\u{FDD1}",
    " spaced ",
    "tab\there",
    "<!-- comment",
    "```",
    "~~~",
];

/// The text and attributes Markdown sees in `markdown`, as mdBook 0.5
/// would parse it (all of pulldown-cmark's extensions, to be safe).
fn seen(markdown: &str) -> (String, Vec<String>) {
    use pulldown_cmark::{Parser, Tag};
    let mut text = String::new();
    let mut problems = Vec::new();
    for event in Parser::new_ext(markdown, Options::all()) {
        match event {
            Event::Text(t) | Event::Code(t) => text.push_str(&t),
            Event::SoftBreak => text.push('\n'),
            Event::Html(h) | Event::InlineHtml(h) => problems.push(format!("HTML {h:?}")),
            Event::Start(Tag::Heading {
                id, classes, attrs, ..
            }) if id.is_some() || !classes.is_empty() || !attrs.is_empty() => {
                problems.push(format!("heading attributes {id:?} {classes:?} {attrs:?}"));
            }
            Event::Start(
                tag @ (Tag::Link { .. }
                | Tag::Image { .. }
                | Tag::Emphasis
                | Tag::Strong
                | Tag::Strikethrough
                | Tag::CodeBlock(_)
                | Tag::HtmlBlock
                | Tag::List(_)
                | Tag::BlockQuote(_)
                | Tag::FootnoteDefinition(_)
                | Tag::DefinitionList
                | Tag::Superscript
                | Tag::Subscript),
            ) => problems.push(format!("markup {tag:?}")),
            Event::FootnoteReference(_) | Event::InlineMath(_) | Event::DisplayMath(_) => {
                problems.push(format!("markup {event:?}"));
            }
            _ => {}
        }
    }
    (text, problems)
}

/// Issue 17 (1, 3, 13, 19) and issue 16 (7): data text written by the
/// writer is text wherever it is spliced (heading, table cell, link text,
/// paragraph, the start of a line), under every extension, smart
/// punctuation included; and nothing of it is left for mdBook's `{{#...}}`.
#[test]
fn data_text_is_literal_in_every_context() {
    let contexts: &[(&str, &str)] = &[
        ("## Ask ", "\n"),
        ("| h | i |\n|---|---|\n| ", " | cell |\n"),
        ("Paragraph\n", " end\n"),
        ("", "\n"),
        ("Some ", " text.\n"),
    ];
    for hostile in HOSTILE {
        let written = to_markdown(
            [Event::Text((*hostile).into())],
            Options::all() - Options::ENABLE_HEADING_ATTRIBUTES,
        );
        assert!(!written.contains("{{"), "{written}");
        assert!(!written.contains('\u{FDD0}'), "{written}");
        for (before, after) in contexts {
            let markdown = format!("{before}{written}{after}");
            let (text, problems) = seen(&markdown);
            assert!(
                problems.is_empty(),
                "{hostile:?} in {markdown:?}: {problems:?}"
            );
            assert!(
                text.contains(hostile.trim()),
                "{hostile:?} shows as {text:?} in {markdown:?}"
            );
        }
        // A table keeps its two cells.
        let table = format!("| h | i |\n|---|---|\n| {written} | cell |\n");
        let cells = pulldown_cmark::Parser::new_ext(&table, Options::all())
            .filter(|e| matches!(e, Event::Start(pulldown_cmark::Tag::TableCell)))
            .count();
        assert_eq!(cells, 4, "{table}");
    }
}

/// Code spans and blocks from data that hold `{{` become HTML with the
/// braces as character references; destinations are percent-encoded.
#[test]
fn braces_in_code_and_destinations_are_never_left_for_mdbook() {
    use pulldown_cmark::{CodeBlockKind, LinkType};
    let markdown = to_markdown(
        [
            Event::Start(Tag::Paragraph),
            Event::Code("{{#include x}}".into()),
            Event::Start(Tag::Link {
                link_type: LinkType::Inline,
                dest_url: "https://e.com/{{#include x}}".into(),
                title: "{{#title t}}".into(),
                id: "".into(),
            }),
            Event::Text("l".into()),
            Event::End(TagEnd::Link),
            Event::End(TagEnd::Paragraph),
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced("sh".into()))),
            Event::Text("{{#include /etc/passwd}}\n\nx\n".into()),
            Event::End(TagEnd::CodeBlock),
        ],
        Options::all(),
    );
    assert!(
        !markdown.contains("{{") && !markdown.contains("}}"),
        "{markdown}"
    );
    let mut html = String::new();
    pulldown_cmark::html::push_html(
        &mut html,
        pulldown_cmark::Parser::new_ext(&markdown, Options::all()),
    );
    assert!(html.contains("<code>{{#include x}}</code>"), "{html}");
    assert!(
        html.contains("href=\"https://e.com/%7B%7B#include%20x%7D%7D\""),
        "{html}"
    );
    assert!(html.contains("<pre><code class=\"language-sh\">"), "{html}");
}

/// Issue 17 (4, 5): text that leaves a block open is found, where it opens.
#[test]
fn unclosed_blocks_are_found() {
    let options = MarkdownOptions::defaults(crate::mdbook::Generation::V05);
    for (text, open) in [
        ("a\n\n```\ncode", Some("```")),
        ("a\n\n~~~rust\ncode\n", Some("~~~rust")),
        ("a\n<!-- never closed\n\nb", Some("<!-- never closed")),
        ("<pre>\nx", Some("<pre>")),
        ("a\n\n```\ncode\n```\n", None),
        ("- item\n\n  more", None),
        ("> quote", None),
        ("<div>\nhtml\n", None),
        ("| a |\n|---|\n| b |", None),
    ] {
        let found = unclosed_block(text, options).map(|r| &text[r]);
        assert_eq!(found, open, "{text:?}");
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// Any text, written by the writer and spliced into a heading, a
        /// table cell, a paragraph or the start of a line, is seen by every
        /// extension as exactly that text and nothing else.
        #[test]
        fn any_text_is_literal_in_every_context(
            text in "[a-z0-9 #{}\\\\|*_`~<>&!\\[\\]()\\-.'\":=+^$@%\n\t\u{e9}\u{FDD0}]{0,40}"
        ) {
            let written = to_markdown([Event::Text(text.clone().into())], Options::all());
            prop_assert!(!written.contains("{{"));
            for (before, after) in [
                ("## Ask ", "\n"),
                ("| h | i |\n|---|---|\n| ", " | cell |\n"),
                ("Paragraph\n", "\n"),
                ("", "\n"),
            ] {
                let markdown = format!("{before}{written}{after}");
                let (seen_text, problems) = seen(&markdown);
                prop_assert!(problems.is_empty(), "{:?} in {:?}: {:?}", text, markdown, problems);
                // Spaces at the edges of a cell or heading may go, as in
                // any Markdown.
                let shown = text.trim_matches(' ');
                prop_assert!(seen_text.contains(shown), "{:?} seen as {:?} in {:?}", text, seen_text, markdown);
            }
        }
    }
}

#[test]
fn notes_show_the_messages_code_spans_as_code() {
    let message = "no chapter `codeowners.md` in this book";
    let options = pulldown_cmark::Options::empty();
    let inline = error_note([message], Placement::Inline, options);
    assert_eq!(
        inline,
        "**\\[mdbook-community error: no chapter `codeowners.md` in this book\\]**"
    );
    let block = error_note([message], Placement::Block, options);
    assert!(
        block.ends_with("> **mdbook-community error:** no chapter `codeowners.md` in this book"),
        "{block}"
    );
    let mut events = Vec::new();
    message_events("a `b` c ``d `e", &mut events);
    assert_eq!(
        events,
        [
            Event::Text("a ".into()),
            Event::Code("b".into()),
            Event::Text(" c ``d `e".into()),
        ]
    );
}

/// File and folder names that could end a table row, a list item or a
/// heading, open HTML or close a code span.
const HOSTILE_PATHS: &[&str] = &[
    "a\n<img src=x onerror=alert(1)>",
    "b\r[click](javascript:alert(2))",
    "c\n\n<script>alert(3)</script>",
    "d\r\n- item\r\n# heading",
    "e|f<g>`h``i",
    "`lead/",
    "trail`/",
    " ` ",
    "x\u{1b}[31my\u{7}",
    "tab\there/",
    "{{#include /etc/passwd}}/",
    "u\u{2028}v\u{85}w",
    "ends\\",
    "two  \nspaces",
    "<!-- open",
    "```",
    "&amp; &#60;",
];

/// Issue 38 (1): a path in a code span is text in a table cell, a list
/// item, a heading and a paragraph: the same rows, cells, items and
/// headings as a plain path, no element but `<code>`, and its characters
/// shown (line breaks as spaces, as in any code span).
#[test]
fn paths_are_text_in_code_spans_in_every_context() {
    use pulldown_cmark::{Alignment, HeadingLevel};
    type Context = fn(Event<'static>) -> Vec<Event<'static>>;
    let contexts: Vec<(&str, Context)> = vec![
        ("table", |code| {
            let mut events = vec![
                Event::Start(Tag::Table(vec![Alignment::None, Alignment::None])),
                Event::Start(Tag::TableHead),
                Event::Start(Tag::TableCell),
                Event::Text("Folder".into()),
                Event::End(TagEnd::TableCell),
                Event::Start(Tag::TableCell),
                Event::Text("Files".into()),
                Event::End(TagEnd::TableCell),
                Event::End(TagEnd::TableHead),
            ];
            for _ in 0..2 {
                events.extend([
                    Event::Start(Tag::TableRow),
                    Event::Start(Tag::TableCell),
                    code.clone(),
                    Event::End(TagEnd::TableCell),
                    Event::Start(Tag::TableCell),
                    Event::Text("1".into()),
                    Event::End(TagEnd::TableCell),
                    Event::End(TagEnd::TableRow),
                ]);
            }
            events.push(Event::End(TagEnd::Table));
            events
        }),
        ("list", |code| {
            vec![
                Event::Start(Tag::List(None)),
                Event::Start(Tag::Item),
                code.clone(),
                Event::Text(" x".into()),
                Event::End(TagEnd::Item),
                Event::Start(Tag::Item),
                code,
                Event::End(TagEnd::Item),
                Event::End(TagEnd::List(false)),
            ]
        }),
        ("heading", |code| {
            let heading = || Tag::Heading {
                level: HeadingLevel::H2,
                id: None,
                classes: Vec::new(),
                attrs: Vec::new(),
            };
            vec![
                Event::Start(heading()),
                Event::Text("Owners of ".into()),
                code.clone(),
                Event::End(TagEnd::Heading(HeadingLevel::H2)),
                Event::Start(Tag::Paragraph),
                code,
                Event::End(TagEnd::Paragraph),
            ]
        }),
    ];
    let structure = |html: &str| -> Vec<String> {
        html.split('<')
            .skip(1)
            .map(|tag| {
                tag.split(['>', ' ', '\n'])
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect()
    };
    let html_of = |markdown: &str| {
        let mut html = String::new();
        pulldown_cmark::html::push_html(
            &mut html,
            pulldown_cmark::Parser::new_ext(markdown, Options::all()),
        );
        html
    };
    let visible = |text: &str| -> String { text.chars().filter(|c| !c.is_whitespace()).collect() };
    for (context, events) in &contexts {
        let plain = html_of(&to_markdown(
            events(Event::Code("plain".into())),
            Options::all(),
        ));
        for path in HOSTILE_PATHS {
            let markdown = to_markdown(events(Event::Code((*path).into())), Options::all());
            assert!(
                !markdown.contains("{{"),
                "{path:?} in a {context}: {markdown}"
            );
            let html = html_of(&markdown);
            assert_eq!(
                structure(&html),
                structure(&plain),
                "{path:?} in a {context}:\n{markdown}\n{html}"
            );
            let mut escaped = String::new();
            let _ = pulldown_cmark_escape::escape_html(&mut escaped, path);
            let shown = html.replace("&#x27;", "'");
            assert!(
                visible(&shown).contains(&visible(&escaped)),
                "{path:?} not shown in a {context}:\n{markdown}\n{html}"
            );
        }
    }
}
