//! clang's extended-vector fields in a HIP source, lowered to the calls
//! [`crate::ext_swizzle`] runs: a read `v.wzyx` (also `.s7`, `.lo`, `.even`, …) to
//! `__crosslane_swizzle:wzyx(v)`, and an assignment `v.xy = e` (or `v.xy += e`) to
//! `v = __crosslane_swizzle_set:xy(v, e)` (`v = set(v, get(v) + e)`). A single `.x .y .z .w`
//! stays the member read the interpreter already has. Only a base whose vector type the parser
//! knows is lowered (a variable, an element of a vector array, a swizzle of one); a field that
//! does not fit it is refused before the run (clang refuses it when compiling: "vector
//! component access exceeds type"). A field of an expression typed only at run time
//! (`(a + b).xy`) is not lowered and stops the run as a member the value lacks.
//!
//! Source: clang Language Extensions, "Vectors and Extended Vectors" (element access, swizzles
//! as rvalues and lvalues, `.s0`-style hex indices, `.lo .hi .even .odd`).

use super::{PResult, Parser};
use crate::ast::{Expr, ExprKind, Span};
use crate::ext_swizzle::{indices, is_field, GET, SET};
use crate::types::{BinOp, ValTy};
use crate::KernelError;

impl Parser<'_> {
    /// `base.field` as an extended vector's field read (HIP sources), else `None`.
    ///
    /// # Errors
    /// A field that does not fit the vector's known type, at `span`.
    pub(super) fn swizzle_member(
        &mut self,
        base: &Expr,
        field: &str,
        span: Span,
    ) -> PResult<Option<Expr>> {
        if !self.hip || !is_field(field) || self.struct_of(base).is_some() {
            return Ok(None);
        }
        let single_xyzw = field.len() == 1;
        match self.expr_type(base) {
            Some(v) if v.lanes > 1 => {
                if single_xyzw && usize::from(v.lanes) <= 4 {
                    return Ok(None);
                }
                if let Err(m) = indices(field, usize::from(v.lanes)) {
                    return Err(KernelError::new(span.line, span.col, m));
                }
            }
            // A scalar, or a type unknown here (a struct this parser cannot type may have a
            // member `s0` or `lo`): left as the member read it was.
            _ => return Ok(None),
        }
        let s = self.syn_span(span);
        Ok(Some(Expr::new(
            ExprKind::Call(format!("{GET}{field}"), vec![base.clone()]),
            s,
        )))
    }

    /// `lhs op= rhs` where `lhs` is a lowered field read ([`Self::swizzle_member`]): the
    /// vector assigned with those elements replaced; `None` for any other `lhs`.
    ///
    /// # Errors
    /// A vector expression with side effects (it would be evaluated twice), at its span.
    pub(super) fn swizzle_assign(
        &mut self,
        op: Option<BinOp>,
        lhs: &Expr,
        rhs: Expr,
    ) -> PResult<Result<Expr, Expr>> {
        let ExprKind::Call(name, args) = &lhs.kind else {
            return Ok(Err(rhs));
        };
        let (Some(field), [base]) = (name.strip_prefix(GET), args.as_slice()) else {
            return Ok(Err(rhs));
        };
        if base.walk().any(|x| {
            matches!(
                x.kind,
                ExprKind::Call(..) | ExprKind::Assign(..) | ExprKind::IncDec { .. }
            )
        }) {
            return Err(KernelError::new(
                base.span.line,
                base.span.col,
                format!("`.{field} = …` on a vector expression with a call or an assignment in it is not modelled (it would run twice here): assign to a variable first"),
            ));
        }
        // Named twice: clang "vector is not assignable (contains duplicate components)".
        if let Ok(idx) = indices(field, 16) {
            if let Some(k) = idx
                .iter()
                .enumerate()
                .find_map(|(i, k)| idx[..i].contains(k).then_some(*k))
            {
                return Err(KernelError::new(
                    lhs.span.line,
                    lhs.span.col,
                    format!("`.{field}` names element {k} twice, so it cannot be assigned to (clang: vector is not assignable (contains duplicate components))"),
                ));
            }
        }
        let s = self.syn_span(lhs.span);
        let value = match op {
            Some(b) => Expr::new(ExprKind::Binary(b, Box::new(lhs.clone()), Box::new(rhs)), s),
            None => rhs,
        };
        let set = Expr::new(
            ExprKind::Call(format!("{SET}{field}"), vec![base.clone(), value]),
            s,
        );
        Ok(Ok(Expr::new(
            ExprKind::Assign(None, Box::new(base.clone()), Box::new(set)),
            s,
        )))
    }

    /// The type of a lowered field read or write where the vector's type is known here.
    pub(super) fn swizzle_type(&self, name: &str, args: &[Expr]) -> Option<ValTy> {
        let v = self.expr_type(args.first()?)?;
        if name.starts_with(SET) {
            return Some(v);
        }
        let n = indices(name.strip_prefix(GET)?, usize::from(v.lanes))
            .ok()?
            .len();
        Some(ValTy {
            scalar: v.scalar,
            lanes: u8::try_from(n).ok()?,
        })
    }
}
