//! CUB's segmented warp reductions: `WarpReduce::HeadSegmentedSum(x, head_flag)`,
//! `TailSegmentedSum(x, tail_flag)`, `HeadSegmentedReduce(x, head_flag, op)` and
//! `TailSegmentedReduce(x, tail_flag, op)` (CUB API, `cub::WarpReduce`: "the sum of each
//! segment is returned to the first lane in that segment (which always includes lane0)"),
//! lowered to a device function over the registry's `__ballot_sync` and `__shfl_down_sync`.
//!
//! As CUB's `WarpReduceShfl::SegmentedReduce`: the flags of the logical warp are balloted; a
//! head flag starts a segment at its lane, a tail flag ends one at its lane (so the next lane
//! starts one); each lane's segment ends before the next segment's first lane (the warp's end
//! without one), and the shuffle tree of the plain reduction (offsets 1, 2, 4, …) combines a
//! lane's value with the one `offset` lanes down only while that lane lies in the segment. A
//! segment's first lane then holds the segment's reduction; every other lane's output is
//! undefined, as CUB returns it to the first lanes only.

use super::cub::{Body, CubClass, Kind, Op, INT};
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{BinOp, Scalar, Ty, ValTy};
use crate::KernelError;

const UINT: ValTy = ValTy {
    scalar: Scalar::U32,
    lanes: 1,
};

/// `unsigned long long`, the type of HIP's 64-bit `__ballot` ([`Body::segmented`] on HIP).
const U64: ValTy = ValTy {
    scalar: Scalar::U64,
    lanes: 1,
};

impl Parser<'_> {
    /// Whether `method` is one of `WarpReduce`'s segmented reductions.
    pub(super) fn is_cub_segmented(method: &str) -> bool {
        matches!(
            method,
            "HeadSegmentedSum" | "TailSegmentedSum" | "HeadSegmentedReduce" | "TailSegmentedReduce"
        )
    }

    /// `.HeadSegmentedSum(x, flag)` and kin of a `WarpReduce` after its value `x` (the
    /// position is at the `,` before the flag): the call of the segmented reduction.
    ///
    /// # Errors
    /// A class other than `WarpReduce`, a malformed argument list, an unsupported operator.
    pub(super) fn cub_segmented_call(
        &mut self,
        c: &CubClass,
        x: Expr,
        method: &str,
        at: Span,
    ) -> PResult<Expr> {
        if c.kind != Kind::WarpReduce {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("{method} is modelled here for CUB's WarpReduce only (Sum and Reduce are)"),
            ));
        }
        let head = method.starts_with("Head");
        self.expect_punct(",")?;
        let flag = self.assign_expr()?;
        let op = if method.ends_with("Reduce") {
            self.expect_punct(",")?;
            let op_at = self.span();
            let op = self.cub_op()?;
            self.cub_scalar_op(&op, op_at)?;
            op
        } else {
            Op::Sum
        };
        self.expect_punct(")")?;
        let fname = format!(
            "__cub_warp_segmented_{}_{}_{}_{}_w{}",
            if head { "head" } else { "tail" },
            op.tag(),
            c.elem.scalar.name().replace(' ', "_"),
            c.threads,
            self.cub_warp()
        );
        if !self.fn_types.contains_key(&fname) {
            let b = Body::new(self, c, at);
            let (params, body) = b.segmented(self, &op, head);
            self.push_built_fn(&fname, Ty::Val(c.elem), params, body, at);
        }
        Ok(self.e_call(at, &fname, vec![x, flag]))
    }
}

impl Body {
    fn segmented(mut self, p: &mut Parser<'_>, op: &Op, head: bool) -> (Vec<Param>, Stmt) {
        let at = self.at;
        let n = self.threads;
        let params = vec![
            self.param("v", Ty::Val(self.elem)),
            self.param("flag", Ty::Val(INT)),
        ];
        let lane_id = p.e_lane(at);
        let nn = p.e_int(at, i64::from(n));
        let lane = p.e_bin(at, BinOp::Rem, lane_id, nn);
        self.decl(p, "lane", INT, lane);
        // HIP (hipCUB, whose `WarpReduce` is rocPRIM's `warp_reduce`, the same segments:
        // rocPRIM's `last_in_warp_segment` ballots the flags of the wavefront): a 64-bit
        // `__ballot`; CUDA a 32-bit `__ballot_sync`.
        let wide = p.hip;
        let (mty, full) = if wide {
            (U64, u64::MAX)
        } else {
            (UINT, 0xffff_ffff)
        };
        // The logical warp's flags, its first lane at bit 0.
        let f = p.e_ident(at, "flag");
        let ballot = if wide {
            p.e_call(at, "__ballot", vec![f])
        } else {
            let m = p.e_mask(at, 0xffff_ffff);
            p.e_call(at, "__ballot_sync", vec![m, f])
        };
        self.decl(p, "__ballot", mty, ballot);
        let (lid, l) = (p.e_lane(at), p.e_ident(at, "lane"));
        let base = p.e_bin(at, BinOp::Sub, lid, l);
        let (b, base) = (p.e_ident(at, "__ballot"), base);
        let shifted = p.e_bin(at, BinOp::Shr, b, base);
        let width_mask = if n >= 64 || (!wide && n >= 32) {
            full
        } else {
            (1u64 << n) - 1
        };
        let wm = p.e_mask(at, width_mask);
        let bits = p.e_bin(at, BinOp::And, shifted, wm);
        self.decl(p, "__bits", mty, bits);
        // The segment's end: the next head flag above this lane (the next segment's first
        // lane), or the first tail flag at or above it, plus one.
        let (one, two) = (p.e_mask(at, 1), p.e_mask(at, 2));
        let l = p.e_ident(at, "lane");
        let low = p.e_bin(at, BinOp::Shl, if head { two } else { one }, l);
        let one = p.e_mask(at, 1);
        let below = p.e_bin(at, BinOp::Sub, low, one);
        let all = p.e_mask(at, full);
        let above = p.e_bin(at, BinOp::Xor, below, all);
        let bits = p.e_ident(at, "__bits");
        let rest = p.e_bin(at, BinOp::And, bits, above);
        self.decl(p, "__rest", mty, rest);
        let r = p.e_ident(at, "__rest");
        let ffs = p.e_call(at, if wide { "__ffsll" } else { "__ffs" }, vec![r]);
        let found = if head {
            let one = p.e_int(at, 1);
            p.e_bin(at, BinOp::Sub, ffs, one)
        } else {
            ffs
        };
        let (r, z) = (p.e_ident(at, "__rest"), p.e_mask(at, 0));
        let any = p.e_bin(at, BinOp::Ne, r, z);
        let whole = p.e_int(at, i64::from(n));
        let s = p.syn_span(at);
        let end = Expr::new(
            ExprKind::Ternary(Box::new(any), Box::new(found), Box::new(whole)),
            s,
        );
        self.decl(p, "__end", INT, end);
        let end = p.e_ident(at, "__end");
        self.tree(p, op, "v", "lane", n, &end);
        // The first lane of a segment: lane 0, a head-flagged lane, or the lane after a
        // tail-flagged one (`bits << 1` puts lane l - 1's flag at bit l).
        let bits = p.e_ident(at, "__bits");
        let bits = if head {
            bits
        } else {
            let one = p.e_int(at, 1);
            p.e_bin(at, BinOp::Shl, bits, one)
        };
        let l = p.e_ident(at, "lane");
        let own = p.e_bin(at, BinOp::Shr, bits, l);
        let one = p.e_mask(at, 1);
        let own = p.e_bin(at, BinOp::And, own, one);
        let z = p.e_mask(at, 0);
        let flagged = p.e_bin(at, BinOp::Ne, own, z);
        let (l, z) = (p.e_ident(at, "lane"), p.e_int(at, 0));
        let first = p.e_bin(at, BinOp::Eq, l, z);
        let starts = p.e_bin(at, BinOp::Or, first, flagged);
        let why = if wide {
            format!(
                "hipcub::WarpReduce<T, {n}>'s (rocPRIM's warp_reduce's) segmented reductions \
                 return each segment's reduction to the segment's first lane only (rocPRIM API, \
                 warp_reduce::{}_segmented_reduce: \"the result is returned to the first thread \
                 of each segment\"); this lane's result is undefined",
                if head { "head" } else { "tail" }
            )
        } else {
            format!(
                "cub::WarpReduce<T, {n}>'s segmented reductions return each segment's reduction \
                 to the segment's first lane only (CUB API, WarpReduce::{}Segmented…: \"the sum \
                 of each segment is returned to the first lane in that segment\"); this lane's \
                 result is undefined",
                if head { "Head" } else { "Tail" }
            )
        };
        let body = self.finish(p, starts, why);
        (params, body)
    }
}
