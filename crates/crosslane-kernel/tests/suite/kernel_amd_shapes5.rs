//! Shapes of AMD's public HIP test programs found in a fifth round (hip-tests' cooperative
//! groups and device-library tests, written as Catch2 test cases that loop over
//! `std::vector<unsigned> sizes = {…}` and call a `static void test_…(unsigned n)` helper):
//! kernels and host code written here in those shapes, never copied. Expected values follow
//! the C++17 standard's range-for ([stmt.ranged]/1), for ([stmt.for]/1) and array bound
//! ([dcl.array]/3) rules; the sums are computed by the Python lines quoted beside each test.

use crate::support::{ints, no_errors, run_finished};
use crosslane_core::Dialect;
use crosslane_kernel::LaunchConfig;

fn hip(lanes: usize) -> LaunchConfig {
    LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(lanes),
        ..LaunchConfig::default()
    }
}

/// Each launch adds its argument into every thread's cell, so the final buffer is the sum
/// over all the launches host code makes.
const ADD: &str = "\
#include <hip/hip_runtime.h>
#include <vector>
__global__ void add(int* out, int n) { atomicAdd(&out[threadIdx.x], n); }
";

#[test]
fn range_for_over_a_braced_vector_launches_once_per_element() {
    // Python: sum([7, 2, 3]) == 12
    let src = format!(
        "{ADD}int main() {{
  int* d; hipMalloc(&d, 32 * sizeof(int)); hipMemset(d, 0, 32 * sizeof(int));
  std::vector<unsigned int> sizes = {{7, 2, 3}};
  for (auto s : sizes) {{
    hipLaunchKernelGGL(add, 1, 32, 0, 0, d, s);
  }}
}}"
    );
    let t = run_finished(&src, hip(64));
    no_errors(&t);
    assert_eq!(ints(&t, "out"), vec![Some(12); 32]);
}

#[test]
fn range_for_over_an_unsized_array_and_a_helper_with_its_own_loop() {
    // Python: [t * 100 + c for t in [2, 4] for c in [1, 2, 3]][0] == 201 (the first launch)
    let src = format!(
        "{ADD}static void run_sizes(unsigned t) {{
  std::vector<unsigned int> cgs = {{1, 2, 3}};
  for (auto c : cgs) {{
    int* d; hipMalloc(&d, 32 * sizeof(int)); hipMemset(d, 0, 32 * sizeof(int));
    hipLaunchKernelGGL(add, 1, 32, 0, 0, d, t * 100 + c);
  }}
}}
int main() {{
  int tiles[] = {{2, 4}};
  for (auto t : tiles) run_sizes(t);
}}"
    );
    let t = run_finished(&src, hip(64));
    no_errors(&t);
    // Each launch allocates its own buffer: the first launch's is the traced one.
    assert_eq!(ints(&t, "out"), vec![Some(201); 32]);
}

#[test]
fn a_loop_variable_hiding_the_outer_one_ends_with_its_loop() {
    // The inner `int s` ends with its loop ([stmt.for]/1): each launch gets the outer element.
    // Python: sum([5, 6]) == 11
    let src = format!(
        "{ADD}int main() {{
  int* d; hipMalloc(&d, 32 * sizeof(int)); hipMemset(d, 0, 32 * sizeof(int));
  int h[8];
  std::vector<int> sizes = {{5, 6}};
  for (auto s : sizes) {{
    for (int s = 0; s < 8; s++) {{ h[s] = 1; }}
    hipLaunchKernelGGL(add, 1, 32, 0, 0, d, s);
  }}
}}"
    );
    let t = run_finished(&src, hip(32));
    no_errors(&t);
    assert_eq!(ints(&t, "out"), vec![Some(11); 32]);
}

#[test]
fn a_loop_bounded_by_sizeof_of_an_unsized_array_calls_its_helper_per_element() {
    // `int sizes[] = {10, 40};` has bound 2 ([dcl.array]/3), so `sizeof(sizes) /
    // sizeof(sizes[0])` is 2 and the first call launches a block of 10 threads.
    let src = "\
#include <hip/hip_runtime.h>
__global__ void bs(int* out) { out[threadIdx.x] = (int)blockDim.x; }
void test_size(int blockSize) {
  int* d;
  hipMalloc(&d, 2 * blockSize * sizeof(int));
  hipLaunchKernelGGL(bs, 1, blockSize, 0, 0, d);
}
int main() {
  int sizes[] = {10, 40};
  for (unsigned long i = 0; i < (sizeof(sizes) / sizeof(sizes[0])); ++i) test_size(sizes[i]);
}";
    let t = run_finished(src, hip(64));
    no_errors(&t);
    // The first launch is traced: a block of 10 threads, its buffer of 20 cells.
    assert_eq!(t.launch.block_dim, [10, 1, 1]);
    let out = ints(&t, "out");
    assert_eq!(out.len(), 20);
    assert_eq!(out[..10], vec![Some(10); 10][..]);
}
