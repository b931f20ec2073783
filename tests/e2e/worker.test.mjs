// End-to-end test of the kernel worker: the interpreter runs in a Web Worker, so an
// endless loop with a huge budget leaves the page answering, Cancel stops it and keeps the steps
// it ran, stepping back shows what stepping forward showed, a worker that stops
// answering is replaced by the watchdog, a keystroke costs at most 50 ms even with a large launch,
// and large memory and diagnostic lists stay small in the DOM.
//
// Serve the built page first (see lib.mjs), then:
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/worker.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, launch, open, rendered, showView } from './lib.mjs';

let browser;
before(async () => { browser = await launch({ width: 1440, height: 1100 }); });
after(async () => { await browser?.close(); });

const state = (page) => page.$eval('#view-kernel', (s) => s.dataset.state);
const settled = (page, timeout = 15000) => page.waitForFunction(
  () => document.querySelector('#view-kernel').dataset.state !== 'running', null, { timeout });

async function kernelPage() {
  const page = await open(browser);
  await showView(page, 'kernel');
  await settled(page);
  return page;
}

async function slideTo(page, pos) {
  await rendered(page, () =>
    page.$eval('#kernel-slider', (s, p) => {
      s.value = String(p);
      s.dispatchEvent(new Event('input', { bubbles: true }));
    }, pos));
}

async function setSource(page, text) {
  await rendered(page, () => page.fill('#kernel-source', text));
  await settled(page);
}

test('the kernel runs in a worker: an endless loop with a huge budget leaves the page answering, and Cancel stops it', async () => {
  const page = await kernelPage();
  assert.equal(await page.$eval('#view-kernel', (s) => s.dataset.worker), 'worker');
  await setSource(page, '__global__ void k(int* a) {\n  int x = 0;\n  while (1) { x = x + 1; }\n}\n');
  // A budget of 10^9 units of work, the page's ceiling: minutes of interpreting. The trace grows
  // about 128 MB in 1.3 s on an idle machine, so the memory budget is raised too (1 GiB, the
  // page's ceiling: far more than the few seconds this test runs), or the run would stop by
  // itself before Cancel is clicked.
  await page.click('details.kernel-budgets summary');
  await rendered(page, () => page.fill('#kernel-max-work', '1000000000'));
  await settled(page);
  await rendered(page, () => page.fill('#kernel-max-memory', '1073741824'));
  await settled(page);
  await page.click('#kernel-run');
  assert.equal(await state(page), 'running');
  assert.equal(await page.$eval('#kernel-cancel', (b) => b.hidden), false);
  // Progress arrives and the page answers at once, again and again.
  await page.waitForFunction(() => /running… \d+ steps so far/.test(document.querySelector('#kernel-status').textContent));
  for (let k = 0; k < 5; k++) {
    const t0 = Date.now();
    assert.equal(await page.evaluate(() => 6 * 7), 42);
    assert.ok(Date.now() - t0 < 1000, `evaluate answered in ${Date.now() - t0} ms`);
    await page.waitForTimeout(200);
  }
  const before = await page.$eval('#kernel-status', (e) => e.textContent);
  await page.waitForTimeout(500);
  assert.notEqual(await page.$eval('#kernel-status', (e) => e.textContent), before, 'progress moves on');
  await page.click('#kernel-cancel');
  await settled(page);
  assert.equal(await state(page), 'idle');
  // The worker stopped between two slices and kept the steps it ran.
  const status = await page.textContent('#kernel-status');
  const ran = Number(status.match(/^cancelled after ([1-9]\d*) steps: the steps run so far are kept/)?.[1]);
  assert.ok(ran > 0, status);
  assert.equal(await page.$eval('#kernel-cancel', (b) => b.hidden), true);
  assert.equal(await page.$eval('#kernel-slider', (s) => Number(s.max)), ran);
  assert.equal(await page.$eval('#kernel-slider', (s) => Number(s.value)), ran);
  assert.match(await page.textContent('#kernel-position'), new RegExp(`^step ${ran} / ${ran} · line [34]`));
  // Back one step and forward again: the same lane table. `x` counts the additions so far.
  const xAtEnd = Number(await page.textContent('#kernel-vars tr[data-lane="0"] td[data-var="x"]'));
  assert.ok(xAtEnd > 0);
  const tableAtEnd = await page.innerHTML('#kernel-vars');
  await rendered(page, () => page.click('#kernel-back'));
  assert.match(await page.textContent('#kernel-position'), new RegExp(`^step ${ran - 1} / ${ran} `));
  await rendered(page, () => page.click('#kernel-step'));
  assert.equal(await page.innerHTML('#kernel-vars'), tableAtEnd);
  await rendered(page, () => page.click('#kernel-reset'));
  await settled(page);
  // The fresh worker serves the next run.
  await rendered(page, () => page.fill('#kernel-max-work', '5000'));
  await settled(page);
  await page.click('#kernel-run');
  await settled(page);
  assert.equal(await state(page), 'stopped');
  assert.match(await page.textContent('#kernel-status'), /work limit of 5000 .*reached/);
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});

// Two warps; thread t adds the value of thread t ^ 1 twice (CUDA __shfl_xor_sync), then the
// even threads store it: out[t] = 2 (t + (t ^ 1)), the odd cells keep their fill (t).
const XOR_TWICE = `__global__ void k(unsigned *out) {
    unsigned v = threadIdx.x;
    for (int i = 0; i < 2; i++) {
        v += __shfl_xor_sync(0xffffffff, v, 1);
    }
    if (threadIdx.x % 2 == 0) {
        out[threadIdx.x] = v;
    }
}
`;

/** What a position shows: the lane table, the mask, the memory, the call drawn. */
const shownAt = (page) => page.evaluate(() => ({
  // Less the steps recorded so far, which grow on the way forward.
  position: document.querySelector('#kernel-position').textContent
    .replace(/ \/ \d+/, '').replace(/ · \d+ recorded$/, ''),
  vars: document.querySelector('#kernel-vars').innerHTML,
  mask: document.querySelector('#kernel-mask').innerHTML,
  memory: document.querySelector('#kernel-memory').innerHTML,
  op: document.querySelector('#kernel-canvas').dataset.op ?? '',
}));

/** Cell `index` of the first buffer: an input before the first step, text after. */
const memoryCell = (page, index) => page.$eval(
  `#kernel-memory td[data-buffer="0"][data-index="${index}"]`,
  (td) => td.querySelector('input')?.value ?? td.textContent,
);

test('stepping back shows what stepping forward showed (every position replayed from a checkpoint)', async () => {
  const page = await kernelPage();
  await setSource(page, XOR_TWICE);
  await rendered(page, () => page.fill('#kernel-threads', '64'));
  await settled(page);
  // Forward, one statement at a time, to the end.
  const forward = [await shownAt(page)];
  for (;;) {
    await rendered(page, () => page.click('#kernel-step'));
    const now = await shownAt(page);
    if (now.position === forward[forward.length - 1].position) break;
    forward.push(now);
  }
  const n = forward.length - 1;
  assert.ok(n >= 16, `${n} steps`);
  assert.equal(await state(page), 'finished');
  // out[2] = 2 (2 + 3) = 10 and out[34] = 2 (34 + 35) = 138; out[3] keeps its fill.
  assert.equal(await memoryCell(page, 2), '10');
  assert.equal(await memoryCell(page, 34), '138');
  assert.equal(await memoryCell(page, 3), '3');
  // Back, one step at a time, to the start: each position as it was on the way forward.
  for (let k = n - 1; k >= 0; k--) {
    await rendered(page, () => page.click('#kernel-back'));
    assert.deepEqual(await shownAt(page), forward[k], `position ${k}`);
    if (k === Math.floor(n / 2)) {
      await page.screenshot({ path: join(ARTIFACTS, 'kernel-step-back.png'), fullPage: true });
    }
  }
  assert.equal(await memoryCell(page, 2), '2');
  // The slider jumps anywhere.
  for (const k of [n, 3, n - 2, 1]) {
    await slideTo(page, k);
    assert.deepEqual(await shownAt(page), forward[k], `jump to ${k}`);
  }
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});

test('a long run steps back and forward through the same states', async () => {
  const page = await kernelPage();
  await setSource(page, XOR_TWICE.replace('i < 2', 'i < 300'));
  await rendered(page, () => page.fill('#kernel-threads', '256'));
  await settled(page);
  await page.click('#kernel-run');
  await settled(page, 60000);
  assert.equal(await state(page), 'finished');
  const len = await page.$eval('#kernel-slider', (s) => Number(s.max));
  assert.ok(len > 4000, `${len} steps`);
  const mid = Math.floor(len / 2) + 7;
  await slideTo(page, mid);
  const there = await shownAt(page);
  assert.match(there.position, new RegExp(`^step ${mid} · line \\d+ · block 0 warp \\d`));
  await rendered(page, () => page.click('#kernel-back'));
  assert.match((await shownAt(page)).position, new RegExp(`^step ${mid - 1} `));
  await rendered(page, () => page.click('#kernel-step'));
  assert.deepEqual(await shownAt(page), there);
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});

test('a worker that stops answering is replaced by the watchdog, which says so', async () => {
  // Messages to the first worker are swallowed once the test says so: from the page it looks
  // exactly like a worker stuck in wasm (no progress, no answer).
  await browser.context.addInitScript(() => {
    const Real = window.Worker;
    let made = 0;
    window.Worker = class extends Real {
      constructor(url, options) { super(url, options); this.nth = made++; }
      postMessage(m) { if (this.nth === 0 && window.hangFirstWorker) return; super.postMessage(m); }
    };
  });
  const page = await kernelPage();
  await page.evaluate(() => { window.hangFirstWorker = true; });
  await page.click('#kernel-run');
  assert.equal(await state(page), 'running');
  const t0 = Date.now();
  await settled(page, 30000);
  const took = Date.now() - t0;
  assert.ok(took >= 4000 && took < 20000, `replaced after ${took} ms`);
  assert.match(await page.textContent('#kernel-status'),
    /^the kernel worker did not answer for \d+ s, so it was stopped and a fresh one started · ready/);
  // The fresh worker runs the kernel: the seed's reduce-sum ends with 496 in lane 0.
  await page.click('#kernel-run');
  await settled(page);
  assert.equal(await state(page), 'finished');
  assert.equal(await page.textContent('#kernel-vars tr[data-lane="0"] td[data-var="value"]'), '496');
  await page.close();
});

test('a keystroke costs at most 50 ms with a 64 x 1024 launch; memory and diagnostics stay paged', async () => {
  const page = await kernelPage();
  await setSource(page, '__global__ void k(int* a) {\n  int u;\n  a[threadIdx.x + blockIdx.x * blockDim.x] = u;\n}\n');
  await rendered(page, () => page.fill('#kernel-blocks', '64'));
  await settled(page);
  await rendered(page, () => page.fill('#kernel-threads', '1024'));
  await settled(page);
  assert.match(await page.textContent('#kernel-geometry'), /64 block\(s\) × 1024 threads/);
  // 65536 cells in `a`; one page of 256 shown, with a pager.
  assert.equal(await page.$$eval('#kernel-memory input', (c) => c.length), 256);
  assert.match(await page.textContent('#kernel-memory tr.pager'), /cells 0–255 of 65536 \(page 1 of 256\)/);
  await rendered(page, () => page.click('#kernel-memory button.mem-page[data-page="255"]'));
  assert.ok(await page.$('#kernel-memory input[aria-label="a[65535]"]'));
  assert.equal(await page.$$eval('#kernel-memory input', (c) => c.length), 256);

  // Typing: each keystroke's work on the main thread — its `input` handler, then the animation
  // frame that highlights — stays under 50 ms; the parse runs in the worker afterwards.
  const costs = await page.evaluate(async () => {
    const area = document.querySelector('#kernel-source');
    const out = [];
    for (const ch of '// typed') {
      const t0 = performance.now();
      area.setRangeText(ch, area.value.length, area.value.length, 'end');
      area.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: ch }));
      const handler = performance.now() - t0;
      // This callback runs after the page's own callbacks of the same frame: the time since the
      // frame started is what the page spent in it.
      const frame = await new Promise((r) => requestAnimationFrame((start) => r(performance.now() - start)));
      out.push(Math.round(handler + frame));
    }
    return out;
  });
  assert.ok(costs.every((ms) => ms <= 50), `keystroke costs (ms): ${costs}`);
  await settled(page);
  assert.match(await page.inputValue('#kernel-source'), /\/\/ typed$/);
  assert.doesNotMatch(await page.textContent('#kernel-status'), /did not answer/);

  // A run of 2048 warps reading an uninitialized variable: diagnostics merged, at most 200 items.
  await page.click('#kernel-run');
  await settled(page, 60000);
  const items = await page.$$eval('#kernel-diagnostics li', (l) => l.length);
  assert.ok(items >= 1 && items <= 201, `${items} diagnostic items`);
  assert.ok(await page.$$eval('#kernel-vars tbody tr', (r) => r.length) <= 64);
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});

test('n = 2^20 random keys are walked in a worker: the page answers meanwhile, then all 210 stages show', async () => {
  const page = await open(browser);
  await showView(page, 'sort');
  await rendered(page, () => page.fill('#sort-values', ''));
  const t0 = Date.now();
  await page.fill('#sort-len', '1048576');
  // The warm worker can finish before this read: then the figures already show the result.
  assert.match(await page.textContent('#sort-figures'), /walking the network over 1048576 keys in a worker|^n = 1048576 · /);
  // The page answers at once while the worker walks 10^8 comparators.
  for (let k = 0; k < 3; k++) {
    const t = Date.now();
    assert.equal(await page.evaluate(() => 6 * 7), 42);
    assert.ok(Date.now() - t < 1000, `evaluate answered in ${Date.now() - t} ms`);
  }
  await page.waitForFunction(() => document.querySelector('#sort-canvas').dataset.len === '1048576',
    null, { timeout: 120000 });
  const data = await page.$eval('#sort-canvas', (c) => ({ ...c.dataset }));
  assert.equal(data.mode, 'plot');
  // m = 20: m(m+1)/2 stages and (m² − m + 4)·2^(m−2) − 1 comparators (Knuth 5.3.4).
  assert.equal(data.stages, String((20 * 21) / 2));
  assert.equal(data.comparators, String((20 * 20 - 20 + 4) * 2 ** 18 - 1));
  assert.match(await page.textContent('#sort-verify'), /output = sort_unstable ✔/);
  console.log(`# 2^20 keys walked in a worker in ${Date.now() - t0} ms`);
  // Stepping the received run happens on the page, at once.
  await rendered(page, () => page.fill('#sort-slider', '210'));
  assert.match(await page.textContent('#sort-counters tr.current'), /100\.00%/);
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});

// The sort worker's Cancel and watchdog (as the kernel run's): the last run stays.
async function sortPage() {
  const page = await open(browser);
  await showView(page, 'sort');
  await rendered(page, () => page.fill('#sort-values', ''));
  await rendered(page, () => page.fill('#sort-len', '300'));
  assert.equal(await page.getAttribute('#sort-canvas', 'data-len'), '300');
  assert.equal(await page.isVisible('#sort-cancel'), false, 'no cancel without a walk in a worker');
  return page;
}

test('a walk of 2^20 keys in the sort worker can be cancelled: the last run stays', async () => {
  const page = await sortPage();
  // The input and the click in one task: the view's warm worker walks 2^20 keys in a few hundred
  // ms or less, which a click sent separately might come after.
  const during = await page.evaluate(() => {
    const len = document.querySelector('#sort-len');
    len.value = '1048576';
    len.dispatchEvent(new Event('input', { bubbles: true }));
    const seen = {
      figures: document.querySelector('#sort-figures').textContent,
      cancel: !document.querySelector('#sort-cancel').hidden,
    };
    document.querySelector('#sort-cancel').click();
    return seen;
  });
  assert.match(during.figures, /walking the network over 1048576 keys in a worker/);
  assert.equal(during.cancel, true);
  assert.equal(await page.isVisible('#sort-cancel'), false);
  assert.match(await page.textContent('#sort-job'), /^cancelled/);
  // The run of 300 keys is shown again (n = 300: m = 9, m(m+1)/2 = 45 stages).
  assert.match(await page.textContent('#sort-figures'), /^n = 300 · /);
  // The walk is gone: no 2^20 result arrives later.
  await page.waitForTimeout(4000);
  assert.equal(await page.getAttribute('#sort-canvas', 'data-len'), '300');
  assert.equal(await page.getAttribute('#sort-canvas', 'data-stages'), '45');
  // A new input walks again, and its result replaces the message.
  await rendered(page, () => page.fill('#sort-len', '512'));
  assert.equal(await page.getAttribute('#sort-canvas', 'data-len'), '512');
  assert.equal(await page.textContent('#sort-job'), '');
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});

test('the sort worker\'s watchdog stops a walk that does not answer in time', async () => {
  const page = await sortPage();
  // The watchdog's limit, shortened for the test (page contract: #sort-cancel[data-watchdog-ms]):
  // no worker walks 2^20 keys in 1 ms (the view's warm worker takes 150–300 ms on an idle machine).
  await page.$eval('#sort-cancel', (b) => b.setAttribute('data-watchdog-ms', '1'));
  await page.fill('#sort-len', '1048576');
  await page.waitForFunction(() => /^stopped: /.test(document.querySelector('#sort-job').textContent));
  assert.match(await page.textContent('#sort-job'), /did not answer in 1 ms/);
  assert.equal(await page.isVisible('#sort-cancel'), false);
  await page.waitForTimeout(3000);
  assert.equal(await page.getAttribute('#sort-canvas', 'data-len'), '300');
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});
