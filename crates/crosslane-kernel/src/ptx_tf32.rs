//! The PTX conversion of an `.f32` to the `.tf32` format, as inline `asm` writes it
//! (`asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t) : "f"(x))`), and the same rounding for
//! `nvcuda::wmma::__float_to_tf32` ([`crate::wmma_header`]).
//!
//! Sources: PTX ISA, "Data Movement and Conversion Instructions: cvt"
//! (`cvt.rna{.satfinite}.tf32.f32 d, a;` and, from sm_90, `cvt.frnd2{.satfinite}{.relu}.tf32.f32
//! d, a;` with `.frnd2` = `.rn`, `.rz`), and "Alternate Floating-Point Data Formats" (`.tf32`: the
//! range of `.f32` with at least 10 bits of precision; "a register variable containing tf32
//! data must be declared with .b32 type").
//!
//! | rule (PTX ISA) | here |
//! |---|---|
//! | `.rna`: round to nearest, ties away from zero | the `.f32` rounded to 10 explicit mantissa bits so |
//! | `.rn`: nearest, ties to even; `.rz`: toward zero | the same, in that mode |
//! | the destination is a `.b32` register (constraint `r`), the source an `.f32` (`f`) | any other constraint is refused before the run |
//! | `.satfinite`: a result beyond the largest finite value is that value, of the input's sign | so; without it an overflow of the rounding gives ±∞ |
//! | NaN in, NaN out | the lane is undefined: floats are kept as values, and a NaN's bit pattern in an integer register is not modelled |
//! | the tf32 layout inside the `.b32` is "implementation defined" | crosslane writes the rounded value's `.f32` encoding (its 13 low mantissa bits zero), so `__uint_as_float(t)` reads the rounded value back; a device may lay the bits out otherwise |
//!
//! `.relu` is refused before the run.

/// The rounding of a `.tf32` conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tf32Round {
    /// `.rna`: nearest, ties away from zero.
    NearestAway,
    /// `.rn`: nearest, ties to even.
    NearestEven,
    /// `.rz`: toward zero.
    Zero,
}

/// The mantissa bits of an `.f32` below the 10 that `.tf32` keeps.
const DROPPED: u32 = 13;

/// The largest finite `.tf32` value's `.f32` encoding (magnitude).
const MAX_FINITE: u32 = 0x7f7f_e000;

/// `bits` (an `.f32` encoding) rounded to `.tf32` in `mode`, as an `.f32` encoding whose 13 low
/// mantissa bits are zero; `satfinite` clamps a finite input whose rounding overflows to the
/// largest finite value. Infinities stay; a NaN gives `None`.
pub fn round_bits(bits: u32, mode: Tf32Round, satfinite: bool) -> Option<u32> {
    let sign = bits & 0x8000_0000;
    let mag = bits & 0x7fff_ffff;
    if mag > 0x7f80_0000 {
        return None;
    }
    if mag == 0x7f80_0000 {
        return Some(bits);
    }
    let half = 1u32 << (DROPPED - 1);
    let low = mag & ((1 << DROPPED) - 1);
    let kept = mag & !((1 << DROPPED) - 1);
    let up = match mode {
        Tf32Round::Zero => false,
        Tf32Round::NearestAway => low >= half,
        Tf32Round::NearestEven => low > half || (low == half && (kept >> DROPPED) & 1 == 1),
    };
    // A carry out of the mantissa steps the exponent (and from the largest finite value to
    // the infinity 0x7f800000): the encoding's order is the magnitude's.
    let mut r = if up { kept + (1 << DROPPED) } else { kept };
    if satfinite && r > MAX_FINITE {
        r = MAX_FINITE;
    }
    Some(sign | r)
}

/// Checks the tf32 form of a `cvt` (`instr` without operands, `.tf32` its destination type)
/// with the operands' constraint letters: its rounding and whether `.satfinite` is there.
///
/// # Errors
/// What is not emulated or not allowed (module table), in words.
pub fn check(instr: &str, out: char, input: char) -> Result<(Tf32Round, bool), String> {
    let parts: Vec<&str> = instr.split('.').collect();
    if parts.len() < 4 || parts[0] != "cvt" || !instr.ends_with(".tf32.f32") {
        return Err(format!(
            "`{instr}`: a conversion to .tf32 is `cvt.rna.tf32.f32` (also .rn, .rz; PTX ISA, cvt), \
             from an .f32 only"
        ));
    }
    let mut round = None;
    let mut satfinite = false;
    for m in &parts[1..parts.len() - 2] {
        let mode = match *m {
            "rna" => Tf32Round::NearestAway,
            "rn" => Tf32Round::NearestEven,
            "rz" => Tf32Round::Zero,
            "satfinite" => {
                satfinite = true;
                continue;
            }
            other => {
                return Err(format!(
                    "`{instr}`: the modifier `.{other}` is not emulated for a .tf32 destination \
                     (cvt to .tf32 here takes .rna, .rn or .rz and .satfinite)"
                ))
            }
        };
        if round.replace(mode).is_some() {
            return Err(format!("`{instr}` has more than one rounding modifier"));
        }
    }
    let Some(round) = round else {
        return Err(format!(
            "`{instr}`: a cvt to .tf32 needs a rounding: .rna (round to nearest, ties away), or \
             .rn / .rz (PTX ISA, cvt)"
        ));
    };
    if out != 'r' || input != 'f' {
        return Err(format!(
            "`{instr}`: the destination is a .b32 register (`\"=r\"(t)`, an unsigned int) and the \
             source an .f32 (`\"f\"(x)`) (PTX ISA, Alternate Floating-Point Data Formats: tf32 \
             data lives in a .b32 register); got `{out}` and `{input}`"
        ));
    }
    Ok((round, satfinite))
}

/// The `.b32` result of the tf32 `cvt` of the `.f32` value `x` (module table).
///
/// # Errors
/// A NaN source, whose result's bits are not modelled.
pub fn convert(x: f32, round: Tf32Round, satfinite: bool) -> Result<u32, String> {
    round_bits(x.to_bits(), round, satfinite).ok_or_else(|| {
        "`cvt` to .tf32 of a NaN gives a NaN, whose bit pattern in an integer register the \
         emulator does not model (floats are kept as values)"
            .to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rna_rounds_to_ten_mantissa_bits_ties_away() {
        // Python (struct): hex of the f32 bits; 1 + 2^-11 = 0x3f801000 is half of tf32's ulp
        // 2^-10 above 1: ties away gives 1 + 2^-10 = 0x3f802000, ties to even gives 1.0.
        let tie = 0x3f80_1000;
        assert_eq!(
            round_bits(tie, Tf32Round::NearestAway, false),
            Some(0x3f80_2000)
        );
        assert_eq!(
            round_bits(tie, Tf32Round::NearestEven, false),
            Some(0x3f80_0000)
        );
        assert_eq!(
            round_bits(0xbf80_1000, Tf32Round::NearestAway, false),
            Some(0xbf80_2000)
        );
        // 0.1f = 0x3dcccccd: low 13 bits 0x0ccd < 0x1000, so 0x3dccc000 by every mode.
        assert_eq!(convert(0.1, Tf32Round::NearestAway, false), Ok(0x3dcc_c000));
        // 1/3 = 0x3eaaaaab: low bits 0x0aab < 0x1000 → 0x3eaaa000; 2/3 = 0x3f2aaaab likewise.
        assert_eq!(
            convert(1.0 / 3.0, Tf32Round::NearestAway, false),
            Ok(0x3eaa_a000)
        );
        // 0x3f7ff000 (just below 1): low bits 0x1000 ties away to 0x3f800000 = 1.0 (carry into
        // the exponent); rz keeps 0x3f7fe000.
        assert_eq!(
            round_bits(0x3f7f_f000, Tf32Round::NearestAway, false),
            Some(0x3f80_0000)
        );
        assert_eq!(
            round_bits(0x3f7f_f000, Tf32Round::Zero, false),
            Some(0x3f7f_e000)
        );
    }

    #[test]
    fn overflow_infinities_and_nan() {
        // f32::MAX = 0x7f7fffff rounds away to +inf; .satfinite keeps 0x7f7fe000.
        assert_eq!(
            round_bits(0x7f7f_ffff, Tf32Round::NearestAway, false),
            Some(0x7f80_0000)
        );
        assert_eq!(
            round_bits(0xff7f_ffff, Tf32Round::NearestAway, true),
            Some(0xff7f_e000)
        );
        assert_eq!(
            round_bits(0xff80_0000, Tf32Round::NearestAway, false),
            Some(0xff80_0000)
        );
        assert!(convert(f32::NAN, Tf32Round::NearestAway, false).is_err());
    }

    #[test]
    fn forms_ptx_does_not_have_are_refused() {
        assert_eq!(
            check("cvt.rna.tf32.f32", 'r', 'f'),
            Ok((Tf32Round::NearestAway, false))
        );
        assert!(check("cvt.tf32.f32", 'r', 'f')
            .unwrap_err()
            .contains(".rna"));
        assert!(check("cvt.rna.tf32.f32", 'f', 'f').is_err());
        assert!(check("cvt.rna.relu.tf32.f32", 'r', 'f')
            .unwrap_err()
            .contains(".relu"));
        assert!(check("cvt.rna.tf32.f16", 'r', 'h').is_err());
    }
}
