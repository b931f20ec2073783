//! `__syncwarp()` reached from both paths of an `if`, per `--arch`.
//!
//! PTX ISA, `bar.warp.sync`: the instruction waits for the non-exited threads of `membermask`
//! to execute a `bar.warp.sync` with the same `membermask`; only "for .target sm_6x or below"
//! must all of them execute the same `bar.warp.sync` instruction in convergence. CUDA C++
//! Programming Guide, Synchronization Functions (`__syncwarp`): on sm_70 and later the threads
//! of the mask may reach `__syncwarp` at different places in the code; the call orders the
//! memory accesses of the participating threads. So on sm_70+ the two calls of an `if`/`else`
//! are one warp barrier: each path's shared-memory writes before its call are what the other
//! path reads after its own. Expected values are worked by hand beside each test.

use crate::cells::cell_ints as ints;
use crate::support::has;
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run(src: &str, arch: Option<&str>) -> KernelTrace {
    let mut c = LaunchConfig {
        dialect: Some(Dialect::Cuda),
        block_dim: Some([32, 1, 1]),
        ..LaunchConfig::default()
    };
    c.preprocess.arch = arch.map(str::to_string);
    let t = run_kernel(src, c).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

/// The half-warps swap through shared memory, each with its own `__syncwarp` (`MASK` is
/// replaced by the call's arguments).
const SWAP: &str = "__global__ void k(int *out) {\n\
   __shared__ int s[32];\n\
   int lane = threadIdx.x;\n\
   int v;\n\
   if (lane < 16) { s[lane] = lane * 10; __syncwarp(MASK); v = s[lane + 16]; }\n\
   else { s[lane] = lane * 100; __syncwarp(MASK); v = s[lane - 16]; }\n\
   out[lane] = v;\n\
 }\n";

/// Lane l < 16 reads s[l + 16] = (l + 16) * 100; lane l >= 16 reads s[l - 16] = (l - 16) * 10.
fn swapped() -> Vec<Option<i128>> {
    (0..32)
        .map(|l| {
            Some(if l < 16 {
                (l + 16) * 100
            } else {
                (l - 16) * 10
            })
        })
        .collect()
}

#[test]
fn syncwarp_on_both_paths_is_one_barrier_on_sm70_and_later() {
    for mask in ["", "0xffffffff"] {
        for arch in [None, Some("sm_70"), Some("sm_90")] {
            let t = run(&SWAP.replace("MASK", mask), arch);
            assert_eq!(
                ints(t.buffer("out").unwrap()),
                swapped(),
                "{mask:?} {arch:?}"
            );
            assert_eq!(ints(t.buffer("s").unwrap()), {
                let s: Vec<Option<i128>> = (0..32)
                    .map(|l| Some(if l < 16 { l * 10 } else { l * 100 }))
                    .collect();
                s
            });
            assert!(has(&t, Level::Info, "are one warp barrier"), "{arch:?}");
            // Neither the mask rule nor the lock-step check complains: the barrier orders the
            // writes before the reads (`machine/warp_race.rs` sees it).
            assert!(!has(&t, Level::Warning, "__syncwarp"), "{arch:?}");
        }
    }
}

#[test]
fn on_sm_6x_the_two_calls_break_the_convergence_rule() {
    let t = run(&SWAP.replace("MASK", "0xffffffff"), Some("sm_60"));
    assert!(has(
        &t,
        Level::Warning,
        "must execute the same `__syncwarp()` in convergence"
    ));
    // The paths run one after the other: lanes 0-15 read cells lanes 16-31 had not written.
    let out = ints(t.buffer("out").unwrap());
    assert!(out[..16].iter().all(Option::is_none), "{out:?}");
}

#[test]
fn a_path_whose_partner_reaches_no_syncwarp_is_undefined_with_the_rule() {
    let t = run(
        "__global__ void k(int *out) {\n\
           __shared__ int s[32];\n\
           int lane = threadIdx.x;\n\
           if (lane < 16) { s[lane] = lane; __syncwarp(); out[lane] = s[lane]; }\n\
           else { out[lane] = lane; }\n\
         }\n",
        None,
    );
    assert!(has(
        &t,
        Level::Warning,
        "reaches no `__syncwarp` with the same mask"
    ));
}

#[test]
fn three_barriers_on_each_path_meet_in_turn() {
    let t = run(
        "__global__ void k(int *out) {\n\
           __shared__ int s[32];\n\
           int lane = threadIdx.x;\n\
           int a, v;\n\
           if (lane < 16) {\n\
             s[lane] = lane; __syncwarp(); a = s[lane + 16]; __syncwarp();\n\
             s[lane] = a + 1; __syncwarp(); v = s[lane + 16];\n\
           } else {\n\
             s[lane] = lane * 100; __syncwarp(); a = s[lane - 16]; __syncwarp();\n\
             s[lane] = a * 2; __syncwarp(); v = s[lane - 16];\n\
           }\n\
           out[lane] = v;\n\
         }\n",
        None,
    );
    // Round 1: s[l] = l (l < 16), 100 l (l >= 16). Lane l < 16: a = 100 (l + 16); lane l >= 16:
    // a = l - 16. Round 2: s[l] = 100 (l + 16) + 1 (l < 16), 2 (l - 16) (l >= 16). Round 3:
    // lane l < 16 reads s[l + 16] = 2 l; lane l >= 16 reads s[l - 16] = 100 l + 1.
    let want: Vec<Option<i128>> = (0..32)
        .map(|l| Some(if l < 16 { 2 * l } else { 100 * l + 1 }))
        .collect();
    assert_eq!(ints(t.buffer("out").unwrap()), want);
    assert!(!has(&t, Level::Warning, "__syncwarp"));
}

#[test]
fn without_the_barrier_the_lock_step_check_still_warns() {
    let t = run(
        "__global__ void k(int *out) {\n\
           __shared__ int s[32];\n\
           int lane = threadIdx.x;\n\
           int v;\n\
           if (lane < 16) { s[lane] = lane * 10; v = lane; }\n\
           else { v = s[lane - 16]; }\n\
           out[lane] = v;\n\
         }\n",
        None,
    );
    assert!(has(&t, Level::Warning, "without `__syncwarp()`"));
}
