// Issue 13, sections 2 and 4, as a learner meets them: the key-scope lesson (predict, reveal) at
// 1280 px in English, the fingerprint lesson at 390 px in Japanese, the "another customer's
// receipt" challenge won with the sandbox's account select, and the sandbox's caller controls and
// request policies (scope, missing key), with a refused field and its message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withPage, open, SHOTS } from './harness.mjs';

const column = (page, service) => page.locator(`section[data-service=${service}]`);
const charges = (page, service) =>
  column(page, service).locator('tbody[data-testid=ledger] tr').count();
const failed = (page, service) =>
  column(page, service).locator('[data-testid=invariants]').getAttribute('data-failed').then(Number);

async function choose(page, label) {
  await page.getByTestId('predict').locator('button[data-choice]', { hasText: new RegExp(`^${label}$`) }).click();
}

test('key scope: predict the production service\'s charges, then see customer 2 read customer 1\'s receipt at the atomic one', async () => {
  await withPage(async (page) => {
    await open(page, '#/scenario/key-scope');
    const predict = page.getByTestId('predict');
    assert.equal(await predict.getAttribute('data-state'), 'open');
    const choices = await predict.locator('button[data-choice]').allTextContents();
    assert.ok(choices.includes('1') && choices.includes('2'), choices.join(','));
    await page.getByTestId('run-to-end').click();
    await page.screenshot({ path: `${SHOTS}/requests-key-scope-open-1280.png`, fullPage: true });
    // The guess lesson 10 invites: one key, one charge. The production service scopes keys by
    // account, so the run says otherwise.
    await choose(page, '1');
    assert.equal(await predict.getAttribute('data-state'), 'wrong');
    await page.getByTestId('outcome').waitFor();
    await page.getByTestId('run-to-end').click();
    assert.equal(await failed(page, 'atomic'), 1, 'the atomic service broke one invariant');
    assert.match(await column(page, 'atomic').locator('.badge.fail').textContent(), /another account's answer/);
    // The client rows say who sent what.
    assert.deepEqual(
      await column(page, 'atomic').locator('.client-result li').evaluateAll((els) => els.map((e) => e.dataset.account)),
      ['1', '2']);
    assert.equal(await failed(page, 'production'), 0, 'scoped keys: both customers charged');
    // Each customer pays from an account of their own (customer 2's receipt said 800, customer
    // 1's charge included, before the accounts had balances of their own).
    const balance = (service) => column(page, service).getByTestId('balance').textContent().then((t) => t.replaceAll('\u00a0', ' '));
    assert.equal(await balance('production'), 'account 1: 900 · account 2: 900');
    assert.equal(await balance('atomic'), 'account 1: 900 · account 2: 1,000');
    assert.match(await column(page, 'production').locator('.client-result').textContent(), /Success \(balance 900\)[^]*Success \(balance 900\)/);
    // The run's end names each account too, and the scoped store says whose each order-1 is.
    assert.match(await page.getByTestId('outcome').textContent(),
      /Production \(Stripe-style\): balances \(account 1: 900, account 2: 900\), 2 charges/);
    const keys = await column(page, 'production').locator('tbody[data-testid=store] td.key').allTextContents();
    assert.equal(keys.length, 2);
    assert.match(keys[0], /^order-1.*account 1$/);
    assert.match(keys[1], /^order-1.*account 2$/);
    await page.screenshot({ path: `${SHOTS}/requests-key-scope-1280.png`, fullPage: true });
    await page.getByTestId('predict-again').click();
    await choose(page, '2');
    assert.equal(await predict.getAttribute('data-state'), 'right');
  });
});

test('fingerprint fields: a stamped body makes the honest retry a mismatch (Japanese, 390 px)', async () => {
  await withPage(async (page) => {
    await open(page, '#/scenario/fingerprint-fields');
    const predict = page.getByTestId('predict');
    assert.equal(await predict.getAttribute('data-state'), 'open');
    await page.screenshot({ path: `${SHOTS}/requests-fingerprint-open-390-ja.png`, fullPage: true });
    // The balance, asked before the run: the refused retry's first try did charge.
    await choose(page, '900');
    assert.equal(await predict.getAttribute('data-state'), 'right');
    await page.getByTestId('run-to-end').click();
    assert.match(await column(page, 'production').getByTestId('counters').textContent(), /不一致 1/);
    assert.match(await column(page, 'atomic').getByTestId('counters').textContent(), /ヒット 1/);
    await page.screenshot({ path: `${SHOTS}/requests-fingerprint-390-ja.png`, fullPage: true });
  }, { width: 390, height: 844, locale: 'ja-JP' });
});

test('the challenge: another customer sends order-1 and receives customer 1\'s receipt', async () => {
  await withPage(async (page) => {
    await open(page, '#/challenge/another-receipt');
    const status = page.locator('[data-testid=challenge] [data-testid=challenge-status]');
    assert.equal(await status.getAttribute('data-state'), 'open');
    // The policies are fixed in a challenge; who sends is the learner's move.
    assert.equal(await page.getByTestId('scope-select').count(), 0);
    // A move that does not win, to its end: "Clear all inputs" takes back the learner's moves
    // only (the challenge's own first request stays), so the challenge can be tried again.
    const clear = page.getByTestId('sandbox-clear');
    assert.equal(await clear.isDisabled(), true, 'nothing of the learner\'s to clear yet');
    await page.getByTestId('account-select').selectOption('2');
    await page.getByTestId('key-input').fill('order-9');
    await page.getByTestId('send').click();
    await page.getByTestId('run-to-end').click();
    await page.locator('[data-testid=challenge-status][data-state=ended]').waitFor();
    const moves = page.getByTestId('moves-left');
    const spent = await moves.textContent();
    await clear.click();
    await page.waitForFunction(() => document.querySelector('[data-testid=sandbox-clear]')?.disabled);
    assert.notEqual(await moves.textContent(), spent, 'the move is given back');
    assert.equal(await status.getAttribute('data-state'), 'open', 'no move of the learner\'s to judge');
    await page.getByTestId('account-select').selectOption('2');
    await page.getByTestId('key-input').fill('order-1');
    await page.getByTestId('send').click();
    await page.getByTestId('run-to-end').click();
    await page.locator('[data-testid=challenge-status][data-state=won]').waitFor();
    assert.match(await page.locator('[data-testid=lesson-toc] a[data-section=another-receipt] .mark').getAttribute('class'), /won/);
    await page.screenshot({ path: `${SHOTS}/requests-challenge-won-1280.png`, fullPage: true });
  });
});

test('sandbox: accounts and the key scope, a request without a key, and a refused field', async () => {
  for (const [lang, width] of [['en-US', 1280], ['ja-JP', 390]]) {
    await withPage(async (page) => {
      await open(page, '#/sandbox');
      // Keys by the key alone: customer 2's order-1 is answered with customer 1's.
      await page.getByTestId('scope-select').selectOption('global');
      await page.getByTestId('key-input').fill('order-1');
      await page.getByTestId('account-select').selectOption('1');
      await page.getByTestId('send').click();
      await page.getByTestId('account-select').selectOption('2');
      await page.getByTestId('send').click();
      await page.getByTestId('run-to-end').click();
      assert.equal(await charges(page, 'production'), 1);
      assert.equal(await failed(page, 'production'), 1);
      // Per account: the same two requests charge twice.
      await page.getByTestId('scope-select').selectOption('account');
      await page.getByTestId('run-to-end').click();
      assert.equal(await charges(page, 'production'), 2);
      assert.equal(await failed(page, 'production'), 0);
      // A request without a key: with a key typed it is refused, with a message.
      await page.getByTestId('no-key-box').check();
      await page.getByTestId('send').click();
      assert.match(await page.getByTestId('sandbox-error').textContent(), lang === 'en-US' ? /clear the key field/ : /キー欄を空に/);
      await page.getByTestId('key-input').fill('');
      await page.getByTestId('missing-key-select').selectOption('reject-400');
      await page.getByTestId('send').click();
      await page.getByTestId('run-to-end').click();
      assert.equal(await charges(page, 'production'), 2, 'the keyless request was refused');
      assert.equal(await charges(page, 'naive'), 3, 'the naive service charged it');
      assert.match(await column(page, 'production').locator('.client-result li').last().textContent(), /400/);
      await page.screenshot({ path: `${SHOTS}/requests-sandbox-${width}-${lang.slice(0, 2)}.png`, fullPage: true });
    }, { width, height: width === 390 ? 844 : 800, locale: lang });
  }
});
