//! Reading the markup of an HTML page: what tags, attributes and URLs it
//! has, quoted values understood (a `>` or ` onclick` inside `alt="..."`
//! is text, not markup).

#![allow(dead_code)] // each test binary uses part of it

/// The markup of `html`: each tag's name, its attributes' names, and the
/// URLs it links or loads (not `#fragment`s, which follow titles). `<p>`
/// and `<br>` are left out: a paragraph break in a description is text's
/// shape, not markup.
pub fn markup(html: &str) -> Vec<String> {
    let mut tags = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        rest = &rest[open + 1..];
        let end = tag_end(rest);
        let tag = &rest[..end];
        rest = &rest[end.min(rest.len())..];
        let mut parts = attributes(tag);
        let name = parts.remove(0).to_ascii_lowercase();
        if matches!(name.as_str(), "p" | "/p" | "br" | "br /") {
            continue;
        }
        let mut shown = name;
        for (key, value) in parts.chunks(2).map(|kv| (&kv[0], kv.get(1))) {
            shown.push(' ');
            shown.push_str(key);
            if matches!(key.as_str(), "href" | "src") && value.is_some_and(|v| !v.starts_with('#'))
            {
                shown.push_str(&format!("={}", value.map_or("", String::as_str)));
            }
        }
        tags.push(shown);
    }
    tags
}

/// Where a tag that starts `text` ends: its `>` outside quotes.
pub fn tag_end(text: &str) -> usize {
    let mut quote = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return i,
            _ => {}
        }
    }
    text.len()
}

/// A tag's name, then each attribute's name and value.
pub fn attributes(tag: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut chars = tag.trim_end_matches('/').chars().peekable();
    let name: String = chars.by_ref().take_while(|c| !c.is_whitespace()).collect();
    parts.push(name);
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let key: String =
            std::iter::from_fn(|| chars.next_if(|c| *c != '=' && !c.is_whitespace())).collect();
        if key.is_empty() {
            break;
        }
        let value = match chars.next_if_eq(&'=') {
            Some(_) => match chars.next_if(|c| *c == '"' || *c == '\'') {
                Some(q) => chars.by_ref().take_while(|c| *c != q).collect(),
                None => std::iter::from_fn(|| chars.next_if(|c| !c.is_whitespace())).collect(),
            },
            None => String::new(),
        };
        parts.push(key);
        parts.push(value);
    }
    parts
}

/// Every tag of `html` as its name and attribute names (values left out).
pub fn tags(html: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        rest = &rest[open + 1..];
        let end = tag_end(rest);
        let parts = attributes(&rest[..end]);
        rest = &rest[end.min(rest.len())..];
        let names = parts[1..].iter().step_by(2).cloned().collect();
        out.push((parts[0].to_ascii_lowercase(), names));
    }
    out
}
