//! Matrix and composite values held by cells: where each element of a value starts, matrix
//! products, `transpose` and `determinant` (WGSL § Matrix Built-in Functions, § Arithmetic
//! Expressions: the matrix rows of the table).
//!
//! A `matCxR<T>` value is held as the cells of its memory layout (WGSL § Alignment and Size:
//! column `c` starts at `c × stride`, the stride 2 components for R = 2 and 4 for R = 3, 4),
//! so a matrix loads from and stores to a buffer cell for cell; the padding cells of a
//! `mat4x3` are never held.

use super::*;

/// (columns, rows, column stride in cells) of a matrix type.
fn dims(inner: &TypeInner) -> Option<(u32, u32, u32)> {
    match inner {
        TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } => Some((
            *columns as u32,
            *rows as u32,
            types::column_stride(*rows, *scalar, u32::from(scalar.width)),
        )),
        _ => None,
    }
}

impl Lower<'_> {
    /// The first cell of element `index` of the composite value `h`: a vector's component, a
    /// matrix's column, a struct's member, an array's element.
    pub(super) fn element_start(&self, h: Handle<Expression>, index: u32) -> u32 {
        let module = self.module();
        let inner = self.ty_inner(h);
        let w = types::cell_width(module, inner);
        match inner {
            TypeInner::Matrix { .. } => dims(inner).map_or(index, |(_, _, cs)| index * cs),
            TypeInner::Struct { members, .. } => {
                members.get(index as usize).map_or(0, |m| m.offset / w)
            }
            TypeInner::Array { stride, .. } => index.saturating_mul(*stride) / w,
            _ => index,
        }
    }

    /// Where each component of the constructor `h` starts, in cells of `h`'s layout.
    pub(super) fn component_starts(&self, h: Handle<Expression>) -> Vec<u32> {
        let n = match &self.func.expressions[h] {
            Expression::Compose { components, .. } => components.len() as u32,
            _ => 0,
        };
        (0..n).map(|j| self.element_start(h, j)).collect()
    }

    /// Cell (column `c`, row `r`) of the matrix value `m`.
    fn m_at(&mut self, m: Handle<Expression>, c: u32, r: u32, d: u32) -> Result<Expr, KernelError> {
        let cs = dims(self.ty_inner(m)).map_or(4, |x| x.2);
        self.expr_c(m, Some(c * cs + r), d)
    }

    /// Σ terms, left to right (the order a dot product is written in).
    fn sum(terms: Vec<Expr>, at: ast::Span) -> Option<Expr> {
        terms
            .into_iter()
            .reduce(|acc, t| bin(BinOp::Add, acc, t, at))
    }

    /// Cell `k` of `left * right` when either is a matrix and the other a vector or matrix
    /// (WGSL § Arithmetic Expressions): matrix × vector gives row `k`'s dot product with the
    /// vector, vector × matrix column `k`'s, matrix × matrix the dot of row `r` of the left
    /// with column `c` of the right. `None` for the component-wise cases (a scalar operand).
    pub(super) fn matrix_product(
        &mut self,
        left: Handle<Expression>,
        right: Handle<Expression>,
        k: Option<u32>,
        d: u32,
        at: ast::Span,
    ) -> Result<Option<Expr>, KernelError> {
        let l = dims(self.ty_inner(left));
        let r = dims(self.ty_inner(right));
        let lv = self.vector(left);
        let rv = self.vector(right);
        let k = k.unwrap_or(0);
        let t = self.comp_ty(left, at)?.scalar;
        let mul = |a: Expr, b: Expr| cast(t, bin(BinOp::Mul, a, b, at), at);
        let mut terms = Vec::new();
        match (l, r, lv, rv) {
            // matCxR × vecC → vecR: row k · v.
            (Some((c, _, _)), None, _, Some(_)) => {
                for j in 0..c {
                    let a = self.m_at(left, j, k, d)?;
                    let b = self.expr_c(right, Some(j), d)?;
                    terms.push(mul(a, b));
                }
            }
            // vecR × matCxR → vecC: v · column k.
            (None, Some((_, rows, _)), Some(_), _) => {
                for i in 0..rows {
                    let a = self.expr_c(left, Some(i), d)?;
                    let b = self.m_at(right, k, i, d)?;
                    terms.push(mul(a, b));
                }
            }
            // matKxR × matCxK → matCxR: cell (c, r) = row r of the left · column c of the right.
            (Some((kk, _, lcs)), Some(_), _, _) => {
                let (c, row) = (k / lcs, k % lcs);
                for j in 0..kk {
                    let a = self.m_at(left, j, row, d)?;
                    let b = self.m_at(right, c, j, d)?;
                    terms.push(mul(a, b));
                }
            }
            _ => return Ok(None),
        }
        Ok(Self::sum(terms, at).map(|e| cast(t, e, at)))
    }

    /// Cell `k` of `transpose(m)` (WGSL § transpose): cell (c, r) of the result is (r, c) of `m`.
    pub(super) fn transpose(
        &mut self,
        h: Handle<Expression>,
        m: Handle<Expression>,
        k: u32,
        d: u32,
    ) -> Result<Expr, KernelError> {
        let cs = dims(self.ty_inner(h)).map_or(4, |x| x.2);
        self.m_at(m, k % cs, k / cs, d)
    }

    /// `determinant(m)` of a square matrix (WGSL § determinant), by cofactor expansion along
    /// the first column: the sum over rows `r` of (−1)^r · m[0][r] · the minor without column 0
    /// and row `r` (2×2, 3×3 and 4×4; the expansion depth is at most 3).
    pub(super) fn determinant(
        &mut self,
        m: Handle<Expression>,
        d: u32,
        at: ast::Span,
    ) -> Result<Expr, KernelError> {
        let (n, _, _) = dims(self.ty_inner(m))
            .ok_or_else(|| KernelError::new(at.line, at.col, "determinant of a non-matrix"))?;
        let t = self.comp_ty(m, at)?.scalar;
        let cols: Vec<u32> = (0..n).collect();
        let rows: Vec<u32> = (0..n).collect();
        self.minor(m, &cols, &rows, t, d, at)
    }

    fn minor(
        &mut self,
        m: Handle<Expression>,
        cols: &[u32],
        rows: &[u32],
        t: Scalar,
        d: u32,
        at: ast::Span,
    ) -> Result<Expr, KernelError> {
        if let ([c], [r]) = (cols, rows) {
            return self.m_at(m, *c, *r, d);
        }
        let mut acc: Option<Expr> = None;
        for (i, &r) in rows.iter().enumerate() {
            let rest: Vec<u32> = rows.iter().copied().filter(|&x| x != r).collect();
            let a = self.m_at(m, cols[0], r, d)?;
            let sub = self.minor(m, &cols[1..], &rest, t, d, at)?;
            let term = cast(t, bin(BinOp::Mul, a, sub, at), at);
            acc = Some(match acc {
                None => term,
                Some(x) if i % 2 == 1 => cast(t, bin(BinOp::Sub, x, term, at), at),
                Some(x) => cast(t, bin(BinOp::Add, x, term, at), at),
            });
        }
        acc.ok_or_else(|| KernelError::new(at.line, at.col, "determinant of an empty matrix"))
    }
}
