// End-to-end test of the "Sort" view, in Debian's headless Chromium.
//
// Serve the built page first (trunk build --release --offline; python3 -m http.server PORT -d dist),
// then: CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/sort.test.mjs
// Page contract used: nav#views button[data-view=sort], #sort-len / #sort-values / #sort-seed /
// #sort-dialect, #sort-step / #sort-back / #sort-reset / #sort-slider, canvas#sort-canvas's data
// attributes (mode, comparators, stages, at, swaps), #sort-keys span[data-index], #sort-counters,
// #sort-warp[data-steps] with one canvas per shuffle, body[data-ready].
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, rendered, ARTIFACTS, settledHash } from './lib.mjs';

let browser;

before(async () => { browser = await launch(); });
after(async () => {
  await browser?.close();
  assert.deepEqual(browser.pageErrors, [], 'no page errors');
});

async function openSort() {
  const page = await open(browser);
  await rendered(page, () => page.click('nav#views button[data-view="sort"]'));
  return page;
}

const canvasData = (page) => page.$eval('#sort-canvas', (c) => ({ ...c.dataset }));
const keys = (page) => page.$$eval('#sort-keys span[data-index]',
  (spans) => spans.map((s) => Number(s.textContent)));

async function typeKeys(page, list) {
  await rendered(page, () => page.fill('#sort-values', list));
}

async function stepToEnd(page, stages) {
  for (let i = 0; i < stages; i++) await rendered(page, () => page.click('#sort-step'));
}

test('ten given keys: 32 comparators in 10 stages, stepping sorts them', async () => {
  const page = await openSort();
  await typeKeys(page, '9,-3,7,7,0,12,5,1,8,2');
  let data = await canvasData(page);
  assert.equal(data.mode, 'diagram');
  assert.equal(data.comparators, '32');
  assert.equal(data.stages, '10');
  assert.equal(data.at, '0');
  assert.equal(await page.inputValue('#sort-len'), '10');
  assert.deepEqual(await keys(page), [9, -3, 7, 7, 0, 12, 5, 1, 8, 2]);
  // Stage 1 compares (0,1), (2,3), …: three pairs are out of order and swap.
  await rendered(page, () => page.click('#sort-step'));
  data = await canvasData(page);
  assert.equal(data.at, '1');
  assert.equal(data.swaps, '3');
  assert.deepEqual(await keys(page), [-3, 9, 7, 7, 0, 12, 1, 5, 2, 8]);
  assert.equal(await page.$eval('#sort-counters tr.current', (r) => r.dataset.stage), '1');
  await stepToEnd(page, 9);
  assert.equal((await canvasData(page)).at, '10');
  assert.deepEqual(await keys(page), [-3, 0, 1, 2, 5, 7, 7, 8, 9, 12]);
  // Stepping past the end stays at the end; back and reset move the position.
  await rendered(page, () => page.click('#sort-step'));
  assert.equal((await canvasData(page)).at, '10');
  await rendered(page, () => page.click('#sort-back'));
  assert.equal((await canvasData(page)).at, '9');
  await rendered(page, () => page.fill('#sort-slider', '4'));
  assert.equal((await canvasData(page)).at, '4');
  await rendered(page, () => page.click('#sort-reset'));
  assert.equal((await canvasData(page)).at, '0');
  const verify = await page.$eval('#sort-verify', (p) => ({ ok: p.dataset.ok, text: p.textContent }));
  assert.equal(verify.ok, 'true');
  assert.match(verify.text, /0-1 principle: all 1024 inputs/);
  assert.match(await page.textContent('#sort-figures'), /32 comparators/);
  await rendered(page, () => page.fill('#sort-slider', '6'));
  await page.screenshot({ path: `${ARTIFACTS}sort.png`, fullPage: true });
  await page.close();
});

test('the ten keys naive bitonic code gets wrong (9..0) sort', async () => {
  const page = await openSort();
  await typeKeys(page, '9,8,7,6,5,4,3,2,1,0');
  await rendered(page, () => page.fill('#sort-slider', '10'));
  assert.deepEqual(await keys(page), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  // A bad key shows an error, keeps the typed text and the last drawing.
  await rendered(page, () => page.fill('#sort-values', '9,8,x'));
  assert.match(await page.textContent('#sort-error'), /values\[2\]/);
  assert.equal(await page.inputValue('#sort-values'), '9,8,x');
  assert.equal((await canvasData(page)).comparators, '32');
  // The wire threshold is configurable: n = 10 above a threshold of 8 shows the plot.
  await rendered(page, () => page.fill('#sort-values', '9,8,7,6,5,4,3,2,1,0'));
  await rendered(page, () => page.fill('#sort-threshold', '8'));
  assert.equal((await canvasData(page)).mode, 'plot');
  await rendered(page, () => page.fill('#sort-threshold', '256'));
  assert.equal((await canvasData(page)).mode, 'diagram');
  // Random keys: a new seed, the typed list cleared, n keys in 0..1000.
  const seed = await page.inputValue('#sort-seed');
  await rendered(page, () => page.click('#sort-random'));
  assert.notEqual(await page.inputValue('#sort-seed'), seed);
  assert.equal(await page.inputValue('#sort-values'), '');
  const random = await keys(page);
  assert.equal(random.length, 10);
  assert.ok(random.every((k) => k >= 0 && k < 1000));
  await page.close();
});

test('n = 65536 random keys: counters and the sortedness plot, no wires, no hang', async () => {
  const page = await openSort();
  await rendered(page, () => page.fill('#sort-values', ''));
  const started = Date.now();
  await rendered(page, () => page.fill('#sort-len', '65536'), 20000);
  const data = await canvasData(page);
  assert.equal(data.mode, 'plot');
  assert.equal(data.stages, '136');
  // 2^16: (m² − m + 4)·2^(m−2) − 1 with m = 16.
  assert.equal(data.comparators, String((16 * 16 - 16 + 4) * 2 ** 14 - 1));
  assert.equal(await page.$$eval('#sort-counters tbody tr', (r) => r.length), 137);
  assert.equal((await keys(page)).length, 64);
  await rendered(page, () => page.click('#sort-step'));
  const swaps = Number((await canvasData(page)).swaps);
  assert.ok(swaps > 10000 && swaps <= 32768, `stage 1 swaps ${swaps}`);
  await rendered(page, () => page.fill('#sort-slider', '136'));
  const first = await keys(page);
  assert.deepEqual(first, [...first].sort((a, b) => a - b));
  assert.match(await page.textContent('#sort-counters tr.current'), /100\.00%/);
  assert.ok(Date.now() - started < 20000, 'the view answers within 20 s');
  await rendered(page, () => page.fill('#sort-slider', '60'));
  await page.screenshot({ path: `${ARTIFACTS}sort-large.png`, fullPage: true });
  await page.close();
});

test('in-warp view for n = 16 shows the shuffle steps of each stage', async () => {
  const page = await openSort();
  await rendered(page, () => page.fill('#sort-values', ''));
  await rendered(page, () => page.fill('#sort-len', '16'));
  await rendered(page, () => page.selectOption('#sort-dialect', 'ascend'));
  assert.equal(await page.$eval('#sort-warp', (w) => w.dataset.steps), '0');
  // Stage 1 (p = k = 1): one xor shuffle. Stage 3 (p = 2, k = 1): asc_shfl takes srcLane per
  // thread (Ascend C SIMT), so one index shuffle with each lane's partner.
  await rendered(page, () => page.click('#sort-step'));
  assert.equal(await page.$eval('#sort-warp', (w) => w.dataset.steps), '1');
  assert.match(await page.textContent('#sort-warp figcaption'), /asc_shfl_xor/);
  await rendered(page, () => page.fill('#sort-slider', '3'));
  assert.equal(await page.$eval('#sort-warp', (w) => w.dataset.steps), '1');
  const captions = await page.$$eval('#sort-warp figcaption', (f) => f.map((c) => c.textContent));
  assert.match(captions[0], /^asc_shfl — stage 3 \(p=2, k=1\): partner by index/);
  assert.equal(await page.$$eval('#sort-warp canvas', (c) => c.length), 1);
  // The same stage in CUDA runs CUDA's shuffles (index or down + up, as the registry allows).
  await rendered(page, () => page.selectOption('#sort-dialect', 'cuda'));
  const cuda = await page.$$eval('#sort-warp figcaption', (f) => f.map((c) => c.textContent));
  assert.ok(cuda.length >= 1);
  for (const c of cuda) assert.match(c, /^__shfl\w*_sync — stage 3 \(p=2, k=1\)/);
  // More keys than lanes: the panel says why it shows nothing.
  await rendered(page, () => page.fill('#sort-len', '40'));
  assert.match(await page.textContent('#sort-warp-note'), /len/);
  await page.close();
});

test('the sort view saves and restores through the router', async () => {
  const page = await openSort();
  await typeKeys(page, '5,1,4');
  // The router's save hook is reachable only from wasm; the permalink module uses it. Here the
  // view's state is its form, which must survive a tab switch.
  await page.click('nav#views button[data-view="op"]');
  assert.equal(await page.evaluate(() => document.body.dataset.view), 'op');
  await rendered(page, () => page.click('nav#views button[data-view="sort"]'));
  assert.equal(await page.inputValue('#sort-values'), '5,1,4');
  assert.equal((await canvasData(page)).stages, '3');
  await page.close();
});

// The "draw wires up to n =" threshold is in the link, and survives a reload;
// the default (256) is not written, so the link is then what it was before any change.
test('the wire threshold is in the link and survives a reload', async () => {
  const page = await openSort();
  await typeKeys(page, '9,8,7,6,5,4,3,2,1,0');
  assert.equal((await canvasData(page)).mode, 'diagram');
  await page.waitForTimeout(700);
  const before = await settledHash(page);
  await rendered(page, () => page.fill('#sort-threshold', '8'));
  assert.equal((await canvasData(page)).mode, 'plot', 'ten keys over a threshold of 8: plotted');
  await page.waitForTimeout(700);
  assert.notEqual(await settledHash(page), before);
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#sort-canvas')?.dataset.mode === 'plot',
    null, { timeout: 30000 });
  assert.equal(await page.inputValue('#sort-threshold'), '8');
  assert.equal(await page.inputValue('#sort-values'), '9,8,7,6,5,4,3,2,1,0');
  await rendered(page, () => page.fill('#sort-threshold', '256'));
  assert.equal((await canvasData(page)).mode, 'diagram');
  await page.waitForTimeout(700);
  assert.equal(await settledHash(page), before);
  await page.close();
});
