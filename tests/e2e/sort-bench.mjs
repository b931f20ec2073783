// Browser benchmark of the sort (docs/benchmarks.md): 2^20 random u32 keys sorted in headless Chromium
// by the odd-even merge network compiled to wasm (the `bench_sort` export of the JS library's
// module, loaded into the page: lib.mjs's `libExports`) and by
// JavaScript's Uint32Array.prototype.sort on the same keys. Not a test (its name does not end in
// .test.mjs, so `node --test` skips it): timings depend on the machine.
//
//   CROSSLANE_URL=http://127.0.0.1:PORT/ node tests/e2e/sort-bench.mjs [log2_len] [seed]
//
// The keys are xorshift32 (13, 17, 5) from the seed, generated identically on both sides
// (views/sort/bench.rs); the script checks first, last and xor of the input agree. Both sides
// report the best of three runs.
import { launch, libExports, open } from './lib.mjs';

const log2 = Number(process.argv[2] ?? 20);
const seed = Number(process.argv[3] ?? 1);

const browser = await launch();
try {
  const page = await open(browser);
  await libExports(page);
  const result = await page.evaluate(({ log2, seed }) => {
    const len = 2 ** log2;
    const wasm = JSON.parse(window.crosslaneLib.bench_sort(len, BigInt(seed)));
    const input = new Uint32Array(len);
    let x = (seed >>> 0) || 1;
    for (let i = 0; i < len; i++) {
      x ^= x << 13; x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5; x >>>= 0;
      input[i] = x;
    }
    let xor = 0;
    for (const k of input) xor = (xor ^ k) >>> 0;
    let best = Infinity;
    let sorted = true;
    for (let run = 0; run < 3; run++) {
      const a = input.slice();
      const t0 = performance.now();
      a.sort();
      best = Math.min(best, performance.now() - t0);
      for (let i = 1; i < len && sorted; i++) sorted = a[i - 1] <= a[i];
    }
    return {
      wasm,
      js: { sort_ms: best, keys_per_s: len / (best / 1000), sorted },
      same_input: wasm.first === input[0] && wasm.last === input[len - 1] && wasm.xor === xor,
      user_agent: navigator.userAgent,
    };
  }, { log2, seed });
  const { wasm, js } = result;
  console.log(`keys: 2^${log2} = ${wasm.len} xorshift32 u32 (seed ${seed}); same input on both sides: ${result.same_input}`);
  console.log(`wasm odd-even merge network: ${wasm.network_ms.toFixed(1)} ms  (${(wasm.network_keys_per_s / 1e6).toFixed(1)} M keys/s, sorted ${wasm.sorted})`);
  console.log(`wasm slice::sort_unstable:   ${wasm.sort_unstable_ms.toFixed(1)} ms`);
  console.log(`JS Uint32Array.sort:         ${js.sort_ms.toFixed(1)} ms  (${(js.keys_per_s / 1e6).toFixed(1)} M keys/s, sorted ${js.sorted})`);
  console.log(`network / JS sort time: ${(wasm.network_ms / js.sort_ms).toFixed(2)}`);
  console.log(JSON.stringify(result));
  if (browser.pageErrors.length) console.log("page errors:", browser.pageErrors);
} finally {
  await browser.close();
}
