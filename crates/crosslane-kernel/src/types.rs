//! Kernel types and values with the semantics of C++17, the language CUDA (nvcc's default
//! dialect), HIP (clang), Ascend C (a C++ dialect, seed 001: asc-devkit "supports the C and C++
//! standards", compiled as C++) and MACA (mxcc, a clang C++ compiler) kernels are written in:
//! integral promotion, the usual arithmetic conversions, wrapping unsigned arithmetic, signed
//! overflow as undefined behaviour, IEEE floats (half and bfloat16 through the `half` crate).
//!
//! Sources (ISO C++17, N4659): \[conv.prom\]/1 (integral promotions), \[expr\]/11 (usual
//! arithmetic conversions), \[expr\]/4 (a result not in the range of its type — signed overflow —
//! is undefined), [basic.fundamental]/4 (unsigned arithmetic is modulo 2^n), [expr.mul]/4
//! (division by zero undefined; a quotient that is not representable, `INT_MIN / -1`, makes
//! both `/` and `%` undefined), [expr.shift]/1 (a shift count negative or ≥ the promoted left
//! operand's width is undefined), [expr.shift]/2 (`E1 << E2` of a signed non-negative E1 is
//! defined when E1×2^E2 fits the corresponding unsigned type — `1 << 31` is `INT_MIN` — and
//! undefined otherwise, a negative E1 included; C++20 defines every case), [expr.shift]/3
//! (`>>` of a negative value: implementation-defined, an arithmetic shift in nvcc and clang),
//! [conv.integral]/3 (a value out of a signed type's range: implementation-defined, modulo 2^n
//! in nvcc and clang), [conv.fpint]/1 (float → integer out of range is undefined). C rules
//! apply to nothing here: WGSL follows its own specification (`wgsl/lower`).

use half::{bf16, f16};
use serde::Serialize;

use super::accuracy::{Approx, Fmt};
use super::fp8_format::Format as Fp8Format;
use crosslane_core::result::Level;
use crosslane_core::value::{Value, ValueType};

/// A scalar type of any of the dialects (`int32_t`, `unsigned`, `half`, `bfloat16_t`, `_Float16`…).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scalar {
    /// `bool` (0 or 1).
    Bool,
    /// `char`, `int8_t`.
    I8,
    /// `unsigned char`, `uint8_t`.
    U8,
    /// `short`, `int16_t`.
    I16,
    /// `unsigned short`, `uint16_t`.
    U16,
    /// `int`, `int32_t`.
    I32,
    /// `unsigned`, `uint32_t`.
    U32,
    /// `long`, `long long`, `int64_t` (LP64).
    I64,
    /// `unsigned long`, `uint64_t`, `size_t`.
    U64,
    /// `half`, `__half`, `_Float16`.
    F16,
    /// `bfloat16_t`, `__nv_bfloat16`.
    Bf16,
    /// `float`.
    F32,
    /// `double`.
    F64,
    /// OCP FP8 E4M3 (`__nv_fp8_e4m3`, `__hip_fp8_e4m3`): bias 7, largest 448, no infinity
    /// ([`super::fp8`]).
    E4M3,
    /// OCP FP8 E5M2 (`__nv_fp8_e5m2`, `__hip_fp8_e5m2`): bias 15, largest 57344, infinities.
    E5M2,
    /// AMD FNUZ FP8 E4M3 (`__hip_fp8_e4m3_fnuz`, gfx942): bias 8, largest 240, NaN 0x80 only.
    E4M3Fnuz,
    /// AMD FNUZ FP8 E5M2 (`__hip_fp8_e5m2_fnuz`): bias 16, largest 57344, NaN 0x80 only.
    E5M2Fnuz,
}

impl Scalar {
    /// The float format an accuracy bound of this type is counted in (`None`: not a float).
    pub fn float_fmt(self) -> Option<Fmt> {
        match self {
            Scalar::F16 => Some(Fmt::F16),
            Scalar::Bf16 => Some(Fmt::Bf16),
            Scalar::F32 => Some(Fmt::F32),
            Scalar::F64 => Some(Fmt::F64),
            _ => None,
        }
    }

    /// Whether it is a floating type.
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::Bf16 | Scalar::F32 | Scalar::F64) || self.is_fp8()
    }

    /// The number format of an 8-bit float type (`None` for every other type).
    pub fn fp8_format(self) -> Option<Fp8Format> {
        Some(match self {
            Scalar::E4M3 => Fp8Format::E4M3,
            Scalar::E5M2 => Fp8Format::E5M2,
            Scalar::E4M3Fnuz => Fp8Format::E4M3_FNUZ,
            Scalar::E5M2Fnuz => Fp8Format::E5M2_FNUZ,
            _ => return None,
        })
    }

    /// Whether it is one of the 8-bit floats of `cuda_fp8.h` / `hip_fp8.h` ([`super::fp8`]).
    pub fn is_fp8(self) -> bool {
        matches!(
            self,
            Scalar::E4M3 | Scalar::E5M2 | Scalar::E4M3Fnuz | Scalar::E5M2Fnuz
        )
    }

    /// Whether it is a signed integer type.
    pub fn is_signed(self) -> bool {
        matches!(self, Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64)
    }

    /// Width in bits (`bool` is 1 for the value range, stored in a byte).
    pub fn bits(self) -> u32 {
        match self {
            Scalar::Bool => 1,
            Scalar::I8 | Scalar::U8 => 8,
            Scalar::E4M3 | Scalar::E5M2 | Scalar::E4M3Fnuz | Scalar::E5M2Fnuz => 8,
            Scalar::I16 | Scalar::U16 | Scalar::F16 | Scalar::Bf16 => 16,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 32,
            Scalar::I64 | Scalar::U64 | Scalar::F64 => 64,
        }
    }

    /// The C spelling.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::I8 => "int8_t",
            Scalar::U8 => "uint8_t",
            Scalar::I16 => "int16_t",
            Scalar::U16 => "uint16_t",
            Scalar::I32 => "int",
            Scalar::U32 => "unsigned",
            Scalar::I64 => "int64_t",
            Scalar::U64 => "uint64_t",
            Scalar::F16 => "half",
            Scalar::Bf16 => "bfloat16_t",
            Scalar::F32 => "float",
            Scalar::F64 => "double",
            Scalar::E4M3 => "__nv_fp8_e4m3",
            Scalar::E5M2 => "__nv_fp8_e5m2",
            Scalar::E4M3Fnuz => "__hip_fp8_e4m3_fnuz",
            Scalar::E5M2Fnuz => "__hip_fp8_e5m2_fnuz",
        }
    }

    fn int_rank(self) -> u8 {
        match self {
            Scalar::Bool => 0,
            Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 => 2,
            Scalar::I32 | Scalar::U32 => 3,
            _ => 4,
        }
    }

    /// Integral promotion (C++17 [conv.prom]/1): types narrower than `int` become `int`.
    pub fn promote(self) -> Scalar {
        if !self.is_float() && self.int_rank() < 3 {
            Scalar::I32
        } else {
            self
        }
    }

    fn unsigned_of(self) -> Scalar {
        match self {
            Scalar::I32 => Scalar::U32,
            Scalar::I64 => Scalar::U64,
            other => other,
        }
    }

    /// The usual arithmetic conversions (C++17 \[expr\]/11) for operands `a` and `b`. Floats: the wider
    /// wins; `half` with `bfloat16_t` meet in `float` (neither holds the other); an integer with a
    /// float takes the float type (CUDA `__half` operators work in half). An 8-bit float has no
    /// arithmetic operators of its own (`cuda_fp8.h` and `hip_fp8.h` declare conversions only),
    /// so it takes part as the `float` its conversion operator gives (HIP's is implicit; CUDA's
    /// is `explicit`, and `vector_types::operator_refusal` refuses the operator there).
    pub fn common(a: Scalar, b: Scalar) -> Scalar {
        let widen = |s: Scalar| if s.is_fp8() { Scalar::F32 } else { s };
        let (a, b) = (widen(a), widen(b));
        if a.is_float() || b.is_float() {
            let rank = |s: Scalar| match s {
                Scalar::F64 => 4,
                Scalar::F32 => 3,
                Scalar::F16 | Scalar::Bf16 => 2,
                _ => 0,
            };
            return match (a, b) {
                (Scalar::F16, Scalar::Bf16) | (Scalar::Bf16, Scalar::F16) => Scalar::F32,
                _ if rank(a) >= rank(b) => a,
                _ => b,
            };
        }
        let (a, b) = (a.promote(), b.promote());
        if a == b {
            return a;
        }
        if a.is_signed() == b.is_signed() {
            return if a.int_rank() >= b.int_rank() { a } else { b };
        }
        let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
        if u.int_rank() >= s.int_rank() {
            u
        } else if s.bits() > u.bits() {
            s
        } else {
            s.unsigned_of()
        }
    }

    /// The core value type of a scalar that an operation can take (small integers promote).
    pub fn value_type(self) -> ValueType {
        match self.promote() {
            Scalar::U32 => ValueType::U32,
            Scalar::I64 => ValueType::I64,
            Scalar::U64 => ValueType::U64,
            Scalar::F16 => ValueType::F16,
            Scalar::Bf16 => ValueType::Bf16,
            Scalar::F32 | Scalar::E4M3 | Scalar::E5M2 | Scalar::E4M3Fnuz | Scalar::E5M2Fnuz => {
                ValueType::F32
            }
            Scalar::F64 => ValueType::F64,
            _ => ValueType::I32,
        }
    }
}

/// The type of a value: a scalar (`lanes == 1`) or a vector of `lanes` scalars
/// (`__NATIVE_VECTOR__(N, T)`, `half2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ValTy {
    /// Component type.
    pub scalar: Scalar,
    /// Components (1 for a scalar, at most 16).
    pub lanes: u8,
}

impl ValTy {
    /// A scalar type.
    pub const fn scalar(scalar: Scalar) -> Self {
        ValTy { scalar, lanes: 1 }
    }

    /// The C-like spelling (`int`, `v2f32`).
    pub fn name(self) -> String {
        if self.lanes == 1 {
            self.scalar.name().to_string()
        } else {
            format!("{}x{}", self.scalar.name(), self.lanes)
        }
    }
}

/// A declared type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Ty {
    /// `void` (function results only).
    Void,
    /// A value.
    Val(ValTy),
    /// A pointer (or array, or reference parameter) to elements of a value type. `void *` points
    /// at 32-bit words (the MACA `b32` builtins that take one).
    Ptr(ValTy),
}

/// The buffer index of the first string literal held as a value
/// ([`crate::memory::Memory::strings`]): far above any buffer a launch allocates (buffers are
/// counted, not their bytes) and below [`NULL_BUF`], within a 32-bit `usize` (the page's
/// wasm32 build). A string literal is an array of `const char` with static storage duration
/// whose last element is a null character (C++17 [lex.string]/8, /16); reading it is
/// defined, writing it is undefined.
pub const STRING_BUF: usize = 1 << 30;

/// The buffer index of the null pointer (`NULL`, `nullptr`, a pointer set to 0): it names no
/// buffer, so reading or writing through it is an error at its line (C++17 [conv.ptr]/1, [expr.unary.op]/1:
/// dereferencing a null pointer is undefined).
pub const NULL_BUF: usize = usize::MAX;

/// A lane's value. Integers keep their bits truncated to the type's width (zero-extended);
/// floats keep a number exactly representable in their type.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum KVal {
    /// An integer or bool.
    Int {
        /// Type.
        ty: Scalar,
        /// Bits, truncated to the width.
        bits: u64,
    },
    /// A floating value.
    Float {
        /// Type.
        ty: Scalar,
        /// The value (exact in `ty`); in JSON a number, or `"inf"`, `"-inf"`, `"NaN"` when not
        /// finite (JSON has no such numbers: docs/cli.md's contract for non-finite floats).
        #[serde(serialize_with = "ser_float")]
        x: f64,
        /// Set when the value came from an inexact math-library function (or from arithmetic
        /// on such a value): the device's result may differ by the bound the vendor documents
        /// ([`super::mathlib`]). `None` for every exactly defined value.
        #[serde(skip_serializing_if = "Option::is_none")]
        approx: Option<Approx>,
    },
    /// A vector of scalars of one type.
    Vector {
        /// Component type.
        ty: Scalar,
        /// Components.
        items: Vec<KVal>,
    },
    /// A pointer into a [`super::memory::Memory`] buffer.
    Ptr {
        /// Element type.
        elem: ValTy,
        /// Buffer index in the memory.
        buf: usize,
        /// Element offset.
        offset: i64,
    },
}

/// Why an operation gives no value: undefined behaviour (warning) or a type error (error).
#[derive(Clone, Debug, PartialEq)]
pub struct Fault {
    /// Warning for undefined behaviour by the C rules; Error for what the emulator cannot do.
    pub level: Level,
    /// One sentence naming the rule.
    pub message: String,
}

impl Fault {
    /// Undefined behaviour.
    pub fn ub(message: impl Into<String>) -> Self {
        Fault {
            level: Level::Warning,
            message: message.into(),
        }
    }

    /// An operation the emulator cannot perform.
    pub fn error(message: impl Into<String>) -> Self {
        Fault {
            level: Level::Error,
            message: message.into(),
        }
    }
}

fn round_float(ty: Scalar, x: f64) -> f64 {
    match ty {
        Scalar::F32 => x as f32 as f64,
        Scalar::F16 | Scalar::Bf16 => round16(ty, x),
        // A conversion to an 8-bit float is its class's constructor: nearest even with
        // `__NV_SATFINITE` (CUDA Math API, struct `__nv_fp8_e4m3`; [`super::fp8`]).
        t => t.fp8_format().map_or(x, |f| f.round(x, true)),
    }
}

/// `x` rounded to nearest even in a 16-bit float type (`F16` → `half`, anything else →
/// `bfloat16`), with one rounding: `half`'s `from_f64` may round through `f32` (twice, which
/// can land on the wrong side of a tie: 1 + 2^-11 + 2^-24 would give 1), so `x` is first
/// rounded to odd in `f32` — which keeps the information a second rounding needs, 24 ≥ 11 + 2
/// and 8 + 2 bits (Boldo & Melquiond 2008) — then to the 16-bit type.
pub fn round16(ty: Scalar, x: f64) -> f64 {
    let r = x as f32;
    let odd = if r.is_finite() && f64::from(r) != x && r.to_bits() & 1 == 0 {
        let up = x > f64::from(r);
        let bits = r.to_bits();
        if r == 0.0 {
            // The smallest subnormal of x's sign.
            f32::from_bits(if up { 1 } else { 0x8000_0001 })
        } else if up == (r > 0.0) {
            f32::from_bits(bits + 1)
        } else {
            f32::from_bits(bits - 1)
        }
    } else {
        r
    };
    if ty == Scalar::F16 {
        f16::from_f32(odd).to_f64()
    } else {
        bf16::from_f32(odd).to_f64()
    }
}

/// A float as JSON: the number, or the strings `"inf"`, `"-inf"` and `"NaN"`, which JSON has no
/// numbers for (serde_json would write `null` for all three and lose which).
fn ser_float<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    if x.is_finite() {
        s.serialize_f64(*x)
    } else if x.is_nan() {
        s.serialize_str("NaN")
    } else if *x > 0.0 {
        s.serialize_str("inf")
    } else {
        s.serialize_str("-inf")
    }
}

impl KVal {
    /// An integer of type `ty` from any integer, wrapping modulo 2^width (bool: nonzero → 1).
    pub fn int(ty: Scalar, n: i128) -> KVal {
        if ty.is_float() {
            return KVal::float(ty, n as f64);
        }
        let bits = if ty == Scalar::Bool {
            u64::from(n != 0)
        } else if ty.bits() == 64 {
            n as u64
        } else {
            (n as u64) & ((1u64 << ty.bits()) - 1)
        };
        KVal::Int { ty, bits }
    }

    /// A float of type `ty`, rounded to it.
    pub fn float(ty: Scalar, x: f64) -> KVal {
        KVal::Float {
            ty,
            x: round_float(ty, x),
            approx: None,
        }
    }

    /// A float of type `ty`, rounded to it, that carries the accuracy note `approx` (a value
    /// from an inexact math function; `None`: exact), its ulps counted at the rounded value.
    pub fn approx_float(ty: Scalar, x: f64, approx: Option<Approx>) -> KVal {
        let x = round_float(ty, x);
        KVal::Float {
            ty,
            x,
            approx: approx.and_then(|a| Some(a.at(x, ty.float_fmt()?))),
        }
    }

    /// A float of type `ty`: `x` (already rounded to `ty`), the result of `f` on `inputs`
    /// (each an operand's value and note), where `own` is `f`'s own documented bound (`None`:
    /// exact). The note carries the operands' errors through `f` ([`Approx::propagate`]);
    /// with no inexact operand and no own bound, there is none.
    pub fn propagated(
        ty: Scalar,
        x: f64,
        own: Option<(u16, crate::accuracy::Bound)>,
        inputs: &[(f64, Option<Approx>)],
        f: &dyn Fn(&[f64]) -> f64,
    ) -> KVal {
        let x = round_float(ty, x);
        let approx = ty
            .float_fmt()
            .and_then(|fmt| Approx::propagate(own, inputs, f, x, fmt));
        KVal::Float { ty, x, approx }
    }

    /// The accuracy note of a value from an inexact math function (a vector: its widest
    /// component note); `None` for an exactly defined value.
    pub fn approx(&self) -> Option<Approx> {
        match self {
            KVal::Float { approx, .. } => *approx,
            KVal::Vector { items, .. } => {
                items.iter().filter_map(KVal::approx).reduce(Approx::wider)
            }
            _ => None,
        }
    }

    /// The value with accuracy note `approx` where it is a float (integers, pointers and
    /// vectors are returned as they are: an ulp bound is a float's).
    pub fn with_approx(self, approx: Option<Approx>) -> KVal {
        match self {
            KVal::Float { ty, x, .. } => KVal::Float {
                ty,
                x,
                approx: approx.and_then(|a| Some(a.at(x, ty.float_fmt()?))),
            },
            other => other,
        }
    }

    /// A `bool`.
    pub fn bool(b: bool) -> KVal {
        KVal::Int {
            ty: Scalar::Bool,
            bits: u64::from(b),
        }
    }

    /// The value's type (pointers report their element type with 0 components).
    pub fn val_ty(&self) -> ValTy {
        match self {
            KVal::Int { ty, .. } | KVal::Float { ty, .. } => ValTy::scalar(*ty),
            KVal::Vector { ty, items } => ValTy {
                scalar: *ty,
                lanes: items.len().min(255) as u8,
            },
            KVal::Ptr { elem, .. } => ValTy {
                scalar: elem.scalar,
                lanes: 0,
            },
        }
    }

    /// An integer's value, sign-extended for signed types; `None` for floats, vectors, pointers.
    pub fn as_int(&self) -> Option<i128> {
        match self {
            KVal::Int { ty, bits } => Some(if ty.is_signed() {
                let shift = 64 - ty.bits();
                (((*bits << shift) as i64) >> shift) as i128
            } else {
                *bits as i128
            }),
            _ => None,
        }
    }

    /// A scalar's numeric value; `None` for vectors and pointers.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            KVal::Float { x, .. } => Some(*x),
            KVal::Int { .. } => self.as_int().map(|n| n as f64),
            _ => None,
        }
    }

    /// The truth value of a scalar or pointer (C: compares unequal to 0).
    pub fn truthy(&self) -> Option<bool> {
        match self {
            KVal::Int { bits, .. } => Some(*bits != 0),
            KVal::Float { x, .. } => Some(*x != 0.0),
            KVal::Ptr { buf, .. } => Some(*buf != NULL_BUF),
            KVal::Vector { .. } => None,
        }
    }

    /// Converts to `to` as a C cast or assignment does.
    ///
    /// # Errors
    /// [`Fault`] for a float → integer conversion out of range or of NaN (C++17 [conv.fpint]/1:
    /// undefined), or a conversion between vector and scalar or pointer types.
    pub fn convert(&self, to: ValTy) -> Result<KVal, Fault> {
        if to.lanes > 1 {
            return match self {
                KVal::Vector { items, .. } if items.len() == to.lanes as usize => {
                    let items = items
                        .iter()
                        .map(|c| c.convert(ValTy::scalar(to.scalar)))
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(KVal::Vector {
                        ty: to.scalar,
                        items,
                    })
                }
                KVal::Vector { .. } | KVal::Ptr { .. } => Err(Fault::error(format!(
                    "cannot convert {} to {}",
                    self.val_ty().name(),
                    to.name()
                ))),
                scalar => {
                    // A scalar splats to every component (clang ext_vector_type semantics).
                    let one = scalar.convert(ValTy::scalar(to.scalar))?;
                    Ok(KVal::Vector {
                        ty: to.scalar,
                        items: vec![one; to.lanes as usize],
                    })
                }
            };
        }
        let target = to.scalar;
        match self {
            KVal::Vector { items, .. } if items.len() == 1 => items[0].convert(to),
            KVal::Vector { .. } | KVal::Ptr { .. } => Err(Fault::error(format!(
                "cannot convert {} to {}",
                if matches!(self, KVal::Ptr { .. }) {
                    "a pointer".to_string()
                } else {
                    self.val_ty().name()
                },
                target.name()
            ))),
            KVal::Int { .. } => {
                let n = self.as_int().unwrap_or(0);
                if target.is_float() {
                    Ok(KVal::float(target, n as f64))
                } else {
                    Ok(KVal::int(target, n))
                }
            }
            KVal::Float { x, approx, ty } => {
                if target.is_float() {
                    // A float-to-float conversion keeps the note (the value is still the
                    // inexact function's); one to a narrower type rounds a value the device
                    // may have elsewhere: its error, plus one ulp of the target.
                    if approx.is_some() && target != *ty && target.bits() <= ty.bits() {
                        return Ok(KVal::propagated(target, *x, None, &[(*x, *approx)], &|p| {
                            p[0]
                        }));
                    }
                    Ok(KVal::approx_float(target, *x, *approx))
                } else if target == Scalar::Bool {
                    Ok(KVal::bool(*x != 0.0))
                } else {
                    let t = x.trunc();
                    let (lo, hi) = if target.is_signed() {
                        (
                            -(2f64.powi(target.bits() as i32 - 1)),
                            2f64.powi(target.bits() as i32 - 1),
                        )
                    } else {
                        (0.0, 2f64.powi(target.bits() as i32))
                    };
                    if x.is_nan() || t < lo || t >= hi {
                        Err(Fault::ub(format!(
                            "{x} does not fit in {}: float-to-integer conversion is undefined (C++17 [conv.fpint]/1)",
                            target.name()
                        )))
                    } else {
                        Ok(KVal::int(target, t as i128))
                    }
                }
            }
        }
    }

    /// The value as the core's [`Value`] for a cross-lane operation: small integers promote to
    /// `int`; `half2`-like 2-vectors of half / bfloat16 pack into `f16x2` / `bf16x2`.
    pub fn to_core(&self) -> Option<Value> {
        match self {
            KVal::Int { ty, .. } => {
                let vt = ty.value_type();
                let n = self.as_int()?;
                Some(Value::from_bits(vt, n as i64 as u64))
            }
            KVal::Float { ty, x, .. } => Some(match ty {
                Scalar::F16 => Value::from_bits(ValueType::F16, f16::from_f64(*x).to_bits() as u64),
                Scalar::Bf16 => {
                    Value::from_bits(ValueType::Bf16, bf16::from_f64(*x).to_bits() as u64)
                }
                // An 8-bit float passes as the `float` its conversion operator gives (no
                // cross-lane operation takes one; see `Scalar::common`).
                t if *t == Scalar::F32 || t.is_fp8() => {
                    Value::from_bits(ValueType::F32, (*x as f32).to_bits() as u64)
                }
                _ => Value::from_bits(ValueType::F64, x.to_bits()),
            }),
            KVal::Vector { ty, items } if items.len() == 2 => {
                let half = |k: usize| items.get(k).and_then(KVal::as_f64).unwrap_or(0.0);
                match ty {
                    Scalar::F16 => Some(Value::pack(
                        ValueType::F16x2,
                        f16::from_f64(half(0)).to_bits(),
                        f16::from_f64(half(1)).to_bits(),
                    )),
                    Scalar::Bf16 => Some(Value::pack(
                        ValueType::Bf16x2,
                        bf16::from_f64(half(0)).to_bits(),
                        bf16::from_f64(half(1)).to_bits(),
                    )),
                    _ => None,
                }
            }
            KVal::Vector { items, .. } if items.len() == 1 => items[0].to_core(),
            _ => None,
        }
    }

    /// A core [`Value`] back as a kernel value.
    pub fn from_core(v: Value) -> KVal {
        match v.ty {
            ValueType::I32 => KVal::int(Scalar::I32, v.bits as u32 as i32 as i128),
            ValueType::U32 => KVal::int(Scalar::U32, v.bits as u32 as i128),
            ValueType::I64 => KVal::int(Scalar::I64, v.bits as i64 as i128),
            ValueType::U64 => KVal::int(Scalar::U64, v.bits as i128),
            ValueType::F32 => KVal::float(Scalar::F32, f32::from_bits(v.bits as u32) as f64),
            ValueType::F64 => KVal::float(Scalar::F64, f64::from_bits(v.bits)),
            ValueType::F16 => KVal::float(Scalar::F16, f16::from_bits(v.bits as u16).to_f64()),
            ValueType::Bf16 => KVal::float(Scalar::Bf16, bf16::from_bits(v.bits as u16).to_f64()),
            ValueType::F16x2 | ValueType::Bf16x2 => {
                let (lo, hi) = v.halves();
                let (ty, a, b) = if v.ty == ValueType::F16x2 {
                    (
                        Scalar::F16,
                        f16::from_bits(lo).to_f64(),
                        f16::from_bits(hi).to_f64(),
                    )
                } else {
                    (
                        Scalar::Bf16,
                        bf16::from_bits(lo).to_f64(),
                        bf16::from_bits(hi).to_f64(),
                    )
                };
                KVal::Vector {
                    ty,
                    items: vec![KVal::float(ty, a), KVal::float(ty, b)],
                }
            }
        }
    }

    /// The zero of a type (the value `= {}` or a zero-filled buffer holds).
    pub fn zero(ty: ValTy) -> KVal {
        let one = if ty.scalar.is_float() {
            KVal::float(ty.scalar, 0.0)
        } else {
            KVal::int(ty.scalar, 0)
        };
        if ty.lanes > 1 {
            KVal::Vector {
                ty: ty.scalar,
                items: vec![one; ty.lanes as usize],
            }
        } else {
            one
        }
    }
}

impl std::fmt::Display for KVal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KVal::Int {
                ty: Scalar::Bool,
                bits,
            } => f.write_str(if *bits != 0 { "true" } else { "false" }),
            KVal::Int { .. } => write!(f, "{}", self.as_int().unwrap_or(0)),
            KVal::Float { ty, x, .. } => {
                if x.is_nan() {
                    f.write_str("NaN")
                } else if x.is_infinite() {
                    f.write_str(if *x > 0.0 { "inf" } else { "-inf" })
                } else if *ty == Scalar::F32 {
                    write!(f, "{}", *x as f32)
                } else {
                    write!(f, "{x}")
                }
            }
            KVal::Vector { items, .. } => {
                f.write_str("{")?;
                for (k, c) in items.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str("}")
            }
            KVal::Ptr { buf, .. } if *buf == NULL_BUF => write!(f, "NULL"),
            KVal::Ptr { buf, offset, .. } if *buf >= STRING_BUF => {
                write!(f, "&string{}[{offset}]", buf - STRING_BUF)
            }
            KVal::Ptr { buf, offset, .. } => write!(f, "&buffer{buf}[{offset}]"),
        }
    }
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl BinOp {
    /// The C token.
    pub fn token(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
        }
    }

    fn is_compare(self) -> bool {
        matches!(
            self,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
        )
    }
}

/// Applies a binary operator with C semantics.
///
/// # Errors
/// [`Fault`]: undefined behaviour (signed overflow, division by zero, bad shift counts) or an
/// operation on operands it does not apply to (e.g. `%` on floats, vectors of different sizes).
pub fn binary(op: BinOp, a: &KVal, b: &KVal) -> Result<KVal, Fault> {
    match (a, b) {
        (KVal::Vector { items: x, .. }, KVal::Vector { items: y, .. }) => {
            if x.len() != y.len() {
                return Err(Fault::error("vector operands have different sizes"));
            }
            let items = x
                .iter()
                .zip(y)
                .map(|(p, q)| binary(op, p, q))
                .collect::<Result<Vec<_>, _>>()?;
            let ty = items.first().map_or(Scalar::I32, |c| c.val_ty().scalar);
            Ok(KVal::Vector { ty, items })
        }
        (KVal::Vector { items, ty }, s) | (s, KVal::Vector { items, ty })
            if !matches!(s, KVal::Ptr { .. }) =>
        {
            let splat = s.convert(ValTy::scalar(*ty))?;
            let v = KVal::Vector {
                ty: *ty,
                items: vec![splat; items.len()],
            };
            if matches!(a, KVal::Vector { .. }) {
                binary(op, a, &v)
            } else {
                binary(op, &v, b)
            }
        }
        (KVal::Ptr { elem, buf, offset }, other) | (other, KVal::Ptr { elem, buf, offset })
            if !matches!(other, KVal::Ptr { .. }) && matches!(op, BinOp::Add | BinOp::Sub) =>
        {
            let ptr_first = matches!(a, KVal::Ptr { .. });
            let n = other
                .as_int()
                .ok_or_else(|| Fault::error("pointer arithmetic needs an integer"))?;
            if op == BinOp::Sub && !ptr_first {
                return Err(Fault::error("an integer minus a pointer is not valid C"));
            }
            let n = i64::try_from(n).map_err(|_| Fault::ub("pointer offset out of range"))?;
            // Only 0 may be added to or subtracted from a null pointer (C++17 [expr.add]/4,
            // [expr.add]/7): it points at no array.
            if *buf == NULL_BUF && n != 0 {
                return Err(Fault::ub(format!(
                    "arithmetic on a null pointer: an offset of {n} is undefined (C++17 \
                     [expr.add]/4: only 0 may be added to a null pointer)"
                )));
            }
            let offset = if op == BinOp::Add {
                offset.checked_add(n)
            } else {
                offset.checked_sub(n)
            }
            .ok_or_else(|| Fault::ub("pointer offset out of range"))?;
            Ok(KVal::Ptr {
                elem: *elem,
                buf: *buf,
                offset,
            })
        }
        (
            KVal::Ptr {
                buf: b1,
                offset: o1,
                ..
            },
            KVal::Ptr {
                buf: b2,
                offset: o2,
                ..
            },
        ) => {
            let same = b1 == b2;
            match op {
                BinOp::Eq => Ok(KVal::bool(same && o1 == o2)),
                BinOp::Ne => Ok(KVal::bool(!(same && o1 == o2))),
                _ if !same => Err(Fault::ub(
                    "pointers into different arrays cannot be subtracted or ordered (C++17 [expr.add]/5, [expr.rel]/3)",
                )),
                BinOp::Sub => Ok(KVal::int(Scalar::I64, *o1 as i128 - *o2 as i128)),
                BinOp::Lt => Ok(KVal::bool(o1 < o2)),
                BinOp::Le => Ok(KVal::bool(o1 <= o2)),
                BinOp::Gt => Ok(KVal::bool(o1 > o2)),
                BinOp::Ge => Ok(KVal::bool(o1 >= o2)),
                _ => Err(Fault::error(format!(
                    "`{}` does not apply to pointers",
                    op.token()
                ))),
            }
        }
        // `p == NULL`, `p != nullptr`: a pointer against the null pointer constant.
        (KVal::Ptr { buf, .. }, z) | (z, KVal::Ptr { buf, .. })
            if matches!(op, BinOp::Eq | BinOp::Ne) && z.as_int() == Some(0) =>
        {
            Ok(KVal::bool((*buf == NULL_BUF) == (op == BinOp::Eq)))
        }
        (KVal::Ptr { .. }, _) | (_, KVal::Ptr { .. }) => Err(Fault::error(format!(
            "`{}` does not apply to a pointer",
            op.token()
        ))),
        _ => scalar_binary(op, a, b),
    }
}

fn scalar_binary(op: BinOp, a: &KVal, b: &KVal) -> Result<KVal, Fault> {
    let (ta, tb) = (a.val_ty().scalar, b.val_ty().scalar);
    // Shifts promote each operand on its own (C++17 [expr.shift]/1); the result has the
    // promoted left type.
    if matches!(op, BinOp::Shl | BinOp::Shr) {
        let (x, n) = match (a.as_int(), b.as_int()) {
            (Some(x), Some(n)) => (x, n),
            _ => return Err(Fault::error("shift operands must be integers")),
        };
        let ty = ta.promote();
        let width = ty.bits() as i128;
        if n < 0 || n >= width {
            return Err(Fault::ub(format!(
                "shift by {n} with a {width}-bit left operand is undefined (C++17 [expr.shift]/1)"
            )));
        }
        if op == BinOp::Shr {
            return Ok(KVal::int(ty, x >> n));
        }
        let r = x << n;
        // C++17 [expr.shift]/2: a signed E1 << E2 is E1×2^E2 converted to the type when E1 is
        // non-negative and E1×2^E2 fits the corresponding unsigned type (`1 << 31` is INT_MIN,
        // by [conv.integral]/3 as nvcc and clang define it); otherwise undefined.
        if ty.is_signed() {
            let umax = (1i128 << width) - 1;
            if x < 0 {
                return Err(Fault::ub(format!(
                    "{x} << {n}: a left shift of a negative value is undefined (C++17 [expr.shift]/2; C++20 defines it)"
                )));
            }
            if r > umax {
                return Err(Fault::ub(format!(
                    "{x} << {n} = {r} does not fit in unsigned {}: the shift is undefined (C++17 [expr.shift]/2)",
                    ty.name()
                )));
            }
        }
        return Ok(KVal::int(ty, r));
    }
    let ty = Scalar::common(ta, tb);
    if ty.is_float() {
        if matches!(op, BinOp::Rem | BinOp::And | BinOp::Or | BinOp::Xor) {
            return Err(Fault::error(format!(
                "`{}` needs integer operands, got {}",
                op.token(),
                ty.name()
            )));
        }
        let x = a.convert(ValTy::scalar(ty))?.as_f64().unwrap_or(f64::NAN);
        let y = b.convert(ValTy::scalar(ty))?.as_f64().unwrap_or(f64::NAN);
        if op.is_compare() {
            return Ok(KVal::bool(compare(op, x.partial_cmp(&y))));
        }
        // f32 arithmetic in f32 so results are the IEEE single results; half / bfloat16 through
        // f32 (exact for + - * /: f32 holds every product and the rounding to 16 bits is single).
        let r = if ty == Scalar::F64 {
            float_op(op, x, y)
        } else {
            float_op(op, x as f32 as f64, y as f32 as f64) as f32 as f64
        };
        // A result computed from a value of an inexact math function carries how far the
        // device's may be: the operation over the operands' intervals, plus one rounding.
        return Ok(match (a.approx(), b.approx()) {
            (None, None) => KVal::float(ty, r),
            (p, q) => KVal::propagated(ty, r, None, &[(x, p), (y, q)], &|v| {
                float_op(op, v[0], v[1])
            }),
        });
    }
    let x = a.convert(ValTy::scalar(ty))?.as_int().unwrap_or(0);
    let y = b.convert(ValTy::scalar(ty))?.as_int().unwrap_or(0);
    if op.is_compare() {
        return Ok(KVal::bool(compare(op, x.partial_cmp(&y))));
    }
    // Operands are at most 64 bits wide, so + and - fit an i128; a 64-bit product may not
    // (u64::MAX * u64::MAX): unsigned arithmetic wraps modulo 2^N (C++17 [basic.fundamental]/4), and 2^128 is a
    // multiple of 2^64, so the wrapped i128 product truncates to the right bits; a signed
    // product that does not fit is reported as overflow below.
    let wide = |r: Option<i128>, wrapped: i128| match r {
        Some(r) => Ok(r),
        None if !ty.is_signed() => Ok(wrapped),
        None => Err(Fault::ub(format!(
            "{x} {} {y} overflows {}: signed overflow is undefined (C++17 [expr]/4)",
            op.token(),
            ty.name()
        ))),
    };
    let r = match op {
        BinOp::Add => wide(x.checked_add(y), x.wrapping_add(y))?,
        BinOp::Sub => wide(x.checked_sub(y), x.wrapping_sub(y))?,
        BinOp::Mul => wide(x.checked_mul(y), x.wrapping_mul(y))?,
        BinOp::Div | BinOp::Rem => {
            if y == 0 {
                return Err(Fault::ub(format!(
                    "{x} {} 0: integer division by zero is undefined (C++17 [expr.mul]/4)",
                    op.token()
                )));
            }
            // C++17 [expr.mul]/4: when the quotient is not representable (`INT_MIN / -1`),
            // both `/` and `%` are undefined — `INT_MIN % -1` too, though its remainder is 0.
            let q = x.wrapping_div(y);
            if ty.is_signed() && q > (1i128 << (ty.bits() - 1)) - 1 {
                return Err(Fault::ub(format!(
                    "{x} {} {y}: the quotient {q} does not fit in {}, so `/` and `%` are undefined (C++17 [expr.mul]/4)",
                    op.token(),
                    ty.name()
                )));
            }
            if op == BinOp::Div {
                q
            } else {
                x.wrapping_rem(y)
            }
        }
        BinOp::And => x & y,
        BinOp::Or => x | y,
        BinOp::Xor => x ^ y,
        _ => return Err(Fault::error("unsupported operator")),
    };
    if ty.is_signed() {
        let bits = ty.bits();
        let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1);
        if r < lo || r > hi {
            return Err(Fault::ub(format!(
                "{x} {} {y} = {r} overflows {}: signed overflow is undefined (C++17 [expr]/4)",
                op.token(),
                ty.name()
            )));
        }
    }
    Ok(KVal::int(ty, r))
}

fn compare(op: BinOp, ord: Option<std::cmp::Ordering>) -> bool {
    use std::cmp::Ordering::*;
    match (op, ord) {
        (BinOp::Ne, None) => true,
        (_, None) => false,
        (BinOp::Lt, Some(o)) => o == Less,
        (BinOp::Le, Some(o)) => o != Greater,
        (BinOp::Gt, Some(o)) => o == Greater,
        (BinOp::Ge, Some(o)) => o != Less,
        (BinOp::Eq, Some(o)) => o == Equal,
        (BinOp::Ne, Some(o)) => o != Equal,
        _ => false,
    }
}

fn float_op(op: BinOp, x: f64, y: f64) -> f64 {
    match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::Div => x / y,
        _ => f64::NAN,
    }
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum UnOp {
    /// `-`
    Neg,
    /// `+`
    Plus,
    /// `~`
    BitNot,
    /// `!`
    Not,
}

/// Applies a unary operator with C semantics.
///
/// # Errors
/// [`Fault`] for `-INT_MIN` (signed overflow) or an operand the operator does not apply to.
pub fn unary(op: UnOp, a: &KVal) -> Result<KVal, Fault> {
    if let KVal::Vector { ty, items } = a {
        let items = items
            .iter()
            .map(|c| unary(op, c))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(KVal::Vector { ty: *ty, items });
    }
    match op {
        UnOp::Not => a
            .truthy()
            .map(|t| KVal::bool(!t))
            .ok_or_else(|| Fault::error("`!` needs a scalar")),
        UnOp::Plus => binary(BinOp::Add, &KVal::int(Scalar::I32, 0), a),
        UnOp::Neg => {
            if let KVal::Float { ty, x, approx } = a {
                return Ok(KVal::approx_float(*ty, -x, *approx));
            }
            binary(BinOp::Sub, &KVal::int(Scalar::I32, 0), a).map_err(|e| Fault {
                message: format!("negation: {}", e.message),
                ..e
            })
        }
        UnOp::BitNot => {
            let ty = a.val_ty().scalar.promote();
            let n = a
                .convert(ValTy::scalar(ty))?
                .as_int()
                .ok_or_else(|| Fault::error("`~` needs an integer"))?;
            Ok(KVal::int(ty, !n))
        }
    }
}

/// The C type a sync mask is read as on `lanes`-wide warps: the op's own (`unsigned`, CUDA's
/// 32-bit mask) on 32 lanes or fewer; on a wider wavefront (a HIP or MACA kernel calling the
/// op) the vendor's 64-bit one (ROCm `amd_warp_sync_functions.h` declares every `*_sync` mask
/// `unsigned long long`), so lanes 32..64 are not cut off.
pub(crate) fn sync_mask_type(c_type: &str, lanes: usize) -> &str {
    if lanes > 32 {
        "unsigned long long"
    } else {
        c_type
    }
}

/// An integer argument converted to the parameter's declared C type, as the call does (C11
/// 6.3.1.3p2: to an unsigned type the value wraps modulo 2^N, so `__shfl_down_sync(m, v, -1)`
/// passes delta 0xffffffff; to a signed type an out-of-range value is implementation-defined,
/// and nvcc, hipcc and clang wrap it). Other types keep the value.
pub(crate) fn to_declared(n: i128, c_type: &str) -> i128 {
    match c_type.trim() {
        "unsigned" | "unsigned int" | "uint32_t" => n.rem_euclid(1 << 32),
        "int" | "int32_t" => i128::from(n as i32),
        _ => n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_arithmetic_conversions() {
        assert_eq!(Scalar::common(Scalar::I32, Scalar::U32), Scalar::U32);
        assert_eq!(Scalar::common(Scalar::I64, Scalar::U32), Scalar::I64);
        assert_eq!(Scalar::common(Scalar::U8, Scalar::I16), Scalar::I32);
        assert_eq!(Scalar::common(Scalar::F16, Scalar::Bf16), Scalar::F32);
        assert_eq!(Scalar::common(Scalar::I32, Scalar::F16), Scalar::F16);
        // -1 < 0u is false in C: -1 converts to UINT_MAX.
        let r = binary(
            BinOp::Lt,
            &KVal::int(Scalar::I32, -1),
            &KVal::int(Scalar::U32, 0),
        )
        .unwrap();
        assert_eq!(r, KVal::bool(false));
    }

    #[test]
    fn unsigned_wraps_signed_overflow_is_undefined() {
        let r = binary(
            BinOp::Add,
            &KVal::int(Scalar::U32, u32::MAX as i128),
            &KVal::int(Scalar::U32, 1),
        );
        assert_eq!(r.unwrap(), KVal::int(Scalar::U32, 0));
        let e = binary(
            BinOp::Add,
            &KVal::int(Scalar::I32, i32::MAX as i128),
            &KVal::int(Scalar::I32, 1),
        )
        .unwrap_err();
        assert_eq!(e.level, Level::Warning);
        assert!(e.message.contains("signed overflow"));
        assert!(binary(
            BinOp::Div,
            &KVal::int(Scalar::I32, 1),
            &KVal::int(Scalar::I32, 0)
        )
        .is_err());
        assert!(binary(
            BinOp::Shl,
            &KVal::int(Scalar::I32, 1),
            &KVal::int(Scalar::I32, 32)
        )
        .is_err());
        assert!(unary(UnOp::Neg, &KVal::int(Scalar::I32, i32::MIN as i128)).is_err());
    }

    #[test]
    fn floats_round_to_their_type() {
        let r = binary(
            BinOp::Add,
            &KVal::float(Scalar::F16, 2048.0),
            &KVal::float(Scalar::F16, 1.0),
        )
        .unwrap();
        assert_eq!(r, KVal::float(Scalar::F16, 2048.0));
        assert!(KVal::float(Scalar::F32, 3e9)
            .convert(ValTy::scalar(Scalar::I32))
            .is_err());
        let v = KVal::float(Scalar::F32, 0.1).to_core().unwrap();
        assert_eq!(KVal::from_core(v), KVal::float(Scalar::F32, 0.1));
    }
}
