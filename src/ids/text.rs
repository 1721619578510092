//! A heading's text as each renderer collects it: what a reader sees, and
//! what the id is derived from (see the table in the parent module).

use pulldown_cmark::{Event, Tag, TagEnd};

/// Which renderer's notion of heading text an accumulator builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Flavor {
    /// mdBook 0.4: the id source is the rendered HTML, built elsewhere.
    V04,
    /// mdBook 0.5: `text_in_node` over the heading's element.
    V05,
    /// GitHub: the heading element's text content.
    GitHub,
}

/// Collects a heading's (or term's) text from its inner events.
#[derive(Debug)]
pub(super) struct TextAcc {
    flavor: Flavor,
    /// What a reader sees.
    reader: String,
    /// What the renderer derives the id from (unused for mdBook 0.4).
    source: String,
    /// The last event was a footnote reference (mdBook 0.5 puts a space
    /// between two adjacent ones).
    after_footnote: bool,
    /// Depth of images being skipped.
    image_depth: usize,
}

impl TextAcc {
    pub(super) fn new(flavor: Flavor) -> Self {
        TextAcc {
            flavor,
            reader: String::new(),
            source: String::new(),
            after_footnote: false,
            image_depth: 0,
        }
    }

    /// Feeds one event; `footnote` is the reference's number for a
    /// `FootnoteReference` that is rendered.
    pub(super) fn push(&mut self, event: &Event<'_>, footnote: Option<usize>) {
        match event {
            Event::Start(Tag::Image { .. }) => self.image_depth += 1,
            Event::End(TagEnd::Image) => self.image_depth = self.image_depth.saturating_sub(1),
            _ => {}
        }
        if self.image_depth > 0 || matches!(event, Event::End(TagEnd::Image)) {
            self.after_footnote = false;
            return;
        }
        let was_after_footnote = std::mem::take(&mut self.after_footnote);
        match event {
            Event::Text(t) | Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                self.reader.push_str(t);
                self.source.push_str(t);
            }
            Event::SoftBreak => {
                self.reader.push(' ');
                self.source.push('\n');
            }
            Event::HardBreak => {
                self.reader.push(' ');
                if self.flavor == Flavor::GitHub {
                    self.source.push('\n');
                }
            }
            Event::FootnoteReference(_) => {
                if let Some(n) = footnote {
                    if self.flavor == Flavor::V05 && was_after_footnote {
                        self.source.push(' ');
                    }
                    self.source.push_str(&n.to_string());
                    self.after_footnote = true;
                }
            }
            _ => {}
        }
    }

    /// What a reader sees, trimmed: a heading's or term's `text`.
    pub(super) fn reader_text(&self) -> String {
        self.reader.trim().to_string()
    }

    /// What mdBook 0.5 or GitHub derives the id from.
    pub(super) fn source(&self) -> &str {
        &self.source
    }
}
