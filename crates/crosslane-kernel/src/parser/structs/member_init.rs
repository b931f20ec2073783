//! Default member initializers that read earlier members: `struct P { int a = 3; int b = a *
//! 2; };`, `P p;` giving `b` = 6.
//!
//! C++17 [class.mem]/6: a default member initializer is a complete-class context, so a member
//! named in it is the object's own member (`this->a`); [class.base.init]/9 and /13: the
//! non-static members are initialized in declaration order, each from its initializer when
//! no mem-initializer names it, so an earlier member holds its value when a later one reads it
//! and a later member has none yet ([basic.indet]/2: its value is indeterminate).
//!
//! In a constructor the defaults run as assignments to `this`'s members
//! ([`super::define`]), so the bare names already read the receiver's members there. An
//! aggregate built without a constructor ([`super::lower`]'s `construct_fields`) has no
//! receiver: each earlier member named is replaced by the value it was just given (a value
//! with no side effects, so reading it again gives the same value); a later member named is
//! refused, as is an earlier one whose initializer has side effects.

use super::super::{PResult, Parser};
use super::{Field, Leaves};
use crate::ast::{Expr, ExprKind};
use crate::KernelError;

/// The value a member without an initializer gets under default-initialization: none
/// ([dcl.init]/12, [basic.indet]/1: its value is indeterminate). The declaration leaves it
/// unwritten, so a read of it is undefined with its reason.
const NOINIT: &str = "@noinit";

/// Whether `e` is the [`NOINIT`] mark.
pub(super) fn is_noinit(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call(n, a) if n == NOINIT && a.is_empty())
}

/// Whether evaluating `e` again could change what it gives or does (an assignment, an
/// increment, a call).
fn has_effects(e: &Expr) -> bool {
    e.walk().any(|x| {
        matches!(
            x.kind,
            ExprKind::Assign(..) | ExprKind::IncDec { .. } | ExprKind::Call(..)
        )
    })
}

/// The member path `e` names in the object being initialized: `a` for `a`, `this->a` or
/// `(*this).a`; `inner.x` for `inner.x` or `this->inner.x`; `None` for anything else.
fn member_path(e: &Expr, fields: &[Field]) -> Option<String> {
    let mut names = Vec::new();
    let mut x = e;
    // Bounded by the expression's height.
    while let ExprKind::Member(b, m) = &x.kind {
        names.push(m.as_str());
        x = b;
    }
    let is_this = |x: &Expr| matches!(&x.kind, ExprKind::Ident(t) if t == "this");
    match &x.kind {
        ExprKind::Ident(_) if is_this(x) => {}
        ExprKind::Deref(t) if is_this(t) => {}
        ExprKind::Ident(n) if fields.iter().any(|f| f.name == *n) => names.push(n.as_str()),
        _ => return None,
    }
    names.reverse();
    (!names.is_empty()).then(|| names.join("."))
}

impl Parser<'_> {
    /// A member's value when no initializer gives one: zero under value- or aggregate
    /// initialization ([dcl.init.aggr]/8, [dcl.init]/8), no value under default-initialization
    /// (`P p;` of a class with some default member initializers, [dcl.init]/12).
    pub(super) fn no_value(&self, span: crate::ast::Span) -> Expr {
        if self.default_init {
            Expr::new(ExprKind::Call(NOINIT.to_string(), Vec::new()), span)
        } else {
            super::zero(span)
        }
    }

    /// The default member initializer `d` of `fields[k]` with each member of `fields` it names
    /// (`a`, `this->a`, `inner.x`) replaced by the value `done` gave it.
    ///
    /// # Errors
    /// A member initialized after `fields[k]` (its value is indeterminate there), or one whose
    /// value has side effects.
    pub(super) fn default_reading_members(
        &self,
        mut d: Expr,
        fields: &[Field],
        done: &Leaves,
        k: usize,
    ) -> PResult<Expr> {
        let mut err = None;
        self.replace_members(&mut d, fields, done, k, &mut err);
        match err {
            Some(e) => Err(e),
            // A read of a member without a value: this one gets none either.
            None if d.walk().any(is_noinit) => Ok(self.no_value(d.span)),
            None => Ok(d),
        }
    }

    /// [`Self::default_reading_members`] on `e` in place; the first refusal in `err`. The
    /// recursion follows the expression's height, which the parser bounds (`--max-depth`).
    fn replace_members(
        &self,
        e: &mut Expr,
        fields: &[Field],
        done: &Leaves,
        k: usize,
        err: &mut Option<KernelError>,
    ) {
        if err.is_some() {
            return;
        }
        // The leaf path `e` names: `a`, `this->a` / `(*this).a`, `inner.x`, `this->inner.x`.
        let path = member_path(e, fields);
        if let Some(path) = path {
            let top = path.split('.').next().unwrap_or(&path);
            if let Some(j) = fields.iter().position(|f| f.name == top) {
                let name = fields.get(k).map(|f| f.name.as_str()).unwrap_or_default();
                let at = e.span;
                if j >= k {
                    *err = Some(KernelError::new(
                        at.line,
                        at.col,
                        format!(
                            "the default initializer of member `{name}` reads member `{top}`, \
                             which is initialized after it (members are initialized in \
                             declaration order, [class.base.init]/13), so its value is \
                             indeterminate there"
                        ),
                    ));
                    return;
                }
                match done.iter().find(|(p, _)| *p == path) {
                    // An earlier member without a value: the default reads an indeterminate
                    // value ([basic.indet]/2), so the member gets none either.
                    Some((_, v)) if is_noinit(v) => *e = v.clone(),
                    Some((_, v)) if !has_effects(v) => {
                        let mut v = v.clone();
                        v.span = at;
                        *e = v;
                    }
                    Some(_) => {
                        *err = Some(KernelError::new(
                            at.line,
                            at.col,
                            format!(
                                "the default initializer of member `{name}` reads member \
                                 `{path}`, whose initializer has side effects here: give \
                                 `{name}` its value in a constructor"
                            ),
                        ));
                    }
                    // An array or a whole struct member: left as written.
                    None => {}
                }
                return;
            }
        }
        e.kind
            .for_each_child_mut(|c| self.replace_members(c, fields, done, k, err));
    }
}
