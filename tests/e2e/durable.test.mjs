// The durable-execution page in a real browser: each lesson predicted and revealed, the journal's
// rows read back on replay, the non-determinism stop, Temporal's request id and Restate's
// retention, both challenges won (Temporal waiting for the Start-To-Close timeout), the learner's
// crash and restart, share link, reload and import, the keyboard, both languages at 1280 and 390 px;
// Reset this lesson, and a lesson's transfer question on a variation it did not run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withPage, open, ready, SHOTS } from './harness.mjs';

const col = (page, i) => page.locator(`[data-testid=column][data-column="${i}"]`);

async function balances(page) {
  return page.getByTestId('balance').allTextContents();
}

/** Runs to the question, answers `choice` (its visible text), checks the verdict, runs to the end. */
async function predict(page, choice) {
  await page.getByTestId('run-to-end').click();
  const predict = page.getByTestId('predict');
  assert.equal(await predict.getAttribute('data-state'), 'open');
  assert.equal(await page.getByTestId('step').isDisabled(), true, 'the run waits for the answer');
  await predict.locator('.choice', { hasText: choice }).click();
  assert.equal(await predict.getAttribute('data-state'), 'right', await page.getByTestId('verdict').textContent());
  await page.getByTestId('run-to-end').click();
  assert.equal(await page.getByTestId('run-to-end').isDisabled(), true);
}

async function noOverflow(page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the window`);
}

test('lesson 1: the worker crashes mid-order; the shipment runs again at its Start-To-Close timeout, then the journal replays', async () => {
  await withPage(async (page) => {
    await open(page, 'durable/#/scenario/durable-resume');
    await page.getByRole('heading', { name: 'The worker crashes mid-order' }).waitFor();
    await predict(page, 'only the unfinished step');
    const rows = col(page, 0).locator('[data-testid=journal] tr');
    assert.equal(await rows.count(), 5);
    const replayed = await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.replayed));
    // Temporal retried the shipment at its Start-To-Close timeout, then the new worker replayed the
    // history, the shipment's result included.
    assert.deepEqual(replayed, ['true', 'true', 'true', 'true', 'false']);
    const timeline = await page.getByTestId('timeline').textContent();
    assert.match(timeline, /Start-To-Close timeout \(2\.0 s\)/);
    assert.match(await col(page, 0).getByTestId('effects').textContent(), /shipped today: 2/);
    assert.deepEqual(await balances(page), ['900', '900']);
    // Without durable execution the run is lost, half done, and the invariant says which step.
    assert.match(await col(page, 1).getByTestId('run-status').textContent(), /lost/);
    assert.match(await col(page, 1).getByTestId('violation').textContent(), /charge_card/);
    await page.screenshot({ path: `${SHOTS}/durable-resume-1280.png`, fullPage: true });
  });
});

test('lesson 2: a re-run charge without a key or with a random key charges twice, a derived key once', async () => {
  await withPage(async (page) => {
    await open(page, 'durable/#/scenario/durable-charge-key');
    await predict(page, 'charges the card a second time');
    assert.deepEqual(await balances(page), ['900', '800', '800']);
    assert.match(await col(page, 0).getByTestId('effects').textContent(), /charges replayed by the key: 1/);
    assert.match(await col(page, 1).getByTestId('violation').textContent(), /at most one charge per order/);
    // No key: one charge is not promised here, and its break is said without the ✕ of a failure;
    // the derived key's column promises it and it holds.
    const unkeyed = col(page, 1).locator('[data-invariant=one-charge-per-order]');
    assert.equal(await unkeyed.getAttribute('data-promised'), 'false');
    assert.equal(await unkeyed.getAttribute('data-state'), 'broken');
    assert.match(await unkeyed.getByTestId('not-promised').textContent(), /not promised here: the payment steps pass no key/);
    assert.doesNotMatch(await unkeyed.textContent(), /✕/);
    assert.equal(await col(page, 1).locator('.badge.fail').count(), 0);
    const derived = col(page, 0).locator('[data-invariant=one-charge-per-order]');
    assert.equal(await derived.getAttribute('data-promised'), 'true');
    assert.equal(await derived.getAttribute('data-state'), 'holds');
  });
});

test('a wrong answer names the belief behind each choice, the learner\'s marked, and the step that disproves it', async () => {
  await withPage(async (page) => {
    await open(page, 'durable/#/scenario/durable-resume');
    await page.getByTestId('run-to-end').click();
    const predict = page.getByTestId('predict');
    await predict.locator('.choice', { hasText: 'every step, from the top' }).click();
    assert.equal(await predict.getAttribute('data-state'), 'wrong');
    const rows = predict.getByTestId('belief');
    assert.equal(await rows.count(), 3);
    const picked = predict.locator('[data-testid=belief][data-picked=true]');
    assert.match(await picked.textContent(), /runs again from the top, every step with it/);
    assert.equal(await predict.locator('[data-testid=belief].right').count(), 1);
    assert.equal(await predict.getByTestId('why-step').count(), 1);
    await page.screenshot({ path: `${SHOTS}/durable-wrong-1280.png`, fullPage: false });
  });
});

test('lesson 3: a workflow that reads the clock directly stops on replay, each engine its way', async () => {
  await withPage(async (page) => {
    await open(page, 'durable/#/scenario/durable-clock');
    assert.equal(await page.getByTestId('nondeterminism').count(), 0);
    await predict(page, 'non-determinism error');
    const stops = await page.getByTestId('nondeterminism').allTextContents();
    assert.equal(stops.length, 3);
    assert.match(stops[0], /^Temporal: non-determinism error/);
    assert.match(stops[1], /^Restate: journal mismatch/);
    assert.match(stops[2], /^DBOS: the step is refused/);
    assert.equal(await col(page, 3).getByTestId('nondeterminism').count(), 0);
    assert.match(await col(page, 3).getByTestId('run-status').textContent(), /completed/);
  });
});

test('lessons 4 and 5: the same workflow id started again, after the run and while it runs', async () => {
  await withPage(async (page) => {
    await open(page, 'durable/#/scenario/durable-same-id');
    await predict(page, 'started run 2');
    assert.deepEqual(await balances(page), ['800', '900', '900', '900']);
    assert.match(await col(page, 1).getByTestId('replies').textContent(), /rejected/);
    assert.match(await col(page, 2).getByTestId('replies').textContent(), /stored result/);
    await open(page, 'durable/#/scenario/durable-same-id-running');
    await predict(page, 'terminated run 1, started run 2');
    assert.deepEqual(await balances(page), ['900', '900', '800', '900']);
    assert.match(await col(page, 1).getByTestId('replies').textContent(), /joined the running run 1/);
    assert.match(await col(page, 2).getByTestId('replies').textContent(), /terminated run 1, started run 2/);
  });
});

test('lesson 6: a start retried with its request id is answered with run 1; a new call is a new request', async () => {
  await withPage(async (page) => {
    await open(page, 'durable/#/scenario/durable-request-id');
    await predict(page, 'the run this request id started');
    assert.deepEqual(await balances(page), ['900', '900', '800', '900']);
    assert.match(await col(page, 1).getByTestId('replies').textContent(), /answered with run 1/);
    assert.match(await col(page, 2).getByTestId('replies').textContent(), /terminated run 1, started run 2/);
    assert.match(await col(page, 3).getByTestId('replies').textContent(), /rejected/);
  });
});

test('lesson 7: past Restate\'s 24 h retention the same key runs anew; within it the stored response comes back', async () => {
  await withPage(async (page) => {
    await open(page, 'durable/#/scenario/durable-retention');
    await page.getByTestId('run-to-end').click();
    const predict = page.getByTestId('predict');
    const at = async () => Number((await page.getByTestId('position').textContent()).match(/(\d+)/)[1]);
    const asked = await at();
    await predict.locator('.choice', { hasText: 'started run 2' }).click();
    assert.equal(await predict.getAttribute('data-state'), 'right', await page.getByTestId('verdict').textContent());
    // As on every page, the answer moves the run on to the step that shows it.
    assert.ok(await at() > asked, 'the run moves on from the question');
    // The step after the question: the call 25 h later finds the key purged.
    while (await at() > asked) await page.getByTestId('back').click();
    await page.getByTestId('step').click();
    assert.match(await page.getByTestId('caption').textContent(), /purged it, so order-42 is free again/);
    await page.getByTestId('run-to-end').click();
    assert.deepEqual(await balances(page), ['800', '900', '800']);
    assert.match(await col(page, 0).getByTestId('replies').textContent(), /started run 2/);
    assert.match(await col(page, 1).getByTestId('replies').textContent(), /stored result/);
    assert.match(await col(page, 2).getByTestId('replies').textContent(), /started run 2/);
    assert.equal(await page.getByTestId('set-start-again').inputValue(), String(25 * 3600 * 1000));
  });
});

test('lesson 8: the saga compensates once with a keyed refund; without durable execution it is half done', async () => {
  await withPage(async (page) => {
    await open(page, 'durable/#/scenario/durable-saga');
    await predict(page, 'half done');
    assert.deepEqual(await balances(page), ['1,000', '1,100', '900']);
    assert.match(await col(page, 0).getByTestId('effects').textContent(), /refunds replayed by the key: 1/);
    assert.match(await col(page, 1).getByTestId('violation').textContent(), /refund_card/);
    assert.match(await col(page, 2).getByTestId('violation').textContent(), /book_flight/);
    // The why links to the step that shows it, named once ("at step 11", not "at step step 11").
    assert.doesNotMatch(await page.getByTestId('why').textContent(), /step step/);
    assert.match(await page.getByTestId('why-step').textContent(), /^\d+$/);
    await page.getByTestId('why-step').click();
    assert.match(await page.getByTestId('position').textContent(), /^Step 11 \//);
  });
});

test('challenges: charge twice with crashes only; the crash point where a random key charges once', async () => {
  await withPage(async (page) => {
    await open(page, 'durable/#/durable/challenge/durable-charge-twice');
    for (let i = 0; i < 6; i++) await page.getByTestId('step').click();
    assert.match(await page.getByTestId('caption').textContent(), /charge_card runs/);
    await page.getByTestId('crash-worker').click();
    assert.equal(await page.getByTestId('worker').getAttribute('data-state'), 'crashed');
    // A second later a new worker is up, but Temporal waits for the charge's Start-To-Close timeout.
    await page.getByTestId('step').click();
    assert.equal(await page.getByTestId('worker').getAttribute('data-state'), 'idle');
    assert.match(await page.getByTestId('caption').textContent(), /until its Start-To-Close timeout fires/);
    await page.getByTestId('run-to-end').click();
    assert.equal(await page.getByTestId('challenge').getAttribute('data-won'), 'true');
    assert.deepEqual(await balances(page), ['800']);
    // The debrief: why, the invariant the run broke (the core's, with its step), the real failure.
    const debrief = page.getByTestId('debrief');
    assert.match(await debrief.getByTestId('debrief-why').textContent(), /passes no key/);
    assert.match(await debrief.getByTestId('debrief-broken').textContent(), /broken at step \d+/);
    assert.match(await debrief.getByTestId('debrief-mirrors').textContent(), /without an idempotency key/);

    await open(page, 'durable/#/durable/challenge/durable-random-once');
    for (let i = 0; i < 5; i++) await page.getByTestId('step').click();
    assert.match(await page.getByTestId('caption').textContent(), /charge_card started/);
    await page.getByTestId('crash-worker').click();
    await page.getByTestId('run-to-end').click();
    assert.equal(await page.getByTestId('challenge').getAttribute('data-won'), 'true');
    assert.match(await page.getByTestId('crashes-left').textContent(), /1 of 1/);
    // Charged once: the debrief names no broken invariant, and says why the random key held here.
    assert.match(await page.getByTestId('debrief-broken').textContent(), /^None/);
    assert.match(await page.getByTestId('debrief-mirrors').textContent(), /uuid4\(\)/);
    // A second crash is refused by the challenge's rules.
    await page.getByTestId('back').click();
    await page.getByTestId('crash-worker').click();
    assert.match(await page.getByTestId('dur-notice').textContent(), /allows one crash, and it is used/);
    // The lesson list marks both as won.
    assert.equal(await page.getByTestId('lesson-list').locator('a', { hasText: '★' }).count(), 2);
  });
});

test('free run: crash and restart by hand, back by replay, the keyboard, share link, reload, import', async () => {
  await withPage(async (page) => {
    await open(page, 'durable/#/durable');
    await page.getByTestId('set-auto-restart').uncheck();
    // The arrow keys step unless a field has the focus (the checkbox has it now).
    await page.keyboard.press('ArrowRight');
    assert.match(await page.getByTestId('position').textContent(), /^Step 0 \//);
    // A click on the page's heading: no field has the focus (a press anywhere also tells the
    // page's focus keeping that the checkbox is no longer the learner's control).
    await page.locator('#dur-h').click();
    // Four steps: the reserve step's result is journaled; then the crash.
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    assert.match(await page.getByTestId('position').textContent(), /^Step 4 \//);
    assert.match(await page.getByTestId('caption').textContent(), /reserve_stock's result recorded/);
    await page.getByTestId('crash-worker').click();
    assert.equal(await page.getByTestId('worker').getAttribute('data-state'), 'crashed');
    assert.equal(await page.getByTestId('step').isDisabled(), true, 'nothing runs while the worker is down');
    await page.getByTestId('restart-worker').click();
    assert.equal(await page.getByTestId('worker').getAttribute('data-state'), 'replaying');
    await page.getByTestId('run-to-end').click();
    const rows = page.locator('[data-testid=journal] tr');
    assert.equal(await rows.count(), 5);
    assert.equal(await rows.first().getAttribute('data-replayed'), 'true');
    const end = await page.getByTestId('position').textContent();
    // Back is an exact replay: one step back and forward again gives the same journal.
    await page.getByTestId('back').click();
    await page.getByTestId('step').click();
    assert.equal(await page.getByTestId('position').textContent(), end);
    // A reload restores the run at its step.
    await page.reload();
    await ready(page);
    assert.equal(await page.getByTestId('position').textContent(), end);
    assert.equal(await page.locator('[data-testid=journal] tr').first().getAttribute('data-replayed'), 'true');
    // The share link opens the same run at the same step.
    const link = await page.getByTestId('share-link').inputValue();
    await page.goto('about:blank');
    await page.goto(link);
    await ready(page);
    assert.equal(await page.getByTestId('position').textContent(), end);
    assert.equal(await page.getByTestId('set-auto-restart').isChecked(), false);
    // An import that breaks a limit is refused with the field named, and changes nothing.
    await page.locator('summary', { hasText: 'Import JSON' }).click();
    await page.getByTestId('import-text').fill('{"version":1,"columns":[{"engine":"kafka"}]}');
    await page.getByTestId('import').click();
    assert.match(await page.getByTestId('dur-notice').textContent(), /`engine`/);
    assert.equal(await page.getByTestId('position').textContent(), end);
    // A damaged link says so and opens the page without it.
    await page.goto(link.replace(/s=[^&]+/, 's=***'));
    await ready(page);
    assert.match(await page.getByTestId('dur-notice').textContent(), /could not be read/);
  });
});

test('both languages at 1280 and 390 px; the playground hands a durable lesson to this page', async () => {
  await withPage(async (page) => {
    await open(page, '#/scenario/double-charge');
    assert.equal(await page.locator('[data-testid=lesson-toc] a[data-section=durable]').getAttribute('href'), 'durable/');
  });
  for (const [width, locale] of [[1280, 'ja-JP'], [390, 'en-US'], [390, 'ja-JP']]) {
    await withPage(async (page) => {
      await open(page, '#/scenario/durable-saga');
      await page.waitForURL(/\/durable\/#\/scenario\/durable-saga$/);
      await ready(page);
      const ja = locale === 'ja-JP';
      await page.getByRole('heading', { name: ja ? 'サガ、失敗するホテル、そしてクラッシュ' : 'A saga, a hotel that fails, and a crash' }).waitFor();
      await page.getByTestId('run-to-end').click();
      await page.getByTestId('predict-skip').click();
      await page.getByTestId('run-to-end').click();
      await noOverflow(page);
      await page.screenshot({ path: `${SHOTS}/durable-saga-${width}-${locale}.png`, fullPage: true });
    }, { width, locale });
  }
});

test('an unknown challenge in the address says so and shows the free run', async () => {
  await withPage(async (page) => {
    await open(page, 'durable/#/durable/challenge/no-such-challenge');
    assert.match(await page.getByTestId('dur-notice').textContent(), /There is no challenge with this name/);
    assert.ok(await page.getByTestId('crash-worker').count() >= 1, 'the free run is there to use');
  });
});

test('Reset this lesson: the lesson as built, at step 0, its question open, after a reload too', async () => {
  await withPage(async (page) => {
    await open(page, 'durable/#/scenario/durable-charge-key');
    // The learner changes the first column's key, runs to the question and answers it.
    await page.getByTestId('set-key').selectOption('random');
    await page.getByTestId('run-to-end').click();
    await page.getByTestId('predict').locator('.choice').first().click();
    await page.getByTestId('run-to-end').click();
    await page.reload();
    await ready(page);
    assert.equal(await page.getByTestId('set-key').inputValue(), 'random', 'a reopened lesson keeps the change');
    assert.notEqual(await page.getByTestId('predict').getAttribute('data-state'), 'open', 'and its answer');
    assert.equal(await page.getByTestId('reset-lesson').textContent(), 'Reset this lesson');
    await page.getByTestId('reset-lesson').click();
    assert.equal(await page.getByTestId('set-key').inputValue(), 'derived', 'the setting as built');
    assert.match(await page.getByTestId('position').textContent(), /^Step 0 \//);
    assert.equal(await page.getByTestId('predict').getAttribute('data-state'), 'open');
    assert.equal(await page.getByTestId('transfer').count(), 0, 'the second question waits for the first');
    await page.reload();
    await ready(page);
    assert.equal(await page.getByTestId('set-key').inputValue(), 'derived', 'and after a reload');
    assert.match(await page.getByTestId('position').textContent(), /^Step 0 \//);
    assert.equal(await page.getByTestId('predict').getAttribute('data-state'), 'open');
  });
});

test('a variation the lesson did not run: the transfer question, why, its beliefs, a reload, and its run on the page', async () => {
  await withPage(async (page) => {
    await open(page, 'durable/#/scenario/durable-resume');
    assert.equal(await page.getByTestId('transfer').count(), 0, 'asked after the lesson\'s own question');
    await predict(page, 'only the unfinished step');
    const transfer = page.getByTestId('transfer');
    assert.equal(await transfer.getAttribute('data-state'), 'open');
    assert.match(await transfer.textContent(), /just after the engine journals the shipment/);
    assert.equal(await transfer.locator('.choice').count(), 3);
    // The lesson's answer, carried over unchanged: wrong, and named as that belief.
    await transfer.locator('.choice', { hasText: 'only the unfinished step' }).click();
    assert.equal(await transfer.getAttribute('data-state'), 'wrong');
    assert.match(await transfer.locator('.verdict').textContent(), /the run gives nothing: no step runs again/);
    assert.match(await transfer.locator('.why').textContent(), /result is in the history/);
    assert.equal(await transfer.locator('[data-testid=belief]').count(), 3);
    const picked = transfer.locator('[data-testid=belief][data-picked=true]');
    assert.match(await picked.textContent(), /the change makes no difference/);
    // Both answers survive a reload.
    await page.reload();
    await ready(page);
    assert.equal(await page.getByTestId('predict').getAttribute('data-state'), 'right');
    assert.equal(await page.getByTestId('transfer').getAttribute('data-state'), 'wrong');
    // The varied run on the page, from step 0: the shipment is journaled, nothing runs twice.
    await page.getByTestId('run-variation').click();
    assert.match(await page.getByTestId('position').textContent(), /^Step 0 \//);
    assert.equal(await page.getByTestId('step').isDisabled(), false, 'the answered question holds nothing');
    await page.getByTestId('run-to-end').click();
    assert.match(await col(page, 0).getByTestId('effects').textContent(), /shipped today: 1/);
    assert.equal(await page.getByTestId('why-changed').count(), 1, 'the lesson\'s explanation is for the run as built');
  });
});
