// The download of each page of a built site, per language (scripts/bench.sh prints it):
//   node scripts/weigh.mjs [dist]
// For every page folder (an index.html with the boot.js tag), the wasm and the wasm-bindgen JS
// that static/boot.js loads for each language, by `gzip -9c`, plus boot.js.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

const root = process.argv[2] ?? 'dist';
const gz = (file) => execFileSync('gzip', ['-9c', file], { maxBuffer: 1 << 26 }).length;
const pages = ['.', ...readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)];
for (const page of pages) {
  const dir = join(root, page);
  const html = join(dir, 'index.html');
  if (!existsSync(html)) continue;
  const text = readFileSync(html, 'utf8');
  const bootZ = gz(join(dir, 'boot.js'));
  for (const [lang, suffix] of [['en', ''], ['ja', '-ja']]) {
    const m = text.match(new RegExp(`data-module${suffix}="\\./([^"]+)" data-wasm${suffix}="\\./([^"]+)"`));
    if (!m) continue;
    const [, js, wasm] = m;
    const w = readFileSync(join(dir, wasm)).length;
    const wz = gz(join(dir, wasm));
    const jz = gz(join(dir, js));
    console.log(`${join(root, page)}/ ${lang}: wasm ${w} bytes, ${wz} gzipped; js ${jz} gzipped; boot.js ${bootZ} gzipped; page total ${wz + jz + bootZ} gzipped`);
  }
}
