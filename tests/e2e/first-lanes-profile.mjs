// Where a cold load's time to first lanes goes: for each of RUNS cold loads of the default page
// (or of `?…`/`#…` appended to it), navigation-relative times in ms of the HTML's arrival,
// each stylesheet's, the glue's and the .wasm's (Resource Timing), DOMContentLoaded, the
// wasm's streaming compile and instantiation (WebAssembly.instantiateStreaming, wrapped by an
// init script), the page's first render (body.dataset.ready >= 1: the module's start, the views
// it mounts and the first drawing), the main thread's long tasks, and the `load` event, with
// every request still open at the first render (what the `load` event waits for after it:
// docs/benchmarks.md, "Which clock"). The last run is the one to read (the first pays the
// server's gzip of each file once).
//
//   bash scripts/build-web && node tests/e2e/first-lanes-profile.mjs [DIST] [SUFFIX] [RUNS]
//
// DIST defaults to dist/, RUNS to 3. Served like tests/e2e/first-lanes.mjs (loopback, gzip -9,
// no-store, each load a fresh Chromium profile). docs/benchmarks.md, "Time to first lanes",
// keeps what it showed.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const DIST = resolve(process.argv[2] ?? 'dist');
const SUFFIX = process.argv[3] ?? '';
const RUNS = Number(process.argv[4] ?? 3);
const ARGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.json': 'application/json',
};
const cache = new Map();
const server = createServer((req, res) => {
  let path = normalize(join(DIST, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
  if (!path.startsWith(DIST)) { res.writeHead(403).end(); return; }
  try { if (statSync(path).isDirectory()) path = join(path, 'index.html'); } catch { res.writeHead(404).end(); return; }
  // `gzip -9 -n`, as tests/e2e/first-lanes.mjs and scripts/check-wasm-budget count it.
  try { if (!cache.has(path)) cache.set(path, execFileSync('gzip', ['-9', '-n', '-c'], { input: readFileSync(path), maxBuffer: 1 << 28 })); } catch { res.writeHead(404).end(); return; }
  res.writeHead(200, {
    'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
    'Cache-Control': 'no-store', 'Content-Encoding': 'gzip',
  });
  res.end(cache.get(path));
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}/`;

// Runs in the page before its scripts: marks as [name, ms since navigation].
const INIT = `
window.__marks = [];
const mark = (n) => window.__marks.push([n, performance.now()]);
for (const name of ['compileStreaming', 'instantiateStreaming', 'instantiate']) {
  const f = WebAssembly[name];
  WebAssembly[name] = async function (...a) {
    mark(name + ' starts');
    const r = await f.apply(this, a);
    mark(name + ' done');
    return r;
  };
}
document.addEventListener('DOMContentLoaded', () => mark('DOMContentLoaded'));
window.addEventListener('load', () => mark('load event'));
new MutationObserver((_, o) => {
  if (Number(document.body?.dataset.ready ?? 0) >= 1) { mark('first render (data-ready)'); o.disconnect(); }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
new PerformanceObserver((l) => {
  for (const e of l.getEntries()) window.__marks.push(['long task ' + e.duration.toFixed(0) + ' ms from', e.startTime]);
}).observe({ type: 'longtask', buffered: true });
`;

for (let run = 0; run < RUNS; run += 1) {
  const profile = mkdtempSync(join(tmpdir(), 'crosslane-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: false, args: ARGS,
    viewport: { width: 1440, height: 1000 },
  });
  try {
    const page = await context.newPage();
    await page.addInitScript(INIT);
    await page.goto(base + SUFFIX);
    await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1, null,
      { polling: 'raf', timeout: 60_000 });
    await page.waitForLoadState('load');
    const got = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const rows = [['HTML arrived', nav.responseEnd]];
      const ready = (window.__marks.find(([n]) => n.startsWith('first render')) ?? [0, Infinity])[1];
      for (const r of performance.getEntriesByType('resource')) {
        const name = r.name.startsWith('data:') ? r.name.slice(0, 20) : r.name.split('/').pop();
        rows.push([`${name} (${r.initiatorType}) requested`, r.startTime]);
        rows.push([`${name} (${r.initiatorType}) arrived (${r.transferSize} B)${r.responseEnd > ready ? ': after the first render' : ''}`, r.responseEnd]);
      }
      return rows.concat(window.__marks);
    });
    console.log(`--- cold load ${run + 1} of ${RUNS}: ${base}${SUFFIX}`);
    for (const [name, ms] of got.sort((a, b) => a[1] - b[1])) {
      console.log(`${ms.toFixed(1).padStart(8)} ms  ${name}`);
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
server.close();
