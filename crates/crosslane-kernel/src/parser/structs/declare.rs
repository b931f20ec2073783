//! Struct declarations: locals, arrays, parameters, struct results (`__ret.*`), brace lists,
//! and the sub-parser hand-over of the struct table.

use super::*;

impl Parser<'_> {
    /// The `__ret.*` reference parameters of a function returning struct `s`.
    pub(crate) fn ret_params(&mut self, s: &str, at: Span) -> PResult<Vec<Param>> {
        let leaves = self.leaves(s, at)?;
        let names: Vec<String> = leaves.iter().map(|l| format!("__ret.{}", l.path)).collect();
        let params = leaves
            .iter()
            .zip(&names)
            .map(|(l, n)| match l.ty {
                // An array member: a pointer to the caller's temporary's array, which
                // `return e;` fills element by element (a returned aggregate is copied whole,
                // arrays included, [class.copy.ctor]/14).
                Ty::Val(v) if l.count > 0 => Param {
                    name: n.clone(),
                    ty: Ty::Ptr(v),
                    reference: false,
                    const_ref: false,
                    span: at,
                },
                ty => Param {
                    name: n.clone(),
                    ty,
                    reference: true,
                    const_ref: false,
                    span: at,
                },
            })
            .collect();
        let sv = SVar {
            sname: s.to_string(),
            kind: SKind::Plain,
            leaves: names,
        };
        self.declare_svar("__ret", sv, &leaves);
        Ok(params)
    }

    /// `return e;` in a function returning struct `s`: the leaves assigned to `__ret.*`, then
    /// `return;`.
    pub(crate) fn return_struct(
        &mut self,
        e: Expr,
        s: &str,
        span: Span,
        end: Span,
    ) -> PResult<Stmt> {
        let target = ident("__ret", span);
        let assign = self.assign_struct(&target, &e, s, span)?;
        let mut list: Vec<Stmt> = std::mem::take(&mut self.pre);
        list.push(Stmt {
            kind: StmtKind::Expr(assign),
            span,
            end,
        });
        list.push(Stmt {
            kind: StmtKind::Return(None),
            span,
            end,
        });
        Ok(Stmt {
            kind: StmtKind::Block(list),
            span,
            end,
        })
    }

    /// A struct parameter (`Pair p`, `const Pair& p`, `Pair* out`, `Pair out[]`, `Op op`): its
    /// leaves as parameters (`p.v`, `p.idx`), references where the parameter is a non-const
    /// reference or the member is a lambda's `[&]` capture; the struct variable is declared
    /// when the function's scope opens ([`Parser::pending_svars`]).
    pub(crate) fn struct_param(
        &mut self,
        s: String,
        is_const: bool,
        at: Span,
    ) -> PResult<Vec<Param>> {
        let mut many = false;
        let mut reference = false;
        loop {
            if self.eat("*") {
                if many {
                    return self.unsupported("pointers to pointers are not supported");
                }
                many = true;
            } else if self.eat("&") || self.eat("&&") {
                // `F&& f` of a deduced `F` is a forwarding reference ([temp.deduct.call]/3):
                // bound to an lvalue closure it is `F&`, to a temporary one `F&&`; either way
                // the body reads the caller's object, as a reference does.
                reference = true;
            } else if matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "const" | "__restrict__" | "__restrict" | "restrict" | "__gm__"))
            {
                self.bump();
            } else {
                break;
            }
        }
        // `S (&items)[N]`: a reference to an array of structs ([dcl.ref]) names the caller's
        // array, as the pointer its elements decay to does (the `[N]` below).
        let array_ref = !many
            && !reference
            && self.is_punct("(")
            && matches!(self.peek(1), Tok::Punct("&"))
            && matches!(self.peek(2), Tok::Ident(_))
            && matches!(self.peek(3), Tok::Punct(")"))
            && matches!(self.peek(4), Tok::Punct("["));
        if array_ref {
            self.bump();
            self.bump();
        }
        // An unnamed parameter (`int get(Number<N>)`, a tag whose type alone matters,
        // [dcl.fct]/8): nothing in the body can name it.
        let name = if matches!(self.peek(0), Tok::Punct("," | ")")) {
            format!("<unnamed parameter at {}:{}>", at.line, at.col)
        } else {
            self.ident()?
        };
        if array_ref {
            self.expect_punct(")")?;
        }
        if self.eat("[") {
            while !self.is_punct("]") && !matches!(self.peek(0), Tok::Eof) {
                self.bump();
            }
            self.expect_punct("]")?;
            many = true;
        }
        if is_const {
            // `const V& v`: a const receiver for [`super::cv_overload`].
            self.param_consts.insert(name.clone());
        }
        let leaves = self.leaves(&s, at)?;
        // By value: a copy, its array members copied when the body starts ([`by_value`]);
        // a `const` one too (`const P p`, llama.cpp's `const soft_max_params p`: still a
        // copy of the caller's object, [expr.call]/7).
        let copied = !many && !reference;
        let mut params = Vec::new();
        let mut names = Vec::new();
        // The struct's one layout ([`arrays`]): host code sizes its buffers by it.
        let stride = self.struct_layout(&s, at).ok().map(|l| l.size);
        for l in &leaves {
            let n = format!("{name}.{}", l.path);
            if let Some(stride) = stride {
                self.leaf_pending.push((n.clone(), stride, l.count.max(1)));
            }
            if l.count > 0 {
                // The array member's elements, as a pointer: to the caller's own array for a
                // reference, to the buffer (`count` elements per struct) for a pointer.
                let Ty::Val(v) = l.ty else {
                    return self.unsupported("this array member is not supported here");
                };
                // A reference member's array is the bound one, in a copy too
                // ([`super::ref_members`]).
                if copied && !l.by_ref {
                    let param = super::by_value::copy_param_name(&n);
                    self.param_copies.push(ParamCopy {
                        local: n.clone(),
                        param: param.clone(),
                        elem: v,
                        count: l.count,
                        span: at,
                        sname: s.clone(),
                    });
                    params.push(Param {
                        name: param,
                        ty: Ty::Ptr(v),
                        reference: false,
                        const_ref: false,
                        span: at,
                    });
                    names.push(n);
                    continue;
                }
                params.push(Param {
                    name: n.clone(),
                    ty: Ty::Ptr(v),
                    reference: false,
                    const_ref: false,
                    span: at,
                });
                names.push(n);
                continue;
            }
            let ty = match (many, l.ty) {
                (true, Ty::Val(v)) => Ty::Ptr(v),
                (true, Ty::Ptr(_)) => {
                    return self.unsupported(
                        "a pointer to a struct with pointer members is not supported",
                    );
                }
                (_, t) => t,
            };
            params.push(Param {
                name: n.clone(),
                ty,
                reference: !many && ((reference && !is_const) || l.by_ref),
                const_ref: false,
                span: at,
            });
            names.push(n);
        }
        self.pending_svars.push((
            name,
            SVar {
                sname: s,
                kind: if many { SKind::Many } else { SKind::Plain },
                leaves: names,
            },
        ));
        Ok(params)
    }

    /// The declarators of one struct variable (`Pair p{a, b}`, `Pair p = q;`, `__shared__ Pair
    /// s[32];`, `Pair* q = out + k;`), declaring it.
    pub(crate) fn struct_declarator(
        &mut self,
        s: &str,
        name: &str,
        span: Span,
        many: bool,
        array: Option<Option<Expr>>,
        init: Option<Expr>,
    ) -> PResult<Vec<Declarator>> {
        if many && array.is_none() && self.local_struct_pointer(s, name, init.as_ref())? {
            return Ok(Vec::new());
        }
        if !many && array.is_none() && self.union_brace_init(s, name, span, init.as_ref())? {
            return Ok(Vec::new());
        }
        let leaves = self.leaves(s, span)?;
        let is_many = many || array.is_some();
        let values: Option<Leaves> = match (&init, is_many) {
            (Some(_), true) if array.is_some() => {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    "initializing a struct array is not supported; assign its elements",
                ))
            }
            (Some(i), true) => {
                if matches!(i.kind, ExprKind::Int { value: 0, .. }) {
                    Some(
                        leaves
                            .iter()
                            .map(|l| (l.path.clone(), zero(span)))
                            .collect(),
                    )
                } else {
                    match self.many_leaves(i)? {
                        Some((is, v)) if is == s => Some(v),
                        _ => {
                            return Err(KernelError::new(
                                span.line,
                                span.col,
                                format!("`{name}` needs a pointer to `{s}` (a `{s}*` parameter, array, or one plus an offset)"),
                            ))
                        }
                    }
                }
            }
            (Some(i), false) => match self.leaves_of(i, Some(s))? {
                Some((is, v)) if is == s => Some(v),
                Some((is, v)) if self.converts_to(&is, s).is_some() => {
                    Some(self.converted_leaves(&is, v))
                }
                Some((is, _)) => {
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        format!("`{name}` is a `{s}`, initialized with a `{is}`"),
                    ))
                }
                None => {
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        format!("`{name}` is a `{s}`: initialize it with a `{s}` or `{{…}}`"),
                    ))
                }
            },
            (None, false) => {
                let def = self.structs.get(s).cloned().unwrap_or_default();
                if def.ctors.iter().any(|(n, _)| *n == 0)
                    || def.fields.iter().any(|f| f.default.is_some())
                {
                    // Default-initialization ([dcl.init]/12): a member without a default
                    // member initializer is left without a value ([`super::member_init`]).
                    let outer = std::mem::replace(&mut self.default_init, true);
                    let r = self.construct(s, &[], span);
                    self.default_init = outer;
                    Some(r?.1)
                } else {
                    None
                }
            }
            (None, true) => None,
        };
        let mut decls = Vec::new();
        let mut names = Vec::new();
        // Element copies of array members with a value, after their declarations.
        let mut copies: Vec<(Expr, Expr, u32)> = Vec::new();
        for (k, l) in leaves.iter().enumerate() {
            let value = values
                .as_ref()
                .and_then(|v| v.get(k))
                .map(|(_, e)| e.clone())
                .filter(|e| !super::member_init::is_noinit(e))
                .map(|e| {
                    if is_many {
                        e
                    } else {
                        self.bitfield_value(s, &l.path, e)
                    }
                });
            if l.count > 0 && l.by_ref && !is_many {
                // A reference member's array ([`super::ref_members`]): the bound array itself.
                if let Some(ExprKind::Ident(n)) = value.as_ref().map(|e| &e.kind) {
                    names.push(n.clone());
                    continue;
                }
            }
            if l.count > 0 {
                let leaf = format!("{name}.{}", l.path);
                let sp = self.syn_span(span);
                let (ty, arr, value) = match (&array, is_many, l.ty) {
                    // A struct array: `len * count` elements per member.
                    (Some(Some(len)), _, t) => {
                        let total = self.scaled(len.clone(), l.count, sp)?;
                        (t, Some(Some(total)), None)
                    }
                    (Some(None), _, _) => {
                        return Err(KernelError::new(
                            span.line,
                            span.col,
                            format!(
                                "an array of `{s}` (which has an array member) needs its length"
                            ),
                        ))
                    }
                    // A pointer: points where the value's member does.
                    (None, true, Ty::Val(v)) => (Ty::Ptr(v), None, value),
                    (None, _, t) => {
                        if let Some(v) = value {
                            copies.push((ident(&leaf, sp), v, l.count));
                        }
                        (t, Some(Some(self.count_expr(l.count, sp))), None)
                    }
                };
                decls.push(Declarator {
                    name: leaf.clone(),
                    ty,
                    array: arr,
                    init: value,
                    span: sp,
                    id: NodeId::fresh(),
                });
                names.push(leaf);
                continue;
            }
            if l.by_ref && !is_many {
                // A lambda's `[&]` capture: the member is the captured variable itself.
                match value.as_ref().map(|e| &e.kind) {
                    Some(ExprKind::Ident(n)) => {
                        names.push(n.clone());
                        continue;
                    }
                    _ => {
                        return Err(KernelError::new(
                            span.line,
                            span.col,
                            format!(
                            "`{name}` captures by reference: initialize it from the lambda itself"
                        ),
                        ))
                    }
                }
            }
            let leaf = format!("{name}.{}", l.path);
            let ty = match (is_many && array.is_none(), l.ty) {
                (true, Ty::Val(v)) => Ty::Ptr(v),
                (_, t) => t,
            };
            // A layout view's member pointer ([`super::layout_view`]): its step kept by name.
            let value = match value {
                Some(v) if is_many => Some(self.declare_strided(&leaf, v)),
                v => v,
            };
            let sp = self.syn_span(span);
            decls.push(Declarator {
                name: leaf.clone(),
                ty,
                array: array.clone(),
                init: value,
                span: sp,
                id: NodeId::fresh(),
            });
            names.push(leaf);
        }
        let sv = SVar {
            sname: s.to_string(),
            kind: if is_many { SKind::Many } else { SKind::Plain },
            leaves: names,
        };
        self.declare_svar(name, sv, &leaves);
        // An array of structs of a constant length (`KV pairs[3]`): its length, under the
        // struct variable's scope key, for a range-based `for` over it (`super::super::range_for`).
        if let Some(n) = array
            .as_ref()
            .and_then(|a| a.as_ref())
            .and_then(|n| self.fold_int(n))
            .and_then(|n| u64::try_from(n).ok())
        {
            self.note_dims(&format!("struct:{name}"), vec![n]);
        }
        if !copies.is_empty() {
            // The array members' declarations, then their element copies, as statements
            // spliced in before this declaration (which keeps the other members).
            let (arrays, rest): (Vec<Declarator>, Vec<Declarator>) = std::mem::take(&mut decls)
                .into_iter()
                .partition(|d| d.array.is_some());
            decls = rest;
            self.pre.push(Stmt {
                kind: StmtKind::Decl(Storage::default(), arrays),
                span,
                end: span,
            });
            for (dst, src, n) in copies {
                let e = self.copy_elements(&dst, &src, n, span)?;
                self.push_pre_expr(e);
            }
        }
        Ok(decls)
    }

    /// `U v = {x};` / `U v{x};` of a union held by a member other than its first
    /// ([`super::punning`]): the braced list initializes the first member ([dcl.init.aggr]/16),
    /// so `v` is declared without a value and `v.first = x` written through the first member's
    /// byte view, both as statements before the one being read (sglang's `Pack16B pack =
    /// {ldg_cg(reinterpret_cast<const uint4*>(p))};` read back through `pack.u16[i]`). Whether
    /// the declaration was read so.
    fn union_brace_init(
        &mut self,
        s: &str,
        name: &str,
        span: Span,
        init: Option<&Expr>,
    ) -> PResult<bool> {
        let Some(first) = self.structs.get(s).and_then(|d| d.union_first.clone()) else {
            return Ok(false);
        };
        let value = match init.map(|e| &e.kind) {
            Some(ExprKind::Call(n, items)) if n == "@brace" && items.len() == 1 => items[0].clone(),
            _ => return Ok(false),
        };
        let decls = self.struct_declarator(s, name, span, false, None, None)?;
        self.pre.push(Stmt {
            kind: StmtKind::Decl(Storage::default(), decls),
            span,
            end: span,
        });
        let sp = self.syn_span(span);
        let var = Expr::new(ExprKind::Ident(name.to_string()), sp);
        let member = Expr::new(ExprKind::Member(Box::new(var), first.clone()), sp);
        let Some(place) = self.pun_place(&member)? else {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!("`{s}`'s first member `{first}` is not a view of its bytes here"),
            ));
        };
        let write = self.pun_write(&place, None, value, span)?;
        self.push_pre_expr(write);
        Ok(true)
    }

    /// A declaration whose type is struct `s` (after the type): each declarator's leaves.
    pub(crate) fn struct_decl(&mut self, storage: Storage, s: String) -> PResult<StmtKind> {
        let mut list = Vec::new();
        let konst = std::mem::take(&mut self.struct_decl_const);
        loop {
            let mut many = false;
            let mut reference = false;
            loop {
                if self.eat("*") {
                    many = true;
                } else if self.eat("&") {
                    reference = true;
                } else if matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "const" | "volatile" | "__restrict__" | "__restrict" | "restrict"))
                {
                    self.bump();
                } else {
                    break;
                }
            }
            let span = self.span();
            let name = self.ident()?;
            // `const V c{};`, `const V& r = v;`: a const receiver ([`super::cv_overload`]).
            if konst {
                self.const_names.insert(name.clone());
            } else {
                self.const_names.remove(&name);
            }
            let array = if self.eat("[") {
                if self.eat("]") {
                    Some(None)
                } else {
                    let n = self.expr()?;
                    self.expect_punct("]")?;
                    Some(Some(self.lower_struct(n)?))
                }
            } else {
                None
            };
            let init = if self.eat("=") {
                if self.is_punct("{") {
                    Some(self.brace_list()?)
                } else {
                    Some(self.assign_expr()?)
                }
            } else if self.is_punct("{") {
                Some(self.brace_list()?)
            } else if self.is_punct("(") && !many {
                let at = self.span();
                self.bump();
                let mut args = Vec::new();
                if !self.eat(")") {
                    loop {
                        args.push(self.assign_expr()?);
                        if self.eat(")") {
                            break;
                        }
                        self.expect_punct(",")?;
                    }
                }
                Some(Expr::new(ExprKind::Call(s.clone(), args), at))
            } else {
                None
            };
            if reference {
                // `Pair& r = p;`: another name for the same leaves (variables only).
                let Some(i) = init else {
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        "a reference needs an initializer",
                    ));
                };
                let Some((is, leaves)) = self.leaves_of(&i, Some(&s))? else {
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        format!("`{name}` must refer to a `{s}`"),
                    ));
                };
                // `Base& br = d;` of a `Derived d`: the reference names the base subobject
                // ([dcl.init.ref]/5.1, [conv.ptr]/3), whose static type `Base` chooses a
                // non-virtual member function ([class.member.lookup]; no virtual dispatch here).
                let base_at = (is != s)
                    .then(|| self.structs.get(&is))
                    .flatten()
                    .and_then(|d| d.bases.iter().find(|(b, _)| *b == s).map(|(_, at)| *at));
                let (is, leaves) = match base_at {
                    Some(at) => {
                        let n = self.leaves(&s, span)?.len();
                        (s.clone(), leaves.into_iter().skip(at).take(n).collect())
                    }
                    None => (is, leaves),
                };
                let mut names = Vec::new();
                for (_, e) in &leaves {
                    match &e.kind {
                        ExprKind::Ident(n) => names.push(n.clone()),
                        _ => {
                            // `KV& p = pairs[i];`: a second name of the element's place, as
                            // `auto& p` is ([`Parser::struct_reference`]).
                            if let Some(hidden) = self.struct_reference(&name, &i)? {
                                list.extend(hidden);
                                break;
                            }
                            return Err(KernelError::new(span.line, span.col, format!("a reference to a struct element (`{s}& {name} = a[i]`) is not supported; copy it (`{s} {name} = a[i];`) and write it back")));
                        }
                    }
                }
                if names.len() != leaves.len() {
                    if !self.eat(",") {
                        break;
                    }
                    continue;
                }
                let all = self.leaves(&is, span)?;
                self.declare_svar(
                    &name,
                    SVar {
                        sname: is,
                        kind: SKind::Plain,
                        leaves: names,
                    },
                    &all,
                );
            } else {
                let is_array = array.is_some();
                list.extend(self.struct_declarator(&s, &name, span, many, array, init)?);
                if !many {
                    self.note_destructible(&s, &name, span, is_array, storage)?;
                }
            }
            if !self.eat(",") {
                break;
            }
        }
        // Even empty (a struct of array members only, declared before it): a declaration,
        // so that what was declared before it stays in the enclosing scope.
        Ok(StmtKind::Decl(storage, list))
    }

    /// `{a, b, …}` as an aggregate value (`@brace`), its struct told by where it is used.
    pub(crate) fn brace_list(&mut self) -> PResult<Expr> {
        let at = self.span();
        self.expect_punct("{")?;
        let mut items = Vec::new();
        if !self.eat("}") {
            loop {
                if self.is_punct("{") {
                    items.push(self.brace_list()?);
                } else {
                    items.push(self.assign_expr()?);
                }
                if self.eat("}") {
                    break;
                }
                self.expect_punct(",")?;
                if self.eat("}") {
                    break;
                }
            }
        }
        self.node(ExprKind::Call("@brace".into(), items), at)
    }

    /// Lends a sub-parser (a template instance) what the whole source shares: the structs,
    /// class templates, struct-returning functions, member operators, the functions with
    /// `thread_group` or tile parameters, the synthesized-node counter and the functions made so far.
    pub(crate) fn lend(&mut self, sub: &mut Parser<'_>) {
        sub.structs = std::mem::take(&mut self.structs);
        sub.class_templates = std::mem::take(&mut self.class_templates);
        sub.fn_ret = std::mem::take(&mut self.fn_ret);
        sub.constexpr_fns = std::mem::take(&mut self.constexpr_fns);
        sub.fn_types = std::mem::take(&mut self.fn_types);
        sub.partial_specs = std::mem::take(&mut self.partial_specs);
        sub.extra_fns = std::mem::take(&mut self.extra_fns);
        sub.overloads = std::mem::take(&mut self.overloads);
        sub.fn_sets = std::mem::take(&mut self.fn_sets);
        sub.member_ops = std::mem::take(&mut self.member_ops);
        sub.method_templates = std::mem::take(&mut self.method_templates);
        sub.closure_dims = std::mem::take(&mut self.closure_dims);
        // The device functions with `thread_group` parameters: a call in an instance passes
        // each group's rank and size too ([`super::super::cg_any`]).
        sub.any_group_fns = std::mem::take(&mut self.any_group_fns);
        // And those with tile parameters, whose calls pass each tile's meta pair
        // ([`super::super::cg_tile_meta`]).
        sub.tile_meta_fns = std::mem::take(&mut self.tile_meta_fns);
        sub.tile_meta_expect = std::mem::take(&mut self.tile_meta_expect);
        sub.global_vars = self.global_vars.clone();
        sub.syn = self.syn;
        // One token budget for the whole source: what an instance's array initializers
        // write out counts against it too.
        sub.instance_tokens = self.instance_tokens;
        sub.wave = self.wave;
        sub.hip = self.hip;
        sub.cuda = self.cuda;
        sub.ascend = self.ascend;
        sub.simt_using = self.simt_using;
        sub.sync64 = self.sync64;
        sub.enums = self.enums.clone();
    }

    /// Takes back what [`Parser::lend`] lent.
    pub(crate) fn take_back(&mut self, sub: &mut Parser<'_>) {
        self.structs = std::mem::take(&mut sub.structs);
        self.class_templates = std::mem::take(&mut sub.class_templates);
        self.fn_ret = std::mem::take(&mut sub.fn_ret);
        self.constexpr_fns = std::mem::take(&mut sub.constexpr_fns);
        self.fn_types = std::mem::take(&mut sub.fn_types);
        self.partial_specs = std::mem::take(&mut sub.partial_specs);
        self.extra_fns = std::mem::take(&mut sub.extra_fns);
        self.overloads = std::mem::take(&mut sub.overloads);
        self.fn_sets = std::mem::take(&mut sub.fn_sets);
        self.member_ops = std::mem::take(&mut sub.member_ops);
        self.method_templates = std::mem::take(&mut sub.method_templates);
        self.closure_dims = std::mem::take(&mut sub.closure_dims);
        self.any_group_fns = std::mem::take(&mut sub.any_group_fns);
        self.tile_meta_fns = std::mem::take(&mut sub.tile_meta_fns);
        self.tile_meta_expect = std::mem::take(&mut sub.tile_meta_expect);
        self.syn = sub.syn;
        self.instance_tokens = sub.instance_tokens;
        // A function body the sub-parser refused ([`super::super::refused_kernel`]) stays
        // the error of the runs that call it: without it the call would compile the empty
        // body left in its place and read its result as never set.
        for r in std::mem::take(&mut sub.refused_bodies) {
            if !self.refused_bodies.iter().any(|x| x.0 == r.0) {
                self.refused_bodies.push(r);
            }
        }
        // A class instantiated by the sub-parser (`Conv<float>`, first named in a return
        // type's `enable_if`) came back with the classes; its static constants and member
        // types (`Conv<float>::exists`) come with it, or a later read finds the class and
        // misses them. Only class-scope names: the sub-parser's bound template parameters
        // stay its own.
        for (k, v) in &sub.consts {
            if k.contains("::") && !self.consts.contains_key(k) {
                self.consts.insert(k.clone(), v.clone());
            }
        }
        for (k, v) in &sub.aliases {
            if k.contains("::") && !self.aliases.contains_key(k) {
                self.aliases.insert(k.clone(), *v);
            }
        }
    }
}
