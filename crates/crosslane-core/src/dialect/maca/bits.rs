//! MetaX in-lane bit builtins (scalar: one result from the parameters alone):
//! `__builtin_mxc_byte_perm` (seed 002 §3.4.5), `__builtin_mxc_ubfe` (§3.7.4),
//! `__builtin_mxc_sbfe` (§3.7.5), `__builtin_mxc_alignbit` (§3.7.6).
//!
//! Operands are C `unsigned int`: any typed value from −2³¹ to 2³²−1 is taken as its 32-bit
//! pattern, as C's conversion does. Shift and field amounts use their low 5 bits, exactly as the
//! seed's formulas write them (`field_offset[4:0]`, `shift[4:0]`); a note says when higher bits
//! were dropped.

use crate::args::{Arg, Role, SCALAR_OP};
use crate::error::InputError;
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::{Diagnostic, LaneResult};
use crate::value::{Value, ValueType};

const U32_ARG: ParamKind = ParamKind::Int {
    min: i32::MIN as i64,
    max: u32::MAX as i64,
};

const fn arg(name: &'static str, default: i64, doc: &'static str) -> ParamSpec {
    ParamSpec {
        name,
        kind: U32_ARG,
        default: ParamDefault::Int(default),
        doc,
    }
}

const UNSIGNED_NOTE: &str = "seed 002 declares this builtin to return unsigned int";

/// The MetaX bit builtins.
pub const OPS: &[OpSpec] = &[
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_byte_perm",
        aliases: &["byte_perm"],
        proto: Proto::returns("unsigned int"),
        args: &[Arg::per_thread("s0", "unsigned int", Role::Data, arg("s0", 0x1122_3344, "high 32 bits of the 8-byte input (bytes 4..7)"), SCALAR_OP), Arg::per_thread("s1", "unsigned int", Role::Data, arg("s1", 0x5566_7788, "low 32 bits of the 8-byte input (bytes 0..3)"), SCALAR_OP), Arg::per_thread("perm", "unsigned", Role::Data, arg("perm", 0x0405_0607, "four byte selectors, one per result byte (each 0..255)"), SCALAR_OP)],
        rule: "Each result byte k = byte_permute({s0, s1}, perm byte k), where in[0..3] are s1's bytes \
               (low word) and in[4..7] s0's (high word): selector 0..7 picks in[sel]; 8, 9, 10, 11 \
               replicate the sign bit of in[1], in[3], in[5], in[7]; 12 gives 0x00; 13..255 give 0xff.",
        source: "seed 002 §3.4.5 __builtin_mxc_byte_perm (byte_permute); the AMD v_perm_b32 rule",
        settings: &[],
        types: &[ValueType::U32],
        type_note: UNSIGNED_NOTE,
        kind: OpKind::Scalar,
        run: run_byte_perm,
    },
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_ubfe",
        aliases: &["ubfe"],
        proto: Proto::returns("unsigned int"),
        args: &[Arg::per_thread("data", "unsigned int", Role::Data, arg("data", 0xdead_beef, "the 32-bit input"), SCALAR_OP), Arg::per_thread("field_offset", "unsigned int", Role::Data, arg("field_offset", 8, "first bit of the field (low 5 bits used)"), SCALAR_OP), Arg::per_thread("field_width", "unsigned int", Role::Data, arg("field_width", 12, "field width in bits (low 5 bits used)"), SCALAR_OP)],
        rule: "(data >> field_offset[4:0]) & ((1 << field_width[4:0]) − 1): the unsigned bit field \
               of field_width[4:0] bits (0..31; a width of 32 reads as 0) starting at bit \
               field_offset[4:0].",
        source: "seed 002 §3.7.4 __builtin_mxc_ubfe",
        settings: &[],
        types: &[ValueType::U32],
        type_note: UNSIGNED_NOTE,
        kind: OpKind::Scalar,
        run: run_ubfe,
    },
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_sbfe",
        aliases: &["sbfe"],
        proto: Proto::returns("int"),
        args: &[Arg::per_thread("data", "unsigned int", Role::Data, arg("data", 0xdead_beef, "the 32-bit input"), SCALAR_OP), Arg::per_thread("field_offset", "unsigned int", Role::Data, arg("field_offset", 4, "first bit of the field (low 5 bits used)"), SCALAR_OP), Arg::per_thread("field_width", "unsigned int", Role::Data, arg("field_width", 8, "field width in bits (low 5 bits used)"), SCALAR_OP)],
        rule: "signext((data >> field_offset[4:0]) & ((1 << field_width[4:0]) − 1)): the field as \
               ubfe extracts it, sign-extended from its top bit (bit field_width[4:0] − 1); a width of \
               0 gives 0. Our reading of the seed when field_offset + field_width > 32: data is an \
               unsigned int, so >> shifts in zeros, the field's top bit is 0 and the result is \
               non-negative. AMD's V_BFE_I32, which the MetaX bit operations mirror, shifts the \
               signed source arithmetically and would sign-extend from data bit 31 instead; a \
               diagnostic gives that value whenever the field runs past bit 31.",
        source: "seed 002 §3.7.5 __builtin_mxc_sbfe",
        settings: &[],
        types: &[ValueType::I32],
        type_note: "seed 002 declares __builtin_mxc_sbfe to return int",
        kind: OpKind::Scalar,
        run: run_sbfe,
    },
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_alignbit",
        aliases: &["alignbit"],
        proto: Proto::returns("unsigned int"),
        args: &[Arg::per_thread("a", "unsigned int", Role::Data, arg("a", 2, "high 32 bits of the 64-bit input"), SCALAR_OP), Arg::per_thread("b", "unsigned int", Role::Data, arg("b", 1, "low 32 bits of the 64-bit input"), SCALAR_OP), Arg::per_thread("shift", "unsigned int", Role::Data, arg("shift", 8, "right shift in bits (low 5 bits used)"), SCALAR_OP)],
        rule: "({a, b} >> shift[4:0]) & 0xffffffff: a funnel shift of the 64-bit a:b (a high) right by \
               shift[4:0] bits, keeping the low 32.",
        source: "seed 002 §3.7.6 __builtin_mxc_alignbit",
        settings: &[],
        types: &[ValueType::U32],
        type_note: UNSIGNED_NOTE,
        kind: OpKind::Scalar,
        run: run_alignbit,
    },
];

/// A parameter as its 32-bit pattern (C's conversion to `unsigned int`).
fn word(input: &OpInput, name: &str) -> Result<u32, InputError> {
    let v = input.params.int(name)?;
    if !(i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&v) {
        return Err(InputError::out_of_range(
            name,
            v,
            i64::from(i32::MIN),
            i64::from(u32::MAX),
        ));
    }
    Ok(v as u32)
}

/// The low 5 bits of `name`, with a note when higher bits were set.
fn five_bits(
    input: &OpInput,
    name: &str,
    rule: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<u32, InputError> {
    let v = word(input, name)?;
    if v > 31 {
        diagnostics.push(Diagnostic::info(
            format!("{name} = {v}: only {name}[4:0] = {} is used", v & 31),
            rule,
        ));
    }
    Ok(v & 31)
}

fn scalar(ty: ValueType, bits: u32, diagnostics: Vec<Diagnostic>) -> OpOutput {
    OpOutput {
        results: vec![LaneResult::computed(Value::from_bits(ty, u64::from(bits)))],
        diagnostics,
    }
}

/// The seed's `byte_permute(in[8], sel)` (§3.4.5).
pub fn byte_permute(input: [u8; 8], sel: u8) -> u8 {
    let sign = |byte: u8| if byte & 0x80 != 0 { 0xff } else { 0x00 };
    match sel {
        13..=255 => 0xff,
        12 => 0x00,
        11 => sign(input[7]),
        10 => sign(input[5]),
        9 => sign(input[3]),
        8 => sign(input[1]),
        _ => input[usize::from(sel & 7)],
    }
}

/// `__builtin_mxc_byte_perm(s0, s1, perm)` (§3.4.5): {s0, s1} is s0 high, s1 low.
pub fn byte_perm(s0: u32, s1: u32, perm: u32) -> u32 {
    let input = ((u64::from(s0) << 32) | u64::from(s1)).to_le_bytes();
    let out = perm.to_le_bytes().map(|sel| byte_permute(input, sel));
    u32::from_le_bytes(out)
}

/// `__builtin_mxc_ubfe` (§3.7.4) with `offset` and `width` already reduced to 5 bits.
pub fn ubfe(data: u32, offset: u32, width: u32) -> u32 {
    (data >> (offset & 31)) & ((1u32 << (width & 31)) - 1)
}

/// `__builtin_mxc_sbfe` (§3.7.5): the ubfe field sign-extended from bit `width − 1`.
pub fn sbfe(data: u32, offset: u32, width: u32) -> i32 {
    let width = width & 31;
    if width == 0 {
        return 0;
    }
    let field = ubfe(data, offset, width);
    let unused = 32 - width;
    ((field << unused) as i32) >> unused
}

/// AMD `V_BFE_I32` (AMD ISA, VOP3 V_BFE_I32: `S0.i >> S1[4:0]`, an arithmetic shift, then the
/// low `S2[4:0]` bits sign-extended): the reading seed 002's `sbfe` would have if `data` were
/// shifted as a signed int. Equal to [`sbfe`] unless `offset + width > 32` and bit 31 is set.
pub fn amd_bfe_i32(data: u32, offset: u32, width: u32) -> i32 {
    let width = width & 31;
    if width == 0 {
        return 0;
    }
    let field = ((data as i32) >> (offset & 31)) as u32 & ((1u32 << width) - 1);
    let unused = 32 - width;
    ((field << unused) as i32) >> unused
}

/// `__builtin_mxc_alignbit` (§3.7.6).
pub fn alignbit(a: u32, b: u32, shift: u32) -> u32 {
    (((u64::from(a) << 32) | u64::from(b)) >> (shift & 31)) as u32
}

fn run_byte_perm(input: &OpInput) -> Result<OpOutput, InputError> {
    let bits = byte_perm(word(input, "s0")?, word(input, "s1")?, word(input, "perm")?);
    Ok(scalar(ValueType::U32, bits, Vec::new()))
}

fn run_ubfe(input: &OpInput) -> Result<OpOutput, InputError> {
    let rule = "seed 002 §3.7.4";
    let mut d = Vec::new();
    let data = word(input, "data")?;
    let offset = five_bits(input, "field_offset", rule, &mut d)?;
    let width = five_bits(input, "field_width", rule, &mut d)?;
    Ok(scalar(ValueType::U32, ubfe(data, offset, width), d))
}

fn run_sbfe(input: &OpInput) -> Result<OpOutput, InputError> {
    let rule = "seed 002 §3.7.5";
    let mut d = Vec::new();
    let data = word(input, "data")?;
    let offset = five_bits(input, "field_offset", rule, &mut d)?;
    let width = five_bits(input, "field_width", rule, &mut d)?;
    let seed = sbfe(data, offset, width);
    if width != 0 && offset + width > 32 {
        let amd = amd_bfe_i32(data, offset, width);
        d.push(Diagnostic::warning(
            format!(
                "field_offset + field_width = {} > 32: the seed shifts unsigned int data logically, \
                 so the field's top {} bit(s) are 0 and the result is {seed}; AMD's V_BFE_I32 \
                 (arithmetic shift, sign from data bit 31), which MetaX's bit operations mirror, \
                 would give {amd}{}",
                offset + width,
                offset + width - 32,
                if amd == seed { " (the same here)" } else { "" }
            ),
            "seed 002 §3.7.5 (data is unsigned int); AMD ISA V_BFE_I32",
        ));
    }
    Ok(scalar(ValueType::I32, seed as u32, d))
}

fn run_alignbit(input: &OpInput) -> Result<OpOutput, InputError> {
    let mut d = Vec::new();
    let a = word(input, "a")?;
    let b = word(input, "b")?;
    let shift = five_bits(input, "shift", "seed 002 §3.7.6", &mut d)?;
    Ok(scalar(ValueType::U32, alignbit(a, b, shift), d))
}
