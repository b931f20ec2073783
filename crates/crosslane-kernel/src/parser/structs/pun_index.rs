//! An array member of a union that reinterprets bytes, indexed with a value known only at run
//! time: `union { uint32_t u32[2]; uint16_t u16[4]; } t; … t.u32[i]` where the union is held
//! by `u16` ([`super::punning`]), so `u32` is a view of the held units' bytes.
//!
//! Each element of the view covers units the front end names at compile time; the run-time
//! index chooses among them. The index is taken once into a temporary, checked against the
//! array's bound (an index outside it is undefined, C++17 [expr.add]/4: the access reads
//! nothing and writes nothing, with a warning, [`crate::reinterpret::index_callee`]), and the
//! element is chosen by a balanced tree of `?:` on it (C++17 [expr.cond]/1: only the chosen
//! operand is evaluated), so a read touches only the units of its element and a write changes
//! only those. The tree is `log2(n)` deep and the arrays have at most [`MAX_ELEMENTS`]
//! elements, so the lowering stays small whatever the source.

use super::arrays::value_layout;
use super::punning::{DynIndex, Place};
use super::*;
use crate::reinterpret;

/// The most elements an array view indexed at run time may have: each element's read or
/// write is lowered once.
pub(super) const MAX_ELEMENTS: u32 = 64;

/// The source text of a member access or subscript chain (`t.u32[i]`), for a message; `…`
/// for any other operand.
fn show(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Ident(n) => n.clone(),
        ExprKind::Member(b, f) => format!("{}.{f}", show(b)),
        ExprKind::Index(a, i) => format!("{}[{}]", show(a), show(i)),
        ExprKind::Int { value, .. } => value.to_string(),
        _ => "…".to_string(),
    }
}

impl Parser<'_> {
    /// The run-time element of `array` (of `n` elements of `v`) that `e` = `array[index]` names.
    ///
    /// # Errors
    /// An array of more than [`MAX_ELEMENTS`] elements, at `e`'s line:column, citing its text.
    pub(super) fn pun_dyn_index(
        e: &Expr,
        array: &Expr,
        index_src: &Expr,
        index: Expr,
        v: ValTy,
        n: u32,
    ) -> PResult<DynIndex> {
        if n > MAX_ELEMENTS {
            return Err(KernelError::new(
                e.span.line,
                e.span.col,
                format!(
                    "`{}[{}]` indexes an array member of {n} elements of a union that reinterprets \
                     bytes with an index known only at run time: supported up to {MAX_ELEMENTS} \
                     elements; copy the member into a local array first, or index it with a \
                     constant",
                    show(array),
                    show(index_src)
                ),
            ));
        }
        Ok(DynIndex {
            index,
            count: n,
            stride: value_layout(v).0,
        })
    }

    /// The index taken into a temporary: its name and the assignment, which checks the bound
    /// ([`reinterpret::index_callee`]; the temporary is undefined outside it).
    pub(super) fn dyn_index_temp(&mut self, d: &DynIndex, span: Span) -> PResult<(String, Expr)> {
        let name = self.pun_temp(Ty::Val(ValTy::scalar(Scalar::I64)), span);
        let sp = self.syn_span(span);
        let check = self.node(
            ExprKind::Call(reinterpret::index_callee(d.count), vec![d.index.clone()]),
            span,
        )?;
        let t = Expr::new(ExprKind::Ident(name.clone()), sp);
        let set = self.node(ExprKind::Assign(None, Box::new(t), Box::new(check)), span)?;
        Ok((name, set))
    }

    /// Element `j` of the array view as a fixed place.
    fn element(p: &Place, d: &DynIndex, j: u32) -> Place {
        Place {
            off: p.off + d.stride * u64::from(j),
            dynamic: None,
            ..p.clone()
        }
    }

    /// The element the index temporary `idx` names, read.
    pub(super) fn dyn_read(
        &mut self,
        p: &Place,
        d: &DynIndex,
        idx: &str,
        span: Span,
    ) -> PResult<Expr> {
        self.select(idx, (0, d.count), span, &mut |s, j| {
            s.pun_read(&Self::element(p, d, j), span)
        })
    }

    /// The element the index temporary `idx` names, written from the temporary `tmp`.
    pub(super) fn dyn_write(
        &mut self,
        p: &Place,
        d: &DynIndex,
        idx: &str,
        tmp: &str,
        span: Span,
    ) -> PResult<Expr> {
        self.select(idx, (0, d.count), span, &mut |s, j| {
            s.unit_writes(&Self::element(p, d, j), tmp, span)
        })
    }

    /// `leaf(j)` for the `j` in `lo..hi` that `idx` holds: `idx < mid ? (lo..mid) : (mid..hi)`.
    pub(super) fn select(
        &mut self,
        idx: &str,
        (lo, hi): (u32, u32),
        span: Span,
        leaf: &mut dyn FnMut(&mut Self, u32) -> PResult<Expr>,
    ) -> PResult<Expr> {
        if hi <= lo + 1 {
            return leaf(self, lo);
        }
        let mid = lo + (hi - lo) / 2;
        let sp = self.syn_span(span);
        let i = Expr::new(ExprKind::Ident(idx.to_string()), sp);
        let m = Expr::new(
            ExprKind::Int {
                value: u64::from(mid),
                unsigned: false,
                long: false,
            },
            self.syn_span(span),
        );
        let cond = self.node(ExprKind::Binary(BinOp::Lt, Box::new(i), Box::new(m)), sp)?;
        let a = self.select(idx, (lo, mid), span, leaf)?;
        let b = self.select(idx, (mid, hi), span, leaf)?;
        self.node(
            ExprKind::Ternary(Box::new(cond), Box::new(a), Box::new(b)),
            sp,
        )
    }
}
