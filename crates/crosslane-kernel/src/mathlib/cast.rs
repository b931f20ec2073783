//! The float-to-integer type-casting intrinsics of the CUDA Math API ("Type Casting
//! Intrinsics"): `__float2int_rn`, `__float2uint_rz`, `__float2ll_ru`, `__float2ull_rd`,
//! `__double2int_rn`, … — a `float` or `double` converted to `int`, `unsigned int`, `long long`
//! or `unsigned long long`, rounded to nearest even (`_rn`), toward zero (`_rz`), up (`_ru`) or
//! down (`_rd`).
//!
//! **Out of range and NaN.** The CUDA Math API defines each of these by a PTX `cvt` with an
//! integer rounding (`cvt.rni.s32.f32`, …), and PTX ISA, "Data Movement and Conversion
//! Instructions: cvt", says "For float-to-integer conversions, the result is clamped to the
//! destination range by default" and gives 0 for a NaN source: the result is the rounded
//! value clamped to the destination type, NaN 0 ([`Rule::Saturate`]). The Ascend C SIMT API
//! documents the same for its same-named functions (`__float2int_rn`: NaN gives 0, +inf
//! 2147483647, −inf −2147483648), and MACA follows CUDA.
//!
//! HIP defines the same names differently: its device library (ROCm, "HIP math API", type
//! casting intrinsics; `amd_device_functions.h`) writes each as the C++ conversion of the
//! rounded value (`(int)rintf(x)`), and C++17 \[conv.fpint\]/1 leaves that conversion
//! undefined "if the truncated value cannot be represented in the destination type"; the HIP
//! documentation states no range rule of its own. So under HIP an out-of-range or NaN
//! argument stays undefined, with that reason ([`Rule::CxxConversion`]).
//!
//! A plain C++ cast `(int)f` is not one of these and stays undefined out of range everywhere
//! (C++17 \[conv.fpint\]).

use crate::types::{KVal, Scalar};

/// How a value outside the destination type converts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// PTX `cvt` (CUDA, MACA, Ascend C SIMT): clamped to the destination range, NaN 0.
    Saturate,
    /// A C++ conversion (HIP's definition): undefined out of range or for NaN.
    CxxConversion,
}

/// The source type, the destination type and the rounding suffix of a casting intrinsic's
/// name; `None` for any other name.
fn parse(name: &str) -> Option<(Scalar, Scalar, &str)> {
    let (src, rest) = if let Some(r) = name.strip_prefix("__float2") {
        (Scalar::F32, r)
    } else {
        (Scalar::F64, name.strip_prefix("__double2")?)
    };
    let (dst, mode) = rest.split_once('_')?;
    let dst = match dst {
        "int" => Scalar::I32,
        "uint" => Scalar::U32,
        "ll" => Scalar::I64,
        "ull" => Scalar::U64,
        _ => return None,
    };
    matches!(mode, "rn" | "rz" | "ru" | "rd").then_some((src, dst, mode))
}

/// Whether `name` is a float-to-integer casting intrinsic of this module.
pub fn is_cast(name: &str) -> bool {
    parse(name).is_some()
}

/// The integer type intrinsic `name` returns (CUDA Math API, "Type Casting Intrinsics":
/// `int`, `unsigned int`, `long long int`, `unsigned long long int`); `None` for another name.
pub fn result_type(name: &str) -> Option<Scalar> {
    parse(name).map(|(_, dst, _)| dst)
}

/// The C++ spelling of an integer destination type, for messages.
fn spelled(dst: Scalar) -> &'static str {
    match dst {
        Scalar::I32 => "int",
        Scalar::U32 => "unsigned int",
        Scalar::I64 => "long long int",
        _ => "unsigned long long int",
    }
}

/// Applies casting intrinsic `name` to one lane's argument under `rule`; `None` when `name`
/// is not one.
///
/// # Errors
/// A missing or non-numeric argument; under [`Rule::CxxConversion`] a NaN or a rounded value
/// outside the destination type (undefined, the message says why).
pub fn call(name: &str, args: &[KVal], rule: Rule) -> Option<Result<KVal, String>> {
    let (src, dst, mode) = parse(name)?;
    Some(convert(name, args, src, dst, mode, rule))
}

fn convert(
    name: &str,
    args: &[KVal],
    src: Scalar,
    dst: Scalar,
    mode: &str,
    rule: Rule,
) -> Result<KVal, String> {
    let x = args
        .first()
        .and_then(KVal::as_f64)
        .ok_or_else(|| format!("`{name}` takes one number"))?;
    // The parameter is `float` for the `__float2` forms: a `double` argument converts to it
    // first (rounded to nearest, C++17 [conv.double]).
    let x = if src == Scalar::F32 {
        f64::from(x as f32)
    } else {
        x
    };
    let r = match mode {
        "rn" => x.round_ties_even(),
        "ru" => x.ceil(),
        "rd" => x.floor(),
        _ => x.trunc(),
    };
    let (lo, hi) = match dst {
        Scalar::I32 => (i128::from(i32::MIN), i128::from(i32::MAX)),
        Scalar::U32 => (0, i128::from(u32::MAX)),
        Scalar::I64 => (i128::from(i64::MIN), i128::from(i64::MAX)),
        _ => (0, i128::from(u64::MAX)),
    };
    let fits = !r.is_nan() && r >= lo as f64 && r <= hi as f64 && (r as i128) <= hi;
    if fits {
        return Ok(KVal::int(dst, r as i128));
    }
    match rule {
        Rule::Saturate => Ok(KVal::int(
            dst,
            if r.is_nan() {
                0
            } else if r < 0.0 {
                lo
            } else {
                hi
            },
        )),
        Rule::CxxConversion => Err(format!(
            "`{name}`: {x} rounded does not fit in `{}`: HIP defines `{name}` as a C++ \
             conversion, undefined out of range or for NaN (C++17 [conv.fpint]; ROCm, HIP \
             math API, type casting intrinsics)",
            spelled(dst)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sat(name: &str, x: f64) -> i128 {
        let ty = if name.starts_with("__float2") {
            Scalar::F32
        } else {
            Scalar::F64
        };
        call(name, &[KVal::float(ty, x)], Rule::Saturate)
            .unwrap()
            .unwrap()
            .as_int()
            .unwrap()
    }

    /// PTX ISA, cvt: clamped to the destination range, NaN 0. 2^63 as a double is
    /// 9223372036854775808, one above i64::MAX, so it clamps; −0.5 to unsigned rounds up
    /// (`_ru`) to 0, which fits.
    #[test]
    fn clamps_to_the_destination() {
        assert_eq!(sat("__float2int_rn", 3e9), 2_147_483_647);
        assert_eq!(sat("__float2int_rz", f64::NEG_INFINITY), -2_147_483_648);
        assert_eq!(sat("__float2uint_rd", -1.0), 0);
        assert_eq!(sat("__float2uint_ru", -0.5), 0);
        assert_eq!(sat("__float2ll_rn", f64::NAN), 0);
        assert_eq!(
            sat("__double2ll_rz", 9_223_372_036_854_775_808.0),
            i128::from(i64::MAX)
        );
        assert_eq!(sat("__double2ull_rn", 1e30), i128::from(u64::MAX));
        assert_eq!(sat("__double2int_rn", 2.5), 2);
        assert_eq!(sat("__double2uint_ru", 2.1), 3);
    }

    #[test]
    fn hip_leaves_out_of_range_undefined() {
        let r = call(
            "__float2int_rn",
            &[KVal::float(Scalar::F32, 3e9)],
            Rule::CxxConversion,
        );
        assert!(r.unwrap().unwrap_err().contains("conv.fpint"));
        let ok = call(
            "__float2int_rn",
            &[KVal::float(Scalar::F32, -2.5)],
            Rule::CxxConversion,
        );
        assert_eq!(ok.unwrap().unwrap().as_int(), Some(-2));
        assert!(parse("__float2half_rn").is_none() && parse("__float2int_rna").is_none());
    }
}
