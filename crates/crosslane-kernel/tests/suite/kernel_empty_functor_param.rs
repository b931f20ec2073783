//! A kernel parameter of a class without data members (a stateless functor, `Op op`), the
//! shape of generic transform and reduce kernels (`apply<<<g, b>>>(Twice(), out, n)`): it takes
//! no parameter of its own, and the launch's later arguments still bind to their parameters
//! (C++17 [expr.call]/4: each parameter is initialized with its own argument). Kernels written
//! here, expected values by hand.

use crate::support::{ints, run_finished};
use crosslane_kernel::LaunchConfig;

const APPLY: &str = "\
#include <cuda_runtime.h>
struct Twice { __device__ int operator()(int v) const { return 2 * v; } };
struct AddOne { __device__ int operator()(int v) const { return v + 1; } };
template <class Op, class Op2>
__global__ void apply(Op op, int* out, Op2 op2, int n, int bias) {
  int i = threadIdx.x;
  if (i < n) out[i] = op2(op(i)) + bias;
}
int main() {
  int* d;
  cudaMalloc(&d, 8 * sizeof(int));
  cudaMemset(d, 0, 8 * sizeof(int));
  AddOne one;
  apply<<<1, 8>>>(Twice(), d, one, 5, 100);
}
";

#[test]
fn arguments_after_a_stateless_functor_bind_to_their_own_parameters() {
    // out[i] = 2*i + 1 + 100 for i < 5, the memset's 0 after.
    let t = run_finished(APPLY, LaunchConfig::default());
    assert_eq!(
        ints(&t, "out"),
        [101, 103, 105, 107, 109, 0, 0, 0]
            .iter()
            .map(|&v| Some(v))
            .collect::<Vec<_>>()
    );
}
