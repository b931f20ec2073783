// Where one interaction's long tasks spend their time: records a Chrome trace (CDP Tracing,
// devtools.timeline) around the interaction and prints, for every main-thread task over 15 ms,
// the time of the events inside it by name (FunctionCall = script, Layout, UpdateLayoutTree =
// style, ParseHTML, Paint, …). A forced layout shows as Layout inside the FunctionCall's task.
// Not a test (tracing inflates every figure); the companion of longtask-bench.mjs.
//
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node tests/e2e/longtask-trace.mjs WHAT
// WHAT: tab:VIEW (first open of a view tab), maca:BUILTIN, kernel:EXAMPLE_FILE, sort:N
import { launch, open, rendered, showView } from './lib.mjs';

const what = process.argv[2] ?? 'tab:reference';
const [kind, ...rest] = what.split(':');
const arg = rest.join(':');
const browser = await launch();
const page = await open(browser);
const cdp = await page.context().newCDPSession(page);
if (['maca', 'sort', 'kernel'].includes(kind)) await showView(page, kind);
if (kind === 'sort') await rendered(page, () => page.fill('#sort-values', ''));
await page.waitForTimeout(300);
const events = [];
cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
await cdp.send('Tracing.start', {
  categories: 'devtools.timeline,disabled-by-default-devtools.timeline',
  transferMode: 'ReportEvents',
});
if (kind === 'tab') await showView(page, arg);
else if (kind === 'maca') await rendered(page, () => page.selectOption('select#maca-op', arg));
else if (kind === 'kernel') await rendered(page, () => page.selectOption('select#kernel-examples', arg));
else if (kind === 'sort') await rendered(page, () => page.fill('#sort-len', arg), 60000);
else throw new Error(`unknown interaction ${what}`);
await page.waitForTimeout(500);
await cdp.send('Tracing.end');
await done;
for (const t of events.filter((e) => e.name === 'RunTask' && e.dur > 15000)) {
  const inside = events.filter((e) => e.pid === t.pid && e.tid === t.tid && e.dur
    && e.ts >= t.ts && e.ts < t.ts + t.dur && e.name !== 'RunTask');
  const sum = new Map();
  for (const e of inside) sum.set(e.name, (sum.get(e.name) ?? 0) + e.dur);
  const top = [...sum].sort((a, b) => b[1] - a[1]).slice(0, 10)
    .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`).join(', ');
  console.log(`task ${(t.dur / 1000).toFixed(1)} ms (thread ${t.tid}): ${top}`);
}
await browser.close();
