//! A run that can be shown at any step, backwards as well as forwards, without keeping every
//! step: the kernel runs once with [`TraceMode::None`], keeping a checkpoint of the machine (a
//! copy of the [`Executor`]) every `every` steps; step `i` is shown by copying the nearest
//! checkpoint at or before it and running the few steps from there with [`TraceMode::Full`].
//!
//! The engine is deterministic (warps and blocks run in a fixed order, memory is the
//! executor's own), so a replay from a checkpoint reaches the same state as the run did;
//! `tests/suite/kernel_replay.rs` checks it against a straight full run for random kernels.
//!
//! Memory: the checkpoints' bytes are counted against the launch's `max_memory`; when the
//! next checkpoint would not fit, the interval doubles and every other checkpoint is dropped,
//! so a long run keeps `O(budget / state)` checkpoints and replays at most `every` steps.

use serde::Serialize;

use super::budget::size;
use super::exec::{Executor, LaunchConfig};
use super::memory::Memory;
use super::trace::{KernelStep, KernelTrace, TraceMode, VarChange};
use super::KernelError;

/// One step as a full run records it, and the state right after it. Serializable (the step as
/// in a trace's `"steps"`, the variables as its `"changes"`, the memory as `"memory"`), so a Web
/// Worker can post it to the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepState {
    /// The step ([`KernelStep::index`] is its position in the run).
    pub step: KernelStep,
    /// Every variable of the step's warp right after it, each with its value in every lane.
    pub vars: Vec<VarChange>,
    /// Memory right after it.
    pub memory: Memory,
}

/// A finished run with checkpoints: any step, in any order (see the module doc).
pub struct Replay {
    /// `checkpoints[k]` is the machine before step `k * every`.
    checkpoints: Vec<Executor>,
    every: u64,
    /// The run without steps: outcome, top-level diagnostics, final memory and variables, stats.
    end: KernelTrace,
}

impl Replay {
    /// Runs `source` to its end, keeping a checkpoint every `every` steps (at least 1; the
    /// interval grows when the checkpoints would exceed the memory budget).
    ///
    /// # Errors
    /// As [`Executor::new`]: a source that does not parse or a launch that is invalid.
    pub fn new(source: &str, config: LaunchConfig, every: u64) -> Result<Self, KernelError> {
        let budget = config.limits.max_memory;
        let mut ex = Executor::new(source, config)?.with_trace(TraceMode::None);
        let mut every = every.max(1);
        let mut checkpoints: Vec<Executor> = Vec::new();
        let mut held = 0u64;
        let mut step = 0u64;
        loop {
            if step.is_multiple_of(every) {
                let cost = ex.state_bytes();
                if held.saturating_add(cost) > budget / 2 && checkpoints.len() > 1 {
                    // Keep every other checkpoint: the interval doubles.
                    let mut k = 0;
                    checkpoints.retain(|_| {
                        k += 1;
                        k % 2 == 1
                    });
                    every = every.saturating_mul(2);
                    held = checkpoints.iter().map(Executor::state_bytes).sum();
                }
                if step.is_multiple_of(every) {
                    held = held.saturating_add(cost);
                    checkpoints.push(ex.clone());
                }
            }
            if !ex.advance() {
                break;
            }
            step += 1;
        }
        Ok(Replay {
            checkpoints,
            every,
            end: ex.into_trace(),
        })
    }

    /// Steps in the run.
    pub fn len(&self) -> u64 {
        self.end.stats.steps
    }

    /// Whether the run executed no step.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Steps between two checkpoints (the most a [`Replay::at`] replays).
    pub fn interval(&self) -> u64 {
        self.every
    }

    /// The run as a trace without steps (outcome, diagnostics, final memory and variables,
    /// [`super::RunStats`]).
    pub fn summary(&self) -> &KernelTrace {
        &self.end
    }

    /// Step `i` (0-based) and the state right after it; `None` past the last step.
    pub fn at(&self, i: u64) -> Option<StepState> {
        if i >= self.len() {
            return None;
        }
        let k = usize::try_from(i / self.every).ok()?;
        let mut ex = self.checkpoints.get(k)?.clone().with_trace(TraceMode::Full);
        ex.trace.steps.clear();
        let mut ran = k as u64 * self.every;
        while ran < i {
            // Steps before `i` need not be recorded.
            ex.mode = TraceMode::None;
            if !ex.advance() {
                return None;
            }
            ran += 1;
        }
        ex.mode = TraceMode::Full;
        if !ex.advance() {
            return None;
        }
        let step = ex.trace.steps.pop()?;
        let vars = ex.warp_vars(step.warp);
        Some(StepState {
            step,
            vars,
            memory: ex.trace.memory.clone(),
        })
    }
}

impl Executor {
    /// Bytes a copy of this machine holds: memory, lane variables and the trace so far (the
    /// shared program is not copied).
    pub(crate) fn state_bytes(&self) -> u64 {
        (size::KERNEL_STEP * 4).saturating_add(self.meter.bytes(self.trace.memory.used_bytes))
    }
}
