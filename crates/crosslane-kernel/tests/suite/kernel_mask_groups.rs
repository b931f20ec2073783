//! CUDA `*_sync` calls whose lanes form disjoint groups, each passing its own mask: the rule
//! binds "all non-exited threads named in mask" (CUDA C++ Programming Guide, Warp Shuffle
//! Functions and Warp Vote Functions), so each group's call is defined on its own. Masks that
//! overlap without being equal stay undefined. Expected values derived by hand beside each
//! test.

use crate::cells::cell_ints as ints;
use crosslane_core::op::Dialect;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run(src: &str, fills: &[(&str, &str)]) -> KernelTrace {
    let config = LaunchConfig {
        dialect: Some(Dialect::Cuda),
        block_dim: Some([32, 1, 1]),
        args: fills
            .iter()
            .map(|(n, f)| (n.to_string(), f.to_string()))
            .collect(),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

#[test]
fn two_halves_exchange_within_their_own_mask() {
    let t = run(
        "__global__ void k(int *o, unsigned *b) {\n\
           int t = threadIdx.x;\n\
           unsigned mask = t < 16 ? 0x0000ffffu : 0xffff0000u;\n\
           o[t] = __shfl_xor_sync(mask, t, 1);\n\
           b[t] = __ballot_sync(mask, t % 3 == 0);\n\
         }\n",
        &[],
    );
    // Each lane reads its xor-1 partner, which is in its own half.
    let want: Vec<Option<i128>> = (0..32).map(|t| Some(t ^ 1)).collect();
    assert_eq!(ints(t.buffer("o").unwrap()), want);
    // Each half's ballot: lanes 0,3,…,15 → 0x9249; lanes 18,21,…,30 → 0x49240000.
    let want: Vec<Option<i128>> = (0..32)
        .map(|t| Some(if t < 16 { 0x9249 } else { 0x4924_0000 }))
        .collect();
    assert_eq!(ints(t.buffer("b").unwrap()), want);
}

#[test]
fn match_any_peers_reduce_each_group_on_its_own() {
    // Keys alternate 0, 1 over lanes 0..30, lanes 30 and 31 hold 2: three groups of peers.
    let keys = (0..32)
        .map(|t| {
            if t >= 30 {
                "2".to_string()
            } else {
                (t % 2).to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(",");
    let t = run(
        "__global__ void k(const int *key, int *o, int *s) {\n\
           int t = threadIdx.x;\n\
           unsigned peers = __match_any_sync(0xffffffffu, key[t]);\n\
           o[t] = __reduce_add_sync(peers, 1);\n\
           s[t] = __reduce_add_sync(peers, t);\n\
         }\n",
        &[("key", &keys)],
    );
    // 15 lanes hold key 0 (0, 2, …, 28), 15 hold key 1 (1, 3, …, 29), 2 hold key 2.
    let want: Vec<Option<i128>> = (0..32)
        .map(|t| Some(if t >= 30 { 2 } else { 15 }))
        .collect();
    assert_eq!(ints(t.buffer("o").unwrap()), want);
    // Sums of the lane ids: 0+2+…+28 = 210, 1+3+…+29 = 225, 30+31 = 61.
    let want: Vec<Option<i128>> = (0..32)
        .map(|t| {
            Some(if t >= 30 {
                61
            } else if t % 2 == 0 {
                210
            } else {
                225
            })
        })
        .collect();
    assert_eq!(ints(t.buffer("s").unwrap()), want);
    // The page draws each call as one step: its three groups' steps are one, every lane with
    // its own group's result (15 or 2 for the count).
    let step = t
        .steps
        .iter()
        .find(|s| s.line == 4)
        .expect("the count's step");
    assert_eq!(step.ops.len(), 1, "{:?}", step.ops);
    let counts: Vec<Option<i64>> = step.ops[0]
        .results
        .iter()
        .map(|r| r.value.and_then(|v| v.as_i64()))
        .collect();
    let want: Vec<Option<i64>> = (0..32)
        .map(|t| Some(if t >= 30 { 2 } else { 15 }))
        .collect();
    assert_eq!(counts, want);
}

#[test]
fn overlapping_masks_stay_undefined_with_the_rule() {
    let t = run(
        "__global__ void k(int *o) {\n\
           int t = threadIdx.x;\n\
           unsigned mask = t < 16 ? 0x0000ffffu : 0x00ffffffu;\n\
           o[t] = __shfl_xor_sync(mask, t, 1);\n\
         }\n",
        &[],
    );
    // Lanes 16..24 are named by both masks but pass only one of them: no group is whole.
    let o = ints(t.buffer("o").unwrap());
    assert!(o.iter().all(Option::is_none), "{o:?}");
    assert!(
        t.merged_diagnostics.iter().any(|d| d
            .message
            .contains("must be uniform but differs between lanes")),
        "{:?}",
        t.merged_diagnostics
    );
}
