//! Unit tests of `mdbook/book.rs`.

use super::*;
use serde_json::{Value, json};

fn chapter(name: &str, content: &str, subs: Value) -> Value {
    json!({"Chapter": {
        "name": name, "content": content, "number": null, "sub_items": subs,
        "path": format!("{name}.md"), "source_path": format!("{name}.md"), "parent_names": []
    }})
}

fn written(book: &Book, contents: &[Option<String>]) -> Value {
    let mut out = Vec::new();
    book.write(&mut out, contents).expect("write");
    serde_json::from_slice(&out).expect("JSON")
}

#[test]
fn walks_in_reading_order_and_writes_back() {
    let original = json!({"items": [
        chapter("a", "A \"quoted\"\n", json!([chapter("a1", "A1", json!([]))])),
        "Separator",
        {"PartTitle": "Part"},
        chapter("b", "B", json!([])),
    ], "future": {"x": [1, 2]}});
    let text = original.to_string();
    let book = Book::parse(&text).expect("valid");
    assert_eq!(book.generation, Generation::V05);
    let names: Vec<_> = book.chapters.iter().map(|c| c.name()).collect();
    assert_eq!(names, ["a", "a1", "b"]);
    assert_eq!(book.chapters[0].content, "A \"quoted\"\n");
    // Nothing changed: the same bytes.
    let mut out = Vec::new();
    book.write(&mut out, &[None, None, None]).expect("write");
    assert_eq!(out, text.as_bytes());
    // One content changed: only it.
    let mut expected = original.clone();
    expected["items"][0]["Chapter"]["sub_items"][0]["Chapter"]["content"] =
        json!("new \u{1F600} \\ \"");
    let changed = written(&book, &[None, Some("new \u{1F600} \\ \"".into()), None]);
    assert_eq!(changed, expected);
}

#[test]
fn sub_items_before_content_keep_reading_order() {
    let text = r#"{"sections":[{"Chapter":{"sub_items":[{"Chapter":{"name":"child","content":"c","sub_items":[]}}],"name":"parent","content":"p"}}],"__non_exhaustive":null}"#;
    let book = Book::parse(text).expect("valid");
    assert_eq!(book.generation, Generation::V04);
    let names: Vec<_> = book.chapters.iter().map(|c| c.name()).collect();
    assert_eq!(names, ["parent", "child"]);
    let out = written(&book, &[Some("P".into()), Some("C".into())]);
    assert_eq!(out["sections"][0]["Chapter"]["content"], "P");
    assert_eq!(
        out["sections"][0]["Chapter"]["sub_items"][0]["Chapter"]["content"],
        "C"
    );
    assert_eq!(out["__non_exhaustive"], Value::Null);
}

#[test]
fn odd_values_are_stepped_over() {
    let text = r#"{"items":[{"Chapter":{"name":1,"content":null,"path":null,"sub_items":{"x":1}}},{"Chapter":[1]},{"Other":{"Chapter":2}},3,null,[{"Chapter":{}}]]}"#;
    let book = Book::parse(text).expect("valid");
    assert_eq!(book.chapters.len(), 1);
    assert_eq!(book.chapters[0].name(), "");
    assert_eq!(book.chapters[0].path(), None);
    assert_eq!(book.content_spans(), [None]);
    let mut out = Vec::new();
    book.write(&mut out, &[Some("ignored".into())])
        .expect("write");
    assert_eq!(out, text.as_bytes());
}

#[test]
fn draft_chapters_have_no_path_and_backslashes_become_slashes() {
    let text = r#"{"sections":[{"Chapter":{"name":"Draft","content":"","sub_items":[],"path":null,"source_path":"a\\b.md"}}],"__non_exhaustive":null}"#;
    let book = Book::parse(text).expect("valid");
    assert_eq!(book.chapters[0].path(), None);
    assert_eq!(book.chapters[0].source_path(), Some("a/b.md"));
}

#[test]
fn bad_books_are_explained() {
    for (text, expected) in [
        ("[]", "is not a JSON object"),
        ("{}", "neither `items`"),
        (r#"{"items": 3}"#, "neither `items`"),
        (r#"{"items": [}"#, "not valid JSON"),
        (
            r#"{"items": [{"Chapter": {"content": "\ud800"}}]}"#,
            "not valid JSON",
        ),
    ] {
        let error = Book::parse(text).expect_err(text).to_string();
        assert!(error.contains(expected), "{text}: {error}");
    }
}

/// A repeated key counts once, its last time, as in a JSON value.
#[test]
fn repeated_keys_count_their_last_time() {
    let text = r#"{"items":[{"Chapter":{"name":"gone"}}],"items":[{"Chapter":{"name":"a","sub_items":[{"Chapter":{"name":"gone too"}}],"sub_items":[{"Chapter":{"name":"a1"}}]},"Chapter":{"name":"b","content":"x","content":"y"}}]}"#;
    let book = Book::parse(text).expect("valid");
    let names: Vec<_> = book.chapters.iter().map(|c| c.name()).collect();
    assert_eq!(names, ["b"]);
    assert_eq!(book.chapters[0].content, "y");
    let value: Value = serde_json::from_str(text).expect("JSON");
    assert_eq!(value["items"][0]["Chapter"]["name"], "b");
    let text = r#"{"items":[{"Chapter":{"name":"a","sub_items":[{"Chapter":{"name":"gone"}}],"sub_items":[{"Chapter":{"name":"a1"}}]}}]}"#;
    let book = Book::parse(text).expect("valid");
    let names: Vec<_> = book.chapters.iter().map(|c| c.name()).collect();
    assert_eq!(names, ["a", "a1"]);
    let text = r#"{"items":[{"Chapter":{"name":"a","content":"x","content":null}}]}"#;
    let book = Book::parse(text).expect("valid");
    assert_eq!(book.chapters[0].content, "");
    assert_eq!(book.content_spans(), [None]);
}

#[test]
fn with_both_lists_the_items_are_answered() {
    let text = r#"{"sections":[{"Chapter":{"name":"old","content":"o"}}],"items":[{"Chapter":{"name":"new","content":"n"}}]}"#;
    let book = Book::parse(text).expect("valid");
    assert_eq!(book.generation, Generation::V05);
    let names: Vec<_> = book.chapters.iter().map(|c| c.name()).collect();
    assert_eq!(names, ["new"]);
    let out = written(&book, &[Some("N".into())]);
    assert_eq!(out["items"][0]["Chapter"]["content"], "N");
    assert_eq!(out["sections"][0]["Chapter"]["content"], "o");
}

#[test]
fn contents_left_in_the_input_read_as_decoded() {
    let text = r#"{"items": [
        {"Chapter": {"name": "a", "content": "plain", "sub_items": []}},
        {"Chapter": {"name": "b", "content": "line\nnext \"q\" \u00e9 \ud83d\ude00", "sub_items": []}},
        {"Chapter": {"name": "c", "content": 3, "sub_items": []}}
    ]}"#;
    let input = Arc::new(format!("[{{}}, {text}]").into_bytes());
    let json = std::str::from_utf8(&input).expect("UTF-8");
    let book = Book::parse_in(&json[5..json.len() - 1], Some(&input)).expect("valid");
    let eager = Book::parse(text).expect("valid");
    assert_eq!(book.chapters[0].content, "plain");
    assert!(matches!(book.chapters[0].content.get(), Cow::Borrowed(_)));
    assert_eq!(book.chapters[1].content, "line\nnext \"q\" é 😀");
    assert_eq!(book.chapters[2].content, "");
    for (lazy, decoded) in book.chapters.iter().zip(&eager.chapters) {
        assert_eq!(lazy.content, decoded.content);
    }
    assert_eq!(book.content_spans(), eager.content_spans());
}

#[test]
fn a_lone_surrogate_in_a_content_left_in_the_input_is_invalid() {
    let text = r#"{"items": [{"Chapter": {"name": "a", "content": "x \ud800 y"}}]}"#;
    let input = Arc::new(text.as_bytes().to_vec());
    let json = std::str::from_utf8(&input).expect("UTF-8");
    assert!(Book::parse(text).is_err());
    assert!(Book::parse_in(json, Some(&input)).is_err());
}

#[test]
fn decodes_like_serde_json() {
    for text in [
        "plain",
        "# A\n\n\"quoted\" \\ back\tslash\r\n/ \u{8}\u{c} end\n",
        "é \u{1} \u{1F600} and \u{7f}",
        "trailing \\",
        "\n",
        "",
    ] {
        let raw = serde_json::to_string(text).expect("JSON");
        assert_eq!(decode(&raw), text, "{raw}");
        let escaped_solidus = raw.replace('/', "\\/");
        assert_eq!(decode(&escaped_solidus), text, "{escaped_solidus}");
    }
    // `\u` escapes, written by other writers, go through serde_json.
    assert_eq!(decode(r#""a\u00e9\ud83d\ude00b\n""#), "aé\u{1F600}b\n");
    assert_eq!(unescape(r"a\u00e9"), None);
    assert_eq!(unescape(r"a\x"), None);
    assert_eq!(unescape("a\\"), None);
}

#[test]
fn a_chapter_gives_back_its_name_and_paths() {
    let cases = [
        ("Intro", Some("intro.md"), Some("src/intro.md")),
        ("Draft", None, None),
        ("", Some(""), None),
        ("Ünïcode", None, Some("ü/b.md")),
        ("Same", Some("a/b.md"), Some("a/b.md")),
        ("Moved", Some("a/b.md"), Some("b.md")),
    ];
    for (name, path, source) in cases {
        let chapter = Chapter::new(name, path, source, "text");
        assert_eq!(
            (chapter.name(), chapter.path(), chapter.source_path()),
            (name, path, source)
        );
        assert_eq!(chapter.content, "text");
    }
}

#[test]
fn a_chapter_stays_small() {
    // One per chapter for the whole run: 50,000 chapters are 3.2 MB. (A
    // content decoded in place made it 64 bytes from 56: 0.2% of that
    // book's peak memory.)
    assert!(std::mem::size_of::<Chapter>() <= 64);
}

#[test]
fn contents_decoded_in_place_read_and_write_back_the_same() {
    let original = json!({"items": [
        chapter("a", "# A \"quoted\"\n\n{{#x}}\t\u{1}\u{1F600}\n", json!([])),
        chapter("b", "B\n", json!([])),
        chapter("c", "C\n", json!([])),
    ]});
    // `c` spelled as no serde_json writes it: left as it is.
    let text = original.to_string().replace(r#""C\n""#, r#""\u0043\n""#);
    let mut book = Book::parse(&text).expect("valid");
    book.decode_in_place(|i| i != 1);
    let texts: Vec<String> = book
        .chapters
        .iter()
        .map(|c| c.content.get().into())
        .collect();
    assert_eq!(
        texts,
        ["# A \"quoted\"\n\n{{#x}}\t\u{1}\u{1F600}\n", "B\n", "C\n"]
    );
    assert!(matches!(book.chapters[0].content.get(), Cow::Borrowed(_)));
    // Unchanged: every byte as it came.
    let mut out = Vec::new();
    book.write(&mut out, &[None, None, None]).expect("write");
    assert_eq!(out, text.as_bytes());
    // Changed: only the changed content.
    let changed = written(&book, &[Some("new".into()), None, None]);
    assert_eq!(changed["items"][0]["Chapter"]["content"], "new");
    assert_eq!(changed["items"][2]["Chapter"]["content"], "C\n");
}
