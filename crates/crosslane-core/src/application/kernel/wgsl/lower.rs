//! naga's IR of a compute entry point lowered to the kernel engine's program form
//! ([`crate::kernel::ast`]), so WGSL runs on the same engine as C kernels: one program form,
//! not a second interpreter. Every statement and expression keeps its WGSL span.
//!
//! The mapping (WGSL spec section → engine form):
//! - built-in values (§ Built-in Values): `local_invocation_id` → `threadIdx`, `workgroup_id` →
//!   `blockIdx`, `num_workgroups` → `gridDim`, `global_invocation_id` → `blockIdx * blockDim +
//!   threadIdx`, `local_invocation_index` → the linearized `threadIdx`; `subgroup_invocation_id`
//!   → the lane, `subgroup_size` → the warp size, `subgroup_id` → index / size,
//!   `num_subgroups` → ⌈threads / size⌉. The spec leaves the index → subgroup mapping to the
//!   implementation; the engine's warps are the linear mapping (subgroup = index / size, lane =
//!   index % size) every known GPU uses for 1-D workgroups.
//! - `var<storage>` / `var<uniform>` → a kernel pointer parameter named by the variable (a
//!   scalar one is a one-cell buffer); `var<workgroup>` → `__shared__`; `var<private>` and
//!   function variables → per-invocation locals, zero-initialized as WGSL requires.
//! - `workgroupBarrier`/`storageBarrier` → the block barrier; atomics → the engine's atomics.
//! - subgroup and quad built-ins → calls of the WGSL registry ops by their names, the same
//!   entries the operation view runs.
//! - `let` bindings and built-in results become named locals (the trace shows the user's names).
//!
//! `switch` becomes an if/else chain. Vectors other than the built-in ids and `subgroupBallot`'s
//! result, structs and helper functions are refused with a message naming them.

use std::collections::{HashMap, HashSet};

use naga::{
    AddressSpace, ArraySize, AtomicFunction, BinaryOperator, BuiltIn, CollectiveOperation,
    Expression, GatherMode, Handle, Literal, MathFunction, ScalarKind, Statement,
    SubgroupOperation, TypeInner, UnaryOperator,
};

use super::naga::{line_col, NagaShader};
use crate::kernel::ast::{self, Declarator, Expr, ExprKind, Param, Stmt, StmtKind, Storage};
use crate::kernel::types::{BinOp, Scalar, Ty, UnOp, ValTy};
use crate::kernel::KernelError;

mod ballot;
mod build;
mod places;
mod switch;
mod types;

use build::*;
use types::*;

/// A buffer binding of the shader: a `var<storage>` or `var<uniform>` at `@group`/`@binding`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Binding {
    /// The variable's name (the kernel parameter's).
    pub name: String,
    /// `@group`.
    pub group: u32,
    /// `@binding`.
    pub binding: u32,
    /// `storage` (`read` or `read_write`) or `uniform`.
    pub space: String,
    /// Whether the shader may write it.
    pub writable: bool,
    /// The element type.
    pub elem: ValTy,
    /// The WGSL element type as written by the type (`u32`, `f16`, `atomic<u32>`).
    pub wgsl_elem: String,
    /// Fixed length (`array<T, N>`: N; a scalar: 1); `None` for a runtime-sized array.
    pub fixed_len: Option<usize>,
}

/// The lowered entry point.
pub struct Lowered {
    /// The program (one entry function).
    pub program: ast::Program,
    /// `@workgroup_size`.
    pub workgroup_size: [u32; 3],
    /// The buffers, in `@group`, `@binding` order.
    pub bindings: Vec<Binding>,
    /// The entry point's name.
    pub entry: String,
}

/// The compute entry points of a module, by name.
pub fn compute_entries(module: &naga::Module) -> Vec<String> {
    module
        .entry_points
        .iter()
        .filter(|e| e.stage == naga::ShaderStage::Compute)
        .map(|e| e.name.clone())
        .collect()
}

/// Lowers the compute entry point `entry` (default: the first) of `shader`.
///
/// `lens` gives each runtime-sized buffer's length (for `arrayLength`); `max_depth` bounds the
/// expression trees built (the engine's nesting budget); `lanes` is the subgroup size.
///
/// # Errors
/// [`KernelError`] at the construct the engine cannot run, naming it.
pub fn lower(
    shader: &NagaShader,
    entry: Option<&str>,
    lens: &HashMap<String, usize>,
    max_depth: u32,
    lanes: usize,
) -> Result<Lowered, KernelError> {
    let module = &shader.module;
    let computes: Vec<usize> = (0..module.entry_points.len())
        .filter(|&k| module.entry_points[k].stage == naga::ShaderStage::Compute)
        .collect();
    let idx = match entry {
        Some(name) => computes
            .iter()
            .copied()
            .find(|&k| module.entry_points[k].name == name)
            .ok_or_else(|| {
                KernelError::new(
                    1,
                    1,
                    format!(
                        "no compute entry point `{name}`; the shader has: {}",
                        compute_entries(module).join(", ")
                    ),
                )
            })?,
        None => *computes
            .first()
            .ok_or_else(|| KernelError::new(1, 1, "no `@compute` entry point in the shader"))?,
    };
    let ep = &module.entry_points[idx];
    let fn_at = shader
        .text
        .find(&format!("fn {}", ep.name))
        .map_or((1, 1), |o| line_col(&shader.text, o));
    let fn_span = ast::Span {
        line: fn_at.0,
        col: fn_at.1,
    };

    let mut bindings = Vec::new();
    let mut params = Vec::new();
    let mut prelude = Vec::new();
    let mut zeroing = Vec::new();
    let mut low = Lower {
        shader,
        func: &ep.function,
        finfo: shader.info.get_entry_point(idx),
        entry_args: true,
        baked: HashMap::new(),
        ballots: HashSet::new(),
        used: HashSet::new(),
        max_depth,
        lanes,
        loops: Vec::new(),
        lens,
    };
    for (h, g) in module.global_variables.iter() {
        let name = g
            .name
            .clone()
            .unwrap_or_else(|| format!("global{}", h.index()));
        let at = low.span_of(module.global_variables.get_span(h), fn_span);
        let (elem, count, wgsl_elem) = elem_of(module, g.ty).map_err(|m| at_err(at, &name, m))?;
        match g.space {
            AddressSpace::Storage { .. } | AddressSpace::Uniform => {
                let rb = g.binding.as_ref();
                let (space, writable) = match g.space {
                    AddressSpace::Storage { access } => (
                        if access.contains(naga::StorageAccess::STORE) {
                            "storage, read_write"
                        } else {
                            "storage, read"
                        },
                        access.contains(naga::StorageAccess::STORE),
                    ),
                    _ => ("uniform", false),
                };
                bindings.push(Binding {
                    name: name.clone(),
                    group: rb.map_or(0, |b| b.group),
                    binding: rb.map_or(0, |b| b.binding),
                    space: space.to_string(),
                    writable,
                    elem,
                    wgsl_elem,
                    fixed_len: match count {
                        Count::Scalar => Some(1),
                        Count::Fixed(n) => Some(n),
                        Count::Runtime => None,
                    },
                });
                params.push(Param {
                    name: name.clone(),
                    ty: Ty::Ptr(elem),
                    // A scalar is a one-cell buffer, read and written as `name[0]` (so an
                    // atomic can take its address).
                    reference: false,
                    span: low.uniq(at),
                });
            }
            AddressSpace::WorkGroup | AddressSpace::Private => {
                let shared = g.space == AddressSpace::WorkGroup;
                let init = match (count, g.init, shared) {
                    (Count::Scalar, Some(e), _) => Some(low.global_const(e, at)?),
                    (Count::Scalar, None, false) => Some(zero(elem, at)),
                    _ => None,
                };
                let array = match count {
                    Count::Fixed(n) => Some(Some(int_lit(n as u64, at))),
                    // A workgroup scalar is a one-cell array (`name[0]`), so an atomic can take
                    // its address.
                    Count::Scalar if shared => Some(Some(int_lit(1, at))),
                    Count::Runtime => return Err(at_err(at, &name, "a runtime-sized array here")),
                    Count::Scalar => None,
                };
                let ty = if array.is_some() {
                    Ty::Ptr(elem)
                } else {
                    Ty::Val(elem)
                };
                if shared {
                    zeroing.push((name.clone(), elem, count, at));
                }
                prelude.push(stmt(
                    StmtKind::Decl(
                        Storage {
                            shared,
                            external: false,
                        },
                        vec![Declarator {
                            name,
                            ty,
                            array,
                            init,
                            span: low.uniq(at),
                        }],
                    ),
                    at,
                ));
            }
            _ => {
                return Err(at_err(
                    at,
                    &name,
                    "this address space (textures, samplers, push constants) is not emulated",
                ))
            }
        }
    }
    bindings.sort_by_key(|b| (b.group, b.binding));
    if !zeroing.is_empty() {
        let z = low.zero_workgroup(&zeroing, fn_span)?;
        prelude.extend(z);
    }
    let body = low.function_body(fn_span, prelude)?;
    let function = ast::Function {
        name: ep.name.clone(),
        entry: true,
        ret: Ty::Void,
        params,
        body,
        launch_bounds: None,
        vf_call_dim: None,
        span: fn_span,
        snippet: false,
    };
    Ok(Lowered {
        program: ast::Program {
            functions: vec![function],
            aliases: Vec::new(),
            // A shader's dispatch comes from `--workgroups`, never from host code.
            launches: Vec::new(),
        },
        workgroup_size: ep.workgroup_size,
        bindings,
        entry: ep.name.clone(),
    })
}

struct LoopCx {
    continuing: Vec<Stmt>,
    /// A `switch` rather than a loop: `break` ends the case (WGSL § switch), `continue` belongs
    /// to the loop around it.
    switch: bool,
}

struct Lower<'a> {
    shader: &'a NagaShader,
    func: &'a naga::Function,
    finfo: &'a naga::valid::FunctionInfo,
    entry_args: bool,
    /// Expressions held in a named local (a `let`, a built-in's result): the local's name.
    baked: HashMap<Handle<Expression>, String>,
    /// Expressions that are `subgroupBallot` results (held as a u64 of components x, y).
    ballots: HashSet<Handle<Expression>>,
    /// Spans already given to an identifier or declarator (the engine resolves names by span).
    used: HashSet<ast::Span>,
    max_depth: u32,
    lanes: usize,
    loops: Vec<LoopCx>,
    lens: &'a HashMap<String, usize>,
}

impl Lower<'_> {
    fn module(&self) -> &naga::Module {
        &self.shader.module
    }

    fn span_of(&self, s: naga::Span, fallback: ast::Span) -> ast::Span {
        match s.to_range() {
            Some(r) if s.is_defined() => {
                let (line, col) = line_col(&self.shader.text, r.start);
                ast::Span { line, col }
            }
            _ => fallback,
        }
    }

    fn end_of(&self, s: naga::Span, fallback: ast::Span) -> ast::Span {
        match s.to_range() {
            Some(r) if s.is_defined() => {
                let (line, col) = line_col(&self.shader.text, r.end);
                ast::Span { line, col }
            }
            _ => fallback,
        }
    }

    /// A span no other identifier or declarator has (the engine keys names by span); a clash
    /// moves the column right by one.
    fn uniq(&mut self, mut s: ast::Span) -> ast::Span {
        while !self.used.insert(s) {
            s.col = s.col.saturating_add(1);
        }
        s
    }

    fn ident(&mut self, name: &str, at: ast::Span) -> Expr {
        let s = self.uniq(at);
        ex(ExprKind::Ident(name.to_string()), s)
    }

    fn espan(&self, h: Handle<Expression>, fallback: ast::Span) -> ast::Span {
        self.span_of(self.func.expressions.get_span(h), fallback)
    }

    fn ty_inner(&self, h: Handle<Expression>) -> &TypeInner {
        self.finfo[h].ty.inner_with(&self.module().types)
    }

    fn scalar_ty(&self, h: Handle<Expression>, at: ast::Span) -> Result<ValTy, KernelError> {
        match self.ty_inner(h) {
            TypeInner::Scalar(s) | TypeInner::Atomic(s) => scalar_of(*s)
                .map(ValTy::scalar)
                .ok_or_else(|| KernelError::new(at.line, at.col, "type not emulated")),
            TypeInner::Vector { .. } if self.ballots.contains(&h) => Ok(ValTy::scalar(Scalar::U64)),
            other => Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "a value of type {} is not emulated yet (scalars, built-in ids and \
                     subgroupBallot's result are)",
                    type_word(other)
                ),
            )),
        }
    }

    /// WGSL § "var<workgroup>": workgroup memory starts zeroed. Done as wgpu and Dawn do it:
    /// invocation 0 stores the zeros, then a workgroup barrier, before the body; the trace shows
    /// those steps at the variable's line.
    fn zero_workgroup(
        &mut self,
        vars: &[(String, ValTy, Count, ast::Span)],
        fn_span: ast::Span,
    ) -> Result<Vec<Stmt>, KernelError> {
        let mut body = Vec::new();
        for (name, elem, count, at) in vars {
            let at = *at;
            let assign = |me: &mut Self, idx: Option<Expr>| {
                let target = me.ident(name, at);
                let target = match idx {
                    Some(i) => ex(ExprKind::Index(Box::new(target), Box::new(i)), at),
                    None => target,
                };
                stmt(
                    StmtKind::Expr(ex(
                        ExprKind::Assign(None, Box::new(target), Box::new(zero(*elem, at))),
                        at,
                    )),
                    at,
                )
            };
            match count {
                Count::Scalar => body.push(assign(self, Some(int_lit(0, at)))),
                Count::Fixed(n) => {
                    let k = "_zero_index";
                    let kspan = self.uniq(at);
                    let init = stmt(
                        StmtKind::Decl(
                            Storage::default(),
                            vec![Declarator {
                                name: k.into(),
                                ty: Ty::Val(ValTy::scalar(Scalar::U32)),
                                array: None,
                                init: Some(int_lit(0, at)),
                                span: kspan,
                            }],
                        ),
                        at,
                    );
                    let cond = {
                        let kk = self.ident(k, at);
                        bin(BinOp::Lt, kk, int_lit(*n as u64, at), at)
                    };
                    let step = {
                        let kk = self.ident(k, at);
                        ex(
                            ExprKind::IncDec {
                                inc: true,
                                prefix: true,
                                target: Box::new(kk),
                            },
                            at,
                        )
                    };
                    let idx = self.ident(k, at);
                    let a = assign(self, Some(idx));
                    body.push(stmt(
                        StmtKind::For(Some(Box::new(init)), Some(cond), Some(step), Box::new(a)),
                        at,
                    ));
                }
                Count::Runtime => {}
            }
        }
        let li = self.builtin_value(BuiltIn::LocalInvocationIndex, None, fn_span)?;
        let first = bin(BinOp::Eq, li, int_lit(0, fn_span), fn_span);
        Ok(vec![
            stmt(
                StmtKind::If(first, Box::new(stmt(StmtKind::Block(body), fn_span)), None),
                fn_span,
            ),
            stmt(
                StmtKind::Expr(ex(ExprKind::Call("__syncthreads".into(), vec![]), fn_span)),
                fn_span,
            ),
        ])
    }

    fn function_body(
        &mut self,
        fn_span: ast::Span,
        prelude: Vec<Stmt>,
    ) -> Result<Stmt, KernelError> {
        let mut out = prelude;
        let func = self.func;
        for (h, lv) in func.local_variables.iter() {
            let at = self.span_of(func.local_variables.get_span(h), fn_span);
            let name = lv
                .name
                .clone()
                .unwrap_or_else(|| format!("local{}", h.index()));
            let (elem, count, _) =
                elem_of(self.module(), lv.ty).map_err(|m| at_err(at, &name, m))?;
            let (ty, array, init) = match count {
                Count::Scalar => (
                    Ty::Val(elem),
                    None,
                    Some(match lv.init {
                        Some(e) => self.expr(e, 0)?,
                        None => zero(elem, at),
                    }),
                ),
                Count::Fixed(n) => (Ty::Ptr(elem), Some(Some(int_lit(n as u64, at))), None),
                Count::Runtime => return Err(at_err(at, &name, "a runtime-sized local array")),
            };
            let span = self.uniq(at);
            out.push(stmt(
                StmtKind::Decl(
                    Storage::default(),
                    vec![Declarator {
                        name,
                        ty,
                        array,
                        init,
                        span,
                    }],
                ),
                at,
            ));
        }
        let body = self.block(&func.body, fn_span)?;
        out.extend(body);
        Ok(Stmt {
            kind: StmtKind::Block(out),
            span: fn_span,
            end: fn_span,
        })
    }

    fn block(&mut self, b: &naga::Block, outer: ast::Span) -> Result<Vec<Stmt>, KernelError> {
        let mut out = Vec::new();
        for (s, sp) in b.span_iter() {
            let at = self.span_of(*sp, outer);
            let end = self.end_of(*sp, at);
            for mut st in self.statement(s, at)? {
                if st.end == st.span && st.span == at {
                    st.end = end;
                }
                out.push(st);
            }
        }
        Ok(out)
    }

    fn decl(&mut self, name: &str, t: ValTy, init: Expr, at: ast::Span) -> Stmt {
        let span = self.uniq(at);
        stmt(
            StmtKind::Decl(
                Storage::default(),
                vec![Declarator {
                    name: name.to_string(),
                    ty: Ty::Val(t),
                    array: None,
                    init: Some(init),
                    span,
                }],
            ),
            at,
        )
    }

    /// Names the result of a built-in call: the user's `let` name, else `_rN`.
    fn result_name(&mut self, h: Handle<Expression>) -> String {
        let name = self
            .func
            .named_expressions
            .get(&h)
            .cloned()
            .unwrap_or_else(|| format!("_r{}", h.index()));
        self.baked.insert(h, name.clone());
        name
    }

    fn call_stmt(
        &mut self,
        result: Option<Handle<Expression>>,
        call: Expr,
        t: Option<ValTy>,
        at: ast::Span,
    ) -> Result<Stmt, KernelError> {
        Ok(match (result, t) {
            (Some(r), Some(t)) => {
                let name = self.result_name(r);
                self.decl(&name, t, call, at)
            }
            (Some(r), None) => {
                let t = self.scalar_ty(r, at)?;
                let name = self.result_name(r);
                self.decl(&name, t, call, at)
            }
            (None, _) => stmt(StmtKind::Expr(call), at),
        })
    }

    fn statement(&mut self, s: &Statement, at: ast::Span) -> Result<Vec<Stmt>, KernelError> {
        let call = |name: &str, args: Vec<Expr>| ex(ExprKind::Call(name.to_string(), args), at);
        Ok(match s {
            Statement::Emit(range) => {
                let mut v = Vec::new();
                for h in range.clone() {
                    let Some(name) = self.func.named_expressions.get(&h).cloned() else {
                        continue;
                    };
                    if matches!(
                        self.ty_inner(h),
                        TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. }
                    ) {
                        continue; // `let p = &x;` is an alias; uses lower through it
                    }
                    let eat = self.espan(h, at);
                    let t = self.scalar_ty(h, eat)?;
                    let init = self.expr(h, 0)?;
                    if self.is_ballot_expr(h) {
                        self.ballots.insert(h);
                    }
                    v.push(self.decl(&name, t, init, eat));
                    self.baked.insert(h, name);
                }
                v
            }
            Statement::Block(b) => vec![stmt(StmtKind::Block(self.block(b, at)?), at)],
            Statement::If {
                condition,
                accept,
                reject,
            } => {
                let c = self.expr(*condition, 0)?;
                let a = self.block(accept, at)?;
                let r = self.block(reject, at)?;
                vec![stmt(
                    StmtKind::If(
                        c,
                        Box::new(stmt(StmtKind::Block(a), at)),
                        (!r.is_empty()).then(|| Box::new(stmt(StmtKind::Block(r), at))),
                    ),
                    at,
                )]
            }
            Statement::Switch { selector, cases } => self.switch(*selector, cases, at)?,
            Statement::Loop {
                body,
                continuing,
                break_if,
            } => {
                let mut cont = self.block(continuing, at)?;
                if let Some(b) = break_if {
                    let c = self.expr(*b, 0)?;
                    cont.push(stmt(
                        StmtKind::If(c, Box::new(stmt(StmtKind::Break, at)), None),
                        at,
                    ));
                }
                self.loops.push(LoopCx {
                    continuing: cont.clone(),
                    switch: false,
                });
                let inner = self.block(body, at);
                self.loops.pop();
                let mut inner = inner?;
                inner.extend(cont);
                vec![stmt(
                    StmtKind::While(
                        ex(ExprKind::Bool(true), at),
                        Box::new(stmt(StmtKind::Block(inner), at)),
                    ),
                    at,
                )]
            }
            Statement::Break if self.loops.last().is_some_and(|l| l.switch) => {
                // A `break` that ends a case is dropped by `case_body`; one elsewhere in the case
                // would need a jump out of the if/else chain.
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "`break` inside a `switch` case before its end is not emulated yet",
                ));
            }
            Statement::Break => vec![stmt(StmtKind::Break, at)],
            Statement::Continue => {
                // The continuing block runs before the next iteration (WGSL § continuing).
                let mut v = self
                    .loops
                    .last()
                    .map(|l| l.continuing.clone())
                    .unwrap_or_default();
                v.push(stmt(StmtKind::Continue, at));
                vec![stmt(StmtKind::Block(v), at)]
            }
            Statement::Return { value } => {
                let v = match value {
                    Some(e) => Some(self.expr(*e, 0)?),
                    None => None,
                };
                vec![stmt(StmtKind::Return(v), at)]
            }
            Statement::ControlBarrier(flags) => {
                let name = if flags.contains(naga::Barrier::SUB_GROUP) {
                    "__syncwarp"
                } else {
                    "__syncthreads"
                };
                vec![stmt(StmtKind::Expr(call(name, vec![])), at)]
            }
            Statement::MemoryBarrier(_) => {
                vec![stmt(
                    StmtKind::Expr(call("__threadfence_block", vec![])),
                    at,
                )]
            }
            Statement::Store { pointer, value } => {
                let p = self.place(*pointer, 0)?;
                let v = self.expr(*value, 0)?;
                vec![stmt(
                    StmtKind::Expr(ex(ExprKind::Assign(None, Box::new(p), Box::new(v)), at)),
                    at,
                )]
            }
            Statement::Atomic {
                pointer,
                fun,
                value,
                result,
            } => {
                let name = match fun {
                    AtomicFunction::Add => "atomicAdd",
                    AtomicFunction::Subtract => "atomicSub",
                    AtomicFunction::And => "atomicAnd",
                    AtomicFunction::InclusiveOr => "atomicOr",
                    AtomicFunction::ExclusiveOr => "atomicXor",
                    AtomicFunction::Min => "atomicMin",
                    AtomicFunction::Max => "atomicMax",
                    AtomicFunction::Exchange { compare: None } => "atomicExch",
                    AtomicFunction::Exchange { compare: Some(_) } => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            "atomicCompareExchangeWeak is not emulated yet",
                        ))
                    }
                };
                let p = self.place(*pointer, 0)?;
                let v = self.expr(*value, 0)?;
                let c = call(name, vec![ex(ExprKind::AddrOf(Box::new(p)), at), v]);
                vec![self.call_stmt(*result, c, None, at)?]
            }
            Statement::WorkGroupUniformLoad { pointer, result } => {
                // WGSL § workgroupUniformLoad: a workgroup barrier, then the load.
                let p = self.place(*pointer, 0)?;
                let t = self.scalar_ty(*result, at)?;
                let name = self.result_name(*result);
                vec![
                    stmt(StmtKind::Expr(call("__syncthreads", vec![])), at),
                    self.decl(&name, t, p, at),
                ]
            }
            Statement::Call {
                function,
                arguments,
                result,
            } => {
                let f = &self.module().functions[*function];
                if self.shader.elect_appended && f.name.as_deref() == Some("subgroupElect") {
                    // naga 30 gap (wgpu 6042): the registry's subgroupElect, not the helper.
                    let c = call("subgroupElect", vec![]);
                    vec![self.call_stmt(*result, c, Some(ValTy::scalar(Scalar::Bool)), at)?]
                } else {
                    let _ = arguments;
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!(
                            "calls of helper functions (`{}`) are not emulated yet; inline it \
                             into the entry point",
                            f.name.as_deref().unwrap_or("?")
                        ),
                    ));
                }
            }
            Statement::SubgroupBallot { result, predicate } => {
                let p = match predicate {
                    Some(p) => self.expr(*p, 0)?,
                    None => ex(ExprKind::Bool(true), at),
                };
                self.ballots.insert(*result);
                let c = call("subgroupBallot", vec![p]);
                vec![self.call_stmt(Some(*result), c, Some(ValTy::scalar(Scalar::U64)), at)?]
            }
            Statement::SubgroupGather {
                mode,
                argument,
                result,
            } => {
                let arg = self.expr(*argument, 0)?;
                let (name, extra) = match mode {
                    GatherMode::BroadcastFirst => ("subgroupBroadcastFirst", None),
                    GatherMode::Broadcast(id) => {
                        self.require_const(*id, "subgroupBroadcast", "id", at)?;
                        ("subgroupBroadcast", Some(*id))
                    }
                    GatherMode::Shuffle(id) => ("subgroupShuffle", Some(*id)),
                    GatherMode::ShuffleDown(d) => ("subgroupShuffleDown", Some(*d)),
                    GatherMode::ShuffleUp(d) => ("subgroupShuffleUp", Some(*d)),
                    GatherMode::ShuffleXor(m) => ("subgroupShuffleXor", Some(*m)),
                    GatherMode::QuadBroadcast(id) => {
                        self.require_const(*id, "quadBroadcast", "id", at)?;
                        ("quadBroadcast", Some(*id))
                    }
                    GatherMode::QuadSwap(naga::Direction::X) => ("quadSwapX", None),
                    GatherMode::QuadSwap(naga::Direction::Y) => ("quadSwapY", None),
                    GatherMode::QuadSwap(naga::Direction::Diagonal) => ("quadSwapDiagonal", None),
                };
                let mut args = vec![arg];
                if let Some(x) = extra {
                    let e = self.expr(x, 0)?;
                    let eat = self.espan(x, at);
                    // An i32 id or delta (the spec allows it; naga 30 only u32) as u32.
                    args.push(cast(Scalar::U32, e, eat));
                }
                vec![self.call_stmt(Some(*result), call(name, args), None, at)?]
            }
            Statement::SubgroupCollectiveOperation {
                op,
                collective_op,
                argument,
                result,
            } => {
                let base = match op {
                    SubgroupOperation::All => "All",
                    SubgroupOperation::Any => "Any",
                    SubgroupOperation::Add => "Add",
                    SubgroupOperation::Mul => "Mul",
                    SubgroupOperation::Min => "Min",
                    SubgroupOperation::Max => "Max",
                    SubgroupOperation::And => "And",
                    SubgroupOperation::Or => "Or",
                    SubgroupOperation::Xor => "Xor",
                };
                let name = match collective_op {
                    CollectiveOperation::Reduce => format!("subgroup{base}"),
                    CollectiveOperation::InclusiveScan => format!("subgroupInclusive{base}"),
                    CollectiveOperation::ExclusiveScan => format!("subgroupExclusive{base}"),
                };
                let arg = self.expr(*argument, 0)?;
                let t = if matches!(op, SubgroupOperation::All | SubgroupOperation::Any) {
                    Some(ValTy::scalar(Scalar::Bool))
                } else {
                    None
                };
                vec![self.call_stmt(Some(*result), call(&name, vec![arg]), t, at)?]
            }
            Statement::Kill => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "`discard` is for fragment shaders",
                ))
            }
            _ => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "this statement (texture, ray query, cooperative matrix) is not emulated",
                ))
            }
        })
    }

    fn expr(&mut self, h: Handle<Expression>, depth: u32) -> Result<Expr, KernelError> {
        let at = self.espan(h, ast::Span { line: 1, col: 1 });
        if depth > self.max_depth {
            return Err(depth_err(at, self.max_depth));
        }
        if let Some(name) = self.baked.get(&h).cloned() {
            return Ok(self.ident(&name, at));
        }
        let d = depth + 1;
        Ok(match &self.func.expressions[h] {
            Expression::Literal(l) => literal(*l, at),
            Expression::Constant(c) => {
                let init = self.module().constants[*c].init;
                self.global_const(init, at)?
            }
            Expression::ZeroValue(_) => {
                let t = self.scalar_ty(h, at)?;
                zero(t, at)
            }
            Expression::FunctionArgument(i) => match self.arg_builtin(*i) {
                Some(b) => self.builtin_value(b, None, at)?,
                None => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "entry point arguments must be built-in values",
                    ))
                }
            },
            Expression::AccessIndex { base, index } => {
                if let Expression::FunctionArgument(i) = self.func.expressions[*base] {
                    if let Some(b) = self.arg_builtin(i) {
                        return self.builtin_value(b, Some(*index), at);
                    }
                }
                if self.is_ballot_expr(*base) || self.baked_ballot(*base) {
                    return self.ballot_component(*base, *index, at, d);
                }
                if matches!(self.ty_inner(*base), TypeInner::Pointer { .. }) {
                    self.place(h, d)?
                } else {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "a component of a vector or struct value is not emulated yet",
                    ));
                }
            }
            Expression::Access { .. } => self.place(h, d)?,
            Expression::GlobalVariable(_) | Expression::LocalVariable(_) => self.place(h, d)?,
            Expression::Load { pointer } => self.place(*pointer, d)?,
            Expression::Unary { op, expr } => {
                let e = self.expr(*expr, d)?;
                if *op == UnaryOperator::Negate
                    && matches!(self.ty_inner(h), TypeInner::Scalar(s) if s.kind == ScalarKind::Sint && s.width == 4)
                {
                    // WGSL: -MIN wraps to MIN (C: undefined): 0u - u32(e), reinterpreted.
                    return Ok(cast(
                        Scalar::I32,
                        bin(BinOp::Sub, int_lit(0, at), cast(Scalar::U32, e, at), at),
                        at,
                    ));
                }
                let op = match op {
                    UnaryOperator::Negate => UnOp::Neg,
                    UnaryOperator::LogicalNot => UnOp::Not,
                    UnaryOperator::BitwiseNot => UnOp::BitNot,
                };
                ex(ExprKind::Unary(op, Box::new(e)), at)
            }
            Expression::Binary { op, left, right } => {
                let t = self.ty_inner(h).clone();
                if !matches!(t, TypeInner::Scalar(_)) {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "vector arithmetic is not emulated yet",
                    ));
                }
                let a = self.expr(*left, d)?;
                let mut b = self.expr(*right, d)?;
                let op = match op {
                    BinaryOperator::Add => BinOp::Add,
                    BinaryOperator::Subtract => BinOp::Sub,
                    BinaryOperator::Multiply => BinOp::Mul,
                    BinaryOperator::Divide => BinOp::Div,
                    BinaryOperator::Modulo => BinOp::Rem,
                    BinaryOperator::Equal => BinOp::Eq,
                    BinaryOperator::NotEqual => BinOp::Ne,
                    BinaryOperator::Less => BinOp::Lt,
                    BinaryOperator::LessEqual => BinOp::Le,
                    BinaryOperator::Greater => BinOp::Gt,
                    BinaryOperator::GreaterEqual => BinOp::Ge,
                    BinaryOperator::And => BinOp::And,
                    BinaryOperator::ExclusiveOr => BinOp::Xor,
                    BinaryOperator::InclusiveOr => BinOp::Or,
                    BinaryOperator::LogicalAnd => {
                        return Ok(ex(ExprKind::Logical(true, Box::new(a), Box::new(b)), at))
                    }
                    BinaryOperator::LogicalOr => {
                        return Ok(ex(ExprKind::Logical(false, Box::new(a), Box::new(b)), at))
                    }
                    BinaryOperator::ShiftLeft | BinaryOperator::ShiftRight => {
                        // WGSL § Bit Expressions: the shift count is taken modulo the width.
                        let bits = match t {
                            TypeInner::Scalar(s) => u64::from(s.width) * 8,
                            _ => 32,
                        };
                        b = bin(BinOp::And, b, int_lit(bits - 1, at), at);
                        if *op == BinaryOperator::ShiftLeft {
                            BinOp::Shl
                        } else {
                            BinOp::Shr
                        }
                    }
                };
                let int = match t {
                    TypeInner::Scalar(s)
                        if s.kind != ScalarKind::Float && s.kind != ScalarKind::Bool =>
                    {
                        Some(s)
                    }
                    _ => None,
                };
                let signed = int.is_some_and(|s| s.kind == ScalarKind::Sint);
                let e = match (op, int) {
                    // WGSL § Arithmetic Expressions: integer division by zero gives e1 and
                    // `%` gives 0, as do MIN / -1 and MIN % -1 (C calls them undefined):
                    // divide by 1 in those lanes, which gives exactly that.
                    (BinOp::Div | BinOp::Rem, Some(s)) => {
                        let k = scalar_of(s).unwrap_or(Scalar::U32);
                        let b2 = self.expr(*right, d)?;
                        let mut bad = bin(BinOp::Eq, b2, cast(k, int_lit(0, at), at), at);
                        if signed {
                            let a2 = self.expr(*left, d)?;
                            let b3 = self.expr(*right, d)?;
                            let min = literal(Literal::I32(i32::MIN), at);
                            let neg1 = literal(Literal::I32(-1), at);
                            let both = ex(
                                ExprKind::Logical(
                                    true,
                                    Box::new(bin(BinOp::Eq, a2, min, at)),
                                    Box::new(bin(BinOp::Eq, b3, neg1, at)),
                                ),
                                at,
                            );
                            bad = ex(ExprKind::Logical(false, Box::new(bad), Box::new(both)), at);
                        }
                        let divisor = ex(
                            ExprKind::Ternary(
                                Box::new(bad),
                                Box::new(cast(k, int_lit(1, at), at)),
                                Box::new(b),
                            ),
                            at,
                        );
                        bin(op, a, divisor, at)
                    }
                    // WGSL: i32 arithmetic wraps (two's complement); C calls signed overflow
                    // undefined: compute in u32 and reinterpret.
                    (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl, Some(s))
                        if signed && s.width == 4 =>
                    {
                        cast(
                            Scalar::I32,
                            bin(op, cast(Scalar::U32, a, at), cast(Scalar::U32, b, at), at),
                            at,
                        )
                    }
                    _ => bin(op, a, b, at),
                };
                match t {
                    // C's comparisons give int; WGSL's give bool.
                    TypeInner::Scalar(s) if s.kind == ScalarKind::Bool => e,
                    TypeInner::Scalar(s) => match scalar_of(s) {
                        // C promotes f16 and small ints; WGSL keeps the operand type.
                        Some(k) => cast(k, e, at),
                        None => e,
                    },
                    _ => e,
                }
            }
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                let c = self.expr(*condition, d)?;
                let a = self.expr(*accept, d)?;
                let r = self.expr(*reject, d)?;
                ex(ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(r)), at)
            }
            Expression::Math {
                fun,
                arg,
                arg1,
                arg2,
                ..
            } => {
                let a = self.expr(*arg, d)?;
                let t = self.scalar_ty(h, at)?;
                let c = |n: &str, v: Vec<Expr>| ex(ExprKind::Call(n.into(), v), at);
                let e = match fun {
                    MathFunction::Min | MathFunction::Max => {
                        let b = self.expr(arg1.unwrap_or(*arg), d)?;
                        let n = if *fun == MathFunction::Min {
                            "min"
                        } else {
                            "max"
                        };
                        c(n, vec![a, b])
                    }
                    MathFunction::Clamp => {
                        let lo = self.expr(arg1.unwrap_or(*arg), d)?;
                        let hi = self.expr(arg2.unwrap_or(*arg), d)?;
                        c("min", vec![c("max", vec![a, lo]), hi])
                    }
                    MathFunction::Abs => c("abs", vec![a]),
                    MathFunction::Sqrt => c("sqrt", vec![a]),
                    MathFunction::Floor => c("floor", vec![a]),
                    MathFunction::Ceil => c("ceil", vec![a]),
                    MathFunction::CountOneBits => c("__popc", vec![a]),
                    other => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!("the math built-in {other:?} is not emulated yet"),
                        ))
                    }
                };
                cast(t.scalar, e, at)
            }
            Expression::As {
                expr,
                kind,
                convert,
            } => {
                let e = self.expr(*expr, d)?;
                let from = self.scalar_ty(*expr, at)?.scalar;
                let to = self.scalar_ty(h, at)?.scalar;
                match convert {
                    Some(_) => cast(to, e, at),
                    None => {
                        let name = match (from.is_float(), *kind) {
                            (true, ScalarKind::Uint) => Some("__float_as_uint"),
                            (true, ScalarKind::Sint) => Some("__float_as_int"),
                            (false, ScalarKind::Float) if from == Scalar::U32 => {
                                Some("__uint_as_float")
                            }
                            (false, ScalarKind::Float) => Some("__int_as_float"),
                            _ => None,
                        };
                        match name {
                            Some(n) if from.bits() == 32 && to.bits() == 32 => {
                                ex(ExprKind::Call(n.into(), vec![e]), at)
                            }
                            None => cast(to, e, at),
                            Some(_) => {
                                return Err(KernelError::new(
                                    at.line,
                                    at.col,
                                    "bitcast between these types is not emulated yet",
                                ))
                            }
                        }
                    }
                }
            }
            Expression::ArrayLength(p) => {
                let name = match &self.func.expressions[*p] {
                    Expression::GlobalVariable(g) => {
                        self.module().global_variables[*g].name.clone()
                    }
                    _ => None,
                }
                .unwrap_or_default();
                match self.lens.get(&name) {
                    Some(n) => int_lit(*n as u64, at),
                    None => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            "arrayLength of this pointer is not emulated",
                        ))
                    }
                }
            }
            Expression::CallResult(_)
            | Expression::AtomicResult { .. }
            | Expression::SubgroupBallotResult
            | Expression::SubgroupOperationResult { .. }
            | Expression::WorkGroupUniformLoadResult { .. } => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "a built-in's result used before its call",
                ))
            }
            other => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("this expression ({}) is not emulated yet", expr_word(other)),
                ))
            }
        })
    }
}
