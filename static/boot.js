// Starts the page's wasm. Trunk.toml's `pattern_script` puts a tag for this file where Trunk would
// otherwise inline its loader, so the pages' Content-Security-Policy needs no inline script:
//   <script type="module" src="./boot.js" data-module="./<bin>-<hash>.js" data-wasm="./<bin>-<hash>_bg.wasm"
//           data-module-ja="./<bin>-<hash>.js" data-wasm-ja="./<bin>-<hash>_bg.wasm">
// Each page is built once per language (scripts/build.sh adds the Japanese build's names as
// data-*-ja); this loads the build of the remembered language, else of the browser's, with the
// rule of the page's own `Lang::from_code` (anything starting with "ja" is Japanese). A page built
// without them (`trunk serve`) speaks both languages from its one build. Names are relative to
// the page's folder, which is also this file's folder (each page copies it).
const tag = document.querySelector('script[data-module][data-wasm]');
let lang = '';
try {
  lang = localStorage.getItem('idempotency-playground.lang') || '';
} catch {
  // Storage blocked: the browser's language decides, as it does for the page.
}
if (!lang) lang = navigator.language || '';
const ja = /^\s*ja/i.test(lang) && tag.dataset.moduleJa && tag.dataset.wasmJa;
const at = (name) => new URL(name, document.baseURI);
// The wasm's download starts before the JS module is fetched and parsed.
const wasm = fetch(at(ja ? tag.dataset.wasmJa : tag.dataset.wasm));
const { default: init } = await import(at(ja ? tag.dataset.moduleJa : tag.dataset.module).href);
await init({ module_or_path: wasm });
