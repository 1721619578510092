#!/usr/bin/env bash
# Runs every fuzz target, one after another, for SECONDS_PER_TARGET each.
#
#   bash fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]    # default: 30, all targets
#
# Installs cargo-fuzz if it is missing, seeds fuzz/corpus/ from
# ../shared/corpus when it exists beside the repository (fuzz/seed.sh), and
# exits non-zero if any target finds a crash, a hang (-timeout) or an OOM
# (-rss_limit_mb); what it found is in fuzz/artifacts/<target>/.
#
# The stable toolchain builds the targets with RUSTC_BOOTSTRAP=1 (cargo-fuzz
# needs -Z flags). They are built as cargo-fuzz builds by default (release,
# debug assertions and overflow checks on) but without a sanitizer: the crate
# forbids unsafe code, and AddressSanitizer made the targets 5 to 8 times
# slower on a 2-core machine. Environment:
#   FUZZ_SANITIZER=none|address   default none (address: AddressSanitizer)
#   FUZZ_KEEP_GOING=1             do not stop at the first crash: libFuzzer's
#                                 fork mode, every crash saved (for long runs)
set -euo pipefail
fuzz=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$fuzz")
cd "$fuzz"

seconds=${1:-30}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(chapter people codeowners args protocol data_text owners_yaml maintainers_csv all_contributors markdown_roster maintainers_text cncf_maintainers)
fi
sanitizer=${FUZZ_SANITIZER:-none}

export RUSTC_BOOTSTRAP=1
export CARGO_TERM_COLOR=never
# The targets write their temporary books under TMPDIR; keep them here.
export TMPDIR="$fuzz/target/tmp"
mkdir -p "$TMPDIR"

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "=== installing cargo-fuzz"
  cargo install --locked cargo-fuzz
fi

if [ -d "$repo/../shared/corpus" ]; then
  echo "=== seeding fuzz/corpus from ../shared/corpus"
  bash "$fuzz/seed.sh" "$repo/../shared/corpus"
fi

echo "=== building the fuzz targets (sanitizer: $sanitizer)"
cargo fuzz build -s "$sanitizer"

dict_of() {
  case $1 in
    chapter | args) echo "$fuzz/dict/markdown.dict" ;;
    markdown_roster)
      # The Markdown tokens and the roster's own: libFuzzer takes one file.
      mkdir -p "$fuzz/target"
      cat "$fuzz/dict/markdown.dict" "$fuzz/dict/markdown_roster.dict" >"$fuzz/target/markdown_roster.dict"
      echo "$fuzz/target/markdown_roster.dict" ;;
    all_contributors) echo "$fuzz/dict/protocol.dict" ;;
    *) echo "$fuzz/dict/$1.dict" ;;
  esac
}

# Options of one target. CODEOWNERS inputs are capped: compiling a few
# thousand globs takes seconds with debug assertions on, which is not a hang.
extra_options() {
  case $1 in
    codeowners) echo "-max_len=8192" ;;
  esac
}

failed=()
for target in "${targets[@]}"; do
  echo
  echo "=== fuzzing $target for ${seconds}s ($(date +%T))"
  mkdir -p "corpus/$target" "artifacts/$target" "seeds/$target"
  before=$(find "artifacts/$target" -type f | wc -l)
  options=(
    "-max_total_time=$seconds"
    -timeout=10
    -rss_limit_mb=2048
    "-dict=$(dict_of "$target")"
    -print_final_stats=1
    $(extra_options "$target")
  )
  if [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then
    options+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  status=0
  # New inputs go to the first directory; the hand-written seeds are read too.
  cargo fuzz run -s "$sanitizer" "$target" "corpus/$target" "seeds/$target" -- "${options[@]}" ||
    status=$?
  after=$(find "artifacts/$target" -type f | wc -l)
  if [ "$status" -ne 0 ] || [ "$after" -gt "$before" ]; then
    echo "=== $target FAILED (exit $status); see fuzz/artifacts/$target/" >&2
    failed+=("$target")
  else
    echo "=== $target: no crash, hang or OOM"
  fi
done

rm -rf "$TMPDIR"
if [ ${#failed[@]} -gt 0 ]; then
  echo
  echo "fuzzing found problems in: ${failed[*]}" >&2
  echo "reproduce with: RUSTC_BOOTSTRAP=1 cargo fuzz run TARGET fuzz/artifacts/TARGET/FILE (in fuzz/)" >&2
  exit 1
fi
echo
echo "=== fuzzing: all targets passed"
