// End-to-end test of structs in the kernel view ("Data"): a kernel with a struct, a
// buffer of structs and a member function is pasted, run, and a member's cell read back. Each
// member of a struct buffer is its own memory table (`out.v`, `out.idx`).
//
// Serve the built page first (see lib.mjs), then:
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/kernel-structs.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, launch, open, rendered, showView } from './lib.mjs';

let browser;
before(async () => { browser = await launch({ width: 1440, height: 1100 }); mkdirSync(ARTIFACTS, { recursive: true }); });
after(async () => { await browser?.close(); });

// Each lane's pair (its index doubled, its lane); the pair is shuffled member by member from the
// next lane (__shfl_down_sync, delta 1: lane 31 keeps its own) and stored into a buffer of pairs.
const SOURCE = [
  'struct Pair {',
  '  int v;',
  '  int idx;',
  '  __device__ int sum() const { return v + idx; }',
  '};',
  '__global__ void k(Pair* out) {',
  '  Pair p{2 * (int)threadIdx.x, (int)threadIdx.x};',
  '  Pair o;',
  '  o.v = __shfl_down_sync(0xffffffff, p.v, 1);',
  '  o.idx = __shfl_down_sync(0xffffffff, p.idx, 1);',
  '  out[threadIdx.x] = o;',
  '  out[threadIdx.x].v += o.sum();',
  '}',
].join('\n');

test('a struct kernel runs and its buffer of structs shows each member', async () => {
  const page = await open(browser);
  await showView(page, 'kernel');
  await page.waitForSelector('#kernel-source');
  await rendered(page, () => page.fill('#kernel-source', SOURCE));
  await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state === 'idle');
  await page.click('#kernel-run');
  await page.waitForFunction(
    () => ['finished', 'stopped', 'error'].includes(document.querySelector('#view-kernel').dataset.state),
    null,
    { timeout: 60_000 },
  );
  assert.equal(await page.evaluate(() => document.querySelector('#view-kernel').dataset.state), 'finished');
  // Lane 3 read lane 4's pair (8, 4): out.v[3] = 8 + (8 + 4) = 20, out.idx[3] = 4.
  // A buffer's table is `tbody[data-name=NAME]`; its cells `td[data-index=I]`.
  const cellOf = (name, i) => page.textContent(`#kernel-memory tbody[data-name="${name}"] td[data-index="${i}"]`);
  assert.equal((await cellOf('out.v', 3)).trim(), '20');
  assert.equal((await cellOf('out.idx', 3)).trim(), '4');
  await page.screenshot({ path: join(ARTIFACTS, 'kernel-structs.png') });
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});
