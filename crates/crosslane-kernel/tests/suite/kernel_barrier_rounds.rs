//! A barrier round that changes nothing repeats forever (the machine is deterministic), so it
//! ends the run at once, naming the barrier's line, the threads waiting there and the threads
//! that exited; barrier loops that make progress run to their end.
//!
//! A barrier waits only for the threads that have not exited (CUDA C++ Programming Guide,
//! Compute Capability 7.x, Independent Thread Scheduling: it "will not succeed until reached by
//! all non-exited threads in the block"), so in these kernels the barrier does open each round:
//! the run never ends because nothing changes between rounds.

use crate::support::block as launch;
use crosslane_kernel::{run_kernel, KVal, LaunchConfig, Outcome};

fn error_of(src: &str, threads: usize) -> crosslane_kernel::KernelError {
    let t = run_kernel(src, launch(threads)).unwrap();
    match t.outcome {
        Some(Outcome::Error(e)) => e,
        other => panic!("expected an error, got {other:?}"),
    }
}

/// Thread 0 returns; threads 1..63 (two warps of 32) loop on a barrier forever.
#[test]
fn a_barrier_loop_after_a_thread_returned_is_a_deadlock_naming_the_threads() {
    let e = error_of(
        "__global__ void k(int* out) {\n  if (threadIdx.x == 0) return;\n  while (1) {\n    __syncthreads();\n  }\n}",
        64,
    );
    assert_eq!(e.line, 4, "{e}");
    assert!(e.message.starts_with("deadlock: block 0"), "{e}");
    assert!(e.message.contains("the barrier at line 4"), "{e}");
    assert!(e.message.contains("thread(s) 1-63 wait there"), "{e}");
    assert!(e.message.contains("thread(s) 0 exited"), "{e}");
}

/// Threads 0..15 take the branch holding the barrier loop; warp 1 (threads 32..63) exits.
/// Lanes 16..31 of warp 0 skip the barrier: undefined, so the run ends there; kept going, the
/// barrier loop is the deadlock it is.
#[test]
fn a_barrier_in_a_branch_the_exited_threads_skipped_is_a_deadlock() {
    let src = "__global__ void k(int* out) {\n  if (threadIdx.x < 16) {\n    for (;;) { __syncthreads(); }\n  }\n}";
    let e = error_of(src, 64);
    assert_eq!((e.line, e.col), (3, 16), "{e}");
    assert!(
        e.message.starts_with(
            "`__syncthreads` in divergent code: lane(s) 16-31 of warp 0 do not reach it"
        ),
        "{e}"
    );
    let mut config = launch(64);
    config.keep_going = true;
    let e = match run_kernel(src, config).unwrap().outcome {
        Some(Outcome::Error(e)) => e,
        other => panic!("expected the deadlock, got {other:?}"),
    };
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("thread(s) 0-15 wait there"), "{e}");
    assert!(e.message.contains("thread(s) 32-63 exited"), "{e}");
    // Threads 16..31 share warp 0 with the looping threads: run in lock-step, they wait
    // where the `if` of line 2 ends.
    assert!(
        e.message
            .contains("thread(s) 16-31 wait where the construct of line 2 ends"),
        "{e}"
    );
}

/// No thread exited: the message says so rather than naming none.
#[test]
fn a_barrier_loop_of_every_thread_is_reported_too() {
    let e = error_of(
        "__global__ void k(int* out) {\n  while (true) __syncthreads();\n}",
        32,
    );
    assert_eq!(e.line, 2, "{e}");
    assert!(
        e.message.contains("no thread of the block is missing"),
        "{e}"
    );
}

/// Barrier loops that change a variable or memory each round are not stopped: threads 0..39
/// add 0 + 1 + 2 to their cell, then count 100 rounds in a variable only and add the count
/// (cell i grows by 3 + 100 = 103); threads 40..63 returned and leave their cells as they were.
#[test]
fn barrier_loops_that_make_progress_run_to_their_end() {
    let src = "__global__ void k(int* out) {\n  if (threadIdx.x >= 40) return;\n  for (int i = 0; i < 3; i++) {\n    out[threadIdx.x] += i;\n    __syncthreads();\n  }\n  int n = 0;\n  while (n < 100) { __syncthreads(); n++; }\n  out[threadIdx.x] += n;\n}";
    let t = run_kernel(src, launch(64)).unwrap();
    assert!(
        matches!(t.outcome, Some(Outcome::Finished)),
        "{:?}",
        t.outcome
    );
    let (before, after) = (&t.initial_memory.buffers[0], &t.memory.buffers[0]);
    assert_eq!(after.cells.len(), 64);
    for i in 0..64 {
        let (Some(KVal::Int { bits: b, .. }), Some(KVal::Int { bits: a, .. })) =
            (&before.cells[i], &after.cells[i])
        else {
            panic!("cell {i}: {:?} -> {:?}", before.cells[i], after.cells[i])
        };
        let want = if i < 40 { b + 103 } else { *b };
        assert_eq!(*a, want, "cell {i}");
    }
}

/// The warnings of a run, as `(line, message)`.
fn warnings(src: &str, config: LaunchConfig) -> Vec<(u32, String)> {
    let t = run_kernel(src, config).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished));
    t.merged_diagnostics
        .iter()
        .filter(|d| d.level == crosslane_core::Level::Warning)
        .map(|d| (d.line, d.message.clone()))
        .collect()
}

/// A barrier under a condition every thread of the block evaluates the same way is not
/// divergent ("allowed in conditional code but only if the conditional evaluates identically
/// across the entire thread block": CUDA C++ Programming Guide, Synchronization Functions):
/// `if (n_warps > 1)` with n_warps = 2 on 64 threads, and `if constexpr`, give no warning, and
/// the exchange through shared memory is the barrier's: out[t] = 63 - t.
#[test]
fn a_barrier_under_a_uniform_condition_is_not_divergent() {
    let src = "\
__global__ void k(int* out, int n_warps) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  if (n_warps > 1) {
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
  }
  if constexpr (sizeof(int) == 4) {
    __syncthreads();
  }
}";
    let mut config = launch(64);
    config.args.insert("n_warps".into(), "2".into());
    assert_eq!(warnings(src, config.clone()), vec![]);
    let t = run_kernel(src, config).unwrap();
    let out = crate::cells::cell_ints(&t.memory.buffers[0].cells);
    assert_eq!(out, (0..64).rev().map(Some).collect::<Vec<_>>());
}

/// A condition that differs among the block's threads is reported: within a warp (lanes of
/// one warp skip the barrier: the warp-level warning at the barrier's line 10) and between
/// warps (warp 0 waits at line 3, warp 1 at line 6: the block-level warning naming both).
/// Undefined, and likely a hang on the device (an NVIDIA H200 hung on such a kernel): the run
/// ends at the first with outcome `error`; `--keep-going` turns both into warnings and runs on.
#[test]
fn a_barrier_under_a_condition_that_differs_is_reported() {
    let src = "\
__global__ void k(int* out) {
  if (threadIdx.x < 32) {
    __syncthreads();
    out[threadIdx.x] = 1;
  } else {
    __syncthreads();
    out[threadIdx.x] = 2;
  }
  if (threadIdx.x % 2 == 0) {
    __syncthreads();
  }
}";
    let e = error_of(src, 64);
    assert_eq!(e.line, 3, "{e:?}");
    assert!(
        e.message
            .contains("the warps wait at different barriers (warp 0 at line 3, warp 1 at line 6)"),
        "{e:?}"
    );
    let mut config = launch(64);
    config.keep_going = true;
    let w = warnings(src, config);
    assert!(
        w.iter().any(|(l, m)| *l == 3
            && m.contains(
                "the warps wait at different barriers (warp 0 at line 3, warp 1 at line 6)"
            )),
        "{w:?}"
    );
    assert!(
        w.iter()
            .any(|(l, m)| *l == 10
                && m.contains("`__syncthreads` in divergent code: lane(s) 1, 3, 5")),
        "{w:?}"
    );
    assert_eq!(w.len(), 2, "{w:?}");
}

/// A barrier that some lanes of a warp skip ends the run at that barrier, naming the lanes
/// that do not reach it (threads 40-63 of 64: lanes 8-31 of warp 1).
#[test]
fn a_barrier_some_lanes_skip_ends_the_run() {
    let src = "\
__global__ void k(int* out) {
  if (threadIdx.x < 40) {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}";
    let e = error_of(src, 64);
    assert_eq!((e.line, e.col), (3, 5), "{e:?}");
    assert!(
        e.message.starts_with(
            "`__syncthreads` in divergent code: lane(s) 8-31 of warp 1 do not reach it"
        ),
        "{e:?}"
    );
}
