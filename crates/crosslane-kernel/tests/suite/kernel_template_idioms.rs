//! Template idioms of composable_kernel, CUTLASS and CUB-style code: class template partial
//! specializations chosen by `std::enable_if`, alias templates, `std::conditional_t` in each
//! position, `integral_constant` objects and `static_for` with generic lambdas, packs in class
//! bodies with comma folds and `std::integer_sequence`, pointer non-type template parameters
//! and the curiously recurring template pattern. Every expected value is derived by hand in
//! the comment beside it from the C++17 clause named there.

use crate::support::{block, ints, launch, launch_lanes, refused, run_finished};
use crosslane_core::op::Dialect;
use crosslane_kernel::LaunchConfig;

/// One CUDA thread writing the cells of a ten-cell `out`.
fn one_lane() -> LaunchConfig {
    launch(Dialect::Cuda, 1, &[("out", 10, "zero")])
}

#[test]
fn enable_if_selects_a_class_template_partial_specialization() {
    // [temp.class.spec.match]/2, [temp.deduct]/8: `Op<T, enable_if_t<is_floating_point_v<T>>>`
    // matches `Op<float, void>` (the condition holds, the argument is `void`, the primary's
    // default) and not `Op<int, void>` (substitution fails: the primary). So f() is 2 for
    // float and double, 1 for int. `Sz<N, enable_if<(N > 4)>::type>`: 10 for N = 3, 20 for
    // N = 8. `Kind<int>::g(5)` = 5 + 100 = 105; `Kind<float>` is the primary: 0.
    let src = "\
#include <type_traits>
template <typename T, typename Enable = void> struct Op { static __device__ int f() { return 1; } };
template <typename T> struct Op<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  static __device__ int f() { return 2; }
};
template <int N, typename = void> struct Sz { static constexpr int v = 10; };
template <int N> struct Sz<N, typename std::enable_if<(N > 4)>::type> { static constexpr int v = 20; };
template <typename T, typename E = void> struct Kind { static __device__ int g(T x) { return 0; } };
template <typename T> struct Kind<T, std::enable_if_t<std::is_integral<T>::value>> {
  static __device__ int g(T x) { return (int)x + 100; }
};
__global__ void k(int* out) {
  if (threadIdx.x == 0) {
    out[0] = Op<float>::f();
    out[1] = Op<int>::f();
    out[2] = Op<double>::f();
    out[3] = Sz<3>::v;
    out[4] = Sz<8>::v;
    out[5] = Kind<int>::g(5);
    out[6] = Kind<float>::g(5.0f);
  }
}";
    let t = run_finished(src, one_lane());
    assert_eq!(
        ints(&t, "out")[..7],
        [
            Some(2),
            Some(1),
            Some(2),
            Some(10),
            Some(20),
            Some(105),
            Some(0)
        ]
    );
}

#[test]
fn an_enable_if_specialization_per_lane_in_cuda_and_hip() {
    // The same choice in each dialect, each lane computing `Pick<T>::f(lane)`:
    // float → lane * 2 (the specialization), int → lane + 1 (the primary); out = sum of both:
    // 3 * lane + 1 on every lane of a 32-lane CUDA warp and a 64-lane HIP wavefront.
    let src = "\
#include <type_traits>
template <typename T, typename = void> struct Pick { static __device__ int f(int l) { return l + 1; } };
template <typename T> struct Pick<T, std::enable_if_t<std::is_floating_point<T>::value>> {
  static __device__ int f(int l) { return l * 2; }
};
__global__ void k(int* out) {
  int l = threadIdx.x;
  out[l] = Pick<float>::f(l) + Pick<int>::f(l);
}";
    for (d, n) in [(Dialect::Cuda, 32usize), (Dialect::Hip, 64)] {
        let t = run_finished(src, launch_lanes(d, n, &[("out", n, "zero")]));
        let want: Vec<Option<i128>> = (0..n as i128).map(|l| Some(3 * l + 1)).collect();
        assert_eq!(ints(&t, "out"), want, "{d:?}");
    }
}

#[test]
fn alias_templates_in_declarations_template_arguments_and_calls() {
    // [temp.alias]/2: `Vec<int>` is `MyVec<int, 4>`, so `sum(v)` deduces T = int, N = 4 and
    // gives 1 + 2 + 3 + 4 = 10; `Number<7>::value` = 7; `twice<Number<5>::value>()` = 10;
    // `val<Number<9>>()` = 9; sizeof(Vec<int>) / sizeof(int) = 4 ints.
    let src = "\
typedef int index_t;
template <typename T, index_t V> struct integral_constant { static constexpr T value = V; };
template <index_t N> using Number = integral_constant<index_t, N>;
template <typename T, int N> struct MyVec { T d[N]; };
template <typename T> using Vec = MyVec<T, 4>;
template <typename T, int N> __device__ T sum(const MyVec<T, N>& v) {
  T s = 0;
  for (int i = 0; i < N; ++i) s += v.d[i];
  return s;
}
template <int N> __device__ int twice() { return 2 * N; }
template <typename C> __device__ int val() { return C::value; }
__global__ void k(int* out) {
  Vec<int> v;
  for (int i = 0; i < 4; ++i) v.d[i] = i + 1;
  if (threadIdx.x == 0) {
    out[0] = sum(v);
    out[1] = Number<7>::value;
    out[2] = twice<Number<5>::value>();
    out[3] = val<Number<9>>();
    out[4] = sizeof(Vec<int>) / sizeof(int);
  }
}";
    let t = run_finished(src, one_lane());
    assert_eq!(
        ints(&t, "out")[..5],
        [Some(10), Some(7), Some(10), Some(9), Some(4)]
    );
}

#[test]
fn conditional_t_as_variable_argument_return_and_cast_types() {
    // [meta.trans.other] `conditional<B, T, F>::type` is T when B, else F.
    // a: long long 1 << 40 = 1099511627776; b: int 7; size_of<double> = 8 (sizeof(int) == 4);
    // size_of<short> = 2; widen<true>(1000) = 1000 * 3000000 in long long = 3000000000
    // (no overflow); widen<false>(2) = 6000000 in int; half_of<true>(5) = 5.0f / 2 = 2.5 →
    // stored as long long 2; half_of<false>(5) = 5 / 2 = 2.
    let src = "\
#include <type_traits>
template <bool Wide> __device__ std::conditional_t<Wide, long long, int> widen(int x) {
  return (std::conditional_t<Wide, long long, int>)x * 3000000;
}
template <bool B> __device__ typename std::conditional<B, float, int>::type half_of(int x) {
  return (typename std::conditional<B, float, int>::type)x / 2;
}
template <typename T> __device__ int size_of() { return sizeof(T); }
__global__ void k(long long* out) {
  std::conditional_t<true, long long, int> a = 1LL << 40;
  typename std::conditional<false, long long, int>::type b = 7;
  if (threadIdx.x == 0) {
    out[0] = a;
    out[1] = b;
    out[2] = size_of<std::conditional_t<(sizeof(int) == 4), double, char>>();
    out[3] = size_of<typename std::conditional<false, double, short>::type>();
    out[4] = widen<true>(1000);
    out[5] = widen<false>(2);
    out[6] = half_of<true>(5) * 2;
    out[7] = half_of<false>(5);
  }
}";
    let t = run_finished(src, one_lane());
    assert_eq!(
        ints(&t, "out")[..8],
        [
            Some(1_099_511_627_776),
            Some(7),
            Some(8),
            Some(2),
            Some(3_000_000_000),
            Some(6_000_000),
            Some(5),
            Some(2)
        ]
    );
}

/// composable_kernel's shapes: `Number<N>` an `integral_constant` with a `constexpr`
/// conversion and call operator, `static_for<B, E, S>` calling its functor with each index.
const STATIC_FOR: &str = "\
template <typename T, T V> struct integral_constant {
  static constexpr T value = V;
  __host__ __device__ constexpr operator T() const { return value; }
  __host__ __device__ constexpr T operator()() const { return value; }
};
template <int N> using Number = integral_constant<int, N>;
template <int B, int E, int S> struct static_for {
  template <typename F> __device__ void operator()(F f) const {
    if constexpr (B < E) { f(Number<B>{}); static_for<B + S, E, S>{}(f); }
  }
};
template <int N> __device__ int twice() { return 2 * N; }
";

#[test]
fn integral_constant_objects_are_constants_through_value_call_and_decltype() {
    // [class.static]/1: `I.value` names the static member, 3; `I()` calls the constexpr
    // operator(), 3; [dcl.type.simple]/4: `decltype(I)` is `const Number<3>`, so
    // `decltype(I)::value` is 3; `twice<I>()` converts I through `operator int()` in a
    // constant expression ([expr.const]/2): 6; an array bound `int a[I]` of 3 cells.
    let src = format!(
        "{STATIC_FOR}
__global__ void k(int* out) {{
  constexpr auto I = Number<3>{{}};
  int a[I.value];
  if (threadIdx.x == 0) {{
    out[0] = I.value;
    out[1] = I();
    out[2] = decltype(I)::value;
    out[3] = twice<I>();
    out[4] = sizeof(a) / sizeof(int);
  }}
}}"
    );
    let t = run_finished(&src, one_lane());
    assert_eq!(
        ints(&t, "out")[..5],
        [Some(3), Some(3), Some(3), Some(6), Some(3)]
    );
}

#[test]
fn static_for_with_generic_lambdas_and_a_nested_static_for() {
    // The outer loop's i = 0..3 and the inner j = 0..1 are `Number<i>` objects:
    // a[i] += 10 i + twice<i.value>() = 12 i → a = 0 12 24 36 (i < 4);
    // m[2 i + j] = 20 i + j (twice<i.value>() * 10 + j, j converted to int) → 0 1 20 21 40 41;
    // s += twice<j>() per (i, j) → 3 × (0 + 2) = 6. Lane l writes m[l] + a[l % 4] + 100 s.
    // Lanes 0..5: 0+0+600, 1+12+600, 20+24+600, 21+36+600, 40+0+600, 41+12+600.
    // Run in CUDA (32 lanes) and HIP (64 lanes): the values are the lane's, the same.
    let src = format!(
        "{STATIC_FOR}
__global__ void k(int* out) {{
  int a[4] = {{0, 0, 0, 0}};
  int m[6] = {{0, 0, 0, 0, 0, 0}};
  int s = 0;
  static_for<0, 4, 1>{{}}([&](auto i) {{ a[i.value] += i.value * 10 + twice<i.value>(); }});
  static_for<0, 3, 1>{{}}([&](auto i) {{
    static_for<0, 2, 1>{{}}([&](auto j) {{
      m[i * 2 + j.value] = twice<i.value>() * 10 + j;
      s += twice<j>();
    }});
  }});
  int l = threadIdx.x;
  if (l < 6) out[l] = m[l] + a[l % 4] + 100 * s;
}}"
    );
    let want = [600, 613, 644, 657, 640, 653].map(|v| Some(i128::from(v)));
    for (d, n) in [(Dialect::Cuda, 32usize), (Dialect::Hip, 64)] {
        let t = run_finished(&src, launch_lanes(d, n, &[("out", 6, "zero")]));
        assert_eq!(ints(&t, "out"), want, "{d:?}");
    }
}

#[test]
fn packs_in_class_bodies_comma_folds_and_integer_sequences() {
    // [expr.sizeof]/5: sizeof...(Ts) in `Tuple<int, float, char>` is 3 (a static constant
    // and in a member function: 30). [expr.prim.fold]: `(add(out, i++, a), ...)` calls
    // add left to right: out[2..5] = 5 6 7. [intseq.make]/1: make_integer_sequence<int, 5>
    // is 0..4, so (Is + ... + 0) = 10; weighted(x, 0 1 2) = 4·1 + 5·2 + 6·3 = 32;
    // index_sequence_for<int, int> is 0 1: 4 + 10 = 14; count_for of four arguments sums
    // make_integer_sequence<int, 4>: 0 + 1 + 2 + 3 = 6; index_sequence<0, 1, 2>::size() = 3.
    let src = "\
#include <utility>
template <typename... Ts> struct Tuple {
  static constexpr int n = sizeof...(Ts);
  __device__ int count() const { return sizeof...(Ts) * 10; }
};
__device__ void add(int* out, int i, int v) { out[i] += v; }
template <typename... A> __device__ void addall(int* out, A... a) { int i = 0; (add(out, i++, a), ...); }
template <int... Is> __device__ int sum_seq(std::integer_sequence<int, Is...>) { return (Is + ... + 0); }
template <std::size_t... Is> __device__ int weighted(const int* x, std::index_sequence<Is...>) {
  int w[] = {(int)(x[Is] * (Is + 1))...};
  int s = 0;
  for (int i = 0; i < (int)sizeof...(Is); ++i) s += w[i];
  return s;
}
template <typename... Ts> __device__ int count_for(Ts... ts) {
  return sum_seq(std::make_integer_sequence<int, sizeof...(Ts)>{});
}
__global__ void k(int* out) {
  if (threadIdx.x == 0) {
    Tuple<int, float, char> t;
    out[0] = Tuple<int, float, char>::n;
    out[1] = t.count();
    out[2] = 0; out[3] = 0; out[4] = 0;
    addall(out + 2, 5, 6, 7);
    out[5] = sum_seq(std::make_integer_sequence<int, 5>{});
    int x[3] = {4, 5, 6};
    out[6] = weighted(x, std::make_index_sequence<3>{});
    out[7] = weighted(x, std::index_sequence_for<int, int>{});
    out[8] = count_for(1, 2.0f, 'c', 4);
    out[9] = (int)std::index_sequence<0, 1, 2>::size();
  }
}";
    let t = run_finished(src, one_lane());
    assert_eq!(
        ints(&t, "out")[..10],
        [
            Some(3),
            Some(30),
            Some(5),
            Some(6),
            Some(7),
            Some(10),
            Some(32),
            Some(14),
            Some(6),
            Some(3)
        ]
    );
}

#[test]
fn pointer_template_parameters_name_file_scope_arrays() {
    // [temp.arg.nontype]/1: `pick<table>` binds P to &table[0] (the array converted,
    // [conv.array]); table = 3 5 7 9: pick<table>(2) = 7, Sum<table, 4> = 24,
    // pick<dtab>(1) = 13, pick<&table[0]>(3) = 9.
    let src = "\
__constant__ int table[4] = {3, 5, 7, 9};
__device__ int dtab[2] = {11, 13};
template <const int* P> __device__ int pick(int i) { return P[i]; }
template <const int* P, int N> struct Sum {
  __device__ static int get() { int s = 0; for (int i = 0; i < N; ++i) s += P[i]; return s; }
};
__global__ void k(int* out) {
  if (threadIdx.x == 0) {
    out[0] = pick<table>(2);
    out[1] = Sum<table, 4>::get();
    out[2] = pick<dtab>(1);
    out[3] = pick<&table[0]>(3);
  }
}";
    let t = run_finished(src, one_lane());
    assert_eq!(ints(&t, "out")[..4], [Some(7), Some(24), Some(13), Some(9)]);
}

#[test]
fn a_pointer_template_argument_other_than_an_array_is_refused_before_the_run() {
    // `&table[1]` points into the array: the instance would need the offset, which the
    // rewrite to the array's name cannot carry. Refused, naming what to write.
    let src = "\
__constant__ int table[4] = {3, 5, 7, 9};
template <const int* P> __device__ int pick(int i) { return P[i]; }
__global__ void k(int* out) { out[threadIdx.x] = pick<&table[1]>(0); }";
    let e = refused(src, block(1));
    assert!(e.contains("`table` or `&table[0]`"), "{e}");
}

#[test]
fn crtp_base_calls_the_derived_implementation() {
    // [temp.inst]/2: Base<Der>::run is instantiated where it is called, with Der complete;
    // static_cast<D*>(this) is the Der object ([expr.static.cast]/11).
    // d: impl() = 7, run() = 8, twice() = 14. e (k = lane): impl() = 3 lane, run() = 3 lane + 1.
    // out[lane] = 8·100 + 3 lane + 1 + 14·1000 = 14801 + 3 lane.
    let src = "\
template <typename D> struct Base {
  __device__ int run() { return static_cast<D*>(this)->impl() + 1; }
  __device__ int twice() const { return 2 * static_cast<const D&>(*this).impl(); }
};
struct Der : Base<Der> { __device__ int impl() const { return 7; } };
struct Der2 : public Base<Der2> { int k; __device__ int impl() const { return k * 3; } };
__global__ void k(int* out) {
  Der d;
  Der2 e; e.k = threadIdx.x;
  out[threadIdx.x] = d.run() * 100 + e.run() + d.twice() * 1000;
}";
    for (d, n) in [(Dialect::Cuda, 32usize), (Dialect::Hip, 64)] {
        let t = run_finished(src, launch_lanes(d, n, &[("out", n, "zero")]));
        let want: Vec<Option<i128>> = (0..n as i128).map(|l| Some(14801 + 3 * l)).collect();
        assert_eq!(ints(&t, "out"), want, "{d:?}");
    }
}
