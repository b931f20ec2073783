//! CUB's and hipCUB's `WarpScan`: `InclusiveSum`, `ExclusiveSum`, `InclusiveScan(x, out, op)`
//! (also `InclusiveScan(x, out, init, op)`, seeded with an initial value),
//! `ExclusiveScan(x, out, init, op)` and `ExclusiveScan(x, out, op)`, each with an optional
//! warp aggregate output, and `Scan(x, inclusive, exclusive[, init], op)` with both outputs, lowered to device functions of syntax-tree nodes over the registry's
//! `shfl_up` (`cub`).
//!
//! Order and validity (CUB API reference, `cub::WarpScan`; CUB's `WarpScanShfl`; rocPRIM
//! `warp_scan_shuffle`, hipCUB's warp scan on AMD):
//! - inclusive: Kogge-Stone steps at offsets 1, 2, 4, … — lane l with l ≥ offset sets
//!   `v = op(shfl_up(v, offset), v)`; every lane's result is defined;
//! - exclusive with an initial value (`ExclusiveSum` is this with `T()` = 0): lane l gets
//!   `op(init, inclusive[l - 1])`, lane 0 `init`;
//! - exclusive without one: lane l gets `inclusive[l - 1]`; lane 0's result is undefined
//!   ("because no initial value is supplied, the exclusive_output computed for warp-lane 0 is
//!   undefined", CUB API, `WarpScan::ExclusiveScan`; `BlockScan::ExclusiveScan`: "with no
//!   initial value, the output computed for thread 0 is undefined");
//! - the warp aggregate is the last lane's inclusive result, read by every lane (without the
//!   initial value).
//!
//! rocPRIM may run its warp scans on DPP row operations on some targets; the shuffle variant
//! modelled here is rocPRIM's portable one (the sums of integers are the same either way).

use super::cub::{Body, CubClass, Kind, Op, INT};
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{BinOp, Ty};
use crate::KernelError;

/// Which result a warp scan function computes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ScanKind {
    Inclusive,
    /// Inclusive seeded with a prefix (a parameter, `init`): every output is `op(init, ·)`
    /// (a `BlockScan` with a block prefix callback: [`super::cub_prefix`]).
    InclusiveInit,
    /// Exclusive with an initial value (a parameter).
    ExclusiveInit,
    /// Exclusive without one: lane 0 undefined.
    Exclusive,
    /// The warp aggregate.
    Total,
}

impl Parser<'_> {
    /// `.InclusiveSum(x, out[, agg])` and kin of a `WarpScan` (the position is after the
    /// method's name): assignments of the scan's (and aggregate's) function calls.
    ///
    /// # Errors
    /// A method that is not modelled, an unsupported operator.
    pub(super) fn cub_scan_call(
        &mut self,
        c: &CubClass,
        storage: Option<Expr>,
        method: &str,
        m_at: Span,
        at: Span,
    ) -> PResult<Expr> {
        let class = if c.kind == Kind::BlockScan {
            "BlockScan"
        } else {
            "WarpScan"
        };
        if method == "Broadcast" && c.kind == Kind::WarpScan {
            return self.cub_warp_broadcast(c, at);
        }
        self.expect_punct("(")?;
        let x = self.assign_expr()?;
        self.expect_punct(",")?;
        let out = self.assign_expr()?;
        let mut init = None;
        let (kind, op) = match method {
            "InclusiveSum" => (ScanKind::Inclusive, Op::Sum),
            "ExclusiveSum" => {
                let zero = self.e_int(at, 0);
                let s = self.syn_span(at);
                init = Some(Expr::new(
                    ExprKind::Cast(Ty::Val(c.elem), Box::new(zero)),
                    s,
                ));
                (ScanKind::ExclusiveInit, Op::Sum)
            }
            // `InclusiveScan(x, out, op[, aggregate])`, or with an initial value,
            // `InclusiveScan(x, out, initial_value, op[, aggregate])` (CUB API,
            // `cub::WarpScan::InclusiveScan` "with initial value": every output is seeded
            // with it; the aggregate leaves it out). `ExclusiveScan` reads the same two forms.
            "InclusiveScan" => self.scan_op_or_init(
                &mut init,
                m_at,
                ScanKind::Inclusive,
                ScanKind::InclusiveInit,
            )?,
            "ExclusiveScan" => self.scan_op_or_init(
                &mut init,
                m_at,
                ScanKind::Exclusive,
                ScanKind::ExclusiveInit,
            )?,
            "Scan" if c.kind == Kind::WarpScan => {
                return self.cub_warp_scan_both(c, storage, (x, out), at);
            }
            other => {
                return Err(KernelError::new(
                    m_at.line,
                    m_at.col,
                    format!(
                        "{class}::{other} is not modelled here (InclusiveSum, ExclusiveSum, \
                         InclusiveScan and ExclusiveScan are{})",
                        if c.kind == Kind::WarpScan {
                            ", and Scan"
                        } else {
                            ""
                        }
                    ),
                ))
            }
        };
        let agg_at = self.span();
        let last = self.cub_rest()?;
        // A functor last is a block prefix callback ([`super::cub_prefix`]), else the aggregate.
        let (agg, callback) = match last {
            Some(a) if c.kind == Kind::BlockScan && self.cub_is_callback(&a) => {
                if matches!(method, "ExclusiveScan" | "InclusiveScan") && init.is_some() {
                    return Err(KernelError::new(
                        agg_at.line,
                        agg_at.col,
                        format!(
                            "BlockScan::{method} takes an initial value or a block prefix \
                             callback, not both (CUB API, cub::BlockScan: the callback's return \
                             value is the scan's seed): drop the initial value"
                        ),
                    ));
                }
                (None, Some(a))
            }
            Some(a) => {
                self.refuse_prefix_callback(&a, class, method, agg_at)?;
                (Some(a), None)
            }
            None => (None, None),
        };
        // The items-per-thread overloads (`InclusiveSum(items, items)`): [`super::cub_scan_items`].
        if c.kind == Kind::BlockScan {
            if let Some(n) = self.cub_items_len(&x) {
                let inclusive = match method {
                    "InclusiveSum" => true,
                    "ExclusiveSum" => false,
                    other => {
                        return Err(KernelError::new(
                            m_at.line,
                            m_at.col,
                            format!(
                                "BlockScan::{other} over an array of items per thread is not \
                                 modelled here (InclusiveSum and ExclusiveSum are): scan one \
                                 value per thread"
                            ),
                        ))
                    }
                };
                let mut scan_fn = |p: &mut Self, excl: bool| {
                    let kind = if excl {
                        ScanKind::ExclusiveInit
                    } else {
                        ScanKind::Total
                    };
                    p.cub_warp_scan_fn(c, &Op::Sum, kind, at)
                };
                return self.cub_scan_items(
                    c,
                    inclusive,
                    (x, out, agg, callback),
                    n,
                    storage,
                    &mut scan_fn,
                    at,
                );
            }
        }
        // The callback's prefix seeds the scan: exclusive ones start from it (thread 0 gets
        // it), inclusive ones combine it into every output.
        let kind = match callback {
            Some(functor) => {
                let prefix =
                    self.cub_block_prefix(c, &op, functor, x.clone(), storage.clone(), at)?;
                init = Some(prefix);
                match kind {
                    ScanKind::Inclusive => ScanKind::InclusiveInit,
                    _ => ScanKind::ExclusiveInit,
                }
            }
            None => kind,
        };
        let f = self.cub_warp_scan_fn(c, &op, kind, at);
        let mut args = vec![x.clone()];
        args.extend(init);
        args.extend(storage.clone());
        let call = self.e_call(at, &f, args);
        let s = self.syn_span(at);
        let mut e = Expr::new(ExprKind::Assign(None, Box::new(out), Box::new(call)), s);
        if let Some(agg) = agg {
            let f = self.cub_warp_scan_fn(c, &op, ScanKind::Total, at);
            let mut args = vec![x];
            args.extend(storage);
            let call = self.e_call(at, &f, args);
            let s = self.syn_span(at);
            let set = Expr::new(ExprKind::Assign(None, Box::new(agg), Box::new(call)), s);
            let s = self.syn_span(at);
            // The aggregate first: an in-place scan (`ExclusiveSum(v, v, agg)`) overwrites its
            // input, and the aggregate is the total of the inputs (CUB API, `block_aggregate`).
            e = Expr::new(ExprKind::Comma(Box::new(set), Box::new(e)), s);
        }
        Ok(e)
    }

    /// `WarpScan::Scan(x, inclusive, exclusive[, init], op)` (the position is after the
    /// inclusive output): both outputs, each the function its own method would use (CUB API,
    /// `cub::WarpScan::Scan`: "computes both inclusive and exclusive prefix scans"; without an
    /// initial value "the exclusive_output computed for warp-lane 0 is undefined"). An output
    /// that is the input itself is assigned last, so the other reads the input.
    ///
    /// # Errors
    /// An unsupported operator, a malformed argument list.
    fn cub_warp_scan_both(
        &mut self,
        c: &CubClass,
        storage: Option<Expr>,
        (x, incl_out): (Expr, Expr),
        at: Span,
    ) -> PResult<Expr> {
        self.expect_punct(",")?;
        let excl_out = self.assign_expr()?;
        self.expect_punct(",")?;
        let save = self.pos;
        let op_at = self.span();
        let (init, op) = match self.cub_op() {
            Ok(op) if self.is_punct(")") => (None, op),
            _ => {
                self.pos = save;
                let init = self.assign_expr()?;
                self.expect_punct(",")?;
                (Some(init), self.cub_op()?)
            }
        };
        self.cub_scalar_op(&op, op_at)?;
        self.expect_punct(")")?;
        let excl_kind = if init.is_some() {
            ScanKind::ExclusiveInit
        } else {
            ScanKind::Exclusive
        };
        let incl_f = self.cub_warp_scan_fn(c, &op, ScanKind::Inclusive, at);
        let excl_f = self.cub_warp_scan_fn(c, &op, excl_kind, at);
        let mut args = vec![x.clone()];
        args.extend(storage.clone());
        let incl_call = self.e_call(at, &incl_f, args);
        let mut args = vec![x.clone()];
        args.extend(init);
        args.extend(storage);
        let excl_call = self.e_call(at, &excl_f, args);
        let s = self.syn_span(at);
        let incl_set = Expr::new(
            ExprKind::Assign(None, Box::new(incl_out.clone()), Box::new(incl_call)),
            s,
        );
        let s = self.syn_span(at);
        let excl_set = Expr::new(
            ExprKind::Assign(None, Box::new(excl_out), Box::new(excl_call)),
            s,
        );
        let same = |a: &Expr, b: &Expr| matches!((&a.kind, &b.kind), (ExprKind::Ident(p), ExprKind::Ident(q)) if p == q);
        let (first, second) = if same(&incl_out, &x) {
            (excl_set, incl_set)
        } else {
            (incl_set, excl_set)
        };
        let s = self.syn_span(at);
        Ok(Expr::new(
            ExprKind::Comma(Box::new(first), Box::new(second)),
            s,
        ))
    }

    /// Refuses a scan's last argument that is no aggregate output but a callback: a functor or
    /// lambda given to a `WarpScan` (CUB API, `cub::WarpScan` has no `block_prefix_callback_op`
    /// overload), or a `BlockScan` argument of no value type that is no struct (a struct or
    /// closure is a block prefix callback, `super::cub_prefix`); reading either as the
    /// aggregate would lose the prefix.
    ///
    /// # Errors
    /// `a` is a struct (a functor) or of no value type (a lambda).
    fn refuse_prefix_callback(
        &mut self,
        a: &Expr,
        class: &str,
        method: &str,
        at: Span,
    ) -> PResult<()> {
        let functor = self.struct_of(a).is_some() || self.expr_type(a).is_none();
        if !functor {
            return Ok(());
        }
        let lib = if self.hip { "hipcub" } else { "cub" };
        let why = if class == "BlockScan" {
            "a block prefix callback must be a struct object or a lambda with `T operator()(T \
             block_aggregate)` (CUB API, cub::BlockScan, `block_prefix_callback_op`)"
        } else {
            "WarpScan has no block prefix callback overload (CUB API, cub::WarpScan); the last \
             argument must be a variable of the item type that receives the warp aggregate"
        };
        Err(KernelError::new(
            at.line,
            at.col,
            format!("{lib}::{class}::{method} with a callback: {why}"),
        ))
    }

    /// The device function of one warp scan (made once per shape), its name.
    pub(super) fn cub_warp_scan_fn(
        &mut self,
        c: &CubClass,
        op: &Op,
        kind: ScanKind,
        at: Span,
    ) -> String {
        let lib = if self.hip { "hipcub" } else { "cub" };
        let tag = match kind {
            ScanKind::Inclusive => "incl",
            ScanKind::InclusiveInit => "incl_init",
            ScanKind::ExclusiveInit => "excl_init",
            ScanKind::Exclusive => "excl",
            ScanKind::Total => "total",
        };
        let class = if c.kind == Kind::BlockScan {
            "block"
        } else {
            "warp"
        };
        let fname = format!(
            "__{lib}_{class}_scan_{tag}_{}_{}_{}_w{}",
            op.tag(),
            c.elem.scalar.name().replace(' ', "_"),
            c.threads,
            self.cub_warp()
        );
        if self.fn_types.contains_key(&fname) {
            return fname;
        }
        let b = Body::new(self, c, at);
        let (params, body) = if c.kind == Kind::BlockScan {
            b.block_scan(self, op, kind)
        } else {
            b.warp_scan(self, op, kind)
        };
        let ret = Ty::Val(c.elem);
        self.push_built_fn(&fname, ret, params, body, at);
        fname
    }
}

impl Body {
    /// `shfl_up(v, off, width)` (CUDA `__shfl_up_sync` with the full mask; HIP `__shfl_up`).
    fn shfl_up(&self, p: &mut Parser<'_>, v: &str, off: u32, width: u32) -> Expr {
        let at = self.at;
        let ev = p.e_ident(at, v);
        let o = p.e_int(at, i64::from(off));
        let w = p.e_int(at, i64::from(width));
        if self.hip {
            p.e_call(at, "__shfl_up", vec![ev, o, w])
        } else {
            let m = p.e_mask(at, 0xffff_ffff);
            p.e_call(at, "__shfl_up_sync", vec![m, ev, o, w])
        }
    }

    fn warp_scan(mut self, p: &mut Parser<'_>, op: &Op, kind: ScanKind) -> (Vec<Param>, Stmt) {
        let at = self.at;
        let n = self.threads;
        let mut params = vec![self.param("v", Ty::Val(self.elem))];
        if matches!(kind, ScanKind::ExclusiveInit | ScanKind::InclusiveInit) {
            params.push(self.param("init", Ty::Val(self.elem)));
        }
        let lane_id = p.e_lane(at);
        let nn = p.e_int(at, i64::from(n));
        let lane = p.e_bin(at, BinOp::Rem, lane_id, nn);
        self.decl(p, "lane", INT, lane);
        // Kogge-Stone: v = op(shfl_up(v, d), v) where lane >= d.
        let mut d = 1;
        while d < n {
            let b = format!("__up{d}");
            let up = self.shfl_up(p, "v", d, n);
            self.decl(p, &b, self.elem, up);
            let (l, dd) = (p.e_ident(at, "lane"), p.e_int(at, i64::from(d)));
            let cond = p.e_bin(at, BinOp::Ge, l, dd);
            let comb = p.cub_combine(op, &b, "v", at);
            let set = self.assign(p, "v", comb);
            let s = self.when(cond, set);
            self.stmts.push(s);
            d <<= 1;
        }
        let lane_is = |p: &mut Parser<'_>, op: BinOp| {
            let (l, z) = (p.e_ident(at, "lane"), p.e_int(at, 0));
            p.e_bin(at, op, l, z)
        };
        match kind {
            ScanKind::Inclusive => {}
            ScanKind::InclusiveInit => {
                let with = p.cub_combine(op, "init", "v", at);
                let set = self.assign(p, "v", with);
                self.stmts.push(set);
            }
            ScanKind::Total => {
                // The last lane's inclusive result, in every lane.
                let (v, src, w) = (
                    p.e_ident(at, "v"),
                    p.e_int(at, i64::from(n - 1)),
                    p.e_int(at, i64::from(n)),
                );
                let read = if self.hip {
                    p.e_call(at, "__shfl", vec![v, src, w])
                } else {
                    let m = p.e_mask(at, 0xffff_ffff);
                    p.e_call(at, "__shfl_sync", vec![m, v, src, w])
                };
                let set = self.assign(p, "v", read);
                self.stmts.push(set);
            }
            ScanKind::ExclusiveInit => {
                // lane l: op(init, inclusive[l - 1]); lane 0: init.
                let with = p.cub_combine(op, "init", "v", at);
                self.decl(p, "__with_init", self.elem, with);
                let up = self.shfl_up(p, "__with_init", 1, n);
                self.decl(p, "__prev", self.elem, up);
                let first = lane_is(p, BinOp::Eq);
                let (i, pr) = (p.e_ident(at, "init"), p.e_ident(at, "__prev"));
                let s = p.syn_span(at);
                let pick = Expr::new(
                    ExprKind::Ternary(Box::new(first), Box::new(i), Box::new(pr)),
                    s,
                );
                let set = self.assign(p, "v", pick);
                self.stmts.push(set);
            }
            ScanKind::Exclusive => {
                let up = self.shfl_up(p, "v", 1, n);
                let set = self.assign(p, "v", up);
                self.stmts.push(set);
                let keep = lane_is(p, BinOp::Ne);
                let lib = if self.hip { "hipcub" } else { "cub" };
                let why = format!(
                    "{lib}::WarpScan<T, {n}>::ExclusiveScan without an initial value leaves lane 0's \
                     output undefined (CUB API, WarpScan::ExclusiveScan: \"because no initial \
                     value is supplied, the exclusive_output computed for warp-lane 0 is \
                     undefined\")"
                );
                let body = self.finish(p, keep, why);
                return (params, body);
            }
        }
        let v = p.e_ident(at, "v");
        let ret = self.stmt(StmtKind::Return(Some(v)));
        self.stmts.push(ret);
        let stmts = std::mem::take(&mut self.stmts);
        let body = self.stmt(StmtKind::Block(stmts));
        (params, body)
    }
}

impl Body {
    fn index(&self, p: &mut Parser<'_>, base: &str, i: Expr) -> Expr {
        let b = p.e_ident(self.at, base);
        let s = p.syn_span(self.at);
        Expr::new(ExprKind::Index(Box::new(b), Box::new(i)), s)
    }

    /// `grid[k]` with `k` a variable plus a constant.
    fn cell(&self, p: &mut Parser<'_>, var: &str, plus: i64) -> Expr {
        let at = self.at;
        let v = p.e_ident(at, var);
        let k = if plus == 0 {
            v
        } else {
            let c = p.e_int(at, plus);
            p.e_bin(at, BinOp::Add, v, c)
        };
        self.index(p, "grid", k)
    }

    fn store(&self, p: &mut Parser<'_>, target: Expr, value: Expr) -> Stmt {
        let s = p.syn_span(self.at);
        self.stmt(StmtKind::Expr(Expr::new(
            ExprKind::Assign(None, Box::new(target), Box::new(value)),
            s,
        )))
    }

    /// A block scan over the raking grid `grid` (shared, one cell per thread and one for the
    /// aggregate): CUB's `BlockScanRaking` and rocPRIM's `block_scan_reduce_then_scan` (hipCUB's
    /// `BLOCK_SCAN_RAKING`). The first `R` = min(threads, warp) threads each own a segment of
    /// `S` = threads / R consecutive cells: a sequential reduction of the segment (left to
    /// right), a Kogge-Stone warp scan of the segment totals, then a sequential scan down the
    /// segment from the segment's prefix.
    /// - CUB: exclusive with `init`: prefix of segment r = `op(init, incl[r - 1])` (`init` for
    ///   r = 0), cells get the running exclusive values; inclusive: prefix `incl[r - 1]`
    ///   applied to the segment's first value except in thread 0; exclusive without `init`:
    ///   thread 0's output undefined; the aggregate is the warp scan's total.
    /// - rocPRIM: the cells get the inclusive scan (segment prefix `incl[r - 1]`, thread 0 its
    ///   own value); exclusive results read the cell of the thread before, `op(init, ·)`; the
    ///   aggregate is the last cell.
    fn block_scan(mut self, p: &mut Parser<'_>, op: &Op, kind: ScanKind) -> (Vec<Param>, Stmt) {
        let at = self.at;
        let r_threads = self.threads.min(self.warp);
        let seg = (self.threads / r_threads).max(1);
        let mut params = vec![self.param("v", Ty::Val(self.elem))];
        if matches!(kind, ScanKind::ExclusiveInit | ScanKind::InclusiveInit) {
            params.push(self.param("init", Ty::Val(self.elem)));
        }
        params.push(self.param("grid", Ty::Ptr(self.elem)));
        if kind == ScanKind::Total {
            // The aggregate is a second call after the scan's own (`out = scan(x), agg =
            // total(x)`): every thread has read its result from the grid before this call
            // writes it again.
            let sync = p.e_call(at, "__syncthreads", Vec::new());
            let st = self.stmt(StmtKind::Expr(sync));
            self.stmts.push(st);
        }
        let lin = p.e_linear(at);
        self.decl(p, "tid", INT, lin);
        let (t, w) = (p.e_ident(at, "tid"), p.e_int(at, i64::from(r_threads)));
        let lane = p.e_bin(at, BinOp::Rem, t, w);
        self.decl(p, "lane", INT, lane);
        let own = self.cell(p, "tid", 0);
        let v = p.e_ident(at, "v");
        let st = self.store(p, own, v);
        self.stmts.push(st);
        let sync = p.e_call(at, "__syncthreads", Vec::new());
        let st = self.stmt(StmtKind::Expr(sync));
        self.stmts.push(st.clone());
        // The raking threads.
        let outer = std::mem::take(&mut self.stmts);
        let (t, sg) = (p.e_ident(at, "tid"), p.e_int(at, i64::from(seg)));
        let base = p.e_bin(at, BinOp::Mul, t, sg);
        self.decl(p, "base", INT, base);
        let first = self.cell(p, "base", 0);
        self.decl(p, "incl", self.elem, first);
        for i in 1..seg {
            let c = self.cell(p, "base", i64::from(i));
            let name = format!("__s{i}");
            self.decl(p, &name, self.elem, c);
            let comb = p.cub_combine(op, "incl", &name, at);
            let set = self.assign(p, "incl", comb);
            self.stmts.push(set);
        }
        let mut d = 1;
        while d < r_threads {
            let b = format!("__up{d}");
            let up = self.shfl_up(p, "incl", d, r_threads);
            self.decl(p, &b, self.elem, up);
            let (l, dd) = (p.e_ident(at, "lane"), p.e_int(at, i64::from(d)));
            let cond = p.e_bin(at, BinOp::Ge, l, dd);
            let comb = p.cub_combine(op, &b, "incl", at);
            let set = self.assign(p, "incl", comb);
            let s = self.when(cond, set);
            self.stmts.push(s);
            d <<= 1;
        }
        let cub = !self.hip;
        let tid_is = |p: &mut Parser<'_>, o: BinOp| {
            let (t, z) = (p.e_ident(at, "tid"), p.e_int(at, 0));
            p.e_bin(at, o, t, z)
        };
        let ternary = |p: &mut Parser<'_>, c: Expr, a: Expr, b: Expr| {
            let s = p.syn_span(at);
            Expr::new(ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)), s)
        };
        // The segment's prefix: the inclusive total of the segment before (op(init, ·) for
        // CUB's exclusive scan with an initial value).
        let seeded = matches!(kind, ScanKind::ExclusiveInit | ScanKind::InclusiveInit);
        if cub && seeded {
            let with = p.cub_combine(op, "init", "incl", at);
            self.decl(p, "__with_init", self.elem, with);
            let up = self.shfl_up(p, "__with_init", 1, r_threads);
            self.decl(p, "__up", self.elem, up);
            let c = tid_is(p, BinOp::Eq);
            let (i, u) = (p.e_ident(at, "init"), p.e_ident(at, "__up"));
            let pick = ternary(p, c, i, u);
            self.decl(p, "prefix", self.elem, pick);
        } else {
            let up = self.shfl_up(p, "incl", 1, r_threads);
            self.decl(p, "prefix", self.elem, up);
        }
        let exclusive_down = cub && matches!(kind, ScanKind::ExclusiveInit | ScanKind::Exclusive);
        if exclusive_down {
            // ThreadScanExclusive: cell i gets the running value before its own.
            let pre = p.e_ident(at, "prefix");
            self.decl(p, "run", self.elem, pre);
            for i in 0..seg {
                let name = format!("__e{i}");
                let c = self.cell(p, "base", i64::from(i));
                self.decl(p, &name, self.elem, c);
                let target = self.cell(p, "base", i64::from(i));
                let run = p.e_ident(at, "run");
                let st = self.store(p, target, run);
                self.stmts.push(st);
                // CUB applies no prefix in thread 0 of an exclusive scan without `init`: its
                // own first value starts the running sum there.
                let comb = p.cub_combine(op, "run", &name, at);
                let comb = if i == 0 && kind == ScanKind::Exclusive {
                    let c = tid_is(p, BinOp::Eq);
                    let own = p.e_ident(at, &name);
                    ternary(p, c, own, comb)
                } else {
                    comb
                };
                let set = self.assign(p, "run", comb);
                self.stmts.push(set);
            }
        } else {
            // An inclusive downsweep: the prefix joins the segment's first value except in
            // thread 0; CUB seeded (a prefix callback's, `BlockScanRaking::InclusiveScan` with
            // `block_prefix_callback_op`), thread 0 too, its prefix being the seed (rocPRIM
            // seeds the results after the grid's inclusive scan instead).
            let first = self.cell(p, "base", 0);
            self.decl(p, "run", self.elem, first);
            let comb = p.cub_combine(op, "prefix", "run", at);
            let set = self.assign(p, "run", comb);
            if cub && kind == ScanKind::InclusiveInit {
                self.stmts.push(set);
            } else {
                let c = tid_is(p, BinOp::Ne);
                let s = self.when(c, set);
                self.stmts.push(s);
            }
            let target = self.cell(p, "base", 0);
            let run = p.e_ident(at, "run");
            let st = self.store(p, target, run);
            self.stmts.push(st);
            for i in 1..seg {
                let c = self.cell(p, "base", i64::from(i));
                let name = format!("__i{i}");
                self.decl(p, &name, self.elem, c);
                let comb = p.cub_combine(op, "run", &name, at);
                let set = self.assign(p, "run", comb);
                self.stmts.push(set);
                let target = self.cell(p, "base", i64::from(i));
                let run = p.e_ident(at, "run");
                let st = self.store(p, target, run);
                self.stmts.push(st);
            }
        }
        if cub && kind == ScanKind::Total {
            // CUB's block aggregate: the warp scan's total, kept in the last cell.
            let (i, src, w) = (
                p.e_ident(at, "incl"),
                p.e_int(at, i64::from(r_threads - 1)),
                p.e_int(at, i64::from(r_threads)),
            );
            let read = if self.hip {
                p.e_call(at, "__shfl", vec![i, src, w])
            } else {
                let m = p.e_mask(at, 0xffff_ffff);
                p.e_call(at, "__shfl_sync", vec![m, i, src, w])
            };
            self.decl(p, "__total", self.elem, read);
            let c = tid_is(p, BinOp::Eq);
            let last = p_int(p, at, self.threads);
            let target = self.index(p, "grid", last);
            let tot = p.e_ident(at, "__total");
            let st = self.store(p, target, tot);
            let s = self.when(c, st);
            self.stmts.push(s);
        }
        let raking = std::mem::replace(&mut self.stmts, outer);
        let (t, rr) = (p.e_ident(at, "tid"), p.e_int(at, i64::from(r_threads)));
        let is_raking = p.e_bin(at, BinOp::Lt, t, rr);
        let block = self.stmt(StmtKind::Block(raking));
        let s = self.when(is_raking, block);
        self.stmts.push(s);
        self.stmts.push(st);
        let lib = if self.hip { "hipcub" } else { "cub" };
        let n = self.threads;
        // The thread's result.
        // rocPRIM's exclusive results read the cell of the thread before (thread 0 reads its
        // own, a value then replaced by `init` or marked undefined: no cell -1 is read).
        let c = tid_is(p, BinOp::Eq);
        let (z, t) = (p.e_int(at, 0), p.e_ident(at, "tid"));
        let one = p.e_int(at, 1);
        let t1 = p.e_bin(at, BinOp::Sub, t, one);
        let before = ternary(p, c, z, t1);
        self.decl(p, "__pi", INT, before);
        let (value, undefined_in_thread0) = match (cub, kind) {
            (true, ScanKind::Total) => {
                let k = p_int(p, at, n);
                (self.index(p, "grid", k), false)
            }
            (false, ScanKind::Total) => {
                let k = p_int(p, at, n - 1);
                (self.index(p, "grid", k), false)
            }
            (true, _) => (self.cell(p, "tid", 0), kind == ScanKind::Exclusive),
            (false, ScanKind::Inclusive) => (self.cell(p, "tid", 0), false),
            (false, ScanKind::InclusiveInit) => {
                let own = self.cell(p, "tid", 0);
                self.decl(p, "__own", self.elem, own);
                (p.cub_combine(op, "init", "__own", at), false)
            }
            (false, ScanKind::ExclusiveInit) => {
                let before = self.cell(p, "__pi", 0);
                self.decl(p, "__before", self.elem, before);
                let comb = p.cub_combine(op, "init", "__before", at);
                let c = tid_is(p, BinOp::Eq);
                let i = p.e_ident(at, "init");
                (ternary(p, c, i, comb), false)
            }
            (false, ScanKind::Exclusive) => (self.cell(p, "__pi", 0), true),
        };
        let set = self.assign(p, "v", value);
        self.stmts.push(set);
        if kind == ScanKind::Total {
            // The aggregate is read before the scan's own call (`agg = total(x), out =
            // scan(x)`, so that an in-place scan reads its input): every thread has read the
            // total from the grid before the scan writes the grid again. CUB computes both in
            // one pass, so no hazard is the library's.
            let sync = p.e_call(at, "__syncthreads", Vec::new());
            let st = self.stmt(StmtKind::Expr(sync));
            self.stmts.push(st);
        }
        if undefined_in_thread0 {
            let keep = tid_is(p, BinOp::Ne);
            let why = format!(
                "{lib}::BlockScan<T, {n}>::ExclusiveScan without an initial value leaves thread \
                 0's output undefined (CUB API, BlockScan::ExclusiveScan: \"with no initial \
                 value, the output computed for thread 0 is undefined\")"
            );
            let body = self.finish(p, keep, why);
            return (params, body);
        }
        let v = p.e_ident(at, "v");
        let ret = self.stmt(StmtKind::Return(Some(v)));
        self.stmts.push(ret);
        let stmts = std::mem::take(&mut self.stmts);
        let body = self.stmt(StmtKind::Block(stmts));
        (params, body)
    }
}

fn p_int(p: &mut Parser<'_>, at: Span, n: u32) -> Expr {
    p.e_int(at, i64::from(n))
}

impl Parser<'_> {
    /// After `, ` of a `…Scan(x, out, ` call: the operator (`plain`) or an initial value and
    /// then the operator (`seeded`, the value left in `init`).
    ///
    /// # Errors
    /// An unsupported operator, or neither form.
    fn scan_op_or_init(
        &mut self,
        init: &mut Option<Expr>,
        m_at: Span,
        plain: ScanKind,
        seeded: ScanKind,
    ) -> PResult<(ScanKind, Op)> {
        self.expect_punct(",")?;
        let save = self.pos;
        match self.cub_op() {
            Ok(op) if self.is_punct(")") || self.is_punct(",") => {
                self.cub_scalar_op(&op, m_at)?;
                Ok((plain, op))
            }
            _ => {
                self.pos = save;
                *init = Some(self.assign_expr()?);
                self.expect_punct(",")?;
                let op_at = self.span();
                let op = self.cub_op()?;
                self.cub_scalar_op(&op, op_at)?;
                Ok((seeded, op))
            }
        }
    }
}

impl Parser<'_> {
    /// `WarpScan(temp).Broadcast(input, src_lane)` (the position is after the method's name):
    /// every lane of the logical warp gets `input` of its lane `src_lane` (CUB API,
    /// `cub::WarpScan::Broadcast`: "Broadcast the value input from logical warp-lane
    /// src_lane to all lanes in the logical warp"; CUB's `WarpScanShfl::Broadcast` is
    /// `ShuffleIndex<LOGICAL_WARP_THREADS>(input, src_lane, member_mask)` over the logical
    /// warp's lanes, hipCUB's `warp_shuffle(input, src_lane, width)`). A `src_lane` outside the
    /// logical warp wraps as `__shfl_sync`'s does at that width.
    fn cub_warp_broadcast(&mut self, c: &CubClass, at: Span) -> PResult<Expr> {
        self.expect_punct("(")?;
        let x = self.assign_expr()?;
        self.expect_punct(",")?;
        let src = self.assign_expr()?;
        self.expect_punct(")")?;
        let l = i64::from(c.threads.max(1));
        let width = self.e_int(at, l);
        if self.hip {
            return Ok(self.e_call(at, "__shfl", vec![x, src, width]));
        }
        // The logical warp's member mask: its L lanes, from `lane & ~(L - 1)` on.
        let mask = if l >= 32 {
            self.e_int(at, 0xffff_ffff)
        } else {
            let lane = self.e_lane(at);
            let keep = self.e_int(at, !(l - 1));
            let first = self.e_bin(at, BinOp::And, lane, keep);
            let ones = self.e_int(at, (1i64 << l) - 1);
            let ones = self.node(
                ExprKind::Cast(
                    Ty::Val(crate::types::ValTy::scalar(crate::types::Scalar::U32)),
                    Box::new(ones),
                ),
                at,
            )?;
            self.e_bin(at, BinOp::Shl, ones, first)
        };
        Ok(self.e_call(at, "__shfl_sync", vec![mask, x, src, width]))
    }
}
