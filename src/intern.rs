//! Equal texts kept once for the run: a directive repeated across the book
//! (a CODEOWNERS table, a group's list) gives the same output in every
//! chapter, and a book of thousands of such chapters would otherwise hold
//! thousands of copies until the answer is written. Measured on the
//! benchmark's generated books (issue 24): without it, peak memory grows
//! from 209 to 306 MiB with ten directives a chapter (50,000 chapters) and
//! from 97 to 107 MiB with one.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// The texts kept so far, shared by the threads of a stage.
#[derive(Default)]
pub struct Interner(Mutex<HashSet<Arc<str>>>);

impl Interner {
    /// `text`, or the equal text kept before it.
    pub fn share(&self, text: Arc<str>) -> Arc<str> {
        let Ok(mut kept) = self.0.lock() else {
            return text;
        };
        if let Some(kept) = kept.get(&text) {
            return Arc::clone(kept);
        }
        kept.insert(Arc::clone(&text));
        text
    }

    /// [`share`](Self::share) in place.
    pub fn share_in_place(&self, text: &mut Arc<str>) {
        *text = self.share(std::mem::replace(text, Arc::from("")));
    }
}
