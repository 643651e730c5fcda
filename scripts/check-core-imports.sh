#!/usr/bin/env bash
# Architecture invariant: the simulation core (src/sim) never imports the UI's crates.
set -euo pipefail
cd "$(dirname "$0")/.."
hits=$(grep -rnE '\b(yew|web_sys|gloo|gloo_timers|wasm_bindgen|wasm_bindgen_futures|js_sys)\b' src/sim || true)
if [ -n "$hits" ]; then
  echo "core-imports: FAILED — src/sim must not use UI or browser crates:" >&2
  echo "$hits" >&2
  exit 1
fi
echo "core-imports: src/sim uses no yew, web-sys, gloo, wasm-bindgen or js-sys"
