//! Prints how much slower the odd-even merge network is than `slice::sort_unstable` on 2^20
//! random u32 keys (median of 9 runs each; the criterion bench `oddeven` is the careful version).
//! Run: `cargo run --release -p crosslane-core --example sort_ratio`.

use std::time::{Duration, Instant};

use crosslane_core::network::{sort_keys, sort_keys_with, ExecOptions};

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort_unstable();
    runs[runs.len() / 2]
}

fn time(data: &[u32], sort: impl Fn(&mut [u32])) -> Duration {
    median(
        (0..9)
            .map(|_| {
                let mut keys = data.to_vec();
                let start = Instant::now();
                sort(&mut keys);
                let took = start.elapsed();
                assert!(keys.windows(2).all(|w| w[0] <= w[1]));
                took
            })
            .collect(),
    )
}

fn main() {
    let len = 1 << 20;
    let mut rng = fastrand::Rng::with_seed(2026);
    let data: Vec<u32> = (0..len).map(|_| rng.u32(..)).collect();
    let sequential = ExecOptions {
        parallel: false,
        ..ExecOptions::for_item_bytes(4)
    };
    let network = time(&data, sort_keys);
    let single = time(&data, |k| {
        sort_keys_with(k, sequential).unwrap_or_default();
    });
    let unstable = time(&data, |k| k.sort_unstable());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("2^20 random u32 keys, {threads} hardware threads, median of 9:");
    println!("  odd-even network, parallel : {network:>10.2?}");
    println!("  odd-even network, 1 thread : {single:>10.2?}");
    println!("  slice::sort_unstable       : {unstable:>10.2?}");
    println!(
        "  ratio network / sort_unstable: {:.2} (parallel), {:.2} (1 thread)",
        network.as_secs_f64() / unstable.as_secs_f64(),
        single.as_secs_f64() / unstable.as_secs_f64()
    );
}
