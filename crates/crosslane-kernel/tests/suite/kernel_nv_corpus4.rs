//! Shapes of NVIDIA-family code (round four of the corpus) that were refused: the inline-PTX
//! warp scan step with the shuffle's validity predicate (`shfl.sync.up.b32 r0|p, …; @p add`,
//! as CUB's and hand-written warp scans write it), register ranges `.reg .s32 r<4>;`, the
//! pre-sm_70 `shfl.up.b32` without `.sync`, a special register written with one `%`
//! (`mov.u32 %0, %laneid;`, which nvcc reads), and a `const cg::grid_group &` parameter.
//! Kernels are written here; expected values come from the Python beside each test.

use crate::support::{floats, has, ints, launch_grid, run_finished};
use crosslane_core::result::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig};

fn run(src: &str) -> KernelTrace {
    run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_ptx_scan_step_adds_only_where_the_shuffle_predicate_is_set() {
    // Five steps of `shfl.sync.up.b32 r0|p, x, d, 0, 0xffffffff; @p add.u32 r0, r0, x;` give
    // each warp an inclusive scan (PTX ISA, shfl.sync: `.up` is valid when lane - d >= 0
    // with c = 0). Two warps of v = i + 1. Python:
    //   [sum(range(32 * (i // 32) + 1, i + 2)) for i in range(64)]
    let src = "\
__device__ unsigned step(unsigned x, unsigned d) {
  unsigned r;
  asm(\"{.reg .u32 r0;\"
      \".reg .pred p;\"
      \"shfl.sync.up.b32 r0|p, %1, %2, 0, 0xffffffff;\"
      \"@p add.u32 r0, r0, %3;\"
      \"mov.u32 %0, r0;}\"
      : \"=r\"(r) : \"r\"(x), \"r\"(d), \"r\"(x));
  return r;
}
__global__ void k(unsigned *o) {
  unsigned v = threadIdx.x + 1;
  for (int d = 1; d < 32; d <<= 1) v = step(v, d);
  o[threadIdx.x] = v;
}
";
    let t = run_finished(src, launch_grid(64, 1, &[("o", 64, "zero")]));
    let want: Vec<Option<i128>> = (0..64i128)
        .map(|i| Some((32 * (i / 32) + 1..=i + 1).sum()))
        .collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn each_shfl_mode_reads_its_source_lane_and_sets_the_predicate_by_the_ptx_rule() {
    // Width 8 segments: c = ((32 - 8) << 8) | clamp, clamp 0 for `.up` and 0x1f for the
    // others (PTX ISA, shfl.sync). Value 100 + lane; the predicate stored with selp. Python
    // model of the ISA's pseudo-code (first 16 lanes):
    //   up 2:   [100,101,100,101,102,103,104,105,108,109,108,109,110,111,112,113]
    //           p [0,0,1,1,1,1,1,1,0,0,1,1,1,1,1,1]
    //   down 3: [103,104,105,106,107,105,106,107,111,112,113,114,115,113,114,115]
    //           p [1,1,1,1,1,0,0,0,1,1,1,1,1,0,0,0]
    //   bfly 5: [105,104,107,106,101,100,103,102,113,112,115,114,109,108,111,110] p all 1
    //   idx 3:  [103]*8 + [111]*8, p all 1
    let src = "\
__device__ void sh(int mode, int v, int *o, int *q) {
  int r, p;
  if (mode == 0)
    asm(\"{ .reg .pred p; shfl.sync.up.b32 %0|p, %2, 2, 0x1800, 0xffffffff; selp.s32 %1, 1, 0, p; }\"
        : \"=r\"(r), \"=r\"(p) : \"r\"(v));
  else if (mode == 1)
    asm(\"{ .reg .pred p; shfl.sync.down.b32 %0|p, %2, 3, 0x181f, 0xffffffff; selp.s32 %1, 1, 0, p; }\"
        : \"=r\"(r), \"=r\"(p) : \"r\"(v));
  else if (mode == 2)
    asm(\"{ .reg .pred p; shfl.sync.bfly.b32 %0|p, %2, 5, 0x181f, 0xffffffff; selp.s32 %1, 1, 0, p; }\"
        : \"=r\"(r), \"=r\"(p) : \"r\"(v));
  else
    asm(\"{ .reg .pred p; shfl.sync.idx.b32 %0|p, %2, 3, 0x181f, 0xffffffff; selp.s32 %1, 1, 0, p; }\"
        : \"=r\"(r), \"=r\"(p) : \"r\"(v));
  *o = r;
  *q = p;
}
__global__ void k(int *o, int *q) {
  for (int m = 0; m < 4; m++) sh(m, 100 + threadIdx.x, &o[m * 32 + threadIdx.x], &q[m * 32 + threadIdx.x]);
}
";
    let t = run_finished(
        src,
        launch_grid(32, 1, &[("o", 128, "zero"), ("q", 128, "zero")]),
    );
    let o = ints(&t, "o");
    let q = ints(&t, "q");
    let first16 = |v: &[Option<i128>], m: usize| -> Vec<i128> {
        v[m * 32..m * 32 + 16].iter().map(|c| c.unwrap()).collect()
    };
    assert_eq!(
        first16(&o, 0),
        vec![100, 101, 100, 101, 102, 103, 104, 105, 108, 109, 108, 109, 110, 111, 112, 113]
    );
    assert_eq!(
        first16(&q, 0),
        vec![0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1]
    );
    assert_eq!(
        first16(&o, 1),
        vec![103, 104, 105, 106, 107, 105, 106, 107, 111, 112, 113, 114, 115, 113, 114, 115]
    );
    assert_eq!(
        first16(&q, 1),
        vec![1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0]
    );
    assert_eq!(
        first16(&o, 2),
        vec![105, 104, 107, 106, 101, 100, 103, 102, 113, 112, 115, 114, 109, 108, 111, 110]
    );
    assert_eq!(first16(&q, 2), vec![1; 16]);
    let mut idx = vec![103; 8];
    idx.extend(vec![111; 8]);
    assert_eq!(first16(&o, 3), idx);
}

#[test]
fn a_float_register_scan_step_moves_the_bits_and_a_zero_member_mask_is_undefined() {
    // `.reg .f32 r0; shfl.sync.up.b32 r0|p, %1, %2, 0, M; @p add.f32 r0, r0, %1;` with the
    // float operand `"f"(x)`. With M = 0xffffffff the five steps scan 0.5 * lane: Python
    //   [0.5 * sum(range(i + 1)) for i in range(32)]
    // With M = 0 no lane is in the member mask: undefined (PTX ISA, shfl.sync: the calling
    // thread must be in membermask).
    let src = "\
template <unsigned M>
__device__ float add(float x, int d) {
  float r = 0;
  asm volatile(\"{.reg .f32 r0;\"
      \".reg .pred p;\"
      \"shfl.sync.up.b32 r0|p, %1, %2, 0, %3;\"
      \"@p add.f32 r0, r0, %1;\"
      \"mov.f32 %0, r0;}\"
      : \"=f\"(r) : \"f\"(x), \"r\"(d), \"n\"(M));
  return r;
}
__global__ void k(float *o, float *z) {
  float v = 0.5f * threadIdx.x, w = v;
  for (int d = 1; d < 32; d <<= 1) { v = add<0xffffffffu>(v, d); w = add<0u>(w, d); }
  o[threadIdx.x] = v;
  z[threadIdx.x] = w;
}
";
    let t = run_finished(
        src,
        launch_grid(32, 1, &[("o", 32, "zero"), ("z", 32, "zero")]),
    );
    let want: Vec<Option<f64>> = (0..32)
        .map(|i| Some(0.5 * f64::from((0..=i).sum::<i32>())))
        .collect();
    assert_eq!(floats(&t, "o"), want);
    assert!(floats(&t, "z").iter().all(Option::is_none));
    assert!(has(&t, Level::Warning, "not in mask"));
}

#[test]
fn register_ranges_declare_numbered_registers() {
    // `.reg .s32 r<3>; .reg .pred p<3>;` are r0..r2 and p0..p2 (PTX ISA, "Parameterized
    // Variable Names"): three chained scan steps over 8-lane segments (c = 0x1800).
    // v = 1 each lane: Python [min(i % 8, 7) + 1 for i in range(32)] == [1..8] * 4.
    let src = "\
__global__ void k(int *o) {
  int v = 1, r;
  asm(\"{.reg .s32 r<3>; .reg .pred p<3>;\"
      \"shfl.sync.up.b32 r0|p0, %1, 1, 0x1800, -1; @p0 add.s32 r0, r0, %1;\"
      \"shfl.sync.up.b32 r1|p1, r0, 2, 0x1800, -1; @p1 add.s32 r1, r1, r0;\"
      \"shfl.sync.up.b32 r2|p2, r1, 4, 0x1800, -1; @p2 add.s32 r2, r2, r1;\"
      \"mov.s32 %0, r2;}\" : \"=r\"(r) : \"r\"(v));
  o[threadIdx.x] = r;
}
";
    let t = run_finished(src, launch_grid(32, 1, &[("o", 32, "zero")]));
    let want: Vec<Option<i128>> = (0..32).map(|i| Some(i % 8 + 1)).collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn a_shfl_without_sync_runs_over_the_executing_lanes_with_the_pre_cuda_9_warning() {
    // The one-line `shfl.up.b32 %0, %1, %2, %3;` (pre-sm_70 PTX): lane i gets lane i - 1's
    // value, lane 0 its own (c = 0). Python: [0] + list(range(31)).
    let src = "\
__global__ void k(int *o) {
  int v = threadIdx.x, r;
  asm(\"shfl.up.b32 %0, %1, %2, %3;\" : \"=r\"(r) : \"r\"(v), \"r\"(1), \"r\"(0));
  o[threadIdx.x] = r;
}
";
    let t = run_finished(src, launch_grid(32, 1, &[("o", 32, "zero")]));
    let mut want = vec![Some(0)];
    want.extend((0..31).map(Some));
    assert_eq!(ints(&t, "o"), want);
    assert!(has(&t, Level::Warning, "pre-CUDA-9"));
}

#[test]
fn a_special_register_written_with_one_percent_is_read_in_cuda() {
    // nvcc reads `mov.u32 %0, %lanemask_lt;` (a `%` before a letter is no operand there):
    // lane i gets (1 << i) - 1. Python: [(1 << i) - 1 for i in range(32)].
    let src = "\
__global__ void k(unsigned *o) {
  unsigned m;
  asm(\"mov.u32 %0, %lanemask_lt;\" : \"=r\"(m));
  o[threadIdx.x] = m;
}
";
    let t = run_finished(src, launch_grid(32, 1, &[("o", 32, "zero")]));
    let want: Vec<Option<i128>> = (0..32).map(|i| Some((1i128 << i) - 1)).collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn a_grid_group_reference_parameter_is_the_launch_grid() {
    // `void f(..., const cg::grid_group &grid)` strides by `grid.size()` from
    // `grid.thread_rank()`, as the conjugate-gradient sample's helpers do; a cooperative launch
    // of 2 blocks of 32 covers 100 cells: Python [2 * i for i in range(100)].
    let src = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void twice(const float *x, float *y, int n, const cg::grid_group &grid) {
  for (int i = grid.thread_rank(); i < n; i += grid.size()) y[i] = 2.0f * x[i];
}
__global__ void k(const float *x, float *y, int n) {
  cg::grid_group grid = cg::this_grid();
  twice(x, y, n, grid);
  grid.sync();
}
int main() {
  float *x, *y;
  int n = 100;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < 100; i++) x[i] = i;
  void *args[] = {&x, &y, &n};
  cudaLaunchCooperativeKernel((void *)k, dim3(2), dim3(32), args, 0, 0);
  cudaDeviceSynchronize();
  return 0;
}
";
    let t = run(src);
    let want: Vec<Option<f64>> = (0..100).map(|i| Some(2.0 * f64::from(i))).collect();
    assert_eq!(floats(&t, "y"), want);
}

#[test]
fn cg_memcpy_async_with_element_counts_copies_the_smaller_count() {
    // `cg::memcpy_async(tb, smem, 64, src + index, total - index)` (the Programming Guide's
    // streaming loop): min(64, remaining) ints per round; each thread sums its cell of each
    // round. 160 ints i in chunks of 64, 64, 32: thread t gets t + (64 + t) + (128 + t) for
    // t < 32 and t + (64 + t) for t >= 32 (the last round's cells past 32 keep the second
    // round's values, which the loop does not read: it stops adding past copy_count).
    // Python: [t + 64 + t + (128 + t if t < 32 else 0) for t in range(64)]
    let src = "\
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void k(const int *g, int *out) {
  cg::thread_block tb = cg::this_thread_block();
  const size_t total = 160;
  const size_t inShared = 64;
  __shared__ int smem[inShared];
  size_t index = 0;
  int acc = 0;
  while (index < total) {
    cg::memcpy_async(tb, smem, inShared, g + index, total - index);
    size_t n = min(inShared, total - index);
    cg::wait(tb);
    if (tb.thread_rank() < n) acc += smem[tb.thread_rank()];
    tb.sync();
    index += n;
  }
  out[tb.thread_rank()] = acc;
}
";
    let t = run_finished(
        src,
        launch_grid(64, 1, &[("g", 160, "index"), ("out", 64, "zero")]),
    );
    let want: Vec<Option<i128>> = (0..64i128)
        .map(|t| Some(t + 64 + t + if t < 32 { 128 + t } else { 0 }))
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn cuda_memcpy_async_of_a_group_with_a_barrier_is_the_groups_copy() {
    // The Programming Guide's `with_barrier`: `cuda::memcpy_async(block, shared, in + base,
    // sizeof(int) * block.size(), barrier); barrier.arrive_and_wait();` then each thread reads
    // its cell. 2 blocks of 32, in[i] = i: out[i] = 3 * i. Python: [3 * i for i in range(64)]
    let src = "\
#include <cooperative_groups.h>
#include <cuda/barrier>
__global__ void k(int *out, const int *in) {
  auto block = cooperative_groups::this_thread_block();
  __shared__ int shared[32];
  __shared__ cuda::barrier<cuda::thread_scope_block> barrier;
  if (block.thread_rank() == 0) init(&barrier, block.size());
  block.sync();
  int base = blockIdx.x * block.size();
  cuda::memcpy_async(block, shared, in + base, sizeof(int) * block.size(), barrier);
  barrier.arrive_and_wait();
  out[base + block.thread_rank()] = 3 * shared[block.thread_rank()];
}
";
    let t = run_finished(
        src,
        launch_grid(32, 2, &[("out", 64, "zero"), ("in", 64, "index")]),
    );
    let want: Vec<Option<i128>> = (0..64).map(|i| Some(3 * i)).collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn a_thread_block_cluster_is_refused_by_name() {
    // `cg::cluster_group cluster = cg::this_cluster();` (the Guide's distributed shared memory
    // histogram): not modelled, and the refusal says so (was "expected `;`").
    let src = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *o) {
  cg::cluster_group cluster = cg::this_cluster();
  o[threadIdx.x] = cluster.block_rank();
}
";
    let e = crate::support::refused(src, launch_grid(32, 2, &[("o", 32, "zero")]));
    assert!(e.contains("thread block clusters"), "{e}");
}

#[test]
fn a_host_fill_loop_of_more_than_65536_cells_is_read() {
    // `h_A = new float[N]; for (i < N) h_A[i] = 1.0f;` with N = 256 * 640 (the OLCF training
    // exercise's reduction input): read, so the sum is N. Python: 256 * 640 == 163840.
    let src = "\
const size_t N = 256*640;
__global__ void k(const float *g, float *out) {
  float v = 0.0f;
  for (size_t i = threadIdx.x; i < N; i += blockDim.x) v += g[i];
  atomicAdd(out, v);
}
int main() {
  float *h_A, *d_A, *d_sum;
  h_A = new float[N];
  for (int i = 0; i < N; i++) h_A[i] = 1.0f;
  cudaMalloc(&d_A, N * sizeof(float));
  cudaMalloc(&d_sum, sizeof(float));
  cudaMemcpy(d_A, h_A, N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_sum, 0, sizeof(float));
  k<<<1, 1024>>>(d_A, d_sum);
  return 0;
}
";
    let t = run(src);
    assert_eq!(floats(&t, "out"), vec![Some(163_840.0)]);
}

#[test]
fn a_two_stage_pipeline_waits_for_its_oldest_stage_only() {
    // `cuda::pipeline` of the Guide's staging example: two stages committed, then
    // `consumer_wait()` completes the older one. Stage 0 (in[0..32]) is readable: a[t] =
    // in[t] = t; stage 1 (in[32..64]) is still pending, so reading it is undefined (the copy
    // completes only at its wait); after a second `consumer_wait()` it reads in[32 + t].
    // Python: a = list(range(32)); b = [None] * 32; c = [32 + t for t in range(32)]
    let src = "\
#include <cooperative_groups.h>
#include <cuda/pipeline>
__global__ void k(const int *in, int *a, int *b, int *c) {
  auto block = cooperative_groups::this_thread_block();
  __shared__ int buf[64];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope::thread_scope_block, 2> state;
  auto pipe = cuda::make_pipeline(block, &state);
  for (int s = 0; s < 2; s++) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, buf + 32 * s, in + 32 * s, sizeof(int) * 32, pipe);
    pipe.producer_commit();
  }
  pipe.consumer_wait();
  int t = block.thread_rank();
  a[t] = buf[t];
  b[t] = buf[32 + t];
  pipe.consumer_release();
  pipe.consumer_wait();
  c[t] = buf[32 + t];
  pipe.consumer_release();
}
";
    let t = run_finished(
        src,
        launch_grid(
            32,
            1,
            &[
                ("in", 64, "index"),
                ("a", 32, "zero"),
                ("b", 32, "zero"),
                ("c", 32, "zero"),
            ],
        ),
    );
    let a: Vec<Option<i128>> = (0..32).map(Some).collect();
    assert_eq!(ints(&t, "a"), a);
    assert!(ints(&t, "b").iter().all(Option::is_none));
    let c: Vec<Option<i128>> = (32..64).map(Some).collect();
    assert_eq!(ints(&t, "c"), c);
}

#[test]
fn host_calls_past_the_budget_are_named_in_a_warning() {
    // A timing loop calling a host helper 100 times (the CUDA-Programming book's `timing()`):
    // the host reading reads 64 calls of its own functions; the warning says the rest are not
    // read, naming the call (was only "a pointer the host reading does not follow").
    let src = "\
__global__ void k(const float *x, float *y) { y[threadIdx.x] = x[threadIdx.x]; }
float run(const float *d_x) {
  float *d_y;
  cudaMalloc(&d_y, 32 * sizeof(float));
  k<<<1, 32>>>(d_x, d_y);
  cudaFree(d_y);
  return 0.0f;
}
int main() {
  float *d_x;
  cudaMalloc(&d_x, 32 * sizeof(float));
  cudaMemset(d_x, 0, 32 * sizeof(float));
  for (int r = 0; r < 100; ++r) run(d_x);
  return 0;
}
";
    let t = run(src);
    assert!(
        has(&t, Level::Warning, "more than 64 times (here `run(…)`)"),
        "{:?}",
        crate::support::said(&t, Level::Warning)
    );
}

#[test]
fn a_single_host_store_into_managed_memory_before_any_launch_is_read() {
    // `cudaMallocManaged(&dot, sizeof(double)); *dot = 0.0;` (the conjugate-gradient sample)
    // and `s[1] = 5;` of a 4-int allocation: the launch reads those cells; the cells no store
    // wrote stay undefined. 32 threads add 1.5 to dot[0] and 1 to s[1]. Python:
    //   dot = [32 * 1.5] == [48.0]; s = [None, 5 + 32, None, None]
    let src = "\
__global__ void k(double *dot, int *s) { atomicAdd(dot, 1.5); atomicAdd(&s[1], 1); }
int main() {
  double *dot;
  int *s;
  cudaMallocManaged(reinterpret_cast<void **>(&dot), sizeof(double));
  cudaMallocManaged(&s, 4 * sizeof(int));
  *dot = 0.0;
  s[1] = 5;
  k<<<1, 32>>>(dot, s);
  cudaDeviceSynchronize();
  return 0;
}
";
    let t = run(src);
    assert_eq!(floats(&t, "dot"), vec![Some(48.0)]);
    assert_eq!(ints(&t, "s"), vec![None, Some(37), None, None]);
}
