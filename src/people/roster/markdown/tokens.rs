//! What in a people file names a person: a GitHub profile link, an
//! `@login` (not `@org/team`), a `login@`, an e-mail address. Every line
//! that holds one is read as a person or reported (the never-silent rule).

use super::blocks::Piece;
use super::entry;

/// The distinct logins `pieces` name (lower case): profile links and
/// `@login`s.
pub fn logins_in(pieces: &[Piece]) -> Vec<String> {
    let mut logins: Vec<String> = Vec::new();
    let mut add = |login: &str| {
        let login = login.to_lowercase();
        if !logins.contains(&login) {
            logins.push(login);
        }
    };
    for piece in pieces {
        match piece {
            Piece::Link {
                url, email: false, ..
            } => {
                if let entry::Target::Profile(login) = entry::target(url, false) {
                    add(&login);
                }
            }
            Piece::Text(text, _) => {
                for word in text.split(|c: char| c.is_whitespace() || "()[],;:".contains(c)) {
                    let word = word.trim_end_matches('.');
                    if let Some(login) = word.strip_prefix('@').filter(|w| !w.contains('/'))
                        && entry::as_login(login).is_some()
                    {
                        add(login);
                    }
                }
            }
            _ => {}
        }
    }
    logins
}

/// What in `pieces` names a person, if anything: a GitHub profile link,
/// an e-mail address, an `@login` (not `@org/team`), a `login@`. Code
/// spans are not read.
pub fn token_in(pieces: &[Piece]) -> Option<String> {
    pieces.iter().find_map(|piece| match piece {
        Piece::Link {
            url, email, text, ..
        } => match entry::target(url, *email) {
            entry::Target::Profile(login) => Some(format!("@{login}")),
            entry::Target::Email(address) => Some(address),
            _ => token_in_text(text),
        },
        Piece::Text(text, _) | Piece::Strong(text, _) => token_in_text(text),
        _ => None,
    })
}

/// What in a line of text names a person (see [`token_in`]).
pub fn token_in_text(text: &str) -> Option<String> {
    text.split(|c: char| c.is_whitespace() || "()[]<>,;\"'".contains(c))
        .map(|w| w.trim_end_matches(['.', ':', '!', '?']))
        .find(|word| {
            let login = |w: &str| !w.is_empty() && entry::as_login(w).is_some();
            match word.split_once('@') {
                // `@-x`: a login GitHub would not accept is still someone.
                Some(("", rest)) => !rest.is_empty() && !rest.contains(['/', '@']),
                Some((user, "")) => login(user),
                Some((user, domain)) => {
                    !user.is_empty() && domain.contains('.') && !domain.contains('/')
                }
                None => {
                    word.contains("github.com/")
                        && matches!(
                            entry::target(word, false),
                            entry::Target::Profile(_) | entry::Target::BadProfile(_)
                        )
                }
            }
        })
        .map(str::to_string)
}
