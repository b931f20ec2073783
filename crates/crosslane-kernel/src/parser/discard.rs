//! `(void)q;` and `static_cast<void>(q)` where `q` names a struct value or a pointer to
//! structs: the idiom that silences an unused-variable warning. A cast to `void` makes a
//! discarded-value expression (C++17 [expr.static.cast]/6: "Any expression can be explicitly
//! converted to type cv `void`, in which case it becomes a discarded-value expression";
//! [expr.cast]/4 reads the C-style form as that `static_cast`), and naming a variable has no
//! side effect ([intro.execution]/12 lists what does), so the whole expression does nothing.
//! A struct lowers to its members' scalars ([`super::structs`]), so the name alone has no one
//! value to cast: it is replaced by the literal `0` cast to `void`, which runs as nothing.
//! An operand that may have a side effect (a call, an assignment) keeps its own lowering.

use super::Parser;
use crate::ast::{Expr, ExprKind};
use crate::types::Ty;

impl Parser<'_> {
    /// `(void)e` / `static_cast<void>(e)` of a struct name, a member that is a struct, or a
    /// pointer to structs, as `(void)0`; `None` for any other cast or operand.
    pub(super) fn discard_struct(&self, ty: Ty, e: &Expr) -> Option<Expr> {
        if !matches!(ty, Ty::Void) || !self.names_struct(e) {
            return None;
        }
        let zero = Expr::new(
            ExprKind::Int {
                value: 0,
                unsigned: false,
                long: false,
            },
            e.span,
        );
        Some(Expr::new(ExprKind::Cast(Ty::Void, Box::new(zero)), e.span))
    }

    /// Whether `e` is a name (or a member of a name) whose value is a struct or a pointer to
    /// structs: an operand without side effects that lowers to no single scalar.
    fn names_struct(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Ident(n) => self.var_struct(n).is_some() || self.struct_of(e).is_some(),
            ExprKind::Member(b, _) => {
                self.struct_of(e).is_some()
                    && matches!(b.kind, ExprKind::Ident(_) | ExprKind::Member(..))
            }
            _ => false,
        }
    }
}
