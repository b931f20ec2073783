//! Shapes of AMD's public HIP code found in a sixth round (ROCm hip-tests' deviceLib
//! `syncthreadscount` table of block sizes, aiter's and a DPP-reduction header's
//! `using … = __attribute__((ext_vector_type(N))) T;` aliases, MFMA wrappers and buffer-resource
//! aliases beside the reductions a kernel calls): kernels written here in those shapes, never
//! copied. Expected values come from the HIP Programming Guide (`__syncthreads_count`,
//! `__shfl_xor`), clang's "Vectors and Extended Vectors", the C++17 standard, and the Python
//! models quoted beside each test.

use crate::support::{floats, has, ints, launch_lanes, no_errors, refused, run_finished};
use crosslane_core::result::Level;
use crosslane_core::Dialect;
use crosslane_kernel::LaunchConfig;

fn hip(launch: Option<usize>, entry: Option<&str>) -> LaunchConfig {
    LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(64),
        launch,
        entry: entry.map(str::to_string),
        ..LaunchConfig::default()
    }
}

/// A test case looping over a table of block sizes, calling a helper with one element of the
/// table by value; the helper allocates and launches (hip-tests' `test_syncthreads_count(
/// blockSizes[i])`).
const SIZE_TABLE: &str = "\
#include <hip/hip_runtime.h>
__global__ void count_k(int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __syncthreads_count(threadIdx.x % 3 == 0);
}
static void run_case(int bs) {
  int* d;
  hipMalloc(&d, sizeof(int) * 2 * bs);
  hipLaunchKernelGGL(count_k, 2, bs, 0, 0, d);
  hipFree(d);
}
int main() {
  int sizes[] = {6, 20, 33};
  for (unsigned long i = 0; i < (sizeof(sizes) / sizeof(sizes[0])); ++i) run_case(sizes[i]);
  return 0;
}";

#[test]
fn a_helper_called_with_a_table_element_in_a_loop_launches_once_per_element() {
    // `sizes[i]` is copied into the by-value `bs`, so the table keeps its values and each
    // iteration's call launches with its own block: three launches. __syncthreads_count
    // returns, to every thread, how many threads of the block passed a nonzero predicate
    // (HIP Programming Guide): Python `sum(t % 3 == 0 for t in range(bs))` = 2, 7, 11.
    for (launch, bs, count) in [(1usize, 6usize, 2i128), (2, 20, 7), (3, 33, 11)] {
        let t = run_finished(SIZE_TABLE, hip(Some(launch), None));
        no_errors(&t);
        let out = ints(&t, "out");
        assert_eq!(out.len(), 2 * bs, "launch {launch}");
        assert!(
            out.iter().all(|v| *v == Some(count)),
            "launch {launch}: {out:?}"
        );
    }
}

/// clang extended vectors declared by alias-declarations, the attribute before the element
/// type (aiter's `using i32x4 = __attribute__((ext_vector_type(4))) int;`) and after it.
const USING_VECTORS: &str = "\
#include <hip/hip_runtime.h>
using f32x4 = __attribute__((ext_vector_type(4))) float;
using i32x2 = int __attribute__((ext_vector_type(2)));
__global__ void k(float* o, int* p) {
  f32x4 v = {1.0f, 2.0f, 3.0f, 4.0f};
  v = v * 2.0f;
  o[threadIdx.x] = v.z + v[1] + (float)threadIdx.x;
  i32x2 w = {5, 7};
  p[threadIdx.x] = w.x * w.y + (int)threadIdx.x;
}";

#[test]
fn using_declared_ext_vectors_are_vectors() {
    // clang: `v * 2.0f` broadcasts the scalar, so v = {2, 4, 6, 8}; v.z + v[1] = 6 + 4 = 10,
    // plus the lane: o[l] = 10 + l. w.x * w.y = 35: p[l] = 35 + l.
    let t = run_finished(USING_VECTORS, hip(None, None));
    no_errors(&t);
    let o: Vec<Option<f64>> = (0..64).map(|l| Some(10.0 + f64::from(l))).collect();
    assert_eq!(floats(&t, "o"), o);
    let p: Vec<Option<i128>> = (0..64).map(|l| Some(35 + i128::from(l))).collect();
    assert_eq!(ints(&t, "p"), p);
}

/// A header's device helpers: an MFMA wrapper no kernel calls, beside the wave reduction the
/// file's one kernel calls.
fn mfma_header(kernel_body: &str) -> String {
    format!(
        "\
#include <hip/hip_runtime.h>
typedef _Float16 half4_t __attribute__((ext_vector_type(4)));
typedef float f32x4 __attribute__((ext_vector_type(4)));
__device__ __forceinline__ f32x4 mfma_16x16x16(half4_t a, half4_t b, f32x4 c) {{
  return __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, c, 0, 0, 0);
}}
__device__ __forceinline__ float wave_sum(float x) {{
  for (int off = 1; off < 64; off <<= 1) x += __shfl_xor(x, off, 64);
  return x;
}}
__global__ void k(const float* in, float* out) {{
  {kernel_body}
}}"
    )
}

#[test]
fn an_uncalled_mfma_wrapper_does_not_refuse_the_file() {
    // The kernel calls only wave_sum: a butterfly over 64 lanes gives every lane the sum of
    // the index-filled input, 0 + 1 + … + 63 = 2016. The MFMA wrapper is never called, so it
    // is a warning naming it, not the file's refusal.
    let t = run_finished(
        &mfma_header("out[threadIdx.x] = wave_sum(in[threadIdx.x]);"),
        launch_lanes(
            Dialect::Hip,
            64,
            &[("in", 64, "index"), ("out", 64, "zero")],
        ),
    );
    assert_eq!(floats(&t, "out"), vec![Some(2016.0); 64]);
    assert!(has(
        &t,
        Level::Warning,
        "device function `mfma_16x16x16` does not run here"
    ));
}

#[test]
fn a_kernel_calling_the_mfma_wrapper_is_still_refused_before_it_runs() {
    let e = refused(
        &mfma_header(
            "half4_t a = {1, 1, 1, 1}; f32x4 c = {0, 0, 0, 0};
  f32x4 d = mfma_16x16x16(a, a, c);
  out[threadIdx.x] = d.x;",
        ),
        hip(None, None),
    );
    assert!(e.contains("MFMA matrix instruction"), "{e}");
    assert!(e.contains("5:10"), "{e}");
}

/// File-scope aliases of types not modelled (a buffer resource, an 8-element `__bf16`
/// vector), named only by helpers and a kernel the traced run does not reach.
const REFUSED_ALIASES: &str = "\
#include <hip/hip_runtime.h>
using rsrc_t = __amdgpu_buffer_rsrc_t;
using bf16x8 = __attribute__((ext_vector_type(8))) __bf16;
__device__ rsrc_t make_rsrc(const void* p) {
  return __builtin_amdgcn_make_buffer_rsrc((void*)p, 0, 64, 0);
}
__global__ void k(int* o) { o[threadIdx.x] = 3 * (int)threadIdx.x; }
__global__ void k_vec(int* o) { bf16x8 v; o[threadIdx.x] = 1; }
__global__ void k_rsrc(int* o) { rsrc_t r = make_rsrc(o); o[threadIdx.x] = 2; }";

#[test]
fn aliases_of_unmodelled_types_are_errors_of_the_functions_naming_them() {
    // `k` names neither alias: it runs, o[l] = 3l.
    let t = run_finished(REFUSED_ALIASES, hip(None, Some("k")));
    let o: Vec<Option<i128>> = (0..64).map(|l| Some(3 * i128::from(l))).collect();
    assert_eq!(ints(&t, "o"), o);
    // The kernels naming them stop before they run, at the use, with the alias's refusal.
    let e = refused(REFUSED_ALIASES, hip(None, Some("k_vec")));
    assert!(e.contains("8:33"), "{e}");
    assert!(e.contains("unknown type `bf16x8`"), "{e}");
    assert!(e.contains("alias-declaration at line 3"), "{e}");
    assert!(
        e.contains("`ext_vector_type` makes a clang vector type"),
        "{e}"
    );
    let e = refused(REFUSED_ALIASES, hip(None, Some("k_rsrc")));
    assert!(e.contains("unknown type `rsrc_t`"), "{e}");
    assert!(e.contains("`__amdgpu_buffer_rsrc_t`"), "{e}");
}

/// An error-checking macro written as a bare `if` (a GitHub softmax benchmark's
/// `#define checkCudaErrors(val) if (val != hipSuccess) exit(EXIT_FAILURE)`): every runtime
/// call of the program stands in an `if` condition.
const IF_CHECKED: &str = "\
#include <hip/hip_runtime.h>
#define check(val) \\
\tif (val != hipSuccess) exit(EXIT_FAILURE)
__global__ void k(float* in, float* o) { o[threadIdx.x] = in[threadIdx.x] * 2.0f + o[threadIdx.x]; }
int main() {
  float *input, *out;
  check(hipMalloc(reinterpret_cast<void**>(&input), 64 * sizeof(float)));
  check(hipMalloc(reinterpret_cast<void**>(&out), 64 * sizeof(float)));
  float h[64];
  for (int i = 0; i < 64; i++) h[i] = 0.5f * i;
  check(hipMemcpy(input, h, 64 * sizeof(float), hipMemcpyDefault));
  check(hipMemset(out, 0, 64 * sizeof(float)));
  k<<<1, 64>>>(input, out);
  return 0;
}";

#[test]
fn runtime_calls_in_an_if_condition_are_read() {
    // The condition is evaluated, its call with it (C++17 [stmt.if]/1): `input` holds
    // h[l] = l / 2 and `out` zeros, so o[l] = 2 · (l / 2) + 0 = l.
    let t = run_finished(IF_CHECKED, hip(None, None));
    no_errors(&t);
    let o: Vec<Option<f64>> = (0..64).map(|l| Some(f64::from(l))).collect();
    assert_eq!(floats(&t, "o"), o);
}
