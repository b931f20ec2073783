//! Constant evaluation where C++ requires a constant: template arguments, array bounds,
//! `static_assert`, `if constexpr`, `constexpr` locals. [`Parser::fold_int`] folds an
//! expression of literals, named constants (template value parameters, `constexpr` names),
//! casts, arithmetic and calls of `constexpr` functions.
//!
//! A `constexpr` function (C++17 [dcl.constexpr]) is recorded when it is parsed and evaluated
//! here by walking its body: `return`, `if`/`else`, blocks and `const` locals with an
//! initializer (the C++11 single-`return` form), and the C++14 forms ([dcl.constexpr]/3 as
//! relaxed by N3652): locals assigned and updated (`=`, `op=`, `++`/`--`), `for`, `while`,
//! `do … while`, `break`, `continue`, and calls of other `constexpr` functions. Values are
//! exact integers (or doubles); an operation that leaves 128 bits, a division by zero, a
//! statement of another kind or a call of a non-`constexpr` function makes the call no
//! constant, and the use says so ([expr.const]/2: such a call is not a constant expression).
//!
//! Bounded: at most [`MAX_CALL_DEPTH`] nested calls (a recursive `log2i(n / 2)` is bounded by
//! it) and [`MAX_STEPS`] statements, loop iterations and calls per folded expression; the use's
//! error then names the bound ([`Parser::fold_limit_note`]).

use std::collections::HashMap;

use super::const_eval::{const_eval, HostVal};
use super::Parser;
use crate::ast::*;
use crate::lexer::Tok;

/// Most nested `constexpr` calls in one constant (clang's default `-fconstexpr-depth` is 512;
/// a kernel's constants need few).
pub const MAX_CALL_DEPTH: u32 = 64;
/// Most statements and calls evaluated for one constant.
pub const MAX_STEPS: u32 = 10_000;

/// A recorded `constexpr` function: its parameters' names and its body.
#[derive(Clone, Debug)]
pub struct ConstFn {
    params: Vec<String>,
    body: Stmt,
    /// A host function that is not `constexpr` (no execution-space specifier, or
    /// `__host__`): evaluated only where host code is read ([`Parser::host_fold`]), never
    /// where C++ requires a constant expression.
    host: bool,
    /// The declared return type when it is a scalar: the returned value converted to it
    /// ([stmt.return]/2).
    ret: Option<crate::types::Scalar>,
}

/// What a statement of a `constexpr` body did.
enum Flow {
    Next,
    Return(HostVal),
    Break,
    Continue,
}

impl Parser<'_> {
    /// Records `f` as a `constexpr` function when the tokens `from..to` (its declaration up to
    /// the name) say `constexpr`.
    pub(super) fn record_constexpr(&mut self, from: usize, to: usize, f: &Function) {
        let to = to.min(self.toks.len());
        let words = &self.toks[from.min(to)..to];
        let has = |word: &str| {
            words
                .iter()
                .any(|t| matches!(&t.tok, Tok::Ident(w) if w == word))
        };
        let is_constexpr = has("constexpr") || has("consteval");
        // A function without `__device__` or `__global__` runs on the host (CUDA C++
        // Programming Guide, "Function Execution Space Specifiers": no specifier is `__host__`);
        // a kernel's launch in host code may call it (`blocksFor(n, bs)`); so does one declared
        // `__host__ __device__` (FlashInfer's `ceil_div`), compiled for both sides.
        let host = !is_constexpr
            && !f.entry
            && (!has("__device__") || has("__host__"))
            && !has("__global__");
        if is_constexpr || host {
            self.constexpr_fns.insert(
                f.name.clone(),
                ConstFn {
                    params: f.params.iter().map(|p| p.name.clone()).collect(),
                    body: f.body.clone(),
                    host,
                    ret: match f.ret {
                        crate::types::Ty::Val(v) if v.lanes == 1 => Some(v.scalar),
                        _ => None,
                    },
                },
            );
        }
    }

    /// Records the instance `f` of a host function template under `name` (`expand<int>`), a
    /// host helper [`Parser::host_fold`] evaluates at a host call ([`super::host_tmpl_call`]).
    pub(super) fn record_host_value_fn(&mut self, name: String, f: &Function) {
        self.constexpr_fns.insert(
            name,
            ConstFn {
                params: f.params.iter().map(|p| p.name.clone()).collect(),
                body: f.body.clone(),
                host: true,
                ret: match f.ret {
                    crate::types::Ty::Val(v) if v.lanes == 1 => Some(v.scalar),
                    _ => None,
                },
            },
        );
    }

    /// Records the instance `f` of a `constexpr` function template under `name`
    /// (`max<unsigned int>`), folded where device code needs a constant
    /// ([`super::constexpr_tmpl`]).
    pub(super) fn record_const_value_fn(&mut self, name: String, f: &Function) {
        self.record_host_value_fn(name.clone(), f);
        if let Some(c) = self.constexpr_fns.get_mut(&name) {
            c.host = false;
        }
    }

    /// The value of host expression `e` with `env` bound, calls of host helper functions and
    /// `constexpr` functions evaluated (`static int blocksFor(int n, int b) { return (n + b -
    /// 1) / b; }` at `k<<<blocksFor(n, bs), bs>>>`: C++17 [expr.call]/4, each parameter
    /// initialized with its argument), within [`MAX_CALL_DEPTH`] and [`MAX_STEPS`].
    pub(super) fn host_fold(&self, e: &Expr, env: &HashMap<String, HostVal>) -> Option<HostVal> {
        // hip-tests' `getWarpSize()` inside an expression (`k<<<1, getWarpSize()>>>`).
        let replaced;
        let e = if self.hip && mentions_call(e, "getWarpSize") {
            replaced = self.fold_helper_calls(e, env);
            &replaced
        } else {
            e
        };
        let mut steps = 0;
        let _math = super::const_eval::HostMath::on();
        self.fold_host.set(true);
        let v = self.fold_val(e, env, 0, &mut steps);
        self.fold_host.set(false);
        v
    }

    /// `e` (a host statement's expression) with each call of a host helper function replaced
    /// by its value where its arguments have values in `env`: `h[i] = expand(vals[i]);` with
    /// `int expand(int x) { return 2 * x; }` (C++17 [expr.call]/4: each parameter initialized
    /// with its argument; [stmt.return]/2: the value converted to the return type). Only a
    /// function the file defines once under its name (no overloads, no template) is called;
    /// any other call, or one whose body does not give a value here, stays as written. Walks a
    /// tree the parser built (its height bounded by the depth budget).
    pub(super) fn fold_helper_calls(&self, e: &Expr, env: &HashMap<String, HostVal>) -> Expr {
        if self.constexpr_fns.is_empty() && !self.hip {
            return e.clone();
        }
        let mut steps = 0;
        let _math = super::const_eval::HostMath::on();
        self.fold_host.set(true);
        let out = self.fold_helpers_in(e, env, &mut steps);
        self.fold_host.set(false);
        out
    }

    /// [`Parser::fold_helper_calls`] below the root.
    fn fold_helpers_in(&self, e: &Expr, env: &HashMap<String, HostVal>, steps: &mut u32) -> Expr {
        let mut r = |x: &Expr| Box::new(self.fold_helpers_in(x, env, steps));
        let kind = match &e.kind {
            // ROCm hip-tests' `getWarpSize()` (hip_test_common.hh, a header not read): the
            // device's warp size, this run's lanes per warp, where the file does not define it.
            ExprKind::Call(name, args)
                if self.hip
                    && name == "getWarpSize"
                    && args.is_empty()
                    && !self.defines_fn("getWarpSize") =>
            {
                return int_literal(i128::from(self.wave), e.span);
            }
            ExprKind::Call(name, args) => {
                let args: Vec<Expr> = args
                    .iter()
                    .map(|a| self.fold_helpers_in(a, env, steps))
                    .collect();
                let single = (!name.contains(['<', '#', ':'])
                    && self.fn_sets.get(name).is_none_or(|s| s.len() <= 1))
                    || self.host_tmpl_values.contains(name);
                if single && self.constexpr_fns.contains_key(name) {
                    let vals: Option<Vec<HostVal>> = args
                        .iter()
                        .map(|a| self.fold_val(a, env, 0, steps))
                        .collect();
                    let value = vals
                        .and_then(|v| self.call_const(name, &v, 1, steps))
                        .and_then(|v| literal(v, e.span));
                    if let Some(v) = value {
                        return v;
                    }
                }
                ExprKind::Call(name.clone(), args)
            }
            ExprKind::Assign(op, t, x) => ExprKind::Assign(*op, t.clone(), r(x)),
            ExprKind::Binary(op, a, b) => {
                let a = r(a);
                ExprKind::Binary(*op, a, r(b))
            }
            ExprKind::Unary(op, a) => ExprKind::Unary(*op, r(a)),
            ExprKind::Cast(t, a) => ExprKind::Cast(*t, r(a)),
            ExprKind::Ternary(c, a, b) => {
                let c = r(c);
                let a = r(a);
                ExprKind::Ternary(c, a, r(b))
            }
            ExprKind::Logical(and, a, b) => {
                let a = r(a);
                ExprKind::Logical(*and, a, r(b))
            }
            ExprKind::Comma(a, b) => {
                let a = r(a);
                ExprKind::Comma(a, r(b))
            }
            ExprKind::Index(a, j) => ExprKind::Index(a.clone(), r(j)),
            _ => return e.clone(),
        };
        Expr::new(kind, e.span)
    }

    /// The integer value of a constant expression, `None` when it is not one.
    pub(super) fn fold_int(&self, e: &Expr) -> Option<i128> {
        let mut steps = 0;
        self.fold_stopped.set(false);
        let mut e = e.clone();
        self.object_constants(&mut e);
        self.fold_val(&e, &HashMap::new(), 0, &mut steps)?.int()
    }

    /// `e` with the constant uses of class objects replaced: `i.value` of a static data
    /// member by the member's constant (C++17 [class.static]/1: a static member named with
    /// the member access syntax), and `i` itself, where its class has a recorded `constexpr`
    /// conversion function, by that function's call ([class.conv.fct], [expr.const]/2): what
    /// `static_for`'s `integral_constant` index gives a template argument. Walks a tree the
    /// parser built (its height bounded by the depth budget).
    fn object_constants(&self, e: &mut Expr) {
        let object = |n: &str| self.var_struct(n).map(|v| v.sname.clone());
        match &e.kind {
            ExprKind::Member(b, f) => {
                if let ExprKind::Ident(n) = &b.kind {
                    if let Some(s) = object(n) {
                        if let Some(c) = self.static_const(&s, f) {
                            *e = c;
                            return;
                        }
                    }
                }
            }
            // HIP's `warpSize` where no constant of that name is bound ([`Parser::hip_warp_size`]).
            ExprKind::Ident(n)
                if self.hip
                    && n == "warpSize"
                    && self.var_type(n).is_none()
                    && !self.consts.contains_key(n) =>
            {
                if let Some(w) = self.hip_warp_size(e.span) {
                    *e = w;
                    return;
                }
            }
            // `kSizes[1]` of a file-scope constant array: its element's constant.
            ExprKind::Index(b, j) => {
                if let ExprKind::Ident(n) = &b.kind {
                    let mut j = (**j).clone();
                    self.object_constants(&mut j);
                    let k = const_eval(&j, &HashMap::new()).and_then(|v| v.int());
                    if let Some(c) = k.and_then(|k| self.const_element(n, k)) {
                        *e = c;
                        return;
                    }
                }
            }
            ExprKind::Ident(n) => {
                if let Some(s) = object(n) {
                    let func = format!("{s}::{}", super::structs::CONV);
                    if self.constexpr_fns.contains_key(&func) {
                        *e = Expr::new(ExprKind::Call(func, Vec::new()), e.span);
                    }
                }
                return;
            }
            _ => {}
        }
        e.kind.for_each_child_mut(|c| self.object_constants(c));
    }

    /// Why the last [`Parser::fold_int`] gave no value when a bound stopped it: a text to
    /// append to the error.
    pub(super) fn fold_limit_note(&self) -> &'static str {
        if self.fold_stopped.get() {
            " (the constexpr evaluation stopped at its bound: 64 nested calls or 10000 steps; \
             these bounds are fixed, as a compiler's -fconstexpr-depth is by default)"
        } else {
            ""
        }
    }

    /// The value of `e` with the names in `env` bound.
    fn fold_val(
        &self,
        e: &Expr,
        env: &HashMap<String, HostVal>,
        depth: u32,
        steps: &mut u32,
    ) -> Option<HostVal> {
        if self.constexpr_fns.is_empty() {
            return const_eval(e, env);
        }
        let folded = self.fold_calls(e, env, depth, steps)?;
        const_eval(&folded, env)
    }

    /// `e` with every call of a `constexpr` function replaced by its value. Walks a tree the
    /// parser built, so its height is bounded by the depth budget.
    fn fold_calls(
        &self,
        e: &Expr,
        env: &HashMap<String, HostVal>,
        depth: u32,
        steps: &mut u32,
    ) -> Option<Expr> {
        let b = |x: &Expr, s: &mut u32| self.fold_calls(x, env, depth, s).map(Box::new);
        let kind = match &e.kind {
            // One definition of the name: an overloaded name's call is resolved by its
            // arguments' types ([over.match]), which this fold does not do.
            ExprKind::Call(name, args)
                if self
                    .constexpr_fns
                    .get(name)
                    .is_some_and(|f| !f.host || self.fold_host.get())
                    && self.fn_sets.get(name).is_none_or(|s| s.len() <= 1) =>
            {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.fold_val(a, env, depth, steps)?);
                }
                return literal(self.call_const(name, &vals, depth + 1, steps)?, e.span);
            }
            ExprKind::Call(name, args) => {
                let mut out = Vec::with_capacity(args.len());
                for a in args {
                    out.push(self.fold_calls(a, env, depth, steps)?);
                }
                ExprKind::Call(name.clone(), out)
            }
            ExprKind::Unary(op, x) => ExprKind::Unary(*op, b(x, steps)?),
            ExprKind::Binary(op, x, y) => ExprKind::Binary(*op, b(x, steps)?, b(y, steps)?),
            // Only the operand evaluated is folded ([expr.cond]/1, [expr.log.and]): a
            // recursive call's base case stands in the other.
            ExprKind::Logical(and, x, y) => {
                let l = self.fold_val(x, env, depth, steps)?.int()? != 0;
                if l != *and {
                    return Some(int_literal(i128::from(l), e.span));
                }
                let r = self.fold_val(y, env, depth, steps)?.int()? != 0;
                return Some(int_literal(i128::from(r), e.span));
            }
            ExprKind::Ternary(c, x, y) => {
                let c = self.fold_val(c, env, depth, steps)?.int()? != 0;
                return self.fold_calls(if c { x } else { y }, env, depth, steps);
            }
            ExprKind::Cast(t, x) => ExprKind::Cast(*t, b(x, steps)?),
            other => other.clone(),
        };
        Some(Expr::new(kind, e.span))
    }

    /// Calls the `constexpr` function `name` with `args`.
    fn call_const(
        &self,
        name: &str,
        args: &[HostVal],
        depth: u32,
        steps: &mut u32,
    ) -> Option<HostVal> {
        let f = self.constexpr_fns.get(name)?;
        if depth > MAX_CALL_DEPTH {
            self.fold_stopped.set(true);
            return None;
        }
        if f.params.len() != args.len() {
            return None;
        }
        let mut env: HashMap<String, HostVal> =
            f.params.iter().cloned().zip(args.iter().copied()).collect();
        match self.exec_const(&f.body, &mut env, depth, steps)? {
            // [stmt.return]/2: the returned value copy-initializes the result, of the declared
            // return type ([conv.integral]/2 wraps, [conv.fpint]/1 truncates or is undefined).
            Flow::Return(v) => match f.ret {
                Some(s) => v.convert(s),
                None => Some(v),
            },
            Flow::Next | Flow::Break | Flow::Continue => None,
        }
    }

    /// Runs one statement of a `constexpr` body. Recursion follows the body's nesting, which
    /// the parser's depth budget bounds.
    fn exec_const(
        &self,
        s: &Stmt,
        env: &mut HashMap<String, HostVal>,
        depth: u32,
        steps: &mut u32,
    ) -> Option<Flow> {
        *steps += 1;
        if *steps > MAX_STEPS {
            self.fold_stopped.set(true);
            return None;
        }
        match &s.kind {
            StmtKind::Return(Some(e)) => Some(Flow::Return(self.fold_val(e, env, depth, steps)?)),
            StmtKind::Block(list) => {
                // A block's locals end with it; an outer name one hides keeps its value
                // ([basic.scope.block]/1).
                let outer: Vec<String> = env.keys().cloned().collect();
                let mut hidden = Vec::new();
                let mut flow = Flow::Next;
                for st in list {
                    note_hidden(st, env, &mut hidden);
                    flow = self.exec_const(st, env, depth, steps)?;
                    if !matches!(flow, Flow::Next) {
                        break;
                    }
                }
                env.retain(|k, _| outer.contains(k));
                restore_hidden(env, hidden);
                Some(flow)
            }
            StmtKind::If(c, t, e) => {
                if self.fold_val(c, env, depth, steps)?.int()? != 0 {
                    self.exec_const(t, env, depth, steps)
                } else if let Some(e) = e {
                    self.exec_const(e, env, depth, steps)
                } else {
                    Some(Flow::Next)
                }
            }
            StmtKind::Decl(_, decls) => {
                for d in decls {
                    if d.array.is_some() {
                        return None;
                    }
                    let v = self.fold_val(d.init.as_ref()?, env, depth, steps)?;
                    env.insert(d.name.clone(), v);
                }
                Some(Flow::Next)
            }
            StmtKind::Expr(e) => {
                self.const_effect(e, env, depth, steps)?;
                Some(Flow::Next)
            }
            StmtKind::Break => Some(Flow::Break),
            StmtKind::Continue => Some(Flow::Continue),
            StmtKind::While(c, body) => {
                self.const_loop(None, Some(c), None, body, false, env, depth, steps)
            }
            StmtKind::DoWhile(body, c) => {
                self.const_loop(None, Some(c), None, body, true, env, depth, steps)
            }
            StmtKind::For(init, c, step, body) => self.const_loop(
                init.as_deref(),
                c.as_ref(),
                step.as_ref(),
                body,
                false,
                env,
                depth,
                steps,
            ),
            StmtKind::Empty => Some(Flow::Next),
            _ => None,
        }
    }

    /// A loop of a `constexpr` body: `init`, then while `cond` holds (first checked after one
    /// pass when `post`, as `do … while`), the body and `step`. Each pass costs a step, so the
    /// step bound ends an endless loop.
    #[allow(clippy::too_many_arguments)]
    fn const_loop(
        &self,
        init: Option<&Stmt>,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
        post: bool,
        env: &mut HashMap<String, HostVal>,
        depth: u32,
        steps: &mut u32,
    ) -> Option<Flow> {
        // The loop's own locals (`for (int i …)`) end with it; an outer `i` it hides keeps its
        // value ([stmt.for]/1).
        let outer: Vec<String> = env.keys().cloned().collect();
        let mut hidden = Vec::new();
        if let Some(i) = init {
            note_hidden(i, env, &mut hidden);
            self.exec_const(i, env, depth, steps)?;
        }
        let mut first = true;
        let flow = loop {
            *steps += 1;
            if *steps > MAX_STEPS {
                self.fold_stopped.set(true);
                return None;
            }
            let check = !(post && first);
            first = false;
            if check {
                if let Some(c) = cond {
                    if self.fold_val(c, env, depth, steps)?.int()? == 0 {
                        break Flow::Next;
                    }
                }
            }
            match self.exec_const(body, env, depth, steps)? {
                Flow::Return(v) => break Flow::Return(v),
                Flow::Break => break Flow::Next,
                Flow::Next | Flow::Continue => {}
            }
            if let Some(s) = step {
                self.const_effect(s, env, depth, steps)?;
            }
        };
        env.retain(|k, _| outer.contains(k));
        restore_hidden(env, hidden);
        Some(flow)
    }

    /// Evaluates an expression statement of a `constexpr` body for its effect on the locals
    /// (`r = e`, `r op= e`, `++r`, `r--`, a comma of those, or a side-effect-free value).
    fn const_effect(
        &self,
        e: &Expr,
        env: &mut HashMap<String, HostVal>,
        depth: u32,
        steps: &mut u32,
    ) -> Option<HostVal> {
        match &e.kind {
            ExprKind::Assign(op, target, rhs) => {
                let ExprKind::Ident(name) = &target.kind else {
                    return None;
                };
                let r = self.fold_val(rhs, env, depth, steps)?;
                let v = match op {
                    None => r,
                    Some(op) => {
                        let old = *env.get(name)?;
                        let both = Expr::new(
                            ExprKind::Binary(
                                *op,
                                Box::new(literal(old, e.span)?),
                                Box::new(literal(r, e.span)?),
                            ),
                            e.span,
                        );
                        const_eval(&both, &HashMap::new())?
                    }
                };
                env.insert(name.clone(), v);
                Some(v)
            }
            ExprKind::IncDec {
                inc,
                prefix,
                target,
            } => {
                let ExprKind::Ident(name) = &target.kind else {
                    return None;
                };
                let old = env.get(name)?.int()?;
                let new = if *inc {
                    old.checked_add(1)?
                } else {
                    old.checked_sub(1)?
                };
                env.insert(name.clone(), HostVal::Int(new));
                Some(HostVal::Int(if *prefix { new } else { old }))
            }
            ExprKind::Comma(a, b) => {
                self.const_effect(a, env, depth, steps)?;
                self.const_effect(b, env, depth, steps)
            }
            _ => self.fold_val(e, env, depth, steps),
        }
    }
}

/// A folded value as a literal expression; a `dim3` (or the `uint3` a helper returns with
/// `make_uint3(x, y, z)`) as that call of its components, which [`const_eval`] reads back as
/// the same value (llama.cpp's `init_fastdiv_values(d)` returning `make_uint3(mp, L, d)`).
fn literal(v: HostVal, span: Span) -> Option<Expr> {
    match v {
        HostVal::Float(x) => Some(Expr::new(
            ExprKind::Float {
                value: x,
                single: false,
            },
            span,
        )),
        HostVal::F32(x) => Some(Expr::new(
            ExprKind::Float {
                value: f64::from(x),
                single: true,
            },
            span,
        )),
        HostVal::Int(n) | HostVal::Typed(n, _) => Some(int_literal(n, span)),
        HostVal::Dim(d) => Some(Expr::new(
            ExprKind::Call(
                "make_uint3".to_string(),
                d.iter().map(|&c| int_literal(c, span)).collect(),
            ),
            span,
        )),
    }
}

/// The integer `n` as a literal (a negative one as `-(literal)`).
fn int_literal(n: i128, span: Span) -> Expr {
    let lit = Expr::new(
        ExprKind::Int {
            value: n.unsigned_abs() as u64,
            unsigned: false,
            long: true,
        },
        span,
    );
    if n < 0 {
        Expr::new(
            ExprKind::Unary(crate::types::UnOp::Neg, Box::new(lit)),
            span,
        )
    } else {
        lit
    }
}

impl Parser<'_> {
    /// A `constexpr` local `name` of declared type `ty` (`auto`: `int`, or `long long` when
    /// the value does not fit, as an integer literal's type, [lex.icon]) with value `v`:
    /// declared, and a constant for the rest of the function. Returns its type.
    pub(super) fn constexpr_local(
        &mut self,
        name: &str,
        ty: crate::types::Ty,
        auto: bool,
        v: i128,
        span: Span,
    ) -> crate::types::Ty {
        use crate::types::{Scalar, Ty, ValTy};
        let ty = if auto {
            let s = if i32::try_from(v).is_ok() {
                Scalar::I32
            } else {
                Scalar::I64
            };
            Ty::Val(ValTy::scalar(s))
        } else {
            ty
        };
        self.declare(name, ty);
        if let Ty::Val(t) = ty {
            if !t.scalar.is_float() {
                let lit = self.folded_literal(v, span);
                self.consts.insert(
                    name.to_string(),
                    Expr::new(ExprKind::Cast(ty, Box::new(lit)), span),
                );
            }
        }
        ty
    }

    /// The literal expression of a folded integer `v`.
    pub(super) fn folded_literal(&self, v: i128, span: Span) -> Expr {
        int_literal(v, span)
    }
}

impl Parser<'_> {
    /// The rest of an `if constexpr` whose condition folded to `taken`, after its `)`: the
    /// branch taken is parsed, the other skipped unparsed, as a discarded statement is not
    /// instantiated (C++17 [stmt.if]/2): it may call what exists only for other arguments.
    ///
    /// # Errors
    /// The taken branch's errors; a discarded branch that never ends.
    pub(super) fn if_constexpr(&mut self, taken: bool, span: Span) -> super::PResult<Stmt> {
        let empty = |p: &Self| Stmt {
            kind: StmtKind::Empty,
            span,
            end: p.last_end(),
        };
        if taken {
            let then = self.stmt()?;
            if self.is_word("else") {
                self.bump();
                self.skip_discarded()?;
            }
            return Ok(then);
        }
        self.skip_discarded()?;
        if self.is_word("else") {
            self.bump();
            return self.stmt();
        }
        Ok(empty(self))
    }

    /// Skips one statement's tokens without parsing them: a block, or tokens to the `;` at
    /// its level, with an `if`'s `else` parts (a loop, not recursion: nesting costs no stack).
    fn skip_discarded(&mut self) -> super::PResult<()> {
        let at = self.span();
        let is_do = self.is_word("do");
        // Only an `if` statement owns the `else` after it.
        let is_if = self.is_word("if");
        let mut depth = 0usize;
        loop {
            let t = self.bump();
            let ends = match t.tok {
                Tok::Eof => {
                    return Err(crate::KernelError::new(
                        at.line,
                        at.col,
                        "this discarded `if constexpr` branch never ends",
                    ))
                }
                Tok::Punct("(" | "[" | "{") => {
                    depth += 1;
                    false
                }
                Tok::Punct(")" | "]") => {
                    depth = depth.saturating_sub(1);
                    false
                }
                Tok::Punct("}") => {
                    depth = depth.saturating_sub(1);
                    depth == 0 && !is_do
                }
                Tok::Punct(";") => depth == 0,
                _ => false,
            };
            if ends {
                if is_if && self.is_word("else") {
                    self.bump();
                    continue;
                }
                return Ok(());
            }
        }
    }
}

/// Whether `e` calls `name` anywhere (a tree the parser built, its height bounded by the depth
/// budget).
fn mentions_call(e: &Expr, name: &str) -> bool {
    match &e.kind {
        ExprKind::Call(n, args) => n == name || args.iter().any(|a| mentions_call(a, name)),
        ExprKind::Assign(_, a, b)
        | ExprKind::Binary(_, a, b)
        | ExprKind::Logical(_, a, b)
        | ExprKind::Comma(a, b)
        | ExprKind::Index(a, b) => mentions_call(a, name) || mentions_call(b, name),
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => mentions_call(a, name),
        ExprKind::Ternary(c, a, b) => {
            mentions_call(c, name) || mentions_call(a, name) || mentions_call(b, name)
        }
        _ => false,
    }
}

impl Parser<'_> {
    /// HIP's device `warpSize` as the constant expression it is through ROCm 6 (the HIP
    /// version modelled is 6.2, docs/kernels.md; ROCm 7.0 made it a run-time value, ROCm/apex
    /// PR 231, "In ROCm 7.0, the warpSize variable is no longer constexpr"): the `int` literal
    /// of the modelled wave size at `at`, for vLLM's `#define WARP_SIZE warpSize` in constexpr
    /// locals and array bounds, rocBLAS's `wavefront_reduce<warpSize>`, `template <int
    /// numLanes = warpSize>`. `None` outside HIP: CUDA's `warpSize` is a built-in variable, no
    /// constant (CUDA C++ Programming Guide, "Built-in Variables"). The one place this rule
    /// is written; [`super::parse_preprocessed`] binds it as a constant of the whole source.
    pub(super) fn hip_warp_size(&self, at: Span) -> Option<Expr> {
        self.hip.then(|| {
            Expr::new(
                ExprKind::Int {
                    value: u64::from(self.wave),
                    unsigned: false,
                    long: false,
                },
                at,
            )
        })
    }
}

/// Before declaration statement `st` runs: the value each name it declares has now in `env`
/// (an outer name the declaration hides), once per name.
fn note_hidden(st: &Stmt, env: &HashMap<String, HostVal>, hidden: &mut Vec<(String, HostVal)>) {
    if let StmtKind::Decl(_, decls) = &st.kind {
        for d in decls {
            if let Some(v) = env.get(&d.name) {
                if !hidden.iter().any(|(n, _)| *n == d.name) {
                    hidden.push((d.name.clone(), *v));
                }
            }
        }
    }
}

/// Puts back the outer values [`note_hidden`] recorded: the hiding declarations' scope ended.
fn restore_hidden(env: &mut HashMap<String, HostVal>, hidden: Vec<(String, HostVal)>) {
    for (n, v) in hidden {
        env.insert(n, v);
    }
}
