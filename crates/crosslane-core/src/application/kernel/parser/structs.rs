//! Structs and classes, lowered in the front end so the engine never sees one (issue 14).
//!
//! A struct value is its fields' scalars ("leaves", in declaration order, nested structs
//! flattened): a local `Pair p;` is the variables `p.v` and `p.idx`; an array `__shared__ Pair
//! s[32];` is one array per field (`s.v[32]`, `s.idx[32]`); a pointer parameter `Pair* out` is
//! one buffer per field (`out.v`, `out.idx`), so the memory tables show the fields. `p.v`, `p->v`,
//! `s[i].v` name a leaf; `p = q`, `Pair q = p;`, `Pair p{a, b};` and `return p;` copy leaf by
//! leaf. A member function is a device function `Pair::f` whose first parameters are the
//! receiver's leaves as references (`this.v`, `this.idx`), then its own; a static member
//! function has no receiver; `operator()` makes the value callable; a constructor
//! `Pair::Pair/N` runs its initializer list then its body on the receiver. A function that
//! returns a struct gets leading reference parameters `__ret.*` that `return e;` assigns; each
//! call writes into a temporary declared before its statement.
//!
//! Sources: ISO C++ [class.mem] (members, member functions, `this`), [class.static] (static
//! members), [class.base.init] (constructor initializer lists), [dcl.init.aggr] (aggregate
//! initialization: members in declaration order, the rest value-initialized or from their
//! default member initializer), [class.copy.assign] (a copy is member by member), [over.call]
//! (`operator()`), [expr.sizeof] with [basic.align] (a struct's size: each member at a multiple
//! of its alignment, the total rounded up to the largest).

use std::collections::HashMap;

use super::{PResult, Parser};
use crate::kernel::ast::*;
use crate::kernel::lexer::Tok;
use crate::kernel::types::{BinOp, Scalar, Ty, ValTy};
use crate::kernel::KernelError;

/// Synthesized nodes' columns ([`crate::kernel::ast::SYNTH_COL`]).
pub(super) const SYN_COL: u32 = crate::kernel::ast::SYNTH_COL;

/// Most scalar leaves one struct flattens to.
const MAX_LEAVES: usize = 256;

/// A member's type.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum FieldTy {
    /// A value (scalar or vector).
    Val(ValTy),
    /// A pointer to values (a buffer).
    Ptr(ValTy),
    /// A struct, by name.
    Struct(String),
}

/// A data member.
#[derive(Clone, Debug)]
pub(super) struct Field {
    pub(super) name: String,
    pub(super) ty: FieldTy,
    /// A lambda's `[&]` capture: the member names the captured variable itself.
    pub(super) by_ref: bool,
    /// The default member initializer.
    pub(super) default: Option<Expr>,
}

/// What a function returns.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Ret {
    /// A scalar, a pointer or nothing.
    Plain,
    /// A struct (the function has `__ret.*` reference parameters).
    Struct(String),
}

/// A member function: the device function it became.
#[derive(Clone, Debug)]
pub(super) struct Method {
    pub(super) func: String,
    pub(super) is_static: bool,
    pub(super) ret: Ret,
    /// The function's result type (`void` for a struct result).
    pub(super) ty: Ty,
}

/// A struct or class.
#[derive(Clone, Debug, Default)]
pub(super) struct StructDef {
    pub(super) fields: Vec<Field>,
    pub(super) methods: HashMap<String, Method>,
    /// Constructors: parameter count and device function.
    pub(super) ctors: Vec<(usize, String)>,
}

/// How a struct variable holds its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum SKind {
    /// One value: each leaf a scalar variable.
    Plain,
    /// An array or a pointer: each leaf an array or pointer of the field's type.
    Many,
}

/// A struct variable: its struct and the variable each leaf is.
#[derive(Clone, Debug)]
pub(super) struct SVar {
    pub(super) sname: String,
    pub(super) kind: SKind,
    pub(super) leaves: Vec<String>,
}

/// One scalar of a struct: its path (`v`, `inner.x`), type and whether it is a reference.
#[derive(Clone, Debug)]
pub(super) struct Leaf {
    pub(super) path: String,
    pub(super) ty: Ty,
    pub(super) by_ref: bool,
}

/// A struct value as its leaves: the path and the expression of each.
pub(super) type Leaves = Vec<(String, Expr)>;

/// A lowered member-function call: the struct it returns with its temporary's leaves (if it
/// returns one), and the expression that stands for the call.
type MethodCall = (Option<(String, Leaves)>, Expr);

fn ident(name: &str, span: Span) -> Expr {
    Expr::new(ExprKind::Ident(name.to_string()), span)
}

fn zero(span: Span) -> Expr {
    Expr::new(
        ExprKind::Int {
            value: 0,
            unsigned: false,
            long: false,
        },
        span,
    )
}

impl Parser<'_> {
    /// A fresh span for a synthesized node on `at`'s line.
    pub(super) fn syn_span(&mut self, at: Span) -> Span {
        self.syn = self.syn.wrapping_add(1);
        Span {
            line: at.line,
            // n in 1..=4095: the column stays within u32 (4095 · 2^20 + 2^20 - 1 < 2^32).
            col: at.shown().col % SYN_COL + SYN_COL * (self.syn % (u32::MAX / SYN_COL) + 1),
        }
    }

    /// Whether `w` names a struct here (a definition, a class template, a bound parameter).
    pub(super) fn is_struct_name(&self, w: &str) -> bool {
        self.structs.contains_key(w)
            || self.struct_alias.contains_key(w)
            || self.class_templates.contains_key(w)
    }

    /// A struct type at the position (`Pair`, `struct Pair`, `WarpReduce<float, 32>`, a
    /// template parameter bound to a struct), read; `None` (position kept) otherwise, and for a
    /// name followed by `::` (a static member, read as an expression).
    pub(super) fn struct_type(&mut self) -> PResult<Option<String>> {
        let save = self.pos;
        if (self.is_word("struct") || self.is_word("class"))
            && matches!(self.peek(1), Tok::Ident(n) if self.is_struct_name(n))
        {
            self.bump();
        }
        let Tok::Ident(w) = self.peek(0).clone() else {
            self.pos = save;
            return Ok(None);
        };
        let template_id =
            self.class_templates.contains_key(&w) && matches!(self.peek(1), Tok::Punct("<"));
        if let (false, Some(s)) = (template_id, self.struct_alias.get(&w).cloned()) {
            if !matches!(self.peek(1), Tok::Punct("::")) {
                self.bump();
                return Ok(Some(s));
            }
        } else if !template_id && self.structs.contains_key(&w) {
            if !matches!(self.peek(1), Tok::Punct("::")) {
                self.bump();
                return Ok(Some(w));
            }
        } else if template_id {
            let at = self.span();
            self.bump();
            let args = self.template_args()?;
            if self.is_punct("::") {
                self.pos = save;
                return Ok(None);
            }
            return self.instantiate_class(&w, args, at).map(Some);
        }
        self.pos = save;
        Ok(None)
    }

    /// The leaves of struct `sname`, in declaration order.
    pub(super) fn leaves(&self, sname: &str, at: Span) -> PResult<Vec<Leaf>> {
        self.leaves_ordered(sname, at)
    }

    /// The leaves of a struct, nested struct members flattened, in declaration order (an explicit
    /// stack of (struct, field index, prefix, by_ref) frames, bounded by [`MAX_LEAVES`] and the
    /// nesting budget).
    fn leaves_ordered(&self, sname: &str, at: Span) -> PResult<Vec<Leaf>> {
        let mut out = Vec::new();
        let mut stack: Vec<(String, usize, String, bool)> =
            vec![(sname.to_string(), 0, String::new(), false)];
        while let Some((s, k, prefix, by_ref)) = stack.pop() {
            let Some(def) = self.structs.get(&s) else {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("`{s}` is not a complete struct here"),
                ));
            };
            let Some(f) = def.fields.get(k) else {
                continue;
            };
            stack.push((s.clone(), k + 1, prefix.clone(), by_ref));
            let path = format!("{prefix}{}", f.name);
            let r = by_ref || f.by_ref;
            match &f.ty {
                FieldTy::Struct(inner) => {
                    if stack.len() > self.max_depth as usize {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!("struct `{sname}` nests too deeply"),
                        ));
                    }
                    stack.push((inner.clone(), 0, format!("{path}."), r));
                }
                FieldTy::Val(v) => out.push(Leaf {
                    path,
                    ty: Ty::Val(*v),
                    by_ref: r,
                }),
                FieldTy::Ptr(v) => out.push(Leaf {
                    path,
                    ty: Ty::Ptr(*v),
                    by_ref: r,
                }),
            }
            if out.len() > MAX_LEAVES {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("struct `{sname}` has more than {MAX_LEAVES} scalar members"),
                ));
            }
        }
        Ok(out)
    }

    /// `sizeof(S)`: each leaf at a multiple of its alignment, the total rounded up to the
    /// largest alignment ([basic.align]; the vendors' ABIs align a scalar to its size).
    pub(super) fn struct_size(&self, sname: &str, at: Span) -> PResult<u64> {
        let mut size = 0u64;
        let mut align = 1u64;
        for l in self.leaves_ordered(sname, at)? {
            let (bytes, a) = match l.ty {
                Ty::Val(v) => {
                    let one = u64::from(v.scalar.bits().max(8) / 8);
                    (
                        one * u64::from(v.lanes),
                        one * u64::from(v.lanes.next_power_of_two()),
                    )
                }
                _ => (8, 8),
            };
            size = size.div_ceil(a) * a + bytes;
            align = align.max(a);
        }
        Ok(size.div_ceil(align) * align)
    }

    /// The struct variable `name` names here (`None` when a scalar of that name is nearer).
    pub(super) fn var_struct(&self, name: &str) -> Option<&SVar> {
        let marker = format!("struct:{name}");
        for i in (0..self.scopes.len()).rev() {
            if self.scopes[i].contains_key(name) {
                return None;
            }
            if self.scopes[i].contains_key(&marker) {
                return self.svars.get(&(i, name.to_string()));
            }
        }
        None
    }

    /// Declares struct variable `name` in the innermost scope: each leaf's variable with its
    /// type (`Many`: pointers), and the marker `var_struct` finds.
    pub(super) fn declare_svar(&mut self, name: &str, sv: SVar, leaves: &[Leaf]) {
        for (l, n) in leaves.iter().zip(&sv.leaves) {
            let ty = match (sv.kind, l.ty) {
                (SKind::Many, Ty::Val(v)) => Ty::Ptr(v),
                (_, t) => t,
            };
            self.declare(n, ty);
        }
        self.declare(&format!("struct:{name}"), Ty::Void);
        let i = self.scopes.len().saturating_sub(1);
        self.svars.insert((i, name.to_string()), sv);
    }

    /// The struct an expression's value is, where the parser can tell.
    pub(super) fn struct_of(&self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Ident(n) => match self.var_struct(n) {
                Some(sv) if sv.kind == SKind::Plain => Some(sv.sname.clone()),
                Some(_) => None,
                None => self.self_field(n).and_then(|f| match f {
                    FieldTy::Struct(s) => Some(s),
                    _ => None,
                }),
            },
            ExprKind::Member(b, f) => {
                let s = self.struct_of(b)?;
                match self
                    .structs
                    .get(&s)?
                    .fields
                    .iter()
                    .find(|x| x.name == *f)?
                    .ty
                {
                    FieldTy::Struct(ref inner) => Some(inner.clone()),
                    _ => None,
                }
            }
            ExprKind::Index(b, _) | ExprKind::Deref(b) => match &b.kind {
                ExprKind::Ident(n) => match self.var_struct(n) {
                    Some(sv) if sv.kind == SKind::Many => Some(sv.sname.clone()),
                    _ => None,
                },
                ExprKind::Binary(BinOp::Add | BinOp::Sub, p, _) => match &p.kind {
                    ExprKind::Ident(n) => match self.var_struct(n) {
                        Some(sv) if sv.kind == SKind::Many => Some(sv.sname.clone()),
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            },
            ExprKind::Ternary(_, a, _) => self.struct_of(a),
            ExprKind::Assign(None, a, _) => self.struct_of(a),
            ExprKind::Call(name, args) => {
                if self.structs.contains_key(name) {
                    return Some(name.clone());
                }
                if let Some(s) = self.struct_alias.get(name) {
                    return Some(s.clone());
                }
                if name.starts_with("@m:") {
                    let (s, m, _) = self.method_target(name, args)?;
                    return match &self.structs.get(&s)?.methods.get(&m)?.ret {
                        Ret::Struct(r) => Some(r.clone()),
                        Ret::Plain => None,
                    };
                }
                if let Some(sv) = self.var_struct(name) {
                    let m = self.structs.get(&sv.sname)?.methods.get("operator()")?;
                    return match &m.ret {
                        Ret::Struct(r) => Some(r.clone()),
                        Ret::Plain => None,
                    };
                }
                self.fn_ret.get(name).cloned()
            }
            _ => None,
        }
    }

    /// A data member of the struct whose member function is being parsed, named bare.
    fn self_field(&self, n: &str) -> Option<FieldTy> {
        let s = self.self_struct.as_ref()?;
        if self.var_type(n).is_some() {
            return None;
        }
        self.structs
            .get(s)?
            .fields
            .iter()
            .find(|f| f.name == n)
            .map(|f| f.ty.clone())
    }

    /// Lowers an expression: member accesses to their leaf variables, struct assignments to
    /// leaf assignments, member-function, constructor and struct-returning calls to their
    /// device functions (temporaries declared in [`Parser::pre`]); struct arguments become
    /// their leaves. A struct left where a scalar is needed is an error naming it.
    pub(super) fn lower_struct(&mut self, e: Expr) -> PResult<Expr> {
        if self.structs.is_empty() && self.lambda.is_none() {
            return Ok(e);
        }
        self.enter()?;
        let r = self.lower_inner(e);
        self.depth -= 1;
        r
    }

    #[allow(clippy::boxed_local)] // the children arrive boxed from the node being rebuilt
    fn lower_box(&mut self, e: Box<Expr>) -> PResult<Box<Expr>> {
        Ok(Box::new(self.lower_struct(*e)?))
    }

    fn lower_inner(&mut self, e: Expr) -> PResult<Expr> {
        let span = e.span;
        let kind = match e.kind {
            ExprKind::Ident(n) => {
                if let Some(sv) = self.var_struct(&n) {
                    if sv.kind == SKind::Plain {
                        return Err(KernelError::new(
                            span.line,
                            span.col,
                            format!(
                                "`{n}` is a struct (`{}`) where a value is needed: use one of \
                                 its members (`{n}.…`)",
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
                if self.self_field(&n).is_some() {
                    let this = ident("this", span);
                    let m = Expr::new(ExprKind::Member(Box::new(this), n), span);
                    return self.lower_struct(m);
                }
                ExprKind::Ident(self.use_var(&n, span)?)
            }
            ExprKind::Member(b, f) => {
                if let Some((s, leaves)) = self.leaves_of(&b, None)? {
                    let def = self.structs.get(&s).cloned().unwrap_or_default();
                    let Some(field) = def.fields.iter().find(|x| x.name == f) else {
                        return Err(KernelError::new(
                            span.line,
                            span.col,
                            format!("`{s}` has no member `{f}`"),
                        ));
                    };
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
            ExprKind::Index(a, b) => ExprKind::Index(self.lower_box(a)?, self.lower_box(b)?),
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
            ExprKind::Comma(a, b) => ExprKind::Comma(self.lower_box(a)?, self.lower_box(b)?),
            ExprKind::Ternary(c, a, b) => {
                ExprKind::Ternary(self.lower_box(c)?, self.lower_box(a)?, self.lower_box(b)?)
            }
            k => k,
        };
        Ok(Expr::new(kind, span))
    }

    /// `l = r` for struct `s`: each leaf assigned, as a comma list.
    fn assign_struct(&mut self, l: &Expr, r: &Expr, s: &str, span: Span) -> PResult<Expr> {
        let Some((_, ll)) = self.leaves_of(l, None)? else {
            return Err(KernelError::new(
                span.line,
                span.col,
                "this struct cannot be assigned to",
            ));
        };
        let Some((rs, rl)) = self.leaves_of(r, Some(s))? else {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!("a `{s}` can only be assigned a `{s}`"),
            ));
        };
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
            for ((_, dst), (_, src)) in t.iter().zip(rl) {
                let sp = self.syn_span(span);
                let a = Expr::new(
                    ExprKind::Assign(None, Box::new(dst.clone()), Box::new(src)),
                    sp,
                );
                self.push_pre_expr(a);
            }
            t
        } else {
            rl
        };
        let mut out: Option<Expr> = None;
        for ((_, a), (_, b)) in ll.into_iter().zip(rl) {
            let sp = self.syn_span(span);
            let one = Expr::new(ExprKind::Assign(None, Box::new(a), Box::new(b)), sp);
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
    pub(super) fn expand_args(&mut self, args: Vec<Expr>) -> PResult<Vec<Expr>> {
        let mut out = Vec::new();
        for a in args {
            match self.leaves_of(&a, None)? {
                Some((_, leaves)) => out.extend(leaves.into_iter().map(|(_, e)| e)),
                None => out.push(self.lower_struct(a)?),
            }
        }
        Ok(out)
    }

    /// Resolves a call: a member function (`@m:NAME` with the receiver first), a callable
    /// struct's `operator()`, a sibling member function called bare inside one, a constructor
    /// or aggregate as a statement, a struct-returning function, or a plain call with its
    /// struct arguments expanded.
    fn lower_call(&mut self, name: String, args: Vec<Expr>, span: Span) -> PResult<Expr> {
        if self
            .struct_of(&Expr::new(ExprKind::Call(name.clone(), args.clone()), span))
            .is_some()
            || self.method_target(&name, &args).is_some()
        {
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
        let args = self.expand_args(args)?;
        Ok(Expr::new(ExprKind::Call(name, args), span))
    }

    /// The struct and method a call names: `@m:f` on a receiver, a struct variable's
    /// `operator()`, or a member of the struct being defined called bare.
    pub(super) fn method_target(
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
        }
        None
    }

    /// A member-function call as a device-function call: `Some((returned struct or "",
    /// call))`; a struct result is written into a temporary declared in [`Parser::pre`] and
    /// the call becomes a statement there (the returned expression is then `0`).
    fn method_call(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> PResult<Option<MethodCall>> {
        let Some((s, m, receiver_first)) = self.method_target(name, args) else {
            return Ok(None);
        };
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
        } else if m == "operator()" {
            (Some(ident(name, span)), args.to_vec())
        } else {
            (Some(ident("this", span)), args.to_vec())
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
            let Some((_, leaves)) = self.leaves_of(&r, Some(&s))? else {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!("`.{m}(…)` needs a `{s}` value on its left"),
                ));
            };
            let all_vars = leaves
                .iter()
                .all(|(_, e)| matches!(e.kind, ExprKind::Ident(_)));
            if all_vars {
                out_args.extend(leaves.into_iter().map(|(_, e)| e));
            } else {
                // A receiver that is not a variable (an element of a struct array or buffer, a
                // temporary): copied in, the call made, and an element copied back out, all
                // before the statement (the member function may change its receiver).
                let t = self.temporary(&s, span)?;
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
        out_args.extend(self.expand_args(rest)?);
        let sp = self.syn_span(span);
        let call = Expr::new(ExprKind::Call(method.func.clone(), out_args), sp);
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

    /// Adds an expression statement to [`Parser::pre`].
    pub(super) fn push_pre_expr(&mut self, e: Expr) {
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
    pub(super) fn temporary(&mut self, s: &str, at: Span) -> PResult<Leaves> {
        let leaves = self.leaves(s, at)?;
        self.syn_span(at);
        let name = format!("tmp{}", self.syn);
        let mut decls = Vec::new();
        let mut names = Vec::new();
        for l in &leaves {
            let leaf = format!("{name}.{}", l.path);
            let sp = self.syn_span(at);
            decls.push(Declarator {
                name: leaf.clone(),
                ty: l.ty,
                array: None,
                init: None,
                span: sp,
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
    pub(super) fn leaves_of(
        &mut self,
        e: &Expr,
        expect: Option<&str>,
    ) -> PResult<Option<(String, Leaves)>> {
        self.enter()?;
        let r = self.leaves_of_inner(e, expect);
        self.depth -= 1;
        r
    }

    fn leaves_of_inner(
        &mut self,
        e: &Expr,
        expect: Option<&str>,
    ) -> PResult<Option<(String, Leaves)>> {
        let span = e.span;
        match &e.kind {
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
            ExprKind::Index(b, i) => {
                let Some((s, base)) = self.many_leaves(b)? else {
                    return Ok(None);
                };
                let i = self.lower_struct((**i).clone())?;
                let mut out = Vec::new();
                for (p, e) in base {
                    let sp = self.syn_span(span);
                    out.push((
                        p,
                        self.node(ExprKind::Index(Box::new(e), Box::new(i.clone())), sp)?,
                    ));
                }
                Ok(Some((s, out)))
            }
            ExprKind::Deref(b) => {
                let Some((s, base)) = self.many_leaves(b)? else {
                    return Ok(None);
                };
                let mut out = Vec::new();
                for (p, e) in base {
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
                let c = self.lower_struct((**c).clone())?;
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
                    out_args.extend(self.expand_args(args.clone())?);
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
    fn many_leaves(&mut self, b: &Expr) -> PResult<Option<(String, Leaves)>> {
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
                let mut out = Vec::new();
                for (path, e) in base {
                    let sp = self.syn_span(span);
                    out.push((
                        path,
                        self.node(ExprKind::Binary(*op, Box::new(e), Box::new(k.clone())), sp)?,
                    ));
                }
                Ok(Some((s, out)))
            }
            _ => Ok(None),
        }
    }

    /// `S(args)`, `S{args}`, `{args}` as an `S`: a constructor of that many parameters, else
    /// aggregate initialization (members in order; the rest from their default member
    /// initializer, else zero).
    fn construct(&mut self, s: &str, args: &[Expr], span: Span) -> PResult<(String, Leaves)> {
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
        if let Some((_, func)) = def.ctors.iter().find(|(n, _)| *n == args.len()) {
            let t = self.temporary(s, span)?;
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
        let mut out = Vec::new();
        for (k, f) in def.fields.iter().enumerate() {
            match &f.ty {
                FieldTy::Struct(inner) => {
                    let leaves = match args.get(k) {
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
                _ => {
                    let v = match args.get(k).cloned().or_else(|| f.default.clone()) {
                        Some(a) => self.lower_struct(a)?,
                        None => zero(span),
                    };
                    out.push((f.name.clone(), v));
                }
            }
        }
        Ok((s.to_string(), out))
    }

    /// `struct Name { members };` (or `class`) at file scope; `as_name` names a class
    /// template's instance. Data members, static `constexpr` members, member functions
    /// (`static`, `const`, `operator()`), constructors with initializer lists.
    ///
    /// # Errors
    /// Inheritance, member templates, nested definitions, operators other than `()`, array
    /// members, and destructors are named as unsupported at their line.
    pub(super) fn struct_def(&mut self, as_name: Option<String>) -> PResult<()> {
        let at = self.span();
        self.bump(); // struct / class / union
        let name = self.ident()?;
        if self.eat(";") {
            return Ok(()); // a forward declaration
        }
        if self.is_punct(":") {
            return self.unsupported("inheritance (`struct D : B`) is not supported; copy the base's members into the struct");
        }
        if !self.is_punct("{") {
            return self.err("`{` to start the struct's members");
        }
        let sname = as_name.unwrap_or_else(|| name.clone());
        if sname != name {
            self.struct_alias.insert(name.clone(), sname.clone());
        }
        self.bump();
        self.structs.insert(sname.clone(), StructDef::default());
        let mut methods: Vec<usize> = Vec::new();
        let mut consts: Vec<String> = Vec::new();
        loop {
            if self.eat("}") {
                break;
            }
            if matches!(self.peek(0), Tok::Eof) {
                return self.err("`}` to close the struct");
            }
            if self.eat(";") {
                continue;
            }
            if let Tok::Ident(w) = self.peek(0).clone() {
                match w.as_str() {
                    "public" | "private" | "protected" if matches!(self.peek(1), Tok::Punct(":")) => {
                        self.bump();
                        self.bump();
                        continue;
                    }
                    "template" => return self.unsupported("member templates are not supported; write the member as a free template function taking the struct"),
                    "friend" => return self.unsupported("`friend` declarations are not supported"),
                    "struct" | "class" | "union" | "enum" => return self.unsupported("nested type definitions are not supported; define the type at file scope"),
                    "static_assert" => {
                        self.skip_static_assert()?;
                        continue;
                    }
                    "using" | "typedef" => {
                        self.alias()?;
                        continue;
                    }
                    _ => {}
                }
            }
            if self.is_punct("~") {
                return self.unsupported(
                    "destructors are not supported (nothing is freed on a GPU lane); remove it",
                );
            }
            let start = self.pos;
            // A constructor: the struct's name and `(`.
            let mut k = 0;
            while matches!(self.peek(k), Tok::Ident(w) if super::types::QUALIFIERS.contains(&w.as_str()) || w == "explicit")
            {
                k += 1;
            }
            if matches!(self.peek(k), Tok::Ident(w) if *w == name)
                && matches!(self.peek(k + 1), Tok::Punct("("))
            {
                methods.push(start);
                self.skip_member_function()?;
                continue;
            }
            let is_static = (0..k).any(|j| matches!(self.peek(j), Tok::Ident(w) if w == "static"));
            self.qualifiers()?;
            let field_ty = if let Some(s) = self.struct_type()? {
                FieldTy::Struct(s)
            } else {
                match self.base_type()? {
                    Ty::Val(v) => FieldTy::Val(v),
                    Ty::Ptr(v) => FieldTy::Ptr(v),
                    Ty::Void => FieldTy::Val(ValTy::scalar(Scalar::I32)),
                }
            };
            loop {
                let mut ty = field_ty.clone();
                while self.eat("*") {
                    ty = match ty {
                        FieldTy::Val(v) => FieldTy::Ptr(v),
                        _ => return self.unsupported("this pointer member is not supported (pointers to structs or to pointers); use a pointer to a scalar type"),
                    };
                }
                if self.is_punct("&") {
                    return self.unsupported("reference members are not supported");
                }
                if self.is_word("operator") {
                    if matches!(self.peek(1), Tok::Punct("("))
                        && matches!(self.peek(2), Tok::Punct(")"))
                    {
                        self.pos = start;
                        methods.push(start);
                        self.skip_member_function()?;
                        break;
                    }
                    return self.unsupported("only `operator()` is supported among operators; write the operator as a named member function");
                }
                let f_at = self.span();
                let fname = self.ident()?;
                if self.is_punct("(") {
                    self.pos = start;
                    methods.push(start);
                    self.skip_member_function()?;
                    break;
                }
                if self.is_punct("[") {
                    return self.unsupported(
                        "array members are not supported; use separate members or a kernel buffer",
                    );
                }
                let default = if self.eat("=") {
                    Some(self.assign_expr()?)
                } else if self.is_punct("{") {
                    self.bump();
                    let e = if self.is_punct("}") {
                        zero(f_at)
                    } else {
                        self.assign_expr()?
                    };
                    self.expect_punct("}")?;
                    Some(e)
                } else {
                    None
                };
                if is_static {
                    // `static constexpr int N = 32;`: a constant `Name::N` (and `N` inside).
                    let Some(d) = default else {
                        return Err(KernelError::new(f_at.line, f_at.col, "a static data member needs a constant initializer here (`static constexpr int N = 32;`)"));
                    };
                    let v = match field_ty {
                        FieldTy::Val(v) => v,
                        _ => ValTy::scalar(Scalar::I32),
                    };
                    let c = Expr::new(ExprKind::Cast(Ty::Val(v), Box::new(d)), f_at);
                    self.consts.insert(format!("{sname}::{fname}"), c.clone());
                    self.consts.insert(fname.clone(), c);
                    consts.push(fname);
                } else {
                    if let Some(def) = self.structs.get_mut(&sname) {
                        def.fields.push(Field {
                            name: fname,
                            ty,
                            by_ref: false,
                            default,
                        });
                    }
                }
                if self.eat(",") {
                    continue;
                }
                self.expect_punct(";")?;
                break;
            }
        }
        if !self.eat(";") {
            return self
                .err("`;` after the struct's `}` (declaring variables there is not supported)");
        }
        let end = self.pos;
        // Member functions see every member, whatever the order: parsed after them.
        let saved_self = self.self_struct.replace(sname.clone());
        let r = (|| {
            for m in &methods {
                self.pos = *m;
                self.member_function(&name, &sname)?;
            }
            Ok(())
        })();
        self.self_struct = saved_self;
        for c in consts {
            self.consts.remove(&c);
        }
        r?;
        self.pos = end;
        let _ = at;
        Ok(())
    }

    /// A member function or constructor defined after its struct (`__device__ float
    /// P::get() const { … }`, `P::P(int a) : a(a) {}`), if one starts here: parsed as the
    /// struct's member.
    pub(super) fn out_of_class_member(&mut self) -> PResult<bool> {
        let mut k = 0;
        let found = loop {
            match (
                self.peek(k),
                self.peek(k + 1),
                self.peek(k + 2),
                self.peek(k + 3),
            ) {
                (Tok::Ident(st), Tok::Punct("::"), Tok::Ident(m), Tok::Punct("(")) => {
                    break (self.structs.contains_key(st) && (m == st || !self.is_struct_name(m)))
                        .then(|| st.clone());
                }
                (Tok::Ident(_) | Tok::Punct("*" | "&"), _, _, _) if k < 16 => k += 1,
                _ => break None,
            }
        };
        let Some(st) = found else {
            return Ok(false);
        };
        let saved = self.self_struct.replace(st.clone());
        let r = self.member_function(&st, &st);
        self.self_struct = saved;
        r.map(|()| true)
    }

    fn unsupported<T>(&self, msg: &str) -> PResult<T> {
        let at = self.span();
        Err(KernelError::new(at.line, at.col, msg))
    }

    /// Skips a member function's declaration and body (read again by `member_function`).
    fn skip_member_function(&mut self) -> PResult<()> {
        let mut in_init = false;
        loop {
            match self.peek(0).clone() {
                Tok::Eof => return self.err("a member function's body"),
                Tok::Ident(w) if w == "operator" && matches!(self.peek(1), Tok::Punct("(")) => {
                    self.bump();
                    self.bump();
                    self.expect_punct(")")?;
                }
                Tok::Punct(";") => {
                    self.bump();
                    return Ok(());
                }
                Tok::Punct(":") => {
                    in_init = true;
                    self.bump();
                }
                Tok::Punct("(" | "{") => {
                    let body = self.is_punct("{")
                        && !(in_init
                            && matches!(&self.toks[self.pos.saturating_sub(1)].tok,
                                Tok::Ident(w) if !matches!(w.as_str(), "const" | "noexcept" | "override")));
                    let close = self.closing(self.pos).ok_or_else(|| {
                        let s = self.span();
                        KernelError::new(s.line, s.col, "bracket never closed")
                    })?;
                    self.pos = close + 1;
                    if body {
                        return Ok(());
                    }
                }
                _ => {
                    self.bump();
                }
            }
        }
    }

    /// One member function or constructor of struct `sname` (spelled `name` in the source),
    /// as a device function.
    fn member_function(&mut self, name: &str, sname: &str) -> PResult<()> {
        let at = self.span();
        let mut is_static = false;
        while let Tok::Ident(w) = self.peek(0).clone() {
            if !(super::types::QUALIFIERS.contains(&w.as_str()) || w == "explicit") {
                break;
            }
            if w == "static" {
                is_static = true;
            }
            self.bump();
        }
        // `P::P(…)` defined after the struct: the constructor.
        if self.is_word(name)
            && matches!(self.peek(1), Tok::Punct("::"))
            && matches!(self.peek(2), Tok::Ident(w) if w == name)
        {
            self.bump();
            self.bump();
        }
        let is_ctor = self.is_word(name) && matches!(self.peek(1), Tok::Punct("("));
        let (ret, sret) = if is_ctor {
            self.bump();
            (Ty::Void, None)
        } else if let Some(s) = self.struct_type()? {
            if self.is_punct("&") || self.is_punct("*") {
                return self.unsupported("member functions returning a reference or pointer to a struct are not supported; return the struct by value");
            }
            (Ty::Void, Some(s))
        } else {
            let base = self.base_type()?;
            let (t, _) = self.pointers(base)?;
            (t, None)
        };
        // `RET P::name(…)` defined after the struct.
        if !is_ctor && self.is_word(name) && matches!(self.peek(1), Tok::Punct("::")) {
            self.bump();
            self.bump();
        }
        let mname = if is_ctor {
            String::new()
        } else if self.is_word("operator") {
            self.bump();
            self.expect_punct("(")?;
            self.expect_punct(")")?;
            "operator()".to_string()
        } else {
            self.ident()?
        };
        self.expect_punct("(")?;
        let params = self.params()?;
        let own = std::mem::take(&mut self.pending_svars);
        // The arity a call writes: a struct parameter counts once, not once per leaf.
        let arity =
            params.len() + own.len() - own.iter().map(|(_, sv)| sv.leaves.len()).sum::<usize>();
        while matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "const" | "noexcept" | "override" | "__device__" | "__host__"))
        {
            self.bump();
        }
        let func = if is_ctor {
            format!("{sname}::{name}/{}", params.len())
        } else {
            format!("{sname}::{mname}")
        };
        // Registered before the body: a member may call itself or be called by a later one.
        if let Some(def) = self.structs.get_mut(sname) {
            if is_ctor {
                def.ctors.push((arity, func.clone()));
            } else {
                // `static` is written on the declaration only.
                let was_static = def.methods.get(&mname).is_some_and(|m| m.is_static);
                is_static |= was_static;
                def.methods.insert(
                    mname.clone(),
                    Method {
                        func: func.clone(),
                        is_static,
                        ret: sret.clone().map_or(Ret::Plain, Ret::Struct),
                        ty: ret,
                    },
                );
            }
        }
        if self.eat(";") {
            // A declaration in the struct; the definition follows the struct
            // (`RET P::name(…) { … }`).
            return Ok(());
        }
        let mut init_list: Vec<(String, Vec<Expr>, Span)> = Vec::new();
        let mut scope = HashMap::new();
        for p in &params {
            scope.insert(p.name.clone(), p.ty);
        }
        self.scopes.push(scope);
        let r = (|| -> PResult<Function> {
            for (n, sv) in own {
                let leaves = self.leaves(&sv.sname, at)?;
                self.declare_svar(&n, sv, &leaves);
            }
            let mut all_params = Vec::new();
            if let Some(s) = &sret {
                all_params.extend(self.ret_params(s, at)?);
            }
            if !is_static {
                let leaves = self.leaves(sname, at)?;
                let names: Vec<String> =
                    leaves.iter().map(|l| format!("this.{}", l.path)).collect();
                for (l, n) in leaves.iter().zip(&names) {
                    all_params.push(Param {
                        name: n.clone(),
                        ty: l.ty,
                        reference: true,
                        span: at,
                    });
                }
                let sv = SVar {
                    sname: sname.to_string(),
                    kind: SKind::Plain,
                    leaves: names,
                };
                self.declare_svar("this", sv, &leaves);
            }
            all_params.extend(params.iter().cloned());
            if is_ctor && self.eat(":") {
                loop {
                    let m_at = self.span();
                    let m = self.ident()?;
                    let close = if self.eat("(") {
                        ")"
                    } else {
                        self.expect_punct("{")?;
                        "}"
                    };
                    let mut args = Vec::new();
                    if !self.eat(close) {
                        loop {
                            args.push(self.assign_expr()?);
                            if self.eat(close) {
                                break;
                            }
                            self.expect_punct(",")?;
                        }
                    }
                    init_list.push((m, args, m_at));
                    if !self.eat(",") {
                        break;
                    }
                }
            }
            if !self.is_punct("{") {
                return self.err("`{` to start the member function's body");
            }
            let saved_ret = std::mem::replace(&mut self.ret_struct, sret.clone());
            let body = self.stmt();
            self.ret_struct = saved_ret;
            let mut body = body?;
            if is_ctor {
                // The initializer list, then the default member initializers of the members it
                // does not name, run before the body ([class.base.init]).
                let def = self.structs.get(sname).cloned().unwrap_or_default();
                let mut first = Vec::new();
                for f in &def.fields {
                    let given = init_list.iter().find(|(m, _, _)| *m == f.name);
                    let (value, sp) = match given {
                        Some((_, args, sp)) => match &f.ty {
                            FieldTy::Struct(inner) => (
                                Expr::new(ExprKind::Call(inner.clone(), args.clone()), *sp),
                                *sp,
                            ),
                            _ => (args.first().cloned().unwrap_or_else(|| zero(*sp)), *sp),
                        },
                        None => match &f.default {
                            Some(d) => (d.clone(), at),
                            None => continue,
                        },
                    };
                    let target = Expr::new(
                        ExprKind::Member(Box::new(ident("this", sp)), f.name.clone()),
                        sp,
                    );
                    let assign = Expr::new(
                        ExprKind::Assign(None, Box::new(target), Box::new(value)),
                        sp,
                    );
                    let mark = self.pre.len();
                    let e = self.lower_struct(assign)?;
                    first.extend(self.pre.drain(mark..));
                    first.push(Stmt {
                        kind: StmtKind::Expr(e),
                        span: sp,
                        end: sp,
                    });
                }
                if let Some((m, _, sp)) = init_list
                    .iter()
                    .find(|(m, _, _)| !def.fields.iter().any(|f| f.name == *m))
                {
                    return Err(KernelError::new(
                        sp.line,
                        sp.col,
                        format!("`{sname}` has no member `{m}` to initialize"),
                    ));
                }
                if !first.is_empty() {
                    let (span, end) = (body.span, body.end);
                    first.push(body);
                    body = Stmt {
                        kind: StmtKind::Block(first),
                        span,
                        end,
                    };
                }
            }
            Ok(Function {
                name: func.clone(),
                entry: false,
                ret,
                params: all_params,
                body,
                launch_bounds: None,
                vf_call_dim: None,
                span: at,
                snippet: false,
            })
        })();
        self.scopes.pop();
        let f = r?;
        self.extra_fns.push(f);
        Ok(())
    }

    /// The `__ret.*` reference parameters of a function returning struct `s`.
    pub(super) fn ret_params(&mut self, s: &str, at: Span) -> PResult<Vec<Param>> {
        let leaves = self.leaves(s, at)?;
        let names: Vec<String> = leaves.iter().map(|l| format!("__ret.{}", l.path)).collect();
        let params = leaves
            .iter()
            .zip(&names)
            .map(|(l, n)| Param {
                name: n.clone(),
                ty: l.ty,
                reference: true,
                span: at,
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
    pub(super) fn return_struct(
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
    pub(super) fn struct_param(
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
            } else if self.eat("&") {
                reference = true;
            } else if matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "const" | "__restrict__" | "__restrict" | "restrict" | "__gm__"))
            {
                self.bump();
            } else {
                break;
            }
        }
        let name = self.ident()?;
        if self.eat("[") {
            while !self.is_punct("]") && !matches!(self.peek(0), Tok::Eof) {
                self.bump();
            }
            self.expect_punct("]")?;
            many = true;
        }
        let leaves = self.leaves(&s, at)?;
        let mut params = Vec::new();
        let mut names = Vec::new();
        for l in &leaves {
            let n = format!("{name}.{}", l.path);
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
    pub(super) fn struct_declarator(
        &mut self,
        s: &str,
        name: &str,
        span: Span,
        many: bool,
        array: Option<Option<Expr>>,
        init: Option<Expr>,
    ) -> PResult<Vec<Declarator>> {
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
                    Some(self.construct(s, &[], span)?.1)
                } else {
                    None
                }
            }
            (None, true) => None,
        };
        let mut decls = Vec::new();
        let mut names = Vec::new();
        for (k, l) in leaves.iter().enumerate() {
            let value = values
                .as_ref()
                .and_then(|v| v.get(k))
                .map(|(_, e)| e.clone());
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
            let sp = self.syn_span(span);
            decls.push(Declarator {
                name: leaf.clone(),
                ty,
                array: array.clone(),
                init: value,
                span: sp,
            });
            names.push(leaf);
        }
        let sv = SVar {
            sname: s.to_string(),
            kind: if is_many { SKind::Many } else { SKind::Plain },
            leaves: names,
        };
        self.declare_svar(name, sv, &leaves);
        Ok(decls)
    }

    /// A declaration whose type is struct `s` (after the type): each declarator's leaves.
    pub(super) fn struct_decl(&mut self, storage: Storage, s: String) -> PResult<StmtKind> {
        let mut list = Vec::new();
        loop {
            let mut many = false;
            let mut reference = false;
            loop {
                if self.eat("*") {
                    many = true;
                } else if self.eat("&") {
                    reference = true;
                } else if matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "const" | "__restrict__"))
                {
                    self.bump();
                } else {
                    break;
                }
            }
            let span = self.span();
            let name = self.ident()?;
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
                let mut names = Vec::new();
                for (_, e) in &leaves {
                    match &e.kind {
                        ExprKind::Ident(n) => names.push(n.clone()),
                        _ => return Err(KernelError::new(span.line, span.col, format!("a reference to a struct element (`{s}& {name} = a[i]`) is not supported; copy it (`{s} {name} = a[i];`) and write it back"))),
                    }
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
                list.extend(self.struct_declarator(&s, &name, span, many, array, init)?);
            }
            if !self.eat(",") {
                break;
            }
        }
        if list.is_empty() {
            return Ok(StmtKind::Empty);
        }
        Ok(StmtKind::Decl(storage, list))
    }

    /// `{a, b, …}` as an aggregate value (`@brace`), its struct told by where it is used.
    pub(super) fn brace_list(&mut self) -> PResult<Expr> {
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
    /// class templates, struct-returning functions, the synthesized-node counter and the
    /// functions made so far.
    pub(super) fn lend(&mut self, sub: &mut Parser<'_>) {
        sub.structs = std::mem::take(&mut self.structs);
        sub.class_templates = std::mem::take(&mut self.class_templates);
        sub.fn_ret = std::mem::take(&mut self.fn_ret);
        sub.extra_fns = std::mem::take(&mut self.extra_fns);
        sub.syn = self.syn;
    }

    /// Takes back what [`Parser::lend`] lent.
    pub(super) fn take_back(&mut self, sub: &mut Parser<'_>) {
        self.structs = std::mem::take(&mut sub.structs);
        self.class_templates = std::mem::take(&mut sub.class_templates);
        self.fn_ret = std::mem::take(&mut sub.fn_ret);
        self.extra_fns = std::mem::take(&mut sub.extra_fns);
        self.syn = sub.syn;
    }
}

/// Whether `e` names any of `names` (an explicit stack: the tree's height is bounded, but no
/// recursion is needed).
fn mentions(e: &Expr, names: &[String]) -> bool {
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        match &x.kind {
            ExprKind::Ident(n) if names.contains(n) => return true,
            ExprKind::Member(b, _)
            | ExprKind::Unary(_, b)
            | ExprKind::Deref(b)
            | ExprKind::AddrOf(b)
            | ExprKind::Cast(_, b)
            | ExprKind::IncDec { target: b, .. } => stack.push(b),
            ExprKind::Index(a, b)
            | ExprKind::Binary(_, a, b)
            | ExprKind::Logical(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            ExprKind::Ternary(a, b, c) => {
                stack.push(a);
                stack.push(b);
                stack.push(c);
            }
            ExprKind::Call(_, args) => stack.extend(args.iter()),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use crate::kernel::ast::*;

    fn body_decl_names(src: &str, func: &str) -> Vec<String> {
        let p = parse(src).unwrap();
        let f = p
            .program
            .functions
            .iter()
            .find(|f| f.name == func)
            .unwrap_or_else(|| panic!("no `{func}`"));
        let StmtKind::Block(list) = &f.body.kind else {
            panic!("body")
        };
        list.iter()
            .flat_map(|s| match &s.kind {
                StmtKind::Decl(_, d) => d.iter().map(|x| x.name.clone()).collect(),
                _ => Vec::new(),
            })
            .collect()
    }

    #[test]
    fn a_struct_local_is_one_variable_per_member_in_order() {
        let src = "struct Pair { float v; int idx; };\n__global__ void k(float* o) {\n  Pair p{1.0f, 2};\n  o[0] = p.v + p.idx;\n}";
        assert_eq!(body_decl_names(src, "k"), vec!["p.v", "p.idx"]);
        let p = parse(src).unwrap();
        let k = &p.program.functions[0];
        let StmtKind::Block(list) = &k.body.kind else {
            panic!()
        };
        // `p.v + p.idx` reads the two member variables.
        let StmtKind::Expr(e) = &list[1].kind else {
            panic!()
        };
        let ExprKind::Assign(None, _, rhs) = &e.kind else {
            panic!("{e:?}")
        };
        let ExprKind::Binary(_, a, b) = &rhs.kind else {
            panic!()
        };
        assert_eq!(a.kind, ExprKind::Ident("p.v".into()));
        assert_eq!(b.kind, ExprKind::Ident("p.idx".into()));
    }

    #[test]
    fn a_struct_pointer_parameter_is_one_buffer_per_member() {
        let p =
            parse("struct P { float x; int id; };\n__global__ void k(P* out) { out[0].x = 1; }")
                .unwrap();
        let names: Vec<(String, bool)> = p.program.functions[0]
            .params
            .iter()
            .map(|q| {
                (
                    q.name.clone(),
                    matches!(q.ty, crate::kernel::types::Ty::Ptr(_)),
                )
            })
            .collect();
        assert_eq!(
            names,
            vec![("out.x".to_string(), true), ("out.id".to_string(), true)]
        );
    }

    #[test]
    fn member_functions_take_the_receiver_by_reference() {
        let p = parse("struct C { int n; __device__ void bump(int d) { n += d; } };\n__global__ void k(int* o) { C c{1}; c.bump(2); o[0] = c.n; }").unwrap();
        let f = p
            .program
            .functions
            .iter()
            .find(|f| f.name == "C::bump")
            .unwrap();
        assert_eq!(f.params[0].name, "this.n");
        assert!(f.params[0].reference);
        assert_eq!(f.params[1].name, "d");
        assert!(!f.params[1].reference);
    }

    #[test]
    fn members_defined_after_the_struct_keep_static_and_constructors() {
        let p = parse("struct P {\n  int a;\n  __device__ P(int x);\n  static __device__ int twice(int v);\n};\n__device__ P::P(int x) : a(x) {}\n__device__ int P::twice(int v) { return 2 * v; }\n__global__ void k(int* o) { P p(1); o[0] = p.a + P::twice(3); }").unwrap();
        let names: Vec<&str> = p
            .program
            .functions
            .iter()
            .map(|f| f.name.as_str())
            .collect();
        assert!(names.contains(&"P::P/1"), "{names:?}");
        let twice = p
            .program
            .functions
            .iter()
            .find(|f| f.name == "P::twice")
            .unwrap();
        // Static on its declaration: no receiver.
        assert_eq!(twice.params.len(), 1);
        assert_eq!(twice.params[0].name, "v");
    }

    #[test]
    fn class_template_static_members_are_named_per_instance() {
        let p = parse("template <typename T, int N>\nstruct W { static __device__ T twice(T v) { return v * N; } };\n__global__ void k(float* o) { o[0] = W<float, 2>::twice(o[0]); }").unwrap();
        assert!(p
            .program
            .functions
            .iter()
            .any(|f| f.name == "W<float,2>::twice"));
    }

    #[test]
    fn a_reference_capture_is_a_reference_parameter_of_operator_call() {
        let p = parse("__global__ void k(int* o) {\n  int b = 1;\n  auto f = [&](int a) { return a + b; };\n  o[0] = f(2);\n}").unwrap();
        let f = p
            .program
            .functions
            .iter()
            .find(|f| f.name.ends_with("::operator()"))
            .unwrap();
        assert_eq!(f.params[0].name, "this.b");
        assert!(f.params[0].reference);
        assert_eq!(f.params[1].name, "a");
        // The closure holds no copy of `b`: its member is `b` itself.
        assert!(!body_decl_names(
            "__global__ void k(int* o) {\n  int b = 1;\n  auto f = [&](int a) { return a + b; };\n  o[0] = f(2);\n}",
            "k"
        )
        .iter()
        .any(|n| n.starts_with("f.")));
    }

    #[test]
    fn sizeof_a_struct_pads_each_member_to_its_alignment() {
        // char at 0, int at 4, double at 8: 16 bytes ([basic.align]).
        let p = parse("struct S { char c; int i; double d; };\n__global__ void k(int* o) { o[0] = sizeof(S); }").unwrap();
        let StmtKind::Block(list) = &p.program.functions[0].body.kind else {
            panic!()
        };
        let StmtKind::Expr(e) = &list[0].kind else {
            panic!()
        };
        let ExprKind::Assign(None, _, rhs) = &e.kind else {
            panic!()
        };
        assert_eq!(rhs.kind, ExprKind::SizeOf(16));
    }

    #[test]
    fn null_and_nullptr_are_the_null_pointer_constant() {
        let p = parse("__global__ void k(int* o) { if (o != NULL && o != nullptr) o[0] = 1; }")
            .unwrap();
        let StmtKind::Block(list) = &p.program.functions[0].body.kind else {
            panic!()
        };
        let StmtKind::If(c, _, _) = &list[0].kind else {
            panic!()
        };
        let ExprKind::Logical(true, a, _) = &c.kind else {
            panic!()
        };
        let ExprKind::Binary(_, _, z) = &a.kind else {
            panic!()
        };
        assert!(matches!(z.kind, ExprKind::Int { value: 0, .. }));
    }

    #[test]
    fn unsupported_struct_forms_are_named_at_their_line() {
        for (src, line, needle) in [
            (
                "struct B { int a; };\nstruct D : B { int b; };",
                2,
                "inheritance",
            ),
            (
                "struct S {\n  int a[4];\n};",
                2,
                "array members are not supported",
            ),
            (
                "struct S {\n  __device__ S operator+(S o) const { return o; }\n};",
                2,
                "only `operator()`",
            ),
            (
                "__global__ void k(int* o) {\n  auto f = [](auto x) { return x; };\n}",
                2,
                "generic lambdas",
            ),
        ] {
            let e = parse(src).unwrap_err();
            assert_eq!(e.line, line, "{src}");
            assert!(e.message.contains(needle), "{src}: {}", e.message);
        }
    }
}
