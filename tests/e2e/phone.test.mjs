// Phones and access (issue 28, section 5), measured at 390 × 844 on a touch screen, in English and
// Japanese: the header and navigation take at most a fifth of the first screen on every page; no
// table is wider than its box unless its first column stays in view or it is drawn as cards;
// timeline links, sequence step links, lesson links and run-control buttons are at least 44 × 44
// px; the durable page shows one column at a time behind a switcher (click and keyboard, with
// tab roles) and all of them at 1280 px; the lab's result shows within a screen of the tap that
// caused it; keyboard hints only where there is a keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_URL, SHOTS, ready } from './harness.mjs';

const PHONE = { width: 390, height: 844 };
const LANGS = [['en-US', 'en'], ['ja-JP', 'ja']];

/** Like the harness's `withPage`, with a touch screen when `touch` (a phone: `pointer: coarse`). */
async function withPhone(fn, { width = PHONE.width, height = PHONE.height, locale = 'en-US', touch = true } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'e2e-phone-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    locale,
    viewport: { width, height },
    hasTouch: touch,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-quic'],
  });
  const errors = [];
  try {
    const page = context.pages()[0] ?? await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await fn(page);
    if (errors.length) throw new Error(`the page reported errors:\n${errors.join('\n')}`);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

async function go(page, hash, lang) {
  await page.goto(BASE_URL + hash);
  await ready(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), lang, `${hash} in ${lang}`);
}

/** Runs a lesson to its end, skipping its question wherever it waits. */
async function runLesson(page) {
  const skip = page.getByTestId('predict-skip');
  const end = page.getByTestId('run-to-end');
  for (let i = 0; i < 3; i += 1) {
    if (await skip.count() && await skip.isEnabled()) await skip.click();
    if (await end.isEnabled()) await end.click();
  }
  assert.equal(await end.isDisabled(), true, 'the run is at its end');
}

/** Tables on the page that are wider than their box with neither a sticky first column nor cards. */
async function tablesOverflowing(page) {
  return page.evaluate(() => [...document.querySelectorAll('table')]
    .filter((t) => t.getClientRects().length)
    .map((t) => {
      const box = t.parentElement;
      const first = t.querySelector('tr > :first-child');
      return {
        name: t.dataset.testid ?? t.className,
        over: Math.round(t.getBoundingClientRect().width - box.clientWidth),
        sticky: first ? getComputedStyle(first).position === 'sticky' : false,
        cards: getComputedStyle(t).display !== 'table',
      };
    })
    .filter((t) => t.over > 1 && !t.sticky && !t.cards));
}

/** The visible elements of `selector` smaller than 44 × 44 px, as "text w×h". */
async function smallTargets(page, selector) {
  const found = await page.locator(selector).evaluateAll((els) => els
    .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .map((e) => {
      // A link inside a sentence keeps the line's height and takes taps on a larger ::after box.
      const box = e.getBoundingClientRect();
      const after = getComputedStyle(e, '::after');
      const r = after.content === 'none' || after.position !== 'absolute' ? box
        : { width: Math.max(box.width, parseFloat(after.width)), height: Math.max(box.height, parseFloat(after.height)) };
      return { r, t: (e.textContent ?? '').trim().slice(0, 24) };
    }));
  assert.ok(found.length > 0, `no ${selector} on the page`);
  return found.filter(({ r }) => r.width < 43.5 || r.height < 43.5)
    .map(({ r, t }) => `${selector} “${t}” ${Math.round(r.width)}×${Math.round(r.height)}`);
}

const PAGES = ['', 'sandbox/', 'lab/', 'properties/', 'durable/', 'kafka/'];

for (const [locale, lang] of LANGS) {
  test(`the header and navigation take at most a fifth of a phone's first screen (${lang})`, async () => {
    await withPhone(async (page) => {
      const found = [];
      for (const p of PAGES) {
        await go(page, p, lang);
        const bottom = await page.evaluate(() => {
          const r = document.querySelector('.site-header').getBoundingClientRect();
          return r.bottom + window.scrollY;
        });
        console.log(`header at 390 px (${lang}) /${p}: ${Math.round(bottom)} px, ${(bottom / PHONE.height * 100).toFixed(1)} %`);
        if (bottom > PHONE.height / 5) found.push(`/${p}: ${Math.round(bottom)} px`);
        // The navigation itself is tappable.
        found.push(...await smallTargets(page, '.site-header nav a, .lang-toggle'));
      }
      assert.deepEqual(found, [], 'headers taller than 168.8 px or nav targets under 44 px');
      await page.screenshot({ path: `${SHOTS}/phone-header-${lang}.png` });
    }, { locale });
  });

  test(`no table wider than its box without its first column in view or cards (${lang}, 390 px)`, async () => {
    await withPhone(async (page) => {
      const found = [];
      const check = async (name) => {
        for (const t of await tablesOverflowing(page)) found.push(`${name}: ${JSON.stringify(t)}`);
      };
      for (const hash of ['#/scenario/timeout-ambiguity', 'durable/#/scenario/durable-resume', 'kafka/#/scenario/kafka-lost-ack']) {
        await go(page, hash, lang);
        await runLesson(page);
        await check(hash);
      }
      // The other pages' tables, each in a state that fills them.
      for (const [hash, act] of [
        ['sandbox/#/sandbox', async () => {}],
        ['lab/#/lab', async () => {
          await page.getByTestId('explorer-start').click();
          await page.waitForSelector('[data-testid=explorer-status][data-state=done]', { timeout: 30_000 });
        }],
        ['properties/#/properties?p=one-charge-per-key&svc=naive&n=256&seed=3', async () => {
          await page.waitForSelector('[data-testid=prop-result][data-state=fail]', { timeout: 60_000 });
        }],
        ['kafka/#/kafka', async () => {
          await page.getByTestId('send').click();
          await page.getByTestId('run-to-end').click();
        }],
      ]) {
        await go(page, hash, lang);
        await act();
        await check(hash);
      }
      await go(page, 'lab/#/lab/postgres', lang);
      await page.evaluate(() => localStorage.removeItem('idempotency-playground.pg-guesses'));
      await page.reload();
      await page.getByTestId('db').waitFor();
      await page.getByTestId('db-reveal-all').click();
      await page.getByTestId('db-race').waitFor();
      // The PostgreSQL view's tables of results are one card per row.
      for (const id of ['db-predict', 'db-race']) {
        const t = page.getByTestId(id);
        assert.equal(await t.evaluate((e) => getComputedStyle(e).display), 'block', `${id} as cards`);
        const w = await t.evaluate((e) => e.getBoundingClientRect().width);
        assert.ok(w <= PHONE.width, `${id} is ${w} px wide`);
      }
      await check('lab/#/lab/postgres');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the database view is ${overflow} px wider than the phone`);
      await page.screenshot({ path: `${SHOTS}/phone-db-${lang}.png`, fullPage: true });
      assert.deepEqual(found, []);
    }, { locale });
  });

  test(`tap targets are at least 44 × 44 px: run controls, lesson, next-lesson, closing, timeline and sequence links (${lang}, 390 px)`, async () => {
    await withPhone(async (page) => {
      const found = [];
      await go(page, '#/scenario/timeout-ambiguity', lang);
      await page.getByTestId('toc-toggle').click();
      found.push(...await smallTargets(page, '.lesson-toc .toc-body li a'));
      await page.getByTestId('toc-toggle').click();
      await runLesson(page);
      found.push(...await smallTargets(page, '.controls[role=toolbar] button'));
      // Next, the glossary beside it, and the closing card's links to the lessons.
      found.push(...await smallTargets(page, '.next-lesson a'));
      await go(page, '#/scenario/fingerprint-fields', lang);
      await runLesson(page);
      found.push(...await smallTargets(page, '.closing .rules a'));
      found.push(...await smallTargets(page, '.closing .onward a'));
      // The step that shows the answer, a broken rule's step, and every disclosure's heading.
      found.push(...await smallTargets(page, '[data-testid=why-step]'));
      found.push(...await smallTargets(page, 'main summary'));
      await go(page, '#/scenario/double-charge', lang);
      await runLesson(page);
      found.push(...await smallTargets(page, '[data-testid=violation-step]'));
      // A glossary term inside a sentence (TOCTOU's first use).
      await go(page, '#/scenario/concurrent-same-key', lang);
      await page.locator('a.term[data-term=toctou]').first().waitFor();
      found.push(...await smallTargets(page, 'a.term'));

      await go(page, 'durable/#/scenario/durable-resume', lang);
      found.push(...await smallTargets(page, '.dur-lessons li a'));
      await runLesson(page);
      found.push(...await smallTargets(page, '.controls[role=toolbar] button'));
      found.push(...await smallTargets(page, '.dur-actions button'));
      // The sequence's step links.
      found.push(...await smallTargets(page, '[data-testid=timeline] a.tl-step'));

      await go(page, 'kafka/#/scenario/kafka-lost-ack', lang);
      found.push(...await smallTargets(page, '[data-testid=kafka-nav] li a'));
      await runLesson(page);
      found.push(...await smallTargets(page, '.controls[role=toolbar] button'));
      // The timeline's links to a step.
      found.push(...await smallTargets(page, '.kafka-timeline li button.linkish'));
      found.push(...await smallTargets(page, '.predict button.linkish'));
      assert.deepEqual(found, [], 'targets under 44 × 44 px');
    }, { locale });
  });

  test(`the durable page shows one column at a time on a phone, switched by tap or keyboard (${lang})`, async () => {
    await withPhone(async (page) => {
      await go(page, 'durable/#/scenario/durable-resume', lang);
      const tablist = page.getByRole('tablist');
      await tablist.waitFor();
      const tabs = tablist.getByRole('tab');
      assert.equal(await tabs.count(), 2);
      const visibleColumns = () => page.locator('[data-testid=column]').evaluateAll((cs) => cs
        .filter((c) => c.getClientRects().length).map((c) => c.dataset.column));
      const selected = () => tabs.evaluateAll((ts) => ts.map((t) => t.getAttribute('aria-selected')));
      assert.deepEqual(await visibleColumns(), ['0']);
      assert.deepEqual(await selected(), ['true', 'false']);
      // Each tab controls its panel, and the panel is named by its tab.
      const panel = page.locator('#' + await tabs.nth(1).getAttribute('aria-controls'));
      assert.equal(await panel.getAttribute('role'), 'tabpanel');
      assert.equal(await panel.getAttribute('aria-labelledby'), await tabs.nth(1).getAttribute('id'));

      await runLesson(page);
      const position = await page.getByTestId('position').textContent();
      await tabs.nth(1).click();
      assert.deepEqual(await visibleColumns(), ['1']);
      assert.deepEqual(await selected(), ['false', 'true']);
      await page.screenshot({ path: `${SHOTS}/phone-durable-tab2-${lang}.png` });

      // The keyboard: ← moves to the first tab and focuses it, without stepping the run back.
      await tabs.nth(1).focus();
      await page.keyboard.press('ArrowLeft');
      assert.deepEqual(await visibleColumns(), ['0']);
      assert.deepEqual(await selected(), ['true', 'false']);
      assert.equal(await page.evaluate(() => document.activeElement?.id), await tabs.nth(0).getAttribute('id'));
      await page.keyboard.press('End');
      assert.deepEqual(await visibleColumns(), ['1']);
      assert.equal(await page.getByTestId('position').textContent(), position, 'the arrow keys did not move the run');
      // Only the selected tab is in the tab order.
      assert.deepEqual(await tabs.evaluateAll((ts) => ts.map((t) => t.tabIndex)), [-1, 0]);

      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      console.log(`durable lesson at 390 px (${lang}): ${height} px tall`);
      assert.ok(height < 7500, `the durable lesson is ${height} px tall at 390 px`);
      // No keyboard hint on a touch screen.
      await page.getByTestId('reset').click();
      assert.equal(await page.locator('.kbd-hint').isVisible(), false, 'a keyboard hint on a touch screen');
    }, { locale });
  });
}

test('at 1280 px the durable columns stand side by side, with no switcher, and the keyboard hint shows', async () => {
  await withPhone(async (page) => {
    await go(page, 'durable/#/scenario/durable-resume', 'en');
    assert.equal(await page.getByRole('tablist').isVisible(), false);
    const visible = await page.locator('[data-testid=column]').evaluateAll((cs) => cs.filter((c) => c.getClientRects().length).length);
    assert.equal(visible, 2);
    assert.equal(await page.locator('.kbd-hint').isVisible(), true, 'the keyboard hint where there is a keyboard');
  }, { width: 1280, height: 800, touch: false });
});

for (const [locale, lang] of LANGS) {
  test(`the lab's double charge shows within a screen of the tap that caused it (${lang}, 390 px)`, async () => {
    await withPhone(async (page) => {
      await go(page, 'lab/#/lab', lang);
      const outcome = page.getByTestId('lab-outcome');
      let last = null;
      // Request 1 and 2 both check the store, then each goes on to charge.
      for (const r of [0, 1, 0, 1, 0, 1, 0, 1, 0, 1]) {
        const button = page.getByTestId(`lab-step-${r}`);
        if (await button.isDisabled()) continue;
        await button.click();
        last = button;
        if (await outcome.getAttribute('data-state') === 'double-charge') break;
      }
      assert.equal(await outcome.getAttribute('data-state'), 'double-charge');
      await page.getByTestId('lab-double-charge').waitFor({ state: 'attached' });
      const [b, o, h] = [await last.boundingBox(), await outcome.boundingBox(), await page.evaluate(() => innerHeight)];
      const distance = Math.abs((o.y + o.height / 2) - (b.y + b.height / 2));
      console.log(`lab at 390 px (${lang}): the result is ${Math.round(distance)} px from the last tap`);
      assert.ok(o.y >= 0 && o.y + o.height <= h, `the result is off screen: top ${o.y}, bottom ${o.y + o.height}`);
      assert.ok(distance <= h, `the result is ${distance} px from the last tap`);
      assert.match(await outcome.textContent(), /double charge|二重課金/);
      await page.screenshot({ path: `${SHOTS}/phone-lab-${lang}.png` });
      // Its button goes to the detail.
      await page.getByTestId('lab-outcome-details').click();
      await page.waitForFunction(() => {
        const r = document.getElementById('lab-shared-h').getBoundingClientRect();
        return r.top >= -1 && r.top < innerHeight;
      });
    }, { locale });
  });
}

test('the property checks\' shrink walk names its keys only where there is a keyboard', async () => {
  for (const touch of [true, false]) {
    await withPhone(async (page) => {
      await go(page, 'properties/#/properties?p=replay&svc=naive&n=256&seed=42', 'en');
      await page.getByTestId('prop-run').click();
      await page.getByTestId('prop-walk').waitFor();
      assert.equal(await page.locator('[data-testid=prop-walk] .kbd-hint').isVisible(), !touch,
        touch ? 'a keyboard hint on a touch screen' : 'no keyboard hint where there is a keyboard');
    }, touch ? { touch } : { width: 1280, height: 800, touch });
  }
});

test('on a phone a send in the sandbox shows its balance in view of the button that sent it', async () => {
  for (const [locale, lang] of LANGS) {
    await withPhone(async (page) => {
      await go(page, 'sandbox/#/challenge/split-store-one-crash', lang);
      const send = page.getByTestId('send');
      await send.scrollIntoViewIfNeeded();
      await send.click();
      const result = page.locator('.form-result');
      await result.locator('.balance-strip li').first().waitFor();
      const [sent, shown] = [await send.boundingBox(), await result.boundingBox()];
      assert.ok(shown.y >= 0 && shown.y + shown.height <= PHONE.height, `the balances are on the screen (${shown.y})`);
      assert.ok(Math.abs(shown.y - sent.y) < PHONE.height, 'and within a screen of the button');
      assert.equal(await page.locator('.form-result .balance-strip li').count(), await page.locator('.run-bar .balance-strip li').count());
      assert.equal(await result.getAttribute('aria-hidden'), 'true', 'said once, by the bar');
      await page.screenshot({ path: `${SHOTS}/phone-sandbox-result-${lang}.png` });
    }, { locale });
  }
});

/** The headings whose last line holds a single character (スケジュー／ラ), as "text: last line". */
async function loneLastCharacter(page) {
  return page.evaluate(() => [...document.querySelectorAll('h1, h2, h3, h4')]
    .filter((h) => h.getClientRects().length)
    .flatMap((h) => {
      // Each character's line, by the top of its box; the last line's characters.
      const tops = [];
      const walker = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        for (let i = 0; i < n.data.length; i += 1) {
          if (/\s/.test(n.data[i])) continue;
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + 1);
          const box = r.getClientRects()[0];
          if (box) tops.push([Math.round(box.top), n.data[i]]);
        }
      }
      const lines = [...new Set(tops.map(([t]) => t))].sort((a, b) => a - b);
      if (lines.length < 2) return [];
      const last = tops.filter(([t]) => t === lines[lines.length - 1]).map(([, c]) => c).join('');
      // A lone closing mark or arrow after the text is punctuation, not a word cut in two.
      return [...last.replace(/[」）。、：→↗・…]/g, '')].length === 1 ? [`${h.textContent}: ${last}`] : [];
    }));
}

test('390 px, Japanese: no heading leaves one character alone on its last line', async () => {
  await withPhone(async (page) => {
    const found = [];
    const lessons = ['#/scenario/the-header', '#/scenario/timeout-ambiguity', '#/scenario/concurrent-same-key', '#/scenario/fingerprint-fields'];
    for (const hash of [...lessons, '#/glossary', 'sandbox/#/sandbox', 'lab/#/lab', 'lab/#/lab/postgres', 'properties/', 'durable/#/scenario/durable-resume', 'durable/#/durable/challenge/durable-random-once', 'kafka/#/scenario/kafka-lost-ack', 'kafka/#/kafka/challenge/kafka-duplicate']) {
      await go(page, hash, 'ja');
      for (const h of await loneLastCharacter(page)) found.push(`${hash}: ${h}`);
    }
    assert.deepEqual(found, []);
  }, { locale: 'ja-JP' });
});

test('390 px: the step an answer names brings the run\'s timeline into view (the first, durable and Kafka pages)', async () => {
  await withPhone(async (page) => {
    for (const [hash, shown] of [
      ['#/scenario/effectively-once', '[data-testid=timeline] .tl-scroll'],
      ['durable/#/scenario/durable-resume', '[data-testid=caption]'],
      ['kafka/#/scenario/kafka-lost-ack', 'li.tl-step.current'],
    ]) {
      await go(page, hash, 'en');
      await page.getByTestId('predict-skip').click();
      await page.getByTestId('why-step').first().click();
      await page.waitForTimeout(300);
      const box = await page.locator(shown).first().boundingBox();
      assert.ok(box && box.y < PHONE.height && box.y + box.height > 0, `${hash}: ${shown} is on the screen (${JSON.stringify(box)})`);
    }
  });
});

for (const [locale, lang] of LANGS) {
  test(`the first page shows one service at a time on a phone, behind a switcher the timeline follows (${lang}, 390 px)`, async () => {
    await withPhone(async (page) => {
      await go(page, '#/scenario/double-charge', lang);
      const switcher = page.locator('.service-tabs');
      await switcher.waitFor();
      const buttons = switcher.locator('button');
      assert.equal(await buttons.count(), 3);
      const visible = () => page.locator('.services > .service').evaluateAll((cs) => cs
        .filter((c) => c.getClientRects().length).map((c) => c.dataset.service));
      const pressed = (group) => group.locator('button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-pressed')));
      // At the question, the service it asks about (the naive one, the first column).
      assert.deepEqual(await visible(), ['naive']);
      assert.deepEqual(await pressed(switcher), ['true', 'false', 'false']);
      assert.deepEqual(await smallTargets(page, '.service-tabs button'), []);
      await page.getByTestId('predict-skip').click();
      await buttons.nth(2).click();
      assert.deepEqual(await visible(), ['atomic']);
      // The timeline's tabs (the same buttons, drawn once) and the caption follow that column.
      const timelineTabs = page.locator('section[aria-labelledby=tl-h] .tabs');
      assert.deepEqual(await pressed(timelineTabs), ['false', 'false', 'true']);
      await timelineTabs.locator('button').nth(1).click();
      assert.deepEqual(await visible(), ['idempotent']);
      assert.deepEqual(await pressed(switcher), ['false', 'true', 'false']);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      console.log(`the double-charge lesson at 390 px (${lang}): ${height} px tall`);
      await page.screenshot({ path: `${SHOTS}/phone-services-${lang}.png`, fullPage: true });
    }, { locale });
  });
}

test('at 1280 px the first page\'s services stand side by side, with no switcher', async () => {
  await withPhone(async (page) => {
    await go(page, '#/scenario/double-charge', 'en');
    assert.equal(await page.locator('.service-tabs').isVisible(), false);
    const visible = await page.locator('.services > .service').evaluateAll((cs) => cs.filter((c) => c.getClientRects().length).length);
    assert.equal(visible, 3);
  }, { width: 1280, height: 800, touch: false });
});

test('390 px: the timeline scrolls sideways to the current step\'s label, past the step column kept in view', async () => {
  for (const [locale, lang] of LANGS) {
    await withPhone(async (page) => {
      await go(page, '#/scenario/dual-write', lang);
      await page.getByTestId('predict-skip').click();
      const scroller = page.locator('[data-testid=timeline] .tl-scroll');
      const wide = await scroller.evaluate((el) => el.scrollWidth > el.clientWidth);
      assert.ok(wide, 'the diagram is wider than its box on a phone');
      let checked = 0;
      for (let i = 0; i < 12 && await page.getByTestId('step').isEnabled(); i += 1) {
        await page.getByTestId('step').click();
        const k = Number((await page.getByTestId('position').textContent()).match(/(\d+) \//)[1]);
        const labels = page.locator(`[data-testid=timeline] .tl-row[data-step="${k}"] .tl-label`);
        if (!(await labels.count())) continue;
        await page.waitForTimeout(50);
        const [box, label] = [await scroller.boundingBox(), await labels.last().boundingBox()];
        // The step column is 64 px wide and stays at the box's left edge.
        assert.ok(label.x >= box.x + 64 - 1, `step ${k} (${lang}): the label starts under the step column (${label.x} < ${box.x + 64})`);
        // It ends in view, or, longer than the view, starts just past the step column.
        const ends = label.x + label.width <= box.x + box.width + 1;
        const longer = label.width > box.width - 64 - 20 && label.x <= box.x + 64 + 12;
        assert.ok(ends || longer, `step ${k} (${lang}): the label ends outside the box (${label.x}+${label.width} > ${box.x + box.width})`);
        checked += 1;
      }
      assert.ok(checked >= 6, `${checked} steps checked`);
      await page.screenshot({ path: `${SHOTS}/phone-timeline-follows-${lang}.png` });
    }, { locale });
  }
});
