//! Emulator throughput for a 64-lane shuffle, in lane-results per second.
//!
//! Two figures: the full rule evaluation (`OpRequest::run`: parse, validate, evaluate the vendor
//! rule for every lane, build provenance and reasons) and the compiled data movement (`Plan::apply`,
//! what a long-running kernel or a GPU comparison replays). docs/benchmarks.md quotes both.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use crosslane_core::plan::Plan;
use crosslane_core::OpRequest;

fn request(dialect: &str, op: &str, lanes: &str, params: &[(&str, &str)]) -> OpRequest {
    OpRequest {
        dialect: dialect.into(),
        op: op.into(),
        lanes: lanes.into(),
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..Default::default()
    }
}

fn cases() -> Vec<(&'static str, OpRequest)> {
    vec![
        (
            "hip___shfl_xor_w64",
            request("hip", "__shfl_xor", "64", &[("lane_mask", "5")]),
        ),
        (
            "maca_mov_shfl_row_mirror",
            request(
                "maca",
                "__builtin_mxc_mov_shfl",
                "64",
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
            request("amdgcn", "ds_swizzle_b32", "64", &[("offset", "0x041f")]),
        ),
    ]
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("shuffle64");
    for (name, req) in cases() {
        let Ok(step) = req.run() else {
            eprintln!("skipping {name}: op not available");
            continue;
        };
        group.throughput(Throughput::Elements(step.lanes as u64));
        group.bench_with_input(BenchmarkId::new("rule_eval", name), &req, |b, req| {
            b.iter(|| std::hint::black_box(req.run()))
        });
        // Replay over a batch of 1024 operand rows so the figure is steady-state data movement.
        let plan = Plan::from_step(&step);
        let rows: Vec<u64> = (0..step.lanes as u64 * 1024).collect();
        let mut out = vec![0u64; rows.len()];
        group.throughput(Throughput::Elements(rows.len() as u64));
        group.bench_function(BenchmarkId::new("plan_apply", name), |b| {
            b.iter(|| {
                for (src, dst) in rows
                    .chunks_exact(step.lanes)
                    .zip(out.chunks_exact_mut(step.lanes))
                {
                    plan.apply(std::hint::black_box(src), dst, 0);
                }
                std::hint::black_box(&out);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
