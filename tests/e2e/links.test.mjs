// End-to-end test: one meaning per link. A set of kernel links (memory edits, fills, buffer
// lengths, budgets within their ceilings, user macros, a WGSL buffer) is run by the CLI
// (`crosslane run LINK --json`) and opened on the page at a step past the end; the final buffers
// must be the same. Links the page cannot apply (an unknown dialect or entry, blocks of 70 000 or
// 2^32 − 1) show a field error in #kernel-error naming the field and what is allowed, while the
// link's own kernel stays in the editor and no other kernel's memory table is shown.
//
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/links.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { PAGE_URL, launch, open } from './lib.mjs';

const CLI = process.env.CROSSLANE_CLI
  ?? fileURLToPath(new URL('../../target/debug/crosslane', import.meta.url));

let browser;
before(async () => {
  assert.ok(existsSync(CLI), `the CLI binary ${CLI} (built by cargo test; CROSSLANE_CLI overrides)`);
  browser = await launch();
});
after(async () => { await browser?.close(); });

const b64url = (buf) => buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
/** A kernel link; `step` far past the end makes the page run to the end (or a budget). */
const link = (kernel, inputs = {}) => `v1.${b64url(deflateSync(Buffer.from(JSON.stringify({
  version: 1,
  view: { kernel: { blocks: 1, threads_per_block: 4, lanes: 0, step: 1000000, ...kernel } },
  kernel_inputs: inputs,
}))))}`;

const SCALED = 'override SCALE: u32 = 2u;\n@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {\n  a[i] = i * SCALE;\n}\n';
const DOUBLE = '__global__ void k(int* a) {\n  a[threadIdx.x] = a[threadIdx.x] * 2;\n}\n';
const LINKS = [
  // Cell 0 edited to 100 before the run, the rest the default fill `index`: 200, 2, 4, 6.
  ['a memory edit', { source: DOUBLE }, { edits: { a: { 0: '100' } } }, { a: [200, 2, 4, 6] }],
  // Fill i*3+1, doubled: 2, 8, 14, 20.
  ['a fill', { source: DOUBLE }, { args: { a: 'i*3+1' } }, { a: [2, 8, 14, 20] }],
  // 8 cells, 4 threads: the first four doubled, the rest keep their fill `index`.
  ['a buffer length', { source: DOUBLE }, { buffer_len: { a: 8 } }, { a: [0, 2, 4, 6, 4, 5, 6, 7] }],
  // -DSCALE=5: thread t writes 5t.
  ['a user macro', { source: '__global__ void k(int* a) {\n  a[threadIdx.x] = threadIdx.x * SCALE;\n}\n' },
    { defines: '-DSCALE=5' }, { a: [0, 5, 10, 15] }],
  // A budget lowered below the loop's need: both stop at the same statement (the values are
  // the CLI's, checked equal to the page's; the budget stops the run before 1000 rounds).
  ['a lowered work budget', { source: '__global__ void k(int* a) {\n  for (int i = 0; i < 1000; i++) {\n    a[threadIdx.x] += 1;\n  }\n}\n' },
    { budgets: { max_work: '3000' } }, null],
  // WGSL: `a` filled with index, each invocation adds 10.
  ['a WGSL buffer fill', { source: '@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {\n  a[i] = a[i] + 10u;\n}\n' },
    { args: { a: 'index' } }, { a: [10, 11, 12, 13] }],
  // A WGSL override set by the link (SCALE = 7 for its initializer 2): invocation i writes 7i.
  ['a WGSL override', { source: SCALED }, { overrides: { SCALE: '7' } }, { a: [0, 7, 14, 21] }],
];

/** The CLI's final buffers for `l`: name → values. */
function cliBuffers(l) {
  const r = spawnSync(CLI, ['run', l, '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.ok(r.status === 0 || r.status === 1, `crosslane run LINK: exit ${r.status}: ${r.stderr}`);
  const trace = JSON.parse(r.stdout);
  // A C++ kernel's trace holds `memory.buffers`; a WGSL run's JSON `buffers` (docs/cli.md).
  const buffers = trace.memory?.buffers ?? trace.buffers;
  return Object.fromEntries(buffers.map((b) => [b.name, b.values.map(Number)]));
}

/** The page's final buffers for `l` (the memory table at the last position): name → values. */
async function pageBuffers(l) {
  const page = await open(browser, `${PAGE_URL}#${l}`);
  // Every link here has a buffer `a`; the run has ended when the view is no longer running.
  await page.waitForFunction(() => document.querySelector('#view-kernel')?.dataset.state !== 'running'
    && document.querySelector('#kernel-memory tbody[data-name="a"] td[data-index]'), null, { timeout: 20000 });
  const out = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#kernel-memory tbody[data-name]')]
    .map((tb) => [tb.dataset.name, [...tb.querySelectorAll('td[data-index]')].map((td) => Number(td.textContent))])));
  await page.close();
  return out;
}

test('the CLI and the page give every link the same final buffers', async () => {
  for (const [name, kernel, inputs, want] of LINKS) {
    const l = link(kernel, inputs);
    const cli = cliBuffers(l);
    const shown = await pageBuffers(l);
    assert.deepEqual(shown, cli, `${name}: the page's buffers equal the CLI's`);
    if (want) assert.deepEqual(cli, want, `${name}: the expected values`);
    else assert.ok(cli.a.every((v) => v > 0 && v < 1000), `${name}: stopped by the budget: ${cli.a}`);
  }
  assert.deepEqual(browser.pageErrors, []);
});

const REFUSED = [
  ['an unknown dialect', { source: DOUBLE }, { dialect: 'opencl' }, /^dialect: `opencl` is not a dialect; allowed: cuda, hip, ascend, amdgcn, maca, wgsl/],
  ['an unknown entry', { source: DOUBLE }, { entry: 'nope' }, /no function `nope`; the source defines: k/],
  ['blocks of 70000', { source: DOUBLE, blocks: 70000 }, {}, /^blocks: `70000` is out of range: give 1\.\.=65536/],
  ['blocks of 2^32 − 1', { source: DOUBLE, blocks: 4294967295 }, {}, /^blocks: `4294967295` is out of range: give 1\.\.=65536/],
];

test('a link the page cannot apply names the field and its range; its own kernel stays, alone', async () => {
  for (const [name, kernel, inputs, message] of REFUSED) {
    const l = link(kernel, inputs);
    // The CLI refuses it too (exit 2).
    const r = spawnSync(CLI, ['run', l, '--json'], { encoding: 'utf8' });
    assert.equal(r.status, 2, `${name}: the CLI exits 2: ${r.stderr}`);
    const page = await open(browser, `${PAGE_URL}#${l}`);
    await page.waitForFunction(() => document.querySelector('#view-kernel')?.dataset.state === 'error', null, { timeout: 20000 });
    // Time for an answer still due from the kernel shown before the link (it must not draw).
    await page.waitForTimeout(1500);
    const shown = await page.evaluate(() => ({
      error: document.querySelector('#kernel-error').textContent,
      hidden: document.querySelector('#kernel-error').hidden,
      source: document.querySelector('#kernel-source').value,
      buffers: [...document.querySelectorAll('#kernel-memory tbody[data-name]')].map((tb) => tb.dataset.name),
      state: document.querySelector('#view-kernel').dataset.state,
    }));
    assert.equal(shown.hidden, false, `${name}: #kernel-error shown`);
    assert.match(shown.error.replace(/^line \d+:\d+: /, ''), message, `${name}: ${shown.error}`);
    assert.equal(shown.source, kernel.source, `${name}: the link's own kernel stays loaded`);
    assert.deepEqual(shown.buffers, [], `${name}: no memory table of another kernel`);
    assert.equal(shown.state, 'error');
    await page.close();
  }
  assert.deepEqual(browser.pageErrors, []);
});

test('the overrides field sets a WGSL shader\'s overrides, shows a link\'s, and names a bad entry', async () => {
  const page = await open(browser, `${PAGE_URL}#${link({ source: SCALED }, { overrides: { SCALE: '7' } })}`);
  const cells = () => page.evaluate(() => [...document.querySelectorAll('#kernel-memory tbody[data-name="a"] td[data-index]')]
    .map((td) => Number(td.textContent)));
  const settled = () => page.waitForFunction(() => document.querySelector('#view-kernel')?.dataset.state !== 'running'
    && document.querySelector('#kernel-memory tbody[data-name="a"] td[data-index]'), null, { timeout: 20000 });
  await settled();
  assert.equal(await page.inputValue('#kernel-overrides'), 'SCALE=7', 'the link\'s override shown in the field');
  assert.deepEqual(await cells(), [0, 7, 14, 21]);
  // Typed: SCALE = 5, the shader runs again with it (invocation i writes 5i once run to the end).
  await page.fill('#kernel-overrides', 'SCALE=5');
  await page.waitForFunction(() => [...document.querySelectorAll('#kernel-memory tbody[data-name="a"] td[data-index]')]
    .map((td) => td.textContent.trim()).join(' ') === '0 5 10 15' || document.querySelector('#view-kernel').dataset.state === 'idle',
  null, { timeout: 20000 });
  await page.click('#kernel-run');
  await page.waitForFunction(() => [...document.querySelectorAll('#kernel-memory tbody[data-name="a"] td[data-index]')]
    .map((td) => td.textContent.trim()).join(' ') === '0 5 10 15', null, { timeout: 20000 });
  // An entry without a value: the field is marked and #kernel-error names it.
  await page.fill('#kernel-overrides', 'SCALE');
  await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state === 'error', null, { timeout: 20000 });
  assert.equal(await page.getAttribute('#kernel-overrides', 'aria-invalid'), 'true');
  assert.match(await page.textContent('#kernel-error'), /^overrides: `SCALE`: an override is NAME=VALUE/);
  await page.close();
  assert.deepEqual(browser.pageErrors, []);
});
