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
