//! Spin loops inside one warp: lanes that loop waiting for a lane of their own warp which
//! already left the loop (an intra-warp lock: `while (atomicCAS(&lock, 0, 1) != 0)
//! __nanosleep(100);`). A warp's lanes run in lock-step here, so the lane that left waits at
//! the loop's end and the others would spin forever. The watch: when an iteration ends with the
//! warp at the same place and no variable or memory cell changed anywhere since the last one,
//! nothing can change by spinning on.
//!
//! On sm_70 and later (independent thread scheduling: the lane that left runs on and releases
//! the lock) the spinning lanes are then parked ([`Parked`]) and the lanes that left the loop
//! run ahead to the end of the kernel; the parked lanes then resume at the loop test, with the
//! constructs they were in. If the lanes running ahead reach a block barrier first, the run
//! stops with the diagnostic (a barrier waits for the parked threads too). Before sm_70 a
//! warp's threads share one program counter and the device deadlocks as well: the run stops
//! at once with a diagnostic naming the rule, instead of at the work budget.
//!
//! Source: CUDA C++ Programming Guide, Compute Capability 7.x, "Independent Thread Scheduling"
//! (execution state per thread, so threads of a warp can wait for one another and
//! starvation-free algorithms work); before Volta a warp's threads share one program counter
//! and such a loop deadlocks on the device too.

use std::collections::HashMap;

use super::{Frame, LaneStatus, Warp, WarpRun};
use crate::builtins::list_lanes;
use crate::exec::Executor;
use crate::KernelError;
use crosslane_core::lanes::LaneMask;

/// Where a warp stood at a loop's test: pc, constructs, lane status, and the change count then.
type SpinPlace = (usize, Vec<Frame>, Vec<LaneStatus>, u64);

/// The change count and each warp's place at its last loop test ([`Executor::spin_repeats`]).
#[derive(Clone, Default)]
pub(crate) struct SpinWatch {
    /// Steps that changed a variable or wrote memory, counted over the whole block.
    pub(crate) epoch: u64,
    /// Each warp's place at its last loop test.
    seen: HashMap<usize, SpinPlace>,
}

/// Lanes of a warp parked in a spin loop while the lanes that left it run ahead.
#[derive(Clone, Debug)]
pub(crate) struct Parked {
    /// The loop test they resume at.
    pub(crate) pc: usize,
    /// The constructs they were in.
    pub(crate) frames: Vec<Frame>,
    /// The parked lanes.
    pub(crate) lanes: LaneMask,
    /// The diagnostic that ends the run if the lanes running ahead reach a block barrier.
    pub(crate) message: String,
    /// The loop's line.
    pub(crate) line: u32,
}

impl Warp {
    /// The lanes running ahead of parked lanes have all exited: the parked lanes resume at
    /// their loop test. Returns whether there were any.
    pub(crate) fn resume_parked(&mut self) -> bool {
        let Some(p) = self.parked.take() else {
            return false;
        };
        for (l, s) in self.status.iter_mut().enumerate() {
            if p.lanes.contains(l) {
                *s = LaneStatus::Running;
            } else if *s == LaneStatus::Running {
                *s = LaneStatus::Returned;
            }
        }
        self.frames = p.frames;
        self.pc = p.pc;
        self.run = WarpRun::Ready;
        true
    }
}

impl Executor {
    /// At a loop test of warp `w` (pc `pc`) that keeps some lanes in the loop: the error that
    /// ends the run when the warp stands where it stood at its previous test, nothing changed
    /// since, and some lanes of the warp already left this loop (they are what the others
    /// wait for).
    pub(crate) fn spin_repeats(&mut self, w: usize, pc: usize) -> Option<KernelError> {
        let warp = self.warps.get(w)?;
        let Some(Frame::Loop { id, line, .. }) = warp.frames.last() else {
            if let Some(e) = self.spin.seen.get_mut(&w) {
                e.0 = usize::MAX;
            }
            return None;
        };
        let (id, line) = (*id, *line);
        // Compared and kept in place: the vectors are reused, so a loop allocates nothing per
        // iteration.
        let epoch = self.spin.epoch;
        let seen = self
            .spin
            .seen
            .entry(w)
            .or_insert_with(|| (usize::MAX, Vec::new(), Vec::new(), u64::MAX));
        let same =
            seen.0 == pc && seen.3 == epoch && seen.1 == warp.frames && seen.2 == warp.status;
        seen.0 = pc;
        seen.1.clone_from(&warp.frames);
        seen.2.clone_from(&warp.status);
        seen.3 = epoch;
        if !same {
            return None;
        }
        let lanes = self.trace.launch.lanes;
        let base = warp.index.saturating_mul(lanes);
        let left: Vec<usize> = warp
            .status
            .iter()
            .enumerate()
            .filter(|(_, s)| **s == LaneStatus::Broke(id))
            .map(|(l, _)| base + l)
            .collect();
        if left.is_empty() {
            return None;
        }
        let spinning_lanes = warp.active();
        let spinning: Vec<usize> = spinning_lanes.iter().map(|l| base + l).collect();
        let cuda = self.trace.launch.dialect == crosslane_core::op::Dialect::Cuda;
        let its = cuda && super::converge::has_its(self.config.preprocess.arch.as_deref());
        if its && warp.parked.is_none() {
            let message = format!(
                "livelock: block {} warp {}: thread(s) {} spin in the loop at line {line} waiting for thread(s) {} of the same warp, which the emulator ran ahead past the loop (independent thread scheduling, sm_70 and later); those threads reached a block barrier, which waits for the spinning threads too, so no schedule here lets them finish (CUDA C++ Programming Guide, Compute Capability 7.x, Independent Thread Scheduling)",
                self.block,
                warp.index,
                list_lanes(&spinning),
                list_lanes(&left)
            );
            let frames = warp.frames.clone();
            let warp = &mut self.warps[w];
            warp.parked = Some(Parked {
                pc,
                frames,
                lanes: spinning_lanes,
                message,
                line,
            });
            for l in spinning_lanes.iter() {
                warp.status[l] = LaneStatus::Returned;
            }
            if let Some(e) = self.spin.seen.get_mut(&w) {
                e.0 = usize::MAX;
            }
            return None;
        }
        let device = if !cuda {
            "this target gives the lanes of a warp no independent forward progress (no independent thread scheduling), so the device may hang here too"
        } else if its {
            "on sm_70 and later independent thread scheduling lets those threads run on past the loop (and release what the others wait for), so the device finishes; this emulator runs a warp's lanes in lock-step and cannot schedule them apart"
        } else {
            "before sm_70 a warp's threads share one program counter, so the device deadlocks here too"
        };
        Some(KernelError::new(
            line,
            1,
            format!(
                "livelock: block {} warp {}: thread(s) {} spin in the loop at line {line} with no variable or memory cell changed since their last iteration, waiting for thread(s) {} of the same warp, which left the loop and wait at its end in lock-step with their warp; {device}; the run stops here (CUDA C++ Programming Guide, Compute Capability 7.x, Independent Thread Scheduling)",
                self.block,
                warp.index,
                list_lanes(&spinning),
                list_lanes(&left)
            ),
        ))
    }
}
