// End-to-end test of the page's GPU panel, in Debian's headless Chromium.
//
// With --enable-unsafe-webgpu Chromium offers its SwiftShader adapter (a CPU fallback adapter with
// the `subgroups` feature, BROWSER.md): the op view's GPU panel runs asc_shfl_xor there and every
// lane matches the emulator, and the "sort on GPU" button sorts 1024 keys as the emulator's
// network does. Without the flag there is no adapter: the panel says why in one line and the op
// view keeps working. The subgroup size is read from the page, never assumed.
//
// Serve the built page first (trunk build --release --offline; python3 -m http.server PORT -d dist),
// then: CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/gpu.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ARTIFACTS, open, rendered } from './lib.mjs';

const BASE_ARGS = [
  '--headless=new', '--no-sandbox', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** Chromium with or without WebGPU, in the shape lib.mjs's `open` takes. */
async function launch(webgpu) {
  const profile = mkdtempSync(join(tmpdir(), 'crosslane-chromium-gpu-'));
  const args = webgpu ? [...BASE_ARGS, '--enable-unsafe-webgpu'] : [...BASE_ARGS, '--disable-gpu'];
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: false,
    args,
    viewport: { width: 1440, height: 1400 },
  });
  return {
    context,
    pageErrors: [],
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

async function ascendXor(page) {
  await rendered(page, () => page.selectOption('select#dialect', 'ascend'));
  await rendered(page, () => page.selectOption('select#op', 'asc_shfl_xor'));
  await rendered(page, () => page.fill('input[data-param="lane_mask"]', '1'));
  await rendered(page, () => page.fill('input[data-param="width"]', '16'));
}

/** Clicks the toggle and waits for the panel's run to end (done or error). */
async function openPanel(page) {
  await page.click('#gpu-toggle');
  await page.waitForFunction(
    () => ['done', 'error'].includes(document.querySelector('#gpu-panel')?.dataset.state),
    null,
    { timeout: 60_000 },
  );
}

const column = (page, cls) =>
  page.$$eval(`#gpu-lanes tr[data-lane] td.${cls}`, (tds) => tds.map((td) => td.textContent));

test('WebGPU (SwiftShader): asc_shfl_xor(lane, 1, 16) matches the emulator on every lane; the sort matches', async () => {
  const browser = await launch(true);
  try {
    const page = await open(browser);
    await ascendXor(page);
    await openPanel(page);
    const status = await page.textContent('#gpu-status');
    assert.equal(
      await page.getAttribute('#gpu-panel', 'data-state'), 'done',
      `the GPU check did not run: ${status}`,
    );
    assert.equal(await page.getAttribute('#gpu-panel', 'data-verdict'), 'match', status);

    const verdicts = await column(page, 'verdict');
    assert.equal(verdicts.length, 32);
    for (const v of verdicts) assert.ok(v === 'match' || v === 'indeterminate', v);
    assert.ok(verdicts.includes('match'));
    // The seed example: {1,0,3,2,…,31,30} on both sides.
    const want = Array.from({ length: 32 }, (_, i) => String(i ^ 1));
    assert.deepEqual(await column(page, 'gpu'), want);
    assert.deepEqual(await column(page, 'emulator'), want);

    // The record: a fallback adapter with subgroups; the observed size comes from the dispatch.
    const adapter = await page.textContent('#gpu-adapter');
    assert.equal(await page.getAttribute('#gpu-adapter', 'data-fallback'), 'true', adapter);
    const observed = Number(await page.getAttribute('#gpu-adapter', 'data-subgroup-size'));
    assert.ok(Number.isInteger(observed) && observed >= 1, adapter);
    assert.match(adapter, new RegExp(`observed ${observed}\\b`));
    assert.match(adapter, /fallback adapter/);
    assert.match(adapter, /ms \((wall clock|gpu timestamps)\)/);
    const min = Number(/min (\d+)/.exec(adapter)[1]);
    const max = Number(/max (\d+)/.exec(adapter)[1]);
    assert.ok(min <= observed && observed <= max, adapter);

    // The WGSL that ran is shown, for the browser (`enable subgroups;` first).
    const wgsl = await page.textContent('#gpu-wgsl');
    assert.match(wgsl, /^enable subgroups;/);
    assert.match(wgsl, /@compute/);
    assert.match(await page.textContent('.gpu-honesty'), /verifies the WGSL built-ins on this device/);
    // Which part ran as hardware subgroup operations and which part is the vendor's formula: the
    // device computed every lane's source lane from the asc_shfl* rules, shown per lane.
    const parts = await page.textContent('#gpu-parts');
    assert.match(parts, /^hardware subgroup operations: .+ · formula \(WGSL\): every lane's source lane and kind, computed on the device from the asc_shfl\* page rules/);
    assert.deepEqual(await column(page, 'formula'), want.map((j) => `lane ${j}`));

    // The op view is untouched: its own table still shows the emulator's result.
    const results = await page.$$eval('#lanes tr[data-lane] td.result', (tds) => tds.map((td) => td.textContent));
    assert.deepEqual(results, want);

    // The sort: 1024 keys on the GPU against the emulator's network.
    await page.click('#gpu-sort');
    await page.waitForFunction(
      () => document.querySelector('#gpu-sort-status')?.dataset.verdict,
      null,
      { timeout: 60_000 },
    );
    const sortLine = await page.textContent('#gpu-sort-status');
    assert.equal(await page.getAttribute('#gpu-sort-status', 'data-verdict'), 'match', sortLine);
    assert.match(sortLine, /1024 u32 keys .* matches the emulator's network/);

    // A WGSL op: its lanes must be the device's subgroup size; the panel offers to rerun at it.
    await rendered(page, () => page.selectOption('select#dialect', 'wgsl'));
    await rendered(page, () => page.selectOption('select#op', 'subgroupShuffleXor'));
    const lanes = Number(await page.inputValue('input#lane-count'));
    if (lanes !== observed) {
      await page.waitForFunction(
        () => document.querySelector('#gpu-panel')?.dataset.state === 'error',
        null,
        { timeout: 60_000 },
      );
      assert.match(await page.textContent('#gpu-status'), /subgroup/);
      await page.click('#gpu-use-subgroup');
    }
    await page.waitForFunction(
      () => document.querySelector('#gpu-panel')?.dataset.verdict === 'match',
      null,
      { timeout: 60_000 },
    );
    assert.equal(Number(await page.inputValue('input#lane-count')), observed);
    assert.equal((await column(page, 'verdict')).length, observed);
    assert.match(await page.textContent('#gpu-wgsl'), /subgroupShuffleXor\(/);

    // An op without a GPU lowering: one line, emulator mode; the next op runs on the GPU again.
    await rendered(page, () => page.selectOption('select#dialect', 'cuda'));
    await rendered(page, () => page.selectOption('select#op', '__reduce_add_sync'));
    await page.waitForFunction(
      () => document.querySelector('#gpu-panel')?.dataset.state === 'error',
      null,
      { timeout: 60_000 },
    );
    const noLowering = await page.textContent('#gpu-status');
    assert.match(noLowering, /^emulator mode — the GPU check did not run: .*no GPU lowering/);
    assert.ok(!noLowering.includes('\n'), noLowering);

    // Back to the seed example (the device is still usable), for the screenshot.
    await ascendXor(page);
    await page.waitForFunction(
      () => document.querySelector('#gpu-panel')?.dataset.verdict === 'match'
        && document.querySelectorAll('#gpu-lanes tr[data-lane]').length === 32,
      null,
      { timeout: 60_000 },
    );
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'gpu.png'), fullPage: true });
    assert.deepEqual(browser.pageErrors, []);
  } finally {
    await browser.close();
  }
});

test('WebGPU (SwiftShader): every WGSL op with a GPU lowering matches the emulator at the device subgroup size', async (t) => {
  const browser = await launch(true);
  try {
    const page = await open(browser);
    await rendered(page, () => page.selectOption('select#dialect', 'wgsl'));
    await openPanel(page);
    // The first run tells the device's subgroup size (or offers it, for a WGSL step).
    if (await page.isVisible('#gpu-use-subgroup')) await page.click('#gpu-use-subgroup');
    await page.waitForFunction(
      () => document.querySelector('#gpu-panel')?.dataset.state === 'done',
      null,
      { timeout: 60_000 },
    );
    const observed = Number(await page.getAttribute('#gpu-adapter', 'data-subgroup-size'));
    assert.equal(Number(await page.inputValue('input#lane-count')), observed);
    const ops = await page.$$eval('select#op option', (os) => os.map((o) => o.value));
    const ran = [];
    const skipped = [];
    for (const op of ops) {
      await rendered(page, () => page.selectOption('select#op', op));
      await page.waitForFunction(
        () => ['done', 'error'].includes(document.querySelector('#gpu-panel')?.dataset.state),
        null,
        { timeout: 60_000 },
      );
      const state = await page.getAttribute('#gpu-panel', 'data-state');
      const status = await page.textContent('#gpu-status');
      if (state === 'error') {
        // Only ops the GPU path cannot lower (scalar built-ins, computed ops without a built-in).
        assert.match(status, /scalar builtin|no GPU lowering|takes integers only|takes i32, u32 or f32/, `${op}: ${status}`);
        skipped.push(op);
        continue;
      }
      assert.equal(await page.getAttribute('#gpu-panel', 'data-verdict'), 'match', `${op}: ${status}`);
      for (const v of await column(page, 'verdict')) {
        assert.ok(['match', 'indeterminate', 'inactive'].includes(v), `${op}: ${v}`);
      }
      ran.push(op);
    }
    t.diagnostic(`subgroup size ${observed}; ran ${ran.join(' ')}; no GPU lowering: ${skipped.join(' ')}`);
    // Shuffles, broadcasts, ballot, votes, reductions, scans, quads and subgroupElect (browser-only).
    assert.ok(ran.includes('subgroupElect'), ran.join(' '));
    assert.ok(ran.length >= 20, `ran ${ran.join(' ')}; skipped ${skipped.join(' ')}`);
    assert.deepEqual(browser.pageErrors, []);
  } finally {
    await browser.close();
  }
});

test('without WebGPU the panel says why in one line and the emulator still works', async () => {
  const browser = await launch(false);
  try {
    const page = await open(browser);
    await ascendXor(page);
    await openPanel(page);
    assert.equal(await page.getAttribute('#gpu-panel', 'data-state'), 'error');
    const status = (await page.textContent('#gpu-status')).trim();
    assert.match(status, /^emulator mode — the GPU check did not run: no GPU adapter found/);
    assert.ok(!status.includes('\n'), status);
    // The op view still renders: a new parameter gives a new drawing and table.
    await rendered(page, () => page.fill('input[data-param="lane_mask"]', '2'));
    const results = await page.$$eval('#lanes tr[data-lane] td.result', (tds) => tds.map((td) => td.textContent));
    assert.deepEqual(results, Array.from({ length: 32 }, (_, i) => String(i ^ 2)));
    assert.equal(await page.isVisible('#lane-canvas'), true);
    // The WGSL is still shown (as it would run on a device without subgroups).
    assert.match(await page.textContent('#gpu-wgsl'), /@compute/);
    await page.screenshot({ path: join(ARTIFACTS, 'gpu-fallback.png'), fullPage: true });
    assert.deepEqual(browser.pageErrors, []);
  } finally {
    await browser.close();
  }
});
