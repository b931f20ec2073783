// End-to-end test of details of the kernel view a tester found wanting: a WGSL shader's kernel
// picker and dialect line agree and name the entry point; tiny and huge floats read the same,
// in their shortest form with an exponent, in the memory table and the lane table; the defines
// field holds a few -D flags at 1440 and 390 px; WGSL keywords are coloured as CUDA's are; the
// argument fields of the last kernel that loaded are marked stale while a pasted one fails.
//
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/kernel-details.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, rendered, showView } from './lib.mjs';

let browser;
before(async () => { browser = await launch({ width: 1440, height: 1100 }); });
after(async () => { await browser?.close(); });

async function kernelPage(b = browser) {
  const page = await open(b);
  await showView(page, 'kernel');
  return page;
}

/** Types `text` as the source and waits for the worker's answer to it. */
async function setSource(page, text) {
  await page.fill('#kernel-source', text);
  await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state !== 'running'
    && !document.querySelector('#kernel-status').textContent.startsWith('loading'), null, { timeout: 30_000 });
  // The parse waits for a pause in typing: one more render after it.
  await page.waitForTimeout(400);
  await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state !== 'running');
}

const TWO_ENTRIES = `@group(0) @binding(0) var<storage, read_write> a: array<u32>;
@compute @workgroup_size(4)
fn first(@builtin(local_invocation_index) i: u32) {
  let v = i * 2u;
  a[i] = v;
}
@compute @workgroup_size(4)
fn second(@builtin(local_invocation_index) i: u32) {
  var k: u32 = 0u;
  loop {
    if k >= 3u { break; }
    k = k + 1u;
  }
  a[i] = k;
}
`;

test('a WGSL shader: the kernel picker lists its entry points and the dialect line names the one that runs', async () => {
  const page = await kernelPage();
  await setSource(page, TWO_ENTRIES);
  const picker = await page.$$eval('#kernel-entry option', (o) => o.map((x) => [x.value, x.textContent]));
  assert.deepEqual(picker, [['', 'first (default)'], ['second', 'second']]);
  const line = await page.textContent('#kernel-dialect-from');
  assert.doesNotMatch(line, /chosen/);
  assert.equal(line, 'runs as wgsl · inferred from the source: a WGSL compute shader, entry point `first`');
  assert.equal(await page.$eval('#kernel-dialect', (s) => s.value), '');
  // Picking the second entry: the line names it, and it runs (a = 3 everywhere).
  await rendered(page, () => page.selectOption('#kernel-entry', 'second'));
  await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state !== 'running');
  assert.match(await page.textContent('#kernel-dialect-from'), /entry point `second`$/);
  assert.match(await page.textContent('#kernel-geometry'), /^second · wgsl/);
  await page.close();
});

test('WGSL keywords and types are coloured with the same classes as CUDA\'s', async () => {
  const page = await kernelPage();
  await setSource(page, TWO_ENTRIES);
  const classed = (cls) => page.$$eval(`#kernel-highlight .${cls}`, (s) => [...new Set(s.map((x) => x.textContent))]);
  const kw = await classed('tk-kw');
  for (const word of ['fn', 'let', 'var', 'loop', 'if', 'break', '@compute', '@workgroup_size', '@builtin', '@group', '@binding']) {
    assert.ok(kw.includes(word), `${word} is a keyword: ${kw}`);
  }
  const ty = await classed('tk-ty');
  for (const word of ['u32', 'array']) assert.ok(ty.includes(word), `${word} is a type: ${ty}`);
  assert.ok((await classed('tk-num')).includes('2u'));
  // CUDA's, with the same classes.
  await setSource(page, '__global__ void k(float* a) {\n  for (int i = 0; i < 2; i++) { a[i] = 1; }\n}\n');
  assert.ok((await classed('tk-kw')).includes('for'));
  assert.ok((await classed('tk-ty')).includes('float'));
  await page.close();
});

test('tiny and huge floats read in their shortest form with an exponent, the same in memory and lanes', async () => {
  const page = await kernelPage();
  await setSource(page, `__global__ void k(float* a) {
  float x = 1.234e-22f;
  if (threadIdx.x == 1) x = 3e30f;
  if (threadIdx.x == 2) x = 0.5f;
  if (threadIdx.x == 3) x = 123456.7f;
  a[threadIdx.x] = x;
}
`);
  await page.fill('#kernel-threads', '4');
  await page.waitForTimeout(400);
  await page.click('#kernel-run');
  await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state === 'finished', null, { timeout: 30_000 });
  const cells = await page.$$eval('#kernel-memory tbody[data-name="a"] td[data-index]', (t) => t.map((x) => x.textContent));
  // Shortest round-trip forms of the f32 values (Python: repr of numpy.float32 of each, with
  // Rust's exponent spelling): 1.234e-22, 3e30, 0.5, 123456.7.
  assert.deepEqual(cells, ['1.234e-22', '3e30', '0.5', '123456.7']);
  // The lane table of the last step (warp 0, lanes 0–3) writes x the same way.
  const lanes = await page.$$eval('#kernel-vars tr[data-lane] td[data-var="x"]', (t) => t.slice(0, 4).map((x) => x.textContent));
  assert.deepEqual(lanes, cells);
  await page.close();
});

for (const width of [1440, 390]) {
  test(`the defines field holds a few -D flags at ${width} px, as wide as an argument field`, async () => {
    const b = await launch({ width, height: 900 });
    try {
      const page = await kernelPage(b);
      await rendered(page, () => page.selectOption('#kernel-examples', 'ascend_shfl_down_reduce.cpp'));
      const flags = '-DSCALE=5 -DWIDTH=32 -UDEBUG';
      await page.fill('#kernel-defines', flags);
      const box = await page.$eval('#kernel-defines', (i) => ({ client: i.clientWidth, scroll: i.scrollWidth }));
      assert.ok(box.scroll <= box.client, `${flags} fits: ${JSON.stringify(box)}`);
      // As wide as the widest argument field at least (the first column's).
      const widest = await page.$$eval('#kernel-args input', (i) => Math.max(...i.map((x) => x.clientWidth)));
      assert.ok(box.client >= widest, `defines ${box.client} px, argument fields up to ${widest} px`);
      // Within the launch card: nothing sticks out of it.
      const inside = await page.$eval('#kernel-defines', (i) => {
        const r = i.getBoundingClientRect();
        const c = i.closest('fieldset').getBoundingClientRect();
        return r.left >= c.left && r.right <= c.right;
      });
      assert.ok(inside, 'the defines field stays inside the launch card');
      await page.close();
    } finally {
      await b.close();
    }
  });
}

test('a pasted kernel that fails to load marks the previous kernel\'s argument fields stale', async () => {
  const page = await kernelPage();
  await setSource(page, '__global__ void k(int* a, int n) {\n  a[threadIdx.x] = n;\n}\n');
  await page.waitForSelector('#kernel-args input[data-arg="n"]');
  assert.equal(await page.$eval('#kernel-args input[data-arg="n"]', (i) => i.disabled), false);
  assert.equal(await page.$('#kernel-args-stale:not([hidden])'), null);
  // A paste that does not parse: the fields stay, disabled, with the note.
  await setSource(page, '__global__ void k(int* a, int n) {\n  a[threadIdx.x] = = n;\n}\n');
  await page.waitForFunction(() => !document.querySelector('#kernel-error').hidden);
  const stale = await page.$$eval('#kernel-args input', (i) => i.map((x) => x.disabled));
  assert.ok(stale.length > 0 && stale.every(Boolean), `every argument field is disabled: ${stale}`);
  assert.equal(await page.textContent('#kernel-args-stale:not([hidden])'), 'from the previous kernel');
  assert.equal(await page.getAttribute('#kernel-args', 'data-stale'), 'true');
  // A kernel loads again: the fields apply again.
  await setSource(page, '__global__ void k(int* a, int n) {\n  a[threadIdx.x] = n + 1;\n}\n');
  await page.waitForFunction(() => document.querySelector('#kernel-error').hidden);
  const live = await page.$$eval('#kernel-args input', (i) => i.map((x) => x.disabled));
  assert.ok(live.length > 0 && live.every((d) => !d), `every argument field is enabled: ${live}`);
  assert.equal(await page.$('#kernel-args-stale:not([hidden])'), null);
  assert.equal(await page.getAttribute('#kernel-args', 'data-stale'), null);
  await page.close();
  assert.deepEqual(browser.pageErrors, []);
});
