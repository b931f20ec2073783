//! The packing FP8 `cvt` rows of [`super::ROWS`] (PTX ISA 8.5, "Data Movement and Conversion
//! Instructions: cvt", `cvt.rn.satfinite{.relu}.f8x2type.f32 d, a, b;`, `.f8x2type` one of
//! `.e4m3x2`, `.e5m2x2`; sm_89 and newer): `a` and `b` are `.f32` registers (`"f"`), `d` a
//! 16-bit register (`"h"`); "the result of `a` is stored in the upper half and `b` in the
//! lower half of `d`". Each converts rounding to nearest even, and `.satfinite`, which the
//! syntax requires for these destinations, turns a magnitude past the format's largest finite
//! value (an infinity included) into that value with the input's sign. A NaN input gives a
//! NaN: 0x7F in either format, whatever the sign, as an NVIDIA H200 returned it
//! ([`crate::fp8_format::Format::encode`]; the PTX ISA does not say which NaN encoding).
//! The formats are OCP E4M3 and E5M2 ([`crate::fp8`]). `.relu` is not emulated (refused by
//! name).

use super::{f_of, Mods};
use crate::types::{KVal, Scalar};

/// The byte of `x` (an `.f32`) in `ty`, saturated.
fn byte(ty: Scalar, x: f64) -> Result<u32, String> {
    let r = crate::fp8::round(ty, f64::from(x as f32), true);
    crate::fp8::encode(ty, r)
        .map(u32::from)
        .ok_or_else(|| format!("{x} has no 8-bit encoding in {}", ty.name()))
}

fn pack(ty: Scalar, m: Mods, a: &[KVal]) -> Result<KVal, String> {
    if !m.satfinite {
        return Err("the FP8 `cvt` needs `.satfinite` (PTX ISA, cvt)".into());
    }
    let hi = byte(ty, f_of(a, 0)?)?;
    let lo = byte(ty, f_of(a, 1)?)?;
    Ok(KVal::int(Scalar::U16, i128::from(hi << 8 | lo)))
}

/// `cvt.rn.satfinite.e4m3x2.f32 d, a, b;`.
pub(super) fn e4m3x2(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    pack(Scalar::E4M3, m, a)
}

/// `cvt.rn.satfinite.e5m2x2.f32 d, a, b;`.
pub(super) fn e5m2x2(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    pack(Scalar::E5M2, m, a)
}

#[cfg(test)]
mod tests {
    use super::super::{call, callee, decode};
    use crate::types::{KVal, Scalar};

    fn run(m: &str, a: f64, b: f64) -> u32 {
        let f = |x: f64| KVal::float(Scalar::F32, x);
        call(&callee(m), &[f(a), f(b)])
            .unwrap()
            .unwrap()
            .as_int()
            .unwrap() as u32
    }

    #[test]
    fn a_goes_high_saturated() {
        // E4M3: 1.0 = 0 0111 000 = 0x38 (high), -2.0 = 1 1000 000 = 0xC0 (low).
        assert_eq!(run("cvt.rn.satfinite.e4m3x2.f32", 1.0, -2.0), 0x38C0);
        // 500 > 448 saturates to 448 = 0x7E; a NaN is 0x7F (the H200's byte).
        assert_eq!(run("cvt.rn.satfinite.e4m3x2.f32", 500.0, f64::NAN), 0x7E7F);
        // -inf saturates to -448 = 0xFE; 1.0625 ties to 1.0 (mantissa 000 even) = 0x38.
        assert_eq!(
            run("cvt.rn.satfinite.e4m3x2.f32", f64::NEG_INFINITY, 1.0625),
            0xFE38
        );
        // E5M2: 1e6 saturates to 57344 = 0 11110 11 = 0x7B; 1.0 = 0 01111 00 = 0x3C.
        assert_eq!(run("cvt.rn.satfinite.e5m2x2.f32", 1e6, 1.0), 0x7B3C);
        assert!(decode("cvt.rn.e4m3x2.f32").is_err());
        assert!(decode("cvt.rn.satfinite.relu.e4m3x2.f32").is_err());
    }
}
