// Shared helpers of the e2e tests: launch Debian's headless Chromium through playwright-core (no
// browser download), open the page, and wait for renders through body[data-ready] (page
// contract, DESIGN.md). CROSSLANE_URL overrides the address, CHROMIUM the browser.
import { mkdtempSync, rmSync } from 'node:fs';
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

/** Starts Chromium with a throw-away profile; `close()` ends it and removes the profile. */
export async function launch(viewport = { width: 1440, height: 1000 }) {
  const profile = mkdtempSync(join(tmpdir(), 'crosslane-chromium-'));
  // headless: false because the flag is passed explicitly (--headless=new), as BROWSER.md says.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: false,
    args: ARGS,
    viewport,
  });
  const close = async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, close };
}

/** The render counter the page sets after every render. */
export async function readyCount(page) {
  return Number(await page.evaluate(() => document.body.dataset.ready ?? 0));
}

/** Runs `action` and waits for the render it causes. */
export async function rendered(page, action) {
  const before = await readyCount(page);
  await action();
  await page.waitForFunction((n) => Number(document.body.dataset.ready ?? 0) > n, before);
}

/** Opens the page in `context`, collecting page errors into `errors`; waits for the first render. */
export async function open(context, errors = []) {
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(PAGE_URL);
  await page.waitForFunction(() => Number(document.body.dataset.ready ?? 0) >= 1);
  return page;
}
