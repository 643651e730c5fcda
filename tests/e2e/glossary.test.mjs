// The glossary (issue 28): a page of its own on the first page (#/glossary, #/glossary/<id>), in
// both languages, which a term's first use links to: from a lesson of the path, and from the
// durable and Kafka pages, which link the terms they introduce (compensation, fence) to the
// first page's glossary (Kafka's after the question, where its words first say it). Back returns
// to the lesson.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withPage, open, skipQuestion, SHOTS } from './harness.mjs';

for (const [locale, heading, toctou] of [['en-US', /^Glossary/, /TOCTOU/], ['ja-JP', /^用語集/, /TOCTOU/]]) {
  test(`the glossary lists every term, and a lesson's first use of a term opens its entry (${locale})`, async () => {
    await withPage(async (page) => {
      await open(page, '#/glossary');
      const g = page.getByTestId('glossary');
      await page.locator('[data-testid=glossary][data-words=ready]').waitFor();
      assert.match(await g.locator('h2').textContent(), heading);
      // Every term, each with what it means and a link to where it runs.
      const terms = g.locator('dt[data-term]');
      assert.ok(await terms.count() >= 14, `${await terms.count()} terms`);
      assert.equal(await g.locator('dd').count(), await terms.count());
      assert.equal(await g.locator('dd a[data-shown]').count(), await terms.count());
      await page.screenshot({ path: `${SHOTS}/glossary-${locale}-1280.png`, fullPage: true });

      // The lesson that introduces TOCTOU links its first use; the link opens that entry alone.
      await open(page, '#/scenario/concurrent-same-key');
      const link = page.locator('a.term[data-term=toctou]').first();
      await link.waitFor();
      await link.click();
      await page.waitForURL(/#\/glossary\/toctou$/);
      await page.locator('[data-testid=glossary][data-words=ready]').waitFor();
      assert.deepEqual(await g.locator('dt[data-term]').evaluateAll((d) => d.map((e) => e.dataset.term)), ['toctou']);
      assert.match(await g.locator('dt').textContent(), toctou);
      // The entry names the lesson that first uses it, and Back returns to that lesson.
      assert.equal(await g.locator('a[data-first]').getAttribute('href'), '#/scenario/concurrent-same-key');
      await page.goBack();
      await page.waitForURL(/#\/scenario\/concurrent-same-key$/);
      await page.getByTestId('predict').waitFor();
    }, { locale });
  });

  test(`the durable and Kafka pages link the terms they introduce to the first page's glossary (${locale})`, async () => {
    await withPage(async (page) => {
      for (const [hash, term] of [['durable/#/scenario/durable-saga', 'compensation'], ['kafka/#/scenario/kafka-restart', 'fence']]) {
        await open(page, hash);
        // Kafka's restart lesson says "fenced" only once the question is answered or skipped.
        await skipQuestion(page);
        if (term === 'compensation') {
          // The durable page introduces sagas too: its saga lesson links the word's first use.
          assert.equal(await page.locator('a.term[data-term=saga]').first().getAttribute('href'), '../#/glossary/saga');
        }
        const link = page.locator(`a.term[data-term=${term}]`).first();
        await link.waitFor();
        assert.equal(await link.getAttribute('href'), `../#/glossary/${term}`);
        await link.click();
        await page.waitForURL(new RegExp(`/#/glossary/${term}$`));
        await page.locator('[data-testid=glossary][data-words=ready]').waitFor();
        assert.deepEqual(await page.locator('[data-testid=glossary] dt[data-term]').evaluateAll((d) => d.map((e) => e.dataset.term)), [term]);
        const means = await page.locator('[data-testid=glossary] dd p').first().textContent();
        assert.ok(means.length > 30, `what "${term}" means: ${means}`);
      }
    }, { locale });
  });
}
