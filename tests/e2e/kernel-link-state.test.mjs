// End-to-end test: a kernel link opens in the state it was made in. A link made at the end of a
// finished run opens "finished" (not "paused after N steps": the worker learns that the kernel
// ends at the link's step), with the same buffers and slider; a link made after stepping back
// opens with the whole run on the slider and its cursor at the link's step; a link made after
// clicking "step" onto the kernel's last step (paused: the page does not know yet that the kernel
// ends there) opens paused at that step, as it was made, and the next step then finishes.
//
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/kernel-link-state.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PAGE_URL, launch, open, rendered, settledHash, showView } from './lib.mjs';

let browser;
before(async () => { browser = await launch({ width: 1440, height: 1100 }); });
after(async () => { await browser?.close(); });

/** What a link must bring back: state, status, slider, position, memory, lane 0's row. */
const snapshot = (page) => page.evaluate(() => ({
  state: document.querySelector('#view-kernel').dataset.state,
  status: document.querySelector('#kernel-status').textContent,
  max: document.querySelector('#kernel-slider').max,
  value: document.querySelector('#kernel-slider').value,
  position: document.querySelector('#kernel-position').textContent,
  memory: document.querySelector('#kernel-memory').textContent,
  lane0: document.querySelector('#kernel-vars tr[data-lane="0"]')?.textContent ?? null,
}));

async function seedRun(page) {
  await showView(page, 'kernel');
  await rendered(page, () => page.selectOption('#kernel-examples', 'ascend_shfl_down_reduce.cpp'));
  await page.click('#kernel-run');
  await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state === 'finished',
    null, { timeout: 60_000 });
}

/** Opens `hash` in a fresh page and waits until its run has answered. */
async function reopen(hash) {
  const page = await open(browser, `${PAGE_URL}${hash}`);
  await page.waitForFunction(() => {
    const s = document.querySelector('#view-kernel');
    return document.body.dataset.view === 'kernel' && s.dataset.state !== 'running'
      && document.querySelector('#kernel-slider').max !== '0';
  }, null, { timeout: 60_000 });
  return page;
}

test('a link made at the end of a finished run opens finished, with the same buffers and slider', async () => {
  const page = await open(browser);
  await seedRun(page);
  const made = await snapshot(page);
  assert.match(made.status, /^finished after \d+ steps/);
  assert.equal(made.value, made.max);
  const hash = await settledHash(page);
  await page.close();

  const opened = await reopen(hash);
  assert.deepEqual(await snapshot(opened), made);
  await opened.close();
  assert.deepEqual(browser.pageErrors, []);
});

test('a link made after stepping back opens with the whole run, the cursor at its step', async () => {
  const page = await open(browser);
  await seedRun(page);
  const len = Number(await page.$eval('#kernel-slider', (s) => s.max));
  assert.ok(len > 6, `the seed runs ${len} steps`);
  // Two steps back, by the slider (a back click answered while the previous one's frame is in
  // flight is timing-dependent; the link's state is what this test is about).
  await rendered(page, () => page.$eval('#kernel-slider', (s, p) => {
    s.value = String(p);
    s.dispatchEvent(new Event('input', { bubbles: true }));
  }, len - 2));
  const made = await snapshot(page);
  assert.equal(made.max, String(len));
  assert.equal(made.value, String(len - 2));
  const hash = await settledHash(page);
  await page.close();

  const opened = await reopen(hash);
  const got = await snapshot(opened);
  assert.deepEqual(got, made);
  // The later steps are there without "run on": one step forward shows step len − 1.
  await rendered(opened, () => opened.click('#kernel-step'));
  assert.equal(await opened.$eval('#kernel-slider', (s) => s.value), String(len - 1));
  assert.equal(await opened.$eval('#kernel-slider', (s) => s.max), String(len));
  await opened.close();
  assert.deepEqual(browser.pageErrors, []);
});

test('a link made after stepping onto the last step opens paused there, as it was made', async () => {
  // The run's length, from a run to the end.
  const probe = await open(browser);
  await seedRun(probe);
  const len = Number(await probe.$eval('#kernel-slider', (s) => s.max));
  await probe.close();

  const page = await open(browser);
  await showView(page, 'kernel');
  await rendered(page, () => page.selectOption('#kernel-examples', 'ascend_shfl_down_reduce.cpp'));
  for (let k = 0; k < len; k += 1) await rendered(page, () => page.click('#kernel-step'));
  const made = await snapshot(page);
  assert.equal(made.state, 'idle');
  assert.equal(made.status, `paused after ${len} steps`);
  assert.equal(made.value, String(len));
  assert.equal(made.max, String(len));
  const hash = await settledHash(page);
  await page.close();

  const opened = await reopen(hash);
  assert.deepEqual(await snapshot(opened), made);
  // One step more: the kernel ends there, as on the page the link was made on.
  await rendered(opened, () => opened.click('#kernel-step'));
  const after = await snapshot(opened);
  assert.equal(after.state, 'finished');
  assert.match(after.status, new RegExp(`^finished after ${len} steps`));
  assert.equal(after.value, String(len));
  await opened.close();
  assert.deepEqual(browser.pageErrors, []);
});
