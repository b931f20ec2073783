// End-to-end test of "Operands as the vendors define them": a per-thread source lane
// given as a lane expression in the operation view draws each lane's own read, survives the
// permalink, and a varying uniform-only operand shows indeterminate lanes with the rule.
//
// Serve the built page first, then: CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, PAGE_URL, launch, open, rendered, settledHash } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function chooseOp(page, dialect, op) {
  await rendered(page, () => page.selectOption('select#dialect', dialect));
  await rendered(page, () => page.selectOption('select#op', op));
}

const cells = (page, cls) =>
  page.$$eval(`#lanes tr[data-lane] td.${cls}`, (tds) => tds.map((td) => td.textContent));

test('__shfl_sync with srcLane (lane+1)%32 rotates: each lane reads its own source', async () => {
  const page = await open(browser);
  await chooseOp(page, 'cuda', '__shfl_sync');
  await rendered(page, () => page.fill('input[data-param="src_lane"]', '(lane+1)%32'));
  await rendered(page, () => page.fill('input#values', 'lane+100'));
  // PTX shfl.sync.idx per thread: lane i reads lane (i + 1) mod 32, holding 100 + that lane.
  const expected = Array.from({ length: 32 }, (_, i) => String(100 + ((i + 1) % 32)));
  assert.deepEqual(await cells(page, 'result'), expected);
  assert.deepEqual(
    await cells(page, 'source'),
    Array.from({ length: 32 }, (_, i) => `lane ${(i + 1) % 32}`),
  );
  assert.equal(await page.$$eval('.field-error', (l) => l.length), 0);
  // The permalink keeps the expression: a fresh page on the same address shows the same lanes.
  // (Keystrokes update the address at the end of a typing burst, 600 ms.)
  await page.waitForTimeout(900);
  const hash = await settledHash(page);
  assert.match(hash, /^#v1\./);
  const again = await open(browser, `${PAGE_URL}${hash}`);
  assert.deepEqual(await cells(again, 'result'), expected);
  assert.equal(await again.inputValue('input[data-param="src_lane"]'), '(lane+1)%32');
  await again.close();
  await page.screenshot({ path: join(ARTIFACTS, 'per-lane-rotate.png'), fullPage: true });
  await page.close();
});

test('a varying subgroupShuffleXor mask is indeterminate with the uniformity rule', async () => {
  const page = await open(browser);
  await chooseOp(page, 'wgsl', 'subgroupShuffleXor');
  await rendered(page, () => page.fill('input[data-param="mask"]', 'lane&1'));
  const results = await cells(page, 'result');
  assert.ok(results.every((r) => r === 'undefined'), results.join(' '));
  const text = await page.textContent('body');
  assert.match(text, /must be subgroup-uniform/);
  await page.close();
  assert.deepEqual(browser.pageErrors, [], 'no page errors or console errors');
});
