//! Browser benchmark of the network executor (docs/benchmarks.md): the JS library's module
//! (`crosslane-lib-*`, feature `lib`; not the page's first module, which never calls it) exports
//! [`bench_sort`], which `tests/e2e/sort-bench.mjs` calls in headless Chromium next to
//! `Uint32Array.prototype.sort` on the same keys. Timing uses `performance.now()` (falling back to
//! `Date.now()`); wasm has no threads here, so the executor runs on one core.
//!
//! The keys come from xorshift32 (Marsaglia 2003, shifts 13, 17, 5) seeded with the low 32 bits of
//! the seed (0 replaced by 1), a generator a few lines of JavaScript reproduce exactly, so the
//! script sorts the very same data with `TypedArray.prototype.sort`.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;

use crosslane_core::network::sort_keys;

/// Largest `len` the benchmark takes: 2^24 keys (64 MiB of u32 twice).
const MAX_BENCH_LEN: u32 = 1 << 24;

/// Times of one measurement repeated this often; the best is reported (the first run pays for
/// page faults).
const RUNS: usize = 3;

fn now_ms() -> f64 {
    let global = js_sys::global();
    js_sys::Reflect::get(&global, &"performance".into())
        .ok()
        .and_then(|perf| {
            let now = js_sys::Reflect::get(&perf, &"now".into())
                .ok()?
                .dyn_into::<js_sys::Function>()
                .ok()?;
            now.call0(&perf).ok()?.as_f64()
        })
        .unwrap_or_else(js_sys::Date::now)
}

/// `len` keys from xorshift32 seeded with `seed` (see the module docs).
fn keys(len: usize, seed: u64) -> Vec<u32> {
    let mut x = (seed as u32).max(1);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect()
}

/// Sorts `len` xorshift32 keys from `seed` with the odd-even merge network ([`sort_keys`]) and
/// with `sort_unstable`, best of three runs each, and returns JSON:
/// `{"len", "seed", "runs", "network_ms", "network_keys_per_s", "sort_unstable_ms", "sorted",
/// "first", "last", "xor"}` (`sorted`: both results equal and ascending; `first` / `last` / `xor`
/// of the input let a caller check it generated the same keys). A `len` outside
/// `1..=2^24` gives `{"error": "…"}`.
#[cfg(feature = "lib")]
#[wasm_bindgen]
pub fn bench_sort(len: u32, seed: u64) -> String {
    if !(1..=MAX_BENCH_LEN).contains(&len) {
        return format!(r#"{{"error":"len must be in 1..={MAX_BENCH_LEN}, got {len}"}}"#);
    }
    let input = keys(len as usize, seed);
    let mut network_ms = f64::INFINITY;
    let mut unstable_ms = f64::INFINITY;
    let mut sorted = true;
    for _ in 0..RUNS {
        let mut a = input.clone();
        let t0 = now_ms();
        sort_keys(&mut a);
        network_ms = network_ms.min(now_ms() - t0);
        let mut b = input.clone();
        let t0 = now_ms();
        b.sort_unstable();
        unstable_ms = unstable_ms.min(now_ms() - t0);
        sorted &= a == b && a.windows(2).all(|w| w[0] <= w[1]);
    }
    let per_s = if network_ms > 0.0 {
        f64::from(len) / (network_ms / 1000.0)
    } else {
        0.0
    };
    let xor = input.iter().fold(0u32, |acc, &k| acc ^ k);
    format!(
        r#"{{"len":{len},"seed":{seed},"runs":{RUNS},"network_ms":{network_ms:.3},"network_keys_per_s":{per_s:.0},"sort_unstable_ms":{unstable_ms:.3},"sorted":{sorted},"first":{},"last":{},"xor":{xor}}}"#,
        input.first().copied().unwrap_or(0),
        input.last().copied().unwrap_or(0),
    )
}
