//! The real mdBooks the end-to-end tests and `check`'s tests run with.
//!
//! `MDBOOK_05` and `MDBOOK_04` name them (`.ci/run` installs 0.5.4 and
//! 0.4.52 and sets both). For a generation whose variable is unset, the
//! `mdbook` on `PATH` runs if it is of that generation; with neither, the
//! tests of that generation are skipped, and say so, except under
//! `CI=true`, where they fail.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The two mdBook generations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generation {
    V05,
    V04,
}

impl Generation {
    pub fn variable(self) -> &'static str {
        match self {
            Generation::V05 => "MDBOOK_05",
            Generation::V04 => "MDBOOK_04",
        }
    }

    fn of_version(version: &str) -> Option<Self> {
        if version.starts_with("0.5.") {
            Some(Generation::V05)
        } else if version.starts_with("0.4.") {
            Some(Generation::V04)
        } else {
            None
        }
    }
}

/// A real mdBook binary.
#[derive(Clone)]
pub struct Mdbook {
    pub generation: Generation,
    pub path: PathBuf,
    /// As `mdbook --version` prints it, e.g. `v0.5.4`.
    pub version: String,
    /// Where it came from: `MDBOOK_05`, or the `mdbook` on PATH.
    pub from: String,
}

impl std::fmt::Debug for Mdbook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "mdBook {}", self.version)
    }
}

impl Mdbook {
    pub fn binary(&self) -> &Path {
        &self.path
    }

    /// Every mdBook the tests run with; the first call says which. Under
    /// `CI=true` both generations must be there: a test that loops over
    /// none would pass without testing anything.
    pub fn all() -> &'static [Mdbook] {
        static ALL: OnceLock<Vec<Mdbook>> = OnceLock::new();
        ALL.get_or_init(|| {
            let var = |g: Generation| std::env::var_os(g.variable()).map(PathBuf::from);
            let all = choose(var(Generation::V05), var(Generation::V04), version_of);
            let _ = writeln!(std::io::stderr(), "{}", describe(&all));
            if super::on_ci() {
                for generation in [Generation::V05, Generation::V04] {
                    assert!(
                        all.iter().any(|m| m.generation == generation),
                        "CI=true, but there is no mdBook of generation {generation:?}: set {}",
                        generation.variable()
                    );
                }
            }
            all
        })
    }

    /// The mdBook of generation `generation`, if one runs (always under
    /// `CI=true`).
    pub fn of(generation: Generation) -> Option<&'static Mdbook> {
        Mdbook::all().iter().find(|m| m.generation == generation)
    }
}

/// The version `mdbook --version` prints for the binary `path`
/// (`mdbook v0.5.4` gives `0.5.4`), or `None` when it does not run.
pub fn version_of(path: &Path) -> Option<String> {
    let out = Command::new(path).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let version = text.split_whitespace().nth(1)?.trim_start_matches('v');
    (out.status.success() && !version.is_empty()).then(|| version.to_string())
}

/// The mdBooks to run: per generation, its variable's binary (which must
/// run and be of that generation), else the `mdbook` on PATH when it is of
/// that generation.
pub fn choose(
    v05: Option<PathBuf>,
    v04: Option<PathBuf>,
    version_of: impl Fn(&Path) -> Option<String>,
) -> Vec<Mdbook> {
    let on_path = OnceLock::new();
    let mut all = Vec::new();
    for (generation, set) in [(Generation::V05, v05), (Generation::V04, v04)] {
        let var = generation.variable();
        let found = match set {
            Some(path) => {
                let version = version_of(&path)
                    .unwrap_or_else(|| panic!("{var}={} does not run", path.display()));
                assert_eq!(
                    Generation::of_version(&version),
                    Some(generation),
                    "{var}={} is mdBook {version}",
                    path.display()
                );
                Some((path, version, var.to_string()))
            }
            None => on_path
                .get_or_init(|| {
                    let path = PathBuf::from("mdbook");
                    version_of(&path).map(|version| (path, version))
                })
                .clone()
                .filter(|(_, version)| Generation::of_version(version) == Some(generation))
                .map(|(path, version)| (path, version, "the `mdbook` on PATH".to_string())),
        };
        if let Some((path, version, from)) = found {
            all.push(Mdbook {
                generation,
                path,
                version: format!("v{version}"),
                from,
            });
        }
    }
    all
}

/// The line that says which mdBooks the tests run with.
pub fn describe(all: &[Mdbook]) -> String {
    let mut parts: Vec<String> = all
        .iter()
        .map(|m| {
            format!(
                "mdBook {} ({}, from {})",
                m.version,
                m.path.display(),
                m.from
            )
        })
        .collect();
    for generation in [Generation::V05, Generation::V04] {
        if !all.iter().any(|m| m.generation == generation) {
            parts.push(format!(
                "no mdBook {} (its tests are skipped: put one on PATH or set {})",
                match generation {
                    Generation::V05 => "0.5",
                    Generation::V04 => "0.4",
                },
                generation.variable()
            ));
        }
    }
    format!("tests with a real mdBook run with {}", parts.join("; "))
}
