#!/usr/bin/env bash
# The performance benchmark (see book/performance.md):
#   bash bench/run.sh            # the full run: about 10 minutes
#   bash bench/run.sh --quick    # small books, one run each, as CI runs it
# Builds the release binaries, installs mdbook-admonish and mdbook-toc into
# target/bench-tools on first use, and prints the results table; the files
# are in target/bench/. Needs Rust, Python 3 and, for the recorded inputs and
# the Rust Book build, ../shared/corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/run.py "$@"
