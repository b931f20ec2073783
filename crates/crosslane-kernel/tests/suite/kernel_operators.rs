//! User-defined operators (C++17 [over.match.oper], [over.binary], [over.unary], [over.ass],
//! [over.inc]): which operator function an expression on a struct calls, and what is refused
//! at its line. Each expected value is derived beside its test; the snapshots
//! `cxx_operator_*.cu` hold the kernels real code writes (Welford merges, top-k, packs).

use crate::cells::cell_ints as ints;
use crate::support::refused;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run(src: &str, threads: usize) -> KernelTrace {
    let c = LaunchConfig {
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, c).expect("kernel parses and launches");
    assert_eq!(
        t.outcome,
        Some(Outcome::Finished),
        "{:?}: {:?}",
        t.outcome,
        t.merged_diagnostics
    );
    t
}

fn error(src: &str) -> String {
    refused(src, LaunchConfig::default())
}

fn out(t: &KernelTrace) -> Vec<Option<i128>> {
    ints(t.buffer("out").expect("the buffer"))
}

#[test]
fn a_member_and_a_free_operator_are_ranked_by_their_conversions() {
    // `C + 1`: the member `operator+(int)` takes the `int` exactly, the free
    // `operator+(C, double)` by a conversion ([over.ics.scs] table 13), so the member runs
    // (+10). `C + 1.5`: the member needs a conversion (double to int), the free takes it
    // exactly (+1000). Thread t: 10 t + 10 and 10 t + 1000.
    let src = r#"
struct C {
  int v;
  __device__ C operator+(int k) const { return C{v + 10 * k}; }
};
__device__ C operator+(C a, double d) { return C{a.v + 1000}; }
__global__ void k(int* out) {
  int t = threadIdx.x;
  C c{10 * t};
  out[2 * t] = (c + 1).v;
  out[2 * t + 1] = (c + 1.5).v;
}
"#;
    let mut c = LaunchConfig {
        block_dim: Some([2, 1, 1]),
        ..LaunchConfig::default()
    };
    c.buffer_len.insert("out".into(), 4);
    let t = run_kernel(src, c).expect("runs");
    assert_eq!(
        out(&t),
        vec![Some(10), Some(1000), Some(20), Some(1010)],
        "{:?}",
        t.merged_diagnostics
    );
}

#[test]
fn postfix_increment_calls_the_int_overload_and_a_buffer_element_takes_compound_assignment() {
    // [over.inc]/1: `c++` calls `operator++(int)` (here +100), `++c` `operator++()` (+1);
    // `p[t] += d` on an element of a struct buffer calls `operator+=` on that element, written
    // back. Thread t: c = t, then c++ and ++c give t + 101; p[t].v = t (index fill) + t + 101.
    let src = r#"
struct C {
  int v;
  __device__ C& operator++() { v += 1; return *this; }
  __device__ C operator++(int) { C old = *this; v += 100; return old; }
  __device__ C& operator+=(const C& o) { v += o.v; return *this; }
};
__global__ void k(C* p, int* out) {
  int t = threadIdx.x;
  C c{t};
  c++;
  ++c;
  out[t] = c.v;
  p[t] += c;
}
"#;
    let t = run(src, 4);
    assert_eq!(out(&t), vec![Some(101), Some(102), Some(103), Some(104)]);
    // p.v starts as the index fill 0 1 2 3: t + (t + 101) = 2t + 101.
    assert_eq!(
        ints(t.buffer("p.v").expect("the member buffer")),
        vec![Some(101), Some(103), Some(105), Some(107)]
    );
}

#[test]
fn a_compound_operator_returning_this_is_its_receiver_as_a_value() {
    // [over.ass] with `V& operator+=(int) { …; return *this; }`: `c = a += 2` copies the
    // receiver after the call, `(a += 10) += 100` adds to the same receiver twice, and `p[t] += 5`
    // changes the buffer's element. Thread t: a = t + 2 + 10 + 100 = t + 112, c = t + 2, so
    // out = 1000 (t + 112) + t + 2 = 112002, 113003; p.a = t + 5 (index fill) = 5, 6.
    let src = r#"
struct S { int a; __device__ S& operator+=(int k) { a += k; return *this; } };
__global__ void k(S* p, int* out) {
  int t = threadIdx.x;
  S a{t};
  S c = a += 2;
  (a += 10) += 100;
  p[t] += 5;
  out[t] = a.a * 1000 + c.a;
}
"#;
    let t = run(src, 2);
    assert_eq!(out(&t), vec![Some(112002), Some(113003)]);
    assert_eq!(
        ints(t.buffer("p.a").expect("the member buffer")),
        vec![Some(5), Some(6)]
    );
}

#[test]
fn scalars_keep_the_built_in_operators_beside_a_free_struct_operator() {
    // [over.match.oper]/1: no operand of class type, so `a + b` on ints is the built-in
    // (3 + 4 = 7), though a free `operator+` on a struct is declared.
    let src = r#"
struct M { int c; };
__device__ M operator+(M a, M b) { return M{a.c + b.c + 50}; }
__global__ void k(int* out) {
  int a = 3, b = 4;
  M x{1}, y{2};
  out[0] = a + b;
  out[1] = (x + y).c;
}
"#;
    let t = run(src, 2);
    assert_eq!(out(&t), vec![Some(7), Some(53)]);
}

#[test]
fn operators_chain_on_local_struct_arrays_in_a_template_and_out_of_class_definitions() {
    // `arr[0] + arr[1] + arr[2]` is `(arr[0] + arr[1]) + arr[2]` ([expr.add]/1, left to right):
    // key t + 2 + 3; `arr[1] < arr[0]` is 2 < t, true for t = 3 only; `x * y * y` through
    // `S::operator*` defined after the struct is 9t. Thread t: 100 (t + 5) + 10 [t = 3] + 9t
    // = 500, 609, 718, 837.
    let src = r#"
template <typename T>
struct KV {
  T key;
  int idx;
  __device__ KV operator+(const KV& o) const { return KV{key + o.key, idx}; }
  __device__ bool operator<(const KV& o) const { return key < o.key; }
};
struct S { int a; __device__ S operator*(const S& o) const; };
__device__ S S::operator*(const S& o) const { return S{a * o.a}; }
template <typename T>
__device__ int f(int t) {
  KV<T> arr[3];
  arr[0] = KV<T>{(T)t, 0};
  arr[1] = KV<T>{(T)2, 1};
  arr[2] = KV<T>{(T)3, 2};
  KV<T> s = arr[0] + arr[1] + arr[2];
  S x{t}, y{3};
  return (int)s.key * 100 + (arr[1] < arr[0] ? 10 : 0) + (x * y * y).a;
}
__global__ void k(int* out) { out[threadIdx.x] = f<float>(threadIdx.x); }
"#;
    let t = run(src, 4);
    assert_eq!(out(&t), vec![Some(500), Some(609), Some(718), Some(837)]);
}

#[test]
fn refused_operators_are_named_at_their_line_with_what_to_write() {
    for (src, line, needle) in [
        (
            "struct S {\n  int a;\n  __device__ bool operator<=>(const S& o) const { return a; }\n};",
            3,
            "declare `operator<`",
        ),
        (
            "struct S {\n  int a;\n  __device__ bool operator&&(const S& o) const { return a; }\n};",
            3,
            "`operator&&` is not supported",
        ),
        (
            "struct S { int a; };\n__device__ S& operator=(S& x, const S& y);\n__device__ void* operator new(unsigned long n);",
            2,
            "`operator=`",
        ),
        (
            "template <typename T> struct P { T a; P operator+(const P& o) const; };\ntemplate <typename T>\nP<T> P<T>::operator+(const P<T>& o) const { return o; }",
            3,
            "define it inside the class template",
        ),
        (
            "struct S { int a; };\n__device__ S& operator+=(S& x, const S& y) { return x; }",
            2,
            "declare it as a member that returns `*this`",
        ),
        (
            "struct S { int a; };\n__global__ void k(int* o) {\n  S x{1}, y{2};\n  o[0] = (x - y).a;\n}",
            4,
            "no `operator-` is declared for S and S",
        ),
        (
            "struct S { int a; __device__ S operator+(const S& o) const { return S{a + o.a}; } };\n__global__ void k(int* o) {\n  S x{1}, y{2};\n  x += y;\n  o[0] = x.a;\n}",
            4,
            "no `operator+=` is declared",
        ),
    ] {
        let e = error(src);
        assert!(e.contains(&format!("{line}:")), "{src}\n{e}");
        assert!(e.contains(needle), "{src}\n{e}");
    }
}
