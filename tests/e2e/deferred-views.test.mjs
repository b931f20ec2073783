// The first render mounts only what the first view needs: the operation view is drawn before the
// kernel, portability, sort and MACA views are built (they follow, one per frame, after the first
// frame), a tab chosen before its view's turn still opens it whole, and a kernel link builds the
// kernel view before its first render (docs/benchmarks.md, "Time to first lanes").
//
// Serve the release build first (scripts/build-web; see lib.mjs), then:
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/deferred-views.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PAGE_URL, launch, open, showView } from './lib.mjs';

let browser;
before(async () => { browser = await launch({ width: 1440, height: 1000 }); });
after(async () => { await browser?.close(); });

// Runs before the page's scripts: records, in the task of the first render, which views are built.
const AT_FIRST_RENDER = `
new MutationObserver((_, o) => {
  if (Number(document.body?.dataset.ready ?? 0) < 1) return;
  o.disconnect();
  window.__atFirstRender = {
    lanes: document.querySelectorAll('#lanes tbody tr').length,
    kernel: document.getElementById('kernel-source') !== null,
    compare: (document.getElementById('view-compare')?.childElementCount ?? 0) > 0,
    sort: document.getElementById('sort-form') !== null,
    maca: (document.getElementById('view-maca')?.childElementCount ?? 0) > 0,
  };
  if (window.__clickAtFirstRender) document.getElementById(window.__clickAtFirstRender)?.click();
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
`;

async function openRecording(url = PAGE_URL, click = null) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  if (click) await page.addInitScript(`window.__clickAtFirstRender = ${JSON.stringify(click)};`);
  await page.addInitScript(AT_FIRST_RENDER);
  await page.goto(url);
  await page.waitForFunction(() => window.__atFirstRender !== undefined);
  return { page, errors };
}

test('the default page draws its lanes before the other views are built; they follow after the first frame', async () => {
  const { page, errors } = await openRecording();
  const first = await page.evaluate(() => window.__atFirstRender);
  // The default scenario: 32 lanes of __shfl_xor_sync, one table row each.
  assert.equal(first.lanes, 32);
  assert.deepEqual({ kernel: first.kernel, compare: first.compare, sort: first.sort, maca: first.maca },
    { kernel: false, compare: false, sort: false, maca: false });
  // Then each view is built in a later task, with nobody asking.
  await page.waitForFunction(() => document.getElementById('kernel-source') !== null
    && document.getElementById('sort-form') !== null
    && document.getElementById('view-compare').childElementCount > 0
    && document.getElementById('view-maca').childElementCount > 0, null, { timeout: 30_000 });
  // Built in the background, the views did not touch the address or the view on screen.
  assert.equal(await page.evaluate(() => document.body.dataset.view ?? 'op'), 'op');
  assert.equal(await page.isHidden('#view-kernel'), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a tab chosen in the task of the first render opens its view whole', async () => {
  const { page, errors } = await openRecording(PAGE_URL, 'tab-sort');
  await page.waitForFunction(() => document.body.dataset.view === 'sort');
  assert.equal(await page.isVisible('#sort-form'), true);
  assert.equal(await page.getAttribute('#tab-sort', 'aria-selected'), 'true');
  // The kernel tab afterwards: its view and its engine, as on any visit.
  await showView(page, 'kernel');
  assert.ok((await page.inputValue('#kernel-source')).length > 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a kernel link builds the kernel view before its first render and lands on its scenario', async () => {
  const page = await open(browser);
  await showView(page, 'kernel');
  const source = await page.inputValue('#kernel-source');
  await page.waitForFunction(() => /^#v1\./.test(location.hash));
  const link = page.url();
  await page.close();
  const { page: cold, errors } = await openRecording(link);
  const first = await cold.evaluate(() => window.__atFirstRender);
  assert.equal(first.kernel, true);
  await cold.waitForFunction(() => document.body.dataset.view === 'kernel'
    && document.getElementById('view-kernel').dataset.state !== 'running', null, { timeout: 60_000 });
  assert.equal(await cold.inputValue('#kernel-source'), source);
  assert.equal(await cold.textContent('#link-error'), '');
  assert.deepEqual(errors, []);
  await cold.close();
});
