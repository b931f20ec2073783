// End-to-end tests of the JavaScript library and web components (dist/crosslane.js,
// dist/crosslane-elements.js, dist/demo.html) in Chromium:
//   - runOp / listOps / runKernel / sortNetwork / permalinks equal what the `crosslane` CLI
//     binary prints with --json for the same calls (the binary is run here; `cargo test` leaves
//     it at target/debug/crosslane, CROSSLANE_CLI overrides), and an input error throws with the
//     CLI's field and message;
//   - the elements of the demo page render, redraw on attribute changes, step, follow the host
//     page's theme, and share one wasm instance; without WebAssembly they show a static drawing.
// Screenshots of the demo page (light, dark) land in tests/artifacts/.
//
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/library.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGE_URL, ARTIFACTS, launch } from './lib.mjs';

const CLI = process.env.CROSSLANE_CLI
  ?? fileURLToPath(new URL('../../target/debug/crosslane', import.meta.url));
const DEMO = new URL('demo.html', PAGE_URL).href;

let browser;
let page;
// Responses of 400 or more while the demo page loads (a missing favicon is a console error).
const missing = [];
before(async () => {
  assert.ok(existsSync(CLI), `the CLI binary ${CLI} (built by cargo test; CROSSLANE_CLI overrides)`);
  browser = await launch({ width: 1000, height: 1200 });
  page = await browser.context.newPage();
  page.on('pageerror', (e) => browser.pageErrors.push(String(e)));
  page.on('response', (r) => { if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`); });
  await page.goto(DEMO);
  await page.evaluate(async () => {
    window.crosslane = await import('./crosslane.js');
    await window.crosslane.init();
  });
});
after(async () => { await browser?.close(); });

/** Runs the CLI; returns { code, out, err }. */
function cli(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function cliJson(args) {
  const r = cli(args);
  assert.equal(r.code, 0, `crosslane ${args.join(' ')}: ${r.err}`);
  return JSON.parse(r.out);
}

/** `crosslane op` flags for a library request. */
function opArgs(req) {
  const args = ['op', req.dialect, req.op];
  for (const f of ['lanes', 'active', 'values', 'type']) {
    // A number given as the active mask is the mask itself; the CLI takes it in hex.
    const v = f === 'active' && typeof req[f] === 'number' ? `0x${req[f].toString(16)}` : req[f];
    if (v !== undefined) args.push(`--${f}`, String(v));
  }
  for (const [k, v] of Object.entries(req.params ?? {})) args.push(`--${k.replaceAll('_', '-')}`, String(v));
  return [...args, '--json'];
}

/** Calls library function `name` in the page; a thrown error comes back as { thrown }. A promise
 *  (runKernel before the kernel engine has loaded) is awaited, its rejection thrown. */
function lib(name, ...args) {
  return page.evaluate(async ([n, a]) => {
    try {
      return { value: await window.crosslane[n](...a) };
    } catch (e) {
      return { thrown: { name: e.name, field: e.field, reason: e.reason, message: e.message, isError: e instanceof window.crosslane.CrosslaneError } };
    }
  }, [name, args]);
}

/** `crosslane run` flags for the budgets of a library call on the caller's thread
 *  (crosslane-kernel's MAIN_THREAD_CEILING). */
const CALLER_BUDGETS = ['--max-work', '1000000', '--max-memory', String(1 << 20)];

const REQUESTS = [
  { dialect: 'ascend', op: 'asc_shfl_xor', params: { lane_mask: 1, width: 16 } },
  // width 31 is encodable but not a power of two: every lane undefined, a warning (seed 001).
  { dialect: 'ascend', op: 'asc_shfl_xor', params: { lane_mask: 1, width: 31 } },
  { dialect: 'cuda', op: '__shfl_down_sync', active: '0xffff', params: { delta: 4, width: 16 } },
  { dialect: 'cuda', op: '__shfl_sync', values: 'lane*3', type: 'f32', params: { src_lane: 5 } },
  { dialect: 'hip', op: '__shfl_xor', lanes: 64, values: 'lane+100', params: { lane_mask: 32 } },
  { dialect: 'amdgcn', op: 'ds_swizzle_b32', lanes: 32, params: { offset: '0x041f' } },
  { dialect: 'wgsl', op: 'subgroupShuffleXor', lanes: 16, type: 'f16x2', values: 'lane', params: { mask: 3 } },
  { dialect: 'maca', op: '__builtin_mxc_mov_shfl', values: 'lane+1000', params: { mode: '0x111' } },
  { dialect: 'maca', op: '__builtin_mxc_readlane', params: { thread: 70 } },
  // Lane 31's value, 9.3e15, is beyond 2^53: both sides round it as JSON.parse does.
  { dialect: 'cuda', op: '__shfl_xor_sync', type: 'i64', values: 'lane*300000000000000', params: { lane_mask: 1 } },
  { dialect: 'cuda', op: '__ballot_sync', active: 0x0f0f0f0f, values: 'lane*2' },
];

test('the demo page loads with no missing file (its icon is inline, as the page\'s)', () => {
  assert.deepEqual(missing, []);
});

test('runOp equals `crosslane op --json` across dialects', async () => {
  let compared = 0;
  for (const req of REQUESTS) {
    const args = opArgs(req);
    const r = cli(args);
    if (r.code === 2) {
      // An op or parameter name this build's registry spells otherwise: the library must
      // refuse it with the same message.
      const got = await lib('runOp', req);
      assert.ok(got.thrown, `runOp ${JSON.stringify(req)} throws as the CLI exits 2 (${r.err.trim()})`);
      assert.equal(`crosslane: ${got.thrown.message}`, r.err.trim());
      continue;
    }
    assert.equal(r.code, 0, `crosslane ${args.join(' ')}: ${r.err}`);
    const got = await lib('runOp', req);
    assert.ok(got.value, `runOp ${JSON.stringify(req)}: ${JSON.stringify(got.thrown)}`);
    assert.deepStrictEqual(got.value, JSON.parse(r.out), `runOp ${JSON.stringify(req)}`);
    compared += 1;
  }
  assert.equal(compared, REQUESTS.length, `${compared} requests compared with the CLI`);
  // Values the vendors document, independently of both: Ascend xor 1 swaps neighbours; width 31
  // leaves every lane undefined (null, never a number) with a warning.
  const [xor] = (await lib('runOp', REQUESTS[0])).value.results.slice(6, 7);
  assert.deepStrictEqual([xor.value, xor.from, xor.source], [7, 7, 'lane']);
  const bad = (await lib('runOp', REQUESTS[1])).value;
  assert.ok(bad.results.every((x) => x.value === null && x.source === 'undefined'));
  assert.ok(bad.diagnostics.some((d) => d.level === 'warning'));
});

test('input errors throw CrosslaneError with the CLI\'s field and range', async () => {
  const req = { dialect: 'ascend', op: 'asc_shfl_xor', params: { width: 0 } };
  const r = cli(opArgs(req));
  assert.equal(r.code, 2);
  const got = await lib('runOp', req);
  assert.ok(got.thrown?.isError, JSON.stringify(got));
  assert.equal(got.thrown.field, 'width');
  assert.match(got.thrown.reason, /must be in 1\.\.=\d+, got 0/);
  assert.equal(`crosslane: ${got.thrown.message}`, r.err.trim());
  const lanes = await lib('runOp', { dialect: 'cuda', op: '__shfl_sync', lanes: 7, params: { src_lane: 0 } });
  assert.equal(lanes.thrown.field, 'lanes');
  const shape = await lib('runOp', { dialect: 'cuda', op: '__shfl_sync', lane: 3 });
  assert.equal(shape.thrown.field, 'request');
  assert.match(shape.thrown.reason, /lane/);
});

test('listOps equals `crosslane ops --json`', async () => {
  for (const dialect of ['cuda', 'maca']) {
    const got = await lib('listOps', dialect);
    assert.deepStrictEqual(got.value, cliJson(['ops', dialect, '--json']), `listOps(${dialect})`);
  }
  const all = (await lib('listOps')).value;
  assert.equal(all.length, cliJson(['ops', '--json']).length);
  assert.equal((await lib('listOps', 'opencl')).thrown.field, 'dialect');
});

test('the kernel engine loads only for kernels: init() and <crosslane-op> never fetch it; runKernel loads it on first use', async () => {
  const p = await browser.context.newPage();
  const wasm = [];
  p.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(new URL(r.url()).pathname.split('/').pop()); });
  // A documentation page with one <crosslane-op> (served here, beside dist/'s files).
  const doc = new URL('op-only.html', PAGE_URL).href;
  await p.route(doc, (r) => r.fulfill({
    contentType: 'text/html',
    body: '<!doctype html><crosslane-op dialect="cuda" op="__shfl_xor_sync" lane_mask="1"></crosslane-op>'
      + '<script type="module">import "./crosslane-elements.js"; window.crosslane = await import("./crosslane.js"); await window.crosslane.init();</script>',
  }));
  await p.goto(doc);
  await p.waitForFunction(() => document.querySelector('crosslane-op')?.result?.results?.length === 32, null, { timeout: 30_000 });
  await p.waitForTimeout(1000);
  const short = () => wasm.map((w) => w.replace(/-[0-9a-f]+_bg\.wasm$/, ''));
  assert.deepEqual(short(), ['crosslane-lib'], `fetched: ${wasm.join(', ')}`);
  const before = await p.evaluate(() => window.crosslane.kernelsReady());
  assert.equal(before, false);
  // First use: a promise of the trace; then the engine is in and the answer is synchronous.
  const first = await p.evaluate(async () => {
    const r = window.crosslane.runKernel('__global__ void k() { int x = threadIdx.x * 2; }', { threads_per_block: 4 });
    return { promise: r instanceof Promise, trace: await r };
  });
  assert.equal(first.promise, true);
  const again = await p.evaluate(() => {
    const r = window.crosslane.runKernel('__global__ void k() { int x = threadIdx.x * 2; }', { threads_per_block: 4 });
    return { promise: r instanceof Promise, trace: r };
  });
  assert.equal(again.promise, false);
  assert.deepEqual(again.trace, first.trace);
  assert.deepEqual(short(), ['crosslane-lib', 'crosslane-kernel']);
  await p.close();
});

test('runKernel equals `crosslane run FILE --json`', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crosslane-kernel-'));
  try {
    const kernels = [
      ['xor.cu', '__global__ void k(int *out) {\n  int v = threadIdx.x;\n  v = __shfl_xor_sync(0xffffffff, v, 1);\n  out[threadIdx.x] = v;\n}\n', {}, []],
      ['down.cu', '__global__ void k(int *out) {\n  int v = threadIdx.x;\n  for (int o = 16; o > 0; o /= 2) { v += __shfl_down_sync(0xffffffff, v, o); }\n  if (threadIdx.x == 0) out[0] = v;\n}\n',
        { blocks: 2, threads_per_block: 64 }, ['--blocks', '2', '--threads-per-block', '64']],
    ];
    for (const [name, source, launch, flags] of kernels) {
      const file = join(dir, name);
      writeFileSync(file, source);
      // The library's call on the caller's thread runs under that thread's budgets (work 10^6,
      // memory 1 MiB: the memory's limit is part of the JSON); the CLI is given the same.
      const want = cliJson(['run', file, '--json', ...CALLER_BUDGETS, ...flags]);
      const got = await lib('runKernel', source, launch);
      assert.ok(got.value, JSON.stringify(got.thrown));
      assert.deepStrictEqual(got.value, want, name);
    }
    // The reduction: lane 0 ends with 0 + 1 + … + 31 = 496 in each block (independent sum).
    const trace = (await lib('runKernel', kernels[1][1], kernels[1][2])).value;
    assert.equal(trace.launch.grid_dim[0], 2);
    assert.deepStrictEqual(trace.outcome, { kind: 'finished' });
    assert.equal(trace.memory.buffers[0].name, 'out');
    assert.equal(trace.memory.buffers[0].cells[0].bits, 496);
    const broken = await lib('runKernel', '__global__ void k() { int x = ; }', {});
    assert.equal(broken.thrown.field, 'source');
    assert.match(broken.thrown.reason, /^1:\d+: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('runKernel takes fills and lengths as the CLI\'s --buffer, host code\'s length kept', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crosslane-fill-'));
  try {
    const source = '__global__ void scale(float* x, int n) {\n  int i = threadIdx.x;\n  if (i < n) x[i] = x[i] * 2.0f;\n}\nint main() {\n  float* x;\n  cudaMalloc(&x, 64 * sizeof(float));\n  int n = 64;\n  scale<<<1, 32>>>(x, n);\n}\n';
    const file = join(dir, 'scale.cu');
    writeFileSync(file, source);
    const want = cliJson(['run', file, '--buffer', 'x=i*0.25+0.5', '--json', ...CALLER_BUDGETS]);
    const got = await lib('runKernel', source, { args: { x: 'i*0.25+0.5' } });
    assert.ok(got.value, JSON.stringify(got.thrown));
    assert.deepStrictEqual(got.value, want);
    // cudaMalloc(&x, 64 * sizeof(float)): 64 cells although 32 threads run; cell 40 untouched
    // holds 40*0.25+0.5 = 10.5, cell 1 doubled holds (0.25+0.5)*2 = 1.5.
    const cells = got.value.memory.buffers[0].cells;
    assert.equal(cells.length, 64);
    assert.equal(cells[40].x, 10.5);
    assert.equal(cells[1].x, 1.5);
    const bad = await lib('runKernel', source, { args: { x: 'i*zebra' } });
    assert.equal(bad.thrown.field, 'x fill');
    assert.match(bad.thrown.reason, /a fill is index, i\*K\+C/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sortNetwork equals `crosslane sort --json`', async () => {
  for (const [n, opts, flags] of [[16, {}, []], [100, { seed: 7 }, ['--seed', '7']], [undefined, { values: '5,-3,9,0' }, ['--values', '5,-3,9,0']]]) {
    const want = cliJson(['sort', ...(n ? ['--len', String(n)] : []), ...flags, '--json']);
    const got = await lib('sortNetwork', n, opts);
    assert.ok(got.value, JSON.stringify(got.thrown));
    assert.deepStrictEqual(got.value, want, `sortNetwork(${n}, ${JSON.stringify(opts)})`);
  }
  // Knuth, TAOCP vol. 3, 5.3.4: Batcher's network sorts 16 keys with 63 comparators.
  const sixteen = (await lib('sortNetwork', 16)).value;
  assert.deepStrictEqual(sixteen.output, [...sixteen.input].sort((a, b) => a - b));
  assert.ok(JSON.stringify(sixteen.figures).includes('63'));
  assert.equal((await lib('sortNetwork', 0)).thrown.field, 'len');
  // An options object as the only argument: `n` as the element's attribute, `len` its alias.
  const want = cliJson(['sort', '--len', '16', '--seed', '3', '--json']);
  for (const opts of [{ n: 16, seed: 3 }, { len: 16, seed: 3 }]) {
    const got = await lib('sortNetwork', opts);
    assert.ok(got.value, JSON.stringify(got.thrown));
    assert.deepStrictEqual(got.value, want, `sortNetwork(${JSON.stringify(opts)})`);
    assert.equal(got.value.figures.len, 16);
  }
  assert.deepStrictEqual((await lib('sortNetwork', 16, { seed: 3 })).value, want);
});

test('permalinks: encodePermalink → the CLI replays it; decodePermalink reads the page\'s links', async () => {
  const request = { dialect: 'ascend', op: 'asc_shfl_xor', params: { lane_mask: '1', width: '16' } };
  const link = (await lib('encodePermalink', { version: 1, view: { op: request } })).value;
  assert.match(link, /^v1\./);
  const replayed = cliJson(['run', link]);
  assert.deepStrictEqual(replayed, (await lib('runOp', request)).value);
  const decoded = (await lib('decodePermalink', `https://example.org/crosslane/#${link}`)).value;
  assert.equal(decoded.version, 1);
  assert.deepStrictEqual(decoded.view.op.params, request.params);
  const broken = await lib('decodePermalink', 'v1.@@@');
  assert.equal(broken.thrown.field, 'permalink');
  assert.equal((await lib('encodePermalink', { view: {} })).thrown.field, 'scenario');
});

/** Waits until every crosslane element of the page has rendered (data-state ready or error). */
async function allReady(p) {
  await p.waitForFunction(() => [...document.querySelectorAll('crosslane-op, crosslane-kernel, crosslane-sort')]
    .every((e) => e.dataset.state === 'ready' || e.dataset.state === 'error'), null, { timeout: 30000 });
}

test('the demo page\'s elements render, react to attributes and step', async () => {
  const p = await browser.context.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(String(e)));
  const wasmRequests = [];
  p.on('request', (r) => { if (r.url().endsWith('.wasm')) wasmRequests.push(r.url()); });
  await p.goto(DEMO);
  await allReady(p);
  // Two wasm modules for five elements, each fetched once: the library's, and the kernel engine
  // for the <crosslane-kernel> elements.
  const kinds = wasmRequests.map((u) => new URL(u).pathname.split('/').pop().replace(/-[0-9a-f]+_bg\.wasm$/, '')).sort();
  assert.deepEqual(kinds, ['crosslane-kernel', 'crosslane-lib'], wasmRequests.join(', '));
  assert.equal(await p.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).length), 2);

  // <crosslane-op>: the result property is runOp's object; the drawing and the lane table.
  const xor = await p.evaluate(() => {
    const el = document.getElementById('xor');
    const root = el.shadowRoot;
    return {
      result: el.result,
      svg: !!root.querySelector('.drawing svg[role=img]'),
      rows: root.querySelectorAll('.sr-only tr[data-lane]').length,
      row6: root.querySelector('.sr-only tr[data-lane="6"]').textContent,
      href: root.querySelector('a.open').href,
    };
  });
  assert.equal(xor.result.op, 'asc_shfl_xor');
  assert.deepStrictEqual(xor.result, cliJson(['op', 'ascend', 'asc_shfl_xor', '--lane-mask', '1', '--width', '16', '--json']));
  assert.ok(xor.svg);
  assert.equal(xor.rows, 32);
  assert.match(xor.row6, /^66\s*7\s*lane 7/);
  const link = xor.href.split('#')[1];
  assert.deepStrictEqual(cliJson(['run', link]), xor.result);

  // An attribute change redraws and fires crosslane-change with the new result.
  const changed = await p.evaluate(() => new Promise((resolve) => {
    const el = document.getElementById('xor');
    el.addEventListener('crosslane-change', (e) => resolve({ detail: e.detail, result: el.result }), { once: true });
    el.setAttribute('lane_mask', '2');
  }));
  // lane_mask 2: lane 0 reads lane 2, lane 2 reads lane 0.
  assert.equal(changed.detail.results[0].from, 2);
  assert.deepStrictEqual(changed.detail, changed.result);
  // The undefined width: every lane undefined, the warning in the caption.
  const bad = await p.evaluate(() => {
    const el = document.getElementById('bad-width');
    return { values: el.result.results.map((r) => r.value), caption: el.shadowRoot.querySelector('.caption').textContent };
  });
  assert.ok(bad.values.every((v) => v === null));
  assert.match(bad.caption, /warning/);
  // A refused input: the error names the field and the range; the result is null.
  const refused = await p.evaluate(() => new Promise((resolve) => {
    const el = document.getElementById('down');
    el.addEventListener('crosslane-change', (e) => resolve({ detail: e.detail, result: el.result, text: el.shadowRoot.querySelector('.error').textContent }), { once: true });
    el.setAttribute('width', '0');
  }));
  assert.equal(refused.result, null);
  assert.equal(refused.detail.error.field, 'width');
  assert.match(refused.text, /^width: must be in 1\.\.=/);

  // <crosslane-sort>: stepping through the stages.
  const sort = await p.evaluate(() => {
    const el = document.getElementById('sort');
    const root = el.shadowRoot;
    const before = root.querySelector('output').textContent;
    root.querySelector('button.step').click();
    return { before, after: root.querySelector('output').textContent, caption: root.querySelector('.caption').textContent, svg: !!root.querySelector('.drawing svg') };
  });
  // 16 keys: 10 stages (Batcher: log n (log n + 1) / 2 = 4 · 5 / 2).
  assert.equal(sort.before, '0 / 10');
  assert.equal(sort.after, '1 / 10');
  assert.match(sort.caption, /stage 1 of 10/);
  assert.ok(sort.svg);
  // <crosslane-kernel>: step to the end; the current line is marked and the last call drawn.
  const kernel = await p.evaluate(() => {
    const el = document.getElementById('kernel');
    const root = el.shadowRoot;
    const range = root.querySelector('input[type=range]');
    range.value = range.max;
    range.dispatchEvent(new Event('input'));
    return { caption: root.querySelector('.caption').textContent, current: root.querySelector('pre.source span.current')?.dataset.line, svg: !!root.querySelector('.drawing svg'), total: Number(range.max) };
  });
  assert.ok(kernel.total > 5, `${kernel.total} statements`);
  assert.match(kernel.caption, /__shfl_down_sync at line 4/);
  assert.ok(kernel.current);
  assert.ok(kernel.svg);

  // A kernel added later, its text (with `<`) inside <script type="text/plain"> as docs/embedding.md
  // says, runs on the same wasm instance (no second .wasm request).
  const added = await p.evaluate(() => new Promise((resolve) => {
    const el = document.createElement('crosslane-kernel');
    el.setAttribute('step', '3');
    el.innerHTML = '<script type="text/plain">__global__ void k(int *out) {\n  int v = threadIdx.x < 16 ? 1 : 2;\n  v = __shfl_xor_sync(0xffffffff, v, 16);\n  out[threadIdx.x] = v;\n}</' + 'script>';
    el.addEventListener('crosslane-change', (e) => resolve({ detail: e.detail, lines: el.shadowRoot.querySelectorAll('pre.source span').length }), { once: true });
    document.querySelector('article').append(el);
  }));
  assert.equal(added.lines, 5);
  assert.equal(added.detail.position, 3);
  assert.match(added.detail.caption, /__shfl_xor_sync at line 3/);
  // An element added later loads nothing again: still the library's module and the engine, once each.
  assert.equal(wasmRequests.length, 2);

  // The host page's theme: dark page → dark cards, and back.
  const themes = await p.evaluate(async () => {
    const cards = () => [...document.querySelectorAll('crosslane-op, crosslane-kernel, crosslane-sort')].map((e) => e.shadowRoot.querySelector('.card').dataset.theme);
    const light = cards();
    document.getElementById('theme').click();
    await new Promise((r) => setTimeout(r, 50));
    return { light, dark: cards() };
  });
  assert.ok(themes.light.every((t) => t === 'light'), themes.light.join());
  assert.ok(themes.dark.every((t) => t === 'dark'), themes.dark.join());
  await p.evaluate(() => document.getElementById('theme').click());
  // The theme attribute wins over the host page.
  const forced = await p.evaluate(async () => {
    const el = document.getElementById('sort');
    el.setAttribute('theme', 'dark');
    await new Promise((r) => setTimeout(r, 50));
    const dark = el.shadowRoot.querySelector('.card').dataset.theme;
    el.removeAttribute('theme');
    await new Promise((r) => setTimeout(r, 50));
    return [document.documentElement.dataset.theme, dark, el.shadowRoot.querySelector('.card').dataset.theme];
  });
  assert.deepStrictEqual(forced, ['light', 'dark', 'light']);
  assert.deepStrictEqual(errors, []);
  await p.close();
});

test('screenshots of the demo page, light and dark, at a phone and a desktop width', async () => {
  const p = await browser.context.newPage();
  for (const [w, theme] of [[1000, 'light'], [1000, 'dark'], [420, 'light']]) {
    await p.setViewportSize({ width: w, height: 1200 });
    await p.goto(DEMO);
    if (theme === 'dark') await p.evaluate(() => document.getElementById('theme').click());
    await allReady(p);
    await p.waitForTimeout(200);
    // Responsive: no element is wider than the viewport.
    const widest = await p.evaluate(() => Math.max(...[...document.querySelectorAll('crosslane-op, crosslane-kernel, crosslane-sort')].map((e) => e.getBoundingClientRect().right)));
    assert.ok(widest <= w, `widest element ends at ${widest} > ${w}`);
    await p.screenshot({ path: join(ARTIFACTS, `library-demo-${theme}-${w}.png`), fullPage: true });
  }
  await p.close();
});

test('without WebAssembly each element shows a static drawing and the playground link', async () => {
  const p = await browser.context.newPage();
  await p.addInitScript(() => { delete globalThis.WebAssembly; });
  await p.goto(DEMO);
  await p.waitForFunction(() => [...document.querySelectorAll('crosslane-op, crosslane-kernel, crosslane-sort')]
    .every((e) => e.dataset.state === 'fallback'));
  const fb = await p.evaluate(() => {
    const el = document.getElementById('xor');
    return { svg: el.shadowRoot.querySelector('.drawing svg')?.getAttribute('aria-label'), href: el.shadowRoot.querySelector('a.open').href, kernel: document.getElementById('kernel').shadowRoot.querySelector('pre.source')?.textContent ?? '' };
  });
  assert.match(fb.svg, /ascend asc_shfl_xor lane_mask=1 width=16/);
  assert.ok(fb.href.startsWith(new URL('./', DEMO).href));
  assert.match(fb.kernel, /__shfl_down_sync/);
  await p.screenshot({ path: join(ARTIFACTS, 'library-demo-fallback.png'), fullPage: true });
  await p.close();
});

test('dist/ is an npm package: `npm pack` accepts it, and its exports and types exist', () => {
  const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
  const pkg = JSON.parse(readFileSync(join(dist, 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'crosslane');
  assert.match(pkg.version, /^\d+\.\d+\.\d+/);
  assert.equal(pkg.types, './crosslane.d.ts');
  const out = execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: dist, encoding: 'utf8' });
  const [packed] = JSON.parse(out);
  const files = packed.files.map((f) => f.path);
  const targets = [pkg.main, pkg.types, ...Object.values(pkg.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)))];
  for (const t of targets) {
    const file = t.replace(/^\.\//, '');
    assert.ok(files.includes(file), `${file} (from package.json) is in the package: ${files.join(', ')}`);
    assert.ok(existsSync(join(dist, file)), `${file} exists`);
  }
  // The library's module and the kernel engine (two .wasm); not the page's own first module.
  const wasm = files.filter((f) => f.endsWith('.wasm')).map((f) => f.replace(/-[0-9a-f]+_bg\.wasm$/, '')).sort();
  assert.deepEqual(wasm, ['crosslane-kernel', 'crosslane-lib']);
  assert.ok(!files.includes('index.html'), 'the playground page is not part of the package');
});
