//! The half math functions of `cuda_fp16.h` / `cuda_bf16.h` (`hexp` … `hrint`, the `h2…` pair
//! forms, the bf16 overloads), the saturating `_sat` arithmetic, and inline PTX `cvt` as
//! DeepSpeed's half layer norm, candle's f16 / bf16 helpers and vLLM's int8 quantization write
//! them. Expected values: `models/half_math.py` (Python's `math` in double, rounded to float
//! with `struct` 'f', then to half with 'e' or to bfloat16 by hand: "computed in float, rounded
//! to nearest even"), or by hand beside each test (PTX ISA, cvt).

use crate::support::{ints, no_errors};
use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, KVal, KernelTrace, LaunchConfig};

fn launch(threads: usize, buffers: &[(&str, usize, &str)]) -> LaunchConfig {
    let mut c = LaunchConfig {
        dialect: Some(Dialect::Cuda),
        lanes: Some(32),
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    };
    for (name, len, fill) in buffers {
        c.buffer_len.insert((*name).into(), *len);
        c.args.insert((*name).into(), (*fill).into());
    }
    c
}

fn floats(t: &KernelTrace, name: &str) -> Vec<f64> {
    t.buffer(name)
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64).unwrap_or(f64::NAN))
        .collect()
}

/// The functions in `models/half_math.py`'s order.
const FNS: [&str; 16] = [
    "exp", "exp2", "exp10", "log", "log2", "log10", "sqrt", "rsqrt", "rcp", "sin", "cos", "tanh",
    "floor", "ceil", "trunc", "rint",
];
/// `models/half_math.py`'s inputs.
const XS: &str = "0.25,0.5,1.5,2.5,3.0,7.0";
const INF: f64 = f64::INFINITY;

/// models/half_math.py, table(f16): row f is h<FNS[f]> of XS.
const HALF: [[f64; 6]; 16] = [
    [
        1.2841796875,
        1.6484375,
        4.48046875,
        12.1796875,
        20.078125,
        1097.0,
    ],
    [1.189453125, 1.4140625, 2.828125, 5.65625, 8.0, 128.0],
    [1.7783203125, 3.162109375, 31.625, 316.25, 1000.0, INF],
    [
        -1.38671875,
        -0.693359375,
        0.405517578125,
        0.91650390625,
        1.0986328125,
        1.9462890625,
    ],
    [
        -2.0,
        -1.0,
        0.5849609375,
        1.322265625,
        1.5849609375,
        2.806640625,
    ],
    [
        -0.60205078125,
        -0.301025390625,
        0.1761474609375,
        0.39794921875,
        0.47705078125,
        0.84521484375,
    ],
    [
        0.5,
        0.70703125,
        1.224609375,
        1.5810546875,
        1.732421875,
        2.646484375,
    ],
    [
        2.0,
        1.4140625,
        0.81640625,
        0.63232421875,
        0.5771484375,
        0.3779296875,
    ],
    [
        4.0,
        2.0,
        0.66650390625,
        0.39990234375,
        0.333251953125,
        0.142822265625,
    ],
    [
        0.2474365234375,
        0.4794921875,
        0.99755859375,
        0.5986328125,
        0.14111328125,
        0.6572265625,
    ],
    [
        0.96875,
        0.87744140625,
        0.07073974609375,
        -0.80126953125,
        -0.990234375,
        0.75390625,
    ],
    [
        0.244873046875,
        0.462158203125,
        0.9052734375,
        0.98681640625,
        0.9951171875,
        1.0,
    ],
    [0.0, 0.0, 1.0, 2.0, 3.0, 7.0],
    [1.0, 1.0, 2.0, 3.0, 3.0, 7.0],
    [0.0, 0.0, 1.0, 2.0, 3.0, 7.0],
    [0.0, 0.0, 2.0, 2.0, 3.0, 7.0],
];

/// models/half_math.py, table(bf16).
const BF16: [[f64; 6]; 16] = [
    [1.28125, 1.6484375, 4.46875, 12.1875, 20.125, 1096.0],
    [1.1875, 1.4140625, 2.828125, 5.65625, 8.0, 128.0],
    [1.78125, 3.15625, 31.625, 316.0, 1000.0, 10027008.0],
    [
        -1.3828125,
        -0.69140625,
        0.40625,
        0.91796875,
        1.1015625,
        1.9453125,
    ],
    [-2.0, -1.0, 0.5859375, 1.3203125, 1.5859375, 2.8125],
    [
        -0.6015625,
        -0.30078125,
        0.17578125,
        0.3984375,
        0.4765625,
        0.84375,
    ],
    [0.5, 0.70703125, 1.2265625, 1.578125, 1.734375, 2.640625],
    [2.0, 1.4140625, 0.81640625, 0.6328125, 0.578125, 0.37890625],
    [4.0, 2.0, 0.66796875, 0.400390625, 0.333984375, 0.142578125],
    [
        0.2470703125,
        0.478515625,
        0.99609375,
        0.59765625,
        0.1416015625,
        0.65625,
    ],
    [
        0.96875,
        0.87890625,
        0.07080078125,
        -0.80078125,
        -0.98828125,
        0.75390625,
    ],
    [
        0.2451171875,
        0.462890625,
        0.90625,
        0.98828125,
        0.99609375,
        1.0,
    ],
    [0.0, 0.0, 1.0, 2.0, 3.0, 7.0],
    [1.0, 1.0, 2.0, 3.0, 3.0, 7.0],
    [0.0, 0.0, 1.0, 2.0, 3.0, 7.0],
    [0.0, 0.0, 2.0, 2.0, 3.0, 7.0],
];

/// A kernel of 6 threads: thread i takes x = XS[i] as `T` and y = XS[5 - i]; `s[f·6 + i]` is
/// h<f>(x), `lo` / `hi` the halves of h2<f>((x, y)).
fn kernel(t: &str, from: &str, to: &str, pair: &str, pack: &str) -> String {
    let mut body = format!(
        "__global__ void k(const float* xs, float* s, float* lo, float* hi) {{\n  int i = \
         threadIdx.x;\n  {t} x = {from}(xs[i]);\n  {pair} p = {pack}(x, {from}(xs[5 - i]));\n"
    );
    for (f, name) in FNS.iter().enumerate() {
        body.push_str(&format!(
            "  s[{f} * 6 + i] = {to}(h{name}(x));\n  {pair} q{f} = h2{name}(p);\n  lo[{f} * 6 + \
             i] = __low2float(q{f});\n  hi[{f} * 6 + i] = __high2float(q{f});\n"
        ));
    }
    body.push('}');
    body
}

fn check_table(t: &KernelTrace, want: &[[f64; 6]; 16]) {
    let (s, lo, hi) = (floats(t, "s"), floats(t, "lo"), floats(t, "hi"));
    for (f, row) in want.iter().enumerate() {
        for i in 0..6 {
            assert_eq!(s[f * 6 + i], row[i], "h{}({})", FNS[f], i);
            assert_eq!(lo[f * 6 + i], row[i], "h2{} low, {i}", FNS[f]);
            assert_eq!(hi[f * 6 + i], row[5 - i], "h2{} high, {i}", FNS[f]);
        }
    }
}

fn table_launch() -> LaunchConfig {
    launch(
        6,
        &[
            ("xs", 6, XS),
            ("s", 96, "0"),
            ("lo", 96, "0"),
            ("hi", 96, "0"),
        ],
    )
}

#[test]
fn half_math_functions_are_float_results_rounded_to_half() {
    let src = format!(
        "#include <cuda_fp16.h>\n{}",
        kernel(
            "__half",
            "__float2half",
            "__half2float",
            "__half2",
            "__halves2half2"
        )
    );
    let t = run_kernel(&src, table_launch()).unwrap();
    no_errors(&t);
    check_table(&t, &HALF);
}

#[test]
fn bfloat16_overloads_round_to_bfloat16() {
    let src = format!(
        "#include <cuda_bf16.h>\n{}",
        kernel(
            "__nv_bfloat16",
            "__float2bfloat16",
            "__bfloat162float",
            "__nv_bfloat162",
            "__halves2bfloat162"
        )
    );
    let t = run_kernel(&src, table_launch()).unwrap();
    no_errors(&t);
    check_table(&t, &BF16);
}

#[test]
fn deepspeed_and_candle_shapes_carry_an_unstated_bound() {
    // models/half_math.py, q_repro(): x = 0.25: h2rsqrt 2, hexp 1.2841796875, sum
    // 3.2841796875 ties between halves 3.283203125 and 3.28515625 (step 2^-9 in [2, 4)) and
    // rounds to the even one, 3.28515625; x = 1: 1 + 2.71875 = 3.71875.
    let src = "\
#include <cuda_fp16.h>
__global__ void k(const half* x, half* out) {
  half2 v = __halves2half2(x[threadIdx.x], x[threadIdx.x]);
  half2 r = h2rsqrt(v);
  out[threadIdx.x] = __hadd(__low2half(r), hexp(x[threadIdx.x]));
}";
    let t = run_kernel(src, launch(2, &[("x", 2, "0.25,1.0"), ("out", 2, "0")])).unwrap();
    no_errors(&t);
    assert_eq!(floats(&t, "out"), vec![3.28515625, 3.71875]);
    // The CUDA Math API gives no error bound: the value says so, with no ulp number, and
    // __hadd keeps the note of its inexact operand.
    let out = t.buffer("out").unwrap();
    let note = out[0].as_ref().and_then(KVal::approx).expect("a note");
    assert_eq!(note.ulp(), None);
    assert!(
        note.note().contains("does not bound") && note.note().contains("CUDA Math API"),
        "{}",
        note.note()
    );
}

#[test]
fn saturating_arithmetic_clamps_to_zero_one() {
    // 0.75 + 0.5 = 1.25 → 1; 0.25 - 0.5 → +0 (and 0.5 - 0.25 = 0.25 stays); 0.75·0.5 =
    // 0.375; 3·0.5 = 1.5 → 1; fma 0.5·0.5 + 0.25 = 0.5, 2·2 + 0.5 = 4.5 → 1; a NaN sum → +0.
    let src = "\
#include <cuda_fp16.h>
__global__ void k(float* o) {
  __half a = __float2half(0.75f), b = __float2half(0.5f), c = __float2half(0.25f);
  o[0] = __half2float(__hadd_sat(a, b));
  __half2 d = __hsub2_sat(__halves2half2(c, b), __halves2half2(b, c));
  o[1] = __low2float(d);
  o[2] = __high2float(d);
  o[3] = __half2float(__hmul_sat(a, b));
  __half2 m = __hmul2_sat(__halves2half2(__float2half(3.0f), b), __halves2half2(b, b));
  o[4] = __low2float(m);
  o[5] = __high2float(m);
  __half2 f = __hfma2_sat(__halves2half2(b, __float2half(2.0f)),
                          __halves2half2(b, __float2half(2.0f)), __halves2half2(c, b));
  o[6] = __low2float(f);
  o[7] = __high2float(f);
  __half inf = __ushort_as_half(0x7c00);
  o[8] = __half2float(__hadd_sat(inf, __hneg(inf)));
  o[9] = __half2float(__hfma_sat(a, b, c));
}";
    let t = run_kernel(src, launch(1, &[("o", 10, "9")])).unwrap();
    no_errors(&t);
    let o = floats(&t, "o");
    assert_eq!(
        o,
        vec![1.0, 0.0, 0.25, 0.375, 1.0, 0.25, 0.5, 1.0, 0.0, 0.625]
    );
    assert!(o[1].is_sign_positive() && o[8].is_sign_positive());
}

const VLLM_INT8: &str = "\
static inline __device__ int8_t float_to_int8_rn(float x) {
  uint32_t dst;
  asm volatile(\"cvt.rni.sat.s8.f32 %0, %1;\" : \"=r\"(dst) : \"f\"(x));
  return reinterpret_cast<const int8_t&>(dst);
}
__global__ void k(const float* x, int8_t* out) {
  out[threadIdx.x] = float_to_int8_rn(x[threadIdx.x]);
}";

#[test]
fn vllm_int8_quantization_cvt_rounds_to_even_and_saturates() {
    // PTX ISA, cvt: .rni rounds to the nearest integer, ties to even: 2.5 → 2, -2.5 → -2,
    // 0.5 → 0, 1.5 → 2; a float-to-integer cvt clamps to the destination range: 300 → 127,
    // -1000 → -128; the s8 result sign-extended in the 32-bit register, whose low byte the
    // reference cast reads.
    let t = run_kernel(
        VLLM_INT8,
        launch(
            6,
            &[("x", 6, "2.5,-2.5,300.0,-1000.0,0.5,1.5"), ("out", 6, "0")],
        ),
    )
    .unwrap();
    no_errors(&t);
    assert_eq!(ints(&t, "out"), [2, -2, 127, -128, 0, 2].map(Some).to_vec());
}

#[test]
fn cvt_forms_of_int8_and_half_paths() {
    // s[0..3]: cvt.rni.sat.s32.f32 of 3e10 → 2147483647 (clamped), of -7.5 → -8 (tie to
    // even), of NaN → 0. s[3], s[4]: cvt.sat.s8.s32 of 200 → 127 and of -129 → -128. s[5]:
    // cvt.rzi.s32.f32 of -7.5 → -7; s[6]: cvt.rmi → -8; s[7]: cvt.rpi of 7.25 → 8.
    // h[0]: cvt.rn.f16.f32 of 0.1 → bits 0x2e66 = 11878 (0.0999755859375, 1.1001100110 ×
    // 2^-4: the next bit 0 rounds down), h[1]: cvt.f32.f16 back → 0.0999755859375.
    let src = "\
__global__ void k(int* s, float* h) {
  int r;
  float big = 3e10f, neg = -7.5f, nan = __int_as_float(0x7fc00000), q = 7.25f;
  asm(\"cvt.rni.sat.s32.f32 %0, %1;\" : \"=r\"(r) : \"f\"(big));   s[0] = r;
  asm(\"cvt.rni.sat.s32.f32 %0, %1;\" : \"=r\"(r) : \"f\"(neg));   s[1] = r;
  asm(\"cvt.rni.s32.f32 %0, %1;\" : \"=r\"(r) : \"f\"(nan));       s[2] = r;
  int a = 200, b = -129;
  unsigned u;
  asm(\"cvt.sat.s8.s32 %0, %1;\" : \"=r\"(u) : \"r\"(a));  s[3] = (signed char)u;
  asm(\"cvt.sat.s8.s32 %0, %1;\" : \"=r\"(u) : \"r\"(b));  s[4] = (signed char)u;
  asm(\"cvt.rzi.s32.f32 %0, %1;\" : \"=r\"(r) : \"f\"(neg));   s[5] = r;
  asm(\"cvt.rmi.s32.f32 %0, %1;\" : \"=r\"(r) : \"f\"(neg));   s[6] = r;
  asm(\"cvt.rpi.s32.f32 %0, %1;\" : \"=r\"(r) : \"f\"(q));     s[7] = r;
  unsigned short bits;
  asm(\"{ cvt.rn.f16.f32 %0, %1; }\" : \"=h\"(bits) : \"f\"(0.1f));
  float back;
  asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(back) : \"h\"(bits));
  h[0] = bits;
  h[1] = back;
}";
    let t = run_kernel(src, launch(1, &[("s", 8, "9"), ("h", 2, "0")])).unwrap();
    no_errors(&t);
    assert_eq!(
        ints(&t, "s"),
        [2147483647, -8, 0, 127, -128, -7, -8, 8].map(Some).to_vec()
    );
    assert_eq!(floats(&t, "h"), vec![11878.0, 0.0999755859375]);
}

#[test]
fn unknown_instructions_and_cvt_forms_stay_refused_by_name() {
    for (asm, words) in [
        ("abs.f32 %0, %1;", "`abs.f32` is not emulated"),
        // add.f32 runs (crosslane_kernel::ptx_ops), but not into a 32-bit integer register.
        (
            "add.f32 %0, %1, %1;",
            "the destination of `add.f32` is an .f32 register",
        ),
        ("cvt.rn.relu.f16.f32 %0, %1;", "`.relu` is not emulated"),
        ("cvt.s32.f32 %0, %1;", "needs an integer rounding"),
    ] {
        let src = format!(
            "__global__ void k(float* o) {{ unsigned r; float x = o[0];\n  asm(\"{asm}\" : \
             \"=r\"(r) : \"f\"(x)); o[0] = r; }}"
        );
        let e = run_kernel(&src, launch(1, &[("o", 1, "0")])).unwrap_err();
        assert!(e.to_string().contains(words), "{asm}: {e}");
    }
}

/// CUDA Math API, "Half Precision Conversion and Data Movement" / "Bfloat16 Precision
/// Conversion": the `_rz`, `_rd`, `_ru` conversions round toward zero, −∞, +∞, and
/// `__double2half` rounds the double once to nearest even. By hand: 1 + 2^-11 is halfway
/// between 1 and 1 + 2^-10 (half has 10 fraction bits), so up gives 1.0009765625 and
/// down of its negative -1.0009765625; 70000 toward zero is the largest half, 65504;
/// 1.0048828125 = 1 + 2^-8 + 2^-10 toward zero in bf16 (7 fraction bits) is 1; the half
/// nearest 0.1 is 0.0999755859375 (1638 · 2^-14); 1 + 2^-11 + 2^-30 as a double is past the
/// halfway point, so rounded once it is 1 + 2^-10 (through float it would be the tie 1 + 2^-11
/// and round to the even 1).
#[test]
fn directed_half_and_bfloat16_conversions() {
    let src = "#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void k(float* out) {
  float x = 1.0f + 0.00048828125f;
  out[0] = __half2float(__float2half_ru(x));
  out[1] = __half2float(__float2half_rz(70000.0f));
  out[2] = __bfloat162float(__float2bfloat16_rz(1.0048828125f));
  out[3] = __half2float(__double2half(0.1));
  out[4] = __half2float(__float2half_rd(-x));
  out[5] = __half2float(__double2half(1.0 + 0.00048828125 + 9.313225746154785e-10));
  out[6] = __bfloat162float(__float2bfloat16_ru(1.0048828125f));
}";
    let t = run_kernel(src, launch(1, &[("out", 7, "0")])).unwrap();
    no_errors(&t);
    assert_eq!(
        floats(&t, "out"),
        [
            1.0009765625,
            65504.0,
            1.0,
            0.0999755859375,
            -1.0009765625,
            1.0009765625,
            1.0078125
        ]
    );
}
