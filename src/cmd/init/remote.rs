//! The repository's web address from its `origin` remote, for
//! `[output.html] git-repository-url`: only for the hosts whose file URLs
//! the plugin knows (GitHub, GitLab).

use std::path::Path;
use std::process::Stdio;

/// The hosts whose `/blob/`, `/tree/` and `/raw/` URLs are known.
const KNOWN_HOSTS: &[&str] = &["github.com", "gitlab.com"];

/// `https://HOST/OWNER/REPO` for the `origin` remote of `repository`, when
/// it is on a known host; `None` otherwise (no git, no remote, another
/// host).
pub fn origin_url(repository: &Path) -> Option<String> {
    // The one way git is run: nothing the checkout configures runs.
    let output = crate::git::command()
        .arg("-C")
        .arg(repository)
        .args(["remote", "get-url", "origin"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    web_url(String::from_utf8_lossy(&output.stdout).trim())
}

/// The web address of a remote URL on a known host: `git@github.com:o/r.git`,
/// `ssh://git@github.com/o/r`, `https://user@gitlab.com/g/sub/r.git`.
pub fn web_url(remote: &str) -> Option<String> {
    let rest = match remote.split_once("://") {
        Some((scheme, rest)) => {
            if !matches!(scheme, "https" | "http" | "ssh" | "git" | "git+ssh") {
                return None;
            }
            rest.to_string()
        }
        // scp-like: `user@host:path`.
        None => remote.replacen(':', "/", 1),
    };
    let rest = rest.rsplit_once('@').map_or(rest.as_str(), |(_, r)| r);
    let (host, path) = rest.split_once('/')?;
    let host = host.split(':').next()?.to_ascii_lowercase();
    if !KNOWN_HOSTS.contains(&host.as_str()) {
        return None;
    }
    let path = path.trim_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path);
    let parts: Vec<&str> = path.split('/').collect();
    let plain = |p: &&str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            && *p != "."
            && *p != ".."
    };
    (parts.len() >= 2 && parts.iter().all(plain)).then(|| format!("https://{host}/{path}"))
}

#[cfg(test)]
mod tests {
    /// `git remote get-url` runs nothing the checkout's configuration
    /// names (issue 38, 3).
    #[test]
    fn the_remote_is_read_running_nothing_the_checkout_configures() {
        let dir = tempfile::tempdir().expect("tempdir");
        let marker = crate::git::hostile::repository(dir.path(), false);
        let _ = super::origin_url(dir.path());
        assert_eq!(crate::git::hostile::ran(&marker), None);
    }

    use super::web_url;

    #[test]
    fn remotes_of_known_hosts() {
        let https = |s: &str| Some(s.to_string());
        assert_eq!(
            web_url("git@github.com:o/r.git"),
            https("https://github.com/o/r")
        );
        assert_eq!(
            web_url("https://github.com/o/r.git"),
            https("https://github.com/o/r")
        );
        assert_eq!(
            web_url("https://github.com/o/r/"),
            https("https://github.com/o/r")
        );
        assert_eq!(
            web_url("ssh://git@github.com:22/o/r"),
            https("https://github.com/o/r")
        );
        assert_eq!(
            web_url("https://token@gitlab.com/g/sub/r.git"),
            https("https://gitlab.com/g/sub/r")
        );
        assert_eq!(web_url("https://example.org/o/r.git"), None);
        assert_eq!(web_url("/srv/git/r.git"), None);
        assert_eq!(web_url("https://github.com/o"), None);
        assert_eq!(web_url("https://github.com/o/r\"]\nx"), None);
        assert_eq!(web_url("file:///github.com/o/r"), None);
    }
}
