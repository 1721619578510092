//! Redirects in the anchor check: `[output.html.redirect]` is part of the
//! book's map. A link to a moved page or heading works (a note says where
//! it went); a redirect must lead somewhere that exists; a whole-page
//! redirect must not stand where a chapter still is.

use std::collections::HashSet;

use crate::config::Redirect;
use crate::diagnostic::{Code, Diagnostic};
use crate::directive::Run;
use crate::ids::{self, BookIds};
use crate::index::BookIndex;
use crate::mdbook::Generation;
use crate::paths;

/// Where a link to `page` (a chapter path) and `fragment` goes through a
/// redirect, if one applies: the heading's own redirect, or, for a page
/// that is not a chapter, the page's (which keeps the fragment).
pub fn moved<'r>(
    redirects: &'r [Redirect],
    page: &str,
    fragment: &str,
    page_exists: bool,
) -> Option<(&'r Redirect, String)> {
    let exact = redirects
        .iter()
        .find(|r| r.from == page && r.from_fragment.as_deref() == Some(fragment));
    let whole = || {
        redirects
            .iter()
            .find(|r| !page_exists && r.from == page && r.from_fragment.is_none())
    };
    let redirect = exact.or_else(whole)?;
    let (target, target_fragment) = redirect.target()?;
    let fragment = target_fragment.unwrap_or(fragment);
    Some((redirect, format!("{target}#{fragment}")))
}

/// The note for a link that works through `redirect`, suggesting the new
/// place (`new_place` is a chapter path and fragment; the link is written
/// in chapter `here`).
pub fn note_for_link(redirect: &Redirect, here: &str, new_place: &str) -> Diagnostic {
    let (page, fragment) = paths::split_fragment(new_place);
    let link = if page == here {
        format!("#{}", fragment.unwrap_or_default())
    } else {
        let relative = paths::relative(here, page);
        match fragment {
            Some(f) => format!("{relative}#{f}"),
            None => relative,
        }
    };
    Diagnostic::note(
        Code::RedirectedLink,
        format!(
            "this link works through the redirect `{}` in book.toml",
            redirect.key()
        ),
    )
    .with_label("moved")
    .with_help(format!("link to the new place: `{link}`"))
}

/// Problems with the redirects themselves: a target page that does not
/// exist (error), a target heading that does not exist (as `check-anchors`
/// says: a warning by default, as for links), and a whole-page redirect whose old page is
/// still a chapter (warning; mdBook would write one over the other).
pub fn check_redirects(run: &Run<'_>, book: &BookIndex<'_>) -> Vec<Diagnostic> {
    let redirects = &run.settings.redirects;
    // The old pages, once: a redirect to one of them is a chain.
    let old_pages: HashSet<&str> = redirects.iter().map(|r| r.from.as_str()).collect();
    let mut found = Vec::new();
    for redirect in redirects {
        if redirect.from_fragment.is_none() && book.chapter_by_path(&redirect.from).is_some() {
            let warning = Diagnostic::warning(
                Code::RedirectOverwritesChapter,
                format!(
                    "`{}` redirects a page that is still a chapter (`{}`)",
                    redirect.key(),
                    redirect.from
                ),
            )
            .with_label("mdBook writes the redirect and the chapter to one file")
            .with_help("remove the redirect, or the chapter from SUMMARY.md");
            found.push(at_entry(warning, redirect));
        }
        if let Some(problem) = broken_target(run, book, &old_pages, redirect) {
            found.push(at_entry(problem, redirect));
        }
    }
    found
}

/// The error for a redirect whose target is missing, if it is.
fn broken_target(
    run: &Run<'_>,
    book: &BookIndex<'_>,
    old_pages: &HashSet<&str>,
    redirect: &Redirect,
) -> Option<Diagnostic> {
    let (page, fragment) = redirect.target()?;
    let Some(index) = book.chapter_by_path(&page) else {
        // A redirect to another redirect's old page is a chain; it works.
        if old_pages.contains(page.as_str()) {
            return None;
        }
        let close = (book.closest_chapter(&page))
            .and_then(|i| run.chapters[i].path())
            .map(html_of);
        let error = Diagnostic::error(
            Code::BrokenRedirect,
            format!(
                "`{}` redirects to `{}`, which is not a page of this book",
                redirect.key(),
                redirect.to
            ),
        )
        .with_label("no such page")
        .with_suggestion(close);
        return Some(error);
    };
    let fragment = fragment.filter(|f| !f.is_empty())?;
    let ids = book.page(index)?;
    if ids.contains(fragment) {
        return None;
    }
    let error = Diagnostic::error(
        Code::BrokenRedirect,
        format!(
            "`{}` redirects to `{}`, but `{}` has no heading `#{fragment}`",
            redirect.key(),
            redirect.to,
            html_of(&page)
        ),
    )
    .with_label("no such heading");
    // A missing heading is judged as a link's is (`check-anchors`): a
    // preprocessor that runs after this one may make it.
    let error = run.settings.check_anchors.severity_of(error);
    Some(ids::with_closest_anchor(error, fragment, ids))
}

fn at_entry(diagnostic: Diagnostic, redirect: &Redirect) -> Diagnostic {
    match &redirect.at {
        Some((file, range)) => diagnostic.in_file(file, range.clone()),
        None => diagnostic.at_path("book.toml"),
    }
}

fn html_of(chapter: &str) -> String {
    let stem = chapter.strip_suffix(".md").unwrap_or(chapter);
    format!("{stem}.html")
}

/// The help for a broken link to `#fragment` on chapter `page` whose
/// closest heading is `#closest`, when that looks like a renamed heading
/// rather than a typo: besides fixing the link, a fragment redirect
/// (mdBook 0.5) keeps links from outside the book working.
pub fn suggest_redirect(
    generation: Generation,
    page: &str,
    fragment: &str,
    closest: &str,
) -> Option<String> {
    if generation != Generation::V05 || looks_like_a_typo(fragment, closest) {
        return None;
    }
    let html = html_of(page);
    let file = html.rsplit('/').next().unwrap_or(&html);
    Some(format!(
        "if the heading was renamed, also add `\"/{html}#{fragment}\" = \"{file}#{closest}\"` to [output.html.redirect], so links from outside the book keep working"
    ))
}

/// Whether `a` is `b` misspelt (at most two edits), rather than a new name:
/// then the link has a typo and the heading was not renamed. Compares at
/// most the first 64 characters, since the distance is quadratic.
fn looks_like_a_typo(a: &str, b: &str) -> bool {
    let start = |s: &str| -> String { s.chars().take(64).collect() };
    a.chars().count().abs_diff(b.chars().count()) <= 2
        && strsim::damerau_levenshtein(&start(a), &start(b)) <= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_is_not_a_renamed_heading() {
        assert!(looks_like_a_typo("seting-up", "setting-up"));
        assert!(!looks_like_a_typo(
            "how-to-contribute",
            "steps-to-contribute"
        ));
        // Long fragments cost a bounded comparison.
        let long = "a".repeat(100_000);
        assert!(looks_like_a_typo(&long, &format!("{long}b")));
        let help = suggest_redirect(Generation::V05, "guide/a.md", "old-name", "new-heading");
        assert_eq!(
            help.as_deref(),
            Some(
                "if the heading was renamed, also add `\"/guide/a.html#old-name\" = \"a.html#new-heading\"` to [output.html.redirect], so links from outside the book keep working"
            )
        );
        assert_eq!(
            suggest_redirect(Generation::V04, "a.md", "old-name", "new-heading"),
            None
        );
    }
}
