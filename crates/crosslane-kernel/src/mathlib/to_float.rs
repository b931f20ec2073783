//! The integer-to-floating-point type-casting intrinsics of the CUDA Math API ("Type Casting
//! Intrinsics"), which HIP's device library defines under the same names:
//! `__int2float_rn`/`_rz`/`_ru`/`_rd`, `__uint2float_*`, `__ll2float_*`, `__ull2float_*`,
//! `__ll2double_*`, `__ull2double_*`, and the exact `__int2double_rn` / `__uint2double_rn`.
//!
//! Each converts "in round-to-nearest-even mode" (`_rn`), "in round-towards-zero mode" (`_rz`),
//! "in round-up mode" (`_ru`, toward +∞) or "in round-down mode" (`_rd`, toward −∞): the
//! result is the floating-point value of that direction nearest the integer (IEEE 754-2019
//! §4.3, the rounding-direction attributes; PTX ISA, `cvt` with `.rn`/`.rz`/`.rp`/`.rm`). An
//! integer the destination holds exactly converts exactly in every mode; a 32-bit integer of
//! more than 24 significant bits, or a 64-bit one of more than 24 (float) or 53 (double), is
//! where the modes differ. Every integer type's range fits in both destinations, so no mode
//! overflows.
//!
//! The argument is converted to the parameter's type first (C++17 \[conv.integral\]: modulo
//! 2^N for the unsigned forms, the two's complement value for the signed ones), as a call
//! with an `int` argument to `__uint2float_rn(unsigned int)` does.

use crate::types::{KVal, Scalar};

/// The parameter type, the result type and the rounding suffix of intrinsic `name`; `None`
/// for a name not of this module.
fn parse(name: &str) -> Option<(Scalar, Scalar, &str)> {
    let rest = name.strip_prefix("__")?;
    let (src, rest) = rest.split_once('2')?;
    let src = match src {
        "int" => Scalar::I32,
        "uint" => Scalar::U32,
        "ll" => Scalar::I64,
        "ull" => Scalar::U64,
        _ => return None,
    };
    let (dst, mode) = rest.split_once('_')?;
    let dst = match dst {
        "float" => Scalar::F32,
        "double" => Scalar::F64,
        _ => return None,
    };
    if !matches!(mode, "rn" | "rz" | "ru" | "rd") {
        return None;
    }
    // A 32-bit integer is exact in a double: the API has only the `_rn` form of those.
    if dst == Scalar::F64 && matches!(src, Scalar::I32 | Scalar::U32) && mode != "rn" {
        return None;
    }
    Some((src, dst, mode))
}

/// Whether `name` is an integer-to-float casting intrinsic of this module.
pub fn is_to_float(name: &str) -> bool {
    parse(name).is_some()
}

/// The floating-point type intrinsic `name` returns (`float` or `double`); `None` for another
/// name.
pub fn result_type(name: &str) -> Option<Scalar> {
    parse(name).map(|(_, dst, _)| dst)
}

/// Applies intrinsic `name` to one lane's argument; `None` when `name` is not of this module.
///
/// # Errors
/// A missing argument or one that is not a number.
pub fn call(name: &str, args: &[KVal]) -> Option<Result<KVal, String>> {
    let (src, dst, mode) = parse(name)?;
    let v = match args.first() {
        Some(a) => match a.as_int().or_else(|| a.as_f64().map(|x| x.trunc() as i128)) {
            Some(v) => v,
            None => return Some(Err(format!("`{name}` takes one integer"))),
        },
        None => return Some(Err(format!("`{name}` takes one integer"))),
    };
    let v = match src {
        Scalar::I32 => i128::from(v as i32),
        Scalar::U32 => i128::from(v as u32),
        Scalar::I64 => i128::from(v as i64),
        _ => i128::from(v as u64),
    };
    Some(Ok(KVal::float(dst, rounded(v, dst == Scalar::F32, mode))))
}

/// `v` rounded to a float (`single`) or a double in `mode`, as an `f64` (a float's value is
/// exact in it).
fn rounded(v: i128, single: bool, mode: &str) -> f64 {
    // Rust's integer-to-float `as` rounds to nearest, ties to even (the Reference, "Numeric
    // cast"): the `_rn` result, and one of the two neighbours of `v` otherwise.
    let nearest = if single {
        f64::from(v as f32)
    } else {
        v as f64
    };
    let at = nearest as i128;
    if at == v || mode == "rn" {
        return nearest;
    }
    let step = |up: bool| -> f64 {
        if single {
            let f = nearest as f32;
            f64::from(if up { f.next_up() } else { f.next_down() })
        } else if up {
            nearest.next_up()
        } else {
            nearest.next_down()
        }
    };
    let below = if at > v { step(false) } else { nearest };
    let above = if at < v { step(true) } else { nearest };
    match mode {
        "ru" => above,
        "rd" => below,
        // Toward zero: the neighbour of smaller magnitude.
        _ if v > 0 => below,
        _ => above,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(name: &str, v: i128, ty: Scalar) -> f64 {
        call(name, &[KVal::int(ty, v)])
            .unwrap()
            .unwrap()
            .as_f64()
            .unwrap()
    }

    /// 16777217 = 2^24 + 1 lies between the floats 16777216 and 16777218 (the spacing is 2
    /// above 2^24): nearest-even gives 16777216 (its significand is even), up 16777218, down
    /// and toward zero 16777216; for −16777217 down gives −16777218 and toward zero −16777216.
    #[test]
    fn modes_differ_past_24_bits() {
        let i = Scalar::I32;
        assert_eq!(f("__int2float_rn", 16_777_217, i), 16_777_216.0);
        assert_eq!(f("__int2float_ru", 16_777_217, i), 16_777_218.0);
        assert_eq!(f("__int2float_rd", 16_777_217, i), 16_777_216.0);
        assert_eq!(f("__int2float_rz", 16_777_217, i), 16_777_216.0);
        assert_eq!(f("__int2float_rd", -16_777_217, i), -16_777_218.0);
        assert_eq!(f("__int2float_rz", -16_777_217, i), -16_777_216.0);
        assert_eq!(f("__int2float_ru", -16_777_217, i), -16_777_216.0);
        // 16777219 is halfway between 16777218 and 16777220: ties to the even significand,
        // 16777220 (16777218 = 2 · 8388609, whose significand is odd).
        assert_eq!(f("__int2float_rn", 16_777_219, i), 16_777_220.0);
    }

    /// u32::MAX = 4294967295 is 1 below 2^32; the float below 2^32 is 2^32 − 256, so down and
    /// toward zero give 4294967040 and nearest and up give 2^32. An `int` argument −1 converts
    /// to the `unsigned int` parameter as 4294967295 ([conv.integral]/2).
    #[test]
    fn unsigned_parameter_and_top_of_range() {
        let u = Scalar::U32;
        assert_eq!(f("__uint2float_rn", 4_294_967_295, u), 4_294_967_296.0);
        assert_eq!(f("__uint2float_rz", 4_294_967_295, u), 4_294_967_040.0);
        assert_eq!(f("__uint2float_rd", 4_294_967_295, u), 4_294_967_040.0);
        assert_eq!(f("__uint2float_ru", 4_294_967_295, u), 4_294_967_296.0);
        assert_eq!(f("__uint2float_rn", -1, Scalar::I32), 4_294_967_296.0);
        assert_eq!(f("__uint2float_rz", 7, u), 7.0);
    }

    /// 2^53 + 1 = 9007199254740993 lies between the doubles 2^53 and 2^53 + 2.
    #[test]
    fn doubles_from_64_bit_integers() {
        let l = Scalar::I64;
        assert_eq!(
            f("__ll2double_rn", 9_007_199_254_740_993, l),
            9_007_199_254_740_992.0
        );
        assert_eq!(
            f("__ll2double_ru", 9_007_199_254_740_993, l),
            9_007_199_254_740_994.0
        );
        assert_eq!(
            f("__ull2double_rz", u64::MAX as i128, Scalar::U64),
            18_446_744_073_709_549_568.0
        );
        assert_eq!(f("__int2double_rn", -5, Scalar::I32), -5.0);
        assert!(!is_to_float("__int2double_rz"));
        assert!(!is_to_float("__float2int_rn"));
        assert_eq!(result_type("__ull2float_rd"), Some(Scalar::F32));
    }
}
