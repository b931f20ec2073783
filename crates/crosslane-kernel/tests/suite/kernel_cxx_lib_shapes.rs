//! C++ in the shapes library kernels write (CUTLASS-style fragments with `at(i)` accessors,
//! `const` accessor overloads, CRTP bases, namespaced helpers found by argument-dependent
//! lookup, struct shuffles), and a warp's racing read-modify-write. Each expected value is
//! derived by hand from the clause or guide section the test cites, never read off a run.

use crate::support::{has, ints, launch, run_finished};
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;

/// [expr.call]/11: a call of a function returning an lvalue reference is an lvalue, so
/// `acc.at(i) = v`, `acc(2) = …`, `acc.at(1) += 5` and `f.count()++` write the member.
/// Lane t: r = {t, t+1, t+2, t+3}; `acc(2) = 100`; r[1] += 5 → t + 6; the kernel stores
/// r0 + 10·r1 + r2 + r3 = t + 10t + 60 + 100 + t + 3 = 12t + 163.
#[test]
fn assignment_through_a_member_function_returning_a_reference() {
    let src = r#"
struct Acc {
  float r[4];
  __device__ float& at(int i) { return r[i]; }
  __device__ float& operator()(int i) { return r[i]; }
};
__global__ void k(float* o) {
  Acc acc;
  for (int i = 0; i < 4; ++i) acc.at(i) = i * 1.0f + threadIdx.x;
  acc(2) = 100.0f;
  acc.at(1) += 5.0f;
  o[threadIdx.x] = acc.r[0] + acc.r[1] * 10.0f + acc(2) + acc.r[3];
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("o", 32, "0")]));
    let want: Vec<Option<f64>> = (0..32).map(|t| Some(f64::from(12 * t + 163))).collect();
    assert_eq!(crate::support::floats(&t, "o"), want);
}

/// A fragment with `float& at(int)` beside `const float& at(int) const`, a member `fill`
/// writing through `at(i)` on `*this`, `int& count()` incremented and compound-assigned, and a
/// const reference parameter reading through the const overload ([over.match.funcs]/4).
/// Lane t: d = {t, t+1, t+2, t+3}, then d[0] *= 2 → 2t; count = 0, ++, += 2 → 3.
/// total(f) = sum(d) + d[3] = (2t + t+1 + t+2 + t+3) + (t+3) = 6t + 9; the kernel adds
/// 100·count + d[1] = 300 + t + 1: 7t + 310.
#[test]
fn reference_accessors_with_const_overloads_in_a_fragment() {
    let src = r#"
template <int N> struct Frag {
  float d[N];
  int cnt;
  __device__ float& at(int i) { return d[i]; }
  __device__ const float& at(int i) const { return d[i]; }
  __device__ int& count() { return cnt; }
  __device__ void fill(float v) { for (int i = 0; i < N; ++i) at(i) = v + i; }
  __device__ float sum() const { float s = 0; for (int i = 0; i < N; ++i) s += at(i); return s; }
};
__device__ float total(const Frag<4>& f) { return f.sum() + f.at(3); }
__global__ void k(float* o) {
  Frag<4> f;
  f.fill(threadIdx.x);
  f.count() = 0;
  f.count()++;
  f.count() += 2;
  f.at(0) *= 2.0f;
  o[threadIdx.x] = total(f) + f.count() * 100 + f.at(1);
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("o", 32, "0")]));
    let want: Vec<Option<f64>> = (0..32).map(|t| Some(f64::from(7 * t + 310))).collect();
    assert_eq!(crate::support::floats(&t, "o"), want);
}

/// C++17 [over.match.funcs]/4-5: the implicit object parameter of `get() const` is
/// `const V&`, of `get()` is `V&`; a const object (`const V& r`, `const V c`, `*this` in a
/// const member function, a `const V&` parameter) binds only the first, a non-const one
/// prefers the second ([over.ics.rank]/3.2.6). The const `get` defined after the class
/// ([class.mfct]/2) is the same function as its declaration.
/// o[0] = r.get()·100 + v.get()·10 + c.get() = 2·100 + 1·10 + 2 = 212;
/// with k = 10: twice() = (5 + k)·2 = 30, mut() = (1 + k)·3 = 33, use(v) = 15, use2(v) = 11.
#[test]
fn a_const_receiver_calls_the_const_overload() {
    let src = r#"
struct V {
  int k;
  __device__ int get() { return 1 + k; }
  __device__ int get() const;
  __device__ int twice() const { return get() * 2; }
  __device__ int mut() { return get() * 3; }
};
__device__ int V::get() const { return 5 + k; }
__device__ int use(const V& v) { return v.get(); }
__device__ int use2(V& v) { return v.get(); }
__global__ void k(int* o) {
  V v; v.k = 0;
  const V& r = v;
  const V c{-1};
  o[0] = r.get() * 100 + v.get() * 10 + c.get() - 4;
  v.k = 10;
  o[1] = v.twice(); o[2] = v.mut(); o[3] = use(v); o[4] = use2(v);
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 5, "0")]));
    // r.get() = 5 + 0, v.get() = 1 + 0, c.get() = 5 - 1 = 4: 500 + 10 + 4 - 4 = 510.
    assert_eq!(
        ints(&t, "o"),
        vec![Some(510), Some(30), Some(33), Some(15), Some(11)]
    );
}

/// [basic.lookup.argdep]/2: an unqualified call also looks in the namespaces of its
/// arguments' classes, so `norm1(p)` of a `geo::P` finds `geo::norm1`.
/// Lane t: a = t, b = 1.5: t + 3.
#[test]
fn argument_dependent_lookup_finds_the_namespace_function() {
    let src = r#"
namespace geo {
  struct P { float a, b; };
  __device__ float norm1(P p) { return p.a + 2.0f * p.b; }
}
__global__ void k(float* o) {
  geo::P p; p.a = threadIdx.x; p.b = 1.5f;
  o[threadIdx.x] = norm1(p);
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("o", 32, "0")]));
    let want: Vec<Option<f64>> = (0..32).map(|t| Some(f64::from(t) + 3.0)).collect();
    assert_eq!(crate::support::floats(&t, "o"), want);
}

/// CUDA C++ Programming Guide, SIMT Architecture: a warp's non-atomic instruction writing one
/// location from several threads leaves one thread's write, which one undefined. A warp runs
/// `o[0] += 1` as one load of every lane, then one store: all 32 lanes read 0 and store 1, so
/// 1 survives whichever lane wins (not 32, a running sum no device gives); `o[1]++` the
/// same; `o[2] += t` stores the surviving lane's 0 + t, here the highest's (31), as the
/// warning says.
#[test]
fn a_racing_compound_assignment_stores_one_lanes_value() {
    let src = r#"
__global__ void k(int* o) {
  int t = threadIdx.x;
  o[0] += 1;
  o[1]++;
  o[2] += t;
  o[3] = o[3] + 1;
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("o", 4, "0")]));
    assert_eq!(ints(&t, "o"), vec![Some(1), Some(1), Some(31), Some(1)]);
    assert!(has(
        &t,
        Level::Warning,
        "one value survives (here the highest lane's)"
    ));
}

/// The input of the arg-max tests: lane i holds (7·i) mod 32, a permutation of 0..32 (7 is odd),
/// so the largest value, 31, sits at the one lane with 7·i ≡ 31 (mod 32): i = 31·7⁻¹ = 31·23
/// mod 32 = 9 (7·23 = 161 = 5·32 + 1).
fn permuted() -> String {
    (0..32)
        .map(|i| ((7 * i) % 32).to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// [expr.prim.lambda.closure]/4, [dcl.spec.auto]/3: a lambda without `-> T` returning a
/// struct returns that struct; a `__device__` function returning a struct by value
/// ([stmt.return]/2) combines two lanes' pairs in a `__shfl_down_sync` arg-max (each member
/// shuffled on its own, as the free shuffles take scalars). Lane 0 ends with the whole warp's
/// maximum: 31 at lane 9 ([`permuted`]); lane 3's lambda pair is (in[3] + 0.5, 1) =
/// (21 + 0.5, 1), in[3] = 21.
#[test]
fn a_lambda_and_a_function_return_structs_in_a_shuffle_reduction() {
    let src = r#"
struct Pair { float v; int i; };
__device__ Pair mkp(float a, int i) { Pair p; p.v = a; p.i = i; return p; }
__device__ Pair best(Pair a, Pair b) { return (b.v > a.v) ? b : a; }
__global__ void k(const float* in, float* o, int* oi) {
  auto mk = [](float a) { Pair p; p.v = a; p.i = 1; return p; };
  Pair q = mk(in[threadIdx.x] + 0.5f);
  Pair p = mkp(in[threadIdx.x], threadIdx.x);
  for (int d = 16; d > 0; d >>= 1) {
    Pair r;
    r.v = __shfl_down_sync(0xffffffffu, p.v, d);
    r.i = __shfl_down_sync(0xffffffffu, p.i, d);
    p = best(p, r);
  }
  if (threadIdx.x == 0) { o[0] = p.v; oi[0] = p.i; }
  if (threadIdx.x == 3) { o[1] = q.v; oi[1] = q.i; }
}
"#;
    let input = permuted();
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            32,
            &[("in", 32, input.as_str()), ("o", 2, "0"), ("oi", 2, "0")],
        ),
    );
    assert_eq!(
        crate::support::floats(&t, "o"),
        vec![Some(31.0), Some(21.5)]
    );
    assert_eq!(ints(&t, "oi"), vec![Some(9), Some(1)]);
}

/// CUDA C++ Programming Guide, Cooperative Groups, `thread_block_tile::shfl_xor` /
/// `shfl_down`: `T` may be any trivially-copyable type, moved word by word from the one
/// source lane. A butterfly arg-max over `tile.shfl_xor(p, m)` leaves every lane the warp's
/// maximum (31 at lane 9, [`permuted`]); the `shfl_down` tree leaves it in lane 0.
#[test]
fn a_tile_shuffles_a_user_struct() {
    let src = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct Pair { float v; int i; };
__global__ void k(const float* in, float* o, int* oi, int* down) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  Pair p; p.v = in[threadIdx.x]; p.i = threadIdx.x;
  Pair q = p;
  for (int m = 16; m > 0; m >>= 1) {
    Pair r = tile.shfl_xor(p, m);
    if (r.v > p.v) p = r;
  }
  for (int d = 16; d > 0; d >>= 1) {
    Pair r;
    r = tile.shfl_down(q, d);
    if (r.v > q.v) q = r;
  }
  o[threadIdx.x] = p.v;
  oi[threadIdx.x] = p.i;
  if (threadIdx.x == 0) down[0] = q.i;
}
"#;
    let input = permuted();
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            32,
            &[
                ("in", 32, input.as_str()),
                ("o", 32, "0"),
                ("oi", 32, "0"),
                ("down", 1, "0"),
            ],
        ),
    );
    assert_eq!(crate::support::floats(&t, "o"), vec![Some(31.0); 32]);
    assert_eq!(ints(&t, "oi"), vec![Some(9); 32]);
    assert_eq!(ints(&t, "down"), vec![Some(9)]);
}

/// CUDA C++ Programming Guide, Warp Shuffle Functions: `__shfl_down_sync` takes the scalar
/// types the guide lists (and the half types), no user struct, so nvcc finds no overload: the
/// call is refused before the run, naming the tile's shuffle to use instead.
#[test]
fn a_free_shuffle_of_a_struct_is_refused() {
    let src = r#"
struct Pair { float v; int i; };
__global__ void k(float* o) {
  Pair p; p.v = threadIdx.x; p.i = 0;
  Pair q = __shfl_down_sync(0xffffffffu, p, 1);
  o[threadIdx.x] = q.v;
}
"#;
    let m = crate::support::refused(src, launch(Dialect::Cuda, 32, &[("o", 32, "0")]));
    assert!(m.contains("Warp Shuffle Functions"), "{m}");
    assert!(m.contains("tile.shfl_down(p, d)"), "{m}");
}

/// [expr.unary.op]/3: `&st` points at the local `st`, so `update(&st, x)` writing
/// `s->sum += x; s->n += 1;` changes `st`. Lane t: sum = t + (t+1) + (t+2) = 3t + 3, n = 3:
/// o = 3t + 3 + 3000.
#[test]
fn a_local_struct_passed_by_address() {
    let src = r#"
struct St { float sum; int n; };
__device__ void update(St* s, float x) { s->sum += x; s->n += 1; }
__global__ void k(float* o) {
  St st; st.sum = 0.0f; st.n = 0;
  for (int i = 0; i < 3; ++i) update(&st, threadIdx.x + i);
  o[threadIdx.x] = st.sum + 1000.0f * st.n;
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("o", 32, "0")]));
    let want: Vec<Option<f64>> = (0..32).map(|t| Some(f64::from(3 * t + 3003))).collect();
    assert_eq!(crate::support::floats(&t, "o"), want);
}

/// The curiously recurring template pattern (`struct Sq : Base<Sq>`) is refused at the base
/// clause with what to write instead, never run wrongly.
#[test]
fn crtp_is_refused_with_what_to_write_instead() {
    // A curiously recurring base with a constructor: its members are not written into `Sq`
    // (`parser/crtp.rs` copies only a base without one), so the clause is refused at `Sq`.
    let src = r#"
template <class D> struct Base {
  float s;
  __device__ Base() : s(2.0f) {}
  __device__ float run(float x) { return static_cast<D*>(this)->op(x) * s; }
};
struct Sq : Base<Sq> { __device__ float op(float x) { return x * x; } };
__global__ void k(float* o) {
  Sq s;
  o[threadIdx.x] = s.run(threadIdx.x);
}
"#;
    let m = crate::support::refused(src, launch(Dialect::Cuda, 32, &[("o", 32, "0")]));
    assert!(m.contains("curiously recurring template pattern"), "{m}");
    assert!(m.contains("a base with a constructor"), "{m}");
    assert!(m.starts_with("7:13") || m.contains("7:13"), "{m}");
}

/// [temp.inst]/2: `Base<Sq>::run` is instantiated where it is called, `Sq` complete, and
/// `static_cast<D*>(this)` is the `Sq` object ([expr.static.cast]/11): lane t gets t · t.
#[test]
fn crtp_without_a_constructor_runs_the_derived_operation() {
    let src = r#"
template <class D> struct Base {
  __device__ float run(float x) { return static_cast<D*>(this)->op(x); }
};
struct Sq : Base<Sq> { __device__ float op(float x) { return x * x; } };
__global__ void k(float* o) {
  Sq s;
  o[threadIdx.x] = s.run(threadIdx.x);
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("o", 32, "0")]));
    let want: Vec<Option<f64>> = (0..32).map(|t| Some(f64::from(t * t))).collect();
    assert_eq!(crate::support::floats(&t, "o"), want);
}

/// [expr.cond]/4: `c ? a : b` of two lvalues of one type is an lvalue, so `float& big()`
/// returning it refers to the larger member; `float& cell(int i)` returns a buffer cell
/// through a pointer member. a = 1, b = 2: `big() = 5` sets b = 5, `big() += 1` sets b = 6;
/// lane t stores `cell(t) = a + 10·b` = 61, then `big()` reads 6: o[t] = 61 + 6·100 = 661.
#[test]
fn a_reference_to_a_conditional_member_or_a_cell() {
    let src = r#"
struct M {
  float a, b;
  float* p;
  __device__ float& big() { return a > b ? a : b; }
  __device__ float& cell(int i) { return p[i]; }
};
__global__ void k(float* o) {
  M m; m.a = 1.0f; m.b = 2.0f; m.p = o;
  m.big() = 5.0f;
  m.big() += 1.0f;
  m.cell(threadIdx.x) = m.a + m.b * 10.0f;
  o[threadIdx.x] += m.big() * 100.0f;
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("o", 32, "0")]));
    assert_eq!(crate::support::floats(&t, "o"), vec![Some(661.0); 32]);
}
