#!/usr/bin/env bash
# Installs what the playground needs, skipping whatever is already present at the right version.
#   scripts/setup.sh serve   -> wasm32 target, wasm-bindgen-cli, trunk, npm packages (wasm-opt, serve-static)
#   scripts/setup.sh test    -> the above plus wasm-pack, chromium, chromedriver, playwright-core
# Safe to run again: a second run installs nothing and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-serve}"
say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

TRUNK_VERSION=0.21.14
WASM_PACK_VERSION=0.15.1

# The wasm-bindgen CLI must equal the library version in Cargo.lock (or the exact pin in Cargo.toml).
wasm_bindgen_version() {
  if [ -f Cargo.lock ]; then
    awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock
  else
    sed -n 's/^wasm-bindgen = { *version = "=\([0-9.]*\)".*/\1/p; s/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' Cargo.toml | head -1
  fi
}

need_root_for() {
  if [ "$(id -u)" != 0 ]; then
    say "missing system packages: $*"
    say "run as root:  sudo apt-get update && sudo apt-get install -y $*"
    exit 1
  fi
}

# 1. the wasm32 standard library
if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "wasm32-unknown-unknown target: present"
elif [ -f target/.wasm-fallback ]; then
  say "wasm32 target: using the Debian rustc-web fallback (target/.wasm-fallback)"
else
  say "installing the wasm32-unknown-unknown target with rustup (can take a minute or more)"
  if ! rustup target add wasm32-unknown-unknown; then
    say "rustup could not fetch the wasm32 std; falling back to Debian's rustc-web + rust-web-src (std built from source)"
    pkgs="rustc-web cargo-web rust-web-src"
    need_root_for $pkgs lld
    apt-get update -qq
    apt-get install -y $pkgs
    llvm_major=$(/usr/bin/rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
    apt-get install -y "lld-$llvm_major"
    mkdir -p target
    echo "$llvm_major" > target/.wasm-fallback
    say "fallback ready; scripts/env.sh sets PATH, RUSTC_BOOTSTRAP and build-std for every build"
  fi
fi

# 1b. the standard library's source: the pages' release builds compile std themselves
#     (scripts/release-env.sh). The Debian fallback has it as rust-web-src already.
if [ -f target/.wasm-fallback ]; then
  :
elif rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
  say "rust-src: present"
else
  say "installing rust-src with rustup (the standard library's source, for the pages' release builds)"
  rustup component add rust-src
fi
# The pages build with Trunk's --offline, so the crates std depends on (its own Cargo.lock) must
# already be in cargo's registry cache; on a fresh machine they are not ("no matching package
# named `moto-rt`"). A no-op when they are.
if [ ! -f target/.wasm-fallback ]; then
  std_lib="$(rustc --print sysroot)/lib/rustlib/src/rust/library"
  if ! RUSTC_BOOTSTRAP=1 cargo fetch --locked --quiet --manifest-path "$std_lib/Cargo.toml"; then
    say "could not fetch the crates the standard library depends on (needs crates.io once)"; exit 1
  fi
fi

# 2. cargo-installed tools
cargo_tool() { # name version binary extra-args...
  local name=$1 version=$2 bin=$3; shift 3
  local have=""
  if command -v "$bin" >/dev/null 2>&1; then have=$("$bin" --version 2>/dev/null | awk '{print $NF}'); fi
  if [ "$have" = "$version" ]; then
    say "$name $version: present"
  else
    say "installing $name $version with cargo install (a few minutes on 2 cores)${have:+, replacing $have}"
    cargo install "$name" --version "$version" "$@"
  fi
}
wb=$(wasm_bindgen_version)
[ -n "$wb" ] || { say "cannot find the wasm-bindgen version in Cargo.lock/Cargo.toml"; exit 1; }
# --locked fails for wasm-bindgen-cli 0.2.130 (a locked dependency is missing from the registry)
cargo_tool wasm-bindgen-cli "$wb" wasm-bindgen
# trunk 0.22 needs rustc 1.96.1; 0.21.14 compiles only with --locked
cargo_tool trunk "$TRUNK_VERSION" trunk --locked

# 3. npm packages (binaryen's wasm-opt; serve-static for scripts/serve-dist.mjs; playwright-core for
#    the end-to-end tests, @axe-core/playwright for their accessibility checks), pinned in
#    package-lock.json. A lock file newer than node_modules' own
#    record (after a pull that changed it) means npm ci again.
if [ -x node_modules/.bin/wasm-opt ] && [ -d node_modules/playwright-core ] && [ -d node_modules/serve-static ] \
   && [ -d node_modules/@axe-core/playwright ] \
   && [ node_modules/.package-lock.json -nt package-lock.json ]; then
  say "npm packages: present"
else
  say "installing npm packages from package-lock.json (binaryen, serve-static, playwright-core, @axe-core/playwright)"
  npm ci --no-audit --no-fund
fi

if [ "$what" = test ]; then
  cargo_tool wasm-pack "$WASM_PACK_VERSION" wasm-pack --locked
  rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
  rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
  # fonts-noto-cjk: so Japanese text renders in headless screenshots instead of empty boxes
  if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && [ -d /usr/share/fonts/opentype/noto ]; then
    say "chromium + chromedriver + CJK fonts: present"
  else
    need_root_for chromium chromium-driver fonts-noto-cjk
    say "installing chromium, chromium-driver and fonts-noto-cjk from Debian"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver fonts-noto-cjk
  fi
  # PostgreSQL's server programs, for the pg layer's throwaway cluster (scripts/pg.sh)
  if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    say "postgresql: present"
  else
    need_root_for postgresql
    say "installing postgresql from Debian (its server programs; scripts/pg.sh starts a cluster of its own)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
  fi
fi
say "done"
