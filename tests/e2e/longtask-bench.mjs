// Main-thread long tasks (PerformanceObserver 'longtask': tasks over 50 ms) for every interaction
// of the page (no task may take 50 ms or more; docs/benchmarks.md) — each view tab the first time and on return, every builtin of the MACA
// view, every kernel example, the reference tab, the sort view at n = 256 and 2^20 (with the time
// to its result), and typing in the kernel editor with a 64 × 1024 launch — with Chromium's
// script / layout / style time for each (CDP Performance metrics). Prints one table row per
// interaction, flagged "> 50 ms" where a task ran longer, and a summary by group.
//
// Not a test (its name does not end in .test.mjs, so `node --test` skips it): the figures depend
// on the machine; docs/benchmarks.md "Page responsiveness" reports them. Run it on the built page:
//
//   bash scripts/build-web && python3 scripts/static-server.py dist 0   # prints the URL
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node tests/e2e/longtask-bench.mjs [SECTION ...]
//
// SECTIONs (default: all): tabs, reference, maca, kernel, typing, sort.
import { launch, open, rendered, showView } from './lib.mjs';

const LIMIT = 50;
const sections = process.argv.slice(2);
const want = (section) => sections.length === 0 || sections.includes(section);
const browser = await launch();
const page = await open(browser);
await page.evaluate(() => {
  window.__long = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); })
    .observe({ type: 'longtask', buffered: false });
});
const cdp = await page.context().newCDPSession(page);
await cdp.send('Performance.enable');
const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
const rows = [];

/** Runs `action`, waits 300 ms for the frames it causes, and records its long tasks. */
async function measure(group, name, action) {
  await page.evaluate(() => { window.__long = []; });
  const m0 = await metrics();
  const t0 = Date.now();
  await action();
  const wall = Date.now() - t0;
  await page.waitForTimeout(300);
  const long = (await page.evaluate(() => window.__long)).map(Math.round);
  const m1 = await metrics();
  const d = (k) => Math.round((m1[k] - m0[k]) * 1000);
  rows.push({
    group, name, wall, long, worst: Math.max(0, ...long),
    script: d('ScriptDuration'), layout: d('LayoutDuration'), style: d('RecalcStyleDuration'),
  });
}

for (const v of want('tabs') ? ['compare', 'kernel', 'sort', 'maca', 'reference', 'op'] : []) {
  await measure('tab, first open', `tab ${v}`, async () => {
    await showView(page, v);
    if (v === 'reference') await page.waitForSelector('#reference[data-count]');
  });
}
for (const v of want('tabs') ? ['compare', 'kernel', 'sort', 'maca', 'reference', 'op'] : []) {
  await measure('tab, return', `tab ${v} again`, () => showView(page, v));
}
if (want('reference')) {
  await showView(page, 'reference');
  await page.waitForSelector('#reference[data-count]');
  await measure('reference', 'reference search "shfl"', () => rendered(page, () => page.fill('#reference-search', 'shfl')));
  await measure('reference', 'reference search cleared', () => rendered(page, () => page.fill('#reference-search', '')));
}

if (want('maca')) {
  await showView(page, 'maca');
  const builtins = await page.$$eval('select#maca-op option', (o) => o.map((x) => x.value));
  for (const op of builtins) {
    await measure('MACA builtin', `maca ${op}`, () => rendered(page, () => page.selectOption('select#maca-op', op)));
  }
}
if (want('kernel')) {
  await showView(page, 'kernel');
  const kernels = await page.$$eval('select#kernel-examples option', (o) => o.map((x) => x.value).filter(Boolean));
  for (const k of kernels) {
    await measure('kernel example', `kernel example ${k}`, () => rendered(page, () => page.selectOption('select#kernel-examples', k)));
  }
}

// Typing with a 64 × 1024 launch (65536 threads): each keystroke, then the worker's parse answer.
const settled = () => page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state !== 'running', null, { timeout: 60000 });
if (want('typing')) {
  await showView(page, 'kernel');
  await rendered(page, () => page.fill('#kernel-blocks', '64'));
  await settled();
  await rendered(page, () => page.fill('#kernel-threads', '1024'));
  await settled();
  await page.click('#kernel-source');
  await page.keyboard.press('Control+End');
  await measure('kernel typing', 'type "// typed" (64 x 1024 launch)', async () => {
    await page.keyboard.type('// typed', { delay: 60 });
    await page.waitForTimeout(600);
    await settled();
  });
}

if (want('sort')) {
  await showView(page, 'sort');
  await rendered(page, () => page.fill('#sort-values', ''));
  await measure('sort', 'sort n=256', () => rendered(page, () => page.fill('#sort-len', '256')));
  // The first walk of 2^20 keys, then two more from other seeds (the view's worker is kept warm).
  const walked = (seed) => page.waitForFunction((seed) => {
    const c = document.querySelector('#sort-canvas');
    return c.dataset.len === '1048576' && document.querySelector('#sort-seed').value === seed
      && !/walking/.test(document.querySelector('#sort-figures').textContent);
  }, seed, { timeout: 120000 });
  await measure('sort', 'sort n=2^20 (to its result)', async () => {
    await page.fill('#sort-len', String(2 ** 20));
    await walked(await page.inputValue('#sort-seed'));
  });
  await measure('sort', 'sort n=2^20 step to the end', () => rendered(page, () => page.click('#sort-end')));
  for (const seed of ['2', '3']) {
    await measure('sort', `sort n=2^20, seed ${seed} (to its result)`, async () => {
      await page.fill('#sort-seed', seed);
      await walked(seed);
    });
  }
}
await browser.close();

// ---- the table ------------------------------------------------------------------------------
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const width = Math.max(...rows.map((r) => r.name.length));
console.log(`${pad('interaction', width)}  ${lpad('worst', 6)}  ${lpad('wall', 6)}  ${lpad('script', 6)}  ${lpad('layout', 6)}  ${lpad('style', 6)}  long tasks (ms)`);
for (const r of rows) {
  const flag = r.worst > LIMIT ? `> ${LIMIT} ms` : '';
  console.log(`${pad(r.name, width)}  ${lpad(r.worst || '-', 6)}  ${lpad(r.wall, 6)}  ${lpad(r.script, 6)}  ${lpad(r.layout, 6)}  ${lpad(r.style, 6)}  ${pad(JSON.stringify(r.long), 16)} ${flag}`);
}
console.log('\nby group (worst task; "-" = no task over 50 ms):');
for (const g of [...new Set(rows.map((r) => r.group))]) {
  const of = rows.filter((r) => r.group === g);
  const worst = Math.max(0, ...of.map((r) => r.worst));
  const over = of.filter((r) => r.worst > LIMIT).length;
  console.log(`${pad(g, 18)} ${lpad(worst || '-', 6)} ms   ${over} of ${of.length} interactions with a task > ${LIMIT} ms`);
}
