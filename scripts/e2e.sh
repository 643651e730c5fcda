#!/usr/bin/env bash
# End-to-end: builds dist/, checks every page's weight against its budget (scripts/budgets.mjs;
# a failure names the page, the language, the size, the budget and the excess), serves dist/ on
# 127.0.0.1 on a free port, runs the Playwright tests in tests/e2e/*.test.mjs with node's test
# runner, and stops the server whatever the outcome.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
[ "${SKIP_BUILD:-}" = 1 ] || scripts/build.sh
node scripts/check-budgets.mjs dist
mkdir -p target/e2e
portfile=$(mktemp)
node scripts/serve-dist.mjs dist "$portfile" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$portfile"' EXIT
for _ in $(seq 1 50); do [ -s "$portfile" ] && break; sleep 0.1; done
[ -s "$portfile" ] || { echo "[e2e] static server did not start" >&2; exit 1; }
export BASE_URL="http://127.0.0.1:$(cat "$portfile")/"
echo "[e2e] serving dist/ at $BASE_URL"
node --test --test-concurrency=1 tests/e2e/
