//! all-contributors' `.all-contributorsrc` (JSON): each contributor a
//! person, all of them the group `contributors` in file order, with their
//! contribution types as the member field `contributions`.

use std::path::Path;
use std::sync::Arc;

use super::{SourceGroup, SourceRoster, check_login_at, group, person_of_login};
use crate::diagnostic::{Code, Diagnostic, Place, SourceFile};
use crate::files::tree::{self, Entry, Node, NodeKind};
use crate::people::{Member, Person, allowed_url};

/// Reads `.all-contributorsrc` at `path`.
pub(super) fn read(path: &Path, display: &str) -> Result<SourceRoster, Vec<Diagnostic>> {
    let (file, root) = tree::read_as(path, display, true)?;
    let mut reader = Reader {
        file: &file,
        errors: Vec::new(),
        people: Vec::new(),
        members: Vec::new(),
    };
    let contributors = match &root.kind {
        NodeKind::Table(entries) => entries.iter().find(|e| e.key == "contributors"),
        _ => None,
    };
    match contributors.map(|c| &c.value.kind) {
        Some(NodeKind::Array(items)) => items.iter().for_each(|item| reader.contributor(item)),
        _ => reader.error(&root, "has no `contributors` array"),
    }
    let Reader {
        errors,
        people,
        members,
        ..
    } = reader;
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut contributors = group("contributors", "Contributors");
    contributors.members = members;
    Ok(SourceRoster {
        files: vec![Arc::clone(&file)],
        people,
        groups: vec![SourceGroup {
            group: contributors,
            by_login: Vec::new(),
            at: Place::new(&file, 0..0),
        }],
        warnings: Vec::new(),
    })
}

struct Reader<'a> {
    file: &'a Arc<SourceFile>,
    errors: Vec<Diagnostic>,
    people: Vec<Person>,
    members: Vec<Member>,
}

impl Reader<'_> {
    fn error(&mut self, node: &Node, message: &str) {
        let error = Diagnostic::error(Code::InvalidData, format!("{} {message}", self.file.name))
            .in_file(self.file, node.span.clone());
        self.errors.push(error);
    }

    fn contributor(&mut self, node: &Node) {
        let NodeKind::Table(entries) = &node.kind else {
            return self.error(node, "lists a contributor that is not an object");
        };
        let field = |key: &str| entries.iter().find(|e| e.key == key);
        let Some(login) = field("login").and_then(|e| self.text(e)) else {
            return self.error(node, "lists a contributor without a `login`");
        };
        let span = field("login").map_or(node.span.clone(), |e| e.value.span.clone());
        let at = Place::new(self.file, span);
        if let Err(error) = check_login_at(&login, &at) {
            return self.errors.push(error);
        }
        let mut person = person_of_login(&login, &at);
        if let Some(name) = field("name")
            .and_then(|e| self.text(e))
            .filter(|n| !n.trim().is_empty())
        {
            person.name = name;
        }
        if let Some(profile) = field("profile").and_then(|e| self.profile(e)) {
            person.url = Some(profile);
        }
        person.avatar = field("avatar_url").and_then(|e| self.url(e));
        let contributions = field("contributions")
            .map(|e| self.contributions(&e.value))
            .unwrap_or_default();
        let fields = if contributions.is_empty() {
            Vec::new()
        } else {
            vec![("contributions".to_string(), contributions.join(", "))]
        };
        self.members.push(Member {
            person: self.people.len(),
            status: None,
            role: None,
            fields,
            at: Some(at),
        });
        self.people.push(person);
    }

    fn text(&mut self, entry: &Entry) -> Option<String> {
        match &entry.value.kind {
            NodeKind::Str(s) => Some(s.clone()),
            kind => {
                let message = format!(
                    "has a `{}` that is {}, not a string",
                    entry.key,
                    kind.describe()
                );
                self.error(&entry.value, &message);
                None
            }
        }
    }

    fn url(&mut self, entry: &Entry) -> Option<String> {
        let url = self.text(entry)?;
        match allowed_url(&url) {
            Ok(()) => Some(url.trim().to_string()),
            Err(why) => {
                self.error(&entry.value, &format!("has a `{}` that {why}", entry.key));
                None
            }
        }
    }

    /// A `profile`: a URL, or a bare host (`habet.dev`, as the
    /// all-contributors CLI accepts) taken as https.
    fn profile(&mut self, entry: &Entry) -> Option<String> {
        let profile = self.text(entry)?;
        let bare_host = !profile.contains(':') && !profile.trim().is_empty();
        let url = if bare_host {
            format!("https://{}", profile.trim())
        } else {
            profile
        };
        match allowed_url(&url) {
            Ok(()) => Some(url.trim().to_string()),
            Err(why) => {
                self.error(&entry.value, &format!("has a `{}` that {why}", entry.key));
                None
            }
        }
    }

    fn contributions(&mut self, node: &Node) -> Vec<String> {
        match &node.kind {
            NodeKind::Array(items) => items
                .iter()
                .filter_map(|item| match &item.kind {
                    NodeKind::Str(s) => Some(s.clone()),
                    _ => None,
                })
                .collect(),
            _ => {
                self.error(node, "has `contributions` that are not a list");
                Vec::new()
            }
        }
    }
}
