//! The identity preprocessor: the work no mdBook preprocessor can avoid.
//!
//! It reads mdBook's `[context, book]` JSON from stdin into a
//! `serde_json::Value` (with `preserve_order`, as mdbook-community does),
//! and writes the book back through a 64 KiB `BufWriter`, exactly as
//! mdbook-community's `src/cli.rs` and `src/protocol.rs` do. Nothing else.
//! `identity-preprocessor supports RENDERER` exits 0, like any preprocessor.

use std::io::{BufWriter, Read, Write};
use std::process::ExitCode;

use serde_json::Value;

fn main() -> ExitCode {
    if std::env::args().nth(1).as_deref() == Some("supports") {
        return ExitCode::SUCCESS;
    }
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut input) {
        eprintln!("identity: cannot read stdin: {e}");
        return ExitCode::FAILURE;
    }
    let parsed = serde_json::from_slice::<Value>(&input);
    // As mdbook-community does: the values hold their own copies.
    drop(input);
    let book = match parsed {
        Ok(Value::Array(mut pair)) if pair.len() == 2 => pair.pop().unwrap_or(Value::Null),
        Ok(_) => {
            eprintln!("identity: expected [context, book]");
            return ExitCode::FAILURE;
        }
        Err(e) => {
            eprintln!("identity: invalid JSON: {e}");
            return ExitCode::FAILURE;
        }
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    if let Err(e) = write_book(&mut out, &book) {
        eprintln!("identity: cannot write stdout: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn write_book(out: &mut dyn Write, book: &Value) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, book)?;
    out.flush()
}
