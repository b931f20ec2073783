//! The emulator's throughput measured in the browser: the same loops as the native criterion
//! bench (`crates/crosslane-core/benches/shuffle.rs`), run in wasm and timed with
//! `performance.now()`, because criterion does not run in a browser.
//!
//! Two figures per case, in lane-results per second: `rule_eval` (the full
//! [`OpRequest::run`]: parse, validate, evaluate the vendor rule for every lane, build provenance
//! and reasons) and `plan_apply` ([`Plan::apply`] replaying the compiled data movement over 1024
//! operand rows). The cases are the native bench's three 64-lane shuffles; keep the two lists
//! equal so the figures compare.
//!
//! Not run by any test as a timing (speed is measured by benches, never by timed tests): the page
//! exports `bench_shuffle` and `tests/e2e/bench.mjs` calls it in headless Chromium and prints
//! the figures.

use crosslane_core::plan::Plan;
use crosslane_core::OpRequest;
use crosslane_kernel::{bench, run_kernel_traced, LaunchConfig, TraceMode};

/// Operand rows per `plan_apply` iteration (as in the native bench).
pub const ROWS: usize = 1024;

/// One measured figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// The case (`hip___shfl_xor_w64`, …), as the native bench names it.
    pub case: &'static str,
    /// `rule_eval` or `plan_apply`.
    pub kind: &'static str,
    /// Timed iterations (one `run`, or one pass over [`ROWS`] rows), chosen so the figure ran
    /// for at least the time asked.
    pub iterations: u32,
    /// Lane results produced by all iterations.
    pub lane_results: u64,
    /// Wall time of all iterations, in milliseconds.
    pub millis: f64,
}

impl Figure {
    /// Lane results per second; 0 when no time was measured (a clock too coarse for the run).
    pub fn per_second(&self) -> f64 {
        if self.millis > 0.0 {
            self.lane_results as f64 / (self.millis / 1000.0)
        } else {
            0.0
        }
    }
}

fn request(dialect: &str, op: &str, params: &[(&str, &str)]) -> OpRequest {
    OpRequest {
        dialect: dialect.into(),
        op: op.into(),
        lanes: "64".into(),
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..Default::default()
    }
}

/// The native bench's cases: HIP `__shfl_xor` (wave64), MACA `__builtin_mxc_mov_shfl` row
/// mirror, AMD GCN `ds_swizzle_b32` (wave64).
pub fn cases() -> Vec<(&'static str, OpRequest)> {
    vec![
        (
            "hip___shfl_xor_w64",
            request("hip", "__shfl_xor", &[("lane_mask", "5")]),
        ),
        (
            "maca_mov_shfl_row_mirror",
            request(
                "maca",
                "__builtin_mxc_mov_shfl",
                &[
                    ("mode", "0x140"),
                    ("rmsk", "15"),
                    ("bmsk", "15"),
                    ("bc", "0"),
                ],
            ),
        ),
        (
            "amdgcn_ds_swizzle_w64",
            request("amdgcn", "ds_swizzle_b32", &[("offset", "0x041f")]),
        ),
    ]
}

/// Runs `batch` 1, 2, 4, … times until one round takes at least `min_millis` by `now`
/// (milliseconds; `performance.now()` is coarse, 0.1 ms in Chromium, so short rounds would be
/// noise). Returns the last round's count and time. Stops doubling at 2^30 rounds.
fn timed(min_millis: f64, now: &dyn Fn() -> f64, batch: &mut dyn FnMut()) -> (u32, f64) {
    let mut rounds = 1u32;
    loop {
        let start = now();
        for _ in 0..rounds {
            batch();
        }
        let millis = now() - start;
        if millis >= min_millis || rounds >= 1 << 30 {
            return (rounds, millis);
        }
        rounds *= 2;
    }
}

/// Measures every case: each figure runs for at least `min_millis` milliseconds of `now`. An
/// iteration of `rule_eval` is one [`OpRequest::run`] (one result per lane); an iteration of
/// `plan_apply` is one pass over [`ROWS`] operand rows. A case whose request is refused is
/// skipped (its op is missing from this build).
pub fn measure(min_millis: f64, now: &dyn Fn() -> f64) -> Vec<Figure> {
    let mut out = Vec::new();
    for (case, req) in cases() {
        let Ok(step) = req.run() else {
            continue;
        };
        let lanes = step.lanes;
        let (iterations, millis) = timed(min_millis, now, &mut || {
            let _ = std::hint::black_box(std::hint::black_box(&req).run());
        });
        out.push(Figure {
            case,
            kind: "rule_eval",
            iterations,
            lane_results: u64::from(iterations) * lanes as u64,
            millis,
        });

        let plan = Plan::from_step(&step);
        let rows: Vec<u64> = (0..(lanes * ROWS) as u64).collect();
        let mut results = vec![0u64; rows.len()];
        let (iterations, millis) = timed(min_millis, now, &mut || {
            for (src, dst) in rows
                .chunks_exact(lanes)
                .zip(results.chunks_exact_mut(lanes))
            {
                plan.apply(std::hint::black_box(src), dst, 0);
            }
            std::hint::black_box(&results);
        });
        out.push(Figure {
            case,
            kind: "plan_apply",
            iterations,
            lane_results: u64::from(iterations) * (lanes * ROWS) as u64,
            millis,
        });
    }
    out
}

/// Threads (one block) and iterations of the kernel-engine figures: the native bench's
/// `none_1024x300` cases.
pub const KERNEL_LAUNCH: (usize, u32) = (1024, 300);

/// The kernel engine's figures, as the native `kernel_engine` bench measures them: the
/// arithmetic loop and the shuffle loop of [`crosslane_kernel::bench`], one block of
/// [`KERNEL_LAUNCH`] threads, run with [`TraceMode::None`]. Kind `kernel_none`; an iteration is
/// one whole run and `lane_results` counts its lane-statements (statements times active lanes).
pub fn measure_kernels(min_millis: f64, now: &dyn Fn() -> f64) -> Vec<Figure> {
    let (threads, iterations) = KERNEL_LAUNCH;
    let config = LaunchConfig {
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    };
    let mut out = Vec::new();
    for (case, source) in [
        ("kernel_arith_1024x300", bench::arith_loop(iterations)),
        ("kernel_shuffle_1024x300", bench::shuffle_loop(iterations)),
    ] {
        let run = || run_kernel_traced(&source, config.clone(), TraceMode::None);
        let Ok(trace) = run() else {
            continue;
        };
        let per_run = trace.stats.lane_statements;
        let (rounds, millis) = timed(min_millis, now, &mut || {
            let _ = std::hint::black_box(run());
        });
        out.push(Figure {
            case,
            kind: "kernel_none",
            iterations: rounds,
            lane_results: u64::from(rounds) * per_run,
            millis,
        });
    }
    out
}

/// The figures as a JSON array of `{"case", "kind", "iterations", "lane_results", "ms",
/// "lane_results_per_s"}` (names and kinds are fixed ASCII words: no escaping needed).
pub fn to_json(figures: &[Figure]) -> String {
    let rows: Vec<String> = figures
        .iter()
        .map(|f| {
            format!(
                r#"{{"case":"{}","kind":"{}","iterations":{},"lane_results":{},"ms":{:.3},"lane_results_per_s":{:.0}}}"#,
                f.case,
                f.kind,
                f.iterations,
                f.lane_results,
                f.millis,
                f.per_second()
            )
        })
        .collect();
    format!("[{}]", rows.join(","))
}

/// `bench_shuffle(min_millis)`: [`measure`] timed with `performance.now()`, each figure running
/// for at least `min_millis` milliseconds, as [`to_json`]. An export of the JS library's module
/// (`crosslane-lib-*`, feature `lib`), not of the page's first module: the page never calls it,
/// and `tests/e2e/bench.mjs` imports that module's glue (docs/benchmarks.md, "Time to first
/// lanes", the first module's diet of 2026-12-05).
#[cfg(feature = "lib")]
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn bench_shuffle(min_millis: u32) -> String {
    let performance = web_sys::window().and_then(|w| w.performance());
    let now = move || performance.as_ref().map_or(0.0, |p| p.now());
    to_json(&measure(f64::from(min_millis), &now))
}

/// `window.wasmBindings.bench_kernel(min_millis)`: [`measure_kernels`] timed with
/// `performance.now()`, as [`to_json`] (`lane_results` counting lane-statements).
#[cfg(feature = "engine")]
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn bench_kernel(min_millis: u32) -> String {
    let performance = web_sys::window().and_then(|w| w.performance());
    let now = move || performance.as_ref().map_or(0.0, |p| p.now());
    to_json(&measure_kernels(f64::from(min_millis), &now))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn every_case_runs_and_is_counted_in_lane_results() {
        // A fake clock that advances 2 ms per reading: the counts are checked, not the speed.
        let t = Cell::new(0.0);
        let now = || {
            t.set(t.get() + 2.0);
            t.get()
        };
        let figures = measure(1.0, &now);
        assert_eq!(figures.len(), 6, "{figures:?}");
        let xor = &figures[0];
        assert_eq!((xor.case, xor.kind), ("hip___shfl_xor_w64", "rule_eval"));
        assert_eq!((xor.iterations, xor.lane_results), (1, 64));
        assert_eq!(xor.millis, 2.0);
        assert_eq!(xor.per_second(), 32_000.0);
        assert_eq!(figures[1].lane_results, 64 * 1024);
        let json = to_json(&figures[..1]);
        assert_eq!(
            json,
            r#"[{"case":"hip___shfl_xor_w64","kind":"rule_eval","iterations":1,"lane_results":64,"ms":2.000,"lane_results_per_s":32000}]"#
        );
    }

    #[test]
    fn kernel_figures_count_lane_statements() {
        let t = Cell::new(0.0);
        let now = || {
            t.set(t.get() + 2.0);
            t.get()
        };
        let figures = measure_kernels(1.0, &now);
        assert_eq!(figures.len(), 2, "{figures:?}");
        // Per warp: 2 declarations, the loop's 301 tests, 300 bodies and 300 increments, the
        // store: 904 statements of 32 lanes; 32 warps.
        let per_run = 904 * 32 * 32;
        assert_eq!(figures[0].case, "kernel_arith_1024x300");
        assert_eq!(figures[0].lane_results, per_run);
        assert_eq!(figures[1].lane_results, per_run);
    }

    #[test]
    fn short_rounds_are_doubled_until_they_take_the_time_asked() {
        // 2 ms per reading: one round already takes the 1 ms asked.
        let t = Cell::new(0.0);
        let now = || {
            t.set(t.get() + 2.0);
            t.get()
        };
        let mut calls = 0u64;
        assert_eq!(timed(1.0, &now, &mut || calls += 1), (1, 2.0));
        assert_eq!(calls, 1);
        // A clock that advances 1 ms per batch call: 4 rounds take 4 ms.
        let clock = Cell::new(0.0);
        let now = || clock.get();
        let (rounds, millis) = timed(4.0, &now, &mut || clock.set(clock.get() + 1.0));
        assert_eq!((rounds, millis), (4, 4.0));
    }
}
