//! Places (pointers into buffers, workgroup and local variables), built-in values and const-expressions.

use super::*;

impl Lower<'_> {
    /// WGSL § subgroupBroadcast / quadBroadcast: `id` must be a const-expression.
    pub(super) fn require_const(
        &self,
        id: Handle<Expression>,
        op: &str,
        arg: &str,
        at: ast::Span,
    ) -> Result<(), KernelError> {
        let is_const = match self.func.expressions[id] {
            Expression::Literal(_) | Expression::Constant(_) | Expression::ZeroValue(_) => true,
            Expression::As { expr, .. } => matches!(
                self.func.expressions[expr],
                Expression::Literal(_) | Expression::Constant(_)
            ),
            _ => false,
        } || self.func.expressions.is_empty();
        if is_const {
            Ok(())
        } else {
            let s = self.espan(id, at);
            Err(KernelError::new(
                s.line,
                s.col,
                format!(
                    "{op}: `{arg}` must be a const-expression (WGSL spec, Subgroup Built-in \
                     Functions: {op}; a value computed at run time is a shader-creation error)"
                ),
            ))
        }
    }

    pub(super) fn global_const(
        &mut self,
        e: Handle<Expression>,
        at: ast::Span,
    ) -> Result<Expr, KernelError> {
        match &self.module().global_expressions[e] {
            Expression::Literal(l) => Ok(literal(*l, at)),
            Expression::ZeroValue(t) => {
                let (elem, _, _) =
                    elem_of(self.module(), *t).map_err(|m| KernelError::new(at.line, at.col, m))?;
                Ok(zero(elem, at))
            }
            _ => Err(KernelError::new(
                at.line,
                at.col,
                "only literal constants are emulated here",
            )),
        }
    }

    /// Cell `k` of the module-scope constant expression `e` (a `const` vector, matrix, array
    /// or struct: `const T = array<u32, 4>(…)`), laid out as WGSL lays out its bytes (WGSL §
    /// Alignment and Size, as every value held by cells); `e` itself for a scalar.
    pub(super) fn global_const_c(
        &mut self,
        e: Handle<Expression>,
        k: Option<u32>,
        at: ast::Span,
    ) -> Result<Expr, KernelError> {
        let Some(k) = k else {
            return self.global_const(e, at);
        };
        let module = self.module();
        let top = match &module.global_expressions[e] {
            Expression::Compose { ty, .. } | Expression::ZeroValue(ty) => *ty,
            _ => return self.global_const(e, at),
        };
        let w = types::cell_width(module, &module.types[top].inner);
        // Walk down to the scalar holding cell `k` (bounded by the type's nesting).
        let (mut cur, mut ty, mut k) = (e, top, k);
        for _ in 0..=self.max_depth {
            let module = self.module();
            match &module.global_expressions[cur] {
                Expression::Compose { components, .. } => {
                    let inner = &module.types[ty].inner;
                    // Each component's first cell and type.
                    let starts: Vec<(u32, Option<Handle<naga::Type>>)> = match inner {
                        TypeInner::Array { base, stride, .. } => (0..components.len() as u32)
                            .map(|j| (j * stride / w, Some(*base)))
                            .collect(),
                        TypeInner::Struct { members, .. } => {
                            members.iter().map(|m| (m.offset / w, Some(m.ty))).collect()
                        }
                        TypeInner::Matrix { rows, scalar, .. } => {
                            let cs = types::column_stride(*rows, *scalar, w);
                            (0..components.len() as u32)
                                .map(|j| (j * cs, None))
                                .collect()
                        }
                        // A vector: its components end to end (a vector component counts
                        // its size).
                        _ => {
                            let mut at_cell = 0;
                            let mut v = Vec::new();
                            for &c in components {
                                v.push((at_cell, None));
                                at_cell += match &module.global_expressions[c] {
                                    Expression::Compose { ty, .. } | Expression::ZeroValue(ty) => {
                                        types::vec_comps_in(module, &module.types[*ty].inner)
                                    }
                                    Expression::Splat { size, .. } => *size as u32,
                                    _ => 1,
                                };
                            }
                            v
                        }
                    };
                    let Some(j) = starts.iter().rposition(|s| s.0 <= k) else {
                        break;
                    };
                    k -= starts[j].0;
                    cur = components[j];
                    ty = match (starts[j].1, &module.global_expressions[cur]) {
                        (Some(t), _) => t,
                        (None, Expression::Compose { ty, .. } | Expression::ZeroValue(ty)) => *ty,
                        (None, _) => ty,
                    };
                }
                Expression::Splat { value, .. } => cur = *value,
                Expression::ZeroValue(t) => {
                    let t = *t;
                    let cells = self.type_cells(&self.module().types[t].inner);
                    let elem = match cells.and_then(|c| c.into_iter().find(|c| c.0 == k)) {
                        Some((_, v)) => v,
                        None => {
                            elem_of(self.module(), t)
                                .map_err(|m| KernelError::new(at.line, at.col, m))?
                                .0
                        }
                    };
                    return Ok(zero(elem, at));
                }
                _ => return self.global_const(cur, at),
            }
        }
        Err(KernelError::new(
            at.line,
            at.col,
            "a constant of this shape is not emulated yet (scalars, vectors, matrices, arrays \
             and structs of literals are)",
        ))
    }

    /// The lvalue a pointer expression names (`buf[i]`, `x`).
    pub(super) fn place(&mut self, h: Handle<Expression>, depth: u32) -> Result<Expr, KernelError> {
        self.place_c(h, None, depth)
    }

    /// The lvalue of component `k` of what the pointer `h` names when that is a vector (held
    /// flat: `buf[i * N + k]`, or the local `v.x`); as [`Self::place`] otherwise.
    pub(super) fn place_c(
        &mut self,
        h: Handle<Expression>,
        k: Option<u32>,
        depth: u32,
    ) -> Result<Expr, KernelError> {
        let at = self.espan(h, ast::Span { line: 1, col: 1 });
        if depth > self.max_depth {
            return Err(depth_err(at, self.max_depth));
        }
        if let Some(e) = self.flat_place(h, k, depth)? {
            return Ok(e);
        }
        let (own, _) = self.pointee(h);
        let array = matches!(
            self.ty_inner(h),
            TypeInner::Pointer { base, .. }
                if matches!(self.module().types[*base].inner, TypeInner::Array { .. })
        );
        let k = if own > 1 {
            Some(k.ok_or_else(|| {
                KernelError::new(at.line, at.col, "a whole vector here is not emulated yet")
            })?)
        } else if array {
            // A cell of a whole array (its elements' cells, in order).
            k
        } else {
            None
        };
        let cell = |i: Expr, n: u32, k: u32| {
            if n > 1 {
                bin(
                    BinOp::Add,
                    bin(
                        BinOp::Mul,
                        cast(Scalar::U32, i, at),
                        int_lit(n.into(), at),
                        at,
                    ),
                    int_lit(k.into(), at),
                    at,
                )
            } else {
                i
            }
        };
        match &self.func.expressions[h] {
            Expression::GlobalVariable(g) => {
                let var = &self.module().global_variables[*g];
                let name = var
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("global{}", g.index()));
                let private = matches!(var.space, AddressSpace::Private);
                let one_cell = !private
                    && !matches!(self.module().types[var.ty].inner, TypeInner::Array { .. });
                if let Some(k) = k {
                    if private {
                        return Ok(self.ident(&comp_name(&name, k), at));
                    }
                    let id = self.ident(&name, at);
                    return Ok(ex(
                        ExprKind::Index(Box::new(id), Box::new(int_lit(k.into(), at))),
                        at,
                    ));
                }
                let id = self.ident(&name, at);
                Ok(if one_cell {
                    ex(ExprKind::Index(Box::new(id), Box::new(int_lit(0, at))), at)
                } else {
                    id
                })
            }
            Expression::FunctionArgument(i) if !self.entry_args => {
                // A helper's pointer parameter: the reference parameter(s) of its name, or
                // the cell pointer (`p[k]`; an array pointee is indexed by the access).
                let name = self.arg_name(*i);
                if let Some((_, array)) = self.cell_param(*i) {
                    let id = self.ident(&name, at);
                    return Ok(if array {
                        id
                    } else {
                        let c = int_lit(u64::from(k.unwrap_or(0)), at);
                        ex(ExprKind::Index(Box::new(id), Box::new(c)), at)
                    });
                }
                Ok(match k {
                    Some(c) => self.ident(&comp_name(&name, c), at),
                    None => self.ident(&name, at),
                })
            }
            Expression::LocalVariable(l) => {
                let name = self.local_name(*l);
                let ty = self.func.local_variables[*l].ty;
                if let (TypeInner::Array { .. }, Some(k)) = (&self.module().types[ty].inner, k) {
                    // A cell of a whole local array (held as the engine's array).
                    let id = self.ident(&name, at);
                    return Ok(ex(
                        ExprKind::Index(Box::new(id), Box::new(int_lit(k.into(), at))),
                        at,
                    ));
                }
                Ok(match k {
                    Some(k) => self.ident(&comp_name(&name, k), at),
                    None => self.ident(&name, at),
                })
            }
            Expression::Access { base, index } => {
                let (vec_base, elem_comps) = self.pointee(*base);
                if vec_base > 1 || self.root_held_by_cells(*base) {
                    // An element chosen at run time of a variable held one local per cell
                    // (a vector, matrix or struct local): a select over the elements, whose
                    // store becomes an if/else over them (see `assign`). WGSL § Vector Access
                    // Expression: an index out of range gives some element; here the last.
                    let (n, per) = match self.ty_inner(*base) {
                        TypeInner::Pointer { base: t, .. } => {
                            match &self.module().types[*t].inner {
                                TypeInner::Vector { size, .. } => (*size as u32, 1),
                                TypeInner::Matrix {
                                    columns,
                                    rows,
                                    scalar,
                                } => (
                                    *columns as u32,
                                    types::column_stride(*rows, *scalar, u32::from(scalar.width)),
                                ),
                                TypeInner::Array {
                                    size: ArraySize::Constant(n),
                                    ..
                                } => (n.get(), elem_comps),
                                _ => (0, 1),
                            }
                        }
                        TypeInner::ValuePointer { size: Some(s), .. } => (*s as u32, 1),
                        _ => (0, 1),
                    };
                    if n == 0 || n > 64 {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            "an element chosen at run time of this local is not emulated (at \
                             most 64 elements of a vector, matrix or array held by cells)",
                        ));
                    }
                    let k = k.unwrap_or(0);
                    let mut acc = self.place_c(*base, Some((n - 1) * per + k), depth + 1)?;
                    for j in (0..n - 1).rev() {
                        let e = self.place_c(*base, Some(j * per + k), depth + 1)?;
                        let i = cast(Scalar::U32, self.expr(*index, depth + 1)?, at);
                        let c = bin(BinOp::Eq, i, int_lit(u64::from(j), at), at);
                        acc = ex(
                            ExprKind::Ternary(Box::new(c), Box::new(e), Box::new(acc)),
                            at,
                        );
                    }
                    return Ok(acc);
                }
                let b = self.place(*base, depth + 1)?;
                let i = self.expr(*index, depth + 1)?;
                let i = cell(i, elem_comps, k.unwrap_or(0));
                Ok(ex(ExprKind::Index(Box::new(b), Box::new(i)), at))
            }
            Expression::AccessIndex { base, index } => {
                if let Some(starts) = self.struct_pointee(*base) {
                    // A member: its first cell in the struct, plus the component of a vector
                    // member.
                    // `k` counts the member's own cells: a member of wider cells (an
                    // `array<u32, N>` in a struct mixing `f16` with 4-byte scalars, held in
                    // 2-byte cells) starts its cell k at byte 4k (WGSL § 13.4 Memory Layout).
                    let first = starts.get(*index as usize).copied().unwrap_or(0);
                    let (mw, sw) = (self.pointee_width(h), self.pointee_width(*base));
                    let k = k.unwrap_or(0);
                    let k = if mw > sw && sw > 0 { k * (mw / sw) } else { k };
                    return self.place_c(*base, Some(first + k), depth + 1);
                }
                if let Some(cs) = self.matrix_pointee(*base) {
                    // A column of a matrix held by cells: column × stride, plus the row.
                    return self.place_c(*base, Some(*index * cs + k.unwrap_or(0)), depth + 1);
                }
                let (vec_base, elem_comps) = self.pointee(*base);
                if vec_base > 1 {
                    return self.place_c(*base, Some(*index), depth + 1);
                }
                if self.root_held_by_cells(*base) {
                    // An element of an array member of a struct held one local per cell.
                    let c = *index * elem_comps + k.unwrap_or(0);
                    return self.place_c(*base, Some(c), depth + 1);
                }
                let b = self.place(*base, depth + 1)?;
                let i = cell(int_lit(u64::from(*index), at), elem_comps, k.unwrap_or(0));
                Ok(ex(ExprKind::Index(Box::new(b), Box::new(i)), at))
            }
            _ => self.expr_c(h, k, depth),
        }
    }

    /// The cell width in bytes of what the pointer `h` points at ([`types::cell_width`]).
    fn pointee_width(&self, h: Handle<Expression>) -> u32 {
        match self.ty_inner(h) {
            TypeInner::Pointer { base, .. } => {
                types::cell_width(self.module(), &self.module().types[*base].inner)
            }
            TypeInner::ValuePointer { scalar, .. } => u32::from(scalar.width.max(1)),
            _ => 4,
        }
    }

    /// Whether the pointer chain `h` starts at a variable held one local per cell (a
    /// function or private struct or matrix, a reference parameter), not in memory.
    fn root_held_by_cells(&self, mut h: Handle<Expression>) -> bool {
        for _ in 0..=self.max_depth {
            match &self.func.expressions[h] {
                Expression::Access { base, .. } | Expression::AccessIndex { base, .. } => h = *base,
                Expression::LocalVariable(l) => {
                    let ty = self.func.local_variables[*l].ty;
                    return !matches!(self.module().types[ty].inner, TypeInner::Array { .. });
                }
                Expression::GlobalVariable(g) => {
                    let var = &self.module().global_variables[*g];
                    return var.space == AddressSpace::Private
                        && !matches!(self.module().types[var.ty].inner, TypeInner::Array { .. });
                }
                Expression::FunctionArgument(i) => {
                    return !self.entry_args && self.cell_param(*i).is_none()
                }
                _ => return false,
            }
        }
        false
    }

    /// A helper's parameter name.
    pub(super) fn arg_name(&self, i: u32) -> String {
        self.func
            .arguments
            .get(i as usize)
            .and_then(|a| a.name.clone())
            .unwrap_or_else(|| format!("arg{i}"))
    }

    /// When helper parameter `i` is a pointer held as a cell pointer (see
    /// [`pointer_kind`]): its cells' scalar, and whether it points at an array.
    pub(super) fn cell_param(&self, i: u32) -> Option<(Scalar, bool)> {
        if self.entry_args {
            return None;
        }
        let a = self.func.arguments.get(i as usize)?;
        let module = self.module();
        let TypeInner::Pointer { base, space } = &module.types[a.ty].inner else {
            return None;
        };
        let inner = &module.types[*base].inner;
        if !pointer_kind(*space, inner) {
            return None;
        }
        let sc = scalar_of(types::cell_scalar(module, inner).ok()?)?;
        Some((sc, matches!(inner, TypeInner::Array { .. })))
    }

    /// The buffer or workgroup variable a pointer chain starts at, and its cells' scalar.
    pub(super) fn root_cells(&self, mut h: Handle<Expression>) -> Option<(String, Scalar)> {
        for _ in 0..=self.max_depth {
            match &self.func.expressions[h] {
                Expression::Access { base, .. } | Expression::AccessIndex { base, .. } => h = *base,
                Expression::FunctionArgument(i) => {
                    let (sc, _) = self.cell_param(*i)?;
                    return Some((self.arg_name(*i), sc));
                }
                Expression::LocalVariable(l) => {
                    // A local array is held as the engine's array of its cells, laid out as
                    // WGSL lays out its bytes, so an access chain into it (an array of
                    // arrays included) is one flat offset, as for a buffer.
                    let lv = &self.func.local_variables[*l];
                    if !matches!(self.module().types[lv.ty].inner, TypeInner::Array { .. }) {
                        return None;
                    }
                    let (elem, _, _) = elem_of(self.module(), lv.ty).ok()?;
                    return Some((self.local_name(*l), elem.scalar));
                }
                Expression::GlobalVariable(g) => {
                    let var = &self.module().global_variables[*g];
                    if matches!(var.space, AddressSpace::Private | AddressSpace::Function) {
                        return None;
                    }
                    let (elem, _, _) = types::memory_elem_of(self.module(), var.ty).ok()?;
                    let name = var
                        .name
                        .clone()
                        .unwrap_or_else(|| format!("global{}", g.index()));
                    return Some((name, elem.scalar));
                }
                _ => return None,
            }
        }
        None
    }

    /// The cell a pointer into a buffer or workgroup variable of arrays and structs names,
    /// `root[offset]`, the offset summed along the access chain from the WGSL layout (an
    /// array element: index × stride; a struct member: its offset; a vector component: its
    /// index, also one chosen at run time), all in cells. `None` for other pointers (locals,
    /// private variables, one-cell scalars and plain vectors), which [`Self::place_c`] handles.
    fn flat_place(
        &mut self,
        h: Handle<Expression>,
        k: Option<u32>,
        depth: u32,
    ) -> Result<Option<Expr>, KernelError> {
        let at = self.espan(h, ast::Span { line: 1, col: 1 });
        let Some((root, cell)) = self.root_cells(h) else {
            return Ok(None);
        };
        if cell == Scalar::Bool {
            return Ok(None);
        }
        let width = (cell.bits() / 8).max(1);
        // The chain, outermost access first.
        let mut steps = Vec::new();
        let mut cur = h;
        while let Expression::Access { base, .. } | Expression::AccessIndex { base, .. } =
            self.func.expressions[cur]
        {
            steps.push(cur);
            cur = base;
            if steps.len() as u32 > self.max_depth {
                return Err(depth_err(at, self.max_depth));
            }
        }
        let root_ty = match self.func.expressions[cur] {
            Expression::GlobalVariable(g) => {
                &self.module().types[self.module().global_variables[g].ty].inner
            }
            Expression::FunctionArgument(i) if self.cell_param(i).is_some() => {
                match self.ty_inner(cur) {
                    TypeInner::Pointer { base, .. } => &self.module().types[*base].inner,
                    _ => return Ok(None),
                }
            }
            Expression::LocalVariable(l) => {
                &self.module().types[self.func.local_variables[l].ty].inner
            }
            _ => return Ok(None),
        };
        if !matches!(
            root_ty,
            TypeInner::Array { .. } | TypeInner::Struct { .. } | TypeInner::Matrix { .. }
        ) {
            return Ok(None);
        }
        let types = &self.shader.module.types;
        let mut offset: Option<Expr> = None;
        let mut add = |off: Expr, at: ast::Span| {
            offset = Some(match offset.take() {
                None => off,
                Some(o) => bin(BinOp::Add, o, off, at),
            });
        };
        for &step in steps.iter().rev() {
            let (base, index) = match self.func.expressions[step] {
                Expression::Access { base, index } => (base, Err(index)),
                Expression::AccessIndex { base, index } => (base, Ok(index)),
                _ => return Ok(None),
            };
            let base_inner = match self.ty_inner(base) {
                TypeInner::Pointer { base: b, .. } => types[*b].inner.clone(),
                TypeInner::ValuePointer { size, scalar, .. } => match size {
                    Some(size) => TypeInner::Vector {
                        size: *size,
                        scalar: *scalar,
                    },
                    None => TypeInner::Scalar(*scalar),
                },
                _ => return Ok(None),
            };
            let scale = match &base_inner {
                // The stride over the root's cell width: an `array<u32, N>` member of a
                // struct mixing `f16` with 4-byte scalars steps 2 cells of 2 bytes (WGSL §
                // 13.4 Memory Layout: the stride is the element's size rounded to its
                // alignment, in bytes, whatever cells hold the buffer).
                TypeInner::Array {
                    base: e, stride, ..
                } if types::cell_width(self.module(), &types[*e].inner) > 1 => {
                    u64::from((*stride / width).max(1))
                }
                TypeInner::Array {
                    base: e, stride, ..
                } => u64::from(types::stride_cells(self.module(), *e, *stride)),
                TypeInner::Vector { .. } => 1,
                TypeInner::Matrix { rows, scalar, .. } => {
                    u64::from(types::column_stride(*rows, *scalar, width))
                }
                TypeInner::Struct { members, .. } => {
                    let i = index.unwrap_or(0) as usize;
                    let m = members.get(i).map_or(0, |m| m.offset);
                    add(int_lit(u64::from(m / width), at), at);
                    continue;
                }
                _ => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "an access into this type is not emulated",
                    ))
                }
            };
            let i = match index {
                Ok(c) => int_lit(u64::from(c) * scale, at),
                Err(e) => {
                    let i = cast(Scalar::U32, self.expr(e, depth + 1)?, at);
                    if scale == 1 {
                        i
                    } else {
                        bin(BinOp::Mul, i, int_lit(scale, at), at)
                    }
                }
            };
            add(i, at);
        }
        // A vector, matrix, struct or whole array at the end of the chain: cell k.
        let (own, _) = self.pointee(h);
        let array = matches!(
            self.ty_inner(h),
            TypeInner::Pointer { base, .. }
                if matches!(self.module().types[*base].inner, TypeInner::Array { .. })
        );
        // Cell k of the value counts cells of the value's own width; a value of 4-byte cells
        // (an `array<u32, N>` member) inside 2-byte cells (a struct mixing `f16` with 4-byte
        // scalars) starts its cell k at byte 4k (WGSL § 13.4 Memory Layout).
        let own_width = match self.ty_inner(h) {
            TypeInner::Pointer { base, .. } => {
                types::cell_width(self.module(), &self.module().types[*base].inner)
            }
            _ => width,
        };
        let k = k.map(|k| {
            if own_width > width {
                k * (own_width / width)
            } else {
                k
            }
        });
        if array {
            if let Some(k) = k {
                add(int_lit(u64::from(k), at), at);
            }
        } else if own > 1 {
            let k = k.ok_or_else(|| {
                KernelError::new(at.line, at.col, "a whole vector here is not emulated yet")
            })?;
            add(int_lit(u64::from(k), at), at);
        }
        let off = offset.unwrap_or_else(|| int_lit(0, at));
        let id = self.ident(&root, at);
        Ok(Some(ex(ExprKind::Index(Box::new(id), Box::new(off)), at)))
    }

    /// A loaded cell as the loaded type `want`: the cells of a struct mixing 32-bit types are
    /// `u32` bits (WGSL § Memory Layout: the bytes are shared), so a float member reads them as
    /// f32 and an i32 member reinterprets them.
    pub(super) fn cell_to_value(
        &self,
        pointer: Handle<Expression>,
        want: Scalar,
        e: Expr,
        at: ast::Span,
    ) -> Expr {
        if let Some(view) = self.typed_view(pointer, want, &e, at) {
            return view;
        }
        match self.root_cells(pointer) {
            // A `bool` member of a struct of 32-bit cells: non-zero is true.
            Some((_, cell)) if want == Scalar::Bool && cell.bits() == 32 => cast(want, e, at),
            Some((_, cell)) if cell != want && cell.bits() == 32 && want.bits() == 32 => {
                if want == Scalar::F32 {
                    let n = if cell == Scalar::I32 {
                        "__int_as_float"
                    } else {
                        "__uint_as_float"
                    };
                    ex(ExprKind::Call(n.into(), vec![e]), at)
                } else if cell == Scalar::F32 {
                    let n = if want == Scalar::I32 {
                        "__float_as_int"
                    } else {
                        "__float_as_uint"
                    };
                    ex(ExprKind::Call(n.into(), vec![e]), at)
                } else {
                    cast(want, e, at)
                }
            }
            _ => e,
        }
    }

    /// The place `cell` (a cell of the 2-byte-celled memory of structs mixing `f16` with
    /// 4-byte scalars, `types::HALF_WORDS`) seen as a `want`: `*(T*)&cell`, the engine's typed
    /// view, which reads or writes the member's bytes (two cells, low half first, for a 4-byte
    /// member; WGSL § Memory Layout is little-endian). `None` for other memory.
    pub(super) fn typed_view(
        &self,
        pointer: Handle<Expression>,
        want: Scalar,
        cell: &Expr,
        at: ast::Span,
    ) -> Option<Expr> {
        match self.root_cells(pointer) {
            Some((_, Scalar::U16)) if want != Scalar::U16 => {
                let addr = ex(ExprKind::AddrOf(Box::new(cell.clone())), at);
                let ptr = ex(
                    ExprKind::Cast(Ty::Ptr(ValTy::scalar(want)), Box::new(addr)),
                    at,
                );
                Some(ex(ExprKind::Deref(Box::new(ptr)), at))
            }
            _ => None,
        }
    }

    /// A value of type `have` stored into a cell (the inverse of [`Self::cell_to_value`]).
    pub(super) fn value_to_cell(
        &self,
        pointer: Handle<Expression>,
        have: Scalar,
        e: Expr,
        at: ast::Span,
    ) -> Expr {
        match self.root_cells(pointer) {
            // A `bool` into a cell of a struct of 32-bit cells: 1 or 0.
            Some((_, cell)) if have == Scalar::Bool && cell.bits() == 32 => cast(cell, e, at),
            Some((_, cell)) if cell != have && cell.bits() == 32 && have.bits() == 32 => {
                if have == Scalar::F32 {
                    let n = if cell == Scalar::I32 {
                        "__float_as_int"
                    } else {
                        "__float_as_uint"
                    };
                    ex(ExprKind::Call(n.into(), vec![e]), at)
                } else if cell == Scalar::F32 {
                    let n = if have == Scalar::I32 {
                        "__int_as_float"
                    } else {
                        "__uint_as_float"
                    };
                    ex(ExprKind::Call(n.into(), vec![e]), at)
                } else {
                    cast(cell, e, at)
                }
            }
            _ => e,
        }
    }

    pub(super) fn builtin_value(
        &mut self,
        b: BuiltIn,
        comp: Option<u32>,
        at: ast::Span,
    ) -> Result<Expr, KernelError> {
        let field = |k: u32| ["x", "y", "z"].get(k as usize).copied().unwrap_or("x");
        let member = |me: &mut Self, base: &str, k: u32| {
            let id = me.ident(base, at);
            ex(ExprKind::Member(Box::new(id), field(k).to_string()), at)
        };
        let warp = |me: &mut Self| cast(Scalar::U32, me.ident("warpSize", at), at);
        let linear = |me: &mut Self| {
            // x + X * (y + Y * z)
            let tx = member(me, "threadIdx", 0);
            let ty = member(me, "threadIdx", 1);
            let tz = member(me, "threadIdx", 2);
            let bx = member(me, "blockDim", 0);
            let by = member(me, "blockDim", 1);
            bin(
                BinOp::Add,
                tx,
                bin(
                    BinOp::Mul,
                    bx,
                    bin(BinOp::Add, ty, bin(BinOp::Mul, by, tz, at), at),
                    at,
                ),
                at,
            )
        };
        let vec3 = matches!(
            b,
            BuiltIn::LocalInvocationId
                | BuiltIn::GlobalInvocationId
                | BuiltIn::WorkGroupId
                | BuiltIn::NumWorkGroups
        );
        if vec3 && comp.is_none() {
            return Err(KernelError::new(
                at.line,
                at.col,
                "a built-in vec3 is emulated through its components (`.x`, `.y`, `.z`)",
            ));
        }
        let k = comp.unwrap_or(0);
        Ok(match b {
            BuiltIn::LocalInvocationId => member(self, "threadIdx", k),
            BuiltIn::WorkGroupId => member(self, "blockIdx", k),
            BuiltIn::NumWorkGroups => member(self, "gridDim", k),
            BuiltIn::GlobalInvocationId => {
                let bi = member(self, "blockIdx", k);
                let bd = member(self, "blockDim", k);
                let ti = member(self, "threadIdx", k);
                bin(BinOp::Add, bin(BinOp::Mul, bi, bd, at), ti, at)
            }
            BuiltIn::LocalInvocationIndex => linear(self),
            BuiltIn::SubgroupInvocationId => cast(
                Scalar::U32,
                ex(ExprKind::Call("__lane_id".into(), vec![]), at),
                at,
            ),
            BuiltIn::SubgroupSize => warp(self),
            BuiltIn::SubgroupId => {
                let l = linear(self);
                let w = warp(self);
                bin(BinOp::Div, l, w, at)
            }
            BuiltIn::NumSubgroups => {
                let bx = member(self, "blockDim", 0);
                let by = member(self, "blockDim", 1);
                let bz = member(self, "blockDim", 2);
                let n = bin(BinOp::Mul, bin(BinOp::Mul, bx, by, at), bz, at);
                let w1 = warp(self);
                let w2 = warp(self);
                bin(
                    BinOp::Div,
                    bin(BinOp::Sub, bin(BinOp::Add, n, w1, at), int_lit(1, at), at),
                    w2,
                    at,
                )
            }
            other => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("built-in {other:?} is not a compute built-in the emulator has"),
                ))
            }
        })
    }

    pub(super) fn arg_builtin(&self, i: u32) -> Option<BuiltIn> {
        if !self.entry_args {
            return None;
        }
        match self.func.arguments.get(i as usize)?.binding {
            Some(naga::Binding::BuiltIn(b)) => Some(b),
            _ => None,
        }
    }

    /// The built-in value of member `m` of entry point parameter `i` when that parameter is
    /// a structure of built-in values (WGSL spec, § Entry Point Inputs and Outputs: an entry
    /// point's input may be a structure whose members carry `@builtin` attributes, as in
    /// `fn main(inputs: ComputeInputs)` with `inputs.subgroup_size`).
    pub(super) fn arg_member_builtin(&self, i: u32, m: u32) -> Option<BuiltIn> {
        if !self.entry_args {
            return None;
        }
        let arg = self.func.arguments.get(i as usize)?;
        struct_member_builtin(&self.shader.module, arg, m)
    }
}

impl Lower<'_> {
    /// For cell `c` of entry point parameter `i`, a structure of built-in inputs held in its
    /// layout's cells (WGSL § Alignment and Size): the built-in of the member the cell
    /// belongs to, and the component within it (`None` for a scalar member).
    pub(super) fn arg_member_at_cell(&self, i: u32, c: u32) -> Option<(BuiltIn, Option<u32>)> {
        if !self.entry_args {
            return None;
        }
        let arg = self.func.arguments.get(i as usize)?;
        let module = &self.shader.module;
        let inner = &module.types[arg.ty].inner;
        let TypeInner::Struct { members, .. } = inner else {
            return None;
        };
        let w = types::cell_width(module, inner).max(1);
        let (m, start) = members
            .iter()
            .enumerate()
            .map(|(m, mem)| (m, mem.offset / w))
            .rfind(|&(_, start)| start <= c)?;
        let b = struct_member_builtin(module, arg, m as u32)?;
        let comp = c - start;
        let vector = matches!(module.types[members[m].ty].inner, TypeInner::Vector { .. });
        match (vector, comp) {
            (true, _) => Some((b, Some(comp))),
            (false, 0) => Some((b, None)),
            (false, _) => None,
        }
    }
}

/// The `@builtin` of member `m` of an entry point parameter whose type is a structure of
/// entry point inputs (WGSL spec, § Entry Point Inputs and Outputs).
fn struct_member_builtin(
    module: &naga::Module,
    arg: &naga::FunctionArgument,
    m: u32,
) -> Option<BuiltIn> {
    if arg.binding.is_some() {
        return None;
    }
    match &module.types[arg.ty].inner {
        TypeInner::Struct { members, .. } => match members.get(m as usize)?.binding {
            Some(naga::Binding::BuiltIn(b)) => Some(b),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a pointer parameter of `space` to `pointee` is held as a pointer to its first cell
/// (storage, uniform and workgroup memory, and arrays anywhere: the callee indexes the
/// caller's cells) rather than as reference parameters, one per cell of the pointee
/// (function and private scalars, vectors, matrices and structs, held as locals).
pub(super) fn pointer_kind(space: AddressSpace, pointee: &TypeInner) -> bool {
    !matches!(space, AddressSpace::Function | AddressSpace::Private)
        || matches!(pointee, TypeInner::Array { .. })
}
