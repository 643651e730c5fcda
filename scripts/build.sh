#!/usr/bin/env bash
# Builds the release site into dist/ with relative asset URLs, so it works from any static host
# and from a sub-path such as /repo-name/. Two pages, each with its own wasm:
#   dist/index.html      the playground (scenarios, sandbox)   <- index.html, bin `playground`
#   dist/lab/index.html  the concurrency lab                  <- lab/index.html, bin `lab`
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
# The playground first: Trunk empties its dist folder, so the other pages go in after it.
trunk build --release --offline --public-url ./ "$@"
trunk build --release --offline --public-url ./ --dist dist/lab "$@" lab/index.html
trunk build --release --offline --public-url ./ --dist dist/properties "$@" properties/index.html
echo "[build] dist/ is ready: $(du -sh dist | cut -f1) ($(ls dist | tr '\n' ' ')), dist/lab/ ($(ls dist/lab | tr '\n' ' ')) and dist/properties/ ($(ls dist/properties | tr '\n' ' '))"
