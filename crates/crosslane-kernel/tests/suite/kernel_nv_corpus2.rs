//! Shapes of NVIDIA-family sample programs (round two of the corpus) that were refused or left
//! cells unread: a host fill loop that also sums the cells it has just written (`h[i] = …;
//! total += h[i];`, as CUB's examples and the Kepler-reduction blog write their check), CUB's
//! `WarpScan::InclusiveScan` with an initial value, an alias of a CUB class's storage (`using
//! TS = typename R::TempStorage;`, also bound to dynamic shared memory by `reinterpret_cast`),
//! CUB's segmented warp reductions, and one kernel of a file whose body is
//! refused while the file's other kernels run. Kernels are written here; expected values come
//! from the Python beside each test.

use crate::support::ints;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run(src: &str) -> KernelTrace {
    run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_fill_loop_that_reads_back_the_cell_it_wrote_fills_the_array() {
    // The helper writes h[i] = (i * 3) % 7 and sums the cells it wrote (its return value is not
    // needed). The kernel adds its warp's values with __shfl_xor_sync (C++ Programming Guide,
    // "Warp Shuffle Functions"), so each lane holds the sum of its 32 cells. Python:
    //   h = [(i * 3) % 7 for i in range(32)]; sum(h) == 95
    let src = "\
__global__ void total(const int *in, int *out) {
  int v = in[threadIdx.x];
  for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);
  out[threadIdx.x] = v;
}
int init(int *h, int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = (i * 3) % 7;
    sum += h[i];
  }
  return sum;
}
int main() {
  const int n = 32;
  int *h = new int[n];
  int expect = init(h, n);
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);
  total<<<1, n>>>(d_in, d_out);
  return expect == 95 ? 0 : 1;
}
";
    let t = run(src);
    let h: Vec<Option<i128>> = (0..32).map(|i| Some((i * 3) % 7)).collect();
    assert_eq!(ints(&t, "in"), h);
    assert_eq!(ints(&t, "out"), vec![Some(95); 32]);
}

#[test]
fn warp_scan_inclusive_scan_with_an_initial_value_seeds_every_output() {
    // CUB API, cub::WarpScan::InclusiveScan "with initial value": lane l gets
    // op(init, x0, …, xl); the warp aggregate leaves the initial value out. Two warps, x = lane
    // % 5 + warp, max seeded with 2 and sum seeded with 10. Python:
    //   import itertools
    //   x = lambda w: [l % 5 + w for l in range(32)]
    //   mx = lambda w: list(itertools.accumulate([2] + x(w), max))[1:]
    //   sm = lambda w: list(itertools.accumulate([10] + x(w)))[1:]
    //   agg = lambda w: sum(x(w))          # 61 and 93
    let src = "\
#include <cub/cub.cuh>
__global__ void k(int *mx, int *sm, int *agg) {
  typedef cub::WarpScan<int> WarpScan;
  __shared__ typename WarpScan::TempStorage temp[2];
  int w = threadIdx.x / 32;
  int x = threadIdx.x % 32 % 5 + w;
  int a, b, total;
  int seed = 2;
  WarpScan(temp[w]).InclusiveScan(x, a, seed, cub::Max());
  WarpScan(temp[w]).InclusiveScan(x, b, 10, cub::Sum(), total);
  mx[threadIdx.x] = a;
  sm[threadIdx.x] = b;
  if (threadIdx.x % 32 == 0) agg[w] = total;
}
int main() {
  int *mx, *sm, *agg;
  cudaMalloc(&mx, 64 * sizeof(int));
  cudaMalloc(&sm, 64 * sizeof(int));
  cudaMalloc(&agg, 2 * sizeof(int));
  k<<<1, 64>>>(mx, sm, agg);
  return 0;
}
";
    let t = run(src);
    let x = |w: i128| (0..32).map(move |l| l % 5 + w);
    let scan = |w: i128, seed: i128, f: fn(i128, i128) -> i128| {
        x(w).scan(seed, move |s, v| {
            *s = f(*s, v);
            Some(Some(*s))
        })
    };
    let mx: Vec<_> = scan(0, 2, i128::max).chain(scan(1, 2, i128::max)).collect();
    let sm: Vec<_> = scan(0, 10, |a, b| a + b)
        .chain(scan(1, 10, |a, b| a + b))
        .collect();
    assert_eq!(ints(&t, "mx"), mx);
    assert_eq!(ints(&t, "sm"), sm);
    assert_eq!(ints(&t, "agg"), vec![Some(61), Some(93)]);
}

/// Two kernels: `double_it` runs; `leader` holds `cg::invoke_one`, which is refused (the thread
/// it picks is not specified).
const TWO_KERNELS: &str = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void double_it(int *out) { out[threadIdx.x] = 2 * threadIdx.x; }
__global__ void leader(int *out) {
  auto g = cg::coalesced_threads();
  cg::invoke_one(g, [&]() { out[0] = 7; });
}
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  double_it<<<1, 32>>>(d);
  leader<<<1, 32>>>(d);
  return 0;
}
";

#[test]
fn a_refused_kernel_leaves_the_files_other_kernels_running() {
    // The entry's launch alone: 2 * lane in each cell.
    let config = LaunchConfig {
        entry: Some("double_it".into()),
        single_launch: true,
        ..LaunchConfig::default()
    };
    let t = run_kernel(TWO_KERNELS, config).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let want: Vec<_> = (0..32).map(|i| Some(2 * i)).collect();
    assert_eq!(ints(&t, "out"), want);
    // The refused kernel is named on this run too.
    assert!(
        t.all_diagnostics()
            .any(|d| d.message.contains("kernel `leader` does not run here")),
        "{:?}",
        t.merged_diagnostics
    );
    // The refused kernel as the entry: its own refusal, at its line.
    let config = LaunchConfig {
        entry: Some("leader".into()),
        single_launch: true,
        ..LaunchConfig::default()
    };
    let e = run_kernel(TWO_KERNELS, config).expect_err("refused");
    assert_eq!(e.line, 6, "{e}");
    assert!(e.message.contains("invoke_one"), "{e}");
    // All of host code's launches: the later one cannot run; the entry's launch runs, and
    // the run's outcome is the later launch's refusal.
    let t = run_kernel(TWO_KERNELS, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    let Some(Outcome::Error(e)) = &t.outcome else {
        panic!("expected the refusal as the outcome, got {:?}", t.outcome);
    };
    assert!(
        e.message.contains("invoke_one") && e.message.contains("launches at line 12"),
        "{e}"
    );
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn an_alias_of_a_cub_storage_declares_it() {
    // `using TS = typename BR::TempStorage;` and `typedef typename BR::TempStorage TS2;` name
    // the BlockReduce's storage (C++17 [dcl.typedef]/2); the block sum of 0..127 is
    // 127 * 128 / 2 = 8128, the warp 1's sum of 32..63 is 1520.
    let src = "\
#include <cub/cub.cuh>
__global__ void k(int *out) {
  using BR = cub::BlockReduce<int, 128>;
  using TS = typename BR::TempStorage;
  typedef cub::WarpReduce<int> WR;
  typedef typename WR::TempStorage TS2;
  __shared__ TS ts;
  __shared__ TS2 ws[4];
  int s = BR(ts).Sum((int)threadIdx.x);
  int w = WR(ws[threadIdx.x / 32]).Sum((int)threadIdx.x);
  if (threadIdx.x == 0) out[0] = s;
  if (threadIdx.x == 32) out[1] = w;
}
int main() { int *d; cudaMalloc(&d, 2 * sizeof(int)); k<<<1, 128>>>(d); return 0; }
";
    let t = run(src);
    assert_eq!(ints(&t, "out"), vec![Some(8128), Some(1520)]);
}

#[test]
fn warp_reduce_segmented_reductions_return_each_segment_to_its_first_lane() {
    // CUB API, cub::WarpReduce::HeadSegmentedSum / TailSegmentedSum / HeadSegmentedReduce:
    // "the sum of each segment is returned to the first lane in that segment (which always
    // includes lane0)"; the other lanes' outputs are undefined. x = (lane * 7) % 11. Head flags
    // at lanes 5 and 20 (lane 0 starts a segment without one), tail flags at 4 and 19 (the same
    // segments), head flags at 3, 10, 11 and 31 for a max. Python:
    //   x = [(l * 7) % 11 for l in range(32)]
    //   sum(x[0:5]), sum(x[5:20]), sum(x[20:32])                      # 26 72 63
    //   max(x[0:3]), max(x[3:10]), max(x[10:11]), max(x[11:31]), x[31]  # 7 10 4 10 8
    let src = "\
#include <cub/cub.cuh>
__global__ void k(int *head, int *tail, int *mx) {
  typedef cub::WarpReduce<int> WarpReduce;
  __shared__ typename WarpReduce::TempStorage temp;
  int l = threadIdx.x;
  int x = (l * 7) % 11;
  head[l] = WarpReduce(temp).HeadSegmentedSum(x, l == 5 || l == 20);
  tail[l] = WarpReduce(temp).TailSegmentedSum(x, l == 4 || l == 19);
  mx[l] = WarpReduce(temp).HeadSegmentedReduce(x, l == 3 || l == 10 || l == 11 || l == 31, cub::Max());
}
int main() {
  int *h, *t, *m;
  cudaMalloc(&h, 32 * sizeof(int));
  cudaMalloc(&t, 32 * sizeof(int));
  cudaMalloc(&m, 32 * sizeof(int));
  k<<<1, 32>>>(h, t, m);
  return 0;
}
";
    let t = run(src);
    let at = |pairs: &[(usize, i128)]| {
        let mut v = vec![None; 32];
        for &(l, s) in pairs {
            v[l] = Some(s);
        }
        v
    };
    let sums = at(&[(0, 26), (5, 72), (20, 63)]);
    assert_eq!(ints(&t, "head"), sums);
    assert_eq!(ints(&t, "tail"), sums);
    assert_eq!(
        ints(&t, "mx"),
        at(&[(0, 7), (3, 10), (10, 4), (11, 10), (31, 8)])
    );
}

#[test]
fn a_cub_storage_bound_to_dynamic_shared_memory_runs_the_collective() {
    // CUB's dynamic-shared-memory form: the storage is `reinterpret_cast<TS&>(smem)` of an
    // `extern __shared__` byte array aligned for a layout union; after a barrier the kernel
    // reuses the bytes for its own int. Input 3 * i + 1 over 64 threads: the block sum is
    // 3 * (63 * 64 / 2) + 64 = 6112, written by every thread.
    let src = "\
#include <cub/cub.cuh>
template <int THREADS>
__global__ void k(const int *in, int *out) {
  using BR = cub::BlockReduce<int, THREADS>;
  using TS = typename BR::TempStorage;
  union Layout { TS reduce; int value; };
  extern __shared__ __align__(alignof(Layout)) char smem[];
  auto& ts = reinterpret_cast<TS&>(smem);
  int s = BR(ts).Sum(in[threadIdx.x]);
  __syncthreads();
  int *shared_int = reinterpret_cast<int*>(smem);
  if (threadIdx.x == 0) shared_int[0] = s;
  __syncthreads();
  out[threadIdx.x] = shared_int[0];
}
int main() {
  int h[64];
  for (int i = 0; i < 64; i++) h[i] = 3 * i + 1;
  int *d_in, *d_out;
  cudaMalloc(&d_in, sizeof(h));
  cudaMalloc(&d_out, sizeof(h));
  cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
  k<64><<<1, 64, sizeof(typename cub::BlockReduce<int, 64>::TempStorage)>>>(d_in, d_out);
  return 0;
}
";
    let t = run(src);
    assert_eq!(ints(&t, "out"), vec![Some(6112); 64]);
}
