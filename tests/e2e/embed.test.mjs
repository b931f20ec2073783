// End-to-end test of embedding: ?embed inside a documentation page (embed-host.html,
// served from another origin) reports its height with postMessage, in light and dark themes; the
// page's "Copy embed code" snippet is small: the iframe, and a link to the full page as the static
// fallback where the wasm cannot load.
//
// Serve the built page first (see lib.mjs), then:
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/embed.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { PAGE_URL, ARTIFACTS, launch, open, rendered, share } from './lib.mjs';

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
    // Every .wasm the host page and its embed fetch (the frame's requests are the page's too).
    const wasm = [];
    const page = await hostPage(HOST_HTML, `embed-host.html?src=${encodeURIComponent(src)}`, async (p) => {
      p.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(new URL(r.url()).pathname.split('/').pop()); });
    });
    await page.waitForFunction(() => window.heights.length > 0 && window.heights.at(-1) > 150);
    const frame = page.frames().find((f) => f.url().startsWith(PAGE_URL));
    assert.ok(frame, 'the embed frame');
    await frame.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
    // Embed mode: no page chrome, the canvas and a compact strip with dialect, op and every
    // parameter (an embed can edit every parameter of its operation).
    assert.equal(await frame.$eval('header.top', (e) => getComputedStyle(e).display), 'none');
    assert.equal(await frame.$eval('#table-panel', (e) => getComputedStyle(e).display), 'none');
    for (const sel of ['#dialect', '#op', '[data-param="lane_mask"]', '[data-param="width"]', '#lane-canvas']) {
      assert.ok(await frame.isVisible(sel), `${sel} visible`);
    }
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
    // An embedded operation never downloads the kernel engine (issue 29): only the page's first
    // module, once, after the views not on screen have had time to mount (one per frame).
    await page.waitForTimeout(1000);
    assert.deepEqual(wasm.map((w) => w.replace(/-[0-9a-f]+_bg\.wasm$/, '')), ['crosslane-web'],
      `wasm fetched by an embed: ${wasm.join(', ')}`);
    await page.screenshot({ path: `${ARTIFACTS}embed-${theme}.png`, fullPage: true });
    await page.close();
  });
}

// An embed edits every parameter or deliberately none; the operation view's
// copy embed code offers both, and the read-only one opens as ?embed=static.
test('copy embed code offers a read-only embed (?embed=static) for the operation view', async () => {
  const page = await open(browser, `${PAGE_URL}#${GOLDEN[0].link}`);
  await share(page, '#copy-link');
  assert.ok(!(await page.isVisible('#share-read-only')));
  const pageLink = await page.inputValue('#share-text');
  await share(page, '#copy-embed');
  assert.ok(await page.isVisible('#share-read-only'));
  assert.match(await page.inputValue('#share-text'), /<iframe [^>]*src="[^"]*\?embed#v1\./);
  await page.check('#share-read-only');
  await page.waitForFunction(() => /embed=static/.test(document.getElementById('share-text').value));
  const src = (await page.inputValue('#share-text')).match(/<iframe [^>]*src="([^"]*)"/)[1];
  assert.match(src, /\?embed=static#v1\./);
  assert.equal(new URL(src.replaceAll('&amp;', '&')).hash, new URL(pageLink).hash,
    'the scenario on screen (what copy link gives)');
  const still = await open(browser, src.replaceAll('&amp;', '&'));
  assert.equal(await still.$eval('#panel', (e) => getComputedStyle(e).display), 'none');
  assert.ok(await still.isVisible('#lane-canvas'));
  await still.close();
  // Back to editable, and a link (or another view's embed code) offers no such choice.
  await page.uncheck('#share-read-only');
  await page.waitForFunction(() => /\?embed#v1\./.test(document.getElementById('share-text').value));
  await rendered(page, () => page.click('nav#views button[data-view="sort"]'));
  await share(page, '#copy-embed');
  assert.ok(!(await page.isVisible('#share-read-only')));
  assert.doesNotMatch(await page.inputValue('#share-text'), /embed=static/);
  await page.close();
});

test('the embed code is small: an iframe, and a link to the full page as the static fallback', async () => {
  const page = await open(browser, `${PAGE_URL}#${GOLDEN[0].link}`);
  await share(page, '#copy-link');
  const pageLink = await page.inputValue('#share-text');
  await share(page, '#copy-embed');
  const snippet = await page.inputValue('#share-text');
  await page.close();
  assert.match(snippet, /<iframe [^>]*src="[^"]*\?embed#v1\.[A-Za-z0-9_-]+"/);
  // The inline SVG made the snippet 50-70 KB; the fallback is now a link.
  assert.ok(snippet.length < 1024, `snippet is ${snippet.length} bytes`);
  assert.doesNotMatch(snippet, /<img|data:image/);
  const href = snippet.match(/<a class="crosslane-static" href="([^"]*)"/)[1];
  assert.equal(href, pageLink, 'the same scenario on the full page (what copy link gives)');
  const html = `<!doctype html><meta charset="utf-8"><body style="margin:20px;max-width:760px">${snippet}</body>`;

  // wasm blocked: the iframe stays transparent and empty, the link is there to follow.
  const blocked = await hostPage(html, 'doc.html', (p) => p.route('**/*.wasm', (route) => route.abort()));
  const frame = await (await blocked.waitForSelector('iframe')).contentFrame();
  await frame.waitForLoadState('load');
  await blocked.waitForTimeout(500);
  assert.equal(await frame.evaluate(() => document.body.dataset.ready ?? null), null);
  assert.equal(await frame.evaluate(() => getComputedStyle(document.body).visibility), 'hidden');
  const link = await blocked.$('a.crosslane-static');
  assert.ok(await link.isVisible());
  await blocked.screenshot({ path: `${ARTIFACTS}embed-fallback.png`, fullPage: true });
  await blocked.close();

  // wasm available: the live embed reports and the snippet script sizes the iframe.
  const live = await hostPage(html, 'doc.html');
  const iframe = await live.waitForSelector('iframe');
  const liveFrame = await iframe.contentFrame();
  await liveFrame.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
  await live.waitForFunction(() => {
    const f = document.querySelector('.crosslane-embed iframe');
    return f && f.style.height !== '' && Math.abs(f.getBoundingClientRect().height - parseFloat(f.style.height)) < 1;
  });
  const h = await live.$eval('iframe', (f) => f.getBoundingClientRect().height);
  assert.ok(h > 150, `iframe height ${h}`);
  // Lane 0 of seed 000 (asc_shfl_xor lane_mask 1 width 16) reads lane 1.
  assert.equal(await liveFrame.textContent('#lanes tr[data-lane="0"] td.result'), '1');
  await live.close();
  assert.deepEqual(browser.pageErrors.filter((e) => !/wasm|WebAssembly|Failed to fetch|ERR_FAILED/i.test(e)), []);
});

test('an embed edits every field of its operation and links to the full page; ?embed=static edits none', async () => {
  const link = GOLDEN[0].link; // Ascend asc_shfl_xor, lane_mask 1, width 16: lane i reads lane i ^ 1.
  const page = await open(browser, `${PAGE_URL}?embed#${link}`);
  // Every parameter of the operation, the warp fields included.
  for (const sel of ['#dialect', '#op', '[data-param="lane_mask"]', '[data-param="width"]',
    '#lane-count', '#active', '#values', '#type', '#embed-open']) {
    assert.ok(await page.isVisible(sel), `${sel} visible in the embed`);
  }
  const result = (lane) => page.$eval(`#lanes tr[data-lane="${lane}"] td.result`, (td) => td.textContent);
  await rendered(page, () => page.fill('#values', 'lane*10'));
  assert.equal(await result(0), '10', 'lane 0 reads lane 1, whose value is 10');
  // A click on lane 5 in the drawing switches it off in the active mask.
  const box = await page.$eval('#lane-canvas', (c) => { const r = c.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width }; });
  const pitch = (box.w - 64 - 12) / 32;
  await rendered(page, () => page.mouse.click(box.x + 64 + pitch * 5.5, box.y + 20 + 17));
  assert.equal(await page.inputValue('#active'), '0xffffffdf');
  const types = await page.$$eval('#type option', (o) => o.map((e) => e.value));
  assert.ok(types.length > 1, types.join());
  await rendered(page, () => page.selectOption('#type', types[1]));
  // The full page with the same scenario, in a new tab.
  await page.hover('#embed-open');
  const href = await page.getAttribute('#embed-open', 'href');
  assert.equal(await page.getAttribute('#embed-open', 'target'), '_blank');
  assert.doesNotMatch(href, /embed/);
  assert.equal(new URL(href).hash, new URL(page.url()).hash);
  const full = await open(browser, href);
  assert.equal(await full.inputValue('#values'), 'lane*10');
  assert.equal(await full.inputValue('#active'), '0xffffffdf');
  assert.equal(await full.inputValue('#type'), types[1]);
  await full.close();
  await page.screenshot({ path: `${ARTIFACTS}embed-editable.png`, fullPage: true });
  await page.close();

  // ?embed=static: the drawing and the link, no controls, and a lane click changes nothing.
  const still = await open(browser, `${PAGE_URL}?embed=static#${link}`);
  assert.equal(await still.$eval('#panel', (e) => getComputedStyle(e).display), 'none');
  assert.ok(await still.isVisible('#lane-canvas'));
  assert.ok(await still.isVisible('#embed-open'));
  const before = still.url();
  const b = await still.$eval('#lane-canvas', (c) => { const r = c.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width }; });
  await still.mouse.click(b.x + 64 + ((b.w - 64 - 12) / 32) * 5.5, b.y + 20 + 17);
  await still.waitForTimeout(300);
  assert.equal(still.url(), before);
  assert.doesNotMatch(await still.textContent('#lane-tooltip'), /click/);
  assert.equal(await still.inputValue('#active'), '');
  await still.screenshot({ path: `${ARTIFACTS}embed-static.png`, fullPage: true });
  await still.close();
});
