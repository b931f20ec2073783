//! Barrier rounds that repeat forever: when a block's barrier opens again with every warp at
//! the same place and nothing changed in between, the run ends as a deadlock at once. Also the
//! opening of a block's barrier once every unfinished warp waits (`Executor::open_barrier`,
//! which parks the block at `grid.sync()`, [`super::grid_sync`]).

use std::collections::BTreeMap;

use super::{Frame, LaneStatus, WarpRun};
use crate::builtins::list_lanes;
use crate::compile::Inst;
use crate::exec::Executor;
use crate::KernelDiagnostic;
use crate::KernelError;
use crosslane_core::result::Level;

/// Where one warp stands: its run state, pc, constructs and lane status.
type WarpPlace = (WarpRun, usize, Vec<Frame>, Vec<LaneStatus>);

/// The block's state at its last barrier release, kept to recognise a barrier loop that can
/// never end: the machine is deterministic, so when the barrier opens again with every warp at
/// the same place (pc, construct stack, lane status) and no variable or memory cell changed in
/// between, the same round repeats forever.
#[derive(Clone, Default)]
pub(crate) struct BarrierRound {
    /// Each warp's run state, pc, constructs and lane status at the last release.
    pub(crate) at: Option<Vec<WarpPlace>>,
    /// A step since that release changed a variable or wrote memory.
    pub(crate) changed: bool,
}

impl Executor {
    /// Called when every unfinished warp of the block waits at a barrier, before it opens: the
    /// error that ends the run when this round is the same as the last one (see
    /// [`BarrierRound`]), naming the barrier's line and the threads of the block that exited.
    ///
    /// A barrier waits only for the threads that have not exited ("will not succeed until
    /// reached by all non-exited threads in the block": CUDA C++ Programming Guide, Compute
    /// Capability 7.x, Independent Thread Scheduling), so with some threads returned the barrier
    /// still opens each round; a round that changes nothing, though, repeats forever, and is
    /// reported at once instead of running until the work budget ends it.
    pub(crate) fn barrier_repeats(&mut self) -> Option<KernelError> {
        let now: Vec<_> = self
            .warps
            .iter()
            .map(|w| (w.run, w.pc, w.frames.clone(), w.status.clone()))
            .collect();
        let same = !self.barrier_round.changed && self.barrier_round.at.as_ref() == Some(&now);
        self.barrier_round = BarrierRound {
            at: Some(now),
            changed: false,
        };
        if !same {
            return None;
        }
        let lanes = self.trace.launch.lanes;
        let (mut exited, mut waiting, mut held) = (Vec::new(), Vec::new(), BTreeMap::new());
        let mut line = 1;
        for w in &self.warps {
            let at_barrier = w.run == WarpRun::AtBarrier;
            if at_barrier {
                line = self.line_of(w.pc);
            }
            let active = w.active();
            for l in w.exists.iter() {
                let thread = w.index.saturating_mul(lanes).saturating_add(l);
                if w.run == WarpRun::Done || w.status.get(l) == Some(&LaneStatus::Returned) {
                    exited.push(thread);
                } else if at_barrier && active.contains(l) {
                    waiting.push(thread);
                } else {
                    // A lane its warp left out of the barrier's branch or loop: it waits, in
                    // lock-step with its warp, where that construct ends.
                    held.entry(w.why_inactive(l).unwrap_or(0))
                        .or_insert_with(Vec::new)
                        .push(thread);
                }
            }
        }
        let held: String = held
            .iter()
            .map(|(at, threads)| {
                format!(
                    "; thread(s) {} wait where the construct of line {at} ends, in lock-step with their warp",
                    list_lanes(threads)
                )
            })
            .collect();
        let missing = if exited.is_empty() {
            "no thread of the block is missing".to_string()
        } else {
            format!(
                "thread(s) {} exited and never reach it (a barrier waits only for threads that have not exited)",
                list_lanes(&exited)
            )
        };
        Some(KernelError::new(
            line,
            1,
            format!(
                "deadlock: block {}: the barrier at line {line} opens again with no variable or memory cell changed since it last opened, so thread(s) {} wait there round after round forever; {missing}{held} (CUDA C++ Programming Guide, Compute Capability 7.x, Independent Thread Scheduling)",
                self.block,
                list_lanes(&waiting)
            ),
        ))
    }

    /// Called when every unfinished warp of the block waits at a barrier, before it opens: the
    /// error that ends the run when the warps wait at different barriers (different lines, or
    /// the same line reached along different paths), which means the condition around them
    /// differed among the block's threads at run time. "`__syncthreads()` is allowed in
    /// conditional code but only if the conditional evaluates identically across the entire
    /// thread block, otherwise the code execution is likely to hang or produce unintended side
    /// effects" (CUDA C++ Programming Guide, Synchronization Functions): the results after it
    /// are not the device's (an NVIDIA H200 hung on such a kernel, docs/benchmarks.md "On real
    /// silicon"). With `--keep-going` ([`crate::LaunchConfig::keep_going`]) it is a warning and
    /// the barrier opens. A condition every thread evaluates the same way is no error, however
    /// it is written.
    pub(crate) fn barriers_disagree(&mut self) -> Option<KernelError> {
        let mut at: Vec<(usize, usize)> = self
            .warps
            .iter()
            .filter(|w| w.run == WarpRun::AtBarrier)
            .map(|w| (w.pc, w.index))
            .collect();
        at.sort_unstable();
        let (Some(first), Some(last)) = (at.first().copied(), at.last().copied()) else {
            return None;
        };
        if first.0 == last.0 {
            return None;
        }
        let mut lines: Vec<u32> = at.iter().map(|&(pc, _)| self.line_of(pc)).collect();
        lines.dedup();
        let shown: Vec<String> = at
            .iter()
            .map(|&(pc, w)| format!("warp {w} at line {}", self.line_of(pc)))
            .collect();
        let keep_going = self.config.keep_going;
        let d = crate::KernelDiagnostic {
            line: lines.first().copied().unwrap_or(1),
            col: 1,
            level: if keep_going {
                crosslane_core::Level::Warning
            } else {
                crosslane_core::Level::Error
            },
            message: format!(
                "block {}: the warps wait at different barriers ({}): the condition around a barrier differs among the block's threads, which is undefined (each barrier must be reached by every thread of the block; the device is likely to hang){}",
                self.block,
                shown.join(", "),
                if keep_going {
                    "; --keep-going opens the barrier for all of them"
                } else {
                    "; --keep-going runs on, opening the barrier for all of them"
                }
            ),
            rule: "CUDA C++ Programming Guide, Synchronization Functions (__syncthreads)".into(),
        };
        let error = (!keep_going).then(|| KernelError::new(d.line, d.col, d.message.clone()));
        self.diag_log.admit(&d);
        self.trace.diagnostics.push(d);
        error
    }
}

impl Executor {
    /// Every unfinished warp of the block waits at a barrier: opens it (the warps at it go on
    /// past it, a warp that ended is reported), or, at `grid.sync()`, parks the block
    /// ([`super::grid_sync`]). False when the run failed (a barrier repeated with nothing
    /// changed, warps at different barriers).
    pub(crate) fn open_barrier(&mut self) -> bool {
        let grid = self.waiting_at_grid();
        let exited: Vec<usize> = self
            .warps
            .iter()
            .filter(|w| w.run == WarpRun::Done)
            .map(|w| w.index)
            .collect();
        if !grid {
            if let Some(e) = self.barrier_repeats() {
                self.fail(e);
                return false;
            }
        }
        if let Some(e) = self.barriers_disagree() {
            self.fail(e);
            return false;
        }
        let mut line = 1;
        if grid {
            line = self.grid_line();
        } else {
            self.race.barrier();
            self.warp_race.barrier();
        }
        for w in &mut self.warps {
            if w.run == WarpRun::AtBarrier && !grid {
                w.run = WarpRun::Ready;
                w.pc += 1;
                line = self.code[..w.pc]
                    .iter()
                    .rev()
                    .find_map(|i| match i {
                        Inst::Eval { span, .. } => Some(span.line),
                        _ => None,
                    })
                    .unwrap_or(1);
            }
        }
        if !exited.is_empty() {
            let d = KernelDiagnostic {
                line,
                col: 1,
                level: Level::Warning,
                message: format!(
                    "block {}: warp(s) {} finished without reaching the barrier at line {line}: a barrier not reached by every thread is undefined (the other warps were released)",
                    self.block,
                    list_lanes(&exited)
                ),
                rule: "CUDA Programming Guide, __syncthreads(); seed 002 §3.1.9".into(),
            };
            self.diag_log.admit(&d);
            self.trace.diagnostics.push(d);
        }
        if grid {
            self.park_block();
        }
        true
    }
}
