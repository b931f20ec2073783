//! The example kernels written for the kernel view's menu (examples_kernels/written/): each
//! runs as its host code launches it, and gives the values derived by hand beside each test.

use crate::cells::cell_ints as ints;
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, KVal, KernelTrace, LaunchConfig, Outcome};

fn run(file: &str, src: &str) -> KernelTrace {
    let t = run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert_eq!(t.outcome, Some(Outcome::Finished), "{file}");
    let bad: Vec<_> = t
        .diagnostics
        .iter()
        .filter(|d| d.level != Level::Info)
        .collect();
    assert!(bad.is_empty(), "{file}: {bad:?}");
    t
}

macro_rules! written {
    ($f:literal) => {
        (
            $f,
            include_str!(concat!("../../examples_kernels/written/", $f)),
        )
    };
}

#[test]
fn kernel_written_warp_reduce_puts_496_in_lane_0() {
    let (f, s) = written!("cuda_warp_reduce_shfl_down.cu");
    let t = run(f, s);
    // in[i] = i (the index fill): 0 + 1 + … + 31 = 31·32/2 = 496.
    assert_eq!(ints(t.buffer("out").unwrap()), [Some(496)]);
}

#[test]
fn kernel_written_block_reduce_sums_each_block() {
    let (f, s) = written!("cuda_block_reduce_shared.cu");
    let t = run(f, s);
    // Block 0: 0..64 sums to 63·64/2 = 2016; block 1: 64..128 sums to 127·128/2 − 2016 = 6112.
    assert_eq!(ints(t.buffer("out").unwrap()), [Some(2016), Some(6112)]);
}

#[test]
fn kernel_written_warp_aggregated_atomic_packs_the_odd_values() {
    let (f, s) = written!("cuda_warp_aggregated_atomic.cu");
    let t = run(f, s);
    // The odd lanes 1, 3, …, 31 form the group (16 lanes); one atomicAdd moves count 0 → 16;
    // lane l's rank is (l − 1) / 2, so out[k] = 2k + 1 for k < 16; the rest were never
    // written (cudaMalloc does not clear memory, CUDA Runtime API): undefined.
    assert_eq!(ints(t.buffer("count").unwrap()), [Some(16)]);
    let out = ints(t.buffer("out").unwrap());
    let want: Vec<Option<i128>> = (0..32).map(|k| (k < 16).then_some(2 * k + 1)).collect();
    assert_eq!(out, want);
}

#[test]
fn kernel_written_ballot_compaction_keeps_multiples_of_3_in_order() {
    let (f, s) = written!("cuda_ballot_compaction.cu");
    let t = run(f, s);
    // Multiples of 3 in 0..32: 0, 3, …, 30, eleven of them, at slots 0..11.
    assert_eq!(ints(t.buffer("total").unwrap()), [Some(11)]);
    let out = ints(t.buffer("out").unwrap());
    // out[11] was never written (cudaMalloc does not clear memory): undefined.
    let want: Vec<Option<i128>> = (0..12).map(|k| (k < 11).then_some(3 * k)).collect();
    assert_eq!(out[..12], want[..], "out[11] is undefined");
}

#[test]
fn kernel_written_hip_wave64_reduce_sums_64_lanes() {
    let (f, s) = written!("hip_wave64_reduce.hip");
    let t = run(f, s);
    assert_eq!(t.launch.lanes, 64);
    // 0 + 1 + … + 63 = 63·64/2 = 2016, exact in float.
    let out: Vec<_> = t
        .buffer("out")
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect();
    assert_eq!(out, [Some(2016.0)]);
}

#[test]
fn kernel_written_cg_tile_reduce_sums_each_tile_of_16() {
    let (f, s) = written!("cuda_cg_tile_reduce.cu");
    let t = run(f, s);
    // Tile 0: 0..16 sums to 15·16/2 = 120; tile 1: 16..32 sums to 31·32/2 − 120 = 376.
    assert_eq!(ints(t.buffer("out").unwrap()), [Some(120), Some(376)]);
}

/// The model's expected buffers for an inference kernel on 32 lanes: `expected.json` from the
/// independent model `tests/kernels/inference/model.py` (exact arithmetic; its docstring
/// derives each `tol_ulp` from the CUDA Math API's ulp table).
fn model(name: &str) -> serde_json::Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/kernels/inference/expected.json"
    );
    let text = std::fs::read_to_string(path).expect("expected.json");
    let all: serde_json::Value = serde_json::from_str(&text).expect("expected.json is JSON");
    all["32"][name].clone()
}

/// `buf` (model name `model_buf`) within `tol_ulp` float ulps of the model (2^-23 relative),
/// and every cell carrying a bound no tighter than the function's own `note` (the lane's `ulp`
/// note), if any.
fn assert_near_model(t: &KernelTrace, buf: &str, want: &serde_json::Value, model_buf: &str) {
    let tol = want["tol_ulp"].as_f64().expect("tol_ulp") * 2f64.powi(-23);
    let note = want["ulp_note"][model_buf].as_u64();
    let cells = want["expect"][model_buf]
        .as_array()
        .expect("expected cells");
    let got = t.buffer(buf).expect("buffer");
    assert_eq!(got.len(), cells.len(), "{buf}");
    for (i, (g, e)) in got.iter().zip(cells).enumerate() {
        let g = g.as_ref().unwrap_or_else(|| panic!("{buf}[{i}] unset"));
        let (x, y) = (e.as_f64().expect("number"), g.as_f64().expect("float"));
        assert!(
            (y - x).abs() <= tol * x.abs() || y == x,
            "{buf}[{i}] = {y}, model {x}"
        );
        // The function's own bound, carried through the arithmetic after it: never tighter.
        // A zero from an exact zero input (x = 0 times the scale) is exact: no note.
        if let Some(n) = note {
            assert!(
                g.approx()
                    .map_or(y == 0.0, |a| a.ulp().is_some_and(|u| u >= n as u32)),
                "{buf}[{i}]: {:?}",
                g.approx()
            );
        }
    }
}

#[test]
fn kernel_written_warp_softmax_matches_the_model() {
    let (f, s) = written!("cuda_warp_softmax.cu");
    let t = run(f, s);
    // Rows of x[g] = ((37g + 11) mod 29 − 14) / 8, the model's `warp_softmax` on 32 lanes; each
    // cell within 24 ulp (expf ≤ 2 ulp, a 32-term sum, the divide) and noting expf's 2 ulp.
    assert_near_model(&t, "y", &model("warp_softmax"), "out");
    // By hand: each row sums to 1 (within the same bound, 32 cells).
    for row in t.buffer("y").unwrap().chunks(32) {
        let sum: f64 = row.iter().flatten().filter_map(KVal::as_f64).sum();
        assert!((sum - 1.0).abs() < 1e-5, "{sum}");
    }
}

#[test]
fn kernel_written_rmsnorm_matches_the_model() {
    let (f, s) = written!("cuda_rmsnorm.cu");
    let t = run(f, s);
    // The model's `rmsnorm`: rows of 64, weight 1 + (k mod 3) / 4, eps 1e-6; rsqrtf's 2 ulp noted.
    assert_near_model(&t, "y", &model("rmsnorm"), "out");
}

#[test]
fn kernel_written_moe_topk_router_matches_the_model() {
    let (f, s) = written!("cuda_moe_topk_router.cu");
    let t = run(f, s);
    // The model's `moe_topk_routing` on 32 experts (the same logits, host code's loop):
    // experts by the exact softmax's top 2, weights within its tolerance, noting expf's 2 ulp.
    let m = model("moe_topk_routing");
    let want: Vec<Option<i128>> = m["expect"]["expert"]
        .as_array()
        .expect("experts")
        .iter()
        .map(|e| e.as_i64().map(i128::from))
        .collect();
    assert_eq!(ints(t.buffer("experts").unwrap()), want);
    assert_near_model(&t, "weights", &m, "weight");
}

#[test]
fn kernel_written_warp_argmax_finds_the_first_maximum() {
    let (f, s) = written!("cuda_warp_argmax.cu");
    let t = run(f, s);
    // By hand: the largest x is (28 − 14) / 8 = 1.75 where 37k + 11 ≡ 28 (mod 29), i.e.
    // 8k ≡ 17, k ≡ 17 · 11 ≡ 13 (8 · 11 = 88 ≡ 1): k = 13 and k = 42 tie; the smaller wins.
    assert_eq!(ints(t.buffer("outIdx").unwrap()), [Some(13)]);
    let val: Vec<_> = t
        .buffer("outVal")
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect();
    assert_eq!(val, [Some(1.75)]);
    let m = model("argmax");
    assert_eq!(m["expect"]["out_idx"][0], 13);
    assert_eq!(m["expect"]["out_val"][0], 1.75);
}
