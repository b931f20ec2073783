//! Shapes of AMD's public HIP test programs found in a fifth round (hip-tests' cooperative
//! groups and device-library tests, written as Catch2 test cases that loop over
//! `std::vector<unsigned> sizes = {…}` and call a `static void test_…(unsigned n)` helper):
//! kernels and host code written here in those shapes, never copied. Expected values follow
//! the C++17 standard's range-for ([stmt.ranged]/1), for ([stmt.for]/1) and array bound
//! ([dcl.array]/3) rules; the sums are computed by the Python lines quoted beside each test.

use crate::support::{ints, no_errors, run_finished};
use crosslane_core::Dialect;
use crosslane_kernel::LaunchConfig;

fn hip(lanes: usize) -> LaunchConfig {
    LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(lanes),
        ..LaunchConfig::default()
    }
}

/// Each launch adds its argument into every thread's cell, so the final buffer is the sum
/// over all the launches host code makes.
const ADD: &str = "\
#include <hip/hip_runtime.h>
#include <vector>
__global__ void add(int* out, int n) { atomicAdd(&out[threadIdx.x], n); }
";

#[test]
fn range_for_over_a_braced_vector_launches_once_per_element() {
    // Python: sum([7, 2, 3]) == 12
    let src = format!(
        "{ADD}int main() {{
  int* d; hipMalloc(&d, 32 * sizeof(int)); hipMemset(d, 0, 32 * sizeof(int));
  std::vector<unsigned int> sizes = {{7, 2, 3}};
  for (auto s : sizes) {{
    hipLaunchKernelGGL(add, 1, 32, 0, 0, d, s);
  }}
}}"
    );
    let t = run_finished(&src, hip(64));
    no_errors(&t);
    assert_eq!(ints(&t, "out"), vec![Some(12); 32]);
}

#[test]
fn range_for_over_an_unsized_array_and_a_helper_with_its_own_loop() {
    // Python: [t * 100 + c for t in [2, 4] for c in [1, 2, 3]][0] == 201 (the first launch)
    let src = format!(
        "{ADD}static void run_sizes(unsigned t) {{
  std::vector<unsigned int> cgs = {{1, 2, 3}};
  for (auto c : cgs) {{
    int* d; hipMalloc(&d, 32 * sizeof(int)); hipMemset(d, 0, 32 * sizeof(int));
    hipLaunchKernelGGL(add, 1, 32, 0, 0, d, t * 100 + c);
  }}
}}
int main() {{
  int tiles[] = {{2, 4}};
  for (auto t : tiles) run_sizes(t);
}}"
    );
    let t = run_finished(&src, hip(64));
    no_errors(&t);
    // Each launch allocates its own buffer: the first launch's is the traced one.
    assert_eq!(ints(&t, "out"), vec![Some(201); 32]);
}

#[test]
fn a_loop_variable_hiding_the_outer_one_ends_with_its_loop() {
    // The inner `int s` ends with its loop ([stmt.for]/1): each launch gets the outer element.
    // Python: sum([5, 6]) == 11
    let src = format!(
        "{ADD}int main() {{
  int* d; hipMalloc(&d, 32 * sizeof(int)); hipMemset(d, 0, 32 * sizeof(int));
  int h[8];
  std::vector<int> sizes = {{5, 6}};
  for (auto s : sizes) {{
    for (int s = 0; s < 8; s++) {{ h[s] = 1; }}
    hipLaunchKernelGGL(add, 1, 32, 0, 0, d, s);
  }}
}}"
    );
    let t = run_finished(&src, hip(32));
    no_errors(&t);
    assert_eq!(ints(&t, "out"), vec![Some(11); 32]);
}

#[test]
fn a_loop_bounded_by_sizeof_of_an_unsized_array_calls_its_helper_per_element() {
    // `int sizes[] = {10, 40};` has bound 2 ([dcl.array]/3), so `sizeof(sizes) /
    // sizeof(sizes[0])` is 2 and the first call launches a block of 10 threads.
    let src = "\
#include <hip/hip_runtime.h>
__global__ void bs(int* out) { out[threadIdx.x] = (int)blockDim.x; }
void test_size(int blockSize) {
  int* d;
  hipMalloc(&d, 2 * blockSize * sizeof(int));
  hipLaunchKernelGGL(bs, 1, blockSize, 0, 0, d);
}
int main() {
  int sizes[] = {10, 40};
  for (unsigned long i = 0; i < (sizeof(sizes) / sizeof(sizes[0])); ++i) test_size(sizes[i]);
}";
    let t = run_finished(src, hip(64));
    no_errors(&t);
    // The first launch is traced: a block of 10 threads, its buffer of 20 cells.
    assert_eq!(t.launch.block_dim, [10, 1, 1]);
    let out = ints(&t, "out");
    assert_eq!(out.len(), 20);
    assert_eq!(out[..10], vec![Some(10); 10][..]);
}

/// hip-tests' split-barrier shape: a block writes, arrives, one thread fills shared memory
/// between the arrival and the wait, and every thread reads that memory after the wait.
/// Python: [2 * (i + 1) + (i + 1) for i in range(32)] == [3 * (i + 1) for i in range(32)]
#[test]
fn thread_block_split_barrier_waits_for_the_whole_block() {
    let src = "\
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <utility>
namespace cg = cooperative_groups;
__global__ void split(float* out, const float* in) {
  __shared__ float mid[32];
  unsigned t = threadIdx.x;
  cg::thread_block b = cg::this_thread_block();
  out[t] = in[t] * 2.0f;
  auto token = b.barrier_arrive();
  if (t == 0) { for (int j = 0; j < 32; ++j) mid[j] = in[j]; }
  b.barrier_wait(std::move(token));
  out[t] += mid[t];
}
int main() {
  float h[32];
  for (int i = 0; i < 32; ++i) h[i] = i + 1;
  float *d_in, *d_out;
  hipMalloc(&d_in, 32 * sizeof(float));
  hipMalloc(&d_out, 32 * sizeof(float));
  hipMemcpy(d_in, h, 32 * sizeof(float), hipMemcpyHostToDevice);
  split<<<1, 32>>>(d_out, d_in);
}";
    let t = run_finished(src, hip(64));
    no_errors(&t);
    let want: Vec<Option<i128>> = (0..32).map(|i| Some(3 * (i + 1))).collect();
    let got: Vec<Option<i128>> = crate::support::floats(&t, "out")
        .into_iter()
        .map(|v| v.map(|f| f as i128))
        .collect();
    assert_eq!(got, want);
}

/// rocm-examples' double-buffered tile shape: `cg::memcpy_async` of the next tile into the
/// other shared buffer, completed by the block's barrier (HIP has no `cg::wait`).
/// Python: [2 * i + 1 for i in range(4 * 64)]
#[test]
fn hip_group_copy_is_complete_after_the_blocks_barrier() {
    let src = "\
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <hip/cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
constexpr unsigned T = 64;
__global__ void tiles(const float* in, float* out) {
  cg::thread_block b = cg::this_thread_block();
  __shared__ float buf[2][T];
  unsigned r = b.thread_rank();
  cg::memcpy_async(b, buf[0], in, T * sizeof(float));
  b.sync();
  for (unsigned t = 0; t < 4; ++t) {
    if (t + 1 < 4) cg::memcpy_async(b, buf[(t + 1) & 1u], in + (t + 1) * T, T * sizeof(float));
    auto tok = b.barrier_arrive();
    out[t * T + r] = 2.0f * buf[t & 1u][r] + 1.0f;
    b.barrier_wait(std::move(tok));
  }
}
int main() {
  float h[4 * T];
  for (unsigned i = 0; i < 4 * T; ++i) h[i] = (float)i;
  float *d_in, *d_out;
  hipMalloc(&d_in, sizeof(h));
  hipMalloc(&d_out, sizeof(h));
  hipMemcpy(d_in, h, sizeof(h), hipMemcpyHostToDevice);
  tiles<<<1, T>>>(d_in, d_out);
}";
    for lanes in [64, 32] {
        let t = run_finished(src, hip(lanes));
        no_errors(&t);
        let got = crate::support::floats(&t, "out");
        let want: Vec<Option<f64>> = (0..4 * 64)
            .map(|i| Some(2.0 * f64::from(i) + 1.0))
            .collect();
        assert_eq!(got, want, "{lanes} lanes");
    }
}

/// HIP's first launch interface (old hip-tests `deviceLib` programs): the kernel's first
/// parameter is `hipLaunchParm lp`, launched with `hipLaunchKernel(k, grid, block, shmem,
/// stream, args…)`; the pre-ROCm-4 headers pass the launch parameter first.
/// Python (wave64, 128 threads): [int(any(t != 70 for t in range(w * 64, w * 64 + 64)))
///   for w in range(2)] == [1, 1]; all: [int(all(t != 70 for t in range(w * 64, w * 64 + 64)))
///   for w in range(2)] == [1, 0]
#[test]
fn hip_launch_parm_kernels_launch_through_hip_launch_kernel() {
    let src = "\
#include <hip/hip_runtime.h>
__global__ void vote(hipLaunchParm lp, int* any_out, int* all_out, int shift) {
  int tid = hipThreadIdx_x + hipBlockIdx_x * hipBlockDim_x;
  if ((hipThreadIdx_x & 63) == 0) {
    any_out[hipThreadIdx_x >> shift] = 0;
  }
  int a = __any(tid - 70);
  int b = __all(tid - 70);
  if ((hipThreadIdx_x & 63) == 0) {
    any_out[hipThreadIdx_x >> shift] = a;
    all_out[hipThreadIdx_x >> shift] = b;
  }
}
int main() {
  int *d_any, *d_all;
  hipMalloc((void**)&d_any, 2 * sizeof(int));
  hipMalloc((void**)&d_all, 2 * sizeof(int));
  hipLaunchKernel(vote, dim3(1), dim3(128), 0, 0, d_any, d_all, 6);
  return 0;
}";
    let t = run_finished(src, hip(64));
    no_errors(&t);
    assert_eq!(ints(&t, "any_out"), vec![Some(1), Some(1)]);
    assert_eq!(ints(&t, "all_out"), vec![Some(1), Some(0)]);
}

/// A host function evaluated for a launch argument: its loop's `int i` hides the function's
/// own `i` only within the loop ([stmt.for]/1), and a block's declaration likewise
/// ([basic.scope.block]/1). Python: i = 3; s = sum(range(4)); j = 7; i * 100 + s + j == 313
#[test]
fn a_host_helpers_loop_variable_does_not_leak_into_its_return_value() {
    let src = "\
#include <hip/hip_runtime.h>
__global__ void k(int* out, int n) { out[threadIdx.x] = n; }
int pick() {
  int i = 3;
  int s = 0;
  int j = 7;
  for (int i = 0; i < 4; i++) { s += i; }
  { int j = 100; s += 0 * j; }
  return i * 100 + s + j;
}
int main() {
  int* d;
  hipMalloc(&d, 32 * sizeof(int));
  hipLaunchKernelGGL(k, 1, 32, 0, 0, d, pick());
}";
    let t = run_finished(src, hip(32));
    no_errors(&t);
    assert_eq!(ints(&t, "out"), vec![Some(313); 32]);
}
