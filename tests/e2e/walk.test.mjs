// The defects a new-user walk found (issue 10, part 6), one test each, named by its number in the
// issue. Each failed on the page before its fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withPage, open, SHOTS } from './harness.mjs';

test('17: the language button is named by the text it shows (voice control can say it)', async () => {
  for (const [locale, shown] of [['en-US', '日本語'], ['ja-JP', 'English']]) {
    await withPage(async (page) => {
      await open(page, '#/scenario/double-charge');
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
      const list = await page.locator('.scenario-picker').boundingBox();
      const box = await notice.boundingBox();
      assert.ok(list.y + list.height <= box.y, `the list (y ${list.y}) is above the message (y ${box.y})`);
    }, { locale });
  }
});

test('8: a 5,000-character key is kept whole by the field and refused with its real length', async () => {
  for (const [locale, words] of [['en-US', /5,000 characters; at most 255/], ['ja-JP', /5,000 文字ある。上限は 255 文字/]]) {
    await withPage(async (page) => {
      await open(page, '#/sandbox');
      const key = 'k'.repeat(5000);
      await page.getByTestId('key-input').fill(key);
      assert.equal((await page.getByTestId('key-input').inputValue()).length, 5000, 'the field cut the key');
      await page.getByTestId('send').click();
      assert.match(await page.getByTestId('sandbox-error').textContent(), words);
      assert.match(await page.getByTestId('position').textContent(), /0 \/ 0/, 'nothing was sent');
    }, { locale });
  }
});
