// Puts a page's Japanese build beside its English one (scripts/build.sh):
//   node scripts/merge-lang.mjs <english page folder> <japanese page folder>
// copies the Japanese build's JS and wasm into the English folder, adds their names to the
// boot tag as data-module-ja / data-wasm-ja (static/boot.js picks one pair), and drops Trunk's
// preload links for the English pair, which a Japanese reader would download for nothing
// (boot.js starts the wasm's download itself).
import { readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { join, basename } from 'node:path';

const [en, ja] = process.argv.slice(2);
if (!en || !ja) {
  console.error('usage: node scripts/merge-lang.mjs <english page folder> <japanese page folder>');
  process.exit(2);
}
const names = (html, where) => {
  const m = html.match(/<script type="module" src="[^"]*boot\.js" data-module="([^"]+)" data-wasm="([^"]+)"><\/script>/);
  if (!m) throw new Error(`${where}: no boot.js tag with data-module and data-wasm (see Trunk.toml's pattern_script)`);
  return { tag: m[0], module: m[1], wasm: m[2] };
};
const enPath = join(en, 'index.html');
let html = readFileSync(enPath, 'utf8');
const enNames = names(html, enPath);
const jaNames = names(readFileSync(join(ja, 'index.html'), 'utf8'), join(ja, 'index.html'));
for (const file of [jaNames.module, jaNames.wasm]) copyFileSync(join(ja, basename(file)), join(en, basename(file)));
html = html.replace(enNames.tag, enNames.tag.replace('></script>', ` data-module-ja="${jaNames.module}" data-wasm-ja="${jaNames.wasm}"></script>`));
const before = html.length;
for (const file of [enNames.module, enNames.wasm]) {
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  html = html.replace(new RegExp(`<link rel="(?:modulepreload|preload)" href="${escaped}"[^>]*>`), '');
}
if (html.length === before) throw new Error(`${enPath}: Trunk's preload links were not found`);
writeFileSync(enPath, html);
