//! C++ shapes of public inference headers (vLLM's dtype headers, Megatron's fused softmax,
//! PyTorch's reduce ops, FasterTransformer's top-k) that the front end once refused: function
//! template specializations of a primary only declared, with their arguments written or
//! deduced; struct aliases of class template specializations at file and class scope; CUB
//! reductions over a user struct; a file-scope alias as a CUB operator; a returned struct of
//! array members. Every expected value is derived beside its test, independently of the
//! interpreter.

use crate::cells::cell_ints as ints;
use crate::support::floats;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

/// Runs `src` with `threads` threads in one block and `out` cells of `out`.
fn run(src: &str, threads: usize, out: usize) -> KernelTrace {
    let config = LaunchConfig {
        block_dim: Some([threads, 1, 1]),
        buffer_len: [("out".to_string(), out)].into(),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(
        t.outcome,
        Some(Outcome::Finished),
        "{:?}: {:?}",
        t.outcome,
        t.merged_diagnostics
    );
    t
}

#[test]
fn a_declared_primarys_specialization_with_written_arguments_is_what_the_call_reaches() {
    // mul<float, float, float>(2, t) = 2t.
    let src = "\
template <typename Acc, typename A, typename B>
inline __device__ Acc mul(A a, B b);
template <>
inline __device__ float mul<float, float, float>(float a, float b) { return a * b; }
__global__ void k(float *out) {
    out[threadIdx.x] = mul<float, float, float>(2.0f, threadIdx.x);
}";
    let t = run(src, 4, 4);
    assert_eq!(
        floats(&t, "out"),
        vec![Some(0.0), Some(2.0), Some(4.0), Some(6.0)]
    );
}

#[test]
fn a_specialization_without_arguments_deduces_them_from_its_whole_signature() {
    // Acc = float2 from the return type, A = B = float2 from the parameters:
    // (2·t, 3·1) summed = 2t + 3. The primary's own body (Acc{} = 0) is not what runs.
    let src = "\
template <typename Acc, typename A, typename B>
inline __device__ Acc mul(A a, B b) { return Acc{}; }
template <>
inline __device__ float2 mul(float2 a, float2 b) { float2 c; c.x = a.x * b.x; c.y = a.y * b.y; return c; }
__global__ void k(float *out) {
    float2 r = mul<float2, float2, float2>(make_float2(2.0f, 3.0f), make_float2(threadIdx.x, 1.0f));
    out[threadIdx.x] = r.x + r.y;
}";
    let t = run(src, 4, 4);
    assert_eq!(
        floats(&t, "out"),
        vec![Some(3.0), Some(5.0), Some(7.0), Some(9.0)]
    );
}

#[test]
fn deduced_specializations_of_one_parameter_differ_by_parameter_type_not_return_type() {
    // Both return float; sum(float) is sum<float>, sum(float4) is sum<float4> (deduced from
    // the parameter, [temp.deduct.decl]): sum(t) + sum((t, 1, 2, 3)) = t + t + 6 = 2t + 6.
    let src = "\
template <typename T> inline __device__ float sum(T v);
template <> inline __device__ float sum(float v) { return v; }
template <> inline __device__ float sum(float4 v) { return v.x + v.y + v.z + v.w; }
__global__ void k(float *out) {
    float t = threadIdx.x;
    out[threadIdx.x] = sum(t) + sum(make_float4(t, 1.0f, 2.0f, 3.0f));
}";
    let t = run(src, 4, 4);
    assert_eq!(
        floats(&t, "out"),
        vec![Some(6.0), Some(8.0), Some(10.0), Some(12.0)]
    );
}

#[test]
fn a_specialization_that_deduces_one_parameter_two_ways_or_an_instance_never_defined_is_refused() {
    let clash = "\
template <typename T> __device__ T pick(T a, T b) { return a; }
template <> __device__ int pick(int a, float b) { return a; }
__global__ void k(int *out) { out[threadIdx.x] = pick(1, 2); }";
    let e = run_kernel(clash, LaunchConfig::default()).expect_err("refused");
    assert!(
        e.message.contains("`T` deduced as both `int` and `float`"),
        "{}",
        e.message
    );
    let undefined = "\
template <typename Acc, typename A, typename B> inline __device__ Acc mul(A a, B b);
template <> inline __device__ float mul(float a, float b) { return a * b; }
__global__ void k(int *out) { out[threadIdx.x] = mul<int, int, int>(2, 3); }";
    let e = run_kernel(undefined, LaunchConfig::default()).expect_err("refused");
    assert!(
        e.message
            .contains("`mul<int,int,int>` is called but never defined"),
        "{}",
        e.message
    );
}

#[test]
fn a_file_scope_alias_of_a_class_template_specialization_names_that_struct() {
    // `using` and `typedef` both name Box<float>: v = t / 2.
    for alias in ["using BoxF = Box<float>;", "typedef Box<float> BoxF;"] {
        let src = format!(
            "template <typename T> struct Box {{ T v; }};
{alias}
__global__ void k(float *out) {{
  BoxF p;
  p.v = threadIdx.x * 0.5f;
  out[threadIdx.x] = p.v;
}}"
        );
        let t = run(&src, 4, 4);
        assert_eq!(
            floats(&t, "out"),
            vec![Some(0.0), Some(0.5), Some(1.0), Some(1.5)],
            "{alias}"
        );
    }
}

#[test]
fn a_member_alias_of_a_class_template_specialization_types_the_members_functions() {
    // combine(a, a) with a = {t, 1}: mean 2t, n 2, so mean + n = 2t + 2.
    let src = "\
template <typename T, typename I>
struct Data { T mean; I n; };
template <typename T>
struct Ops {
  using acc_t = Data<T, int>;
  __device__ acc_t combine(acc_t a, acc_t b) const { return {a.mean + b.mean, a.n + b.n}; }
};
__global__ void k(float *out) {
  Ops<float> op;
  Data<float, int> a = {threadIdx.x * 1.0f, 1};
  Data<float, int> r = op.combine(a, a);
  out[threadIdx.x] = r.mean + r.n;
}";
    let t = run(src, 4, 4);
    assert_eq!(
        floats(&t, "out"),
        vec![Some(2.0), Some(4.0), Some(6.0), Some(8.0)]
    );
}

#[test]
fn a_file_scope_alias_of_a_library_operator_is_that_operator_in_a_cub_reduction() {
    // x[t] = t over 64 threads: the block maximum is 63, held by thread 0.
    let src = "\
#include <cub/cub.cuh>
#include <cuda/std/functional>
using MaxOp = cuda::maximum<>;
__global__ void k(const float *x, float *out) {
  using BlockReduce = cub::BlockReduce<float, 64>;
  __shared__ typename BlockReduce::TempStorage tmp;
  const float m = BlockReduce(tmp).Reduce(x[threadIdx.x], MaxOp());
  if (threadIdx.x == 0) out[0] = m;
}";
    let config = LaunchConfig {
        block_dim: Some([64, 1, 1]),
        buffer_len: [("x".to_string(), 64), ("out".to_string(), 1)].into(),
        args: [("x".to_string(), "index".to_string())].into(),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(floats(&t, "out"), vec![Some(63.0)]);
}

#[test]
fn a_struct_with_array_members_is_returned_whole_from_a_template() {
    // pick returns b unless a.u[0] = t > 2: p[0] is b's 2 for t = 0, 1, 2 and a's 1 for t = 3.
    let src = "\
template <typename T, int MAX_K>
struct TopK { int p[MAX_K]; T u[MAX_K]; };
template <typename T, int MAX_K>
__device__ TopK<T, MAX_K> pick(const TopK<T, MAX_K>& a, const TopK<T, MAX_K>& b) {
  TopK<T, MAX_K> res = a.u[0] > b.u[0] ? a : b;
  return res;
}
__global__ void k(int *out) {
  TopK<float, 2> a, b, o;
  a.u[0] = threadIdx.x; a.u[1] = 0; a.p[0] = 1; a.p[1] = 0;
  b.u[0] = 2.0f;        b.u[1] = 0; b.p[0] = 2; b.p[1] = 0;
  o = pick<float, 2>(a, b);
  out[threadIdx.x] = o.p[0];
}";
    let t = run(src, 4, 4);
    assert_eq!(
        ints(t.buffer("out").expect("out")),
        vec![Some(2), Some(2), Some(2), Some(1)]
    );
}

/// FasterTransformer's top-k stage shape: a block argmax through `cub::BlockReduce` of a
/// struct with a device function as the operator (`H` for CUDA, with hipCUB's names for HIP).
const TOPK_STAGE: &str = "\
#include <cub/cub.cuh>
struct TopK_2 { int p = -1; float u = -FLT_MAX; };
__device__ __forceinline__ TopK_2 reduce_topk_op_2(const TopK_2& a, const TopK_2& b) { return a.u > b.u ? a : b; }
__global__ void k(const float *x, int *out) {
  typedef cub::BlockReduce<TopK_2, THREADS> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp_storage;
  TopK_2 partial;
  partial.u = x[threadIdx.x];
  partial.p = threadIdx.x;
  TopK_2 total = BlockReduce(temp_storage).Reduce(partial, reduce_topk_op_2);
  if (threadIdx.x == 0) out[0] = total.p;
}";

#[test]
fn a_block_reduce_over_a_struct_with_a_device_function_operator_finds_the_argmax() {
    for (dialect, lanes, threads) in [
        (crosslane_core::Dialect::Cuda, 32usize, 64usize),
        (crosslane_core::Dialect::Hip, 64, 128),
    ] {
        let src = TOPK_STAGE.replace("THREADS", &threads.to_string());
        let src = if dialect == crosslane_core::Dialect::Hip {
            src.replace("cub/cub.cuh", "hipcub/hipcub.hpp")
                .replace("cub::", "hipcub::")
        } else {
            src
        };
        let config = LaunchConfig {
            dialect: Some(dialect),
            lanes: Some(lanes),
            block_dim: Some([threads, 1, 1]),
            buffer_len: [("x".to_string(), threads), ("out".to_string(), 1)].into(),
            args: [("x".to_string(), "random:3".to_string())].into(),
            ..LaunchConfig::default()
        };
        let t = run_kernel(&src, config).expect("runs");
        assert_eq!(t.outcome, Some(Outcome::Finished), "{dialect:?}");
        // The argmax of the input as the trace holds it (the fill's values are distinct here;
        // a tie would go to the later operand, see the snapshot cub_struct_reduce.cu).
        let x: Vec<f64> = floats(&t, "x").into_iter().map(|v| v.expect("x")).collect();
        let max = x.iter().cloned().fold(f64::MIN, f64::max);
        assert_eq!(
            x.iter().filter(|&&v| v == max).count(),
            1,
            "{dialect:?}: ties"
        );
        let want = x.iter().position(|&v| v == max).expect("a maximum");
        assert_eq!(
            ints(t.buffer("out").expect("out")),
            vec![Some(want as i128)],
            "{dialect:?}"
        );
    }
}
