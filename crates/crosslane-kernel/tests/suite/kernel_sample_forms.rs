//! Shapes of the vendor samples' code that crosslane refused or left undefined, each in a
//! kernel written here: a host array from `calloc` (C11 7.22.3.2/2: all bits zero), a
//! `__shared__` written after the type (`extern float __shared__ s[];`, C++17 [dcl.spec]/1:
//! decl-specifiers in any order), and `return {};` in a lambda with a trailing return type
//! (C++17 [stmt.return]/2: copy-list-initialization of the return type). Expected values are
//! worked out by hand in the comments.

use crate::support::{floats, has, ints, launch_grid, refused, run_default, run_finished};
use crosslane_core::Level;
use crosslane_kernel::LaunchConfig;

#[test]
fn a_calloc_host_array_is_zeros_in_every_form() {
    // Each of the three host arrays is all zeros (calloc); the kernel adds 1 + 2t + the three
    // cells, so b[t] = 1 + 2t: 1 3 5 7 … and the flags of the bool array (all false) are 0.
    let src = "#include <cstdlib>
__global__ void k(const float *a, int *b, const double *c, const bool *f, int *g) {
  int t = threadIdx.x;
  b[t] += (int)a[t] + (int)c[t] + 1 + 2 * t;
  g[t] = f[t] ? 7 : 0;
}
int main() {
  const int n = 8;
  float *ha = (float *)calloc(n, sizeof(float));
  int *hb;
  hb = static_cast<int *>(calloc(n * 2, sizeof(int) / 2));
  double *hc = (double *)std::calloc(n, sizeof(double));
  bool *hf = NULL;
  hf = reinterpret_cast<bool *>(calloc(n, sizeof(bool)));
  float *da; int *db; double *dc; bool *df; int *dg;
  cudaMalloc(&da, n * sizeof(float)); cudaMalloc(&db, n * sizeof(int));
  cudaMalloc(&dc, n * sizeof(double)); cudaMalloc(&df, n * sizeof(bool));
  cudaMalloc(&dg, n * sizeof(int));
  cudaMemcpy(da, ha, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, hc, n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(df, hf, n * sizeof(bool), cudaMemcpyHostToDevice);
  k<<<1, n>>>(da, db, dc, df, dg);
  return 0;
}
";
    let t = run_default(src);
    assert!(!has(&t, Level::Warning, ""), "{:?}", t.merged_diagnostics);
    let want: Vec<Option<i128>> = (0..8).map(|i| Some(1 + 2 * i)).collect();
    assert_eq!(ints(&t, "b"), want);
    assert_eq!(ints(&t, "g"), vec![Some(0); 8]);
}

#[test]
fn a_calloc_of_no_whole_element_count_is_left_to_the_other_readers() {
    // 10 bytes are no whole number of 4-byte ints: the cells are not made up (undefined,
    // with the host reading's warning).
    let src = "#include <cstdlib>
__global__ void k(const int *a, int *b) { b[threadIdx.x] = a[threadIdx.x]; }
int main() {
  int *h = (int *)calloc(5, 2);
  int *da, *db;
  cudaMalloc(&da, 2 * sizeof(int)); cudaMalloc(&db, 2 * sizeof(int));
  cudaMemcpy(da, h, 2 * sizeof(int), cudaMemcpyHostToDevice);
  k<<<1, 2>>>(da, db);
}
";
    let t = run_default(src);
    assert_eq!(ints(&t, "b"), vec![None, None]);
}

#[test]
fn shared_written_after_the_type_is_the_same_shared_array() {
    // A block sum through `extern double __shared__ s[]` and a second dynamic array written
    // `extern float __shared__ t[]` (the same buffer, [dcl.spec]/1 order): 64 threads of
    // value t + 1 sum to 64 * 65 / 2 = 2080 per block; block 1 adds 64 more per thread:
    // (65 + 128) * 64 / 2 = 6176.
    let src = "__global__ void sum(const float *in, float *out) {
  extern double __shared__ s[];
  unsigned int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = (float)s[0];
}
__global__ void copy(float *out) {
  extern float __shared__ t[];
  t[threadIdx.x] = (float)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = t[(threadIdx.x + 1) % blockDim.x];
}
";
    let mut c = launch_grid(64, 2, &[("in", 128, "i+1"), ("out", 2, "0")]);
    // One cell of the dynamic array per thread (the default).
    c.shared_len = Some(64);
    let t = run_finished(src, c);
    assert_eq!(floats(&t, "out"), vec![Some(2080.0), Some(6176.0)]);
    // The second kernel: out[t] = (t + 1) % 4 over 4 threads: 1 2 3 0.
    let mut c = launch_grid(4, 1, &[("out", 4, "0")]);
    c.entry = Some("copy".into());
    let t = run_finished(src, c);
    assert_eq!(
        floats(&t, "out"),
        vec![Some(1.0), Some(2.0), Some(3.0), Some(0.0)]
    );
}

#[test]
fn return_braces_in_a_lambda_with_a_return_type() {
    // `-> const uint4` / `-> int`: `return {};` is the zero value; `return {a, b, c, d}` the
    // vector. Lane t: pick(t % 5): t%5 < 4 gives component t%5 of {t, 10t, 100t, 1000t},
    // else the zero vector's x = 0; plus f(t) = t for t > 0, 0 for t = 0.
    // t = 0..5: 0+0, 10+1, 200+2, 3000+3, 0+4, 5+5 = 0 11 202 3003 4 10.
    let src = "__global__ void k(int *out) {
  unsigned int t = threadIdx.x;
  auto pick = [&](unsigned int i) -> const uint4 {
    uint4 v = {t, 10 * t, 100 * t, 1000 * t};
    switch (i) {
      case 0: return make_uint4(v.x, 0, 0, 0);
      case 1: return {v.y, 0, 0, 0};
      case 2: return {v.z, 0, 0, 0};
      case 3: return {v.w, 0, 0, 0};
    }
    return {};
  };
  auto f = [](int x) -> int { if (x > 0) return x; return {}; };
  out[t] = (int)pick(t % 5).x + f((int)t);
}
";
    let mut c = LaunchConfig::default();
    c.block_dim = Some([6, 1, 1]);
    let t = run_finished(src, c);
    let want: Vec<Option<i128>> = [0, 11, 202, 3003, 4, 10].iter().map(|&v| Some(v)).collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn return_braces_in_a_lambda_without_a_return_type_is_refused_clearly() {
    // [dcl.spec.auto]: a braced list deduces no type; the message says what to write.
    let src = "__global__ void k(int *out) {
  auto f = [](int x) { if (x > 0) return x; return {}; };
  out[threadIdx.x] = f(threadIdx.x);
}
";
    let m = refused(src, LaunchConfig::default());
    assert!(m.contains("-> float"), "{m}");
    assert!(m.contains("lambda"), "{m}");
}
