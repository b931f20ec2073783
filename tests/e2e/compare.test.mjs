// End-to-end test of the portability view: one shuffle request run under CUDA, HIP wave32,
// HIP wave64, Ascend C and WGSL side by side, the lanes where they disagree marked on the canvas
// and in table#compare-lanes with the rule that makes them differ (views/compare.rs page
// contract). Expected values follow semantics.md: __shfl_down_sync uses delta & 31 (PTX
// shfl.sync), HIP and Ascend C keep the own value for delta >= width, WGSL's
// subgroupShuffleDown outside the subgroup is indeterminate.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, PAGE_URL, launch, open, rendered, showView } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const RUNS = ['CUDA', 'HIP wave32', 'HIP wave64', 'Ascend C', 'WGSL'];

/** The value cell text of `run` at `lane`. */
const value = (page, lane, run) =>
  page.textContent(`#compare-lanes tr[data-lane="${lane}"] td.run[data-run="${run}"] .value`);

async function openCompare() {
  const page = await open(browser);
  await rendered(page, () => showView(page, 'compare'));
  return page;
}

test('down by 33 with width 16: five runs, lane 0 disagrees (CUDA 1, HIP and Ascend 0, WGSL undefined)', async () => {
  const page = await openCompare();
  // The default example is the issue's.
  assert.equal(await page.inputValue('select#compare-family'), 'down');
  assert.equal(await page.inputValue('input#compare-param'), '33');
  assert.equal(await page.inputValue('input#compare-width'), '16');
  const heads = await page.$$eval('#compare-lanes thead th', (t) => t.map((th) => th.textContent));
  assert.deepEqual(heads, ['lane', ...RUNS, 'agree', 'why they differ']);
  assert.equal(await page.getAttribute('canvas#compare-canvas', 'data-runs'), '5');

  const row0 = '#compare-lanes tr[data-lane="0"]';
  assert.equal(await page.getAttribute(row0, 'data-agree'), 'false');
  assert.equal(await value(page, 0, 'CUDA'), '1');
  assert.equal(await page.textContent(`${row0} td[data-run="CUDA"] .outcome`), 'lane 1');
  assert.equal(await value(page, 0, 'HIP wave32'), '0');
  assert.equal(await value(page, 0, 'HIP wave64'), '0');
  assert.equal(await value(page, 0, 'Ascend C'), '0');
  assert.equal(await page.textContent(`${row0} td[data-run="Ascend C"] .outcome`), 'own');
  assert.equal(await value(page, 0, 'WGSL'), 'undefined');
  assert.equal(await page.textContent(`${row0} td.agree`), '≠');
  const why = await page.textContent(`${row0} td.why`);
  assert.match(why, /CUDA uses only param & 31 = 1/);
  assert.match(why, /Ascend C returns the own value for delta ≥ width/);
  assert.match(why, /WGSL makes invocation 33 \(outside the subgroup of 16\) indeterminate/);

  // Lanes 0..31 disagree (WGSL is undefined everywhere); 32..63 exist only on HIP wave64.
  const disagree = await page.getAttribute('canvas#compare-canvas', 'data-disagree');
  assert.equal(disagree, Array.from({ length: 32 }, (_, i) => i).join(','));
  assert.equal(await page.getAttribute('#compare-lanes tr[data-lane="40"]', 'data-agree'), 'true');
  assert.equal(await value(page, 40, 'HIP wave64'), '40');
  assert.equal(await page.textContent('#compare-lanes tr[data-lane="40"] td[data-run="CUDA"]'), '—');
  await page.close();
});

test('xor 1 agrees everywhere; a bad width is named and the last comparison stays', async () => {
  const page = await openCompare();
  await rendered(page, () => page.selectOption('select#compare-family', 'xor'));
  assert.equal((await page.textContent('.field[data-field="param"] label')).trim(), 'lane_mask (WGSL mask)');
  await rendered(page, () => page.fill('input#compare-param', '1'));
  const agree = await page.$$eval('#compare-lanes tr[data-lane]', (r) => r.map((tr) => tr.dataset.agree));
  assert.equal(agree.length, 64);
  assert.ok(agree.every((a) => a === 'true'), agree.join(','));
  assert.equal(await page.getAttribute('canvas#compare-canvas', 'data-disagree'), '');
  for (const run of RUNS) assert.equal(await value(page, 6, run), '7', run);

  await rendered(page, () => page.fill('input#compare-width', 'wide'));
  assert.ok(await page.isVisible('#compare-error'));
  assert.match(await page.textContent('#compare-error'), /^width: `wide` is not an integer/);
  assert.equal(await page.getAttribute('input#compare-width', 'aria-invalid'), 'true');
  assert.equal(await page.inputValue('input#compare-width'), 'wide');
  assert.equal(await value(page, 6, 'CUDA'), '7', 'the last comparison stays');
  // A number too large for any width is out of range, with the widths allowed.
  await rendered(page, () => page.fill('input#compare-width', '99999999999999999999'));
  assert.match(await page.textContent('#compare-error'),
    /^width: `99999999999999999999` is out of range: allowed 1\.\.=2147483647/);
  await rendered(page, () => page.fill('input#compare-width', '16'));
  assert.ok(!(await page.isVisible('#compare-error')));
  assert.equal(await page.$('#panic-banner'), null);
  await page.close();
});

test('screenshot: the band over lane 0 explains the disagreement on hover', async () => {
  const page = await openCompare();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1440, height: Math.min(height, 2400) });
  const box = await page.$eval('canvas#compare-canvas', (c) => {
    const r = c.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width };
  });
  // The widest run (HIP wave64) fills the width: 64 lanes between the 64 px row-label column and
  // the 12 px right margin. y = 150 is in the first run's arrow band, where only the band is.
  const pitch = (box.w - 64 - 12) / 64;
  await page.mouse.move(box.x + 64 + pitch * 0.5, box.y + 150);
  await page.waitForSelector('#compare-tooltip:not([hidden])');
  const tip = await page.textContent('#compare-tooltip');
  assert.match(tip, /^lane 0: the dialects disagree/);
  assert.match(tip, /param & 31/);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'compare.png') });
  await page.close();
  assert.deepEqual(browser.pageErrors, [], 'no page errors or console errors');
});

// Contrast (WCAG AA): the lane numbers drawn over the "disagree" band keep 4.5:1 (WCAG
// 1.4.3) in both themes. The band's colour is read back from the canvas (the most common pixel
// down lane 0's column, which the band covers from top to bottom); the lane numbers' colour is
// the theme's for the scene's lane-number colour (render/scene.rs LANE_NUMBER = #475569, through
// the --draw-* properties render/theme.rs reads).
for (const theme of ['light', 'dark']) {
  test(`${theme} theme: lane numbers on the disagree band have contrast >= 4.5:1`, async () => {
    const page = await open(browser, `${PAGE_URL}?theme=${theme}`);
    await rendered(page, () => showView(page, 'compare'));
    assert.match(await page.getAttribute('canvas#compare-canvas', 'data-disagree'), /^0(,|$)/);
    const found = await page.$eval('canvas#compare-canvas', (c) => {
      const css = getComputedStyle(c);
      const resolve = (role, hex) => {
        const v = [`--draw-${role}-${hex}`, `--draw-${hex}`]
          .map((p) => css.getPropertyValue(p).trim()).find(Boolean) ?? `#${hex}`;
        const probe = document.createElement('span');
        probe.style.color = v;
        document.body.append(probe);
        const rgb = getComputedStyle(probe).color.match(/\d+/g).slice(0, 3).map(Number);
        probe.remove();
        return rgb;
      };
      const dpr = c.width / c.getBoundingClientRect().width;
      const pitch = (c.getBoundingClientRect().width - 64 - 12) / 64;
      const x = Math.round((64 + pitch / 2) * dpr);
      const data = c.getContext('2d').getImageData(x, 0, 1, c.height).data;
      const counts = new Map();
      for (let i = 0; i < data.length; i += 4) {
        const k = `${data[i]},${data[i + 1]},${data[i + 2]}`;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      const band = [...counts].sort((a, b) => b[1] - a[1])[0][0].split(',').map(Number);
      return { band, number: resolve('text', '475569') };
    });
    const lum = ([r, g, b]) => {
      const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const [hi, lo] = [lum(found.number), lum(found.band)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    assert.ok(ratio >= 4.5, `${theme}: lane numbers ${found.number} on band ${found.band}: ${ratio.toFixed(2)}:1`);
    if (theme === 'dark') {
      // The band is the dark palette's, not the light one's pale amber (#fffbeb).
      assert.ok(lum(found.band) < 0.1, `dark band ${found.band}`);
    }
    await page.close();
  });
}
