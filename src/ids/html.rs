//! Raw HTML as far as ids need it: `id` and `name` attributes, tags
//! stripped, character references decoded.

/// Collects `id` attributes of any element, and `name` of `<a>`, from a piece
/// of raw HTML. Skips comments and the contents of `<script>` and `<style>`.
pub(super) fn html_ids(html: &str, out: &mut Vec<String>) {
    let bytes = html.as_bytes();
    let mut pos = 0;
    while let Some(found) = memchr::memchr(b'<', &bytes[pos..]) {
        let at = pos + found;
        let rest = &html[at..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            pos = comment.find("-->").map_or(html.len(), |e| at + 4 + e + 3);
            continue;
        }
        if !bytes.get(at + 1).is_some_and(u8::is_ascii_alphabetic) {
            pos = at + 1;
            continue;
        }
        let name_len = rest[1..]
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'-' || *b == b':')
            .count();
        let tag = rest[1..1 + name_len].to_ascii_lowercase();
        let (end, attrs) = attributes(html, at + 1 + name_len);
        for (key, value) in attrs {
            if (key == "id" || (key == "name" && tag == "a")) && !value.is_empty() {
                out.push(decode_entities(value));
            }
        }
        pos = end;
        if tag == "script" || tag == "style" {
            let close = format!("</{tag}");
            pos = html[pos..]
                .to_ascii_lowercase()
                .find(&close)
                .map_or(html.len(), |e| pos + e);
        }
    }
}

/// Parses attributes from `pos` (just after a tag name) to the tag's `>`.
/// Returns the offset after the tag and the (lowercased name, raw value)
/// pairs.
fn attributes(html: &str, mut pos: usize) -> (usize, Vec<(String, &str)>) {
    let bytes = html.as_bytes();
    let mut attrs = Vec::new();
    loop {
        while bytes
            .get(pos)
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b'/')
        {
            pos += 1;
        }
        match bytes.get(pos) {
            None => return (pos, attrs),
            Some(b'>') => return (pos + 1, attrs),
            _ => {}
        }
        let name_start = pos;
        while bytes
            .get(pos)
            .is_some_and(|b| !b.is_ascii_whitespace() && !matches!(b, b'=' | b'>' | b'/'))
        {
            pos += 1;
        }
        if pos == name_start {
            // A stray `=`.
            pos += 1;
            continue;
        }
        let name = html[name_start..pos].to_ascii_lowercase();
        while bytes.get(pos).is_some_and(u8::is_ascii_whitespace) {
            pos += 1;
        }
        let mut value = "";
        if bytes.get(pos) == Some(&b'=') {
            pos += 1;
            while bytes.get(pos).is_some_and(u8::is_ascii_whitespace) {
                pos += 1;
            }
            match bytes.get(pos) {
                Some(&quote @ (b'"' | b'\'')) => {
                    let start = pos + 1;
                    let end =
                        memchr::memchr(quote, &bytes[start..]).map_or(html.len(), |e| start + e);
                    value = &html[start..end];
                    pos = (end + 1).min(html.len());
                }
                _ => {
                    let start = pos;
                    while bytes
                        .get(pos)
                        .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'>')
                    {
                        pos += 1;
                    }
                    value = &html[start..pos];
                }
            }
        }
        attrs.push((name, value));
    }
}

/// Removes `<...>` tags (no regex semantics: a tag may span lines).
pub(super) fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        match rest[lt..].find('>') {
            Some(gt) => rest = &rest[lt + gt + 1..],
            None => {
                rest = &rest[lt..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Decodes character references as a browser reads them in an id or a
/// heading's text (one definition, shared with the HTML sanitizer).
pub(super) fn decode_entities(text: &str) -> String {
    crate::markdown::sanitize::decode_entities(text).into_owned()
}
