//! Shapes the inference-library corpus (llama.cpp's softmax launcher, vLLM's GGUF mat-vec, the
//! CUB check in llama.cpp's cumsum) met: a host struct value-initialized with `{}` whose
//! members are set afterwards, a function pointer type whose parameters name a struct, a null
//! pointer passed through a cast, and `#ifdef __has_include`. Kernels written here in those
//! shapes; each expected value is derived by hand in the comment beside it. Also vLLM's
//! layernorm shapes: kernels overloaded by an `enable_if` return type whose condition is
//! parenthesized and reads a class template's constant, chosen by `--entry`, a vector struct
//! with `operator*=` for itself and for `float`, `std::is_pod_v`, and a header's qualified type
//! as a template argument, refused by its name.

use crate::support::{floats, has, launch, refused, run_default, run_finished};
use crosslane_core::op::Dialect;
use crosslane_core::Level;
use crosslane_kernel::LaunchConfig;

#[test]
fn value_initialized_host_struct_keeps_float_members_float() {
    // `P p = {};` value-initializes every member ([dcl.init.aggr]/8, [dcl.init]/8): `scale` is
    // the float 0.0f, and `p.scale = 0.5f;` stores 0.5 in it (a float member, not an int).
    // out[i] = 0.5 * i + 3 for i in 0..8: 3, 3.5, 4, …, 6.5. `Q q{};` with `q.w = 2.5f` the
    // same: out2[i] = 2.5 * i - 1.
    let src = "\
#include <cstdint>
struct P { int64_t a; uint32_t b; int64_t c; float scale; float m0; };
struct Q { int n; float w; };
__global__ void k(float *out, float *out2, const P p, const Q q) {
  out[threadIdx.x] = p.scale * threadIdx.x + p.c;
  out2[threadIdx.x] = q.w * threadIdx.x + q.n;
}
int main() {
  float *o, *o2;
  cudaMalloc(&o, 8 * sizeof(float));
  cudaMalloc(&o2, 8 * sizeof(float));
  P p = {};
  p.a = 1; p.b = 2; p.c = 3; p.scale = 0.5f;
  Q q{};
  q.n = -1; q.w = 2.5f;
  k<<<1, 8>>>(o, o2, p, q);
  return 0;
}
";
    let t = run_default(src);
    let want: Vec<Option<f64>> = (0..8).map(|i| Some(0.5 * f64::from(i) + 3.0)).collect();
    assert_eq!(floats(&t, "out"), want);
    let want2: Vec<Option<f64>> = (0..8).map(|i| Some(2.5 * f64::from(i) - 1.0)).collect();
    assert_eq!(floats(&t, "out2"), want2);
}

#[test]
fn aggregate_initializer_converts_to_each_member_type() {
    // `Q q = {7};` gives n = 7 and value-initializes w to 0.0f; `q.w += 0.25f;` is then 0.25
    // (float arithmetic), and `R r = {2.75f};` converts 2.75 to the int member: 2
    // ([conv.fpint]/1 truncates). out[i] = 0.25 * i + 7 + 2.
    let src = "\
struct Q { int n; float w; };
struct R { int m; };
__global__ void k(float *out, Q q, R r) { out[threadIdx.x] = q.w * threadIdx.x + q.n + r.m; }
int main() {
  float *o;
  cudaMalloc(&o, 4 * sizeof(float));
  Q q = {7};
  q.w += 0.25f;
  R r = {(int)2.75f};
  k<<<1, 4>>>(o, q, r);
  return 0;
}
";
    let t = run_default(src);
    assert_eq!(
        floats(&t, "out"),
        vec![Some(9.0), Some(9.25), Some(9.5), Some(9.75)]
    );
}

#[test]
fn function_pointer_type_with_struct_parameter_is_a_template_parameter_type() {
    // `typedef float (*dot_t)(const void *, const Blk *, const int &);` names a struct in its
    // parameters; `mv<dot_blk>` calls `dot_blk` directly ([temp.arg.nontype]/1). Each lane
    // reads block `lane % 4`: d = 0.5 * (b + 1), q = {b, b + 1} (from the fill below), so
    // dot = d * (q0 + q1) * k with k = lane / 4 + 1. Lane 5: b = 1, d = 1.0, q = {1, 2},
    // k = 2: 6. Lane 0: 0.5 * (0 + 1) * 1 = 0.5.
    let src = "\
struct Blk { float d; int q[2]; };
typedef float (*dot_t)(const void * __restrict__ vx, const Blk * __restrict__ b, const int & k);
__device__ float dot_blk(const void * __restrict__ vx, const Blk * __restrict__ b, const int & k) {
  return b->d * (b->q[0] + b->q[1]) * k;
}
template <int N, dot_t DOT>
__global__ void mv(const Blk *blocks, float *out) {
  const int k = threadIdx.x / N + 1;
  out[threadIdx.x] = DOT(nullptr, &blocks[threadIdx.x % N], k);
}
int main() {
  Blk h[4];
  for (int b = 0; b < 4; b++) { h[b].d = 0.5f * (b + 1); h[b].q[0] = b; h[b].q[1] = b + 1; }
  Blk *d; float *o;
  cudaMalloc(&d, sizeof(h));
  cudaMalloc(&o, 8 * sizeof(float));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  mv<4, dot_blk><<<1, 8>>>(d, o);
  return 0;
}
";
    let t = run_default(src);
    assert!(
        !has(&t, Level::Error, "unknown type"),
        "{:?}",
        t.diagnostics
    );
    // lanes 0..3, k = 1: 0.5*1, 1.0*3, 1.5*5, 2.0*7; lanes 4..7, k = 2: twice those.
    let want = [0.5, 3.0, 7.5, 14.0, 1.0, 6.0, 15.0, 28.0]
        .map(Some)
        .to_vec();
    assert_eq!(floats(&t, "out"), want);
}

#[test]
fn null_pointer_through_a_cast_in_a_launch_is_the_null_pointer() {
    // `(const float *)nullptr` and `static_cast<float *>(NULL)` are null pointer values of
    // those types ([expr.cast]/4, [expr.static.cast]/7, [conv.ptr]/1): `bias ? … : 0` takes
    // 0 and `scale == nullptr` is true. out[i] = x[i] + 0 + 1 = i + 1.
    let src = "\
__global__ void k(const float *x, const float *bias, float *scale, float *out) {
  const float b = bias ? bias[threadIdx.x] : 0.0f;
  out[threadIdx.x] = x[threadIdx.x] + b + (scale == nullptr ? 1.0f : scale[0]);
}
int main() {
  float hx[4] = {0, 1, 2, 3};
  float *x, *out;
  cudaMalloc(&x, sizeof(hx));
  cudaMalloc(&out, sizeof(hx));
  cudaMemcpy(x, hx, sizeof(hx), cudaMemcpyHostToDevice);
  k<<<1, 4>>>(x, (const float *)nullptr, static_cast<float *>(NULL), out);
  return 0;
}
";
    let t = run_default(src);
    assert_eq!(
        floats(&t, "out"),
        vec![Some(1.0), Some(2.0), Some(3.0), Some(4.0)]
    );
}

#[test]
fn ifdef_has_include_is_taken() {
    // GCC and Clang define `__has_include` for `#ifdef` (GCC manual, "__has_include": "can be
    // used with #ifdef"), and `<cub/cub.cuh>` ships with the toolkit: HAVE is 1. The `#else`
    // branch would give 0.
    let src = "\
#ifdef __has_include
#  if __has_include(<cub/cub.cuh>)
#    define HAVE 1
#  else
#    define HAVE 2
#  endif
#else
#  define HAVE 0
#endif
#if defined(__has_builtin) && defined(__has_attribute)
#  define BOTH 10
#else
#  define BOTH 0
#endif
__global__ void k(float *out) { out[threadIdx.x] = HAVE + BOTH; }
";
    let t = run_default(src);
    assert_eq!(floats(&t, "out")[0], Some(11.0));
}

/// A vLLM-shaped pair of kernels told apart by their return types' `enable_if` (a condition in
/// parentheses reading `Conv<T>::exists`), a vector struct with two `operator*=`, and
/// `static_assert(std::is_pod_v<Vec<T, W>>)`.
const SFINAE_KERNELS: &str = "\
#include <type_traits>
template <typename T> struct Conv { static constexpr bool exists = false; };
template <> struct Conv<float> { static constexpr bool exists = true; };
template <typename T, int W>
struct Vec {
  T data[W];
  __device__ Vec& operator*=(const Vec<T, W>& o) {
    for (int i = 0; i < W; ++i) data[i] *= o.data[i];
    return *this;
  }
  __device__ Vec& operator*=(const float s) {
    for (int i = 0; i < W; ++i) data[i] = data[i] * s;
    return *this;
  }
};
template <typename T, int W>
__global__ std::enable_if_t<(W > 0) && Conv<T>::exists>
scale(T* out, const T* in) {
  static_assert(std::is_pod_v<Vec<T, W>>);
  const auto* in_v = reinterpret_cast<const Vec<T, W>*>(in);
  auto* out_v = reinterpret_cast<Vec<T, W>*>(out);
  Vec<T, W> v = in_v[threadIdx.x];
  v *= 2.0f;
  v *= v;
  out_v[threadIdx.x] = v;
}
template <typename T, int W>
__global__ std::enable_if_t<(W == 0) || !Conv<T>::exists>
scale(T* out, const T* in) {
  out[threadIdx.x] = -in[threadIdx.x];
}
";

fn sfinae_run(entry: &str) -> crosslane_kernel::KernelTrace {
    let config = LaunchConfig {
        entry: Some(entry.into()),
        ..launch(Dialect::Cuda, 4, &[("in", 8, "index"), ("out", 8, "zero")])
    };
    run_finished(SFINAE_KERNELS, config)
}

#[test]
fn entry_chooses_the_kernel_whose_enable_if_return_type_holds() {
    // `scale<float, 2>`: (2 > 0) && Conv<float>::exists is true, so the first kernel; lane L
    // reads in[2L], in[2L+1] (= 2L, 2L+1), doubles them (`*= 2.0f`, the float overload; the
    // struct overload cannot take a float) and squares them (`v *= v`): out[i] = (2i)^2.
    let t = sfinae_run("scale<float, 2>");
    let want: Vec<Option<f64>> = (0..8).map(|i| Some(f64::from(4 * i * i))).collect();
    assert_eq!(floats(&t, "out"), want);
    // `scale<float, 0>`: the second (W == 0): out[L] = -in[L] for the 4 lanes.
    let t = sfinae_run("scale<float, 0>");
    assert_eq!(
        floats(&t, "out")[..4].to_vec(),
        vec![Some(0.0), Some(-1.0), Some(-2.0), Some(-3.0)]
    );
}

#[test]
fn device_function_enable_if_return_type_with_parenthesized_condition() {
    // f<float, 2>(1.5f): first (2 > 0 and Conv<float>::exists) = 3; f<float, 0>(1.0f): second
    // = -1; f<int, 3>(2): Conv<int>::exists is false, second = -2. Sum 0.
    let src = "\
#include <type_traits>
template <typename T> struct Conv { static constexpr bool exists = false; };
template <> struct Conv<float> { static constexpr bool exists = true; };
template <typename T, int W>
__device__ std::enable_if_t<(W > 0) && Conv<T>::exists, T> f(T x) { return x * W; }
template <typename T, int W>
__device__ std::enable_if_t<(W == 0) || !Conv<T>::exists, T> f(T x) { return -x; }
__global__ void k(float* out) { out[threadIdx.x] = f<float, 2>(1.5f) + f<float, 0>(1.0f) + (float)f<int, 3>(2); }
";
    let t = run_default(src);
    assert_eq!(floats(&t, "out")[0], Some(0.0));
}

#[test]
fn header_type_as_template_argument_is_refused_by_name() {
    // `torch::headeronly::Half` comes from a header, which is not read: the refusal names it
    // (it used to say "a template value argument must be a constant expression").
    let src = "\
#include <torch/headeronly/util/Half.h>
template <typename T> struct Conv { static constexpr bool exists = false; };
template <> struct Conv<torch::headeronly::Half> {
  static constexpr bool exists = true;
  using hip_type = __half;
  __device__ static __forceinline__ float convert(hip_type x) { return __half2float(x); }
};
__global__ void k(float* out) { out[threadIdx.x] = Conv<float>::exists; }
";
    let msg = refused(src, LaunchConfig::default());
    assert!(
        msg.contains("`torch::headeronly::Half` is not declared"),
        "{msg}"
    );
}

#[test]
fn aligned_storage_shared_array_and_thrust_pair_tie() {
    // PyTorch's shape: a shared `std::aligned_storage<sizeof(W), alignof(W)>::type` array
    // viewed as `W*`, and a `thrust::pair` result unpacked by `thrust::tie`. Lane L stores
    // {L, 2L} in slot L; lane L reads slot 31 - L and returns pair(a + 1, b * 2), tied to
    // (x, y): out[L] = x * 100 + y = (32 - L) * 100 + 4 * (31 - L). Lane 0: 3200 + 124 = 3324.
    let src = "\
#include <type_traits>
#include <thrust/pair.h>
#include <thrust/tuple.h>
struct W { float a; float b; };
__device__ thrust::pair<float, float> bump(const W& w) { return thrust::make_pair(w.a + 1.0f, w.b * 2.0f); }
__global__ void k(float* out) {
  __shared__ typename std::aligned_storage<sizeof(W), alignof(W)>::type buf[32];
  W* slots = reinterpret_cast<W*>(buf);
  slots[threadIdx.x].a = threadIdx.x;
  slots[threadIdx.x].b = 2.0f * threadIdx.x;
  __syncthreads();
  float x, y;
  thrust::tie(x, y) = bump(slots[31 - threadIdx.x]);
  out[threadIdx.x] = x * 100.0f + y;
}
";
    let t = run_default(src);
    let want: Vec<Option<f64>> = (0..32)
        .map(|l| Some(f64::from((32 - l) * 100 + 4 * (31 - l))))
        .collect();
    assert_eq!(floats(&t, "out"), want);
}

#[test]
fn kernel_template_launched_without_template_arguments_deduces_them() {
    // `twice<<<1, 4>>>(d, 3)` with `template <typename T> __global__ void twice(T* d, int n)`:
    // every template argument may be left out when the launch's arguments deduce it
    // ([temp.arg.explicit]/4, [temp.deduct.call]/1): `float* d` gives T = float. Lanes 0-2
    // write d[i] * 2 + 0.5 = 2.5, 4.5, 6.5; lane 3 is past n and leaves 4.
    let src = "\
template <typename T>
__global__ void twice(T* d, int n) { if (threadIdx.x < n) d[threadIdx.x] = d[threadIdx.x] * 2 + (T)0.5; }
int main() {
  float h[4] = {1, 2, 3, 4};
  float *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  twice<<<1, 4>>>(d, 3);
  return 0;
}
";
    let t = run_default(src);
    assert_eq!(
        floats(&t, "d"),
        vec![Some(2.5), Some(4.5), Some(6.5), Some(4.0)]
    );
}

#[test]
fn host_loop_stores_make_half2_into_a_struct_array_member() {
    // The GGUF test-driver shape: `h[b].ds = make_half2(0.1f * b, 1.0f / 3);` in a host loop
    // fills the half2 member, each component rounded to half (CUDA Math API, make_half2).
    // Python: h = lambda v: struct.unpack('e', struct.pack('e', v))[0]; with float inputs,
    //   [h(f(0.1) * b) + h(f(1.0) / 3) for b in range(4)]
    //   == [0.333251953125, 0.4332275390625, 0.533203125, 0.63330078125]
    // and qs[1] = -b is added: 0.333251953125, -0.5667724609375, -1.466796875, -2.36669921875.
    let src = "\
#include <cuda_fp16.h>
struct Q { half2 ds; signed char qs[2]; };
__global__ void k(const Q* q, float* out) {
  out[threadIdx.x] = __low2float(q[threadIdx.x].ds) + __high2float(q[threadIdx.x].ds) + q[threadIdx.x].qs[1];
}
int main() {
  Q h[4];
  for (int b = 0; b < 4; b++) { h[b].ds = make_half2(0.1f * b, 1.0f / 3); h[b].qs[0] = b; h[b].qs[1] = -b; }
  Q* d; float* o;
  cudaMalloc(&d, sizeof(h)); cudaMalloc(&o, 4 * sizeof(float));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  k<<<1, 4>>>(d, o);
  return 0;
}
";
    let t = run_default(src);
    assert_eq!(
        floats(&t, "out"),
        vec![
            Some(0.333_251_953_125),
            Some(-0.566_772_460_937_5),
            Some(-1.466_796_875),
            Some(-2.366_699_218_75)
        ]
    );
}
