//! CUB's and hipCUB's `WarpScan`: `InclusiveSum`, `ExclusiveSum`, `InclusiveScan(x, out, op)`,
//! `ExclusiveScan(x, out, init, op)` and `ExclusiveScan(x, out, op)`, each with an optional
//! warp aggregate output, lowered to device functions of syntax-tree nodes over the registry's
//! `shfl_up` (`cub`).
//!
//! Order and validity (CUB API reference, `cub::WarpScan`; CUB's `WarpScanShfl`; rocPRIM
//! `warp_scan_shuffle`, hipCUB's warp scan on AMD):
//! - inclusive: Kogge-Stone steps at offsets 1, 2, 4, … — lane l with l ≥ offset sets
//!   `v = op(shfl_up(v, offset), v)`; every lane's result is defined;
//! - exclusive with an initial value (`ExclusiveSum` is this with `T()` = 0): lane l gets
//!   `op(init, inclusive[l - 1])`, lane 0 `init`;
//! - exclusive without one: lane l gets `inclusive[l - 1]`; lane 0's result is undefined
//!   ("the exclusive_output computed for lane 0 is undefined", CUB API, `WarpScan::ExclusiveScan`);
//! - the warp aggregate is the last lane's inclusive result, read by every lane (without the
//!   initial value).
//!
//! rocPRIM may run its warp scans on DPP row operations on some targets; the shuffle variant
//! modelled here is rocPRIM's portable one (the sums of integers are the same either way).

use super::cub::{Body, CubClass, Op, INT};
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{BinOp, Ty};
use crate::KernelError;

/// Which result a warp scan function computes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ScanKind {
    Inclusive,
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
    pub(super) fn cub_warp_scan_call(
        &mut self,
        c: &CubClass,
        method: &str,
        m_at: Span,
        at: Span,
    ) -> PResult<Expr> {
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
            "InclusiveScan" => {
                self.expect_punct(",")?;
                (ScanKind::Inclusive, self.cub_op()?)
            }
            "ExclusiveScan" => {
                self.expect_punct(",")?;
                let save = self.pos;
                match self.cub_op() {
                    Ok(op) if self.is_punct(")") || self.is_punct(",") => (ScanKind::Exclusive, op),
                    _ => {
                        self.pos = save;
                        init = Some(self.assign_expr()?);
                        self.expect_punct(",")?;
                        (ScanKind::ExclusiveInit, self.cub_op()?)
                    }
                }
            }
            other => {
                return Err(KernelError::new(
                    m_at.line,
                    m_at.col,
                    format!(
                        "WarpScan::{other} is not modelled here (InclusiveSum, ExclusiveSum, \
                         InclusiveScan and ExclusiveScan are)"
                    ),
                ))
            }
        };
        let agg = self.cub_rest()?;
        let f = self.cub_warp_scan_fn(c, &op, kind, at);
        let mut args = vec![x.clone()];
        args.extend(init);
        let call = self.e_call(at, &f, args);
        let s = self.syn_span(at);
        let mut e = Expr::new(ExprKind::Assign(None, Box::new(out), Box::new(call)), s);
        if let Some(agg) = agg {
            let f = self.cub_warp_scan_fn(c, &op, ScanKind::Total, at);
            let call = self.e_call(at, &f, vec![x]);
            let s = self.syn_span(at);
            let set = Expr::new(ExprKind::Assign(None, Box::new(agg), Box::new(call)), s);
            let s = self.syn_span(at);
            e = Expr::new(ExprKind::Comma(Box::new(e), Box::new(set)), s);
        }
        Ok(e)
    }

    /// The device function of one warp scan (made once per shape), its name.
    fn cub_warp_scan_fn(&mut self, c: &CubClass, op: &Op, kind: ScanKind, at: Span) -> String {
        let lib = if self.hip { "hipcub" } else { "cub" };
        let tag = match kind {
            ScanKind::Inclusive => "incl",
            ScanKind::ExclusiveInit => "excl_init",
            ScanKind::Exclusive => "excl",
            ScanKind::Total => "total",
        };
        let fname = format!(
            "__{lib}_warp_scan_{tag}_{}_{}_{}_w{}",
            op.tag(),
            c.elem.scalar.name().replace(' ', "_"),
            c.threads,
            self.cub_warp()
        );
        if self.fn_types.contains_key(&fname) {
            return fname;
        }
        let b = Body::new(self, c, at);
        let (params, body) = b.warp_scan(self, op, kind);
        let ret = Ty::Val(c.elem);
        self.fn_types.insert(fname.clone(), ret);
        self.extra_fns.push(Function {
            name: fname.clone(),
            entry: false,
            ret,
            params,
            body,
            launch_bounds: None,
            vf_call_dim: None,
            span: at,
            snippet: false,
            defaults: Vec::new(),
        });
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
        if kind == ScanKind::ExclusiveInit {
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
                     output undefined (CUB API, WarpScan::ExclusiveScan: \"the exclusive_output \
                     computed for lane 0 is undefined\")"
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
