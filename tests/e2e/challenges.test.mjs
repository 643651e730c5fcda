// The playground's challenges as a learner meets them (issue 28, section 3): the sandbox page shows
// the list of challenges at once, not behind a button; a move a challenge does not allow is refused
// right under the control used, not in a banner far above; a challenge won by its solution is
// debriefed (why it works, the invariant the run broke, the real failure it mirrors) in both
// languages, at 1280 and 390 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withPage, open, SHOTS } from './harness.mjs';

const SIZES = [[1280, 800], [390, 844]];

const DEBRIEF = {
  'en-US': {
    heading: 'Debrief',
    why: /^The retry carried a new key, and to the server a new key is a new payment\.$/,
    broken: /^At most one charge per operation \(broken at step \d+\)$/,
    mirrors: /makes the Idempotency-Key inside its retry loop/,
  },
  'ja-JP': {
    heading: '振り返り',
    why: /^リトライに新しいキーを付けた。/,
    broken: /^操作ごとに課金は最大1回（ステップ \d+ で破れた）$/,
    mirrors: /リトライのループの中で作るクライアント。$/,
  },
};

test('the sandbox shows the challenges at once, each a link, the lab\'s to its page', async () => {
  for (const [width, height] of SIZES) {
    await withPage(async (page) => {
      await open(page, 'sandbox/#/sandbox');
      const list = page.getByTestId('challenge-list');
      await list.waitFor();
      assert.ok(await list.isVisible(), 'the list is visible without a click');
      // Not inside a folded part of the page, and the table of contents is still folded.
      assert.equal(await list.evaluate((e) => e.closest('details:not([open]), [hidden]')), null);
      assert.equal(await page.getByTestId('toc-toggle').getAttribute('aria-expanded'), 'false');
      const links = list.locator('a');
      assert.equal(await links.count(), 11);
      assert.equal(await links.first().getAttribute('href'), '#/challenge/triple-charge');
      assert.equal(await list.locator('a[data-section=toctou-all-three]').getAttribute('href'),
        '../lab/#/lab/challenge/toctou-all-three');
      // A tap target a finger can hit.
      const box = await links.first().boundingBox();
      assert.ok(box.height >= 44, `link height ${box.height}`);
      await page.screenshot({ path: `${SHOTS}/sandbox-challenges-${width}.png` });
      await links.first().click();
      await page.waitForURL(/#\/challenge\/triple-charge$/);
      await page.getByTestId('challenge').waitFor();
    }, { width, height });
  }
});

test('a move the challenge does not allow is refused under the control used', async () => {
  for (const [locale, width, height] of [['en-US', 1280, 800], ['ja-JP', 390, 844]]) {
    await withPage(async (page) => {
      await open(page, 'sandbox/#/challenge/triple-charge');
      const button = page.getByTestId('advance-25h');
      await button.scrollIntoViewIfNeeded();
      await button.click();
      const refused = page.getByTestId('move-refused');
      await refused.waitFor();
      assert.equal(await refused.getAttribute('role'), 'alert');
      assert.match(await refused.textContent(), locale === 'en-US' ? /^This challenge does not allow “let time pass”/ : /^このチャレンジでは「時間を進める」は使えない。/);
      assert.equal(await button.getAttribute('aria-invalid'), 'true');
      assert.equal(await button.getAttribute('aria-describedby'), await refused.getAttribute('id'));
      // In view, and within 100 px of the button.
      const [b, r] = [await button.boundingBox(), await refused.boundingBox()];
      const gap = Math.max(0, r.y - (b.y + b.height), b.y - (r.y + r.height));
      assert.ok(gap <= 100, `the message is ${gap} px from the button`);
      const inView = await refused.evaluate((e) => {
        const box = e.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      });
      assert.ok(inView, 'the message is on the screen');
      // No banner far above says it instead, and the move was not made.
      assert.equal(await page.getByTestId('notice').count(), 0);
      assert.match(await page.getByTestId('moves-left').textContent(), locale === 'en-US' ? /2 moves left of 2/ : /残り 2回（全 2回）/);
      await page.screenshot({ path: `${SHOTS}/challenge-refused-${width}-${locale}.png` });
      // An allowed move clears it.
      await page.getByTestId('retry-same').click();
      await page.getByTestId('move-refused').waitFor({ state: 'detached' });
      assert.equal(await button.getAttribute('aria-invalid'), null);
    }, { locale, width, height });
  }
});

test('a challenge won by its solution (opened at its end) is debriefed in both languages, at 1280 and 390 px', async () => {
  for (const locale of ['en-US', 'ja-JP']) {
    for (const [width, height] of SIZES) {
      await withPage(async (page) => {
        const words = DEBRIEF[locale];
        await open(page, 'sandbox/#/challenge/new-key-double');
        assert.equal(await page.getByTestId('debrief').count(), 0, 'no debrief before a win');
        await page.locator('.spoiler summary').click();
        // The solution opens at its end, where it wins.
        await page.getByTestId('show-solution').click();
        await page.locator('[data-testid=challenge-status][data-state=won]').waitFor();
        const debrief = page.getByTestId('debrief');
        await debrief.waitFor();
        assert.equal(await debrief.locator('h3').textContent(), words.heading);
        assert.match(await page.getByTestId('debrief-why').textContent(), words.why);
        assert.match(await page.locator('[data-testid=debrief-broken] li').first().textContent(), words.broken);
        assert.match(await page.getByTestId('debrief-mirrors').textContent(), words.mirrors);
        // Nothing in it is wider than the screen.
        const overflow = await debrief.evaluate((e) => e.scrollWidth - e.clientWidth);
        assert.ok(overflow <= 0, `the debrief overflows by ${overflow} px`);
        await page.getByTestId('challenge').scrollIntoViewIfNeeded();
        await page.getByTestId('challenge').screenshot({ path: `${SHOTS}/challenge-debrief-${width}-${locale}.png` });
      }, { locale, width, height });
    }
  }
});

test('a challenge whose goal breaks no invariant says so', async () => {
  await withPage(async (page) => {
    await open(page, 'sandbox/#/challenge/get-a-409');
    await page.locator('.spoiler summary').click();
    await page.getByTestId('show-solution').click();
    await page.locator('[data-testid=challenge-status][data-state=won]').waitFor();
    assert.equal(await page.getByTestId('debrief-broken').textContent(), 'None: every invariant the model checks holds.');
    assert.match(await page.getByTestId('debrief-why').textContent(), /refused with 409: the guard held/);
  });
});

test('a lab challenge won is debriefed too: why it works and the real failure it mirrors', async () => {
  await withPage(async (page) => {
    await open(page, 'lab/#/lab/challenge/toctou-all-three');
    assert.equal(await page.getByTestId('debrief').count(), 0);
    for (const r of [0, 1, 2, 0, 1, 2, 0, 1, 2]) await page.getByTestId(`lab-step-${r}`).click();
    await page.locator('[data-testid=challenge-status][data-state=won]').waitFor();
    assert.match(await page.getByTestId('debrief-why').textContent(), /^各リクエストはキーを調べてから保存する/);
    assert.match(await page.getByTestId('debrief-mirrors').textContent(), /一意制約のない冪等性テーブル/);
  }, { locale: 'ja-JP' });
});
