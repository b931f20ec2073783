//! Kernel-engine throughput in lane-statements per second (statements executed times the lanes
//! that executed each), for an arithmetic loop and a shuffle loop, recorded in full and with
//! [`TraceMode::None`], shuffles whose lane mask is constant, new each iteration or halving in
//! a butterfly (`xor_shuffle`), and a grid-stride reduction on 64 × 1024 threads; the
//! `_general` cases run the general evaluator alone (no typed form), the engine as it was
//! before. docs/benchmarks.md quotes these figures; `crosslane run FILE --trace
//! none` measures the same engine from the command line.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use crosslane_kernel::bench::{
    arith_loop, butterfly_loop, grid_stride_reduce, shuffle_loop, xor_hash_loop,
    REDUCE_CELLS_PER_THREAD,
};
use crosslane_kernel::{Executor, LaunchConfig, Outcome, TraceMode};

fn config(threads: usize) -> LaunchConfig {
    LaunchConfig {
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    }
}

fn lane_statements(src: &str, threads: usize, mode: TraceMode, typed: bool) -> u64 {
    let mut ex = Executor::new(src, config(threads))
        .expect("parses")
        .with_trace(mode)
        .with_typed_form(typed);
    while ex.run_for(1 << 20) > 0 {}
    let t = ex.into_trace();
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
        // `_general`: the general evaluator alone (`Executor::with_typed_form(false)`), the
        // engine as it was before statements had a typed form.
        for (case, mode, threads, iter, typed) in [
            ("none_1024x300", TraceMode::None, 1024, 300, true),
            ("none_1024x300_general", TraceMode::None, 1024, 300, false),
            ("full_256x100", TraceMode::Full, 256, 100, true),
        ] {
            let src = source(iter);
            g.throughput(Throughput::Elements(lane_statements(
                &src, threads, mode, typed,
            )));
            g.bench_with_input(BenchmarkId::new(name, case), &src, |b, src| {
                b.iter(|| lane_statements(src, threads, mode, typed))
            });
        }
    }
    // Shuffles whose lane mask is constant (`K = 5`), new each iteration (`K = i & 31`), or
    // halving in a butterfly (`o >>= 1`): 1024 threads, untraced (docs/benchmarks.md, "Kernel
    // engine: varying-operand shuffles", quotes the CLI's figures for the same kernels).
    for (case, src) in [
        ("const_k_1024x300", xor_hash_loop(300, false)),
        ("i_and_31_1024x300", xor_hash_loop(300, true)),
        ("butterfly_1024x60", butterfly_loop(60)),
    ] {
        g.throughput(Throughput::Elements(lane_statements(
            &src,
            1024,
            TraceMode::None,
            true,
        )));
        g.bench_with_input(BenchmarkId::new("xor_shuffle", case), &src, |b, src| {
            b.iter(|| lane_statements(src, 1024, TraceMode::None, true))
        });
    }
    // The grid-stride reduction on 64 blocks of 1024 threads, untraced, in the typed form and
    // on the general evaluator alone (the engine before the typed form).
    let blocks = 64;
    let reduce = LaunchConfig {
        grid_dim: Some([blocks, 1, 1]),
        block_dim: Some([1024, 1, 1]),
        buffer_len: [("in".to_string(), blocks * 1024 * REDUCE_CELLS_PER_THREAD)].into(),
        ..LaunchConfig::default()
    };
    let src = grid_stride_reduce();
    let run = |typed: bool| {
        let mut ex = Executor::new(&src, reduce.clone())
            .expect("parses")
            .with_trace(TraceMode::None)
            .with_typed_form(typed);
        while ex.run_for(1 << 20) > 0 {}
        let t = ex.into_trace();
        assert_eq!(t.outcome, Some(Outcome::Finished));
        t.stats.lane_statements
    };
    g.throughput(Throughput::Elements(run(true)));
    for (name, typed) in [("typed", true), ("general", false)] {
        g.bench_function(
            BenchmarkId::new("reduce", format!("none_64x1024_{name}")),
            |b| b.iter(|| run(typed)),
        );
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
