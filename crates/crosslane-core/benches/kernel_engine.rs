//! Kernel-engine throughput in lane-statements per second (statements executed times the lanes
//! that executed each), for an arithmetic loop and a shuffle loop, recorded in full and with
//! [`TraceMode::None`]. The README quotes these figures; `crosslane run FILE --trace none`
//! measures the same engine from the command line.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use crosslane_core::kernel::bench::{arith_loop, shuffle_loop};
use crosslane_core::kernel::{run_kernel_traced, LaunchConfig, Outcome, TraceMode};

fn config(threads: usize) -> LaunchConfig {
    LaunchConfig {
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    }
}

fn lane_statements(src: &str, threads: usize, mode: TraceMode) -> u64 {
    let t = run_kernel_traced(src, config(threads), mode).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    t.stats.lane_statements
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("kernel_engine");
    g.sample_size(10);
    for (name, source) in [
        ("arith", arith_loop as fn(u32) -> String),
        ("shuffle", shuffle_loop),
    ] {
        for (mode_name, mode, threads, iter) in [
            ("none", TraceMode::None, 1024, 300),
            ("full", TraceMode::Full, 256, 100),
        ] {
            let src = source(iter);
            g.throughput(Throughput::Elements(lane_statements(&src, threads, mode)));
            g.bench_with_input(
                BenchmarkId::new(name, format!("{mode_name}_{threads}x{iter}")),
                &src,
                |b, src| b.iter(|| lane_statements(src, threads, mode)),
            );
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
