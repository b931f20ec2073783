// Time to the page's first render (body.dataset.ready >= 1) over several cold loads, in
// headless Chromium: how much the naga front end in the wasm costs the first paint.
//   node tests/e2e/first-paint.mjs URL [URL…]   (each a served dist/; prints the median per URL)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const RUNS = 7;
for (const url of process.argv.slice(2)) {
  const times = [];
  for (let k = 0; k < RUNS; k += 1) {
    const profile = mkdtempSync(join(tmpdir(), 'crosslane-paint-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      headless: false,
      args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    const page = await context.newPage();
    const start = Date.now();
    await page.goto(url);
    await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1, null, { timeout: 60_000 });
    times.push(Date.now() - start);
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  times.sort((a, b) => a - b);
  console.log(`${url} first render: median ${times[RUNS >> 1]} ms (min ${times[0]}, max ${times[RUNS - 1]}) over ${RUNS} cold loads`);
}
