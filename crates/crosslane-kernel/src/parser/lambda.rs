//! Lambdas, lowered to a closure struct and its `operator()`.
//!
//! `[captures](params) -> R { body }` becomes a struct `lambda#N` whose members are the
//! variables the body uses from outside (each scalar a member, in order of first use) and a
//! member function `lambda#N::operator()` whose receiver members are those variables. A capture
//! by copy (`[=]`, `[x]`) copies the value where the lambda is made; a capture by reference
//! (`[&]`, `[&x]`) is a reference member: the closure's member is the variable itself, so a
//! call sees (and writes) its current value. The closure then travels like any struct: stored in
//! `auto`, passed to a template function as its callable parameter, called `op(a, b)`.
//!
//! Source: ISO C++ [expr.prim.lambda.closure] (the closure type and its `operator()`),
//! [expr.prim.lambda.capture] (implicit captures `[=]`/`[&]`, explicit ones by copy or by
//! reference, odr-use). Generic lambdas (`auto` parameters) are closures with a call operator
//! template ([`super::lambda_generic`]). A lambda returning a struct without `-> Type` has it
//! deduced from its body ([`super::lambda_struct_ret`]). A lambda inside a lambda is
//! read with the outer one's captures set aside; not supported, and named: a generic lambda
//! inside a lambda.

use std::collections::HashMap;

use super::structs::{Field, FieldTy, Method, Ret, SKind, SVar, StructDef};
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{Ty, ValTy};
use crate::KernelError;

/// What the lambda being parsed captures.
#[derive(Clone, Debug)]
pub(super) struct LambdaCtx {
    /// Scopes below this index are outside the lambda.
    base: usize,
    /// The default capture: `Some(true)` `[&]`, `Some(false)` `[=]`, `None` none.
    default: Option<bool>,
    /// Explicit captures: name and whether by reference.
    explicit: Vec<(String, bool)>,
    /// Captured variables so far: name, type, by reference.
    pub(super) captured: Vec<(String, Ty, bool)>,
    /// The first `return`'s type, when the lambda does not write one: `Some(None)` until a
    /// `return` with a value is seen.
    pub(super) ret: Option<Option<Ty>>,
    /// Where the first `return` whose value's type the parser cannot tell is, when no
    /// `-> T` is written: refused rather than read as `void` ([expr.prim.lambda.closure]/4).
    pub(super) ret_unknown: Option<crate::ast::Span>,
    /// Whether a `return` had a struct value.
    pub(super) ret_struct_seen: bool,
}

impl Parser<'_> {
    /// The type of `name(args)` when it calls a lambda where it is made (`[&] { … }()`: the
    /// call `@m:operator()` on the closure `lambda#N`): its `operator()`'s value type.
    pub(super) fn immediate_lambda(&self, name: &str, args: &[Expr]) -> Option<ValTy> {
        if name != "@m:operator()" {
            return None;
        }
        let Some(ExprKind::Call(l, _)) = args.first().map(|a| &a.kind) else {
            return None;
        };
        if !l.starts_with("lambda#") {
            return None;
        }
        match self.structs.get(l)?.methods.get("operator()")?.ty {
            Ty::Val(v) => Some(v),
            _ => None,
        }
    }

    /// The name an identifier has here: inside a lambda, a variable from outside it is
    /// captured and named through the closure (`this.x`).
    ///
    /// # Errors
    /// A variable from outside that the capture list does not capture.
    pub(super) fn use_var(&mut self, name: &str, span: Span) -> PResult<String> {
        let Some(ctx) = &self.lambda else {
            return Ok(name.to_string());
        };
        let base = ctx.base;
        let found = (0..self.scopes.len())
            .rev()
            .find(|&i| self.scopes[i].contains_key(name));
        let Some(i) = found else {
            return Ok(name.to_string());
        };
        if i >= base {
            return Ok(name.to_string());
        }
        let ty = self.scopes[i][name];
        let Some(ctx) = self.lambda.as_mut() else {
            return Ok(name.to_string());
        };
        let root = name.split('.').next().unwrap_or(name);
        let by_ref = match ctx
            .explicit
            .iter()
            .find(|(n, _)| n == name || n == root)
            .map(|(_, r)| *r)
            .or(ctx.default)
        {
            Some(r) => r,
            None => {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!(
                        "`{root}` is not captured by the lambda: add it to the capture list \
                         (`[{root}]` or `[&{root}]`), or write `[=]` / `[&]`"
                    ),
                ))
            }
        };
        if !ctx.captured.iter().any(|(n, _, _)| n == name) {
            ctx.captured.push((name.to_string(), ty, by_ref));
        }
        Ok(format!("this.{name}"))
    }

    /// A lambda expression at `[`: its closure struct and `operator()` defined; the value is
    /// the closure made from the captured variables (`lambda#N(x, y)`).
    ///
    /// A lambda inside a lambda's body is read with the enclosing lambda's captures set
    /// aside: the inner closure's members are made where the inner lambda stands, so a
    /// variable of the enclosing scope that the inner body names is captured by the outer
    /// lambda in turn ([expr.prim.lambda.capture]/14: an entity captured by a nested lambda is
    /// odr-used by the enclosing one).
    pub(super) fn lambda_expr(&mut self) -> PResult<Expr> {
        let mut outer = self.lambda.take();
        let r = self.lambda_expr_in(&mut outer);
        if let Some(o) = outer.take() {
            self.lambda = Some(o);
        }
        r
    }

    /// [`Self::lambda_expr`] with the enclosing lambda's context (if any) in `outer`, put
    /// back into the parser once the inner body is read.
    fn lambda_expr_in(&mut self, outer: &mut Option<LambdaCtx>) -> PResult<Expr> {
        let at = self.span();
        self.expect_punct("[")?;
        let mut default = None;
        let mut explicit = Vec::new();
        while !self.eat("]") {
            if matches!(self.peek(0), Tok::Eof) {
                return self.err("`]` to close the capture list");
            }
            // C++14's init-capture ([expr.prim.lambda.capture]/6), `[s = e]` or `[&r = x]`,
            // makes a member from an expression, not from a variable of the enclosing scope.
            let init = [0, 1].into_iter().find(|&k| {
                (k == 0 || self.is_punct("&"))
                    && matches!(self.peek(k), Tok::Ident(_))
                    && matches!(self.peek(k + 1), Tok::Punct("=" | "(" | "{"))
            });
            if let Some(k) = init {
                let n = match self.peek(k) {
                    Tok::Ident(n) => n.clone(),
                    _ => String::new(),
                };
                let c = self.span();
                return Err(KernelError::new(
                    c.line,
                    c.col,
                    format!(
                        "an init-capture (`[{n} = …]`) is not supported: declare \
                         `auto {n} = …;` before the lambda and capture it by name (`[{n}]`)"
                    ),
                ));
            }
            if self.is_punct("=") {
                self.bump();
                default = Some(false);
            } else if self.is_punct("&") && matches!(self.peek(1), Tok::Ident(_)) {
                self.bump();
                explicit.push((self.ident()?, true));
            } else if self.is_punct("&") {
                self.bump();
                default = Some(true);
            } else if self.is_word("this") || self.is_punct("*") {
                // `[this]`, `[*this]`: no member of a class is read through them here.
                self.bump();
                if self.is_word("this") {
                    self.bump();
                }
            } else {
                explicit.push((self.ident()?, false));
            }
            if !self.is_punct("]") {
                self.expect_punct(",")?;
            }
        }
        self.skip_lambda_words();
        // `[&]<int N>() { … }` (C++20 [expr.prim.lambda]/1: a template parameter list after
        // the introducer), called as `f.template operator()<4>()`: a call operator template
        // over those parameters, as a generic lambda's ([`super::lambda_generic`]).
        if self.is_punct("<") {
            let open = self.pos;
            let mut depth = 0i64;
            let mut close = None;
            for (k, t) in self.toks.iter().enumerate().skip(open) {
                match t.tok {
                    Tok::Punct("<") => depth += 1,
                    Tok::Punct(">") => depth -= 1,
                    Tok::Punct(">>") => depth -= 2,
                    Tok::Punct("{" | ";") | Tok::Eof => break,
                    _ => {}
                }
                if depth <= 0 {
                    close = Some(k);
                    break;
                }
            }
            let (Some(close), 0) = (close, depth) else {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "a lambda's template parameter list `<…>` that does not close before its \
                     body",
                ));
            };
            if outer.is_some() {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "a lambda with a template parameter list (`[&]<int N>() { … }`) inside a \
                     lambda is not supported; define it before the enclosing lambda",
                ));
            }
            let tparams = self.toks[open + 1..close].to_vec();
            self.pos = close + 1;
            self.skip_lambda_words();
            if !self.is_punct("(") {
                return self.err("`(` after a lambda's template parameter list");
            }
            return self.generic_lambda(at, default, &explicit, tparams);
        }
        if self.is_punct("(") {
            // `auto` parameters make a generic lambda: a call operator template
            // ([`super::lambda_generic`]).
            let close = self.closing(self.pos).unwrap_or(self.pos);
            let generic = self.toks[self.pos..close]
                .iter()
                .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "auto"));
            if generic && outer.is_some() {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "a generic lambda (`auto` parameters) inside a lambda is not supported; \
                     define it before the enclosing lambda",
                ));
            }
            if generic {
                return self.generic_lambda(at, default, &explicit, Vec::new());
            }
        }
        let mut params = if self.eat("(") {
            self.params()?
        } else {
            Vec::new()
        };
        let tiles = std::mem::take(&mut self.tile_slots_now);
        let user_params = self.param_count_now;
        self.refuse_param_copies()?;
        let own = std::mem::take(&mut self.pending_svars);
        self.skip_lambda_words();
        let mut written_ret: Option<(Ty, Option<String>)> = None;
        if self.eat("->") {
            written_ret = Some(if let Some(s) = self.struct_type()? {
                (Ty::Void, Some(s))
            } else {
                let base = self.base_type()?;
                (self.pointers(base)?.0, None)
            });
        }
        if !self.is_punct("{") {
            return self.err("`{` to start the lambda's body");
        }
        // No `-> T` and a body returning a struct ([`super::lambda_struct_ret`]).
        if written_ret.is_none() {
            if let Some(s) = self.lambda_struct_return(&own) {
                written_ret = Some((Ty::Void, Some(s)));
            }
        }
        self.syn = self.syn.wrapping_add(1);
        // Notes name the closure by it: the position shown is the source's ([`Span::shown`]);
        // the counter keeps two closures from one macro expansion apart.
        let shown = at.shown();
        let name = format!("lambda#{}@{}:{}", self.syn, shown.line, shown.col);
        // Tile parameters: each tile's meta pair as hidden trailing parameters
        // ([`super::cg_tile_meta`]).
        let (hidden, hidden_defaults) =
            self.tile_meta_hidden(&format!("{name}::operator()"), tiles, user_params, at);
        params.extend(hidden);
        let ctx = LambdaCtx {
            base: self.scopes.len(),
            default,
            explicit,
            captured: Vec::new(),
            ret: written_ret.is_none().then_some(None),
            ret_struct_seen: false,
            ret_unknown: None,
        };
        let mut scope = HashMap::new();
        for p in &params {
            scope.insert(p.name.clone(), p.ty);
        }
        self.scopes.push(scope);
        let saved_self = self.self_struct.take();
        let sret = written_ret.as_ref().and_then(|(_, s)| s.clone());
        let saved_ret = std::mem::replace(&mut self.ret_struct, sret.clone());
        // `-> uint4` makes `return {};` / `return {a, b, c, d};` in the body a
        // copy-list-initialization of that type ([stmt.return]/2); without `-> T` a braced
        // list deduces no type ([dcl.spec.auto.general]/4, [temp.deduct.call]/1).
        let lambda_val = match &written_ret {
            Some((Ty::Val(v), None)) => Some(*v),
            _ => None,
        };
        let saved_val = std::mem::replace(&mut self.ret_val, lambda_val);
        self.lambda = Some(ctx);
        let r = (|| -> PResult<(Stmt, Vec<Param>)> {
            for (n, sv) in own {
                let leaves = self.leaves(&sv.sname, at)?;
                self.declare_svar(&n, sv, &leaves);
            }
            let ret_params = match &sret {
                Some(s) => self.ret_params(s, at)?,
                None => Vec::new(),
            };
            Ok((self.own_destructibles(|p| p.stmt())?, ret_params))
        })();
        let ctx = self.lambda.take();
        // The enclosing lambda's captures again: the closure's members below are read there.
        self.lambda = outer.take();
        self.scopes.pop();
        self.self_struct = saved_self;
        self.ret_struct = saved_ret;
        self.ret_val = saved_val;
        let (body, ret_params) = r?;
        let Some(ctx) = ctx else {
            return Err(KernelError::new(
                at.line,
                at.col,
                "the lambda's captures were lost",
            ));
        };
        if ctx.ret_struct_seen && written_ret.is_none() {
            return Err(KernelError::new(
                at.line,
                at.col,
                "this lambda returns a struct: write its type (`[…](…) -> Pair { … }`)",
            ));
        }
        // Without `-> T` the return type is deduced from the `return` statements' operands
        // ([expr.prim.lambda.closure]/4, [dcl.spec.auto]/2): `void` only when none has one.
        if let (None, Some(None), Some(r)) = (&written_ret, ctx.ret, ctx.ret_unknown) {
            return Err(KernelError::new(
                r.line,
                r.col,
                "cannot tell the type this `return` gives the lambda; write it after the \
                 parameters (`[…](…) -> float { … }`)",
            ));
        }
        let ret = match &written_ret {
            Some((t, _)) => *t,
            None => ctx.ret.flatten().unwrap_or(Ty::Void),
        };
        let mut def = StructDef::default();
        let mut all_params = ret_params;
        let mut made = Vec::new();
        for (n, ty, by_ref) in &ctx.captured {
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
            all_params.push(Param {
                name: format!("this.{n}"),
                ty: *ty,
                reference: true,
                const_ref: false,
                span: at,
            });
            let sp = self.syn_span(at);
            made.push(Expr::new(ExprKind::Ident(self.use_var(n, sp)?), sp));
        }
        all_params.extend(params);
        let func = format!("{name}::operator()");
        def.methods.insert(
            "operator()".into(),
            Method {
                func: func.clone(),
                is_static: false,
                ret: sret.map_or(Ret::Plain, Ret::Struct),
                ty: ret,
                inherited: None,
                by_ref: false,
            },
        );
        self.structs.insert(name.clone(), def);
        // Its return type, for `auto v = [&]() { … }();`.
        self.fn_types.entry(func.clone()).or_insert(ret);
        self.extra_fns.push(Function {
            name: func,
            entry: false,
            ret,
            params: all_params,
            body,
            launch_bounds: None,
            vf_call_dim: None,
            span: at,
            snippet: false,
            defaults: hidden_defaults,
            empty_params: Vec::new(),
        });
        let _ = (SKind::Plain, SVar::clone);
        self.node(ExprKind::Call(name, made), at)
    }

    /// [`Self::skip_lambda_words`] for [`super::lambda_generic`].
    pub(super) fn skip_lambda_words_pub(&mut self) {
        self.skip_lambda_words();
    }

    /// `mutable`, `constexpr`, `noexcept`, `__device__`, `__host__` around a lambda's
    /// parameters: no effect here.
    fn skip_lambda_words(&mut self) {
        while matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "mutable" | "constexpr" | "noexcept" | "__device__" | "__host__"))
        {
            self.bump();
        }
    }
}
