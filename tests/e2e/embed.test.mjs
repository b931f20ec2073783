// End-to-end test of issue 8, embedding: ?embed inside a documentation page (embed-host.html,
// served from another origin) reports its height with postMessage, in light and dark themes; the
// page's "Copy embed code" snippet shows a static drawing of the scenario when the wasm cannot
// load, and hides it once the live embed reports.
//
// Serve the built page first (see lib.mjs), then:
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/embed.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { PAGE_URL, ARTIFACTS, launch, open, rendered } from './lib.mjs';

// Another origin on the same loopback server (Chromium refuses iframes of a loopback address in a
// page of a public-looking origin): localhost for 127.0.0.1 and the other way round.
const HOST = (() => {
  const u = new URL(PAGE_URL);
  u.hostname = u.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return `${u.origin}/__docs__/`;
})();
const HOST_HTML = readFileSync(new URL('./embed-host.html', import.meta.url), 'utf8');
const GOLDEN = JSON.parse(readFileSync(new URL('./golden-lanes.json', import.meta.url), 'utf8')).links;

let browser;
before(async () => { browser = await launch({ width: 900, height: 900 }); mkdirSync(ARTIFACTS, { recursive: true }); });
after(async () => { await browser?.close(); });

/**
 * A page on another origin showing `html`. Its document comes from the test server (a 404 of
 * HOST + `query`) and is then replaced, so that Chromium counts it as a loopback page: a page
 * fulfilled by page.route() counts as public, and Chromium's local-network-access checks then
 * refuse an iframe on the loopback server. `before(page)` runs first (e.g. to block routes).
 */
async function hostPage(html, query = '', before = async () => {}) {
  const page = await browser.context.newPage();
  page.on('pageerror', (e) => browser.pageErrors.push(String(e)));
  await before(page);
  await page.goto(`${HOST}${query}`);
  await page.setContent(html);
  return page;
}

for (const theme of ['light', 'dark']) {
  test(`an embed (${theme}) inside a documentation page reports its height`, async () => {
    const link = GOLDEN[0].link;
    const src = `${PAGE_URL}?embed${theme === 'dark' ? '&theme=dark' : ''}#${link}`;
    const page = await hostPage(HOST_HTML, `embed-host.html?src=${encodeURIComponent(src)}`);
    await page.waitForFunction(() => window.heights.length > 0 && window.heights.at(-1) > 150);
    const frame = page.frames().find((f) => f.url().startsWith(PAGE_URL));
    assert.ok(frame, 'the embed frame');
    await frame.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
    // Embed mode: no page chrome, the canvas and a compact strip with dialect, op, main param.
    assert.equal(await frame.$eval('header.top', (e) => getComputedStyle(e).display), 'none');
    assert.equal(await frame.$eval('#table-panel', (e) => getComputedStyle(e).display), 'none');
    for (const sel of ['#dialect', '#op', '[data-param="lane_mask"]', '#lane-canvas']) {
      assert.ok(await frame.isVisible(sel), `${sel} visible`);
    }
    assert.equal(await frame.isVisible('[data-param="width"]'), false);
    assert.equal(await frame.evaluate(() => document.documentElement.dataset.theme), theme);
    // The frame is as tall as the last height reported, and that is the document's height.
    const reported = await page.evaluate(() => window.heights.at(-1));
    const box = await page.$eval('#embed', (f) => f.getBoundingClientRect().height);
    assert.ok(Math.abs(box - Math.ceil(reported)) <= 2, `iframe ${box} vs reported ${reported}`);
    // Still live: a change re-renders and reports again, and adds no entry to the host's history.
    const n = await page.evaluate(() => window.heights.length);
    const entries = await page.evaluate(() => history.length);
    await rendered(frame, () => frame.selectOption('#op', 'asc_shfl_up'));
    await page.waitForFunction((k) => window.heights.length > k, n);
    await rendered(frame, () => frame.selectOption('#op', 'asc_shfl_xor'));
    assert.equal(await page.evaluate(() => history.length), entries);
    assert.match(frame.url(), /\?embed(&theme=dark)?#v1\./);
    await page.screenshot({ path: `${ARTIFACTS}embed-${theme}.png`, fullPage: true });
    await page.close();
  });
}

test('the embed code shows a static drawing when wasm is unavailable, the live embed otherwise', async () => {
  const page = await open(browser, `${PAGE_URL}#${GOLDEN[0].link}`);
  await page.click('#copy-embed');
  const snippet = await page.inputValue('#share-text');
  await page.close();
  assert.match(snippet, /<iframe [^>]*src="[^"]*\?embed#v1\.[A-Za-z0-9_-]+"/);
  assert.match(snippet, /<img class="crosslane-static"[^>]*src="data:image\/svg\+xml;base64,/);
  const svg = Buffer.from(snippet.match(/src="data:image\/svg\+xml;base64,([^"]*)"/)[1], 'base64').toString('utf8');
  // The static drawing carries the lane values (seed 000: lane 0 reads lane 1, …).
  assert.ok(svg.includes('lane 0 ← lane 1: 1'), 'lane 0 in the SVG');
  assert.ok(svg.includes('lane 31 ← lane 30: 30'), 'lane 31 in the SVG');
  const html = `<!doctype html><meta charset="utf-8"><body style="margin:20px;max-width:760px">${snippet}</body>`;

  // wasm blocked: the iframe stays transparent and empty, the drawing shows through.
  const blocked = await hostPage(html, 'doc.html', (p) => p.route('**/*.wasm', (route) => route.abort()));
  const frame = await (await blocked.waitForSelector('iframe')).contentFrame();
  await frame.waitForLoadState('load');
  await blocked.waitForTimeout(500);
  assert.equal(await frame.evaluate(() => document.body.dataset.ready ?? null), null);
  assert.equal(await frame.evaluate(() => getComputedStyle(document.body).visibility), 'hidden');
  const img = await blocked.$('img.crosslane-static');
  assert.ok(await img.isVisible());
  assert.ok(await img.evaluate((i) => i.complete && i.naturalWidth > 100), 'the SVG decodes');
  await blocked.screenshot({ path: `${ARTIFACTS}embed-fallback.png`, fullPage: true });
  await blocked.close();

  // wasm available: the live embed reports, the snippet script sizes it and hides the drawing.
  const live = await hostPage(html, 'doc.html');
  await live.waitForFunction(() => document.querySelector('img.crosslane-static').style.visibility === 'hidden');
  const h = await live.$eval('iframe', (f) => f.getBoundingClientRect().height);
  assert.ok(h > 150, `iframe height ${h}`);
  await live.close();
  assert.deepEqual(browser.pageErrors.filter((e) => !/wasm|WebAssembly|Failed to fetch|ERR_FAILED/i.test(e)), []);
});
