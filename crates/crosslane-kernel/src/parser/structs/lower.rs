//! Struct expressions lowered to their leaves: member access, whole-struct assignment and
//! copies, calls of member functions and constructors, struct results through temporaries.

use super::*;

impl Parser<'_> {
    /// Lowers an expression: member accesses to their leaf variables, struct assignments to
    /// leaf assignments, member-function, constructor and struct-returning calls to their
    /// device functions (temporaries declared in [`Parser::pre`]); struct arguments become
    /// their leaves. A struct left where a scalar is needed is an error naming it.
    pub(crate) fn lower_struct(&mut self, e: Expr) -> PResult<Expr> {
        if self.structs.is_empty() && self.lambda.is_none() {
            return Ok(e);
        }
        self.enter()?;
        let r = self.lower_inner(e);
        self.depth -= 1;
        r
    }

    #[allow(clippy::boxed_local)] // the children arrive boxed from the node being rebuilt
    pub(super) fn lower_box(&mut self, e: Box<Expr>) -> PResult<Box<Expr>> {
        Ok(Box::new(self.lower_struct(*e)?))
    }

    pub(super) fn lower_inner(&mut self, e: Expr) -> PResult<Expr> {
        let span = e.span;
        // `q[K]` of `int* q = reinterpret_cast<int*>(&s)` ([`super::layout_view`]).
        if let Some(x) = self.flat_struct_cell(&e)? {
            return Ok(x);
        }
        // A bit-field read, written or incremented ([`super::bitfields`]).
        if let Some(x) = self.bitfield_access(&e)? {
            return Ok(x);
        }
        // A member of a union that reinterprets bytes ([`super::punning`]): read, written,
        // or refused where its address or an increment is taken.
        match &e.kind {
            ExprKind::Member(..) | ExprKind::Index(..) => {
                if let Some(p) = self.pun_place(&e)? {
                    return self.pun_read(&p, span);
                }
            }
            ExprKind::Assign(op, l, r) => {
                if let Some(p) = self.pun_place(l)? {
                    return self.pun_write(&p, *op, (**r).clone(), span);
                }
            }
            ExprKind::IncDec { target: x, .. } | ExprKind::AddrOf(x)
                if self.pun_place(x)?.is_some() =>
            {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    "`++`, `--` and `&` on a member of a union that reinterprets bytes are \
                     not supported; write `v.u += 1` or copy the member to a local",
                ));
            }
            _ => {}
        }
        if let ExprKind::AddrOf(x) = &e.kind {
            if let ExprKind::Ident(n) = &x.kind {
                if let Some(sv) = self.var_struct(n).filter(|sv| sv.kind == SKind::Plain) {
                    // `f(&a)` with `a` a local struct: its members are separate variables
                    // here, so no address names them all.
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        format!(
                            "`&{n}`: a pointer to the local struct `{n}` (`{}`) is not supported; \
                             take it by reference (`void f({}& s)`, called as `f({n})`) or pass \
                             its members (a cast of it to a pointer of its members' one scalar \
                             type, `(T*)&{n}` of a struct without padding, reads them by a \
                             constant index)",
                            sv.sname, sv.sname
                        ),
                    ));
                }
            }
        }
        let kind = match e.kind {
            ExprKind::Ident(n) => {
                if let Some(sv) = self.var_struct(&n) {
                    let conv = self
                        .structs
                        .get(&sv.sname)
                        .is_some_and(|d| d.methods.contains_key(super::define::CONV));
                    if sv.kind == SKind::Plain && conv {
                        // An object used as a value converts through its conversion function
                        // ([conv]/6, [class.conv.fct]/1): `x[i]` with `i` a `Number<2>`.
                        let call = Expr::new(
                            ExprKind::Call(
                                format!("@m:{}", super::define::CONV),
                                vec![ident(&n, span)],
                            ),
                            span,
                        );
                        return self.lower_struct(call);
                    }
                    if sv.kind == SKind::Plain {
                        // What to write instead where the whole struct is the value a lambda
                        // returns: a lambda's return is one value here.
                        let hint = if self.lambda.is_some() {
                            format!("; a lambda returns no struct here: return it from a `__device__` function (`__device__ {} f(…)`)", sv.sname)
                        } else {
                            String::new()
                        };
                        return Err(KernelError::new(
                            span.line,
                            span.col,
                            format!(
                                "`{n}` is a struct (`{}`) where a value is needed: use one of \
                                 its members (`{n}.…`){hint}",
                                sv.sname
                            ),
                        ));
                    }
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        format!(
                            "`{n}` points at structs (`{}`): index it and use a member \
                             (`{n}[i].…`)",
                            sv.sname
                        ),
                    ));
                }
                if self.self_field(&n).is_some() || self.self_view(&n) {
                    let this = ident("this", span);
                    let m = Expr::new(ExprKind::Member(Box::new(this), n), span);
                    return self.lower_struct(m);
                }
                ExprKind::Ident(self.use_var(&n, span)?)
            }
            ExprKind::Member(b, f) => {
                if let Some((s, leaves)) = self.leaves_of(&b, None)? {
                    let def = self.structs.get(&s).cloned().unwrap_or_default();
                    if let Some(v) = self.view_of_struct(&s, &f) {
                        let held = leaves.into_iter().find(|(p, _)| *p == v.field);
                        let Some((_, e)) = held else {
                            return Err(KernelError::new(
                                span.line,
                                span.col,
                                format!("`{s}` has no member `{}`", v.field),
                            ));
                        };
                        return self.view_expr(&v, e, span);
                    }
                    let Some(field) = def.fields.iter().find(|x| x.name == f) else {
                        // `I.value` of a static data member: "A static member may be referred
                        // to using the class member access syntax" (C++17 [class.static]/1).
                        if let Some(c) = self.static_const(&s, &f) {
                            return Ok(c);
                        }
                        return Err(KernelError::new(
                            span.line,
                            span.col,
                            format!("`{s}` has no member `{f}`"),
                        ));
                    };
                    if let FieldTy::SArr(inner, n) = &field.ty {
                        return Err(KernelError::new(
                            span.line,
                            span.col,
                            format!(
                                "member `{f}` is an array of structs (`{inner}[{n}]`) where a \
                                 value is needed: index it and use a member (`.{f}[i].…`)"
                            ),
                        ));
                    }
                    if let FieldTy::Struct(inner) = &field.ty {
                        return Err(KernelError::new(
                            span.line,
                            span.col,
                            format!(
                                "member `{f}` is a struct (`{inner}`) where a value is needed: \
                                 use one of its members"
                            ),
                        ));
                    }
                    let leaf = leaves.into_iter().find(|(p, _)| *p == f);
                    return leaf.map(|(_, e)| e).ok_or_else(|| {
                        KernelError::new(span.line, span.col, format!("`{s}` has no member `{f}`"))
                    });
                }
                ExprKind::Member(self.lower_box(b)?, f)
            }
            ExprKind::Assign(_, l, _) if self.is_local_struct_pointer(&l) => {
                let n = match &l.kind {
                    ExprKind::Ident(n) => n.clone(),
                    _ => String::new(),
                };
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!(
                        "`{n}` points at a local struct here, and pointing it at another object \
                         is not supported; declare a second pointer (`S* q = &t;`)"
                    ),
                ));
            }
            ExprKind::Assign(op, l, r) if self.struct_of(&l).is_some() => {
                let s = self.struct_of(&l).unwrap_or_default();
                if op.is_some() {
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        format!("compound assignment to a struct (`{s}`) is not supported"),
                    ));
                }
                return self.assign_struct(&l, &r, &s, span);
            }
            ExprKind::Call(name, args) => return self.lower_call(name, args, span),
            ExprKind::Index(a, b) => {
                // `a[i]` of an array of (or pointer to) class objects with a conversion
                // function, used where a scalar is needed (`a[A] < a[B]`): the element
                // converts through it ([class.conv.fct]/1, [over.match.oper]/7).
                let conv = match &a.kind {
                    ExprKind::Ident(n) => self
                        .var_struct(n)
                        .filter(|sv| sv.kind != SKind::Plain)
                        .is_some_and(|sv| self.has_conversion(&sv.sname)),
                    _ => false,
                };
                if conv {
                    return self.converted(Expr::new(ExprKind::Index(a, b), span), span);
                }
                ExprKind::Index(self.lower_box(a)?, self.lower_box(b)?)
            }
            ExprKind::Unary(op, b) => ExprKind::Unary(op, self.lower_box(b)?),
            ExprKind::Deref(b) => ExprKind::Deref(self.lower_box(b)?),
            ExprKind::AddrOf(b) => ExprKind::AddrOf(self.lower_box(b)?),
            ExprKind::Cast(t, b) => ExprKind::Cast(t, self.lower_box(b)?),
            ExprKind::IncDec {
                inc,
                prefix,
                target,
            } => ExprKind::IncDec {
                inc,
                prefix,
                target: self.lower_box(target)?,
            },
            ExprKind::Binary(op, a, b) => {
                // `p != NULL` on a struct pointer: compare its first member's buffer.
                ExprKind::Binary(op, self.lower_box(a)?, self.lower_box(b)?)
            }
            ExprKind::Logical(and, a, b) => {
                ExprKind::Logical(and, self.lower_box(a)?, self.lower_box(b)?)
            }
            ExprKind::Assign(op, a, b) => {
                ExprKind::Assign(op, self.lower_box(a)?, self.lower_box(b)?)
            }
            // `(a.operator+=(b), a)` whose struct value is not used (`a += b;`): the call;
            // naming the struct `a` has no effect ([expr.comma]/1 discards it).
            ExprKind::Comma(a, b) if self.struct_of(&b).is_some() => return self.lower_struct(*a),
            ExprKind::Comma(a, b) => ExprKind::Comma(self.lower_box(a)?, self.lower_box(b)?),
            ExprKind::Ternary(c, a, b) => {
                ExprKind::Ternary(self.lower_box(c)?, self.lower_box(a)?, self.lower_box(b)?)
            }
            k => k,
        };
        Ok(Expr::new(kind, span))
    }

    /// `l = r` for struct `s`: each leaf assigned, as a comma list.
    pub(super) fn assign_struct(
        &mut self,
        l: &Expr,
        r: &Expr,
        s: &str,
        span: Span,
    ) -> PResult<Expr> {
        let Some((_, ll)) = self.leaves_of(l, None)? else {
            return Err(KernelError::new(
                span.line,
                span.col,
                "this struct cannot be assigned to",
            ));
        };
        let Some((mut rs, mut rl)) = self.leaves_of(r, Some(s))? else {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!("a `{s}` can only be assigned a `{s}`"),
            ));
        };
        if rs != s && self.converts_to(&rs, s).is_some() {
            rl = self.converted_leaves(&rs, rl);
            rs = s.to_string();
        }
        if rs != s {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!("a `{s}` can only be assigned a `{s}`, not a `{rs}`"),
            ));
        }
        // Leaf by leaf, a right side that reads the left one (`p = c ? q : p`, `p =
        // Pair{p.idx, p.v}`) would see members already written: copy it into a temporary
        // first, as the whole-value assignment does.
        let targets: Vec<String> = ll
            .iter()
            .filter_map(|(_, e)| match &e.kind {
                ExprKind::Ident(n) => Some(n.clone()),
                ExprKind::Index(b, _) => match &b.kind {
                    ExprKind::Ident(n) => Some(n.clone()),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let rl = if rl.iter().any(|(_, e)| mentions(e, &targets)) {
            let t = self.temporary(s, span)?;
            let counts = self.leaf_counts(s, span)?;
            for (((_, dst), (_, src)), n) in t.iter().zip(rl).zip(counts) {
                let sp = self.syn_span(span);
                let a = if n > 0 {
                    self.copy_elements(dst, &src, n, span)?
                } else {
                    Expr::new(
                        ExprKind::Assign(None, Box::new(dst.clone()), Box::new(src)),
                        sp,
                    )
                };
                self.push_pre_expr(a);
            }
            t
        } else {
            rl
        };
        let counts = self.leaf_counts(s, span)?;
        let mut out: Option<Expr> = None;
        for (((path, a), (_, b)), n) in ll.into_iter().zip(rl).zip(counts) {
            // A bit-field stores its value reduced to its width ([`super::bitfields`]).
            let b = self.bitfield_value(s, &path, b);
            let sp = self.syn_span(span);
            let one = if n > 0 {
                self.copy_elements(&a, &b, n, span)?
            } else {
                Expr::new(ExprKind::Assign(None, Box::new(a), Box::new(b)), sp)
            };
            out = Some(match out {
                None => one,
                Some(prev) => {
                    let sp = self.syn_span(span);
                    self.node(ExprKind::Comma(Box::new(prev), Box::new(one)), sp)?
                }
            });
        }
        Ok(out.unwrap_or_else(|| zero(span)))
    }

    /// A call's arguments with each struct argument replaced by its leaves.
    pub(crate) fn expand_args(&mut self, args: Vec<Expr>) -> PResult<Vec<Expr>> {
        let mut out = Vec::new();
        for a in args {
            // `&s[i]` passed to a struct pointer parameter: each leaf's pointer.
            let cast = matches!(&a.kind, ExprKind::Call(n, _) if n.starts_with(SCAST));
            if cast || matches!(a.kind, ExprKind::AddrOf(_)) {
                if let Some((_, leaves)) = self.many_leaves(&a)? {
                    out.extend(leaves.into_iter().map(|(_, e)| e));
                    continue;
                }
            }
            if let Some(ptrs) = self.local_struct_address(&a)? {
                out.extend(ptrs);
                continue;
            }
            match self.leaves_of(&a, None)? {
                Some((_, leaves)) => out.extend(leaves.into_iter().map(|(_, e)| e)),
                None => out.push(self.lower_struct(a)?),
            }
        }
        if let Some(e) = out.iter().find(|e| self.strided(e).is_some()) {
            // A callee's struct pointer steps one cell per element of each member.
            return Err(KernelError::new(
                e.span.line,
                e.span.col,
                "a struct pointer that views another type's cells (a layout-compatible cast) \
                 is read in the function that casts it; pass the original pointer and cast it \
                 in the callee",
            ));
        }
        Ok(out)
    }

    /// Resolves a call: a member function (`@m:NAME` with the receiver first), a callable
    /// struct's `operator()`, a sibling member function called bare inside one, a constructor
    /// or aggregate as a statement, a struct-returning function, or a plain call with its
    /// struct arguments expanded.
    pub(super) fn lower_call(
        &mut self,
        name: String,
        args: Vec<Expr>,
        span: Span,
    ) -> PResult<Expr> {
        self.refuse_struct_shuffle(&name, &args, span)?;
        if self.has_destructor(&name) {
            // A temporary of a class with a destructor with statements (`Guard(out, t);`):
            // destroyed at the end of its full-expression ([class.temporary]/4), not modelled.
            return Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "a temporary `{name}(…)` would run `{name}`'s destructor at the end of its \
                     full-expression ([class.temporary]/4), which is not modelled; declare a named \
                     object (`{name} g(…);`) in a block"
                ),
            ));
        }
        let valued = self.struct_of(&Expr::new(ExprKind::Call(name.clone(), args.clone()), span));
        let unused = std::mem::take(&mut self.value_unused);
        if valued
            .as_deref()
            .is_some_and(|s| !unused && self.has_conversion(s))
        {
            // A class temporary or result used as a value: its conversion function
            // ([`super::conv`]); a discarded one (`W{1};`) is not converted.
            let call = Expr::new(ExprKind::Call(name, args), span);
            return self.converted(call, span);
        }
        if valued.is_some() || self.method_target(&name, &args).is_some() {
            // Struct-valued (its value unused here) or a member function returning a value.
            if let Some((_, call)) = self.method_call(&name, &args, span)? {
                return Ok(call);
            }
            self.leaves_of(&Expr::new(ExprKind::Call(name, args), span), None)?;
            return Ok(zero(span));
        }
        if name == "@brace" {
            return Err(KernelError::new(
                span.line,
                span.col,
                "a braced list `{…}` is read here only as a struct's value (`Pair{…}`, or where \
                 a struct is expected)",
            ));
        }
        if let Some(m) = name.strip_prefix("@m:") {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!("`.{m}(…)` needs a struct value on its left (a member function call)"),
            ));
        }
        let args = self.brace_args_to_params(&name, args);
        self.check_void_args(&name, &args)?;
        let args = self.convert_class_args(&name, args)?;
        let args = self.expand_args_to_bases(&name, args)?;
        Ok(Expr::new(ExprKind::Call(name, args), span))
    }

    /// The struct and method a call names: `@m:f` on a receiver, a struct variable's
    /// `operator()`, or a member of the struct being defined called bare.
    pub(crate) fn method_target(
        &self,
        name: &str,
        args: &[Expr],
    ) -> Option<(String, String, bool)> {
        if let Some(m) = name.strip_prefix("@m:") {
            let s = args.first().and_then(|r| self.struct_of(r)).or_else(|| {
                // `Name::f(…)`: a static member, written `@m:f` with the struct's name first.
                match args.first().map(|a| &a.kind) {
                    Some(ExprKind::Str(s)) => Some(s.clone()),
                    _ => None,
                }
            })?;
            return Some((s, m.to_string(), true));
        }
        if let Some(sv) = self.var_struct(name) {
            if sv.kind == SKind::Plain {
                return Some((sv.sname.clone(), "operator()".into(), false));
            }
        }
        if self.var_type(name).is_none() {
            if let Some(s) = &self.self_struct {
                if self
                    .structs
                    .get(s)
                    .is_some_and(|d| d.methods.contains_key(name))
                {
                    return Some((s.clone(), name.to_string(), false));
                }
            }
            // `f(d, s)` in a member function, `f` a data member of class type (a functor, a
            // lambda's closure: vLLM's `DefaultVecOp { ScaOp scalar_op; … }`): `this->f`'s
            // `operator()` ([class.mfct.non-static]/2, [over.call]/1).
            if let Some(FieldTy::Struct(fs)) = self.self_field(name) {
                return Some((fs, "operator()".into(), false));
            }
        }
        None
    }

    /// A member-function call as a device-function call: `Some((returned struct or "",
    /// call))`; a struct result is written into a temporary declared in [`Parser::pre`] and
    /// the call becomes a statement there (the returned expression is then `0`).
    pub(super) fn method_call(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> PResult<Option<MethodCall>> {
        let Some((s, mut m, receiver_first)) = self.method_target(name, args) else {
            return Ok(None);
        };
        let call_op = m == "operator()";
        let has = |p: &Self, m: &str| p.structs.get(&s).is_some_and(|d| d.methods.contains_key(m));
        if m == "operator()" && !has(self, &m) {
            // A call operator template (a generic lambda's, a functor's): the instance for
            // these arguments ([`super::super::lambda_generic`]).
            let rest = if receiver_first {
                args.get(1..).unwrap_or_default()
            } else {
                args
            };
            if let Some(inst) = self.closure_call_template(&s, rest, span)? {
                m = inst;
            }
        }
        // `f(int)` and `f(float)` both declared: the arguments choose
        // ([`super::method_overload`]).
        {
            let rest = if receiver_first {
                args.get(1..).unwrap_or_default()
            } else {
                args
            };
            m = self.resolve_method(&s, &m, rest, span)?;
        }
        // `get()` and `get() const` both declared: the receiver's constness chooses.
        if !call_op {
            let receiver = if receiver_first { args.first() } else { None };
            let this = ident("this", span);
            m = self.cv_method_key(&s, &m, receiver.or(Some(&this)));
        }
        let Some(method) = self
            .structs
            .get(&s)
            .and_then(|d| d.methods.get(&m))
            .cloned()
        else {
            return Err(KernelError::new(
                span.line,
                span.col,
                if m == "operator()" {
                    format!("`{s}` is not callable (it has no `operator()`)")
                } else {
                    format!("`{s}` has no member function `{m}`")
                },
            ));
        };
        let (receiver, rest): (Option<Expr>, Vec<Expr>) = if receiver_first {
            let mut it = args.iter().cloned();
            let r = it.next();
            let r = r.filter(|r| !matches!(r.kind, ExprKind::Str(_)));
            (r, it.collect())
        } else if call_op {
            (Some(ident(name, span)), args.to_vec())
        } else {
            (Some(ident("this", span)), args.to_vec())
        };
        // `Base::f()` in a member function of `Base` or of a class derived from it: called on
        // `*this` ([class.mfct.non-static]/2, with qualified lookup naming the base's member).
        let receiver = match receiver {
            None if !method.is_static
                && self
                    .self_struct
                    .as_deref()
                    .is_some_and(|c| c == s || self.base_offset(c, &s).is_some()) =>
            {
                Some(ident("this", span))
            }
            r => r,
        };
        let mut out_args = Vec::new();
        let mut writeback: Vec<(Expr, Expr)> = Vec::new();
        let ret_tmp = match &method.ret {
            Ret::Struct(rs) => {
                let t = self.temporary(rs, span)?;
                out_args.extend(t.iter().map(|(_, e)| e.clone()));
                Some((rs.clone(), t))
            }
            Ret::Plain => None,
        };
        if !method.is_static {
            let Some(r) = receiver else {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!("`{s}::{m}` is not static: call it on a `{s}` value"),
                ));
            };
            let Some((rs, leaves)) = self.leaves_of(&r, Some(&s))? else {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!("`.{m}(…)` needs a `{s}` value on its left"),
                ));
            };
            // A base's member function takes the base subobject's leaves ([`super::bases`]).
            let (owner, leaves) = self.subobject_leaves(&rs, &s, &method, leaves, span)?;
            let all_vars = leaves
                .iter()
                .all(|(_, e)| matches!(e.kind, ExprKind::Ident(_)));
            if all_vars {
                out_args.extend(leaves.into_iter().map(|(_, e)| e));
            } else {
                // A receiver that is not a variable (an element of a struct array or buffer, a
                // temporary): copied in, the call made, and an element copied back out, all
                // before the statement (the member function may change its receiver).
                let t = self.temporary(&owner, span)?;
                for ((_, dst), (_, src)) in t.iter().zip(&leaves) {
                    let sp = self.syn_span(span);
                    let a = Expr::new(
                        ExprKind::Assign(None, Box::new(dst.clone()), Box::new(src.clone())),
                        sp,
                    );
                    self.push_pre_expr(a);
                }
                out_args.extend(t.iter().map(|(_, e)| e.clone()));
                writeback = leaves
                    .into_iter()
                    .zip(t)
                    .filter(|((_, e), _)| matches!(e.kind, ExprKind::Index(..)))
                    .map(|((_, e), (_, tmp))| (e, tmp))
                    .collect();
            }
        }
        // Tile arguments: each tile's meta pair after the arguments
        // ([`super::super::cg_tile_meta`]).
        let pairs = self.tile_meta_args(&method.func, &rest, span);
        out_args.extend(self.expand_args(rest)?);
        out_args.extend(pairs);
        let sp = self.syn_span(span);
        let call = Expr::new(ExprKind::Call(method.func.clone(), out_args), sp);
        // `acc.at(i)` of `float& at(int)`: the referent, through the pointer returned.
        let call = if method.by_ref {
            if !writeback.is_empty() {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!(
                        "`{m}` returns a reference into its receiver, which is not a variable \
                         here (an element of an array or buffer of `{s}`): copy the element \
                         into a local `{s}`, call `{m}` on it, and copy it back"
                    ),
                ));
            }
            let sp = self.syn_span(span);
            Expr::new(ExprKind::Deref(Box::new(call)), sp)
        } else {
            call
        };
        if !writeback.is_empty() {
            // The call runs in the statements before; its value (if any) is kept in a scalar.
            let value = match method.ty {
                Ty::Val(v) if ret_tmp.is_none() => {
                    self.syn_span(span);
                    let r = format!("ret{}", self.syn);
                    let sp = self.syn_span(span);
                    self.declare(&r, Ty::Val(v));
                    self.pre.push(Stmt {
                        kind: StmtKind::Decl(
                            Storage::default(),
                            vec![Declarator {
                                name: r.clone(),
                                ty: Ty::Val(v),
                                array: None,
                                init: Some(call),
                                span: sp,
                                id: NodeId::fresh(),
                            }],
                        ),
                        span: Span {
                            line: span.line,
                            col: 1,
                        },
                        end: Span {
                            line: span.line,
                            col: 1,
                        },
                    });
                    ident(&r, self.syn_span(span))
                }
                _ => {
                    self.push_pre_expr(call);
                    zero(span)
                }
            };
            for (dst, tmp) in writeback {
                let sp = self.syn_span(span);
                let a = Expr::new(ExprKind::Assign(None, Box::new(dst), Box::new(tmp)), sp);
                self.push_pre_expr(a);
            }
            return Ok(Some((ret_tmp, value)));
        }
        match ret_tmp {
            Some(t) => {
                self.push_pre_expr(call);
                Ok(Some((Some(t), zero(span))))
            }
            None => Ok(Some((None, call))),
        }
    }

    /// `c` computed into a fresh `bool` local declared in [`Parser::pre`]; the local.
    fn hoisted_condition(&mut self, c: Expr, span: Span) -> Expr {
        let ty = Ty::Val(ValTy::scalar(Scalar::Bool));
        self.hoisted_local("cond", ty, Some(c), span)
    }

    /// A fresh local `PREFIXn` of type `ty` (initialized to `init`, if any) declared in
    /// [`Parser::pre`], before the statement being read; the local.
    pub(crate) fn hoisted_local(
        &mut self,
        prefix: &str,
        ty: Ty,
        init: Option<Expr>,
        span: Span,
    ) -> Expr {
        self.syn_span(span);
        let name = format!("{prefix}{}", self.syn);
        self.declare(&name, ty);
        let sp = self.syn_span(span);
        let at = Span {
            line: span.line,
            col: 1,
        };
        self.pre.push(Stmt {
            kind: StmtKind::Decl(
                Storage::default(),
                vec![Declarator {
                    name: name.clone(),
                    ty,
                    array: None,
                    init,
                    span: sp,
                    id: NodeId::fresh(),
                }],
            ),
            span: at,
            end: at,
        });
        ident(&name, self.syn_span(span))
    }

    /// Adds an expression statement to [`Parser::pre`].
    pub(crate) fn push_pre_expr(&mut self, e: Expr) {
        let span = e.span;
        self.pre.push(Stmt {
            kind: StmtKind::Expr(e),
            span: Span {
                line: span.line,
                col: 1,
            },
            end: Span {
                line: span.line,
                col: 1,
            },
        });
    }

    /// Declares a temporary of struct `s` (uninitialized) in [`Parser::pre`]; its leaves.
    pub(crate) fn temporary(&mut self, s: &str, at: Span) -> PResult<Leaves> {
        self.temporary_with(s, at, &HashMap::new())
    }

    /// [`Self::temporary`] whose leaves in `aliases` (a reference member's, by path) are the
    /// variables given there, not new ones ([`super::ref_members`]).
    pub(super) fn temporary_with(
        &mut self,
        s: &str,
        at: Span,
        aliases: &HashMap<String, Expr>,
    ) -> PResult<Leaves> {
        let leaves = self.leaves(s, at)?;
        self.syn_span(at);
        let name = format!("tmp{}", self.syn);
        let mut decls = Vec::new();
        let mut names = Vec::new();
        for l in &leaves {
            if let Some(ExprKind::Ident(n)) = aliases.get(&l.path).map(|e| &e.kind) {
                names.push(n.clone());
                continue;
            }
            let leaf = format!("{name}.{}", l.path);
            let sp = self.syn_span(at);
            let array = (l.count > 0).then(|| Some(self.count_expr(l.count, sp)));
            decls.push(Declarator {
                name: leaf.clone(),
                ty: l.ty,
                array,
                init: None,
                span: sp,
                id: NodeId::fresh(),
            });
            names.push(leaf);
        }
        let sv = SVar {
            sname: s.to_string(),
            kind: SKind::Plain,
            leaves: names.clone(),
        };
        self.declare_svar(&name, sv, &leaves);
        if !decls.is_empty() {
            self.pre.push(Stmt {
                kind: StmtKind::Decl(Storage::default(), decls),
                span: Span {
                    line: at.line,
                    col: 1,
                },
                end: Span {
                    line: at.line,
                    col: 1,
                },
            });
        }
        let mut out = Vec::new();
        for (l, n) in leaves.iter().zip(names) {
            let sp = self.syn_span(at);
            out.push((l.path.clone(), ident(&n, sp)));
        }
        Ok(out)
    }

    /// The leaves of a struct-valued expression (`None` when it is not one): a variable, a
    /// member, an element of a struct array or pointer, `?:`, a constructor or aggregate
    /// (`Pair(a, b)`, `Pair{a, b}`, `{a, b}` where `expect` says which struct), a call of a
    /// struct-returning function or member function.
    pub(crate) fn leaves_of(
        &mut self,
        e: &Expr,
        expect: Option<&str>,
    ) -> PResult<Option<(String, Leaves)>> {
        self.enter()?;
        let r = self.leaves_of_inner(e, expect);
        self.depth -= 1;
        r
    }

    pub(super) fn leaves_of_inner(
        &mut self,
        e: &Expr,
        expect: Option<&str>,
    ) -> PResult<Option<(String, Leaves)>> {
        let span = e.span;
        if let ExprKind::Call(n, a) = &e.kind {
            // `Pair q = __shfl_down_sync(m, p, d);`: no such overload ([`super::shuffle`]).
            self.refuse_struct_shuffle(n, a, span)?;
        }
        match &e.kind {
            // `tile.shfl_down(p, d)` of a struct `p` ([`super::shuffle`]).
            ExprKind::Call(n, a) if n == STRUCT_SHFL => self.struct_shuffle_leaves(a, span),
            // rocPRIM's `warp_shuffle_up(p, d, w)` of a struct `p`: the same, member by member.
            ExprKind::Call(n, _)
                if super::shuffle::rocprim_shuffle(span)
                    && matches!(
                        n.as_str(),
                        "__shfl" | "__shfl_up" | "__shfl_down" | "__shfl_xor"
                    ) =>
            {
                self.struct_shuffle_leaves(std::slice::from_ref(e), span)
            }
            ExprKind::Ident(n) => {
                let Some(sv) = self.var_struct(n).cloned() else {
                    if let Some(FieldTy::Struct(_)) = self.self_field(n) {
                        let m = Expr::new(
                            ExprKind::Member(Box::new(ident("this", span)), n.clone()),
                            span,
                        );
                        return self.leaves_of(&m, expect);
                    }
                    return Ok(None);
                };
                let leaves = self.leaves(&sv.sname, span)?;
                let mut out = Vec::new();
                for (l, name) in leaves.iter().zip(&sv.leaves) {
                    let name = self.use_var(name, span)?;
                    let sp = self.syn_span(span);
                    out.push((l.path.clone(), ident(&name, sp)));
                }
                Ok(Some((sv.sname, out)))
            }
            ExprKind::Member(b, f) => {
                let Some((s, leaves)) = self.leaves_of(b, None)? else {
                    return Ok(None);
                };
                let inner = match self
                    .structs
                    .get(&s)
                    .and_then(|d| d.fields.iter().find(|x| x.name == *f))
                {
                    Some(Field {
                        ty: FieldTy::Struct(inner),
                        ..
                    }) => inner.clone(),
                    _ => return Ok(None),
                };
                let prefix = format!("{f}.");
                let out = leaves
                    .into_iter()
                    .filter_map(|(p, e)| p.strip_prefix(&prefix).map(|q| (q.to_string(), e)))
                    .collect();
                Ok(Some((inner, out)))
            }
            // `ts_[0].m` of a pointer member bound to one struct ([`super::ref_members`]).
            ExprKind::Index(b, i) if self.is_alias_member(b) => {
                if self.fold_int(i) != Some(0) {
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        "this pointer member points to one struct here: only `p[0]` (or \
                         `p->m`, `(*p).m`) names it; hold a pointer to scalars for an array",
                    ));
                }
                self.leaves_of(b, expect)
            }
            ExprKind::Index(b, i) => {
                let Some((s, base)) = self.many_leaves(b)? else {
                    return Ok(None);
                };
                let counts = self.leaf_counts(&s, span)?;
                let i = self.lower_struct((**i).clone())?;
                let mut out = Vec::new();
                for ((p, e), n) in base.into_iter().zip(counts) {
                    let sp = self.syn_span(span);
                    let kind = if let Some((q, step)) = self.strided(&e) {
                        // A layout view's member: cell `step * i` past it
                        // ([`super::layout_view`]).
                        let at = self.scaled(i.clone(), step, span)?;
                        ExprKind::Index(Box::new(q), Box::new(at))
                    } else if n > 0 {
                        // An array member decays to a pointer to its first element.
                        let off = self.scaled(i.clone(), n, span)?;
                        ExprKind::Binary(BinOp::Add, Box::new(e), Box::new(off))
                    } else {
                        ExprKind::Index(Box::new(e), Box::new(i.clone()))
                    };
                    out.push((p, self.node(kind, sp)?));
                }
                Ok(Some((s, out)))
            }
            // `*this` in a member function is the receiver itself ([class.this]/1: `this`
            // points at the object the function was called on): its leaves are the
            // receiver's reference parameters, as `this` names them.
            ExprKind::Deref(b) if matches!(&b.kind, ExprKind::Ident(n) if n == "this") => {
                self.leaves_of(b, expect)
            }
            // `(*ts_).m` of a pointer member bound to one struct ([`super::ref_members`]).
            ExprKind::Deref(b) if self.is_alias_member(b) => self.leaves_of(b, expect),
            ExprKind::Deref(b) => {
                let Some((s, base)) = self.many_leaves(b)? else {
                    return Ok(None);
                };
                let counts = self.leaf_counts(&s, span)?;
                let mut out = Vec::new();
                for ((p, e), n) in base.into_iter().zip(counts) {
                    if n > 0 {
                        out.push((p, e));
                        continue;
                    }
                    let e = self.strided(&e).map_or(e, |(q, _)| q);
                    let sp = self.syn_span(span);
                    out.push((
                        p,
                        self.node(ExprKind::Index(Box::new(e), Box::new(zero(span))), sp)?,
                    ));
                }
                Ok(Some((s, out)))
            }
            ExprKind::Ternary(c, a, b) => {
                let Some((s, la)) = self.leaves_of(a, expect)? else {
                    return Ok(None);
                };
                let Some((_, lb)) = self.leaves_of(b, Some(&s))? else {
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        format!("both sides of `?:` must be a `{s}`"),
                    ));
                };
                let mut c = self.lower_struct((**c).clone())?;
                if la.len() > 1 && c.walk().any(|x| matches!(x.kind, ExprKind::Call(..))) {
                    // A call in the condition (`a < b ? a : b` through `operator<`) runs once,
                    // before the statement: each leaf's `?:` reads its result.
                    c = self.hoisted_condition(c, span);
                }
                let mut out = Vec::new();
                for ((p, x), (_, y)) in la.into_iter().zip(lb) {
                    let sp = self.syn_span(span);
                    out.push((
                        p,
                        self.node(
                            ExprKind::Ternary(Box::new(c.clone()), Box::new(x), Box::new(y)),
                            sp,
                        )?,
                    ));
                }
                Ok(Some((s, out)))
            }
            ExprKind::Assign(None, l, r) if self.struct_of(l).is_some() => {
                let s = self.struct_of(l).unwrap_or_default();
                let a = self.assign_struct(l, r, &s, span)?;
                self.push_pre_expr(a);
                self.leaves_of(l, None)
            }
            // `(a.operator+=(b), a)` used as a struct ([`super::operators`]): the call before
            // the statement, then `a`.
            ExprKind::Comma(c, b) if self.struct_of(b).is_some() => {
                let c = self.lower_struct((**c).clone())?;
                self.push_pre_expr(c);
                self.leaves_of(b, expect)
            }
            ExprKind::Call(name, args) => {
                let target = if name == "@brace" {
                    match expect {
                        Some(s) => s.to_string(),
                        None => {
                            return Err(KernelError::new(
                                span.line,
                                span.col,
                                "a braced list `{…}` needs a struct type here: write \
                                 `Name{…}`",
                            ))
                        }
                    }
                } else if let Some(s) = self
                    .structs
                    .contains_key(name)
                    .then(|| name.clone())
                    .or_else(|| self.struct_alias.get(name).cloned())
                {
                    s
                } else if self.method_target(name, args).is_some() {
                    let Some((ret, _)) = self.method_call(name, args, span)? else {
                        return Ok(None);
                    };
                    return Ok(ret);
                } else if let Some(s) = self.fn_ret.get(name).cloned() {
                    let t = self.temporary(&s, span)?;
                    let mut out_args: Vec<Expr> = t.iter().map(|(_, e)| e.clone()).collect();
                    let args = self.brace_args_to_params(name, args.clone());
                    out_args.extend(self.expand_args(args)?);
                    let sp = self.syn_span(span);
                    self.push_pre_expr(Expr::new(ExprKind::Call(name.clone(), out_args), sp));
                    return Ok(Some((s, t)));
                } else {
                    return Ok(None);
                };
                self.construct(&target, args, span).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// The leaves of a struct array or pointer (`s`, `out + k`): each leaf's array or
    /// pointer.
    pub(crate) fn many_leaves(&mut self, b: &Expr) -> PResult<Option<(String, Leaves)>> {
        let span = b.span;
        match &b.kind {
            ExprKind::Ident(n) => {
                let Some(sv) = self.var_struct(n).cloned() else {
                    return Ok(None);
                };
                if sv.kind != SKind::Many {
                    return Ok(None);
                }
                let leaves = self.leaves(&sv.sname, span)?;
                let mut out = Vec::new();
                for (l, name) in leaves.iter().zip(&sv.leaves) {
                    let name = self.use_var(name, span)?;
                    let sp = self.syn_span(span);
                    out.push((l.path.clone(), ident(&name, sp)));
                }
                Ok(Some((sv.sname, out)))
            }
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), p, k) => {
                let Some((s, base)) = self.many_leaves(p)? else {
                    return Ok(None);
                };
                let k = self.lower_struct((**k).clone())?;
                let counts = self.leaf_counts(&s, span)?;
                let mut out = Vec::new();
                for ((path, e), n) in base.into_iter().zip(counts) {
                    if let Some((q, step)) = self.strided(&e) {
                        // A layout view's member moves `step` cells per element.
                        let k = self.scaled(k.clone(), step, span)?;
                        let sp = self.syn_span(span);
                        let moved =
                            self.node(ExprKind::Binary(*op, Box::new(q), Box::new(k)), sp)?;
                        out.push((path, super::layout_view::stride_marker(moved, step, sp)));
                        continue;
                    }
                    let k = if n > 0 {
                        self.scaled(k.clone(), n, span)?
                    } else {
                        k.clone()
                    };
                    let sp = self.syn_span(span);
                    out.push((
                        path,
                        self.node(ExprKind::Binary(*op, Box::new(e), Box::new(k)), sp)?,
                    ));
                }
                Ok(Some((s, out)))
            }
            // `o.b` where `b` is an array of structs: its leaves point at element 0.
            ExprKind::Member(base, f) => {
                let Some((s, leaves)) = self.leaves_of(base, None)? else {
                    return Ok(None);
                };
                let field = self
                    .structs
                    .get(&s)
                    .and_then(|d| d.fields.iter().find(|x| x.name == *f))
                    .map(|x| x.ty.clone());
                let Some(FieldTy::SArr(inner, _)) = field else {
                    return Ok(None);
                };
                let prefix = format!("{f}.");
                let out = leaves
                    .into_iter()
                    .filter_map(|(p, e)| p.strip_prefix(&prefix).map(|q| (q.to_string(), e)))
                    .collect();
                Ok(Some((inner, out)))
            }
            ExprKind::Call(n, args) if n.starts_with(SCAST) && args.len() == 1 => {
                let s = n.trim_start_matches(SCAST).to_string();
                self.cast_leaves(&s, &args[0], span)
            }
            // `&a[i]`: the pointer `a + i` ([expr.sub]: `a[i]` is `*(a + i)`).
            ExprKind::AddrOf(inner) => match &inner.kind {
                ExprKind::Index(a, i) => {
                    let sum = Expr::new(ExprKind::Binary(BinOp::Add, a.clone(), i.clone()), span);
                    self.many_leaves(&sum)
                }
                _ => Ok(None),
            },
            _ => Ok(None),
        }
    }

    /// `S(args)`, `S{args}`, `{args}` as an `S`: a constructor of that many parameters, else
    /// aggregate initialization (members in order; the rest from their default member
    /// initializer, else zero).
    pub(super) fn construct(
        &mut self,
        s: &str,
        args: &[Expr],
        span: Span,
    ) -> PResult<(String, Leaves)> {
        let Some(def) = self.structs.get(s).cloned() else {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!("`{s}` is not a struct"),
            ));
        };
        // `Pair p = other;` spelled `Pair(other)`: a copy.
        if args.len() == 1 && def.ctors.iter().all(|(n, _)| *n != 1) {
            if let Some(one) = self.struct_of(&args[0]) {
                if one == s {
                    return self
                        .leaves_of(&args[0], Some(s))
                        .map(|r| r.unwrap_or((s.to_string(), Vec::new())));
                }
            }
        }
        // [dcl.init.aggr]/16: a braced list initializes a union's first member, which is a
        // byte view when the union is held by another ([`super::punning`]).
        if let (Some(first), false) = (&def.union_first, args.is_empty()) {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "a braced initializer sets a union's first member `{first}`, which is read \
                     from the bytes of another member here; declare the variable and assign the \
                     member (`v.{first} = …;`)"
                ),
            ));
        }
        if let Some((_, func)) = def.ctors.iter().find(|(n, _)| *n == args.len()) {
            let aliases = self.ref_aliases(s, func, args, span)?;
            let t = self.temporary_with(s, span, &aliases)?;
            let mut out_args: Vec<Expr> = t.iter().map(|(_, e)| e.clone()).collect();
            out_args.extend(self.expand_args(args.to_vec())?);
            let sp = self.syn_span(span);
            self.push_pre_expr(Expr::new(ExprKind::Call(func.clone(), out_args), sp));
            return Ok((s.to_string(), t));
        }
        if !def.ctors.is_empty() {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!("`{s}` has no constructor taking {} argument(s)", args.len()),
            ));
        }
        // C++17 aggregates with base classes ([dcl.init.aggr]/2): the direct bases are the
        // list's first elements, `D d{{3}, 4};`, each initialized from its own braced list or
        // a value of the base's type ([dcl.init.aggr]/3). A first element that is neither is
        // brace elision ([dcl.init.aggr]/15): the values go to the bases' members in order,
        // as the flat member list below reads them.
        let base_list = !def.direct_bases.is_empty()
            && args.first().is_some_and(|a| {
                matches!(&a.kind, ExprKind::Call(n, _) if n == "@brace")
                    || self.struct_of(a).is_some()
            });
        if base_list {
            return self.construct_with_bases(s, &def, args, span);
        }
        // Brace elision ([`super::brace_elide`]): `Vec<float, 4>{a, b, c, d}`.
        let elided = if def.direct_bases.is_empty() {
            self.elide_braces(&def.fields, args)
        } else {
            None
        };
        let args = elided.as_deref().unwrap_or(args);
        if args.len() > def.fields.len() {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "`{s}` has {} member(s), given {} initializers",
                    def.fields.len(),
                    args.len()
                ),
            ));
        }
        self.construct_fields(&def.fields, |k| args.get(k), span)
            .map(|(_, l)| (s.to_string(), l))
    }

    /// [`Self::construct`] of a braced list whose first elements are struct `s`'s direct
    /// bases ([dcl.init.aggr]/2), then its own members.
    ///
    /// # Errors
    /// More initializers than elements, a base's element that is not a braced list or a
    /// value of that base, or a member's error.
    fn construct_with_bases(
        &mut self,
        s: &str,
        def: &StructDef,
        args: &[Expr],
        span: Span,
    ) -> PResult<(String, Leaves)> {
        let nb = def.direct_bases.len();
        let base_fields: usize = def.direct_bases.iter().map(|(_, n)| n).sum();
        let own = def.fields.get(base_fields..).unwrap_or_default();
        if args.len() > nb + own.len() {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "`{s}` has {nb} base(s) and {} member(s), given {} initializers",
                    own.len(),
                    args.len()
                ),
            ));
        }
        let mut out = Vec::new();
        for (k, (base, _)) in def.direct_bases.iter().enumerate() {
            let leaves = match args.get(k) {
                Some(a) => self.leaves_of(a, Some(base))?.ok_or_else(|| {
                    KernelError::new(
                        a.span.line,
                        a.span.col,
                        format!(
                            "the base `{base}` of `{s}` needs a braced list `{{…}}` or a \
                             `{base}` value here ([dcl.init.aggr]/2: bases come first)"
                        ),
                    )
                })?,
                None => self.construct(base, &[], span)?,
            };
            out.extend(leaves.1);
        }
        let rest = self.construct_fields(own, |k| args.get(nb + k), span)?;
        out.extend(rest.1);
        Ok((s.to_string(), out))
    }

    /// The leaves of `fields` initialized from the list element `arg(k)` of the k-th field
    /// (or its default member initializer, or zero: [dcl.init.aggr]/8).
    fn construct_fields<'a>(
        &mut self,
        fields: &[Field],
        arg: impl Fn(usize) -> Option<&'a Expr>,
        span: Span,
    ) -> PResult<(String, Leaves)> {
        let args: Vec<Option<Expr>> = (0..fields.len()).map(|k| arg(k).cloned()).collect();
        let args = &args;
        let mut out = Vec::new();
        for (k, f) in fields.iter().enumerate() {
            let arg_k = args.get(k).and_then(Option::as_ref);
            match &f.ty {
                FieldTy::Struct(inner) => {
                    let leaves = match arg_k {
                        Some(a) => self.leaves_of(a, Some(inner))?.ok_or_else(|| {
                            KernelError::new(
                                a.span.line,
                                a.span.col,
                                format!("member `{}` needs a `{inner}`", f.name),
                            )
                        })?,
                        None => self.construct(inner, &[], span)?,
                    };
                    out.extend(
                        leaves
                            .1
                            .into_iter()
                            .map(|(p, e)| (format!("{}.{p}", f.name), e)),
                    );
                }
                // An array of structs: value-initialized (zero) when not given; a braced
                // list for it is not read.
                FieldTy::SArr(inner, _) => {
                    if let Some(a) = arg_k {
                        return Err(KernelError::new(
                            a.span.line,
                            a.span.col,
                            format!(
                                "initializing the array-of-structs member `{}` in a braced list \
                                 is not supported; assign its elements after the declaration",
                                f.name
                            ),
                        ));
                    }
                    let inner = inner.clone();
                    let none = self.no_value(span);
                    for leaf in self.leaves(&inner, span)? {
                        out.push((format!("{}.{}", f.name, leaf.path), none.clone()));
                    }
                }
                // An array member's value: a braced list or zero, copied element by element
                // where it is stored ([`Parser::copy_elements`]).
                FieldTy::Arr(..) => {
                    let v = match arg_k {
                        Some(
                            a @ Expr {
                                kind: ExprKind::Call(n, _),
                                ..
                            },
                        ) if n == "@brace" => a.clone(),
                        Some(a) => {
                            return Err(KernelError::new(
                                a.span.line,
                                a.span.col,
                                format!("array member `{}` needs a braced list `{{…}}`", f.name),
                            ))
                        }
                        None => self.no_value(span),
                    };
                    out.push((f.name.clone(), v));
                }
                _ => {
                    let v = match (arg_k.cloned(), f.default.clone()) {
                        (Some(a), _) => self.lower_struct(a)?,
                        // A default that reads earlier members ([`super::member_init`]).
                        (None, Some(d)) => {
                            let d = self.default_reading_members(d, fields, &out, k)?;
                            if super::member_init::is_noinit(&d) {
                                d
                            } else {
                                // The initializer's own expressions are no default-initialization.
                                let outer = std::mem::replace(&mut self.default_init, false);
                                let r = self.lower_struct(d);
                                self.default_init = outer;
                                r?
                            }
                        }
                        (None, None) => self.no_value(span),
                    };
                    out.push((f.name.clone(), v));
                }
            }
        }
        Ok((String::new(), out))
    }
}
