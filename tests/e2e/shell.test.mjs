// The page shell: it loads from dist/, speaks both languages, remembers the choice, and reads well
// at desktop and phone widths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withPage, open, ready, SHOTS } from './harness.mjs';

test('loads, switches language, and remembers it across a reload', async () => {
  await withPage(async (page) => {
    await open(page);
    await assert.doesNotReject(page.getByRole('heading', { name: 'Idempotency keys playground' }).waitFor());
    await page.screenshot({ path: `${SHOTS}/shell-1280.png`, fullPage: true });
    await page.getByTestId('lang-toggle').click();
    await page.getByRole('heading', { name: '冪等性キー・プレイグラウンド' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'ja');
    await page.reload();
    await page.getByRole('heading', { name: '冪等性キー・プレイグラウンド' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/shell-ja-1280.png`, fullPage: true });
  });
});

test('defaults to Japanese for a Japanese browser and fits a 390 px phone', async () => {
  await withPage(async (page) => {
    await open(page);
    await page.getByRole('heading', { name: '冪等性キー・プレイグラウンド' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the phone screen`);
    await page.screenshot({ path: `${SHOTS}/shell-390.png`, fullPage: true });
  }, { width: 390, height: 844, locale: 'ja-JP' });
});

test('an unknown route says so and links home', async () => {
  await withPage(async (page) => {
    await open(page, '#/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Back to the first scenario' }).click();
    await page.waitForFunction(() => location.hash === '#/');
  });
});

test('the lab is a page of its own: the nav goes there and back, and the language goes along', async () => {
  await withPage(async (page) => {
    await open(page, 'sandbox/#/sandbox');
    await page.getByTestId('lang-toggle').click();
    await page.getByRole('link', { name: '並行性ラボ' }).click();
    await page.waitForURL(/\/lab\/#\/lab$/);
    await ready(page);
    await page.getByTestId('lab-model').waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'ja');
    assert.equal(await page.getByTestId('lab-gloss').count(), 0, 'no English glosses on the Japanese page');
    // The playground's wasm is not loaded on the lab page, and the lab's not on the playground.
    const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    assert.ok(scripts.some((u) => /\/lab\/lab-[0-9a-f]+_bg\.wasm$/.test(u)), scripts.join('\n'));
    assert.ok(!scripts.some((u) => /playground-[0-9a-f]+_bg\.wasm$/.test(u)), scripts.join('\n'));
    await page.getByRole('link', { name: 'サンドボックス' }).click();
    await page.waitForURL(/\/#\/sandbox$/);
    await ready(page);
    await page.getByTestId('sandbox').waitFor();
    const back = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    assert.ok(!back.some((u) => /lab-[0-9a-f]+_bg\.wasm$/.test(u)), back.join('\n'));
  });
});

test('the property checks are a page of their own: every page links there, old-style links are handed over', async () => {
  await withPage(async (page) => {
    await open(page, 'lab/');
    await page.getByTestId('lang-toggle').click();
    await page.getByRole('link', { name: 'プロパティテスト' }).click();
    await page.waitForURL(/\/properties\/#\/properties$/);
    await ready(page);
    await page.getByTestId('prop-run').waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'ja');
    const wasm = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((u) => u.endsWith('.wasm')));
    assert.ok(wasm.length === 1 && /\/properties\/properties-[0-9a-f]+_bg\.wasm$/.test(wasm[0]), wasm.join('\n'));
    // From the property page to the other two, by the header's links.
    await page.getByRole('link', { name: '並行性ラボ' }).click();
    await page.waitForURL(/\/lab\/#\/lab$/);
    await ready(page);
    await page.getByTestId('lab-model').waitFor();
    // A properties route opened on the playground page (an old or hand-typed link) is handed on,
    // settings and all.
    await open(page, '#/properties?p=replay&svc=atomic&n=16&seed=3');
    await page.waitForURL(/\/properties\/#\/properties\?p=replay&svc=atomic&n=16&seed=3$/);
    await page.waitForSelector('[data-testid=prop-result][data-state=pass]', { timeout: 60_000 });
    await page.getByRole('link', { name: 'サンドボックス' }).click();
    await page.waitForURL(/\/#\/sandbox$/);
    await ready(page);
    await page.getByTestId('sandbox').waitFor();
  });
});

test('the skip link moves focus to the content and keeps the page and its address', async () => {
  for (const where of ['sandbox/#/sandbox', 'lab/#/lab', 'properties/#/properties']) {
    await withPage(async (page) => {
      await open(page, where);
      const before = page.url();
      await page.keyboard.press('Tab');
      await page.getByRole('link', { name: 'Skip to content' }).press('Enter');
      await page.waitForFunction(() => document.activeElement?.id === 'main');
      assert.equal(page.url(), before, 'the address (the route) is unchanged');
      await page.reload();
      await ready(page);
      assert.equal(await page.getByRole('heading', { name: 'Page not found' }).count(), 0);
      assert.equal(page.url(), before);
    });
  }
});

// Each page is built once per language (scripts/build.sh, static/boot.js): a reader downloads one
// language's wasm; the switch loads the other build and the run, its step and the answered
// question come back as they were.
const wasmLoaded = (page) =>
  page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((u) => u.endsWith('.wasm')));
const boot = (page) =>
  page.evaluate(() => {
    const t = document.querySelector('script[data-module][data-wasm]');
    return { en: new URL(t.dataset.wasm, document.baseURI).href, ja: new URL(t.dataset.wasmJa, document.baseURI).href };
  });

test('one language per download: the switch loads the other build and keeps the run where it was', async () => {
  await withPage(async (page) => {
    await open(page, '#/scenario/double-charge');
    const builds = await boot(page);
    assert.notEqual(builds.en, builds.ja);
    assert.deepEqual(await wasmLoaded(page), [builds.en], 'an English reader downloads the English build only');
    // Answer the question, then step on: the state the switch must keep.
    await page.getByTestId('run-to-end').click();
    await page.getByTestId('predict').locator('button[data-choice]').first().click();
    const state = await page.getByTestId('predict').getAttribute('data-state');
    const at = await page.getByTestId('position').textContent();
    await page.getByTestId('lang-toggle').click();
    await page.getByRole('heading', { name: '冪等性キー・プレイグラウンド' }).waitFor();
    assert.deepEqual(await wasmLoaded(page), [builds.ja], 'after the switch, the Japanese build only');
    assert.equal(await page.getAttribute('html', 'lang'), 'ja');
    assert.equal(await page.getByTestId('predict').getAttribute('data-state'), state, 'the answer is kept');
    assert.equal((await page.getByTestId('position').textContent()).match(/\d+ \/ \d+/)[0], at.match(/\d+ \/ \d+/)[0], 'the step is kept');
    assert.equal(await page.getByText('Idempotency keys playground', { exact: true }).count(), 0, 'no English title left');
    // And back.
    await page.getByTestId('lang-toggle').click();
    await page.getByRole('heading', { name: 'Idempotency keys playground' }).waitFor();
    assert.deepEqual(await wasmLoaded(page), [builds.en]);
  });
});

test('a Japanese browser downloads the Japanese build of every page, and nothing else', async () => {
  await withPage(async (page) => {
    for (const path of ['', 'sandbox/', 'lab/', 'properties/', 'durable/', 'kafka/']) {
      await open(page, path);
      const builds = await boot(page);
      assert.deepEqual(await wasmLoaded(page), [builds.ja], `${path || 'playground'}: the Japanese build only`);
      assert.equal(await page.getAttribute('html', 'lang'), 'ja');
    }
  }, { locale: 'ja-JP' });
});

// The sandbox and the challenges moved from the first page to sandbox/ (a wasm of its own, so the
// lessons' download carries none of the sandbox form): links made before still open them.
test('the sandbox is a page of its own: old #/sandbox and #/challenge links are handed over, payload kept', async () => {
  await withPage(async (page) => {
    await open(page, 'sandbox/#/sandbox');
    await page.getByTestId('sandbox').waitFor();
    const wasm = await wasmLoaded(page);
    assert.ok(wasm.length === 1 && /\/sandbox\/sandbox-[0-9a-f]+_bg\.wasm$/.test(wasm[0]), wasm.join('\n'));
    // A share link of the sandbox, made on the first page by an earlier version.
    await page.getByTestId('key-input').fill('order-7');
    await page.getByTestId('send').click();
    await page.getByTestId('run-to-end').click();
    const payload = (await page.getByTestId('share-link').inputValue()).split('#')[1];
    await open(page, `#${payload}`);
    await page.waitForURL(/\/sandbox\/#\/sandbox\?s=/);
    await page.getByTestId('sandbox').waitFor();
    assert.equal((await page.getByTestId('share-link').inputValue()).split('#')[1], payload, 'the same run at the same step');
    assert.equal(await page.locator('section[data-service=atomic] [data-testid=store] tr[data-key="order-7"]').count(), 1);
    await open(page, '#/challenge/triple-charge');
    await page.waitForURL(/\/sandbox\/#\/challenge\/triple-charge$/);
    await page.getByTestId('challenge').waitFor();
    // The lesson list's links from the sandbox page lead back to the first page.
    const first = page.locator('[data-testid=lesson-toc] a[data-section=double-charge]');
    assert.equal(await first.getAttribute('href'), '../#/scenario/double-charge');
    await page.goto(page.url().split('#')[0] + '../');
    await ready(page);
    const lessonsOnly = await wasmLoaded(page);
    assert.ok(lessonsOnly.length === 1 && /\/playground-[0-9a-f]+_bg\.wasm$/.test(lessonsOnly[0]), lessonsOnly.join('\n'));
    assert.equal(await page.locator('[data-testid=lesson-toc] a[data-section=sandbox]').getAttribute('href'), 'sandbox/#/sandbox');
  });
});
