//! Showing any step of a run from checkpoints ([`Replay`]) gives what a straight full run
//! records: the same step, the same memory after it, the same variables; backwards as well as
//! forwards.

use crate::support::block as launch;
use crosslane_kernel::{
    run_kernel, KVal, KernelStep, KernelTrace, LaunchConfig, Limits, Replay, Scalar, StepState,
    VarChange,
};
use proptest::prelude::*;

/// The replayed step is the straight run's: every recorded field, and its changed variables
/// read back as values (a row's reason ids are its own trace's). Those values are also what
/// the machine's registers hold right after the step (`vars`), so the compact rows decode to
/// what was recorded.
fn same_step(at: &StepState, s: &KernelStep, straight: &KernelTrace) -> Result<(), String> {
    let (mut a, mut b) = (at.step.clone(), s.clone());
    a.changes.clear();
    b.changes.clear();
    if a != b {
        return Err(format!("{a:?}\n!= {b:?}"));
    }
    let want = straight.changes(s);
    if at.changes != want {
        return Err(format!("changes {:?}\n!= {want:?}", at.changes));
    }
    holds_every_var(&at.vars, &want).map_err(|e| format!("registers: {e}"))
}

/// Every step of `replay` equals the straight run's: the step itself, the memory right after
/// it, and each variable the straight run had changed so far in that warp.
fn same_as_straight(replay: &Replay, straight: &KernelTrace) -> Result<(), String> {
    if replay.len() != straight.steps.len() as u64 {
        return Err(format!(
            "{} steps replayed, {} straight",
            replay.len(),
            straight.steps.len()
        ));
    }
    for (i, s) in straight.steps.iter().enumerate() {
        let at = replay
            .at(i as u64)
            .ok_or_else(|| format!("step {i} missing"))?;
        same_step(&at, s, straight).map_err(|e| format!("step {i}: {e}"))?;
        if at.memory.buffers != straight.memory_after(i).buffers {
            return Err(format!("memory after step {i} differs"));
        }
        holds_every_var(&at.vars, &straight.vars_after(i, s.block, s.warp))
            .map_err(|e| format!("step {i}: {e}"))?;
        // The call the page draws: the last step at or before `i` with a cross-lane operation.
        let last_op = straight.steps[..=i]
            .iter()
            .rposition(|s| !s.ops.is_empty())
            .map(|k| k as u64);
        if at.last_op_step != last_op {
            return Err(format!(
                "step {i}: last call at {:?}, straight {last_op:?}",
                at.last_op_step
            ));
        }
    }
    Ok(())
}

/// `vars_after` merges variables by name (two loops' `i`), the replay lists each slot: one of
/// the slots of that name holds the value.
fn holds_every_var(slots: &[VarChange], straight: &[VarChange]) -> Result<(), String> {
    for v in straight {
        if !slots
            .iter()
            .any(|x| x.name == v.name && x.values == v.values)
        {
            return Err(format!("`{}`: no slot holds {v:?}", v.name));
        }
    }
    Ok(())
}

const XOR_TWICE: &str = "__global__ void k(unsigned *out) {
    unsigned v = threadIdx.x;
    for (int i = 0; i < 2; i++) {
        v += __shfl_xor_sync(0xffffffff, v, 1);
    }
    if (threadIdx.x % 2 == 0) {
        out[threadIdx.x] = v;
    }
}";

#[test]
fn replay_from_checkpoints_equals_the_straight_run() {
    let straight = run_kernel(XOR_TWICE, launch(64)).expect("runs");
    // CUDA __shfl_xor_sync: lane t reads lane t ^ 1. After one round both lanes of a pair hold
    // t + (t ^ 1); the second round doubles it. Only even threads store; odd cells keep their
    // launch fill (`index`).
    let out = straight.buffer("out").expect("out");
    for (t, cell) in out.iter().enumerate() {
        let want = if t % 2 == 0 { 2 * (t + (t ^ 1)) } else { t } as i128;
        assert_eq!(cell, &Some(KVal::int(Scalar::U32, want)), "thread {t}");
    }
    for every in [1, 2, 3, 7, 1000] {
        let replay = Replay::new(XOR_TWICE, launch(64), every).expect("runs");
        same_as_straight(&replay, &straight).unwrap_or_else(|e| panic!("every {every}: {e}"));
        assert_eq!(replay.summary().memory.buffers, straight.memory.buffers);
        assert_eq!(replay.summary().stats, straight.stats);
    }
}

#[test]
fn stepping_back_shows_what_stepping_forward_showed() {
    let replay = Replay::new(XOR_TWICE, launch(64), 4).expect("runs");
    let forward: Vec<_> = (0..replay.len()).map(|i| replay.at(i)).collect();
    for i in (0..replay.len()).rev() {
        assert_eq!(replay.at(i), forward[i as usize], "step {i}");
    }
    // A jump anywhere, as the page's slider does.
    for i in [9, 0, 17, 3] {
        assert_eq!(replay.at(i), forward[i as usize], "jump to {i}");
    }
    assert_eq!(replay.at(replay.len()), None);
}

/// A loop long enough that the checkpoints of a small memory budget are thinned again and
/// again: the interval doubles, and every step still shows what the straight run recorded.
#[test]
fn a_small_budget_doubles_the_interval_and_replays_the_same() {
    let src = "__global__ void k(unsigned *out) {
    unsigned v = threadIdx.x;
    for (int i = 0; i < 150; i++) {
        v += __shfl_xor_sync(0xffffffff, v, 1) & 7u;
    }
    out[threadIdx.x] = v;
}";
    let straight = run_kernel(src, launch(64)).expect("runs");
    let small = LaunchConfig {
        limits: Limits {
            max_memory: 64 * 1024,
            ..Limits::default()
        },
        ..launch(64)
    };
    let replay = Replay::new(src, small, 1).expect("runs");
    assert_eq!(replay.summary().outcome, straight.outcome);
    assert!(
        replay.interval() >= 8,
        "interval {} after {} steps",
        replay.interval(),
        replay.len()
    );
    assert!(replay.checkpoints() as u64 * replay.interval() >= replay.len());
    same_as_straight(&replay, &straight).unwrap_or_else(|e| panic!("{e}"));
}

/// The page's worker runs in slices and shows steps while the run goes on: a step shown
/// mid-run is the straight run's, and a warp other than the step's (of this block or of a
/// finished one) shows what the straight run had recorded for it.
/// A run stopped at its last step learns that the kernel ends there without a step more
/// (`settle`: the outcome of a straight run, the length unchanged); one stopped a step before
/// it stays open, its length unchanged too, and runs on to the same end.
#[test]
fn settle_learns_the_end_at_the_last_step_and_takes_no_step() {
    let straight = run_kernel(XOR_TWICE, launch(64)).expect("runs");
    let n = straight.steps.len();
    assert!(n > 4);
    let mut at_end = Replay::start(XOR_TWICE, launch(64), 4).expect("launches");
    assert_eq!(at_end.run_for(n), n);
    assert!(!at_end.is_finished(), "the end is not known before settle");
    assert!(at_end.settle());
    assert_eq!(at_end.len(), n as u64);
    assert_eq!(at_end.summary().outcome, straight.outcome);
    assert_eq!(at_end.summary().memory.buffers, straight.memory.buffers);
    let mut short = Replay::start(XOR_TWICE, launch(64), 4).expect("launches");
    short.run_for(n - 1);
    assert!(!short.settle());
    assert_eq!(short.len(), (n - 1) as u64);
    assert_eq!(short.run_for(10), 1);
    assert!(short.is_finished());
    same_as_straight(&short, &straight).unwrap();
}

#[test]
fn an_incremental_run_shows_the_same_steps_and_other_warps() {
    let two_blocks = LaunchConfig {
        grid_dim: Some([2, 1, 1]),
        ..launch(64)
    };
    let straight = run_kernel(XOR_TWICE, two_blocks.clone()).expect("runs");
    let mut replay = Replay::start(XOR_TWICE, two_blocks, 3).expect("launches");
    assert!(replay.is_empty());
    let mut shown = 0u64;
    while replay.run_for(5) > 0 {
        for i in shown..replay.len() {
            let s = &straight.steps[i as usize];
            for picked in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                let (at, other) = replay.at_warp(i, Some(picked)).expect("a step run");
                same_step(&at, s, &straight).unwrap_or_else(|e| panic!("step {i}: {e}"));
                let want = straight.vars_after(i as usize, picked.0, picked.1);
                if picked.0 <= s.block {
                    holds_every_var(&other, &want)
                        .unwrap_or_else(|e| panic!("step {i} warp {picked:?}: {e}"));
                } else {
                    // Block 1 has not started while block 0 runs.
                    assert!(other.is_empty() && want.is_empty(), "step {i} {picked:?}");
                }
            }
        }
        shown = replay.len();
        assert_eq!(replay.at(shown), None, "no step past the run so far");
    }
    assert!(replay.is_finished());
    assert_eq!(replay.len(), straight.steps.len() as u64);
}

fn expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        (0i64..9).prop_map(|n| n.to_string()),
        Just("t".to_string()),
        Just("a".to_string()),
        Just("b".to_string()),
    ];
    leaf.prop_recursive(2, 8, 2, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec!["+", "-", "*", "&", "^", "<", "%"]),
                inner.clone()
            )
                .prop_map(|(x, op, y)| format!("({x} {op} {y})")),
            (inner.clone(), 0i64..40)
                .prop_map(|(x, m)| format!("__shfl_xor_sync(0xffffffff, {x}, {m})")),
            (inner, 0i64..40).prop_map(|(x, d)| format!("__shfl_down_sync(0xffffffff, {x}, {d})")),
        ]
    })
}

fn stmt() -> impl Strategy<Value = String> {
    let simple = prop_oneof![
        (
            prop::sample::select(vec!["a", "b", "out[t]", "out[(t + 1) % 64]"]),
            prop::sample::select(vec!["=", "+=", "^="]),
            expr()
        )
            .prop_map(|(v, op, e)| format!("{v} {op} {e};")),
        Just("a++;".to_string()),
        Just("__syncthreads();".to_string()),
        Just("break;".to_string()),
    ];
    simple.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            (expr(), inner.clone(), inner.clone())
                .prop_map(|(c, x, y)| format!("if ({c}) {{ {x} }} else {{ {y} }}")),
            (0i64..4, inner.clone())
                .prop_map(|(n, x)| format!("for (int i = 0; i < {n}; i++) {{ {x} }}")),
            prop::collection::vec(inner, 1..3).prop_map(|v| v.join(" ")),
        ]
    })
}

fn kernel() -> impl Strategy<Value = String> {
    prop::collection::vec(stmt(), 1..5).prop_map(|body| {
        format!(
            "__global__ void k(int *out) {{\n  int t = threadIdx.x;\n  int a = t;\n  int b;\n  {}\n  out[t] = a + b;\n}}",
            body.join("\n  ")
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_kernels_replay_from_checkpoints(src in kernel(), every in 1u64..9) {
        let straight = run_kernel(&src, launch(64)).map_err(|e| TestCaseError::fail(format!("{e}\n{src}")))?;
        let replay = Replay::new(&src, launch(64), every).map_err(|e| TestCaseError::fail(e.to_string()))?;
        same_as_straight(&replay, &straight).map_err(|e| TestCaseError::fail(format!("{e}\n{src}")))?;
        prop_assert_eq!(&replay.summary().outcome, &straight.outcome);
        prop_assert_eq!(&replay.summary().memory.buffers, &straight.memory.buffers);
        prop_assert_eq!(&replay.summary().warps, &straight.warps);
    }

    #[test]
    fn random_kernels_run_in_slices_step_back_as_forward(src in kernel(), every in 1u64..9, slice in 1usize..40) {
        let straight = run_kernel(&src, launch(64)).map_err(|e| TestCaseError::fail(format!("{e}\n{src}")))?;
        let mut replay = Replay::start(&src, launch(64), every).map_err(|e| TestCaseError::fail(e.to_string()))?;
        while replay.run_for(slice) > 0 {
            // Backwards from the newest step, as the page's back button does.
            for i in (0..replay.len()).rev().take(slice + 2) {
                let at = replay.at(i).ok_or_else(|| TestCaseError::fail(format!("step {i}")))?;
                same_step(&at, &straight.steps[i as usize], &straight).map_err(|e| TestCaseError::fail(format!("step {i}: {e}\n{src}")))?;
                prop_assert_eq!(&at.memory.buffers, &straight.memory_after(i as usize).buffers);
            }
        }
        same_as_straight(&replay, &straight).map_err(|e| TestCaseError::fail(format!("{e}\n{src}")))?;
    }
}
