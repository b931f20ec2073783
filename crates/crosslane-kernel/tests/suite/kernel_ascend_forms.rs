//! Ascend C SIMT forms beyond the API reference's examples: the `float` and `half` overloads of
//! `asc_reduce_add` / `_max` / `_min` (CANN API reference, function prototypes), the
//! `__simt_callee__` qualifier, `asc_vf_call` of a function template's instance, and the
//! refusal of the vector (SIMD) API. Every expected value is derived by hand beside its test.

use crate::support::{floats, has, ints, refused, run_finished};
use crosslane_core::{Dialect, Level};
use crosslane_kernel::LaunchConfig;

/// One block of `threads` Ascend C threads with `buffers` (name, cells, fill).
fn ascend(threads: usize, buffers: &[(&str, usize, &str)]) -> LaunchConfig {
    crate::support::launch(Dialect::Ascend, threads, buffers)
}

/// x[i] = 0.25 i over one warp of 32: every term and partial sum is a multiple of 0.25 below
/// 2^9, exact in float and in half (11 significant bits), so any order gives
/// sum = 0.25 × (0 + … + 31) = 0.25 × 496 = 124; max = 0.25 × 31 = 7.75; min of x + 0.5 =
/// 0.5. The integer path this replaced truncated to 112, 7, 0, 112.
#[test]
fn float_and_half_reductions_keep_their_fractions() {
    let src = "\
__global__ void k(float* x, float* out)
{
    float v = x[threadIdx.x];
    float s = asc_reduce_add(v);
    float m = asc_reduce_max(v);
    float n = asc_reduce_min(v + 0.5f);
    half hs = asc_reduce_add((half)v);
    half hm = asc_reduce_max((half)(-v));
    if (threadIdx.x == 0) { out[0] = s; out[1] = m; out[2] = n; out[3] = (float)hs; out[4] = (float)hm; }
    out[5 + threadIdx.x] = s;
}";
    let t = run_finished(src, ascend(32, &[("x", 32, "i*0.25"), ("out", 37, "0")]));
    let out = floats(&t, "out");
    // max of -0.25 i is -0 (lane 0): 0.
    assert_eq!(
        out[..5],
        [Some(124.0), Some(7.75), Some(0.5), Some(124.0), Some(0.0)]
    );
    // Every thread gets the same sum.
    assert!(out[5..].iter().all(|v| *v == Some(124.0)), "{out:?}");
    // The sum's order is not documented: a note says which tree ran.
    assert!(has(&t, Level::Info, "`asc_reduce_add` on float"));
    assert!(has(&t, Level::Info, "`asc_reduce_add` on half"));
}

/// Where the order shows. Lane 0 holds 1, the 31 others 2^-24 (float; 2^-11 for half: half
/// an ulp of 1 in each). The butterfly, lane 0's side: step 16 adds 2^-24 to 1, a tie, kept
/// at 1 (to even); the other lanes' pairs make 2^-23. Step 8 adds lane 8's 2^-23: 1 + 1 ulp;
/// step 4 adds 2 ulp (1 + 3), step 2 adds 4 (1 + 7), step 1 adds 8: 1 + 15 ulp =
/// 1 + 15 × 2^-23 = 1.0000017881393433. A sequential sum would stay at 1 (each 2^-24 a tie
/// kept at 1); the exact sum is 1 + 15.5 ulp. Half: 1 + 15 × 2^-10 = 1.0146484375.
#[test]
fn the_float_sum_runs_as_the_xor_butterfly() {
    let src = "\
__global__ void k(float* out, half* hout)
{
    float v = threadIdx.x == 0 ? 1.0f : 5.9604644775390625e-8f;
    half h = threadIdx.x == 0 ? (half)1.0f : (half)4.8828125e-4f;
    out[threadIdx.x] = asc_reduce_add(v);
    hout[threadIdx.x] = asc_reduce_add(h);
}";
    let t = run_finished(src, ascend(32, &[("out", 32, "0"), ("hout", 32, "0")]));
    let want = 1.0 + 15.0 * 2f64.powi(-23);
    assert_eq!(floats(&t, "out"), vec![Some(want); 32]);
    let want = 1.0 + 15.0 * 2f64.powi(-10);
    assert_eq!(floats(&t, "hout"), vec![Some(want); 32]);
}

/// Over a partial warp the pairing of the active threads is not documented: the result is
/// undefined with that reason. Threads 0..15 call it; out stays as filled elsewhere (7).
#[test]
fn a_float_reduction_over_a_partial_warp_is_undefined() {
    let src = "\
__global__ void k(float* out)
{
    if (threadIdx.x < 16) out[threadIdx.x] = asc_reduce_add(1.0f);
}";
    let t = run_finished(src, ascend(32, &[("out", 32, "7")]));
    let out = floats(&t, "out");
    assert_eq!(out[..16], [None; 16]);
    assert_eq!(out[16..], [Some(7.0); 16]);
}

/// The integer overloads still reduce as before: lanes 0..31 sum to 496.
#[test]
fn the_integer_reduction_is_unchanged() {
    let src = "__global__ void k(int32_t* out) { out[threadIdx.x] = asc_reduce_add((int32_t)threadIdx.x); }";
    let t = run_finished(src, ascend(32, &[("out", 32, "0")]));
    assert_eq!(ints(&t, "out"), vec![Some(496); 32]);
}

/// `__simt_callee__` (CANN, SIMD与SIMT混合编程, 函数执行空间限定符: a helper SIMT code calls)
/// is a device function: with x = 1 in every lane, the xor butterfly 16, 8, 4, 2, 1 doubles
/// the value five times: 32 in every lane.
#[test]
fn a_simt_callee_helper_is_a_device_function() {
    let src = "\
__simt_callee__ inline float WarpSum(float v)
{
    for (int32_t m = 16; m > 0; m >>= 1) v += asc_shfl_xor(v, m);
    return v;
}
__global__ void k(float* x, float* out)
{
    out[threadIdx.x] = WarpSum(x[threadIdx.x]);
}";
    let t = run_finished(src, ascend(32, &[("x", 32, "1"), ("out", 32, "0")]));
    assert_eq!(floats(&t, "out"), vec![Some(32.0); 32]);
}

/// `asc_vf_call<Scale<int32_t>>(dim3(64), …)` launches the instance with the launcher's
/// blockDim (2) and its arguments: in[i] = i, k = 3, so out[i] = 3i + in[i ^ 1] over 2 × 64
/// threads (out[0] = 0 + 1, out[1] = 3 + 0, out[2] = 6 + 3, out[127] = 381 + 126).
#[test]
fn asc_vf_call_of_a_template_instance_launches_it() {
    let src = "\
#include \"kernel_operator.h\"
template <typename T>
__simt_vf__ __launch_bounds__(64) inline void Scale(__gm__ T* out, __gm__ const T* in, T k)
{
    uint32_t idx = blockIdx.x * blockDim.x + threadIdx.x;
    out[idx] = in[idx] * k + asc_shfl_xor(in[idx], 1);
}
__global__ __vector__ void scale(__gm__ uint8_t* out, __gm__ uint8_t* in, int32_t k)
{
    asc_vf_call<Scale<int32_t>>(dim3(64), (__gm__ int32_t*)out, (__gm__ const int32_t*)in, k);
}
int main()
{
    int32_t h[128];
    for (int32_t i = 0; i < 128; i++) h[i] = i;
    uint8_t *din, *dout;
    aclrtMalloc((void**)&din, 128 * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dout, 128 * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(din, 128 * sizeof(int32_t), h, 128 * sizeof(int32_t), ACL_MEMCPY_HOST_TO_DEVICE);
    scale<<<2, nullptr, nullptr>>>(dout, din, 3);
    return 0;
}";
    let config = LaunchConfig {
        dialect: Some(Dialect::Ascend),
        ..LaunchConfig::default()
    };
    let t = run_finished(src, config);
    assert_eq!(t.launch.block_dim, [64, 1, 1]);
    assert_eq!(t.launch.grid_dim, [2, 1, 1]);
    let want: Vec<Option<i128>> = (0..128i128).map(|i| Some(3 * i + (i ^ 1))).collect();
    assert_eq!(ints(&t, "out"), want);
}

/// The vector API (`AscendC::LocalTensor`, `TPipe`, `DataCopy`) is refused at its first use,
/// naming it and the SIMT API that runs.
#[test]
fn the_vector_api_is_refused_by_name() {
    let src = "\
#include \"kernel_operator.h\"
class KernelCopy {
public:
    __aicore__ inline void Run(GM_ADDR x)
    {
        AscendC::LocalTensor<half> t = q.AllocTensor<half>();
        AscendC::DataCopy(t, g[0], 16);
    }
private:
    AscendC::TPipe pipe;
};
extern \"C\" __global__ __aicore__ void copy(GM_ADDR x) { KernelCopy op; op.Run(x); }";
    let e = refused(src, ascend(32, &[]));
    assert!(e.contains("6:9"), "{e}");
    assert!(
        e.contains("`AscendC::LocalTensor` is Ascend C's vector (SIMD) API"),
        "{e}"
    );
    assert!(e.contains("only Ascend C's SIMT API runs here"), "{e}");
}
