//! A run that can be shown at any step, backwards as well as forwards, without keeping every
//! step: the kernel runs once with [`TraceMode::None`], keeping a checkpoint of the machine (a
//! copy of the [`Executor`]) every `every` steps; step `i` is shown by copying the nearest
//! checkpoint at or before it and running the few steps from there with [`TraceMode::Full`].
//! The page's kernel worker holds one (`crosslane-web/src/worker/session.rs`): its slider, step
//! and step back all read states this way.
//!
//! The engine is deterministic (warps and blocks run in a fixed order, memory is the
//! executor's own), so a replay from a checkpoint reaches the same state as the run did;
//! `tests/suite/kernel_replay.rs` checks it against a straight full run for random kernels.
//!
//! Memory: the checkpoints' bytes are counted against the launch's `max_memory`; when the
//! next checkpoint would not fit, the interval doubles and every other checkpoint is dropped,
//! so a long run keeps `O(budget / state)` checkpoints and replays at most `every` steps.

use super::budget::size;
use super::exec::{Executor, LaunchConfig};
use super::memory::Memory;
use super::trace::{KernelStep, KernelTrace, TraceMode, VarChange};
use super::KernelError;

/// One step as a full run records it, and the state right after it.
#[derive(Clone, Debug, PartialEq)]
pub struct StepState {
    /// The step ([`KernelStep::index`] is its position in the run). Its rows' reason ids are
    /// the replay's own: read its changes in [`StepState::changes`].
    pub step: KernelStep,
    /// The variables the step changed, each with its value in every lane (as
    /// [`KernelTrace::changes`] gives a full run's).
    pub changes: Vec<VarChange>,
    /// Every variable of the step's warp right after it, each with its value in every lane
    /// (the kernel's own: [`crate::trace::is_synthesized`]).
    pub vars: Vec<VarChange>,
    /// Memory right after it.
    pub memory: Memory,
    /// The last step at or before it that ran a cross-lane operation (the call the page
    /// draws).
    pub last_op_step: Option<u64>,
}

/// A run with checkpoints: any step, in any order (see the module doc). It runs incrementally
/// ([`Replay::run_for`]), so a page can show the steps run so far while the run goes on.
pub struct Replay {
    /// The machine at the last step run ([`TraceMode::None`]: it records no step).
    live: Executor,
    /// `checkpoints[k]` is the machine before step `k * every`.
    checkpoints: Vec<Executor>,
    every: u64,
    /// Bytes the checkpoints hold.
    held: u64,
    /// What the checkpoints may hold: half the launch's memory budget.
    budget: u64,
}

impl Replay {
    /// Runs `source` to its end, keeping a checkpoint every `every` steps (at least 1; the
    /// interval grows when the checkpoints would exceed the memory budget).
    ///
    /// # Errors
    /// As [`Executor::new`]: a source that does not parse or a launch that is invalid.
    pub fn new(source: &str, config: LaunchConfig, every: u64) -> Result<Self, KernelError> {
        let mut replay = Replay::start(source, config, every)?;
        while replay.advance() {}
        Ok(replay)
    }

    /// Launches `source` without running a step; [`Replay::run_for`] runs it, keeping a
    /// checkpoint every `every` steps (at least 1; the interval doubles when the checkpoints
    /// would pass half the launch's `max_memory`).
    ///
    /// # Errors
    /// As [`Executor::new`]: a source that does not parse or a launch that is invalid.
    pub fn start(source: &str, config: LaunchConfig, every: u64) -> Result<Self, KernelError> {
        let budget = config.limits.max_memory / 2;
        let live = Executor::new(source, config)?.with_trace(TraceMode::None);
        Ok(Replay {
            live,
            checkpoints: Vec::new(),
            every: every.max(1),
            held: 0,
            budget,
        })
    }

    /// Runs one more step, keeping a checkpoint before it when one is due; false once the run
    /// has ended.
    pub fn advance(&mut self) -> bool {
        let step = self.live.trace.stats.steps;
        if step.is_multiple_of(self.every) && !self.live.is_finished() {
            let cost = self.live.state_bytes();
            if self.held.saturating_add(cost) > self.budget && self.checkpoints.len() > 1 {
                // Keep every other checkpoint: the interval doubles.
                let mut k = 0;
                self.checkpoints.retain(|_| {
                    k += 1;
                    k % 2 == 1
                });
                self.every = self.every.saturating_mul(2);
                self.held = self.checkpoints.iter().map(Executor::state_bytes).sum();
            }
            let due = u64::try_from(self.checkpoints.len())
                .unwrap_or(u64::MAX)
                .saturating_mul(self.every);
            if step == due {
                self.held = self.held.saturating_add(cost);
                self.checkpoints.push(self.live.clone());
            }
        }
        self.live.advance()
    }

    /// Runs up to `n` steps; returns how many ran (fewer when the run ends).
    pub fn run_for(&mut self, n: usize) -> usize {
        let mut done = 0;
        while done < n && self.advance() {
            done += 1;
        }
        done
    }

    /// Whether the run ends before another step, learned without taking one: a copy of the
    /// machine runs on to its next step, and when the copy ends first (the kernel returns, a
    /// budget, an error) with no step added, the run takes that end ([`KernelTrace::outcome`]
    /// set, [`Replay::len`] unchanged). A run stopped at a target step (a link's) says
    /// "finished" where the kernel ends there, as a run to the end would. Returns
    /// [`Replay::is_finished`].
    pub fn settle(&mut self) -> bool {
        if self.live.is_finished() {
            return true;
        }
        let mut ahead = self.live.clone();
        if !ahead.advance() && ahead.trace.stats.steps == self.len() {
            self.live = ahead;
        }
        self.live.is_finished()
    }

    /// Steps run so far.
    pub fn len(&self) -> u64 {
        self.live.trace.stats.steps
    }

    /// Whether no step has run.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the run has ended ([`KernelTrace::outcome`] is set).
    pub fn is_finished(&self) -> bool {
        self.live.is_finished()
    }

    /// Steps between two checkpoints (the most a [`Replay::at`] replays).
    pub fn interval(&self) -> u64 {
        self.every
    }

    /// Checkpoints held.
    pub fn checkpoints(&self) -> usize {
        self.checkpoints.len()
    }

    /// The machine at the last step run, for what does not change with the position (the
    /// launch, the entry's parameters, the initial memory).
    pub fn live(&self) -> &Executor {
        &self.live
    }

    /// The run so far as a trace without steps (outcome, diagnostics, memory and variables
    /// now, [`super::RunStats`]).
    pub fn summary(&self) -> &KernelTrace {
        &self.live.trace
    }

    /// The machine right after step `i`, replayed from the nearest checkpoint at or before it,
    /// with the step as a full run records it.
    fn replay_to(&self, i: u64) -> Option<(Executor, KernelStep)> {
        if i >= self.len() {
            return None;
        }
        let k = usize::try_from(i / self.every).ok()?;
        let mut ex = self.checkpoints.get(k)?.clone();
        // Steps before `i` need not be recorded.
        ex.mode = TraceMode::None;
        while ex.trace.stats.steps < i && ex.advance() {}
        if ex.trace.stats.steps != i {
            return None;
        }
        ex.mode = TraceMode::Full;
        ex.trace.steps.clear();
        // The step that hits a budget is recorded although the run ends with it.
        ex.advance();
        if ex.trace.stats.steps != i + 1 {
            return None;
        }
        let step = ex.trace.steps.pop()?;
        Some((ex, step))
    }

    /// Step `i` (0-based) and the state right after it; `None` past the last step.
    pub fn at(&self, i: u64) -> Option<StepState> {
        self.at_warp(i, None).map(|(s, _)| s)
    }

    /// [`Replay::at`], and the variables of warp `warp` of block `block` right after step `i`
    /// (`picked`; `None`: the step's own warp, as in [`StepState::vars`]). A warp of a block that
    /// has finished shows its final variables; one of a block not started yet, none.
    pub fn at_warp(
        &self,
        i: u64,
        picked: Option<(usize, usize)>,
    ) -> Option<(StepState, Vec<VarChange>)> {
        let (ex, step) = self.replay_to(i)?;
        // The kernel's own variables, not the front end's (`__rf0`, `__sb0`).
        let own = |vars: Vec<VarChange>| -> Vec<VarChange> {
            vars.into_iter()
                .filter(|v| !ex.trace.is_synthesized(&v.name))
                .collect()
        };
        let vars = own(ex.warp_vars(step.warp));
        let other = match picked {
            Some((block, warp)) if (block, warp) != (step.block, step.warp) => {
                own(ex.vars_of(block, warp))
            }
            _ => vars.clone(),
        };
        Some((
            StepState {
                changes: ex.trace.changes(&step),
                step,
                vars,
                memory: ex.trace.memory,
                last_op_step: ex.trace.stats.last_op_step,
            },
            other,
        ))
    }
}

impl Executor {
    /// Bytes a copy of this machine holds: memory, lane variables and the trace so far (the
    /// shared program is not copied).
    pub(crate) fn state_bytes(&self) -> u64 {
        (size::KERNEL_STEP * 4).saturating_add(self.meter.bytes(self.trace.memory.used_bytes))
    }

    /// The variables of warp `warp` of block `block` now: the running block's from its
    /// registers, a finished block's final ones, none for a block not started yet.
    fn vars_of(&self, block: usize, warp: usize) -> Vec<VarChange> {
        if block == self.block && self.warps.iter().any(|w| w.index == warp) {
            return self.warp_vars(warp);
        }
        self.trace
            .warps
            .iter()
            .find(|w| w.block == block && w.warp == warp)
            .map(|w| {
                w.vars
                    .iter()
                    .map(|(name, values)| VarChange {
                        name: name.clone(),
                        values: values.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}
