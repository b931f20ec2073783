//! The trace of a kernel run as the views read it: each step's line, active mask, changed
//! variables, memory writes and cross-lane [`Step`]s, the launch, the outcome, the final warps.
//! A lane's value is [`LaneVal`]: defined, or [`Undef`] with the reason and line.

use serde::{Deserialize, Serialize};

use super::budget::{diagnostic_bytes, lanes_bytes, size, LimitHit};
pub use super::lane_val::{LaneVal, Undef};
use super::memory::Memory;
use super::types::KVal;
use super::{KernelDiagnostic, KernelError};
use crate::lanes::LaneMask;
use crate::op::Dialect;
use crate::trace::Step;

/// One lane as the page reads it: `{"text": "496", "value": {…}}` when defined,
/// `{"text": null, "why": "…", "line": 8}` when undefined.
fn lane_json(v: &LaneVal) -> serde_json::Value {
    match v {
        Ok(k) => serde_json::json!({ "text": k.to_string(), "value": k }),
        Err(u) => serde_json::json!({
            "text": null,
            "why": u.why,
            "line": if u.line == 0 { None } else { Some(u.line) },
            "uninit": u.uninit,
        }),
    }
}

fn ser_lanes<S: serde::Serializer>(v: &[LaneVal], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for lane in v {
        seq.serialize_element(&lane_json(lane))?;
    }
    seq.end()
}

type Vars = [(String, Vec<LaneVal>)];

fn ser_vars<S: serde::Serializer>(v: &Vars, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for (name, lanes) in v {
        let lanes: Vec<serde_json::Value> = lanes.iter().map(lane_json).collect();
        seq.serialize_element(&serde_json::json!({ "name": name, "lanes": lanes }))?;
    }
    seq.end()
}

/// The launch as resolved from the config and the kernel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Launch {
    /// The function run.
    pub entry: String,
    /// The dialect looked up first.
    pub dialect: Dialect,
    /// Lanes per warp.
    pub lanes: usize,
    /// Threads per block (x, y, z).
    pub block_dim: [usize; 3],
    /// Blocks (x, y, z).
    pub grid_dim: [usize; 3],
    /// Warps per block.
    pub warps_per_block: usize,
    /// Where the block shape came from (`config`, `asc_vf_call comment at line N`, `one warp`).
    pub geometry_from: String,
    /// Why this dialect (`inferred from …`, the file extension, `--dialect`).
    pub dialect_from: String,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// Every thread finished.
    Finished,
    /// A budget ran out (an endless loop, a kernel too long to trace, a launch too large):
    /// which, its limit, what hit it and the line.
    Limit(LimitHit),
    /// The kernel cannot continue (e.g. a launch the memory cannot hold).
    Error(KernelError),
}

/// A variable's new per-lane values after a step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VarChange {
    /// Variable name.
    pub name: String,
    /// Its value in every lane of the warp (lanes that did not run keep their old value).
    #[serde(serialize_with = "ser_lanes")]
    pub values: Vec<LaneVal>,
}

/// One memory cell written by a step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MemWrite {
    /// Buffer index in [`Memory::buffers`].
    pub buffer: usize,
    /// Cell.
    pub index: usize,
    /// New content (`None`: an undefined value was stored).
    pub value: Option<KVal>,
    /// The lane that wrote it.
    pub lane: usize,
}

/// One executed statement (or branch / loop test / barrier) of one warp.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KernelStep {
    /// Position in the trace.
    pub index: usize,
    /// Block.
    pub block: usize,
    /// Warp within the block.
    pub warp: usize,
    /// Line (1-based).
    pub line: u32,
    /// Column (1-based).
    pub col: u32,
    /// The statement's text (a compound statement's head, `if (…)`).
    pub text: String,
    /// Lanes that executed it.
    pub active: LaneMask,
    /// Lanes in the warp.
    pub lanes: usize,
    /// Variables it changed, with their values in every lane.
    pub changes: Vec<VarChange>,
    /// Memory it wrote.
    pub memory_writes: Vec<MemWrite>,
    /// Cross-lane operations it ran, in order (the same [`Step`] the single-op view draws).
    pub ops: Vec<Step>,
    /// Diagnostics at this step.
    pub diagnostics: Vec<KernelDiagnostic>,
}

/// The final variables of one warp.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WarpState {
    /// Block.
    pub block: usize,
    /// Warp within the block.
    pub warp: usize,
    /// Variables by name, each with its value in every lane (`return` holds a device function's
    /// result).
    #[serde(serialize_with = "ser_vars")]
    pub vars: Vec<(String, Vec<LaneVal>)>,
}

/// How much of a run is recorded in its [`KernelTrace`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceMode {
    /// Every step, with its changes, memory writes, operations and diagnostics.
    #[default]
    Full,
    /// No steps: only the outcome, the diagnostics (each distinct one once, at the top level),
    /// the final memory and variables, and [`RunStats`]. For long runs whose result is all
    /// that matters (`crosslane run --trace none`).
    None,
}

/// What a run executed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RunStats {
    /// Statements executed (one per statement, branch or loop test of a warp): the steps a
    /// full trace records.
    pub steps: u64,
    /// Statements executed times the lanes that executed each one (the active lanes).
    pub lane_statements: u64,
}

/// Everything a run produced.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KernelTrace {
    /// The launch.
    pub launch: Launch,
    /// Steps in execution order.
    pub steps: Vec<KernelStep>,
    /// How the run ended (`None` while an [`Executor`](super::Executor) is still running).
    pub outcome: Option<Outcome>,
    /// Diagnostics of the parse and of the launch (step diagnostics are on their steps; under
    /// [`TraceMode::None`] each distinct one once here). Not in the JSON, whose top-level
    /// `"diagnostics"` is [`Self::merged_diagnostics`].
    #[serde(skip)]
    pub diagnostics: Vec<KernelDiagnostic>,
    /// Every diagnostic of the parse, the launch and the run, merged across lanes, warps,
    /// blocks and steps, each with its count ([`super::diaglog::DiagLog::merged`]; filled when
    /// the run ends). The JSON's top-level `"diagnostics"` (issue 14: "merged across lanes").
    #[serde(rename = "diagnostics")]
    pub merged_diagnostics: Vec<super::diaglog::MergedDiagnostic>,
    /// Memory before the first step.
    pub initial_memory: Memory,
    /// Memory now.
    pub memory: Memory,
    /// Final variables of every warp that finished.
    pub warps: Vec<WarpState>,
    /// What the run executed.
    pub stats: RunStats,
    /// Lines device `printf` printed, in execution order, each by its thread
    /// ([`super::printf`]; at most [`super::printf::MAX_PRINTF_LINES`]).
    pub printf: Vec<super::printf::PrintfLine>,
}

impl KernelTrace {
    /// Every diagnostic: the parse's, then each step's in order.
    pub fn all_diagnostics(&self) -> impl Iterator<Item = &KernelDiagnostic> {
        self.diagnostics
            .iter()
            .chain(self.steps.iter().flat_map(|s| s.diagnostics.iter()))
    }

    /// A variable's final value in thread `thread` (index within the block) of `block`.
    pub fn value_of(&self, var: &str, block: usize, thread: usize) -> Option<&LaneVal> {
        let lanes = self.launch.lanes.max(1);
        let w = self
            .warps
            .iter()
            .find(|w| w.block == block && w.warp == thread / lanes)?;
        w.vars
            .iter()
            .find(|(n, _)| n == var)
            .and_then(|(_, v)| v.get(thread % lanes))
    }

    /// Memory as it was right after step `index` (the page's slider): the initial contents with
    /// the writes of steps `0..=index` replayed. Buffers allocated later (shared arrays) are
    /// present, empty until written.
    pub fn memory_after(&self, index: usize) -> Memory {
        let mut m = self.memory.clone();
        for (k, b) in m.buffers.iter_mut().enumerate() {
            match self.initial_memory.buffers.get(k) {
                Some(init) => b.cells.clone_from(&init.cells),
                None => b.cells.iter_mut().for_each(|c| *c = None),
            }
        }
        for s in self.steps.iter().take(index.saturating_add(1)) {
            for w in &s.memory_writes {
                let _ = m.write(w.buffer, w.index as i64, w.value.clone());
            }
        }
        m
    }

    /// The variables of warp `warp` of block `block` right after step `index`, each with its
    /// value in every lane, in the order they were first changed.
    pub fn vars_after(&self, index: usize, block: usize, warp: usize) -> Vec<VarChange> {
        let mut vars: Vec<VarChange> = Vec::new();
        for s in self.steps.iter().take(index.saturating_add(1)) {
            if s.block != block || s.warp != warp {
                continue;
            }
            for c in &s.changes {
                match vars.iter_mut().find(|v| v.name == c.name) {
                    Some(v) => v.values.clone_from(&c.values),
                    None => vars.push(c.clone()),
                }
            }
        }
        vars
    }

    /// The final cells of the buffer named `name` (global memory, or block 0's shared memory).
    pub fn buffer(&self, name: &str) -> Option<&[Option<KVal>]> {
        self.memory
            .buffers
            .iter()
            .find(|b| b.name == name)
            .map(|b| b.cells.as_slice())
    }
}

/// Bytes of a recorded step: its text, changed variables, writes, operations and diagnostics.
/// A cross-lane operation's [`crate::trace::Step`] is counted at 256 bytes per lane (inputs,
/// results with their source and reason) plus its diagnostics.
pub fn step_bytes(s: &KernelStep) -> u64 {
    let mut n = size::KERNEL_STEP + s.text.len() as u64;
    for c in &s.changes {
        n += c.name.len() as u64 + lanes_bytes(&c.values) + 24;
    }
    n += s.memory_writes.len() as u64 * size::MEM_WRITE;
    for op in &s.ops {
        n += size::STEP + 256 * op.lanes as u64;
        n += op
            .diagnostics
            .iter()
            .map(|d| d.message.len() as u64 + 64)
            .sum::<u64>();
    }
    n += s.diagnostics.iter().map(diagnostic_bytes).sum::<u64>();
    n
}

#[cfg(all(test, target_pointer_width = "64"))]
mod tests {
    use super::{KernelStep, MemWrite};
    use crate::kernel::budget::size;
    use std::mem::size_of;

    /// The meter's fixed sizes of a step and a memory write are this 64-bit host's (the other
    /// fixed sizes are checked next to the meter, in `budget`).
    #[test]
    fn step_sizes_are_the_64_bit_host_sizes() {
        assert_eq!(size::KERNEL_STEP, size_of::<KernelStep>() as u64);
        assert_eq!(size::MEM_WRITE, size_of::<MemWrite>() as u64);
    }
}
