//! Arrays of one or more dimensions declared in a function (`float a[4];`,
//! `acc_t elements[WARP_BATCH][WARP_ITERATIONS];`, `__shared__ float tile[32][33];`) and their
//! brace initializers (`float a[2][3] = {{1, 2, 3}, {4, 5, 6}};`, `acc_t sum[N] { 0.0f };`).
//!
//! An array of several dimensions is held as one buffer of all its cells in row-major order
//! (C++17 [dcl.array]/6-9: `T a[N][M]` is an array of N arrays of M `T`, each row contiguous, so
//! `a[i][j]` is cell `i·M + j`). The parser rewrites each subscript chain to that one index:
//! `a[i][j]` is `a[i*M + j]`, and a chain shorter than the dimensions (`tile[r]`, a row passed
//! to a `float*` parameter, [conv.array]) is the address of the row's first cell,
//! `&a[r*M]`. Every index but the first is checked against its own bound (an index past its row
//! is out of bounds even when the cell it would reach is in the buffer, [expr.add]/4): such an
//! index makes the access the existing out-of-bounds one, as an index past the whole buffer is.
//!
//! A brace initializer fills the cells in order ([dcl.init.aggr]/3-4, /11 brace elision: a
//! nested list fills one row, plain values fill the next cells in order); cells it does not
//! name are zero ([dcl.init.aggr]/8 → value-initialized, [dcl.init]/8). Its items are evaluated
//! in the order written ([dcl.init.list]/4). It runs as the assignments of the cells, in order,
//! when the declaration runs.

use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{BinOp, UnOp};
use crate::KernelError;

/// The most dimensions an array may have (a bound on the initializer's walk).
const MAX_DIMS: usize = 8;

/// Tokens one cell of a brace initializer is charged against the token budget: its
/// assignment written out, `a [ k ] = v ;`.
const TOKENS_PER_CELL: u64 = 7;

/// An array declarator's bounds as written: `None` for `[]`.
pub(super) type Bounds = Vec<Option<Expr>>;

impl Parser<'_> {
    /// The `[N]…` suffixes after a declarator's name (none: an empty list).
    pub(super) fn array_suffixes(&mut self) -> PResult<Bounds> {
        let mut bounds = Vec::new();
        while self.is_punct("[") {
            if bounds.len() == MAX_DIMS {
                return self.err(&format!("at most {MAX_DIMS} array dimensions"));
            }
            self.bump();
            if self.eat("]") {
                bounds.push(None);
            } else {
                let n = self.expr()?;
                self.expect_punct("]")?;
                bounds.push(Some(n));
            }
        }
        Ok(bounds)
    }

    /// The constant bounds of a declarator with `bounds` (`[]` first allowed: `None` there),
    /// for an array of several dimensions or one with an initializer.
    ///
    /// # Errors
    /// A bound that is not a positive constant, `[]` anywhere but first.
    pub(super) fn const_bounds(
        &self,
        name: &str,
        bounds: &Bounds,
        span: Span,
    ) -> PResult<Vec<Option<u64>>> {
        let mut out = Vec::with_capacity(bounds.len());
        for (k, b) in bounds.iter().enumerate() {
            match b {
                None if k == 0 => out.push(None),
                None => {
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        format!("`{name}`: only the first bound of an array may be left out ([dcl.array]/3)"),
                    ))
                }
                Some(e) => match self.fold_int(e).and_then(|v| u64::try_from(v).ok()) {
                    Some(v) if v > 0 => out.push(Some(v)),
                    _ => {
                        return Err(KernelError::new(
                            e.span.line,
                            e.span.col,
                            format!(
                                "`{name}`: bound {} of the array must be a positive constant \
                                 expression ([dcl.array]/1)",
                                k + 1
                            ),
                        ))
                    }
                },
            }
        }
        Ok(out)
    }

    /// Records `name` as an array of the (all known) `dims`, in the innermost scope. The scope
    /// also gets the key `name[]` (no identifier is spelled so): a later scope at the same
    /// depth (a lambda's parameters, a sibling block) is another scope, without it.
    pub(super) fn note_dims(&mut self, name: &str, dims: Vec<u64>) {
        let depth = self.scopes.len();
        self.array_dims
            .retain(|(d, n, _)| !(*d == depth && n == name));
        if dims.len() > 1 {
            if let Some(ty) = self.var_type(name) {
                if let Some(s) = self.scopes.last_mut() {
                    s.insert(format!("{name}[]"), ty);
                }
            }
        }
        // One dimension is recorded for [`Self::array_len`] only: without the `name[]` key,
        // [`Self::dims_of`] does not see it, and its subscripts stay plain.
        if !dims.is_empty() {
            self.array_dims.push((depth, name.to_string(), dims));
        }
    }

    /// The bound of the one-dimensional array `name` names here, where its declaration gave
    /// a constant one (`float a[3];`, `int b[] = {1, 2};`).
    pub(super) fn array_len(&self, name: &str) -> Option<u64> {
        let at = self.scopes.iter().rposition(|s| s.contains_key(name))?;
        if self.scopes.get(at)?.contains_key(&format!("{name}[]")) {
            return None;
        }
        let depth = at.saturating_add(1);
        match self
            .array_dims
            .iter()
            .rev()
            .find(|(d, n, _)| *d == depth && n == name)
            .map(|(_, _, dims)| dims.as_slice())
        {
            Some([n]) => Some(*n),
            _ => None,
        }
    }

    /// The dimensions of the array of several dimensions `name` names here, if it is one.
    pub(super) fn dims_of(&self, name: &str) -> Option<Vec<u64>> {
        let at = self.scopes.iter().rposition(|s| s.contains_key(name))?;
        if !self.scopes.get(at)?.contains_key(&format!("{name}[]")) {
            return None;
        }
        let depth = at.saturating_add(1);
        self.array_dims
            .iter()
            .rev()
            .find(|(d, n, _)| *d == depth && n == name)
            .map(|(_, _, dims)| dims.clone())
    }

    /// After `base[`, `base` naming an array of `dims`: the whole subscript chain, as one index
    /// into its buffer (see the module's text).
    pub(super) fn md_subscripts(&mut self, base: Expr, dims: &[u64], span: Span) -> PResult<Expr> {
        let mut idx: Vec<Expr> = Vec::new();
        loop {
            let i = self.expr()?;
            self.expect_punct("]")?;
            idx.push(i);
            if idx.len() == dims.len() || !self.is_punct("[") {
                break;
            }
            self.bump();
        }
        let short = idx.len() < dims.len();
        let mut flat: Option<Expr> = None;
        let mut inner_ok: Option<Expr> = None;
        for (k, i) in idx.into_iter().enumerate() {
            let row: u64 = dims[k + 1..].iter().product();
            let at = i.span;
            if k > 0 {
                // An index past its own bound is out of bounds ([expr.add]/4).
                if i.walk().any(|n| {
                    matches!(
                        n.kind,
                        ExprKind::Call(..) | ExprKind::Assign(..) | ExprKind::IncDec { .. }
                    )
                }) {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "an index after an array's first one may not call a function or assign \
                         (it is checked against its bound); compute it into a local first",
                    ));
                }
                let bound = lit(dims[k], at);
                let ok = self.node(
                    ExprKind::Logical(
                        true,
                        Box::new(self.node(
                            ExprKind::Binary(BinOp::Ge, Box::new(i.clone()), Box::new(lit(0, at))),
                            at,
                        )?),
                        Box::new(self.node(
                            ExprKind::Binary(BinOp::Lt, Box::new(i.clone()), Box::new(bound)),
                            at,
                        )?),
                    ),
                    at,
                )?;
                inner_ok = Some(match inner_ok {
                    None => ok,
                    Some(prev) => {
                        self.node(ExprKind::Logical(true, Box::new(prev), Box::new(ok)), at)?
                    }
                });
            }
            let term = if row == 1 {
                i
            } else {
                self.node(
                    ExprKind::Binary(BinOp::Mul, Box::new(i), Box::new(lit(row, at))),
                    at,
                )?
            };
            flat = Some(match flat {
                None => term,
                Some(f) => self.node(
                    ExprKind::Binary(BinOp::Add, Box::new(f), Box::new(term)),
                    at,
                )?,
            });
        }
        let Some(mut flat) = flat else {
            return self.err("an index");
        };
        if let Some(ok) = inner_ok {
            // Out of its row: index -1, before the buffer, so the access is the existing
            // out-of-bounds one (a read undefined, a write dropped, with the diagnostic).
            let at = flat.span;
            let minus_one = self.node(ExprKind::Unary(UnOp::Neg, Box::new(lit(1, at))), at)?;
            flat = self.node(
                ExprKind::Ternary(Box::new(ok), Box::new(flat), Box::new(minus_one)),
                at,
            )?;
        }
        let full = self.node(ExprKind::Index(Box::new(base), Box::new(flat)), span)?;
        if short {
            // A row (or a block of rows): the address of its first cell ([conv.array]).
            return self.node(ExprKind::AddrOf(Box::new(full)), span);
        }
        Ok(full)
    }

    /// A brace initializer for the array `name` of `dims` (the first `None` when written `[]`):
    /// the cells' assignments in order, as one expression, and the first bound (given or
    /// counted from the list).
    ///
    /// # Errors
    /// More items than cells, a nested list where a value is due, a list that fills more cells
    /// than the token budget allows (`--max-tokens`: each cell's assignment is parsed work).
    pub(super) fn array_init(
        &mut self,
        name: &str,
        span: Span,
        dims: &[Option<u64>],
        list: Expr,
        shared: bool,
    ) -> PResult<(Expr, u64)> {
        if shared {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "`__shared__` variables cannot have an initializer (CUDA C++ Programming \
                     Guide, Variable Memory Space Specifiers, __shared__); assign `{name}`'s \
                     cells in the kernel, then `__syncthreads()`"
                ),
            ));
        }
        let inner: u64 = dims[1..].iter().map(|d| d.unwrap_or(1)).product();
        let first = dims.first().copied().flatten();
        let cap = first.map(|f| f.saturating_mul(inner));
        let ExprKind::Call(_, items) = list.kind else {
            return self.err("an initializer list");
        };
        // Cells and their values: an explicit stack of (items, next item, level, cursor, end).
        let known: Vec<u64> = dims.iter().map(|d| d.unwrap_or(u64::MAX)).collect();
        let mut cells: Vec<(u64, Expr)> = Vec::new();
        let mut stack: Vec<(std::vec::IntoIter<Expr>, usize, u64, u64)> =
            vec![(items.into_iter(), 0, 0, cap.unwrap_or(u64::MAX))];
        while let Some((mut it, level, mut cur, end)) = stack.pop() {
            let Some(item) = it.next() else { continue };
            let at = item.span;
            match item.kind {
                ExprKind::Call(ref n, _) if n == "@brace" => {
                    let ExprKind::Call(_, sub) = item.kind else {
                        continue;
                    };
                    let size: u64 = known[level + 1..].iter().product();
                    if level + 1 >= known.len() || cur % size.max(1) != 0 {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!(
                                "`{name}`: a nested `{{…}}` here does not start a row of the array"
                            ),
                        ));
                    }
                    if cur >= end {
                        return Err(too_many(name, at));
                    }
                    let next = cur.saturating_add(size);
                    stack.push((it, level, next, end));
                    stack.push((sub.into_iter(), level + 1, cur, next));
                    continue;
                }
                _ => {
                    if cur >= end {
                        return Err(too_many(name, at));
                    }
                    cells.push((cur, item));
                    cur += 1;
                }
            }
            stack.push((it, level, cur, end));
        }
        let used = cells.iter().map(|(c, _)| c + 1).max().unwrap_or(0);
        let first = match first {
            Some(f) => f,
            // `int a[] = {…}`: as many rows as the list fills ([dcl.array]/3).
            None => used.div_ceil(inner.max(1)).max(1),
        };
        let total = first.saturating_mul(inner);
        // Each cell's assignment is charged as the tokens it would take written out.
        let cost = total.saturating_mul(TOKENS_PER_CELL);
        if cost > self.instance_tokens {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "the initializer of `{name}` fills {total} cells, {TOKENS_PER_CELL} tokens \
                     each written out, more than the token limit left ({}); raise it with \
                     --max-tokens",
                    self.instance_tokens
                ),
            ));
        }
        self.instance_tokens -= cost;
        let mut values: Vec<Option<Expr>> = vec![None; total as usize];
        for (c, e) in cells {
            if let Some(v) = values.get_mut(c as usize) {
                *v = Some(e);
            }
        }
        let mut assigns = Vec::with_capacity(values.len());
        for (c, v) in values.into_iter().enumerate() {
            let at = self.syn_span(span);
            let v = v.unwrap_or_else(|| lit(0, at));
            let cell = self.node(
                ExprKind::Index(
                    Box::new(Expr::new(ExprKind::Ident(name.to_string()), at)),
                    Box::new(lit(c as u64, at)),
                ),
                at,
            )?;
            assigns.push(self.node(ExprKind::Assign(None, Box::new(cell), Box::new(v)), at)?);
        }
        Ok((self.balanced_comma(assigns, span)?, first))
    }

    /// `items` joined by commas as a balanced tree (height log n: within the depth budget for
    /// any list the token budget allows), evaluated left to right.
    fn balanced_comma(&self, mut items: Vec<Expr>, span: Span) -> PResult<Expr> {
        if items.is_empty() {
            return Ok(lit(0, span));
        }
        while items.len() > 1 {
            let mut next = Vec::with_capacity(items.len().div_ceil(2));
            let mut it = items.into_iter();
            while let Some(a) = it.next() {
                match it.next() {
                    Some(b) => {
                        let s = a.span;
                        next.push(self.node(ExprKind::Comma(Box::new(a), Box::new(b)), s)?)
                    }
                    None => next.push(a),
                }
            }
            items = next;
        }
        items.pop().map_or_else(|| self.err("an initializer"), Ok)
    }
}

fn too_many(name: &str, at: Span) -> KernelError {
    KernelError::new(
        at.line,
        at.col,
        format!("`{name}`: more initializers than the array has cells ([dcl.init.aggr]/9)"),
    )
}

fn lit(v: u64, span: Span) -> Expr {
    Expr::new(
        ExprKind::Int {
            value: v,
            unsigned: false,
            long: v > i32::MAX as u64,
        },
        span,
    )
}
