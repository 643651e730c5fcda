#!/usr/bin/env bash
# Benchmarks: native (cargo bench) and the same workloads in headless Chromium (wasm-pack test
# --release with the wasm-bench feature), plus the page weight. Prints figures for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
mkdir -p target/bench
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), rustc $(rustc -V | cut -d' ' -f2)"
echo "== native"
cargo bench --bench core 2>&1 | tee target/bench/native-core.txt | grep -v '^\s*Compiling\|Finished\|Running'
cargo bench --bench lab 2>&1 | tee target/bench/native-lab.txt | grep -v '^\s*Compiling\|Finished\|Running'
echo "== headless Chromium (wasm, release)"
for t in wasm_bench_core wasm_bench_lab wasm_bench_ui; do
  [ -f "tests/$t.rs" ] || continue
  CHROMEDRIVER=/usr/bin/chromedriver wasm-pack test --release --headless --chrome --chromedriver /usr/bin/chromedriver \
    -- --features wasm-bench --test "$t" -- --nocapture 2>&1 | tee "target/bench/$t.txt" | grep -E 'bench|^\||test result' || true
done
echo "== page weight (release build, wasm-opt -Oz)"
scripts/build.sh >/dev/null
wasm=$(ls dist/*_bg.wasm); js=$(ls dist/*.js | grep -v _bg)
printf 'wasm %s bytes, %s gzipped; js %s bytes, %s gzipped\n' "$(wc -c <"$wasm")" "$(gzip -9c "$wasm" | wc -c)" "$(wc -c <"$js")" "$(gzip -9c "$js" | wc -c)"
