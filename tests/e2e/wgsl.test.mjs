// End-to-end test of WGSL shaders in the page, in Debian's headless Chromium with SwiftShader's WebGPU
// (--enable-unsafe-webgpu; a CPU fallback adapter with `subgroups`): paste a WGSL compute shader
// into the kernel view, step it to the end in the emulator (the missing `enable subgroups;` is a
// warning, not an error), then "Run on this GPU" runs the same shader through WebGPU and every
// buffer's cells agree with the emulator at the subgroup size the device shows.
//
// Serve the built page first (scripts/build-web; python3 -m http.server PORT -d dist),
// then: CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/wgsl.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ARTIFACTS, open, rendered, showView } from './lib.mjs';

const ARGS = [
  '--headless=new', '--no-sandbox', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--enable-unsafe-webgpu',
];

async function launchWebGpu() {
  const profile = mkdtempSync(join(tmpdir(), 'crosslane-chromium-wgsl-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: false,
    args: ARGS,
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

// No `enable subgroups;`: the emulator warns and runs; the browser run adds it.
const SHADER = `@group(0) @binding(0) var<storage, read_write> sums: array<u32>;
@group(0) @binding(1) var<storage, read_write> scan: array<u32>;
@group(0) @binding(2) var<storage, read> input: array<u32>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32) {
    sums[i] = subgroupAdd(input[i]);
    scan[i] = subgroupExclusiveAdd(1u);
}
`;

test('paste a WGSL shader, step it, run it on the GPU and see every buffer agree', async () => {
  const browser = await launchWebGpu();
  try {
    const page = await open(browser);
    await showView(page, 'kernel');
    await page.waitForSelector('#kernel-source');
    await rendered(page, () => page.fill('#kernel-source', SHADER));
    await page.click('#kernel-run');
    await page.waitForFunction(
      () => ['finished', 'stopped', 'error'].includes(document.querySelector('#view-kernel').dataset.state),
      null,
      { timeout: 60_000 },
    );
    assert.equal(await page.$eval('#view-kernel', (s) => s.dataset.state), 'finished');
    const diags = await page.textContent('#kernel-diagnostics');
    assert.match(diags, /missing `enable subgroups;`/);

    // The bindings table lists the three buffers; input gets the odd numbers.
    const bindings = await page.$$eval('#kernel-gpu-bindings tr[data-binding]', (r) => r.map((t) => t.dataset.binding));
    assert.deepEqual(bindings, ['sums', 'scan', 'input']);
    await page.fill('#kernel-gpu-bindings input[data-fill="input"]', 'i*2+1');
    await page.click('#kernel-gpu-run');
    await page.waitForFunction(
      () => ['done', 'error'].includes(document.querySelector('#kernel-gpu-status')?.dataset.state),
      null,
      { timeout: 120_000 },
    );
    const status = await page.textContent('#kernel-gpu-status');
    assert.equal(await page.$eval('#kernel-gpu-status', (s) => s.dataset.state), 'done', status);
    assert.equal(await page.$eval('#kernel-gpu-result', (r) => r.dataset.verdict), 'match', status);
    const device = await page.textContent('#kernel-gpu-device');
    assert.match(device, /observed \d+/);
    assert.match(device, /`enable subgroups;` added for the browser/);
    // Both buffers: 16 cells, all matching (SwiftShader's subgroup size divides 16).
    for (const name of ['sums', 'scan']) {
      const cells = await page.$$eval(`#kernel-gpu-result tr[data-buffer="${name}"] td`, (t) => t.map((c) => c.textContent));
      assert.equal(cells[1], '16', `${name}: ${cells.join(' | ')}`);
      assert.equal(cells[2], '0');
    }
    // The device's exclusive scan of 1 is each invocation's lane: the first cell is 0.
    const first = await page.textContent('#kernel-gpu-result tr[data-buffer="scan"] .cell');
    assert.equal(first.trim(), '0');
    // The first subgroup of size s adds 1 + 3 + … + (2s - 1) = s².
    const s = Number(device.match(/observed (\d+)/)[1]);
    const sum = await page.textContent('#kernel-gpu-result tr[data-buffer="sums"] .cell');
    assert.equal(Number(sum), s * s, device);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.locator('#kernel-wgsl-gpu').screenshot({ path: join(ARTIFACTS, 'wgsl-gpu.png') });
    assert.deepEqual(browser.pageErrors, []);
  } finally {
    await browser.close();
  }
});

test('every WGSL example agrees with the emulator on the GPU (f16 only where the adapter has it)', async () => {
  const browser = await launchWebGpu();
  try {
    const page = await open(browser);
    await showView(page, 'kernel');
    const files = await page.$$eval('#kernel-examples option', (o) => o.map((x) => x.value).filter((v) => v.endsWith('.wgsl')));
    assert.ok(files.length >= 10, files.join(' '));
    for (const f of files) {
      await rendered(page, () => page.selectOption('#kernel-examples', f));
      await page.click('#kernel-gpu-run');
      await page.waitForFunction(
        () => ['done', 'error'].includes(document.querySelector('#kernel-gpu-status')?.dataset.state),
        null,
        { timeout: 120_000 },
      );
      const status = await page.textContent('#kernel-gpu-status');
      if (f === 'f16.wgsl' && /f16/.test(status)) continue; // SwiftShader has no shader-f16
      assert.equal(await page.$eval('#kernel-gpu-result', (r) => r.dataset.verdict), 'match', `${f}: ${status}`);
      const mismatches = await page.$$eval('#kernel-gpu-result tr[data-buffer] td:nth-child(3)', (t) => t.map((c) => Number(c.textContent)));
      assert.ok(mismatches.length > 0 && mismatches.every((m) => m === 0), `${f}: ${mismatches}`);
      // Mark the status so the next example's wait sees a fresh end.
      await page.$eval('#kernel-gpu-status', (s) => { s.dataset.state = 'stale'; });
    }
    // The shuffle-down past the subgroup's end is indeterminate by the spec, not a mismatch.
    await rendered(page, () => page.selectOption('#kernel-examples', 'ballot_broadcast_shuffle.wgsl'));
    await page.click('#kernel-gpu-run');
    await page.waitForFunction(() => document.querySelector('#kernel-gpu-status')?.dataset.state === 'done', null, { timeout: 120_000 });
    const down = await page.$$eval('#kernel-gpu-result tr[data-buffer="down"] td', (t) => t.map((c) => c.textContent));
    assert.ok(Number(down[3]) > 0, down.join(' | '));
    assert.deepEqual(browser.pageErrors, []);
  } finally {
    await browser.close();
  }
});
