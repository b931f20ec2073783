//! The argument array of `cudaLaunchCooperativeKernel` / `hipLaunchCooperativeKernel` (CUDA
//! Runtime API, cudaLaunchKernel: `args` is "an array of pointers to the kernel's arguments",
//! one per parameter, in order; HIP Runtime API, same order), written as a list of addresses
//! (`void* params[] = {&d_in, …};`) or declared `void* params[4];` and filled by index
//! (`params[0] = (void*)&d_in;`), each element also through `reinterpret_cast<void*>(&x)` or
//! `static_cast<void*>(&x)`: parameter i takes the value of the variable element i points at.
//! An element never set leaves its parameter unknown, said with the element's index.
//! Kernel written here; expected values by hand (below).

use crate::cells::cell_ints;
use crate::support::has;
use crosslane_core::result::Level;
use crosslane_kernel::{run_kernel, LaunchConfig, Outcome};

/// Grid-stride sum: 2 blocks of 16 threads (32 in all), `in[i] = i` for i < 64, `scale = 2`.
/// Thread t adds in[t] and in[t + 32]: out[t] = 2 * (t + t + 32) = 4t + 64. After the grid
/// barrier thread 0 writes out[32] = sum over t < 32 of (4t + 64) = 4 * 496 + 64 * 32 = 4032.
const KERNEL: &str = "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void gsum(const int* in, int* out, int n, int scale) {
  cg::grid_group g = cg::this_grid();
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int acc = 0;
  for (int i = t; i < n; i += gridDim.x * blockDim.x) acc += in[i] * scale;
  out[t] = acc;
  g.sync();
  if (t == 0) {
    int s = 0;
    for (int i = 0; i < gridDim.x * blockDim.x; ++i) s += out[i];
    out[gridDim.x * blockDim.x] = s;
  }
}
int main() {
  const int n = 64;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int *d_in, *d_out;
  MALLOC(&d_in, n * sizeof(int));
  MALLOC(&d_out, 33 * sizeof(int));
  MEMCPY(d_in, h, n * sizeof(int), KIND);
  int nn = n;
  int scale = 2;
  ARGS
  LAUNCH(CAST, dim3(2), dim3(16), params, 0, 0);
  return 0;
}
";

const BRACE: &str = "void* params[] = {(void*)&d_in, reinterpret_cast<void*>(&d_out), &nn, \
                     static_cast<void*>(&scale)};";
const BY_INDEX: &str = "void* params[4];
  params[0] = (void*)&d_in;
  params[1] = reinterpret_cast<void*>(&d_out);
  params[2] = &nn;
  params[3] = static_cast<void*>(&scale);";

fn cuda(args: &str) -> String {
    KERNEL
        .replace("MALLOC", "cudaMalloc")
        .replace("MEMCPY", "cudaMemcpy")
        .replace("KIND", "cudaMemcpyHostToDevice")
        .replace("LAUNCH", "cudaLaunchCooperativeKernel")
        .replace("CAST", "(void*)gsum")
        .replace("ARGS", args)
}

fn hip(args: &str) -> String {
    format!(
        "#include <hip/hip_runtime.h>\n{}",
        KERNEL
            .replace("MALLOC", "hipMalloc")
            .replace("MEMCPY", "hipMemcpy")
            .replace("KIND", "hipMemcpyHostToDevice")
            .replace("LAUNCH", "hipLaunchCooperativeKernel")
            .replace("CAST", "reinterpret_cast<void*>(gsum)")
            .replace("ARGS", args)
    )
}

fn expected() -> Vec<Option<i128>> {
    let mut v: Vec<Option<i128>> = (0..32).map(|t| Some(4 * t + 64)).collect();
    v.push(Some(4032));
    v
}

#[test]
fn an_argument_array_binds_each_parameter_in_both_forms() {
    for src in [cuda(BRACE), cuda(BY_INDEX), hip(BRACE), hip(BY_INDEX)] {
        let t = run_kernel(&src, LaunchConfig::default()).unwrap();
        assert_eq!(t.outcome, Some(Outcome::Finished), "{src}");
        assert!(
            !has(&t, Level::Warning, "is not read"),
            "{:?}",
            t.all_diagnostics().collect::<Vec<_>>()
        );
        assert_eq!(cell_ints(t.buffer("out").unwrap()), expected(), "{src}");
    }
}

#[test]
fn an_element_never_set_leaves_its_parameter_unknown_said() {
    let args = BY_INDEX.replace("  params[3] = static_cast<void*>(&scale);", "");
    let t = run_kernel(&cuda(&args), LaunchConfig::default()).unwrap();
    assert!(
        has(
            &t,
            Level::Warning,
            "element 3 of the argument array `params` is not set"
        ),
        "{:?}",
        t.all_diagnostics().collect::<Vec<_>>()
    );
    // `scale` is unknown: every sum is undefined, never a number.
    assert_eq!(cell_ints(t.buffer("out").unwrap())[..32], vec![None; 32]);
}

/// A plain kernel launched through `cudaLaunchKernel` from helpers: one that receives the
/// filled array and launches (`run`), one that receives it, sets more elements by index
/// (`params[num + 0] = &d_out;`, num = 1) and launches (`fill_run`). With in[i] = i (32
/// cells), s = 3: out[i] = 3i.
const HELPERS: &str = "__global__ void scale_k(const int* in, int* out, int n, int s) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = in[t] * s;
}
static void run(void** params, int blocks) {
  cudaLaunchKernel((void*)scale_k, dim3(blocks), dim3(16), params, 0, 0);
}
static void fill_run(void** params, int num, int s) {
  int* d_out;
  cudaMalloc(&d_out, 32 * sizeof(int));
  params[num + 0] = &d_out;
  params[num + 2] = &s;
  cudaLaunchKernel((void*)scale_k, dim3(2), dim3(16), params, 0, 0);
}
int main() {
  const int n = 32;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);
  int nn = n;
  int s = 3;
  void* params[4];
  params[0] = &d_in;
  CALL
  return 0;
}
";

#[test]
fn a_helper_receiving_the_array_binds_its_elements() {
    for call in [
        "params[1] = &d_out;\n  params[2] = &nn;\n  params[3] = &s;\n  run(params, 2);",
        "params[2] = &nn;\n  fill_run(params, 1, 3);",
    ] {
        let src = HELPERS.replace("CALL", call);
        let t = run_kernel(&src, LaunchConfig::default()).unwrap();
        assert_eq!(t.outcome, Some(Outcome::Finished), "{call}");
        assert!(
            !has(&t, Level::Warning, "is not read"),
            "{call}: {:?}",
            t.all_diagnostics().collect::<Vec<_>>()
        );
        let want: Vec<Option<i128>> = (0..32).map(|i| Some(3 * i)).collect();
        assert_eq!(cell_ints(t.buffer("out").unwrap()), want, "{call}");
    }
}
