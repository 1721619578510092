#!/usr/bin/env bash
# Builds the fuzz corpora fuzz/corpus/<target>/ from real files.
#
#   bash fuzz/seed.sh [SHARED_CORPUS]     # default: ../shared/corpus beside the repository
#
# Sources (read only; nothing is copied into git, fuzz/corpus is ignored):
#   chapter     Markdown of the five books, the CommonMark and GFM spec examples
#               (one file per example), the community docs under others/ and
#               pytorch-community/, and this repository's own guide (book/*.md);
#   args        the argument text of every {{#name ...}} call in that Markdown;
#   people      TOML and JSON data files (rust-lang/team, all-contributors) and
#               this repository's maintainers.toml;
#   codeowners  CODEOWNERS, OWNERS, MAINTAINERS and similar files;
#   owners_yaml, maintainers_csv, all_contributors, markdown_roster,
#   maintainers_text, cncf_maintainers
#               real people files of each format (OWNERS and OWNERS_ALIASES,
#               containerd's MAINTAINERS, .all-contributorsrc, MAINTAINERS.md);
#   protocol    the recorded mdBook inputs (inputs/*.json), each chapter of them
#               as a one-chapter book, and truncated copies.
# Hand-written seeds stay in fuzz/seeds/<target>/ and are passed to the fuzzer
# by run.sh as a second corpus directory. Files are named by the SHA-1 of their
# contents, as libFuzzer names them, so running this twice adds nothing.
# Needs python3 (standard library only).
set -euo pipefail
fuzz=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$fuzz")
shared=${1:-$repo/../shared/corpus}
if [ ! -d "$shared" ]; then
  echo "seed.sh: $shared not found; only this repository's files are used" >&2
fi
if ! command -v python3 >/dev/null; then
  echo "seed.sh: python3 not found; corpora not seeded (the fuzzers still run from fuzz/seeds)" >&2
  exit 0
fi

python3 - "$fuzz/corpus" "$shared" "$repo" <<'PY'
import hashlib
import json
import os
import re
import sys
from pathlib import Path

out, shared, repo = (Path(p) for p in sys.argv[1:4])
counts = {}

# libFuzzer's default -max_len guess follows the largest seed; keep seeds
# below this so that runs stay fast (longer files are cut, not dropped;
# the recorded mdBook inputs are kept whole).
MAX_SEED = 64 * 1024


def add(target, data, whole=False):
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not whole:
        data = data[:MAX_SEED]
    directory = out / target
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / hashlib.sha1(data).hexdigest()
    if not path.exists():
        path.write_bytes(data)
        counts[target] = counts.get(target, 0) + 1


def files(base, pattern):
    if not base.is_dir():
        return []
    return sorted(p for p in base.glob(pattern) if p.is_file())


# chapter: Markdown, as chapters.
markdown = []
for book in ["rust-book", "mdbook-guide", "rust-by-example", "reference", "rustc-dev-guide"]:
    markdown += files(shared / book, "**/*.md")
for community in ["others", "pytorch-community"]:
    markdown += files(shared / community, "**/*.md")
markdown += files(repo / "book", "**/*.md")
markdown += [repo / "CONTRIBUTING.md", repo / "README.md", repo / "CHANGELOG.md"]
for path in markdown:
    add("chapter", path.read_bytes())
for spec in ["commonmark/commonmark-spec/spec.json", "commonmark/cmark-gfm/test/spec.json"]:
    path = shared / spec
    if path.is_file():
        for example in json.loads(path.read_text(encoding="utf-8")):
            add("chapter", example["markdown"])

# args: the argument text of every {{#name ...}} call.
call = re.compile(rb"\{\{#([A-Za-z0-9_-]+)([^\n]*?)\}\}")
for path in markdown:
    for match in call.finditer(path.read_bytes()):
        add("args", match.group(2).strip())

# people: data files, TOML and JSON.
people = files(shared / "others" / "rust-lang-team", "**/*.toml")
people += files(shared / "others" / "all-contributors", ".all-contributorsrc")
people += [repo / "maintainers.toml"]
for path in people:
    add("people", path.read_bytes())

# codeowners: owner files of every flavour.
owner_names = re.compile(r"^(CODEOWNERS|OWNERS.*|MAINTAINERS.*|SECURITY_.*|EMERITUS.*)$")
for base in [shared / "others", shared / "pytorch-community"]:
    for path in files(base, "**/*"):
        if owner_names.match(path.name):
            add("codeowners", path.read_bytes())
add("codeowners", (repo / "CODEOWNERS").read_bytes())

# protocol: recorded mdBook inputs, one-chapter books cut from them, and
# truncated copies.
def chapters(items):
    for item in items:
        if isinstance(item, dict) and "Chapter" in item:
            yield item["Chapter"]
            yield from chapters(item["Chapter"].get("sub_items", []))


for path in files(shared / "inputs", "*.json"):
    raw = path.read_bytes()
    add("protocol", raw, whole=True)
    for cut in [len(raw) // 2, 4096, 1000, 200]:
        add("protocol", raw[:cut])
    context, book = json.loads(raw)
    key = "items" if "items" in book else "sections"
    for chapter in chapters(book[key]):
        one = dict(chapter, sub_items=[])
        small = {k: v for k, v in book.items() if k != key}
        small[key] = [{"Chapter": one}]
        add("protocol", json.dumps([context, small]))

# The roster formats: real files of each (and this repository's own).
rosters = {
    "owners_yaml": [p for p in files(shared / "others", "**/OWNERS*")],
    "maintainers_csv": files(shared / "others" / "containerd-project", "MAINTAINERS")
    + files(shared / "others" / "containerd-project", "SECURITY_ADVISORS"),
    "all_contributors": files(shared / "others" / "all-contributors", ".all-contributorsrc"),
    "markdown_roster": files(shared / "others" / "maintainers-md", "*")
    + files(shared / "others", "**/MAINTAINERS.md"),
    "maintainers_text": files(shared / "others" / "people-files", "**/MAINTAINERS*"),
    # cncf/automation's example, template and test files.
    "cncf_maintainers": files(repo / "tests" / "data" / "cncf-maintainers", "*.yaml"),
}
for target, paths in rosters.items():
    for path in paths:
        add(target, path.read_bytes())

for target in sorted(counts):
    print(f"seed.sh: {counts[target]} new seeds in corpus/{target}")
PY
