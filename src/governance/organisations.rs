//! Which organisation an affiliation names: the text of a link rather
//! than its URL, without trailing punctuation or repeated spaces, compared
//! without case, and then through `affiliation-aliases` ("Intuit, Inc." is
//! "Intuit").

use std::collections::HashMap;

/// The aliases of a book, ready to compare affiliations with.
#[derive(Debug, Clone, Default)]
pub struct Affiliations {
    /// An alias's key, and the name it means.
    aliases: HashMap<String, String>,
}

/// An affiliation, cleaned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clean {
    /// What is compared.
    pub key: String,
    /// What is shown: the alias's target, or the cleaned text.
    pub name: String,
    /// Why the text was not taken as written (a link, punctuation), for a
    /// note.
    pub changed: Option<&'static str>,
}

impl Affiliations {
    /// From `affiliation-aliases`' pairs (alias, name).
    pub fn new(aliases: &[(String, String)]) -> Affiliations {
        let mut map = HashMap::new();
        for (alias, name) in aliases {
            let (name_text, _) = plain(name);
            map.insert(key(&plain(alias).0), name_text.clone());
            // The name is its own alias, so that its spellings agree.
            map.entry(key(&name_text)).or_insert(name_text);
        }
        Affiliations { aliases: map }
    }

    /// The organisation `affiliation` names; `None` for none (or an empty
    /// one).
    pub fn clean(&self, affiliation: Option<&str>) -> Option<Clean> {
        let (text, changed) = plain(affiliation?);
        if text.is_empty() {
            return None;
        }
        let key = key(&text);
        let name = self.aliases.get(&key).cloned().unwrap_or(text);
        Some(Clean {
            key: self.aliases.get(&key).map_or(key, |name| self::key(name)),
            name,
            changed,
        })
    }
}

/// The text of `raw` an organisation is named by: a Markdown link's text
/// (`[Intuit](https://intuit.com)`), a bare URL's host, without trailing
/// punctuation and with single spaces; and why it changed.
fn plain(raw: &str) -> (String, Option<&'static str>) {
    let mut changed = None;
    let mut text = raw.trim().to_string();
    if let Some(rest) = text.strip_prefix('[')
        && let Some((inside, after)) = rest.split_once("](")
        && after.ends_with(')')
    {
        text = inside.to_string();
        changed = Some("a link (its text is compared)");
    }
    let lower = text.to_ascii_lowercase();
    if let Some(rest) = ["https://", "http://"]
        .iter()
        .find_map(|s| lower.strip_prefix(s).map(|_| &text[s.len()..]))
    {
        let host = rest.split(['/', '?', '#']).next().unwrap_or(rest);
        text = host.trim_start_matches("www.").to_string();
        changed = Some("a URL (its host is compared)");
    }
    let trimmed = text.trim_end_matches(|c: char| ".,;:!".contains(c) || c.is_whitespace());
    if trimmed.len() != text.len() && changed.is_none() {
        changed = Some("written with trailing punctuation (compared without it)");
    }
    let words: Vec<&str> = trimmed.split_whitespace().collect();
    (words.join(" "), changed)
}

/// What two spellings of one organisation share.
fn key(text: &str) -> String {
    text.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affiliations_are_compared_after_cleaning_and_aliases() {
        let aliases = Affiliations::new(&[("Intuit, Inc.".into(), "Intuit".into())]);
        let name = |s: &str| aliases.clean(Some(s)).map(|c| (c.key, c.name));
        assert_eq!(
            name("Intuit, Inc."),
            Some(("intuit".into(), "Intuit".into()))
        );
        assert_eq!(name("intuit"), Some(("intuit".into(), "Intuit".into())));
        assert_eq!(
            name("Intuit, Inc"),
            Some(("intuit".into(), "Intuit".into()))
        );
        let link = aliases
            .clean(Some("[Red Hat](https://redhat.com)"))
            .expect("org");
        assert_eq!(
            (link.name.as_str(), link.changed.is_some()),
            ("Red Hat", true)
        );
        let dot = aliases.clean(Some("Google.")).expect("org");
        assert_eq!((dot.name.as_str(), dot.changed.is_some()), ("Google", true));
        assert_eq!(
            name("https://www.example.com/about").map(|n| n.1),
            Some("example.com".into())
        );
        assert_eq!(aliases.clean(Some("  ")), None);
        assert_eq!(aliases.clean(None), None);
    }
}
