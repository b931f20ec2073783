//! A barrier round that changes nothing repeats forever (the machine is deterministic), so it
//! ends the run at once, naming the barrier's line, the threads waiting there and the threads
//! that exited; barrier loops that make progress run to their end.
//!
//! A barrier waits only for the threads that have not exited (CUDA C++ Programming Guide,
//! Compute Capability 7.x, Independent Thread Scheduling: it "will not succeed until reached by
//! all non-exited threads in the block"), so in these kernels the barrier does open each round:
//! the run never ends because nothing changes between rounds.

use crosslane_kernel::{run_kernel, KVal, LaunchConfig, Outcome};

fn launch(threads: usize) -> LaunchConfig {
    LaunchConfig {
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    }
}

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
#[test]
fn a_barrier_in_a_branch_the_exited_threads_skipped_is_a_deadlock() {
    let e = error_of(
        "__global__ void k(int* out) {\n  if (threadIdx.x < 16) {\n    for (;;) { __syncthreads(); }\n  }\n}",
        64,
    );
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
