//! Anonymous unions and structs as struct members (llama.cpp's `block_q8_1`: `union { struct
//! { half d; half s; }; half2 ds; }`), functional casts of `<cstdint>` and vector types, and
//! `void*` parameters read through one pointer type. A union is held as its first widest
//! member (`ds`, buffer `y.ds`); the other members are views of its components (`d` is
//! `ds.x`, `s` is `ds.y`). Expected values by hand, beside each test.

use crate::support::{floats_or_nan as floats, ints_or_min as ints, launch_grid as launch};
use crosslane_kernel::{run_kernel, KVal, Outcome, Scalar};

fn half2(a: f64, b: f64) -> Option<KVal> {
    Some(KVal::Vector {
        ty: Scalar::F16,
        items: vec![KVal::float(Scalar::F16, a), KVal::float(Scalar::F16, b)],
    })
}

const BLOCK_Q8_1: &str = "\
#define QK8_1 32
typedef struct {
    union {
        struct {
            half d;
            half s;
        };
        half2 ds;
    };
    int8_t qs[QK8_1];
} block_q8_1;
static_assert(sizeof(block_q8_1) == 2*sizeof(half) + QK8_1, \"wrong q8_1 block size/padding\");
";

#[test]
fn union_views_read_the_held_members_components() {
    // y.ds holds {0.5, -3} and {2, 7}: block 0 has d = 0.5, s = -3; block 1 d = 2, s = 7.
    // qs = cell - 32. out[32 b + l] = d_b * qs: block 0 0.5 (l - 32), block 1 2 l.
    let src = format!(
        "{BLOCK_Q8_1}
__global__ void read_q8_1(const block_q8_1 * y, float * out, float * sums) {{
    const int ib = blockIdx.x;
    const int lane = threadIdx.x;
    out[ib * QK8_1 + lane] = __half2float(y[ib].d) * y[ib].qs[lane];
    if (lane == 0) sums[ib] = __half2float(y[ib].s);
}}"
    );
    let c = launch(
        32,
        2,
        &[
            ("y.ds", 4, "0.5,-3,2,7"),
            ("y.qs", 64, "i-32"),
            ("out", 64, "zero"),
            ("sums", 2, "zero"),
        ],
    );
    let t = run_kernel(&src, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let out = floats(&t, "out");
    for l in 0..32 {
        assert_eq!(out[l], 0.5 * (l as f64 - 32.0), "out[{l}]");
        assert_eq!(out[32 + l], 2.0 * l as f64, "out[{}]", 32 + l);
    }
    assert_eq!(floats(&t, "sums"), vec![-3.0, 7.0]);
    // Only the held member is a buffer: no `y.d` or `y.s`.
    assert!(t.buffer("y.d").is_none() && t.buffer("y.s").is_none());
}

#[test]
fn quantize_q8_1_writes_ds_and_a_local_copy_reads_d_and_s() {
    // x = 8 l - 127 for lanes 0..31: amax = 127 (lane 0), so d = 127 / 127 = 1 and every
    // q = x exactly; sum = 8 * (0 + … + 31) - 32 * 127 = 3968 - 4064 = -96. ds = {1, -96}
    // (both exact halves). back = d * qs = x, plus s = -96 on lane 1: -119 - 96 = -215.
    let src = format!(
        "{BLOCK_Q8_1}
__global__ void quantize_q8_1(const float * x, block_q8_1 * y, float * back) {{
    const int ib = blockIdx.x;
    const int lane = threadIdx.x;
    const float xi = x[ib * QK8_1 + lane];
    float amax = fabsf(xi);
    float sum = xi;
    for (int m = 16; m > 0; m >>= 1) {{
        amax = fmaxf(amax, __shfl_xor_sync(0xffffffff, amax, m));
        sum += __shfl_xor_sync(0xffffffff, sum, m);
    }}
    const float d = amax / 127;
    const int8_t q = amax == 0.0f ? 0 : roundf(xi / d);
    y[ib].qs[lane] = q;
    if (lane == 0) {{
        y[ib].ds = make_half2(d, sum);
    }}
    __syncwarp();
    block_q8_1 b = y[ib];
    back[ib * QK8_1 + lane] = __half2float(b.d) * b.qs[lane] + (lane == 1 ? __half2float(b.s) : 0.0f);
}}"
    );
    let c = launch(
        32,
        1,
        &[
            ("x", 32, "i*8-127"),
            ("y.ds", 2, "zero"),
            ("y.qs", 32, "zero"),
            ("back", 32, "zero"),
        ],
    );
    let t = run_kernel(&src, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(t.buffer("y.ds").expect("y.ds")[0], half2(1.0, -96.0));
    let qs = ints(&t, "y.qs");
    let back = floats(&t, "back");
    for l in 0..32 {
        let x = 8 * l as i128 - 127;
        assert_eq!(qs[l], x, "qs[{l}]");
        let want = x as f64 + if l == 1 { -96.0 } else { 0.0 };
        assert_eq!(back[l], want, "back[{l}]");
    }
}

#[test]
fn writes_through_a_view_change_the_held_component_and_layout_follows_class_union() {
    // y[0].s = 4 writes ds.y; y[0].d += 1 reads and writes ds.x: {0.5, -3} becomes {1.5, 4}.
    // Layout ([class.union]/2: the union is its largest member, 4 bytes, align 4): d at 0,
    // s at 2, ds at 0, qs at 4, sizeof 36, alignof 4.
    let src = format!(
        "{BLOCK_Q8_1}
__global__ void k(block_q8_1 * y, int * o) {{
    if (threadIdx.x == 0) {{
        y[0].s = 4.0f;
        y[0].d = __half2float(y[0].d) + 1.0f;
        o[0] = offsetof(block_q8_1, d);
        o[1] = offsetof(block_q8_1, s);
        o[2] = offsetof(block_q8_1, ds);
        o[3] = offsetof(block_q8_1, qs);
        o[4] = sizeof(block_q8_1);
        o[5] = alignof(block_q8_1);
    }}
}}"
    );
    let c = launch(
        1,
        1,
        &[
            ("y.ds", 2, "0.5,-3"),
            ("y.qs", 32, "zero"),
            ("o", 6, "zero"),
        ],
    );
    let t = run_kernel(&src, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(t.buffer("y.ds").expect("y.ds")[0], half2(1.5, 4.0));
    assert_eq!(ints(&t, "o"), vec![0, 2, 0, 4, 36, 4]);
}

#[test]
fn member_functions_name_views_bare_and_anonymous_structs_flatten() {
    // V: union of {float a; float b;} and float2 v; sum() = a + b reads v.x + v.y.
    // P: struct { int x; int y; } then int z: members x, y, z; sizeof 12.
    // Lane 0: v = {1.5, 2} → sum 3.5; p = {3, 4, 5} → x * y + z = 17, sizeof 12.
    let src = "\
struct V {
    union {
        struct { float a; float b; };
        float2 v;
    };
    __device__ float sum() const { return a + b; }
};
struct P {
    struct { int x; int y; };
    int z;
};
__global__ void k(float * o, int * n) {
    V w;
    w.v = make_float2(1.5f, 2.0f);
    o[0] = w.sum();
    w.b = 10.0f;
    o[1] = w.v.y;
    P p{3, 4, 5};
    n[0] = p.x * p.y + p.z;
    n[1] = sizeof(P);
}";
    let c = launch(1, 1, &[("o", 2, "zero"), ("n", 2, "zero")]);
    let t = run_kernel(src, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(floats(&t, "o"), vec![3.5, 10.0]);
    assert_eq!(ints(&t, "n"), vec![17, 12]);
}

#[test]
fn unions_the_front_end_cannot_hold_are_refused_at_their_line() {
    // Unions that reinterpret bytes run (snapshot `cxx_union_type_punning.cu`); these forms
    // are refused with what to write instead.
    for (src, line, needle) in [
        (
            // Members narrower than the held member's scalars (`u` is the only single member).
            "struct U {\n  union { uint32_t u; struct { uint8_t a; uint8_t b; uint16_t c; }; };\n};",
            2,
            "cannot be read from the held member `u`",
        ),
        (
            "struct U {\n  union { union { int a; }; int b; };\n};",
            2,
            "flatten the deeper nesting",
        ),
        // (A braced list setting a first member that is a byte view, `union W { uint32_t u;
        // uint8_t b[4]; }; W w = {1u};`, now runs: `kernel_infa6`.)
        (
            // `b` is held (byte scalars are the narrowest); `u16` is a byte view of 128
            // elements, past the 64 a run-time index may choose among.
            "union V { uint8_t b[256]; uint16_t u16[128]; };\n__device__ int f(int i) {\n  V v;\n  v.b[0] = 1;\n  return v.u16[i];\n}",
            5,
            "`v.u16[i]` indexes an array member of 128 elements",
        ),
    ] {
        // A refused device function is the error of the runs that call it
        // (`parser/refused_kernel.rs`): the kernel calls it.
        let value = if src.contains("int f(int i)") {
            "f(0)"
        } else {
            "1"
        };
        let e = run_kernel(
            &format!("{src}\n__global__ void k(int* o) {{ o[0] = {value}; }}"),
            launch(1, 1, &[("o", 1, "zero")]),
        )
        .expect_err(src);
        assert_eq!(e.line, line, "{src}: {}", e.message);
        assert!(e.message.contains(needle), "{src}: {}", e.message);
    }
}

#[test]
fn functional_casts_of_cstdint_half_and_vector_types() {
    // x = 1.5, -2.5, 7, 300.
    // a = int64_t(x) * 3: 1, -2, 7, 300 truncated ([conv.fpint]) times 3 = 3, -6, 21, 900.
    // b = uint8_t(100 i) (modulo 256: 0, 100, 200, 44) + int8_t(200) (-56) + int16_t(70000)
    //   (70000 - 65536 = 4464) + int32_t(x): 4409, 4506, 4615, 4752.
    // c = float(half(x / 3)): 0.5; -0.8333… rounds to 1707 * 2^-11 = 0.83349609375;
    //   2.333… to 1195 * 2^-9 = 2.333984375; 100.
    // e = size_t(i) + uint64_t{1} + int{}: 1, 2, 3, 4.
    // f = half2(x, 1).y + float2{x, 2}.x: 1 + x = 2.5, -1.5, 8, 301 (CUDA's half2 has a
    // constructor; its float2 is an aggregate, list-initialized with braces).
    let src = "\
__global__ void k(const float* x, long long* a, int* b, float* c, unsigned long long* e, float* f) {
    int i = threadIdx.x;
    a[i] = int64_t(x[i]) * 3;
    b[i] = uint8_t(i * 100);
    b[i] += int8_t(200) + int16_t(70000) + int32_t(x[i]);
    c[i] = float(half(x[i] / 3.0f));
    e[i] = size_t(i) + uint64_t{1} + int{};
    f[i] = __half2float(half2(x[i], 1).y) + float2{x[i], 2}.x;
}";
    let c = launch(
        4,
        1,
        &[
            ("x", 4, "1.5,-2.5,7,300"),
            ("a", 4, "zero"),
            ("b", 4, "zero"),
            ("c", 4, "zero"),
            ("e", 4, "zero"),
            ("f", 4, "zero"),
        ],
    );
    let t = run_kernel(src, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(ints(&t, "a"), vec![3, -6, 21, 900]);
    assert_eq!(ints(&t, "b"), vec![4409, 4506, 4615, 4752]);
    assert_eq!(
        floats(&t, "c"),
        vec![0.5, -0.83349609375, 2.333984375, 100.0]
    );
    assert_eq!(ints(&t, "e"), vec![1, 2, 3, 4]);
    assert_eq!(floats(&t, "f"), vec![2.5, -1.5, 8.0, 301.0]);
    // A scalar type takes one value ([expr.type.conv]/2).
    let e = run_kernel(
        "__global__ void k(int* o) {\n  o[0] = int(1, 2);\n}",
        launch(1, 1, &[("o", 1, "zero")]),
    )
    .expect_err("two values");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("takes one value"), "{}", e.message);
}

#[test]
fn a_void_pointer_read_through_one_type_has_that_types_cells() {
    // vx read only as `const half *` (C cast and both named casts): halves 0.5, 2, 3, 4;
    // y = vx[l] + vx[0] * vx[1] / 2 = vx[l] + 0.5 * 2 / 2: 1, 2.5, 3.5, 4.5.
    let src = "\
__global__ void k(const void * __restrict__ vx, float * y) {
    const half * x = reinterpret_cast<const half *>(vx);
    const half * x2 = static_cast<const half *>(vx);
    const half * x3 = (const half *) vx;
    y[threadIdx.x] = __half2float(x[threadIdx.x]) + __half2float(x2[0]) * __half2float(x3[1]) / 2.0f;
}";
    let c = launch(4, 1, &[("vx", 4, "0.5,2,3,4"), ("y", 4, "zero")]);
    let t = run_kernel(src, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(
        t.buffer("vx").expect("vx")[0],
        Some(KVal::float(Scalar::F16, 0.5))
    );
    assert_eq!(floats(&t, "y"), vec![1.0, 2.5, 3.5, 4.5]);
    // Read through two types: the cells stay ints (the byte view reads them).
    let src2 = "\
__global__ void k(const void * vx, int * y) {
    const int * x = (const int *) vx;
    const char * b = (const char *) vx;
    y[threadIdx.x] = x[threadIdx.x] + b[4];
}";
    // Cells 1, 2, 3, 4 as ints; byte 4 is the low byte of cell 1 (little-endian): 2.
    let c = launch(4, 1, &[("vx", 4, "1,2,3,4"), ("y", 4, "zero")]);
    let t = run_kernel(src2, c).expect("runs");
    assert_eq!(ints(&t, "vx"), vec![1, 2, 3, 4]);
    assert_eq!(ints(&t, "y"), vec![3, 4, 5, 6]);
}

#[test]
fn arrays_of_structs_as_members_index_copy_and_lay_out() {
    // block_x2 = { block_q8_0 b[2]; float scale; } with block_q8_0 = { half d; int8_t qs[4]; }
    // (6 bytes, align 2): b at 0 (12 bytes), scale at 12, sizeof 16. Buffers: x.b.d holds
    // the 2 d's of each x[i] in turn (0.5, 1 | 2, 4), x.b.qs the 2 * 4 qs (cells 0..15).
    // y[2i + j] = d * (sum of the 4 qs) * scale: x[0].b[0]: 0.5 * (0+1+2+3) = 3; x[0].b[1]:
    // 1 * (4+5+6+7) = 22; x[1].b[0]: 2 * 38 * 10 = 760; x[1].b[1]: 4 * 54 * 10 = 2160.
    // The local copy: loc.b[1].qs[0] = 100, then loc.b[0] = loc.b[1]: qs[0] 100, qs[3] the
    // old b[1].qs[3] (7 for x[0], 15 for x[1]).
    let src = "\
#define QK8_0 4
typedef struct { half d; int8_t qs[QK8_0]; } block_q8_0;
typedef struct { block_q8_0 b[2]; float scale; } block_x2;
static_assert(sizeof(block_x2) == 2 * 6 + 4, \"size\");
__device__ float dot(const block_q8_0 & a) {
    float s = 0.0f;
    for (int k = 0; k < QK8_0; ++k) s += a.qs[k];
    return __half2float(a.d) * s;
}
__global__ void k(const block_x2 * x, float * y, int * o) {
    const int i = blockIdx.x;
    const int j = threadIdx.x;
    y[i * 2 + j] = dot(x[i].b[j]) * x[i].scale;
    block_x2 loc = x[i];
    loc.b[1].qs[0] = 100;
    loc.b[0] = loc.b[1];
    if (j == 0) {
        o[i * 4 + 0] = loc.b[0].qs[0];
        o[i * 4 + 1] = loc.b[0].qs[3];
        o[i * 4 + 2] = offsetof(block_x2, scale);
        o[i * 4 + 3] = sizeof(block_x2);
    }
}";
    let c = launch(
        2,
        2,
        &[
            ("x.b.d", 4, "0.5,1,2,4"),
            ("x.b.qs", 16, "i"),
            ("x.scale", 2, "1,10"),
            ("y", 4, "zero"),
            ("o", 8, "zero"),
        ],
    );
    let t = run_kernel(src, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(floats(&t, "y"), vec![3.0, 22.0, 760.0, 2160.0]);
    assert_eq!(ints(&t, "o"), vec![100, 7, 12, 16, 100, 15, 12, 16]);
}

#[test]
fn array_of_structs_members_refused_forms() {
    for (src, line, needle) in [
        (
            "struct A { int v[200]; };\nstruct B { A a[2]; };\n__global__ void k(B* x, int* o) {\n  o[0] = x[0].a[0].v[0];\n}",
            3,
            "holds 400 elements",
        ),
        (
            "struct A { int v; };\nstruct B { A a[2]; };\n__global__ void k(int* o) {\n  B b{{1}};\n  o[0] = b.a[0].v;\n}",
            4,
            "array-of-structs member `a` in a braced list",
        ),
        (
            "struct A { int v; };\nstruct B { A a[2]; };\n__global__ void k(B* x, int* o) {\n  o[0] = x[0].a;\n}",
            4,
            "is an array of structs",
        ),
    ] {
        let e = run_kernel(src, launch(1, 1, &[("o", 1, "zero")])).expect_err(src);
        assert_eq!(e.line, line, "{src}: {}", e.message);
        assert!(e.message.contains(needle), "{src}: {}", e.message);
    }
}

#[test]
fn ggml_extension_union_with_typedef_halves_through_a_void_pointer() {
    // `__extension__ union` with `ggml_half` typedefs, read through `(const block_q8_1 *) vy`:
    // block 0 d = 1, s = 2, qs[1] = 1: 1 + 2 * 1 = 3; block 1 d = 3, s = 4, qs[1] = 33:
    // 3 + 4 * 33 = 135.
    let src = "\
#define GGML_EXTENSION __extension__
typedef half ggml_half;
typedef half2 ggml_half2;
#define QK8_1 32
typedef struct {
    GGML_EXTENSION union {
        struct {
            ggml_half d;
            ggml_half s;
        };
        ggml_half2 ds;
    };
    int8_t qs[QK8_1];
} block_q8_1;
__global__ void k(const void * vy, float * out) {
    const block_q8_1 * y = (const block_q8_1 *) vy;
    out[threadIdx.x] = __half2float(y[threadIdx.x].d) + __half2float(y[threadIdx.x].s) * y[threadIdx.x].qs[1];
}";
    let c = launch(
        2,
        1,
        &[
            ("vy.ds", 4, "1,2,3,4"),
            ("vy.qs", 64, "i"),
            ("out", 2, "zero"),
        ],
    );
    let t = run_kernel(src, c).expect("runs");
    assert_eq!(floats(&t, "out"), vec![3.0, 135.0]);
}

#[test]
fn shared_arrays_of_blocks_with_struct_arrays_and_unions() {
    // Lane l (0..3) writes s[l / 2].b[l % 2]: d = l + 1, qs[k] = 4 l + k; lanes 0 and 1 write
    // t[l].ds = {l + 0.5, -l}, t[l].qs[0] = 7. After the barrier lane l copies the block lane
    // 3 - l wrote (d = 4 - l, qs[3] = 4 (3 - l) + 3) and reads t[l % 2]: even lanes d = 0.5,
    // s = 0; odd lanes d = 1.5, s = -1. y = d_r * qs3_r + s * 7 + d:
    // lane 0: 4 * 15 + 0 + 0.5 = 60.5; lane 1: 3 * 11 - 7 + 1.5 = 27.5; lane 2: 2 * 7 + 0.5 =
    // 14.5; lane 3: 1 * 3 - 7 + 1.5 = -2.5.
    let src = "\
typedef struct { half d; int8_t qs[4]; } block_q8_0;
typedef struct { block_q8_0 b[2]; } block_x2;
typedef struct { union { struct { half d; half s; }; half2 ds; }; int8_t qs[4]; } block_q8_1;
__global__ void k(float * y) {
    __shared__ block_x2 s[2];
    __shared__ block_q8_1 t[2];
    const int l = threadIdx.x;
    s[l / 2].b[l % 2].d = l + 1;
    for (int k = 0; k < 4; ++k) s[l / 2].b[l % 2].qs[k] = l * 4 + k;
    if (l < 2) { t[l].ds = make_half2(l + 0.5f, -l); t[l].qs[0] = 7; }
    __syncthreads();
    const block_q8_0 r = s[(3 - l) / 2].b[(3 - l) % 2];
    y[l] = __half2float(r.d) * r.qs[3] + __half2float(t[l % 2].s) * t[l % 2].qs[0] + __half2float(t[l % 2].d);
}";
    let t = run_kernel(src, launch(4, 1, &[("y", 4, "zero")])).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(floats(&t, "y"), vec![60.5, 27.5, 14.5, -2.5]);
}

#[test]
fn unions_operator_subscript_returns_an_array_member_of_a_union_member() {
    // `operator[]` returns `data.h[i]`; `h` holds the union's bytes and `u` reads them.
    // Thread t writes v[i] = half(i + t); word k of `u` is h[2k] | h[2k+1] << 16. Half
    // encodings (struct.pack('<e', x)): 0 = 0x0000, 1 = 0x3C00, 2 = 0x4000, 3 = 0x4200,
    // 4 = 0x4400, 5 = 0x4500, 6 = 0x4600, 7 = 0x4700, 8 = 0x4800.
    // t = 0: {0x3C000000, 0x42004000, 0x45004400, 0x47004600};
    // t = 1: {0x40003C00, 0x44004200, 0x46004500, 0x48004700}.
    let src = "\
#include <cuda_fp16.h>
struct pack8 {
  union { uint4 u; half h[8]; } data;
  __device__ half& operator[](int i) { return data.h[i]; }
};
__global__ void k(unsigned* out) {
  pack8 v;
  for (int i = 0; i < 8; ++i) v[i] = __float2half((float)(i + threadIdx.x));
  out[4 * threadIdx.x] = v.data.u.x;
  out[4 * threadIdx.x + 1] = v.data.u.y;
  out[4 * threadIdx.x + 2] = v.data.u.z;
  out[4 * threadIdx.x + 3] = v.data.u.w;
}";
    let t = run_kernel(src, launch(2, 1, &[("out", 8, "undef")])).unwrap();
    assert_eq!(
        ints(&t, "out"),
        [
            0x3C00_0000,
            0x4200_4000,
            0x4500_4400,
            0x4700_4600,
            0x4000_3C00,
            0x4400_4200,
            0x4600_4500,
            0x4800_4700
        ]
    );
}

#[test]
fn unions_view_array_indexed_at_run_time() {
    // `u16` holds the bytes (the narrowest scalars); `u32[i]` is read and written with an
    // index known only at run time. u16[j] = 4t + j, so u32[k] = (4t + 2k) | (4t + 2k + 1) << 16.
    // a[t] = u32[t & 1]: t = 0: 0 | 1 << 16 = 65536; t = 1: 6 | 7 << 16 = 458758;
    // t = 2: 8 | 9 << 16 = 589832; t = 3: 14 | 15 << 16 = 983054.
    // Then u32[(t & 1) ^ 1] += 0x00010001 and b[t] = u16[1] + u16[3]: for even t u32[1] grew,
    // u16[3] = 4t + 4 and u16[1] = 4t + 1: 8t + 5 (5, 21); for odd t u32[0] grew, u16[1] =
    // 4t + 2 and u16[3] = 4t + 3: 8t + 5 too (13, 29).
    // c[t] = u32[t] after the increment: t = 0 reads u32[0], which it left alone: 65536;
    // t = 1 reads u32[1], which it left alone: 6 | 7 << 16 = 458758; t = 2, 3 index past the
    // 2 elements ([expr.add]/4): undefined, with a warning.
    let src = "\
__global__ void k(unsigned* a, unsigned* b, unsigned* c) {
  union { uint32_t u32[2]; uint16_t u16[4]; } t;
  for (int j = 0; j < 4; ++j) t.u16[j] = 4 * threadIdx.x + j;
  a[threadIdx.x] = t.u32[threadIdx.x & 1];
  t.u32[(threadIdx.x & 1) ^ 1] += 0x00010001u;
  b[threadIdx.x] = t.u16[1] + t.u16[3];
  c[threadIdx.x] = t.u32[threadIdx.x];
}";
    let t = run_kernel(
        src,
        launch(
            4,
            1,
            &[("a", 4, "undef"), ("b", 4, "undef"), ("c", 4, "undef")],
        ),
    )
    .unwrap();
    assert_eq!(ints(&t, "a"), [65536, 458_758, 589_832, 983_054]);
    assert_eq!(ints(&t, "b"), [5, 13, 21, 29]);
    assert_eq!(ints(&t, "c"), [65536, 458_758, i128::MIN, i128::MIN]);
    assert!(t
        .all_diagnostics()
        .any(|d| d.level == crosslane_core::Level::Warning
            && d.message
                .contains("index 2 is outside the union's array member of 2 elements")));
}

/// OneFlow-style packed access: a union template of a `PackType<T, N>` storage (an
/// `aligned_storage<N * sizeof(T), N * sizeof(T)>::type`) and `T elem[N]`, loaded and stored
/// whole through `*(reinterpret_cast<const PackType<T, N>*>(p) + offset)`. The members share
/// the union's bytes from offset 0 (C++17 [class.union]/2); `elem` is read after `storage`
/// was written, which nvcc and clang define as reading those bytes.
const PACK_UNION: &str = "\
template<typename T, int N>
struct GetPackType {
  using type = typename std::aligned_storage<N * sizeof(T), N * sizeof(T)>::type;
};
template<typename T, int N>
using PackType = typename GetPackType<T, N>::type;
template<typename T, int N>
union Pack {
  static_assert(sizeof(PackType<T, N>) == sizeof(T) * N, \"\");
  __device__ Pack() {}
  PackType<T, N> storage;
  T elem[N];
};
template<int N>
__device__ float load_dot(const float* src, int64_t offset) {
  Pack<float, N> pack;
  pack.storage = *(reinterpret_cast<const PackType<float, N>*>(src) + offset);
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < N; ++i) s += (i + 1) * pack.elem[i];
  return s;
}
template<int N>
__device__ void store_scaled(float* dst, int64_t offset, float base, int written) {
  Pack<float, N> pack;
#pragma unroll
  for (int i = 0; i < N; ++i) if (i < written) pack.elem[i] = base * (i + 1);
  *(reinterpret_cast<PackType<float, N>*>(dst) + offset) = pack.storage;
}
__global__ void pack_kernel(const float* in, float* dots, float* out, int written) {
  dots[threadIdx.x] = load_dot<4>(in, threadIdx.x);
  store_scaled<4>(out, threadIdx.x, threadIdx.x + 1.0f, written);
}";

#[test]
fn union_template_pack_loads_and_stores_through_its_storage() {
    // in = 1.5 i + 1: lane 0's pack {1, 2.5, 4, 5.5}, dot with {1,2,3,4} = 1+5+12+22 = 40;
    // lane 1's {7, 8.5, 10, 11.5}: 7+17+30+46 = 100. Lane l stores (l+1)*{1,2,3,4}.
    let mut c = launch(
        2,
        1,
        &[
            ("in", 8, "i*1.5+1"),
            ("dots", 2, "zero"),
            ("out", 8, "zero"),
        ],
    );
    c.args.insert("written".into(), "4".into());
    let t = run_kernel(PACK_UNION, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(floats(&t, "dots"), vec![40.0, 100.0]);
    assert_eq!(
        floats(&t, "out"),
        vec![1.0, 2.0, 3.0, 4.0, 2.0, 4.0, 6.0, 8.0]
    );
}

#[test]
fn union_template_pack_bytes_no_member_wrote_are_undefined() {
    // Only elem[0] and elem[1] are written: storage's last two floats hold no value.
    let mut c = launch(
        2,
        1,
        &[("in", 8, "index"), ("dots", 2, "zero"), ("out", 8, "zero")],
    );
    c.args.insert("written".into(), "2".into());
    let t = run_kernel(PACK_UNION, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let out = floats(&t, "out");
    assert_eq!(&out[..2], &[1.0, 2.0]);
    assert!(out[2].is_nan() && out[3].is_nan(), "{out:?}");
    assert_eq!(&out[4..6], &[2.0, 4.0]);
    assert!(out[6].is_nan() && out[7].is_nan(), "{out:?}");
}

#[test]
fn union_template_with_a_sizeof_bound_and_local_unions_pun_bytes() {
    // Python model:
    //   struct.unpack('<I', struct.pack('<f', 1.0))[0] ^ struct.unpack('<I', struct.pack('<f', -1.0))[0]
    //   == 0x80000000 (only the sign bit differs), likewise for 2.5.
    //   struct.pack('<f', 1.0)[3] == 0x3f, struct.pack('<f', 2.5)[3] == 0x40.
    //   float bits: 1.0 -> 1065353216, 2.5 -> 1075838976.
    // sizeof(Rec) == 8 (int, then a 4-byte union), sizeof(Bits<double>) == 8.
    let src = "\
template <typename T, int N>
union Vec { T v[N]; uint32_t bits[N * sizeof(T) / 4]; };
template <typename T> union Bits { T val; unsigned char b[sizeof(T)]; };
struct Rec { int tag; union { float f; unsigned u; } v; };
__global__ void k(const float* in, unsigned* x, unsigned* y, float* neg) {
  Vec<float, 2> a;
  a.v[0] = in[threadIdx.x];
  a.v[1] = -in[threadIdx.x];
  x[threadIdx.x] = a.bits[0] ^ a.bits[1];
  Rec r; r.tag = 3; r.v.f = in[threadIdx.x];
  Bits<float> b; b.val = in[threadIdx.x];
  y[threadIdx.x] = r.v.u + b.b[3] + sizeof(Rec) + sizeof(Bits<double>);
  union { float f; unsigned u; } c;
  c.f = in[threadIdx.x];
  c.u ^= 0x80000000u;
  neg[threadIdx.x] = c.f;
}";
    let c = launch(
        2,
        1,
        &[
            ("in", 2, "i*1.5+1"),
            ("x", 2, "zero"),
            ("y", 2, "zero"),
            ("neg", 2, "zero"),
        ],
    );
    let t = run_kernel(src, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(ints(&t, "x"), vec![0x8000_0000, 0x8000_0000]);
    assert_eq!(
        ints(&t, "y"),
        vec![1_065_353_216 + 0x3f + 16, 1_075_838_976 + 0x40 + 16]
    );
    assert_eq!(floats(&t, "neg"), vec![-1.0, -2.5]);
}

#[test]
fn union_of_uint4_and_half8_reads_the_loaded_halves() {
    // Lane 0 loads the halves 1..8 (sum 36), lane 1 four 0.5s and four 1s (sum 6).
    let src = "\
__global__ void k(const uint4* in, float* out) {
  union { uint4 u; half h[8]; } v;
  v.u = in[threadIdx.x];
  float s = 0;
  for (int i = 0; i < 8; ++i) s += __half2float(v.h[i]);
  out[threadIdx.x] = s;
}";
    let c = launch(
        2,
        1,
        &[
            ("in", 8, "f16:1,2,3,4,5,6,7,8,0.5,0.5,0.5,0.5,1,1,1,1"),
            ("out", 2, "zero"),
        ],
    );
    let t = run_kernel(src, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(floats(&t, "out"), vec![36.0, 6.0]);
}

#[test]
fn union_with_a_struct_member_that_is_no_pack_is_refused_at_its_line() {
    let src = "struct P { float a; float b; };\nunion U {\n  P p;\n  float f[2];\n};\n__global__ void k(float* o) { U u; u.f[0] = 1; o[0] = u.f[0]; }";
    let e = run_kernel(src, launch(1, 1, &[("o", 1, "zero")])).expect_err("refused");
    assert!(e.message.contains("struct-typed members"), "{}", e.message);
    assert_eq!(e.line, 3, "{}", e.message);
}

#[test]
fn union_template_specialized_nested_in_a_struct_and_in_a_namespace() {
    // Python model: struct.unpack('<I', struct.pack('<f', 1.0))[0] == 1065353216 (2.5:
    // 1075838976), XOR with 0.0's bits (0) keeps it; struct.unpack('<I', struct.pack('<2e',
    // 1.0, 2.0))[0] == 0x40003c00 (adds 1000); struct.pack('<I', 0x01020304)[0] == 4;
    // sizeof(Holder) == 12 (int, then P<float, 2> of 8 bytes aligned to 4).
    let src = "\
template <typename T, int N> union P { T v[N]; uint32_t w[N * sizeof(T) / 4]; };
template <> union P<half, 2> { half v[2]; uint32_t w; };
struct Holder { int n; P<float, 2> p; };
namespace ns { template <typename T> union U1 { T x; unsigned char b[sizeof(T)]; }; }
__global__ void k(const float* in, unsigned* out) {
  Holder h; h.n = 1; h.p.v[0] = in[threadIdx.x]; h.p.v[1] = 0.f;
  P<half, 2> q; q.v[0] = __float2half(1.0f); q.v[1] = __float2half(2.0f);
  ns::U1<unsigned> u; u.x = 0x01020304u;
  out[threadIdx.x] = (h.p.w[0] ^ h.p.w[1]) + (q.w == 0x40003c00u ? 1000 : 0) + u.b[0]
      + sizeof(Holder);
}";
    let c = launch(2, 1, &[("in", 2, "i*1.5+1"), ("out", 2, "zero")]);
    let t = run_kernel(src, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(
        ints(&t, "out"),
        vec![1_065_353_216 + 1000 + 4 + 12, 1_075_838_976 + 1000 + 4 + 12]
    );
}
