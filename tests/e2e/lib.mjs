// Shared helpers of the end-to-end tests: one Chromium launch (Debian's headless Chromium through
// playwright-core, no browser download) and the page-contract waits (docs/embedding.md, "Page contract":
// body[data-ready] grows after every render of any view).
//
// Serve the built page first (trunk build --release --offline; python3 -m http.server PORT -d dist),
// then: CROSSLANE_URL=http://127.0.0.1:PORT/ node --test tests/e2e/ (CHROMIUM overrides the browser).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const PAGE_URL = process.env.CROSSLANE_URL ?? 'http://127.0.0.1:8089/';
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const ARGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/**
 * Launches Chromium with a throw-away profile. Returns { context, close, pageErrors }: every page
 * error and console error of pages opened with `open` lands in pageErrors.
 */
export async function launch({ width = 1440, height = 1000 } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'crosslane-chromium-'));
  // headless: false because the flag is passed explicitly (--headless=new), as BROWSER.md says.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: false,
    args: ARGS,
    viewport: { width, height },
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  const pageErrors = [];
  return {
    context,
    pageErrors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The render counter the page sets after every render. */
export async function readyCount(page) {
  return Number(await page.evaluate(() => document.body.dataset.ready ?? 0));
}

/** Runs `action` and waits for the render it causes, and for the address to follow it (the
 *  browser deflates links asynchronously: `body[data-link]` is `pending` until written). */
export async function rendered(page, action, timeout = 30000) {
  const before = await readyCount(page);
  await action();
  await page.waitForFunction(
    (n) => Number(document.body.dataset.ready ?? 0) > n, before, { timeout },
  );
  await page.waitForFunction(() => document.body.dataset.link !== 'pending', null, { timeout });
}

/** Opens the page in `browser` (from `launch`) and waits for its first render. */
export async function open(browser, url = PAGE_URL) {
  const page = await browser.context.newPage();
  page.on('pageerror', (e) => browser.pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') browser.pageErrors.push(m.text()); });
  await page.goto(url);
  await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
  return page;
}

/** Clicks the tab of view `name` and waits until the view is on screen. */
export async function showView(page, name) {
  await page.click(`nav#views button[data-view="${name}"]`);
  await page.waitForFunction((n) => document.body.dataset.view === n, name);
  await page.waitForFunction(() => document.body.dataset.link !== 'pending');
  // The kernel view loads the kernel engine when first shown ("loading the kernel engine…"):
  // shown means its first frame has arrived, as a visitor sees it.
  if (name === 'kernel') {
    await page.waitForFunction(() => document.getElementById('view-kernel').dataset.state !== 'running', null, { timeout: 60_000 });
  }
}

/** The page's address fragment (with `#`) once every change has its link: links are deflated
 *  by the browser asynchronously, and `body[data-link]` is `pending` until they are written. */
export async function settledHash(page) {
  await page.waitForFunction(() => document.body.dataset.link !== 'pending');
  return page.evaluate(() => location.hash);
}

/** Clicks a share button (`#copy-link`, `#copy-embed`) and waits until what it shares is in
 *  `#share-text` or `#share-status` (`body[data-share]` leaves `pending`). */
export async function share(page, selector) {
  await page.click(selector);
  await page.waitForFunction(() => document.body.dataset.share !== 'pending');
}

/** The JS library's wasm module (`crosslane-lib-*`), loaded into `page` beside the page's own,
 *  its wasm-bindgen exports as `window.crosslaneLib`. The benchmark exports (`bench_shuffle`,
 *  `bench_sort`) live there, not in the page's first module, which never calls them
 *  (docs/benchmarks.md, "Time to first lanes"). The glue's hashed name is read from
 *  `crosslane.js`, where scripts/build-web wrote them. */
export async function libExports(page) {
  await page.evaluate(async () => {
    const text = await (await fetch('./crosslane.js')).text();
    const glue = /crosslane-lib-[0-9a-f]+\.js/.exec(text)?.[0];
    const wasm = /crosslane-lib-[0-9a-f]+_bg\.wasm/.exec(text)?.[0];
    if (!glue || !wasm) throw new Error('crosslane.js names no crosslane-lib-*: run scripts/build-web');
    const m = await import(`./${glue}`);
    await m.default({ module_or_path: `./${wasm}` });
    window.crosslaneLib = m;
  });
}
