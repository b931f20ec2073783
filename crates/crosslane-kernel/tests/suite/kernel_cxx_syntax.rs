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
    // `#pragma pack(1)` would pack every struct after it: refused at the directive.
    let pragma = "#pragma pack(push, 1)
struct S { char c; int i; };
#pragma pack(pop)
__global__ void k(int* out) { out[0] = sizeof(S); }";
    let e = run(pragma, 1, &[("out", 1)]).unwrap_err();
    assert!(
        e.starts_with("1:") && e.contains("__attribute__((packed))"),
        "{e}"
    );
    let union = "union __attribute__((packed)) U { char c; int i; };
__global__ void k(int* out) { out[0] = 1; }";
    let e = run(union, 1, &[("out", 1)]).unwrap_err();
    assert!(e.starts_with("1:22:") && e.contains("on a union"), "{e}");
}

#[test]
fn range_for_runs_over_local_member_and_shared_arrays() {
    // [stmt.ranged]/1: the loop runs once per element, in order, the declaration bound to
    // each. vals = {1,2,3,4}: by value sum 10; `auto&` doubles them to {2,4,6,8}: sum += 20;
    // a.v[i] = in[t] + i = t + i: sum += 4t + 6; sh[j] = j for j < 8: sum += 28.
    // out[t] = 10 + 20 + 4t + 6 + 28 = 64 + 4t; vals[3] after doubling is 8: out2[t] = 8.
    let src = "struct Acc { float v[4]; };
__global__ void k(const float* in, float* out, float* out2) {
    float vals[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    float sum = 0.0f;
    for (float v : vals) sum += v;
    for (auto& v : vals) v *= 2;
    for (const auto& x : vals) sum += x;
    Acc a;
    for (int i = 0; i < 4; ++i) a.v[i] = in[threadIdx.x] + i;
    for (float v : a.v) sum += v;
    __shared__ float sh[8];
    sh[threadIdx.x] = threadIdx.x;
    __syncthreads();
    for (float v : sh) sum += v;
    out[threadIdx.x] = sum;
    out2[threadIdx.x] = vals[3];
}";
    let t = run(src, 8, &[("in", 8), ("out", 8), ("out2", 8)]).unwrap();
    let want: Vec<f64> = (0..8).map(|t| 64.0 + 4.0 * f64::from(t)).collect();
    assert_eq!(nums(&t, "out"), some(&want));
    assert_eq!(nums(&t, "out2"), some(&[8.0; 8]));
}

#[test]
fn range_for_keeps_break_continue_and_member_functions() {
    // total() sums qs = {0, 10, 20, 30} over the member array inside a member function: 60.
    // The second loop adds 0 and 10, skips 20 (`continue`) and stops at 30 (`break`): 10.
    // Over an array of structs: val = {0, 0.5, 1} doubled by `auto& [k, v]` to {0, 1, 2},
    // then Σ k·v = 0 + 1 + 4 = 5. out = 60 + 10 + 1000·5 = 5070.
    let src = "struct Blk { int qs[4];
  __device__ int total() const { int s = 0; for (int q : qs) s += q; return s; } };
struct KV { int key; float val; };
__global__ void k(float* out) {
    Blk b; for (int i = 0; i < 4; ++i) b.qs[i] = i * 10;
    float acc = 0;
    for (const auto& x : b.qs) { if (x == 20) continue; if (x == 30) break; acc += x; }
    KV pairs[3];
    for (int i = 0; i < 3; ++i) { pairs[i].key = i; pairs[i].val = i * 0.5f; }
    for (auto& [k, v] : pairs) v *= 2;
    float s = 0;
    for (const auto& [k, v] : pairs) s += k * v;
    out[threadIdx.x] = b.total() + acc + 1000 * s;
}";
    let t = run(src, 2, &[("out", 2)]).unwrap();
    assert_eq!(nums(&t, "out"), some(&[5070.0, 5070.0]));
}

#[test]
fn range_for_over_a_pointer_or_rows_is_refused_at_the_range() {
    let ptr =
        "__global__ void k(float* out) { float s = 0; for (float v : out) s += v; out[0] = s; }";
    let e = run(ptr, 1, &[("out", 1)]).unwrap_err();
    assert!(e.starts_with("1:61:") && e.contains("index loop"), "{e}");
    let rows = "__global__ void k(float* out) { int m[2][3] = {{1,2,3},{4,5,6}}; float s = 0;
for (auto& r : m) s += 1; out[0] = s; }";
    let e = run(rows, 1, &[("out", 1)]).unwrap_err();
    assert!(
        e.starts_with("2:16:") && e.contains("array of arrays"),
        "{e}"
    );
}

#[test]
fn local_references_name_their_object() {
    // [dcl.init.ref]/5.1: the reference names the object, its index fixed when it is bound.
    // r = a[1] (i was 1) = 10; c names a[3] = 7 after the write: 700; t is a temporary
    // a[0]*2 = 2 kept from before a[0] = 100: 2000; vy names v.y = 2 + 5 = 7: 70000;
    // w (auto&&) names a[2] = -1: -100000. Sum: 10 + 700 + 2000 + 70000 - 100000 = -27290.
    // sizeof(a) is 4 floats = 16 bytes ([expr.sizeof]/2), not a pointer's 8.
    let src = "__global__ void k(float* out, int* size) {
    float a[4] = {1, 2, 3, 4};
    int i = 1;
    float& r = a[i];
    ++i;
    r = 10;
    const float& c = a[3];
    a[3] = 7;
    const float& t = a[0] * 2;
    a[0] = 100;
    float2 v = make_float2(1, 2);
    float& vy = v.y;
    vy += 5;
    auto&& w = a[2];
    w = -1;
    out[threadIdx.x] = a[1] + c * 100 + t * 1000 + v.y * 10000 + a[2] * 100000;
    size[threadIdx.x] = sizeof(a) + 100 * (sizeof(a) / sizeof(a[0]));
}";
    let t = run(src, 1, &[("out", 1), ("size", 1)]).unwrap();
    assert_eq!(nums(&t, "out"), some(&[-27290.0]));
    assert_eq!(nums(&t, "size"), some(&[416.0]));
    let temp = "__global__ void k(float* out) { float x = 1; float& r = x * 2; out[0] = r; }";
    let e = run(temp, 1, &[("out", 1)]).unwrap_err();
    assert!(
        e.starts_with("1:57:") && e.contains("make it `const`"),
        "{e}"
    );
}

#[test]
fn structured_bindings_bind_members_components_and_elements() {
    // [dcl.struct.bind]/1-4. s[t].val = 3t mod 4 = {0, 3, 2, 1}: best is key 1, val 3, so
    // bk·1000 + bv·100 = 1300. `auto [p, q, r] = arr` copies: p = 50 leaves arr[0] = 5;
    // `auto& [x0, x1, x2] = arr` names it: arr[2] = 70. `auto& [key, val] = s[t]` adds 100 to
    // s[t].val: out2[t] = {100, 103, 102, 101}. u + v = 1.5 + 2.5 = 4.
    // out[t] = 1300 + 50 + 5 + 70 + 4 = 1429.
    let src = "struct KV { int key; float val; };
__device__ KV best(const KV* a, int n) {
    KV b = a[0];
    for (int i = 1; i < n; ++i) if (a[i].val > b.val) b = a[i];
    return b;
}
__global__ void k(float* out, float* out2) {
    __shared__ KV s[4];
    s[threadIdx.x].key = threadIdx.x; s[threadIdx.x].val = (threadIdx.x * 3) % 4;
    __syncthreads();
    auto [bk, bv] = best(s, 4);
    int arr[3] = {5, 6, 7};
    auto [p, q, r] = arr;
    p = 50;
    auto& [x0, x1, x2] = arr;
    x2 = 70;
    auto& [key, val] = s[threadIdx.x];
    val = val + 100;
    const auto [u, v] = make_float2(1.5f, 2.5f);
    out[threadIdx.x] = bk * 1000 + bv * 100 + p + arr[0] + arr[2] + u + v;
    out2[threadIdx.x] = s[threadIdx.x].val;
}";
    let t = run(src, 4, &[("out", 4), ("out2", 4)]).unwrap();
    assert_eq!(nums(&t, "out"), some(&[1429.0; 4]));
    assert_eq!(nums(&t, "out2"), some(&[100.0, 103.0, 102.0, 101.0]));
}

#[test]
fn structured_bindings_that_c_plus_plus_refuses_are_refused() {
    let count = "__global__ void k(float* out) { float2 f = make_float2(1, 2); auto [x, y, z] = f; out[0] = x; }";
    let e = run(count, 1, &[("out", 1)]).unwrap_err();
    assert!(e.starts_with("1:68:") && e.contains("names 3 parts"), "{e}");
    let ptr = "__global__ void k(float* out) { auto [x, y] = out; out[0] = x; }";
    let e = run(ptr, 1, &[("out", 1)]).unwrap_err();
    assert!(
        e.starts_with("1:47:") && e.contains("declare each variable"),
        "{e}"
    );
    // HIP's vector types keep x, y in an anonymous union: [dcl.struct.bind]/4 refuses them.
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        block_dim: Some([1, 1, 1]),
        buffer_len: [("out".to_string(), 1)].into(),
        ..LaunchConfig::default()
    };
    let hip = "__global__ void k(float* out) { float2 f = make_float2(1, 2); auto [x, y] = f; out[0] = x; }";
    let e = run_kernel(hip, config).unwrap_err();
    assert!(e.message.contains("anonymous union"), "{}", e.message);
}

#[test]
fn bit_fields_store_their_width_and_promote_when_read() {
    // [class.bit]/3 with [conv.integral]/2-3: an unsigned field keeps its value modulo 2^w,
    // a signed one the low w bits as two's complement; [conv.prom]/5: a read is an `int`.
    // f{3, 40000, 70000}: valid 3 mod 2 = 1, idx 40000 - 32768 = 7232, tag 70000 - 65536 =
    // 4464; f.idx++ gives 7233; `old = f.tag--` gives old 4464, tag 4463.
    // S: s = 5 in 3 signed bits is 0b101 = -3; u = 17 mod 16 = 1, then u -= 2: -1 mod 16 = 15.
    // f.valid - 2 is int arithmetic: -1 (unsigned would give 4294967295).
    // (s.s = 4): 4 = 0b100 in 3 signed bits is -4, the assignment's value.
    // Through a struct pointer: fl[t].idx = 32768 + t stores t.
    // A member function (`idx = i`) and a constructor's initializer list store the same way:
    // set(70000) gives 70000 - 2·32768 = 4464; Tagged(9): on(3) is 1, delta 9 = 0b1001 in 4
    // signed bits is -7.
    let src = "struct Flags { unsigned valid : 1; unsigned idx : 15; unsigned tag : 16;
  __device__ void set(unsigned i) { idx = i; valid = 1; } };
struct S { int s : 3; unsigned u : 4; };
struct Tagged { unsigned on : 1; int delta : 4;
  __device__ Tagged(int d) : on(3), delta(d) {} };
__global__ void k(int* out, Flags* fl) {
    Flags f{3, 40000, 70000};
    S s; s.s = 5; s.u = 17;
    int t = s.s;
    s.u -= 2;
    f.idx++;
    int old = f.tag--;
    out[0] = f.valid; out[1] = f.idx; out[2] = f.tag; out[3] = old;
    out[4] = t; out[5] = s.u; out[6] = f.valid - 2; out[7] = (s.s = 4);
    fl[threadIdx.x].idx = 32768 + threadIdx.x;
    out[8] = fl[threadIdx.x].idx;
    Flags g{0, 0, 0};
    g.set(70000);
    Tagged tg(9);
    out[9] = g.idx; out[10] = tg.on; out[11] = tg.delta;
}";
    let t = run(src, 2, &[("out", 12), ("fl", 2)]).unwrap();
    assert_eq!(
        nums(&t, "out"),
        some(&[1., 7233., 4463., 4464., -3., 15., -1., -4., 1., 4464., 1., -7.])
    );
    assert_eq!(nums(&t, "fl.idx"), some(&[0.0, 1.0]));
}

#[test]
fn bit_field_structs_lay_out_by_allocation_units() {
    // System V x86-64 psABI §3.1.2 (the Itanium C++ ABI layout nvcc's host compiler and clang
    // use): a field does not cross a unit of its type's size; unnamed fields do not align.
    // Flags: 1 + 15 + 16 bits in one unsigned: 4 bytes.
    // Mixed {char c; unsigned a:4; unsigned b:30; short z;}: a at bits 8..12; b at 12 would
    // cross bit 32, so 32..62; z at byte 8; 10 bytes rounded to alignof 4: 12.
    // Pad {unsigned a:3; unsigned :0; unsigned b:2; uint8_t c:7; uint8_t d:3;}: `:0` moves to
    // bit 32; b 32..34; c would cross bit 40, so 40..47; d would cross 48, so 48..51: 7 bytes,
    // rounded to 4: 8, alignof 4.
    // Gap {char c; unsigned : 12; char d;}: the unnamed field takes bits 8..20 without
    // raising the alignment; d at byte 3: sizeof 4, alignof 1.
    // L {uint64_t lo:40; uint64_t hi:24;}: 64 bits: 8.   B2 {bool on:1; int x;}: 8.
    // Packed {unsigned a:3; unsigned b:30;} __attribute__((packed)): 33 bits: 5 bytes.
    let src = "#include <cstdint>
struct Flags { unsigned valid : 1; unsigned idx : 15; unsigned tag : 16; };
struct Mixed { char c; unsigned a : 4; unsigned b : 30; short z; };
struct Pad { unsigned a : 3; unsigned : 0; unsigned b : 2; uint8_t c : 7; uint8_t d : 3; };
struct Gap { char c; unsigned : 12; char d; };
struct L { uint64_t lo : 40; uint64_t hi : 24; };
struct B2 { bool on : 1; int x; };
struct Packed { unsigned a : 3; unsigned b : 30; } __attribute__((packed));
__global__ void k(int* out) {
    out[0] = sizeof(Flags); out[1] = sizeof(Mixed); out[2] = sizeof(Pad); out[3] = alignof(Pad);
    out[4] = sizeof(Gap); out[5] = alignof(Gap); out[6] = sizeof(L); out[7] = sizeof(B2);
    out[8] = sizeof(Packed);
}";
    let t = run(src, 1, &[("out", 9)]).unwrap();
    assert_eq!(
        nums(&t, "out"),
        some(&[4., 12., 8., 4., 4., 1., 8., 8., 5.])
    );
}

#[test]
fn bit_field_forms_c_plus_plus_refuses_are_refused() {
    let cases = [
        (
            "struct F { unsigned a : 3; };
__global__ void k(int* out) { F f; f.a = 1; unsigned* p = &f.a; out[0] = *p; }",
            "2:59:",
            "address of a bit-field",
        ),
        (
            "struct F { unsigned a : 3; };
__global__ void k(int* out) { F f; f.a = 1; unsigned& r = f.a; r = 9; out[0] = f.a; }",
            "2:59:",
            "not a bit-field",
        ),
        (
            "struct F { unsigned a : 33; };
__global__ void k(int* out) { out[0] = 1; }",
            "1:23:",
            "width 33",
        ),
        (
            "struct F { float a : 3; };
__global__ void k(int* out) { out[0] = 1; }",
            "1:20:",
            "integer or `bool`",
        ),
        (
            "struct F { unsigned a : 3; unsigned b; };
__global__ void k(int* out) { F x{1, 2}; F y; memcpy(&y, &x, sizeof(F)); out[0] = y.b; }",
            "2:",
            "bit-fields",
        ),
    ];
    for (src, at, what) in cases {
        let e = run(src, 1, &[("out", 1)]).unwrap_err();
        assert!(e.starts_with(at) && e.contains(what), "{e}");
    }
}

#[test]
fn range_for_over_array_reference_parameters_template_members_and_in_lambdas() {
    // sum<3>(x) over `const float (&a)[N]`: 1 + 2 + 3 = 6; Vec<float, 4>::data set to 1..4
    // through `auto&`, summed by value: 10, times 10 = 100; the lambda sums the captured x
    // times 100: 600. out = 706.
    let src = "template <int N>
__device__ float sum(const float (&a)[N]) { float s = 0; for (float v : a) s += v; return s; }
template <typename T, int N> struct Vec { T data[N]; };
__global__ void k(float* out) {
    float x[3] = {1, 2, 3};
    Vec<float, 4> v;
    int i = 0;
    for (auto& e : v.data) e = ++i;
    float t = 0;
    for (auto e : v.data) t += e;
    auto f = [&](float m) { float r = 0; for (float q : x) r += q * m; return r; };
    out[threadIdx.x] = sum<3>(x) + t * 10 + f(100);
}";
    let t = run(src, 1, &[("out", 1)]).unwrap();
    assert_eq!(nums(&t, "out"), some(&[706.0]));
}
