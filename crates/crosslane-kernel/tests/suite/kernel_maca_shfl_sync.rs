//! MACA's masked shuffles on its 64-lane warp: `__shfl*_sync` run as the unsynchronized
//! shuffle over the wave (MetaX's C500 optimization guide shows `__shfl_xor_sync(0xffffffff, …)`
//! on a 64-lane warp as a working pattern; HIP's own-lane-in-mask check is not MetaX's), and the
//! 16-lane forms `__shfl_*_sync_16(mask, v, x)` are `__shfl_*_sync(mask, v, x, 16)` (as MetaX's
//! own sources define them where a toolchain lacks them). The votes keep HIP's check. Expected
//! values from a short Python model, pasted beside each test.

use crate::cells::cell_ints as ints;
use crosslane_core::op::Dialect;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run(src: &str) -> KernelTrace {
    let config = LaunchConfig {
        dialect: Some(Dialect::Maca),
        lanes: Some(64),
        block_dim: Some([64, 1, 1]),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

/// A 32-bit full mask on the 64-lane warp: every lane shuffles. The xor tree 16..1 sums each
/// half of the wave; a broadcast from lane 5 reaches lanes 32..63 too.
/// Python: `v=list(range(64)); for m in (16,8,4,2,1): v=[v[l]+v[l^m] for l in range(64)]`
/// gives 496 in lanes 0..31 and 1520 in lanes 32..63.
#[test]
fn a_32_bit_mask_shuffles_all_64_lanes() {
    let t = run("__global__ void k(int *s, int *b) {\n\
           int t = threadIdx.x;\n\
           int v = t;\n\
           for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);\n\
           s[t] = v;\n\
           b[t] = __shfl_sync(0xffffffffu, t * 3, 5);\n\
         }\n");
    let want: Vec<Option<i128>> = (0..64)
        .map(|l| Some(if l < 32 { 496 } else { 1520 }))
        .collect();
    assert_eq!(ints(t.buffer("s").unwrap()), want);
    assert_eq!(ints(t.buffer("b").unwrap()), vec![Some(15); 64]);
    let hip_rule = t
        .merged_diagnostics
        .iter()
        .any(|d| d.message.contains("__hip_check_mask"));
    assert!(!hip_rule, "{:?}", t.merged_diagnostics);
}

/// `__shfl_down_sync_16` is `__shfl_down_sync(mask, v, d, 16)`: a lane whose source lies past
/// its 16-lane group keeps its own value. Python:
/// `v=[t*t%17 for t in range(64)]; for d in (8,4,2,1): v=[v[l]+(v[l+d] if l%16+d<16 else v[l]) for l in range(64)]`
/// gives the group sums 135, 132, 127, 120 in lanes 0, 16, 32, 48 and, e.g., 148 in lane 1,
/// 64 in lane 15. `__shfl_up_sync_16(m, t, 1)` gives `t - 1`, and `t` where `t % 16 == 0`.
#[test]
fn sixteen_lane_forms_shuffle_within_groups_of_16() {
    let t = run("__global__ void k(int *s, int *u) {\n\
           int t = threadIdx.x;\n\
           int v = t * t % 17;\n\
           for (int d = 8; d > 0; d >>= 1) v += __shfl_down_sync_16(0xffffffffffffffffULL, v, d);\n\
           s[t] = v;\n\
           u[t] = __shfl_up_sync_16(0xffffffffffffffffULL, t, 1);\n\
         }\n");
    let s = ints(t.buffer("s").unwrap());
    assert_eq!(
        [s[0], s[16], s[32], s[48]],
        [Some(135), Some(132), Some(127), Some(120)]
    );
    assert_eq!((s[1], s[15]), (Some(148), Some(64)));
    let want: Vec<Option<i128>> = (0..64)
        .map(|l| Some(if l % 16 == 0 { l } else { l - 1 }))
        .collect();
    assert_eq!(ints(t.buffer("u").unwrap()), want);
}

/// A source that defines the 16-lane form itself (`#ifndef __shfl_xor_sync_16` / `#define`, as
/// MetaX's kernels do) gets its own definition: the xor tree 8..1 over groups of 16 sums each
/// group, 120, 376, 632, 888 (Python: `[sum(range(g*16, g*16+16)) for g in range(4)]`).
#[test]
fn a_source_definition_of_a_sixteen_lane_form_is_used() {
    let t = run("#ifndef __shfl_xor_sync_16\n\
         #define __shfl_xor_sync_16(mask, val, offset) __shfl_xor_sync(mask, val, offset, 16)\n\
         #endif\n\
         __global__ void k(int *s) {\n\
           int t = threadIdx.x;\n\
           int v = t;\n\
           for (int o = 8; o > 0; o >>= 1) v += __shfl_xor_sync_16(~0ull, v, o);\n\
           s[t] = v;\n\
         }\n");
    let want: Vec<Option<i128>> = (0..64)
        .map(|l| Some([120, 376, 632, 888][(l / 16) as usize]))
        .collect();
    assert_eq!(ints(t.buffer("s").unwrap()), want);
}

/// The votes keep HIP's definition and check on MACA: `__ballot_sync(0xffffffff, 1)` in lanes
/// 32..63 (outside their own 32-bit mask) stays undefined with the rule named; lanes 0..31 get
/// `__ballot(1) & 0xffffffff`.
#[test]
fn a_vote_outside_its_own_mask_stays_undefined() {
    let t = run("__global__ void k(unsigned long long *o) {\n\
           int t = threadIdx.x;\n\
           o[t] = __ballot_sync(0xffffffff, 1);\n\
         }\n");
    let o = ints(t.buffer("o").unwrap());
    assert_eq!(o[..32], vec![Some(0xffff_ffff); 32][..]);
    assert!(o[32..].iter().all(Option::is_none), "{o:?}");
}

/// The 16-lane forms take exactly three arguments; a call with two is refused at its line.
#[test]
fn a_sixteen_lane_form_with_two_arguments_is_refused() {
    let config = LaunchConfig {
        dialect: Some(Dialect::Maca),
        lanes: Some(64),
        ..LaunchConfig::default()
    };
    let err = run_kernel(
        "__global__ void k(float *s) {\n\
           s[threadIdx.x] = __shfl_down_sync_16(~0ull, s[threadIdx.x]);\n\
         }\n",
        config,
    )
    .expect_err("two arguments");
    assert_eq!(err.line, 2, "{err:?}");
    assert!(err.message.contains("takes 3 arguments"), "{err:?}");
}
