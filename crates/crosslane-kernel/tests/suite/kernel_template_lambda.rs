//! Template lambdas in device code (C++20 [expr.prim.lambda]/1: `[&]<int N>() { … }`, a call
//! operator template over the written parameters, [expr.prim.lambda.closure]/7) called through a
//! compile-time loop helper as `f.template operator()<I>()` ([temp.names]/4), the shape of the
//! rocm-examples reduction's later versions (`tmp::static_for<…>([&]<uint32_t i>() { … })`),
//! with `if constexpr` inside. Kernels written here; expected values from the Python model
//! quoted beside each test.

use crate::support::{floats, ints, launch_grid, launch_lanes, run_finished};
use crosslane_core::op::Dialect;

/// The compile-time loop every test uses: `f.template operator()<I>()` for I in
/// [Begin, End) by Step, recursing through `if constexpr`.
const STATIC_FOR: &str = "\
namespace tmp {
template <uint32_t I, uint32_t End, uint32_t Step = 1, typename F>
__device__ constexpr void static_for(F&& f) {
  if constexpr (I < End) {
    f.template operator()<I>();
    static_for<I + Step, End, Step>(std::forward<F>(f));
  }
}
}
";

/// A block reduction on wave64 (128 threads, two items per thread, `n` = 500 of 512 cells
/// filled with their index): each thread sums its items through a template lambda, the
/// warps reduce with `__shfl_down`, and warp 0 folds the two warp sums through a second
/// template lambda whose `if constexpr (k < 1)` drops the steps past the warp count.
/// Python: `[sum(x for x in range(b*256, (b+1)*256) if x < 500) for b in (0, 1)]` =
/// `[32640, 92110]`.
#[test]
fn a_template_lambda_through_static_for_in_a_block_reduction() {
    let src = format!(
        "#include <hip/hip_runtime.h>\n#include <cstdint>\n{STATIC_FOR}\
template <uint32_t BlockSize, uint32_t WarpSize, uint32_t ItemsPerThread>
__global__ void reduce(const unsigned* front, unsigned* back, uint32_t n) {{
  static constexpr uint32_t WarpCount = BlockSize / WarpSize;
  __shared__ unsigned shared[WarpCount];
  const uint32_t tid = threadIdx.x, bid = blockIdx.x;
  const uint32_t gid = bid * (BlockSize * ItemsPerThread) + tid;
  const uint32_t wid = tid / WarpSize, lid = tid % WarpSize;
  unsigned res = 0;
  tmp::static_for<0, ItemsPerThread>([&]<uint32_t i>() {{
    const uint32_t idx = gid + i * BlockSize;
    if (idx < n) res += front[idx];
  }});
  for (uint32_t off = WarpSize / 2; off > 0; off /= 2) res += __shfl_down(res, off, WarpSize);
  if (lid == 0) shared[wid] = res;
  __syncthreads();
  if (wid == 0) {{
    res = lid < WarpCount ? shared[lid] : 0;
    tmp::static_for<0, 3>([&]<uint32_t k>() {{
      if constexpr (k < 1) {{
        res += __shfl_down(res, 1u << k, WarpSize);
      }}
    }});
    if (lid == 0) back[bid] = res;
  }}
}}
"
    );
    let mut c = launch_lanes(
        Dialect::Hip,
        128,
        &[("front", 512, "index"), ("back", 2, "zero")],
    );
    c.grid_dim = Some([2, 1, 1]);
    c.args.insert("n".into(), "500".into());
    c.entry = Some("reduce<128, 64, 2>".into());
    let t = run_finished(&src, c);
    assert_eq!(ints(&t, "back"), vec![Some(32640), Some(92110)]);
}

/// A warp reduction unrolled by a template lambda over the shuffle offsets `16 >> I`
/// (I = 0..4, `if constexpr` guarding a shift that would reach 0), on CUDA; lane 0 holds the
/// warp's sum. Python: `sum(range(32))` = 496, `sum(range(32, 64))` = 1520.
#[test]
fn a_template_lambda_unrolls_a_warp_reduction() {
    let src = format!(
        "#include <cstdint>\n#include <utility>\n{STATIC_FOR}\
__global__ void k(const int* in, int* out) {{
  int v = in[blockIdx.x * 32 + threadIdx.x];
  tmp::static_for<0, 6>([&]<uint32_t I>() {{
    constexpr int off = 16 >> I;
    if constexpr (off > 0) {{
      v += __shfl_down_sync(0xffffffffu, v, off);
    }}
  }});
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}}
"
    );
    let t = run_finished(
        &src,
        launch_grid(32, 2, &[("in", 64, "index"), ("out", 2, "zero")]),
    );
    assert_eq!(ints(&t, "out"), vec![Some(496), Some(1520)]);
}

/// A template lambda with a type and a value parameter, called twice with explicit
/// arguments: `acc = (int)t * 2 + (float)t * 3` = 5 t.
#[test]
fn a_template_lambda_with_a_type_parameter_called_by_operator_name() {
    let src = "\
__global__ void k(float* out) {
  float acc = 0;
  auto add = [&]<typename T, int S>() { acc += (T)threadIdx.x * S; };
  add.template operator()<int, 2>();
  add.operator()<float, 3>();
  out[threadIdx.x] = acc;
}
";
    let t = run_finished(src, launch_grid(32, 1, &[("out", 32, "zero")]));
    let want: Vec<Option<f64>> = (0..32).map(|t| Some(5.0 * f64::from(t))).collect();
    assert_eq!(floats(&t, "out"), want);
}
