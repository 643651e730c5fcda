# Sourced (after scripts/env.sh) by the scripts that build pages for users: scripts/build.sh and
# benches/hello/build.sh (the load benchmark's yardstick is built the same way, so the comparison
# stays fair). Not by the tests' own wasm builds, which keep the prebuilt std and panic messages.
#
# What it does: the wasm32 standard library is compiled from source (rust-src, installed by
# scripts/setup.sh) with the panic strategy `immediate-abort`. A panic in a page was already an
# abort (the release profile's `panic = "abort"`); what goes is the machinery that formatted its
# message first (file, line, the payload's Display and Debug) for a console nobody reads: every
# `unwrap`, index and overflow check carried a path into core::fmt. A panic is now the same
# `unreachable` trap without the message. That took 15.5 KB gzipped off the first page's wasm
# (203,375 -> 187,921 bytes after wasm-opt -Oz, English, at 0e2b998) and 0.8 KB off its JS
# (wasm-bindgen no longer imports the console hook's functions).
#
# Both are unstable in rustc 1.95 (the strategy since 1.92: rust-lang/rust#146317; -Zbuild-std),
# so this sets RUSTC_BOOTSTRAP=1 for these builds only, as the Debian fallback in scripts/env.sh
# already does for every build. Nothing in the crate's code uses an unstable feature.
# shellcheck shell=bash
export RUSTC_BOOTSTRAP=1
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort"
