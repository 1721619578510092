//! Unit tests of `directives/people_md.rs`.

use super::*;
use crate::markdown::to_markdown;

fn person(handle: &str, name: &str, url: Option<&str>) -> Person {
    Person {
        handle: handle.into(),
        name: name.into(),
        github: Some(handle.into()),
        url: url.map(str::to_string),
        email: None,
        affiliation: None,
        avatar: None,
        fields: Vec::new(),
        at: None,
    }
}

fn md(events: Vec<Event<'static>>) -> String {
    to_markdown(events, pulldown_cmark::Options::ENABLE_TABLES)
}

#[test]
fn entries_follow_the_pytorch_format() {
    let sam = person(
        "colesbury",
        "Sam Gross",
        Some("https://github.com/colesbury"),
    );
    let mut out = Vec::new();
    entry_events(
        Entry {
            person: &sam,
            status: Some("sunsetting"),
            role: None,
            fields: &[],
        },
        &mut out,
    );
    assert_eq!(
        md(out),
        "(sunsetting) Sam Gross ([colesbury](https://github.com/colesbury))"
    );
    let anon = person("anon", "No Account", None);
    let mut out = Vec::new();
    entry_events(
        Entry {
            person: &anon,
            status: None,
            role: Some("lead"),
            fields: &[],
        },
        &mut out,
    );
    assert_eq!(md(out), "No Account, lead");
}

#[test]
fn sentences_join_with_and() {
    let people: Vec<Person> = ["a", "b", "c"]
        .iter()
        .map(|h| person(h, &h.to_uppercase(), None))
        .collect();
    let entries: Vec<Entry<'_>> = people.iter().map(Entry::of_person).collect();
    for (n, expected) in [(0, "(none)"), (1, "A"), (2, "A and B"), (3, "A, B and C")] {
        let mut out = Vec::new();
        sentence_events(&entries[..n], &mut out);
        assert_eq!(md(out), expected);
    }
}

#[test]
fn hostile_names_stay_text() {
    let evil = person(
        "x",
        "<script>alert(1)</script> *x* [y](javascript:z) | pipe",
        Some("https://github.com/x"),
    );
    let entries = [Entry::of_person(&evil)];
    let mut out = Vec::new();
    let columns = crate::directives::people_table::default_columns(&entries, true);
    crate::directives::people_table::table_events(&entries, &columns, None, &mut out);
    let markdown = md(out);
    let mut html = String::new();
    pulldown_cmark::html::push_html(
        &mut html,
        pulldown_cmark::Parser::new_ext(&markdown, pulldown_cmark::Options::ENABLE_TABLES),
    );
    assert!(!html.contains("<script>"), "{html}");
    assert!(!html.contains("href=\"javascript"), "{html}");
    assert!(
        html.contains("[y](javascript:z)"),
        "shown literally: {html}"
    );
    assert!(html.contains("&lt;script&gt;"), "{html}");
    // The pipe did not split the cell: one row of two cells (name and
    // handle; the empty role and status columns are left out).
    assert_eq!(html.matches("<td>").count(), 2, "{html}");
}

#[test]
fn descriptions_are_sanitized_markdown() {
    let events = sanitized_markdown_events(
        "They *maintain* [docs](guide.md) <b>bold</b> [bad](javascript:alert(1)) ![i](data:x) [x](#here)",
        plain(),
        &mut |dest| format!("../{dest}"),
    );
    let markdown = md(events);
    assert!(markdown.contains("*maintain*"), "{markdown}");
    assert!(markdown.contains("[docs](../guide.md)"), "{markdown}");
    assert!(markdown.contains("[x](#here)"), "{markdown}");
    assert!(markdown.contains("\\<b>"), "{markdown}");
    assert!(!markdown.contains("javascript"), "{markdown}");
    assert!(!markdown.contains("data:"), "{markdown}");
}

/// Issue 17 (4): a description's unclosed code fence ends with the
/// description; what the plugin writes after it is a block of its own.
#[test]
fn an_unclosed_fence_in_a_description_is_closed() {
    let mut events = sanitized_markdown_events("Intro\n\n```\nunclosed", plain(), &mut |dest| {
        dest.to_string()
    });
    events.push(Event::Start(Tag::Heading {
        level: pulldown_cmark::HeadingLevel::H2,
        id: None,
        classes: Vec::new(),
        attrs: Vec::new(),
    }));
    events.push(text("Later Group"));
    events.push(Event::End(TagEnd::Heading(
        pulldown_cmark::HeadingLevel::H2,
    )));
    let markdown = md(events);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, pulldown_cmark::Parser::new(&markdown));
    assert!(html.contains("<h2>Later Group</h2>"), "{markdown}\n{html}");
    assert!(
        html.contains("<pre><code>unclosed\n</code></pre>"),
        "{html}"
    );
}

/// mdBook 0.4's options: no smart punctuation to change the text.
fn plain() -> MarkdownOptions {
    MarkdownOptions::defaults(crate::mdbook::Generation::V04)
}
