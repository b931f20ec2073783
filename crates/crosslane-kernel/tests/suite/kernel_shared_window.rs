//! `.shared` loads and stores of inline PTX through shared-window addresses made by
//! `__cvta_generic_to_shared` (DeepSpeed's `mem_access::load_shared`/`store_shared` shape),
//! predicated vector loads inside an inline PTX block, and the C++ fallback of the same
//! helpers, which passes `data + i` of a pointer to a local on to further functions. Kernels
//! written here in those shapes; expected values from the Python lines in the comments.

use crate::support::{floats, has, ints, launch, run_finished};
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;

/// PTX ISA, `ld`/`st` and "State Spaces": `ld.shared.u32 %0, [%1]` reads the shared-memory
/// word at the shared-window address `%1`, which `__cvta_generic_to_shared(p)` gives for a
/// generic pointer into a `__shared__` array (CUDA C++ Programming Guide, "Address Space
/// Conversion Functions"). A two-level block sum of `in[t] = t` over 256 threads through
/// such helpers: every thread reads the total, `sum(range(256))` = 32640. A `.v2.f32` load at
/// `base + 8·t` reads elements 2t and 2t+1 of `two[i] = 10·i`: pairs = [0, 10, 20, 30].
#[test]
fn shared_loads_and_stores_through_cvta_addresses() {
    let src = r#"
__device__ __forceinline__ unsigned smem_addr(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void load_word(void* dst, const void* src) {
    int* d = reinterpret_cast<int*>(dst);
    unsigned a = smem_addr(src);
    asm volatile("ld.shared.u32 {%0}, [%1];\n" : "=r"(*d) : "r"(a));
}
__device__ __forceinline__ void store_word(void* dst, const void* src) {
    const int* s = reinterpret_cast<const int*>(src);
    unsigned a = smem_addr(dst);
    asm volatile("st.shared.u32 [%0], %1;\n" : : "r"(a), "r"(*s));
}
__global__ void k(float* out, float* pairs, const float* in) {
    __shared__ float partial[8];
    __shared__ float two[4];
    float v = in[threadIdx.x];
    for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffffu, v, m);
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) store_word(partial + warp, &v);
    __syncthreads();
    if (warp == 0) {
        float t = 0.0f;
        if (lane < blockDim.x / 32) load_word(&t, partial + lane);
        for (int m = 16; m > 0; m >>= 1) t += __shfl_xor_sync(0xffffffffu, t, m);
        if (lane == 0) store_word(partial, &t);
    }
    __syncthreads();
    float total;
    load_word(&total, partial);
    out[threadIdx.x] = total;
    if (threadIdx.x < 4) two[threadIdx.x] = 10.0f * threadIdx.x;
    __syncthreads();
    if (threadIdx.x < 2) {
        float x, y;
        unsigned a = smem_addr(two) + 8 * threadIdx.x;
        asm volatile("ld.shared::cta.v2.f32 {%0, %1}, [%2];" : "=f"(x), "=f"(y) : "r"(a));
        pairs[2 * threadIdx.x] = x;
        pairs[2 * threadIdx.x + 1] = y;
    }
}
"#;
    let cfg = launch(
        Dialect::Cuda,
        256,
        &[
            ("out", 256, "zero"),
            ("pairs", 4, "zero"),
            ("in", 256, "index"),
        ],
    );
    let t = run_finished(src, cfg);
    assert_eq!(floats(&t, "out"), vec![Some(32640.0); 256]);
    assert_eq!(
        floats(&t, "pairs"),
        vec![Some(0.0), Some(10.0), Some(20.0), Some(30.0)]
    );
}

/// A shared-window address is no generic pointer: dereferenced as one it names no buffer
/// (refused), and `__cvta_generic_to_shared` of a global pointer has no shared-window
/// address (PTX ISA, `cvta`): the run stops there, never reading some other memory.
#[test]
fn a_shared_window_address_is_not_a_generic_pointer() {
    let deref = r#"
__global__ void k(float* out) {
    __shared__ float s[32];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    size_t a = __cvta_generic_to_shared(s + threadIdx.x);
    out[threadIdx.x] = *reinterpret_cast<float*>(a);
}
"#;
    let t = crosslane_kernel::run_kernel(deref, launch(Dialect::Cuda, 32, &[("out", 32, "zero")]))
        .expect("runs");
    assert!(has(&t, Level::Error, "no address the emulator gave out"));
    assert!(floats(&t, "out").iter().all(|c| *c != Some(1.0)));
    let global = r#"
__global__ void k(float* out, float* g) {
    unsigned a = (unsigned)__cvta_generic_to_shared(g + threadIdx.x);
    float x;
    asm volatile("ld.shared.f32 %0, [%1];" : "=f"(x) : "r"(a));
    out[threadIdx.x] = x;
}
"#;
    let cfg = launch(
        Dialect::Cuda,
        32,
        &[("out", 32, "zero"), ("g", 32, "index")],
    );
    let t = crosslane_kernel::run_kernel(global, cfg).expect("runs");
    assert!(has(
        &t,
        Level::Error,
        "not this block's `__shared__` memory"
    ));
    assert_ne!(t.outcome, Some(crosslane_kernel::Outcome::Finished));
}

/// A predicated vector load inside an inline PTX block (`@p ld.global.v4.u32 {…}, [%4];`
/// after `mov.b32 %k, 0`): even threads load their four words of `in[i] = i`, odd ones keep
/// zeros. Python: `[i if (i // 4) % 2 == 0 else 0 for i in range(16)]`.
#[test]
fn a_predicated_vector_load_in_a_ptx_block() {
    let src = r#"
__device__ void load16(void* dst, const void* src, bool on) {
    uint4* d = reinterpret_cast<uint4*>(dst);
    asm volatile(
        "{\n"
        "\t.reg .pred p;\n"
        "\tsetp.ne.b32 p, %5, 0;\n"
        "\tmov.b32 %0, 0;\n"
        "\tmov.b32 %1, 0;\n"
        "\tmov.b32 %2, 0;\n"
        "\tmov.b32 %3, 0;\n"
        "\t@p ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];\n"
        "}\n"
        : "=r"(d[0].x), "=r"(d[0].y), "=r"(d[0].z), "=r"(d[0].w)
        : "l"(src), "r"((int)on));
}
__global__ void k(unsigned* out, const unsigned* in) {
    uint4 v;
    load16(&v, in + 4 * threadIdx.x, threadIdx.x % 2 == 0);
    reinterpret_cast<uint4*>(out)[threadIdx.x] = v;
}
"#;
    let cfg = launch(
        Dialect::Cuda,
        4,
        &[("out", 16, "zero"), ("in", 16, "index")],
    );
    let t = run_finished(src, cfg);
    let want: Vec<Option<i128>> = (0..16)
        .map(|i| Some(if (i / 4) % 2 == 0 { i } else { 0 }))
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

/// The C++ fallback of the same helpers: `&val` of a local passed as `float* data`, then
/// `data + i` passed on to a helper that casts it and copies one word ([expr.add]/4: `data + 0`
/// is the object, `data + 1` one past it). With one element per thread each thread reads its
/// neighbour's staged value: Python `[(t ^ 1) * 1.5 for t in range(32)]`. With two, the
/// second element lies outside `val`: undefined, said.
#[test]
fn a_pointer_to_a_local_passed_on_with_an_offset() {
    let src = |elems: usize| {
        format!(
            r#"
__device__ void copy_word(void* dst, const void* src) {{
    const int* s = reinterpret_cast<const int*>(src);
    int* d = reinterpret_cast<int*>(dst);
    d[0] = s[0];
}}
__device__ void spill(float* data, float* buf) {{
    constexpr int elems = {elems};
    for (int i = 0; i < elems; i++) copy_word(buf + i, data + i);
}}
__device__ void refill(float* data, const float* buf) {{
    constexpr int elems = {elems};
    for (int i = 0; i < elems; i++) copy_word(data + i, buf + i);
}}
__global__ void k(float* out) {{
    __shared__ float stage[64];
    float val = threadIdx.x * 1.5f;
    spill(&val, stage + threadIdx.x);
    __syncthreads();
    float got = 0.0f;
    refill(&got, stage + (threadIdx.x ^ 1));
    out[threadIdx.x] = got;
}}
"#
        )
    };
    let cfg = || launch(Dialect::Cuda, 32, &[("out", 32, "zero")]);
    let t = run_finished(&src(1), cfg());
    let want: Vec<Option<f64>> = (0..32).map(|t| Some(f64::from(t ^ 1) * 1.5)).collect();
    assert_eq!(floats(&t, "out"), want);
    let t = crosslane_kernel::run_kernel(&src(2), cfg()).expect("runs");
    assert!(has(&t, Level::Warning, "outside its 1 cells"));
}
