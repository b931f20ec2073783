//! Shapes the third inference-library corpus met (FasterTransformer-style kernels with
//! explicit specializations, DeepSpeed's reduction header, bitsandbytes' 4-bit GEMV and its
//! C wrappers, PyTorch's embedding backward, aiter's wave reductions): a function template's
//! explicit specialization that leaves its arguments (some or all) to deduction from pointer
//! parameters and the return type, an alias of an enum qualifying its enumerators, a declared
//! template beside a defined one of another signature, a host wrapper that launches only
//! through the launcher template it calls, launchers `main` never calls, a reference-to-array
//! `reinterpret_cast`, `decltype` of a lambda as a template argument, rocPRIM's warp shuffles,
//! and the race check over two typed views of one `char` buffer. Kernels written here in those
//! shapes; each expected value is derived by hand in the comment beside it.

use crate::support::{floats, has, ints, launch, run_default, run_finished};
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;
use crosslane_kernel::LaunchConfig;

#[test]
fn explicit_specialization_deduces_from_pointer_parameters() {
    // C++17 [temp.expl.spec]/10, [temp.deduct.decl]/1: `template <> __global__ void
    // scale(half* __restrict__ out, …)` specializes `scale<T>` with T deduced as `half` from
    // `T* out` (the `__restrict__` after the `*` is no part of T). The host launcher runs the
    // primary for float: out[i] = in[i] * s = 0.5 * i for i < n = 20; the rest never written.
    let src = "\
#include <cuda_fp16.h>
template <typename T>
__global__ void scale(T* __restrict__ out, const T* __restrict__ in, const float s, const int n)
{
    if (threadIdx.x < n) out[threadIdx.x] = (T)(in[threadIdx.x] * s);
}
template <>
__global__ void scale(half* __restrict__ out, const half* __restrict__ in, const float s, const int n)
{
    if (threadIdx.x < n) out[threadIdx.x] = __float2half(__half2float(in[threadIdx.x]) + 100.0f);
}
template <typename T>
void launch_scale(T* out, const T* in, float s, int n, cudaStream_t stream = 0)
{
    scale<T><<<1, 32, 0, stream>>>(out, in, s, n);
}
int main() {
    float h[32];
    for (int i = 0; i < 32; i++) h[i] = (float)i;
    float *in, *out;
    cudaMalloc(&in, sizeof(h));
    cudaMalloc(&out, sizeof(h));
    cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
    launch_scale<float>(out, in, 0.5f, 20);
    return 0;
}
";
    let t = run_default(src);
    let want: Vec<Option<f64>> = (0..32)
        .map(|i| (i < 20).then(|| 0.5 * f64::from(i)))
        .collect();
    assert_eq!(floats(&t, "out"), want);
    // The specialization is the `half` instance: the launcher for `half` runs it, in[i] = i,
    // so out[i] = i + 100 for i < 4; the other cells are never written.
    let half_main = src.replace(
        &src[src.find("int main()").expect("main")..],
        "int main() {
    half h[32];
    for (int i = 0; i < 32; i++) h[i] = __float2half((float)i);
    half *in, *out;
    cudaMalloc(&in, sizeof(h));
    cudaMalloc(&out, sizeof(h));
    cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
    launch_scale<half>(out, in, 2.0f, 4);
    return 0;
}
",
    );
    let t = run_default(&half_main);
    let want: Vec<Option<f64>> = (0..32)
        .map(|i| (i < 4).then(|| f64::from(i) + 100.0))
        .collect();
    assert_eq!(floats(&t, "out"), want);
}

#[test]
fn explicit_specialization_names_some_arguments_and_deduces_the_rest() {
    // DeepSpeed's `reduce::element` / `reduce::init` shape. `element<Op::Add>(const float,
    // const float)` names `O` and deduces `T = float` from the parameters; `init<Op::Max>()`
    // deduces nothing and takes `T`'s default `float`; `__half init<Op::Add>()` deduces
    // `T = __half` from the return type ([temp.deduct.decl]/1: the whole function type).
    // `template <Op O, typename T> void init(T* d)` is another template of the name, not the
    // definition of the declared `T init()`. `using rop = Op;` qualifies `rop::Max`.
    // Lane l: x = l, y = 3:
    //   element<Add>(x, y) = l + 3; element<Max>(x, y) = max(l, 3);
    //   init<Max>() = -1000 (the float specialization), init<Add, __half>() = 0.5,
    //   init<rop::Max>(d) through the overload stores -1000 into d[0];
    //   element<Add>(int, int) = l + 3 + 7 (the int specialization, T deduced int).
    // out[l] = (l + 3) + max(l, 3) + (-1000) + 0.5 + (-1000) + (l + 10), so
    // out[0] = 3 + 3 - 2000 + 0.5 + 10 = -1983.5, and each later lane adds 2 (3 for l >= 4:
    // max(l, 3) grows from l = 4): out[l] = -1983.5 + 2l for l <= 3, -1986.5 + 3l after.
    let src = "\
#include <cuda_fp16.h>
namespace reduce {
enum class Op { Add, Max };
template <Op O, typename T>
__device__ __forceinline__ T element(const T lhs, const T rhs);
template <Op O, typename T = float>
__device__ __forceinline__ T init();
template <>
__device__ __forceinline__ float element<Op::Add>(const float lhs, const float rhs) { return lhs + rhs; }
template <>
__device__ __forceinline__ float element<Op::Max>(const float lhs, const float rhs) { return fmaxf(lhs, rhs); }
template <>
__device__ __forceinline__ int element<Op::Add>(const int lhs, const int rhs) { return lhs + rhs + 7; }
template <>
__device__ __forceinline__ float init<Op::Max>() { return -1000.0f; }
template <>
__device__ __forceinline__ float init<Op::Add>() { return 0.0f; }
template <>
__device__ __forceinline__ __half init<Op::Add>() { return __float2half(0.5f); }
template <Op O, typename T>
__device__ __forceinline__ void init(T* data) { data[0] = init<O, T>(); }
}
using rop = reduce::Op;
__global__ void k(float* out) {
    float x = (float)threadIdx.x, y = 3.0f;
    float d[1];
    reduce::init<rop::Max>(d);
    float h = __half2float(reduce::init<rop::Add, __half>());
    int i = reduce::element<rop::Add>((int)threadIdx.x, 3);
    out[threadIdx.x] = reduce::element<rop::Add>(x, y) + reduce::element<rop::Max>(x, y)
        + reduce::init<rop::Max>() + h + d[0] + (float)i;
}
";
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("out", 32, "zero")]));
    let want: Vec<Option<f64>> = (0..32)
        .map(|l| {
            let l = f64::from(l);
            Some((l + 3.0) + l.max(3.0) - 1000.0 + 0.5 - 1000.0 + (l + 10.0))
        })
        .collect();
    assert_eq!(floats(&t, "out"), want);
    assert_eq!(floats(&t, "out")[0], Some(-1983.5));
}

#[test]
fn a_c_wrapper_that_calls_a_launcher_template_is_host_code() {
    // bitsandbytes' pythonInterface shape: `extern \"C\" void run_f32(…, cudaStream_t s)` has
    // no launch of its own; it calls `run<float, 32>`, whose launch main's call reaches
    // (CUDA C++ Programming Guide, "Function Execution Space Specifiers": a function with no
    // specifier is a host function). The `int` wrapper is never called: its launch is not the
    // program's. n = 5, grid (5 + 31) / 32 = 1: out[i] = n + BITS = 37 for i < 5.
    let src = "\
template <typename T, int BITS>
__global__ void k(T* out, int n) { if (threadIdx.x < n) out[threadIdx.x] = (T)(n + BITS); }
template <typename T, int BITS>
void run(T* out, int n, cudaStream_t stream)
{
    int blocks = (n + 31) / 32;
    k<T, BITS><<<blocks, 32, 0, stream>>>(out, n);
}
extern \"C\" void run_i32(int* out, int n, cudaStream_t stream) { run<int, 16>(out, n, stream); }
extern \"C\" void run_f32(float* out, int n, cudaStream_t stream) { run<float, 32>(out, n, stream); }
int main() {
    float* d;
    cudaMalloc(&d, 32 * sizeof(float));
    run_f32(d, 5, 0);
    return 0;
}
";
    let t = run_default(src);
    assert_eq!(t.launch.entry, "k<float,32>");
    let want: Vec<Option<f64>> = (0..32).map(|i| (i < 5).then_some(37.0)).collect();
    assert_eq!(floats(&t, "out"), want);
}

#[test]
fn a_launcher_main_never_calls_launches_nothing() {
    // C++17 [basic.start.main]/1: the program runs `main`, which calls `launch_b` only; the
    // launch in `launch_a` is never made. kb writes n = 5 into the first 5 cells.
    let src = "\
__global__ void ka(float* o, int n) { if (threadIdx.x < n) o[threadIdx.x] = 1; }
__global__ void kb(float* o, int n) { if (threadIdx.x < n) o[threadIdx.x] = n; }
void launch_a(float* o, int n) { ka<<<1, 32>>>(o, n); }
void launch_b(float* o, int n) { kb<<<1, 32>>>(o, n); }
int main() { float* d; cudaMalloc(&d, 32 * sizeof(float)); launch_b(d, 5); return 0; }
";
    let t = run_default(src);
    assert_eq!(t.launch.entry, "kb");
    let want: Vec<Option<f64>> = (0..32).map(|i| (i < 5).then_some(5.0)).collect();
    assert_eq!(floats(&t, "o"), want);
}

#[test]
fn reference_to_array_cast_is_indexed_as_the_storage() {
    // `reinterpret_cast<int4(&)[16]>(b)[0] = …` stores one int4 over b's first 16 bytes
    // ([expr.reinterpret.cast]/11). in[j] = j (index fill), so lane l's int4 is
    // (4l, 4l+1, 4l+2, 4l+3), little-endian: b[0] = 4l, b[4] = 4l + 1 (each < 256), and
    // out[l] = b[0] + b[4] = 8l + 1.
    let src = "\
__global__ void k(const int* in, int* out) {
    unsigned char b[16];
    reinterpret_cast<int4(&)[16]>(b)[0] = reinterpret_cast<const int4*>(in)[threadIdx.x];
    out[threadIdx.x] = b[0] + b[4];
}
";
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            32,
            &[("in", 128, "index"), ("out", 32, "zero")],
        ),
    );
    let want: Vec<Option<i128>> = (0..32).map(|l| Some(8 * l + 1)).collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn decltype_of_a_lambda_is_a_template_argument() {
    // aiter's `block_reduce<float, decltype(f_max), BlockSize>(v, f_max)`: `decltype` of the
    // closure variable is its closure type ([dcl.type.simple]/4.1). x = 2l - 20:
    // red = max(x, x + 1) = x + 1; red2<…, 20> = max(x, 20). out = 2l - 19 + max(2l - 20, 20).
    let src = "\
template <typename T, typename F>
__device__ T red(T v, F op) { return op(v, v + 1); }
template <typename T, typename F, int N>
__device__ T red2(T v, F op) { return op(v, (T)N); }
__global__ void k(float* out) {
    auto f_max = [](float a, float b) { return fmaxf(a, b); };
    float x = out[threadIdx.x];
    out[threadIdx.x] = red<float, decltype(f_max)>(x, f_max) + red2<float, decltype(f_max), 20>(x, f_max);
}
";
    let t = run_finished(src, launch(Dialect::Cuda, 32, &[("out", 32, "i*2-20")]));
    let want: Vec<Option<f64>> = (0..32)
        .map(|l| {
            let x = 2.0 * f64::from(l) - 20.0;
            Some(x + 1.0 + x.max(20.0))
        })
        .collect();
    assert_eq!(floats(&t, "out"), want);
}

#[test]
fn rocprim_warp_shuffles_are_the_hip_builtins() {
    // gfx942, one wave of 64. rocPRIM applies `__builtin_amdgcn_update_dpp(0, v, ctrl, row_mask,
    // bank_mask, bound_ctrl)` (defaults 0xf, 0xf, false):
    //   a: quad_perm [1,0,3,2] (0xb1): lane l reads lane l ^ 1;
    //   b: row_shr:1 (0x111): lane l reads l - 1 within its row of 16; a row's lane 0 has no
    //      source and, bound_ctrl off, keeps the zero `old`;
    //   c: row_bcast:15 (0x142) with row_mask 0xa: rows 1 and 3 get lane 15 / 47 of the row
    //      before; rows 0 and 2 are masked off and keep 0;
    //   d: warp_shuffle(v, 5, 16) is __shfl: lane (l & ~15) + 5; e: warp_shuffle_xor(v, 3).
    // With v = l: out = a + 100 b + 10000 c + 1e6 d + 1e8 e, each worked per lane below.
    let src = "\
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
__global__ void k(double* out) {
    int v = threadIdx.x;
    int a = rocprim::detail::warp_move_dpp<int, 0xb1>(v);
    int b = rocprim::detail::warp_move_dpp<int, 0x111>(v);
    int c = rocprim::detail::warp_move_dpp<int, 0x142, 0xa>(v);
    int d = rocprim::warp_shuffle(v, 5, 16);
    int e = rocprim::warp_shuffle_xor(v, 3);
    out[threadIdx.x] = a + 100.0 * b + 1e4 * c + 1e6 * d + 1e8 * e;
}
";
    let mut c = launch(Dialect::Hip, 64, &[("out", 64, "zero")]);
    c.preprocess.arch = Some("gfx942".into());
    let t = run_finished(src, c);
    let want: Vec<Option<f64>> = (0..64i64)
        .map(|l| {
            let a = l ^ 1;
            let b = if l % 16 == 0 { 0 } else { l - 1 };
            let c = match l / 16 {
                1 => 15,
                3 => 47,
                _ => 0,
            };
            let d = (l & !15) + 5;
            let e = l ^ 3;
            Some(a as f64 + 100.0 * b as f64 + 1e4 * c as f64 + 1e6 * d as f64 + 1e8 * e as f64)
        })
        .collect();
    assert_eq!(floats(&t, "out"), want);
}

#[test]
fn race_check_compares_bytes_across_typed_views_of_a_char_buffer() {
    // PyTorch's embedding backward splits `extern __shared__ char buf[]` into a `float*` at
    // byte 0 and an `int*` at byte 4096. After the barrier, warp w reads the int at byte
    // 4096 + 4w and writes the float at byte 4 * (32w + lane): no byte is both, so no hazard
    // (an int read at element 1024 is byte 4096, not cell 1024). out[t] = b[t / 32] = t / 32.
    let src = "\
__global__ void k(int* out) {
    extern __shared__ char buf[];
    float* a = (float*)buf;
    int* b = (int*)(buf + 4096);
    int tid = threadIdx.x + threadIdx.y * 32;
    b[tid] = tid;
    __syncthreads();
    int v = b[threadIdx.y];
    a[tid] = (float)v;
    out[tid] = v;
}
";
    let mut c = LaunchConfig {
        block_dim: Some([32, 32, 1]),
        shared_len: Some(8192),
        ..LaunchConfig::default()
    };
    c.buffer_len.insert("out".into(), 1024);
    let t = run_finished(src, c);
    assert!(!has(&t, Level::Warning, "racecheck"));
    let want: Vec<Option<i128>> = (0..1024).map(|t| Some(t / 32)).collect();
    assert_eq!(ints(&t, "out"), want);
    // The same bytes through both views with no barrier between: warp 0 reads the int at
    // byte 160 (b[40]), warp 1 then writes the float over it (a[40]): a write-after-read.
    let racy = "\
__global__ void k(int* out) {
    extern __shared__ char buf[];
    float* a = (float*)buf;
    int* b = (int*)buf;
    b[threadIdx.x + 32 * threadIdx.y] = 1;
    __syncthreads();
    if (threadIdx.y == 0) out[threadIdx.x] = b[40];
    if (threadIdx.y == 1 && threadIdx.x == 0) a[40] = 2.0f;
}
";
    let mut c = LaunchConfig {
        block_dim: Some([32, 2, 1]),
        shared_len: Some(256),
        ..LaunchConfig::default()
    };
    c.buffer_len.insert("out".into(), 32);
    let t = run_finished(racy, c);
    assert!(has(&t, Level::Warning, "write-after-read"));
}

#[test]
fn sizeof_a_host_half_array_sizes_the_allocation() {
    // `cudaMalloc(&d, sizeof(h))` of `half h[96]`: 96 * 2 bytes = 96 `half` cells (CUDA Math
    // API: `__half` is 2 bytes). Three blocks of 32 write every cell; the buffer was one cell
    // per thread of one block before, and the other blocks' writes fell outside it.
    let src = "\
#include <cuda_fp16.h>
__global__ void k(half* o) { o[threadIdx.x + 32 * blockIdx.x] = __float2half(1.5f); }
int main() {
    const int n = 96;
    half h[n];
    half2 h2[n / 2];
    half *d, *d2;
    cudaMalloc(&d, sizeof(h));
    cudaMalloc(&d2, sizeof(h2));
    k<<<3, 32>>>(d);
    return 0;
}
";
    let t = run_default(src);
    assert_eq!(floats(&t, "o"), vec![Some(1.5); 96]);
}

#[test]
fn amd_inline_assembly_is_refused_with_the_builtins_to_write() {
    // aiter's fused DPP max, `v_max_f32 %0, %1, %1 quad_perm:[1,0,3,2] … bound_ctrl:1`: GCN
    // assembly is not emulated; the refusal names it as AMD assembly and the builtin a DPP
    // modifier is written with.
    let src = "\
#include <hip/hip_runtime.h>
__global__ void k(float* out) {
    float v = out[threadIdx.x];
    float r;
    asm volatile(\"v_max_f32 %0, %1, %1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1\" : \"=&v\"(r) : \"v\"(v));
    out[threadIdx.x] = r;
}
";
    let mut c = launch(Dialect::Hip, 64, &[("out", 64, "index")]);
    c.preprocess.arch = Some("gfx942".into());
    let m = crate::support::refused(src, c);
    assert!(m.contains("AMD GPU assembly"), "{m}");
    assert!(m.contains("__builtin_amdgcn_update_dpp"), "{m}");
}
