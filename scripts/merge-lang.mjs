// Puts a page's Japanese build beside its English one (scripts/build.sh):
//   node scripts/merge-lang.mjs <english page folder> <japanese page folder>
// copies the Japanese build's JS and wasm into the English folder, adds their names to the
// boot tag as data-module-ja / data-wasm-ja (static/boot.js picks one pair), and drops Trunk's
// preload links for the English pair, which a Japanese reader would download for nothing
// (boot.js starts the wasm's download itself). Then it writes boot.js's text into the tag, as an
// async inline module, and adds the text's hash to the page's Content-Security-Policy: the wasm's
// download starts as soon as the HTML is parsed, not after fetching boot.js and the style sheet
// (a deferred script waits for style sheets; an async one does not).
import { readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
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
const full = html.match(/<script type="module" src="[^"]*boot\.js"( data-module="[^"]+" data-wasm="[^"]+" data-module-ja="[^"]+" data-wasm-ja="[^"]+")><\/script>/);
if (!full) throw new Error(`${enPath}: the merged boot tag was not found`);
// Its code without its comment lines (they are for this repository's readers).
const boot = readFileSync(join(en, 'boot.js'), 'utf8').split('\n').filter((l) => !/^\s*\/\//.test(l)).join('\n');
if (boot.includes('</script')) throw new Error('static/boot.js must not contain "</script"');
const hash = `'sha256-${createHash('sha256').update(boot, 'utf8').digest('base64')}'`;
html = html.replace(full[0], `<script type="module" async${full[1]}>${boot}</script>`);
const csp = /(<meta http-equiv="Content-Security-Policy" content="[^"]*script-src 'self')/;
if (!csp.test(html)) throw new Error(`${enPath}: no Content-Security-Policy with script-src 'self' to add boot.js's hash to`);
html = html.replace(csp, `$1 ${hash}`);
writeFileSync(enPath, html);
