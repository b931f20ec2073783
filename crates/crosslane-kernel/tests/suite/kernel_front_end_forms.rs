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
