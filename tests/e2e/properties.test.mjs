// The property-check page in a real browser: a naive run fails and shrinks, its minimal case
// opens in the playground where the double charge shows; the atomic service passes; a reload keeps
// the settings and Back returns to the run before; both languages at 1280 and 390 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withPage, open, ready, SHOTS } from './harness.mjs';

async function runAndWait(page) {
  await page.getByTestId('prop-run').click();
  await page.waitForSelector('[data-testid=prop-result]:is([data-state=pass], [data-state=fail])', { timeout: 60_000 });
  await page.getByTestId('prop-cancel').waitFor({ state: 'detached' });
  return page.getByTestId('prop-result').getAttribute('data-state');
}

async function noOverflow(page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the window`);
}

test('naive: the run fails, shrinks to two charges, and the minimal case opens in the playground', async () => {
  await withPage(async (page) => {
    await open(page, 'properties/');
    await page.getByRole('heading', { name: /Property checks/ }).waitFor();
    assert.equal(await page.getByTestId('prop-service').inputValue(), 'naive');
    assert.equal(await page.getByTestId('prop-cases').inputValue(), '256');
    assert.equal(await runAndWait(page), 'fail');
    console.log(`properties page, naive replay, 256 cases: ${await page.getByTestId('prop-status').textContent()}`);
    const minimal = page.getByTestId('prop-minimal');
    const inputs = Number(await minimal.getAttribute('data-inputs'));
    assert.ok(inputs >= 1 && inputs <= 2, `${inputs} inputs`);
    const listed = await page.getByTestId('prop-minimal-inputs').locator('li').allTextContents();
    assert.equal(listed.length, inputs);
    assert.ok(listed.every((l) => l.includes('with key “test-key”') && l.includes(' 1 ')), listed.join('\n'));
    assert.match(await page.getByTestId('prop-minimal-breach').textContent(), /charged again at step \d+/);
    await page.locator('.prop-original summary').click();
    assert.ok(await page.getByTestId('prop-original-inputs').locator('li').count() >= inputs);
    await page.screenshot({ path: `${SHOTS}/properties-fail-1280.png`, fullPage: true });

    // One click: the sandbox of the playground page, at the step that broke the property.
    await page.getByTestId('prop-open').click();
    await page.waitForURL(/\/#\/sandbox\?s=/);
    await ready(page);
    const naive = page.locator('section[data-service=naive]');
    await naive.locator('[data-testid=invariants] .fail').first().waitFor();
    assert.match(await naive.locator('[data-testid=invariants] .fail').first().textContent(), /one charge per key/);
    await page.getByTestId('run-to-end').click();
    assert.equal(await naive.locator('[data-testid=ledger] tr').count(), 2, 'two charges for one key');
    assert.equal(await naive.getByTestId('balance').textContent(), '998');
    await page.screenshot({ path: `${SHOTS}/properties-opened-1280.png`, fullPage: true });
  });
});

test('atomic passes; a reload keeps the settings and Back returns to the run before', async () => {
  await withPage(async (page) => {
    await open(page, 'properties/');
    await page.getByTestId('prop-service').selectOption('atomic');
    await page.getByTestId('prop-seed').fill('7');
    assert.equal(await runAndWait(page), 'pass');
    assert.match(await page.getByTestId('prop-result').textContent(), /256 of 256/);
    assert.match(page.url(), /#\/properties\?p=replay&svc=atomic&n=256&seed=7$/);
    await page.screenshot({ path: `${SHOTS}/properties-pass-1280.png`, fullPage: true });

    await page.reload();
    await ready(page);
    assert.equal(await page.getByTestId('prop-service').inputValue(), 'atomic');
    assert.equal(await page.getByTestId('prop-seed').inputValue(), '7');
    await page.waitForSelector('[data-testid=prop-result][data-state=pass]', { timeout: 60_000 });

    // Another run, then Back: the previous settings and their result.
    await page.getByTestId('prop-service').selectOption('toctou');
    assert.equal(await runAndWait(page), 'fail');
    assert.match(page.url(), /svc=toctou/);
    await page.goBack();
    await page.waitForURL(/svc=atomic/);
    await page.waitForSelector('[data-testid=prop-result][data-state=pass]', { timeout: 60_000 });
    assert.equal(await page.getByTestId('prop-service').inputValue(), 'atomic');
    await page.goForward();
    await page.waitForURL(/svc=toctou/);
    await page.waitForSelector('[data-testid=prop-result][data-state=fail]', { timeout: 60_000 });

    // The nav link (no settings in the address) opens what this browser saved, waiting for Run.
    await open(page, 'sandbox/#/sandbox');
    await page.getByRole('link', { name: 'Property checks' }).click();
    await page.waitForURL(/\/properties\/#\/properties$/);
    await ready(page);
    assert.equal(await page.getByTestId('prop-service').inputValue(), 'toctou');
    assert.equal(await page.getByTestId('prop-status').getAttribute('data-state'), 'idle');
  });
});

test('a bad number names its limit and runs nothing; Cancel stops a long run', async () => {
  await withPage(async (page) => {
    await open(page, 'properties/');
    await page.getByTestId('prop-cases').fill('0');
    assert.equal(await page.getByTestId('prop-cases-error').textContent(), 'Cases: 0 is too small. The range is 1 to 10,000.');
    await page.getByTestId('prop-run').click();
    assert.equal(await page.getByTestId('prop-status').getAttribute('data-state'), 'idle');
    await page.getByTestId('prop-cases').fill('10000');
    await page.getByTestId('prop-service').selectOption('production');
    await page.getByTestId('prop-run').click();
    await page.getByTestId('prop-cancel').click();
    assert.equal(await page.getByTestId('prop-status').getAttribute('data-state'), 'cancelled');
    assert.match(await page.getByTestId('prop-status').textContent(), /of 10,000 cases/);
    // The Cancel button goes away; the keyboard's focus goes to Run, not to the page's start.
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'prop-run');
    // Run by keyboard: the focus stays on Run through the run.
    await page.getByTestId('prop-cases').fill('32');
    await page.getByTestId('prop-run').press('Enter');
    await page.waitForSelector('[data-testid=prop-result][data-state=pass]', { timeout: 60_000 });
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'prop-run');
  });
});

for (const [width, locale] of [[1280, 'ja-JP'], [390, 'ja-JP'], [390, 'en-US']]) {
  test(`${locale} at ${width} px: TOCTOU fails and shrinks, and the page fits`, async () => {
    await withPage(async (page) => {
      await open(page, 'properties/#/properties?p=replay&svc=toctou&n=256&seed=42');
      await page.waitForSelector('[data-testid=prop-result][data-state=fail]', { timeout: 60_000 });
      const heading = locale === 'ja-JP' ? /プロパティベーステスト/ : /Property checks/;
      await page.getByRole('heading', { name: heading }).first().waitFor();
      const minimal = await page.getByTestId('prop-minimal').textContent();
      assert.match(minimal, locale === 'ja-JP' ? /最小のケースに縮小した/ : /Shrunk to a minimal case/);
      assert.ok(Number(await page.getByTestId('prop-minimal').getAttribute('data-inputs')) <= 2);
      await noOverflow(page);
      await page.screenshot({ path: `${SHOTS}/properties-${locale}-${width}.png`, fullPage: true });
    }, { width, height: 844, locale });
  });
}
