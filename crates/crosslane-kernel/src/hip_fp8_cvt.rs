//! The conversion functions of HIP's `hip_fp8.h` (ROCm/clr,
//! `hipamd/include/hip/amd_detail/amd_hip_fp8.h`): `__hip_cvt_float_to_fp8(x, sat, interp)`
//! and its `double` / `__half_raw` / `__hip_bfloat16_raw` forms return the
//! `__hip_fp8_storage_t` (`unsigned char`) encoding; the `…2_to_fp8x2` forms an
//! `__hip_fp8x2_storage_t` (`unsigned short`) holding `.x` in the low byte and `.y` in the high
//! one; `__hip_cvt_fp8_to_halfraw(x, interp)` and `__hip_cvt_fp8x2_to_halfraw2` decode to
//! `__half` values (every FP8 value is a `__half`, so exactly). `interp` is the enum
//! `__hip_fp8_interpretation_t` (`__HIP_E4M3` = 0 and `__HIP_E5M2` = 1, OCP;
//! `__HIP_E4M3_FNUZ` = 2 and `__HIP_E5M2_FNUZ` = 3), `sat` the enum `__hip_saturation_t`
//! (`__HIP_NOSAT` = 0, `__HIP_SATFINITE` = 1). The formats are [`crate::fp8_format`]'s.
//!
//! The header defines each conversion to FP8 by its portable routine `internal::cast_to_f8`:
//! a finite value not above the format's largest finite value rounds to nearest even (FNUZ
//! gives +0 for a negative value that rounds to zero, OCP keeps −0 as 0x80); a finite value
//! above the largest finite value gives, with `__HIP_SATFINITE`, the largest finite value of
//! its sign (E4M3 `S.1111.110`, E5M2 `S.11110.11`, FNUZ `S.1111.111`), and without it E4M3's
//! NaN `S.1111.111`, E5M2's infinity `S.11111.00` or FNUZ's NaN 0x80 — a value between the
//! largest finite value and the midpoint above it counts as above (the routine compares the
//! magnitude with the largest value before rounding). An infinity gives E4M3's NaN
//! `S.1111.111`, E5M2's infinity or FNUZ's 0x80, whatever the saturation; a NaN gives FNUZ's
//! 0x80 and the OCP NaN `S.1111.111` with the input's sign.
//!
//! The `float` conversions (and the `__half`/bfloat16 ones, which convert through `float`)
//! take another route on gfx942, gfx1200 and gfx1201 (`HIP_FP8_CVT_FAST_PATH`): there the
//! hardware instruction (`__builtin_amdgcn_cvt_pk_fp8_f32` / `_bf8_f32`) converts, after a clamp
//! to ±max under `__HIP_SATFINITE` that skips infinities and NaNs — and the pair form
//! (`cast_to_f8x2_from_f32x2`) converts the unclamped pair, so its saturation has no effect.
//! The header does not say what the instruction gives past the largest finite value, so for
//! the `float`-based functions an infinity, a magnitude past the largest finite value without
//! saturation, and any such component of a pair are undefined here, with that reason; the
//! `double` functions use `cast_to_f8` on every target and keep its values. The sign bit of an
//! OCP NaN result is the input NaN's, which the emulator does not model (it keeps values, and
//! a GPU's NaN sign is not the host's): that byte is undefined too.

use crate::types::{KVal, Scalar};

/// The conversion functions of `hip_fp8.h` this module runs (see [`call`]).
pub const INTRINSICS: &[&str] = &[
    "__hip_cvt_float_to_fp8",
    "__hip_cvt_double_to_fp8",
    "__hip_cvt_halfraw_to_fp8",
    "__hip_cvt_bfloat16raw_to_fp8",
    "__hip_cvt_float2_to_fp8x2",
    "__hip_cvt_double2_to_fp8x2",
    "__hip_cvt_halfraw2_to_fp8x2",
    "__hip_cvt_bfloat16raw2_to_fp8x2",
    "__hip_cvt_fp8_to_halfraw",
    "__hip_cvt_fp8x2_to_halfraw2",
];

/// Whether `name` is one of [`INTRINSICS`].
pub fn is_intrinsic(name: &str) -> bool {
    INTRINSICS.contains(&name)
}

/// The value of `hip_fp8.h`'s enumerator `name` (`__HIP_E4M3_FNUZ` → 2, `__HIP_SATFINITE` → 1),
/// in declaration order as the header writes them.
pub fn constant(name: &str) -> Option<i128> {
    Some(match name {
        "__HIP_E4M3" | "__HIP_NOSAT" => 0,
        "__HIP_E5M2" | "__HIP_SATFINITE" => 1,
        "__HIP_E4M3_FNUZ" => 2,
        "__HIP_E5M2_FNUZ" => 3,
        _ => return None,
    })
}

/// Runs `hip_fp8.h` conversion function `name` on `args`; `None` when `name` is not one of
/// [`INTRINSICS`].
///
/// # Errors
/// A wrong argument count or type, an `interp` or `sat` outside its enum, or a result the
/// header leaves to the target (module documentation), each with the reason.
pub fn call(name: &str, args: &[KVal]) -> Option<Result<KVal, String>> {
    is_intrinsic(name).then(|| run(name, args))
}

/// The interpretation's enumerator, for messages.
fn spelled(ty: Scalar) -> &'static str {
    match ty {
        Scalar::E4M3 => "__HIP_E4M3",
        Scalar::E5M2 => "__HIP_E5M2",
        Scalar::E4M3Fnuz => "__HIP_E4M3_FNUZ",
        _ => "__HIP_E5M2_FNUZ",
    }
}

fn interpretation(name: &str, v: &KVal) -> Result<Scalar, String> {
    match v.as_int() {
        Some(0) => Ok(Scalar::E4M3),
        Some(1) => Ok(Scalar::E5M2),
        Some(2) => Ok(Scalar::E4M3Fnuz),
        Some(3) => Ok(Scalar::E5M2Fnuz),
        _ => Err(format!(
            "`{name}`: the interpretation is `__HIP_E4M3`, `__HIP_E5M2`, `__HIP_E4M3_FNUZ` or \
             `__HIP_E5M2_FNUZ` (0 to 3)"
        )),
    }
}

fn saturation(name: &str, v: &KVal) -> Result<bool, String> {
    match v.as_int() {
        Some(0) => Ok(false),
        Some(1) => Ok(true),
        _ => Err(format!(
            "`{name}`: the saturation is `__HIP_NOSAT` or `__HIP_SATFINITE` (0 or 1)"
        )),
    }
}

/// `internal::cast_to_f8` of `x` into `ty` (module documentation); `Err` for a byte the
/// emulator cannot know (an OCP NaN's sign). `fast` marks the `float`-based functions, whose
/// out-of-range results the header leaves to the gfx942/gfx12 instruction.
fn to_fp8(ty: Scalar, x: f64, sat: bool, fast: bool) -> Result<u8, String> {
    let Some(f) = ty.fp8_format() else {
        return Err("no 8-bit float format".into());
    };
    let sign: u8 = if x.is_sign_negative() { 0x80 } else { 0 };
    let target = "the header converts it in software (internal::cast_to_f8) except on gfx942, \
                  gfx1200 and gfx1201, where the hardware instruction converts it and the header \
                  does not say to what";
    if x.is_nan() {
        if f.fnuz {
            return Ok(0x80);
        }
        return Err(
            "a NaN converts to the OCP NaN S.1111.111 with the input's sign (hip_fp8.h, \
             internal::cast_to_f8), and the emulator does not model a NaN's sign bit"
                .into(),
        );
    }
    let beyond = x.is_infinite() || x.abs() > f.max;
    if beyond && fast && (x.is_infinite() || !sat) {
        return Err(format!(
            "{x} is beyond the largest finite value of {}: {target}",
            spelled(ty)
        ));
    }
    if x.is_infinite() {
        return Ok(if f.fnuz {
            0x80
        } else if f.inf {
            sign | 0x7C
        } else {
            sign | 0x7F
        });
    }
    if beyond {
        if sat {
            // The largest finite value of the input's sign.
            let m = crate::fp8::encode(ty, f.max).unwrap_or(0x7F);
            return Ok(sign | m);
        }
        return Ok(if f.fnuz {
            0x80
        } else if f.inf {
            sign | 0x7C
        } else {
            sign | 0x7F
        });
    }
    let r = f.round(x, false);
    f.encode(r)
        .ok_or_else(|| format!("{x} has no 8-bit encoding in {}", spelled(ty)))
}

fn run(name: &str, args: &[KVal]) -> Result<KVal, String> {
    if let Some(v) = crate::fp8::decode_call(name, args, "__hip_cvt_fp8", interpretation)? {
        return Ok(v);
    }
    let sat = saturation(name, &args[1])?;
    let ty = interpretation(name, &args[2])?;
    let fast = !name.contains("double");
    let byte = |x: f64| to_fp8(ty, x, sat, fast).map_err(|m| format!("`{name}` of {x}: {m}"));
    if name.contains("2_to_fp8x2") {
        let xs = crate::fp8::floats(name, &args[0], 2)?;
        // The gfx942/gfx12 pair conversion ignores the saturation: a component past the
        // largest finite value is the instruction's, whatever `sat` says.
        let max = ty.fp8_format().map_or(f64::INFINITY, |f| f.max);
        if fast && sat {
            if let Some(x) = xs.iter().find(|x| x.abs() > max) {
                return Err(format!(
                    "`{name}` of {x}: beyond the largest finite value of {}; on gfx942, gfx1200 \
                     and gfx1201 hip_fp8.h converts the unclamped pair with the hardware \
                     instruction (cast_to_f8x2_from_f32x2), elsewhere it saturates",
                    spelled(ty)
                ));
            }
        }
        let lo = u16::from(byte(xs[0])?);
        let hi = u16::from(byte(xs[1])?);
        Ok(KVal::int(Scalar::U16, i128::from(lo | hi << 8)))
    } else {
        let xs = crate::fp8::floats(name, &args[0], 1)?;
        Ok(KVal::int(Scalar::U8, i128::from(byte(xs[0])?)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cvt(name: &str, x: f64, sat: i128, interp: i128) -> Result<KVal, String> {
        let ty = if name.contains("double") {
            Scalar::F64
        } else {
            Scalar::F32
        };
        let i = |n: i128| KVal::int(Scalar::I32, n);
        call(name, &[KVal::float(ty, x), i(sat), i(interp)]).unwrap()
    }

    fn byte(r: Result<KVal, String>) -> i128 {
        r.unwrap().as_int().unwrap()
    }

    #[test]
    fn in_range_values_round_to_nearest_even() {
        // FNUZ E4M3 (bias 8): 1.0 = 0 1000 000 = 0x40; -2.0 = 1 1001 000 = 0xC8.
        assert_eq!(byte(cvt("__hip_cvt_float_to_fp8", 1.0, 1, 2)), 0x40);
        assert_eq!(byte(cvt("__hip_cvt_float_to_fp8", -2.0, 0, 2)), 0xC8);
        // OCP E4M3: 1.0625 ties to 1.0 = 0x38; FNUZ E5M2 (bias 16) 1.0 = 0 10000 00 = 0x40.
        assert_eq!(byte(cvt("__hip_cvt_float_to_fp8", 1.0625, 0, 0)), 0x38);
        assert_eq!(byte(cvt("__hip_cvt_float_to_fp8", 1.0, 0, 3)), 0x40);
        // FNUZ has no −0: -1e-9 rounds to +0; OCP keeps −0 as 0x80.
        assert_eq!(byte(cvt("__hip_cvt_float_to_fp8", -1e-9, 1, 2)), 0x00);
        assert_eq!(byte(cvt("__hip_cvt_float_to_fp8", -0.0, 1, 0)), 0x80);
    }

    #[test]
    fn saturation_and_what_the_target_decides() {
        // SATFINITE past the largest value: E4M3 FNUZ ±240 = 0x7F / 0xFF, OCP E4M3 448 = 0x7E.
        assert_eq!(byte(cvt("__hip_cvt_float_to_fp8", 1000.0, 1, 2)), 0x7F);
        assert_eq!(byte(cvt("__hip_cvt_float_to_fp8", -1000.0, 1, 2)), 0xFF);
        assert_eq!(byte(cvt("__hip_cvt_float_to_fp8", 449.0, 1, 0)), 0x7E);
        // Without saturation the float form is the target's; the double form is
        // cast_to_f8's: 449 > 448 is E4M3's NaN 0x7F (not 448), FNUZ's NaN 0x80, E5M2 +inf.
        assert!(cvt("__hip_cvt_float_to_fp8", 449.0, 0, 0).is_err());
        assert_eq!(byte(cvt("__hip_cvt_double_to_fp8", 449.0, 0, 0)), 0x7F);
        assert_eq!(byte(cvt("__hip_cvt_double_to_fp8", 300.0, 0, 2)), 0x80);
        assert_eq!(byte(cvt("__hip_cvt_double_to_fp8", 1e6, 0, 1)), 0x7C);
        // An infinity ignores saturation in cast_to_f8: -inf is E4M3's NaN 0xFF.
        assert_eq!(
            byte(cvt("__hip_cvt_double_to_fp8", f64::NEG_INFINITY, 1, 0)),
            0xFF
        );
        assert!(cvt("__hip_cvt_float_to_fp8", f64::INFINITY, 1, 0).is_err());
        // NaN: FNUZ 0x80; OCP's sign bit is the input's, not modelled.
        assert_eq!(byte(cvt("__hip_cvt_float_to_fp8", f64::NAN, 1, 2)), 0x80);
        assert!(cvt("__hip_cvt_double_to_fp8", f64::NAN, 1, 0).is_err());
    }

    #[test]
    fn pairs_put_x_low_and_decode_back() {
        let i = |n: i128| KVal::int(Scalar::I32, n);
        let f = |x: f64| KVal::float(Scalar::F32, x);
        let pair = KVal::Vector {
            ty: Scalar::F32,
            items: vec![f(1.0), f(-2.0)],
        };
        // x = 1.0 → 0x40 low, y = -2.0 → 0xC8 high (FNUZ E4M3).
        let r = call("__hip_cvt_float2_to_fp8x2", &[pair, i(1), i(2)]).unwrap();
        assert_eq!(byte(r), 0xC840);
        let wide = KVal::Vector {
            ty: Scalar::F32,
            items: vec![f(1.0), f(500.0)],
        };
        assert!(call("__hip_cvt_float2_to_fp8x2", &[wide, i(1), i(2)])
            .unwrap()
            .is_err());
        let back = call(
            "__hip_cvt_fp8x2_to_halfraw2",
            &[KVal::int(Scalar::U16, 0xC840), i(2)],
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
        // 0x80 is FNUZ's NaN, OCP's −0.
        let h = |b: i128, interp: i128| {
            call(
                "__hip_cvt_fp8_to_halfraw",
                &[KVal::int(Scalar::U8, b), i(interp)],
            )
            .unwrap()
            .unwrap()
            .as_f64()
            .unwrap()
        };
        assert!(h(0x80, 2).is_nan());
        assert!(h(0x80, 0) == 0.0 && h(0x80, 0).is_sign_negative());
    }
}
