// Precompresses a built site for the static server (scripts/serve-dist.mjs), as a static host's
// build step would: beside every .wasm, .js, .css, .html and .svg under the folder it writes
// `<file>.br` (brotli, quality 11, with the file's size as the size hint) and `<file>.gz`
// (gzip, level 9), with Node's own zlib (no dependency). scripts/build.sh runs it over the whole
// dist/ at its end, benches/hello/build.sh over the hello page.
//   node scripts/compress.mjs [dist]
// A compressed file that would not be smaller than the original is not written (the server then
// sends the original), and a .br or .gz left from an earlier build whose original is gone, or
// is no longer smaller, is removed, so what the server finds always matches the build.
import { brotliCompressSync, brotliCompress, gzipSync, gzip as gzipAsync, constants } from 'node:zlib';
import { readdirSync, readFileSync, writeFileSync, rmSync, existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The extensions that get compressed copies, and that the server serves compressed. */
export const COMPRESSIBLE = ['.wasm', '.js', '.css', '.html', '.svg', '.txt'];
/** The compressed copies, by the suffix the server looks for. */
export const ENCODINGS = [['br', '.br'], ['gzip', '.gz']];

/** Brotli at quality 11 with the size hint; text mode for everything but the wasm. */
const brotliOptions = (bytes, ext) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
    [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    [constants.BROTLI_PARAM_MODE]: ext === '.wasm' ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
  },
});
export const brotli = (bytes, ext = '') => brotliCompressSync(bytes, brotliOptions(bytes, ext));

/** gzip at level 9 (what a static host's precompression or `gzip -9` gives, to a few bytes). */
export const gzip = (bytes) => gzipSync(bytes, { level: 9 });

// The same, off the main thread (libuv's pool), so files compress in parallel.
const brotliLater = promisify(brotliCompress);
const gzipLater = promisify(gzipAsync);

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

async function compressFile(path) {
  const ext = extname(path);
  const bytes = readFileSync(path);
  const row = { path, bytes: bytes.length };
  const [br, gz] = await Promise.all([brotliLater(bytes, brotliOptions(bytes, ext)), gzipLater(bytes, { level: 9 })]);
  for (const [name, s, packed] of [['br', '.br', br], ['gzip', '.gz', gz]]) {
    if (packed.length < bytes.length) {
      writeFileSync(path + s, packed);
      row[name] = packed.length;
    } else {
      rmSync(path + s, { force: true });
    }
  }
  return row;
}

/** Compresses every compressible file under `root`, as many at once as there are cores;
 * resolves to what it did, per file. */
export async function compressTree(root) {
  const todo = [];
  for (const path of [...files(root)]) {
    const suffix = ENCODINGS.find(([, s]) => path.endsWith(s))?.[1];
    if (suffix) {
      // A copy whose original is gone (a file of an earlier build): remove it.
      const original = path.slice(0, -suffix.length);
      if (COMPRESSIBLE.includes(extname(original)) && !existsSync(original)) rmSync(path);
    } else if (COMPRESSIBLE.includes(extname(path))) {
      todo.push(path);
    }
  }
  // The largest first, so the last file to finish is a small one.
  todo.sort((a, b) => statSync(b).size - statSync(a).size);
  const done = [];
  const worker = async () => {
    for (let path = todo.shift(); path; path = todo.shift()) done.push(await compressFile(path));
  };
  await Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, worker));
  return done.sort((a, b) => a.path.localeCompare(b.path));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = process.argv[2] ?? 'dist';
  if (!existsSync(root)) {
    console.error(`[compress] ${root} does not exist: build it first`);
    process.exit(1);
  }
  const start = performance.now();
  const rows = await compressTree(root);
  const sum = (k) => rows.reduce((a, r) => a + (r[k] ?? r.bytes), 0);
  console.log(`[compress] ${rows.length} files under ${root}/: ${sum('bytes')} bytes, ${sum('gzip')} as gzip, ${sum('br')} as brotli`
    + ` (${((performance.now() - start) / 1000).toFixed(1)} s)`);
  for (const r of rows.filter((r) => !r.br || !r.gzip)) {
    console.log(`[compress]   ${relative(root, r.path)} (${r.bytes} bytes) is sent as it is where compression would not make it smaller`);
  }
}
