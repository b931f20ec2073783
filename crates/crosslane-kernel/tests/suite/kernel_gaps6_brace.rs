//! Brace elision in aggregate initialization (C++17 [dcl.init.aggr]/15, C++20 /16): a braced
//! list whose values fill an array member (and a struct member) without their own braces, as
//! aiter's and composable_kernel's `Vec<T, N>{a, b, c, d}` of `template <class T, int N>
//! struct Vec { T v[N]; };` writes. Expected values are computed here from the list's order
//! (the elided array takes the next N values, the rest go to the next member).

use crate::support::{ints, launch, refused, run_finished};
use crosslane_core::op::Dialect;

/// The templated vector made from four values in a returned braced list and a declaration's
/// braced list, reversed; then summed with weights 1..4 and added to the lane beside it.
#[test]
fn templated_vec_of_an_array_member_takes_the_values_in_order() {
    let src = "template <class T, int N>
struct Vec { T v[N]; };
template <class T>
__device__ Vec<T, 4> make4(T a, T b, T c, T d) { return Vec<T, 4>{a, b, c, d}; }
__global__ void k(const int* in, int* out) {
  int t = threadIdx.x;
  Vec<int, 4> x = make4(in[4 * t], in[4 * t + 1], in[4 * t + 2], in[4 * t + 3]);
  Vec<int, 4> y{x.v[3], x.v[2], x.v[1], x.v[0]};
  int s = 0;
  for (int i = 0; i < 4; ++i) s += y.v[i] * (i + 1);
  s += __shfl_xor_sync(0xffffffff, s, 1);
  out[t] = s;
}";
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            32,
            &[("in", 128, "index"), ("out", 32, "zero")],
        ),
    );
    let s: Vec<i128> = (0..32i128)
        .map(|t| (0..4).map(|i| (4 * t + 3 - i) * (i + 1)).sum())
        .collect();
    let want: Vec<Option<i128>> = (0..32).map(|t| Some(s[t] + s[t ^ 1])).collect();
    assert_eq!(ints(&t, "out"), want);
}

/// Elision across members: `{1, 2, 3, 4, 5}` of `struct P { int k[2]; int n; Q q; }` with
/// `struct Q { int a; int b; }`: `k = {1, 2}`, `n = 3`, `q = {4, 5}`; a shorter list leaves
/// the rest zero ([dcl.init.aggr]/8).
#[test]
fn elided_braces_fill_array_then_scalar_then_struct_members() {
    let src = "struct Q { int a; int b; };
struct P { int k[2]; int n; Q q; };
__global__ void k(int* out) {
  int t = threadIdx.x;
  P p{t, 2, 3, 4, 5};
  P r = {7, 8, 9};
  out[2 * t] = p.k[0] * 10000 + p.k[1] * 1000 + p.n * 100 + p.q.a * 10 + p.q.b;
  out[2 * t + 1] = r.k[0] * 1000 + r.k[1] * 100 + r.n * 10 + r.q.a + r.q.b;
}";
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("out", 64, "undef")]));
    let want: Vec<Option<i128>> = (0..32i128)
        .flat_map(|t| [Some(t * 10000 + 2345), Some(7 * 1000 + 800 + 90)])
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

/// More values than the aggregate's elements stay refused with the count.
#[test]
fn too_many_values_for_the_elided_members_are_refused() {
    let src = "struct P { int k[2]; int n; };
__global__ void k(int* out) { P p{1, 2, 3, 4}; out[threadIdx.x] = p.n; }";
    let m = refused(src, launch(Dialect::Cuda, 32, &[("out", 32, "zero")]));
    assert!(m.contains("given 4 initializers"), "{m}");
}
