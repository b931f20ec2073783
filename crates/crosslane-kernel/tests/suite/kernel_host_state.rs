//! Device state that lives for the whole program, as host code leaves it between launches:
//! managed memory shared by host and device (CUDA C++ Programming Guide, "Unified Memory
//! Programming": one pointer valid on both, the host's writes after a synchronization seen by
//! the next launch and the kernel's writes seen by the host and the next launch). Each expected
//! value is derived by hand from the kernels' own arithmetic, written beside it.

use crate::support::{has, ints, said};
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

/// Runs `src` with `entry` traced (every launch of host code in order unless `single`).
fn run_entry(src: &str, entry: &str, single: bool) -> KernelTrace {
    let config = LaunchConfig {
        entry: Some(entry.to_string()),
        single_launch: single,
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

/// Host code fills managed memory, a kernel rewrites it, host code changes one cell after the
/// synchronization, and a second kernel reads it.
const MANAGED_CELL: &str = "\
__global__ void bump(int* m) { int i = threadIdx.x; m[i] = m[i] * 10 + i; }
__global__ void copy_out(const int* m, int* out) { int i = threadIdx.x; out[i] = m[i] + 1; }
int main() {
  int *m, *out;
  cudaMallocManaged(&m, 4 * sizeof(int));
  cudaMalloc(&out, 4 * sizeof(int));
  for (int i = 0; i < 4; i++) m[i] = 3;
  bump<<<1, 4>>>(m);
  cudaDeviceSynchronize();
  m[1] = -5;
  copy_out<<<1, 4>>>(m, out);
  cudaDeviceSynchronize();
  return 0;
}
";

#[test]
fn a_kernel_finds_in_managed_memory_what_the_kernel_before_it_wrote_and_host_code_changed() {
    // bump: m = 3*10 + i = 30, 31, 32, 33; host: m[1] = -5 -> 30, -5, 32, 33;
    // copy_out: out = m + 1 = 31, -4, 33, 34.
    let t = run_entry(MANAGED_CELL, "copy_out", false);
    assert_eq!(
        ints(&t, "out"),
        vec![Some(31), Some(-4), Some(33), Some(34)]
    );
    assert!(
        has(
            &t,
            Level::Info,
            "host code writes into its managed memory after them"
        ),
        "{:?}",
        said(&t, Level::Info)
    );
}

#[test]
fn the_first_kernel_on_managed_memory_finds_host_codes_values() {
    // bump finds the host's 3 in every cell and leaves 30, 31, 32, 33; host code then sets
    // m[1] = -5 and copy_out only reads m, so at the program's end m is 30, -5, 32, 33.
    let t = run_entry(MANAGED_CELL, "bump", false);
    let at_launch = t
        .initial_memory
        .buffers
        .iter()
        .find(|b| b.name == "m")
        .map(|b| crate::cells::cell_ints(&b.cells))
        .unwrap_or_default();
    assert_eq!(at_launch[..4], [Some(3); 4]);
    assert_eq!(ints(&t, "m")[..4], [Some(30), Some(-5), Some(32), Some(33)]);
}

#[test]
fn a_single_launch_on_managed_memory_finds_host_codes_values_and_says_what_is_missing() {
    // Alone, copy_out finds host code's own values 3, -5, 3, 3: out = 4, -4, 4, 4, and a
    // warning that bump's result is missing.
    let t = run_entry(MANAGED_CELL, "copy_out", true);
    assert_eq!(ints(&t, "out"), vec![Some(4), Some(-4), Some(4), Some(4)]);
    assert!(has(&t, Level::Warning, "which did not run here"));
}

#[test]
fn host_code_writing_all_of_managed_memory_again_hides_the_kernel_before() {
    // bump's result (30..33) is overwritten by the host's 7s: out = 8, 8, 8, 8.
    let src = MANAGED_CELL.replace("m[1] = -5;", "for (int i = 0; i < 4; i++) m[i] = 7;");
    let t = run_entry(&src, "copy_out", false);
    assert_eq!(ints(&t, "out"), vec![Some(8); 4]);
}

#[test]
fn a_host_change_of_managed_memory_that_reads_the_kernels_result_is_said_and_undefined() {
    // `m[2] += 1` reads bump's 32, which host code does not know here: out[2] and every other
    // cell of the launch are not made up.
    let src = MANAGED_CELL.replace("m[1] = -5;", "m[2] += 1;");
    let t = run_entry(&src, "copy_out", false);
    assert!(
        has(
            &t,
            Level::Warning,
            "changes a cell of `m` in a way not read"
        ),
        "{:?}",
        said(&t, Level::Warning)
    );
    assert_eq!(ints(&t, "out")[2], None);
}

#[test]
fn two_kernels_on_managed_floats_run_in_order() {
    // x = 1, y = 2 by host code; add: y = x + y = 3; scale by 0.25: 0.75 in each of 300 cells
    // (a grid-stride loop over 2 blocks of 64 threads covers them).
    let src = "\
__global__ void add(const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = x[i] + y[i];
}
__global__ void scale(float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = y[i] * a;
}
int main() {
  const int n = 300;
  float *x, *y;
  hipMallocManaged(&x, n * sizeof(float));
  hipMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < n; i++) { x[i] = 1.0f; y[i] = 2.0f; }
  add<<<2, 64>>>(x, y, n);
  hipDeviceSynchronize();
  scale<<<(n + 127) / 128, 128>>>(y, 0.25f, n);
  hipDeviceSynchronize();
  return 0;
}
";
    let t = run_entry(src, "scale", false);
    let y = crate::support::floats(&t, "y");
    assert_eq!(y.len(), 300);
    assert!(y.iter().all(|v| *v == Some(0.75)), "{y:?}");
}
