//! The integer limits of `<climits>` and `<cstdint>` as named constants, and
//! `std::numeric_limits<T>` (C++17 [numeric.limits.members]) for every scalar type, as typed
//! literals at their use.
//!
//! Values: CUDA and HIP device code follows the host's data model (CUDA C++ Programming Guide,
//! "C++ Language Support": the device types have the host's sizes), LP64 on Linux: `char` 8
//! bits, `short` 16, `int` 32, `long` and `long long` 64. `char` is signed (the x86-64 and
//! AArch64 Linux ABIs clang and nvcc follow: signed on x86-64; this interpreter reads `char` as
//! `int8_t`). Float limits are IEEE 754 binary16/bfloat16/binary32/binary64 ([basic.fundamental]
//! with `is_iec559`): `max` the largest finite, `min` the smallest normal, `lowest` `-max`,
//! `epsilon` 2^(1-p), `denorm_min` the smallest subnormal.

use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{Scalar, Ty, UnOp, ValTy};
use crate::KernelError;

/// A `<climits>` / `<cstdint>` macro's value and type (the macros' types are the promoted
/// ones: `INT8_MAX` is an `int`, C17 7.20.2 as C++17 [cstdint.syn] incorporates it).
pub(super) fn limit_macro(name: &str) -> Option<(i128, Scalar)> {
    use Scalar::*;
    Some(match name {
        "CHAR_BIT" => (8, I32),
        "SCHAR_MIN" | "CHAR_MIN" | "INT8_MIN" => (-128, I32),
        "SCHAR_MAX" | "CHAR_MAX" | "INT8_MAX" => (127, I32),
        "UCHAR_MAX" | "UINT8_MAX" => (255, I32),
        "SHRT_MIN" | "INT16_MIN" => (-32768, I32),
        "SHRT_MAX" | "INT16_MAX" => (32767, I32),
        "USHRT_MAX" | "UINT16_MAX" => (65535, I32),
        "INT_MIN" | "INT32_MIN" => (i32::MIN.into(), I32),
        "INT_MAX" | "INT32_MAX" => (i32::MAX.into(), I32),
        "UINT_MAX" | "UINT32_MAX" => (u32::MAX.into(), U32),
        "LONG_MIN" | "LLONG_MIN" | "INT64_MIN" => (i64::MIN.into(), I64),
        "LONG_MAX" | "LLONG_MAX" | "INT64_MAX" => (i64::MAX.into(), I64),
        "ULONG_MAX" | "ULLONG_MAX" | "UINT64_MAX" | "SIZE_MAX" => (u64::MAX.into(), U64),
        _ => return None,
    })
}

/// `value` as an expression of type `ty` at `span`.
pub(super) fn typed_int(value: i128, ty: Scalar, span: Span) -> Expr {
    let lit = |v: u64| {
        Expr::new(
            ExprKind::Int {
                value: v,
                unsigned: true,
                long: true,
            },
            span,
        )
    };
    let e = if value < 0 {
        // -(2^63) and the like: the magnitude as unsigned 64-bit, negated, then converted.
        Expr::new(
            ExprKind::Unary(UnOp::Neg, Box::new(lit(value.unsigned_abs() as u64))),
            span,
        )
    } else {
        lit(value as u64)
    };
    Expr::new(
        ExprKind::Cast(Ty::Val(ValTy::scalar(ty)), Box::new(e)),
        span,
    )
}

/// `std::numeric_limits<T>::member` of scalar `t`: an integer's value, or a float's.
fn numeric_limit(t: Scalar, member: &str) -> Option<Result<i128, f64>> {
    if t.is_float() {
        // (max, min normal, epsilon, smallest subnormal) per IEEE 754 format.
        let (max, min, eps, denorm) = match t {
            Scalar::F16 => (65504.0, 2f64.powi(-14), 2f64.powi(-10), 2f64.powi(-24)),
            Scalar::Bf16 => (
                f64::from(f32::from_bits(0x7f7f_0000)),
                f64::from(f32::MIN_POSITIVE),
                2f64.powi(-7),
                2f64.powi(-133),
            ),
            // The 8-bit floats ([`crate::fp8`]): OFP8 Table 1 (E4M3: max 448, min normal 2^-6,
            // min subnormal 2^-9; E5M2: 57344, 2^-14, 2^-16) and the FNUZ formats (bias 8 and
            // 16: E4M3 max 240, min normal 2^-7, subnormal 2^-10; E5M2 57344, 2^-15, 2^-17);
            // epsilon 2^-mantissa bits.
            Scalar::E4M3 => (448.0, 2f64.powi(-6), 2f64.powi(-3), 2f64.powi(-9)),
            Scalar::E5M2 => (57344.0, 2f64.powi(-14), 2f64.powi(-2), 2f64.powi(-16)),
            Scalar::E4M3Fnuz => (240.0, 2f64.powi(-7), 2f64.powi(-3), 2f64.powi(-10)),
            Scalar::E5M2Fnuz => (57344.0, 2f64.powi(-15), 2f64.powi(-2), 2f64.powi(-17)),
            Scalar::F32 => (
                f64::from(f32::MAX),
                f64::from(f32::MIN_POSITIVE),
                f64::from(f32::EPSILON),
                2f64.powi(-149),
            ),
            _ => (f64::MAX, f64::MIN_POSITIVE, f64::EPSILON, 2f64.powi(-1074)),
        };
        return Some(Err(match member {
            "max" => max,
            "min" => min,
            "lowest" => -max,
            "epsilon" => eps,
            "denorm_min" => denorm,
            // E4M3 and the FNUZ formats have no infinity: no value to give.
            "infinity" if crate::fp8::format(t).is_some_and(|f| !f.inf) => return None,
            "infinity" => f64::INFINITY,
            "quiet_NaN" | "signaling_NaN" => f64::NAN,
            "round_error" => 0.5,
            _ => return None,
        }));
    }
    let bits = t.bits();
    let (lo, hi) = if t == Scalar::Bool {
        (0, 1)
    } else if t.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    Some(Ok(match member {
        "max" => hi,
        "min" | "lowest" => lo,
        // Integers: epsilon, round_error, infinity, NaNs and denorm_min are 0
        // ([numeric.limits.members]).
        "epsilon" | "round_error" | "infinity" | "quiet_NaN" | "signaling_NaN" | "denorm_min" => 0,
        _ => return None,
    }))
}

impl Parser<'_> {
    /// `numeric_limits<T>::member()` from the word `numeric_limits` (its `std::` already read):
    /// the member's value as a literal of type `T`. `digits`, `is_signed` and the other data
    /// members are read as constants too.
    pub(super) fn numeric_limits(&mut self, span: Span) -> PResult<Expr> {
        self.bump(); // numeric_limits
        self.expect_punct("<")?;
        let base = self.base_type()?;
        self.expect_punct(">")?;
        self.expect_punct("::")?;
        let m_at = self.span();
        let member = self.ident()?;
        let Ty::Val(v) = base else {
            return Err(KernelError::new(
                span.line,
                span.col,
                "`std::numeric_limits` of a pointer or void is not supported; name a scalar type",
            ));
        };
        let t = v.scalar;
        let data = match member.as_str() {
            "is_signed" => Some(i128::from(t.is_signed() || t.is_float())),
            "is_integer" => Some(i128::from(!t.is_float())),
            "digits" => Some(match t {
                Scalar::F16 => 11,
                Scalar::Bf16 => 8,
                Scalar::E4M3 | Scalar::E4M3Fnuz => 4,
                Scalar::E5M2 | Scalar::E5M2Fnuz => 3,
                Scalar::F32 => 24,
                Scalar::F64 => 53,
                _ if t.is_signed() => i128::from(t.bits()) - 1,
                _ => i128::from(t.bits()),
            }),
            _ => None,
        };
        if let Some(d) = data {
            let ty = if member == "digits" {
                Scalar::I32
            } else {
                Scalar::Bool
            };
            return Ok(typed_int(d, ty, span));
        }
        if !(self.eat("(") && self.eat(")")) {
            return self.err("`()` after the `numeric_limits` member");
        }
        match numeric_limit(t, &member) {
            Some(Ok(n)) => Ok(typed_int(n, t, span)),
            Some(Err(x)) => Ok(Expr::new(
                ExprKind::Cast(
                    Ty::Val(ValTy::scalar(t)),
                    Box::new(Expr::new(
                        ExprKind::Float {
                            value: x,
                            single: false,
                        },
                        span,
                    )),
                ),
                span,
            )),
            None => Err(KernelError::new(
                m_at.line,
                m_at.col,
                format!(
                    "`std::numeric_limits<{}>::{member}` is not supported; use max, min, \
                     lowest, epsilon, infinity, quiet_NaN, denorm_min, digits or is_signed",
                    t.name()
                ),
            )),
        }
    }
}
