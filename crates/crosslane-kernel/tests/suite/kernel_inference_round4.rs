//! Shapes the fourth inference-library corpus met (TensorRT-LLM's reduction header, ONNX
//! Runtime's skip-LayerNorm, Apex's cross-entropy, vLLM's reduction header on ROCm,
//! DeepSpeed's layer norm): `const`/`constexpr` after the type word, a whole struct stored
//! through a cast pointer (`aligned_vector` stores), and the other constructs listed at each
//! test. Kernels written here in those shapes; each expected value is derived by hand in the
//! comment beside it.

use crate::support::{floats, launch, run_finished};
use crosslane_core::op::Dialect;

#[test]
fn constexpr_after_the_type_word_declares_a_constant() {
    // C++17 [dcl.spec]/1: the decl-specifiers of a declaration come in any order, so
    // `static float constexpr M = 65504.F;` declares the constant M = 65504 at file scope (used
    // by a struct's default member initializer and a member function), and `float constexpr`,
    // `int const` inside a kernel declare locals. o[0] = -M = -65504 (the default member
    // initializer), o[1] = -M + 1 = -65503 (after `init()`), o[2] = H + G = 3 + 2 = 5,
    // o[3] = N * 2 = 14.
    let src = "\
namespace a { namespace b {
static float constexpr M = 65504.F;
template <typename T> struct S {
    T u = -M;
    __device__ void init() { u = -M; }
};
}}
using namespace a::b;
__global__ void k(float* o) {
    S<float> s;
    o[0] = s.u;
    s.init();
    o[1] = s.u + 1.0f;
    float constexpr H = 3.0f;
    static float constexpr G = 2.0f;
    o[2] = H + G;
    int const N = 7;
    o[3] = N * 2;
}
";
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 4, "zero")]));
    assert_eq!(
        floats(&t, "o"),
        vec![Some(-65504.0), Some(-65503.0), Some(5.0), Some(14.0)]
    );
}

#[test]
fn whole_struct_stored_through_a_cast_pointer() {
    // An `aligned_vector<float, 4>` (a struct of one `float[4]` member) loaded from `in` into
    // a local array through `*vp = *reinterpret_cast<const V*>(&in[4 * t])`, doubled, then
    // stored back through `*reinterpret_cast<V*>(&out[4 * t]) = *vp` (a named pointer to the
    // local array) and through `reinterpret_cast<V*>(out2)[t] = *reinterpret_cast<V*>(&r)`:
    // a struct assignment copies every member ([class.copy.assign]/12), so with in[i] = i
    // both outputs hold out[i] = 2 i for the 8 threads' 32 cells.
    let src = "\
template <typename T, int N> struct alignas(sizeof(T) * N) aligned_vector { T val[N]; };
__global__ void k(float* out, float* out2, const float* in) {
    using V = aligned_vector<float, 4>;
    float r[4];
    V* vp = reinterpret_cast<V*>(&r);
    *vp = *reinterpret_cast<const V*>(&in[threadIdx.x * 4]);
    for (int i = 0; i < 4; i++) r[i] *= 2.0f;
    *(reinterpret_cast<V*>(&out[threadIdx.x * 4])) = *vp;
    reinterpret_cast<V*>(out2)[threadIdx.x] = *reinterpret_cast<V*>(&r);
}
";
    let cfg = launch(
        Dialect::Cuda,
        8,
        &[
            ("out", 32, "zero"),
            ("out2", 32, "zero"),
            ("in", 32, "index"),
        ],
    );
    let t = run_finished(src, cfg);
    let want: Vec<Option<f64>> = (0..32).map(|i| Some(2.0 * f64::from(i))).collect();
    assert_eq!(floats(&t, "out"), want);
    assert_eq!(floats(&t, "out2"), want);
}

#[test]
fn hip_warp_size_is_a_constant_expression_in_function_bodies() {
    // HIP through ROCm 6 (the version modelled): the device `warpSize` is a constexpr of the
    // wave size (ROCm 7.0 made it a run-time value), as vLLM's ROCm build uses it
    // (`#define WARP_SIZE warpSize`). In a block of 256: lanes = (256 + W - 1) / W is 4 on a
    // wave of 64 and 8 on a wave of 32; the `__shared__` array has `lanes` cells, and the
    // template argument `pow2<lanes>()` returns 2 * lanes. o[0] = lanes + 10 * cells +
    // 100 * pow2 = 4 + 40 + 800 = 844 (wave 64) and 8 + 80 + 1600 = 1688 (wave 32).
    let src = "\
#include <hip/hip_runtime.h>
#define WARP_SIZE warpSize
template <int N> __device__ int twice() { return 2 * N; }
__global__ void k(float* o) {
    constexpr int lanes = (256 + WARP_SIZE - 1) / WARP_SIZE;
    __shared__ float s[lanes];
    if (threadIdx.x == 0) o[0] = lanes + 10 * (int)(sizeof(s) / sizeof(float)) + 100 * twice<lanes>();
}
";
    for (lanes, want) in [(64, 844.0), (32, 1688.0)] {
        let mut cfg = launch(Dialect::Hip, 256, &[("o", 1, "zero")]);
        cfg.lanes = Some(lanes);
        let t = run_finished(src, cfg);
        assert_eq!(floats(&t, "o"), vec![Some(want)], "wave {lanes}");
    }
}

#[test]
fn aligned_storage_of_a_multiple_of_a_type_is_a_vector_of_it() {
    // C++17 [meta.trans.other]: `std::aligned_storage<ILP*sizeof(T), ILP*alignof(T)>::type` is
    // storage for ILP objects of T; the softmax `ilpReduce` shape loads ILP elements at once by
    // assigning one such object through a pointer to a local `T v[ILP]`. With ILP = 4 and
    // in[i] = i, thread t loads in[4t..4t+3] and writes their sum 16t + 6; the `sizeof(T) * 2`
    // spelling loads two: thread t writes in[2t] + in[2t+1] = 4t + 1.
    let src = "\
#include <type_traits>
template <int ILP, typename T>
__device__ T load_sum(const T* data, int offset) {
    typedef typename std::aligned_storage<ILP*sizeof(T), ILP*alignof(T)>::type LoadT;
    T v[ILP];
    LoadT* value = reinterpret_cast<LoadT*>(&v);
    *value = reinterpret_cast<const LoadT*>(data)[offset];
    T s = 0;
    for (int j = 0; j < ILP; ++j) s += v[j];
    return s;
}
__global__ void k(float* out, float* out2, const float* in) {
    out[threadIdx.x] = load_sum<4>(in, threadIdx.x);
    using Two = std::aligned_storage_t<sizeof(float) * 2, alignof(float) * 2>;
    float w[2];
    *reinterpret_cast<Two*>(w) = reinterpret_cast<const Two*>(in)[threadIdx.x];
    out2[threadIdx.x] = w[0] + w[1];
}
";
    let cfg = launch(
        Dialect::Cuda,
        8,
        &[("out", 8, "zero"), ("out2", 8, "zero"), ("in", 32, "index")],
    );
    let t = run_finished(src, cfg);
    let want: Vec<Option<f64>> = (0..8).map(|t| Some(16.0 * f64::from(t) + 6.0)).collect();
    assert_eq!(floats(&t, "out"), want);
    let want2: Vec<Option<f64>> = (0..8).map(|t| Some(4.0 * f64::from(t) + 1.0)).collect();
    assert_eq!(floats(&t, "out2"), want2);
}

#[test]
fn key_value_pairs_of_half2_beside_float_pairs() {
    // ONNX Runtime's `KeyValuePairSum` has one `operator()` per pair type, `half2` pairs among
    // them (a `cub::KeyValuePair` is a struct of `key` then `value`, cub/util_type.cuh). The
    // float overload reduces (x, x*x) over a block of 64 with in[i] = i: sum 2016 and sum of
    // squares 63*64*127/6 = 85344 (exact in float). The half2 overload adds a pair to itself:
    // key (1, 2) + (1, 2) = (2, 4), value (3, 4) + (3, 4) = (6, 8); out[2] = key.x + 10 *
    // value.y = 2 + 80 = 82.
    let src = "\
#include <cub/cub.cuh>
#include <cuda_fp16.h>
struct PairSum {
    __device__ cub::KeyValuePair<float, float> operator()(const cub::KeyValuePair<float, float>& a,
                                                          const cub::KeyValuePair<float, float>& b) {
        return cub::KeyValuePair<float, float>(a.key + b.key, a.value + b.value);
    }
    __device__ cub::KeyValuePair<half2, half2> operator()(const cub::KeyValuePair<half2, half2>& a,
                                                          const cub::KeyValuePair<half2, half2>& b) {
        return cub::KeyValuePair<half2, half2>(__hadd2(a.key, b.key), __hadd2(a.value, b.value));
    }
};
__global__ void k(float* out, const float* in) {
    using BlockReduce = cub::BlockReduce<cub::KeyValuePair<float, float>, 64>;
    __shared__ typename BlockReduce::TempStorage tmp;
    PairSum sum;
    float x = in[threadIdx.x];
    const auto r = BlockReduce(tmp).Reduce(cub::KeyValuePair<float, float>(x, x * x), sum);
    if (threadIdx.x == 0) {
        out[0] = r.key;
        out[1] = r.value;
        cub::KeyValuePair<half2, half2> p(__floats2half2_rn(1.0f, 2.0f), __floats2half2_rn(3.0f, 4.0f));
        cub::KeyValuePair<half2, half2> q = sum(p, p);
        out[2] = __low2float(q.key) + 10.0f * __high2float(q.value);
    }
}
";
    let cfg = launch(
        Dialect::Cuda,
        64,
        &[("out", 3, "zero"), ("in", 64, "index")],
    );
    let t = run_finished(src, cfg);
    assert_eq!(
        floats(&t, "out"),
        vec![Some(2016.0), Some(85344.0), Some(82.0)]
    );
}

#[test]
fn an_integer_template_argument_does_not_bind_an_enumeration_parameter() {
    // C++17 [temp.arg.nontype]/2 with [expr.const]/7: a non-type template argument converts
    // to its parameter's type without an integer-to-enumeration conversion, and a scoped
    // enumeration's value converts to no integer, so a template whose parameter of
    // enumeration type is given an `int` (or whose `int` parameter is given an `Op`) fails
    // substitution and leaves the overload set ([temp.deduct]/8). With v = 1:
    // o[0] = f<Add, 8> (the one-`Op` template; `8` cannot be an `Op2`) = 1 + 8 = 9;
    // o[1] = f<Add, Max, 4> (only the two-`Op` template takes three) = 1000 + 4 = 1004;
    // o[2] = f<Max> (the two-`Op` template cannot deduce `Op2`) = 1 + 32 = 33;
    // o[3] = f<Max, Min> (a `Min` cannot be the `int`) = 1000 + 32 = 1032;
    // o[4] = f<ROpType::Max, 5> = 1 + 5 = 6.
    let src = "\
namespace reduce {
enum class ROpType { Add, Max, Min };
template <ROpType Op, int W = 32> __device__ float f(float* d) { return d[0] + W; }
template <ROpType Op1, ROpType Op2, int W = 32> __device__ float f(float* d) { return d[0] * 1000.0f + W; }
template <ROpType Op, int N> __device__ float g(float* d) { return f<Op, N>(d); }
template <ROpType Op1, ROpType Op2, int N> __device__ float g2(float* d) { return f<Op1, Op2, N>(d); }
}
using rop = reduce::ROpType;
__global__ void k(float* o) {
    float v = 1.0f;
    o[0] = reduce::g<rop::Add, 8>(&v);
    o[1] = reduce::g2<rop::Add, rop::Max, 4>(&v);
    o[2] = reduce::f<rop::Max>(&v);
    o[3] = reduce::f<rop::Max, rop::Min>(&v);
    o[4] = reduce::f<reduce::ROpType::Max, 5>(&v);
}
";
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 5, "zero")]));
    assert_eq!(
        floats(&t, "o"),
        vec![Some(9.0), Some(1004.0), Some(33.0), Some(1032.0), Some(6.0)]
    );
}

#[test]
fn an_enumeration_named_by_an_alias_or_shared_enumerators_excludes_nothing_wrongly() {
    // A template parameter declared with an alias of the enumeration (`using op_t = Op;
    // template <op_t O, int W>`) is of that enumeration, so `f<O, W>` from it still chooses the
    // one-operation template: o[0] = 1 + 8 = 9. An enumerator two enumerations share
    // (`Add` of `Op` and of `Mode`, same value) does not tell its enumeration by its spelling,
    // so it excludes no candidate: `h<Mode::Add>` has one template and runs, o[1] = 7.
    let src = "\
enum class Op { Add, Max };
enum class Mode { Add, Mul };
using op_t = Op;
template <Op O, int W = 32> __device__ float f(float x) { return x + W; }
template <Op O1, Op O2, int W = 32> __device__ float f(float x) { return x * 1000.0f + W; }
template <op_t O, int W> __device__ float g(float x) { return f<O, W>(x); }
template <Mode M> __device__ float h(float x) { return x + 6.0f; }
__global__ void k(float* o) {
    o[0] = g<Op::Add, 8>(1.0f);
    o[1] = h<Mode::Add>(1.0f);
}
";
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 2, "zero")]));
    assert_eq!(floats(&t, "o"), vec![Some(9.0), Some(7.0)]);
}
