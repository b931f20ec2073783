// End-to-end test of the kernel view as a user keeps working on a kernel (its state in the link, and
// the small defects): a memory edit stays through a source edit, a launch change and a budget
// change as long as its cell exists (what is dropped is said), and the link keeps it; a bad
// buffer length or launch field is said with its field and range, visibly and to assistive
// technology; budgets and the warp shown are in the link; the WGSL-on-this-GPU card sits in the
// view's grid and only for a WGSL kernel.
//
// Serve the built page first (see lib.mjs), then:
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/kernel-edits.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, launch, open, rendered, showView } from './lib.mjs';

let browser;
before(async () => { browser = await launch({ width: 1440, height: 1100 }); mkdirSync(ARTIFACTS, { recursive: true }); });
after(async () => { await browser?.close(); });

async function kernelPage(url) {
  const page = await open(browser, url);
  if (url === undefined) await showView(page, 'kernel');
  await page.waitForSelector('#kernel-source');
  return page;
}

/** Waits until the worker has answered the last load (the view is idle at position 0). */
async function settled(page) {
  await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state === 'idle');
}

const CELL = (i) => `#kernel-memory input[data-buffer="0"][data-index="${i}"]`;
const cellIs = (page, i, value) =>
  page.waitForFunction(([sel, v]) => document.querySelector(sel)?.value === v, [CELL(i), value]);
const linkOf = (page) => `${new URL(page.url()).origin}${new URL(page.url()).pathname}${new URL(page.url()).hash}`;

test('a memory edit stays through a source edit, threads, blocks and a budget, and the link keeps it', async () => {
  const page = await kernelPage();
  await settled(page);
  // The opening Ascend kernel's `dst` has the default fill `index`: cell 2 holds 2.
  assert.equal(await page.inputValue(CELL(2)), '2');
  await rendered(page, async () => {
    await page.fill(CELL(2), '999');
    await page.press(CELL(2), 'Tab');
  });
  await settled(page);
  await cellIs(page, 2, '999');

  // A comment added at the end of the source.
  await page.click('#kernel-source');
  await page.keyboard.press('Control+End');
  await rendered(page, () => page.keyboard.type('\n// note'));
  await page.waitForFunction(() => document.querySelector('#kernel-source').value.endsWith('// note'));
  await settled(page);
  await cellIs(page, 2, '999');

  // 64 threads per block: `dst` grows to 64 cells; the edit stays, the new cells are `index`.
  await rendered(page, () => page.fill('#kernel-threads', '64'));
  await page.waitForFunction(() => document.querySelector('#kernel-memory input[data-buffer="0"][data-index="40"]'));
  await settled(page);
  await cellIs(page, 2, '999');
  assert.equal(await page.inputValue(CELL(40)), '40');
  // 2 blocks.
  await rendered(page, () => page.fill('#kernel-blocks', '2'));
  await settled(page);
  await cellIs(page, 2, '999');
  // Only a budget, which changes no buffer.
  await page.click('.kernel-budgets summary');
  await rendered(page, () => page.fill('#kernel-max-work', '5000'));
  await settled(page);
  await cellIs(page, 2, '999');
  assert.equal(await page.isHidden('#kernel-memory-note'), true);
  await page.waitForTimeout(700);

  // The link: a reader sees the edit, the launch and the budget.
  const reader = await kernelPage(linkOf(page));
  await reader.waitForFunction(() => document.body.dataset.view === 'kernel');
  await cellIs(reader, 2, '999');
  assert.equal(await reader.inputValue('#kernel-threads'), '64');
  assert.equal(await reader.inputValue('#kernel-blocks'), '2');
  assert.equal(await reader.inputValue('#kernel-max-work'), '5000');
  await reader.close();

  // A length of 2 cells: cell 2 no longer exists; its edit is dropped, and said.
  await rendered(page, () => page.getByLabel('dst length').fill('2'));
  await page.waitForFunction(() => !document.querySelector('#kernel-memory-note').hidden);
  const note = await page.textContent('#kernel-memory-note');
  assert.match(note, /`dst` has 2 cells now: its edit of cell 2 dropped/);
  assert.equal(await page.$(CELL(2)), null);
  await page.screenshot({ path: join(ARTIFACTS, 'kernel-edit-dropped.png'), fullPage: true });
  await page.close();
});

test('a bad buffer length is said with its field and range, in the status, and described', async () => {
  const page = await kernelPage();
  await settled(page);
  const len = page.getByLabel('dst length');
  for (const [typed, why] of [
    ['zz!', /^dst length: `zz!` is not a whole number: give 1 or more \(leave it empty for auto: what host code allocates, else one cell per thread\)$/],
    ['-5', /^dst length: `-5` is out of range: give 1 or more/],
    ['0', /^dst length: `0` is out of range: give 1 or more/],
  ]) {
    await rendered(page, () => len.fill(typed));
    await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state === 'error');
    assert.equal(await page.isVisible('#kernel-error'), true, typed);
    assert.match(await page.textContent('#kernel-error'), why);
    assert.match(await page.textContent('#kernel-status'), why);
    assert.equal(await len.getAttribute('aria-invalid'), 'true');
    assert.equal(await len.getAttribute('aria-describedby'), 'kernel-error');
  }
  await page.screenshot({ path: join(ARTIFACTS, 'kernel-bad-length.png') });
  // Corrected: launched with 8 cells, the message gone.
  await rendered(page, () => len.fill('8'));
  await settled(page);
  assert.equal(await page.isHidden('#kernel-error'), true);
  assert.equal(await len.getAttribute('aria-invalid'), null);
  assert.ok(await page.$(CELL(7)));
  assert.equal(await page.$(CELL(8)), null);
  await page.close();
});

test('launch fields and memory cells name the field and say out of range for a number', async () => {
  const page = await kernelPage();
  await settled(page);
  for (const [typed, why] of [
    ['99999999999999999999', /^blocks: `99999999999999999999` is out of range: give 1\.\.=65536/],
    ['70000', /^blocks: `70000` is out of range: give 1\.\.=65536/],
    ['x', /^blocks: `x` is not a whole number: give 1\.\.=65536/],
  ]) {
    await rendered(page, () => page.fill('#kernel-blocks', typed));
    await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state === 'error');
    const said = await page.textContent('#kernel-status');
    assert.match(said, why);
    assert.doesNotMatch(said, /^line \d+:\d+/);
    assert.equal(await page.getAttribute('#kernel-blocks', 'aria-invalid'), 'true');
    assert.equal(await page.getAttribute('#kernel-blocks', 'aria-describedby'), 'kernel-error');
  }
  // With the dialect taken from the source the field takes the largest block any dialect's
  // engine takes (Ascend C's 2048); the engine then holds each dialect to its own.
  await rendered(page, () => page.fill('#kernel-threads', '3000'));
  await rendered(page, () => page.fill('#kernel-blocks', ''));
  assert.match(await page.textContent('#kernel-status'), /^threads per block: `3000` is out of range: give 1\.\.=2048/);
  await rendered(page, () => page.fill('#kernel-threads', ''));
  await settled(page);
  assert.equal(await page.getAttribute('#kernel-blocks', 'aria-invalid'), null);
  // A memory cell that is no number for its type: "is not an i32 value" (the type with its
  // article), the cell named.
  await rendered(page, async () => {
    await page.fill(CELL(3), 'x');
    await page.press(CELL(3), 'Tab');
  });
  await page.waitForFunction(() => !document.querySelector('#kernel-memory-error').hidden);
  assert.match(await page.textContent('#kernel-memory-error'), /^dst\[3\]: `x` is not an? \w+ value/);
  await page.close();
});

test('the budgets and the warp shown are in the link', async () => {
  const page = await kernelPage();
  await settled(page);
  await rendered(page, () => page.fill('#kernel-blocks', '2'));
  await settled(page);
  // A budget of 50 units of work: the opening kernel stops at it (it finishes with the default).
  await page.click('.kernel-budgets summary');
  await rendered(page, () => page.fill('#kernel-max-work', '50'));
  await settled(page);
  await page.click('#kernel-run');
  await page.waitForFunction(() => ['finished', 'stopped'].includes(document.querySelector('#view-kernel').dataset.state));
  assert.equal(await page.$eval('#view-kernel', (s) => s.dataset.state), 'stopped');
  const position = await page.textContent('#kernel-position');
  await rendered(page, () => page.selectOption('#kernel-warp-pick', '1:0'));
  await page.waitForFunction(() => /block 1/.test(document.querySelector('#kernel-warp').textContent));
  await page.waitForTimeout(700);

  const reader = await kernelPage(linkOf(page));
  await reader.waitForFunction(() => document.body.dataset.view === 'kernel');
  await reader.waitForFunction(() => document.querySelector('#view-kernel').dataset.state === 'stopped');
  assert.equal(await reader.inputValue('#kernel-max-work'), '50');
  assert.equal(await reader.textContent('#kernel-position'), position);
  await reader.waitForFunction(() => document.querySelector('#kernel-warp-pick').value === '1:0');
  assert.match(await reader.textContent('#kernel-warp'), /block 1/);
  await reader.close();
  await page.close();
});

test('the WGSL-on-this-GPU card is in the grid at every width, and only for a WGSL kernel', async () => {
  const page = await kernelPage();
  await settled(page);
  // The opening kernel is Ascend C: the card has nothing to run.
  assert.equal(await page.isHidden('#kernel-wgsl-gpu'), true);
  await rendered(page, () => page.selectOption('#kernel-examples', 'reduce_scan.wgsl'));
  await page.waitForSelector('#kernel-wgsl-gpu', { state: 'visible' });
  for (const width of [390, 768, 1024, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(100);
    const box = await page.$eval('#kernel-wgsl-gpu', (e) => e.getBoundingClientRect().toJSON());
    const left = await page.$eval('.kernel-left', (e) => e.getBoundingClientRect().left);
    const right = await page.$eval('.kernel-right', (e) => e.getBoundingClientRect().right);
    // Its edges are the grid's: the left column's left and the right column's right.
    assert.ok(Math.abs(box.left - left) < 1, `${width}: left ${box.left} vs ${left}`);
    assert.ok(Math.abs(box.right - right) < 1, `${width}: right ${box.right} vs ${right}`);
    assert.ok(box.left > 0, `${width}: a margin on the left`);
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(sideways <= 0, `${width}: the page scrolls sideways by ${sideways}px`);
    await page.locator('#kernel-wgsl-gpu').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `kernel-wgsl-gpu-${width}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 1100 });
  // Back to a CUDA kernel: hidden again.
  await rendered(page, () => page.selectOption('#kernel-examples', 'ascend_shfl_xor.cpp'));
  await page.waitForSelector('#kernel-wgsl-gpu', { state: 'hidden' });
  await page.close();
});

test('an example\'s text is fetched when chosen: a link to it shows it in the menu, a failed fetch keeps the kernel and says why', async () => {
  const page = await kernelPage();
  await settled(page);
  // The first module holds only the opening kernel; every other example is fetched from
  // examples/ (src/views/kernel/examples.rs).
  const fetched = [];
  page.on('request', (r) => { if (new URL(r.url()).pathname.includes('/examples/')) fetched.push(new URL(r.url()).pathname); });
  await rendered(page, () => page.selectOption('#kernel-examples', 'cuda_warp_argmax.cu'));
  assert.deepEqual(fetched.map((p) => p.split('/examples/')[1]), ['examples_kernels/written/cuda_warp_argmax.cu']);
  const source = await page.$eval('#kernel-source', (t) => t.value);
  assert.match(source, /__global__/);
  await settled(page);
  // A link to that kernel opened cold: the menu names the example again (found by its text).
  await page.waitForTimeout(300);
  const link = linkOf(page);
  const again = await kernelPage(link);
  await again.waitForFunction(() => document.querySelector('#kernel-examples').value !== '');
  assert.equal(await again.$eval('#kernel-examples', (s) => s.value), 'cuda_warp_argmax.cu');
  await again.close();
  // The server answers 404: the editor keeps its kernel, the menu says which, the status why.
  await page.route('**/examples/**', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.selectOption('#kernel-examples', 'hip_wave64_reduce.hip');
  await page.waitForFunction(() => /could not load the example/.test(document.querySelector('#kernel-status').textContent));
  assert.match(await page.textContent('#kernel-status'), /could not load the example hip_wave64_reduce\.hip \(HTTP 404/);
  assert.equal(await page.$eval('#kernel-source', (t) => t.value), source);
  assert.equal(await page.$eval('#kernel-examples', (s) => s.value), 'cuda_warp_argmax.cu');
  await page.close();
});
