//! The block prefix callback of CUB's and hipCUB's `BlockScan`: `ExclusiveSum(x, out,
//! prefix_op)`, `InclusiveSum(x, out, prefix_op)`, `ExclusiveScan(x, out, op, prefix_op)`,
//! `InclusiveScan(x, out, op, prefix_op)` and the items-per-thread `ExclusiveSum` /
//! `InclusiveSum` with one.
//!
//! The contract (CUB API reference, `cub::BlockScan`, "block_prefix_callback_op"): a functor
//! `T operator()(T block_aggregate)` that the first warp of the block calls with the
//! block-wide aggregate of this call's inputs; the value its first lane returns is the prefix
//! that seeds the scan: exclusive scans give it to thread 0 and combine it
//! into every other output (`op(prefix, ·)`), inclusive scans combine it into every output.
//! The functor is stateful (CUB's example keeps a `running_total` across the tiles of a loop):
//! each thread calls its own copy, so only the first warp's copies change.
//!
//! Lowered as three temporaries declared before the statement: the block aggregate (the
//! scan's `Total` function over the same grid), the callback's value (`if (linear_tid < warp)
//! r = prefix_op(aggregate);`; the other warps never call it, and their `r` is not used), and the
//! prefix every thread reads (thread 0's value broadcast through the `TempStorage`'s last
//! cell, past the raking grid). The seeded scan then runs as the exclusive scan with an
//! initial value or as the inclusive one combining the seed (`super::cub_scan`), which is
//! CUB's `BlockScanRaking` order: the segment prefix is `op(prefix, exclusive_partial)`.
//! hipCUB (rocPRIM `block_scan`) takes the same callback, called by the first warp (wavefront).

use super::cub::{Body, CubClass, Op, INT};
use super::cub_scan::ScanKind;
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{BinOp, Ty};
use crate::KernelError;
use crosslane_core::result::Level;

impl Parser<'_> {
    /// Whether a scan's last argument is a block prefix callback: a struct (or a lambda's
    /// closure) with an `operator()`, not an aggregate output.
    pub(super) fn cub_is_callback(&self, a: &Expr) -> bool {
        self.struct_of(a)
            .and_then(|s| self.structs.get(&s))
            .is_some_and(|d| d.methods.contains_key("operator()"))
    }

    /// The block prefix `functor` returns for the block's `op`-aggregate of `input` (each thread's
    /// scan input, or its items' partial): its temporaries declared before the statement
    /// being read, the prefix's name as an expression.
    ///
    /// # Errors
    /// The functor has no `operator()`; the scan has no `TempStorage` expression.
    pub(super) fn cub_block_prefix(
        &mut self,
        c: &CubClass,
        op: &Op,
        functor: Expr,
        input: Expr,
        storage: Option<Expr>,
        at: Span,
    ) -> PResult<Expr> {
        let callable = self.cub_is_callback(&functor);
        let lib = if self.hip { "hipcub" } else { "cub" };
        if !callable {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "{lib}::BlockScan block prefix callback: the functor has no member \
                     `operator()(T block_aggregate)` (CUB API, cub::BlockScan, \
                     `block_prefix_callback_op`)"
                ),
            ));
        }
        let Some(storage) = storage else {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("{lib}::BlockScan with a block prefix callback needs its TempStorage"),
            ));
        };
        if self.hip && c.elem.scalar.is_float() {
            self.diag(
                at,
                Level::Info,
                "hipcub::BlockScan with a block prefix callback on floats: the prefix is \
                 combined into each result of the block's scan here (`op(prefix, ·)`); \
                 rocPRIM may combine it at another step, so a float's last places may differ"
                    .to_string(),
                "hipCUB / rocPRIM block_scan, prefix_callback_op",
            );
        }
        let ty = Ty::Val(c.elem);
        self.syn = self.syn.wrapping_add(1);
        let tag = format!("#prefix{}@{}", self.syn, at.line);
        let (agg, ret, prefix) = (
            format!("{tag}.aggregate"),
            format!("{tag}.callback"),
            format!("{tag}.prefix"),
        );
        // The block aggregate of this call's inputs, in every thread.
        let total = self.cub_warp_scan_fn(c, op, ScanKind::Total, at);
        let call = self.e_call(at, &total, vec![input, storage.clone()]);
        self.items_temp(&agg, ty, Some(call), at);
        // The first warp calls the functor (its own copy in each thread). The other warps
        // never call it: their copy starts as the aggregate only so that passing it to the
        // broadcast reads a value; the broadcast keeps thread 0's alone.
        let a = self.e_ident(at, &agg);
        self.items_temp(&ret, ty, Some(a), at);
        let a = self.e_ident(at, &agg);
        let s = self.syn_span(at);
        let call = Expr::new(ExprKind::Call("@m:operator()".into(), vec![functor, a]), s);
        let r = self.e_ident(at, &ret);
        let s = self.syn_span(at);
        let set = Expr::new(ExprKind::Assign(None, Box::new(r), Box::new(call)), s);
        let (t, w) = (
            self.e_linear(at),
            self.e_int(at, i64::from(self.cub_warp())),
        );
        let first_warp = self.e_bin(at, BinOp::Lt, t, w);
        let stmt = |kind| Stmt {
            kind,
            span: at,
            end: at,
        };
        // The member call lowered (the functor's members are its leaves, written back); any
        // temporaries it needs stay inside the first warp's branch.
        let mark = self.pre.len();
        let set = self.lower_struct(set)?;
        let mut inner: Vec<Stmt> = self.pre.drain(mark..).collect();
        inner.push(stmt(StmtKind::Expr(set)));
        let then = stmt(StmtKind::Block(inner));
        self.pre
            .push(stmt(StmtKind::If(first_warp, Box::new(then), None)));
        // Lane 0's value, broadcast.
        let bcast = self.cub_prefix_bcast_fn(c, at);
        let r = self.e_ident(at, &ret);
        let call = self.e_call(at, &bcast, vec![r, storage]);
        self.items_temp(&prefix, ty, Some(call), at);
        Ok(self.e_ident(at, &prefix))
    }

    /// The device function broadcasting thread 0's `v` to the block through the cell past
    /// the raking grid (`grid[threads]`), between barriers: the aggregate's readers are done
    /// before it is written, and every thread reads it after.
    fn cub_prefix_bcast_fn(&mut self, c: &CubClass, at: Span) -> String {
        let lib = if self.hip { "hipcub" } else { "cub" };
        let fname = format!(
            "__{lib}_block_scan_prefix_{}_{}_w{}",
            c.elem.scalar.name().replace(' ', "_"),
            c.threads,
            self.cub_warp()
        );
        if self.fn_types.contains_key(&fname) {
            return fname;
        }
        let mut b = Body::new(self, c, at);
        let params = vec![
            b.param("v", Ty::Val(c.elem)),
            b.param("grid", Ty::Ptr(c.elem)),
        ];
        let sync = self.e_call(at, "__syncthreads", Vec::new());
        let sync = b.stmt(StmtKind::Expr(sync));
        b.stmts.push(sync.clone());
        let lin = self.e_linear(at);
        b.decl(self, "tid", INT, lin);
        let cell = |p: &mut Self| {
            let g = p.e_ident(at, "grid");
            let k = p.e_int(at, i64::from(c.threads));
            let s = p.syn_span(at);
            Expr::new(ExprKind::Index(Box::new(g), Box::new(k)), s)
        };
        let target = cell(self);
        let v = self.e_ident(at, "v");
        let s = self.syn_span(at);
        let store = Expr::new(ExprKind::Assign(None, Box::new(target), Box::new(v)), s);
        let (t, z) = (self.e_ident(at, "tid"), self.e_int(at, 0));
        let is0 = self.e_bin(at, BinOp::Eq, t, z);
        let st = b.when(is0, b.stmt(StmtKind::Expr(store)));
        b.stmts.push(st);
        b.stmts.push(sync);
        let read = cell(self);
        let ret = b.stmt(StmtKind::Return(Some(read)));
        b.stmts.push(ret);
        let stmts = std::mem::take(&mut b.stmts);
        let body = b.stmt(StmtKind::Block(stmts));
        self.push_built_fn(&fname, Ty::Val(c.elem), params, body, at);
        fname
    }
}
