// End-to-end test: the AMD target (--arch) in the reference view and the op view, and
// CUDA's exited lane state. Page contract: select#reference-arch, article[data-dialect=amdgcn]
// p.target, figure.example[data-results]; select[data-param="arch"]; input#exited.
// Expected values come from the guides, not from the page:
// * ds_permute_b32 with every addr 0 (the example's defaults): all 64 lanes write lane 0. The
//   RDNA2 guide's pseudo-code writes in lane order, so lane 0 holds lane 63's value; the RDNA3
//   guide says "not deterministic which source lane writes", so lane 0 is undefined (and, wave64
//   MOD 32, lane 32 too).
// * ds_bpermute_b32 with every addr 0: every lane reads lane 0 on RDNA2; on RDNA3 wave64 the
//   index is MOD 32 within each half, so lanes 32..63 read lane 32.
// * HIP __shfl(v, 0) on wave64 is ds_bpermute of lane 0: on RDNA3 the upper half reads lane 32.
// * CUDA Programming Guide, Warp Vote Functions: __ballot_sync(0xffffffff, lane) with lanes 0..7
//   active and 8..31 exited is 0xfe in lanes 0..7 (lane 0's predicate, 0, is false).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, launch, open, rendered, showView, settledHash } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => {
  assert.deepEqual(browser?.pageErrors ?? [], [], 'no page errors');
  await browser?.close();
});

const results = (page, art) =>
  page.getAttribute(`${art} figure.example`, 'data-results').then((r) => r.split(','));

test('reference: AMD articles show the target, and switching it changes ds_permute / ds_bpermute', async () => {
  const page = await open(browser);
  await rendered(page, () => showView(page, 'reference'));
  await page.waitForSelector('#reference[data-count]');
  assert.equal(await page.inputValue('select#reference-arch'), 'gfx1030');
  const targets = await page.$$eval('#reference article[data-dialect="amdgcn"] p.target', (p) => p.map((x) => x.textContent));
  const amd = await page.$$eval('#reference article[data-dialect="amdgcn"]', (a) => a.length);
  assert.equal(targets.length, amd, 'every AMD article states its target');
  assert.ok(targets.every((t) => t.includes('gfx1030')), targets[0]);
  const hip = await page.$$eval('#reference article[data-dialect="hip"] p.target', (p) => p.map((x) => x.textContent));
  assert.ok(hip.length > 0 && hip.every((t) => t.includes('gfx1030')), 'HIP articles state the AMD target too');
  const others = await page.$$eval('#reference article:not([data-dialect="amdgcn"]):not([data-dialect="hip"]) p.target', (p) => p.length);
  assert.equal(others, 0, 'only AMD articles have a target');

  const permute = 'article[data-op="ds_permute_b32"]';
  const bpermute = 'article[data-op="ds_bpermute_b32"]';
  let p = await results(page, permute);
  assert.equal(p[0], '63', 'RDNA2 pseudo-code: the highest writer wins');
  assert.deepEqual(p.slice(1), Array(63).fill('0'));
  let b = await results(page, bpermute);
  assert.deepEqual(b, Array(64).fill('0'));

  await rendered(page, () => page.selectOption('select#reference-arch', 'gfx1100'));
  assert.match(await page.textContent(`${permute} p.target`), /gfx1100 \(RDNA3/);
  p = await results(page, permute);
  assert.equal(p[0], 'undefined', 'RDNA3: which writer wins is not deterministic');
  assert.equal(p[32], 'undefined', 'wave64 MOD 32: the upper half collides on lane 32');
  assert.equal(p[1], '0');
  b = await results(page, bpermute);
  assert.deepEqual(b, [...Array(32).fill('0'), ...Array(32).fill('32')]);
  // HIP's __shfl(v, 0) compiles to ds_bpermute: on RDNA3 wave64 the upper half reads lane 32.
  const shfl = 'article[data-dialect="hip"][data-op="__shfl"]';
  assert.deepEqual(await results(page, shfl), [...Array(32).fill('0'), ...Array(32).fill('32')]);
  assert.match(await page.textContent(`${permute} .command`), /--arch gfx1100/);
  // The drawing follows the new result.
  await page.$eval(permute, (a) => a.scrollIntoView());
  await page.waitForSelector(`${permute} .example-drawing svg`);
  const titles = await page.$$eval(`${permute} svg g.lane title`, (t) => t.map((x) => x.textContent));
  assert.ok(titles.some((t) => t.startsWith('lane 0: undefined')), titles.slice(0, 3).join(' | '));
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.locator(permute).screenshot({ path: join(ARTIFACTS, 'reference-target-gfx1100.png') });

  // Back to a GFX9 target: CDNA3's pseudo-code decides again.
  await rendered(page, () => page.selectOption('select#reference-arch', 'gfx942'));
  p = await results(page, permute);
  assert.equal(p[0], '63');
  await page.close();
});

test('op view: the target picker refuses a control the target lacks, and accepts it on GFX9', async () => {
  const page = await open(browser);
  await rendered(page, () => page.selectOption('select#dialect', 'amdgcn'));
  await rendered(page, () => page.selectOption('select#op', 'update_dpp'));
  const options = await page.$$eval('select[data-param="arch"] option', (o) => o.map((x) => x.value));
  for (const t of ['gfx900', 'gfx90a', 'gfx942', 'gfx950', 'gfx1030', 'gfx1100', 'gfx1150', 'gfx1200']) {
    assert.ok(options.includes(t), `${t} offered`);
  }
  await rendered(page, () => page.fill('input[data-param="dpp_ctrl"]', 'row_bcast:15'));
  const error = await page.textContent('.field[data-field="dpp_ctrl"] .field-error');
  assert.match(error, /row_bcast:15 does not exist on gfx1030/);
  assert.match(error, /gfx900, gfx90a, gfx942, gfx950/);
  await rendered(page, () => page.selectOption('select[data-param="arch"]', 'gfx900'));
  assert.equal(await page.$('.field-error'), null);
  const cells = await page.$$eval('#lanes tr[data-lane] td.result', (tds) => tds.map((td) => td.textContent));
  assert.equal(cells[20], '15', 'row 1 reads lane 15 of row 0');
  await page.close();
});

test('CUDA exited lanes: a full-mask ballot over a partial warp is 0xfe', async () => {
  const page = await open(browser);
  await rendered(page, () => page.selectOption('select#dialect', 'cuda'));
  await rendered(page, () => page.selectOption('select#op', '__ballot_sync'));
  assert.equal(await page.isVisible('input#exited'), true);
  await rendered(page, () => page.fill('input[data-param="mask"]', '0xffffffff'));
  await rendered(page, () => page.fill('input#active', '0xff'));
  let cells = await page.$$eval('#lanes tr[data-lane] td.result', (tds) => tds.map((td) => td.textContent));
  assert.equal(cells[0], 'undefined', 'lanes 8..31 have not exited: they break the sync rule');
  await rendered(page, () => page.fill('input#exited', '0xffffff00'));
  cells = await page.$$eval('#lanes tr[data-lane] td.result', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(cells.slice(0, 8), Array(8).fill('254'));
  // The exited state travels in the link.
  const hash = await settledHash(page);
  assert.ok(hash.length > 1);
  const again = await open(browser, page.url());
  assert.equal(await again.inputValue('input#exited'), '0xffffff00');
  // Shift-click on lane 3's row marks it exited (and takes it out of the active mask).
  await rendered(again, () => again.click('#lanes tr[data-lane="3"]', { modifiers: ['Shift'] }));
  assert.equal(await again.inputValue('input#exited'), '0xffffff08');
  assert.equal(await again.inputValue('input#active'), '0x000000f7');
  // Other dialects have no exited state.
  await rendered(again, () => again.selectOption('select#dialect', 'wgsl'));
  assert.equal(await again.isVisible('input#exited'), false);
  await again.close();
  await page.close();
});
