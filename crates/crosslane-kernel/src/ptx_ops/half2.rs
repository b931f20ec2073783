//! The packed-half rows of [`super::ROWS`] (PTX ISA 8.5, "Half Precision Floating-Point
//! Instructions"): a `.f16x2` operand is a 32-bit register (`"r"`) holding two IEEE binary16
//! values, element 0 in bits 0–15 and element 1 in bits 16–31; each operation works on the
//! two elements apart and rounds each result once to nearest even (`.rn`, the only mode).
//! A NaN result is the canonical NaN `0x7fff` (PTX ISA, Half Precision Floating-Point
//! Instructions: "NaN results are canonical"); `cvt.rn.f16x2.f32 d, a, b;` puts `a`'s
//! conversion in the upper half and `b`'s in the lower (PTX ISA, cvt: "the result of `a` is
//! stored in the upper half and `b` in the lower half of `d`").

use half::f16;

use super::half1::{self, bits};
use super::{f_of, pick, u32_of, Mods};
use crate::types::{round16, KVal, Scalar};

/// The two elements of a `.f16x2` register: (low, high).
fn halves(v: u32) -> [f64; 2] {
    [
        f16::from_bits(v as u16).to_f64(),
        f16::from_bits((v >> 16) as u16).to_f64(),
    ]
}

/// The bits of a `.f16` result (`x` already representable), the canonical NaN for a NaN.
fn bits16(x: f64) -> u32 {
    bits(Scalar::F16, x)
}

/// `f` on the elements of the sources, element by element, packed back.
fn lanewise(args: &[KVal], f: &dyn Fn(&[f64]) -> f64) -> Result<KVal, String> {
    let regs = (0..args.len())
        .map(|k| u32_of(args, k).map(halves))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = 0u32;
    for e in 0..2 {
        let xs: Vec<f64> = regs.iter().map(|r| r[e]).collect();
        out |= bits16(f(&xs)) << (16 * e);
    }
    Ok(KVal::int(Scalar::U32, i128::from(out)))
}

/// `fma.rn.f16x2`: a · b + c per element, rounded once.
pub(super) fn fma(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    lanewise(a, &half1::fma(Scalar::F16))
}

/// `add{.rn}.f16x2` (the sum of two halves is exact in `f64`, rounded once).
pub(super) fn add(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    lanewise(a, &half1::add(Scalar::F16))
}

/// `sub{.rn}.f16x2`.
pub(super) fn sub(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    lanewise(a, &half1::sub(Scalar::F16))
}

/// `mul{.rn}.f16x2` (the product of two halves is exact in `f64`).
pub(super) fn mul(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    lanewise(a, &half1::mul(Scalar::F16))
}

/// `max.f16x2`.
pub(super) fn max(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    lanewise(a, &|x| pick(x, true))
}

/// `min.f16x2`.
pub(super) fn min(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    lanewise(a, &|x| pick(x, false))
}

/// `cvt.rn.f16x2.f32 d, a, b;`: `a` rounded to binary16 in the upper half, `b` in the lower.
pub(super) fn cvt_f16x2(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    let (hi, lo) = (f_of(a, 0)? as f32, f_of(a, 1)? as f32);
    let h = bits16(round16(Scalar::F16, f64::from(hi)));
    let l = bits16(round16(Scalar::F16, f64::from(lo)));
    Ok(KVal::int(Scalar::U32, i128::from(h << 16 | l)))
}

/// `cvt.rn.bf16x2.f32 d, a, b;`: as [`cvt_f16x2`] in bfloat16 (canonical NaN `0x7fff`).
pub(super) fn cvt_bf16x2(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    let b = |x: f64| bits(Scalar::Bf16, round16(Scalar::Bf16, f64::from(x as f32)));
    let (hi, lo) = (f_of(a, 0)?, f_of(a, 1)?);
    Ok(KVal::int(Scalar::U32, i128::from(b(hi) << 16 | b(lo))))
}

#[cfg(test)]
mod tests {
    use super::super::{call, callee};
    use super::*;

    fn r(v: u32) -> KVal {
        KVal::int(Scalar::U32, i128::from(v))
    }

    fn run(m: &str, args: &[KVal]) -> u32 {
        call(&callee(m), args).unwrap().unwrap().as_int().unwrap() as u32
    }

    #[test]
    fn fma_per_half() {
        // low: 1.0 (0x3c00) * 2.0 (0x4000) + 0.5 (0x3800) = 2.5 (0x4100);
        // high: -1.0 (0xbc00) * 3.0 (0x4200) + 1.0 (0x3c00) = -2.0 (0xc000).
        let v = run(
            "fma.rn.f16x2",
            &[r(0xbc00_3c00), r(0x4200_4000), r(0x3c00_3800)],
        );
        assert_eq!(v, 0xc000_4100);
    }

    #[test]
    fn cvt_puts_a_high() {
        // a = 1.0 → 0x3c00 high, b = -2.0 → 0xc000 low.
        let f = |x: f32| KVal::float(Scalar::F32, f64::from(x));
        assert_eq!(run("cvt.rn.f16x2.f32", &[f(1.0), f(-2.0)]), 0x3c00_c000);
        // bf16 of 1.0 is 0x3f80.
        assert_eq!(run("cvt.rn.bf16x2.f32", &[f(1.0), f(1.0)]), 0x3f80_3f80);
    }

    #[test]
    fn max_with_nan_gives_other() {
        // low: NaN (0x7e00) vs 1.0 → 1.0; high: 2.0 (0x4000) vs -3.0 (0xc200) → 2.0.
        assert_eq!(
            run("max.f16x2", &[r(0x4000_7e00), r(0xc200_3c00)]),
            0x4000_3c00
        );
    }
}
