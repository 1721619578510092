//! The command line: `supports`, `install`, and the preprocessor itself.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::directives;
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
        None => run_preprocessor(),
    }
}

fn run_preprocessor() -> ExitCode {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut input) {
        eprintln!("error: mdbook-community: cannot read stdin: {e}");
        return ExitCode::FAILURE;
    }
    let env = Environment {
        github_actions: std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true"),
        workspace: std::env::var_os("GITHUB_WORKSPACE").map(PathBuf::from),
        color: std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        current_dir: std::env::current_dir().ok(),
        pwd: std::env::var_os("PWD").map(PathBuf::from),
    };
    let stdout = std::io::stdout();
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let stderr = std::io::stderr();
    let mut stderr = stderr.lock();
    let code = preprocess(input, &mut stdout, &mut stderr, env, &directives::builtin());
    let _ = stdout.flush();
    ExitCode::from(code)
}
