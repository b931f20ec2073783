//! The 8-bit floats of `cuda_fp8.h` and `hip/hip_fp8.h`: their encodings, the conversion of a
//! wider value to them, and the C conversion functions of `cuda_fp8.h`.
//!
//! Four formats, each `1 sign · E exponent · M mantissa bits`:
//!
//! | scalar | spelled | bias | largest finite | infinity | NaN | source |
//! |---|---|---|---|---|---|---|
//! | [`Scalar::E4M3`] | `__nv_fp8_e4m3`, `__hip_fp8_e4m3` | 7 | 448 | none | `S.1111.111` (0x7F, 0xFF) | OCP 8-bit Floating Point Specification (OFP8) rev. 1.0, §4.1 Table 1; CUDA Math API, struct `__nv_fp8_e4m3` ("doesn't support Infinity. NaNs are limited to 0x7F and 0xFF") |
//! | [`Scalar::E5M2`] | `__nv_fp8_e5m2`, `__hip_fp8_e5m2` | 15 | 57344 | `S.11111.00` | `S.11111.{01,10,11}` | OFP8 §4.1 Table 1 (IEEE 754-like) |
//! | [`Scalar::E4M3Fnuz`] | `__hip_fp8_e4m3_fnuz` | 8 | 240 | none | 0x80 only | ROCm HIP docs, "Low precision floating point types" (FP8 FNUZ: "only finite and NaN values are supported … NaN is when sign bit is set and all other exponent and mantissa bits are 0"), gfx942 |
//! | [`Scalar::E5M2Fnuz`] | `__hip_fp8_e5m2_fnuz` | 16 | 57344 | none | 0x80 only | the same |
//!
//! FNUZ has no negative zero (0x80 is the NaN), so a negative value that rounds to zero gives
//! +0. A subnormal (exponent field 0) is `M · 2^(1 − bias − mantissa bits)` in every format.
//!
//! Conversion to a format rounds to nearest, ties to even, once from the exact value (CUDA
//! Math API, "FP8 Conversion and Data Movement": every `__nv_cvt_*_to_fp8*` converts "using
//! round-to-nearest-even rounding and requested saturation mode"). The class constructors
//! (`__nv_fp8_e4m3(const float f)` and the other overloads) "rely on `__NV_SATFINITE`
//! behavior for out-of-range values" (CUDA Math API, struct `__nv_fp8_e4m3` / `__nv_fp8_e5m2`
//! / `__nv_fp8x4_e4m3`), and HIP's constructors use the same default (`hip_fp8.h`'s
//! `__default_saturation` is `__HIP_SATFINITE`, ROCm HIP docs, "Low precision floating point
//! types"). Saturation (PTX ISA, `cvt`, `.satfinite`: "if the absolute value of input
//! (including infinity) is greater than MAX_NORM of the specified destination format, then the
//! result is sign-preserved MAX_NORM of the destination format"): a result past the largest
//! finite value, infinities included, becomes the largest finite value of its sign; without it
//! (`__NV_NOSAT`) E5M2 overflows to an infinity and E4M3, which has none, to NaN. A NaN input
//! gives a NaN.

use crate::fp8_format::Format;
use crate::types::{KVal, Scalar, ValTy};

/// `x` rounded to nearest even in `ty`'s format, saturating when `satfinite`
/// ([`Format::round`]); `x` unchanged when `ty` is no 8-bit float.
pub fn round(ty: Scalar, x: f64, satfinite: bool) -> f64 {
    ty.fp8_format().map_or(x, |f| f.round(x, satfinite))
}

/// The value of the 8-bit encoding `bits` in `ty`'s format (NaN for a NaN encoding); `None`
/// when `ty` is no 8-bit float.
pub fn decode(ty: Scalar, bits: u8) -> Option<f64> {
    Some(ty.fp8_format()?.decode(bits))
}

/// The 8-bit encoding of `x`, a value of `ty`'s format ([`Format::encode`]); `None` when `ty`
/// is no 8-bit float, or for a NaN whose encoding is not one.
pub fn encode(ty: Scalar, x: f64) -> Option<u8> {
    ty.fp8_format()?.encode(x)
}

/// The format of an 8-bit float type, if `ty` is one.
pub fn format(ty: Scalar) -> Option<Format> {
    ty.fp8_format()
}

/// The conversion functions of `cuda_fp8.h` this module runs (see [`call`]).
pub const INTRINSICS: &[&str] = &[
    "__nv_cvt_float_to_fp8",
    "__nv_cvt_double_to_fp8",
    "__nv_cvt_halfraw_to_fp8",
    "__nv_cvt_bfloat16raw_to_fp8",
    "__nv_cvt_float2_to_fp8x2",
    "__nv_cvt_double2_to_fp8x2",
    "__nv_cvt_halfraw2_to_fp8x2",
    "__nv_cvt_bfloat16raw2_to_fp8x2",
    "__nv_cvt_fp8_to_halfraw",
    "__nv_cvt_fp8x2_to_halfraw2",
];

/// Whether `name` is one of [`INTRINSICS`].
pub fn is_intrinsic(name: &str) -> bool {
    INTRINSICS.contains(&name)
}

/// Runs the `cuda_fp8.h` conversion function `name` on `args`; `None` when `name` is not one
/// of [`INTRINSICS`].
///
/// Sources: CUDA Math API, "FP8 Conversion and Data Movement": `__nv_cvt_float_to_fp8(x,
/// saturate, fp8_interpretation)` and its `double` / `__half_raw` / `__nv_bfloat16_raw` forms
/// return the `__nv_fp8_storage_t` (`unsigned char`) encoding; the `…2_to_fp8x2` forms an
/// `__nv_fp8x2_storage_t` (`unsigned short`) whose low byte holds the first component (`.x`);
/// `__nv_cvt_fp8_to_halfraw(x, fp8_interpretation)` and `__nv_cvt_fp8x2_to_halfraw2` decode to
/// `__half` (exact: every E4M3 and E5M2 value is a `__half`). `saturate` is the enum
/// `__nv_saturation_t` (`__NV_NOSAT` = 0, `__NV_SATFINITE` = 1), `fp8_interpretation`
/// `__nv_fp8_interpretation_t` (`__NV_E4M3` = 0, `__NV_E5M2` = 1).
///
/// # Errors
/// A wrong argument count or type, a `saturate` or `fp8_interpretation` outside its enum. A
/// NaN result is 0x7F, as an H200 returns it (see [`encode`]).
pub fn call(name: &str, args: &[KVal]) -> Option<Result<KVal, String>> {
    is_intrinsic(name).then(|| run(name, args))
}

fn interpretation(name: &str, v: &KVal) -> Result<Scalar, String> {
    match v.as_int() {
        Some(0) => Ok(Scalar::E4M3),
        Some(1) => Ok(Scalar::E5M2),
        _ => Err(format!(
            "`{name}`: the fp8 interpretation is `__NV_E4M3` or `__NV_E5M2` (0 or 1), got {}",
            v.as_f64()
                .map_or_else(|| v.val_ty().name(), |x| x.to_string())
        )),
    }
}

fn saturation(name: &str, v: &KVal) -> Result<bool, String> {
    match v.as_int() {
        Some(0) => Ok(false),
        Some(1) => Ok(true),
        _ => Err(format!(
            "`{name}`: the saturation is `__NV_NOSAT` or `__NV_SATFINITE` (0 or 1), got {}",
            v.as_f64()
                .map_or_else(|| v.val_ty().name(), |x| x.to_string())
        )),
    }
}

/// The components of a float scalar or vector argument (`want` of them), for the encoding
/// functions of both headers.
///
/// # Errors
/// `v` is no floating value with `want` components.
pub(crate) fn floats(name: &str, v: &KVal, want: usize) -> Result<Vec<f64>, String> {
    let items: Vec<f64> = match v {
        KVal::Vector { items, .. } => items.iter().filter_map(KVal::as_f64).collect(),
        KVal::Float { x, .. } => vec![*x],
        _ => Vec::new(),
    };
    if items.len() != want || !v.val_ty().scalar.is_float() {
        return Err(format!(
            "`{name}` takes {} floating value{}, got {}",
            want,
            if want == 1 { "" } else { "s (a pair)" },
            v.val_ty().name()
        ));
    }
    Ok(items)
}

/// The storage byte of `x` rounded to `ty`, or why it has none.
fn store(name: &str, ty: Scalar, x: f64, sat: bool) -> Result<u64, String> {
    let r = round(ty, x, sat);
    encode(ty, r).map(u64::from).ok_or_else(|| {
        format!(
            "`{name}` of {x}: the result has no 8-bit encoding in {}",
            ty.name()
        )
    })
}

fn run(name: &str, args: &[KVal]) -> Result<KVal, String> {
    if let Some(v) = decode_call(name, args, "__nv_cvt_fp8", interpretation)? {
        return Ok(v);
    }
    let sat = saturation(name, &args[1])?;
    let ty = interpretation(name, &args[2])?;
    if name.contains("2_to_fp8x2") {
        let xs = floats(name, &args[0], 2)?;
        let lo = store(name, ty, xs[0], sat)?;
        let hi = store(name, ty, xs[1], sat)?;
        Ok(KVal::int(Scalar::U16, i128::from(lo | hi << 8)))
    } else {
        let xs = floats(name, &args[0], 1)?;
        Ok(KVal::int(
            Scalar::U8,
            i128::from(store(name, ty, xs[0], sat)?),
        ))
    }
}

/// The part `cuda_fp8.h`'s and `hip_fp8.h`'s conversion functions share (their headers give
/// both families the same shapes; see [`call`] and the `hip_fp8_cvt` module): checks the
/// argument count (2 for a decoding function, named `{decoder}…`, 3 for an encoding one) and
/// runs a decoding function, `(storage, interpretation)` → one `__half` or, for the
/// `…x2_to_halfraw2` form, a pair whose `.x` comes from the low byte. `Ok(None)` for an
/// encoding function, whose rounding rule differs between the headers; `interpretation` reads
/// the header's interpretation enum.
///
/// # Errors
/// A wrong argument count, a storage that is no integer, or `interpretation`'s error.
pub(crate) fn decode_call(
    name: &str,
    args: &[KVal],
    decoder: &str,
    interpretation: fn(&str, &KVal) -> Result<Scalar, String>,
) -> Result<Option<KVal>, String> {
    let decoding = name.starts_with(decoder);
    let arity = if decoding { 2 } else { 3 };
    if args.len() != arity {
        return Err(format!(
            "`{name}` takes {arity} arguments, got {}",
            args.len()
        ));
    }
    if !decoding {
        return Ok(None);
    }
    let ty = interpretation(name, &args[1])?;
    let bits = args[0]
        .as_int()
        .ok_or_else(|| format!("`{name}` takes the fp8 storage (an unsigned integer)"))?;
    let half = |b: u8| KVal::float(Scalar::F16, decode(ty, b).unwrap_or(f64::NAN));
    Ok(Some(if name.ends_with("x2_to_halfraw2") {
        KVal::Vector {
            ty: Scalar::F16,
            items: vec![half(bits as u8), half((bits >> 8) as u8)],
        }
    } else {
        half(bits as u8)
    }))
}

/// The storage member `__x` of an 8-bit float value (`__nv_fp8_storage_t __x`, an `unsigned
/// char`; `__nv_fp8x2_storage_t` and `__nv_fp8x4_storage_t`, `unsigned short` and `unsigned
/// int`, for the pairs and quads, the first component in the low byte: CUDA Math API, struct
/// `__nv_fp8_e4m3` "Public Members: `__nv_fp8_storage_t __x`"; `hip_fp8.h` the same): the
/// encodings. `None` when `v` is no 8-bit float.
///
/// # Errors
/// A component with no 8-bit encoding (none: every value of the format, NaN included, has one;
/// see [`encode`]).
pub fn storage(v: &KVal) -> Option<Result<KVal, String>> {
    let (ty, items): (Scalar, Vec<f64>) = match v {
        KVal::Float { ty, x, .. } if ty.is_fp8() => (*ty, vec![*x]),
        KVal::Vector { ty, items } if ty.is_fp8() && matches!(items.len(), 2 | 4) => {
            (*ty, items.iter().filter_map(KVal::as_f64).collect())
        }
        _ => return None,
    };
    let mut bits: u64 = 0;
    for (k, x) in items.iter().enumerate() {
        let Some(b) = encode(ty, *x) else {
            return Some(Err(format!(
                "`.__x` of {x}: the value has no 8-bit encoding in {}",
                ty.name()
            )));
        };
        bits |= u64::from(b) << (8 * k);
    }
    let storage = match items.len() {
        1 => Scalar::U8,
        2 => Scalar::U16,
        _ => Scalar::U32,
    };
    Some(Ok(KVal::int(storage, i128::from(bits))))
}

/// The value type of `__nv_fp8x2_e4m3`-like names: two or four components of a format.
pub fn vector_type(word: &str) -> Option<ValTy> {
    let (lanes, rest) = if let Some(r) = word
        .strip_prefix("__nv_fp8x2_")
        .or_else(|| word.strip_prefix("__hip_fp8x2_"))
    {
        (2, r)
    } else if let Some(r) = word
        .strip_prefix("__nv_fp8x4_")
        .or_else(|| word.strip_prefix("__hip_fp8x4_"))
    {
        (4, r)
    } else {
        return None;
    };
    let hip = word.starts_with("__hip");
    let scalar = match (rest, hip) {
        ("e4m3", _) => Scalar::E4M3,
        ("e5m2", _) => Scalar::E5M2,
        ("e4m3_fnuz", true) => Scalar::E4M3Fnuz,
        ("e5m2_fnuz", true) => Scalar::E5M2Fnuz,
        _ => return None,
    };
    Some(ValTy { scalar, lanes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e4m3_rounds_to_nearest_even_and_saturates() {
        // OFP8 Table 1: E4M3 max normal S.1111.110 = 1.75 · 2^8 = 448; min subnormal
        // S.0000.001 = 2^-9. Between 448 and the next step (480, which is the NaN S.1111.111)
        // the midpoint is 464: 460 rounds down, 464 ties to 448 (mantissa 110 even).
        assert_eq!(round(Scalar::E4M3, 460.0, false), 448.0);
        assert_eq!(round(Scalar::E4M3, 464.0, false), 448.0);
        assert!(round(Scalar::E4M3, 465.0, false).is_nan());
        assert_eq!(round(Scalar::E4M3, 1e9, true), 448.0);
        assert_eq!(round(Scalar::E4M3, f64::NEG_INFINITY, true), -448.0);
        // 1.0625 is the tie between 1 (1.000) and 1.125 (1.001): even is 1.
        assert_eq!(round(Scalar::E4M3, 1.0625, true), 1.0);
        assert_eq!(round(Scalar::E4M3, 1.1875, true), 1.25);
        // Half the smallest subnormal ties to 0; just above rounds to it.
        assert_eq!(round(Scalar::E4M3, 2f64.powi(-10), true), 0.0);
        assert_eq!(
            round(Scalar::E4M3, 1.5 * 2f64.powi(-10), true),
            2f64.powi(-9)
        );
        assert!(round(Scalar::E4M3, -0.0, true).is_sign_negative());
        assert!(round(Scalar::E4M3, f64::NAN, true).is_nan());
    }

    #[test]
    fn e5m2_has_infinity() {
        // E5M2: max 1.75 · 2^15 = 57344; the next step 2^16 is the infinity; 61440 is the
        // midpoint and ties to the even side (the infinity's mantissa 00).
        assert_eq!(round(Scalar::E5M2, 61439.0, false), 57344.0);
        assert_eq!(round(Scalar::E5M2, 61440.0, false), f64::INFINITY);
        assert_eq!(round(Scalar::E5M2, 61440.0, true), 57344.0);
        assert_eq!(encode(Scalar::E5M2, f64::INFINITY), Some(0x7C));
        assert_eq!(decode(Scalar::E5M2, 0xFC), Some(f64::NEG_INFINITY));
        assert!(decode(Scalar::E5M2, 0x7D).is_some_and(f64::is_nan));
    }

    #[test]
    fn encodings() {
        // 1.0 in E4M3: exponent 7 (bias 7), mantissa 0 → 0 0111 000 = 0x38; 448 = 0 1111 110
        // = 0x7E; -2 = 1 1000 000 = 0xC0. E5M2 1.0 = 0 01111 00 = 0x3C.
        assert_eq!(encode(Scalar::E4M3, 1.0), Some(0x38));
        assert_eq!(encode(Scalar::E4M3, 448.0), Some(0x7E));
        assert_eq!(encode(Scalar::E4M3, -2.0), Some(0xC0));
        assert_eq!(encode(Scalar::E5M2, 1.0), Some(0x3C));
        assert!(decode(Scalar::E4M3, 0x7F).is_some_and(f64::is_nan));
        assert!(decode(Scalar::E4M3, 0xFF).is_some_and(f64::is_nan));
        assert_eq!(decode(Scalar::E4M3, 0x01), Some(2f64.powi(-9)));
        assert_eq!(encode(Scalar::E4M3, f64::NAN), Some(0x7F));
        assert_eq!(encode(Scalar::E5M2, -f64::NAN), Some(0x7F));
        // FNUZ E4M3 (bias 8): 1.0 = 0 1000 000 = 0x40; max 0 1111 111 = 1.875 · 2^7 = 240;
        // 0x80 is the NaN; -0 rounds to +0.
        assert_eq!(encode(Scalar::E4M3Fnuz, 1.0), Some(0x40));
        assert_eq!(decode(Scalar::E4M3Fnuz, 0x7F), Some(240.0));
        assert!(decode(Scalar::E4M3Fnuz, 0x80).is_some_and(f64::is_nan));
        assert_eq!(encode(Scalar::E4M3Fnuz, f64::NAN), Some(0x80));
        // A negative FNUZ value keeps its sign bit: -2 = 1 1001 000 = 0xC8 (bias 8); -0 is
        // 0x00 (0x80 is the NaN).
        assert_eq!(encode(Scalar::E4M3Fnuz, -2.0), Some(0xC8));
        assert_eq!(encode(Scalar::E4M3Fnuz, -0.0), Some(0x00));
        assert!(round(Scalar::E4M3Fnuz, -1e-9, true).is_sign_positive());
        assert_eq!(round(Scalar::E4M3Fnuz, 300.0, true), 240.0);
        // FNUZ E5M2 (bias 16): 1.0 = 0 10000 00 = 0x40; max 0 11111 11 = 1.75 · 2^15.
        assert_eq!(encode(Scalar::E5M2Fnuz, 1.0), Some(0x40));
        assert_eq!(decode(Scalar::E5M2Fnuz, 0x7F), Some(57344.0));
    }

    #[test]
    fn vector_names_are_the_vendors() {
        for name in [
            "__nv_fp8x4_e4m3",
            "__nv_fp8x2_e5m2",
            "__hip_fp8x2_e4m3_fnuz",
        ] {
            let ty = vector_type(name).unwrap();
            assert_eq!(crate::vector_types::cuda_name(ty), name);
        }
        assert_eq!(vector_type("__nv_fp8x4_e4m3_fnuz"), None);
    }

    #[test]
    fn c_functions() {
        let f = |x: f64| KVal::float(Scalar::F32, x);
        let i = |n: i128| KVal::int(Scalar::I32, n);
        let r = call("__nv_cvt_float_to_fp8", &[f(1.0), i(1), i(0)]).unwrap();
        assert_eq!(r, Ok(KVal::int(Scalar::U8, 0x38)));
        // NOSAT E4M3 overflow is a NaN: 0x7F, as the H200 returned it; a NaN input too, with
        // either sign, saturated or not, in both OCP formats.
        let nan_byte = |x: f64, sat: i128, fmt: i128| {
            call("__nv_cvt_float_to_fp8", &[f(x), i(sat), i(fmt)]).unwrap()
        };
        assert_eq!(nan_byte(1000.0, 0, 0), Ok(KVal::int(Scalar::U8, 0x7F)));
        for (sat, fmt) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            assert_eq!(
                nan_byte(f64::NAN, sat, fmt),
                Ok(KVal::int(Scalar::U8, 0x7F))
            );
            assert_eq!(
                nan_byte(-f64::NAN, sat, fmt),
                Ok(KVal::int(Scalar::U8, 0x7F))
            );
        }
        // E5M2 NOSAT overflow is an infinity: -3e9 → 1.11111.00 = 0xFC (the H200's byte).
        assert_eq!(nan_byte(-3e9, 0, 1), Ok(KVal::int(Scalar::U8, 0xFC)));
        let pair = KVal::Vector {
            ty: Scalar::F32,
            items: vec![f(1.0), f(-2.0)],
        };
        let r = call("__nv_cvt_float2_to_fp8x2", &[pair, i(1), i(0)]).unwrap();
        assert_eq!(r, Ok(KVal::int(Scalar::U16, 0xC038)));
        let back = call(
            "__nv_cvt_fp8x2_to_halfraw2",
            &[KVal::int(Scalar::U16, 0xC038), i(0)],
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            back,
            KVal::Vector {
                ty: Scalar::F16,
                items: vec![
                    KVal::float(Scalar::F16, 1.0),
                    KVal::float(Scalar::F16, -2.0)
                ]
            }
        );
        assert!(call("__nv_cvt_float_to_fp8", &[f(1.0), i(2), i(0)])
            .unwrap()
            .is_err());
    }
}
