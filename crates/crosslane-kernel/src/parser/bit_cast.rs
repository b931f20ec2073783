//! `__builtin_bit_cast(T, x)` and `std::bit_cast<T>(x)` (C++20 [bit.cast], which nvcc and
//! hipcc offer as the builtin in C++17): the object representation of `x` read as a `T` of the
//! same size. Lowered to the CUDA intrinsics with that meaning (CUDA Math API, Type Casting
//! Intrinsics: `__float_as_int`, `__float_as_uint`, `__int_as_float`, `__uint_as_float`) for a
//! 32-bit float and a 32-bit integer, and to an integral conversion between integers of one
//! width (which keeps the bits, [conv.integral]/3); any other pair of one size (`double` ↔
//! `uint64_t`, `__half` ↔ `uint16_t`) to the object representation read as the destination
//! type (`reinterpret.rs`). Types of different sizes are refused at the cast ([bit.cast]/1); a
//! source whose type the front end cannot tell before the run (`f<T>(x)`, a member call) is read
//! whole, its size checked when it runs.

use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{Scalar, Ty, ValTy};
use crate::{reinterpret, KernelError};

impl Parser<'_> {
    /// From the word `__builtin_bit_cast` or `bit_cast` (its `std::` already read).
    pub(super) fn bit_cast(&mut self, span: Span) -> PResult<Expr> {
        let word = self.ident()?;
        // A struct destination (composable_kernel's `thread_buffer<int32_t, 2>`, a local
        // `struct V { int words[2]; }`) is refused by name: its object representation is not
        // modelled as one value here.
        let refuse_struct = |p: &mut Self| -> PResult<()> {
            let save = p.pos;
            let s = p.struct_type();
            p.pos = save;
            if let Ok(Some(s)) = s {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!(
                        "`{word}` to the struct `{s}` is not supported; copy the bytes with \
                         `memcpy(&dst, &src, sizeof(dst))` into a `{s}` variable"
                    ),
                ));
            }
            Ok(())
        };
        let to = if word == "bit_cast" {
            self.expect_punct("<")?;
            refuse_struct(self)?;
            let b = self.base_type()?;
            let t = self.pointers(b)?.0;
            if !self.close_angle() {
                return self.err("`>`");
            }
            self.expect_punct("(")?;
            t
        } else {
            self.expect_punct("(")?;
            refuse_struct(self)?;
            let b = self.base_type()?;
            let t = self.pointers(b)?.0;
            self.expect_punct(",")?;
            t
        };
        let x = self.assign_expr()?;
        self.expect_punct(")")?;
        let from = self.expr_type(&x);
        let call = |n: &str, x: Expr| Expr::new(ExprKind::Call(n.into(), vec![x]), span);
        let scalar = |t: Option<ValTy>| t.filter(|v| v.lanes == 1).map(|v| v.scalar);
        let Ty::Val(to_v) = to else {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "`{word}` to a pointer or `void` is not supported here; cast to an integer \
                     or floating type of the value's size"
                ),
            ));
        };
        let Some(from_v) = from else {
            // A source whose type the front end cannot tell before the run (a call of a
            // template, a member): its bytes read whole as the destination type, the sizes
            // checked when it runs ([bit.cast]/1).
            let args = vec![zero_at(span), x];
            return Ok(Expr::new(
                ExprKind::Call(reinterpret::exact_callee(to_v), args),
                span,
            ));
        };
        let size = |v: ValTy| reinterpret::scalar_bytes(v.scalar) * usize::from(v.lanes.max(1));
        match (scalar(Some(from_v)), scalar(Some(to_v))) {
            (Some(a), Some(b)) if a == b => Ok(x),
            (Some(Scalar::F32), Some(Scalar::I32)) => Ok(call("__float_as_int", x)),
            (Some(Scalar::F32), Some(Scalar::U32)) => Ok(call("__float_as_uint", x)),
            (Some(Scalar::I32), Some(Scalar::F32)) => Ok(call("__int_as_float", x)),
            (Some(Scalar::U32), Some(Scalar::F32)) => Ok(call("__uint_as_float", x)),
            (Some(a), Some(b)) if !a.is_float() && !b.is_float() && a.bits() == b.bits() => {
                Ok(Expr::new(ExprKind::Cast(to, Box::new(x)), span))
            }
            // Any other pair of one size (`double` ↔ `uint64_t`, `__half` ↔ `uint16_t`,
            // `__half2` ↔ `uint32_t`): the object representation read as the destination.
            _ if size(from_v) == size(to_v) && from_v.scalar != Scalar::Bool => {
                let args = vec![zero_at(span), x];
                Ok(Expr::new(
                    ExprKind::Call(reinterpret::exact_callee(to_v), args),
                    span,
                ))
            }
            _ => Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "`{word}` from {} ({} bytes) to {} ({} bytes): the sizes must be equal \
                     (C++20 [bit.cast]/1); cast to a type of {} bytes",
                    from_v.name(),
                    size(from_v),
                    to_v.name(),
                    size(to_v),
                    size(from_v),
                ),
            )),
        }
    }
}

/// The literal `0` (a byte read's start) at `span`.
fn zero_at(span: Span) -> Expr {
    Expr::new(
        ExprKind::Int {
            value: 0,
            unsigned: false,
            long: false,
        },
        span,
    )
}

/// The result type of a CUDA type-casting intrinsic (CUDA Math API, "Type Casting
/// Intrinsics": `__float_as_int` returns `int`, `__float_as_uint` `unsigned int`,
/// `__int_as_float` and `__uint_as_float` `float`; "Half Precision Conversion and Data
/// Movement": `__half_as_short` `short`, `__half_as_ushort` `unsigned short`), so a bit cast or a
/// deduction over one sees it; `None` for another name.
pub(super) fn type_cast_intrinsic(name: &str) -> Option<ValTy> {
    let s = match name {
        "__float_as_int" => Scalar::I32,
        "__float_as_uint" => Scalar::U32,
        "__int_as_float" | "__uint_as_float" => Scalar::F32,
        "__half_as_short" | "__bfloat16_as_short" => Scalar::I16,
        "__half_as_ushort" | "__bfloat16_as_ushort" => Scalar::U16,
        _ => return None,
    };
    Some(ValTy::scalar(s))
}
