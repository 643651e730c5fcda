#!/usr/bin/env bash
# Builds the release page into dist/ with relative asset URLs, so it works from any static host
# and from a sub-path such as /repo-name/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
trunk build --release --offline --public-url ./ "$@"
echo "[build] dist/ is ready: $(du -sh dist | cut -f1) ($(ls dist | tr '\n' ' '))"
