// The defects a new-user walk found (issue 10, part 6), one test each, named by its number in the
// issue. Each failed on the page before its fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withPage, open, SHOTS, skipQuestion } from './harness.mjs';

/** The timeline's tab group (below 700 px a second one above the services switches the panel shown). */
const timelineTabs = (page) => page.locator('section[aria-labelledby=tl-h] .tabs button');

/**
 * Runs `fn` once per service panel shown: once where every panel is on screen, and once per
 * service tab on a phone, where one panel at a time is (the phone switcher).
 */
async function eachShownService(page, fn) {
  const switcher = page.locator('.service-tabs button');
  if (!(await page.locator('.service-tabs').isVisible())) return fn();
  for (let i = 0; i < await switcher.count(); i++) {
    await switcher.nth(i).click();
    await fn();
  }
}

test('17: the language button is named by the text it shows (voice control can say it)', async () => {
  for (const [locale, shown] of [['en-US', '日本語'], ['ja-JP', 'English']]) {
    await withPage(async (page) => {
      await open(page, '#/scenario/double-charge');
      await skipQuestion(page);
      const button = page.getByTestId('lang-toggle');
      assert.equal((await button.textContent()).trim(), shown);
      // The accessible name contains the visible label, so "click 日本語" finds the button.
      const named = page.getByRole('button', { name: shown, exact: true });
      assert.equal(await named.count(), 1, `no button is named “${shown}”`);
      assert.equal(await named.getAttribute('data-testid'), 'lang-toggle');
      // Its purpose is still said, as a description.
      assert.ok((await button.getAttribute('title')).length > 0);
    }, { locale });
  }
});

test('9: an unknown scenario points to the list where it is: above the message', async () => {
  for (const [locale, words] of [['en-US', /list above/], ['ja-JP', /上の一覧/]]) {
    await withPage(async (page) => {
      await open(page, '#/scenario/no-such-lesson');
      const notice = page.getByTestId('notice');
      assert.match(await notice.textContent(), words);
      const list = await page.locator('[data-testid=lesson-toc]').boundingBox();
      const box = await notice.boundingBox();
      assert.ok(list.y + list.height <= box.y, `the list (y ${list.y}) is above the message (y ${box.y})`);
    }, { locale });
  }
});

test('8: a 5,000-character key is kept whole by the field and refused with its real length', async () => {
  for (const [locale, words] of [['en-US', /5,000 characters; at most 255/], ['ja-JP', /5,000文字ある。上限は 255文字/]]) {
    await withPage(async (page) => {
      await open(page, 'sandbox/#/sandbox');
      const key = 'k'.repeat(5000);
      await page.getByTestId('key-input').fill(key);
      assert.equal((await page.getByTestId('key-input').inputValue()).length, 5000, 'the field cut the key');
      await page.getByTestId('send').click();
      assert.match(await page.getByTestId('sandbox-error').textContent(), words);
      assert.match(await page.getByTestId('position').textContent(), /0 \/ 0/, 'nothing was sent');
    }, { locale });
  }
});

test('7: number errors name the real problem, the field and its range, grouped, in both languages', async () => {
  const sandbox = {
    'en-US': {
      parallel: 'Requests at once (2–10)', attempts: 'Max attempts (1–20)', deposit: 'Deposit (into account 0)',
      cases: [
        ['parallel', '-1', 'send-parallel', /Requests at once: −1 is negative\. Use a whole number from 2 to 10\./],
        ['parallel', 'abc', 'send-parallel', /Requests at once: “abc” is not a whole number/],
        ['parallel', '1', 'send-parallel', /Requests at once: 1 is too small\. The range is 2 to 10\./],
        ['attempts', 'abc', 'send-operation', /Max attempts: “abc” is not a whole number\. Type digits only, from 1 to 20\./],
        ['deposit', '-100', 'deposit', /Deposit: −100 is negative\. Use a whole number from 1 to 99,999,999\./],
      ],
    },
    'ja-JP': {
      parallel: '同時に送る数（2–10）', attempts: '最大試行回数（1–20）', deposit: '入金（アカウント 0 へ）',
      cases: [
        ['parallel', '-1', 'send-parallel', /同時に送る数：−1 は負の数。2 から 10 までの整数/],
        ['attempts', 'abc', 'send-operation', /最大試行回数：「abc」は整数ではない/],
        ['deposit', '-100', 'deposit', /入金：−100 は負の数。1 から 99,999,999 までの整数/],
      ],
    },
  };
  for (const [locale, s] of Object.entries(sandbox)) {
    await withPage(async (page) => {
      await open(page, 'sandbox/#/sandbox');
      for (const [field, value, button, want] of s.cases) {
        await page.getByLabel(s[field], { exact: true }).fill(value);
        if (button === 'deposit') {
          await page.getByRole('button', { name: locale === 'en-US' ? 'Deposit' : '入金する', exact: true }).click();
        } else {
          await page.getByTestId(button).click();
        }
        assert.match(await page.getByTestId('sandbox-error').textContent(), want, `${field} = ${value}`);
      }
      assert.match(await page.getByTestId('position').textContent(), /0 \/ 0/, 'nothing was sent');
    }, { locale });
  }
  // The lab's settings: a negative seed is negative; one request is "1 request" (too few);
  // ranges read "1 to 99,999,999", never a Rust range.
  await withPage(async (page) => {
    await open(page, 'lab/');
    const apply = async (testid, value) => {
      await page.getByTestId(testid).fill(value);
      await page.getByTestId('lab-apply').click();
      const message = await page.getByTestId('lab-settings-error').textContent();
      await page.getByTestId(testid).fill(testid === 'lab-amounts' ? '100' : testid === 'lab-seed' ? '1' : '2');
      return message;
    };
    assert.match(await apply('lab-seed', '-1'), /Seed: −1 is negative\. Use a whole number from 0 to 18,446,744,073,709,551,615\./);
    assert.match(await apply('lab-requests', '1'), /Concurrent requests: 1 is too small\. The range is 2 to 10\./);
    const amount = await apply('lab-amounts', '0');
    assert.match(amount, /Amounts: 0 is too small\. The range is 1 to 99,999,999\./);
    assert.doesNotMatch(amount, /\.\.=/);
  });
});

test('15: TOCTOU: two charges for one key break "one charge per operation", and the timeline marks the bad replay as the badge does', async () => {
  await withPage(async (page) => {
    await open(page, '#/scenario/concurrent-same-key');
    await skipQuestion(page);
    await page.getByTestId('run-to-end').click();
    const toctou = page.locator('section[data-service=toctou]');
    const failed = toctou.locator('[data-testid=invariants] .badge.fail');
    const op = failed.filter({ hasText: 'At most one charge per operation' });
    assert.equal(await op.count(), 1, 'the operation invariant catches two charges for one key');
    assert.match(await op.textContent(), /#1 and #2 carry the same key order-42/);
    const key = failed.filter({ hasText: 'At most one charge per key' });
    const stepOf = async (badge) => Number((await badge.getByTestId('violation-step').textContent()).match(/\d+/)[0]);
    assert.equal(await stepOf(op), await stepOf(key), 'named after the step of the second charge');
    // The replay badge fails at a step; that step's "found: replay" is drawn as a failure too.
    const replay = failed.filter({ hasText: 'Replay returns the same result' });
    const step = await stepOf(replay);
    const rows = page.locator(`[data-testid=timeline] .tl-row[data-step="${step}"]`);
    const found = rows.filter({ hasText: 'found: replay' });
    assert.equal(await found.count(), 1);
    assert.match(await found.getAttribute('class'), /tone-bad/);
    assert.match(await found.locator('.tl-label').textContent(), /^✕ /);
    assert.equal(await page.locator('[data-testid=timeline] .tl-row.tone-good', { hasText: 'Replay of' }).count(), 0,
      'no replay of the wrong answer is drawn as good news');
    // The atomic column stays clean and its replay stays good.
    await timelineTabs(page).filter({ hasText: 'Atomic' }).click();
    assert.equal(await page.locator('[data-testid=timeline] .tl-row.tone-bad').count(), 0);
    assert.ok(await page.locator('[data-testid=timeline] .tl-row.tone-good', { hasText: 'found: replay' }).count() >= 1);
  });
});

test('5: every answer a client received is listed: two tries, two answers in production', async () => {
  const words = {
    // Each answer ends with its mark (issue 13: executed or replayed, as Idempotent-Replayed says).
    'en-US': [/^ · try 1: Insufficient funds \(balance 50\) executed$/, /^ · try 2: Success \(balance 50\) executed$/, /^ · try 2: Replay of: Insufficient funds.* replayed$/],
    'ja-JP': [/^ · 試行1：残高不足（残高 50） 実行$/, /^ · 試行2：成功（残高 50） 実行$/, /^ · 試行2：リプレイ：残高不足.* リプレイ$/],
  };
  for (const [locale, [first, second, replayed]] of Object.entries(words)) {
    await withPage(async (page) => {
      await open(page, '#/scenario/failure-cached');
      await skipQuestion(page);
      await page.getByTestId('run-to-end').click();
      const answers = (service) => page.locator(`section[data-service=${service}] .client-result li[data-op="1"] [data-testid=answer]`);
      const production = answers('production');
      assert.equal(await production.count(), 2, 'both answers of client #1');
      assert.match(await production.nth(0).textContent(), first);
      assert.match(await production.nth(1).textContent(), second);
      assert.equal(await production.nth(1).getAttribute('data-attempt'), '2');
      // The article's services replayed the first answer on the second try.
      assert.match(await answers('idempotent').nth(1).textContent(), replayed);
      assert.equal(await answers('idempotent').nth(1).getAttribute('data-replayed'), 'true');
      assert.equal(await production.nth(1).getAttribute('data-replayed'), 'false', 'production ran the retry again');
    }, { locale });
  }
});

test('14: "Expires" is told from the simulated time now: "in 24.0 h", then "expired … ago"', async () => {
  for (const [locale, ahead, past] of [['en-US', /^in \d+\.\d\s(ms|s|min|h)$/, /^expired (\d+\.\d\s(ms|s|min|h) ago|just now)$/],
    ['ja-JP', /^あと \d+\.\d(秒|分|時間)$/, /^(期限切れ（\d+\.\d(秒|分|時間)前）|たった今期限切れ)$/]]) {
    await withPage(async (page) => {
      await open(page, '#/scenario/key-expiry');
      await skipQuestion(page);
      const seen = [];
      for (;;) {
        for (const cell of await page.locator('section[data-service=production] [data-testid=store] td.expiry, section[data-service=production] [data-testid=store] td:nth-child(5)').all()) {
          seen.push((await cell.textContent()).trim());
        }
        if (await page.getByTestId('step').isDisabled()) break;
        await page.getByTestId('step').click();
      }
      assert.ok(seen.length > 0, 'the production store has a row');
      for (const t of seen) assert.ok(ahead.test(t) || past.test(t) || t === '—', `expiry cell reads “${t}”`);
      assert.ok(seen.some((t) => ahead.test(t)), 'a fresh key expires in the future');
      assert.ok(seen.some((t) => past.test(t)), 'after 25 h the key reads as expired');
      assert.ok(seen.includes(locale === 'en-US' ? 'in 24.0\u00a0h' : 'あと 24.0時間'), 'the number and its unit stay together');
    }, { locale });
  }
});

// The lines a cell's text is drawn on, and each word of it that is split across two lines. A
// word is what lies between spaces and brackets: where Japanese text in a table may break.
function splitWords(cells) {
  return cells.map((cell) => {
    const tops = [];
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      tops.push([' ', null]); // a fingerprint or an account is a block of its own
      for (let i = 0; i < n.length; i++) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        const box = r.getClientRects()[0];
        tops.push([n.data[i], box ? Math.round(box.top) : null]);
      }
    }
    const split = [];
    let word = [];
    const end = () => {
      if (new Set(word.map((w) => w[1]).filter((t) => t !== null)).size > 1) split.push(word.map((w) => w[0]).join(''));
      word = [];
    };
    for (const item of [...tops, [' ', null]]) {
      // A line may break at a space (not a no-break one), before an opening bracket, and after
      // a closing bracket or Japanese punctuation.
      if (/[ \t\n（(]/.test(item[0])) end();
      if (!/[ \t\n]/.test(item[0])) word.push(item);
      if (/[）)：、。]/.test(item[0])) end();
    }
    return { text: cell.textContent.trim(), lines: new Set(tops.map((t) => t[1]).filter((t) => t !== null)).size, split };
  });
}

test('390 px, Japanese: no word or unit in a table breaks inside (期限切れ, 24.0時間, 二重課金 did)', async () => {
  await withPage(async (page) => {
    const seen = new Set();
    for (const id of ['key-expiry', 'concurrent-same-key', 'slow-processor']) {
      await open(page, `#/scenario/${id}`);
      await skipQuestion(page);
      for (;;) {
        await eachShownService(page, async () => {
          const shown = page.locator('section[data-service]:visible [data-testid=store]');
          for (const c of await shown.locator('td, th').evaluateAll(splitWords)) {
            seen.add(c.text);
            assert.deepEqual(c.split, [], `“${c.text}” breaks inside ${c.split.join(', ')}`);
          }
          for (const c of await shown.locator('td[class^=state-]').evaluateAll(splitWords)) {
            assert.equal(c.lines, 1, `the state “${c.text}” is drawn on ${c.lines} lines`);
          }
        });
        if (await page.getByTestId('step').isDisabled()) break;
        await page.getByTestId('step').click();
      }
    }
    assert.ok(seen.has('期限切れ') && seen.has('処理中'), `states seen: ${[...seen].join(', ')}`);
    assert.ok([...seen].some((t) => /^あと \d+\.\d時間$/.test(t)), 'an expiry in hours was checked');
    await open(page, 'lab/');
    await page.getByTestId('lab-run').click();
    await page.getByTestId('lab-compare').waitFor();
    const cells = await page.locator('[data-testid=lab-compare] td, [data-testid=lab-compare] th').evaluateAll(splitWords);
    assert.ok(cells.length > 0, 'the lab compares two services');
    for (const c of cells) assert.deepEqual(c.split, [], `lab: “${c.text}” breaks inside ${c.split.join(', ')}`);
  }, { width: 390, locale: 'ja-JP' });
});

test('3: the store table fits its panel with three or more panels at 1280 px, and at 390 px', async () => {
  const ids = ['split-store-crash', 'failure-cached', 'concurrent-same-key', 'dual-write', 'key-expiry', 'outbox-relay-crash'];
  for (const [width, locale] of [[1280, 'en-US'], [1280, 'ja-JP'], [390, 'en-US'], [390, 'ja-JP']]) {
    await withPage(async (page) => {
      for (const id of ids) {
        await open(page, `#/scenario/${id}`);
        await skipQuestion(page);
        await page.getByTestId('run-to-end').click();
        await page.evaluate(() => document.querySelectorAll('section[data-service] details').forEach((d) => { d.open = true; }));
        const panels = await page.locator('section[data-service]').count();
        const clipped = await page.evaluate(() => [...document.querySelectorAll('section[data-service] .tbl-wrap')]
          .filter((w) => w.scrollWidth > w.clientWidth + 1)
          .map((w) => `${w.closest('details').querySelector('summary').textContent}: ${w.scrollWidth - w.clientWidth}px hidden`));
        assert.deepEqual(clipped, [], `${id} (${panels} panels) at ${width}px, ${locale}`);
        // Every column of the store is on screen, Expires included (on a phone, in each panel in turn).
        await eachShownService(page, async () => {
          for (const table of await page.locator('section[data-service]:visible table:has([data-testid=store])').all()) {
            const [t, last] = [await table.boundingBox(), await table.locator('th').last().boundingBox()];
            const panel = await table.locator('xpath=ancestor::section[@data-service]').boundingBox();
            assert.ok(last.x + last.width <= panel.x + panel.width, `${id}: the Expires column is outside its panel`);
            assert.ok(t.width > 0);
          }
        });
      }
      if (width === 1280) await page.screenshot({ path: `${SHOTS}/walk-store-${width}-${locale}.png`, fullPage: true });
    }, { width, locale });
  }
});

test('4: the timeline draws only lanes with events, cuts no label, and shows the server lane at 390 px', async () => {
  const lanesOf = (page) => page.locator('[data-testid=timeline] .tl-lane-name').allTextContents();
  // Every label ends inside the diagram (measured as drawn), in both languages.
  const labelsFit = (page) => page.evaluate(() => {
    const svg = document.querySelector('[data-testid=timeline] svg');
    const width = Number(svg.getAttribute('width'));
    return [...svg.querySelectorAll('.tl-label')].map((t) => {
      const b = t.getBBox();
      return { text: t.textContent, left: b.x, right: b.x + b.width, width };
    }).filter((l) => l.right > l.width || l.left < 0);
  });
  for (const locale of ['en-US', 'ja-JP']) {
    await withPage(async (page) => {
      await open(page, '#/scenario/double-charge');
      await skipQuestion(page);
      assert.deepEqual(await lanesOf(page), locale === 'en-US'
        ? ['Client', 'Network', 'Server', 'Store'] : ['クライアント', 'ネットワーク', 'サーバー', 'ストア'],
      'no empty relay or consumer lane');
      for (const id of ['double-charge', 'outbox-relay-crash', 'dual-write', 'split-store-crash', 'key-expiry']) {
        await open(page, `#/scenario/${id}`);
        await skipQuestion(page);
        for (const tab of await timelineTabs(page).all()) {
          await tab.click();
          assert.deepEqual(await labelsFit(page), [], `${id}: a label is cut`);
        }
      }
      await open(page, '#/scenario/outbox-relay-crash');
      await skipQuestion(page);
      assert.equal((await lanesOf(page)).length, 6, 'the outbox lesson uses every lane');
    }, { locale });
    // At 390 px the server lane is on screen without scrolling sideways.
    await withPage(async (page) => {
      await open(page, '#/scenario/double-charge');
      await skipQuestion(page);
      const scroll = await page.locator('[data-testid=timeline] .tl-scroll').boundingBox();
      const server = await page.locator('[data-testid=timeline] .tl-lane-name').nth(2).boundingBox();
      assert.ok(server.x + server.width <= scroll.x + scroll.width, `server lane ends at ${server.x + server.width}, view at ${scroll.x + scroll.width}`);
      // Scrolled sideways to its end, the diagram keeps each row's step in view at its left edge.
      const steps = page.locator('[data-testid=timeline] .tl-steps');
      assert.equal(await steps.locator('text').count(), await page.locator('[data-testid=timeline] .tl-row').count());
      await page.locator('[data-testid=timeline] .tl-scroll').evaluate((el) => { el.scrollLeft = el.scrollWidth; });
      const first = await steps.locator('text').first().boundingBox();
      assert.ok(first.x >= scroll.x && first.x < scroll.x + 20, `the first step is drawn at ${first.x}, the view starts at ${scroll.x}`);
      assert.match(await steps.locator('text').first().textContent(), /^1 · /);
      await page.locator('[data-testid=timeline]').screenshot({ path: `${SHOTS}/walk-timeline-390-${locale}.png` });
    }, { width: 390, height: 844, locale });
  }
});

test('1: the timeline\'s Earlier and Later page the events; the run stays where it is', async () => {
  for (const [locale, pager, [earlierName, laterName]] of [['en-US', /^Events (\d+)–(\d+) of (\d+)/, ['Earlier', 'Later']],
    ['ja-JP', /^イベント (\d+)–(\d+) \/ (\d+)/, ['前へ', '次へ']]]) {
    await withPage(async (page) => {
      await open(page, 'sandbox/#/sandbox');
      // Twenty charges with their own keys: far more events than one page of the timeline.
      const inputs = Array.from({ length: 20 }, (_, i) => ({ type: 'request', key: `order-${i}`, amount: 10 }));
      await page.locator('.share details').filter({ has: page.getByTestId('import-text') }).locator('summary').click();
      await page.getByTestId('import-text').fill(JSON.stringify({ version: 1, seed: 1, initial_balance: 1000,
        services: ['naive', 'atomic'], latency_ms: 50, timeout_ms: 1000, inputs }));
      await page.getByTestId('import').click();
      const earlier = page.locator('.tl-pager').getByRole('button', { name: earlierName, exact: true });
      const later = page.locator('.tl-pager').getByRole('button', { name: laterName, exact: true });
      for (let i = 0; i < 5; i++) await page.getByTestId('step').click();
      const state = async () => ({
        position: await page.getByTestId('position').textContent(),
        balances: await page.locator('[data-testid=balance]').allTextContents(),
      });
      const shown = async () => (await page.locator('.tl-pager span').textContent()).match(pager).slice(1).map(Number);
      const before = await state();
      assert.match(before.position, /5 \//);
      const [first, , total] = await shown();
      assert.equal(first, 1);
      assert.ok(total > 80, `${total} events`);
      await later.click();
      assert.deepEqual(await state(), before, 'Later did not move the run');
      assert.deepEqual((await shown()).slice(0, 2), [41, 80]);
      assert.ok(await earlier.isEnabled(), 'Earlier is enabled on the second page');
      // Later goes on to the last page, then stops there.
      while (await later.isEnabled()) await later.click();
      const [, lastEnd] = await shown();
      assert.equal(lastEnd, total);
      assert.deepEqual(await state(), before);
      await earlier.click();
      assert.ok((await shown())[0] < total - 40);
      // Back to the current step's events.
      await page.getByTestId('tl-current').click();
      assert.equal((await shown())[0], 1);
      assert.equal(await page.getByTestId('tl-current').count(), 0);
      assert.deepEqual(await state(), before);
      // A row of another page still jumps there: that is what a row is for.
      await later.click();
      const row = page.locator('[data-testid=timeline] .tl-row').first();
      const step = Number(await row.getAttribute('data-step'));
      await row.click();
      assert.match(await page.getByTestId('position').textContent(), new RegExp(`${step} /`));
      assert.deepEqual((await shown()).slice(0, 2), [41, 80], 'the page stays where the learner clicked');
    }, { locale });
  }
});

test('13: browser Back and a reload both reopen a lesson at the learner\'s step', async () => {
  await withPage(async (page) => {
    const position = () => page.getByTestId('position').textContent();
    await open(page, '#/scenario/double-charge');
    await skipQuestion(page);
    for (let i = 0; i < 3; i++) await page.getByTestId('step').click();
    assert.match(await position(), /^Step 3 \//);
    // Another lesson, worked on too, then Back (the list starts folded).
    await page.getByTestId('toc-toggle').click();
    await page.locator('[data-testid=lesson-toc] a[href="#/scenario/distinct-keys"]').click();
    await page.waitForFunction(() => location.hash === '#/scenario/distinct-keys');
    await page.getByTestId('step').click();
    await page.getByTestId('step').click();
    assert.match(await position(), /^Step 2 \//);
    await page.goBack();
    await page.waitForFunction(() => location.hash === '#/scenario/double-charge');
    await page.getByTestId('position').waitFor();
    assert.match(await position(), /^Step 3 \//, 'Back restores the step');
    await page.reload();
    await page.getByTestId('position').waitFor();
    assert.match(await position(), /^Step 3 \//, 'a reload restores it too');
    await page.goForward();
    await page.waitForFunction(() => location.hash === '#/scenario/distinct-keys');
    await page.getByTestId('position').waitFor();
    assert.match(await position(), /^Step 2 \//, 'and Forward the other lesson\'s');
  });
});

test('6: the sandbox can be cleared, and a reload shows it empty', async () => {
  for (const [locale, name] of [['en-US', /^Clear all inputs/], ['ja-JP', /^入力をすべて消す/]]) {
    await withPage(async (page) => {
      await open(page, 'sandbox/#/sandbox');
      await page.getByTestId('key-input').fill('order-1');
      await page.getByTestId('send').click();
      await page.getByTestId('advance-25h').click();
      await page.getByTestId('run-to-end').click();
      assert.equal(await page.locator('section[data-service=naive] [data-testid=balance]').textContent(), '900');
      const clear = page.getByRole('button', { name });
      await clear.click();
      const empty = async () => {
        assert.match(await page.getByTestId('position').textContent(), /0 \/ 0$/);
        assert.equal(await page.locator('section[data-service=naive] [data-testid=balance]').textContent(), '1,000');
        assert.equal(await page.locator('.client-result').count(), 0);
        assert.ok(await clear.isDisabled(), 'nothing left to clear');
      };
      await empty();
      await page.reload();
      await page.getByTestId('sandbox').waitFor();
      await empty();
      // The services chosen stay.
      assert.equal(await page.locator('section[data-service]').count(), 4);
    }, { locale });
  }
});

test('12: focus stays on a working control after Enter on a lesson\'s buttons and when a lab request finishes', async () => {
  const focused = (page) => page.evaluate(() => {
    const a = document.activeElement;
    return a && a !== document.body ? (a.getAttribute('data-testid') ?? a.getAttribute('href') ?? a.id) : 'body';
  });
  await withPage(async (page) => {
    await open(page, '#/scenario/double-charge');
    await skipQuestion(page);
    // A lesson link: the lesson opens and the same link, now current, keeps focus.
    await page.getByTestId('toc-toggle').click();
    await page.locator('[data-testid=lesson-toc] a[href="#/scenario/failure-cached"]').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => location.hash === '#/scenario/failure-cached');
    await page.getByTestId('position').waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('href') === '#/scenario/failure-cached');
    await skipQuestion(page);
    // Run to end turns disabled at the end: focus goes to a control that still works.
    await page.getByTestId('run-to-end').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /(\d+) \/ \1$/.test(document.querySelector('[data-testid=position]').textContent));
    assert.equal(await focused(page), 'back');
    // Restore the lesson as written: the button goes away, focus stays in the controls.
    await page.getByTestId('pick-TocTou').check();
    await page.getByTestId('restore-lesson').focus();
    await page.keyboard.press('Enter');
    await page.locator('section[data-service=toctou]').waitFor({ state: 'detached' });
    assert.notEqual(await focused(page), 'body');
  });
  await withPage(async (page) => {
    await open(page, 'lab/');
    // Request 1 takes its three steps by keyboard; when it finishes, focus moves on.
    for (let i = 0; i < 3; i++) {
      await page.getByTestId('lab-step-0').focus();
      await page.keyboard.press('Enter');
    }
    assert.match(await page.getByTestId('lab-status-0').textContent(), /^Finished/);
    assert.equal(await focused(page), 'lab-step-1', 'the next request that can move has focus');
    await page.keyboard.press('Enter');
    assert.match(await page.getByTestId('lab-schedule').textContent(), /^1 1 1 2$/, 'and Enter moves it');
    // Run to the end: every button of the run turns disabled; Step back takes focus.
    await page.getByTestId('lab-run').focus();
    await page.keyboard.press('Enter');
    assert.equal(await focused(page), 'back');
  });
});

test('11: the lab explorer says why Atomic has fewer complete schedules than interleavings', async () => {
  for (const [locale, atomic, toctou] of [
    ['en-US', /^The lock rules out the other 1,620: while one request holds it, the others cannot take a step, so only 60 of the 1,680 interleavings can happen\.$/,
      /^Every one of the 1,680 interleavings can happen/],
    ['ja-JP', /^残りの 1,620通りはロックが排除している。.*1,680通りの交互実行のうち起こりうるのは 60通りだけ。$/,
      /^1,680通りの交互実行はすべて起こりうる/]]) {
    await withPage(async (page) => {
      await open(page, 'lab/');
      for (const [model, words] of [['atomic', atomic], ['toctou', toctou]]) {
        await page.getByTestId('lab-model').selectOption(model);
        await page.getByTestId('lab-requests').fill('3');
        await page.getByTestId('lab-keys').selectOption('same');
        await page.getByTestId('lab-apply').click();
        await page.getByTestId('explorer-start').click();
        await page.waitForSelector('[data-testid=explorer-status][data-state=done]', { timeout: 30_000 });
        assert.equal(await page.getByTestId('explorer-raw').textContent(), '1,680');
        assert.match(await page.getByTestId('explorer-ruled-out').textContent(), words, model);
      }
    }, { locale });
  }
});
