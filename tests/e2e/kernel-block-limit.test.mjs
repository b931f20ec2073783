// End-to-end test of the threads-per-block field against the engine's limit for the dialect
// (crosslane_kernel::exec::max_threads_per_block): an Ascend C SIMT kernel runs with 2048 threads
// (asc_vf_call's threadNums "必须<=2048", CANN asc-devkit SIMT API reference), a CUDA kernel does not
// (1024, CUDA C++ Programming Guide, "Thread Hierarchy"): the field refuses 2048 when CUDA is
// picked, and the engine refuses it, at the launch, when the dialect comes from the source.
//
// Serve the built page first (see lib.mjs), then:
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/kernel-block-limit.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, rendered, showView } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function kernelPage() {
  const page = await open(browser);
  await showView(page, 'kernel');
  await page.waitForSelector('#kernel-source');
  return page;
}

const state = (page) => page.$eval('#view-kernel', (s) => s.dataset.state);
const settled = (page) =>
  page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state !== 'running', null, { timeout: 60_000 });

async function runToEnd(page) {
  await page.click('#kernel-run');
  await page.waitForFunction(
    () => ['finished', 'stopped', 'error'].includes(document.querySelector('#view-kernel').dataset.state),
    null, { timeout: 120_000 },
  );
}

// Each thread writes its neighbour's index (asc_shfl_xor with mask 1 within 32 lanes): cell i
// holds i ^ 1, so cell 2046 holds 2047 and cell 2047 holds 2046 (the memory table shows the page
// of the last write after a run).
const ASCEND = `__simt_vf__ __launch_bounds__(2048) inline void Neighbours(__gm__ int32_t* dst) {
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    dst[idx] = asc_shfl_xor(idx, 1, 32);
}
`;

const CUDA = `__global__ void neighbours(int* dst) {
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    dst[idx] = __shfl_xor_sync(0xffffffffu, idx, 1);
}
`;

test('an Ascend C kernel runs with 2048 threads per block; a CUDA kernel is held to 1024', async () => {
  const page = await kernelPage();
  await settled(page);
  await rendered(page, () => page.fill('#kernel-source', ASCEND));
  await settled(page);
  await rendered(page, () => page.fill('#kernel-threads', '2048'));
  await settled(page);
  assert.equal(await page.getAttribute('#kernel-threads', 'aria-invalid'), null);
  assert.doesNotMatch(await page.textContent('#kernel-status'), /out of range/);
  await runToEnd(page);
  assert.equal(await state(page), 'finished', await page.textContent('#kernel-status'));
  // After a run the cells are text (only position 0 edits them).
  const cell = (i) => page.textContent(`#kernel-memory td[data-buffer="0"][data-index="${i}"]`);
  assert.equal(await cell(2046), '2047');
  assert.equal(await cell(2047), '2046');

  // CUDA picked: the field itself says the dialect's range.
  await rendered(page, () => page.fill('#kernel-source', CUDA));
  await settled(page);
  await rendered(page, () => page.selectOption('#kernel-dialect', 'cuda'));
  await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state === 'error');
  assert.match(await page.textContent('#kernel-status'), /^threads per block: `2048` is out of range: give 1\.\.=1024/);
  assert.equal(await page.getAttribute('#kernel-threads', 'aria-invalid'), 'true');

  // The dialect from the source (CUDA): the engine refuses the block with its limit.
  await rendered(page, () => page.selectOption('#kernel-dialect', ''));
  await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state === 'error');
  assert.match(await page.textContent('#kernel-status'), /threads per block must be 1\.\.=1024/);

  // Back to 1024: the CUDA kernel runs.
  await rendered(page, () => page.fill('#kernel-threads', '1024'));
  await settled(page);
  await runToEnd(page);
  assert.equal(await state(page), 'finished', await page.textContent('#kernel-status'));
  assert.equal(await cell(1022), '1023');
  assert.equal(await cell(1023), '1022');
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});
