// Starts the page's wasm. Trunk.toml's `pattern_script` puts a tag for this file where Trunk would
// otherwise inline its loader; scripts/merge-lang.mjs then writes this file's text into that tag
// (an async inline module, allowed by its hash in the page's Content-Security-Policy), so the
// wasm's download starts as soon as the HTML arrives, not a round trip later and not after the
// style sheet:
//   <script type="module" async data-module="./<bin>-<hash>.js" data-wasm="./<bin>-<hash>_bg.wasm"
//           data-module-ja="./<bin>-<hash>.js" data-wasm-ja="./<bin>-<hash>_bg.wasm">(this text)
// (`trunk serve` keeps the tag with src="./boot.js", which works the same.)
// Each page is built once per language (scripts/build.sh adds the Japanese build's names as
// data-*-ja); this loads the build of the remembered language, else of the browser's, with the
// rule of the page's own `Lang::from_code` (anything starting with "ja" is Japanese). A page built
// without them (`trunk serve`) speaks both languages from its one build. Names are relative to
// the page's folder, which is also this file's folder (each page copies it).
const tag = document.querySelector('script[data-module][data-wasm]');
// A reload keeps the scroll position. The browser's own restoration runs before the wasm has
// drawn anything, finds a page too short and stays at the top, so it is switched off and done
// here: on leaving, the address and scrollY go to sessionStorage (this tab only); on arriving at
// the same address, the page scrolls there once it is tall enough, unless the learner scrolls,
// taps or types first; after 5 s it gives up.
try {
  const key = 'idempotency-playground.scroll';
  history.scrollRestoration = 'manual';
  addEventListener('pagehide', () => sessionStorage.setItem(key, `${Math.round(scrollY)} ${location.href}`));
  const kept = sessionStorage.getItem(key) || '';
  sessionStorage.removeItem(key);
  const y = parseInt(kept, 10);
  if (y > 0 && kept.slice(kept.indexOf(' ') + 1) === location.href) {
    const stop = new AbortController();
    const done = () => { grow.disconnect(); stop.abort(); };
    const grow = new ResizeObserver(() => {
      if (document.documentElement.scrollHeight >= y + innerHeight) { scrollTo(0, y); done(); }
    });
    grow.observe(document.documentElement);
    for (const e of ['wheel', 'touchstart', 'keydown']) addEventListener(e, done, { capture: true, signal: stop.signal });
    setTimeout(done, 5000);
  }
} catch {
  // Storage blocked: a reload starts at the top.
}
// After a lesson or challenge replaced another in the page (a link in the lesson list, which
// open can be taller than the screen; "Next"; the browser's Back), its card comes into view if
// it starts above the screen or below its middle. The app draws the new route's card in the
// microtasks right after the hashchange event and its panels in the task after that, where it
// also gives focus back to the link that was clicked (which scrolls to it); so this waits a
// second task.
addEventListener('hashchange', () => setTimeout(() => setTimeout(() => {
  const card = document.querySelector('[data-testid=lesson], [data-testid=challenge]');
  const top = card?.getBoundingClientRect().top;
  if (top < 0 || top > innerHeight / 2) card.scrollIntoView();
})));
let lang = '';
try {
  lang = localStorage.getItem('idempotency-playground.lang') || '';
} catch {
  // Storage blocked: the browser's language decides, as it does for the page.
}
if (!lang) lang = navigator.language || '';
const ja = /^\s*ja/i.test(lang) && tag.dataset.moduleJa && tag.dataset.wasmJa;
// Each page's <title> is "English / 日本語"; a page built per language shows its own half.
const halves = document.title.split(' / ');
if (tag.dataset.moduleJa && halves.length === 2) document.title = halves[ja ? 1 : 0];
const at = (name) => new URL(name, document.baseURI);
// The wasm's download starts before the JS module is fetched and parsed.
const wasm = fetch(at(ja ? tag.dataset.wasmJa : tag.dataset.wasm));
const { default: init } = await import(at(ja ? tag.dataset.moduleJa : tag.dataset.module).href);
// An async script may run before the body is parsed; the app mounts on it.
if (document.readyState === 'loading') {
  await new Promise((done) => document.addEventListener('DOMContentLoaded', done, { once: true }));
}
await init({ module_or_path: wasm });
