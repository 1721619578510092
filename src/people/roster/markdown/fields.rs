//! What a Markdown roster reads beside a person: the fields nested under
//! them (`* GPG key: ...`), and the affiliation or role after them on a
//! line of their own.

use std::collections::HashMap;

use super::blocks::{Block, Piece, plain};
use super::entry::{self, Entry};
use super::table;

/// The most words an affiliation or role written after a person in a
/// paragraph has (`Ada (@ada), Acme Labs`): more is a sentence about them
/// (`Ada (@ada), who founded the project, leads it.`), not a field.
const FIELD_WORDS: usize = 5;

/// A person named in a paragraph keeps the affiliation or role written
/// after them (`Ada (@ada), Acme`, `Bob (@bob) - Lead`) when the person
/// is a line of their own (a paragraph of one line, or of people one a
/// line) and it is short (see [`FIELD_WORDS`]); in prose it is not read.
pub fn fields_of_a_line(entry: Entry, text: &str, one_a_line: bool) -> Entry {
    let one_line = one_a_line || !text.trim().contains('\n');
    let short = |v: &Option<String>| {
        v.as_deref()
            .is_none_or(|v| v.split_whitespace().count() <= FIELD_WORDS && !v.ends_with('.'))
    };
    match one_line && short(&entry.affiliation) && short(&entry.role) {
        true => entry,
        false => Entry {
            affiliation: None,
            role: None,
            ..entry
        },
    }
}

/// Whether an item is a field of the person above it (`Key: value`, as
/// [`nested_fields`] reads it).
pub fn is_field(pieces: &[Piece]) -> bool {
    let text = plain(pieces);
    text.split_once(':')
        .is_some_and(|(key, _)| !key.trim().is_empty() && key.split_whitespace().count() <= 3)
}

/// A person's nested bullets as fields: `Key: value`, else `notes`.
pub fn nested_fields(children: &[Block]) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = Vec::new();
    // Where each key is in `fields`: one lookup per bullet, so that a
    // person with thousands of fields reads in linear time.
    let mut at: HashMap<String, usize> = HashMap::new();
    for block in children {
        let Block::List(items) = block else { continue };
        for item in items {
            let text = plain(&item.pieces).trim().to_string();
            if text.is_empty() || entry::as_login(&text).is_some() || text.contains("github.com/") {
                continue;
            }
            let (key, value) = match text.split_once(':') {
                Some((key, value)) if key.split_whitespace().count() <= 3 => {
                    (table::field_key(key), value.trim().to_string())
                }
                _ => ("notes".to_string(), text),
            };
            match at.get(&key) {
                Some(&i) => {
                    let existing = &mut fields[i].1;
                    existing.push_str("; ");
                    existing.push_str(&value);
                }
                None => {
                    at.insert(key.clone(), fields.len());
                    fields.push((key, value));
                }
            }
        }
    }
    fields
}
