// End-to-end test of permalinks: golden links open their scenario, the URL follows the
// page (reload keeps the state, Back restores the previous one), and damaged or hostile links
// open the default scenario with one line in #link-error.
//
// Serve the built page first (see lib.mjs), then:
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/permalink.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { PAGE_URL, ARTIFACTS, launch, open, rendered, showView, share, settledHash } from './lib.mjs';

const GOLDEN = JSON.parse(readFileSync(new URL('./golden-lanes.json', import.meta.url), 'utf8')).links;

let browser;
before(async () => { browser = await launch(); mkdirSync(ARTIFACTS, { recursive: true }); });
after(async () => { await browser?.close(); });

const results = (page) =>
  page.$$eval('#lanes tr[data-lane] td.result', (tds) => tds.map((td) => td.textContent));
const linkError = (page) =>
  page.$eval('#link-error', (e) => (e.hidden ? '' : e.textContent));
const hashOf = async (page) => (await settledHash(page)).slice(1);
const field = (page, sel) => page.$eval(sel, (e) => (e.type === 'checkbox' ? String(e.checked) : e.value));

/** The default scenario: what a page without a link shows. */
async function defaultState() {
  const page = await open(browser);
  // The page's own inline scripts (the loading line, the controls toggle) are counted here, so
  // that a link is checked for what it adds.
  const inline = () => page.$$eval('img, script:not([src])', (n) => n.filter((e) => e.closest('body')).length);
  const state = { dialect: await field(page, '#dialect'), op: await field(page, '#op'), lanes: await results(page), inline: await inline() };
  await page.close();
  return state;
}

test('each golden link opens its scenario and the lane table shows the emulator values', async () => {
  const dflt = await defaultState();
  for (const g of GOLDEN) {
    const page = await open(browser, `${PAGE_URL}#${g.link}`);
    const msg = await linkError(page);
    if (g.view === 'op' && !g.link_error) {
      assert.equal(msg, '', `${g.name}: no link error`);
      const req = g.request;
      assert.equal(await field(page, '#dialect'), req.dialect, g.name);
      assert.equal(await field(page, '#op'), req.op, g.name);
      assert.equal(await page.evaluate(() => document.body.dataset.gpuPanel), g.gpu_panel ? 'open' : 'closed', g.name);
      if (req.values) assert.equal(await field(page, '#values'), req.values, g.name);
      if (req.active) assert.equal(await field(page, '#active'), req.active, g.name);
      for (const [name, text] of Object.entries(req.params ?? {})) {
        assert.equal(await field(page, `[data-param="${name}"]`), text, `${g.name}: ${name}`);
      }
      if (g.lanes) {
        assert.deepEqual(await results(page), g.lanes, g.name);
      } else {
        // Kept as typed, with the error beside it, exactly like the CLI would refuse it.
        const err = await page.textContent('#input-error');
        assert.match(err, new RegExp(`^${g.input_error}`), g.name);
      }
    } else if (g.view === 'op') {
      // Markup in every field: refused as an unknown dialect, shown as text, nothing injected.
      assert.match(msg, /could not be opened: dialect/, g.name);
      assert.equal(await page.$$eval('img, script:not([src])', (n) => n.filter((e) => e.closest('body')).length), dflt.inline);
      assert.equal(await field(page, '#dialect'), dflt.dialect);
      assert.deepEqual(await results(page), dflt.lanes);
    } else {
      const hasView = await page.$(`section[data-view="${g.view}"]`);
      if (hasView) {
        assert.equal(msg, '', g.name);
        assert.equal(await page.evaluate(() => document.body.dataset.view), g.view, g.name);
      } else {
        // This build has no such view yet: the default scenario and a clear line.
        assert.match(msg, new RegExp(`no view for its ${g.view === 'kernel' ? 'kernel' : 'sort'} scenario`), g.name);
        assert.deepEqual(await results(page), dflt.lanes, g.name);
      }
    }
    await page.close();
  }
});

test('changed parameters survive a reload, and Copy link gives the same address', async () => {
  const page = await open(browser);
  await rendered(page, () => page.selectOption('#dialect', 'cuda'));
  await rendered(page, () => page.selectOption('#op', '__shfl_up_sync'));
  await rendered(page, () => page.fill('[data-param="delta"]', '3'));
  await rendered(page, () => page.fill('#values', 'lane*2'));
  await rendered(page, () => page.click('#lanes tr[data-lane="5"] td.input'));
  const before = { values: await field(page, '#values'), active: await field(page, '#active'), lanes: await results(page) };
  assert.equal(before.active, '0xffffffdf');
  assert.equal(before.lanes[4], '2');
  const hash = await hashOf(page);
  assert.match(hash, /^v1\.[A-Za-z0-9_-]+$/);
  await share(page, '#copy-link');
  assert.equal(await page.inputValue('#share-text'), page.url());
  await page.reload();
  await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
  assert.equal(await field(page, '#dialect'), 'cuda');
  assert.equal(await field(page, '#op'), '__shfl_up_sync');
  assert.equal(await field(page, '[data-param="delta"]'), '3');
  assert.equal(await field(page, '#values'), before.values);
  assert.equal(await field(page, '#active'), before.active);
  assert.deepEqual(await results(page), before.lanes);
  await page.screenshot({ path: `${ARTIFACTS}link-page.png`, fullPage: false });
  await page.close();
});

test('Back restores the previous state; a typing burst is one history entry, a menu change another', async () => {
  const page = await open(browser);
  await rendered(page, () => page.selectOption('#dialect', 'ascend'));
  await rendered(page, () => page.selectOption('#op', 'asc_shfl_xor'));
  await page.waitForTimeout(700);
  await rendered(page, () => page.fill('[data-param="lane_mask"]', '2'));
  const afterTwo = await results(page);
  await page.waitForTimeout(700);
  // Two keystrokes in one burst: one entry.
  await rendered(page, () => page.fill('[data-param="lane_mask"]', '4'));
  await rendered(page, () => page.fill('[data-param="lane_mask"]', '5'));
  assert.equal((await results(page))[0], '5');
  // A menu change right after typing is an entry of its own.
  await rendered(page, () => page.selectOption('#type', 'u32'));
  await rendered(page, () => page.goBack());
  assert.equal(await field(page, '#type'), 'i32');
  assert.equal(await field(page, '[data-param="lane_mask"]'), '5');
  await rendered(page, () => page.goBack());
  assert.equal(await field(page, '[data-param="lane_mask"]'), '2');
  assert.deepEqual(await results(page), afterTwo);
  assert.equal(afterTwo[0], '2');
  await rendered(page, () => page.goForward());
  assert.equal(await field(page, '[data-param="lane_mask"]'), '5');
  await page.close();
});

/** A scenario as JSON (CUDA's __shfl_xor_sync in the operation view). */
const SCENARIO_JSON = '{"version":1,"view":{"op":{"dialect":"cuda","op":"__shfl_xor_sync"}}}';

function lastByteFlipped(buf) {
  const out = Buffer.from(buf);
  out[out.length - 1] ^= 0xff;
  return out;
}

function b64url(buf) {
  return Buffer.from(buf).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

test('damaged and hostile links open the default scenario with one clear line', async () => {
  const dflt = await defaultState();
  const good = GOLDEN[0].link;
  const bomb = `v1.${b64url(deflateSync(Buffer.alloc(8 * 1024 * 1024, 32), { level: 9 }))}`;
  const cases = [
    ['truncated', good.slice(0, good.length - 9), /truncated|damaged/],
    ['wrong version', `v9.${good.slice(3)}`, /format `v9\.` is not supported/],
    ['not base64', 'v1.eNo*!$', /not base64url/],
    ['no prefix', 'hello', /must start with `v1\.`/],
    ['decompression bomb', bomb, /too large: inflated scenario/],
    ['absurd size', `v1.${'A'.repeat(40000)}`, /too large: link/],
    // The page inflates with the browser's DecompressionStream: its errors read as the core's.
    // The zlib stream's last byte is the low byte of its Adler-32 (RFC 1950 §2.2): changed, the
    // data inflates and the checksum fails.
    ['checksum', `v1.${b64url(lastByteFlipped(deflateSync(Buffer.from(SCENARIO_JSON))))}`,
      /permalink damaged: its data does not inflate \(checksum mismatch\)/],
    // A zlib header (0x78 0x9c), then a block header byte 0x07: BFINAL = 1, BTYPE = 11, the
    // reserved block type (RFC 1951 §3.2.3).
    ['reserved block type', `v1.${b64url(Buffer.from([0x78, 0x9c, 0x07, 0, 0, 0, 0, 0]))}`,
      /permalink damaged: its data does not inflate/],
    ['not a scenario', `v1.${b64url(deflateSync(Buffer.from('{"version":1,"view":{"hologram":{}}}')))}`, /not a crosslane scenario/],
    ['future scenario version', `v1.${b64url(deflateSync(Buffer.from('{"version":7,"view":{}}')))}`, /scenario version 7 is not supported/],
  ];
  for (const [name, link, want] of cases) {
    const page = await open(browser, `${PAGE_URL}#${link}`);
    const msg = await linkError(page);
    assert.match(msg, want, `${name}: ${msg}`);
    assert.match(msg, /^This link could not be opened: .*Showing the default scenario\.$/, name);
    assert.equal(msg.split('\n').length, 1, name);
    assert.equal(await field(page, '#dialect'), dflt.dialect, name);
    assert.equal(await field(page, '#op'), dflt.op, name);
    assert.deepEqual(await results(page), dflt.lanes, name);
    if (name === 'truncated') await page.screenshot({ path: `${ARTIFACTS}link-damaged.png` });
    await page.close();
  }
  assert.deepEqual(browser.pageErrors, []);
});

// The reference view's state (tab, search, AMD target, the place jumped to) is
// in its link, and survives reload, Back / Forward and copy link / copy embed code.
test('the reference view is in the link: search, AMD target and the article, across reload and Back', async () => {
  const page = await open(browser);
  const opHash = await hashOf(page);
  await rendered(page, () => showView(page, 'reference'));
  await page.waitForSelector('#reference[data-count]');
  // The tab alone changes the address away from the operation view's link.
  assert.notEqual(await hashOf(page), opHash);
  assert.match(await hashOf(page), /^v1\./);
  await page.selectOption('#reference-arch', 'gfx90a');
  await page.fill('#reference-search', 'swizzle');
  await page.waitForTimeout(700);
  const searched = await hashOf(page);
  const shown = await page.getAttribute('#reference', 'data-shown');
  assert.ok(Number(shown) >= 1, `swizzle leaves some articles (${shown})`);
  // Copy link and copy embed work here.
  await share(page, '#copy-link');
  assert.equal(await page.inputValue('#share-text'), page.url());
  await share(page, '#copy-embed');
  assert.match(await page.inputValue('#share-text'), new RegExp(`\\?embed[^"]*#${searched}`));
  // The embed opens the same reference state.
  const src = (await page.inputValue('#share-text')).match(/src="([^"]+)"/)[1].replace(/&amp;/g, '&');
  const embed = await open(browser, src);
  await embed.waitForSelector('#reference[data-count]');
  assert.equal(await embed.evaluate(() => document.body.dataset.view), 'reference');
  assert.equal(await embed.inputValue('#reference-search'), 'swizzle');
  assert.equal(await embed.inputValue('#reference-arch'), 'gfx90a');
  await embed.close();
  // Reload: the same tab, search, target and articles.
  await page.reload();
  await page.waitForSelector('#reference[data-count]');
  assert.equal(await page.evaluate(() => document.body.dataset.view), 'reference');
  assert.equal(await page.inputValue('#reference-search'), 'swizzle');
  assert.equal(await page.inputValue('#reference-arch'), 'gfx90a');
  assert.equal(await page.getAttribute('#reference', 'data-shown'), shown);
  // Every AMD article shown ran for the picked target.
  const targets = await page.$$eval('#reference article[data-dialect="amdgcn"]:not([hidden]) p.target',
    (ps) => ps.map((p) => p.textContent));
  assert.ok(targets.length >= 1 && targets.every((t) => t.includes('gfx90a')), targets.join(' | '));
  assert.equal(await linkError(page), '');
  // Open an article in the playground, then Back: the reference again, scrolled to it.
  await page.fill('#reference-search', '');
  await page.waitForTimeout(700);
  const article = 'article[data-dialect="hip"]';
  const id = await page.$eval(article, (a) => a.id);
  await rendered(page, () => page.click(`${article} button.open-playground`));
  await page.waitForFunction(() => document.body.dataset.view === 'op');
  await page.goBack();
  await page.waitForFunction(() => document.body.dataset.view === 'reference');
  await page.waitForFunction((i) => {
    const r = document.getElementById(i).getBoundingClientRect();
    return r.top >= -2 && r.top < innerHeight;
  }, id);
  assert.equal(await page.inputValue('#reference-arch'), 'gfx90a');
  await page.goForward();
  await page.waitForFunction(() => document.body.dataset.view === 'op');
  assert.deepEqual(browser.pageErrors, []);
  await page.close();
});

test('a contents link in the reference scrolls there and keeps the permalink in the address', async () => {
  const page = await open(browser);
  await rendered(page, () => showView(page, 'reference'));
  await page.waitForSelector('#reference[data-count]');
  await page.click('.reference-toc a[href="#ref-hip"]');
  await page.waitForFunction(() => /^v1\./.test(location.hash.slice(1)));
  const hash = await hashOf(page);
  assert.match(hash, /^v1\.[A-Za-z0-9_-]+$/);
  assert.equal(await linkError(page), '');
  await page.reload();
  await page.waitForSelector('#reference[data-count]');
  await page.waitForFunction(() => {
    const r = document.getElementById('ref-hip').getBoundingClientRect();
    return r.top >= -2 && r.top < innerHeight / 2;
  });
  assert.equal(await hashOf(page), hash);
  await page.close();
});

// The sort stage survives a reload also when the walk runs in the worker
// (n > 16 384): the stage is applied when the run arrives and the address keeps it meanwhile.
test('the sort stage of a run walked in the worker survives a reload', async () => {
  const page = await open(browser);
  await rendered(page, () => showView(page, 'sort'));
  await rendered(page, () => page.fill('#sort-values', ''));
  await page.fill('#sort-len', '20000');
  // 20 000 keys pad to 2^15: 15·16/2 = 120 stages (Batcher, stages = ⌈log2 n⌉(⌈log2 n⌉+1)/2).
  await page.waitForFunction(() => /120 stages to run/.test(document.getElementById('sort-position')?.textContent ?? ''), null, { timeout: 30000 });
  for (let i = 0; i < 3; i++) await rendered(page, () => page.click('#sort-step'));
  assert.match(await page.textContent('#sort-position'), /^stage 3 of 120/);
  await page.waitForTimeout(700);
  const hash = await hashOf(page);
  await page.reload();
  await page.waitForFunction(() => /^stage 3 of 120/.test(document.getElementById('sort-position')?.textContent ?? ''), null, { timeout: 30000 });
  assert.equal(await page.getAttribute('#sort-canvas', 'data-at'), '3');
  assert.equal(await hashOf(page), hash, 'the address is not rewritten');
  await page.close();
});

// A kernel too large for a link says so (size and limit), the address does not
// keep pointing at the previous scenario, and a reload of the tab brings the text back.
test('a kernel too large for a link: named limit, no stale address, kept for a reload of the tab', async () => {
  const page = await open(browser);
  await rendered(page, () => showView(page, 'kernel'));
  const before = await hashOf(page);
  // ~60 KB of distinct comment lines (random, so deflate cannot shrink it under 16 KB).
  let text = '__global__ void k(int* d) {\n  d[threadIdx.x] = __shfl_xor_sync(0xffffffff, d[threadIdx.x], 1);\n}\n';
  let x = 12345;
  while (text.length < 60000) {
    let line = '// ';
    for (let i = 0; i < 60; i++) { x = (x * 1103515245 + 12345) % 2147483648; line += String.fromCharCode(97 + (x >> 16) % 26); }
    text += `${line}\n`;
  }
  await page.fill('#kernel-source', text);
  await page.waitForFunction(() => location.hash.slice(1) === 'too-large-for-a-link', null, { timeout: 30000 });
  assert.notEqual(await hashOf(page), before);
  const status = await page.$eval('#link-status', (e) => (e.hidden ? '' : e.textContent));
  const m = status.match(/the link would be (\d+) KB; links are limited to 16 KB/);
  assert.ok(m && Number(m[1]) > 16, status);
  await share(page, '#copy-link');
  assert.match(await page.textContent('#share-status'), /the link would be \d+ KB; links are limited to 16 KB/);
  await page.screenshot({ path: `${ARTIFACTS}link-too-large.png` });
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.view === 'kernel');
  assert.equal((await page.inputValue('#kernel-source')).length, text.length);
  assert.equal(await page.inputValue('#kernel-source'), text);
  assert.equal(await linkError(page), '');
  assert.match(await page.$eval('#link-status', (e) => (e.hidden ? '' : e.textContent)), /links are limited to 16 KB/);
  // Shortened under the limit: a real link again, and the status line goes.
  await page.fill('#kernel-source', text.slice(0, 200));
  await page.waitForFunction(() => /^v1\./.test(location.hash.slice(1)), null, { timeout: 30000 });
  assert.equal(await page.$eval('#link-status', (e) => e.hidden), true);
  // Another tab (no stored text) opening the address: the default scenario and why.
  const other = await open(browser, `${PAGE_URL}#too-large-for-a-link`);
  assert.match(await linkError(other), /too large for a link .*16 KB.*kept only in the browser tab/);
  await other.close();
  await page.close();
});
