// End-to-end test of the kernel view's launch inputs (kept in the link): the
// dialect picker, one field per kernel parameter (a scalar's value, a buffer's length and fill),
// and every input — memory cell edits included — in the link, so a reload shows the same launch.
//
// Serve the built page first (see lib.mjs), then:
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/kernel-inputs.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, PAGE_URL, launch, open, rendered, showView, settledHash } from './lib.mjs';

let browser;
before(async () => { browser = await launch({ width: 1440, height: 1100 }); mkdirSync(ARTIFACTS, { recursive: true }); });
after(async () => { await browser?.close(); });

async function kernelPage() {
  const page = await open(browser);
  await showView(page, 'kernel');
  await page.waitForSelector('#kernel-source');
  return page;
}

async function runToEnd(page, timeout = 60_000) {
  await page.click('#kernel-run');
  await page.waitForFunction(
    () => ['finished', 'stopped', 'error'].includes(document.querySelector('#view-kernel').dataset.state),
    null,
    { timeout },
  );
}

/** Waits until the worker has answered the last load (the view is idle at position 0). */
async function settled(page) {
  await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state === 'idle');
}

const laneVar = (page, lane, name) =>
  page.textContent(`#kernel-vars tr[data-lane="${lane}"] td[data-var="${name}"]`);
const cell = (page, i) => page.inputValue(`#kernel-memory input[data-buffer="0"][data-index="${i}"]`);
const hashOf = async (page) => (await settledHash(page)).slice(1);

// A buffer `d` and a scalar `s`: every lane adds `s` to the next lane's cell.
const SOURCE = '__global__ void k(int* d, int s) {\n  int v = __shfl_down_sync(0xffffffff, d[threadIdx.x], 1) + s;\n  d[threadIdx.x] = v;\n}';

test('a scalar, a buffer fill and a memory edit are in the link and survive a reload', async () => {
  const page = await kernelPage();
  await rendered(page, () => page.fill('#kernel-source', SOURCE));
  await page.waitForSelector('#kernel-args input[data-arg="s"]');
  await settled(page);
  // Unset, `s` is undefined in every lane, and the engine says so.
  assert.match(await page.textContent('#kernel-diagnostics'), /scalar parameter `s` is not set/);
  assert.equal(await page.getAttribute('#kernel-args input[data-arg="s"]', 'placeholder'), 'not set');

  await rendered(page, () => page.getByLabel('s', { exact: true }).fill('5'));
  await rendered(page, () => page.getByLabel('d fill').fill('index*2'));
  await settled(page);
  assert.doesNotMatch(await page.textContent('#kernel-diagnostics'), /`s` is not set/);
  // FILL `index*2`: cell i holds 2i.
  assert.equal(await cell(page, 3), '6');
  await rendered(page, async () => {
    await page.fill('#kernel-memory input[data-buffer="0"][data-index="1"]', '100');
    await page.press('#kernel-memory input[data-buffer="0"][data-index="1"]', 'Enter');
  });
  await page.waitForFunction(() => location.hash.length > 1);
  await settled(page);
  assert.equal(await cell(page, 1), '100');
  // The fill field keeps what was typed; the edit is a cell of its own over that fill (it
  // stays through later launch changes while the cell exists).
  assert.equal(await page.inputValue('#kernel-args input[data-arg="d"]'), 'index*2');
  const link = await hashOf(page);

  await runToEnd(page);
  // __shfl_down_sync(…, 1): lane 0 reads lane 1's cell (100) + s; lane 1 reads d[2] = 4;
  // lane 31's source lane 32 is past the warp, so it keeps its own d[31] = 62 (CUDA
  // Programming Guide, warp shuffle functions).
  const before = [await laneVar(page, 0, 'v'), await laneVar(page, 1, 'v'), await laneVar(page, 31, 'v')];
  assert.deepEqual(before, ['105', '9', '67']);

  await page.reload();
  await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
  await page.waitForFunction(() => document.body.dataset.view === 'kernel');
  // The link holds the step too: the reload runs to it with the same inputs.
  await page.waitForFunction(() => /^step 2 \/ 2/.test(document.querySelector('#kernel-position').textContent));
  assert.deepEqual(
    [await laneVar(page, 0, 'v'), await laneVar(page, 1, 'v'), await laneVar(page, 31, 'v')],
    before,
  );
  await page.waitForSelector('#kernel-args input[data-arg="s"]');
  assert.equal(await page.inputValue('#kernel-args input[data-arg="s"]'), '5');
  // Back to the launch: the edited cell is still 100, the fill's other cells 2i.
  await rendered(page, () => page.click('#kernel-reset'));
  await settled(page);
  assert.equal(await cell(page, 1), '100');
  assert.equal(await cell(page, 3), '6');
  // The link the reader opens is the author's, unchanged by opening it.
  const after = await hashOf(page);
  assert.ok(after.length > 0);
  await page.screenshot({ path: join(ARTIFACTS, 'kernel-inputs.png'), fullPage: true });

  // A fresh page opening the author's link (before the run) sees the edited cell too.
  const reader = await open(browser, `${new URL(page.url()).origin}${new URL(page.url()).pathname}#${link}`);
  await reader.waitForFunction(() => {
    const c = document.querySelector('#kernel-memory input[data-buffer="0"][data-index="1"]');
    return c && c.value === '100';
  });
  assert.equal(await reader.inputValue('#kernel-args input[data-arg="s"]'), '5');
  await reader.close();
  await page.close();
});

test('an unset scalar is undefined in every result computed from it, with the reason naming it', async () => {
  const page = await kernelPage();
  await rendered(page, () => page.fill('#kernel-source', SOURCE));
  await page.waitForSelector('#kernel-args input[data-arg="s"]');
  await settled(page);
  await runToEnd(page);
  // `v = __shfl_down_sync(…) + s` with `s` set by nobody: undefined in every lane (never a
  // number picked for the user), the hover saying which parameter and how to set it.
  for (const lane of [0, 17, 31]) {
    const cell = `#kernel-vars tr[data-lane="${lane}"] td[data-var="v"]`;
    assert.equal((await page.textContent(cell)).trim(), 'undefined');
    const why = await page.getAttribute(cell, 'title');
    assert.match(why, /scalar parameter `s` is not set/);
    assert.match(why, /--arg s=VALUE/);
    assert.match(why, /page's `s` field/);
  }
  assert.match(await page.textContent('#kernel-diagnostics'), /`s` is not set: it is undefined in every lane/);
  await page.screenshot({ path: join(ARTIFACTS, 'kernel-unset-scalar.png'), fullPage: true });
  // Setting the field gives every lane a number: lane 0 reads d[1] = 1, plus s = 5.
  await rendered(page, () => page.getByLabel('s', { exact: true }).fill('5'));
  await settled(page);
  await runToEnd(page);
  assert.equal((await page.textContent('#kernel-vars tr[data-lane="0"] td[data-var="v"]')).trim(), '6');
  await page.close();
});

test('the dialect picker changes the lanes (HIP wave64) and says why; the link keeps it', async () => {
  const page = await kernelPage();
  await settled(page);
  // The opening Ascend seed: inferred from the source, 32 lanes.
  assert.match(await page.textContent('#kernel-dialect-from'), /runs as ascend · inferred/);
  assert.match(await page.textContent('#kernel-geometry'), /32 lanes per warp/);
  await rendered(page, () => page.selectOption('#kernel-dialect', 'hip'));
  await page.waitForFunction(() => /64 lanes per warp/.test(document.querySelector('#kernel-geometry').textContent));
  assert.match(await page.textContent('#kernel-dialect-from'), /runs as hip · the page's dialect picker/);
  // HIP wave32 through the lanes field.
  await rendered(page, () => page.fill('#kernel-lanes', '32'));
  await page.waitForFunction(() => /32 lanes per warp/.test(document.querySelector('#kernel-geometry').textContent));
  await rendered(page, () => page.fill('#kernel-lanes', ''));
  await page.waitForFunction(() => /64 lanes per warp/.test(document.querySelector('#kernel-geometry').textContent));
  await page.waitForTimeout(700);
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.view === 'kernel');
  await page.waitForFunction(() => /64 lanes per warp/.test(document.querySelector('#kernel-geometry').textContent));
  assert.equal(await page.inputValue('#kernel-dialect'), 'hip');
  await page.screenshot({ path: join(ARTIFACTS, 'kernel-dialect-hip.png') });
  // Back to auto: the source decides again.
  await rendered(page, () => page.selectOption('#kernel-dialect', ''));
  await page.waitForFunction(() => /32 lanes per warp/.test(document.querySelector('#kernel-geometry').textContent));
  await page.close();
});

// No sync mask here: HIP's `__shfl_down_sync` takes a 64-bit mask (its header's
// static_assert), so SOURCE's `0xffffffff` is refused once the dialect is HIP.
const SOURCE_BOTH = '__global__ void k(int* d, int s) {\n  int v = d[threadIdx.x] + s;\n  d[threadIdx.x] = v;\n}';

test('Back restores the previous arguments and dialect', async () => {
  const page = await kernelPage();
  await rendered(page, () => page.fill('#kernel-source', SOURCE_BOTH));
  await page.waitForSelector('#kernel-args input[data-arg="s"]');
  await settled(page);
  await rendered(page, () => page.getByLabel('s', { exact: true }).fill('5'));
  await settled(page);
  // Past the typing burst (BURST_MS = 600): the next change is a history entry of its own.
  await page.waitForTimeout(800);
  await rendered(page, () => page.selectOption('#kernel-dialect', 'hip'));
  await page.waitForFunction(() => /64 lanes per warp/.test(document.querySelector('#kernel-geometry').textContent));
  await page.goBack();
  await page.waitForFunction(() => /32 lanes per warp/.test(document.querySelector('#kernel-geometry').textContent));
  assert.equal(await page.inputValue('#kernel-dialect'), '');
  assert.equal(await page.inputValue('#kernel-args input[data-arg="s"]'), '5');
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#kernel-args input[data-arg="s"]')?.value === '');
  assert.match(await page.textContent('#kernel-diagnostics'), /scalar parameter `s` is not set/);
  await page.close();
});

test('the golden kernel link with inputs opens with its arguments, fill, edit and dialect', async () => {
  const golden = JSON.parse(readFileSync(new URL('./golden-lanes.json', import.meta.url), 'utf8')).links
    .find((g) => g.name.startsWith('kernel with its inputs'));
  assert.ok(golden, 'the golden kernel link with inputs');
  const page = await open(browser, `${PAGE_URL}#${golden.link}`);
  await page.waitForFunction(() => document.body.dataset.view === 'kernel');
  await page.waitForFunction(() => document.querySelector('#kernel-memory input[data-buffer="0"][data-index="1"]')?.value === '100');
  assert.equal(await page.inputValue('#kernel-args input[data-arg="s"]'), '5');
  assert.equal(await page.inputValue('#kernel-dialect'), 'cuda');
  // `k` is the source's only (so default) kernel.
  assert.match(await page.$eval('#kernel-entry', (e) => e.selectedOptions[0].textContent), /^k\b/);
  assert.equal(await cell(page, 3), '6');
  assert.match(await page.textContent('#kernel-dialect-from'), /runs as cuda · the page's dialect picker/);
  await runToEnd(page);
  // Lane 0: d[1] (100) + s (5); lane 31 keeps its own d[31] = 62, + 5.
  assert.equal(await laneVar(page, 0, 'v'), '105');
  assert.equal(await laneVar(page, 31, 'v'), '67');
  await page.close();
});
