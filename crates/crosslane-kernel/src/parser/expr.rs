//! Expressions: C precedence climbing, casts, postfix operators, primaries.

use super::types::{word_type, QUALIFIERS, TYPE_WORDS};
use super::{PResult, Parser};
use crate::ast::*;
use crate::budget::DEPTH_CEILING;
use crate::lexer::Tok;
use crate::types::{BinOp, Scalar, Ty, UnOp, ValTy};
use crate::KernelError;

impl Parser<'_> {
    pub(super) fn expr(&mut self) -> PResult<Expr> {
        let mut e = self.assign_expr()?;
        while self.is_punct(",") {
            let span = e.span;
            self.bump();
            let r = self.assign_expr()?;
            e = self.node(ExprKind::Comma(Box::new(e), Box::new(r)), span)?;
        }
        Ok(e)
    }

    pub(super) fn assign_expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.assign_inner();
        self.depth -= 1;
        r
    }

    pub(super) fn assign_inner(&mut self) -> PResult<Expr> {
        let lhs = self.ternary()?;
        let op = match self.peek(0) {
            Tok::Punct("=") => Some(None),
            Tok::Punct("+=") => Some(Some(BinOp::Add)),
            Tok::Punct("-=") => Some(Some(BinOp::Sub)),
            Tok::Punct("*=") => Some(Some(BinOp::Mul)),
            Tok::Punct("/=") => Some(Some(BinOp::Div)),
            Tok::Punct("%=") => Some(Some(BinOp::Rem)),
            Tok::Punct("&=") => Some(Some(BinOp::And)),
            Tok::Punct("|=") => Some(Some(BinOp::Or)),
            Tok::Punct("^=") => Some(Some(BinOp::Xor)),
            Tok::Punct("<<=") => Some(Some(BinOp::Shl)),
            Tok::Punct(">>=") => Some(Some(BinOp::Shr)),
            _ => None,
        };
        let Some(op) = op else { return Ok(lhs) };
        // `(c ? a : b) = v`: the lvalue the condition names ([`super::cond_lvalue`]).
        let lhs = self.cond_lvalue(lhs);
        let view = self.ref_cast_writable(&lhs);
        if let Some(e) = super::ref_cast::read_only_target(&lhs).filter(|_| !view) {
            return Err(e);
        }
        let op_at = self.span();
        self.bump();
        let braced = op.is_none() && self.is_punct("{");
        let rhs = if braced {
            // `p = {a, b};`: an aggregate of the left side's struct (only a struct's).
            if self.struct_of(&lhs).is_none() {
                return self.err("an expression");
            }
            self.brace_list()?
        } else {
            self.assign_expr()?
        };
        if view {
            // A write through `reinterpret_cast<T&>(x)` of a variable ([`super::ref_cast`]).
            if let Some(kind) = self.ref_cast_write(&lhs, op, rhs.clone()) {
                return self.node(kind, lhs.span);
            }
        }
        if let Some(b) = op {
            // `a += b` on a struct: its `operator+=` ([`super::operators`]).
            if let Some(call) = self.compound_operator(b, &lhs, &rhs, op_at)? {
                return Ok(call);
            }
        } else if !braced {
            // `a = b` on a struct with a member `operator=` ([`super::operators`]).
            if let Some(call) = self.assign_operator(&lhs, &rhs, op_at)? {
                return Ok(call);
            }
        }
        // `v.xy = e` of a clang extended vector ([`super::swizzle`]).
        let rhs = match self.swizzle_assign(op, &lhs, rhs)? {
            Ok(assign) => return self.checked(Ok(assign)),
            Err(rhs) => rhs,
        };
        let span = lhs.span;
        self.node(ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)), span)
    }

    pub(super) fn ternary(&mut self) -> PResult<Expr> {
        let c = self.binary(0)?;
        if !self.eat("?") {
            return Ok(c);
        }
        // The operands are evaluated only where chosen ([`Parser::conditional`]).
        self.conditional += 1;
        let a = self.expr();
        let b = a.and_then(|a| {
            self.expect_punct(":")?;
            Ok((a, self.assign_expr()?))
        });
        self.conditional -= 1;
        let (a, b) = b?;
        let (a, b) = self.conditional_operands(a, b);
        let span = c.span;
        self.node(
            ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)),
            span,
        )
    }

    /// The operands of `c ? a : b` converted to their common type when both are of
    /// different built-in arithmetic types (C++17 [expr.cond]/7.2: "the usual arithmetic
    /// conversions are performed to bring them to a common type, and the result is of that
    /// type"): `c ? -1 : 1u` is the `unsigned` 4294967295 in either lane, `c ? 'a' : 1.0` a
    /// `double`. The 16-bit floating types are classes in the vendor headers (their
    /// conversions are not the usual arithmetic ones), so those operands stay as they are.
    fn conditional_operands(&self, a: Expr, b: Expr) -> (Expr, Expr) {
        let builtin = |v: ValTy| {
            v.lanes == 1 && !matches!(v.scalar, Scalar::F16 | Scalar::Bf16) && !v.scalar.is_fp8()
        };
        let (Some(ta), Some(tb)) = (self.expr_type(&a), self.expr_type(&b)) else {
            return (a, b);
        };
        if ta == tb || !builtin(ta) || !builtin(tb) {
            return (a, b);
        }
        let common = ValTy::scalar(Scalar::common(ta.scalar, tb.scalar));
        let cast = |e: Expr, t: ValTy| {
            if t == common {
                e
            } else {
                let span = e.span;
                Expr::new(ExprKind::Cast(Ty::Val(common), Box::new(e)), span)
            }
        };
        (cast(a, ta), cast(b, tb))
    }

    /// Precedence climbing over the binary operators (C precedence, left-associative).
    pub(super) fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        self.enter()?;
        let mut lhs = self.unary()?;
        while let Tok::Punct(p) = self.peek(0) {
            let Some((prec, op)) = binop_of(p) else { break };
            // In a template argument list `>` closes the list ([temp.names]/3).
            if self.no_gt && (matches!(*p, ">" | ">>") || self.gt_owed == Some(self.pos)) {
                break;
            }
            if prec < min_prec {
                break;
            }
            let text = *p;
            let op_at = self.span();
            self.bump();
            // The right operand of `&&`/`||` is evaluated only where the left leaves the result
            // undecided ([`Parser::conditional`]).
            let short = matches!(op, Op::AndAnd | Op::OrOr);
            self.conditional += u32::from(short);
            let rhs = self.binary(prec + 1);
            self.conditional -= u32::from(short);
            let rhs = match rhs {
                Ok(r) => r,
                Err(e) => {
                    self.depth -= 1;
                    return Err(e);
                }
            };
            if matches!(op, Op::Bin(_)) && self.overloadable(text, &[&lhs, &rhs]) {
                // A struct operand: the operator function overload resolution chooses
                // ([`super::operators`]).
                match self.operator_call(text, vec![lhs.clone(), rhs.clone()], op_at) {
                    Ok(Some(call)) => {
                        lhs = call;
                        continue;
                    }
                    Ok(None) => {}
                    Err(e) => {
                        self.depth -= 1;
                        return Err(e);
                    }
                }
            }
            let span = lhs.span;
            let kind = match op {
                Op::Bin(b) => ExprKind::Binary(b, Box::new(lhs), Box::new(rhs)),
                Op::AndAnd => ExprKind::Logical(true, Box::new(lhs), Box::new(rhs)),
                Op::OrOr => ExprKind::Logical(false, Box::new(lhs), Box::new(rhs)),
            };
            lhs = match self.node(kind, span) {
                Ok(e) => e,
                Err(e) => {
                    self.depth -= 1;
                    return Err(e);
                }
            };
        }
        self.depth -= 1;
        Ok(lhs)
    }

    pub(super) fn unary(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    pub(super) fn unary_inner(&mut self) -> PResult<Expr> {
        let span = self.span();
        let wrap = |kind| Ok(Expr::new(kind, span));
        if let Tok::Punct(p) = self.peek(0).clone() {
            let un = match p {
                "-" => Some(UnOp::Neg),
                "+" => Some(UnOp::Plus),
                "!" => Some(UnOp::Not),
                "~" => Some(UnOp::BitNot),
                _ => None,
            };
            if let Some(op) = un {
                self.bump();
                let e = self.unary()?;
                // `-v` on a struct: its `operator-` ([`super::operators`]).
                if self.overloadable(p, &[&e]) {
                    if let Some(call) = self.operator_call(p, vec![e.clone()], span)? {
                        return Ok(call);
                    }
                }
                return self.checked(wrap(ExprKind::Unary(op, Box::new(e))));
            }
            match p {
                "++" | "--" => {
                    self.bump();
                    let e = self.unary()?;
                    let e = self.cond_lvalue(e);
                    // `++v` on a struct: its `operator++()` ([over.inc]/1).
                    if self.struct_of(&e).is_some() {
                        if let Some(call) = self.operator_call(p, vec![e.clone()], span)? {
                            return Ok(call);
                        }
                    }
                    return self.checked(wrap(ExprKind::IncDec {
                        inc: p == "++",
                        prefix: true,
                        target: Box::new(e),
                    }));
                }
                "*" => {
                    self.bump();
                    let e = self.unary()?;
                    if self.is_local_struct_pointer(&e) {
                        // `*p` of `S* p = &s;`: `s` itself ([expr.unary.op]/1).
                        return Ok(e);
                    }
                    if matches!(&e.kind, ExprKind::Ident(n) if n == "this")
                        && self.var_struct("this").is_some()
                    {
                        // `*this` in a member function: the receiver's value
                        // ([expr.prim.this]/2, [expr.unary.op]/1), as in `o < *this`.
                        return Ok(e);
                    }
                    // `*(reinterpret_cast<const PackType<T, N>*>(src) + offset)` (OneFlow's
                    // packed load and store of a struct): the same place as `cast[offset]`
                    // ([expr.sub]/1: `E1[E2]` is identical to `*((E1)+(E2))`), which the
                    // struct machinery loads and stores whole.
                    if let ExprKind::Binary(BinOp::Add, p, i) = &e.kind {
                        if matches!(&p.kind, ExprKind::Call(n, a)
                            if n.starts_with(super::structs::void_ptr::SCAST) && a.len() == 1)
                        {
                            let span = e.span;
                            return self.node(ExprKind::Index(p.clone(), i.clone()), span);
                        }
                    }
                    return self.checked(wrap(ExprKind::Deref(Box::new(e))));
                }
                "&" => {
                    self.bump();
                    let e = self.unary()?;
                    if let Some(a) = self.cond_address(&e) {
                        return Ok(a);
                    }
                    return self.checked(wrap(ExprKind::AddrOf(Box::new(e))));
                }
                "(" if matches!(self.peek(1), Tok::Ident(w) if w == "const" || self.is_struct_name(w)) =>
                {
                    if let Some(e) = self.struct_ptr_cast()? {
                        return self.checked(Ok(e));
                    }
                    if self.cast_follows() {
                        self.bump();
                        let base = self.base_type()?;
                        let (ty, _) = self.pointers(base)?;
                        self.expect_punct(")")?;
                        let e = self.unary()?;
                        return self.checked(wrap(ExprKind::Cast(ty, Box::new(e))));
                    }
                }
                "(" if self.cast_follows() => {
                    let at = self.span();
                    let start = self.pos;
                    self.bump();
                    let base = self.base_type()?;
                    let (ty, reference) = self.pointers(base)?;
                    let konst = self.toks[start..self.pos]
                        .iter()
                        .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "const"));
                    self.expect_punct(")")?;
                    let e = self.unary()?;
                    if let Some(d) = self.discard_struct(ty, &e) {
                        return Ok(d);
                    }
                    // `(T&)x` to a non-const reference: no static_cast binds a `T&` to an
                    // object of another type, so the cast is `reinterpret_cast<T&>(x)`
                    // ([expr.cast]/4; parser/ref_cast.rs). `(const T&)x` is the static_cast
                    // to a temporary of the converted value: the plain conversion.
                    if reference && !konst {
                        let k = self.reinterpret_ref(ty, e, at);
                        return self.checked(wrap(k));
                    }
                    return self.checked(wrap(ExprKind::Cast(ty, Box::new(e))));
                }
                _ => {}
            }
        }
        if let Some(e) = self.layout_query()? {
            return self.checked(Ok(e));
        }
        if self.is_word("sizeof") {
            self.bump();
            // `sizeof expr` / `sizeof(expr)` ([expr.sizeof]/1): the operand is not evaluated;
            // its size comes from its type where the front end knows it.
            let expression = !self.is_punct("(")
                || !matches!(self.peek(1), Tok::Ident(w) if QUALIFIERS.contains(&w.as_str())
                    || self.is_type_word(w)
                    || self.is_struct_name(w)
                    || w == "struct"
                    || w == "typename");
            if expression {
                let at = self.span();
                let operand = self.unary()?;
                let e = self.sizeof_expr(&operand, at);
                return self.checked(Ok(e));
            }
            let open = self.pos;
            let typed = self.sizeof_type();
            let bytes = match typed {
                Ok(b) => b,
                Err(type_err) => {
                    // `sizeof(S<3>::value)`, `sizeof(Cfg::kN)`: a class's static member starts
                    // like a type; read as an expression ([expr.sizeof]/1 takes either).
                    self.pos = open;
                    let at = self.span();
                    let Ok(operand) = self.unary() else {
                        return Err(type_err);
                    };
                    let e = self.sizeof_expr(&operand, at);
                    return self.checked(Ok(e));
                }
            };
            return self.checked(wrap(ExprKind::SizeOf(bytes)));
        }
        self.postfix()
    }

    pub(super) fn cast_follows(&self) -> bool {
        match self.peek(1) {
            Tok::Ident(w) => {
                // `(__gm__ float*)x`, `(__ubuf__ half*)p`: Ascend C's address spaces qualify
                // the pointee of a cast's type as they do a declaration's (asc-devkit SIMT
                // API, 内存空间限定符).
                (self.is_type_word(w)
                    || matches!(w.as_str(), "const" | "volatile" | "__gm__" | "__ubuf__"))
                    // `(int(tid) + 1)`, `(float(x) - m)`: a functional cast
                    // ([expr.type.conv]) opening a parenthesized expression; `(int (*)(float))f`
                    // and `(void (&)(int))f` are casts to a function pointer or reference type,
                    // whose declarator opens with `(*`, `(&` or `(&&` ([dcl.fct]).
                    && !matches!(self.peek(2), Tok::Punct("(")
                        if !TYPE_WORDS.contains(&w.as_str())
                            || !matches!(self.peek(3), Tok::Punct("*" | "&" | "&&" | "^")))
                    // `(mask_t{1} << l)`: a functional cast in parentheses ([expr.type.conv]),
                    // no cast-expression (a type-id has no `{`).
                    && !matches!(self.peek(2), Tok::Punct("{"))
                    // `(std::conditional_t<C, A, B>)x`, `(typename std::conditional<…>::type)x`:
                    // a type trait names a type ([meta.trans.other]), so this is a cast.
                    || w == "typename"
                    || (w == "std"
                        && matches!(self.peek(2), Tok::Punct("::"))
                        && matches!(self.peek(3), Tok::Ident(t) if super::type_traits::is_type_trait(t))
                        && matches!(self.peek(4), Tok::Punct("<")))
                    || (super::type_traits::is_type_trait(w) && matches!(self.peek(2), Tok::Punct("<")))
            }
            _ => false,
        }
    }

    pub(super) fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        loop {
            let span = e.span;
            if self.is_punct("(") {
                if let Some(sig) = self.fn_ptr_callee(&e) {
                    // `table[k](x)`, `(*f)(x)`: a call through a function pointer.
                    e = self.fn_ptr_call(e, sig, span)?;
                    continue;
                }
            }
            if self.eat("[") {
                if let ExprKind::Ident(n) = &e.kind {
                    if let Some(dims) = self.dims_of(n).or_else(|| self.closure_dims_of(n)) {
                        e = self.md_subscripts(e, &dims, span)?;
                        continue;
                    }
                }
                let i = self.expr()?;
                self.expect_punct("]")?;
                if let Some(x) = self.struct_subscript(&e, i.clone(), span) {
                    // `v[i]` calling the struct's `operator[]`.
                    e = self.checked(Ok(x))?;
                    continue;
                }
                e = self.node(ExprKind::Index(Box::new(e), Box::new(i)), span)?;
            } else if self.is_punct(".") || self.is_punct("->") {
                let arrow = self.is_punct("->");
                self.bump();
                self.eat_template_keyword();
                let mut field = self.ident()?;
                // `f.operator()(…)`, `f.template operator()<N>()`: the call operator by name.
                if field == "operator"
                    && self.is_punct("(")
                    && matches!(self.peek(1), Tok::Punct(")"))
                {
                    self.pos += 2;
                    field = "operator()".to_string();
                }
                if arrow && self.points_at_structs(&e) {
                    // `p->v` on a struct pointer: `(*p).v`.
                    e = self.node(ExprKind::Deref(Box::new(e)), span)?;
                } else if arrow
                    && matches!(field.as_str(), "x" | "y" | "z" | "w")
                    && self.pointee_type(&e).is_some_and(|v| v.lanes > 1)
                {
                    // `h->x` on a pointer to a vector (`const __half2* h`, `float4* p`): `(*h).x`
                    // ([expr.ref]/2: `E1->E2` is `(*(E1)).E2`; CUDA C++ Programming Guide,
                    // "Built-in Vector Types": the components are the members x, y, z, w).
                    e = self.node(ExprKind::Deref(Box::new(e)), span)?;
                }
                if let Some(c) = self.atomic_ref_call(&e, &field, span)? {
                    // `r.fetch_add(1)` of a `cuda::atomic_ref` ([`super::atomic_ref`]).
                    e = c;
                    continue;
                }
                if let Some(c) = self.method_template_call(&e, &field, span)? {
                    e = c;
                    continue;
                }
                if self.is_punct("(") {
                    // `x.f(…)`: a member function, the receiver first (see `structs`).
                    if self.structs.is_empty() {
                        let at = self.span();
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!(
                                "`.{field}(…)` calls a member function, and this source defines \
                                 no struct with one"
                            ),
                        ));
                    }
                    self.bump();
                    // `this->f(d, s)` of a data member functor `f`: its `operator()`.
                    let (key, recv) = match self.functor_member(&e, &field) {
                        Some(m) => ("@m:operator()".to_string(), m),
                        None => (format!("@m:{field}"), e),
                    };
                    let mut args = vec![recv];
                    args.extend(self.args_closed_by(")")?);
                    e = self.node(ExprKind::Call(key, args), span)?;
                    continue;
                }
                if let Some(x) = self.const_struct_member(&e, &field, span)? {
                    // `c_params.n` of a `__constant__` struct: its member's table.
                    e = x;
                    continue;
                }
                if let Some(x) = self.swizzle_member(&e, &field, span)? {
                    // `v.wzyx`, `v.s7`, `v.lo` of a clang extended vector ([`super::swizzle`]).
                    e = self.checked(Ok(x))?;
                    continue;
                }
                e = self.node(ExprKind::Member(Box::new(e), field), span)?;
            } else if self.is_punct("++") || self.is_punct("--") {
                let inc = self.is_punct("++");
                let op_at = self.span();
                self.bump();
                if self.struct_of(&e).is_some() {
                    // `v++` on a struct: `operator++(v, 0)` ([over.inc]/1).
                    let zero = self.e_int(op_at, 0);
                    let text = if inc { "++" } else { "--" };
                    if let Some(call) = self.operator_call(text, vec![e.clone(), zero], op_at)? {
                        e = call;
                        continue;
                    }
                }
                let target = self.cond_lvalue(e);
                e = self.node(
                    ExprKind::IncDec {
                        inc,
                        prefix: false,
                        target: Box::new(target),
                    },
                    span,
                )?;
            } else if self.is_punct("(")
                && (matches!(&e.kind, ExprKind::Call(n, _) if n.starts_with("lambda#"))
                    || (matches!(&e.kind, ExprKind::Call(..)) && self.struct_of(&e).is_some()))
            {
                // Also a call of a struct made in place (`Functor{}(a, b)`,
                // `static_for<0, 4, 1>{}(f)`): its `operator()` on that temporary ([over.call]/1).
                // A lambda called where it is made (`auto v = [&]() { … }();`): its closure's
                // `operator()` on the closure just made ([expr.prim.lambda.closure]/3).
                self.bump();
                let mut args = vec![e];
                args.extend(self.args_closed_by(")")?);
                e = self.node(ExprKind::Call("@m:operator()".into(), args), span)?;
            } else if self.is_punct("(") {
                let at = self.span();
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "only named functions can be called",
                ));
            } else {
                return Ok(e);
            }
        }
    }

    pub(super) fn primary(&mut self) -> PResult<Expr> {
        // `::f(x)`, `::g`: a leading `::` names the global namespace (C++ [basic.lookup.qual]/3
        // and [namespace.qual]); names here have one scope for functions, so it is dropped.
        if self.is_punct("::") && matches!(self.peek(1), Tok::Ident(_)) {
            self.bump();
        }
        // `cub::Max()(a, b)`, `m(a, b)` of `cub::Max m;` ([`super::lib_functors`]).
        if let Some(e) = self.lib_functor_call()? {
            return Ok(e);
        }
        // `cuda::ceil_div(a, b)`, `std::clamp(v, lo, hi)` ([`super::lib_helpers`]).
        if let Some(e) = self.lib_helper_call()? {
            return Ok(e);
        }
        // `cub::LoadDirectBlocked(tid, ptr, items)` and kin ([`super::cub_direct`]).
        if let Some(e) = self.cub_direct_call()? {
            return Ok(e);
        }
        // `cub::ShuffleIndex<32>(v, src, mask)` and kin ([`super::cub_ptx`]).
        if let Some(e) = self.cub_ptx_call()? {
            return Ok(e);
        }
        let span = self.span();
        let t = self.bump();
        let kind = match t.tok {
            // A local reference: the place it names ([`super::local_ref`]).
            Tok::Ident(w) if self.local_ref_of(&w).is_some() => {
                let place = self.local_ref_of(&w).cloned();
                return place.map_or_else(|| self.err("a name"), Ok);
            }
            Tok::Ident(w) if w == super::range_for::EXTENT => return self.range_extent(span),
            // clang's and GCC's constant builtins (`__builtin_inff()`, `__builtin_huge_val()`,
            // `__builtin_nanf("")`): the `math.h` constant each is (GCC manual, "Other
            // Built-in Functions": `__builtin_inf` is `double` positive infinity, the `f`
            // suffix `float`; `__builtin_nan("")` a quiet NaN, its string choosing a payload
            // no value here depends on). CANN's `simt_api/math_constants.h` defines
            // `ASCRT_INF_F` as `__builtin_inff()`.
            Tok::Ident(w) if crate::mathlib::builtin_call(&w).is_some() && self.is_punct("(") => {
                let _ = self.call_args()?;
                let name = crate::mathlib::builtin_call(&w).unwrap_or("INFINITY");
                ExprKind::Ident(name.to_string())
            }
            // `typename std::conditional<W == 32, uint32_t, uint64_t>::type(1)`: a functional
            // cast ([expr.type.conv]) of a dependent type, as an alias template's use
            // `lane_mask_t<W>(1)` becomes ([`super::alias_templates`]).
            Tok::Ident(w) if w == "typename" => {
                let ty = self.base_type()?;
                let crate::types::Ty::Val(v) = ty else {
                    return self.err("a value type after `typename` in an expression");
                };
                if !(self.is_punct("(") || self.is_punct("{")) {
                    return self.err("`(` or `{` after the type (a functional cast)");
                }
                return self.functional_cast(v.scalar.name(), v, span);
            }
            // The function-local predefined variable `__func__`: the function's name as a
            // string (C++17 [dcl.fct.def.general]/8).
            Tok::Ident(w) if w == "__func__" && self.func_now.is_some() => {
                ExprKind::Str(self.func_now.clone().unwrap_or_default())
            }
            Tok::Int {
                value,
                unsigned,
                long,
            } => ExprKind::Int {
                value,
                unsigned,
                long,
            },
            Tok::Float { value, single } => ExprKind::Float { value, single },
            Tok::Str(text) => ExprKind::Str(text),
            // An ordinary character literal of one character is a `char` ([lex.ccon]/2),
            // signed on the CUDA and HIP targets: `'\xff'` is the `char` -1, `sizeof('a')` 1.
            // A code beyond one byte (a multicharacter or wide character) stays an `int`.
            Tok::Char(c) if c <= 0xff => {
                let lit = Expr::new(
                    ExprKind::Int {
                        value: u64::from(c),
                        unsigned: false,
                        long: false,
                    },
                    span,
                );
                ExprKind::Cast(Ty::Val(ValTy::scalar(Scalar::I8)), Box::new(lit))
            }
            Tok::Char(c) => ExprKind::Int {
                value: u64::from(c),
                unsigned: false,
                long: false,
            },
            // C++17 [lex.ccon]/3-5: `u8'A'` is a `char`, `u'A'` a `char16_t`, `U'A'` a
            // `char32_t`, `L'A'` a `wchar_t` (a signed 32-bit int on the x86-64 Linux hosts
            // nvcc and hipcc compile for: System V AMD64 psABI, "Fundamental Types").
            Tok::PrefixedChar { code, prefix } => {
                let scalar = match prefix {
                    "u8" => Scalar::I8,
                    "u" => Scalar::U16,
                    "U" => Scalar::U32,
                    _ => Scalar::I32,
                };
                let lit = Expr::new(
                    ExprKind::Int {
                        value: u64::from(code),
                        unsigned: false,
                        long: false,
                    },
                    span,
                );
                ExprKind::Cast(Ty::Val(ValTy::scalar(scalar)), Box::new(lit))
            }
            Tok::Punct("(") => {
                // Inside parentheses `>` compares again, even in a template argument.
                let no_gt = std::mem::replace(&mut self.no_gt, false);
                let e = self.expr();
                self.no_gt = no_gt;
                let e = e?;
                self.expect_punct(")")?;
                return Ok(e);
            }
            // `decltype(I)::value` with `I` a class object: the static member of its class
            // ([dcl.type.simple]/4: `decltype` of an unparenthesized id-expression is the
            // declared type; [class.static]/1).
            Tok::Ident(w)
                if w == "decltype"
                    && self.is_punct("(")
                    && matches!(self.peek(2), Tok::Punct(")"))
                    && matches!(self.peek(3), Tok::Punct("::"))
                    && matches!(self.peek(4), Tok::Ident(_))
                    && matches!(self.peek(1), Tok::Ident(n) if self.var_struct(n).is_some()) =>
            {
                let (Tok::Ident(n), Tok::Ident(m)) = (self.peek(1).clone(), self.peek(4).clone())
                else {
                    return self.err("a name");
                };
                let sname = self
                    .var_struct(&n)
                    .map(|v| v.sname.clone())
                    .unwrap_or_default();
                let Some(c) = self.static_const(&sname, &m) else {
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        format!("`decltype({n})::{m}`: `{sname}` has no static constant `{m}`"),
                    ));
                };
                self.pos += 5;
                return Ok(c);
            }
            Tok::Ident(w) if w == "true" || w == "false" => ExprKind::Bool(w == "true"),
            // The null pointer constant (C11 6.3.2.3p3; C++ [conv.ptr]): 0 as a pointer.
            Tok::Ident(w) if w == "NULL" || w == "nullptr" => ExprKind::Int {
                value: 0,
                unsigned: false,
                long: false,
            },
            Tok::Ident(w)
                if self.is_struct_name(&w)
                    && (self.is_punct("::")
                        || self.is_punct("{")
                        || self.is_punct("(")
                        || (self.class_templates.contains_key(&w) && self.is_punct("<"))) =>
            {
                self.pos -= 1;
                return self.struct_primary(span);
            }
            // `memcpy`/`memset` in device code, unless the source declares its own.
            Tok::Ident(w)
                if matches!(
                    w.as_str(),
                    "memcpy" | "memset" | "__builtin_memcpy" | "__builtin_memset"
                ) && self.is_punct("(")
                    && self.var_type(&w).is_none()
                    && !self.fn_types.contains_key(&w) =>
            {
                self.pos -= 1;
                return self.mem_call(span);
            }
            Tok::Ident(w)
                if (w == "__builtin_bit_cast" && self.is_punct("("))
                    || (w == "bit_cast"
                        && self.is_punct("<")
                        && !self.templates.contains_key("bit_cast")
                        && !self.fn_types.contains_key("bit_cast")) =>
            {
                self.pos -= 1;
                return self.bit_cast(span);
            }
            // clang's and GCC's type-trait builtin (`Cond<__is_base_of(Sum, Op), …>`).
            Tok::Ident(w) if w == "__is_base_of" && self.is_punct("(") => {
                return self.builtin_is_base_of(span);
            }
            Tok::Ident(w) if super::type_traits::is_value_trait(&w) && self.is_punct("<") => {
                self.pos -= 1;
                return self.trait_value(span);
            }
            Tok::Ident(w)
                if super::std_functional::is_functor(&w)
                    && self.is_punct("<")
                    && matches!(self.peek(1), Tok::Punct(">"))
                    && !self.class_templates.contains_key(&w) =>
            {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!(
                        "the transparent `std::{w}<>` runs as a CUB call's operator, called where \
                         it is made (`std::{w}<>()(a, b)`) or as a named object, not as a value \
                         passed on; give the operand type (`std::{w}<float>{{}}`)"
                    ),
                ));
            }
            Tok::Ident(w) if w == "numeric_limits" && self.is_punct("<") => {
                self.pos -= 1;
                return self.numeric_limits(span);
            }
            // `const_cast<T*>(p)` changes only the cv-qualification (C++17
            // [expr.const.cast]/3: the result refers to the original object), which crosslane
            // does not track: a pointer cast as `static_cast` is, and a reference one the
            // object itself.
            Tok::Ident(w)
                if matches!(
                    w.as_str(),
                    "static_cast" | "reinterpret_cast" | "const_cast"
                ) =>
            {
                if let Some(k) = self.struct_ptr_named_cast()? {
                    return self.node(k, span);
                }
                self.expect_punct("<")?;
                let base = self.base_type()?;
                let (mut ty, reference) = self.pointers(base)?;
                // `reinterpret_cast<int4(&)[16]>(bytes)[0] = …` (bitsandbytes'
                // `kgemm_4bit_inference_naive`): a reference to an array of `T` naming the
                // operand's storage ([expr.reinterpret.cast]/11); indexed, it is the operand
                // seen through a `T*`, as the array converts to a pointer to its first element
                // ([conv.array]). The bound changes no element.
                if !reference
                    && self.is_punct("(")
                    && matches!(self.peek(1), Tok::Punct("&"))
                    && matches!(self.peek(2), Tok::Punct(")"))
                    && matches!(self.peek(3), Tok::Punct("["))
                {
                    if let Ty::Val(v) = ty {
                        let close = self.closing(self.pos + 3).ok_or_else(|| {
                            KernelError::new(span.line, span.col, "`[` never closed")
                        })?;
                        self.pos = close + 1;
                        ty = Ty::Ptr(v);
                    }
                }
                self.expect_punct(">")?;
                self.expect_punct("(")?;
                let e = self.expr()?;
                self.expect_punct(")")?;
                if let Some(d) = self.discard_struct(ty, &e) {
                    return Ok(d);
                }
                if reference && w == "reinterpret_cast" {
                    // `reinterpret_cast<T&>(x)` sees x's bytes as a T (parser/ref_cast.rs).
                    self.reinterpret_ref(ty, e, span)
                } else if reference && w == "const_cast" {
                    return Ok(e);
                } else {
                    ExprKind::Cast(ty, Box::new(e))
                }
            }
            Tok::Ident(w)
                if w == "memcpy_async"
                    && self.is_punct("(")
                    && matches!(self.peek(1), Tok::Ident(g) if self.groups.contains_key(g)
                        || super::cg::NAMESPACES.contains(&g.as_str())
                        || matches!(g.as_str(), "this_thread_block" | "tiled_partition"
                            | "coalesced_threads" | "this_grid")) =>
            {
                // `cuda::memcpy_async(group, dst, src, bytes, barrier)` (its namespace read
                // before): the group's copy.
                self.pos -= 1;
                if let Some(e) = self.cuda_group_memcpy_async()? {
                    return Ok(e);
                }
                return self.err("a cooperative group as memcpy_async's first argument");
            }
            Tok::Ident(w) if super::cg::NAMESPACES.contains(&w.as_str()) && self.is_punct("::") => {
                // `cg::reduce(…)`, `std::min(…)`: the name after its namespace.
                self.bump();
                self.skip_cg_namespace();
                let name_at = self.span();
                let name = self.ident()?;
                if let Some(e) = self.cg_free(&name, name_at)? {
                    return Ok(e);
                }
                if let Some(e) = self.std_min_max_explicit(&name, name_at)? {
                    return Ok(e);
                }
                self.pos -= 1;
                return self.primary();
            }
            Tok::Ident(w)
                if matches!(
                    w.as_str(),
                    "this_thread_block"
                        | "this_thread"
                        | "this_grid"
                        | "coalesced_threads"
                        | "tiled_partition"
                        | "labeled_partition"
                        | "binary_partition"
                ) && (self.is_punct("(") || self.is_punct("<"))
                    && !self.templates.contains_key(&w) =>
            {
                // A group made in place without its namespace (`using namespace
                // cooperative_groups;`).
                if let Some(e) = self.cg_free(&w, span)? {
                    return Ok(e);
                }
                return self.err("a cooperative group");
            }
            Tok::Ident(w)
                if self.hip
                    && matches!(
                        w.as_str(),
                        "__lanemask_lt" | "__lanemask_gt" | "__lanemask_eq"
                    )
                    && self.is_punct("(")
                    && matches!(self.peek(1), Tok::Punct(")"))
                    && !self.fn_types.contains_key(&w) =>
            {
                self.bump();
                self.bump();
                return Ok(self.hip_lanemask(&w, span));
            }
            Tok::Ident(w) if (w == "AscendC" || w == "Simt") && self.is_punct("::") => {
                // `AscendC::Simt::GetThreadIdx<0>()`: the Ascend C SIMT C++ API.
                self.pos -= 1;
                self.skip_ascend_namespace();
                let name_at = self.span();
                let name = self.ident()?;
                if Self::is_ascend_simt(&name) && (self.is_punct("(") || self.is_punct("<")) {
                    return self.ascend_simt(&name, name_at);
                }
                self.pos -= 1;
                return self.primary();
            }
            Tok::Ident(w)
                if self.std_using
                    && matches!(w.as_str(), "min" | "max")
                    && self.is_punct("<")
                    && self.var_type(&w).is_none()
                    && !self.templates.contains_key(&w) =>
            {
                // `min<int>(a, b)` after `using namespace std;` is `std::min<int>`
                // ([namespace.udir]/2: the directive makes std's names visible unqualified).
                return match self.std_min_max_explicit(&w, span)? {
                    Some(e) => Ok(e),
                    None => self.err("`<` and a type after `min`/`max`"),
                };
            }
            Tok::Ident(w)
                if self.simt_using
                    && Self::is_ascend_simt(&w)
                    && (self.is_punct("(") || self.is_punct("<"))
                    && self.var_type(&w).is_none()
                    && !self.fn_types.contains_key(&w) =>
            {
                // `GetThreadIdx<0>()` after `using namespace AscendC::Simt;`.
                return self.ascend_simt(&w, span);
            }
            Tok::Ident(w)
                if self.ascend
                    && Self::is_ascend_lane(&w)
                    && self.is_punct("(")
                    && self.var_type(&w).is_none()
                    && !self.fn_types.contains_key(&w) =>
            {
                // `laneid()`, `lanemask_lt()`: the Ascend C SIMT API's lane-id functions.
                return self.ascend_lane(&w, span);
            }
            Tok::Ident(w)
                if self.ascend
                    && (w == "block_idx" || w == "block_num")
                    && self.var_type(&w).is_none() =>
            {
                // Ascend C's globals: the block's index and the count of blocks (Ascend C API
                // reference, `block_idx` / `block_num`, the values `GetBlockIdx()` and
                // `GetBlockNum()` return).
                let base = if w == "block_idx" {
                    "blockIdx"
                } else {
                    "gridDim"
                };
                let b = self.e_ident(span, base);
                return Ok(self.e_member(span, b, "x"));
            }
            Tok::Ident(w)
                if self.cub_objects.contains_key(&w)
                    && self.is_punct(".")
                    && self.var_type(&w).is_none() =>
            {
                // `ws.InclusiveSum(x, out)` of a named object ([`super::cub_object`]).
                return self.cub_object_call(&w, span);
            }
            Tok::Ident(w) if self.is_cub_name(&w) && self.is_punct("(") => {
                // `BlockReduce(temp).Sum(x)`: CUB / hipCUB (`cub`).
                return self.cub_call(Some(&w), span);
            }
            Tok::Ident(_)
                if {
                    self.pos -= 1;
                    let starts = self.cub_kv_starts();
                    self.pos += 1;
                    starts
                } =>
            {
                // `cub::KeyValuePair<int, float>(i, x)`.
                self.pos -= 1;
                return self.cub_kv_expr(span);
            }
            Tok::Ident(_)
                if {
                    self.pos -= 1;
                    let starts = self.cub_class_starts();
                    self.pos += 1;
                    starts
                } =>
            {
                // `cub::WarpReduce<float>(temp).Sum(x)`.
                self.pos -= 1;
                return self.cub_call(None, span);
            }
            Tok::Ident(w) if Self::is_ascend_warp(&w) && self.is_punct("(") => {
                return self.ascend_warp(&w, span);
            }
            Tok::Ident(w) if self.groups.contains_key(&w) => {
                if self.is_punct(".") {
                    return self.cg_member(&w, span);
                }
                // A group passed to a function: its member mask (see `cg_param`).
                ExprKind::Ident(w)
            }
            Tok::Ident(w) if self.own_method_template(&w) => {
                // `get<0>()` in a member of the struct: `this->get<0>()`.
                let this = self.node(ExprKind::Ident("this".into()), span)?;
                if let Some(c) = self.method_template_call(&this, &w, span)? {
                    return Ok(c);
                }
                ExprKind::Ident(w)
            }
            Tok::Ident(w) if self.own_static_template(&w).is_some() => {
                // A sibling static member template called bare (`warp_or_ub(x, buf, 0)` in
                // `S::run`): `S::warp_or_ub`.
                let key = self.own_static_template(&w).unwrap_or_default();
                return self.template_call(&key, span);
            }
            Tok::Ident(w)
                if self.templates.contains_key(&w)
                    && (self.is_punct("<") || self.is_punct("(")) =>
            {
                // A call of a function template: explicit arguments, then deduction.
                return self.template_call(&w, span);
            }
            Tok::Ident(w) => {
                let explicit = self.warp_builtin_targs(&w);
                if self.is_punct("(") || self.is_punct("{") {
                    if let Some(v) = word_type(&w)
                        .or_else(|| self.aliases.get(&w).copied())
                        .filter(|_| self.is_type_word(&w))
                    {
                        // A functional cast `float(x)`, `int64_t{i}`, `half2(a, b)`.
                        return self.functional_cast(&w, v, span);
                    }
                }
                if self.is_punct("(") {
                    if let Some(sig) = self.fn_ptr_vars.get(&w).cloned() {
                        let callee = self.node(ExprKind::Ident(w.clone()), span)?;
                        if self.fn_ptr_callee(&callee).is_some() {
                            // `op(x)` through a function pointer variable.
                            return self.fn_ptr_call(callee, sig, span);
                        }
                    }
                    let mut args = self.call_args()?;
                    if let Some(targs) = &explicit {
                        self.check_warp_builtin_targs(&w, targs, &args, span)?;
                    }
                    if let Some(e) = self.hip_sync_call(&w, &args, span)? {
                        return Ok(e);
                    }
                    if let Some(e) = self.amdgcn_ballot_call(&w, &args, span)? {
                        return Ok(e);
                    }
                    if let Some(e) = self.amdgcn_id_call(&w, &args, span)? {
                        return Ok(e);
                    }
                    self.amdgcn_int_args(&w, &mut args);
                    if let Some(e) = self.sync_vote_call(&w, &mut args, span)? {
                        return Ok(e);
                    }
                    // `__ldg(p)` and the cache-hinted loads read `*p` (CUDA C++ Programming
                    // Guide, "Read-Only Data Cache Load Function" and "Load Functions Using
                    // Cache Hints": `T __ldg(const T* address)` returns the data at address;
                    // HIP defines `__ldg` the same): the cache level changes no value here.
                    if matches!(
                        w.as_str(),
                        "__ldg" | "__ldca" | "__ldcg" | "__ldcs" | "__ldlu" | "__ldcv"
                    ) && args.len() == 1
                    {
                        let p = args.pop().map(Box::new);
                        if let Some(p) = p {
                            return self.node(ExprKind::Deref(p), span);
                        }
                    }
                    // The cache-hinted stores write `*p = v` (CUDA C++ Programming Guide,
                    // "Store Functions Using Cache Hints": `void __stwb(T* address, T value)`
                    // stores the value at the address): the hint changes no value here.
                    if matches!(w.as_str(), "__stwb" | "__stcg" | "__stcs" | "__stwt")
                        && args.len() == 2
                    {
                        let (v, p) = (args.pop(), args.pop());
                        if let (Some(p), Some(v)) = (p, v) {
                            let target = self.node(ExprKind::Deref(Box::new(p)), span)?;
                            return self
                                .node(ExprKind::Assign(None, Box::new(target), Box::new(v)), span);
                        }
                    }
                    // clang's `__builtin_nontemporal_load(p)` reads `*p` and
                    // `__builtin_nontemporal_store(v, p)` writes `*p = v` (clang Language
                    // Extensions, "Non-temporal load/store builtins"): the hint that the data
                    // will not be reused soon changes no value.
                    if w == "__builtin_nontemporal_load" && args.len() == 1 {
                        if let Some(p) = args.pop() {
                            return self.node(ExprKind::Deref(Box::new(p)), span);
                        }
                    }
                    if w == "__builtin_nontemporal_store" && args.len() == 2 {
                        let (p, v) = (args.pop(), args.pop());
                        if let (Some(p), Some(v)) = (p, v) {
                            let target = self.node(ExprKind::Deref(Box::new(p)), span)?;
                            return self
                                .node(ExprKind::Assign(None, Box::new(target), Box::new(v)), span);
                        }
                    }
                    if w.starts_with("__syncthreads") {
                        // A block barrier: a TempStorage may be used again (`cub`).
                        self.cub_pending.clear();
                    }
                    // One of several functions of the name ([`super::overload`]).
                    let w = self.resolve_plain_call(&w, &args, span)?;
                    // Tile parameters: each tile's meta pair after the arguments.
                    let pairs = self.tile_meta_args(&w, &args, span);
                    if let Some(slots) = self.any_group_fns.get(&w).cloned() {
                        // `thread_group` parameters: each group's rank and size beside it.
                        self.any_group_args(&w, &mut args, &slots, span)?;
                    }
                    args.extend(pairs);
                    ExprKind::Call(w, args)
                } else if let Some(a) = self.fn_addr(&w, span) {
                    // A function named where no call follows: its address.
                    return Ok(a);
                } else if let Some(c) = self.consts.get(&w) {
                    // A file-scope constant: its value, at the use.
                    let mut c = c.clone();
                    c.span = span;
                    return Ok(c);
                } else if matches!(
                    w.as_str(),
                    "threadIdx" | "blockIdx" | "blockDim" | "gridDim"
                ) && !self.is_punct(".")
                    && !self.host_expr
                    && self.var_type(&w).is_none()
                {
                    // The built-in as a whole value (`uint3 t = threadIdx;`, `f(blockDim)`): a
                    // `uint3` / `dim3` of its three components (CUDA C++ Programming Guide,
                    // "Built-in Variables"; HIP's the same).
                    let mut parts = Vec::new();
                    for c in ["x", "y", "z"] {
                        let b = self.node(ExprKind::Ident(w.clone()), span)?;
                        parts.push(self.node(ExprKind::Member(Box::new(b), c.into()), span)?);
                    }
                    return self.node(ExprKind::Call("make_uint3".into(), parts), span);
                } else if let Some((v, t)) =
                    super::limits::limit_macro(&w).filter(|_| self.var_type(&w).is_none())
                {
                    // `INT_MAX`, `UINT32_MAX`, `CHAR_BIT`: <climits> / <cstdint>.
                    return Ok(super::limits::typed_int(v, t, span));
                } else if self.is_punct("::") && self.var_type(&w).is_none() {
                    // `mctlass::fast_max(a, b)`, `ck_tile::max(a, b)`: a qualifier no
                    // declaration of the source names (a library header's namespace).
                    let Tok::Ident(m) = self.peek(1).clone() else {
                        return self.err("a name after `::`");
                    };
                    if w == super::rocprim_lib::UNKNOWN_NS {
                        return Err(KernelError::new(
                            span.line,
                            span.col,
                            format!(
                                "`rocprim::{m}` is a rocPRIM name (`<rocprim/…>`, a header not \
                                 read here) that is not supported; {}",
                                super::rocprim_lib::REFUSAL
                            ),
                        ));
                    }
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        format!("`{w}::{m}` is not declared: `{w}` names no namespace, class or enum of this source, and headers are not read (crosslane reads this one file); paste the declaration of `{w}::{m}`, or write what it computes"),
                    ));
                } else {
                    ExprKind::Ident(w)
                }
            }
            Tok::Punct("[") => {
                self.pos -= 1;
                return self.lambda_expr();
            }
            other => {
                return Err(KernelError::new(
                    t.line,
                    t.col,
                    format!("expected an expression, found {}", Self::describe(&other)),
                ))
            }
        };
        self.node(kind, span)
    }

    /// A struct name in an expression: `Pair(a, b)`, `Pair{a, b}`, `Name::member(…)`,
    /// `Name::CONSTANT`, `WarpReduce<float, 32>::sum(v)`.
    fn struct_primary(&mut self, span: Span) -> PResult<Expr> {
        let Tok::Ident(w) = self.peek(0).clone() else {
            return self.err("a struct");
        };
        self.bump();
        let template_id = self.class_templates.contains_key(&w) && self.is_punct("<");
        let st = if let (false, Some(a)) = (template_id, self.struct_alias.get(&w)) {
            a.clone()
        } else if !template_id && self.structs.contains_key(&w) {
            w.clone()
        } else {
            let args = self.template_args()?;
            self.instantiate_class(&w, args, span)?
        };
        if let Some(v) = self.structs.get(&st).and_then(|d| d.shared_view) {
            if self.is_punct("(") && matches!(self.peek(1), Tok::Punct(")")) {
                self.bump();
                self.bump();
                return Ok(self.shared_view_expr(v, span));
            }
        }
        if self.eat("::") {
            self.eat_template_keyword();
            let m_at = self.span();
            let m = self.ident()?;
            let member = format!("{st}::{m}");
            if self.templates.contains_key(&member) && (self.is_punct("(") || self.is_punct("<")) {
                // A static member template: instantiated as a function template.
                return self.template_call(&member, span);
            }
            if self.eat("(") {
                let mut args = vec![Expr::new(ExprKind::Str(st.clone()), m_at)];
                if !self.eat(")") {
                    loop {
                        args.push(self.assign_expr()?);
                        if self.eat(")") {
                            break;
                        }
                        self.expect_punct(",")?;
                    }
                }
                return self.node(ExprKind::Call(format!("@m:{m}"), args), span);
            }
            return match self.consts.get(&format!("{st}::{m}")) {
                Some(c) => {
                    let mut c = c.clone();
                    c.span = span;
                    Ok(c)
                }
                None => Err(KernelError::new(
                    m_at.line,
                    m_at.col,
                    format!("`{st}::{m}` is not a static member function or constant"),
                )),
            };
        }
        let args = if self.is_punct("{") {
            match self.brace_list()?.kind {
                ExprKind::Call(_, items) => items,
                _ => Vec::new(),
            }
        } else if self.eat("(") {
            self.args_closed_by(")")?
        } else {
            return self.err("`(`, `{` or `::` after a struct's name");
        };
        self.node(ExprKind::Call(st, args), span)
    }

    /// Whether `e` is a pointer to structs (for `p->member`).
    fn points_at_structs(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Ident(n) => self
                .var_struct(n)
                .is_some_and(|sv| sv.kind == super::structs::SKind::Many),
            ExprKind::Binary(_, a, _) => self.points_at_structs(a),
            _ => false,
        }
    }

    /// A node, refused when its tree is higher than the depth budget (a flat chain such as
    /// `1+1+…` or `a[0][0]…` grows the tree by one level per operator without any recursion in
    /// the parser, but every later walk of the tree recurses once per level).
    /// A call of function template `name` after its name: explicit template arguments
    /// (`<…>`, optional), the call's arguments, then the instance those and deduction choose.
    fn template_call(&mut self, name: &str, span: Span) -> PResult<Expr> {
        let explicit = self.is_punct("<");
        let given = if explicit {
            self.template_args()?
        } else {
            Vec::new()
        };
        // The kinds of this call's own explicit arguments, none without them.
        let kinds = std::mem::take(&mut self.call_targ_kinds);
        let kinds = if explicit { kinds } else { Vec::new() };
        if !self.is_punct("(") {
            // `maxop<float>` named without a call: the specialization's address
            // ([temp.arg.explicit]/4 with [conv.func]: a template-id naming one function is
            // that function, here passed to a function pointer parameter or stored in one).
            return self.specialization_addr(name, given, span);
        }
        let mut args = self.call_args()?;
        self.call_targ_kinds = kinds;
        let instance = self.instantiate_call(name, given, &args, span)?;
        // A CUB collective object is the instance's own, not an argument (`cub_object`).
        args.retain(|a| self.cub_object_class(a).is_none());
        // Tile arguments: each tile's meta pair after the arguments (`cg_tile_meta`).
        let pairs = self.template_tile_meta_args(name, &instance, &args, span);
        // `thread_group` parameters: each group's rank and size beside it (`cg_any`), after
        // deduction, which sees the arguments as written.
        let slots = self
            .templates
            .get(name)
            .map(|t| super::cg_any::thread_group_slots(t.tokens(), name))
            .unwrap_or_default();
        if !slots.is_empty() {
            self.any_group_args(name, &mut args, &slots, span)?;
        }
        args.extend(pairs);
        self.node(ExprKind::Call(instance, args), span)
    }

    /// An explicit type conversion in functional notation, from the `(` or `{` after the type
    /// name `w` (type `v`): ISO C++ [expr.type.conv]/2. One expression in parentheses is the
    /// cast `(T) x` (`int64_t(x)`, `uint8_t(v)`, `half(f)`); `T()` and `T{}` are the
    /// value-initialized zero; `T{x}` list-initializes (the same value as the cast for every
    /// conversion that is not narrowing, [dcl.init.list]/3; the narrowing a compiler refuses
    /// is accepted here). Several values construct a vector, one per component, as its
    /// constructor does (`half2(a, b)`: `cuda_fp16.hpp`'s `__half2(const __half&, const
    /// __half&)`; HIP's `float2(a, b)`, `hip_vector_types.h`): the `make_<type>` of the type.
    ///
    /// # Errors
    /// Several values for a scalar type or a count other than the vector's components.
    pub(super) fn functional_cast(&mut self, w: &str, v: ValTy, span: Span) -> PResult<Expr> {
        let close = if self.eat("(") {
            ")"
        } else {
            self.expect_punct("{")?;
            "}"
        };
        let mut args = self.args_closed_by(close)?;
        if w == "dim3" && (1..=3).contains(&args.len()) {
            // `dim3(x)`, `dim3(x, y)`: a component left out is 1 (CUDA C++ Programming
            // Guide, "dim3": "any component left unspecified is initialized to 1").
            while args.len() < 3 {
                let one = self.node(
                    ExprKind::Int {
                        value: 1,
                        unsigned: true,
                        long: false,
                    },
                    span,
                )?;
                args.push(one);
            }
            return self.node(ExprKind::Call("make_uint3".into(), args), span);
        }
        let make = vector_make(w, v);
        // CUDA's `float2`, `int4`, … are aggregates without constructors (`vector_types.h`:
        // `struct __device_builtin__ float2 { float x, y; }`), so `float2(a, b)` and
        // `float2 v(a, b)` do not compile under nvcc ("too many initializer values", seen with
        // nvcc 13.0); HIP's have constructors, and `__half2` / `__nv_bfloat162` have them in
        // CUDA too.
        let has_ctor = matches!((v.scalar, v.lanes), (Scalar::F16 | Scalar::Bf16, 2));
        if self.cuda && close == ")" && args.len() > 1 && v.lanes > 1 && !has_ctor {
            let m = make.clone().unwrap_or_else(|| format!("make_{w}"));
            return Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "`{w}(…)` with {} values: CUDA's `{w}` is an aggregate without constructors \
                     (vector_types.h), so nvcc refuses it (HIP's has one); write `{m}(…)` or \
                     `{w}{{…}}`",
                    args.len()
                ),
            ));
        }
        match args.len() {
            0 => {
                let z = self.node(
                    ExprKind::Int {
                        value: 0,
                        unsigned: false,
                        long: false,
                    },
                    span,
                )?;
                self.node(ExprKind::Cast(Ty::Val(v), Box::new(z)), span)
            }
            1 => {
                let e = args.pop().map(Box::new);
                match e {
                    Some(e) => self.node(ExprKind::Cast(Ty::Val(v), e), span),
                    None => self.err("a value"),
                }
            }
            n => match make {
                Some(m) if n == usize::from(v.lanes) => self.node(ExprKind::Call(m, args), span),
                _ => Err(KernelError::new(
                    span.line,
                    span.col,
                    format!(
                        "`{w}(…)` with {n} values: a functional cast of a scalar type takes one \
                         value ([expr.type.conv]/2), a vector type one per component ({}); \
                         write `{w}(x)` or the vector's `make_` function",
                        v.lanes
                    ),
                )),
            },
        }
    }

    pub(super) fn node(&self, kind: ExprKind, span: Span) -> PResult<Expr> {
        self.checked(Ok(Expr::new(kind, span)))
    }

    pub(super) fn checked(&self, e: PResult<Expr>) -> PResult<Expr> {
        let e = e?;
        if e.depth > self.max_depth {
            return Err(KernelError::new(
                e.span.line,
                e.span.col,
                format!(
                    "expression nested deeper than {} levels (a chain of operators, indexes or commas counts one level each); raise it with --max-depth (at most {DEPTH_CEILING})",
                    self.max_depth
                ),
            ));
        }
        Ok(e)
    }
}

/// The `make_<type>` function that builds vector type `v` spelled `w` from one value per
/// component (`half2` → `make_half2`, `float2` → `make_float2`), as its constructor does
/// (`cuda_fp16.hpp`'s `__half2(const __half&, const __half&)`; HIP's `hip_vector_types.h`).
/// `None` for a scalar or a name that is no vector type.
pub(super) fn vector_make(w: &str, v: ValTy) -> Option<String> {
    match (v.scalar, v.lanes) {
        (Scalar::F16, 2) => Some("make_half2".to_string()),
        (Scalar::Bf16, 2) => Some("make_bfloat162".to_string()),
        // An alias (`typedef float4 floatx4;`, an extended vector typedef) makes the vector
        // its type names.
        _ => [w.to_string(), crate::vector_types::cuda_name(v)]
            .into_iter()
            .chain(crate::vector_types::ext_name(v))
            .map(|n| format!("make_{n}"))
            .find(|m| crate::vector_types::constructor(m) == Some(v)),
    }
}

enum Op {
    Bin(BinOp),
    AndAnd,
    OrOr,
}

/// C binary operator precedence (higher binds tighter).
fn binop_of(p: &str) -> Option<(u8, Op)> {
    Some(match p {
        "||" => (1, Op::OrOr),
        "&&" => (2, Op::AndAnd),
        "|" => (3, Op::Bin(BinOp::Or)),
        "^" => (4, Op::Bin(BinOp::Xor)),
        "&" => (5, Op::Bin(BinOp::And)),
        "==" => (6, Op::Bin(BinOp::Eq)),
        "!=" => (6, Op::Bin(BinOp::Ne)),
        "<" => (7, Op::Bin(BinOp::Lt)),
        "<=" => (7, Op::Bin(BinOp::Le)),
        ">" => (7, Op::Bin(BinOp::Gt)),
        ">=" => (7, Op::Bin(BinOp::Ge)),
        "<<" => (8, Op::Bin(BinOp::Shl)),
        ">>" => (8, Op::Bin(BinOp::Shr)),
        "+" => (9, Op::Bin(BinOp::Add)),
        "-" => (9, Op::Bin(BinOp::Sub)),
        "*" => (10, Op::Bin(BinOp::Mul)),
        "/" => (10, Op::Bin(BinOp::Div)),
        "%" => (10, Op::Bin(BinOp::Rem)),
        _ => return None,
    })
}
