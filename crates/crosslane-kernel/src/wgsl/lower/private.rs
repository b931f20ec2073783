//! `var<private>` declarations (WGSL spec, § 7.3 "var Declarations"): one instance per
//! invocation, holding its initializer's value at the start of the invocation, else the zero
//! value of its type. The entry's prelude (its outer block) declares them, so each invocation
//! stores the values before its first statement; a module-scope initializer is a
//! const- or override-expression, so its cells are read out of naga's folded
//! `global_expressions` here.

use super::*;

impl Lower<'_> {
    /// The prelude statements declaring the private variable `name` of type `ty`, initialized
    /// by `init` (naga's module-scope expression) or zeroed: a scalar is one local, a vector,
    /// matrix or struct one local per data cell (as a function variable), an array one run of
    /// cells (`elem`, `n` cells: zeroed by a loop, then each data cell of the initializer
    /// stored).
    ///
    /// # Errors
    /// An initializer the emulator cannot evaluate (see [`Self::global_cell`]), an array
    /// initializer of more than [`VALUE_CELLS`] cells, or of structs mixing 32-bit types.
    pub(super) fn private_var(
        &mut self,
        name: &str,
        ty: Handle<naga::Type>,
        init: Option<Handle<Expression>>,
        elem: ValTy,
        count: Count,
        at: ast::Span,
    ) -> Result<Vec<Stmt>, KernelError> {
        let shader = self.shader;
        let module = &shader.module;
        let inner = &module.types[ty].inner;
        // `var<private> x: T = T();` is the zero value: the same as no initializer.
        let init =
            init.filter(|e| !matches!(module.global_expressions[*e], Expression::ZeroValue(_)));
        let comps = components(module, ty);
        let mut out = Vec::new();
        if let (Count::Scalar, Some(cells)) = (count, self.type_cells(inner)) {
            for (k, t) in cells {
                let value = match init {
                    Some(e) => self.global_cell(e, k, t, at, 0)?,
                    None => zero(t, at),
                };
                let span = self.uniq(at);
                out.push(local_decl(comp_name(name, k), t, value, span, at));
            }
            return Ok(out);
        }
        match count {
            Count::Scalar => {
                let value = match init {
                    Some(e) => self.global_cell(e, 0, elem, at, 0)?,
                    None => zero(elem, at),
                };
                let span = self.uniq(at);
                out.push(local_decl(name.to_string(), elem, value, span, at));
            }
            Count::Fixed(len) => {
                let n = len.saturating_mul(comps as usize);
                let span = self.uniq(at);
                let decl = stmt(
                    StmtKind::Decl(
                        Storage::default(),
                        vec![Declarator {
                            name: name.to_string(),
                            ty: Ty::Ptr(elem),
                            array: Some(Some(int_lit(n as u64, at))),
                            init: None,
                            span,
                            id: NodeId::fresh(),
                        }],
                    ),
                    at,
                );
                out.push(decl);
                // The engine's array starts unwritten; WGSL's starts as the zero value.
                out.push(self.zero_loop(name, elem, n, at));
                if let Some(e) = init {
                    if n > VALUE_CELLS {
                        return Err(at_err(
                            at,
                            name,
                            format!(
                                "an initializer of more than {VALUE_CELLS} cells for a private \
                                 array (fill it in a loop at the start of the entry point \
                                 instead)"
                            ),
                        ));
                    }
                    let TypeInner::Array { base, .. } = *inner else {
                        return Ok(out);
                    };
                    let cells = self
                        .type_cells(&module.types[base].inner)
                        .unwrap_or_else(|| vec![(0, elem)]);
                    if cells.iter().any(|(_, t)| t.scalar != elem.scalar) {
                        return Err(at_err(
                            at,
                            name,
                            "an initialized private array of structs mixing 32-bit types is \
                             not emulated yet (assign its elements at the start of the entry \
                             point instead)",
                        ));
                    }
                    for i in 0..len {
                        for &(c, t) in &cells {
                            let k = (i as u32).saturating_mul(comps).saturating_add(c);
                            let value = self.global_cell(e, k, t, at, 0)?;
                            let target = self.ident(name, at);
                            let target = ex(
                                ExprKind::Index(Box::new(target), Box::new(int_lit(k.into(), at))),
                                at,
                            );
                            out.push(stmt(
                                StmtKind::Expr(ex(
                                    ExprKind::Assign(None, Box::new(target), Box::new(value)),
                                    at,
                                )),
                                at,
                            ));
                        }
                    }
                }
            }
            Count::Runtime => return Err(at_err(at, name, "a runtime-sized array here")),
        }
        Ok(out)
    }

    /// Cell `k` (of type `t`) of the module-scope const- or override-expression `e`, cells
    /// numbered as the value's memory layout numbers them (WGSL § Alignment and Size: a
    /// struct member at its offset, a matrix column at its column stride, an array element at
    /// its stride; a vector's components in order). naga folds const-expressions into
    /// literals, constructors, splats and zero values (and names of constants); an override
    /// takes its pipeline value.
    ///
    /// # Errors
    /// Any other expression (an override-expression computing with an override), and nesting
    /// past the nesting limit.
    pub(super) fn global_cell(
        &mut self,
        e: Handle<Expression>,
        k: u32,
        t: ValTy,
        at: ast::Span,
        depth: u32,
    ) -> Result<Expr, KernelError> {
        if depth > self.max_depth {
            return Err(depth_err(at, self.max_depth));
        }
        let shader = self.shader;
        let module = &shader.module;
        let d = depth + 1;
        match &module.global_expressions[e] {
            Expression::Literal(l) => Ok(cast(t.scalar, literal(*l, at), at)),
            Expression::ZeroValue(_) => Ok(zero(t, at)),
            Expression::Constant(c) => self.global_cell(module.constants[*c].init, k, t, at, d),
            Expression::Override(o) => {
                let v = self.override_value(*o, at)?;
                Ok(cast(t.scalar, v, at))
            }
            Expression::Splat { value, .. } => self.global_cell(*value, 0, t, at, d),
            Expression::Compose { ty, components } => {
                let inner = &module.types[*ty].inner;
                let w = types::cell_width(module, inner);
                // Where each component starts, in cells of the constructed value.
                let starts: Vec<u32> = match inner {
                    TypeInner::Vector { .. } => {
                        let mut s = 0;
                        components
                            .iter()
                            .map(|&c| {
                                let here = s;
                                s += match shader.info[c].inner_with(&module.types) {
                                    TypeInner::Vector { size, .. } => *size as u32,
                                    _ => 1,
                                };
                                here
                            })
                            .collect()
                    }
                    TypeInner::Matrix { rows, scalar, .. } => {
                        let cs = types::column_stride(*rows, *scalar, w);
                        (0..components.len() as u32).map(|j| j * cs).collect()
                    }
                    TypeInner::Struct { members, .. } => {
                        members.iter().map(|m| m.offset / w).collect()
                    }
                    TypeInner::Array { base, stride, .. } => {
                        let per = types::stride_cells(module, *base, *stride);
                        (0..components.len() as u32).map(|j| j * per).collect()
                    }
                    _ => Vec::new(),
                };
                let pick = components
                    .iter()
                    .zip(&starts)
                    .rev()
                    .find(|(_, &s)| s <= k)
                    .map(|(&c, &s)| (c, k - s));
                let (c, kk) = pick.ok_or_else(|| {
                    KernelError::new(at.line, at.col, "a constructor with too few values")
                })?;
                // `kk` counts this value's cells; a component of wider cells (an `array<u32,
                // N>` in a struct mixing `f16` with 4-byte scalars) numbers its own.
                let cw = match &module.global_expressions[c] {
                    Expression::Compose { ty, .. } | Expression::ZeroValue(ty) => {
                        types::cell_width(module, &module.types[*ty].inner)
                    }
                    _ => w,
                };
                let kk = if cw > w && w > 0 { kk * w / cw } else { kk };
                self.global_cell(c, kk, t, at, d)
            }
            other => Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "this private variable's initializer holds {} the emulator does not \
                     evaluate at module scope (write the value as a constant, or assign it \
                     at the start of the entry point)",
                    expr_word(other)
                ),
            )),
        }
    }
}

/// `T name = value;` at `at`, declared under `span`.
fn local_decl(name: String, ty: ValTy, value: Expr, span: ast::Span, at: ast::Span) -> Stmt {
    stmt(
        StmtKind::Decl(
            Storage::default(),
            vec![Declarator {
                name,
                ty: Ty::Val(ty),
                array: None,
                init: Some(value),
                span,
                id: NodeId::fresh(),
            }],
        ),
        at,
    )
}
