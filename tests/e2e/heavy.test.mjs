// The heaviest scenario the limits accept (tests/fixtures/heaviest_scenario.json, six services
// near the trace limit each): it imports with a progress bar while the page stays usable, it is
// kept, and a reload shows the page at once and fills the run in. No timing is asserted here;
// `make bench` measures the longest task (benches/longtask.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { withPage, open, ready, SHOTS } from './harness.mjs';

const heaviest = readFileSync('tests/fixtures/heaviest_scenario.json', 'utf8');
const position = (page) => page.getByTestId('position').textContent();

test('the heaviest accepted scenario imports in slices, is kept, and reloads', async () => {
  await withPage(async (page) => {
    await open(page, 'sandbox/#/sandbox');
    await page.getByText('Import JSON').click();
    await page.getByTestId('import-text').fill(heaviest);
    await page.getByTestId('import').click();
    // The page shows the build's progress, with Cancel, instead of freezing.
    const progress = page.getByTestId('build-progress');
    await progress.waitFor();
    assert.ok(await page.getByTestId('build-cancel').isVisible());
    await page.screenshot({ path: `${SHOTS}/heavy-building-1280.png` });
    await progress.waitFor({ state: 'detached', timeout: 120_000 });
    assert.match(await page.getByTestId('import-notice').textContent(), /^Imported\./);
    const loaded = await position(page);
    const [, total] = loaded.match(/^Step 0 \/ (\d+)$/) ?? [];
    assert.ok(Number(total) > 300_000, `the whole run is there: ${loaded}`);
    assert.equal(await page.locator('section[data-service]').count(), 6);
    // It is kept: a reload opens it again (after its own progress bar).
    await page.reload();
    await ready(page);
    await page.getByTestId('position').waitFor({ timeout: 120_000 });
    assert.equal(await position(page), loaded);
    assert.equal(await page.getByTestId('halted').count(), 0, 'no column stopped part-way');
  });
});

test('one relay tick more than the limits accept is refused with the limit named', async () => {
  await withPage(async (page) => {
    await open(page, 'sandbox/#/sandbox');
    await page.getByText('Import JSON').click();
    const more = heaviest.replace(/]}$/, ',{"type":"relay-tick","crash_after_publish":true}]}');
    assert.notEqual(more, heaviest);
    await page.getByTestId('import-text').fill(more);
    await page.getByTestId('import').click();
    const notice = page.getByTestId('import-notice');
    await notice.waitFor();
    assert.match(await notice.textContent(), /one run records at most 500,000/);
    assert.equal(await page.getByTestId('build-progress').count(), 0);
  });
});
