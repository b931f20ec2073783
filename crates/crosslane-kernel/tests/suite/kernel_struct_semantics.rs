//! Class semantics testers found missing: member functions overloaded by parameter types
//! (C++17 [over.load], [over.match.best]), a conditional of two lvalues as an lvalue
//! ([expr.cond]/4), member initializers reading earlier members ([class.base.init]/13,
//! [class.mem]/9), `memcpy` of a struct with padding (C17 7.24.2.1) and casts of a struct's
//! address to a layout-compatible type ([basic.lval]/11, [class.mem]/22). Each expected value
//! is derived by hand in the comment beside it.

use crate::support::{block, floats, ints, refused, run_finished};
use crosslane_kernel::{run_kernel, KVal, LaunchConfig, Outcome};

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
    let got: Vec<f64> = floats(&t, "out")
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

/// One block of `threads` threads with each `(buffer, cells, fill)`.
fn with(threads: usize, buffers: &[(&str, usize, &str)]) -> LaunchConfig {
    let mut c = block(threads);
    for (n, len, fill) in buffers {
        c.buffer_len.insert((*n).into(), *len);
        c.args.insert((*n).into(), (*fill).into());
    }
    c
}

#[test]
fn a_conditional_of_two_lvalues_is_assigned_incremented_and_addressed() {
    // [expr.cond]/4: `c ? a : b` of two int lvalues is an lvalue naming a (c) or b.
    // Thread 0 (c true): a = 9, ++ → 10, ++ → 11, *&a += 100 → 111; b stays 2.
    // Thread 1 (c false): b takes the same steps → 111; a stays 1.
    let src = r#"
__global__ void k(int *out) {
  int a = 1, b = 2;
  bool c = threadIdx.x == 0;
  (c ? a : b) = 9;
  ++(c ? a : b);
  (c ? a : b)++;
  int *p = &(c ? a : b);
  *p += 100;
  out[2 * threadIdx.x] = a;
  out[2 * threadIdx.x + 1] = b;
}
"#;
    let t = run_out(src, 2, 4);
    assert_eq!(
        ints(&t, "out"),
        [111, 2, 1, 111].map(|v| Some(v as i128)).to_vec()
    );
}

#[test]
fn nested_conditional_lvalues_and_buffer_cells_take_the_arm_each_lane_chooses() {
    // Line 4: thread i writes 50 into a (i = 0), b (i = 1) or d (i = 2). Line 5: x takes
    // the value of the assignment, 7, which goes to b for even i and to a for odd i.
    // i = 0: a 50, b 7, d + x = 3 + 7 = 10. i = 1: a 7, b 50, 10. i = 2: a 1, b 7,
    // d 50 + 7 = 57. Line 6: g[i] += i of cell i (a buffer element as an arm): g = i*10
    // → 0, 11, 22.
    let src = r#"
__global__ void k(int *out, int *g) {
  int a = 1, b = 2, d = 3;
  int i = threadIdx.x;
  (i == 0 ? a : i == 1 ? b : d) = 50;
  int x = ((i & 1) ? a : b) = 7;
  (i < 1 ? g[0] : g[i]) += i;
  out[3 * i] = a; out[3 * i + 1] = b; out[3 * i + 2] = d + x;
}
"#;
    let t = run_finished(src, with(3, &[("out", 9, "zero"), ("g", 3, "i*10")]));
    let want = [50, 7, 10, 7, 50, 10, 1, 7, 57];
    assert_eq!(ints(&t, "out"), want.map(|v| Some(v as i128)).to_vec());
    assert_eq!(ints(&t, "g"), [0, 11, 22].map(|v| Some(v as i128)).to_vec());
}

#[test]
fn a_conditional_of_two_types_is_no_lvalue_and_stays_refused() {
    // [expr.cond]/7: int and float operands give a prvalue of the common type; assigning
    // to it is ill-formed.
    let src = r#"
__global__ void k(int *out) {
  int a = 1; float f = 2.0f;
  (threadIdx.x == 0 ? a : f) = 9;
  out[threadIdx.x] = a;
}
"#;
    // Refused where the assignment runs, before any cell is written.
    let t = run_kernel(src, block(1)).expect("parses");
    match t.outcome {
        Some(Outcome::Error(e)) => assert!(e.message.contains("cannot be assigned"), "{e:?}"),
        o => panic!("expected the assignment refused, got {o:?}"),
    }
}

#[test]
fn default_member_initializers_and_mem_initializers_read_earlier_members() {
    // [class.base.init]/13: members in declaration order. P p{5}: a = 5, b = a * 2 = 10;
    // P q{5, 1}: b = 1 (given); P r: 3, 6. R() {}: a = 4, b = a + 1 = 5. R2(7): a(v) = 7,
    // then b's default a * 3 = 21. O: in.x = 2, y = in.x + this->in.x = 4. Q(10): x(v) = 10,
    // y(x + 1) = 11.
    let src = r#"
struct P { int a = 3; int b = a * 2; };
struct R { int a = 4; int b = a + 1; __device__ R() {} };
struct R2 { int a; int b = a * 3; __device__ R2(int v) : a(v) {} };
struct In { int x = 2; };
struct O { In in; int y = in.x + this->in.x; };
struct Q { int x; int y; __device__ Q(int v) : x(v), y(x + 1) {} };
__global__ void k(int *out) {
  P p{5}; P q{5, 1}; P r; R s; R2 r2(7); O o; Q w(10);
  out[0] = p.b; out[1] = q.b; out[2] = r.a; out[3] = r.b; out[4] = s.b;
  out[5] = r2.b; out[6] = o.y; out[7] = w.y;
}
"#;
    let t = run_out(src, 1, 8);
    let want = [10, 1, 3, 6, 5, 21, 4, 11];
    assert_eq!(ints(&t, "out"), want.map(|v| Some(v as i128)).to_vec());
}

#[test]
fn a_default_reading_a_later_member_is_refused() {
    // [class.base.init]/13: `a` is initialized after `b`, so `b`'s initializer reads an
    // indeterminate value ([basic.indet]/2): no number is picked.
    let src = r#"
struct P { int b = a * 2; int a = 3; };
__global__ void k(int *out) { P p; out[threadIdx.x] = p.b; }
"#;
    let e = refused(src, block(1));
    assert!(e.contains("initialized after it"), "{e}");
}

#[test]
fn memcpy_of_a_padded_struct_through_pointers_copies_member_by_member() {
    // struct S { char c; int i; }: c at byte 0, 3 padding bytes, i at byte 4 (sizeof 8).
    // Thread t copies in[t] (c = 3, i = t) into dst; r2 gets r1 {5, 6}; brr[0..2] gets
    // arr's {1, 2}, {3, 4}. out = c + i + 5 + 6 + brr[1].i = 3 + t + 11 + 4 = 18 + t.
    let src = r#"
struct S { char c; int i; };
struct R { int i; char c; };
__global__ void k(const S *in, int *out) {
  S dst;
  memcpy(&dst, in + threadIdx.x, sizeof(S));
  R r1, r2; r1.i = 5; r1.c = 6;
  memcpy(&r2, &r1, sizeof(R));
  S arr[2], brr[2]; arr[0].c = 1; arr[0].i = 2; arr[1].c = 3; arr[1].i = 4;
  memcpy(brr, arr, 2 * sizeof(S));
  out[threadIdx.x] = dst.c + dst.i + r2.i + r2.c + brr[1].i;
}
"#;
    let t = run_finished(
        src,
        with(
            2,
            &[("in.c", 2, "3"), ("in.i", 2, "index"), ("out", 2, "zero")],
        ),
    );
    assert_eq!(ints(&t, "out"), vec![Some(18), Some(19)]);
}

#[test]
fn a_struct_pointer_cast_over_float4_and_float_cells_reaches_the_right_cells() {
    // Vec4 is four floats without padding, layout-compatible with float4 ([class.mem]/22).
    // in = float4 {0,1,2,3}, {4,5,6,7}, {8,9,10,11}; fl[j] = 100 + j.
    // Thread i: out[4i] = in[i].x + in[i].w = 8i + 3; u[i].y = 50 + i writes in[i].y;
    // f over fl: f[i].z = fl[4i + 2] = 102 + 4i; (f + i)->w = -1 writes fl[4i + 3];
    // Other over v + 1: o[0].c = in[1].z = 6; the cast read in place: in[i].z = 4i + 2.
    let src = r#"
struct Vec4 { float x, y, z, w; };
struct Other { float a, b, c, d; };
__global__ void k(float4 *in, float *fl, float *out) {
  Vec4 *v = reinterpret_cast<Vec4*>(in);
  Vec4 *u = (Vec4*)in;
  int i = threadIdx.x;
  out[4*i] = v[i].x + v[i].w;
  u[i].y = 50.0f + i;
  Vec4 *f = reinterpret_cast<Vec4*>(fl);
  Vec4 c = f[i];
  out[4*i+1] = c.z;
  (f + i)->w = -1.0f;
  Other *o = reinterpret_cast<Other*>(v + 1);
  out[4*i+2] = o[0].c;
  out[4*i+3] = reinterpret_cast<Vec4*>(in)[i].z;
}
"#;
    let t = run_finished(
        src,
        with(
            2,
            &[("in", 12, "index"), ("fl", 8, "i+100"), ("out", 8, "zero")],
        ),
    );
    let got = |n: &str| -> Vec<f64> {
        floats(&t, n)
            .into_iter()
            .map(|v| v.expect("defined"))
            .collect()
    };
    assert_eq!(got("out"), [3.0, 102.0, 6.0, 2.0, 11.0, 106.0, 6.0, 6.0]);
    let want_in = [
        0.0, 50.0, 2.0, 3.0, 4.0, 51.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0,
    ];
    // The float4 cells' components, in order.
    let comps: Vec<f64> = t
        .buffer("in")
        .expect("the buffer")
        .iter()
        .flat_map(|c| match c {
            Some(KVal::Vector { items, .. }) => items.iter().map(KVal::as_f64).collect(),
            _ => vec![None],
        })
        .map(|v| v.expect("defined"))
        .collect();
    assert_eq!(comps, want_in);
    assert_eq!(
        got("fl"),
        [100.0, 101.0, 102.0, -1.0, 104.0, 105.0, 106.0, -1.0]
    );
}

#[test]
fn a_cast_to_a_layout_incompatible_struct_stays_refused_naming_the_layout() {
    // Mixed has an int among its floats: not layout-compatible with float4.
    let src = r#"
struct Mixed { float x; int y; float z; float w; };
__global__ void k(float4 *in, float *out) {
  Mixed *m = reinterpret_cast<Mixed*>(in);
  out[threadIdx.x] = m[threadIdx.x].x;
}
"#;
    let e = refused(src, block(1));
    assert!(e.contains("not compatible"), "{e}");
}

#[test]
fn an_int_pointer_to_a_struct_of_ints_reads_and_writes_its_members() {
    // T { int a, b, c; }: ints at bytes 0, 4, 8, so (int*)&s points at a and q[k] is the
    // k-th member. q[1] = 20 → b; *(q + 2) += 5 → c = 8; *q = 7 → a.
    let src = r#"
struct T { int a, b, c; };
__global__ void k(int *out) {
  T s; s.a = 1; s.b = 2; s.c = 3;
  int *q = reinterpret_cast<int*>(&s);
  q[1] = 20;
  *(q + 2) += 5;
  *q = 7;
  out[0] = q[0]; out[1] = s.b; out[2] = s.c; out[3] = ((int*)&s)[1];
}
"#;
    let t = run_out(src, 1, 4);
    assert_eq!(
        ints(&t, "out"),
        [7, 20, 8, 20].map(|v| Some(v as i128)).to_vec()
    );
}

#[test]
fn host_memcpy_between_arrays_of_a_padded_struct_copies_each_member() {
    // h[i] = {c 1, i i}; memcpy of 2 elements (16 bytes, sizeof(S) = 8 with 3 padding bytes)
    // into g: g[0..2] = {1, 0}, {1, 1}, g[2..4] never written (undefined: no number picked).
    // The kernel gives c + i: 1, 2, undefined, undefined.
    let src = r#"
#include <cstring>
struct S { char c; int i; };
__global__ void k(S *in, int *out) {
  out[threadIdx.x] = in[threadIdx.x].c + in[threadIdx.x].i;
}
int main() {
  S h[4], g[4];
  for (int i = 0; i < 4; i++) { h[i].c = 1; h[i].i = i; }
  memcpy(g, h, 2 * sizeof(S));
  S *d; int *o;
  cudaMalloc(&d, 4 * sizeof(S)); cudaMalloc(&o, 4 * sizeof(int));
  cudaMemcpy(d, g, 4 * sizeof(S), cudaMemcpyHostToDevice);
  k<<<1, 4>>>(d, o);
}
"#;
    let t = run_finished(src, LaunchConfig::default());
    assert_eq!(ints(&t, "out"), vec![Some(1), Some(2), None, None]);
}

#[test]
fn default_initialization_leaves_members_without_an_initializer_undefined() {
    // [dcl.init]/12: `P p;` default-initializes; a member without a default member
    // initializer has an indeterminate value ([basic.indet]/1), and b = a * 2 reads it, so
    // p.a, p.b, p.in.x and p.arr[1] are undefined; p.c = 7, p.in.y = 4. `P q{};` value-
    // initializes ([dcl.init.aggr]/8: the rest from an empty list): a = 0, b = 0, in.x = 0.
    // `P r{5};`: b = 10.
    let src = r#"
struct In { int x; int y = 4; };
struct P { int a; int b = a * 2; int c = 7; In in; float arr[2]; };
__global__ void k(int *out) {
  P p; P q{}; P r{5};
  out[0] = p.a; out[1] = p.b; out[2] = p.c; out[3] = p.in.x; out[4] = p.in.y; out[5] = p.arr[1];
  out[6] = q.a; out[7] = q.b; out[8] = q.in.x; out[9] = r.b;
}
"#;
    let t = run_out(src, 1, 10);
    let want = [
        None,
        None,
        Some(7),
        None,
        Some(4),
        None,
        Some(0),
        Some(0),
        Some(0),
        Some(10),
    ];
    assert_eq!(ints(&t, "out"), want.to_vec());
}
