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
    // lane l's rank is (l − 1) / 2, so out[k] = 2k + 1 for k < 16; the rest keep the fill.
    assert_eq!(ints(t.buffer("count").unwrap()), [Some(16)]);
    let out = ints(t.buffer("out").unwrap());
    let want: Vec<Option<i128>> = (0..32)
        .map(|k| Some(if k < 16 { 2 * k + 1 } else { k }))
        .collect();
    assert_eq!(out, want);
}

#[test]
fn kernel_written_ballot_compaction_keeps_multiples_of_3_in_order() {
    let (f, s) = written!("cuda_ballot_compaction.cu");
    let t = run(f, s);
    // Multiples of 3 in 0..32: 0, 3, …, 30, eleven of them, at slots 0..11.
    assert_eq!(ints(t.buffer("total").unwrap()), [Some(11)]);
    let out = ints(t.buffer("out").unwrap());
    let want: Vec<Option<i128>> = (0..12)
        .map(|k| Some(if k < 11 { 3 * k } else { k }))
        .collect();
    assert_eq!(out[..12], want[..], "out[11] keeps its fill");
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
