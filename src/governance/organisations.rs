//! Which organisation an affiliation names: the text of a link rather
//! than its URL, without trailing punctuation, repeated spaces or a legal
//! form ("Intuit, Inc." is "Intuit", "Google LLC" is "Google"), compared
//! without case, and then through `affiliation-aliases` (which the author
//! extends for what these rules cannot know: "Alphabet" is "Google").

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
    let words: Vec<&str> = text.split_whitespace().collect();
    let text = words.join(" ");
    let text = without_legal_form(&text);
    let trimmed = text.trim_end_matches(|c: char| ".,;:!".contains(c) || c.is_whitespace());
    if trimmed.len() != text.len() && changed.is_none() {
        changed = Some("written with trailing punctuation (compared without it)");
    }
    (trimmed.to_string(), changed)
}

/// The legal forms a company's name may end with, compared without case
/// and after an optional comma; the longer of two that end alike first.
const LEGAL_FORMS: [&str; 22] = [
    "pty ltd",
    "inc",
    "inc.",
    "incorporated",
    "llc",
    "l.l.c.",
    "ltd",
    "ltd.",
    "limited",
    "gmbh",
    "corp",
    "corp.",
    "corporation",
    "co.",
    "plc",
    "ag",
    "s.a.",
    "sa",
    "b.v.",
    "bv",
    "s.r.l.",
    "sas",
];

/// `name` without the legal form it ends with (`Intuit, Inc.` is
/// `Intuit`), when a name is left.
fn without_legal_form(name: &str) -> &str {
    let lower = name.to_ascii_lowercase();
    for form in LEGAL_FORMS {
        let Some(rest) = lower.strip_suffix(form) else {
            continue;
        };
        let Some(rest) = rest.strip_suffix(' ') else {
            continue;
        };
        let rest = rest.strip_suffix(',').unwrap_or(rest).trim_end();
        if !rest.is_empty() {
            return &name[..rest.len()];
        }
    }
    name
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
        // A legal form is no part of the name, with or without an alias.
        let none = Affiliations::new(&[]);
        let bare = |s: &str| none.clean(Some(s)).map(|c| (c.key, c.name, c.changed));
        assert_eq!(
            bare("Intuit, Inc."),
            Some(("intuit".into(), "Intuit".into(), None))
        );
        assert_eq!(
            bare("Google LLC"),
            Some(("google".into(), "Google".into(), None))
        );
        assert_eq!(
            bare("Red Hat, Inc"),
            Some(("red hat".into(), "Red Hat".into(), None))
        );
        assert_eq!(bare("SAP SE").map(|c| c.1), Some("SAP SE".into()));
        assert_eq!(bare("Inc.").map(|c| c.1), Some("Inc".into()));
        assert_eq!(bare("Acme Pty Ltd").map(|c| c.1), Some("Acme".into()));
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
