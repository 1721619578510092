//! The `mdbook-community` binary: a thin wrapper around the library.

fn main() -> std::process::ExitCode {
    mdbook_community::run_cli()
}
