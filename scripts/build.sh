#!/usr/bin/env bash
# Builds the release site into dist/ with relative asset URLs, so it works from any static host
# and from a sub-path such as /repo-name/. Each page has its own wasm; PAGES lists them, one line
# each, as "<folder> <html>": the playground is the root (dist/), every other page a folder.
# Each page is built twice, once per language (cargo features lang-en, lang-ja: a download
# carries one language's text), and scripts/merge-lang.mjs puts the Japanese pair beside the
# English one for static/boot.js to choose from. At the end, scripts/compress.mjs writes a .br and
# a .gz beside every .wasm, .js, .css, .html and .svg of dist/, which scripts/serve-dist.mjs sends
# to browsers that accept them.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
# std from source, panics without their messages (the comment in scripts/release-env.sh).
source scripts/release-env.sh
PAGES=(
  ". index.html"
  "sandbox sandbox/index.html"
  "lab lab/index.html"
  "properties properties/index.html"
  "kafka kafka/index.html"
  "durable durable/index.html"
)
for page in "${PAGES[@]}"; do
  read -r dir html <<<"$page"
  # The playground first: Trunk empties its dist folder, so the other pages go in after it.
  if [[ $dir == . ]]; then out=dist; else out=dist/$dir; fi
  trunk build --release --offline --public-url ./ --dist "$out" --features lang-en "$@" "$html"
  ja=target/site-ja/$dir
  mkdir -p "$ja"
  trunk build --release --offline --public-url ./ --dist "$ja" --features lang-ja "$@" "$html"
  node scripts/merge-lang.mjs "$out" "$ja"
done
# The lessons' words, one file per language, which the first page fetches as it opens instead of
# carrying them in its wasm (src/ui/text/lessons.rs, LAZY). A native build: without the std
# build settings of scripts/release-env.sh, which are for the wasm target.
for lang in en ja; do
  env -u CARGO_UNSTABLE_BUILD_STD -u RUSTC_BOOTSTRAP cargo run --quiet --offline --bin lesson-words -- "$lang" > "dist/words-$lang.txt"
done
node scripts/compress.mjs dist
echo "[build] dist/ is ready: $(du -sh dist | cut -f1); $(for p in "${PAGES[@]}"; do read -r d _ <<<"$p"; printf '%s/ ' "$d"; done)"
