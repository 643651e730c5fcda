// Issue 13, sections 5 and 6 as a learner meets them: every answer a client received says whether
// it was executed or replayed (in the panel and the timeline), and a run forks at a step from the
// fork control — in a lesson once its question is answered, and in the sandbox — with Back, the
// share link (opened in a fresh page: same branch, same step) and a reload keeping the branch.
// Both languages, 1280 and 390 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withPage, open, ready, SHOTS, balance } from './harness.mjs';

const position = async (page) =>
  (await page.getByTestId('position').textContent()).match(/(\d+) \/ (\d+)/).slice(1).map(Number);
const marks = (page, service) =>
  page.locator(`section[data-service=${service}] [data-testid=answer]`).evaluateAll(
    (els) => els.map((e) => e.getAttribute('data-replayed')));
const seek = async (page, k) => {
  const reset = page.getByTestId('reset');
  if (!(await reset.isDisabled())) await reset.click();
  for (let i = 0; i < k; i++) await page.getByTestId('step').click();
};

test('a lesson: predict, reveal, and every answer marked executed or replayed', async () => {
  await withPage(async (page) => {
    await open(page, '#/scenario/double-charge');
    const predict = page.getByTestId('predict');
    assert.equal(await predict.getAttribute('data-state'), 'open');
    // While the question waits the fork control offers no fork (it would show the answer).
    await page.getByTestId('fork').locator('summary').click();
    assert.equal(await page.getByTestId('fork-crash').count(), 0);
    await predict.locator('button[data-choice]', { hasText: '800' }).click();
    assert.equal(await predict.getAttribute('data-state'), 'right');
    await page.getByTestId('run-to-end').click();
    assert.deepEqual(await marks(page, 'naive'), ['false', 'false'], 'naive executes the retry');
    assert.deepEqual(await marks(page, 'atomic'), ['false', 'true'], 'the keyed service replays it');
    assert.match(await page.locator('section[data-service=atomic] [data-replayed=true]').textContent(), /replayed/);
    // The timeline's reply rows carry the mark too.
    await page.locator('[data-testid=timeline] button', { hasText: 'Atomic' }).first().click().catch(() => {});
    const rows = await page.locator('[data-testid=timeline] .tl-row[data-replayed]').evaluateAll(
      (els) => els.map((e) => e.getAttribute('data-replayed')));
    assert.ok(rows.length >= 1, 'reply rows are marked');
    await page.screenshot({ path: `${SHOTS}/fork-replayed-1280.png`, fullPage: true });
  });
});

test('forking a lesson at a step: the future changes, Back shows the same past, the link and a reload keep it', async () => {
  let link;
  await withPage(async (page) => {
    await open(page, '#/scenario/double-charge');
    await page.getByTestId('predict-skip').click();
    await page.getByTestId('run-to-end').click();
    const [, total] = await position(page);
    assert.equal(await balance(page, 'naive'), 800);
    // Step 1: the first attempt is on its way with the lesson's fault; the fork lets it through.
    await seek(page, 1);
    await page.getByTestId('fork').locator('summary').click();
    const fault = page.locator('[data-testid=fork-fault][data-op="1"][data-attempt="1"]');
    assert.equal(await fault.inputValue(), 'response-lost');
    await fault.selectOption('none');
    assert.equal(await page.getByTestId('fork').getAttribute('data-forks'), '1');
    assert.match(await page.getByTestId('fork-notice').textContent(), /changed from here/);
    // The step is said once, in the panel's own line.
    assert.equal(await page.getByTestId('fork-branch').textContent(), 'Forked at step 1.');
    assert.doesNotMatch(await page.getByTestId('fork-notice').textContent(), /step 1/);
    assert.deepEqual(await position(page).then((p) => p[0]), 1, 'the run stays at the fork');
    assert.equal(await page.getByTestId('lesson-changed').getAttribute('data-forked'), 'true');
    // The lesson card names the fork as the cause, with the button that undoes it beside it.
    assert.match(await page.getByTestId('lesson-changed').textContent(), /You forked this run at step 1/);
    assert.equal(await page.getByTestId('lesson-changed').getByTestId('restore-lesson').count(), 1);
    await page.getByTestId('run-to-end').click();
    const [, forkedTotal] = await position(page);
    // "Step on to see what happens now" has done its work once the run moved on.
    assert.equal(await page.getByTestId('fork-notice').count(), 0);
    assert.ok(forkedTotal < total, `no retry now: ${forkedTotal} < ${total} steps`);
    assert.equal(await balance(page, 'naive'), 900, 'one charge');
    assert.deepEqual(await marks(page, 'naive'), ['false']);
    // Back before the fork: the lesson's own past.
    await page.getByTestId('reset').click();
    assert.equal(await balance(page, 'naive'), 1000);
    await seek(page, 2);
    link = await page.getByTestId('share-link').inputValue();
    await page.screenshot({ path: `${SHOTS}/fork-lesson-1280.png`, fullPage: true });
    // A reload restores the branch and the step.
    await page.reload();
    await ready(page);
    assert.equal(await page.getByTestId('fork').getAttribute('data-forks'), '1');
    assert.deepEqual(await position(page), [2, forkedTotal]);
    // The fork panel is open as the learner left it (it came back folded).
    assert.notEqual(await page.getByTestId('fork').getAttribute('open'), null);
  });
  // The share link in a fresh browser: same branch, same step.
  await withPage(async (page) => {
    await page.goto(link);
    await ready(page);
    assert.deepEqual((await position(page))[0], 2);
    // A fresh browser has never opened the fork panel: folded.
    assert.equal(await page.getByTestId('fork').getAttribute('open'), null);
    assert.equal(await page.getByTestId('fork').getAttribute('data-forks'), '1');
    assert.equal(await page.getByTestId('lesson-changed').getAttribute('data-forked'), 'true');
    await page.getByTestId('predict-skip').click().catch(() => {});
    await page.getByTestId('run-to-end').click();
    assert.equal(await balance(page, 'naive'), 900, 'the shared fork, not the lesson');
    // Once the learner moves on, the address is the lesson's own: Restore, then a reload,
    // keeps the lesson as written (the link in the address brought the fork back).
    assert.ok(!page.url().includes('?'), page.url());
    await page.getByTestId('restore-lesson').click();
    assert.equal(await page.getByTestId('fork').getAttribute('data-forks'), '0');
    await page.reload();
    await ready(page);
    assert.equal(await page.getByTestId('fork').getAttribute('data-forks'), '0');
    // An old link (no branch) still opens the lesson as written.
    await open(page, '#/scenario/double-charge');
  });
});

test('the sandbox: crash the server, jump in time, retry; a refused fork says why; Japanese at 390 px', async () => {
  let link;
  await withPage(async (page) => {
    await open(page, '#/sandbox');
    await page.getByTestId('fork').locator('summary').click();
    // No client yet: the retry is disabled; a crash of an idle server kills nothing.
    assert.ok(await page.getByTestId('fork-retry').isDisabled());
    await page.getByTestId('fork-crash').click();
    assert.equal(await page.getByTestId('fork').getAttribute('data-forks'), '1');
    await page.getByTestId('step').click();
    assert.match(await page.getByTestId('caption').textContent(), /crashes and restarts \(requests killed in progress: 0\)/);
    await page.locator('[data-testid=fork-time][data-ms="91000"]').click();
    assert.equal(await page.getByTestId('fork').getAttribute('data-forks'), '2');
    await page.getByTestId('run-to-end').click();
    assert.match(await page.getByTestId('caption').textContent(), /time passes/);
    await page.screenshot({ path: `${SHOTS}/fork-sandbox-1280.png`, fullPage: true });
    link = await page.getByTestId('share-link').inputValue();
  });
  // A link whose fork cannot happen (past the run's end) opens the run without it and says so.
  await withPage(async (page) => {
    const [head, query] = link.split('?s=');
    const [payload, step] = query.split('&k=');
    const json = JSON.parse(Buffer.from(payload, 'base64url').toString());
    json.branch.push({ at_step: 9999, input: { type: 'crash' } });
    await page.goto(`${head}?s=${Buffer.from(JSON.stringify(json)).toString('base64url')}&k=${step}`);
    await ready(page);
    assert.match(await page.getByTestId('notice').textContent(), /Fork 3 of this run could not be made.*step 9999.*ends at step/);
    assert.equal(await page.getByTestId('fork').getAttribute('data-forks'), '3');
  });
  await withPage(async (page) => {
    await open(page, '#/scenario/double-charge');
    await page.getByTestId('predict-skip').click();
    await seek(page, 1);
    await page.getByTestId('fork').locator('summary').click();
    await page.getByTestId('fork-retry').click();
    assert.match(await page.getByTestId('fork-notice').textContent(), /ここから実行が変わった/);
    assert.match(await page.getByTestId('fork-branch').textContent(), /ステップ 1 で分岐した/);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no sideways scroll: ${width}px`);
    await page.screenshot({ path: `${SHOTS}/fork-ja-390.png`, fullPage: true });
  }, { width: 390, height: 844, locale: 'ja-JP' });
});
