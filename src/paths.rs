//! Chapter paths as links see them: `/`-separated, relative to `src`, with
//! `.` and `..` resolved, and the relative path from one chapter to another;
//! and file paths as messages show them.

use std::path::Path;

/// `path` as messages, annotations and chapter paths show it:
/// `/`-separated on every platform.
pub fn display(path: &Path) -> String {
    forward_slashes(&path.to_string_lossy())
}

/// `text` with Windows separators turned into `/`.
pub fn forward_slashes(text: &str) -> String {
    text.replace('\\', "/")
}

/// Resolves `link` (a link's path part, without fragment) relative to the
/// folder of chapter `from` (`guide/intro.md`). `None` when it climbs out of
/// `src`.
pub fn resolve(from: &str, link: &str) -> Option<String> {
    let mut parts: Vec<&str> = if link.starts_with('/') {
        Vec::new()
    } else {
        let mut dir: Vec<&str> = from.split('/').collect();
        dir.pop();
        dir
    };
    for part in link.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// The relative link from chapter `from` to chapter `to` (both relative to
/// `src`).
pub fn relative(from: &str, to: &str) -> String {
    let from_dir: Vec<&str> = {
        let mut d: Vec<&str> = from.split('/').collect();
        d.pop();
        d
    };
    let to_parts: Vec<&str> = to.split('/').collect();
    let common = from_dir
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count()
        .min(to_parts.len().saturating_sub(1));
    let mut out: Vec<&str> = vec![".."; from_dir.len() - common];
    out.extend(&to_parts[common..]);
    out.join("/")
}

/// `x.html` links point at `x.md` chapters: the chapter path a link names.
pub fn as_chapter_path(path: &str) -> String {
    match path.strip_suffix(".html") {
        Some(stem) => format!("{stem}.md"),
        None => path.to_string(),
    }
}

/// Whether a link destination is relative to the book (no scheme, not
/// protocol-relative).
pub fn is_relative(dest: &str) -> bool {
    if dest.starts_with("//") {
        return false;
    }
    match dest.find([':', '/', '?', '#']) {
        Some(i) => dest.as_bytes()[i] != b':',
        None => true,
    }
}

/// Splits `path#fragment` (a `?query` stays with the path and is dropped).
pub fn split_fragment(dest: &str) -> (&str, Option<&str>) {
    let (path, fragment) = match dest.split_once('#') {
        Some((path, fragment)) => (path, Some(fragment)),
        None => (dest, None),
    };
    let path = path.split_once('?').map_or(path, |(p, _)| p);
    (path, fragment)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_to_the_chapter_folder() {
        assert_eq!(
            resolve("guide/intro.md", "setup.md").as_deref(),
            Some("guide/setup.md")
        );
        assert_eq!(
            resolve("guide/intro.md", "../faq.md").as_deref(),
            Some("faq.md")
        );
        assert_eq!(
            resolve("guide/intro.md", "./a/../b.md").as_deref(),
            Some("guide/b.md")
        );
        assert_eq!(resolve("intro.md", "../../x.md"), None);
        assert_eq!(
            resolve("guide/intro.md", "/faq.md").as_deref(),
            Some("faq.md")
        );
    }

    #[test]
    fn relative_links_between_chapters() {
        assert_eq!(relative("guide/intro.md", "faq.md"), "../faq.md");
        assert_eq!(relative("intro.md", "guide/setup.md"), "guide/setup.md");
        assert_eq!(relative("guide/a.md", "guide/b.md"), "b.md");
        assert_eq!(relative("a/b/c.md", "a/d/e.md"), "../d/e.md");
        assert_eq!(relative("a.md", "a.md"), "a.md");
    }

    #[test]
    fn classifies_destinations() {
        assert!(is_relative("a.md#x"));
        assert!(is_relative("#x"));
        assert!(is_relative("../a.md"));
        assert!(!is_relative("https://x.org/#a"));
        assert!(!is_relative("mailto:a@b"));
        assert!(!is_relative("//cdn.example/x"));
        assert_eq!(split_fragment("a.md?x=1#f"), ("a.md", Some("f")));
        assert_eq!(split_fragment("#f"), ("", Some("f")));
        assert_eq!(as_chapter_path("guide/x.html"), "guide/x.md");
    }
}
