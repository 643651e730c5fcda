// The lab's "On a real database" (lab/#/lab/postgres): the learner predicts what PostgreSQL
// charged on the lab's shortest double charge, variant by variant; the answers, the race and the
// verdicts are the committed report's (data/pg-race.json, written by `make pg-race`), read here
// too so the page is checked against the file, not against numbers typed into the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { withPage, open, SHOTS } from './harness.mjs';

const report = JSON.parse(readFileSync('data/pg-race.json', 'utf8'));

test('predict, then see what PostgreSQL did: the answers and the race are the report', async () => {
  await withPage(async (page) => {
    await page.goto(process.env.BASE_URL ?? 'http://127.0.0.1:8080/');
    await page.evaluate(() => localStorage.removeItem('idempotency-playground.pg-guesses'));
    // From the lesson path's list to the lab's view.
    const link = page.locator('[data-testid=lesson-toc] a[data-section=postgres]');
    assert.equal(await link.getAttribute('href'), 'lab/#/lab/postgres');
    await open(page, 'lab/#/lab/postgres');
    const rows = page.locator('[data-testid=db-predict] tbody tr');
    assert.equal(await rows.count(), report.races.length);
    assert.equal(await page.getByTestId('db-race').count(), 0, 'the race is not shown before the predictions');
    assert.match(await page.getByTestId('db-measured').textContent(), new RegExp(report.date));
    await page.screenshot({ path: `${SHOTS}/db-predict-1280.png`, fullPage: true });

    // One transaction at READ COMMITTED: the lab's model says one charge.
    const tx = page.locator('[data-testid=db-predict] tr[data-variant=tx-check-insert]');
    const counter = report.schedules.find((s) => s.variant === 'tx-check-insert');
    assert.equal(await tx.locator('td').first().textContent(), String(counter.model_charges));
    await tx.locator('button[data-guess="1"]').click();
    assert.equal(await tx.getAttribute('data-revealed'), 'true');
    assert.equal(await tx.getAttribute('data-right'), String(counter.pg_charges === 1));
    assert.match(await tx.getByTestId('db-pg').textContent(), new RegExp(`${counter.pg_charges}`));
    // The guess survives a reload.
    await page.reload();
    await page.getByTestId('db').waitFor();
    assert.equal(await tx.getAttribute('data-revealed'), 'true');
    assert.ok(await tx.locator('button[data-guess="2"]').isDisabled(), 'one guess per row');

    await page.getByTestId('db-reveal-all').click();
    const race = page.locator('[data-testid=db-race] tbody tr');
    assert.equal(await race.count(), report.races.length);
    for (const r of report.races) {
      assert.equal(await page.locator(`[data-testid=db-race] tr[data-variant=${r.variant}]`).getAttribute('data-double'), String(r.double_charged), r.variant);
    }
    // The verdicts: where the model and PostgreSQL agree on every schedule, and where not.
    for (const v of ['toctou', 'tx-check-insert', 'claim-first']) {
      const rowsOf = report.schedules.filter((s) => s.variant === v);
      const agree = rowsOf.every((s) => s.model_charges === s.pg_charges);
      assert.equal(await page.locator(`[data-testid=db-verdicts] li[data-variant=${v}]`).getAttribute('data-agree'), String(agree), v);
    }
    assert.match(await page.getByTestId('db-score').textContent(), /of 1 right/);
    // The SQL shown is the SQL that ran: the claim-first variant's ON CONFLICT.
    await page.locator('[data-testid=db-sql] details[data-variant=claim-first] summary').click();
    assert.match(await page.locator('[data-testid=db-sql] details[data-variant=claim-first] pre').textContent(), /ON CONFLICT \(key\) DO NOTHING RETURNING key/);
    await page.screenshot({ path: `${SHOTS}/db-revealed-1280.png`, fullPage: true });
  });
});

test('the database view in Japanese at 390 px: it fits, and the lab links to it', async () => {
  await withPage(async (page) => {
    await open(page, 'lab/#/lab');
    await page.getByTestId('lab-db-link').click();
    await page.getByTestId('db').waitFor();
    await page.evaluate(() => localStorage.removeItem('idempotency-playground.pg-guesses'));
    await page.reload();
    await page.getByTestId('db').waitFor();
    await page.getByTestId('db-reveal-all').click();
    await page.getByTestId('db-race').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the phone screen`);
    assert.match(await page.getByRole('heading', { level: 2 }).textContent(), /本物のデータベース/);
    await page.screenshot({ path: `${SHOTS}/db-ja-390.png`, fullPage: true });
  }, { width: 390, height: 844, locale: 'ja-JP' });
});
