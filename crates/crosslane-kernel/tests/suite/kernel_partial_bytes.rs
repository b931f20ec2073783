//! Elements built a part at a time: a `uint2`/`uint4` written as halves or bfloat16s through
//! `((half*)(&data))[i]` (vLLM's and FlashInfer's `vec_t`), a `float` from its four bytes
//! through an `unsigned char*`, a 32-bit word of global or shared memory as two halves, a
//! `float2` element as `.x` then `.y`. C++17 [basic.types]/4: an object's value is its object
//! representation, all its bytes, so once every byte is written the element has a value; a
//! byte never written leaves it undefined, and the diagnostics name the bytes.
//!
//! Expected bit patterns are IEEE 754 encodings derived beside each test (Python's
//! `struct.pack('<e', x)` for binary16, the high 16 bits of `struct.pack('<f', x)` for
//! bfloat16; memory is little-endian on every NVIDIA and AMD GPU).

use crate::support::{has, ints};
use crosslane_core::{Dialect, Level};
use crosslane_kernel::{run_kernel, run_kernel_traced, KVal, KernelTrace, LaunchConfig, TraceMode};

/// One CUDA block of `threads` threads with `buffers` (`crate::support::launch`).
fn launch(threads: usize, buffers: &[(&str, usize, &str)]) -> LaunchConfig {
    crate::support::launch(Dialect::Cuda, threads, buffers)
}

/// Each cell's value, a defined vector cell's components in order (`None` for an undefined
/// cell).
fn nums(t: &KernelTrace, name: &str) -> Vec<Option<f64>> {
    let mut out = Vec::new();
    for c in t.buffer(name).unwrap_or_else(|| panic!("no buffer {name}")) {
        match c {
            Some(KVal::Vector { items, .. }) => out.extend(items.iter().map(KVal::as_f64)),
            _ => out.push(c.as_ref().and_then(KVal::as_f64)),
        }
    }
    out
}

const VEC4H: &str = "\
#include <cuda_fp16.h>
struct vec4h { uint2 data; __device__ half& operator[](int i){ return ((half*)(&data))[i]; } };
__global__ void k(half* out, float* out2) {
  vec4h o; for (int j = 0; j < 4; ++j) o[j] = __float2half((float)(threadIdx.x*4+j));
  *reinterpret_cast<uint2*>(out + 4*threadIdx.x) = o.data;
  float f; unsigned char* p = (unsigned char*)&f; p[0]=0; p[1]=0; p[2]=0x80; p[3]=0x3f;
  out2[threadIdx.x] = f;
}
int main(){ half* o; float* o2; cudaMalloc(&o,256); cudaMalloc(&o2,128); k<<<1,32>>>(o,o2); }";

#[test]
fn partial_halves_and_bytes_of_locals_make_them_whole() {
    // Thread t writes the four halves of its `uint2` (4t + j, exact in half up to 2048) and
    // stores it whole: out[4t + j] = 4t + j, out = 0..127. f's bytes 00 00 80 3F are the
    // binary32 0x3F800000 = 1.0 (sign 0, exponent 127, fraction 0).
    for mode in [TraceMode::None, TraceMode::Full] {
        let t = run_kernel_traced(VEC4H, LaunchConfig::default(), mode).unwrap();
        let want: Vec<Option<f64>> = (0..128).map(|i| Some(f64::from(i))).collect();
        assert_eq!(nums(&t, "out"), want, "{mode:?}");
        assert_eq!(nums(&t, "out2"), vec![Some(1.0); 32], "{mode:?}");
        assert!(!has(&t, Level::Warning, "never written"), "{mode:?}");
    }
}

#[test]
fn partial_writes_replay_to_the_same_memory() {
    // The store that completes an element is an ordinary store of the step: the page's
    // slider, replaying the steps' writes, ends at the run's own memory.
    let t = run_kernel_traced(VEC4H, LaunchConfig::default(), TraceMode::Full).unwrap();
    let last = t.steps.len() - 1;
    let replayed = t.memory_after(last);
    for name in ["out", "out2"] {
        let b = replayed.buffers.iter().find(|b| b.name == name).unwrap();
        assert_eq!(Some(b.cells.as_slice()), t.buffer(name), "{name}");
    }
}

#[test]
fn partial_words_of_global_and_shared_memory_from_halves() {
    // half 1.0 = 0x3C00, -2.0 = 0xC000 (struct.pack('<e', -2.0) == b'\x00\xc0'): the word
    // with 1.0 in its low half (element 2t) and -2.0 in its high half is 0xC0003C00 =
    // 3221240832. Shared: 0.25 = 0x3400 low, 0.5 = 0x3800 high (the high half written first):
    // 0x38003400 = 939537408. Words 8..11 get their low half only (3.0 = 0x4200): bytes 2..=3
    // are never written, so they end undefined and a warning at the end says which bytes.
    let src = "\
#include <cuda_fp16.h>
__global__ void k(uint32_t* g) {
  __shared__ uint32_t s[4];
  half* gh = (half*)g;
  gh[2 * threadIdx.x] = __float2half(1.0f);
  gh[2 * threadIdx.x + 1] = __float2half(-2.0f);
  half* sh = (half*)s;
  sh[2 * threadIdx.x + 1] = __float2half(0.5f);
  sh[2 * threadIdx.x] = __float2half(0.25f);
  __syncthreads();
  g[4 + threadIdx.x] = s[threadIdx.x];
  gh[16 + 2 * threadIdx.x] = __float2half(3.0f);
}";
    let t = run_kernel(src, launch(4, &[("g", 12, "undef")])).unwrap();
    let mut want = vec![Some(0xC000_3C00); 4];
    want.extend([Some(0x3800_3400); 4]);
    want.extend([None; 4]);
    assert_eq!(ints(&t, "g"), want);
    assert!(has(
        &t,
        Level::Warning,
        "writes part of `g[8]` and 3 more elements, and no statement writes the rest (bytes 2..=3 of 4 never written)"
    ));
}

#[test]
fn partial_read_names_unwritten_bytes_and_written_bytes_read_back() {
    // g gets bytes 0 (42 + t) and 3 (0x3F): reading it whole is undefined, the warning
    // naming bytes 1..=2; byte 0 read back through the same `unsigned char*` is 42 + t.
    let src = "\
__global__ void k(float* out, int* back) {
  float g;
  unsigned char* q = (unsigned char*)&g;
  q[0] = 42 + threadIdx.x; q[3] = 0x3f;
  out[threadIdx.x] = g;
  back[threadIdx.x] = q[0];
}";
    let t = run_kernel(src, launch(2, &[("out", 2, "undef"), ("back", 2, "undef")])).unwrap();
    assert_eq!(nums(&t, "out"), [None, None]);
    assert_eq!(ints(&t, "back"), [Some(42), Some(43)]);
    assert!(has(
        &t,
        Level::Warning,
        "an element written only in part (bytes 1..=2 of 4 never written)"
    ));
}

#[test]
fn partial_vector_components_make_an_element_whole() {
    // out[t].x = 1.5 and out[t].y = t - 2 on a float2 buffer never written: both components
    // written, the element is {1.5, t - 2}. o4[t].w alone leaves 12 of o4[t]'s 16 bytes
    // unwritten (x, y, z: bytes 0..=11): undefined.
    let src = "\
__global__ void k(float2* out, float4* o4) {
  out[threadIdx.x].x = 1.5f;
  out[threadIdx.x].y = -2.0f + threadIdx.x;
  o4[threadIdx.x].w = 3.0f;
}";
    let t = run_kernel(src, launch(2, &[("out", 4, "undef"), ("o4", 8, "undef")])).unwrap();
    assert_eq!(
        nums(&t, "out"),
        [Some(1.5), Some(-2.0), Some(1.5), Some(-1.0)]
    );
    assert_eq!(t.buffer("o4").unwrap(), [None, None]);
    assert!(has(&t, Level::Warning, "bytes 0..=11 of 16 never written"));
}

#[test]
fn partial_flashinfer_vec_t_bf16_filled_then_stored_whole() {
    // vec_t<bf16, 8> over one uint4, never loaded: v[i] = bf16(8t + i) for i = 0..7, then
    // `*(uint4*)p = data`. out = 0..15; bits[t] = data.x = bf16(8t) | bf16(8t + 1) << 16:
    // t = 0: 0x0000 | 0x3F80 << 16 = 0x3F800000 = 1065353216 (bf16(1) is 1.0f's high half);
    // t = 1: bf16(8) = 0x4100, bf16(9) = 0x4110 (9 = 1.125 · 2^3: exponent 130 = 0x82,
    // fraction 0x10 in bf16's 7 bits) → 0x41104100 = 1091584256.
    let src = "\
#include <cuda_bf16.h>
template <typename T, size_t N> struct vec_t;
template <> struct vec_t<__nv_bfloat16, 8> {
  uint4 data;
  __device__ __nv_bfloat16& operator[](size_t i) { return ((__nv_bfloat16*)(&data))[i]; }
  __device__ void store(__nv_bfloat16* ptr) const { *((uint4*)ptr) = data; }
};
__global__ void k(__nv_bfloat16* out, unsigned* bits) {
  vec_t<__nv_bfloat16, 8> v;
  for (size_t i = 0; i < 8; ++i) v[i] = __float2bfloat16((float)(8 * threadIdx.x + i));
  v.store(out + 8 * threadIdx.x);
  bits[threadIdx.x] = v.data.x;
}";
    let t = run_kernel(
        src,
        launch(2, &[("out", 16, "undef"), ("bits", 2, "undef")]),
    )
    .unwrap();
    let want: Vec<Option<f64>> = (0..16).map(|i| Some(f64::from(i))).collect();
    assert_eq!(nums(&t, "out"), want);
    assert_eq!(ints(&t, "bits"), [Some(1_065_353_216), Some(1_091_584_256)]);
}

#[test]
fn partial_lanes_storing_the_halves_of_one_word_do_not_conflict() {
    // Lane t stores half 1.0 (0x3C00) as element t of a `half*` over 32-bit words: lanes 2k and
    // 2k + 1 write the two halves of word k in one statement, different bytes (distinct memory
    // locations, [intro.memory]/3), so no value is lost: every word is 0x3C003C00 = 1006648320,
    // over a zero-filled buffer and over one never written alike. Lanes t and t ^ 1 writing
    // element t / 2 do write the same bytes: that conflict is still reported.
    let src = "\
#include <cuda_fp16.h>
__global__ void k(unsigned* g, unsigned* z, unsigned* c) {
  ((half*)g)[threadIdx.x] = __float2half(1.0f);
  ((half*)z)[threadIdx.x] = __float2half(1.0f);
  ((half*)c)[threadIdx.x / 2] = __float2half(1.0f);
}";
    let t = run_kernel(
        src,
        launch(8, &[("g", 4, "undef"), ("z", 4, "zero"), ("c", 4, "zero")]),
    )
    .unwrap();
    assert_eq!(ints(&t, "g"), vec![Some(0x3C00_3C00); 4]);
    assert_eq!(ints(&t, "z"), vec![Some(0x3C00_3C00); 4]);
    assert!(!has(&t, Level::Warning, "several lanes write `g"));
    assert!(!has(&t, Level::Warning, "several lanes write `z"));
    assert!(has(
        &t,
        Level::Warning,
        "several lanes write `c[0]` in one statement"
    ));
}
