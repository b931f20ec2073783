//! The constants kernels take from `float.h` and `limits.h` (C11 5.2.4.2.1-2), `math.h`
//! (C11 7.12p3-5: `INFINITY`, `NAN`, `HUGE_VAL*` are `float` / `double` as there; the POSIX
//! `M_*` constants are `double`), and CUDA's `math_constants.h` (`CUDART_*`: the `_F` forms are
//! `float`). HIP (`hip/hip_math_constants.h`: `HIP_INF_F`, …) uses the same values.

use crate::types::{KVal, Scalar};

/// The value of constant `name`, if it is one.
pub fn constant(name: &str) -> Option<KVal> {
    let f = |x: f32| KVal::float(Scalar::F32, f64::from(x));
    let d = |x: f64| KVal::float(Scalar::F64, x);
    let i = |n: i128| KVal::int(Scalar::I32, n);
    use std::f64::consts as c;
    Some(match name {
        "FLT_MAX" => f(f32::MAX),
        "FLT_MIN" => f(f32::MIN_POSITIVE),
        "FLT_EPSILON" => f(f32::EPSILON),
        "FLT_TRUE_MIN" => f(f32::from_bits(1)),
        "FLT_MANT_DIG" => i(24),
        "FLT_MAX_EXP" => i(128),
        "FLT_MIN_EXP" => i(-125),
        "DBL_MAX" => d(f64::MAX),
        "DBL_MIN" => d(f64::MIN_POSITIVE),
        "DBL_EPSILON" => d(f64::EPSILON),
        "DBL_TRUE_MIN" => d(f64::from_bits(1)),
        "DBL_MANT_DIG" => i(53),
        "INFINITY" | "HUGE_VALF" | "CUDART_INF_F" | "HIP_INF_F" => f(f32::INFINITY),
        "NAN" | "CUDART_NAN_F" | "HIP_NAN_F" => f(f32::NAN),
        "HUGE_VAL" | "CUDART_INF" | "HIP_INF" => d(f64::INFINITY),
        "CUDART_NAN" | "HIP_NAN" => d(f64::NAN),
        "CUDART_PI_F" | "HIP_PI_F" => f(std::f32::consts::PI),
        "CUDART_PI" | "HIP_PI" | "M_PI" => d(c::PI),
        "CUDART_PIO2_F" => f(std::f32::consts::FRAC_PI_2),
        "CUDART_PIO2" | "M_PI_2" => d(c::FRAC_PI_2),
        "M_PI_4" => d(c::FRAC_PI_4),
        "M_1_PI" => d(c::FRAC_1_PI),
        "M_2_PI" => d(c::FRAC_2_PI),
        "M_2_SQRTPI" => d(c::FRAC_2_SQRT_PI),
        "CUDART_LN2_F" => f(std::f32::consts::LN_2),
        "CUDART_LN2" | "M_LN2" => d(c::LN_2),
        "M_LN10" => d(c::LN_10),
        "CUDART_L2E_F" => f(std::f32::consts::LOG2_E),
        "CUDART_L2E" | "M_LOG2E" => d(c::LOG2_E),
        "M_LOG10E" => d(c::LOG10_E),
        "M_E" => d(c::E),
        "CUDART_SQRT_2_F" => f(std::f32::consts::SQRT_2),
        "CUDART_SQRT_2" | "M_SQRT2" => d(c::SQRT_2),
        "CUDART_SQRT_HALF_F" => f(std::f32::consts::FRAC_1_SQRT_2),
        "CUDART_SQRT_HALF" | "M_SQRT1_2" => d(c::FRAC_1_SQRT_2),
        "CUDART_ZERO_F" => f(0.0),
        "CUDART_ONE_F" => f(1.0),
        // CANN asc-devkit `simt_api/math_constants.h`, which Ascend C SIMT code includes:
        // `#define ASCRT_INF_F __builtin_inff()`, `ASCRT_PI_F 3.141592653589793f`, … as
        // written there (the `_F` forms `float` literals, the `_U` ones `unsigned int`;
        // `ASCRT_MIN_VAL_S` is written `0x80000000`, a hexadecimal literal that does not fit
        // `int` and so is `unsigned int` by [lex.icon]/2).
        "ASCRT_INF_F" => f(f32::INFINITY),
        "ASCRT_PI_F" => f(std::f32::consts::PI),
        "ASCRT_PIO2_F" => f(std::f32::consts::FRAC_PI_2),
        "ASCRT_PIO4_F" => f(std::f32::consts::FRAC_PI_4),
        "ASCRT_PIO8_F" => f(std::f32::consts::FRAC_PI_8),
        "ASCRT_SCALAR_LN2_F" => f(std::f32::consts::LN_2),
        "ASCRT_2OPI_F" => f(0.636_619_75),
        "ASCRT_MINUS_PIO2_HI_F" => f(-1.570_796_4),
        "ASCRT_MINUS_PIO2_LO_F" => f(4.371_139e-8),
        "ASCRT_MAN_BIT_FLOAT_U" => KVal::int(Scalar::U32, 0x7F_FFFF),
        "ASCRT_EXP_BIT_FLOAT_U" | "ASCRT_INF_U" => KVal::int(Scalar::U32, 0x7F80_0000),
        "ASCRT_NEG_SIGN_BIT_U" | "ASCRT_MIN_VAL_S" => KVal::int(Scalar::U32, 0x8000_0000),
        "ASCRT_INT32_INF_S" => i(2_139_095_040),
        // cuda_fp8.h's enums `__nv_saturation_t` and `__nv_fp8_interpretation_t`, in
        // declaration order (CUDA Math API, "FP8 Conversion and Data Movement").
        "__NV_NOSAT" | "__NV_E4M3" => i(0),
        "__NV_SATFINITE" | "__NV_E5M2" => i(1),
        // hip_fp8.h's `__hip_saturation_t` and `__hip_fp8_interpretation_t`.
        n if crate::hip_fp8_cvt::constant(n).is_some() => i(crate::hip_fp8_cvt::constant(n)?),
        "INT_MAX" => i(i128::from(i32::MAX)),
        "INT_MIN" => i(i128::from(i32::MIN)),
        "UINT_MAX" => KVal::int(Scalar::U32, i128::from(u32::MAX)),
        "LLONG_MAX" => KVal::int(Scalar::I64, i128::from(i64::MAX)),
        "LLONG_MIN" => KVal::int(Scalar::I64, i128::from(i64::MIN)),
        "ULLONG_MAX" => KVal::int(Scalar::U64, i128::from(u64::MAX)),
        _ => return None,
    })
}

/// The `math.h` constant a clang / GCC constant builtin call stands for (`__builtin_inff()` is
/// `INFINITY`; GCC manual, "Other Built-in Functions": `__builtin_inf` is `double` positive
/// infinity, the `f` suffix `float`, `__builtin_huge_val` the same values, `__builtin_nan("")` a
/// quiet NaN whose string chooses a payload no value here depends on).
pub fn builtin_call(w: &str) -> Option<&'static str> {
    Some(match w {
        "__builtin_inff" | "__builtin_huge_valf" => "INFINITY",
        "__builtin_inf" | "__builtin_huge_val" => "HUGE_VAL",
        "__builtin_nanf" => "NAN",
        "__builtin_nan" => "CUDART_NAN",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_the_c_and_cuda_ones() {
        // FLT_MAX = (2 − 2^-23) · 2^127 (C11 5.2.4.2.2p12).
        assert_eq!(
            constant("FLT_MAX").and_then(|k| k.as_f64()),
            Some((2.0 - 2f64.powi(-23)) * 2f64.powi(127))
        );
        assert_eq!(
            constant("FLT_EPSILON").and_then(|k| k.as_f64()),
            Some(2f64.powi(-23))
        );
        assert_eq!(
            constant("INFINITY").map(|k| k.val_ty().scalar),
            Some(Scalar::F32)
        );
        assert_eq!(
            constant("M_PI").map(|k| k.val_ty().scalar),
            Some(Scalar::F64)
        );
        assert!(constant("CUDART_NAN_F")
            .and_then(|k| k.as_f64())
            .unwrap()
            .is_nan());
        assert_eq!(constant("x"), None);
    }
}
