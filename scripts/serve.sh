#!/usr/bin/env bash
# Builds the release site (every page) and serves dist/ on http://127.0.0.1:8080, each wasm, JS,
# CSS, HTML and SVG file as the .br or .gz copy the build wrote when the browser accepts it.
# Re-run after a change (it rebuilds); Trunk's own server cannot serve the two pages together.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
scripts/build.sh
echo "[serve] the playground is at http://127.0.0.1:8080/ and the lab at http://127.0.0.1:8080/lab/ (Ctrl-C stops)"
exec node scripts/serve-dist.mjs dist "" 8080
