#!/usr/bin/env bash
# The one test command (make test, and .ci/run): installs what is missing, then runs every layer
# and fails if any layer fails or runs zero tests.
#   1. native   cargo test (core, property tests, article tests)
#   2. browser  wasm-pack test --headless --chrome (core tests compiled to wasm, Yew component tests)
#   3. e2e      dist/ served on 127.0.0.1, Playwright + Debian Chromium (tests/e2e/*.test.mjs)
#   4. lint     core-import check (and no import circle in src/ui), every word in src/ui/text,
#               components of at most 70 lines, cargo fmt --check, clippy -D warnings (functions
#               of at most 70 lines among them) on native and wasm32
#   5. pg       a throwaway PostgreSQL (scripts/pg.sh): the services as SQL, forced schedules and
#               a short 10-connection race (tests/pg.rs), then the server is stopped; then the
#               same from a clone in a mode-700 folder, as root and as `nobody` when run as
#               root (scripts/pg-private-check.sh)
# Run one layer alone: scripts/test.sh native|browser|e2e|lint|pg
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
source scripts/env.sh
layers="${*:-lint native browser e2e pg}"
logdir=target/test-logs
mkdir -p "$logdir"
total=0
summary=""

count_rust() { # sums "test result: ok. N passed" / "N failed" lines
  awk '/test result:/ { for (i = 1; i <= NF; i++) { if ($(i) ~ /^passed/) p += $(i-1); if ($(i) ~ /^failed/) f += $(i-1) } } END { printf "%d %d\n", p, f }' "$1"
}
need_tests() { # layer passed
  if [ "$2" -le 0 ]; then echo "[test] layer '$1' ran zero tests: that is a failure" >&2; exit 1; fi
  total=$((total + $2)); summary="$summary  $1: $2 passed\n"
}

disk_free() { df -h . | awk 'NR == 2 { print $4 }'; }
for layer in $layers; do
  # A full disk kills the linker without a message (it writes through mmap); say what was free.
  echo "[test] $layer: $(disk_free) free on the disk"
  case "$layer" in
    lint)
      echo "[test] lint: core imports, words, component length, rustfmt, clippy (native and wasm32)"
      scripts/check-core-imports.sh
      scripts/check-words.sh
      scripts/check-component-length.sh
      cargo fmt --all -- --check
      cargo clippy --all-targets -- -D warnings
      cargo clippy --all-targets --target wasm32-unknown-unknown -- -D warnings
      cargo clippy --all-targets --features pg -- -D warnings
      summary="$summary  lint: clean\n"
      ;;
    native)
      echo "[test] native: cargo test"
      cargo test 2>&1 | tee "$logdir/native.log"
      read -r p f < <(count_rust "$logdir/native.log")
      need_tests native "$p"
      ;;
    browser)
      echo "[test] browser: wasm-pack test --headless --chrome"
      CHROMEDRIVER=/usr/bin/chromedriver wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver 2>&1 | tee "$logdir/browser.log"
      read -r p f < <(count_rust "$logdir/browser.log")
      need_tests browser "$p"
      # On CI the linked test binaries are not needed again: give their space to the layers after.
      if [ -n "${CI:-}" ]; then rm -f target/wasm32-unknown-unknown/debug/deps/*.wasm; fi
      ;;
    e2e)
      echo "[test] e2e: build dist/, serve it, drive it with Playwright"
      scripts/e2e.sh 2>&1 | tee "$logdir/e2e.log"
      p=$(awk '/^# pass /{print $3}' "$logdir/e2e.log" | tail -1)
      need_tests e2e "${p:-0}"
      ;;
    pg)
      echo "[test] pg: a throwaway PostgreSQL, the services as SQL on it (tests/pg.rs)"
      scripts/pg.sh run cargo test --features pg --test pg -- --test-threads=1 2>&1 | tee "$logdir/pg.log"
      read -r p f < <(count_rust "$logdir/pg.log")
      need_tests pg "$p"
      # The same server must start from a clone in a private (mode 700) folder, as /root is.
      echo "[test] pg: the throwaway PostgreSQL from a clone in a private folder (scripts/pg-private-check.sh)"
      pgtests=$(cargo test --features pg --test pg --no-run --message-format=json 2>/dev/null \
        | grep '"kind":\["test"\]' | grep '"name":"pg"' \
        | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1)
      scripts/pg-private-check.sh "$pgtests" --test-threads=1 \
        the_unsafe_variants_double_charge_on_the_labs_counterexample 2>&1 | tee "$logdir/pg-private.log"
      read -r p f < <(count_rust "$logdir/pg-private.log")
      need_tests "pg (private folder)" "$p"
      ;;
    *) echo "unknown layer '$layer' (native, browser, e2e, lint, pg)" >&2; exit 2 ;;
  esac
done
printf '[test] all layers green:\n%b' "$summary"
echo "${total} passed, 0 failed"
