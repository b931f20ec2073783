//! Generic lambdas: `[&](auto a, auto b) { return a + b; }`, `[](const auto& x) { … }`, and
//! template lambdas `[&]<int N>() { … }` (C++20 [expr.prim.lambda]/1), called as
//! `f.template operator()<4>()` (rocm-examples' `static_for` shape).
//!
//! C++17 [expr.prim.lambda.closure]/3: the closure type of a generic lambda has a call
//! operator *template*, one invented type parameter per `auto` in the parameter list, so each
//! call instantiates it for its arguments' types ([temp.deduct.call]). It is built here as that:
//! the closure struct `lambda#N` with a member function template `__call` over the lambda's own
//! tokens (`template <typename __auto0, …> __device__ auto __call(__auto0 a, …) { body }`,
//! [`super::member_templates`]), instantiated at each call of the closure
//! ([`Parser::closure_call_template`]) as any member function template is
//! ([`super::method_templates`]). The body is parsed per instance, away from the enclosing
//! function, so the captured variables are found before: each name of an enclosing scope's
//! variable the body spells (not after `.`, `->` or `::`) is a member of the closure, by
//! reference or by copy as the capture list says ([expr.prim.lambda.capture]/8, /10; naming a
//! variable the body then hides only captures one more member, unread). A captured struct
//! variable used through member paths (`s.data[i]`, `s.inner.x`, ck_tile's multi-word shuffle)
//! is each leaf variable those paths name, captured as a scalar or array is and spelled as one
//! name in the instance's tokens. Refused, named: a captured struct used whole (capture its
//! members into scalars first), `auto...` packs, a generic lambda inside a member function that
//! reads the class's members (`[this]`).

use super::structs::{Field, FieldTy, StructDef};
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::{Tok, Token};
use crate::types::Ty;
use crate::KernelError;

/// The member template's name in the closure struct: not a name a source can collide with
/// (identifiers with `__` are reserved to the implementation, [lex.name]/3).
pub(super) const CALL: &str = "__call";

impl Parser<'_> {
    /// The lambda from its parameter list's `(` (at the cursor) on, when a parameter's type is
    /// `auto` or the lambda has a written template parameter list (`written`, the tokens
    /// between `<` and `>` of `[&]<int N>(…)`, C++20): the closure struct `name` and its call
    /// operator template recorded; the value is the closure made from the captured variables.
    ///
    /// # Errors
    /// A captured struct, an `auto...` pack, a bracket never closed, the template's errors.
    pub(super) fn generic_lambda(
        &mut self,
        at: Span,
        default: Option<bool>,
        explicit: &[(String, bool)],
        written: Vec<Token>,
    ) -> PResult<Expr> {
        let open = self.pos;
        let never = |s: Span| KernelError::new(s.line, s.col, "bracket never closed");
        let close = self.closing(open).ok_or_else(|| never(at))?;
        let mut params: Vec<Token> = Vec::new();
        let mut tparams: Vec<String> = Vec::new();
        // The written template parameters' names (`I` of `<int I>`) are the body's own.
        let mut own_names: Vec<String> = written
            .iter()
            .filter_map(|t| match &t.tok {
                Tok::Ident(w) => Some(w.clone()),
                _ => None,
            })
            .collect();
        for t in &self.toks[open + 1..close] {
            match &t.tok {
                Tok::Ident(w) if w == "auto" => {
                    let n = format!("__auto{}", tparams.len());
                    tparams.push(n.clone());
                    params.push(Token {
                        tok: Tok::Ident(n),
                        ..t.clone()
                    });
                    continue;
                }
                Tok::Punct("...") => {
                    return Err(KernelError::new(
                        t.line,
                        t.col,
                        "a generic lambda's parameter pack (`auto... xs`) is not supported; \
                         write the parameters one by one",
                    ));
                }
                Tok::Ident(w) => own_names.push(w.clone()),
                _ => {}
            }
            params.push(t.clone());
        }
        self.pos = close + 1;
        self.skip_lambda_words_pub();
        let mut trailing: Vec<Token> = Vec::new();
        if self.is_punct("->") {
            while !self.is_punct("{") && !matches!(self.peek(0), Tok::Eof) {
                trailing.push(self.toks[self.pos].clone());
                self.pos += 1;
            }
        }
        if !self.is_punct("{") {
            return self.err("`{` to start the lambda's body");
        }
        let body_open = self.pos;
        let body_close = self.closing(body_open).ok_or_else(|| never(self.span()))?;
        let body: Vec<Token> = self.toks[body_open..=body_close].to_vec();
        self.pos = body_close + 1;

        // The captures: enclosing variables the body names.
        let mut captured: Vec<(String, Ty, bool)> = Vec::new();
        let mut empties: Vec<(String, String)> = Vec::new();
        // Member paths of captured structs (`s.data` at token k, spanning n tokens): each is
        // that leaf variable, captured as a scalar or array is, and spelled as one name in
        // the instance's body.
        let mut leaf_uses: Vec<(usize, usize, String)> = Vec::new();
        for (k, t) in body.iter().enumerate() {
            let Tok::Ident(w) = &t.tok else { continue };
            let after_access = k > 0 && matches!(body[k - 1].tok, Tok::Punct("." | "->" | "::"));
            let qualifier = matches!(body.get(k + 1).map(|x| &x.tok), Some(Tok::Punct("::")));
            if after_access
                || qualifier
                || own_names.contains(w)
                || captured.iter().any(|(n, _, _)| n == w)
            {
                continue;
            }
            let mode = explicit
                .iter()
                .find(|(n, _)| n == w)
                .map(|(_, r)| *r)
                .or(default);
            if let Some(sv) = self.var_struct(w) {
                if mode.is_none() {
                    continue;
                }
                // An object of a class with no non-static data members (an
                // `integral_constant` index of an enclosing `static_for`): its copy holds
                // nothing, so the body declares its own object of the class.
                let sname = sv.sname.clone();
                if self
                    .structs
                    .get(&sname)
                    .is_some_and(|d| d.fields.is_empty())
                {
                    empties.push((w.clone(), sname));
                    continue;
                }
                // `s.data[i]`, `s.x`: the leaf the member path names ([expr.prim.lambda.
                // capture]/10: a by-reference capture names the object itself, so each of
                // its members is the enclosing one).
                if let Some((n, leaf)) = leaf_path(&body, k, &sv.leaves) {
                    if let Some(ty) = self.var_type(&leaf) {
                        if let Some(by_ref) = mode {
                            if !captured.iter().any(|(c, _, _)| *c == leaf) {
                                captured.push((leaf.clone(), ty, by_ref));
                            }
                            leaf_uses.push((k, n, leaf));
                            continue;
                        }
                    }
                }
                return Err(KernelError::new(
                    t.line,
                    t.col,
                    format!(
                        "a generic lambda capturing the struct `{w}` is not supported; copy the \
                         members it reads into scalars before the lambda, or write the \
                         parameters' types"
                    ),
                ));
            }
            // A member of the enclosing member function's object (a closure's capture, in
            // a generic lambda nested in another: `static_for` in `static_for`): captured as
            // that member's value or reference ([expr.prim.lambda.capture]/10 names the
            // entity the member denotes; here the place `this.w` reads).
            let field_ty = match self.self_field(w) {
                Some(FieldTy::Val(v)) => Some(Ty::Val(v)),
                Some(FieldTy::Ptr(v)) => Some(Ty::Ptr(v)),
                _ => None,
            };
            if let (Some(ty), Some(by_ref)) = (field_ty, mode) {
                captured.push((w.clone(), ty, by_ref));
                continue;
            }
            if self.self_field(w).is_some() {
                return Err(KernelError::new(
                    t.line,
                    t.col,
                    format!(
                        "a generic lambda in a member function that reads the member `{w}` \
                         (through `this`) is not supported; copy `{w}` into a local before the \
                         lambda, or write the parameters' types"
                    ),
                ));
            }
            let Some(ty) = self.var_type(w) else { continue };
            let Some(by_ref) = mode else { continue };
            if matches!(ty, Ty::Void) {
                continue;
            }
            captured.push((w.clone(), ty, by_ref));
        }

        let body = if leaf_uses.is_empty() {
            body
        } else {
            let mut out = Vec::with_capacity(body.len());
            let mut k = 0;
            let mut uses = leaf_uses.into_iter().peekable();
            while k < body.len() {
                if let Some((_, n, leaf)) = uses.next_if(|(at, _, _)| *at == k) {
                    out.push(Token {
                        tok: Tok::Ident(leaf),
                        ..body[k].clone()
                    });
                    k += n;
                    continue;
                }
                out.push(body[k].clone());
                k += 1;
            }
            out
        };

        self.syn = self.syn.wrapping_add(1);
        let shown = at.shown();
        let name = format!("lambda#{}@{}:{}", self.syn, shown.line, shown.col);
        let mut def = StructDef::default();
        let mut made = Vec::new();
        for (n, ty, by_ref) in &captured {
            def.fields.push(Field {
                name: n.clone(),
                ty: match ty {
                    Ty::Ptr(v) => FieldTy::Ptr(*v),
                    Ty::Val(v) => FieldTy::Val(*v),
                    Ty::Void => continue,
                },
                by_ref: *by_ref,
                default: None,
            });
            let sp = self.syn_span(at);
            if self.var_type(n).is_none() && self.self_field(n).is_some() {
                let this = Expr::new(ExprKind::Ident("this".into()), sp);
                let m = Expr::new(ExprKind::Member(Box::new(this), n.clone()), sp);
                made.push(self.lower_struct(m)?);
                continue;
            }
            made.push(Expr::new(ExprKind::Ident(self.use_var(n, sp)?), sp));
        }
        self.structs.insert(name.clone(), def);
        // A captured array of several dimensions: the instances index the member as that
        // array (`m[i][j]` one row-major index, [`super::arrays`]).
        for (n, _, _) in &captured {
            if let Some(dims) = self.dims_of(n) {
                self.closure_dims.insert((name.clone(), n.clone()), dims);
            }
        }

        // `template <typename __auto0, …> __device__ auto __call(PARAMS) [-> R] BODY`.
        let first = &self.toks[open];
        let mk = |tok: Tok| Token {
            tok,
            line: first.line,
            col: first.col,
            end: first.end,
        };
        let mut synth = vec![mk(Tok::Ident("template".into())), mk(Tok::Punct("<"))];
        // A template lambda's written parameters first (C++20 [expr.prim.lambda.closure]/7:
        // the call operator template's list is the written one with the invented ones
        // appended).
        let written_any = !written.is_empty();
        synth.extend(written);
        for (k, p) in tparams.iter().enumerate() {
            if k > 0 || written_any {
                synth.push(mk(Tok::Punct(",")));
            }
            synth.push(mk(Tok::Ident("typename".into())));
            synth.push(mk(Tok::Ident(p.clone())));
        }
        synth.push(mk(Tok::Punct(">")));
        synth.push(mk(Tok::Ident("__device__".into())));
        synth.push(mk(Tok::Ident("auto".into())));
        synth.push(mk(Tok::Ident(CALL.into())));
        synth.push(mk(Tok::Punct("(")));
        synth.extend(params);
        synth.push(mk(Tok::Punct(")")));
        synth.extend(trailing);
        let mut body = body.into_iter();
        synth.extend(body.next());
        for (n, sname) in empties {
            synth.push(mk(Tok::Ident(sname)));
            synth.push(mk(Tok::Ident(n)));
            synth.push(mk(Tok::Punct(";")));
        }
        synth.extend(body);
        let last = synth.last().cloned().unwrap_or_else(|| mk(Tok::Eof));
        synth.push(Token {
            tok: Tok::Eof,
            ..last
        });
        let mut sub = Parser::new(&synth, self.comments, self.max_depth);
        sub.aliases = self.aliases.clone();
        sub.consts = self.consts.clone();
        sub.struct_alias = self.struct_alias.clone();
        self.lend(&mut sub);
        sub.templates = std::mem::take(&mut self.templates);
        let r = sub.member_template(&name);
        self.take_back(&mut sub);
        self.templates = std::mem::take(&mut sub.templates);
        self.diags.append(&mut sub.diags);
        r?;
        self.node(ExprKind::Call(name, made), at)
    }

    /// The dimensions of `n` where it names a captured array of several dimensions of the
    /// generic lambda whose `__call` is being read ([`Parser::dims_of`] for a closure member).
    pub(super) fn closure_dims_of(&self, n: &str) -> Option<Vec<u64>> {
        let s = self.self_struct.as_ref()?;
        self.closure_dims.get(&(s.clone(), n.to_string())).cloned()
    }

    /// The member a call of closure `s` reaches when `s` has no call operator but a call
    /// operator template (a generic lambda's `__call`, a functor's `template <class F>
    /// operator()(F f)`): the instance for `args` (the call's arguments, the receiver not
    /// among them), parsed now; `None` when `s` has neither.
    ///
    /// # Errors
    /// Arguments that bind no instance, an error in the instance.
    pub(super) fn closure_call_template(
        &mut self,
        s: &str,
        args: &[Expr],
        span: Span,
    ) -> PResult<Option<String>> {
        let key = [CALL, "operator()"]
            .iter()
            .map(|m| format!("{s}::{m}"))
            .find(|k| self.method_templates.contains_key(k));
        let Some(key) = key else {
            return Ok(None);
        };
        self.instantiate_method_now(&key, Vec::new(), args, span)
            .map(Some)
    }
}

/// The leaf variable (one of `leaves`, `s.data`, `s.inner.x`) that the member path starting at
/// `body[k]` (`s . data`) spells, the longest such, and the tokens it spans.
fn leaf_path(body: &[Token], k: usize, leaves: &[String]) -> Option<(usize, String)> {
    let Tok::Ident(w) = &body.get(k)?.tok else {
        return None;
    };
    let mut name = w.clone();
    let mut n = 1;
    let mut best = None;
    // A path is at most as deep as the longest leaf name has dots.
    let depth = leaves.iter().map(|l| l.matches('.').count()).max()?;
    for _ in 0..depth {
        if !matches!(body.get(k + n).map(|t| &t.tok), Some(Tok::Punct("."))) {
            break;
        }
        let Some(Tok::Ident(m)) = body.get(k + n + 1).map(|t| &t.tok) else {
            break;
        };
        name = format!("{name}.{m}");
        n += 2;
        if leaves.contains(&name) {
            best = Some((n, name.clone()));
        }
    }
    best
}
