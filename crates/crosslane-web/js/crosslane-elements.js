// crosslane web components: <crosslane-op>, <crosslane-kernel>, <crosslane-sort>.
//
//   <script type="module" src="https://…/crosslane-elements.js"></script>
//   <crosslane-op dialect="ascend" op="asc_shfl_xor" lane_mask="1" width="16"></crosslane-op>
//
// Every drawing is the playground's own renderer (Rust: render/scene.rs through render/svg.rs,
// the sort view's diagram), computed by the library in ./crosslane.js; this file only lays the
// SVG out, keeps it in step with the attributes, the width and the theme, and wires the
// steppers. All elements on a page share one wasm instance: init() loads the module once.
// Without WebAssembly (or when the module cannot load) each element shows a static SVG and a
// link to the playground instead.
import { init, internals, encodePermalink, CrosslaneError, kernelsReady } from './crosslane.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Attributes of <crosslane-op> that are not vendor parameters. */
const OP_FIELDS = ['dialect', 'op', 'lanes', 'active', 'values', 'type'];
const NOT_PARAMS = new Set([...OP_FIELDS, 'theme', 'playground']);

/** Attributes that never change what an element computes. */
function isPresentational(name) {
  return name.startsWith('data-') || name.startsWith('aria-') || name.startsWith('on')
    || ['class', 'id', 'style', 'title', 'lang', 'dir', 'hidden', 'slot', 'role', 'tabindex', 'part',
      'is', 'nonce', 'autofocus', 'inert', 'draggable'].includes(name);
}

const STYLE = `
:host { display: block; max-width: 100%; margin: 1em 0; font: 14px/1.4 system-ui, sans-serif;
  /* Off screen, an element's drawing is neither laid out nor painted (a page may hold a
     thousand); its last drawn height is kept as its size. */
  content-visibility: auto; contain-intrinsic-size: auto 240px; }
:host([hidden]) { display: none; }
.card { --bg: #ffffff; --fg: #0f172a; --muted: #475569; --line: #cbd5e1; --accent: #1d4ed8;
  --err-bg: #fef2f2; --err-fg: #991b1b; --hl: #fef9c3;
  background: var(--bg); color: var(--fg); border: 1px solid var(--line); border-radius: 8px;
  padding: 8px 10px; box-sizing: border-box; }
.card[data-theme="dark"] { --bg: #0b1220; --fg: #e2e8f0; --muted: #94a3b8; --line: #334155;
  --accent: #93c5fd; --err-bg: #3b0d0d; --err-fg: #fecaca; --hl: #3f3a12;
  /* The drawings' dark palette, the page's own (web/style.css), written in by scripts/build-web:
     the SVG's background, boxes and text follow the host's dark theme. */
  /*__CROSSLANE_DARK_DRAWING__*/ }
.head { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: baseline; justify-content: space-between; }
.title { font-weight: 600; font-family: ui-monospace, monospace; font-size: 13px; overflow-wrap: anywhere; }
.open { color: var(--accent); font-size: 13px; white-space: nowrap; }
.drawing { margin-top: 6px; line-height: 0; }
.drawing svg { max-width: 100%; height: auto; border-radius: 6px; }
.caption, .lines { color: var(--muted); font-size: 13px; margin: 4px 0 0; }
.lines { font-family: ui-monospace, monospace; font-size: 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
.error { background: var(--err-bg); color: var(--err-fg); padding: 4px 8px; border-radius: 4px; margin: 6px 0 0; }
.stepper { display: flex; gap: 6px; align-items: center; margin-top: 6px; flex-wrap: wrap; }
.stepper button { font: inherit; padding: 2px 10px; border-radius: 4px; border: 1px solid var(--line);
  background: var(--bg); color: var(--fg); cursor: pointer; }
.stepper button:disabled { opacity: .45; cursor: default; }
.stepper input[type=range] { flex: 1 1 120px; min-width: 80px; }
.stepper output { font-variant-numeric: tabular-nums; color: var(--muted); font-size: 13px; }
pre.source { margin: 6px 0 0; padding: 6px 0; background: transparent; overflow-x: auto;
  font: 12px/1.45 ui-monospace, monospace; border-top: 1px solid var(--line); border-bottom: 1px solid var(--line); }
pre.source span { display: block; padding: 0 6px; white-space: pre; }
pre.source span.current { background: var(--hl); }
pre.source span::before { content: attr(data-line); display: inline-block; width: 2.5em; color: var(--muted); }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
`;

let styleSheet;
/** STYLE as one constructable sheet shared by every element, or null where the browser has none
 *  (each element then parses its own <style>). */
function sharedSheet() {
  if (styleSheet === undefined) {
    styleSheet = null;
    try {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(STYLE);
      styleSheet = sheet;
    } catch {
      // No constructable style sheets: the <style> element below.
    }
  }
  return styleSheet;
}

const wasmRuns = typeof WebAssembly === 'object' && typeof WebAssembly.instantiate === 'function';

/** Loads the shared wasm once for every element on the page (init() memoizes its promise);
 *  with `kernels`, the kernel engine too (only `<crosslane-kernel>` asks for it). */
function ready(kernels) {
  return wasmRuns ? init({ kernels }) : Promise.reject(new Error('this browser cannot run WebAssembly'));
}

/** The playground page links open: the element's `playground` attribute, else the page next to
 *  this module (dist/index.html when dist/ is hosted as built). Throws an Error naming the
 *  attribute for anything but an http:, https: or relative URL (dataUrl). */
function playgroundBase(el) {
  const given = el.getAttribute('playground');
  if (!given) return new URL('./', import.meta.url);
  return dataUrl(given, 'playground');
}

/** An attribute's URL, which is data, never code: it must resolve to an http: or https: URL (a
 *  relative one takes the host page's scheme; file: only on a file: page), so `javascript:` in
 *  any case or spelling (the URL parser strips tabs and newlines before reading the scheme)
 *  never reaches an `href` or a fetch. Throws an Error naming the attribute otherwise. */
function dataUrl(given, attribute) {
  let url;
  try {
    url = new URL(given, document.baseURI);
  } catch {
    throw new Error(`the ${attribute} attribute is not a URL: ${JSON.stringify(given.slice(0, 80))}`);
  }
  const pageScheme = new URL(document.baseURI).protocol;
  const safe = url.protocol === 'http:' || url.protocol === 'https:'
    || (url.protocol === 'file:' && pageScheme === 'file:');
  if (!safe) {
    throw new Error(`the ${attribute} attribute must be an http:, https: or relative URL, not ${url.protocol}`);
  }
  return url;
}

/** Light or dark: the `theme` attribute, else the host page's own marks (`data-theme` or a
 *  `dark` class on <html>/<body>, a dark `color-scheme`), else the reader's preference. */
function themeOf(el) {
  const own = el.getAttribute('theme');
  if (own === 'light' || own === 'dark') return own;
  for (const node of [document.documentElement, document.body]) {
    if (!node) continue;
    const t = node.getAttribute('data-theme') ?? node.getAttribute('data-color-scheme') ?? node.getAttribute('data-bs-theme');
    if (t === 'dark' || t === 'light') return t;
    if (node.classList.contains('dark')) return 'dark';
    if (node.classList.contains('light')) return 'light';
  }
  const scheme = getComputedStyle(el).colorScheme ?? '';
  if (/\bdark\b/.test(scheme) && !/\blight\b/.test(scheme)) return 'dark';
  if (/\blight\b/.test(scheme) && !/\bdark\b/.test(scheme)) return 'light';
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

const themeWatchers = new Set();
let themeObserverInstalled = false;
function watchTheme(el) {
  themeWatchers.add(el);
  if (themeObserverInstalled) return;
  themeObserverInstalled = true;
  const all = () => themeWatchers.forEach((e) => e.isConnected && e.applyTheme());
  const mo = new MutationObserver(all);
  mo.observe(document.documentElement, { attributes: true, attributeFilter: ['class', 'data-theme', 'style', 'data-color-scheme', 'data-bs-theme'] });
  if (document.body) mo.observe(document.body, { attributes: true, attributeFilter: ['class', 'data-theme', 'data-color-scheme', 'data-bs-theme'] });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', all);
}

function escapeXml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

/** The static drawing shown where WebAssembly cannot run: the lanes as empty numbered boxes
 *  (no values: those need the emulator), the title, and where to see it live. */
function staticSvg(title, lanes, width, note) {
  const n = Math.max(1, Math.min(lanes || 0, 64)) || 8;
  const w = Math.max(240, Math.round(width || 640));
  const cell = Math.min(36, (w - 20) / n);
  const drawn = (lanes || 0) > 0;
  const h = drawn ? 96 : 58;
  let boxes = '';
  for (let i = 0; i < n && drawn; i += 1) {
    const x = 10 + i * cell;
    boxes += `<rect x="${x.toFixed(1)}" y="40" width="${(cell - 2).toFixed(1)}" height="24" fill="#f1f5f9" stroke="#94a3b8"/>`;
    if (cell >= 14) boxes += `<text x="${(x + cell / 2 - 1).toFixed(1)}" y="56" font-size="10" text-anchor="middle" fill="#475569">${i}</text>`;
  }
  return `<svg xmlns="${SVG_NS}" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="system-ui, sans-serif" role="img" aria-label="${escapeXml(title)} (static drawing)">`
    + `<rect width="${w}" height="${h}" fill="#ffffff"/>`
    + `<text x="10" y="24" font-size="14" font-weight="bold" fill="#0f172a">${escapeXml(title)}</text>${boxes}`
    + `<text x="10" y="${h - 10}" font-size="12" fill="#475569">${escapeXml(note)}</text></svg>`;
}

// --- Drawing in slices ------------------------------------------------------------------------
//
// A page may hold a thousand elements. Each draws in the library's wasm, some milliseconds each;
// drawn all in one frame callback they made one task of seconds, and the page froze. So every
// element that needs drawing joins one queue, and the queue is drained in slices of about
// SLICE_MS, each slice its own task (a MessageChannel message: not clamped like setTimeout, not
// paused in a background tab like requestAnimationFrame), so input and painting run between
// slices. Widths are read for the whole slice before any element draws: one layout per slice,
// not one per element.

/** Milliseconds of drawing per slice; one element's drawing may end a slice past it. */
const SLICE_MS = 8;
/** Elements waiting to draw, in the order they asked. */
const drawQueue = new Set();
let pumpPosted = false;
let pumpChannel = null;

/** Why the module could not load (null while it loads or once it has). */
let moduleFailure = null;
/** Why the kernel engine could not load, for `<crosslane-kernel>` (null while it loads, once it
 *  has, or before any element asked for it). */
let engineFailure = null;

function queueDraw(el) {
  drawQueue.add(el);
  if (pumpPosted) return;
  pumpPosted = true;
  if (!pumpChannel) {
    pumpChannel = new MessageChannel();
    pumpChannel.port1.onmessage = drainSlice;
  }
  // The first slice waits for the module (init() memoizes it); later ones start at once.
  ready().then(() => { moduleFailure = null; }, (e) => { moduleFailure = e; })
    .then(() => pumpChannel.port2.postMessage(0));
}

/** One ResizeObserver for every element (a thousand observers cost more than one). */
let resizeObserver = null;
function observeSize(el) {
  resizeObserver ??= new ResizeObserver((entries) => {
    for (const entry of entries) entry.target.resized?.(Math.floor(entry.contentRect.width));
  });
  resizeObserver.observe(el);
}

function drainSlice() {
  pumpPosted = false;
  const start = performance.now();
  const batch = [];
  for (const el of drawQueue) {
    batch.push(el);
    if (batch.length >= 32) break;
  }
  for (const el of batch) {
    if (!el.width && el.isConnected) el.width = Math.floor(el.getBoundingClientRect().width) || 0;
  }
  for (const el of batch) {
    drawQueue.delete(el);
    if (el.isConnected) el.drawNow();
    if (performance.now() - start > SLICE_MS) break;
  }
  if (drawQueue.size > 0) queueDraw(drawQueue.values().next().value);
}

/** Shared shell of the three elements: shadow root, theme, width tracking, fallback, link. */
class CrosslaneBase extends HTMLElement {
  constructor() {
    super();
    // The shadow content is built when the element first draws (ensureShell), not here: a
    // page's thousand elements are upgraded in one task when this module runs. The style is
    // one shared sheet, adopted (not parsed per element), so `display: block` and the width
    // hold from the start.
    this.attachShadow({ mode: 'open' });
    const sheet = sharedSheet();
    if (sheet) this.shadowRoot.adoptedStyleSheets = [sheet];
    this.card = null;
    this.width = 0;
    this.failed = null;
  }

  /** Builds the card (style, title, link, body, error line) once. */
  ensureShell() {
    if (this.card) return;
    this.shadowRoot.innerHTML = `${sharedSheet() ? '' : `<style>${STYLE}</style>`}<div class="card" part="card">
      <div class="head"><span class="title" part="title"></span><a class="open" part="open" target="_blank" rel="noopener">open in playground</a></div>
      <div class="body"></div><p class="error" role="alert" hidden></p><slot name="fallback" hidden></slot></div>`;
    this.card = this.shadowRoot.querySelector('.card');
    this.titleEl = this.shadowRoot.querySelector('.title');
    this.openLink = this.shadowRoot.querySelector('.open');
    this.bodyEl = this.shadowRoot.querySelector('.body');
    this.errorEl = this.shadowRoot.querySelector('.error');
    this.applyTheme();
  }

  connectedCallback() {
    // `pending` until drawn; then `ready`, `error` or `fallback`. Nothing else happens here: a
    // page's thousand elements connect in one task; the queue's slices do the rest (watch).
    this.dataset.state = 'pending';
    queueDraw(this);
  }

  /** Starts following the theme, the width and the attributes, once per connection. */
  watch() {
    if (this.watching) return;
    this.watching = true;
    watchTheme(this);
    observeSize(this);
    // The element's own marks (data-state, data-position) and presentational attributes are
    // not inputs: reacting to them would redraw forever.
    this.attrObserver ??= new MutationObserver((records) => {
      const names = records.map((r) => r.attributeName);
      if (names.includes('theme')) this.applyTheme();
      if (names.some((n) => n !== 'theme' && !isPresentational(n))) this.attributesChanged();
    });
    this.attrObserver.observe(this, { attributes: true });
  }

  /** The ResizeObserver's report: a new width redraws (a change under 8 px does not). */
  resized(w) {
    if (w > 0 && Math.abs(w - this.width) >= 8) {
      this.width = w;
      this.schedule();
    }
  }

  /** Draws now (called by the queue): the drawing, or where the module could not load, the
   *  fallback and why. */
  drawNow() {
    this.ensureShell();
    this.watch();
    this.failed = moduleFailure ?? (this.constructor.needsKernels ? engineFailure : null);
    if (!this.failed && this.constructor.needsKernels && !kernelsReady()) {
      // Only a kernel element loads the engine, the larger second module: this one draws
      // (pending until then) once it has loaded or failed.
      ready(true).then(() => { engineFailure = null; }, (e) => { engineFailure = e; })
        .then(() => queueDraw(this));
      return;
    }
    if (this.failed) {
      const e = this.failed;
      this.showFallback();
      // Said, not silent: where the module or its .wasm could not load, and the usual cause.
      if (wasmRuns) {
        this.errorEl.hidden = false;
        this.errorEl.textContent = `crosslane could not load its WebAssembly module (${e?.message ?? e}). `
          + 'Served from another origin, crosslane.js and its .wasm need CORS headers '
          + '(Access-Control-Allow-Origin); see the embedding notes.';
      }
      return;
    }
    try {
      this.errorEl.hidden = true;
      this.render();
    } catch (e) {
      this.showError(e);
    }
  }

  disconnectedCallback() {
    this.watching = false;
    resizeObserver?.unobserve(this);
    this.attrObserver?.disconnect();
    themeWatchers.delete(this);
  }

  applyTheme() {
    if (this.card) this.card.dataset.theme = themeOf(this);
  }

  /** Drawing width in CSS pixels: the content box, less the card's padding and border. */
  drawWidth() {
    return Math.max(120, (this.width || 640) - 22);
  }

  /** Called when any attribute but `theme` changes. */
  attributesChanged() {
    this.schedule();
  }

  /** Draws in the queue's next slice, once however many changes came before it. */
  schedule() {
    if (this.failed || !this.isConnected) return;
    this.dataset.state = 'pending';
    queueDraw(this);
  }

  showError(e) {
    this.errorEl.hidden = false;
    this.errorEl.textContent = e instanceof CrosslaneError ? e.message : `crosslane: ${e?.message ?? e}`;
    this.dataset.state = 'error';
    this.changed({ error: { field: e?.field ?? null, message: e?.message ?? String(e) } });
  }

  /** Points "open in playground" at the scenario. */
  setLink(scenario) {
    let base;
    try {
      base = playgroundBase(this);
    } catch (e) {
      // A refused attribute: no link, and a visible message saying why.
      this.openLink.removeAttribute('href');
      this.openLink.hidden = true;
      this.showError(e);
      return;
    }
    try {
      this.openLink.href = `${base}#${encodePermalink(scenario)}`;
      this.openLink.hidden = false;
    } catch {
      this.openLink.hidden = true;
    }
  }

  /** The author's fallback content (slot="fallback") if any, else a static SVG; the link opens
   *  the playground without a scenario (the permalink encoder is in the wasm too). */
  showFallback() {
    this.dataset.state = 'fallback';
    const slot = this.shadowRoot.querySelector('slot[name=fallback]');
    const authored = slot.assignedNodes().length > 0;
    slot.hidden = !authored;
    this.bodyEl.innerHTML = authored ? ''
      : `<div class="drawing">${staticSvg(this.fallbackTitle(), this.fallbackLanes(), this.drawWidth(), this.fallbackNote())}</div>`;
    this.titleEl.textContent = this.fallbackTitle();
    try {
      this.openLink.href = String(playgroundBase(this));
    } catch (e) {
      this.openLink.removeAttribute('href');
      this.openLink.hidden = true;
      this.errorEl.hidden = false;
      this.errorEl.textContent = `crosslane: ${e.message}`;
    }
  }

  fallbackLanes() { return 0; }
  fallbackNote() { return 'The live diagram needs WebAssembly: open it in the playground.'; }

  /** Fires `crosslane-change` (bubbles, crosses shadow boundaries) with `detail`. */
  changed(detail) {
    this.dispatchEvent(new CustomEvent('crosslane-change', { detail, bubbles: true, composed: true }));
  }

  /** Puts an SVG document string into `container` as the drawing, labelled `label`. */
  static putSvg(container, svg, label) {
    container.innerHTML = svg;
    const el = container.firstElementChild;
    if (el) {
      el.setAttribute('role', 'img');
      el.setAttribute('aria-label', label);
    }
  }
}

/** <crosslane-op dialect op lanes active values type PARAM=…>: one operation, drawn. */
class CrosslaneOp extends CrosslaneBase {
  /** The current result, shaped like runOp's (null before the first render or on an error). */
  get result() { return this._result ?? null; }

  /** The request the attributes describe (runOp's argument). */
  get request() {
    const r = { dialect: this.getAttribute('dialect') ?? '', op: this.getAttribute('op') ?? '', params: {} };
    for (const f of ['lanes', 'active', 'values', 'type']) {
      const v = this.getAttribute(f);
      if (v !== null && v !== '') r[f] = v;
    }
    for (const a of this.getAttributeNames()) {
      if (NOT_PARAMS.has(a) || isPresentational(a)) continue;
      r.params[a] = this.getAttribute(a);
    }
    return r;
  }

  fallbackTitle() {
    const r = this.request;
    const params = Object.entries(r.params).map(([k, v]) => `${k}=${v}`).join(' ');
    return `${r.dialect} ${r.op} ${params}`.trim();
  }

  fallbackLanes() {
    const n = Number(this.getAttribute('lanes'));
    if (Number.isInteger(n) && n > 0) return n;
    return ({ cuda: 32, ascend: 32, wgsl: 32, hip: 64, amdgcn: 64, maca: 64 })[this.getAttribute('dialect')] ?? 32;
  }

  render() {
    const request = this.request;
    const scenario = { version: 1, view: { op: { ...request, params: { ...request.params } } } };
    this.titleEl.textContent = this.fallbackTitle();
    let view;
    try {
      view = internals.opView(request, this.drawWidth());
    } catch (e) {
      this._result = null;
      this.bodyEl.innerHTML = '';
      this.setLink(scenario);
      throw e;
    }
    this._result = view.result;
    this.bodyEl.innerHTML = '<div class="drawing"></div><p class="caption"></p><div class="sr-only"></div>';
    CrosslaneBase.putSvg(this.bodyEl.querySelector('.drawing'), view.svg, `lane diagram: ${view.summary}`);
    const warnings = view.result.diagnostics.map((d) => `${d.level}: ${d.message}`);
    this.bodyEl.querySelector('.caption').textContent = [view.summary, ...warnings].join(' · ');
    this.bodyEl.querySelector('.sr-only').innerHTML = view.table;
    this.setLink(scenario);
    this.dataset.state = 'ready';
    this.changed(view.result);
  }
}

/** The shared stepper of <crosslane-kernel> and <crosslane-sort>: back, step, a slider. */
class SteppedBase extends CrosslaneBase {
  constructor() {
    super();
    this.position = 0;
    this.model = null;
    this.modelKey = null;
  }

  /** Builds the stepper and the frame containers once per model. */
  layout(extraTop = '') {
    this.bodyEl.innerHTML = `${extraTop}<div class="stepper" role="group" aria-label="step">
      <button type="button" class="reset" aria-label="back to the start">|◀</button>
      <button type="button" class="back" aria-label="one step back">◀</button>
      <button type="button" class="step" aria-label="one step forward">▶</button>
      <input type="range" min="0" value="0" aria-label="position">
      <output aria-live="polite"></output></div>
      <div class="drawing"></div><p class="caption"></p><p class="lines"></p>`;
    const q = (s) => this.bodyEl.querySelector(s);
    q('.reset').addEventListener('click', () => this.go(0));
    q('.back').addEventListener('click', () => this.go(this.position - 1));
    q('.step').addEventListener('click', () => this.go(this.position + 1));
    q('input').addEventListener('input', (e) => this.go(Number(e.target.value)));
  }

  go(pos) {
    const total = this.total();
    this.position = Math.max(0, Math.min(total, Number.isFinite(pos) ? pos : 0));
    this.showFrame();
  }

  showFrame() {
    const q = (s) => this.bodyEl.querySelector(s);
    const total = this.total();
    const frame = this.model.frame(this.position, this.drawWidth());
    q('input').max = String(total);
    q('input').value = String(this.position);
    q('output').textContent = `${this.position} / ${total}`;
    q('.reset').disabled = this.position === 0;
    q('.back').disabled = this.position === 0;
    q('.step').disabled = this.position >= total;
    const drawing = q('.drawing');
    if (frame.svg) CrosslaneBase.putSvg(drawing, frame.svg, frame.caption);
    else drawing.innerHTML = '';
    q('.caption').textContent = frame.caption;
    q('.lines').textContent = frame.lines.join('\n');
    this.afterFrame(frame);
    this.setLink(this.scenario());
    this.dataset.state = 'ready';
    this.dataset.position = String(this.position);
    this.changed({ position: this.position, total, caption: frame.caption, lines: frame.lines });
  }

  afterFrame() {}

  /** Attribute `step`: the position to open at. */
  startPosition() {
    const s = Number(this.getAttribute('step'));
    return Number.isInteger(s) && s > 0 ? s : 0;
  }

  render() {
    const key = this.key();
    if (key !== this.modelKey || !this.model) {
      this.model?.free?.();
      this.model = null;
      this.modelKey = key;
      this.model = this.build();
      this.layout(this.extraTop());
      this.position = Math.min(this.startPosition(), this.total());
    }
    this.showFrame();
  }

  extraTop() { return ''; }
  total() { return this.model ? this.model.steps?.() ?? this.model.stages() : 0; }
}

/** Reads a whole-number attribute (undefined when absent or empty). */
function intAttr(el, ...names) {
  for (const name of names) {
    const v = el.getAttribute(name);
    if (v !== null && v.trim() !== '') return Number(v);
  }
  return undefined;
}

/** Most bytes of kernel text read from a `src` file: the library's 16 MiB text cap (the wasm
 *  then names its own, smaller cap of the caller's thread). */
const MAX_SRC_BYTES = 16 << 20;

/** The body of `response` as text, refusing it past `limit` bytes as it streams in. */
async function cappedText(response, limit) {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw new Error(`the file is ${declared} bytes, more than ${limit}`);
  if (!response.body) return response.text();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > limit) {
      reader.cancel().catch(() => {});
      throw new Error(`the file is more than ${limit} bytes`);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** Common indentation removed, leading blank lines and trailing space dropped, one final newline. */
function dedent(raw) {
  const lines = raw.replace(/^\s*\n/, '').replace(/\s+$/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^[ \t]*/)[0].length));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n') + '\n';
}

/** <crosslane-kernel src="FILE.cu" blocks threads-per-block lanes entry step>: the kernel text from
 *  `src` (fetched: same origin, or another with CORS), else the `source` attribute, else the
 *  element's text content. */
class CrosslaneKernel extends SteppedBase {
  /** The kernel engine module is loaded for this element only. */
  static needsKernels = true;

  watch() {
    if (this.watching) return;
    super.watch();
    this.textObserver ??= new MutationObserver(() => this.schedule());
    this.textObserver.observe(this, { childList: true, characterData: true, subtree: true });
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.textObserver?.disconnect();
  }

  /** The kernel text, common indentation removed: from `src` once fetched (empty before), else
   *  the `source` attribute, else the text content. */
  get source() {
    const src = this.getAttribute('src');
    if (src !== null) return this.fetched?.src === src && typeof this.fetched.text === 'string' ? dedent(this.fetched.text) : '';
    const attr = this.getAttribute('source');
    return dedent(attr !== null ? attr : (this.textContent ?? ''));
  }

  /** Fetches `src` once per value; the element draws again when it has arrived or failed. The
   *  text is only ever data: drawn through textContent and handed to the interpreter. */
  async fetchSource(src) {
    if (this.fetching === src) return;
    this.fetching = src;
    let text = null;
    let error = null;
    try {
      const response = await fetch(dataUrl(src, 'src'), { credentials: 'same-origin' });
      if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
      text = await cappedText(response, MAX_SRC_BYTES);
    } catch (e) {
      error = e?.message ?? String(e);
    }
    if (this.fetching !== src) return;
    this.fetching = null;
    this.fetched = { src, text, error };
    this.schedule();
  }

  render() {
    const src = this.getAttribute('src');
    if (src !== null && this.fetched?.src !== src) {
      this.titleEl.textContent = 'kernel';
      this.bodyEl.textContent = '';
      this.model?.free?.();
      this.model = null;
      this.modelKey = null;
      this.dataset.state = 'pending';
      this.fetchSource(src);
      return;
    }
    if (src !== null && this.fetched.error !== null) {
      this.bodyEl.textContent = '';
      this.model?.free?.();
      this.model = null;
      this.modelKey = null;
      throw new Error(`could not load the kernel from src=${JSON.stringify(src.slice(0, 200))}: ${this.fetched.error}`
        + ' (another origin must send Access-Control-Allow-Origin)');
    }
    super.render();
  }

  launch() {
    const launch = {};
    const blocks = intAttr(this, 'blocks');
    const threads = intAttr(this, 'threads-per-block', 'threads_per_block');
    const lanes = intAttr(this, 'lanes');
    const entry = this.getAttribute('entry');
    if (blocks !== undefined) launch.blocks = blocks;
    if (threads !== undefined) launch.threads_per_block = threads;
    if (lanes !== undefined) launch.lanes = lanes;
    if (entry) launch.entry = entry;
    return launch;
  }

  key() { return JSON.stringify([this.source, this.launch()]); }

  build() {
    this.titleEl.textContent = 'kernel';
    try {
      return internals.kernelView(this.source, this.launch());
    } catch (e) {
      this.bodyEl.innerHTML = `<pre class="source"></pre>`;
      this.fillSource(this.bodyEl.querySelector('pre'), null);
      this.modelKey = null;
      this.setLink(this.scenario());
      throw e;
    }
  }

  extraTop() { return '<pre class="source"></pre>'; }

  fillSource(pre, current) {
    pre.replaceChildren(...this.source.replace(/\n$/, '').split('\n').map((text, i) => {
      const span = document.createElement('span');
      span.dataset.line = String(i + 1);
      span.textContent = text;
      if (current === i + 1) {
        span.className = 'current';
        span.setAttribute('aria-current', 'step');
      }
      return span;
    }));
  }

  afterFrame(frame) {
    this.fillSource(this.bodyEl.querySelector('pre.source'), frame.line);
    this.titleEl.textContent = `kernel · ${this.total()} statements`;
  }

  scenario() {
    const l = this.launch();
    return { version: 1, view: { kernel: { source: this.source, blocks: l.blocks ?? 0, threads_per_block: l.threads_per_block ?? 0, lanes: l.lanes ?? 0, step: this.position } } };
  }

  fallbackTitle() { return 'kernel'; }
  fallbackNote() { return 'Stepping through this kernel needs WebAssembly: open it in the playground.'; }

  showFallback() {
    super.showFallback();
    const pre = document.createElement('pre');
    pre.className = 'source';
    this.bodyEl.prepend(pre);
    this.fillSource(pre, null);
  }
}

/** <crosslane-sort n="16" seed values step>: the odd-even merge network, stage by stage. */
class CrosslaneSort extends SteppedBase {
  n() { return intAttr(this, 'n', 'len'); }

  key() { return JSON.stringify([this.n(), intAttr(this, 'seed'), this.getAttribute('values')]); }

  build() {
    const values = this.getAttribute('values') || undefined;
    const n = this.n() ?? (values ? undefined : 16);
    this.titleEl.textContent = `odd-even merge sort · ${n ?? values.split(',').length} keys`;
    try {
      return internals.sortView(n, intAttr(this, 'seed'), values);
    } catch (e) {
      this.bodyEl.innerHTML = '';
      this.modelKey = null;
      throw e;
    }
  }

  scenario() {
    const values = this.getAttribute('values') || null;
    return { version: 1, view: { sort: { len: this.n() ?? (values ? values.split(',').length : 16), seed: intAttr(this, 'seed') ?? 1, values, dialect: null } } };
  }

  fallbackTitle() { return `odd-even merge sort · ${this.n() ?? 16} keys`; }
  fallbackLanes() { return this.n() ?? 16; }
}

for (const [name, cls] of [['crosslane-op', CrosslaneOp], ['crosslane-kernel', CrosslaneKernel], ['crosslane-sort', CrosslaneSort]]) {
  if (!customElements.get(name)) customElements.define(name, cls);
}

export { CrosslaneOp, CrosslaneKernel, CrosslaneSort };
