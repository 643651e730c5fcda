#!/usr/bin/env bash
# Builds the load benchmark's hello-world page (benches/hello/) the way scripts/build.sh builds the
# site: Trunk 0.21.14 --release --offline, wasm-bindgen and binaryen 132's wasm-opt -Oz from
# scripts/env.sh, the project's release profile, std built as scripts/release-env.sh builds it,
# then scripts/compress.mjs writes the .br and .gz files beside its assets. Offline from the
# registry cache: its Cargo.lock pins the project's yew and wasm-bindgen.
#   benches/hello/build.sh [out=target/bench/hello-dist]
# Its cargo artifacts go to $CARGO_TARGET_DIR/hello (else target/hello), apart from the site's.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
source scripts/env.sh
source scripts/release-env.sh
out=$(realpath -m "${1:-target/bench/hello-dist}")
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}/hello"
cd benches/hello
trunk build --release --offline --public-url ./ --dist "$out"
cd "$root"
node scripts/compress.mjs "$out"
echo "[hello] $out is ready"
