//! Who a commit's author, committer or co-author is in the roster: by
//! e-mail, by GitHub no-reply address, through `.mailmap`, or by a name
//! that only one person of the roster has. Bots are nobody.

use std::collections::HashMap;

use super::Match;
use crate::people::{People, Person};
use crate::unicode::fold;

/// One identity a commit names: an author, a committer or a co-author.
#[derive(Debug, Clone, Copy)]
pub struct Ident<'a> {
    /// The identity as one text (its fields as the log has them, or a
    /// trailer's value): equal keys are the same identity.
    pub key: &'a str,
    /// The e-mail address as written in the commit.
    pub email: &'a str,
    /// The address `.mailmap` gives it (the same when it maps nothing).
    pub mapped_email: &'a str,
    /// The name as written.
    pub name: &'a str,
    /// The name `.mailmap` gives it.
    pub mapped_name: &'a str,
}

impl<'a> Ident<'a> {
    /// A `Co-authored-by:` trailer's value, `Name <email>` (no `.mailmap`).
    pub fn of_trailer(value: &'a str) -> Ident<'a> {
        let value = value.trim();
        let (name, email) = match (value.rfind('<'), value.ends_with('>')) {
            (Some(open), true) => (
                value[..open].trim(),
                value[open + 1..value.len() - 1].trim(),
            ),
            _ => (value, ""),
        };
        Ident {
            key: value,
            email,
            mapped_email: email,
            name,
            mapped_name: name,
        }
    }
}

/// Whether an identity is a bot's: `[bot]` in its name or address, or
/// GitHub's own `noreply@github.com` (the committer of web merges).
pub fn is_bot(name: &str, email: &str) -> bool {
    name.contains("[bot]")
        || email.contains("[bot]")
        || email.eq_ignore_ascii_case("noreply@github.com")
}

/// Whether a person of the roster is a bot (a GitHub App's `name[bot]`
/// login): no commit counts for them, and they are never judged.
pub fn is_bot_person(person: &Person) -> bool {
    let email = person.email.as_deref().unwrap_or("");
    is_bot(&person.name, email)
        || person
            .github
            .as_deref()
            .is_some_and(|l| l.contains("[bot]"))
}

/// The GitHub login of a no-reply address: `LOGIN@users.noreply.github.com`
/// or `ID+LOGIN@users.noreply.github.com`.
pub fn noreply_login(email: &str) -> Option<&str> {
    let (local, domain) = email.rsplit_once('@')?;
    if !domain.eq_ignore_ascii_case("users.noreply.github.com") {
        return None;
    }
    let login = match local.split_once('+') {
        Some((id, login)) if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) => login,
        Some(_) => return None,
        None => local,
    };
    let valid = !login.is_empty()
        && login.len() <= 39
        && login
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-');
    valid.then_some(login)
}

/// The roster's addresses, logins and names, for finding people in commits.
#[derive(Debug, Default)]
pub struct Index {
    /// Lowercased e-mail: the person.
    emails: HashMap<String, usize>,
    /// Lowercased GitHub login: the person.
    logins: HashMap<String, usize>,
    /// Folded name: the person, or `None` when two people have it.
    names: HashMap<String, Option<usize>>,
}

impl Index {
    /// The index of everyone in `people` but bots.
    pub fn of(people: &People) -> Index {
        let mut index = Index::default();
        for (at, person) in people.people.iter().enumerate() {
            if is_bot_person(person) {
                continue;
            }
            if let Some(email) = &person.email {
                index
                    .emails
                    .entry(email.trim().to_lowercase())
                    .or_insert(at);
            }
            if let Some(login) = &person.github {
                index.logins.entry(login.to_lowercase()).or_insert(at);
            }
            let name = fold(person.name.trim());
            if !name.is_empty() {
                index
                    .names
                    .entry(name)
                    .and_modify(|one| *one = None)
                    .or_insert(Some(at));
            }
        }
        index
    }

    /// Whether `name` is unique in the roster (a match by it counts).
    pub fn unique_name(&self, name: &str) -> bool {
        matches!(self.names.get(&fold(name.trim())), Some(Some(_)))
    }

    /// The person an author's or committer's identity is, and how it
    /// matched. `trailer` for a co-author: an address then counts as
    /// `Match::Trailer`.
    pub fn identify(&self, ident: &Ident<'_>, trailer: bool) -> Option<(usize, Match)> {
        if is_bot(ident.name, ident.email) || is_bot(ident.mapped_name, ident.mapped_email) {
            return None;
        }
        let by_address = |email: &str| -> Option<(usize, Match)> {
            if email.is_empty() {
                return None;
            }
            if let Some(&at) = self.emails.get(&email.to_lowercase()) {
                return Some((at, Match::Email));
            }
            let login = noreply_login(email)?;
            self.logins
                .get(&login.to_lowercase())
                .map(|&at| (at, Match::Noreply))
        };
        let found = by_address(ident.email).or_else(|| {
            (ident.mapped_email != ident.email)
                .then(|| by_address(ident.mapped_email).map(|(at, _)| (at, Match::Mailmap)))
                .flatten()
        });
        match found {
            Some((at, _)) if trailer => Some((at, Match::Trailer)),
            Some(found) => Some(found),
            None => [ident.mapped_name, ident.name]
                .iter()
                .find_map(|name| *self.names.get(&fold(name.trim()))?)
                .map(|at| (at, Match::Name)),
        }
    }
}

/// Identities already looked up, by key: a history names the same few
/// people again and again, and an address or name is matched once.
#[derive(Debug, Default)]
pub struct Cache {
    /// Authors and committers.
    plain: HashMap<String, Option<(usize, Match)>>,
    /// Co-authors.
    trailers: HashMap<String, Option<(usize, Match)>>,
}

/// At most this many identities are remembered (each a few hundred bytes):
/// past it, a history of millions of strangers is matched without the cache.
const CACHE_LIMIT: usize = 100_000;

impl Index {
    /// [`identify`](Self::identify), remembered in `cache`.
    pub fn identify_cached(
        &self,
        ident: &Ident<'_>,
        trailer: bool,
        cache: &mut Cache,
    ) -> Option<(usize, Match)> {
        let known = match trailer {
            true => &mut cache.trailers,
            false => &mut cache.plain,
        };
        if let Some(found) = known.get(ident.key) {
            return *found;
        }
        let found = self.identify(ident, trailer);
        if known.len() < CACHE_LIMIT {
            known.insert(ident.key.to_string(), found);
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_reply_addresses_name_logins() {
        assert_eq!(noreply_login("ada@users.noreply.github.com"), Some("ada"));
        assert_eq!(
            noreply_login("123456+Ada-L@users.noreply.github.com"),
            Some("Ada-L")
        );
        assert_eq!(noreply_login("x+ada@users.noreply.github.com"), None);
        assert_eq!(noreply_login("ada@example.com"), None);
        assert_eq!(noreply_login("@users.noreply.github.com"), None);
        assert_eq!(noreply_login("a b@users.noreply.github.com"), None);
    }

    #[test]
    fn trailers_and_bots() {
        let ident = Ident::of_trailer(" Ada Lovelace <ada@example.com> ");
        assert_eq!(
            (ident.name, ident.email),
            ("Ada Lovelace", "ada@example.com")
        );
        let ident = Ident::of_trailer("Ada Lovelace");
        assert_eq!((ident.name, ident.email), ("Ada Lovelace", ""));
        assert!(is_bot(
            "dependabot[bot]",
            "49699333+dependabot[bot]@users.noreply.github.com"
        ));
        assert!(is_bot("GitHub", "noreply@github.com"));
        assert!(!is_bot("Ada", "ada@example.com"));
    }
}
