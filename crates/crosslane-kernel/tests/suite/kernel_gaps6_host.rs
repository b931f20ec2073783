//! Host reading of sizes and launches that host code computes through function templates:
//! a `__host__ __device__` `constexpr` function template called with deduced arguments for a
//! grid size (C++17 [temp.deduct.call]/1-4, then [expr.call]/4), and a host function template
//! that launches a kernel template with `T` deduced at both calls (Apex's layer-norm launcher
//! shape). Expected values are computed here from the programs' own arithmetic.

use crate::support::{has, ints, run_default};
use crosslane_core::result::Level;

/// `int grid = ceil_div(n, block);` in host code: 96 items in blocks of 64 make 2 blocks, so
/// every item is written (the kernel uses the same helper for its own constant).
#[test]
fn host_call_of_a_deduced_function_template_sizes_the_grid() {
    let src = "template <typename T>
__host__ __device__ constexpr T ceil_div(T a, T b) { return (a + b - 1) / b; }
__global__ void k(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int chunks = ceil_div(n, 32);
  if (i < n) out[i] = in[i] + __shfl_xor_sync(0xffffffff, in[i], 1) + chunks;
}
int main() {
  const int n = 96;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int *di, *dout;
  cudaMalloc(&di, sizeof(h));
  cudaMalloc(&dout, sizeof(h));
  cudaMemcpy(di, h, sizeof(h), cudaMemcpyHostToDevice);
  const int block = 64;
  int grid = ceil_div(n, block);
  k<<<grid, block>>>(di, dout, n);
  return 0;
}";
    let t = run_default(src);
    assert!(!has(&t, Level::Warning, "no constant value"));
    let want: Vec<Option<i128>> = (0..96i128).map(|i| Some(i + (i ^ 1) + 3)).collect();
    assert_eq!(ints(&t, "out"), want);
}

/// `launch(di, dout, n)` of `template <typename T> void launch(const T* x, T* y, int n) {
/// k<<<1, n>>>(x, y); }`: `T` is `float` from the device pointers, at the host call and at
/// the kernel launch inside it.
#[test]
fn template_host_function_launches_a_template_kernel_with_deduced_t() {
    let src = "template <typename T>
__global__ void k(const T* in, T* out) {
  int t = threadIdx.x;
  out[t] = in[t] + __shfl_xor_sync(0xffffffff, in[t], 1);
}
template <typename T>
void launch(const T* x, T* y, int n) {
  k<<<1, n>>>(x, y);
}
int main() {
  const int n = 32;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = 0.5f * i;
  float *di, *dout;
  cudaMalloc(&di, sizeof(h));
  cudaMalloc(&dout, sizeof(h));
  cudaMemcpy(di, h, sizeof(h), cudaMemcpyHostToDevice);
  launch(di, dout, n);
  return 0;
}";
    let t = run_default(src);
    let want: Vec<Option<f64>> = (0..32)
        .map(|i| Some(0.5 * i as f64 + 0.5 * (i ^ 1) as f64))
        .collect();
    assert_eq!(crate::support::floats(&t, "out"), want);
}

/// `auto [block, grid] = pick(n);` of a host function of several guarded `return`s, and
/// `std::tie(len, scale) = dims(n);`: with `n = 96` the second guard holds (`{64, 2}`), and
/// `dims` takes its first `return` (`96 % 2 == 0`: scale 2). Two blocks of 64 write all 96
/// cells, each `2 * (in[i] + in[i ^ 1])`.
#[test]
fn bindings_from_guarded_returns_and_std_tie_read_the_taken_return() {
    let src = "#include <tuple>
#include <utility>
__global__ void k(const int* in, int* out, int scale) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = scale * (in[t] + __shfl_xor_sync(0xffffffff, in[t], 1));
}
std::pair<int, int> pick(int n) {
  if (n > 1024) return {1024, (n + 1023) / 1024};
  if (n > 64) { return {64, (n + 63) / 64}; }
  return {32, 1};
}
std::tuple<int, int> dims(int n) {
  if (n % 2 == 0) return std::make_tuple(n, 2);
  return std::make_tuple(n + 1, 3);
}
int main() {
  const int n = 96;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int *di, *dout;
  cudaMalloc(&di, sizeof(h));
  cudaMalloc(&dout, sizeof(h));
  cudaMemcpy(di, h, sizeof(h), cudaMemcpyHostToDevice);
  auto [block, grid] = pick(n);
  int len, scale;
  std::tie(len, scale) = dims(n);
  k<<<grid, block>>>(di, dout, scale);
  return 0;
}";
    let t = run_default(src);
    let want: Vec<Option<i128>> = (0..96i128).map(|i| Some(2 * (i + (i ^ 1)))).collect();
    assert_eq!(ints(&t, "out"), want);
}

/// A guard whose condition has no value in host code leaves the bound names unknown (the
/// launch asks for them), never one branch's value.
#[test]
fn a_guard_without_a_value_leaves_the_binding_unknown() {
    let src = "#include <utility>
__global__ void k(int* out) { out[threadIdx.x] = threadIdx.x; }
std::pair<int, int> pick(int n) {
  if (n > 64) return {64, 2};
  return {32, 1};
}
int main(int argc, char** argv) {
  int n = rand();
  int* d;
  cudaMalloc(&d, 256 * sizeof(int));
  auto [block, grid] = pick(n);
  k<<<grid, block>>>(d);
  return 0;
}";
    let t = run_default(src);
    assert!(has(
        &t,
        Level::Warning,
        "`grid` is unknown: the pair or tuple host function `pick`"
    ));
    assert!(has(&t, Level::Warning, "`if (…) return …;` guards"));
}
