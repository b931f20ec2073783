//! Base classes (`struct D : B { … }`, [class.derived]) whose members are data, static
//! constant members and member types: composable_kernel's `Number<N> : integral_constant<…, N>`,
//! a struct that extends another's fields.
//!
//! The base's data members come first, in declaration order, then the derived class's own: the
//! layout the Itanium C++ ABI (2.4, "Allocation of Members Other Than Virtual Bases") gives a
//! non-virtual base subobject, which sits before the derived class's members; an empty base
//! adds no bytes ([intro.object]/8, the empty-base layout). Its static members and member types
//! are found through the derived class ([class.member.lookup]): `D::value`, and `value` inside
//! `D`'s member functions.
//!
//! Refused at the base, with what to write instead: a virtual base, and a base with member
//! functions, constructors, operators or unions (calling the base's member functions on a derived
//! object is not modelled).

use super::*;

impl Parser<'_> {
    /// The base-specifier list after `:` (the `:` at the cursor), up to the class body's `{`:
    /// each base's struct name, a class template's instance made as a type would be.
    ///
    /// # Errors
    /// A virtual base, or a base that is not a struct defined above.
    pub(super) fn base_clause(&mut self) -> PResult<Vec<String>> {
        self.bump(); // `:`
        let mut bases = Vec::new();
        loop {
            while self.is_word("public") || self.is_word("private") || self.is_word("protected") {
                self.bump();
            }
            if self.is_word("virtual") {
                return self.unsupported(
                    "a virtual base class is not supported; copy the base's members into the struct",
                );
            }
            let at = self.span();
            let Some(base) = self.struct_type()? else {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "a base class must be a struct or class defined above (or an instance of a \
                     class template); copy the base's members into the struct",
                ));
            };
            bases.push(base);
            if !self.eat(",") {
                return Ok(bases);
            }
        }
    }

    /// Gives struct `sname` the members of each of `bases`, in order: data members (and
    /// bit-fields) first, member types, and static constant members as `sname::NAME` and, while
    /// the struct's body and member functions are read, as the bare `NAME` (pushed on
    /// `statics`, which the caller removes after them).
    ///
    /// # Errors
    /// A base with member functions, constructors, operators, unions or unnamed bit-fields.
    pub(super) fn inherit(
        &mut self,
        sname: &str,
        bases: &[String],
        statics: &mut Vec<String>,
        at: Span,
    ) -> PResult<()> {
        for base in bases {
            let Some(def) = self.structs.get(base).cloned() else {
                continue;
            };
            if !def.methods.is_empty()
                || !def.ctors.is_empty()
                || def.shared_view.is_some()
                || def.subscript.is_some()
                || !def.views.is_empty()
                || def.union_first.is_some()
                || !def.bit_pads.is_empty()
            {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "`{base}` has member functions, constructors, operators or unions: a base \
                         class with those is not supported (its data members, static constants \
                         and member types are); copy the base's members into the struct"
                    ),
                ));
            }
            let prefix = format!("{base}::");
            let inherited: Vec<(String, Expr)> = self
                .consts
                .iter()
                .filter_map(|(k, v)| k.strip_prefix(&prefix).map(|n| (n.to_string(), v.clone())))
                .collect();
            for (name, value) in inherited {
                self.consts
                    .insert(format!("{sname}::{name}"), value.clone());
                self.consts.insert(name.clone(), value);
                statics.push(name);
            }
            if let Some(d) = self.structs.get_mut(sname) {
                d.fields.extend(def.fields);
                d.member_types.extend(def.member_types);
                d.bitfields.extend(def.bitfields);
            }
        }
        Ok(())
    }
}
