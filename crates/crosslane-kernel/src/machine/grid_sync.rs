//! `grid.sync()` of a cooperative launch over several blocks (CUDA C++ Programming Guide,
//! Cooperative Groups, "Grid Synchronization"; HIP's cooperative groups the same): every block
//! of the grid is resident at once, and no thread passes the grid barrier before every thread
//! of the grid has reached it.
//!
//! The blocks of a launch still run one at a time, which is one order the device may take
//! between two grid barriers (blocks run independently, in any order, CUDA C++ Programming
//! Guide, Thread Hierarchy). A block whose warps all wait at `grid.sync()` is parked: its warps,
//! barrier and race state are kept, its lane variables stay counted against the memory budget
//! ([`crate::budget::Meter::parked_bytes`]), and the next block runs. Once every block of the
//! phase is parked, the grid barrier opens: the global writes of the blocks before it are
//! ordered before every access after it (the race check forgets them) and the parked blocks
//! resume in order, each to its next grid barrier or its end. A block that ends while another
//! waits at the grid barrier leaves that one waiting forever: a deadlock, reported as one.
//!
//! The semantic pass (`compile.rs`) refuses a grid larger than the model device holds at once
//! (`parser::host_device::max_coresident_blocks`), as a cooperative launch fails with
//! `cudaErrorCooperativeLaunchTooLarge`.

use std::collections::VecDeque;

use super::barrier::BarrierRound;
use super::{Warp, WarpRun};
use crate::ast::ExprKind;
use crate::compile::Inst;
use crate::exec::Executor;
use crate::KernelError;

/// One block parked at the grid barrier.
#[derive(Clone)]
pub(crate) struct Parked {
    block: usize,
    warps: Vec<Warp>,
    round: BarrierRound,
    spin: super::spin::SpinWatch,
    warp_race: super::warp_race::WarpRace,
    var_bytes: u64,
    /// The grid barrier's line.
    line: u32,
}

/// The grid barrier's state over the launch.
#[derive(Clone, Default)]
pub(crate) struct GridWait {
    /// The next block never started.
    pub(crate) next: usize,
    /// Blocks parked at the grid barrier in this phase.
    parked: Vec<Parked>,
    /// Blocks to resume in this phase, in order.
    resume: VecDeque<Parked>,
    /// Blocks that ended in this phase without reaching the grid barrier.
    ended: Vec<usize>,
}

impl Executor {
    /// Whether the instruction at `pc` is `grid.sync()`.
    pub(crate) fn at_grid_sync(&self, pc: usize) -> bool {
        matches!(self.code.get(pc), Some(Inst::Eval { expr, .. })
            if matches!(&expr.kind, ExprKind::Call(n, _)
                if n == crate::parser::GRID_SYNC || n == crate::parser::GRID_SYNC_ANY))
    }

    /// Whether the warps waiting at a barrier wait at `grid.sync()` (the first one's).
    pub(crate) fn waiting_at_grid(&self) -> bool {
        self.warps
            .iter()
            .find(|w| w.run == WarpRun::AtBarrier)
            .is_some_and(|w| self.at_grid_sync(w.pc))
    }

    /// The line of the barrier the first waiting warp waits at.
    pub(crate) fn grid_line(&self) -> u32 {
        self.warps
            .iter()
            .find(|w| w.run == WarpRun::AtBarrier)
            .map_or(1, |w| self.line_of(w.pc))
    }

    /// Parks the running block, whose warps wait at `grid.sync()` (or have ended).
    pub(crate) fn park_block(&mut self) {
        let line = self.grid_line();
        let var_bytes = std::mem::take(&mut self.meter.var_bytes);
        self.meter.parked_bytes = self.meter.parked_bytes.saturating_add(var_bytes);
        let p = Parked {
            block: self.block,
            warps: std::mem::take(&mut self.warps),
            round: std::mem::take(&mut self.barrier_round),
            spin: std::mem::take(&mut self.spin),
            warp_race: std::mem::take(&mut self.warp_race),
            var_bytes,
            line,
        };
        self.grid_wait.parked.push(p);
    }

    /// The running block ended (every warp done).
    pub(crate) fn block_ended(&mut self) {
        self.grid_wait.ended.push(self.block);
    }

    /// Puts the next block in place when none runs: a parked one to resume, a new one, or,
    /// once every block is parked, opens the grid barrier. False when the launch is over (or
    /// failed: a deadlock at the grid barrier, a block that could not start).
    pub(crate) fn next_block(&mut self) -> bool {
        // Two rounds at most: the second after the grid barrier opened.
        for _ in 0..2 {
            if let Some(p) = self.grid_wait.resume.pop_front() {
                self.resume_block(p);
                return true;
            }
            if self.grid_wait.next < self.blocks {
                self.block = self.grid_wait.next;
                self.grid_wait.next += 1;
                if let Err(e) = self.start_block() {
                    self.fail(e);
                    return false;
                }
                return true;
            }
            if self.grid_wait.parked.is_empty() {
                return false;
            }
            let line = self.grid_wait.parked.first().map_or(1, |p| p.line);
            if !self.grid_wait.ended.is_empty() {
                let waiting: Vec<usize> = self.grid_wait.parked.iter().map(|p| p.block).collect();
                let ended = std::mem::take(&mut self.grid_wait.ended);
                self.fail(KernelError::new(
                    line,
                    1,
                    format!(
                        "deadlock at grid.sync() (line {line}): block(s) {} ended without \
                         reaching it, so block(s) {} wait there forever; every thread of the \
                         grid must reach grid.sync() (CUDA C++ Programming Guide, Cooperative \
                         Groups, Grid Synchronization)",
                        crate::builtins::list_lanes(&ended),
                        crate::builtins::list_lanes(&waiting)
                    ),
                ));
                return false;
            }
            // Every block of the grid waits: the barrier opens.
            self.race.grid_barrier();
            let parked = std::mem::take(&mut self.grid_wait.parked);
            self.grid_wait.resume.extend(parked);
        }
        false
    }

    /// Resumes a parked block past its grid barrier.
    fn resume_block(&mut self, p: Parked) {
        self.meter.parked_bytes = self.meter.parked_bytes.saturating_sub(p.var_bytes);
        self.meter.var_bytes = p.var_bytes;
        self.block = p.block;
        self.barrier_round = p.round;
        self.spin = p.spin;
        self.warp_race = p.warp_race;
        self.race
            .resume_block(p.block, self.trace.launch.warps_per_block);
        self.warps = p.warps;
        for w in &mut self.warps {
            if w.run == WarpRun::AtBarrier {
                w.run = WarpRun::Ready;
                w.pc += 1;
            }
        }
    }
}
