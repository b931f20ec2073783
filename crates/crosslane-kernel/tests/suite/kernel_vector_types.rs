//! CUDA / HIP vector types and the half / bfloat16 intrinsics in kernels shaped as inference
//! code writes them (float4-vectorized row sums, int4 loads, half2 dot products with a
//! `__shfl_xor_sync` butterfly of half2, bf16 conversions), on CUDA's 32 lanes and HIP's 64.
//! Expected values: by hand (written beside each test) or from `models/vector_half.py`, an
//! independent model using Python's `struct` for the binary16 / float rounding.

use crate::support::{floats, has, launch_lanes as launch};
use crosslane_core::{Dialect, Level};
use crosslane_kernel::{run_kernel, KVal, Outcome};

const ROW_SUM_CUDA: &str = "\
__global__ void rowSum(const float* __restrict__ x, float* out) {
  const float4* x4 = reinterpret_cast<const float4*>(x);
  float4 v = x4[threadIdx.x];
  float s = v.x + v.y + v.z + v.w;
  for (int m = 16; m > 0; m >>= 1) s += __shfl_xor_sync(0xffffffff, s, m);
  if (threadIdx.x == 0) out[0] = s;
}";

#[test]
fn float4_row_sum_reads_four_cells_per_lane() {
    // 32 lanes × 4 floats = cells 0..127 (index fill): the sum 127·128/2 = 8128, exact in
    // float (every partial sum is an integer below 2^24).
    let t = run_kernel(
        ROW_SUM_CUDA,
        launch(Dialect::Cuda, 32, &[("x", 128, "index"), ("out", 1, "0")]),
    )
    .unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(floats(&t, "out"), vec![Some(8128.0)]);
    // Lane 5 read cells 20..23.
    let v = t.value_of("v", 0, 5).unwrap().clone().unwrap();
    assert_eq!(
        v,
        KVal::Vector {
            ty: crosslane_kernel::Scalar::F32,
            items: (20..24)
                .map(|k| KVal::float(crosslane_kernel::Scalar::F32, k as f64))
                .collect()
        }
    );
}

#[test]
fn float4_row_sum_on_hip_wave64() {
    // 64 lanes × 4 = cells 0..255: 255·256/2 = 32640. HIP's __shfl_xor over 64 lanes.
    let src = "\
__global__ void rowSum(const float* x, float* out) {
  float4 v = *(const float4*)&x[4 * threadIdx.x];
  float s = v.x + v.y + v.z + v.w;
  for (int m = 32; m > 0; m >>= 1) s += __shfl_xor(s, m, 64);
  if (threadIdx.x == 0) out[0] = s;
}";
    let t = run_kernel(
        src,
        launch(Dialect::Hip, 64, &[("x", 256, "index"), ("out", 1, "0")]),
    )
    .unwrap();
    assert_eq!(floats(&t, "out"), vec![Some(32640.0)]);
}

#[test]
fn int4_loads_and_float4_stores_through_a_vector_buffer() {
    // Lane l loads int4 (4l, 4l+1, 4l+2, 4l+3) and writes 1·x + 2·y + 3·z + 4·w = 40l + 20
    // (by hand: 4l + 8l + 2 + 12l + 6 + 16l + 12), then a float4 built by make_float4.
    let src = "\
__global__ void k(const int* in, int* dot, float4* o) {
  int4 q = reinterpret_cast<const int4*>(in)[threadIdx.x];
  dot[threadIdx.x] = q.x + 2 * q.y + 3 * q.z + 4 * q.w;
  o[threadIdx.x] = make_float4(q.x, q.y, 0.5f, -1.0f);
  o[threadIdx.x].z = 2.5f;
}";
    // `o:128` counts scalar cells: 32 float4 elements.
    let t = run_kernel(
        src,
        launch(
            Dialect::Cuda,
            32,
            &[("in", 128, "index"), ("dot", 32, "0"), ("o", 128, "0")],
        ),
    )
    .unwrap();
    let dot: Vec<Option<i128>> = t
        .buffer("dot")
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int))
        .collect();
    assert_eq!(dot, (0..32).map(|l| Some(40 * l + 20)).collect::<Vec<_>>());
    let o = t.buffer("o").unwrap();
    assert_eq!(o.len(), 32, "128 scalar cells of float4 are 32 elements");
    let f = |x: f64| KVal::float(crosslane_kernel::Scalar::F32, x);
    assert_eq!(
        o[3],
        Some(KVal::Vector {
            ty: crosslane_kernel::Scalar::F32,
            items: vec![f(12.0), f(13.0), f(2.5), f(-1.0)]
        })
    );
    // The JSON lists components in order, element by element.
    let json = serde_json::to_value(&t.memory).unwrap();
    let o_json = json["buffers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "o")
        .unwrap();
    assert_eq!(o_json["values"].as_array().unwrap().len(), 128);
    assert_eq!(o_json["values"][12], serde_json::json!(12.0));
    assert_eq!(o_json["values"][14], serde_json::json!(2.5));
}

#[test]
fn vector_buffers_fill_scalar_cells_in_order() {
    // `x:8=i*3+1` of a float2 buffer: cells 1, 4, 7, … laid out component by component.
    let src = "__global__ void k(float2* x, float* out) { out[threadIdx.x] = x[threadIdx.x].y; }";
    let t = run_kernel(
        src,
        launch(Dialect::Cuda, 4, &[("x", 8, "i*3+1"), ("out", 4, "0")]),
    )
    .unwrap();
    // Element l's y is cell 2l+1: 3(2l+1)+1 = 6l+4.
    assert_eq!(
        floats(&t, "out"),
        vec![Some(4.0), Some(10.0), Some(16.0), Some(22.0)]
    );
    // A length that is not whole elements is refused.
    assert!(run_kernel(
        src,
        launch(Dialect::Cuda, 4, &[("x", 7, "index"), ("out", 4, "0")])
    )
    .is_err());
}

const HALF2_DOT: &str = "\
#include <cuda_fp16.h>
__device__ __half2 warpSum(__half2 v) {
  for (int m = WIDTH / 2; m > 0; m >>= 1) v = __hadd2(v, SHFL(v, m));
  return v;
}
__global__ void dot(const __half2* a, float* out) {
  __half2 b = __float2half2_rn(0.1f);
  __half2 acc = __hfma2(a[threadIdx.x], b, __float2half2_rn(0.0f));
  acc = warpSum(acc);
  out[threadIdx.x] = __low2float(acc) + __high2float(acc);
}";

#[test]
fn half2_dot_product_with_a_shfl_xor_sync_butterfly() {
    // models/vector_half.py, half2_dot(32, 0.1): every lane 201.5625 (the exact sum of
    // 0.1·(0..63) is 201.6; each __hfma2 and __hadd2 rounds to half).
    let src = HALF2_DOT
        .replace("WIDTH", "32")
        .replace("SHFL(v, m)", "__shfl_xor_sync(0xffffffff, v, m)");
    let t = run_kernel(
        &src,
        launch(Dialect::Cuda, 32, &[("a", 64, "index"), ("out", 32, "0")]),
    )
    .unwrap();
    assert!(
        !t.all_diagnostics().any(|d| d.level == Level::Error),
        "{:?}",
        t.all_diagnostics().collect::<Vec<_>>()
    );
    assert_eq!(floats(&t, "out"), vec![Some(201.5625); 32]);
    // The shuffle moved a packed half2 (32 bits), one op per call.
    let ops: Vec<_> = t.steps.iter().flat_map(|s| s.ops.iter()).collect();
    assert_eq!(ops.len(), 5);
    assert!(ops
        .iter()
        .all(|o| o.ty == crosslane_core::value::ValueType::F16x2));
}

#[test]
fn half2_dot_product_on_hip_wave64() {
    // models/vector_half.py, half2_dot(64, 0.1): every lane 812.5 (exact: 812.8).
    let src = HALF2_DOT
        .replace("WIDTH", "64")
        .replace("SHFL(v, m)", "__shfl_xor(v, m, 64)");
    let t = run_kernel(
        &src,
        launch(Dialect::Hip, 64, &[("a", 128, "index"), ("out", 64, "0")]),
    )
    .unwrap();
    assert_eq!(floats(&t, "out"), vec![Some(812.5); 64]);
}

#[test]
fn bf16_and_half_conversions_round_to_nearest_even() {
    // models/vector_half.py, bf16_roundtrip(8).
    let src = "\
#include <cuda_bf16.h>
__global__ void k(float* b, float* h, float* pair) {
  float x = (threadIdx.x + 1) * 1.1f;
  __nv_bfloat16 y = __float2bfloat16(x);
  b[threadIdx.x] = __bfloat162float(y);
  h[threadIdx.x] = __half2float(__float2half_rn(x));
  __nv_bfloat162 p = __floats2bfloat162_rn(x, -x);
  float2 f = __bfloat1622float2(p);
  pair[threadIdx.x] = f.x + f.y;
}";
    let t = run_kernel(
        src,
        launch(
            Dialect::Cuda,
            8,
            &[("b", 8, "0"), ("h", 8, "0"), ("pair", 8, "0")],
        ),
    )
    .unwrap();
    let want_b = [
        1.1015625, 2.203125, 3.296875, 4.40625, 5.5, 6.59375, 7.6875, 8.8125,
    ];
    let want_h = [
        1.099609375,
        2.19921875,
        3.30078125,
        4.3984375,
        5.5,
        6.6015625,
        7.69921875,
        8.796875,
    ];
    assert_eq!(floats(&t, "b"), want_b.map(Some).to_vec());
    assert_eq!(floats(&t, "h"), want_h.map(Some).to_vec());
    assert_eq!(floats(&t, "pair"), vec![Some(0.0); 8]);
}

#[test]
fn half_operators_and_comparisons_follow_cuda_fp16_hpp() {
    // a = (1, 2), b = (1, 3): a == b is __hbeq2 (both halves) → false; a != b is __hbne2
    // (both differ) → false; a < b false (1 < 1 fails); a <= b true. Scalars: 2049 is not a
    // half: __float2half(2049) ties to even 2048, + 1 → 2049 ties to 2048 again.
    let src = "\
#include <cuda_fp16.h>
__global__ void k(int* r, float* f) {
  __half2 a = __halves2half2(__float2half(1.0f), __float2half(2.0f));
  __half2 b = make_half2(1.0f, 3.0f);
  r[0] = a == b;
  r[1] = a != b;
  r[2] = a < b;
  r[3] = a <= b;
  __half2 c = a * b + a;
  f[0] = __low2float(c);
  f[1] = __high2float(c);
  __half h = __float2half(2049.0f) + __float2half(1.0f);
  f[2] = __half2float(h);
  f[3] = __half2float(__hmax(__hneg(h), __habs(__hneg(h))));
}";
    let t = run_kernel(
        src,
        launch(Dialect::Cuda, 1, &[("r", 4, "9"), ("f", 4, "0")]),
    )
    .unwrap();
    let r: Vec<Option<i128>> = t
        .buffer("r")
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int))
        .collect();
    assert_eq!(r, vec![Some(0), Some(0), Some(0), Some(1)]);
    // c = (1·1 + 1, 2·3 + 2) = (2, 8).
    assert_eq!(
        floats(&t, "f"),
        vec![Some(2.0), Some(8.0), Some(2048.0), Some(2048.0)]
    );
}

#[test]
fn what_the_vendors_do_not_define_is_refused() {
    // CUDA: no operator+ on float4 (vector_types.h), no __shfl_sync of a float4.
    let src = "\
__global__ void k(const float4* a, float4* o, float* out) {
  float4 v = a[threadIdx.x];
  o[threadIdx.x] = v + v;
  float4 m = -v;
  float4 w = __shfl_sync(0xffffffff, v, 0);
  out[threadIdx.x] = w.x;
}";
    // The first error ends a run; with keep_going each refusal stays a diagnostic, so one run
    // shows all three.
    let mut config = launch(
        Dialect::Cuda,
        32,
        &[("a", 128, "index"), ("o", 128, "0"), ("out", 32, "0")],
    );
    config.keep_going = true;
    let t = run_kernel(src, config).unwrap();
    assert!(has(&t, Level::Error, "CUDA defines no `+` on float4"));
    assert!(has(&t, Level::Error, "defines no `__shfl_sync` of float4"));
    assert!(has(&t, Level::Error, "CUDA defines no unary `-` on float4"));
    assert!(floats(&t, "out").iter().all(Option::is_none));
    // HIP defines + on its vector types, component by component.
    let t = run_kernel(
        src.replace("__shfl_sync(0xffffffff, v, 0)", "v").as_str(),
        launch(
            Dialect::Hip,
            64,
            &[("a", 256, "index"), ("o", 256, "0"), ("out", 64, "0")],
        ),
    )
    .unwrap();
    let o = t.buffer("o").unwrap();
    let f = |x: f64| KVal::float(crosslane_kernel::Scalar::F32, x);
    assert_eq!(
        o[1],
        Some(KVal::Vector {
            ty: crosslane_kernel::Scalar::F32,
            items: vec![f(8.0), f(10.0), f(12.0), f(14.0)]
        })
    );
}

#[test]
fn a_misaligned_float4_access_is_undefined() {
    // &x[2] is 8 bytes past a 16-byte boundary: a float4 access there is undefined (CUDA C++
    // Programming Guide, Device Memory Accesses).
    let src = "\
__global__ void k(const float* x, float* out) {
  float4 v = *(const float4*)&x[4 * threadIdx.x + 2];
  out[threadIdx.x] = v.x;
}";
    let t = run_kernel(
        src,
        launch(Dialect::Cuda, 4, &[("x", 32, "index"), ("out", 4, "0")]),
    )
    .unwrap();
    assert!(has(&t, Level::Warning, "not 16-byte aligned"));
    assert!(floats(&t, "out").iter().all(Option::is_none));
}

#[test]
fn bfloat162_butterfly_moves_packed_pairs() {
    // models/vector_half.py, bf162_butterfly(32): every lane (544, -496); the exact sums are
    // 545.6 and -496 (each __hadd2 rounds to bfloat16's 8 significant bits).
    let src = "\
#include <cuda_bf16.h>
__global__ void k(float* lo, float* hi) {
  int l = threadIdx.x;
  __nv_bfloat162 v = __floats2bfloat162_rn(l * 1.1f, -l);
  for (int m = 16; m > 0; m >>= 1) v = __hadd2(v, __shfl_xor_sync(0xffffffff, v, m));
  lo[l] = __low2float(v);
  hi[l] = __high2float(v);
}";
    let t = run_kernel(
        src,
        launch(Dialect::Cuda, 32, &[("lo", 32, "0"), ("hi", 32, "0")]),
    )
    .unwrap();
    assert_eq!(floats(&t, "lo"), vec![Some(544.0); 32]);
    assert_eq!(floats(&t, "hi"), vec![Some(-496.0); 32]);
    assert!(t
        .steps
        .iter()
        .flat_map(|s| s.ops.iter())
        .all(|o| o.ty == crosslane_core::value::ValueType::Bf16x2));
}

#[test]
fn vectors_through_functions_arrays_shared_memory_and_scalar_views() {
    // v = index fill as float4 (element i = 4i..4i+3). Lane i: n = tile[(i+1) % 32] =
    // twice(v[i+1]), so n.w = 2(4(i+1)+3) = 8i + 14; s sums v[i]'s four cells through a
    // float* view: 16i + 6. out = 24i + 20, except lane 31, whose n is twice(v[0]): n.w = 6,
    // s = 502 → 508. flat through a float2* view: element i = (i, -i).
    let src = "\
__device__ float4 twice(float4 v) { return make_float4(2*v.x, 2*v.y, 2*v.z, 2*v.w); }
__global__ void k(float4* v, float* out, float* flat) {
  __shared__ float4 tile[32];
  float4 local[2];
  int i = threadIdx.x;
  local[0] = v[i];
  local[1] = twice(local[0]);
  tile[i] = local[1];
  __syncthreads();
  float4 n = tile[(i + 1) % 32];
  const float* p = reinterpret_cast<const float*>(v);
  float s = 0.0f;
  for (int k = 0; k < 4; ++k) s += p[4 * i + k];
  out[i] = n.w + s;
  float2* f2 = reinterpret_cast<float2*>(flat);
  f2[i] = make_float2(i, -i);
}";
    let t = run_kernel(
        src,
        launch(
            Dialect::Cuda,
            32,
            &[("v", 128, "index"), ("out", 32, "0"), ("flat", 64, "0")],
        ),
    )
    .unwrap();
    let want: Vec<Option<f64>> = (0..32)
        .map(|i| {
            Some(if i == 31 {
                508.0
            } else {
                24.0 * i as f64 + 20.0
            })
        })
        .collect();
    assert_eq!(floats(&t, "out"), want);
    let flat: Vec<Option<f64>> = (0..64)
        .map(|k| {
            Some(if k % 2 == 0 {
                (k / 2) as f64
            } else {
                -((k / 2) as f64)
            })
        })
        .collect();
    assert_eq!(floats(&t, "flat"), flat);
}

const EIGHT_HALVES: &str = "\
__global__ void k(const __half* x, __half* y, float* out) {
  int i = threadIdx.x * 8;
  int4 raw = *reinterpret_cast<const int4*>(&x[i]);
  const __half2* h = reinterpret_cast<const __half2*>(&raw);
  float s = 0.0f;
  for (int j = 0; j < 4; ++j) {
    float2 f = __half22float2(h[j]);
    s += f.x + f.y;
  }
  out[threadIdx.x] = s;
  uint4 u = *reinterpret_cast<const uint4*>(x + i);
  __half2* p = reinterpret_cast<__half2*>(&u);
  p[0] = __hadd2(p[0], p[1]);
  *reinterpret_cast<uint4*>(y + i) = u;
}";

#[test]
fn a_128_bit_load_of_eight_halves_through_int4_and_uint4() {
    // Lane l loads halves 8l..8l+7 (index fill: exact in half) as one int4 and reads them
    // back as four __half2: s = 8l + ... + 8l+7 = 64l + 28. Through a uint4 it adds pair 1
    // to pair 0 and stores the 16 bytes to y: y[8l] = 8l + 8l+2 = 16l + 2, y[8l+1] = 16l + 4,
    // the other six unchanged (y[8l+k] = 8l + k).
    for (dialect, lanes) in [(Dialect::Cuda, 32), (Dialect::Hip, 64)] {
        let n = 8 * lanes;
        let t = run_kernel(
            EIGHT_HALVES,
            launch(
                dialect,
                lanes,
                &[("x", n, "index"), ("y", n, "0"), ("out", lanes, "0")],
            ),
        )
        .unwrap();
        assert_eq!(t.outcome, Some(Outcome::Finished), "{dialect:?}");
        let want: Vec<Option<f64>> = (0..lanes).map(|l| Some((64 * l + 28) as f64)).collect();
        assert_eq!(floats(&t, "out"), want);
        let y = floats(&t, "y");
        for l in 0..lanes {
            let base = 8 * l;
            let mut row = vec![Some((16 * l + 2) as f64), Some((16 * l + 4) as f64)];
            row.extend((2..8).map(|k| Some((base + k) as f64)));
            assert_eq!(y[base..base + 8].to_vec(), row, "lane {l}");
        }
    }
}

#[test]
fn int4_view_of_halves_holds_their_bits_little_endian() {
    // 1.0 and 2.0 as binary16 are 0x3C00 and 0x4000 (IEEE 754-2008, binary16); the first
    // 32-bit word of the 16 bytes holds the first half in its low bits: 0x40003C00 =
    // 1073757184. A float4 of the same bytes into a local `__half vals[8]` and back: the
    // halves unchanged. A pointer to half 4 (byte 8) is not 16-byte aligned: undefined.
    let src = "\
__global__ void k(const __half* x, int* bits, float* out) {
  int4 r = *reinterpret_cast<const int4*>(x);
  bits[0] = r.x;
  bits[1] = r.w;
  __half vals[8];
  *reinterpret_cast<float4*>(vals) = *reinterpret_cast<const float4*>(x);
  out[0] = __half2float(vals[1]);
  out[1] = __half2float(vals[7]);
  int4 bad = *reinterpret_cast<const int4*>(&x[4]);
  bits[2] = bad.x;
}";
    let t = run_kernel(
        src,
        launch(
            Dialect::Cuda,
            1,
            &[
                ("x", 8, "1,2,0,0,0,0,-1,0.5"),
                ("bits", 3, "0"),
                ("out", 2, "0"),
            ],
        ),
    )
    .unwrap();
    let bits: Vec<Option<i128>> = t
        .buffer("bits")
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int))
        .collect();
    // r.w: -1.0 = 0xBC00 (low), 0.5 = 0x3800 (high): 0x3800BC00 = 939572224.
    assert_eq!(bits[..2], [Some(1_073_757_184), Some(939_572_224)]);
    assert_eq!(bits[2], None);
    assert!(has(&t, Level::Warning, "not 16-byte aligned"));
    assert_eq!(floats(&t, "out"), vec![Some(2.0), Some(0.5)]);
}

#[test]
fn a_pointer_to_a_local_reads_and_writes_the_variable() {
    // v = 2t + 1 through `*p`; `c[1] = v` writes q.y through a float* to the float2.
    // out = v + 10 q.y + 100 q.x = 11 (2t + 1) + 100: 111, 133, 155, 177.
    let src = "\
__global__ void k(float* out) {
  float v = threadIdx.x;
  float* p = &v;
  *p = *p * 2.0f + 1.0f;
  float2 q = make_float2(1.0f, 2.0f);
  float* c = reinterpret_cast<float*>(&q);
  c[1] = v;
  out[threadIdx.x] = v + q.y * 10.0f + q.x * 100.0f;
}";
    let t = run_kernel(src, launch(Dialect::Cuda, 4, &[("out", 4, "0")])).unwrap();
    assert_eq!(
        floats(&t, "out"),
        vec![Some(111.0), Some(133.0), Some(155.0), Some(177.0)]
    );
}

#[test]
fn hip_vector_operators_the_header_does_not_declare_are_refused() {
    // amd_hip_vector_types.h (ROCm/clr) declares `==`/`!=` but no `<`; `%` only for integral
    // elements; unary `-` only for signed ones (float included), no unary `+`; the binary
    // operators take two vectors of one HIP_vector_type<T, n>.
    let src = "\
__global__ void k(float* out) {
  float2 a = make_float2(threadIdx.x, 1.0f);
  uint2 u = make_uint2(threadIdx.x, 1u);
  int2 i = make_int2(1, 2);
  out[threadIdx.x] = (a < a) ? 1.0f : 0.0f;
  float2 r = a % a;
  uint2 m = -u;
  float2 p = +a;
  float2 s = a + i;
  float2 ok = -a;
  out[threadIdx.x] = ok.x;
}";
    let mut config = launch(Dialect::Hip, 4, &[("out", 4, "0")]);
    config.keep_going = true;
    let t = run_kernel(src, config).unwrap();
    assert!(has(&t, Level::Error, "HIP defines no `<` on float2"));
    assert!(has(
        &t,
        Level::Error,
        "`%` only on vectors of an integral type"
    ));
    assert!(has(
        &t,
        Level::Error,
        "unary `-` only on vectors of a signed type"
    ));
    assert!(has(&t, Level::Error, "HIP defines no unary `+` on float2"));
    assert!(has(&t, Level::Error, "float2 and int2 differ"));
    // -a on float2 is defined: -(t, 1).x = -t.
    assert_eq!(
        floats(&t, "out"),
        vec![Some(-0.0), Some(-1.0), Some(-2.0), Some(-3.0)]
    );
}
