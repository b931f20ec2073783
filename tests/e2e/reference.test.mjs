// End-to-end test of the reference view: every registry operation listed (signature, rule,
// source, parameter ranges, types, a live example) from crosslane_core::reference::entries, the
// same list `crosslane ops --json` prints; "open in playground" loads an example into the op
// view; the op view's `#show-hex` shows values as raw bits (views/reference.rs page contract).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS, PAGE_URL, launch, open, rendered, showView } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The built CLI, if any: CROSSLANE_BIN, else target/{release,debug}/crosslane. */
const CLI = [process.env.CROSSLANE_BIN, join(ROOT, 'target/release/crosslane'), join(ROOT, 'target/debug/crosslane')]
  .find((p) => p && existsSync(p));

async function openReference() {
  const page = await open(browser);
  await rendered(page, () => showView(page, 'reference'));
  await page.waitForSelector('#reference[data-count]');
  return page;
}

const results = (page) =>
  page.$$eval('#lanes tr[data-lane] td.result', (tds) => tds.map((td) => td.textContent));

test('every operation of the registry is listed, once, grouped by dialect', async (t) => {
  const page = await openReference();
  const count = Number(await page.getAttribute('#reference', 'data-count'));
  const ops = await page.$$eval('#reference article[data-op]', (a) => a.map((x) => `${x.dataset.dialect} ${x.dataset.op}`));
  assert.equal(ops.length, count);
  assert.equal(new Set(ops).size, count, 'no operation twice');
  assert.equal(await page.textContent('#reference-count'), `${count} operations`);
  const dialects = await page.$$eval('#reference section.ref-dialect', (s) => s.map((x) => x.dataset.dialect));
  assert.deepEqual(dialects, ['ascend', 'cuda', 'hip', 'amdgcn', 'maca', 'wgsl']);
  // Each article sits in its dialect's group.
  const misplaced = await page.$$eval('#reference article', (a) =>
    a.filter((x) => x.closest('section.ref-dialect').dataset.dialect !== x.dataset.dialect).length);
  assert.equal(misplaced, 0);
  if (CLI) {
    const cli = JSON.parse(execFileSync(CLI, ['ops', '--json'], { maxBuffer: 64 << 20 }).toString());
    assert.equal(count, cli.length, `the page lists ${count} ops, \`crosslane ops --json\` ${cli.length}`);
    assert.deepEqual(ops, cli.map((e) => `${e.dialect} ${e.name}`), 'same ops, same order');
  } else {
    t.diagnostic('no crosslane binary (set CROSSLANE_BIN or build crosslane-cli): CLI count not compared');
  }
  await page.close();
});

test('asc_shfl_xor: signature, rule, source, parameters, types and the seed example 1,0,3,2', async () => {
  const page = await openReference();
  const art = 'article[data-op="asc_shfl_xor"]';
  assert.match(await page.textContent(`${art} .signature`), /asc_shfl_xor\(T var, int32_t lane_mask, int32_t width = warpSize\)/);
  assert.ok((await page.textContent(`${art} .rule`)).length > 40);
  assert.match(await page.textContent(`${art} .source`), /^source: /);
  const params = await page.$$eval(`${art} table.params tbody tr`, (r) => r.map((tr) => tr.dataset.param));
  assert.deepEqual(params, ['lane_mask', 'width']);
  assert.match(await page.textContent(`${art} tr[data-param="width"] td.range`), /1\.\.=2147483647/);
  assert.equal(await page.textContent(`${art} tr[data-param="width"] td.default`), 'the lane count');
  assert.match(await page.textContent(`${art} .types`), /i32/);
  assert.match(await page.textContent(`${art} .command`), /crosslane op ascend asc_shfl_xor --lane-mask 1 --width 16/);
  const example = (await page.getAttribute(`${art} figure.example`, 'data-results')).split(',');
  assert.deepEqual(example.slice(0, 4), ['1', '0', '3', '2']);
  assert.deepEqual(example, Array.from({ length: 32 }, (_, i) => String(i ^ 1)));
  // The drawing is the SVG renderer's, filled in when the article scrolls into view.
  await page.$eval(art, (a) => a.scrollIntoView());
  await page.waitForSelector(`${art} .example-drawing svg`);
  const titles = await page.$$eval(`${art} svg g.lane title`, (t) => t.map((x) => x.textContent));
  assert.ok(titles.includes('lane 0 ← lane 1: 1'), titles.slice(0, 3).join(' | '));
  await page.close();
});

test('search narrows the list; "open in playground" loads the example into the op view; hex', async () => {
  const page = await openReference();
  const count = Number(await page.getAttribute('#reference', 'data-count'));
  await rendered(page, () => page.fill('#reference-search', 'ascend xor'));
  assert.equal(await page.getAttribute('#reference', 'data-shown'), '1');
  assert.ok(await page.isVisible('article[data-op="asc_shfl_xor"]'));
  assert.ok(!(await page.isVisible('article[data-op="asc_shfl_up"]')));
  assert.ok(!(await page.isVisible('section.ref-dialect[data-dialect="cuda"]')));
  assert.equal(await page.textContent('#reference-count'), `1 of ${count} operations`);

  await rendered(page, () => page.click('article[data-op="asc_shfl_xor"] button.open-playground'));
  await page.waitForFunction(() => document.body.dataset.view === 'op');
  assert.ok(await page.isVisible('#view-op'));
  assert.ok(!(await page.isVisible('#view-reference')));
  assert.equal(await page.inputValue('select#dialect'), 'ascend');
  assert.equal(await page.inputValue('select#op'), 'asc_shfl_xor');
  assert.equal(await page.inputValue('input[data-param="lane_mask"]'), '1');
  assert.equal(await page.inputValue('input[data-param="width"]'), '16');
  assert.deepEqual(await results(page), Array.from({ length: 32 }, (_, i) => String(i ^ 1)));

  // Values as raw bits: i32 in 8 hex digits.
  await rendered(page, () => page.check('input#show-hex'));
  const hex = await results(page);
  assert.equal(hex[0], '0x00000001');
  assert.equal(hex[31], '0x0000001e');
  await rendered(page, () => page.uncheck('input#show-hex'));
  assert.equal((await results(page))[0], '1');
  assert.equal(await page.$('#panic-banner'), null);
  await page.close();
});

test('an opened example gives the same results in the op view as in the reference', async () => {
  // The first op of every dialect, and the packed-pair ops whose per-lane defaults must survive
  // the trip through the form (a `1` typed into a bf16x2 field is refused).
  const page = await openReference();
  const all = await page.$$eval('#reference article', (a) =>
    a.map((x) => ({ dialect: x.dataset.dialect, op: x.dataset.op, results: x.querySelector('figure').dataset.results })));
  const firsts = all.filter((e, i) => i === 0 || all[i - 1].dialect !== e.dialect);
  const packed = all.filter((e) => /^__builtin_mxc_pk_fma_(bf16|f16)$/.test(e.op));
  assert.equal(packed.length, 2);
  for (const e of [...firsts, ...packed]) {
    // Built once: showing it again draws nothing new, so there is no render to wait for.
    if (await page.evaluate(() => document.body.dataset.view) !== 'reference') {
      await showView(page, 'reference');
    }
    const button = `article[data-dialect="${e.dialect}"][data-op="${e.op}"] button.open-playground`;
    await rendered(page, () => page.click(button));
    assert.equal(await page.inputValue('select#dialect'), e.dialect);
    assert.equal(await page.inputValue('select#op'), e.op);
    assert.ok(!(await page.isVisible('#input-error')), `${e.op}: ${await page.textContent('#input-error')}`);
    assert.equal((await results(page)).join(','), e.results, `${e.dialect} ${e.op}`);
  }
  await page.close();
});

// The example drawings follow the page theme (the same --draw-* custom
// properties the canvases read), under ?theme=dark and under prefers-color-scheme: dark.
for (const how of ['?theme=dark', 'prefers-color-scheme']) {
  test(`reference example drawings are dark under ${how}`, async () => {
    const page = await browser.context.newPage();
    if (how === 'prefers-color-scheme') await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${PAGE_URL}${how.startsWith('?') ? how : ''}`);
    await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
    await rendered(page, () => showView(page, 'reference'));
    const art = 'article[data-op="__ballot_sync"]';
    await page.locator(art).scrollIntoViewIfNeeded();
    await page.waitForSelector(`${art} .example-drawing svg`);
    const colours = await page.$eval(`${art} .example-drawing svg`, (svg) => {
      const lum = (c) => {
        const [r, g, b] = c.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
          v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const background = getComputedStyle(svg.querySelector(':scope > rect')).fill;
      const inputs = [...svg.querySelectorAll('g.lane.input > rect:first-of-type')].map((r) => getComputedStyle(r).fill);
      const labels = [...svg.querySelectorAll('g.lane > text')].map((t) => getComputedStyle(t).fill);
      const legend = [...svg.querySelectorAll(':scope > text')].map((t) => getComputedStyle(t).fill);
      return {
        background: lum(background),
        inputs: inputs.map(lum),
        labels: labels.map(lum),
        legend: legend.map(lum),
        theme: document.documentElement.dataset.theme,
      };
    });
    assert.equal(colours.theme, 'dark');
    assert.ok(colours.background < 0.05, `background luminance ${colours.background}`);
    assert.ok(colours.inputs.length > 0 && colours.inputs.every((l) => l < 0.1), `input boxes ${colours.inputs}`);
    // Text is light on the dark drawing.
    assert.ok(colours.labels.length > 0 && colours.labels.every((l) => l > 0.4), `labels ${colours.labels}`);
    assert.ok(colours.legend.length > 0 && colours.legend.every((l) => l > 0.3), `legend ${colours.legend}`);
    await page.locator(art).screenshot({ path: join(ARTIFACTS, `reference-dark-${how.startsWith('?') ? 'query' : 'media'}.png`) });
    await page.close();
  });
}

test('screenshot: the reference', async () => {
  const page = await openReference();
  // Example drawings are drawn as they come into view; the page opens on the CUDA entries.
  await page.locator('article[data-op="asc_shfl_xor"]').scrollIntoViewIfNeeded();
  await page.waitForSelector('article[data-op="asc_shfl_xor"] .example-drawing svg');
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'reference.png') });
  await page.close();
  assert.deepEqual(browser.pageErrors, [], 'no page errors or console errors');
});
