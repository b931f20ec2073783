//! The 8-bit floats of `cuda_fp8.h` and `hip/hip_fp8.h` in kernels: buffers of them, their
//! constructors and conversions, the vector forms, `numeric_limits`, and the C conversion
//! functions. Expected values are derived by hand beside each test from the formats' tables
//! (OCP OFP8 rev. 1.0 Table 1: E4M3 bias 7, max 448, NaN S.1111.111; E5M2 bias 15, max
//! 57344; ROCm "Low precision floating point types": FNUZ E4M3 bias 8, max 240, NaN 0x80).

use crate::support::{ints, launch_lanes as launch, no_errors};
use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, KVal, KernelTrace};

fn floats(t: &KernelTrace, name: &str) -> Vec<f64> {
    t.buffer(name)
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64).unwrap_or(-999.0))
        .collect()
}

const COPY: &str = "#include <cuda_fp8.h>
__global__ void k(const __nv_fp8_e4m3* q, float* out) {
    int i = threadIdx.x;
    out[i] = float(q[i]);
}";

#[test]
fn fp8_buffers_round_their_fill_and_show_the_decoded_value() {
    // A decimal fill is rounded as the constructor rounds (nearest even, satfinite):
    // 0.3 in [0.25, 0.5) has quantum 2^-2 · 2^-3 = 0.03125, 0.3 / 0.03125 = 9.6 → 10 ·
    // 0.03125 = 0.3125; 17 is the tie between 16 (1.000 · 2^4) and 18 (1.001 · 2^4) → 16
    // (even); 1000 → 448; -0.0009 is 0.46 of the smallest subnormal 2^-9, so it rounds to -0.
    let t = run_kernel(
        COPY,
        launch(
            Dialect::Cuda,
            4,
            &[("q", 4, "0.3,17,1000,-0.0009"), ("out", 4, "0")],
        ),
    )
    .unwrap();
    no_errors(&t);
    assert_eq!(floats(&t, "out"), [0.3125, 16.0, 448.0, 0.0]);
    // The buffer's JSON values are the decoded numbers, as half buffers show theirs.
    let q = t.memory.buffers.iter().find(|b| b.name == "q").unwrap();
    let j = serde_json::to_value(q).unwrap();
    assert_eq!(j["values"], serde_json::json!([0.3125, 16.0, 448.0, -0.0]));
    assert_eq!(j["elem"]["scalar"], "e4m3");
}

#[test]
fn fp8_buffers_take_their_encodings_as_bytes() {
    // u8 bytes laid over the cells: 0x38 = 0.0111.000 = 1.0; 0x7E = 0.1111.110 = 448;
    // 0xC0 = 1.1000.000 = -2; 0x01 = the smallest subnormal 2^-9; 0x7F = NaN.
    let t = run_kernel(
        COPY,
        launch(
            Dialect::Cuda,
            5,
            &[("q", 5, "u8:0x38,0x7e,0xc0,0x01,0x7f"), ("out", 5, "0")],
        ),
    )
    .unwrap();
    no_errors(&t);
    let out = floats(&t, "out");
    assert_eq!(out[..4], [1.0, 448.0, -2.0, 2f64.powi(-9)]);
    assert!(out[4].is_nan(), "{out:?}");
}

#[test]
fn fp8_constructors_conversions_and_vectors() {
    let src = "#include <cuda_fp8.h>
__global__ void k(float* a, float* b, float* c, unsigned* d, float* e) {
    int i = threadIdx.x;
    if (i == 0) {
        __nv_fp8_e5m2 big(1.0e6f);
        a[0] = static_cast<float>(big);
        a[1] = float(__nv_fp8_e5m2(__float2half(3.3f)));
        a[2] = float(__nv_fp8_e4m3(-INFINITY));
        a[3] = float(__nv_fp8_e4m3(NAN));
        float4 v = make_float4(0.1f, -5.0f, 300.0f, 1.0625f);
        __nv_fp8x4_e4m3 p(v);
        float4 w = static_cast<float4>(p);
        b[0] = w.x; b[1] = w.y; b[2] = w.z; b[3] = w.w;
        c[0] = std::numeric_limits<__nv_fp8_e4m3>::max();
        c[1] = std::numeric_limits<__nv_fp8_e5m2>::max();
        c[2] = std::numeric_limits<__nv_fp8_e4m3>::denorm_min();
        float2 f2 = make_float2(1.0f, -2.0f);
        d[0] = __nv_cvt_float2_to_fp8x2(f2, __NV_SATFINITE, __NV_E4M3);
        d[1] = __nv_cvt_float_to_fp8(1.0e6f, __NV_NOSAT, __NV_E5M2);
        d[2] = __nv_cvt_halfraw_to_fp8(__float2half(0.5f), __NV_SATFINITE, __NV_E5M2);
        e[0] = __half2float(__nv_cvt_fp8_to_halfraw(0x38, __NV_E4M3));
        __half2 h2 = __nv_cvt_fp8x2_to_halfraw2(0xC07C, __NV_E5M2);
        e[1] = __low2float(h2);
        e[2] = __high2float(h2);
    }
}";
    let t = run_kernel(
        src,
        launch(
            Dialect::Cuda,
            1,
            &[
                ("a", 4, "0"),
                ("b", 4, "0"),
                ("c", 3, "0"),
                ("d", 3, "0"),
                ("e", 3, "0"),
            ],
        ),
    )
    .unwrap();
    no_errors(&t);
    // E5M2 1e6 saturates to 57344 (1.11 · 2^15); 3.3 as half is 3.30078125, which in E5M2
    // (quantum 0.5 in [2, 4)) rounds to 3.5 (3.30 is nearer 3.5 than 3.0); -inf saturates to
    // -448; NaN stays NaN.
    let a = floats(&t, "a");
    assert_eq!(a[..3], [57344.0, 3.5, -448.0]);
    assert!(a[3].is_nan(), "{a:?}");
    // fp8x4 from float4, each component: 0.1 in [0.0625, 0.125) has quantum 2^-4 · 2^-3 =
    // 2^-7, 0.1 / 2^-7 = 12.8 → 13 · 2^-7 = 0.1015625; -5 is exact; 300 in [256, 512) has
    // quantum 32, 300 / 32 = 9.375 → 9 · 32 = 288; 1.0625 ties between 1 and 1.125 → 1 (even).
    assert_eq!(floats(&t, "b"), [0.1015625, -5.0, 288.0, 1.0]);
    // numeric_limits: E4M3 max 448, E5M2 max 57344, E4M3 smallest subnormal 2^-9.
    assert_eq!(floats(&t, "c"), [448.0, 57344.0, 2f64.powi(-9)]);
    // (1, -2) → low byte 0x38, high byte 0xC0 → 0xC038; 1e6 E5M2 without saturation → +inf
    // = 0.11111.00 = 0x7C; 0.5 in E5M2 = 0.01110.00 = 0x38.
    assert_eq!(ints(&t, "d"), [Some(0xC038), Some(0x7C), Some(0x38)]);
    // 0x38 as E4M3 is 1.0; 0xC07C as two E5M2: low 0x7C = +inf, high 0xC0 = 1.10000.00 = -2.
    assert_eq!(floats(&t, "e"), [1.0, f64::INFINITY, -2.0]);
}

#[test]
fn hip_fp8_type_names_choose_the_format() {
    // The same value 250 in three HIP types: FNUZ E4M3 saturates at 240 (its largest,
    // 0.1111.111 with bias 8); OCP E4M3 in [128, 256) has quantum 16, 250 / 16 = 15.6 → 16 ·
    // 16 = 256; E5M2 FNUZ there has quantum 32, 250 / 32 = 7.8 → 8 · 32 = 256.
    // FNUZ has no -0: -0.0001 rounds to +0. Byte 0x80 read as FNUZ is its NaN.
    let src = "#include <hip/hip_fp8.h>
__global__ void k(float* out, const __hip_fp8_e4m3_fnuz* raw) {
    int i = threadIdx.x;
    if (i == 0) {
        out[0] = float(__hip_fp8_e4m3_fnuz(250.0f));
        out[1] = float(__hip_fp8_e4m3(250.0f));
        out[2] = float(__hip_fp8_e5m2_fnuz(250.0f));
        out[3] = 1.0f / float(__hip_fp8_e4m3_fnuz(-0.0001f));
        out[4] = float(raw[0]);
        out[5] = float(raw[1]);
    }
}";
    let t = run_kernel(
        src,
        launch(
            Dialect::Hip,
            1,
            &[("out", 6, "0"), ("raw", 2, "u8:0x80,0x40")],
        ),
    )
    .unwrap();
    no_errors(&t);
    let out = floats(&t, "out");
    // 1 / +0 = +inf shows the zero's sign; 0x40 = 0.1000.000 = 2^(8-8) = 1.
    assert_eq!(out[..4], [240.0, 256.0, 256.0, f64::INFINITY]);
    assert!(out[4].is_nan(), "{out:?}");
    assert_eq!(out[5], 1.0);
}

#[test]
fn an_ocp_nan_is_the_byte_the_h200_returns() {
    // Measured on an NVIDIA H200 (nvcc 13.0, sm_90; docs/benchmarks.md, "On real silicon"):
    // every NaN of CUDA's fp8 conversions is 0x7F, whatever the input's sign and the saturation,
    // and a pair packs its first component in the low byte: (NaN, 1.0) → 0x387F,
    // (-NaN, -2.0) → 0xC07F.
    let src = "#include <cuda_fp8.h>
__global__ void k(unsigned* d) {
    d[0] = __nv_cvt_float_to_fp8(NAN, __NV_SATFINITE, __NV_E4M3);
    d[1] = __nv_cvt_float_to_fp8(-NAN, __NV_NOSAT, __NV_E5M2);
    d[2] = __nv_cvt_float2_to_fp8x2(make_float2(NAN, 1.0f), __NV_SATFINITE, __NV_E4M3);
    d[3] = __nv_cvt_float2_to_fp8x2(make_float2(-NAN, -2.0f), __NV_SATFINITE, __NV_E4M3);
    __nv_fp8_e4m3 q(NAN);
    d[4] = q.__x;
    d[5] = __nv_cvt_float_to_fp8(3e9f, __NV_NOSAT, __NV_E4M3);
}";
    let t = run_kernel(src, launch(Dialect::Cuda, 1, &[("d", 6, "7")])).unwrap();
    assert_eq!(
        ints(&t, "d"),
        [
            Some(0x7F),
            Some(0x7F),
            Some(0x387F),
            Some(0xC07F),
            Some(0x7F),
            Some(0x7F)
        ]
    );
}

#[test]
fn cuda_refuses_fp8_operators_hip_reads_the_float() {
    // cuda_fp8.h: `explicit operator float() const`, no arithmetic operators, so nvcc refuses
    // `q[0] * 2.0f`; hip_fp8.h's `operator float()` is implicit: 1.5 (FNUZ E4M3, bias 8:
    // 0.1000.100) times 2 is 3.
    let cuda = "#include <cuda_fp8.h>
__global__ void k(const __nv_fp8_e4m3* q, float* out) { out[0] = q[0] * 2.0f; }";
    let t = run_kernel(
        cuda,
        launch(Dialect::Cuda, 1, &[("q", 1, "1.5"), ("out", 1, "0")]),
    )
    .unwrap();
    let msgs: Vec<String> = t.all_diagnostics().map(|d| d.message.clone()).collect();
    assert!(
        msgs.iter()
            .any(|m| m.contains("explicit") && m.contains("float(q)")),
        "{msgs:?}"
    );
    let hip = "#include <hip/hip_fp8.h>
__global__ void k(const __hip_fp8_e4m3_fnuz* q, float* out) { out[0] = q[0] * 2.0f; }";
    let t = run_kernel(
        hip,
        launch(Dialect::Hip, 1, &[("q", 1, "1.5"), ("out", 1, "0")]),
    )
    .unwrap();
    no_errors(&t);
    assert_eq!(floats(&t, "out"), [3.0]);
}

#[test]
fn vectorized_fp8x4_stores_and_the_storage_member() {
    // TensorRT-LLM's and SGLang's vectorized shape: four floats to one __nv_fp8x4_e4m3 store
    // through a reinterpreted pointer. x = i · 37: 0; 37 → quantum 4 in [32, 64): 9.25 → 36;
    // 74 → quantum 8: 9.25 → 72; 111 → 13.875 → 112; 148 → quantum 16: 9.25 → 144; 185 →
    // 11.56 → 192; 222 → 13.875 → 224; 259 → quantum 32: 8.09 → 256. `.__x` is the encoding:
    // 1.0 = 0x38; the pair (1, -2) = 0xC038 (first component low).
    let src = "#include <cuda_fp8.h>
__global__ void k(const float* x, __nv_fp8_e4m3* q, unsigned* raw) {
    int i = threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(x)[i];
    __nv_fp8x4_e4m3* q4 = reinterpret_cast<__nv_fp8x4_e4m3*>(q);
    q4[i] = __nv_fp8x4_e4m3(v);
    __nv_fp8_e4m3 one(1.0f);
    __nv_fp8x2_e4m3 pair(make_float2(1.0f, -2.0f));
    raw[2 * i] = one.__x;
    raw[2 * i + 1] = pair.__x;
}";
    let t = run_kernel(
        src,
        launch(
            Dialect::Cuda,
            2,
            &[("x", 8, "i*37"), ("q", 8, "0"), ("raw", 4, "0")],
        ),
    )
    .unwrap();
    no_errors(&t);
    assert_eq!(
        floats(&t, "q"),
        [0.0, 36.0, 72.0, 112.0, 144.0, 192.0, 224.0, 256.0]
    );
    assert_eq!(
        ints(&t, "raw"),
        [Some(0x38), Some(0xC038), Some(0x38), Some(0xC038)]
    );
}

#[test]
fn pointers_to_fp8_take_offsets_and_increments() {
    // `q + n` and `p += 2` on a `__nv_fp8_e4m3*` are pointer arithmetic ([expr.add]/4), not the
    // fp8 arithmetic cuda_fp8.h leaves undeclared (it was refused as such). `q` is filled with
    // 0..15, each exact in E4M3 (at most four significant bits: 15 = 1.111·2^3).
    let src = "#include <cuda_fp8.h>
__global__ void k(const __nv_fp8_e4m3* q, float* row_out, float* inc_out) {
    int t = threadIdx.x;
    const __nv_fp8_e4m3* row = q + (t / 4) * 4;
    row_out[t] = float(row[t % 4]);
    const __nv_fp8_e4m3* p = q;
    p += 2;
    ++p;
    inc_out[t] = t < 12 ? float(p[t]) : -1.0f;
}";
    let t = run_kernel(
        src,
        launch(
            Dialect::Cuda,
            16,
            &[
                ("q", 16, "index"),
                ("row_out", 16, "0"),
                ("inc_out", 16, "0"),
            ],
        ),
    )
    .unwrap();
    let want: Vec<f64> = (0..16).map(f64::from).collect();
    assert_eq!(floats(&t, "row_out"), want);
    let inc: Vec<f64> = (0..16)
        .map(|i| if i < 12 { f64::from(i + 3) } else { -1.0 })
        .collect();
    assert_eq!(floats(&t, "inc_out"), inc);
}
