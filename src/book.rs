//! The book walk: chapters out of mdBook's book JSON, and their new contents
//! back in, leaving every other byte of the JSON as it was.

use serde_json::{Map, Value};

use crate::protocol::Generation;

/// One chapter, as the rest of the pipeline sees it.
#[derive(Debug, Clone, Default)]
pub struct Chapter {
    /// The chapter's name (its title in `SUMMARY.md`).
    pub name: String,
    /// The chapter's path relative to the book's `src` folder, with `/`
    /// separators (`None` for a draft chapter).
    pub path: Option<String>,
    /// The file the content came from, relative to `src`.
    pub source_path: Option<String>,
    /// The Markdown content, after the preprocessors that ran before us.
    pub content: String,
}

/// Takes every chapter's content out of `book`, in reading order.
pub fn take_chapters(book: &mut Value, generation: Generation) -> Vec<Chapter> {
    let mut chapters = Vec::new();
    for_each_chapter(book, generation, &mut |map| {
        let content = match map.get_mut("content") {
            Some(Value::String(s)) => std::mem::take(s),
            _ => String::new(),
        };
        chapters.push(Chapter {
            name: string_field(map, "name").unwrap_or_default(),
            path: string_field(map, "path").map(|p| p.replace('\\', "/")),
            source_path: string_field(map, "source_path").map(|p| p.replace('\\', "/")),
            content,
        });
    });
    chapters
}

/// Puts contents back, in the order [`take_chapters`] took them.
pub fn restore_chapters(book: &mut Value, generation: Generation, chapters: Vec<Chapter>) {
    let mut contents = chapters.into_iter().map(|c| c.content);
    for_each_chapter(book, generation, &mut |map| {
        if let (Some(Value::String(slot)), Some(content)) =
            (map.get_mut("content"), contents.next())
        {
            *slot = content;
        }
    });
}

fn string_field(map: &Map<String, Value>, key: &str) -> Option<String> {
    match map.get(key) {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    }
}

/// Calls `f` on every chapter object, depth first, in reading order.
fn for_each_chapter(
    book: &mut Value,
    generation: Generation,
    f: &mut dyn FnMut(&mut Map<String, Value>),
) {
    if let Some(Value::Array(items)) = book.get_mut(generation.items_key()) {
        walk_items(items, f);
    }
}

fn walk_items(items: &mut [Value], f: &mut dyn FnMut(&mut Map<String, Value>)) {
    for item in items {
        let Some(Value::Object(chapter)) = item.get_mut("Chapter") else {
            continue; // "Separator", {"PartTitle": ...}, or something newer
        };
        f(chapter);
        if let Some(Value::Array(sub_items)) = chapter.get_mut("sub_items") {
            walk_items(sub_items, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chapter(name: &str, content: &str, subs: Value) -> Value {
        serde_json::json!({"Chapter": {
            "name": name, "content": content, "number": null, "sub_items": subs,
            "path": format!("{name}.md"), "source_path": format!("{name}.md"), "parent_names": []
        }})
    }

    #[test]
    fn walks_in_reading_order_and_restores() {
        let mut book = serde_json::json!({"items": [
            chapter("a", "A", serde_json::json!([chapter("a1", "A1", serde_json::json!([]))])),
            "Separator",
            {"PartTitle": "Part"},
            chapter("b", "B", serde_json::json!([])),
        ]});
        let original = book.clone();
        let mut chapters = take_chapters(&mut book, Generation::V05);
        let names: Vec<_> = chapters.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "a1", "b"]);
        assert_eq!(chapters[1].content, "A1");
        restore_chapters(&mut book, Generation::V05, chapters.clone());
        assert_eq!(book, original);
        chapters[2].content = "changed".into();
        restore_chapters(&mut book, Generation::V05, chapters);
        assert_eq!(book["items"][3]["Chapter"]["content"], "changed");
    }

    #[test]
    fn draft_chapters_have_no_path() {
        let mut book = serde_json::json!({"sections": [
            {"Chapter": {"name": "Draft", "content": "", "sub_items": [], "path": null, "source_path": null}}
        ], "__non_exhaustive": null});
        let chapters = take_chapters(&mut book, Generation::V04);
        assert_eq!(chapters[0].path, None);
    }
}
