//! A pointer to a local struct (`S s; S* p = &s;`): `p` names `s` itself, so `p->field`,
//! `p->add(3)` and `(*p).field` read and write `s`'s members ([expr.ref]/2: `E1->E2` is
//! `(*E1).E2`; [expr.unary.op]/1: `*&s` is `s`). The pointer is lowered to an alias of the
//! struct's leaves; pointing it elsewhere later is refused at the assignment.
//!
//! `f(&s)` passes a local struct to a `S*` parameter, which is one pointer per member here
//! (`s.sum`, `s.n` as `float*`, `int*`): the argument is each member's address, so the callee's
//! `p->sum += x` writes `s.sum` ([expr.unary.op]/3: `&s` points at `s`, and its members are
//! subobjects at their own addresses, [intro.object]/2).

use super::*;

impl Parser<'_> {
    /// `S* name = &x;` with `x` a struct value of type `s` in scope: `name` declared as a
    /// second name of `x`'s members, `true`; `false` for any other initializer.
    pub(super) fn local_struct_pointer(
        &mut self,
        s: &str,
        name: &str,
        init: Option<&Expr>,
    ) -> PResult<bool> {
        let Some(ExprKind::AddrOf(inner)) = init.map(|i| &i.kind) else {
            return Ok(false);
        };
        let ExprKind::Ident(x) = &inner.kind else {
            return Ok(false);
        };
        let Some(sv) = self
            .var_struct(x)
            .filter(|sv| sv.kind == SKind::Plain)
            .cloned()
        else {
            return Ok(false);
        };
        if sv.sname != s {
            return Ok(false);
        }
        let leaves = self.leaves(s, inner.span)?;
        self.declare_svar(name, sv, &leaves);
        let depth = self.scopes.len().saturating_sub(1);
        self.local_struct_ptrs.insert((depth, name.to_string()));
        Ok(true)
    }

    /// Whether `e` names a pointer made by [`Self::local_struct_pointer`] in the scope it is
    /// used in.
    pub(crate) fn is_local_struct_pointer(&self, e: &Expr) -> bool {
        let ExprKind::Ident(n) = &e.kind else {
            return false;
        };
        let marker = format!("struct:{n}");
        (0..self.scopes.len())
            .rev()
            .find(|&i| self.scopes[i].contains_key(n) || self.scopes[i].contains_key(&marker))
            .is_some_and(|i| self.local_struct_ptrs.contains(&(i, n.clone())))
    }

    /// `&s` of a local struct `s` (or a pointer `p` made by [`Self::local_struct_pointer`]) as
    /// a call's argument: the address of each of its members, in leaf order, as a struct
    /// pointer parameter takes them; `None` for anything else. An array member is passed as
    /// the local array itself, which the parameter's pointer for that member points into
    /// (its element 0 is the member's first element, [conv.array]/1), so the callee's
    /// `p->v[i] += x` writes `s.v[i]`.
    pub(super) fn local_struct_address(&mut self, a: &Expr) -> PResult<Option<Vec<Expr>>> {
        let inner = match &a.kind {
            ExprKind::AddrOf(inner) => (**inner).clone(),
            ExprKind::Ident(_) if self.is_local_struct_pointer(a) => a.clone(),
            _ => return Ok(None),
        };
        let ExprKind::Ident(n) = &inner.kind else {
            return Ok(None);
        };
        let Some(sv) = self
            .var_struct(n)
            .filter(|sv| sv.kind == SKind::Plain)
            .cloned()
        else {
            return Ok(None);
        };
        let leaves = self.leaves(&sv.sname, a.span)?;
        let Some((_, vals)) = self.leaves_of(&inner, None)? else {
            return Ok(None);
        };
        Ok(Some(
            vals.into_iter()
                .zip(&leaves)
                .map(|((_, e), l)| {
                    if l.count > 0 {
                        e
                    } else {
                        Expr::new(ExprKind::AddrOf(Box::new(e)), a.span)
                    }
                })
                .collect(),
        ))
    }
}
