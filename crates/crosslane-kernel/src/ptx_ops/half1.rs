//! The scalar 16-bit float rows of [`super::ROWS`] and the packed bfloat16 ones (PTX ISA 8.5,
//! "Half Precision Floating-Point Instructions": `add`, `sub`, `mul`, `fma`, `max`, `min`):
//! a `.f16` or `.bf16` operand is a 16-bit register (`"h"`) holding one IEEE binary16 or
//! bfloat16 value; a `.bf16x2` operand a 32-bit register (`"r"`) holding two, element 0 in
//! bits 0–15. Each result is rounded once to nearest even (`.rn`, the only mode); the
//! product and sum of two 16-bit values are exact in `f64`, and `fma` rounds once
//! ([`crate::half::fma16`]). A NaN result is the canonical NaN `0x7fff` (PTX ISA, Half
//! Precision Floating-Point Instructions: NaN results are canonical). `max`/`min` give the
//! other operand when one is NaN and NaN when both are (PTX ISA, max, min; `-0.0` below `+0.0`).
//! Target ISA notes (PTX ISA, each instruction): `.f16` arithmetic sm_53, `max`/`min` and
//! `fma.rn.bf16` sm_80, `add`/`sub`/`mul` `.bf16` sm_90.

use half::{bf16, f16};

use super::{pick, u32_of, Mods};
use crate::half::fma16;
use crate::types::{round16, KVal, Scalar};

/// The value of 16-bit register bits `b` in `ty` (`F16` or `Bf16`).
fn value(ty: Scalar, b: u16) -> f64 {
    if ty == Scalar::F16 {
        f16::from_bits(b).to_f64()
    } else {
        bf16::from_bits(b).to_f64()
    }
}

/// The bits of `x` (already representable in `ty`), the canonical NaN for a NaN (PTX ISA,
/// Half Precision Floating-Point Instructions: "NaN results are canonical"); the packed rows
/// of `half2` use it too.
pub(super) fn bits(ty: Scalar, x: f64) -> u32 {
    if x.is_nan() {
        0x7fff
    } else if ty == Scalar::F16 {
        u32::from(f16::from_f64(x).to_bits())
    } else {
        u32::from(bf16::from_f64(x).to_bits())
    }
}

/// `f` on a scalar instruction's sources, its result in a 16-bit register.
fn scalar(ty: Scalar, args: &[KVal], f: &dyn Fn(&[f64]) -> f64) -> Result<KVal, String> {
    let xs = (0..args.len())
        .map(|k| u32_of(args, k).map(|v| value(ty, v as u16)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(KVal::int(Scalar::U16, i128::from(bits(ty, f(&xs)))))
}

/// `f` on each element of `.bf16x2` sources, packed back.
fn pairwise(args: &[KVal], f: &dyn Fn(&[f64]) -> f64) -> Result<KVal, String> {
    let regs = (0..args.len())
        .map(|k| u32_of(args, k))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = 0u32;
    for e in 0..2 {
        let xs: Vec<f64> = regs
            .iter()
            .map(|r| value(Scalar::Bf16, (r >> (16 * e)) as u16))
            .collect();
        out |= bits(Scalar::Bf16, f(&xs)) << (16 * e);
    }
    Ok(KVal::int(Scalar::U32, i128::from(out)))
}

// The 16-bit operations, each rounded once to `ty` (`F16` or `Bf16`): the sum, difference
// and product of two 16-bit values are exact in `f64`, so one `round16` is the single
// rounding; `fma16` rounds a · b + c once. Shared with the packed `.f16x2` rows of `half2`.

/// `add` of two 16-bit values in `ty`, rounded once.
pub(super) fn add(ty: Scalar) -> impl Fn(&[f64]) -> f64 {
    move |x| round16(ty, x[0] + x[1])
}
/// `sub` of two 16-bit values in `ty`, rounded once.
pub(super) fn sub(ty: Scalar) -> impl Fn(&[f64]) -> f64 {
    move |x| round16(ty, x[0] - x[1])
}
/// `mul` of two 16-bit values in `ty`, rounded once.
pub(super) fn mul(ty: Scalar) -> impl Fn(&[f64]) -> f64 {
    move |x| round16(ty, x[0] * x[1])
}
/// `fma` of three 16-bit values in `ty`, a · b + c rounded once.
pub(super) fn fma(ty: Scalar) -> impl Fn(&[f64]) -> f64 {
    move |x| fma16(ty, x[0], x[1], x[2])
}

/// `add{.rn}.f16`.
pub(super) fn add_f16(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    scalar(Scalar::F16, a, &add(Scalar::F16))
}
/// `sub{.rn}.f16`.
pub(super) fn sub_f16(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    scalar(Scalar::F16, a, &sub(Scalar::F16))
}
/// `mul{.rn}.f16`.
pub(super) fn mul_f16(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    scalar(Scalar::F16, a, &mul(Scalar::F16))
}
/// `fma.rn.f16`.
pub(super) fn fma_f16(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    scalar(Scalar::F16, a, &fma(Scalar::F16))
}
/// `max.f16`.
pub(super) fn max_f16(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    scalar(Scalar::F16, a, &|x| pick(x, true))
}
/// `min.f16`.
pub(super) fn min_f16(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    scalar(Scalar::F16, a, &|x| pick(x, false))
}
/// `add{.rn}.bf16`.
pub(super) fn add_bf16(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    scalar(Scalar::Bf16, a, &add(Scalar::Bf16))
}
/// `sub{.rn}.bf16`.
pub(super) fn sub_bf16(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    scalar(Scalar::Bf16, a, &sub(Scalar::Bf16))
}
/// `mul{.rn}.bf16`.
pub(super) fn mul_bf16(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    scalar(Scalar::Bf16, a, &mul(Scalar::Bf16))
}
/// `fma.rn.bf16`.
pub(super) fn fma_bf16(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    scalar(Scalar::Bf16, a, &fma(Scalar::Bf16))
}
/// `max.bf16`.
pub(super) fn max_bf16(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    scalar(Scalar::Bf16, a, &|x| pick(x, true))
}
/// `min.bf16`.
pub(super) fn min_bf16(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    scalar(Scalar::Bf16, a, &|x| pick(x, false))
}
/// `add{.rn}.bf16x2`.
pub(super) fn add_bf16x2(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    pairwise(a, &add(Scalar::Bf16))
}
/// `sub{.rn}.bf16x2`.
pub(super) fn sub_bf16x2(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    pairwise(a, &sub(Scalar::Bf16))
}
/// `mul{.rn}.bf16x2`.
pub(super) fn mul_bf16x2(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    pairwise(a, &mul(Scalar::Bf16))
}
/// `fma.rn.bf16x2`.
pub(super) fn fma_bf16x2(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    pairwise(a, &fma(Scalar::Bf16))
}
/// `max.bf16x2`.
pub(super) fn max_bf16x2(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    pairwise(a, &|x| pick(x, true))
}
/// `min.bf16x2`.
pub(super) fn min_bf16x2(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    pairwise(a, &|x| pick(x, false))
}

#[cfg(test)]
mod tests {
    use super::super::{call, callee};
    use super::*;

    fn h(v: u16) -> KVal {
        KVal::int(Scalar::U16, i128::from(v))
    }

    fn run(m: &str, args: &[KVal]) -> u32 {
        call(&callee(m), args).unwrap().unwrap().as_int().unwrap() as u32
    }

    #[test]
    fn scalar_half_arithmetic() {
        // 1.0 (0x3c00) + 2.0 (0x4000) = 3.0 (0x4200); 1.5 (0x3e00) - 2.0 = -0.5 (0xb800).
        assert_eq!(run("add.f16", &[h(0x3c00), h(0x4000)]), 0x4200);
        assert_eq!(run("sub.rn.f16", &[h(0x3e00), h(0x4000)]), 0xb800);
        // fma: 1 · 2^-11 (0x1000) + (1 + 2^-10) (0x3c01) = 1 + 3·2^-11, halfway between
        // 0x3c01 and 0x3c02: even is 0x3c02. With c = 1.0 (0x3c00) the tie 1 + 2^-11 goes to
        // 0x3c00.
        assert_eq!(
            run("fma.rn.f16", &[h(0x3c00), h(0x1000), h(0x3c01)]),
            0x3c02
        );
        assert_eq!(
            run("fma.rn.f16", &[h(0x3c00), h(0x1000), h(0x3c00)]),
            0x3c00
        );
        // max(NaN 0x7e00, 2.0) = 2.0; min(-0.0 0x8000, +0.0) = -0.0.
        assert_eq!(run("max.f16", &[h(0x7e00), h(0x4000)]), 0x4000);
        assert_eq!(run("min.f16", &[h(0x0000), h(0x8000)]), 0x8000);
        // Infinity - infinity is NaN: the canonical 0x7fff.
        assert_eq!(run("sub.f16", &[h(0x7c00), h(0x7c00)]), 0x7fff);
    }

    #[test]
    fn scalar_and_packed_bfloat16() {
        // 1.5 (0x3fc0) · 3.0 (0x4040) = 4.5 (0x4090).
        assert_eq!(run("mul.rn.bf16", &[h(0x3fc0), h(0x4040)]), 0x4090);
        // 1 + 2^-8: bf16 keeps 8 significant bits, 1 + 2^-8 is the tie between 1.0 and
        // 1 + 2^-7: even is 1.0 (0x3f80). 2^-8 is 0x3b80.
        assert_eq!(run("add.bf16", &[h(0x3f80), h(0x3b80)]), 0x3f80);
        // min(-1 0xbf80, 0.5 0x3f00) = -1.
        assert_eq!(run("min.bf16", &[h(0xbf80), h(0x3f00)]), 0xbf80);
        // bf16x2 fma: low 2·3 + 1 = 7 (0x40e0), high -1·1 + 0.5 = -0.5 (0xbf00).
        let r = |v: u32| KVal::int(Scalar::U32, i128::from(v));
        assert_eq!(
            run(
                "fma.rn.bf16x2",
                &[r(0xbf80_4000), r(0x3f80_4040), r(0x3f00_3f80)]
            ),
            0xbf00_40e0
        );
    }
}
