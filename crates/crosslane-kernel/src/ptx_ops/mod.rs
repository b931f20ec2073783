//! The one-instruction PTX arithmetic real inference kernels write in inline `asm`
//! (`asm volatile("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x));`): fast math, rounded float
//! arithmetic, packed-half arithmetic and integer bit tricks. Each instruction is one row of
//! [`ROWS`] with its semantics written once, as the PTX ISA (version 8.5) defines it:
//!
//! | instruction | semantics (PTX ISA section) | accuracy stated there |
//! |---|---|---|
//! | `ex2.approx{.ftz}.f32` | 2^a (Floating-Point Instructions: ex2) | 2 ulp, full range |
//! | `lg2.approx{.ftz}.f32` | log2(a) (lg2) | 2^-22 absolute for a in (0.5, 2); 2^-22 relative elsewhere |
//! | `rsqrt.approx{.ftz}.f32` | 1/√a (rsqrt) | 2^-22.9 relative, positive finite range |
//! | `rcp.approx{.ftz}.f32`, `rcp.{rn,rz,rm,rp}{.ftz}.f32` | 1/a (rcp) | approx: 1 ulp; rounded: exact (IEEE 754) |
//! | `sqrt.approx{.ftz}.f32`, `sqrt.{rn,rz,rm,rp}{.ftz}.f32` | √a (sqrt) | approx: 2^-23 relative; rounded: exact |
//! | `sin.approx{.ftz}.f32`, `cos.approx{.ftz}.f32` | sin a, cos a (sin, cos) | 2^-20.9 absolute on [-π, π]; unstated outside |
//! | `tanh.approx.f32` (sm_75 and newer) | tanh a (tanh) | 2^-10.987 relative, full range |
//! | `div.approx{.ftz}.f32` | a · (1/b) (div) | 2 ulp for \|b\| in [2^-126, 2^126]; 0 (a finite) or NaN (a infinite) for 2^126 < \|b\| < 2^128 |
//! | `div.full{.ftz}.f32` | a / b (div) | 2 ulp, full range |
//! | `div.{rn,rz,rm,rp}{.ftz}.f32` | a / b (div) | exact |
//! | `add`, `sub`, `mul{.rnd}{.ftz}{.sat}.f32`, `fma.rnd{.ftz}{.sat}.f32` | IEEE 754 operations in the rounding mode (add, sub, mul, fma; no modifier = `.rn`) | exact |
//! | `max{.ftz}.f32`, `min{.ftz}.f32` | the larger / smaller; a NaN operand gives the other operand, two NaNs NaN (max, min) | exact |
//! | `fma.rn.f16x2`, `add{.rn}.f16x2`, `sub{.rn}.f16x2`, `mul{.rn}.f16x2`, `max.f16x2`, `min.f16x2` | per half of a 32-bit register, low half with low half (Half Precision Floating-Point Instructions) | exact |
//! | `add{.rn}`, `sub{.rn}`, `mul{.rn}`, `fma.rn`, `max`, `min` on `.f16` and `.bf16` (`"h"` registers) and `.bf16x2` (`"r"`) | one (or per half, two) 16-bit values, rounded once to nearest even; a NaN result canonical `0x7fff` (Half Precision Floating-Point Instructions; `.bf16` `add`/`sub`/`mul` sm_90, `max`/`min` and `fma.rn.bf16` sm_80) | exact |
//! | `cvt.rn.satfinite.e4m3x2.f32 d, a, b;`, `.e5m2x2` (sm_89) | a into the upper byte of the 16-bit d, b the lower, each to nearest even and saturated to the format's largest finite value; a NaN 0x7F as an H200 gives it (cvt) | exact |
//! | `cvt.rn.f16x2.f32 d, a, b;`, `cvt.rn.bf16x2.f32` | a converted into the upper half of d, b into the lower half (cvt) | exact |
//! | `lop3.b32 d, a, b, c, immLut;` | bitwise: bit i of d is bit `(a_i << 2 \| b_i << 1 \| c_i)` of immLut (lop3) | exact |
//! | `prmt.b32 d, a, b, c;` | bytes of {b, a} selected by c's four nibbles, bit 3 of a nibble replicating the byte's sign (prmt, default mode) | exact |
//! | `bfe.{u32,s32}`, `bfi.b32` | bit-field extract / insert, position and length from the low 8 bits (bfe, bfi) | exact |
//! | `shf.{l,r}.{wrap,clamp}.b32 d, a, b, c;` | funnel shift of the 64-bit b:a by c (mod 32 or clamped at 32) (shf) | exact |
//! | `mul.{hi,lo}.{u32,s32}`, `mad.{hi,lo}.{u32,s32}` | the high / low 32 bits of the 64-bit product (+ c) (Integer Arithmetic Instructions: mul, mad) | exact |
//! | `popc.b32`, `brev.b32`, `clz.b32` | population count, bit reversal, leading zeros (popc, brev, clz) | exact |
//! | `mov.b32 d, {a, b};` / `mov.b32 {a, b}, d;` | packs two 16-bit registers, `a` the low half / unpacks (Data Movement: mov) | exact |
//!
//! An approximate instruction gives the correctly rounded value of the function it
//! approximates (computed in double precision and rounded once), with the bound the PTX ISA
//! states attached as the CUDA Math API functions carry theirs ([`crate::accuracy`]): the trace
//! says "device may differ by ≤ 2 ulp (PTX ISA 8.5, Floating-Point Instructions,
//! ex2.approx.f32)". A relative bound 2^-k is carried in ulps: a normal float's ulp exceeds
//! 2^-24 of its magnitude, so 2^-k relative is under ⌈2^(24-k)⌉ ulp. `.ftz` flushes a subnormal
//! `.f32` source and result to a zero of its sign (PTX ISA, "Subnormal Numbers"). Inline PTX is
//! not compiled by nvcc, so `--use_fast_math` leaves these instructions as written.
//!
//! Checked on an NVIDIA H200 (sm_90, CUDA 12): every bit and packing row gave the values the
//! unit tests state; over 4M inputs each the largest error against the double-precision
//! function was ex2 2 ulp, rsqrt 2 ulp, rcp.approx 1 ulp, sqrt.approx 1 ulp, div.approx and
//! div.full 2 ulp, lg2 2^-22.19 absolute in (0.5, 2) and 2^-22.1 relative outside, sin / cos
//! 2^-21.47 / 2^-21.28 absolute on [-π, π], tanh 2^-16.6 relative on [-10, 10] — each within
//! the bound carried here.

mod bits;
mod float;
mod fp8x2;
mod half1;
mod half2;

use crate::types::KVal;

/// The callee name prefix of a lowered instruction (`__ptx_op:ex2.approx.f32`): a name no
/// source can spell (`:` and `.`).
pub const PREFIX: &str = "__ptx_op:";

/// The modifiers written on one instruction (between its name and its type).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mods {
    /// `.approx`, `.full`, `.rn`, `.rz`, `.rm`, `.rp`, `.hi`, `.lo`, `.l`, `.r`: the one
    /// choice among the row's alternatives (`""` when the row takes none).
    pub choice: &'static str,
    /// `.wrap` or `.clamp` of `shf`.
    pub shift: &'static str,
    /// `.ftz`: subnormal `.f32` sources and results flushed to a zero of their sign.
    pub ftz: bool,
    /// `.sat`: the result clamped to [0.0, 1.0], NaN to +0.0.
    pub sat: bool,
    /// `.satfinite` of an FP8 `cvt`: a result past the largest finite value is that value.
    pub satfinite: bool,
}

/// One instruction: its name and type, the modifiers it takes, its operands' register
/// letters (CUDA C++ Programming Guide, "Inline PTX Assembly in CUDA": `r` .u32, `h` .u16,
/// `l` .u64, `f` .f32, `d` .f64) and its semantics.
#[derive(Debug)]
pub struct Row {
    /// The opcode (`ex2`).
    pub op: &'static str,
    /// The type suffix (`f32`, `f16x2`, `b32`; `f16x2.f32` for a packing `cvt`).
    pub ty: &'static str,
    /// The alternatives of which exactly one must be written (`["approx"]`), or none.
    pub choices: &'static [&'static str],
    /// Whether `.ftz` may be written.
    pub ftz: bool,
    /// Whether `.sat` may be written.
    pub sat: bool,
    /// The source operands.
    pub srcs: usize,
    /// The destination's register letter.
    pub out: char,
    /// The sources' register letter.
    pub ins: char,
    /// The oldest architecture with the instruction (`sm_XY` as XY; 0: every one).
    pub sm: u32,
    /// The semantics on the sources (each a register's value).
    pub run: fn(Mods, &[KVal]) -> Result<KVal, String>,
}

const ROUNDS: &[&str] = &["rn", "rz", "rm", "rp"];
const APPROX_OR_ROUND: &[&str] = &["approx", "rn", "rz", "rm", "rp"];
const DIVS: &[&str] = &["approx", "full", "rn", "rz", "rm", "rp"];
const HI_LO: &[&str] = &["hi", "lo"];

const fn row(
    op: &'static str,
    ty: &'static str,
    choices: &'static [&'static str],
    (ftz, sat): (bool, bool),
    srcs: usize,
    (out, ins): (char, char),
    run: fn(Mods, &[KVal]) -> Result<KVal, String>,
) -> Row {
    Row {
        op,
        ty,
        choices,
        ftz,
        sat,
        srcs,
        out,
        ins,
        sm: 0,
        run,
    }
}

impl Row {
    /// This row for an instruction the PTX ISA gives only on `sm_{sm}` and newer (its "Target
    /// ISA notes"): a kernel built for an older architecture is refused.
    const fn since(self, sm: u32) -> Row {
        Row { sm, ..self }
    }
}

const F: (char, char) = ('f', 'f');
const R: (char, char) = ('r', 'r');
const H: (char, char) = ('h', 'h');
const FTZ: (bool, bool) = (true, false);
const FTZ_SAT: (bool, bool) = (true, true);
const NONE: (bool, bool) = (false, false);

/// The instructions, each with its semantics (the module table says where each is defined).
pub static ROWS: &[Row] = &[
    row("ex2", "f32", &["approx"], FTZ, 1, F, float::ex2),
    row("lg2", "f32", &["approx"], FTZ, 1, F, float::lg2),
    row("rsqrt", "f32", &["approx"], FTZ, 1, F, float::rsqrt),
    row("rcp", "f32", APPROX_OR_ROUND, FTZ, 1, F, float::rcp),
    row("sqrt", "f32", APPROX_OR_ROUND, FTZ, 1, F, float::sqrt),
    row("sin", "f32", &["approx"], FTZ, 1, F, float::sin),
    row("cos", "f32", &["approx"], FTZ, 1, F, float::cos),
    row("tanh", "f32", &["approx"], NONE, 1, F, float::tanh).since(75),
    row("div", "f32", DIVS, FTZ, 2, F, float::div),
    row("add", "f32", ROUNDS, FTZ_SAT, 2, F, float::add),
    row("sub", "f32", ROUNDS, FTZ_SAT, 2, F, float::sub),
    row("mul", "f32", ROUNDS, FTZ_SAT, 2, F, float::mul),
    row("fma", "f32", ROUNDS, FTZ_SAT, 3, F, float::fma),
    row("max", "f32", &[], FTZ, 2, F, float::max),
    row("min", "f32", &[], FTZ, 2, F, float::min),
    row("fma", "f16x2", &["rn"], NONE, 3, R, half2::fma),
    row("add", "f16x2", &["rn"], NONE, 2, R, half2::add),
    row("sub", "f16x2", &["rn"], NONE, 2, R, half2::sub),
    row("mul", "f16x2", &["rn"], NONE, 2, R, half2::mul),
    row("max", "f16x2", &[], NONE, 2, R, half2::max),
    row("min", "f16x2", &[], NONE, 2, R, half2::min),
    row(
        "cvt",
        "f16x2.f32",
        &["rn"],
        NONE,
        2,
        ('r', 'f'),
        half2::cvt_f16x2,
    ),
    row(
        "cvt",
        "bf16x2.f32",
        &["rn"],
        NONE,
        2,
        ('r', 'f'),
        half2::cvt_bf16x2,
    ),
    row("add", "f16", &["rn"], NONE, 2, H, half1::add_f16),
    row("sub", "f16", &["rn"], NONE, 2, H, half1::sub_f16),
    row("mul", "f16", &["rn"], NONE, 2, H, half1::mul_f16),
    row("fma", "f16", &["rn"], NONE, 3, H, half1::fma_f16),
    row("max", "f16", &[], NONE, 2, H, half1::max_f16).since(80),
    row("min", "f16", &[], NONE, 2, H, half1::min_f16).since(80),
    row("add", "bf16", &["rn"], NONE, 2, H, half1::add_bf16).since(90),
    row("sub", "bf16", &["rn"], NONE, 2, H, half1::sub_bf16).since(90),
    row("mul", "bf16", &["rn"], NONE, 2, H, half1::mul_bf16).since(90),
    row("fma", "bf16", &["rn"], NONE, 3, H, half1::fma_bf16).since(80),
    row("max", "bf16", &[], NONE, 2, H, half1::max_bf16).since(80),
    row("min", "bf16", &[], NONE, 2, H, half1::min_bf16).since(80),
    row("add", "bf16x2", &["rn"], NONE, 2, R, half1::add_bf16x2).since(90),
    row("sub", "bf16x2", &["rn"], NONE, 2, R, half1::sub_bf16x2).since(90),
    row("mul", "bf16x2", &["rn"], NONE, 2, R, half1::mul_bf16x2).since(90),
    row("fma", "bf16x2", &["rn"], NONE, 3, R, half1::fma_bf16x2).since(80),
    row("max", "bf16x2", &[], NONE, 2, R, half1::max_bf16x2).since(80),
    row("min", "bf16x2", &[], NONE, 2, R, half1::min_bf16x2).since(80),
    row(
        "cvt",
        "e4m3x2.f32",
        &["rn"],
        NONE,
        2,
        ('h', 'f'),
        fp8x2::e4m3x2,
    )
    .since(89),
    row(
        "cvt",
        "e5m2x2.f32",
        &["rn"],
        NONE,
        2,
        ('h', 'f'),
        fp8x2::e5m2x2,
    )
    .since(89),
    row("lop3", "b32", &[], NONE, 4, R, bits::lop3),
    row("prmt", "b32", &[], NONE, 3, R, bits::prmt),
    row("bfe", "u32", &[], NONE, 3, R, bits::bfe_u32),
    row("bfe", "s32", &[], NONE, 3, R, bits::bfe_s32),
    row("bfi", "b32", &[], NONE, 4, R, bits::bfi),
    row("shf", "b32", &["l", "r"], NONE, 3, R, bits::shf),
    row("mul", "u32", HI_LO, NONE, 2, R, bits::mul_u32),
    row("mul", "s32", HI_LO, NONE, 2, R, bits::mul_s32),
    row("mad", "u32", HI_LO, NONE, 3, R, bits::mad_u32),
    row("mad", "s32", HI_LO, NONE, 3, R, bits::mad_s32),
    row("popc", "b32", &[], NONE, 1, R, bits::popc),
    row("brev", "b32", &[], NONE, 1, R, bits::brev),
    row("clz", "b32", &[], NONE, 1, R, bits::clz),
    row("mov", "b32", &["pack"], NONE, 2, ('r', 'h'), bits::pack),
    row("mov", "b32", &["unpack"], NONE, 2, ('h', 'r'), bits::unpack),
];

/// The opcodes of [`ROWS`]: an `asm` instruction with one of these is this module's to run
/// or to refuse (with what is wrong in its modifiers or operands).
pub fn is_known_opcode(op: &str) -> bool {
    ROWS.iter().any(|r| r.op == op)
}

/// The row and modifiers of instruction `mnemonic` (`ex2.approx.ftz.f32`, without
/// operands; a packing or unpacking `mov` as `mov.pack.b32` / `mov.unpack.b32`).
///
/// # Errors
/// The instruction is not in [`ROWS`], or a modifier is missing, repeated or not taken, named.
pub fn decode(mnemonic: &str) -> Result<(&'static Row, Mods), String> {
    let mut parts = mnemonic.split('.');
    let op = parts.next().unwrap_or("");
    let rest: Vec<&str> = parts.collect();
    // The type: the last part (two for a packing cvt: `f16x2.f32`).
    let candidates: Vec<&Row> = ROWS.iter().filter(|r| r.op == op).collect();
    let found = candidates.iter().find_map(|r| {
        let n = r.ty.split('.').count();
        let k = rest.len().checked_sub(n)?;
        (rest[k..].join(".") == r.ty).then_some((*r, &rest[..k]))
    });
    let Some((row0, mods)) = found else {
        let types: Vec<String> = candidates.iter().map(|r| format!(".{}", r.ty)).collect();
        return Err(format!(
            "`{mnemonic}`: the emulated forms of `{op}` take the type {}",
            types.join(" or ")
        ));
    };
    // Rows of the same op and type differ in their choices (`mov.pack` / `mov.unpack`).
    let rows: Vec<&Row> = candidates
        .iter()
        .filter(|r| r.ty == row0.ty)
        .copied()
        .collect();
    let mut out = Mods::default();
    let mut row = None;
    for m in mods {
        let chosen = rows
            .iter()
            .find_map(|r| r.choices.iter().find(|c| *c == m).map(|c| (*r, *c)));
        match (*m, chosen) {
            (_, Some((r, c))) if out.choice.is_empty() => {
                out.choice = c;
                row = Some(r);
            }
            ("ftz", _) if row0.ftz && !out.ftz => out.ftz = true,
            ("sat", _) if row0.sat && !out.sat => out.sat = true,
            ("satfinite", _)
                if row0.ty.contains("x2.f32") && row0.ty.starts_with('e') && !out.satfinite =>
            {
                out.satfinite = true;
            }
            ("wrap" | "clamp", _) if op == "shf" && out.shift.is_empty() => {
                out.shift = if *m == "wrap" { "wrap" } else { "clamp" };
            }
            _ => {
                return Err(format!(
                    "`{mnemonic}`: the modifier `.{m}` is not emulated on `{op}.{}` (or is \
                     written twice)",
                    row0.ty
                ))
            }
        }
    }
    let row = row.unwrap_or(row0);
    // `add`/`sub`/`mul` without a rounding modifier round to nearest (PTX ISA, add: "`.rn`
    // ... default"); `max`/`min`/bit operations take none.
    let optional = matches!(op, "add" | "sub" | "mul")
        && matches!(row.ty, "f32" | "f16" | "bf16" | "f16x2" | "bf16x2")
        || (row.ty == "f16x2" && op != "fma");
    if out.choice.is_empty() && !row.choices.is_empty() && !optional {
        let alts: Vec<String> = row.choices.iter().map(|c| format!(".{c}")).collect();
        return Err(format!(
            "`{mnemonic}` needs one of {} (PTX ISA, {op})",
            alts.join(" ")
        ));
    }
    if row.ty.starts_with('e') && row.ty.contains("x2.") && !out.satfinite {
        return Err(format!(
            "`{mnemonic}` needs `.satfinite` (PTX ISA, cvt: the syntax of an `.e4m3x2` / \
             `.e5m2x2` destination requires it)"
        ));
    }
    if op == "shf" && out.shift.is_empty() {
        return Err(format!(
            "`{mnemonic}` needs `.wrap` or `.clamp` (PTX ISA, shf)"
        ));
    }
    if op == "mov" && out.choice.is_empty() {
        return Err(format!(
            "`{mnemonic}`: only the packing `mov.b32 %0, {{%1, %2}};` and unpacking \
             `mov.b32 {{%0, %1}}, %2;` forms are emulated"
        ));
    }
    Ok((row, out))
}

/// The callee that runs `mnemonic` ([`decode`]d): `__ptx_op:` and the instruction.
pub fn callee(mnemonic: &str) -> String {
    format!("{PREFIX}{mnemonic}")
}

/// Whether `name` is a lowered instruction ([`callee`]).
pub fn is_op(name: &str) -> bool {
    name.starts_with(PREFIX)
}

/// Runs lowered instruction `name` on its sources' register values; `None` when `name` is
/// not one.
///
/// # Errors
/// A source of the wrong kind, a wrong number of sources (the parser checks both first).
pub fn call(name: &str, args: &[KVal]) -> Option<Result<KVal, String>> {
    let mnemonic = name.strip_prefix(PREFIX)?;
    Some(decode(mnemonic).and_then(|(row, mods)| {
        if args.len() != row.srcs {
            return Err(format!(
                "`{mnemonic}` takes {} source operand(s), got {}",
                row.srcs,
                args.len()
            ));
        }
        (row.run)(mods, args)
    }))
}

/// The larger (`larger`) or smaller of two values, as `max` and `min` of every float type pick
/// it (PTX ISA, max, min): a NaN operand gives the other operand, two NaNs a NaN, and -0.0
/// orders below +0.0 (an H200 gave +0 for `max.f32(-0, +0)`, -0 for `min.f32(+0, -0)`).
fn pick(x: &[f64], larger: bool) -> f64 {
    let (p, q) = (x[0], x[1]);
    if p.is_nan() {
        return q;
    }
    if q.is_nan() {
        return p;
    }
    let first = if p == q {
        // ±0: the sign decides.
        p.is_sign_negative() != larger
    } else {
        (p > q) == larger
    };
    if first {
        p
    } else {
        q
    }
}

/// Source `k` as an unsigned 32-bit register (its low 32 bits).
fn u32_of(args: &[KVal], k: usize) -> Result<u32, String> {
    args.get(k)
        .and_then(KVal::as_int)
        .map(|n| n as u32)
        .ok_or_else(|| format!("operand {} is not an integer register", k + 1))
}

/// Source `k` as a float register's value.
fn f_of(args: &[KVal], k: usize) -> Result<f64, String> {
    args.get(k)
        .and_then(KVal::as_f64)
        .ok_or_else(|| format!("operand {} is not a float register", k + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_modifiers_and_refuses_others() {
        let (r, m) = decode("ex2.approx.ftz.f32").unwrap();
        assert_eq!((r.op, m.choice, m.ftz), ("ex2", "approx", true));
        assert!(decode("ex2.f32").unwrap_err().contains(".approx"));
        assert!(decode("ex2.approx.f64").unwrap_err().contains(".f32"));
        assert!(decode("fma.f32").unwrap_err().contains(".rn"));
        let (_, m) = decode("add.f32").unwrap();
        assert_eq!(m.choice, "");
        assert!(decode("add.rn.rz.f32").is_err());
        assert!(decode("shf.l.b32").unwrap_err().contains(".wrap"));
        let (r, m) = decode("cvt.rn.f16x2.f32").unwrap();
        assert_eq!((r.srcs, m.choice), (2, "rn"));
        let (r, _) = decode("mov.unpack.b32").unwrap();
        assert_eq!(r.srcs, 2);
    }
}
