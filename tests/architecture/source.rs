//! Reading the crate's own source as the architecture checks need it: each
//! file's code without its test items (each `#[cfg(test)]` item removed
//! whole, so that code after a test-only `use` is still read), without
//! comments, and the module paths it names (`crate::`, `super::` and
//! `self::`, brace groups expanded), resolved to the files they are.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path from the crate root (`["expand", "scan"]`).
pub type ModPath = Vec<String>;

/// One source file of `src/`.
pub struct Source {
    pub path: PathBuf,
    pub module: ModPath,
    /// The code without test items; comments kept blank so lines count.
    pub code: String,
}

/// Every `.rs` file of `dir` but `tests.rs` files and `tests/` folders.
pub fn sources(dir: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<Source>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "tests" {
                walk(root, &path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            let text = std::fs::read_to_string(&path).expect("UTF-8");
            let module = module_path(path.strip_prefix(root).expect("inside"));
            let code = blank_comments(&without_test_items(&text));
            out.push(Source { path, module, code });
        }
    }
}

/// `expand/scan.rs` is `["expand", "scan"]`, `expand/mod.rs` `["expand"]`.
pub fn module_path(relative: &Path) -> ModPath {
    let mut parts: Vec<String> = relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// `text` with every item marked `#[cfg(test)]` removed, attributes and
/// all, and everything else kept.
pub fn without_test_items(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    while let Some(found) = find_test_attribute(text, pos) {
        out.push_str(&text[pos..found]);
        let mut at = found + "#[cfg(test)]".len();
        // Further attributes of the same item.
        loop {
            let rest = &text[at..];
            let trimmed = rest.trim_start();
            if !trimmed.starts_with("#[") {
                break;
            }
            let close = trimmed.find(']').map_or(trimmed.len(), |c| c + 1);
            at += rest.len() - trimmed.len() + close;
        }
        pos = item_end(text, at);
        // Keep the line count: the lines removed become empty.
        out.extend(std::iter::repeat_n(
            '\n',
            text[found..pos].matches('\n').count(),
        ));
    }
    out.push_str(&text[pos..]);
    out
}

/// The next `#[cfg(test)]` at the start of a line (after indentation).
fn find_test_attribute(text: &str, from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(i) = text[at..].find("#[cfg(test)]") {
        let start = at + i;
        let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
        if text[line_start..start].trim().is_empty() {
            return Some(start);
        }
        at = start + 1;
    }
    None
}

/// The end of the item starting at `from`: after its `;` or its balanced
/// `{...}`, skipping strings, characters and comments.
pub fn item_end(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let (mut i, mut depth) = (from, 0usize);
    while i < bytes.len() {
        if let Some(next) = skip_literal_or_comment(text, i) {
            i = next;
            continue;
        }
        match bytes[i] {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            b';' if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// Where a comment, string or character literal starting at `i` ends.
fn skip_literal_or_comment(text: &str, i: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let rest = &text[i..];
    if rest.starts_with("//") {
        return Some(rest.find('\n').map_or(text.len(), |n| i + n));
    }
    if let Some(body) = rest.strip_prefix("/*") {
        return Some(body.find("*/").map_or(text.len(), |n| i + 2 + n + 2));
    }
    let word_before = i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
    if rest.starts_with('r') && !word_before {
        let hashes = rest[1..].bytes().take_while(|&b| b == b'#').count();
        if rest[1 + hashes..].starts_with('"') {
            let close = format!("\"{}", "#".repeat(hashes));
            let body = i + 2 + hashes;
            return Some(
                text[body..]
                    .find(&close)
                    .map_or(text.len(), |n| body + n + close.len()),
            );
        }
    }
    if bytes[i] == b'"' {
        let mut j = i + 1;
        while j < bytes.len() && bytes[j] != b'"' {
            j += if bytes[j] == b'\\' { 2 } else { 1 };
        }
        return Some((j + 1).min(text.len()));
    }
    if bytes[i] == b'\'' {
        // A character literal, not a lifetime.
        let body = &rest[1..];
        let mut chars = body.char_indices();
        let len = match chars.next() {
            Some((_, '\\')) => body[1..].find('\'').map(|n| n + 2),
            Some((_, c)) if body[c.len_utf8()..].starts_with('\'') => Some(c.len_utf8()),
            _ => None,
        };
        return len.map(|n| i + 1 + n + 1);
    }
    None
}

/// `code` with every comment replaced by spaces (newlines kept), strings
/// untouched: a module named in a doc comment is not an import.
pub fn blank_comments(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    while i < code.len() {
        if let Some(end) = skip_literal_or_comment(code, i) {
            let piece = &code[i..end];
            if piece.starts_with("//") || piece.starts_with("/*") {
                out.extend(piece.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
            } else {
                out.push_str(piece);
            }
            i = end.max(i + 1);
            continue;
        }
        let c = code[i..].chars().next().expect("in range");
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// Every `crate::`, `super::` and `self::` path in `code`, brace groups
/// expanded (`use super::{a, b::{c}}` is `super::a`, `super::b::c`).
pub fn paths(code: &str) -> Vec<ModPath> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for head in ["crate", "super", "self"] {
        for (at, _) in code.match_indices(head) {
            let before = at.checked_sub(1).map(|b| bytes[b]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
                continue;
            }
            let rest = &code[at + head.len()..];
            if !rest.starts_with("::") {
                continue;
            }
            let start: ModPath = vec![head.to_string()];
            out.extend(expand_path(start, &rest[2..]));
        }
    }
    out
}

/// The path that `rest` continues after `prefix`, groups expanded.
fn expand_path(mut prefix: ModPath, rest: &str) -> Vec<ModPath> {
    let mut rest = rest;
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let body = &group[..closing_brace(group)];
            return split_group(body)
                .into_iter()
                .flat_map(|part| expand_path(prefix.clone(), part.trim()))
                .collect();
        }
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end == 0 {
            return vec![prefix];
        }
        prefix.push(rest[..end].to_string());
        match rest[end..].strip_prefix("::") {
            Some(next) => rest = next,
            None => return vec![prefix],
        }
    }
}

fn closing_brace(group: &str) -> usize {
    let mut depth = 1;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    group.len()
}

fn split_group(body: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// The module of `modules` that `path`, written in `module`, names: the
/// longest known prefix after `crate`, `self` and `super` are resolved.
pub fn resolve(module: &[String], path: &[String], modules: &BTreeSet<ModPath>) -> Option<ModPath> {
    let (mut current, mut rest): (ModPath, &[String]) = match path.first().map(String::as_str) {
        Some("crate") => (Vec::new(), &path[1..]),
        Some("self") => (module.to_vec(), &path[1..]),
        _ => (module.to_vec(), path),
    };
    while rest.first().map(String::as_str) == Some("super") {
        current.pop();
        rest = &rest[1..];
    }
    let full: ModPath = current.into_iter().chain(rest.iter().cloned()).collect();
    (0..=full.len())
        .rev()
        .map(|k| full[..k].to_vec())
        .find(|candidate| modules.contains(candidate))
}

/// The file-level import graph: each module and the modules it names.
pub fn graph(sources: &[Source]) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let modules: BTreeSet<ModPath> = sources.iter().map(|s| s.module.clone()).collect();
    let mut edges = BTreeMap::new();
    for source in sources {
        let targets: BTreeSet<ModPath> = paths(&source.code)
            .iter()
            .filter_map(|p| resolve(&source.module, p, &modules))
            .filter(|t| t != &source.module && !t.is_empty())
            .collect();
        edges.insert(source.module.clone(), targets);
    }
    edges
}

/// The strongly connected components of more than one module (Tarjan).
pub fn cycles(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    struct Tarjan<'g> {
        edges: &'g BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<&'g ModPath, (usize, usize)>,
        stack: Vec<&'g ModPath>,
        on_stack: BTreeSet<&'g ModPath>,
        found: Vec<Vec<ModPath>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, v: &'g ModPath) {
            let n = self.index.len();
            self.index.insert(v, (n, n));
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.index[w].1.min(self.index[v].1);
                    self.index.get_mut(v).expect("visited").1 = low;
                } else if self.on_stack.contains(w) {
                    let low = self.index[w].0.min(self.index[v].1);
                    self.index.get_mut(v).expect("visited").1 = low;
                }
            }
            if self.index[v].0 == self.index[v].1 {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut tarjan = Tarjan {
        edges,
        index: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !tarjan.index.contains_key(v) {
            tarjan.visit(v);
        }
    }
    tarjan.found
}

/// `(name, first line, length)` of each function in `code` longer than
/// `limit` lines. Braces are counted outside strings, character literals
/// and comments (a `'}'` or a multi-line string does not end a function).
pub fn long_functions(code: &str, limit: usize) -> Vec<(String, usize, usize)> {
    let blanked = blank_literals(code);
    let lines: Vec<&str> = code.lines().collect();
    let braces: Vec<&str> = blanked.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let (mut depth, mut started) = (0i64, false);
        for (j, code) in braces.iter().enumerate().skip(i) {
            depth += code.matches('{').count() as i64 - code.matches('}').count() as i64;
            started |= code.contains('{');
            if !started && code.trim_end().ends_with(';') {
                break;
            }
            if started && depth <= 0 {
                if j - i + 1 > limit {
                    found.push((name.to_string(), i + 1, j - i + 1));
                }
                break;
            }
        }
    }
    found
}

/// The name of the function a line starts, if it starts one.
fn fn_name(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace().peekable();
    while let Some(word) = words.next() {
        if word == "fn" {
            let name = words.next()?;
            let end = name.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
            return Some(&name[..end]);
        }
        let qualifier = word.starts_with("pub")
            || matches!(word, "const" | "async" | "unsafe" | "extern" | "\"C\"");
        if !qualifier {
            return None;
        }
    }
    None
}

/// `code` with every string, character literal and comment replaced by
/// spaces, its newlines kept: what is left is the code's own punctuation.
fn blank_literals(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    while i < code.len() {
        if let Some(end) = skip_literal_or_comment(code, i) {
            let end = end.max(i + 1).min(code.len());
            let piece = &code[i..end];
            out.extend(piece.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
            i = end;
            continue;
        }
        let c = code[i..].chars().next().expect("in range");
        out.push(c);
        i += c.len_utf8();
    }
    out
}
