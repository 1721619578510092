//! The book walk: chapters out of mdBook's book JSON, and their new contents
//! back in, leaving every other byte of the JSON as it was.
//!
//! The book is read in one pass straight from the text mdBook sent: each
//! chapter's name, paths and content are decoded, everything else is only
//! stepped over. The answer is that same text with the changed contents
//! written in place of the old ones, so fields this plugin does not know
//! (a newer mdBook's) go back byte for byte, and a book without directives
//! costs little more than reading it.
//!
//! Hand-written beside `serde_json::Value` (whose deserialiser it still
//! uses, through `RawValue` and seeded visitors): reading the book into
//! values cost an allocation per key and string; on the Rust Book the
//! in-place read took 27.8 million instructions to 25.6 million (the
//! identity: 24.3), books without directives from 1.16-1.26x the
//! identity's time to 0.69-0.83x, and the 46 MB book's peak memory from
//! 3.8x its size to 3.3x (the Performance chapter, "Earlier rounds").

use std::borrow::Cow;
use std::fmt;
use std::io::Write;
use std::ops::Range;
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::Generation;

mod escapes;

/// One chapter, as the rest of the pipeline sees it.
///
/// Its name and paths are kept in one string: the run holds one of these
/// per chapter for its whole length, and three strings each were a tenth
/// of its memory on a book of many small chapters.
#[derive(Clone, Default)]
pub struct Chapter {
    /// The name, the path and the source path, one after the other; the
    /// source path only when it differs from the path (most often it is
    /// the same).
    strings: Box<str>,
    /// Where the path starts in `strings` (and the name ends).
    path_start: u32,
    /// Where the source path starts in `strings` (and the path ends).
    source_start: u32,
    has_path: bool,
    has_source_path: bool,
    source_is_path: bool,
    /// The Markdown content, after the preprocessors that ran before us.
    pub content: Content,
}

impl Chapter {
    /// A chapter named `name` at `path` (relative to the book's `src`
    /// folder, `None` for a draft), read from `source_path`.
    pub fn new(
        name: &str,
        path: Option<&str>,
        source_path: Option<&str>,
        content: impl Into<Content>,
    ) -> Chapter {
        let source_is_path = path.is_some() && source_path == path;
        let source = source_path.filter(|_| !source_is_path);
        let path_len = path.map_or(0, str::len);
        let total = name.len() + path_len + source.map_or(0, str::len);
        let mut strings = String::with_capacity(total);
        for part in [Some(name), path, source].into_iter().flatten() {
            strings.push_str(part);
        }
        // Names and paths past 4 GiB in all (no book comes near) are cut.
        let offset = |at: usize| u32::try_from(at).unwrap_or(u32::MAX);
        Chapter {
            strings: strings.into_boxed_str(),
            path_start: offset(name.len()),
            source_start: offset(name.len() + path_len),
            has_path: path.is_some(),
            has_source_path: source_path.is_some(),
            source_is_path,
            content: content.into(),
        }
    }

    /// The chapter's name (its title in `SUMMARY.md`).
    pub fn name(&self) -> &str {
        self.strings
            .get(..self.path_start as usize)
            .unwrap_or_default()
    }

    /// The chapter's path relative to the book's `src` folder, with `/`
    /// separators (`None` for a draft chapter).
    pub fn path(&self) -> Option<&str> {
        let path = self.path_start as usize..self.source_start as usize;
        self.has_path
            .then(|| self.strings.get(path).unwrap_or_default())
    }

    /// The file the content came from, relative to `src`.
    pub fn source_path(&self) -> Option<&str> {
        if self.source_is_path {
            return self.path();
        }
        let source = self.source_start as usize..;
        (self.has_source_path).then(|| self.strings.get(source).unwrap_or_default())
    }
}

impl fmt::Debug for Chapter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Chapter")
            .field("name", &self.name())
            .field("path", &self.path())
            .field("source_path", &self.source_path())
            .field("content", &self.content)
            .finish()
    }
}

/// A chapter's Markdown content.
///
/// Read from mdBook's input, it stays a string of that JSON. A chapter
/// that may hold a directive is decoded once, in place in the input, when
/// the book is read ([`Book::decode_in_place`]): every stage then borrows
/// its text. Any other is decoded each time a stage reads it
/// ([`get`](Self::get)), most only once, by the check pass. Neither way
/// does the run hold a chapter's text beside the JSON string it came from.
#[derive(Clone, Default)]
pub struct Content(Repr);

#[derive(Clone)]
enum Repr {
    /// Text given as it is (tests, tools).
    Text(Box<str>),
    /// The JSON string (quotes included) at `span` of `json`.
    InJson {
        json: Arc<Vec<u8>>,
        span: Range<usize>,
    },
    /// Decoded in place: the text is the `len` bytes after the opening
    /// quote of the JSON string at `span` of `json` (serde_json's escaping
    /// of the text gives that string back byte for byte). A `u32`, so that
    /// a chapter stays as small as it was.
    Decoded {
        json: Arc<Vec<u8>>,
        span: Range<usize>,
        len: u32,
    },
}

impl Default for Repr {
    fn default() -> Self {
        Repr::Text(Box::default())
    }
}

impl Content {
    /// The text. A JSON string without escapes is borrowed; any other is
    /// decoded (it was checked when the book was read).
    pub fn get(&self) -> Cow<'_, str> {
        match &self.0 {
            Repr::Text(text) => Cow::Borrowed(text),
            Repr::InJson { json, span } => {
                let raw = json.get(span.clone()).unwrap_or_default();
                decode(std::str::from_utf8(raw).unwrap_or_default())
            }
            Repr::Decoded { json, span, len } => {
                let text = span.start + 1..span.start + 1 + *len as usize;
                let text = json.get(text).unwrap_or_default();
                Cow::Borrowed(std::str::from_utf8(text).unwrap_or_default())
            }
        }
    }

    /// The text as its JSON string spells it (between the quotes), while
    /// that holds no `\u` escape: ASCII syntax such as `{{#name` or a
    /// fence is spelled there as in the text, but for tabs and line breaks
    /// (escaped). `None` for a content not read from JSON, or with a `\u`
    /// escape. Spares decoding a chapter to look for syntax in it.
    pub fn as_written_in_json(&self) -> Option<&[u8]> {
        let Repr::InJson { json, span } = &self.0 else {
            return None;
        };
        let raw = json.get(span.start + 1..span.end.checked_sub(1)?)?;
        (memchr::memmem::find(raw, b"\\u").is_none()).then_some(raw)
    }

    /// The size of the content as it was sent (its JSON string's for a
    /// chapter read from mdBook's input): the weight of its work when
    /// chapters are spread over the cores.
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Text(text) => text.len(),
            Repr::InJson { span, .. } | Repr::Decoded { span, .. } => span.len(),
        }
    }

    /// Where the content's JSON string (quotes included) is in the input
    /// it was read from; `None` for a text given as it is.
    pub fn span_in_input(&self) -> Option<Range<usize>> {
        match &self.0 {
            Repr::Text(_) => None,
            Repr::InJson { span, .. } | Repr::Decoded { span, .. } => Some(span.clone()),
        }
    }

    /// Whether the content is empty.
    pub fn is_empty(&self) -> bool {
        self.get().is_empty()
    }
}

/// The text of the JSON string `raw` (quotes included): borrowed when it
/// holds no escape; empty if it is not a valid string (never the case for
/// a string the book walk checked).
fn decode(raw: &str) -> Cow<'_, str> {
    let inner = raw
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or_default();
    if memchr::memchr(b'\\', inner.as_bytes()).is_none() {
        return Cow::Borrowed(inner);
    }
    match unescape(inner) {
        Some(text) => Cow::Owned(text),
        None => serde_json::from_str::<String>(raw).map_or(Cow::Borrowed(""), Cow::Owned),
    }
}

/// The text of a JSON string's inside whose escapes are all of one
/// character (`\n`, `\"`, ...), as most chapters' are; `None` for one with
/// a `\u` escape or anything unexpected, which `serde_json` decodes.
fn unescape(inner: &str) -> Option<String> {
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    while let Some(at) = memchr::memchr(b'\\', rest.as_bytes()) {
        out.push_str(&rest[..at]);
        let unescaped = match rest.as_bytes().get(at + 1)? {
            b'n' => '\n',
            b'"' => '"',
            b'\\' => '\\',
            b't' => '\t',
            b'r' => '\r',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            _ => return None,
        };
        out.push(unescaped);
        // The escape is two ASCII bytes.
        rest = rest.get(at + 2..)?;
    }
    out.push_str(rest);
    Some(out)
}

impl From<String> for Content {
    fn from(text: String) -> Self {
        Content(Repr::Text(text.into_boxed_str()))
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Self {
        Content(Repr::Text(text.into()))
    }
}

impl fmt::Debug for Content {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.get(), f)
    }
}

impl PartialEq for Content {
    fn eq(&self, other: &Content) -> bool {
        self.get() == other.get()
    }
}

impl PartialEq<str> for Content {
    fn eq(&self, other: &str) -> bool {
        *self.get() == *other
    }
}

impl PartialEq<&str> for Content {
    fn eq(&self, other: &&str) -> bool {
        *self.get() == **other
    }
}

/// The book as mdBook sent it, with its chapters read out.
#[derive(Debug)]
pub struct Book {
    /// The input the book's JSON text is part of, exactly as received but
    /// for the contents decoded in place.
    input: Arc<Vec<u8>>,
    /// Where the book's JSON text is in `input`.
    json: Range<usize>,
    /// Which shape it has.
    pub generation: Generation,
    /// Every chapter, in reading order. A content string is left where it
    /// is in the input.
    pub chapters: Vec<Chapter>,
}

/// Why the book (the second element of mdBook's input) cannot be read.
#[derive(Debug)]
pub enum BookError {
    /// Not a JSON object.
    NotAnObject,
    /// Neither `items` (mdBook 0.5) nor `sections` (mdBook 0.4) is a list.
    NoItems,
    /// Invalid JSON inside the book.
    Json(serde_json::Error),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::NotAnObject => write!(f, "the book (second element) is not a JSON object"),
            BookError::NoItems => write!(
                f,
                "the book has neither `items` (mdBook 0.5) nor `sections` (mdBook 0.4)"
            ),
            BookError::Json(e) => write!(f, "the book is not valid JSON ({e})"),
        }
    }
}

impl Book {
    /// Reads the book from its JSON text (copied, for the contents to be
    /// decoded from when read).
    pub fn parse(json: &str) -> Result<Book, BookError> {
        Book::parse_in(json, None)
    }

    /// Reads the book from its JSON text, which is a part of `input`: the
    /// chapters' contents are left in `input`, decoded when read (see
    /// [`Content`]).
    pub fn parse_in(json: &str, input: Option<&Arc<Vec<u8>>>) -> Result<Book, BookError> {
        if !json.trim_start().starts_with("{") {
            return Err(BookError::NotAnObject);
        }
        let base = json.as_ptr() as usize;
        let input = input.and_then(|input| {
            let offset = base.checked_sub(input.as_ptr() as usize)?;
            let inside = offset + json.len() <= input.len();
            inside.then(|| (Arc::clone(input), offset))
        });
        let input = input.unwrap_or_else(|| (Arc::new(json.as_bytes().to_vec()), 0));
        let (shared, offset) = (Arc::clone(&input.0), input.1);
        let mut walk = Walk {
            base,
            input,
            found: Found::default(),
        };
        let mut deserializer = serde_json::Deserializer::from_str(json);
        let lists = BookSeed { walk: &mut walk }
            .deserialize(&mut deserializer)
            .and_then(|lists| deserializer.end().map(|()| lists))
            .map_err(BookError::Json)?;
        let (generation, list) = match lists {
            Lists { items: true, .. } => (Generation::V05, List::Items),
            Lists { sections: true, .. } => (Generation::V04, List::Sections),
            _ => return Err(BookError::NoItems),
        };
        // With both lists (no mdBook sends that), only the chapters of the
        // one that decides the shape are answered.
        walk.found.retain_list(list, true);
        Ok(Book {
            input: shared,
            json: offset..offset + json.len(),
            generation,
            chapters: walk.found.chapters,
        })
    }

    /// Decodes, once and in place in the input, the contents of the
    /// chapters `which` picks (those that may hold a directive: every
    /// stage reads them), so that no stage decodes them again. A content
    /// whose JSON string is not written as serde_json writes it (as mdBook
    /// does) is left as it is: written back, its text must give the same
    /// bytes. Nothing is decoded while anything else holds the input.
    pub fn decode_in_place(&mut self, which: impl Fn(usize) -> bool) {
        let chosen: Vec<bool> = (self.chapters.iter().enumerate())
            .map(|(i, c)| matches!(c.content.0, Repr::InJson { .. }) && which(i))
            .collect();
        if !chosen.contains(&true) {
            return;
        }
        // Every content read from the input lets go of it, for it to be
        // written to; the others are kept as they are.
        let mut taken: Vec<Result<Range<usize>, Content>> = (self.chapters.iter_mut())
            .map(|chapter| match std::mem::take(&mut chapter.content) {
                Content(Repr::InJson { span, .. }) => Ok(span),
                other => Err(other),
            })
            .collect();
        let mut decoded: Vec<Option<u32>> = vec![None; taken.len()];
        if let Some(input) = Arc::get_mut(&mut self.input) {
            for (i, span) in taken.iter().enumerate() {
                if let (true, Ok(span)) = (chosen[i], span) {
                    decoded[i] = escapes::decode_in_place(input, span.clone());
                }
            }
        }
        for (i, chapter) in self.chapters.iter_mut().enumerate() {
            let json = Arc::clone(&self.input);
            chapter.content = match std::mem::replace(&mut taken[i], Ok(0..0)) {
                Ok(span) => Content(match decoded[i].take() {
                    Some(len) => Repr::Decoded { json, span, len },
                    None => Repr::InJson { json, span },
                }),
                Err(other) => other,
            };
        }
    }

    /// Where each chapter's content string (quotes included) is in the
    /// JSON text; `None` for a chapter without a string content.
    pub fn content_spans(&self) -> Vec<Option<Range<usize>>> {
        (0..self.chapters.len()).map(|i| self.span(i)).collect()
    }

    fn span(&self, index: usize) -> Option<Range<usize>> {
        let span = self.chapters.get(index)?.content.span_in_input()?;
        let offset = self.json.start;
        Some(span.start.checked_sub(offset)?..span.end.checked_sub(offset)?)
    }

    /// Writes the book to `out` with `contents[i]` (where `Some`) in place
    /// of chapter `i`'s content; every other byte as it came.
    pub fn write(&self, out: &mut dyn Write, contents: &[Option<String>]) -> std::io::Result<()> {
        self.write_with(out, |i| contents.get(i).cloned().flatten())
    }

    /// [`write`](Self::write), with `content_of(i)` asked for chapter
    /// `i`'s new content just before it is written (each once, in the
    /// order of the text), so that the new contents need not all be kept.
    pub fn write_with(
        &self,
        out: &mut dyn Write,
        mut content_of: impl FnMut(usize) -> Option<String>,
    ) -> std::io::Result<()> {
        let mut order: Vec<(usize, Range<usize>)> = (0..self.chapters.len())
            .filter_map(|i| Some((i, self.span(i)?)))
            .collect();
        order.sort_by_key(|(_, span)| span.start);
        let json = self.input.get(self.json.clone()).unwrap_or_default();
        let mut done = 0;
        for (index, span) in order {
            let content = match content_of(index) {
                Some(new) => Cow::Owned(new),
                // Decoded in place: its text, written as it came.
                None => match &self.chapters[index].content.0 {
                    Repr::Decoded { .. } => self.chapters[index].content.get(),
                    _ => continue,
                },
            };
            out.write_all(json.get(done..span.start).unwrap_or_default())?;
            serde_json::to_writer(&mut *out, &*content)?;
            done = span.end;
        }
        out.write_all(json.get(done..).unwrap_or_default())?;
        out.flush()
    }
}

/// The visits of a value a walk steps over: every scalar answers `$value`.
macro_rules! step_over_scalars {
    ($value:expr) => {
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok($value)
        }

        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok($value)
        }

        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok($value)
        }

        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok($value)
        }

        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok($value)
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($value)
        }
    };
}

/// Steps over a list the walk does not read.
fn step_over_seq<'de, S: SeqAccess<'de>>(mut seq: S) -> Result<(), S::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

/// What the walk has found so far.
struct Walk {
    /// The address of the book's text, to turn borrowed slices into offsets.
    base: usize,
    /// The input the book's text is part of, and where in it the text
    /// starts: contents are left there (see [`Content`]).
    input: (Arc<Vec<u8>>, usize),
    found: Found,
}

/// The chapters the walk found, in reading order, and the top-level list
/// each is in: two lists of one length, so that the chapters become the
/// book's without a copy.
#[derive(Default)]
struct Found {
    chapters: Vec<Chapter>,
    lists: Vec<List>,
}

impl Found {
    fn len(&self) -> usize {
        self.chapters.len()
    }

    /// Keeps the first `len` chapters.
    fn truncate(&mut self, len: usize) {
        self.chapters.truncate(len);
        self.lists.truncate(len);
    }

    /// Drops the chapters of `list` (`keep == false`) or keeps only them.
    fn retain_list(&mut self, list: List, keep: bool) {
        if self.lists.iter().all(|&l| (l == list) == keep) {
            return;
        }
        let wanted: Vec<bool> = self.lists.iter().map(|&l| (l == list) == keep).collect();
        let mut flags = wanted.iter();
        self.chapters.retain(|_| flags.next() == Some(&true));
        self.lists.retain(|&l| (l == list) == keep);
    }
}

/// One chapter's fields as the walk reads them.
#[derive(Default)]
struct Fields {
    name: String,
    path: Option<String>,
    source_path: Option<String>,
    content: Content,
}

impl Walk {
    fn span_of(&self, raw: &RawValue) -> Range<usize> {
        let start = raw.get().as_ptr() as usize - self.base;
        start..start + raw.get().len()
    }

    /// A content left in the input; `None` for a value that is not a
    /// string. A string is decoded here only if it has a `\u` escape: the
    /// walk stepped over the rest, but only decoding finds a lone
    /// surrogate, which makes the book invalid as it did when every
    /// content was decoded here.
    fn content_of(&self, raw: &RawValue) -> Result<Option<Content>, serde_json::Error> {
        let (input, offset) = &self.input;
        if !raw.get().starts_with('"') {
            return Ok(None);
        }
        if memchr::memmem::find(raw.get().as_bytes(), b"\\u").is_some() {
            serde_json::from_str::<String>(raw.get())?;
        }
        let span = self.span_of(raw);
        Ok(Some(Content(Repr::InJson {
            json: Arc::clone(input),
            span: offset + span.start..offset + span.end,
        })))
    }
}

/// The two top-level lists of book items.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum List {
    #[default]
    Items,
    Sections,
}

/// Which top-level lists the book has.
#[derive(Default)]
struct Lists {
    items: bool,
    sections: bool,
}

struct BookSeed<'w> {
    walk: &'w mut Walk,
}

impl<'de> DeserializeSeed<'de> for BookSeed<'_> {
    type Value = Lists;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Lists, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for BookSeed<'_> {
    type Value = Lists;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the book object")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Lists, M::Error> {
        let mut lists = Lists::default();
        let (mut seen_items, mut seen_sections) = (false, false);
        while let Some(key) = map.next_key::<Key>()? {
            let (list, found, seen) = match key {
                Key::Items => (List::Items, &mut lists.items, &mut seen_items),
                Key::Sections => (List::Sections, &mut lists.sections, &mut seen_sections),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            // As with JSON values, the last of a repeated key counts.
            if std::mem::replace(seen, true) {
                self.walk.found.retain_list(list, false);
            }
            *found = map.next_value_seed(ItemsSeed {
                walk: &mut *self.walk,
                list,
            })?;
        }
        Ok(lists)
    }
}

/// A list of book items; `true` when it was a list at all.
struct ItemsSeed<'w> {
    walk: &'w mut Walk,
    /// The top-level list these items belong to.
    list: List,
}

impl<'de> DeserializeSeed<'de> for ItemsSeed<'_> {
    type Value = bool;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ItemsSeed<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of book items")
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<bool, S::Error> {
        while seq
            .next_element_seed(ItemSeed {
                walk: &mut *self.walk,
                list: self.list,
            })?
            .is_some()
        {}
        Ok(true)
    }

    // Anything else where a list should be is stepped over, as before.
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<bool, M::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(false)
    }

    step_over_scalars!(false);
}

/// One book item: `{"Chapter": {...}}`, or something else (a separator, a
/// part title, or an item of a newer mdBook), which is stepped over.
struct ItemSeed<'w> {
    walk: &'w mut Walk,
    list: List,
}

impl<'de> DeserializeSeed<'de> for ItemSeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ItemSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a book item")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
        let mut first = None;
        while let Some(key) = map.next_key::<Key>()? {
            if key == Key::Chapter {
                // A repeated `Chapter` key: only the last counts.
                match first {
                    Some(start) => self.walk.found.truncate(start),
                    None => first = Some(self.walk.found.len()),
                }
                map.next_value_seed(ChapterSeed {
                    walk: &mut *self.walk,
                    list: self.list,
                })?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }

    fn visit_seq<S: SeqAccess<'de>>(self, seq: S) -> Result<(), S::Error> {
        step_over_seq(seq)
    }

    step_over_scalars!(());
}

/// A chapter object. It is recorded when it starts, so that it comes before
/// its sub-items in reading order whatever the order of its fields.
struct ChapterSeed<'w> {
    walk: &'w mut Walk,
    list: List,
}

impl<'de> DeserializeSeed<'de> for ChapterSeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ChapterSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a chapter")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
        let walk = self.walk;
        // The chapter's place, taken before its sub-items; it is filled in
        // once all its fields are read.
        let index = walk.found.len();
        walk.found.chapters.push(Chapter::default());
        walk.found.lists.push(self.list);
        let mut fields = Fields::default();
        let mut first_sub_item = None;
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::SubItems => {
                    // Repeated `sub_items`: only the last counts.
                    match first_sub_item {
                        Some(start) => walk.found.truncate(start),
                        None => first_sub_item = Some(walk.found.len()),
                    }
                    map.next_value_seed(ItemsSeed {
                        walk: &mut *walk,
                        list: self.list,
                    })?;
                }
                // A field that is not a string is as good as absent, and
                // goes back as it came; a repeated one counts its last time.
                Key::Content => {
                    let raw: &RawValue = map.next_value()?;
                    let content = walk.content_of(raw).map_err(de::Error::custom)?;
                    fields.content = content.unwrap_or_default();
                }
                Key::Name | Key::Path | Key::SourcePath => {
                    let raw: &RawValue = map.next_value()?;
                    let text = string(raw).map_err(de::Error::custom)?;
                    let path =
                        |text: Option<String>| text.map(|t| crate::paths::forward_slashes(&t));
                    match key {
                        Key::Name => fields.name = text.unwrap_or_default(),
                        Key::Path => fields.path = path(text),
                        _ => fields.source_path = path(text),
                    }
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let (path, source) = (fields.path.as_deref(), fields.source_path.as_deref());
        let chapter = Chapter::new(&fields.name, path, source, fields.content);
        if let Some(slot) = walk.found.chapters.get_mut(index) {
            *slot = chapter;
        }
        Ok(())
    }

    // A chapter that is not an object is stepped over.
    fn visit_seq<S: SeqAccess<'de>>(self, seq: S) -> Result<(), S::Error> {
        step_over_seq(seq)
    }

    step_over_scalars!(());
}

/// A JSON string's text, or `None` for any other value.
fn string(raw: &RawValue) -> Result<Option<String>, serde_json::Error> {
    if raw.get().starts_with('"') {
        serde_json::from_str(raw.get()).map(Some)
    } else {
        Ok(None)
    }
}

/// The keys the walk looks at; every other key is `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Items,
    Sections,
    Chapter,
    Name,
    Content,
    Path,
    SourcePath,
    SubItems,
    Other,
}

impl<'de> de::Deserialize<'de> for Key {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Key, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }

            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
                Ok(match key {
                    "items" => Key::Items,
                    "sections" => Key::Sections,
                    "Chapter" => Key::Chapter,
                    "name" => Key::Name,
                    "content" => Key::Content,
                    "path" => Key::Path,
                    "source_path" => Key::SourcePath,
                    "sub_items" => Key::SubItems,
                    _ => Key::Other,
                })
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests;
