//! The drift check for a Kubernetes OWNERS tree (`ownership = "owners"`):
//! the same findings as for CODEOWNERS (`owners.rs`), over every OWNERS
//! file's approvers and reviewers and OWNERS_ALIASES' members. A finding
//! is reported once, at its first place, whichever files repeat it.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use super::owners::{Finding, Problem, Roster, follow_on_note, has_roster, not_checked};
use crate::config::{Level, OwnershipSource, Settings};
use crate::data::Data;
use crate::diagnostic::{Diagnostic, SourceFile};
use crate::ownership::tree::{Entry, OwnersTree};
use crate::ownership::{self, Ownership, user};
use crate::people::People;

/// The drift check's findings for an OWNERS tree, or nothing when it is
/// off, the book has no roster, or ownership is CODEOWNERS.
pub fn check(settings: &Settings, data: &Data) -> Vec<Diagnostic> {
    if settings.check_owners == Level::Off
        || !has_roster(settings)
        || data.ownership_source(settings) != OwnershipSource::Owners
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
    let roster = Roster::of(&people);
    let mut findings = Findings::default();
    for owners in tree.files() {
        let shown = match owners.folder.as_str() {
            "" => ownership::OWNERS.to_string(),
            folder => format!("{folder}/{}", ownership::OWNERS),
        };
        findings.shown.insert(owners.file.name.clone(), shown);
        // Prow's approvers of the folder: this file's and, unless
        // `no_parent_owners`, its parents'.
        let applying = tree.owners_of(&owners.folder).approvers;
        for block in &owners.blocks {
            for entry in block.approvers.iter().chain(&block.reviewers) {
                findings.check_entry(&roster, &owners.file, entry);
            }
            if let Some(key) = &block.approvers_key {
                let approvers = Approvers {
                    own: &block.approvers,
                    applying: &applying,
                };
                findings.check_approvers(&roster, &owners.file, key, approvers);
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
    (findings.shown).insert(file.name.clone(), ownership::OWNERS_ALIASES.to_string());
    for member in tree.aliases().iter().flat_map(|a| &a.members) {
        let mut owner = user(&member.login);
        owner.range = member.span.clone();
        if let Some(problem) = roster.problem(&owner) {
            findings.note(problem, &member.login, file, member.span.clone());
        }
    }
}

/// A block's approvers, and every approver Prow applies to its folder.
struct Approvers<'a> {
    own: &'a [Entry],
    applying: &'a [String],
}

/// A place: the file, the line, the range.
type Place = (Arc<SourceFile>, usize, Range<usize>);

/// Each distinct finding, as first written, and every place it is at; the
/// approver lists whose only owners are reported already.
#[derive(Default)]
struct Findings {
    order: Vec<(Problem, String)>,
    places: HashMap<Problem, Vec<Place>>,
    follow_ons: Vec<Place>,
    /// Each file as the repository names it (`a/OWNERS`), for the notes
    /// that list other places: one convention whatever the book's folder.
    shown: HashMap<String, String>,
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
            self.note(problem, &entry.written, file, entry.span.clone());
        }
    }

    /// A block's approvers, as Prow applies them: a list that names nobody
    /// (an empty alias) adds nobody and removes nobody; C404 only when
    /// every approver that applies to the folder, the parents' included
    /// unless `no_parent_owners`, is known to have left. Approvers who are
    /// unknown or unclaimed are reported already, so the list is a
    /// follow-on, counted.
    fn check_approvers(
        &mut self,
        roster: &Roster,
        file: &Arc<SourceFile>,
        key: &Range<usize>,
        approvers: Approvers<'_>,
    ) {
        let mut own = approvers.own.iter().flat_map(|e| &e.logins).peekable();
        if own.peek().is_none() {
            return;
        }
        let still_applies = |login: &String| roster.problem(&user(login)).is_none();
        if approvers.applying.iter().any(still_applies) {
            return;
        }
        let (mut active, mut reported) = (false, false);
        for login in own {
            match roster.problem(&user(login)) {
                None => active = true,
                Some(Problem::Inactive(_)) => {}
                Some(_) => reported = true,
            }
        }
        match (active, reported) {
            (true, _) => {}
            (false, false) => self.note(Problem::NoActiveOwner, "", file, key.clone()),
            (false, true) => {
                let line = file.line_of(key.start);
                self.follow_ons.push((Arc::clone(file), line, key.clone()));
            }
        }
    }

    fn note(
        &mut self,
        problem: Problem,
        written: &str,
        file: &Arc<SourceFile>,
        range: Range<usize>,
    ) {
        let line = file.line_of(range.start);
        let places = self.places.entry(problem.clone()).or_default();
        if places.is_empty() {
            self.order.push((problem, written.to_string()));
        }
        if !places
            .iter()
            .any(|(f, l, _)| f.name == file.name && *l == line)
        {
            places.push((Arc::clone(file), line, range));
        }
    }

    fn diagnostics(self, roster: &Roster, people: &People, level: Level) -> Vec<Diagnostic> {
        let follow_ons = self.follow_on_note();
        let mut out: Vec<Diagnostic> = (self.order.into_iter())
            .map(|(problem, written)| {
                let places = &self.places[&problem];
                let file = Arc::clone(&places[0].0);
                let (here, elsewhere): (Vec<_>, Vec<_>) =
                    places.iter().partition(|(f, _, _)| f.name == file.name);
                let finding = Finding {
                    problem,
                    written,
                    places: here.iter().map(|(_, l, r)| (*l, r.clone())).collect(),
                };
                let d = finding.diagnostic(&file, roster, people);
                with_elsewhere(d, &elsewhere, &self.shown)
            })
            .collect();
        out.extend(follow_ons);
        out.into_iter().map(|d| level.severity_of(d)).collect()
    }

    /// One note for the approver lists left with no owner but the ones
    /// reported above.
    fn follow_on_note(&self) -> Option<Diagnostic> {
        let (file, _, _) = self.follow_ons.first()?;
        let (here, elsewhere): (Vec<_>, Vec<_>) = self
            .follow_ons
            .iter()
            .partition(|(f, _, _)| f.name == file.name);
        let rules: Vec<(usize, Range<usize>)> =
            here.iter().map(|(_, l, r)| (*l, r.clone())).collect();
        let note = follow_on_note(file, &rules, "OWNERS approver list", self.follow_ons.len())?;
        Some(with_elsewhere(note, &elsewhere, &self.shown))
    }
}

/// `d` with "also in a/OWNERS:3, ..." for its places in other files, each
/// named relative to the repository root.
fn with_elsewhere(
    d: Diagnostic,
    elsewhere: &[&Place],
    shown: &HashMap<String, String>,
) -> Diagnostic {
    if elsewhere.is_empty() {
        return d;
    }
    let name = |f: &SourceFile| {
        shown
            .get(&f.name)
            .cloned()
            .unwrap_or_else(|| f.name.clone())
    };
    let list = elsewhere_list(elsewhere.iter().map(|(f, l, _)| format!("{}:{l}", name(f))));
    d.with_note(format!("also in {list}"))
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
