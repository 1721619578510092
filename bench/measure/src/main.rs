//! `measure OUT_FILE -- COMMAND ARGS...`: runs COMMAND with this process's
//! stdin, stdout and stderr, waits for it, and writes one line to OUT_FILE:
//! `<wall seconds> <peak RSS bytes> <exit status> <CPU seconds>`. The wall
//! time runs from just before the spawn to just after the wait; the peak RSS
//! is the kernel's `ru_maxrss` for the child and everything it waited for;
//! the CPU time is their user plus system time.

use std::io::Write;
use std::process::Command;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(out_file), Some("--")) = (args.first(), args.get(1).map(String::as_str)) else {
        eprintln!("usage: measure OUT_FILE -- COMMAND ARGS...");
        std::process::exit(2);
    };
    let Some((program, rest)) = args[2..].split_first() else {
        eprintln!("measure: no command");
        std::process::exit(2);
    };
    let start = Instant::now();
    let child = match Command::new(program).args(rest).spawn() {
        Ok(child) => child,
        Err(e) => {
            eprintln!("measure: cannot run {program}: {e}");
            std::process::exit(2);
        }
    };
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 on our own child, with valid pointers to live locals.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = start.elapsed().as_secs_f64();
    if waited != pid {
        eprintln!("measure: wait4 failed: {}", std::io::Error::last_os_error());
        std::process::exit(2);
    }
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    };
    let rss = usage.ru_maxrss as u64 * 1024; // Linux reports KiB
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    let line = format!("{wall:.6} {rss} {code} {cpu:.6}\n");
    if let Err(e) = std::fs::File::create(out_file).and_then(|mut f| f.write_all(line.as_bytes())) {
        eprintln!("measure: cannot write {out_file}: {e}");
        std::process::exit(2);
    }
    // The child is reaped; `child` must not be waited for again.
    std::mem::forget(child);
    std::process::exit(code);
}
