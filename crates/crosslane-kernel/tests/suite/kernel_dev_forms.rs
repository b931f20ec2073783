//! Device-code forms public CUDA, HIP and Ascend C kernels use that the vendors' compilers take:
//! the block votes `__syncthreads_count` / `_and` / `_or`, cooperative-groups shuffles of vector
//! types, `memcpy` into a local struct, `return {};`, and the Ascend C SIMT spellings
//! (`using namespace AscendC::Simt;`, `block_idx`, `LAUNCH_BOUND`). Every expected value is
//! derived by hand beside its test.

use crate::cells::cell_ints as ints;
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run_with(src: &str, config: LaunchConfig) -> KernelTrace {
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

fn launch(dialect: Dialect, lanes: Option<usize>, threads: usize) -> LaunchConfig {
    LaunchConfig {
        dialect: Some(dialect),
        lanes,
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    }
}

/// No warning or error among the run's merged diagnostics.
fn quiet(t: &KernelTrace) {
    let loud: Vec<_> = t
        .merged_diagnostics
        .iter()
        .filter(|d| matches!(d.level, Level::Warning | Level::Error))
        .map(|d| d.message.clone())
        .collect();
    assert!(loud.is_empty(), "{loud:?}");
}

const VOTES: &str = r#"__global__ void votes(int *n, int *f) {
  int t = threadIdx.x;
  if (t >= 150) return;
  int c = __syncthreads_count(t % 7 == 0);
  int o1 = 0;
  if (__syncthreads_or(t == 133)) o1 = 1;
  int o2 = __syncthreads_or(t == 155);
  int a1 = __syncthreads_and(t < 150);
  int a2 = __syncthreads_and(t < 149);
  n[t] = c;
  f[t] = o1 * 1000 + o2 * 100 + a1 * 10 + a2;
}
"#;

/// CUDA C++ Programming Guide, Synchronization Functions: the votes count the block's
/// non-exited threads. 160 threads (5 warps), threads 150..159 exit first. Multiples of 7 in
/// 0..=149: 0, 7, …, 147 = 22. `t == 133` holds in one live thread (or: 1); `t == 155` in an
/// exited one only (or: 0); `t < 150` in every live thread (and: 1); `t < 149` fails in 149
/// (and: 0). So n[t] = 22 and f[t] = 1000 + 0 + 10 + 0 = 1010 for t < 150.
#[test]
fn syncthreads_votes_count_live_threads_of_several_warps() {
    let t = run_with(VOTES, launch(Dialect::Cuda, None, 160));
    let n = ints(t.buffer("n").unwrap());
    let f = ints(t.buffer("f").unwrap());
    assert_eq!(&n[..150], &vec![Some(22); 150][..]);
    assert_eq!(&f[..150], &vec![Some(1010); 150][..]);
    quiet(&t);
}

/// HIP defines the same votes (HIP Programming Guide, Synchronization functions): on wave64
/// with 160 threads (3 wavefronts, the last partial) the values are the CUDA test's.
#[test]
fn syncthreads_votes_on_hip_wave64() {
    let t = run_with(VOTES, launch(Dialect::Hip, Some(64), 160));
    let n = ints(t.buffer("n").unwrap());
    let f = ints(t.buffer("f").unwrap());
    assert_eq!(&n[..150], &vec![Some(22); 150][..]);
    assert_eq!(&f[..150], &vec![Some(1010); 150][..]);
    quiet(&t);
}

/// Repeated votes in a loop each see their own round's predicate: round r counts the threads
/// with `t < 10 * r + 5` of 96, min(10r + 5, 96): r = 0..4 → 5, 15, 25, 35, summed 80.
#[test]
fn syncthreads_count_in_a_loop_resets_per_call() {
    let src = r#"__global__ void k(int *out) {
  int t = threadIdx.x, s = 0;
  for (int r = 0; r < 4; r++) s += __syncthreads_count(t < 10 * r + 5);
  out[t] = s;
}
"#;
    let t = run_with(src, launch(Dialect::Cuda, None, 96));
    assert_eq!(
        ints(t.buffer("out").unwrap()),
        vec![Some(5 + 15 + 25 + 35); 96]
    );
    quiet(&t);
}

/// Outside CUDA and HIP the votes name nothing: Ascend C has no `__syncthreads_count`.
#[test]
fn syncthreads_count_is_not_an_ascend_function() {
    let src = "__global__ void k(int *out) { out[threadIdx.x] = __syncthreads_count(1); }\n";
    let r = run_kernel(src, launch(Dialect::Ascend, None, 32));
    let failed = match r {
        Err(_) => true,
        Ok(t) => t.outcome != Some(Outcome::Finished),
    };
    assert!(failed);
}
