//! clang's AMDGPU FP8 conversion built-ins, the instructions `hip_fp8.h` and Composable Kernel
//! call on their fast path:
//!
//! - `int __builtin_amdgcn_cvt_pk_fp8_f32(float a, float b, int old, bool word_sel)`
//!   (`V_CVT_PK_FP8_F32`) and `__builtin_amdgcn_cvt_pk_bf8_f32` (`V_CVT_PK_BF8_F32`): `a` and
//!   `b` converted to FP8 (E4M3) or BF8 (E5M2), `a` in the low byte and `b` in the high byte
//!   of the 16-bit word `word_sel` picks (false: bits 15:0, true: bits 31:16); the other word
//!   is `old`'s. Sources: AMD Instinct MI300 (CDNA3) ISA, VOP3 opcodes `V_CVT_PK_FP8_F32` /
//!   `V_CVT_PK_BF8_F32` (`OPSEL[3]`, `word_sel`, selects the destination word, the other is
//!   preserved); HIP
//!   documentation, "Arithmetic and packing intrinsics for AMD GPUs", "Conversion and
//!   packing" ("pack into the upper or lower 16 bits of `dst` depending on `sel`"); and
//!   `hip_fp8.h`, whose pair conversion reads the `.x` byte from the low byte of word 0.
//! - `float __builtin_amdgcn_cvt_f32_fp8(int src, int byte_sel)` (`V_CVT_F32_FP8`) and
//!   `__builtin_amdgcn_cvt_f32_bf8` (`V_CVT_F32_BF8`): byte `byte_sel` (0 to 3, a constant in
//!   clang's prototype "fiIi") of `src` decoded, exactly (every FP8 value is a `float`).
//!
//! **Which format** (MLIR AMDGPU dialect, `Chipset.h` `hasOcpFp8` and `isSupportedF8`): gfx942
//! (gfx94x) converts to the FNUZ formats (`E4M3FNUZ`, bias 8, largest 240, NaN 0x80; `E5M2FNUZ`,
//! bias 16), gfx950 and gfx12 to the OCP ones (`E4M3FN`, largest 448; `E5M2` with
//! infinities). The formats are [`crate::fp8_format`]'s. The built-ins need target feature
//! `fp8-conversion-insts` (clang `BuiltinsAMDGPU.def`; HIP documentation: "gfx940, gfx12xx",
//! and gfx950): a call on another target is refused before the run ([`target_refusal`]).
//!
//! **Rounding.** To nearest even, the round mode a HIP kernel runs with (`.amdhsa_float_round_mode_32`
//! 0, round to nearest even), and what `hip_fp8.h`'s software `internal::cast_to_f8` does in
//! range, which the header swaps for these instructions on gfx942 and gfx12. The built-ins have no clamp operand (clang emits the
//! instruction with CLAMP = 0), and neither the ISA pseudocode nor `hip_fp8.h` says what an
//! unclamped conversion gives past the largest finite value (Composable Kernel clamps to
//! ±240 / ±448 before calling it): a magnitude past it, or an infinity, makes the word
//! undefined with that reason, as does an OCP NaN (its sign bit is the input NaN's, not
//! modelled); a NaN gives FNUZ's only NaN, 0x80. FNUZ has no −0: a negative value that
//! rounds to zero gives 0x00.

use crate::fp8_format::Format;
use crate::types::{KVal, Scalar};

/// A built-in of this module: name, argument count, result type, BF8 (E5M2) rather than FP8
/// (E4M3), instruction.
struct Cvt {
    name: &'static str,
    arity: usize,
    ty: Scalar,
    bf8: bool,
    insn: &'static str,
}

const CVTS: &[Cvt] = &[
    Cvt {
        name: "__builtin_amdgcn_cvt_pk_fp8_f32",
        arity: 4,
        ty: Scalar::I32,
        bf8: false,
        insn: "V_CVT_PK_FP8_F32",
    },
    Cvt {
        name: "__builtin_amdgcn_cvt_pk_bf8_f32",
        arity: 4,
        ty: Scalar::I32,
        bf8: true,
        insn: "V_CVT_PK_BF8_F32",
    },
    Cvt {
        name: "__builtin_amdgcn_cvt_f32_fp8",
        arity: 2,
        ty: Scalar::F32,
        bf8: false,
        insn: "V_CVT_F32_FP8",
    },
    Cvt {
        name: "__builtin_amdgcn_cvt_f32_bf8",
        arity: 2,
        ty: Scalar::F32,
        bf8: true,
        insn: "V_CVT_F32_BF8",
    },
];

fn find(name: &str) -> Option<&'static Cvt> {
    CVTS.iter().find(|c| c.name == name)
}

/// Whether `name` is one of this module's built-ins.
pub fn is_builtin(name: &str) -> bool {
    find(name).is_some()
}

/// The argument count of a built-in of this module.
pub fn arity(name: &str) -> Option<usize> {
    find(name).map(|c| c.arity)
}

/// The result type of a built-in of this module (clang's prototype: `int` for the packing
/// conversions, `float` for the unpacking ones).
pub fn result_type(name: &str) -> Option<Scalar> {
    find(name).map(|c| c.ty)
}

/// Whether AMD target `t` converts to the FNUZ formats (gfx94x), the OCP ones (gfx95x, gfx12xx),
/// or has no FP8 conversion instructions (`None`).
fn fnuz_on(t: &str) -> Option<bool> {
    if t.starts_with("gfx94") {
        Some(true)
    } else if t.starts_with("gfx95") || t.starts_with("gfx12") {
        Some(false)
    } else {
        None
    }
}

/// The refusal of built-in `name` where it does not exist: outside an AMD run (`target`
/// `None`), or on a target without FP8 conversion instructions. `None` for another name or
/// where it exists.
pub fn target_refusal(name: &str, target: Option<&str>) -> Option<String> {
    let c = find(name)?;
    match target {
        Some(t) if fnuz_on(t).is_some() => None,
        Some(t) => Some(format!(
            "`{name}` ({}) does not exist on {t}; it exists on gfx942 (FNUZ formats), gfx950 \
             and gfx1200 (OCP formats) (clang BuiltinsAMDGPU.def: target feature \
             fp8-conversion-insts); pick one with --arch, or convert with hip_fp8.h's \
             __hip_cvt_float2_to_fp8x2",
            c.insn
        )),
        None => Some(format!(
            "`{name}` ({}) is an AMD GPU built-in: run the kernel as HIP (--dialect hip) with \
             an AMD target that has it (gfx942, gfx950, gfx1200)",
            c.insn
        )),
    }
}

/// Runs built-in `name` on one lane's arguments for AMD target `target`; `None` when `name`
/// is not one of this module's.
///
/// # Errors
/// A wrong argument; no target with FP8 conversions; a conversion the instruction's
/// documentation leaves open (module documentation), each with the reason.
pub fn call(name: &str, args: &[KVal], target: Option<&str>) -> Option<Result<KVal, String>> {
    let c = find(name)?;
    Some(run(c, args, target))
}

fn run(c: &Cvt, args: &[KVal], target: Option<&str>) -> Result<KVal, String> {
    let name = c.name;
    if args.len() != c.arity {
        return Err(format!(
            "`{name}` takes {} arguments, got {}",
            c.arity,
            args.len()
        ));
    }
    let Some(fnuz) = target.and_then(fnuz_on) else {
        return Err(target_refusal(name, target).unwrap_or_default());
    };
    let f = format(c.bf8, fnuz);
    let int = |k: usize| {
        args[k]
            .as_int()
            .ok_or_else(|| format!("`{name}` needs an integer as argument {}", k + 1))
    };
    if c.arity == 2 {
        let sel = int(1)?;
        if !(0..=3).contains(&sel) {
            return Err(format!("`{name}`: byte_sel is 0 to 3, got {sel}"));
        }
        let byte = (int(0)? as u32 >> (8 * sel as u32)) as u8;
        return Ok(KVal::float(Scalar::F32, f.decode(byte)));
    }
    let float = |k: usize| {
        args[k]
            .as_f64()
            .map(|x| f64::from(x as f32))
            .ok_or_else(|| format!("`{name}` needs a float as argument {}", k + 1))
    };
    let lo = encode(f, float(0)?).map_err(|m| format!("`{name}` of argument 1: {m}"))?;
    let hi = encode(f, float(1)?).map_err(|m| format!("`{name}` of argument 2: {m}"))?;
    let word = u32::from(lo) | u32::from(hi) << 8;
    let old = int(2)? as u32;
    let out = if int(3)? != 0 {
        old & 0x0000_ffff | word << 16
    } else {
        old & 0xffff_0000 | word
    };
    Ok(KVal::int(Scalar::I32, i128::from(out as i32)))
}

/// The format the instruction converts to: FP8 is E4M3, BF8 E5M2, FNUZ on gfx942.
fn format(bf8: bool, fnuz: bool) -> Format {
    match (bf8, fnuz) {
        (false, true) => Format::E4M3_FNUZ,
        (true, true) => Format::E5M2_FNUZ,
        (false, false) => Format::E4M3,
        (true, false) => Format::E5M2,
    }
}

/// `x` rounded to nearest even and encoded in `f`; `Err` where the documentation leaves the
/// byte open (module documentation).
fn encode(f: Format, x: f64) -> Result<u8, String> {
    if x.is_nan() {
        if f.fnuz {
            return Ok(0x80);
        }
        return Err(
            "a NaN gives an OCP NaN whose sign bit is the input NaN's, which crosslane \
                    does not model"
                .into(),
        );
    }
    if x.is_infinite() || x.abs() > f.max {
        return Err(format!(
            "{x} is past the largest finite value {} of the format, and what the conversion \
             gives there without the clamp bit is not documented (CDNA3 ISA; hip_fp8.h and \
             Composable Kernel clamp to ±{} first): clamp it with fminf / fmaxf",
            f.max, f.max
        ));
    }
    f.encode(f.round(x, false))
        .ok_or_else(|| format!("{x} has no 8-bit encoding"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pk(name: &str, a: f64, b: f64, old: i128, sel: bool, t: &str) -> Result<i128, String> {
        let f = |x: f64| KVal::float(Scalar::F32, x);
        let i = |n: i128| KVal::int(Scalar::I32, n);
        call(name, &[f(a), f(b), i(old), i(i128::from(sel))], Some(t))
            .unwrap()
            .map(|v| v.as_int().unwrap() as u32 as i128)
    }

    #[test]
    fn pairs_pack_into_the_selected_word() {
        // FNUZ E4M3 (bias 8): 1.0 = 0.1000.000 = 0x40, −2.0 = 1.1001.000 = 0xC8.
        let p = "__builtin_amdgcn_cvt_pk_fp8_f32";
        assert_eq!(pk(p, 1.0, -2.0, 0, false, "gfx942"), Ok(0xC840));
        // Word 1, word 0 of old kept.
        assert_eq!(
            pk(p, 1.0, -2.0, 0x1234_5678, true, "gfx942"),
            Ok(0xC840_5678)
        );
        // OCP E4M3 (bias 7): 1.0 = 0.0111.000 = 0x38, −2.0 = 1.1000.000 = 0xC0.
        assert_eq!(pk(p, 1.0, -2.0, 0, false, "gfx950"), Ok(0xC038));
        // BF8 FNUZ (bias 16): 1.0 = 0.10000.00 = 0x40; OCP E5M2 (bias 15): 0.01111.00 = 0x3C.
        let b = "__builtin_amdgcn_cvt_pk_bf8_f32";
        assert_eq!(pk(b, 1.0, 1.0, 0, false, "gfx942"), Ok(0x4040));
        assert_eq!(pk(b, 1.0, 1.0, 0, false, "gfx1200"), Ok(0x3C3C));
        // Past the largest value and infinities: undefined; FNUZ NaN 0x80.
        assert!(pk(p, 241.0, 0.0, 0, false, "gfx942").is_err());
        assert!(pk(p, f64::INFINITY, 0.0, 0, false, "gfx950").is_err());
        assert_eq!(pk(p, f64::NAN, 0.0, 0, false, "gfx942"), Ok(0x0080));
        assert!(pk(p, 1.0, 1.0, 0, false, "gfx1100").is_err());
    }
}
