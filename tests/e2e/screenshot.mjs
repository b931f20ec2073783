// The README's screenshot (docs/operation-view.png): the operation view with Ascend C's
// asc_shfl_xor, lane_mask 1 and width 16 on 32 lanes — the example the README's first command
// prints. Run through scripts/screenshot, which builds and serves the page; by hand:
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node tests/e2e/screenshot.mjs OUT.png
// Not a *.test.mjs file, so `node --test tests/e2e/` leaves it out.
import { launch, open, rendered } from './lib.mjs';

const out = process.argv[2] ?? 'docs/operation-view.png';
const browser = await launch({ width: 1280, height: 820 });
try {
  const page = await open(browser);
  // Light theme whatever the machine prefers, so the picture is the same on every run.
  await page.emulateMedia({ colorScheme: 'light' });
  await rendered(page, () => page.selectOption('select#dialect', 'ascend'));
  await rendered(page, () => page.selectOption('select#op', 'asc_shfl_xor'));
  await rendered(page, () => page.fill('input[data-param="lane_mask"]', '1'));
  await rendered(page, () => page.fill('input[data-param="width"]', '16'));
  // The view's top: controls, drawing, rule and source (the lane table is below the fold).
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: out });
  if (browser.pageErrors.length > 0) {
    throw new Error(`the page reported errors: ${browser.pageErrors.join('; ')}`);
  }
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
