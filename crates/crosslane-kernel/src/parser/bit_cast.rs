//! `__builtin_bit_cast(T, x)` and `std::bit_cast<T>(x)` (C++20 [bit.cast], which nvcc and
//! hipcc offer as the builtin in C++17): the object representation of `x` read as a `T` of the
//! same size. Lowered to the CUDA intrinsics with that meaning (CUDA Math API, Type Casting
//! Intrinsics: `__float_as_int`, `__float_as_uint`, `__int_as_float`, `__uint_as_float`) for a
//! 32-bit float and a 32-bit integer, and to an integral conversion between integers of one
//! width (which keeps the bits, [conv.integral]/3). Other pairs are refused with what they are.

use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{Scalar, Ty, ValTy};
use crate::KernelError;

impl Parser<'_> {
    /// From the word `__builtin_bit_cast` or `bit_cast` (its `std::` already read).
    pub(super) fn bit_cast(&mut self, span: Span) -> PResult<Expr> {
        let word = self.ident()?;
        let to = if word == "bit_cast" {
            self.expect_punct("<")?;
            let b = self.base_type()?;
            let t = self.pointers(b)?.0;
            if !self.close_angle() {
                return self.err("`>`");
            }
            self.expect_punct("(")?;
            t
        } else {
            self.expect_punct("(")?;
            let b = self.base_type()?;
            let t = self.pointers(b)?.0;
            self.expect_punct(",")?;
            t
        };
        let x = self.assign_expr()?;
        self.expect_punct(")")?;
        let from = self.expr_type(&x).or_else(|| match &x.kind {
            // A nested bit cast's intrinsic: its documented result type.
            ExprKind::Call(n, _) => match n.as_str() {
                "__float_as_int" => Some(ValTy::scalar(Scalar::I32)),
                "__float_as_uint" => Some(ValTy::scalar(Scalar::U32)),
                "__int_as_float" | "__uint_as_float" => Some(ValTy::scalar(Scalar::F32)),
                _ => None,
            },
            _ => None,
        });
        let call = |n: &str, x: Expr| Expr::new(ExprKind::Call(n.into(), vec![x]), span);
        let scalar = |t: Option<ValTy>| t.filter(|v| v.lanes == 1).map(|v| v.scalar);
        let to_s = match to {
            Ty::Val(v) => scalar(Some(v)),
            _ => None,
        };
        match (scalar(from), to_s) {
            (Some(a), Some(b)) if a == b => Ok(x),
            (Some(Scalar::F32), Some(Scalar::I32)) => Ok(call("__float_as_int", x)),
            (Some(Scalar::F32), Some(Scalar::U32)) => Ok(call("__float_as_uint", x)),
            (Some(Scalar::I32), Some(Scalar::F32)) => Ok(call("__int_as_float", x)),
            (Some(Scalar::U32), Some(Scalar::F32)) => Ok(call("__uint_as_float", x)),
            (Some(a), Some(b)) if !a.is_float() && !b.is_float() && a.bits() == b.bits() => {
                Ok(Expr::new(ExprKind::Cast(to, Box::new(x)), span))
            }
            (a, b) => Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "`{word}` from {} to {} is not supported here (a 32-bit float and a 32-bit \
                     integer, or integers of one width, are); for halves use `__half_as_ushort` \
                     / `__ushort_as_half`",
                    a.map_or("this value".to_string(), |s| s.name().to_string()),
                    b.map_or("this type".to_string(), |s| s.name().to_string()),
                ),
            )),
        }
    }
}
