//! Forms met in round five's public kernels of the Ascend C / MetaX MACA / HeCBench family
//! (HeCBench's HIP group norm, MetaX mcoplib's QK RMS norm, CANN's SIMT softmax sample and an
//! Ascend `BlockReduce` header), each in a kernel of my own of the same shape; the expected
//! values are worked out by hand in the comments.
//!
//! - `cg::thread_block_tile<N, cg::thread_block>`: the tile type with its parent-group
//!   argument (CUDA C++ Programming Guide, Cooperative Groups, "Thread Block Tile":
//!   `template <unsigned int Size, typename ParentT = void> class thread_block_tile;`; HIP the
//!   same), as a function parameter whose `N` is deduced and as a local. Before: "expected `>`,
//!   found `,`".
//! - MetaX's native bfloat16 names `maca_bfloat16`, `__maca_bfloat16`, `maca_bfloat162`,
//!   `__maca_bfloat162` (MetaX's cu-bridge `cuda_bf16.h`: `typedef maca_bfloat16
//!   __nv_bfloat16;`). Before: "a template value argument must be a constant expression".
//! - CANN's `simt_api/math_constants.h` constants (`ASCRT_INF_F`, …) and clang's constant
//!   builtins (`__builtin_inff()`, which `ASCRT_INF_F` expands to). Before: "`ASCRT_INF_F` is
//!   not declared", "`__builtin_inff` is not declared".
//! - The type of a HIP vector expression (`v * v` of a `float2`) picks the overload
//!   ([over.match.best]): `f<float>(v * v)` of `f<To>(float)` / `f<To>(float2)` is the `float2`
//!   one, and `auto w = v * v;` is a `float2`. Before: the `float` overload was taken ("cannot
//!   convert floatx2 to float") and `auto` refused.
//! - `--entry 'k<bfloat16, 4>'` where the source says `#define bfloat16 maca_bfloat16` (MetaX
//!   mcoplib's `kernel/utils.h`): the entry's template arguments read as the source's text
//!   would, macros replaced ([cpp.replace]/9). Before: "a template value argument must be a
//!   constant expression".
//! - A class derived from an empty tag whose members are member function templates
//!   (`struct MyMax : Max {}` with `Max::operator()` a template, the shape an Ascend
//!   `BlockReduce` header classifies operators by) calls the base's templates
//!   ([class.derived]/2), and `__is_base_of(B, D)` / `std::is_base_of_v<B, D>` tell the
//!   derivation ([meta.rel]). Before: "`Max` has … member function templates …: a base class
//!   with those is not supported" and "`__is_base_of` is not declared".
//! - A library constant's type picks the overload too: `asc_reduce_min(c ? INFINITY : x)` is
//!   the `float` reduction. Before: the `uint32_t` one, every lane undefined.

use crate::support::{floats, ints, launch, launch_lanes, run_finished};
use crosslane_core::op::Dialect;

#[test]
fn a_tile_type_with_its_parent_argument_is_the_tile() {
    let src = "\
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
template <int W>
__device__ float tile_sum(cg::thread_block_tile<W, cg::thread_block> &t, float v) {
  for (int off = W / 2; off > 0; off /= 2) v += t.shfl_xor(v, off);
  return v;
}
__global__ void k(const float *x, float *o, float *p) {
  auto block = cg::this_thread_block();
  auto t16 = cg::tiled_partition<16>(block);
  cg::thread_block_tile<8, cg::thread_block> t8 = cg::tiled_partition<8>(block);
  o[threadIdx.x] = tile_sum<16>(t16, x[threadIdx.x]);
  p[threadIdx.x] = tile_sum(t8, x[threadIdx.x]) + t8.thread_rank();
}
";
    // x[t] = t. A tile of 16 starting at 16g sums 16·16g + (0 + … + 15) = 256g + 120; a tile of
    // 8 starting at 8h sums 64h + 28, and each lane adds its rank t % 8.
    let c = launch_lanes(
        Dialect::Hip,
        64,
        &[("x", 64, "index"), ("o", 64, "zero"), ("p", 64, "zero")],
    );
    let t = run_finished(src, c);
    let o: Vec<Option<f64>> = (0..64)
        .map(|t| Some(f64::from(256 * (t / 16) + 120)))
        .collect();
    let p: Vec<Option<f64>> = (0..64)
        .map(|t| Some(f64::from(64 * (t / 8) + 28 + t % 8)))
        .collect();
    assert_eq!(floats(&t, "o"), o);
    assert_eq!(floats(&t, "p"), p);
}

#[test]
fn metax_native_bfloat16_names_are_the_bfloat16_types() {
    let src = "\
#define bfloat16 maca_bfloat16
template <typename T> __device__ float to_f(T v);
template <> __device__ float to_f<bfloat16>(bfloat16 v) { return __bfloat162float(v); }
__global__ void k(const __maca_bfloat16 *x, maca_bfloat162 *pairs, float *o, float *q) {
  int t = threadIdx.x;
  float v = to_f<bfloat16>(x[t]);
  for (int off = 2; off > 0; off >>= 1)
    v += __shfl_xor_sync(0xffffffffffffffffULL, v, off, 16);
  o[t] = v;
  __maca_bfloat162 two;
  two.x = __float2bfloat16(1.5f);
  two.y = __float2bfloat16((float)t);
  pairs[t] = two;
  maca_bfloat162 back = pairs[t];
  q[t] = __bfloat162float(back.x) * __bfloat162float(back.y);
}
";
    // x[t] = t (exact in bfloat16 up to 256). The xor butterfly over offsets 2 and 1 sums the
    // aligned group of 4 lanes: 4·4g + 6. Each lane writes the pair (1.5, t) and reads it
    // back: 1.5·t.
    let c = launch(
        Dialect::Maca,
        64,
        &[
            ("x", 64, "index"),
            ("pairs", 64, "zero"),
            ("o", 64, "zero"),
            ("q", 64, "zero"),
        ],
    );
    let t = run_finished(src, c);
    let o: Vec<Option<f64>> = (0..64).map(|t| Some(f64::from(16 * (t / 4) + 6))).collect();
    assert_eq!(floats(&t, "o"), o);
    let q: Vec<Option<f64>> = (0..64).map(|t| Some(1.5 * f64::from(t))).collect();
    assert_eq!(floats(&t, "q"), q);
}

#[test]
fn ascend_math_constants_and_constant_builtins() {
    let src = "\
__simt_vf__ __aicore__ LAUNCH_BOUND(32) void k(__gm__ float* o, __gm__ int32_t* u)
{
    float v = threadIdx.x < 20 ? (float)threadIdx.x : -ASCRT_INF_F;
    float m = asc_reduce_max(v);
    float n = asc_reduce_min(threadIdx.x < 5 ? __builtin_inff() : (float)threadIdx.x);
    o[threadIdx.x] = m + n;
    u[threadIdx.x] = (ASCRT_INF_U == 0x7F800000U) + (__builtin_huge_valf() == ASCRT_INF_F)
        + (ASCRT_PI_F > 3.14159f) + (ASCRT_INT32_INF_S == 2139095040);
}
";
    // Lanes 20..31 give −inf, so the maximum is 19; lanes 0..4 give +inf, so the minimum is 5:
    // 24 in every lane. The four comparisons hold: 4.
    let c = launch(Dialect::Ascend, 32, &[("o", 32, "zero"), ("u", 32, "zero")]);
    let t = run_finished(src, c);
    assert_eq!(floats(&t, "o"), vec![Some(24.0); 32]);
    assert_eq!(ints(&t, "u"), vec![Some(4); 32]);
}

#[test]
fn a_hip_vector_expression_picks_the_vector_overload() {
    let src = "\
template <typename To> __device__ inline To csum(float v) { return static_cast<To>(v); }
template <typename To> __device__ inline To csum(float2 v) { return static_cast<To>(v.x + v.y); };
__device__ inline float twice(float v) { return 2.f * v; }
__global__ void k(const float *x, float *o) {
  float2 v = make_float2(x[2 * threadIdx.x], x[2 * threadIdx.x + 1]);
  auto w = v * v;
  o[threadIdx.x] = csum<float>(v * v) + csum<float>(w + 1.0f) + 100.f * csum<float>(twice(v.y));
}
";
    // Lane t holds v = (2t, 2t + 1): v·v sums to 4t² + (2t + 1)² = 8t² + 4t + 1; w + 1 sums to
    // that plus 2; twice(v.y) = 4t + 2, times 100. In all: 16t² + 408t + 204.
    let c = launch_lanes(Dialect::Hip, 32, &[("x", 64, "index"), ("o", 32, "zero")]);
    let t = run_finished(src, c);
    let want: Vec<Option<f64>> = (0..32)
        .map(|t| Some(f64::from(16 * t * t + 408 * t + 204)))
        .collect();
    assert_eq!(floats(&t, "o"), want);
}

#[test]
fn an_entry_names_template_arguments_through_the_sources_macros() {
    let src = "\
#define bfloat16 maca_bfloat16
#define GROUP 4
template <typename T, int G>
__global__ void k(const T *x, float *o) {
  float v = __bfloat162float(x[threadIdx.x]);
  for (int off = G / 2; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffffffffffULL, v, off, G);
  o[threadIdx.x] = v;
}
";
    // x[t] = t; groups of GROUP = 4 lanes sum 16g + 6, as in the test above.
    let mut c = launch(Dialect::Maca, 64, &[("x", 64, "index"), ("o", 64, "zero")]);
    c.entry = Some("k<bfloat16, GROUP>".into());
    let t = run_finished(src, c);
    let o: Vec<Option<f64>> = (0..64).map(|t| Some(f64::from(16 * (t / 4) + 6))).collect();
    assert_eq!(floats(&t, "o"), o);
}

#[test]
fn a_tag_base_with_member_templates_and_is_base_of() {
    let src = "\
struct Max { template <typename T> __device__ T operator()(const T& a, const T& b) const { return a > b ? a : b; } };
struct Sum { template <typename T> __device__ T operator()(const T& a, const T& b) const { return a + b; } };
struct MyMax : Max {};
struct Twice { template <typename T> __device__ T twice(T a) const { return a + a; } };
struct Both : Twice { int k; };
template <typename Op> __device__ float warp_all(float v, Op op) {
  for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffff, v, o));
  return v;
}
template <typename Op> __device__ int kind() {
  return __is_base_of(Max, Op) ? 1 : (std::is_base_of_v<Sum, Op> ? 2 : 0);
}
__global__ void k(const float* x, float* o, int* c) {
  float v = x[threadIdx.x];
  MyMax m;
  Both b;
  b.k = 3;
  o[threadIdx.x] = warp_all(v, MyMax{}) + m(1.0f, 2.0f) + b.twice(v) + b.k;
  c[threadIdx.x] = kind<MyMax>() * 100 + kind<Sum>() * 10 + kind<Twice>()
      + 1000 * std::is_base_of<Both, Twice>::value + 2000 * __is_base_of(int, int);
}
";
    // x[t] = t: the warp's maximum 31, max(1, 2) = 2, twice(t) = 2t, k = 3: 36 + 2t. MyMax
    // derives from Max (1), Sum is Sum (2), Twice from neither (0); Twice is not derived from
    // Both and `int` is no class: 0 and 0. In all 120.
    let c = launch(
        Dialect::Cuda,
        32,
        &[("x", 32, "index"), ("o", 32, "zero"), ("c", 32, "zero")],
    );
    let t = run_finished(src, c);
    let o: Vec<Option<f64>> = (0..32).map(|t| Some(f64::from(36 + 2 * t))).collect();
    assert_eq!(floats(&t, "o"), o);
    assert_eq!(ints(&t, "c"), vec![Some(120); 32]);
}
