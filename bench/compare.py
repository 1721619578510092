#!/usr/bin/env python3
"""Compares two builds of the plugin side by side, for a change's commit
message: `python3 bench/compare.py OLD_BINARY NEW_BINARY [INPUT...]`.

Runs both binaries (and the identity) on each input, interleaved, `--rounds`
times, and prints median wall and CPU time of each as a multiple of the
identity's, and NEW ÷ OLD. With `--instructions`, also counts instructions
with callgrind (exact, unaffected by load; slow, so use small inputs).

INPUTs default to target/bench/inputs/*.0.5.json from the last
`bench/run.sh`; the runs happen in target/bench/root, the generated books'
root, so directives find their data files.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run as bench  # noqa: E402


def instructions(exe: str, path: Path, cwd: Path) -> int:
    with open(path, "rb") as fin:
        p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", exe],
                           stdin=fin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
    found = re.search(rb"Collected : (\d+)", p.stderr)
    if p.returncode != 0 or not found:
        raise SystemExit(f"callgrind failed on {path}: {p.stderr[-500:]!r}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("inputs", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--instructions", action="store_true")
    args = parser.parse_args()
    args.old, args.new = str(Path(args.old).resolve()), str(Path(args.new).resolve())
    args.inputs = [path.resolve() for path in args.inputs]
    work = bench.REPO / "target" / "bench"
    root = work / "root"
    inputs = args.inputs or sorted((work / "inputs").glob("*.0.5.json"))
    tools = bench.Tools(argparse.Namespace(quick=True))
    exes = {"identity": str(tools.identity), "old": args.old, "new": args.new}
    samples: dict = {}
    for r in range(args.rounds):
        jobs = [(name, path) for path in inputs for name in exes]
        random.Random(r).shuffle(jobs)
        for name, path in jobs:
            sample = bench.measured(tools, work, [exes[name]], path, None, None, root)
            if sample.code != 0:
                raise SystemExit(f"{name} failed on {path}")
            samples.setdefault((name, path), []).append(sample)
    print("| Input | old ÷ identity (wall / CPU) | new ÷ identity (wall / CPU) "
          "| new ÷ old (wall / CPU) | new ÷ old (peak RSS)"
          + (" | new ÷ old (instructions)" if args.instructions else "") + " |")
    print("|---|--:|--:|--:|--:|" + ("--:|" if args.instructions else ""))
    for path in inputs:
        wall = {n: statistics.median(s.wall for s in samples[(n, path)]) for n in exes}
        cpu = {n: statistics.median(s.cpu for s in samples[(n, path)]) for n in exes}
        row = (f"| {path.name} | {wall['old'] / wall['identity']:.2f}× / "
               f"{cpu['old'] / cpu['identity']:.2f}× | {wall['new'] / wall['identity']:.2f}× / "
               f"{cpu['new'] / cpu['identity']:.2f}× | {wall['new'] / wall['old']:.2f}× / "
               f"{cpu['new'] / cpu['old']:.2f}×")
        rss = {n: statistics.median(s.rss for s in samples[(n, path)]) for n in exes}
        row += f" | {rss['new'] / rss['old']:.3f}× ({rss['old'] / 2**20:.0f} → {rss['new'] / 2**20:.0f} MiB)"
        if args.instructions:
            old, new = instructions(args.old, path, root), instructions(args.new, path, root)
            row += f" | {new / old:.3f}× ({old / 1e6:.0f}M → {new / 1e6:.0f}M)"
        print(row + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
