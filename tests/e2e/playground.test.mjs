// The playground as a learner uses it: open a lesson, run it, step back, reload, share, break a
// link on purpose; and every built-in scenario at desktop and phone widths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withPage, open, ready, SHOTS, BASE_URL, skipQuestion, balance } from './harness.mjs';

const position = (page) => page.getByTestId('position').textContent();

test('the naive service\'s lesson: it charges twice, the idempotent and atomic ones once', async () => {
  await withPage(async (page) => {
    await open(page, '#/scenario/double-charge');
    await page.getByTestId('lesson').waitFor();
    assert.equal(await balance(page, 'naive'), 1000);
    await skipQuestion(page);
    await page.getByTestId('run-to-end').click();
    assert.equal(await balance(page, 'naive'), 800);
    assert.equal(await balance(page, 'idempotent'), 900);
    assert.equal(await balance(page, 'atomic'), 900);
    const failed = await page.locator('section[data-service=naive] [data-testid=invariants] .fail').count();
    assert.ok(failed >= 1, 'the naive panel shows a failed invariant');
    assert.equal(await page.locator('section[data-service=atomic] [data-testid=invariants] .fail').count(), 0);
    assert.equal(await page.locator('section[data-service=atomic] [data-testid=store] tr[data-key]').count(), 1);
    await page.screenshot({ path: `${SHOTS}/double-charge-end-1280.png`, fullPage: true });

    // Step back to before the second charge: the naive balance is 900 again.
    const end = await position(page);
    const violationStep = Number(await page.locator('section[data-service=naive] [data-testid=violation-step]').first().textContent().then((t) => t.match(/\d+/)[0]));
    await page.getByTestId('back').click();
    assert.notEqual(await position(page), end);
    await page.locator('section[data-service=naive] [data-testid=violation-step]').first().click();
    assert.match(await position(page), new RegExp(`^Step ${violationStep} /`));
    assert.equal(await balance(page, 'naive'), 800, 'the failure step is the second charge');
    await page.getByTestId('back').click();
    assert.equal(await balance(page, 'naive'), 900, 'one step earlier only one charge happened');
    assert.equal(await page.locator('section[data-service=naive] [data-testid=invariants] .fail').count(), 0);

    // Keyboard: → steps forward, ← back.
    await page.locator('body').press('ArrowRight');
    assert.equal(await balance(page, 'naive'), 800);
    await page.locator('body').press('ArrowLeft');
    assert.equal(await balance(page, 'naive'), 900);

    // Reload: the same step comes back.
    const before = await position(page);
    await page.reload();
    await page.getByTestId('position').waitFor();
    assert.equal(await position(page), before);
    assert.equal(await balance(page, 'naive'), 900);
  });
});

test('a reload keeps the step and the scroll position; the lesson list stays as the learner left it', async () => {
  await withPage(async (page) => {
    await open(page, '#/scenario/double-charge');
    // The list starts folded, so the lesson is on the first screen; opened, it stays open.
    assert.equal(await page.getByTestId('toc-toggle').getAttribute('aria-expanded'), 'false', 'folded at first');
    const card = await page.getByTestId('lesson').boundingBox();
    assert.ok(card.y < 400, `the lesson card starts on the first screen (y ${card.y})`);
    await page.getByTestId('toc-toggle').click();
    await skipQuestion(page);
    await page.getByTestId('run-to-end').click();
    await page.getByTestId('timeline').scrollIntoViewIfNeeded();
    const before = await page.evaluate(() => Math.round(scrollY));
    assert.ok(before > 300, `scrolled to ${before}`);
    const position = await page.getByTestId('position').textContent();
    await page.reload();
    await ready(page);
    await page.waitForFunction((y) => Math.abs(scrollY - y) <= 1, before, { timeout: 10_000 });
    assert.equal(await page.getByTestId('position').textContent(), position);
    assert.equal(await page.getByTestId('toc-toggle').getAttribute('aria-expanded'), 'true', 'open, as left');
  });
});

test('play runs to the end by itself, and reset goes back to the start', async () => {
  await withPage(async (page) => {
    await open(page, '#/scenario/double-charge');
    await page.getByTestId('reset').click().catch(() => {});
    await skipQuestion(page);
    await page.locator('select[aria-label="Play speed"]').selectOption({ label: '8×' });
    await page.getByTestId('play').click();
    await page.waitForFunction(() => {
      const t = document.querySelector('[data-testid=position]').textContent.match(/(\d+) \/ (\d+)/);
      return t && t[1] === t[2];
    }, null, { timeout: 10_000 });
    assert.equal(await balance(page, 'naive'), 800);
    await page.getByTestId('reset').click();
    assert.match(await position(page), /^Step 0 \//);
    assert.equal(await balance(page, 'naive'), 1000);
  });
});

test('a share link reproduces the run at the same step; a damaged one says so and the page works', async () => {
  let link;
  await withPage(async (page) => {
    await open(page, '#/scenario/double-charge');
    await skipQuestion(page);
    await page.getByTestId('run-to-end').click();
    await page.getByTestId('back').click();
    link = await page.getByTestId('share-link').inputValue();
  });
  assert.ok(link.startsWith(BASE_URL), link);
  await withPage(async (page) => {
    await page.goto(link);
    await page.getByTestId('position').waitFor();
    assert.equal(await balance(page, 'naive'), 800);
    const [k, n] = (await position(page)).match(/(\d+) \/ (\d+)/).slice(1).map(Number);
    assert.equal(k, n - 1, 'opens one step before the end, where the sender was');
    await page.getByTestId('notice').waitFor();
  });
  await withPage(async (page) => {
    const broken = link.replace(/s=[^&]{12}/, 's=%%%%not-base64');
    await page.goto(broken);
    const notice = page.getByTestId('notice');
    await notice.waitFor();
    assert.match(await notice.textContent(), /damaged/);
    await skipQuestion(page);
    await page.getByTestId('run-to-end').click();
    assert.equal(await balance(page, 'naive'), 800, 'the page still runs the scenario');
    await page.screenshot({ path: `${SHOTS}/broken-link-1280.png` });
  });
  // A bad step number loses only the step: the shared run opens at the start.
  await withPage(async (page) => {
    await page.goto(link.replace(/k=\d+/, 'k=-1'));
    await page.getByTestId('notice').waitFor();
    assert.match(await page.getByTestId('notice').textContent(), /not a whole number from 0 up/);
    const [k, n] = (await position(page)).match(/(\d+) \/ (\d+)/).slice(1).map(Number);
    assert.equal(k, 0);
    assert.ok(n > 0, 'the shared run is loaded');
  });
  // One character changed inside the payload: still base64, no longer JSON. Said plainly.
  await withPage(async (page) => {
    const payload = link.match(/s=([^&]+)/)[1];
    const flipped = payload.slice(0, 20) + (payload[20] === 'A' ? 'B' : 'A') + payload.slice(21);
    await page.goto(link.replace(payload, flipped));
    const notice = page.getByTestId('notice');
    await notice.waitFor();
    assert.match(await notice.textContent(), /share link is damaged/);
    assert.doesNotMatch(await notice.textContent(), /escape/);
  });
  await withPage(async (page) => {
    await page.goto(`${BASE_URL}sandbox/#/sandbox?s=${'A'.repeat(9000)}`);
    assert.match(await page.getByTestId('notice').textContent(), /too long/);
  });
});

test('import: bad JSON and an unknown version give messages; good JSON loads', async () => {
  await withPage(async (page) => {
    await open(page, 'sandbox/#/sandbox');
    await page.getByText('Import JSON').click();
    await page.getByTestId('import-text').fill('{"version": 1, "seed": ');
    await page.getByTestId('import').click();
    // The message is next to the button the learner pressed, in view.
    const message = page.getByTestId('import-notice');
    assert.match(await message.textContent(), /not a scenario/);
    const [box, button] = [await message.boundingBox(), await page.getByTestId('import').boundingBox()];
    assert.ok(box.y > button.y && box.y - button.y < 120, `message at ${box.y}, button at ${button.y}`);
    await page.getByTestId('import-text').fill('{"version": 99}');
    await page.getByTestId('import').click();
    assert.match(await page.getByTestId('import-notice').textContent(), /version 99/);
    // A misspelt field is named.
    await page.getByTestId('import-text').fill('{"version":1,"seed":1,"initial_balance":1000,"services":["naive"],"latency_ms":50,"timeout_ms":1000,"inputs":[{"type":"deposit","amuont":5}]}');
    await page.getByTestId('import').click();
    assert.match(await page.getByTestId('import-notice').textContent(), /unknown field `amuont` in input 1/);
    const json = await page.locator('textarea[aria-label="Scenario JSON"]').inputValue();
    const scenario = JSON.parse(json);
    scenario.inputs = [{ type: 'request', key: 'imported-key', amount: 250, fault: 'response-lost' },
      { type: 'request', key: 'imported-key', amount: 250 }];
    await page.getByTestId('import-text').fill(JSON.stringify(scenario));
    await page.getByTestId('import').click();
    assert.match(await page.getByTestId('import-notice').textContent(), /Imported/);
    await page.getByTestId('run-to-end').click();
    assert.equal(await balance(page, 'naive'), 500);
    assert.equal(await balance(page, 'atomic'), 750);
  });
});

test('sandbox: send, lose the response, retry with the same key and with a new key; bad input is refused', async () => {
  await withPage(async (page) => {
    await open(page, 'sandbox/#/sandbox');
    await page.getByTestId('key-input').fill('order-42');
    await page.getByTestId('amount-input').fill('100');
    await page.getByTestId('fault-select').selectOption({ label: 'Response lost' });
    await page.getByTestId('send').click();
    await page.getByTestId('run-to-end').click();
    assert.equal(await balance(page, 'atomic'), 900);
    await page.getByTestId('fault-select').selectOption({ label: 'No fault' });
    await page.getByTestId('retry-same').click();
    await page.getByTestId('run-to-end').click();
    assert.equal(await balance(page, 'naive'), 800);
    assert.equal(await balance(page, 'atomic'), 900);
    assert.equal(await page.locator('section[data-service=atomic] [data-testid=store] tr[data-key="order-42"]').count(), 1);
    await page.getByTestId('key-input').fill('');
    await page.getByTestId('retry-new').click();
    await page.getByTestId('run-to-end').click();
    assert.equal(await balance(page, 'atomic'), 800, 'a retry with a new key charges again');
    assert.match(await page.locator('section[data-service=atomic] [data-testid=invariants] .fail').textContent(),
      /At most one charge per operation/, 'and the invariant names it: one operation, two charges');
    // Bad input: a message, nothing sent.
    const steps = await position(page);
    await page.getByTestId('amount-input').fill('100000000');
    await page.getByTestId('send').click();
    assert.match(await page.getByTestId('sandbox-error').textContent(), /100,000,000 is too large\. The range is 1 to 99,999,999/);
    await page.getByTestId('amount-input').fill('abc');
    await page.getByTestId('send').click();
    assert.match(await page.getByTestId('sandbox-error').textContent(), /“abc” is not a whole number/);
    await page.getByTestId('key-input').fill('k'.repeat(256));
    await page.getByTestId('amount-input').fill('5');
    await page.getByTestId('send').click();
    assert.match(await page.getByTestId('sandbox-error').textContent(), /256 characters/);
    assert.equal(await position(page), steps);
    // UUID v7 generator fills the field with a version-7 UUID.
    await page.getByTestId('gen-v7').click();
    assert.match(await page.getByTestId('key-input').inputValue(), /^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    await page.screenshot({ path: `${SHOTS}/sandbox-1280.png`, fullPage: true });
  });
});

test('every built-in scenario runs to the end at 1280 and 390 px without overflow', async () => {
  const ids = [];
  await withPage(async (page) => {
    await open(page);
    for (const a of await page.locator('[data-testid=lesson-toc] a[data-section][href^="#/scenario/"]').all()) {
      ids.push((await a.getAttribute('href')).split('/').pop());
    }
  });
  assert.ok(ids.length >= 11, `found ${ids.length} scenarios`);
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    await withPage(async (page) => {
      for (const id of ids) {
        await open(page, `#/scenario/${id}`);
        await skipQuestion(page);
        await page.getByTestId('run-to-end').click();
        const panels = await page.locator('section[data-service]').count();
        assert.ok(panels >= 1, `${id}: no service panels`);
        // A whole number with its thousands grouped (1,000), or each customer's account when the
        // lesson has customers of their own.
        const amount = String.raw`\d{1,3}(,\d{3})*`;
        const shape = new RegExp(`^(${amount}|account \\d: ${amount}( · account \\d: ${amount})*)$`);
        for (const b of await page.locator('[data-testid=balance]').all()) {
          assert.match(await b.textContent(), shape, `${id}: balance is a number or accounts' numbers`);
        }
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${id} at ${width}px overflows by ${overflow}px`);
        await page.screenshot({ path: `${SHOTS}/scenario-${id}-${width}.png`, fullPage: true });
      }
    }, { width, height });
  }
});

test('outbox lessons: inbox vs naive consumer, and the outbox beside both dual writes', async () => {
  await withPage(async (page) => {
    await open(page, '#/scenario/outbox-relay-crash');
    await skipQuestion(page);
    await page.getByTestId('run-to-end').click();
    const cols = page.locator('section[data-service=atomic]');
    assert.equal(await cols.count(), 2);
    for (let i = 0; i < 2; i++) {
      assert.equal(Number(await cols.nth(i).getByTestId('balance').textContent()), 700);
      assert.equal(await cols.nth(i).locator('[data-testid=outbox] tr').count(), 2, 'one outbox row per charge');
    }
    assert.equal(await cols.nth(0).locator('[data-testid=invariants] .fail').count(), 0, 'the inbox makes the effect happen once');
    assert.match(await cols.nth(1).locator('[data-testid=invariants] .fail').textContent(), /Consumer applies each event once/);

    await open(page, '#/scenario/dual-write');
    await skipQuestion(page);
    await page.getByTestId('run-to-end').click();
    const dw = page.locator('section[data-service=atomic]');
    assert.equal(await dw.count(), 3);
    assert.equal(await dw.nth(0).locator('[data-testid=invariants] .fail').count(), 0, 'the outbox keeps one event per charge');
    for (const i of [1, 2]) {
      assert.match(await dw.nth(i).locator('[data-testid=invariants] .fail').textContent(), /One event per committed charge/);
    }
    await page.screenshot({ path: `${SHOTS}/dual-write-end-1280.png`, fullPage: true });
  });
});

test('a lesson can run on other services; the choice survives a reload and can be undone', async () => {
  await withPage(async (page) => {
    await open(page, '#/scenario/double-charge');
    await page.getByTestId('pick-Naive').uncheck();
    await page.getByTestId('pick-TocTou').check();
    await page.getByTestId('run-to-end').click();
    assert.equal(await page.locator('section[data-service=naive]').count(), 0);
    assert.equal(await balance(page, 'toctou'), 900, 'a sequential retry is caught even by the TOCTOU service');
    await page.reload();
    await page.locator('section[data-service=toctou]').waitFor();
    assert.equal(await page.locator('section[data-service=naive]').count(), 0);
    // The lesson's text says it no longer describes the run.
    await page.getByTestId('lesson-changed').waitFor();
    await page.getByTestId('restore-lesson').click();
    await page.locator('section[data-service=naive]').waitFor();
    assert.equal(await page.locator('section[data-service=toctou]').count(), 0);
    assert.equal(await page.getByTestId('lesson-changed').count(), 0);
    // Removing every service is refused with a message, and the run stays.
    for (const k of ['Naive', 'Idempotent', 'Atomic']) await page.getByTestId(`pick-${k}`).click();
    assert.match(await page.getByTestId('notice').textContent(), /0 services chosen/);
    assert.ok(await page.locator('section[data-service]').count() >= 1);
  });
});

test('import refuses JSON over 64 KB with a message', async () => {
  await withPage(async (page) => {
    await open(page, 'sandbox/#/sandbox');
    await page.getByText('Import JSON').click();
    await page.getByTestId('import-text').fill(`{"version":1,"pad":"${'x'.repeat(70_000)}"}`);
    await page.getByTestId('import').click();
    assert.match(await page.getByTestId('import-notice').textContent(), /at most 65,536 are accepted/);
    assert.ok(await page.locator('section[data-service]').count() >= 1, 'the current run is kept');
  });
});

test('the sandbox fits a 390 px phone in both languages', async () => {
  for (const locale of ['en-US', 'ja-JP']) {
    await withPage(async (page) => {
      await open(page, 'sandbox/#/sandbox');
      await page.getByTestId('sandbox').waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `sandbox (${locale}) overflows by ${overflow}px`);
      await page.screenshot({ path: `${SHOTS}/sandbox-390-${locale}.png`, fullPage: true });
    }, { width: 390, height: 844, locale });
  }
});

test('sandbox policies: the mismatch status and the consumer setting change the run', async () => {
  await withPage(async (page) => {
    await open(page, 'sandbox/#/sandbox');
    await page.locator('select').filter({ hasText: '422, as the IETF draft' }).selectOption({ label: '422, as the IETF draft' });
    await page.getByTestId('key-input').fill('order-9');
    await page.getByTestId('amount-input').fill('100');
    await page.getByTestId('send').click();
    await page.getByTestId('run-to-end').click();
    await page.getByTestId('amount-input').fill('200');
    await page.getByTestId('send').click();
    await page.getByTestId('run-to-end').click();
    assert.match(await page.locator('section[data-service=production] .client-result').textContent(), /422: parameters differ/);
    assert.equal(await balance(page, 'production'), 900);
    // Events on, consumer without an inbox: the panels say so.
    await page.locator('select').filter({ hasText: 'transactional outbox' }).selectOption({ label: 'transactional outbox' });
    await page.getByText('Consumer deduplicates by event id (inbox)').click();
    const atomic = page.locator('section[data-service=atomic]');
    assert.equal(await atomic.getAttribute('data-consumer-dedupes'), 'false');
    assert.equal(await atomic.locator('[data-testid=outbox] tr').count(), 1, 'one committed charge, one outbox row');
  });
});
