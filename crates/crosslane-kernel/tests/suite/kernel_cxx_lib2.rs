//! C++ in the shapes ck_tile, rocPRIM and CUTLASS-like helpers write: `__builtin_bit_cast` /
//! `std::bit_cast` between a scalar and a struct of words (both ways, the struct named through
//! a block-scope `using`), a multi-word warp shuffle through a `static_for` generic lambda that
//! captures that struct by reference, a pointer to a local struct passed on to a second
//! function, member typedefs named from outside their class, and a derived object's address
//! passed for a base pointer. Each expected value is derived by hand from the clause the test
//! cites, or computed with Rust's own IEEE-754 bit functions (`f64::to_bits`), never read off
//! a run.

use crate::support::{floats, ints, launch, refused, run_finished};
use crosslane_core::op::Dialect;

/// The high 32-bit word of `d`'s object representation (little-endian: `data[1]`).
fn hi_word(d: f64) -> i128 {
    i128::from((d.to_bits() >> 32) as u32 as i32)
}

/// C++20 [bit.cast]/2: each bit of the result is the source's bit at the same place; a
/// `double`'s bytes land little-endian in `struct { int32_t data[2]; }`, so `data[1]` is the
/// high word. Back the other way, {0, 0x40000000} is 2.0 (sign 0, exponent 1024 - 1023 = 1,
/// mantissa 0). The struct is named directly, by a block-scope `using`, and by
/// `std::bit_cast`; `__builtin_memcpy` round-trips the same bytes.
#[test]
fn bit_cast_between_a_double_and_a_struct_of_words() {
    let src = r#"
#include <hip/hip_runtime.h>
#include <cstdint>
#include <bit>
struct thread_buffer { int32_t data[2]; };
__global__ void k(int* hi, int* hi2, double* two, double* back) {
  int t = threadIdx.x;
  double x = 1.5 + t;
  thread_buffer b = __builtin_bit_cast(thread_buffer, x);
  hi[t] = b.data[1];
  using vector_type = thread_buffer;
  vector_type c = std::bit_cast<vector_type>(x * 2.0);
  hi2[t] = c.data[1] + c.data[0];
  b.data[0] = 0; b.data[1] = 0x40000000;
  two[t] = __builtin_bit_cast(double, b);
  double y;
  __builtin_memcpy(&y, &c, sizeof(y));
  back[t] = y;
}
"#;
    let cfg = launch(
        Dialect::Hip,
        64,
        &[
            ("hi", 64, "0"),
            ("hi2", 64, "0"),
            ("two", 64, "0"),
            ("back", 64, "0"),
        ],
    );
    let t = run_finished(src, cfg);
    let want: Vec<Option<i128>> = (0..64).map(|t| Some(hi_word(1.5 + f64::from(t)))).collect();
    assert_eq!(ints(&t, "hi"), want);
    // 2·(1.5 + t) = 3 + 2t has a low word of 0 for these small values (52-bit mantissa).
    let want2: Vec<Option<i128>> = (0..64)
        .map(|t| {
            let d = 3.0 + 2.0 * f64::from(t);
            Some(hi_word(d) + i128::from(d.to_bits() as u32 as i32))
        })
        .collect();
    assert_eq!(ints(&t, "hi2"), want2);
    assert_eq!(floats(&t, "two"), vec![Some(2.0); 64]);
    let back: Vec<Option<f64>> = (0..64).map(|t| Some(3.0 + 2.0 * f64::from(t))).collect();
    assert_eq!(floats(&t, "back"), back);
}

/// A struct's words read as a `double`: {0, 0x3FF80000 + t} is 1.5 + t·2⁻²⁰ (the high word's
/// low 20 bits are the mantissa's top bits). A word never written leaves the result
/// undefined, never a number ([basic.indet]/2 through [bit.cast]/2's indeterminate bits).
#[test]
fn bit_cast_from_a_struct_of_words_to_a_double() {
    let src = r#"
#include <cstdint>
struct W { int32_t data[2]; };
__global__ void k(double* o, double* u) {
  int t = threadIdx.x;
  W c; c.data[0] = 0; c.data[1] = 0x3FF80000 + t;
  o[t] = __builtin_bit_cast(double, c);
  W d; d.data[1] = 5;
  u[t] = __builtin_bit_cast(double, d);
}
"#;
    let t = run_finished(
        src,
        launch(Dialect::Hip, 64, &[("o", 64, "0"), ("u", 64, "0")]),
    );
    let want: Vec<Option<f64>> = (0..64u64)
        .map(|t| Some(f64::from_bits((0x3FF8_0000 + t) << 32)))
        .collect();
    assert_eq!(floats(&t, "o"), want);
    assert_eq!(floats(&t, "u"), vec![None; 64]);
}

/// ck_tile-style `warp_shuffle`: the value cast to `thread_buffer<int32_t, sizeof(T)/4>`
/// (a class template named through a block-scope `using` inside a function template whose
/// own `T` may be a struct), each 32-bit word moved by a `static_for` generic lambda that
/// captures the buffer by reference ([expr.prim.lambda.capture]/10), then cast back. AMD's
/// `ds_bpermute(addr, v)` gives lane t the value of lane addr/4 (AMD GCN3 ISA, DS_BPERMUTE_B32),
/// `__shfl(v, s)` lane s's value (HIP Programming Guide, warp shuffle). Lane t reads lane
/// (t+3) mod 64's double and lane (t+1) mod 64's `P`: {0.5·(t+1), -(t+1)} wrapped.
#[test]
fn multi_word_warp_shuffle_through_a_static_for_lambda() {
    let src = r#"
#include <hip/hip_runtime.h>
#include <cstdint>
template <typename T, int N> struct thread_buffer { T data[N]; };
template <int I> struct number {
  static constexpr int value = I;
  constexpr operator int() const { return I; }
};
template <int B, int E, int S> struct static_for {
  template <typename F> __device__ constexpr void operator()(F f) const {
    if constexpr (B < E) { f(number<B>{}); static_for<B + S, E, S>{}(f); }
  }
};
template <typename T>
__device__ T shuffle_words(const T& v, uint32_t src) {
  using vector_type = thread_buffer<int32_t, sizeof(T) / 4>;
  auto s = __builtin_bit_cast(vector_type, v);
  static_for<0, sizeof(T) / 4, 1>{}([&](auto i) {
    s.data[i] = __builtin_amdgcn_ds_bpermute(src << 2, s.data[i.value]);
  });
  return __builtin_bit_cast(T, s);
}
struct P { float a; int b; };
__device__ P make(int t) { P p; p.a = t * 0.5f; p.b = -t; return p; }
__device__ double shfl_double(double v, int src) {
  struct words { int32_t data[2]; };
  words w = __builtin_bit_cast(words, v);
  static_for<0, 2, 1>{}([&](auto i) { w.data[i] = __shfl(w.data[i.value], src); });
  return __builtin_bit_cast(double, w);
}
__global__ void k(double* o, float* fa, int* ib, double* d2) {
  int t = threadIdx.x;
  o[t] = shuffle_words(0.25 + t, (t + 3) % 64);
  P q = shuffle_words(make(t + 1), (t + 1) % 64);
  fa[t] = q.a;
  ib[t] = q.b;
  d2[t] = shfl_double(t * 1.25, (t + 63) % 64);
}
"#;
    let cfg = launch(
        Dialect::Hip,
        64,
        &[
            ("o", 64, "0"),
            ("fa", 64, "0"),
            ("ib", 64, "0"),
            ("d2", 64, "0"),
        ],
    );
    let t = run_finished(src, cfg);
    let o: Vec<Option<f64>> = (0..64)
        .map(|t| Some(0.25 + f64::from((t + 3) % 64)))
        .collect();
    assert_eq!(floats(&t, "o"), o);
    let fa: Vec<Option<f64>> = (0..64)
        .map(|t| Some(0.5 * f64::from((t + 1) % 64 + 1)))
        .collect();
    assert_eq!(floats(&t, "fa"), fa);
    let ib: Vec<Option<i128>> = (0..64)
        .map(|t| Some(-i128::from((t + 1) % 64 + 1)))
        .collect();
    assert_eq!(ints(&t, "ib"), ib);
    let d2: Vec<Option<f64>> = (0..64)
        .map(|t| Some(1.25 * f64::from((t + 63) % 64)))
        .collect();
    assert_eq!(floats(&t, "d2"), d2);
}

/// [expr.unary.op]/3 and [expr.call]/7: `outer(&a)` binds `p` to the local, and `inner(p)` /
/// `inner2(*p)` reach the same object. Lane t: x = t, y = 1; inner: x = t + 1; inner2:
/// y = 11; x *= 2 → 2t + 2; o = 100·(2t + 2) + 11.
#[test]
fn pointer_to_a_local_struct_passed_on_to_a_second_function() {
    let src = r#"
struct S { int x; int y; };
__device__ void inner(S* p) { p->x += 1; }
__device__ void inner2(S& r) { r.y += 10; }
__device__ void outer(S* p) { inner(p); inner2(*p); p->x *= 2; }
__device__ void bump(int* q) { *q += 5; }
__device__ void relay(int* q) { bump(q); q[0] *= 3; }
__global__ void k(int* o, int* v) {
  S a; a.x = threadIdx.x; a.y = 1;
  outer(&a);
  o[threadIdx.x] = a.x * 100 + a.y;
  int n = threadIdx.x;
  relay(&n);
  v[threadIdx.x] = n;
}
"#;
    let t = run_finished(
        src,
        launch(Dialect::Cuda, 32, &[("o", 32, "0"), ("v", 32, "0")]),
    );
    let want: Vec<Option<i128>> = (0..32).map(|t| Some(100 * (2 * t + 2) + 11)).collect();
    assert_eq!(ints(&t, "o"), want);
    // relay: n = t + 5, then ·3.
    let v: Vec<Option<i128>> = (0..32).map(|t| Some(3 * (t + 5))).collect();
    assert_eq!(ints(&t, "v"), v);
}

/// [class.member.lookup] with [dcl.typedef]/2: `S::pointer`, `typename Buf<int>::pointer`,
/// `S::value_type`, `typename Traits<T>::type` (with an explicit specialization,
/// [temp.expl.spec]) name the member aliases from outside the class. Lane t: p[t] = 5 via
/// `S::pointer`; put<Buf<int>> stores 7 + t; f = 1.5·2 = 3; twice(t) = 2t as `long`.
#[test]
fn member_typedefs_named_from_outside_the_class() {
    let src = r#"
struct S { using pointer = int*; typedef float value_type; };
template <typename T> struct Buf { using pointer = T*; using value_type = T; };
template <typename T> struct Traits { using type = T; };
template <> struct Traits<int> { using type = long; };
template <typename T> __device__ typename Traits<T>::type twice(T v) {
  typename Traits<T>::type r = v;
  return r * 2;
}
template <typename B>
__device__ void put(typename B::pointer p, typename B::value_type v) { p[threadIdx.x] = v; }
__global__ void k(int* a, int* b, int* c) {
  typename S::pointer p = a;
  p[threadIdx.x] = 5;
  typename Buf<int>::pointer q = b;
  put<Buf<int>>(q, 7 + (int)threadIdx.x);
  S::value_type x = 1.5f;
  Traits<float>::type f = x * 2;
  c[threadIdx.x] = (int)f + (int)twice((int)threadIdx.x);
}
"#;
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            32,
            &[("a", 32, "0"), ("b", 32, "0"), ("c", 32, "0")],
        ),
    );
    assert_eq!(ints(&t, "a"), vec![Some(5); 32]);
    let b: Vec<Option<i128>> = (0..32).map(|t| Some(7 + t)).collect();
    assert_eq!(ints(&t, "b"), b);
    let c: Vec<Option<i128>> = (0..32).map(|t| Some(3 + 2 * t)).collect();
    assert_eq!(ints(&t, "c"), c);
}

/// [conv.ptr]/3: a `Derived*` converts to `Base*` pointing at the base subobject, so
/// `f(&d)` with `f(Base* b)` writes `d.a`. Lane t: d.a = t, f adds 3 → r = t + 3; d.b = 7
/// untouched; g(d) reads d.a = t + 3: o = 100(t + 3) + 7 + t + 3.
#[test]
fn derived_object_passed_by_pointer_to_a_base_parameter() {
    let src = r#"
struct Base { int a; };
struct Derived : Base { int b; };
__device__ int f(Base* b) { b->a += 3; return b->a; }
__device__ int g(const Base& b) { return b.a; }
__global__ void k(int* o) {
  Derived d; d.a = threadIdx.x; d.b = 7;
  int r = f(&d);
  o[threadIdx.x] = r * 100 + d.b + g(d);
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("o", 32, "0")]));
    let want: Vec<Option<i128>> = (0..32).map(|t| Some(100 * (t + 3) + 7 + t + 3)).collect();
    assert_eq!(ints(&t, "o"), want);
}

/// [bit.cast]/1: the sizes must match; a struct of 12 bytes from an 8-byte `double` is
/// refused before the run, naming both sizes.
#[test]
fn bit_cast_to_a_struct_of_another_size_is_refused() {
    let src = r#"
struct T3 { int w[3]; };
__global__ void k(int* o) {
  double x = 1.0;
  T3 s = __builtin_bit_cast(T3, x);
  o[threadIdx.x] = s.w[0];
}
"#;
    let e = refused(src, launch(Dialect::Cuda, 32, &[("o", 32, "0")]));
    assert!(e.contains("8 bytes") && e.contains("12 bytes"), "{e}");
}
