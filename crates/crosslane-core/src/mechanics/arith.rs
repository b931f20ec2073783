//! Lane-value arithmetic with undefined propagation: the binary operators that reductions, scans
//! and (later) the kernel interpreter apply to [`Value`]s.
//!
//! What it is for: `a op b` for every [`ValueType`], computed as the vendors' hardware does, and
//! the rule that a result with an undefined operand is undefined ("a sum with an undefined lane
//! is undefined" — a vendor's undefined value may be anything, so anything computed from it is
//! too). Undefined is `None` in the `_opt` functions, as in [`crate::LaneResult::value`].
//!
//! Arithmetic:
//! * Integers (i32, u32, i64, u64): two's-complement wrapping add and mul (CUDA / HIP / WGSL
//!   integer overflow wraps); min/max compare signed or unsigned by type; and/or/xor on the bits.
//! * f32 and f64: IEEE 754 binary32 / binary64, round to nearest even (Rust's native `+`, `*`).
//! * f16 and bf16: computed exactly in f64 and rounded once to the type (the `half` crate rounds
//!   to nearest even). f64 has more than 2p + 2 significand bits for both, so this single rounding
//!   equals the correctly rounded half-precision result (no double-rounding error).
//! * Packed pairs (f16x2, bf16x2): each 16-bit half separately, as `__hadd2` / `__hmul2` do.
//! * Float min/max: if one operand is NaN the other is returned; otherwise `b < a ? b : a` for
//!   min and `b > a ? b : a` for max, so the first operand wins ties such as min(-0, +0). This is
//!   IEEE 754-2008 minNum/maxNum and CUDA's `fminf`/`fmaxf` NaN rule; the returned operand keeps
//!   its bits. WGSL's `min`/`max` state no NaN rule (finite-math assumption): the WGSL dialect
//!   reports a NaN operand as indeterminate before it reaches this operator.
//! * A NaN produced by add or mul is the canonical quiet NaN of its type, positive, with only the
//!   quiet bit of the significand set: f32 0x7fc00000, f64 0x7ff8000000000000, f16 0x7e00, bf16
//!   0x7fc0 (WebAssembly Core Specification, "Floating-Point Operations": the canonical NaN has
//!   payload 2^(M−1); IEEE 754-2019 §6.2.1: the quiet bit is the significand's first bit). The
//!   host's own NaN (x86 gives 0xffc00000 for inf − inf, wasm may give either sign) never leaks
//!   into a result, so the CLI and the page agree bit for bit.
//! * Bitwise operators are defined only for integer types (WGSL subgroupAnd/Or/Xor, CUDA
//!   `__reduce_and_sync` take integers): a float operand is an [`ArithError`].

use half::{bf16, f16};
use serde::{Deserialize, Serialize};

use crate::error::InputError;
use crate::value::{Value, ValueType};

/// A binary operator of a reduction, scan or expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BinOp {
    /// `a + b` (wrapping for integers).
    Add,
    /// `a * b` (wrapping for integers).
    Mul,
    /// The smaller operand (NaN loses).
    Min,
    /// The larger operand (NaN loses).
    Max,
    /// Bitwise and (integers only).
    And,
    /// Bitwise or (integers only).
    Or,
    /// Bitwise exclusive or (integers only).
    Xor,
}

impl BinOp {
    /// Every operator.
    pub const ALL: [BinOp; 7] = [
        BinOp::Add,
        BinOp::Mul,
        BinOp::Min,
        BinOp::Max,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
    ];

    /// The operator's name: `add`, `mul`, `min`, `max`, `and`, `or`, `xor`.
    pub fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Mul => "mul",
            BinOp::Min => "min",
            BinOp::Max => "max",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
        }
    }

    /// Whether the operator is bitwise (defined for integer types only).
    pub fn is_bitwise(self) -> bool {
        matches!(self, BinOp::And | BinOp::Or | BinOp::Xor)
    }

    /// Whether `op` applies to values of type `ty`.
    pub fn supports(self, ty: ValueType) -> bool {
        !(self.is_bitwise() && ty.is_float())
    }
}

impl std::fmt::Display for BinOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why two values cannot be combined.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArithError {
    /// The operands have different types (no implicit conversion, as in WGSL).
    #[error("cannot {op} a {left} and a {right}: operands must have the same type")]
    TypeMismatch {
        /// The operator.
        op: BinOp,
        /// Type of the left operand.
        left: ValueType,
        /// Type of the right operand.
        right: ValueType,
    },
    /// A bitwise operator on a floating-point type.
    #[error("{op} is defined for integer types (i32, u32, i64, u64), not {ty}")]
    NotInteger {
        /// The operator.
        op: BinOp,
        /// The operand type.
        ty: ValueType,
    },
}

/// An arithmetic error is a `type` the user picked that the operator does not take.
impl From<ArithError> for InputError {
    fn from(e: ArithError) -> Self {
        InputError::new("type", e.to_string())
    }
}

/// `a op b`.
///
/// # Errors
/// [`ArithError::TypeMismatch`] when the types differ; [`ArithError::NotInteger`] for a bitwise
/// operator on a float type.
pub fn binary(op: BinOp, a: Value, b: Value) -> Result<Value, ArithError> {
    if a.ty != b.ty {
        return Err(ArithError::TypeMismatch {
            op,
            left: a.ty,
            right: b.ty,
        });
    }
    let ty = a.ty;
    if !op.supports(ty) {
        return Err(ArithError::NotInteger { op, ty });
    }
    let bits = match ty {
        ValueType::I32 => int_op(
            op,
            a.bits as u32 as i32 as i64,
            b.bits as u32 as i32 as i64,
            32,
        ),
        ValueType::U32 => int_op(op, a.bits as u32 as i64, b.bits as u32 as i64, 32),
        ValueType::I64 => int_op(op, a.bits as i64, b.bits as i64, 64),
        ValueType::U64 => u64_op(op, a.bits, b.bits),
        ValueType::F32 => f32_op(op, a.bits as u32, b.bits as u32) as u64,
        ValueType::F64 => f64_op(op, a.bits, b.bits),
        ValueType::F16 => half_op::<F16Kind>(op, a.bits as u16, b.bits as u16) as u64,
        ValueType::Bf16 => half_op::<Bf16Kind>(op, a.bits as u16, b.bits as u16) as u64,
        ValueType::F16x2 | ValueType::Bf16x2 => {
            let (alo, ahi) = a.halves();
            let (blo, bhi) = b.halves();
            let (lo, hi) = if ty == ValueType::F16x2 {
                (
                    half_op::<F16Kind>(op, alo, blo),
                    half_op::<F16Kind>(op, ahi, bhi),
                )
            } else {
                (
                    half_op::<Bf16Kind>(op, alo, blo),
                    half_op::<Bf16Kind>(op, ahi, bhi),
                )
            };
            return Ok(Value::pack(ty, lo, hi));
        }
    };
    Ok(Value::from_bits(ty, bits))
}

/// `a op b` where either operand may be undefined (`None`): an undefined operand gives an
/// undefined result.
///
/// # Errors
/// As [`binary`], when both operands are defined.
pub fn binary_opt(
    op: BinOp,
    a: Option<Value>,
    b: Option<Value>,
) -> Result<Option<Value>, ArithError> {
    match (a, b) {
        (Some(a), Some(b)) => binary(op, a, b).map(Some),
        _ => Ok(None),
    }
}

/// The identity of `op` on `ty` (`x op identity = x` for every non-NaN x): 0 for add, or, xor;
/// 1 for mul; all ones for and; the type's largest value (+inf for floats) for min and its
/// smallest (-inf) for max. Packed pairs have the identity in both halves. WGSL's exclusive scans
/// return it at the first active invocation.
///
/// # Errors
/// [`ArithError::NotInteger`] for a bitwise operator on a float type.
pub fn identity(op: BinOp, ty: ValueType) -> Result<Value, ArithError> {
    if !op.supports(ty) {
        return Err(ArithError::NotInteger { op, ty });
    }
    let half = |h: u16| Value::pack(ty, h, h);
    Ok(match (op, ty) {
        (BinOp::Add | BinOp::Or | BinOp::Xor, _) => Value::from_bits(ty, 0),
        (BinOp::And, _) => Value::from_bits(ty, u64::MAX),
        (BinOp::Mul, _) => match ty {
            ValueType::F16x2 => half(f16::ONE.to_bits()),
            ValueType::Bf16x2 => half(bf16::ONE.to_bits()),
            _ => Value::from_i64(ty, 1),
        },
        (BinOp::Min, _) => match ty {
            ValueType::I32 => Value::from_i64(ty, i32::MAX as i64),
            ValueType::U32 | ValueType::U64 => Value::from_bits(ty, u64::MAX),
            ValueType::I64 => Value::from_i64(ty, i64::MAX),
            ValueType::F32 => Value::from_bits(ty, f32::INFINITY.to_bits() as u64),
            ValueType::F64 => Value::from_bits(ty, f64::INFINITY.to_bits()),
            ValueType::F16 => Value::from_bits(ty, f16::INFINITY.to_bits() as u64),
            ValueType::Bf16 => Value::from_bits(ty, bf16::INFINITY.to_bits() as u64),
            ValueType::F16x2 => half(f16::INFINITY.to_bits()),
            ValueType::Bf16x2 => half(bf16::INFINITY.to_bits()),
        },
        (BinOp::Max, _) => match ty {
            ValueType::I32 => Value::from_i64(ty, i32::MIN as i64),
            ValueType::U32 | ValueType::U64 => Value::from_bits(ty, 0),
            ValueType::I64 => Value::from_i64(ty, i64::MIN),
            ValueType::F32 => Value::from_bits(ty, f32::NEG_INFINITY.to_bits() as u64),
            ValueType::F64 => Value::from_bits(ty, f64::NEG_INFINITY.to_bits()),
            ValueType::F16 => Value::from_bits(ty, f16::NEG_INFINITY.to_bits() as u64),
            ValueType::Bf16 => Value::from_bits(ty, bf16::NEG_INFINITY.to_bits() as u64),
            ValueType::F16x2 => half(f16::NEG_INFINITY.to_bits()),
            ValueType::Bf16x2 => half(bf16::NEG_INFINITY.to_bits()),
        },
    })
}

/// Folds `values` left to right with `op` (`((v0 op v1) op v2) …`, the order a sequential loop
/// over lanes uses). Any undefined item makes the result undefined; an empty input gives
/// `Some(identity)`.
///
/// # Errors
/// As [`binary`] and [`identity`].
pub fn fold(
    op: BinOp,
    ty: ValueType,
    values: impl IntoIterator<Item = Option<Value>>,
) -> Result<Option<Value>, ArithError> {
    let mut acc = Some(identity(op, ty)?);
    let mut first = true;
    for v in values {
        // Start from the first item rather than the identity so that float sums keep -0.0 and
        // NaN payloads of a single operand.
        acc = if first { v } else { binary_opt(op, acc, v)? };
        if let Some(x) = acc {
            if x.ty != ty {
                return Err(ArithError::TypeMismatch {
                    op,
                    left: ty,
                    right: x.ty,
                });
            }
        }
        first = false;
    }
    Ok(acc)
}

fn int_op(op: BinOp, a: i64, b: i64, width: u32) -> u64 {
    let wrap = |x: i64| -> u64 {
        if width == 32 {
            x as u32 as u64
        } else {
            x as u64
        }
    };
    match op {
        BinOp::Add => wrap(a.wrapping_add(b)),
        BinOp::Mul => wrap(a.wrapping_mul(b)),
        // Values arrive sign- or zero-extended by type, so i64 comparison is the type's own.
        BinOp::Min => wrap(a.min(b)),
        BinOp::Max => wrap(a.max(b)),
        BinOp::And => wrap(a & b),
        BinOp::Or => wrap(a | b),
        BinOp::Xor => wrap(a ^ b),
    }
}

fn u64_op(op: BinOp, a: u64, b: u64) -> u64 {
    match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Min => a.min(b),
        BinOp::Max => a.max(b),
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
    }
}

/// min/max by the NaN-loses rule; returns which operand wins (true = b).
fn pick_b(op: BinOp, a: f64, b: f64) -> bool {
    if a.is_nan() {
        return true;
    }
    if b.is_nan() {
        return false;
    }
    match op {
        BinOp::Min => b < a,
        _ => b > a,
    }
}

/// The canonical quiet NaN of f32 (module docs: WebAssembly Core Specification, IEEE 754-2019).
pub const CANONICAL_NAN_F32: u32 = 0x7fc0_0000;
/// The canonical quiet NaN of f64.
pub const CANONICAL_NAN_F64: u64 = 0x7ff8_0000_0000_0000;
/// The canonical quiet NaN of f16.
pub const CANONICAL_NAN_F16: u16 = 0x7e00;
/// The canonical quiet NaN of bf16.
pub const CANONICAL_NAN_BF16: u16 = 0x7fc0;

fn canon_f32(x: f32) -> u32 {
    if x.is_nan() {
        CANONICAL_NAN_F32
    } else {
        x.to_bits()
    }
}

fn canon_f64(x: f64) -> u64 {
    if x.is_nan() {
        CANONICAL_NAN_F64
    } else {
        x.to_bits()
    }
}

fn f32_op(op: BinOp, a: u32, b: u32) -> u32 {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    match op {
        BinOp::Add => canon_f32(x + y),
        BinOp::Mul => canon_f32(x * y),
        _ => {
            if pick_b(op, x as f64, y as f64) {
                b
            } else {
                a
            }
        }
    }
}

fn f64_op(op: BinOp, a: u64, b: u64) -> u64 {
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    match op {
        BinOp::Add => canon_f64(x + y),
        BinOp::Mul => canon_f64(x * y),
        _ => {
            if pick_b(op, x, y) {
                b
            } else {
                a
            }
        }
    }
}

/// A 16-bit float format of the `half` crate.
trait HalfKind {
    /// The canonical quiet NaN of the format.
    const NAN: u16;
    fn to_f64(bits: u16) -> f64;
    fn from_f64(x: f64) -> u16;
}

struct F16Kind;
struct Bf16Kind;

impl HalfKind for F16Kind {
    const NAN: u16 = CANONICAL_NAN_F16;
    fn to_f64(bits: u16) -> f64 {
        f16::from_bits(bits).to_f64()
    }
    fn from_f64(x: f64) -> u16 {
        f16::from_f64(x).to_bits()
    }
}

impl HalfKind for Bf16Kind {
    const NAN: u16 = CANONICAL_NAN_BF16;
    fn to_f64(bits: u16) -> f64 {
        bf16::from_bits(bits).to_f64()
    }
    fn from_f64(x: f64) -> u16 {
        bf16::from_f64(x).to_bits()
    }
}

fn half_op<K: HalfKind>(op: BinOp, a: u16, b: u16) -> u16 {
    let (x, y) = (K::to_f64(a), K::to_f64(b));
    match op {
        BinOp::Add | BinOp::Mul => {
            let r = if op == BinOp::Add { x + y } else { x * y };
            if r.is_nan() {
                K::NAN
            } else {
                K::from_f64(r)
            }
        }
        _ => {
            if pick_b(op, x, y) {
                b
            } else {
                a
            }
        }
    }
}
