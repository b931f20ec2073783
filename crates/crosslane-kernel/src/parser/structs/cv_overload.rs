//! `const` member-function overloads: `int get()` and `int get() const` in one class are two
//! functions, and a call chooses by the receiver's cv-qualification.
//!
//! C++17 [over.match.funcs]/4: a non-static member function has an implicit object parameter
//! of type "lvalue reference to cv X", cv being the function's own cv-qualification; /5 and
//! [over.ics.ref]/1, [dcl.init.ref]/5: a const object binds no reference to non-const X, so
//! for a const receiver (a variable, reference or pointee declared `const`, or `*this` in a
//! const member function, [class.this]/1) only the const overload is viable; for a non-const
//! receiver both are, and the non-const one is better ([over.ics.rank]/3.2.6: the reference
//! to the less cv-qualified type wins).
//!
//! A const member function is kept under its name and also under `NAME const`
//! ([`const_key`]); when a non-const one of the name exists too, the name keys the non-const
//! and `NAME const` the const. Overloads with other parameter types are
//! [`super::method_overload`]'s (`NAME#N`), each of which may have its const pair here.

use super::{Method, StructDef};
use crate::ast::{Expr, ExprKind};

/// The key of `name`'s const overload in [`StructDef::methods`].
pub(crate) fn const_key(name: &str) -> String {
    format!("{name} const")
}

/// The device function and the keys a member function `name` of struct `sname` gets, given
/// whether it is `const` and what `def` already holds (a declaration in the class whose
/// definition follows reuses its function).
pub(super) fn member_keys(
    def: &StructDef,
    sname: &str,
    name: &str,
    is_const: bool,
) -> (String, Vec<String>) {
    let ckey = const_key(name);
    let own = |k: &str| -> Option<&Method> { def.methods.get(k).filter(|m| m.inherited.is_none()) };
    let plain = own(name);
    let konst = own(&ckey);
    let plain_is_const = match (plain, konst) {
        (Some(p), Some(c)) => p.func == c.func,
        _ => false,
    };
    if is_const {
        if let Some(c) = konst {
            // A definition of the const one declared before.
            let mut keys = vec![ckey];
            if plain_is_const {
                keys.push(name.to_string());
            }
            return (c.func.clone(), keys);
        }
        match plain {
            // The non-const one exists: this one is the const overload only.
            Some(_) => (format!("{sname}::{name} const"), vec![ckey]),
            None => (format!("{sname}::{name}"), vec![name.to_string(), ckey]),
        }
    } else {
        match plain {
            // The const one holds the name's function: this one is the non-const overload.
            Some(_) if plain_is_const => (
                format!("{sname}::{name} (non-const)"),
                vec![name.to_string()],
            ),
            Some(p) => (p.func.clone(), vec![name.to_string()]),
            None => (format!("{sname}::{name}"), vec![name.to_string()]),
        }
    }
}

impl super::super::Parser<'_> {
    /// Whether the receiver `r` of a member call is const: a variable or reference declared
    /// `const` (`const V& r`, `const V c`), the pointee of a pointer to const (`p->f()` of a
    /// `const V* p`), or `this` in a const member function.
    pub(super) fn const_receiver(&self, r: Option<&Expr>) -> bool {
        let named = |e: &Expr| match &e.kind {
            ExprKind::Ident(n) => self.const_names.contains(n),
            _ => false,
        };
        match r.map(|r| &r.kind) {
            Some(ExprKind::Ident(_)) => r.is_some_and(named),
            Some(ExprKind::Deref(x)) => named(x),
            _ => false,
        }
    }

    /// The key a call of `m` on struct `s` takes: `m`'s const overload for a const receiver
    /// when the struct has one apart from the non-const one.
    pub(super) fn cv_method_key(&self, s: &str, m: &str, receiver: Option<&Expr>) -> String {
        let ckey = const_key(m);
        let split =
            self.structs
                .get(s)
                .is_some_and(|d| match (d.methods.get(m), d.methods.get(&ckey)) {
                    (Some(p), Some(c)) => p.func != c.func,
                    _ => false,
                });
        if split && self.const_receiver(receiver) {
            ckey
        } else {
            m.to_string()
        }
    }
}
