//! Local references: `float& r = vals[i];`, `auto& v = a.x;`, `const auto& c = s[k];`
//! (C++17 [dcl.ref]/1, [dcl.init.ref]/5.1: a reference bound to an lvalue names that object,
//! so a write through it changes the object and a read sees the object's latest value). The
//! front end lowers the reference to its object: each later use of the name reads or writes
//! the place the initializer named. An index in that place is evaluated once, at the
//! declaration ([dcl.init.ref]/5: the reference is bound then), into a hidden local, so
//! `float& r = a[i]; ++i; r = 1;` still writes `a[old i]`.
//!
//! A `const T&` bound to a value that is not such a place (`const float& c = x * 2;`) binds a
//! temporary whose lifetime is the reference's ([class.temporary]/6), which no one else can
//! write: a `const` local of the value. A reference to non-`const` bound to anything else is
//! refused at its initializer, naming what to write.

use std::collections::HashMap;

use super::{PResult, Parser};
use crate::ast::{Declarator, Expr, ExprKind, NodeId};
use crate::types::Ty;
use crate::KernelError;

/// The local references in scope: by (scope index, name), the place each names.
pub(super) type LocalRefs = HashMap<(usize, String), Expr>;

/// The scope entry marking a name as a local reference (the scope's own map ends it with the
/// block).
fn marker(name: &str) -> String {
    format!("ref:{name}")
}

impl Parser<'_> {
    /// The place local reference `name` names, if the nearest declaration of `name` is one.
    pub(super) fn local_ref_of(&self, name: &str) -> Option<&Expr> {
        let i = (0..self.scopes.len())
            .rev()
            .find(|&i| self.scopes[i].contains_key(name))?;
        if !self.scopes[i].contains_key(&marker(name)) {
            return None;
        }
        self.local_refs.get(&(i, name.to_string()))
    }

    /// `T& name = init;` (`ty` the declared value type, `is_const` for `const T&`): `name`
    /// declared as a second name of the place `init` names. Returns the hidden locals its
    /// indices are held in (to declare before it), or `None` when a `const` reference binds a
    /// value that is no place (the caller declares a `const` local of the value).
    ///
    /// # Errors
    /// A reference to non-`const` bound to something that is not a variable, an array or
    /// buffer cell or a member.
    pub(super) fn local_reference(
        &mut self,
        name: &str,
        ty: Ty,
        is_const: bool,
        init: &Expr,
    ) -> PResult<Option<Vec<Declarator>>> {
        let mut hidden = Vec::new();
        // `uint32_t& u = reinterpret_cast<uint32_t&>(h2);`: a second name of the view of
        // `h2`'s bytes, read and written as `super::ref_cast` reads and writes it, its index
        // bound once as any reference's.
        if self.ref_cast_writable(init) {
            if let ExprKind::Call(n, args) = &init.kind {
                if let Some(x) = self.ref_place(&args[1], &mut hidden)? {
                    let view = Expr::new(
                        ExprKind::Call(n.clone(), vec![args[0].clone(), x]),
                        init.span,
                    );
                    self.bind_name(name, ty, view);
                    return Ok(Some(hidden));
                }
            }
        }
        let Some(place) = self.ref_place(init, &mut hidden)? else {
            if is_const {
                return Ok(None);
            }
            return Err(KernelError::new(
                init.span.line,
                init.span.col,
                format!(
                    "`{name}` is a reference to non-`const`, so it must be bound to a variable, \
                     an array or buffer cell or a member that is not a bit-field \
                     ([dcl.init.ref]/5); bind it to one, make it `const`, or declare a local \
                     (drop the `&`)"
                ),
            ));
        };
        self.bind_name(name, ty, place);
        Ok(Some(hidden))
    }

    /// Declares `name` (of type `ty`) as a second name of `place`, an expression without
    /// effects that names an object (its indices already held in locals).
    pub(super) fn bind_name(&mut self, name: &str, ty: Ty, place: Expr) {
        self.declare(name, ty);
        self.declare(&marker(name), Ty::Void);
        let i = self.scopes.len().saturating_sub(1);
        self.local_refs.insert((i, name.to_string()), place);
    }

    /// `auto& s2 = s;` of a struct variable `s`: `s2` declared as a second name of `s`'s
    /// members, `Some` with no hidden locals; `auto& p = pairs[i];` of an element of a local
    /// struct array: `p` a second name of the element (the place `pairs[i]`, its index held in
    /// a hidden local returned here, bound once as [dcl.init.ref]/5 binds a reference); `None`
    /// when `init` is no struct.
    ///
    /// # Errors
    /// A struct that is no variable and no element of one (`auto& r = make();`).
    pub(super) fn struct_reference(
        &mut self,
        name: &str,
        init: &Expr,
    ) -> PResult<Option<Vec<Declarator>>> {
        if self.struct_of(init).is_none() {
            return Ok(None);
        }
        let sv = match &init.kind {
            ExprKind::Ident(n) => self.var_struct(n).cloned(),
            _ => None,
        };
        let Some(sv) = sv else {
            let mut hidden = Vec::new();
            if let Some(place) = self.ref_place(init, &mut hidden)? {
                self.bind_name(name, Ty::Void, place);
                return Ok(Some(hidden));
            }
            return Err(KernelError::new(
                init.span.line,
                init.span.col,
                format!(
                    "the reference `{name}` is bound to a struct that is no variable, array \
                     element or member, which is not supported ([dcl.init.ref]/5.2: a reference \
                     to non-`const` binds an lvalue); copy it (`auto {name} = …;`)"
                ),
            ));
        };
        let leaves = self.leaves(&sv.sname, init.span)?;
        self.declare_svar(name, sv, &leaves);
        Ok(Some(Vec::new()))
    }

    /// [`Self::ref_place`] for a structured binding's `auto&` ([`super::struct_bind`]).
    pub(super) fn ref_place_of(
        &mut self,
        e: &Expr,
        hidden: &mut Vec<Declarator>,
    ) -> PResult<Option<Expr>> {
        self.ref_place(e, hidden)
    }

    /// The place `e` names with each index that is not a name or a literal moved into a hidden
    /// local (`hidden`); `None` when `e` names no place.
    fn ref_place(&mut self, e: &Expr, hidden: &mut Vec<Declarator>) -> PResult<Option<Expr>> {
        let kind = match &e.kind {
            ExprKind::Ident(n) => {
                let known = self.var_type(n).is_some()
                    || self.var_struct(n).is_some()
                    || self.self_field(n).is_some();
                return Ok(known.then(|| e.clone()));
            }
            // A bit-field is no place a reference may name ([dcl.init.ref]/5.1).
            ExprKind::Member(b, f)
                if self
                    .struct_of(b)
                    .is_some_and(|s| self.bitfield_path(&s, f).is_some()) =>
            {
                return Ok(None)
            }
            ExprKind::Member(b, f) => match self.ref_place(b, hidden)? {
                Some(b) => ExprKind::Member(Box::new(b), f.clone()),
                None => return Ok(None),
            },
            ExprKind::Index(b, i) => {
                let Some(b) = self.ref_place(b, hidden)? else {
                    return Ok(None);
                };
                let i = match &i.kind {
                    ExprKind::Int { .. } => i.as_ref().clone(),
                    _ => {
                        let Some(ity) = self.expr_type(i) else {
                            return Err(KernelError::new(
                                i.span.line,
                                i.span.col,
                                "cannot tell the type of this index, which a reference binds \
                                 once: compute it into a local first",
                            ));
                        };
                        let n = format!("__ref{}", self.ref_count);
                        self.ref_count += 1;
                        let init = self.lower_struct(i.as_ref().clone())?;
                        self.declare(&n, Ty::Val(ity));
                        hidden.push(Declarator {
                            name: n.clone(),
                            ty: Ty::Val(ity),
                            array: None,
                            init: Some(init),
                            span: i.span,
                            id: NodeId::fresh(),
                        });
                        Expr::new(ExprKind::Ident(n), i.span)
                    }
                };
                ExprKind::Index(Box::new(b), Box::new(i))
            }
            _ => return Ok(None),
        };
        Ok(Some(Expr::new(kind, e.span)))
    }
}
