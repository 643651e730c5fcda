#!/usr/bin/env bash
# Serves the release build on http://127.0.0.1:8080 (Trunk rebuilds on change).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
echo "[serve] the playground will be at http://127.0.0.1:8080/ once the first build finishes"
exec trunk serve --release --offline --address 127.0.0.1 --port 8080
