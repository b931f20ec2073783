//! Independent thread scheduling at warp-synchronous calls (sm_70 and later): the lanes of an
//! `if` that reach a `__shfl*_sync` / `__ballot_sync` / `__any_sync` / `__all_sync` /
//! `__syncwarp` whose mask
//! names lanes waiting on the `else` path are held there; the `else` path runs, and when it
//! reaches a call of the same intrinsic with the same mask, both calls execute as one exchange
//! (each lane with its own operands); then the held lanes resume with their results.
//!
//! Source: PTX ISA, `shfl.sync` / `vote.sync`: the instruction "will cause executing thread to
//! wait until all non-exited threads corresponding to membermask have executed" it "with the
//! same qualifiers and same membermask value before resuming execution"; only "for .target
//! sm_6x or below" must all threads in membermask "execute the same shfl.sync instruction in
//! convergence" (otherwise undefined). CUDA C++ Programming Guide, Warp Shuffle Functions and
//! Warp Vote Functions: all non-exited threads named in mask must execute the same intrinsic
//! with the same mask. Below sm_70 the emulator keeps the result undefined and names that rule.
//!
//! `__syncwarp(mask)` meets the same way ([`Executor::meet_held_sync`]): PTX ISA,
//! `bar.warp.sync`, waits for the non-exited threads of `membermask` to execute a
//! `bar.warp.sync` with the same `membermask`, and only "for .target sm_6x or below" must they
//! all execute the same `bar.warp.sync` instruction in convergence; CUDA C++ Programming Guide,
//! Synchronization Functions (`__syncwarp`): on sm_70 and later the threads named in the mask
//! may reach the call at different places in the code, below that they must execute the same
//! `__syncwarp()` in convergence. The writes each path made before its call are then visible to
//! the other path after it (the call is a memory barrier among the participating threads).

use super::*;
use crate::builtins::find_kernel_op;
use crate::compile::{inst_exprs, Inst};
use crate::exec::Executor;
use crate::trace::{LaneVal, Undef};
use crosslane_core::args::Role;
use crosslane_core::lanes::LaneMask;
use crosslane_core::result::Level;
use std::rc::Rc;

/// The rule the notes here cite.
pub(crate) const RULE: &str = "PTX ISA, shfl.sync and vote.sync (waits for the non-exited threads of membermask that execute it with the same qualifiers and membermask; sm_6x and below: the same instruction in convergence); CUDA C++ Programming Guide, Warp Shuffle Functions";

/// Lanes of a warp held at a warp-synchronous call until the other path of their `if`
/// reaches a matching call ([`Executor::try_hold`]).
#[derive(Clone, Debug)]
pub(crate) struct Held {
    /// The statement the held lanes resume at.
    pub(crate) pc: usize,
    /// The held lanes.
    pub(crate) lanes: LaneMask,
    /// The depth of the `if` frame whose `else` path runs meanwhile.
    pub(crate) depth: usize,
    /// The call's inlined instance and node id.
    pub(crate) call: (u32, NodeId),
    /// The intrinsic called.
    pub(crate) name: String,
    /// The mask value every held lane passed.
    pub(crate) mask: u64,
    /// The call's line.
    pub(crate) line: u32,
}

/// The warp-synchronous intrinsics whose calls from two program points meet on sm_70+.
pub(crate) fn meets_across_paths(name: &str) -> bool {
    matches!(
        name,
        "__shfl_sync"
            | "__shfl_up_sync"
            | "__shfl_down_sync"
            | "__shfl_xor_sync"
            | "__ballot_sync"
            | "__any_sync"
            | "__all_sync"
            | "__syncwarp"
    )
}

/// The rule a `__syncwarp` meeting cites.
pub(crate) const SYNCWARP_RULE: &str = "PTX ISA, bar.warp.sync (waits for the non-exited threads of membermask executing bar.warp.sync with the same membermask; sm_6x and below: the same bar.warp.sync instruction in convergence); CUDA C++ Programming Guide, Synchronization Functions (__syncwarp)";

/// The mask of `__syncwarp()` called without one: the whole warp (CUDA C++ Programming Guide,
/// Synchronization Functions: `void __syncwarp(unsigned mask=0xffffffff)`).
const FULL_MASK: u64 = 0xffff_ffff;

/// Whether `--arch` (default sm_90) has independent thread scheduling (compute capability 7.0
/// and later: CUDA C++ Programming Guide, Compute Capability 7.x, Independent Thread Scheduling).
pub(crate) fn has_its(arch: Option<&str>) -> bool {
    crate::legacy::sm_number(arch).is_none_or(|v| v >= 70)
}

/// Whether evaluating `e` twice changes nothing (names, literals and arithmetic on them).
fn pure(e: &Expr) -> bool {
    e.walk().all(|n| {
        matches!(
            n.kind,
            ExprKind::Int { .. }
                | ExprKind::Ident(_)
                | ExprKind::Member(..)
                | ExprKind::Binary(..)
                | ExprKind::Cast(..)
                | ExprKind::Bool(_)
        )
    })
}

impl Executor {
    /// Before statement `pc` of warp `w` runs with `active` lanes in the `then` path of an
    /// `if` whose `else` lanes are still to run: when the statement holds one warp-synchronous
    /// call whose mask names some of those lanes, and the target has independent thread
    /// scheduling, holds the active lanes there and starts the `else` path. Returns whether it
    /// did.
    pub(crate) fn try_hold(&mut self, w: usize, pc: usize, active: LaneMask) -> bool {
        if self.trace.launch.dialect != crosslane_core::op::Dialect::Cuda
            || !has_its(self.config.preprocess.arch.as_deref())
        {
            return false;
        }
        let warp = &self.warps[w];
        let depth = warp.frames.len();
        // Lanes held earlier whose call has met its partner: this path may hand over to them.
        let swap = match &warp.held {
            Some(h) if h.depth == depth && warp.met.contains_key(&h.call) => Some(h.lanes),
            Some(_) => return false,
            None => None,
        };
        let Some(Frame::If {
            in_else, else_mask, ..
        }) = warp.frames.last()
        else {
            return false;
        };
        let pending = match swap {
            Some(lanes) => lanes,
            None if !*in_else => LaneMask(else_mask.0 & warp.running().0),
            None => return false,
        };
        if pending.0 == 0 {
            return false;
        }
        let code = Rc::clone(&self.code);
        let Some(inst) = code.get(pc) else {
            return false;
        };
        if !matches!(inst, Inst::Eval { .. } | Inst::Decl { .. }) {
            return false;
        }
        let calls: Vec<&Expr> = inst_exprs(inst)
            .into_iter()
            .flat_map(Expr::walk)
            .filter(|e| matches!(&e.kind, ExprKind::Call(n, a) if meets_across_paths(n) && (!a.is_empty() || n == "__syncwarp")))
            .collect();
        let [call] = calls.as_slice() else {
            return false;
        };
        let ExprKind::Call(name, args) = &call.kind else {
            return false;
        };
        let mask = match args.first() {
            // `__syncwarp()`: the whole warp.
            None => FULL_MASK,
            Some(a) if !pure(a) => return false,
            Some(a) => {
                let mut cx = StepCtx::default();
                let masks = self.eval(w, a, active, &mut cx);
                let Some(mask) = uniform_mask(&masks, active) else {
                    return false;
                };
                mask
            }
        };
        if u128::from(mask) & pending.0 == 0 {
            return false;
        }
        let cur = self.cur;
        let warp = &mut self.warps[w];
        let old = warp.held.take();
        let Some(Frame::If {
            in_else,
            cur: frame_cur,
            else_mask,
            else_pc,
            ..
        }) = warp.frames.last_mut()
        else {
            return false;
        };
        match old {
            // The lanes held before resume at their call; these lanes wait here instead.
            Some(o) => {
                *frame_cur = o.lanes;
                warp.pc = o.pc;
            }
            None => {
                *in_else = true;
                *frame_cur = *else_mask;
                warp.pc = *else_pc;
            }
        }
        warp.held = Some(Held {
            pc,
            lanes: active,
            depth,
            call: (cur, call.id),
            name: name.clone(),
            mask,
            line: call.span.line,
        });
        true
    }

    /// The lanes of warp `w` held at a call of `name` with mask `m` on the other path of their
    /// `if` ([`Held`]), when they are exactly what a call by the `active` lanes with the same
    /// mask misses (the mask's lanes that exist, have not returned and are not active, none of
    /// them outside the held lanes); `None` when no held call meets this one.
    fn held_for(&self, w: usize, name: &str, m: u64, active: LaneMask) -> Option<Held> {
        let warp = self.warps.get(w)?;
        let h = warp.held.as_ref()?;
        if h.name != name || warp.frames.len() < h.depth || warp.met.contains_key(&h.call) {
            return None;
        }
        if !matches!(
            warp.frames.get(h.depth - 1),
            Some(Frame::If { in_else: true, .. })
        ) {
            return None;
        }
        if m != h.mask {
            return None;
        }
        let mut missing = LaneMask::none();
        for l in 0..warp.status.len().min(64) {
            if m >> l & 1 == 1
                && !active.contains(l)
                && warp.exists.contains(l)
                && warp.status[l] != LaneStatus::Returned
            {
                missing = missing.with(l);
            }
        }
        if missing.0 == 0 || missing.0 & !h.lanes.0 != 0 {
            return None;
        }
        Some(h.clone())
    }

    /// At a warp-synchronous call `name` of warp `w` by `mask` lanes with operands `vals`:
    /// when lanes held at a matching call ([`Held`]) are the lanes this call's mask misses,
    /// evaluates the held call's operands in those lanes, merges them into `vals` and returns
    /// the lanes that execute together; the caller then computes the exchange once and hands
    /// the held lanes their results ([`Executor::deliver_held`]).
    pub(crate) fn meet_held(
        &mut self,
        w: usize,
        e: &Expr,
        name: &str,
        mask: LaneMask,
        vals: &mut [Vec<LaneVal>],
        cx: &mut StepCtx,
    ) -> Option<LaneMask> {
        let m = uniform_mask(vals.first()?, mask)?;
        let h = self.held_for(w, name, m, mask)?;
        let code = Rc::clone(&self.code);
        let held_call = inst_exprs(code.get(h.pc)?)
            .into_iter()
            .flat_map(Expr::walk)
            .find(|x| x.id == h.call.1)?;
        let ExprKind::Call(_, held_args) = &held_call.kind else {
            return None;
        };
        let spec = find_kernel_op(self.trace.launch.dialect, name)?;
        if held_args.len() != vals.len() || spec.args.iter().any(|a| a.role == Role::Out) {
            return None;
        }
        let saved = self.cur;
        self.cur = h.call.0;
        for (k, a) in held_args.iter().enumerate() {
            let theirs = if spec
                .args
                .get(k)
                .is_some_and(|x| matches!(x.role, Role::Operand | Role::Old | Role::Data))
            {
                self.op_operand(w, a, h.lanes, cx)
            } else {
                self.eval(w, a, h.lanes, cx)
            };
            for l in h.lanes.iter() {
                if let (Some(dst), Some(src)) = (vals[k].get_mut(l), theirs.get(l)) {
                    *dst = src.clone();
                }
            }
        }
        self.cur = saved;
        cx.note(
            Level::Info,
            e.span,
            format!(
                "lane(s) {} wait at line {}'s `{name}` until lane(s) {} reach this `{name}` with the same mask {:#x}: on sm_70 and later the two calls synchronize and exchange as one, each lane with its own operands",
                lanes_text(h.lanes),
                h.line,
                lanes_text(mask),
                h.mask
            ),
            RULE,
            None,
        );
        Some(LaneMask(mask.0 | h.lanes.0))
    }

    /// At a `__syncwarp` of warp `w` by `active` lanes with each lane's mask `vals` (none: the
    /// whole warp): when lanes held at a `__syncwarp` of the same mask on the other path of
    /// their `if` are the lanes this call's mask misses, both calls execute as one barrier (the
    /// held lanes resume past theirs, [`Executor::resume_met_sync`]). Returns the lanes that
    /// synchronize together.
    pub(crate) fn meet_held_sync(
        &mut self,
        w: usize,
        span: crate::ast::Span,
        active: LaneMask,
        vals: Option<&[LaneVal]>,
        cx: &mut StepCtx,
    ) -> Option<LaneMask> {
        let m = match vals {
            None => FULL_MASK,
            Some(v) => uniform_mask(v, active)?,
        };
        let h = self.held_for(w, "__syncwarp", m, active)?;
        cx.note(
            Level::Info,
            span,
            format!(
                "lane(s) {} wait at line {}'s `__syncwarp` until lane(s) {} reach this `__syncwarp` with the same mask {:#x}: on sm_70 and later the two calls are one warp barrier, and each path's writes before it are visible to the other after it",
                lanes_text(h.lanes),
                h.line,
                lanes_text(active),
                h.mask
            ),
            SYNCWARP_RULE,
            None,
        );
        if let Some(warp) = self.warps.get_mut(w) {
            warp.met.insert(h.call, Vec::new());
        }
        Some(LaneMask(active.0 | h.lanes.0))
    }

    /// Held lanes resuming at their `__syncwarp` call `id` after it met the other path's
    /// ([`Executor::meet_held_sync`]): the barrier is behind them. Returns whether it was so.
    pub(crate) fn resume_met_sync(&mut self, w: usize, id: NodeId) -> bool {
        let cur = self.cur;
        self.warps
            .get_mut(w)
            .is_some_and(|warp| warp.met.remove(&(cur, id)).is_some())
    }

    /// Keeps the joint exchange's results for the held lanes until they resume at their call.
    pub(crate) fn deliver_held(&mut self, w: usize, values: &[LaneVal]) {
        let Some(warp) = self.warps.get_mut(w) else {
            return;
        };
        let Some(h) = warp.held.as_ref() else {
            return;
        };
        let mut mine = vec![Err(Undef::idle()); values.len()];
        for l in h.lanes.iter() {
            if let (Some(d), Some(v)) = (mine.get_mut(l), values.get(l)) {
                *d = v.clone();
            }
        }
        warp.met.insert(h.call, mine);
    }

    /// On a target without independent thread scheduling, a warp-synchronous call whose mask
    /// names lanes on another path of the warp breaks the sm_6x rule: a warning says so.
    pub(crate) fn note_sm6x_paths(
        &mut self,
        w: usize,
        e: &Expr,
        name: &str,
        mask: LaneMask,
        vals: &[Vec<LaneVal>],
        cx: &mut StepCtx,
    ) {
        if self.trace.launch.dialect != crosslane_core::op::Dialect::Cuda
            || has_its(self.config.preprocess.arch.as_deref())
            || !meets_across_paths(name)
        {
            return;
        }
        let Some(m) = vals.first().and_then(|v| uniform_mask(v, mask)) else {
            return;
        };
        let warp = &self.warps[w];
        let other = (0..warp.status.len().min(64))
            .any(|l| m >> l & 1 == 1 && !mask.contains(l) && warp.status[l] == LaneStatus::Running);
        if other {
            let arch = self.config.preprocess.arch.clone().unwrap_or_default();
            cx.note(
                Level::Warning,
                e.span,
                format!("`{name}` with mask {m:#x} is reached by lanes that diverged: for {arch} (sm_6x and below) all threads in the mask must execute the same instruction in convergence, so the results are undefined (sm_70 and later would wait for the other path's matching call)"),
                RULE,
                None,
            );
        }
    }
}

/// The mask value every `active` lane passed, when they agree.
fn uniform_mask(vals: &[LaneVal], active: LaneMask) -> Option<u64> {
    let mut out = None;
    for l in active.iter() {
        let v = vals.get(l)?.as_ref().ok()?.as_int()? as u64 & 0xffff_ffff;
        match out {
            None => out = Some(v),
            Some(o) if o != v => return None,
            _ => {}
        }
    }
    out
}

/// `0-15` for a run of lanes, else a list.
fn lanes_text(m: LaneMask) -> String {
    let v: Vec<usize> = m.iter().collect();
    match (v.first(), v.last()) {
        (Some(a), Some(b)) if b - a + 1 == v.len() && b > a => format!("{a}-{b}"),
        _ => v
            .iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join(", "),
    }
}
