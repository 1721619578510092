#!/usr/bin/env python3
"""A generated git history for the activity benchmark (see book/performance.md).

`make_history(repo, commits)` writes a repository of `commits` commits with
`git fast-import` (seconds for 30,000, where `git commit` would take many
minutes), shaped like a real project's: 400 contributors, a quarter of them
committing from GitHub no-reply addresses (both forms), web merges committed
by `GitHub <noreply@github.com>`, a bot, `Co-authored-by` trailers, a
`.mailmap`, one file changed per commit, eight years of dates. One change in
three is a pull request: one to three commits on a branch, merged with
GitHub's `Merge pull request #N from LOGIN/branch` (a tenth of the branches
carry a commit of someone else's). Beside it, `docs/` is a book whose
roster holds 60 maintainers: 50 contributors (some quiet for years, 12
known only by their login, found through their merged pull requests when
they have two or more) and 10 who never committed, so that reading activity walks the whole history,
the worst case.

Python 3 standard library only. Usage: python3 bench/history.py DIR [COMMITS]
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

CONTRIBUTORS = 400
START = 1_514_764_800  # 2018-01-01
# The day the benchmark's activity window ends (MDBOOK_COMMUNITY_NOW).
NOW = "2026-06-01"
SPAN = 8 * 365 * 86_400


def identity(i: int) -> tuple[str, str]:
    """Contributor `i`'s name and address as their commits have them."""
    name = f"Person {i}"
    if i % 8 == 0:
        return name, f"{10_000 + i}+p{i}@users.noreply.github.com"
    if i % 8 == 1:
        return name, f"p{i}@users.noreply.github.com"
    if i % 8 == 2:
        return name, f"p{i}@old.example.org"  # .mailmap maps it
    return name, f"p{i}@example.com"


def author_of(rng: random.Random) -> int:
    """A contributor: contributor i commits with weight 1/(i+1)."""
    return min(int(rng.paretovariate(1.2)) - 1, CONTRIBUTORS - 1)


class Stream:
    """The fast-import stream, oldest first, with marks for merges."""

    def __init__(self, commits: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.out: list[bytes] = []
        self.step = SPAN // commits
        self.n = 0
        self.main: int | None = None

    def commit(self, ref: str, author: int, parent: int | None, merge: int | None = None,
               subject: str | None = None) -> int:
        """One commit on `ref`; its mark."""
        n = self.n
        self.n += 1
        when = START + n * self.step
        name, email = identity(author)
        if n % 50 == 0 and merge is None:
            name, email = "dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com"
        web = n % 3 == 0 or merge is not None
        committer = ("GitHub", "noreply@github.com") if web else (name, email)
        message = (subject or f"Change {n}: update module {n % 100}") + "\n"
        if n % 10 == 0 and merge is None:
            co_name, co_email = identity(self.rng.randrange(CONTRIBUTORS))
            message += f"\nCo-authored-by: {co_name} <{co_email}>\n"
        body = message.encode()
        content = f"version {n}\n".encode()
        self.out.append(f"commit {ref}\nmark :{n + 1}\n".encode())
        self.out.append(f"author {name} <{email}> {when} +0000\n".encode())
        self.out.append(f"committer {committer[0]} <{committer[1]}> {when + 60} +0000\n".encode())
        self.out.append(b"data %d\n%s\n" % (len(body), body))
        if parent is not None:
            self.out.append(f"from :{parent}\n".encode())
        if merge is not None:
            self.out.append(f"merge :{merge}\n".encode())
        self.out.append(b"M 644 inline src/module%d.txt\ndata %d\n%s\n"
                        % (n % 100, len(content), content))
        return n + 1

    def pull_request(self, number: int, left: int) -> None:
        """A pull request of one to three commits (a tenth carrying someone
        else's) and GitHub's merge of it, by a maintainer."""
        author = author_of(self.rng)
        size = min(self.rng.randint(1, 3), left - 1)
        tip = self.main
        for k in range(size):
            who = author_of(self.rng) if k == 1 and number % 10 == 0 else author
            tip = self.commit(f"refs/heads/pr{number % 8}", who, tip)
        subject = f"Merge pull request #{number} from p{author}/topic-{number}"
        merger = self.rng.randrange(8)
        self.main = self.commit("refs/heads/main", merger, self.main, tip, subject)


def stream(commits: int, seed: int = 29) -> bytes:
    """The fast-import stream of the history, oldest first."""
    out = Stream(commits, seed)
    number = 0
    while out.n < commits:
        left = commits - out.n
        if out.main is not None and left >= 2 and out.rng.randrange(3) == 0:
            number += 1
            out.pull_request(number, left)
        else:
            out.main = out.commit("refs/heads/main", author_of(out.rng), out.main)
    return b"".join(out.out)


def roster() -> str:
    """The book's maintainers.toml: 50 contributors and 10 who never committed."""
    people, members = [], []
    for i in list(range(0, 100, 2)) + [CONTRIBUTORS + k for k in range(10)]:
        handle = f"p{i}"
        # Those with i % 8 == 6 are known by their login only, as OWNERS
        # files give them: found through their merged pull requests.
        lines = [f"[people.{handle}]"]
        if i % 8 != 6 or i >= CONTRIBUTORS:
            lines.append(f'name = "Person {i}"')
        if (i % 8 == 2 or i % 8 > 3) and i % 8 != 6 or i >= CONTRIBUTORS:
            lines.append(f'email = "p{i}@example.com"')
        people.append("\n".join(lines))
        members.append(f'"{handle}"')
    group = f'[[groups]]\nid = "core"\ntitle = "Core"\nmembers = [{", ".join(members)}]\n'
    return "\n\n".join(people) + "\n\n" + group


def make_history(repo: Path, commits: int) -> bool:
    """The repository at `repo`, made again unless it already holds
    `commits`; whether it was made."""
    marker = repo / ".git" / "bench-commits"
    made = f"{commits} with merges"
    if marker.is_file() and marker.read_text() == made:
        return False
    shutil.rmtree(repo, ignore_errors=True)
    repo.mkdir(parents=True)
    env = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "HOME": str(repo),
           "PATH": "/usr/bin:/bin:/usr/local/bin"}
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True, env=env)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=stream(commits),
                   check=True, env=env)
    (repo / ".mailmap").write_text("".join(
        f"Person {i} <p{i}@example.com> <p{i}@old.example.org>\n"
        for i in range(2, CONTRIBUTORS, 8)))
    docs = repo / "docs"
    (docs / "src").mkdir(parents=True)
    (docs / "maintainers.toml").write_text(roster())
    (docs / "book.toml").write_text(
        '[book]\ntitle = "History"\n\n[preprocessor.community]\ncheck-activity = "12 months"\n')
    marker.write_text(made)
    return True


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    make_history(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 30_000)
