//! 2^20 random u32 keys through the odd-even merge network (`network::sort_keys`: cache-tiled,
//! parallel natively; and the same single-threaded, as it runs in wasm32) against
//! `slice::sort_unstable` on the same data. Run:
//! `cargo bench -p crosslane-core --bench oddeven -- --warm-up-time 1 --measurement-time 3`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use crosslane_core::network::{sort_keys, sort_keys_with, sort_pairs, ExecOptions};

const LEN: usize = 1 << 20;

fn keys() -> Vec<u32> {
    let mut rng = fastrand::Rng::with_seed(2026);
    (0..LEN).map(|_| rng.u32(..)).collect()
}

fn bench(c: &mut Criterion) {
    let data = keys();
    let mut group = c.benchmark_group("sort 2^20 u32");
    group.throughput(Throughput::Elements(LEN as u64));
    group.sample_size(10);
    group.bench_function("oddeven network (parallel)", |b| {
        b.iter_batched_ref(|| data.clone(), |k| sort_keys(k), BatchSize::LargeInput)
    });
    let sequential = ExecOptions {
        parallel: false,
        ..ExecOptions::for_item_bytes(4)
    };
    group.bench_function("oddeven network (1 thread)", |b| {
        b.iter_batched_ref(
            || data.clone(),
            |k| sort_keys_with(k, sequential),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("oddeven network key+value (parallel)", |b| {
        b.iter_batched_ref(
            || (data.clone(), (0..LEN as u32).collect::<Vec<u32>>()),
            |(k, v)| sort_pairs(k, v),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("slice::sort_unstable", |b| {
        b.iter_batched_ref(
            || data.clone(),
            |k| k.sort_unstable(),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
