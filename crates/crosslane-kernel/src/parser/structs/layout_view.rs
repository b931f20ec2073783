//! A pointer to a struct of `N` same-typed scalars made from a pointer to those scalars or to
//! a vector of them: `reinterpret_cast<Vec4*>(float4_ptr)`, `(Vec4*)float_ptr` with `struct
//! Vec4 { float x, y, z, w; }`, the vectorized-load shape of inference code; or from a pointer
//! to another struct of the same shape; or from a byte pointer (`reinterpret_cast<Half4*>(
//! int8_ptr + off)`, `(Vec4*)(uint8_ptr + off)`): the bytes read and written as `T` cells
//! (little-endian, [`crate::reinterpret`]), an access at an offset that is no multiple of
//! `T`'s alignment undefined (CUDA C++ Programming Guide, "Device Memory Accesses": an access
//! to a misaligned address is undefined) as the engine's typed views of bytes make it.
//!
//! C++17 [class.mem]/22–23 (two standard-layout structs with the same member types in order
//! are layout-compatible), [class.mem]/26 (the first member is at the struct's address),
//! [basic.compound]/4 and [expr.reinterpret.cast]/7; with no padding ([basic.align]: every
//! member `sizeof(T)` aligned, the struct `N * sizeof(T)` bytes) element `i`'s member `k` is
//! the scalar cell `N * i + k` of the buffer viewed as `T` (the device compilers read it so;
//! ISO C++ leaves access through a pointer to another type undefined, [basic.lval]/11).
//!
//! Lowered as a view: each member's pointer is the buffer's `T` view plus `k` and steps `N`
//! cells per element, so `v[i].y` is `q[N * i + 1]`, the cell the device reads and writes. The
//! step is carried by the marker call `@stride:N(ptr)` until an index, `*` or `+` takes it,
//! and, for a pointer variable, by its members' names in scope ([`Parser::strided`]). A
//! struct of mixed types, padding, arrays, bit-fields or references is no such view and the
//! cast stays refused with the reason; a view passed on to a function is refused (the callee
//! would step one cell per element).

use super::*;

/// The prefix of a strided member pointer's marker call (`@stride:4`).
pub(crate) const STRIDE: &str = "@stride:";

impl Parser<'_> {
    /// The scalar type and count of struct `s` when it is `N` members of one scalar type with
    /// no padding (each member at `k * sizeof(T)`, `sizeof(s)` = `N * sizeof(T)`); `None`
    /// otherwise.
    pub(super) fn flat_layout(&self, s: &str, at: Span) -> PResult<Option<(ValTy, u32)>> {
        let leaves = self.leaves(s, at)?;
        let Some(first) = leaves.first() else {
            return Ok(None);
        };
        let Ty::Val(elem) = first.ty else {
            return Ok(None);
        };
        if elem.lanes != 1 {
            return Ok(None);
        }
        let one = crate::reinterpret::scalar_bytes(elem.scalar) as u64;
        let layout = self.struct_layout(s, at)?;
        for (k, l) in leaves.iter().enumerate() {
            let at_k = layout
                .offsets
                .iter()
                .find(|(p, _)| *p == l.path)
                .map(|x| x.1);
            if l.ty != Ty::Val(elem)
                || l.count > 0
                || l.by_ref
                || self.bitfield_path(s, &l.path).is_some()
                || at_k != Some(k as u64 * one)
            {
                return Ok(None);
            }
        }
        let n = leaves.len() as u64;
        if self.struct_size(s, at)? != n * one {
            return Ok(None);
        }
        Ok(u32::try_from(n).ok().map(|n| (elem, n)))
    }

    /// The leaves of `(s*) inner` where `inner` points at `s`'s scalar type or a vector of it
    /// and `s` is [`Self::flat_layout`]: member `k` the marker over the scalar view plus `k`.
    pub(super) fn layout_view_leaves(
        &mut self,
        s: &str,
        inner: &Expr,
        span: Span,
    ) -> PResult<Option<(String, Leaves)>> {
        let Some((elem, n)) = self.flat_layout(s, span)? else {
            return Ok(None);
        };
        let Some(pointee) = self.pointee_type(inner) else {
            return Ok(None);
        };
        // A byte buffer (`uint8_t*`, `int8_t*`, `char*`) viewed as the struct: its bytes read
        // as `T` cells ([`crate::reinterpret`]: little-endian, a misaligned `T` access
        // undefined as the engine's typed views of bytes make it), then the `N`-cell stride.
        let bytes = pointee.lanes == 1
            && matches!(pointee.scalar, Scalar::I8 | Scalar::U8)
            && !matches!(elem.scalar, Scalar::I8 | Scalar::U8);
        if pointee.scalar != elem.scalar && !bytes {
            return Ok(None);
        }
        let q = if pointee.lanes > 1 || bytes {
            // The vector buffer's cells as scalars ([`crate::reinterpret`]).
            Expr::new(ExprKind::Cast(Ty::Ptr(elem), Box::new(inner.clone())), span)
        } else {
            inner.clone()
        };
        let q = self.lower_struct(q)?;
        let leaves = self.leaves(s, span)?;
        let mut out = Vec::new();
        for (k, l) in leaves.iter().enumerate() {
            let sp = self.syn_span(span);
            let off = Expr::new(
                ExprKind::Int {
                    value: k as u64,
                    unsigned: false,
                    long: false,
                },
                sp,
            );
            let p = self.node(
                ExprKind::Binary(BinOp::Add, Box::new(q.clone()), Box::new(off)),
                sp,
            )?;
            out.push((l.path.clone(), stride_marker(p, n, sp)));
        }
        Ok(Some((s.to_string(), out)))
    }

    /// `(s*) p` of a pointer `p` to another struct `from` of the same flat layout: `from`'s
    /// member pointers, member `k` as `s`'s member `k`.
    pub(super) fn renamed_view_leaves(
        &self,
        s: &str,
        from: &str,
        leaves: Leaves,
        span: Span,
    ) -> PResult<Option<(String, Leaves)>> {
        let (a, b) = (self.flat_layout(s, span)?, self.flat_layout(from, span)?);
        if a.is_none() || a != b {
            return Ok(None);
        }
        let mine = self.leaves(s, span)?;
        Ok(Some((
            s.to_string(),
            mine.into_iter()
                .zip(leaves)
                .map(|(l, (_, e))| (l.path, e))
                .collect(),
        )))
    }

    /// A member pointer that steps more than one cell per element: the pointer and its step.
    /// The marker call, or a struct pointer variable's member declared from one.
    pub(crate) fn strided(&self, e: &Expr) -> Option<(Expr, u32)> {
        match &e.kind {
            ExprKind::Call(name, args) => {
                let n = name.strip_prefix(STRIDE)?.parse().ok()?;
                let [p] = args.as_slice() else {
                    return None;
                };
                Some((p.clone(), n))
            }
            ExprKind::Ident(name) => {
                let i = (0..self.scopes.len())
                    .rev()
                    .find(|&i| self.scopes[i].contains_key(name))?;
                self.strided_vars
                    .get(&(i, name.clone()))
                    .map(|n| (e.clone(), *n))
            }
            _ => None,
        }
    }

    /// A member pointer's declared value `value` for the member variable `leaf`: the marker
    /// stripped, its step recorded for the variable's scope.
    pub(super) fn declare_strided(&mut self, leaf: &str, value: Expr) -> Expr {
        match self.strided(&value) {
            Some((p, n)) if matches!(value.kind, ExprKind::Call(..)) => {
                let i = self.scopes.len().saturating_sub(1);
                self.strided_vars.insert((i, leaf.to_string()), n);
                p
            }
            _ => {
                let i = self.scopes.len().saturating_sub(1);
                self.strided_vars.remove(&(i, leaf.to_string()));
                value
            }
        }
    }
}

impl Parser<'_> {
    /// `(T*) &s` / `reinterpret_cast<T*>(&s)` of a local struct variable `s` of
    /// [`Parser::flat_layout`] over `T`: `s`'s leaf variables in order; `None` for anything
    /// else.
    pub(crate) fn flat_struct_address(&self, e: &Expr) -> Option<Vec<String>> {
        let ExprKind::Cast(Ty::Ptr(v), inner) = &e.kind else {
            return None;
        };
        let ExprKind::AddrOf(x) = &inner.kind else {
            return None;
        };
        let ExprKind::Ident(n) = &x.kind else {
            return None;
        };
        let sv = self.var_struct(n).filter(|sv| sv.kind == SKind::Plain)?;
        let (elem, _) = self.flat_layout(&sv.sname, e.span).ok()??;
        (elem == *v).then(|| sv.leaves.clone())
    }

    /// `q[K]`, `*q`, `*(q + K)` of a pointer `q` that [`Parser::flat_struct_address`] reads
    /// (after a local reference's substitution): the `K`-th member variable of the struct.
    /// `Ok(None)` for any other expression.
    ///
    /// An index known only at run time (`q[i]`, `*(q + i)`) chooses among the members: it is
    /// taken once into a temporary, checked against the member count (outside it the access
    /// is undefined, C++17 [expr.add]/4, [`crate::reinterpret::members_index_callee`]), and
    /// the member's address chosen by a balanced tree of `?:` on it and dereferenced
    /// (`*(t = i, t < 2 ? (t < 1 ? &s.a : &s.b) : …)`), so a read reads that member and a
    /// write writes it alone ([expr.cond]/1: only the chosen operand is evaluated).
    ///
    /// # Errors
    /// A constant index outside the struct (an access outside the object, [expr.add]/4:
    /// undefined); a run-time index into a struct of more than
    /// [`super::pun_index::MAX_ELEMENTS`] members.
    pub(crate) fn flat_struct_cell(&mut self, e: &Expr) -> PResult<Option<Expr>> {
        let (base, index) = match &e.kind {
            ExprKind::Index(b, i) => (&**b, Some(&**i)),
            ExprKind::Deref(b) => (&**b, None),
            _ => return Ok(None),
        };
        let (base, offset) = match &base.kind {
            ExprKind::Binary(BinOp::Add, p, k) if self.flat_struct_address(p).is_some() => {
                (&**p, Some(&**k))
            }
            _ => (base, None),
        };
        let Some(leaves) = self.flat_struct_address(base) else {
            return Ok(None);
        };
        let mut at: i128 = 0;
        let mut dynamic: Vec<&Expr> = Vec::new();
        for part in [index, offset].into_iter().flatten() {
            match super::super::const_int(part).or_else(|| self.fold_int(part)) {
                Some(k) => at += k,
                None => dynamic.push(part),
            }
        }
        if !dynamic.is_empty() {
            return self
                .flat_struct_dyn_cell(e, &leaves, at, &dynamic)
                .map(Some);
        }
        match usize::try_from(at).ok().and_then(|k| leaves.get(k)) {
            Some(leaf) => Ok(Some(ident(leaf, e.span))),
            None => Err(KernelError::new(
                e.span.line,
                e.span.col,
                format!(
                    "element {at} is outside the struct the pointer points into ({} members): \
                     an access outside the object is undefined ([expr.add]/4)",
                    leaves.len()
                ),
            )),
        }
    }

    /// The member of `leaves` that the run-time index `at + Σ dynamic` names, as an lvalue
    /// ([`Self::flat_struct_cell`]).
    fn flat_struct_dyn_cell(
        &mut self,
        e: &Expr,
        leaves: &[String],
        at: i128,
        dynamic: &[&Expr],
    ) -> PResult<Expr> {
        let span = e.span;
        let max = super::pun_index::MAX_ELEMENTS;
        let n = u32::try_from(leaves.len()).unwrap_or(u32::MAX);
        if n > max {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "a pointer to a struct's {n} members read as an array takes an index known \
                     only at run time for at most {max} members here (the members are separate \
                     variables): copy the struct into an array first, or index it with a \
                     constant"
                ),
            ));
        }
        let mut index: Option<Expr> = None;
        for part in dynamic {
            let part = self.lower_struct((*part).clone())?;
            index = Some(match index {
                None => part,
                Some(a) => {
                    let sp = self.syn_span(span);
                    self.node(
                        ExprKind::Binary(BinOp::Add, Box::new(a), Box::new(part)),
                        sp,
                    )?
                }
            });
        }
        let Some(mut index) = index else {
            return Ok(zero(span));
        };
        if at != 0 {
            let k = Expr::new(
                ExprKind::Int {
                    value: at.unsigned_abs() as u64,
                    unsigned: false,
                    long: true,
                },
                self.syn_span(span),
            );
            let op = if at < 0 { BinOp::Sub } else { BinOp::Add };
            let sp = self.syn_span(span);
            index = self.node(ExprKind::Binary(op, Box::new(index), Box::new(k)), sp)?;
        }
        let tmp = self.named_temp("index", Ty::Val(ValTy::scalar(Scalar::I64)), span);
        let at_index = dynamic.first().map_or(span, |d| d.span);
        let check = self.node(
            ExprKind::Call(crate::reinterpret::members_index_callee(n), vec![index]),
            at_index,
        )?;
        let sp = self.syn_span(span);
        let t = Expr::new(ExprKind::Ident(tmp.clone()), sp);
        let set = self.node(ExprKind::Assign(None, Box::new(t), Box::new(check)), span)?;
        let tree = self.select(&tmp, (0, n), span, &mut |s, j| {
            let leaf = leaves.get(j as usize).cloned().unwrap_or_default();
            let sp = s.syn_span(span);
            s.node(ExprKind::AddrOf(Box::new(ident(&leaf, sp))), sp)
        })?;
        let sp = self.syn_span(span);
        let chosen = self.node(ExprKind::Comma(Box::new(set), Box::new(tree)), sp)?;
        self.node(ExprKind::Deref(Box::new(chosen)), span)
    }
}

/// The marker call `@stride:N(p)`.
pub(super) fn stride_marker(p: Expr, n: u32, span: Span) -> Expr {
    Expr::new(ExprKind::Call(format!("{STRIDE}{n}"), vec![p]), span)
}
