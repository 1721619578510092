//! The `git` command, run on the repository the book is in: whether the
//! clone is shallow, and its log, newest first, one commit a line, read as
//! git writes it and stopped (the process killed) as soon as the reader
//! has what it needs.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use super::identity::Ident;

/// One line per commit, fields separated by NUL: hash; author e-mail, its
/// `.mailmap` e-mail, name, `.mailmap` name; the same of the committer;
/// author and commit times (Unix seconds); the parents' hashes, separated
/// by spaces; the subject; the values of the `Co-authored-by` trailers,
/// separated by the unit separator.
const FORMAT: &str = "--format=%H%x00%ae%x00%aE%x00%an%x00%aN%x00%ce%x00%cE%x00%cn%x00%cN\
%x00%at%x00%ct%x00%P%x00%s%x00%(trailers:key=Co-authored-by,valueonly,separator=%x1f,unfold)";

/// One commit of the log.
#[derive(Debug)]
pub struct Commit<'a> {
    /// The full hash.
    pub hash: &'a str,
    /// Who wrote it.
    pub author: Ident<'a>,
    /// Who committed it.
    pub committer: Ident<'a>,
    /// When it was written (Unix seconds).
    pub authored: i64,
    /// When it was committed (Unix seconds).
    pub committed: i64,
    /// The parents' hashes, separated by spaces (the first is the first
    /// parent).
    pub parents: &'a str,
    /// The first line of the message.
    pub subject: &'a str,
    co_authors: &'a str,
}

impl<'a> Commit<'a> {
    /// A line of the log in [`FORMAT`]; `None` for anything else.
    pub(super) fn parse(line: &'a str) -> Option<Commit<'a>> {
        let mut fields = line.split('\0');
        let mut next = || fields.next();
        let hash = next()?;
        // Where a field of the line starts, so that an identity's four
        // fields are one slice too (its key).
        let at = |field: &str| field.as_ptr() as usize - line.as_ptr() as usize;
        let mut ident = || -> Option<Ident<'a>> {
            let (email, mapped_email, name, mapped_name) = (next()?, next()?, next()?, next()?);
            Some(Ident {
                key: line.get(at(email)..at(mapped_name) + mapped_name.len())?,
                email,
                mapped_email,
                name,
                mapped_name,
            })
        };
        let (author, committer) = (ident()?, ident()?);
        let authored = next()?.parse().ok()?;
        let committed = next()?.parse().ok()?;
        let parents = next()?;
        let subject = next()?;
        let co_authors = next().unwrap_or("");
        Some(Commit {
            hash,
            author,
            committer,
            authored,
            committed,
            parents,
            subject,
            co_authors,
        })
    }

    /// The `Co-authored-by:` trailers.
    pub fn co_authors(&self) -> impl Iterator<Item = Ident<'a>> + use<'a> {
        let co_authors: &'a str = self.co_authors;
        co_authors
            .split('\u{1f}')
            .filter(|v| !v.trim().is_empty())
            .map(Ident::of_trailer)
    }
}

/// Why a log ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// At the first commit (or the shallow boundary): the whole history
    /// was read.
    Root,
    /// At `activity-max-commits`.
    Limit,
    /// The reader had what it needed.
    Stopped,
}

/// `git -C repo`, run as [`crate::git::command`] runs it: the repository
/// is the one the book is in, and its configuration runs no program.
fn git(repo: &Path) -> Command {
    let mut command = crate::git::command();
    command.arg("-C").arg(repo);
    command
}

/// The first line of a failed command's error output.
fn first_line(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    line.trim_start_matches("fatal: ").trim().to_string()
}

/// Whether the clone at `repo` is shallow.
pub fn is_shallow(repo: &Path) -> Result<bool, String> {
    let output = git(repo)
        .args(["rev-parse", "--is-shallow-repository"])
        .output()
        .map_err(|e| format!("cannot run `git`: {e}"))?;
    if !output.status.success() {
        return Err(first_line(&output.stderr));
    }
    Ok(output.stdout.trim_ascii() == b"true")
}

/// Whether `repo`'s `HEAD` names no commit yet (a new repository).
fn is_unborn(repo: &Path) -> bool {
    let output = git(repo)
        .args(["rev-parse", "--quiet", "--verify", "HEAD"])
        .output();
    output.is_ok_and(|o| !o.status.success() && o.stdout.is_empty())
}

/// Reads `repo`'s log from `HEAD`, newest first (at most `max` commits),
/// giving each commit to `visit` until it returns `false`. Returns how
/// many commits were read and why the log ended.
pub fn log(
    repo: &Path,
    max: Option<u64>,
    visit: &mut dyn FnMut(&Commit<'_>) -> bool,
) -> Result<(usize, End), String> {
    let mut command = git(repo);
    command.args(["-c", "i18n.logOutputEncoding=UTF-8"]);
    command.args([
        "log",
        "--no-color",
        "--no-use-mailmap",
        "--no-ext-diff",
        "--no-textconv",
        FORMAT,
    ]);
    // git flushes its output after every commit when it goes to a pipe: a
    // write, a read and two context switches per commit, which took more
    // time than the log itself. Buffered, it writes in blocks.
    command.env("GIT_FLUSH", "0");
    if let Some(max) = max {
        command.arg(format!("--max-count={max}"));
    }
    command.args(["HEAD", "--"]);
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run `git`: {e}"))?;
    let errors = child.stderr.take().map(|mut stderr| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = stderr.read_to_end(&mut text);
            text
        })
    });
    let read = read_lines(&mut child, visit);
    // Stopped early, or unreadable: git is not waited for.
    if read.as_ref().map_or(true, |r| r.1) {
        let _ = child.kill();
    }
    let status = child.wait().map_err(|e| format!("`git log` failed: {e}"))?;
    let stderr = errors.and_then(|t| t.join().ok()).unwrap_or_default();
    let (commits, stopped) = read?;
    if stopped {
        return Ok((commits, End::Stopped));
    }
    if !status.success() {
        if commits == 0 && is_unborn(repo) {
            return Ok((0, End::Root));
        }
        return Err(first_line(&stderr));
    }
    let limited = max.is_some_and(|max| commits as u64 >= max);
    Ok((commits, if limited { End::Limit } else { End::Root }))
}

/// Reads the child's lines into `visit`: how many commits, and whether
/// `visit` stopped the reading.
fn read_lines(
    child: &mut Child,
    visit: &mut dyn FnMut(&Commit<'_>) -> bool,
) -> Result<(usize, bool), String> {
    let Some(stdout) = child.stdout.take() else {
        return Ok((0, false));
    };
    let mut reader = BufReader::with_capacity(1 << 16, stdout);
    let mut line = Vec::with_capacity(512);
    let mut commits = 0;
    loop {
        line.clear();
        let read = reader
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("cannot read `git log`: {e}"))?;
        if read == 0 {
            return Ok((commits, false));
        }
        let text = String::from_utf8_lossy(line.strip_suffix(b"\n").unwrap_or(&line));
        let Some(commit) = Commit::parse(&text) else {
            continue;
        };
        commits += 1;
        if !visit(&commit) {
            return Ok((commits, true));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_line_is_read_field_by_field() {
        let fields = [
            "abc",
            "a@x",
            "ada@x",
            "A",
            "Ada",
            "c@x",
            "c@x",
            "C",
            "C",
            "1700000000",
            "1700000100",
            "p1 p2",
            "Merge pull request #1 from ada/x",
            "B <b@x>\u{1f}C <c@y>",
        ];
        let line = fields.join("\0");
        let commit = Commit::parse(&line).expect("a commit");
        assert_eq!(commit.hash, "abc");
        assert_eq!(commit.author.mapped_email, "ada@x");
        assert_eq!(commit.committer.name, "C");
        assert_eq!(
            (commit.authored, commit.committed),
            (1_700_000_000, 1_700_000_100)
        );
        let co: Vec<&str> = commit.co_authors().map(|i| i.email).collect();
        assert_eq!(co, ["b@x", "c@y"]);
        assert_eq!(commit.parents, "p1 p2");
        assert_eq!(commit.subject, "Merge pull request #1 from ada/x");
        assert!(Commit::parse("abc\0a@x").is_none());
        let undated = [
            "abc", "a", "a", "a", "a", "c", "c", "c", "c", "soon", "1", "", "s", "",
        ];
        assert!(Commit::parse(&undated.join("\0")).is_none());
    }

    use crate::git::hostile;

    #[test]
    fn git_rev_parse_is_shallow_runs_nothing_the_checkout_configures() {
        let dir = tempfile::tempdir().expect("tempdir");
        let marker = hostile::repository(dir.path(), false);
        assert_eq!(is_shallow(dir.path()), Ok(false));
        let marker_missing = hostile::repository(&tempdir_with(&dir, "b"), true);
        let _ = is_shallow(&dir.path().join("b"));
        assert_eq!(hostile::ran(&marker), None);
        assert_eq!(hostile::ran(&marker_missing), None);
    }

    #[test]
    fn git_rev_parse_verify_runs_nothing_the_checkout_configures() {
        let dir = tempfile::tempdir().expect("tempdir");
        let marker = hostile::repository(dir.path(), true);
        assert!(!is_unborn(dir.path()));
        assert_eq!(hostile::ran(&marker), None);
    }

    #[test]
    fn git_log_runs_nothing_the_checkout_configures() {
        let dir = tempfile::tempdir().expect("tempdir");
        let marker = hostile::repository(dir.path(), false);
        let (commits, end) = log(dir.path(), None, &mut |_| true).expect("read");
        assert_eq!((commits, end), (1, End::Root));
        assert_eq!(hostile::ran(&marker), None);
    }

    #[test]
    fn git_log_fetches_no_missing_commit_from_a_promisor_remote() {
        let dir = tempfile::tempdir().expect("tempdir");
        let marker = hostile::repository(dir.path(), true);
        assert!(log(dir.path(), None, &mut |_| true).is_err());
        assert_eq!(hostile::ran(&marker), None);
    }

    fn tempdir_with(dir: &tempfile::TempDir, name: &str) -> std::path::PathBuf {
        let path = dir.path().join(name);
        std::fs::create_dir_all(&path).expect("mkdir");
        path
    }
}
