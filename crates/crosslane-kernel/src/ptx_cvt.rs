//! The PTX `cvt` instruction as inline `asm` writes it (`asm("cvt.rni.sat.s8.f32 %0, %1;" :
//! "=r"(d) : "f"(x))`): one value converted between the PTX fundamental types `.u8 .u16 .u32
//! .u64 .s8 .s16 .s32 .s64 .f16 .bf16 .f32 .f64`, read from and written to registers of the
//! operands' constraints. Source: PTX ISA, "Data Movement and Conversion Instructions: cvt"
//! (`cvt{.irnd}{.ftz}{.sat}.dtype.atype d, a;` and `cvt{.frnd}{.ftz}{.sat}.dtype.atype d, a;`),
//! "Rounding Modifiers" and "Operand Size Exceeding Instruction-Type Size"; the constraint
//! letters from CUDA C++ Programming Guide, "Inline PTX Assembly in CUDA" (`h` = `.u16`
//! register, `r` = `.u32`, `l` = `.u64`, `f` = `.f32`, `d` = `.f64`).
//!
//! | rule (PTX ISA, cvt) | here |
//! |---|---|
//! | float → integer needs an integer rounding `.rni` (nearest, ties to even), `.rzi` (toward zero), `.rmi` (toward −∞), `.rpi` (toward +∞) | the value rounded so; the result is clamped to the destination's range (saturation is the default for float → integer, `.sat` redundant); NaN gives 0 |
//! | integer → float and a narrowing float → float need a float rounding `.rn .rz .rm .rp` | rounded once to the destination type in that mode (overflow: `.rn` gives ±∞, a directed mode may stop at the largest finite value) |
//! | float → same float with an integer rounding (`cvt.rni.f32.f32`) | rounded to an integral value in the destination type |
//! | a widening float → float | exact |
//! | integer → integer | no rounding modifier; a narrowing one keeps the low bits, or with `.sat` clamps to the destination's range; a widening one sign-extends a signed source, zero-extends an unsigned one |
//! | `.sat` with a float destination | the result clamped to [0.0, 1.0], NaN to +0.0 |
//! | `.ftz` | a subnormal `.f32` source or result becomes a zero of its sign |
//! | a source register wider than `atype` | its low `atype` bits are read |
//! | a destination register wider than `dtype` | a signed result sign-extended to the register, any other zero-extended |
//!
//! A conversion to `.tf32` (`cvt.rna.tf32.f32`) has its own rules, in [`crate::ptx_tf32`].
//!
//! Every other form (another modifier such as `.relu` / `.satfinite`, a packed `.f16x2`, two
//! sources, an integer rounding where a float rounding belongs) is refused before the run,
//! naming what is not emulated.

use half::{bf16, f16};

use crate::types::{round16, KVal, Scalar, ValTy};

/// The callee name prefix of a lowered `cvt` (`__ptx_cvt:rf:cvt.rni.sat.s8.f32`: output
/// constraint, input constraint, the instruction). A name no source can spell (`:` and `.`).
pub const PREFIX: &str = "__ptx_cvt:";

/// A PTX fundamental type `cvt` converts between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PtxTy {
    U(u32),
    S(u32),
    F16,
    Bf16,
    F32,
    F64,
}

impl PtxTy {
    fn parse(t: &str) -> Option<Self> {
        Some(match t {
            "u8" => PtxTy::U(8),
            "u16" => PtxTy::U(16),
            "u32" => PtxTy::U(32),
            "u64" => PtxTy::U(64),
            "s8" => PtxTy::S(8),
            "s16" => PtxTy::S(16),
            "s32" => PtxTy::S(32),
            "s64" => PtxTy::S(64),
            "f16" => PtxTy::F16,
            "bf16" => PtxTy::Bf16,
            "f32" => PtxTy::F32,
            "f64" => PtxTy::F64,
            _ => return None,
        })
    }

    fn bits(self) -> u32 {
        match self {
            PtxTy::U(b) | PtxTy::S(b) => b,
            PtxTy::F16 | PtxTy::Bf16 => 16,
            PtxTy::F32 => 32,
            PtxTy::F64 => 64,
        }
    }

    fn is_float(self) -> bool {
        !matches!(self, PtxTy::U(_) | PtxTy::S(_))
    }

    /// The integer range of an integer type.
    fn range(self) -> (i128, i128) {
        match self {
            PtxTy::U(b) => (0, (1i128 << b) - 1),
            PtxTy::S(b) => (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1),
            _ => (0, 0),
        }
    }

    /// The kernel scalar of a float type.
    fn scalar(self) -> Scalar {
        match self {
            PtxTy::F16 => Scalar::F16,
            PtxTy::Bf16 => Scalar::Bf16,
            PtxTy::F32 => Scalar::F32,
            _ => Scalar::F64,
        }
    }
}

/// An integer rounding (`.rni` …) or a float rounding (`.rn` …): nearest even, toward zero,
/// toward −∞, toward +∞.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Nearest,
    Zero,
    Down,
    Up,
}

/// Whether every value of float type `a` is one of float type `d` (a widening or the same
/// type): `.f16` and `.bf16` hold different ranges and precisions, so neither is exact in the
/// other.
fn exact(d: PtxTy, a: PtxTy) -> bool {
    d == a || d.bits() > a.bits()
}

/// A register of an operand constraint: its width, and whether it is a float register.
fn reg(c: char) -> Option<(u32, bool)> {
    Some(match c {
        'h' => (16, false),
        'r' => (32, false),
        'l' => (64, false),
        'f' => (32, true),
        'd' => (64, true),
        _ => return None,
    })
}

/// A checked `cvt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cvt {
    int_round: Option<Mode>,
    float_round: Option<Mode>,
    ftz: bool,
    sat: bool,
    dtype: PtxTy,
    atype: PtxTy,
    out: char,
    input: char,
}

/// Checks `instr` (`cvt.rni.sat.s8.f32`, no operands) with the output and input constraint
/// letters (`r`, `f`, …) against the PTX ISA's rules (module table).
///
/// # Errors
/// What is not a `cvt` the emulator runs, in words naming the modifier, type or constraint.
fn check(instr: &str, out: char, input: char) -> Result<Cvt, String> {
    let parts: Vec<&str> = instr.split('.').collect();
    let n = parts.len();
    if n < 3 || parts[0] != "cvt" {
        return Err(format!("`{instr}` is not a `cvt.dtype.atype`"));
    }
    let ty = |t: &str| {
        PtxTy::parse(t).ok_or_else(|| {
            format!(
                "`{instr}`: `.{t}` is not a type cvt converts here (.u8 .u16 .u32 .u64 .s8 .s16 \
                 .s32 .s64 .f16 .bf16 .f32 .f64; packed .f16x2 / .bf16x2 and the fp8 types are \
                 not emulated)"
            )
        })
    };
    let (dtype, atype) = (ty(parts[n - 2])?, ty(parts[n - 1])?);
    let mut c = Cvt {
        int_round: None,
        float_round: None,
        ftz: false,
        sat: false,
        dtype,
        atype,
        out,
        input,
    };
    for m in &parts[1..n - 2] {
        let (slot, mode) = match *m {
            "rni" => (&mut c.int_round, Mode::Nearest),
            "rzi" => (&mut c.int_round, Mode::Zero),
            "rmi" => (&mut c.int_round, Mode::Down),
            "rpi" => (&mut c.int_round, Mode::Up),
            "rn" => (&mut c.float_round, Mode::Nearest),
            "rz" => (&mut c.float_round, Mode::Zero),
            "rm" => (&mut c.float_round, Mode::Down),
            "rp" => (&mut c.float_round, Mode::Up),
            "ftz" => {
                c.ftz = true;
                continue;
            }
            "sat" => {
                c.sat = true;
                continue;
            }
            other => {
                return Err(format!(
                    "`{instr}`: the modifier `.{other}` is not emulated (cvt here takes .rni .rzi \
                     .rmi .rpi, .rn .rz .rm .rp, .ftz and .sat)"
                ))
            }
        };
        if slot.is_some() {
            return Err(format!("`{instr}` has more than one rounding modifier"));
        }
        *slot = Some(mode);
    }
    if c.int_round.is_some() && c.float_round.is_some() {
        return Err(format!("`{instr}` has more than one rounding modifier"));
    }
    let rule = |what: &str| Err(format!("`{instr}`: {what} (PTX ISA, cvt)"));
    match (dtype.is_float(), atype.is_float()) {
        (false, true) if c.int_round.is_none() => {
            return rule(
                "a float-to-integer cvt needs an integer rounding: .rni, .rzi, .rmi or .rpi",
            )
        }
        (true, false) if c.float_round.is_none() => {
            return rule("an integer-to-float cvt needs a float rounding: .rn, .rz, .rm or .rp")
        }
        (true, true) if !exact(dtype, atype) && c.float_round.is_none() => {
            return rule(
                "a float cvt that may lose precision needs a float rounding: .rn, .rz, .rm or .rp",
            )
        }
        (true, true) if c.int_round.is_some() && dtype != atype => {
            return rule("an integer rounding of a float applies to a cvt between one float type")
        }
        (true, true) if dtype.bits() > atype.bits() && c.float_round.is_some() => {
            return rule("a widening float cvt is exact and takes no float rounding")
        }
        (false, false) if c.int_round.is_some() || c.float_round.is_some() => {
            return rule("an integer-to-integer cvt takes no rounding modifier")
        }
        (false, _) if c.float_round.is_some() => {
            return rule("a cvt to an integer takes an integer rounding (.rni …), not .rn …")
        }
        _ => {}
    }
    for (k, t, what) in [(out, dtype, "destination"), (input, atype, "source")] {
        let Some((bits, float_reg)) = reg(k) else {
            return Err(format!(
                "`{instr}`: the constraint `{k}` is not one cvt reads or writes here (h, r, l, f, \
                 d)"
            ));
        };
        if bits < t.bits() || (float_reg && (!t.is_float() || bits != t.bits())) {
            return Err(format!(
                "`{instr}`: a `{k}` register ({bits}-bit{}) cannot hold the {what} `.{}` ",
                if float_reg { " float" } else { "" },
                parts[if what == "source" { n - 1 } else { n - 2 }]
            ));
        }
    }
    Ok(c)
}

/// Checks a `cvt` of inline `asm` and names the callee that runs it: `instr` without its
/// operands (`cvt.rni.sat.s8.f32`), `out` and `input` the constraint letters.
///
/// # Errors
/// As the module table: what is not emulated, named.
pub fn callee(instr: &str, out: char, input: char) -> Result<String, String> {
    if is_tf32(instr) {
        crate::ptx_tf32::check(instr, out, input)?;
    } else {
        check(instr, out, input)?;
    }
    Ok(format!("{PREFIX}{out}{input}:{instr}"))
}

/// Whether `instr` converts to `.tf32` ([`crate::ptx_tf32`] holds that form's rules).
fn is_tf32(instr: &str) -> bool {
    instr.split('.').any(|p| p == "tf32")
}

/// Whether `name` is a lowered `cvt` ([`callee`]).
pub fn is_cvt(name: &str) -> bool {
    name.starts_with(PREFIX)
}

/// The value of the source register: a float register's value, or an integer register's bits.
enum Src {
    Float(f64),
    Int(i128),
}

/// Reads the source register (constraint `c`) holding `v` as `atype`.
fn read(c: &Cvt, v: &KVal) -> Result<Src, String> {
    let (bits, float_reg) = reg(c.input).unwrap_or((32, false));
    if float_reg {
        // An `f` / `d` operand is the C++ value converted to float / double; its type is the
        // source type (checked).
        let to = if bits == 32 { Scalar::F32 } else { Scalar::F64 };
        let x = v
            .convert(ValTy::scalar(to))
            .map_err(|f| f.message)?
            .as_f64()
            .ok_or("a `cvt` source must be a number")?;
        return Ok(Src::Float(x));
    }
    let raw: u64 = match v {
        KVal::Int { .. } => v.as_int().map_or(0, |n| n as u64),
        // `__HALF_TO_US(h)` reads a half's bits; a half value given directly is taken the same.
        KVal::Float {
            ty: Scalar::F16, x, ..
        } if c.input == 'h' => u64::from(f16::from_f64(*x).to_bits()),
        KVal::Float {
            ty: Scalar::Bf16,
            x,
            ..
        } if c.input == 'h' => u64::from(bf16::from_f64(*x).to_bits()),
        _ => {
            return Err(format!(
                "a `\"{}\"` operand of `cvt` is an integer register: pass an integer (the bits \
                 of a float: __float_as_uint, __half_as_ushort), got {}",
                c.input,
                v.val_ty().name()
            ))
        }
    };
    let width = c.atype.bits();
    let low = if width == 64 {
        raw
    } else {
        raw & ((1u64 << width) - 1)
    };
    Ok(match c.atype {
        PtxTy::U(_) => Src::Int(i128::from(low)),
        PtxTy::S(b) => {
            let shift = 64 - b;
            Src::Int(i128::from(((low << shift) as i64) >> shift))
        }
        PtxTy::F16 => Src::Float(f16::from_bits(low as u16).to_f64()),
        PtxTy::Bf16 => Src::Float(bf16::from_bits(low as u16).to_f64()),
        PtxTy::F32 => Src::Float(f64::from(f32::from_bits(low as u32))),
        PtxTy::F64 => Src::Float(f64::from_bits(low)),
    })
}

/// A subnormal `f32` value as a zero of its sign (`.ftz`).
fn flush(x: f64) -> f64 {
    if x != 0.0 && x.abs() < f64::from(f32::MIN_POSITIVE) {
        0.0f64.copysign(x)
    } else {
        x
    }
}

/// `x` rounded to an integral value in `mode`.
fn integral(x: f64, mode: Mode) -> f64 {
    match mode {
        Mode::Nearest => x.round_ties_even(),
        Mode::Zero => x.trunc(),
        Mode::Down => x.floor(),
        Mode::Up => x.ceil(),
    }
}

/// The neighbour of `r` (a value of float type `t`) toward +∞ (`up`) or −∞.
fn step(t: PtxTy, r: f64, up: bool) -> f64 {
    match t {
        PtxTy::F64 => {
            if up {
                r.next_up()
            } else {
                r.next_down()
            }
        }
        PtxTy::F32 => {
            let f = r as f32;
            f64::from(if up { f.next_up() } else { f.next_down() })
        }
        _ => {
            let bits = if t == PtxTy::F16 {
                f16::from_f64(r).to_bits()
            } else {
                bf16::from_f64(r).to_bits()
            };
            let positive = bits & 0x8000 == 0;
            let next = if bits & 0x7fff == 0 {
                // From a zero: the smallest subnormal of the direction's sign.
                if up {
                    0x0001
                } else {
                    0x8001
                }
            } else if up == positive {
                bits.wrapping_add(1)
            } else {
                bits.wrapping_sub(1)
            };
            if t == PtxTy::F16 {
                f16::from_bits(next).to_f64()
            } else {
                bf16::from_bits(next).to_f64()
            }
        }
    }
}

/// The source value rounded to float type `t` in `mode`: the nearest value, stepped one unit
/// toward the mode's direction when it lies on the other side of the exact source.
fn to_float(t: PtxTy, src: &Src, mode: Mode) -> f64 {
    let nearest = match (src, t) {
        (Src::Float(x), PtxTy::F64) => *x,
        (Src::Float(x), PtxTy::F32) => f64::from(*x as f32),
        (Src::Float(x), _) => round16(t.scalar(), *x),
        // Rust's integer-to-float `as` rounds to nearest even, once.
        (Src::Int(n), PtxTy::F64) => *n as f64,
        (Src::Int(n), PtxTy::F32) => f64::from(*n as f32),
        // Through f64: 53 ≥ 2·11 + 2 bits, so the second rounding is innocuous (Figueroa).
        (Src::Int(n), _) => round16(t.scalar(), *n as f64),
    };
    // The sign of nearest − exact.
    let order = match src {
        Src::Float(x) => nearest.partial_cmp(x),
        Src::Int(n) if nearest.is_finite() => Some((nearest as i128).cmp(n)),
        Src::Int(_) => Some(if nearest > 0.0 {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Less
        }),
    };
    let positive = match src {
        Src::Float(x) => *x > 0.0,
        Src::Int(n) => *n > 0,
    };
    use std::cmp::Ordering::{Greater, Less};
    match (mode, order) {
        (Mode::Down, Some(Greater)) => step(t, nearest, false),
        (Mode::Up, Some(Less)) => step(t, nearest, true),
        (Mode::Zero, Some(Greater)) if positive => step(t, nearest, false),
        (Mode::Zero, Some(Less)) if !positive => step(t, nearest, true),
        _ => nearest,
    }
}

/// The bits of float `x` of type `t` (a value of that type), or why there are none to give.
fn float_bits(t: PtxTy, x: f64) -> Result<u64, String> {
    if x.is_nan() {
        return Err(
            "`cvt`: the result is a NaN, whose bit pattern in an integer register the emulator \
             does not model (floats are kept as values)"
                .to_string(),
        );
    }
    Ok(match t {
        PtxTy::F16 => u64::from(f16::from_f64(x).to_bits()),
        PtxTy::Bf16 => u64::from(bf16::from_f64(x).to_bits()),
        PtxTy::F32 => u64::from((x as f32).to_bits()),
        _ => x.to_bits(),
    })
}

/// Runs a lowered `cvt` ([`callee`]'s name) on one lane's source register value; `None` when
/// `name` is not one.
///
/// # Errors
/// A source of the wrong kind for its register, a NaN result bound for an integer register.
pub fn call(name: &str, args: &[KVal]) -> Option<Result<KVal, String>> {
    let rest = name.strip_prefix(PREFIX)?;
    Some(run(rest, args))
}

fn run(rest: &str, args: &[KVal]) -> Result<KVal, String> {
    let mut letters = rest.chars();
    let (Some(out), Some(input)) = (letters.next(), letters.next()) else {
        return Err("a malformed cvt".to_string());
    };
    let instr = rest.get(3..).unwrap_or("");
    let [v] = args else {
        return Err(format!("`{instr}` takes one source operand"));
    };
    if is_tf32(instr) {
        let (round, satfinite) = crate::ptx_tf32::check(instr, out, input)?;
        let x = v
            .convert(ValTy::scalar(Scalar::F32))
            .map_err(|f| f.message)?
            .as_f64()
            .ok_or("a `cvt` source must be a number")?;
        let bits = crate::ptx_tf32::convert(x as f32, round, satfinite)?;
        return Ok(KVal::int(Scalar::U32, i128::from(bits)));
    }
    let c = check(instr, out, input)?;
    let mut src = read(&c, v)?;
    if c.ftz && c.atype == PtxTy::F32 {
        if let Src::Float(x) = src {
            src = Src::Float(flush(x));
        }
    }
    // The result: an integer of dtype, or a float value of dtype.
    let result: Src = if c.dtype.is_float() {
        let mut r = match (&src, c.int_round) {
            (Src::Float(x), Some(m)) => integral(*x, m),
            (Src::Float(x), None) if exact(c.dtype, c.atype) => *x,
            (_, _) => to_float(c.dtype, &src, c.float_round.unwrap_or(Mode::Nearest)),
        };
        if c.ftz && c.dtype == PtxTy::F32 {
            r = flush(r);
        }
        if c.sat {
            r = if r.is_nan() || r <= 0.0 {
                0.0
            } else {
                r.min(1.0)
            };
        }
        Src::Float(r)
    } else {
        let (lo, hi) = c.dtype.range();
        Src::Int(match src {
            Src::Float(x) if x.is_nan() => 0,
            Src::Float(x) => {
                let r = integral(x, c.int_round.unwrap_or(Mode::Zero));
                // Clamped to the destination range (saturation is the default here).
                if r <= lo as f64 {
                    lo
                } else if r >= hi as f64 {
                    hi
                } else {
                    r as i128
                }
            }
            Src::Int(n) if c.sat => n.clamp(lo, hi),
            Src::Int(n) => {
                // The low dtype bits, read as dtype.
                let b = c.dtype.bits();
                let low = (n as u128) & ((1u128 << b) - 1);
                match c.dtype {
                    PtxTy::S(_) if low >> (b - 1) & 1 == 1 => low as i128 - (1i128 << b),
                    _ => low as i128,
                }
            }
        })
    };
    let (bits, float_reg) = reg(c.out).unwrap_or((32, false));
    let reg_ty = match (bits, float_reg) {
        (16, _) => Scalar::U16,
        (32, false) => Scalar::U32,
        (32, true) => Scalar::F32,
        (_, false) => Scalar::U64,
        (_, true) => Scalar::F64,
    };
    Ok(match result {
        Src::Float(r) if float_reg => KVal::float(reg_ty, r),
        // A float's bits, zero-extended to the register.
        Src::Float(r) => KVal::int(reg_ty, i128::from(float_bits(c.dtype, r)?)),
        // Sign-extended for a signed dtype (the value is negative), zero-extended otherwise:
        // the register's value modulo 2^width.
        Src::Int(n) => KVal::int(reg_ty, n),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cvt(instr: &str, out: char, input: char, v: KVal) -> Result<KVal, String> {
        let name = callee(instr, out, input)?;
        call(&name, &[v]).unwrap()
    }

    fn f(x: f64) -> KVal {
        KVal::float(Scalar::F32, x)
    }

    fn u32_of(v: KVal) -> i128 {
        v.as_int().unwrap()
    }

    #[test]
    fn float_to_s8_rounds_and_saturates() {
        // 2.5 ties to even 2; -2.5 to -2 (0xfffffffe sign-extended in a 32-bit register);
        // 300 and -1000 clamp to 127 and -128 (0xffffff80); NaN gives 0.
        let s8 = |x| u32_of(cvt("cvt.rni.sat.s8.f32", 'r', 'f', f(x)).unwrap());
        assert_eq!(s8(2.5), 2);
        assert_eq!(s8(-2.5), 0xffff_fffe);
        assert_eq!(s8(300.0), 127);
        assert_eq!(s8(-1000.0), 0xffff_ff80);
        assert_eq!(s8(f64::NAN), 0);
        // The other integer roundings: -2.5 → -2 (rzi), -3 (rmi), -2 (rpi); 2.5 → 3 (rpi).
        let s32 = |m: &str, x| {
            cvt(&format!("cvt.{m}.s32.f32"), 'r', 'f', f(x))
                .unwrap()
                .as_int()
                .map(|n| n as u32 as i32)
        };
        assert_eq!(s32("rzi", -2.5), Some(-2));
        assert_eq!(s32("rmi", -2.5), Some(-3));
        assert_eq!(s32("rpi", 2.5), Some(3));
        assert_eq!(s32("rni", 3e10), Some(i32::MAX));
    }

    #[test]
    fn integer_narrowing_chops_or_saturates() {
        let i = |n: i128| KVal::int(Scalar::I32, n);
        // 300 = 0x12c: .sat clamps to 127; without it the low byte 0x2c = 44.
        assert_eq!(
            u32_of(cvt("cvt.sat.s8.s32", 'r', 'r', i(300)).unwrap()),
            127
        );
        assert_eq!(u32_of(cvt("cvt.s8.s32", 'r', 'r', i(300)).unwrap()), 44);
        // -200 saturates to -128 = 0xffffff80.
        assert_eq!(
            u32_of(cvt("cvt.sat.s8.s32", 'r', 'r', i(-200)).unwrap()),
            0xffff_ff80
        );
        // u8 of -1: the low byte, 255, zero-extended.
        assert_eq!(u32_of(cvt("cvt.u8.s32", 'r', 'r', i(-1)).unwrap()), 255);
    }

    #[test]
    fn half_conversions_round_as_asked() {
        // 0.1f = 0x3dcccccd; to half: 0.0999755859375 = 0x2e66 (nearest), rp: 0x2e67.
        let h = |instr: &str, x: f64| u32_of(cvt(instr, 'h', 'f', f(x)).unwrap());
        assert_eq!(h("cvt.rn.f16.f32", 0.1), 0x2e66);
        assert_eq!(h("cvt.rp.f16.f32", 0.1), 0x2e67);
        assert_eq!(h("cvt.rz.f16.f32", 0.1), 0x2e66);
        // 70000 overflows half: rn gives +inf 0x7c00, rz the largest finite 0x7bff.
        assert_eq!(h("cvt.rn.f16.f32", 70000.0), 0x7c00);
        assert_eq!(h("cvt.rz.f16.f32", 70000.0), 0x7bff);
        // cvt.f32.f16 of the bits 0x3e00 (1.5).
        let back = cvt("cvt.f32.f16", 'f', 'h', KVal::int(Scalar::U16, 0x3e00)).unwrap();
        assert_eq!(back, f(1.5));
        // .sat on a float destination: [0, 1].
        let s = cvt("cvt.rn.sat.f16.f32", 'h', 'f', f(3.0)).unwrap();
        assert_eq!(u32_of(s), 0x3c00);
    }

    #[test]
    fn what_ptx_does_not_allow_is_refused() {
        assert!(callee("cvt.s8.f32", 'r', 'f').unwrap_err().contains(".rni"));
        assert!(callee("cvt.rni.f16.f32", 'h', 'f').is_err());
        assert!(callee("cvt.rn.relu.f16.f32", 'h', 'f')
            .unwrap_err()
            .contains(".relu"));
        assert!(callee("cvt.rn.f16x2.f32", 'r', 'f').is_err());
        assert!(callee("cvt.rni.s64.f32", 'r', 'f').is_err());
        assert!(callee("cvt.rni.s32.f32", 'f', 'f').is_err());
        assert!(callee("cvt.rna.tf32.f32", 'h', 'f').is_err());
    }

    #[test]
    fn tf32_conversion_runs_through_the_cvt_callee() {
        // 1 + 2^-11 (0x3f801000) ties away to 1 + 2^-10 = 0x3f802000 in the .b32 register.
        let x = f64::from(f32::from_bits(0x3f80_1000));
        let r = cvt("cvt.rna.tf32.f32", 'r', 'f', f(x)).unwrap();
        assert_eq!(r, KVal::int(Scalar::U32, 0x3f80_2000));
    }
}
