// End-to-end test of issue 8, permalinks: golden links open their scenario, the URL follows the
// page (reload keeps the state, Back restores the previous one), and damaged or hostile links
// open the default scenario with one line in #link-error.
//
// Serve the built page first (see lib.mjs), then:
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/permalink.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { PAGE_URL, ARTIFACTS, launch, open, rendered } from './lib.mjs';

const GOLDEN = JSON.parse(readFileSync(new URL('./golden-lanes.json', import.meta.url), 'utf8')).links;

let browser;
before(async () => { browser = await launch(); mkdirSync(ARTIFACTS, { recursive: true }); });
after(async () => { await browser?.close(); });

const results = (page) =>
  page.$$eval('#lanes tr[data-lane] td.result', (tds) => tds.map((td) => td.textContent));
const linkError = (page) =>
  page.$eval('#link-error', (e) => (e.hidden ? '' : e.textContent));
const hashOf = (page) => page.evaluate(() => location.hash.slice(1));
const field = (page, sel) => page.$eval(sel, (e) => (e.type === 'checkbox' ? String(e.checked) : e.value));

/** The default scenario: what a page without a link shows. */
async function defaultState() {
  const page = await open(browser);
  const state = { dialect: await field(page, '#dialect'), op: await field(page, '#op'), lanes: await results(page) };
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
      assert.equal(await page.$$eval('img, script:not([src])', (n) => n.filter((e) => e.closest('body')).length), 0);
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
  await page.click('#copy-link');
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
