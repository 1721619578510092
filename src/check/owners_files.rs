//! The drift check for a Kubernetes OWNERS tree (`ownership = "owners"`):
//! the same findings as for CODEOWNERS (`owners.rs`), over every OWNERS
//! file's approvers and reviewers and OWNERS_ALIASES' members. A finding
//! is reported once, at its first place, whichever files repeat it.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use super::owners::{Finding, Problem, Roster, has_roster, not_checked};
use crate::config::{Level, OwnershipSource, Settings};
use crate::data::Data;
use crate::data::ownership::tree::{Entry, OwnersTree};
use crate::data::ownership::{self, Ownership, user};
use crate::data::people::People;
use crate::diagnostic::{Diagnostic, SourceFile};

/// The drift check's findings for an OWNERS tree, or nothing when it is
/// off, the book has no roster, or ownership is CODEOWNERS.
pub fn check(settings: &Settings, data: &Data) -> Vec<Diagnostic> {
    if settings.check_owners == Level::Off
        || !has_roster(settings)
        || ownership::source(settings) != OwnershipSource::Owners
    {
        return Vec::new();
    }
    let tree = match data.ownership(settings) {
        Ok(Ownership::Owners(tree)) => tree,
        Ok(Ownership::CodeOwners(_)) => return Vec::new(),
        Err(e) => return vec![not_checked(&e, settings.check_owners)],
    };
    let Ok(people) = data.people(settings) else {
        return Vec::new(); // the roster's own problems are reported by the data stage
    };
    let roster = Roster::of(&people, &settings.inactive_statuses);
    let mut findings = Findings::default();
    for owners in tree.files() {
        for block in &owners.blocks {
            for entry in block.approvers.iter().chain(&block.reviewers) {
                findings.check_entry(&roster, &owners.file, entry);
            }
            let active = (block.approvers.iter())
                .flat_map(|e| &e.logins)
                .any(|login| roster.problem(&user(login)).is_none());
            if let (false, Some(key)) = (active, &block.approvers_key) {
                let problem = Problem::NoActiveOwner;
                findings.note(problem, &owners.file, key.clone());
            }
        }
    }
    aliases(&tree, &roster, &mut findings);
    findings.diagnostics(&roster, &people, settings.check_owners)
}

/// The members of OWNERS_ALIASES, checked where they are written.
fn aliases(tree: &OwnersTree, roster: &Roster, findings: &mut Findings) {
    let Some(file) = tree.aliases_file() else {
        return;
    };
    for member in tree.aliases().iter().flat_map(|a| &a.members) {
        let mut owner = user(&member.login);
        owner.range = member.span.clone();
        if let Some(problem) = roster.problem(&owner) {
            findings.note(problem, file, member.span.clone());
        }
    }
}

/// Each distinct finding, its first place, and every place it is at.
#[derive(Default)]
struct Findings {
    order: Vec<(Problem, Arc<SourceFile>, Range<usize>)>,
    places: HashMap<Problem, Vec<(Arc<SourceFile>, usize)>>,
}

impl Findings {
    /// An entry naming a login (an alias's members are checked in
    /// OWNERS_ALIASES).
    fn check_entry(&mut self, roster: &Roster, file: &Arc<SourceFile>, entry: &Entry) {
        if entry.alias {
            return;
        }
        let mut owner = user(&entry.written);
        owner.range = entry.span.clone();
        if let Some(problem) = roster.problem(&owner) {
            self.note(problem, file, entry.span.clone());
        }
    }

    fn note(&mut self, problem: Problem, file: &Arc<SourceFile>, range: Range<usize>) {
        let line = file.line_of(range.start);
        let places = self.places.entry(problem.clone()).or_default();
        if places.is_empty() {
            self.order.push((problem, Arc::clone(file), range));
        }
        if !places
            .iter()
            .any(|(f, l)| f.name == file.name && *l == line)
        {
            places.push((Arc::clone(file), line));
        }
    }

    fn diagnostics(self, roster: &Roster, people: &People, level: Level) -> Vec<Diagnostic> {
        (self.order.into_iter())
            .map(|(problem, file, range)| {
                let places = &self.places[&problem];
                let (here, elsewhere): (Vec<_>, Vec<_>) =
                    places.iter().partition(|(f, _)| f.name == file.name);
                let finding = Finding {
                    problem,
                    range,
                    lines: here.iter().map(|(_, line)| *line).collect(),
                };
                let mut d = finding.diagnostic(&file, roster, people);
                if !elsewhere.is_empty() {
                    d = d.with_note(format!(
                        "also in {}",
                        elsewhere_list(elsewhere.iter().map(|(f, l)| format!("{}:{l}", f.name)))
                    ));
                }
                level.severity_of(d)
            })
            .collect()
    }
}

/// `a/OWNERS:3, b/OWNERS:7` (at most ten, then "and N more").
fn elsewhere_list(places: impl ExactSizeIterator<Item = String>) -> String {
    let total = places.len();
    let shown: Vec<String> = places.take(10).collect();
    match total.saturating_sub(10) {
        0 => shown.join(", "),
        more => format!("{}, and {more} more", shown.join(", ")),
    }
}
