# Sourced by the other scripts: puts the project's tools first on PATH and, when the Debian
# rustc-web fallback was needed (target/.wasm-fallback), sets up the build-std route for wasm32.
# shellcheck shell=bash
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
if [ -f target/.wasm-fallback ]; then
  llvm_major=$(cat target/.wasm-fallback)
  export PATH="/usr/bin:$PATH"
  export RUSTC_BOOTSTRAP=1
  export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="wasm-ld-$llvm_major"
fi
