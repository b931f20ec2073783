//! A host function that launches a kernel, called from a host loop (`for (int r = 0; r <
//! repeat; r++) launch(d_in, d_out);`, a loop over problem sizes): the call is read with its
//! parameters bound to the caller's pointers (C++17 [expr.call]/4: each parameter is
//! initialized with its argument), once per iteration where the loop can be read iteration by
//! iteration, else once. Before, such a loop was skipped as host code without a launch, and
//! the launch the helper's own definition gave ran with its pointer parameters on the kernel's
//! default index fill: a number host code never wrote. Expected values are worked out by hand
//! in the comment beside each.

use crate::support::{floats, has, ints, run_default};
use crosslane_core::Level;

#[test]
fn a_launcher_called_in_a_timing_loop_reads_the_callers_memset_buffer() {
    let src = "\
__global__ void bump(const int *in, int *out) { out[threadIdx.x] = in[threadIdx.x] + 1; }
void launch(const int *in, int *out) { bump<<<1, 8>>>(in, out); }
int main(int argc, char **argv) {
  int repeat = atoi(argv[1]);
  int *d_in, *d_out;
  cudaMalloc(&d_in, 8 * sizeof(int));
  cudaMalloc(&d_out, 8 * sizeof(int));
  cudaMemset(d_in, 0, 8 * sizeof(int));
  for (int r = 0; r < repeat; r++) launch(d_in, d_out);
  return 0;
}
";
    // `in` is the memset's zeros (never the index fill 0..7), so every `out` cell is 0 + 1.
    let t = run_default(src);
    assert_eq!(ints(&t, "out"), vec![Some(1); 8]);
}

#[test]
fn a_launcher_called_in_a_counted_loop_runs_once_per_iteration_in_order() {
    let src = "\
__global__ void inc(int *p) { p[threadIdx.x] += 2; }
void step(int *p) { inc<<<1, 4>>>(p); }
int main() {
  int *d;
  cudaMalloc(&d, 4 * sizeof(int));
  cudaMemset(d, 0, 4 * sizeof(int));
  for (int r = 0; r < 3; r++) {
    step(d);
  }
  return 0;
}
";
    // Three launches on one stream, each on what the one before left: 0 + 2 + 2 + 2 = 6.
    let t = run_default(src);
    assert_eq!(ints(&t, "p"), vec![Some(6); 4]);
}

#[test]
fn a_launcher_in_a_loop_given_an_unread_host_fill_leaves_the_buffer_undefined() {
    let src = "\
__global__ void twice(const int *x, int *y) { y[threadIdx.x] = 2 * x[threadIdx.x]; }
void run(const int *x, int *y) { twice<<<1, 4>>>(x, y); }
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  int h[4];
  for (int i = 0; i < 4; i++) h[i] = rand() % 7;
  int *d_x, *d_y;
  cudaMalloc(&d_x, 4 * sizeof(int));
  cudaMalloc(&d_y, 4 * sizeof(int));
  cudaMemcpy(d_x, h, 4 * sizeof(int), cudaMemcpyHostToDevice);
  for (int k = 0; k < n; k++) run(d_x, d_y);
  return 0;
}
";
    // `h` is filled by `rand()`, not read here: `x` is undefined, said with the flag to set it
    // (before: the index fill 0, 1, 2, 3 and `y` = 0, 2, 4, 6 with no word).
    let t = run_default(src);
    assert_eq!(ints(&t, "y"), vec![None; 4]);
    assert!(has(&t, Level::Warning, "--buffer x=FILL"));
}

#[test]
fn a_template_launcher_in_a_range_for_deduces_its_type_and_reads_checked_copies() {
    let src = "\
void check(cudaError_t e, const char *file, int line) { if (e != cudaSuccess) exit(1); }
#define cudaCheck(err) (check(err, __FILE__, __LINE__))
template <typename T, int U>
__global__ void scale(const T *in, T *out) { out[threadIdx.x] = in[threadIdx.x] * U; }
template <typename T>
void forward(const T *in, T *out, int bs) {
  constexpr int U = sizeof(uint4) / sizeof(T);
  scale<T, U><<<1, bs>>>(in, out);
}
int main() {
  float h[8];
  for (int i = 0; i < 8; i++) h[i] = 0.5f * i;
  float *d_in, *d_out;
  cudaCheck(cudaMalloc(&d_in, 8 * sizeof(float)));
  cudaCheck(cudaMalloc(&d_out, 8 * sizeof(float)));
  cudaCheck(cudaMemcpy(d_in, h, 8 * sizeof(float), cudaMemcpyHostToDevice));
  int sizes[] = {8};
  for (int bs : sizes) forward(d_in, d_out, 8);
  return 0;
}
";
    // `forward` deduces T = float from `d_in` ([temp.deduct.call]/2), so U = 16 / 4 = 4; the
    // copy inside `cudaCheck(…)` is read: in = 0, 0.5, …, 3.5 and out = 4 · in = 0, 2, …, 14.
    let t = run_default(src);
    let want: Vec<Option<f64>> = (0..8).map(|i| Some(f64::from(2 * i))).collect();
    assert_eq!(floats(&t, "out"), want);
}

#[test]
fn a_helper_that_only_reads_a_filled_array_keeps_its_fill_and_one_that_writes_it_does_not() {
    let src = "\
#include <vector>
__global__ void add(const int *a, const int *b, int *o) { o[threadIdx.x] = a[threadIdx.x] + 100 * b[threadIdx.x]; }
void prepare(std::vector<int> &a, std::vector<int> &b) {
  for (unsigned i = 0; i < 8; ++i) {
    a[i] = (int)(i % 5u);
    b[i] = (int)(i % 3u);
  }
}
void expected(const std::vector<int> &a, const std::vector<int> &b, std::vector<int> &e) {
  for (unsigned i = 0; i < 8; ++i) e[i] = a[i] + 100 * b[i];
}
void scramble(std::vector<int> &b) {
  for (unsigned i = 0; i < 8; ++i) b[i] = rand();
}
int main() {
  std::vector<int> a(8), b(8), e(8);
  prepare(a, b);
  expected(a, b, e);
  int *d_a, *d_b, *d_o;
  cudaMalloc(&d_a, 8 * sizeof(int));
  cudaMalloc(&d_b, 8 * sizeof(int));
  cudaMalloc(&d_o, 8 * sizeof(int));
  cudaMemcpy(d_a, a.data(), 8 * sizeof(int), cudaMemcpyHostToDevice);
  scramble(b);
  cudaMemcpy(d_b, b.data(), 8 * sizeof(int), cudaMemcpyHostToDevice);
  add<<<1, 8>>>(d_a, d_b, d_o);
  return 0;
}
";
    // `expected` only reads `a` and `b`: `a` keeps prepare's fill i % 5 = 0 1 2 3 4 0 1 2
    // (before, passing it to a call lost its fill). `scramble` writes `b` with rand(), which is
    // not read: `b` is undefined, and so is every `o` cell.
    let t = run_default(src);
    assert_eq!(ints(&t, "a"), [0, 1, 2, 3, 4, 0, 1, 2].map(Some).to_vec());
    assert_eq!(ints(&t, "o"), vec![None; 8]);
}
