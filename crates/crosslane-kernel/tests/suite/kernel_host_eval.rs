//! Host code read in order: a scalar or array copied by address (`&h`, `&h[0]`, `h.data()`),
//! host variables changed by assignments and loops before the launch, an `if` on a constant,
//! device properties and the occupancy query, and what is said when a value cannot be read.
//! Each expected value is derived by hand beside its test (C++ semantics of the host code).

use crate::support::{ints, said};
use crosslane_core::op::Dialect;
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, LaunchConfig};

fn hip() -> LaunchConfig {
    LaunchConfig {
        dialect: Some(Dialect::Hip),
        ..LaunchConfig::default()
    }
}

#[test]
fn a_host_scalar_copied_by_address_is_the_buffer_s_value() {
    // `int h = 5` copied into the one cell, then 32 lanes each add 1: 5 + 32 = 37.
    let src = "\
__global__ void k(int* c) { atomicAdd(c, 1); }
int main() {
  int h = 5;
  int* d;
  cudaMalloc(&d, sizeof(int));
  cudaMemcpy(d, &h, sizeof(int), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(d);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    assert_eq!(ints(&t, "c"), vec![Some(37)]);
}

#[test]
fn host_arrays_copied_by_address_data_and_first_cell_keep_their_fill() {
    // a: `&ha` of ha[i] = 100 + i; b: `&hb[0]` of hb[i] = 3 * i; c: `hc.data()` of a vector
    // with hc[i] = 7 - i. Each kernel cell adds 1: 101 + i, 3i + 1, 8 - i.
    let src = "\
#include <vector>
__global__ void k(int* a, int* b, int* c) {
  int t = threadIdx.x;
  a[t] += 1; b[t] += 1; c[t] += 1;
}
int main() {
  const int n = 8;
  int ha[8];
  int hb[8];
  std::vector<int> hc(n);
  for (int i = 0; i < n; i++) ha[i] = 100 + i;
  for (int i = 0; i < n; i++) hb[i] = 3 * i;
  for (int i = 0; i < n; i++) hc[i] = 7 - i;
  int *a, *b, *c;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMalloc(&c, n * sizeof(int));
  cudaMemcpy(a, &ha, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(b, &hb[0], n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(c, hc.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  k<<<1, n>>>(a, b, c);
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    let want = |f: fn(i128) -> i128| (0..8).map(|i| Some(f(i))).collect::<Vec<_>>();
    assert_eq!(ints(&t, "a"), want(|i| 101 + i));
    assert_eq!(ints(&t, "b"), want(|i| 3 * i + 1));
    assert_eq!(ints(&t, "c"), want(|i| 8 - i));
}

#[test]
fn host_loops_and_compound_assignments_run_before_the_launch() {
    // s: `while (w >>= 1) ++s` from w = 32 shifts 32→16→8→4→2→1→0: five true tests, s = 5.
    // n: three doublings from 1 = 8. m: do-while adds 3 while m < 10 from 1: 4, 7, 10 → 10;
    // then `m -= 4; m *= 3; m %= 7` = 6 * 3 % 7 = 18 % 7 = 4. q: a for loop summing i = 0..4
    // (10), with `continue` at i = 2 (8) and `break` at i = 4: 0 + 1 + 3 = 4, then `q++` = 5.
    let src = "\
__global__ void k(int* o, int s, int n, int m, int q) {
  o[threadIdx.x] = s * 1000 + n * 100 + m * 10 + q;
}
int main() {
  int s = 0;
  int w = 32;
  while (w >>= 1) ++s;
  int n = 1;
  for (int i = 0; i < 3; i++) n *= 2;
  int m = 1;
  do { m += 3; } while (m < 10);
  m -= 4; m *= 3; m %= 7;
  int q = 0;
  for (int i = 0; i < 10; ++i) {
    if (i == 2) continue;
    if (i == 4) break;
    q += i;
  }
  q++;
  int* d;
  cudaMalloc(&d, 2 * sizeof(int));
  k<<<1, 2>>>(d, s, n, m, q);
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    // 5*1000 + 8*100 + 4*10 + 5 = 5845.
    assert_eq!(ints(&t, "o"), vec![Some(5845); 2]);
}

#[test]
fn a_value_the_host_reading_cannot_follow_is_unknown_with_its_reason() {
    // `x` changes in a loop whose test calls `rand()`: no value after it; the launch says
    // why instead of passing x's initial 3. `y` is copied back from the device: unknown too.
    let src = "\
__global__ void k(int* o, int x) { o[threadIdx.x] = x; }
int main() {
  int x = 3;
  while (rand() > 5) x += 2;
  int* d;
  cudaMalloc(&d, 4 * sizeof(int));
  k<<<1, 4>>>(d, x);
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    let w = said(&t, Level::Warning);
    assert!(
        w.iter()
            .any(|m| m.starts_with("argument `x` of this launch (`x`)")
                && m.contains("`x` is unknown: the host loop at line 4 is not evaluated")
                && m.contains("--arg x=VALUE")),
        "{w:?}"
    );
    let mut c = LaunchConfig::default();
    c.args.insert("x".into(), "9".into());
    let t = run_kernel(src, c).unwrap();
    assert_eq!(ints(&t, "o"), vec![Some(9); 4]);
}

#[test]
fn a_host_loop_past_the_step_budget_is_said_with_the_limit() {
    // `while (1)` never ends: stopped at MAX_HOST_STEPS (100000), `x` unknown.
    let src = "\
__global__ void k(int* o, int x) { o[threadIdx.x] = x; }
int main() {
  int x = 0;
  while (1) x++;
  int* d;
  cudaMalloc(&d, 4 * sizeof(int));
  k<<<1, 4>>>(d, x);
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    let notes = said(&t, Level::Info);
    assert!(
        notes
            .iter()
            .any(|m| m.contains("100000 steps (MAX_HOST_STEPS)") && m.contains("`x` has no value")),
        "{notes:?}"
    );
    assert!(said(&t, Level::Warning)
        .iter()
        .any(|m| m.starts_with("argument `x`") && m.contains("MAX_HOST_STEPS")));
}

#[test]
fn an_unknown_if_condition_leaves_what_it_assigns_unknown() {
    // `n` is 4 or 8 depending on a call host code does not run: neither is read as the value.
    let src = "\
__global__ void k(int* o, int n) { o[threadIdx.x] = n; }
int main(int argc, char** argv) {
  int n = 4;
  if (rand() > 1) n = 8;
  int* d;
  cudaMalloc(&d, 4 * sizeof(int));
  k<<<1, 4>>>(d, n);
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    let w = said(&t, Level::Warning);
    assert!(
        w.iter()
            .any(|m| m.starts_with("argument `n`") && m.contains("`if (rand() > 1)` at line 4")),
        "{w:?}"
    );
}

const WARP_DISPATCH: &str = "\
#include <hip/hip_runtime.h>
template <int W> __global__ void k(int* o) { o[threadIdx.x] = W * 10 + threadIdx.x % 2; }
int main() {
  hipDeviceProp_t prop;
  hipGetDeviceProperties(&prop, 0);
  int* d;
  hipMalloc(&d, 64 * sizeof(int));
  if (prop.warpSize == 64) k<64><<<1, 64>>>(d);
  else k<32><<<1, 32>>>(d);
}";

#[test]
fn the_warp_size_property_is_the_run_s_lanes_and_chooses_the_launch() {
    // gfx90a (HIP's default target here): wave64, so k<64> with 64 threads: cell t = 640 + t%2.
    let t = run_kernel(WARP_DISPATCH, hip()).unwrap();
    assert_eq!(t.launch.block_dim, [64, 1, 1]);
    assert_eq!(ints(&t, "o")[..2], [Some(640), Some(641)]);
    // gfx1100 (RDNA3, wave32): k<32> with 32 threads: 320 + t%2.
    let mut c = hip();
    c.preprocess.arch = Some("gfx1100".into());
    let t = run_kernel(WARP_DISPATCH, c).unwrap();
    assert_eq!(t.launch.block_dim, [32, 1, 1]);
    assert_eq!(ints(&t, "o")[..2], [Some(320), Some(321)]);
    assert!(
        said(&t, Level::Info)
            .iter()
            .any(|m| m
                == "`if (prop.warpSize == 64)` is false in host code: the other branch is read")
    );
}

#[test]
fn a_block_sized_from_the_warp_size_uses_the_property() {
    // Two waves per block: 2 * warpSize = 128 threads on gfx90a.
    let src = "\
__global__ void k(int* o) { o[threadIdx.x] = blockDim.x; }
int main() {
  hipDeviceProp_t p;
  hipGetDeviceProperties(&p, 0);
  const unsigned ws = p.warpSize;
  const unsigned threads = ws * 2;
  int* d;
  hipMalloc(&d, threads * sizeof(int));
  hipLaunchKernelGGL(k, dim3(1), dim3(threads), 0, 0, d);
}";
    let t = run_kernel(src, hip()).unwrap();
    assert_eq!(t.launch.block_dim, [128, 1, 1]);
}

#[test]
fn the_occupancy_query_gives_launch_bounds_or_the_block_limit() {
    // With __launch_bounds__(256): block 256; minimum grid = 1 SM * 2048 / 256 = 8.
    let bounded = "\
__global__ void __launch_bounds__(256) k(int* o) { o[0] = 0; }
int main() {
  int minGrid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, k, 0, 0);
  int* d;
  cudaMalloc(&d, sizeof(int));
  k<<<minGrid, block>>>(d);
}";
    let t = run_kernel(bounded, LaunchConfig::default()).unwrap();
    assert_eq!(
        (t.launch.block_dim, t.launch.grid_dim),
        ([256, 1, 1], [8, 1, 1])
    );
    // No bounds: maxThreadsPerBlock 1024, grid 2048 / 1024 = 2; a blockSizeLimit of 128
    // caps it: block 128, grid 16.
    let plain = bounded.replace("__launch_bounds__(256) ", "");
    let t = run_kernel(&plain, LaunchConfig::default()).unwrap();
    assert_eq!(
        (t.launch.block_dim, t.launch.grid_dim),
        ([1024, 1, 1], [2, 1, 1])
    );
    let limited = plain.replace("k, 0, 0)", "k, 0, 128)");
    let t = run_kernel(&limited, LaunchConfig::default()).unwrap();
    assert_eq!(
        (t.launch.block_dim, t.launch.grid_dim),
        ([128, 1, 1], [16, 1, 1])
    );
}

#[test]
fn a_zero_block_from_host_code_names_the_expression_and_the_flag() {
    let src = "\
__global__ void k(int* o) { o[threadIdx.x] = 1; }
int main() {
  int threads = 0;
  int* d;
  cudaMalloc(&d, 4 * sizeof(int));
  k<<<1, threads>>>(d);
}";
    let e = run_kernel(src, LaunchConfig::default()).unwrap_err();
    assert!(
        e.message.contains("got [0, 1, 1]")
            && e.message
                .contains("the block `threads` of the launch at line 6 in host code")
            && e.message.contains("--threads-per-block"),
        "{}",
        e.message
    );
}

#[test]
fn a_host_array_cell_changed_before_the_copy_is_copied_and_after_it_is_not() {
    // h[i] = i + 10, then h[2] = 50 before the copy: the device sees 10, 11, 50, 13. The
    // change h[0] = 99 after the copy is host memory only (the copy happened before it).
    let src = "\
__global__ void k(int* a) { a[threadIdx.x] += 0; }
int main() {
  int h[4];
  for (int i = 0; i < 4; i++) h[i] = i + 10;
  h[2] = 50;
  int* d;
  cudaMalloc(&d, 4 * sizeof(int));
  cudaMemcpy(d, h, 4 * sizeof(int), cudaMemcpyHostToDevice);
  h[0] = 99;
  k<<<1, 4>>>(d);
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    assert_eq!(ints(&t, "a"), vec![Some(10), Some(11), Some(50), Some(13)]);
    // A cell changed by a value the reading does not know: the fill is not used, and said.
    let unread = src.replace("h[2] = 50;", "h[2] = rand();");
    let t = run_kernel(&unread, LaunchConfig::default()).unwrap();
    assert!(said(&t, Level::Warning)
        .iter()
        .any(|m| m.starts_with("`a`: host code copies `h` into it")));
}

#[test]
fn a_device_attribute_query_gives_the_warp_size() {
    // hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, 0) on gfx90a: 64; the block is
    // 4 * ws = 256 and each thread writes ws + 1 = 65.
    let src = "\
__global__ void k(int* o, int ws) { o[threadIdx.x] = ws + 1; }
int main() {
  int ws = 0;
  hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, 0);
  int* d;
  hipMalloc(&d, 4 * ws * sizeof(int));
  hipLaunchKernelGGL(k, dim3(1), dim3(4 * ws), 0, 0, d, ws);
}";
    let t = run_kernel(src, hip()).unwrap();
    assert_eq!(t.launch.block_dim, [256, 1, 1]);
    assert_eq!(ints(&t, "o"), vec![Some(65); 256]);
}

/// One host loop filling two arrays (`{ hx[i] = 0.5f * i; hy[i] = 1.0f; }`) fills both, as
/// two loops would. By hand:
/// y[i] = 3 · 0.5 · i + 1, so y[0] = 1, y[1] = 2.5, y[99] = 149.5.
#[test]
fn one_host_loop_fills_two_arrays() {
    let src = "#include <vector>
__global__ void scale_add(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
int main() {
  const int n = 100;
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) { hx[i] = 0.5f * i; hy[i] = 1.0f; }
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  scale_add<<<4, 32>>>(dx, dy, 3.0f, n);
  return 0;
}";
    let config = LaunchConfig {
        dialect: Some(Dialect::Cuda),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).unwrap();
    let y: Vec<f64> = t
        .buffer("y")
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(|v| v.as_f64()).unwrap_or(f64::NAN))
        .collect();
    assert_eq!(y.len(), 100);
    assert_eq!((y[0], y[1], y[99]), (1.0, 2.5, 149.5));
}
