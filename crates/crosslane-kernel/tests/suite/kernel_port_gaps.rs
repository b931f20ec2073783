//! Forms inference kernels ported from CUDA libraries write that the front end refused or read
//! wrongly: a host array as a later declarator of one declaration, a prototype followed by a
//! template or a type, `const __grid_constant__` parameters, `__restrict__` on struct members
//! and other declarators, a printf `%s` argument chosen at run time, and an inline-PTX
//! `shfl.sync` whose operand C comes in through an operand. Each expected value is derived by
//! hand beside its test.

use crate::support::{block, floats, launch, refused, run_finished, said};
use crosslane_core::op::Dialect;
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, LaunchConfig};

#[test]
fn sizeof_a_host_array_declared_after_another_sizes_the_buffer() {
    // `float ha[4], hc[10];`: hc is a float[10] (C++17 [dcl.decl]/3: each declarator takes the
    // declaration's specifiers), so sizeof(hc) = 40 bytes = 10 floats; the 32 threads' stores
    // past cell 9 are out of bounds (lanes 10-31), warned and not written.
    let src = "\
__global__ void k(float* out) { out[threadIdx.x] = 1.0f; }
int main() {
    float ha[4], hc[10];
    float* d;
    cudaMalloc(&d, sizeof(hc));
    k<<<1, 32>>>(d);
    cudaMemcpy(hc, d, sizeof(hc), cudaMemcpyDeviceToHost);
    return 0;
}
";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    assert_eq!(floats(&t, "out"), vec![Some(1.0); 10]);
    let w = said(&t, Level::Warning);
    assert!(
        w.iter()
            .any(|m| m.contains("writes `out` outside its 10 cells")),
        "{w:?}"
    );
    // `double a, *p, h[3];` then `short s[2], t[6];`: 3 doubles = 24 bytes = 3 cells, and
    // t is 6 shorts = 12 bytes = 6 cells.
    let src = "\
__global__ void k(double* a, short* b) { if (threadIdx.x < 3) a[threadIdx.x] = 2.0; if (threadIdx.x < 6) b[threadIdx.x] = 7; }
int main() {
    double x, *p, h[3];
    short s[2], t[6];
    double* da; short* db;
    cudaMalloc(&da, sizeof(h)); cudaMalloc(&db, sizeof(t));
    k<<<1, 8>>>(da, db);
    return 0;
}
";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    assert_eq!(floats(&t, "a"), vec![Some(2.0); 3]);
    assert_eq!(floats(&t, "b"), vec![Some(7.0); 6]);
}

#[test]
fn a_prototype_may_be_followed_by_any_item() {
    // The prototype is skipped, then the template, struct, alias, enum and constant table
    // are read as they are without it: out[i] = (i + 1) + 0.5 + 2 + 4 = i + 7.5.
    let src = "\
__device__ float helper(float v);
template <int A>
__device__ float addk(float v) { return v + A; }
extern \"C\" __global__ void k(float* out);
struct S { float a; };
typedef float real;
using real2 = float;
enum Mode { TWO = 2 };
__constant__ float c[2] = {3.f, 4.f};
extern \"C\" __global__ void k(float* out) {
    S s{0.5f};
    real r = TWO;
    real2 q = c[1];
    out[threadIdx.x] = addk<1>((float)threadIdx.x) + s.a + r + q;
}
";
    let t = run_finished(src, launch(Dialect::Cuda, 4, &[("out", 4, "0")]));
    assert_eq!(
        floats(&t, "out"),
        vec![Some(7.5), Some(8.5), Some(9.5), Some(10.5)]
    );
}

#[test]
fn grid_constant_parameters_read_as_const_by_value_ones() {
    // CUDA C++ Programming Guide, "__grid_constant__": p.y[i] = p.x[i] * p.scale * N with
    // x = 1 2 3 4, scale 2, N = 3: 6 12 18 24; n = 4 lanes pass the check.
    let src = "\
struct Params { const float* x; float* y; float scale; };
template <int N>
__global__ void k(const __grid_constant__ Params p, __grid_constant__ const int n) {
    if (threadIdx.x < n) p.y[threadIdx.x] = p.x[threadIdx.x] * p.scale * N;
}
int main() {
    float h[4] = {1, 2, 3, 4}; float *dx, *dy;
    cudaMalloc(&dx, sizeof(h)); cudaMalloc(&dy, sizeof(h));
    cudaMemcpy(dx, h, sizeof(h), cudaMemcpyHostToDevice);
    Params p; p.x = dx; p.y = dy; p.scale = 2.0f;
    k<3><<<1, 4>>>(p, 4);
    return 0;
}
";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    assert_eq!(
        floats(&t, "p.y"),
        vec![Some(6.0), Some(12.0), Some(18.0), Some(24.0)]
    );
    // Without `const`, or on a pointer, nvcc refuses the annotation.
    for param in [
        "__grid_constant__ float s",
        "const __grid_constant__ float* s",
    ] {
        let src = format!("__global__ void k({param}, float* out) {{ out[0] = 1.0f; }}");
        let e = refused(&src, launch(Dialect::Cuda, 1, &[("out", 1, "0")]));
        assert!(e.contains("`const`-qualified kernel parameter"), "{e}");
    }
}

#[test]
fn restrict_is_read_in_every_declarator_position() {
    // z[i] = x[i] + n with x = 1 2 3 4 and n = 10: 11 12 13 14; y[i] = 2 x[i]; w = 1 and
    // v[i] = x[i] - 1 through a restrict-qualified cast and local.
    let src = "\
struct Params { const float* __restrict__ x; float* __restrict y; float * __restrict__ const z; int n; };
__device__ void f(float* __restrict out, const float* __restrict__ const in, int i) { out[i] = in[i] - 1.0f; }
__global__ void k(Params p, float* __restrict__ const w, float* restrict v) {
    const float* __restrict__ a = p.x;
    float* __restrict b = p.y, * __restrict__ c = p.z;
    int i = threadIdx.x;
    b[i] = a[i] * 2.0f; c[i] = a[i] + p.n;
    float* __restrict__ const ww = (float* __restrict__)w;
    ww[i] = 1.0f;
    f(v, reinterpret_cast<const float* __restrict__>(a), i);
}
int main() {
    float h[4] = {1, 2, 3, 4}; float *dx, *dy, *dz, *dw, *dv;
    cudaMalloc(&dx, sizeof(h)); cudaMalloc(&dy, sizeof(h)); cudaMalloc(&dz, sizeof(h));
    cudaMalloc(&dw, sizeof(h)); cudaMalloc(&dv, sizeof(h));
    cudaMemcpy(dx, h, sizeof(h), cudaMemcpyHostToDevice);
    Params p; p.x = dx; p.y = dy; p.z = dz; p.n = 10;
    k<<<1, 4>>>(p, dw, dv);
    return 0;
}
";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    let four = |a: f64, b: f64, c: f64, d: f64| vec![Some(a), Some(b), Some(c), Some(d)];
    assert_eq!(floats(&t, "p.y"), four(2.0, 4.0, 6.0, 8.0));
    assert_eq!(floats(&t, "p.z"), four(11.0, 12.0, 13.0, 14.0));
    assert_eq!(floats(&t, "w"), four(1.0, 1.0, 1.0, 1.0));
    assert_eq!(floats(&t, "v"), four(0.0, 1.0, 2.0, 3.0));
}

#[test]
fn printf_s_prints_the_string_each_lane_chose() {
    // Lane 0: "zero" (assigned over the `?:`), lane 1 "odd", lane 2 "even", lane 3 "odd";
    // `%.2s` keeps two characters, `%c` of s[1] the second one, `%s` of a local char array
    // up to its null; name(i) returns a literal through a `const char*` function.
    let src = r#"
#include <cstdio>
__device__ const char* name(int i) { return i == 0 ? "zero" : "many"; }
__global__ void k(int* out) {
    const char* s = (threadIdx.x & 1) ? "odd" : "even";
    if (threadIdx.x == 0) s = "zero";
    char b[4] = {'h', 'i', 0, 0};
    printf("%d %s|%.2s|%c|%s|%s\n", (int)threadIdx.x, s, s, s[1], b, name(threadIdx.x));
    out[threadIdx.x] = s[0];
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 4, &[("out", 4, "0")]));
    let lines: Vec<&str> = t.printf.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(
        lines,
        vec![
            "0 zero|ze|e|hi|zero\n",
            "1 odd|od|d|hi|many\n",
            "2 even|ev|v|hi|many\n",
            "3 odd|od|d|hi|many\n"
        ]
    );
    // 'z' = 122, 'o' = 111, 'e' = 101.
    assert_eq!(
        crate::support::ints(&t, "out"),
        vec![Some(122), Some(111), Some(101), Some(111)]
    );
    // Writing a string literal is undefined (C++17 [lex.string]/16): warned, nothing written;
    // its terminating null reads as 0.
    let src = "__global__ void k(int* out) { char* s = (char*)\"abc\"; s[0] = 'x'; out[0] = s[0] + s[3]; }";
    let t = run_kernel(src, launch(Dialect::Cuda, 1, &[("out", 1, "0")])).unwrap();
    assert_eq!(crate::support::ints(&t, "out"), vec![Some(97)]);
    let w = said(&t, Level::Warning);
    assert!(
        w.iter()
            .any(|m| m.contains("modifying a string literal is undefined")),
        "{w:?}"
    );
}

#[test]
fn ptx_shfl_takes_its_c_operand_through_an_operand() {
    // C = 0x1f through "r", a constexpr and an "n" of a template's width: width 32, 32 and 16.
    // r = lane ^ 1; r2 (width 16, offset 16) keeps the lane's own value in the lower half
    // and reads the lane 16 below in the upper half (the earlier group, CUDA C++ Programming
    // Guide, __shfl_xor_sync): lane i < 16 gets i, lane i >= 16 gets i - 16.
    let src = r#"
template <int W>
__device__ float bfly(float v, int o) {
    float r;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=f"(r) : "f"(v), "r"(o), "n"(((32 - W) << 8) | 0x1f), "r"(0xffffffff));
    return r;
}
__global__ void k(float* out, float* out2, unsigned cc) {
    constexpr unsigned C = 0x1f;
    float v = threadIdx.x, r, q;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=f"(r) : "f"(v), "r"(1), "r"(C), "r"(0xffffffff));
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=f"(q) : "f"(v), "r"(16), "r"(threadIdx.x < 16 ? cc : 0x101fu), "r"(0xffffffff));
    out[threadIdx.x] = r * 100 + bfly<16>(v, 16);
    out2[threadIdx.x] = q;
}
"#;
    let mut c = launch(Dialect::Cuda, 32, &[("out", 32, "0"), ("out2", 32, "0")]);
    c.args.insert("cc".into(), "0x101f".into());
    let t = run_finished(src, c.clone());
    let want: Vec<Option<f64>> = (0..32)
        .map(|i: i32| Some(f64::from((i ^ 1) * 100 + if i < 16 { i } else { i - 16 })))
        .collect();
    assert_eq!(floats(&t, "out"), want);
    let want2: Vec<Option<f64>> = (0..32)
        .map(|i: i32| Some(f64::from(if i < 16 { i } else { i - 16 })))
        .collect();
    assert_eq!(floats(&t, "out2"), want2);
    // A C known only in the run and not of the form: undefined in those lanes, with the reason.
    c.args.insert("cc".into(), "0x1e".into());
    let t = run_finished(src, c);
    let got = floats(&t, "out2");
    assert!(got[..16].iter().all(Option::is_none), "{got:?}");
    assert_eq!(got[16..], want2[16..]);
    // A constant C of another form is refused before the run.
    let src = r#"__global__ void k(float* out) { float v = 1.0f, r;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=f"(r) : "f"(v), "r"(1), "r"(0x1e), "r"(0xffffffff)); out[0] = r; }"#;
    let e = refused(src, block(32));
    assert!(e.contains("its third operand is 0x1e"), "{e}");
}

#[test]
fn a_write_through_reinterpret_cast_of_a_variable_changes_all_its_bytes() {
    // half2 {1.5, -2} is 0xC0003E00 (high half -2 = 0xC000, low 1.5 = 0x3E00); ^ 0x80008000
    // flips both signs: {-1.5, 2}; & 0x7fff7fff clears them: {1.5, 2}. The float 2.0
    // (0x40000000) with its sign bit flipped is -2; the int 0x3f800000 stored into a float's
    // bytes is 1.0; 4.0 (0x40800000) plus one exponent step (0x00800000) is 8.0.
    let src = r#"
#include <cuda_fp16.h>
#include <cstdint>
struct S { float f; };
__global__ void k(const half2* in, half2* neg, half2* absv, float* out) {
    half2 a = in[threadIdx.x], b = in[threadIdx.x];
    uint32_t& ua = reinterpret_cast<uint32_t&>(a);
    ua ^= 0x80008000u;
    reinterpret_cast<uint32_t&>(b) &= 0x7fff7fffu;
    neg[threadIdx.x] = a; absv[threadIdx.x] = b;
    float f = 2.0f, g = 0.0f;
    reinterpret_cast<unsigned&>(f) ^= 0x80000000u;
    reinterpret_cast<int&>(g) = 0x3f800000;
    S s; s.f = 4.0f;
    reinterpret_cast<uint32_t&>(s.f) += 0x00800000u;
    if (threadIdx.x == 0) { out[0] = f; out[1] = g; out[2] = s.f; }
}
"#;
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            2,
            &[
                ("in", 4, "f16:1.5,-2,0.25,-3"),
                ("neg", 4, "0"),
                ("absv", 4, "0"),
                ("out", 3, "0"),
            ],
        ),
    );
    // Each half2 cell's two halves in order (low, high).
    let pairs = |name: &str| -> Vec<Option<f64>> {
        t.buffer(name)
            .unwrap()
            .iter()
            .flat_map(|c| match c {
                Some(crosslane_kernel::KVal::Vector { items, .. }) => {
                    items.iter().map(crosslane_kernel::KVal::as_f64).collect()
                }
                _ => vec![None, None],
            })
            .collect()
    };
    assert_eq!(
        pairs("neg"),
        vec![Some(-1.5), Some(2.0), Some(-0.25), Some(3.0)]
    );
    assert_eq!(
        pairs("absv"),
        vec![Some(1.5), Some(2.0), Some(0.25), Some(3.0)]
    );
    assert_eq!(floats(&t, "out"), vec![Some(-2.0), Some(1.0), Some(8.0)]);
    // A view of another size (2 of a float's 4 bytes) is still refused.
    let src = "__global__ void k(float* out) { float f = 2.0f; reinterpret_cast<unsigned short&>(f) = 1; out[0] = f; }";
    let e = refused(src, launch(Dialect::Cuda, 1, &[("out", 1, "0")]));
    assert!(e.contains("of exactly `sizeof(T)` bytes"), "{e}");
}
