//! The running machine: warps of lanes with an active-mask stack ([`Warp`], [`Frame`]), the
//! per-step context ([`StepCtx`]) and the places a store can name ([`Place`]). The executor's
//! statement, expression, memory-access and call code lives in the submodules.

mod assert;
pub(crate) mod async_copy;
pub(crate) mod atomic;
mod atomic_view;
pub(crate) mod barrier;
mod call;
pub(crate) mod converge;
pub(crate) mod coop_launch;
mod eval;
pub(crate) mod grid_sync;
pub(crate) mod maca_mem;
mod math_array;
pub(crate) mod partial;
mod place;
pub(crate) mod racecheck;
mod record;
pub(crate) mod regs;
pub(crate) mod shared_window;
pub(crate) mod special_regs;
pub(crate) mod spin;
mod stmt;
pub(crate) mod typed;
pub(crate) mod typed_run;
mod vector_mem;
pub(crate) mod warp_race;
mod warp_sync;

use std::collections::{BTreeSet, HashMap};

use crate::ast::*;
use crate::trace::*;
use crosslane_core::lanes::LaneMask;
use crosslane_core::result::Level;
use crosslane_core::trace::Step;
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LaneStatus {
    Running,
    Broke(usize),
    Continued(usize),
    Returned,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Frame {
    If {
        cur: LaneMask,
        else_mask: LaneMask,
        else_pc: usize,
        join_pc: usize,
        in_else: bool,
        line: u32,
    },
    Loop {
        id: usize,
        mask: LaneMask,
        cont_pc: usize,
        exit_pc: usize,
        line: u32,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WarpRun {
    Ready,
    AtBarrier,
    Done,
}

#[derive(Clone, Debug)]
pub(crate) struct Warp {
    pub(crate) index: usize,
    pub(crate) exists: LaneMask,
    pub(crate) pc: usize,
    pub(crate) frames: Vec<Frame>,
    pub(crate) status: Vec<LaneStatus>,
    /// Each slot's register (see [`regs`]).
    pub(crate) vars: Vec<regs::Reg>,
    /// Slots bound by reference to a one-cell buffer (reference parameters, `__shared__` scalars).
    pub(crate) refs: HashMap<usize, usize>,
    /// Locals whose address the kernel takes (`&raw`, a scalar or vector): each lane's value
    /// lives in that lane's one-cell local buffer (indexed by lane), so a pointer to it
    /// reads and writes the variable itself (`reinterpret_cast<const __half2*>(&raw)[j]`).
    pub(crate) lane_refs: HashMap<usize, Vec<Option<usize>>>,
    pub(crate) run: WarpRun,
    /// Lanes held at a warp-synchronous call while the other path of their `if` runs
    /// ([`converge`]).
    pub(crate) held: Option<converge::Held>,
    /// Results of joint exchanges waiting for the held lanes' call, keyed by (inlined instance,
    /// call node id).
    pub(crate) met: HashMap<(u32, NodeId), Vec<LaneVal>>,
    /// Lanes parked in a spin loop while the lanes that left it run ahead ([`spin`]).
    pub(crate) parked: Option<spin::Parked>,
}

impl Warp {
    /// Lane `l`'s buffer of an address-taken local `slot` ([`Warp::lane_refs`]).
    pub(crate) fn lane_ref(&self, slot: usize, l: usize) -> Option<usize> {
        self.lane_refs
            .get(&slot)
            .and_then(|b| b.get(l).copied().flatten())
    }

    /// Whether `slot` lives in memory (a reference or an address-taken local).
    pub(crate) fn in_memory(&self, slot: usize) -> bool {
        self.refs.contains_key(&slot) || self.lane_refs.contains_key(&slot)
    }

    /// The end of an `if`'s current branch: the lanes of the `else` still to run take it (when
    /// the then-branch ran and any of them are running), otherwise the warp goes to the join.
    /// Returns false when the innermost construct is not an `if`.
    pub(crate) fn leave_branch(&mut self) -> bool {
        let running = self.running();
        let depth = self.frames.len();
        let Some(Frame::If {
            cur,
            else_mask,
            else_pc,
            join_pc,
            in_else,
            ..
        }) = self.frames.last_mut()
        else {
            return false;
        };
        if !*in_else && else_mask.0 & running.0 != 0 {
            *in_else = true;
            *cur = *else_mask;
            self.pc = *else_pc;
        } else if let Some(h) = self.held.take_if(|h| h.depth == depth) {
            // The other path is done: the held lanes resume at their call ([`converge`]).
            *cur = h.lanes;
            self.pc = h.pc;
        } else {
            self.pc = *join_pc;
        }
        true
    }

    pub(crate) fn running(&self) -> LaneMask {
        let mut m = LaneMask::none();
        for (l, s) in self.status.iter().enumerate() {
            if *s == LaneStatus::Running {
                m = m.with(l);
            }
        }
        m
    }

    pub(crate) fn active(&self) -> LaneMask {
        let base = match self.frames.last() {
            Some(Frame::If { cur, .. }) => *cur,
            Some(Frame::Loop { mask, .. }) => *mask,
            None => self.exists,
        };
        LaneMask(base.0 & self.running().0)
    }

    pub(crate) fn innermost_loop(&self) -> Option<usize> {
        self.frames.iter().rev().find_map(|f| match f {
            Frame::Loop { id, .. } => Some(*id),
            Frame::If { .. } => None,
        })
    }

    /// The line of the innermost construct that left `lane` out, if any.
    pub(crate) fn why_inactive(&self, lane: usize) -> Option<u32> {
        if !self.exists.contains(lane) {
            return None;
        }
        if self.status.get(lane) != Some(&LaneStatus::Running) {
            return self.frames.iter().rev().find_map(|f| match f {
                Frame::Loop { line, .. } => Some(*line),
                Frame::If { .. } => None,
            });
        }
        self.frames.iter().rev().find_map(|f| match f {
            Frame::If { cur, line, .. } if !cur.contains(lane) => Some(*line),
            _ => None,
        })
    }
}

// ------------------------------------------------------------------ step context

/// A note made during a step: level, position, message, rule and the lanes it concerns.
pub(crate) type StepDiag = (Level, Span, String, String, Vec<usize>);

/// A step's notes as diagnostics, each naming its lanes when not all of them.
pub(crate) fn step_diagnostics(lanes: usize, diags: Vec<StepDiag>) -> Vec<crate::KernelDiagnostic> {
    diags
        .into_iter()
        .map(|(level, at, mut message, rule, mut ls)| {
            ls.sort_unstable();
            if !ls.is_empty() && ls.len() < lanes {
                message.push_str(&format!(
                    " (lanes {})",
                    crosslane_core::lanes::list_lanes(&ls)
                ));
            }
            crate::KernelDiagnostic::new(at, level, message, rule)
        })
        .collect()
}

#[derive(Default)]
pub(crate) struct StepCtx {
    pub(crate) diags: Vec<StepDiag>,
    /// Index into `diags` by position and message key (a statement of many nodes may note
    /// many diagnostics: no linear search per note).
    pub(crate) diag_index: HashMap<(Span, String), usize>,
    pub(crate) changed: BTreeSet<usize>,
    pub(crate) writes: Vec<MemWrite>,
    /// The memory cells written in this statement: each lane that wrote one, with the bytes it
    /// wrote (bit k: byte k of the cell; every bit for a whole cell), so lanes writing
    /// different bytes of one cell (two halves of a word) are no conflict.
    pub(crate) written: HashMap<(usize, i64), Vec<(usize, u64)>>,
    pub(crate) ops: Vec<Step>,
    pub(crate) barrier: bool,
    /// Calls of [`StepCtx::note`] (one per lane a diagnostic concerns), charged as work.
    pub(crate) notes: u64,
    /// While a cross-lane op's value operand is evaluated: reading an uninitialized variable
    /// notes nothing there ([`Executor::op_operand`]); the value stays undefined with its
    /// reason, so the op's result is undefined exactly in the lanes that read it.
    pub(crate) operand_read: bool,
    /// Writes of this step that stored the value the cell already held (a failed
    /// compare-and-swap): no change for the spin-loop watch ([`spin`]).
    pub(crate) same_writes: usize,
}

impl StepCtx {
    /// Adds a diagnostic, or adds `lane` to the same one already there (messages that differ
    /// only in an ` (e.g. …)` tail count as the same).
    pub(crate) fn note(
        &mut self,
        level: Level,
        span: Span,
        message: String,
        rule: &str,
        lane: Option<usize>,
    ) {
        self.notes = self.notes.saturating_add(1);
        let k = message.split(" (e.g. ").next().unwrap_or("").to_string();
        if let Some(d) = self
            .diag_index
            .get(&(span, k.clone()))
            .and_then(|&i| self.diags.get_mut(i))
        {
            if let Some(l) = lane {
                if !d.4.contains(&l) {
                    d.4.push(l);
                }
            }
            return;
        }
        self.diag_index.insert((span, k), self.diags.len());
        self.diags.push((
            level,
            span,
            message,
            rule.to_string(),
            lane.into_iter().collect(),
        ));
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Place {
    Var(usize),
    Comp(usize, usize),
    Mem(usize, i64),
    /// Components `at..at + elem.lanes` of a buffer's cells, counted component by component
    /// (a `float4` through a float buffer, `out[i].x` of a `float4` buffer).
    View {
        buf: usize,
        at: i64,
        elem: crate::types::ValTy,
    },
}

/// The field name of a member expression (`threadIdx.x` → `x`), or "".
pub(crate) fn field_of(e: &Expr) -> &str {
    match &e.kind {
        ExprKind::Member(_, f) => f.as_str(),
        _ => "",
    }
}
