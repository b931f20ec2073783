// End-to-end test of exports: PNG and SVG of the drawing are non-empty and the SVG holds
// the lane values; JSON of the trace and CSV of the lane table match the lane table; "Export as
// code" writes each platform's own intrinsic.
//
// Serve the built page first (see lib.mjs), then:
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/export.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { PAGE_URL, ARTIFACTS, launch, open, rendered } from './lib.mjs';

const GOLDEN = JSON.parse(readFileSync(new URL('./golden-lanes.json', import.meta.url), 'utf8')).links;

let browser;
before(async () => { browser = await launch(); mkdirSync(ARTIFACTS, { recursive: true }); });
after(async () => { await browser?.close(); });

/** Clicks export link `id` and returns its href (filled by the click handler). */
async function exported(page, id) {
  const download = page.waitForEvent('download').catch(() => null);
  await page.click(id);
  await download;
  return page.$eval(id, (a) => ({ href: a.getAttribute('href'), file: a.getAttribute('download') }));
}
const text = (href) => decodeURIComponent(href.slice(href.indexOf(',') + 1));

test('PNG, SVG, JSON and CSV exports of the seed 000 scenario', async () => {
  const page = await open(browser, `${PAGE_URL}#${GOLDEN[0].link}`);
  const results = await page.$$eval('#lanes tr[data-lane] td.result', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(results, GOLDEN[0].lanes);

  const png = await exported(page, '#export-png');
  assert.equal(png.file, 'crosslane.png');
  assert.match(png.href, /^data:image\/png;base64,/);
  const bytes = Buffer.from(png.href.split(',')[1], 'base64');
  assert.ok(bytes.length > 2000, `PNG of ${bytes.length} bytes`);
  assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47]);
  // At least 2 backing pixels per CSS pixel (this window's ratio is 1), and a 26 px
  // title band above the drawing (IHDR: width and height at bytes 16 and 20).
  const css = await page.$eval('#lane-canvas', (c) => ({ w: c.clientWidth, h: c.clientHeight }));
  const [pw, ph] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
  assert.ok(Math.abs(pw - 2 * css.w) <= 2, `PNG width ${pw} for ${css.w} CSS px`);
  assert.ok(Math.abs(ph - 2 * (css.h + 26)) <= 2, `PNG height ${ph} for ${css.h} CSS px + title`);
  // The title band holds dark text (the title line); the page's drawing has none up there.
  const ink = await page.evaluate(async (href) => {
    const img = new Image();
    img.src = href;
    await img.decode();
    const c = document.createElement('canvas');
    [c.width, c.height] = [img.width, img.height];
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, Math.min(img.width, 800), 52).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] < 200) n++;
    return n;
  }, png.href);
  assert.ok(ink > 200, `title ink pixels: ${ink}`);

  const svg = text((await exported(page, '#export-svg')).href);
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  // A file is not hovered: the legend names "UNDEFINED" without "(hover: why)".
  assert.ok(svg.includes('>UNDEFINED</text>'), 'the legend keeps its UNDEFINED entry');
  assert.ok(!/hover/i.test(svg), 'no hover hint in the SVG export');
  results.forEach((v, lane) => {
    assert.ok(svg.includes(`lane ${lane} ← lane ${lane ^ 1}: ${v}`), `lane ${lane} in the SVG`);
  });

  const json = JSON.parse(text((await exported(page, '#export-json')).href));
  assert.equal(json.steps[0].op, 'asc_shfl_xor');
  assert.deepEqual(json.steps[0].results.map((r) => String(r.value)), results);

  const csv = text((await exported(page, '#export-csv')).href).split('\r\n');
  assert.equal(csv[0], 'lane,active,input,result,source,from,why');
  assert.equal(csv.length, 34);
  assert.equal(csv[1], '0,true,0,1,lane 1,1,');
  await page.close();
});

test('Export as code writes each platform\'s intrinsic, and says where it is not exact', async () => {
  const page = await open(browser, `${PAGE_URL}#${GOLDEN[0].link}`);
  const want = {
    cuda: ['__shfl_xor_sync(0xffffffff, var, 1, 16)', 'crosslane.cu'],
    hip: ['__shfl_xor(var, 1, 16)', 'crosslane.hip'],
    ascend: ['asc_shfl_xor(var, 1, 16)', 'crosslane.asc.cpp'],
    maca: ['// crosslane: NOT EXACT: MACA has no width-segmented xor shuffle', 'crosslane.maca'],
    wgsl: ['subgroupShuffleXor(v, 1u)', 'crosslane.wgsl'],
  };
  for (const [dialect, [call, file]] of Object.entries(want)) {
    await page.selectOption('#export-dialect', dialect);
    const a = await exported(page, '#export-code');
    assert.equal(a.file, file);
    const shown = await page.textContent('#code-view');
    assert.ok(shown.includes(call), `${dialect}: ${shown}`);
    assert.equal(text(a.href), shown);
    if (dialect === 'maca') await page.screenshot({ path: `${ARTIFACTS}export-code.png` });
  }
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});

test('Export as code says per lane what differs, and says so where the scenario is undefined', async () => {
  const page = await open(browser, PAGE_URL);
  // HIP wave64 __shfl_xor(var, 33, 64): lane i reads lane i ^ 33 (HIP "Warp shuffle functions").
  // CUDA's __shfl_xor_sync uses the mask's low five bits (PTX "shfl.sync"), on 32-lane warps
  // with width at most 32: lane i reads lane i ^ 1 there.
  await rendered(page, () => page.selectOption('select#dialect', 'hip'));
  await rendered(page, () => page.selectOption('select#op', '__shfl_xor'));
  await rendered(page, () => page.fill('#lane-count', '64'));
  await rendered(page, () => page.fill('input[data-param="lane_mask"]', '33'));
  await rendered(page, () => page.fill('input[data-param="width"]', '64'));
  await page.selectOption('#export-dialect', 'cuda');
  await exported(page, '#export-code');
  let shown = await page.textContent('#code-view');
  assert.ok(shown.includes('__shfl_xor_sync(0xffffffff, var, 33, 32)'), shown);
  assert.ok(shown.includes('// crosslane: NOT EXACT: width 64 is wider than a CUDA warp'), shown);
  assert.ok(shown.includes('// crosslane: NOT EXACT, per lane: lanes 0–63 read lane i ^ 1 (the scenario: read lane i ^ 33)'), shown);
  // CUDA __shfl_xor_sync with width 64 is undefined in CUDA itself: every export says so.
  await rendered(page, () => page.selectOption('select#dialect', 'cuda'));
  await rendered(page, () => page.selectOption('select#op', '__shfl_xor_sync'));
  await rendered(page, () => page.fill('input[data-param="width"]', '64'));
  for (const target of ['cuda', 'hip', 'wgsl']) {
    await page.selectOption('#export-dialect', target);
    await exported(page, '#export-code');
    shown = await page.textContent('#code-view');
    assert.ok(shown.includes('// crosslane: UNDEFINED: the scenario itself is undefined on every lane (0–31)'), `${target}: ${shown}`);
  }
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});
