//! HIP's `*_sync` warp functions with their 64-bit masks (ROCm `amd_warp_sync_functions.h`,
//! HIP Programming Guide, "Warp cross-lane functions"): on a wave64 every lane takes part, on a
//! wave32 the mask's upper half is ignored. Expected values derived by hand beside each test.

use crate::cells::cell_ints as ints;
use crosslane_core::op::Dialect;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run(src: &str, lanes: usize) -> KernelTrace {
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(lanes),
        block_dim: Some([lanes, 1, 1]),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

const VOTES: &str = "__global__ void k(unsigned long long *o, int *s, int *a, int *al, \
                     unsigned long long *g) {\n\
  int t = threadIdx.x;\n\
  o[t] = __ballot_sync(0xffffffffffffffffull, t % 3 == 0);\n\
  s[t] = __shfl_sync(~0ull, t * 10, 40);\n\
  a[t] = __any_sync(~0ull, t == 60);\n\
  al[t] = __all_sync(~0ull, t != 5);\n\
  unsigned long long m = (t & 1) ? 0xAAAAAAAAAAAAAAAAull : 0x5555555555555555ull;\n\
  g[t] = __ballot_sync(m, t < 8);\n\
}\n";

#[test]
fn wave64_sync_functions_see_all_64_lanes() {
    let t = run(VOTES, 64);
    // Bits 0, 3, …, 63 (every third lane): 0x9249249249249249.
    let every_third: i128 = (0..64).step_by(3).map(|i| 1i128 << i).sum();
    assert_eq!(every_third, 0x9249_2492_4924_9249);
    assert_eq!(ints(t.buffer("o").unwrap()), vec![Some(every_third); 64]);
    // Lane 40 holds 400; a 64-lane wavefront reads it (the CUDA op would call width 64 too wide).
    assert_eq!(ints(t.buffer("s").unwrap()), vec![Some(400); 64]);
    // Lane 60 exists on a wave64; lane 5 fails `t != 5`.
    assert_eq!(ints(t.buffer("a").unwrap()), vec![Some(1); 64]);
    assert_eq!(ints(t.buffer("al").unwrap()), vec![Some(0); 64]);
    // Two disjoint groups, each with its own mask: the ballot of lanes 0..8 masked by each
    // group's lanes, 0x55 for the even lanes and 0xAA for the odd ones.
    let want: Vec<Option<i128>> = (0..64)
        .map(|i| Some(if i % 2 == 0 { 0x55 } else { 0xAA }))
        .collect();
    assert_eq!(ints(t.buffer("g").unwrap()), want);
}

#[test]
fn wave32_sync_functions_ignore_the_upper_half_of_the_mask() {
    let t = run(VOTES, 32);
    let every_third: i128 = (0..32).step_by(3).map(|i| 1i128 << i).sum();
    assert_eq!(ints(t.buffer("o").unwrap()), vec![Some(every_third); 32]);
    // Source lane 40 is 40 mod 32 = 8 on a wave32 (HIP's index mod warpSize): 80.
    assert_eq!(ints(t.buffer("s").unwrap()), vec![Some(80); 32]);
    // No lane 60 on a wave32.
    assert_eq!(ints(t.buffer("a").unwrap()), vec![Some(0); 32]);
    assert_eq!(ints(t.buffer("al").unwrap()), vec![Some(0); 32]);
}

#[test]
fn a_mask_naming_lanes_that_do_not_execute_the_call_is_undefined() {
    let t = run(
        "__global__ void k(unsigned long long *o) {\n\
           int t = threadIdx.x;\n\
           if (t < 40) o[t] = __ballot_sync(~0ull, 1);\n\
         }\n",
        64,
    );
    let o = ints(t.buffer("o").unwrap());
    // Lanes 0..40 ran the call with a mask naming lanes 40..64, which did not: undefined.
    assert!(o[..40].iter().all(Option::is_none), "{o:?}");
    // Lanes 40..64 did not store: their index fill stays.
    assert_eq!(o[40..], (40..64).map(Some).collect::<Vec<_>>()[..]);
    let why = t
        .merged_diagnostics
        .iter()
        .any(|d| d.message.contains("__hip_check_mask"));
    assert!(why, "{:?}", t.merged_diagnostics);
}

/// ROCm's `__match_any_sync(m, v) = __match_any(v) & m` on a wave64, and
/// `__match_all_sync(m, v, &pred)`, whose `pred` the call writes. Lanes 0..40 call with the
/// full mask in a branch only they execute: the check fails (the mask names lanes 40..64,
/// which do not execute the call), so their results and `pred` are undefined with the rule. Lanes 40..64 call with the mask of lanes 40..64 and value
/// `t / 8` (5 for 40..48, 6 for 48..56, 7 for 56..64): match_any gives the 8 lanes of each
/// value, `0xFF << (8 * (t / 8))`; match_all finds three values, so 0 and `pred` 0.
#[test]
fn wave64_match_sync_checks_the_mask_and_writes_pred() {
    let t = run(
        "__global__ void k(unsigned long long *any, unsigned long long *all, int *pr) {\n\
           int t = threadIdx.x;\n\
           int p = 9;\n\
           if (t < 40) {\n\
             any[t] = __match_any_sync(~0ull, t / 8);\n\
             all[t] = __match_all_sync(~0ull, t / 8, &p);\n\
           } else {\n\
             any[t] = __match_any_sync(~0ull << 40, t / 8);\n\
             all[t] = __match_all_sync(~0ull << 40, t / 8, &p);\n\
           }\n\
           pr[t] = p;\n\
         }\n",
        64,
    );
    let (any, all, pr) = (
        ints(t.buffer("any").unwrap()),
        ints(t.buffer("all").unwrap()),
        ints(t.buffer("pr").unwrap()),
    );
    assert!(any[..40].iter().all(Option::is_none), "{any:?}");
    assert!(all[..40].iter().all(Option::is_none), "{all:?}");
    assert!(pr[..40].iter().all(Option::is_none), "{pr:?}");
    let groups: Vec<Option<i128>> = (40..64).map(|i| Some(0xFFi128 << (8 * (i / 8)))).collect();
    assert_eq!(any[40..], groups[..]);
    assert_eq!(all[40..], vec![Some(0); 24][..]);
    assert_eq!(pr[40..], vec![Some(0); 24][..]);
}

/// On a wave32 the mask's upper half is ignored (`__hip_adjust_mask_for_wave32`): `~0ull` is
/// the 32 lanes. match_any of `t % 2` gives the even lanes 0x55555555 (1431655765) or the odd
/// ones 0xAAAAAAAA (2863311530); match_all of a value every lane holds gives the mask,
/// 0xFFFFFFFF, and writes `pred` = 1 (the 9 stored first is overwritten).
#[test]
fn wave32_match_sync_ignores_the_upper_half_and_writes_pred() {
    let t = run(
        "__global__ void k(unsigned long long *any, unsigned long long *all, int *pr) {\n\
           int t = threadIdx.x;\n\
           int p = 9;\n\
           any[t] = __match_any_sync(~0ull, t % 2);\n\
           all[t] = __match_all_sync(~0ull, 3, &p);\n\
           pr[t] = p;\n\
         }\n",
        32,
    );
    let want: Vec<Option<i128>> = (0..32)
        .map(|i| Some(if i % 2 == 0 { 0x5555_5555 } else { 0xAAAA_AAAA }))
        .collect();
    assert_eq!(ints(t.buffer("any").unwrap()), want);
    assert_eq!(ints(t.buffer("all").unwrap()), vec![Some(0xFFFF_FFFF); 32]);
    assert_eq!(ints(t.buffer("pr").unwrap()), vec![Some(1); 32]);
}

/// A DPP builtin runs by the launch's `--arch`: `row_bcast:15` (dpp_ctrl 0x142) exists on
/// GFX9 (gfx90a) and not on RDNA (LLVM AMDGPUModifierSyntax, DPP modifiers). Lane 15 of each
/// row feeds the whole next row; row_mask 0xa enables rows 1 and 3 only, so lanes 16..32
/// read lane 15 (value 15) and lanes 48..64 read lane 47 (value 47).
#[test]
fn dpp_follows_the_launch_target() {
    let src = "__global__ void k(const int *x, int *o) {\n\
                 o[threadIdx.x] = __builtin_amdgcn_mov_dpp(x[threadIdx.x], 0x142, 0xa, 0xf, false);\n\
               }\n";
    let mut config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(64),
        block_dim: Some([64, 1, 1]),
        ..LaunchConfig::default()
    };
    config.preprocess.arch = Some("gfx90a".to_string());
    let t = run_kernel(src, config.clone()).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    let o = ints(t.buffer("o").unwrap());
    assert_eq!(o[16..32], vec![Some(15); 16][..]);
    assert_eq!(o[48..64], vec![Some(47); 16][..]);
    // On gfx1030 (RDNA2) the same control is refused, naming the targets that have it.
    config.preprocess.arch = Some("gfx1030".to_string());
    config.lanes = Some(64);
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert!(
        t.all_diagnostics()
            .any(|d| d.message.contains("row_bcast:15 does not exist on gfx1030")),
        "{:?}",
        t.all_diagnostics().map(|d| &d.message).collect::<Vec<_>>()
    );
}

/// CUDA's `__reduce_*_sync` called from a HIP wave64 kernel reads its mask as HIP's 64-bit one
/// (ROCm amd_warp_sync_functions.h declares every `*_sync` mask `unsigned long long`): a full
/// mask sums lanes 0..63 (2016) and its maximum is 63, in every lane.
#[test]
fn reduce_sync_takes_a_64_bit_mask_on_a_wave64() {
    let t = run(
        "__global__ void k(int *sum, unsigned *mx) {\n\
           unsigned long long mask = 0xFFFFFFFFFFFFFFFFull;\n\
           sum[threadIdx.x] = __reduce_add_sync(mask, (int)threadIdx.x);\n\
           mx[threadIdx.x] = __reduce_max_sync(mask, (unsigned)threadIdx.x);\n\
         }\n",
        64,
    );
    assert_eq!(ints(t.buffer("sum").unwrap()), vec![Some(2016); 64]);
    assert_eq!(ints(t.buffer("mx").unwrap()), vec![Some(63); 64]);
}

#[test]
fn a_32_bit_mask_is_refused_as_hipcc_refuses_it() {
    // ROCm's amd_warp_sync_functions.h static_asserts sizeof(MaskT) == 8 on every target:
    // `0xffffffff` is an `unsigned int` ([lex.icon]/2), so the call does not compile.
    let src = "__global__ void k(const int* in, int* out) {\n\
  int v = in[threadIdx.x];\n\
  v += __shfl_xor_sync(0xffffffff, v, 1);\n\
  out[threadIdx.x] = v;\n\
}\n";
    for lanes in [32, 64] {
        let c = LaunchConfig {
            dialect: Some(Dialect::Hip),
            lanes: Some(lanes),
            block_dim: Some([lanes, 1, 1]),
            ..LaunchConfig::default()
        };
        let e = crate::support::refused(src, c);
        assert!(e.starts_with("3:6:"), "{e}");
        assert!(e.contains("`unsigned` (32 bits)"), "{e}");
        assert!(e.contains("0xffffffffffffffffull"), "{e}");
    }
}
