// End-to-end tests of the mechanisms that keep the page's tasks short (each task under 50 ms). Their
// speed is measured by tests/e2e/longtask-bench.mjs, not here (a timed pass/fail test fails on a
// busy machine); these check that what the mechanisms build is complete and right:
// - the reference view builds its articles in chunks, one task each: `#reference` is busy
//   meanwhile, and afterwards holds every article, whole, and its search works;
// - the portability view keeps its comparison when shown again (the op view's hex setting is
//   that view's display option: the comparison stays in decimal);
// - the MACA view keeps its canvas width between renders and measures it again after a resize,
//   and keeps its memory table when the next builtin starts from the same buffer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, rendered, showView } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('the reference is built in chunks and is complete afterwards', async () => {
  const page = await open(browser);
  // Sample the article count at every animation frame while the chunks run.
  await page.evaluate(() => {
    window.__seen = [];
    const tick = () => {
      const list = document.querySelector('#reference');
      if (list) {
        window.__seen.push({
          n: list.querySelectorAll('article[data-op]').length,
          busy: list.getAttribute('aria-busy'),
          count: list.dataset.count ?? null,
        });
      }
      if (!list || !list.dataset.count) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await showView(page, 'reference');
  await page.waitForSelector('#reference[data-count]');
  const count = Number(await page.getAttribute('#reference', 'data-count'));
  const seen = await page.evaluate(() => window.__seen);
  // Chunks: some frame saw part of the list, busy and not yet counted.
  const partial = seen.filter((s) => s.n > 0 && s.n < count);
  assert.ok(partial.length > 0, `no frame saw a partial list: ${JSON.stringify(seen.map((s) => s.n))}`);
  assert.ok(partial.every((s) => s.busy === 'true' && s.count === null));
  // Complete: every article once, in its dialect's group, each whole.
  assert.equal(await page.getAttribute('#reference', 'aria-busy'), null);
  const arts = await page.$$eval('#reference article[data-op]', (a) => a.map((x) => ({
    key: `${x.dataset.dialect} ${x.dataset.op}`,
    group: x.closest('section.ref-dialect').dataset.dialect,
    dialect: x.dataset.dialect,
    parts: ['header h3', '.signature', '.rule', '.source', '.types', 'figure.example', 'button.open-playground']
      .filter((s) => !x.querySelector(s)),
  })));
  assert.equal(arts.length, count);
  assert.equal(new Set(arts.map((a) => a.key)).size, count, 'no article twice');
  assert.deepEqual(arts.filter((a) => a.group !== a.dialect), []);
  assert.deepEqual(arts.filter((a) => a.parts.length), [], 'articles missing a part');
  // Each group's heading count matches its articles.
  const groups = await page.$$eval('#reference section.ref-dialect', (s) => s.map((g) => ({
    said: Number(g.querySelector('h2 small').textContent.split(' ')[0]),
    has: g.querySelectorAll('article').length,
  })));
  for (const g of groups) assert.equal(g.has, g.said);
  assert.equal(await page.textContent('#reference-count'), `${count} operations`);
  // The search, wired by the last chunk, works: asc_shfl_xor is found by name.
  await rendered(page, () => page.fill('#reference-search', 'asc_shfl_xor'));
  assert.ok(Number(await page.getAttribute('#reference', 'data-shown')) >= 1);
  assert.equal(await page.isVisible('article[data-op="asc_shfl_xor"]'), true);
  assert.equal(await page.isVisible('article[data-op="__shfl_down_sync"]'), false);
  // The drawings are filled as they come near the screen: the first article's is drawn.
  await page.fill('#reference-search', '');
  await page.waitForSelector('#reference article[data-op="asc_shfl_xor"] .example-drawing svg');
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});

test('the portability view shown again keeps its comparison, in decimal whatever the op view shows', async () => {
  const page = await open(browser);
  await rendered(page, () => showView(page, 'compare'));
  // The opening example: CUDA __shfl_down_sync(delta 33, width 16) reads lane + (33 & 31).
  const cuda = (i) => page.textContent(`#compare-lanes tr[data-lane="${i}"] td.run[data-run="CUDA"] .value`);
  assert.equal(await cuda(0), '1');
  await showView(page, 'op');
  await rendered(page, () => page.check('#show-hex'));
  await rendered(page, () => showView(page, 'compare'));
  // Hex is passed to the op view's renderer only (DisplayOptions), not read by this view.
  assert.equal(await cuda(0), '1');
  await showView(page, 'op');
  await rendered(page, () => page.uncheck('#show-hex'));
  await rendered(page, () => showView(page, 'compare'));
  assert.equal(await cuda(0), '1');
  assert.equal(await page.getAttribute('#compare-canvas', 'data-runs'), '5');
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});

test('the MACA view measures its canvas again after a resize', async () => {
  const page = await open(browser);
  await rendered(page, () => showView(page, 'maca'));
  const width = () => page.$eval('#maca-canvas', (c) => c.getBoundingClientRect().width);
  const wide = await width();
  await page.setViewportSize({ width: 700, height: 900 });
  await rendered(page, () => page.selectOption('#maca-op', '__builtin_mxc_mov_shfl'));
  const narrow = await width();
  assert.ok(narrow < wide, `after the resize the canvas is ${narrow} px wide, before ${wide}`);
  // Not wider than its column (or its scroller keeps it there): the page does not scroll sideways.
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(scroll <= 0, `the page scrolls ${scroll} px sideways`);
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});

test('the MACA memory table stays across builtins with the same buffer, and resets after an edit', async () => {
  const page = await open(browser);
  await rendered(page, () => showView(page, 'maca'));
  const word = (w) => `#maca-memory-edit input[data-word="${w}"]`;
  const tag = (w) => page.$eval(word(w), (i) => { i.__kept = true; });
  const kept = (w) => page.$eval(word(w), (i) => i.__kept === true);
  // Every memory builtin starts from `index` (word w = w, seed 002 §3.1 defaults in the core).
  assert.equal(await page.inputValue(word(5)), '0x00000005');
  await tag(5);
  await rendered(page, () => page.selectOption('#maca-op', '__builtin_mxc_stg_b32_predicator'));
  assert.equal(await kept(5), true, 'the same buffer: the same inputs');
  assert.equal(await page.inputValue(word(5)), '0x00000005');
  // An edit, then another builtin: the buffer resets to the default, so the table is new.
  await rendered(page, () => page.fill(word(5), '0x63'));
  await rendered(page, () => page.selectOption('#maca-op', '__builtin_mxc_ldg_b32_predicator'));
  assert.equal(await kept(5), false);
  assert.equal(await page.inputValue(word(5)), '0x00000005');
  // Refused text in a word, then another builtin: the field is reset, not left refused.
  await page.fill(word(2), 'zz');
  assert.equal(await page.getAttribute(word(2), 'aria-invalid'), 'true');
  await rendered(page, () => page.selectOption('#maca-op', '__builtin_mxc_stg_b32_predicator'));
  assert.equal(await page.inputValue(word(2)), '0x00000002');
  assert.equal(await page.getAttribute(word(2), 'aria-invalid'), null);
  // Through a builtin without memory and back: the table is there again.
  await rendered(page, () => page.selectOption('#maca-op', '__builtin_mxc_mov_shfl'));
  assert.equal(await page.isVisible('#maca-memory-edit'), false);
  await rendered(page, () => page.selectOption('#maca-op', '__builtin_mxc_ldg_b32_predicator'));
  assert.equal(await page.inputValue(word(0)), '0x00000000');
  // Lane 1 loads word 1 (global_addr lane*4) from the table shown.
  assert.equal(await page.textContent('#maca-lanes tr[data-lane="1"] td.result'), '1');
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});
