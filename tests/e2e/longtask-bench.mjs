// Main-thread long tasks (PerformanceObserver 'longtask': tasks over 50 ms) for the interactions of
// issue 17 item 8 — each view tab, the first time and again, MACA builtins, the sort view at
// n = 256 and 2^20 — with Chromium's script / layout / style time for each (CDP Performance
// metrics). Not a test (its name does not end in .test.mjs, so `node --test` skips it): the
// figures depend on the machine; README.md "The page" reports them.
//
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node tests/e2e/longtask-bench.mjs
import { launch, open, rendered, showView } from './lib.mjs';

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
async function measure(name, action) {
  await page.evaluate(() => { window.__long = []; });
  const m0 = await metrics();
  const t0 = Date.now();
  await action();
  await page.waitForTimeout(300);
  const long = await page.evaluate(() => window.__long);
  const m1 = await metrics();
  const d = (k) => Math.round((m1[k] - m0[k]) * 1000);
  console.log(`${name}: wall ${Date.now() - t0 - 300} ms, long tasks ${JSON.stringify(long.map(Math.round))} script ${d('ScriptDuration')} layout ${d('LayoutDuration')} style ${d('RecalcStyleDuration')} nodes ${m1.Nodes}`);
}
for (const v of ['compare', 'kernel', 'sort', 'maca', 'reference', 'op']) {
  await measure(`tab ${v}`, () => showView(page, v));
}
await measure('tab reference again', () => showView(page, 'reference'));
await showView(page, 'maca');
const opts = await page.$$eval('select#maca-op option', (o) => o.map((x) => x.value));
for (const op of opts.slice(0, 40).filter((_, i) => i % 8 === 0)) {
  await measure(`maca ${op}`, () => rendered(page, () => page.selectOption('select#maca-op', op)));
}
await showView(page, 'kernel');
const kernels = await page.$$eval('select#kernel-examples option', (o) => o.map((x) => x.value));
for (const k of kernels.filter((k) => /maca/i.test(k))) {
  await measure(`kernel example ${k}`, () => rendered(page, () => page.selectOption('select#kernel-examples', k)));
}
await showView(page, 'sort');
await measure('sort n=256', () => rendered(page, () => page.fill('#sort-len', '256')));
await measure('sort n=2^20', () => rendered(page, () => page.fill('#sort-len', String(2 ** 20)), 60000));
await browser.close();
