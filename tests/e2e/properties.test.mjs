// The property-check page in a real browser: a naive run fails and shrinks, its minimal case's run
// is listed step by step (the step the breach names is there to find) and opens in the
// playground, which says where the run came from (not that it was shared) and shows the double
// charge; the shrink steps can be walked one by one (buttons, keys, slider) and the step on screen
// survives a reload; the atomic service passes; a reload keeps the settings and Back returns to
// the run before; both languages at 1280 and 390 px, with no WCAG 2.1 AA violation in the walk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
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
    const breach = await page.getByTestId('prop-minimal-breach').textContent();
    const step = Number(breach.match(/charged again at step (\d+)/)[1]);
    // "step 5" in the sentence is a numbered line of the run below it, pointed at.
    const row = page.locator(`[data-testid=prop-minimal-run] li.prop-step[data-step="${step}"]`);
    await row.waitFor();
    assert.match(await row.locator('.prop-step-n').textContent(), new RegExp(`^Step ${step} · `));
    assert.match(await row.textContent(), /the property broke here/);
    const steps = await page.locator('[data-testid=prop-minimal-run] li.prop-step .prop-step-n').allTextContents();
    assert.deepEqual(steps.map((t) => Number(t.match(/^Step (\d+)/)[1])), steps.map((_, i) => i + 1));
    // The walk starts at the case as generated.
    const walk = page.getByTestId('prop-walk');
    assert.equal(await walk.getAttribute('data-at'), '0');
    assert.ok(await page.getByTestId('prop-original-inputs').locator('li').count() >= inputs);
    await page.screenshot({ path: `${SHOTS}/properties-fail-1280.png`, fullPage: true });

    // The link says what it does; nothing in it or after it says the run was shared.
    const open_ = page.getByTestId('prop-open');
    assert.equal(await open_.textContent(), 'Open this case\'s run in the playground');
    const note = await page.getByTestId('prop-open-note').textContent();
    assert.match(note, new RegExp(`opens it at step ${step}, where the property broke`));
    assert.doesNotMatch(note, /shar/i);
    // One click: the sandbox of the playground page, at the step that broke the property.
    await open_.click();
    await page.waitForURL(/\/#\/sandbox\?s=.*&from=properties$/);
    await ready(page);
    const said = await page.getByTestId('notice').first().textContent();
    assert.match(said, new RegExp(`Opened the counterexample from the property checks at step ${step}`));
    assert.doesNotMatch(said, /shared/);
    const naive = page.locator('section[data-service=naive]');
    await naive.locator('[data-testid=invariants] .fail').first().waitFor();
    assert.match(await naive.locator('[data-testid=invariants] .fail').first().textContent(), /one charge per key/);
    await page.getByTestId('run-to-end').click();
    assert.equal(await naive.locator('[data-testid=ledger] tr').count(), 2, 'two charges for one key');
    assert.equal(await naive.getByTestId('balance').textContent(), '998');
    await page.screenshot({ path: `${SHOTS}/properties-opened-1280.png`, fullPage: true });
  });
});

/** The walk's position: the step shown and the last one. */
async function at(page) {
  const walk = page.getByTestId('prop-walk');
  return [Number(await walk.getAttribute('data-at')), Number(await walk.getAttribute('data-last'))];
}

test('the shrink steps, one at a time: buttons, keys and the slider; the step shown survives a reload and Back', async () => {
  await withPage(async (page) => {
    await open(page, 'properties/#/properties?p=one-charge-per-key&svc=naive&n=256&seed=3');
    await page.waitForSelector('[data-testid=prop-result][data-state=fail]', { timeout: 60_000 });
    let [now, last] = await at(page);
    assert.equal(now, 0);
    assert.ok(last >= 5, `${last} shrink steps`);
    assert.match(await page.getByTestId('prop-walk-pos').textContent(), new RegExp(`^Start: the failing case as generated \\(shrink step 0 of ${last}\\)`));
    const next = page.getByTestId('prop-walk-next');
    await next.click();
    assert.deepEqual(await at(page), [1, last]);
    assert.equal(await page.getByTestId('prop-walk-pos').textContent(), `Shrink step 1 of ${last}`);
    assert.match(await page.getByTestId('prop-walk-edit').textContent(), /^Tried: (Remove|Input|Charge|Start)/);
    const verdict = await page.getByTestId('prop-walk-case').getAttribute('data-verdict');
    assert.ok(['fail', 'pass', 'refused'].includes(verdict), verdict);
    assert.match(await page.getByTestId('prop-walk-verdict').textContent(), /^(✕ Still fails: kept|✓ The property held: dropped|The limits refuse)/);
    // Keys on the buttons: the focus stays where it was.
    await next.press('ArrowRight');
    assert.deepEqual(await at(page), [2, last]);
    await next.press('End');
    assert.deepEqual(await at(page), [last, last]);
    assert.equal(await next.getAttribute('aria-disabled'), 'true');
    await next.press('Enter');
    assert.deepEqual(await at(page), [last, last], 'Next at the end stays there');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'prop-walk-next');
    assert.match(await page.getByTestId('prop-walk-end').textContent(), /last shrink step/);
    await next.press('Home');
    assert.deepEqual(await at(page), [0, last]);
    // The slider (a phone's thumb, or the keyboard on it).
    await page.getByTestId('prop-walk-slider').press('ArrowRight');
    assert.deepEqual(await at(page), [1, last]);
    // Every step, forward: each removes or changes something, and each kept one is smaller.
    for (let k = 1; k <= last; k += 1) {
      await page.getByTestId('prop-walk-slider').evaluate((el, v) => {
        el.value = String(v);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, k);
      assert.deepEqual(await at(page), [k, last]);
      const marked = await page.locator('[data-testid=prop-walk-inputs] li:is(.prop-removed, .prop-changed), [data-testid=prop-walk-case] p.prop-changed').count();
      assert.ok(marked > 0, `step ${k} marks what it removed or changed`);
    }
    // The step shown is in the address: a reload comes back to it, and so does Back.
    await page.getByTestId('prop-walk-prev').click();
    now = last - 1;
    assert.match(page.url(), new RegExp(`&shrink=${now}$`));
    await page.reload();
    await ready(page);
    await page.waitForSelector('[data-testid=prop-walk]', { timeout: 60_000 });
    assert.deepEqual(await at(page), [now, last]);
    await page.getByTestId('prop-service').selectOption('toctou');
    assert.equal(await runAndWait(page), 'fail');
    assert.equal((await at(page))[0], 0, 'a new run starts the walk over');
    await page.goBack();
    await page.waitForURL(/svc=naive/);
    await page.waitForSelector('[data-testid=prop-walk]', { timeout: 60_000 });
    assert.deepEqual(await at(page), [now, last]);
    // An old link (no step) opens at the start; a step past the end opens at the last.
    await open(page, 'properties/#/properties?p=one-charge-per-key&svc=naive&n=256&seed=3&shrink=9999');
    await page.waitForSelector('[data-testid=prop-walk]', { timeout: 60_000 });
    assert.deepEqual(await at(page), [last, last]);
  });
});

for (const [width, locale] of [[1280, 'en-US'], [390, 'ja-JP']]) {
  test(`the walk at a shrink step has no WCAG 2.1 AA violation (${locale}, ${width} px)`, async () => {
    await withPage(async (page) => {
      await open(page, 'properties/#/properties?p=replay&svc=naive&n=256&seed=42&shrink=2');
      await page.waitForSelector('[data-testid=prop-walk][data-at="2"]', { timeout: 60_000 });
      await page.locator('[data-testid=prop-walk-case] details.prop-run summary').click();
      const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const found = result.violations.map((v) => `${v.id}: ${v.help}; ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
      assert.deepEqual(found, []);
      await page.screenshot({ path: `${SHOTS}/properties-walk-${locale}-${width}.png`, fullPage: true });
    }, { width, height: 844, locale });
  });
}

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
