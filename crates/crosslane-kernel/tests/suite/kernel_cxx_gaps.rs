//! C++ constructs real CUDA/HIP kernels use that the front end refused or read wrong: pointer
//! typedefs, a pointer to a local struct with an array member (kept and passed to a `S*`
//! parameter), a run-time index through an `int*` over a struct's members, an unknown type in a
//! struct member that only the struct's users need, `std::is_same<A, B>{}` as an object (tag
//! dispatch), deduction of a user `Seq<Is...>` with a fold over `Is`, generic lambdas capturing
//! a two-dimensional array, and `goto` forward out of nested loops.
//!
//! Each kernel is this file's own; the expected values are worked by hand (in the comment
//! beside each) or by the Python model pasted beside the test.

use crate::support::{floats, has, ints_or_min, launch, refused, run_finished};
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;

#[test]
fn pointer_typedefs_name_pointer_types_everywhere() {
    // C++17 [dcl.typedef]/2: a typedef-name is a synonym for its type; `const fptr p` is
    // `float* const p` ([dcl.type.cv]/1), and each declarator of `fptr a, b;` is a pointer.
    // x[i] = 2i, then +100 through the `(fptr)` cast: 100, 102, 104, 106.
    // y[i] = 2i + sizeof(float*) = 2i + 8; sz[i] = sizeof(float) * 10 + sizeof(fptr) = 48.
    let src = "\
typedef float *fptr;
typedef const float* cfptr;
using fp = const float*;
__device__ float sum2(fp a, int i) { return a[i] + a[i + 1]; }
__device__ void scale(const fptr p, float k, int i) { p[i] *= k; }
__global__ void k(fptr x, fptr y, int* sz, cfptr in, fptr out) {
  using ip = int*;
  int i = threadIdx.x;
  fptr a = x, b = y;
  scale(a, 2.0f, i);
  b[i] = a[i] + (float)sizeof(fptr);
  ip s = sz;
  s[i] = (int)sizeof(*b) * 10 + (int)sizeof(a);
  void* v = x;
  fptr c = (fptr)v;
  c[i] += 100.0f;
  fp q = in + i;
  out[i] = sum2(in, i) + q[0];
}";
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            4,
            &[
                ("x", 4, "index"),
                ("y", 4, "0"),
                ("sz", 4, "0"),
                ("in", 5, "index"),
                ("out", 4, "0"),
            ],
        ),
    );
    let f = |n: &str| {
        floats(&t, n)
            .into_iter()
            .map(Option::unwrap)
            .collect::<Vec<_>>()
    };
    assert_eq!(f("x"), vec![100.0, 102.0, 104.0, 106.0]);
    assert_eq!(f("y"), vec![8.0, 10.0, 12.0, 14.0]);
    assert_eq!(ints_or_min(&t, "sz"), vec![48; 4]);
    // out[i] = in[i] + in[i + 1] + in[i] = 3i + 1.
    assert_eq!(f("out"), vec![1.0, 4.0, 7.0, 10.0]);
}

#[test]
fn a_local_struct_with_an_array_member_passes_by_pointer() {
    // [expr.unary.op]/3, [expr.ref]/2: `&a` and `p = &a` point at `a`; the callee's
    // `a->v[j] += x` writes `a.v[j]`. Lane i: v[j] = [j == i] + (i + 1) * j after
    // add(&a, i) and add(p, 1); n = 2. out = v0 + 10 v1 + 100 v2 + 1000 v3 + 10000 n:
    // lane 0: v = 1,1,2,3 -> 23211; lane 1: 0,3,4,6 -> 26430; lane 2: 0,3,7,9 -> 29730;
    // lane 3: 0,4,8,13 -> 33840.
    let src = "\
struct Acc { float v[4]; int n; };
__device__ void add(Acc* a, float x) {
  for (int j = 0; j < 4; ++j) a->v[j] += x * j;
  a->n++;
}
__global__ void k(float* out) {
  int i = threadIdx.x;
  Acc a;
  for (int j = 0; j < 4; ++j) a.v[j] = 0.f;
  a.n = 0;
  Acc* p = &a;
  p->v[i % 4] += 1.0f;
  add(&a, (float)i);
  add(p, 1.0f);
  out[i] = p->v[0] + p->v[1] * 10 + p->v[2] * 100 + p->v[3] * 1000 + a.n * 10000;
}";
    let t = run_finished(src, launch(Dialect::Cuda, 4, &[("out", 4, "0")]));
    assert_eq!(
        floats(&t, "out"),
        vec![Some(23211.0), Some(26430.0), Some(29730.0), Some(33840.0)]
    );
}

#[test]
fn a_run_time_index_through_an_int_pointer_reaches_the_struct_member() {
    // [class.mem]/26 and no padding: `(int*)&s` views a, b, c, d as cells 0..3. Lane i:
    // p[i] += 10, out = p[(i + 1) % 4] * 100 + (a + b + c + d = 20):
    // lane 0: b = 2 -> 220; lane 1: c = 3 -> 320; lane 2: d = 4 -> 420; lane 3: a = 1 -> 120.
    let src = "\
struct Q { int a, b, c, d; };
__global__ void k(int* out) {
  int lane = threadIdx.x;
  Q s; s.a = 1; s.b = 2; s.c = 3; s.d = 4;
  int* p = (int*)&s;
  p[lane % 4] += 10;
  out[lane] = p[(lane + 1) % 4] * 100 + s.a + s.b + s.c + s.d;
}";
    let t = run_finished(src, launch(Dialect::Cuda, 4, &[("out", 4, "0")]));
    assert_eq!(ints_or_min(&t, "out"), vec![220, 320, 420, 120]);

    // `*(p + idx)` written and `p[idx + 1]++`; lane 3's `p[4]` is outside the object
    // ([expr.add]/4): nothing is written, with a warning naming it. Lane 0: 50,3,3,4 ->
    // 50334; lane 1: 1,50,4,4 -> 6044; lane 2: 1,2,50,5 -> 1705; lane 3: 1,2,3,50 -> 1280.
    let src = "\
struct Q { int a, b, c, d; };
__global__ void k(const int* idx, int* out) {
  int lane = threadIdx.x;
  Q s; s.a = 1; s.b = 2; s.c = 3; s.d = 4;
  int* p = reinterpret_cast<int*>(&s);
  *(p + idx[lane]) = 50;
  p[idx[lane] + 1]++;
  out[lane] = s.a * 1000 + s.b * 100 + s.c * 10 + s.d;
}";
    let t = run_finished(
        src,
        launch(Dialect::Cuda, 4, &[("idx", 4, "index"), ("out", 4, "0")]),
    );
    assert_eq!(ints_or_min(&t, "out"), vec![50334, 6044, 1705, 1280]);
    assert!(has(
        &t,
        Level::Warning,
        "index 4 is outside the struct of 4 members"
    ));
}

#[test]
fn an_array_of_structs_through_a_pointer_takes_a_run_time_index() {
    // `S* s = arr; s[lane].x`: arr[j] = (3j, j/2). out = s[lane].x + s[7 - lane].x * 100;
    // lane 0: 0 + 2100 = 2100; outf = (lane/2 + 1) + arr[(lane + 1) % 8].y.
    let src = "\
struct S { int x; float y; };
__global__ void k(const int* idx, int* out, float* outf) {
  int lane = threadIdx.x;
  S arr[8];
  for (int j = 0; j < 8; ++j) { arr[j].x = j * 3; arr[j].y = j * 0.5f; }
  S* s = arr;
  out[lane] = s[lane].x + s[idx[lane]].x * 100;
  s[lane].y += 1.0f;
  outf[lane] = s[lane].y + arr[(lane + 1) % 8].y;
}";
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            8,
            &[
                ("idx", 8, "7,6,5,4,3,2,1,0"),
                ("out", 8, "0"),
                ("outf", 8, "0"),
            ],
        ),
    );
    assert_eq!(
        ints_or_min(&t, "out"),
        vec![2100, 1803, 1506, 1209, 912, 615, 318, 21]
    );
    assert_eq!(
        floats(&t, "outf"),
        [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 4.5]
            .into_iter()
            .map(Some)
            .collect::<Vec<_>>()
    );
}

#[test]
fn an_unknown_member_type_stops_only_the_structs_users() {
    // A kernel that never names `Tex` runs, with a warning; one that does stops before the
    // run at the member's line.
    let src = "\
struct Tex { cudaTextureObject_t t; int n; };
struct Outer { Tex inner; };
__global__ void k(int* o) { o[threadIdx.x] = threadIdx.x * 2; }
__global__ void k2(int* o) { Tex t; t.n = 1; o[threadIdx.x] = t.n; }
__global__ void k3(int* o) { Outer w; o[threadIdx.x] = 0; }
";
    let t = run_finished(src, launch(Dialect::Cuda, 2, &[("o", 2, "0")]));
    assert_eq!(ints_or_min(&t, "o"), vec![0, 2]);
    assert!(has(
        &t,
        Level::Warning,
        "unknown type `cudaTextureObject_t` in a member of `Tex`"
    ));
    for entry in ["k2", "k3"] {
        let mut c = launch(Dialect::Cuda, 2, &[("o", 2, "0")]);
        c.entry = Some(entry.into());
        let e = refused(src, c);
        assert!(
            e.contains("1:14") && e.contains("unknown type `cudaTextureObject_t`"),
            "{entry}: {e}"
        );
    }
}

#[test]
fn is_same_objects_dispatch_on_their_class() {
    // [meta.rel]/2: `is_same<T, U>` derives from `integral_constant<bool, v>`, so
    // `is_same<T, float>{}` is a `true_type` or `false_type` object and chooses the overload
    // of that class; converted to `bool` where one is wanted ([meta.help]/1).
    // h(float): 1*10000 + 8*1000 + 100 + 0 + 1 = 18101; h(int 3): 2, 7, 200, 10, 1 -> 27211;
    // h(double): 2, 8, 200, 0, 2 -> 28202. asb: f -> 3 - 50 = -47, int -> -3 + 50 = 47.
    let src = "\
#include <type_traits>
__device__ int pick(float x, std::true_type) { return 1; }
__device__ int pick(float x, std::false_type) { return 2; }
__device__ int asb(bool b, int k) { return b ? k : -k; }
template <bool B> __device__ int tb() { return B ? 7 : 8; }
template <typename T> __device__ bool isf() { return std::is_same<T, float>{}; }
template <typename T> __device__ int h(T x) {
  int a = pick(1.0f, std::is_same<T, float>{});
  int b = tb<std::is_same<T, int>{}>();
  int c = isf<T>() ? 100 : 200;
  int d = std::is_same<T, int>{} && x > 0;
  int e = pick(1.0f, std::bool_constant<sizeof(T) == 4>{});
  return a * 10000 + b * 1000 + c + d * 10 + e;
}
template <typename T> __device__ int g() {
  return asb(std::is_same<T, float>{}, 3) + asb(std::is_same<T, int>(), 5) * 10;
}
__global__ void k(int* o) {
  o[0] = h(1.0f); o[1] = h(3); o[2] = h(2.0);
  o[3] = g<float>(); o[4] = g<int>();
}";
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 5, "0")]));
    assert_eq!(ints_or_min(&t, "o"), vec![18101, 27211, 28202, -47, 47]);
}

#[test]
fn a_user_index_sequence_is_deduced_and_folded() {
    // [temp.deduct.type]/9: `Seq<Is...>` from `Seq<0, 1, 2>` gives Is = 0, 1, 2.
    // f = a[i] + a[i+1] + a[i+2] = 3i + 3 (a = index); g = 2 + 4 + 6 = 12; 15, 18, 21, 24.
    let src = "\
template <int... Is> struct Seq {};
template <int... Is> __device__ int f(Seq<Is...>, const int* a) { return (a[Is] + ... + 0); }
template <int... Is> __device__ int g(Seq<Is...> s) { return ((Is * 2) + ...); }
__global__ void k(const int* a, int* o) {
  o[threadIdx.x] = f(Seq<0, 1, 2>{}, a + threadIdx.x) + g(Seq<1, 2, 3>());
}";
    let t = run_finished(
        src,
        launch(Dialect::Cuda, 4, &[("a", 8, "index"), ("o", 4, "0")]),
    );
    assert_eq!(ints_or_min(&t, "o"), vec![15, 18, 21, 24]);
}

#[test]
fn a_generic_lambda_captures_a_two_dimensional_array() {
    // m[r][c] = 10r + c + L. bump(0) adds 100 to m[0][1], gives m[0][0] = L; bump(1) adds
    // 100 to m[1][1], gives 10 + L: s = 10 + 2L. rd(0, 1) + rd(1, 1) = 212 + 2L.
    // o = 1000 s + 212 + 2L: L = 0 -> 10212, L = 1 -> 12214; and the kernel's own
    // m[0][1] + m[1][1] after the lambda: 212 + 2L.
    let src = "\
__global__ void k(int* o, int* p) {
  int lane = threadIdx.x;
  int m[2][3];
  for (int r = 0; r < 2; ++r) for (int c = 0; c < 3; ++c) m[r][c] = r * 10 + c + lane;
  auto bump = [&](auto i) { m[i][1] += 100; return m[i][0]; };
  int s = bump(0) + bump(1);
  auto rd = [&](auto r, auto c) { return m[r][c]; };
  o[lane] = s * 1000 + rd(0, 1) + rd(1, 1);
  p[lane] = m[0][1] + m[1][1];
}";
    let t = run_finished(
        src,
        launch(Dialect::Cuda, 2, &[("o", 2, "0"), ("p", 2, "0")]),
    );
    assert_eq!(ints_or_min(&t, "o"), vec![10212, 12214]);
    assert_eq!(ints_or_min(&t, "p"), vec![212, 214]);
}

#[test]
fn goto_leaves_nested_loops_forward() {
    // [stmt.goto]/1. Lane L finds the first (i, j) with a[4i + j] == L: a = 3,1,0,2,7…:
    // lane 0 at (0, 2) -> 2, lane 1 (0, 1) -> 1, lane 2 (0, 3) -> 3, lane 3 (0, 0) -> 0;
    // lane 4 finds none -> -2.
    let src = "\
__global__ void k(const int* a, int* o) {
  int lane = threadIdx.x;
  int found = -1;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      if (a[i * 4 + j] == lane) { found = i * 10 + j; goto done; }
    }
  }
  found = -2;
done:
  o[lane] = found;
}";
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            5,
            &[("a", 16, "3,1,0,2,7,7,7,7,7,7,7,7,7,7,7,7"), ("o", 5, "0")],
        ),
    );
    assert_eq!(ints_or_min(&t, "o"), vec![2, 1, 3, 0, -2]);
    // The lowering's flag is the front end's own variable: the views do not list it.
    let flags: Vec<&String> = t.names.iter().filter(|n| n.contains("goto")).collect();
    assert!(!flags.is_empty(), "the lowering made a flag");
    assert!(flags.iter().all(|n| t.is_synthesized(n)), "{flags:?}");
}

#[test]
fn goto_to_a_loops_end_and_out_of_it_then_a_shuffle_sees_every_lane() {
    // Two labels: `skip` inside the loop body (a `continue` by `goto`), `out` after the loop.
    // Python model (a = 5,-1,60,70,-2,3,4,9):
    //   def run(lane):
    //       s = 0
    //       for i in range(8):
    //           v = a[(lane + i) % 8]
    //           if v < 0: s += 1000; continue
    //           s += v
    //           while s > 100:
    //               s -= 7
    //               if s % 10 == 3: return s
    //           s += 1000
    //       return s
    //   r = [run(l) for l in range(4)]  # [2023, 1053, 1123, 2003]
    //   [x + r[0] for x in r]           # [4046, 3076, 3146, 4026]
    let src = "\
__global__ void k(const int* a, int* o) {
  int lane = threadIdx.x;
  int s = 0;
  for (int i = 0; i < 8; ++i) {
    int v = a[(lane + i) % 8];
    if (v < 0) goto skip;
    s += v;
    while (s > 100) { s -= 7; if (s % 10 == 3) goto out; }
  skip:
    s += 1000;
  }
out:
  o[lane] = s + __shfl_sync(0xffffffff, s, 0);
}";
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            4,
            &[("a", 8, "5,-1,60,70,-2,3,4,9"), ("o", 4, "0")],
        ),
    );
    assert_eq!(ints_or_min(&t, "o"), vec![4046, 3076, 3146, 4026]);
}

#[test]
fn other_gotos_are_refused_with_what_to_write() {
    let back = "\
__global__ void k(int* o) {
  int n = 0;
again:
  n++;
  if (n < 3) goto again;
  o[threadIdx.x] = n;
}";
    let e = refused(back, launch(Dialect::Cuda, 1, &[("o", 1, "0")]));
    assert!(
        e.contains("5:") && e.contains("jumps back") && e.contains("`while`"),
        "{e}"
    );
    let into = "\
__global__ void k(int* o) {
  if (threadIdx.x == 0) goto inside;
  { int z = 1; inside: o[threadIdx.x] = z; }
}";
    let e = refused(into, launch(Dialect::Cuda, 1, &[("o", 1, "0")]));
    assert!(e.contains("2:") && e.contains("no label `inside`"), "{e}");
    let loose = "\
__global__ void k(int* o) {
  for (int i = 0; i < 4; ++i) {
    if (i == threadIdx.x) goto next;
    if (i == 2) break;
  next:
    o[threadIdx.x] += i;
  }
}";
    let e = refused(loose, launch(Dialect::Cuda, 1, &[("o", 1, "0")]));
    assert!(e.contains("4:") && e.contains("set a flag"), "{e}");
}
