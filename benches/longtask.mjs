// Page-load benchmark of the heaviest scenario the limits accept (tests/fixtures/heaviest_scenario.json):
// imports it into the sandbox, then reloads the page (which restores it from localStorage), in
// headless Chromium with a long-task observer (PerformanceObserver 'longtask': any task over
// 50 ms). Prints, per run, the longest task and the time until the run is on the page.
// Run by scripts/bench.sh with BASE_URL pointing at a served dist/; measures, asserts nothing.
import { readFileSync } from 'node:fs';
import { withPage, open, ready } from '../tests/e2e/harness.mjs';

const heaviest = readFileSync('tests/fixtures/heaviest_scenario.json', 'utf8');
const RUNS = Number(process.env.LONGTASK_RUNS ?? 3);

const observe = () => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
};
const longest = (page) => page.evaluate(() => ({ max: Math.max(0, ...window.__longTasks), n: window.__longTasks.length }));

const rows = [];
for (let i = 0; i < RUNS; i++) {
  await withPage(async (page, context) => {
    await context.addInitScript(observe);
    await open(page, '#/sandbox');
    await page.getByText('Import JSON').click();
    await page.getByTestId('import-text').fill(heaviest);
    await page.evaluate(() => { window.__longTasks = []; });
    const t0 = Date.now();
    await page.getByTestId('import').click();
    await page.getByTestId('build-progress').waitFor({ state: 'detached', timeout: 300_000 });
    await page.getByTestId('position').waitFor();
    const importMs = Date.now() - t0;
    const imp = await longest(page);
    const t1 = Date.now();
    await page.reload();
    await ready(page);
    const shownMs = Date.now() - t1;
    await page.getByTestId('position').waitFor({ timeout: 300_000 });
    const reloadMs = Date.now() - t1;
    const rel = await longest(page);
    rows.push({ importMs, importMax: imp.max, importN: imp.n, shownMs, reloadMs, reloadMax: rel.max, reloadN: rel.n });
  });
}
const fmt = (x) => Math.round(x);
console.log('| run | import: longest task | tasks > 50 ms | import to run shown | reload: page shown | reload: longest task | tasks > 50 ms | reload to run shown |');
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
rows.forEach((r, i) => console.log(`| ${i + 1} | ${fmt(r.importMax)} ms | ${r.importN} | ${fmt(r.importMs)} ms | ${fmt(r.shownMs)} ms | ${fmt(r.reloadMax)} ms | ${r.reloadN} | ${fmt(r.reloadMs)} ms |`));
console.log(`longest task over all runs: ${fmt(Math.max(...rows.map((r) => Math.max(r.importMax, r.reloadMax))))} ms`);
