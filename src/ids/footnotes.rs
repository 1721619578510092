//! Footnotes as mdBook renders them: which events sit inside which
//! definition, which definitions reach the page, and the number of each
//! reference.

use std::collections::{HashMap, HashSet};
use std::ops::RangeInclusive;

use pulldown_cmark::{CowStr, Event, Tag, TagEnd};

use super::Spanned;

/// Footnote bookkeeping shared by the renderers: which events sit inside
/// which definition, and the number and count of each reference.
#[derive(Debug)]
pub(super) struct Footnotes<'a> {
    /// Definitions in page order; their event ranges never overlap.
    defs: Vec<FootnoteDef<'a>>,
    /// Per reference event index: (displayed number, n-th use of the name).
    refs: HashMap<usize, (usize, u32)>,
    /// Per name: (number, references).
    numbers: HashMap<CowStr<'a>, (usize, u32)>,
}

#[derive(Debug)]
struct FootnoteDef<'a> {
    name: CowStr<'a>,
    /// The first definition of the name (later ones are dropped).
    first: bool,
    /// Event indices of its start and end.
    start: usize,
    end: usize,
}

impl<'a> Footnotes<'a> {
    /// `skip_duplicates`: references inside a repeated definition are not
    /// counted (mdBook 0.5 skips such a definition unread; 0.4 numbers
    /// them, then drops the definition).
    pub(super) fn new(events: &[Spanned<'a>], skip_duplicates: bool) -> Self {
        let mut defs: Vec<FootnoteDef<'a>> = Vec::new();
        let mut names = HashSet::new();
        let mut refs = HashMap::new();
        let mut numbers: HashMap<CowStr<'a>, (usize, u32)> = HashMap::new();
        let mut current: Option<usize> = None;
        for (i, (event, _)) in events.iter().enumerate() {
            match event {
                Event::Start(Tag::FootnoteDefinition(name)) if current.is_none() => {
                    defs.push(FootnoteDef {
                        name: name.clone(),
                        first: names.insert(name.clone()),
                        start: i,
                        end: i,
                    });
                    current = Some(defs.len() - 1);
                }
                Event::FootnoteReference(name) => {
                    let skipped = skip_duplicates && current.is_some_and(|d| !defs[d].first);
                    if !skipped {
                        let len = numbers.len() + 1;
                        let entry = numbers.entry(name.clone()).or_insert((len, 0));
                        entry.1 += 1;
                        refs.insert(i, *entry);
                    }
                }
                _ => {}
            }
            if let (Event::End(TagEnd::FootnoteDefinition), Some(d)) = (event, current) {
                defs[d].end = i;
                current = None;
            }
        }
        Footnotes {
            defs,
            refs,
            numbers,
        }
    }

    /// The bookkeeping of a page without footnotes.
    pub(super) fn none() -> Self {
        Footnotes {
            defs: Vec::new(),
            refs: HashMap::new(),
            numbers: HashMap::new(),
        }
    }

    /// The index in `defs` of the definition the event at `i` is inside.
    pub(super) fn def_of(&self, i: usize) -> Option<usize> {
        let after = self.defs.partition_point(|d| d.start <= i);
        let d = after.checked_sub(1)?;
        (i <= self.defs[d].end).then_some(d)
    }

    /// Whether a definition ends up on the page: the first of its name, and
    /// referenced.
    fn def_rendered(&self, d: usize) -> bool {
        let def = &self.defs[d];
        def.first && self.numbers.contains_key(&def.name)
    }

    /// Whether the event at `i` is inside a repeated definition (of a name
    /// defined before).
    pub(super) fn in_repeated_def(&self, i: usize) -> bool {
        self.def_of(i).is_some_and(|d| !self.defs[d].first)
    }

    /// The number of definition `d`'s name, if it is referenced.
    pub(super) fn def_number(&self, d: usize) -> Option<usize> {
        self.numbers.get(&self.defs[d].name).map(|&(n, _)| n)
    }

    /// The definitions that end up on the page, in order of number.
    pub(super) fn rendered_defs(&self) -> Vec<usize> {
        let mut defs: Vec<usize> = (0..self.defs.len())
            .filter(|&d| self.def_rendered(d))
            .collect();
        defs.sort_by_key(|&d| self.def_number(d));
        defs
    }

    /// Event indices of definition `d`, its start and end included.
    pub(super) fn def_events(&self, d: usize) -> RangeInclusive<usize> {
        self.defs[d].start..=self.defs[d].end
    }

    /// Whether the event at `i` ends up on the page.
    pub(super) fn rendered(&self, i: usize) -> bool {
        self.def_of(i).is_none_or(|d| self.def_rendered(d))
    }

    /// The number the reference at `i` shows, if it is numbered.
    pub(super) fn number(&self, i: usize) -> Option<usize> {
        self.refs.get(&i).map(|&(n, _)| n)
    }

    /// The `fr-NAME-N` id of the reference at `i`, if it is numbered.
    pub(super) fn reference_id(&self, i: usize, name: &str) -> Option<String> {
        self.refs
            .get(&i)
            .map(|&(_, count)| format!("fr-{name}-{count}"))
    }
}
