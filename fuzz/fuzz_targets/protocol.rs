//! `protocol`: what mdBook writes to the preprocessor's stdin, as arbitrary
//! bytes: `protocol::parse_request`, then the whole `preprocess` run.
//!
//! Invariants: `preprocess` exits 0 with a JSON book on stdout, or 1 with
//! nothing on stdout; input that `parse_request` rejects exits 1; the book
//! written back is the book that came in except for chapter contents, and
//! chapters without `{{` and `faq` keep theirs.

#![no_main]

use fuzz_support::{may_hold_directive, run_preprocess, skeleton};
use libfuzzer_sys::fuzz_target;
use mdbook_community::Environment;
use mdbook_community::testing::Book;
use mdbook_community::testing::protocol;

fuzz_target!(|data: &[u8]| {
    let request = protocol::parse_request(data);
    let result = run_preprocess(data.to_vec(), Environment::default());
    let request = match request {
        Err(_) => {
            assert_eq!(result.code, 1, "rejected input exits 1");
            return;
        }
        Ok(request) => request,
    };
    let Some(written) = result.book else {
        return;
    };
    let written = written.to_string();
    let after = Book::parse(&written).expect("the answer is a book");
    let before = &request.book;
    assert_eq!(
        before.generation, after.generation,
        "the answer keeps its shape"
    );
    assert_eq!(
        before.chapters.len(),
        after.chapters.len(),
        "the book keeps its chapters"
    );
    for (old, new) in before.chapters.iter().zip(&after.chapters) {
        assert_eq!(old.name(), new.name(), "chapters stay in order");
        if !may_hold_directive(&old.content.get()) {
            assert_eq!(
                old.content, new.content,
                "a chapter without directives changed"
            );
        }
    }
    assert_eq!(
        skeleton(before),
        skeleton(&after),
        "only chapter contents change"
    );
});
