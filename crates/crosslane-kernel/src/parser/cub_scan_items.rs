//! The items-per-thread overloads of CUB's and hipCUB's `BlockScan::InclusiveSum` and
//! `ExclusiveSum`: `InclusiveSum(items, out)` and `ExclusiveSum(items, out)` where `items` and
//! `out` are a thread's arrays of `ITEMS_PER_THREAD` values, with the optional
//! `block_aggregate` output.
//!
//! The arrangement is *blocked* (CUB API reference, `cub::BlockScan`: "the items-per-thread
//! overloads … assume a blocked arrangement of items across threads", thread t holding the
//! t-th run of `ITEMS_PER_THREAD` consecutive items), so the scan runs over the block's items
//! in the order thread 0's items, then thread 1's, …. CUB computes it in three steps
//! (`cub/block/block_scan.cuh`, the items-per-thread `ExclusiveScan` / `InclusiveScan`): each
//! thread reduces its items in order (`ThreadReduce`), the block scans those partials
//! exclusively (the single-item `ExclusiveSum`, thread 0 getting 0), and each thread scans its
//! items from its prefix (`ThreadScanInclusive` / `ThreadScanExclusive`: a running value
//! `inclusive = prefix`; per item `output[i] = inclusive` (exclusive) and then `inclusive =
//! inclusive + input[i]`, or the add first (inclusive)). Each item is read before its output
//! is written, so `items` and `out` may be the same array (`InclusiveSum(items, items)`). The
//! block aggregate is the sum of every thread's partial, as the single-item overload's.
//!
//! `BlockReduce::Sum(items)` and `Reduce(items, op)` take the same first step (CUB API,
//! `cub::BlockReduce`: "each thread contributes an array of consecutive input elements";
//! `cub/block/block_reduce.cuh` reduces a thread's items with `ThreadReduce` and then the
//! partials as the single-item overload does; rocPRIM's `block_reduce` likewise folds
//! `input[0]`, `input[1]`, … in order): [`Parser::cub_reduce_items`].

use super::cub::{CubClass, Op};
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{BinOp, Ty};
use crate::KernelError;

/// Most items per thread the lowering writes out (one statement per item).
const MAX_ITEMS: u64 = 64;

impl Parser<'_> {
    /// The array length when `x` names a one-dimensional array of constant length here.
    pub(super) fn cub_items_len(&self, x: &Expr) -> Option<u64> {
        match &x.kind {
            ExprKind::Ident(n) => self.array_len(n),
            _ => None,
        }
    }

    /// A `BlockReduce`'s items array `x` of `n` items folded in order by `op` into a partial
    /// declared before the statement (`ThreadReduce`): the partial, the single-item
    /// reduction's argument.
    ///
    /// # Errors
    /// More than [`MAX_ITEMS`] items; an items array that is not a named array.
    pub(super) fn cub_reduce_items(
        &mut self,
        c: &CubClass,
        op: &Op,
        x: &Expr,
        n: u64,
        at: Span,
    ) -> PResult<Expr> {
        let refuse = |what: String| {
            KernelError::new(
                at.line,
                at.col,
                format!("BlockReduce items-per-thread overload: {what}"),
            )
        };
        let ExprKind::Ident(items) = &x.kind else {
            return Err(refuse("the items must be a named array".into()));
        };
        if n == 0 || n > MAX_ITEMS {
            return Err(refuse(format!(
                "1..={MAX_ITEMS} items per thread are modelled, got {n}"
            )));
        }
        let items = items.clone();
        let ty = Ty::Val(c.elem);
        let elem = |p: &mut Self, i: u64| {
            let base = p.e_ident(at, &items);
            let k = p.e_int(at, i as i64);
            let s = p.syn_span(at);
            Expr::new(ExprKind::Index(Box::new(base), Box::new(k)), s)
        };
        self.syn = self.syn.wrapping_add(1);
        let part = format!("#ritems{}@{}.partial", self.syn, at.line);
        let item = format!("#ritems{}@{}.item", self.syn, at.line);
        let first = elem(self, 0);
        self.items_temp(&part, ty, Some(first), at);
        if n > 1 {
            self.items_temp(&item, ty, None, at);
        }
        for i in 1..n {
            // item = items[i]; partial = op(partial, item).
            for (to, from) in [(item.clone(), None), (part.clone(), Some(()))] {
                let value = match from {
                    None => elem(self, i),
                    Some(()) => self.cub_combine(op, &part, &item, at),
                };
                let target = self.e_ident(at, &to);
                let s = self.syn_span(at);
                let e = Expr::new(ExprKind::Assign(None, Box::new(target), Box::new(value)), s);
                let span = self.syn_span(at);
                self.pre.push(Stmt {
                    kind: StmtKind::Expr(e),
                    span,
                    end: span,
                });
            }
        }
        Ok(self.e_ident(at, &part))
    }

    /// `InclusiveSum(items, out[, agg])` / `ExclusiveSum(…)` of `BlockScan` over `n` items per
    /// thread (or `(items, out, prefix_op)`, `callback`: the partials' exclusive scan seeded with
    /// the callback's prefix, as CUB's items-per-thread overloads with `block_prefix_callback_op`
    /// pass it to the single-item `ExclusiveScan`): the thread's partial and its block prefix
    /// declared before the statement, the
    /// per-item assignments as the expression. `scan_fn(kind)` makes the single-item block
    /// scan's device function: `true` the exclusive one with an initial value, `false` the
    /// aggregate.
    ///
    /// # Errors
    /// `out` is not an array of `n` items; more than [`MAX_ITEMS`] items.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn cub_scan_items(
        &mut self,
        c: &CubClass,
        inclusive: bool,
        (x, out, agg, callback): (Expr, Expr, Option<Expr>, Option<Expr>),
        n: u64,
        storage: Option<Expr>,
        scan_fn: &mut dyn FnMut(&mut Self, bool) -> String,
        at: Span,
    ) -> PResult<Expr> {
        let (ExprKind::Ident(items), ExprKind::Ident(outs)) = (&x.kind, &out.kind) else {
            return Err(self.items_err(at, "items and output must be named arrays"));
        };
        let (items, outs) = (items.clone(), outs.clone());
        if self.array_len(&outs) != Some(n) {
            return Err(self.items_err(
                at,
                &format!("the output `{outs}` must be an array of {n} items, as `{items}` is"),
            ));
        }
        if n == 0 || n > MAX_ITEMS {
            return Err(self.items_err(
                at,
                &format!("1..={MAX_ITEMS} items per thread are modelled, got {n}"),
            ));
        }
        let ty = Ty::Val(c.elem);
        let elem = |p: &mut Self, a: &str, i: u64| {
            let base = p.e_ident(at, a);
            let k = p.e_int(at, i as i64);
            let s = p.syn_span(at);
            Expr::new(ExprKind::Index(Box::new(base), Box::new(k)), s)
        };
        // ThreadReduce: ((items[0] + items[1]) + items[2]) + …
        let mut part = elem(self, &items, 0);
        for i in 1..n {
            let e = elem(self, &items, i);
            part = self.e_bin(at, BinOp::Add, part, e);
        }
        self.syn = self.syn.wrapping_add(1);
        let tag = format!("#items{}@{}", self.syn, at.line);
        let part_name = format!("{tag}.partial");
        let run_name = format!("{tag}.running");
        let tmp_name = format!("{tag}.input");
        self.items_temp(&part_name, ty, Some(part), at);
        // The block's exclusive sum of the partials (thread 0: T(0), or the prefix a block
        // prefix callback returns for the block's total: [`super::cub_prefix`]).
        let init = match callback {
            Some(functor) => {
                let part = self.e_ident(at, &part_name);
                self.cub_block_prefix(c, &Op::Sum, functor, part, storage.clone(), at)?
            }
            None => {
                let zero = self.e_int(at, 0);
                let s = self.syn_span(at);
                Expr::new(ExprKind::Cast(ty, Box::new(zero)), s)
            }
        };
        let f = scan_fn(self, true);
        let p = self.e_ident(at, &part_name);
        let mut args = vec![p, init];
        args.extend(storage.clone());
        let prefix = self.e_call(at, &f, args);
        self.items_temp(&run_name, ty, Some(prefix), at);
        if !inclusive {
            self.items_temp(&tmp_name, ty, None, at);
        }
        let mut steps = Vec::new();
        for i in 0..n {
            let input = elem(self, &items, i);
            let r = self.e_ident(at, &run_name);
            if inclusive {
                // inclusive = inclusive + input[i]; output[i] = inclusive.
                let sum = self.e_bin(at, BinOp::Add, r, input);
                let r = self.e_ident(at, &run_name);
                steps.push(self.e_assign(at, r, sum));
                let o = elem(self, &outs, i);
                let r = self.e_ident(at, &run_name);
                steps.push(self.e_assign(at, o, r));
            } else {
                // t = input[i]; output[i] = inclusive; inclusive = inclusive + t.
                let t = self.e_ident(at, &tmp_name);
                steps.push(self.e_assign(at, t, input));
                let o = elem(self, &outs, i);
                steps.push(self.e_assign(at, o, r));
                let (r, t) = (self.e_ident(at, &run_name), self.e_ident(at, &tmp_name));
                let sum = self.e_bin(at, BinOp::Add, r, t);
                let r = self.e_ident(at, &run_name);
                steps.push(self.e_assign(at, r, sum));
            }
        }
        if let Some(agg) = agg {
            let f = scan_fn(self, false);
            let mut args = vec![self.e_ident(at, &part_name)];
            args.extend(storage);
            let call = self.e_call(at, &f, args);
            steps.push(self.e_assign(at, agg, call));
        }
        let mut it = steps.into_iter();
        let first = it.next().unwrap_or_else(|| self.e_int(at, 0));
        Ok(it.fold(first, |a, b| {
            let s = self.syn_span(at);
            Expr::new(ExprKind::Comma(Box::new(a), Box::new(b)), s)
        }))
    }

    /// Declares the temporary `name` of type `ty` before the statement being read.
    pub(super) fn items_temp(&mut self, name: &str, ty: Ty, init: Option<Expr>, at: Span) {
        self.declare(name, ty);
        let span = self.syn_span(at);
        self.pre
            .push(super::build::decl_at(name, ty, init, at, span));
    }

    fn items_err(&self, at: Span, what: &str) -> KernelError {
        KernelError::new(
            at.line,
            at.col,
            format!("BlockScan items-per-thread overload: {what}"),
        )
    }
}
