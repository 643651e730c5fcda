#!/usr/bin/env bash
# Builds the release site (both pages) and serves dist/ on http://127.0.0.1:8080.
# Re-run after a change (it rebuilds); Trunk's own server cannot serve the two pages together.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
scripts/build.sh
echo "[serve] the playground is at http://127.0.0.1:8080/ and the lab at http://127.0.0.1:8080/lab/ (Ctrl-C stops)"
exec node scripts/serve-dist.mjs dist "" 8080
