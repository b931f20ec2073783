//! Shapes of the vendor samples' code that crosslane refused or left undefined, each in a
//! kernel written here: a host array from `calloc` (C11 7.22.3.2/2: all bits zero), a
//! `__shared__` written after the type (`extern float __shared__ s[];`, C++17 [dcl.spec]/1:
//! decl-specifiers in any order), and `return {};` in a lambda with a trailing return type
//! (C++17 [stmt.return]/2: copy-list-initialization of the return type). Expected values are
//! worked out by hand in the comments.

use crate::support::{floats, has, ints, launch_grid, refused, run_default, run_finished};
use crosslane_core::Level;
use crosslane_kernel::LaunchConfig;

#[test]
fn a_calloc_host_array_is_zeros_in_every_form() {
    // Each of the three host arrays is all zeros (calloc); the kernel adds 1 + 2t + the three
    // cells, so b[t] = 1 + 2t: 1 3 5 7 … and the flags of the bool array (all false) are 0.
    let src = "#include <cstdlib>
__global__ void k(const float *a, int *b, const double *c, const bool *f, int *g) {
  int t = threadIdx.x;
  b[t] += (int)a[t] + (int)c[t] + 1 + 2 * t;
  g[t] = f[t] ? 7 : 0;
}
int main() {
  const int n = 8;
  float *ha = (float *)calloc(n, sizeof(float));
  int *hb;
  hb = static_cast<int *>(calloc(n * 2, sizeof(int) / 2));
  double *hc = (double *)std::calloc(n, sizeof(double));
  bool *hf = NULL;
  hf = reinterpret_cast<bool *>(calloc(n, sizeof(bool)));
  float *da; int *db; double *dc; bool *df; int *dg;
  cudaMalloc(&da, n * sizeof(float)); cudaMalloc(&db, n * sizeof(int));
  cudaMalloc(&dc, n * sizeof(double)); cudaMalloc(&df, n * sizeof(bool));
  cudaMalloc(&dg, n * sizeof(int));
  cudaMemcpy(da, ha, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, hc, n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(df, hf, n * sizeof(bool), cudaMemcpyHostToDevice);
  k<<<1, n>>>(da, db, dc, df, dg);
  return 0;
}
";
    let t = run_default(src);
    assert!(!has(&t, Level::Warning, ""), "{:?}", t.merged_diagnostics);
    let want: Vec<Option<i128>> = (0..8).map(|i| Some(1 + 2 * i)).collect();
    assert_eq!(ints(&t, "b"), want);
    assert_eq!(ints(&t, "g"), vec![Some(0); 8]);
}

#[test]
fn a_calloc_of_no_whole_element_count_is_left_to_the_other_readers() {
    // 10 bytes are no whole number of 4-byte ints: the cells are not made up (undefined,
    // with the host reading's warning).
    let src = "#include <cstdlib>
__global__ void k(const int *a, int *b) { b[threadIdx.x] = a[threadIdx.x]; }
int main() {
  int *h = (int *)calloc(5, 2);
  int *da, *db;
  cudaMalloc(&da, 2 * sizeof(int)); cudaMalloc(&db, 2 * sizeof(int));
  cudaMemcpy(da, h, 2 * sizeof(int), cudaMemcpyHostToDevice);
  k<<<1, 2>>>(da, db);
}
";
    let t = run_default(src);
    assert_eq!(ints(&t, "b"), vec![None, None]);
}

#[test]
fn shared_written_after_the_type_is_the_same_shared_array() {
    // A block sum through `extern double __shared__ s[]` and a second dynamic array written
    // `extern float __shared__ t[]` (the same buffer, [dcl.spec]/1 order): 64 threads of
    // value t + 1 sum to 64 * 65 / 2 = 2080 per block; block 1 adds 64 more per thread:
    // (65 + 128) * 64 / 2 = 6176.
    let src = "__global__ void sum(const float *in, float *out) {
  extern double __shared__ s[];
  unsigned int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = (float)s[0];
}
__global__ void copy(float *out) {
  extern float __shared__ t[];
  t[threadIdx.x] = (float)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = t[(threadIdx.x + 1) % blockDim.x];
}
";
    let mut c = launch_grid(64, 2, &[("in", 128, "i+1"), ("out", 2, "0")]);
    // One cell of the dynamic array per thread (the default).
    c.shared_len = Some(64);
    let t = run_finished(src, c);
    assert_eq!(floats(&t, "out"), vec![Some(2080.0), Some(6176.0)]);
    // The second kernel: out[t] = (t + 1) % 4 over 4 threads: 1 2 3 0.
    let mut c = launch_grid(4, 1, &[("out", 4, "0")]);
    c.entry = Some("copy".into());
    let t = run_finished(src, c);
    assert_eq!(
        floats(&t, "out"),
        vec![Some(1.0), Some(2.0), Some(3.0), Some(0.0)]
    );
}

#[test]
fn return_braces_in_a_lambda_with_a_return_type() {
    // `-> const uint4` / `-> int`: `return {};` is the zero value; `return {a, b, c, d}` the
    // vector. Lane t: pick(t % 5): t%5 < 4 gives component t%5 of {t, 10t, 100t, 1000t},
    // else the zero vector's x = 0; plus f(t) = t for t > 0, 0 for t = 0.
    // t = 0..5: 0+0, 10+1, 200+2, 3000+3, 0+4, 5+5 = 0 11 202 3003 4 10.
    let src = "__global__ void k(int *out) {
  unsigned int t = threadIdx.x;
  auto pick = [&](unsigned int i) -> const uint4 {
    uint4 v = {t, 10 * t, 100 * t, 1000 * t};
    switch (i) {
      case 0: return make_uint4(v.x, 0, 0, 0);
      case 1: return {v.y, 0, 0, 0};
      case 2: return {v.z, 0, 0, 0};
      case 3: return {v.w, 0, 0, 0};
    }
    return {};
  };
  auto f = [](int x) -> int { if (x > 0) return x; return {}; };
  out[t] = (int)pick(t % 5).x + f((int)t);
}
";
    let t = run_finished(src, crate::support::block(6));
    let want: Vec<Option<i128>> = [0, 11, 202, 3003, 4, 10].iter().map(|&v| Some(v)).collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn return_braces_in_a_lambda_without_a_return_type_is_refused_clearly() {
    // [dcl.spec.auto]: a braced list deduces no type; the message says what to write.
    let src = "__global__ void k(int *out) {
  auto f = [](int x) { if (x > 0) return x; return {}; };
  out[threadIdx.x] = f(threadIdx.x);
}
";
    let m = refused(src, LaunchConfig::default());
    assert!(m.contains("-> float"), "{m}");
    assert!(m.contains("lambda"), "{m}");
}

#[test]
fn grid_sync_in_one_block_and_in_a_cooperative_grid() {
    // A grid-stride partial sum per thread, the block's sum by thread 0 after grid.sync(), then
    // every thread scales its cells by it. One block of 32 threads over 64 cells of value 1:
    // the sum is 64, every cell becomes 1 / 64 = 0.015625.
    let src = "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void norm(float *v, float *partial, int n) {
  cg::grid_group grid = cg::this_grid();
  float s = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) s += v[i];
  partial[grid.thread_rank()] = s;
  grid.sync();
  if (grid.thread_rank() == 0) {
    float t = 0;
    for (int i = 0; i < grid.size(); i++) t += partial[i];
    partial[0] = t;
  }
  cg::sync(grid);
  float total = partial[0];
  for (int i = grid.thread_rank(); i < n; i += grid.size()) v[i] = v[i] / total;
}
";
    let mut c = launch_grid(32, 1, &[("v", 64, "1"), ("partial", 32, "0")]);
    c.args.insert("n".into(), "64".into());
    let t = run_finished(src, c);
    assert_eq!(floats(&t, "v"), vec![Some(0.015625); 64]);
    // Two blocks (a cooperative launch, machine/grid_sync.rs): 64 threads, one cell each, so
    // the sum is still 64.
    let mut c = launch_grid(32, 2, &[("v", 64, "1"), ("partial", 64, "0")]);
    c.args.insert("n".into(), "64".into());
    let t = run_finished(src, c);
    assert_eq!(floats(&t, "v"), vec![Some(0.015625); 64]);
    // 33 blocks of 32 threads: more than the model device holds at once (min(2048 / 32, 32)
    // = 32), refused before the run, naming the block count and the limit.
    let mut c = launch_grid(32, 33, &[("v", 64, "1"), ("partial", 1056, "0")]);
    c.args.insert("n".into(), "64".into());
    let m = refused(src, c);
    assert!(m.contains("this launch has 33 blocks"), "{m}");
    assert!(m.contains("holds 32 at once"), "{m}");
}

#[test]
fn occupancy_blocks_per_multiprocessor_size_the_grid_from_the_model_device() {
    // The model device: 2048 resident threads, at most 32 blocks, one multiprocessor. Blocks
    // of 256 threads: min(2048 / 256, 32) = 8 blocks, so the grid is 8 × 1 = 8 blocks; each
    // block's thread 0 writes its index: 0..7.
    let src = "__global__ void k(int *o) { if (threadIdx.x == 0) o[blockIdx.x] = blockIdx.x; }
int main() {
  int *d; cudaMalloc(&d, 8 * sizeof(int));
  int numBlocksPerSm = 0, sms = 0, dev = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&numBlocksPerSm, k, 256, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  k<<<numBlocksPerSm * sms, 256>>>(d);
}
";
    let t = run_default(src);
    assert_eq!(t.launch.grid_dim, [8, 1, 1]);
    let want: Vec<Option<i128>> = (0..8).map(Some).collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn a_chained_cell_assignment_fills_both_arrays() {
    // `a[i] = b[i] = base;` with base 2.0: both arrays hold 2; c = a + 10 b = 22.
    let src = "__global__ void k(const float *a, const float *b, float *c) {
  c[threadIdx.x] = a[threadIdx.x] + 10 * b[threadIdx.x];
}
int main() {
  float *ha, *da, *hb, *db, *dc;
  int size = 4;
  cudaMallocHost(&ha, sizeof(float) * size);
  cudaMallocHost(&hb, sizeof(float) * size);
  cudaMalloc(&da, sizeof(float) * size); cudaMalloc(&db, sizeof(float) * size);
  cudaMalloc(&dc, sizeof(float) * size);
  float base = 2.0;
  for (int i = 0; i < size; i++) {
    ha[i] = hb[i] = base;
  }
  cudaMemcpy(da, ha, sizeof(float) * size, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, sizeof(float) * size, cudaMemcpyHostToDevice);
  k<<<1, size>>>(da, db, dc);
}
";
    let t = run_default(src);
    assert_eq!(floats(&t, "c"), vec![Some(22.0); 4]);
}

#[test]
fn a_split_barrier_arrive_then_wait_orders_the_block() {
    // Each warp's lane 0 writes its warp's sum of lane ids (0 + … + 31 = 496) plus 1000 × warp
    // into shared memory, arrives, waits (the token moved into `wait`), then thread 0 adds the
    // four: 4 × 496 + 1000 × (0 + 1 + 2 + 3) = 1984 + 6000 = 7984.
    let src = "#include <cuda/barrier>
#include <utility>
__device__ int arrive_token(cuda::barrier<cuda::thread_scope_block> &bar) {
  auto t = bar.arrive();
  return t;
}
__global__ void k(int *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int sums[4];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  int v = threadIdx.x % 32;
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x % 32 == 0) sums[threadIdx.x / 32] = v + 1000 * (threadIdx.x / 32);
  auto token = bar.arrive();
  bar.wait(std::move(token));
  if (threadIdx.x == 0) out[0] = sums[0] + sums[1] + sums[2] + sums[3];
}
";
    let mut c = launch_grid(128, 1, &[("out", 1, "0")]);
    c.entry = Some("k".into());
    let t = run_finished(src, c);
    assert_eq!(ints(&t, "out"), vec![Some(7984)]);
}

#[test]
fn block_reduce_sum_of_items_per_thread() {
    // CUB BlockReduce::Sum(T (&items)[N]): each thread folds its 4 items, then the block's
    // sum: 64 threads × 4 items of 3i + 1 over i < 256 is 3 × 255 × 256 / 2 + 256 = 98176.
    let src = "#include <cub/cub.cuh>
__global__ void k(const int *in, int *out) {
  using R = cub::BlockReduce<int, 64>;
  __shared__ typename R::TempStorage tmp;
  int items[4];
  for (int i = 0; i < 4; i++) items[i] = in[threadIdx.x * 4 + i];
  int s = R(tmp).Sum(items);
  if (threadIdx.x == 0) out[0] = s;
}
";
    let t = run_finished(
        src,
        launch_grid(64, 1, &[("in", 256, "i*3+1"), ("out", 1, "0")]),
    );
    assert_eq!(ints(&t, "out"), vec![Some(98176)]);
}
