//! Return types of functions, for `auto` locals, `decltype` and template deduction from a
//! call (`neg(sum(x))`): every function's return type is recorded by name when it is parsed
//! ([`Parser::fn_types`]), an instance's when its call binds the arguments.
//!
//! `auto f(…)` deduces its return type from its first `return` with a value (C++17
//! [dcl.spec.auto]/2); `auto f(…) -> T` names it after the parameters ([dcl.fct]/2). A function
//! template returning `auto` is instantiated at its first call (its type is known only from its
//! body); one returning a named type has the type read from its declaration with the arguments
//! bound.

use super::templates::Pending;
use super::{PResult, Parser};
use crate::lexer::{Tok, Token};
use crate::types::{Ty, ValTy};
use crate::KernelError;

impl Parser<'_> {
    /// The value type a call of `name` returns, when known.
    pub(super) fn call_type(&self, name: &str) -> Option<ValTy> {
        match self.fn_types.get(name)? {
            Ty::Val(v) => Some(*v),
            _ => None,
        }
    }

    /// The element type of a pointer or array argument (`w`, `p + 1`, `&x[i]`), when known.
    pub(super) fn pointee_type(&self, e: &crate::ast::Expr) -> Option<ValTy> {
        use crate::ast::ExprKind;
        match &e.kind {
            ExprKind::Ident(n) => match self.var_type(n)? {
                Ty::Ptr(v) => Some(v),
                _ => None,
            },
            ExprKind::AddrOf(x) => self.expr_type(x),
            ExprKind::Binary(_, a, _) => self.pointee_type(a),
            ExprKind::Cast(Ty::Ptr(v), _) => Some(*v),
            _ => None,
        }
    }

    /// Whether `e` is a pointer value: a pointer variable, `&x`, a cast to a pointer, or
    /// pointer arithmetic on one.
    pub(super) fn is_pointer_expr(&self, e: &crate::ast::Expr) -> bool {
        use crate::ast::ExprKind;
        use crate::types::BinOp;
        match &e.kind {
            ExprKind::Ident(n) => matches!(self.var_type(n), Some(Ty::Ptr(_))),
            ExprKind::AddrOf(_) | ExprKind::Cast(Ty::Ptr(_), _) => true,
            ExprKind::Binary(BinOp::Add | BinOp::Sub, a, _) => self.is_pointer_expr(a),
            _ => false,
        }
    }

    /// Records the return type of the instance `pending` names when its declaration says it
    /// (`T sum(T v)` with `T = float`: `float`). Returns whether the type is `auto` (the
    /// instance must be parsed to know it).
    ///
    /// # Errors
    /// None today; the declaration's own errors surface when the instance is parsed.
    pub(super) fn instance_ret(&mut self, pending: &Pending) -> PResult<bool> {
        let (mangled, name, args) = pending;
        let Some(t) = self
            .templates
            .get(mangled)
            .or_else(|| self.templates.get(name))
        else {
            return Ok(false);
        };
        let toks = t.tokens();
        let Some(named) = toks
            .iter()
            .position(|x| matches!(&x.tok, Tok::Ident(n) if n == crate::ast::overload_base(name)))
        else {
            return Ok(false);
        };
        if toks[..named]
            .iter()
            .any(|x| matches!(&x.tok, Tok::Ident(w) if w == "auto"))
        {
            return Ok(true);
        }
        let mut head: Vec<Token> = toks[..named].to_vec();
        let Some(last) = head.last().cloned() else {
            return Ok(false);
        };
        head.push(Token {
            tok: Tok::Eof,
            ..last
        });
        let params = t.params().to_vec();
        let mut sub = Parser::new(&head, self.comments, self.max_depth);
        sub.aliases = self.aliases.clone();
        sub.consts = self.consts.clone();
        super::templates::bind_template_args(&mut sub, &params, args);
        let ty = sub
            .qualifiers()
            .ok()
            .and_then(|_| sub.base_type().ok())
            .and_then(|b| sub.pointers(b).ok())
            .map(|(t, _)| t);
        if let Some(ty) = ty {
            self.fn_types.insert(mangled.clone(), ty);
        }
        Ok(false)
    }

    /// The struct an instance of a template returns when its declaration names a class
    /// template's specialization before its name (`TopK<T, MAX_K> pick(…)` with `T = float`,
    /// `MAX_K = 2`: `TopK<float,2>`, instantiated here): `head` is the declaration's tokens
    /// before the function's name, `params` and `args` the instance's binding. `None` when the
    /// return type is no such specialization, or does not read as one.
    pub(super) fn class_return(
        &mut self,
        head: &[Token],
        params: &[super::targs::TParam],
        args: &[super::targs::TArg],
    ) -> Option<String> {
        let at = head.iter().position(
            |x| matches!(&x.tok, Tok::Ident(w) if self.class_templates.contains_key(w)),
        )?;
        if !matches!(head.get(at + 1).map(|x| &x.tok), Some(Tok::Punct("<"))) {
            return None;
        }
        let mut toks = head[at..].to_vec();
        let last = toks.last()?.clone();
        toks.push(Token {
            tok: Tok::Eof,
            ..last
        });
        let mut sub = Parser::new(&toks, self.comments, self.max_depth);
        sub.aliases = self.aliases.clone();
        sub.consts = self.consts.clone();
        super::templates::bind_template_args(&mut sub, params, args);
        self.lend(&mut sub);
        let s = sub.struct_type();
        self.take_back(&mut sub);
        self.diags.append(&mut sub.diags);
        s.ok().flatten()
    }

    /// After an `auto` function's parameters: `-> T` names its return type.
    pub(super) fn trailing_return(&mut self) -> PResult<Option<Ty>> {
        if !self.eat("->") {
            return Ok(None);
        }
        let base = self.base_type()?;
        Ok(Some(self.pointers(base)?.0))
    }

    /// Notes the type of a `return e` in an `auto` function being parsed: the first one
    /// fixes the function's return type.
    pub(super) fn note_auto_return(&mut self, ty: Option<ValTy>, at: crate::ast::Span) {
        if let Some(slot @ None) = self.auto_ret.as_mut() {
            *slot = Some(ty.ok_or(at));
        }
    }

    /// The return type an `auto` function's body deduced (`void` when no `return` has a
    /// value).
    ///
    /// # Errors
    /// A `return` whose type the front end cannot tell.
    pub(super) fn auto_return_type(
        &self,
        name: &str,
        deduced: Option<Result<ValTy, crate::ast::Span>>,
    ) -> PResult<Ty> {
        match deduced {
            None => Ok(Ty::Void),
            Some(Ok(v)) => Ok(Ty::Val(v)),
            Some(Err(at)) => Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "cannot tell the type this `return` gives `auto {name}(…)`; write the return \
                     type (or `-> T` after the parameters)"
                ),
            )),
        }
    }
}
