//! Who a commit's author, committer or co-author is in the roster by what
//! the roster itself says: the e-mail, the GitHub no-reply address of the
//! login, through `.mailmap`; and the names compared as people read them
//! ([`name_key`]). Bots are nobody. What the history teaches besides
//! (merges, unique names) is `resolve.rs`'s.

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

/// Who holds an address or a name in the roster: one person, or two (the
/// first two) when it is shared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// One person.
    One(usize),
    /// More than one: the first two.
    Shared(usize, usize),
}

impl Owner {
    /// `self` with `person` added.
    fn and(self, person: usize) -> Owner {
        match self {
            Owner::One(one) if one == person => self,
            Owner::One(one) => Owner::Shared(one, person),
            shared => shared,
        }
    }
}

/// A name as names are compared: NFC, case folded, with only its letters
/// and digits kept (`Jonathan Gonzalez V.` is `jonathangonzalezv`, as is
/// `jonathan gonzalez-v`). Empty for a name of punctuation only.
pub fn name_key(name: &str) -> String {
    fold(name).chars().filter(|c| c.is_alphanumeric()).collect()
}

/// The roster's addresses, logins and names, for finding people in commits.
#[derive(Debug, Default)]
pub struct Index {
    /// Lowercased e-mail: who has it.
    emails: HashMap<String, Owner>,
    /// Lowercased GitHub login: the person.
    logins: HashMap<String, usize>,
    /// [`name_key`] of the name: who has it.
    names: HashMap<String, Owner>,
}

impl Index {
    /// The index of everyone in `people` but bots.
    pub fn of(people: &People) -> Index {
        let mut index = Index::default();
        for (at, person) in people.people.iter().enumerate() {
            if is_bot_person(person) {
                continue;
            }
            if let Some(email) = person.email.as_deref().map(str::trim)
                && !email.is_empty()
            {
                let owner = index.emails.get(&email.to_lowercase()).copied();
                let owner = owner.map_or(Owner::One(at), |o| o.and(at));
                index.emails.insert(email.to_lowercase(), owner);
            }
            if let Some(login) = &person.github {
                index.logins.entry(login.to_lowercase()).or_insert(at);
            }
            let name = name_key(&person.name);
            if !name.is_empty() {
                let owner = index.names.get(&name).copied();
                index
                    .names
                    .insert(name, owner.map_or(Owner::One(at), |o| o.and(at)));
            }
        }
        index
    }

    /// Who has the name `name` in the roster (compared by [`name_key`]).
    pub fn name(&self, name: &str) -> Option<Owner> {
        self.names.get(&name_key(name)).copied()
    }

    /// The person with the GitHub login `login` (any case).
    pub fn login(&self, login: &str) -> Option<usize> {
        self.logins.get(&login.to_lowercase()).copied()
    }

    /// Who an address is in the roster: the person whose `email` it is,
    /// or whose login a no-reply address names.
    pub fn address(&self, email: &str) -> Option<(Owner, Match)> {
        let email = email.trim();
        if email.is_empty() {
            return None;
        }
        if let Some(&owner) = self.emails.get(&email.to_lowercase()) {
            return Some((owner, Match::Email));
        }
        let login = noreply_login(email)?;
        Some((Owner::One(self.login(login)?), Match::Noreply))
    }

    /// Who an author's, committer's or co-author's address is, and how:
    /// its own address, else the one `.mailmap` maps it to. Bots are
    /// nobody.
    pub fn identify(&self, ident: &Ident<'_>) -> Option<(Owner, Match)> {
        if is_bot(ident.name, ident.email) || is_bot(ident.mapped_name, ident.mapped_email) {
            return None;
        }
        self.address(ident.email).or_else(|| {
            let mapped = !ident.mapped_email.eq_ignore_ascii_case(ident.email);
            mapped
                .then(|| self.address(ident.mapped_email))
                .flatten()
                .map(|(owner, _)| (owner, Match::Mailmap))
        })
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
    fn names_are_compared_without_punctuation() {
        assert_eq!(name_key("Jonathan Gonzalez V."), "jonathangonzalezv");
        assert_eq!(name_key("  JONATHAN   Gonzalez-V "), "jonathangonzalezv");
        assert_eq!(
            name_key("Ren\u{e9}e O'Neil"),
            name_key("RENE\u{301}E ONeil")
        );
        assert_eq!(name_key("..."), "");
        assert_eq!(name_key("Stra\u{df}e"), "strasse");
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
