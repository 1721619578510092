#!/usr/bin/env python3
"""An independent reference for `mdbook-community owners --format json`.

Reads a request (JSON) on stdin, or a list of them, and prints, for every
path, who owns it (a list of answers for a list):

  {"kind": "codeowners", "codeowners": "PATH", "paths": [...]}
      -> {"PATH": {"owners": ["@a", ...], "line": 3 | null}}
  {"kind": "owners", "root": "DIR", "files": [...], "paths": [...]}
      -> {"PATH": {"approvers": [...], "reviewers": [...]}}
  {"kind": "gitlab", "codeowners": "PATH", "paths": [...]}
      -> {"PATH": {"owners": ["@a", ...], "lines": [3, 9]}}

CODEOWNERS: each line is split into a pattern and owners by hand, the
pattern matched by Python's `pathspec` (gitignore's rules, "gitwildmatch"),
the last matching rule winning, as GitHub documents. One rule of GitHub's
differs from gitignore and is applied here on top: a trailing `/*` matches
the direct children of a folder only ("docs/*" owns docs/a.md, not
docs/guide/a.md).

GitLab: written from GitLab's documentation ("Syntax of CODEOWNERS file",
"Advanced CODEOWNERS configuration") and the pattern normalisation of
Gitlab::CodeOwners::File: a header `[Name]`, `^[Name]` or `[Name][N]`,
optionally followed by default owners, starts a section (names compared
without case, same-named sections merged); entries before any header are
in an unnamed section; an entry without owners takes its section's
default owners; in each section the last matching entry applies, and a
path's owners are those of every section together, first section first;
an entry `!pattern` whose match is its section's last leaves that section
out. Owners are the words that are `@name`, `@@role` or e-mail addresses
(GitLab has no inline comments). A pattern `*` is every file; one without
a leading `/` gets `/**/` before it; one with a trailing `/` gets `**/*`
after it; `**` not followed by `/` is `*`; the result is matched against
`/PATH` by `wcmatch` with GLOBSTAR and DOTGLOB, as Ruby's File.fnmatch
with FNM_PATHNAME | FNM_DOTMATCH.

OWNERS: Prow's algorithm (sigs.k8s.io/prow/pkg/repoowners), written again
from its Go source: every OWNERS file is read with PyYAML; a file with
top-level approvers, reviewers, required_reviewers or labels is a "simple"
config and its filters are ignored, otherwise its filters apply (".*" to
every path, any other as a regular expression searched for in the path
relative to the OWNERS file's folder); emeritus_approvers are ignored;
logins are lower case without "@"; an entry naming an alias of the root's
OWNERS_ALIASES becomes its members; each path's approvers (and, on their
own, reviewers) are collected from the path itself up to the root, stopping
after a folder with `options: no_parent_owners: true` once some have been.
A file that YAML cannot read, or whose lists are not lists of strings, is
left out, as Prow leaves it out.
"""

import json
import os
import re
import sys

import pathspec
import yaml
from wcmatch import glob as wcglob


def split_codeowners_line(line):
    """(pattern, owners) of one line, or None for blank lines and comments."""
    line = line.rstrip("\r")
    i = 0
    while i < len(line) and line[i] in " \t":
        i += 1
    if i == len(line) or line[i] == "#":
        return None
    start = i
    while i < len(line) and line[i] not in " \t":
        i += 2 if line[i] == "\\" else 1
    pattern = line[start:i]
    owners = []
    for word in line[i:].split():
        if word.startswith("#"):
            break
        owners.append(word)
    return pattern, owners


SPECS = {}


def codeowners_matches(pattern, path):
    spec = SPECS.get(pattern)
    if spec is None:
        spec = SPECS[pattern] = pathspec.PathSpec.from_lines("gitwildmatch", [pattern])
    if not spec.match_file(path):
        return False
    body = pattern.lstrip("/")
    if body.endswith("/*") and not body.endswith("\\*") and "**" not in body:
        # GitHub: `dir/*` owns the folder's direct children only.
        return len(path.split("/")) == len(body.split("/"))
    return True


def codeowners(request):
    with open(request["codeowners"], encoding="utf-8") as f:
        lines = f.read().split("\n")
    rules = []
    for number, line in enumerate(lines, start=1):
        parsed = split_codeowners_line(line)
        if parsed is not None:
            rules.append((number, parsed[0], parsed[1]))
    out = {}
    for path in request["paths"]:
        decided = {"owners": [], "line": None}
        for number, pattern, owners in rules:
            if codeowners_matches(pattern, path):
                decided = {"owners": owners, "line": number}
        out[path] = decided
    return out


GITLAB_HEADER = re.compile(r"^(\^)?\[([^\]]*)\](?:\[([^\]]*)\])?(?:\s+(.*))?$")
GITLAB_OWNER = re.compile(r"^(@@[A-Za-z]+|@[A-Za-z0-9_.\-]+(/[A-Za-z0-9_.\-]+)*|[^@\s]+@[^@\s]+\.[A-Za-z]{2,})$")


ROLES = ("developer", "developers", "maintainer", "maintainers", "owner", "owners")


def gitlab_owner(word):
    if word.startswith("@@"):
        return word[2:].lower() in ROLES
    return bool(GITLAB_OWNER.match(word))


def gitlab_owners(words):
    return [w for w in words if gitlab_owner(w)]


def gitlab_glob(pattern):
    if pattern.startswith("\\#"):
        pattern = "#" + pattern[2:]
    pattern = re.sub(r"\\\s", " ", pattern)
    if pattern == "*":
        return "/**/*"
    if not pattern.startswith("/"):
        pattern = "/**/" + pattern
    if pattern.endswith("/"):
        pattern = pattern + "**/*"
    # Ruby's fnmatch: `**` is recursive only before a `/`.
    return re.sub(r"\*\*(?!/)", "*", pattern)


def gitlab(request):
    with open(request["codeowners"], encoding="utf-8") as f:
        lines = f.read().split("\n")
    sections = {"": 0}
    rules = []  # (line, section, excluded, glob, owners)
    current, defaults = 0, []
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r").strip()
        if not line or line.startswith("#"):
            continue
        header = GITLAB_HEADER.match(line)
        if header and header.group(2).strip():
            name = header.group(2).strip().lower()
            current = sections.setdefault(name, len(sections))
            defaults = gitlab_owners((header.group(4) or "").split())
            continue
        i = 0
        while i < len(line) and line[i] not in " \t":
            i += 2 if line[i] == "\\" else 1
        pattern, owners = line[:i], gitlab_owners(line[i:].split())
        excluded = pattern.startswith("!")
        if excluded:
            pattern = pattern[1:]
        if not owners and not excluded:
            owners = defaults
        rules.append((number, current, excluded, gitlab_glob(pattern), owners))
    flags = wcglob.GLOBSTAR | wcglob.DOTGLOB
    out = {}
    for path in request["paths"]:
        decided = {}
        for number, section, excluded, pattern, owners in rules:
            if wcglob.globmatch("/" + path, pattern, flags=flags):
                decided[section] = (number, excluded, owners)
        owners, numbers = [], []
        for section in sorted(decided):
            number, excluded, section_owners = decided[section]
            if excluded:
                continue
            numbers.append(number)
            for owner in section_owners:
                if owner.lower() not in [o.lower() for o in owners]:
                    owners.append(owner)
        out[path] = {"owners": owners, "lines": numbers}
    return out


def norm(login):
    return str(login).strip().lstrip("@").lower()


def string_list(value):
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("not a list of strings")
    return value


def read_yaml(path):
    try:
        with open(path, encoding="utf-8") as f:
            return yaml.safe_load(f) or {}
    except (OSError, yaml.YAMLError):
        return None


def load_aliases(root, files):
    if "OWNERS_ALIASES" not in files:
        return {}
    data = read_yaml(os.path.join(root, "OWNERS_ALIASES"))
    aliases = {}
    for name, members in ((data or {}).get("aliases") or {}).items():
        aliases[norm(name)] = {norm(m) for m in members or []}
    return aliases


def expand(logins, aliases):
    out = set()
    for login in logins:
        login = norm(login)
        out |= aliases.get(login, {login})
    return out


def load_owners(root, files, aliases):
    """folder -> (no_parent_owners, [(regex or None, approvers, reviewers)])."""
    tree = {}
    for file in files:
        if file.split("/")[-1] != "OWNERS":
            continue
        folder = file.rsplit("/", 1)[0] if "/" in file else ""
        data = read_yaml(os.path.join(root, file))
        if not isinstance(data, dict):
            continue
        try:
            simple = any(string_list(data.get(key)) for key in
                         ("approvers", "reviewers", "required_reviewers", "labels"))
            string_list(data.get("emeritus_approvers"))
            blocks = []
            if simple:
                blocks.append((None, string_list(data.get("approvers")),
                               string_list(data.get("reviewers"))))
            else:
                for key, config in (data.get("filters") or {}).items():
                    config = config or {}
                    regex = None if key == ".*" else re.compile(key)
                    blocks.append((regex, string_list(config.get("approvers")),
                                   string_list(config.get("reviewers"))))
        except (ValueError, re.error, AttributeError):
            continue
        options = data.get("options") or {}
        tree[folder] = (options.get("no_parent_owners") is True,
                        [(r, expand(a, aliases), expand(v, aliases)) for r, a, v in blocks])
    return tree


def collect(tree, path, which):
    out = set()
    folder = path
    while True:
        if folder in tree:
            no_parent, blocks = tree[folder]
            if folder == "":
                relative = path
            elif folder == path:
                relative = "."
            else:
                relative = path[len(folder) + 1:]
            for regex, approvers, reviewers in blocks:
                if regex is None or regex.search(relative):
                    out |= approvers if which == "approvers" else reviewers
            if folder == "":
                break
            if no_parent and out:
                break
        elif folder == "":
            break
        folder = folder.rsplit("/", 1)[0] if "/" in folder else ""
    return sorted(out)


def owners(request):
    root, files = request["root"], set(request["files"])
    tree = load_owners(root, sorted(files), load_aliases(root, files))
    return {path: {"approvers": collect(tree, path.strip("/"), "approvers"),
                   "reviewers": collect(tree, path.strip("/"), "reviewers")}
            for path in request["paths"]}


def answer(request):
    kinds = {"codeowners": codeowners, "gitlab": gitlab, "owners": owners}
    return kinds[request["kind"]](request)


def main():
    request = json.load(sys.stdin)
    if isinstance(request, list):
        result = [answer(r) for r in request]
    else:
        result = answer(request)
    json.dump(result, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
