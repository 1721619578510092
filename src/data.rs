//! Data shared by all chapters of a run, each piece loaded at most once and
//! only when a directive first needs it.

/// Lazily loaded data files and indexes of one run.
#[derive(Debug, Default)]
pub struct Data {}
