//! `{{#affiliations GROUP}}`: the members who serve in a group, by
//! organisation, as an SVG bar chart (with the group's cap per
//! organisation drawn as a line) and, beside it, the same numbers as a
//! table, for screen readers and renderers other than HTML (which get the
//! table alone). The chart follows mdBook's themes: its colours are the
//! theme's CSS variables (`--fg`, `--links`, `--sidebar-bg`) or
//! `currentColor`; it is `role="img"`, named by its `<title>` and
//! described by its `<desc>`.

use pulldown_cmark::Event;

use crate::diagnostic::Diagnostic;
use crate::directive::{BraceDirective, Call, Cx, Expansion};
use crate::directives::governance::{table, target};
use crate::governance::Tally;
use crate::markdown::html::{HtmlWriter, Value};
use crate::markdown::{Placement, to_markdown};

/// The `affiliations` directive.
pub struct AffiliationsDirective;

/// The chart's layout, in SVG units.
const WIDTH: u64 = 640;
const BAR: u64 = 22;
const GAP: u64 = 10;
const TOP: u64 = 8;

impl BraceDirective for AffiliationsDirective {
    fn name(&self) -> &'static str {
        "affiliations"
    }

    fn expand(&self, call: &Call<'_>, cx: &Cx<'_>) -> Result<Expansion, Vec<Diagnostic>> {
        let target = target(call, cx, &[])?;
        if call.placement == Placement::Inline {
            return Err(vec![
                call.error(
                    crate::diagnostic::Code::MisplacedDirective,
                    "`{{#affiliations}}` makes a chart and a table, so it must be a paragraph of its own",
                )
                .with_label("inside running text"),
            ]);
        }
        let tally = target.tally();
        let group = &target.people.groups[target.group];
        let options = cx.settings().markdown.parser_options();
        let mut events: Vec<Event<'_>> = Vec::new();
        let rows = (tally.organisations.iter())
            .map(|o| vec![o.name.clone(), o.seats.len().to_string()])
            .collect();
        table(&mut events, &["Organisation", "Members"], rows);
        let table_md = to_markdown(events, options);
        if !cx.settings().html {
            return Ok(Expansion::Block(table_md));
        }
        let id = cx.claim_id(&format!("affiliations-{}", group.id));
        let mut html = HtmlWriter::new();
        chart(&mut html, &tally, &group.title, &id);
        html.blank_line();
        html.markdown_block(&table_md);
        Ok(Expansion::Block(html.finish_block()))
    }
}

/// The chart, as one HTML block (no blank line inside).
fn chart(html: &mut HtmlWriter, tally: &Tally<'_>, title: &str, id: &str) {
    let organisations = &tally.organisations;
    let most = (organisations.iter().map(|o| o.seats.len() as u64))
        .chain(tally.cap())
        .max()
        .unwrap_or(1)
        .max(1);
    let longest = (organisations.iter().map(|o| o.name.chars().count()))
        .max()
        .unwrap_or(0) as u64;
    let label = (longest * 8 + 12).clamp(80, 260);
    let span = WIDTH - label - 40;
    let rows = organisations.len().max(1) as u64;
    let height = TOP * 2 + rows * (BAR + GAP) + if tally.cap().is_some() { 16 } else { 0 };
    let (title_id, desc_id) = (format!("{id}-title"), format!("{id}-desc"));
    let labelled = format!("{title_id} {desc_id}");
    let view_box = format!("0 0 {WIDTH} {height}");
    let title_text = format!("Members of {title} by organisation");
    let described: Vec<String> = (organisations.iter())
        .map(|o| format!("{}: {}", o.name, o.seats.len()))
        .collect();
    let mut desc = format!(
        "{} members from {} organisations. {}.",
        tally.members(),
        tally.organisation_count(),
        described.join("; ")
    );
    if let Some(cap) = tally.cap() {
        desc.push_str(&format!(" At most {cap} from one organisation."));
    }
    html.open(
        "figure",
        &[
            ("class", Some(Value::Fixed("community-affiliations"))),
            ("id", text(id)),
        ],
    );
    html.open(
        "svg",
        &[
            ("xmlns", Some(Value::Fixed("http://www.w3.org/2000/svg"))),
            ("role", Some(Value::Fixed("img"))),
            ("aria-labelledby", text(&labelled)),
            ("viewBox", text(&view_box)),
            ("width", Some(Value::Fixed("100%"))),
            (
                "style",
                Some(Value::Fixed(
                    "max-width: 40em; color: var(--fg); font: 14px sans-serif",
                )),
            ),
        ],
    );
    html.open("title", &[("id", text(&title_id))]);
    html.text(&title_text);
    html.close("title");
    html.open("desc", &[("id", text(&desc_id))]);
    html.text(&desc);
    html.close("desc");
    bars(html, tally, Layout { label, span, most });
    if let Some(cap) = tally.cap() {
        cap_line(html, Layout { label, span, most }, cap, height);
    }
    html.close("svg");
    html.close("figure");
}

/// Where bars go: the labels' width, the bars' span, the count the span
/// stands for.
#[derive(Clone, Copy)]
struct Layout {
    label: u64,
    span: u64,
    most: u64,
}

fn text(s: &str) -> Option<Value<'_>> {
    Some(Value::Text(s))
}

const CURRENT: Option<Value<'static>> = Some(Value::Fixed("currentColor"));

/// A bar per organisation: its name, the bar, the count.
fn bars(html: &mut HtmlWriter, tally: &Tally<'_>, layout: Layout) {
    let Layout { label, span, most } = layout;
    for (index, organisation) in tally.organisations.iter().enumerate() {
        let count = organisation.seats.len() as u64;
        let y = TOP + index as u64 * (BAR + GAP);
        let width = (count * span / most).max(2);
        let over = tally
            .cap()
            .is_some_and(|cap| count > cap && !organisation.unaffiliated);
        let (ty, bx, by, bw, cx) = (
            (y + BAR / 2 + 5).to_string(),
            label.to_string(),
            y.to_string(),
            width.to_string(),
            (label + width + 6).to_string(),
        );
        html.open("g", &[]);
        html.open(
            "text",
            &[
                ("x", Some(Value::Fixed("0"))),
                ("y", text(&ty)),
                ("fill", CURRENT),
            ],
        );
        html.text(&organisation.name);
        html.close("text");
        let fill = match over {
            true => "fill: var(--warning-border, var(--fg)); stroke: currentColor",
            false => "fill: var(--links); stroke: currentColor; stroke-opacity: 0.3",
        };
        html.open(
            "rect",
            &[
                ("x", text(&bx)),
                ("y", text(&by)),
                ("width", text(&bw)),
                ("height", Some(Value::Fixed("22"))),
                ("rx", Some(Value::Fixed("3"))),
                ("style", Some(Value::Fixed(fill))),
            ],
        );
        html.close("rect");
        html.open(
            "text",
            &[("x", text(&cx)), ("y", text(&ty)), ("fill", CURRENT)],
        );
        html.text(&count.to_string());
        html.close("text");
        html.close("g");
    }
}

/// The cap per organisation, as a dashed line across the bars.
fn cap_line(html: &mut HtmlWriter, layout: Layout, cap: u64, height: u64) {
    let Layout { label, span, most } = layout;
    {
        let x = (label + cap * span / most).to_string();
        let bottom = (height - 14).to_string();
        let caption_y = (height - 2).to_string();
        let caption = format!("at most {cap} per organisation");
        html.open(
            "line",
            &[
                ("x1", text(&x)),
                ("x2", text(&x)),
                ("y1", Some(Value::Fixed("0"))),
                ("y2", text(&bottom)),
                ("stroke", CURRENT),
                ("stroke-dasharray", Some(Value::Fixed("4 3"))),
            ],
        );
        html.close("line");
        html.open(
            "text",
            &[
                ("x", text(&x)),
                ("y", text(&caption_y)),
                ("fill", CURRENT),
                ("text-anchor", Some(Value::Fixed("end"))),
            ],
        );
        html.text(&caption);
        html.close("text");
    }
}
