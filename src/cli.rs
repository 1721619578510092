//! The command line: `supports`, `install`, `check`, and the
//! preprocessor itself.

use std::ffi::OsString;
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::check_command::{self, CheckOptions};
use crate::directives;
use crate::report::MessageFormat;
use crate::{Environment, install, preprocess};

/// An mdBook preprocessor for community docs: maintainer lists, FAQ blocks
/// and checked cross-links to CONTRIBUTING.md.
///
/// Without a command, reads mdBook's [context, book] JSON on stdin and writes
/// the processed book on stdout (this is how mdBook runs it).
#[derive(Debug, Parser)]
#[command(name = "mdbook-community", version, about, long_about)]
pub struct Cli {
    /// What to do; nothing means "run as mdBook's preprocessor".
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Tell mdBook whether a renderer is supported (always: exit 0).
    Supports {
        /// The renderer's name, e.g. `html`.
        renderer: String,
    },
    /// Add the preprocessor and its assets to a book's book.toml.
    Install {
        /// The book's folder (where book.toml is).
        #[arg(default_value = ".")]
        book_dir: PathBuf,
    },
    /// Run every check of a build (settings, data files, directives, the
    /// CODEOWNERS drift check, anchors) without writing the book.
    ///
    /// The book is loaded by your `mdbook`, exactly as a build loads it.
    /// Exit status: 0 no errors, 1 errors (or warnings with
    /// `--deny warnings`), 2 the check could not run.
    Check {
        /// The book's folder (where book.toml is).
        #[arg(default_value = ".")]
        book_dir: PathBuf,
        /// How diagnostics are printed: `human` on stderr; `json` (one
        /// object a line), `sarif` (SARIF 2.1.0) or `github` (workflow
        /// commands) on stdout.
        #[arg(long, value_enum, default_value_t = FormatArg::Human)]
        message_format: FormatArg,
        /// `--deny warnings`: warnings fail the check too.
        #[arg(long, value_name = "LEVEL")]
        deny: Option<DenyArg>,
        /// The mdBook to load the book with.
        #[arg(long, value_name = "PATH", default_value = "mdbook")]
        mdbook: OsString,
    },
    /// A renderer that writes nothing (`check` has mdBook run it).
    #[command(hide = true)]
    Discard,
}

/// `--message-format`'s values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
    /// As rustc prints its errors.
    Human,
    /// One JSON object a line.
    Json,
    /// One SARIF 2.1.0 document.
    Sarif,
    /// GitHub Actions workflow commands.
    Github,
}

impl From<FormatArg> for MessageFormat {
    fn from(arg: FormatArg) -> Self {
        match arg {
            FormatArg::Human => MessageFormat::Human,
            FormatArg::Json => MessageFormat::Json,
            FormatArg::Sarif => MessageFormat::Sarif,
            FormatArg::Github => MessageFormat::Github,
        }
    }
}

/// `--deny`'s values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum DenyArg {
    /// Warnings fail the check.
    Warnings,
}

/// Runs the command line; returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        // Every renderer is supported: non-HTML renderers get plain CommonMark.
        Some(Command::Supports { .. }) => ExitCode::SUCCESS,
        Some(Command::Install { book_dir }) => match install::install(&book_dir) {
            Ok(report) => {
                println!("{report}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: mdbook-community install: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Check {
            book_dir,
            message_format,
            deny,
            mdbook,
        }) => {
            let options = CheckOptions {
                book_dir,
                format: message_format.into(),
                deny_warnings: deny.is_some(),
                mdbook,
                color: std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
            };
            let code = check_command::run(
                &options,
                &mut std::io::stdout().lock(),
                &mut std::io::stderr().lock(),
            );
            ExitCode::from(code)
        }
        // Exits without reading the book: mdBook writes it in many small
        // pieces, which took a third of a check's time. mdBook logs the
        // closed pipe as a warning (the check does not show mdBook's log
        // unless mdBook fails) and goes on.
        Some(Command::Discard) => ExitCode::SUCCESS,
        None => run_preprocessor(),
    }
}

/// The shape diagnostics are printed in, from
/// `MDBOOK_COMMUNITY_MESSAGE_FORMAT` (human when unset).
fn message_format() -> Result<MessageFormat, String> {
    let Some(value) = std::env::var_os("MDBOOK_COMMUNITY_MESSAGE_FORMAT") else {
        return Ok(MessageFormat::Human);
    };
    let value = value.to_string_lossy();
    MessageFormat::from_name(value.trim()).ok_or_else(|| {
        format!(
            "MDBOOK_COMMUNITY_MESSAGE_FORMAT is `{value}`; expected one of {}",
            MessageFormat::NAMES.join(", ")
        )
    })
}

/// Colour on the terminal, as `NO_COLOR` and `CLICOLOR_FORCE` say.
fn color() -> bool {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return false;
    }
    set("CLICOLOR_FORCE") || std::io::stderr().is_terminal()
}

fn run_preprocessor() -> ExitCode {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut input) {
        eprintln!("error: mdbook-community: cannot read stdin: {e}");
        return ExitCode::FAILURE;
    }
    let message_format = match message_format() {
        Ok(format) => format,
        Err(e) => {
            eprintln!("error[C102]: mdbook-community: {e}");
            return ExitCode::FAILURE;
        }
    };
    let env = Environment {
        github_actions: std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true"),
        workspace: std::env::var_os("GITHUB_WORKSPACE").map(PathBuf::from),
        color: color(),
        current_dir: std::env::current_dir().ok(),
        pwd: std::env::var_os("PWD").map(PathBuf::from),
        message_format,
        message_file: std::env::var_os("MDBOOK_COMMUNITY_MESSAGE_FILE")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from),
        check_status: std::env::var_os("MDBOOK_COMMUNITY_CHECK_STATUS")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from),
    };
    let stdout = std::io::stdout();
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let stderr = std::io::stderr();
    let mut stderr = stderr.lock();
    let code = preprocess(input, &mut stdout, &mut stderr, env, &directives::builtin());
    let _ = stdout.flush();
    ExitCode::from(code)
}
