//! C++ forms met in round four's public kernels (MetaX mcoplib's top-k helpers, HeCBench's
//! online softmax, CANN's Ascend C ops), each in a kernel of my own of the same shape; the
//! expected values are worked out by hand in the comments.
//!
//! - `S() = default;`, `S(const S&) = default;`, `S& operator=(const S&) = default;`,
//!   `~S() = default;` ([dcl.fct.def.default]): the implicit members. Before: a parse error
//!   "expected `{` to start the member function's body, found `=`" (and `operator=` refused).
//! - `f(acc, {x, 1})`: a braced list passed to a struct parameter is copy-list-initialization
//!   of it ([dcl.init.list]/1). Before: "expected an expression, found `{`".
//! - `cg::reduce(tile, v, combine)` with a function as the operator (cooperative_groups/
//!   reduce.h calls any binary callable). Before: refused ("takes a cg:: operator, a lambda or
//!   a function object").
//! - Overloaded function templates with `T (&out)[K]` parameters chosen by explicit template
//!   arguments ([over.match], [dcl.init.ref]). Before: "argument 1 (float*) cannot become
//!   parameter type float".
//! - `T* a` deduced from an array of structs (`R topK[N]` passed to `cswap<0, 1, 2>(topK)`):
//!   `T` is the struct ([temp.deduct.call]/2). Before: "template parameter `T` … cannot be
//!   deduced from this call".
//! - A function template's trailing return type with a braced temporary,
//!   `-> decltype(Shfl<U>::call(x, 0), U{})`: the `{` inside the parentheses starts no body.
//!   Before: the template's body was taken to start there ("a device variable at file scope of
//!   this form is not supported").
//! - A static member function template of a class template calls the class's other static
//!   members bare, functions (`twice(x)`) and member templates (`pick<U>(x, 0)`)
//!   ([basic.lookup.unqual]/8). Before: "`twice` is not declared".
//! - `template <class, int> friend struct R;` in a class template (tilelang's Ascend
//!   `AscendAllReduce`): a friend declaration, nothing to run ([temp.friend]/1). Before: "expected
//!   a member function after `template <…>`, found `template`".
//! - Ascend C casts with an address space, `(__gm__ float*)x`, `(__ubuf__ int8_t*)p`, and
//!   CANN's `GM_ADDR` (`__gm__ uint8_t*`). Before: "expected `)`, found `float`" and "unknown
//!   type `GM_ADDR`".

use crate::support::{block, floats, ints, launch, run_finished};
use crosslane_core::op::Dialect;

#[test]
fn defaulted_special_members_are_the_implicit_ones() {
    let src = "\
struct Key {
  unsigned long long packed;
  __host__ __device__ Key() = default;
  __host__ __device__ Key(int v, int idx) : packed(((unsigned long long)v << 16) | (65535 - idx)) {}
  __host__ __device__ Key(const Key&) = default;
  __host__ __device__ Key& operator=(const Key&) = default;
  __host__ __device__ ~Key() = default;
};
__global__ void k(unsigned long long *o, unsigned long long *u) {
  Key a(threadIdx.x, 3);
  Key b(a);
  Key c;
  c = b;
  Key arr[2];
  arr[1] = c;
  o[threadIdx.x] = arr[1].packed;
  Key d;
  u[threadIdx.x] = d.packed;
}
";
    // Lane t: (t << 16) | (65535 - 3) = t * 65536 + 65532, copied through b, c and arr[1];
    // `d` is default-initialized by its defaulted constructor: undefined ([dcl.init]/12).
    let t = run_finished(src, block(32));
    let want: Vec<Option<i128>> = (0..32).map(|t| Some(t * 65536 + 65532)).collect();
    assert_eq!(ints(&t, "o"), want);
    assert!(ints(&t, "u").iter().all(Option::is_none));
}

#[test]
fn a_braced_list_argument_initializes_a_struct_parameter() {
    let src = "\
struct MaxCount { int m; int c; };
__device__ MaxCount merge(MaxCount a, MaxCount b) {
  MaxCount r;
  r.m = a.m > b.m ? a.m : b.m;
  r.c = a.c + b.c;
  return r;
}
__device__ int weigh(MaxCount a, int k) { return a.m * k + a.c; }
__global__ void k(const int *x, int *o) {
  MaxCount acc{-1000, 0};
  for (int i = threadIdx.x; i < 40; i += 32) acc = merge(acc, { x[i], 1 });
  o[threadIdx.x] = weigh({acc.m, acc.c}, 10) + weigh({}, 7);
}
";
    // x[i] = i. Lanes 0..7 see i and i + 32: m = t + 32, c = 2; lanes 8..31 see i: m = t,
    // c = 1. weigh({}, 7) value-initializes the struct: 0. So o = 10 m + c.
    let c = launch(Dialect::Cuda, 32, &[("x", 40, "index"), ("o", 32, "zero")]);
    let t = run_finished(src, c);
    let want: Vec<Option<i128>> = (0..32)
        .map(|t| Some(if t < 8 { 10 * (t + 32) + 2 } else { 10 * t + 1 }))
        .collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn cg_reduce_takes_a_function_as_its_operator() {
    let src = "\
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
struct MaxCount { float m; float c; };
__device__ __forceinline__ MaxCount merge(MaxCount a, MaxCount b) {
  MaxCount r;
  r.m = a.m > b.m ? a.m : b.m;
  r.c = a.c + b.c;
  return r;
}
__device__ int add(int a, int b) { return a + b; }
__global__ void k(float *m, float *c, int *s) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  MaxCount p;
  p.m = (float)((threadIdx.x * 7) % 32);
  p.c = 1.0f;
  MaxCount tot = cg::reduce(warp, p, merge);
  m[threadIdx.x] = tot.m;
  c[threadIdx.x] = tot.c;
  s[threadIdx.x] = cg::reduce(warp, (int)threadIdx.x, add);
}
";
    // (t * 7) % 32 over t = 0..31 is every value 0..31 (7 is odd): the maximum is 31, the
    // count 32 in each warp; the sum of the thread indices is 496 in warp 0 and
    // 32 * 32 + 496 = 1520 in warp 1.
    let t = run_finished(src, block(64));
    assert!(floats(&t, "m").iter().all(|v| *v == Some(31.0)));
    assert!(floats(&t, "c").iter().all(|v| *v == Some(32.0)));
    let want: Vec<Option<i128>> = (0..64)
        .map(|t| Some(if t < 32 { 496 } else { 1520 }))
        .collect();
    assert_eq!(ints(&t, "s"), want);
}

#[test]
fn overloaded_templates_with_array_reference_parameters() {
    let src = "\
template <int K, typename T, int N>
__device__ void top(T (&out)[K], int (&idx)[K], T (&value)[N], T floor) {
  for (int k = 0; k < K; ++k) { out[k] = value[k % N] + floor; idx[k] = k; }
}
template <int K, typename T>
__device__ void top(T (&out)[K], int (&idx)[K], T value, T floor) {
  for (int k = 0; k < K; ++k) { out[k] = value + floor * k; idx[k] = -k; }
}
__global__ void k(float *o, int *i) {
  float v[2] = {1.0f, (float)threadIdx.x};
  float a[4]; int ia[4];
  top<4, float, 2>(a, ia, v, 0.5f);
  float b[3]; int ib[3];
  top<3, float>(b, ib, v[1], 2.0f);
  o[threadIdx.x] = a[3] + b[2];
  i[threadIdx.x] = ia[3] + ib[2];
}
";
    // a[3] = v[3 % 2] + 0.5 = t + 0.5; b[2] = v[1] + 2 * 2 = t + 4: o = 2t + 4.5.
    // ia[3] = 3, ib[2] = -2: i = 1.
    let t = run_finished(src, block(32));
    let want: Vec<Option<f64>> = (0..32).map(|t| Some(2.0 * t as f64 + 4.5)).collect();
    assert_eq!(floats(&t, "o"), want);
    assert!(ints(&t, "i").iter().all(|v| *v == Some(1)));
}

#[test]
fn ascend_casts_with_an_address_space_and_gm_addr() {
    let src = "\
template <typename T>
__simt_callee__ inline int32_t load_key(__ubuf__ T* p, uint32_t i) { return (int32_t)p[i]; }
__simt_vf__ __aicore__ LAUNCH_BOUND(32) void k(GM_ADDR xg, __gm__ int8_t* keys, __gm__ float* out)
{
    __gm__ float* x = (__gm__ float*)xg;
    __gm__ const float* y = reinterpret_cast<__gm__ const float*>(xg);
    __ubuf__ int8_t* u = (__ubuf__ int8_t*)keys;
    out[threadIdx.x] = x[threadIdx.x] + y[threadIdx.x]
        + load_key<int8_t>((__ubuf__ int8_t*)keys, threadIdx.x) + load_key<int8_t>(u, 0);
}
";
    // xg holds 32 floats 1.5 (128 bytes): x[t] + y[t] = 3; keys[t] = t: + t + 0.
    let c = launch(
        Dialect::Ascend,
        32,
        &[
            ("xg", 128, "f32:1.5"),
            ("keys", 32, "index"),
            ("out", 32, "zero"),
        ],
    );
    let t = run_finished(src, c);
    let want: Vec<Option<f64>> = (0..32).map(|t| Some(3.0 + t as f64)).collect();
    assert_eq!(floats(&t, "out"), want);
}

#[test]
fn a_friend_class_template_declaration_is_read_past() {
    let src = "\
struct Sum {};
template <class Op, int N, int S = 1>
struct Reduce {
  template <class, int, int> friend struct Reduce;
  static __device__ int run(int x) { return Reduce<Op, N / 2, S>::step(x) + N; }
private:
  static __device__ int step(int x) { return x * S + N; }
};
__global__ void k(int *o) { o[threadIdx.x] = Reduce<Sum, 8>::run(threadIdx.x); }
";
    // Reduce<Sum, 8>::run(t) = Reduce<Sum, 4>::step(t) + 8 = (t + 4) + 8 = t + 12.
    let t = run_finished(src, block(32));
    let want: Vec<Option<i128>> = (0..32).map(|t| Some(t + 12)).collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn a_pointer_parameter_deduces_the_struct_of_an_array() {
    let src = "\
struct R { unsigned long long c; };
template <int A, int B, int Size, typename T>
__device__ void cswap(T* a) {
  if constexpr (A < Size && B < Size) {
    if (a[A].c < a[B].c) { unsigned long long t = a[A].c; a[A].c = a[B].c; a[B].c = t; }
  }
}
__global__ void k(unsigned long long *o) {
  R r[2];
  r[0].c = threadIdx.x;
  r[1].c = 31 - threadIdx.x;
  cswap<0, 1, 2>(r);
  o[threadIdx.x] = r[0].c;
}
";
    // The larger of t and 31 - t first: max(t, 31 - t).
    let t = run_finished(src, block(32));
    let want: Vec<Option<i128>> = (0..32).map(|t: i128| Some(t.max(31 - t))).collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn a_braced_temporary_in_a_trailing_decltype_starts_no_body() {
    let src = "\
template <typename T> struct Twice;
template <> struct Twice<float> { static __device__ float call(float v, int o) { return 2.0f * v + o; } };
template <typename U>
__device__ auto apply(U x, long) -> decltype(Twice<U>::call(x, 0), U{}) { return Twice<U>::call(x, 1); }
__global__ void k(float *o) { o[threadIdx.x] = apply((float)threadIdx.x, 0L); }
";
    // 2t + 1.
    let t = run_finished(src, block(32));
    let want: Vec<Option<f64>> = (0..32).map(|t| Some(2.0 * t as f64 + 1.0)).collect();
    assert_eq!(floats(&t, "o"), want);
}

#[test]
fn a_static_member_template_calls_its_class_members_bare() {
    let src = "\
template <int threads>
struct Reduce {
private:
  static constexpr bool is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }
  static __device__ int twice(int x) { return 2 * x; }
  template <typename U>
  static __device__ U pick(U x, int) { return x + threads; }
public:
  template <typename T>
  static __device__ T run(T x) {
    if constexpr (is_pow2(threads)) {
      return twice(x);
    } else {
      return pick(x, 0);
    }
  }
};
__global__ void k(int *o) { o[threadIdx.x] = Reduce<32>::run((int)threadIdx.x) + Reduce<24>::run(1); }
";
    // Reduce<32>: 32 is a power of two, twice(t) = 2t; Reduce<24>: pick(1, 0) = 1 + 24 = 25.
    let t = run_finished(src, block(32));
    let want: Vec<Option<i128>> = (0..32).map(|t| Some(2 * t + 25)).collect();
    assert_eq!(ints(&t, "o"), want);
}
