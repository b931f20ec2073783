//! MACA conversions (seed 002 §3.3): `__builtin_mxc_cvt_f32totf32`, `cvt_pk_f32tou8`,
//! `b0..b3_cast_to_f32`.
//!
//! The seed gives the purpose of each builtin but not its rounding. Where it is silent we follow
//! the AMD instruction the builtin mirrors and say so in the op's `rule`:
//! * `cvt_pk_f32tou8` is AMD `V_CVT_PK_U8_F32` (same operands: value, byte index, dword):
//!   `D = (S2 & ~(0xff << 8·S1[1:0])) | (u8(S0) << 8·S1[1:0])`; `u8()` rounds to nearest even and
//!   saturates to 0..=255, NaN → 0 (the instruction Mesa uses for unorm packing, which needs
//!   round-to-nearest).
//! * `cvt_f32totf32` keeps sign, exponent and the top 10 mantissa bits; the dropped 13 bits round
//!   to nearest even (the IEEE default rounding of every AMD VALU conversion). NaN stays NaN
//!   (quieted), ±inf stays, a value that rounds past the largest tf32 becomes ±inf.
//! * `bN_cast_to_f32` is AMD `V_CVT_F32_UBYTE0..3`: byte N as an unsigned integer, exact.

use crate::args::{Arg, Role, PER_LANE};
use crate::error::InputError;
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::LaneResult;
use crate::value::{Value, ValueType};

use super::arch::{self, ArchReq, ARCH_NEW};
use super::operands::{lane_value, per_lane};

/// Rounds an f32 to tf32 (1 sign, 8 exponent, 10 mantissa bits), kept in an f32 whose low 13
/// mantissa bits are zero. Round to nearest, ties to even; NaN is quieted, keeping its sign.
pub fn f32_to_tf32(x: f32) -> f32 {
    let bits = x.to_bits();
    if x.is_nan() {
        return f32::from_bits((bits | 0x0040_0000) & !0x1fff);
    }
    if x.is_infinite() {
        return x;
    }
    let round = 0x0fff + ((bits >> 13) & 1);
    f32::from_bits(bits.wrapping_add(round) & !0x1fff)
}

/// AMD `flt32_to_uint8`: round to nearest even, saturate to 0..=255, NaN → 0.
pub fn f32_to_u8_sat(x: f32) -> u8 {
    if x.is_nan() {
        0
    } else {
        // round_ties_even then clamp: every f32 in range is exact after rounding.
        x.round_ties_even().clamp(0.0, 255.0) as u8
    }
}

/// `V_CVT_PK_U8_F32`: `src2` with byte `src1 & 3` replaced by `u8(src0)`.
pub fn cvt_pk_f32tou8(src0: f32, src1: u32, src2: u32) -> u32 {
    let shift = 8 * (src1 & 3);
    (src2 & !(0xff << shift)) | ((f32_to_u8_sat(src0) as u32) << shift)
}

/// `V_CVT_F32_UBYTEn`: byte `n` (0..=3) of `s0` as a float.
pub fn byte_cast_to_f32(s0: u32, n: u32) -> f32 {
    ((s0 >> (8 * (n & 3))) & 0xff) as f32
}

const SRC1: ParamSpec = ParamSpec {
    name: "src1",
    kind: ParamKind::PerLaneInt {
        min: 0,
        max: u32::MAX as i64,
    },
    default: ParamDefault::Int(0),
    doc: "byte index the converted value is inserted at (bits [1:0] used), per lane",
};

const SRC2: ParamSpec = ParamSpec {
    name: "src2",
    kind: ParamKind::PerLaneInt {
        min: i32::MIN as i64,
        max: u32::MAX as i64,
    },
    default: ParamDefault::Int(0),
    doc: "the dword whose byte is replaced, per lane",
};

macro_rules! byte_cast {
    ($name:literal, $proto:expr, $args:expr, $run:ident) => {
        OpSpec {
            dialect: Dialect::Maca,
            name: $name,
            aliases: &[],
            proto: $proto,
            args: $args,
            rule: "Byte N of S0 (bits [8N+7:8N]) as an unsigned 8-bit integer, converted to float \
                   (exact: 0..=255). AMD V_CVT_F32_UBYTE<N>.",
            source: "seed 002 §3.3.3",
            settings: &[],
            types: &[ValueType::I32, ValueType::U32],
            type_note: "the prototype takes int S0",
            kind: OpKind::Lanes,
            run: $run,
        }
    };
}

/// The conversion builtins.
pub const OPS: &[OpSpec] = &[
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_cvt_f32totf32",
        aliases: &["cvt_f32totf32"],
        proto: Proto::returns("float"),
        args: &[Arg::operand("", "float")],
        rule: "The float rounded to tf32 (sign, 8-bit exponent, 10-bit mantissa; the low 13 mantissa \
               bits become 0). Rounding is to nearest, ties to even — our choice: the seed does not \
               say, and IEEE round-to-nearest-even is the default of AMD VALU conversions. NaN stays \
               NaN (quieted), ±inf stays, values rounding past the largest tf32 become ±inf. Needs \
               xcore1500 or later.",
        source: "seed 002 §3.3.1",
        settings: &[ARCH_NEW],
        types: &[ValueType::F32],
        type_note: "the prototype takes float",
        kind: OpKind::Lanes,
        run: run_tf32,
    },
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_cvt_pk_f32tou8",
        aliases: &["cvt_pk_f32tou8"],
        proto: Proto::returns("unsigned int"),
        args: &[Arg::operand("src0", "float"), Arg::per_thread("src1", "unsigned int", Role::Data, SRC1, PER_LANE), Arg::per_thread("src2", "unsigned int", Role::Data, SRC2, PER_LANE)],
        rule: "src2 with byte (src1 & 3) replaced by src0 converted to an unsigned 8-bit integer: \
               D = (src2 & ~(0xff << 8·src1[1:0])) | (u8(src0) << 8·src1[1:0]). u8() rounds to nearest \
               even and saturates to 0..=255; NaN → 0. The seed does not give the rounding: this is \
               AMD V_CVT_PK_U8_F32, which the builtin mirrors operand for operand.",
        source: "seed 002 §3.3.2; AMD ISA V_CVT_PK_U8_F32",
        settings: &[],
        types: &[ValueType::F32],
        type_note: "the prototype takes float src0",
        kind: OpKind::Lanes,
        run: run_pk_u8,
    },
    byte_cast!(
        "__builtin_mxc_b0_cast_to_f32",
        Proto::returns("float").note("convert S0.u[7:0] to float"), &[Arg::operand("S0", "int")],
        run_b0
    ),
    byte_cast!(
        "__builtin_mxc_b1_cast_to_f32",
        Proto::returns("float").note("convert S0.u[15:8] to float"), &[Arg::operand("S0", "int")],
        run_b1
    ),
    byte_cast!(
        "__builtin_mxc_b2_cast_to_f32",
        Proto::returns("float").note("convert S0.u[23:16] to float"), &[Arg::operand("S0", "int")],
        run_b2
    ),
    byte_cast!(
        "__builtin_mxc_b3_cast_to_f32",
        Proto::returns("float").note("convert S0.u[31:24] to float"), &[Arg::operand("S0", "int")],
        run_b3
    ),
];

fn f32_value(x: f32) -> Value {
    Value::from_bits(ValueType::F32, x.to_bits() as u64)
}

fn run_tf32(input: &OpInput) -> Result<OpOutput, InputError> {
    arch::check(
        input,
        ArchReq::AtLeast1500,
        "__builtin_mxc_cvt_f32totf32",
        "3.3.1",
    )?;
    let results = per_lane(input, |i| {
        let x = f32::from_bits(lane_value(&input.values, i, "values")?.bits as u32);
        Ok(LaneResult::computed(f32_value(f32_to_tf32(x))))
    })?;
    Ok(OpOutput {
        results,
        diagnostics: Vec::new(),
    })
}

fn run_pk_u8(input: &OpInput) -> Result<OpOutput, InputError> {
    let src1 = input.params.ints("src1")?;
    let src2 = input.params.ints("src2")?;
    let results = per_lane(input, |i| {
        let x = f32::from_bits(lane_value(&input.values, i, "values")?.bits as u32);
        let idx = src1.get(i).copied().unwrap_or(0) as u32;
        let dword = src2.get(i).copied().unwrap_or(0) as u32;
        Ok(LaneResult::computed(Value::from_bits(
            ValueType::U32,
            cvt_pk_f32tou8(x, idx, dword) as u64,
        )))
    })?;
    Ok(OpOutput {
        results,
        diagnostics: Vec::new(),
    })
}

fn run_byte(input: &OpInput, n: u32) -> Result<OpOutput, InputError> {
    let results = per_lane(input, |i| {
        let s0 = lane_value(&input.values, i, "values")?.bits as u32;
        Ok(LaneResult::computed(f32_value(byte_cast_to_f32(s0, n))))
    })?;
    Ok(OpOutput {
        results,
        diagnostics: Vec::new(),
    })
}

fn run_b0(input: &OpInput) -> Result<OpOutput, InputError> {
    run_byte(input, 0)
}
fn run_b1(input: &OpInput) -> Result<OpOutput, InputError> {
    run_byte(input, 1)
}
fn run_b2(input: &OpInput) -> Result<OpOutput, InputError> {
    run_byte(input, 2)
}
fn run_b3(input: &OpInput) -> Result<OpOutput, InputError> {
    run_byte(input, 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tf32_rounds_to_nearest_even() {
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even → 1.
        assert_eq!(f32_to_tf32(1.0 + 2f32.powi(-11)), 1.0);
        // 1 + 3·2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: ties to even → 1 + 2^-9.
        assert_eq!(f32_to_tf32(1.0 + 3.0 * 2f32.powi(-11)), 1.0 + 2f32.powi(-9));
        assert_eq!(f32_to_tf32(f32::MAX), f32::INFINITY);
        assert!(f32_to_tf32(f32::NAN).is_nan());
    }

    #[test]
    fn u8_saturates_and_rounds_even() {
        assert_eq!(f32_to_u8_sat(2.5), 2);
        assert_eq!(f32_to_u8_sat(3.5), 4);
        assert_eq!(f32_to_u8_sat(-7.0), 0);
        assert_eq!(f32_to_u8_sat(1e9), 255);
        assert_eq!(f32_to_u8_sat(f32::NAN), 0);
        assert_eq!(cvt_pk_f32tou8(0x12 as f32, 6, 0xaabb_ccdd), 0xaa12_ccdd);
    }
}
