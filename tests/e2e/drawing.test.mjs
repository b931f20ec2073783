// The lane drawing at 64 and 128 lanes (issue 17, item 5): every result value is drawn — in the
// SVG export each lane's value is a <text> with the plain decimal — a computed result's hover
// text names the lanes that fed it (and the drawing outlines them), and a drawing too wide for its box scrolls inside it, never
// the page. Screenshots land in tests/artifacts/ (drawing-scan-64.png, drawing-128.png).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { ARTIFACTS, PAGE_URL, launch, open, rendered } from './lib.mjs';

let browser;
before(async () => { browser = await launch({ width: 1440, height: 1000 }); });
after(async () => {
  await browser?.close();
  assert.deepEqual(browser?.pageErrors ?? [], []);
});

async function chooseOp(page, dialect, op, lanes) {
  await rendered(page, () => page.selectOption('select#dialect', dialect));
  await rendered(page, () => page.selectOption('select#op', op));
  await rendered(page, () => page.fill('input#lane-count', String(lanes)));
}

async function svgOf(page) {
  const download = page.waitForEvent('download').catch(() => null);
  await page.click('#export-svg');
  await download;
  const href = await page.$eval('#export-svg', (a) => a.getAttribute('href'));
  return decodeURIComponent(href.slice(href.indexOf(',') + 1));
}

/** The tooltip text over result lane `lane`, found by moving down the lane's column. */
async function tipOver(page, lanes, lane) {
  const box = await page.$eval('canvas#lane-canvas', (c) => {
    const r = c.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width, h: r.height };
  });
  const pitch = (box.w - 64 - 12) / lanes;
  for (let y = 150; y < box.h; y += 8) {
    await page.mouse.move(box.x + 64 + pitch * (lane + 0.5), box.y + y);
    const tip = await page.$eval('#lane-tooltip', (t) => (t.hidden ? '' : t.textContent));
    if (tip.startsWith(`lane ${lane}:`)) return tip;
  }
  return '';
}

test('a 64-lane inclusive scan shows every sum, and each lane the lanes it summed', async () => {
  const page = await open(browser, PAGE_URL);
  await chooseOp(page, 'wgsl', 'subgroupInclusiveAdd', 64);
  // Lane i holds 0 + 1 + … + i = i(i+1)/2 (WGSL spec, subgroupInclusiveAdd), up to 2016.
  const expected = Array.from({ length: 64 }, (_, i) => String((i * (i + 1)) / 2));
  const results = await page.$$eval('#lanes tr[data-lane] td.result', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(results, expected);
  const svg = await svgOf(page);
  for (const v of expected) assert.ok(svg.includes(`>${v}</text>`), `${v} drawn in the SVG`);
  const tip = await tipOver(page, 64, 10);
  assert.match(tip, /from lanes 0–10$/);
  // ... and the drawing outlines those input lanes (bits 0..10) while the pointer is there.
  assert.equal(await page.getAttribute('canvas#lane-canvas', 'data-fed-by'), '7ff');
  await page.locator('#stage').screenshot({ path: join(ARTIFACTS, 'drawing-scan-64.png') });
  await page.mouse.move(0, 0);
  assert.equal(await page.getAttribute('canvas#lane-canvas', 'data-fed-by'), '');
  // No sideways page scroll at 64 lanes.
  assert.ok(await page.evaluate(() => document.scrollingElement.scrollWidth <= window.innerWidth));
  await page.close();
});

test('128 lanes: every value drawn, the drawing scrolls in its own box', async () => {
  const page = await open(browser, PAGE_URL);
  await chooseOp(page, 'wgsl', 'subgroupShuffleXor', 128);
  const results = await page.$$eval('#lanes tr[data-lane] td.result', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(results, Array.from({ length: 128 }, (_, i) => String(i ^ 1)));
  const svg = await svgOf(page);
  for (const v of results) assert.ok(svg.includes(`>${v}</text>`), `${v} drawn in the SVG`);
  // Lanes stay at least 11 px wide: the canvas is wider than its box, which scrolls.
  const sizes = await page.$eval('canvas#lane-canvas', (c) => ({
    canvas: c.getBoundingClientRect().width,
    box: c.parentElement.clientWidth,
    overflow: getComputedStyle(c.parentElement).overflowX,
  }));
  assert.ok(sizes.canvas >= 64 + 12 + 128 * 11 - 1, JSON.stringify(sizes));
  assert.equal(sizes.overflow, 'auto');
  assert.ok(await page.evaluate(() => document.scrollingElement.scrollWidth <= window.innerWidth));
  await page.locator('#stage').screenshot({ path: join(ARTIFACTS, 'drawing-128.png') });
  // Back to 32 lanes: the drawing fits its box again.
  await rendered(page, () => page.fill('input#lane-count', '32'));
  const back = await page.$eval('canvas#lane-canvas', (c) => c.getBoundingClientRect().width <= c.parentElement.clientWidth + 1);
  assert.ok(back);
  await page.close();
});
