//! MACA arithmetic (seed 002 §3.5 浮点乘加函数, §3.7 常用计算函数): packed and scalar fused
//! multiply-add, wide integer multiply-add, packed f32 mul/add, and the transcendental helpers.
//!
//! Representation: a `v2f32` operand has no single lane value type, and its two elements never
//! interact (`d[k] = a[k] op b[k]`), so the per-lane view of `pk_*_f32` shows one element: the
//! operand row is `a[k]`, the params `b`, `c` are `b[k]`, `c[k]`. `v2f16` / bf16 pairs fit one
//! 32-bit register and are shown whole (`f16x2`, `bf16x2`, written `lo:hi`).
//!
//! Rounding: "fused" means one rounding. f16/bf16/f32 operands have ≤ 24 significant bits, so
//! a·b is exact in f64; a·b + c is formed in f64 with round-to-odd (exact two-sum, then the last
//! bit forced odd when inexact), which makes the final round-to-nearest-even to the narrow type
//! correct (Boldo & Melquiond, "Emulation of FMA and correctly rounded sums"). The transcendental
//! builtins are hardware approximations on the device; we show the correctly rounded value and
//! say so in the rule.

use half::{bf16, f16};

use crate::args::{Arg, Role, PER_LANE};
use crate::error::InputError;
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::LaneResult;
use crate::value::{Value, ValueType};

use super::arch::{self, ArchReq, ARCH_NEW};
use super::operands::{lane_value, lane_values, per_lane};

/// `a·b + c` rounded once to nearest even at any precision ≤ 51 bits: the f64 sum is rounded to
/// odd. Requires `a·b` to be exact in f64 (both factors ≤ 26 significant bits).
pub fn fused_round_odd(a: f64, b: f64, c: f64) -> f64 {
    let p = a * b;
    let s = p + c;
    if !s.is_finite() || !p.is_finite() {
        return s;
    }
    // Knuth's two-sum: err is exactly (p + c) - s.
    let bb = s - p;
    let err = (p - (s - bb)) + (c - bb);
    if err == 0.0 || s.to_bits() & 1 == 1 {
        return s;
    }
    let bits = s.to_bits();
    let away = (err > 0.0) == (s > 0.0);
    f64::from_bits(if away {
        bits.wrapping_add(1)
    } else {
        bits.wrapping_sub(1)
    })
}

/// `fma(a, b, c)` in f32 with one rounding.
pub fn fma_f32(a: f32, b: f32, c: f32) -> f32 {
    fused_round_odd(a as f64, b as f64, c as f64) as f32
}

/// `fma(a, b, c)` in binary16 with one rounding.
pub fn fma_f16(a: f16, b: f16, c: f16) -> f16 {
    f16::from_f64(fused_round_odd(a.to_f64(), b.to_f64(), c.to_f64()))
}

/// `fma(a, b, c)` in bfloat16 with one rounding.
pub fn fma_bf16(a: bf16, b: bf16, c: bf16) -> bf16 {
    bf16::from_f64(fused_round_odd(a.to_f64(), b.to_f64(), c.to_f64()))
}

/// `mad_wide_i32`: `(int64)a · (int64)b + c`, wrapping in 64 bits (AMD V_MAD_I64_I32).
pub fn mad_wide_i32(a: i32, b: i32, c: i64) -> i64 {
    (a as i64).wrapping_mul(b as i64).wrapping_add(c)
}

/// `mad_wide_u32`: `(uint64)a · (uint64)b + c`, wrapping in 64 bits (AMD V_MAD_U64_U32).
pub fn mad_wide_u32(a: u32, b: u32, c: u64) -> u64 {
    (a as u64).wrapping_mul(b as u64).wrapping_add(c)
}

/// `log_clampf`: log2(x) clamped to [0, 1]; NaN → 0 (the AMD output clamp, which maps NaN to 0:
/// the seed says only "结果限制在\[0,1\]区间").
pub fn log_clamp(x: f32) -> f32 {
    let y = (x as f64).log2();
    if y.is_nan() {
        0.0
    } else {
        y.clamp(0.0, 1.0) as f32
    }
}

const B: ParamSpec = ParamSpec {
    name: "b",
    kind: ParamKind::PerLaneValue,
    default: ParamDefault::Int(1),
    doc: "second operand, per lane (the operand row is a)",
};

const C: ParamSpec = ParamSpec {
    name: "c",
    kind: ParamKind::PerLaneValue,
    default: ParamDefault::Int(0),
    doc: "addend, per lane",
};

const C_WIDE: ParamSpec = ParamSpec {
    name: "c",
    kind: ParamKind::Text,
    default: ParamDefault::Text("0"),
    doc: "64-bit addend per lane: one value, lane, lane+K, lane*K or a comma list",
};

/// A v2f32 rule plus the note on how the lane view shows a pair.
macro_rules! pk_rule {
    ($rule:literal) => {
        concat!(
            $rule,
            " The two elements of a v2f32 are independent (d[k] = f(a[k], b[k], …)); the lane \
             view shows one element: the operand row is a[k], the params are b[k] (and c[k])."
        )
    };
}

/// A transcendental rule plus the note on device approximation.
macro_rules! approx_rule {
    ($rule:literal) => {
        concat!(
            $rule,
            " The device computes an approximation; the playground shows the correctly rounded \
             value (hardware may differ in the last bits)."
        )
    };
}

macro_rules! spec {
    ($name:literal, $proto:expr, $args:expr, $rule:expr, $src:literal, $settings:expr, $ty:expr, $run:ident) => {
        OpSpec {
            dialect: Dialect::Maca,
            name: $name,
            aliases: &[],
            proto: $proto,
            args: $args,
            rule: $rule,
            source: $src,
            settings: $settings,
            types: $ty,
            type_note: "seed 002 gives one prototype for this builtin",
            kind: OpKind::Lanes,
            run: $run,
        }
    };
}

/// The arithmetic builtins.
pub const OPS: &[OpSpec] = &[
    spec!(
        "__builtin_mxc_pk_fma_f32",
        Proto::returns("v2f32"), &[Arg::operand("a", "v2f32"), Arg::per_thread("b", "v2f32", Role::Data, B, PER_LANE), Arg::per_thread("c", "v2f32", Role::Data, C, PER_LANE)],
        pk_rule!("d[k] = fma(a[k], b[k], c[k]) in f32, one rounding (to nearest even)."),
        "seed 002 §3.5.1",
        &[],
        &[ValueType::F32],
        run_pk_fma_f32
    ),
    spec!(
        "__builtin_mxc_pk_fma_bf16",
        Proto::returns("v2f16"), &[Arg::operand("a", "v2f16"), Arg::per_thread("b", "v2f16", Role::Data, B, PER_LANE), Arg::per_thread("c", "v2f16", Role::Data, C, PER_LANE)],
        "Each bf16 half: d = fma(a, b, c), one rounding to bf16 (nearest even). The prototype says \
         v2f16 (_Float16) but the data are bf16 pairs: the playground reads them as bf16x2. Needs \
         xcore1500 or later.",
        "seed 002 §3.5.2",
        &[ARCH_NEW],
        &[ValueType::Bf16x2],
        run_pk_fma_bf16
    ),
    spec!(
        "__builtin_mxc_pk_fma_f16",
        Proto::returns("v2f16"), &[Arg::operand("a", "v2f16"), Arg::per_thread("b", "v2f16", Role::Data, B, PER_LANE), Arg::per_thread("c", "v2f16", Role::Data, C, PER_LANE)],
        "Each f16 half: d = fma(a, b, c), one rounding to f16 (nearest even). The seed's prototype \
         line is a copy of pk_fma_bf16's (it names __builtin_mxc_pk_fma_bf16); the name in the \
         section title and the example is pk_fma_f16. Needs xcore1500 or later.",
        "seed 002 §3.5.3",
        &[ARCH_NEW],
        &[ValueType::F16x2],
        run_pk_fma_f16
    ),
    spec!(
        "__builtin_mxc_fma_bf16",
        Proto::returns("_Float16"), &[Arg::operand("a", "_Float16"), Arg::per_thread("b", "_Float16", Role::Data, B, PER_LANE), Arg::per_thread("c", "_Float16", Role::Data, C, PER_LANE)],
        "d = fma(a, b, c) on bf16, one rounding (nearest even). The prototype spells the type \
         _Float16; the description says bf16 scalar, so the playground reads the bits as bf16. \
         Needs xcore1500 or later.",
        "seed 002 §3.5.4",
        &[ARCH_NEW],
        &[ValueType::Bf16],
        run_fma_bf16
    ),
    spec!(
        "__builtin_mxc_mad_wide_i32",
        Proto::returns("int64_t"), &[Arg::operand("a", "int"), Arg::per_thread("b", "int", Role::Data, B, PER_LANE), Arg::per_thread("c", "int64_t", Role::Data, C_WIDE, PER_LANE)],
        "d = (int64)a · (int64)b + c, two's complement, wrapping in 64 bits (AMD V_MAD_I64_I32; the \
         seed gives the widths: 32-bit factors, 64-bit addend).",
        "seed 002 §3.7.1",
        &[],
        &[ValueType::I32],
        run_mad_i32
    ),
    spec!(
        "__builtin_mxc_mad_wide_u32",
        Proto::returns("uint64_t"), &[Arg::operand("a", "unsigned int"), Arg::per_thread("b", "unsigned int", Role::Data, B, PER_LANE), Arg::per_thread("c", "uint64_t", Role::Data, C_WIDE, PER_LANE)],
        "d = (uint64)a · (uint64)b + c, wrapping in 64 bits (AMD V_MAD_U64_U32).",
        "seed 002 §3.7.1",
        &[],
        &[ValueType::U32],
        run_mad_u32
    ),
    spec!(
        "__builtin_mxc_pk_mul_f32",
        Proto::returns("v2f32"), &[Arg::operand("a", "v2f32"), Arg::per_thread("b", "v2f32", Role::Data, B, PER_LANE)],
        pk_rule!("d[0] = a[0] * b[0], d[1] = a[1] * b[1] (f32, nearest even)."),
        "seed 002 §3.7.2",
        &[],
        &[ValueType::F32],
        run_pk_mul
    ),
    spec!(
        "__builtin_mxc_pk_add_f32",
        Proto::returns("v2f32"), &[Arg::operand("a", "v2f32"), Arg::per_thread("b", "v2f32", Role::Data, B, PER_LANE)],
        pk_rule!("d[0] = a[0] + b[0], d[1] = a[1] + b[1] (f32, nearest even)."),
        "seed 002 §3.7.3",
        &[],
        &[ValueType::F32],
        run_pk_add
    ),
    spec!(
        "__builtin_mxc_cosf",
        Proto::returns("float"), &[Arg::operand("", "float")],
        approx_rule!("cos(x), x in radians. The seed's descriptions of cos* and sin* are swapped (cos* says \
         正弦 = sine, sin* says 余弦 = cosine); the names win. Units are not stated: we read x as \
         radians (AMD's raw V_COS_F32 takes revolutions, cos(2πx))."),
        "seed 002 §3.7.7",
        &[],
        &[ValueType::F32],
        run_cos
    ),
    spec!(
        "__builtin_mxc_cosh",
        Proto::returns("_Float16"), &[Arg::operand("", "_Float16")],
        approx_rule!("cos(x) in f16, x in radians (see __builtin_mxc_cosf). Not the hyperbolic cosine: the `h` \
         suffix is the half-precision form."),
        "seed 002 §3.7.7",
        &[],
        &[ValueType::F16],
        run_cos
    ),
    spec!(
        "__builtin_mxc_sinf",
        Proto::returns("float"), &[Arg::operand("", "float")],
        approx_rule!("sin(x), x in radians. The seed's descriptions of sin* and cos* are swapped; the names win."),
        "seed 002 §3.7.8",
        &[],
        &[ValueType::F32],
        run_sin
    ),
    spec!(
        "__builtin_mxc_sinh",
        Proto::returns("_Float16"), &[Arg::operand("", "_Float16")],
        approx_rule!("sin(x) in f16, x in radians (the `h` is half precision, not hyperbolic)."),
        "seed 002 §3.7.8",
        &[],
        &[ValueType::F16],
        run_sin
    ),
    spec!(
        "__builtin_mxc_rcpf",
        Proto::returns("float"), &[Arg::operand("", "float")],
        approx_rule!("1 / x (rcp(±0) = ±inf, rcp(±inf) = ±0)."),
        "seed 002 §3.7.9",
        &[],
        &[ValueType::F32],
        run_rcp
    ),
    spec!(
        "__builtin_mxc_rcph",
        Proto::returns("_Float16"), &[Arg::operand("", "_Float16")],
        approx_rule!("1 / x in f16."),
        "seed 002 §3.7.9",
        &[],
        &[ValueType::F16],
        run_rcp
    ),
    spec!(
        "__builtin_mxc_sqrtf",
        Proto::returns("float"), &[Arg::operand("src", "float")],
        approx_rule!("sqrt(x); negative x → NaN, sqrt(-0) = -0."),
        "seed 002 §3.7.10",
        &[],
        &[ValueType::F32],
        run_sqrt
    ),
    spec!(
        "__builtin_mxc_sqrth",
        Proto::returns("_Float16"), &[Arg::operand("src", "_Float16")],
        approx_rule!("sqrt(x) in f16."),
        "seed 002 §3.7.10",
        &[],
        &[ValueType::F16],
        run_sqrt
    ),
    spec!(
        "__builtin_mxc_rsqf",
        Proto::returns("float"), &[Arg::operand("src", "float")],
        approx_rule!("1.0 / sqrt(x) (seed: 平方根倒数); rsq(0) = inf, negative x → NaN."),
        "seed 002 §3.7.11",
        &[],
        &[ValueType::F32],
        run_rsq
    ),
    spec!(
        "__builtin_mxc_rsqh",
        Proto::returns("_Float16"), &[Arg::operand("src", "_Float16")],
        approx_rule!("1.0 / sqrt(x) in f16."),
        "seed 002 §3.7.11",
        &[],
        &[ValueType::F16],
        run_rsq
    ),
    spec!(
        "__builtin_mxc_log_clampf",
        Proto::returns("float"), &[Arg::operand("", "float")],
        "log2(x) clamped to [0, 1]: below 0 → 0, above 1 → 1 (seed). NaN results (x < 0, NaN) → 0 \
         and log2(0) = -inf → 0: the seed is silent on NaN; AMD's output clamp maps NaN to 0.",
        "seed 002 §3.7.12",
        &[],
        &[ValueType::F32],
        run_log_clamp
    ),
];

fn f32_of(v: Value) -> f32 {
    f32::from_bits(v.bits as u32)
}

fn f32_value(x: f32) -> Value {
    Value::from_bits(ValueType::F32, x.to_bits() as u64)
}

fn done(results: Vec<LaneResult>) -> Result<OpOutput, InputError> {
    Ok(OpOutput {
        results,
        diagnostics: Vec::new(),
    })
}

/// Runs a per-lane function of (a, b, c) where b and c are the PerLaneValue params (c optional).
fn ternary(
    input: &OpInput,
    with_c: bool,
    f: impl Fn(Value, Value, Option<Value>) -> Value,
) -> Result<OpOutput, InputError> {
    let b = input.params.values("b")?;
    let c = if with_c {
        Some(input.params.values("c")?)
    } else {
        None
    };
    done(per_lane(input, |i| {
        let a = lane_value(&input.values, i, "values")?;
        let bv = lane_value(b, i, "b")?;
        let cv = match c {
            Some(c) => Some(lane_value(c, i, "c")?),
            None => None,
        };
        Ok(LaneResult::computed(f(a, bv, cv)))
    })?)
}

fn run_pk_fma_f32(input: &OpInput) -> Result<OpOutput, InputError> {
    ternary(input, true, |a, b, c| {
        let c = c.map_or(0.0, f32_of);
        f32_value(fma_f32(f32_of(a), f32_of(b), c))
    })
}

fn pair_fma(a: Value, b: Value, c: Value, f: impl Fn(u16, u16, u16) -> u16) -> Value {
    let (a0, a1) = a.halves();
    let (b0, b1) = b.halves();
    let (c0, c1) = c.halves();
    Value::pack(a.ty, f(a0, b0, c0), f(a1, b1, c1))
}

fn run_pk_fma_bf16(input: &OpInput) -> Result<OpOutput, InputError> {
    arch::check(
        input,
        ArchReq::AtLeast1500,
        "__builtin_mxc_pk_fma_bf16",
        "3.5.2",
    )?;
    ternary(input, true, |a, b, c| {
        let c = c.unwrap_or(Value::from_bits(a.ty, 0));
        pair_fma(a, b, c, |x, y, z| {
            fma_bf16(bf16::from_bits(x), bf16::from_bits(y), bf16::from_bits(z)).to_bits()
        })
    })
}

fn run_pk_fma_f16(input: &OpInput) -> Result<OpOutput, InputError> {
    arch::check(
        input,
        ArchReq::AtLeast1500,
        "__builtin_mxc_pk_fma_f16",
        "3.5.3",
    )?;
    ternary(input, true, |a, b, c| {
        let c = c.unwrap_or(Value::from_bits(a.ty, 0));
        pair_fma(a, b, c, |x, y, z| {
            fma_f16(f16::from_bits(x), f16::from_bits(y), f16::from_bits(z)).to_bits()
        })
    })
}

fn run_fma_bf16(input: &OpInput) -> Result<OpOutput, InputError> {
    arch::check(
        input,
        ArchReq::AtLeast1500,
        "__builtin_mxc_fma_bf16",
        "3.5.4",
    )?;
    ternary(input, true, |a, b, c| {
        let c = c.map_or(0, |c| c.bits as u16);
        let d = fma_bf16(
            bf16::from_bits(a.bits as u16),
            bf16::from_bits(b.bits as u16),
            bf16::from_bits(c),
        );
        Value::from_bits(ValueType::Bf16, d.to_bits() as u64)
    })
}

fn run_mad_i32(input: &OpInput) -> Result<OpOutput, InputError> {
    let c = lane_values(input, "c", ValueType::I64)?;
    let b = input.params.values("b")?;
    done(per_lane(input, |i| {
        let a = lane_value(&input.values, i, "values")?.bits as u32 as i32;
        let b = lane_value(b, i, "b")?.bits as u32 as i32;
        let c = lane_value(&c, i, "c")?.bits as i64;
        Ok(LaneResult::computed(Value::from_bits(
            ValueType::I64,
            mad_wide_i32(a, b, c) as u64,
        )))
    })?)
}

fn run_mad_u32(input: &OpInput) -> Result<OpOutput, InputError> {
    let c = lane_values(input, "c", ValueType::U64)?;
    let b = input.params.values("b")?;
    done(per_lane(input, |i| {
        let a = lane_value(&input.values, i, "values")?.bits as u32;
        let b = lane_value(b, i, "b")?.bits as u32;
        let c = lane_value(&c, i, "c")?.bits;
        Ok(LaneResult::computed(Value::from_bits(
            ValueType::U64,
            mad_wide_u32(a, b, c),
        )))
    })?)
}

fn run_pk_mul(input: &OpInput) -> Result<OpOutput, InputError> {
    ternary(input, false, |a, b, _| f32_value(f32_of(a) * f32_of(b)))
}

fn run_pk_add(input: &OpInput) -> Result<OpOutput, InputError> {
    ternary(input, false, |a, b, _| f32_value(f32_of(a) + f32_of(b)))
}

/// Applies `f` in f64 and rounds once to the lane's type (f32 or f16).
fn unary(input: &OpInput, f: impl Fn(f64) -> f64) -> Result<OpOutput, InputError> {
    done(per_lane(input, |i| {
        let v = lane_value(&input.values, i, "values")?;
        let out = match v.ty {
            ValueType::F16 => {
                let y = f(f16::from_bits(v.bits as u16).to_f64());
                Value::from_bits(ValueType::F16, f16::from_f64(y).to_bits() as u64)
            }
            _ => f32_value(f(f32_of(v) as f64) as f32),
        };
        Ok(LaneResult::computed(out))
    })?)
}

fn run_cos(input: &OpInput) -> Result<OpOutput, InputError> {
    unary(input, f64::cos)
}
fn run_sin(input: &OpInput) -> Result<OpOutput, InputError> {
    unary(input, f64::sin)
}
fn run_rcp(input: &OpInput) -> Result<OpOutput, InputError> {
    unary(input, |x| 1.0 / x)
}
fn run_sqrt(input: &OpInput) -> Result<OpOutput, InputError> {
    unary(input, f64::sqrt)
}
fn run_rsq(input: &OpInput) -> Result<OpOutput, InputError> {
    unary(input, |x| 1.0 / x.sqrt())
}
fn run_log_clamp(input: &OpInput) -> Result<OpOutput, InputError> {
    done(per_lane(input, |i| {
        let x = f32_of(lane_value(&input.values, i, "values")?);
        Ok(LaneResult::computed(f32_value(log_clamp(x))))
    })?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fused_rounds_once() {
        // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24; minus 1 leaves 2^-11 + 2^-24 exactly, which f32
        // holds: an unfused multiply would lose the 2^-24 term.
        let x = 1.0 + 2f32.powi(-12);
        assert_eq!(fma_f32(x, x, -1.0), 2f32.powi(-11) + 2f32.powi(-24));
        // f16: (1 + 2^-10)·(1 + 2^-10) − 1 = 2^-9 + 2^-20 rounds (once) to 2^-9 + 2^-20 in f16?
        // 2^-9 has ulp 2^-19 in f16, so 2^-20 is exactly half an ulp: ties to even → 2^-9.
        let h = f16::from_f64(1.0 + 2f64.powi(-10));
        assert_eq!(fma_f16(h, h, f16::from_f64(-1.0)).to_f64(), 2f64.powi(-9));
    }

    #[test]
    fn mad_wide_keeps_64_bits() {
        assert_eq!(mad_wide_i32(i32::MIN, 2, 0), -(1i64 << 32));
        assert_eq!(mad_wide_u32(u32::MAX, u32::MAX, 1), 0xffff_fffe_0000_0002);
    }

    #[test]
    fn log_clamp_bounds() {
        assert_eq!(log_clamp(0.5), 0.0);
        assert_eq!(log_clamp(1.5), 1.5f64.log2() as f32);
        assert_eq!(log_clamp(8.0), 1.0);
        assert_eq!(log_clamp(-1.0), 0.0);
        assert_eq!(log_clamp(0.0), 0.0);
    }
}
