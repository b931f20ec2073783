//! A conditional expression of two lvalues as an lvalue: `(c ? a : b) = 9;`, `++(c ? a : b)`,
//! `(c ? a : b) += v`, `&(c ? a : b)`.
//!
//! C++17 [expr.cond]/4 and /5: when the second and third operands are glvalues of the same
//! value category and the same type, the result is of that type and value category, so an
//! lvalue: it names `a` where `c` holds and `b` otherwise, and only that one is assigned
//! ([expr.cond]/1: only one of the second and third expressions is evaluated).
//!
//! Lowered to the address chosen and dereferenced: `*(c ? &a : &b) = 9`, `&(c ? a : b)` as
//! `c ? &a : &b`, each lane writing the variable or cell its own condition names. Operands of
//! different types (a prvalue, [expr.cond]/7) or that are no lvalue the front end can take
//! the address of (a struct, a literal, a call) are left as written, and the assignment to
//! them stays refused.

use super::Parser;
use crate::ast::{Expr, ExprKind};

/// Most nested conditionals (`c ? a : d ? b : e`) one lvalue is read through.
const MAX_NESTED: usize = 16;

impl Parser<'_> {
    /// `c ? &a : &b` for the conditional lvalue `e` (`c ? a : b`), nested conditionals
    /// followed down their arms; `None` when `e` is no such conditional.
    pub(super) fn cond_address(&self, e: &Expr) -> Option<Expr> {
        let ExprKind::Ternary(..) = &e.kind else {
            return None;
        };
        self.cond_lvalue_type(e)?;
        // Each conditional, outermost first, is rebuilt with its arms' addresses; the arms
        // that are conditionals themselves are rebuilt on the way back (a bounded stack, not
        // recursion over the input).
        let mut stack: Vec<&Expr> = vec![e];
        let mut order: Vec<&Expr> = Vec::new();
        while let Some(x) = stack.pop() {
            if order.len() > MAX_NESTED {
                return None;
            }
            if let ExprKind::Ternary(_, a, b) = &x.kind {
                order.push(x);
                stack.push(a);
                stack.push(b);
            }
        }
        // Children after parents in `order`: build from the end.
        let mut built: Vec<(*const Expr, Expr)> = Vec::new();
        for x in order.iter().rev() {
            let ExprKind::Ternary(c, a, b) = &x.kind else {
                continue;
            };
            let arm = |arm: &Expr, built: &mut Vec<(*const Expr, Expr)>| -> Option<Expr> {
                if let Some(i) = built.iter().position(|(p, _)| std::ptr::eq(*p, arm)) {
                    return Some(built.swap_remove(i).1);
                }
                self.node(ExprKind::AddrOf(Box::new(arm.clone())), arm.span)
                    .ok()
            };
            let a2 = arm(a, &mut built)?;
            let b2 = arm(b, &mut built)?;
            let r = self
                .node(
                    ExprKind::Ternary(c.clone(), Box::new(a2), Box::new(b2)),
                    x.span,
                )
                .ok()?;
            built.push((*x as *const Expr, r));
        }
        built.pop().map(|(_, r)| r)
    }

    /// The type of the conditional lvalue `e`: its arms' one type, each arm a variable, an
    /// element or a dereference of a scalar or vector type, or such a conditional itself.
    fn cond_lvalue_type(&self, e: &Expr) -> Option<crate::types::ValTy> {
        let mut stack = vec![e];
        let mut ty = None;
        let mut seen = 0usize;
        while let Some(x) = stack.pop() {
            seen += 1;
            if seen > 2 * MAX_NESTED + 1 {
                return None;
            }
            match &x.kind {
                ExprKind::Ternary(_, a, b) => {
                    stack.push(a);
                    stack.push(b);
                }
                ExprKind::Ident(_) | ExprKind::Index(..) | ExprKind::Deref(_) => {
                    if self.struct_of(x).is_some() {
                        return None;
                    }
                    let t = self.expr_type(x)?;
                    if ty.is_some_and(|u| u != t) {
                        return None;
                    }
                    ty = Some(t);
                }
                _ => return None,
            }
        }
        ty
    }

    /// `e` as an lvalue the engine can assign: `*(c ? &a : &b)` for a conditional lvalue,
    /// `e` itself otherwise.
    pub(super) fn cond_lvalue(&self, e: Expr) -> Expr {
        match self.cond_address(&e) {
            Some(addr) => {
                let span = e.span;
                self.node(ExprKind::Deref(Box::new(addr)), span)
                    .unwrap_or(e)
            }
            None => e,
        }
    }
}
