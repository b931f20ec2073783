//! C++ idioms of inference and sample code the front end once refused: a class template's
//! static constant reused across nested instantiations (compile-time Fibonacci and log2
//! traits), the variadic recursion idiom that partial ordering resolves, and the small forms
//! beside them. Every expected value is derived by hand beside its test from the C++17 clause
//! named there, independently of the interpreter.

use crate::support::{block, floats, ints, launch, refused, run_finished};
use crosslane_core::op::Dialect;
use crosslane_kernel::LaunchConfig;

#[test]
fn a_static_constant_of_an_instance_made_inside_another_is_reused_later() {
    // [temp.inst]/1, [temp.spec]/5: `G<2>` is one specialization wherever it is named, so
    // `G<2>::v` named in `J<3>` after `H<3>` instantiated it is 2.
    // J<3>::v = H<3>::v + G<2>::v = (G<3>::v + G<2>::v) + 2 = 3 + 2 + 2 = 7.
    let src = "\
template <int N> struct G { static constexpr int v = N; };
template <int N> struct H { static constexpr int v = G<N>::v + G<N - 1>::v; };
template <int N> struct J { static constexpr int v = H<N>::v + G<N - 1>::v; };
__global__ void k(int* out) { if (threadIdx.x == 0) out[0] = J<3>::v; }";
    let t = run_finished(src, block(1));
    assert_eq!(ints(&t, "out")[0], Some(7));
}

#[test]
fn a_recursive_trait_ending_at_explicit_specializations_counts_at_compile_time() {
    // Fib: 0 1 1 2 3 5 8 13 21 34 55 → Fib<10> = 55, Fib<6> = 8 (an array bound: a[7] is the
    // last cell, holding 7), Fib<7> = 13 as a template argument → twice<13>() = 26.
    // Log2<256> = 1 + Log2<128> = … = 8 ones + Log2<1> = 8 ([temp.expl.spec]/1 ends each).
    let src = "\
template <int N> struct Fib { static constexpr int v = Fib<N - 1>::v + Fib<N - 2>::v; };
template <> struct Fib<1> { static constexpr int v = 1; };
template <> struct Fib<0> { static constexpr int v = 0; };
template <int N> struct Log2 { static constexpr int v = 1 + Log2<N / 2>::v; };
template <> struct Log2<1> { static constexpr int v = 0; };
template <int K> __device__ int twice() { return 2 * K; }
__global__ void k(int* out) {
  int a[Fib<6>::v];
  for (int i = 0; i < Fib<6>::v; ++i) a[i] = i;
  if (threadIdx.x == 0) {
    out[0] = Fib<10>::v;
    out[1] = a[Fib<6>::v - 1];
    out[2] = twice<Fib<7>::v>();
    out[3] = Log2<256>::v;
    out[4] = sizeof(a) / sizeof(a[0]);
  }
}";
    let t = run_finished(src, block(5));
    assert_eq!(
        ints(&t, "out"),
        vec![Some(55), Some(7), Some(26), Some(8), Some(8)]
    );
}

#[test]
fn a_recursion_without_an_end_is_refused_at_a_named_depth() {
    // `D<N>` names `D<N-1>` with no specialization ending it before the limit
    // (`MAX_CLASS_NEST`, 64): refused before the run, naming the limit, not a stack overflow.
    let src = "\
template <int N> struct D { static constexpr int v = D<N - 1>::v + 1; };
template <> struct D<0> { static constexpr int v = 0; };
__global__ void k(int* out) { out[0] = D<500>::v; }";
    // On a thread with the room the CLI gives the front end (a debug build's frames are about
    // ten times a release build's): the limit must end the recursion, not the stack.
    let e = std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(move || refused(src, block(1)))
        .expect("a thread")
        .join()
        .expect("no stack overflow");
    assert!(e.contains("crosslane stops at 64"), "{e}");
}

#[test]
fn the_variadic_recursion_idiom_ends_at_the_overload_without_a_pack() {
    // [temp.deduct.partial]/11: for one argument `f(T)` and `f(T, Rest...)` are each at least
    // as specialized as the other, and the one without the trailing pack is more specialized.
    // sum_all(1, 2, 0.5) = 1 + (2 + 0.5) = 3.5; mx(3, 7, 5) = max(3, max(7, 5)) = 7 → 70.
    // pick(1, 2): `pick(T, U)` beats `pick(T, R...)` by the same rule → 1; pick(1, 2, 3): only
    // the variadic one takes three → 2; 1·10 + 2 = 12.
    let src = "\
template <typename T> __device__ T sum_all(T a) { return a; }
template <typename T, typename... Rest> __device__ T sum_all(T a, Rest... rest) { return a + sum_all(rest...); }
template <typename T> __device__ T mx(T a) { return a; }
template <typename T, typename... R> __device__ T mx(T a, R... r) { T m = mx(r...); return a > m ? a : m; }
template <typename T, typename U> __device__ int pick(T a, U b) { return 1; }
template <typename T, typename... R> __device__ int pick(T a, R... r) { return 2; }
__global__ void k(float* o, int* p) {
  o[threadIdx.x] = sum_all(1.0f, 2.0f, 0.5f) + mx(3.0f, 7.0f, 5.0f) * 10.0f;
  p[threadIdx.x] = pick(1, 2) * 10 + pick(1, 2, 3);
}";
    let t = run_finished(src, block(2));
    assert_eq!(floats(&t, "o"), vec![Some(73.5), Some(73.5)]);
    assert_eq!(ints(&t, "p"), vec![Some(12), Some(12)]);
}

#[test]
fn a_clang_extended_vector_typedef_is_the_vector_of_its_element_and_count() {
    // clang, "Vectors and Extended Vectors": element access `v[i]` and `.x .y .z .w`,
    // element-wise arithmetic, a scalar broadcast to every element, one value per element in
    // braces. v = (1, 2, 3, 4); w = 2v + v + (1,1,1,1) − 0.5 = (3.5, 6.5, 9.5, 12.5); then
    // w[1] = 10: w[0] + w.y + 100·w.z + 1000·w.w = 3.5 + 10 + 950 + 12500 = 13463.5.
    // intx2 (7, −3) · 2 = (14, −6) → 14 − 6 = 8.
    let src = "\
typedef float floatx4 __attribute__((ext_vector_type(4)));
typedef int intx2 __attribute__((ext_vector_type(2)));
__global__ void k(float* o, int* p) {
  floatx4 v = floatx4{1.0f, 2.0f, 3.0f, 4.0f};
  floatx4 u{1.0f, 1.0f, 1.0f, 1.0f};
  floatx4 w = v * 2.0f + v + u - 0.5f;
  w[1] = 10.0f;
  o[threadIdx.x] = w[0] + w.y + w.z * 100.0f + w.w * 1000.0f;
  intx2 a = intx2{7, -3} * 2;
  p[threadIdx.x] = a[0] + a.y;
}";
    let t = run_finished(src, launch(Dialect::Hip, 2, &[]));
    assert_eq!(floats(&t, "o"), vec![Some(13463.5), Some(13463.5)]);
    assert_eq!(ints(&t, "p"), vec![Some(8), Some(8)]);
}

#[test]
fn an_extended_vector_of_an_element_not_modelled_is_refused_naming_what_is() {
    // A kernel naming the alias is refused before it runs; one that does not runs, the alias's
    // refusal a warning (`parser/refused_alias.rs`).
    let src = "\
typedef char charx8 __attribute__((ext_vector_type(8)));
__global__ void k(float* o) { charx8 v; o[0] = 1.0f; }
__global__ void k2(float* o) { o[0] = 1.0f; }";
    let e = refused(src, launch(Dialect::Hip, 1, &[]));
    assert!(e.contains("N 1 to 4"), "{e}");
    let t = run_finished(
        src,
        LaunchConfig {
            entry: Some("k2".into()),
            ..launch(Dialect::Hip, 1, &[])
        },
    );
    assert!(t
        .all_diagnostics()
        .any(|d| d.message.contains("alias `charx8` is not declared")
            && d.message.contains("N 1 to 4")));
}

#[test]
fn hexadecimal_floats_and_digit_separators_are_read_as_cpp17_writes_them() {
    // [lex.fcon]/1: 0x1.8p1 = 1.5·2 = 3; 0x.4p0 = 4/16 = 0.25; 0xAp-2 = 10/4 = 2.5 → 5.75.
    // [lex.icon]/1: `'` separates digits and is ignored: 1'000'000 + 0x10'00 = 1004096.
    let src = "\
__global__ void k(float* o, int* p) {
  o[threadIdx.x] = 0x1.8p1f + 0x.4p0 + 0xAp-2f;
  p[threadIdx.x] = 1'000'000 + 0x10'00;
}";
    let t = run_finished(src, block(1));
    assert_eq!(floats(&t, "o"), vec![Some(5.75)]);
    assert_eq!(ints(&t, "p"), vec![Some(1_004_096)]);
}

#[test]
fn nontemporal_builtins_load_and_store_and_scheduling_hints_change_nothing() {
    // clang: __builtin_nontemporal_load(p) is *p, __builtin_nontemporal_store(v, p) is
    // *p = v; the sched barriers emit no instruction. o = 0 1 2 3 → 2·o + 0.5.
    let src = "\
__global__ void k(float* o) {
  __builtin_amdgcn_sched_barrier(0);
  float x = __builtin_nontemporal_load(&o[threadIdx.x]);
  __builtin_amdgcn_sched_group_barrier(8, 1, 0);
  __builtin_nontemporal_store(x * 2.0f + 0x1p-1f, &o[threadIdx.x]);
}";
    let t = run_finished(src, launch(Dialect::Hip, 4, &[("o", 4, "index")]));
    assert_eq!(
        floats(&t, "o"),
        vec![Some(0.5), Some(2.5), Some(4.5), Some(6.5)]
    );
}

#[test]
fn a_member_function_returning_a_reference_reads_what_it_refers_to() {
    // [dcl.ref], [expr.call]/11: `at(i)` is an lvalue naming d[i]. d = 0 1 2 3 →
    // at(2) + 10·get(3) = 2 + 30 = 32.
    let src = "\
struct V {
  float d[4];
  __device__ float& at(int i) { return d[i]; }
  __device__ const float& get(int i) const { return d[i]; }
};
__global__ void k(float* o) {
  V v; for (int i = 0; i < 4; ++i) v.d[i] = i;
  o[threadIdx.x] = v.at(2) + v.get(3) * 10.0f;
}";
    let t = run_finished(src, block(1));
    assert_eq!(floats(&t, "o"), vec![Some(32.0)]);
}

#[test]
fn assigning_through_a_reference_and_lambdas_returning_structs_run() {
    // [expr.call]/11: `v.at(2)` is an lvalue naming d[2], so `+=` writes it: 1 + 5 = 6.
    let assign = "\
struct V { float d[4]; __device__ float& at(int i) { return d[i]; } };
__global__ void k(float* o) { V v; v.d[2] = 1.0f; v.at(2) += 5.f; o[0] = v.d[2]; }";
    let t = run_finished(assign, block(1));
    assert_eq!(floats(&t, "o"), vec![Some(6.0)]);
    // [expr.prim.lambda.closure]/4: the return type is deduced from `return p;` (a `P`):
    // p.a + p.b = 3 + 6 = 9.
    let lambda = "\
struct P { float a, b; };
__global__ void k(float* o) {
  auto l = [](float a) { P p; p.a = a; p.b = 2 * a; return p; };
  P p = l(3.0f); o[0] = p.a + p.b;
}";
    let t = run_finished(lambda, block(1));
    assert_eq!(floats(&t, "o"), vec![Some(9.0)]);
}

#[test]
fn a_pointer_to_a_local_struct_with_an_array_member_reaches_its_members() {
    // Once refused (take it by reference); now `&a` passes each member's address, the array
    // member as the array itself ([conv.array]/1): `s->n++` makes a.n 2.
    let addr = "\
struct S { float v[3]; int n; };
__device__ void f(S* s) { s->n++; }
__global__ void k(float* o) { S a; a.n = 1; f(&a); o[0] = a.n; }";
    let t = run_finished(addr, block(1));
    assert_eq!(floats(&t, "o")[0], Some(2.0));
}

#[test]
fn an_init_capture_is_refused_naming_the_capture_by_name_that_runs() {
    let src = "\
__global__ void k(float* o) {
  float x = threadIdx.x;
  auto f = [s = x * 2, t = 1.5f](float a) { return a * s + t; };
  o[threadIdx.x] = f(10.0f);
}";
    let e = refused(src, block(2));
    assert!(e.contains("declare `auto s = …;` before the lambda"), "{e}");
    let by_ref = "__global__ void k(float* o) { float x = 1; auto f = [&r = x]() { r = 2; }; f(); o[0] = x; }";
    assert!(refused(by_ref, block(1)).contains("init-capture"));
    // What the message says to write: s = 2·lane, t = 1.5 → 10·s + t = 1.5, 21.5.
    let instead = "\
__global__ void k(float* o) {
  float x = threadIdx.x;
  auto s = x * 2; auto t = 1.5f;
  auto f = [s, t](float a) { return a * s + t; };
  o[threadIdx.x] = f(10.0f);
}";
    let t = run_finished(instead, block(2));
    assert_eq!(floats(&t, "o"), vec![Some(1.5), Some(21.5)]);
}
