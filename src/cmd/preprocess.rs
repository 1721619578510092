//! The preprocessor as mdBook runs it: the request on stdin, the book on
//! stdout, the process's environment read once into an [`Environment`].

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use super::vars;
use crate::date::Day;
use crate::diagnostic::Code;
use crate::report::{Environment, MessageFormat, run_error};
use crate::{directives, preprocess};

/// Reads the request, runs the pipeline, writes the answer.
pub fn run() -> ExitCode {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut input) {
        let message = format!("cannot read stdin: {e}");
        run_error(&mut std::io::stderr(), Code::BadInput, message);
        return ExitCode::FAILURE;
    }
    let env = match environment() {
        Ok(env) => env,
        Err(e) => {
            run_error(&mut std::io::stderr(), Code::InvalidSetting, e);
            return ExitCode::FAILURE;
        }
    };
    let stdout = std::io::stdout();
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let stderr = std::io::stderr();
    let mut stderr = stderr.lock();
    let code = preprocess(input, &mut stdout, &mut stderr, env, &directives::builtin());
    let _ = stdout.flush();
    ExitCode::from(code)
}

/// The process's environment, as far as the run's output is concerned.
fn environment() -> Result<Environment, String> {
    let path = |name: &str| {
        let value = std::env::var_os(name).filter(|v| !v.is_empty());
        value.map(PathBuf::from)
    };
    Ok(Environment {
        github_actions: std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true"),
        workspace: std::env::var_os("GITHUB_WORKSPACE").map(PathBuf::from),
        color: super::color(),
        current_dir: std::env::current_dir().ok(),
        pwd: std::env::var_os("PWD").map(PathBuf::from),
        message_format: message_format()?,
        message_file: path(vars::MESSAGE_FILE),
        check_status: path(vars::CHECK_STATUS),
        today: today()?,
    })
}

/// The day from `MDBOOK_COMMUNITY_NOW`, if it is set (`None`: the clock's).
fn today() -> Result<Option<Day>, String> {
    let Some(value) = std::env::var_os(vars::NOW).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let value = value.to_string_lossy();
    match Day::parse(value.trim()) {
        Some(day) => Ok(Some(day)),
        None => Err(format!(
            "{} is `{value}`; expected a day as YYYY-MM-DD, e.g. 2026-03-01",
            vars::NOW
        )),
    }
}

/// The shape diagnostics are printed in, from `MDBOOK_COMMUNITY_MESSAGE_FORMAT`
/// (human when unset).
fn message_format() -> Result<MessageFormat, String> {
    let Some(value) = std::env::var_os(vars::MESSAGE_FORMAT) else {
        return Ok(MessageFormat::Human);
    };
    let value = value.to_string_lossy();
    MessageFormat::from_name(value.trim()).ok_or_else(|| {
        let names = MessageFormat::names().join(", ");
        format!(
            "{} is `{value}`; expected one of {names}",
            vars::MESSAGE_FORMAT
        )
    })
}
