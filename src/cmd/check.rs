//! `mdbook-community check`: every check of a build, without the build.
//!
//! The book is loaded by the user's own `mdbook`, so that SUMMARY.md,
//! `{{#include}}`, the other preprocessors and their order are exactly a
//! build's. Through mdBook's environment overrides, the run swaps the
//! book's renderers for one that writes nothing ([`RENDERER`]),
//! points `[preprocessor.community]` at this binary, and asks the plugin
//! for its diagnostics in a file, with their counts in another; this
//! process prints the one and decides the exit code from the other.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Map, Value, json};

use super::book::{LoadedBook, NotABook, cannot_run};
use super::vars;
use crate::diagnostic::{Diagnostic, plural};
use crate::report::MessageFormat;

/// The renderer `check` has mdBook run instead of the book's own: a
/// command that writes nothing. Its table carries the book's
/// `[output.html]` as its `html` key, where the plugin reads it (see
/// `mdbook::Context::html_table`).
const RENDERER: &str = "community-check";

/// Exit codes, as `check` documents them.
pub const CLEAN: u8 = 0;
/// Errors were found (or warnings, with `--deny warnings`).
pub const PROBLEMS: u8 = 1;
/// The check could not run.
pub const COULD_NOT_RUN: u8 = 2;

/// What `check` was asked to do.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// The book's folder.
    pub book_dir: PathBuf,
    /// The shape of the output.
    pub format: MessageFormat,
    /// Warnings fail the check too.
    pub deny_warnings: bool,
    /// The `mdbook` to run.
    pub mdbook: OsString,
    /// Colour the human output.
    pub color: bool,
}

/// What the plugin found.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counts {
    errors: usize,
    warnings: usize,
}

/// Runs the check; prints the diagnostics (human ones to `stderr`, the
/// machine formats to `stdout`) and returns the exit code.
pub fn run(options: &CheckOptions, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    let human = options.format == MessageFormat::Human;
    match check(options) {
        Ok((report, counts)) => {
            let out: &mut dyn Write = if human { stderr } else { stdout };
            let _ = out.write_all(&report);
            if human {
                let _ = writeln!(out, "{}", closing_line(&counts));
            }
            let failed = counts.errors > 0 || options.deny_warnings && counts.warnings > 0;
            if failed { PROBLEMS } else { CLEAN }
        }
        Err(NotABook(why)) => {
            // Still a document of the chosen format: a CI step that
            // uploads it uploads the reason.
            let out: &mut dyn Write = if human { stderr } else { stdout };
            let _ = emit_alone(out, &why, options);
            COULD_NOT_RUN
        }
    }
}

/// Prints one diagnostic of a check that could not run, in its format.
fn emit_alone(
    out: &mut dyn Write,
    why: &Diagnostic,
    options: &CheckOptions,
) -> std::io::Result<()> {
    let diagnostics = std::slice::from_ref(why);
    super::book::print(
        out,
        diagnostics,
        &options.book_dir,
        options.format,
        options.color,
    )
}

fn closing_line(counts: &Counts) -> String {
    match (counts.errors, counts.warnings) {
        (0, 0) => "mdbook-community check: no problems found".to_string(),
        (0, w) => format!("warning: mdbook-community check: {}", plural(w, "warning")),
        (e, 0) => format!("error: mdbook-community check: {}", plural(e, "error")),
        (e, w) => format!(
            "error: mdbook-community check: {}, {}",
            plural(e, "error"),
            plural(w, "warning")
        ),
    }
}

/// Runs mdBook over the book with the check renderer; the report and the
/// counts.
fn check(options: &CheckOptions) -> Result<(Vec<u8>, Counts), NotABook> {
    let root = &options.book_dir;
    let book = LoadedBook::load_with_plugin(root)?;
    let absolute = &book.context.root;
    if absolute.to_str().is_none() {
        // mdBook sends the book's root to preprocessors as JSON, and cannot
        // for such a path: no preprocessor runs, and no build works either.
        return Err(could_not_run(format!(
            "mdBook cannot run preprocessors for a book whose path is not UTF-8 ({}); rename the folder",
            absolute.display()
        )));
    }
    let exe = std::env::current_exe()
        .map_err(|e| could_not_run(format!("cannot find this program's own path: {e}")))?;
    let exe = quoted(&exe)?;
    let work = tempfile::Builder::new()
        .prefix("mdbook-community-check-")
        .tempdir()
        .map_err(|e| could_not_run(format!("cannot create a scratch folder: {e}")))?;
    let report = work.path().join("report");
    let status = work.path().join("status");
    let mut command = Command::new(&options.mdbook);
    command
        .arg("build")
        .arg(root)
        .arg("--dest-dir")
        .arg(work.path().join("book"))
        .env("MDBOOK_OUTPUT", output_override(&book, &exe).to_string())
        .env("MDBOOK_PREPROCESSOR__COMMUNITY__COMMAND", &exe)
        .env(
            "MDBOOK_PREPROCESSOR__COMMUNITY__RENDERERS",
            json!([RENDERER]).to_string(),
        )
        // A check writes nothing, not even the chapter files SUMMARY.md
        // names and that do not exist yet.
        .env("MDBOOK_BUILD__CREATE_MISSING", "false")
        .env(vars::MESSAGE_FORMAT, options.format.name())
        .env(vars::MESSAGE_FILE, &report)
        .env(vars::CHECK_STATUS, &status)
        .env_remove("GITHUB_ACTIONS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if options.color {
        command.env("CLICOLOR_FORCE", "1");
    }
    // mdBook reads its settings from the environment and panics on a
    // variable that is not UTF-8 (a `PWD` in a folder with such a name).
    for (name, value) in std::env::vars_os() {
        if name.to_str().is_none() || value.to_str().is_none() {
            command.env_remove(name);
        }
    }
    let finished = command.output().map_err(|e| {
        could_not_run(format!(
            "cannot run `{}`: {e} (install mdBook, or name it with --mdbook)",
            options.mdbook.to_string_lossy()
        ))
    })?;
    if !finished.status.success() {
        return Err(could_not_run(mdbook_failure(&finished.stderr)));
    }
    if let Some(missing) = missing_preprocessor(&finished.stderr) {
        return Err(could_not_run(missing));
    }
    let Ok(counts) = std::fs::read_to_string(&status) else {
        return Err(could_not_run(
            "mdbook ran, but not this plugin: is [preprocessor.community] in book.toml turned off?",
        ));
    };
    let report = std::fs::read(&report).unwrap_or_default();
    Ok((report, parse_counts(&counts)))
}

fn could_not_run(message: impl Into<String>) -> NotABook {
    NotABook(cannot_run(message))
}

/// `MDBOOK_OUTPUT`: the check renderer in place of the book's renderers,
/// carrying the book's `[output.html]` (or an empty one when the book has
/// no `[output]`, as mdBook then renders HTML).
fn output_override(book: &LoadedBook, exe: &str) -> Value {
    let mut renderer = Map::new();
    renderer.insert("command".into(), json!(format!("{exe} discard")));
    if let Some(html) = book.context.html_if_rendered() {
        renderer.insert("html".into(), html);
    }
    json!({ RENDERER: Value::Object(renderer) })
}

fn parse_counts(text: &str) -> Counts {
    let mut counts = Counts::default();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let (Some(name), Some(n)) = (words.next(), words.next()) else {
            continue;
        };
        let n = n.parse().unwrap_or(0);
        match name {
            "errors" => counts.errors = n,
            "warnings" => counts.warnings = n,
            _ => {}
        }
    }
    counts
}

/// `path` as one word of a command line mdBook splits like a shell.
fn quoted(path: &Path) -> Result<String, NotABook> {
    let text = path.to_string_lossy();
    shlex::try_quote(&text)
        .map(|quoted| quoted.into_owned())
        .map_err(|e| could_not_run(format!("cannot name {} to mdBook: {e}", path.display())))
}

/// mdBook's reason for failing, in one line: its first error and the
/// last of the causes it gives, without log prefixes.
fn mdbook_failure(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    if let Some(missing) = missing_preprocessor(stderr) {
        return missing;
    }
    if let Some(at) = text.find("panicked at") {
        let what = text[at..].lines().nth(1).unwrap_or_default().trim();
        return format!("mdbook stopped with an internal error: {what}");
    }
    let cause = |l: &&str| l.to_lowercase().starts_with("caused by:");
    // The first line logged at the error level that is not a cause.
    let first = text
        .lines()
        .filter(|raw| raw.contains("ERROR"))
        .map(strip_log_prefix)
        .find(|l| !cause(l));
    let lines: Vec<&str> = text.lines().map(strip_log_prefix).collect();
    let first = first.or_else(|| lines.iter().rfind(|l| !l.is_empty()).copied());
    let Some(first) = first else {
        return "mdbook could not load the book, and said nothing".to_string();
    };
    let first = first.trim().trim_start_matches("Error: ");
    match lines.iter().rfind(|l| cause(l)) {
        Some(last) => format!(
            "mdbook could not load the book: {first}: {}",
            last.trim()["caused by:".len()..].trim()
        ),
        None => format!("mdbook could not load the book: {first}"),
    }
}

/// mdBook 0.4 only warns about a preprocessor it cannot start, and builds
/// the book without it; a check of that book would not be the build's.
fn missing_preprocessor(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().map(strip_log_prefix).collect();
    let at = lines.iter().position(|l| l.contains("wasn't found"))?;
    // mdBook 0.5 goes on with how to make the preprocessor optional.
    let line = lines[at]
        .split("? ")
        .next()
        .unwrap_or(lines[at])
        .trim_end_matches('?');
    let command = lines
        .get(at + 1)
        .and_then(|l| l.trim().strip_prefix("Command: "))
        .map(|c| format!(" (`{}`)", c.trim()))
        .unwrap_or_default();
    Some(format!(
        "mdbook could not run a preprocessor: {}?{command}",
        line.trim()
    ))
}

/// A log line without mdBook 0.4's `2026-01-01 10:00:00 [ERROR] (module): `
/// or mdBook 0.5's `ERROR ` prefix.
fn strip_log_prefix(line: &str) -> &str {
    let mut line = line.trim();
    if let Some(at) = line.find("] (")
        && let Some(end) = line[at..].find("): ")
    {
        line = &line[at + end + 3..];
    }
    for level in ["ERROR ", "WARN ", "INFO ", "DEBUG ", "TRACE "] {
        if let Some(rest) = line.strip_prefix(level) {
            line = rest;
            break;
        }
    }
    line.trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_closing_lines() {
        let counts = parse_counts("errors 2\nwarnings 1\n");
        assert_eq!(
            counts,
            Counts {
                errors: 2,
                warnings: 1
            }
        );
        assert_eq!(
            closing_line(&counts),
            "error: mdbook-community check: 2 errors, 1 warning"
        );
        assert_eq!(
            closing_line(&Counts::default()),
            "mdbook-community check: no problems found"
        );
    }

    #[test]
    fn mdbook_log_prefixes_are_dropped() {
        let log = "2026-12-02 07:00:00 [INFO] (mdbook::book): Book building has started\n\
                   2026-12-02 07:00:00 [ERROR] (mdbook::utils): Error: Summary parsing failed for file=\"src/SUMMARY.md\"\n";
        assert_eq!(
            mdbook_failure(log.as_bytes()),
            "mdbook could not load the book: Summary parsing failed for file=\"src/SUMMARY.md\""
        );
        assert_eq!(
            strip_log_prefix("ERROR Summary parsing failed"),
            "Summary parsing failed"
        );
    }

    #[test]
    fn paths_with_spaces_are_quoted_for_mdbook() {
        let quoted = |p: &str| quoted(Path::new(p)).ok();
        let plain = "/usr/bin/mdbook-community";
        assert_eq!(quoted(plain).as_deref(), Some(plain));
        let odd = quoted("/a b/it's").expect("quotable");
        assert_eq!(shlex::split(&odd), Some(vec!["/a b/it's".to_string()]));
    }
}
