//! Class semantics testers found missing: member functions overloaded by parameter types
//! (C++17 [over.load], [over.match.best]), a conditional of two lvalues as an lvalue
//! ([expr.cond]/4), member initializers reading earlier members ([class.base.init]/13,
//! [class.mem]/9), `memcpy` of a struct with padding (C17 7.24.2.1) and casts of a struct's
//! address to a layout-compatible type ([basic.lval]/11, [class.mem]/22). Each expected value
//! is derived by hand in the comment beside it.

use crate::support::{block, ints, launch, refused, run_finished};
use crosslane_core::op::Dialect;

/// One warp of `n` threads, `out` of `cells` cells.
fn run_out(src: &str, threads: usize, cells: usize) -> crosslane_kernel::KernelTrace {
    let mut c = block(threads);
    c.buffer_len.insert("out".into(), cells);
    run_finished(src, c)
}

#[test]
fn member_functions_overloaded_by_parameter_type_choose_by_the_arguments() {
    // [over.match.best] with [over.ics.rank] (table 13): 1 (int) is an exact match for
    // f(int) and a conversion for f(float) → 1; 1.0f is exact for f(float) → 2; 'a' (char)
    // promotes to int (better than the conversion to float) → 1. The static g(int)/g(double):
    // 1 → 3; 1.0 → 4; 1.0f: float → double is a promotion, float → int a conversion → 4.
    // operator()(int)/(float): s(1) → 5, s(1.0f) → 6. Declaration order does not matter: the
    // last declared no longer wins (it gave 2, 4 and 6 for every call before).
    let src = r#"
struct S {
  __device__ int f(int) { return 1; }
  __device__ int f(float) { return 2; }
  __device__ static int g(int) { return 3; }
  __device__ static int g(double) { return 4; }
  __device__ int operator()(int) { return 5; }
  __device__ int operator()(float) { return 6; }
};
__global__ void k(int *out) {
  S s;
  if (threadIdx.x == 0) {
    out[0] = s.f(1);
    out[1] = s.f(1.0f);
    out[2] = S::g(1);
    out[3] = S::g(1.0);
    out[4] = s(1);
    out[5] = s(1.0f);
    out[6] = s.f('a');
    out[7] = S::g(1.0f);
  }
}
"#;
    let t = run_out(src, 1, 8);
    let want = [1, 2, 3, 4, 5, 6, 1, 4];
    assert_eq!(ints(&t, "out"), want.map(|v| Some(v as i128)).to_vec());
}

#[test]
fn overloads_differ_in_return_type_receiver_use_and_out_of_class_definitions() {
    // f(int) const returns x + k: f(2) with k = 100 → 102; f(float) returns x * 2:
    // f(2.5f) → 5. mk(float) returns V{1.5} → .a = 1.5; mk(int) returns W{3 + 1} → .b = 4.
    // h declared twice in the class, defined after it: h(1) → 10, h(1.0) → 20. D derives
    // from S and inherits both f: d.f(1) with k = 7 → 8; d.f(1.0f) → 2.
    let src = r#"
struct V { float a; };
struct W { int b; };
struct S {
  int k;
  __device__ int f(int x) const { return x + k; }
  __device__ float f(float x) const { return x * 2.0f; }
  __device__ V mk(float x) { V v; v.a = x; return v; }
  __device__ W mk(int x) { W w; w.b = x + 1; return w; }
  __device__ int h(int x);
  __device__ int h(double x);
};
__device__ int S::h(int x) { return 10; }
__device__ int S::h(double x) { return 20; }
struct D : S { };
__global__ void k(float *out) {
  S s; s.k = 100;
  int a = s.f(2);
  float b = s.f(2.5f);
  out[0] = a; out[1] = b;
  out[2] = s.mk(1.5f).a; out[3] = s.mk(3).b;
  out[4] = s.h(1); out[5] = s.h(1.0);
  D d; d.k = 7;
  out[6] = d.f(1); out[7] = d.f(1.0f);
}
"#;
    let t = run_out(src, 1, 8);
    let want = [102.0, 5.0, 1.5, 4.0, 10.0, 20.0, 8.0, 2.0];
    let got: Vec<f64> = crate::support::floats(&t, "out")
        .into_iter()
        .map(|v| v.expect("defined"))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn an_ambiguous_member_call_is_refused_naming_the_candidates() {
    // A double argument converts to int and to float with the same rank (conversion), so
    // neither f is better ([over.match.best]/2): nvcc refuses the call.
    let src = r#"
struct S {
  __device__ int f(int) { return 1; }
  __device__ int f(float) { return 2; }
};
__global__ void k(int *out) { S s; out[threadIdx.x] = s.f(1.0); }
"#;
    let e = refused(src, block(1));
    assert!(e.contains("ambiguous"), "{e}");
}
