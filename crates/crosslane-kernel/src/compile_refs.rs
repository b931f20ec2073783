//! Rewrites of an inlined function's body for its reference and address parameters: a `T&`
//! parameter's uses made `*p` or a component of the caller's vector, a pointer parameter bound
//! to one local's address read as that local. Each walk is bounded by the parser's depth budget.

use crate::ast::{Expr, ExprKind, Span, Stmt, StmtPart};

/// Each use of reference parameter `p` made `hidden.c` (a vector component of the caller's).
pub(crate) fn ref_member(e: &mut Expr, p: &str, hidden: &str, c: &str) {
    if matches!(&e.kind, ExprKind::Ident(n) if n == p) {
        let base = Expr::new(ExprKind::Ident(hidden.to_string()), e.span);
        *e = Expr::new(ExprKind::Member(Box::new(base), c.to_string()), e.span);
        return;
    }
    e.kind.for_each_child_mut(|x| ref_member(x, p, hidden, c));
}

/// Every use of the reference parameter `p` in `s` made `*p`: the parameter holds the address
/// of the cell it is bound to.
pub(crate) fn ref_deref_stmt(s: &mut Stmt, p: &str) {
    stmt_exprs_mut(s, &mut |e| ref_deref(e, p));
}

fn ref_deref(e: &mut Expr, p: &str) {
    if matches!(&e.kind, ExprKind::Ident(n) if n == p) {
        let at = e.span;
        let name = std::mem::replace(e, Expr::new(ExprKind::Bool(false), at));
        *e = Expr::new(ExprKind::Deref(Box::new(name)), at);
        return;
    }
    e.kind.for_each_child_mut(|c| ref_deref(c, p));
}

/// Calls `f` on each expression a statement holds directly and on those of the statements
/// nested in it (the nesting is bounded by the parser's depth budget).
pub(crate) fn stmt_exprs_mut(s: &mut Stmt, f: &mut dyn FnMut(&mut Expr)) {
    s.kind.for_each_part_mut(|part| match part {
        StmtPart::Expr(e) => f(e),
        StmtPart::Stmt(c) => stmt_exprs_mut(c, f),
    });
}

/// A pointer parameter `p` bound to one local's address (`f(&x)`) read as that local: `*p` and
/// `p[0]` made `p` (the local's own name in the inlined body), `p` passed on to a further call
/// made `&p`; any other use of `p` is recorded in `bad` (the first one's position).
pub(crate) fn alias_deref_stmt(s: &mut Stmt, p: &str, bad: &mut Option<Span>) {
    stmt_exprs_mut(s, &mut |e| alias_deref(e, p, bad));
}

fn alias_deref(e: &mut Expr, p: &str, bad: &mut Option<Span>) {
    let is_p = |x: &Expr| matches!(&x.kind, ExprKind::Ident(n) if n == p);
    let zero = |x: &Expr| matches!(x.kind, ExprKind::Int { value: 0, .. });
    let target = match &e.kind {
        ExprKind::Deref(b) if is_p(b) => Some(b.span),
        ExprKind::Index(b, i) if is_p(b) && zero(i) => Some(b.span),
        _ => None,
    };
    if let Some(span) = target {
        *e = Expr::new(ExprKind::Ident(p.to_string()), span);
        return;
    }
    if matches!(&e.kind, ExprKind::Ident(n) if n == p) {
        bad.get_or_insert(e.span);
        return;
    }
    // `inner(p)`: the pointer passed on to a further function is `&x` again, so that call
    // binds its own parameter to the same local (a struct pointer passed on, `outer(&s)`
    // calling `inner(p)`, is each of its leaves' pointers).
    if let ExprKind::Call(_, args) = &mut e.kind {
        for a in args.iter_mut() {
            if is_p(a) {
                let span = a.span;
                let id = Expr::new(ExprKind::Ident(p.to_string()), span);
                *a = Expr::new(ExprKind::AddrOf(Box::new(id)), span);
            } else {
                alias_deref(a, p, bad);
            }
        }
        return;
    }
    e.kind.for_each_child_mut(|c| alias_deref(c, p, bad));
}
