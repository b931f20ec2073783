//! Template-metaprogramming members the front end reads instead of refusing:
//! `static constexpr auto` data members (C++17 [dcl.spec.auto], [dcl.type.auto.deduct]/4: the
//! member has its initializer's type), `using type = decltype(member);` in a class
//! ([dcl.type.simple]/4), `static constexpr` members from constexpr calls, traits and
//! aliases, and `<type_traits>`'s helper classes `std::integral_constant`,
//! `std::bool_constant`, `std::true_type`, `std::false_type` ([meta.help]) as bases of traits
//! and as tags; `template <auto N>` parameters, whose `N` has each argument's own type
//! ([temp.arg.nontype]/1, [dcl.type.auto.deduct]/2).
//!
//! Every kernel runs on CUDA (a 32-lane warp) and HIP (a 64-lane wavefront); each lane writes
//! its own cell, so the expected values are per lane. Values worked by hand, with the rules
//! cited beside each.

use crate::support::{launch, run_finished};
use crosslane_core::op::Dialect;

fn ints(t: &crosslane_kernel::KernelTrace, name: &str) -> Vec<i128> {
    crate::support::ints_or_min(t, name)
}

/// Runs `src` with one warp of the dialect's width writing `o[lane * cells + j]`.
fn per_lane(src: &str, cells: usize) -> Vec<(usize, Vec<i128>)> {
    [(Dialect::Cuda, 32), (Dialect::Hip, 64)]
        .into_iter()
        .map(|(d, n)| {
            let t = run_finished(src, launch(d, n, &[("o", n * cells, "0")]));
            (n, ints(&t, "o"))
        })
        .collect()
}

#[test]
fn static_constexpr_auto_members_have_their_initializers_types() {
    // [dcl.type.auto.deduct]/4: `auto value = N;` with N an int is an int; `sizeof(T) * 4`
    // a size_t (8 bytes on LP64: [expr.sizeof]/6 with the CUDA/HIP host ABI), 32 for double;
    // `9u` an unsigned, so `kd - 10u` wraps to 2^32 - 1 > 0 ([basic.fundamental]/4).
    // `'a'` a char: sizeof 1. Array bound S<3>::value ints: 12 bytes.
    let src = "\
template <int N> struct S { static constexpr auto value = N; };
template <typename T> struct Sz {
  static constexpr auto kSize = sizeof(T) * 4;
  static const auto kc = 7;
  constexpr static auto kd = 9u, ke{'a'};
};
__global__ void k(long long *o) {
  int l = threadIdx.x;
  int a[S<3>::value];
  S<5> s;
  long long *r = o + l * 8;
  r[0] = S<3>::value * l; r[1] = s.value + l; r[2] = Sz<double>::kSize; r[3] = sizeof(a);
  r[4] = Sz<float>::kc + Sz<float>::kd; r[5] = (Sz<char>::kd - 10u) > 0;
  auto z = Sz<int>::kSize; auto c = Sz<int>::ke; r[6] = sizeof(z) * 10 + sizeof(c); r[7] = c;
}";
    for (n, o) in per_lane(src, 8) {
        for l in 0..n {
            let l2 = l as i128;
            assert_eq!(
                &o[l * 8..l * 8 + 8],
                &[3 * l2, 5 + l2, 32, 12, 16, 1, 81, 97],
                "lane {l} of {n}"
            );
        }
    }
}

#[test]
fn a_non_static_auto_member_is_refused_by_name() {
    // [dcl.spec.auto]/5: a non-static data member cannot have a placeholder type.
    let src = "struct A { auto x = 3; };\n__global__ void k(int *o) { A a; o[0] = a.x; }";
    let e = crate::support::refused(src, launch(Dialect::Cuda, 1, &[("o", 1, "0")]));
    assert!(
        e.contains("non-static data member") && e.contains("auto"),
        "{e}"
    );
}

#[test]
fn member_decltype_constexpr_calls_traits_and_aliases() {
    // sq(3) = 9; is_same_v<float, float> = 1, <int, float> = 0; kN = 5 * 2 = 10 of index_t
    // (int32_t); `decltype(x)` of the int member x is int, so D::type v = 7.9 holds 7
    // ([conv.fpint]/1 truncates).
    let src = "\
#include <cstdint>
#include <type_traits>
__host__ __device__ constexpr int sq(int x) { return x * x; }
using index_t = int32_t;
template <typename T, index_t N> struct Tr {
  static constexpr int value = sq(N);
  static constexpr bool kFlag = std::is_same_v<T, float>;
  static constexpr index_t kN = N * 2;
};
struct D { int x; using type = decltype(x); };
__global__ void k(long long *o) {
  long long *r = o + threadIdx.x * 5;
  r[0] = Tr<float, 3>::value + threadIdx.x; r[1] = Tr<float, 3>::kFlag; r[2] = Tr<int, 3>::kFlag;
  r[3] = Tr<int, 5>::kN; D::type v = 7.9; r[4] = v + sizeof(D::type) * 10;
}";
    for (n, o) in per_lane(src, 5) {
        for l in 0..n {
            assert_eq!(
                &o[l * 5..l * 5 + 5],
                &[9 + l as i128, 1, 0, 10, 47],
                "lane {l} of {n}"
            );
        }
    }
}

#[test]
fn integral_constant_true_type_and_false_type_as_bases_and_tags() {
    // [meta.help]: integral_constant<int, 4>::value = 4; a trait deriving from true_type has
    // value 1, from false_type 0; a `true_type` object converts to `true` and `t()` is `true`
    // (1 + 2 + 4 = 7); tag dispatch on true_type / false_type picks 10 / 20; d2(1.0f) =
    // 10 + 1 and d2(2) = 20 + 2, so 11 + 2200 = 2211; `value_type` of <long long, 3> is 8 bytes;
    // integral_constant<unsigned, 5>::value - 6u wraps to 2^32 - 1.
    let src = "\
#include <type_traits>
template <typename T> struct is_f : std::false_type {};
template <> struct is_f<float> : std::true_type {};
__device__ int disp(std::true_type) { return 10; }
__device__ int disp(std::false_type) { return 20; }
template <typename T> __device__ int d2(T x) { return disp(std::bool_constant<is_f<T>::value>{}) + x; }
__global__ void k(long long *o) {
  long long *r = o + threadIdx.x * 8;
  r[0] = std::integral_constant<int, 4>::value * threadIdx.x;
  r[1] = is_f<float>::value * 10 + is_f<int>::value; r[2] = std::true_type::value;
  r[3] = disp(std::true_type{}) + disp(std::bool_constant<std::is_same<float, int>::value>{});
  std::true_type t; r[4] = t.value + t() * 2 + (int)t * 4;
  r[5] = d2(1.0f) + d2(2) * 100;
  using VT = typename std::integral_constant<long long, 3>::value_type; r[6] = sizeof(VT);
  r[7] = std::integral_constant<unsigned, 5>::value - 6u;
}";
    for (n, o) in per_lane(src, 8) {
        for l in 0..n {
            let want = [4 * l as i128, 10, 1, 30, 7, 2211, 8, 4_294_967_295];
            assert_eq!(&o[l * 8..l * 8 + 8], &want, "lane {l} of {n}");
        }
    }
}

#[test]
fn common_trait_patterns_run() {
    // Hand-worked: traits<double>::width = 64, the char specialization 99 (163); Int<7> = 7;
    // tag structs pick 1 and 2 (12); is_same<int,int> 1, <int,float> 0 (10); Fact<5> = 120;
    // `template <class T, T v>` ic<int, 7> = 7; count of 3 types; Max<3, 8> = 8; enable_if
    // picks the integral overload (1) for 3 and the other (2) for 2.0f (12); traits<char>::acc
    // is int, holding 300.
    let src = "\
#include <type_traits>
struct tag_a {}; struct tag_b {};
__device__ int pick(tag_a) { return 1; }
__device__ int pick(tag_b) { return 2; }
template <typename T> struct traits { static constexpr int width = sizeof(T) * 8; using acc = T; };
template <> struct traits<char> { static constexpr int width = 99; using acc = int; };
template <int V> struct Int { static constexpr int value = V; };
template <typename T, T v> struct ic { static constexpr T value = v; };
template <int N> struct Fact { static constexpr int value = N * Fact<N - 1>::value; };
template <> struct Fact<0> { static constexpr int value = 1; };
template <typename... Ts> struct count { static constexpr int value = sizeof...(Ts); };
template <int A, int B> struct Max { static constexpr int value = A > B ? A : B; };
template <typename T> __device__ typename std::enable_if<std::is_integral<T>::value, int>::type g(T) { return 1; }
template <typename T> __device__ typename std::enable_if<!std::is_integral<T>::value, int>::type g(T) { return 2; }
__global__ void k(long long *o) {
  long long *r = o + threadIdx.x * 8;
  r[0] = traits<double>::width + traits<char>::width + threadIdx.x;
  r[1] = Int<Int<6>::value + 1>::value + pick(tag_a{}) * 100 + pick(tag_b{}) * 10;
  r[2] = std::is_same<int, int>::value * 10 + std::is_same<int, float>::value;
  r[3] = Fact<5>::value; r[4] = ic<int, 7>::value * 10 + count<int, float, char>::value;
  r[5] = Max<3, 8>::value; r[6] = g(3) * 10 + g(2.0f);
  typename traits<char>::acc a = 300; r[7] = a;
}";
    for (n, o) in per_lane(src, 8) {
        for l in 0..n {
            let want = [163 + l as i128, 127, 10, 120, 73, 8, 12, 300];
            assert_eq!(&o[l * 8..l * 8 + 8], &want, "lane {l} of {n}");
        }
    }
}

#[test]
fn auto_template_parameters_take_each_arguments_type() {
    // [dcl.type.auto.deduct]/2 with [lex.icon]/2: `3000000000u` is an unsigned int, so
    // f<3000000000u>() + 1000000000u = 4000000000 (below 2^32); `'a'` a char (sizeof 1); `5`
    // an int, so f<5>() - 6 = -1; C<3000000000u>::value / 2 = 1500000000; decltype(N) of
    // 'x' is char (1), of 5 int (4): 14; sum<1, 2u, 3ll>() = 6, I<3u>::v of `template <int N>`
    // 3 (300), f<3ull>() an unsigned long long (8 bytes: 8000): 8306. Lane l adds l to the
    // first cell: each instance is one function, whatever lane calls it.
    let src = "\
template <auto N> __device__ auto f() { return N; }
template <auto N> struct C { static constexpr auto value = N; using type = decltype(N); };
template <auto... Ns> __device__ long long sum() { return (0 + ... + Ns); }
template <int N> struct I { static constexpr int v = N; };
__global__ void k(long long *o) {
  long long *r = o + threadIdx.x * 8;
  r[0] = f<3000000000u>() + threadIdx.x; r[1] = sizeof(f<'a'>()); r[2] = f<5>() - 6;
  r[3] = f<3000000000u>() + 1000000000u; r[4] = C<3000000000u>::value / 2;
  using TX = typename C<'x'>::type; using T5 = typename C<5>::type;
  r[5] = sizeof(TX) * 10 + sizeof(T5); r[6] = f<'a'>();
  auto u = f<3ull>(); r[7] = sum<1, 2u, 3ll>() + I<3u>::v * 100 + sizeof(u) * 1000;
}";
    for (n, o) in per_lane(src, 8) {
        for l in 0..n {
            let want = [
                3_000_000_000 + l as i128,
                1,
                -1,
                4_000_000_000,
                1_500_000_000,
                14,
                97,
                8306,
            ];
            assert_eq!(&o[l * 8..l * 8 + 8], &want, "lane {l} of {n}");
        }
    }
}

#[test]
fn declared_value_parameters_read_typed_arguments_as_their_own_type() {
    // [temp.arg.nontype]/2: an argument is converted to the parameter's declared type, so
    // `Q<int, 0>` matches the partial specialization `Q<T, 0u>` (2 * 10 + 1 = 21), `R<7>` and
    // `R<7u>` are the one explicit specialization (70 + 70 + 2 = 142), `Bb<(3 > 2)>` is
    // `Bb<true>` (22); for `template <auto N>`, `A<1u>` is the specialization and `A<1>`
    // (an int) is not (1 * 10 + 2 = 12); g<2u>(3) = 5, g<'a'>(1) = 97 + 1 = 98; sh<2u>(5) = 20
    // and sh<1>(7) = 14 (34); W<2u>::f<3u>() = 23.
    let src = "\
template <typename T, unsigned N> struct Q { static constexpr int v = 1; };
template <typename T> struct Q<T, 0u> { static constexpr int v = 2; };
template <unsigned N> struct R { static constexpr int v = N; };
template <> struct R<7u> { static constexpr int v = 70; };
template <bool B> struct Bb { static constexpr int v = 1; };
template <> struct Bb<true> { static constexpr int v = 2; };
template <auto N> struct A { static constexpr int v = 1; };
template <> struct A<1u> { static constexpr int v = 2; };
template <int N, typename T> __device__ int g(T x) { return N + x; }
template <unsigned N, typename T> __device__ T sh(T x) { return x << N; }
template <int N> struct W { template <int M> __device__ static int f() { return N * 10 + M; } };
__global__ void k(long long *o) {
  long long *r = o + threadIdx.x * 8;
  r[0] = Q<int, 0>::v * 10 + Q<int, 3>::v; r[1] = R<7>::v + R<7u>::v + R<2>::v;
  r[2] = Bb<true>::v * 10 + Bb<(3 > 2)>::v; r[3] = A<1>::v * 10 + A<1u>::v;
  r[4] = g<2u>(3); r[5] = g<'a'>(1); r[6] = sh<2u>(5) + sh<1>(7); r[7] = W<2u>::f<3u>();
}";
    for (n, o) in per_lane(src, 8) {
        for l in 0..n {
            assert_eq!(
                &o[l * 8..l * 8 + 8],
                &[21, 142, 22, 12, 5, 98, 34, 23],
                "lane {l} of {n}"
            );
        }
    }
}

#[test]
fn member_enums_policies_and_if_constexpr_traits() {
    // [class.mem]/1, [dcl.enum]/2: `enum { kE = 3 };` makes the class's constant kE = 3, so
    // 4 + 8 * 10 + 3 * 100 = 384 with kShift = kCount * 2 = 8; `if constexpr
    // (std::is_same_v<T, float>)`: pick(1.5f) = 3 (30), pick(3) = 4; Pow2<8> 1, Pow2<6> 0
    // (10); run<Policy>(3) returns a `typename P::Acc` (float): 3 * 128 / 2 = 192 (it was
    // read as returning the struct P, and the value lost); Wrap<double>::kBytes 8 and
    // Wrap<short>'s 2 (28); `constexpr auto c = Cfg<float>::kShift` 8.
    let src = "\
#include <type_traits>
template <typename T> struct Cfg {
  static int const kCount = 4; static constexpr int kShift = kCount * 2; enum { kE = 3 };
};
template <typename T> __device__ T pick(T x) {
  if constexpr (std::is_same_v<T, float>) return x * 2; else return x + 1;
}
template <int N> struct Pow2 {
  static_assert(N > 0, \"pos\"); static constexpr bool value = (N & (N - 1)) == 0;
};
struct Policy { static constexpr int kBlock = 128; using Acc = float; };
template <typename P> __device__ typename P::Acc run(int i) {
  return (typename P::Acc)(i * P::kBlock) / 2;
}
template <typename T> struct Wrap { T v; static constexpr auto kBytes = sizeof(T); };
__global__ void k(long long *o) {
  long long *r = o + threadIdx.x * 6;
  r[0] = Cfg<int>::kCount + Cfg<int>::kShift * 10 + Cfg<int>::kE * 100;
  r[1] = pick(1.5f) * 10 + pick(3); r[2] = Pow2<8>::value * 10 + Pow2<6>::value;
  r[3] = run<Policy>(3); static_assert(Pow2<16>::value, \"x\");
  Wrap<double> w; w.v = 2.5; r[4] = w.kBytes + Wrap<short>::kBytes * 10;
  constexpr auto c = Cfg<float>::kShift; r[5] = c;
}";
    for (n, o) in per_lane(src, 6) {
        for l in 0..n {
            assert_eq!(
                &o[l * 6..l * 6 + 6],
                &[384, 34, 10, 192, 28, 8],
                "lane {l} of {n}"
            );
        }
    }
}

#[test]
fn variable_templates_and_their_specializations() {
    // C++17 [temp]/1 variable templates: is_big_v<int> = (4 > 4) = 0; <double> 1 and the
    // explicit specialization <char> true: 11; sq_v<7> = 49; H<double>::v = 2 plus
    // K<sq_v<3>>::v * 10 = 90: 92; K<is_big_v<K<1>>> (an empty struct is 1 byte, not > 4): 0;
    // `auto z = sq_v<2>` an int 4: 4 * 10 + 4 = 44.
    let src = "\
#include <type_traits>
template <typename T> constexpr bool is_big_v = sizeof(T) > 4;
template <> constexpr bool is_big_v<char> = true;
template <int N> inline constexpr auto sq_v = N * N;
template <typename T> struct H { static constexpr int v = is_big_v<T> ? 2 : 1; };
template <int N> struct K { static constexpr int v = N; };
__global__ void k(long long *o) {
  long long *r = o + threadIdx.x * 6;
  r[0] = is_big_v<int>; r[1] = is_big_v<double> * 10 + is_big_v<char>; r[2] = sq_v<7>;
  r[3] = H<double>::v + K<sq_v<3>>::v * 10; r[4] = K<is_big_v<K<1>>>::v;
  auto z = sq_v<2>; r[5] = sizeof(z) * 10 + z;
}";
    for (n, o) in per_lane(src, 6) {
        for l in 0..n {
            assert_eq!(
                &o[l * 6..l * 6 + 6],
                &[0, 11, 49, 92, 0, 44],
                "lane {l} of {n}"
            );
        }
    }
}

#[test]
fn sizeof_a_static_member_a_member_type_and_an_empty_class() {
    // [expr.sizeof]/1: `sizeof(Sz<int>::kSize)` is its type's size, a size_t (8); the char
    // member 1; `typename Sz<double>::type` a double (8); Cfg::kN a short (2); a class with
    // only static members is empty, and an empty class's size is 1 ([class]/4, nonzero);
    // `Sz<char>::type` a char (1).
    let src = "\
template <typename T> struct Sz {
  static constexpr auto kSize = sizeof(T) * 4; static constexpr char c = 1; using type = T;
};
struct Cfg { static constexpr short kN = 3; };
__global__ void k(long long *o) {
  long long *r = o + threadIdx.x * 6;
  r[0] = sizeof(Sz<int>::kSize); r[1] = sizeof(Sz<int>::c);
  r[2] = sizeof(typename Sz<double>::type); r[3] = sizeof(Cfg::kN); r[4] = sizeof(Sz<short>);
  r[5] = sizeof(Sz<char>::type);
}";
    for (n, o) in per_lane(src, 6) {
        for l in 0..n {
            assert_eq!(&o[l * 6..l * 6 + 6], &[8, 1, 8, 2, 1, 1], "lane {l} of {n}");
        }
    }
}

#[test]
fn traits_deriving_from_std_bases_inside_function_templates() {
    // [temp.deduct.type]/8: gn(integral_constant<int, 4>{}) deduces N = 4, 4 * 3 = 12; inside
    // the function template tagd<T>, is_f<float> (true_type) gives 1 and is_f<int>
    // (false_type) 2: 12; integral_constant<int, 6>{}() is 6 ([meta.help]: operator()).
    let src = "\
#include <type_traits>
template <int N> __device__ int gn(std::integral_constant<int, N>) { return N * 3; }
template <typename T> struct is_f : std::false_type {};
template <> struct is_f<float> : std::true_type {};
template <typename T> __device__ int tagd(T x) { return is_f<T>::value ? 1 : 2; }
__global__ void k(long long *o) {
  long long *r = o + threadIdx.x * 3;
  r[0] = gn(std::integral_constant<int, 4>{}); r[1] = tagd(1.0f) * 10 + tagd(2);
  r[2] = std::integral_constant<int, 6>{}();
}";
    for (n, o) in per_lane(src, 3) {
        for l in 0..n {
            assert_eq!(&o[l * 3..l * 3 + 3], &[12, 12, 6], "lane {l} of {n}");
        }
    }
}
