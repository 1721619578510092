#!/usr/bin/env bash
# The real-browser test: builds the guide and the example book with the
# mdBook in $MDBOOK (default: `mdbook` on PATH), serves them on localhost and
# checks, in headless Chromium, what a reader sees (FAQ entries, search,
# maintainer lists, console errors), with screenshots of every built-in
# theme in target/screenshots/.
#
#   bash browser-test/run.sh
#   MDBOOK=/opt/mdbook-0.4.52/bin/mdbook bash browser-test/run.sh
#
# Needs: cargo, Node 20+ with npm, and Chromium at /usr/bin/chromium (installed
# with apt-get when missing). Nothing downloads a browser: the driver is
# playwright-core, which has no install step.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
started=$(date +%s)

step() { printf '\n=== %s (%s)\n' "$1" "$(date +%T)"; }
fail() { echo "browser-test: $*" >&2; exit 1; }

mdbook_cmd=${MDBOOK:-mdbook}
MDBOOK_BIN=$(command -v "$mdbook_cmd") || fail "no mdBook: \`$mdbook_cmd\` not found (set MDBOOK)"
case "$MDBOOK_BIN" in /*) ;; *) MDBOOK_BIN="$repo/$MDBOOK_BIN" ;; esac
mdbook_version=$("$MDBOOK_BIN" --version | awk '{print $2}')

step "Chromium"
if [ ! -x /usr/bin/chromium ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi
/usr/bin/chromium --version 2>/dev/null

step "driver (npm ci)"
(cd browser-test && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)

step "the example's installed assets match assets/"
for f in mdbook-community.css mdbook-community.js; do
  cmp -s "assets/$f" "examples/community/$f" ||
    fail "examples/community/$f is out of date: run \`cargo run -- install examples/community\`"
done

step "build the plugin"
cargo build --release --quiet

# Builds a book and fails on any warning or error in mdBook's output.
build_book() {
  local name=$1 dir=$2 out=$3 log
  log=$(mktemp)
  rm -rf "$out"
  # From the book's own folder: mdBook 0.4 runs a preprocessor's `command`
  # in the current directory (0.5 in the book's root), and silently skips a
  # preprocessor whose command cannot run.
  if ! (cd "$dir" && "$MDBOOK_BIN" build) >"$log" 2>&1; then
    cat "$log"
    fail "$name: mdbook build failed"
  fi
  cat "$log"
  if grep -E 'WARN|ERROR|warning:|error:|\[warn|\[error' "$log" >/dev/null; then
    fail "$name: mdbook build printed warnings or errors"
  fi
  grep -q 'class="community-faq-entry"' "$out"/*.html ||
    fail "$name: no FAQ entries in $out: did the preprocessor run?"
  rm -f "$log"
}

step "build the guide and the example with mdBook $mdbook_version ($MDBOOK_BIN)"
build_book guide . target/book
build_book example examples/community target/examples/community

step "browser checks"
export SCREENSHOT_DIR="$repo/target/screenshots/mdbook-$mdbook_version"
rm -rf "$SCREENSHOT_DIR"
status=0
node browser-test/test.js "$repo" || status=$?

echo "mdBook $mdbook_version, $(( $(date +%s) - started )) s in all; screenshots in ${SCREENSHOT_DIR#"$repo"/}"
exit $status
