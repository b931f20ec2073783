//! naga expressions → engine expressions, one vector component at a time.

use super::*;

impl Lower<'_> {
    pub(super) fn expr(&mut self, h: Handle<Expression>, depth: u32) -> Result<Expr, KernelError> {
        self.expr_c(h, None, depth)
    }

    /// Component `k` of the vector `h` (vectors are held by components: WGSL § Vector
    /// Expressions are component-wise); `h` itself when it is a scalar (`k` is ignored, so a
    /// scalar operand of a vector operation is read for each component).
    pub(super) fn expr_c(
        &mut self,
        h: Handle<Expression>,
        k: Option<u32>,
        depth: u32,
    ) -> Result<Expr, KernelError> {
        let at = self.espan(h, ast::Span { line: 1, col: 1 });
        if depth > self.max_depth {
            return Err(depth_err(at, self.max_depth));
        }
        if let (Some(c), true) = (k, self.is_ballot_expr(h)) {
            // A component of a `subgroupBallot` result (held whole as a u64): stored, passed
            // or used component-wise like any vec4<u32>.
            return self.ballot_component(h, c, at, depth + 1);
        }
        let k = match self.value_cells(h) {
            Some(_) => Some(k.ok_or_else(|| {
                KernelError::new(
                    at.line,
                    at.col,
                    "a whole vector here is not emulated yet (vectors are emulated component \
                     by component: in arithmetic, constructors, swizzles, loads and stores)",
                )
            })?),
            None => None,
        };
        if let Some(name) = self.baked.get(&h).cloned() {
            return Ok(match k {
                Some(k) => self.ident(&comp_name(&name, k), at),
                None => self.ident(&name, at),
            });
        }
        let d = depth + 1;
        Ok(match &self.func.expressions[h] {
            Expression::Literal(l) => literal(*l, at),
            Expression::Constant(c) => {
                let init = self.module().constants[*c].init;
                self.global_const_c(init, k, at)?
            }
            Expression::ZeroValue(_) => {
                let t = self.cell_ty(h, k, at)?;
                zero(t, at)
            }
            Expression::Splat { value, .. } => self.expr(*value, d)?,
            Expression::Swizzle {
                vector, pattern, ..
            } => {
                let c = pattern[k.unwrap_or(0) as usize] as u32;
                self.expr_c(*vector, Some(c), d)?
            }
            Expression::Compose { components, .. } if k.is_some() && self.vector(h).is_none() => {
                // A matrix, struct or array constructor: each component at its layout cell.
                let k = k.unwrap_or(0);
                let starts = self.component_starts(h);
                let mut pick = None;
                for (&c, &start) in components.iter().zip(&starts).rev() {
                    if start <= k {
                        pick = Some((c, k - start));
                        break;
                    }
                }
                let (c, kk) = pick.ok_or_else(|| {
                    KernelError::new(at.line, at.col, "a constructor with too few values")
                })?;
                // `kk` counts the constructed value's cells; a component of wider cells (an
                // `array<u32, N>` in a struct mixing `f16` with 4-byte scalars, held in 2-byte
                // cells) numbers its own (WGSL § 13.4 Memory Layout: byte offsets agree).
                let module = self.module();
                let pw = types::cell_width(module, self.ty_inner(h));
                let cw = types::cell_width(module, self.ty_inner(c));
                let kk = if cw > pw && pw > 0 { kk * pw / cw } else { kk };
                self.expr_c(c, Some(kk), d)?
            }
            Expression::Compose { components, .. } if k.is_some() => {
                // `vec4(a.xy, b, c)`: the k-th scalar of the components laid end to end.
                let mut k = k.unwrap_or(0);
                let mut pick = None;
                for &c in components {
                    let n = self.vector(c).unwrap_or(1);
                    if k < n {
                        pick = Some((c, k));
                        break;
                    }
                    k -= n;
                }
                let (c, kk) = pick.ok_or_else(|| {
                    KernelError::new(at.line, at.col, "a vector constructor with too few values")
                })?;
                self.expr_c(c, Some(kk), d)?
            }
            Expression::FunctionArgument(i) => match self.arg_builtin(*i) {
                Some(b) => self.builtin_value(b, k, at)?,
                // A helper's parameter: the device function's parameter of its name.
                None if !self.entry_args => {
                    let name = self
                        .func
                        .arguments
                        .get(*i as usize)
                        .and_then(|a| a.name.clone())
                        .unwrap_or_else(|| format!("arg{i}"));
                    match k {
                        Some(c) => self.ident(&comp_name(&name, c), at),
                        None => self.ident(&name, at),
                    }
                }
                None => match k.and_then(|c| self.arg_member_at_cell(*i, c)) {
                    // Cell `c` of a structure of built-in inputs passed whole (`helper(inputs)`,
                    // `let b = inputs;`): the member's built-in, component by component.
                    Some((b, comp)) => self.builtin_value(b, comp, at)?,
                    None => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            "an entry point parameter that is neither a built-in value nor a \
                             structure of them: the emulator runs compute shaders, whose \
                             inputs are built-in values",
                        ))
                    }
                },
            },
            Expression::AccessIndex { base, index } => {
                if let Expression::FunctionArgument(i) = self.func.expressions[*base] {
                    if let Some(b) = self.arg_builtin(i) {
                        return self.builtin_value(b, Some(*index), at);
                    }
                    if let Some(b) = self.arg_member_builtin(i, *index) {
                        return self.builtin_value(b, k, at);
                    }
                }
                if let Some(e) = self.modf_frexp_member(*base, *index, k, d, at)? {
                    return Ok(e);
                }
                if self.is_ballot_expr(*base) || self.baked_ballot(*base) {
                    return self.ballot_component(*base, *index, at, d);
                }
                if matches!(
                    self.ty_inner(*base),
                    TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. }
                ) {
                    self.place_c(h, k, d)?
                } else if self.vector(*base).is_some() {
                    self.expr_c(*base, Some(*index), d)?
                } else if self.value_cells(*base).is_some() {
                    // A column of a matrix value, a member of a struct value: its cells. `k`
                    // counts the member's own cells; a member of wider cells (an `array<u32,
                    // N>` in a struct mixing `f16` with 4-byte scalars, held in 2-byte cells)
                    // starts its cell k at byte 4k (WGSL § 13.4 Memory Layout).
                    let start = self.element_start(*base, *index);
                    let module = self.module();
                    let pw = types::cell_width(module, self.ty_inner(*base));
                    let cw = types::cell_width(module, self.ty_inner(h));
                    let k = k.unwrap_or(0);
                    let k = if cw > pw && pw > 0 { k * (cw / pw) } else { k };
                    self.expr_c(*base, Some(start + k), d)?
                } else if let (Some(name), TypeInner::Struct { members, .. }) =
                    (self.baked.get(base).cloned(), self.ty_inner(*base))
                {
                    // A member of a held struct result (atomicCompareExchangeWeak's).
                    let member = members
                        .get(*index as usize)
                        .and_then(|m| m.name.clone())
                        .unwrap_or_default();
                    self.ident(&format!("{name}.{member}"), at)
                } else {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "a component of a vector or struct value is not emulated yet",
                    ));
                }
            }
            Expression::Access { base, index }
                if !matches!(
                    self.ty_inner(*base),
                    TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. }
                ) && self.value_cells(*base).is_some() =>
            {
                // `v[i]` / `m[i]` / `a[i]` on a value (a `let` or `const` array, a lookup
                // table) with `i` known at run time: a select over the components, columns or
                // elements, as a balanced tree of `i < mid ? … : …` (depth log2 n, whatever the
                // array's length). WGSL § Vector Access Expression and § Array Access
                // Expression: an index out of range gives an indeterminate value (§
                // Out-of-Bounds Access: for a value, not a memory view, "any value" of the
                // element type): undefined in those lanes, with the index and the bound.
                let n =
                    match self.ty_inner(*base) {
                        TypeInner::Vector { size, .. } => *size as u32,
                        TypeInner::Matrix { columns, .. } => *columns as u32,
                        TypeInner::Array {
                            size: ArraySize::Constant(n),
                            ..
                        } => n.get(),
                        _ => return Err(KernelError::new(
                            at.line,
                            at.col,
                            "an element of a value chosen at run time is emulated for vectors, \
                             matrices and fixed-size arrays only",
                        )),
                    };
                let what = match self.ty_inner(*base) {
                    TypeInner::Vector { .. } => "components of the vector",
                    TypeInner::Matrix { .. } => "columns of the matrix",
                    _ => "elements of the array",
                };
                let tree = self.select_element(*base, *index, (0, n), k.unwrap_or(0), d, at)?;
                let i = cast(Scalar::U32, self.expr(*index, d)?, at);
                let keep = bin(BinOp::Lt, i, int_lit(u64::from(n), at), at);
                let why = format!(
                    "run-time index out of range: a value (a `let` or `const`, not a memory \
                     view) indexed outside its {n} {what} (valid indices 0..={}) gives an \
                     indeterminate value (WGSL spec, § Out-of-Bounds Access; § Array Access \
                     Expression)",
                    n - 1
                );
                let shown = self.expr(*index, d)?;
                ex(
                    ExprKind::Call(
                        crate::builtins::VALID_ONLY.into(),
                        vec![tree, keep, ex(ExprKind::Str(why), at), shown],
                    ),
                    at,
                )
            }
            Expression::Access { .. } => self.place_c(h, k, d)?,
            Expression::GlobalVariable(_) | Expression::LocalVariable(_) => {
                self.place_c(h, k, d)?
            }
            Expression::Load { pointer } => {
                let p = self.place_c(*pointer, k, d)?;
                match self.cell_ty(h, k, at) {
                    Ok(t) => self.cell_to_value(*pointer, t.scalar, p, at),
                    Err(_) => p,
                }
            }
            Expression::Unary { op, expr } => {
                let e = self.expr_c(*expr, k, d)?;
                if *op == UnaryOperator::Negate
                    && matches!(self.comp_inner(h), TypeInner::Scalar(s) if s.kind == ScalarKind::Sint && s.width == 4)
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
                // Component-wise on vectors (WGSL § Arithmetic Expressions): component k of
                // each vector operand, a scalar operand as itself.
                if *op == BinaryOperator::Multiply {
                    if let Some(e) = self.matrix_product(*left, *right, k, d, at)? {
                        return Ok(e);
                    }
                }
                let t = self.comp_inner(h);
                if !matches!(t, TypeInner::Scalar(_)) {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "matrix arithmetic is not emulated yet",
                    ));
                }
                let a = self.expr_c(*left, k, d)?;
                let mut b = self.expr_c(*right, k, d)?;
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
                        let ks = scalar_of(s).unwrap_or(Scalar::U32);
                        let b2 = self.expr_c(*right, k, d)?;
                        let mut bad = bin(BinOp::Eq, b2, cast(ks, int_lit(0, at), at), at);
                        if signed {
                            let a2 = self.expr_c(*left, k, d)?;
                            let b3 = self.expr_c(*right, k, d)?;
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
                                Box::new(cast(ks, int_lit(1, at), at)),
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
                let c = self.expr_c(*condition, k, d)?;
                let a = self.expr_c(*accept, k, d)?;
                let r = self.expr_c(*reject, k, d)?;
                ex(ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(r)), at)
            }
            Expression::Math {
                fun,
                arg,
                arg1,
                arg2,
                arg3,
            } => {
                let args = [Some(*arg), *arg1, *arg2, *arg3];
                self.math(h, *fun, &args, k, d, at)?
            }
            Expression::As {
                expr,
                kind,
                convert,
            } => {
                let e = self.expr_c(*expr, k, d)?;
                let from = self.comp_ty(*expr, at)?.scalar;
                let to = self.comp_ty(h, at)?.scalar;
                match convert {
                    // WGSL § 15.7.6: float → integer rounds toward zero and saturates (C:
                    // undefined out of range); run by the WGSL built-ins table.
                    Some(_) if from.is_float() && matches!(to, Scalar::I32 | Scalar::U32) => {
                        let n = if to == Scalar::I32 {
                            "wgsl.i32"
                        } else {
                            "wgsl.u32"
                        };
                        ex(ExprKind::Call(n.into(), vec![e]), at)
                    }
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
            Expression::Override(o) => self.override_value(*o, at)?,
            Expression::Relational { fun, argument } => {
                // WGSL § all / any: the && / || of the components (a bool scalar is itself).
                let n = self.vector(*argument);
                let and = match fun {
                    naga::RelationalFunction::All => true,
                    naga::RelationalFunction::Any => false,
                    other => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!("the relational built-in {other:?} is not emulated yet"),
                        ))
                    }
                };
                let mut acc = self.expr_c(*argument, n.map(|_| 0), d)?;
                for c in 1..n.unwrap_or(1) {
                    let x = self.expr_c(*argument, Some(c), d)?;
                    acc = ex(ExprKind::Logical(and, Box::new(acc), Box::new(x)), at);
                }
                acc
            }
            Expression::ArrayLength(p) => {
                // `arrayLength(&buf)` or `arrayLength(&buf.data)` (the struct's last member).
                let root = match &self.func.expressions[*p] {
                    Expression::AccessIndex { base, .. } => *base,
                    _ => *p,
                };
                let name = match &self.func.expressions[root] {
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

impl Lower<'_> {
    /// Cell `k` of the element `index` (known at run time) of the value `base`, among its
    /// elements `lo..hi`: a balanced tree of selects, so its depth grows as log2 of the
    /// element count. An index past the end takes the last element here; the caller makes
    /// such a lane undefined.
    fn select_element(
        &mut self,
        base: Handle<Expression>,
        index: Handle<Expression>,
        (lo, hi): (u32, u32),
        k: u32,
        d: u32,
        at: ast::Span,
    ) -> Result<Expr, KernelError> {
        if hi - lo <= 1 {
            let start = self.element_start(base, lo);
            return self.expr_c(base, Some(start + k), d);
        }
        let mid = lo + (hi - lo) / 2;
        let left = self.select_element(base, index, (lo, mid), k, d, at)?;
        let right = self.select_element(base, index, (mid, hi), k, d, at)?;
        let i = cast(Scalar::U32, self.expr(index, d)?, at);
        let c = bin(BinOp::Lt, i, int_lit(u64::from(mid), at), at);
        Ok(ex(
            ExprKind::Ternary(Box::new(c), Box::new(left), Box::new(right)),
            at,
        ))
    }
}
