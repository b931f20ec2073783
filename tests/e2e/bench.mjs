// The emulator's throughput in wasm, in headless Chromium: calls the bench export of the JS
// library's module, loaded into the page (crates/crosslane-web/src/bench.rs; lib.mjs's
// `libExports`: the page's first module does not carry it, the same cases and loops as the native criterion bench
// crates/crosslane-core/benches/shuffle.rs) and prints lane-results per second.
//
// A measurement, not a test (not *.test.mjs, so `node --test` in CI never runs it):
//   bash scripts/build-web; python3 -m http.server PORT -d dist &
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node tests/e2e/bench.mjs [min-ms-per-figure, default 500]
// Compare with: cargo bench -p crosslane-core --bench shuffle -- --warm-up-time 1 --measurement-time 3
// and cargo bench -p crosslane-kernel --bench kernel_engine
import { launch, libExports, open } from './lib.mjs';

const minMillis = Number(process.argv[2] ?? 500);
const browser = await launch();
try {
  const page = await open(browser);
  await libExports(page);
  // One short round first so that the JIT tiers up before the figures are taken.
  await page.evaluate(() => window.crosslaneLib.bench_shuffle(50));
  const figures = JSON.parse(await page.evaluate((ms) => window.crosslaneLib.bench_shuffle(ms), minMillis));
  // The kernel engine (lane_results = lane-statements): crates/crosslane-kernel/benches/kernel_engine.rs's none_1024x300.
  if (await page.evaluate(() => typeof window.wasmBindings?.bench_kernel === 'function')) {
    figures.push(...JSON.parse(await page.evaluate((ms) => window.wasmBindings.bench_kernel(ms), minMillis)));
  }
  const ua = await page.evaluate(() => navigator.userAgent);
  console.log(`wasm in ${ua.match(/(Headless)?Chrome\/[\d.]+/)?.[0] ?? ua}, >= ${minMillis} ms per figure`);
  for (const f of figures) {
    const rate = f.lane_results_per_s;
    const shown = rate >= 1e9 ? `${(rate / 1e9).toFixed(2)} G` : `${(rate / 1e6).toFixed(1)} M`;
    const unit = f.kind.startsWith('kernel') ? 'lane-statements/s' : 'lane-results/s';
    console.log(`${f.kind.padEnd(11)} ${f.case.padEnd(26)} ${shown}${unit}  (${f.iterations} iterations, ${f.ms.toFixed(1)} ms)`);
  }
  console.log(JSON.stringify(figures));
  if (browser.pageErrors.length) console.error('page errors:', browser.pageErrors);
} finally {
  await browser.close();
}
