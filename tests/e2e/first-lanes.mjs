// Time to first lanes: navigation → the page's first render (body.dataset.ready >= 1, the page
// contract), cold cache, beside a trivial page that draws one canvas, measured in the same run
// (alternating loads, so that both see the same machine load) and printed side by side; and a
// kernel link opened cold → its first trace (section#view-kernel leaves data-state="running").
// Also lists every .wasm each page fetched before its first render, with gzipped bytes.
//
//   bash scripts/build-web && node tests/e2e/first-lanes.mjs [DIST[,DIST…]] [RUNS]
//
// The primary figure is the page's own clock: `performance.now()` (ms from the navigation's
// start) when `data-ready` first reaches 1, and in the next frame's animation callback (the
// frame that shows it). Beside it, the script's wall clock from `goto` to the moment its
// predicate sees the render, with `goto` returning at the navigation's commit (`waitUntil:
// 'commit'`), not at the `load` event: the page renders before its `load` event
// (docs/benchmarks.md, "Time to first lanes", "Which clock"), so a wall clock that waited for
// `load` measured the page's remaining downloads, not its first lanes.
//
// DIST defaults to dist/, RUNS to 11 (medians). The script serves DIST itself on a loopback port
// with gzip (`gzip -9 -n`, the project's one gzipped measure: scripts/check-wasm-budget and
// scripts/build-web count the same bytes; KB = 1024 bytes), plus the trivial page at
// /__trivial.html. Several builds, comma-separated (e.g. main's dist/ and a branch's), are served
// each on its own port and loaded in turn with the trivial page (trivial, first, second, …,
// trivial, …), so that all see the same machine load; each gets its own lines and its difference
// to the one trivial median.
// Each load is a fresh Chromium profile (cold HTTP cache and code cache). docs/benchmarks.md keeps
// the figures.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const DISTS = (process.argv[2] ?? 'dist').split(',').map((d) => resolve(d));
const RUNS = Number(process.argv[3] ?? 11);
const ARGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.json': 'application/json', '.ts': 'text/plain',
};
// One canvas, drawn once, then the same contract as the page.
const TRIVIAL = `<!doctype html><html><head><meta charset="utf-8"><title>trivial</title></head>
<body><canvas id="c" width="640" height="200"></canvas><script>
const g = document.getElementById('c').getContext('2d');
for (let i = 0; i < 32; i += 1) { g.strokeRect(10 + i * 19, 20, 16, 16); g.fillText(String(i), 12 + i * 19, 60); }
document.body.dataset.ready = '1';
</script></body></html>`;

const cache = new Map();
function body(path) {
  if (!cache.has(path)) {
    const raw = path === '/__trivial.html' ? Buffer.from(TRIVIAL) : readFileSync(path);
    // `gzip -9 -n`: what scripts/check-wasm-budget counts, byte for byte.
    cache.set(path, { raw, gz: execFileSync('gzip', ['-9', '-n', '-c'], { input: raw, maxBuffer: 1 << 28 }) });
  }
  return cache.get(path);
}
/** A loopback server of `DIST` (and of the trivial page); resolves to its base URL. */
async function serve(DIST) {
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    let path;
    if (url.pathname === '/__trivial.html') path = url.pathname;
    else {
      path = normalize(join(DIST, decodeURIComponent(url.pathname)));
      if (!path.startsWith(DIST)) { res.writeHead(403).end(); return; }
      try { if (statSync(path).isDirectory()) path = join(path, 'index.html'); } catch { res.writeHead(404).end(); return; }
    }
    let b;
    try { b = body(path); } catch { res.writeHead(404).end(); return; }
    const gz = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    res.writeHead(200, {
      'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
      'Cache-Control': 'no-store',
      ...(gz ? { 'Content-Encoding': 'gzip' } : {}),
    });
    res.end(gz ? b.gz : b.raw);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  servers.push(server);
  return `http://127.0.0.1:${server.address().port}/`;
}
const servers = [];
const bases = [];
for (const d of DISTS) bases.push(await serve(d));
const base = bases[0];

// The page's own clock (the primary figure): `performance.now()` (ms from the navigation's
// start) when `body[data-ready]` first reaches 1, and in the next frame's animation callback
// (the frame that shows it): navigation → first render alone. The script's wall clock beside
// it also holds Playwright's round trips and the polling of its predicate.
const OWN_CLOCK = `new MutationObserver((_, o) => {
  if (Number(document.body?.dataset.ready ?? 0) < 1) return;
  o.disconnect();
  const ready = performance.now();
  requestAnimationFrame(() => { window.__firstLanes = { ready, frame: performance.now() }; });
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });`;

/** One cold load of `url`: ms from navigation to `done` (a page function; `goto` returns at the
 *  navigation's commit, so no wait for the `load` event is in it), the page's own clock
 *  (`OWN_CLOCK`), the .wasm fetched before it with their gzipped bytes, and the page's final
 *  URL. */
async function coldLoad(url, done, timeout = 60_000) {
  const profile = mkdtempSync(join(tmpdir(), 'crosslane-lanes-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: false, args: ARGS,
    viewport: { width: 1440, height: 1000 },
  });
  try {
    const page = await context.newPage();
    const wasm = [];
    let finished = false;
    page.on('request', (r) => {
      const name = new URL(r.url()).pathname.split('/').pop();
      if (!finished && name.endsWith('.wasm')) wasm.push(name);
    });
    await page.addInitScript(OWN_CLOCK);
    const start = Date.now();
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(done, null, { timeout, polling: 'raf' });
    const ms = Date.now() - start;
    finished = true;
    const own = await page.evaluate(() => window.__firstLanes ?? null);
    return { ms, own, wasm, href: page.url() };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const firstRender = () => Number(document.body.dataset.ready ?? 0) >= 1;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const gzKB = (dist, name) => (body(join(dist, name)).gz.length / 1024).toFixed(1);

// A kernel link: the default kernel's scenario, as the page writes it into its URL once the
// kernel view has shown its first frame.
async function kernelLink(base) {
  const profile = mkdtempSync(join(tmpdir(), 'crosslane-lanes-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: false, args: ARGS,
  });
  try {
    const page = await context.newPage();
    await page.goto(base);
    await page.waitForFunction(firstRender);
    await page.click('#tab-kernel');
    await page.waitForFunction(() => {
      const s = document.getElementById('view-kernel')?.dataset.state;
      return s && s !== 'running';
    }, null, { timeout: 60_000 });
    await page.waitForTimeout(500);
    return page.url();
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const trivial = [];
const trivialOwn = { ready: [], frame: [] };
const runs = DISTS.map((dist, i) => ({ dist, base: bases[i], lanes: [], ownReady: [], ownFrame: [], kernel: [], pageWasm: [], kernelWasm: [] }));
for (let k = 0; k < RUNS; k += 1) {
  const t = await coldLoad(`${base}__trivial.html`, firstRender);
  trivial.push(t.ms);
  if (t.own) { trivialOwn.ready.push(Math.round(t.own.ready)); trivialOwn.frame.push(Math.round(t.own.frame)); }
  for (const r of runs) {
    const got = await coldLoad(r.base, firstRender);
    r.lanes.push(got.ms);
    if (got.own) { r.ownReady.push(Math.round(got.own.ready)); r.ownFrame.push(Math.round(got.own.frame)); }
    r.pageWasm = got.wasm;
  }
}
for (const r of runs) r.link = await kernelLink(r.base);
const firstTrace = () => {
  const s = document.getElementById('view-kernel')?.dataset.state;
  return s !== undefined && s !== 'running' && document.body.dataset.view === 'kernel';
};
for (let k = 0; k < RUNS; k += 1) {
  for (const r of runs) {
    const got = await coldLoad(r.link, firstTrace);
    r.kernel.push(got.ms);
    r.kernelWasm = got.wasm;
  }
}
for (const s of servers) s.close();

const row = (name, xs) => `${name.padEnd(34)} median ${String(median(xs)).padStart(5)} ms  (min ${Math.min(...xs)}, max ${Math.max(...xs)})`;
const list = (r, names) => names.map((w) => `${w} (${gzKB(r.dist, w)} KB gz)`).join(', ') || 'none';
const own = (xs, ys) => (xs.length ? `data-ready ${median(xs)} ms, its frame ${median(ys)} ms` : 'none');
const diff = (a, b) => (a.length && b.length ? `${median(a) - median(b)} ms` : '?');
console.log(`cold loads, ${RUNS} each, headless Chromium, loopback with gzip -9 -n, ${new Date().toISOString()}`);
console.log('first lanes, medians: the page\'s own clock (navigation → data-ready ≥ 1; primary) | wall clock (goto, commit → render seen)');
console.log(`${'trivial page (one canvas)'.padEnd(34)} own clock: ${own(trivialOwn.ready, trivialOwn.frame)} | wall ${median(trivial)} ms (min ${Math.min(...trivial)}, max ${Math.max(...trivial)})`);
for (const r of runs) {
  if (runs.length > 1) console.log(`--- ${r.dist}`);
  console.log(`${'crosslane default page, first lanes'.padEnd(34)} own clock: ${own(r.ownReady, r.ownFrame)} | wall ${median(r.lanes)} ms (min ${Math.min(...r.lanes)}, max ${Math.max(...r.lanes)})`);
  console.log(`${''.padEnd(34)} difference: own clock ${diff(r.ownReady, trivialOwn.ready)} (its frame ${diff(r.ownFrame, trivialOwn.frame)}) | wall ${median(r.lanes) - median(trivial)} ms (target ≤ 150)`);
  console.log(row('kernel link, first trace (wall)', r.kernel));
  console.log(`${''.padEnd(34)} (target ≤ 1000 ms)`);
  console.log(`wasm before the default page's first render: ${list(r, r.pageWasm)}`);
  console.log(`wasm before a kernel link's first trace: ${list(r, r.kernelWasm)}`);
  console.log(`kernel link: ${r.link.slice(0, 100)}…`);
}
