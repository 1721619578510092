//! Everything that knows mdBook: the preprocessor protocol's JSON in both
//! generations (0.4 and 0.5), the in-place walk over the book, and the
//! Markdown options mdBook renders with. No other module sees these shapes.

pub mod book;
pub mod config;
pub mod include;
pub mod options;
pub mod protocol;
pub mod renderers;

pub use book::{Book, Chapter};
pub use config::PREPROCESSOR_NAME;
pub use options::MarkdownOptions;
pub use protocol::Context;

/// Which shape the book JSON has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generation {
    /// mdBook 0.4.x: chapters under `sections`.
    V04,
    /// mdBook 0.5.x: chapters under `items`.
    V05,
}

impl Generation {
    /// The key the top-level list of book items lives under.
    pub fn items_key(self) -> &'static str {
        match self {
            Generation::V04 => "sections",
            Generation::V05 => "items",
        }
    }
}
