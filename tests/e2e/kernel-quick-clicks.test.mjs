// End-to-end test: N clicks of the kernel view's "back" or "step" move the cursor N steps, however
// fast they come. The view owns the position and applies only the answer to its latest request: an
// answer still on its way when the next click comes (heard by the page, not yet shown) must not
// set the position back (docs/testing.md: two quick back clicks once overshot in CI).
//
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/kernel-quick-clicks.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PAGE_URL, launch, rendered, showView } from './lib.mjs';

let browser;
before(async () => { browser = await launch({ width: 1440, height: 1100 }); });
after(async () => { await browser?.close(); });

// Wraps the page's Worker so that a test can act in the same task as a worker's answer, right
// after the page's own handler heard it (`window.__afterAnswer`, called once per answer with
// replies only, not progress), which is the moment a click meets an answer in flight.
const HOOK = `(() => {
  const Real = window.Worker;
  window.Worker = class extends Real {
    set onmessage(f) {
      super.onmessage = (e) => {
        f(e);
        const hook = window.__afterAnswer;
        if (hook && e.data && typeof e.data.reply === 'string') {
          window.__afterAnswer = null;
          hook();
        }
      };
    }
  };
})();`;

async function kernelPage() {
  const page = await browser.context.newPage();
  page.on('pageerror', (e) => browser.pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') browser.pageErrors.push(m.text()); });
  await page.addInitScript(HOOK);
  await page.goto(PAGE_URL);
  await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
  await showView(page, 'kernel');
  await rendered(page, () => page.selectOption('#kernel-examples', 'ascend_shfl_down_reduce.cpp'));
  return page;
}

/** Waits until the view has shown the answer to its last request, the link written. */
async function settled(page) {
  await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state !== 'running'
    && document.body.dataset.link !== 'pending', null, { timeout: 60_000 });
  // An answer the page heard is shown on a later tick: two frames more.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state !== 'running');
}

const cursor = (page) => page.evaluate(() => ({
  value: document.querySelector('#kernel-slider').value,
  max: document.querySelector('#kernel-slider').max,
  position: document.querySelector('#kernel-position').textContent,
}));

async function runToEnd(page) {
  await page.click('#kernel-run');
  await page.waitForFunction(() => document.querySelector('#view-kernel').dataset.state === 'finished',
    null, { timeout: 60_000 });
  return Number(await page.$eval('#kernel-slider', (s) => s.max));
}

test('three back clicks, one of them while an answer is heard and not yet shown, go three steps back', async () => {
  const page = await kernelPage();
  const len = await runToEnd(page);
  assert.ok(len > 6, `the seed runs ${len} steps`);
  // The second click comes in the task that hears the first click's answer (before the view
  // shows it); the third on the next tick, after the view has handled that answer.
  await page.evaluate(() => {
    window.__afterAnswer = () => {
      document.querySelector('#kernel-back').click();
      setTimeout(() => document.querySelector('#kernel-back').click(), 0);
    };
    document.querySelector('#kernel-back').click();
  });
  await page.waitForFunction(() => window.__afterAnswer === null);
  await settled(page);
  const got = await cursor(page);
  assert.equal(got.value, String(len - 3), `after three back clicks: ${JSON.stringify(got)}`);
  assert.equal(got.max, String(len));
  assert.match(got.position, new RegExp(`^step ${len - 3} / ${len} `));
  await page.close();
  assert.deepEqual(browser.pageErrors, []);
});

test('five back clicks in one task and four step clicks in one task move five and four steps', async () => {
  const page = await kernelPage();
  const len = await runToEnd(page);
  await page.evaluate(() => {
    for (let k = 0; k < 5; k += 1) document.querySelector('#kernel-back').click();
  });
  await settled(page);
  assert.equal((await cursor(page)).value, String(len - 5));
  await page.evaluate(() => {
    for (let k = 0; k < 4; k += 1) document.querySelector('#kernel-step').click();
  });
  await settled(page);
  assert.equal((await cursor(page)).value, String(len - 1));
  // Step clicks past the recorded steps of a fresh run advance it one step each.
  await rendered(page, () => page.click('#kernel-reset'));
  await page.evaluate(() => {
    for (let k = 0; k < 3; k += 1) document.querySelector('#kernel-step').click();
  });
  await settled(page);
  const got = await cursor(page);
  assert.equal(got.value, '3', JSON.stringify(got));
  assert.equal(got.max, '3');
  await page.close();
  assert.deepEqual(browser.pageErrors, []);
});
