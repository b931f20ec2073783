//! `grid.sync()` of a cooperative launch over several blocks (CUDA C++ Programming Guide,
//! Cooperative Groups, "Grid Synchronization"): every block reaches the grid barrier before any
//! passes it, a block that ends first deadlocks the others, and a grid larger than the model
//! device holds at once is refused (`cudaErrorCooperativeLaunchTooLarge`). Kernels written
//! here in the shapes of the CUDA samples' multi-block reductions; expected values from the
//! Python models in the comments.

use crate::cells::cell_ints;
use crate::support::floats;
use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, LaunchConfig, Outcome, Resource};

/// Each block reduces its part in shared memory, thread 0 stores the block's partial, the
/// grid synchronizes, and block 0 reduces the partials (the reductionMultiBlockCG shape), the
/// grid sized from the occupancy query as the samples do.
const REDUCE: &str = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ void treeSum(float *s, const cg::thread_block &b) {
  for (unsigned stride = b.size() / 2; stride > 0; stride >>= 1) {
    if (b.thread_rank() < stride) s[b.thread_rank()] += s[b.thread_rank() + stride];
    b.sync();
  }
}

__global__ void sumAll(const float *in, float *partial, float *total, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  __shared__ float s[64];
  float acc = 0.0f;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) acc += in[i];
  s[block.thread_rank()] = acc;
  block.sync();
  treeSum(s, block);
  if (block.thread_rank() == 0) partial[blockIdx.x] = s[0];
  grid.sync();
  if (blockIdx.x == 0) {
    float v = 0.0f;
    for (int i = block.thread_rank(); i < gridDim.x; i += blockDim.x) v += partial[i];
    s[block.thread_rank()] = v;
    block.sync();
    treeSum(s, block);
    if (block.thread_rank() == 0) *total = s[0];
  }
}

int main() {
  const int n = 1000;
  float *h = (float*)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = (float)(i % 7);
  int threads = 64, perSm = 0, sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, sumAll, threads, 0);
  int blocks = perSm * sms;
  float *d_in, *d_partial, *d_total;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_partial, blocks * sizeof(float));
  cudaMalloc(&d_total, sizeof(float));
  cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  int nn = n;
  void *args[] = {&d_in, &d_partial, &d_total, &nn};
  cudaLaunchCooperativeKernel((void*)sumAll, blocks, threads, args, 0, 0);
  return 0;
}";

#[test]
fn grid_sync_block_partials_then_block_zero_reduces_them() {
    // The model device holds min(2048 / 64, 32) = 32 blocks of 64 threads: 2048 threads, so
    // thread r reads in[r] alone. Python: x = [i % 7 for i in range(1000)];
    // [sum(x[64*b:64*b+64]) for b in range(32)] =
    // [189, 190, 191, 192, 193, 194, 195, 189, 190, 191, 192, 193, 194, 195, 189, 120, 0 ×16],
    // total 2997 (every value an integer: exact in float whatever the order).
    let t = run_kernel(REDUCE, LaunchConfig::default()).unwrap();
    assert!(
        matches!(t.outcome, Some(Outcome::Finished)),
        "{:?}",
        t.outcome
    );
    let mut want = vec![
        189.0, 190.0, 191.0, 192.0, 193.0, 194.0, 195.0, 189.0, 190.0, 191.0, 192.0, 193.0, 194.0,
        195.0, 189.0, 120.0,
    ];
    want.resize(32, 0.0);
    let want: Vec<Option<f64>> = want.into_iter().map(Some).collect();
    assert_eq!(floats(&t, "partial"), want);
    assert_eq!(floats(&t, "total"), [Some(2997.0)]);
    // No hazard between blocks: the grid barrier orders the partials before block 0 reads.
    assert!(
        !t.all_diagnostics().any(|d| d.message.contains("racecheck")),
        "{:?}",
        t.all_diagnostics().collect::<Vec<_>>()
    );
}

/// Each block's squared sum goes into one global accumulator with `atomicAdd`, the grid
/// synchronizes, and every thread scales its element by the norm (the simpleAWBarrier shape:
/// a vector normalized by its dot product with itself), for CUDA and HIP.
const NORMALIZE: &str = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void normalize(float *v, float *dot, int n) {
  cg::thread_block b = cg::this_thread_block();
  cg::grid_group g = cg::this_grid();
  __shared__ float s[32];
  int i = g.thread_rank();
  s[b.thread_rank()] = i < n ? v[i] * v[i] : 0.0f;
  b.sync();
  if (b.thread_rank() == 0) {
    float p = 0.0f;
    for (int k = 0; k < b.size(); k++) p += s[k];
    atomicAdd(dot, p);
  }
  g.sync();
  if (i < n) v[i] = v[i] / sqrtf(*dot);
}";

fn normalize(dialect: Dialect) -> crosslane_kernel::KernelTrace {
    let mut c = LaunchConfig {
        block_dim: Some([32, 1, 1]),
        grid_dim: Some([8, 1, 1]),
        dialect: Some(dialect),
        ..LaunchConfig::default()
    };
    c.buffer_len.insert("v".into(), 256);
    c.args.insert("v".into(), "2".into());
    c.buffer_len.insert("dot".into(), 1);
    c.args.insert("dot".into(), "zero".into());
    c.args.insert("n".into(), "256".into());
    run_kernel(NORMALIZE, c).unwrap()
}

#[test]
fn grid_sync_orders_an_atomic_accumulator_before_every_block_reads_it() {
    // 256 elements of 2: dot = 256 · 4 = 1024, sqrt 32, each element 2 / 32 = 0.0625; had any
    // block read `dot` before every block added, it would see less than 1024.
    for d in [Dialect::Cuda, Dialect::Hip] {
        let t = normalize(d);
        assert!(
            matches!(t.outcome, Some(Outcome::Finished)),
            "{:?}",
            t.outcome
        );
        assert_eq!(floats(&t, "dot"), [Some(1024.0)], "{d:?}");
        assert_eq!(floats(&t, "v"), vec![Some(0.0625); 256], "{d:?}");
    }
}

/// Three rounds of a stencil over the blocks, two grid barriers a round: every read of a
/// round comes after every write of the round before.
const ROUNDS: &str = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void rounds(int *x, int rounds) {
  cg::grid_group g = cg::this_grid();
  int b = blockIdx.x;
  for (int r = 0; r < rounds; r++) {
    int v = x[b] + x[(b + 1) % gridDim.x];
    g.sync();
    if (threadIdx.x == 0) x[b] = v;
    g.sync();
  }
}";

fn rounds(max_work: Option<u64>, max_memory: Option<u64>) -> crosslane_kernel::KernelTrace {
    let mut c = LaunchConfig {
        block_dim: Some([64, 1, 1]),
        grid_dim: Some([4, 1, 1]),
        ..LaunchConfig::default()
    };
    c.buffer_len.insert("x".into(), 4);
    c.args.insert("x".into(), "1,2,3,4".into());
    c.args.insert("rounds".into(), "3".into());
    if let Some(w) = max_work {
        c.limits.max_work = w;
    }
    if let Some(m) = max_memory {
        c.limits.max_memory = m;
    }
    run_kernel(ROUNDS, c).unwrap()
}

#[test]
fn grid_sync_in_a_loop_runs_each_round_after_the_last() {
    // Python: b = [1, 2, 3, 4]; three times b = [b[i] + b[(i + 1) % 4] for i in range(4)]
    // gives [20, 24, 20, 16].
    let t = rounds(None, None);
    assert!(
        matches!(t.outcome, Some(Outcome::Finished)),
        "{:?}",
        t.outcome
    );
    assert_eq!(
        cell_ints(t.buffer("x").unwrap()),
        [Some(20), Some(24), Some(20), Some(16)]
    );
}

#[test]
fn grid_sync_keeps_the_work_and_memory_budgets() {
    // A work budget spent between grid barriers stops the run there.
    let t = rounds(Some(200), None);
    assert!(
        matches!(&t.outcome, Some(Outcome::Limit(h)) if h.resource == Resource::Work),
        "{:?}",
        t.outcome
    );
    // The parked blocks' lane variables stay counted: a budget that holds one block's but
    // not four's stops the run at a block's start, never finishing with less counted.
    let one = rounds(None, None);
    assert!(matches!(one.outcome, Some(Outcome::Finished)));
    let mut hit = false;
    for m in (20_000..400_000).step_by(20_000) {
        let t = rounds(None, Some(m));
        match &t.outcome {
            Some(Outcome::Finished) => break,
            Some(Outcome::Limit(h)) => {
                assert_eq!(h.resource, Resource::Memory, "{h:?}");
                hit = true;
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(hit);
}

const DEADLOCK: &str = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x == 1) return;
  if (threadIdx.x == 0) out[blockIdx.x] = 1;
  grid.sync();
  if (threadIdx.x == 0) out[blockIdx.x] += 10;
}";

#[test]
fn a_block_that_ends_before_grid_sync_is_a_deadlock() {
    let mut c = LaunchConfig {
        block_dim: Some([32, 1, 1]),
        grid_dim: Some([3, 1, 1]),
        ..LaunchConfig::default()
    };
    c.buffer_len.insert("out".into(), 3);
    c.args.insert("out".into(), "zero".into());
    let t = run_kernel(DEADLOCK, c).unwrap();
    let Some(Outcome::Error(e)) = &t.outcome else {
        panic!("{:?}", t.outcome)
    };
    assert_eq!(e.line, 7, "{e}");
    assert!(e.message.contains("deadlock"), "{}", e.message);
    assert!(e.message.contains("block(s) 1 ended"), "{}", e.message);
    assert!(e.message.contains("block(s) 0, 2 wait"), "{}", e.message);
    // Nothing past the barrier ran.
    assert_eq!(
        cell_ints(t.buffer("out").unwrap()),
        [Some(1), Some(0), Some(1)]
    );
}

#[test]
fn a_grid_larger_than_the_device_holds_is_refused_at_grid_sync() {
    // 256 threads a block: the model device holds 2048 / 256 = 8 blocks; 9 fail as
    // cudaLaunchCooperativeKernel does (cudaErrorCooperativeLaunchTooLarge).
    let mut c = LaunchConfig {
        block_dim: Some([256, 1, 1]),
        grid_dim: Some([9, 1, 1]),
        ..LaunchConfig::default()
    };
    c.buffer_len.insert("out".into(), 9);
    c.args.insert("out".into(), "zero".into());
    let e = run_kernel(DEADLOCK, c.clone()).unwrap_err();
    assert_eq!((e.line, e.col), (7, 3), "{e}");
    assert!(e.message.contains("TooLarge"), "{}", e.message);
    assert!(e.message.contains("holds 8 at once"), "{}", e.message);
    c.grid_dim = Some([8, 1, 1]);
    assert!(run_kernel(DEADLOCK, c).is_ok());
}
