// A first visit that explains itself: the first screen (what crosslane is, a moving default,
// a loading line with the module's size, the drawing on a phone's first screen), the kernel
// view keeping host code's word and taking decimal fills, the CUDA/HIP example kernels, the sort
// view's typed n, embeds without sideways scroll at every width, and the web components drawing
// dark on a dark host with readable text.
//
// Serve the release build first (scripts/build-web; see lib.mjs), then:
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/first-visit.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS, PAGE_URL, launch, open, rendered, showView } from './lib.mjs';

let browser;
before(async () => { browser = await launch({ width: 1440, height: 1000 }); });
after(async () => { await browser?.close(); });

const DEMO = new URL('demo.html', PAGE_URL).href;

test('the first screen says what crosslane is, opens on a CUDA butterfly and hides the loading line', async () => {
  const page = await open(browser);
  assert.match(await page.textContent('#start-here'), /which lane's value each lane of a warp reads/);
  assert.equal(await page.inputValue('select#dialect'), 'cuda');
  assert.equal(await page.inputValue('select#op'), '__shfl_xor_sync');
  // Lane mask 1: lane i reads lane i ^ 1 (CUDA Programming Guide, warp shuffle functions).
  assert.match(await page.textContent('#step-summary'), /__shfl_xor_sync/);
  assert.equal(await page.isHidden('#loading'), true);
  // The loading line's size is the build's: the module's gzipped size in KB, rounded up.
  const kb = await page.getAttribute('#loading', 'data-kb');
  const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
  // The page's first module (trunk's crosslane-web-*); the kernel engine is a module of its own.
  const gzKB = (prefix) => {
    const wasm = readdirSync(dist).find((f) => f.startsWith(prefix) && f.endsWith('_bg.wasm'));
    assert.ok(wasm, `dist/ has a ${prefix}*_bg.wasm`);
    // The project's one gzipped measure (`gzip -9 -n`, as scripts/build-web and
    // scripts/check-wasm-budget count it), so the page's figure is the budget's, byte for byte.
    return Math.ceil(execFileSync('gzip', ['-9', '-n', '-c', join(dist, wasm)], { maxBuffer: 1 << 28 }).length / 1024);
  };
  const model = gzKB('crosslane-web-');
  assert.match(kb, /^[0-9]+$/, `data-kb ${kb}: written by scripts/build-web`);
  assert.equal(Number(kb), model, `data-kb ${kb} vs gzip -9 -n's ${model} KB`);
  const engineKb = await page.getAttribute('#view-kernel', 'data-engine-kb');
  assert.match(engineKb, /^[0-9]+$/, `data-engine-kb ${engineKb}: written by scripts/build-web`);
  const engine = gzKB('crosslane-kernel-');
  assert.equal(Number(engineKb), engine, `data-engine-kb ${engineKb} vs gzip -9 -n's ${engine} KB`);
  await page.close();
});

test('the default page fetches only its first module; the kernel engine loads when the kernel view is first shown', async () => {
  const page = await browser.context.newPage();
  const wasm = [];
  const sheets = [];
  page.on('request', (r) => {
    if (r.url().endsWith('.wasm')) wasm.push(new URL(r.url()).pathname.split('/').pop());
    if (r.resourceType() === 'stylesheet') sheets.push(r.url());
  });
  await page.goto(PAGE_URL);
  await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
  // scripts/head-start: the stylesheet is in the page (no request before the first render), and
  // the module fetched by the head's script is the one the start-up script uses (one request).
  assert.deepEqual(sheets, [], `stylesheets requested: ${sheets.join(', ')}`);
  // Idle time: no prefetch of the engine follows the first render.
  await page.waitForTimeout(1500);
  assert.deepEqual(wasm.map((w) => w.replace(/-[0-9a-f]+_bg\.wasm$/, '')), ['crosslane-web'],
    `wasm fetched by the default page: ${wasm.join(', ')}`);
  // Shown: "loading the kernel engine… (N KB)" until the worker's first frame, then the kernel.
  const seen = page.waitForFunction(() => /^loading the kernel engine… \([0-9]+ KB\)$/.test(document.getElementById('kernel-status')?.textContent ?? ''), null, { polling: 'raf', timeout: 30_000 });
  await page.click('#tab-kernel');
  await seen;
  await page.waitForFunction(() => !['running', undefined].includes(document.getElementById('view-kernel').dataset.state), null, { timeout: 60_000 });
  assert.ok(wasm.some((w) => w.startsWith('crosslane-kernel-')), `the engine was fetched: ${wasm.join(', ')}`);
  assert.doesNotMatch(await page.textContent('#kernel-status'), /loading the kernel engine/);
  assert.ok(Number(await page.getAttribute('#kernel-slider', 'max')) >= 0);
  await page.close();
});

test('"Export as code" and the GPU check load the kernel engine on the first click, and say so while it loads', async () => {
  const page = await browser.context.newPage();
  const wasm = [];
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(new URL(r.url()).pathname.split('/').pop()); });
  await page.goto(PAGE_URL);
  await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
  assert.ok(!wasm.some((w) => w.startsWith('crosslane-kernel-')), `no engine before a click: ${wasm.join(', ')}`);
  // The code generator is in the engine: the first click says what loads, then downloads.
  const loading = page.waitForFunction(() => /^loading the code exporter \(the kernel engine, [0-9]+ KB\)…$/.test(document.getElementById('code-view')?.textContent ?? ''), null, { polling: 'raf', timeout: 30_000 });
  const download = page.waitForEvent('download', { timeout: 60_000 });
  await page.click('#export-code');
  await loading;
  await download;
  // The default scenario, CUDA __shfl_xor_sync with lane mask 1 (index.html's opening op).
  assert.match(await page.textContent('#code-view'), /__shfl_xor_sync\(0xffffffff, var, 1/);
  assert.equal(await page.getAttribute('#export-code', 'download'), 'crosslane.cu');
  assert.ok(wasm.some((w) => w.startsWith('crosslane-kernel-')), `the engine was fetched: ${wasm.join(', ')}`);
  // The GPU check's panel comes from the same (now loaded) module; without WebGPU it says why.
  await page.click('#gpu-toggle');
  await page.waitForFunction(() => ['done', 'error'].includes(document.querySelector('#gpu-panel')?.dataset.state), null, { timeout: 60_000 });
  assert.equal(await page.isVisible('#gpu-panel'), true);
  assert.equal(await page.getAttribute('#gpu-toggle', 'aria-pressed'), 'true');
  assert.deepEqual(errors, []);
  await page.close();
});

test('at 390 px the drawing is on the first screen, the controls folded above it', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(PAGE_URL);
  await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
  assert.equal(await page.getAttribute('#controls-toggle', 'aria-expanded'), 'false');
  const top = await page.$eval('#lane-canvas', (c) => c.getBoundingClientRect().top);
  assert.ok(top < 844 - 100, `the drawing starts at ${top} px of an 844 px screen`);
  await page.screenshot({ path: join(ARTIFACTS, 'first-visit-390.png') });
  await page.click('#controls-toggle');
  assert.equal(await page.getAttribute('#controls-toggle', 'aria-expanded'), 'true');
  assert.equal(await page.isVisible('select#op'), true);
  await page.close();
});

const HOST = '__global__ void scale(float* x, int n) {\n  int i = threadIdx.x;\n  if (i < n) x[i] = x[i] * 2.0f;\n}\n\nint main() {\n  float* x;\n  cudaMalloc(&x, 64 * sizeof(float));\n  int n = 64;\n  scale<<<1, 32>>>(x, n);\n  return 0;\n}\n';

async function kernelIdle(page) {
  await page.waitForFunction(() => ['idle', 'error'].includes(document.querySelector('#view-kernel').dataset.state));
}

test('the kernel view keeps host code\'s length and scalar, takes decimal fills, and marks a bad fill', async () => {
  const page = await open(browser);
  await showView(page, 'kernel');
  await page.waitForSelector('#kernel-source');
  await rendered(page, () => page.fill('#kernel-source', HOST));
  await page.waitForSelector('#kernel-args input[data-len="x"]');
  await kernelIdle(page);
  assert.match(await page.textContent('#kernel-fill-hint'), /i\*K\+C .*decimals/);
  // cudaMalloc(&x, 64 * sizeof(float)) at line 8; n = 64 passed by the launch at line 10.
  const hint = (sel) => page.$eval(sel, (i) => document.getElementById(i.getAttribute('aria-describedby')).textContent);
  assert.equal(await hint('#kernel-args input[data-len="x"]'), 'auto = 64, from cudaMalloc at line 8');
  assert.equal(await hint('#kernel-args input[data-arg="n"]'), 'empty = 64, from the launch at line 10');
  // A decimal ramp typed, length left on auto: still 64 cells; cell 3 = 3*0.25+0.5 = 1.25.
  await rendered(page, () => page.getByLabel('x fill').fill('i*0.25+0.5'));
  await kernelIdle(page);
  assert.equal(await page.$$eval('#kernel-memory input[data-buffer="0"]', (l) => l.length), 64);
  assert.equal(await page.inputValue('#kernel-memory input[data-buffer="0"][data-index="3"]'), '1.25');
  assert.equal(await hint('#kernel-args input[data-len="x"]'), 'auto = 64, from cudaMalloc at line 8');
  // A bad fill: the fill field is marked, the message names it and the grammar, no source line.
  await rendered(page, () => page.getByLabel('x fill').fill('i*zebra'));
  await page.waitForFunction(() => !document.getElementById('kernel-error').hidden);
  const error = await page.textContent('#kernel-error');
  assert.match(error, /^x fill: `i\*zebra` is not a fill: a fill is index, i\*K\+C/);
  assert.doesNotMatch(error, /line \d+/);
  assert.equal(await page.getAttribute('#kernel-args input[data-arg="x"]', 'aria-invalid'), 'true');
  await page.screenshot({ path: join(ARTIFACTS, 'first-visit-fill-error.png'), fullPage: true });
  await rendered(page, () => page.getByLabel('x fill').fill('-1.5'));
  await page.waitForFunction(() => document.getElementById('kernel-error').hidden);
  assert.equal(await page.getAttribute('#kernel-args input[data-arg="x"]', 'aria-invalid'), null);
  await page.close();
});

test('the CUDA and HIP example kernels run to their hand-derived results', async () => {
  const page = await open(browser);
  await showView(page, 'kernel');
  await page.waitForSelector('#kernel-examples');
  // file → [buffer index, cell, value]: sums by hand (see kernel_written.rs).
  const cases = {
    'cuda_warp_reduce_shfl_down.cu': [1, 0, '496'],
    'cuda_block_reduce_shared.cu': [1, 1, '6112'],
    'cuda_warp_aggregated_atomic.cu': [2, 0, '16'],
    'cuda_ballot_compaction.cu': [2, 0, '11'],
    'hip_wave64_reduce.hip': [1, 0, '2016'],
    'cuda_cg_tile_reduce.cu': [1, 1, '376'],
    'cuda_warp_argmax.cu': [1, 0, '13'],
    'cuda_moe_topk_router.cu': [1, 1, '2'],
  };
  for (const [file, [buffer, index, value]] of Object.entries(cases)) {
    const label = await page.$eval(`#kernel-examples option[value="${file}"]`, (o) => o.textContent);
    assert.match(label, /^(CUDA|HIP) · .+: .+/, `${file}: a one-line description`);
    await rendered(page, () => page.selectOption('#kernel-examples', file));
    await kernelIdle(page);
    await page.click('#kernel-run');
    await page.waitForFunction(() => ['finished', 'stopped', 'error'].includes(document.querySelector('#view-kernel').dataset.state), null, { timeout: 60_000 });
    assert.equal(await page.evaluate(() => document.querySelector('#view-kernel').dataset.state), 'finished', file);
    const got = await page.$eval(`#kernel-memory td[data-buffer="${buffer}"][data-index="${index}"]`,
      (td) => td.querySelector('input')?.value ?? td.textContent);
    assert.equal(Number(got.trim()), Number(value), `${file}: buffer ${buffer}[${index}] = ${got}`);
  }
  await page.close();
});

test('sort: a typed n is applied, the typed key list follows it', async () => {
  const page = await open(browser);
  await showView(page, 'sort');
  await page.waitForSelector('#sort-len');
  assert.notEqual(await page.inputValue('#sort-values'), '');
  await rendered(page, () => page.fill('#sort-len', '16'));
  assert.equal(await page.inputValue('#sort-values'), '');
  await page.waitForFunction(() => document.querySelector('[data-len]')?.dataset.len === '16');
  await page.close();
});

test('?embed never scrolls sideways from 320 to 1440 px: the controls wrap', async () => {
  const page = await browser.context.newPage();
  for (const width of [320, 390, 720, 1024, 1440]) {
    await page.setViewportSize({ width, height: 700 });
    await page.goto(`${PAGE_URL}?embed`);
    await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
    const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(over <= 0, `?embed at ${width} px scrolls sideways by ${over} px`);
    // Every control is inside the viewport (the type select was off-screen before).
    const outside = await page.$$eval('#controls select, #controls input', (els) => els
      .filter((e) => e.offsetParent && e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
      .map((e) => e.id));
    assert.deepEqual(outside, [], `${width} px: controls past the right edge`);
    if (width === 390) await page.screenshot({ path: join(ARTIFACTS, 'first-visit-embed-390.png') });
  }
  await page.close();
});

/** The drawing's text in each element's SVG against what it is drawn on: the lowest ratios. */
function svgContrast() {
  const rgb = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); return m ? m[1].split(/[ ,/]+/).filter(Boolean).map(Number) : null; };
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const out = [];
  for (const el of document.querySelectorAll('crosslane-op, crosslane-sort, crosslane-kernel')) {
    const svg = el.shadowRoot.querySelector('.drawing svg');
    if (!svg) continue;
    const bg = rgb(getComputedStyle(svg.querySelector(':scope > rect')).fill);
    for (const t of svg.querySelectorAll('text')) {
      if (!t.textContent.trim()) continue;
      // A box's label is drawn on its box (the rect before it in its group), else on the drawing.
      const box = t.previousElementSibling?.tagName === 'rect' ? rgb(getComputedStyle(t.previousElementSibling).fill) : bg;
      const fg = rgb(getComputedStyle(t).fill);
      if (!fg || !box) continue;
      const [hi, lo] = [lum(fg), lum(box)].sort((a, b) => b - a);
      const ratio = (hi + 0.05) / (lo + 0.05);
      if (ratio < 4.5) out.push({ el: el.id, text: t.textContent.trim().slice(0, 20), ratio: Math.round(ratio * 100) / 100 });
    }
  }
  return out;
}

for (const theme of ['light', 'dark']) {
  test(`web components at 390 px, ${theme}: the drawing follows the host's theme and its text reads`, async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 1200 });
    await page.goto(DEMO);
    if (theme === 'dark') await page.evaluate(() => document.getElementById('theme').click());
    await page.waitForFunction(() => [...document.querySelectorAll('crosslane-op, crosslane-kernel, crosslane-sort')]
      .every((e) => ['ready', 'error'].includes(e.dataset.state)));
    await page.waitForTimeout(200);
    const bg = await page.$eval('#xor', (e) => getComputedStyle(e.shadowRoot.querySelector('.drawing svg > rect')).fill);
    const [r, g, b] = bg.match(/\d+/g).map(Number);
    if (theme === 'dark') assert.ok(r + g + b < 3 * 80, `dark drawing background ${bg}`);
    else assert.equal(bg, 'rgb(255, 255, 255)');
    assert.deepEqual(await page.evaluate(svgContrast), [], `${theme}: drawing text under 4.5:1`);
    const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(over <= 0, `demo at 390 px scrolls sideways by ${over} px`);
    await page.screenshot({ path: join(ARTIFACTS, `first-visit-elements-${theme}-390.png`), fullPage: true });
    await page.close();
  });
}

test('an element whose wasm cannot load says so, visibly', async () => {
  const page = await browser.context.newPage();
  await page.route(/_bg\.wasm$/, (route) => route.abort());
  await page.goto(DEMO);
  await page.waitForFunction(() => document.getElementById('xor')?.dataset.state === 'fallback');
  const message = await page.$eval('#xor', (e) => {
    const p = e.shadowRoot.querySelector('.error');
    return p.hidden ? '' : p.textContent;
  });
  assert.match(message, /could not load its WebAssembly module .*CORS/);
  await page.close();
});
