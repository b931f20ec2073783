//! A default argument that calls a `constexpr` function of the source (tilelang-metax's
//! `get_lane_idx(int warp_size = detail::default_warp_size())`): the call is a constant
//! expression (C++17 [expr.const]/2, [dcl.constexpr]/2), so a call that leaves the argument
//! out passes that constant ([dcl.fct.default]/1). Before, the run stopped at the default with
//! "calls to other kernel functions are not supported". Expected values by hand in comments.

use crate::support::{block, ints, run_finished};

#[test]
fn a_default_argument_calling_a_constexpr_function_is_its_value() {
    let src = "\
namespace detail {
__device__ constexpr int default_width() { return 16; }
}
__device__ int lane_in(int width = detail::default_width()) { return threadIdx.x % width; }
__global__ void k(int *o) { o[threadIdx.x] = lane_in() + 100 * lane_in(4); }
";
    // Thread t: t % 16 + 100 * (t % 4); t = 0..31.
    let t = run_finished(src, block(32));
    let want: Vec<Option<i128>> = (0..32).map(|t| Some(t % 16 + 100 * (t % 4))).collect();
    assert_eq!(ints(&t, "o"), want);
}
