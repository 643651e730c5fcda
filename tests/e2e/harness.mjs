// Shared set-up for the end-to-end tests: Debian's Chromium driven by playwright-core (its own
// browser download cannot work here), with the flags this closed network needs.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080/';
export const SHOTS = 'target/e2e';
mkdirSync(SHOTS, { recursive: true });

/** Runs `fn(page, context)` in a fresh headless Chromium and always closes it. */
export async function withPage(fn, { width = 1280, height = 800, locale = 'en-US' } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    locale,
    viewport: { width, height },
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-quic'],
  });
  const errors = [];
  try {
    const page = context.pages()[0] ?? await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await fn(page, context);
    if (errors.length) throw new Error(`the page reported errors:\n${errors.join('\n')}`);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Opens a route (e.g. '#/sandbox', or 'lab/' for the lab page) and waits for the Wasm app to
 * render a page (not the short note shown while one page hands a route to the other). */
export async function open(page, hash = '') {
  await page.goto(BASE_URL + hash);
  await ready(page);
}

/** Waits for the app to draw a page after a load, reload or hand-over. */
export async function ready(page) {
  await page.waitForSelector('main#main > :not([data-testid=handover])', { timeout: 30_000 });
  // The first page fetches its lessons' words as it opens (src/ui/text/lessons.rs, LAZY).
  await page.waitForFunction(() => !document.querySelector('[data-words=loading]'), null, { timeout: 30_000 });
}

/** Skips the lesson's question if one is waiting, so the run can go on to its end. */
export async function skipQuestion(page) {
  // The question is drawn with the lesson's words, which load as the page opens: wait for them, or
  // a question not yet drawn is "not waiting" and the run stops at it (CI at c5afd24, 900 ≠ 800).
  await ready(page);
  const skip = page.getByTestId('predict-skip');
  if (await skip.count()) await skip.click();
}

/** The balance a service's panel shows, as a number (its digits are grouped: 1,000). */
export async function balance(page, service) {
  const text = await page.locator(`section[data-service=${service}] [data-testid=balance]`).first().textContent();
  return Number(text.replace(/,/g, ''));
}
