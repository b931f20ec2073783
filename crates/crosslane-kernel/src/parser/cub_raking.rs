//! The block algorithm template arguments of CUB's and hipCUB's `BlockReduce` and
//! `BlockScan` other than the defaults: CUB's raking reductions run in their own orders of
//! combination (they decide a float's rounding), the others with a note of the difference.
//!
//! CUB `BLOCK_REDUCE_RAKING` (`cub/block/specializations/block_reduce_raking.cuh`,
//! `BlockReduceRaking::Reduce`; the layout of `BlockRakingLayout`): with `SEG` =
//! ⌈threads / min(threads, 32)⌉ cells per raking thread and `R` = ⌈threads / SEG⌉ raking
//! threads,
//! - a block of at most one warp (`R` = threads) is one `WarpReduce<T, threads>` of the
//!   threads' values (valid below `num_valid`);
//! - otherwise every thread stores its value in the grid, a barrier, then raking thread r
//!   starts from cell `r·SEG` and folds cells `r·SEG + i` for i = 1, 2, … left to right while
//!   `r·SEG + i < num_valid` (`RakingReduction`), and a `WarpReduce<T, R>` (the shuffle tree of
//!   [`super::cub`]) combines the `⌈num_valid / SEG⌉` valid partials.
//!
//! CUB `BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY` (`block_reduce_raking_commutative_only.cuh`): on a
//! block of more than one warp, whole warps, and a full tile (no `num_valid`), the threads
//! from 32 on store their values in a grid of `SHARING` = threads − 32 cells (thread t at cell
//! t − 32), a barrier, then raking thread r < 32 folds its own value with cells
//! `r·S .. r·S + S − 1` (S = SHARING / 32) left to right (`ThreadReduce` with the thread's
//! value as the prefix) and the 32 partials go through the warp tree. Otherwise it is
//! `BLOCK_REDUCE_RAKING` (its "fall-back"). CCCL 2.x's `ThreadReduce` may combine an array of
//! more than two values as a tree for some operators and types, so where S > 1 (blocks of more
//! than 64 threads) a float's last places may differ: a note says so.
//!
//! Not modelled, with a note where a float's (or a struct operator's) result may depend on it:
//! `BLOCK_SCAN_WARP_SCANS` runs in `BLOCK_SCAN_RAKING`'s order; hipCUB's raking reductions
//! (rocPRIM's `block_reduce_raking_reduce`) and reductions of a struct with a raking algorithm
//! run in the default `BLOCK_REDUCE_WARP_REDUCTIONS` order. Integer `Sum`, `Min` and `Max`
//! give the same value in every order, so they get no note.

use super::cub::{Body, Op, INT};
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{BinOp, Ty, ValTy};
use crate::KernelError;
use crosslane_core::result::Level;

/// CUB's raking layout for `threads` values: (cells per raking thread, raking threads).
fn layout(threads: u32) -> (u32, u32) {
    let seg = threads.div_ceil(threads.clamp(1, 32));
    (seg, threads.div_ceil(seg))
}

impl Parser<'_> {
    /// Checks a block algorithm against the block (`threads`) and notes where the order run
    /// here differs from the named algorithm's.
    ///
    /// # Errors
    /// CUB's `BLOCK_REDUCE_RAKING` on a block whose raking threads are no power of two (CUB
    /// then reduces their partials with its shared-memory warp reduction, not modelled).
    pub(super) fn cub_alg_check(
        &mut self,
        name: &str,
        alg: &str,
        elem: ValTy,
        record: bool,
        threads: u32,
        at: Span,
    ) -> PResult<()> {
        let lib = if self.hip { "hipcub" } else { "cub" };
        let order_matters = record || elem.scalar.is_float();
        let raking = alg.starts_with("BLOCK_REDUCE_RAKING");
        if raking && !self.hip && !record {
            let (_, r) = layout(threads);
            let fallback =
                alg == "BLOCK_REDUCE_RAKING" || threads <= 32 || !threads.is_multiple_of(32);
            if fallback && !r.is_power_of_two() {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "{lib}::{name} with {alg} of {threads} threads: its {r} raking threads \
                         are no power of two (CUB then uses its shared-memory warp reduction, \
                         not modelled here); use a block of whole warps or \
                         BLOCK_REDUCE_WARP_REDUCTIONS"
                    ),
                ));
            }
        }
        if !order_matters {
            return Ok(());
        }
        let note = match alg {
            "BLOCK_SCAN_WARP_SCANS" => Some(format!(
                "{lib}::{name} with {alg} is run in BLOCK_SCAN_RAKING's order of combination \
                 (segments of consecutive threads first, then a warp scan of the segment \
                 totals); {alg} scans each warp, then adds the earlier warps' totals: a float's \
                 rounding may differ from the GPU's in the last places"
            )),
            _ if raking && (self.hip || record) => Some(format!(
                "{lib}::{name} with {alg} is run in BLOCK_REDUCE_WARP_REDUCTIONS's order of \
                 combination here ({}); the raking algorithm folds segments of consecutive \
                 threads first: a float's rounding (or a struct operator's pick among equal \
                 values) may differ from the GPU's",
                if record {
                    "the raking order of a struct reduction is not modelled"
                } else {
                    "rocPRIM's raking orders are not modelled"
                }
            )),
            "BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY"
                if threads > 64 && threads.is_multiple_of(32) =>
            {
                Some(format!(
                    "{lib}::{name} with {alg}: each raking thread folds its own value and {} \
                     grid cells left to right here; CCCL 2.x's ThreadReduce may combine them as \
                     a tree for some operators and types, so a float's last places may differ",
                    (threads - 32) / 32
                ))
            }
            _ => None,
        };
        // Otherwise the run follows the algorithm's implementation; CUB's documentation
        // (cub::BlockReduceAlgorithm / BlockScanAlgorithm) describes each algorithm's phases,
        // not the order it combines a float's values in, so that order is not a documented
        // one (an explicitly chosen algorithm, as a template argument, is said so).
        let note = note.or_else(|| {
            (!alg.is_empty() && !record).then(|| {
                format!(
                    "{lib}::{name} with {alg}: the order of combination is {lib}'s \
                     implementation's (the CUB documentation describes the algorithm's phases, \
                     not the order it adds floating-point values in), so a float's last places \
                     follow that implementation and may differ with another algorithm or \
                     version; an integer sum does not depend on it"
                )
            })
        });
        if let Some(n) = note {
            self.diag(
                at,
                Level::Info,
                n,
                "CUB API, cub::BlockReduceAlgorithm / BlockScanAlgorithm",
            );
        }
        Ok(())
    }
}

impl Body {
    /// `grid[k]` as a node.
    fn grid_cell(&self, p: &mut Parser<'_>, k: Expr) -> Expr {
        let g = p.e_ident(self.at, "agg");
        let s = p.syn_span(self.at);
        Expr::new(ExprKind::Index(Box::new(g), Box::new(k)), s)
    }

    fn store_stmt(&self, p: &mut Parser<'_>, target: Expr, value: Expr) -> Stmt {
        let s = p.syn_span(self.at);
        self.stmt(StmtKind::Expr(Expr::new(
            ExprKind::Assign(None, Box::new(target), Box::new(value)),
            s,
        )))
    }

    fn sync(&mut self, p: &mut Parser<'_>) {
        let sync = p.e_call(self.at, "__syncthreads", Vec::new());
        let st = self.stmt(StmtKind::Expr(sync));
        self.stmts.push(st);
    }

    /// CUB's `BlockReduceRaking` (or `BlockReduceRakingCommutativeOnly` when `commutative`):
    /// the parameters `v`, `num_valid` (with `valid`) and `agg`, the shared grid.
    pub(super) fn block_reduce_raking(
        mut self,
        p: &mut Parser<'_>,
        op: &Op,
        valid: bool,
        commutative: bool,
    ) -> (Vec<Param>, Stmt) {
        let at = self.at;
        let n = self.threads;
        let mut params = vec![self.param("v", Ty::Val(self.elem))];
        if valid {
            params.push(self.param("num_valid", Ty::Val(INT)));
        }
        params.push(self.param("agg", Ty::Ptr(self.elem)));
        let lin = p.e_linear(at);
        self.decl(p, "tid", INT, lin);
        let num_valid = if valid {
            p.e_ident(at, "num_valid")
        } else {
            p.e_int(at, i64::from(n))
        };
        let tid = |p: &mut Parser<'_>| p.e_ident(at, "tid");
        let (seg, r) = layout(n);
        let commutative = commutative && !valid && n > 32 && n.is_multiple_of(32);
        if commutative {
            // Threads 32.. store at cell t - 32; raking thread r folds its own value with
            // cells r·S .. r·S + S - 1.
            let s_len = (n - 32) / 32;
            let (t, w) = (tid(p), p.e_int(at, 32));
            let sharing = p.e_bin(at, BinOp::Ge, t, w);
            let (t, w) = (tid(p), p.e_int(at, 32));
            let k = p.e_bin(at, BinOp::Sub, t, w);
            let cell = self.grid_cell(p, k);
            let v = p.e_ident(at, "v");
            let st = self.store_stmt(p, cell, v);
            let st = self.when(sharing, st);
            self.stmts.push(st);
            self.sync(p);
            let outer = std::mem::take(&mut self.stmts);
            let t = tid(p);
            self.decl(p, "lane", INT, t);
            for i in 0..s_len {
                let (t, sl) = (tid(p), p.e_int(at, i64::from(s_len)));
                let base = p.e_bin(at, BinOp::Mul, t, sl);
                let ie = p.e_int(at, i64::from(i));
                let k = p.e_bin(at, BinOp::Add, base, ie);
                let c = self.grid_cell(p, k);
                let name = format!("__g{i}");
                self.decl(p, &name, self.elem, c);
                let comb = p.cub_combine(op, "v", &name, at);
                let set = self.assign(p, "v", comb);
                self.stmts.push(set);
            }
            let full = p.e_int(at, 32);
            self.tree(p, op, "v", "lane", 32, &full);
            self.close_raking(p, outer, 32);
        } else if r == n {
            // One warp: WarpReduce<T, threads> of the values themselves.
            let t = tid(p);
            self.decl(p, "lane", INT, t);
            self.tree(p, op, "v", "lane", n, &num_valid);
        } else {
            let cell = {
                let t = tid(p);
                self.grid_cell(p, t)
            };
            let v = p.e_ident(at, "v");
            let st = self.store_stmt(p, cell, v);
            self.stmts.push(st);
            self.sync(p);
            let outer = std::mem::take(&mut self.stmts);
            let t = tid(p);
            self.decl(p, "lane", INT, t);
            let (t, sg) = (tid(p), p.e_int(at, i64::from(seg)));
            let base = p.e_bin(at, BinOp::Mul, t, sg);
            self.decl(p, "base", INT, base);
            let b = p.e_ident(at, "base");
            let first = self.grid_cell(p, b);
            let set = self.assign(p, "v", first);
            self.stmts.push(set);
            for i in 1..seg {
                let (b, ie) = (p.e_ident(at, "base"), p.e_int(at, i64::from(i)));
                let k = p.e_bin(at, BinOp::Add, b, ie);
                let c = self.grid_cell(p, k.clone());
                let name = format!("__g{i}");
                let comb = p.cub_combine(op, "v", &name, at);
                let set = self.assign(p, "v", comb);
                let span = p.syn_span(at);
                let d = Declarator {
                    name,
                    ty: Ty::Val(self.elem),
                    array: None,
                    init: Some(c),
                    span,
                    id: NodeId::fresh(),
                };
                let decl = self.stmt(StmtKind::Decl(Storage::default(), vec![d]));
                let inside = self.stmt(StmtKind::Block(vec![decl, set]));
                let cond = p.e_bin(at, BinOp::Lt, k, num_valid.clone());
                let s = self.when(cond, inside);
                self.stmts.push(s);
            }
            // ⌈num_valid / SEG⌉ valid partials.
            let up = p.e_int(at, i64::from(seg - 1));
            let sum = p.e_bin(at, BinOp::Add, num_valid.clone(), up);
            let sg = p.e_int(at, i64::from(seg));
            let vr = p.e_bin(at, BinOp::Div, sum, sg);
            self.decl(p, "valid_raking", INT, vr);
            let limit = p.e_ident(at, "valid_raking");
            self.tree(p, op, "v", "lane", r, &limit);
            self.close_raking(p, outer, r);
        }
        let (t, z) = (tid(p), p.e_int(at, 0));
        let cond = p.e_bin(at, BinOp::Eq, t, z);
        let alg = if commutative {
            "BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY"
        } else {
            "BLOCK_REDUCE_RAKING"
        };
        let why = format!(
            "cub::BlockReduce<T, {n}, {alg}> returns the block-wide aggregate to thread 0 only \
             (CUB API, BlockReduce::Sum / Reduce: \"the return value is undefined in threads \
             other than thread 0\")"
        );
        let body = self.finish(p, cond, why);
        (params, body)
    }

    /// Wraps the statements since `outer` in `if (tid < raking) { … }`.
    fn close_raking(&mut self, p: &mut Parser<'_>, outer: Vec<Stmt>, raking: u32) {
        let at = self.at;
        let inner = std::mem::replace(&mut self.stmts, outer);
        let (t, rr) = (p.e_ident(at, "tid"), p.e_int(at, i64::from(raking)));
        let cond = p.e_bin(at, BinOp::Lt, t, rr);
        let block = self.stmt(StmtKind::Block(inner));
        let s = self.when(cond, block);
        self.stmts.push(s);
    }
}
