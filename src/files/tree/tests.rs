//! The spanned tree from TOML and JSON: the same shape either way, spans
//! on keys and values, and the errors of each reader.

use super::*;

fn parse(text: &str, json: bool) -> Result<(Arc<SourceFile>, Node), Vec<Diagnostic>> {
    parse_bytes(text.as_bytes().to_vec(), "data", json)
}

fn entries(node: &Node) -> &[Entry] {
    match &node.kind {
        NodeKind::Table(e) => e,
        other => panic!("not a table: {other:?}"),
    }
}

#[test]
fn toml_and_json_give_the_same_tree_shape_with_spans() {
    let toml = "[people.a]\nname = \"A\"\n\n[[groups]]\nid = \"g\"\nmembers = [\"a\", { handle = \"a\", status = \"x\" }]\n";
    let json = r#"{"people": {"a": {"name": "A"}}, "groups": [{"id": "g", "members": ["a", {"handle": "a", "status": "x"}]}]}"#;
    for (text, is_json) in [(toml, false), (json, true)] {
        let (file, root) = parse(text, is_json).expect("valid");
        let top = entries(&root);
        assert_eq!(top[0].key, "people");
        assert_eq!(top[1].key, "groups");
        let person = &entries(&top[0].value)[0];
        assert_eq!(
            &file.text[person.key_span.clone()],
            if is_json { "\"a\"" } else { "a" }
        );
        let NodeKind::Array(groups) = &top[1].value.kind else {
            panic!("array")
        };
        let members = &entries(&groups[0])[1].value;
        let NodeKind::Array(members) = &members.kind else {
            panic!("array")
        };
        assert_eq!(&file.text[members[0].span.clone()], "\"a\"");
        let status = &entries(&members[1])[1];
        assert_eq!(&file.text[status.value.span.clone()], "\"x\"");
    }
}

#[test]
fn syntax_errors_have_positions() {
    let err = parse("[people]\nname = \n", false).expect_err("invalid");
    assert!(err[0].message.contains("not valid TOML"));
    let err = parse("{\"a\": [1,}", true).expect_err("invalid");
    assert!(err[0].message.contains("not valid JSON"));
    let Some(crate::diagnostic::Location::File { range, .. }) = &err[0].location else {
        panic!("located")
    };
    assert_eq!(range.start, 9);
}

#[test]
fn json_duplicate_keys_are_errors() {
    let err = parse("{\"a\": 1,\n \"a\": 2}", true).expect_err("duplicate");
    assert!(err[0].message.contains("duplicate key `a`"));
    assert_eq!(err[0].notes, ["first defined on line 1"]);
}

#[test]
fn bom_crlf_and_invalid_utf8() {
    let (_, root) = parse("\u{feff}[people.a]\r\nname = \"A\"\r\n", false).expect("valid");
    assert_eq!(entries(&root).len(), 1);
    let err = parse_bytes(b"name = \"\xff\"\n".to_vec(), "d.toml", false).expect_err("bad");
    assert!(err[0].message.contains("not valid UTF-8"));
}

fn yaml(text: &str) -> Result<Node, Diagnostic> {
    yaml::parse(&Arc::new(SourceFile::new("OWNERS".into(), text.into())))
}

/// Issue 26 (5): with one non-ASCII character, spans are byte offsets
/// found by one table, not by counting characters per event.
#[test]
fn yaml_spans_are_bytes_after_non_ascii_text() {
    let text = "# é\naliases:\n  a:\n    - ü\n    - b\n";
    let node = yaml(text).expect("valid");
    let aliases = &entries(&node)[0];
    let list = &entries(&aliases.value)[0].value;
    let NodeKind::Array(items) = &list.kind else {
        panic!("{list:?}")
    };
    assert_eq!(&text[items[0].span.clone()], "ü");
    assert_eq!(&text[items[1].span.clone()], "b");
}

/// Issue 26 (14, 15): a NUL byte, a second document and a repeated key are
/// errors at their place; an empty value is nothing, not a string.
#[test]
fn yaml_that_would_lose_data_is_an_error() {
    let messages = |text: &str| yaml(text).expect_err("invalid").message;
    assert!(messages("aliases:\n  a:\n    - torvalds\0-impostor\n").contains("NUL byte"));
    assert!(
        messages("aliases:\n  a: [x]\n---\naliases:\n  b: [y]\n").contains("second YAML document")
    );
    assert!(
        messages("aliases:\n  a: [x]\naliases:\n  b: [y]\n").contains("`aliases` is given twice")
    );
    let node = yaml("approvers:\n").expect("valid");
    assert_eq!(entries(&node)[0].value.kind.describe(), "nothing (null)");
}
