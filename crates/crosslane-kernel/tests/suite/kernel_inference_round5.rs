//! Shapes the fifth inference/framework-library corpus met (MIOpen's attention softmax,
//! OneFlow's softmax, PyTorch's group norm, aiter's group norm, Apex's layer norm): a
//! `__shared__` array inside a function template (one object per instantiation), and the
//! other constructs listed at each test. Kernels written here in those shapes; each expected
//! value is derived by hand in the comment beside it.

use crate::support::{floats, has, launch, run_finished};
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;

#[test]
fn shared_array_of_a_function_template_is_one_per_instantiation() {
    // A block reduction templated on its operation with its own `__shared__ float tmp[2]`:
    // each specialization is its own function ([temp.inst]/3), so `blk<Max>` and `blk<Add>`
    // each own a `tmp` (a block-scope `__shared__` variable has static storage,
    // [basic.stc.static]). 64 threads, x[i] = i: the max is 63, the sum 0 + … + 63 = 2016,
    // so every thread stores 63 * 1000 + 2016 = 65016. Warp 1's second call would read warp
    // 0's freshly written partial sum if the two were one array (warps run in turn), and no
    // barrier separates the first call's last read from the second call's first write, so a
    // shared array would also be a race. A second call of the same instance (`blk<Add>` again)
    // uses that instance's array: 2 * 2016 = 4032 comes back in o2.
    let src = "\
struct Add { __device__ float operator()(float a, float b) const { return a + b; } };
struct Max { __device__ float operator()(float a, float b) const { return fmaxf(a, b); } };
template <typename Op> __device__ float blk(float v, Op op) {
    __shared__ float tmp[2];
    int w = threadIdx.x / 32;
    for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
    if (threadIdx.x % 32 == 0) tmp[w] = v;
    __syncthreads();
    return op(tmp[0], tmp[1]);
}
__global__ void k(const float* x, float* o, float* o2) {
    float v = x[threadIdx.x];
    float m = blk(v, Max());
    float s = blk(v, Add());
    o[threadIdx.x] = m * 1000.0f + s;
    __syncthreads();
    o2[threadIdx.x] = blk(2.0f * v, Add());
}
";
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            64,
            &[("x", 64, "index"), ("o", 64, "zero"), ("o2", 64, "zero")],
        ),
    );
    assert_eq!(floats(&t, "o"), vec![Some(65016.0); 64]);
    assert_eq!(floats(&t, "o2"), vec![Some(4032.0); 64]);
    assert!(!has(&t, Level::Warning, "racecheck"));
}

#[test]
fn std_pair_without_thrust_as_a_template_argument_and_structured_binding() {
    // A Welford-style op whose `project` returns `res_t`, instantiated with
    // `std::pair<float, float>` (C++17 [pairs.pair]: members `first`, `second`, the two-value
    // constructor), unpacked by `auto [var, mean] = op.project(acc);` ([dcl.struct.bind]/4: the
    // pair's two members in order). Each warp of 32 lanes reduces (sum, sum of squares) of
    // x[i] = i with `__shfl_down_sync`; lane 0 holds the totals. Warp 0: sum 0..31 = 496,
    // squares 0² + … + 31² = 10416; mean 496 / 32 = 15.5, var 10416 / 32 - 15.5² = 325.5 -
    // 240.25 = 85.25. Warp 1 (32..63): sum 1520, squares Σ_{0}^{63} i² - 10416 = 63·64·127/6 -
    // 10416 = 85344 - 10416 = 74928, mean 47.5, var 74928 / 32 - 47.5² = 2341.5 - 2256.25 =
    // 85.25. `std::make_pair(3, 0.5f)` gives first + second = 3.5.
    let src = "\
#include <utility>
struct Acc { float s; float q; };
template <typename res_t> struct MomentOps {
    float n;
    __device__ Acc combine(Acc a, Acc b) const { return Acc{a.s + b.s, a.q + b.q}; }
    __device__ Acc shfl_down(Acc a, int d) const {
        return Acc{__shfl_down_sync(0xffffffffu, a.s, d), __shfl_down_sync(0xffffffffu, a.q, d)};
    }
    __device__ res_t project(Acc a) const {
        const float mean = a.s / n;
        res_t r(a.q / n - mean * mean, mean);
        return r;
    }
};
__global__ void k(const float* x, float* mean, float* var) {
    using Op = MomentOps<std::pair<float, float>>;
    Op op = {32.0f};
    float v = x[threadIdx.x];
    Acc a{v, v * v};
    for (int d = 16; d > 0; d >>= 1) a = op.combine(a, op.shfl_down(a, d));
    if (threadIdx.x % 32 == 0) {
        auto [m2, m1] = op.project(a);
        mean[threadIdx.x / 32] = m1;
        var[threadIdx.x / 32] = m2;
        std::pair<int, float> p = std::make_pair(3, 0.5f);
        mean[2 + threadIdx.x / 32] = p.first + p.second;
    }
}
";
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            64,
            &[("x", 64, "index"), ("mean", 4, "zero"), ("var", 2, "zero")],
        ),
    );
    assert_eq!(
        floats(&t, "mean"),
        vec![Some(15.5), Some(47.5), Some(3.5), Some(3.5)]
    );
    assert_eq!(floats(&t, "var"), vec![Some(85.25), Some(85.25)]);
}

#[test]
fn hip_template_swizzle_and_dpp_builtins_and_a_final_struct() {
    // ROCm amd_warp_functions.h: `__hip_ds_swizzlef_N<P>(x)` passes P to ds_swizzle as its
    // offset, `__hip_move_dpp_N<C, R, B, BC>(x)` passes its four to mov_dpp. Offset
    // (xor_mask << 10) | and_mask 0x1f is the bitmask mode j = i ^ xor_mask within each group
    // of 32 lanes (AMD ISA, ds_swizzle_b32), so a butterfly over xor 1, 2, 4, 8, 16 sums each
    // half of a 64-lane wave: x[i] = i gives 0 + … + 31 = 496 in lanes 0..31 and 32 + … + 63 =
    // 1520 in lanes 32..63. DPP control 0xb1 is quad_perm [1, 0, 3, 2]: lane i reads lane i ^ 1,
    // so o2[i] = i + (i ^ 1) = 2i + 1 for even i and 2i - 1 for odd i. `struct Acc final` is a
    // class head with the `final` specifier (C++17 [class]/1): an ordinary struct here.
    let src = "\
#include <hip/hip_runtime.h>
struct Acc final { float v; };
template <unsigned S> __device__ float bfly(float v) {
    if constexpr (S == 1) {
        return v;
    } else {
        v = bfly<(S >> 1)>(v);
        constexpr unsigned op = ((S >> 1) << 10) | 0x1f;
        return v + __hip_ds_swizzlef_N<op>(v);
    }
}
__global__ void k(const float* x, float* o, int* o2) {
    Acc a{x[threadIdx.x]};
    o[threadIdx.x] = bfly<32>(a.v);
    int i = (int)threadIdx.x;
    o2[threadIdx.x] = i + __hip_move_dpp_N<0xb1, 0xf, 0xf, true>(i);
}
";
    let t = run_finished(
        src,
        crate::support::launch_lanes(
            Dialect::Hip,
            64,
            &[("x", 64, "index"), ("o", 64, "zero"), ("o2", 64, "zero")],
        ),
    );
    let want: Vec<Option<f64>> = (0..64)
        .map(|i| Some(if i < 32 { 496.0 } else { 1520.0 }))
        .collect();
    assert_eq!(floats(&t, "o"), want);
    let want2: Vec<Option<i128>> = (0..64i128).map(|i| Some(i + (i ^ 1))).collect();
    assert_eq!(crate::support::ints(&t, "o2"), want2);
}

#[test]
fn function_pointer_type_parameter_passed_on_as_a_template_argument() {
    // `Op` deduced from a function's name is the function pointer type `float (*)(float,
    // float)` ([temp.deduct.call]/2.3); the recursive `red<W, Op, (S >> 1)>` names it again as a
    // type argument ([temp.arg.type]/1), and `blk` passes its own `op` parameter on, so `Op` is
    // deduced from a pointer variable there. A butterfly with `__shfl_xor` over 64 lanes, x[i] =
    // i: the sum 0 + … + 63 = 2016 in every lane, and the max 63 through the other function.
    let src = "\
#include <hip/hip_runtime.h>
constexpr float plus_op(float a, float b) { return a + b; }
constexpr float max_op(float a, float b) { return fmaxf(a, b); }
template <uint32_t W, typename Op, uint32_t S = W>
__device__ float red(float v, Op op) {
    if constexpr (S == 1) {
        return v;
    } else {
        v = red<W, Op, (S >> 1)>(v, op);
        return op(v, __shfl_xor(v, S >> 1));
    }
}
template <uint32_t N, typename Op>
__device__ float blk(float v, Op op) { return red<64>(v, op) * N; }
__global__ void k(const float* x, float* s, float* m) {
    s[threadIdx.x] = blk<1>(x[threadIdx.x], plus_op);
    m[threadIdx.x] = red<64>(x[threadIdx.x], max_op);
}
";
    let t = run_finished(
        src,
        crate::support::launch_lanes(
            Dialect::Hip,
            64,
            &[("x", 64, "index"), ("s", 64, "zero"), ("m", 64, "zero")],
        ),
    );
    assert_eq!(floats(&t, "s"), vec![Some(2016.0); 64]);
    assert_eq!(floats(&t, "m"), vec![Some(63.0); 64]);
}

#[test]
fn aligned_storage_whose_alignment_is_written_as_its_size() {
    // `std::aligned_storage<N * sizeof(T), N * sizeof(T)>::type` (OneFlow's `PackType`): storage
    // of N elements of T, aligned to N * sizeof(T), a multiple of T's alignment ([basic.align]/4),
    // copied whole from `in + 2t` to `out + 2t` by each of 16 threads: out[i] = in[i] = i.
    let src = "\
#include <type_traits>
template <typename T, int N> struct GetPackType {
    using type = typename std::aligned_storage<N * sizeof(T), N * sizeof(T)>::type;
};
template <typename T, int N> using PackType = typename GetPackType<T, N>::type;
__global__ void k(const float* in, float* out) {
    const int t = threadIdx.x;
    *reinterpret_cast<PackType<float, 2>*>(out + 2 * t) =
        *reinterpret_cast<const PackType<float, 2>*>(in + 2 * t);
}
";
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            16,
            &[("in", 32, "index"), ("out", 32, "zero")],
        ),
    );
    let want: Vec<Option<f64>> = (0..32).map(|i| Some(f64::from(i))).collect();
    assert_eq!(floats(&t, "out"), want);
}
