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
