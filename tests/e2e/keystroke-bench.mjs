// Main-thread long tasks (PerformanceObserver 'longtask': tasks over 50 ms) while typing ten
// characters into the kernel editor holding a 1 MiB source: a source over the editor's plain-text
// threshold (512 KiB or 5 000 lines, src/views/kernel/highlight.rs) is shown in the textarea
// itself, its gutter rewritten only when its line count changes, and its parse runs in the
// worker after a pause; so a keystroke should cost the main thread well under 50 ms.
//
// Not a test (its name does not end in .test.mjs): the figures depend on the machine;
// docs/benchmarks.md "Page responsiveness" reports them. Run it on the built page:
//
//   bash scripts/build-web && python3 scripts/static-server.py dist 0   # prints the URL
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node tests/e2e/keystroke-bench.mjs [BYTES]
import { launch, open, PAGE_URL } from './lib.mjs';

const bytes = Number(process.argv[2] ?? 1 << 20);
const browser = await launch();
const page = await open(browser, PAGE_URL);
await page.click('#tab-kernel');
await page.waitForSelector('#kernel-source');
await page.waitForFunction(() => document.querySelector('#view-kernel')?.dataset.state !== 'running', null, { timeout: 30000 });
const line = '    acc = acc * 2654435761u + (__shfl_xor_sync(0xffffffff, acc, 5) ^ lane) + i;\n';
const body = line.repeat(Math.ceil(bytes / line.length));
const source = `__global__ void k(unsigned* out) {\n  unsigned acc = 0, lane = threadIdx.x, i = 0;\n${body}  out[lane] = acc;\n}\n`;
await page.evaluate((s) => {
  const t = document.querySelector('#kernel-source');
  t.value = s;
  t.dispatchEvent(new Event('input', { bubbles: true }));
}, source);
// The paste's own highlight, parse and first frame are not what is measured.
await page.waitForTimeout(8000);
await page.evaluate(() => {
  window.longTasks = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longTasks.push(Math.round(e.duration)); })
    .observe({ type: 'longtask' });
  document.querySelector('#kernel-source').setSelectionRange(200, 200);
});
await page.focus('#kernel-source');
for (let k = 0; k < 10; k++) {
  await page.keyboard.type('x');
  await page.waitForTimeout(400);
}
await page.waitForTimeout(3000);
const tasks = await page.evaluate(() => window.longTasks);
console.log(`source ${source.length} bytes, 10 keystrokes: ${tasks.length} tasks of 50 ms or more${tasks.length ? ` (${tasks.join(', ')} ms)` : ''}`);
await browser.close();
