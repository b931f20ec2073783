// End-to-end test of "The playground runs", in Debian's headless Chromium.
//
// Serve the built page first (trunk build --release --offline; python3 -m http.server 8089 -d dist),
// then: node --test tests/e2e/   (CROSSLANE_URL overrides the address, CHROMIUM the browser).
// The page contract used here is in docs/embedding.md ("Page contract"): #lanes rows, body[data-ready],
// the control ids and data-param names.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const PAGE_URL = process.env.CROSSLANE_URL ?? 'http://127.0.0.1:8089/';
const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const ARGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

let context;
let profile;
const pageErrors = [];

before(async () => {
  profile = mkdtempSync(join(tmpdir(), 'crosslane-chromium-'));
  // headless: false because the flag is passed explicitly (--headless=new), as BROWSER.md says.
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: false,
    args: ARGS,
    viewport: { width: 1440, height: 1000 },
  });
});

after(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** The render counter the page sets after every render. */
async function readyCount(page) {
  return Number(await page.evaluate(() => document.body.dataset.ready ?? 0));
}

/** Runs `action` and waits for the render it causes. */
async function rendered(page, action) {
  const before = await readyCount(page);
  await action();
  await page.waitForFunction((n) => Number(document.body.dataset.ready ?? 0) > n, before);
}

async function open() {
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(m.text()); });
  await page.goto(PAGE_URL);
  await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
  return page;
}

async function chooseOp(page, dialect, op) {
  await rendered(page, () => page.selectOption('select#dialect', dialect));
  await rendered(page, () => page.selectOption('select#op', op));
}

async function setParam(page, name, text) {
  await rendered(page, () => page.fill(`input[data-param="${name}"]`, text));
}

const cells = (page, cls) =>
  page.$$eval(`#lanes tr[data-lane] td.${cls}`, (tds) => tds.map((td) => td.textContent));

test('asc_shfl_xor(lane, 1, 16) gives the seed example {1,0,3,2,…,31,30}', async () => {
  const page = await open();
  await chooseOp(page, 'ascend', 'asc_shfl_xor');
  // Controls are labelled with the vendor parameter names.
  for (const name of ['lane_mask', 'width']) {
    const label = await page.textContent(`label[for="param-${name}"]`);
    assert.equal(label.trim(), name);
  }
  await setParam(page, 'lane_mask', '1');
  await setParam(page, 'width', '16');
  const expected = Array.from({ length: 32 }, (_, i) => String(i ^ 1));
  assert.deepEqual(await cells(page, 'result'), expected);
  assert.deepEqual(await cells(page, 'source'), expected.map((j) => `lane ${j}`));
  assert.deepEqual(await cells(page, 'input'), Array.from({ length: 32 }, (_, i) => String(i)));
  const size = await page.$eval('canvas#lane-canvas', (c) => [c.width, c.height]);
  assert.ok(size[0] > 300 && size[1] > 150, `canvas is ${size}`);
  assert.equal(await page.$$eval('#diagnostics li', (l) => l.length), 0);
  await page.close();
});

test('width 31 is diagnosed and every lane is undefined, with the reason on hover', async () => {
  const page = await open();
  await chooseOp(page, 'ascend', 'asc_shfl_xor');
  await setParam(page, 'width', '31');
  const diags = await page.$$eval('#diagnostics li[data-level="warning"]', (l) => l.map((li) => li.textContent));
  assert.ok(diags.some((d) => d.includes('width 31 is not a power of two')), diags.join(' | '));
  const results = await cells(page, 'result');
  assert.equal(results.length, 32);
  assert.deepEqual(results, Array(32).fill('undefined'));
  // Hover result lane 3 on the canvas: the tooltip carries LaneResult.why.
  const box = await page.$eval('canvas#lane-canvas', (c) => {
    const r = c.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width };
  });
  const pitch = (box.w - 64 - 12) / 32;
  await page.mouse.move(box.x + 64 + pitch * 3.5, box.y + 174 + 17);
  await page.waitForSelector('#lane-tooltip:not([hidden])');
  const tip = await page.textContent('#lane-tooltip');
  assert.match(tip, /lane 3: undefined/);
  assert.match(tip, /width 31 is not a power of two/);
  await page.close();
});

test('clicking lane 5 switches it off; lane 4, which reads it, becomes undefined', async () => {
  const page = await open();
  await chooseOp(page, 'ascend', 'asc_shfl_xor');
  await setParam(page, 'lane_mask', '1');
  await setParam(page, 'width', '16');
  await rendered(page, () => page.click('#lanes tr[data-lane="5"] td.input'));
  assert.equal(await page.inputValue('input#active'), '0xffffffdf');
  const source = await cells(page, 'source');
  const result = await cells(page, 'result');
  assert.equal(source[5], 'inactive');
  assert.equal(result[5], 'inactive');
  assert.equal(result[4], 'undefined');
  assert.match(await page.textContent('#lanes tr[data-lane="4"] td.why'), /lane 5 is inactive/);
  assert.equal(result[6], '7');
  // Clicking input lane 5 on the canvas switches it back on.
  const box = await page.$eval('canvas#lane-canvas', (c) => {
    const r = c.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width };
  });
  const pitch = (box.w - 64 - 12) / 32;
  await rendered(page, () => page.mouse.click(box.x + 64 + pitch * 5.5, box.y + 20 + 17));
  assert.equal(await page.inputValue('input#active'), '0xffffffff');
  assert.equal((await cells(page, 'result'))[4], '5');
  await page.close();
});

test('a width of 0 is an input error on `width`; the typed text and the drawing stay', async () => {
  const page = await open();
  await chooseOp(page, 'ascend', 'asc_shfl_xor');
  await setParam(page, 'width', '16');
  const good = await cells(page, 'result');
  await setParam(page, 'width', '0');
  const error = await page.textContent('#input-error');
  assert.ok(await page.isVisible('#input-error'));
  assert.match(error, /^width: /);
  // Inside the field, the line says what is wrong; the field's label already names it (so
  // no "width: width: …").
  const line = await page.textContent('.field[data-field="width"] .field-error');
  assert.doesNotMatch(line, /^width/);
  assert.match(line, /1\.\.=/);
  assert.equal(await page.$eval('input[data-param="width"]', (i) => document.getElementById(i.getAttribute('aria-describedby')).textContent), line);
  assert.equal(await page.inputValue('input[data-param="width"]'), '0');
  assert.equal(await page.getAttribute('input[data-param="width"]', 'aria-invalid'), 'true');
  assert.deepEqual(await cells(page, 'result'), good, 'the previous result stays');
  assert.equal(await page.$('#panic-banner'), null);
  // Fixing the width clears the error; garbage in another field is named in turn.
  await setParam(page, 'width', '16');
  assert.ok(!(await page.isVisible('#input-error')));
  await rendered(page, () => page.fill('input#values', 'lane*'));
  assert.match(await page.textContent('#input-error'), /^values: /);
  assert.match(await page.textContent('.field[data-field="values"] .field-error'), /^`lane\*`/);
  assert.equal(await page.inputValue('input#values'), 'lane*');
  assert.deepEqual(await cells(page, 'result'), good);
  await rendered(page, () => page.fill('input#values', 'lane'));
  assert.ok(!(await page.isVisible('#input-error')));
  assert.equal(await page.$$eval('.field-error', (l) => l.length), 0);
  assert.equal((await cells(page, 'result'))[0], '1');
  await page.close();
});

test('screenshot: every kind of lane at once', async () => {
  const page = await open();
  await chooseOp(page, 'ascend', 'asc_shfl_down');
  await setParam(page, 'delta', '2');
  await setParam(page, 'width', '16');
  await rendered(page, () => page.click('#lanes tr[data-lane="5"] td.input'));
  const result = await cells(page, 'result');
  const source = await cells(page, 'source');
  assert.equal(result[3], 'undefined'); // lane 3 reads inactive lane 5
  assert.equal(source[14], 'own'); // seed 001: 14 + 2 is past the segment end
  assert.equal(result[14], '14');
  assert.equal(source[0], 'lane 2');
  // Hover the undefined lane so the screenshot shows its reason. The viewport is made as tall as
  // the page first: a fullPage capture resizes the view and the hover would be lost.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  // (The width stays 1440, so the drawing's geometry does not change with the resize.)
  await page.setViewportSize({ width: 1440, height: Math.min(height, 2400) });
  const box = await page.$eval('canvas#lane-canvas', (c) => {
    const r = c.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width };
  });
  const pitch = (box.w - 64 - 12) / 32;
  await page.mouse.move(box.x + 64 + pitch * 3.5, box.y + 174 + 17);
  await page.waitForSelector('#lane-tooltip:not([hidden])');
  assert.match(await page.textContent('#lane-tooltip'), /source lane 5 is inactive/);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'playground.png') });
  await page.close();
  assert.deepEqual(pageErrors, [], 'no page errors or console errors');
});

test('every wrong field shows its own error at once, and the valid fields still apply', async () => {
  const page = await open();
  await chooseOp(page, 'cuda', '__shfl_down_sync');
  // An integer too large for any field: the message gives the range, not "not an
  // integer".
  await setParam(page, 'delta', '99999999999999999999');
  const delta = await page.textContent('.field[data-field="delta"] .field-error');
  assert.match(delta, /is out of range: allowed 0\.\.=4294967295/);
  assert.doesNotMatch(delta, /not an integer/);
  // A value list of three items on a 32-lane warp: a second error, shown with the first.
  await rendered(page, () => page.fill('input#values', '1,2,3'));
  assert.match(await page.textContent('.field[data-field="values"] .field-error'), /exactly 32 items/);
  assert.ok(await page.isVisible('.field[data-field="delta"] .field-error'), 'the delta error stays');
  for (const sel of ['input[data-param="delta"]', 'input#values']) {
    assert.equal(await page.getAttribute(sel, 'aria-invalid'), 'true', sel);
    const text = await page.$eval(sel, (i) => document.getElementById(i.getAttribute('aria-describedby'))?.textContent);
    assert.ok(text && text.length > 0, `${sel} is described by its error`);
  }
  assert.match(await page.textContent('#input-error'), /^delta: .*; values: /);
  // Width 3, typed while both errors stand, is applied: CUDA calls a width that is not a power of
  // two undefined ("Warp Shuffle Functions"), so every lane shows as undefined.
  await setParam(page, 'width', '3');
  assert.equal(await page.$('.field[data-field="width"] .field-error'), null);
  const sources = await cells(page, 'source');
  assert.ok(sources.every((s) => /undefined/.test(s)), sources.join('|'));
  // A type name takes its article: "an i32".
  await rendered(page, () => page.fill('input#values', `x${',0'.repeat(31)}`));
  assert.match(await page.textContent('.field[data-field="values"] .field-error'), /^`x` is not an i32 value/);
  await page.close();
});
