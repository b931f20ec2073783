//! Base classes (`struct D : B { … }`, [class.derived]) with data members, static constant
//! members, member types and member functions: composable_kernel's `Number<N> :
//! integral_constant<…, N>`, a struct that extends another's fields and calls its functions.
//!
//! The base's data members come first, in declaration order, then the derived class's own: the
//! layout the Itanium C++ ABI (2.4, "Allocation of Members Other Than Virtual Bases") gives a
//! non-virtual base subobject, which sits before the derived class's members; an empty base
//! adds no bytes ([intro.object]/8, the empty-base layout). Its static members and member types
//! are found through the derived class ([class.member.lookup]): `D::value`, and `value` inside
//! `D`'s member functions.
//!
//!
//! A base's member functions are members of the derived class too ([class.derived]/2), found by
//! name lookup unless the derived class declares a member of the same name, which hides them
//! ([class.member.lookup]/1): `d.twice()`, `twice()` and `this->twice()` in a member function of
//! `D`, and `Base::twice()` (qualified lookup, [class.qual]/1) that reaches the base's function
//! even where `D` hides it. The base's function is the device function it already is, taking the
//! base's leaves as references; since the base subobject's leaves are a contiguous run of the
//! derived object's (from the offset kept in [`StructDef::bases`]), a call passes that run
//! ([`Method::inherited`]). Member functions are not virtual here: `virtual` is refused where it
//! is written.
//!
//! Refused at the base, with what to write instead: a virtual base, a base with constructors,
//! operators (other than `operator()`), member function templates or unions, and two bases
//! declaring a member function of one name (a call would be ambiguous, [class.member.lookup]/6).

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
    /// bit-fields) first, member functions (each with its base's place, [`Method::inherited`]),
    /// member types, and static constant members as `sname::NAME` and, while
    /// the struct's body and member functions are read, as the bare `NAME` (pushed on
    /// `statics`, which the caller removes after them).
    ///
    /// # Errors
    /// A base with constructors, operators, member function templates, unions or unnamed
    /// bit-fields; two bases with a member function of one name.
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
            let operators = self.member_ops.get(base).is_some_and(|o| !o.is_empty());
            let mut templates = self.method_templates.values().any(|s| s == base);
            if templates && def.fields.is_empty() && def.bases.is_empty() {
                // An empty base whose members are member function templates (a tag such as
                // `struct Max { template <class T> T operator()(const T&, const T&) const; }`
                // that `struct MyMax : Max {}` derives from to be recognized): its templates are
                // the derived class's members ([class.derived]/2), instantiated on the derived
                // object, which holds no leaf of the base's.
                self.inherit_member_templates(base, sname);
                templates = false;
            }
            if !def.ctors.is_empty()
                || operators
                || templates
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
                        "`{base}` has constructors, operators, member function templates or \
                         unions: a base class with those is not supported (its data members, \
                         member functions, static constants and member types are); copy the \
                         base's members into the struct"
                    ),
                ));
            }
            // The base subobject's first leaf: after the bases before it ([class.derived]/3,
            // the Itanium ABI's order of base subobjects).
            let offset = self.leaves(sname, at)?.len();
            let mut inherited_fns = Vec::new();
            for (mname, m) in &def.methods {
                let mut m = m.clone();
                m.inherited = Some(match m.inherited.take() {
                    Some((owner, o)) => (owner, offset + o),
                    None => (base.clone(), offset),
                });
                inherited_fns.push((mname.clone(), m));
            }
            if let Some(d) = self.structs.get(sname) {
                if let Some((mname, _)) = inherited_fns
                    .iter()
                    .find(|(n, _)| d.methods.contains_key(n))
                {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!(
                            "two base classes of `{sname}` declare a member function `{mname}`: \
                             a call would be ambiguous ([class.member.lookup]/6); declare \
                             `{mname}` in `{sname}` and call the base's one as `Base::{mname}()`"
                        ),
                    ));
                }
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
                d.methods.extend(inherited_fns);
                d.bases.push((base.clone(), offset));
                d.direct_bases.push((base.clone(), def.fields.len()));
                d.bases
                    .extend(def.bases.iter().map(|(b, o)| (b.clone(), offset + o)));
                d.fields.extend(def.fields);
                d.member_types.extend(def.member_types);
                d.bitfields.extend(def.bitfields);
            }
        }
        Ok(())
    }
}

impl Parser<'_> {
    /// The index of base `base`'s first leaf among struct `derived`'s leaves, when `base` is a
    /// (direct or indirect) base class of `derived`.
    pub(in crate::parser) fn base_offset(&self, derived: &str, base: &str) -> Option<usize> {
        let d = self.structs.get(derived)?;
        d.bases.iter().find(|(b, _)| b == base).map(|(_, o)| *o)
    }

    /// The receiver's leaves a call of `method` (found in struct `s`, on a receiver of struct
    /// `rs`) passes: all of them for the struct's own function, else the run of the base
    /// subobject whose function it is ([`Method::inherited`]); with that struct's name.
    ///
    /// # Errors
    /// `rs` is not `s` nor derived from it (the member is not the receiver's,
    /// [class.member.lookup]), or its leaves do not hold the base's (a malformed base).
    pub(super) fn subobject_leaves(
        &self,
        rs: &str,
        s: &str,
        method: &Method,
        leaves: Leaves,
        span: Span,
    ) -> PResult<(String, Leaves)> {
        let (owner, inner) = method
            .inherited
            .clone()
            .unwrap_or_else(|| (s.to_string(), 0));
        let outer = if rs == s {
            0
        } else {
            self.base_offset(rs, s).ok_or_else(|| {
                KernelError::new(
                    span.line,
                    span.col,
                    format!("`{s}` is not a base class of `{rs}`: its member functions are not `{rs}`'s"),
                )
            })?
        };
        let start = outer + inner;
        if start == 0 && owner == rs {
            return Ok((owner, leaves));
        }
        let n = self.leaves(&owner, span)?.len();
        if start + n > leaves.len() {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!("`{rs}` does not hold a `{owner}` subobject here"),
            ));
        }
        let run = leaves.into_iter().skip(start).take(n).collect();
        Ok((owner, run))
    }

    /// The refusal of a base clause (from token `from`) that names the class being defined,
    /// `name`, as a template argument (`struct Sq : Base<Sq>`, the curiously recurring
    /// template pattern), when that clause could not be read: the base's member functions
    /// are made with the base here, before `name` is complete ([class.mem]/6), so the
    /// `static_cast<D*>(this)->op(x)` they hold names nothing yet. `None` for another clause.
    pub(super) fn crtp_refusal(&self, name: &str, from: usize) -> Option<KernelError> {
        let mut depth = 0usize;
        let mut i = from;
        // Bounded by the tokens up to the class body's `{`.
        while let Some(t) = self.toks.get(i) {
            match &t.tok {
                Tok::Punct("{") if depth == 0 => break,
                Tok::Punct("<") => depth += 1,
                Tok::Punct(">") => depth = depth.saturating_sub(1),
                Tok::Punct(">>") => depth = depth.saturating_sub(2),
                Tok::Ident(w) if w == name && depth > 0 => {
                    let at = self.toks.get(from + 1).unwrap_or(t);
                    return Some(KernelError::new(
                        at.line,
                        at.col,
                        format!(
                            "`{name}` derives from a base that takes `{name}` itself as a \
                             template argument (the curiously recurring template pattern) in a \
                             shape not supported: a base with a constructor, a destructor or a \
                             base of its own, or a derived class template (the base's members \
                             are written into `{name}` only without those). Write the shared member function \
                             in `{name}` itself, or as a free template taking the object \
                             (`template <class D> __device__ float run(D& d, float x) {{ \
                             return d.op(x); }}`, called `run(s, x)`)"
                        ),
                    ));
                }
                _ => {}
            }
            i += 1;
        }
        None
    }
}

impl Parser<'_> {
    /// A call's class arguments bound to a parameter of one of their base classes (`f(op)` with
    /// `struct Op : Base {}` and `f(const Base& b)` or `f(Base b)`): the base subobject's
    /// leaves, the run at the base's place in the argument's ([conv.ptr]/3 and
    /// [over.best.ics]/6: a derived-to-base conversion binds the reference to, or copies, the
    /// base class subobject), where every declared overload of `name` takes that base there.
    /// Every other argument is expanded as [`Parser::expand_args`] does.
    ///
    /// # Errors
    /// An argument that cannot be expanded.
    pub(crate) fn expand_args_to_bases(
        &mut self,
        name: &str,
        args: Vec<Expr>,
    ) -> PResult<Vec<Expr>> {
        let mut out = Vec::new();
        for (i, a) in args.into_iter().enumerate() {
            // `f(&d)` with `f(Base* b)`: the base subobject's address ([conv.ptr]/3), its
            // leaves' pointers the run at the base's place among the derived object's.
            if let ExprKind::AddrOf(x) = &a.kind {
                let base = self
                    .struct_of(x)
                    .and_then(|d| Some((self.base_ptr_param_at(name, i, &d)?, d)));
                if let Some((b, d)) = base {
                    let span = a.span;
                    let all = self.expand_args(vec![a.clone()])?;
                    let start = self.base_offset(&d, &b).unwrap_or(0);
                    let n = self.leaves(&b, span)?.len();
                    if all.len() == self.leaves(&d, span)?.len() && start + n <= all.len() {
                        out.extend(all.into_iter().skip(start).take(n));
                        continue;
                    }
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        format!(
                            "a `{d}*` passed as a `{b}*` is not supported in this form; pass the \
                             object by reference (`{b}& b`, called `{name}(obj)`)"
                        ),
                    ));
                }
            }
            let base = self
                .struct_of(&a)
                .and_then(|d| Some((self.base_param_at(name, i, &d)?, d)));
            if let Some((b, d)) = base {
                let span = a.span;
                if let Some((_, leaves)) = self.leaves_of(&a, None)? {
                    let start = self.base_offset(&d, &b).unwrap_or(0);
                    let n = self.leaves(&b, span)?.len();
                    if start + n <= leaves.len() {
                        out.extend(leaves.into_iter().skip(start).take(n).map(|(_, e)| e));
                        continue;
                    }
                }
                out.extend(self.expand_args(vec![a])?);
                continue;
            }
            out.extend(self.expand_args(vec![a])?);
        }
        Ok(out)
    }

    /// The base class of `derived` that every declared overload of `name` takes by pointer
    /// (`Base* b`) at parameter `i`, when there is one such and it is not `derived` itself.
    fn base_ptr_param_at(&self, name: &str, i: usize, derived: &str) -> Option<String> {
        use super::super::overload::PType;
        let mut want: Option<String> = None;
        for f in self.fn_sets.values().flatten().filter(|f| f.key == name) {
            let PType::StructPtr(b) = &f.params.get(i)?.ty else {
                return None;
            };
            if want.as_ref().is_some_and(|w| w != b) {
                return None;
            }
            want = Some(b.clone());
        }
        let b = want?;
        (b != derived && self.base_offset(derived, &b).is_some()).then_some(b)
    }

    /// The base class of `derived` that every declared overload of `name` takes at parameter
    /// `i` (for a function template's instance, `run<float>`, the template's parameter as
    /// written), when there is one such and it is not `derived` itself.
    fn base_param_at(&self, name: &str, i: usize, derived: &str) -> Option<String> {
        use super::super::overload::PType;
        let mut want: Option<String> = None;
        for f in self.fn_sets.values().flatten().filter(|f| f.key == name) {
            let PType::Struct(b) = &f.params.get(i)?.ty else {
                return None;
            };
            if want.as_ref().is_some_and(|w| w != b) {
                return None;
            }
            want = Some(b.clone());
        }
        if want.is_none() {
            let (tname, _) = name.split_once('<')?;
            let t = self.templates.get(tname)?;
            let list = super::super::overload::param_tokens(t.tokens())?;
            let param = super::super::overload::split_params(list)
                .into_iter()
                .nth(i)?;
            // A parameter naming a struct (by value or reference, not through a pointer) that
            // is no template parameter of the template.
            if param.iter().any(|tk| matches!(tk.tok, Tok::Punct("*"))) {
                return None;
            }
            want = param.iter().find_map(|tk| match &tk.tok {
                Tok::Ident(w)
                    if self.structs.contains_key(w) && !t.params().iter().any(|p| &p.name == w) =>
                {
                    Some(w.clone())
                }
                _ => None,
            });
        }
        let b = want?;
        (b != derived && self.base_offset(derived, &b).is_some()).then_some(b)
    }
}

impl Parser<'_> {
    /// Records the member function templates of empty struct `base` as `derived`'s too (see
    /// [`Parser::inherit`]): each `base::name` (and overload `base::name#N`) again as
    /// `derived::name`, its class bindings naming `derived` as the owner. A template `derived`
    /// declares itself keeps its own (it hides the base's, [class.member.lookup]/1).
    fn inherit_member_templates(&mut self, base: &str, derived: &str) {
        let prefix = format!("{base}::");
        let keys: Vec<String> = self
            .method_templates
            .iter()
            .filter(|(k, owner)| owner.as_str() == base && k.starts_with(&prefix))
            .map(|(k, _)| k.clone())
            .collect();
        for key in keys {
            let new_key = format!("{derived}::{}", &key[prefix.len()..]);
            if self.method_templates.contains_key(&new_key) {
                continue;
            }
            self.method_templates
                .insert(new_key.clone(), derived.to_string());
            if let Some(t) = self.templates.get(&key).cloned() {
                let t = t.with_owner(derived);
                self.templates.insert(new_key, t);
            }
        }
    }
}
