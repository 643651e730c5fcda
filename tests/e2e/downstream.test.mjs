// Issue 13, downstream (sections 1 and 3) as a learner meets it: the slow-processor lesson
// (predict, reveal, the processor's lane), the store-failures lesson, the sandbox's downstream
// settings changing the run, the slow-lock challenge won with the sandbox's controls, and both
// languages at 1280 and 390 px (screenshots target/e2e/downstream-*.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withPage, open, SHOTS, balance } from './harness.mjs';


async function answer(page, value) {
  const predict = page.getByTestId('predict');
  await page.getByTestId('run-to-end').click();
  assert.equal(await predict.getAttribute('data-state'), 'open');
  const choices = await predict.locator('button[data-choice]').allTextContents();
  assert.ok(choices.includes(value), `${value} in ${choices}`);
  assert.ok(choices.length >= 2 && choices.length <= 4);
  await predict.locator('button[data-choice]', { hasText: new RegExp(`^${value}$`) }).click();
  assert.equal(await predict.getAttribute('data-state'), 'right');
  return choices;
}

test('slow processor: predict two charges, reveal them on the processor lane', async () => {
  await withPage(async (page) => {
    await open(page, '#/scenario/slow-processor');
    await answer(page, '2');
    await page.getByTestId('outcome').waitFor();
    await page.getByTestId('run-to-end').click();
    assert.equal(await balance(page, 'production'), 800);
    assert.match(await page.getByTestId('timeline').textContent(), /Processor/);
    assert.match(await page.getByTestId('timeline').textContent(), /processor charges 100/);
    await page.screenshot({ path: `${SHOTS}/downstream-slow-1280.png`, fullPage: true });
  });
});

test('store failures: the evicted key charges again, failing closed costs a 503', async () => {
  await withPage(async (page) => {
    await open(page, '#/scenario/store-failures');
    await answer(page, '2');
    await page.getByTestId('run-to-end').click();
    assert.equal(await balance(page, 'split-store'), 600);
    assert.equal(await balance(page, 'atomic'), 700);
    const words = await page.getByTestId('timeline').textContent();
    assert.match(words, /evicted|503/);
  });
});

const toEnd = async (page) => {
  const end = page.getByTestId('run-to-end');
  if (!(await end.isDisabled())) await end.click();
};

test('the sandbox: the downstream settings are the run\'s, and change it', async () => {
  await withPage(async (page) => {
    await open(page, '#/sandbox');
    const fields = page.getByTestId('downstream-fields');
    await fields.getByTestId('processor-ms').selectOption('200');
    await page.getByTestId('fault-select').selectOption('processor-slow');
    await page.getByLabel('Max attempts (1–20)', { exact: true }).fill('20');
    await page.getByTestId('send-operation').click();
    await toEnd(page);
    // 20 tries 0.6 s apart never outlive the 90 s lock: 409s, one charge.
    assert.equal(await balance(page, 'production'), 900);
    assert.match(await page.locator('section[data-service=production]').textContent(), /409/);
    // Passing the key on re-runs the same inputs with the processor told the key.
    await fields.getByTestId('pass-key').check();
    await toEnd(page);
    assert.ok(await fields.getByTestId('pass-key').isChecked());
    assert.equal(await balance(page, 'production'), 900);
    await fields.getByTestId('store-capacity').selectOption('1');
    await fields.getByTestId('outage').selectOption('fail-open');
    assert.equal(await fields.getByTestId('outage').inputValue(), 'fail-open');
    assert.equal(await fields.getByTestId('store-capacity').inputValue(), '1');
    // The settings travel with the run: a reload keeps them.
    await page.reload();
    await page.getByTestId('downstream-fields').waitFor();
    assert.ok(await page.getByTestId('pass-key').isChecked());
    assert.equal(await page.getByTestId('outage').inputValue(), 'fail-open');
  });
});

test('challenge: charge twice with one key through a slow processor and an expired lock', async () => {
  await withPage(async (page) => {
    await open(page, '#/challenge/slow-lock-double');
    const status = page.locator('[data-testid=challenge] [data-testid=challenge-status]');
    assert.equal(await status.getAttribute('data-state'), 'open');
    await page.getByTestId('fault-select').selectOption('processor-slow');
    await page.getByLabel('Max attempts (1–20)', { exact: true }).fill('10');
    await page.getByTestId('send-operation').click();
    await page.getByTestId('run-to-end').click();
    await page.locator('[data-testid=challenge-status][data-state=won]').waitFor();
    await page.screenshot({ path: `${SHOTS}/downstream-challenge-1280.png`, fullPage: true });
  });
});

for (const [width, locale] of [[390, 'en-US'], [1280, 'ja-JP'], [390, 'ja-JP']]) {
  test(`the lessons at ${width} px, ${locale}`, async () => {
    await withPage(async (page) => {
      await open(page, '#/scenario/slow-processor');
      await answer(page, '2');
      const ja = locale === 'ja-JP';
      assert.match(await page.getByTestId('timeline').textContent(), ja ? /決済代行/ : /Processor/);
      await page.screenshot({ path: `${SHOTS}/downstream-slow-${width}-${locale}.png`, fullPage: true });
      await open(page, '#/sandbox');
      await page.getByTestId('downstream-fields').scrollIntoViewIfNeeded();
      await page.getByTestId('downstream-fields').screenshot({ path: `${SHOTS}/downstream-sandbox-${width}-${locale}.png` });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `no sideways scroll (${overflow}px)`);
    }, { width, height: 844, locale });
  });
}
