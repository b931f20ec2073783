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

/// Two launches bump a `__device__` counter and write a `__device__` table; a third reads both.
const DEVICE_VARS: &str = "\
__device__ int hits;
__device__ int lut[4];
__global__ void tick() {
  atomicAdd(&hits, 2);
  if (blockIdx.x == 0) lut[threadIdx.x] = threadIdx.x * threadIdx.x;
}
__global__ void report(int* out) { out[threadIdx.x] = hits + lut[threadIdx.x]; }
int main() {
  int* out;
  cudaMalloc(&out, 4 * sizeof(int));
  tick<<<3, 4>>>();
  COPY
  tick<<<3, 4>>>();
  report<<<1, 4>>>(out);
  return 0;
}
";

#[test]
fn device_variables_keep_what_earlier_launches_left() {
    // Each tick adds 2 in each of 3 * 4 threads: 24 per launch, 48 after two; lut = i * i.
    // report: 48 + 0, 48 + 1, 48 + 4, 48 + 9.
    let src = DEVICE_VARS.replace("COPY", "");
    let t = run_entry(&src, "report", false);
    assert_eq!(
        ints(&t, "out"),
        vec![Some(48), Some(49), Some(52), Some(57)]
    );
    assert!(has(
        &t,
        Level::Info,
        "device variables live for the whole program"
    ));
}

#[test]
fn a_copy_to_a_device_variable_between_launches_replaces_what_the_first_left() {
    // The first tick leaves hits = 24; host code copies 5 into it; the second adds 24: 29.
    // report: 29, 30, 33, 38.
    let src = DEVICE_VARS.replace(
        "COPY",
        "int five = 5;\n  cudaMemcpyToSymbol(hits, &five, sizeof(int));",
    );
    let t = run_entry(&src, "report", false);
    assert_eq!(
        ints(&t, "out"),
        vec![Some(29), Some(30), Some(33), Some(38)]
    );
}

#[test]
fn the_first_launch_ends_with_the_device_variables_of_the_whole_program() {
    // Traced alone, the first tick finds hits = 0 (static storage starts zeroed); the second
    // tick runs after it, so at the end hits = 48.
    let src = DEVICE_VARS.replace("COPY", "");
    let t = run_entry(&src, "tick", false);
    let at_launch = t
        .initial_memory
        .buffers
        .iter()
        .find(|b| b.name == "hits")
        .map(|b| crate::cells::cell_ints(&b.cells))
        .unwrap_or_default();
    assert_eq!(at_launch, vec![Some(0)]);
    assert_eq!(ints(&t, "hits"), vec![Some(48)]);
}

#[test]
fn a_value_copied_back_from_a_device_variable_is_not_made_up() {
    // `got` holds the device's value after cudaMemcpyFromSymbol, which host code does not
    // know: the launch given it says so rather than passing the old 1.
    let src = "\
__device__ int hits;
__global__ void tick() { atomicAdd(&hits, 1); }
__global__ void show(int* out, int v) { out[threadIdx.x] = v; }
int main() {
  int* out;
  int got = 1;
  cudaMalloc(&out, sizeof(int));
  tick<<<1, 4>>>();
  cudaMemcpyFromSymbol(&got, hits, sizeof(int));
  show<<<1, 1>>>(out, got);
  return 0;
}
";
    let t = run_entry(src, "show", false);
    assert!(
        has(
            &t,
            Level::Warning,
            "cudaMemcpyFromSymbol` at line 9 copies the device's value"
        ),
        "{:?}",
        said(&t, Level::Warning)
    );
    assert_eq!(ints(&t, "out"), vec![None]);
}

/// A host `switch` over launches: `MODE` and `LABELS` are replaced per test.
const SWITCH: &str = "\
__global__ void setv(int* o, int v) { o[threadIdx.x] = v; }
__global__ void addv(int* o, int v) { o[threadIdx.x] = o[threadIdx.x] + v; }
__global__ void show(const int* o, int* res) { res[threadIdx.x] = o[threadIdx.x]; }
int main() {
  int mode = MODE;
  int *o, *res;
  cudaMalloc(&o, 4 * sizeof(int));
  cudaMalloc(&res, 4 * sizeof(int));
  setv<<<1, 4>>>(o, 1);
  switch (mode) {
    LABELS
  }
  show<<<1, 4>>>(o, res);
  return 0;
}
";

fn switch_result(mode: &str, labels: &str) -> Vec<Option<i128>> {
    let src = SWITCH.replace("MODE", mode).replace("LABELS", labels);
    ints(&run_entry(&src, "show", false), "res")
}

#[test]
fn a_host_switch_runs_the_case_its_selector_picks_and_falls_through_to_the_break() {
    // mode 1: case 1 adds 10, falls into case 2 (adds 100), whose break leaves: 1 + 110 = 111.
    let labels = "case 1: addv<<<1, 4>>>(o, 10);\n    case 2: addv<<<1, 4>>>(o, 100); break;\n    \
                  default: addv<<<1, 4>>>(o, 1000); break;";
    assert_eq!(switch_result("1", labels), vec![Some(111); 4]);
    // mode 2: only case 2's launch: 101. mode 2 + 5 = 7 matches no case: default, 1001.
    assert_eq!(switch_result("2", labels), vec![Some(101); 4]);
    assert_eq!(switch_result("2 + 5", labels), vec![Some(1001); 4]);
}

#[test]
fn a_host_switch_whose_selector_matches_no_label_and_has_no_default_runs_nothing() {
    // mode 3: neither case runs; o keeps setv's 1.
    let labels =
        "case 1: addv<<<1, 4>>>(o, 10); break;\n    case 2: addv<<<1, 4>>>(o, 100); break;";
    assert_eq!(switch_result("3", labels), vec![Some(1); 4]);
}

#[test]
fn main_is_read_as_run_without_command_line_arguments() {
    // argc is 1 (the program's name alone), so `n` keeps 12: 12 cells of 3 * i + 1.
    let src = "\
#include <cstdlib>
__global__ void fill(int* y, int n) { int i = threadIdx.x; if (i < n) y[i] = 3 * i + 1; }
int main(int argc, char** argv) {
  int n = 12;
  if (argc > 1) n = atoi(argv[1]);
  if (argc >= 3) n = 5;
  int* y;
  cudaMalloc(&y, n * sizeof(int));
  fill<<<1, n>>>(y, n);
  return 0;
}
";
    let t = run_entry(src, "fill", false);
    let want: Vec<Option<i128>> = (0..12).map(|i| Some(3 * i + 1)).collect();
    assert_eq!(ints(&t, "y"), want);
}

#[test]
fn a_device_to_device_copy_and_a_memset_sized_by_a_host_array_are_read() {
    // h = {9, 8, 7, 6} copied to a, a copied whole to b (sizeof(h) = 4 * 4 = 16 bytes);
    // c is cleared by cudaMemset(c, 0, sizeof(h)). pair: out = b + c = 9, 8, 7, 6.
    let src = "\
__global__ void pair(const int* b, const int* c, int* out) {
  int i = threadIdx.x; out[i] = b[i] + c[i];
}
int main() {
  int h[4] = {9, 8, 7, 6};
  int *a, *b, *c, *out;
  cudaMalloc(&a, sizeof(h)); cudaMalloc(&b, sizeof(h));
  cudaMalloc(&c, sizeof(h)); cudaMalloc(&out, sizeof(h));
  cudaMemcpy(a, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(b, a, sizeof(h), cudaMemcpyDeviceToDevice);
  cudaMemset(c, 0, sizeof(h));
  pair<<<1, 4>>>(b, c, out);
  return 0;
}
";
    let t = run_entry(src, "pair", false);
    assert_eq!(ints(&t, "out"), vec![Some(9), Some(8), Some(7), Some(6)]);
}

#[test]
fn a_device_to_device_copy_carries_what_an_earlier_launch_left() {
    // seed writes a[i] = 5 * i; b is a's copy: out = b = 0, 5, 10, 15.
    let src = "\
__global__ void seed(int* a) { a[threadIdx.x] = 5 * threadIdx.x; }
__global__ void show(const int* b, int* out) { out[threadIdx.x] = b[threadIdx.x]; }
int main() {
  int *a, *b, *out;
  cudaMalloc(&a, 16); cudaMalloc(&b, 16); cudaMalloc(&out, 16);
  seed<<<1, 4>>>(a);
  cudaMemcpy(b, a, 16, cudaMemcpyDeviceToDevice);
  show<<<1, 4>>>(b, out);
  return 0;
}
";
    let t = run_entry(src, "show", false);
    assert_eq!(ints(&t, "out"), vec![Some(0), Some(5), Some(10), Some(15)]);
}

#[test]
fn two_extern_shared_arrays_are_the_same_memory() {
    // CUDA C++ Programming Guide, __shared__: every `extern __shared__` array starts at the same
    // address. Writing 7 * i + 2 through `ints` and reading through `uints`: 2, 9, 16, 23.
    let src = "\
__global__ void k(unsigned* o) {
  extern __shared__ int ints[];
  extern __shared__ unsigned uints[];
  ints[threadIdx.x] = 7 * threadIdx.x + 2;
  __syncthreads();
  o[threadIdx.x] = uints[threadIdx.x];
}
int main() { unsigned* o; cudaMalloc(&o, 16); k<<<1, 4, 16>>>(o); return 0; }
";
    let t = run_entry(src, "k", false);
    assert_eq!(ints(&t, "o"), vec![Some(2), Some(9), Some(16), Some(23)]);
}

#[test]
fn an_int_whose_bits_are_a_float_nan_keeps_its_bits_in_float_memory() {
    // -1 - t through an `int*` into float-typed dynamic shared memory and global memory: the
    // bits 0xffffffff, 0xfffffffe, … are NaNs as floats, but memory holds bytes, so reading
    // them back through the `int*` gives -1 - t exactly; 7 added: 6, 5, 4, 3.
    let src = "\
__global__ void k(float* ws, int* o, int* p) {
  extern __shared__ float smem[];
  int* keys = (int*)smem;
  int* idx = (int*)ws;
  keys[threadIdx.x] = -1 - (int)threadIdx.x;
  idx[threadIdx.x] = -1 - (int)threadIdx.x;
  __syncthreads();
  o[threadIdx.x] = keys[threadIdx.x] + 7;
  p[threadIdx.x] = idx[threadIdx.x] + 7;
}
int main() {
  float* ws; int *o, *p;
  cudaMalloc(&ws, 16); cudaMalloc(&o, 16); cudaMalloc(&p, 16);
  k<<<1, 4, 16>>>(ws, o, p);
  return 0;
}
";
    let t = run_entry(src, "k", false);
    let want = vec![Some(6), Some(5), Some(4), Some(3)];
    assert_eq!(ints(&t, "o"), want);
    assert_eq!(ints(&t, "p"), want);
}

#[test]
fn a_float_read_of_nan_bits_stored_through_an_int_is_undefined_saying_so() {
    // The float `ws[0]` holds 0xffffffff, a NaN whose payload no float value keeps: undefined,
    // with the bits named.
    let src = "\
__global__ void k(float* ws, float* o) {
  int* idx = (int*)ws;
  idx[threadIdx.x] = -1;
  o[threadIdx.x] = ws[threadIdx.x] + 1.0f;
}
int main() { float *ws, *o; cudaMalloc(&ws, 16); cudaMalloc(&o, 16); k<<<1, 4>>>(ws, o); return 0; }
";
    let t = run_entry(src, "k", false);
    assert!(has(&t, Level::Warning, "holds the bytes 0xffffffff, a NaN"));
    assert_eq!(crate::support::floats(&t, "o"), vec![None; 4]);
}
