//! Statements: blocks, control flow, declarations.

use super::types::{QUALIFIERS, TYPE_WORDS};
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::Ty;
use crate::types::{Scalar, ValTy};
use crate::KernelError;
use crosslane_core::result::Level;
use std::collections::HashMap;

impl Parser<'_> {
    pub(super) fn stmt(&mut self) -> PResult<Stmt> {
        self.enter()?;
        let mark = self.pre.len();
        let r = self.stmt_inner();
        self.depth -= 1;
        let s = r?;
        // The temporaries a lowered expression needs run just before its statement; a
        // declaration leaves them to the enclosing block, which splices them in before it (a
        // block around it would end the declared names' scope).
        if self.pre.len() > mark && !matches!(s.kind, StmtKind::Decl(..)) {
            let mut list: Vec<Stmt> = self.pre.drain(mark..).collect();
            let (span, end) = (s.span, s.end);
            list.push(s);
            return Ok(Stmt {
                kind: StmtKind::Block(list),
                span,
                end,
            });
        }
        Ok(s)
    }

    /// Fails when parsing a loop's condition or step needed a temporary (it would run once,
    /// not per iteration).
    fn no_pre_since(&self, mark: usize, at: Span) -> PResult<()> {
        if self.pre.len() > mark {
            return Err(KernelError::new(
                at.line,
                at.col,
                "a call that makes a struct (a constructor, a function or member returning a \
                 struct) in a loop's condition or step is not supported; compute it in the body",
            ));
        }
        Ok(())
    }

    pub(super) fn stmt_inner(&mut self) -> PResult<Stmt> {
        let span = self.span();
        let done = |p: &Self, kind| Stmt {
            kind,
            span,
            end: p.last_end(),
        };
        if self.eat("{") {
            let mut body = Vec::new();
            self.scopes.push(HashMap::new());
            while !self.is_punct("}") {
                if matches!(self.peek(0), Tok::Eof) {
                    self.scopes.pop();
                    return self.err("`}` to close the block");
                }
                let mark = self.pre.len();
                match self.stmt() {
                    Ok(s) => {
                        body.extend(self.pre.drain(mark..));
                        body.push(s);
                    }
                    Err(e) => {
                        self.scopes.pop();
                        return Err(e);
                    }
                }
            }
            // Its labels' forward `goto`s ([`super::goto`]).
            let mut body = match self.lower_gotos(body) {
                Ok(b) => b,
                Err(e) => {
                    self.scopes.pop();
                    return Err(e);
                }
            };
            // The block's objects with destructors, last declared first ([`super::structs`]).
            self.scope_end_destructors(&mut body)?;
            self.scopes.pop();
            self.bump();
            return Ok(done(self, StmtKind::Block(body)));
        }
        if self.eat(";") {
            return Ok(done(self, StmtKind::Empty));
        }
        if self.is_punct("...") || self.is_punct("..") {
            self.bump();
            self.eat(";");
            if !self.elision_noted {
                self.elision_noted = true;
                self.diag(
                    span,
                    Level::Info,
                    "`...` elides code in the vendor's pseudo-code; it runs as nothing",
                    "",
                );
            }
            return Ok(done(self, StmtKind::Elided));
        }
        if let Some(k) = self.any_sync_stmt()? {
            return Ok(done(self, k));
        }
        // `cub::Max m;`: a named library function object ([`super::lib_functors`]).
        if self.lib_object_decl() {
            return Ok(done(self, StmtKind::Empty));
        }
        // `cuda::atomic_ref<int, cuda::thread_scope_block> r(s);` ([`super::atomic_ref`]).
        if let Some(k) = self.atomic_ref_decl()? {
            return Ok(done(self, k));
        }
        if let Tok::Ident(w) = self.peek(0).clone() {
            // `done:`, a label ([stmt.label]); `goto done;` ([`super::goto`]).
            if matches!(self.peek(1), Tok::Punct(":"))
                && !matches!(
                    w.as_str(),
                    "default" | "case" | "public" | "private" | "protected"
                )
            {
                return self.label_stmt();
            }
            match w.as_str() {
                "goto" => return self.goto_stmt(),
                "switch" => return self.switch_stmt(),
                "asm" | "__asm__" | "__asm" => return self.asm_stmt(),
                // `namespace cg = cooperative_groups;` in a function body ([namespace.alias]:
                // a block-scope declaration too): skipped as at file scope.
                "namespace" | "using" if self.skip_namespace_line() => {
                    return Ok(done(self, StmtKind::Empty));
                }
                // `typedef union flt_b32 { float val; uint32_t b32; } flt_b32_t;` in a function
                // body (a block-scope class definition with its typedef name, [class.name],
                // [dcl.typedef]): defined as at file scope, from here on.
                "typedef"
                    if matches!(self.peek(1), Tok::Ident(w)
                        if matches!(w.as_str(), "struct" | "class" | "union"))
                        && (matches!(self.peek(2), Tok::Punct("{"))
                            || matches!(self.peek(3), Tok::Punct("{"))) =>
                {
                    self.typedef_struct()?;
                    return Ok(done(self, StmtKind::Empty));
                }
                // `using T = …;` / `typedef … T;` in a function body: the alias, from here on
                // (a block does not end it here; C++ would end it with the block).
                "typedef" | "using" if self.cub_alias()? => {
                    return Ok(done(self, StmtKind::Empty));
                }
                // `WarpScan ws(temp);`: a named collective object ([`super::cub_object`]).
                w if self.cub.contains_key(w)
                    && matches!(self.peek(1), Tok::Ident(_))
                    && matches!(self.peek(2), Tok::Punct("(" | "{")) =>
                {
                    if let Some(k) = self.cub_object_decl()? {
                        return Ok(done(self, k));
                    }
                }
                // Also `typename WarpScan::TempStorage t;` with no `__shared__` (`cub_local`).
                w if w == "__shared__" || self.cub_local_storage_starts() => {
                    if let Some(k) = self.cub_storage_stmt()? {
                        return Ok(done(self, k));
                    }
                }
                // `auto& t = reinterpret_cast<TS&>(smem);` of a CUB storage alias `TS`.
                w if (w == "auto" || self.cub_storage_types.contains_key(w))
                    && matches!(self.peek(1), Tok::Punct("&")) =>
                {
                    if let Some(k) = self.cub_storage_ref()? {
                        return Ok(done(self, k));
                    }
                }
                // `union S { typename R::TempStorage r; … };` for a later `__shared__ S t;`.
                "union" | "struct" if self.cub_union_type()? => {
                    return Ok(done(self, StmtKind::Empty));
                }
                "typedef" => {
                    self.alias()?;
                    return Ok(done(self, StmtKind::Empty));
                }
                "using" if !matches!(self.peek(1), Tok::Ident(n) if n == "namespace") => {
                    self.alias()?;
                    return Ok(done(self, StmtKind::Empty));
                }
                "if" => {
                    self.bump();
                    let cexpr = self.is_word("constexpr");
                    if cexpr {
                        self.bump();
                    }
                    self.expect_punct("(")?;
                    let c = self.expr()?;
                    let c = self.lower_struct(c)?;
                    self.expect_punct(")")?;
                    let head_end = self.last_end();
                    if cexpr {
                        // `if constexpr`: only the branch taken is compiled ([stmt.if]/2).
                        if let Some(v) = self.fold_int(&c) {
                            return self.if_constexpr(v != 0, span);
                        }
                    }
                    let live = self.destructibles.len();
                    let then = self.stmt()?;
                    self.check_sub_stmt(live)?;
                    let els = if self.is_word("else") {
                        self.bump();
                        let e = self.stmt()?;
                        self.check_sub_stmt(live)?;
                        Some(Box::new(e))
                    } else {
                        None
                    };
                    return Ok(Stmt {
                        kind: StmtKind::If(c, Box::new(then), els),
                        span,
                        end: head_end,
                    });
                }
                "while" => {
                    self.bump();
                    self.expect_punct("(")?;
                    let mark = self.pre.len();
                    let c = self.expr()?;
                    let c = self.lower_struct(c)?;
                    self.no_pre_since(mark, span)?;
                    self.expect_punct(")")?;
                    let head_end = self.last_end();
                    let body = self.loop_body()?;
                    return Ok(Stmt {
                        kind: StmtKind::While(c, Box::new(body)),
                        span,
                        end: head_end,
                    });
                }
                "do" => {
                    self.bump();
                    let body = self.loop_body()?;
                    if !self.is_word("while") {
                        return self.err("`while` after the `do` body");
                    }
                    self.bump();
                    self.expect_punct("(")?;
                    let mark = self.pre.len();
                    let c = self.expr()?;
                    let c = self.lower_struct(c)?;
                    self.no_pre_since(mark, span)?;
                    self.expect_punct(")")?;
                    self.expect_punct(";")?;
                    return Ok(done(self, StmtKind::DoWhile(Box::new(body), c)));
                }
                "for" => {
                    self.bump();
                    self.expect_punct("(")?;
                    // The init-statement's names are the loop's own, to the end of its body
                    // (C++17 [stmt.for]/1, [basic.scope.block]/1): two loops of one block may
                    // each declare `int i`.
                    self.scopes.push(HashMap::new());
                    let r = self.for_rest(span);
                    let scope = self.scopes.len() - 1;
                    if let Some(d) = self.destructibles.last().filter(|_| r.is_ok()) {
                        if d.in_scope(scope) {
                            return Err(KernelError::new(span.line, span.col, "an object whose class has a destructor with statements, declared in a `for`'s init-statement, is not supported; declare it before the loop in a block"));
                        }
                    }
                    self.scopes.pop();
                    return r;
                }
                "break" | "continue" => {
                    self.bump();
                    self.expect_punct(";")?;
                    // The objects with destructors the jump leaves, destroyed on the way out.
                    return self.break_or_continue(w == "continue", span);
                }
                "return" => return self.return_stmt(span),
                // `default: throw std::runtime_error("Unknown bcast");` in a `constexpr`
                // function (AMDMIGraphX's `dpp_row_bcast`): valid while no evaluation reaches
                // it ([expr.const]/2.20: an evaluated throw-expression is no constant). Reached
                // at run time, it stops the run as a failed device assert would: device code
                // has no exceptions (HIP Programming Guide, "C++ support": exceptions are not
                // supported in device code).
                "throw" => return self.throw_stmt(span),
                // A struct defined in a function (`struct { int x; int y; } grid;`,
                // `struct P { … };`), then the variables declared after its `}`.
                "struct" | "class" | "union"
                    if matches!(self.peek(1), Tok::Punct("{"))
                        || (matches!(self.peek(1), Tok::Ident(_))
                            && matches!(self.peek(2), Tok::Punct("{"))) =>
                {
                    let name = match self.peek(1) {
                        Tok::Ident(n) => n.clone(),
                        _ => super::structs::anon_struct_name(span),
                    };
                    self.struct_def(None)?;
                    if matches!(
                        self.toks.get(self.pos.wrapping_sub(1)).map(|t| &t.tok),
                        Some(Tok::Punct(";"))
                    ) {
                        return Ok(done(self, StmtKind::Empty));
                    }
                    let kind = self.struct_decl(Storage::default(), name)?;
                    self.expect_punct(";")?;
                    return Ok(done(self, kind));
                }
                "else" => return self.err("a statement (`else` without `if`)"),
                "static_assert" => {
                    self.skip_static_assert()?;
                    return Ok(done(self, StmtKind::Empty));
                }
                _ => {}
            }
        }
        self.simple_stmt()
    }

    /// `return …;` (its own function: kept out of [`Parser::stmt`], whose frame every nested
    /// statement pays for on the stack).
    #[inline(never)]
    fn return_stmt(&mut self, span: Span) -> PResult<Stmt> {
        let done = |p: &Self, kind| Stmt {
            kind,
            span,
            end: p.last_end(),
        };
        self.bump();
        let e = if self.is_punct(";") {
            None
        } else if self.is_punct("{") && self.ret_struct.is_some() {
            // `return {a, b};` in a function returning a struct.
            Some(self.brace_list()?)
        } else if let Some(v) = self.ret_val.filter(|_| self.is_punct("{")) {
            // `return {};` / `return {a, b, c, d};` in a function (or a lambda with
            // `-> T`) returning a value type: copy-list-initialization of the return type
            // ([stmt.return]/2), read as the functional cast `T{…}`.
            let name = crate::vector_types::cuda_name(v);
            Some(self.functional_cast(&name, v, span)?)
        } else if self.is_punct("{") && self.lambda.is_some() {
            // A lambda without `-> T` deduces its return type from the operand, and a
            // braced list has none ([dcl.spec.auto.general]/4, [temp.deduct.call]/1).
            let at = self.span();
            return Err(KernelError::new(
                at.line,
                at.col,
                "`return {…};` in a lambda without a return type: a braced list gives the \
                 lambda no type to deduce; write it after the parameters (`[…](…) -> float \
                 { … }`) or return a typed value (`return float{};`)",
            ));
        } else {
            Some(self.expr()?)
        };
        self.expect_punct(";")?;
        // `return r[i];` of `float& at(int i)`: its address ([`Parser::ret_addr`]).
        let e = match e {
            Some(x) if self.ret_addr => Some(address_of(x, 0)),
            e => e,
        };
        if self.ret_this && matches!(&e, Some(Expr { kind: ExprKind::Ident(n), .. }) if n == "this")
        {
            // `return *this;` of `V& operator+=(…)`: the receiver was changed in
            // place ([`super::operators`]).
            return Ok(done(self, StmtKind::Return(None)));
        }
        if let (Some(e), Some(s)) = (&e, self.ret_struct.clone()) {
            self.jump_past_destructors("return", 0, span)?;
            let end = self.last_end();
            return self.return_struct(e.clone(), &s, span, end);
        }
        if let Some(e) = &e {
            let is_struct = self.struct_of(e).is_some()
                || matches!(&e.kind, ExprKind::Call(n, _) if n == "@brace");
            let ty = self.expr_type(e);
            if self.lambda.is_none() && !is_struct {
                self.note_auto_return(ty, span);
            }
            // A lambda's `return p + i;` of a pointer gives it a pointer type.
            let deduced = match ty {
                Some(v) => Some(Ty::Val(v)),
                None if self.is_pointer_expr(e) => self.pointee_type(e).map(Ty::Ptr),
                None => None,
            };
            let void_call = matches!(&e.kind, ExprKind::Call(n, _)
                if matches!(self.fn_types.get(n), Some(Ty::Void)));
            if let Some(ctx) = self.lambda.as_mut() {
                if is_struct {
                    ctx.ret_struct_seen = true;
                } else if ctx.ret == Some(None) {
                    match deduced {
                        Some(t) => ctx.ret = Some(Some(t)),
                        // `return f();` of a `void` function ([stmt.return]/2).
                        None if void_call => {}
                        None => {
                            ctx.ret_unknown.get_or_insert(span);
                        }
                    }
                }
            }
        }
        let e = match e {
            Some(e) => Some(self.lower_struct(e)?),
            None => None,
        };
        if !self.destructibles.is_empty() {
            return self.return_past_destructors(e, span);
        }
        Ok(done(self, StmtKind::Return(e)))
    }

    /// A declaration or expression statement, ending in `;` (also a `for` initializer).
    pub(super) fn simple_stmt(&mut self) -> PResult<Stmt> {
        let span = self.span();
        if self.block_tile_memory_decl()? {
            return Ok(Stmt {
                kind: StmtKind::Empty,
                span,
                end: self.last_end(),
            });
        }
        if let Some(kind) = self.cg_decl()? {
            return Ok(Stmt {
                kind,
                span,
                end: self.last_end(),
            });
        }
        // `::ns::S<int, 3> y;`: a declaration of a class named from the global namespace
        // (namespaces are read as file scope here).
        let global = self.pos;
        if matches!(self.peek(0), Tok::Punct("::"))
            && matches!(self.peek(1), Tok::Ident(n) if self.class_templates.contains_key(n)
                || self.structs.contains_key(n))
        {
            self.bump();
            if !self.decl_starts() {
                self.pos = global;
            }
        }
        let kind = if self.decl_starts() {
            self.decl()?
        } else {
            let e = self.expr()?;
            // `W{1};`, `make_pair(a, b);`: a struct value discarded, never converted.
            self.value_unused =
                matches!(e.kind, ExprKind::Call(..)) && self.struct_of(&e).is_some();
            let lowered = self.lower_struct(e);
            self.value_unused = false;
            StmtKind::Expr(lowered?)
        };
        self.expect_punct(";")?;
        Ok(Stmt {
            kind,
            span,
            end: self.last_end(),
        })
    }

    pub(super) fn decl_starts(&self) -> bool {
        match self.peek(0) {
            Tok::Ident(w) => {
                QUALIFIERS.contains(&w.as_str())
                    || w == "__NATIVE_VECTOR__"
                    // `auto& v = …;`, `auto&& v = …;`, `auto [a, b] = …;`, `auto* p = …;`
                    // (`auto` is a keyword: it starts no expression, C++17 [dcl.spec.auto])
                    || (w == "auto" && matches!(self.peek(1), Tok::Punct("&" | "&&" | "[" | "*")))
                    || self.cub_kv_starts()
                    || self.trait_type_starts()
                    || self.member_type_starts()
                    || self.struct_decl_starts(w)
                    || (self.is_type_word(w)
                        && !matches!(self.peek(1), Tok::Punct("(") if !TYPE_WORDS.contains(&w.as_str())))
                    || matches!(self.peek(1), Tok::Ident(_))
            }
            _ => false,
        }
    }

    pub(super) fn decl(&mut self) -> PResult<StmtKind> {
        let decl_from = self.pos;
        let pre_mark = self.pre.len();
        let (_, storage, _) = self.qualifiers()?;
        // `constexpr int NUM_WARPS = 256 / 32;`: a constant from here on ([dcl.constexpr]/9);
        // so is `const int N = 8;`, a const integral variable initialized by a constant
        // expression ([expr.const]/2.7: usable in constant expressions, e.g. a template argument).
        let is_constexpr = self.toks[decl_from..self.pos.min(self.toks.len())]
            .iter()
            .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "constexpr" || w == "const"));
        if let Some(s) = self.struct_type()? {
            self.struct_decl_const = is_constexpr;
            return self.struct_decl(storage, s);
        }
        if let Some(s) = self.void_local_struct()? {
            return self.struct_decl(storage, s);
        }
        let auto = self.is_word("auto");
        // `op_t f = …;` of a function pointer alias: the variable holds a function's id.
        let alias_sig = self.fn_ptr_alias_type();
        let base = if auto {
            self.bump();
            Ty::Val(ValTy::scalar(Scalar::I32))
        } else if alias_sig.is_some() {
            super::fn_ptr_run::id_ty()
        } else {
            self.base_type()?
        };
        // The type's one word (`float2`), for a vector's `make_` in `float2 v(a, b)`.
        let type_word = match self.toks.get(self.pos.wrapping_sub(1)).map(|t| &t.tok) {
            Some(Tok::Ident(w)) if self.pos > decl_from => Some(w.clone()),
            _ => None,
        };
        let mut list = Vec::new();
        loop {
            let (mut ty, is_ref) = self.pointers(base)?;
            let span = self.span();
            if auto && list.is_empty() && super::struct_bind::opens(self.peek(0)) {
                // `auto [a, b] = e;` ([`super::struct_bind`]).
                let is_const = self.toks[decl_from..self.pos.min(self.toks.len())]
                    .iter()
                    .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "const"));
                let decls = self.structured_binding(is_ref, is_const)?;
                if decls.is_empty() {
                    return Ok(StmtKind::Empty);
                }
                return Ok(StmtKind::Decl(storage, decls));
            }
            let name = if let Some((n, sig)) = self.fn_ptr_declarator(ty)? {
                // `float (*f)(float) = …;`
                ty = super::fn_ptr_run::id_ty();
                self.fn_ptr_var(&n, sig);
                n
            } else {
                let n = self.ident()?;
                if let Some(sig) = alias_sig.clone() {
                    self.fn_ptr_var(&n, sig);
                }
                n
            };
            if !storage.external && self.scopes.len() > 1 {
                self.no_redefinition(&name, span)?;
            }
            let bounds = self.array_suffixes()?;
            let bounds_none = bounds.is_empty();
            // `= {…}` or `{…}` (C++11 list-initialization without `=`, [dcl.init]/1) after
            // an array: its cells' values ([`super::arrays`]).
            let braced = !bounds.is_empty()
                && (self.is_punct("{")
                    || (self.is_punct("=") && matches!(self.peek(1), Tok::Punct("{"))));
            let mut md_dims = None;
            let mut array_init = None;
            let array = if braced || bounds.len() > 1 {
                let dims = self.const_bounds(&name, &bounds, span)?;
                let first = if braced {
                    self.eat("=");
                    let list = self.brace_list()?;
                    let (init, first) =
                        self.array_init(&name, span, &dims, list, storage.shared)?;
                    array_init = Some(init);
                    first
                } else {
                    match dims.first().copied().flatten() {
                        Some(f) => f,
                        None => {
                            return Err(KernelError::new(
                                span.line,
                                span.col,
                                format!("`{name}[]…` needs its first bound or an initializer"),
                            ))
                        }
                    }
                };
                let mut all: Vec<u64> = vec![first];
                all.extend(dims.iter().skip(1).map(|d| d.unwrap_or(1)));
                let total = all.iter().try_fold(1u64, |a, &d| a.checked_mul(d));
                let Some(total) = total.filter(|&t| t <= i64::MAX as u64) else {
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        format!("`{name}` has more cells than a size can count"),
                    ));
                };
                md_dims = Some(all);
                Some(Some(arrays_lit(total, span)))
            } else {
                // One dimension without an initializer: its bound as written (`[]` of an
                // `extern __shared__` array; a run-time bound reported when it runs).
                bounds.into_iter().next()
            };
            // `float m(-FLT_MAX);`, `int n(3);`, `T* p(q);`: direct-initialization of one value
            // (a vector's, `dim3 g(4, 2)`, is the functional cast below).
            let paren_init = if bounds_none
                && self.is_punct("(")
                && alias_sig.is_none()
                && (matches!(ty, Ty::Val(v) if v.lanes == 1) || matches!(ty, Ty::Ptr(_)))
            {
                Some(self.paren_init(&name, ty, type_word.as_deref(), span)?)
            } else {
                None
            };
            let scalar_braced = bounds_none
                && matches!(ty, Ty::Val(_))
                && (self.is_punct("{")
                    || (self.is_punct("=") && matches!(self.peek(1), Tok::Punct("{"))));
            let init = if array_init.is_some() {
                array_init
            } else if paren_init.is_some() {
                paren_init
            } else if scalar_braced {
                // `int x {2};`, `float s = {0.0f};`, `T v {};`: the one value, or zero for
                // `{}` (value-initialization, [dcl.init.list]/3.11, /3.4 → [dcl.init]/8).
                self.eat("=");
                let at = self.span();
                let list = self.brace_list()?;
                let ExprKind::Call(_, mut items) = list.kind else {
                    return self.err("an initializer");
                };
                // `float2 v = {a, b};`, `float4 v{x, y, z, w};`: aggregate initialization of a
                // vector struct, one value per member in order and members left out
                // value-initialized (C++17 [dcl.init.aggr]/3 and /8): the type's `make_`.
                let make = match ty {
                    Ty::Val(v) if v.lanes > 1 && items.len() > 1 => {
                        super::expr::vector_make(&crate::vector_types::cuda_name(v), v)
                            .filter(|_| items.len() <= usize::from(v.lanes))
                            .map(|m| (m, usize::from(v.lanes)))
                    }
                    _ => None,
                };
                if let Some((make, lanes)) = make {
                    while items.len() < lanes {
                        items.push(arrays_lit(0, at));
                    }
                    Some(Expr::new(ExprKind::Call(make, items), at))
                } else if items.len() > 1 {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!("`{name}` is one value: its `{{…}}` may hold one initializer ([dcl.init.list]/3.9)"),
                    ));
                } else {
                    Some(items.pop().unwrap_or_else(|| arrays_lit(0, at)))
                }
            } else if self.eat("=") {
                Some(self.assign_expr()?)
            } else if let (None, true, Ty::Val(v)) = (&array, self.is_punct("("), ty) {
                // `dim3 grid(4, 2);`, `float2 p(x, y);`: direct-initialization, as the
                // functional cast of the same arguments ([dcl.init]/16).
                let word = self.toks[decl_from..self.pos]
                    .iter()
                    .rev()
                    .find_map(|t| match &t.tok {
                        Tok::Ident(w) if super::types::word_type(w) == Some(v) => Some(w.clone()),
                        _ => None,
                    });
                match word {
                    Some(w) if v.lanes > 1 => Some(self.functional_cast(&w, v, span)?),
                    _ => {
                        return self
                            .err("`;` or `=` (a `(…)` initializer here is for vector types)")
                    }
                }
            } else if array.is_none() && self.is_punct("{") {
                // `constexpr auto WIDTH{4u};`, `int n{};`: direct-list-initialization of a
                // scalar takes its one element, or is value-initialized (zero) when the list is
                // empty (C++17 [dcl.init.list]/3.8 and 3.10; `auto` deduces the element's type,
                // [dcl.type.auto.deduct]/2).
                let open = self.span();
                self.bump();
                if self.eat("}") {
                    Some(self.folded_literal(0, open))
                } else {
                    let e = self.assign_expr()?;
                    self.eat(",");
                    if !self.is_punct("}") {
                        return self.err(
                            "`}`: a scalar's braced initializer holds one value (write an array \
                             `T a[N] = {…}` for several)",
                        );
                    }
                    self.bump();
                    Some(e)
                }
            } else {
                None
            };
            if let (false, None, Some(i)) = (is_ref, &array, init.as_ref()) {
                // `int* q = reinterpret_cast<int*>(&s);` of a struct of ints: a second name of
                // that address, its cells `s`'s members ([`super::structs`]' layout views).
                if self.flat_struct_address(i).is_some() {
                    self.bind_name(&name, ty, i.clone());
                    if !self.eat(",") {
                        break;
                    }
                    continue;
                }
            }
            if let (true, None, Some(i)) = (is_ref, &array, init.as_ref()) {
                // `float& r = a[i];`, `auto& v = x;`: a second name of the place
                // ([`super::local_ref`]).
                let mut struct_hidden = None;
                let declared = if !auto {
                    Some(ty)
                } else if let Some(h) = self.struct_reference(&name, i)? {
                    struct_hidden = Some(h);
                    None
                } else {
                    // The type of the place, read after its members are lowered to their
                    // variables (`b.qs[k]` is a cell of the variable `b.qs`).
                    let lowered = self.lower_struct(i.clone())?;
                    let t = self.expr_type(&lowered).map(Ty::Val).or(match &i.kind {
                        ExprKind::Ident(n) => self.var_type(n),
                        _ => None,
                    });
                    match t {
                        Some(t) => Some(t),
                        None => {
                            return Err(KernelError::new(
                                span.line,
                                span.col,
                                format!(
                                    "cannot tell the type of `auto& {name}` from its \
                                     initializer; write the type"
                                ),
                            ))
                        }
                    }
                };
                let is_const = self.toks[decl_from..self.pos.min(self.toks.len())]
                    .iter()
                    .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "const"));
                let hidden = match declared {
                    None => struct_hidden,
                    Some(t) => self.local_reference(&name, t, is_const, i)?,
                };
                if let Some(h) = hidden {
                    list.extend(h);
                    if !self.eat(",") {
                        break;
                    }
                    continue;
                }
            }
            if auto && array.is_none() {
                // `auto op = [](…){…};`, `auto p = make_pair(…);`: a struct variable.
                let s = init.as_ref().and_then(|e| self.struct_of(e));
                if let (Some(s), Some(i)) = (s, init.clone()) {
                    let decls = self.struct_declarator(&s, &name, span, false, None, Some(i))?;
                    list.extend(decls);
                    if !self.eat(",") {
                        break;
                    }
                    continue;
                }
                // `auto const* p = reinterpret_cast<const S*>(q);`, `auto p = s + 1;`: a
                // pointer to structs, as `const S* p = …;` declares it.
                let many = match init.as_ref() {
                    Some(i) => self.many_leaves(i)?.map(|(s, _)| s),
                    None => None,
                };
                if let (Some(s), Some(i)) = (many, init.clone()) {
                    let decls = self.struct_declarator(&s, &name, span, true, None, Some(i))?;
                    list.extend(decls);
                    if !self.eat(",") {
                        break;
                    }
                    continue;
                }
            }
            let init = match init {
                Some(e) => Some(self.lower_struct(e)?),
                None => None,
            };
            let array = match array {
                // A bound that folds (`sizeof(T) * 2`, `log2i(32)`) is its value.
                Some(Some(n)) => Some(Some(match self.fold_int(&n) {
                    Some(v) => self.folded_literal(v, n.span),
                    None => self.lower_struct(n)?,
                })),
                a => a,
            };
            if is_constexpr && array.is_none() {
                if let Some(e) = &init {
                    self.eager_constexpr_instances(e);
                }
                if let Some(v) = init.as_ref().and_then(|e| self.fold_int(e)) {
                    ty = self.constexpr_local(&name, ty, auto, v, span);
                    list.push(Declarator {
                        name,
                        ty,
                        array: None,
                        init,
                        span,
                        id: NodeId::fresh(),
                    });
                    if !self.eat(",") {
                        break;
                    }
                    continue;
                }
            }
            if auto {
                // `auto x = e;`: the type of `e` where the parser can tell it.
                let pointee = init
                    .as_ref()
                    .filter(|e| self.is_pointer_expr(e))
                    .and_then(|e| self.pointee_type(e));
                ty = match (init.as_ref().and_then(|e| self.expr_type(e)), pointee) {
                    (Some(v), _) if matches!(ty, Ty::Val(_)) => Ty::Val(v),
                    // `auto p = &x[i];`, `auto q = p + 4;`: a pointer.
                    (None, Some(v)) => Ty::Ptr(v),
                    _ => {
                        return Err(KernelError::new(
                            span.line,
                            span.col,
                            format!(
                                "cannot tell the type of `auto {name}` from its initializer; \
                                 write the type"
                            ),
                        ))
                    }
                };
            }
            let declared = match (&array, ty) {
                (Some(_), Ty::Val(v)) => Ty::Ptr(v),
                (_, t) => t,
            };
            // A one-dimensional array's constant bound (`float a[3];`) is kept too: a
            // template's `const T (&a)[N]` deduces `N` from it ([temp.deduct.call]/1).
            let one_bound = match (&md_dims, &array) {
                (None, Some(Some(b))) => super::const_int(b)
                    .and_then(|n| u64::try_from(n).ok())
                    .map(|n| vec![n]),
                _ => None,
            };
            // `const float y = …;`, `const float* p = …;` (not `float* const p`): a const
            // argument for overload resolution ([`super::overload`]).
            let const_decl = self.toks[decl_from..self.pos.min(self.toks.len())]
                .iter()
                .take_while(|t| {
                    !matches!(
                        t.tok,
                        Tok::Punct("*" | "&" | "=" | ";" | "," | "(" | "[" | "{")
                    )
                })
                .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "const" || w == "constexpr"));
            if const_decl {
                self.const_names.insert(name.clone());
            } else {
                self.const_names.remove(&name);
            }
            self.declare(&name, declared);
            if let Some(dims) = md_dims.or(one_bound) {
                self.note_dims(&name, dims);
            }
            if matches!(ty, Ty::Void) {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!("`{name}` cannot have type void"),
                ));
            }
            list.push(Declarator {
                name,
                ty,
                array,
                init,
                span,
                id: NodeId::fresh(),
            });
            if !self.eat(",") {
                break;
            }
        }
        // `auto a = V::load(p);` of a struct whose members are all arrays: the arrays were
        // declared before this statement ([`Self::struct_declarator`]); an empty declaration
        // keeps them in the enclosing scope (an empty statement would get a block of its own).
        if list.is_empty() && self.pre.len() == pre_mark {
            return Ok(StmtKind::Empty);
        }
        Ok(StmtKind::Decl(storage, list))
    }

    /// Refuses a second definition of `name` in the block scope it is declared in
    /// (`float wt[2]; … float wt[2];`): C++17 [basic.scope.declarative]/4, two declarations of
    /// one name in one declarative region must name one entity, and two variable definitions
    /// do not (nvcc: "`wt` has already been declared in the current scope"). An inner block may
    /// hide it.
    ///
    /// # Errors
    /// The redefinition, at the second declaration's name.
    pub(super) fn no_redefinition(&self, name: &str, at: Span) -> PResult<()> {
        if self.scopes.last().is_some_and(|s| s.contains_key(name)) {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "redefinition of `{name}`: it is already declared in this scope (C++17 \
                     [basic.scope.declarative]/4); give the second variable another name, or \
                     assign to the first"
                ),
            ));
        }
        Ok(())
    }

    /// A `for` statement after its `(`, in the loop's own scope (pushed by the caller).
    fn for_rest(&mut self, span: Span) -> PResult<Stmt> {
        let init = if self.eat(";") {
            None
        } else {
            Some(Box::new(self.simple_stmt()?))
        };
        let mark = self.pre.len();
        let cond = if self.is_punct(";") {
            None
        } else {
            let c = self.expr()?;
            Some(self.lower_struct(c)?)
        };
        self.expect_punct(";")?;
        let step = if self.is_punct(")") {
            None
        } else {
            let e = self.expr()?;
            Some(self.lower_struct(e)?)
        };
        self.no_pre_since(mark, span)?;
        self.expect_punct(")")?;
        let head_end = self.last_end();
        let body = self.loop_body()?;
        Ok(Stmt {
            kind: StmtKind::For(init, cond, step, Box::new(body)),
            span,
            end: head_end,
        })
    }

    /// The initializer of `T name(…)`, from its `(` (direct-initialization, C++17 [dcl.init]/16):
    /// one expression initializes a scalar, pointer or vector as `T name = e;` does
    /// ([dcl.init]/17.8); one value per component builds a vector as its `make_` function
    /// (`float2 v(a, b)`, as HIP's `hip_vector_types.h` constructor and the functional cast
    /// `float2(a, b)` here).
    ///
    /// # Errors
    /// `T name();` and `T name(int)`: these declare a function ([dcl.ambig.res]/1, "the most
    /// vexing parse"), which a function body here does not hold; several values for a scalar,
    /// or a count other than the vector's components.
    fn paren_init(&mut self, name: &str, ty: Ty, word: Option<&str>, at: Span) -> PResult<Expr> {
        let declares_function = matches!(self.peek(1), Tok::Punct(")")) || {
            let save = self.pos;
            self.bump();
            let t = self.type_starts();
            self.pos = save;
            t
        };
        if declares_function {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`{name}(…)` here declares a function, not a variable (C++17 \
                     [dcl.ambig.res]/1: what can be a declaration is one); a function \
                     declaration inside a body is not supported: for a value-initialized \
                     variable write `{name}{{}}` or `{name} = 0`"
                ),
            ));
        }
        self.bump();
        let open = self.span();
        let mut args = self.args_closed_by(")")?;
        match (args.len(), ty) {
            (1, _) => args.pop().map_or_else(|| self.err("a value"), Ok),
            (n, Ty::Val(v)) if v.lanes > 1 && n == usize::from(v.lanes) => {
                match word.and_then(|w| super::expr::vector_make(w, v)) {
                    Some(m) => self.node(ExprKind::Call(m, args), open),
                    None => self.err("one initializer for this type"),
                }
            }
            (n, _) => Err(KernelError::new(
                open.line,
                open.col,
                format!(
                    "`{name}` is one value: its `(…)` initializer holds one expression, got {n} \
                     ([dcl.init]/17.8; a vector takes one per component)"
                ),
            )),
        }
    }

    /// Whether a declaration of a struct variable starts at `w` (`Pair p`, `Pair* q`,
    /// `WarpReduce<float, 32> r`; not `Pair(…)`, `Pair{…}` or `WarpReduce<…>::sum(…)`).
    fn struct_decl_starts(&self, w: &str) -> bool {
        if matches!(w, "struct" | "class" | "union") {
            return matches!(self.peek(1), Tok::Ident(n) if self.is_struct_name(n));
        }
        if self.structs.contains_key(w) || self.struct_alias.contains_key(w) {
            return matches!(self.peek(1), Tok::Ident(_) | Tok::Punct("*" | "&"));
        }
        if self.class_templates.contains_key(w) && matches!(self.peek(1), Tok::Punct("<")) {
            return self.template_id_declares(1);
        }
        // `std::plus<float> add;`: a function object of `<functional>` ([`super::std_functional`]).
        if w == "std" && matches!(self.peek(1), Tok::Punct("::")) {
            if let Tok::Ident(n) = self.peek(2) {
                if self.class_templates.contains_key(n) && matches!(self.peek(3), Tok::Punct("<")) {
                    return self.template_id_declares(3);
                }
            }
        }
        false
    }

    /// Whether the template argument list opened by the `<` at `lt` tokens ahead is followed,
    /// after its matching `>`, by a name, `*` or `&` (not `::`): a declaration's type.
    fn template_id_declares(&self, lt: usize) -> bool {
        let mut depth = 0usize;
        let mut k = lt;
        loop {
            match self.peek(k) {
                Tok::Punct("<") => depth += 1,
                Tok::Punct(">") => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                Tok::Punct(";" | "{" | "}") | Tok::Eof => return false,
                _ => {}
            }
            k += 1;
        }
        matches!(self.peek(k + 1), Tok::Ident(_) | Tok::Punct("*" | "&"))
    }

    /// `static_assert(cond[, "message"]);`: checked when the condition is a constant integer
    /// (an error when it is 0), skipped otherwise.
    pub(super) fn skip_static_assert(&mut self) -> PResult<()> {
        let at = self.span();
        self.bump();
        self.expect_punct("(")?;
        let cond = self.assign_expr()?;
        let mut message = None;
        if self.eat(",") {
            if let ExprKind::Str(text) = self.assign_expr()?.kind {
                message = Some(text);
            }
        }
        self.expect_punct(")")?;
        self.expect_punct(";")?;
        if self.fold_int(&cond) == Some(0) {
            // The message as the compilers print it ([dcl.pre]/10: a failed static_assert's
            // diagnostic includes the message's text).
            let m = match message {
                Some(text) => format!("static_assert failed: \"{text}\""),
                None => "static_assert failed".to_string(),
            };
            return Err(KernelError::new(at.line, at.col, m));
        }
        Ok(())
    }

    /// `throw [expression];` (at `throw`): the operand is skipped (it is never evaluated
    /// here), and the statement is a failed device assert naming the throw, so that a run
    /// reaching it stops with that message and a constant evaluation reaching it is no
    /// constant ([expr.const]/2).
    ///
    /// # Errors
    /// A statement without its `;` (the operand's parentheses are followed to it).
    fn throw_stmt(&mut self, span: Span) -> PResult<Stmt> {
        self.bump();
        let mut depth = 0usize;
        loop {
            match self.peek(0) {
                Tok::Eof => return self.err("`;` after the throw-expression"),
                Tok::Punct("(" | "[" | "{") => depth += 1,
                Tok::Punct(")" | "]" | "}") if depth > 0 => depth -= 1,
                Tok::Punct("}") => return self.err("`;` after the throw-expression"),
                Tok::Punct(";") if depth == 0 => break,
                _ => {}
            }
            self.bump();
        }
        self.expect_punct(";")?;
        let zero = self.e_int(span, 0);
        let s = self.syn_span(span);
        let why = Expr::new(
            ExprKind::Str(
                "throw: device code has no exceptions (HIP Programming Guide, C++ support; \
                 CUDA C++ Programming Guide, Exception Handling)"
                    .to_string(),
            ),
            s,
        );
        let call = self.e_call(span, crate::builtins::ASSERT, vec![zero, why]);
        Ok(Stmt {
            kind: StmtKind::Expr(call),
            span,
            end: self.last_end(),
        })
    }
}

/// The literal `v` (an array's folded cell count) at `span`.
fn arrays_lit(v: u64, span: Span) -> Expr {
    Expr::new(
        ExprKind::Int {
            value: v,
            unsigned: false,
            long: v > i32::MAX as u64,
        },
        span,
    )
}

/// `&e` for `return e;` of a function returning a reference ([`Parser::ret_addr`]); a
/// conditional of two lvalues is an lvalue ([expr.cond]/4), so `&(c ? a : b)` is
/// `c ? &a : &b`. Nesting deeper than 64 conditionals is left as `&e`, which the run refuses.
fn address_of(e: Expr, depth: u32) -> Expr {
    let sp = e.span;
    if depth < 64 {
        if let ExprKind::Ternary(c, a, b) = e.kind {
            let a = Box::new(address_of(*a, depth + 1));
            let b = Box::new(address_of(*b, depth + 1));
            return Expr::new(ExprKind::Ternary(c, a, b), sp);
        }
    }
    Expr::new(ExprKind::AddrOf(Box::new(e)), sp)
}
