//! The trace of a kernel run as the views read it: each step's line, active mask, changed
//! variables, memory writes and cross-lane [`Step`]s, the launch, the outcome, the final warps.
//! A lane's value is [`LaneVal`]: defined, or [`Undef`] with the reason and line.
//!
//! A step keeps its changed variables compactly ([`VarRow`]: a slot id and a [`LaneRow`] of raw
//! bits, the undefined lanes pointing into the trace's [`ReasonTable`]); the trace's accessors
//! ([`KernelTrace::change`], [`KernelTrace::changes`], [`KernelTrace::vars_after`]) and its JSON
//! give them back as [`VarChange`]s, every lane a [`LaneVal`], as they were recorded.

use std::collections::BTreeSet;

use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};

use super::budget::{diagnostic_bytes, kval_bytes, size, LimitHit};
use super::lane_row::{LaneRow, ReasonTable};
pub use super::lane_val::{LaneVal, Undef};
use super::memory::Memory;
use super::types::{KVal, Scalar};
use super::{KernelDiagnostic, KernelError};
use crosslane_core::lanes::LaneMask;
use crosslane_core::op::Dialect;
use crosslane_core::trace::Step;

/// What host code says of each parameter, by name, as the page shows it beside the field:
/// `64, from cudaMalloc at line 12` (a buffer's length in cells), `64, from the launch at line
/// 30` (a scalar's value); filled by [`super::host_launch::apply_host_launch`] and kept whether
/// or not the user's input overrides it.
pub type HostWords = std::collections::BTreeMap<String, String>;

/// One lane as the page reads it: `{"text": "496", "value": {…}}` when defined,
/// `{"text": null, "why": "…", "line": 8}` when undefined.
fn lane_json(v: &LaneVal) -> serde_json::Value {
    match v {
        Ok(k) => match k.approx() {
            // A value from an inexact math function says how far the device may be from it.
            Some(a) => serde_json::json!({
                "text": k.to_string(),
                "value": k,
                "ulp": a.ulp(),
                "accuracy": a.note(),
            }),
            None => serde_json::json!({ "text": k.to_string(), "value": k }),
        },
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

/// Whether variable `name` is one the front end synthesizes while lowering a construct (the
/// index of a range-based `for`, `__rfN`; the hidden object of a structured binding, `__sbN`;
/// a swap's temporary, a CUB or cooperative-groups helper's locals, a returned struct's
/// `__ret.…` parts) rather than one the kernel declares. Every such name begins with `__`
/// (C++17 [lex.name]/3 reserves "each identifier that contains a double underscore `__`" to the
/// implementation; WGSL forbids an identifier that starts with `__`, WGSL "Identifiers"), but
/// kernels do use such names (`int __x;`, a vendor-style `__tmp`): a name whose variable part
/// (before a struct member's `.` or a cell's `[`) the source itself spells, `own` (the
/// source's `__` words, [`reserved_words`]), is the kernel's and is shown. The engine keeps
/// every variable; the trace's views ([`KernelTrace::changes`], [`KernelTrace::vars_after`], a
/// warp's final variables in the JSON, the text report, a replayed step's variables) leave
/// the synthesized ones out.
pub fn is_synthesized(name: &str, own: &BTreeSet<String>) -> bool {
    // A callee's variable is shown as `function::name`: its own name decides.
    let name = name.rsplit_once("::").map_or(name, |(_, local)| local);
    if !name.starts_with("__") {
        return false;
    }
    let base = name.split(['.', '[']).next().unwrap_or(name);
    !own.contains(base)
}

/// The words of `source` that begin with `__` (identifier characters: ASCII letters, digits,
/// `_`): the reserved names the kernel spells itself, which [`is_synthesized`] shows. A word
/// in a comment or a string counts too; that only shows a variable the front end made under
/// the same spelling, never hides one of the kernel's.
pub fn reserved_words(source: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let b = source.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        if word(b[i]) {
            let start = i;
            while i < b.len() && word(b[i]) {
                i += 1;
            }
            let w = &source[start..i];
            if w.starts_with("__") && !b[start].is_ascii_digit() {
                out.insert(w.to_string());
            }
        } else {
            i += 1;
        }
    }
    out
}

/// A warp's final variables as the JSON shows them: the kernel's own ([`is_synthesized`]).
struct WarpJson<'a> {
    warp: &'a WarpState,
    own: &'a BTreeSet<String>,
}

impl Serialize for WarpJson<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let shown: Vec<serde_json::Value> = self
            .warp
            .vars
            .iter()
            .filter(|(n, _)| !is_synthesized(n, self.own))
            .map(|(name, lanes)| {
                let lanes: Vec<serde_json::Value> = lanes.iter().map(lane_json).collect();
                serde_json::json!({ "name": name, "lanes": lanes })
            })
            .collect();
        let mut st = ser.serialize_struct("WarpState", 3)?;
        st.serialize_field("block", &self.warp.block)?;
        st.serialize_field("warp", &self.warp.warp)?;
        st.serialize_field("vars", &shown)?;
        st.end()
    }
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
    /// The floating-point contraction in force and where it came from ([`super::contract`]).
    pub fp_contract: String,
    /// The AMD target (`gfx942`) a HIP or AMD GCN run ran its AMD operations as: `--arch`, else
    /// the default for its lane count ([`super::pp::predefined::amd_target`]); absent for the
    /// other dialects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Where [`Launch::target`] came from (`--arch`, `the default for 64 lanes without --arch`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_from: Option<String>,
    /// What host code says of each parameter (`64, from cudaMalloc at line 12`), by name: the
    /// page shows it beside the field, whether or not the user's input overrides it.
    #[serde(skip)]
    pub host_words: HostWords,
    /// The entry's parameters in order, each with what the launch gave it
    /// ([`super::host_launch::launch_params`]): enough to launch the same kernel elsewhere (a
    /// harness on a real device) with the same arguments.
    pub params: Vec<LaunchParam>,
}

/// One parameter of the launched entry and what the launch gave it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LaunchParam {
    /// The parameter's name.
    pub name: String,
    /// Its type as `--entry 'name(T, U*)'` writes it (`float*`, `int`, `float4`, `uint64_t&`).
    pub ty: String,
    /// `buffer` (a pointer or reference: its cells are the buffer of this name in `memory`),
    /// `null` (the null pointer), `scalar`, `constant` (a file-scope `__constant__` table
    /// the emulator passes as a buffer of this name; not an argument in C++) or `device` (a
    /// file-scope `__device__`/`__managed__` variable, passed the same way).
    pub kind: &'static str,
    /// A scalar's value as given (`--arg`, the launch in host code, a default argument);
    /// absent when nothing set it (the parameter is then undefined in every lane, with a
    /// diagnostic) and for buffers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
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
    /// The run met an error and stopped there: a launch the memory cannot hold, the first
    /// error diagnostic of a step, or a branch or loop whose condition is undefined in an
    /// active lane (the message names the value's reason and line). `--keep-going`
    /// ([`super::LaunchConfig::keep_going`]) goes on instead.
    Error(KernelError),
}

/// A variable's new per-lane values after a step, as the views read it (a step records it as a
/// [`VarRow`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VarChange {
    /// Variable name.
    pub name: String,
    /// Its value in every lane of the warp (lanes that did not run keep their old value).
    #[serde(serialize_with = "ser_lanes")]
    pub values: Vec<LaneVal>,
}

/// A variable a step changed, as the step records it: its slot (the name is
/// [`KernelTrace::var_name`]) and its value in every lane of the warp, compactly.
#[derive(Clone, Debug, PartialEq)]
pub struct VarRow {
    /// The variable's slot in the compiled program.
    pub slot: u32,
    /// Its value in every lane (lanes that did not run keep their old value); the reasons of
    /// undefined lanes are in [`KernelTrace::reasons`].
    pub row: LaneRow,
}

/// One memory cell written by a step, as the machine reports it and the views read it (a step
/// records it as a [`CellWrite`]).
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

/// A written cell's new content as a step records it: a scalar as its raw bits, anything else
/// kept whole.
#[derive(Clone, Debug, PartialEq)]
enum CellBits {
    /// An undefined value was stored.
    Undefined,
    /// `KVal::Int` of this type, by its bits.
    Int(Scalar, u64),
    /// `KVal::Float` of this type, by the `f64`'s bits.
    Float(Scalar, u64),
    /// Another value (a vector, a pointer).
    Whole(Box<KVal>),
}

/// One memory cell written by a step, compactly: 32 bytes instead of a [`MemWrite`]'s 56
/// ([`CellWrite::write`] gives the [`MemWrite`] back).
#[derive(Clone, Debug, PartialEq)]
pub struct CellWrite {
    /// Buffer index in [`Memory::buffers`].
    pub buffer: u32,
    /// The lane that wrote it.
    pub lane: u32,
    /// Cell.
    pub index: usize,
    value: CellBits,
}

impl CellWrite {
    /// The write as the machine reported it. A buffer or lane index past `u32::MAX` (never: the
    /// memory budget and [`crosslane_core::lanes::MAX_LANES`] bound them) is kept as `u32::MAX`.
    pub fn new(w: MemWrite) -> Self {
        CellWrite {
            buffer: u32::try_from(w.buffer).unwrap_or(u32::MAX),
            lane: u32::try_from(w.lane).unwrap_or(u32::MAX),
            index: w.index,
            value: match w.value {
                None => CellBits::Undefined,
                Some(KVal::Int { ty, bits }) => CellBits::Int(ty, bits),
                Some(KVal::Float {
                    ty,
                    x,
                    approx: None,
                }) => CellBits::Float(ty, x.to_bits()),
                Some(k) => CellBits::Whole(Box::new(k)),
            },
        }
    }

    /// The new content (`None`: an undefined value was stored).
    pub fn value(&self) -> Option<KVal> {
        match &self.value {
            CellBits::Undefined => None,
            CellBits::Int(ty, bits) => Some(KVal::Int {
                ty: *ty,
                bits: *bits,
            }),
            CellBits::Float(ty, bits) => Some(KVal::Float {
                ty: *ty,
                x: f64::from_bits(*bits),
                approx: None,
            }),
            CellBits::Whole(k) => Some((**k).clone()),
        }
    }

    /// The write as the views read it.
    pub fn write(&self) -> MemWrite {
        MemWrite {
            buffer: self.buffer as usize,
            index: self.index,
            value: self.value(),
            lane: self.lane as usize,
        }
    }

    /// Bytes it holds (a value kept whole on the heap included).
    pub fn bytes(&self) -> u64 {
        size::CELL_WRITE
            + match &self.value {
                CellBits::Whole(k) => kval_bytes(k),
                _ => 0,
            }
    }
}

/// One executed statement (or branch / loop test / barrier) of one warp. Its JSON (in a
/// trace's `"steps"`) is written by the trace, which holds the variables' names and reasons.
#[derive(Clone, Debug, PartialEq)]
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
    /// Variables it changed, with their values in every lane ([`KernelTrace::changes`] gives
    /// them as values).
    pub changes: Vec<VarRow>,
    /// Memory it wrote.
    pub memory_writes: Vec<CellWrite>,
    /// Cross-lane operations it ran, in order (the same [`Step`] the single-op view draws).
    pub ops: Vec<Step>,
    /// Diagnostics at this step.
    pub diagnostics: Vec<KernelDiagnostic>,
}

/// The final variables of one warp (the JSON leaves out the front end's, [`is_synthesized`]).
#[derive(Clone, Debug, PartialEq)]
pub struct WarpState {
    /// Block.
    pub block: usize,
    /// Warp within the block.
    pub warp: usize,
    /// Variables by name, each with its value in every lane (`return` holds a device function's
    /// result); the JSON leaves out the front end's own ([`is_synthesized`]).
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
    /// The last step (0-based) that ran a cross-lane operation, so far: the call the page draws
    /// at a position replayed from a checkpoint ([`super::Replay`]). Not in the JSON.
    #[serde(skip)]
    pub last_op_step: Option<u64>,
}

/// Everything a run produced. Its JSON has the fields below but the last two, each step's
/// changed variables written out as [`VarChange`]s.
#[derive(Clone, Debug, PartialEq)]
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
    pub diagnostics: Vec<KernelDiagnostic>,
    /// Every diagnostic of the parse, the launch and the run, merged across lanes, warps,
    /// blocks and steps, each with its count ([`super::diaglog::DiagLog::merged`]; filled when
    /// the run ends). The JSON's top-level `"diagnostics"` ("merged across lanes").
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
    /// The name of each variable slot of the compiled program ([`VarRow::slot`]).
    pub names: Vec<String>,
    /// The reasons the steps' undefined lanes point at.
    pub reasons: ReasonTable,
    /// Which branch each preprocessor conditional took and which lines it skipped (in the
    /// JSON as `"preprocess"` when the source has a conditional).
    pub preprocess: super::pp::PpRecord,
    /// The `__` words the source spells ([`reserved_words`]): variables of those names are the
    /// kernel's own and shown ([`is_synthesized`]). Not in the JSON.
    pub own_reserved: BTreeSet<String>,
}

impl KernelStep {
    /// The memory it wrote, as the views read it.
    pub fn writes(&self) -> Vec<MemWrite> {
        self.memory_writes.iter().map(CellWrite::write).collect()
    }
}

/// A step as its JSON shows it: the recorded fields, the changed variables as values.
struct StepJson<'a> {
    trace: &'a KernelTrace,
    step: &'a KernelStep,
}

impl Serialize for StepJson<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let s = self.step;
        let mut st = ser.serialize_struct("KernelStep", 12)?;
        st.serialize_field("index", &s.index)?;
        st.serialize_field("block", &s.block)?;
        st.serialize_field("warp", &s.warp)?;
        st.serialize_field("line", &s.line)?;
        st.serialize_field("col", &s.col)?;
        st.serialize_field("text", &s.text)?;
        st.serialize_field("active", &s.active)?;
        st.serialize_field("lanes", &s.lanes)?;
        st.serialize_field("changes", &self.trace.changes(s))?;
        st.serialize_field("memory_writes", &s.writes())?;
        st.serialize_field("ops", &s.ops)?;
        st.serialize_field("diagnostics", &s.diagnostics)?;
        st.end()
    }
}

/// The steps, each as [`StepJson`].
struct StepsJson<'a>(&'a KernelTrace);

impl Serialize for StepsJson<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.collect_seq(self.0.steps.iter().map(|step| StepJson {
            trace: self.0,
            step,
        }))
    }
}

impl Serialize for KernelTrace {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut st = ser.serialize_struct("KernelTrace", 10)?;
        st.serialize_field("launch", &self.launch)?;
        st.serialize_field("steps", &StepsJson(self))?;
        st.serialize_field("outcome", &self.outcome)?;
        st.serialize_field("diagnostics", &self.merged_diagnostics)?;
        st.serialize_field("initial_memory", &self.initial_memory)?;
        st.serialize_field("memory", &self.memory)?;
        let warps: Vec<WarpJson> = self
            .warps
            .iter()
            .map(|warp| WarpJson {
                warp,
                own: &self.own_reserved,
            })
            .collect();
        st.serialize_field("warps", &warps)?;
        st.serialize_field("stats", &self.stats)?;
        st.serialize_field("printf", &self.printf)?;
        if self.preprocess.conditionals.is_empty() {
            st.skip_field("preprocess")?;
        } else {
            st.serialize_field("preprocess", &self.preprocess)?;
        }
        st.end()
    }
}

impl KernelTrace {
    /// Whether variable `name` is the front end's, left out of the views ([`is_synthesized`]
    /// with the source's own `__` words).
    pub fn is_synthesized(&self, name: &str) -> bool {
        is_synthesized(name, &self.own_reserved)
    }

    /// The name of variable slot `slot` (empty for a slot the program does not have).
    pub fn var_name(&self, slot: u32) -> &str {
        self.names.get(slot as usize).map_or("", String::as_str)
    }

    /// A recorded change as the views read it: the variable's name and every lane's value.
    pub fn change(&self, c: &VarRow) -> VarChange {
        VarChange {
            name: self.var_name(c.slot).to_string(),
            values: c.row.values(&self.reasons),
        }
    }

    /// The variables step `s` changed, as the views read them: the kernel's own, not the
    /// front end's ([`is_synthesized`]).
    pub fn changes(&self, s: &KernelStep) -> Vec<VarChange> {
        s.changes
            .iter()
            .filter(|c| !self.is_synthesized(self.var_name(c.slot)))
            .map(|c| self.change(c))
            .collect()
    }

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
                let _ = m.write(w.buffer as usize, w.index as i64, w.value());
            }
        }
        m
    }

    /// The variables of warp `warp` of block `block` right after step `index`, each with its
    /// value in every lane, in the order they were first changed; the kernel's own, not the
    /// front end's ([`is_synthesized`]).
    pub fn vars_after(&self, index: usize, block: usize, warp: usize) -> Vec<VarChange> {
        let mut vars: Vec<VarChange> = Vec::new();
        for s in self.steps.iter().take(index.saturating_add(1)) {
            if s.block != block || s.warp != warp {
                continue;
            }
            for c in &s.changes {
                let name = self.var_name(c.slot);
                if self.is_synthesized(name) {
                    continue;
                }
                match vars.iter_mut().find(|v| v.name == name) {
                    Some(v) => v.values = c.row.values(&self.reasons),
                    None => vars.push(self.change(c)),
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

/// Bytes of a recorded step: its text, changed variables ([`LaneRow::bytes`]; their reasons
/// are counted once, when the trace's table stores them), writes, operations and diagnostics.
/// A cross-lane operation's [`crosslane_core::trace::Step`] is counted at 256 bytes per lane (inputs,
/// results with their source and reason) plus its diagnostics.
pub fn step_bytes(s: &KernelStep) -> u64 {
    let mut n = size::KERNEL_STEP + s.text.len() as u64;
    for c in &s.changes {
        n += c.row.bytes() + 8;
    }
    n += s.memory_writes.iter().map(CellWrite::bytes).sum::<u64>();
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
    use super::{CellWrite, KernelStep, LaneRow, MemWrite, VarRow};
    use crate::budget::size;
    use std::mem::size_of;

    /// The meter's fixed sizes of a step, a memory write and a recorded row are this 64-bit
    /// host's (the other fixed sizes are checked next to the meter, in `budget`).
    #[test]
    fn step_sizes_are_the_64_bit_host_sizes() {
        assert_eq!(size::KERNEL_STEP, size_of::<KernelStep>() as u64);
        assert_eq!(size::MEM_WRITE, size_of::<MemWrite>() as u64);
        assert_eq!(size::CELL_WRITE, size_of::<CellWrite>() as u64);
        assert_eq!(size::LANE_ROW, size_of::<LaneRow>() as u64);
        // A change is its row and its slot, padded.
        assert!(size_of::<VarRow>() as u64 <= size::LANE_ROW + 16);
    }

    /// A callee's variable is shown as `function::name`; its own name decides whether the
    /// front end made it (a tile's hidden meta pair) or the kernel spelled it.
    #[test]
    fn a_callees_synthesized_variable_is_hidden_by_its_own_name() {
        let none = std::collections::BTreeSet::new();
        assert!(super::is_synthesized("who::__cg_meta_rank_t", &none));
        assert!(!super::is_synthesized("who::t", &none));
        let own: std::collections::BTreeSet<String> = ["__x".to_string()].into();
        assert!(!super::is_synthesized("f::__x", &own));
        assert!(!super::is_synthesized("__x.a", &own));
        assert!(super::is_synthesized("__rf0", &own));
    }

    /// A recorded write gives back the write the machine reported: a scalar by its bits (a
    /// float's -0.0 and NaN payload included), an undefined store, a vector kept whole.
    #[test]
    fn a_cell_write_gives_back_the_write() {
        use crate::{KVal, Scalar};
        let writes = [
            Some(KVal::Int {
                ty: Scalar::U32,
                bits: 0xdead_beef,
            }),
            Some(KVal::Float {
                ty: Scalar::F64,
                x: f64::from_bits(0x7ff8_0000_0000_0001),
                approx: None,
            }),
            Some(KVal::Float {
                ty: Scalar::F32,
                x: -0.0,
                approx: None,
            }),
            None,
            Some(KVal::Vector {
                ty: Scalar::I32,
                items: vec![KVal::Int {
                    ty: Scalar::I32,
                    bits: 7,
                }],
            }),
        ];
        for (k, value) in writes.into_iter().enumerate() {
            let w = MemWrite {
                buffer: 2,
                index: 1000 + k,
                value,
                lane: 31,
            };
            let c = CellWrite::new(w.clone());
            let back = c.write();
            assert_eq!((back.buffer, back.index, back.lane), (2, 1000 + k, 31));
            match (&back.value, &w.value) {
                (Some(KVal::Float { x: a, .. }), Some(KVal::Float { x: b, .. })) => {
                    assert_eq!(a.to_bits(), b.to_bits())
                }
                (a, b) => assert_eq!(a, b),
            }
            // The vector's header and its one component are on the heap.
            let heap = if k == 4 { 2 * size::KVAL } else { 0 };
            assert_eq!(c.bytes(), size::CELL_WRITE + heap, "write {k}");
        }
    }
}
