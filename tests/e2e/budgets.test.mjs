// The page budgets (scripts/budgets.mjs, checked by scripts/check-budgets.mjs after the build)
// fail loudly. No browser: a fake dist/ in a temporary folder, its wasm and JS random bytes (which
// gzip cannot shrink, so their gzipped size is known to within a few bytes), checked against
// budgets written for the test, through the script as scripts/e2e.sh runs it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUDGETS } from '../../scripts/budgets.mjs';

const SCRIPT = fileURLToPath(new URL('../../scripts/check-budgets.mjs', import.meta.url));
let tree;

/** A page folder as scripts/build.sh leaves it: index.html with boot.js's tag for both languages. */
function page(dir, { en, ja }) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'boot.js'), 'const tag = document.querySelector("script[data-module]");\n');
  writeFileSync(join(dir, 'app-en.js'), randomBytes(1000));
  writeFileSync(join(dir, 'app-en_bg.wasm'), randomBytes(en));
  writeFileSync(join(dir, 'app-ja.js'), randomBytes(1000));
  writeFileSync(join(dir, 'app-ja_bg.wasm'), randomBytes(ja));
  writeFileSync(join(dir, 'index.html'), '<!DOCTYPE html><script type="module" src="./boot.js"'
    + ' data-module="./app-en.js" data-wasm="./app-en_bg.wasm" data-module-ja="./app-ja.js" data-wasm-ja="./app-ja_bg.wasm"></script>');
}

function check(dist, budgets) {
  const file = join(tree, `budgets-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, `export const BUDGETS = ${JSON.stringify(budgets)};\n`);
  const run = spawnSync(process.execPath, [SCRIPT, dist, file], { encoding: 'utf8' });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

before(() => {
  tree = mkdtempSync(join(tmpdir(), 'budgets-test-'));
  // The root page and one folder page; the Japanese root build is 30 KB over a 40 KB budget.
  page(join(tree, 'dist'), { en: 20_000, ja: 70_000 });
  page(join(tree, 'dist', 'lab'), { en: 10_000, ja: 10_000 });
});
after(() => rmSync(tree, { recursive: true, force: true }));

test('budgets: every page within its budget passes', () => {
  const r = check(join(tree, 'dist'), { '.': { en: 100_000, ja: 100_000 }, lab: { en: 50_000, ja: 50_000 } });
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /every page of .* is within its budget/);
  assert.match(r.out, /ok {3}the playground \(dist\/\) ja: 7\d,\d{3} of 100,000 bytes/);
});

test('budgets: a page over its budget fails, naming the page, the language, the size, the budget and the excess', () => {
  const r = check(join(tree, 'dist'), { '.': { en: 40_000, ja: 40_000 }, lab: { en: 50_000, ja: 50_000 } });
  assert.equal(r.code, 1, 'the check exits non-zero');
  const line = r.err.split('\n').find((l) => l.includes('over its budget'));
  assert.ok(line, r.err);
  const m = line.match(/the playground \(dist\/\) ja: ([\d,]+) bytes is over its budget of 40,000 by ([\d,]+) bytes/);
  assert.ok(m, line);
  const size = Number(m[1].replaceAll(',', ''));
  assert.ok(size > 71_000 && size < 72_500, `random bytes do not shrink: ${size}`);
  assert.equal(Number(m[2].replaceAll(',', '')), size - 40_000, 'the excess is the size less the budget');
  assert.equal(r.err.match(/over its budget/g).length, 1, 'only the page over its budget is named');
  assert.doesNotMatch(r.err, /dist\/\) en|lab\/ /);
});

test('budgets: a page without a budget fails, and so does a budget without its page', () => {
  const missing = check(join(tree, 'dist'), { '.': { en: 100_000, ja: 100_000 } });
  assert.equal(missing.code, 1);
  assert.match(missing.err, /lab\/ en: [\d,]+ bytes and no budget: add one to scripts\/budgets\.mjs/);
  assert.match(missing.err, /lab\/ ja: [\d,]+ bytes and no budget/);
  const stale = check(join(tree, 'dist'), { '.': { en: 100_000, ja: 100_000 }, lab: { en: 50_000, ja: 50_000 }, kafka: { en: 1, ja: 1 } });
  assert.equal(stale.code, 1);
  assert.match(stale.err, /kafka\/ en: has a budget but .* has no such build/);
  const empty = check(join(tree, 'nothing-here'), BUDGETS);
  assert.equal(empty.code, 1, 'a missing dist/ is a failure, not a pass');
  assert.match(empty.err, /nothing-here does not exist: build it first/);
});

test('budgets: the project gives every page of scripts/build.sh a budget in both languages', async () => {
  const { readFileSync } = await import('node:fs');
  const build = readFileSync(fileURLToPath(new URL('../../scripts/build.sh', import.meta.url)), 'utf8');
  const pages = [...build.matchAll(/^\s+"(\S+) \S+\.html"$/gm)].map((m) => m[1]);
  assert.ok(pages.length >= 5, `pages of build.sh: ${pages}`);
  for (const p of pages) {
    for (const lang of ['en', 'ja']) assert.ok(Number.isInteger(BUDGETS[p]?.[lang]) && BUDGETS[p][lang] > 0, `${p} ${lang}`);
  }
  assert.deepEqual(Object.keys(BUDGETS).sort(), [...pages].sort(), 'no budget for a page the build does not make');
});
