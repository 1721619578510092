#!/usr/bin/env python3
"""The performance benchmark of mdbook-community (see book/performance.md).

Runs the plugin, an identity pass-through built with the same JSON library
(bench/identity), mdbook-admonish and mdbook-toc on the same inputs,
interleaved, and reports ratios measured side by side in one run:

* the ten recorded real inputs in ../shared/corpus/inputs (when present);
* generated books of 1,000, 10,000 and 50,000 chapters with 0, 1 and 10
  directives per chapter (a mix of every directive), and the same books
  with the peers' own work in them: ten admonitions a chapter for
  mdbook-admonish, a table of contents a chapter for mdbook-toc;
* a whole `mdbook build` of the Rust Book with and without the plugin;
* `mdbook-community supports html`;
* reading activity from a generated 30,000-commit git history (bench/history.py).
* `mdbook-community owners --coverage` over generated git repositories of
  5,000 to 80,000 files, against a 500-rule CODEOWNERS and 300 OWNERS files
  (`--ownership-only` runs this part alone).
* `mdbook-community roster --format json` on a MAINTAINERS.md of each shape
  issue 38 hardened (a line of 400,000 `(`, 40,000 list markers on one line,
  80,000 fields, 80,000 team mentions, a 15 MB file) at two sizes
  (`--roster-only` runs this part alone).

Every run's wall time and peak memory (max RSS) is taken by bench/measure, a
tiny process that spawns the tool and reads its rusage. The results go to
target/bench/results.md (Markdown tables), target/bench/results.json (every
sample) and target/bench/plot.svg (time against chapter count, log-log).

`--quick` (for CI) uses small books and one run per tool, and asserts only
that every tool produced valid output, that the plugin gives directive-free
books back unchanged, and that data files are read once per run. Timings are
never asserted.

Python 3 standard library only. Usage: bash bench/run.sh [--quick] [--help]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import history  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
PEERS = {"mdbook-admonish": "1.20.0", "mdbook-toc": "0.15.4"}
MDBOOK_VERSION = "0.5.4"
BOOKS = ["mdbook-guide", "reference", "rust-book", "rust-by-example", "rustc-dev-guide"]
CONTRIBUTING_URL = "https://github.com/example/widgets/blob/main/CONTRIBUTING.md"


def log(*args: object) -> None:
    print(*args, file=sys.stderr, flush=True)


def run_checked(cmd: list[str], **kwargs) -> None:
    log("+", " ".join(str(c) for c in cmd))
    subprocess.run(cmd, check=True, **kwargs)


# ---------------------------------------------------------------------------
# Tools


class Tools:
    """Paths of everything the benchmark runs."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.build_dir = REPO / "target" / "bench" / "build"
        if os.environ.get("MDBOOK_COMMUNITY_TOOLS"):
            self.peer_root = Path(os.environ["MDBOOK_COMMUNITY_TOOLS"]) / "bench"
        else:
            self.peer_root = REPO / "target" / "bench-tools"
        self.plugin = REPO / "target" / "release" / "mdbook-community"
        self.identity = self.build_dir / "release" / "identity-preprocessor"
        self.measure = self.build_dir / "release" / "measure"
        self.peers: dict[str, Path] = {}
        self.mdbook: Path | None = None

    def build(self) -> None:
        quiet = ["--quiet"] if self.args.quick else []
        run_checked(["cargo", "build", "--release", "--locked", *quiet], cwd=REPO)
        for project in ("identity", "measure"):
            run_checked(
                ["cargo", "build", "--release", "--locked", *quiet,
                 "--manifest-path", str(REPO / "bench" / project / "Cargo.toml"),
                 "--target-dir", str(self.build_dir)],
                cwd=REPO,
            )

    def install_peers(self) -> None:
        if self.args.no_peers:
            return
        for name, version in PEERS.items():
            exe = self.peer_root / "bin" / name
            if not has_version(exe, version):
                log(f"installing {name} {version} into {self.peer_root} (once)")
                run_checked(["cargo", "install", "--locked", "--quiet", "--root",
                             str(self.peer_root), f"{name}@{version}"])
            self.peers[name] = exe

    def find_mdbook(self) -> None:
        if self.args.no_mdbook_build:
            return
        candidates = [os.environ.get("MDBOOK_05"), f"/opt/mdbook-{MDBOOK_VERSION}/bin/mdbook",
                      shutil.which("mdbook")]
        for candidate in candidates:
            if candidate and has_version(Path(candidate), MDBOOK_VERSION):
                self.mdbook = Path(candidate)
                return
        root = self.peer_root / f"mdbook-{MDBOOK_VERSION}"
        log(f"installing mdBook {MDBOOK_VERSION} into {root} (once)")
        run_checked(["cargo", "install", "--locked", "--quiet", "--root", str(root),
                     f"mdbook@{MDBOOK_VERSION}"])
        self.mdbook = root / "bin" / "mdbook"


def has_version(exe: Path, version: str) -> bool:
    try:
        out = subprocess.run([str(exe), "--version"], capture_output=True, text=True)
    except OSError:
        return False
    return out.returncode == 0 and version in out.stdout


# ---------------------------------------------------------------------------
# Inputs


MAINTAINERS_TOML = """\
[people.ada]
name = "Ada Lovelace"
affiliation = "Analytical Engines"

[people.grace]
name = "Grace Hopper"

[people.linus]
name = "Linus Example"
github = false

[people.margaret]
name = "Margaret Hamilton"
url = "https://example.com/margaret"

[[groups]]
id = "core"
title = "Core maintainers"
description = "Review and merge changes, and cut releases."
github-team = "example/widgets"
members = [{ handle = "ada", role = "lead" }, "grace", { handle = "linus", status = "emeritus" }]

[[groups]]
id = "docs"
title = "Documentation"
parent = "core"
github-team = "example/docs"
members = ["margaret", { handle = "grace", status = "sunsetting" }]
"""

CODEOWNERS = """\
# Who reviews what.
*              @ada
/src/          @grace @example/widgets
/docs/         @margaret
*.md           @example/docs
"""

CONTRIBUTING_MD = """\
# Contributing to widgets

## Getting started

Install Rust, clone the repository and run `cargo build`.

## Testing

Run `cargo test` before you push.

## Submitting changes

Open a pull request against `main`.
"""

# The ten directives of a "10 directives per chapter" chapter; a "1
# directive" chapter has directive number (chapter index mod 10).
def directive(kind: int, other: int) -> str:
    return [
        "{{#maintainers core}}",
        "{{#maintainers core style=table}}",
        "The documentation team is {{#maintainers docs style=inline}}.",
        "### Team\n\n{{#maintainers hide=emeritus}}",
        "Questions about this chapter go to {{#person ada}}.",
        "{{#codeowners}}",
        "Changes to `src/widget.rs` are reviewed by {{#codeowners src/widget.rs}}.",
        "```faq\n### How big can a widget be?\nAs big as a `u32` allows.\n\n"
        "### Can widgets nest?\nYes, through `parent`.\n```",
        "Before changing widgets, read {{#contributing #testing}}.",
        f"Widget sizes are explained in {{{{#ref ch{other:05}.md#details}}}}.",
    ][kind]


# What each peer expands, ten a chapter as the plugin's ten directives.
PEER_WORK = {
    "mdbook-admonish": lambda i, k: (f"```admonish note title=\"Widget note {k}\"\n"
                                     f"Widgets of kind {i} keep note {k} in mind.\n```"),
    # mdbook-toc's marker: one table of contents a chapter, of its headings.
    "mdbook-toc": lambda i, k: "<!-- toc -->" if k == 0 else f"### Widget topic {k}\n\nText {k}.",
}


def chapter_text(i: int, n: int, per_chapter: int, peer: str | None = None) -> str:
    """About 1.2 KB of ordinary Markdown; every other chapter links to a
    heading of another chapter (about the share real books have), then
    `per_chapter` directives of the plugin, or ten pieces of `peer`'s work."""
    following = (i + 1) % n
    other = (i * 7 + 3) % n
    parts = [
        f"# Chapter {i}: Working with widgets",
        f"This chapter explains how widgets of kind {i} are configured, built "
        "and tested. It uses `widget::Builder` with the *default* settings, "
        f"and [the next chapter](ch{following:05}.md) covers the **advanced** cases.",
        "## Details",
        "Each widget has a name, a size and an optional parent. The defaults:",
        "| Field | Type | Default |\n|-------|------|---------|\n"
        "| `name` | `String` | empty |\n| `size` | `u32` | `0` |",
        f'```rust\nlet widget = Widget::builder()\n    .name("widget-{i}")\n'
        "    .size(3)\n    .build()?;\n```",
        "- Widgets are cheap to clone.\n- A widget without a parent is a root.\n"
        "- Sizes are in pixels.",
        "## Notes",
        "> Widgets were called gadgets before version 2. The old names still work.",
    ]
    if i % 2 == 0:
        parts.append(
            f"See [the details of chapter {other}](ch{other:05}.md#details) "
            "and [the notes above](#notes)."
        )
    if peer is not None:
        parts.extend(PEER_WORK[peer](i, k) for k in range(10))
    elif per_chapter == 1:
        parts.append(directive(i % 10, other))
    elif per_chapter == 10:
        parts.extend(directive(k, other) for k in range(10))
    return "\n\n".join(parts) + "\n"


def chapter_json(name: str, path: str, content: str, subs: list) -> dict:
    return {"Chapter": {
        "name": name, "content": content, "number": None, "sub_items": subs,
        "path": path, "source_path": path, "parent_names": [],
    }}


def generated_book(n: int, per_chapter: int, peer: str | None = None) -> list:
    """Items of a generated book: chapters in sections of ten (a chapter
    with nine sub-chapters)."""
    items: list = []
    for i in range(n):
        text = chapter_text(i, n, per_chapter, peer)
        item = chapter_json(f"Chapter {i}", f"ch{i:05}.md", text, [])
        if i % 10 == 0:
            items.append(item)
        else:
            items[-1]["Chapter"]["sub_items"].append(item)
    return items


def peer_config(config: dict) -> dict:
    """The context config with tables for every preprocessor benchmarked, as
    mdBook would send it for a book.toml that lists them all."""
    config = json.loads(json.dumps(config))
    pre = config.setdefault("preprocessor", {})
    pre.setdefault("community", {})
    pre["admonish"] = {"assets_version": "3.0.0"}  # mdbook-admonish refuses to run without it
    pre["toc"] = {}
    return config


def request(context: dict, items: list, shape: str) -> bytes:
    if shape == "0.5":
        book = {"items": items}
        context = {**context, "mdbook_version": "0.5.4"}
    else:
        book = {"sections": items, "__non_exhaustive": None}
        context = {**context, "mdbook_version": "0.4.52"}
    return json.dumps([context, book], ensure_ascii=False, separators=(",", ":")).encode()


NO_ANCHORS = "plugin, check-anchors off"


class Input:
    def __init__(self, name: str, path: Path, shape: str, chapters: int,
                 per_chapter: int, generated: bool, book: str) -> None:
        self.name = name
        self.path = path
        self.shape = shape
        self.chapters = chapters
        self.per_chapter = per_chapter
        self.generated = generated
        self.book = book  # the row this input belongs to
        self.size = path.stat().st_size
        # The peer whose own work the input holds (and which alone runs on
        # it besides the identity), for the side-by-side with ten directives.
        self.peer_work: str | None = None
        # The same input with `check-anchors = "off"` (directive-free mdBook
        # 0.5 inputs only): the plugin's byte scan alone.
        self.off_path: Path | None = None

    def path_for(self, tool: str) -> Path:
        return self.off_path if tool == NO_ANCHORS and self.off_path else self.path


def count_chapters(items: list) -> int:
    total = 0
    for item in items:
        if isinstance(item, dict) and "Chapter" in item:
            total += 1 + count_chapters(item["Chapter"]["sub_items"])
    return total


def make_inputs(work: Path, root: Path, corpus: Path | None, sizes: list[int]) -> list[Input]:
    inputs_dir = work / "inputs"
    shutil.rmtree(inputs_dir, ignore_errors=True)
    inputs_dir.mkdir(parents=True)
    inputs: list[Input] = []
    # The real books' root: none of them keeps a roster or a CODEOWNERS
    # file, so they must not find the generated books' (which would make
    # the plugin run its drift check on them).
    real_root = work / "real-root"
    shutil.rmtree(real_root, ignore_errors=True)
    real_root.mkdir(parents=True)
    if corpus is not None:
        for book in BOOKS:
            for shape in ("0.4", "0.5"):
                with open(corpus / "inputs" / f"{book}.mdbook-{shape}.json", encoding="utf-8") as f:
                    context, sent = json.load(f)
                # The book exactly as recorded; the context asks for the HTML
                # renderer (what `mdbook build` runs) and holds every peer's table.
                context["renderer"] = "html"
                context["root"] = str(real_root)
                context["config"] = peer_config(context["config"])
                items = sent["items" if shape == "0.5" else "sections"]
                path = inputs_dir / f"{book}.{shape}.json"
                path.write_bytes(request(context, items, shape))
                inputs.append(Input(f"{book}.mdbook-{shape}", path, shape,
                                    count_chapters(items), 0, False, book))
    config = peer_config({
        "book": {"title": "Widgets", "authors": [], "language": "en", "src": "src"},
        "build": {"build-dir": "book", "create-missing": True,
                  "use-default-preprocessors": True, "extra-watch-dirs": []},
        # As `mdbook-community install` leaves it: the FAQ styles and script
        # are files, not inlined into every page with a FAQ block.
        "output": {"html": {"additional-css": ["mdbook-community.css"],
                            "additional-js": ["mdbook-community.js"]}},
        "preprocessor": {"community": {"contributing-url": CONTRIBUTING_URL}},
    })
    context = {"root": str(root), "config": config, "renderer": "html"}
    for n in sizes:
        for per_chapter in (0, 1, 10):
            items = generated_book(n, per_chapter)
            book = f"generated-{n}-{per_chapter}"
            for shape in ("0.4", "0.5"):
                path = inputs_dir / f"{book}.{shape}.json"
                path.write_bytes(request(context, items, shape))
                inputs.append(Input(f"{book}.mdbook-{shape}", path, shape, n,
                                    per_chapter, True, book))
    # The peers doing their own work: mdbook-admonish on the 0.4 JSON,
    # mdbook-toc on the 0.5 JSON, as everywhere in this benchmark.
    for n in sizes:
        for peer, shape in (("mdbook-admonish", "0.4"), ("mdbook-toc", "0.5")):
            book = f"generated-{n}-{peer}"
            path = inputs_dir / f"{book}.{shape}.json"
            path.write_bytes(request(context, generated_book(n, 10, peer), shape))
            inp = Input(f"{book}.mdbook-{shape}", path, shape, n, 10, True, book)
            inp.peer_work = peer
            inputs.append(inp)
    for inp in inputs:
        if inp.per_chapter == 0 and inp.shape == "0.5":
            context, sent = json.loads(inp.path.read_bytes())
            context["config"]["preprocessor"]["community"]["check-anchors"] = "off"
            inp.off_path = inp.path.with_suffix(".anchors-off.json")
            inp.off_path.write_bytes(request(context, sent["items"], "0.5"))
    return inputs


def make_root(work: Path) -> Path:
    """The generated books' root: the data files every directive needs."""
    root = work / "root"
    shutil.rmtree(root, ignore_errors=True)
    (root / "src").mkdir(parents=True)
    (root / "maintainers.toml").write_text(MAINTAINERS_TOML)
    (root / "CODEOWNERS").write_text(CODEOWNERS)
    (root / "CONTRIBUTING.md").write_text(CONTRIBUTING_MD)
    return root


# ---------------------------------------------------------------------------
# Running


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("GITHUB_ACTIONS", "RUST_LOG", "RUST_BACKTRACE")}
    env["NO_COLOR"] = "1"
    return env


ENV = clean_env()


class Sample:
    def __init__(self, wall: float, rss: int, code: int, cpu: float) -> None:
        self.wall = wall  # seconds
        self.rss = rss  # bytes
        self.code = code
        self.cpu = cpu  # user + system seconds


def measured(tools: Tools, work: Path, cmd: list[str], stdin: Path | None, stdout: Path | None,
             stderr: Path | None, cwd: Path) -> Sample:
    report = work / "measure.txt"
    with open(stdin or os.devnull, "rb") as fin, \
            open(stdout or os.devnull, "wb") as fout, \
            open(stderr or os.devnull, "wb") as ferr:
        subprocess.run([str(tools.measure), str(report), "--", *cmd], stdin=fin,
                       stdout=fout, stderr=ferr, cwd=cwd, env=ENV)
    wall, rss, code, cpu = report.read_text().split()
    return Sample(float(wall), int(rss), int(code), float(cpu))


def jobs_for(inputs: list[Input], tools: Tools) -> list[tuple[str, Input]]:
    jobs = []
    for inp in inputs:
        if inp.peer_work is not None:
            if inp.peer_work in tools.peers:
                jobs += [("identity", inp), (inp.peer_work, inp)]
            continue
        jobs.append(("identity", inp))
        jobs.append(("plugin", inp))
        if inp.off_path:
            jobs.append((NO_ANCHORS, inp))
        if inp.shape == "0.5" and "mdbook-toc" in tools.peers:
            jobs.append(("mdbook-toc", inp))
        if inp.shape == "0.4" and "mdbook-admonish" in tools.peers:
            jobs.append(("mdbook-admonish", inp))
    return jobs


def exe_of(tool: str, tools: Tools) -> Path:
    return {"identity": tools.identity, "plugin": tools.plugin,
            NO_ANCHORS: tools.plugin}.get(tool) or tools.peers[tool]


def items_of(book: dict, shape: str) -> list:
    return book["items" if shape == "0.5" else "sections"]


def chapter_contents(items: list, out: list) -> list:
    for item in items:
        if isinstance(item, dict) and "Chapter" in item:
            out.append(item["Chapter"]["content"])
            chapter_contents(item["Chapter"]["sub_items"], out)
    return out


class Failure(Exception):
    pass


def validate(tool: str, inp: Input, sent: dict, sample: Sample, out: Path, err: Path,
             digests: dict) -> None:
    """That a tool's output is a valid answer to `inp`."""
    where = f"{tool} on {inp.name}"
    stderr = err.read_text(errors="replace")
    if sample.code != 0:
        raise Failure(f"{where}: exit status {sample.code}\n{stderr[-2000:]}")
    raw = out.read_bytes()
    digests[(tool, inp.name)] = hashlib.sha256(raw).hexdigest()
    try:
        returned = json.loads(raw)
    except ValueError as e:
        raise Failure(f"{where}: stdout is not JSON: {e}") from None
    if set(returned) != set(sent):
        raise Failure(f"{where}: answered with keys {sorted(returned)}, sent {sorted(sent)}")
    got = chapter_contents(items_of(returned, inp.shape), [])
    want = chapter_contents(items_of(sent, inp.shape), [])
    if len(got) != len(want):
        raise Failure(f"{where}: {len(got)} chapters back, {len(want)} sent")
    if tool == "identity" and returned != sent:
        raise Failure(f"{where}: the identity changed the book")
    if tool == inp.peer_work and sum(1 for g, w in zip(got, want) if g == w):
        raise Failure(f"{where}: the peer left chapters with its own work unchanged")
    if tool in ("plugin", NO_ANCHORS) and inp.per_chapter == 0 and returned != sent:
        raise Failure(f"{where}: a book without directives came back changed")
    if tool == "plugin" and inp.per_chapter > 0:
        if inp.generated and stderr.strip():
            raise Failure(f"{where}: unexpected diagnostics:\n{stderr[:2000]}")
        unchanged = sum(1 for g, w in zip(got, want) if g == w)
        if unchanged:
            raise Failure(f"{where}: {unchanged} chapters with directives came back unchanged")
        if any("mdbook-community error" in g or "{{#" in g for g in got):
            raise Failure(f"{where}: a directive was not expanded")


def run_inputs(tools: Tools, work: Path, cwd: Path, inputs: list[Input], rounds: int,
               results: dict) -> None:
    jobs = jobs_for(inputs, tools)
    out, err = work / "stdout.json", work / "stderr.txt"
    digests: dict = {}
    # Round 0 checks every output (and warms the page cache), input by input;
    # rounds 1.. are timed, in a shuffled order, with stdout to /dev/null. In
    # --quick mode (no timed rounds) round 0's times are reported.
    log(f"round 0: {len(jobs)} checked runs")
    for inp in inputs:
        sent = json.loads(inp.path.read_bytes())[1]
        for tool, job_input in jobs:
            if job_input is not inp:
                continue
            sample = measured(tools, work, [str(exe_of(tool, tools))], inp.path_for(tool), out,
                              err, cwd)
            validate(tool, inp, sent, sample, out, err, digests)
            if rounds == 0:
                results.setdefault((tool, inp.name), []).append(sample)
        del sent
        # The plugin writes the book's bytes back as they came, the identity
        # writes its values again: for these compact inputs, the same bytes.
        for tool in ("plugin", NO_ANCHORS):
            if inp.per_chapter == 0 and (tool, inp.name) in digests and \
                    digests[(tool, inp.name)] != digests[("identity", inp.name)]:
                raise Failure(f"{tool} on {inp.name}: output bytes differ from the identity's")
    for r in range(1, rounds + 1):
        # Inputs under 2 MB take a few milliseconds, where other load on the
        # machine weighs most: they run three times per round.
        order = [job for job in jobs for _ in range(3 if job[1].size < 2e6 else 1)]
        random.Random(r).shuffle(order)
        log(f"round {r}/{rounds}: {len(order)} timed runs")
        for tool, inp in order:
            sample = measured(tools, work, [str(exe_of(tool, tools))], inp.path_for(tool), None,
                              None, cwd)
            if sample.code != 0:
                raise Failure(f"{tool} on {inp.name}: exit status {sample.code}")
            results.setdefault((tool, inp.name), []).append(sample)


def rust_book_build(tools: Tools, work: Path, corpus: Path, rounds: int) -> dict:
    """`mdbook build` of the Rust Book without a preprocessor of ours, with the
    identity as one (what any preprocessor costs: mdBook sends the book and
    reads it back), and with the plugin."""
    variants = {}
    for variant in ("without", "identity", "with"):
        dest = work / f"rust-book-{variant}"
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(corpus / "rust-book", dest)
        toml = (dest / "book.toml").read_text()
        # Not in the corpus, or not installed here: the trpl-* preprocessors
        # (rust-lang/book's own), the extra CSS/JS files and watched folders.
        toml = re.sub(r"(?ms)^\[preprocessor\.trpl-[a-z]+\]\n.*?(?=^\[)", "", toml)
        toml = re.sub(r"(?m)^additional-(css|js) = .*\n", "", toml)
        toml = re.sub(r"(?m)^extra-watch-dirs = .*\n", "", toml)
        if variant == "with":
            toml += f'\n[preprocessor.community]\ncommand = "{tools.plugin}"\nafter = ["links"]\n'
        if variant == "identity":
            toml += f'\n[preprocessor.identity]\ncommand = "{tools.identity}"\nafter = ["links"]\n'
        (dest / "book.toml").write_text(toml)
        variants[variant] = dest
    samples: dict[str, list[Sample]] = {name: [] for name in variants}
    for r in range(max(rounds, 1)):
        order = list(variants)
        random.Random(r).shuffle(order)
        for variant in order:
            dest = variants[variant]
            shutil.rmtree(dest / "book", ignore_errors=True)
            log_file = work / f"rust-book-{variant}.log"
            sample = measured(tools, work, [str(tools.mdbook), "build"], None, log_file,
                              log_file, dest)
            if sample.code != 0 or not (dest / "book" / "index.html").is_file():
                raise Failure(f"mdbook build {variant} the plugin failed; see {log_file}")
            samples[variant].append(sample)
    # The plugin changes nothing in a book without directives: same HTML.
    for variant in ("identity", "with"):
        differing = []
        for page in sorted((variants["without"] / "book").rglob("*.html")):
            rel = page.relative_to(variants["without"] / "book")
            other = variants[variant] / "book" / rel
            if not other.is_file() or other.read_bytes() != page.read_bytes():
                differing.append(str(rel))
        if differing:
            raise Failure(f"the Rust Book's HTML differs ({variant}): {differing[:5]}")
    return samples


LYCHEE_BOOKS = ["rust-book", "reference"]


def lychee_comparison(tools: Tools, work: Path, corpus: Path, rounds: int) -> dict | None:
    """The plugin's anchor check against `lychee --offline --include-fragments`
    on the HTML mdBook renders from the same book: time and broken fragments.

    Only when `lychee` is on PATH (it is not installed by this script, and CI
    does not run it). Each book is built once with the plugin (its warnings
    give the plugin's count); lychee then checks the output `rounds` times.
    """
    lychee = shutil.which("lychee")
    if lychee is None:
        log("lychee not found: the comparison with lychee is skipped")
        return None
    version = subprocess.run([lychee, "--version"], capture_output=True, text=True).stdout.strip()
    found = {"version": version, "books": {}}
    for book in LYCHEE_BOOKS:
        if not (corpus / book).is_dir():
            continue
        dest = work / f"lychee-{book}"
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(corpus / book, dest)
        toml = (dest / "book.toml").read_text()
        # Preprocessors and files not in the corpus (see rust_book_build);
        # the Reference's own `spec` preprocessor (rule anchors) included.
        toml = re.sub(r"(?ms)^\[preprocessor\.(trpl-[a-z]+|spec|gettext)\]\n.*?(?=^\[|\Z)", "",
                      toml)
        toml = re.sub(r"(?m)^additional-(css|js) = .*\n", "", toml)
        toml = re.sub(r"(?m)^extra-watch-dirs = .*\n", "", toml)
        toml += f'\n[preprocessor.community]\ncommand = "{tools.plugin}"\nafter = ["links"]\n'
        (dest / "book.toml").write_text(toml)
        build_log = work / f"lychee-{book}-build.log"
        with open(build_log, "wb") as out:
            built = subprocess.run([str(tools.mdbook), "build"], cwd=dest, stdout=out,
                                   stderr=subprocess.STDOUT, env=ENV)
        if built.returncode != 0:
            log(f"mdbook build of {book} failed (see {build_log}): skipped")
            continue
        text = build_log.read_text(errors="replace")
        plugin = len(re.findall(r"(?m)^warning(?:\[C\d+\])?: broken link:", text)) + sum(
            int(n) for n in re.findall(r"(?m)^warning: and (\d+) more like this in .*: broken link",
                                       text))
        samples, report = [], work / f"lychee-{book}.json"
        for _ in range(max(rounds, 1)):
            samples.append(measured(tools, work, [lychee, "--offline", "--include-fragments",
                                                  "--no-progress", "--format", "json",
                                                  "--output", str(report), "book"],
                                    None, None, None, dest))
        errors = json.loads(report.read_text()).get("error_map", {})
        fragments = [(page, e["url"]) for page, errs in errors.items() for e in errs
                     if e.get("status", {}).get("text", "").startswith("Cannot find fragment")]
        in_print = sum(1 for page, _ in fragments if page.endswith("/print.html"))
        found["books"][book] = {
            "plugin_broken": plugin,
            "lychee_fragments": len(fragments) - in_print,
            "lychee_fragments_print": in_print,
            "lychee_other_errors": sum(len(v) for v in errors.values()) - len(fragments),
            "lychee": [[x.wall, x.rss, x.cpu] for x in samples],
        }
    return found


def check_cost(tools: Tools, work: Path, rounds: int) -> dict:
    """`mdbook-community check` against `mdbook build` on this repository's
    guide and on the Rust Book (as `rust_book_build` prepared it), with the
    same mdBook, interleaved. Both use the release plugin."""
    books = {"guide": REPO}
    rust_book = work / "rust-book-with"
    if (rust_book / "book.toml").is_file():
        books["rust-book"] = rust_book
    env_command = {**ENV, "MDBOOK_PREPROCESSOR__COMMUNITY__COMMAND": str(tools.plugin)}
    samples: dict = {}
    for name, root in books.items():
        dest = work / f"check-cost-{name}"
        build = [str(tools.mdbook), "build", str(root), "--dest-dir", str(dest)]
        check = [str(tools.plugin), "check", str(root), "--mdbook", str(tools.mdbook)]
        runs: dict[str, list[Sample]] = {"build": [], "check": []}
        for r in range(max(rounds, 1) + 1):
            order = ["build", "check"] if r % 2 == 0 else ["check", "build"]
            for kind in order:
                shutil.rmtree(dest, ignore_errors=True)
                log_file = work / f"check-cost-{name}-{kind}.log"
                with open(os.devnull, "rb") as fin, open(log_file, "wb") as ferr:
                    report = work / "measure.txt"
                    subprocess.run([str(tools.measure), str(report), "--",
                                    *(build if kind == "build" else check)],
                                   stdin=fin, stdout=ferr, stderr=ferr, cwd=root,
                                   env=env_command)
                wall, rss, code, cpu = report.read_text().split()
                if int(code) not in (0, 1):
                    raise Failure(f"{kind} of {name}: exit status {code}; see {log_file}")
                if r > 0:  # the first round warms the caches
                    runs[kind].append(Sample(float(wall), int(rss), int(code), float(cpu)))
        samples[name] = runs
    return samples


def supports_latency(tools: Tools, work: Path, runs: int) -> dict:
    samples: dict[str, list[Sample]] = {"plugin": [], "identity": []}
    for _ in range(runs):
        for tool in ("plugin", "identity"):
            sample = measured(tools, work, [str(exe_of(tool, tools)), "supports", "html"],
                              None, None, None, work)
            if sample.code != 0:
                raise Failure(f"{tool} supports html: exit status {sample.code}")
            samples[tool].append(sample)
    return samples


def drift_check_cost(tools: Tools, work: Path, corpus: Path, runs: int) -> dict | None:
    """The plugin on a one-chapter book whose roster is rust-lang/team's
    folder and whose CODEOWNERS has 3,000 rules, with the drift check on
    and off, interleaved; None without the corpus's rust-lang/team."""
    team = corpus / "others" / "rust-lang-team"
    if not (team / "people").is_dir():
        return None
    root = work / "drift"
    shutil.rmtree(root, ignore_errors=True)
    (root / "src").mkdir(parents=True)
    logins = sorted(p.stem for p in (team / "people").glob("*.toml"))
    teams = sorted(p.stem for p in (team / "teams").glob("*.toml"))
    rng = random.Random(7)
    lines = ["# 3,000 rules over rust-lang/team's people and teams, and a few strangers."]
    for i in range(3000):
        owners = [f"@{rng.choice(logins)}" for _ in range(rng.randint(1, 3))]
        if i % 5 == 0:
            owners.append(f"@rust-lang/{rng.choice(teams)}")
        if i % 97 == 0:
            owners.append(f"@stranger-{i}")
        lines.append(f"/src/module{i}/ {' '.join(owners)}")
    (root / "CODEOWNERS").write_text("\n".join(lines) + "\n")
    items = [chapter_json("Plain", "plain.md", "# Plain\n\nNo directives here.\n", [])]
    paths = {}
    for mode in ("warn", "off"):
        config = {"preprocessor": {"community": {
            "people": {"path": str(team), "format": "rust-team"}, "check-owners": mode}}}
        paths[mode] = work / f"drift-{mode}.json"
        paths[mode].write_bytes(request({"root": str(root), "config": config,
                                         "renderer": "html"}, items, "0.5"))
    samples: dict[str, list[Sample]] = {"warn": [], "off": []}
    for _ in range(runs):
        for mode in ("warn", "off"):
            sample = measured(tools, work, [str(tools.plugin)], paths[mode], None, None, root)
            if sample.code != 0:
                raise Failure(f"drift check ({mode}): exit status {sample.code}")
            samples[mode].append(sample)
    return samples


def markdown_roster_cost(tools: Tools, work: Path, sizes: list[int], runs: int) -> dict:
    """`mdbook-community roster --format json` on a MAINTAINERS.md holding a
    table of `n` people, for each `n`: the Markdown reader's time and
    memory, which must grow linearly."""
    samples: dict[int, list[Sample]] = {}
    for n in sizes:
        root = work / f"markdown-roster-{n}"
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        (root / "book.toml").write_text(
            "[book]\ntitle = \"R\"\n\n[preprocessor.community]\npeople = \"MAINTAINERS.md\"\n")
        rows = [f"| Person {i} | [p{i}](https://github.com/p{i}) | Company {i % 97} | Area {i % 13} |"
                for i in range(n)]
        (root / "MAINTAINERS.md").write_text(
            "# Maintainers\n\n| Name | GitHub | Company | Area |\n|---|---|---|---|\n"
            + "\n".join(rows) + "\n")
        out = work / "roster.json"
        for _ in range(runs):
            sample = measured(tools, work, [str(tools.plugin), "roster", str(root), "--format", "json"],
                              None, out, None, root)
            if sample.code != 0:
                raise Failure(f"roster of {n} people: exit status {sample.code}")
            samples.setdefault(n, []).append(sample)
        people = len(json.loads(out.read_bytes())["people"])
        if people != n:
            raise Failure(f"roster of {n} people read {people}")
    return samples


# Issue 38's shapes of a Markdown roster, each at two sizes: (name, what is
# counted, generator of the file's text from the count, sizes, quick sizes).
def _brackets(n: int) -> str:
    return f"# M\n\n* Ada Lovelace {'(' * n} (@ada)\n"


def _nesting(n: int) -> str:
    # Past 32 levels the lists are one warning; Ada above them is read.
    return "# M\n\n* Ada Lovelace (@ada)\n\n" + "* " * n + "Bob Jones (@bob)\n"


def _fields(n: int) -> str:
    return "# M\n\n* Ada Lovelace (@ada)\n" + "".join(f"  * k{i}: v\n" for i in range(n))


def _mentions(n: int) -> str:
    teams = " ".join(f"@org/t{i}" for i in range(n))
    return f"# M\n\nTeams: {teams}\n\n* Ada Lovelace (@ada)\n"


def _size(n: int) -> str:
    lines, size, i = [], 0, 0
    while size < n:
        line = (f"\n## Group {i // 200}\n" if i % 200 == 0
                else f"* Person Number{i} <user{i}@example.com> (@user{i}), Company{i % 37}")
        lines.append(line)
        size += len(line) + 1
        i += 1
    return "\n".join(lines) + "\n"


ROSTER_GROWTH = [
    ("line length", "`(` in one item", _brackets, [100_000, 400_000], [20_000, 40_000]),
    ("nesting depth", "list markers on one line", _nesting, [10_000, 40_000], [2_000, 4_000]),
    ("fields", "`* kN: v` under one person", _fields, [20_000, 80_000], [10_000, 20_000]),
    ("team mentions", "`@org/tN` in one paragraph", _mentions, [20_000, 80_000], [10_000, 20_000]),
    ("file size", "bytes of people lines", _size, [3_750_000, 15_000_000], [500_000, 1_000_000]),
]


def roster_growth_cost(tools: Tools, work: Path, quick: bool, runs: int) -> dict:
    """`roster --format json` on a MAINTAINERS.md of each of issue 38's
    shapes (a long line, deep nesting, many fields, many team mentions, a
    large file) at two sizes: time and memory must grow linearly."""
    samples: dict[str, list[Sample]] = {}
    for name, _, make, sizes, quick_sizes in ROSTER_GROWTH:
        for n in (quick_sizes if quick else sizes):
            root = work / f"roster-growth-{name.replace(' ', '-')}-{n}"
            shutil.rmtree(root, ignore_errors=True)
            root.mkdir(parents=True)
            (root / "book.toml").write_text(
                "[book]\ntitle = \"R\"\n\n[preprocessor.community]\npeople = \"MAINTAINERS.md\"\n")
            (root / "MAINTAINERS.md").write_text(make(n))
            out = work / "roster-growth.json"
            for _ in range(runs):
                sample = measured(tools, work, [str(tools.plugin), "roster", str(root), "--format",
                                                "json"], None, out, None, root)
                if sample.code != 0:
                    raise Failure(f"roster growth, {name} {n}: exit status {sample.code}")
                samples.setdefault(f"{name} {n}", []).append(sample)
            if not json.loads(out.read_bytes())["people"]:
                raise Failure(f"roster growth, {name} {n}: no people read")
    return samples


def roster_growth_report(samples: dict, quick: bool) -> list[str]:
    out = ["\n### Markdown roster growth\n",
           "`mdbook-community roster --format json` on a generated MAINTAINERS.md of each shape "
           "issue 38 hardened, at two sizes; medians. Linear: the time and the memory above the "
           "smaller run's grow at most as the size does:\n",
           "| Shape | Grows by | Sizes | Time (ms) | Time growth | Peak memory (MiB) |",
           "|---|---|--:|--:|--:|--:|"]
    for name, unit, _, sizes, quick_sizes in ROSTER_GROWTH:
        a, b = quick_sizes if quick else sizes
        ra, rb = samples[f"{name} {a}"], samples[f"{name} {b}"]
        growth = med(rb) / med(ra)
        out.append(f"| {name} | {unit} | {a:,} → {b:,} | {fmt_ms(med(ra))} → {fmt_ms(med(rb))} "
                   f"| {growth:.1f}× for {b / a:.0f}× | {med_rss(ra) / 2**20:.0f} → "
                   f"{med_rss(rb) / 2**20:.0f} |")
    return out


def roster_growth_only(args: argparse.Namespace) -> int:
    """`--roster-only`: the Markdown roster's growth rows alone."""
    work = REPO / "target" / "bench"
    work.mkdir(parents=True, exist_ok=True)
    tools = Tools(args)
    if not args.no_build:
        tools.build()
    try:
        samples = roster_growth_cost(tools, work, args.quick, 1 if args.quick else 3)
    except Failure as e:
        log(f"FAILED: {e}")
        return 1
    text = "\n".join(roster_growth_report(samples, args.quick)) + "\n"
    (work / "roster-growth.md").write_text(text)
    (work / "roster-growth.json").write_text(json.dumps(
        {k: [[s.wall, s.rss, s.cpu] for s in v] for k, v in samples.items()}, indent=1))
    print(text)
    return 0


# The format the plugin gives `git log` (src/activity/git.rs), for the
# floor: what git itself takes to print the history.
GIT_FORMAT = ("--format=%H%x00%ae%x00%aE%x00%an%x00%aN%x00%ce%x00%cE%x00%cn%x00%cN"
              "%x00%at%x00%ct%x00%P%x00%s"
              "%x00%(trailers:key=Co-authored-by,valueonly,separator=%x1f,unfold)")


def activity_cost(tools: Tools, work: Path, commits: int, runs: int) -> dict:
    """Activity read from a generated history of `commits` commits (a roster
    with people who never committed, so the whole history is read), as
    `roster --format json`, as a build with `check-activity` and without
    it, against `git log` alone; interleaved."""
    repo = work / f"history-{commits}"
    log(f"generating a {commits:,}-commit history with git fast-import")
    started = time.monotonic()
    made = history.make_history(repo, commits) and time.monotonic() - started
    docs = repo / "docs"
    items = [chapter_json("Plain", "plain.md", "# Plain\n\nNo directives here.\n", [])]
    inputs = {}
    for mode, settings in (("on", {"check-activity": "12 months"}), ("off", {})):
        inputs[mode] = work / f"activity-{mode}.json"
        config = {"preprocessor": {"community": settings}}
        inputs[mode].write_bytes(request({"root": str(docs), "config": config, "renderer": "html"},
                                         items, "0.5"))
    env_now = {**ENV, "MDBOOK_COMMUNITY_NOW": history.NOW}
    jobs = {
        "git log": (["git", "-C", str(repo), "log", "--no-use-mailmap", GIT_FORMAT, "HEAD"], None),
        "roster --format json": ([str(tools.plugin), "roster", str(docs), "--format", "json"], None),
        "build, check-activity": ([str(tools.plugin)], inputs["on"]),
        "build, no activity": ([str(tools.plugin)], inputs["off"]),
    }
    samples: dict[str, list[Sample]] = {name: [] for name in jobs}
    out, err = work / "activity.out", work / "activity.err"
    for _ in range(runs):
        for name, (cmd, stdin) in jobs.items():
            report = work / "measure.txt"
            with open(stdin or os.devnull, "rb") as fin, open(out, "wb") as fout, \
                    open(err, "wb") as ferr:
                subprocess.run([str(tools.measure), str(report), "--", *cmd], stdin=fin,
                               stdout=fout, stderr=ferr, cwd=docs, env=env_now)
            wall, rss, code, cpu = report.read_text().split()
            if int(code) != 0:
                raise Failure(f"activity, {name}: exit status {code}: {err.read_text()[-500:]}")
            if name == "roster --format json":
                people = json.loads(out.read_bytes())["people"]
                found = sum(1 for p in people if p["last_active"])
                if found == 0 or found == len(people):
                    raise Failure(f"activity: {found} of {len(people)} people found")
                if not any(p["activity_match"] == "merged-pr" for p in people):
                    raise Failure("activity: nobody found through their merged pull requests")
            if name == "build, check-activity" and "C406" not in err.read_text():
                raise Failure("activity: no C406 warning for the maintainers who never committed")
            samples[name].append(Sample(float(wall), int(rss), int(code), float(cpu)))
    return {"commits": commits, "generated_seconds": made or None, "samples": samples}


def generated_repository(root: Path, files: int, ownership: str, rng: random.Random) -> None:
    """A git repository of `files` files in folders up to five deep, with a
    book in docs/ and either a 500-rule CODEOWNERS or 300 OWNERS files (and
    OWNERS_ALIASES)."""
    shutil.rmtree(root, ignore_errors=True)
    top = [f"area{i}" for i in range(20)]
    folders = set()
    paths = []
    while len(paths) < files:
        depth = rng.randint(1, 5)
        parts = [rng.choice(top)] + [f"d{rng.randint(0, 6)}" for _ in range(depth - 1)]
        folder = "/".join(parts)
        folders.add(folder)
        paths.append(f"{folder}/f{len(paths)}.{rng.choice(['rs', 'go', 'md', 'txt'])}")
    for path in paths:
        full = root / path
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_bytes(b"")
    (root / "docs").mkdir(parents=True, exist_ok=True)
    (root / "docs" / "book.toml").write_text(
        "[book]\ntitle = \"Owners\"\n\n[preprocessor.community]\n"
        + ("ownership = \"owners\"\n" if ownership == "owners" else ""))
    logins = [f"user{i}" for i in range(200)]
    folders = sorted(folders)
    if ownership == "codeowners":
        lines = ["*  @org/everyone"]
        for i in range(499):
            owners = " ".join(f"@{rng.choice(logins)}" for _ in range(rng.randint(0, 3)))
            kind = i % 10
            if kind < 7:
                pattern = f"/{rng.choice(folders)}/"
            elif kind == 7:
                pattern = f"*.{rng.choice(['md', 'txt'])}"
            elif kind == 8:
                pattern = f"/{rng.choice(top)}/**/*.{rng.choice(['rs', 'go'])}"
            else:
                pattern = f"/gone{i}/"
            lines.append(f"{pattern} {owners}")
        (root / "CODEOWNERS").write_text("\n".join(lines) + "\n")
    else:
        aliases = "".join(f"  alias{a}:\n" + "".join(f"    - {rng.choice(logins)}\n" for _ in range(4))
                          for a in range(30))
        (root / "OWNERS_ALIASES").write_text("aliases:\n" + aliases)
        (root / "OWNERS").write_text("approvers:\n  - alias0\nreviewers:\n  - user1\n")
        for i, folder in enumerate(rng.sample(folders, min(299, len(folders)))):
            who = "".join(f"  - {rng.choice(logins + ['alias' + str(a) for a in range(30)])}\n"
                          for _ in range(rng.randint(1, 3)))
            if i % 5 == 0:
                text = f"filters:\n  \".*\":\n    approvers:\n{who.replace('  - ', '      - ')}" \
                       f"  \"\\\\.go$\":\n    approvers:\n      - {rng.choice(logins)}\n"
            elif i % 7 == 0:
                text = f"options:\n  no_parent_owners: true\napprovers:\n{who}"
            else:
                text = f"approvers:\n{who}reviewers:\n{who}"
            (root / folder / "OWNERS").write_text(text)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"]):
        subprocess.run(["git", *args], cwd=root, check=True)


def ownership_cost(tools: Tools, work: Path, sizes: list[int], runs: int) -> dict:
    """`mdbook-community owners docs --coverage --format json` over generated
    git repositories of each size, with a 500-rule CODEOWNERS and with 300
    OWNERS files; and `git ls-files -z` alone on the same repository."""
    samples: dict[str, list[Sample]] = {}
    rng = random.Random(28)
    for n in sizes:
        for ownership in ("codeowners", "owners"):
            root = work / f"ownership-{ownership}-{n}"
            generated_repository(root, n, ownership, rng)
            out = work / "owners.json"
            for _ in range(runs):
                for key, cmd in ((f"{ownership} {n}", [str(tools.plugin), "owners", str(root / "docs"),
                                                       "--coverage", "--format", "json"]),
                                 (f"git {ownership} {n}", ["git", "ls-files", "-z"])):
                    sample = measured(tools, work, cmd, None, out if key.startswith(ownership) else None,
                                      None, root)
                    if sample.code != 0:
                        raise Failure(f"{key}: exit status {sample.code}")
                    samples.setdefault(key, []).append(sample)
            figures = json.loads((work / "owners.json").read_bytes())
            if figures["files"] < n or figures["source"] != ownership.upper():
                raise Failure(f"{ownership} {n}: {figures['files']} files from {figures['source']}")
    return samples


OWNERSHIP_SIZES = [5000, 20000, 80000]
OWNERSHIP_SIZES_QUICK = [2000]

# (rules, files): rules x files grows with the square, rules + files linearly.
RULES_BY_FILES = [(500, 12_500), (1000, 25_000), (2000, 50_000)]
RULES_BY_FILES_QUICK = [(100, 2500), (200, 5000)]


def rules_by_files_repository(root: Path, rules: int, files: int, ownership: str) -> None:
    """A git repository of `files` files named `*.xN` (N below `rules`), with
    a CODEOWNERS of `rules` extension rules (`*.xN @userN`) after `*`, or a
    root OWNERS file of `rules` filters (`\\.xN$`): issue 38's costs that
    multiply, where every rule could match every file."""
    shutil.rmtree(root, ignore_errors=True)
    for j in range(files):
        full = root / f"d{j % 50}" / f"f{j}.x{j % rules}"
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_bytes(b"")
    (root / "docs").mkdir(parents=True, exist_ok=True)
    (root / "docs" / "book.toml").write_text(
        "[book]\ntitle = \"Owners\"\n\n[preprocessor.community]\n"
        + ("ownership = \"owners\"\n" if ownership == "owners" else ""))
    if ownership == "codeowners":
        lines = ["* @org/everyone"] + [f"*.x{i} @user{i % 200}" for i in range(rules)]
        (root / "CODEOWNERS").write_text("\n".join(lines) + "\n")
    else:
        filters = "".join(f"  \"\\\\.x{i}$\":\n    approvers:\n      - user{i % 200}\n"
                          for i in range(rules))
        (root / "OWNERS").write_text("filters:\n" + filters)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"]):
        subprocess.run(["git", *args], cwd=root, check=True)


def rules_by_files_cost(tools: Tools, work: Path, sizes: list[tuple[int, int]], runs: int) -> dict:
    """`owners docs --coverage --format json` where every rule could match
    every file: extension rules in CODEOWNERS, filters in one OWNERS file."""
    samples: dict[str, list[Sample]] = {}
    for rules, files in sizes:
        for ownership in ("codeowners", "owners"):
            root = work / f"rules-{ownership}-{rules}"
            rules_by_files_repository(root, rules, files, ownership)
            cmd = [str(tools.plugin), "owners", str(root / "docs"), "--coverage", "--format", "json"]
            out = work / "owners.json"
            for _ in range(runs):
                sample = measured(tools, work, cmd, None, out, None, root)
                if sample.code != 0:
                    raise Failure(f"{ownership} {rules}x{files}: exit status {sample.code}")
                samples.setdefault(f"{ownership} {rules}", []).append(sample)
            figures = json.loads(out.read_bytes())
            if figures["files"] < files:
                raise Failure(f"{ownership} {rules}x{files}: {figures['files']} files")
    return samples


def rules_by_files_report(samples: dict, sizes: list[tuple[int, int]]) -> list[str]:
    out = ["\n### Rules times files\n",
           "`mdbook-community owners docs --coverage --format json` where every rule could match "
           "every file (issue 38): files named `*.xN` against a CODEOWNERS of `*.xN` rules, and "
           "against one OWNERS file of `\\.xN$` filters; medians. Twice the rules and twice the "
           "files should take about twice the time, not four times:\n",
           "| Rules | Files | CODEOWNERS (ms) | OWNERS filters (ms) |",
           "|--:|--:|--:|--:|"]
    for rules, files in sizes:
        out.append(f"| {rules:,} | {files:,} | {fmt_ms(med(samples[f'codeowners {rules}']))} "
                   f"| {fmt_ms(med(samples[f'owners {rules}']))} |")
    return out


def ownership_only(args: argparse.Namespace) -> int:
    """`--ownership-only`: the coverage rows alone, printed as Markdown."""
    work = REPO / "target" / "bench"
    work.mkdir(parents=True, exist_ok=True)
    tools = Tools(args)
    if not args.no_build:
        tools.build()
    sizes = OWNERSHIP_SIZES_QUICK if args.quick else OWNERSHIP_SIZES
    rules_sizes = RULES_BY_FILES_QUICK if args.quick else RULES_BY_FILES
    try:
        samples = ownership_cost(tools, work, sizes, 1 if args.quick else 5)
        rules = rules_by_files_cost(tools, work, rules_sizes, 1 if args.quick else 3)
    except Failure as e:
        log(f"FAILED: {e}")
        return 1
    text = "\n".join(ownership_report(samples, sizes)
                     + rules_by_files_report(rules, rules_sizes)) + "\n"
    samples.update({f"rules {k}": v for k, v in rules.items()})
    (work / "ownership.md").write_text(text)
    (work / "ownership.json").write_text(json.dumps(
        {k: [[s.wall, s.rss, s.cpu] for s in v] for k, v in samples.items()}, indent=1))
    print(text)
    return 0


def ownership_report(samples: dict, sizes: list[int]) -> list[str]:
    out = ["### Who owns what\n",
           "`mdbook-community owners docs --coverage --format json` (listing the repository with "
           "`git ls-files`, reading its ownership and the owner of every file) on generated git "
           "repositories, against a 500-rule CODEOWNERS and against 300 OWNERS files with "
           "OWNERS_ALIASES, medians; `git ls-files -z` alone for comparison:\n",
           "| Files | Ownership | Time (ms) | Peak memory (MiB) | `git ls-files` (ms) |",
           "|--:|---|--:|--:|--:|"]
    for n in sizes:
        for ownership, name in (("codeowners", "CODEOWNERS, 500 rules"), ("owners", "300 OWNERS files")):
            runs, git = samples[f"{ownership} {n}"], samples[f"git {ownership} {n}"]
            out.append(f"| {n:,} | {name} | {fmt_ms(med(runs))} | {med_rss(runs) / 2**20:.0f} "
                       f"| {fmt_ms(med(git))} |")
    return out


def data_file_reads(tools: Tools, work: Path, root: Path, inp: Input) -> dict | None:
    """How often one run opens each data file (with strace), or None."""
    if shutil.which("strace") is None:
        return None
    trace = work / "strace.txt"
    trace.unlink(missing_ok=True)
    with open(inp.path, "rb") as fin:
        done = subprocess.run(["strace", "-f", "-e", "trace=open,openat", "-o", str(trace),
                               str(tools.plugin)], stdin=fin, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, cwd=root, env=ENV)
    if done.returncode != 0 or not trace.is_file():
        # Containers often forbid ptrace; the plugin itself passed round 0.
        log(f"strace failed, data-file opens not counted: {done.stderr[-300:]!r}")
        return None
    text = trace.read_text()
    counts = {}
    for name in ("maintainers.toml", "CODEOWNERS", "CONTRIBUTING.md"):
        counts[name] = len(re.findall(rf'open(?:at)?\(.*/{re.escape(name)}", .*\) = \d+', text))
    return counts


# ---------------------------------------------------------------------------
# Reporting


def med(samples: list[Sample]) -> float:
    return statistics.median(s.wall for s in samples)


def med_rss(samples: list[Sample]) -> float:
    return statistics.median(s.rss for s in samples)


def med_cpu(samples: list[Sample]) -> float:
    return statistics.median(s.cpu for s in samples)


def fmt_ms(seconds: float) -> str:
    ms = seconds * 1000
    return f"{ms:.0f}" if ms >= 100 else f"{ms:.1f}"


def fmt_ratio(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}×"


def peers_at_work(inputs: list[Input], results: dict, sizes: list[int], ratio) -> str | None:
    """The table of the plugin's ten directives against the peers' own work."""
    by_name = {inp.name: inp for inp in inputs}
    lines = ["| Chapters | Plugin, 10 directives ÷ identity (0.5 / 0.4 JSON) "
             "| mdbook-admonish, 10 admonitions ÷ identity | mdbook-toc, a TOC ÷ identity |",
             "|--:|--:|--:|--:|"]
    any_peer = False
    for n in sizes:
        p5 = ratio("plugin", by_name.get(f"generated-{n}-10.mdbook-0.5"))
        p4 = ratio("plugin", by_name.get(f"generated-{n}-10.mdbook-0.4"))
        adm = ratio("mdbook-admonish", by_name.get(f"generated-{n}-mdbook-admonish.mdbook-0.4"))
        toc = ratio("mdbook-toc", by_name.get(f"generated-{n}-mdbook-toc.mdbook-0.5"))
        any_peer = any_peer or adm is not None or toc is not None
        lines.append(f"| {n:,} | {fmt_ratio(p5)} / {fmt_ratio(p4)} | {fmt_ratio(adm)} "
                     f"| {fmt_ratio(toc)} |")
    return "\n".join(lines) if any_peer else None


def activity_section(activity: dict) -> str:
    """The report's section on reading activity from the git history."""
    samples = activity["samples"]
    made = activity["generated_seconds"]
    made = f"in {made:.1f} s" if made else "in an earlier run"
    lines = ["### Activity from the git history\n",
             f"A generated history of {activity['commits']:,} commits (bench/history.py, "
             f"made with `git fast-import` {made}) and a roster of 60 maintainers, 10 of whom "
             "never committed, so that the whole history is read; medians:\n",
             "| Run | Time (ms) | CPU (ms) | Peak memory (MiB) |",
             "|---|--:|--:|--:|"]
    for name, runs in samples.items():
        lines.append(f"| {name} | {fmt_ms(med(runs))} | {med_cpu(runs) * 1000:.0f} "
                     f"| {med_rss(runs) / 2**20:.0f} |")
    on, off = med(samples["build, check-activity"]), med(samples["build, no activity"])
    git_cpu = med_cpu(samples["git log"])
    lines.append(f"\n`check-activity` adds {(on - off) * 1000:.0f} ms to a build. The CPU time "
                 f"includes git's: `git log` alone, printing the same fields, takes "
                 f"{git_cpu * 1000:.0f} ms of CPU, the plugin "
                 f"{(med_cpu(samples['build, check-activity']) - git_cpu) * 1000:.0f} ms more.\n")
    return "\n".join(lines)


def report(inputs: list[Input], results: dict, rust_book: dict | None, supports: dict,
           drift: dict | None,
           data_reads: dict | None, tools: Tools, args: argparse.Namespace,
           elapsed: float, lychee: dict | None = None,
           checks: dict | None = None, markdown: dict | None = None,
           activity: dict | None = None) -> tuple[str, dict]:
    by_name = {inp.name: inp for inp in inputs}
    rows: dict[str, dict[str, Input]] = {}
    for inp in inputs:
        if inp.peer_work is None:
            rows.setdefault(inp.book, {})[inp.shape] = inp

    def t(tool: str, inp: Input | None) -> float | None:
        if inp is None or (tool, inp.name) not in results:
            return None
        return med(results[(tool, inp.name)])

    def ratio(tool: str, inp: Input | None, base: Input | None = None) -> float | None:
        base = base or inp
        a, b = t(tool, inp), t("identity", base)
        return None if a is None or b is None else a / b

    def cpu_ratio(tool: str, inp: Input) -> float:
        return med_cpu(results[(tool, inp.name)]) / med_cpu(results[("identity", inp.name)])

    lines = []
    lines.append("| Input | Chapters | Directives per chapter | JSON (MB) | Identity (ms) "
                 "| Plugin ÷ identity (0.5 / 0.4 JSON) | Plugin ÷ identity, CPU time "
                 "| Plugin, check-anchors off ÷ identity "
                 "| mdbook-toc ÷ identity | mdbook-admonish ÷ identity |")
    lines.append("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    verdicts: dict = {"none": [], "ten": [], "peers": [], "rss": []}
    for book, shapes in rows.items():
        v5, v4 = shapes.get("0.5"), shapes.get("0.4")
        p5, p4 = ratio("plugin", v5), ratio("plugin", v4)
        toc, adm = ratio("mdbook-toc", v5), ratio("mdbook-admonish", v4)
        off = ratio(NO_ANCHORS, v5)
        label = book if not v5.generated else f"generated, {v5.chapters:,} chapters"
        lines.append(
            f"| {label} | {v5.chapters:,} | {v5.per_chapter} | {v5.size / 1e6:.2f} "
            f"| {fmt_ms(t('identity', v5))} | {fmt_ratio(p5)} / {fmt_ratio(p4)} "
            f"| {fmt_ratio(cpu_ratio('plugin', v5))} | {fmt_ratio(off)} "
            f"| {fmt_ratio(toc)} | {fmt_ratio(adm)} |")
        if v5.per_chapter == 0:
            verdicts["none"] += [(book, p5), (book, p4)]
            verdicts.setdefault("off", []).append((book, off))
            if toc is not None:
                verdicts["peers"].append((book, "mdbook-toc", t("plugin", v5), t("mdbook-toc", v5)))
            if adm is not None:
                verdicts["peers"].append((book, "mdbook-admonish", t("plugin", v4),
                                          t("mdbook-admonish", v4)))
        if v5.per_chapter == 10:
            verdicts["ten"] += [(book, p5), (book, p4)]
    time_table = "\n".join(lines)

    lines = ["| Input | JSON (MB) | Identity | Plugin | Plugin, 0.4 JSON | mdbook-toc | mdbook-admonish |",
             "|---|--:|--:|--:|--:|--:|--:|"]
    for book, shapes in rows.items():
        v5, v4 = shapes.get("0.5"), shapes.get("0.4")

        def m(tool: str, inp: Input | None) -> str:
            if inp is None or (tool, inp.name) not in results:
                return "–"
            rss = med_rss(results[(tool, inp.name)])
            return f"{rss / inp.size:.2f}× ({rss / 2**20:.0f} MiB)"

        label = book if not v5.generated else f"generated, {v5.chapters:,} × {v5.per_chapter}"
        lines.append(f"| {label} | {v5.size / 1e6:.2f} | {m('identity', v5)} | {m('plugin', v5)} "
                     f"| {m('plugin', v4)} | {m('mdbook-toc', v5)} | {m('mdbook-admonish', v4)} |")
        for inp in (v5, v4):
            if inp is not None and ("plugin", inp.name) in results:
                verdicts["rss"].append((f"{book}, {inp.shape} JSON", inp.size,
                                        med_rss(results[("plugin", inp.name)]),
                                        med_rss(results[("identity", inp.name)])))
    rss_table = "\n".join(lines)

    # Linearity: the plugin's time at 10x (and 5x) the chapters.
    sizes = sorted({inp.chapters for inp in inputs if inp.generated})
    peers_table = peers_at_work(inputs, results, sizes, ratio)
    lines = ["| Directives per chapter | " + " | ".join(
        f"{a:,} → {b:,} chapters ({b // a}×)" for a, b in zip(sizes, sizes[1:])) + " |",
        "|---|" + "--:|" * (len(sizes) - 1)]
    linear = []
    for per_chapter in (0, 1, 10):
        cells = []
        for a, b in zip(sizes, sizes[1:]):
            ia = by_name[f"generated-{a}-{per_chapter}.mdbook-0.5"]
            ib = by_name[f"generated-{b}-{per_chapter}.mdbook-0.5"]
            growth = t("plugin", ib) / t("plugin", ia)
            id_growth = t("identity", ib) / t("identity", ia)
            cells.append(f"{growth:.2f}× (identity {id_growth:.2f}×)")
            linear.append((per_chapter, a, b, growth, id_growth))
        lines.append(f"| {per_chapter} | " + " | ".join(cells) + " |")
    linear_table = "\n".join(lines)

    out = []
    out.append("### Time, as a multiple of the identity pass-through\n")
    out.append("Median wall time of each tool divided by the identity's on the same input "
               "(the identity column is the identity's own median on the mdBook 0.5 JSON). "
               "The plugin reads both shapes; mdbook-toc is fed the mdBook 0.5 JSON and "
               "mdbook-admonish the mdBook 0.4 JSON, each divided by the identity on that same "
               "file. The CPU column divides user plus system time instead (on the 0.5 JSON): "
               "it is less disturbed by other load on the machine, and counts the plugin's "
               "work on all its threads. The check-anchors column runs the plugin on the same "
               "book with `check-anchors = \"off\"` in its config (directive-free books only).\n")
    out.append(time_table + "\n")
    out.append("### Peak memory, as a multiple of the input JSON's size\n")
    out.append("Median max RSS of each tool on the mdBook 0.5 JSON (the plugin also on the 0.4 "
               "JSON; mdbook-admonish on the 0.4 JSON), divided by the input's size; in "
               "parentheses, the RSS itself.\n")
    out.append(rss_table + "\n")
    if peers_table:
        out.append("### Ten directives a chapter, beside the peers doing their own work\n")
        out.append("The plugin expanding ten of its directives a chapter, mdbook-admonish ten "
                   "admonitions a chapter (mdBook 0.4 JSON) and mdbook-toc a table of contents "
                   "a chapter (mdBook 0.5 JSON), each divided by the identity on its own input "
                   "(the same chapters, with each tool's own work in them).\n")
        out.append(peers_table + "\n")
    out.append("### Growth with the number of chapters (plugin, mdBook 0.5 JSON)\n")
    out.append(linear_table + "\n")
    if rust_book:
        w, wo = med(rust_book["with"]), med(rust_book["without"])
        wi = med(rust_book["identity"]) if rust_book.get("identity") else None
        out.append("### `mdbook build` of the Rust Book\n")
        out.append("Without a preprocessor of ours, with the identity pass-through as one (what "
                   "mdBook's sending the book to any preprocessor and reading it back costs), "
                   "and with the plugin; medians.\n")
        out.append("| Without (ms) | With the identity (ms) | With the plugin (ms) | Plugin ÷ without "
                   "| Plugin ÷ identity | Peak RSS without / with the plugin |")
        out.append("|--:|--:|--:|--:|--:|--:|")
        out.append(f"| {fmt_ms(wo)} | {fmt_ms(wi) if wi else '–'} | {fmt_ms(w)} | {w / wo:.3f}× "
                   f"| {f'{w / wi:.3f}×' if wi else '–'} "
                   f"| {med_rss(rust_book['without']) / 2**20:.0f} / "
                   f"{med_rss(rust_book['with']) / 2**20:.0f} MiB |\n")
    sp, si = med(supports["plugin"]), med(supports["identity"])
    out.append("### `supports`\n")
    out.append(f"`mdbook-community supports html`: median {sp * 1000:.2f} ms over "
               f"{len(supports['plugin'])} runs; the identity binary's `supports` (starting a "
               f"process and exiting) {si * 1000:.2f} ms; ratio {sp / si:.2f}×.\n")
    if drift:
        on, off = med(drift["warn"]), med(drift["off"])
        out.append("### The CODEOWNERS drift check\n")
        out.append(f"One chapter, rust-lang/team's roster (its `people/` and `teams/`) and a "
                   f"3,000-rule CODEOWNERS: median {fmt_ms(on)} ms with `check-owners = \"warn\"`, "
                   f"{fmt_ms(off)} ms with it off, over {len(drift['warn'])} runs each: the check "
                   f"adds {(on - off) * 1000:.1f} ms.\n")
    if checks:
        out.append("### `check` against `mdbook build`\n")
        out.append("`mdbook-community check BOOK` (which runs the same mdBook with a renderer "
                   "that writes nothing) against `mdbook build BOOK` with the plugin, medians:\n")
        out.append("| Book | `mdbook build` (ms) | `check` (ms) | Ratio |")
        out.append("|---|--:|--:|--:|")
        for book, runs in checks.items():
            b, c = med(runs["build"]), med(runs["check"])
            out.append(f"| {book} | {fmt_ms(b)} | {fmt_ms(c)} | {c / b:.2f}× |")
        out.append("")
    if markdown:
        out.append("### Reading a Markdown roster\n")
        out.append("`mdbook-community roster --format json` on a `MAINTAINERS.md` whose table lists "
                   "the given number of people, medians:\n")
        out.append("| People | Time (ms) | Peak memory (MiB) |")
        out.append("|--:|--:|--:|")
        for n, runs in sorted(markdown.items()):
            out.append(f"| {n:,} | {fmt_ms(med(runs))} | {med_rss(runs) / 2**20:.0f} |")
        out.append("")
    if activity:
        out.append(activity_section(activity))
    if data_reads is not None:
        out.append("### Data files\n")
        out.append("Opens of each data file in one run over the largest 10-directive book "
                   "(strace): " + ", ".join(f"`{k}` {v}" for k, v in data_reads.items()) + ".\n")

    if lychee and lychee["books"]:
        out.append("### The anchor check and lychee\n")
        out.append(f"The plugin's anchor check on each book's recorded mdBook 0.5 JSON, against "
                   f"`lychee --offline --include-fragments` ({lychee['version']}) on the HTML "
                   f"mdBook 0.5.4 renders from the same book with the plugin; broken fragments "
                   f"as each reports them (lychee's in the chapter pages, and in parentheses in "
                   f"`print.html`, which repeats every chapter).\n")
        out.append("| Book | Plugin (ms) | Plugin, check off (ms) | Broken fragments, plugin "
                   "| lychee (ms) | Broken fragments, lychee | Other lychee errors |")
        out.append("|---|--:|--:|--:|--:|--:|--:|")
        for book, r in lychee["books"].items():
            inp = by_name.get(f"{book}.mdbook-0.5")
            lt = statistics.median(x[0] for x in r["lychee"])
            ms = [("–" if x is None else fmt_ms(x)) for x in (t("plugin", inp), t(NO_ANCHORS, inp))]
            out.append(f"| {book} | {ms[0]} | {ms[1]} "
                       f"| {r['plugin_broken']} | {fmt_ms(lt)} | {r['lychee_fragments']} "
                       f"({r['lychee_fragments_print']}) | {r['lychee_other_errors']} |")
        out.append("")

    budget = []
    worst_none = max(verdicts["none"], key=lambda x: x[1])
    budget.append(("No directives (default `check-anchors = \"warn\"`): at most 2× the "
                   "identity", worst_none[1] <= 2,
                   f"worst {worst_none[1]:.2f}× ({worst_none[0]})"))
    worst_off = max(verdicts["off"], key=lambda x: x[1])
    budget.append(("No directives, with `check-anchors = \"off\"`: at most 1× the identity",
                   worst_off[1] <= 1, f"worst {worst_off[1]:.2f}× ({worst_off[0]})"))
    worst_ten = max(verdicts["ten"], key=lambda x: x[1])
    budget.append(("Ten directives per chapter: at most 3× the identity", worst_ten[1] <= 3,
                   f"worst {worst_ten[1]:.2f}× ({worst_ten[0]})"))
    # The budget is the issue's: ten times the chapters (the 5× step is in
    # the growth table; on two cores its wall time moves by about 10% from
    # run to run, the identity's own included).
    tenfold = [x for x in linear if x[2] == 10 * x[1]] or linear
    worst_lin = max(tenfold, key=lambda x: x[3] / ((x[2] / x[1]) * 1.1))
    lin_ok = all(g <= 1.1 * (b / a) for _, a, b, g, _ in tenfold)
    budget.append(("Linear: 10× the chapters at most 11× the time", lin_ok,
                   f"worst {worst_lin[3]:.2f}× for {worst_lin[2] // worst_lin[1]}× the chapters "
                   f"({worst_lin[0]} per chapter, {worst_lin[1]:,} → {worst_lin[2]:,})"))
    if data_reads is not None:
        budget.append(("Data files read once per run", all(v <= 1 for v in data_reads.values()),
                       ", ".join(f"{k}: {v}" for k, v in data_reads.items())))
    big = [r for r in verdicts["rss"] if r[1] >= 10e6]
    if big:
        worst_rss = max(big, key=lambda r: r[2] / r[1])
        # The books without directives on their own: what the anchor
        # check and the book walk cost, apart from what directives keep.
        plain = [r for r in big if re.match(r"generated-\d+-0\b", r[0])]
        plain_text = ""
        if plain:
            worst_plain = max(plain, key=lambda r: r[2] / r[1])
            plain_text = (f"; without directives worst {worst_plain[2] / worst_plain[1]:.2f}× "
                          f"({worst_plain[0]})")
        budget.append(("Peak memory at most 1.5× the input (inputs of 10 MB and more)",
                       worst_rss[2] / worst_rss[1] <= 1.5,
                       f"worst {worst_rss[2] / worst_rss[1]:.2f}× ({worst_rss[0]}; "
                       f"identity {worst_rss[3] / worst_rss[1]:.2f}×){plain_text}"))
    small = [r for r in verdicts["rss"] if r[1] < 10e6]
    if small:
        worst_small = max(small, key=lambda r: r[2] / r[1])
        budget.append(("Peak memory at most 3× the input (inputs under 10 MB)",
                       worst_small[2] / worst_small[1] <= 3,
                       f"worst {worst_small[2] / worst_small[1]:.2f}× ({worst_small[0]}; "
                       f"identity {worst_small[3] / worst_small[1]:.2f}×)"))
    budget.append(("`supports` under 5 ms", sp < 0.005, f"{sp * 1000:.2f} ms"))
    if checks:
        worst = max(((b, med(r["check"]) / med(r["build"])) for b, r in checks.items()),
                    key=lambda x: x[1])
        budget.append(("`check` at most a quarter of `mdbook build` (the guide, the Rust Book)",
                       worst[1] <= 0.25, f"worst {worst[1]:.2f}× ({worst[0]})"))
    if drift:
        added = med(drift["warn"]) - med(drift["off"])
        budget.append(("Drift check over rust-lang/team and 3,000 CODEOWNERS rules adds under "
                       "50 ms", added < 0.05, f"{added * 1000:.1f} ms"))
    if markdown and len(markdown) >= 2:
        (a, ra), (b, rb) = sorted(markdown.items())[:2]
        growth = med(rb) / med(ra)
        budget.append((f"Markdown roster linear: {b // a}× the people at most {1.1 * b / a:.0f}× the time",
                       growth <= 1.1 * b / a, f"{growth:.1f}× ({a:,} → {b:,} people)"))
    if activity:
        whole = med(activity["samples"]["roster --format json"])
        budget.append((f"Activity over {activity['commits']:,} commits (the whole history) under 1 s",
                       whole < 1, f"{whole * 1000:.0f} ms"))
    if verdicts["peers"]:
        slower = [(b, p, a, c) for b, p, a, c in verdicts["peers"] if a >= c]
        fastest = max(verdicts["peers"], key=lambda x: x[2] / x[3])
        budget.append(("Faster than mdbook-admonish and mdbook-toc without directives",
                       not slower, f"closest {fastest[2] / fastest[3]:.2f}× of {fastest[1]} "
                       f"({fastest[0]})"))
    out.append("### Budgets\n")
    out.append("| Budget | Holds | Measured |")
    out.append("|---|---|---|")
    for name, ok, detail in budget:
        out.append(f"| {name} | {'yes' if ok else '**no**'} | {detail} |")
    out.append("")
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    out.append(f"Run: `bash bench/run.sh{' --quick' if args.quick else ''}`, "
               f"{args.rounds} timed round(s) (inputs under 2 MB: three runs per round), "
               f"{time.strftime('%Y-%m-%d')}, "
               f"{os.cpu_count()} × {cpu}, {platform.system()} {platform.release()}, "
               f"load average {os.getloadavg()[0]:.1f} at the end, {elapsed / 60:.1f} minutes.\n")
    summary = {
        "budgets": [{"budget": n, "holds": ok, "measured": d} for n, ok, d in budget],
    }
    return "\n".join(out), summary


def svg_plot(inputs: list[Input], results: dict, path: Path) -> None:
    """Median time against chapters, log-log, for the generated books."""
    series = [
        ("identity pass-through", "identity", 0, "0.5", "#555555", ""),
        ("mdbook-community, no directives", "plugin", 0, "0.5", "#1f77b4", ""),
        ("mdbook-community, no directives, check-anchors off", NO_ANCHORS, 0, "0.5", "#9ecae9",
         ""),
        ("mdbook-community, 1 directive per chapter", "plugin", 1, "0.5", "#1f77b4", "6 3"),
        ("mdbook-community, 10 directives per chapter", "plugin", 10, "0.5", "#1f77b4", "2 3"),
        ("mdbook-toc, no directives", "mdbook-toc", 0, "0.5", "#d62728", ""),
        ("mdbook-admonish, no directives (0.4 JSON)", "mdbook-admonish", 0, "0.4", "#2ca02c", ""),
        ("mdbook-toc, a TOC per chapter", "mdbook-toc", 10, "0.5", "#d62728", "2 3"),
        ("mdbook-admonish, 10 admonitions per chapter (0.4 JSON)", "mdbook-admonish", 10, "0.4",
         "#2ca02c", "2 3"),
    ]
    points = []
    for label, tool, per_chapter, shape, color, dash in series:
        pts = []
        for inp in inputs:
            if inp.generated and inp.per_chapter == per_chapter and inp.shape == shape \
                    and (tool, inp.name) in results:
                pts.append((inp.chapters, med(results[(tool, inp.name)]) * 1000))
        if pts:
            points.append((label, color, dash, sorted(pts)))
    if not points:
        return
    import math
    xs = [x for *_, pts in points for x, _ in pts]
    ys = [y for *_, pts in points for _, y in pts]
    x0, x1 = 10 ** math.floor(math.log10(min(xs))), 10 ** math.ceil(math.log10(max(xs)))
    y0, y1 = 10 ** math.floor(math.log10(min(ys))), 10 ** math.ceil(math.log10(max(ys)))
    w, h, left, right, top, bottom = 720, 500, 70, 40, 20, 170
    pw, ph = w - left - right, h - top - bottom

    def px(x: float) -> float:
        return left + pw * (math.log10(x) - math.log10(x0)) / (math.log10(x1) - math.log10(x0))

    def py(y: float) -> float:
        return top + ph * (1 - (math.log10(y) - math.log10(y0)) / (math.log10(y1) - math.log10(y0)))

    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
         f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">',
         f'<rect width="{w}" height="{h}" fill="white"/>']
    d = x0
    while d <= x1:
        for k in range(1, 10):
            x = d * k
            if x > x1:
                break
            major = k == 1
            s.append(f'<line x1="{px(x):.1f}" y1="{top}" x2="{px(x):.1f}" y2="{top + ph}" '
                     f'stroke="{"#cccccc" if major else "#eeeeee"}"/>')
            if major:
                s.append(f'<text x="{px(x):.1f}" y="{top + ph + 16}" text-anchor="middle">'
                         f'{x:,.0f}</text>')
        d *= 10
    d = y0
    while d <= y1:
        for k in range(1, 10):
            y = d * k
            if y > y1:
                break
            major = k == 1
            s.append(f'<line x1="{left}" y1="{py(y):.1f}" x2="{left + pw}" y2="{py(y):.1f}" '
                     f'stroke="{"#cccccc" if major else "#eeeeee"}"/>')
            if major:
                label = f"{y:,.0f}" if y >= 1 else f"{y:g}"
                s.append(f'<text x="{left - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{label}</text>')
        d *= 10
    s.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>')
    s.append(f'<text x="{left + pw / 2}" y="{top + ph + 34}" text-anchor="middle">'
             'chapters (log scale)</text>')
    s.append(f'<text transform="translate(16 {top + ph / 2}) rotate(-90)" text-anchor="middle">'
             'median wall time, ms (log scale)</text>')
    for i, (label, color, dash, pts) in enumerate(points):
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        path_d = " ".join(f"{'M' if j == 0 else 'L'}{px(x):.1f},{py(y):.1f}"
                          for j, (x, y) in enumerate(pts))
        s.append(f'<path d="{path_d}" fill="none" stroke="{color}" stroke-width="2"{dash_attr}/>')
        for x, y in pts:
            s.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{color}"/>')
        ly = top + ph + 52 + 16 * i
        s.append(f'<line x1="{left}" y1="{ly - 4}" x2="{left + 30}" y2="{ly - 4}" stroke="{color}" '
                 f'stroke-width="2"{dash_attr}/>')
        s.append(f'<text x="{left + 38}" y="{ly}">{label}</text>')
    s.append("</svg>")
    path.write_text("\n".join(s) + "\n")


# ---------------------------------------------------------------------------


def replot(args: argparse.Namespace) -> int:
    work = REPO / "target" / "bench"
    raw = json.loads((work / "results.json").read_text())
    inputs = [argparse.Namespace(name=name, chapters=i["chapters"], shape=i["shape"],
                                 generated=i["generated"], per_chapter=i["directives_per_chapter"])
              for name, i in raw["inputs"].items()]
    results = {(run["tool"], run["input"]): [Sample(w, rss, 0, cpu) for w, rss, cpu in run["samples"]]
               for run in raw["runs"]}
    svg_plot(inputs, results, work / "plot.svg")  # type: ignore[arg-type]
    if args.book:
        shutil.copy(work / "plot.svg", REPO / "book" / "performance-plot.svg")
    log(f"plot: {work / 'plot.svg'}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="small books, one run each: proves the benchmark works (for CI)")
    parser.add_argument("--rounds", type=int, help="timed rounds per tool and input "
                        "(default 7; 0 with --quick: the checked run is the timed one)")
    parser.add_argument("--sizes", help="chapter counts of the generated books, comma-separated "
                        "(default 1000,10000,50000; 100,1000 with --quick)")
    parser.add_argument("--no-peers", action="store_true",
                        help="skip mdbook-admonish and mdbook-toc")
    parser.add_argument("--no-mdbook-build", action="store_true",
                        help="skip the `mdbook build` of the Rust Book")
    parser.add_argument("--no-build", action="store_true",
                        help="use the binaries already built")
    parser.add_argument("--book", action="store_true",
                        help="also copy the plot to book/performance-plot.svg")
    parser.add_argument("--activity-only", action="store_true",
                        help="only the activity measurement (a 30,000-commit history)")
    parser.add_argument("--plot-only", action="store_true",
                        help="only draw the plot again from target/bench/results.json")
    parser.add_argument("--ownership-only", action="store_true",
                        help="only the coverage of generated repositories (Who owns what)")
    parser.add_argument("--roster-only", action="store_true",
                        help="only the Markdown roster's growth (issue 38's shapes)")
    args = parser.parse_args()
    if args.plot_only:
        return replot(args)
    if args.ownership_only:
        return ownership_only(args)
    if args.roster_only:
        return roster_growth_only(args)
    if args.rounds is None:
        args.rounds = 0 if args.quick else 7
    sizes = [int(s) for s in (args.sizes or ("100,1000" if args.quick else
                                              "1000,10000,50000")).split(",")]
    started = time.monotonic()
    work = REPO / "target" / "bench"
    work.mkdir(parents=True, exist_ok=True)
    corpus = Path(os.environ.get("MDBOOK_COMMUNITY_CORPUS", REPO.parent / "shared" / "corpus"))
    if not (corpus / "inputs").is_dir():
        log(f"{corpus} not found: the recorded inputs and the Rust Book build are skipped")
        corpus = None

    tools = Tools(args)
    if not args.no_build:
        tools.build()
    if args.activity_only:
        try:
            activity = activity_cost(tools, work, 30_000, 7)
        except Failure as e:
            log(f"FAILED: {e}")
            return 1
        print(activity_section(activity))
        return 0
    tools.install_peers()
    if corpus is not None:
        tools.find_mdbook()

    log("generating inputs")
    root = make_root(work)
    inputs = make_inputs(work, root, corpus, sizes)
    results: dict = {}
    try:
        run_inputs(tools, work, root, inputs, args.rounds, results)
        rust_book = None
        if corpus is not None and tools.mdbook is not None:
            log("mdbook build of the Rust Book")
            rust_book = rust_book_build(tools, work, corpus, args.rounds)
        checks = None
        if tools.mdbook is not None:
            log("check against build")
            checks = check_cost(tools, work, 1 if args.quick else 5)
        lychee = None
        if corpus is not None and tools.mdbook is not None and not args.quick:
            log("lychee comparison")
            lychee = lychee_comparison(tools, work, corpus, 3)
        log("supports")
        supports = supports_latency(tools, work, 10 if args.quick else 100)
        drift = None
        if corpus is not None:
            log("drift check")
            drift = drift_check_cost(tools, work, corpus, 3 if args.quick else 20)
        log("Markdown roster")
        markdown = markdown_roster_cost(tools, work, [1000, 10000] if args.quick else [10000, 100000],
                                        1 if args.quick else 5)
        log("Markdown roster growth")
        growth = roster_growth_cost(tools, work, args.quick, 1 if args.quick else 3)
        log("activity from the git history")
        activity = activity_cost(tools, work, 3_000 if args.quick else 30_000,
                                 1 if args.quick else 7)
        log("who owns what")
        ownership_sizes = OWNERSHIP_SIZES_QUICK if args.quick else OWNERSHIP_SIZES
        ownership = ownership_cost(tools, work, ownership_sizes, 1 if args.quick else 5)
        largest = max((i for i in inputs if i.generated and i.per_chapter == 10
                       and i.shape == "0.5" and i.peer_work is None), key=lambda i: i.chapters)
        data_reads = data_file_reads(tools, work, root, largest)
        if data_reads is not None and any(v != 1 for v in data_reads.values()):
            raise Failure(f"data files not read exactly once per run: {data_reads}")
    except Failure as e:
        log(f"FAILED: {e}")
        return 1

    elapsed = time.monotonic() - started
    text, summary = report(inputs, results, rust_book, supports, drift, data_reads, tools, args,
                           elapsed, lychee, checks, markdown, activity)
    text += "\n" + "\n".join(ownership_report(ownership, ownership_sizes)) + "\n"
    text += "\n".join(roster_growth_report(growth, args.quick)) + "\n"
    (work / "results.md").write_text(text)
    raw = {
        "inputs": {i.name: {"bytes": i.size, "chapters": i.chapters, "shape": i.shape,
                            "generated": i.generated, "directives_per_chapter": i.per_chapter}
                   for i in inputs},
        # Each sample: [wall seconds, max RSS bytes, CPU seconds].
        "runs": [{"tool": tool, "input": name, "samples": [[s.wall, s.rss, s.cpu] for s in samples]}
                 for (tool, name), samples in results.items()],
        "rust_book": {k: [[s.wall, s.rss, s.cpu] for s in v] for k, v in (rust_book or {}).items()},
        "supports": {k: [[s.wall, s.rss, s.cpu] for s in v] for k, v in supports.items()},
        "drift_check": {k: [[s.wall, s.rss, s.cpu] for s in v] for k, v in (drift or {}).items()},
        "data_file_reads": data_reads,
        "lychee": lychee,
        "markdown_roster": {str(n): [[s.wall, s.rss, s.cpu] for s in v]
                            for n, v in (markdown or {}).items()},
        "activity": {"commits": activity["commits"],
                     "runs": {k: [[s.wall, s.rss, s.cpu] for s in v]
                              for k, v in activity["samples"].items()}},
        "ownership": {k: [[s.wall, s.rss, s.cpu] for s in v] for k, v in ownership.items()},
        "roster_growth": {k: [[s.wall, s.rss, s.cpu] for s in v] for k, v in growth.items()},
        "check_against_build": {book: {k: [[s.wall, s.rss, s.cpu] for s in v]
                                       for k, v in runs.items()}
                                for book, runs in (checks or {}).items()},
        **summary,
    }
    (work / "results.json").write_text(json.dumps(raw, indent=1))
    svg_plot(inputs, results, work / "plot.svg")
    if args.book:
        shutil.copy(work / "plot.svg", REPO / "book" / "performance-plot.svg")
    print(text)
    log(f"results: {work / 'results.md'}, {work / 'results.json'}, {work / 'plot.svg'}")
    log(f"all outputs valid; {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
