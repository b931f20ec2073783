//! Structured bindings in host code (C++17 [dcl.struct.bind]/1, /4: each name is its element
//! of the pair or tuple, in order) feeding a launch: `auto [a, b] = std::make_tuple(x, y);`
//! and `auto [p, q] = f(…);` of a host function returning `std::make_pair(…)` / `{…}`. An
//! element with no constant value leaves its name unknown, and the launch asks for `--arg`.
//! Programs written here; expected values by hand beside each test.

use crate::support::{ints, run_finished, said};
use crosslane_core::result::Level;
use crosslane_kernel::exec::LaunchConfig;

const SCALE: &str = "\
#include <tuple>
#include <utility>
#include <vector>
__global__ void scale(const int* in, int* out, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * k;
}
";

/// `params()` returns `make_tuple(3, 100)`: k = 3, n = 100; `launch_dims(100)` returns
/// `{(100 + 63) / 64, 64}` = {2, 64}; `const auto [a, b] = std::make_tuple(k, 7)`: a + b = 10.
/// The launch is 2 blocks of 64 threads, `out[i] = 10 i` for i < 100.
#[test]
fn bindings_of_made_and_returned_pairs_and_tuples_feed_a_launch() {
    let src = format!(
        "{SCALE}\
std::pair<unsigned, unsigned> launch_dims(unsigned n) {{
  return {{(n + 63) / 64, 64}};
}}
std::tuple<int, int> params() {{ return std::make_tuple(3, 100); }}
int main() {{
  auto [k, n] = params();
  auto [blocks, threads] = launch_dims(n);
  const auto [a, b] = std::make_tuple(k, 7);
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = i;
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  scale<<<blocks, threads>>>(d_in, d_out, a + b, n);
}}
"
    );
    let t = run_finished(&src, LaunchConfig::default());
    assert_eq!(t.launch.grid_dim, [2, 1, 1]);
    assert_eq!(t.launch.block_dim, [64, 1, 1]);
    let want: Vec<Option<i128>> = (0..100).map(|i| Some(10 * i)).collect();
    assert_eq!(ints(&t, "out"), want);
}

/// A helper with a parameter and a local before its `return std::make_pair(…)`:
/// `grid_for(200)` with `int t = 128;` is `((200 + 127) / 128, 128)` = (2, 128); a tuple of
/// three made in place, `std::tuple<int, int, int>{4, t, 1}`, binds by position.
/// `out[i] = i * 4` for i < 200.
#[test]
fn a_helper_with_a_parameter_and_a_three_element_tuple() {
    let src = format!(
        "{SCALE}\
std::pair<int, int> grid_for(int n) {{
  int t = 128;
  return std::make_pair((n + t - 1) / t, t);
}}
int main() {{
  int n = 200;
  auto [g, b] = grid_for(n);
  auto& [k, unused, one] = std::tuple<int, int, int>{{4, b, 1}};
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = i;
  cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  scale<<<g, b>>>(d_in, d_out, k * one, n);
}}
"
    );
    let t = run_finished(&src, LaunchConfig::default());
    assert_eq!(t.launch.grid_dim, [2, 1, 1]);
    assert_eq!(t.launch.block_dim, [128, 1, 1]);
    let want: Vec<Option<i128>> = (0..200).map(|i| Some(4 * i)).collect();
    assert_eq!(ints(&t, "out"), want);
}

/// An element with no constant value (`rand() % 4`): its name is unknown, said with the
/// binding's line, and the launch's argument asks for `--arg` (no value picked); the other
/// element (n = 32) is known.
#[test]
fn an_unknown_element_leaves_its_name_unknown_and_the_launch_says_so() {
    let src = format!(
        "{SCALE}\
int main() {{
  auto [k, n] = std::make_pair(rand() % 4, 32);
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemset(d_in, 0, n * sizeof(int));
  scale<<<1, n>>>(d_in, d_out, k, n);
}}
"
    );
    let t = run_finished(&src, LaunchConfig::default());
    assert_eq!(t.launch.block_dim, [32, 1, 1]);
    let got = said(&t, Level::Warning);
    assert!(
        got.iter().any(
            |m| m.contains("argument `k` of this launch (`k`) is not a constant")
                && m.contains("structured binding at line 9")
                && m.contains("--arg k=VALUE")
        ),
        "{got:#?}"
    );
    assert_eq!(ints(&t, "out"), vec![None; 32]);
}

/// Device code's `std::pair` (read as a class template of two members, [pairs.pair]) and a
/// plain host function returning `std::make_pair(…)` in one file: the function stays a host
/// function whose result the binding reads. `grid_of(96)` = ((96 + 31) / 32, 32) = (3, 32);
/// each thread stores `p.first * p.second` = (i mod 32) · 5.
#[test]
fn device_pairs_and_a_host_function_returning_a_pair_in_one_file() {
    let src = "\
#include <utility>
__global__ void pairs(int* out, int k) {
  int t = threadIdx.x;
  auto p = std::make_pair(t, k);
  out[blockIdx.x * blockDim.x + threadIdx.x] = p.first * p.second;
}
std::pair<int, int> grid_of(int n) {
  return std::make_pair((n + 31) / 32, 32);
}
int main() {
  auto [g, b] = grid_of(96);
  int* d_out;
  cudaMalloc(&d_out, 96 * sizeof(int));
  pairs<<<g, b>>>(d_out, 5);
}
";
    let t = run_finished(src, LaunchConfig::default());
    assert_eq!(t.launch.grid_dim, [3, 1, 1]);
    assert_eq!(t.launch.block_dim, [32, 1, 1]);
    let want: Vec<Option<i128>> = (0..96).map(|i| Some((i % 32) * 5)).collect();
    assert_eq!(ints(&t, "out"), want);
}
