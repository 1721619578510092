//! The one way this plugin runs `git`: with every setting of the
//! repository's own configuration that could run a program overridden.
//!
//! A checkout's `.git/config` is not the reader's: whoever prepared the
//! folder (a downloaded archive, a CI cache, a shared disk) may have set
//! `core.fsmonitor` to a script, which `git ls-files` would run on a plain
//! `mdbook build`, or made it a partial clone whose promisor remote's
//! `uploadpack` `git log` would run to fetch a missing commit. Settings
//! given with `-c` win over every configuration file, so each of these is
//! given here, for every command, whether or not that command reads it
//! today:
//!
//! - `core.fsmonitor=false`: no file-system monitor hook;
//! - `core.hooksPath=/dev/null`: no hook (none of the commands used runs
//!   one; kept so);
//! - `protocol.allow=never` and `GIT_NO_LAZY_FETCH=1`: no transport at all,
//!   so no lazy fetch of a partial clone's missing objects, no
//!   `uploadpack`, `core.sshCommand`, `core.gitProxy`, credential helper or
//!   `core.askPass`; `GIT_TERMINAL_PROMPT=0` never waits for a password;
//! - `log.showSignature=false`: no `gpg.program`;
//! - `core.pager=cat`, `--no-pager`: no pager (git starts none on a pipe);
//! - `gc.auto=0`, `maintenance.auto=false`: no background maintenance;
//! - `GIT_OPTIONAL_LOCKS=0`: the index is never rewritten (no
//!   `post-index-change`).
//!
//! `git log` is also given `--no-ext-diff` and `--no-textconv` by its
//! caller (it writes no diff; kept so). The system and user configuration
//! files are the machine's, not the checkout's, and are still read (a
//! system `safe.directory` is often what lets CI read the checkout).

use std::process::{Command, Stdio};

/// The settings given to every `git` command, as `-c` pairs.
pub const SAFE_SETTINGS: &[&str] = &[
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.pager=cat",
    "protocol.allow=never",
    "log.showSignature=false",
    "gc.auto=0",
    "maintenance.auto=false",
];

/// `git` with [`SAFE_SETTINGS`], the environment a hook or a wrapper may
/// set that names another repository cleared, and no input. The caller
/// names the repository (`-C` or `--git-dir`) and the command.
pub fn command() -> Command {
    let mut command = Command::new("git");
    command.arg("--no-pager");
    for setting in SAFE_SETTINGS {
        command.arg("-c").arg(setting);
    }
    command
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_NAMESPACE")
        .env_remove("GIT_EXTERNAL_DIFF")
        .env("GIT_NO_LAZY_FETCH", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_PAGER", "cat")
        .stdin(Stdio::null());
    command
}

/// Test fixtures: a repository whose configuration runs a program from
/// every setting known to run one for the commands this plugin uses.
#[cfg(test)]
pub mod hostile {
    use std::path::{Path, PathBuf};
    use std::process::Command;

    /// A repository at `dir` with one commit, whose `.git/config` sets
    /// `core.fsmonitor`, hooks, a pager, `gpg.program` with
    /// `log.showSignature`, an external diff, and a promisor remote whose
    /// `uploadpack` is the same script; the script appends to the marker
    /// file returned. With `missing_head`, `HEAD` names a commit that is not
    /// there (so that `git log` would fetch it from the promisor remote).
    pub fn repository(dir: &Path, missing_head: bool) -> PathBuf {
        let run = |args: &[&str]| {
            let status = Command::new("git")
                .arg("-C")
                .arg(dir)
                .args(["-c", "user.name=T", "-c", "user.email=t@example.com"])
                .args(args)
                .env_remove("GIT_DIR")
                .env_remove("GIT_WORK_TREE")
                .env_remove("GIT_INDEX_FILE")
                .output()
                .expect("git runs");
            assert!(status.status.success(), "git {args:?}: {status:?}");
        };
        run(&["init", "-q", "-b", "main"]);
        std::fs::write(dir.join("README.md"), "hello\n").expect("write");
        run(&["add", "README.md"]);
        run(&["commit", "-q", "-m", "first"]);
        let marker = dir.join("marker");
        let script = dir.join("run.sh");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\necho \"$0 $*\" >> '{}'\nexit 1\n",
                marker.display()
            ),
        )
        .expect("write");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
                .expect("chmod");
        }
        let script = script.display().to_string();
        let hooks = dir.join("hooks");
        std::fs::create_dir_all(&hooks).expect("mkdir");
        for hook in [
            "post-index-change",
            "post-checkout",
            "reference-transaction",
        ] {
            std::fs::copy(&script, hooks.join(hook)).expect("copy");
        }
        let hooks = hooks.display().to_string();
        for (key, value) in [
            ("core.fsmonitor", script.as_str()),
            ("core.hooksPath", hooks.as_str()),
            ("core.pager", script.as_str()),
            ("log.showSignature", "true"),
            ("gpg.program", script.as_str()),
            ("diff.external", script.as_str()),
            ("core.repositoryformatversion", "1"),
            ("extensions.partialClone", "origin"),
            ("remote.origin.url", dir.to_str().expect("UTF-8")),
            ("remote.origin.promisor", "true"),
            ("remote.origin.uploadpack", script.as_str()),
            ("core.sshCommand", script.as_str()),
        ] {
            run(&["config", key, value]);
        }
        if missing_head {
            std::fs::write(
                dir.join(".git/refs/heads/main"),
                "1111111111111111111111111111111111111111\n",
            )
            .expect("write");
        }
        marker
    }

    /// What the script wrote, if it ran.
    pub fn ran(marker: &Path) -> Option<String> {
        std::fs::read_to_string(marker).ok()
    }
}
