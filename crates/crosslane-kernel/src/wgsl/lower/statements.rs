//! naga statements → engine statements (control flow, stores, atomics, barriers, calls).

use super::*;

impl Lower<'_> {
    pub(super) fn statement(
        &mut self,
        s: &Statement,
        at: ast::Span,
    ) -> Result<Vec<Stmt>, KernelError> {
        let call = |name: &str, args: Vec<Expr>| ex(ExprKind::Call(name.to_string(), args), at);
        Ok(match s {
            Statement::Emit(range) => {
                let mut v = Vec::new();
                for h in range.clone() {
                    let Some(name) = self.func.named_expressions.get(&h).cloned() else {
                        continue;
                    };
                    // Bound early for a loop's continuing block (`name_body_lets`): this is
                    // its declaration, so its value is the expression itself.
                    self.baked.remove(&h);
                    if matches!(
                        self.ty_inner(h),
                        TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. }
                    ) {
                        continue; // `let p = &x;` is an alias; uses lower through it
                    }
                    if self.is_modf_frexp(h) {
                        continue; // a struct value, read through its members
                    }
                    let eat = self.espan(h, at);
                    if let Some(cells) = self.value_cells(h) {
                        // A vector, matrix or struct `let`: one local per component or cell,
                        // `v.x`, `v.y`, …
                        for (k, t) in cells {
                            let init = self.expr_c(h, Some(k), 0)?;
                            v.push(self.decl(&comp_name(&name, k), t, init, eat));
                        }
                        self.baked.insert(h, name);
                        continue;
                    }
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
            } if self.short_circuit(*condition, accept, reject).is_some() => {
                let (and, left, right, pointer) = self
                    .short_circuit(*condition, accept, reject)
                    .ok_or_else(|| KernelError::new(at.line, at.col, "short circuit"))?;
                let a = self.expr(left, 0)?;
                let b = self.expr(right, 0)?;
                let p = self.place(pointer, 0)?;
                vec![assign(
                    p,
                    ex(ExprKind::Logical(and, Box::new(a), Box::new(b)), at),
                    at,
                )]
            }
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
                // WGSL § continuing Statement: the continuing block sees the `let`s declared at
                // the top of the body, and names them, not their expressions: `k = next` after
                // `continue` must read the value `next` took, even when the body changed `k`
                // since. The continuing block is lowered first (every `continue` repeats it), so
                // those names are bound before it.
                self.name_body_lets(body);
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
                    wrapped: false,
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
            Statement::Break if self.loops.last().is_some_and(|l| l.switch && l.wrapped) => {
                vec![stmt(StmtKind::Break, at)]
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
                // The continuing block runs before the next iteration (WGSL § continuing). A
                // `continue` inside a `switch` belongs to the loop around it (WGSL § continue
                // Statement), so the innermost loop's continuing, not the switch's (none).
                let mut v = self
                    .loops
                    .iter()
                    .rev()
                    .find(|l| !l.switch)
                    .map(|l| l.continuing.clone())
                    .unwrap_or_default();
                v.push(stmt(StmtKind::Continue, at));
                vec![stmt(StmtKind::Block(v), at)]
            }
            Statement::Return { value: Some(e) } if self.vec_ret.is_some() => {
                // A vector, matrix or struct result: each cell into its reference parameter,
                // then return.
                let cells = self.vec_ret.clone().unwrap_or_default();
                let mut v = Vec::new();
                let tmp = format!("_retv{}", e.index());
                for &(k, t) in &cells {
                    let c = self.expr_c(*e, Some(k), 0)?;
                    v.push(self.decl(&comp_name(&tmp, k), t, c, at));
                }
                for &(k, _) in &cells {
                    let target = self.ident(&comp_name("_ret", k), at);
                    let val = self.ident(&comp_name(&tmp, k), at);
                    v.push(stmt(
                        StmtKind::Expr(ex(
                            ExprKind::Assign(None, Box::new(target), Box::new(val)),
                            at,
                        )),
                        at,
                    ));
                }
                v.push(stmt(StmtKind::Return(None), at));
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
            Statement::Store { pointer, value } if self.held_cells(*value).is_some() => {
                // Component by component (cell by cell for a matrix or struct; padding is
                // never written), through temporaries first: `v = v.yx` reads the old
                // components (WGSL § Assignment: the right side is evaluated first).
                let cells = self.held_cells(*value).unwrap_or_default();
                let tmp = format!("_store{}", value.index());
                let mut v = Vec::new();
                for &(k, t) in &cells {
                    let e = self.expr_c(*value, Some(k), 0)?;
                    v.push(self.decl(&comp_name(&tmp, k), t, e, at));
                }
                for &(k, t) in &cells {
                    let p = self.place_c(*pointer, Some(k), 0)?;
                    let p = self.typed_view(*pointer, t.scalar, &p, at).unwrap_or(p);
                    let src = self.ident(&comp_name(&tmp, k), at);
                    let src = self.value_to_cell(*pointer, t.scalar, src, at);
                    v.push(assign(p, src, at));
                }
                vec![stmt(StmtKind::Block(v), at)]
            }
            Statement::Store { pointer, value } => {
                let p = self.place(*pointer, 0)?;
                let v = self.expr(*value, 0)?;
                let p = match self.scalar_ty(*value, at) {
                    Ok(t) => self.typed_view(*pointer, t.scalar, &p, at).unwrap_or(p),
                    Err(_) => p,
                };
                let v = match self.scalar_ty(*value, at) {
                    Ok(t) => self.value_to_cell(*pointer, t.scalar, v, at),
                    Err(_) => v,
                };
                vec![assign(p, v, at)]
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
                    AtomicFunction::Exchange { compare: Some(cmp) } => {
                        return self.compare_exchange(*pointer, *cmp, *value, *result, at);
                    }
                };
                let p = self.atomic_address(*pointer, at)?;
                let v = self.expr(*value, 0)?;
                let c = call(name, vec![p, v]);
                vec![self.call_stmt(*result, c, None, at)?]
            }
            Statement::WorkGroupUniformLoad { pointer, result } => {
                // WGSL § workgroupUniformLoad: a workgroup barrier, then the load.
                let barrier = stmt(StmtKind::Expr(call("__syncthreads", vec![])), at);
                if let Some(cells) = self.value_cells(*result) {
                    // A vector, matrix, struct or array: one local per cell, as a `let` of
                    // that value holds it (`s.a`, `s.v.x`, …), each read as its type.
                    let name = self.result_name(*result);
                    let mut v = vec![barrier];
                    for (k, t) in cells {
                        let p = self.place_c(*pointer, Some(k), 0)?;
                        let init = self.cell_to_value(*pointer, t.scalar, p, at);
                        v.push(self.decl(&comp_name(&name, k), t, init, at));
                    }
                    v
                } else {
                    let p = self.place(*pointer, 0)?;
                    let t = self.scalar_ty(*result, at)?;
                    let name = self.result_name(*result);
                    vec![barrier, self.decl(&name, t, p, at)]
                }
            }
            Statement::Call {
                function,
                arguments,
                result,
            } => {
                let f = &self.module().functions[*function];
                if self.shader.elect_appended && f.name.as_deref() == Some("subgroupElect") {
                    // naga 30 gap (https://github.com/gfx-rs/wgpu/issues/6042): the registry's subgroupElect, not the helper.
                    let c = call("subgroupElect", vec![]);
                    vec![self.call_stmt(*result, c, Some(ValTy::scalar(Scalar::Bool)), at)?]
                } else {
                    // A helper function: the engine inlines the device function of its name
                    // (see `helpers`), its result held in a local named as the user's `let`.
                    let name = f
                        .name
                        .clone()
                        .unwrap_or_else(|| format!("function{}", function.index()));
                    let mut args = Vec::new();
                    // A pointer to a structure's array member passes a temporary copied in
                    // and back (`ptr_member`).
                    let (mut before, mut after) = (Vec::new(), Vec::new());
                    for a in arguments {
                        if let TypeInner::Pointer { base, space } = self.ty_inner(*a) {
                            let (base, space) = (*base, *space);
                            if let Some((pre, arg, post)) =
                                self.member_array_argument(*a, base, space, at)?
                            {
                                before.extend(pre);
                                args.push(arg);
                                after.extend(post);
                                continue;
                            }
                            args.extend(self.pointer_argument(*a, base, space, at)?);
                            continue;
                        }
                        match self.held_cells(*a) {
                            // A vector, matrix or struct argument: its cells, as the
                            // parameters are.
                            Some(cells) => {
                                for (c, _) in cells {
                                    args.push(self.expr_c(*a, Some(c), 0)?);
                                }
                            }
                            None => args.push(self.expr(*a, 0)?),
                        }
                    }
                    let mut v = before;
                    match result.and_then(|r| self.value_cells(r).map(|n| (r, n))) {
                        Some((r, cells)) => {
                            // A composite result: locals `r.x`, … passed as the reference
                            // parameters the helper writes.
                            let rname = self.result_name(r);
                            for (c, t) in cells {
                                v.push(self.decl(&comp_name(&rname, c), t, zero(t, at), at));
                                args.push(self.ident(&comp_name(&rname, c), at));
                            }
                            v.push(stmt(StmtKind::Expr(call(&name, args)), at));
                        }
                        None => v.push(self.call_stmt(*result, call(&name, args), None, at)?),
                    }
                    v.extend(after);
                    v
                }
            }
            Statement::SubgroupBallot { result, predicate } => {
                let p = match predicate {
                    Some(p) => self.expr(*p, 0)?,
                    None => ex(ExprKind::Bool(true), at),
                };
                self.ballots.insert(*result);
                let c = call("subgroupBallot", vec![p]);
                let mut v =
                    vec![self.call_stmt(Some(*result), c, Some(ValTy::scalar(Scalar::U64)), at)?];
                if self.lanes > 64 {
                    v.extend(self.ballot_high_words(*result, *predicate, at)?);
                }
                v
            }
            Statement::SubgroupGather {
                mode,
                argument,
                result,
            } => {
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
                // A vector operand: one call per component, each component its own subgroup
                // operation (WGSL § Subgroup Built-in Functions: component-wise).
                self.per_component(*argument, *result, None, at, |me, c| {
                    let mut args = vec![me.expr_c(*argument, c, 0)?];
                    if let Some(x) = extra {
                        let e = me.expr(x, 0)?;
                        let eat = me.espan(x, at);
                        // An i32 id or delta (the spec allows it; naga 30 only u32) as u32.
                        args.push(cast(Scalar::U32, e, eat));
                    }
                    Ok(call(name, args))
                })?
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
                let t = if matches!(op, SubgroupOperation::All | SubgroupOperation::Any) {
                    Some(ValTy::scalar(Scalar::Bool))
                } else {
                    None
                };
                self.per_component(*argument, *result, t, at, |me, c| {
                    let arg = me.expr_c(*argument, c, 0)?;
                    Ok(call(&name, vec![arg]))
                })?
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

    /// The statements of a call on `argument` whose result is held in `result`: one call
    /// (`make(me, None)`) for a scalar, one per component (`make(me, Some(k))`) held in the
    /// locals `r.x`, `r.y`, … for a vector.
    pub(super) fn per_component(
        &mut self,
        argument: Handle<Expression>,
        result: Handle<Expression>,
        t: Option<ValTy>,
        at: ast::Span,
        mut make: impl FnMut(&mut Self, Option<u32>) -> Result<Expr, KernelError>,
    ) -> Result<Vec<Stmt>, KernelError> {
        let Some(n) = self.vector(argument) else {
            let c = make(self, None)?;
            return Ok(vec![self.call_stmt(Some(result), c, t, at)?]);
        };
        let ct = self.comp_ty(result, at)?;
        let name = self.result_name(result);
        let mut v = Vec::new();
        for k in 0..n {
            let c = make(self, Some(k))?;
            v.push(self.decl(&comp_name(&name, k), ct, c, at));
        }
        Ok(v)
    }

    /// WGSL § atomicCompareExchangeWeak: one atomicCAS; its result struct is held as the
    /// locals `r.old_value` and `r.exchanged` (old value == `cmp`). The spec lets the weak
    /// form fail spuriously; the emulator never does (it has no contention to model).
    pub(super) fn compare_exchange(
        &mut self,
        pointer: Handle<Expression>,
        cmp: Handle<Expression>,
        value: Handle<Expression>,
        result: Option<Handle<Expression>>,
        at: ast::Span,
    ) -> Result<Vec<Stmt>, KernelError> {
        let p = self.atomic_address(pointer, at)?;
        let c = self.expr(cmp, 0)?;
        let v = self.expr(value, 0)?;
        let t = self.scalar_ty(value, at)?;
        let call = ex(ExprKind::Call("atomicCAS".into(), vec![p, c, v]), at);
        let Some(r) = result else {
            return Ok(vec![stmt(StmtKind::Expr(call), at)]);
        };
        let name = self.result_name(r);
        let old = format!("{name}.old_value");
        let first = self.decl(&old, t, call, at);
        let o = self.ident(&old, at);
        let c2 = self.expr(cmp, 0)?;
        let second = self.decl(
            &format!("{name}.exchanged"),
            ValTy::scalar(Scalar::Bool),
            bin(BinOp::Eq, o, c2, at),
            at,
        );
        Ok(vec![first, second])
    }
}

impl Lower<'_> {
    /// The address an atomic acts on: `&cell`, or `(int*)&cell` for an `atomic<i32>` member
    /// of a struct held as `u32` bits (a struct mixing 32-bit types; `(unsigned*)` for the
    /// reverse), so the engine's atomic takes the member's type: `atomicMax`/`atomicMin`
    /// compare as the member's type (WGSL § Atomic Read-modify-write: `T` is the atomic's
    /// type) and the old value comes back as one.
    pub(super) fn atomic_address(
        &mut self,
        pointer: Handle<Expression>,
        at: ast::Span,
    ) -> Result<Expr, KernelError> {
        let p = self.place(pointer, 0)?;
        let addr = ex(ExprKind::AddrOf(Box::new(p)), at);
        let member = match self.ty_inner(pointer) {
            TypeInner::Pointer { base, .. } => match self.module().types[*base].inner {
                TypeInner::Atomic(s) | TypeInner::Scalar(s) => scalar_of(s),
                _ => None,
            },
            _ => None,
        };
        Ok(match (self.root_cells(pointer), member) {
            (Some((_, cell)), Some(want)) if cell != want && cell.bits() == want.bits() => ex(
                ExprKind::Cast(Ty::Ptr(ValTy::scalar(want)), Box::new(addr)),
                at,
            ),
            _ => addr,
        })
    }

    /// The arguments a pointer argument `a` (to `base` in `space`) passes: the address of the
    /// pointee's first cell for a cell-pointer parameter (see `places::pointer_kind`; an array
    /// local passes itself), else the pointee's cells as lvalues for the reference parameters.
    ///
    /// # Errors
    /// A pointer into a struct whose cells hold bits of another type (a struct mixing 32-bit
    /// types), which the callee could not convert.
    pub(super) fn pointer_argument(
        &mut self,
        a: Handle<Expression>,
        base: Handle<naga::Type>,
        space: AddressSpace,
        at: ast::Span,
    ) -> Result<Vec<Expr>, KernelError> {
        let inner = self.module().types[base].inner.clone();
        if places::pointer_kind(space, &inner) {
            let want = types::cell_scalar(self.module(), &inner)
                .ok()
                .and_then(scalar_of);
            if let (Some((_, have)), Some(want)) = (self.root_cells(a), want) {
                if have != want {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "a pointer into a struct mixing 32-bit types, passed to a function, is \
                         not emulated yet (its cells hold another type's bits)",
                    ));
                }
            }
            let first = if self.type_cells(&inner).is_some() {
                self.place_c(a, Some(0), 0)?
            } else {
                self.place(a, 0)?
            };
            return Ok(vec![match first.kind {
                // An array variable passes itself (it decays to its first cell's address).
                ExprKind::Ident(_) => first,
                _ => ex(ExprKind::AddrOf(Box::new(first)), at),
            }]);
        }
        match self.type_cells(&inner) {
            Some(cells) => cells
                .into_iter()
                .map(|(c, _)| self.place_c(a, Some(c), 0))
                .collect(),
            None => Ok(vec![self.place(a, 0)?]),
        }
    }
}

/// `place = value`; a place chosen at run time among locals (`c ? a : b`, see
/// `Lower::place_c`) becomes an if/else assigning the one chosen.
fn assign(place: Expr, value: Expr, at: ast::Span) -> Stmt {
    match place.kind {
        ExprKind::Ternary(c, a, b) => stmt(
            StmtKind::If(
                *c,
                Box::new(assign(*a, value.clone(), at)),
                Some(Box::new(assign(*b, value, at))),
            ),
            at,
        ),
        kind => stmt(
            StmtKind::Expr(ex(
                ExprKind::Assign(None, Box::new(Expr::new(kind, place.span)), Box::new(value)),
                at,
            )),
            at,
        ),
    }
}

impl Lower<'_> {
    /// Binds each `let` declared at the top level of a loop body to its name before the body
    /// is lowered, as the body's `Emit` then does (the same name, so the binding is
    /// unchanged); the loop's continuing block, lowered first, then reads the body's
    /// variables rather than recomputing their expressions.
    fn name_body_lets(&mut self, body: &naga::Block) {
        for s in body.iter() {
            // A `let` of a call's, an atomic's or a subgroup operation's result: the name its
            // statement gives it (`result_name`). (A ballot's result is left to its statement,
            // which also marks it as a ballot.)
            let result = match s {
                Statement::Call { result, .. } | Statement::Atomic { result, .. } => *result,
                Statement::SubgroupCollectiveOperation { result, .. }
                | Statement::SubgroupGather { result, .. }
                | Statement::WorkGroupUniformLoad { result, .. } => Some(*result),
                _ => None,
            };
            if let Some(r) = result {
                if let Some(name) = self.func.named_expressions.get(&r).cloned() {
                    if self.value_cells(r).is_none() {
                        self.baked.insert(r, name);
                    }
                }
            }
            let Statement::Emit(range) = s else {
                continue;
            };
            for h in range.clone() {
                let Some(name) = self.func.named_expressions.get(&h).cloned() else {
                    continue;
                };
                if matches!(
                    self.ty_inner(h),
                    TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. }
                ) || self.is_modf_frexp(h)
                {
                    continue;
                }
                self.baked.insert(h, name);
            }
        }
    }
}

/// A short-circuit pair as naga lowers it: whether it is `&&`, the left operand, the right
/// operand and the pointer of the local that holds the result.
type ShortCircuit = (
    bool,
    Handle<Expression>,
    Handle<Expression>,
    Handle<Expression>,
);

impl Lower<'_> {
    /// naga's lowering of `a && b` / `a || b` (its WGSL front end, `logical`): `if a { t = b }
    /// else { t = false }`, or `if !a { t = b } else { t = true }`, into a nameless local `t`.
    /// When `b` is a pure expression (the accept block only emits it and stores it), the pair
    /// runs again as one `&&` / `||` expression: the same value where `a` is defined, and where
    /// `a` is indeterminate (an out-of-range shuffle) the value `b` decides alone (`x || true`
    /// is true whatever `x` is: WGSL § Logical Expressions), where a branch on `a` would have
    /// no defined path. Returns whether it is `&&`, the left operand, the right operand and the
    /// local's pointer. A right operand with a call or a subgroup operation (a statement in
    /// naga's IR) keeps the branch: it runs only where `a` lets it.
    fn short_circuit(
        &self,
        condition: Handle<Expression>,
        accept: &naga::Block,
        reject: &naga::Block,
    ) -> Option<ShortCircuit> {
        let [Statement::Store {
            pointer,
            value: other,
        }] = reject.iter().as_slice()
        else {
            return None;
        };
        let Expression::Literal(naga::Literal::Bool(other)) = self.func.expressions[*other] else {
            return None;
        };
        let Expression::LocalVariable(l) = self.func.expressions[*pointer] else {
            return None;
        };
        if self.func.local_variables[l].name.is_some() {
            return None;
        }
        let (last, emits) = accept.iter().as_slice().split_last()?;
        let Statement::Store {
            pointer: p2,
            value: right,
        } = last
        else {
            return None;
        };
        if p2 != pointer || !emits.iter().all(|s| matches!(s, Statement::Emit(_))) {
            return None;
        }
        // `&&`: the other path stores false and the condition is `a`; `||`: true and `!a`.
        let and = !other;
        let left = if and {
            condition
        } else {
            match self.func.expressions[condition] {
                Expression::Unary {
                    op: naga::UnaryOperator::LogicalNot,
                    expr,
                } => expr,
                _ => return None,
            }
        };
        Some((and, left, *right, *pointer))
    }
}
