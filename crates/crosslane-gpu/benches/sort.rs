//! GPU odd-even merge sort throughput next to the emulator's network (the same comparators on the
//! CPU, `crosslane_core::network::sort_keys`) and `sort_unstable`, in one run.
//!
//! `cargo bench -p crosslane-gpu --bench sort` sorts 2^MIN … 2^MAX pseudo-random u32 keys (with
//! their indices as values) on the native device, with the emulator's odd-even network and with
//! `slice::sort_unstable` on the host, and prints keys per second for each. Settings (environment):
//! * `CROSSLANE_BENCH_MIN_LOG2` (default 16), `CROSSLANE_BENCH_MAX_LOG2` (default 24);
//! * `CROSSLANE_BENCH_REPS` (default 3): the best of REPS runs is reported.
//!
//! GPU time is the dispatches alone (GPU timestamps when the device has them, else wall time
//! around submit and wait; the column says which); "round trip" adds upload and read-back. On a
//! machine without a GPU this is Mesa's lavapipe — a CPU rasteriser — and the table says so.
//! A plain bench binary rather than criterion: one 2^24 sort on lavapipe takes seconds, far longer
//! than criterion's minimum sample count allows in a short run.

use std::time::Instant;

use crosslane_core::network::wide_keys;
use crosslane_gpu::native::NativeGpu;

fn env_u32(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let min = env_u32("CROSSLANE_BENCH_MIN_LOG2", 16);
    let max = env_u32("CROSSLANE_BENCH_MAX_LOG2", 24).min(30);
    let reps = env_u32("CROSSLANE_BENCH_REPS", 3).max(1);
    let gpu = match NativeGpu::new() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("no GPU for the sort bench: {e}");
            std::process::exit(1);
        }
    };
    let facts = gpu.facts().clone();
    println!(
        "device: {} ({}){}",
        facts.adapter,
        facts.backend,
        if facts.is_fallback {
            " — a CPU (software) Vulkan device, not a GPU"
        } else {
            ""
        }
    );
    let sorter = match gpu.sorter() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("sort kernels failed: {e}");
            std::process::exit(1);
        }
    };
    println!(
        "{:>10} {:>12} {:>14} {:>16} {:>14} {:>14} {:>14} {:>16}",
        "keys",
        "gpu ms",
        "gpu keys/s",
        "timing",
        "round trip ms",
        "emulator ms",
        "host ms",
        "sort_unstable/s"
    );
    for log2 in min..=max {
        let n = 1usize << log2;
        let keys = wide_keys(n, u64::from(log2));
        let vals: Vec<u32> = (0..n as u32).collect();
        let mut best_gpu = f64::INFINITY;
        let mut best_trip = f64::INFINITY;
        let mut timing = "";
        for _ in 0..reps {
            let t = Instant::now();
            let run = match sorter.sort(&keys, &vals) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("2^{log2}: {e}");
                    std::process::exit(1);
                }
            };
            best_trip = best_trip.min(t.elapsed().as_secs_f64());
            best_gpu = best_gpu.min(run.timing.nanos as f64 / 1e9);
            timing = run.timing.source.label();
            if !run.keys.windows(2).all(|w| w[0] <= w[1]) {
                eprintln!("2^{log2}: GPU result is not sorted");
                std::process::exit(1);
            }
        }
        let mut best_emulator = f64::INFINITY;
        for _ in 0..reps {
            let mut k = keys.clone();
            let t = Instant::now();
            crosslane_core::network::sort_keys(&mut k);
            best_emulator = best_emulator.min(t.elapsed().as_secs_f64());
            std::hint::black_box(&k);
        }
        let mut best_host = f64::INFINITY;
        for _ in 0..reps {
            let mut k = keys.clone();
            let t = Instant::now();
            k.sort_unstable();
            best_host = best_host.min(t.elapsed().as_secs_f64());
            std::hint::black_box(&k);
        }
        println!(
            "{:>10} {:>12.2} {:>14.3e} {:>16} {:>14.2} {:>14.2} {:>14.2} {:>16.3e}",
            format!("2^{log2}"),
            best_gpu * 1e3,
            n as f64 / best_gpu,
            timing,
            best_trip * 1e3,
            best_emulator * 1e3,
            best_host * 1e3,
            n as f64 / best_host
        );
    }
}
