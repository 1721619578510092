//! Every copy agrees (`copies`): a warning (C410) for each person active in
//! a group and missing or former in one of its copies, or the other way
//! round, at the active side with the other side's place in a note (see
//! `people::copies`). Nothing is read when `copies` is not set.

use crate::config::Settings;
use crate::data::Data;
use crate::diagnostic::Diagnostic;

/// The copies' findings and problems.
pub fn check(settings: &Settings, data: &Data) -> Vec<Diagnostic> {
    if settings.copies.is_empty() {
        return Vec::new();
    }
    let Ok(people) = data.people(settings) else {
        return Vec::new(); // the roster's own problems are reported by the data stage
    };
    crate::people::copies::compare(settings, &people, data.yaml_files()).1
}
