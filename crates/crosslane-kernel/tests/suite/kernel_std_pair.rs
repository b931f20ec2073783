//! `thrust::pair` / `std::pair`, `make_pair` and `tie(a, b) = p;` (C++17 [pairs.pair]: members
//! `first`, `second`, the default constructor value-initializing both, `pair(x, y)`;
//! [pairs.spec]/9 `make_pair`; [tuple.creation]/8 `tie`; Thrust's pair and tie the same), the
//! shape of a warp arg-min that returns a pair and a Welford reduction that unpacks one.
//! Expected values are worked out from the definitions in the comments.

use crate::support::{floats, ints, launch, run_finished};
use crosslane_core::op::Dialect;

const SRC: &str = "#include <thrust/pair.h>
#include <thrust/tuple.h>
#include <utility>
__device__ thrust::pair<float, int> warp_min(float v, int i) {
  for (int o = 16; o > 0; o /= 2) {
    float ov = __shfl_xor_sync(0xffffffffu, v, o);
    int oi = __shfl_xor_sync(0xffffffffu, i, o);
    if (ov < v || (ov == v && oi < i)) { v = ov; i = oi; }
  }
  return thrust::pair<float, int>(v, i);
}
template <typename P>
__device__ P twice(P p) { return P(p.first * 2, p.second * 2); }
__global__ void k(const float* x, float* outv, int* outi, float* z) {
  float v;
  int i;
  thrust::tie(v, i) = warp_min(x[threadIdx.x], threadIdx.x);
  outv[threadIdx.x] = v;
  outi[threadIdx.x] = i;
  std::pair<float, float> d;
  auto m = std::make_pair(2.5f, 4);
  auto t = twice<std::pair<float, float>>(std::pair<float, float>(1.5f, 3.0f));
  if (threadIdx.x == 0) {
    z[0] = d.first; z[1] = d.second;
    z[2] = m.first; z[3] = (float)m.second;
    z[4] = t.first; z[5] = t.second;
  }
}";

/// x[t] = (7t + 5) mod 32, a permutation of 0..31 (Python: `[(t*7+5)%32 for t in range(32)]`).
const X: &str =
    "5,12,19,26,1,8,15,22,29,4,11,18,25,0,7,14,21,28,3,10,17,24,31,6,13,20,27,2,9,16,23,30";

#[test]
fn a_pair_is_returned_unpacked_made_and_passed_as_a_template_argument() {
    let t = run_finished(
        SRC,
        launch(
            Dialect::Cuda,
            32,
            &[
                ("x", 32, X),
                ("outv", 32, "0"),
                ("outi", 32, "0"),
                ("z", 6, "-1"),
            ],
        ),
    );
    // The minimum 0 sits at t = 13 (7 * 13 + 5 = 96 = 3 * 32): every lane's arg-min.
    assert_eq!(floats(&t, "outv"), vec![Some(0.0); 32]);
    assert_eq!(ints(&t, "outi"), vec![Some(13); 32]);
    // A default pair is (0, 0); make_pair(2.5f, 4) is (2.5, 4); twice((1.5, 3)) is (3, 6).
    assert_eq!(
        floats(&t, "z"),
        [0.0, 0.0, 2.5, 4.0, 3.0, 6.0].map(Some).to_vec()
    );
}
