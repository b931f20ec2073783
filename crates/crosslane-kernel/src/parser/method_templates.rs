//! Non-static member function templates (C++17 [temp.mem]/1, called as [temp.names]/4 writes
//! them: `f.get<2>()`, `f.template get<2>()`, `p->get<1>()`, `f.reduce(MaxOp{})`), the shape
//! of CUTLASS-style fragments and tile structs.
//!
//! The template is kept as `S::name` ([`super::member_templates`]). A call on an object of
//! `S` binds the template's arguments (explicit, then deduced from the call's arguments, as
//! for any function template) and parses the instance at once as a member function of `S`:
//! the receiver's leaves are its leading reference parameters, as for any member function
//! ([`super::structs`]), and `this->` and the members read the object. The instance is then a
//! method of `S` under its mangled name, so the call lowers as any member call does.

use super::templates::MAX_EAGER;
use super::{PResult, Parser};
use crate::ast::{Expr, ExprKind, Function, Span};
use crate::KernelError;

impl Parser<'_> {
    /// After `recv.` or `recv->` and the member's name `field`: the call of a member function
    /// template of `recv`'s struct, if `field` names one (explicit arguments `<…>`, then the
    /// call's arguments); `None` (nothing read) otherwise.
    ///
    /// # Errors
    /// `recv.name<` where the struct has no member `name`; arguments that bind no instance;
    /// an error in the instance; instances nested more than [`MAX_EAGER`] deep (each is
    /// parsed at its call).
    pub(super) fn method_template_call(
        &mut self,
        recv: &Expr,
        field: &str,
        span: Span,
    ) -> PResult<Option<Expr>> {
        if !(self.is_punct("<") || self.is_punct("(")) || self.structs.is_empty() {
            return Ok(None);
        }
        let Some(s) = self.struct_of(recv) else {
            return Ok(None);
        };
        let mut key = format!("{s}::{field}");
        // A lambda's call operator template is kept as `__call` ([`super::lambda_generic`]).
        let call = format!("{s}::{}", super::lambda_generic::CALL);
        if field == "operator()"
            && !self.method_templates.contains_key(&key)
            && self.method_templates.contains_key(&call)
        {
            key = call;
        }
        if !self.method_templates.contains_key(&key) {
            let def = self.structs.get(&s);
            let member = def.is_some_and(|d| {
                d.fields.iter().any(|f| f.name == field)
                    || d.views.iter().any(|v| v.name == field)
                    || d.methods.contains_key(field)
            });
            if self.is_punct("<") && !member {
                // Else `f.nope<0>()` reads as comparisons and fails at the `)`.
                let hint = if self.templates.contains_key(&key) {
                    format!(" (it is a static member template: call it `{s}::{field}<…>(…)`)")
                } else {
                    String::new()
                };
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!("`{s}` has no member function template `{field}`{hint}"),
                ));
            }
            return Ok(None);
        }
        let given = if self.is_punct("<") {
            self.template_args()?
        } else {
            Vec::new()
        };
        let args = self.call_args()?;
        let mangled = self.instantiate_method_now(&key, given, &args, span)?;
        let mut all = vec![recv.clone()];
        all.extend(args);
        self.node(ExprKind::Call(format!("@m:{mangled}"), all), span)
            .map(Some)
    }

    /// The instance of member function template `key` (`S::name`) for explicit arguments
    /// `given` and call arguments `args`, parsed now so that the call lowers through the
    /// method the instance registers in `S`: its mangled name.
    ///
    /// # Errors
    /// Arguments that bind no instance; an error in the instance; instances nested more than
    /// [`MAX_EAGER`] deep.
    pub(super) fn instantiate_method_now(
        &mut self,
        key: &str,
        given: Vec<super::targs::TArg>,
        args: &[Expr],
        span: Span,
    ) -> PResult<String> {
        let mangled = self.instantiate_call(key, given, args, span)?;
        if let Some(i) = self.pending.iter().position(|p| p.0 == mangled) {
            if self.eager >= MAX_EAGER {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!(
                        "`{mangled}` is a member template instance nested more than {MAX_EAGER} \
                         deep in others; call a free function template instead"
                    ),
                ));
            }
            let p = self.pending.remove(i);
            if let Some(f) = self.instantiate_one(p)? {
                self.extra_fns.push(f);
            }
        }
        Ok(mangled)
    }

    /// Whether `name`, read bare in a member function of a struct, names a member function
    /// template of that struct (called on `this`, [class.mfct.non-static]/2).
    pub(super) fn own_method_template(&self, name: &str) -> bool {
        (self.is_punct("<") || self.is_punct("("))
            && self.var_type(name).is_none()
            && self
                .self_struct
                .as_ref()
                .is_some_and(|s| self.method_templates.contains_key(&format!("{s}::{name}")))
    }

    /// `warp_or_ub(x, buf, 0)` called bare in a member of the class that declares the static
    /// member template `warp_or_ub`: the key of that template (`S::warp_or_ub`), which class
    /// scope finds before a free function of the name ([basic.lookup.unqual]/8); `None` when
    /// the name is a variable, a non-static member template, or no member of the class.
    pub(super) fn own_static_template(&self, name: &str) -> Option<String> {
        if !(self.is_punct("<") || self.is_punct("(")) || self.var_type(name).is_some() {
            return None;
        }
        let key = format!("{}::{name}", self.self_struct.as_ref()?);
        (self.templates.contains_key(&key) && !self.method_templates.contains_key(&key))
            .then_some(key)
    }

    /// The function of an instance `mangled` of template `name`: a member function of its
    /// struct when the template is a non-static member one, else a free function.
    ///
    /// # Errors
    /// The instance's parse errors.
    pub(super) fn instance_body(&mut self, name: &str, mangled: &str) -> PResult<Option<Function>> {
        let Some(s) = self.method_templates.get(name).cloned() else {
            return self.function();
        };
        // An overload's key (`S::name#2`) names the member `name`.
        let mname = crate::ast::overload_base(name.strip_prefix(&format!("{s}::")).unwrap_or(name))
            .to_string();
        // The instance registers itself under the template's own name: that entry is moved
        // to the mangled name, and a non-template member of that name put back.
        let previous = self
            .structs
            .get(&s)
            .and_then(|d| d.methods.get(&mname).cloned());
        // Its `NAME const` key too ([`super::structs`]' const overloads): an instance of a
        // const member template must not leave it behind for the next instance to reuse.
        let ckey = super::structs::const_key(&mname);
        let previous_const = self
            .structs
            .get(&s)
            .and_then(|d| d.methods.get(&ckey).cloned());
        let saved = self.self_struct.replace(s.clone());
        let r = self.member_function(&s, &s);
        self.self_struct = saved;
        r?;
        if let Some(def) = self.structs.get_mut(&s) {
            if let Some(mut m) = def.methods.remove(&mname) {
                // Its tile parameters' pairs ([`super::cg_tile_meta`]) go with the name.
                if let Some(t) = self.tile_meta_fns.remove(&m.func) {
                    self.tile_meta_fns.insert(mangled.to_string(), t);
                }
                m.func = mangled.to_string();
                def.methods.insert(mangled.to_string(), m);
            }
            def.methods.remove(&ckey);
            if let Some(p) = previous_const {
                def.methods.insert(ckey, p);
            }
            if let Some(p) = previous {
                def.methods.insert(mname, p);
            }
        }
        Ok(self.extra_fns.pop())
    }
}
