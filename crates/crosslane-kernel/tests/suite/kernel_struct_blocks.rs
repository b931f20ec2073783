//! Structs with array members in the shapes of llama.cpp's quantization blocks: a pointer
//! parameter is one buffer per member (`x.d`, `x.qs`, the array member's buffer holding
//! `count` elements per block, so `x[ib].qs[iqs]` is cell `ib * count + iqs`), `half`
//! members filled as halves; struct arrays in `__shared__`, struct locals with an array
//! member, copies, `&s[i]` and references passed to device functions; refusals at their
//! line. Expected values by hand, beside each test.

use crate::support::{floats_or_nan as floats, launch_grid as launch};
use crosslane_kernel::{run_kernel, KVal, LaunchConfig, Outcome};

const Q8_0: &str = "\
#define QK8_0 32
typedef struct { half d; int8_t qs[QK8_0]; } block_q8_0;
static_assert(sizeof(block_q8_0) == sizeof(half) + QK8_0, \"wrong q8_0 block size/padding\");
__global__ void dequantize_q8_0(const block_q8_0 * x, float * y) {
  const int ib = blockIdx.x;
  const int iqs = threadIdx.x;
  y[ib * QK8_0 + iqs] = __half2float(x[ib].d) * x[ib].qs[iqs];
}
";

#[test]
fn a_block_buffer_is_one_buffer_per_member_and_a_half_fill_gives_halves() {
    // Two blocks: d = 0.5 and 0.25 (halves), qs = cell index - 32. Block 0, lane i:
    // 0.5 (i - 32); block 1, lane i: 0.25 i.
    let c = launch(
        32,
        2,
        &[
            ("x.d", 2, "0.5,0.25"),
            ("x.qs", 64, "i-32"),
            ("y", 64, "zero"),
        ],
    );
    let t = run_kernel(Q8_0, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let y = floats(&t, "y");
    for i in 0..32 {
        assert_eq!(y[i], 0.5 * (i as f64 - 32.0), "y[{i}]");
        assert_eq!(y[32 + i], 0.25 * i as f64, "y[{}]", 32 + i);
    }
    let d = t.buffer("x.d").expect("x.d");
    assert!(matches!(d[0], Some(KVal::Float { x, .. }) if x == 0.5));
}

#[test]
fn shared_block_arrays_local_copies_and_block_pointers_to_device_functions() {
    // Lane l writes s[l / 8].qs[l % 8] = l and s[b].d = b + 1; after the barrier each lane
    // copies block b = l / 8 into a local (`Blk c = s[b];`), then the device function sums
    // the copy's 8 elements (through `const Blk&`) and reads `p->qs[0]` through `&s[b]`:
    // sum over k of (8b + k) = 64b + 28, times d = b + 1, plus 8b. Lane 0 (b = 0): 28; lane
    // 8 (b = 1): (64 + 28) * 2 + 8 = 192; lane 31 (b = 3): (192 + 28) * 4 + 24 = 904. The
    // copy is independent of s: zeroing c.qs[0] changes nothing in s (out2 = s[b].qs[0]).
    let src = "\
struct Blk { float d; int qs[8]; };
__device__ float dot(const Blk& c, const Blk* p) {
  float s = 0.0f;
  for (int k = 0; k < 8; ++k) s += c.qs[k];
  return s * c.d + p->qs[0];
}
__global__ void k(float* out, int* out2) {
  __shared__ Blk s[4];
  const int l = threadIdx.x;
  const int b = l / 8;
  s[b].qs[l % 8] = l;
  if (l % 8 == 0) s[b].d = (float)(b + 1);
  __syncthreads();
  Blk c = s[b];
  out[l] = dot(c, &s[b]);
  c.qs[0] = 0;
  out2[l] = s[b].qs[0];
}
";
    let c = launch(32, 1, &[("out", 32, "zero"), ("out2", 32, "zero")]);
    let t = run_kernel(src, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let out = floats(&t, "out");
    assert_eq!(out[0], 28.0);
    assert_eq!(out[8], 192.0);
    assert_eq!(out[31], 904.0);
    let out2 = floats(&t, "out2");
    assert_eq!(out2[31], 24.0);
}

#[test]
fn aggregates_member_functions_and_copies_of_array_members() {
    // a = {2, {1, 2, 3}} (qs[3] = 0); b = {} then b = a, b.scale(10): qs = 10, 20, 30, 0.
    // a.sum() = (1 + 2 + 3) * 2 = 12, b.sum() = 60 * 2 = 120, b.qs[3] = 0: 132; a is
    // unchanged by b's scaling.
    let src = "\
struct Blk {
  float d; int qs[4];
  __device__ float sum() const { float s = 0.0f; for (int k = 0; k < 4; ++k) s += qs[k]; return s * d; }
  __device__ void scale(int m) { for (int k = 0; k < 4; ++k) qs[k] *= m; }
};
__global__ void k(float* o) {
  Blk a{2.0f, {1, 2, 3}};
  Blk b{};
  b = a;
  b.scale(10);
  o[threadIdx.x] = a.sum() + b.sum() + b.qs[3];
}
";
    let t = run_kernel(src, launch(32, 1, &[("o", 32, "zero")])).expect("runs");
    assert_eq!(floats(&t, "o")[7], 132.0);
}

#[test]
fn dp4a_multiplies_packed_bytes_read_through_an_int_pointer() {
    // qs = 1, 2, …, 8 as int8; the two ints are bytes (1, 2, 3, 4) and (5, 6, 7, 8):
    // __dp4a(a, b, 10) = 5 + 12 + 21 + 32 + 10 = 80.
    let src = "\
typedef struct { int8_t qs[8]; } B;
__global__ void k(const B* x, int* o) {
  const int a = *((const int *) x[0].qs);
  const int b = *((const int *) x[0].qs + 1);
  o[threadIdx.x] = __dp4a(a, b, 10);
}
";
    let c = launch(32, 1, &[("x.qs", 8, "i+1"), ("o", 32, "zero")]);
    let t = run_kernel(src, c).expect("runs");
    assert_eq!(floats(&t, "o")[0], 80.0);
}

#[test]
fn ggml_dequantize_block_with_a_void_pointer_and_a_dequantize_function_argument() {
    // ggml's shape: a `const void * vx` kernel parameter passed to the dequantize function
    // given as a function pointer template argument, which casts it to `block_q4_0 *`. So
    // `vx` is read as block_q4_0 (buffers vx.d, vx.qs). Block 0: d = 0.5, byte 0 = 3: low
    // nibble 3 - 8 = -5 gives y[0] = -2.5, high nibble 0 - 8 gives y[16] = -4. Block 1: d = 2,
    // byte 16 = 16 * 7 + 3 = 115 = 0x73: y[32] = (3 - 8) * 2 = -10, y[48] = (7 - 8) * 2 = -2.
    let src = "\
#define QK4_0 32
#define QR4_0 2
typedef struct { half d; uint8_t qs[QK4_0 / 2]; } block_q4_0;
typedef float2 dfloat2;
typedef void (*dequantize_kernel_t)(const void * vx, const int64_t ib, const int iqs, dfloat2 & v);
static __device__ __forceinline__ void dequantize_q4_0(const void * vx, const int64_t ib, const int iqs, dfloat2 & v) {
  const block_q4_0 * x = (const block_q4_0 *) vx;
  const float d = __half2float(x[ib].d);
  const int vui = x[ib].qs[iqs];
  v.x = vui & 0xF;
  v.y = vui >> 4;
  v.x = (v.x - 8.0f) * d;
  v.y = (v.y - 8.0f) * d;
}
template <int qk, int qr, dequantize_kernel_t dequantize_kernel, typename dst_t>
static __global__ void dequantize_block(const void * __restrict__ vx, dst_t * __restrict__ y, const int64_t k) {
  const int64_t i = 2 * ((int64_t)blockDim.x * blockIdx.x + threadIdx.x);
  if (i >= k) {
    return;
  }
  const int64_t ib = i / qk;
  const int64_t iqs = (i % qk) / qr;
  const int64_t iybs = i - i % qk;
  const int64_t y_offset = qr == 1 ? 1 : qk / 2;
  dfloat2 v;
  dequantize_kernel(vx, ib, iqs, v);
  y[iybs + iqs + 0] = v.x;
  y[iybs + iqs + y_offset] = v.y;
}
int main() {
  dequantize_block<QK4_0, QR4_0, dequantize_q4_0, float><<<1, 32>>>(vx, y, 64);
}
";
    let mut c = LaunchConfig::default();
    for (name, len, fill) in [
        ("vx.d", 2, "0.5,2"),
        ("vx.qs", 32, "i*7+3"),
        ("y", 64, "zero"),
    ] {
        c.buffer_len.insert(name.into(), len);
        c.args.insert(name.into(), fill.into());
    }
    let t = run_kernel(src, c).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let y = floats(&t, "y");
    assert_eq!((y[0], y[16], y[32], y[48]), (-2.5, -4.0, -10.0, -2.0));
}

#[test]
fn unsupported_array_member_uses_are_refused_at_their_line() {
    for (src, line, needle) in [
        // By value to a function it is a copy (snapshot `cxx_struct_array_by_value.hip`); a
        // lambda taking one is refused.
        (
            "struct S { float d; int q[4]; };\n__global__ void k(float* o) { auto f = [](S s) { return s.d; }; }",
            2,
            "by value",
        ),
        ("struct S {\n  int q[4][2];\n};", 2, "arrays of arrays"),
        ("struct S {\n  int q[0];\n};", 2, "1 to 256"),
        (
            "__global__ void k(int* o) {\n  int n = o[0];\n}\nstruct S {\n  int q[n];\n};",
            5,
            "constant expression",
        ),
    ] {
        let e = run_kernel(src, LaunchConfig::default()).expect_err(src);
        assert_eq!(e.line, line, "{src}: {}", e.message);
        assert!(e.message.contains(needle), "{src}: {}", e.message);
    }
}
