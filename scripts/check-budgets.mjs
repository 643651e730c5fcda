// Fails when a page of the built site weighs more than its budget (scripts/budgets.mjs):
//   node scripts/check-budgets.mjs [dist] [budgets module]
// The weight is the "page total" of scripts/weigh.mjs (gzip -9c of the page's wasm and
// wasm-bindgen JS for one language, plus boot.js). A size is deterministic, so this is a test, run
// by scripts/e2e.sh (the e2e layer of `make test`) right after dist/ is built. Each page over its
// budget is named with its language, size, budget and excess; a page without a budget, a budget
// without its page and a page whose boot tag names no build are failures too.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { weigh } from './weigh.mjs';

const fmt = (n) => n.toLocaleString('en-US');
const where = (page) => (page === '.' ? 'the playground (dist/)' : `${page}/`);

/** Returns `{ rows, problems }`: every page's weight and one sentence per failure. */
export function checkBudgets(root, budgets) {
  if (!existsSync(root)) return { rows: [], problems: [`${root} does not exist: build it first (scripts/build.sh)`] };
  const rows = weigh(root, { brotli: false });
  const problems = [];
  if (rows.length === 0) problems.push(`no page found under ${root}/ (an index.html with boot.js's tag): build it first`);
  for (const r of rows) {
    const budget = budgets[r.page]?.[r.lang];
    if (budget === undefined) {
      problems.push(`${where(r.page)} ${r.lang}: ${fmt(r.total)} bytes and no budget: add one to scripts/budgets.mjs, saying where its figure comes from`);
    } else if (r.total > budget) {
      const over = r.total - budget;
      problems.push(`${where(r.page)} ${r.lang}: ${fmt(r.total)} bytes is over its budget of ${fmt(budget)} by ${fmt(over)} bytes (${(100 * over / budget).toFixed(2)} %)`);
    }
  }
  for (const [page, langs] of Object.entries(budgets)) {
    for (const lang of Object.keys(langs)) {
      if (rows.length && !rows.some((r) => r.page === page && r.lang === lang)) {
        problems.push(`${where(page)} ${lang}: has a budget but ${root}/ has no such build (a page removed? remove its budget too)`);
      }
    }
  }
  return { rows, problems };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = process.argv[2] ?? 'dist';
  const module = process.argv[3] ? pathToFileURL(resolve(process.argv[3])).href : './budgets.mjs';
  const { BUDGETS } = await import(module);
  const { rows, problems } = checkBudgets(root, BUDGETS);
  for (const r of rows) {
    const budget = BUDGETS[r.page]?.[r.lang];
    const mark = budget !== undefined && r.total <= budget ? 'ok  ' : 'OVER';
    console.log(`[budgets] ${mark} ${where(r.page)} ${r.lang}: ${fmt(r.total)} of ${budget === undefined ? 'no budget' : fmt(budget)} bytes`);
  }
  if (problems.length) {
    console.error(`[budgets] FAILED (${problems.length} problem${problems.length > 1 ? 's' : ''}); the budgets are in scripts/budgets.mjs:`);
    for (const p of problems) console.error(`[budgets]   ${p}`);
    process.exit(1);
  }
  console.log(`[budgets] every page of ${root}/ is within its budget`);
}
