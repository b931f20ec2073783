//! Kernels whose cross-lane calls pass a different operand in each lane (semantics.md "Per-thread
//! and uniform operands"): each lane's own source lane, delta or mask is used; an operand the
//! vendor requires to be one value, when it varies, leaves the call's lanes undefined with a
//! warning at its line. Expected values are worked out from the vendors' formulas in the
//! comments, not taken from the interpreter.

use crate::cells::cell_ints as ints;
use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig};

fn run_on(src: &str, dialect: Dialect, lanes: usize) -> KernelTrace {
    let config = LaunchConfig {
        dialect: Some(dialect),
        lanes: Some(lanes),
        block_dim: Some([lanes, 1, 1]),
        ..LaunchConfig::default()
    };
    run_kernel(src, config).expect("kernel parses and launches")
}

#[test]
fn cuda_rotation_reads_each_lanes_own_source_lane() {
    // PTX shfl.sync.idx per thread: lane i reads lane (i + 1) % 32, whose value is that lane + 100.
    let src = "__global__ void k(int* out) {\n  int lane = threadIdx.x;\n  out[lane] = __shfl_sync(0xffffffff, lane + 100, (lane + 1) % 32);\n}";
    let t = run_on(src, Dialect::Cuda, 32);
    let expected: Vec<Option<i128>> = (0..32).map(|i| Some(100 + (i + 1) % 32)).collect();
    assert_eq!(ints(t.buffer("out").unwrap()), expected);
    assert!(
        !t.all_diagnostics()
            .any(|d| d.level == crosslane_core::Level::Warning),
        "a per-thread srcLane draws no warning: {:?}",
        t.all_diagnostics().map(|d| &d.message).collect::<Vec<_>>()
    );
}

#[test]
fn cuda_per_lane_xor_partner() {
    // laneMask = (lane & 1) ? 2 : 1 per thread: lane 0 ↔ 1 (mask 1), lane 1 reads 1 ^ 2 = 3,
    // lane 2 reads 3, lane 3 reads 1.
    let src = "__global__ void k(int* out) {\n  int lane = threadIdx.x;\n  int m = (lane & 1) ? 2 : 1;\n  out[lane] = __shfl_xor_sync(0xffffffff, lane * 10, m);\n}";
    let t = run_on(src, Dialect::Cuda, 32);
    let out = ints(t.buffer("out").unwrap());
    assert_eq!(out[..4], [Some(10), Some(30), Some(30), Some(10)]);
}

#[test]
fn hip_wave64_shfl_down_reduction_sums_0_to_63() {
    // __shfl_down(v, offset) binds offset to lane_delta (the second argument), not the default 1:
    // a tree reduction over 64 lanes gives 0 + 1 + … + 63 = 2016 in lane 0.
    let src = "__global__ void k(int* out) {\n  int lane = threadIdx.x;\n  int v = lane;\n  for (int offset = 32; offset > 0; offset /= 2) {\n    v += __shfl_down(v, offset);\n  }\n  out[lane] = v;\n}";
    let t = run_on(src, Dialect::Hip, 64);
    let out = ints(t.buffer("out").unwrap());
    assert_eq!(out[0], Some(2016));
}

#[test]
fn hip_shfl_up_by_3_reads_three_lanes_below() {
    // amd_warp_functions.h: index = self - 3, below the segment start → self. So lanes 0..2 keep
    // their own value and lane i ≥ 3 gets i - 3.
    let src = "__global__ void k(int* out) {\n  int lane = threadIdx.x;\n  out[lane] = __shfl_up(lane, 3);\n}";
    let t = run_on(src, Dialect::Hip, 64);
    let out = ints(t.buffer("out").unwrap());
    let expected: Vec<Option<i128>> = (0..64)
        .map(|i| Some(if i < 3 { i } else { i - 3 }))
        .collect();
    assert_eq!(out, expected);
}

#[test]
fn a_varying_immediate_is_undefined_at_its_line() {
    // ds_swizzle_b32's offset is an instruction immediate: it cannot differ between lanes. A
    // kernel that varies it gets a warning at the call and no lane's value is made up.
    let src = "__global__ void k(int* out) {\n  int lane = threadIdx.x;\n  int v = 7;\n  out[lane] = ds_swizzle(lane, 0x41f + (lane & 1));\n}";
    let t = run_on(src, Dialect::Amdgcn, 32);
    let d = t
        .all_diagnostics()
        .find(|d| d.message.contains("immediate"))
        .expect("a warning about the varying immediate");
    assert_eq!(d.line, 4);
    assert!(
        ints(t.buffer("out").unwrap()).iter().all(Option::is_none),
        "every lane is undefined, never lane 0's value"
    );
}

#[test]
fn a_varying_wgsl_uniform_delta_is_indeterminate() {
    // subgroupShuffleDown's delta must be subgroup-uniform (WGSL spec): lanes disagree → every
    // invocation indeterminate, with the rule cited at the call's line.
    let src = "__global__ void k(int* out) {\n  int lane = threadIdx.x;\n  out[lane] = subgroupShuffleDown(lane, lane & 1);\n}";
    let t = run_on(src, Dialect::Wgsl, 32);
    let d = t
        .all_diagnostics()
        .find(|d| d.message.contains("not subgroup-uniform"))
        .expect("a warning citing the uniformity rule");
    assert_eq!(d.line, 3);
    assert!(ints(t.buffer("out").unwrap()).iter().all(Option::is_none));
}

#[test]
fn a_signed_delta_converts_to_the_unsigned_parameter() {
    // `delta` is `unsigned int` (CUDA Programming Guide, Warp Shuffle Functions): an int argument
    // converts modulo 2^32 (C11 6.3.1.3p2), then PTX uses b = delta & 31 (shfl.sync). Lane 0:
    // down by 0xfffffffd & 31 = 29 reads lane 29; down by 0xffffffff & 31 = 31 reads lane 31;
    // up by 29 leaves the segment → own 0: 29 + 31 + 0 = 60. Lane 1: 31 + own 1 + own 1 = 33.
    // Lane 2: all own, 6. Lane 3: delta 0 reads itself, 3 + own 3 + 3 = 9.
    let src = "__global__ void k(int* out) {\n  int lane = threadIdx.x;\n  int a = __shfl_down_sync(0xffffffff, lane, lane - 3);\n  int b = __shfl_down_sync(0xffffffff, lane, -1);\n  int c = __shfl_up_sync(0xffffffff, lane, lane - 3);\n  out[lane] = a + b + c;\n}";
    let t = run_on(src, Dialect::Cuda, 32);
    let out = ints(t.buffer("out").unwrap());
    assert_eq!(&out[..4], &[Some(60), Some(33), Some(6), Some(9)]);
    assert!(
        !t.all_diagnostics()
            .any(|d| d.level == crosslane_core::Level::Error),
        "{:?}",
        t.all_diagnostics().map(|d| &d.message).collect::<Vec<_>>()
    );
}
