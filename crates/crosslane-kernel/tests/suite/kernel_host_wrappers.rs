//! Whole programs whose launches stand in host wrappers, as CUDA samples and framework code
//! write them: a host function template whose `T` the call deduces, a reduction wrapper's
//! `switch (threads)` over kernel instances, a launch through a function pointer variable, a
//! host helper's parameters reaching the launch, a `std::vector` filled by `push_back` and
//! sized by `size()`, a helper returning the device's warp size, and a fill helper template.
//! Each expected value is worked out by hand from the program's own arithmetic, beside it.

use crate::support::{floats, has, ints, run_default, run_finished};
use crosslane_core::op::Dialect;
use crosslane_core::Level;
use crosslane_kernel::LaunchConfig;

/// `run(d, n)` of `template <typename T> void run(T* d, int n)`: `T` is deduced from `d`'s
/// declared `float*` (C++17 [temp.deduct.call]/4), the launch names `scale<T>`.
const DEDUCED_WRAPPER: &str = "\
template <typename T>
__global__ void scale(T* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = d[i] * 3 + (T)i;
}
template <typename T>
void run(T* d, int n) {
  scale<T><<<1, 32>>>(d, n);
}
int main() {
  const int n = 6;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = 2.0f;
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  run(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  return 0;
}
";

#[test]
fn a_host_template_wrapper_deduces_t_from_its_argument() {
    // d[i] = 2 * 3 + i = 6, 7, 8, 9, 10, 11.
    let t = run_default(DEDUCED_WRAPPER);
    assert_eq!(
        floats(&t, "d"),
        [6.0, 7.0, 8.0, 9.0, 10.0, 11.0].map(Some).to_vec()
    );
    // `scale<<<…>>>(d, n)` inside the wrapper: the kernel's `T` deduced from `d` as well.
    let t = run_default(&DEDUCED_WRAPPER.replace("scale<T><<<", "scale<<<"));
    assert_eq!(
        floats(&t, "d"),
        [6.0, 7.0, 8.0, 9.0, 10.0, 11.0].map(Some).to_vec()
    );
}

#[test]
fn a_reduction_wrapper_switch_picks_the_instance_of_the_thread_count() {
    // `wrap(n, 16, 1, d_in, d_out)`: T = int deduced, `case 16` launches tree<int, 16> over
    // 16 threads: the sum of 1..=16 = 136.
    let src = "\
template <class T, unsigned int B>
__global__ void tree(T* in, T* out, unsigned int n) {
  __shared__ T s[64];
  unsigned int t = threadIdx.x;
  s[t] = (t < n) ? in[t] : 0;
  __syncthreads();
  for (unsigned int w = B / 2; w > 0; w >>= 1) {
    if (t < w) s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
template <class T>
void wrap(int size, int threads, int blocks, T* in, T* out) {
  dim3 grid(blocks, 1, 1);
  dim3 block(threads, 1, 1);
  switch (threads) {
  case 64: tree<T, 64><<<grid, block>>>(in, out, size); break;
  case 32: tree<T, 32><<<grid, block>>>(in, out, size); break;
  case 16: tree<T, 16><<<grid, block>>>(in, out, size); break;
  }
}
int main() {
  const int n = 16;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i + 1;
  int *d_in, *d_out;
  cudaMalloc((void**)&d_in, n * sizeof(int));
  cudaMalloc((void**)&d_out, sizeof(int));
  cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);
  wrap(n, 16, 1, d_in, d_out);
  int r;
  cudaMemcpy(&r, d_out, sizeof(int), cudaMemcpyDeviceToHost);
  return 0;
}
";
    let t = run_default(src);
    assert_eq!(ints(&t, "out"), vec![Some(136)]);
}

#[test]
fn launches_through_function_pointer_variables_run_the_kernel_they_hold() {
    // d = 0..8; addk<float, 5>: d + 5; then twice: (i + 5) * 2 = 10, 12, …, 24.
    let src = "\
template <typename T, int K>
__global__ void addk(T* d, int n) {
  int i = threadIdx.x;
  if (i < n) d[i] = d[i] + K;
}
__global__ void twice(float* d, int n) {
  int i = threadIdx.x;
  if (i < n) d[i] = d[i] * 2;
}
int main() {
  const int n = 8;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  auto kernel = &addk<float, 5>;
  kernel<<<1, 32>>>(d, n);
  void (*k2)(float*, int) = twice;
  k2<<<1, 32>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  return 0;
}
";
    let t = run_default(src);
    assert_eq!(
        floats(&t, "d"),
        [10.0, 12.0, 14.0, 16.0, 18.0, 20.0, 22.0, 24.0]
            .map(Some)
            .to_vec()
    );
}

#[test]
fn a_function_pointer_assigned_after_its_declaration_or_typedef_d_is_read() {
    // h = 1, 2, 3, 4; thrice then twice: h * 6 = 6, 12, 18, 24.
    let src = "\
__global__ void twice(float* d, int n) {
  int i = threadIdx.x;
  if (i < n) d[i] = d[i] * 2;
}
__global__ void thrice(float* d, int n) {
  int i = threadIdx.x;
  if (i < n) d[i] = d[i] * 3;
}
typedef void (*kfn)(float*, int);
int main() {
  const int n = 4;
  float h[n] = {1, 2, 3, 4};
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  void (*kernel)(float*, int);
  kernel = thrice;
  kernel<<<1, 32>>>(d, n);
  kfn k2 = &twice;
  k2<<<1, 32>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  return 0;
}
";
    let t = run_default(src);
    assert_eq!(floats(&t, "d"), [6.0, 12.0, 18.0, 24.0].map(Some).to_vec());
}

#[test]
fn a_host_helper_s_parameters_reach_its_launch() {
    // width 3, height 2: d[i] = i % 3 + 10 * (i / 3) for i < 6 = 0, 1, 2, 10, 11, 12.
    let src = "\
__global__ void grid2(int* d, int width, int height) {
  int i = threadIdx.x;
  if (i < width * height) d[i] = i % width + 10 * (i / width);
}
void run_it(int* out, int width, int height) {
  int* d;
  cudaMalloc(&d, width * height * sizeof(int));
  grid2<<<1, 32>>>(d, width, height);
  cudaMemcpy(out, d, width * height * sizeof(int), cudaMemcpyDeviceToHost);
}
int main() {
  int h[6];
  run_it(h, 3, 2);
  return 0;
}
";
    let t = run_default(src);
    assert_eq!(ints(&t, "d"), [0, 1, 2, 10, 11, 12].map(Some).to_vec());
}

#[test]
fn a_vector_filled_by_push_back_is_sized_by_its_size() {
    // h = 0, 3, 6, 9, 12 (five push_backs); the kernel adds 1: 1, 4, 7, 10, 13.
    let src = "\
#include <vector>
__global__ void inc(int* d, int n) {
  int i = threadIdx.x;
  if (i < n) d[i] += 1;
}
int main() {
  std::vector<int> h;
  for (int i = 0; i < 5; ++i) h.push_back(i * 3);
  int* d;
  cudaMalloc(&d, h.size() * sizeof(int));
  cudaMemcpy(d, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice);
  inc<<<1, 32>>>(d, (int)h.size());
  cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
  return 0;
}
";
    let t = run_default(src);
    assert_eq!(ints(&t, "d"), [1, 4, 7, 10, 13].map(Some).to_vec());
    // `resize(4, 7)` then one `push_back(2)`: 7, 7, 7, 7, 2, plus 1 each.
    let resized = src.replace(
        "for (int i = 0; i < 5; ++i) h.push_back(i * 3);",
        "h.resize(4, 7);\n  h.push_back(2);",
    );
    let t = run_default(&resized);
    assert_eq!(ints(&t, "d"), [8, 8, 8, 8, 3].map(Some).to_vec());
}

#[test]
fn a_helper_returning_the_warp_size_gives_the_launch_its_block() {
    // getWarpSize() = prop.warpSize = 32 (CUDA): block 32, d[i] = (i ^ 1) + 32.
    let src = "\
__global__ void lanes(int* d, int ws) {
  d[threadIdx.x] = __shfl_xor_sync(0xffffffff, (int)threadIdx.x, 1) + ws;
}
int getWarpSize() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  return prop.warpSize;
}
int main() {
  int ws = getWarpSize();
  int* d;
  cudaMalloc(&d, ws * sizeof(int));
  lanes<<<1, ws>>>(d, ws);
  return 0;
}
";
    let t = run_default(src);
    let want: Vec<_> = (0..32).map(|i: i128| Some((i ^ 1) + 32)).collect();
    assert_eq!(ints(&t, "d"), want);
}

#[test]
fn a_fill_helper_template_fills_the_callers_array() {
    // init<float>(h, 6): h[i] = i * 2 = 0, 2, …, 10; the kernel adds 1: 1, 3, …, 11.
    let src = "\
template <typename T>
void init(T* a, int n) {
  for (int i = 0; i < n; ++i) a[i] = static_cast<T>(i * 2);
}
__global__ void add1(float* d, int n) {
  int i = threadIdx.x;
  if (i < n) d[i] += 1.0f;
}
int main() {
  const int n = 6;
  float h[n];
  init(h, n);
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  add1<<<1, 32>>>(d, n);
  return 0;
}
";
    let t = run_default(src);
    assert_eq!(
        floats(&t, "d"),
        [1.0, 3.0, 5.0, 7.0, 9.0, 11.0].map(Some).to_vec()
    );
}

#[test]
fn hip_tests_get_warp_size_helper_gives_the_wavefront() {
    // HIP on gfx942: warpSize 64, so ws = 64 and the block is one wavefront; d[i] = v + i
    // shuffled down by 1: 64 + i + 1 for i < 63, lane 63 (source 64 out of the wavefront)
    // keeps its own 64 + 63 = 127 (HIP __shfl_down: a source past the width returns the
    // caller's value).
    let src = "\
__global__ void k(int* d, int v) { d[threadIdx.x] = __shfl_down(v + (int)threadIdx.x, 1); }
static int getWarpSize() {
  int device;
  HIP_CHECK(hipGetDevice(&device));
  hipDeviceProp_t props;
  HIP_CHECK(hipGetDeviceProperties(&props, device));
  return props.warpSize;
}
int main() {
  const int ws = getWarpSize();
  int* d;
  HIP_CHECK(hipMalloc(&d, ws * sizeof(int)));
  hipLaunchKernelGGL(k, dim3(1), dim3(ws), 0, 0, d, ws);
  return 0;
}
";
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        ..LaunchConfig::default()
    };
    let t = run_finished(src, config);
    let want: Vec<_> = (0..64)
        .map(|i: i128| Some(if i < 63 { 65 + i } else { 127 }))
        .collect();
    assert_eq!(ints(&t, "d"), want);
}

#[test]
fn a_helper_return_not_read_leaves_the_variable_unknown_not_its_old_value() {
    // `ws = getWs(0);` over `ws = 3`: the helper has two returns, so its value is not read;
    // `ws` is unknown after the call (it held 3 before, which the program no longer has).
    let src = "\
__global__ void k(int* d, int v) { d[threadIdx.x] = v; }
int getWs(int dev) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  if (prop.warpSize > 100) return 1;
  return prop.warpSize;
}
int main() {
  int ws = 3;
  ws = getWs(0);
  int* d;
  cudaMalloc(&d, 4 * sizeof(int));
  k<<<1, 4>>>(d, ws);
  return 0;
}
";
    let t = run_default(src);
    assert_eq!(ints(&t, "d"), vec![None; 4]);
    assert!(has(
        &t,
        Level::Warning,
        "the value host function `getWs` returns"
    ));
}

#[test]
fn hip_launch_kernel_ggl_of_a_function_pointer_variable_runs_its_kernel() {
    // `auto fn = k;` then hipLaunchKernelGGL(fn, …, d, 10): d[i] = 10 + i over 4 threads.
    let src = "\
__global__ void k(int* d, int v) { d[threadIdx.x] = v + threadIdx.x; }
int main() {
  int* d;
  hipMalloc(&d, 4 * sizeof(int));
  auto fn = k;
  hipLaunchKernelGGL(fn, dim3(1), dim3(4), 0, 0, d, 10);
  return 0;
}
";
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        ..LaunchConfig::default()
    };
    let t = run_finished(src, config);
    assert_eq!(ints(&t, "d"), [10, 11, 12, 13].map(Some).to_vec());
}

/// Runtime calls cast to `void` to drop their status (chipStar's and many tests' shape): the
/// calls still run (C++17 [expr.static.cast]/6), so `o` is the 8 ints `hipMalloc` gave and
/// `hipMemset` zeroed.
const VOID_CAST_CALLS: &str = "\
#include <hip/hip_runtime.h>
__global__ void k(int* o) { o[threadIdx.x] += __popcll(__ballot(threadIdx.x < 5)); }
int main() {
  int* d;
  (void)hipMalloc(&d, 8 * sizeof(int));
  (void)hipMemset(d, 0, 8 * sizeof(int));
  hipLaunchKernelGGL(k, dim3(1), dim3(8), 0, 0, d);
  return 0;
}
";

#[test]
fn runtime_calls_cast_to_void_are_read() {
    // 8 threads in one wave; lanes 0..4 vote true: popcount 5, added to the zeroed cells
    // (undefined cells, had the memset not been read, would stay undefined).
    let t = run_default(VOID_CAST_CALLS);
    assert_eq!(ints(&t, "o"), vec![Some(5); 8]);
}
