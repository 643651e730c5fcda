#!/usr/bin/env bash
# Benchmarks: native (cargo bench) and the same workloads in headless Chromium (wasm-pack test
# --release with the wasm-bench feature), plus the page weight and the load benchmark (each
# page's time to interactive on a slow phone beside a Yew hello-world page, benches/load.mjs).
# Prints figures for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
mkdir -p target/bench
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), rustc $(rustc -V | cut -d' ' -f2)"
echo "== native"
cargo bench --bench core 2>&1 | tee target/bench/native-core.txt | grep -v '^\s*Compiling\|Finished\|Running'
cargo bench --bench lab 2>&1 | tee target/bench/native-lab.txt | grep -v '^\s*Compiling\|Finished\|Running'
cargo bench --bench properties 2>&1 | tee target/bench/native-properties.txt | grep -v '^\s*Compiling\|Finished\|Running'
echo "== headless Chromium (wasm, release)"
for t in wasm_bench_core wasm_bench_lab wasm_bench_ui wasm_bench_props; do
  [ -f "tests/$t.rs" ] || continue
  # cargo test with the wasm-bindgen runner: the most direct way to pick one test file and keep
  # its console output (wasm-pack's argument forwarding moves --test around).
  CHROMEDRIVER=/usr/bin/chromedriver CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    cargo test --release --target wasm32-unknown-unknown --features wasm-bench --test "$t" -- --nocapture 2>&1 | tee "target/bench/$t.txt" | grep -E '^core/|bench|^[|]|test result' || true
done
echo "== page weight (release build, wasm-opt -Oz): each page downloads its own wasm and JS, in one language"
scripts/build.sh >/dev/null
node scripts/weigh.mjs dist | tee target/bench/weight.txt
echo "== load: each page's time to interactive beside a Yew hello world, slow 3G + 4x CPU and unthrottled, medians of 7"
benches/hello/build.sh >/dev/null
node benches/load.mjs | tee target/bench/load.txt
echo "== the heaviest accepted scenario in the page: longest task while importing and reloading it"
portfile=$(mktemp)
node scripts/serve-dist.mjs dist "$portfile" >/dev/null &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$portfile"' EXIT
for _ in $(seq 1 50); do [ -s "$portfile" ] && break; sleep 0.1; done
BASE_URL="http://127.0.0.1:$(cat "$portfile")/" node benches/longtask.mjs | tee target/bench/longtask.txt
echo "== property runs of 256 cases in the page (properties/): time from Run to the result"
BASE_URL="http://127.0.0.1:$(cat "$portfile")/" node benches/properties.mjs | tee target/bench/properties-page.txt
