// The download of each page of a built site, per language (scripts/bench.sh prints it, and
// scripts/check-budgets.mjs holds the "page total" to each page's budget):
//   node scripts/weigh.mjs [dist]
// For every page folder (an index.html with the boot.js tag), the wasm and the wasm-bindgen JS
// that static/boot.js loads for each language, by `gzip -9c`, plus boot.js's code as the page
// ships it (scripts/merge-lang.mjs writes it into the HTML; a page without it loads the file)
// and the same by
// brotli (quality 11, what scripts/compress.mjs writes and scripts/serve-dist.mjs sends to a
// browser that accepts it).
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { brotli } from './compress.mjs';

const gz = (file) => execFileSync('gzip', ['-9c', file], { maxBuffer: 1 << 26 }).length;
const gzText = (text) => execFileSync('gzip', ['-9c'], { input: text, maxBuffer: 1 << 26 }).length;
// Brotli's quality 11 is slow: the build's own `.br` (same settings) is read when it is newer
// than its original.
const br = (file) => {
  if (existsSync(`${file}.br`) && statSync(`${file}.br`).mtimeMs >= statSync(file).mtimeMs) return statSync(`${file}.br`).size;
  return brotli(readFileSync(file), file.endsWith('.wasm') ? '.wasm' : '.js').length;
};

/** One row per page and language: `page` is the folder under `root` ('.' for the root page);
 * `{ brotli: false }` leaves the brotli sizes out (the budgets need only gzip). */
export function weigh(root, { brotli: withBrotli = true } = {}) {
  const rows = [];
  const pages = ['.', ...readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()];
  for (const page of pages) {
    const dir = join(root, page);
    const html = join(dir, 'index.html');
    if (!existsSync(html)) continue;
    const text = readFileSync(html, 'utf8');
    if (!text.includes('data-module=')) continue;
    // The loader: inline in the page (what merge-lang.mjs writes), or else the boot.js file.
    const inline = text.match(/<script type="module" async data-module=[^>]*>([\s\S]*?)<\/script>/)?.[1];
    const boot = join(dir, 'boot.js');
    const bootGz = inline ? gzText(inline) : gz(boot);
    const bootBr = !withBrotli ? NaN : inline ? brotli(Buffer.from(inline), '.js').length : br(boot);
    for (const [lang, suffix] of [['en', ''], ['ja', '-ja']]) {
      const m = text.match(new RegExp(`data-module${suffix}="\\./([^"]+)" data-wasm${suffix}="\\./([^"]+)"`));
      if (!m) continue;
      const [, js, wasm] = m;
      const row = {
        page, lang, dir,
        wasm: readFileSync(join(dir, wasm)).length,
        wasmGz: gz(join(dir, wasm)), jsGz: gz(join(dir, js)), bootGz,
        wasmBr: withBrotli ? br(join(dir, wasm)) : NaN, jsBr: withBrotli ? br(join(dir, js)) : NaN, bootBr,
      };
      row.total = row.wasmGz + row.jsGz + row.bootGz;
      row.totalBr = row.wasmBr + row.jsBr + row.bootBr;
      rows.push(row);
    }
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = process.argv[2] ?? 'dist';
  for (const r of weigh(root)) {
    console.log(`${join(root, r.page)}/ ${r.lang}: wasm ${r.wasm} bytes, ${r.wasmGz} gzipped; js ${r.jsGz} gzipped; boot.js ${r.bootGz} gzipped; page total ${r.total} gzipped`
      + ` | brotli: wasm ${r.wasmBr}, js ${r.jsBr}, boot.js ${r.bootBr}, page total ${r.totalBr}`);
  }
}
