//! C++ syntax real CUDA/HIP kernels write, each run as nvcc and hipcc compile it or refused at
//! its line:column with what to write instead: `(void)` of a struct, range-based `for`, local
//! references, structured bindings, bit-fields and `__attribute__((packed))`. Each expected
//! value is derived by hand in the comment beside it, from the C++17 clause it follows.

use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, KVal, LaunchConfig};

/// Runs `src` as CUDA on one block of `threads` threads, each `(name, len)` a buffer the
/// kernel gets (filled with the index: cell i = i); `Err` is `line:col: message`.
fn run(
    src: &str,
    threads: usize,
    bufs: &[(&str, usize)],
) -> Result<crosslane_kernel::KernelTrace, String> {
    let config = LaunchConfig {
        dialect: Some(Dialect::Cuda),
        block_dim: Some([threads, 1, 1]),
        buffer_len: bufs.iter().map(|(n, l)| (n.to_string(), *l)).collect(),
        ..LaunchConfig::default()
    };
    run_kernel(src, config).map_err(|e| format!("{}:{}: {}", e.line, e.col, e.message))
}

/// Buffer `name` as numbers (`None`: undefined).
fn nums(t: &crosslane_kernel::KernelTrace, name: &str) -> Vec<Option<f64>> {
    t.buffer(name)
        .unwrap_or_else(|| panic!("a buffer `{name}`"))
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect()
}

fn some(v: &[f64]) -> Vec<Option<f64>> {
    v.iter().map(|&x| Some(x)).collect()
}

#[test]
fn void_casts_of_structs_and_struct_pointers_do_nothing() {
    // C++17 [expr.static.cast]/6: `(void)e` discards `e`; naming a variable has no effect.
    // out[i] = g(q, w.inner, 3) + w.n = w.inner.a + 1 = 2.5 + 1 = 3.5 in every lane, and the
    // buffer `q` keeps its index fill (q.b[i] = i).
    let src = "struct S { float a; int b; };
struct W { S inner; int n; };
__device__ float g(S* q, const S& s, int unused) { (void)q; (void)s; (void)unused; return s.a; }
__global__ void k(float* out, S* q) {
    (void)q;
    static_cast<void>(q);
    W w; w.inner.a = 2.5f; w.n = 1;
    (void)w.inner;
    (void)w;
    out[threadIdx.x] = g(q, w.inner, 3) + w.n;
}";
    let t = run(src, 2, &[("out", 2), ("q", 2)]).unwrap();
    assert_eq!(nums(&t, "out"), some(&[3.5, 3.5]));
    assert_eq!(nums(&t, "q.b"), some(&[0.0, 1.0]));
}

#[test]
fn packed_structs_have_no_padding() {
    // GCC manual, type attribute `packed`: every member at the next byte, alignment 1 unless
    // `aligned(N)` is also given; a member struct keeps its own layout.
    // P {char c; int i;}: c@0, i@1, sizeof 5, alignof 1.   Q adds short s@5: sizeof 7.
    // R (typedef, `__packed__`): 1 + 4 = 5.   E (packed, aligned(4)): 5 rounded up to 8, alignof 4.
    // Inner {char a; int b;} (not packed): a@0, b@4, sizeof 8, alignof 4.
    // N packed {char c; Inner in;}: in@1, in.b@1+4 = 5, sizeof 9, alignof 1.
    // Outer {char c; N n;}: N aligns to 1, so n@1, sizeof 10, alignof 1.
    // G {int i;} __attribute__((aligned(8))) after the body: sizeof 8, alignof 8.
    let src = "#include <cstdint>
struct __attribute__((packed)) P { char c; int i; };
struct Q { char c; int i; short s; } __attribute__((packed));
typedef struct { uint8_t tag; float v; } __attribute__((__packed__)) R;
struct __attribute__((packed, aligned(4))) E { char c; int i; };
struct Inner { char a; int b; };
struct __attribute__((packed)) N { char c; Inner in; };
struct Outer { char c; N n; };
struct G { int i; } __attribute__((aligned(8)));
__global__ void k(int* out) {
  out[0] = sizeof(P); out[1] = alignof(P); out[2] = offsetof(P, i);
  out[3] = sizeof(Q); out[4] = offsetof(Q, s); out[5] = sizeof(R);
  out[6] = sizeof(E); out[7] = alignof(E);
  out[8] = sizeof(N); out[9] = offsetof(N, in.b); out[10] = sizeof(Outer); out[11] = alignof(Outer);
  out[12] = sizeof(G); out[13] = alignof(G); out[14] = sizeof(Inner);
}";
    let t = run(src, 1, &[("out", 15)]).unwrap();
    assert_eq!(
        nums(&t, "out"),
        some(&[5., 1., 1., 7., 5., 5., 8., 4., 9., 5., 10., 1., 8., 8., 8.])
    );
}

#[test]
fn packed_where_it_is_not_modelled_is_refused_at_its_column() {
    let member = "struct S { char c; int i __attribute__((packed)); };
__global__ void k(int* out) { out[0] = sizeof(S); }";
    let e = run(member, 1, &[("out", 1)]).unwrap_err();
    assert!(e.starts_with("1:41:") && e.contains("named struct"), "{e}");
    let union = "union __attribute__((packed)) U { char c; int i; };
__global__ void k(int* out) { out[0] = 1; }";
    let e = run(union, 1, &[("out", 1)]).unwrap_err();
    assert!(e.starts_with("1:22:") && e.contains("on a union"), "{e}");
}
