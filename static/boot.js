// Starts the page's wasm. Trunk.toml's `pattern_script` puts a tag for this file where Trunk would
// otherwise inline its loader, so the pages' Content-Security-Policy needs no inline script:
//   <script type="module" src="./boot.js" data-module="./<bin>-<hash>.js" data-wasm="./<bin>-<hash>_bg.wasm">
// Both names are relative to the page's folder, which is also this file's folder (each page copies it).
const tag = document.querySelector('script[data-module][data-wasm]');
const { default: init } = await import(new URL(tag.dataset.module, document.baseURI).href);
await init({ module_or_path: new URL(tag.dataset.wasm, document.baseURI) });
