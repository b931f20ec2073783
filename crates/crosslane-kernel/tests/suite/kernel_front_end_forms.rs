//! C++ forms real kernels write that the front end read wrongly or refused (tester 21): an
//! east-const reference parameter, `auto*` declarations, a global-scope-qualified template
//! argument, the C library's `INFINITY` / `FLT_MAX` in host fills. Each expected value is the
//! kernel's arithmetic done by hand.

use crate::support::{floats_or_nan, ints, launch, run_default, run_finished};
use crosslane_core::op::Dialect;

#[test]
fn an_east_const_reference_parameter_binds_a_temporary() {
    // `float const & y` is a reference to const float (C++17 [dcl.type]/2), so the shuffle's
    // result binds to it: o = index, partner = lane ^ 1, max of the pair.
    let src = "\
__device__ float mymax(float const & x, float const & y) { return x > y ? x : y; }
__global__ void k(float* o) {
  o[threadIdx.x] = mymax(o[threadIdx.x], __shfl_xor_sync(0xffffffff, o[threadIdx.x], 1));
}
";
    let t = run_finished(src, launch(Dialect::Cuda, 8, &[("o", 8, "index")]));
    assert_eq!(
        floats_or_nan(&t, "o"),
        vec![1.0, 1.0, 3.0, 3.0, 5.0, 5.0, 7.0, 7.0]
    );
}

#[test]
fn auto_star_declares_a_pointer_with_restrict_and_to_a_struct() {
    // `auto* __restrict__ p` over float2: lane i adds 1 to in[2i].
    let src = "\
__global__ void k(float* in) {
  auto* __restrict__ p = reinterpret_cast<float2*>(in);
  p[threadIdx.x].x += 1.0f;
}
";
    let t = run_finished(src, launch(Dialect::Cuda, 4, &[("in", 8, "zero")]));
    assert_eq!(
        floats_or_nan(&t, "in"),
        vec![1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
    );
    // `auto* p` to a struct of two floats: out[i] = in[2i] + in[2i + 1] = 4i + 1.
    let src = "\
struct alignas(8) V2 { float d[2]; };
__global__ void k(float* in, float* out) {
  auto* p = reinterpret_cast<V2*>(in);
  V2 t = p[threadIdx.x];
  out[threadIdx.x] = t.d[0] + t.d[1];
}
";
    let t = run_finished(
        src,
        launch(Dialect::Cuda, 4, &[("in", 8, "index"), ("out", 4, "zero")]),
    );
    assert_eq!(floats_or_nan(&t, "out"), vec![1.0, 5.0, 9.0, 13.0]);
}

#[test]
fn a_global_scope_qualified_type_is_a_template_argument() {
    // apply<int, Op<int>, ::B2>(1, …) = 1 + 2 * lane.
    let src = "\
struct B2 { static __device__ int Tid() { return threadIdx.x * 2; } };
template <typename T> struct Op { __device__ T combine(T a, T b) const { return a + b; } };
template <typename T, class R, typename B>
__device__ T apply(T a, const R& op) { return op.combine(a, B::Tid()); }
__global__ void k(int* o) {
  o[threadIdx.x] = apply<int, Op<int>, ::B2>(1, Op<int>());
}
";
    let t = run_finished(src, launch(Dialect::Cuda, 4, &[("o", 4, "zero")]));
    assert_eq!(ints(&t, "o"), vec![Some(1), Some(3), Some(5), Some(7)]);
}

#[test]
fn host_fills_know_infinity_nan_and_flt_max() {
    // hy = {-inf, FLT_MAX, -FLT_MAX, NaN} repeated; the kernel halves each cell: -inf,
    // 2^127 * (2 - 2^-23) / 2 = 1.7014117e38 (exact in float), its negative, NaN.
    let src = "\
__global__ void k(float* o) { o[threadIdx.x] = o[threadIdx.x] * 0.5f; }
int main() {
    float hy[8];
    for (int i = 0; i < 8; i++)
        hy[i] = i % 4 == 0 ? -INFINITY : i % 4 == 1 ? FLT_MAX : i % 4 == 2 ? -FLT_MAX : NAN;
    float* e; cudaMalloc(&e, 8 * sizeof(float));
    cudaMemcpy(e, hy, sizeof(hy), cudaMemcpyHostToDevice);
    k<<<1, 8>>>(e);
}
";
    let t = run_default(src);
    let half_max = f64::from(f32::MAX) / 2.0;
    assert_eq!(half_max, 170141173319264429905852091742258462720.0);
    let got = floats_or_nan(&t, "o");
    for i in 0..8 {
        match i % 4 {
            0 => assert_eq!(got[i], f64::NEG_INFINITY, "{got:?}"),
            1 => assert_eq!(got[i], half_max, "{got:?}"),
            2 => assert_eq!(got[i], -half_max, "{got:?}"),
            _ => assert!(got[i].is_nan(), "{got:?}"),
        }
    }
}

#[test]
fn reinterpret_cast_to_the_members_own_type_is_assignable() {
    // llama.cpp's `reinterpret_cast<half&>(y.ds.x) = d`: ds[i] = {x, 2x} with x = 1.5.
    let src = "\
#include <cuda_fp16.h>
__global__ void k(half2* ds, const float* x) {
    reinterpret_cast<half&>(ds[threadIdx.x].x) = x[threadIdx.x];
    reinterpret_cast<half&>(ds[threadIdx.x].y) = 2.0f * x[threadIdx.x];
}
";
    let t = run_finished(
        src,
        launch(Dialect::Cuda, 2, &[("ds", 4, "zero"), ("x", 2, "1.5")]),
    );
    let comps: Vec<Vec<f64>> = t
        .buffer("ds")
        .expect("ds")
        .iter()
        .map(|c| match c {
            Some(crosslane_kernel::KVal::Vector { items, .. }) => items
                .iter()
                .map(|v| v.as_f64().unwrap_or(f64::NAN))
                .collect(),
            other => panic!("ds: {other:?}"),
        })
        .collect();
    assert_eq!(comps, vec![vec![1.5, 3.0], vec![1.5, 3.0]]);
}

#[test]
fn a_function_template_of_the_sources_own_named_block_reduce_is_not_cubs() {
    // PyTorch's `BlockReduce<T, Op>(val, op)`: combine(val, val) = 2 * lane.
    let src = "\
template <typename T> struct SumOp { __device__ T combine(T a, T b) const { return a + b; } };
template <typename T, class ReduceOp>
__device__ T BlockReduce(T val, const ReduceOp& op) { return op.combine(val, val); }
__global__ void k(int* o) {
  o[threadIdx.x] = BlockReduce<int, SumOp<int>>(threadIdx.x, SumOp<int>());
}
";
    let t = run_finished(src, launch(Dialect::Cuda, 4, &[("o", 4, "zero")]));
    assert_eq!(ints(&t, "o"), vec![Some(0), Some(2), Some(4), Some(6)]);
}

#[test]
fn a_constexpr_function_using_builtin_clz_is_a_template_argument() {
    // _nextPow2(32): 1 << (32 - clz(31)) = 1 << (32 - 27) = 32; _nextPow2(33): clz(32) = 26,
    // 1 << 6 = 64; popcount(0xF0) + ctz(8) = 4 + 3 = 7.
    let src = "\
#include <climits>
static constexpr int _nextPow2(unsigned int num) {
  if (num <= 1) return num;
  return 1 << (CHAR_BIT * sizeof(num) - __builtin_clz(num - 1));
}
constexpr int bits() { return __builtin_popcount(0xF0u) + __builtin_ctzll(8ull); }
template <int N> __device__ int get() { return N; }
__global__ void k(int* o) {
  o[0] = get<_nextPow2(1024 / 32)>();
  o[1] = get<_nextPow2(33)>();
  o[2] = get<bits()>();
}
";
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 3, "zero")]));
    assert_eq!(ints(&t, "o"), vec![Some(32), Some(64), Some(7)]);
}

#[test]
fn hip_warp_size_is_a_default_template_argument_of_the_targets_wave() {
    // wsum<int>(1) over numLanes = warpSize lanes: 64 on the default gfx942, 32 on gfx1100.
    let src = "\
template <typename T, int numLanes = warpSize>
__device__ T wsum(T val) {
  for (int mask = numLanes >> 1; mask > 0; mask >>= 1) val += __shfl_xor(val, mask);
  return val;
}
__global__ void k(int* o) { o[threadIdx.x] = wsum<int>(1); }
";
    let t = run_finished(src, launch(Dialect::Hip, 64, &[("o", 64, "zero")]));
    assert_eq!(ints(&t, "o"), vec![Some(64); 64]);
    let mut rdna = launch(Dialect::Hip, 32, &[("o", 32, "zero")]);
    rdna.preprocess.arch = Some("gfx1100".into());
    let t = run_finished(src, rdna);
    assert_eq!(ints(&t, "o"), vec![Some(32); 32]);
}
