//! Shapes the second inference-library corpus met (bitsandbytes' blockwise quantizer,
//! DeepSpeed's launchers, sglang's and vLLM's group quantizers, llama.cpp's cooperative
//! softmax): a conditional expression as a template argument, a host function template's
//! explicit specialization that launches, `const_cast`, `auto` from a dereferenced cast
//! pointer, a host `__float2bfloat16` fill and a grid from `pow`/`floor`/`log2`, and a struct
//! passed by value (`const` too) whose array member host code fills by a braced list,
//! value-initialization or stores. Kernels written here in those shapes; each expected value is
//! derived by hand (or by the Python line quoted) in the comment beside it.

use crate::support::{floats, ints, launch, run_default, run_finished};
use crosslane_core::op::Dialect;

#[test]
fn conditional_expression_is_a_template_argument() {
    // C++17 [temp.arg]/1: a non-type template argument is a constant-expression, and a
    // conditional-expression is one ([expr.const]/1). With PACK = 4:
    // `cub::BlockReduce<int, (PACK > 1) ? 32 : 64>` is a 32-thread reduce; the block's 32
    // lanes read in[i] = i (the host fill), so the sum is 0 + 1 + … + 31 = 496.
    // `twice<(PACK > 1) ? PACK / 2 : PACK + 5>()` is twice<2>() = 4; the right-grouped
    // `PACK == 2 ? 1 : PACK == 4 ? 3 : 9` ([expr.cond]) is 3, twice<3>() = 6: 4 + 6 = 10.
    let src = "\
#include <cub/cub.cuh>
template <int N> __device__ int twice() { return 2 * N; }
template <int PACK>
__global__ void k(const int *in, int *sum, int *o) {
  typedef cub::BlockReduce<int, (PACK > 1) ? 32 : 64> R;
  __shared__ typename R::TempStorage tmp;
  int s = R(tmp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) sum[0] = s;
  o[threadIdx.x] = twice<(PACK > 1) ? PACK / 2 : PACK + 5>() + twice<PACK == 2 ? 1 : PACK == 4 ? 3 : 9>();
}
int main() {
  int h[32];
  for (int i = 0; i < 32; i++) h[i] = i;
  int *in, *sum, *o;
  cudaMalloc(&in, 32 * sizeof(int));
  cudaMalloc(&sum, sizeof(int));
  cudaMalloc(&o, 32 * sizeof(int));
  cudaMemcpy(in, h, 32 * sizeof(int), cudaMemcpyHostToDevice);
  k<4><<<1, 32>>>(in, sum, o);
  return 0;
}
";
    let t = run_default(src);
    assert_eq!(ints(&t, "sum"), vec![Some(496)]);
    assert_eq!(ints(&t, "o"), vec![Some(10); 32]);
}

#[test]
fn host_function_template_specialization_is_read_at_its_call() {
    // C++17 [temp.expl.spec]/1: `launch_k<float>` is the explicit specialization's own body,
    // the primary only declared. Its launch `k<<<1, 32>>>(out, a, n)` with a = 0.5, n = 20
    // writes out[i] = 0.5 * i for i < 20; cells 20..32 are never written (undefined).
    let src = "\
__global__ void k(float *out, float a, int n) { if (threadIdx.x < n) out[threadIdx.x] = a * threadIdx.x; }
__global__ void k(int *out, float a, int n) { if (threadIdx.x < n) out[threadIdx.x] = 7; }
template <typename T>
void launch_k(T *out, float a, int n, cudaStream_t stream);
template <>
void launch_k<float>(float *out, float a, int n, cudaStream_t stream)
{
    int threads = 32;
    dim3 grid_dim(1);
    k<<<grid_dim, threads, 0, stream>>>(out, a, n);
}
template <>
void launch_k<int>(int *out, float a, int n, cudaStream_t stream)
{
    k<<<1, 16, 0, stream>>>(out, a, n);
}
int main() {
  float *o;
  cudaMalloc(&o, 32 * sizeof(float));
  launch_k<float>(o, 0.5f, 20, 0);
  return 0;
}
";
    let t = run_default(src);
    let want: Vec<Option<f64>> = (0..32)
        .map(|i| (i < 20).then(|| 0.5 * f64::from(i)))
        .collect();
    assert_eq!(floats(&t, "out"), want);
}

#[test]
fn auto_from_a_dereferenced_cast_pointer_and_const_cast() {
    // `auto bits = *reinterpret_cast<unsigned*>(&x);` is an `unsigned` ([expr.unary.op]/1,
    // [dcl.spec.auto]/4), so `(bits >> 23) & 0xff` is the biased exponent (IEEE 754 binary32):
    // 1.0 → 127, 2.0 → 128, 4.0 → 129, 0.5 → 126. `const_cast<float*>(in)` is `in` itself
    // ([expr.const.cast]/3): o = 2 * in.
    let src = "\
__global__ void k(const float *in, unsigned *e, float *o) {
  float x = in[threadIdx.x];
  auto bits = *reinterpret_cast<unsigned*>(&x);
  auto ex = (bits >> 23) & 0xff;
  e[threadIdx.x] = ex;
  float *w = const_cast<float*>(in);
  o[threadIdx.x] = w[threadIdx.x] * 2.0f;
}
";
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            4,
            &[("in", 4, "1,2,4,0.5"), ("e", 4, "zero"), ("o", 4, "zero")],
        ),
    );
    assert_eq!(
        ints(&t, "e"),
        vec![Some(127), Some(128), Some(129), Some(126)]
    );
    assert_eq!(
        floats(&t, "o"),
        vec![Some(2.0), Some(4.0), Some(8.0), Some(1.0)]
    );
}

#[test]
fn host_bfloat16_fill_and_a_grid_from_pow_floor_log2() {
    // hx[i] = __float2bfloat16(1.0f + i / 3.0f): rounded to nearest-even bfloat16 (CUDA Math
    // API); Python: bf(f32(1 + f32(i / f32(3)))) = 1.0, 1.3359375, 1.6640625, 2.0, 2.328125,
    // 2.671875, 3.0, 3.328125. per = (int)pow(2.0, floor(log2((float)(8 / 2)))) = 4, so the
    // grid is 8 / 4 = 2 blocks of 4 threads, covering all 8 cells.
    let src = "\
#include <cuda_bf16.h>
#include <cmath>
__global__ void k(const __nv_bfloat16 *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = __bfloat162float(x[i]);
}
int main() {
  const int n = 8;
  __nv_bfloat16 hx[8];
  for (int i = 0; i < n; i++) hx[i] = __float2bfloat16(1.0f + i / 3.0f);
  __nv_bfloat16 *x; float *y;
  cudaMalloc(&x, n * sizeof(__nv_bfloat16));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemcpy(x, hx, n * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice);
  int per = (int)pow(2.0, floor(log2((float)(n / 2))));
  dim3 grid(n / per);
  k<<<grid, per>>>(x, y);
  return 0;
}
";
    let t = run_default(src);
    assert_eq!(
        floats(&t, "y"),
        [1.0, 1.3359375, 1.6640625, 2.0, 2.328125, 2.671875, 3.0, 3.328125]
            .map(Some)
            .to_vec()
    );
}

#[test]
fn struct_array_member_from_braced_list_and_value_initialization() {
    // `P p = {5, {1, 2, 3, 4}, 0.5f};` gives ne its own list ([dcl.init.aggr]/3):
    // out = 0.5 * (1 + 2*10 + 3*100 + 4*1000) + 5 = 2165.5. `P q = {};` value-initializes
    // ne to zeros ([dcl.init.aggr]/8); then q.ne[2] = 3, q.n = 7, q.s = 1:
    // out2 = 1 * (3 * 100) + 7 = 307. The kernel takes `const P` by value: a copy all the
    // same ([expr.call]/7).
    let src = "\
struct P { int n; int ne[4]; float s; };
__global__ void k(float *out, float *out2, const P p, const P q) {
  out[threadIdx.x] = p.s * (p.ne[0] + p.ne[1] * 10 + p.ne[2] * 100 + p.ne[3] * 1000) + p.n;
  out2[threadIdx.x] = q.s * (q.ne[0] + q.ne[1] * 10 + q.ne[2] * 100 + q.ne[3] * 1000) + q.n;
}
int main() {
  float *o, *o2;
  cudaMalloc(&o, 2 * sizeof(float));
  cudaMalloc(&o2, 2 * sizeof(float));
  P p = {5, {1, 2, 3, 4}, 0.5f};
  P q = {};
  q.ne[2] = 3;
  q.n = 7;
  q.s = 1.0f;
  k<<<1, 2>>>(o, o2, p, q);
  return 0;
}
";
    let t = run_default(src);
    assert_eq!(floats(&t, "out"), vec![Some(2165.5); 2]);
    assert_eq!(floats(&t, "out2"), vec![Some(307.0); 2]);
}

#[test]
fn lambda_held_in_a_struct_through_decay_t_and_forward() {
    // vLLM's vectorize helper shape: a device lambda passed as `F&&`, wrapped in
    // `W<std::decay_t<F>>` (the closure type itself, [meta.trans.other]) built as `W{f}`, whose
    // `operator()` calls the member `f(d, s)` ([over.call]/1); `std::forward<F>(f)` is `f`
    // ([forward]/2). The lambda doubles and accumulates the input into `acc` by reference, so
    // out[i] = 2 * in[i] + in[i] (the first pass) + in[i] (the forwarded pass) = 4 * in[i]
    // with in[i] = i: 0, 4, 8, 12.
    let src = "\
#include <type_traits>
#include <utility>
template <typename F>
struct W { F f; __device__ void operator()(float& d, float s) const { f(d, s); } };
template <typename F>
__device__ void second(float* o, const float* i, F&& f) {
  float t;
  f(t, i[threadIdx.x]);
}
template <typename F>
__device__ void apply(float* o, const float* i, F&& f) {
  using V = W<std::decay_t<F>>;
  V w{f};
  w(o[threadIdx.x], i[threadIdx.x]);
  second(o, i, std::forward<F>(f));
}
__global__ void k(const float* in, float* out) {
  float acc = 0.f;
  auto l = [&] __device__ (float& d, const float& s) { d = s * 2.0f; acc += s; };
  apply(out, in, l);
  out[threadIdx.x] += acc;
}
";
    let t = run_finished(
        src,
        launch(Dialect::Cuda, 4, &[("in", 4, "index"), ("out", 4, "zero")]),
    );
    assert_eq!(
        floats(&t, "out"),
        vec![Some(0.0), Some(4.0), Some(8.0), Some(12.0)]
    );
}

#[test]
fn inline_ptx_global_vector_load_and_store() {
    // PTX ISA, ld / ld.global.nc / st: a `.v4.s32` access moves four consecutive `int`s;
    // the cache qualifiers change no value. Thread t loads in[4t..4t+4] = 4t, 4t+1, 4t+2, 4t+3
    // (an index fill), adds 1 to x and doubles w, stores the four at out[4t..]: thread 0
    // 1, 1, 2, 6; thread 1 5, 5, 6, 14. `ld.global.f32 %0, [%1+8]` reads the float two cells
    // on: g[t] = f[t + 2] = t + 2. The store's operands follow `::` (no outputs).
    let src = r#"
__device__ __forceinline__ int4 ld_nc(const int4* p) {
  int4 r;
  asm volatile("ld.global.nc.L1::no_allocate.v4.s32 {%0, %1, %2, %3}, [%4];"
               : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
  return r;
}
__device__ __forceinline__ void st_v4(int4* p, const int4& v) {
  asm volatile("st.global.v4.s32 [%0], {%1, %2, %3, %4};" :: "l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w));
}
__device__ __forceinline__ float ld_f(const float* p) {
  float x;
  asm("ld.global.f32 %0, [%1+8];" : "=f"(x) : "l"(p));
  return x;
}
__global__ void k(const int *in, int *out, const float *f, float *g) {
  int4 v = ld_nc(reinterpret_cast<const int4*>(in) + threadIdx.x);
  v.x += 1;
  v.w *= 2;
  st_v4(reinterpret_cast<int4*>(out) + threadIdx.x, v);
  g[threadIdx.x] = ld_f(f + threadIdx.x);
}
"#;
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            2,
            &[
                ("in", 8, "index"),
                ("out", 8, "zero"),
                ("f", 4, "index"),
                ("g", 2, "zero"),
            ],
        ),
    );
    assert_eq!(
        ints(&t, "out"),
        [1, 1, 2, 6, 5, 5, 6, 14].map(Some).to_vec()
    );
    assert_eq!(floats(&t, "g"), vec![Some(2.0), Some(3.0)]);
}
