//! The pipeline, in order: read the request, read the settings, then for
//! the book: expand each chapter once, index the expanded chapters, resolve
//! links and check anchors, report, and write the answer.

use std::io::Write;

use crate::chapter::{self, Expanded, Resolved};
use crate::check::{self, Checked};
use crate::config::{Level, OnError, Settings};
use crate::data::Data;
use crate::date::Day;
use crate::diagnostic::{Code, Diagnostic};
use crate::directive::{Registry, Run};
use crate::expand;
use crate::ids::HeadingTexts;
use crate::index::BookIndex;
use crate::mdbook::{self, Chapter};
use crate::report::{self, Environment, Reporter, run_error};

/// Runs the preprocessor over mdBook's `input`; writes the book to `stdout`
/// and diagnostics to `stderr`. Returns the process exit code: 0 when the
/// book was written, 1 when it was not.
pub fn preprocess(
    input: Vec<u8>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    env: Environment,
    registry: &Registry,
) -> u8 {
    // The book is read in place: the input stays until the answer is
    // written, and chapters are decoded from it, in place or when read.
    let mut request = match mdbook::protocol::parse_request_owned(input) {
        Ok(request) => request,
        Err(e) => {
            run_error(stderr, Code::BadInput, e);
            return 1;
        }
    };
    let reporter = Reporter::new(&request.context, &env);
    reporter.check_version(stderr, &request.context.mdbook_version);
    // Problems in book.toml fail the build before any chapter is read,
    // unless `on-error = "warn"`: then the build goes on, and they are
    // reported with the rest.
    let (settings, settings_problems) = Settings::read(&request.context, request.book.generation);
    if !settings_problems.is_empty() && settings.on_error == OnError::Fail {
        reporter.report(stderr, settings_problems, &[], &settings);
        if !reporter.writes_book_anyway() {
            return 1;
        }
        return write_book(&request.book, stdout, stderr, |_| None);
    }

    // A chapter that calls a directive is read by every stage: it is
    // decoded once, in place, and borrowed from then on. (Written back
    // unchanged, a text decoded in place is escaped again: a chapter whose
    // `{{#` are mdBook's, or Rust's `{{`, is decoded when read instead.)
    let sites = expand::sites_of(&request.book.chapters, registry.names());
    (request.book).decode_in_place(|i| sites.get(i) == Some(&expand::Sites::Calls));
    let chapters = &request.book.chapters;
    let (mut answer, mut found) = run_stages(&settings, registry, chapters, &sites, env.today);
    report::map_to_files(&mut found, chapters, &settings);
    found.splice(0..0, settings_problems);
    if reporter.report(stderr, found, chapters, &settings) {
        return 1;
    }
    // Each new content is made, written and dropped in turn.
    write_book(&request.book, stdout, stderr, |i| answer.content(i))
}

/// Writes the answer, each chapter's new content from `content` (`None`
/// where it is unchanged); 0, or 1 when stdout cannot take it.
fn write_book(
    book: &mdbook::Book,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    content: impl FnMut(usize) -> Option<String>,
) -> u8 {
    if let Err(e) = book.write_with(stdout, content) {
        run_error(
            stderr,
            Code::BadInput,
            format!("cannot write the book to stdout: {e}"),
        );
        return 1;
    }
    0
}

/// Runs the stages from data to check over `chapters`: new contents
/// (`None` where unchanged) and every diagnostic, data files' first, then
/// the chapters' in book order.
pub fn process_chapters(
    settings: &Settings,
    registry: &Registry,
    chapters: &[Chapter],
) -> (Vec<Option<String>>, Vec<Diagnostic>) {
    let sites = expand::sites_of(chapters, registry.names());
    let (mut answer, diagnostics) = run_stages(settings, registry, chapters, &sites, None);
    let contents = (0..chapters.len()).map(|i| answer.content(i)).collect();
    (contents, diagnostics)
}

/// The stages from data to check: expand, index, resolve and check, the
/// drift and activity checks (the activity window ending `today`, or by
/// the clock), with what the byte scan found in each chapter (`sites`).
/// The new contents are left to be made one at a time while
/// the answer is written, so that they are never all in memory.
fn run_stages<'a>(
    settings: &Settings,
    registry: &Registry,
    chapters: &'a [Chapter],
    sites: &[expand::Sites],
    today: Option<Day>,
) -> (Answer<'a>, Vec<Diagnostic>) {
    let data = Data::default();
    let run = Run {
        settings,
        registry,
        chapters,
        data: &data,
        today,
    };
    let expanded = expand::expand_book(&run, sites);
    // Only link directives look headings up by their text.
    let heading_texts = match (expanded.iter().flatten()).any(|e| !e.deferred.links.is_empty()) {
        true => HeadingTexts::Keep,
        false => HeadingTexts::Drop,
    };
    let book = BookIndex::new(settings, chapters, &expanded, heading_texts);
    let checked = check::check_book(&run, &expanded, &book);
    let redirects = match settings.check_anchors {
        Level::Off => Vec::new(),
        _ => check::redirects::check_redirects(&run, &book),
    };
    drop(book);
    // The drift between ownership (CODEOWNERS or the OWNERS tree) and the
    // roster, and between ownership and the repository's files; who has
    // been quiet.
    let mut drift = check::owners::check(settings, &data);
    drift.extend(check::owners_files::check(settings, &data));
    drift.extend(check::coverage::check(settings, &data));
    drift.extend(check::copies::check(settings, &data));
    let activity = check::activity::check(settings, &data, today);
    let governance = check::governance(settings, &data, today);
    // Data files' own problems first, once each; then the drift and the
    // activity; then the
    // chapters', in order; then why the drift check could not run, unless
    // a directive's error says it already.
    let mut diagnostics = data.diagnostics();
    let (not_checked, drift): (Vec<_>, Vec<_>) =
        drift.into_iter().partition(|d| d.follow_on.is_some());
    diagnostics.extend(drift);
    diagnostics.extend(activity);
    diagnostics.extend(governance);
    diagnostics.extend(redirects);
    let mut resolved: Vec<Option<Resolved>> = (0..chapters.len()).map(|_| None).collect();
    for (
        index,
        Checked {
            resolved: r,
            diagnostics: found,
        },
    ) in checked
    {
        resolved[index] = Some(r);
        diagnostics.extend(found);
    }
    let unsaid: Vec<Diagnostic> = (not_checked.into_iter())
        .filter(|d| diagnostics.iter().all(|c| c.follow_on != d.follow_on))
        .collect();
    diagnostics.extend(unsaid);
    let answer = Answer {
        chapters,
        expanded,
        resolved,
    };
    (answer, diagnostics)
}

/// The chapters' new contents, each made when it is asked for.
struct Answer<'a> {
    chapters: &'a [Chapter],
    expanded: Vec<Option<Box<Expanded>>>,
    resolved: Vec<Option<Resolved>>,
}

impl Answer<'_> {
    /// Chapter `index`'s new content; `None` when it is unchanged. Each is
    /// made once, when the answer writes it.
    fn content(&mut self, index: usize) -> Option<String> {
        let expanded = self.expanded.get_mut(index)?.take();
        let resolved = self.resolved.get_mut(index)?.take();
        if expanded.is_none() && resolved.is_none() {
            return None; // unchanged: not even decoded
        }
        let content = self.chapters.get(index)?.content.get();
        chapter::final_text(&content, expanded.as_deref(), resolved.as_ref())
    }
}

#[cfg(test)]
mod tests;
