//! C++17 rules whose breach gave silently wrong numbers rather than a refusal: the deduced
//! return type of a lambda, the order of an assignment's operands, the types of literals and
//! of `?:`, overload ranking by `const`, and qualified names of two namespaces. Each expected
//! value is worked out from the clause the test cites, never read off a run.

use crate::support::{block, floats, ints, launch, refused, run_finished};
use crosslane_core::op::Dialect;

/// [expr.prim.lambda.closure]/4 with [dcl.spec.auto]/2: a lambda without `-> T` returns the
/// type of its `return` operand. `__half2float(__float2half(x))` is `float`; `__float2half(x)`
/// is `__half`; `__floats2half2_rn(x, -x)` is `__half2`; `__hmul` of two `__half` is `__half`
/// (CUDA Math API, Half Precision Conversion and Data Movement, Half Arithmetic Functions).
/// Lane i passes x = i / 2 (exact in half for i < 32), so every value below is exact:
/// f(x) = x, g(x) = x, pair(x) = (x, -x), sq(x) = x·x (at most 15.5² = 240.25: 11 significant
/// bits suffice for k²/4, k < 32 (k² < 1024 has at most 10 bits)).
#[test]
fn lambda_returns_the_type_of_a_half_builtin_call() {
    let src = r#"
#include <cuda_fp16.h>
__global__ void k(float* a, half* b, half2* c, float* d) {
  auto f = [](float x) { return __half2float(__float2half(x)); };
  auto g = [](float x) { return __float2half(x); };
  auto pair = [](float x) { return __floats2half2_rn(x, -x); };
  auto sq = [](half h) { return __hmul(h, h); };
  float x = threadIdx.x * 0.5f;
  a[threadIdx.x] = f(x);
  b[threadIdx.x] = g(x);
  c[threadIdx.x] = pair(x);
  d[threadIdx.x] = __half2float(sq(__float2half(x)));
}
"#;
    let t = run_finished(src, block(32));
    let half: Vec<Option<f64>> = (0..32).map(|i| Some(f64::from(i) * 0.5)).collect();
    assert_eq!(floats(&t, "a"), half);
    assert_eq!(floats(&t, "b"), half);
    let sq: Vec<Option<f64>> = (0..32)
        .map(|i| Some((f64::from(i) * 0.5).powi(2)))
        .collect();
    assert_eq!(floats(&t, "d"), sq);
    // `c` holds one `__half2` per lane: (x, -x).
    let c = t.buffer("c").expect("c");
    let lane3 = c[3].as_ref().expect("c[3] written");
    assert_eq!(format!("{lane3}"), "{1.5, -1.5}");
}

/// [expr.pre.incr]/1: `++n` is the lvalue `n` after the increment (type `int`);
/// [expr.post.incr]/1: `x++` is the value before (`int`); [expr.ass]/1: `n = 7` is the
/// lvalue `n` (`int`). So the three lambdas return `int` 1, 5 and 7, and the captured `n`
/// is 7 after them.
#[test]
fn lambda_returns_the_type_of_an_increment_or_assignment() {
    let src = r#"
__global__ void k(int* o) {
  int n = 0;
  auto a = [&n]() { return ++n; };
  auto b = [](int x) { return x++; };
  auto c = [&n]() { return n = 7; };
  o[0] = a(); o[1] = b(5); o[2] = c(); o[3] = n;
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 4, "0")]));
    assert_eq!(ints(&t, "o"), vec![Some(1), Some(5), Some(7), Some(7)]);
}

/// A lambda returning a pointer (`o + i`) has a pointer type; one whose `return` the front end
/// cannot type is refused at that `return`, never read as `void` (which left the caller's
/// stores undefined).
#[test]
fn lambda_returning_a_pointer_runs_and_an_untyped_return_is_refused() {
    let src = r#"
__global__ void k(float* o) {
  auto at = [&](int i) { return o + i; };
  *at(threadIdx.x) = 2.5f;
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 4, &[("o", 4, "0")]));
    assert_eq!(floats(&t, "o"), vec![Some(2.5); 4]);
    let src = r#"
__global__ void k(float* o) {
  auto g = [](float i) { float2 v = make_float2(i, i); return (v * 2.f).x; };
  o[0] = g(2.f);
}
"#;
    let e = refused(src, block(1));
    assert!(
        e.contains("cannot tell the type this `return` gives the lambda"),
        "{e}"
    );
}

/// CUDA Math API, `modff(x, iptr)` / `modf(x, iptr)`: "Break down the argument x into
/// fractional and integral parts. The integral part is stored in the argument iptr. Fractional
/// and integral parts are given the same sign as the argument x"; `modf(±∞, iptr)` returns ±0
/// and stores ±∞. So −3.75 → (−0.75, −3), 2.5 → (0.5, 2); the double `modf` keeps what a float
/// cannot: 2^40 + 0.25 → (0.25, 2^40) (2^40 + 0.25 needs 43 significant bits, a float has 24).
#[test]
fn modff_and_modf_return_the_fraction_and_store_the_integral_part() {
    let src = r#"
__global__ void k(const float* x, float* o, double* d) {
  float ip;
  float fr = modff(x[threadIdx.x], &ip);
  o[2 * threadIdx.x] = fr;
  o[2 * threadIdx.x + 1] = ip;
  double dip;
  double big = 1099511627776.0 + 0.25 * (threadIdx.x + 1);
  d[2 * threadIdx.x] = modf(big, &dip);
  d[2 * threadIdx.x + 1] = dip;
}
"#;
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            3,
            &[("x", 3, "-3.75,2.5,-1.0"), ("o", 6, "0"), ("d", 6, "0")],
        ),
    );
    let o = floats(&t, "o");
    assert_eq!(
        o,
        vec![
            Some(-0.75),
            Some(-3.0),
            Some(0.5),
            Some(2.0),
            Some(-0.0),
            Some(-1.0)
        ]
    );
    // −1.0 has the fraction −0 (the sign of x).
    assert!(o[4].is_some_and(|z| z.is_sign_negative()));
    let two40 = 1_099_511_627_776.0;
    assert_eq!(
        floats(&t, "d"),
        vec![
            Some(0.25),
            Some(two40),
            Some(0.5),
            Some(two40),
            Some(0.75),
            Some(two40)
        ]
    );
}

/// C++17 [expr.ass]/1: "the right operand is sequenced before the left operand" (for `=` and
/// each `op=`). One thread, `o` filled with 0..7:
/// - `o[i++] = i` with i = 0: the right side reads 0, then the index 0 is taken (i → 1):
///   o[0] = 0.
/// - `o[j++] += j` with j = 2: the right side reads 2, then the place o[2] (j → 3):
///   o[2] = 2 + 2 = 4.
/// - `o[n] = n++` with n = 4: `n++` gives 4 and makes n 5, then the place o[5]: o[5] = 4.
/// - `a[++j2] = a[j2]` with j2 = 0, a = {10, 20, 30}: a[0] = 10 read first, then a[1] = 10.
#[test]
fn the_right_operand_of_an_assignment_is_evaluated_first() {
    let src = r#"
__global__ void k(int* o) {
  int i = 0;
  o[i++] = i;
  int j = 2;
  o[j++] += j;
  int n = 4;
  o[n] = n++;
  int a[3] = {10, 20, 30}; int j2 = 0;
  a[++j2] = a[j2];
  o[7] = a[1];
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 8, "index")]));
    assert_eq!(ints(&t, "o"), [0, 1, 4, 3, 4, 4, 6, 10].map(Some).to_vec());
}

/// C++17 [expr.cond]/7.2: operands of two arithmetic types undergo the usual arithmetic
/// conversions ([expr.arith.conv]/1.5.3: `int` with `unsigned int` is `unsigned int`; with a
/// `double` it is `double`). So `c ? -1 : 1u` is the `unsigned` 2^32 − 1 = 4294967295 even where
/// `-1` is chosen; `sizeof(c ? 'a' : 1.0)` is `sizeof(double)` = 8; `(c ? neg : u) > 0u`
/// compares unsigned 4294967295 > 0 → 1; `(c ? neg : u) / 2` = 4294967295 / 2 = 2147483647
/// (unsigned division), which a `float` holds as 2^31 = 2147483648 (24-bit significand).
#[test]
fn the_conditional_operator_converts_both_operands_to_their_common_type() {
    let src = r#"
__global__ void k(long long* l, float* o) {
  bool c = threadIdx.x == 0;
  l[0] = c ? -1 : 1u;
  l[1] = sizeof(c ? 'a' : 1.0);
  unsigned u = 1u; int neg = -1;
  l[2] = (c ? neg : u) > 0u;
  o[0] = (c ? neg : u) / 2;
}
"#;
    let t = run_finished(
        src,
        launch(Dialect::Cuda, 1, &[("l", 3, "0"), ("o", 1, "0")]),
    );
    assert_eq!(ints(&t, "l"), vec![Some(4_294_967_295), Some(8), Some(1)]);
    assert_eq!(floats(&t, "o"), vec![Some(2_147_483_648.0)]);
}

/// C++17 [lex.icon] table 7 (LP64: `long` is 64-bit): a decimal literal without suffix is the
/// first of `int`, `long` that holds it, so `3000000000` is a `long` (3000000000, 8 bytes)
/// and `2147483648` = 2^31 too; a hexadecimal one tries `unsigned int` before `long`, so
/// `0x80000000` is `unsigned int` (> 0) and `0xFFFFFFFF / 2` is unsigned 2147483647.
/// [lex.ccon]/2: `'a'` is a `char` (`sizeof` 1, and `auto` deduces `char`); `'\xff'` is the
/// `char` of bits 0xff, −1 where `char` is signed (nvcc and hipcc targets), equal to
/// `(char)-1`; `'\n'` is 10 and the octal `'\101'` 65 ('A').
#[test]
fn literals_have_the_types_of_lex_icon_and_lex_ccon() {
    let src = r#"
__global__ void k(long long* l) {
  auto f = 3000000000;  l[0] = f;
  auto c = 0x80000000;  l[1] = c > 0;
  l[2] = sizeof(2147483648);
  l[3] = sizeof('a');
  l[4] = 3000000000 / 2;
  l[5] = 0xFFFFFFFF / 2;
  auto ch = 'a'; l[6] = sizeof(ch);
  l[7] = (char)-1 == '\xff';
  l[8] = '\xff';
  l[9] = '\n' + '\101';
  l[10] = sizeof(0x80000000);
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("l", 11, "0")]));
    assert_eq!(
        ints(&t, "l"),
        [
            3_000_000_000,
            1,
            8,
            1,
            1_500_000_000,
            2_147_483_647,
            1,
            1,
            -1,
            75,
            4
        ]
        .map(Some)
        .to_vec()
    );
}

/// [basic.namespace]/1 and [basic.lookup.qual]/1: `a::f` and `b::f` are two functions, and a
/// qualified name is looked up in the namespace it names; likewise two namespaces' constants,
/// `__constant__` arrays and structs. [namespace.udecl]/1: `using b::f;` in a block makes `f`
/// name `b::f` there. [basic.lookup.unqual]/1: inside namespace `a`, `K` is `a::K` before the
/// global `K`. Values: a::f(1) = 1 + 1 = 2, b::f(1) = 1 + 2 = 3; a::K = 4, b::K = 8, global
/// K = 100; a::tab[1] = 2, b::tab[1] = 20; v1::P has one int (4 bytes), v2::P a float and an
/// int (8 bytes); a::twice() = 2·a::K = 8.
#[test]
fn two_namespaces_names_of_one_spelling_stay_apart() {
    let src = r#"
constexpr int K = 100;
namespace a {
constexpr int K = 4;
__device__ __constant__ float tab[2] = {1.f, 2.f};
__device__ float f(float x) { return x + 1.f; }
struct P { int i; };
__device__ int twice() { return 2 * K; }
}
namespace b {
constexpr int K = 8;
__device__ __constant__ float tab[2] = {10.f, 20.f};
__device__ float f(float x) { return x + 2.f; }
struct P { float x; int i; };
}
__global__ void k(float* o) {
  o[0] = a::f(1.f);
  o[1] = b::f(1.f);
  o[2] = a::K; o[3] = b::K; o[4] = K;
  o[5] = a::tab[1]; o[6] = b::tab[1];
  o[7] = sizeof(a::P); o[8] = sizeof(b::P);
  o[9] = a::twice();
  {
    using b::f;
    o[10] = f(1.f);
  }
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 11, "0")]));
    assert_eq!(
        floats(&t, "o"),
        [2.0, 3.0, 4.0, 8.0, 100.0, 2.0, 20.0, 4.0, 8.0, 8.0, 3.0]
            .map(Some)
            .to_vec()
    );
}

/// [class.member.lookup] with [dcl.init.ref]/5.1: `Base& br = d` binds to the `Base`
/// subobject of `d`, and a non-virtual member function is chosen by the static type, so
/// `br.kind()` is `Base::kind` (1) though `Derived::kind` (2) hides it; `d.kind()` is 2.
/// `br.v` reads the base member `d` holds (5).
#[test]
fn a_base_reference_calls_the_bases_non_virtual_function() {
    let src = r#"
struct Base { int v; __device__ int kind() const { return 1; } };
struct Derived : Base { int w; __device__ int kind() const { return 2; } };
__global__ void k(int* o) {
  Derived d; d.v = 5; d.w = 9;
  Base& br = d;
  o[0] = br.kind(); o[1] = d.kind(); o[2] = br.v;
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 3, "0")]));
    assert_eq!(ints(&t, "o"), vec![Some(1), Some(2), Some(5)]);
}

/// A functor of the source's own named `Max` is the source's ([basic.lookup.unqual]: an
/// unqualified `Max` finds `::Max`; `cub::Max` only qualified). This `Max` computes a minimum
/// (`fminf`), so the block reduction of x = 30 − i over 64 threads is min = 30 − 63 = −33
/// (cub::Max would give 30).
#[test]
fn a_user_functor_named_like_cubs_is_the_users() {
    let src = r#"
#include <cub/cub.cuh>
struct Max { __device__ float operator()(float a, float b) const { return fminf(a, b); } };
__global__ void k(const float* x, float* o) {
  typedef cub::BlockReduce<float, 64> BR;
  __shared__ typename BR::TempStorage t;
  float b = BR(t).Reduce(x[threadIdx.x], Max());
  if (threadIdx.x == 0) o[0] = b;
}
"#;
    let t = run_finished(
        src,
        launch(Dialect::Cuda, 64, &[("x", 64, "i*-1+30"), ("o", 1, "0")]),
    );
    assert_eq!(floats(&t, "o"), vec![Some(-33.0)]);
}

/// CUDA Math API, `__sincosf(x, sptr, cptr)`: the fast approximate sine and cosine of x,
/// stored through the pointers; `__sinf`'s maximum absolute error in [−π, π] is 2^−21.41 and
/// `__cosf`'s 2^−21.19. sin 1 = 0.841470984807…, cos 1 = 0.540302305868….
#[test]
fn sincosf_intrinsic_stores_sine_and_cosine_within_their_bounds() {
    let src = r#"
__global__ void k(float* o) {
  float s, c; __sincosf(1.0f, &s, &c);
  o[0] = s; o[1] = c;
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 2, "0")]));
    let o = floats(&t, "o");
    let (s, c) = (o[0].expect("s"), o[1].expect("c"));
    assert!(
        (s - 0.841_470_984_807_896_5).abs() <= 2f64.powf(-21.41),
        "{s}"
    );
    assert!(
        (c - 0.540_302_305_868_139_8).abs() <= 2f64.powf(-21.19),
        "{c}"
    );
}

/// Clang Language Extensions, `__builtin_assume(e)`: the optimizer may assume e; "if it is
/// false at run time, the behavior is undefined". A true assumption changes nothing
/// (threads 0-31 write their index); with 64 threads it is false in threads 32-63, so the run
/// stops with an error naming the first of them.
#[test]
fn builtin_assume_is_checked() {
    let src = r#"
__global__ void k(int* o) {
  __builtin_assume(threadIdx.x < 32);
  o[threadIdx.x] = threadIdx.x;
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("o", 32, "0")]));
    assert_eq!(ints(&t, "o"), (0..32).map(Some).collect::<Vec<_>>());
    let t = crosslane_kernel::run_kernel(src, launch(Dialect::Cuda, 64, &[("o", 64, "0")]))
        .expect("runs");
    assert!(
        matches!(&t.outcome, Some(crosslane_kernel::Outcome::Error(e)) if e.message.contains("thread 32")),
        "{:?}",
        t.outcome
    );
}

/// Overloads told apart by `const` ([conv.qual], [dcl.init.ref]/5, [over.ics.rank]/3.2.5-3.2.6):
/// - `which(g)` with `const float* g`: `float*` is not viable (no conversion drops `const`),
///   so `which(const float*)` → 3; `which(f)` with `float* f`: both viable, the identity beats
///   the qualification conversion → 2.
/// - `r(y)` with `const float y`: `float&` cannot bind a const lvalue → `r(const float&)` 11;
///   `r(x)` with `float x`: both bind, the less qualified reference wins → 10; `r(3.0f)`: a
///   temporary binds only `const float&` → 11.
#[test]
fn overloads_are_ranked_by_const() {
    let src = r#"
__device__ int which(float* p) { return 2; }
__device__ int which(const float* p) { return 3; }
__device__ float r(float& x) { return 10.f; }
__device__ float r(const float& x) { return 11.f; }
__global__ void k(int* o, float* f, const float* g, float* q) {
  o[0] = which(f); o[1] = which(g);
  float x = 1.f; const float y = 2.f;
  q[0] = r(x); q[1] = r(y); q[2] = r(3.0f);
}
"#;
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            1,
            &[("o", 2, "0"), ("f", 1, "0"), ("g", 1, "0"), ("q", 3, "0")],
        ),
    );
    assert_eq!(ints(&t, "o"), vec![Some(2), Some(3)]);
    assert_eq!(floats(&t, "q"), vec![Some(10.0), Some(11.0), Some(11.0)]);
}

/// A forwarding reference `F&& f` ([temp.deduct.call]/3): a temporary lambda deduces the
/// closure type, a named closure or functor `F&`; the body calls the caller's object. With
/// x = t: `apply([](int i) { return i * 2.0f; }, t)` = 2t; `apply(l, t)` with l(i) = i + 1 is
/// t + 1; `apply(tw, 1)` with tw.k = 3 is 3. Lane t: 2t + (t + 1) + 3 = 3t + 4.
#[test]
fn a_forwarding_reference_parameter_takes_closures_and_functors() {
    let src = r#"
template <typename F>
__device__ float apply(F&& f, float x) { return f(x); }
struct Times { float k; __device__ float operator()(float x) const { return k * x; } };
__global__ void k(float* o) {
  auto l = [](float i) { return i + 1.0f; };
  Times tw{3.f};
  float t = threadIdx.x;
  o[threadIdx.x] = apply([](int i) { return i * 2.0f; }, t) + apply(l, t) + apply(tw, 1.f);
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 4, &[("o", 4, "0")]));
    assert_eq!(floats(&t, "o"), [4.0, 7.0, 10.0, 13.0].map(Some).to_vec());
}
