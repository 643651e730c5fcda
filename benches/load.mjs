// The load benchmark (`make bench`, or `make bench-load` alone): how long each page takes, from
// navigation to its main control being usable, beside a Yew 0.23 hello-world page built with the
// same toolchain and release settings (benches/hello/, built by benches/hello/build.sh).
//   node benches/load.mjs [--runs 7] [--dist dist] [--hello target/bench/hello-dist]
//                         [--profiles slow,fast] [--pages hello,playground,…] [--json file]
// Both sites are served by scripts/serve-dist.mjs, with the .br and .gz files the builds wrote, as
// a static host would. Each run is a fresh browser context of Debian's Chromium (playwright-core)
// at 390 × 844 px, English, with the HTTP cache disabled; the "slow" profile is the DevTools
// protocol's Network.emulateNetworkConditions (1.6 Mbit/s down, 750 kbit/s up, 150 ms latency)
// and Emulation.setCPUThrottlingRate 4, the "fast" one no throttling. The runs alternate: each
// round loads every page once, in an order rotated by one page per round.
//
// "Interactive" is the time, from navigation start (performance.now() in the page), at which the
// page's main control was enabled in the DOM, provided a click on it then actually did what it
// does: a script in the page watches the DOM, clicks the control as soon as it is enabled and
// waits for the control's effect (the step counter moves, the schedule grows, the run starts).
// If the click does nothing (a control drawn before the wasm can handle it), it tries again, and
// the time is that of the element that worked, or of the attempt that worked if the same element
// had failed before. Transferred bytes are the sum of the CDP Network.loadingFinished events'
// encodedDataLength (headers and compressed bodies), until interactive and in all (until 1 s
// without a request). Medians of the runs; no test asserts a time.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const RUNS = Number(arg('runs', 7));
const DIST = arg('dist', join(ROOT, 'dist'));
const HELLO = arg('hello', join(ROOT, 'target/bench/hello-dist'));
const JSON_OUT = arg('json', join(ROOT, 'target/bench/load.json'));
// `--encoding gzip` sends `Accept-Encoding: gzip` instead of the browser's own (which asks for
// br too): a static host that has only gzip.
const ENCODING = arg('encoding', '');

/** The slow phone of issue 16, and no throttling. */
const PROFILES = {
  slow: { label: 'slow 3G (1.6 Mbit/s down, 750 kbit/s up, 150 ms) and 4× CPU slowdown',
    network: { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 }, cpu: 4 },
  fast: { label: 'unthrottled', network: null, cpu: 1 },
};
/** Each page: where it is, its main control, and what a click on it changes (the e2e tests'
 * hooks: tests/e2e/*.test.mjs). */
const PAGES = {
  hello: { site: 'hello', path: '', label: 'Yew hello world (benches/hello/)',
    control: '[data-testid=hello-button]', effects: ['[data-testid=hello-count]'] },
  // The naive service's lesson, the one `/` opened until lesson 1.1 became the path's start:
  // 1.1 asks its question at step 0, so its Run to end waits for the answer. Same page and wasm.
  playground: { site: 'dist', path: '#/scenario/double-charge', label: 'playground, lesson 2 (`/#/scenario/double-charge`), Run to end',
    control: '[data-testid=run-to-end]', effects: ['[data-testid=position]'] },
  sandbox: { site: 'dist', path: 'sandbox/#/sandbox', label: 'sandbox (`sandbox/`), Send',
    control: '[data-testid=send]', effects: ['[data-testid=position]'] },
  lab: { site: 'dist', path: 'lab/', label: 'concurrency lab (`lab/`), step request 1',
    control: '[data-testid=lab-step-0]', effects: ['[data-testid=lab-schedule]'] },
  properties: { site: 'dist', path: 'properties/', label: 'property checks (`properties/`), Run',
    control: '[data-testid=prop-run]', effects: ['[data-testid=prop-status]', '[data-testid=prop-result]'] },
  durable: { site: 'dist', path: 'durable/', label: 'durable execution (`durable/`), Run to end',
    control: '[data-testid=run-to-end]', effects: ['[data-testid=position]'] },
  kafka: { site: 'dist', path: 'kafka/', label: 'Kafka (`kafka/`), Run to end',
    control: '[data-testid=run-to-end]', effects: ['[data-testid=position]'] },
};
const profiles = arg('profiles', 'slow,fast').split(',');
// By default every page the build has (an older build may lack a newer page).
const built = Object.keys(PAGES).filter((p) => PAGES[p].site === 'hello' || existsSync(join(DIST, PAGES[p].path.split('#')[0], 'index.html')));
const pages = arg('pages', built.join(',')).split(',');
for (const p of profiles) if (!PROFILES[p]) throw new Error(`unknown profile ${p} (${Object.keys(PROFILES)})`);
for (const p of pages) if (!PAGES[p]) throw new Error(`unknown page ${p} (${Object.keys(PAGES)})`);
if (!pages.includes('hello')) throw new Error('the hello page is the yardstick: keep it in --pages');
for (const [name, dir] of [['dist', DIST], ['hello', HELLO]]) {
  if (!existsSync(join(dir, 'index.html'))) {
    throw new Error(`${dir}/index.html is missing: build it first (${name === 'dist' ? 'scripts/build.sh' : 'benches/hello/build.sh'})`);
  }
}

/** Runs in the page before its own scripts: clicks the control once enabled, until a click works. */
function watch({ control, effects, retryMs }) {
  const st = { done: false, attempts: 0, t: null, effectAt: null, before: null, after: null };
  window.__load = st;
  const seen = new WeakMap(); // element -> when first seen enabled
  const failed = new WeakSet(); // elements a click has already failed on
  const text = () => effects.map((s) => document.querySelector(s)?.textContent.trim().slice(0, 60) ?? '(none)').join(' | ');
  const sig = () => effects.map((s) => {
    const e = document.querySelector(s);
    return e ? `${e.textContent}\u0001${[...e.attributes].map((a) => `${a.name}=${a.value}`).join(',')}` : '\u0000';
  }).join('\u0002');
  let pending = null;
  let timer;
  let observer;
  const check = () => {
    if (st.done) return;
    const now = performance.now();
    const el = document.querySelector(control);
    const usable = el && !el.disabled && el.isConnected;
    if (usable && !seen.has(el)) seen.set(el, now);
    if (pending) {
      if (pending.before !== null && sig() !== pending.before) {
        Object.assign(st, { done: true, t: pending.t, effectAt: now, before: pending.text, after: text() });
        observer.disconnect();
        clearInterval(timer);
        return;
      }
      if (pending.before === null || now - pending.at < retryMs) return;
      failed.add(pending.el);
      pending = null;
    }
    if (!usable) return;
    st.attempts += 1;
    const p = { el, t: failed.has(el) ? now : seen.get(el), at: now, before: null };
    pending = p;
    // The click in a task of its own, as a learner's would be; the state before it is read there.
    setTimeout(() => {
      p.before = sig();
      p.text = text();
      p.at = performance.now();
      p.el.click();
    }, 0);
  };
  observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  timer = setInterval(check, 20);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function startServer(dir) {
  const portFile = join(mkdtempSync(join(tmpdir(), 'load-bench-')), 'port');
  const child = spawn(process.execPath, [join(ROOT, 'scripts/serve-dist.mjs'), dir, portFile, '0'], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 100 && !(existsSync(portFile) && readFileSync(portFile, 'utf8')); i++) await new Promise((r) => setTimeout(r, 50));
  const port = readFileSync(portFile, 'utf8');
  rmSync(dirname(portFile), { recursive: true, force: true });
  return { child, origin: `http://127.0.0.1:${port}/` };
}

async function measure(browser, origin, page, profile) {
  const spec = PAGES[page];
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
  try {
    const tab = await context.newPage();
    const errors = [];
    tab.on('pageerror', (e) => errors.push(String(e)));
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const prof = PROFILES[profile];
    if (prof.network) await cdp.send('Network.emulateNetworkConditions', prof.network);
    if (prof.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: prof.cpu });
    if (ENCODING) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': ENCODING } });
    const requests = new Map();
    let lastActivity = Date.now();
    cdp.on('Network.requestWillBeSent', (e) => { requests.set(e.requestId, { url: e.request.url }); lastActivity = Date.now(); });
    cdp.on('Network.responseReceived', (e) => {
      const r = requests.get(e.requestId);
      if (r) r.encoding = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1] ?? 'identity';
    });
    const finish = (e, failed) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { bytes: e.encodedDataLength ?? 0, failed, at: Date.now() });
      lastActivity = Date.now();
    };
    cdp.on('Network.loadingFinished', (e) => finish(e, false));
    cdp.on('Network.loadingFailed', (e) => finish(e, true));
    await tab.addInitScript(watch, { control: spec.control, effects: spec.effects, retryMs: 2000 });
    await tab.goto(origin + spec.path, { waitUntil: 'commit', timeout: 60_000 });
    await tab.waitForFunction(() => window.__load?.done, null, { timeout: 60_000, polling: 100 });
    const st = await tab.evaluate(() => ({ ...window.__load }));
    const interactiveWall = Date.now();
    const bytesUntil = [...requests.values()].filter((r) => r.at !== undefined && r.at <= interactiveWall).reduce((a, r) => a + r.bytes, 0);
    // Then whatever the page loads later, until a second without a request.
    while (Date.now() - lastActivity < 1000 || [...requests.values()].some((r) => r.at === undefined)) {
      if (Date.now() - interactiveWall > 15_000) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // First contentful paint, read now that it has surely happened (it can follow the DOM).
    const fcp = await tab.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
    const all = [...requests.values()].filter((r) => r.at !== undefined);
    const wasm = all.find((r) => r.url.endsWith('.wasm'));
    if (errors.length) throw new Error(`${page}: the page reported errors: ${errors.join('; ')}`);
    return { page, profile, interactive: st.t, effectAt: st.effectAt, attempts: st.attempts, fcp, effect: `${st.before} → ${st.after}`,
      bytesUntil, bytes: all.reduce((a, r) => a + r.bytes, 0), requests: all.length,
      wasmEncoding: wasm?.encoding ?? 'none', wasmUrl: wasm?.url };
  } finally {
    await context.close();
  }
}

const servers = { dist: await startServer(DIST), hello: await startServer(HELLO) };
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'],
});
const browserVersion = browser.version();
const loadBefore = loadavg()[0];
const results = [];
try {
  for (const profile of profiles) {
    console.error(`[load] ${PROFILES[profile].label}: ${RUNS} rounds of ${pages.join(', ')}`);
    for (let round = 0; round < RUNS; round++) {
      const order = pages.map((_, i) => pages[(i + round) % pages.length]);
      for (const page of order) {
        const r = await measure(browser, servers[PAGES[page].site].origin, page, profile);
        results.push({ ...r, round });
        console.error(`[load]   ${profile} round ${round + 1} ${page}: interactive ${r.interactive.toFixed(0)} ms`
          + ` (effect seen ${r.effectAt.toFixed(0)} ms, ${r.attempts} click${r.attempts > 1 ? 's' : ''}), ${r.bytesUntil} bytes, wasm ${r.wasmEncoding}`);
      }
    }
  }
} finally {
  await browser.close();
  for (const s of Object.values(servers)) s.child.kill();
}

const summary = {};
for (const profile of profiles) {
  summary[profile] = {};
  for (const page of pages) {
    const rs = results.filter((r) => r.profile === profile && r.page === page);
    const t = rs.map((r) => r.interactive);
    summary[profile][page] = { median: median(t), min: Math.min(...t), max: Math.max(...t),
      fcp: median(rs.map((r) => r.fcp ?? NaN)), effectAt: median(rs.map((r) => r.effectAt)), bytesUntil: median(rs.map((r) => r.bytesUntil)),
      bytes: median(rs.map((r) => r.bytes)), requests: median(rs.map((r) => r.requests)),
      encoding: [...new Set(rs.map((r) => r.wasmEncoding))].join('/'), attempts: Math.max(...rs.map((r) => r.attempts)) };
  }
}
const ms = (x) => `${Math.round(x)}`;
const kb = (b) => `${(b / 1000).toFixed(1)} KB`;
console.log(`Load benchmark: ${RUNS} runs per page, alternating; ${cpus().length} cores (${cpus()[0]?.model.trim()}), Chromium ${browserVersion} headless, 390 px, English, `
  + `Accept-Encoding: ${ENCODING || "the browser's own"}; load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`);
for (const profile of profiles) {
  const hello = summary[profile].hello.median;
  console.log(`\n### ${PROFILES[profile].label}\n`);
  console.log('| page | interactive, median (min–max) | × hello | the click answered | first paint | transferred until interactive | in all | requests | wasm sent as |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const page of pages) {
    const s = summary[profile][page];
    console.log(`| ${PAGES[page].label} | ${ms(s.median)} ms (${ms(s.min)}–${ms(s.max)}) | ${page === 'hello' ? '1' : (s.median / hello).toFixed(2)} | ${ms(s.effectAt)} ms | ${ms(s.fcp)} ms | ${kb(s.bytesUntil)} | ${kb(s.bytes)} | ${s.requests} | ${s.encoding} |`);
  }
}
mkdirSync(dirname(JSON_OUT), { recursive: true });
writeFileSync(JSON_OUT, JSON.stringify({ runs: RUNS, profiles: Object.fromEntries(profiles.map((p) => [p, PROFILES[p]])), summary, results }, null, 1));
console.error(`[load] every run: ${JSON_OUT}`);
