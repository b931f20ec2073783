// The lane drawing at 64 and 128 lanes: every result value is drawn — in the
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
  // Lanes stay at least 14 px wide (a 12 px box for a 10 px value): the canvas is wider than its
  // box, which scrolls.
  const sizes = await page.$eval('canvas#lane-canvas', (c) => ({
    canvas: c.getBoundingClientRect().width,
    box: c.parentElement.clientWidth,
    overflow: getComputedStyle(c.parentElement).overflowX,
  }));
  assert.ok(sizes.canvas >= 64 + 12 + 128 * 14 - 1, JSON.stringify(sizes));
  assert.equal(sizes.overflow, 'auto');
  assert.ok(await page.evaluate(() => document.scrollingElement.scrollWidth <= window.innerWidth));
  await page.locator('#stage').screenshot({ path: join(ARTIFACTS, 'drawing-128.png') });
  // Back to 32 lanes: the drawing fits its box again.
  await rendered(page, () => page.fill('input#lane-count', '32'));
  const back = await page.$eval('canvas#lane-canvas', (c) => c.getBoundingClientRect().width <= c.parentElement.clientWidth + 1);
  assert.ok(back);
  await page.close();
});

/** Every font size in an SVG text, with the text. */
function fontSizes(svg) {
  return [...svg.matchAll(/<text[^>]* font-size="([\d.]+)"[^>]*>([^<]*)<\/text>/g)]
    .map((m) => ({ size: Number(m[1]), text: m[2] }));
}

// The smallest value font the issue asks for: "about 10–11 px" (render/scene.rs MIN_FONT).
const MIN_FONT = 10;

/** Inclusive prefix sums of lane * 123457, computed here (WGSL subgroupInclusiveAdd: lane i gets
 * the sum over lanes 0..=i), as decimal strings. */
const scanSums = (lanes) => Array.from({ length: lanes }, (_, i) => String((123457 * i * (i + 1)) / 2));

test('128 lanes of ten-digit sums at 1440 px: every value at 10 px or more, on a solid patch', async () => {
  const page = await open(browser, PAGE_URL);
  await chooseOp(page, 'wgsl', 'subgroupInclusiveAdd', 128);
  await rendered(page, () => page.fill('input#values', 'lane*123457'));
  const expected = scanSums(128);
  assert.equal(expected[127], '1003458496');
  const results = await page.$$eval('#lanes tr[data-lane] td.result', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(results, expected);
  const svg = await svgOf(page);
  const texts = fontSizes(svg);
  for (const v of expected) {
    const drawn = texts.find((t) => t.text === v);
    assert.ok(drawn, `${v} drawn in the SVG`);
    assert.ok(drawn.size >= MIN_FONT, `${v} at ${drawn.size} px`);
  }
  for (const t of texts) assert.ok(t.size >= MIN_FONT, `"${t.text}" at ${t.size} px`);
  // The computed results' grid pattern stops at a solid patch in the box's fill under each
  // value: the last lane's label has a rect of its fill drawn just before it.
  const last = svg.slice(svg.lastIndexOf('<g class="lane computed">'));
  const fill = /<rect [^>]*fill="(#[0-9a-f]+)"/.exec(last)[1];
  assert.match(last, new RegExp(`<rect [^>]*fill="${fill}"/><text [^>]*>1003458496</text>`));
  await page.locator('#stage').screenshot({ path: join(ARTIFACTS, 'drawing-scan-128-large.png') });
  await page.close();
});

test('at 390 px the drawing keeps 10 px values and scrolls sideways instead of shrinking', async () => {
  const page = await open(browser, PAGE_URL);
  await page.setViewportSize({ width: 390, height: 900 });
  await chooseOp(page, 'wgsl', 'subgroupInclusiveAdd', 32);
  await rendered(page, () => page.fill('input#values', 'lane*123457'));
  for (const lanes of [32, 64, 128]) {
    if (lanes !== 32) await rendered(page, () => page.fill('input#lane-count', String(lanes)));
    const svg = await svgOf(page);
    const texts = fontSizes(svg);
    for (const v of scanSums(lanes)) assert.ok(texts.some((t) => t.text === v), `${lanes} lanes: ${v} drawn`);
    for (const t of texts) assert.ok(t.size >= MIN_FONT, `${lanes} lanes: "${t.text}" at ${t.size} px`);
    const sizes = await page.$eval('canvas#lane-canvas', (c) => ({
      canvas: c.getBoundingClientRect().width,
      box: c.parentElement.clientWidth,
      scroll: c.parentElement.scrollWidth,
    }));
    // 14 px a lane at least, plus the 64 px row labels and the 12 px right margin.
    assert.ok(sizes.canvas >= 64 + 12 + 14 * lanes - 1, `${lanes} lanes: ${JSON.stringify(sizes)}`);
    assert.ok(sizes.scroll > sizes.box, `${lanes} lanes: the drawing's own box scrolls`);
    assert.ok(await page.evaluate(() => document.scrollingElement.scrollWidth <= window.innerWidth),
      `${lanes} lanes: no sideways page scroll`);
    if (lanes === 32) await page.locator('#stage').screenshot({ path: join(ARTIFACTS, 'drawing-390-32.png') });
  }
  await page.close();
});
