// Precompresses a built site for the static server (scripts/serve-dist.mjs), as a static host's
// build step would: beside every .wasm, .js, .css, .html and .svg under the folder it writes
// `<file>.br` (brotli, quality 11, with the file's size as the size hint) and `<file>.gz`
// (gzip, level 9), with Node's own zlib (no dependency). scripts/build.sh runs it over the whole
// dist/ at its end, benches/hello/build.sh over the hello page.
//   node scripts/compress.mjs [dist]
// A compressed file that would not be smaller than the original is not written (the server then
// sends the original), and a .br or .gz left from an earlier build whose original is gone, or
// is no longer smaller, is removed, so what the server finds always matches the build.
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { readdirSync, readFileSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The extensions that get compressed copies, and that the server serves compressed. */
export const COMPRESSIBLE = ['.wasm', '.js', '.css', '.html', '.svg'];
/** The compressed copies, by the suffix the server looks for. */
export const ENCODINGS = [['br', '.br'], ['gzip', '.gz']];

/** Brotli at quality 11 with the size hint; text mode for everything but the wasm. */
export function brotli(bytes, ext = '') {
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [constants.BROTLI_PARAM_MODE]: ext === '.wasm' ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
    },
  });
}

/** gzip at level 9 (what a static host's precompression or `gzip -9` gives, to a few bytes). */
export function gzip(bytes) {
  return gzipSync(bytes, { level: 9 });
}

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/** Compresses every compressible file under `root`; returns what it did, per file. */
export function compressTree(root) {
  const done = [];
  for (const path of [...files(root)]) {
    const suffix = ENCODINGS.find(([, s]) => path.endsWith(s))?.[1];
    if (suffix) {
      // A copy whose original is gone (a file of an earlier build): remove it.
      const original = path.slice(0, -suffix.length);
      if (COMPRESSIBLE.includes(extname(original)) && !existsSync(original)) rmSync(path);
      continue;
    }
    const ext = extname(path);
    if (!COMPRESSIBLE.includes(ext)) continue;
    const bytes = readFileSync(path);
    const row = { path, bytes: bytes.length };
    for (const [name, s, packed] of [['br', '.br', brotli(bytes, ext)], ['gzip', '.gz', gzip(bytes)]]) {
      if (packed.length < bytes.length) {
        writeFileSync(path + s, packed);
        row[name] = packed.length;
      } else {
        rmSync(path + s, { force: true });
      }
    }
    done.push(row);
  }
  return done;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = process.argv[2] ?? 'dist';
  if (!existsSync(root)) {
    console.error(`[compress] ${root} does not exist: build it first`);
    process.exit(1);
  }
  const rows = compressTree(root);
  const sum = (k) => rows.reduce((a, r) => a + (r[k] ?? r.bytes), 0);
  console.log(`[compress] ${rows.length} files under ${root}/: ${sum('bytes')} bytes, ${sum('gzip')} as gzip, ${sum('br')} as brotli`);
  for (const r of rows.filter((r) => !r.br || !r.gzip)) {
    console.log(`[compress]   ${relative(root, r.path)} (${r.bytes} bytes) is sent as it is where compression would not make it smaller`);
  }
}
