// Accessibility (issue 28): axe-core (@axe-core/playwright, pinned in package-lock.json) finds no
// WCAG 2.1 A or AA violation on any page in its main states, at 1280 and 390 px, in English and
// Japanese: a lesson at its question and after the answer, the sandbox, a challenge won, the
// lab's stepper, its explorer after a search and its PostgreSQL view, the property checks (and a
// failed, shrunk check), the durable and Kafka pages (free run, a lesson before and after its
// answer, a challenge won with its debrief), the glossary, and the last lesson with its closing
// card.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
import { withPage, open, BASE_URL } from './harness.mjs';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The violations on the page as it is now, one line each (rule, impact, first elements). */
async function violations(page) {
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length}×): ${v.help}; ` +
    v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | '));
}

/** The states to check: a name, the address, and what to do once it is open. */
const STATES = [
  ['a lesson at its question', '#/scenario/timeout-ambiguity', async (page) => {
    await page.locator('[data-testid=predict][data-state=open]').waitFor();
  }],
  ['a lesson after the answer', '#/scenario/timeout-ambiguity', async (page) => {
    await page.locator('[data-testid=predict] button[data-choice]').first().click();
    await page.getByTestId('run-to-end').click();
  }],
  ['the sandbox', 'sandbox/#/sandbox', async () => {}],
  ['a challenge won', 'sandbox/#/challenge/triple-charge', async (page) => {
    for (let i = 0; i < 2; i += 1) {
      await page.getByTestId('retry-same').click();
      await page.getByTestId('run-to-end').click();
    }
    await page.locator('[data-testid=challenge-status][data-state=won]').waitFor();
  }],
  ['the lab stepper', 'lab/#/lab', async () => {}],
  ['the lab on a real database', 'lab/#/lab/postgres', async () => {}],
  ['the property checks', 'properties/#/properties', async () => {}],
  ['the durable page', 'durable/#/durable', async () => {}],
  ['a durable lesson', 'durable/#/scenario/durable-resume', async () => {}],
  ['a durable lesson after the answer', 'durable/#/scenario/durable-resume', async (page) => {
    await page.getByTestId('predict-skip').click();
    await page.getByTestId('why').waitFor();
  }],
  ['a durable challenge won, with its debrief', 'durable/#/durable/challenge/durable-charge-twice', async (page) => {
    for (let i = 0; i < 6; i += 1) await page.getByTestId('step').click();
    await page.getByTestId('crash-worker').click();
    await page.getByTestId('run-to-end').click();
    await page.locator('[data-testid=challenge][data-won=true] [data-testid=debrief]').waitFor();
  }],
  ['the lab explorer after a search', 'lab/#/lab', async (page) => {
    await page.getByTestId('explorer-start').click();
    await page.waitForSelector('[data-testid=explorer-status][data-state=done]', { timeout: 30_000 });
  }],
  ['a property check that failed, shrunk', 'properties/#/properties?p=one-charge-per-key&svc=naive&n=256&seed=3', async (page) => {
    await page.waitForSelector('[data-testid=prop-result][data-state=fail]', { timeout: 60_000 });
  }],
  ['the Kafka page', 'kafka/#/kafka', async () => {}],
  ['a Kafka challenge won by its solution, with its debrief', 'kafka/#/kafka/challenge/kafka-duplicate', async (page) => {
    await page.getByTestId('show-solution').click();
    await page.getByTestId('run-to-end').click();
    await page.locator('[data-testid=challenge-status][data-won=true]').waitFor();
    await page.getByTestId('debrief').waitFor();
  }],
  ['a Kafka lesson', 'kafka/#/scenario/kafka-lost-ack', async () => {}],
  ['a Kafka lesson after the answer', 'kafka/#/scenario/kafka-restart', async (page) => {
    await page.getByTestId('predict-skip').click();
    await page.getByTestId('why').waitFor();
  }],
  ['the glossary', '#/glossary', async (page) => {
    await page.locator('[data-testid=glossary][data-words=ready]').waitFor();
  }],
  ['the last lesson and its closing card', '#/scenario/fingerprint-fields', async (page) => {
    await page.getByTestId('predict-skip').click();
    await page.getByTestId('closing').waitFor();
  }],
];

for (const [locale, lang] of [['en-US', 'en'], ['ja-JP', 'ja']]) {
  for (const width of [1280, 390]) {
    test(`no WCAG 2.1 AA violation in any main state (${lang}, ${width} px)`, async () => {
      await withPage(async (page) => {
        const found = [];
        for (const [name, hash, act] of STATES) {
          await page.goto('about:blank');
          await open(page, hash);
          await act(page);
          for (const v of await violations(page)) found.push(`${name} (${BASE_URL}${hash}): ${v}`);
        }
        assert.deepEqual(found, [], `axe found:\n${found.join('\n')}`);
      }, { width, height: 800, locale });
    });
  }
}
