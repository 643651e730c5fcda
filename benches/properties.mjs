// How long a property run of 256 cases takes in the page (properties/), in headless Chromium:
// for each property and service, the page is opened with its settings in the address (which runs
// them), then Run is pressed RUNS times; the page's own status reports each run's time, from Run
// to the last slice (cases, then shrinking). A long-task observer (tasks over 50 ms) watches the
// presses. Run by scripts/bench.sh with BASE_URL pointing at a served dist/; measures, asserts
// nothing.
import { withPage, open } from '../tests/e2e/harness.mjs';

const RUNS = Number(process.env.PROPS_RUNS ?? 5);
const SEED = process.env.PROPS_SEED ?? '42';
const CASES = [
  ['replay', 'naive'], ['replay', 'toctou'], ['replay', 'atomic'], ['replay', 'production'],
  ['distinct-keys', 'naive'], ['distinct-keys', 'atomic'], ['distinct-keys', 'production'],
  ['one-charge-per-key', 'toctou'], ['one-charge-per-key', 'atomic'], ['one-charge-per-key', 'production'],
];

const observe = () => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const rows = [];
await withPage(async (page, context) => {
  await context.addInitScript(observe);
  for (const [p, svc] of CASES) {
    await open(page, `properties/#/properties?p=${p}&svc=${svc}&n=256&seed=${SEED}`);
    const done = '[data-testid=prop-status]:is([data-state=pass], [data-state=fail])';
    await page.waitForSelector(done, { timeout: 120_000 });
    const times = [];
    await page.evaluate(() => { window.__longTasks = []; });
    for (let i = 0; i < RUNS; i++) {
      await page.getByTestId('prop-run').click();
      await page.waitForSelector('[data-testid=prop-cancel]', { state: 'detached', timeout: 120_000 });
      await page.waitForSelector(done);
      const status = await page.getByTestId('prop-status').textContent();
      const m = status.match(/([\d,]+) ms/);
      times.push(Number(m[1].replace(/,/g, '')));
    }
    const state = await page.getByTestId('prop-status').getAttribute('data-state');
    const events = (await page.getByTestId('prop-status').textContent()).match(/\(([\d,]+) simulated/)[1];
    const tasks = await page.evaluate(() => ({ max: Math.max(0, ...window.__longTasks), n: window.__longTasks.length }));
    rows.push({ p, svc, state, events, median: median(times), min: Math.min(...times), max: Math.max(...times), tasks });
  }
});
console.log(`| property | service | outcome | events | page time, median of ${RUNS} (min–max) | longest task over 50 ms (count) |`);
console.log('| --- | --- | --- | ---: | ---: | ---: |');
for (const r of rows) {
  const long = r.tasks.n ? `${Math.round(r.tasks.max)} ms (${r.tasks.n})` : 'none';
  console.log(`| ${r.p} | ${r.svc} | ${r.state} | ${r.events} | ${r.median} ms (${r.min}–${r.max}) | ${long} |`);
}
