//! Host constants read through a class: `Consts<E, B, 32>::VPT` and `C::VPT` of a block-scope
//! `using C = Consts<E, B, 32>;` in a host function (vLLM's `topkGatingSoftmaxLauncherHelper`:
//! `using Constants = detail::TopkConstants<EXPERTS, BYTES_PER_LDG, WARP_SIZE_PARAM>; static
//! constexpr int VPT = Constants::VPT;`). The host reading's own evaluator knows no classes, so
//! such an expression is read by the device parser, at its place in the source, with the host
//! constants it names (template parameters bound at the call, `constexpr` locals) bound as
//! constants for the reading: a class template's specialization is instantiated as a device
//! use of it would be (C++17 [temp.inst]/1), and its static data member's initializer is the
//! value ([class.static.data]/3: a `constexpr` static data member is initialized in the class).

use super::const_eval::HostVal;
use super::host::HostState;
use super::Parser;
use crate::ast::{Expr, Span};
use crate::lexer::Tok;

impl Parser<'_> {
    /// `using n = T;` at `from..to` (the aliased tokens) in a host function body, `T` a class
    /// template's specialization whose arguments are host constants: `n` names that
    /// specialization until the function ends ([dcl.typedef]/2). Whether it was read so.
    pub(super) fn host_class_alias(
        &mut self,
        st: &mut HostState,
        n: &str,
        from: usize,
        to: usize,
    ) -> bool {
        // `using acc_t = opmath_t<scalar_t>;` of an alias template or a class's member type
        // (`typename OpMath<T>::type`): the value type the device parser reads there.
        if let Some(v) = self.host_value_type_at(st, from, to) {
            let old = self.aliases.insert(n.to_string(), v);
            st.local_aliases.push((n.to_string(), old));
            return true;
        }
        let starts_class = matches!(
            self.toks.get(from).map(|t| &t.tok),
            Some(Tok::Ident(w)) if self.class_templates.contains_key(w)
        );
        if !starts_class {
            return false;
        }
        let bound = self.bind_host_idents(st, from, to);
        let read = self.struct_type_at(from);
        self.unbind_host_idents(bound);
        match read {
            Some((s, after)) if after == to => {
                let old = self.struct_alias.insert(n.to_string(), s);
                st.local_struct_aliases.push((n.to_string(), old));
                true
            }
            _ => false,
        }
    }

    /// The value type spelled by `from..to` as the device parser reads a type (a class
    /// template's member type, `typename OpMath<T>::type`, which an alias template such as
    /// `opmath_t<T>` expands to), with the host's constants bound; `None` unless it names one
    /// of the source's class templates and reads to its end as a value type.
    fn host_value_type_at(
        &mut self,
        st: &HostState,
        from: usize,
        to: usize,
    ) -> Option<crate::types::ValTy> {
        let toks = self.toks;
        let names_template = (from..to.min(toks.len()))
            .any(|i| matches!(&toks[i].tok, Tok::Ident(w) if self.class_templates.contains_key(w)));
        if !names_template {
            return None;
        }
        let bound = self.bind_host_idents(st, from, to);
        let save = (self.pos, self.gt_owed, self.diags.len(), self.pre.len());
        self.pos = from;
        self.gt_owed = None;
        let ty = self.base_type();
        let end = self.pos;
        self.pos = save.0;
        self.gt_owed = save.1;
        self.diags.truncate(save.2);
        self.pre.truncate(save.3);
        self.unbind_host_idents(bound);
        match ty {
            Ok(crate::types::Ty::Val(v)) if end == to => Some(v),
            _ => None,
        }
    }

    /// The integer value of host expression `from..to` that names a class's member (`C::m`,
    /// `Name<…>::m`), read by the device parser with the host constants bound; `None` when it
    /// names none, is not read to its end, or has no constant integer value.
    pub(super) fn host_class_value(
        &mut self,
        st: &HostState,
        from: usize,
        to: usize,
    ) -> Option<HostVal> {
        if !self.names_class_member(from, to) {
            return None;
        }
        let bound = self.bind_host_idents(st, from, to);
        let save = (self.pos, self.gt_owed, self.diags.len(), self.pre.len());
        // Before a launch's `>>>` (`k<<<1, C::RPW>>>`), a `>` ends the expression, as in a
        // template argument list ([temp.names]/3).
        let closes = matches!(
            self.toks.get(to).map(|t| &t.tok),
            Some(Tok::Punct(p)) if p.starts_with('>')
        );
        let no_gt = std::mem::replace(&mut self.no_gt, closes);
        self.pos = from;
        self.gt_owed = None;
        let e = self.expr();
        let end = self.pos;
        self.no_gt = no_gt;
        self.pos = save.0;
        self.gt_owed = save.1;
        // A side reading: what it would say or hoist belongs to no statement.
        self.diags.truncate(save.2);
        self.pre.truncate(save.3);
        self.unbind_host_idents(bound);
        let e = e.ok().filter(|_| end == to)?;
        self.fold_int(&e).map(HostVal::Int)
    }

    /// Whether `from..to` holds `X::m` with `X` one of the source's classes (a struct, an
    /// alias of one, a class template) or `…>::m` closing a template-id.
    fn names_class_member(&self, from: usize, to: usize) -> bool {
        let toks = self.toks;
        (from + 1..to.min(toks.len())).any(|i| {
            matches!(toks[i].tok, Tok::Punct("::"))
                && match &toks[i - 1].tok {
                    Tok::Ident(w) => self.is_struct_name(w),
                    Tok::Punct(">") => true,
                    _ => false,
                }
        })
    }

    /// Binds as constants the names in `from..to` that host code gives a constant integer and
    /// the source does not declare otherwise (no constant, class or template of that name, not
    /// a member, a qualified name's part or a call); returns each with what it hid.
    fn bind_host_idents(
        &mut self,
        st: &HostState,
        from: usize,
        to: usize,
    ) -> Vec<(String, Option<Expr>)> {
        let toks = self.toks;
        let mut bound: Vec<(String, Option<Expr>)> = Vec::new();
        for i in from..to.min(toks.len()) {
            let Tok::Ident(n) = &toks[i].tok else {
                continue;
            };
            let before = i.checked_sub(1).map(|j| &toks[j].tok);
            let after = toks.get(i + 1).map(|t| &t.tok);
            if matches!(before, Some(Tok::Punct("." | "->" | "::")))
                || matches!(after, Some(Tok::Punct("(" | "::")))
                || self.consts.contains_key(n)
                || self.is_struct_name(n)
                || self.templates.contains_key(n)
                || bound.iter().any(|(b, _)| b == n)
            {
                continue;
            }
            let Some(v) = self
                .host_value(st, i, i + 1)
                .and_then(HostVal::int)
                .and_then(|v| i64::try_from(v).ok())
            else {
                continue;
            };
            let at = Span {
                line: toks[i].line,
                col: toks[i].col,
            };
            let e = self.e_int(at, v);
            let old = self.consts.insert(n.clone(), e);
            bound.push((n.clone(), old));
        }
        bound
    }

    /// Puts back what [`Self::bind_host_idents`] hid.
    fn unbind_host_idents(&mut self, bound: Vec<(String, Option<Expr>)>) {
        for (n, old) in bound.into_iter().rev() {
            match old {
                Some(e) => self.consts.insert(n, e),
                None => self.consts.remove(&n),
            };
        }
    }

    /// `from..to` split at its top-level commas, as [`super::host::split_commas`] does, a
    /// template argument list counting as brackets: a `<` after the name of one of the
    /// source's templates opens one (C++17 [temp.names]/3), so `int v = Consts<E, 16>::VPT;`
    /// is one declarator.
    pub(super) fn split_commas_tmpl(&self, from: usize, to: usize) -> Vec<(usize, usize)> {
        let toks = self.toks;
        let mut parts = Vec::new();
        // Open brackets, innermost last: `true` for a template argument list.
        let mut open: Vec<bool> = Vec::new();
        let mut start = from;
        for k in from..to.min(toks.len()) {
            match &toks[k].tok {
                Tok::Punct("(" | "[" | "{") => open.push(false),
                Tok::Punct("<")
                    if k > from
                        && matches!(&toks[k - 1].tok, Tok::Ident(w)
                            if self.class_templates.contains_key(w)
                                || self.templates.contains_key(w)) =>
                {
                    open.push(true)
                }
                Tok::Punct(">") if open.last() == Some(&true) => {
                    open.pop();
                }
                Tok::Punct(">>") if open.last() == Some(&true) => {
                    open.pop();
                    if open.last() == Some(&true) {
                        open.pop();
                    }
                }
                Tok::Punct(")" | "]" | "}") => {
                    // Closes its own bracket and any template list left open inside it.
                    while open.pop() == Some(true) {}
                }
                Tok::Punct(",") if open.is_empty() => {
                    parts.push((start, k));
                    start = k + 1;
                }
                _ => {}
            }
        }
        if start < to {
            parts.push((start, to));
        }
        parts
    }
}
