// End-to-end test of the MACA view (the complete builtin set of seed 002):
// the editable global memory feeding a predicated load, a compare's 64-bit lane mask as bits, the
// warp MMA's four matrices coloured by lane with D's values, and the target architecture check.
//
// Serve the built page (trunk build --release --offline; python3 -m http.server PORT -d dist), then
// CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/maca.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, launch, open, rendered } from './lib.mjs';

let browser;

before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function openMaca() {
  const page = await open(browser);
  await page.click('nav#views button[data-view="maca"]');
  await page.waitForSelector('#view-maca:not([hidden]) #maca-op');
  return page;
}

async function chooseOp(page, op) {
  await rendered(page, () => page.selectOption('select#maca-op', op));
}

const results = (page) =>
  page.$$eval('#maca-lanes tr[data-lane] td.result', (tds) => tds.map((td) => td.textContent));

test('an edited memory word is what the predicated load brings to the lanes', async () => {
  const page = await openMaca();
  await chooseOp(page, '__builtin_mxc_ldg_b32_predicator');
  // Defaults: memory `index` (word w = w), global_addr lane*4, cmp lane < 32, ret0_en false.
  let r = await results(page);
  assert.equal(r.length, 64);
  assert.equal(r[5], '5');
  assert.equal(r[40], 'undefined', 'lanes 32.. do not execute and ret0_en = false');
  await rendered(page, () => page.fill('#maca-memory-edit input[data-word="5"]', '0x11223344'));
  r = await results(page);
  assert.equal(r[5], '287454020', 'lane 5 reads word 5 = 0x11223344');
  assert.equal(r[4], '4');
  await page.locator('#maca-memory').scrollIntoViewIfNeeded();
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'maca-memory.png'), fullPage: false });
  // ret0_en = true: the lanes that do not execute return 0.
  await rendered(page, () => page.fill('input[data-maca-param="ret0_en"]', 'true'));
  r = await results(page);
  assert.equal(r[40], '0');
  // A store shows the memory afterwards, changed words marked.
  await chooseOp(page, '__builtin_mxc_stg_b32_predicator');
  await rendered(page, () => page.fill('input[data-maca-param="data"]', '7'));
  const changed = await page.$$eval('#maca-memory-after td.changed', (tds) =>
    tds.map((td) => [Number(td.dataset.word), td.textContent]));
  assert.equal(changed.length, 31, 'lanes 0..31 store 7 at words 0..31; word 7 already held 7');
  assert.deepEqual(changed[0], [0, '0x00000007']);
  assert.equal(await page.textContent('#maca-memory-after td[data-word="40"]'), '0x00000028');
});

test('a uicmp draws its 64-bit lane mask as bits', async () => {
  const page = await openMaca();
  await chooseOp(page, '__builtin_mxc_uicmp');
  const params = await page.$$eval('input[data-maca-param]', (is) =>
    Object.fromEntries(is.map((i) => [i.dataset.macaParam, i.value])));
  assert.ok('src1' in params && 'icmp_op' in params, JSON.stringify(params));
  // lane < 10 (unsigned): bits 0..9.
  await rendered(page, () => page.fill('input[data-maca-param="src1"]', '10'));
  await rendered(page, () => page.fill('input[data-maca-param="icmp_op"]', 'MACA_ICMP_ULT'));
  const bits = await page.$$eval('#maca-bits span.bit', (s) => s.map((b) => b.textContent).join(''));
  assert.equal(bits.length, 64);
  assert.equal(bits, '1'.repeat(10) + '0'.repeat(54));
  assert.equal(await page.textContent('#maca-mask-hex'), '0x00000000000003ff');
});

test('mma_16x16x4f32 shows A, B, C, D coloured by lane, and D = A·B + C', async () => {
  const page = await openMaca();
  await chooseOp(page, '__builtin_mxc_mma_16x16x4f32');
  const dims = await page.$$eval('#maca-mma figure.maca-matrix', (fs) => fs.map((f) => [
    f.dataset.matrix, f.querySelectorAll('tr').length, f.querySelector('tr').children.length]));
  assert.deepEqual(dims, [['A', 16, 4], ['B', 4, 16], ['C', 16, 16], ['D', 16, 16]]);
  // A[5][3] is in lane 53, D[5][3] in lane 19 register 1 (AMD MFMA layout, mma_layout.rs).
  const a53 = await page.$eval('figure[data-matrix="A"] tr:nth-child(6) td:nth-child(4)',
    (td) => [td.dataset.lane, td.title, getComputedStyle(td).backgroundColor]);
  assert.equal(a53[0], '53');
  assert.match(a53[1], /lane 53/);
  const d53 = await page.$eval('figure[data-matrix="D"] tr:nth-child(6) td:nth-child(4)',
    (td) => [td.dataset.lane, td.dataset.slot, td.textContent, getComputedStyle(td).backgroundColor]);
  assert.deepEqual(d53.slice(0, 2), ['19', '1']);
  // Defaults: A = index (A[i][k] = 4i + k), B = 1, C = 0: D[5][3] = 20 + 21 + 22 + 23 = 86.
  assert.equal(d53[2], '86');
  const colours = await page.$$eval('figure[data-matrix="D"] td.cell',
    (tds) => new Set(tds.map((td) => getComputedStyle(td).backgroundColor)).size);
  assert.equal(colours, 64, 'one colour per lane');
  assert.match(await page.textContent('#maca-mma-note'), /AMD MFMA/);
  await page.locator('#maca-mma').scrollIntoViewIfNeeded();
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'maca.png'), fullPage: false });
});

test('cvt_f32totf32 on xcore1000 names the arch requirement', async () => {
  const page = await openMaca();
  await chooseOp(page, '__builtin_mxc_cvt_f32totf32');
  assert.equal(await page.isDisabled('#maca-arch'), false);
  assert.equal(await page.isHidden('#maca-error'), true);
  await rendered(page, () => page.selectOption('select#maca-arch', 'xcore1000'));
  const err = await page.textContent('#maca-error');
  assert.match(err, /^arch: /);
  assert.match(err, /xcore1500/);
  assert.match(err, /got xcore1000/);
  await rendered(page, () => page.selectOption('select#maca-arch', 'xcore1520'));
  assert.equal(await page.isHidden('#maca-error'), true);
});

test('no page errors', () => {
  assert.deepEqual(browser.pageErrors, []);
});
