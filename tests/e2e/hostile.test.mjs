// End-to-end test: hostile permalinks (under the link caps) open within a few
// seconds, the page still answers, no uncaught error is thrown, and the budget's message is shown.
//
// Serve the built page first (see lib.mjs), then:
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/hostile.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { PAGE_URL, launch, open } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const b64url = (buf) => buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const link = (kernel) => `v1.${b64url(deflateSync(Buffer.from(JSON.stringify({
  version: 1,
  view: { kernel: { blocks: 0, threads_per_block: 0, lanes: 0, step: 0, ...kernel } },
}))))}`;

const wrap = (body) => `__global__ void k(int* a) {\n  int x = 0;\n  ${body}\n}\n`;
const macros = '#define E0\n'
  + Array.from({ length: 9 }, (_, k) => `#define E${k + 1} ${`E${k} `.repeat(10)}\n`).join('')
  + 'int x = 1; E9\n';
const inline = '__device__ int f6(int v) { return v + 1; }\n'
  + [5, 4, 3, 2, 1, 0].map((k) => `__device__ int f${k}(int v) { return ${Array(10).fill(`f${k + 1}(v)`).join(' + ')}; }\n`).join('')
  + '__global__ void k(int* a) { a[threadIdx.x] = f0(1); }\n';

const CASES = [
  ['a chain of 100000 additions', { source: wrap(`x = ${'1+'.repeat(100000)}1;`) }, /nested deeper than \d+ levels/],
  ['a[0] indexed 60000 times', { source: wrap(`x = a${'[0]'.repeat(60000)};`) }, /nested deeper than \d+ levels/],
  ['50000 nested parentheses', { source: wrap(`x = ${'('.repeat(50000)}1${')'.repeat(50000)};`) }, /nesting deeper than \d+ levels/],
  ['20000 prototypes', { source: 'int f();\n'.repeat(20000) + wrap('x++;') }, null],
  ['nested empty macros', { source: macros }, /token limit of \d+/],
  ['wide inlining', { source: inline }, /code limit of \d+/],
  ['a diagnostic every step, opened at step 3000', { source: wrap('while (1) { int u; x = u; }'), step: 3000 }, null],
  ['65536 blocks of 1024 threads at step 200', { source: 'int a = 1;\nint b = a + 1;\n', blocks: 65536, threads_per_block: 1024, step: 200 }, null],
];

test('each hostile link renders within seconds, answers, and says what stopped it', async () => {
  for (const [name, kernel, message] of CASES) {
    const errorsBefore = browser.pageErrors.length;
    const started = Date.now();
    const page = await open(browser, `${PAGE_URL}#${link(kernel)}`);
    // The link is applied in the kernel worker: wait for its answer (the page answers meanwhile).
    await page.waitForFunction(() => document.querySelector('#view-kernel')?.dataset.state !== 'running',
      null, { timeout: 10000 });
    const took = Date.now() - started;
    assert.ok(took < 10000, `${name}: rendered in ${took} ms`);
    assert.equal(await page.evaluate(() => 6 * 7), 42, `${name}: the page answers`);
    assert.equal(await page.$('#panic-banner'), null, `${name}: no fatal error banner`);
    assert.deepEqual(browser.pageErrors.slice(errorsBefore), [], `${name}: no uncaught error`);
    const shown = await page.evaluate(() => [
      document.querySelector('#kernel-error')?.textContent ?? '',
      document.querySelector('#kernel-status')?.textContent ?? '',
    ].join(' | '));
    if (message) assert.match(shown, message, `${name}: ${shown}`);
    await page.close();
  }
});

test('a link with the GPU panel open opens it but starts no GPU work without a click', async () => {
  const gpuLink = `v1.${b64url(deflateSync(Buffer.from(JSON.stringify({
    version: 1,
    view: { op: { dialect: 'ascend', op: 'asc_shfl_xor', params: { lane_mask: '1', width: '16' } } },
    gpu_panel: true,
  }))))}`;
  const page = await open(browser, `${PAGE_URL}#${gpuLink}`);
  assert.equal(await page.evaluate(() => document.body.dataset.gpuPanel), 'open');
  // The panel's code is in the kernel engine module, which the open panel loads first.
  await page.waitForSelector('#gpu-panel:not([hidden])', { timeout: 30_000 });
  assert.equal(await page.$eval('#gpu-panel', (e) => e.dataset.state), 'idle');
  assert.match(await page.textContent('#gpu-status'), /opened by a link: press “run again”/);
  await page.close();
});
