//! Warp-synchronous code that relies on lock-step lanes: a lane reading a `__shared__` cell
//! that another lane of its own warp wrote in an earlier statement, with no `__syncwarp()` (or
//! block barrier) between. The emulator runs a warp's lanes in lock-step, so the value is the
//! one such a schedule gives; on sm_70 and later the lanes are not guaranteed to be, and the
//! read may see the old value. The classic case is the legacy unrolled last-warp reduction
//! (`volatile int *s; if (tid < 32) { s[tid] += s[tid + 16]; s[tid] += s[tid + 8]; … }`).
//!
//! Source: CUDA C++ Programming Guide, Compute Capability 7.x, "Independent Thread Scheduling":
//! applications that assume reads and writes are implicitly visible to other threads in the
//! same warp need to insert `__syncwarp()` between steps where data is exchanged between threads
//! via global or shared memory; assumptions that code executes in lock-step, or that reads and
//! writes from separate threads are visible without synchronization, are invalid. Checked for
//! CUDA on a target with independent thread scheduling (`--arch` sm_70 or later, the default);
//! shared memory only.

use std::collections::{HashMap, HashSet};

use super::StepCtx;
use crate::ast::Span;
use crate::exec::Executor;
use crate::memory::Space;
use crosslane_core::result::Level;

/// Reports a run gives at most.
const MAX_REPORTS: usize = 16;
/// Cells whose last writer is kept at most (a budget: later cells go unchecked).
const MAX_CELLS: usize = 1 << 16;

/// The rule every report cites.
const RULE: &str = "CUDA C++ Programming Guide, Compute Capability 7.x, Independent Thread Scheduling (insert __syncwarp() between steps where threads of a warp exchange data through shared or global memory)";

/// One plain write: warp, lane, step, line, and the warp's `__syncwarp` count then.
type Write = (usize, usize, u64, u32, u64);

/// The last writer of each shared cell since the block's last barrier, and each warp's
/// `__syncwarp` count ([`Executor::warp_race_read`]).
#[derive(Clone, Default)]
pub(crate) struct WarpRace {
    writes: HashMap<(usize, i64), Write>,
    syncs: HashMap<usize, u64>,
    reported: HashSet<(u32, u32)>,
    /// Found and not yet reported: (buffer, cell, reader lane, read line, writer lane, write line).
    pending: Vec<(usize, i64, usize, u32, usize, u32)>,
}

impl WarpRace {
    /// A block barrier orders everything before it: the log starts afresh.
    pub(crate) fn barrier(&mut self) {
        self.writes.clear();
    }

    /// Warp `warp` executed `__syncwarp`.
    pub(crate) fn syncwarp(&mut self, warp: usize) {
        let n = self.syncs.entry(warp).or_insert(0);
        *n = n.wrapping_add(1);
    }
}

impl Executor {
    /// Whether the check runs at all: CUDA on a target with independent thread scheduling.
    pub(crate) fn warp_race_on(&self) -> bool {
        self.trace.launch.dialect == crosslane_core::op::Dialect::Cuda
            && super::converge::has_its(self.config.preprocess.arch.as_deref())
    }

    /// Whether the check applies: [`Executor::warp_race_on`], and a `__shared__` buffer of the
    /// user's.
    fn warp_race_applies(&self, buf: usize) -> bool {
        self.warp_race_on()
            && self.trace.memory.buffers.get(buf).is_some_and(|b| {
                matches!(b.space, Space::Shared { .. }) && !b.name.starts_with("__")
            })
    }

    /// Lane `lane` of warp `w` writes cell `off` of buffer `buf`.
    pub(crate) fn warp_race_write(&mut self, w: usize, buf: usize, off: i64, lane: usize) {
        if !self.warp_race_applies(buf) {
            return;
        }
        let (warp, line) = self.warp_race_site(w);
        let syncs = self.warp_race.syncs.get(&warp).copied().unwrap_or(0);
        let step = self.trace.stats.steps;
        let log = &mut self.warp_race.writes;
        if log.len() < MAX_CELLS || log.contains_key(&(buf, off)) {
            log.insert((buf, off), (warp, lane, step, line, syncs));
        }
    }

    /// Lane `lane` of warp `w` reads cell `off` of buffer `buf`: a hazard when another lane of
    /// the same warp wrote it in an earlier statement with no `__syncwarp` since.
    pub(crate) fn warp_race_read(&mut self, w: usize, buf: usize, off: i64, lane: usize) {
        if self.warp_race.reported.len() >= MAX_REPORTS || !self.warp_race_applies(buf) {
            return;
        }
        let (warp, line) = self.warp_race_site(w);
        let Some(&(ww, wl, step, wline, syncs)) = self.warp_race.writes.get(&(buf, off)) else {
            return;
        };
        let now = self.warp_race.syncs.get(&warp).copied().unwrap_or(0);
        if ww != warp || wl == lane || step == self.trace.stats.steps || syncs != now {
            return;
        }
        if self.warp_race.reported.insert((wline, line)) {
            self.warp_race
                .pending
                .push((buf, off, lane, line, wl, wline));
        }
    }

    /// The warp's index in its block and the line of the statement it runs.
    fn warp_race_site(&self, w: usize) -> (usize, u32) {
        let who = self.race_who(w);
        (self.warps.get(w).map_or(0, |x| x.index), who.line)
    }

    /// Adds the hazards found during the step at `span` to its diagnostics.
    pub(crate) fn warp_race_report(&mut self, span: Span, cx: &mut StepCtx) {
        for (buf, off, lane, line, wl, wline) in std::mem::take(&mut self.warp_race.pending) {
            let cell = match self.trace.memory.buffers.get(buf) {
                Some(b) if b.cells.len() == 1 => format!("`{}`", b.name),
                Some(b) => format!("`{}[{off}]`", b.name),
                None => format!("cell {off}"),
            };
            cx.note(
                Level::Warning,
                span,
                format!("warp-synchronous code without `__syncwarp()`: lane {lane} reads {cell} at line {line}, which lane {wl} of the same warp wrote at line {wline} with no `__syncwarp()` between; on sm_70 and later (independent thread scheduling) a warp's lanes need not run in lock-step, so the read may see the old value (`volatile` does not order it). Put `__syncwarp()` between the steps. This run computes as lock-step lanes would"),
                RULE,
                Some(lane),
            );
        }
    }
}
