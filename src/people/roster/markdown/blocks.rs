//! A people file's Markdown as the blocks a roster is read from: headings,
//! paragraphs, lists with their items, tables with their cells, each with
//! its inline content as [`Piece`]s and its place in the file. One parse
//! (pulldown-cmark, with the book's options), by the offset iterator; the
//! text is never read with line patterns.

use std::ops::Range;

use pulldown_cmark::{Event, LinkType, Tag, TagEnd};

use crate::mdbook::MarkdownOptions;

/// A piece of inline content, with the bytes it spans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Text (a soft or hard line break is a space).
    Text(String, Range<usize>),
    /// A code span's text.
    Code(String, Range<usize>),
    /// A link or autolink: its text (code spans included), its
    /// destination, and whether it is an e-mail autolink.
    Link {
        text: String,
        url: String,
        email: bool,
        range: Range<usize>,
    },
    /// Bold text outside a link.
    Strong(String, Range<usize>),
    /// `<br>` in a table cell: what separates values in one cell.
    Break,
    /// Where `~~struck~~` text starts: a name struck out is a former member.
    Strike,
}

impl Piece {
    /// What the piece shows as plain text.
    pub fn text(&self) -> &str {
        match self {
            Piece::Text(text, _) | Piece::Code(text, _) | Piece::Strong(text, _) => text,
            Piece::Link { text, .. } => text,
            Piece::Break => "; ",
            Piece::Strike => "",
        }
    }
}

/// `pieces` with their ranges moved by `shift` (rows read from a text
/// made up of two parts of the file).
pub fn shifted(pieces: Vec<Piece>, shift: &dyn Fn(usize) -> usize) -> Vec<Piece> {
    let moved = |r: Range<usize>| shift(r.start)..shift(r.end);
    (pieces.into_iter())
        .map(|piece| match piece {
            Piece::Text(t, r) => Piece::Text(t, moved(r)),
            Piece::Code(t, r) => Piece::Code(t, moved(r)),
            Piece::Strong(t, r) => Piece::Strong(t, moved(r)),
            Piece::Link {
                text,
                url,
                email,
                range,
            } => Piece::Link {
                text,
                url,
                email,
                range: moved(range),
            },
            other => other,
        })
        .collect()
}

/// The plain text of `pieces`.
pub fn plain(pieces: &[Piece]) -> String {
    pieces.iter().map(Piece::text).collect::<String>()
}

/// A block of the file.
#[derive(Debug, Clone)]
pub enum Block {
    /// A heading of `level`.
    Heading {
        level: u8,
        pieces: Vec<Piece>,
        range: Range<usize>,
    },
    /// A paragraph (outside lists and tables).
    Paragraph {
        pieces: Vec<Piece>,
        range: Range<usize>,
    },
    /// A list's items.
    List(Vec<Item>),
    /// An HTML block (never read as people).
    Html(Range<usize>),
    /// A table: its header cells and its rows of cells; `cut`, where the
    /// parser stopped reading its rows (see [`MAX_FILLED_CELLS`]).
    Table {
        head: Vec<Vec<Piece>>,
        rows: Vec<(Vec<Vec<Piece>>, Range<usize>)>,
        range: Range<usize>,
        cut: Option<usize>,
    },
}

/// A list item: its own text, and the blocks nested in it.
#[derive(Debug, Clone)]
pub struct Item {
    pub pieces: Vec<Piece>,
    pub children: Vec<Block>,
    pub range: Range<usize>,
}

/// What the walk is inside of.
enum Open {
    Heading(u8, Vec<Piece>, usize),
    Paragraph(Vec<Piece>, usize),
    List(Vec<Item>),
    Item(Item),
    /// Header, rows, start, and where the parser stopped reading rows.
    Table(
        Vec<Vec<Piece>>,
        Vec<(Vec<Vec<Piece>>, Range<usize>)>,
        usize,
        Option<usize>,
    ),
    Row(Vec<Vec<Piece>>, usize),
    Cell(Vec<Piece>),
    /// A block whose content is not read (code, HTML, a quote's own
    /// paragraphs are read: quotes are not listed here).
    Skipped,
    /// An HTML block, from where it starts: not read as people, but its
    /// place is kept, for the warning a person named in it gives.
    Html(usize),
}

/// Lists nested deeper than this are not read (a roster is never that
/// deep, and a file of thousands of nested markers must not exhaust the
/// stack): their place is kept for a warning.
pub const MAX_LIST_DEPTH: usize = 32;

/// How many missing cells pulldown-cmark fills in for one table's rows
/// (`MAX_AUTOCOMPLETED_CELLS`, against quadratic growth): a table of
/// 1,000 columns whose rows have two cells ends after 263 rows, and the
/// rest of its rows are read as a paragraph.
pub const MAX_FILLED_CELLS: usize = 1 << 18;

/// The blocks of `text`.
pub fn blocks(text: &str, options: MarkdownOptions) -> Vec<Block> {
    let mut done = Vec::new();
    each_block(text, options, |block| done.push(block));
    done
}

/// Hands each block of `text` to `read` as soon as it ends, in order, so
/// that a large file's blocks are never all in memory at once (a 15 MB
/// roster's pieces took a third of what reading it held); where the first
/// list too deeply nested to be read starts (see [`MAX_LIST_DEPTH`]).
pub fn each_block(
    text: &str,
    options: MarkdownOptions,
    mut read: impl FnMut(Block),
) -> Option<Range<usize>> {
    let mut walk = Walk::default();
    for (event, range) in options.parser(text).into_offset_iter() {
        walk.event(event, range);
        for block in walk.done.drain(..) {
            read(block);
        }
    }
    walk.too_deep
}

#[derive(Default)]
struct Walk {
    done: Vec<Block>,
    open: Vec<Open>,
    /// Links and strong spans being read: (text so far, url, email, start).
    link: Option<(String, String, bool, usize)>,
    strong: Option<(String, usize)>,
    /// The first list nested deeper than [`MAX_LIST_DEPTH`].
    too_deep: Option<Range<usize>>,
}

impl Walk {
    fn event(&mut self, event: Event<'_>, range: Range<usize>) {
        match event {
            Event::Start(tag) => self.start(tag, range),
            Event::End(tag) => self.end(tag, range),
            Event::Text(text) => self.text(&text, range, false),
            Event::Code(text) => self.text(&text, range, true),
            Event::SoftBreak | Event::HardBreak => self.text(" ", range, false),
            Event::InlineHtml(html) if is_break(&html) => self.push(Piece::Break),
            Event::Html(html) | Event::InlineHtml(html) => self.summary(&html, range),
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>, range: Range<usize>) {
        let open = match tag {
            Tag::Heading { level, .. } => Open::Heading(level as u8, Vec::new(), range.start),
            Tag::Paragraph if self.in_inline_holder() => return,
            Tag::Paragraph if self.in_table() => {
                // The parser ended the table here (see `MAX_FILLED_CELLS`):
                // the rest of its rows come as a paragraph inside it.
                // The row it stopped in is not read: its line is part of
                // the paragraph.
                let table = self
                    .open
                    .iter_mut()
                    .rev()
                    .find(|o| matches!(o, Open::Table(..)));
                if let Some(Open::Table(_, rows, _, cut)) = table {
                    cut.get_or_insert(range.start);
                    if rows.last().is_some_and(|(_, at)| at.start >= range.start) {
                        rows.pop();
                    }
                }
                Open::Skipped
            }
            Tag::Paragraph => Open::Paragraph(Vec::new(), range.start),
            Tag::List(_) if self.list_depth() >= MAX_LIST_DEPTH => {
                self.too_deep.get_or_insert(range.clone());
                Open::Skipped
            }
            Tag::List(_) => Open::List(Vec::new()),
            Tag::Item => Open::Item(Item {
                pieces: Vec::new(),
                children: Vec::new(),
                range,
            }),
            Tag::Table(_) => Open::Table(Vec::new(), Vec::new(), range.start, None),
            Tag::TableHead | Tag::TableRow => Open::Row(Vec::new(), range.start),
            Tag::TableCell => Open::Cell(Vec::new()),
            Tag::Link {
                link_type,
                dest_url,
                ..
            } => {
                let email = link_type == LinkType::Email;
                self.link = Some((String::new(), dest_url.to_string(), email, range.start));
                return;
            }
            Tag::Strong if self.link.is_none() => {
                self.strong = Some((String::new(), range.start));
                return;
            }
            Tag::Strikethrough => {
                self.push(Piece::Strike);
                return;
            }
            Tag::HtmlBlock => Open::Html(range.start),
            Tag::CodeBlock(_) | Tag::FootnoteDefinition(_) => Open::Skipped,
            _ => return,
        };
        self.open.push(open);
    }

    /// How many lists are open (counted up to the bound).
    fn list_depth(&self) -> usize {
        (self.open.iter())
            .filter(|o| matches!(o, Open::List(_) | Open::Skipped))
            .take(MAX_LIST_DEPTH)
            .count()
    }

    fn end(&mut self, tag: TagEnd, range: Range<usize>) {
        match tag {
            TagEnd::Link => {
                if let Some((text, url, email, start)) = self.link.take() {
                    let range = start..range.end;
                    self.push(Piece::Link {
                        text,
                        url,
                        email,
                        range,
                    });
                }
            }
            TagEnd::Strong => {
                if let Some((text, start)) = self.strong.take() {
                    self.push(Piece::Strong(text, start..range.end));
                }
            }
            TagEnd::Paragraph if self.in_inline_holder() => {}
            TagEnd::Heading(_)
            | TagEnd::Paragraph
            | TagEnd::List(_)
            | TagEnd::Item
            | TagEnd::Table
            | TagEnd::TableHead
            | TagEnd::TableRow
            | TagEnd::TableCell
            | TagEnd::CodeBlock
            | TagEnd::HtmlBlock
            | TagEnd::FootnoteDefinition => self.close(range),
            _ => {}
        }
    }

    /// `<details><summary>Emeritus maintainers</summary>`: the summary
    /// labels what follows, as a bold paragraph would.
    fn summary(&mut self, html: &str, range: Range<usize>) {
        // Read, not written: the tag's name is looked for after its `<`.
        let lower = html.to_ascii_lowercase();
        let mut tags = lower.match_indices("summary");
        let Some((open, _)) = tags.next().filter(|(at, _)| lower[..*at].ends_with('<')) else {
            return;
        };
        let Some(start) = lower[open..].find('>').map(|i| open + i + 1) else {
            return;
        };
        let end = tags
            .find(|(at, _)| lower[..*at].ends_with('/') && lower[..*at - 1].ends_with('<'))
            .map_or(html.len(), |(at, _)| at - 2)
            .max(start);
        let mut title = String::new();
        let mut in_tag = false;
        for c in html[start..end].chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => title.push(c),
                _ => {}
            }
        }
        let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
        if title.is_empty() {
            return;
        }
        let block = Block::Paragraph {
            pieces: vec![Piece::Strong(title, range.clone())],
            range,
        };
        let holder = match self.open.last() {
            Some(Open::Html(_)) => self.open.len().checked_sub(2).map(|i| &mut self.open[i]),
            _ => return, // inline: in a paragraph, not a label of its own
        };
        match holder {
            None => self.done.push(block),
            Some(Open::Item(item)) => item.children.push(block),
            Some(_) => {}
        }
    }

    /// Whether the innermost block open is a table or a row of one.
    fn in_table(&self) -> bool {
        matches!(self.open.last(), Some(Open::Table(..) | Open::Row(..)))
    }

    /// Whether a paragraph here belongs to the item or cell around it
    /// (its first paragraph is the item's text).
    fn in_inline_holder(&self) -> bool {
        match self.open.last() {
            Some(Open::Item(item)) => item.children.is_empty(),
            Some(Open::Cell(_)) => true,
            _ => false,
        }
    }

    fn text(&mut self, text: &str, range: Range<usize>, code: bool) {
        if let Some((link_text, ..)) = &mut self.link {
            link_text.push_str(text);
        } else if let Some((strong, _)) = &mut self.strong {
            strong.push_str(text);
        } else if code {
            self.push(Piece::Code(text.to_string(), range));
        } else {
            self.push(Piece::Text(text.to_string(), range));
        }
    }

    /// Adds a piece to the innermost block that holds inline content.
    fn push(&mut self, piece: Piece) {
        let pieces = match self.open.last_mut() {
            Some(Open::Heading(_, pieces, _) | Open::Paragraph(pieces, _) | Open::Cell(pieces)) => {
                pieces
            }
            Some(Open::Item(item)) if item.children.is_empty() => &mut item.pieces,
            _ => return,
        };
        // Adjacent text joins (pulldown-cmark splits text at brackets).
        if let (Some(Piece::Text(last, last_range)), Piece::Text(text, range)) =
            (pieces.last_mut(), &piece)
        {
            last.push_str(text);
            last_range.end = range.end;
            return;
        }
        pieces.push(piece);
    }

    fn close(&mut self, range: Range<usize>) {
        let Some(open) = self.open.pop() else { return };
        let block = match open {
            Open::Heading(level, pieces, start) => Block::Heading {
                level,
                pieces,
                range: start..range.end,
            },
            Open::Paragraph(pieces, start) => Block::Paragraph {
                pieces,
                range: start..range.end,
            },
            Open::List(items) => Block::List(items),
            Open::Item(mut item) => {
                // Kept until the list ends: no room to spare (a piece is
                // 80 bytes, and a vector's first room is for four).
                item.pieces.shrink_to_fit();
                item.children.shrink_to_fit();
                if let Some(Open::List(items)) = self.open.last_mut() {
                    items.push(item);
                }
                return;
            }
            Open::Table(head, rows, start, cut) => Block::Table {
                head,
                rows,
                range: start..range.end,
                cut,
            },
            Open::Row(mut cells, start) => {
                cells.shrink_to_fit();
                if let Some(Open::Table(head, rows, _, cut)) = self.open.last_mut() {
                    match head.is_empty() {
                        true => *head = cells,
                        // The row the parser stopped in is read again
                        // from the text, with those after it.
                        false if cut.is_some_and(|cut| start >= cut) => {}
                        false => rows.push((cells, start..range.end)),
                    }
                }
                return;
            }
            Open::Cell(mut pieces) => {
                pieces.shrink_to_fit();
                if let Some(Open::Row(cells, _)) = self.open.last_mut() {
                    cells.push(pieces);
                }
                return;
            }
            Open::Skipped => return,
            Open::Html(start) => Block::Html(start..range.end),
        };
        match self.open.last_mut() {
            Some(Open::Item(item)) => item.children.push(block),
            Some(Open::Skipped) => {}
            _ => self.done.push(block),
        }
    }
}

/// `<br>`, `<br/>`, `<br />`.
fn is_break(html: &str) -> bool {
    let inner = html.trim().trim_start_matches('<').trim_end_matches('>');
    inner
        .trim_end_matches('/')
        .trim()
        .eq_ignore_ascii_case("br")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mdbook::Generation;

    fn read(text: &str) -> Vec<Block> {
        blocks(text, MarkdownOptions::defaults(Generation::V05))
    }

    #[test]
    fn lists_keep_their_items_pieces_and_nested_lists() {
        let blocks = read("* **Ben** ([@ben](https://github.com/ben))\n  - GPG key: AB\n");
        let Block::List(items) = &blocks[0] else {
            panic!("{blocks:?}")
        };
        assert_eq!(plain(&items[0].pieces), "Ben (@ben)");
        assert!(matches!(&items[0].pieces[0], Piece::Strong(s, _) if s == "Ben"));
        let Block::List(nested) = &items[0].children[0] else {
            panic!("{items:?}")
        };
        assert_eq!(plain(&nested[0].pieces), "GPG key: AB");
    }

    /// Issue 38, 20: an item's pieces are kept without spare room (a piece
    /// is 80 bytes, and a vector's first room is for four), and blocks are
    /// handed out as each ends.
    #[test]
    fn items_keep_no_spare_room_and_blocks_come_as_they_end() {
        let text = "# A\n\n* Ada (@ada)\n* Bob (@bob)\n\n# B\n";
        let blocks = read(text);
        let Block::List(items) = &blocks[1] else {
            panic!("{blocks:?}")
        };
        for item in items {
            assert_eq!(item.pieces.capacity(), item.pieces.len(), "{item:?}");
        }
        let mut order = Vec::new();
        let options = MarkdownOptions::defaults(Generation::V05);
        each_block(text, options, |block| {
            order.push(matches!(block, Block::List(_)))
        });
        assert_eq!(order, [false, true, false]);
    }

    #[test]
    fn tables_keep_header_rows_and_breaks() {
        let blocks = read("| Name | Roles |\n|---|---|\n| A | x <br/> y |\n");
        let Block::Table { head, rows, .. } = &blocks[0] else {
            panic!("{blocks:?}")
        };
        assert_eq!(plain(&head[1]), "Roles");
        assert_eq!(plain(&rows[0].0[1]).trim().replace("  ", " "), "x ; y");
    }
}
