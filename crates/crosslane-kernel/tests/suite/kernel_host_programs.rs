//! Whole programs as CUDA samples, HeCBench and hip-tests write them, whose host `main` gives
//! the launch what it computes: a struct with an array member passed by value, a launch
//! configuration from `std::min`/`std::max` or `?:` into a `dim3`'s member, and a kernel of
//! several overloads chosen by the launch's argument types. Each expected value is derived by
//! hand from the program's own arithmetic, written beside it.

use crate::support::{floats, has, ints, said};
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

/// Runs `src` with `entry` traced (default: the first launch), every launch in order.
fn run_entry(src: &str, entry: Option<&str>) -> KernelTrace {
    let config = LaunchConfig {
        entry: entry.map(str::to_string),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

/// A struct with an array member, filled member by member on the host and passed by value.
const STRUCT_ARRAY: &str = "\
struct P { int dims[3]; float s; };
__global__ void k(P p, float* d) {
  int i = threadIdx.x;
  d[i] = p.dims[i % 3] * p.s + i;
}
int main() {
  P p;
  p.dims[0] = 2; p.dims[1] = 5; p.dims[2] = 7;
  p.s = 0.5f;
  float* d;
  cudaMalloc(&d, 8 * sizeof(float));
  k<<<1, 8>>>(p, d);
  cudaDeviceSynchronize();
  return 0;
}
";

#[test]
fn a_struct_passed_by_value_carries_its_array_members_host_cells() {
    // d[i] = dims[i % 3] * 0.5 + i with dims = 2, 5, 7:
    // 1, 2.5+1, 3.5+2, 1+3, 2.5+4, 3.5+5, 1+6, 2.5+7.
    let t = run_entry(STRUCT_ARRAY, None);
    assert_eq!(
        floats(&t, "d"),
        [1.0, 3.5, 5.5, 4.0, 6.5, 8.5, 7.0, 9.5].map(Some).to_vec()
    );
    assert_eq!(ints(&t, "p.dims@in"), vec![Some(2), Some(5), Some(7)]);
}

#[test]
fn a_struct_array_member_filled_by_a_host_loop_reaches_the_kernel() {
    // dims[j] = j * 3 + 1 = 1, 4, 7: d = 0.5, 2+1, 3.5+2, 0.5+3, 2+4, 3.5+5, 0.5+6, 2+7.
    let src = STRUCT_ARRAY.replace(
        "p.dims[0] = 2; p.dims[1] = 5; p.dims[2] = 7;",
        "for (int j = 0; j < 3; j++) p.dims[j] = j * 3 + 1;",
    );
    let t = run_entry(&src, None);
    assert_eq!(
        floats(&t, "d"),
        [0.5, 3.0, 5.5, 3.5, 6.0, 8.5, 6.5, 9.0].map(Some).to_vec()
    );
}

#[test]
fn a_struct_array_member_host_code_leaves_unset_stays_undefined() {
    // Only dims[0] = 2 is set: lanes 0, 3, 6 read it (1, 4, 7); the others read
    // indeterminate cells ([dcl.init]/12) and are not made up.
    let src = STRUCT_ARRAY.replace(" p.dims[1] = 5; p.dims[2] = 7;", "");
    let t = run_entry(&src, None);
    assert_eq!(ints(&t, "p.dims@in"), vec![Some(2), None, None]);
    let d = floats(&t, "d");
    assert_eq!(d[0], Some(1.0));
    assert_eq!(d[3], Some(4.0));
    assert_eq!(d[6], Some(7.0));
    assert_eq!(d[1], None);
    assert_eq!(d[5], None);
}

/// A launch configuration computed on the host with `std::min`, `std::max`, `min` and `?:`.
const CONFIG_MINMAX: &str = "\
#include <algorithm>
__global__ void k(int* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = gridDim.x * 1000 + blockDim.x;
}
int main() {
  int n = 600;
  int* d;
  cudaMalloc(&d, n * sizeof(int));
  dim3 grid;
  grid.x = std::min((n + 255) / 256, 2);
  int threads = std::max(64, n / 10);
  k<<<grid, threads>>>(d, n);
  int blocks = min(n / 64, 4);
  int t2 = n > 100 ? 128 : 32;
  k<<<blocks, t2>>>(d, n);
  cudaDeviceSynchronize();
  return 0;
}
";

#[test]
fn a_dim3_member_assigned_from_std_min_is_the_launchs_grid() {
    // grid.x = min(855 / 256, 2) = min(3, 2) = 2; threads = max(64, 60) = 64: the first
    // launch writes 2 * 1000 + 64 = 2064 into cells 0..128 (2 blocks of 64).
    let config = LaunchConfig {
        single_launch: true,
        ..LaunchConfig::default()
    };
    let t = run_kernel(CONFIG_MINMAX, config).unwrap_or_else(|e| panic!("{e}"));
    let d = ints(&t, "d");
    assert_eq!(d[0], Some(2064));
    assert_eq!(d[127], Some(2064));
    assert_eq!(d[128], None);
}

#[test]
fn a_launch_configuration_from_min_and_a_ternary_is_read() {
    // blocks = min(600 / 64, 4) = min(9, 4) = 4; t2 = 600 > 100 ? 128 : 32 = 128: the second
    // launch covers 4 * 128 = 512 cells with 4 * 1000 + 128 = 4128 over the first launch's
    // 2064 in 0..128; nothing writes 512..600, which stay undefined.
    let config = LaunchConfig {
        launch: Some(2),
        ..LaunchConfig::default()
    };
    let t = run_kernel(CONFIG_MINMAX, config).unwrap_or_else(|e| panic!("{e}"));
    let d = ints(&t, "d");
    assert_eq!(d[0], Some(4128));
    assert_eq!(d[511], Some(4128));
    assert_eq!(d[512], None);
}

/// Two kernels of one name, told apart by their parameter types.
const OVERLOADS: &str = "\
__global__ void k(float* d) { int i = threadIdx.x; d[i] = i * 0.5f; }
__global__ void k(int* d) { int i = threadIdx.x; d[i] = i * 7; }
__global__ void k(int* d, int s) { int i = threadIdx.x; d[i] += s; }
int main() {
  float* df;
  int* di;
  cudaMalloc(&df, 4 * sizeof(float));
  cudaMalloc(&di, 4 * sizeof(int));
  k<<<1, 4>>>(df);
  k<<<1, 4>>>(di);
  k<<<1, 4>>>(di, 5);
  cudaDeviceSynchronize();
  return 0;
}
";

#[test]
fn a_launch_of_an_overloaded_kernel_runs_the_overload_its_arguments_choose() {
    // No --entry: the first launch, `k(df)` with a `float*`, runs k(float*): d = i * 0.5.
    let t = run_entry(OVERLOADS, None);
    assert_eq!(floats(&t, "d"), [0.0, 0.5, 1.0, 1.5].map(Some).to_vec());
    assert!(
        has(&t, Level::Info, "launch of `k(float*)` read from host code"),
        "{:?}",
        said(&t, Level::Info)
    );
}

#[test]
fn an_overload_launched_before_the_traced_one_runs_first_by_its_own_types() {
    // k(int*) writes 0, 7, 14, 21 into di; k(int*, int) then adds 5: 5, 12, 19, 26.
    let t = run_entry(OVERLOADS, Some("k(int*, int)"));
    assert_eq!(ints(&t, "d"), vec![Some(5), Some(12), Some(19), Some(26)]);
}

/// Pitched 2-D memory: a host array copied row by row into a `cudaMallocPitch` allocation and
/// a kernel that finds each row at `row * pitch` bytes.
const PITCHED: &str = "\
__global__ void k(float* p, size_t pitch, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) {
    float* row = (float*)((char*)p + y * pitch);
    row[x] = row[x] * 2.0f + y;
  }
}
int main() {
  const int w = 5, h = 3;
  float hbuf[w * h];
  for (int i = 0; i < w * h; i++) hbuf[i] = (float)i;
  float* d;
  size_t pitch;
  cudaMallocPitch((void**)&d, &pitch, w * sizeof(float), h);
  cudaMemcpy2D(d, pitch, hbuf, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);
  k<<<h, 8>>>(d, pitch, w, h);
  cudaMemcpy2D(hbuf, w * sizeof(float), d, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost);
  return 0;
}
";

#[test]
fn a_pitched_allocation_holds_the_rows_cudamemcpy2d_copies_at_the_pitch() {
    // The pitch of 5 floats (20 bytes) rounds up to 512 bytes, 128 floats: the allocation is
    // 3 rows of 128 cells. Row y, column x holds hbuf[y * 5 + x] and becomes that * 2 + y:
    // row 0: 0 2 4 6 8; row 1 (cell 128 on): 11 13 15 17 19; row 2 (cell 256 on): 22 24 26 28
    // 30. The padding past each row's 5 cells is never written: undefined.
    let t = run_entry(PITCHED, None);
    let p = floats(&t, "p");
    assert_eq!(p.len(), 384);
    assert_eq!(p[0..5], [0.0, 2.0, 4.0, 6.0, 8.0].map(Some));
    assert_eq!(p[128..133], [11.0, 13.0, 15.0, 17.0, 19.0].map(Some));
    assert_eq!(p[256..261], [22.0, 24.0, 26.0, 28.0, 30.0].map(Some));
    assert_eq!(p[5], None);
    assert_eq!(p[383], None);
    assert!(
        has(&t, Level::Info, "pitch = 512"),
        "{:?}",
        said(&t, Level::Info)
    );
}

#[test]
fn hip_pitched_memory_reads_as_cudas() {
    let src = PITCHED
        .replace("cudaMallocPitch", "hipMallocPitch")
        .replace("cudaMemcpy2D", "hipMemcpy2D")
        .replace("cudaMemcpy", "hipMemcpy");
    let t = run_entry(&src, None);
    let p = floats(&t, "p");
    assert_eq!(p[128..133], [11.0, 13.0, 15.0, 17.0, 19.0].map(Some));
}

/// A `__constant__` struct set by `cudaMemcpyToSymbol` from a host struct.
const CONSTANT_STRUCT: &str = "\
struct Params { int n; float scale; float bias; };
__constant__ Params c_params;
__global__ void k(float* out) {
  int i = threadIdx.x;
  if (i < c_params.n) out[i] = i * c_params.scale + c_params.bias;
}
int main() {
  Params h_params;
  h_params.n = 6; h_params.scale = 2.0f; h_params.bias = 0.25f;
  cudaMemcpyToSymbol(c_params, &h_params, sizeof(Params));
  float* out;
  cudaMalloc(&out, 8 * sizeof(float));
  k<<<1, 8>>>(out);
  cudaDeviceSynchronize();
  return 0;
}
";

#[test]
fn a_constant_struct_holds_the_host_struct_cudamemcpytosymbol_copies() {
    // out[i] = i * 2 + 0.25 for i < 6; lanes 6 and 7 write nothing.
    let t = run_entry(CONSTANT_STRUCT, None);
    assert_eq!(
        floats(&t, "out"),
        vec![
            Some(0.25),
            Some(2.25),
            Some(4.25),
            Some(6.25),
            Some(8.25),
            Some(10.25),
            None,
            None
        ]
    );
}

#[test]
fn a_constant_struct_member_host_code_never_sets_is_undefined() {
    // `bias` is not set before the copy: its cell is not made up, and neither is out.
    let src = CONSTANT_STRUCT.replace(" h_params.bias = 0.25f;", "");
    let t = run_entry(&src, None);
    assert!(floats(&t, "out").iter().all(Option::is_none));
    assert!(
        has(&t, Level::Warning, "c_params.bias"),
        "{:?}",
        said(&t, Level::Warning)
    );
}

#[test]
fn a_constant_array_of_structs_holds_the_host_array_hipmemcpytosymbol_copies() {
    // h[i].a = i + 0.5, h[i].b = 10 - i; out[i] = a * b of element i % 4:
    // 0.5 * 10, 1.5 * 9, 2.5 * 8, 3.5 * 7 = 5, 13.5, 20, 24.5, then again.
    let src = "\
#include <hip/hip_runtime.h>
struct Coef { float a; int b; };
__constant__ Coef c_coefs[4];
__global__ void k(float* out) {
  int i = threadIdx.x;
  out[i] = c_coefs[i % 4].a * c_coefs[i % 4].b;
}
int main() {
  Coef h[4];
  for (int i = 0; i < 4; i++) { h[i].a = i + 0.5f; h[i].b = 10 - i; }
  hipMemcpyToSymbol(HIP_SYMBOL(c_coefs), h, sizeof(h));
  float* out;
  hipMalloc(&out, 8 * sizeof(float));
  hipLaunchKernelGGL(k, dim3(1), dim3(8), 0, 0, out);
  hipDeviceSynchronize();
  return 0;
}
";
    let t = run_entry(src, None);
    assert_eq!(
        floats(&t, "out"),
        [5.0, 13.5, 20.0, 24.5, 5.0, 13.5, 20.0, 24.5]
            .map(Some)
            .to_vec()
    );
}

/// Copies at offsets on a stream: a device-to-host copy into the middle of a host array, then
/// that array copied to the device.
const OFFSET_COPIES: &str = "\
__global__ void k1(float* d) { int i = threadIdx.x; d[i] = i * 1.5f; }
__global__ void k2(const float* x, float* out) { int i = threadIdx.x; out[i] = x[i] + 100.0f; }
int main() {
  const int n = 8;
  float *dx, *dy, *out;
  float h[n];
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = i;
  k1<<<1, n, 0, s>>>(dx);
  cudaMemcpyAsync(h + 4, dx + 2, 4 * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(dy, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  k2<<<1, n, 0, s>>>(dy, out);
  cudaStreamSynchronize(s);
  return 0;
}
";

#[test]
fn a_device_to_host_copy_into_the_middle_of_a_host_array_is_not_taken_for_its_old_values() {
    // h[4..8] holds k1's 3, 4.5, 6, 7.5 after the copy, which the host reading does not
    // follow: k2 must not find the host's old 4, 5, 6, 7 (out would be 104..107), so `x`
    // is undefined, said.
    let t = run_entry(OFFSET_COPIES, Some("k2"));
    assert!(
        floats(&t, "x").iter().all(Option::is_none),
        "{:?}",
        floats(&t, "x")
    );
    assert!(
        has(&t, Level::Warning, "`x`"),
        "{:?}",
        said(&t, Level::Warning)
    );
}

#[test]
fn host_code_changing_values_copied_back_is_followed_and_said_with_single_launch() {
    // k1 leaves d = 3i; copied back, `h[i] += 1` makes h = 3i + 1 (C++17 [expr.ass]/7), copied
    // in again: k2 gives out = 2 * (3i + 1) = 6i + 2. With --single-launch k1 does not run, so
    // the change is not followed: k2 finds `d` undefined and the warning says what to do.
    let src = "\
__global__ void k1(int* d) { int i = threadIdx.x; d[i] = i * 3; }
__global__ void k2(int* d, int* out) { int i = threadIdx.x; out[i] = d[i] * 2; }
int main() {
  const int n = 8;
  int h[n];
  int *d, *out;
  cudaMalloc(&d, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  k1<<<1, n>>>(d);
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) h[i] += 1;
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  k2<<<1, n>>>(d, out);
  cudaDeviceSynchronize();
  return 0;
}
";
    let t = run_entry(src, Some("k2"));
    let want: Vec<Option<i128>> = (0..8).map(|i| Some(6 * i + 2)).collect();
    assert_eq!(ints(&t, "out"), want);
    let single = LaunchConfig {
        entry: Some("k2".to_string()),
        single_launch: true,
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, single).unwrap_or_else(|e| panic!("{e}"));
    assert!(ints(&t, "out").iter().all(Option::is_none));
    assert!(
        has(
            &t,
            Level::Warning,
            "host code changing the device's values between launches is not followed"
        ),
        "{:?}",
        said(&t, Level::Warning)
    );
}
