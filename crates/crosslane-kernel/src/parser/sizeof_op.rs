//! `sizeof`: of a type in parentheses and of an expression, as a constant of bytes
//! ([expr.sizeof]), or an undefined value saying why where the front end does not know the
//! operand's type (never a made-up size).

use super::{PResult, Parser};
use crate::ast::*;
use crate::types::Ty;

impl Parser<'_> {
    /// `(T)` after `sizeof`: the type's size in bytes.
    pub(super) fn sizeof_type(&mut self) -> PResult<u64> {
        self.expect_punct("(")?;
        let at = self.span();
        if self.is_word("typename") {
            self.bump();
        }
        if let Some(st) = self.struct_type()? {
            let (ty, _) = self.pointers(Ty::Void)?;
            self.expect_punct(")")?;
            return match ty {
                // An empty class still has size 1 or more ([class]/4: a complete object's
                // size is nonzero; [expr.sizeof]/2).
                Ty::Void => self.struct_size(&st, at).map(|b| b.max(1)),
                _ => Ok(8),
            };
        }
        let base = self.base_type()?;
        let (ty, _) = self.pointers(base)?;
        self.expect_punct(")")?;
        Ok(match ty {
            Ty::Void => 1,
            Ty::Ptr(_) => 8,
            Ty::Val(v) => u64::from(v.scalar.bits().max(8) / 8) * u64::from(v.lanes),
        })
    }

    /// `sizeof` of an expression: the size of its type where the front end knows it (a
    /// declared name, a pointer's element, a literal, a cast; a pointer is 8 bytes), else an
    /// undefined value saying so — never a made-up size. The operand is not evaluated
    /// ([expr.sizeof]/1), so `(void)sizeof(x)` (ggml's `GGML_UNUSED`) costs nothing.
    pub(super) fn sizeof_expr(&mut self, operand: &Expr, at: Span) -> Expr {
        let bytes = match &operand.kind {
            ExprKind::Ident(n) => match self.var_type(n) {
                // An array of constant bounds (`float vals[4]`, `int m[2][3]`): its cells'
                // bytes ([expr.sizeof]/2: "the result of applying sizeof to an array is the
                // total number of bytes in the array"), not a pointer's.
                Some(Ty::Ptr(v)) if self.array_len(n).is_some() || self.dims_of(n).is_some() => {
                    let cells = match self.array_len(n) {
                        Some(len) => Some(len),
                        None => self
                            .dims_of(n)
                            .and_then(|d| d.iter().try_fold(1u64, |a, &x| a.checked_mul(x))),
                    };
                    cells.and_then(|c| c.checked_mul(super::structs::value_layout_of(v).0))
                }
                Some(Ty::Ptr(_)) => Some(8),
                _ => None,
            },
            // `sizeof("abc")` is 4: the literal's array with its terminating null.
            ExprKind::Str(text) => crate::lexer::string_literal_bytes(text),
            _ => None,
        }
        // A struct value (`sizeof(blk)`, `sizeof(s.inner)`): its layout's size.
        .or_else(|| {
            let s = self.struct_of(operand)?;
            self.struct_size(&s, at).ok().map(|b| b.max(1))
        })
        .or_else(|| {
            self.expr_type(operand)
                .map(|v| u64::from(v.scalar.bits().max(8) / 8) * u64::from(v.lanes.max(1)))
        });
        match bytes {
            Some(b) => Expr::new(ExprKind::SizeOf(b), at),
            None => {
                let zero = self.e_int(at, 0);
                let never = self.e_int(at, 0);
                let s = self.syn_span(at);
                let why = Expr::new(
                    ExprKind::Str(
                        "sizeof of an expression whose type the front end does not know here: \
                         write sizeof(TYPE)"
                            .to_string(),
                    ),
                    s,
                );
                self.e_call(at, crate::builtins::VALID_ONLY, vec![zero, never, why])
            }
        }
    }
}
