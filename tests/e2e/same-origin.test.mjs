// Everything a learner's visit loads comes from the site itself, and both pages carry the
// Content-Security-Policy that says so. The harness fails a test on any console error, which
// includes every CSP violation; a listener also reports violations as console errors by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { withPage, open, BASE_URL, skipQuestion } from './harness.mjs';

const ORIGIN = new URL(BASE_URL).origin;

async function csp(page) {
  const metas = await page.locator('meta[http-equiv="Content-Security-Policy"]').evaluateAll(
    (ms) => ms.map((m) => ({ content: m.getAttribute('content'), inHead: m.parentElement === document.head })));
  assert.equal(metas.length, 1, `one CSP meta tag on ${page.url()}`);
  assert.ok(metas[0].inHead, 'the CSP meta tag is in <head>');
  const directives = Object.fromEntries(metas[0].content.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
  assert.deepEqual(directives['default-src'], ["'self'"]);
  const hashes = directives['script-src'].filter((s) => s.startsWith("'sha256-"));
  assert.deepEqual(directives['script-src'].filter((s) => !hashes.includes(s)), ["'self'", "'wasm-unsafe-eval'"],
    'scripts: this site, wasm compilation and one hash only');
  assert.deepEqual(directives['object-src'], ["'none'"]);
  // One inline script, static/boot.js's code (scripts/merge-lang.mjs writes it into the page so
  // the wasm's download starts at once), allowed by its hash and by nothing broader.
  const inline = await page.locator('script:not([src])').evaluateAll((ss) => ss.map((s) => s.textContent));
  assert.equal(inline.length, 1, 'one inline <script>: the boot loader');
  assert.deepEqual(hashes, [`'sha256-${createHash('sha256').update(inline[0], 'utf8').digest('base64')}'`],
    'the policy allows exactly that script');
  return directives;
}

test('a full visit loads nothing from another origin, and every page carries the CSP', async () => {
  const foreign = [];
  const wasm = [];
  await withPage(async (page, context) => {
    context.on('request', (r) => { if (new URL(r.url()).origin !== ORIGIN) foreign.push(`${r.method()} ${r.url()}`); });
    context.on('response', (r) => { if (/\.wasm$/.test(new URL(r.url()).pathname)) wasm.push([r.url(), r.headers()['content-type']]); });
    page.on('websocket', (ws) => foreign.push(`websocket ${ws.url()}`));
    await context.addInitScript(() => document.addEventListener('securitypolicyviolation',
      (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`)));

    // A lesson, run to the end (the naive service's: `/` opens 1.1, on the atomic service only).
    await open(page, '#/scenario/double-charge');
    await page.getByTestId('lesson').waitFor();
    const play = await csp(page);
    assert.deepEqual(play['style-src'], ["'self'"], 'the playground needs no inline style');
    await skipQuestion(page);
    await page.getByTestId('run-to-end').click();
    await page.locator('section[data-service=naive] [data-testid=invariants] .fail').first().waitFor();

    // The sandbox: one charge.
    await open(page, 'sandbox/#/sandbox');
    await page.getByTestId('key-input').fill('order-1');
    await page.getByTestId('amount-input').fill('100');
    await page.getByTestId('send').click();
    await page.getByTestId('run-to-end').click();
    await page.locator('section[data-service=atomic] [data-testid=store] tr[data-key="order-1"]').waitFor();

    // The lab, with the explorer's histogram (its bars are the one inline style attribute).
    await open(page, 'lab/');
    await page.getByTestId('lab-model').waitFor();
    const lab = await csp(page);
    assert.deepEqual(lab['style-src'], ["'self'", "'unsafe-inline'"]);
    await page.getByTestId('explorer-start').click();
    await page.waitForSelector('[data-testid=explorer-status][data-state=done]', { timeout: 30_000 });
    assert.ok(await page.locator('.lab-bar').count() > 0, 'the histogram is drawn');
    // The property checks, a naive run with its shrinking.
    await open(page, 'properties/');
    await page.getByTestId('prop-run').waitFor();
    const props = await csp(page);
    assert.deepEqual(props['style-src'], ["'self'"], 'the property page needs no inline style');
    await page.getByTestId('prop-run').click();
    await page.waitForSelector('[data-testid=prop-result][data-state=fail]', { timeout: 60_000 });
    // The durable-execution page, a lesson run past its question to the end.
    await open(page, 'durable/');
    await page.getByTestId('lesson').waitFor();
    const durable = await csp(page);
    assert.deepEqual(durable['style-src'], ["'self'"], 'the durable page needs no inline style');
    await skipQuestion(page);
    await page.getByTestId('run-to-end').click();
    assert.deepEqual(foreign, [], `requests to another origin than ${ORIGIN}`);
  });
  assert.ok(wasm.some(([u]) => /\/playground-[0-9a-f]+_bg\.wasm$/.test(u)) && wasm.some(([u]) => /\/lab\/lab-[0-9a-f]+_bg\.wasm$/.test(u))
    && wasm.some(([u]) => /\/properties\/properties-[0-9a-f]+_bg\.wasm$/.test(u))
    && wasm.some(([u]) => /\/durable\/durable-[0-9a-f]+_bg\.wasm$/.test(u)),
    `every page's wasm was fetched: ${JSON.stringify(wasm)}`);
  for (const [url, type] of wasm) assert.equal(type, 'application/wasm', `${url} (streaming instantiation needs it)`);
});
