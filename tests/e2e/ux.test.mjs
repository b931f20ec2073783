// End-to-end tests of the page as people use it: every view's state
// in its link, the layout at phone/tablet/desktop widths (screenshots of each), the dark theme
// with computed text contrast, WAI-ARIA tabs and keyboard habits, and an axe-core scan.
//
// Serve the built page first (see lib.mjs), then:
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/ux.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { PAGE_URL, ARTIFACTS, launch, open, rendered, showView, share, settledHash } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const VIEWS = ['op', 'compare', 'kernel', 'sort', 'maca', 'reference'];

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const hashOf = async (page) => (await settledHash(page)).slice(1);

async function reload(page) {
  await page.reload();
  await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
}

// ---- keyboard and screen readers --------------------------------------------------------------

test('view tabs follow the WAI-ARIA tabs pattern: panels, aria-controls, arrow keys, one tab stop', async () => {
  const page = await open(browser);
  const tabs = await page.$$eval('nav#views[role=tablist] [role=tab]', (ts) => ts.map((t) => ({
    view: t.dataset.view,
    controls: t.getAttribute('aria-controls'),
    panelRole: document.getElementById(t.getAttribute('aria-controls'))?.getAttribute('role'),
    labelledBy: document.getElementById(t.getAttribute('aria-controls'))?.getAttribute('aria-labelledby'),
    id: t.id,
    tabindex: t.getAttribute('tabindex'),
  })));
  assert.deepEqual(tabs.map((t) => t.view), VIEWS);
  for (const t of tabs) {
    assert.equal(t.controls, `view-${t.view}`);
    assert.equal(t.panelRole, 'tabpanel', t.view);
    if (t.labelledBy) assert.equal(t.labelledBy, t.id);
  }
  assert.deepEqual(tabs.map((t) => t.tabindex), ['0', '-1', '-1', '-1', '-1', '-1']);

  const focusedTab = () => page.evaluate(() => document.activeElement?.dataset.view ?? null);
  const shown = () => page.evaluate(() => document.body.dataset.view);
  await page.focus('nav#views [data-view="op"]');
  await page.keyboard.press('ArrowRight');
  assert.equal(await focusedTab(), 'compare');
  assert.equal(await shown(), 'compare', 'automatic activation: focus selects');
  assert.equal(await page.$eval('#view-compare', (s) => s.hidden), false);
  assert.deepEqual(
    await page.$$eval('nav#views [role=tab]', (ts) => ts.filter((t) => t.tabIndex === 0).map((t) => t.dataset.view)),
    ['compare'], 'one tab stop, on the selected tab');
  await page.keyboard.press('End');
  assert.equal(await focusedTab(), 'reference');
  assert.equal(await shown(), 'reference');
  await page.keyboard.press('ArrowRight');
  assert.equal(await focusedTab(), 'op', 'wraps from the last to the first');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focusedTab(), 'reference', 'wraps from the first to the last');
  await page.keyboard.press('Home');
  assert.equal(await shown(), 'op');
  // Tab leaves the tab list in one press.
  await page.keyboard.press('Tab');
  assert.notEqual(await page.evaluate(() => document.activeElement?.getAttribute('role')), 'tab');
  await page.close();
});

test('Space on a lane checkbox toggles the lane and keeps focus on that checkbox', async () => {
  const page = await open(browser);
  const box = '#lanes tr[data-lane="3"] input[type=checkbox]';
  await page.focus(box);
  await rendered(page, () => page.keyboard.press('Space'));
  const after = await page.evaluate(() => {
    const a = document.activeElement;
    return { lane: a?.closest('tr')?.dataset.lane, checked: a?.checked, type: a?.type };
  });
  assert.deepEqual(after, { lane: '3', checked: false, type: 'checkbox' });
  assert.match(await page.inputValue('#active'), /^0x[0-9a-f]*f7$/i, 'lane 3 off in the active mask');
  await rendered(page, () => page.keyboard.press('Space'));
  assert.equal(await page.evaluate(() => document.activeElement?.closest('tr')?.dataset.lane), '3');
  assert.equal(await page.$eval(box, (b) => b.checked), true);
  // The drawing is described by its lane table.
  assert.equal(await page.$eval('#lane-canvas', (c) => c.getAttribute('aria-details')), 'lanes');
  await page.close();
});

test('Ctrl+Enter in the kernel editor runs the kernel, without typing a newline', async () => {
  const page = await open(browser);
  await showView(page, 'kernel');
  const source = await page.inputValue('#kernel-source');
  assert.equal(await page.$eval('#kernel-slider', (s) => s.value), '0');
  await page.focus('#kernel-source');
  await page.keyboard.press('Control+Enter');
  await page.waitForFunction(() => {
    const s = document.getElementById('kernel-slider');
    return Number(s.max) > 0 && s.value === s.max;
  }, null, { timeout: 30000 });
  assert.equal(await page.inputValue('#kernel-source'), source);
  await page.close();
});

test('hovering an intrinsic in the kernel editor shows its signature, rule and source', async () => {
  const page = await open(browser);
  await showView(page, 'kernel');
  const source = 'int v = __shfl_down_sync(0xffffffff, x, 1);';
  await rendered(page, () => page.fill('#kernel-source', source));
  // The pointer over column 12 of line 0: inside `__shfl_down_sync`.
  const at = await page.$eval('#kernel-source', (a) => {
    const s = getComputedStyle(a);
    const c = document.createElement('canvas').getContext('2d');
    c.font = `${s.fontSize} ${s.fontFamily}`;
    const cw = c.measureText('0000000000').width / 10;
    const r = a.getBoundingClientRect();
    return { x: r.left + parseFloat(s.paddingLeft) + cw * 12.5, y: r.top + parseFloat(s.paddingTop) + parseFloat(s.lineHeight) / 2 };
  });
  await page.mouse.move(at.x, at.y);
  await page.waitForSelector('#kernel-hint:not([hidden])');
  const text = await page.textContent('#kernel-hint');
  assert.match(text, /^CUDA/);
  assert.match(text, /__shfl_down_sync\(unsigned mask/);
  assert.match(text, /source: /);
  assert.equal(await page.$eval('#kernel-source', (a) => a.getAttribute('aria-describedby')), 'kernel-hint');
  await page.screenshot({ path: `${ARTIFACTS}kernel-hint.png` });
  // Past the end of the text: no hint.
  await page.mouse.move(at.x + 400, at.y + 200);
  await page.waitForSelector('#kernel-hint', { state: 'hidden' });
  await page.close();
});

test('axe-core finds no serious or critical violation in any view, light or dark, at 1440 and 390 px', async () => {
  // At 390 px the lane drawings, the tables and the reference's parameter tables no longer fit:
  // whatever scrolls must be reachable by keyboard (scrollable-region-focusable).
  const moderate = new Set(['landmark-one-main', 'region', 'heading-order']);
  for (const width of [1440, 390]) {
    for (const theme of ['light', 'dark']) {
      const page = await open(browser, `${PAGE_URL}?theme=${theme}`);
      await page.setViewportSize({ width, height: 900 });
      await page.addScriptTag({ path: AXE });
      for (const view of VIEWS) {
        if (view !== 'op') await showView(page, view);
        await page.waitForTimeout(300);
        const found = await page.evaluate(async (moderate) => {
          const r = await globalThis.axe.run(document, { resultTypes: ['violations'] });
          return r.violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical' || moderate.includes(v.id))
            .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
        }, [...moderate]);
        assert.deepEqual(found, [], `${width} px ${theme} ${view}`);
      }
      await page.close();
    }
  }
});

test('every drawing is described by its lane table, every view panel labelled by its tab', async () => {
  const page = await open(browser);
  const described = {
    op: ['#lane-canvas', 'lanes'],
    compare: ['#compare-canvas', 'compare-lanes'],
    kernel: ['#kernel-canvas', 'kernel-vars'],
    sort: ['#sort-canvas', 'sort-keys'],
    maca: ['#maca-canvas', 'maca-lanes'],
  };
  for (const [view, [canvas, table]] of Object.entries(described)) {
    if (view !== 'op') await showView(page, view);
    const ids = await page.$eval(canvas, (c) => (c.getAttribute('aria-describedby') ?? '').split(/\s+/));
    assert.ok(ids.includes(table), `${canvas} described by #${table}: ${ids}`);
    assert.ok(await page.$(`#${table}`), `#${table} exists`);
  }
  const panels = await page.$$eval('section[role=tabpanel]', (ps) => ps.map((p) => [p.id, p.getAttribute('aria-labelledby')]));
  assert.equal(panels.length, VIEWS.length);
  for (const [id, by] of panels) assert.equal(by, `tab-${id.replace('view-', '')}`, id);
  await page.close();
});

test('at 390 px the lane drawing scrollers are keyboard reachable and scroll with the arrow keys', async () => {
  const page = await open(browser);
  await page.setViewportSize({ width: 390, height: 900 });
  for (const [view, sel] of [['op', '#stage'], ['compare', '.compare-stage'], ['sort', '.sort-canvas-wrap']]) {
    if (view !== 'op') await showView(page, view);
    await page.waitForTimeout(300);
    const info = await page.$eval(sel, (s) => ({
      tabindex: s.tabIndex, name: s.getAttribute('aria-label'), scrolls: s.scrollWidth > s.clientWidth,
    }));
    assert.equal(info.tabindex, 0, sel);
    assert.ok(info.name, `${sel} has a name`);
    if (info.scrolls) {
      await page.focus(sel);
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction((s) => document.querySelector(s).scrollLeft > 0, sel);
    }
  }
  await page.close();
});

// ---- dark theme and contrast ------------------------------------------------------------------

/** Every visible text node's colour against the background it is drawn on: the lowest ratios. */
function contrastProbe() {
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r, g, b, a };
  };
  const lum = ({ r, g, b }) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const over = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a),
    g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a),
    a: 1,
  });
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const bg = parse(getComputedStyle(e).backgroundColor);
      if (bg && bg.a > 0) { layers.push(bg); if (bg.a >= 1) break; }
    }
    let c = { r: 255, g: 255, b: 255, a: 1 };
    for (const l of layers.reverse()) c = over(l, c);
    return c;
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !n.textContent.trim()) continue;
    if (el.closest('[hidden], svg, canvas, script, style, noscript, option, [aria-hidden="true"]')) continue;
    if (el.closest('input:disabled, button:disabled, select:disabled')) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) continue;
    const st = getComputedStyle(el);
    if (st.visibility !== 'visible' || Number(st.opacity) === 0) continue;
    const fg = parse(st.color);
    if (!fg) continue;
    const bg = background(el);
    const f = over(fg, bg);
    const [hi, lo] = [lum(f), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(st.fontSize);
    const bold = Number(st.fontWeight) >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    out.push({ ratio: Math.round(ratio * 100) / 100, need: large ? 3 : 4.5, text: n.textContent.trim().slice(0, 40), where: el.tagName + (el.id ? `#${el.id}` : '') + (el.className ? `.${String(el.className).split(' ')[0]}` : '') });
  }
  return out.filter((o) => o.ratio < o.need);
}

for (const theme of ['light', 'dark']) {
  test(`${theme} theme: every text in every view has contrast >= 4.5:1 (3:1 large), computed`, async () => {
    const page = await open(browser, `${PAGE_URL}?theme=${theme}`);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
    for (const view of VIEWS) {
      if (view !== 'op') await showView(page, view);
      await page.waitForTimeout(300);
      const low = await page.evaluate(contrastProbe);
      assert.deepEqual(low, [], `${theme} ${view}: text under its contrast minimum`);
      await page.screenshot({ path: `${ARTIFACTS}theme-${theme}-${view}.png`, fullPage: false });
    }
    await page.close();
  });
}

test('dark theme reaches the drawings (canvas background from the theme) and follows prefers-color-scheme', async () => {
  const corner = (page, sel) => page.$eval(sel, (c) => Array.from(c.getContext('2d').getImageData(1, 1, 1, 1).data.slice(0, 3)));
  const dark = await open(browser, `${PAGE_URL}?theme=dark`);
  const [r, g, b] = await corner(dark, '#lane-canvas');
  assert.ok(r + g + b < 3 * 80, `dark canvas background, got ${r},${g},${b}`);
  await dark.close();
  const light = await open(browser, `${PAGE_URL}?theme=light`);
  assert.deepEqual(await corner(light, '#lane-canvas'), [255, 255, 255]);
  await light.close();
  // No theme in the address: the reader's preference decides.
  const page = await browser.context.newPage();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(PAGE_URL);
  await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(11, 18, 32)');
  await page.close();
});

test('a dark embed shows every parameter of its operation, editable, on dark cards', async () => {
  const page = await open(browser);
  await rendered(page, () => page.selectOption('#dialect', 'cuda'));
  await rendered(page, () => page.selectOption('#op', '__shfl_xor_sync'));
  const link = await hashOf(page);
  await page.close();
  const embed = await open(browser, `${PAGE_URL}?embed&theme=dark#${link}`);
  const params = await embed.$$eval('#controls [data-param]', (ps) => ps
    .filter((p) => p.getBoundingClientRect().width > 0)
    .map((p) => p.dataset.param));
  for (const name of ['mask', 'lane_mask', 'width']) assert.ok(params.includes(name), `${name} in ${params}`);
  await rendered(embed, () => embed.fill('[data-param="width"]', '8'));
  assert.equal(await embed.inputValue('[data-param="width"]'), '8');
  const low = await embed.evaluate(contrastProbe);
  assert.deepEqual(low, []);
  await embed.screenshot({ path: `${ARTIFACTS}embed-dark-params.png` });
  await embed.close();
});

// ---- layout at four widths --------------------------------------------------------------------

for (const width of [390, 768, 1024, 1440]) {
  test(`layout at ${width} px: no sideways page scroll, the controls never cover the results`, async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height: 900 });
    await page.goto(PAGE_URL);
    await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
    for (const view of VIEWS) {
      if (view !== 'op') await showView(page, view);
      await page.waitForTimeout(300);
      const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(over <= 0, `${view} at ${width} px scrolls sideways by ${over} px`);
      await page.screenshot({ path: `${ARTIFACTS}layout-${width}-${view}.png`, fullPage: true });
    }
    await showView(page, 'op');
    const panel = await page.$eval('#panel', (p) => ({ position: getComputedStyle(p).position, bottom: p.getBoundingClientRect().bottom + scrollY }));
    const drawing = await page.$eval('#drawing', (d) => d.getBoundingClientRect().top + scrollY);
    if (width < 1100) {
      assert.equal(panel.position, 'static', 'the controls stack in the flow');
      assert.ok(panel.bottom <= drawing, 'the controls sit above the drawing');
    }
    // Scrolled to the lane table, nothing covers it.
    await page.$eval('#table-panel', (t) => t.scrollIntoView());
    // The table's scroller is laid out only once it is on screen (content-visibility: auto):
    // two frames after the scroll it is.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const top = await page.evaluate(() => {
      const r = document.querySelector('#lanes tbody tr').getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + 5, r.top + r.height / 2);
      return hit?.closest('#lanes') ? 'table' : hit?.closest('#panel') ? 'panel' : hit?.tagName;
    });
    assert.equal(top, 'table');
    await page.close();
  });
}

// ---- every view's state in its link ----------------------------------------------------------

test('the portability view is a link: reload and Back restore it', async () => {
  const page = await open(browser);
  await showView(page, 'compare');
  await rendered(page, () => page.selectOption('#compare-family', 'up'));
  await page.waitForTimeout(700);
  await rendered(page, () => page.fill('#compare-param', '3'));
  await page.waitForTimeout(700);
  await rendered(page, () => page.fill('#compare-width', '8'));
  const link = await hashOf(page);
  assert.match(link, /^v1\./);
  await share(page, '#copy-link');
  assert.equal(await page.inputValue('#share-text'), page.url());
  await reload(page);
  assert.equal(await page.evaluate(() => document.body.dataset.view), 'compare');
  assert.equal(await page.inputValue('#compare-family'), 'up');
  assert.equal(await page.inputValue('#compare-param'), '3');
  assert.equal(await page.inputValue('#compare-width'), '8');
  // CUDA __shfl_up_sync, delta 3, width 8 (PTX shfl.sync up: a source below the segment's
  // first lane keeps the own value): lane 2 keeps 2, lane 3 reads lane 0, lane 11 lane 8.
  const cuda = (i) => page.textContent(`#compare-lanes tr[data-lane="${i}"] td.run[data-run="CUDA"] .value`);
  assert.equal(await cuda(2), '2');
  assert.equal(await cuda(3), '0');
  assert.equal(await cuda(11), '8');
  await rendered(page, () => page.goBack());
  assert.equal(await page.evaluate(() => document.body.dataset.view), 'compare');
  assert.equal(await page.inputValue('#compare-width'), '16', 'Back: the width as it was before');
  assert.equal(await page.inputValue('#compare-param'), '3');
  await page.close();
});

test('the sort step is in the link', async () => {
  const page = await open(browser);
  await showView(page, 'sort');
  await rendered(page, () => page.fill('#sort-values', '9,8,7,6,5,4,3,2,1,0'));
  await rendered(page, () => page.click('#sort-step'));
  await rendered(page, () => page.click('#sort-step'));
  await rendered(page, () => page.click('#sort-step'));
  const position = await page.textContent('#sort-position');
  assert.equal(await page.$eval('#sort-slider', (s) => s.value), '3');
  await reload(page);
  assert.equal(await page.evaluate(() => document.body.dataset.view), 'sort');
  assert.equal(await page.inputValue('#sort-values'), '9,8,7,6,5,4,3,2,1,0');
  assert.equal(await page.$eval('#sort-slider', (s) => s.value), '3');
  assert.equal(await page.textContent('#sort-position'), position);
  await page.close();
});

test('values in hex is in the link', async () => {
  const page = await open(browser);
  await rendered(page, () => page.fill('#values', 'lane-3'));
  await rendered(page, () => page.check('#show-hex'));
  const cell = () => page.$eval('#lanes tr[data-lane="0"] td.input', (td) => td.textContent);
  assert.equal(await cell(), '0xfffffffd');
  await reload(page);
  assert.equal(await page.$eval('#show-hex', (c) => c.checked), true);
  assert.equal(await cell(), '0xfffffffd');
  await rendered(page, () => page.goBack());
  assert.equal(await page.$eval('#show-hex', (c) => c.checked), false);
  assert.equal(await cell(), '-3');
  await page.close();
});

test('MACA memory edits are in the link', async () => {
  const page = await open(browser);
  await showView(page, 'maca');
  await rendered(page, () => page.selectOption('#maca-op', '__builtin_mxc_ldg_b32_predicator'));
  await rendered(page, () => page.fill('#maca-memory-edit input[data-word="5"]', '0x11223344'));
  const lane5 = () => page.textContent('#maca-lanes tr[data-lane="5"] td.result');
  // Seed 002 ldg_b32_predicator with the default addresses lane*4: lane 5 loads word 5.
  assert.equal(await lane5(), '287454020');
  await reload(page);
  assert.equal(await page.evaluate(() => document.body.dataset.view), 'maca');
  assert.equal(await page.inputValue('#maca-memory-edit input[data-word="5"]'), '0x11223344');
  assert.equal(await lane5(), '287454020');
  await page.close();
});

test('monospace inputs show underscores at 1x', async () => {
  const page = await open(browser);
  await rendered(page, () => page.selectOption('#dialect', 'amdgcn'));
  await rendered(page, () => page.selectOption('#op', 'update_dpp'));
  const input = await page.$('[data-param="dpp_ctrl"]');
  await rendered(page, () => input.fill('row_shr:1'));
  // The text line fits the box: line-height plus padding is no taller than the control.
  const fits = await input.evaluate((i) => {
    const s = getComputedStyle(i);
    return parseFloat(s.lineHeight) >= parseFloat(s.fontSize) * 1.3 &&
      parseFloat(s.lineHeight) <= i.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom) + 0.5;
  });
  assert.ok(fits, 'line box tall enough for the underscore and inside the control');
  await input.screenshot({ path: `${ARTIFACTS}underscore-1x.png` });
  // An error line names only what is wrong: the field's label already names the field.
  await rendered(page, () => input.fill('row_shr:99'));
  const line = await page.textContent('.field[data-field="dpp_ctrl"] .field-error');
  assert.doesNotMatch(line, /^dpp_ctrl:/);
  await page.close();
});
