//! The governance of a group, read from its charter's rules (`governance`
//! in `book.toml`, see `config::GroupRules`) and its roster together:
//! who serves, from which organisation, how many votes that makes, what a
//! threshold or quorum is in people, and whether the roster keeps the
//! rules. Pure functions over `people::People`; `check.rs` turns what
//! breaks a rule into diagnostics.

use std::collections::HashMap;

use crate::config::{Base, GroupRules, Share, Votes};
use crate::date::Day;
use crate::people::People;

pub mod check;
pub mod organisations;
pub mod terms;

pub use organisations::{Affiliations, Clean};
pub use terms::Term;

/// One member who serves in the group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// Index into the group's `members`.
    pub member: usize,
    /// Index into `People::people`.
    pub person: usize,
    /// Index into [`Tally::organisations`].
    pub organisation: usize,
}

/// An organisation of the group's members.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Organisation {
    /// Its name, as shown: the alias's target, or the first spelling.
    pub name: String,
    /// The seats of its members, in roster order.
    pub seats: Vec<usize>,
    /// A person without an affiliation, who counts as their own.
    pub unaffiliated: bool,
}

/// A group's numbers under its rules.
#[derive(Debug, Clone)]
pub struct Tally<'r> {
    /// The rules.
    pub rules: &'r GroupRules,
    /// Index into `People::groups`.
    pub group: usize,
    /// The members who serve, in roster order.
    pub seats: Vec<Seat>,
    /// The members' former memberships (indices into the group's
    /// `members`).
    pub former: Vec<usize>,
    /// Their organisations, most members first, then by name.
    pub organisations: Vec<Organisation>,
}

impl<'r> Tally<'r> {
    /// The numbers of group `group` of `people` under `rules`, with
    /// affiliations compared through `affiliations`. Who serves is the
    /// roster's [`Standing`](crate::people::Standing).
    pub fn of(
        people: &People,
        group: usize,
        rules: &'r GroupRules,
        affiliations: &Affiliations,
    ) -> Tally<'r> {
        let mut seats = Vec::new();
        let mut former = Vec::new();
        let mut organisations: Vec<Organisation> = Vec::new();
        let mut by_key: HashMap<String, usize> = HashMap::new();
        for (index, member) in people.groups[group].members.iter().enumerate() {
            if !people.standing(member.person).serving_in.contains(&group) {
                former.push(index);
                continue;
            }
            let person = &people.people[member.person];
            let clean = affiliations.clean(person.affiliation.as_deref());
            let (key, name, unaffiliated) = match clean {
                Some(Clean { key, name, .. }) => (key, name, false),
                None => (
                    format!("\u{0}{}", member.person),
                    format!("{} (no affiliation)", person.name),
                    true,
                ),
            };
            let organisation = *by_key.entry(key).or_insert_with(|| {
                organisations.push(Organisation {
                    name,
                    seats: Vec::new(),
                    unaffiliated,
                });
                organisations.len() - 1
            });
            organisations[organisation].seats.push(seats.len());
            seats.push(Seat {
                member: index,
                person: member.person,
                organisation,
            });
        }
        // Most members first, then by name; seats point at the new order.
        let mut order: Vec<usize> = (0..organisations.len()).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&organisations[a], &organisations[b]);
            (b.seats.len().cmp(&a.seats.len()))
                .then(a.unaffiliated.cmp(&b.unaffiliated))
                .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
        });
        let mut new_index = vec![0; order.len()];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        for seat in &mut seats {
            seat.organisation = new_index[seat.organisation];
        }
        let organisations = order.iter().map(|&i| organisations[i].clone()).collect();
        Tally {
            rules,
            group,
            seats,
            former,
            organisations,
        }
    }

    /// How many members serve.
    pub fn members(&self) -> u64 {
        self.seats.len() as u64
    }

    /// How many organisations they are from (a person without an
    /// affiliation is their own).
    pub fn organisation_count(&self) -> u64 {
        self.organisations.len() as u64
    }

    /// The votes organisation `index` has under `votes`.
    pub fn votes_of(&self, index: usize) -> u64 {
        let members = self.organisations[index].seats.len() as u64;
        match self.rules.votes {
            Votes::PerPerson => members,
            Votes::PerOrganisation => members.min(1),
            Votes::AtMostPerOrganisation(n) => members.min(n),
        }
    }

    /// The eligible votes.
    pub fn votes(&self) -> u64 {
        (0..self.organisations.len())
            .map(|i| self.votes_of(i))
            .sum()
    }

    /// What thresholds and the quorum are shares of: the members or the
    /// votes (`threshold-of`).
    pub fn base(&self) -> u64 {
        match self.rules.threshold_of {
            Base::Members => self.members(),
            Base::Votes => self.votes(),
        }
    }

    /// The word for one of [`base`](Self::base): "member" or "vote".
    pub fn unit(&self) -> &'static str {
        match self.rules.threshold_of {
            Base::Members => "member",
            Base::Votes => "vote",
        }
    }

    /// How many of the base `share` needs.
    pub fn needed(&self, share: &Share) -> u64 {
        share.needed(self.base())
    }

    /// The quorum, in people or votes.
    pub fn quorum(&self) -> Option<u64> {
        self.rules.quorum.as_ref().map(|q| self.needed(q))
    }

    /// The most members one organisation may have, if capped.
    pub fn cap(&self) -> Option<u64> {
        (self.rules.max_per_organisation.as_ref()).map(|share| share.cap(self.members()))
    }

    /// Each threshold with what it needs.
    pub fn thresholds(&self) -> impl Iterator<Item = (&str, &Share, u64)> {
        (self.rules.thresholds.iter())
            .map(|(name, share)| (name.as_str(), share, self.needed(share)))
    }

    /// What breaks a rule, in the order of the rules.
    pub fn broken(&self, people: &People, today: Day) -> Vec<Broken> {
        let mut broken = Vec::new();
        if let Some(cap) = self.cap() {
            for (index, organisation) in self.organisations.iter().enumerate() {
                let count = organisation.seats.len() as u64;
                if count > cap && !organisation.unaffiliated {
                    broken.push(Broken::TooManyFromOne { index, count, cap });
                }
            }
        }
        if let Some(min) = self.rules.min_organisations
            && self.organisation_count() < min
        {
            broken.push(Broken::TooFewOrganisations { min });
        }
        if let Some(min) = self.rules.min_members
            && self.members() < min
        {
            broken.push(Broken::TooFewMembers { min });
        }
        if let Some(quorum) = self.quorum() {
            let reachable = match self.rules.threshold_of {
                Base::Members => self.members(),
                Base::Votes => self.votes(),
            };
            if quorum > reachable || reachable == 0 {
                broken.push(Broken::QuorumUnreachable { quorum, reachable });
            }
        }
        let reachable = self.base();
        for (name, _, needed) in self.thresholds() {
            if needed > reachable {
                let name = name.to_string();
                broken.push(Broken::ThresholdUnreachable {
                    name,
                    needed,
                    reachable,
                });
            }
        }
        for term in terms::of_tally(self, people, today).terms {
            if term.ends < today {
                broken.push(Broken::TermEnded(term));
            }
        }
        broken
    }
}

/// A rule the roster breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Broken {
    /// Organisation `index` has more members than the cap.
    TooManyFromOne {
        /// Index into [`Tally::organisations`].
        index: usize,
        /// Its members.
        count: u64,
        /// The cap.
        cap: u64,
    },
    /// Fewer organisations than `min-organisations`.
    TooFewOrganisations {
        /// The rule.
        min: u64,
    },
    /// Fewer members than `min-members`.
    TooFewMembers {
        /// The rule.
        min: u64,
    },
    /// The quorum is more than the members (or votes) who serve.
    QuorumUnreachable {
        /// The quorum.
        quorum: u64,
        /// The members (or votes) there are.
        reachable: u64,
    },
    /// A threshold needs more than the members (or votes) who serve.
    ThresholdUnreachable {
        /// The threshold's name.
        name: String,
        /// What it needs.
        needed: u64,
        /// The members (or votes) there are.
        reachable: u64,
    },
    /// A member's term ended before today, and was not renewed.
    TermEnded(Term),
}

impl Broken {
    /// The rule's key in `book.toml`.
    pub fn key(&self) -> &'static str {
        match self {
            Broken::TooManyFromOne { .. } => "max-per-organisation",
            Broken::TooFewOrganisations { .. } => "min-organisations",
            Broken::TooFewMembers { .. } => "min-members",
            Broken::QuorumUnreachable { .. } => "quorum",
            Broken::ThresholdUnreachable { .. } => "thresholds",
            Broken::TermEnded(_) => "term",
        }
    }
}

/// The rules of the groups the roster has, each with its group's index;
/// the ids it does not have, apart.
pub fn groups_ruled<'r>(
    rules: &'r [GroupRules],
    people: &People,
) -> (Vec<(usize, &'r GroupRules)>, Vec<&'r GroupRules>) {
    let mut known = Vec::new();
    let mut unknown = Vec::new();
    for rule in rules {
        let found = people.group(&rule.group);
        match found.and_then(|f| people.groups.iter().position(|g| std::ptr::eq(g, f))) {
            Some(index) => known.push((index, rule)),
            None => unknown.push(rule),
        }
    }
    (known, unknown)
}

#[cfg(test)]
mod tests;
