//! CUB's warp shuffle and lane helpers of `util_ptx.cuh` (CUB API, "PTX intrinsics" /
//! `cub::ShuffleIndex`, `cub::ShuffleUp`, `cub::ShuffleDown`, `cub::LaneId`), lowered to the
//! `__shfl_sync` and `__lane_id` the engine runs.
//!
//! CUB issues each as one `shfl.sync` with the control operand `c` its source spells: the
//! logical warp of `LOGICAL_WARP_THREADS` (L, a power of two up to 32) is the segment mask
//! `(32 - L) << 8`, and the clamp is `L - 1` for `ShuffleIndex`, `first_thread` for `ShuffleUp`
//! and `last_thread` for `ShuffleDown`. PTX ISA, `shfl.sync`, gives the source lane `j` and
//! whether it is taken: with `seg = lane & ~(L - 1)`, `max = seg | (clamp & (L - 1))`,
//! - up: `j = lane - offset`, taken when `j >= max`;
//! - down: `j = lane + offset`, taken when `j <= max`;
//! - idx: `j = seg | (src & (L - 1))`, always taken (the clamp is the segment's last lane);
//!
//! a lane whose `j` is not taken reads its own value ("For thread lanes i < src_offset, the
//! thread's own input is returned"). Each call is lowered to one `__shfl_sync(mask, v, j, 32)`
//! with `j` so computed per lane, so every lane of the mask takes part in the one shuffle.

use super::{PResult, Parser};
use crate::ast::{Expr, ExprKind};
use crate::lexer::Tok;
use crate::types::{BinOp, Scalar, Ty, ValTy};
use crate::KernelError;

/// The functions, each with its arguments' names as CUB's declaration spells them.
const FUNCTIONS: &[(&str, &[&str])] = &[
    ("ShuffleIndex", &["input", "src_lane", "member_mask"]),
    (
        "ShuffleUp",
        &["input", "src_offset", "first_thread", "member_mask"],
    ),
    (
        "ShuffleDown",
        &["input", "src_offset", "last_thread", "member_mask"],
    ),
    ("LaneId", &[]),
];

impl Parser<'_> {
    /// A call of one of CUB's shuffle or lane helpers at the current token (`cub::` written
    /// in CUDA, `hipcub::` in HIP, where the logical warp may be the whole wave64 and
    /// `WarpId()` is rocPRIM's): its lowering; `None` (nothing read) otherwise.
    ///
    /// # Errors
    /// A logical warp that is no power of two in 1..=32, a wrong number of arguments,
    /// `cub::WarpId()` (PTX's `%warpid`, which the vendor leaves unspecified).
    pub(super) fn cub_ptx_call(&mut self) -> PResult<Option<Expr>> {
        if let Some(e) = self.shfl_any_call()? {
            return Ok(Some(e));
        }
        if let Some(e) = self.cccl_match_call()? {
            return Ok(Some(e));
        }
        // In HIP `cub::` is hipCUB too (`namespace cub = hipcub;`).
        let lib = if self.hip { "hipcub" } else { "cub" };
        if !matches!(self.peek(0), Tok::Ident(w) if w == lib || (self.hip && w == "cub"))
            || !matches!(self.peek(1), Tok::Punct("::"))
        {
            return Ok(None);
        }
        let Tok::Ident(name) = self.peek(2).clone() else {
            return Ok(None);
        };
        let at = self.span();
        if self.hip && name == "WarpId" && matches!(self.peek(3), Tok::Punct("(")) {
            // hipCUB's `WarpId()` is rocPRIM's `warp_id()`: the block's linear thread index
            // over the wavefront's lanes (hipCUB `backend/rocprim/util_ptx.hpp`).
            for _ in 0..3 {
                self.bump();
            }
            self.expect_punct("(")?;
            self.expect_punct(")")?;
            let lin = self.e_linear(at);
            let w = self.e_int(at, i64::from(self.wave));
            let id = self.e_bin(at, BinOp::Div, lin, w);
            let uint = Ty::Val(ValTy::scalar(Scalar::U32));
            return Ok(Some(self.node(ExprKind::Cast(uint, Box::new(id)), at)?));
        }
        if name == "WarpId" && matches!(self.peek(3), Tok::Punct("(")) {
            return Err(KernelError::new(
                at.line,
                at.col,
                "cub::WarpId() reads PTX's `%warpid`, the warp's hardware slot, which \"may \
                 change during execution\" and is not the warp's index in its block (PTX ISA, \
                 Special Registers, %warpid); it is not modelled: use `threadIdx.x / 32` (the \
                 linear thread index over 32) for the warp's index",
            ));
        }
        if matches!(name.as_str(), "ThreadLoad" | "ThreadStore")
            && matches!(self.peek(3), Tok::Punct("<"))
        {
            return self.cub_thread_load_store(&name, lib, at).map(Some);
        }
        let Some(&(fname, names)) = FUNCTIONS.iter().find(|(n, _)| *n == name) else {
            return Ok(None);
        };
        if !matches!(self.peek(3), Tok::Punct("(" | "<")) {
            return Ok(None);
        }
        for _ in 0..3 {
            self.bump();
        }
        let refuse = |msg: String| Err(KernelError::new(at.line, at.col, msg));
        let mut logical = None;
        if self.eat("<") {
            let no_gt = std::mem::replace(&mut self.no_gt, true);
            let first = self.template_arg();
            // A second argument (`T`) is the input's type, deduced here from the input.
            while first.is_ok() && self.eat(",") {
                let r = self.template_arg();
                if let Err(e) = r {
                    self.no_gt = no_gt;
                    return Err(e);
                }
            }
            self.no_gt = no_gt;
            if !self.close_angle() {
                return self.err("`>`");
            }
            let most = i128::from(if self.hip { self.wave } else { 32 });
            match first?.untyped() {
                super::targs::TArg::Value(n) if n > 0 && n <= most && (n & (n - 1)) == 0 => {
                    logical = Some(n as i64);
                }
                _ => {
                    return refuse(format!(
                        "{lib}::{fname}<LOGICAL_WARP_THREADS>: a power of two in 1..={most}"
                    ))
                }
            }
        }
        self.expect_punct("(")?;
        let args = self.args_closed_by(")")?;
        if args.len() != names.len() {
            return refuse(format!(
                "{lib}::{fname} takes ({}) (CUB API, util_ptx)",
                names.join(", ")
            ));
        }
        if fname == "LaneId" {
            return Ok(Some(self.e_lane(at)));
        }
        let Some(l) = logical else {
            return refuse(format!(
                "{lib}::{fname} takes the logical warp's threads as its first template \
                 argument: write {lib}::{fname}<{}>({})",
                if self.hip { self.wave } else { 32 },
                names.join(", ")
            ));
        };
        if self.hip {
            // hipCUB on rocPRIM ignores `first_thread`, `last_thread` and `member_mask`
            // ("Arguments first_lane, last_lane, and member_mask are ignored in Shuffle*
            // funcs", hipCUB `backend/rocprim/util_ptx.hpp`) and calls rocPRIM's
            // `warp_shuffle`, `warp_shuffle_up` and `warp_shuffle_down` with the logical warp
            // as the width: HIP's `__shfl`, `__shfl_up` and `__shfl_down` at width L.
            let mut args = args.into_iter();
            let (Some(v), Some(a)) = (args.next(), args.next()) else {
                return refuse(format!("{lib}::{fname} takes ({})", names.join(", ")));
            };
            let op = match fname {
                "ShuffleIndex" => "__shfl",
                "ShuffleUp" => "__shfl_up",
                _ => "__shfl_down",
            };
            let w = self.e_int(at, l);
            let call = self.e_call(at, op, vec![v, a, w]);
            return Ok(Some(self.shfl_any(at, call)));
        }
        let mut args = args.into_iter();
        let (Some(v), Some(a), Some(b)) = (args.next(), args.next(), args.next()) else {
            return refuse(format!("cub::{fname} takes ({})", names.join(", ")));
        };
        let int = Ty::Val(ValTy::scalar(Scalar::I32));
        let lane = self.e_lane(at);
        let lane = self.node(ExprKind::Cast(int, Box::new(lane)), at)?;
        let (mask, src) = if fname == "ShuffleIndex" {
            // The segment's lane `src & (L - 1)`: `__shfl_sync`'s own rule with width L.
            (b, None)
        } else {
            let Some(mask) = args.next() else {
                return refuse(format!("cub::{fname} takes ({})", names.join(", ")));
            };
            let up = fname == "ShuffleUp";
            // seg = lane & ~(L - 1); max = seg | (clamp & (L - 1)).
            let seg = {
                let m = self.e_int(at, !(l - 1));
                self.e_bin(at, BinOp::And, lane.clone(), m)
            };
            let clamp = {
                let m = self.e_int(at, l - 1);
                let c = self.node(ExprKind::Cast(int, Box::new(b)), at)?;
                self.e_bin(at, BinOp::And, c, m)
            };
            let max = self.e_bin(at, BinOp::Or, seg, clamp);
            let off = self.node(ExprKind::Cast(int, Box::new(a.clone())), at)?;
            let j = self.e_bin(
                at,
                if up { BinOp::Sub } else { BinOp::Add },
                lane.clone(),
                off,
            );
            let taken = self.e_bin(at, if up { BinOp::Ge } else { BinOp::Le }, j.clone(), max);
            let pick = ExprKind::Ternary(Box::new(taken), Box::new(j), Box::new(lane.clone()));
            (mask, Some(self.node(pick, at)?))
        };
        let call = match src {
            Some(j) => {
                let w = self.e_int(at, 32);
                self.e_call(at, "__shfl_sync", vec![mask, v, j, w])
            }
            None => {
                let w = self.e_int(at, l);
                self.e_call(at, "__shfl_sync", vec![mask, v, a, w])
            }
        };
        Ok(Some(self.shfl_any(at, call)))
    }
}

/// The name crosslane's library declarations (`cccl_warp.rs`) wrap a free shuffle in where the
/// value may be of any trivially copyable type: `SHFL_ANY(__shfl_sync(m, data, src, w))`.
pub(super) const SHFL_ANY: &str = "__crosslane_shfl_any";

impl Parser<'_> {
    /// A library's shuffle of any type (CUB's `ShuffleIndex` / `ShuffleUp` / `ShuffleDown`,
    /// CCCL's `warp_shuffle_*`): the free shuffle `call` itself for a value the intrinsic
    /// takes, else, for a struct value, the shuffle of each member from the one source lane
    /// ([`super::structs::STRUCT_SHFL`]). CUB (`util_ptx.cuh`, `ShuffleIndex` over `T`'s
    /// 32-bit words) and libcu++ (`warp_shuffle`: "calls `shfl.sync` ceil(sizeof(data)/4)
    /// times") move the value's words from that one lane, so every member comes from it:
    /// the same value, padding aside.
    fn shfl_any(&mut self, at: crate::ast::Span, call: Expr) -> Expr {
        let ExprKind::Call(_, args) = &call.kind else {
            return call;
        };
        let value = if self.hip && args.len() == 3 {
            args.first()
        } else {
            args.get(1)
        };
        if value.and_then(|v| self.struct_of(v)).is_some() {
            return self.e_call(at, super::structs::STRUCT_SHFL, vec![call]);
        }
        call
    }

    /// `__crosslane_shfl_any(shuffle)` ([`SHFL_ANY`]) at the current token: [`Self::shfl_any`].
    fn shfl_any_call(&mut self) -> PResult<Option<Expr>> {
        if !matches!(self.peek(0), Tok::Ident(w) if w == SHFL_ANY)
            || !matches!(self.peek(1), Tok::Punct("("))
        {
            return Ok(None);
        }
        let at = self.span();
        self.bump();
        self.expect_punct("(")?;
        let mut args = self.args_closed_by(")")?;
        if args.len() != 1 {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("{SHFL_ANY} takes one shuffle"),
            ));
        }
        let call = args.remove(0);
        Ok(Some(self.shfl_any(at, call)))
    }

    /// `cub::ThreadLoad<MODIFIER>(ptr)` and `cub::ThreadStore<MODIFIER>(ptr, value)` (CUB API,
    /// "Thread-level I/O": a load or store through `ptr` with a PTX cache operator, `LOAD_CA`,
    /// `STORE_CG`, …): the cache operator changes where the line is cached, not the value a
    /// thread reads or writes, so each is the plain `*ptr` / `*ptr = value` here (PTX ISA,
    /// "Cache Operators": the operators are performance hints). The position is at `cub`.
    fn cub_thread_load_store(
        &mut self,
        name: &str,
        lib: &str,
        at: crate::ast::Span,
    ) -> PResult<Expr> {
        for _ in 0..3 {
            self.bump();
        }
        // The modifier `<cub::LOAD_CA>` (and any further template arguments): skipped, each
        // `<` matched by its `>` within the statement.
        let mut depth = 0usize;
        let mut budget = 64usize;
        loop {
            budget = budget.saturating_sub(1);
            match self.peek(0) {
                Tok::Punct("<") => depth += 1,
                Tok::Punct(">") => depth = depth.saturating_sub(1),
                Tok::Punct(">>") => depth = depth.saturating_sub(2),
                Tok::Punct(";" | "{" | "}") | Tok::Eof => return self.err("`>`"),
                _ => {}
            }
            self.bump();
            if depth == 0 {
                break;
            }
            if budget == 0 {
                return self.err("`>`");
            }
        }
        self.expect_punct("(")?;
        let mut args = self.args_closed_by(")")?.into_iter();
        let store = name == "ThreadStore";
        match (args.next(), args.next(), args.next()) {
            (Some(p), None, None) if !store => self.node(ExprKind::Deref(Box::new(p)), at),
            (Some(p), Some(v), None) if store => {
                let place = self.node(ExprKind::Deref(Box::new(p)), at)?;
                self.node(ExprKind::Assign(None, Box::new(place), Box::new(v)), at)
            }
            _ => Err(KernelError::new(
                at.line,
                at.col,
                if store {
                    format!("{lib}::ThreadStore<MODIFIER> takes (ptr, value)")
                } else {
                    format!("{lib}::ThreadLoad<MODIFIER> takes (ptr)")
                },
            )),
        }
    }
}
