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
use crate::lexer::Tok;
use crate::types::{Scalar, Ty, ValTy};
use crate::{reinterpret, KernelError};

impl Parser<'_> {
    /// From the word `__builtin_bit_cast` or `bit_cast` (its `std::` already read).
    pub(super) fn bit_cast(&mut self, span: Span) -> PResult<Expr> {
        let word = self.ident()?;
        // A struct destination (composable_kernel's `thread_buffer<int32_t, 2>`, a local
        // `struct V { int words[2]; }`, one named by a block-scope `using`): read here, the
        // value then copied byte by byte as `memcpy` does ([`Self::struct_bit_cast`]).
        let to_struct = |p: &mut Self| -> PResult<Option<String>> {
            let save = p.pos;
            match p.struct_type() {
                Ok(Some(s)) if !matches!(p.peek(0), Tok::Punct("*" | "&")) => Ok(Some(s)),
                _ => {
                    p.pos = save;
                    Ok(None)
                }
            }
        };
        let (to, to_s) = if word == "bit_cast" {
            self.expect_punct("<")?;
            let s = to_struct(self)?;
            let t = if s.is_some() {
                Ty::Void
            } else {
                let b = self.base_type()?;
                self.pointers(b)?.0
            };
            if !self.close_angle() {
                return self.err("`>`");
            }
            self.expect_punct("(")?;
            (t, s)
        } else {
            self.expect_punct("(")?;
            let s = to_struct(self)?;
            let t = if s.is_some() {
                Ty::Void
            } else {
                let b = self.base_type()?;
                self.pointers(b)?.0
            };
            self.expect_punct(",")?;
            (t, s)
        };
        let x = self.assign_expr()?;
        self.expect_punct(")")?;
        // A struct source: a variable or member as it is, a call returning a struct into the
        // temporary that call's lowering declares.
        let mut x = x;
        let mut from_s = self.struct_of(&x);
        if from_s.is_none() && matches!(x.kind, ExprKind::Call(..)) && self.expr_type(&x).is_none()
        {
            if let Some((fs, leaves)) = self.leaves_of(&x, None)? {
                let Some(tmp) = temporary_name(&leaves) else {
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        format!(
                            "`{word}` of this `{fs}` value is not supported; store it in a                              `{fs}` variable first"
                        ),
                    ));
                };
                x = Expr::new(ExprKind::Ident(tmp), x.span);
                from_s = Some(fs);
            }
        }
        if to_s.is_some() || from_s.is_some() {
            return self.struct_bit_cast(&word, to, to_s, x, from_s, span);
        }
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

impl Parser<'_> {
    /// `__builtin_bit_cast` / `std::bit_cast` where the destination (`to_s`) or the source
    /// (`from_s`) is a struct: C++20 [bit.cast]/2, each bit of the result's value
    /// representation is the bit of the source's object representation at the same place.
    /// Lowered as `memcpy` lowers ([`super::memcpy`]): the source's scalars at their layout
    /// offsets (little-endian bytes, as every target here lays them out) copied into a
    /// temporary of the destination type declared before the statement; the expression is
    /// that temporary. Sizes must agree ([bit.cast]/1).
    fn struct_bit_cast(
        &mut self,
        word: &str,
        to: Ty,
        to_s: Option<String>,
        x: Expr,
        from_s: Option<String>,
        span: Span,
    ) -> PResult<Expr> {
        let err = |m: String| Err(KernelError::new(span.line, span.col, m));
        let to_size = match (&to_s, to) {
            (Some(s), _) => self.struct_size(s, span)?,
            (None, Ty::Val(v)) => super::structs::value_layout_of(v).0,
            _ => {
                return err(format!(
                    "`{word}` to a pointer or `void` is not supported here; cast to an \
                     integer, floating or struct type of the value's size"
                ))
            }
        };
        let from_size = match (&from_s, self.expr_type(&x)) {
            (Some(s), _) => self.struct_size(s, span)?,
            (None, Some(v)) => super::structs::value_layout_of(v).0,
            (None, None) => {
                return err(format!(
                    "`{word}`: the type of this source is not known before the run; store it \
                     in a variable of its type first"
                ))
            }
        };
        let name = |s: &Option<String>, t: Ty| match (s, t) {
            (Some(s), _) => format!("`{s}`"),
            (None, Ty::Val(v)) => v.name(),
            _ => "?".into(),
        };
        if to_size != from_size {
            let from_name = match (&from_s, self.expr_type(&x)) {
                (Some(s), _) => format!("`{s}`"),
                (None, Some(v)) => v.name(),
                _ => "?".into(),
            };
            return err(format!(
                "`{word}` from {from_name} ({from_size} bytes) to {} ({to_size} bytes): the \
                 sizes must be equal (C++20 [bit.cast]/1); cast to a type of {from_size} bytes",
                name(&to_s, to)
            ));
        }
        // The source as a place to read its bytes from: a variable, member or element as it
        // is; any other value computed once into a local first.
        let src = if from_s.is_some() || is_place(&x) {
            x
        } else {
            let Some(v) = self.expr_type(&x) else {
                return err(format!("`{word}`: store the source in a variable first"));
            };
            self.hoisted_local("bits", Ty::Val(v), Some(x), span)
        };
        let dst = match &to_s {
            Some(s) => {
                let leaves = self.temporary(s, span)?;
                let Some(tmp) = temporary_name(&leaves) else {
                    return err(format!(
                        "`{word}` to the empty struct `{s}` is not supported; it has no bytes"
                    ));
                };
                Expr::new(ExprKind::Ident(tmp), span)
            }
            None => self.hoisted_local("bits", to, None, span),
        };
        let sp = self.syn_span(span);
        let d = Expr::new(ExprKind::AddrOf(Box::new(dst.clone())), sp);
        let s = Expr::new(ExprKind::AddrOf(Box::new(src)), sp);
        let copy = self.copy_bytes(&d, &s, to_size, false, span, span, word)?;
        self.push_pre_expr(copy);
        Ok(dst)
    }
}

/// The name of the struct temporary whose leaves are `leaves` (`tmp7` of `tmp7.data`).
fn temporary_name(leaves: &[(String, Expr)]) -> Option<String> {
    let (path, e) = leaves.first()?;
    let ExprKind::Ident(n) = &e.kind else {
        return None;
    };
    n.strip_suffix(path.as_str())?
        .strip_suffix('.')
        .map(str::to_string)
}

/// A variable, a member of one or an element of one: a place its bytes can be read from
/// without evaluating anything twice.
fn is_place(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(_) => true,
        ExprKind::Member(b, _) => is_place(b),
        ExprKind::Index(b, i) => is_place(b) && super::const_int(i).is_some(),
        _ => false,
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
